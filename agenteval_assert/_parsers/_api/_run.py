"""The parse of one API message list, the part the three flavours share.

The record loop, request/response dumps (a proxy log's request histories read once, compared by
``fingerprint``), usage, stop reasons, calls (``api_kind``: what a tool does) and the closing
notes; ``_chat``, ``_anthropic`` and ``_responses`` subclass ``_Run`` to read their own messages.
Imports ``_detect``, ``_locate``, ``_parsers._common``, ``_builder``, ``_reader`` and ``model``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from ..._builder import TranscriptBuilder
from ..._reader import Record
from ...model import Usage
from .._common import as_int, content_text, split_mcp_name, tool_kind
from ._detect import (
    _ALL,
    _PREFERENCE,
    ANTHROPIC,
    CHAT,
    RESPONSES,
    _dump_apis,
    _unwrap,
    compat,
    dump_parts,
)
from ._locate import _IdLines, _Lines

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
    """One parse of an API message list: what the three flavours share.

    Records, dumps (a request's history read once, the response), usage, stop reasons and the
    calls; each flavour's subclass reads its own messages (``read``).
    """

    fmt: str

    def __init__(self, b: TranscriptBuilder) -> None:
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
        self.systems: set[str] = set()
        self._ids: _IdLines | None = None  # where ids are in a single-document file

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
        if self._ids is None:
            self._ids = _IdLines(doc)
        return self._ids.find(ident, line)

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
        self.read(line, r)

    def read(self, line: int, r: dict[str, Any]) -> None:
        """One message (item) of this run's API: each flavour reads its own."""
        raise NotImplementedError

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
