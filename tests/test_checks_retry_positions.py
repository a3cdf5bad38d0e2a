"""The retry walk's by-value shortcut (``_retry_candidates``, ``direct``) may take a call's
position in the pool for its ``index`` only when every call's index is its position: a
transcript whose calls are not numbered by their place (steps re-ordered by ``attrs.evolve``, a
transcript made by hand) gets the verdict of the walk over every call, even when its last
call's index is ``len(pool) - 1``."""

from __future__ import annotations

import attrs

from agenteval_assert import checks as c
from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._reader import ReadStats


def _reordered():
    b = TranscriptBuilder("f.jsonl", "x", "y")
    b.call("k0", id="k0", name="Read", kind="file_read", arguments={"path": "a"}, line=1)
    b.result("k0", text="ok", line=2)
    b.call("k1", id="k1", name="Read", kind="file_read", arguments={"path": "a"}, line=3)
    b.result("k1", text="boom", line=4, is_error=True)
    b.call("k2", id="k2", name="Read", kind="file_read", arguments={"path": "b"}, line=5)
    b.result("k2", text="ok", line=6)
    t = b.build(ReadStats(path="f.jsonl"))
    c0, c1, c2 = t.steps
    # the failed call #1 now comes first, its retry #0 after it; the last call keeps index 2
    return attrs.evolve(t, steps=(c1, c0, c2), tool_calls=(c1, c0, c2))


def test_retry_found_when_indexes_are_not_positions() -> None:
    t = _reordered()
    r = c.check_retried_after_failure(t, "Read")
    assert r.status.value == "pass", r.found  # main: FAIL "1 failure without a successful retry"


def test_recovered_failure_ignored_when_indexes_are_not_positions() -> None:
    t = _reordered()
    r = c.check_no_tool_errors(t, ignore_recovered=True)
    assert r.status.value == "pass", r.found  # main: FAIL
