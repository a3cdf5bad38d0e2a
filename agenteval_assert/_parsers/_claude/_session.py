"""``claude-session``: Claude Code's session logs (``~/.claude/projects/<proj>/<session>.jsonl`` and
its subagents' ``agent-*.jsonl`` files)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..._builder import TranscriptBuilder
from ..._reader import Record, Shape
from .._common import types_in
from ._access import _nonempty
from ._core import _Claude
from ._detect import _SESSION_SKIP, _foreign_reason, _is_session_record, _records, _seen

__all__ = ["ClaudeSessionParser"]

_ENVELOPE_META = ("cwd", "version", "gitBranch", "slug", "userType", "permissionMode")


class _Session(_Claude):
    def __init__(self, b: TranscriptBuilder) -> None:
        super().__init__(b, session=True)
        #: agent id of the file itself (``agent-<id>.jsonl``): its records are the main agent
        self.file_agent: str | None = None
        self.decided = False
        self.agent_parent: dict[str, str] = {}
        #: keys of calls of subagents whose parent call is not known yet
        self.orphan_calls: dict[str, list[str]] = {}
        self.mirrors: set[str] = set()
        self.versions: list[str] = []
        self.envelopes = 0
        #: the uuids seen so far, whether the file's start was seen, and the broken links found
        self.uuids: set[str] = set()
        self.rooted = False
        self.gaps = 0

    def agent_of(self, rec: dict[str, Any]) -> str | None:
        side = rec.get("isSidechain") is True
        aid = _nonempty(rec.get("agentId"))
        if not self.decided:
            # The first conversation line decides: a file that starts on a sidechain with an
            # agentId is a subagent's own file, and that agent is the file's main agent.
            self.decided = True
            if side and aid is not None:
                self.file_agent = aid
                self.b.metadata["subagent_id"] = aid
                if aid.startswith("acompact"):
                    self.b.metadata["compaction"] = True
        if not side:
            return None
        agent = aid or "sidechain"
        return None if agent == self.file_agent else agent

    def link_agent(self, agent_id: str, parent_call_id: str) -> None:
        if agent_id == self.file_agent:
            return
        self.agent_parent.setdefault(agent_id, parent_call_id)
        self.declare_subagent(agent_id, self.agent_parent[agent_id])
        for key in self.orphan_calls.pop(agent_id, ()):
            info = self.b.call_info(key)
            if info is not None and info.parent_id is None:
                self.b.update_call(key, parent_id=self.agent_parent[agent_id])

    def envelope(self, rec: dict[str, Any]) -> None:
        b = self.b
        if b.session_id is None:
            b.session_id = _nonempty(rec.get("sessionId")) or _nonempty(rec.get("session_id"))
        md = b.metadata
        if self.envelopes < 100:  # the envelope repeats on every line: its first lines suffice
            self.envelopes += 1
            for k in _ENVELOPE_META:
                if k not in md:
                    v = rec.get(k)
                    if isinstance(v, str) and v:
                        md[k] = v
        v = rec.get("version")
        if isinstance(v, str) and v and v not in self.versions:
            self.versions.append(v)

    def chain(self, line: int, rec: dict[str, Any]) -> None:
        """Follow the ``uuid``/``parentUuid`` links: a record whose parent is not in the file,
        once the file has shown its start (a record with ``parentUuid: null``), means a line
        before it is missing. A file that starts mid-conversation (a compaction agent's file,
        whose first records point into the main session) has no start, and is not checked."""
        if "parentUuid" in rec:
            parent = rec["parentUuid"]
            if parent is None:
                self.rooted = True
            elif self.rooted and isinstance(parent, str) and parent not in self.uuids:
                if self.gaps < 50:
                    self.b.damaged(line, f"its parent record ({parent[:40]}) is not in the file: a line "
                                   "before it is missing", None)
                self.gaps += 1
        uid = rec.get("uuid")
        if isinstance(uid, str):
            self.uuids.add(uid)

    def unparented_call(self, agent_id: str, key: str) -> None:
        self.orphan_calls.setdefault(agent_id, []).append(key)

    def progress(self, line: int, rec: dict[str, Any]) -> None:
        b = self.b
        data = rec.get("data")
        dtype = data.get("type") if isinstance(data, dict) else None
        if not isinstance(data, dict) or dtype != "agent_progress":
            b.skip(f"progress/{dtype}" if isinstance(dtype, str) else "progress")
            return
        parent = _nonempty(rec.get("parentToolUseID"))
        agent = _nonempty(data.get("agentId")) or parent
        m = data.get("message")
        if agent is None or not isinstance(m, dict):
            b.skip("progress/agent_progress without agent or message")
            return
        uid = _nonempty(m.get("uuid"))
        if uid is not None:
            if uid in self.mirrors:
                b.skip("progress/agent_progress (repeated mirror)")
                return
            self.mirrors.add(uid)
        inner = m.get("message")
        if not isinstance(inner, dict):
            b.skip("progress/agent_progress without message")
            return
        if agent == self.file_agent:
            agent_id: str | None = None
        else:
            agent_id = agent
            if parent is not None:
                self.link_agent(agent, parent)
        role = m.get("type") or inner.get("role")
        ts = _nonempty(m.get("timestamp")) or _nonempty(rec.get("timestamp"))
        if role == "assistant":
            # a mirror counts for its subagent (never for the main agent, whose lines are there)
            self.assistant(line, m, inner, agent_id=agent_id, parent_id=parent, ts=ts,
                           count_usage=agent_id is not None)
        elif role == "user":
            self.user(line, inner, agent_id=agent_id, ts=ts, payload=m.get("toolUseResult"), meta=True)
        else:
            b.skip("progress/agent_progress of unknown role")

    def system(self, line: int, rec: dict[str, Any], agent_id: str | None) -> None:
        b = self.b
        sub = rec.get("subtype")
        label = f"system/{sub}" if isinstance(sub, str) else "system"
        content = rec.get("content")
        if sub == "compact_boundary":
            b.skip(label)
            b.metadata["compactions"] = b.metadata.get("compactions", 0) + 1
            b.note("the conversation was compacted (system/compact_boundary)")
        elif sub == "api_error" or rec.get("level") == "error":
            text = content if isinstance(content, str) and content else label
            b.error(text, line)
            b.message("system", text, line, agent_id=agent_id, meta=True)
        elif isinstance(content, str) and content.strip():
            b.message("system", content, line, agent_id=agent_id, meta=True)
        else:
            b.skip(label)


class ClaudeSessionParser:
    """Claude Code session logs (``~/.claude/projects/<proj>/<session>.jsonl``, ``agent-*.jsonl``)."""

    name = "claude-session"
    agent = "claude-code"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        types = types_in(head)
        why = _foreign_reason(head, types)
        if why:
            return why
        for _, r in head:
            if _is_session_record(r):
                return None
        return (
            "no Claude session-log record (user/assistant/system with sessionId/parentUuid/"
            "isSidechain, or file-history-snapshot/summary/progress/queue-operation) in the first "
            f"{_records(len(head))}; {_seen(types)}"
        )

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        st = _Session(b)
        for line, rec in records:
            t = rec.get("type")
            st.chain(line, rec)
            if t == "user" or t == "assistant":
                msg = rec.get("message")
                if not isinstance(msg, dict):
                    b.damaged(line, f"{t} record without a message object", msg)
                    continue
                if b.session_id is not None and st.envelopes >= 100:
                    v = rec.get("version")  # what st.envelope still looks at, inline
                    if isinstance(v, str) and v and v not in st.versions:
                        st.versions.append(v)
                else:
                    st.envelope(rec)
                ts = rec.get("timestamp")  # st.timestamp, inline
                if isinstance(ts, str) and ts:
                    if st.first_ts is None:
                        st.first_ts = ts
                    st.last_ts = ts
                else:
                    ts = None
                # st.agent_of: once the file's agent is decided, a line off the sidechain is the main agent's
                agent_id = None if st.decided and rec.get("isSidechain") is not True else st.agent_of(rec)
                if agent_id is not None and agent_id in st.agent_parent:
                    parent: str | None = st.agent_parent[agent_id]
                else:
                    parent = None
                if agent_id is not None:
                    st.declare_subagent(agent_id, parent)
                if t == "assistant":
                    st.assistant(line, rec, msg, agent_id, parent, ts)
                    continue
                summary = rec.get("isCompactSummary") is True
                if summary:
                    b.metadata["compact_summaries"] = b.metadata.get("compact_summaries", 0) + 1
                if type(content := msg.get("content")) is list and len(content) == 1 and type(
                        block := content[0]) is dict and block.get("type") == "tool_result":
                    # the common user line: one tool result (what st.user does with it, without
                    # reading what only a text needs)
                    st.tool_result(line, block, rec.get("toolUseResult"), ts)
                else:
                    meta = summary or rec.get("isMeta") is True
                    st.user(line, msg, agent_id=agent_id, ts=ts, payload=rec.get("toolUseResult"), meta=meta,
                            from_tool=rec.get("sourceToolUseID") is not None)
            elif t == "progress":
                st.timestamp(rec)
                st.progress(line, rec)
            elif t == "system":
                st.envelope(rec)
                st.timestamp(rec)
                st.system(line, rec, st.agent_of(rec) if "isSidechain" in rec else None)
            elif t == "summary":
                b.skip("summary")
                s = rec.get("summary")
                if isinstance(s, str):
                    b.metadata.setdefault("summaries", []).append(s)
            elif isinstance(t, str) and t in _SESSION_SKIP:
                b.skip(t)
            elif isinstance(t, str):
                b.unknown(t, rec, line=line, record=True)
            else:
                b.unknown("(record without a string type)", rec, line=line, record=True)
        main = st.agent_usage(None)
        if main is not None:
            b.usage = main
            b.usage_mode = "deduplicated per message.id"
        st.subagent_usage()
        if len(st.versions) > 1:
            b.metadata["versions"] = list(st.versions)
        st.finish(None)
