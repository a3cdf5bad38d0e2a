"""The shortcuts of the retry and duplicate checks against their long ways:

* ``retried_after_failure(same_args=False)`` walks the failed tools' calls forward and stops at
  the first failed call's retry (``_outcomes._first_retry``): the same answer as the reversed
  walk over every call of those tools (``_recoveries(same_args=False)``), for any set of failed
  calls, and for calls that share an index (a transcript made by hand);
* ``no_duplicate_calls`` keys the calls through the index's shared argument keys: the same
  result whether other checks filled them first or not, and as keying every call by its
  canonical JSON.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agenteval_assert import checks as c
from agenteval_assert.checks import _outcomes
from agenteval_assert.checks._common import _index, _recoveries
from agenteval_assert.matchers import Call, canonical_json
from agenteval_assert.model import ToolCall, Transcript
from agenteval_assert.results import Evidence

from ._build import T

_CALLS = st.lists(st.tuples(st.sampled_from(["Bash", "Read", "mcp__s__t", "t"]), st.sampled_from([None, "sub"]),
                            st.sampled_from([None, "failed", "declined", "completed"]), st.sampled_from([None, 0, 1]),
                            st.booleans()), max_size=14)


def _transcript(calls: list[tuple[str, str | None, str | None, int | None, bool]]) -> Transcript:
    t = T().user("go")
    for name, agent, status, code, answered in calls:
        t.call(name, command="x", agent=agent, status=status, exit_code=code, answered=answered)
    return t.say("done").done()


def _first(failed: list[ToolCall], found: dict[int, ToolCall]) -> tuple[int, int] | None:
    """What the check reads of the retries: the first failed call answered, and its answer."""
    for f in failed:
        r = found.get(f.index)
        if r is not None:
            return f.index, r.index
    return None


_CROSSED = [("t", None, "failed", None, True), ("mcp__s__t", None, "failed", None, True),
            ("mcp__s__t", None, "completed", 0, True), ("t", None, "completed", 0, True)]
"""Two tools' failures, the later one retried first: the answer is the first failure's retry."""


@settings(max_examples=400, deadline=None)
@example(_CROSSED, True, random.Random(0), [])
@given(_CALLS, st.booleans(), st.randoms(use_true_random=False), st.lists(st.integers(0, 13), max_size=3))
def test_the_first_retry_is_the_one_the_walk_over_every_call_finds(
        calls: list[tuple[str, str | None, str | None, int | None, bool]], include_subagents: bool, rnd: Any,
        renumber: list[int]) -> None:
    tr = _transcript(calls)
    pool = list(_index(tr).pool(include_subagents))
    if renumber and pool:  # some calls take another call's index (made by hand): two calls of one index
        for k in renumber:
            i, j = k % len(pool), rnd.randrange(len(pool))
            pool[i] = attrs.evolve(pool[i], index=pool[j].index)
    failed = [x for x in pool if x.is_error]
    for names in [{x.name for x in failed}, *({x.name} for x in failed)]:
        named = [x for x in pool if x.name in names]
        some = [x for x in failed if x.name in names and (rnd.random() < 0.8 or not renumber)]
        want = _first(some, _recoveries(some, named, same_args=False))
        assert _first(some, _outcomes._first_retry(some, named)) == want


@settings(max_examples=200, deadline=None)
@example(_CROSSED, True)
@given(_CALLS, st.booleans())
def test_retried_after_failure_of_any_arguments_is_the_long_ways(
        calls: list[tuple[str, str | None, str | None, int | None, bool]], include_subagents: bool) -> None:
    tr = _transcript(calls)
    for tool in ("Bash", "t", "s.t", Call("Bash", command="x")):
        r = c.check_retried_after_failure(tr, tool, same_args=False, include_subagents=include_subagents)
        saved = _outcomes._first_retry
        _outcomes._first_retry = lambda failed, named: _recoveries(failed, named, same_args=False)  # the long way
        try:
            again = c.check_retried_after_failure(attrs.evolve(tr), tool, same_args=False,
                                                  include_subagents=include_subagents)
        finally:
            _outcomes._first_retry = saved
        assert r.to_dict() == again.to_dict() and r.render(verbose=True) == again.render(verbose=True)


_VALUES = st.sampled_from(["a", "b", 1, 1.0, True, None, [1], {"k": "a"}, "1"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Write", "Edit", "Read"]),
                          st.dictionaries(st.sampled_from(["file_path", "content", "x"]), _VALUES, max_size=3),
                          st.sampled_from([None, "failed"])), max_size=10),
       st.booleans(), st.booleans())
def test_no_duplicate_calls_is_the_same_with_the_keys_filled_first_or_not(
        calls: list[tuple[str, dict[str, Any], str | None]], ignore_failed: bool, fill_first: bool) -> None:
    t = T().user("go")
    for name, args, status in calls:
        t.call(name, status=status, **args)
    tr = t.say("done").done()
    if fill_first:  # other checks key some calls first (the retries of failed calls)
        c.check_no_tool_errors(tr, ignore_recovered=True)
        c.check_retried_after_failure(tr, "Write")
    r = c.check_no_duplicate_calls(tr, ["Write", "Edit"], ignore_failed=ignore_failed)
    assert r.to_dict() == c.check_no_duplicate_calls(attrs.evolve(tr), ["Write", "Edit"],
                                                     ignore_failed=ignore_failed).to_dict()
    # the long way: every call keyed by its canonical JSON
    seen: dict[tuple[str, str], ToolCall] = {}
    dups = []
    for x in tr.tool_calls:
        if x.name not in ("Write", "Edit") or (ignore_failed and x.is_error):
            continue
        key = (x.name, canonical_json(dict(x.arguments)))
        if key in seen:
            dups.append((seen[key].index, x.index))
        else:
            seen[key] = x
    if dups:
        assert r.found == f"{len(dups)} duplicate" + ("s" if len(dups) != 1 else "")
        assert [e.text for e in r.evidence[1:]] == [
            Evidence.from_call(tr.tool_calls[b], f"same tool and arguments as #{a} ({tr.tool_calls[a].location})").text
            for a, b in dups]
    else:
        assert "duplicate" not in r.found and r.status.value != "fail"
