"""OpenCode parser: ``opencode``, one format in three shapes of the same objects.

OpenCode keeps a session as messages (``msg_…``, with an ``info`` object: role, model, tokens,
cost, finish) made of parts (``prt_…``: ``text``, ``reasoning``, ``tool``, ``step-start``,
``step-finish``, ``file``...). Three shapes carry them:

* ``opencode run --format json`` (JSONL): ``{type, timestamp, sessionID, part}`` events
  (``step_start``, ``tool_use``, ``text``, ``step_finish``, ``reasoning``) and ``error`` events
  (``{type: "error", error: {name, data: {message}}}``, a session failure, not a tool error);
* the server's message list (``GET /session/:id/message``: a JSON array of ``{info, parts[]}``)
  and ``opencode export`` (``{info, messages: [{info, parts[]}]}``);
* the server's event bus (SSE ``/event``) saved as a JSON array or JSONL of ``{type, properties}``:
  ``message.part.updated`` re-sends a part on every change (a tool part ``pending`` → ``running``
  → ``completed``, a text part once per streamed ``delta``), so only the last version of each part
  id is kept; roles and models come from ``message.updated``.

All three go through one collector: parts are kept by part id in the order they were first seen
(last version wins), then turned into steps once the input is consumed. A subagent (the ``task``
tool) runs in a child session: its parts carry another ``sessionID`` and become the subagent's
steps. See ``docs/formats-opencode.md`` for what every model field is filled from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ..model import Usage
from ._common import as_float, as_int, decode_arguments, iso_ms
from ._sniff import OPENCODE_BUS_CORE, opencode_evidence, opencode_is_message, opencode_sniff

__all__ = ["OpenCodeParser", "opencode_evidence"]

#: OpenCode's built-in tools by what they do (MCP tools are ``<server>_<tool>``: ``other``).
_KINDS = {
    "bash": "shell",
    "read": "file_read",
    "write": "file_write",
    "edit": "file_edit",
    "multiedit": "file_edit",
    "patch": "file_edit",
    "apply_patch": "file_edit",
    "glob": "search",
    "grep": "search",
    "list": "search",
    "codesearch": "search",
    "webfetch": "web_fetch",
    "websearch": "web_search",
    "task": "subagent",
    "todowrite": "todo",
    "todoread": "todo",
    "skill": "skill",
    "question": "ask_user",
}
_BUS_CORE = OPENCODE_BUS_CORE
#: Bus events that carry nothing for the model (session bookkeeping, editor and server state).
_BUS_SKIP = frozenset(
    {
        "session.status",
        "session.diff",
        "session.compacted",
        "session.deleted",
        "server.connected",
        "server.heartbeat",
        "file.edited",
        "file.watcher.updated",
        "todo.updated",
        "permission.updated",
        "permission.replied",
        "lsp.updated",
        "lsp.client.diagnostics",
        "installation.updated",
        "storage.write",
        "command.executed",
    }
)
#: Part types that are bookkeeping, not steps (``step-finish`` still gives usage).
_BOOKKEEPING = frozenset({"step-start", "step-finish", "snapshot", "patch", "file", "agent", "subtask", "retry",
                          "compaction"})
#: ``step-finish`` reasons after which the model was going to go on (the run is not over).
_CONTINUES = frozenset({"tool-calls", "tool_calls"})


def _continues(reason: Any) -> bool:
    """A step's finish reason says the model was going to go on (the run is not over)."""
    return isinstance(reason, str) and reason in _CONTINUES


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) and v else None


_is_message = opencode_is_message


class _Part:
    """The last version of one part, and where it was first and last seen."""

    __slots__ = ("first", "last", "part", "session")

    def __init__(self, line: int, part: dict[str, Any], session: str | None) -> None:
        self.first = line
        self.last = line
        self.part = part
        self.session = session


class _Collector:
    """One pass over the records; steps are made at the end, in first-seen order."""

    def __init__(self, b: TranscriptBuilder) -> None:
        self.b = b
        self.parts: dict[str, _Part] = {}
        self.messages: dict[str, dict[str, Any]] = {}
        self.message_lines: dict[str, int] = {}
        #: session id -> its parent session id (None: none known), in first-seen order
        self.sessions: dict[str, str | None] = {}
        self.removed_messages: set[str] = set()
        #: sessions whose own info says they have no parent
        self.top_level: dict[str, None] = {}
        #: part ids of ``task`` tool parts (they name the child sessions they started)
        self.tasks: list[str] = []
        #: the last version of every step-finish part (tokens and cost of one step), by part id
        self.finishes: dict[str, dict[str, Any]] = {}
        #: the session of every step-finish part (usage is kept per agent)
        self.finish_sessions: dict[str, str | None] = {}
        self.finish_lines: dict[str, int] = {}
        #: bookkeeping parts by type, and re-sent parts (counted in ``health.skipped`` at the end)
        self.bookkeeping: Counter[str] = Counter()
        self.resent = 0

    # -- intake -------------------------------------------------------------------------------

    def see_session(self, sid: Any, parent: Any = None) -> None:
        if not isinstance(sid, str) or not sid:
            return
        if sid not in self.sessions or (self.sessions[sid] is None and isinstance(parent, str) and parent):
            self.sessions[sid] = parent if isinstance(parent, str) and parent else None

    def add_part(self, line: int, part: dict[str, Any], session: Any = None) -> Any:
        """Keep *part* (its last version, by id); returns its type."""
        sid = part.get("sessionID") or session
        if not isinstance(sid, str):
            sid = None
        elif sid not in self.sessions:
            self.see_session(sid)
        pid = part.get("id")
        pt = part.get("type")
        if isinstance(pt, str) and pt in _BOOKKEEPING:  # never a step (step-finish: usage, by id)
            if pt == "step-finish":
                key = pid if isinstance(pid, str) else f"#line{line}"
                self.finishes[key] = part
                self.finish_sessions[key] = sid
                self.finish_lines[key] = line
            self.bookkeeping[pt] += 1
            return pt
        if not isinstance(pid, str) or not pid:
            pid = _str(part.get("callID"))
            if pid is None:
                pid = f"#line{line}"
                self.b.note(f"a part without an id (first at line {line}): it cannot be deduplicated")
        known = self.parts.get(pid)
        if known is None:
            self.parts[pid] = _Part(line, part, sid)
            if part.get("tool") == "task":
                self.tasks.append(pid)
        else:
            known.last = line
            known.part = part
            self.resent += 1
        return pt

    def add_message(self, line: int, info: dict[str, Any]) -> None:
        mid = _str(info.get("id"))
        self.see_session(info.get("sessionID"))
        if mid is None:
            self.b.skip("message info without an id")
            return
        if mid in self.messages:
            self.b.skip("re-sent message info (the last version is kept)")
        else:
            self.message_lines[mid] = line
        self.messages[mid] = info

    def error(self, line: int, err: Any, what: str) -> None:
        if isinstance(err, dict):
            data = err.get("data")
            msg = data.get("message") if isinstance(data, dict) else None
            name = _str(err.get("name"))
            text = ": ".join(s for s in (name, msg if isinstance(msg, str) else None) if s)
        else:
            text = err if isinstance(err, str) else ""
        self.b.error(text or what, line)

    # -- the three shapes -----------------------------------------------------------------------

    def run_event(self, line: int, r: dict[str, Any]) -> None:
        b = self.b
        t = r.get("type")
        if t == "error":
            self.see_session(r.get("sessionID"))
            self.error(line, r.get("error"), "the session failed (error event)")
            b.run_ended = True
            return
        part = r.get("part")
        if not isinstance(part, dict):
            b.unknown(str(t) if isinstance(t, str) else "(record without a string type)", r, line=line,
                      record=True)
            return
        if self.add_part(line, part, r.get("sessionID")) == "step-finish":
            b.run_ended = not _continues(part.get("reason"))
        else:
            b.run_ended = False

    def bus_event(self, line: int, t: str, props: dict[str, Any]) -> None:
        b = self.b
        if t == "message.part.updated":
            part = props.get("part")
            if isinstance(part, dict):
                self.add_part(line, part)
                b.run_ended = False
            else:
                b.damaged(line, "message.part.updated without a part object", props)
        elif t == "message.updated":
            info = props.get("info")
            if isinstance(info, dict):
                self.add_message(line, info)
            else:
                b.skip("message.updated without info")
        elif t in ("session.created", "session.updated"):
            info = props.get("info")
            if isinstance(info, dict):
                self.see_session(info.get("id"), info.get("parentID"))
                sid = info.get("id")
                if info.get("parentID") is None and isinstance(sid, str):
                    self.top_level.setdefault(sid)
                    if sid == next(iter(self.top_level)):  # the session info of the first one
                        for k in ("title", "version", "directory", "slug", "projectID"):
                            if isinstance(info.get(k), str):
                                b.metadata[k] = info[k]
            b.skip(t)
        elif t == "session.idle" or (t == "session.status" and _idle(props)):
            sid = _str(props.get("sessionID"))
            if sid is None or self.sessions.get(sid) is None:  # the main session (not a child) is idle
                b.run_ended = True
            b.skip(t)
        elif t == "session.error":
            self.error(line, props.get("error"), "the session failed (session.error)")
            b.run_ended = True
        elif t == "message.part.removed":
            pid = _str(props.get("partID"))
            if pid is not None and self.parts.pop(pid, None) is not None:
                b.skip("part removed by message.part.removed")
            else:
                b.skip("message.part.removed (unknown part)")
        elif t == "message.removed":
            mid = _str(props.get("messageID"))
            if mid is not None:
                self.removed_messages.add(mid)
            b.skip("message.removed")
        elif t in _BUS_SKIP:
            b.skip(t)
        else:
            b.unknown(t, props, line=line)

    def message(self, line: int, m: dict[str, Any], *, locate: bool) -> None:
        b = self.b
        info = m["info"]
        mid = _str(info.get("id"))
        mline = b.line_of(mid, line) if locate else line
        self.add_message(mline, info)
        for part in m["parts"]:
            if not isinstance(part, dict):
                b.damaged(mline, f"a message part that is a JSON {type(part).__name__}, not an object", part)
                continue
            pline = b.line_of(_str(part.get("id")), mline)
            self.add_part(pline, part, info.get("sessionID"))
        if info.get("role") == "assistant" and not self.sessions.get(_str(info.get("sessionID")) or ""):
            time = info.get("time")
            done = isinstance(time, dict) and time.get("completed") is not None
            b.run_ended = done and not _continues(info.get("finish"))
        elif info.get("role") == "user":
            b.run_ended = False

    def export(self, line: int, r: dict[str, Any]) -> None:
        b = self.b
        info = r["info"]
        self.see_session(info.get("id"), info.get("parentID"))
        for k in ("title", "version", "directory", "slug", "projectID"):
            if isinstance(info.get(k), str):
                b.metadata[k] = info[k]
        for m in r["messages"]:
            if isinstance(m, dict) and _is_message(m):
                self.message(line, m, locate=True)
            else:  # its parts (tool parts among them) cannot be read
                b.damaged(line, "an export message without an info object and a parts list", m)

    # -- steps ------------------------------------------------------------------------------------

    def finish(self) -> None:
        b = self.b
        main = next((s for s, parent in self.sessions.items() if parent is None), None)
        if main is None and self.sessions:
            main = next(iter(self.sessions))
        b.session_id = main
        # child sessions: declared, linked to the task call that started them where it says so
        spawned: dict[str, tuple[str, dict[str, Any]]] = {}
        for pid in self.tasks:
            part = self.parts[pid].part if pid in self.parts else {}
            if part.get("type") == "tool":
                state = part.get("state")
                md = state.get("metadata") if isinstance(state, dict) else None
                child = _str(md.get("sessionId")) if isinstance(md, dict) else None
                if child is not None:
                    inp = state.get("input") if isinstance(state, dict) else None
                    spawned[child] = (_str(part.get("callID")) or "", inp if isinstance(inp, dict) else {})
        for sid in self.sessions:
            if sid == main:
                continue
            if sid in self.top_level:
                b.note(f"session {sid} is a top-level session of its own (no parentID), not a child of "
                       f"{main}: its steps are reported as a subagent's")
            call_id, inp = spawned.get(sid, (None, {}))
            b.subagent(sid, parent_call_id=call_id or None, type=_str(inp.get("subagent_type")),
                       description=_str(inp.get("description")))

        final: str | None = None
        removed = self.removed_messages
        messages = self.messages
        for p in self.parts.values():
            part = p.part
            mid = part.get("messageID")
            if removed and isinstance(mid, str) and mid in removed:
                b.skip("part of a removed message")
                continue
            agent = None if p.session is None or p.session == main else p.session
            pt = part.get("type")
            if pt == "text":
                text = part.get("text")
                if not isinstance(text, str) or not text.strip():
                    b.skip("blank text part")
                    continue
                info = messages.get(mid) if isinstance(mid, str) else None
                role = info.get("role") if info is not None else "assistant"
                meta = part.get("synthetic") is True or part.get("ignored") is True
                b.message("user" if role == "user" else "assistant", text, p.last, agent_id=agent, meta=meta)
                if role != "user" and agent is None and not meta:
                    final = text
            elif pt == "reasoning":
                text = part.get("text")
                if isinstance(text, str) and text.strip():
                    b.thinking(text, p.last, agent_id=agent)
                else:
                    b.skip("blank reasoning part")
            elif pt == "tool":
                self.tool(p, agent, spawned)
            else:
                b.unknown(f"part {pt}" if isinstance(pt, str) else "part without type", part, line=p.last)
        b.set_final_response(final)
        self.steps_without_their_calls()
        for pt, n in self.bookkeeping.items():
            b.skip(f"{pt} part", n)
        if self.resent:
            b.skip("re-sent part (the last version is kept)", self.resent)
        self.model_and_errors(main)
        self.usage(main)

    def steps_without_their_calls(self) -> None:
        """A step that finished to run tools (``step-finish`` reason ``tool-calls``) and whose
        message holds no tool part lost its calls (a deleted or unreadable line)."""
        with_tools = {mid for p in self.parts.values()
                      if p.part.get("type") == "tool" and isinstance(mid := p.part.get("messageID"), str)}
        for key, part in self.finishes.items():
            mid = part.get("messageID")
            if part.get("reason") == "tool-calls" and isinstance(mid, str) and mid not in with_tools:
                self.b.damaged(self.finish_lines.get(key, 1), "a step that ended to run tools (step-finish reason "
                               "tool-calls) holds no tool part: its calls are missing")

    def tool(self, p: _Part, agent: str | None, spawned: dict[str, tuple[str, dict[str, Any]]]) -> None:
        b = self.b
        part = p.part
        name = _str(part.get("tool"))
        if name is None:
            b.damaged(p.first, "tool part without a tool name", part)
            return
        cid = _str(part.get("callID")) or _str(part.get("id")) or f"#line{p.first}"
        state = part.get("state")
        if not isinstance(state, dict):
            state = {}
        args, raw_args = decode_arguments(state.get("input"))
        t = state.get("time")
        started = iso_ms(t.get("start")) if isinstance(t, dict) else None
        parent = (spawned[agent][0] or None) if agent is not None and agent in spawned else None
        key = _str(part.get("id")) or cid
        if not b.call(key, id=cid, name=name, kind=_KINDS.get(name, "other"), arguments=args, line=p.first,
                      raw_arguments=raw_args, parent_id=parent, agent_id=agent, started_at=started):
            b.skip("repeated tool part")
            return
        status = state.get("status")
        ended = iso_ms(t.get("end")) if isinstance(t, dict) else None
        if status == "completed":
            out = state.get("output")
            md = state.get("metadata")
            exit_code = as_int(md.get("exit")) if isinstance(md, dict) else None
            b.result(key, text=out if isinstance(out, str) else "", raw=state, exit_code=exit_code,
                     line=p.last, ended_at=ended)
        elif status == "error":
            err = state.get("error")
            text = err if isinstance(err, str) else ""
            declined = "rejected permission" in text
            b.result(key, text=text, raw=state, is_error=True, status="declined" if declined else "failed",
                     line=p.last, ended_at=ended)
        elif status not in ("pending", "running"):
            b.note(f"tool part with an unknown state.status {status!r} (line {p.last}): left unanswered")

    def model_and_errors(self, main: str | None) -> None:
        b = self.b
        models: list[str] = []
        for mid, info in self.messages.items():
            if mid in self.removed_messages:
                continue
            model = _str(info.get("modelID"))
            if model is None and isinstance(info.get("model"), dict):
                model = _str(info["model"].get("modelID"))
            if model is not None and model not in models:
                models.append(model)
                provider = _str(info.get("providerID"))
                if provider is None and isinstance(info.get("model"), dict):
                    provider = _str(info["model"].get("providerID"))
                if provider is not None:
                    b.metadata.setdefault("provider", provider)
            path = info.get("path")
            if isinstance(path, dict) and isinstance(path.get("cwd"), str):
                b.metadata.setdefault("cwd", path["cwd"])
            if info.get("role") == "assistant" and "error" in info:
                where = self.message_lines.get(mid, 1)
                self.error(where, info.get("error"), "the message ended with an error")
        if models:
            b.model = models[0]
            if len(models) > 1:
                b.metadata["models"] = models

    def usage(self, main: str | None) -> None:
        """Usage per session: the main session's is ``usage``, a child session's its subagent's."""
        b = self.b
        by_session: dict[str | None, list[dict[str, Any]]] = {}
        mode = "summed over step-finish parts"
        if self.finishes:
            for key, part in self.finishes.items():
                by_session.setdefault(self.finish_sessions.get(key), []).append(part)
        else:
            for m, info in self.messages.items():
                if info.get("role") == "assistant" and m not in self.removed_messages:
                    sid = info.get("sessionID")
                    by_session.setdefault(sid if isinstance(sid, str) else None, []).append(info)
            mode = "summed over assistant messages"
        for sid, sources in by_session.items():
            u = _sum_usage(sources)
            if u is None:
                continue
            if sid is None or sid == main:
                b.usage = u if not b.usage.recorded else b.usage + u
                b.usage_mode = mode
            else:
                b.subagent(sid, usage=u)


def _sum_usage(sources: list[dict[str, Any]]) -> Usage | None:
    """The tokens and cost of steps (step-finish parts or message infos), or ``None`` if none."""
    sums: list[int | None] = [None] * 5
    cost: float | None = None
    seen = False
    for src in sources:
        tokens = src.get("tokens")
        c = src.get("cost")
        if (amount := as_float(c)) is not None:
            cost = (cost or 0.0) + amount
            seen = True
        if not isinstance(tokens, dict):
            continue
        cache = tokens.get("cache")
        if not isinstance(cache, dict):
            cache = {}
        values = (tokens.get("input"), tokens.get("output"), cache.get("read"), cache.get("write"),
                  tokens.get("reasoning"))
        for i, v in enumerate(values):
            n = v if type(v) is int else as_int(v)
            if n is not None and n >= 0:
                sums[i] = (sums[i] or 0) + n
                seen = True
    return Usage(sums[0], sums[1], sums[2], sums[3], sums[4], cost) if seen else None


def _idle(props: dict[str, Any]) -> bool:
    status = props.get("status")
    return isinstance(status, dict) and status.get("type") == "idle"


class OpenCodeParser:
    """OpenCode: ``run --format json`` events, server message lists / exports, server event streams."""

    name = "opencode"
    agent = "opencode"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        return opencode_sniff(head, shape)

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        c = _Collector(b)
        first_ts: Any = None
        last_ts: Any = None
        for line, r in records:
            t = r.get("type")
            if "part" in r:  # run --format json: the common case first
                if isinstance(t, str):
                    last_ts = r.get("timestamp", last_ts)
                    if first_ts is None:
                        first_ts = last_ts
                    c.run_event(line, r)
                else:
                    b.unknown("(record without a string type)", r, line=line, record=True)
                continue
            props = r.get("properties")
            if isinstance(t, str) and isinstance(props, dict) and "." in t:
                c.bus_event(line, t, props)
            elif _is_message(r):
                c.message(line, r, locate=b.document is not None)
            elif isinstance(r.get("info"), dict) and isinstance(r.get("messages"), list):
                c.export(line, r)
            elif t == "error":
                last_ts = r.get("timestamp", last_ts)
                c.run_event(line, r)
            elif isinstance(r.get("info"), dict) and ("parts" in r or "messages" in r):
                # a session message or export whose parts/messages are not a list: unreadable
                b.damaged(line, "an OpenCode message or export whose parts/messages is not a list", r)
            else:
                b.unknown(t if isinstance(t, str) else "(record without a string type)", r, line=line,
                          record=True)
        c.finish()
        # run --format json events carry millisecond timestamps
        for key, ts in (("started_at", first_ts), ("ended_at", last_ts)):
            if (iso := iso_ms(ts)) is not None:
                b.metadata[key] = iso
