"""Codex parsers: ``codex-exec`` (``codex exec --json``, three generations) and ``codex-rollout``.

Both parsers are *total* over JSON objects: every record is either turned into a step, used to
fill a transcript field, or counted (``TranscriptBuilder.skip`` / ``.unknown``); a field with the
wrong type is treated as absent. No per-record validation library is used on purpose: the reader
already decoded each line, and these parsers only look at a handful of keys per record (a pydantic
model per line would cost more than the whole parse and reject the damaged records we must keep).

See ``docs/formats-codex.md`` for the detection rules and what every model field is filled from.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from .._builder import TranscriptBuilder
from .._reader import Record, Shape
from ..model import Usage
from ._common import (
    CODEX_EXEC_TYPES,
    CODEX_ROLLOUT_TYPES,
    as_int,
    content_text,
    decode_arguments,
    split_mcp_name,
    tool_kind,
    types_in,
)

__all__ = ["CodexExecParser", "CodexRolloutParser"]


# -- shared helpers ----------------------------------------------------------------------------


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _openai_usage(d: Any) -> Usage | None:
    """An OpenAI/Codex token-usage object as a ``Usage``.

    OpenAI's ``input_tokens`` *includes* ``cached_input_tokens``; ``Usage.input_tokens`` is the
    uncached part (``input_tokens - cached_input_tokens``) so that ``Usage.total_tokens`` does
    not count cached tokens twice, the same meaning as Claude's ``input_tokens``.
    ``reasoning_output_tokens`` are part of ``output_tokens`` and reported separately as well.
    """
    if not isinstance(d, dict):
        return None
    inp = as_int(d.get("input_tokens"))
    cached = as_int(d.get("cached_input_tokens"))
    out = as_int(d.get("output_tokens"))
    write = as_int(d.get("cache_write_input_tokens"))
    reasoning = as_int(d.get("reasoning_output_tokens"))
    if inp is None and cached is None and out is None and write is None and reasoning is None:
        return None
    if inp is not None and cached is not None:
        inp = max(inp - cached, 0)
    return Usage(
        input_tokens=inp,
        output_tokens=out,
        cache_read_tokens=cached,
        cache_write_tokens=write,
        reasoning_tokens=reasoning,
    )


def _add_usage(a: Usage, b: Usage) -> Usage:
    def add(x: int | None, y: int | None) -> int | None:
        return None if x is None and y is None else (x or 0) + (y or 0)

    return Usage(
        input_tokens=add(a.input_tokens, b.input_tokens),
        output_tokens=add(a.output_tokens, b.output_tokens),
        cache_read_tokens=add(a.cache_read_tokens, b.cache_read_tokens),
        cache_write_tokens=add(a.cache_write_tokens, b.cache_write_tokens),
        reasoning_tokens=add(a.reasoning_tokens, b.reasoning_tokens),
    )


def _mcp_name(server: str | None, tool: str | None) -> str:
    """Codex MCP calls are named like Claude's: ``mcp__<server>__<tool>``."""
    if server and tool:
        return f"mcp__{server}__{tool}"
    return tool or "mcp_tool_call"


def _mcp_outcome(result: Any) -> tuple[str, bool]:
    """Text and error flag of an MCP ``CallToolResult``, plain or wrapped in ``{"Ok"|"Err": ...}``."""
    if isinstance(result, dict):
        if "Err" in result:
            err = result["Err"]
            return (err if isinstance(err, str) else content_text(err) or json.dumps(err)), True
        if "Ok" in result:
            result = result["Ok"]
        if isinstance(result, dict):
            is_error = result.get("isError") is True or result.get("is_error") is True
            return content_text(result.get("content")), is_error
    if isinstance(result, str):
        return result, False
    return content_text(result), False


def _join_output(stdout: Any, stderr: Any) -> str:
    out = stdout if isinstance(stdout, str) else ""
    err = stderr if isinstance(stderr, str) else ""
    if out and err and not out.endswith("\n"):
        return out + "\n" + err
    return out + err


# Exit codes stated in the text of a shell output (rollouts have no structured exit code since
# unified exec). Only the header of the output is searched, with anchored patterns.
_EXIT_TEXT = re.compile(
    r"^(?:Exit code: (-?\d+)$|Process exited with code (-?\d+)$|failed in sandbox [^\n]{0,200}?exit code: (-?\d+))",
    re.MULTILINE,
)
_EXIT_HEADER = 400


def _exit_code_from_text(text: str) -> int | None:
    """The exit code a Codex shell output states in its header, else ``None`` (never guessed)."""
    head = text[:_EXIT_HEADER]
    if "xit code" not in head and "exited with code" not in head:
        return None
    out_at = head.find("\nOutput:")
    if out_at >= 0:
        head = head[:out_at]
    m = _EXIT_TEXT.search(head)
    if m is None:
        return None
    return int(next(g for g in m.groups() if g is not None))


def _first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for k, v in pairs:
        d.setdefault(k, v)
    return d


class _LineRereader:
    """Re-reads lines of the source file, forward only, to re-parse them keeping the **first**
    value of duplicate keys (``json.loads`` keeps the last; Codex 0.157 ``web_search`` items carry
    ``"id":"item_2"`` then ``"id":"exec-…"``). Only used for the few lines whose item id does not
    look like ``item_N``, so the file is read a second time at most once, and usually never."""

    #: after this many re-reads that found no duplicate, the ids are just not ``item_N``: stop
    GIVE_UP = 64

    def __init__(self, path: str) -> None:
        self.path = path
        self._fh: IO[bytes] | None = None
        self._line = 0
        self._dead = not os.path.isfile(path)
        self._fruitless = 0

    def found(self, duplicate: bool) -> None:
        """Report whether the last re-read found a duplicate key (to stop re-reading in vain)."""
        self._fruitless = 0 if duplicate else self._fruitless + 1
        if self._fruitless >= self.GIVE_UP:
            self._dead = True
            self.close()

    def first_wins(self, n: int, record: dict[str, Any]) -> dict[str, Any] | None:
        """Line *n* re-parsed with first-wins keys, or ``None`` if it is not *record*'s line."""
        if self._dead:
            return None
        try:
            if self._fh is None or n <= self._line:
                self.close()
                self._fh = open(self.path, "rb")  # noqa: SIM115 - closed by close()
                self._line = 0
            raw = b""
            while self._line < n:
                raw = self._fh.readline()
                if not raw:
                    self._dead = True
                    return None
                self._line += 1
            if json.loads(raw) != record:  # not the line the reader gave us (e.g. a JSON array)
                return None
            first = json.loads(raw, object_pairs_hook=_first_wins)
        except (OSError, ValueError):
            self._dead = True
            return None
        return first if isinstance(first, dict) else None

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


_STATUS = {
    "completed": "completed",
    "success": "completed",
    "failed": "failed",
    "error": "failed",
    "declined": "declined",
    "rejected": "declined",
    "cancelled": "interrupted",
    "canceled": "interrupted",
    "interrupted": "interrupted",
    "aborted": "interrupted",
}


def _status(v: Any) -> str | None:
    """A Codex status as one of ``CALL_STATUSES``; ``None`` when unknown or still running."""
    return _STATUS.get(v) if isinstance(v, str) else None


# -- codex exec --json ---------------------------------------------------------------------------

_EXEC_TYPES = CODEX_EXEC_TYPES
_LEGACY_CONFIG_KEYS = frozenset(
    {"model", "sandbox", "approval", "provider", "reasoning effort", "reasoning summaries", "workdir"}
)
#: exec ``--json`` item types that are tool calls (the name of the call is the item type, MCP aside)
_TOOL_ITEMS = frozenset(
    {"command_execution", "file_change", "mcp_tool_call", "web_search", "todo_list", "collab_tool_call"}
)
_ITEM_ALIASES = {"assistant_message": "agent_message"}
_NATIVE_ID_PREFIXES = ("item_", "itm_")


def _tool_item_fields(kind: str, item: dict[str, Any]) -> tuple[str, str, dict[str, Any], str | None, str | None]:
    """``(name, kind, arguments, server, tool)`` of a tool item."""
    if kind == "command_execution":
        return kind, "shell", {"command": item.get("command")}, None, None
    if kind == "file_change":
        return kind, "file_edit", {"changes": item.get("changes")}, None, None
    if kind == "mcp_tool_call":
        server, tool = _str(item.get("server")), _str(item.get("tool"))
        args, _raw = decode_arguments(item.get("arguments"))
        return _mcp_name(server, tool), "mcp", args, server, tool
    if kind == "web_search":
        args = {k: item[k] for k in ("query", "action") if k in item}
        return kind, "web_search", args, None, None
    if kind == "todo_list":
        return kind, "todo", {"items": item.get("items")}, None, None
    # collab_tool_call: a Codex subagent operation (spawn_agent, send_input, wait, close_agent)
    args = {
        k: item[k]
        for k in ("tool", "prompt", "sender_thread_id", "receiver_thread_ids")
        if k in item
    }
    return kind, "subagent", args, None, None


def _render_lines(items: Any, render: Callable[[dict[str, Any]], str | None]) -> str:
    if not isinstance(items, list):
        return ""
    out = []
    for it in items:
        if isinstance(it, dict):
            s = render(it)
            if s:
                out.append(s)
        elif isinstance(it, str):
            out.append(it)
    return "\n".join(out)


def _change_line(c: dict[str, Any]) -> str | None:
    path = _str(c.get("path"))
    if path is None:
        return None
    kind = c.get("kind")
    if isinstance(kind, dict):  # some versions write {"type": "update", ...}
        kind = kind.get("type")
    return f"{kind} {path}" if isinstance(kind, str) else path


def _todo_line(t: dict[str, Any]) -> str | None:
    text = _str(t.get("text"))
    if text is None:
        return None
    return f"[{'x' if t.get('completed') is True else ' '}] {text}"


def _search_line(r: dict[str, Any]) -> str | None:
    parts = [p for p in (_str(r.get("title")), _str(r.get("url"))) if p]
    return " ".join(parts) or None


def _tool_item_result(kind: str, item: dict[str, Any]) -> tuple[str, Any, bool, int | None]:
    """``(text, raw, is_error, exit_code)`` of a completed tool item."""
    status = item.get("status")
    failed = status in ("failed", "declined")
    if kind == "command_execution":
        text = _str(item.get("aggregated_output")) or ""
        return text, item, failed, as_int(item.get("exit_code"))
    if kind == "mcp_tool_call":
        result = item.get("result")
        err = item.get("error")
        text, is_error = _mcp_outcome(result) if result is not None else ("", False)
        if err is not None:
            is_error = True
            msg = _str(_dict(err).get("message")) or (err if isinstance(err, str) else "")
            if msg and not text:
                text = msg
        return text, result if result is not None else err, is_error or failed, None
    if kind == "file_change":
        return _render_lines(item.get("changes"), _change_line), item, failed, None
    if kind == "web_search":
        return _render_lines(item.get("results"), _search_line), item, failed, None
    if kind == "todo_list":
        return _render_lines(item.get("items"), _todo_line), item, failed, None
    states = _dict(item.get("agents_states"))
    lines = []
    for tid, st in states.items():
        st = _dict(st)
        line = f"{tid}: {st.get('status', '?')}"
        said = _str(st.get("message"))
        lines.append(f"{line}: {said}" if said else line)
    return "\n".join(lines), item, failed, None


class _ExecRun:
    """State of one ``codex exec --json`` parse."""

    def __init__(self, b: TranscriptBuilder) -> None:
        self.b = b
        self.run = 0  # process runs: +1 at every thread.started / session.created
        self.turns = 0
        self.failed_turns = 0
        self.thread_ids: list[str] = []
        self.thread_usage: dict[str, Usage] = {}
        self.legacy_usage: Usage | None = None
        self.last_message: str | None = None
        self.last_plan: str | None = None
        self.task_complete: str | None = None
        self.last_error: str | None = None
        self.done: set[str] = set()
        self.open: dict[str, None] = {}  # keys of calls with no result yet, in order
        self.subagent_said: dict[str, str] = {}
        self.rereader = _LineRereader(b.path)
        self.dispatch: dict[str, Callable[[int, dict[str, Any]], None]] = {
            "thread.started": self.thread_started,
            "session.created": self.thread_started,
            "turn.started": self.turn_started,
            "turn.completed": self.turn_completed,
            "turn.failed": self.turn_failed,
            "item.started": self.item,
            "item.updated": self.item,
            "item.completed": self.item,
            "error": self.stream_error,
            "item.plan.delta": self.skip_type,
            "request_user_input": self.request_user_input,
        }

    # -- driver --------------------------------------------------------------------------------

    def feed(self, records: Iterator[Record]) -> None:
        try:
            for line, r in records:
                t = r.get("type")
                if isinstance(t, str):
                    if t.startswith("item."):
                        self.b.run_ended = False  # a step: the turn's end must come after it
                    elif t in ("turn.completed", "turn.failed"):
                        self.b.run_ended = True
                    h = self.dispatch.get(t)
                    if h is None:
                        self.b.unknown(t)
                    else:
                        h(line, r)
                elif isinstance(r.get("msg"), dict):
                    mt = r["msg"].get("type")
                    if mt in ("task_complete", "turn_aborted", "shutdown_complete"):
                        self.b.run_ended = True
                    elif isinstance(mt, str) and mt not in ("token_count", "error", "background_event"):
                        self.b.run_ended = False
                    self.legacy(line, r["msg"])
                elif "prompt" in r and len(r) <= 2:
                    self.legacy_prompt(line, r)
                elif _LEGACY_CONFIG_KEYS & r.keys():
                    self.legacy_config(line, r)
                else:
                    self.b.unknown("(record without type)")
        finally:
            self.rereader.close()
        self.finish()

    def finish(self) -> None:
        b = self.b
        if self.thread_usage:
            total = Usage()
            for u in self.thread_usage.values():
                total = _add_usage(total, u)
            b.usage = total
            b.usage_mode = "cumulative (thread total)"
        elif self.legacy_usage is not None:
            b.usage = self.legacy_usage
            b.usage_mode = self.legacy_usage_mode
        final = self.last_message
        if final is None:
            final = self.last_plan
        if final is None:
            final = self.task_complete
        b.set_final_response(final)
        if self.run:
            b.metadata["runs"] = self.run
        if self.turns:
            b.metadata["turns"] = self.turns
        if self.failed_turns:
            b.metadata["failed_turns"] = self.failed_turns
        if len(self.thread_ids) > 1:
            b.metadata["thread_ids"] = list(self.thread_ids)

    legacy_usage_mode = "summed per response"

    # -- current and intermediate shapes -------------------------------------------------------

    def skip_type(self, line: int, r: dict[str, Any]) -> None:
        self.b.skip(f"{r['type']} (streamed delta; the completed item carries the text)")

    def thread_started(self, line: int, r: dict[str, Any]) -> None:
        self.run += 1
        tid = _str(r.get("thread_id")) or _str(r.get("session_id"))
        if tid is not None:
            if self.b.session_id is None:
                self.b.session_id = tid
            if tid not in self.thread_ids:
                self.thread_ids.append(tid)
        if self.run > 1:
            self.b.note(
                f"{r['type']} re-emitted (resumed runs, see metadata['runs']): item ids restart "
                "in each run, calls are keyed by run and id"
            )

    def turn_started(self, line: int, r: dict[str, Any]) -> None:
        self.turns += 1

    def _close_turn(self) -> None:
        # Items still open when their turn ends will never complete.
        for key in self.open:
            self.b.update_call(key, status="interrupted")
        self.open.clear()

    def turn_completed(self, line: int, r: dict[str, Any]) -> None:
        self._close_turn()
        u = _openai_usage(r.get("usage"))
        if u is None:
            if "usage" in r:
                self.b.skip("turn.completed usage that is not a token-usage object")
            return
        # The usage is the thread's running total: the last one per thread wins.
        thread = self.thread_ids[-1] if self.thread_ids else ""
        self.thread_usage[thread] = u

    def turn_failed(self, line: int, r: dict[str, Any]) -> None:
        self._close_turn()
        self.failed_turns += 1
        err = r.get("error")
        msg = _str(_dict(err).get("message")) or (err if isinstance(err, str) else None) or "turn failed"
        if msg == self.last_error:
            self.b.skip("turn.failed repeating the preceding error event")
        else:
            self.b.error(msg, line)
        self.last_error = None

    def stream_error(self, line: int, r: dict[str, Any]) -> None:
        msg = _str(r.get("message")) or _str(_dict(r.get("error")).get("message")) or "error"
        self.b.error(msg, line)
        self.last_error = msg

    def request_user_input(self, line: int, r: dict[str, Any]) -> None:
        cid = _str(r.get("call_id")) or _str(r.get("id"))
        key = f"{self.run}:ask:{cid if cid is not None else '@' + str(line)}"
        args = {"questions": r.get("questions")}
        if self.b.call(
            key, id=cid or f"line:{line}", name="request_user_input", kind="ask_user",
            arguments=args, line=line,
        ):
            self.open[key] = None
        else:
            self.b.skip("request_user_input repeated")

    def _item_id(self, line: int, r: dict[str, Any], item: dict[str, Any]) -> str | None:
        iid = item.get("id")
        if isinstance(iid, str):
            if iid.startswith(_NATIVE_ID_PREFIXES):
                return iid
            # Maybe a duplicate "id" key (0.157 web_search): the first one is the item id.
            first = self.rereader.first_wins(line, r)
            if first is not None:
                fid = _dict(first.get("item")).get("id")
                self.rereader.found(fid != iid)
                if isinstance(fid, str) and fid != iid:
                    self.b.note(
                        f"duplicate JSON key \"id\" in items (first line {line}): the first value "
                        f"({fid!r}) is used, not the last ({iid!r})"
                    )
                    return fid
            return iid
        if isinstance(iid, int) and not isinstance(iid, bool):
            return str(iid)
        return None

    def item(self, line: int, r: dict[str, Any]) -> None:
        b = self.b
        ev: str = r["type"]
        item = r.get("item")
        if not isinstance(item, dict):
            b.skip(f"{ev} without an item object")
            return
        kind = item.get("type")
        if not isinstance(kind, str):
            kind = item.get("item_type")  # intermediate shape (Sep 2025)
        if not isinstance(kind, str):
            b.skip(f"{ev} item without a type")
            return
        kind = _ITEM_ALIASES.get(kind, kind)
        if kind in _TOOL_ITEMS:
            self.tool_item(ev, line, r, item, kind)
            return
        if kind not in ("agent_message", "reasoning", "plan", "error"):
            b.unknown(f"item:{kind}")
            return
        if ev != "item.completed":
            b.skip(f"{ev} of a {kind} item (the completed item carries the text)")
            return
        text = item.get("text")
        if kind == "error":
            msg = _str(item.get("message")) or _str(text) or "error item"
            b.note(f"codex error item (line {line}): {msg}")
            return
        if not isinstance(text, str):
            text = content_text(text)
        if kind == "reasoning":
            if text:
                b.thinking(text, line)
            else:
                b.skip("reasoning item with no text")
            return
        b.message("assistant", text, line)
        if kind == "agent_message":
            self.last_message = text
        else:
            self.last_plan = text

    def tool_item(self, ev: str, line: int, r: dict[str, Any], item: dict[str, Any], kind: str) -> None:
        b = self.b
        iid = self._item_id(line, r, item)
        if iid is None:
            if ev != "item.completed":
                b.skip(f"{ev} of a {kind} item without id (cannot be paired; its item.completed counts)")
                return
            key, native = f"{self.run}:@{line}", f"line:{line}"
        else:
            key, native = f"{self.run}:{iid}", iid
        if key in self.done:
            b.skip(f"{ev} of an item already completed")
            return
        name, ckind, args, server, tool = _tool_item_fields(kind, item)
        if kind == "collab_tool_call":
            self.collab(line, item, native, ev == "item.completed")
        if b.call_info(key) is None:
            b.call(key, id=native, name=name, kind=ckind, arguments=args, line=line, server=server, tool=tool)
            self.open[key] = None
        else:
            # The latest version of the item is authoritative; the first event kept its order.
            b.update_call(key, name=name, kind=ckind, arguments=args, server=server, tool=tool)
        if ev != "item.completed":
            return
        text, raw, is_error, exit_code = _tool_item_result(kind, item)
        st = _status(item.get("status"))
        if st == "completed" and is_error:
            st = "failed"
        b.result(key, text=text, line=line, raw=raw, is_error=is_error, exit_code=exit_code, status=st)
        self.done.add(key)
        self.open.pop(key, None)

    def collab(self, line: int, item: dict[str, Any], call_id: str, completed: bool) -> None:
        prompt = _str(item.get("prompt"))
        receivers = item.get("receiver_thread_ids")
        if isinstance(receivers, list):
            for tid in receivers:
                if isinstance(tid, str):
                    self.b.subagent(
                        tid,
                        parent_call_id=call_id if item.get("tool") == "spawn_agent" else None,
                        description=prompt if item.get("tool") == "spawn_agent" else None,
                    )
        if not completed:
            return
        for tid, st in _dict(item.get("agents_states")).items():
            msg = _str(_dict(st).get("message"))
            if msg and self.subagent_said.get(tid) != msg:
                self.subagent_said[tid] = msg
                self.b.subagent(tid)
                self.b.message("assistant", msg, line, agent_id=tid)

    # -- legacy shape (<= 0.43): config line, {"prompt"}, {"id", "msg": {...}} -----------------

    def legacy_config(self, line: int, r: dict[str, Any]) -> None:
        if "config" in self.b.metadata:
            self.b.skip("repeated legacy config line")
            return
        self.b.metadata["config"] = r
        model = _str(r.get("model"))
        if model and self.b.model is None:
            self.b.model = model

    def legacy_prompt(self, line: int, r: dict[str, Any]) -> None:
        p = r.get("prompt")
        self.b.message("user", p if isinstance(p, str) else content_text(p), line)

    def legacy(self, line: int, msg: dict[str, Any]) -> None:
        b = self.b
        t = msg.get("type")
        if not isinstance(t, str):
            b.skip("legacy event without a msg.type")
            return
        cid = _str(msg.get("call_id"))
        key = f"L:{cid}" if cid is not None else f"L:@{line}"
        native = cid if cid is not None else f"line:{line}"
        if t == "session_configured":
            sid = _str(msg.get("session_id"))
            if sid and b.session_id is None:
                b.session_id = sid
            model = _str(msg.get("model"))
            if model:
                b.model = model
        elif t == "task_started":
            self.turns += 1
        elif t == "task_complete":
            last = _str(msg.get("last_agent_message"))
            if last is not None:
                self.task_complete = last
            self._close_turn()
        elif t == "agent_message":
            text = _str(msg.get("message")) or ""
            b.message("assistant", text, line)
            self.last_message = text
        elif t == "user_message":
            b.message("user", _str(msg.get("message")) or "", line)
        elif t == "agent_reasoning":
            text = _str(msg.get("text")) or ""
            if text:
                b.thinking(text, line)
            else:
                b.skip("agent_reasoning with no text")
        elif t.endswith("_delta"):
            b.skip(f"legacy {t} (streamed delta)")
        elif t == "exec_command_begin":
            args: dict[str, Any] = {"command": msg.get("command")}
            if "cwd" in msg:
                args["cwd"] = msg["cwd"]
            self._legacy_call(key, native, "command_execution", "shell", args, line)
        elif t == "exec_command_end":
            agg = msg.get("aggregated_output")
            text = agg if isinstance(agg, str) else _join_output(msg.get("stdout"), msg.get("stderr"))
            code = as_int(msg.get("exit_code"))
            self._legacy_result(key, line, text=text, raw=msg, is_error=False, exit_code=code)
        elif t == "mcp_tool_call_begin":
            inv = _dict(msg.get("invocation"))
            server, tool = _str(inv.get("server")), _str(inv.get("tool"))
            margs, _ = decode_arguments(inv.get("arguments"))
            self._legacy_call(key, native, _mcp_name(server, tool), "mcp", margs, line, server, tool)
        elif t == "mcp_tool_call_end":
            text, is_error = _mcp_outcome(msg.get("result"))
            self._legacy_result(key, line, text=text, raw=msg.get("result"), is_error=is_error)
        elif t == "patch_apply_begin":
            self._legacy_call(key, native, "file_change", "file_edit", {"changes": msg.get("changes")}, line)
        elif t == "patch_apply_end":
            text = _join_output(msg.get("stdout"), msg.get("stderr"))
            self._legacy_result(key, line, text=text, raw=msg, is_error=msg.get("success") is False)
        elif t == "web_search_begin":
            self._legacy_call(key, native, "web_search", "web_search", {}, line)
        elif t == "web_search_end":
            if b.call_info(key) is not None:
                b.update_call(key, arguments={"query": msg.get("query")})
            else:
                self._legacy_call(key, native, "web_search", "web_search", {"query": msg.get("query")}, line)
            self._legacy_result(key, line, text="", raw=msg, is_error=False)
        elif t == "token_count":
            self.legacy_token_count(msg)
        elif t == "error":
            b.error(_str(msg.get("message")) or "error", line)
        elif t in ("stream_error", "background_event", "warning"):
            b.note(f"codex {t} (line {line}): {_str(msg.get('message')) or ''}".rstrip(": "))
        elif t == "turn_aborted":
            b.note(f"turn aborted (line {line}): {_str(msg.get('reason')) or 'no reason given'}")
            self._close_turn()
        elif t in _LEGACY_SKIPPED:
            b.skip(f"legacy {t}")
        else:
            b.unknown(f"msg:{t}")

    def _legacy_call(
        self, key: str, native: str, name: str, kind: str, args: dict[str, Any], line: int,
        server: str | None = None, tool: str | None = None,
    ) -> None:
        if self.b.call(key, id=native, name=name, kind=kind, arguments=args, line=line, server=server, tool=tool):
            self.open[key] = None
        else:
            self.b.skip(f"repeated {name} begin event for one call_id")

    def _legacy_result(
        self, key: str, line: int, *, text: str, raw: Any, is_error: bool, exit_code: int | None = None
    ) -> None:
        if key in self.done:
            self.b.skip("repeated end event for one call_id")
            return
        if self.b.result(key, text=text, line=line, raw=raw, is_error=is_error, exit_code=exit_code):
            self.done.add(key)
            self.open.pop(key, None)

    def legacy_token_count(self, msg: dict[str, Any]) -> None:
        info = msg.get("info")
        if isinstance(info, dict):  # {total_token_usage, last_token_usage}: cumulative
            u = _openai_usage(info.get("total_token_usage"))
            if u is not None:
                self.legacy_usage = u
                self.legacy_usage_mode = "cumulative (thread total)"
                return
        u = _openai_usage(msg)  # flat TokenUsage of one response: summed
        if u is None:
            self.b.skip("token_count without usage")
            return
        self.legacy_usage = u if self.legacy_usage is None else _add_usage(self.legacy_usage, u)


_LEGACY_SKIPPED = frozenset(
    {
        "exec_approval_request",
        "apply_patch_approval_request",
        "turn_diff",
        "get_history_entry_response",
        "shutdown_complete",
        "plan_update",
        "mcp_list_tools_response",
        "list_custom_prompts_response",
        "agent_reasoning_raw_content",
        "agent_reasoning_section_break",
        "conversation_path",
        "entered_review_mode",
        "exited_review_mode",
    }
)


class CodexExecParser:
    """``codex exec --json``: current (thread/turn/item events), intermediate and legacy shapes."""

    name = "codex-exec"
    agent = "codex"

    def sniff(self, head: Sequence[Record], shape: Shape) -> str | None:
        if types_in(head) & _EXEC_TYPES:
            return None
        for _, r in head:
            if "type" in r:
                continue
            msg = r.get("msg")
            if isinstance(msg, dict) and isinstance(msg.get("type"), str):
                return None  # legacy {"id", "msg": {"type": ...}}
            if len(_LEGACY_CONFIG_KEYS & r.keys()) >= 2:
                return None  # legacy config summary line
        if head and all(
            r.get("type") == "error" and isinstance(r.get("message"), str) and len(r) == 2 for _, r in head
        ):
            return None  # a run that failed before its first turn event
        return (
            "no Codex exec event (thread.started, turn.*, item.*, session.created) nor legacy "
            '{"id", "msg"} record in the first records'
        )

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        _ExecRun(b).feed(records)


# -- codex rollouts ----------------------------------------------------------------------------

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
_CALL_ITEMS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "web_search_call"})
_OUTPUT_ITEMS = frozenset({"function_call_output", "custom_tool_call_output"})
_SKIPPED_ITEMS = frozenset({"ghost_snapshot", "compaction", "compaction_summary"})


def _rollout_output(out: Any) -> tuple[str, Any, int | None, bool]:
    """``(text, raw, exit_code, is_error)`` of a ``function_call_output.output``."""
    if isinstance(out, str):
        if out[:1] in ("{", "["):
            try:
                dec = json.loads(out)
            except ValueError:
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
        self.usage: Usage | None = None
        self.last_assistant: str | None = None
        self.last_event_agent: str | None = None
        self.task_complete: str | None = None
        self.event_messages = 0
        self.open: dict[str, None] = {}
        self.ends: dict[str, tuple[int, dict[str, Any]]] = {}  # call_id -> *_end event
        self.answered: set[str] = set()
        self.compactions = 0

    def feed(self, records: Iterator[Record]) -> None:
        b = self.b
        for line, r in records:
            t = r.get("type")
            p = r.get("payload")
            if not isinstance(t, str):
                b.unknown("(record without type)")
                continue
            if not isinstance(p, dict):
                if t in _ROLLOUT_TYPES:
                    b.skip(f"{t} without a payload object")
                else:
                    b.unknown(t)
                continue
            ts = _str(r.get("timestamp"))
            if t == "response_item":
                self.response_item(line, p, ts)
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
                b.unknown(t)
        self.finish()

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
            b.usage = self.usage
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
            b.unknown("response_item without type")
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
            b.unknown(f"response_item:{t}")

    def call(self, line: int, p: dict[str, Any], t: str, ts: str | None) -> None:
        b = self.b
        cid = _str(p.get("call_id")) or _str(p.get("id"))
        raw_args: str | None = None
        server = tool = None
        if t == "function_call":
            name = _str(p.get("name")) or t
            ns = _str(p.get("namespace"))
            if ns and not name.startswith(ns):
                name = f"{ns}__{name}"
            args, raw_args = decode_arguments(p.get("arguments"))
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
        if not b.call(
            key, id=native, name=name, kind=kind, arguments=args, line=line,
            raw_arguments=raw_args, server=server, tool=tool, started_at=ts,
        ):
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
            b.skip(f"{p.get('type')} without call_id")
            return
        if cid in self.answered:
            b.skip(f"{p.get('type')} repeating an answered call_id")
            return
        text, raw, code, is_error = _rollout_output(p.get("output"))
        end = self.ends.get(cid)
        status = None
        if end is not None:
            code, is_error, status = self._end_facts(end[1], code, is_error)
        if b.result(cid, text=text, line=line, raw=raw, is_error=is_error, exit_code=code, status=status, ended_at=ts):
            self.answered.add(cid)
            self.open.pop(cid, None)

    # -- event messages (UI events) ------------------------------------------------------------

    def event(self, line: int, p: dict[str, Any]) -> None:
        b = self.b
        t = p.get("type")
        if not isinstance(t, str):
            b.unknown("event_msg without type")
            return
        if t == "token_count":
            info = p.get("info")
            u = _openai_usage(_dict(info).get("total_token_usage"))
            if u is None:
                b.skip("token_count without usage (rate limits only)")
            else:
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
        b.unknown(f"event_msg:{t}")

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
            b.result(
                cid, text=prior.text, line=prior.location.line if prior.location else line,
                raw=prior.raw, is_error=is_error, exit_code=code, status=status,
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
        for _, r in head:
            t = r.get("type")
            if isinstance(t, str) and t in _ROLLOUT_TYPES and isinstance(r.get("payload"), dict):
                return None
        return (
            'no {"type": "session_meta"|"response_item"|"event_msg"|"turn_context", "payload": {...}} '
            "record in the first records"
        )

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        _RolloutRun(b).feed(records)
