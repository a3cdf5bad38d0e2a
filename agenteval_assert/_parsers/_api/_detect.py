"""Which raw-API message list a file is: the record shapes of each API, and the verdict on a head.

A record is a message (item) of one or more of the APIs (``compat``), or a request/response dump
(``dump_parts``) whose messages and tools tell the API (``_dump_apis``); ``classify`` intersects
what the head's records fit. Imports only ``_reader`` (the record type).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._reader import Record

CHAT = "openai-chat"
ANTHROPIC = "anthropic-messages"
RESPONSES = "openai-responses"
#: The three formats, in the order an ambiguous file is given to them.
API_FORMATS = (CHAT, ANTHROPIC, RESPONSES)
_PREFERENCE = (CHAT, RESPONSES, ANTHROPIC)
_ALL = frozenset(API_FORMATS)

_CHAT_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
_RESPONSES_ROLES = frozenset({"system", "developer", "user", "assistant"})
_ANTHROPIC_ROLES = frozenset({"user", "assistant"})
#: Message keys only Chat Completions has (``ChatCompletionMessage`` dumps carry the null ones too).
_CHAT_KEYS = frozenset(
    {"tool_calls", "tool_call_id", "function_call", "name", "refusal", "audio", "annotations", "reasoning_content"}
)
#: Keys of an Anthropic ``Message`` (an API response appended to the list).
_ANTHROPIC_KEYS = frozenset({"stop_reason", "stop_sequence"})
#: Keys of other agents' event envelopes: a record with one of them is not an API message.
_FOREIGN_KEYS = frozenset({"timestamp", "delta", "sessionId", "session_id", "uuid", "parentUuid", "payload"})

_RESPONSES_ITEMS = frozenset(
    {
        "message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
        "custom_tool_call_output", "local_shell_call", "local_shell_call_output", "shell_call",
        "shell_call_output", "apply_patch_call", "apply_patch_call_output", "mcp_call", "mcp_list_tools",
        "mcp_approval_request", "mcp_approval_response", "web_search_call", "file_search_call",
        "code_interpreter_call", "image_generation_call", "computer_call", "computer_call_output",
        "tool_search_call", "tool_search_output", "item_reference", "compaction", "compaction_trigger",
        "additional_tools", "configuration_update", "program", "program_output",
    }
)

#: Content part / block types, and which APIs use them.
_PART_APIS: dict[str, frozenset[str]] = {
    "text": frozenset({CHAT, ANTHROPIC}),
    "image_url": frozenset({CHAT}),
    "file": frozenset({CHAT}),
    "input_audio": frozenset({CHAT, RESPONSES}),
    "refusal": frozenset({CHAT, RESPONSES}),
    "input_text": frozenset({RESPONSES}),
    "output_text": frozenset({RESPONSES}),
    "input_image": frozenset({RESPONSES}),
    "input_file": frozenset({RESPONSES}),
    "summary_text": frozenset({RESPONSES}),
    "reasoning_text": frozenset({RESPONSES}),
}
_ANTHROPIC_BLOCKS = frozenset(
    {
        "tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "mcp_tool_use",
        "mcp_tool_result", "image", "document", "search_result", "container_upload", "tool_reference",
    }
)
#: Request-body keys accepted when a body has no ``model`` (a body always names its model).
_BODY_KEYS = frozenset(
    {"messages", "input", "system", "instructions", "tools", "tool_choice", "response", "metadata", "max_tokens"}
)


def _unwrap(r: dict[str, Any]) -> dict[str, Any]:
    """An Agents SDK run item (``{"type": "tool_call_item", "raw_item": {...}}``) → its raw item."""
    t = r.get("type")
    raw = r.get("raw_item")
    if isinstance(t, str) and t.endswith("_item") and isinstance(raw, dict):
        return raw
    return r


def _part_apis(part: Any) -> frozenset[str]:
    if not isinstance(part, dict):
        return _ALL
    pt = part.get("type")
    if not isinstance(pt, str):
        return _ALL
    if pt in _PART_APIS:
        return _PART_APIS[pt]
    if pt in _ANTHROPIC_BLOCKS or pt.endswith("_tool_result"):
        return frozenset({ANTHROPIC})
    return _ALL  # a part type none of the tables knows yet: no verdict


def compat(r: dict[str, Any]) -> frozenset[str] | None:
    """The APIs a message/item record can belong to; ``None`` when it is not one at all."""
    r = _unwrap(r)
    if not _FOREIGN_KEYS.isdisjoint(r):
        return None
    t = r.get("type")
    if t is not None and t != "message":
        if isinstance(t, str) and t in _RESPONSES_ITEMS:
            return frozenset({RESPONSES})
        return None
    role = r.get("role")
    if not isinstance(role, str) or role not in _CHAT_ROLES:
        return None
    ok = set(_ALL)
    if t == "message":
        ok.discard(CHAT)
    if role not in _ANTHROPIC_ROLES:
        ok.discard(ANTHROPIC)
    if role not in _RESPONSES_ROLES:
        ok.discard(RESPONSES)
    if not _CHAT_KEYS.isdisjoint(r):
        ok &= {CHAT}
    if not _ANTHROPIC_KEYS.isdisjoint(r):
        ok &= {ANTHROPIC}
    content = r.get("content")
    if isinstance(content, list):
        for part in content:
            ok &= _part_apis(part)
    elif content is not None and not isinstance(content, str):
        return None
    return frozenset(ok)


def _is_response(r: dict[str, Any]) -> bool:
    obj = r.get("object")
    return (obj == "chat.completion" and isinstance(r.get("choices"), list)) or (
        obj == "response" and isinstance(r.get("output"), list)
    )


def _is_body(r: dict[str, Any]) -> bool:
    if "role" in r or "type" in r:
        return False
    if not (isinstance(r.get("messages"), list) or isinstance(r.get("input"), (list, str))):
        return False
    return isinstance(r.get("model"), str) or r.keys() <= _BODY_KEYS


def dump_parts(r: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any] | None] | None:
    """``(request body, response)`` of a dump record, or ``None`` when *r* is not a dump."""
    req = r.get("request")
    if isinstance(req, dict) and _is_body(req):
        resp = r.get("response")
        return req, resp if isinstance(resp, dict) else None
    if _is_body(r):
        resp = r.get("response")
        return r, resp if isinstance(resp, dict) else None
    if _is_response(r):
        return None, r
    return None


def _tools_apis(tools: Any) -> frozenset[str]:
    ok = set(_ALL)
    if isinstance(tools, list):
        for tool in tools:
            if not isinstance(tool, dict):
                continue
            if isinstance(tool.get("function"), dict):
                ok &= {CHAT}
            elif "input_schema" in tool:
                ok &= {ANTHROPIC}
            elif tool.get("type") == "function" and "name" in tool:
                ok &= {RESPONSES}
    return frozenset(ok)


def _dump_apis(req: dict[str, Any] | None, resp: dict[str, Any] | None) -> tuple[frozenset[str], str | None]:
    """The APIs a dump can belong to, and (when it fits none) why."""
    ok = set(_ALL)
    if req is not None:
        if isinstance(req.get("messages"), list):
            ok &= {CHAT, ANTHROPIC}
            for i, m in enumerate(req["messages"]):
                c = compat(m) if isinstance(m, dict) else None
                if c is None:
                    return frozenset(), f"messages[{i}] is not a message"
                ok &= c
            if "system" in req:
                ok &= {ANTHROPIC}
        else:
            ok &= {RESPONSES}
            items = req.get("input")
            if isinstance(items, list):
                for i, m in enumerate(items):
                    c = compat(m) if isinstance(m, dict) else None
                    if c is None:
                        return frozenset(), f"input[{i}] is not an input item"
        ok &= _tools_apis(req.get("tools"))
    if resp is not None:
        obj = resp.get("object")
        if obj == "chat.completion":
            ok &= {CHAT}
        elif obj == "response":
            ok &= {RESPONSES}
        elif resp.get("type") == "message":
            ok &= {ANTHROPIC}
    return frozenset(ok), None


def _keys(r: dict[str, Any]) -> str:
    ks = sorted(map(str, r))
    return "keys: " + ", ".join(ks[:6]) + (" ..." if len(ks) > 6 else "") if ks else "an empty object"


def classify(head: Sequence[Record]) -> tuple[str | None, str, frozenset[str]]:
    """Which API list *head* is: ``(format or None, reason, every API it fits)``.

    Every head record must be a message (item) or a request/response dump; the APIs they fit are
    intersected. When several remain (plain text messages), the first of ``openai-chat``,
    ``openai-responses``, ``anthropic-messages`` wins.
    """
    if not head:
        return None, "no records", frozenset()
    ok = set(_ALL)
    for line, r in head:
        parts = dump_parts(r)
        if parts is not None:
            c, why = _dump_apis(*parts)
            if why is not None:
                return None, f"line {line}: a request body whose {why}", frozenset()
        else:
            c2 = compat(r)
            if c2 is None:
                return (
                    None,
                    f"line {line} is neither an API message nor a request/response dump ({_keys(r)})",
                    frozenset(),
                )
            c = c2
        before = set(ok)
        ok &= c
        if not ok:
            fits = ", ".join(sorted(c)) or "no API"
            why = f"line {line} fits {fits} but the records before it fit {', '.join(sorted(before))}"
            return None, why, frozenset()
    chosen = next(f for f in _PREFERENCE if f in ok)
    return chosen, "", frozenset(ok)


#: The verdict on the last head classified: the three parsers sniff the same head in a row, and a
#: request body's messages are all read to classify it.
_LAST: list[Any] = [None, None]


def _classify_once(head: Sequence[Record]) -> tuple[str | None, str, frozenset[str]]:
    key = (id(head), len(head), id(head[0][1]) if head else 0)
    if _LAST[0] != key:
        _LAST[:] = [key, classify(head)]
    result: tuple[str | None, str, frozenset[str]] = _LAST[1]
    return result
