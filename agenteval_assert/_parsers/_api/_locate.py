"""Where a value sits in a single JSON document: the line of a nested element, or of an id.

A pretty-printed request dump spans many lines: the parse locates each message, call and result
on its own line rather than where the record starts. Imports nothing of ours.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Sequence

_WS = " \t\r\n"
_DECODER = json.JSONDecoder()


def _skip_ws(text: str, pos: int) -> int:
    n = len(text)
    while pos < n and text[pos] in _WS:
        pos += 1
    return pos


def _seek(text: str, path: Sequence[str | int]) -> int:
    """Offset of the value at *path* (keys and array indexes) in the JSON *text*; raises when absent."""
    pos = _skip_ws(text, 0)
    for step in path:
        if isinstance(step, str):
            if text[pos] != "{":
                raise ValueError("not an object")
            pos = _skip_ws(text, pos + 1)
            while True:
                if text[pos] == "}":
                    raise ValueError(f"no key {step!r}")
                key, pos = _DECODER.raw_decode(text, pos)
                pos = _skip_ws(text, pos)
                pos = _skip_ws(text, pos + 1)  # the colon
                if key == step:
                    break
                _, pos = _DECODER.raw_decode(text, pos)
                pos = _skip_ws(text, pos)
                if text[pos] == ",":
                    pos = _skip_ws(text, pos + 1)
        else:
            if text[pos] != "[":
                raise ValueError("not an array")
            pos = _skip_ws(text, pos + 1)
            for _ in range(step):
                _, pos = _DECODER.raw_decode(text, pos)
                pos = _skip_ws(text, pos)
                if text[pos] != ",":
                    raise ValueError("index out of range")
                pos = _skip_ws(text, pos + 1)
    return pos


class _Lines:
    """Line numbers of values inside one JSON document, found by walking its text once per path."""

    def __init__(self, text: str | None, base: Sequence[str | int]) -> None:
        self.text = text
        self.base = tuple(base)

    def of(self, path: Sequence[str | int], default: int) -> int:
        if self.text is None:
            return default
        try:
            pos = _seek(self.text, self.base + tuple(path))
        except (ValueError, IndexError):
            return default
        return self.text.count("\n", 0, pos) + 1

    def elements(self, path: Sequence[str | int], n: int, default: int) -> list[int]:
        """The line of each of the first *n* elements of the array at *path*."""
        if self.text is None or n == 0:
            return [default] * n
        text = self.text
        try:
            pos = _seek(text, self.base + tuple(path))
            if text[pos] != "[":
                raise ValueError("not an array")
            pos = _skip_ws(text, pos + 1)
            out: list[int] = []
            line, seen = 1 + text.count("\n", 0, pos), pos
            for _ in range(n):
                line += text.count("\n", seen, pos)
                seen = pos
                out.append(line)
                _, pos = _DECODER.raw_decode(text, pos)
                pos = _skip_ws(text, pos)
                if text[pos] == ",":
                    pos = _skip_ws(text, pos + 1)
            return out
        except (ValueError, IndexError):
            return [default] * n


class _IdLines:
    """The line where an id first appears in a document, at or after a given line."""

    def __init__(self, doc: str) -> None:
        self.doc = doc
        starts = [0]  # offsets of the lines
        pos = doc.find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = doc.find("\n", pos + 1)
        self.starts = starts

    def find(self, ident: str, line: int) -> int | None:
        starts = self.starts
        if not 0 < line <= len(starts):
            return None
        pos = self.doc.find(json.dumps(ident, ensure_ascii=False), starts[line - 1])
        if pos < 0:
            return None
        return bisect_right(starts, pos)
