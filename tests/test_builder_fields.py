"""The builder makes its per-call objects positionally (a 100 MB log makes tens of thousands of
them): the field orders it relies on are these."""

from __future__ import annotations

import attrs

from agenteval_assert._builder import _Call
from agenteval_assert.model import ToolCall


def test_the_call_field_orders_the_builder_passes_positionally() -> None:
    assert [f.name for f in attrs.fields(_Call)] == [
        "id", "name", "kind", "arguments", "line", "step", "raw_arguments", "server", "tool", "parent_id",
        "agent_id", "started_at", "ended_at", "status", "result",
    ]
    assert [f.name for f in attrs.fields(ToolCall)] == [
        "id", "name", "kind", "arguments", "location", "index", "step", "status", "result", "server", "tool",
        "raw_arguments", "parent_id", "agent_id", "started_at", "ended_at",
    ]


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
        made, direct = make(*values), cls(*values)
        assert type(made) is cls
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
