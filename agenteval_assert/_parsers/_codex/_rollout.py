"""The ``codex-rollout`` parser: the session files Codex writes under ``~/.codex/sessions``
(``session_meta``, ``response_item``, ``event_msg``...).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from ..._builder import TranscriptBuilder
from ..._reader import Record, Shape
from ...model import Usage
from .._common import (
    CODEX_ROLLOUT_TYPES,
    as_int,
    content_text,
    decode_arguments,
    not_json,
    split_mcp_name,
    tool_kind,
)
from .._sniff import codex_rollout_sniff
from ._shared import (
    OPENAI_USAGE_KEYS,
    _decoded,
    _dict,
    _exit_code_from_text,
    _join_output,
    _mcp_outcome,
    _openai_usage,
    _plain_usage,
    _status,
    _str,
)

__all__ = [
    "CodexRolloutParser",
]


_ROLLOUT_TYPES = CODEX_ROLLOUT_TYPES
#: Prefixes of user messages that Codex injects (not typed by the user).
_INJECTED = (
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<permissions instructions>",
    "<turn_aborted>",
    "<user_shell_command>",
)
_META_FIELDS = ("cwd", "originator", "cli_version", "source", "model_provider", "git", "timestamp")
#: event_msg types that only mirror what response_items (or other events) already hold.
_EVENT_MIRRORS = frozenset(
    {
        "exec_command_begin",
        "exec_command_output_delta",
        "mcp_tool_call_begin",
        "patch_apply_begin",
        "web_search_begin",
        "web_search_end",
        "item_started",
        "item_completed",
        "agent_message_delta",
        "agent_reasoning_delta",
        "agent_reasoning_raw_content",
        "agent_reasoning_raw_content_delta",
        "agent_reasoning_section_break",
        "context_compacted",
        "thread_name_updated",
        "turn_diff",
        "plan_update",
        "exec_approval_request",
        "apply_patch_approval_request",
        "collab_agent_spawn_begin",
        "collab_agent_spawn_end",
        "collab_agent_interaction_begin",
        "collab_agent_interaction_end",
        "collab_waiting_begin",
        "collab_waiting_end",
        "collab_close_begin",
        "collab_close_end",
        "entered_review_mode",
        "exited_review_mode",
        "shutdown_complete",
    }
)
#: event_msg types that repeat a response_item: one source per kind (the response_item) is used.
_EVENT_DUPLICATES = {"user_message": "message", "agent_message": "message", "agent_reasoning": "reasoning"}
def _writes_tasks(version: Any) -> bool:
    """Whether a rollout written by Codex *version* brackets its tasks (0.104 and later)."""
    if not isinstance(version, str):
        return False
    parts = version.split("-", 1)[0].split(".")
    try:
        nums = tuple(int(x) for x in parts[:2])
    except ValueError:
        return False
    return len(nums) == 2 and nums >= (0, 104)


#: Records that may follow a task's end without starting a step (usage, UI events, the next
#: turn's context).
_AFTER_END = frozenset({"token_count", "turn_context", "shutdown_complete", "thread_name_updated",
                        "background_event", "warning", "turn_diff"})
#: event_msg types that ``event`` only counts as skipped: the reason, and whether the event
#: ends a finished task's quiet (``step_or_end``: it is no record that may follow an end)
_EVENT_SKIPS: dict[str, tuple[str, bool]] = {
    **{t: (f"event_msg {t} (UI event; the response_items hold the facts)", t not in _AFTER_END)
       for t in _EVENT_MIRRORS},
    **{t: (f"event_msg {t} (duplicate of the response_item {_EVENT_DUPLICATES[t]})", t not in _AFTER_END)
       for t in ("user_message", "agent_reasoning")},
}
_AGENT_MESSAGE_SKIP = f"event_msg agent_message (duplicate of the response_item {_EVENT_DUPLICATES['agent_message']})"
_CALL_ITEMS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "web_search_call"})
_OUTPUT_ITEMS = frozenset({"function_call_output", "custom_tool_call_output"})
_SKIPPED_ITEMS = frozenset({"ghost_snapshot", "compaction", "compaction_summary"})


def _rollout_output(out: Any) -> tuple[str, Any, int | None, bool]:
    """``(text, raw, exit_code, is_error)`` of a ``function_call_output.output``."""
    if isinstance(out, str):
        # a text that starts with '{"' passes not_json (its first two tokens can be JSON's)
        if out.startswith('{"') or (out[:1] in ("{", "[") and not not_json(out)):
            dec = _decoded(out)  # json.loads, without its scans for blanks, when the text decodes whole
            if dec is None:
                try:
                    dec = json.loads(out)
                except (ValueError, RecursionError):
                    dec = None
            if isinstance(dec, dict) and isinstance(dec.get("output"), str):
                # 0.40: {"output": "...", "metadata": {"exit_code": 0, "duration_seconds": 0.0}}
                code = as_int(_dict(dec.get("metadata")).get("exit_code"))
                return dec["output"], dec, code, False
            if isinstance(dec, list):
                return content_text(dec), dec, None, False
        return out, None, _exit_code_from_text(out), False
    if isinstance(out, list):
        return content_text(out), out, None, False
    if isinstance(out, dict):
        text = content_text(out.get("content")) if "content" in out else _str(out.get("output")) or ""
        return text, out, None, out.get("success") is False
    return "", out, None, False


class _RolloutRun:
    """State of one rollout parse."""

    def __init__(self, b: TranscriptBuilder) -> None:
        self.b = b
        self.models: list[str] = []
        self.turns = 0
        #: the last total: a Usage, or the fields of one (plain counts: made at the end)
        self.usage: Usage | tuple[int | None, ...] | None = None
        self.last_assistant: str | None = None
        self.last_event_agent: str | None = None
        self.task_complete: str | None = None
        self.event_messages = 0
        self.open: dict[str, None] = {}
        self.ends: dict[str, tuple[int, dict[str, Any]]] = {}  # call_id -> *_end event
        self.answered: set[str] = set()
        self.compactions = 0
        #: the rollout brackets its tasks with task_started / task_complete (0.104 and later)
        self.tasks = False
        #: a function name's (name, server, tool, kind): split_mcp_name and tool_kind once per name
        self.kinds: dict[str, tuple[str, str | None, str | None, str]] = {}

    def feed(self, records: Iterator[Record]) -> None:
        b = self.b
        skipped = b.skipped  # b.skip(reason), without its call: one per UI event of a long run
        thinking = b.thinking
        new_call, new_result = b._call, b._result
        response_item, event = self.response_item, self.event
        open_, answered, ends, kinds = self.open, self.answered, self.ends, self.kinds
        tasks = self.tasks  # set again after every record read the long way (the only place it changes)
        for line, r in records:
            p = r.get("payload")
            # the common records first, each read as the long way below reads it (tests hold them
            # to tests/_rollout_reference.py); anything else goes the long way
            if type(p) is dict:
                t = r.get("type")
                if t == "response_item":
                    pt = p.get("type")
                    # calls, outputs, reasoning and messages neither bracket a task nor may
                    # follow its end (step_or_end)
                    if pt == "function_call":
                        if tasks:
                            b.run_ended = False
                        ts = r.get("timestamp")
                        if type(ts) is not str:
                            ts = None
                        cid = p.get("call_id")
                        name = p.get("name")
                        if type(cid) is str and cid and type(name) is str and name and p.get("namespace") is None:
                            arguments = p.get("arguments")
                            args = _decoded(arguments) if type(arguments) is str and arguments[:1] == "{" else None
                            if type(args) is dict:  # what decode_arguments gives for a JSON object's text
                                raw_args = None
                            else:
                                args, raw_args = decode_arguments(arguments)
                            kind = kinds.get(name)
                            if kind is None:
                                kind = kinds[name] = (name, *split_mcp_name(name), tool_kind(name))
                            # the name's first string: the calls share one (the record's is freed)
                            if not new_call(cid, cid, kind[0], kind[3], args, line, raw_args, kind[1], kind[2],
                                            None, None, ts):
                                skipped["function_call repeating a known call_id"] += 1
                                continue
                            st = p.get("status")
                            if st is not None and st != "completed":
                                st = _status(st)
                                if st is not None and st != "completed":
                                    b.update_call(cid, status=st)
                            open_[cid] = None
                        else:
                            self.call(line, p, pt, ts)
                        continue
                    if pt == "function_call_output":
                        if tasks:
                            b.run_ended = False
                        ts = r.get("timestamp")
                        if type(ts) is not str:
                            ts = None
                        cid = p.get("call_id")
                        out = p.get("output")
                        if type(cid) is str and type(out) is str and cid not in answered and cid not in ends:
                            text, raw, code, _ = _rollout_output(out)  # a text: never an error
                            # no exit code, no success flag, no end event (yet): how it went is not recorded
                            if new_result(cid, text, line, raw, False, code,
                                          "unrecorded" if code is None and not (type(raw) is dict and "success" in raw)
                                          else None, ts) is not None:
                                answered.add(cid)
                                open_.pop(cid, None)
                        else:
                            self.output(line, p, ts)
                        continue
                    if pt == "reasoning" or pt == "message":
                        if tasks:
                            b.run_ended = False
                        if pt == "reasoning":
                            s = p.get("summary")
                            if type(s) is list and len(s) == 1:
                                block = s[0]
                                said = block.get("text") if type(block) is dict else None
                                if type(said) is str and said:  # content_text(summary): its one text
                                    thinking(said, line)
                                    continue
                        response_item(line, p, None)  # no timestamp: only calls and outputs keep one
                        continue
                elif t == "event_msg":
                    pt = p.get("type")
                    if pt == "token_count":  # after an end: no step
                        info = p.get("info")
                        plain = _plain_usage(info.get("total_token_usage")) if type(info) is dict else None
                        if plain is not None:  # the common case: no Usage made per event
                            self.usage = plain
                            continue
                        event(line, p)
                        continue
                    if type(pt) is str:
                        quiet = _EVENT_SKIPS.get(pt)
                        if quiet is not None:  # a UI event that only mirrors a response_item
                            if tasks and quiet[1]:
                                b.run_ended = False
                            skipped[quiet[0]] += 1
                            continue
                        if pt == "agent_message":
                            if tasks:
                                b.run_ended = False
                            msg = p.get("message")
                            if type(msg) is str:
                                self.last_event_agent = msg
                            skipped[_AGENT_MESSAGE_SKIP] += 1
                            continue
                elif t == "turn_context":
                    model = p.get("model")
                    if type(model) is str and model and model not in self.models:
                        self.models.append(model)
                    if "turn_context" not in b.metadata:
                        b.metadata["turn_context"] = {
                            k: p[k] for k in ("cwd", "approval_policy", "sandbox_policy", "effort") if k in p
                        }
                    continue
                self.record(line, r, t, p)
            else:
                self.record(line, r, r.get("type"), p)
            tasks = self.tasks
        self.finish()

    def record(self, line: int, r: dict[str, Any], t: Any, p: Any) -> None:
        """Any record, the long way."""
        b = self.b
        if not isinstance(t, str):
            b.unknown("(record without type)", r, line=line, record=True)
            return
        if not isinstance(p, dict):
            if t in _ROLLOUT_TYPES:
                if t == "response_item":
                    b.damaged(line, "response_item without a payload object", p)
                else:
                    b.skip(f"{t} without a payload object")
            else:
                b.unknown(t, r, line=line, record=True)
            return
        if t == "response_item" or t == "event_msg":
            self.step_or_end(p)
        if t == "response_item":
            self.response_item(line, p, _str(r.get("timestamp")))
        elif t == "event_msg":
            self.event(line, p)
        elif t == "session_meta":
            self.session_meta(p)
        elif t == "turn_context":
            model = _str(p.get("model"))
            if model and model not in self.models:
                self.models.append(model)
            if "turn_context" not in b.metadata:
                b.metadata["turn_context"] = {
                    k: p[k] for k in ("cwd", "approval_policy", "sandbox_policy", "effort") if k in p
                }
        elif t == "compacted":
            self.compactions += 1
            b.skip("compacted (summary of the earlier history)")
        elif t in _ROLLOUT_TYPES:
            b.skip(t)
        else:
            b.unknown(t, r, line=line, record=True)

    def step_or_end(self, p: dict[str, Any]) -> None:
        """Track the end of the run: since 0.104 a rollout brackets every task (turn) with
        ``task_started`` and ``task_complete`` (or ``turn_aborted``); once one has been seen, the
        run has ended only when the last task is closed and no step follows it."""
        t = p.get("type")
        if t == "task_started":
            self.tasks = True
            self.b.run_ended = False
        elif t in ("task_complete", "turn_aborted"):
            if self.tasks:
                self.b.run_ended = True
        elif self.tasks and not (isinstance(t, str) and t in _AFTER_END):
            self.b.run_ended = False

    def finish(self) -> None:
        b = self.b
        for cid, (line, ev) in self.ends.items():
            if cid in self.open:  # no function_call_output, but the end event holds the result
                self._apply_end(cid, line, ev, None)
                b.note("some results come only from exec_command_end / mcp_tool_call_end events")
        if self.models:
            b.model = self.models[0]
            if len(self.models) > 1:
                b.metadata["models"] = list(self.models)
        if self.usage is not None:
            b.usage = self.usage if isinstance(self.usage, Usage) else Usage(*self.usage)
            b.usage_mode = "cumulative (thread total)"
        if self.turns:
            b.metadata["turns"] = self.turns
        if self.compactions:
            b.metadata["compactions"] = self.compactions
        final = self.last_assistant
        if final is None:
            final = self.last_event_agent if self.last_event_agent is not None else self.task_complete
            if final is not None:
                b.note("no response_item assistant message: the final response comes from event_msg")
        b.set_final_response(final)

    def session_meta(self, p: dict[str, Any]) -> None:
        b = self.b
        if _writes_tasks(p.get("cli_version")) and not self.tasks:
            # 0.104 and later bracket every task with task_started / task_complete: a rollout of
            # such a version with no task_complete yet has not ended (or was cut)
            self.tasks = True
            b.run_ended = False
        sid = _str(p.get("id"))
        if b.session_id is not None:
            if sid and sid != b.session_id:
                b.metadata.setdefault("other_session_ids", []).append(sid)
            b.skip("repeated session_meta")
            return
        b.session_id = sid
        for k in _META_FIELDS:
            if k in p:
                b.metadata[k] = p[k]

    # -- response items (what the model saw) ---------------------------------------------------

    def response_item(self, line: int, p: dict[str, Any], ts: str | None) -> None:
        b = self.b
        t = p.get("type")
        if not isinstance(t, str):
            b.damaged(line, "response_item without a type", p)
            return
        if t == "message":
            role = p.get("role")
            text = content_text(p.get("content"))
            if role == "assistant":
                b.message("assistant", text, line)
                self.last_assistant = text
            elif role == "user":
                b.message("user", text, line, meta=text.lstrip().startswith(_INJECTED))
            elif role in ("developer", "system"):
                b.message("system", text, line, meta=True)
            else:
                b.skip("message with an unknown role")
        elif t == "reasoning":
            text = content_text(p.get("summary")) or content_text(p.get("content"))
            if text:
                b.thinking(text, line)
            else:
                b.skip("reasoning with no readable text (encrypted only)")
        elif t in _CALL_ITEMS:
            self.call(line, p, t, ts)
        elif t in _OUTPUT_ITEMS:
            self.output(line, p, ts)
        elif t in _SKIPPED_ITEMS:
            b.skip(f"response_item {t}")
        else:
            b.unknown(f"response_item:{t}", p, line=line)

    def call(self, line: int, p: dict[str, Any], t: str, ts: str | None) -> None:
        b = self.b
        cid = _str(p.get("call_id")) or _str(p.get("id"))
        raw_args: str | None = None
        server = tool = None
        if t in ("function_call", "custom_tool_call") and not _str(p.get("name")):
            b.damaged(line, f"{t} without a name", p)
        if t == "function_call":
            name = _str(p.get("name")) or t
            ns = _str(p.get("namespace"))
            if ns and not name.startswith(ns):
                name = f"{ns}__{name}"
            arguments = p.get("arguments")
            decoded = _decoded(arguments) if type(arguments) is str and arguments[:1] == "{" else None
            if type(decoded) is dict:  # what decode_arguments gives for a JSON object's text
                args = decoded
            else:
                args, raw_args = decode_arguments(arguments)
            server, tool = split_mcp_name(name)
            kind = tool_kind(name)
        elif t == "custom_tool_call":
            name = _str(p.get("name")) or t
            inp = p.get("input")
            args = {"input": inp} if inp is not None else {}
            kind = tool_kind(name)
        elif t == "local_shell_call":
            name = t
            args = dict(_dict(p.get("action")))
            args.pop("type", None)
            kind = "shell"
        else:  # web_search_call: complete in itself, no output record
            name = t
            args = dict(_dict(p.get("action")))
            kind = "web_search"
        key = cid if cid is not None else f"@{line}"
        native = cid if cid is not None else f"line:{line}"
        if not b._call(key, native, name, kind, args, line, raw_args, server, tool, None, None, ts):
            b.skip(f"{t} repeating a known call_id")
            return
        if t == "web_search_call":
            b.result(key, text="", line=line, raw=p, status=_status(p.get("status")) or "completed", ended_at=ts)
            self.answered.add(key)
            return
        st = _status(p.get("status"))
        if st is not None and st != "completed":
            b.update_call(key, status=st)
        self.open[key] = None

    def output(self, line: int, p: dict[str, Any], ts: str | None) -> None:
        b = self.b
        cid = _str(p.get("call_id"))
        if cid is None:
            b.damaged(line, f"{p.get('type')} without a call_id", p)
            return
        if cid in self.answered:
            b.skip(f"{p.get('type')} repeating an answered call_id")
            return
        text, raw, code, is_error = _rollout_output(p.get("output"))
        end = self.ends.get(cid)
        status = None
        if end is not None:
            code, is_error, status = self._end_facts(end[1], code, is_error)
        elif code is None and not is_error and not (isinstance(raw, dict) and "success" in raw):
            # no exit code, no success flag, no end event (yet): how it went is not recorded
            status = "unrecorded"
        if b._result(cid, text, line, raw, is_error, code, status, ts) is not None:
            self.answered.add(cid)
            self.open.pop(cid, None)

    # -- event messages (UI events) ------------------------------------------------------------

    def event(self, line: int, p: dict[str, Any]) -> None:
        b = self.b
        t = p.get("type")
        if not isinstance(t, str):
            b.unknown("event_msg without type", p, line=line)
            return
        if t == "token_count":
            info = p.get("info")
            plain = _plain_usage(_dict(info).get("total_token_usage"))
            if plain is not None:  # the common case: no Usage made per event
                self.usage = plain
                return
            u = _openai_usage(_dict(info).get("total_token_usage"))
            if u is None:
                b.skip("token_count without usage (rate limits only)")
            else:
                b.unusable_usage(_dict(info).get("total_token_usage"), OPENAI_USAGE_KEYS, line)
                self.usage = u
            return
        if t in ("exec_command_end", "mcp_tool_call_end", "patch_apply_end"):
            cid = _str(p.get("call_id"))
            if cid is None:
                b.skip(f"event_msg {t} without call_id")
            elif cid in self.answered:
                self._apply_end(cid, line, p, self.b.call_info(cid))
            else:
                self.ends[cid] = (line, p)
            return
        if t == "task_started":
            self.turns += 1
            return
        if t == "task_complete":
            last = _str(p.get("last_agent_message"))
            if last is not None:
                self.task_complete = last
            return
        if t == "turn_aborted":
            b.note(f"turn aborted (line {line}): {_str(p.get('reason')) or 'no reason given'}")
            for key in self.open:
                b.update_call(key, status="interrupted")
            self.open.clear()
            return
        if t == "error":
            b.error(_str(p.get("message")) or "error", line)
            return
        if t in ("stream_error", "warning", "background_event"):
            b.note(f"codex {t} (line {line}): {_str(p.get('message')) or ''}".rstrip(": "))
            return
        if t in _EVENT_DUPLICATES:
            if t == "agent_message":
                msg = _str(p.get("message"))
                if msg is not None:
                    self.last_event_agent = msg
            b.skip(f"event_msg {t} (duplicate of the response_item {_EVENT_DUPLICATES[t]})")
            return
        if t in _EVENT_MIRRORS:
            b.skip(f"event_msg {t} (UI event; the response_items hold the facts)")
            return
        b.unknown(f"event_msg:{t}", p, line=line)

    @staticmethod
    def _end_facts(ev: dict[str, Any], code: int | None, is_error: bool) -> tuple[int | None, bool, str | None]:
        t = ev.get("type")
        status = _status(ev.get("status"))
        if t == "exec_command_end":
            c = as_int(ev.get("exit_code"))
            if c is not None:
                code = c
        elif t == "mcp_tool_call_end":
            _text, err = _mcp_outcome(ev.get("result"))
            is_error = is_error or err
        elif ev.get("success") is False:
            is_error = True
        if status == "completed" and (is_error or code not in (None, 0)):
            status = "failed"
        return code, is_error, status

    def _apply_end(self, cid: str, line: int, ev: dict[str, Any], info: Any) -> None:
        """Use an ``*_end`` event for a call: enrich its result, or give it one."""
        b = self.b
        prior = getattr(info, "result", None)
        if prior is not None:
            code, is_error, status = self._end_facts(ev, prior.exit_code, prior.is_error)
            if status is None:  # the end event records the outcome the output did not
                status = "failed" if is_error or code not in (None, 0) else "completed"
            b.result(
                cid, text=prior.text, line=prior.location.line if prior.location else line,
                raw=prior.raw, is_error=is_error, exit_code=code, status=status, replace=True,
            )
            return
        if ev.get("type") == "mcp_tool_call_end":
            text, _ = _mcp_outcome(ev.get("result"))
        else:
            agg = ev.get("aggregated_output")
            text = agg if isinstance(agg, str) else _join_output(ev.get("stdout"), ev.get("stderr"))
        code, is_error, status = self._end_facts(ev, None, False)
        if b.result(cid, text=text, line=line, raw=ev, is_error=is_error, exit_code=code, status=status):
            self.answered.add(cid)
            self.open.pop(cid, None)


class CodexRolloutParser:
    """``~/.codex/sessions/…/rollout-*.jsonl`` session rollouts."""

    name = "codex-rollout"
    agent = "codex"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        return codex_rollout_sniff(head, shape)

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        _RolloutRun(b).feed(records)
