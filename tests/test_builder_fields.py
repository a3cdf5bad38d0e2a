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
