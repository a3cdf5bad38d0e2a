"""The builder makes its per-call objects positionally (a 100 MB log makes tens of thousands of
them): the field orders it relies on are these."""

from __future__ import annotations

from typing import Any

import attrs

from agenteval_assert._builder import _Call
from agenteval_assert.model import ToolCall


def test_the_call_field_orders_the_builder_passes_positionally() -> None:
    assert [f.name for f in attrs.fields(ToolCall)] == [
        "id", "name", "kind", "arguments", "location", "index", "step", "status", "result", "server", "tool",
        "raw_arguments", "parent_id", "agent_id", "started_at", "ended_at",
    ]
    # a call in the making is a ToolCall that adds no slot (build() sets its class): its __init__
    # takes ToolCall's fields in ToolCall's order, and stores each where ToolCall reads it
    assert issubclass(_Call, ToolCall) and _Call.__slots__ == ()
    names = [f.name for f in attrs.fields(ToolCall)]
    c = _Call(*names)
    assert [getattr(c, n) for n in names] == names


def test_a_call_in_the_making_becomes_the_models_tool_call() -> None:
    import pickle
    import weakref

    import pytest

    from agenteval_assert._builder import TranscriptBuilder
    from agenteval_assert._reader import ReadStats
    from agenteval_assert.model import Location

    b = TranscriptBuilder("f.jsonl", "claude-stream-json", "claude-code")
    assert b._call("k1", "toolu_1", "Bash", "shell", {"command": "ls"}, 3, None, None, None, None, None, "t0")
    b.message("assistant", "between", 4)
    assert b._call("k2", "toolu_2", "Read", "file_read", {}, 5, "{bad", None, None, None, "agent-1", None)
    info = b.call_info("k1")
    assert info is not None and info.line == 3
    info.line = 6  # parsers may move a call (update_call, setattr): the location follows
    assert info.location == Location("f.jsonl", 6)
    assert b._result("k1", "out", 7, {"raw": 1}, False, 0, None, "t1") is info
    b.update_call("k2", status="interrupted")
    t = b.build(ReadStats("f.jsonl"))
    first, second = t.steps[0], t.steps[2]
    assert type(first) is ToolCall and type(second) is ToolCall
    assert (first.id, first.name, first.kind, first.arguments, first.location, first.index, first.step) == (
        "toolu_1", "Bash", "shell", {"command": "ls"}, Location("f.jsonl", 6), 0, 0)
    assert (first.status, first.result is not None, first.started_at, first.ended_at) == ("completed", True, "t0", "t1")
    assert (second.index, second.step, second.status, second.raw_arguments, second.agent_id) == (
        1, 2, "interrupted", "{bad", "agent-1")
    assert t.tool_calls == (first,) and t.subagents[0].tool_calls == (second,)
    assert b.call_info("k1") is None  # a builder builds once
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        first.status = "failed"  # type: ignore[misc]
    assert weakref.ref(first)() is first
    again = pickle.loads(pickle.dumps(first))
    assert type(again) is ToolCall and repr(again) == repr(first) and repr(again.result) == repr(first.result)
    assert attrs.evolve(first, name="Other").name == "Other"
    assert repr(first) == repr(ToolCall(**{f.name: getattr(first, f.name) for f in attrs.fields(ToolCall)}))


def test_undecodable_arguments_are_refused_as_json_loads_refuses_them() -> None:
    import json

    from hypothesis import given
    from hypothesis import strategies as st

    from agenteval_assert._parsers._common import decode_arguments

    @given(st.one_of(st.text(max_size=6), st.sampled_from(['  {"a": 1}', "\\n[1]", "NaN", "-1", "tru", " x", "", "\\t"])))
    def same_verdict(text: str) -> None:
        try:
            decoded = json.loads(text)
        except ValueError:
            assert decode_arguments(text) == ({}, text)
            return
        args, _ = decode_arguments(text)
        assert repr(args) == repr(decoded if isinstance(decoded, dict) else {"value": decoded})  # repr: NaN

    same_verdict()


def test_the_builders_fast_makers_make_what_the_classes_make() -> None:
    # the builder stores the fields of its steps slot by slot (no attrs __init__): the object is
    # the one the class makes, field for field, and behaves as one (repr, pickle, evolve, frozen)
    import pickle

    import pytest

    from agenteval_assert import _builder
    from agenteval_assert.model import Location, Message, Thinking, ToolResult

    loc = Location("f.jsonl", 3)
    res = ToolResult("out", {"x": 1}, False, 0, loc)
    cases = [
        (_builder._message, Message, ("assistant", "hi", loc, 0, "agent-1", True, "skill")),
        (_builder._thinking, Thinking, ("hmm", loc, 1, None)),
        (_builder._tool_result, ToolResult, ("out", {"x": 1}, True, 2, loc)),
        (_builder._tool_call, ToolCall, ("toolu_1", "Bash", "shell", {"command": "ls"}, loc, 0, 2, "completed", res,
                                         None, None, None, "p", "a", "t0", "t1")),
    ]
    for make, cls, values in cases:
        # the makers take the location as its path and its line (what the class stores)
        split = [part for v in values for part in ((*v,) if v is loc else (v,))]
        made, direct = make(*split), cls(*values)
        assert type(made) is cls
        assert made.location == loc and type(made.location) is Location
        assert attrs.asdict(made, recurse=False) == attrs.asdict(direct, recurse=False)
        assert repr(made) == repr(direct)
        back = pickle.loads(pickle.dumps(made))
        assert attrs.asdict(back) == attrs.asdict(made)  # nested results compare by identity: as dicts
        first = attrs.fields(cls)[0].name
        assert getattr(attrs.evolve(made, **{first: values[0]}), first) == values[0]
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(made, first, values[0])
        # what makes the shortcut the class's own __init__: nothing but stores in it
        assert not hasattr(cls, "__attrs_post_init__")
        assert all(f.validator is None and f.converter is None and f.init for f in attrs.fields(cls))


def test_a_location_is_stored_as_its_path_and_line_and_read_back_equal() -> None:
    # steps and results keep their location as a path and a line (no tuple per step): every way
    # of making, copying and reading one gives back an equal Location, as a plain field would
    import copy
    import pickle

    import pytest
    from hypothesis import given
    from hypothesis import strategies as st

    from agenteval_assert import _builder
    from agenteval_assert.model import Location, Message, Thinking, ToolResult

    lines = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([0, 1, 256, 257]))

    @given(st.text(max_size=8), lines, st.text(max_size=8), st.integers(0, 10**6))
    def same(path: str, line: int, text: str, index: int) -> None:
        loc = Location(path, line)
        made = [
            Thinking(text, loc, index),
            Message("user", text, loc, index, None, False, None),
            ToolResult(text, None, False, None, loc),
            ToolCall("id", "Bash", "shell", {}, loc, index, index),
            _builder._thinking(text, path, line, index, None),
            _builder._tool_result(text, None, False, None, path, line),
        ]
        for obj in made:
            cls = type(obj)
            got = obj.location
            assert got == loc and type(got) is Location and (got.path, got.line) == (path, line)
            # the public surface of the field: repr, asdict, evolve, pickle, copies, getstate
            assert attrs.asdict(obj, recurse=False)["location"] == loc
            deep = attrs.asdict(obj)["location"]  # as attrs gives a named-tuple field
            assert deep == loc and type(deep) is Location
            assert attrs.evolve(obj).location == loc
            assert attrs.evolve(obj, location=Location("q", 7)).location == Location("q", 7)
            for back in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
                assert type(back) is cls and back.location == loc and type(back.location) is Location
            state = obj.__getstate__()  # what a pickle holds: the field, never the private slots
            assert state["location"] == loc and "_line" not in state and "_location_path" not in state
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                obj.location = loc
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                del obj.location
        t = made[0]
        assert repr(t) == f"Thinking(text={text!r}, location={loc!r}, index={index!r}, agent_id=None)"
        assert f" at {loc})" in repr(made[1]) and f" at {loc})" in repr(made[3])

    same()


def test_a_location_that_is_no_plain_location_is_kept_as_given() -> None:
    # None (a result without a place), a Location subclass, a plain tuple, a Location whose line
    # is None: what the constructor was given, the same object, as a plain field keeps it
    import pickle

    from agenteval_assert.model import Location, Message, Thinking, ToolResult

    class Sub(Location):
        pass

    values: list[Any] = [None, Sub("p", 3), ("p", 3), Location("p", None), "p:3"]
    for value in values:
        for obj in (ToolResult("x", location=value), Thinking("t", value, 0), Message("user", "m", value, 1),
                    ToolCall("i", "n", "other", {}, value, 0, 0)):
            assert obj.location is value
            assert attrs.evolve(obj).location is value
            assert attrs.evolve(obj, location=Location("f", 2)).location == Location("f", 2)
            if not isinstance(value, Sub):  # a local class does not pickle
                assert pickle.loads(pickle.dumps(obj)).location == value
    assert ToolResult("x").location is None
    # and a plain Location set over one of these is stored split again
    r = attrs.evolve(ToolResult("x"), location=Location("f", 9))
    assert r.location == Location("f", 9) and getattr(r, "_line") == 9  # noqa: B009


def test_a_call_in_the_making_moves_its_line_whatever_its_location() -> None:
    from agenteval_assert._builder import _Call
    from agenteval_assert.model import Location

    args: list[Any] = ["i", "n", "other", {}, Location("f", 3), 0, 0, "pending", None, None, None, None, None,
                  None, None, None]
    c = _Call(*args)
    assert c.line == 3
    c.line = 5
    assert c.location == Location("f", 5)

    class Sub(Location):
        pass
    args[4] = Sub("g", 1)
    c = _Call(*args)
    assert c.line == 1 and c.location is args[4]
    c.line = 4  # a location kept as given is replaced by a plain one
    assert c.location == Location("g", 4) and type(c.location) is Location

    # a call the builder makes reads its line in the builder's array of lines, at its step
    from agenteval_assert._builder import TranscriptBuilder

    b = TranscriptBuilder("h.jsonl", "codex-exec", "codex")
    b.message("user", "go", 7)
    assert b._call("k", "i", "n", "other", {}, 9, None, None, None, None, None, None)
    made = b._calls["k"]
    assert made.line == 9 and made.location == Location("h.jsonl", 9) and made._location_slot is b._where
    made.line = 11
    assert made.line == 11 and made.location == Location("h.jsonl", 11)
    assert b._steps[0].location == Location("h.jsonl", 7)  # the array is left as it was


def test_every_call_gets_its_place_among_the_calls_and_among_the_steps() -> None:
    # a call's index is made from the int an earlier step holds for its place (no int object of
    # its own): whatever the mix of steps, it is the call's place among the calls
    from hypothesis import given
    from hypothesis import strategies as st

    from agenteval_assert._builder import TranscriptBuilder
    from agenteval_assert._reader import ReadStats
    from agenteval_assert.model import Message, Thinking

    @given(st.lists(st.sampled_from(["message", "thinking", "call", "new_call"]), max_size=600))
    def places(ops: list[str]) -> None:
        b = TranscriptBuilder("f.jsonl", "codex-exec", "codex")
        for n, op in enumerate(ops):
            if op == "message":
                b.message("assistant", f"m{n}", n + 1)
            elif op == "thinking":
                b.thinking(f"t{n}", n + 1)
            elif op == "call":
                assert b._call(f"k{n}", f"c{n}", "Bash", "shell", {}, n + 1, None, None, None, None, None, None)
            else:
                assert b.call(f"k{n}", id=f"c{n}", name="Read", kind="file_read", arguments={}, line=n + 1)
        t = b.build(ReadStats("f.jsonl"))
        calls = [s for s in t.steps if isinstance(s, ToolCall)]
        assert [c.index for c in calls] == list(range(len(calls)))
        assert [c.step for c in calls] == [i for i, s in enumerate(t.steps) if isinstance(s, ToolCall)]
        assert all(s.index == i for i, s in enumerate(t.steps) if isinstance(s, (Message, Thinking)))
        for c in calls:  # the same int object as the step at that place holds
            at = t.steps[c.index]
            assert c.index is (at.step if isinstance(at, ToolCall) else at.index)

    places()


def test_the_action_count_the_builder_keeps_is_the_one_counted_over_the_steps() -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    from agenteval_assert._builder import TranscriptBuilder
    from agenteval_assert._reader import ReadStats
    from agenteval_assert.model import _ACTION_COUNT

    op = st.tuples(st.sampled_from(["user", "assistant", "system", "thinking", "call"]),
                   st.sampled_from([None, "agent-1"]), st.sampled_from(["", " ", "x"]))

    @given(st.lists(op, max_size=40))
    def same(ops: list[tuple[str, str | None, str]]) -> None:
        b = TranscriptBuilder("f.jsonl", "claude-stream-json", "claude-code")
        for n, (kind, agent, text) in enumerate(ops):
            if kind == "thinking":
                b.thinking(text, n + 1, agent_id=agent)
            elif kind == "call":
                b.call(f"k{n}", id=f"c{n}", name="Bash", kind="shell", arguments={}, line=n + 1, agent_id=agent)
            else:
                b.message(kind, text, n + 1, agent_id=agent)  # type: ignore[arg-type]
        t = b.build(ReadStats("f.jsonl"))
        assert _ACTION_COUNT in t._derived
        fresh = attrs.evolve(t)  # no count kept: counted over the steps
        assert _ACTION_COUNT not in fresh._derived
        assert t.action_count() == fresh.action_count() == sum(
            1 for s in t.steps if not (hasattr(s, "role") and s.role != "assistant"))
        assert t.action_count(include_subagents=False) == fresh.action_count(include_subagents=False)

    same()


def test_the_builders_inline_stores_make_what_its_makers_make() -> None:
    # message(), _call() and _result() store their objects' slots inline (no maker call): each
    # object is the one the maker makes, field for field, and of the model's own class; a step's
    # line goes to the builder's array of lines at its place, as the makers put it there
    from agenteval_assert import _builder
    from agenteval_assert._builder import TranscriptBuilder, _open_call
    from agenteval_assert.model import Message, ToolResult, _Lines

    def slot(obj: Any) -> Any:
        if hasattr(obj, "_location_slot"):  # a step: the builder's array, or its own Location
            v = obj._location_slot
            return ("lines", v.path) if type(v) is _Lines else v
        return (obj._line, obj._location_path)  # a result: the path and the line

    def fields(obj: Any, cls: type) -> list[Any]:
        return [getattr(obj, f.name) for f in attrs.fields(cls)] + [slot(obj)]

    ref = _Lines("f.jsonl")  # what the makers are given: the builder's own array, as it fills
    b = TranscriptBuilder("f.jsonl", "claude-stream-json", "claude-code")
    b.message("user", "hello", 2)
    expected_0 = _builder._message("user", "hello", ref, 2, 0, None, False, None)
    b.message("assistant", "hi", 3, agent_id="a", meta=True, skill="s")
    expected_1 = _builder._message("assistant", "hi", ref, 3, 1, "a", True, "s")
    assert b._call("k", "id1", "Bash", "shell", {"command": "ls"}, 4, "raw", "srv", "tool", "p", "a", "t0")
    call = b.call_info("k")
    assert call is not None
    opened = _open_call("id1", "Bash", "shell", {"command": "ls"}, ref, 4, 0, 2, "pending", "srv", "tool",
                        "raw", "p", "a", "t0")
    assert type(call) is type(opened) and fields(call, ToolCall) == fields(opened, ToolCall)
    assert b._result("k", "out", 5, {"r": 1}, 1, 2, None, "t1") is call  # a truthy is_error is stored as True
    assert call.result is not None
    for made, cls, expected in (
        (b._steps[0], Message, expected_0),
        (b._steps[1], Message, expected_1),
        (call.result, ToolResult, _builder._tool_result("out", {"r": 1}, True, 2, "f.jsonl", 5)),
    ):
        assert type(made) is cls and fields(made, cls) == fields(expected, cls) and repr(made) == repr(expected)
    assert list(b._where.lines) == list(ref.lines) == [2, 3, 4]
    # a line the array cannot hold: the step keeps its own Location, the array its place
    b.message("user", "far", 2**32)
    assert b._steps[3]._location_slot == ("f.jsonl", 2**32) and list(b._where.lines) == [2, 3, 4, 0]
    assert b._call("k2", "id2", "Bash", "shell", {}, -1, None, None, None, None, None, None)
    assert b._steps[4].location.line == -1 and len(b._where.lines) == 5


def test_a_repeated_call_key_records_nothing() -> None:
    # _call makes the call before it looks its key up (one look-up): a repeat leaves no trace
    from agenteval_assert._builder import TranscriptBuilder
    from agenteval_assert._reader import ReadStats

    b = TranscriptBuilder("f.jsonl", "claude-stream-json", "claude-code")
    assert b._call("k", "id1", "Bash", "shell", {"command": "ls"}, 1, None, None, None, None, None, None)
    first = b.call_info("k")
    b.message("assistant", "between", 2)
    assert not b._call("k", "id2", "Read", "file_read", {}, 3, "{x", None, None, None, "a", None)
    assert b.call_info("k") is first and len(b._steps) == 2 and len(b._made_calls) == 1
    assert list(b._where.lines) == [1, 2]  # the dropped call placed no line
    assert b.unreadable_arguments == [] and not b.has_subagents()
    assert b._call("k2", "id3", "Read", "file_read", {}, 4, None, None, None, None, None, None)
    t = b.build(ReadStats("f.jsonl"))
    assert [(c.id, c.index, c.step) for c in t.tool_calls] == [("id1", 0, 0), ("id3", 1, 2)]
