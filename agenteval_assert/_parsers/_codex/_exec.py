"""The ``codex-exec`` parser: ``codex exec --json`` event streams, all three generations (the
``thread.started``/``item.*`` events and the legacy ``{id, msg}`` protocol).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any

from ..._builder import TranscriptBuilder, _message, _thinking
from ..._reader import Record, Shape
from ...model import Usage
from .._common import CODEX_EXEC_TYPES, as_int, content_text, decode_arguments
from .._sniff import CODEX_LEGACY_CONFIG_KEYS, codex_exec_sniff
from ._shared import (
    _STATUS,
    OPENAI_USAGE_KEYS,
    _add_usage,
    _dict,
    _join_output,
    _LineRereader,
    _mcp_name,
    _mcp_outcome,
    _openai_usage,
    _plain_usage,
    _str,
)

__all__ = [
    "CodexExecParser",
]


_EXEC_TYPES = CODEX_EXEC_TYPES
_LEGACY_CONFIG_KEYS = CODEX_LEGACY_CONFIG_KEYS
#: exec ``--json`` item types that are tool calls (the name of the call is the item type, MCP aside),
#: each mapped to itself: the calls and the items they keep share these strings (a 100 MB log
#: has a hundred thousand tool items, each with its own decoded copy of its type otherwise)
_TOOL_ITEMS = {k: k for k in (
    "command_execution", "file_change", "mcp_tool_call", "web_search", "todo_list", "collab_tool_call")}

_ITEM_ALIASES = {"assistant_message": "agent_message"}
#: What a record type says of the run's end (``Health.run_ended``): a step or a run started
#: (False: the turn's end must follow), a turn ended (True).
_ENDS: dict[str, bool] = {
    "item.started": False, "item.updated": False, "item.completed": False, "item.plan.delta": False,
    "turn.started": False,
    "thread.started": False, "session.created": False, "turn.completed": True, "turn.failed": True,
}
_NATIVE_ID_PREFIXES = ("item_", "itm_")
#: counts at or above this are no counts, and do not fit a row of ``_ExecRun.totals``
_MAX_COUNT = 1 << 63
#: the keys of the runs before are forgotten when this many are kept (``_ExecRun.forget_run``):
#: a bounded set, forgotten in batches (not at every run: most runs make a call or two)
_FORGET_BATCH = 2048
#: how many of the last threads ``_ExecRun.row_of`` looks through for a resumed one
_RESUME_SCAN = 64
#: ``None`` in a row of ``_ExecRun.totals`` (which holds counts below 2**63): an unsigned
#: array, whose items are stored without the argument parsing a signed one does per item
_NONE = (1 << 64) - 1
#: a row of ``_ExecRun.totals`` that counts nothing
_NO_TOTAL = array("Q", [_NONE] * 5)
#: ``item_0``, ``item_1``...: the id that follows an item in its run, made once
_ITEM_IDS = [f"item_{n}" for n in range(4096)]
_LAST_ITEM_ID = len(_ITEM_IDS) - 2  # the last n whose item_{n + 1} is in _ITEM_IDS
#: ``item_N`` → N, for those ids: a look-up instead of reading the digits
_ITEM_NUMBERS = {iid: n for n, iid in enumerate(_ITEM_IDS)}
#: ``item_N`` → the same string of ``_ITEM_IDS``: a call's id and its item's are that one string,
#: not a decoded copy per item (a 100 MB log has 77,000 tool items, their ids restarting in
#: every resumed run)
_SHARED_ITEM_IDS = {iid: iid for iid in _ITEM_IDS}


def _key_sharing(keys: tuple[str, ...]) -> Callable[..., Any]:
    """A class whose ``cls(*values).__dict__`` is ``dict(zip(keys, values))`` (*values* of
    *keys*, in order): the ``__dict__`` of an instance of a class of its own, which CPython makes a key-sharing
    dictionary (PEP 412): the keys and their table are held once by the class, each dict holds
    its values (a one-key ``arguments``: 96 bytes, not 192; a six-key item: 144, not 272). It is
    a ``dict`` like any other (equal, same order, mutable: a key added or removed makes it an
    ordinary one); only its memory differs, and on another interpreter it is an ordinary dict.
    *keys* are identifiers, none of them a dunder name."""
    assert all(k.isidentifier() and not k.startswith("__") for k in keys)
    params = ", ".join(f"v{i}" for i in range(len(keys)))
    body = "".join(f"    self.{k} = v{i}\n" for i, k in enumerate(keys))
    env: dict[str, Any] = {}
    exec(f"def __init__(self, {params}):\n{body}", env)  # noqa: S102 - from the identifiers above
    return type("_SharedKeys", (), {"__init__": env["__init__"]})


#: a call's arguments ``{"command": ...}`` and ``{"changes": ...}``, key-sharing
_command_arguments = _key_sharing(("command",))
_changes_arguments = _key_sharing(("changes",))


def _item_id_after(n: int) -> str:
    """The id ``item_{n + 1}``."""
    return _ITEM_IDS[n + 1] if n + 1 < len(_ITEM_IDS) else f"item_{n + 1}"


def _tool_item_fields(kind: str, item: dict[str, Any], kept: bool = False,
                      ) -> tuple[str, str, dict[str, Any], str | None, str | None]:
    """``(name, kind, arguments, server, tool)`` of a tool item (*kept*: the call keeps these
    arguments, a completed item's: a command's or a file change's are key-sharing)."""
    if kind == "command_execution":
        command = item.get("command")
        return kind, "shell", _command_arguments(command).__dict__ if kept else {"command": command}, None, None
    if kind == "file_change":
        changes = item.get("changes")
        return kind, "file_edit", _changes_arguments(changes).__dict__ if kept else {"changes": changes}, None, None
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
        #: every thread, in order (a dict: 25,000 resumed runs stay linear); a thread's place
        #: in it is its row in ``totals``
        self.thread_ids: dict[str, None] = {}
        #: the row of ``current_thread`` (``None``: no thread named yet)
        self.current_row: int | None = None
        #: every thread's row, made when a thread resumed is not among the last ones (``row_of``)
        self.rows: dict[str, int] | None = None
        #: the thread of the process run being read: the id of the last thread.started that
        #: named one ("" before any), whether first seen there or resumed
        self.current_thread = ""
        #: each thread's running total, the last one read: five counts a row (input, output,
        #: cache read, cache write, reasoning: the fields of its ``Usage``; ``_NONE`` for ``None``), in
        #: one array: 40 bytes a thread, not a tuple of five objects (a 100 MB log has 180,000
        #: resumed runs, each with its thread). The rows past its end count nothing.
        self.totals = array("Q")
        #: the running totals that have no row: a thread's whose counts a row cannot hold (a
        #: negative count, 2**63 or more), the total of the run before any thread.started
        self.odd_totals: dict[str, tuple[int | None, ...]] = {}
        self.any_total = False  # a running total was read
        self.noted_runs: set[str] = set()  # the record types whose resumed runs are noted
        self.legacy_usage: Usage | None = None
        self.last_message: str | None = None
        self.last_plan: str | None = None
        self.task_complete: str | None = None
        self.last_error: str | None = None
        self.done: set[str] = set()  # the legacy calls answered (a tool item's: its call has a result)
        self.open: dict[str, None] = {}  # keys of calls with no result yet, in order
        #: the keys of the calls of the process runs since the last ``forget_run``, and of the
        #: calls still open before it
        self.run_keys: list[str] = []
        self.subagent_said: dict[str, str] = {}
        #: the highest ``item_N`` number of the current process run (-1: none yet)
        self.max_item = -1
        self.last_item: str | None = None  # the id item_sequence saw last
        self.next_item = "item_0"  # the id that continues the sequence (item_{max_item + 1})
        self.rereader = _LineRereader(b.path)
        #: item records with a duplicate "id" key: (first line, first value, last value, count)
        self.duplicate_ids: tuple[int, str, str, int] | None = None

    def dispatch(self) -> dict[str, Callable[[int, dict[str, Any]], None]]:
        """The handler of each record type. Made per parse, never kept on ``self``: a bound
        method kept by its own object is a reference cycle, and the state of a parse (the
        threads, their totals: megabytes at 100 MB) would wait for the cyclic collector, which
        the parse holds off and a command-line process turns off."""
        return {
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
        b = self.b
        # per type: its handler, and what it says of the run's end (False: a step, or a run
        # started, so the turn's end must follow; True: a turn ended; None: nothing)
        route: dict[str, tuple[Callable[[int, dict[str, Any]], None] | None, bool | None]] = {
            t: (h, _ENDS.get(t)) for t, h in self.dispatch().items()}
        route["turn.started"] = (None, False)  # turn_started, inline: counted in turns
        turns = 0
        ended = b.run_ended  # what the last record that says so says (the builder's at the end)
        try:
            for line, r in records:
                t = r.get("type")
                if type(t) is str:  # JSON makes no subclass of str
                    e = route.get(t)
                    if e is not None:
                        h, ends = e
                        if ends is not None:
                            ended = ends
                        if h is None:
                            turns += 1
                        else:
                            h(line, r)
                        continue
                    if t.startswith("item."):
                        ended = False
                    b.unknown(t, r, line=line, record=True)
                elif isinstance(r.get("msg"), dict):
                    mt = r["msg"].get("type")
                    if mt in ("task_complete", "turn_aborted", "shutdown_complete"):
                        ended = True
                    elif isinstance(mt, str) and mt not in ("token_count", "error", "background_event"):
                        ended = False
                    self.legacy(line, r["msg"])
                elif "prompt" in r and len(r) <= 2:
                    self.legacy_prompt(line, r)
                elif _LEGACY_CONFIG_KEYS & r.keys():
                    self.legacy_config(line, r)
                else:
                    b.unknown("(record without type)", r, line=line, record=True)
        finally:
            b.run_ended = ended
            self.turns += turns
            self.rereader.close()
        self.finish()

    def finish(self) -> None:
        b = self.b
        if self.duplicate_ids is not None:
            line, fid, iid, n = self.duplicate_ids
            lines = f"line {line}" if n == 1 else f"{n} item records, the first at line {line}"
            b.note(f"duplicate JSON key \"id\" in items ({lines}): the first value is used, not the "
                   f"last ({fid!r}, not {iid!r})")
        if self.any_total:
            # the threads' totals summed, field by field (what _add_usage gives, one object)
            sums: list[int | None] = [None] * 5
            totals = self.totals
            rows = len(totals) // 5
            for i in range(5):
                column = totals[i::5]
                absent = column.count(_NONE)
                if absent < rows:
                    sums[i] = sum(column) - absent * _NONE  # each None taken back out
            for fields in self.odd_totals.values():
                for i, v in enumerate(fields):
                    if v is not None:
                        got = sums[i]
                        sums[i] = v if got is None else got + v
            b.usage = Usage(*sums)
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

    def item_sequence(self, line: int, item: dict[str, Any]) -> None:
        """``item_N`` ids count up in each process run: an id that skips numbers after the run's
        first item means item records are missing (a line deleted, or a stream cut and pasted).
        A run whose first id is not ``item_0`` is not flagged: hand-written and scrubbed streams
        often start further on."""
        iid = item.get("id")
        if iid == self.last_item or not isinstance(iid, str) or not iid.startswith("item_"):
            return  # the same item again (started, updated, completed): nothing new to compare
        self.last_item = iid
        n = _ITEM_NUMBERS.get(iid)
        if n is None:
            digits = iid[5:]
            if not digits.isdigit() or not digits.isascii() or len(digits) > 9:
                return
            n = int(digits)
        if self.max_item >= 0 and n > self.max_item + 1:
            gap = n - self.max_item - 1
            self.b.damaged(line, f"item ids jump from item_{self.max_item} to {iid}: {gap} item record(s) "
                           "missing", None)
        self.max_item = max(self.max_item, n)
        self.next_item = _item_id_after(self.max_item)

    def forget_run(self) -> None:
        """A new process run starts: the keys of the runs before hold their numbers, so no
        record can give them again. The builder forgets them (a file of 180,000
        resumed runs keeps the keys of a few), all but those of calls still open, which the end
        of a turn closes (``_close_turn``)."""
        keys, open_ = self.run_keys, self.open
        if open_:
            gone = [key for key in keys if key not in open_]
            self.run_keys = [key for key in keys if key in open_]
        else:
            gone, self.run_keys = keys, []
        self.b._forget(gone)

    def thread_started(self, line: int, r: dict[str, Any]) -> None:
        if len(self.run_keys) >= _FORGET_BATCH:
            self.forget_run()
        self.max_item = -1
        self.last_item = None
        self.next_item = "item_0"
        self.run += 1
        tid = r.get("thread_id")
        if not isinstance(tid, str) or not tid:  # _str(thread_id) or _str(session_id)
            tid = _str(r.get("session_id")) if "session_id" in r else None
        if tid is not None:
            if self.b.session_id is None:
                self.b.session_id = tid
            ids = self.thread_ids
            if tid not in ids:
                row = len(ids)
                ids[tid] = None
                if self.rows is not None:
                    self.rows[tid] = row
                self.current_row = row
            elif tid != self.current_thread:  # a thread resumed (the same one again keeps its row)
                self.current_row = self.row_of(tid)
            self.current_thread = tid
        if self.run > 1 and r["type"] not in self.noted_runs:
            self.noted_runs.add(r["type"])
            self.b.note(
                f"{r['type']} re-emitted (resumed runs, see metadata['runs']): item ids restart "
                "in each run, calls are keyed by run and id"
            )

    def row_of(self, tid: str) -> int:
        """The row of thread *tid*, resumed: its place in ``thread_ids``, looked for among the
        last ``_RESUME_SCAN`` threads (a resumed thread is most often a recent one), else in
        ``rows``, made once (then kept up to date)."""
        ids = self.thread_ids
        rows = self.rows
        if rows is None:
            last = len(ids) - 1
            for back, t in enumerate(islice(reversed(ids), _RESUME_SCAN)):
                if t == tid:
                    return last - back
            rows = self.rows = {t: row for row, t in enumerate(ids)}
        return rows[tid]

    def turn_started(self, line: int, r: dict[str, Any]) -> None:
        self.turns += 1

    def _close_turn(self) -> None:
        # Items still open when their turn ends will never complete.
        for key in self.open:
            self.b.update_call(key, status="interrupted")
        self.open.clear()

    def turn_completed(self, line: int, r: dict[str, Any]) -> None:
        d = r.get("usage")
        if type(d) is dict and not self.open and not self.odd_totals:
            # the common turn: no call open, and a usage of the plain counts codex writes (input,
            # cached input, output; the newer add cache write and reasoning: what _plain_usage
            # reads, with no other key) set as the next or the last row of totals, as below
            n = len(d)
            inp, cached, out = d.get("input_tokens"), d.get("cached_input_tokens"), d.get("output_tokens")
            write: Any
            reasoning: Any
            if n == 3:
                write = reasoning = 0
            elif n == 5:
                write, reasoning = d.get("cache_write_input_tokens"), d.get("reasoning_output_tokens")
            else:
                write = None
            if (type(inp) is int and type(cached) is int and type(out) is int and type(write) is int
                    and type(reasoning) is int and 0 <= inp < _MAX_COUNT and 0 <= cached < _MAX_COUNT
                    and 0 <= out < _MAX_COUNT and 0 <= write < _MAX_COUNT and 0 <= reasoning < _MAX_COUNT):
                totals = self.totals
                row, rows = self.current_row, len(totals) // 5
                if row == rows or row == rows - 1:
                    if row != rows:
                        del totals[-5:]
                    if n == 3:
                        write = reasoning = _NONE
                    totals.extend((inp - cached if inp > cached else 0, out, cached, write, reasoning))
                    self.any_total = True
                    return
        if self.open:
            self._close_turn()
        # The usage is the thread's running total: the last one per thread wins, credited to the
        # thread of this process run (a resumed earlier thread too).
        plain = _plain_usage(d)  # the common case, once per turn: no Usage made per turn
        if plain is not None:
            totals = self.totals
            row, rows = self.current_row, len(totals) // 5
            if (row == rows or row == rows - 1) and not self.odd_totals:  # the next or the last row: set_total, inline
                if row != rows:  # the thread of the last row again (a run resumed at once)
                    del totals[-5:]
                inp, out, cached, write, reasoning = plain
                totals.extend((inp, out, cached, _NONE if write is None else write,
                               _NONE if reasoning is None else reasoning))
                self.any_total = True
                return
            self.set_total(plain, True)
            return
        u = _openai_usage(d)
        if u is None:
            if "usage" in r:
                self.b.skip("turn.completed usage that is not a token-usage object")
            return
        self.b.unusable_usage(d, OPENAI_USAGE_KEYS, line)
        fields = (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens, u.reasoning_tokens)
        self.set_total(fields, all(v is None or (type(v) is int and 0 <= v < _MAX_COUNT) for v in fields))

    def set_total(self, fields: tuple[int | None, ...], fits: bool) -> None:
        """The current thread's running total is now *fields* (*fits*: each is ``None`` or a
        count below 2**63, which a row of ``totals`` holds)."""
        self.any_total = True
        tid, row, totals = self.current_thread, self.current_row, self.totals
        if not fits or row is None:
            self.odd_totals[tid] = fields
            if row is not None and 5 * row < len(totals):  # its row counts no more
                totals[5 * row : 5 * row + 5] = _NO_TOTAL
            return
        if self.odd_totals:
            self.odd_totals.pop(tid, None)
        inp, out, cached, write, reasoning = fields
        counts = array("Q", (_NONE if inp is None else inp, _NONE if out is None else out,
                             _NONE if cached is None else cached, _NONE if write is None else write,
                             _NONE if reasoning is None else reasoning))
        have = len(totals) // 5
        if row >= have:
            totals.extend(_NO_TOTAL * (row - have))  # the rows of threads with no total yet
            totals.extend(counts)
        else:
            totals[5 * row : 5 * row + 5] = counts

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
            self.run_keys.append(key)
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
                    if self.duplicate_ids is None:  # noted once, at the end, with a count
                        self.duplicate_ids = (line, fid, iid, 0)
                    first_line, first_fid, first_iid, n = self.duplicate_ids
                    self.duplicate_ids = (first_line, first_fid, first_iid, n + 1)
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
            b.damaged(line, f"{ev} without an item object", item)
            return
        iid = item.get("id")
        if iid != self.last_item:  # the same item again: nothing new (item_sequence)
            if iid == self.next_item:  # the next in the sequence: what item_sequence concludes
                self.last_item = iid
                n = self.max_item = self.max_item + 1
                self.next_item = _ITEM_IDS[n + 1] if n < _LAST_ITEM_ID else f"item_{n + 1}"
            else:
                self.item_sequence(line, item)
        kind = item.get("type")
        if ev == "item.completed" and (kind == "agent_message" or kind == "reasoning"):
            # the common text items, what the lines below do with them
            text = item.get("text")
            if not isinstance(text, str):
                text = content_text(text)
            steps = b._steps
            if kind == "agent_message":  # b.message("assistant", text, line), inline
                if text:
                    b._last_text[None] = text
                    if not text.isspace():
                        b._main_text_step = len(steps)
                steps.append(_message("assistant", text, b._where, line, len(steps), None, False, None))
                self.last_message = text
            elif text:  # b.thinking(text, line), inline
                steps.append(_thinking(text, b._where, line, len(steps), None))
            else:
                b.skip("reasoning item with no text")
            return
        if not isinstance(kind, str):
            kind = item.get("item_type")  # intermediate shape (Sep 2025)
        if not isinstance(kind, str):
            b.damaged(line, f"{ev} item without a type", item)
            return
        kind = _ITEM_ALIASES.get(kind, kind)
        tool_kind = _TOOL_ITEMS.get(kind)
        if tool_kind is not None:
            self.tool_item(ev, line, r, item, tool_kind)
            return
        if kind not in ("agent_message", "reasoning", "plan", "error"):
            b.unknown(f"item:{kind}", item, line=line)
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
        iid = item.get("id")
        if type(iid) is not str or not iid.startswith(_NATIVE_ID_PREFIXES):  # else _item_id gives it back
            iid = self._item_id(line, r, item)
        if iid is None:
            if ev != "item.completed":
                b.skip(f"{ev} of a {kind} item without id (cannot be paired; its item.completed counts)")
                return
            key, native = f"{self.run}:@{line}", f"line:{line}"
        else:
            native = _SHARED_ITEM_IDS.get(iid, iid)
            key = f"{self.run}:{native}"
        c = b._calls.get(key)  # call_info
        if c is not None and c.result is not None:  # the item completed already
            b.skip(f"{ev} of an item already completed")
            return
        name, ckind, args, server, tool = _tool_item_fields(kind, item, ev == "item.completed")
        unnamed = kind == "mcp_tool_call" and (server is None or tool is None)
        if unnamed:
            b.damaged(line, "mcp_tool_call item without a server and tool name", item)
        if kind == "collab_tool_call":
            self.collab(line, item, native, ev == "item.completed")
        if c is None:
            b._call(key, native, name, ckind, args, line, None, server, tool, None, None, None)
            self.open[key] = None
            self.run_keys.append(key)
        elif unnamed:  # a damaged later version does not rename the call
            c.arguments = args
        else:
            # The latest version of the item is authoritative; the first event kept its order.
            c.name, c.kind, c.arguments, c.server, c.tool = name, ckind, args, server, tool
        if ev != "item.completed":
            return
        # the completed item is kept (the result's raw): its type, status and id are made the
        # strings the constants and the call hold, equal values, one object each for every item
        if item.get("type") == kind:
            item["type"] = kind
        status = item.get("status")
        if type(status) is str:
            st = _STATUS.get(status)  # _status(status), inline
            if st == status:
                item["status"] = st
        else:
            st = None
        if item.get("id") == native:  # the call's own id (the first item's: c.id), or the one made above
            item["id"] = native if c is None else c.id
        text, raw, is_error, exit_code = _tool_item_result(kind, item)
        if st == "completed" and is_error:
            st = "failed"
        b._result(key, text, line, raw, is_error, exit_code, st, None)
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
            b.unknown(f"msg:{t}", msg, line=line)

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
                self.b.unusable_usage(info.get("total_token_usage"), OPENAI_USAGE_KEYS)
                self.legacy_usage = u
                self.legacy_usage_mode = "cumulative (thread total)"
                return
        u = _openai_usage(msg)  # flat TokenUsage of one response: summed
        if u is None:
            self.b.skip("token_count without usage")
            return
        self.b.unusable_usage(msg, OPENAI_USAGE_KEYS)
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
        return codex_exec_sniff(head, shape)

    def parse(self, records: Iterator[Record], b: TranscriptBuilder) -> None:
        _ExecRun(b).feed(records)
