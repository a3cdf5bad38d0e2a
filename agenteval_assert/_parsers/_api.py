"""Message lists of the raw model APIs: ``openai-chat``, ``anthropic-messages``, ``openai-responses``.

Users who build their own agent on a model API keep its conversation as the API's own message
list. Three shapes are read, for each API:

* a list of messages (items): a JSON array, or JSONL with one message per line;
* a request body (``{"model", "messages": [...]}``, Responses ``{"model", "input": [...]}``),
  optionally with the API's answer under ``"response"``, or a ``{"request": ..., "response": ...}``
  dump; several dumps (one per line, or a JSON array of them) are read as one conversation, each
  request's history being a prefix of the next one's;
* an API response alone (``chat.completion``, a Messages ``message``, a Responses ``response``).

What each API calls a tool call and its answer:

* OpenAI Chat Completions: assistant ``tool_calls[{id, function{name, arguments}}]`` answered by
  ``{"role": "tool", "tool_call_id"}`` messages; the legacy ``function_call`` is answered by the next
  ``{"role": "function"}`` message. The API has **no error flag** on tool messages: no result is
  marked as an error (a note in ``health`` says so).
* Anthropic Messages: ``tool_use`` / ``server_tool_use`` / ``mcp_tool_use`` blocks answered by
  ``tool_result`` / ``*_tool_result`` / ``mcp_tool_result`` blocks (``tool_use_id``); errors are
  ``is_error: true`` or a server tool's ``*_error`` content.
* OpenAI Responses: ``function_call`` / ``custom_tool_call`` / ``local_shell_call`` / ``shell_call``
  / ``apply_patch_call`` / ``computer_call`` items answered by their ``*_output`` items
  (``call_id``); hosted tools (``mcp_call``, ``web_search_call``, ``file_search_call``,
  ``code_interpreter_call``, ``image_generation_call``) carry their own outcome. Errors:
  ``mcp_call.error``, a failed status, ``apply_patch_call_output`` ``failed``, a non-zero
  ``shell_call_output`` exit code; function outputs have no error flag.

The three APIs' plain text messages (``{"role": "user", "content": "hi"}``) look the same: a file
of only such messages is read as ``openai-chat``, and ``health.notes`` says that nothing told the
APIs apart.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ..model import Role, Transcript, Usage
from ._common import as_int, content_text, decode_arguments, split_mcp_name, tool_kind

__all__ = [
    "API_FORMATS",
    "AnthropicMessagesParser",
    "OpenAIChatParser",
    "OpenAIResponsesParser",
    "classify",
]

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
#: Responses items that are kept out of the steps, with the reason counted in ``health.skipped``.
_RESPONSES_SKIPPED = {
    "mcp_list_tools": "mcp_list_tools (the tools an MCP server offers)",
    "mcp_approval_request": "mcp_approval_request",
    "mcp_approval_response": "mcp_approval_response",
    "item_reference": "item_reference (points at a stored item: its content is not in the file)",
    "compaction": "compaction (encrypted summary of the earlier history)",
    "compaction_trigger": "compaction_trigger",
    "additional_tools": "additional_tools (tool definitions)",
    "configuration_update": "configuration_update",
}
#: Hosted tools whose item carries its own outcome (no ``*_output`` item follows).
_HOSTED = {
    "web_search_call": "web_search",
    "file_search_call": "search",
    "code_interpreter_call": "other",
    "image_generation_call": "other",
}

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

#: Tool names of the APIs' own tools (and common user-defined ones), by what they do.
_API_KINDS = {
    "bash": "shell",
    "shell": "shell",
    "local_shell_call": "shell",
    "shell_call": "shell",
    "bash_code_execution": "shell",
    "run_shell_command": "shell",
    "execute_command": "shell",
    "web_search": "web_search",
    "web_search_call": "web_search",
    "web_fetch": "web_fetch",
    "file_search_call": "search",
    "read_file": "file_read",
    "write_file": "file_write",
    "edit_file": "file_edit",
    "apply_patch": "file_edit",
}
_EDITOR_TOOLS = frozenset({"str_replace_based_edit_tool", "str_replace_editor", "text_editor_code_execution"})
_EDITOR_COMMANDS = {"view": "file_read", "create": "file_write"}
_PATCH_OPS = {"create_file": "file_write", "update_file": "file_edit", "delete_file": "file_edit"}


def api_kind(name: str, arguments: dict[str, Any]) -> str:
    """What a tool of a raw-API agent does, from its name (and the editor's ``command``)."""
    if name in _EDITOR_TOOLS:
        return _EDITOR_COMMANDS.get(str(arguments.get("command")), "file_edit")
    if name == "apply_patch_call":
        return _PATCH_OPS.get(str(arguments.get("type")), "file_edit")
    return _API_KINDS.get(name) or tool_kind(name)


# -- detection ----------------------------------------------------------------------------------


def _dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _json_type(v: Any) -> str:
    """The JSON name of *v*'s type, for messages (``list`` is an array, ``dict`` an object)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    return {"str": "string", "list": "array", "dict": "object"}.get(type(v).__name__, type(v).__name__)


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


# -- locating nested elements of a single JSON document -----------------------------------------

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


# -- parsing --------------------------------------------------------------------------------------


def _usage(u: dict[str, Any], fmt: str) -> Usage | None:
    """An API ``usage`` object in our terms (uncached input; reasoning reported apart, as well)."""
    if fmt == ANTHROPIC:
        inp = as_int(u.get("input_tokens"))
        out = as_int(u.get("output_tokens"))
        read = as_int(u.get("cache_read_input_tokens"))
        write = as_int(u.get("cache_creation_input_tokens"))
        if inp is None and out is None:
            return None
        return Usage(input_tokens=inp, output_tokens=out, cache_read_tokens=read, cache_write_tokens=write)
    if fmt == CHAT:
        inp = as_int(u.get("prompt_tokens"))
        out = as_int(u.get("completion_tokens"))
        details = _dict(u.get("prompt_tokens_details"))
        reasoning = as_int(_dict(u.get("completion_tokens_details")).get("reasoning_tokens"))
    else:
        inp = as_int(u.get("input_tokens"))
        out = as_int(u.get("output_tokens"))
        details = _dict(u.get("input_tokens_details"))
        reasoning = as_int(_dict(u.get("output_tokens_details")).get("reasoning_tokens"))
    cached = as_int(details.get("cached_tokens"))
    # written to the prompt cache, where the API reports it (``cache_write_tokens`` beside
    # ``cached_tokens``; ``null`` where it does not): part of the input as well
    written = as_int(details.get("cache_write_tokens"))
    if inp is None and out is None:
        return None
    if inp is not None and (cached or written):
        # OpenAI's input includes the tokens read from and written to the cache; ours does not
        inp = max(inp - (cached or 0) - (written or 0), 0)
    return Usage(input_tokens=inp, output_tokens=out, cache_read_tokens=cached, cache_write_tokens=written,
                 reasoning_tokens=reasoning)


def _add(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else a + b


#: Stop reasons that mean the model's output was cut short.
_CUT = {"length": "finish_reason length", "max_tokens": "stop_reason max_tokens",
        "model_context_window_exceeded": "stop_reason model_context_window_exceeded"}


#: Keys of a message (item) that carry what the conversation said; the others (ids of messages,
#: usage, stop reasons, statuses...) may change when a client re-sends a message in its history.
_CONTENT_KEYS = frozenset(
    {"role", "type", "content", "tool_calls", "tool_call_id", "function_call", "name", "call_id", "arguments",
     "input", "output", "action", "operation", "queries", "code", "server_label", "error", "summary"}
)
#: Keys of nested parts and calls left out of a fingerprint (presentation, not content).
_VOLATILE = frozenset({"annotations", "logprobs", "status", "index", "cache_control", "citations", "signature"})
_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})


def _pruned(v: Any) -> Any:
    """*v* without empty values and presentation keys (``null`` and a missing key are the same)."""
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if k in _VOLATILE:
                continue
            x = _pruned(x)
            if x not in (None, "", [], {}):
                out[k] = x
        return out
    if isinstance(v, list):
        return [_pruned(x) for x in v]
    return v


def fingerprint(m: Any) -> str:
    """What a message (item) of a request history says, as a short string.

    Two copies of one message compare equal however the client re-sent it: content as a string or
    as text parts, ``null`` fields written or left out, the response's ``id``/``usage``/
    ``stop_reason`` dropped. Used to tell how much of a request's history was read before.
    """
    if not isinstance(m, dict):
        proj: Any = m
    else:
        m = _unwrap(m)
        proj = {}
        for k, v in m.items():
            if k not in _CONTENT_KEYS or (k == "type" and v == "message"):
                continue
            if k == "content":
                parts = [v] if isinstance(v, str) else v if isinstance(v, list) else [v]
                v = [p["text"] if isinstance(p, dict) and _str(p.get("type")) in _TEXT_PARTS and isinstance(p.get("text"), str)
                     else p for p in parts]
                v = "".join(v) if all(isinstance(p, str) for p in v) else v
            proj[k] = v
        proj = _pruned(proj)
    data = json.dumps(proj, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.blake2b(data.encode("utf-8"), digest_size=16).hexdigest()


class _Run:
    """One parse of an API message list (any of the three flavours)."""

    def __init__(self, fmt: str, b: TranscriptBuilder) -> None:
        self.fmt = fmt
        self.b = b
        self.fits = set(_ALL)
        #: fingerprints of the conversation read from dumps so far (request history + responses)
        self.history: list[str] = []
        self.ever_read: set[str] = set()  # every fingerprint read from a dump
        self.rewritten = False  # reading the part of a request history that differs from before
        self.dumps = 0
        self.records = 0
        self.usage: Usage | None = None
        self.responses = 0
        self.cut: str | None = None  # the last response was cut short, and nothing followed it
        self.unflagged = 0  # results of a kind that has no error flag
        self.usage_reports = 0
        self.unreported = 0  # API responses without a usage report
        self.legacy: list[str] = []  # chat ``function_call`` keys waiting for a ``function`` message
        self.item_keys: dict[str, str] = {}  # Responses item id -> call key (local_shell_call_output)
        self.systems: set[str] = set()
        self._starts: list[int] | None = None  # offsets of the lines of a single-document file

    def line_of_id(self, ident: str | None, line: int) -> int:
        """In a JSON document, the line where *ident* first appears at or after *line*.

        A message of a pretty-printed document spans many lines: its calls and results are
        located on the line of their own id rather than where the message starts.
        """
        found = self.find_id_line(ident, line)
        return line if found is None else found

    def find_id_line(self, ident: str | None, line: int) -> int | None:
        """``line_of_id``, ``None`` where the id is not found (or the file is not one document)."""
        doc = self.b.document
        if doc is None or not ident:
            return None
        if self._starts is None:
            starts = [0]
            pos = doc.find("\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = doc.find("\n", pos + 1)
            self._starts = starts
        starts = self._starts
        if not 0 < line <= len(starts):
            return None
        pos = doc.find(json.dumps(ident, ensure_ascii=False), starts[line - 1])
        if pos < 0:
            return None
        return bisect_right(starts, pos)

    # -- driving ---------------------------------------------------------------------------------

    def feed(self, records: Iterator[Record]) -> None:
        for line, r in records:
            self.records += 1
            parts = dump_parts(r)
            if parts is not None:
                self.dump(line, r, *parts)
                continue
            c = compat(r)
            if c is None:
                t = r.get("type")
                self.b.unknown(f"type {t}" if isinstance(t, str) else "record that is not a message", r, line=line,
                               record=True)
                continue
            self.fits &= c
            self.misfit(line, c, r)
            self.item(line, _unwrap(r))
        self.finish()

    def misfit(self, line: int, fits: frozenset[str], r: Any) -> None:
        """A record of another API than the one read (a forced format, or a list that changes API
        after its first records): what is not of this API (a ``tool_use`` block read as Chat
        Completions...) is not read, so it is damage, not a note."""
        if self.fmt not in fits:
            apis = ", ".join(sorted(fits)) or "no API"
            self.b.damaged(line, f"a record of {apis}, not of {self.fmt}: its calls and results are not read "
                           f"as {self.fmt}", r)

    def lines_for(self, line: int) -> _Lines:
        """Where values of the current dump record are, when the file is one JSON document."""
        doc = self.b.document
        if doc is None:
            return _Lines(None, ())
        first = doc.lstrip(" \t\r\n\ufeff")[:1]
        if first == "{":
            return _Lines(doc.lstrip("\ufeff"), ()) if self.records == 1 else _Lines(None, ())
        return _Lines(doc.lstrip("\ufeff"), (self.records - 1,))

    def dump(self, line: int, r: dict[str, Any], req: dict[str, Any] | None, resp: dict[str, Any] | None) -> None:
        b = self.b
        self.dumps += 1
        if resp is None and r.get("response") is not None:  # the response is there, unreadable
            b.damaged(line, f"a dump whose response is a JSON {_json_type(r['response'])}, not an object", r)
        where = self.lines_for(line)
        base: tuple[str, ...] = ("request",) if req is not None and r.get("request") is req else ()
        c, _ = _dump_apis(req, resp)
        self.fits &= c
        self.misfit(line, c, r)
        if req is not None:
            model = _str(req.get("model"))
            if model and b.model is None:
                b.model = model
            system = req.get("system") if self.fmt == ANTHROPIC else req.get("instructions")
            text = content_text(system) if system is not None else ""
            if text and text not in self.systems:
                self.systems.add(text)
                b.message("system", text, where.of((*base, "system" if self.fmt == ANTHROPIC else "instructions"), line),
                          meta=True)
            key = "input" if self.fmt == RESPONSES and "messages" not in req else "messages"
            items = req.get(key)
            if isinstance(items, str):
                items = [{"role": "user", "content": items}]
            if isinstance(items, list):
                self.request_history(line, key, items, where.elements((*base, key), len(items), line),
                                     chained=bool(req.get("previous_response_id")))
        if resp is not None:
            rbase: tuple[str, ...] = ("response",) if r.get("response") is resp else ()
            self.response(where.of(rbase, line), resp, where, rbase)

    def request_history(self, line: int, key: str, items: list[Any], lines: list[int], *, chained: bool) -> None:
        """Read the messages of a request that were not read before.

        Each request of a proxy log re-sends the conversation so far: the longest common prefix
        (compared by content, see ``fingerprint``) with what was read is skipped. A history that
        differs from it (trimmed, compacted, rewritten) is read on from where it differs, leaving
        out the messages read before (a call already read with the same input is not a new call).
        A request chained with ``previous_response_id`` holds only the new items.
        """
        b = self.b
        prints = [fingerprint(m) for m in items]
        old = self.history
        start = 0
        if not chained:
            n = min(len(old), len(prints))
            while start < n and old[start] == prints[start]:
                start += 1
            if start:
                b.skip("messages repeated from an earlier request", start)
            if start < len(old):
                b.note(f"line {line}: a request's history differs from the conversation read before it from "
                       f"message {start + 1} on (trimmed, compacted or rewritten): its messages from there are "
                       "read as new, except those read before")
                self.rewritten = True
        try:
            for i in range(start, len(items)):
                m = items[i]
                if not isinstance(m, dict):
                    b.skip(f"{key} element that is not an object")
                elif self.rewritten and prints[i] in self.ever_read:
                    b.skip("messages repeated from an earlier request (in a rewritten history)")
                else:
                    self.item(lines[i], _unwrap(m))
        finally:
            self.rewritten = False
        self.history = old + prints if chained else prints
        self.ever_read.update(prints)

    def responded(self, *items: Any) -> None:
        """The response's message(s) join the conversation read so far."""
        prints = [fingerprint(m) for m in items]
        self.history.extend(prints)
        self.ever_read.update(prints)

    def response(self, line: int, resp: dict[str, Any], where: _Lines, base: tuple[str, ...]) -> None:
        b = self.b
        self.responses += 1
        rid = _str(resp.get("id"))
        if rid:
            b.metadata.setdefault("response_ids", []).append(rid)
        model = _str(resp.get("model"))
        if model:
            b.model = model  # the snapshot that answered, more precise than the request's alias
        if self.fmt == ANTHROPIC or resp.get("type") == "message":
            self.item(line, resp)
            self.responded(resp)
            return
        u = _dict(resp.get("usage"))
        got = _usage(u, self.fmt) if u else None
        self.unreported += got is None
        self.add_usage(got)
        if resp.get("object") == "chat.completion":
            raw_choices = resp.get("choices")
            if raw_choices is not None and not isinstance(raw_choices, list):
                b.damaged(line, f"a chat.completion whose choices is a JSON {_json_type(raw_choices)}, not a list",
                          resp)
                return
            choices = [c for c in raw_choices or () if isinstance(c, dict)]
            if len(choices) != len(raw_choices or ()):
                b.damaged(line, "a chat.completion choice that is not an object", resp)
            if not choices:
                b.skip("chat.completion without choices")
                return
            if len(choices) > 1:
                b.note(f"a chat.completion has {len(choices)} choices: only the first is read as the continuation")
                b.skip("chat.completion choices after the first", len(choices) - 1)
            msg = choices[0].get("message")
            reason = _str(choices[0].get("finish_reason"))
            if isinstance(msg, dict):
                self.item(where.of((*base, "choices", 0, "message"), line), msg)
                self.responded(msg)
            if reason == "tool_calls" and not (isinstance(msg, dict) and isinstance(msg.get("tool_calls"), list)
                                               and msg["tool_calls"]):
                b.damaged(line, "a chat.completion whose finish_reason is tool_calls holds no tool call", resp)
            self.cut = _CUT.get(reason or "")
            if reason == "content_filter":
                b.note("the response's finish_reason is content_filter: the output was filtered")
            return
        output = resp.get("output")
        if output is not None and not isinstance(output, list):
            b.damaged(line, f"a response whose output is a JSON {_json_type(output)}, not a list", resp)
            output = None
        out = [o for o in output or () if isinstance(o, dict)]
        lines = where.elements((*base, "output"), len(output or ()), line)
        for i, item in enumerate(output or ()):
            if isinstance(item, dict):
                self.item(lines[i], _unwrap(item))
            else:
                b.damaged(lines[i], f"a response output item that is a JSON {_json_type(item)}, not an object", item)
        self.responded(*out)
        status = _str(resp.get("status"))
        if status == "failed":
            err = _dict(resp.get("error"))
            b.error(_str(err.get("message")) or "the response failed", line)
        elif status == "incomplete":
            why = _str(_dict(resp.get("incomplete_details")).get("reason")) or "unknown"
            self.cut = f"status incomplete ({why})"
        else:
            self.cut = None

    def add_usage(self, u: Usage | None) -> None:
        if u is None:
            return
        self.usage_reports += 1
        a = self.usage
        self.usage = u if a is None else Usage(
            input_tokens=_add(a.input_tokens, u.input_tokens),
            output_tokens=_add(a.output_tokens, u.output_tokens),
            cache_read_tokens=_add(a.cache_read_tokens, u.cache_read_tokens),
            cache_write_tokens=_add(a.cache_write_tokens, u.cache_write_tokens),
            reasoning_tokens=_add(a.reasoning_tokens, u.reasoning_tokens),
        )

    def finish(self) -> None:
        b = self.b
        if self.usage is not None:
            b.usage = self.usage
            n = self.usage_reports
            b.usage_mode = "reported by the API response" if n == 1 else f"summed over {n} API responses"
            if self.unreported:
                b.usage_partial = True
                b.note(f"usage: {self.unreported} of {n + self.unreported} API responses report no usage: "
                       "the figures cover the others only")
        if self.cut is not None:
            b.run_ended = False
            b.note(f"the last API response was cut short ({self.cut}): the conversation did not end there")
        if self.unflagged:
            b.note(f"{self.fmt}: tool results carry no error flag, so their calls' outcome is unrecorded "
                   "(no result is marked as an error; checks that need the outcome are inconclusive)")
        if self.records and len(self.fits) > 1:
            b.note(f"nothing in the file tells {', '.join(f for f in _PREFERENCE if f in self.fits)} apart "
                   f"(plain text messages only): read as {self.fmt}")
        elif self.records and self.fmt not in self.fits:
            b.note(f"the records do not all fit {self.fmt}: what does not is counted as unknown")

    # -- one message / item ------------------------------------------------------------------------

    def item(self, line: int, r: dict[str, Any]) -> None:
        self.cut = None  # something follows the last response: it was not the end
        if self.fmt == CHAT:
            self.chat(line, r)
        elif self.fmt == ANTHROPIC:
            self.anthropic(line, r)
        else:
            self.responses_item(line, r)

    def call(self, key: str | None, line: int, *, name: str, arguments: dict[str, Any], kind: str | None = None,
             raw_arguments: str | None = None, server: str | None = None, tool: str | None = None,
             suffix: str = "") -> str | None:
        """Record a call; its key is the native id, or ``@line`` for a call that has none."""
        b = self.b
        native = key if key is not None else f"line:{line}{suffix}"
        k = key if key is not None else f"@{line}{suffix}"
        if server is None and tool is None:
            server, tool = split_mcp_name(name)
        line = self.line_of_id(key, line)
        known = b.call_info(k)
        # The APIs' ids are unique among the open calls only (some models number them afresh every
        # turn): an id whose call was answered starts a new call, unless a rewritten history repeats
        # that very call.
        reuse = not (self.rewritten and known is not None and known.name == name and known.arguments == arguments)
        if not b.call(k, id=native, name=name, kind=kind or api_kind(name, arguments), arguments=arguments,
                      line=line, raw_arguments=raw_arguments, server=server, tool=tool, reuse_answered=reuse):
            b.skip("call repeating the id of a call still waiting for its result" if known is not None
                   and known.result is None else "call repeated in a rewritten history")
            return None
        return k

    # -- OpenAI Chat Completions -------------------------------------------------------------------

    def chat(self, line: int, m: dict[str, Any]) -> None:
        b = self.b
        role = m.get("role")
        content = m.get("content")
        if role in ("system", "developer"):
            text = content_text(content)
            if text:
                b.message("system", text, line, meta=True)
            else:
                b.skip(f"{role} message without text")
        elif role == "user":
            text = content_text(content)
            if text:
                b.message("user", text, line)
            else:
                b.skip("user message without text (images, audio, files)")
        elif role == "assistant":
            self.chat_assistant(line, m)
        elif role == "tool":
            tcid = _str(m.get("tool_call_id"))
            if tcid is None:
                b.damaged(line, "tool message without a tool_call_id (its result answers no call)", m)
                return
            self.unflagged += 1
            b.result(tcid, text=content_text(content), raw=None if isinstance(content, str) else content, line=line,
                     status="unrecorded")
        elif role == "function":
            self.unflagged += 1
            name = _str(m.get("name"))
            key = None
            for i in range(len(self.legacy) - 1, -1, -1):
                info = b.call_info(self.legacy[i])
                if name is None or (info is not None and info.name == name):
                    key = self.legacy.pop(i)
                    break
            if key is None:
                b.orphan_results.append(f"function:{name or '?'}@{line}")
                return
            b.result(key, text=content_text(content), line=line, status="unrecorded")
        else:
            b.unknown(f"message role {role}", m, line=line)

    def chat_assistant(self, line: int, m: dict[str, Any]) -> None:
        b = self.b
        reasoning = _str(m.get("reasoning_content")) or _str(m.get("reasoning"))
        if reasoning:
            b.thinking(reasoning, line)
        text = content_text(m.get("content"))
        refusal = _str(m.get("refusal"))
        if refusal and refusal not in text:
            text = f"{text}\n{refusal}" if text else refusal
        if text:
            b.message("assistant", text, line)
        calls = m.get("tool_calls")
        n = 0
        if calls is not None and not isinstance(calls, list):
            b.damaged(line, f"assistant tool_calls is a JSON {_json_type(calls)}, not a list", m)
        if isinstance(calls, list):
            for i, tc in enumerate(calls):
                if not isinstance(tc, dict):
                    b.damaged(line, f"a tool call that is a JSON {_json_type(tc)}, not an object", tc)
                    continue
                tid = _str(tc.get("id"))
                fn = tc.get("function")
                custom = tc.get("custom")
                if isinstance(fn, dict) and isinstance(fn.get("name"), str):
                    args, raw = decode_arguments(fn.get("arguments"))
                    self.call(tid, line, name=fn["name"], arguments=args, raw_arguments=raw, suffix=f"#{i}")
                elif isinstance(custom, dict) and isinstance(custom.get("name"), str):
                    inp = custom.get("input")
                    self.call(tid, line, name=custom["name"], arguments={} if inp is None else {"input": inp},
                              suffix=f"#{i}")
                else:
                    b.damaged(line, "a tool call without a function name", tc)
                    continue
                n += 1
        fc = m.get("function_call")
        if isinstance(fc, dict) and isinstance(fc.get("name"), str):
            args, raw = decode_arguments(fc.get("arguments"))
            key = self.call(None, line, name=fc["name"], arguments=args, raw_arguments=raw, suffix="#function_call")
            if key is not None:
                self.legacy.append(key)
            n += 1
        if not text and not reasoning and not n:
            b.skip("assistant message without text or calls")

    # -- Anthropic Messages ------------------------------------------------------------------------

    def anthropic(self, line: int, m: dict[str, Any]) -> None:
        b = self.b
        if m.get("type") == "message":  # an API response appended to the list
            got = _usage(_dict(m.get("usage")), ANTHROPIC)
            self.unreported += got is None
            self.add_usage(got)
            model = _str(m.get("model"))
            if model:
                b.model = model
            reason = _str(m.get("stop_reason"))
            self.cut = _CUT.get(reason or "")
            content = m.get("content")
            if reason == "tool_use" and not (isinstance(content, list) and any(
                    isinstance(x, dict) and x.get("type") in ("tool_use", "server_tool_use", "mcp_tool_use")
                    for x in content)):
                b.damaged(line, "a response whose stop_reason is tool_use holds no tool_use block", m)
            if reason == "refusal":
                b.note("a response's stop_reason is refusal")
        role = m.get("role")
        if role not in ("user", "assistant"):
            b.unknown(f"message role {role}", m, line=line)
            return
        who: Role = "user" if role == "user" else "assistant"
        content = m.get("content")
        if isinstance(content, str):
            if content:
                b.message(who, content, line)
            else:
                b.skip(f"{role} message without text")
            return
        if not isinstance(content, list):
            if content is None:
                b.skip(f"{role} message without content")
            else:
                b.damaged(line, f"{role} message content is a JSON {_json_type(content)}, "
                          "not a string or a list of blocks", m)
            return
        texts: list[str] = []  # consecutive text blocks, with their separators

        def flush() -> None:
            if texts:
                text = "".join(texts)
                if text.strip():
                    b.message(who, text, line)
                texts.clear()

        prev_cited = False
        for i, block in enumerate(content):
            if not isinstance(block, dict):
                b.damaged(line, f"a content block that is a JSON {_json_type(block)}, not an object", block)
                continue
            bt = block.get("type")
            if bt == "text":
                cited = bool(block.get("citations"))
                if texts:
                    # Citations split one answer into several blocks: they join with nothing.
                    texts.append("" if cited or prev_cited else "\n")
                texts.append(_str(block.get("text")) or "")
                prev_cited = cited
                continue
            flush()
            if bt == "thinking":
                thought = _str(block.get("thinking"))
                if thought:
                    b.thinking(thought, line)
                else:
                    b.skip("thinking block without text")
            elif bt == "redacted_thinking":
                b.skip("redacted_thinking (encrypted)")
            elif bt in ("tool_use", "server_tool_use", "mcp_tool_use"):
                name = _str(block.get("name"))
                if name is None:
                    b.damaged(line, f"{bt} without a name", block)
                    continue
                args, raw = decode_arguments(block.get("input"))
                server = _str(block.get("server_name")) if bt == "mcp_tool_use" else None
                self.call(_str(block.get("id")), line, name=name, arguments=args, raw_arguments=raw,
                          server=server, tool=name if server else None, kind="mcp" if server else None,
                          suffix=f"#{i}")
            elif isinstance(bt, str) and (bt == "tool_result" or bt.endswith("_tool_result")):
                self.anthropic_result(line, bt, block)
            elif bt in ("image", "document", "search_result", "container_upload", "tool_reference"):
                b.skip(f"{bt} block")
            else:
                b.unknown(f"content block {bt}", block, line=line)
        flush()

    def anthropic_result(self, line: int, bt: str, block: dict[str, Any]) -> None:
        b = self.b
        tid = _str(block.get("tool_use_id"))
        if tid is None:
            b.damaged(line, f"{bt} without a tool_use_id (its result answers no call)", block)
            return
        content = block.get("content")
        is_error = block.get("is_error") is True
        exit_code = None
        if isinstance(content, dict):  # a server tool's result object
            ct = _str(content.get("type")) or ""
            if ct.endswith("_error") or "error_code" in content:
                is_error = True
                text = str(content.get("error_code") or ct)
            else:
                parts = [p for p in (_str(content.get("stdout")), _str(content.get("stderr"))) if p]
                text = "\n".join(parts) or content_text(content)
                exit_code = as_int(content.get("return_code"))
        elif isinstance(content, list):
            text = content_text(content)
            if not text:  # web search results: titles and URLs
                text = "\n".join(
                    " ".join(s for s in (_str(p.get("title")), _str(p.get("url"))) if s)
                    for p in content if isinstance(p, dict) and ("url" in p or "title" in p)
                )
        else:
            text = content_text(content)
        # located on its own block: a server tool's result follows its call in the same message,
        # so its id is looked for after the call's own line
        known = b.call_info(tid)
        at = self.find_id_line(tid, known.line + 1) if known is not None and known.line >= line else None
        b.result(tid, text=text, raw=None if isinstance(content, str) else content, is_error=is_error,
                 exit_code=exit_code, line=at if at is not None else self.line_of_id(tid, line))

    # -- OpenAI Responses --------------------------------------------------------------------------

    def responses_item(self, line: int, r: dict[str, Any]) -> None:
        b = self.b
        t = r.get("type", "message" if "role" in r else None)
        if t == "message":
            role = r.get("role")
            text = content_text(r.get("content"))
            if role == "assistant":
                if text:
                    b.message("assistant", text, line)
                else:
                    b.skip("assistant message without text")
            elif role == "user":
                if text:
                    b.message("user", text, line)
                else:
                    b.skip("user message without text (images, files)")
            elif role in ("system", "developer"):
                if text:
                    b.message("system", text, line, meta=True)
                else:
                    b.skip(f"{role} message without text")
            else:
                b.unknown(f"message role {role}", r, line=line)
            return
        if not isinstance(t, str):
            b.unknown("item without type", r, line=line)
            return
        if t == "reasoning":
            text = content_text(r.get("summary")) or content_text(r.get("content"))
            if text:
                b.thinking(text, line)
            else:
                b.skip("reasoning with no readable text (encrypted only)")
        elif t in _RESPONSES_SKIPPED:
            b.skip(_RESPONSES_SKIPPED[t])
        elif t in _HOSTED:
            self.hosted(line, t, r)
        elif t == "mcp_call":
            self.mcp_call(line, r)
        elif t.endswith("_output"):
            self.responses_output(line, t, r)
        elif t.endswith("_call") or t == "program":
            self.responses_call(line, t, r)
        else:
            b.unknown(f"item {t}", r, line=line)

    def responses_call(self, line: int, t: str, r: dict[str, Any]) -> None:
        cid = _str(r.get("call_id")) or _str(r.get("id"))
        raw: str | None = None
        if t in ("function_call", "custom_tool_call", "tool_search_call"):
            if t != "tool_search_call" and not _str(r.get("name")):
                self.b.damaged(line, f"{t} without a name", r)
            name = _str(r.get("name")) or t
            ns = _str(r.get("namespace"))
            if ns and not name.startswith(ns):
                name = f"{ns}__{name}"
            if t == "custom_tool_call":
                inp = r.get("input")
                args: dict[str, Any] = {} if inp is None else {"input": inp}
            else:
                args, raw = decode_arguments(r.get("arguments"))
        elif t == "local_shell_call":
            name, args = t, {k: v for k, v in _dict(r.get("action")).items() if k != "type"}
        elif t == "shell_call":
            name, args = t, dict(_dict(r.get("action")))
            cmds = args.get("commands")
            if isinstance(cmds, list) and all(isinstance(c, str) for c in cmds):
                args["command"] = "\n".join(cmds)
        elif t == "apply_patch_call":
            name, args = t, dict(_dict(r.get("operation")))
        elif t == "program":
            name, args = t, {"code": r.get("code")}
        else:  # computer_call and future *_call items
            name, args = t, dict(_dict(r.get("action")))
        key = self.call(cid, line, name=name, arguments=args, raw_arguments=raw)
        item_id = _str(r.get("id"))
        if key is not None and item_id:
            self.item_keys[item_id] = key

    def responses_output(self, line: int, t: str, r: dict[str, Any]) -> None:
        b = self.b
        cid = _str(r.get("call_id"))
        if cid is None and t == "local_shell_call_output":
            rid = _str(r.get("id"))
            cid = self.item_keys.get(rid, rid) if rid else None
        if cid is None:
            b.damaged(line, f"{t} without a call_id (its result answers no call)", r)
            return
        out = r.get("output")
        is_error = False
        exit_code = None
        status = None
        if t == "shell_call_output" and isinstance(out, list):
            parts: list[str] = []
            for o in out:
                o = _dict(o)
                parts.extend(s for s in (_str(o.get("stdout")), _str(o.get("stderr"))) if s)
                outcome = _dict(o.get("outcome"))
                if outcome.get("type") == "timeout":
                    is_error = True
                code = as_int(outcome.get("exit_code"))
                if code is not None and (exit_code is None or exit_code == 0):
                    exit_code = code
            text = "\n".join(parts)
        else:
            text = out if isinstance(out, str) else content_text(out)
            if t == "program_output":
                text = text or json.dumps(r.get("result"), ensure_ascii=False)
        if t == "apply_patch_call_output" and r.get("status") == "failed":
            is_error = True
        if t in ("function_call_output", "custom_tool_call_output"):
            self.unflagged += 1
            status = "unrecorded"  # no error flag: whether it failed is not in the log
        if r.get("status") == "incomplete":
            status = "interrupted"
        b.result(cid, text=text, raw=None if isinstance(out, str) else out, is_error=is_error,
                 exit_code=exit_code, status=status, line=line)

    def hosted(self, line: int, t: str, r: dict[str, Any]) -> None:
        b = self.b
        if t == "file_search_call":
            args: dict[str, Any] = {"queries": r.get("queries")}
        elif t == "code_interpreter_call":
            args = {"code": r.get("code")}
        elif t == "image_generation_call":
            args = {k: r[k] for k in ("revised_prompt", "size", "quality") if r.get(k) is not None}
        else:
            args = dict(_dict(r.get("action")))
        key = self.call(_str(r.get("id")), line, name=t, arguments=args, kind=_HOSTED[t])
        status = r.get("status")
        if key is None or status not in ("completed", "failed", "incomplete"):
            return  # still running when the list was saved: no outcome yet
        if t == "file_search_call":
            text = "\n".join(_str(_dict(x).get("text")) or "" for x in r.get("results") or ())
        elif t == "code_interpreter_call":
            text = "\n".join(_str(_dict(x).get("logs")) or "" for x in r.get("outputs") or ())
        else:
            text = ""
        failed = status == "failed" or r.get("error") is not None
        b.result(key, text=text, raw=r, is_error=failed, line=line,
                 status="failed" if failed else "interrupted" if status == "incomplete" else "completed")

    def mcp_call(self, line: int, r: dict[str, Any]) -> None:
        b = self.b
        name = _str(r.get("name")) or "mcp_call"
        args, raw = decode_arguments(r.get("arguments"))
        key = self.call(_str(r.get("id")), line, name=name, arguments=args, raw_arguments=raw,
                        server=_str(r.get("server_label")), tool=name, kind="mcp")
        if key is None:
            return
        err = r.get("error")
        out = r.get("output")
        if err is None and out is None and r.get("status") not in ("failed", "completed"):
            return  # no outcome recorded yet
        failed = err is not None or r.get("status") == "failed"
        text = (err if isinstance(err, str) else json.dumps(err, ensure_ascii=False)) if err is not None else (
            out if isinstance(out, str) else content_text(out))
        b.result(key, text=text, raw=r, is_error=failed, line=line)


#: The verdict on the last head classified: the three parsers sniff the same head in a row, and a
#: request body's messages are all read to classify it.
_LAST: list[Any] = [None, None]


def _classify_once(head: Sequence[Record]) -> tuple[str | None, str, frozenset[str]]:
    key = (id(head), len(head), id(head[0][1]) if head else 0)
    if _LAST[0] != key:
        _LAST[:] = [key, classify(head)]
    result: tuple[str | None, str, frozenset[str]] = _LAST[1]
    return result


class _ApiParser:
    name: str
    agent: str

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        fmt, why, fits = _classify_once(head)
        if fmt == self.name:
            return None
        if fmt is None:
            return why
        return f"a {fmt} message list" + (f" (it could also be {self.name}, but {fmt} comes first)"
                                          if self.name in fits else "")

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        _Run(self.name, b).feed(records)


class OpenAIChatParser(_ApiParser):
    """OpenAI Chat Completions message lists (``tool_calls`` + ``tool`` messages)."""

    name = CHAT
    agent = "openai-api"


class AnthropicMessagesParser(_ApiParser):
    """Anthropic Messages lists (``tool_use`` / ``tool_result`` blocks)."""

    name = ANTHROPIC
    agent = "anthropic-api"


class OpenAIResponsesParser(_ApiParser):
    """OpenAI Responses input/output items (``function_call`` / ``function_call_output``)."""

    name = RESPONSES
    agent = "openai-api"


# -- in-memory lists ------------------------------------------------------------------------------

#: The path of every location of a transcript made by ``from_messages``.
MESSAGES_PATH = "<messages>"


def _plain(obj: Any, where: str) -> Any:
    """*obj* as JSON data: SDK objects (anything with ``model_dump``) are dumped, deeply."""
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, dict):
        return {str(k): _plain(v, f"{where}.{k}") for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(obj)]
    dump = getattr(obj, "model_dump", None)
    if callable(dump):  # a pydantic model of the openai / anthropic SDKs (duck-typed: never imported)
        return _plain(dump(mode="json"), where)
    from collections.abc import Mapping

    if isinstance(obj, Mapping):
        return {str(k): _plain(v, f"{where}.{k}") for k, v in obj.items()}
    raise TypeError(f"{where} is a {type(obj).__name__}, not JSON data nor an SDK object")


def from_messages(messages: Any, *, flavor: str | None = None, path: str = MESSAGES_PATH) -> Transcript:
    """A ``Transcript`` of a message list held in memory (see ``agenteval_assert.from_messages``)."""
    from collections.abc import Iterable, Mapping

    from .._reader import ReadStats
    from ..exceptions import TranscriptParseError, UnknownFormatError, UsageError

    if flavor is not None and flavor not in API_FORMATS:
        raise UsageError(f"unknown flavor {flavor!r}; choose one of: {', '.join(API_FORMATS)}")
    if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, Iterable):
        raise UsageError(
            f"from_messages takes the list of messages (items), not a {type(messages).__name__}; "
            "for a request body pass body['messages'] (Responses: body['input'])"
        )
    records: list[Record] = []
    for i, m in enumerate(messages):
        try:
            data = _plain(m, f"messages[{i}]")
        except TypeError as exc:
            raise TranscriptParseError(str(exc), path=path, line=i + 1,
                                       expected="a message: a dict or an SDK (pydantic) object") from None
        if not isinstance(data, dict):
            raise TranscriptParseError(f"messages[{i}] is a JSON {type(data).__name__}, not a message",
                                       path=path, line=i + 1, expected="a message object")
        records.append((i + 1, data))
    parsers: dict[str, _ApiParser] = {
        p.name: p for p in (OpenAIChatParser(), AnthropicMessagesParser(), OpenAIResponsesParser())
    }
    if flavor is None:
        fmt, why, _ = classify(records)
        if fmt is None:
            raise UnknownFormatError(path=path, tried=[(f, why) for f in API_FORMATS])
        flavor = fmt
    parser = parsers[flavor]
    b = TranscriptBuilder(path, parser.name, parser.agent)
    parser.parse(iter(records), b)
    return b.build(ReadStats(path=path, shape="json-array", lines=len(records), records=len(records)))
