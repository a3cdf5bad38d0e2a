"""The sniffers that detection asks before it reaches a Claude file's format, with nothing heavy
imported: detection imports a format's parser module only when its sniffer says yes (a Claude
session log imports no OpenCode, Codex, Cursor, inspect_ai or Aider parser).

Each format's parser class answers ``sniff``/``sniff_raw`` with the same function, so the two
cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ._common import CODEX_EXEC_TYPES, CODEX_ROLLOUT_TYPES, types_in

if TYPE_CHECKING:
    from .._reader import Record, Shape

# -- raw bytes (asked before the JSON reader) ----------------------------------------------------

ZIP_MAGIC = b"PK\x03\x04"
AIDER_HEADING = "# aider chat started at"


def inspect_sniff_raw(head: bytes) -> str | None:
    return None if head.startswith(ZIP_MAGIC) else "not a zip archive (an inspect_ai .eval log)"


def aider_sniff_raw(head: bytes) -> str | None:
    for raw in head.removeprefix(b"\xef\xbb\xbf").split(b"\n")[:20]:
        line = raw.strip()
        if not line:
            continue
        if line.startswith(AIDER_HEADING.encode()):
            return None
        break
    return "the first line is not '# aider chat started at …' (an Aider chat history)"


# -- OpenCode ------------------------------------------------------------------------------------

#: Core event-bus types: one of them in the first records marks a saved event stream.
OPENCODE_BUS_CORE = frozenset(
    {
        "message.updated",
        "message.part.updated",
        "message.removed",
        "message.part.removed",
        "session.created",
        "session.updated",
        "session.deleted",
        "session.status",
        "session.idle",
        "session.error",
        "session.diff",
        "session.compacted",
        "server.connected",
        "server.heartbeat",
    }
)


def opencode_is_message(r: dict[str, Any]) -> bool:
    info = r.get("info")
    return isinstance(info, dict) and isinstance(info.get("role"), str) and isinstance(r.get("parts"), list)


def _opencode_is_run_event(r: dict[str, Any]) -> bool:
    part = r.get("part")
    return (
        isinstance(part, dict)
        and isinstance(part.get("type"), str)
        and (isinstance(r.get("sessionID"), str) or isinstance(part.get("sessionID"), str))
    )


def opencode_evidence(head: Sequence[Record]) -> str | None:
    """What in *head* only OpenCode writes (``None`` when nothing does)."""
    for _, r in head:
        if _opencode_is_run_event(r):
            return "an opencode run --format json event (part with sessionID)"
        t = r.get("type")
        if isinstance(t, str) and t in OPENCODE_BUS_CORE and isinstance(r.get("properties"), dict):
            return "an OpenCode server event ({type, properties})"
        if opencode_is_message(r):
            return "an OpenCode session message ({info, parts})"
        msgs = r.get("messages")
        if isinstance(r.get("info"), dict) and isinstance(msgs, list) and msgs and isinstance(msgs[0], dict) \
                and opencode_is_message(msgs[0]):
            return "an opencode export ({info, messages})"
    return None


def opencode_sniff(head: Sequence[Record], shape: Shape) -> str | None:
    if opencode_evidence(head) is not None:
        return None
    return (
        "no OpenCode record (a run event with part + sessionID, a {type, properties} server event, "
        "an {info, parts} message or an {info, messages} export) in the first records"
    )


# -- Codex ---------------------------------------------------------------------------------------

#: Keys of the legacy ``codex exec`` config summary line.
CODEX_LEGACY_CONFIG_KEYS = frozenset(
    {"model", "sandbox", "approval", "provider", "reasoning effort", "reasoning summaries", "workdir"}
)


def codex_exec_sniff(head: Sequence[Record], shape: Shape) -> str | None:
    if types_in(head) & CODEX_EXEC_TYPES:
        return None
    for _, r in head:
        if "type" in r:
            continue
        msg = r.get("msg")
        if isinstance(msg, dict) and isinstance(msg.get("type"), str):
            return None  # legacy {"id", "msg": {"type": ...}}
        if len(CODEX_LEGACY_CONFIG_KEYS & r.keys()) >= 2:
            return None  # legacy config summary line
    if head and all(
        r.get("type") == "error" and isinstance(r.get("message"), str) and len(r) == 2 for _, r in head
    ):
        return None  # a run that failed before its first turn event
    return (
        "no Codex exec event (thread.started, turn.*, item.*, session.created) nor legacy "
        '{"id", "msg"} record in the first records'
    )


def codex_rollout_sniff(head: Sequence[Record], shape: Shape) -> str | None:
    for _, r in head:
        t = r.get("type")
        if isinstance(t, str) and t in CODEX_ROLLOUT_TYPES and isinstance(r.get("payload"), dict):
            return None
    return (
        'no {"type": "session_meta"|"response_item"|"event_msg"|"turn_context", "payload": {...}} '
        "record in the first records"
    )


# -- Cursor CLI (also asked by the Claude stream-json detection) --------------------------------


def cursor_evidence(head: Sequence[Record]) -> str | None:
    """What in *head* only Cursor CLI writes (``None`` when nothing does).

    Used by this format's detection and by the Claude stream-json detection to refuse Cursor
    files, which share Claude's ``system/init``, ``user``, ``assistant`` and ``result`` events.
    """
    for _, r in head:
        t = r.get("type")
        if t == "tool_call" and isinstance(r.get("tool_call"), dict):
            return "a tool_call event"
        if t == "thinking" and r.get("subtype") in ("delta", "completed"):
            return "a thinking/delta event"
        if "model_call_id" in r or "timestamp_ms" in r:
            return "an event with model_call_id / timestamp_ms"
        if (
            t == "system"
            and r.get("subtype") == "init"
            and "apiKeySource" in r
            and "model" in r
            and "tools" not in r
            and "mcp_servers" not in r
        ):
            return "a system/init without tools or mcp_servers (Cursor's init)"
        if t == "result" and "request_id" in r and "num_turns" not in r:
            return "a result with request_id and no num_turns"
    return None


def cursor_sniff(head: Sequence[Record], shape: Shape) -> str | None:
    if cursor_evidence(head) is not None:
        return None
    return (
        "no Cursor CLI event (tool_call started/completed, thinking/delta, model_call_id, or a "
        "system/init without tools) in the first records"
    )


#: The light sniffers by format name: detection asks them instead of the parser (and imports the
#: parser's module only when the answer is yes).
SNIFF: dict[str, Callable[[Sequence[Record], Shape], str | None]] = {
    "opencode": opencode_sniff,
    "codex-exec": codex_exec_sniff,
    "codex-rollout": codex_rollout_sniff,
    "cursor-cli": cursor_sniff,
}
SNIFF_RAW: dict[str, Callable[[bytes], str | None]] = {
    "inspect-log": inspect_sniff_raw,
    "aider": aider_sniff_raw,
}
