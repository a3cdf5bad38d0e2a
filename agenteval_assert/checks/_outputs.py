"""Outputs and text: what a tool returned, and the raw text of the transcript file."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs

from .._reader import decode_input, read_input_file, text_encoding
from ..exceptions import TranscriptError, UsageError
from ..matchers import Call, Contains, Matcher, Matches, ToolSpec, as_call
from ..model import Transcript
from ..results import CheckResult, Evidence, Status, cut_middle, short_repr
from ._calls import check_tool_called
from ._common import (
    _CheckFailedToRun,
    _echo,
    _fail,
    _find,
    _guarded,
    _negative,
    _pass,
    _plural,
    _snippet,
    _text_matcher,
)

if TYPE_CHECKING:
    import mmap

__all__ = [
    "check_tool_output",
    "check_transcript_contains",
    "check_transcript_not_contains",
]


@_guarded("tool_output")
def check_tool_output(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    contains: str | None = None,
    matches: str | Matcher | None = None,
    include_subagents: bool = True,
    **fields: Any,
) -> CheckResult:
    """A matching call's output contains *contains* and/or matches the pattern *matches*."""
    if contains is None and matches is None:
        raise UsageError("check_tool_output() needs contains= or matches=")
    base = as_call(tool, "check_tool_output", **fields)
    parts: list[Any] = []
    if contains is not None:
        parts.append(Contains(contains))
    if matches is not None:
        parts.append(matches if isinstance(matches, Matcher) else Matches(matches))
    from ..matchers import AllOf

    out = parts[0] if len(parts) == 1 else AllOf(*parts)
    spec = Call(base.name, args=base.args, mode=base.mode, kind=base.kind, server=base.server,
                tool=base.tool, status=base.status, is_error=base.is_error, exit_code=base.exit_code,
                output=out, where=base.where, agent=base.agent)
    r = check_tool_called(t, spec, include_subagents=include_subagents)
    return attrs.evolve(r, name="tool_output", check=_echo("tool_output", tool, contains=contains, matches=matches, **fields))


def _raw_lines(t: Transcript) -> Iterator[tuple[int, str]]:
    if not t.path or t.path.startswith("<"):
        raise _CheckFailedToRun(CheckResult(
            name="transcript_text", status=Status.ERROR,
            summary=f"error: the raw transcript text is not available (path {t.path!r})",
            notes=("raw-text checks need a transcript loaded from a file",),
        ))
    try:
        text = _decoded_text(t.path)
        if text is not None:
            yield from enumerate(io.StringIO(text, newline="\n"), start=1)
            return
        with open(t.path, encoding="utf-8", errors="replace") as fh:
            yield from enumerate(fh, start=1)
    except TranscriptError as exc:
        raise _CheckFailedToRun(CheckResult(
            name="transcript_text", status=Status.ERROR, summary=f"error: cannot read {exc}",
        )) from None
    except OSError as exc:
        raise _CheckFailedToRun(CheckResult(
            name="transcript_text", status=Status.ERROR,
            summary=f"error: cannot read {t.path}: {exc.strerror or exc}",
        )) from None


def _decoded_text(path: str) -> str | None:
    """The text of a UTF-16 or UTF-32 transcript, decoded as the reader decodes it for the parser
    (``_reader.decode_input``); ``None`` for a UTF-8 file (read as it is)."""
    with open(path, "rb") as fh:
        if text_encoding(fh.read(4)) == "utf-8":
            return None
    data, enc = decode_input(read_input_file(path), path)
    return None if enc == "utf-8" else data.decode("utf-8", "replace")


def _encoded(t: Transcript) -> bool:
    """The file is not UTF-8 (UTF-16, UTF-32): its bytes cannot be searched for UTF-8 bytes."""
    try:
        return _decoded_text(t.path) is not None
    except (OSError, TranscriptError):
        return False


def _raw_hits(t: Transcript, m: Matcher, *, first_only: bool = False) -> list[tuple[int, str]]:
    """``(line, text)`` of the raw lines that *m* matches.

    A case-sensitive substring is searched in the memory-mapped file (``mmap.find``),
    which costs a fraction of decoding and testing every line; only hit lines are decoded.
    Other matchers are applied line by line.
    """
    if not (isinstance(m, Contains) and isinstance(m.part, str) and not m.ignore_case) or _encoded(t):
        hits = []
        for no, line in _raw_lines(t):
            if m.matches(line):
                hits.append((no, line))
                if first_only:
                    break
        return hits
    next(iter(_raw_lines(t)), None)  # the same errors as the line-by-line path (no file, unreadable)
    import mmap

    needle = m.part.encode("utf-8")
    out: list[tuple[int, str]] = []
    first = _first_offset(t.path, needle)
    if first < 0:
        return out
    with open(t.path, "rb") as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            return out
        # Mapped, not read: the lines around the hits are cut from the page cache in place.
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            pos = data.find(needle, first)
            lineno, counted = 1, 0
            while pos >= 0:
                start = data.rfind(b"\n", 0, pos) + 1
                lineno += data[counted:start].count(b"\n")
                counted = start
                end = data.find(b"\n", pos)
                end = len(data) if end < 0 else end
                out.append((lineno, data[start:end].decode("utf-8", "replace")))
                if first_only:
                    break
                pos = data.find(needle, end)
    return out


#: Bytes searched at a time by ``_first_offset`` (read into one buffer, or mapped and let go
#: after the search): small enough to stay in the processor's cache.
_CHUNK = 1 << 20
#: Bytes of the first chunk in which ``_first_offset`` counts each byte of the needle, to pick
#: the rarest one (``_rarest``), when the needle is not in that chunk.
_SAMPLE = 1 << 15
#: A needle byte seen more often than once in this many bytes of the sample is no shortcut (each
#: place costs a test in Python): the plain search is used.
_RARE = 1024
#: Windows (from places of the rare byte) searched per chunk before ``_find_from`` gives the
#: rest of the chunk, and the later chunks, to the plain search (one in this many bytes of the
#: chunk): bounds the cost where the byte is common after all.
_BUDGET = 1024
#: Starts of the needle searched by one plain search from a place of its rare byte
#: (``_find_from``), per byte of the needle: a longer needle is searched faster (its search
#: skips further), so its windows are wider.
_WIDTH = 64


def _rarest(needle: bytes, sample: bytes | bytearray) -> tuple[bytes, int] | None:
    """The byte of *needle* least often seen in *sample* (the first of them when several are
    as rare) and its offset in *needle* (its last place there), or ``None`` when every byte of
    it is common there (or the needle is shorter than two bytes): then the plain search."""
    if len(needle) < 2:
        return None
    best: tuple[int, int] | None = None  # (count, byte)
    for b in dict.fromkeys(needle):  # each distinct byte once, in the needle's order
        n = sample.count(b)
        if best is None or n < best[0]:
            best = (n, b)
    assert best is not None
    if best[0] * _RARE > len(sample):
        return None
    rare = bytes((best[1],))
    return rare, needle.rindex(rare)


def _find_from(buf: bytearray | mmap.mmap, lo: int, end: int, needle: bytes, rare: bytes, at: int,
               width: int) -> tuple[int, bool]:
    """``(buf.find(needle, lo, end), gave_up)``, by the places of the byte *rare*
    (``needle[at]``): each is found with a one-byte search (``memchr``, several times faster
    than a substring search), and the plain search is run over the next *width* starts of the
    needle from there (a start whose byte *at* is no place of *rare* holds no needle, so the
    starts before a place need no test). One window of starts, not one test per place: in a
    log the rare byte comes in runs (ids, signatures and images in base64), where one search
    of a window costs less than a call per place. After ``(end - lo) // _BUDGET`` windows that
    held no hit, the rest goes to the plain search (*gave_up*: the byte is not rare here).
    ``tests/test_checks_index.py`` compares it with ``bytearray.find``."""
    m = len(needle)
    # the places from lo + at (one before would start the needle before *lo*) to the last with
    # room for the needle after it (a negative *stop* would count from buf's end)
    stop = end - m + at + 1
    if stop <= lo + at:
        return -1, False
    find = buf.find
    p = find(rare, lo + at, stop)
    for _ in range((end - lo) // _BUDGET):
        if p < 0:
            return -1, False
        s = p - at
        i = find(needle, s, min(s + width + m - 1, end))  # the starts s .. s + width - 1
        if i >= 0:
            return i, False
        p = find(rare, p + width, stop)
    if p < 0:
        return -1, False
    return find(needle, p - at, end), True


def _first_offset(path: str, needle: bytes) -> int:
    """Where *needle* first occurs in the file (-1: nowhere). The file is mapped (no copy: the
    search reads the page cache in place) and searched a chunk at a time; the pages of the
    chunks behind are let go (``MADV_DONTNEED``), so the memory the search holds stays about
    one chunk, not the file. Where the file cannot be mapped (an empty file, a system without
    ``madvise``), it is read a chunk at a time into one buffer (``_read_first_offset``)."""
    import mmap

    with open(path, "rb", buffering=0) as fh:
        data = None
        if hasattr(mmap, "MADV_DONTNEED") and hasattr(mmap.mmap, "madvise"):
            try:
                data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):  # ValueError: an empty file
                data = None
        if data is None:
            return _read_first_offset(fh, needle)
        with data:
            try:
                found = _mapped_first_offset(data, needle)
            except OSError:  # the system refused the advice (madvise): the file is read instead
                found = _READ_IT
        if found == _READ_IT:  # or cut short while mapped: read what the file holds now
            fh.seek(0)
            return _read_first_offset(fh, needle)
        return found


#: What ``_mapped_first_offset`` gives for a file that became shorter than its mapping: the
#: caller reads the file instead.
_READ_IT = -2


def _mapped_first_offset(data: mmap.mmap, needle: bytes) -> int:
    """``data.find(needle)``, a chunk of ``_CHUNK`` starts at a time (consecutive chunks
    overlap by ``len(needle) - 1`` bytes, so a hit across their border is found). The first
    chunk has the plain search, so an early hit costs nothing extra; after it, the search
    looks for the places of the needle's byte rarest in the file's first bytes (``_rarest``,
    ``_find_from``), when it has a rare one. The pages before the next chunk are let go after
    each chunk. Before each chunk the file's size is read again: ``_READ_IT`` when the file no
    longer holds the chunk (truncated by another process while it is searched)."""
    import mmap

    data.madvise(mmap.MADV_SEQUENTIAL)
    size = len(data)
    keep = len(needle) - 1
    width = _WIDTH * len(needle)
    rare: tuple[bytes, int] | None = None
    lo = released = 0
    while lo < size:
        hi = min(lo + _CHUNK + keep, size)
        if data.size() < hi:
            # the file was cut short by another process: reading a mapped page past its end
            # would kill the process (SIGBUS), so the caller reads the file instead
            return _READ_IT
        if rare is None:
            i = data.find(needle, lo, hi)
            if i < 0 and lo == 0:  # not in the first chunk: the rarest byte
                rare = _rarest(needle, data[:min(hi, _SAMPLE)])
        else:
            i, gave_up = _find_from(data, lo, hi, needle, *rare, width)
            if gave_up:
                rare = None  # common in this file after all: the plain search from now on
        if i >= 0:
            return i
        lo += _CHUNK
        upto = lo - lo % mmap.PAGESIZE
        if upto > released:
            data.madvise(mmap.MADV_DONTNEED, released, upto - released)
            released = upto
    return -1


def _read_first_offset(fh: io.RawIOBase, needle: bytes) -> int:
    """``_mapped_first_offset`` for a file read a chunk at a time into one buffer (from where
    *fh* stands: its start)."""
    keep = len(needle) - 1
    buf = bytearray(_CHUNK + keep)
    view = memoryview(buf)
    base = 0  # file offset of buf[0]
    have = 0  # bytes of buf kept from the previous chunk
    rare: tuple[bytes, int] | None = None
    while True:
        n = fh.readinto(view[have:])
        if not n:
            return -1
        end = have + n
        if rare is None:
            i = buf.find(needle, 0, end)
            if i < 0 and base == 0 and have == 0:  # not in the first chunk: the rarest byte
                rare = _rarest(needle, buf[:min(end, _SAMPLE)])
        else:
            i, gave_up = _find_from(buf, 0, end, needle, *rare, _WIDTH * len(needle))
            if gave_up:
                rare = None  # common in this file after all: the plain search from now on
        if i >= 0:
            return base + i
        if end <= keep:  # the whole file so far is shorter than the needle
            have = end
            continue
        buf[:keep] = buf[end - keep:end]
        base += end - keep
        have = keep


@_guarded("transcript_contains")
def check_transcript_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False
) -> CheckResult:
    """The raw transcript file contains *text* (a matcher is applied line by line)."""
    m = _text_matcher(text, ignore_case)
    echo = _echo("transcript_contains", text, ignore_case=ignore_case or None)
    expected = f"the raw transcript containing {short_repr(text, 120)}"
    hits = [no for no, _ in _raw_hits(t, m, first_only=True)]
    if hits:
        from ..model import Location
        return _pass("transcript_contains", expected, f"it at line {hits[0]}", echo,
                     [Evidence(f"line {hits[0]} contains it", Location(t.path, hits[0]))])
    return _fail("transcript_contains", t, expected, "it does not", echo)


@_guarded("transcript_not_contains")
def check_transcript_not_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False, assume_complete: bool = False
) -> CheckResult:
    """The raw transcript file does not contain *text* (e.g. a secret). Lists every hit."""
    from ..model import Location

    m = _text_matcher(text, ignore_case)
    echo = _echo("transcript_not_contains", text, ignore_case=ignore_case or None)
    expected = f"the raw transcript not containing {short_repr(text, 120)}"
    hits = _raw_hits(t, m)
    if hits:
        ev = []
        for no, line in hits:
            i = _find(m, line) if isinstance(m, (Contains, Matches)) else None
            snippet = cut_middle(line.strip(), 120) if i is None else _snippet(line.rstrip("\n"), i)
            ev.append(Evidence(snippet, Location(t.path, no)))
        return _fail("transcript_not_contains", t, expected, f"it on {_plural(len(hits), 'line')}", echo,
                     ev, positive=False)
    return _negative("transcript_not_contains", t, assume_complete=assume_complete, expected=expected,
                     found="it does not", check=echo)
