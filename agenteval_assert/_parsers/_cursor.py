"""Cursor CLI parser: ``cursor-cli`` (``cursor-agent -p --output-format stream-json``).

The stream looks like Claude Code's (``system/init``, ``user``/``assistant`` events with a Messages
``message``, a closing ``result``) but calls are not content blocks: each call is a pair of
``tool_call`` events, ``started`` then ``completed``, sharing a ``call_id``; the tool is the single
key of ``tool_call`` (``shellToolCall``, ``readToolCall``...), holding ``args`` and, once completed,
``result`` (``{"success": {...}}`` or another key for a failure). Reasoning streams as
``thinking/delta`` events closed by ``thinking/completed``.

Quirks of the real captures handled here:

* ``call_id`` can contain a newline (``call_…\\nfc_…``): it is kept as it is, newline included.
* Every ``assistant`` event is one text segment; the ``result`` event's ``result`` joins all of
  them without a separator, so the final response is the last ``assistant`` segment, never
  ``result.result``.
* Parallel calls: several ``started`` events before their ``completed`` ones (paired by id).
* No token usage or cost is reported.

See ``docs/formats-cursor.md`` for what every model field is filled from.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ._common import as_int, content_text, decode_arguments, iso_ms
from ._sniff import cursor_evidence, cursor_sniff

__all__ = ["CursorStreamJsonParser", "cursor_evidence"]

#: The tool-call kinds seen in captures and in Cursor's documentation, by what they do.
_KINDS = {
    "shellToolCall": "shell",
    "readToolCall": "file_read",
    "writeToolCall": "file_write",
    "editToolCall": "file_edit",
    "deleteToolCall": "file_edit",
    "grepToolCall": "search",
    "globToolCall": "search",
    "lsToolCall": "search",
    "semSearchToolCall": "search",
    "webSearchToolCall": "web_search",
    "todoToolCall": "todo",
    "updateTodosToolCall": "todo",
    "mcpToolCall": "mcp",
}
#: ``tool_call.<kind>.result`` keys: the one that means success, and the failures we can name.
_FAILURE_STATUS = {"rejected": "declined"}
_INIT_KEYS = ("cwd", "apiKeySource", "permissionMode")
_RESULT_KEYS = ("duration_ms", "duration_api_ms", "request_id")


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) and v else None


def _tool(tool_call: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The tool name and its ``{args, result}`` body: the single key of ``tool_call``."""
    if len(tool_call) != 1:
        return None
    name, body = next(iter(tool_call.items()))
    if not isinstance(body, dict):
        return None
    if name == "function":  # generic tools, per Cursor's documentation: {"function": {name, arguments}}
        fname = _str(body.get("name"))
        if fname is None:
            return None
        return fname, {"args": body.get("arguments"), "result": body.get("result")}
    if not name.endswith("ToolCall"):  # every kind is <kind>ToolCall: another key is a damaged event
        return None
    return name, body


def _text_of(value: Any) -> str:
    """A readable text for a result payload: shell output, content, message, else compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if "stdout" in value or "stderr" in value:
            inter = value.get("interleavedOutput")
            if isinstance(inter, str) and inter:
                return inter
            parts = [value.get(k) for k in ("stdout", "stderr")]
            return "\n".join(p for p in parts if isinstance(p, str) and p)
        for key in ("content", "output", "message", "error", "reason"):
            v = value.get(key)
            if isinstance(v, str):
                return v
            if isinstance(v, (list, dict)) and key in ("content", "output"):
                text = content_text(v)
                if text:
                    return text
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)[:2000]


class CursorStreamJsonParser:
    """``cursor-agent -p --output-format stream-json`` events."""

    name = "cursor-cli"
    agent = "cursor-cli"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        return cursor_sniff(head, shape)

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        thinking: list[str] = []
        thinking_line = 0

        def flush_thinking() -> None:
            nonlocal thinking
            if thinking:
                text = "".join(thinking)
                if text.strip():
                    b.thinking(text, thinking_line)
                else:
                    b.skip("blank thinking")
                thinking = []

        for line, r in records:
            t = r.get("type")
            if t == "thinking":
                b.run_ended = False
                sub = r.get("subtype")
                if sub == "delta":
                    text = r.get("text")
                    if isinstance(text, str):
                        if not thinking:
                            thinking_line = line
                        thinking.append(text)
                    else:
                        b.skip("thinking/delta without text")
                elif sub == "completed":
                    flush_thinking()
                else:
                    b.unknown(f"thinking/{sub}" if isinstance(sub, str) else "thinking (no subtype)")
                continue
            flush_thinking()
            ts = iso_ms(r.get("timestamp_ms"))
            if ts is not None:
                b.metadata.setdefault("started_at", ts)
                b.metadata["ended_at"] = ts
            if b.session_id is None:
                b.session_id = _str(r.get("session_id"))
            if t == "assistant" or t == "user":
                self._message(line, t, r, b)
            elif t == "tool_call":
                b.run_ended = False
                self._tool_call(line, r, b)
            elif t == "system":
                self._system(r, b)
            elif t == "result":
                self._result(line, r, b)
            else:
                b.unknown(t if isinstance(t, str) else "(record without a string type)", r, line=line, record=True)
        flush_thinking()

    @staticmethod
    def _message(line: int, t: str, r: dict[str, Any], b: TranscriptBuilder) -> None:
        msg = r.get("message")
        if not isinstance(msg, dict):
            b.skip(f"{t} event without a message object")
            return
        b.run_ended = False
        content = msg.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") != "text":
                    bt = block.get("type")
                    b.unknown(f"{t} block {bt}" if isinstance(bt, str) else f"{t} block without type", block,
                              line=line)
        text = content_text(content)
        if not text.strip():
            b.skip(f"blank {t} event")
            return
        b.message("assistant" if t == "assistant" else "user", text, line)

    @staticmethod
    def _system(r: dict[str, Any], b: TranscriptBuilder) -> None:
        sub = r.get("subtype")
        if sub != "init":
            b.unknown(f"system/{sub}" if isinstance(sub, str) else "system (no subtype)")
            return
        b.run_ended = False  # a run started: its result event must follow
        sid = _str(r.get("session_id"))
        if sid is not None:
            b.session_id = sid
        model = _str(r.get("model"))
        if model is not None and b.model is None:
            b.model = model
        for k in _INIT_KEYS:
            if k in r and k not in b.metadata:
                b.metadata[k] = r[k]

    @staticmethod
    def _tool_call(line: int, r: dict[str, Any], b: TranscriptBuilder) -> None:
        sub = r.get("subtype")
        if sub not in ("started", "completed"):
            b.unknown(f"tool_call/{sub}" if isinstance(sub, str) else "tool_call (no subtype)", r, line=line)
            return
        cid = _str(r.get("call_id"))
        tc = r.get("tool_call")
        found = _tool(tc) if isinstance(tc, dict) else None
        if found is None:
            b.damaged(line, f"tool_call/{sub} without a single <kind>ToolCall object", tc)
            return
        name, body = found
        if cid is None:
            cid = _str(body.get("args", {}).get("toolCallId") if isinstance(body.get("args"), dict) else None)
        if cid is None:
            b.damaged(line, f"tool_call/{sub} without call_id", r)
            return
        args, raw_args = decode_arguments(body.get("args"))
        server = tool = None
        if name == "mcpToolCall":
            server = _str(args.get("providerIdentifier")) or _str(args.get("serverName"))
            tool = _str(args.get("toolName")) or _str(args.get("name"))
        ts = iso_ms(r.get("timestamp_ms"))
        if not b.has_call(cid):
            b.call(cid, id=cid, name=name, kind=_KINDS.get(name, "other"), arguments=args, line=line,
                   raw_arguments=raw_args, server=server, tool=tool, started_at=ts if sub == "started" else None)
            if sub == "started":
                return
        elif sub == "started":
            b.skip("repeated tool_call/started (same call_id)")
            return
        info = b.call_info(cid)
        if info is not None and info.result is not None:
            b.skip("repeated tool_call/completed (same call_id)")
            return
        if info is not None and not info.arguments and args:
            b.update_call(cid, arguments=args, raw_arguments=raw_args)
        result = body.get("result")
        if not isinstance(result, dict):
            b.result(cid, text=_text_of(result), raw=result, is_error=True, line=line, ended_at=ts)
            b.note(f"tool_call/completed without a result object (first at line {line}): counted as an error")
            return
        if "success" in result:
            success = result["success"]
            exit_code = as_int(success.get("exitCode")) if isinstance(success, dict) else None
            b.result(cid, text=_text_of(success), raw=result, exit_code=exit_code, line=line, ended_at=ts)
            return
        failure = next((k for k in result if k != "isBackground"), None)
        status = _FAILURE_STATUS.get(failure or "")
        b.result(cid, text=_text_of(result.get(failure) if failure else None) or (failure or "no outcome"),
                 raw=result, is_error=True, status=status or "failed", line=line, ended_at=ts)

    @staticmethod
    def _result(line: int, r: dict[str, Any], b: TranscriptBuilder) -> None:
        b.run_ended = True
        sub = r.get("subtype")
        md = b.metadata
        md["result_subtype"] = sub
        md["is_error"] = r.get("is_error") is True
        for k in _RESULT_KEYS:
            if k in r:
                md[k] = r[k]
        if r.get("is_error") is True or (isinstance(sub, str) and sub != "success"):
            detail = r.get("result") if isinstance(r.get("result"), str) else r.get("error")
            msg = f"the run ended with an error (subtype {sub})"
            b.error(f"{msg}: {str(detail)[:300]}" if detail else msg, line)
