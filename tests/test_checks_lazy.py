"""Evidence made when read (``results.LazyEvidence``): a check that cites many calls keeps the
calls and makes each item on access. These tests hold the lazy results to the eager ones: the
same checks, on random transcripts, with every evidence list made at once (``_LAZY_FROM`` set
beyond any list) and with every one made when read (``_LAZY_FROM = 0``), must give equal
results, the same rendering (bounded and verbose), the same JSON document and the same pickle."""

from __future__ import annotations

import copy
import json
import operator
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenteval_assert import checks as c
from agenteval_assert.checks import _common
from agenteval_assert.matchers import Call, Matches
from agenteval_assert.model import Transcript
from agenteval_assert.results import MAX_EVIDENCE, CheckResult, Evidence, LazyEvidence

from ._build import T

_NAMES = ["Read", "Bash", "Edit", "Write", "Grep", "mcp__shop__save"]
_OUTPUTS = ["ok", "permission denied", "Error: timed out", "passed\n3 tests", "x" * 300 + " denied " + "y" * 900,
            "import { Button } from './x'", "sk-" + "a" * 30, ""]


@st.composite
def _transcripts(draw: st.DrawFn) -> Transcript:
    t = T().user(draw(st.sampled_from(["go", "fix it"])))
    for _ in range(draw(st.integers(0, 40))):
        name = draw(st.sampled_from(_NAMES))
        args: dict[str, Any] = {}
        if name == "Bash":
            args["command"] = draw(st.sampled_from(["ls -la", "npm test", "cat src/a.tsx", "git status", "rm -rf x"]))
        elif name == "mcp__shop__save":
            args["address"] = draw(st.sampled_from(["a", "b"]))
        else:
            args["file_path"] = draw(st.sampled_from(["/w/src/Button.tsx", "/w/stories/a.ts", "/w/package.json"]))
        t.call(name, output=draw(st.sampled_from(_OUTPUTS)), error=draw(st.booleans()),
               exit_code=draw(st.sampled_from([None, 0, 1, 2])) if name == "Bash" else None,
               answered=draw(st.integers(0, 9)) > 0, **args)
    if draw(st.booleans()):
        t.say(draw(st.sampled_from(["done: Button story added", "I could not run the tests: they failed", "ok"])))
    return t.done()


_CHECKS: list[tuple[str, Callable[[Transcript], CheckResult]]] = [
    ("tool_called Read", lambda t: c.check_tool_called(t, "Read")),
    ("tool_called Read at_most", lambda t: c.check_tool_called(t, "Read", at_most=2)),
    ("tool_called many", lambda t: c.check_tool_called(t, "Read", at_least=1000)),
    ("tool_called args", lambda t: c.check_tool_called(t, Call("Read", file_path=Matches(r"\.tsx$")))),
    ("no_tool_calls", lambda t: c.check_no_tool_calls(t)),
    ("only_tools", lambda t: c.check_only_tools(t, ["Read"])),
    ("tools_not_called", lambda t: c.check_tools_not_called(t, ["Bash", "Edit"])),
    ("exact_sequence", lambda t: c.check_tool_calls(t, ["Read", "Bash"], mode="exact_sequence")),
    ("exact_sequence all", lambda t: c.check_tool_calls(t, [x.name for x in t.tool_calls], mode="exact_sequence")),
    ("in_order", lambda t: c.check_tool_calls(t, ["Read", "Edit"], mode="in_order")),
    ("any_order", lambda t: c.check_tool_calls(t, ["Read", "Bash", "Edit"], mode="any_order")),
    ("covers", lambda t: c.check_tool_calls(t, ["Read", "Grep"], mode="covers")),
    ("only_from", lambda t: c.check_tool_calls(t, _NAMES, mode="only_from")),
    ("only_from few", lambda t: c.check_tool_calls(t, ["Read", "Bash", "Read"], mode="only_from")),
    ("called_within", lambda t: c.check_called_within(t, "Read", "Edit", steps=1)),
    ("never_after", lambda t: c.check_never_after(t, "Read", "Bash")),
    ("tool_succeeded", lambda t: c.check_tool_succeeded(t, "Bash")),
    ("tool_failed", lambda t: c.check_tool_failed(t, "Read")),
    ("no_tool_errors", lambda t: c.check_no_tool_errors(t)),
    ("no_tool_errors recovered", lambda t: c.check_no_tool_errors(t, ignore_recovered=True)),
    ("retried", lambda t: c.check_retried_after_failure(t, "Bash")),
    ("failures_not_reported", lambda t: c.check_failures_not_reported_as_success(t)),
    ("tool_output", lambda t: c.check_tool_output(t, "Bash", contains="passed")),
    ("command_ran failed", lambda t: c.check_command_ran(t, Matches("."), succeeded=False)),
    ("command_ran", lambda t: c.check_command_ran(t, "npm test")),
    ("file_read", lambda t: c.check_file_read(t, Matches("."))),
    ("file_written", lambda t: c.check_file_written(t, "/nope")),
    ("file_not_changed", lambda t: c.check_file_not_changed(t, Matches("."), succeeded=None)),
    ("confirmed_before_write", lambda t: c.check_confirmed_before_write(t, ["Write", "Edit"])),
    ("no_duplicate_calls", lambda t: c.check_no_duplicate_calls(t, _NAMES)),
]


@contextmanager
def _lazy_from(n: int) -> Iterator[None]:
    was = _common._LAZY_FROM
    _common._LAZY_FROM = n
    try:
        yield
    finally:
        _common._LAZY_FROM = was


def _shown(r: CheckResult) -> tuple[Any, ...]:
    return (r.render(verbose=False), r.render(verbose=True), json.dumps(r.to_dict()), repr(r), len(r.evidence))


@settings(max_examples=60, deadline=None)
@given(_transcripts(), st.data())
def test_lazy_evidence_gives_the_results_of_eager_evidence(t: Transcript, data: st.DataObject) -> None:
    for name, check in _CHECKS:
        with _lazy_from(10**9):
            eager = check(t)
        with _lazy_from(data.draw(st.sampled_from([0, 1, MAX_EVIDENCE]), label="lazy from")):
            lazy = check(t)
        assert type(eager.evidence) is not LazyEvidence, name
        assert lazy == eager and eager == lazy, name
        assert hash(lazy) == hash(eager), name
        assert lazy.evidence == eager.evidence and eager.evidence == lazy.evidence, name
        assert _shown(lazy) == _shown(eager), name
        assert pickle.loads(pickle.dumps(lazy)) == eager, name


def test_a_check_citing_many_calls_makes_only_the_items_it_renders(monkeypatch: pytest.MonkeyPatch) -> None:
    t = T().user("go")
    for i in range(200):
        t.call("Bash", command=f"echo {i}", output="permission denied", error=True)
    tr = t.say("done").done()
    made = 0
    real = Evidence.from_call.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Evidence], *a: Any, **kw: Any) -> Evidence:
        nonlocal made
        made += 1
        return real(cls, *a, **kw)  # type: ignore[no-any-return]

    monkeypatch.setattr(Evidence, "from_call", classmethod(counting))
    for check in (c.check_no_tool_calls, c.check_no_tool_errors, c.check_failures_not_reported_as_success):
        made = 0
        r = check(tr)
        assert isinstance(r.evidence, LazyEvidence) and len(r.evidence) >= 200 and made <= 1
        text = r.render()
        assert made == MAX_EVIDENCE + (r.nearest_miss is not None)
        assert "... and " in text
        r.render()
        assert made == MAX_EVIDENCE  # made once, kept
    r = c.check_tool_calls(tr, ["Bash"] * 200, mode="only_from")
    made = 0
    assert [e.text.rsplit("  ", 1)[-1] for e in r.evidence[:3]] == ["expected 1", "expected 2", "expected 3"]
    assert made == 3


def _lazy(n: int, note: str = "") -> tuple[LazyEvidence, tuple[Evidence, ...]]:
    t = T().user("go")
    for i in range(n):
        t.call("Read", file_path=f"f{i}.py")
    calls = t.say("done").done().tool_calls
    return LazyEvidence(calls, lambda x, i: Evidence.from_call(x, note)), tuple(
        Evidence.from_call(x, note) for x in calls)


def test_lazy_evidence_reads_as_the_tuple_of_its_items() -> None:
    lazy, items = _lazy(12)
    assert len(lazy) == 12 and bool(lazy) and not LazyEvidence((), lambda x, i: x)
    assert lazy == items and items == lazy and operator.ne(lazy, items) is False and lazy != items[:-1]
    assert lazy != list(items) and list(items) != lazy  # as a tuple: never equal to a list
    assert hash(lazy) == hash(items)
    assert lazy[0] == items[0] and lazy[-1] == items[-1] and lazy[0] is lazy[0]
    with pytest.raises(IndexError):
        lazy[12]
    with pytest.raises(IndexError):
        lazy[-13]
    with pytest.raises(TypeError):
        lazy["0"]  # type: ignore[call-overload]
    assert lazy[2:5] == items[2:5] and type(lazy[2:5]) is tuple and lazy[::-3] == items[::-3]
    assert list(lazy) == list(items) and list(reversed(lazy)) == list(reversed(items))
    assert items[3] in lazy and lazy.index(items[3]) == 3 and lazy.count(items[3]) == 1
    assert lazy + items[:1] == items + items[:1] and items[:1] + lazy == items[:1] + items
    assert lazy + lazy == items + items and type(lazy + lazy) is tuple
    with pytest.raises(TypeError):
        operator.add(lazy, [1])
    assert repr(lazy) == repr(items)
    for copied in (pickle.loads(pickle.dumps(lazy)), copy.copy(lazy), copy.deepcopy(lazy)):
        assert type(copied) is tuple and copied == items


def test_lazy_evidence_chains_its_parts_in_order() -> None:
    lazy, items = _lazy(12, "a")
    more, more_items = _lazy(3, "b")
    one = (Evidence("first"),)
    chained = LazyEvidence.chain(one, lazy, (), more, [Evidence("last")])
    want = (*one, *items, *more_items, Evidence("last"))
    assert type(chained) is LazyEvidence and chained == want and len(chained) == len(want)
    assert [chained[i] for i in range(-len(want), len(want))] == [*want, *want]
    assert LazyEvidence.chain(one, [Evidence("x")]) == (Evidence("first"), Evidence("x"))
    assert type(LazyEvidence.chain(one, [Evidence("x")])) is tuple and LazyEvidence.chain() == ()


def test_a_result_keeps_a_lazy_sequence_as_it_is_and_any_other_as_a_tuple() -> None:
    lazy, items = _lazy(12)
    assert CheckResult.passing("x", "s", lazy).evidence is lazy
    r = CheckResult.failing("x", "e", "f", list(items))
    assert type(r.evidence) is tuple and r.evidence == items
    assert CheckResult.inconclusive("x", "e", "f", iter(items)).evidence == items


def test_lazy_plain_evidence_is_the_index_items_while_the_index_lives_and_does_not_keep_it() -> None:
    import gc
    import weakref

    from agenteval_assert.checks._common import _index

    t = T().user("go")
    for i in range(30):
        t.call("Read", file_path=f"f{i}.py")
    tr = t.say("done").done()
    a, b = c.check_tool_called(tr, "Read"), c.check_no_tool_calls(tr)
    assert isinstance(a.evidence, LazyEvidence) and isinstance(b.evidence, LazyEvidence)
    assert all(x is y for x, y in zip(a.evidence, b.evidence, strict=True))  # described once, for both
    ix = weakref.ref(_index(tr))
    fresh = c.check_tool_called(T().user("go").call("Read", file_path="f0.py").say("done").done(), "Read")
    del tr
    gc.collect()
    assert ix() is None  # the results do not keep the index alive
    r = c.check_tool_called(_many_reads(), "Read")
    gc.collect()
    assert r.evidence[0] == fresh.evidence[0] and r.render()


def _many_reads() -> Transcript:
    t = T().user("go")
    for i in range(30):
        t.call("Read", file_path=f"f{i}.py")
    return t.say("done").done()
