"""OpenAI Responses items: ``*_call`` items answered by their ``*_output`` items.

Function, custom, shell, apply-patch and computer calls; hosted tools (``mcp_call``, web and file
search, code interpreter, image generation) that carry their own outcome; items kept out of the
steps are counted. Imports ``_run`` and ``_parsers._common``.
"""

from __future__ import annotations

import json
from typing import Any

from ..._builder import TranscriptBuilder
from .._common import as_int, content_text, decode_arguments
from ._detect import RESPONSES
from ._run import _dict, _Run, _str

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


class _ResponsesRun(_Run):
    """A parse of an ``openai-responses`` list."""

    fmt = RESPONSES

    def __init__(self, b: TranscriptBuilder) -> None:
        super().__init__(b)
        self.item_keys: dict[str, str] = {}  # Responses item id -> call key (local_shell_call_output)

    def read(self, line: int, r: dict[str, Any]) -> None:
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
