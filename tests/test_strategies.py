"""Parser properties over generated transcripts (agenteval_assert.strategies)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

import agenteval_assert as aa
from agenteval_assert.strategies import Generated, claude_session, codex_exec

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(g: Generated) -> aa.Transcript:
    t = aa.parse(g.text, path="gen.jsonl")
    assert t.format == g.format
    assert [(c.id, c.name) for c in t.tool_calls] == [(c.id, c.name) for c in g.calls]
    for got, want in zip(t.tool_calls, g.calls, strict=True):
        assert dict(got.arguments) == want.arguments
        assert got.output == want.output  # paired by id, whatever order the results came in
        assert got.is_error == want.is_error
        assert got.exit_code == want.exit_code
    assert t.final_response == g.final_response
    assert t.health.complete
    return t


@SETTINGS
@given(claude_session())
def test_claude_session_calls_pair_by_id(g: Generated) -> None:
    t = _check(g)
    assert all(c.location.line >= 2 for c in t.tool_calls)


@SETTINGS
@given(codex_exec())
def test_codex_exec_resumed_runs_keep_every_call(g: Generated) -> None:
    t = _check(g)
    # item ids restart in each resumed run; calls stay distinct events
    assert len({id(c) for c in t.tool_calls}) == len(g.calls)


@SETTINGS
@given(claude_session(), claude_session())
def test_appending_lines_never_loses_earlier_calls(a: Generated, b: Generated) -> None:
    t = aa.parse(a.text + b.text)
    assert len(t.tool_calls) >= len(a.calls)
