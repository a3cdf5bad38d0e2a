"""The parsed transcript of ``@vercel/agent-eval``: ``agent-eval-transcript``.

The harness behind Storybook's agent-eval turns an agent's raw log into one JSON document
(``loadTranscript``): ``{"agent", "model"?, "events": [...], "summary": {...}, "parseSuccess"?}``.
Each event is ``{"type": "message" | "tool_call" | "tool_result" | "thinking" | "error",
"role"?, "content"?, "timestamp"?, "tool"?: {"name", "originalName", "args"?, "result"?,
"success"?, "durationMs"?}, "raw"?}``, where ``tool.name`` is one of the harness's canonical names
(``file_read``, ``file_write``, ``file_edit``, ``shell``, ``web_fetch``, ``web_search``, ``glob``,
``grep``, ``list_dir``, ``agent_task``, ``unknown``) and ``originalName`` the agent's own.

**Detection**: one JSON object with a string ``agent``, an ``events`` list and a ``summary``
object (and, when present, a boolean ``parseSuccess``): the test the harness itself applies
before using such a document as is.

Quirks: a ``tool_call`` event carries no call id, and the ``tool_result`` of a Claude Code run
names the call's ``tool_use_id`` in ``originalName``, so a result answers the earliest call not
answered yet (first in, first out): the only pairing the document allows. A result's
``success: false`` is an error; a Codex result is ``{"output", "exitCode"}``. The ``summary``
(turn and call counts, ``filesRead``, ``shellCommands``...) is derived from the events and kept in
``metadata["summary"]``; ``parseSuccess: false`` is a health note.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ._common import as_dict, as_int, content_text, tool_kind
from ._jsondoc import DocumentLines

__all__ = ["AgentEvalTranscriptParser"]

#: The harness's canonical tool names, as our kinds.
_KINDS = {
    "file_read": "file_read",
    "file_write": "file_write",
    "file_edit": "file_edit",
    "shell": "shell",
    "web_fetch": "web_fetch",
    "web_search": "web_search",
    "glob": "search",
    "grep": "search",
    "list_dir": "search",
    "agent_task": "subagent",
}
#: ``loadTranscript`` picks its parser by the first of these that is a substring of ``agent``.
_FAMILIES = (("claude-code", "claude-code"), ("codex", "codex"), ("opencode", "opencode"),
             ("gemini", "gemini-cli"), ("cursor", "cursor-cli"))


def _family(agent: str) -> str:
    for key, name in _FAMILIES:
        if key in agent:
            return name
    return agent


def is_agent_eval_transcript(doc: Any) -> bool:
    """The harness's own test: ``agent`` string, ``events`` list, ``summary`` object, and a boolean
    ``parseSuccess`` where there is one."""
    return (isinstance(doc, dict) and isinstance(doc.get("agent"), str) and isinstance(doc.get("events"), list)
            and isinstance(doc.get("summary"), dict)
            and ("parseSuccess" not in doc or isinstance(doc["parseSuccess"], bool)))


def _result_text(result: Any) -> tuple[str, int | None]:
    """The text of a ``tool.result`` and the exit code it reports (Codex ``{output, exitCode}``)."""
    if isinstance(result, str):
        return result, None
    if isinstance(result, dict) and ("output" in result or "exitCode" in result):
        out = result.get("output")
        return (out if isinstance(out, str) else content_text(out) if out is not None else ""), as_int(
            result.get("exitCode"))
    if result is None:
        return "", None
    text = content_text(result)
    if text or not isinstance(result, (dict, list)):
        return text, None
    return json.dumps(result, ensure_ascii=False), None


class AgentEvalTranscriptParser:
    """``@vercel/agent-eval`` parsed transcripts (``loadTranscript`` output)."""

    name = "agent-eval-transcript"
    agent = "agent-eval"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        if shape != "json-object" or len(head) != 1:
            return "not one JSON object"
        if not is_agent_eval_transcript(head[0][1]):
            return "not an agent-eval parsed transcript (agent string, events list, summary object)"
        return None

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        for base, doc in records:
            if not is_agent_eval_transcript(doc):
                b.unknown("record that is not a parsed transcript")
                continue
            self._document(doc, b, base)

    def _document(self, doc: dict[str, Any], b: TranscriptBuilder, base: int) -> None:
        agent = doc["agent"]
        b.agent = _family(agent)
        b.metadata["agent"] = agent
        if isinstance(doc.get("model"), str):
            b.model = doc["model"]
        b.metadata["summary"] = doc["summary"]
        if doc.get("parseSuccess") is False:
            b.note("the document says parseSuccess: false (the harness could not parse the agent's log)")
        events = doc["events"]
        lines = [base] * len(events)
        if b.document is not None and base == 1:
            found = [DocumentLines(b.document).line(o) for o in DocumentLines(b.document).items(["events"])]
            if len(found) == len(events):
                lines = found
        pending: deque[str] = deque()
        n = 0
        for ev, line in zip(events, lines, strict=True):
            if not isinstance(ev, dict):
                b.skip("event that is not an object")
                continue
            kind = ev.get("type")
            content = ev.get("content")
            text = content if isinstance(content, str) else content_text(content)
            ts = ev.get("timestamp") if isinstance(ev.get("timestamp"), str) else None
            tool = as_dict(ev.get("tool"))
            if kind == "message":
                role = ev.get("role")
                if role in ("user", "assistant"):
                    b.message(role, text, line)
                elif role == "system":
                    b.message("system", text, line, meta=True)
                else:
                    b.unknown(f"message role {role}")
            elif kind == "thinking":
                b.thinking(text, line)
            elif kind == "error":
                b.message("system", text, line, meta=True)
                b.error(text or "error event", line)
            elif kind == "tool_call":
                original = tool.get("originalName")
                canonical = tool.get("name")
                name = original if isinstance(original, str) and original else (
                    canonical if isinstance(canonical, str) else "unknown")
                n += 1
                key = f"call-{n}"
                args = tool.get("args")
                kind_ = _KINDS.get(canonical) if isinstance(canonical, str) else None
                b.call(key, id=key, name=name, kind=kind_ or tool_kind(name),
                       arguments=dict(args) if isinstance(args, dict) else {}, line=line, started_at=ts)
                if "result" in tool or isinstance(tool.get("success"), bool):
                    self._result(b, key, tool, line)
                else:
                    pending.append(key)
            elif kind == "tool_result":
                if not pending:
                    b.orphan_results.append(str(tool.get("originalName", "?")))
                    continue
                self._result(b, pending.popleft(), tool, line)
            else:
                b.unknown(f"event type {kind}")
        if any(isinstance(e, dict) and e.get("type") == "tool_result" for e in events):
            b.note("tool results are paired with calls in order (the document gives calls no id)")

    @staticmethod
    def _result(b: TranscriptBuilder, key: str, tool: dict[str, Any], line: int) -> None:
        text, code = _result_text(tool.get("result"))
        failed = tool.get("success") is False
        b.result(key, text=text, raw=tool.get("result"), is_error=failed, exit_code=code, line=line)
