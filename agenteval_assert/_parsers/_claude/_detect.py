"""Which Claude Code format a head of records is, and whose it is if not Claude's: the record-kind
predicates both parsers' ``sniff`` use, the session-only record types, and ``amp_evidence`` (Amp
writes Claude's stream-json events; ``_amp`` asks it too)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..._reader import Record
from .._common import CODEX_EXEC_TYPES, CODEX_ROLLOUT_TYPES
from .._sniff import cursor_evidence

__all__ = ["amp_evidence"]

_CODEX_TYPES = CODEX_EXEC_TYPES | CODEX_ROLLOUT_TYPES

#: Envelope keys of session-log conversation lines (camel case; stream-json uses ``session_id``).
_SESSION_ENVELOPE = ("sessionId", "parentUuid", "isSidechain", "userType")
_CONVERSATION_TYPES = frozenset({"user", "assistant", "system"})
_RESULT_KEYS = ("subtype", "is_error", "total_cost_usd", "cost_usd", "total_cost", "num_turns")


#: Top-level types of Gemini CLI stream-json (Claude has them only as content blocks).
_GEMINI_TYPES = frozenset({"init", "tool_use", "tool_result"})

#: An Amp thread id (``T-`` and a UUID), which Amp writes as the ``session_id`` of its events.
_AMP_THREAD = re.compile(r"T-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z")

#: Bookkeeping record types of session logs (the session parser counts them as skipped).
_SESSION_SKIP = frozenset(
    {
        "file-history-snapshot",
        "queue-operation",
        "attachment",
        "permission-mode",
        "mode",
        "custom-title",
        "ai-title",
        "tag",
        "content-replacement",
        "last-prompt",
        "agent-name",
    }
)
#: Record types that only Claude session logs write (never stream-json): detection uses them.
_SESSION_ONLY_TYPES = _SESSION_SKIP | {"summary", "progress"}


def amp_evidence(head: Sequence[Record]) -> str | None:
    """What in *head* marks an Amp ``--stream-json`` file: a stream-json event (``system``,
    ``assistant``, ``user``, ``result``) whose ``session_id`` is an Amp thread id.

    Amp writes Claude Code's stream-json events; Claude's session ids are bare UUIDs.
    """
    for _, r in head:
        sid = r.get("session_id")
        if (
            isinstance(sid, str)
            and r.get("type") in ("system", "assistant", "user", "result")
            and _AMP_THREAD.match(sid)
        ):
            return f"a session_id that is an Amp thread id ({sid[:10]}…)"
    return None


def _foreign_reason(head: Sequence[Record], types: set[str]) -> str | None:
    """Why the head belongs to another agent's format, if it does."""
    codex = sorted(types & _CODEX_TYPES)
    if codex:
        return "has Codex record types (" + ", ".join(codex[:3]) + ")"
    gemini = sorted(types & _GEMINI_TYPES)
    if gemini:
        return "has Gemini CLI record types (" + ", ".join(gemini) + ")"
    if any("projectHash" in r for _, r in head):
        return "has a Gemini CLI session header (projectHash)"
    cursor = cursor_evidence(head)
    if cursor:
        return f"has Cursor CLI records ({cursor})"
    amp = amp_evidence(head)
    if amp:
        return f"is an Amp stream ({amp})"
    return None


def _is_session_record(r: dict[str, Any]) -> bool:
    t = r.get("type")
    if not isinstance(t, str):  # a list or dict `type` cannot be looked up in a set
        return False
    if t in _SESSION_ONLY_TYPES:
        return True
    return t in _CONVERSATION_TYPES and any(k in r for k in _SESSION_ENVELOPE)


def _is_message_record(r: dict[str, Any]) -> bool:
    """A ``user``/``assistant`` record holding a Messages API object (any envelope)."""
    if r.get("type") not in ("user", "assistant"):
        return False
    m = r.get("message")
    return isinstance(m, dict) and ("content" in m or "role" in m)


def _is_stream_record(r: dict[str, Any]) -> bool:
    t = r.get("type")
    if t == "system":
        st = r.get("subtype")
        return isinstance(st, str) and (st == "init" or "session_id" in r)
    if t == "result":
        return any(k in r for k in _RESULT_KEYS)
    return _is_message_record(r)


def _records(n: int) -> str:
    """``20 records`` / ``record`` (read after "the first")."""
    return "record" if n == 1 else f"{n} records"


def _seen(types: set[str]) -> str:
    if not types:
        return "no record has a string `type`"
    shown = sorted(types)
    return "types seen: " + ", ".join(shown[:6]) + (" ..." if len(shown) > 6 else "")
