"""``summary``'s tally of calls reads a plain ``ToolCall``'s status and result inline: it counts
what the properties ``outcome_recorded``, ``is_error`` and ``unanswered`` say."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agenteval_assert._cli import _tally
from agenteval_assert.model import Location, ToolCall, ToolResult

_STATUS = st.sampled_from(["pending", "completed", "failed", "declined", "interrupted", "unrecorded", "other"])
_RESULT = st.one_of(st.none(), st.builds(
    ToolResult, st.just("out"), st.none(),
    st.sampled_from([False, True, 0, 1, "", "x"]),  # what a caller may pass: any truth value
    st.sampled_from([None, 0, 1, -1, 2, False, 0.0, "0"])))


def _calls(specs: list[tuple[str, Any]]) -> list[ToolCall]:
    return [ToolCall(f"c{i}", "Bash", "shell", {}, Location("f", i + 1), i, i, status, result)
            for i, (status, result) in enumerate(specs)]


class _Odd(ToolCall):
    @property
    def is_error(self) -> bool:
        return True


@given(st.lists(st.tuples(_STATUS, _RESULT), max_size=8), st.booleans())
def test_the_tally_counts_what_the_properties_say(specs: list[tuple[str, Any]], odd: bool) -> None:
    calls = _calls(specs)
    if odd and calls:  # a subclass keeps its own properties
        c = calls[0]
        calls[0] = _Odd(c.id, c.name, c.kind, c.arguments, c.location, c.index, c.step, c.status, c.result)
    unrecorded = sum(not c.outcome_recorded for c in calls)
    errors = sum(c.is_error for c in calls if c.outcome_recorded)
    expected = (None if unrecorded else errors, unrecorded, sum(c.unanswered for c in calls))
    assert _tally(calls) == expected
