"""``codex exec --json`` keeps little per process run (a 100 MB log holds 180,000 resumed runs):
each thread's running total in a row of counts, and the keys of the calls of the current run
only. These tests hold both to the long way: the totals to the sum of every thread's last
total, the forgotten keys to a parse that forgets none."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenteval_assert import Transcript, load, parse
from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._parsers._codex import _exec
from agenteval_assert._parsers._codex._shared import _openai_usage, _plain_usage
from agenteval_assert._reader import ReadStats
from agenteval_assert.model import Message, Thinking, ToolCall, Usage

from .conftest import CORPUS


def jsonl(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def exec_t(records: list[dict[str, Any]]) -> Transcript:
    return parse(jsonl(records), format="codex-exec")


# -- thread totals ----------------------------------------------------------------------------

_COUNT = st.one_of(
    st.none(), st.integers(min_value=-3, max_value=400), st.integers(min_value=2**62, max_value=2**64),
    st.booleans(), st.floats(allow_nan=False, allow_infinity=False, min_value=-5, max_value=1e6),
    st.text(max_size=2),
)
_USAGE = st.one_of(
    st.dictionaries(st.sampled_from(["input_tokens", "cached_input_tokens", "output_tokens",
                                     "cache_write_input_tokens", "reasoning_output_tokens"]), _COUNT),
    st.fixed_dictionaries({"input_tokens": st.integers(0, 10**6), "cached_input_tokens": st.integers(0, 10**6),
                           "output_tokens": st.integers(0, 10**6)}),
    st.none(), st.just("many"),
)
_THREAD = st.one_of(
    st.fixed_dictionaries({"type": st.just("thread.started"), "thread_id": st.sampled_from(["A", "B", "C", ""])}),
    st.fixed_dictionaries({"type": st.just("thread.started"), "session_id": st.sampled_from(["A", ""])}),
    st.just({"type": "thread.started"}),
)
_TURN = st.builds(lambda u: {"type": "turn.completed", "usage": u}, _USAGE) | st.just({"type": "turn.completed"})


def _expected_usage(records: list[dict[str, Any]]) -> tuple[Usage, bool]:
    """The long way: every thread's last total kept as a tuple, the tuples summed at the end."""
    current, totals = "", {}
    for r in records:
        if r["type"] == "thread.started":
            tid = r.get("thread_id")
            if not isinstance(tid, str) or not tid:
                tid = r.get("session_id") if isinstance(r.get("session_id"), str) else None
            if tid is not None:
                current = tid
            continue
        d = r.get("usage")
        plain = _plain_usage(d)
        if plain is not None:
            totals[current] = plain
            continue
        u = _openai_usage(d)
        if u is not None:
            totals[current] = (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens,
                               u.reasoning_tokens)
    sums: list[int | None] = [None] * 5
    for fields in totals.values():
        for i, v in enumerate(fields):
            if v is not None:
                sums[i] = v if sums[i] is None else sums[i] + v  # type: ignore[operator]
    # what the builder then keeps of them (counts it cannot use are dropped, with a note)
    return TranscriptBuilder("<memory>", "codex-exec", "codex")._usable_usage(Usage(*sums)), bool(totals)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.one_of(_THREAD, _TURN), max_size=14))
def test_the_thread_totals_are_the_sum_of_every_threads_last_total(records: list[dict[str, Any]]) -> None:
    expected, any_total = _expected_usage(records)
    for scan in (64, 1):  # a resumed thread found among the last ones, or in the rows made then
        with pytest.MonkeyPatch.context() as m:
            m.setattr(_exec, "_RESUME_SCAN", scan)
            t = exec_t(records)
        assert attrs.asdict(t.usage) == attrs.asdict(expected)
        assert (t.health.usage_mode == "cumulative (thread total)") == any_total


def test_thread_totals_across_many_resumed_runs_and_an_odd_count() -> None:
    # rows made, a thread resumed (its row replaced), a thread whose total a row cannot hold and
    # back, and usage before any thread is named
    plain = {"input_tokens": 10, "cached_input_tokens": 4, "output_tokens": 2}
    records: list[dict[str, Any]] = [{"type": "turn.completed", "usage": {**plain, "input_tokens": 7}}]
    for n in range(300):
        records += [{"type": "thread.started", "thread_id": f"t{n}"}, {"type": "turn.completed", "usage": plain}]
    records += [
        {"type": "thread.started", "thread_id": "t5"},
        {"type": "turn.completed", "usage": {**plain, "output_tokens": 9, "reasoning_output_tokens": 1}},
        {"type": "thread.started", "thread_id": "t6"},
        {"type": "turn.completed", "usage": {**plain, "output_tokens": 2**64}},
        {"type": "thread.started", "thread_id": "t7"},
        {"type": "turn.completed", "usage": {**plain, "output_tokens": -1}},
        {"type": "turn.completed", "usage": {**plain, "output_tokens": 5}},
        {"type": "thread.started", "thread_id": "t6"},  # back to a total a row holds
        {"type": "turn.completed", "usage": {**plain, "output_tokens": 3}},
    ]
    t = exec_t(records)
    expected, _ = _expected_usage(records)
    assert attrs.asdict(t.usage) == attrs.asdict(expected)
    assert t.usage.reasoning_tokens == 1 and t.metadata["thread_ids"][:2] == ["t0", "t1"]
    assert t.usage.output_tokens == 2 * 297 + 9 + 3 + 5 + 2 and t.usage.input_tokens == 6 * 300 + 3
    assert t.usage.output_tokens == 2 * 297 + 9 + 3 + 5 + 2 and t.usage.input_tokens == 6 * 300 + 3


# -- keys of the runs before ------------------------------------------------------------------

def _item(ev: str, n: int, status: str = "completed") -> dict[str, Any]:
    item: dict[str, Any] = {"id": f"item_{n}", "type": "command_execution", "command": f"echo {n}",
                            "aggregated_output": "" if ev == "item.started" else f"out {n}\n",
                            "status": "in_progress" if ev == "item.started" else status}
    if ev == "item.completed":
        item["exit_code"] = 0 if status == "completed" else 1
    return {"type": ev, "item": item}


_EVENT = st.one_of(
    st.builds(lambda ev, n, s: _item(ev, n, s), st.sampled_from(["item.started", "item.completed", "item.updated"]),
              st.integers(0, 3), st.sampled_from(["completed", "failed", "declined"])),
    st.sampled_from([{"type": "thread.started", "thread_id": "A"}, {"type": "thread.started", "thread_id": "B"},
                     {"type": "turn.started"}, {"type": "turn.completed"},
                     {"type": "turn.failed", "error": {"message": "boom"}},
                     {"type": "request_user_input", "call_id": "q1", "questions": []},
                     {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": "hi"}},
                     {"type": "item.completed", "item": {"id": "item_2", "type": "reasoning", "text": "hm"}}]),
)


def _dump(t: Transcript) -> Any:
    """Everything a check can see of a transcript, as plain data."""
    steps = []
    for s in t.steps:
        if isinstance(s, ToolCall):
            r = s.result
            steps.append((repr(s), s.status, s.arguments, s.kind, s.name,
                          None if r is None else (r.text, r.raw, r.is_error, r.exit_code, r.location)))
        else:
            assert isinstance(s, (Message, Thinking))
            steps.append((repr(s), s.location))
    return (steps, [c.index for c in t.tool_calls], attrs.asdict(t.health), attrs.asdict(t.usage), t.metadata,
            [(str(e), e.locations) for e in t.errors], t.final_response, t.final_answer)


def _both_ways(text: str) -> tuple[Any, Any]:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_exec, "_FORGET_BATCH", 1)  # the keys forgotten at every new run
        short = _dump(parse(text, format="codex-exec"))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(TranscriptBuilder, "_forget", lambda self, keys: None)  # the long way: every key kept
        long = _dump(parse(text, format="codex-exec"))
    return short, long


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_EVENT, max_size=16))
def test_forgetting_the_keys_of_the_runs_before_changes_nothing(records: list[dict[str, Any]]) -> None:
    short, long = _both_ways(jsonl(records))
    assert short == long


def test_a_call_left_open_by_its_run_is_closed_by_a_later_turns_end() -> None:
    records = [
        {"type": "thread.started", "thread_id": "A"}, {"type": "turn.started"}, _item("item.started", 0),
        {"type": "thread.started", "thread_id": "A"}, {"type": "turn.started"}, _item("item.started", 0),
        _item("item.completed", 0), {"type": "turn.completed"},
    ]
    t = exec_t(records)
    first, second = t.tool_calls
    # the first run's call: its key forgotten by no one while it is open, closed at the turn's end
    assert (first.status, first.result, second.status) == ("interrupted", None, "completed")
    short, long = _both_ways(jsonl(records))
    assert short == long


@pytest.mark.parametrize("path", sorted((CORPUS / "codex-exec-json").glob("*.jsonl")), ids=lambda p: p.name)
def test_the_corpus_parses_the_same_with_every_key_kept(path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(_exec, "_FORGET_BATCH", 1)
        short = _dump(load(path))
    assert short == _dump(load(path))  # and in batches (the default)
    with monkeypatch.context() as m:
        m.setattr(TranscriptBuilder, "_forget", lambda self, keys: None)
        long = _dump(load(path))
    assert short == long


def test_completed_items_share_their_type_status_and_id_strings() -> None:
    records = [{"type": "thread.started", "thread_id": "A"}, _item("item.started", 0), _item("item.completed", 0),
               _item("item.completed", 1, "failed")]
    t = exec_t(records)
    a, b = t.tool_calls
    assert a.result is not None and b.result is not None
    assert a.result.raw == _item("item.completed", 0)["item"]  # the same values, in the same order
    assert list(a.result.raw) == list(_item("item.completed", 0)["item"])
    assert a.result.raw["type"] is b.result.raw["type"] is a.name is b.name
    assert a.result.raw["id"] is a.id  # the call's own id (from item.started)
    assert a.result.raw["status"] == "completed" and b.result.raw["status"] == "failed"
    assert b.status == "failed"


def test_item_ids_are_shared_strings_equal_to_the_decoded_ones() -> None:
    # a tool item's id is the one string of the id table (item_N, small N), held by the call and
    # its item; the transcript is the one made with the decoded strings kept
    records: list[dict[str, Any]] = [{"type": "thread.started", "thread_id": "A"}]
    for n in (0, 1, 4095, 4096, 7):
        records += [_item("item.started", n), _item("item.completed", n)]
    records.append({"type": "item.completed", "item": {"id": "item_9", "type": "file_change", "changes": [],
                                                       "status": "completed"}})
    records.append({"type": "item.completed", "item": {"id": "itm_9", "type": "file_change", "changes": [],
                                                       "status": "completed"}})
    text = jsonl(records)
    t = parse(text, format="codex-exec")
    for c in t.tool_calls:
        assert c.result is not None and c.result.raw["id"] is c.id
        if c.id in _exec._SHARED_ITEM_IDS:
            assert c.id is _exec._SHARED_ITEM_IDS[c.id]
    assert [c.id for c in t.tool_calls] == ["item_0", "item_1", "item_4095", "item_4096", "item_7", "item_9", "itm_9"]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_exec, "_SHARED_ITEM_IDS", {})  # the long way: the decoded strings kept
        long = _dump(parse(text, format="codex-exec"))
    assert _dump(t) == long


def test_the_keys_kept_stay_bounded_on_many_resumed_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # 3,000 resumed runs of two calls each: the builder's map keeps the keys of a batch, not all
    seen: list[int] = []
    forget = TranscriptBuilder._forget

    def spy(self: TranscriptBuilder, keys: list[str]) -> None:
        forget(self, keys)
        seen.append(len(self._calls))

    monkeypatch.setattr(TranscriptBuilder, "_forget", spy)
    records: list[dict[str, Any]] = []
    for n in range(3000):
        records += [{"type": "thread.started", "thread_id": f"t{n}"}, _item("item.started", 0),
                    _item("item.completed", 0), _item("item.completed", 1), {"type": "turn.completed"}]
    t = exec_t(records)
    assert len(t.tool_calls) == 6000 and all(c.status == "completed" for c in t.tool_calls)
    assert seen and max(seen) == 0


def test_a_thread_resumed_long_after_finds_its_own_row() -> None:
    # 200 threads, then the first resumed (not among the last 64: the rows are made), more new
    # threads (their rows kept up to date), and resumed ones again
    def total(n: int) -> dict[str, Any]:
        return {"type": "turn.completed", "usage": {"input_tokens": n, "cached_input_tokens": 0, "output_tokens": 1}}

    records: list[dict[str, Any]] = []
    for n in range(200):
        records += [{"type": "thread.started", "thread_id": f"t{n}"}, total(n)]
    for tid, n in (("t0", 1000), ("t300", 7), ("t150", 2000), ("t300", 9), ("t199", 3000), ("t0", 4000)):
        records += [{"type": "thread.started", "thread_id": tid}, total(n)]
    t = exec_t(records)
    expected, _ = _expected_usage(records)
    assert attrs.asdict(t.usage) == attrs.asdict(expected)
    assert t.usage.input_tokens == sum(range(200)) - 0 - 150 - 199 + 4000 + 9 + 2000 + 3000
    assert len(t.metadata["thread_ids"]) == 201


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.one_of(
    st.builds(lambda n: f"item_{n}", st.integers(0, 5000)), st.sampled_from(["item_007", "item_", "item_x", "itm_3"]),
    st.just("thread"),
), max_size=12))
def test_item_numbers_looked_up_are_the_numbers_read(ids: list[str]) -> None:
    # item_sequence looks item_N up in a table: the gaps it finds are those reading the digits finds
    records: list[dict[str, Any]] = []
    for iid in ids:
        if iid == "thread":
            records.append({"type": "thread.started", "thread_id": "A"})
        else:
            records.append({"type": "item.completed", "item": {"id": iid, "type": "reasoning", "text": "t"}})
    text = jsonl(records)
    short = _dump(parse(text, format="codex-exec"))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_exec, "_ITEM_NUMBERS", {})
        m.setattr(_exec, "_ITEM_IDS", [])  # and no next id known ahead: every id read the long way
        m.setattr(_exec, "_LAST_ITEM_ID", -2)
        long = _dump(parse(text, format="codex-exec"))
    assert short == long


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["agent_message", "reasoning", "call"]),
                          st.sampled_from(["", " ", "\n", "done", "Hi once more!"])), max_size=12))
def test_the_text_items_are_recorded_as_the_builders_methods_record_them(items: list[tuple[str, str]]) -> None:
    # agent_message and reasoning items are recorded inline (no builder call per item): the
    # transcript is the one the builder's own message() and thinking() make of them
    records: list[dict[str, Any]] = [{"type": "thread.started", "thread_id": "A"}]
    b = TranscriptBuilder("<memory>", "codex-exec", "codex")
    for n, (kind, text) in enumerate(items):
        line = len(records) + 1
        if kind == "call":
            records.append(_item("item.completed", n))
            b.call(f"k{n}", id=f"item_{n}", name="command_execution", kind="shell", arguments={}, line=line)
            continue
        records.append({"type": "item.completed", "item": {"id": f"item_{n}", "type": kind, "text": text}})
        if kind == "agent_message":
            b.message("assistant", text, line)
        elif text:
            b.thinking(text, line)
    t = exec_t(records)
    text_steps = [(repr(s), s.location, s.index) for s in t.steps if not isinstance(s, ToolCall)]
    b.set_final_response(next((text for kind, text in reversed(items) if kind == "agent_message"), None))
    long = b.build(ReadStats("<memory>"))
    assert text_steps == [(repr(s), s.location, s.index) for s in long.steps if not isinstance(s, ToolCall)]
    assert (t.final_response, t.final_answer, t.action_count()) == (
        long.final_response, long.final_answer, long.action_count())


# -- key-sharing copies of the completed items and of their arguments -------------------------

_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-2, 300), st.text(max_size=4),
                   st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))
_CHANGE = st.one_of(
    st.fixed_dictionaries({"path": st.text(max_size=5), "kind": st.sampled_from(["add", "update", "delete", "mv"])}),
    st.fixed_dictionaries({"kind": st.just("add"), "path": st.just("p")}),  # another order: kept as it is
    st.fixed_dictionaries({"path": st.just("p"), "kind": st.fixed_dictionaries({"type": st.just("update")})}),
    st.just({"path": "p"}), st.just("p"),
)


#: the keys of the completed items codex writes, in its order
_COMMAND_KEYS = ("id", "type", "command", "aggregated_output", "exit_code", "status")
_FILE_CHANGE_KEYS = ("id", "type", "changes", "status")


@st.composite
def _tool_items(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["command_execution", "file_change"]))
    keys = list(_COMMAND_KEYS if kind == "command_execution" else _FILE_CHANGE_KEYS)
    if draw(st.booleans()):  # not codex's own shape: another order, a key less or more
        keys = draw(st.permutations(keys))[: draw(st.integers(2, len(keys)))] + draw(
            st.lists(st.sampled_from(["extra", "status", "exit_code"]), max_size=1))
    item: dict[str, Any] = {}
    for k in keys:
        if k == "id":
            item[k] = f"item_{draw(st.integers(0, 3))}"
        elif k == "type":
            item[k] = kind
        elif k == "status":
            item[k] = draw(st.sampled_from(["completed", "failed", "in_progress"]))
        elif k == "changes":
            item[k] = draw(st.one_of(st.lists(_CHANGE, max_size=3), _VALUE))
        else:
            item[k] = draw(_VALUE)
    return item


def _literal_fields(kind: str, item: dict[str, Any], kept: bool = False) -> Any:
    """The long way of ``_exec._tool_item_fields`` for these items: their arguments as literal dicts."""
    if kind == "command_execution":
        return kind, "shell", {"command": item.get("command")}, None, None
    assert kind == "file_change"
    return kind, "file_edit", {"changes": item.get("changes")}, None, None


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(_tool_items(), max_size=6), st.booleans())
def test_key_sharing_items_and_arguments_are_the_decoded_ones(items: list[dict[str, Any]], started: bool) -> None:
    records: list[dict[str, Any]] = [{"type": "thread.started", "thread_id": "A"}]
    for item in items:
        if started:
            records.append({"type": "item.started", "item": item})
        records.append({"type": "item.completed", "item": item})
    text = jsonl(records)
    t = parse(text, format="codex-exec")
    with pytest.MonkeyPatch.context() as m:  # the long way: the decoded dicts and literal arguments kept
        m.setattr(_exec, "_tool_item_fields", _literal_fields)
        long = parse(text, format="codex-exec")
    assert _dump(t) == _dump(long)
    for a, b in zip(t.tool_calls, long.tool_calls, strict=True):
        assert type(a.arguments) is dict and list(a.arguments.items()) == list(b.arguments.items())
        if a.result is not None and b.result is not None:
            raw, decoded = a.result.raw, b.result.raw
            assert type(raw) is dict and list(raw.items()) == list(decoded.items())
            assert pickle.loads(pickle.dumps(raw)) == decoded and copy.deepcopy(raw) == decoded
            raw["added"] = 1  # an ordinary dict to its user
            del raw["added"]
            assert raw == decoded


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.sampled_from([
    {"type": "turn.started"}, {"type": "thread.started", "thread_id": "A"}, {"id": "1", "msg": {"type": "task_started"}},
    {"type": "turn.completed"}, {"type": "turn.started", "extra": 1}, {"type": "turn.failed", "error": "x"},
]), max_size=20))
def test_the_turns_counted_inline_are_the_turn_records(records: list[dict[str, Any]]) -> None:
    # turn.started is counted in the parse loop, task_started (legacy) by its handler: together
    n = sum(r.get("type") == "turn.started" or r.get("msg", {}).get("type") == "task_started" for r in records)
    t = exec_t(records)
    assert t.metadata.get("turns") == (n or None)
    assert t.health.run_ended is _expected_end(records)


def _expected_end(records: list[dict[str, Any]]) -> bool | None:
    """Health.run_ended the long way: what the last record that says anything of it says."""
    ended = None
    for r in records:
        if "msg" in r:  # legacy: a task's end, or any other event but these three
            mt = r["msg"]["type"]
            ends = True if mt in ("task_complete", "turn_aborted", "shutdown_complete") else (
                None if mt in ("token_count", "error", "background_event") else False)
        else:
            ends = _exec._ENDS.get(r["type"])
        if ends is not None:
            ended = ends
    return ended


#: counts mostly plain (a usage read inline has every count plain), now and then not one
_PLAIN = st.sampled_from([0, 1, 7, 50, 3, 9, 12, 30, 2**63 - 1, 0, 2, 2**63, -1, True, 1.0, None])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.one_of(
    st.builds(lambda i, c, o: {"type": "turn.completed", "usage": {"input_tokens": i, "cached_input_tokens": c,
                                                                     "output_tokens": o}}, _PLAIN, _PLAIN, _PLAIN),
    st.builds(lambda i: {"type": "turn.completed", "usage": {"input_tokens": i, "output_tokens": 1, "extra": 2}},
              _PLAIN),
    st.builds(lambda i, c, w, o, r: {"type": "turn.completed", "usage": {
        "input_tokens": i, "cached_input_tokens": c, "cache_write_input_tokens": w, "output_tokens": o,
        "reasoning_output_tokens": r}}, _PLAIN, _PLAIN, _PLAIN, _PLAIN, _PLAIN),
    st.builds(lambda i, w: {"type": "turn.completed", "usage": {
        "input_tokens": i, "cached_input_tokens": 0, "cache_write_input_tokens": w, "output_tokens": 1,
        "extra": 0}}, _PLAIN, _PLAIN),
    st.fixed_dictionaries({"type": st.just("thread.started"), "thread_id": st.sampled_from(["A", "B", "C"])}),
    st.builds(lambda n: _item("item.started", n), st.integers(0, 3)),
), max_size=14))
def test_plain_turn_usages_read_inline_are_what_the_long_way_reads(records: list[dict[str, Any]]) -> None:
    # a turn.completed with no call open and the three plain counts is read inline; with no
    # count in range (_MAX_COUNT = -1) every usage takes the long way (the totals no row holds)
    text = jsonl(records)
    short = _dump(parse(text, format="codex-exec"))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_exec, "_MAX_COUNT", -1)
        long = _dump(parse(text, format="codex-exec"))
    assert short == long
    expected, _ = _expected_usage([r for r in records if r["type"] != "item.started"])
    assert short[3] == attrs.asdict(expected)


@pytest.mark.parametrize("keys", [_exec.OPENAI_USAGE_KEYS[:3], _exec.OPENAI_USAGE_KEYS])
def test_every_odd_count_in_every_place_of_a_turn_usage_takes_the_long_way(keys: tuple[str, ...]) -> None:
    # each count of a 3- or 5-count usage in turn set to each odd value, after a turn read
    # inline or not: the same transcript as the long way (no count in range: _MAX_COUNT = -1)
    for i in range(len(keys)):
        for odd in (2**63 - 1, 2**63, 2**64, -1, True, 1.0, None, "5"):
            for before in ([], [0, 1, 2, 3, 4], [2**63]):
                records: list[dict[str, Any]] = [{"type": "thread.started", "thread_id": "A"}]
                if before:
                    records.append({"type": "turn.completed", "usage": dict(zip(keys, before, strict=False))})
                usage = {k: 10 + n for n, k in enumerate(keys)}
                usage[keys[i]] = odd
                records += [{"type": "turn.completed", "usage": usage},
                            {"type": "thread.started", "thread_id": "B"},
                            {"type": "turn.completed", "usage": {k: 3 for k in keys}}]
                text = jsonl(records)
                short = _dump(parse(text, format="codex-exec"))
                with pytest.MonkeyPatch.context() as m:
                    m.setattr(_exec, "_MAX_COUNT", -1)
                    long = _dump(parse(text, format="codex-exec"))
                assert short == long, (keys, i, odd, before)
