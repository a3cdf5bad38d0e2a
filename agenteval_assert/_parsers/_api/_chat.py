"""OpenAI Chat Completions messages: ``tool_calls`` answered by ``tool`` messages.

The legacy ``function_call`` is answered by a later ``function`` message of its name. Tool
messages have no error flag: their calls' outcome is unrecorded. Imports ``_run`` and
``_parsers._common``.
"""

from __future__ import annotations

from typing import Any

from ..._builder import TranscriptBuilder
from .._common import content_text, decode_arguments
from ._detect import CHAT
from ._run import _json_type, _Run, _str


class _ChatRun(_Run):
    """A parse of an ``openai-chat`` list."""

    fmt = CHAT

    def __init__(self, b: TranscriptBuilder) -> None:
        super().__init__(b)
        self.legacy: list[str] = []  # chat ``function_call`` keys waiting for a ``function`` message

    def read(self, line: int, m: dict[str, Any]) -> None:
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
