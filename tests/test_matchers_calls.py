"""``Call.matches_call`` (the checks' inner loop) agrees with ``call_differences`` exactly."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._reader import ReadStats
from agenteval_assert.exceptions import UsageError
from agenteval_assert.matchers import (
    ABSENT,
    ANY,
    Call,
    Contains,
    Matcher,
    Matches,
    Not,
    Partial,
    values_match,
)
from agenteval_assert.matchers._calls import _dict_fits, _matches_call_long

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


# -- matches_call against the long way (every field read, the arguments by values_match) ------------



class _Sub(str):
    """A text of a subclass: compared through values_match, not inline."""


class _Asked(Matcher):
    """Records the values it is asked about (the same values, in the same order, both ways)."""

    __slots__ = ("log", "want")

    def __init__(self, want: object, log: list[object]) -> None:
        self.want = want
        self.log = log

    def matches(self, actual: Any) -> bool:
        self.log.append(actual)
        return bool(actual == self.want)

    def __repr__(self) -> str:
        return f"_Asked({self.want!r})"


def _mostly_none(values: list[object]) -> st.SearchStrategy[object]:
    """None most of the time: a spec that asks about a few fields, so the arguments are reached."""
    return st.sampled_from([None] * 8 + values)


_wide_values = st.one_of(_values, st.sampled_from([_Sub("a"), 1.0, 0.0, [1, "a"], ["a"], {"x": "a"}, {}]))
_wide_args = st.dictionaries(st.sampled_from(["x", "y", "z"]), _wide_values, max_size=3)


@st.composite
def _wide_calls(draw: st.DrawFn) -> list[object]:
    b = TranscriptBuilder("t.jsonl", "claude-session", "claude-code")
    n = draw(st.integers(1, 4))
    for i in range(n):
        name = draw(st.sampled_from(["Bash", "Read", "mcp__shop__get_order"]))
        server, tool = ("shop", "get_order") if name.startswith("mcp__") else (None, None)
        b.call(f"k{i}", id=f"t{i}", name=name, kind=draw(st.sampled_from(["shell", "file_read", "mcp"])),
               arguments=draw(_wide_args), line=i + 1, server=server, tool=tool,
               agent_id=draw(st.sampled_from([None, "sub"])))
        if draw(st.booleans()):
            b.result(f"k{i}", text=draw(st.sampled_from(["ok", "failed: a", ""])), line=i + 1,
                     is_error=draw(st.booleans()), exit_code=draw(st.sampled_from([None, 0, 1, 2])))
    return list(b.build(ReadStats(path="t.jsonl", lines=n, records=n)).all_tool_calls)


_wide_expected = st.one_of(
    st.sampled_from(["asked", "a", "b", "ab", "", _Sub("a"), 0, 1, 1.0, True, False, None, [1, "a"], ["a"],
                     {"x": "a"}, {}, ANY, ABSENT, Contains("a"), Contains("b"), Matches("^a"), Matches("b$"),
                     Not("a"), Not(1), "asked", "asked"]),
    st.dictionaries(st.sampled_from(["x", "y"]), _values, max_size=2))


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from([None, "Bash", "get_order", "shop.get_order", Matches("^R")]),
    st.one_of(st.none(), st.dictionaries(st.sampled_from(["x", "y", "z"]), _wide_expected, max_size=3),
              st.builds(Partial, st.dictionaries(st.sampled_from(["x"]), _values, max_size=1)),
              st.just({}), st.just(ANY), st.builds(Not, st.just({"x": "a"}))),
    st.fixed_dictionaries({
        "kind": _mostly_none(["shell", "mcp", Matches("^f")]),
        "server": _mostly_none(["shop", Contains("sh")]),
        "tool": _mostly_none(["get_order"]),
        "status": _mostly_none(["completed", "pending"]),
        "exit_code": _mostly_none([0, 1, Not(0)]),
        "is_error": _mostly_none([True, False]),
        "agent": _mostly_none(["main", "subagent"]),
        "output": _mostly_none(["ok", Contains("fail")]),
        "mode": _mostly_none(["partial", "exact", "ignore"]),
        "where": _mostly_none([lambda c: c.index % 2 == 0]),
    }),
    _wide_calls(),
    st.sampled_from(["partial", "partial", "partial", "exact", "exact", "ignore", "bogus"]),
    st.sampled_from([None, None, None, None, {}, {"Bash": "exact"}, {"get_order": ["x"]}]),
)
def test_matches_call_is_the_long_way(name: object, args: Any, fields: dict[str, Any], calls: list[object],
                                      mode: str, overrides: Any) -> None:
    """The same verdict, the same error, and every matcher asked about the same values in the
    same order (a recording matcher in the expected arguments)."""
    logs: tuple[list[object], list[object]] = ([], [])
    results = []
    for log in logs:
        spec_args = args
        if isinstance(args, dict):
            spec_args = {k: (_Asked("a", log) if v == "asked" and type(v) is str else v) for k, v in args.items()}
        spec = Call(name, args=spec_args, **fields)  # type: ignore[arg-type]
        fast = log is logs[0]
        got = []
        for c in calls:
            try:
                if fast:
                    got.append(spec.matches_call(c, mode=mode, overrides=overrides))  # type: ignore[arg-type]
                else:
                    got.append(_matches_call_long(spec, c, mode=mode, overrides=overrides))  # type: ignore[arg-type]
            except UsageError as e:
                got.append(str(e))  # type: ignore[arg-type]
        results.append(got)
    assert results[0] == results[1]
    assert logs[0] == logs[1]


_EXPECTED_ONE: list[object] = ["a", "b", "ab", "", _Sub("a"), 0, 1, 1.0, True, False, None, [1, "a"], ["a"],
                               {"x": "a"}, {}, ANY, ABSENT, Contains("a"), Matches("^a"), Not("a"), Partial({"x": "a"})]
_ACTUAL_ONE: list[object] = ["a", "b", "ab", "", _Sub("a"), 0, 1, 1.0, True, False, None, [1, "a"], ["a"],
                             {"x": "a"}, {"x": "a", "y": 1}, {}, _MISSING_ARG := object()]


def test_dict_fits_is_values_match_exhaustively() -> None:
    """Every pair of one expected and one actual value (or none), under one or two keys, in
    both argument modes: ``_dict_fits`` is ``values_match`` of the two dicts."""
    for partial in (True, False):
        for e in _EXPECTED_ONE:
            for a in _ACTUAL_ONE:
                have = {} if a is _MISSING_ARG else {"x": a}
                for want in ({"x": e}, {"x": e, "y": 1}, {"y": e, "x": "a"}):
                    for extra in ({}, {"y": 1}, {"z": e}):
                        actual = {**have, **extra}
                        assert _dict_fits(want, actual, partial) == values_match(want, actual, partial=partial), (
                            want, actual, partial)


class _EqAll(str):
    """A text of a subclass whose ``==`` says yes to every text (asked first, as the subclass)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str)

    __hash__ = str.__hash__


class _DictSub(dict):  # type: ignore[type-arg]
    """A dict of a subclass: compared through values_match, not by _dict_fits."""


_NAN = float("nan")
_leaves = st.one_of(
    st.sampled_from(["a", "", _Sub("a"), _EqAll("zz"), 0, 1, -1, 1.0, 0.0, -0.0, _NAN, float("inf"), True, False,
                     None, ANY, ABSENT, Contains("a"), Contains(1), Matches("^a"), Matches("a", full=True), Not("a"),
                     Not(None), (1, "a"), b"a"]),
    st.integers(-2, 2), st.text("ab", max_size=2), st.floats(allow_nan=True, width=16))
_keys = st.sampled_from(["x", "y", "", 0, 1, True, None, _NAN, _Sub("x")])
_nested = st.recursive(
    _leaves,
    lambda kids: st.one_of(st.lists(kids, max_size=3), st.dictionaries(_keys, kids, max_size=3),
                           st.dictionaries(_keys, kids, max_size=2).map(_DictSub),
                           st.dictionaries(_keys, kids, max_size=2).map(lambda d: Partial(d))),
    max_leaves=8)


@settings(max_examples=3000, deadline=None)
@example({"x": None}, {}, 0, True)  # a missing key is no None
@example({"x": ANY}, {}, 0, True)  # nor any value
@example({"x": "a"}, {"x": ANY}, 0, True)  # a text fits only a text (ANY == "a" says yes)
@example({"x": 1}, {"x": True}, 0, False)  # True == 1, but a bool is no number here
@example({_NAN: 1}, {_NAN: 1}, 0, False)  # the same NaN key: found by identity
@example({"x": ABSENT}, {"x": None}, 0, False)
@example({"x": ABSENT, "y": 1}, {"y": 1}, 0, False)  # an ABSENT key is no wanted key in exact mode
@given(st.dictionaries(_keys, _nested, max_size=4), st.dictionaries(_keys, _nested, max_size=4),
       st.integers(0, 15), st.booleans())
def test_dict_fits_is_values_match_for_nested_values(want: dict[Any, Any], have: dict[Any, Any], share: int,
                                                     partial: bool) -> None:
    """Any nesting of dicts (plain, a subclass, Partial), lists, tuples, matchers, NaN (as a value
    and as a key: found by identity), -0.0, bools against ints (True == 1), str subclasses
    (one whose ``==`` says yes to every text), bytes, missing keys against None and ABSENT, and
    extra keys: ``_dict_fits`` gives ``values_match``'s verdict, and so does ``matches_call``."""
    # an actual that shares some expected values (the bits of *share*), so that they fit
    have = {**have, **{k: v for j, (k, v) in enumerate(want.items()) if share >> j & 1}}
    assert _dict_fits(want, have, partial) == values_match(want, have, partial=partial)
    b = TranscriptBuilder("t.jsonl", "claude-session", "claude-code")
    b.call("k0", id="t0", name="Bash", kind="shell", arguments=have, line=1)
    call = b.build(ReadStats(path="t.jsonl", lines=1, records=1)).all_tool_calls[0]
    spec = Call("Bash", args=want)
    mode = "partial" if partial else "exact"
    assert spec.matches_call(call, mode=mode) == _matches_call_long(spec, call, mode=mode)
