"""Lines of the records inside one JSON document (a SWE-agent ``.traj``, an inspect_ai log).

The reader hands a single-document file to its parser as one record on line 1. The records a
user wants located (a trajectory step, a message) are elements of arrays inside it, so this
module finds where each element starts, the way the reader does for a top-level JSON array: it
walks the text once along a key path, skipping every value it does not need with the C
decoder (``raw_decode``), so locating every element of an array costs one pass over the text.

Hand-written rather than a library: the standard ``json`` module keeps no positions, and the
streaming parsers that do (ijson) are a compiled dependency for a few dozen lines of code.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence

__all__ = ["DocumentLines"]

_WS = " \t\r\n"
_decoder = json.JSONDecoder()


class DocumentLines:
    """Offsets and lines of array elements inside one JSON document text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._newlines: list[int] | None = None

    def line(self, offset: int) -> int:
        """1-based line of a character offset."""
        if self._newlines is None:
            text = self.text
            nl: list[int] = []
            i = text.find("\n")
            while i >= 0:
                nl.append(i)
                i = text.find("\n", i + 1)
            self._newlines = nl
        return bisect.bisect_left(self._newlines, offset) + 1

    def _ws(self, pos: int) -> int:
        text = self.text
        end = len(text)
        while pos < end and text[pos] in _WS:
            pos += 1
        return pos

    def _find(self, start: int, path: Sequence[str | int]) -> int | None:
        """Offset of the value at *path* (keys and indexes) from the value at *start*."""
        text = self.text
        pos = self._ws(start)
        for step in path:
            if pos >= len(text):
                return None
            if isinstance(step, str):
                if text[pos] != "{":
                    return None
                pos = self._ws(pos + 1)
                while True:
                    if pos >= len(text) or text[pos] != '"':
                        return None
                    key, pos = _decoder.raw_decode(text, pos)
                    pos = self._ws(pos)
                    if text[pos : pos + 1] != ":":
                        return None
                    pos = self._ws(pos + 1)
                    if key == step:
                        break
                    _, pos = _decoder.raw_decode(text, pos)
                    pos = self._ws(pos)
                    if text[pos : pos + 1] != ",":
                        return None
                    pos = self._ws(pos + 1)
            else:
                items = self._items_at(pos)
                if items is None or step >= len(items):
                    return None
                pos = items[step]
        return pos

    def _items_at(self, pos: int) -> list[int] | None:
        text = self.text
        if text[pos : pos + 1] != "[":
            return None
        out: list[int] = []
        pos = self._ws(pos + 1)
        if text[pos : pos + 1] == "]":
            return out
        while pos < len(text):
            out.append(pos)
            _, pos = _decoder.raw_decode(text, pos)
            pos = self._ws(pos)
            if text[pos : pos + 1] != ",":
                break
            pos = self._ws(pos + 1)
        return out

    def value_line(self, path: Sequence[str | int], default: int = 1) -> int:
        """The line where the value at *path* starts (*default* when it is not there)."""
        try:
            pos = self._find(1 if self.text.startswith("\ufeff") else 0, path)
        except (ValueError, IndexError):
            pos = None
        return default if pos is None else self.line(pos)

    def items(self, path: Sequence[str | int], start: int = 0) -> list[int]:
        """Start offsets of the elements of the array at *path* below the value at *start*.

        ``[]`` when the path is not there or the text is not what it should be (the callers then
        fall back to the document's first line): locating is a convenience, never a reason to
        refuse a file the reader accepted.
        """
        try:
            if start == 0 and self.text.startswith("\ufeff"):
                start = 1
            pos = self._find(start, path)
            if pos is None:
                return []
            return self._items_at(pos) or []
        except (ValueError, IndexError):
            return []
