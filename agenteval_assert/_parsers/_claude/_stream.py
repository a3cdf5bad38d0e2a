"""``claude-stream-json``: ``claude -p --output-format stream-json --verbose`` events (JSONL or a JSON
array of them) and the single ``--output-format json`` result object."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from ..._builder import TranscriptBuilder
from ..._reader import Record, Shape
from ...model import Usage
from .._common import tool_kind, types_in
from ._access import (
    _USAGE_KEYS,
    _model_usage,
    _nonempty,
    _num,
    _str,
    _sum_fields,
    _tokens,
    _usage_fields,
    _usage_text,
)
from ._core import _REJECTED, _Claude
from ._detect import _foreign_reason, _is_session_record, _is_stream_record, _records, _seen

__all__ = ["ClaudeStreamJsonParser"]

_INIT_KEYS = (
    "cwd",
    "tools",
    "mcp_servers",
    "permissionMode",
    "apiKeySource",
    "claude_code_version",
    "output_style",
    "agents",
    "skills",
    "slash_commands",
    "plugins",
)
_STREAM_SKIP_SYSTEM = frozenset(
    {
        "hook_started",
        "hook_response",
        "hook_progress",
        "thinking_tokens",
        "task_progress",
        "task_updated",
        "task_notification",
        "status",
        "compact_boundary",
        "api_retry",
        "informational",
        "local_command_output",
    }
)

#: ``dict.get``'s answer for a key that is absent (``None`` may be a value)
_ABSENT: Any = object()

#: What an MCP server's name loses in its tools' names (``plugin:a:b`` -> ``plugin_a_b``).
_SANITIZE = re.compile(r"[^A-Za-z0-9_-]")


class ClaudeStreamJsonParser:
    """``claude -p --output-format stream-json`` (JSONL or JSON array) and ``--output-format json``."""

    name = "claude-stream-json"
    agent = "claude-code"
    #: what a tool does, from its name (variants of the stream with other tool names override it)
    kind_of = staticmethod(tool_kind)

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        types = types_in(head)
        why = _foreign_reason(head, types)
        if why:
            return why
        for _, r in head:
            if _is_session_record(r):
                return "looks like a Claude session log (camel-case envelope or session-only record types)"
        for _, r in head:
            if _is_stream_record(r):
                return None
        if shape == "json-object":
            return "a single JSON object that is not a Claude `result` record"
        return (
            f"no Claude stream-json event (system/init, result, or user/assistant with a `message` "
            f"object) in the first {_records(len(head))}; {_seen(types)}"
        )

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        st = _Claude(b, session=False, kind_of=self.kind_of)
        names = st._names  # cleared in place when the servers grow (st.servers_changed)
        result_usage: list[list[int | None]] = []
        cost: float | None = None
        result_text: str | None = None
        result_failed = False
        results = 0
        model_usage: Any = None
        for line, rec in records:
            t = rec.get("type")
            if t == "assistant" or t == "user":
                msg = rec.get("message")
                if not isinstance(msg, dict):
                    b.damaged(line, f"{t} record without a message object", msg)
                    continue
                b.run_ended = False  # a step: the end record, if any, must come after it
                if (len(rec) == 4 and type(rec) is dict and "session_id" in rec
                        and (ptid := rec.get("parent_tool_use_id", _ABSENT)) is not _ABSENT):
                    # the common line holds these four keys and no other: no timestamp, no API
                    # error or request id, no tool_use_result (not looked up one by one)
                    bare = True
                    ts = None
                    if ptid is None:
                        # the main agent's, most lines: what st.assistant and st.tool_result do
                        # with a line of one call, one text or one result, inline
                        # (tests/test_claude_speed_paths.py: the same transcript as st.assistant's)
                        if b.session_id is None:
                            b.session_id = _nonempty(rec.get("session_id"))
                        content = msg.get("content")
                        if t == "assistant":
                            model = msg.get("model")
                            if model == st._last_model:  # never "<synthetic>"
                                synthetic = False
                            else:
                                synthetic = model == "<synthetic>"
                                if not synthetic:
                                    st._last_model = model
                                    st.see_model(model)
                            mid = msg.get("id")
                            if not isinstance(mid, str) or not mid:
                                mid = None
                            if not synthetic and (usage := msg.get("usage", _ABSENT)) is not _ABSENT:
                                key = f"{mid}:" if mid else f"#line{line}"
                                if key != st._last_usage_key or usage != st._last_usage:
                                    st.new_usage(key, usage, None)
                            st.pending_command = None
                            if type(content) is list and len(content) == 1 and type(block := content[0]) is dict:
                                bt = block.get("type")
                                if bt == "tool_use":
                                    name = block.get("name")
                                    known = names.get(name) if type(name) is str else None
                                    cid = block.get("id")
                                    arguments = block.get("input")
                                    if known is None or type(cid) is not str or not cid or type(arguments) is not dict:
                                        st.call(line, 0, block, None, None, None)
                                    else:
                                        name, kind, server, tool = known
                                        if not b._call(cid, cid, name, kind, arguments, line, None, server, tool,
                                                       None, None, None):
                                            b.skip("repeated tool_use (same id)")
                                        elif kind == "subagent":
                                            st.delegated = True
                                            st.spawn_inputs[cid] = arguments
                                    continue
                                if bt == "text" and not synthetic:
                                    text = block.get("text")
                                    if type(text) is str and text and not text.isspace():
                                        b.message("assistant", text, line)
                                        st._final_text(mid or f"#line{line}", text)
                                        continue
                            st.blocks(line, rec, content, None, None, None, False, synthetic, mid)
                            continue
                        if (type(content) is list and len(content) == 1 and type(block := content[0]) is dict
                                and block.get("type") == "tool_result"):
                            tid = block.get("tool_use_id")
                            text = block.get("content")
                            if type(tid) is str and tid and type(text) is str:
                                is_error = block.get("is_error") is True
                                info = b._result(tid, text, line, None, is_error, None,
                                                 "declined" if text.startswith(_REJECTED) else None,
                                                 None) or b.call_info(tid)
                                if info is not None and info.kind == "subagent":
                                    st.subagent_result(tid, text, None, is_error)
                            else:
                                st.tool_result(line, block, None, None)
                            continue
                        st.user(line, msg, agent_id=None, ts=None, payload=None, meta=False, from_tool=False)
                        continue
                else:
                    bare = False
                    ts = rec.get("timestamp")  # st.timestamp, inline
                    if isinstance(ts, str) and ts:
                        if st.first_ts is None:
                            st.first_ts = ts
                        st.last_ts = ts
                    else:
                        ts = None
                    ptid = rec.get("parent_tool_use_id")
                if b.session_id is None:
                    b.session_id = _nonempty(rec.get("session_id"))
                if ptid is None:
                    pass
                elif not isinstance(ptid, str) or not ptid:
                    ptid = None
                else:
                    st.declare_subagent(ptid, ptid)
                    if t == "user":  # 2.1.2xx subagent prompt records name the subagent
                        b.subagent(
                            ptid,
                            type=_nonempty(rec.get("subagent_type")),
                            description=_nonempty(rec.get("task_description")),
                        )
                if t == "assistant":
                    st.assistant(line, rec, msg, ptid, ptid, ts, True, bare)
                elif type(content := msg.get("content")) is list and len(content) == 1 and type(
                        block := content[0]) is dict and block.get("type") == "tool_result":
                    # the common user line: one tool result (what st.user does with it, without
                    # reading what only a text needs)
                    st.tool_result(line, block, None if bare else rec.get("tool_use_result"), ts)
                else:
                    meta = rec.get("isReplay") is True or rec.get("isSynthetic") is True or rec.get("isMeta") is True
                    st.user(line, msg, agent_id=ptid, ts=ts, payload=rec.get("tool_use_result"), meta=meta,
                            from_tool=rec.get("sourceToolUseID") is not None
                            or rec.get("source_tool_use_id") is not None)
            elif t == "system":
                self._system(line, rec, st)
            elif t == "result":
                b.run_ended = True
                results += 1
                st.timestamp(rec)
                if b.session_id is None:
                    b.session_id = _nonempty(rec.get("session_id"))
                failed = self._result(line, rec, b)
                result_failed = failed
                r = rec.get("result")
                result_text = r if isinstance(r, str) and r.strip() else None
                for k in ("total_cost_usd", "cost_usd", "total_cost"):
                    c = _num(rec.get(k))
                    if c is not None:
                        cost = c  # cumulative in multi-turn streams: the last one wins
                        break
                fields = _usage_fields(rec.get("usage"))
                if fields is not None:
                    result_usage.append(fields)
                    if None in fields:
                        b.unusable_usage(rec.get("usage"), _USAGE_KEYS, line)
                if isinstance(rec.get("modelUsage"), dict):
                    model_usage = rec["modelUsage"]  # cumulative for the session: the last one
            elif t in ("stream_event", "rate_limit_event", "keep_alive"):
                b.skip(t)
            elif t == "conversation_reset":
                b.skip(t)
                b.note("the stream contains a conversation_reset: totals restart after it")
            elif isinstance(t, str):
                b.unknown(t, rec, line=line, record=True)
            else:
                b.unknown("(record without a string type)", rec, line=line, record=True)
        if results:
            b.metadata["result_records"] = results
        st.finish(None if result_failed else result_text)
        self._usage(st, result_usage, cost, model_usage)

    @staticmethod
    def _usage(
        st: _Claude, result_usage: list[list[int | None]], cost: float | None, model_usage: Any
    ) -> None:
        """``usage`` (the main agent), each subagent's, and the run's total.

        A ``result`` record's ``usage`` counts the main agent's API calls only; its cost and its
        ``modelUsage`` (per model, cumulative for the session) count the subagents too. Subagent
        records (``parent_tool_use_id``) carry their own messages' usage.
        """
        b = st.b
        st.subagent_usage()
        # b.has_subagents(), without its walk over every call: a call of a subagent (with a
        # parent_tool_use_id) comes after its agent is declared, so the calls can only add one
        # that spawns a subagent (st.delegated)
        has_subagents = bool(b._subagents) or st.delegated
        # the stated cost covers every agent: it is the main agent's only when there is no other
        main_cost = None if has_subagents else cost
        if result_usage:
            main: Usage | None = _sum_fields(result_usage, main_cost)
            b.usage_mode = "from result records (per turn, summed)"
        else:
            main = st.agent_usage(None, main_cost)
            if main is not None and st.usage.get(None):
                b.usage_mode = "deduplicated per message.id"
        if main is not None:
            b.usage = main
        # what the records of every agent add up to (tokens: the main agent's has no cost here)
        counted = b.usage
        for agent_id in st.usage:
            if agent_id is not None:
                counted = counted + (st.agent_usage(agent_id) or Usage())
        stated = _model_usage(model_usage)
        if stated is not None:
            total, model_cost = stated
            run_cost = cost if cost is not None else model_cost
            b.usage_total = attrs.evolve(total, cost_usd=run_cost)
            b.usage_total_complete = True
            if _tokens(counted) != _tokens(total):
                b.note(f"usage: the result's modelUsage ({_usage_text(total)}) differs from what the "
                       f"agents' records add up to ({_usage_text(counted)}); usage_total follows modelUsage")
            if cost is not None and model_cost is not None and abs(cost - model_cost) > 1e-6:
                b.note(f"usage: the result's total_cost_usd ({cost:g}) differs from the sum of its "
                       f"modelUsage costUSD ({model_cost:g}); usage_total follows total_cost_usd")
        elif has_subagents and cost is not None:
            # no per-model totals: the tokens add up per agent, the cost is the stated one
            b.usage_total = attrs.evolve(counted, cost_usd=cost)

    @staticmethod
    def _system(line: int, rec: dict[str, Any], st: _Claude) -> None:
        b = st.b
        sub = rec.get("subtype")
        st.timestamp(rec)
        if b.session_id is None:
            b.session_id = _nonempty(rec.get("session_id"))
        if sub == "init":
            b.run_ended = False  # a run started: its end record must follow
            sid = _nonempty(rec.get("session_id"))
            if sid is not None:
                b.session_id = sid
            model = _nonempty(rec.get("model"))
            if model is not None and b.model is None:
                b.model = model
            st.see_model(model)
            for k in _INIT_KEYS:
                if k in rec and k not in b.metadata:
                    b.metadata[k] = rec[k]
            if "version" not in b.metadata and isinstance(rec.get("claude_code_version"), str):
                b.metadata["version"] = rec["claude_code_version"]
            servers = rec.get("mcp_servers")
            if isinstance(servers, list):
                for s in servers:
                    n = s.get("name") if isinstance(s, dict) else s
                    if isinstance(n, str) and n:
                        # tool names carry the server name sanitised (``plugin:a:b`` -> ``plugin_a_b``)
                        for variant in (n, _SANITIZE.sub("_", n)):
                            if variant not in st.servers:
                                st.servers.append(variant)
                                st.servers_changed()
            b.metadata["init_records"] = b.metadata.get("init_records", 0) + 1
        elif sub == "task_started":
            tid = _nonempty(rec.get("tool_use_id"))
            if tid is None:
                b.skip("system/task_started without tool_use_id")
                return
            b.subagent(
                tid,
                parent_call_id=tid,
                type=_nonempty(rec.get("subagent_type")),
                description=_nonempty(rec.get("description")),
            )
            task_id = _nonempty(rec.get("task_id"))
            if task_id is not None:
                b.metadata.setdefault("subagent_task_ids", {})[tid] = task_id
        elif isinstance(sub, str) and sub in _STREAM_SKIP_SYSTEM:
            b.skip(f"system/{sub}")
            if sub == "compact_boundary":
                b.note("the conversation was compacted (system/compact_boundary)")
        elif isinstance(sub, str):
            b.unknown(f"system/{sub}", rec, line=line)
        else:
            b.unknown("system (no subtype)", rec, line=line)

    @staticmethod
    def _result(line: int, rec: dict[str, Any], b: TranscriptBuilder) -> bool:
        """Record the run outcome; returns whether the run failed."""
        subtype = _str(rec.get("subtype"))
        is_error = rec.get("is_error") is True
        md = b.metadata
        md["result_subtype"] = subtype
        md["is_error"] = is_error
        for src, dst in (
            ("terminal_reason", "terminal_reason"),
            ("stop_reason", "stop_reason"),
            ("num_turns", "num_turns"),
            ("duration_ms", "duration_ms"),
            ("duration_api_ms", "duration_api_ms"),
            ("api_error_status", "api_error_status"),
            ("permission_denials", "permission_denials"),
            ("modelUsage", "model_usage"),
        ):
            if src in rec:
                md[dst] = rec[src]
        failed = is_error or (subtype is not None and subtype.startswith("error"))
        if failed:
            facts = [f"subtype {subtype}" if subtype else "no subtype"]
            if isinstance(rec.get("terminal_reason"), str):
                facts.append(f"terminal_reason {rec['terminal_reason']}")
            if rec.get("api_error_status") is not None:
                facts.append(f"API status {rec['api_error_status']}")
            detail = ""
            errors = rec.get("errors")
            if isinstance(errors, list) and errors:
                detail = "; ".join(e if isinstance(e, str) else json.dumps(e)[:200] for e in errors[:5])
            elif isinstance(rec.get("error"), str):  # Amp error results
                detail = rec["error"][:300]
            elif isinstance(rec.get("result"), str):
                detail = rec["result"][:300]
            msg = f"the run ended with an error ({', '.join(facts)})"
            # the API error line just before (if any) reported this same failure: one error
            b.error(f"{msg}: {detail}" if detail else msg, line, same_as_last=True)
        return failed
