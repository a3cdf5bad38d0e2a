"""The steps a builder makes keep no line object of their own: the builder keeps the line of
every step in one array (``model._Lines``), at the step's place, and a step's ``location`` slot
holds that array (``model._PlacedLocation``). These tests hold it to the long way, each step
keeping its own ``Location``: same locations, repr, copies, pickles, for any line."""

from __future__ import annotations

import copy
import gc
import pickle
import weakref
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenteval_assert import load, parse
from agenteval_assert._builder import TranscriptBuilder, _Call
from agenteval_assert._parsers._codex import _exec
from agenteval_assert._reader import ReadStats
from agenteval_assert.model import Location, Message, Thinking, ToolCall, _Lines

from .conftest import CORPUS
from .test_codex_exec_state import _dump, jsonl

_LINES = st.one_of(
    st.integers(min_value=0, max_value=3000),
    st.sampled_from([0, 1, 256, 257, 2**32 - 1, 2**32, 2**40, -1, -(2**40)]),
)
_OPS = st.lists(st.tuples(st.sampled_from(["message", "user", "thinking", "call", "new_call", "result"]), _LINES),
                max_size=80)


def _long_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Builders made from now on give their makers the path, not their array of lines: every
    step keeps its own ``Location`` (``model._place``'s long way)."""
    init = TranscriptBuilder.__init__

    def plain(self: TranscriptBuilder, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self._where = self.path  # type: ignore[assignment]

    monkeypatch.setattr(TranscriptBuilder, "__init__", plain)


def _record(b: TranscriptBuilder, ops: list[tuple[str, int]]) -> list[tuple[int, int]]:
    """*ops* told to *b*; the lines of the calls in the making, read before the build."""
    open_lines = []
    for n, (op, line) in enumerate(ops):
        if op == "message":
            b.message("assistant", f"m{n}", line)
        elif op == "user":
            b.message("user", f"u{n}", line, meta=n % 2 == 0)
        elif op == "thinking":
            b.thinking(f"t{n}", line)
        elif op == "call":
            assert b._call(f"k{n}", f"c{n}", "Bash", "shell", {}, line, None, None, None, None, None, None)
        elif op == "new_call":
            assert b.call(f"k{n}", id=f"c{n}", name="Read", kind="file_read", arguments={}, line=line)
        else:
            open_ = [k for k, c in b._calls.items() if c.result is None]
            if open_:
                b._result(open_[0], "out", line, None, False, 0, None, None)
        open_lines += [(c.step, c.line) for c in b._made_calls]
    return open_lines


def _view(s: Any) -> Any:
    loc = s.location
    r = s.result if isinstance(s, ToolCall) else None
    return (type(s), repr(s), loc, type(loc), s.index, getattr(s, "step", None),
            None if r is None else (r.location, type(r.location)))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
          deadline=None)
@given(_OPS)
def test_steps_read_their_lines_where_the_long_way_keeps_them(ops: list[tuple[str, int]]) -> None:
    short_b = TranscriptBuilder("f.jsonl", "codex-exec", "codex")
    short_open = _record(short_b, ops)
    where = short_b._where
    short = short_b.build(ReadStats("f.jsonl"))
    with pytest.MonkeyPatch.context() as m:
        _long_way(m)
        long_b = TranscriptBuilder("f.jsonl", "codex-exec", "codex")
        long_open = _record(long_b, ops)
        assert long_b._where == "f.jsonl"
        long = long_b.build(ReadStats("f.jsonl"))
    assert short_open == long_open
    assert [_view(s) for s in short.steps] == [_view(s) for s in long.steps]
    for s, (_op, line) in zip(short.steps, [o for o in ops if o[0] != "result"], strict=True):
        assert s.location == Location("f.jsonl", line)
        # the shortcut is taken exactly where the array holds the line: no Location kept then
        fits = 0 <= line < 2**32
        assert (s._location_slot is where) == fits
        assert type(s._location_slot) is (_Lines if fits else Location)
    assert len(where.lines) == len(short.steps)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_OPS)
def test_a_step_made_by_the_builder_copies_as_a_plain_location(ops: list[tuple[str, int]]) -> None:
    b = TranscriptBuilder("g.jsonl", "codex-exec", "codex")
    _record(b, ops)
    t = b.build(ReadStats("g.jsonl"))
    for s in t.steps:
        loc = s.location
        for back in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s), attrs.evolve(s)):
            assert type(back) is type(s) and back.location == loc and type(back.location) is Location
            assert back._location_slot == loc and type(back._location_slot) is Location  # no array kept
        state = s.__getstate__()
        assert state["location"] == loc and type(state["location"]) is Location
        assert attrs.asdict(s, recurse=False)["location"] == loc
        assert attrs.evolve(s, location=Location("q", 4)).location == Location("q", 4)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            s.location = loc  # type: ignore[misc]
        if isinstance(s, ToolCall):  # the call's place among the steps, not among the calls
            assert attrs.evolve(s, index=s.index + 1000).location == loc


def test_the_makers_fall_back_to_a_location_off_the_arrays_order() -> None:
    from agenteval_assert._builder import _message, _open_call, _thinking

    where = _Lines("p")
    a = _message("user", "a", where, 5, 0, None, False, None)
    gap = _thinking("b", where, 6, 2, None)  # not the next place: a Location of its own
    bad = _message("user", "c", where, True, 1, None, False, None)  # a bool: kept as given, not as 1
    c = _open_call("i", "n", "other", {}, where, 9, 0, 2, "pending", None, None, None, None, None, None)
    assert (a._location_slot, type(gap._location_slot), type(bad._location_slot)) == (where, Location, Location)
    assert a.location == Location("p", 5) and gap.location == Location("p", 6)
    assert bad.location.line is True and c._location_slot is where and c.location == Location("p", 9)
    assert list(where.lines) == [5, 0, 9]  # the bool's place is kept empty, the array in order
    assert isinstance(c, _Call) and c.line == 9


@pytest.mark.parametrize("path", sorted((CORPUS / "codex-exec-json").glob("*.jsonl")), ids=lambda p: p.name)
def test_codex_exec_corpus_is_the_same_with_every_line_kept_apart(path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    short = _dump(load(path))
    _long_way(monkeypatch)
    assert _dump(load(path)) == short


_RECORD = st.one_of(
    st.fixed_dictionaries({"type": st.just("thread.started"), "thread_id": st.sampled_from(["A", "B"])}),
    st.just({"type": "turn.started"}),
    st.builds(lambda n, ev, kind: {"type": ev, "item": {"id": f"item_{n}", "type": kind, "text": f"x{n}",
                                                         "command": "ls", "aggregated_output": "o",
                                                         "status": "completed"}},
              st.integers(0, 6), st.sampled_from(["item.started", "item.completed"]),
              st.sampled_from(["agent_message", "reasoning", "command_execution", "plan"])),
    st.just({"type": "turn.completed", "usage": {"input_tokens": 1, "cached_input_tokens": 0, "output_tokens": 1}}),
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
          deadline=None)
@given(st.lists(_RECORD, max_size=30))
def test_codex_exec_records_give_the_same_transcript_with_every_line_kept_apart(records: list[dict[str, Any]]) -> None:
    text = jsonl(records)
    short = _dump(parse(text, format="codex-exec"))
    with pytest.MonkeyPatch.context() as m:
        _long_way(m)
        assert _dump(parse(text, format="codex-exec")) == short


def test_the_state_of_a_codex_exec_parse_is_freed_without_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    # no reference cycle keeps the parse's state (threads, totals, keys) once the parse is done
    runs: list[weakref.ref[Any]] = []
    init = _exec._ExecRun.__init__

    def noted(self: Any, b: TranscriptBuilder) -> None:
        init(self, b)
        runs.append(weakref.ref(self))

    monkeypatch.setattr(_exec._ExecRun, "__init__", noted)
    was = gc.isenabled()
    gc.disable()
    try:
        t = load(CORPUS / "codex-exec-json" / "untether-0.157.1-resume-cumulative-usage.jsonl")
        assert runs and all(r() is None for r in runs)
    finally:
        if was:
            gc.enable()
    assert t.steps and isinstance(t.steps[0], (Message, Thinking, ToolCall))


def test_a_line_of_none_gives_a_location_with_no_line_to_steps_and_results_alike() -> None:
    # a plugin parser may pass line=None: every object the builder makes then holds
    # Location(path, None), the value the model's constructors keep for it
    from agenteval_assert.model import ToolResult

    b = TranscriptBuilder("p.jsonl", "codex-exec", "codex")
    b.message("assistant", "hi", None)  # type: ignore[arg-type]
    b.thinking("hmm", None)  # type: ignore[arg-type]
    assert b._call("k", "c1", "Bash", "shell", {}, None, None, None, None, None, None, None)  # type: ignore[arg-type]
    assert b._result("k", "out", None, None, False, 0, None, None) is not None  # type: ignore[arg-type]
    assert b.call("k2", id="c2", name="Read", kind="file_read", arguments={}, line=None)  # type: ignore[arg-type]
    assert b.result("k2", text="x", line=None)  # type: ignore[arg-type]
    t = b.build(ReadStats("p.jsonl"))
    nowhere = Location("p.jsonl", None)
    for s in t.steps:
        assert s.location == nowhere and type(s.location) is Location
    for c in t.tool_calls:
        assert c.result is not None and c.result.location == nowhere and type(c.result.location) is Location
        made = ToolResult(c.result.text, c.result.raw, c.result.is_error, c.result.exit_code, nowhere)
        assert repr(made) == repr(c.result)
