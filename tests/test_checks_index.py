"""The look-ups the checks of a transcript share (``checks/_index.py``): built once, on first use,
and giving exactly the answers the checks computed on their own before."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agenteval_assert import checks as c
from agenteval_assert.checks._common import _index
from agenteval_assert.checks._index import CallIndex, args_key
from agenteval_assert.matchers import Call, call_aliases, canonical_json
from agenteval_assert.model import Transcript

from ._build import T
from ._opcount import call_count

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0.0, -0.0, 1.0, 2.5]) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.text(max_size=2), _JSON, max_size=3), st.dictionaries(st.text(max_size=2), _JSON, max_size=3))
def test_args_keys_are_equal_exactly_when_the_canonical_json_is(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert (args_key(a) == args_key(b)) == (canonical_json(a) == canonical_json(b))
    hash(args_key(a))


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=2), _JSON, max_size=3))
def test_args_keys_of_equal_arguments_are_equal(a: dict[str, Any]) -> None:
    assert args_key(a) == args_key(json.loads(json.dumps(a)) if not _has_nan(a) else a)


def _has_nan(v: Any) -> bool:
    if isinstance(v, float):
        return math.isnan(v)
    if isinstance(v, dict):
        return any(_has_nan(x) for x in v.values())
    if isinstance(v, list):
        return any(_has_nan(x) for x in v)
    return False


def test_arguments_that_are_not_json_get_the_key_of_their_canonical_text() -> None:
    class Thing:
        def __repr__(self) -> str:
            return "Thing()"

    assert args_key({"a": Thing()}) == args_key({"a": Thing()}) == args_key({"a": "Thing()"})
    assert args_key({1: "x"}) == args_key({"1": "x"})  # type: ignore[dict-item]
    assert args_key({"a": (1, 2)}) == args_key({"a": [1, 2]})


def _transcript(n: int) -> Transcript:
    t = T().user("go")
    for i in range(n):
        if i % 5 == 0:
            t.call("mcp__shop__save", address=f"a{i}")
        else:
            t.call("Bash" if i % 2 else "Read", command=f"echo {i % 7}", file_path=f"f{i % 3}.py", error=i % 11 == 0)
    return t.say("done").done()


def test_the_index_is_built_once_per_transcript_and_kept_with_it() -> None:
    t = _transcript(60)
    ix = _index(t)
    assert _index(t) is ix and isinstance(ix, CallIndex)
    assert _index(_transcript(60)) is not ix


def test_the_alias_index_holds_every_call_under_each_of_its_names() -> None:
    t = _transcript(60)
    ix = _index(t)
    for include in (True, False):
        pool = ix.pool(include)
        expected: dict[str, list[int]] = {}
        for i, call in enumerate(pool):
            for alias in call_aliases(call):
                expected.setdefault(alias, []).append(i)
        assert dict(ix.positions(include)) == expected
        assert {k: [pool[i] for i in v] for k, v in expected.items()} == {k: list(v) for k, v in ix.by_alias(include).items()}
    assert [x.name for x in ix.named("shop.save", True)] == ["mcp__shop__save"] * 12


def test_a_shell_command_is_parsed_once_per_distinct_text() -> None:
    t = _transcript(60)
    ix = _index(t)
    texts = [x.command for x in ix.shell_calls(True)]
    assert len(texts) == 24 and len(set(texts)) == 7
    scripts = [ix.script(x) for x in texts if x]
    assert len({id(s) for s in scripts}) == 7
    assert ix.file_effects("cat a.txt") is ix.file_effects("cat a.txt")


def test_evidence_is_shared_between_checks_but_equal_to_a_fresh_one() -> None:
    t = _transcript(30)
    a = c.check_tool_called(t, "Bash")
    b = c.check_tool_calls(t, ["Read", "Bash"], mode="covers")
    first = {e.call_id: e for e in a.evidence}
    assert all(e is first[e.call_id] for e in b.evidence if e.call_id in first and not e.text.endswith(("1", "2")))
    fresh = c.check_tool_called(_transcript(30), "Bash")
    assert a.evidence == fresh.evidence and a.render() == fresh.render()


def test_a_bare_name_is_answered_by_the_index_without_matching_each_call() -> None:
    """``Call.matches_call`` runs for no call when the spec is a bare tool name (counted)."""
    t = _transcript(400)
    c.check_tool_called(t, "Bash")  # the index is built here, outside the count

    calls = []
    original = Call.matches_call

    def spy(self: Call, *args: Any, **kwargs: Any) -> bool:
        calls.append(1)
        return original(self, *args, **kwargs)

    Call.matches_call = spy  # type: ignore[method-assign]
    try:
        c.check_tool_called(t, "Bash")
        c.check_called_before(t, "Read", "Bash")
        c.check_tool_calls(t, ["Read", "Bash", "mcp__shop__save"], mode="covers")
        c.check_tools_not_called(t, ["Edit", "Write"])
    finally:
        Call.matches_call = original  # type: ignore[method-assign]
    assert calls == []


def test_checks_after_the_first_reuse_the_index() -> None:
    t = _transcript(800)
    first = call_count(lambda: c.check_no_tool_errors(t, ignore_recovered=True))
    again = call_count(lambda: c.check_no_tool_errors(t, ignore_recovered=True))
    assert again < first  # the argument keys are not computed twice
