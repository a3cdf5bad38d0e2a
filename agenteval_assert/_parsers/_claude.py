"""Claude Code parsers: ``claude-stream-json`` and ``claude-session``.

Both formats carry the same Anthropic Messages API objects (``message`` with content blocks
``text``/``thinking``/``tool_use``/``tool_result``) inside different envelopes:

* ``claude-stream-json``: ``claude -p --output-format stream-json --verbose`` events (JSONL or a
  JSON array of them) and the single ``--output-format json`` result object. Envelope fields are
  snake case (``session_id``, ``parent_tool_use_id``); ``system/init`` and ``result`` records.
* ``claude-session``: ``~/.claude/projects/<proj>/<session>.jsonl`` and its
  ``<session>/subagents/agent-*.jsonl`` files. Envelope fields are camel case (``sessionId``,
  ``parentUuid``, ``isSidechain``), plus bookkeeping records (``progress``, ``summary``...).

Lines reduced to ``{"type": "assistant"|"user", "message": {...}}`` (the Storybook
``transcript.txt`` shape) are claimed by ``claude-stream-json``; both parsers accept them.

Every record is handled with plain ``dict`` look-ups (no validation model per line: the reader
already paid for ``json.loads``, and pydantic per record would cost more than the parse itself).
Every look-up checks the type it gets, so that any JSON object is accepted: what does not fit is
counted in ``Health`` (``skipped``/``unknown_types``), never raised.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ..model import Usage
from ._common import (
    CODEX_EXEC_TYPES,
    CODEX_ROLLOUT_TYPES,
    as_float,
    content_text,
    decode_arguments,
    split_mcp_name,
    tool_kind,
    types_in,
)
from ._cursor import cursor_evidence

__all__ = ["ClaudeSessionParser", "ClaudeStreamJsonParser", "amp_evidence", "find_subagent_files"]

# -- detection ---------------------------------------------------------------------------------

_CODEX_TYPES = CODEX_EXEC_TYPES | CODEX_ROLLOUT_TYPES

#: Envelope keys of session-log conversation lines (camel case; stream-json uses ``session_id``).
_SESSION_ENVELOPE = ("sessionId", "parentUuid", "isSidechain", "userType")
_CONVERSATION_TYPES = frozenset({"user", "assistant", "system"})
_RESULT_KEYS = ("subtype", "is_error", "total_cost_usd", "cost_usd", "total_cost", "num_turns")


#: Top-level types of Gemini CLI stream-json (Claude has them only as content blocks).
_GEMINI_TYPES = frozenset({"init", "tool_use", "tool_result"})

#: An Amp thread id (``T-`` and a UUID), which Amp writes as the ``session_id`` of its events.
_AMP_THREAD = re.compile(r"T-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z")


def amp_evidence(head: Sequence[Record]) -> str | None:
    """What in *head* marks an Amp ``--stream-json`` file: a stream-json event (``system``,
    ``assistant``, ``user``, ``result``) whose ``session_id`` is an Amp thread id.

    Amp writes Claude Code's stream-json events; Claude's session ids are bare UUIDs.
    """
    for _, r in head:
        sid = r.get("session_id")
        if (
            isinstance(sid, str)
            and r.get("type") in ("system", "assistant", "user", "result")
            and _AMP_THREAD.match(sid)
        ):
            return f"a session_id that is an Amp thread id ({sid[:10]}…)"
    return None


def _foreign_reason(head: Sequence[Record], types: set[str]) -> str | None:
    """Why the head belongs to another agent's format, if it does."""
    codex = sorted(types & _CODEX_TYPES)
    if codex:
        return "has Codex record types (" + ", ".join(codex[:3]) + ")"
    gemini = sorted(types & _GEMINI_TYPES)
    if gemini:
        return "has Gemini CLI record types (" + ", ".join(gemini) + ")"
    if any("projectHash" in r for _, r in head):
        return "has a Gemini CLI session header (projectHash)"
    cursor = cursor_evidence(head)
    if cursor:
        return f"has Cursor CLI records ({cursor})"
    amp = amp_evidence(head)
    if amp:
        return f"is an Amp stream ({amp})"
    return None


def _is_session_record(r: dict[str, Any]) -> bool:
    t = r.get("type")
    if not isinstance(t, str):  # a list or dict `type` cannot be looked up in a set
        return False
    if t in _SESSION_ONLY_TYPES:
        return True
    return t in _CONVERSATION_TYPES and any(k in r for k in _SESSION_ENVELOPE)


def _is_message_record(r: dict[str, Any]) -> bool:
    """A ``user``/``assistant`` record holding a Messages API object (any envelope)."""
    if r.get("type") not in ("user", "assistant"):
        return False
    m = r.get("message")
    return isinstance(m, dict) and ("content" in m or "role" in m)


def _is_stream_record(r: dict[str, Any]) -> bool:
    t = r.get("type")
    if t == "system":
        st = r.get("subtype")
        return isinstance(st, str) and (st == "init" or "session_id" in r)
    if t == "result":
        return any(k in r for k in _RESULT_KEYS)
    return _is_message_record(r)


def _records(n: int) -> str:
    """``20 records`` / ``record`` (read after "the first")."""
    return "record" if n == 1 else f"{n} records"


def _seen(types: set[str]) -> str:
    if not types:
        return "no record has a string `type`"
    shown = sorted(types)
    return "types seen: " + ", ".join(shown[:6]) + (" ..." if len(shown) > 6 else "")


# -- small typed accessors -----------------------------------------------------------------------


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _nonempty(v: Any) -> str | None:
    return v if isinstance(v, str) and v else None


def _num(v: Any) -> float | None:
    return as_float(v)


def _count(v: Any) -> int | None:
    if type(v) is int:  # the common case first (bool is not int here)
        return v if v >= 0 else None
    if type(v) is float and math.isfinite(v) and v >= 0 and v.is_integer():
        return int(v)
    return None  # a fraction, NaN, a string...: no count (TranscriptBuilder.unusable_usage says so)


_SLASH_ECHO = ("<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-stderr>")
_COMMAND_NAME = re.compile(r"<command-name>/?([^<\s]+)</command-name>")
_SKILL_BODY = "Base directory for this skill:"
_SKILL_DIR = re.compile(r"[/\\]skills[/\\]([^/\\\s]+)[/\\]?\s*$")
_INTERRUPTED = "[Request interrupted by user"
_REJECTED = "The user doesn't want to proceed with this tool use"
_SANITIZE = re.compile(r"[^A-Za-z0-9_-]")


def _injected_text(text: str) -> bool:
    """User text written by Claude Code rather than typed: slash-command echoes, interrupts."""
    s = text.lstrip()
    return s.startswith((*_SLASH_ECHO, _INTERRUPTED, "<local-command-caveat>"))


def _sum_fields(rows: Iterable[Sequence[int | None]], cost: float | None) -> Usage:
    """``[input, output, cache_read, cache_write]`` rows summed (a field stays ``None`` when no
    row has it) as a ``Usage``."""
    sums: list[int | None] = [None, None, None, None]
    for fields in rows:
        for i, v in enumerate(fields):
            if v is not None:
                sums[i] = (sums[i] or 0) + v
    return Usage(sums[0], sums[1], sums[2], sums[3], None, cost)


#: ``modelUsage`` keys in ``Usage`` order (input, output, cache read, cache write).
_MODEL_USAGE_KEYS = ("inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens")


def _model_usage(mu: Any) -> tuple[Usage, float | None] | None:
    """The run total of a result's ``modelUsage`` (per model, cumulative for the session) and the
    sum of its ``costUSD``; ``None`` when it holds no model entry."""
    if not isinstance(mu, dict):
        return None
    rows: list[list[int | None]] = []
    cost: float | None = None
    for entry in mu.values():
        if not isinstance(entry, dict):
            continue
        rows.append([_count(entry.get(k)) for k in _MODEL_USAGE_KEYS])
        c = _num(entry.get("costUSD"))
        if c is not None:
            cost = (cost or 0.0) + c
    if not rows:
        return None
    return _sum_fields(rows, None), cost


def _usage_text(u: Usage) -> str:
    parts = [f"{label} {v}" for label, v in (("in", u.input_tokens), ("out", u.output_tokens),
             ("cache read", u.cache_read_tokens), ("cache write", u.cache_write_tokens)) if v is not None]
    return ", ".join(parts) or "none"


def _tokens(u: Usage) -> tuple[int | None, ...]:
    return (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens)


_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def _usage_fields(usage: Any) -> list[int | None] | None:
    """``[input, output, cache_read, cache_write]`` of an API ``usage`` object."""
    if type(usage) is dict:
        # the common case, one per API message: four plain non-negative ints (then _count gives
        # them back as they are), and a cache write that needs no look at ``cache_creation``
        get = usage.get
        i, o, r, w = (get("input_tokens"), get("output_tokens"), get("cache_read_input_tokens"),
                      get("cache_creation_input_tokens"))
        if (type(i) is int and type(o) is int and type(r) is int and type(w) is int
                and i >= 0 and o >= 0 and r >= 0 and (w > 0 or (w == 0 and "cache_creation" not in usage))):
            return [i, o, r, w]
    elif not isinstance(usage, dict):
        return None
    cache_write = _count(usage.get("cache_creation_input_tokens"))
    if not cache_write:
        # before 2.1.152 the top-level field was sometimes 0 with only the nested one set (§3.6.9)
        cc = usage.get("cache_creation")
        if isinstance(cc, dict):
            parts = [_count(v) for k, v in cc.items() if isinstance(k, str) and k.startswith("ephemeral_")]
            known = [p for p in parts if p is not None]
            if known:
                cache_write = sum(known)
    return [
        _count(usage.get("input_tokens")),
        _count(usage.get("output_tokens")),
        _count(usage.get("cache_read_input_tokens")),
        cache_write,
    ]


_AGENT_TRAILER = re.compile(r"\n*(?:agentId: [^\n]*\n*)?(?:<usage>.*?</usage>\s*)?\Z", re.DOTALL)


def _subagent_answer(text: str, payload: Any) -> str | None:
    """A subagent's answer: what its ``Task``/``Agent`` call returned, without the trailer that
    Claude Code adds for the parent (``agentId: …`` and a ``<usage>`` block)."""
    if isinstance(payload, dict):
        content = payload.get("content")
        if isinstance(content, (list, str)):
            answer = content_text(content)
            if answer.strip():
                return answer
    answer = _AGENT_TRAILER.sub("", text)
    return answer if answer.strip() else None


# -- the shared core ---------------------------------------------------------------------------


class _Claude:
    """State shared by both formats: content blocks, calls, results, usage, final response."""

    def __init__(self, b: TranscriptBuilder, *, session: bool, kind_of: Callable[[str], str] = tool_kind) -> None:
        self.b = b
        self.session = session
        self.kind_of = kind_of
        self.servers: list[str] = []
        # usage per agent (None: the main agent), per API message (``message.id:requestId``),
        # per field, keeping the max
        self.usage: dict[str | None, dict[str, list[int | None]]] = {}
        self._last_usage_key: str | None = None
        self._last_usage: Any = None
        self.final_key: str | None = None
        self.final_parts: list[str] = []
        #: Task/Agent call id -> its input (for subagent type and description)
        self.spawn_inputs: dict[str, dict[str, Any]] = {}
        self.declared: set[str] = set()
        self.first_ts: str | None = None
        self.last_ts: str | None = None
        self.models: list[str] = []
        self._last_model: Any = None
        #: what each tool name does (``kind_of``), asked once per name
        self._kinds: dict[str, str] = {}
        #: the skill a slash command names (``/plugin:skill``), until its body arrives
        self.pending_command: str | None = None

    # -- envelope -------------------------------------------------------------------------

    def timestamp(self, rec: dict[str, Any]) -> str | None:
        ts = rec.get("timestamp")
        if not isinstance(ts, str) or not ts:
            return None
        if self.first_ts is None:
            self.first_ts = ts
        self.last_ts = ts
        return ts

    def see_model(self, model: Any) -> None:
        if isinstance(model, str) and model and model != "<synthetic>" and model not in self.models:
            self.models.append(model)
            if self.b.model is None:
                self.b.model = model

    def declare_subagent(self, agent_id: str, parent_call_id: str | None) -> None:
        key = f"{agent_id}\0{parent_call_id}"
        if key in self.declared:
            return
        self.declared.add(key)
        inp = self.spawn_inputs.get(parent_call_id or "", {})
        self.b.subagent(
            agent_id,
            parent_call_id=parent_call_id,
            type=_nonempty(inp.get("subagent_type")),
            description=_nonempty(inp.get("description")),
        )

    # -- usage ------------------------------------------------------------------------------

    def add_usage(self, key: str, usage: Any, agent_id: str | None = None) -> None:
        # The lines of one split API message repeat the same usage object: skip the repeats
        # (a dict comparison costs less than re-reading every field).
        if key == self._last_usage_key and usage == self._last_usage:
            return
        self._last_usage_key, self._last_usage = key, usage
        fields = _usage_fields(usage)
        if fields is None:
            return
        if None in fields:
            self.b.unusable_usage(usage, _USAGE_KEYS)
        mine = self.usage.setdefault(agent_id, {})
        old = mine.get(key)
        if old is None:
            mine[key] = fields
        else:
            mine[key] = [
                n if o is None else o if n is None else max(o, n) for o, n in zip(old, fields, strict=True)
            ]

    def agent_usage(self, agent_id: str | None, cost: float | None = None) -> Usage | None:
        """The usage recorded for one agent (``None``: the main agent), or ``None`` if none is."""
        per_message = self.usage.get(agent_id)
        if not per_message and cost is None:
            return None
        return _sum_fields((per_message or {}).values(), cost)

    def subagent_usage(self) -> None:
        """Give every subagent the usage its own messages record."""
        for agent_id in self.usage:
            if agent_id is not None:
                u = self.agent_usage(agent_id)
                if u is not None:
                    self.b.subagent(agent_id, usage=u)

    # -- assistant ----------------------------------------------------------------------------

    def assistant(
        self,
        line: int,
        rec: dict[str, Any],
        msg: dict[str, Any],
        agent_id: str | None,
        parent_id: str | None,
        ts: str | None,
        count_usage: bool = True,
    ) -> None:
        b = self.b
        model = msg.get("model")
        synthetic = model == "<synthetic>"
        api_error = (
            rec.get("isApiErrorMessage") is True
            or rec.get("is_api_error_message") is True
            or isinstance(rec.get("error"), str)
        )
        if not synthetic and model != self._last_model:  # the lines of a run name one model
            self._last_model = model
            self.see_model(model)
        mid = msg.get("id")
        if not isinstance(mid, str) or not mid:
            mid = None
        if count_usage and not synthetic and "usage" in msg:
            req = rec.get("requestId")
            if not isinstance(req, str) or not req:
                req = rec.get("request_id")
                if not isinstance(req, str):
                    req = ""
            self.add_usage(f"{mid}:{req}" if mid else f"#line{line}", msg["usage"], agent_id)
        if agent_id is None:
            self.pending_command = None

        content = msg.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        elif not isinstance(content, list):
            b.damaged(line, "assistant message without a content list", content)
            content = []
        error_said = False
        for i, block in enumerate(content):
            if not isinstance(block, dict):
                if isinstance(block, str) and block.strip():
                    block = {"type": "text", "text": block}
                elif isinstance(block, str):
                    b.skip("blank text block")
                    continue
                else:
                    b.damaged(line, "assistant content block that is not an object", block)
                    continue
            bt = block.get("type")
            if bt == "text":
                text = block.get("text")
                if not isinstance(text, str) or not text.strip():
                    b.skip("blank text block")
                    continue
                if api_error:
                    error_said = True
                    b.error(text, line)
                    b.message("system", text, line, agent_id=agent_id, meta=True)
                elif synthetic:
                    b.message("assistant", text, line, agent_id=agent_id, meta=True)
                else:
                    b.message("assistant", text, line, agent_id=agent_id)
                    if agent_id is None:
                        key = mid or f"#line{line}"
                        if key == self.final_key:
                            self.final_parts.append(text)
                        else:
                            self.final_key = key
                            self.final_parts = [text]
            elif bt == "thinking":
                text = block.get("thinking")
                if isinstance(text, str) and text:
                    b.thinking(text, line, agent_id=agent_id)
                else:
                    b.skip("empty thinking block (signature only)")
            elif bt == "redacted_thinking":
                b.skip("redacted thinking block")
            elif bt in ("tool_use", "server_tool_use"):
                self.call(line, i, block, agent_id, parent_id, ts)
            elif isinstance(bt, str) and bt.endswith("_tool_result") and "tool_use_id" in block:
                # server tool results (web_search_tool_result...) live in the assistant message
                self.tool_result(line, block, None, ts=ts)
            else:
                b.unknown(f"assistant block {bt}" if isinstance(bt, str) else "assistant block without type",
                          block, line=line)
        if api_error and not error_said:  # flagged, but no text block said what went wrong
            code = rec.get("error")
            b.error(f"API error: {code}" if isinstance(code, str) else "API error", line)

    def call(
        self,
        line: int,
        index: int,
        block: dict[str, Any],
        agent_id: str | None,
        parent_id: str | None,
        ts: str | None,
    ) -> None:
        b = self.b
        name = block.get("name")
        if not isinstance(name, str) or not name:
            b.damaged(line, "tool_use without a name", block)
            return
        cid = block.get("id")
        if isinstance(cid, str) and cid:
            key = cid
        else:
            cid = ""
            key = f"#line{line}:{index}"
            b.note(f"tool_use without an id (first at line {line}): it cannot be paired with a result")
        arguments = block.get("input")
        if type(arguments) is dict:  # decode_arguments gives a dict back as it is
            raw_arguments = None
        else:
            arguments, raw_arguments = decode_arguments(arguments)
        server, tool = split_mcp_name(name, self.servers) if name.startswith("mcp__") else (None, None)
        kind = self._kinds.get(name)
        if kind is None:
            kind = self._kinds[name] = self.kind_of(name)
        if not b._call(key, cid, name, kind, arguments, line, raw_arguments, server, tool, parent_id, agent_id, ts):
            b.skip("repeated tool_use (same id)")
            return
        if agent_id is not None and parent_id is None:
            self.unparented_call(agent_id, key)
        if kind == "subagent" and cid:
            self.spawn_inputs[cid] = arguments

    # -- user ---------------------------------------------------------------------------------

    def user(
        self,
        line: int,
        msg: dict[str, Any],
        *,
        agent_id: str | None,
        ts: str | None,
        payload: Any,
        meta: bool,
        from_tool: bool = False,
    ) -> None:
        """A user record: text, tool results. *from_tool*: the record was injected for a tool call
        (``sourceToolUseID``: a ``Skill`` call's body, already seen as that call)."""
        b = self.b
        content = msg.get("content")
        if isinstance(content, str):
            if content.strip():
                skill = None if agent_id is not None else self.slash_skill(content, from_tool)
                b.message("user", content, line, agent_id=agent_id, meta=meta or _injected_text(content),
                          skill=skill)
            else:
                b.skip("blank user message")
            return
        if not isinstance(content, list):
            b.damaged(line, "user message without a content list", content)
            return
        if len(content) == 1:
            # the common case: one tool_result block (what the loop below does with it alone)
            block = content[0]
            if type(block) is dict and block.get("type") == "tool_result":
                self.tool_result(line, block, payload, ts)
                return
        texts: list[str] = []
        results: list[dict[str, Any]] = []
        for block in content:
            if isinstance(block, str):
                texts.append(block)
            elif not isinstance(block, dict):
                b.damaged(line, "user content block that is not an object", block)
            else:
                bt = block.get("type")
                if bt == "tool_result":
                    results.append(block)
                elif bt == "text":
                    t = block.get("text")
                    if isinstance(t, str):
                        texts.append(t)
                    else:
                        b.skip("text block without text")
                elif bt in ("image", "document"):
                    b.skip(f"{bt} block")
                else:
                    b.unknown(f"user block {bt}" if isinstance(bt, str) else "user block without type",
                              block, line=line)
        text = "\n".join(t for t in texts if t)
        if text.strip():
            skill = None if agent_id is not None else self.slash_skill(text, from_tool)
            b.message("user", text, line, agent_id=agent_id, meta=meta or _injected_text(text), skill=skill)
        for block in results:
            self.tool_result(line, block, payload if len(results) == 1 else None, ts=ts)

    def slash_skill(self, text: str, from_tool: bool) -> str | None:
        """The skill a user line invokes without a tool call: Claude Code echoes the slash
        command (``<command-name>/plugin:skill</command-name>``), then injects the skill's body
        (``Base directory for this skill: …/skills/<name>``) as a meta line; that line is the
        skill's invocation. A body injected for a ``Skill`` call (*from_tool*) is that call's."""
        head = text.lstrip()
        if head.startswith(_SKILL_BODY):
            named, self.pending_command = self.pending_command, None
            if from_tool:
                return None
            if named:
                return named
            m = _SKILL_DIR.search(head.split("\n", 1)[0])
            return m.group(1) if m else None
        m = _COMMAND_NAME.search(head) if head.startswith(_SLASH_ECHO) else None
        self.pending_command = m.group(1) if m else None
        return None

    def tool_result(self, line: int, block: dict[str, Any], payload: Any, ts: str | None) -> None:
        b = self.b
        tid = block.get("tool_use_id")
        if not isinstance(tid, str) or not tid:
            b.damaged(line, "tool_result without a tool_use_id", block)
            return
        content = block.get("content")
        text = content if type(content) is str else content_text(content)
        is_error = block.get("is_error") is True  # absent => false (formats §3.3)
        raw = payload if payload is not None else (content if isinstance(content, (list, dict)) else None)
        status = None
        if isinstance(payload, dict):
            if payload.get("interrupted") is True:
                status = "interrupted"
        elif payload == "User rejected tool use":
            status = "declined"
        if text.startswith(_REJECTED):
            status = "declined"
        # the call this result answered (also when it repeats an answered one)
        info = b._result(tid, text, line, raw, is_error, None, status, ts) or b.call_info(tid)
        if info is None or info.kind != "subagent":
            return
        agent = _nonempty(payload.get("agentId")) if self.session and isinstance(payload, dict) else None
        if agent is not None:
            self.link_agent(agent, tid)
        else:  # no agent id recorded (stream-json, older session logs): the call's id names it
            self.declare_subagent(tid, tid)
        if not is_error:
            answer = _subagent_answer(text, payload)
            if answer:
                b.subagent(agent or tid, final_response=answer)

    def link_agent(self, agent_id: str, parent_call_id: str) -> None:
        """A subagent's spawning call became known (session logs link late)."""
        self.declare_subagent(agent_id, parent_call_id)

    def unparented_call(self, agent_id: str, key: str) -> None:
        """A subagent call whose spawning call is not known yet (session logs)."""

    # -- end ----------------------------------------------------------------------------------

    def finish(self, fallback: str | None) -> None:
        b = self.b
        if self.final_parts:
            b.set_final_response("\n".join(self.final_parts))
        else:
            b.set_final_response(fallback)
        if self.first_ts is not None:
            b.metadata.setdefault("started_at", self.first_ts)
            b.metadata["ended_at"] = self.last_ts
        if len(self.models) > 1:
            b.metadata["models"] = list(self.models)


# -- claude-stream-json -------------------------------------------------------------------------

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
                ts = rec.get("timestamp")  # st.timestamp, inline
                if isinstance(ts, str) and ts:
                    if st.first_ts is None:
                        st.first_ts = ts
                    st.last_ts = ts
                else:
                    ts = None
                if b.session_id is None:
                    b.session_id = _nonempty(rec.get("session_id"))
                ptid = rec.get("parent_tool_use_id")
                if ptid is not None and (not isinstance(ptid, str) or not ptid):
                    ptid = None
                if ptid is not None:
                    st.declare_subagent(ptid, ptid)
                    if t == "user":  # 2.1.2xx subagent prompt records name the subagent
                        b.subagent(
                            ptid,
                            type=_nonempty(rec.get("subagent_type")),
                            description=_nonempty(rec.get("task_description")),
                        )
                if t == "assistant":
                    st.assistant(line, rec, msg, ptid, ptid, ts)
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
        has_subagents = b.has_subagents()
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


# -- claude-session -------------------------------------------------------------------------------

_SESSION_SKIP = frozenset(
    {
        "file-history-snapshot",
        "queue-operation",
        "attachment",
        "permission-mode",
        "mode",
        "custom-title",
        "ai-title",
        "tag",
        "content-replacement",
        "last-prompt",
        "agent-name",
    }
)
#: Record types that only Claude session logs write (never stream-json): detection uses them.
_SESSION_ONLY_TYPES = _SESSION_SKIP | {"summary", "progress"}
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
                else:
                    meta = rec.get("isMeta") is True or rec.get("isCompactSummary") is True
                    if rec.get("isCompactSummary") is True:
                        b.metadata["compact_summaries"] = b.metadata.get("compact_summaries", 0) + 1
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


# -- subagent files -------------------------------------------------------------------------------


def _first_session_id(path: Path) -> str | None:
    try:
        with path.open("rb") as f:
            for raw in f:
                if not raw.strip():
                    continue
                try:
                    rec = json.loads(raw)
                except (ValueError, RecursionError):
                    return None
                return _str(rec.get("sessionId")) if isinstance(rec, dict) else None
    except OSError:
        return None
    return None


def find_subagent_files(main_path: str | Path) -> list[Path]:
    """The subagent transcripts that belong to a Claude Code session log.

    Claude Code 2.1.x writes them to ``<dir>/<session>/subagents/agent-<id>.jsonl`` (possibly
    nested, e.g. ``subagents/workflows/<run>/``), where ``<session>`` is the main file's stem;
    compaction runs are ``agent-acompact-<id>.jsonl`` there too. Older builds wrote
    ``agent-<id>.jsonl`` beside the main file: those are included when their first record's
    ``sessionId`` is the main session's. Sorted by path; ``[]`` when there are none.
    """
    main = Path(main_path)
    session = main.stem
    found: set[Path] = set()
    sub = main.parent / session / "subagents"
    if sub.is_dir():
        found.update(p for p in sub.rglob("agent-*.jsonl") if p.is_file())
    for p in _siblings(main):
        if _first_session_id(p) == session:
            found.add(p)
    return sorted(found)


def _siblings(main: Path) -> Iterable[Path]:
    try:
        return [p for p in main.parent.glob("agent-*.jsonl") if p.is_file() and p != main]
    except OSError:
        return []
