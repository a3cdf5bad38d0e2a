"""Read a transcript file into ``(line, record)`` pairs, in one pass, keeping line numbers.

Three shapes exist in the wild: JSONL (one record per line, the common case), a JSON array of
the same records (some fixture repos wrap stream-json in ``[ ]``), and one JSON object (Claude
``--output-format json``, Gemini chat sessions). JSONL is streamed line by line; the other two
need the whole document, and their elements get the line where they start.

Nothing is dropped silently: blank and ``#`` comment lines are counted, and every line that is
not a JSON object becomes a ``LineIssue``.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any, BinaryIO, Literal

import attrs

from .exceptions import TranscriptError, UsageError
from .model import LineIssue

Record = tuple[int, dict[str, Any]]
Shape = Literal["jsonl", "json-array", "json-object", "empty"]

_WS = b" \t\r\n\f\v"
_BOM = b"\xef\xbb\xbf"
_EXCERPT = 80

#: The largest input read, in bytes, unless ``AGENTEVAL_MAX_INPUT_BYTES`` says otherwise: far
#: above real logs (a long Claude Code session is tens of MB; the benchmark's largest files are
#: 120 MB), low enough that ``/dev/zero`` or a runaway file fails fast instead of eating memory.
DEFAULT_MAX_INPUT_BYTES = 2 << 30
#: Environment variable that overrides ``DEFAULT_MAX_INPUT_BYTES`` (bytes, or with a ``K``, ``M``
#: or ``G`` suffix: ``AGENTEVAL_MAX_INPUT_BYTES=8G``).
MAX_INPUT_ENV = "AGENTEVAL_MAX_INPUT_BYTES"
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
#: The reader's chunk of lines, in bytes (small: larger blocks, freed and made again, leave the
#: allocator holding more memory).
_CHUNK = 1 << 16
#: Runs of object lines decoded with one call (``Source._run``): at most this many lines, each
#: at most this many characters (a long line gains nothing and would be copied once more).
_RUN_LINES = 256
_RUN_LINE = 1 << 16
#: Runs are made in chunks whose lines average at most this many bytes (``codex exec --json``:
#: about 100); longer lines are decoded one by one.
_RUN_AVERAGE = 400
#: The separator between the lines of a run: a string no chunk that uses it contains.
_MARK = b'"\\u0000"'
_MARK_VALUE = "\x00"
_JUST_DICT = {dict}
_RUN_OPEN, _RUN_SEP, _RUN_CLOSE = b"[", b"\n," + _MARK + b",", b"\n]"
_NESTING = "JSON nested too deeply to read (deeper than the interpreter's recursion limit)"


def max_input_bytes() -> int:
    """The input size limit in bytes: ``AGENTEVAL_MAX_INPUT_BYTES`` or ``DEFAULT_MAX_INPUT_BYTES``.

    Raises ``UsageError`` when the variable is set to something that is not a positive size.
    """
    raw = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_INPUT_BYTES
    text = raw.upper().removesuffix("B").removesuffix("I")
    unit = text[-1:] if text[-1:] in _UNITS and text[-1:] else ""
    number = text[: len(text) - len(unit)].strip()
    try:
        value = int(float(number) * _UNITS[unit]) if number else 0
    except (ValueError, OverflowError):
        value = 0
    if value <= 0:
        raise UsageError(f"{MAX_INPUT_ENV}={raw!r}: expected a positive size in bytes (e.g. 500000000, 800M, 4G)")
    return value


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_input_file(path: str, what: str = "transcript") -> int:
    """The size of *path*, after making sure it is a regular file within the size limit.

    A directory, a FIFO, a device (``/dev/zero``, ``/dev/urandom``) or a socket would hang the
    read, exhaust memory or read as an empty run: each is a ``TranscriptError`` naming the file.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise TranscriptError(f"cannot read: {exc.strerror or exc}", path=path) from None
    if not stat.S_ISREG(st.st_mode):
        kind = _kind(st.st_mode)
        raise TranscriptError(f"is {kind}, not a {what} file", path=path, expected="a regular file")
    limit = max_input_bytes()
    if st.st_size > limit:
        raise TranscriptError(
            f"is {st.st_size:,} bytes, more than the input limit of {limit:,} bytes "
            f"(set {MAX_INPUT_ENV} to read larger files)", path=path)
    return st.st_size


def read_input_file(path: str, what: str = "transcript") -> bytes:
    """The whole of a regular file within the size limit (``check_input_file``), as bytes."""
    check_input_file(path, what)
    limit = max_input_bytes()
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise TranscriptError(f"cannot read: {exc.strerror or exc}", path=path) from None
    if len(data) > limit:  # it grew while we looked
        raise TranscriptError(f"is more than the input limit of {limit:,} bytes (set {MAX_INPUT_ENV} "
                              "to read larger files)", path=path)
    return data


def text_encoding(head: bytes) -> str:
    """The encoding of a JSON text from its first bytes (RFC 8259 §8.1, as ``json.loads`` does):
    ``utf-8`` (with or without a BOM), or ``utf-16`` / ``utf-32`` (by their BOM, or by the zero
    bytes of the first ASCII character)."""
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if len(head) >= 4:
        if not head[0] and not head[1] and not head[2] and head[3]:
            return "utf-32-be"
        if head[0] and not head[1] and not head[2] and not head[3]:
            return "utf-32-le"
    if len(head) >= 2:
        if not head[0] and head[1]:
            return "utf-16-be"
        if head[0] and not head[1]:
            return "utf-16-le"
    return "utf-8"


def decode_input(data: bytes, path: str) -> tuple[bytes, str]:
    """*data* as UTF-8 bytes, and the encoding it was in: UTF-16 and UTF-32 files (PowerShell 5
    writes UTF-16 with ``>``) are decoded once, here, so that the parser and the raw-text checks
    read the same text. Bytes that only look like UTF-16 (binary junk with zero bytes) and do not
    decode as JSON text are left as they are: the reader reports their lines as unparsable."""
    enc = text_encoding(data[:4])
    if enc == "utf-8":
        return data, enc
    try:
        text = data.decode(enc)
    except UnicodeDecodeError:
        return data, "utf-8"
    body = text.removeprefix("\ufeff")
    if not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) \
            and body[:1] not in ("{", "[", " ", "\t", "\r", "\n", "#"):
        return data, "utf-8"
    return body.encode("utf-8", "surrogatepass"), enc


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
    #: the file's text encoding (``utf-8``, or the UTF-16/UTF-32 it was decoded from)
    encoding: str = "utf-8"


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
        self._last_issue: LineIssue | None = None
        decoder = json.JSONDecoder(parse_constant=_reject_constant)
        #: ``json.loads`` without its per-call encoding detection and leading-whitespace regex:
        #: anything it does not take (leading blanks, a BOM, UTF-16, text after the value) goes
        #: to ``json.loads`` itself, so what parses and what is an issue stays its verdict
        self._raw_decode = decoder.raw_decode
        self._decode_run = decoder.raw_decode
        #: what ``raw_decode`` calls, without its frame (a text that starts with no JSON value
        #: raises ``StopIteration``): the long lines' loop takes any failure to ``_line``
        self._scan: Callable[[str, int], tuple[Any, int]] = decoder.scan_once  # type: ignore[attr-defined]
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
        """Open a file; raises ``TranscriptError`` when it cannot be read.

        Only regular files within the size limit are read (``check_input_file``); a UTF-16 or
        UTF-32 file is decoded to UTF-8 first (``decode_input``).
        """
        p = os.fspath(path)
        check_input_file(p)
        try:
            stream = open(p, "rb")  # noqa: SIM115 - closed by the record iterator
        except OSError as exc:
            raise TranscriptError(f"cannot read: {exc.strerror or exc}", path=p) from None
        try:
            head = stream.read(4)
            stream.seek(0)
            if text_encoding(head) != "utf-8":
                data, enc = decode_input(stream.read(), p)
                stream.close()
                src = cls(p, None, data)
                src.stats.encoding = enc
                return src
        except BaseException:
            stream.close()
            raise
        return cls(p, stream, None)

    @classmethod
    def from_bytes(cls, data: bytes | str, path: str = "<memory>") -> Source:
        if isinstance(data, str):
            return cls(path, None, data.encode("utf-8", "surrogatepass"))
        raw, enc = decode_input(data, path)
        src = cls(path, None, raw)
        src.stats.encoding = enc
        return src

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
        if self._stream.closed:  # the records were all read: the file once more, for its first bytes
            try:
                with open(self.path, "rb") as fh:
                    return fh.read(size)
            except OSError:
                return b""
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
        except (ValueError, RecursionError):
            # A first line that is not a whole object: either a pretty-printed document or a
            # torn/corrupt first JSONL line. The whole-document parse decides.
            try:
                json.loads(self._whole())
            except RecursionError:
                return False
            except ValueError:
                return not self._next_lines_are_records()
            return True
        return not isinstance(obj, dict)

    def _next_lines_are_records(self, lines: int = 20) -> bool:
        """Whether one of the lines after the first (the first *lines* non-blank ones) is a JSON
        object: then the file is JSONL whose first line is damaged. Otherwise it is one JSON
        document that does not parse (a pretty-printed file cut short): its error is reported at
        the line where the document broke, not as every line being unparsable."""
        seen = 0
        for raw in self._whole().removeprefix(_BOM).lstrip(_WS).split(b"\n")[1:]:
            if not raw.strip(_WS):
                continue
            try:
                if isinstance(json.loads(raw), dict):
                    return True
            except (ValueError, RecursionError):
                pass
            seen += 1
            if seen >= lines:
                break
        return False

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

    def _chunks(self) -> Iterator[bytes]:
        """The input in pieces of whole lines (the last one may lack its newline)."""
        if self._data is not None:
            data = self._data
            pos, size = 0, len(data)
            while pos < size:
                cut = data.rfind(b"\n", pos, pos + _CHUNK) + 1
                if cut <= pos:  # a line longer than a chunk: up to its end
                    cut = data.find(b"\n", pos + _CHUNK) + 1 or size
                yield data[pos:cut]
                pos = cut
            return
        stream = self._stream
        assert stream is not None
        parts: list[bytes] = []  # the start of a line that goes on past the last read
        while True:
            block = stream.read(_CHUNK)
            if not block:
                if parts:
                    yield b"".join(parts)
                return
            cut = block.rfind(b"\n") + 1
            if cut == 0:  # a long line: joined once it ends, not copied at every read
                parts.append(block)
                continue
            if parts:
                parts.append(block[:cut])
                yield b"".join(parts)
                parts = []
            else:
                yield block[:cut]
            if cut < len(block):
                parts.append(block[cut:])

    def _jsonl_records(self) -> Iterator[Record]:
        # one list of records per chunk, flattened in C: no generator step per record
        return chain.from_iterable(self._jsonl_chunks())

    def _jsonl_chunks(self) -> Iterator[list[Record]]:
        st = self.stats
        # The file is read in chunks of whole lines. In a chunk of short lines, each run of object
        # lines (``{`` first) is decoded with one decoder call (``_run``): it costs less per
        # line, and the lines of a run share their key strings (a third less memory for the
        # records of ``codex exec --json``). Every other line, and every line of a run that does
        # not decode exactly line by line, is decoded alone (``_line``): ``json.loads``'s
        # verdict on that line. Both give the same records and the same issues.
        line_one = self._line
        run = self._run
        scan = self._scan
        n = 0
        ended = True  # the last line ended with a newline
        try:
            for chunk in self._chunks():
                ended = chunk.endswith(b"\n")
                lines = chunk.split(b"\n")
                if ended:
                    lines.pop()
                count = len(lines)
                got: list[Record] = []
                if len(chunk) > _RUN_AVERAGE * count or _MARK in chunk:
                    # long lines: a decoder call per line costs little beside their text; and the
                    # separator of a run must be ours alone. A line that decodes to an object that
                    # ends where the line ends is what _line returns for it, without its frame;
                    # any other goes to _line, which decides as before
                    kept = 0
                    for i, raw in enumerate(lines, n + 1):
                        try:
                            text = raw.decode("utf-8")
                            obj, end = scan(text, 0)
                        except (ValueError, RecursionError, StopIteration):
                            obj = None
                        else:
                            if end == len(text) and type(obj) is dict:
                                got.append((i, obj))
                                kept += 1
                                continue
                        obj = line_one(i, raw)
                        if obj is not None:
                            got.append((i, obj))
                    st.records += kept
                elif chunk[:1] == b"{" and chunk.count(b"\n{") + 1 == count + (not ended):
                    # every line is an object line (the common case): runs, no look at each line
                    for start in range(0, count, _RUN_LINES):
                        got += run(lines, start, min(start + _RUN_LINES, count), n)
                else:
                    start = -1
                    for i, raw in enumerate(lines):
                        if raw[:1] == b"{" and len(raw) <= _RUN_LINE:
                            if start < 0:
                                start = i
                            elif i - start >= _RUN_LINES:
                                got += run(lines, start, i, n)
                                start = i
                            continue
                        if start >= 0:
                            got += run(lines, start, i, n)
                            start = -1
                        obj = line_one(n + i + 1, raw)
                        if obj is not None:
                            got.append((n + i + 1, obj))
                    if start >= 0:
                        got += run(lines, start, count, n)
                n += count
                yield got
        finally:
            if self._stream is not None:
                self._stream.close()
        st.lines = n
        last = self._last_issue
        if last is not None and last.line == n and not ended and last.reason == "not valid JSON":
            st.truncated_tail = True

    def _run(self, lines: list[bytes], start: int, stop: int, before: int) -> list[Record]:
        """The records of ``lines[start:stop]`` (each starts with ``{``; *before*: the lines of
        the chunks before), decoded as one JSON array whose lines are separated by ``_MARK``
        elements when that gives exactly one object per line, else line by line.

        Why the array gives the per-line verdict: no JSON string holds a raw newline, so every
        token lies within one line or one separator; ``_MARK`` appears nowhere in the chunk
        (``_jsonl_records`` checks), so every ``_MARK`` element comes from a separator. An array
        that ends where the text ends, of ``2k - 1`` elements whose odd places are all
        ``_MARK``, has every separator at its top level, so each line is one JSON value with
        only JSON whitespace around it: the value ``raw_decode`` finds in it alone, with nothing
        after it. A line that is not (bad JSON, two values, a value spread over lines, ``NaN``,
        nesting at the limit, a number too long to convert) fails the array or the count.
        """
        k = stop - start
        try:
            # decoded per run, not per chunk: one wide character makes a whole text wide
            text = (_RUN_OPEN + _RUN_SEP.join(lines[start:stop]) + _RUN_CLOSE).decode("utf-8")
            arr, end = self._decode_run(text)
        except (ValueError, RecursionError):
            arr, end = None, 0
        if (arr is not None and end == len(text) and len(arr) == 2 * k - 1
                and arr[1::2].count(_MARK_VALUE) == k - 1):
            objs = arr[0::2]
            if set(map(type, objs)) == _JUST_DICT:  # every element an object (no generator step per line)
                self.stats.records += k
                return list(zip(range(before + start + 1, before + stop + 1), objs, strict=True))
        got = []
        for j in range(start, stop):
            obj = self._line(before + j + 1, lines[j])
            if obj is not None:
                got.append((before + j + 1, obj))
        return got

    def _line(self, n: int, raw: bytes) -> dict[str, Any] | None:
        """Line *n* alone (its bytes, without the newline): the object, or ``None`` after
        counting it (blank, comment, or an issue)."""
        st = self.stats
        try:
            try:
                text = raw.decode("utf-8")
                obj, end = self._raw_decode(text)
                if end != len(text) and text[end:].strip(" \t\n\r"):
                    raise ValueError("extra data")
            except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
                obj = json.loads(raw, parse_constant=_reject_constant)
        except ValueError as exc:
            stripped = raw.strip(_WS)
            if not stripped:
                st.blank += 1
                return None
            if stripped[:1] == b"#":
                st.comments += 1
                return None
            reason = f"not valid JSON: {exc.args[0]} is not a JSON value" if isinstance(
                exc, _NotJSON) else "not valid JSON"
            self._issue(LineIssue(n, reason, _excerpt(stripped)))
            return None
        except RecursionError:
            self._issue(LineIssue(n, _NESTING, _excerpt(raw)))
            return None
        if type(obj) is not dict:
            self._issue(LineIssue(n, f"a JSON {type(obj).__name__}, not an object", _excerpt(raw)))
            return None
        st.records += 1
        return obj

    def _issue(self, issue: LineIssue) -> None:
        self.stats.unparsable.append(issue)
        self._last_issue = issue

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
            except RecursionError:
                st.unparsable.append(LineIssue(line, _NESTING, _excerpt(text[pos : pos + 60])))
                return
            except json.JSONDecodeError as exc:
                st.unparsable.append(
                    LineIssue(exc.lineno, f"invalid JSON in array: {exc.msg}", _excerpt(text[pos : pos + 60]))
                )
                # A document cut short (no closing bracket) is a torn tail, not a corrupt middle.
                st.truncated_tail = not text.rstrip().endswith("]")
                return
            except ValueError as exc:  # an integer past the interpreter's digit limit, a NaN
                st.unparsable.append(LineIssue(line, f"invalid JSON in array: {exc}", _excerpt(text[pos : pos + 60])))
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
        try:
            obj = json.loads(data)
        except RecursionError:
            st.unparsable.append(LineIssue(1, _NESTING, _excerpt(data[:60])))
            return
        except json.JSONDecodeError as exc:
            # one document that does not parse (cut short, or corrupt inside): the line where it broke
            text = exc.doc if isinstance(exc.doc, str) else ""
            start = text.rfind("\n", 0, exc.pos) + 1
            cut = exc.lineno >= text.rstrip().count("\n") + 1  # it broke on its last line: cut short
            what = "the JSON document is cut short" if cut else "not valid JSON"
            st.unparsable.append(LineIssue(exc.lineno, f"{what}: {exc.msg} (column {exc.colno})",
                                           _excerpt(text[start : start + 60])))
            st.truncated_tail = cut
            return
        except ValueError as exc:  # not UTF-8 text
            st.unparsable.append(LineIssue(1, f"not valid JSON: {exc}", _excerpt(data[:60])))
            return
        st.records = 1
        yield 1, obj
