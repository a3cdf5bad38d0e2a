"""``Call.matches_call`` (the checks' inner loop) agrees with ``call_differences`` exactly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._reader import ReadStats
from agenteval_assert.matchers import ANY, Call, Contains, Matches, Not, Partial

_values = st.one_of(st.integers(-2, 2), st.sampled_from(["a", "b", "ab", ""]), st.booleans(), st.none())
_args = st.dictionaries(st.sampled_from(["x", "y", "z"]), _values, max_size=3)
_expected_values = st.one_of(_values, st.just(ANY), st.builds(Contains, st.sampled_from(["a", "b"])),
                             st.builds(Matches, st.sampled_from(["^a", "b$"])), st.builds(Not, _values))


@st.composite
def _calls(draw: st.DrawFn) -> list[object]:
    b = TranscriptBuilder("t.jsonl", "claude-session", "claude-code")
    n = draw(st.integers(1, 4))
    for i in range(n):
        name = draw(st.sampled_from(["Bash", "Read", "mcp__shop__get_order"]))
        server, tool = ("shop", "get_order") if name.startswith("mcp__") else (None, None)
        b.call(f"k{i}", id=f"t{i}", name=name, kind="mcp" if server else "shell", arguments=draw(_args),
               line=i + 1, server=server, tool=tool, agent_id=draw(st.sampled_from([None, "sub"])))
        if draw(st.booleans()):
            b.result(f"k{i}", text=draw(st.sampled_from(["ok", "failed: a", ""])), line=i + 1,
                     is_error=draw(st.booleans()), exit_code=draw(st.sampled_from([None, 0, 1])))
    return list(b.build(ReadStats(path="t.jsonl", lines=n, records=n)).all_tool_calls)


_specs = st.builds(
    lambda name, args, kind, is_error, agent, output, mode: Call(
        name, args=args, kind=kind, is_error=is_error, agent=agent, output=output, mode=mode),
    st.sampled_from([None, "Bash", "get_order", "shop.get_order", Matches("^R")]),
    st.one_of(st.none(), st.dictionaries(st.sampled_from(["x", "y"]), _expected_values, max_size=2),
              st.builds(Partial, st.dictionaries(st.sampled_from(["x"]), _values, max_size=1))),
    st.sampled_from([None, "shell", "mcp"]),
    st.sampled_from([None, True, False]),
    st.sampled_from([None, "main", "subagent"]),
    st.sampled_from([None, "ok", Contains("fail")]),
    st.sampled_from([None, "partial", "exact", "ignore"]),
)


@settings(max_examples=500, deadline=None)
@given(_specs, _calls(), st.sampled_from(["partial", "exact"]))
def test_matches_call_is_the_verdict_of_call_differences(spec: Call, calls: list[object], mode: str) -> None:
    for c in calls:
        assert spec.matches_call(c, mode=mode) == (not spec.call_differences(c, mode=mode))  # type: ignore[arg-type]
