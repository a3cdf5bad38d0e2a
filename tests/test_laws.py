"""Laws of the order modes and negations, checked with Hypothesis.

* exact sequence ⇒ in order ⇒ covers; any order ⇔ covers ∧ only from;
* any order is symmetric; covers and only from are duals;
* matching is optimal: covers passes exactly when an injective assignment exists (brute force);
* a check and its negation never both pass on a complete transcript;
* in order / covers / not called are invariant to unrelated extra calls.
"""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agenteval_assert import checks as c
from agenteval_assert.matchers import Call, Unordered
from agenteval_assert.model import Transcript
from agenteval_assert.results import Status

from ._build import T

NAMES = ["Read", "Edit", "Bash", "Grep"]
PATHS = ["a.py", "b.py"]

call_st = st.tuples(st.sampled_from(NAMES), st.sampled_from(PATHS))
calls_st = st.lists(call_st, max_size=7)
spec_st = st.one_of(
    st.sampled_from(NAMES).map(Call),
    st.tuples(st.sampled_from(NAMES), st.sampled_from(PATHS)).map(lambda p: Call(p[0], file_path=p[1])),
)
specs_st = st.lists(spec_st, max_size=5)


def build(calls: list[tuple[str, str]], final: str = "done") -> Transcript:
    t = T().user("go")
    for name, path in calls:
        t.call(name, file_path=path)
    return t.say(final).done()


def status(t: Transcript, specs: list[Any], mode: str) -> bool:
    return c.check_tool_calls(t, specs, mode=mode).status is Status.PASS


def fits(spec: Call, call: tuple[str, str]) -> bool:
    name, path = call
    return spec.name == name and (spec.args is None or spec.args == {"file_path": path})


@given(calls_st, specs_st)
def test_exact_implies_in_order_implies_covers(calls: list[tuple[str, str]], specs: list[Call]) -> None:
    t = build(calls)
    exact, in_order, covers = (status(t, specs, m) for m in ("exact_sequence", "in_order", "covers"))
    assert not exact or in_order
    assert not in_order or covers


@given(calls_st, specs_st)
def test_any_order_is_covers_and_only_from(calls: list[tuple[str, str]], specs: list[Call]) -> None:
    t = build(calls)
    assert status(t, specs, "any_order") == (status(t, specs, "covers") and status(t, specs, "only_from"))


@given(calls_st)
def test_exact_sequence_of_itself_passes(calls: list[tuple[str, str]]) -> None:
    t = build(calls)
    specs = [Call(n, file_path=p) for n, p in calls]
    for mode in ("exact_sequence", "in_order", "any_order", "covers", "only_from"):
        assert status(t, specs, mode), mode


@given(st.lists(st.sampled_from(NAMES), max_size=6), st.lists(st.sampled_from(NAMES), max_size=6))
def test_any_order_is_symmetric(a: list[str], b: list[str]) -> None:
    ta, tb = build([(n, "a.py") for n in a]), build([(n, "a.py") for n in b])
    assert status(ta, [Call(n) for n in b], "any_order") == status(tb, [Call(n) for n in a], "any_order")


@given(st.lists(st.sampled_from(NAMES), max_size=6), st.lists(st.sampled_from(NAMES), max_size=6))
def test_covers_and_only_from_are_duals(a: list[str], b: list[str]) -> None:
    ta, tb = build([(n, "a.py") for n in a]), build([(n, "a.py") for n in b])
    assert status(ta, [Call(n) for n in b], "covers") == status(tb, [Call(n) for n in a], "only_from")


@settings(max_examples=300)
@given(st.lists(call_st, max_size=5), st.lists(spec_st, max_size=4))
def test_covers_is_optimal_against_brute_force(calls: list[tuple[str, str]], specs: list[Call]) -> None:
    t = build(calls)
    exists = any(
        all(fits(s, calls[i]) for s, i in zip(specs, perm, strict=True))
        for perm in itertools.permutations(range(len(calls)), len(specs))
    )
    assert status(t, specs, "covers") == exists


@given(calls_st, st.sampled_from(NAMES), st.sampled_from(PATHS))
def test_called_and_not_called_never_both_pass(calls: list[tuple[str, str]], name: str, path: str) -> None:
    t = build(calls)
    yes = c.check_tool_called(t, name, file_path=path).status is Status.PASS
    no = c.check_tool_not_called(t, name, file_path=path).status is Status.PASS
    assert yes != no  # complete transcript: exactly one of them passes


@given(calls_st, st.sampled_from(PATHS))
def test_file_changed_and_not_changed_never_both_pass(calls: list[tuple[str, str]], path: str) -> None:
    t = build(calls)
    yes = c.check_file_changed(t, path).status is Status.PASS
    no = c.check_file_not_changed(t, path).status is Status.PASS
    assert yes != no


@given(st.text(max_size=30), st.text(min_size=1, max_size=4))
def test_final_response_contains_and_not_contains_never_both_pass(final: str, part: str) -> None:
    t = build([("Read", "a.py")], final=final or "x")
    yes = c.check_final_response_contains(t, part).status is Status.PASS
    no = c.check_final_response_not_contains(t, part).status is Status.PASS
    assert yes != no


@given(calls_st, st.lists(st.tuples(st.integers(0, 7), st.sampled_from(PATHS)), max_size=4), specs_st)
def test_in_order_and_covers_ignore_unrelated_calls(
    calls: list[tuple[str, str]], extra: list[tuple[int, str]], specs: list[Call]
) -> None:
    base = build(calls)
    noisy_calls = list(calls)
    for pos, path in extra:
        noisy_calls.insert(min(pos, len(noisy_calls)), ("TodoWrite", path))  # a tool no spec names
    noisy = build(noisy_calls)
    for mode in ("in_order", "covers"):
        assert status(base, specs, mode) == status(noisy, specs, mode), mode
    for s in specs:
        assert (c.check_tool_not_called(base, s).status) == (c.check_tool_not_called(noisy, s).status)


@given(calls_st, specs_st)
def test_checks_are_deterministic(calls: list[tuple[str, str]], specs: list[Call]) -> None:
    t = build(calls)
    for mode in ("exact_sequence", "in_order", "any_order", "covers", "only_from"):
        a = c.check_tool_calls(t, specs, mode=mode).render()
        b = c.check_tool_calls(build(calls), specs, mode=mode).render()
        assert a == b


@given(calls_st, specs_st)
def test_singleton_groups_change_nothing(calls: list[tuple[str, str]], specs: list[Call]) -> None:
    t = build(calls)
    for mode in ("exact_sequence", "in_order"):
        assert status(t, [Unordered(s) for s in specs], mode) == status(t, specs, mode), mode


@given(calls_st, st.lists(st.lists(spec_st, min_size=1, max_size=3), max_size=3))
def test_grouped_sequences_keep_the_laws(calls: list[tuple[str, str]], groups: list[list[Call]]) -> None:
    t = build(calls)
    expected = [Unordered(*g) for g in groups]
    flat = [s for g in groups for s in g]
    exact, in_order = status(t, expected, "exact_sequence"), status(t, expected, "in_order")
    assert not exact or in_order
    assert not in_order or status(t, flat, "covers")
    assert not exact or status(t, flat, "any_order")
    # a group of one ordered list: exact order implies the grouped form
    assert not status(t, flat, "exact_sequence") or exact


@settings(max_examples=300)
@given(st.lists(call_st, max_size=5), st.lists(st.lists(spec_st, min_size=1, max_size=2), max_size=3))
def test_grouped_in_order_is_optimal_against_brute_force(
    calls: list[tuple[str, str]], groups: list[list[Call]]
) -> None:
    t = build(calls)
    flat = [(k, s) for k, g in enumerate(groups) for s in g]
    exists = False
    for perm in itertools.permutations(range(len(calls)), len(flat)):
        if not all(fits(s, calls[i]) for (_, s), i in zip(flat, perm, strict=True)):
            continue
        # every position of group k comes before every position of group k + 1
        ok = all(
            max(i for (g, _), i in zip(flat, perm, strict=True) if g == k)
            < min(i for (g, _), i in zip(flat, perm, strict=True) if g == k + 1)
            for k in range(len(groups) - 1)
        )
        if ok:
            exists = True
            break
    assert status(t, [Unordered(*g) for g in groups], "in_order") == exists


step_st = st.lists(st.one_of(st.sampled_from(NAMES), st.sampled_from(["said a", "said b"])), max_size=8)


@given(step_st, st.sampled_from(["said", "a", "b"]))
def test_final_response_checks_pass_only_on_text_after_the_last_call(steps: list[str], part: str) -> None:
    t = T().user("go")
    for s in steps:
        if s.startswith("said"):
            t.say(s)
        else:
            t.call(s, file_path="a.py")
    tr = t.done()
    ended_on_text = bool(steps) and steps[-1].startswith("said")
    assert (tr.final_answer is not None) == ended_on_text
    assert tr.final_answer is None or tr.final_answer == tr.final_response
    if not ended_on_text:  # never PASS on text that more calls followed
        assert c.check_final_response_contains(tr, part).status is not Status.PASS
        assert c.check_final_response_not_contains(tr, part).status is not Status.PASS
