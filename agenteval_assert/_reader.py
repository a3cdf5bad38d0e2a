"""Read a transcript file into ``(line, record)`` pairs, in one pass, keeping line numbers.

Three shapes exist in the wild: JSONL (one record per line, the common case), a JSON array of
the same records (some fixture repos wrap stream-json in ``[ ]``), and one JSON object (Claude
``--output-format json``, Gemini chat sessions). JSONL is streamed line by line; the other two
need the whole document, and their elements get the line where they start.

Nothing is dropped silently: blank and ``#`` comment lines are counted, and every line that is
not a JSON object becomes a ``LineIssue``.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from typing import Any, BinaryIO, Literal

import attrs

from .exceptions import TranscriptError
from .model import LineIssue

Record = tuple[int, dict[str, Any]]
Shape = Literal["jsonl", "json-array", "json-object", "empty"]

_WS = b" \t\r\n\f\v"
_BOM = b"\xef\xbb\xbf"
_EXCERPT = 80


@attrs.define
class ReadStats:
    """What the reader saw, for ``Health``."""

    path: str
    shape: Shape = "jsonl"
    lines: int = 0
    records: int = 0
    blank: int = 0
    comments: int = 0
    unparsable: list[LineIssue] = attrs.field(factory=list)
    truncated_tail: bool = False


class _NotJSON(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``: Python's ``json`` reads them, JSON does not."""


def _reject_constant(name: str) -> Any:
    raise _NotJSON(name)


def _excerpt(raw: bytes | str) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    text = text.strip()
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


class Source:
    """An opened transcript: its shape, stats, and an iterator of records (consumed once)."""

    def __init__(self, path: str, stream: BinaryIO | None, data: bytes | None) -> None:
        self.path = path
        self.stats = ReadStats(path=path)
        self._stream = stream
        self._data = data
        head = self._peek()
        if not head:
            self.stats.shape = "empty"
        elif head[:1] == b"[":
            self.stats.shape = "json-array"
        elif head[:1] == b"{" and self._is_single_object():
            self.stats.shape = "json-object"
        else:
            self.stats.shape = "jsonl"

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Source:
        """Open a file; raises ``TranscriptError`` when it cannot be read."""
        p = os.fspath(path)
        try:
            if os.path.isdir(p):
                raise TranscriptError("is a directory, not a transcript file", path=p, expected="a file")
            stream = open(p, "rb")  # noqa: SIM115 - closed by the record iterator
        except OSError as exc:
            raise TranscriptError(f"cannot read: {exc.strerror or exc}", path=p) from None
        return cls(p, stream, None)

    @classmethod
    def from_bytes(cls, data: bytes | str, path: str = "<memory>") -> Source:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        return cls(path, None, raw)

    def _peek(self) -> bytes:
        """First non-whitespace bytes (up to 64), without consuming the stream."""
        if self._data is not None:
            return self._data.removeprefix(_BOM).lstrip(_WS)[:64]
        assert self._stream is not None
        pos = self._stream.tell()
        chunk = b""
        while True:
            block = self._stream.read(65536)
            if not block:
                break
            chunk = block.removeprefix(_BOM).lstrip(_WS)
            if chunk:
                break
        self._stream.seek(pos)
        return chunk[:64]

    def head_bytes(self, size: int = 65536) -> bytes:
        """The first *size* bytes as stored (BOM and blanks kept), without consuming the stream:
        for the formats that are not JSON (zip archives, markdown) to recognise themselves."""
        if self._data is not None:
            return self._data[:size]
        assert self._stream is not None
        pos = self._stream.tell()
        chunk = self._stream.read(size)
        self._stream.seek(pos)
        return chunk

    def close(self) -> None:
        """Close the file if it is still open (reading every record closes it too)."""
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def whole_bytes(self) -> bytes:
        """The whole file (read once, then kept): for the formats that read it themselves."""
        return self._whole()

    def _whole(self) -> bytes:
        if self._data is None:
            assert self._stream is not None
            self._data = self._stream.read()
            self._stream.close()
            self._stream = None
        return self._data

    def _is_single_object(self) -> bool:
        """A file starting with ``{`` is one JSON document when its first line does not close it."""
        if self._data is not None:
            first = self._data.lstrip(_WS).split(b"\n", 1)[0]
        else:
            assert self._stream is not None
            pos = self._stream.tell()
            first = b""
            for line in self._stream:
                if line.strip(_WS):
                    first = line
                    break
            self._stream.seek(pos)
        try:
            obj = json.loads(first)
        except ValueError:
            # A first line that is not a whole object: either a pretty-printed document or a
            # torn/corrupt first JSONL line. The whole-document parse decides.
            try:
                json.loads(self._whole())
            except ValueError:
                return False
            return True
        return not isinstance(obj, dict)

    # -- records ---------------------------------------------------------------------------

    def records(self) -> Iterator[Record]:
        """Yield ``(line, record)``; problems go to ``self.stats``."""
        shape = self.stats.shape
        if shape == "empty":
            self.stats.lines = self._count_lines()
            return iter(())
        if shape == "json-array":
            return self._array_records()
        if shape == "json-object":
            return self._object_record()
        return self._jsonl_records()

    def document_text(self) -> str | None:
        """The whole text of a single-document file (JSON object or array), else ``None``."""
        if self.stats.shape not in ("json-object", "json-array") or self._data is None:
            return None
        return self._data.decode("utf-8", "replace")

    def _count_lines(self) -> int:
        data = self._whole()
        return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)

    def _jsonl_records(self) -> Iterator[Record]:
        st = self.stats
        loads = json.loads
        # The fast path of ``json.loads``, without its per-call encoding detection and
        # leading-whitespace regex: decode the UTF-8 bytes, then ``raw_decode``. Anything it does
        # not take (leading blanks, a BOM, UTF-16, trailing text) falls back to ``json.loads``,
        # so what parses and what is an issue stays exactly ``json.loads``'s verdict.
        raw_decode = json.JSONDecoder(parse_constant=_reject_constant).raw_decode
        # BytesIO splits on b"\n" only, exactly like a file opened in binary mode.
        lines: Any = self._stream if self._data is None else io.BytesIO(self._data)
        n = 0
        last_issue: LineIssue | None = None
        last_raw = b""
        try:
            for n, raw in enumerate(lines, 1):
                last_raw = raw
                try:
                    try:
                        text = raw.decode("utf-8")
                        obj, end = raw_decode(text)
                        if end != len(text) and text[end:].strip(" \t\n\r"):
                            raise ValueError("extra data")
                    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
                        obj = loads(raw, parse_constant=_reject_constant)
                except ValueError as exc:
                    stripped = raw.strip(_WS)
                    if not stripped:
                        st.blank += 1
                        continue
                    if stripped[:1] == b"#":
                        st.comments += 1
                        continue
                    reason = f"not valid JSON: {exc.args[0]} is not a JSON value" if isinstance(
                        exc, _NotJSON) else "not valid JSON"
                    last_issue = LineIssue(n, reason, _excerpt(stripped))
                    st.unparsable.append(last_issue)
                    continue
                if type(obj) is not dict:
                    last_issue = LineIssue(n, f"a JSON {type(obj).__name__}, not an object", _excerpt(raw))
                    st.unparsable.append(last_issue)
                    continue
                st.records += 1
                yield n, obj
        finally:
            if self._stream is not None:
                self._stream.close()
        st.lines = n
        if (
            last_issue is not None
            and last_issue.line == n
            and not last_raw.endswith(b"\n")
            and last_issue.reason == "not valid JSON"
        ):
            st.truncated_tail = True

    def _array_records(self) -> Iterator[Record]:
        st = self.stats
        data = self._whole()
        st.lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            st.unparsable.append(LineIssue(line, "not UTF-8 text", _excerpt(data[exc.start : exc.start + 40])))
            return
        dec = json.JSONDecoder()
        pos = text.index("[") + 1
        seen = 0  # newlines are counted up to this offset
        line = 1 + text.count("\n", 0, pos)
        seen = pos
        end = len(text)
        ws = " \t\r\n"
        while True:
            while pos < end and text[pos] in ws:
                pos += 1
            line += text.count("\n", seen, pos)
            seen = pos
            if pos >= end:
                st.unparsable.append(LineIssue(line, "JSON array is not closed", ""))
                st.truncated_tail = True
                return
            ch = text[pos]
            if ch == "]":
                rest = text[pos + 1 :].strip()
                if rest:
                    st.unparsable.append(LineIssue(line, "text after the JSON array", _excerpt(rest)))
                return
            if ch == ",":
                pos += 1
                continue
            try:
                obj, new_pos = dec.raw_decode(text, pos)
            except json.JSONDecodeError as exc:
                st.unparsable.append(
                    LineIssue(exc.lineno, f"invalid JSON in array: {exc.msg}", _excerpt(text[pos : pos + 60]))
                )
                # A document cut short (no closing bracket) is a torn tail, not a corrupt middle.
                st.truncated_tail = not text.rstrip().endswith("]")
                return
            if type(obj) is dict:
                st.records += 1
                yield line, obj
            else:
                st.unparsable.append(
                    LineIssue(line, f"array element is a JSON {type(obj).__name__}", _excerpt(text[pos:new_pos]))
                )
            pos = new_pos

    def _object_record(self) -> Iterator[Record]:
        st = self.stats
        data = self._whole()
        st.lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        obj = json.loads(data)
        st.records = 1
        yield 1, obj
