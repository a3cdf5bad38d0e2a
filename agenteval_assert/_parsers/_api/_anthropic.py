"""Anthropic Messages: ``tool_use`` blocks answered by ``tool_result`` blocks.

Server and MCP tools (``server_tool_use``, ``mcp_tool_use``) and their ``*_tool_result`` blocks,
thinking, citations; an API response appended to the list (``type: message``) adds its usage and
stop reason. Imports ``_run`` and ``_parsers._common``.
"""

from __future__ import annotations

from typing import Any

from ...model import Role
from .._common import as_int, content_text, decode_arguments
from ._detect import ANTHROPIC
from ._run import _CUT, _dict, _json_type, _Run, _str, _usage


class _AnthropicRun(_Run):
    """A parse of an ``anthropic-messages`` list."""

    fmt = ANTHROPIC

    def read(self, line: int, m: dict[str, Any]) -> None:
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
