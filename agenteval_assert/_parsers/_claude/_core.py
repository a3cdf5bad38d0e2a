"""``_Claude``, the state and the parse both formats share: content blocks, calls, results
(subagents, slash-command skills), usage per agent and API message, the final response."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..._builder import TranscriptBuilder
from ...model import Usage
from .._common import content_text, decode_arguments, split_mcp_name, tool_kind
from ._access import _USAGE_KEYS, _nonempty, _sum_fields, _usage_fields

_SLASH_ECHO = ("<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-stderr>")
_COMMAND_NAME = re.compile(r"<command-name>/?([^<\s]+)</command-name>")
_SKILL_BODY = "Base directory for this skill:"
_SKILL_DIR = re.compile(r"[/\\]skills[/\\]([^/\\\s]+)[/\\]?\s*$")
_INTERRUPTED = "[Request interrupted by user"
#: ``dict.get``'s answer for a key that is absent (``None`` may be a value)
_ABSENT: Any = object()
_REJECTED = "The user doesn't want to proceed with this tool use"


def _injected_text(text: str) -> bool:
    """User text written by Claude Code rather than typed: slash-command echoes, interrupts."""
    s = text.lstrip()
    return s.startswith((*_SLASH_ECHO, _INTERRUPTED, "<local-command-caveat>"))


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
        #: a call that spawns a subagent was recorded (kind ``subagent``)
        self.delegated = False
        self.declared: set[str] = set()
        self.first_ts: str | None = None
        self.last_ts: str | None = None
        self.models: list[str] = []
        self._last_model: Any = None
        #: what each tool name does (``kind_of``), asked once per name
        self._kinds: dict[str, str] = {}
        #: a tool name -> (the name, its kind, its MCP server and tool), see ``_name``
        self._names: dict[str, tuple[str, str, str | None, str | None]] = {}
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
        self.new_usage(key, usage, agent_id)

    def new_usage(self, key: str, usage: Any, agent_id: str | None) -> None:
        """``add_usage`` of a usage that is not the last one's repeat."""
        self._last_usage_key = key
        self._last_usage = usage
        fields = self._read_usage(usage)
        if fields is None:
            return
        mine = self.usage.get(agent_id)
        if mine is None:
            mine = self.usage[agent_id] = {}
        old = mine.get(key)
        if old is None:
            mine[key] = fields
        else:
            mine[key] = [
                n if o is None else o if n is None else max(o, n) for o, n in zip(old, fields, strict=True)
            ]

    def _read_usage(self, usage: Any) -> list[int | None] | None:
        """``_usage_fields``, noting the counts it could not read."""
        fields = _usage_fields(usage)
        if fields is not None and None in fields:
            self.b.unusable_usage(usage, _USAGE_KEYS)
        return fields

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

    def _final_text(self, key: str, text: str) -> None:
        """A main-agent text of the API message *key*: the final response is the texts of the
        last API message that has any."""
        if key == self.final_key:
            self.final_parts.append(text)
        else:
            self.final_key = key
            self.final_parts = [text]

    def assistant(
        self,
        line: int,
        rec: dict[str, Any],
        msg: dict[str, Any],
        agent_id: str | None,
        parent_id: str | None,
        ts: str | None,
        count_usage: bool = True,
        bare: bool = False,
    ) -> None:
        """An assistant line. *bare*: the caller found that the record holds no key but its
        envelope's (no API-error or request-id key: they are not looked up)."""
        b = self.b
        model = msg.get("model")
        if model == self._last_model:  # the lines of a run name one model (never "<synthetic>")
            synthetic = False
        else:
            synthetic = model == "<synthetic>"
            if not synthetic:
                self._last_model = model
                self.see_model(model)
        if bare:
            api_error = False
        elif "isApiErrorMessage" in rec or "is_api_error_message" in rec or "error" in rec:  # most lines have none
            api_error = (rec.get("isApiErrorMessage") is True or rec.get("is_api_error_message") is True
                         or isinstance(rec.get("error"), str))
        else:
            api_error = False
        mid = msg.get("id")
        if not isinstance(mid, str) or not mid:
            mid = None
        if count_usage and not synthetic and (usage := msg.get("usage", _ABSENT)) is not _ABSENT:
            if not bare and ("requestId" in rec or "request_id" in rec):  # stream-json lines have neither
                req = rec.get("requestId")
                if not isinstance(req, str) or not req:
                    req = rec.get("request_id")
                    if not isinstance(req, str):
                        req = ""
            else:
                req = ""
            key = f"{mid}:{req}" if mid else f"#line{line}"
            # the lines of one split API message repeat its usage: add_usage skips them, here
            # without the call
            if key != self._last_usage_key or usage != self._last_usage:
                self.new_usage(key, usage, agent_id)
        if agent_id is None:
            self.pending_command = None

        content = msg.get("content")
        if type(content) is list and len(content) == 1 and not api_error:
            # the common line: one block, a call or a text (what the loop below does with it)
            block = content[0]
            if type(block) is dict:
                bt = block.get("type")
                if bt == "tool_use":
                    # self.call, inline for a call with an id, an object input and a name seen before
                    name = block.get("name")
                    known = self._names.get(name) if type(name) is str else None
                    cid = block.get("id")
                    arguments = block.get("input")
                    if known is None or type(cid) is not str or not cid or type(arguments) is not dict:
                        self.call(line, 0, block, agent_id, parent_id, ts)
                        return
                    name, kind, server, tool = known
                    if not b._call(cid, cid, name, kind, arguments, line, None, server, tool, parent_id, agent_id,
                                   ts):
                        b.skip("repeated tool_use (same id)")
                        return
                    if agent_id is not None and parent_id is None:
                        self.unparented_call(agent_id, cid)
                    if kind == "subagent":
                        self.delegated = True
                        self.spawn_inputs[cid] = arguments
                    return
                if bt == "text" and not synthetic:
                    text = block.get("text")
                    if type(text) is str and text and not text.isspace():  # text.strip(), without a copy
                        b.message("assistant", text, line, agent_id=agent_id)
                        if agent_id is None:
                            self._final_text(mid or f"#line{line}", text)
                        return
        self.blocks(line, rec, content, agent_id, parent_id, ts, api_error, synthetic, mid)

    def blocks(self, line: int, rec: dict[str, Any], content: Any, agent_id: str | None, parent_id: str | None,
               ts: str | None, api_error: bool, synthetic: bool, mid: str | None) -> None:
        """The content of an assistant line, block by block (``assistant`` decided the rest: an
        API error, a synthetic model, the API message's id *mid*)."""
        b = self.b
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
                        self._final_text(mid or f"#line{line}", text)
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
        # what a name means (its kind, its MCP server and tool) is worked out once per name, and
        # every call of a name shares one string for it (the records' copies are freed)
        known = self._names.get(name) if type(name) is str else None
        if known is None:
            if not isinstance(name, str) or not name:
                b.damaged(line, "tool_use without a name", block)
                return
            known = self._name(name)
        name, kind, server, tool = known
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
        if not b._call(key, cid, name, kind, arguments, line, raw_arguments, server, tool, parent_id, agent_id, ts):
            b.skip("repeated tool_use (same id)")
            return
        if agent_id is not None and parent_id is None:
            self.unparented_call(agent_id, key)
        if kind == "subagent":
            self.delegated = True
            if cid:
                self.spawn_inputs[cid] = arguments

    def _name(self, name: str) -> tuple[str, str, str | None, str | None]:
        """A tool name, its kind (``kind_of``, asked once per name) and its MCP server and tool
        (from the servers known now: ``servers_changed`` forgets them when more are declared)."""
        server, tool = split_mcp_name(name, self.servers) if name.startswith("mcp__") else (None, None)
        kind = self._kinds.get(name)
        if kind is None:
            kind = self._kinds[name] = self.kind_of(name)
        known = self._names[name] = (name, kind, server, tool)
        return known

    def servers_changed(self) -> None:
        """``servers`` grew: an MCP tool's name may split differently from now on."""
        self._names.clear()

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
        if type(content) is str:  # the common case: the text itself, nothing structured
            text = content
            raw = payload
        else:
            text = content_text(content)
            raw = payload if payload is not None else (content if isinstance(content, (list, dict)) else None)
        is_error = block.get("is_error") is True  # absent => false (formats §3.3)
        status = None
        if payload is None:
            pass
        elif isinstance(payload, dict):
            if payload.get("interrupted") is True:
                status = "interrupted"
        elif payload == "User rejected tool use":
            status = "declined"
        if text.startswith(_REJECTED):
            status = "declined"
        # the call this result answered (also when it repeats an answered one)
        info = b._result(tid, text, line, raw, is_error, None, status, ts) or b.call_info(tid)
        if info is not None and info.kind == "subagent":
            self.subagent_result(tid, text, payload, is_error)

    def subagent_result(self, tid: str, text: str, payload: Any, is_error: bool) -> None:
        """The result *text* of the subagent call *tid*: the subagent it names, and its answer."""
        b = self.b
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

