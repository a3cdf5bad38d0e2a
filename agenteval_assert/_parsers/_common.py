"""Helpers shared by the format parsers: content text, argument decoding, tool kinds, MCP names."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

import attrs

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ..model import Transcript


class FormatParser(Protocol):
    """What every format module provides."""

    #: format name, e.g. ``"claude-session"``
    name: str
    #: agent name, e.g. ``"claude-code"``
    agent: str

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        """``None`` if *head* (the first records, at most 20) is this format, else the reason why not."""

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        """Consume every record (the head included) into the builder."""


@attrs.define(frozen=True)
class Member:
    """One transcript of a file that holds several (an inspect_ai sample, an Aider session).

    ``build(path)`` parses it, naming it *path* (``file#id`` from ``load_all()``, the plain file
    path when ``load()`` reads a file of one member).
    """

    id: str
    build: Callable[[str], Transcript]


@attrs.define(frozen=True)
class Members:
    """What reading a file gave: its members, and/or the whole file as one transcript.

    Formats of one run per file have no members, only ``whole``. An inspect_ai log has members
    only; an Aider history has both (``load()`` takes the whole file).
    """

    format: str
    items: tuple[Member, ...] = ()
    whole: Callable[[str], Transcript] | None = None
    #: what a member is, for messages: ``"samples × epochs"``, ``"sessions"``
    what: str = "members"


def content_text(content: Any) -> str:
    """Text of a Claude/MCP content value: a string, a list of blocks, or ``{"content": ...}``.

    Text blocks are joined with newlines; non-text blocks (images) contribute nothing.
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                t = block.get("text")
                if isinstance(t, str):
                    parts.append(t)
                elif "content" in block:
                    inner = content_text(block["content"])
                    if inner:
                        parts.append(inner)
        return "\n".join(parts)
    if isinstance(content, dict):
        if isinstance(content.get("text"), str):
            return str(content["text"])
        if "content" in content:
            return content_text(content["content"])
    return ""


#: The characters a JSON text can start with (after blanks), ``NaN`` and ``Infinity`` included.
_JSON_STARTS = frozenset('{["-0123456789tfnNI')
#: Text that ``json.loads`` refuses at its second token: an array whose first element cannot
#: start a value, an object whose first key is not a string (``[REDACTED_ARGUMENTS len=114]``,
#: ``[1/3] Building``): refused without the cost of an exception.
_FAILS_EARLY = re.compile(r'[ \t\n\r]*(?:\[[ \t\n\r]*[^ \t\n\r\[\]{}"0-9tfnNI-]|\{[ \t\n\r]*[^ \t\n\r"}])')


def not_json(text: str) -> bool:
    """Whether ``json.loads(text)`` surely fails at its first or second token (a cheap test: a
    ``False`` does not say the text is JSON)."""
    return text.lstrip(" \t\n\r")[:1] not in _JSON_STARTS or _FAILS_EARLY.match(text) is not None


def decode_arguments(value: Any) -> tuple[dict[str, Any], str | None]:
    """Arguments as a dict, and the raw text when they were a string that is not a JSON object.

    JSON strings are decoded (Codex, OpenAI); a JSON value that is not an object is kept under
    ``"value"``; undecodable text (redacted logs) gives ``({}, text)``.
    """
    if isinstance(value, dict):
        return value, None
    if value is None:
        return {}, None
    if isinstance(value, str):
        if not_json(value):
            return {}, value  # json.loads would fail at its first tokens (redacted text): no exception
        try:
            decoded = json.loads(value)
        except (ValueError, RecursionError):  # not JSON, or nested deeper than Python recurses
            return {}, value
        if isinstance(decoded, dict):
            return decoded, None
        return {"value": decoded}, value
    return {"value": value}, None


_CLAUDE_KINDS = {
    "Bash": "shell",
    "BashOutput": "shell",
    "KillShell": "shell",
    "KillBash": "shell",
    "Read": "file_read",
    "NotebookRead": "file_read",
    "Write": "file_write",
    "Edit": "file_edit",
    "MultiEdit": "file_edit",
    "NotebookEdit": "file_edit",
    "Glob": "search",
    "Grep": "search",
    "LS": "search",
    "WebSearch": "web_search",
    "WebFetch": "web_fetch",
    "Task": "subagent",
    "Agent": "subagent",
    "Skill": "skill",
    "TodoWrite": "todo",
    "TodoRead": "todo",
    "TaskCreate": "todo",
    "TaskGet": "todo",
    "TaskList": "todo",
    "TaskUpdate": "todo",
    "AskUserQuestion": "ask_user",
    "ExitPlanMode": "plan",
}

_CODEX_KINDS = {
    "command_execution": "shell",
    "shell": "shell",
    "container.exec": "shell",
    "exec_command": "shell",
    "local_shell_call": "shell",
    "local_shell": "shell",
    "write_stdin": "shell",
    "unified_exec": "shell",
    "file_change": "file_edit",
    "apply_patch": "file_edit",
    "mcp_tool_call": "mcp",
    "web_search": "web_search",
    "web_search_call": "web_search",
    "todo_list": "todo",
    "update_plan": "todo",
    "collab_tool_call": "subagent",
    "view_image": "file_read",
}


def tool_kind(name: str) -> str:
    """What a tool does, from its name in any supported agent's vocabulary."""
    if name.startswith("mcp__"):
        return "mcp"
    return _CLAUDE_KINDS.get(name) or _CODEX_KINDS.get(name) or "other"


def split_mcp_name(name: str, known_servers: Iterable[str] = ()) -> tuple[str | None, str | None]:
    """``mcp__<server>__<tool>`` → ``(server, tool)``; ``(None, None)`` for other names.

    Server names may contain ``-`` and ``__``-free punctuation; the longest known server (from
    ``init.mcp_servers``) wins, else the name is split on the **last** ``__``.
    """
    if not name.startswith("mcp__"):
        return None, None
    rest = name[5:]
    best = None
    for server in known_servers:
        if rest.startswith(server + "__") and (best is None or len(server) > len(best)):
            best = server
    if best is not None:
        return best, rest[len(best) + 2 :]
    if "__" not in rest:
        return None, None
    server, _, tool = rest.rpartition("__")
    return server, tool


def as_int(v: Any) -> int | None:
    """An int, or ``None`` for anything else (booleans included)."""
    if type(v) is int:  # the common case first (a bool's type is bool)
        return v
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return None


def as_float(v: Any) -> float | None:
    """A finite float from a JSON number, or ``None``: booleans, ``NaN``, ``Infinity`` and
    integers too large for a float are not usable amounts (a cost of ``NaN`` is no cost)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    try:
        f = float(v)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


def as_dict(v: Any) -> dict[str, Any]:
    """*v* if it is a JSON object, else ``{}``."""
    return v if isinstance(v, dict) else {}


def as_list(v: Any) -> list[Any]:
    """*v* if it is a JSON array, else ``[]``."""
    return v if isinstance(v, list) else []


def as_str(v: Any) -> str | None:
    """*v* if it is a string, else ``None``."""
    return v if isinstance(v, str) else None


def iso_ms(ms: Any) -> str | None:
    """A Unix timestamp in milliseconds (OpenCode, Cursor) as ISO 8601 UTC text, else ``None``."""
    n = ms if type(ms) is int else as_int(ms)
    if n is None or not 0 <= n < 253402300800000:  # before the year 10000
        return None
    s, milli = divmod(n, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + f".{milli:03d}Z"


def types_in(head: Sequence[Record]) -> set[str]:
    """The string ``type`` values of the head records."""
    return {t for _, r in head if isinstance(t := r.get("type"), str)}


#: Top-level ``type`` values of ``codex exec --json`` (current and intermediate shapes).
CODEX_EXEC_TYPES = frozenset(
    {
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
        "session.created",
    }
)
#: Top-level ``type`` values of Codex session rollouts.
CODEX_ROLLOUT_TYPES = frozenset(
    {
        "session_meta",
        "response_item",
        "event_msg",
        "turn_context",
        "compacted",
        "world_state",
        "inter_agent_communication_metadata",
    }
)
