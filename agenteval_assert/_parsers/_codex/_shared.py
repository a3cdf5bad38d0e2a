"""What both Codex parsers use: value coercions, OpenAI usage, MCP names and outcomes, exit codes
stated in output text, first-wins JSON keys and the status vocabulary.
"""

from __future__ import annotations

import json
import os
import re
from typing import IO, Any

from ...model import Usage
from .._common import as_int, content_text


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


#: the counts of an OpenAI/Codex token-usage object (``TranscriptBuilder.unusable_usage``)
OPENAI_USAGE_KEYS = ("input_tokens", "cached_input_tokens", "output_tokens", "cache_write_input_tokens",
                     "reasoning_output_tokens")


def _openai_usage(d: Any) -> Usage | None:
    """An OpenAI/Codex token-usage object as a ``Usage``.

    OpenAI's ``input_tokens`` *includes* ``cached_input_tokens``; ``Usage.input_tokens`` is the
    uncached part (``input_tokens - cached_input_tokens``) so that ``Usage.total_tokens`` does
    not count cached tokens twice, the same meaning as Claude's ``input_tokens``.
    ``reasoning_output_tokens`` are part of ``output_tokens`` and reported separately as well.
    """
    if not isinstance(d, dict):
        return None
    # one per turn of a long run: plain ints (the common case) skip the coercion's call
    inp = d.get("input_tokens")
    if type(inp) is not int:
        inp = as_int(inp)
    cached = d.get("cached_input_tokens")
    if type(cached) is not int:
        cached = as_int(cached)
    out = d.get("output_tokens")
    if type(out) is not int:
        out = as_int(out)
    write = as_int(d.get("cache_write_input_tokens"))
    reasoning = d.get("reasoning_output_tokens")
    if type(reasoning) is not int:
        reasoning = as_int(reasoning)
    if inp is None and cached is None and out is None and write is None and reasoning is None:
        return None
    if inp is not None and cached is not None:
        inp = max(inp - cached, 0)
    return Usage(
        input_tokens=inp,
        output_tokens=out,
        cache_read_tokens=cached,
        cache_write_tokens=write,
        reasoning_tokens=reasoning,
    )


#: ``json.loads``'s own decoder (constants accepted), called without ``loads``'s two whitespace
#: scans: a text that starts with ``{`` or ``[`` has no leading blank (``_decoded``)
_raw_decode = json.JSONDecoder().raw_decode


def _decoded(text: str) -> Any:
    """``json.loads(text)`` for a *text* that starts with ``{`` or ``[`` and decodes whole, else
    ``None``: then ask ``json.loads`` (it decides: this only saves its scans for blanks)."""
    try:
        value, end = _raw_decode(text)
    except (ValueError, RecursionError):
        return None
    if end != len(text) and text[end:].strip(" \t\n\r"):
        return None
    return value


#: token counts at or above this are no counts (``TranscriptBuilder.unusable_usage``)
_MAX = 1 << 63


def _plain_usage(d: Any) -> tuple[int, int, int, int | None, int | None] | None:
    """The fields of ``_openai_usage(d)`` (input, output, cache read, cache write, reasoning)
    when *d* holds plain counts, the common case (input, cached input and output tokens, and the
    other two absent or counts; a ``null`` is no count): nothing then for
    ``TranscriptBuilder.unusable_usage`` to note.
    ``None`` for anything else (then ask ``_openai_usage`` and ``unusable_usage``)."""
    if type(d) is not dict:
        return None
    get = d.get
    inp, cached, out = get("input_tokens"), get("cached_input_tokens"), get("output_tokens")
    write, reasoning = get("cache_write_input_tokens"), get("reasoning_output_tokens")
    if (type(inp) is int and type(cached) is int and type(out) is int
            and 0 <= inp < _MAX and 0 <= cached < _MAX and 0 <= out < _MAX
            and ((type(write) is int and 0 <= write < _MAX) or (write is None and "cache_write_input_tokens" not in d))
            and ((type(reasoning) is int and 0 <= reasoning < _MAX)
                 or (reasoning is None and "reasoning_output_tokens" not in d))):
        return max(inp - cached, 0), out, cached, write, reasoning
    return None


def _add_usage(a: Usage, b: Usage) -> Usage:
    def add(x: int | None, y: int | None) -> int | None:
        return None if x is None and y is None else (x or 0) + (y or 0)

    return Usage(
        input_tokens=add(a.input_tokens, b.input_tokens),
        output_tokens=add(a.output_tokens, b.output_tokens),
        cache_read_tokens=add(a.cache_read_tokens, b.cache_read_tokens),
        cache_write_tokens=add(a.cache_write_tokens, b.cache_write_tokens),
        reasoning_tokens=add(a.reasoning_tokens, b.reasoning_tokens),
    )


def _mcp_name(server: str | None, tool: str | None) -> str:
    """Codex MCP calls are named like Claude's: ``mcp__<server>__<tool>``."""
    if server and tool:
        return f"mcp__{server}__{tool}"
    return tool or "mcp_tool_call"


def _mcp_outcome(result: Any) -> tuple[str, bool]:
    """Text and error flag of an MCP ``CallToolResult``, plain or wrapped in ``{"Ok"|"Err": ...}``."""
    if isinstance(result, dict):
        if "Err" in result:
            err = result["Err"]
            return (err if isinstance(err, str) else content_text(err) or json.dumps(err)), True
        if "Ok" in result:
            result = result["Ok"]
        if isinstance(result, dict):
            is_error = result.get("isError") is True or result.get("is_error") is True
            return content_text(result.get("content")), is_error
    if isinstance(result, str):
        return result, False
    return content_text(result), False


def _join_output(stdout: Any, stderr: Any) -> str:
    out = stdout if isinstance(stdout, str) else ""
    err = stderr if isinstance(stderr, str) else ""
    if out and err and not out.endswith("\n"):
        return out + "\n" + err
    return out + err


# Exit codes stated in the text of a shell output (rollouts have no structured exit code since
# unified exec). Only the header of the output is searched, with anchored patterns.
_EXIT_TEXT = re.compile(
    r"^(?:Exit code: (-?\d+)$|Process exited with code (-?\d+)$|failed in sandbox [^\n]{0,200}?exit code: (-?\d+))",
    re.MULTILINE,
)
_EXIT_HEADER = 400


def _exit_code_from_text(text: str) -> int | None:
    """The exit code a Codex shell output states in its header, else ``None`` (never guessed)."""
    head = text[:_EXIT_HEADER]
    if "xit code" not in head and "exited with code" not in head:
        return None
    out_at = head.find("\nOutput:")
    if out_at >= 0:
        head = head[:out_at]
    m = _EXIT_TEXT.search(head)
    if m is None:
        return None
    return int(next(g for g in m.groups() if g is not None))


def _first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for k, v in pairs:
        d.setdefault(k, v)
    return d


class _LineRereader:
    """Re-reads lines of the source file, forward only, to re-parse them keeping the **first**
    value of duplicate keys (``json.loads`` keeps the last; Codex 0.157 ``web_search`` items carry
    ``"id":"item_2"`` then ``"id":"exec-…"``). Only used for the few lines whose item id does not
    look like ``item_N``, so the file is read a second time at most once, and usually never."""

    #: after this many re-reads that found no duplicate, the ids are just not ``item_N``: stop
    GIVE_UP = 64

    def __init__(self, path: str) -> None:
        self.path = path
        self._fh: IO[bytes] | None = None
        self._line = 0
        self._dead = not os.path.isfile(path)
        self._fruitless = 0

    def found(self, duplicate: bool) -> None:
        """Report whether the last re-read found a duplicate key (to stop re-reading in vain)."""
        self._fruitless = 0 if duplicate else self._fruitless + 1
        if self._fruitless >= self.GIVE_UP:
            self._dead = True
            self.close()

    def first_wins(self, n: int, record: dict[str, Any]) -> dict[str, Any] | None:
        """Line *n* re-parsed with first-wins keys, or ``None`` if it is not *record*'s line."""
        if self._dead:
            return None
        try:
            if self._fh is None or n <= self._line:
                self.close()
                self._fh = open(self.path, "rb")  # noqa: SIM115 - closed by close()
                self._line = 0
            raw = b""
            while self._line < n:
                raw = self._fh.readline()
                if not raw:
                    self._dead = True
                    return None
                self._line += 1
            if json.loads(raw) != record:  # not the line the reader gave us (e.g. a JSON array)
                return None
            first = json.loads(raw, object_pairs_hook=_first_wins)
        except (OSError, ValueError, RecursionError):
            self._dead = True
            return None
        return first if isinstance(first, dict) else None

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


_STATUS = {
    "completed": "completed",
    "success": "completed",
    "failed": "failed",
    "error": "failed",
    "declined": "declined",
    "rejected": "declined",
    "cancelled": "interrupted",
    "canceled": "interrupted",
    "interrupted": "interrupted",
    "aborted": "interrupted",
}


def _status(v: Any) -> str | None:
    """A Codex status as one of ``CALL_STATUSES``; ``None`` when unknown or still running."""
    return _STATUS.get(v) if isinstance(v, str) else None
