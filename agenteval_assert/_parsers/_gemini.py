"""Gemini CLI parsers: ``gemini-session`` (chat files) and ``gemini-stream-json``.

* ``gemini-session``: ``~/.gemini/tmp/<projectHash>/chats/session-*.json`` (legacy: one JSON
  ``ConversationRecord`` object) and the current ``.jsonl`` form (a metadata line, then message
  records, ``{"$set": {...}}`` metadata updates and ``{"$rewindTo": "<id>"}`` rewinds, which are
  applied: a rewind drops every message after the one named).
* ``gemini-stream-json``: ``gemini -p … --output-format stream-json`` events (``init``,
  ``message`` with streamed ``delta`` chunks, ``tool_use``, ``tool_result``, ``error``, ``result``).
  No real capture of this format was available; it follows the CLI's own type definitions.

Exit codes: ``run_shell_command`` results carry ``Exit Code: N`` only inside their output text,
so ``exit_code`` stays ``None`` and errors come from the call's ``status`` (``error``). A
``cancelled`` call is ``interrupted``, not an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ..model import Usage
from ._common import as_int, content_text, decode_arguments, tool_kind

__all__ = ["GeminiSessionParser", "GeminiStreamJsonParser"]

_GEMINI_KINDS = {
    "run_shell_command": "shell",
    "read_file": "file_read",
    "read_many_files": "file_read",
    "write_file": "file_write",
    "replace": "file_edit",
    "edit": "file_edit",
    "list_directory": "search",
    "glob": "search",
    "search_file_content": "search",
    "grep": "search",
    "google_web_search": "web_search",
    "web_fetch": "web_fetch",
    "save_memory": "other",
    "write_todos": "todo",
}
_STATUS = {"success": "completed", "error": "failed", "cancelled": "interrupted"}


def _kind(name: str) -> str:
    return _GEMINI_KINDS.get(name) or tool_kind(name)


def _result_text(result: Any, display: Any) -> str:
    """Text of ``functionResponse`` parts (``response.output`` / ``response.error``)."""
    parts: list[str] = []
    if isinstance(result, list):
        for part in result:
            if not isinstance(part, dict):
                continue
            fr = part.get("functionResponse")
            resp = fr.get("response") if isinstance(fr, dict) else None
            if isinstance(resp, dict):
                for key in ("output", "error", "content"):
                    v = resp.get(key)
                    if isinstance(v, str):
                        parts.append(v)
                        break
                    if v is not None:
                        parts.append(content_text(v))
                        break
            elif isinstance(part.get("text"), str):
                parts.append(part["text"])
    elif isinstance(result, str):
        parts.append(result)
    if not parts and isinstance(display, str):
        parts.append(display)
    return "\n".join(parts)


def _is_session_meta(r: dict[str, Any]) -> bool:
    return "sessionId" in r and "projectHash" in r


def _stream_usage(stats: dict[str, Any]) -> tuple[Usage, str]:
    """The ``stats`` of a stream-json ``result`` in our terms.

    ``input_tokens`` is the prompt (the cached tokens included: they are subtracted) and
    ``output_tokens`` the candidates, without the thoughts; ``total_tokens`` counts the thoughts
    (and the prompt of tool use, which the stats do not list apart). What ``total_tokens``
    holds beyond input and output is counted as reasoning, inside ``output_tokens``.
    """
    inp = as_int(stats.get("input_tokens"))
    cached = as_int(stats.get("cached"))
    out = as_int(stats.get("output_tokens"))
    total = as_int(stats.get("total_tokens"))
    reasoning = None
    mode = "reported by the result event"
    if total is not None and inp is not None and out is not None and total > inp + out:
        reasoning = total - inp - out
        out += reasoning
        mode += " (total_tokens - input - output counted as reasoning, in the output)"
    return Usage(
        input_tokens=None if inp is None else max(inp - (cached or 0), 0),
        output_tokens=out,
        cache_read_tokens=cached,
        reasoning_tokens=reasoning,
    ), mode


class GeminiSessionParser:
    """Gemini CLI chat session files (legacy ``.json`` and current ``.jsonl``)."""

    name = "gemini-session"
    agent = "gemini-cli"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        if not head:
            return "no records"
        first = head[0][1]
        if not _is_session_meta(first):
            return "the first record has no sessionId + projectHash (a Gemini ConversationRecord)"
        if shape == "json-object" and not isinstance(first.get("messages"), list):
            return "a ConversationRecord without a messages list"
        return None

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        messages: list[tuple[int, dict[str, Any]]] = []
        for line, rec in records:
            if _is_session_meta(rec):
                self._meta(rec, b)
                msgs = rec.get("messages")
                if isinstance(msgs, list):  # legacy single document
                    for m in msgs:
                        if isinstance(m, dict):
                            messages.append((-line, m))  # located later, in order
                        else:
                            b.skip("message that is not an object")
                continue
            if "$set" in rec:
                if isinstance(rec["$set"], dict):
                    self._meta(rec["$set"], b)
                b.skip("$set metadata updates")
                continue
            if "$rewindTo" in rec:
                target = rec["$rewindTo"]
                for i, (_, m) in enumerate(messages):
                    if m.get("id") == target:
                        dropped = len(messages) - i - 1
                        del messages[i + 1 :]
                        if dropped:
                            b.skip("messages removed by $rewindTo", dropped)
                        break
                else:
                    b.note(f"$rewindTo {target!r} names no earlier message; ignored")
                continue
            if isinstance(rec.get("type"), str):
                messages.append((line, rec))
            else:
                b.unknown("record without type", rec, line=line, record=True)
        usage = [0, 0, 0, 0, 0]
        seen_usage = False
        for line, m in messages:
            # A legacy document gives every message line 1: find where each really starts
            # (messages, then their calls, in document order, so the search only moves forward).
            self._message(b.line_of(m.get("id"), -line) if line < 0 else line, m, b)
            tokens = m.get("tokens")
            if isinstance(tokens, dict):
                seen_usage = True
                b.unusable_usage(tokens, ("input", "output", "cached", "thoughts", "tool"))
                for i, key in enumerate(("input", "output", "cached", "thoughts", "tool")):
                    usage[i] += as_int(tokens.get(key)) or 0
        if seen_usage:
            # Gemini's ``input`` includes the cached tokens (as OpenAI's does); ours excludes them.
            # Its ``output`` leaves the thoughts out (``total`` = input + output + thoughts +
            # tool): ours holds every generated token, reasoning included, and ``tool`` (the
            # prompt of tool use) is input.
            b.usage = Usage(
                input_tokens=max(usage[0] - usage[2], 0) + usage[4],
                output_tokens=usage[1] + usage[3],
                cache_read_tokens=usage[2],
                reasoning_tokens=usage[3],
            )
            b.usage_mode = "summed per message (thoughts counted in the output)"

    @staticmethod
    def _meta(rec: dict[str, Any], b: TranscriptBuilder) -> None:
        for key in ("sessionId", "projectHash", "startTime", "lastUpdated", "kind", "summary"):
            v = rec.get(key)
            if isinstance(v, str):
                b.metadata[key] = v
        if isinstance(rec.get("sessionId"), str) and b.session_id is None:
            b.session_id = rec["sessionId"]

    @staticmethod
    def _message(line: int, m: dict[str, Any], b: TranscriptBuilder) -> None:
        kind = m.get("type")
        text = content_text(m.get("content"))
        if kind == "user":
            if text:
                b.message("user", text, line)
            else:
                b.skip("empty user message")
            return
        if kind in ("info", "warning", "error"):
            b.message("system", text, line, meta=True)
            if kind == "error":
                b.error(text, line)
            return
        if kind != "gemini":
            b.unknown(f"message type {kind}", m, line=line)
            return
        model = m.get("model")
        if isinstance(model, str) and model and b.model is None:
            b.model = model
        thoughts = m.get("thoughts")
        if isinstance(thoughts, list):
            for th in thoughts:
                if isinstance(th, dict):
                    subject = th.get("subject")
                    desc = th.get("description")
                    body = "\n".join(s for s in (subject, desc) if isinstance(s, str) and s)
                    if body:
                        b.thinking(body, line)
        if text.strip():
            b.message("assistant", text, line)
        calls = m.get("toolCalls")
        if not isinstance(calls, list):
            if calls is not None:
                b.damaged(line, f"toolCalls is a JSON {type(calls).__name__}, not a list", calls)
            return
        for c in calls:
            if not isinstance(c, dict) or not isinstance(c.get("name"), str):
                b.damaged(line, "a tool call without a string name", c)
                continue
            name = c["name"]
            raw_id = c.get("id")
            cid = raw_id if isinstance(raw_id, str) else f"{name}@{line}"
            args, raw_args = decode_arguments(c.get("args"))
            call_line = b.line_of(cid, line)
            ts = c.get("timestamp") if isinstance(c.get("timestamp"), str) else None
            if not b.call(cid, id=cid, name=name, kind=_kind(name), arguments=args, line=call_line,
                          raw_arguments=raw_args, started_at=ts):
                b.skip("repeated tool call id")
                continue
            status = c.get("status")
            if "result" in c or status in _STATUS:
                b.result(
                    cid,
                    text=_result_text(c.get("result"), c.get("resultDisplay")),
                    raw=c.get("result"),
                    is_error=status == "error",
                    status=_STATUS.get(status) if isinstance(status, str) else None,
                    line=call_line,
                )


class GeminiStreamJsonParser:
    """``gemini -p … --output-format stream-json`` events."""

    name = "gemini-stream-json"
    agent = "gemini-cli"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        for _, r in head:
            if r.get("type") == "init" and "session_id" in r and "model" in r:
                return None
            if r.get("type") == "tool_use" and "tool_name" in r and "tool_id" in r:
                return None
        return "no Gemini init event (type init with session_id and model) nor tool_use with tool_name"

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        pending_text: list[str] = []
        pending_line = 0

        def flush() -> None:
            nonlocal pending_text
            if pending_text:
                text = "".join(pending_text)
                if text.strip():
                    b.message("assistant", text, pending_line)
                pending_text = []

        for line, r in records:
            t = r.get("type")
            if t in ("message", "tool_use", "tool_result"):
                b.run_ended = False
            if t == "message":
                role = r.get("role")
                content = r.get("content")
                text = content if isinstance(content, str) else content_text(content)
                if role == "assistant":
                    if not pending_text:
                        pending_line = line
                    pending_text.append(text)
                    if r.get("delta") is not True:
                        flush()
                elif role == "user":
                    flush()
                    b.message("user", text, line)
                else:
                    b.unknown(f"message role {role}", r, line=line)
                continue
            flush()
            if t == "init":
                b.run_ended = False  # a run started: its result event must follow
                if isinstance(r.get("session_id"), str):
                    b.session_id = r["session_id"]
                if isinstance(r.get("model"), str):
                    b.model = r["model"]
            elif t == "tool_use":
                name = r.get("tool_name")
                tid = r.get("tool_id")
                if not isinstance(name, str) or not isinstance(tid, str):
                    b.skip("tool_use without tool_name/tool_id")
                    continue
                args, raw_args = decode_arguments(r.get("parameters"))
                if not b.call(tid, id=tid, name=name, kind=_kind(name), arguments=args, line=line,
                              raw_arguments=raw_args, started_at=r.get("timestamp") if isinstance(
                                  r.get("timestamp"), str) else None):
                    b.skip("repeated tool_id")
            elif t == "tool_result":
                tid = r.get("tool_id")
                if not isinstance(tid, str):
                    b.skip("tool_result without tool_id")
                    continue
                status = r.get("status")
                err = r.get("error")
                out = r.get("output")
                text = out if isinstance(out, str) else ""
                if not text and isinstance(err, dict) and isinstance(err.get("message"), str):
                    text = err["message"]
                b.result(tid, text=text, raw=r, is_error=status == "error", line=line,
                         status=_STATUS.get(status) if isinstance(status, str) else None)
            elif t == "error":
                msg = r.get("message")
                if isinstance(msg, str):
                    b.message("system", msg, line, meta=True)
                    if r.get("severity") == "error":
                        b.error(msg, line)
            elif t == "result":
                b.run_ended = True
                stats = r.get("stats")
                if isinstance(stats, dict):
                    b.usage, b.usage_mode = _stream_usage(stats)
                    b.unusable_usage(stats, ("input_tokens", "cached", "output_tokens", "total_tokens"), line)
                if r.get("status") == "error":
                    err = r.get("error")
                    msg = err.get("message") if isinstance(err, dict) else None
                    b.error(msg if isinstance(msg, str) else "the run ended with status error", line)
                b.metadata["result_status"] = r.get("status")
            else:
                b.unknown(str(t) if isinstance(t, str) else "record without type", r, line=line, record=True)
        flush()
