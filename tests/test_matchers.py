"""Matchers: truth tables, reprs, construction-time validation, differences, interop."""

from __future__ import annotations

import time
from typing import Any

import pytest
from dirty_equals import IsInt, IsPartialDict, IsStr
from hypothesis import given
from hypothesis import strategies as st

from agenteval_assert.exceptions import UsageError
from agenteval_assert.matchers import (
    ABSENT,
    ANY,
    AllOf,
    AnyOf,
    Approx,
    Call,
    Contains,
    Exact,
    IgnoringKeys,
    JsonPath,
    Matches,
    Not,
    OfType,
    OneOf,
    Partial,
    RegexTimeoutError,
    Satisfies,
    args_differences,
    values_match,
)
from agenteval_assert.results import Difference, Status

from ._build import T

TABLE: list[tuple[Any, Any, bool]] = [
    # value, matcher, expected
    ({"a": 1}, Exact({"a": 1}), True),
    ({"a": 1.0}, Exact({"a": 1}), True),  # 1 == 1.0: numbers compare by value
    ({"a": "1"}, Exact({"a": 1}), False),  # "1" is not 1
    ({"a": True}, Exact({"a": 1}), False),  # True is not 1
    ({"a": 1}, Exact({"a": True}), False),
    ({"a": 1, "b": 2}, Exact({"a": 1}), False),  # extra key
    ({"a": {"x": 1, "y": 2}}, Exact({"a": {"x": 1}}), False),  # exact at every depth
    ({"a": 1, "b": 2}, Partial({"a": 1}), True),
    ({"a": {"x": 1, "y": 2}, "b": 0}, Partial({"a": {"x": 1}}), True),  # recursive
    ({"a": [{"x": 1, "y": 2}]}, Partial({"a": [{"x": 1}]}), True),  # lists: element-wise, partial dicts inside
    ({"a": [1, 2]}, Partial({"a": [1]}), False),  # list lengths must agree
    ({"a": 1}, Partial(a=1, b=ABSENT), True),
    ({"a": 1, "b": 2}, Partial(a=1, b=ABSENT), False),
    ({}, Partial(a=ANY), False),  # ANY still requires the key
    ({"a": None}, Partial(a=ANY), True),
    ({"q": "x", "request_id": "r1"}, IgnoringKeys({"q": "x", "request_id": "r2"}, "request_id"), True),
    ({"q": "y", "request_id": "r1"}, IgnoringKeys({"q": "x"}, "request_id"), False),
    ({"m": [{"ts": 1, "v": 2}]}, IgnoringKeys({"m": [{"ts": 9, "v": 2}]}, "m.*.ts"), True),
    ({"m": {"a": {"ts": 1}, "b": {"ts": 2}}}, IgnoringKeys({"m": {"a": {}, "b": {}}}, "m.*.ts"), True),
    ({"items": [{"sku": "A1"}, {"sku": "B2"}]}, JsonPath("$.items[*].sku", "B2"), True),
    ({"items": [{"sku": "A1"}, {"sku": "B2"}]}, JsonPath("$.items[*].sku", "A1", every=True), False),
    ({"items": [{"sku": "A1"}, {"sku": "B2"}]}, JsonPath("$.items[*].sku", OneOf("A1", "B2"), every=True), True),
    ({"items": []}, JsonPath("$.items[*].sku"), False),  # selects nothing → no match
    ({"a": {"b": 3}}, JsonPath("$.a.b", Approx(3.0001, abs=0.001)), True),
    ({"n": [1, 5, 9]}, JsonPath("$.n[?(@ > 4)]", OfType(int), every=True), True),
    ("uv run pytest -q", Matches(r"\bpytest\b"), True),
    ("pytest-cov", Matches(r"\bpytest\b(?!-)"), False),
    ("ABC", Matches("abc", ignore_case=True), True),
    ("abcd", Matches("abc", full=True), False),
    (12, Matches("12"), False),  # only strings match a regex
    (3.14159, Approx(3.14, abs=0.01), True),
    (3.2, Approx(3.14, abs=0.01), False),
    (100.00001, Approx(100), True),  # default rel=1e-6
    (True, Approx(1), False),
    ("3", Approx(3), False),
    (1, OfType(int), True),
    (True, OfType(int), False),  # bool is not an int here
    (True, OfType(bool), True),
    (1.5, OfType(int, float), True),
    (4, Satisfies(lambda v: v % 2 == 0, "even"), True),
    (5, Satisfies(lambda v: v % 2 == 0, "even"), False),
    ("b", OneOf("a", "b"), True),
    ("c", OneOf("a", Matches("^b")), False),
    ("run --force", Not(Contains("--force")), False),
    ("run", Not(Contains("--force")), True),
    ("abc", AllOf(OfType(str), Contains("b")), True),
    ("abc", AllOf(OfType(str), Contains("z")), False),
    ("abc", AnyOf(Contains("z"), Contains("a")), True),
    (["a", "b"], Contains("b"), True),
    ([{"id": 1, "x": 2}], Contains({"id": 1}), True),  # list element, compared partially
    ("Order 1042 shipped", Contains("order 1042", ignore_case=True), True),
    (None, ANY, True),
]


@pytest.mark.parametrize(("value", "matcher", "expected"), TABLE, ids=[repr(m) for _, m, _ in TABLE])
def test_truth_table(value: Any, matcher: Any, expected: bool) -> None:
    assert (matcher == value) is expected
    assert (matcher != value) is (not expected)
    assert values_match(matcher, value) is expected


@pytest.mark.parametrize(
    ("matcher", "text"),
    [
        (Exact({"a": 1}), "Exact({'a': 1})"),
        (Partial(a=1), "Partial({'a': 1})"),
        (IgnoringKeys({"q": 1}, "ts", "m.*.id"), "IgnoringKeys({'q': 1}, 'ts', 'm.*.id')"),
        (JsonPath("$.a"), "JsonPath('$.a')"),
        (JsonPath("$.a[*]", Matches("x"), every=True), "JsonPath('$.a[*]', Matches('x'), every=True)"),
        (Matches(r"\bpytest\b"), "Matches('\\\\bpytest\\\\b')"),
        (Matches("a", ignore_case=True, full=True, timeout=2.0), "Matches('a', ignore_case=True, full=True, timeout=2.0)"),
        (Contains("x", ignore_case=True), "Contains('x', ignore_case=True)"),
        (Approx(3.14, abs=0.01), "Approx(3.14, abs=0.01)"),
        (Approx(2, rel=0.1), "Approx(2, rel=0.1)"),
        (OfType(int, float), "OfType(int, float)"),
        (Satisfies(lambda v: v, "truthy"), "Satisfies('truthy')"),
        (OneOf("a", 1), "OneOf('a', 1)"),
        (Not(1), "Not(1)"),
        (ANY, "ANY"),
        (ABSENT, "ABSENT"),
        (Call("Bash", command=Matches("pytest")), "Call('Bash', command=Matches('pytest'))"),
        (Call(kind="file_edit"), "Call(kind='file_edit')"),
        (Call("Write", args={"a": 1}, mode="exact"), "Call('Write', a=1, mode='exact')"),
        (Call("X", args={"mode": 1}), "Call('X', args={'mode': 1})"),
    ],
)
def test_repr_is_the_constructor_call(matcher: Any, text: str) -> None:
    assert repr(matcher) == text


def named_predicate(v: object) -> bool:
    return bool(v)


def test_satisfies_repr_uses_the_function_name() -> None:
    assert repr(Satisfies(named_predicate)) == "Satisfies(named_predicate)"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Matches("("), "invalid regular expression '('"),
        (lambda: Matches(3), "takes a pattern string"),  # type: ignore[arg-type]  # misuse on purpose
        (lambda: JsonPath("$["), "not a valid JSONPath"),
        (lambda: Approx("x"), "takes a number"),  # type: ignore[arg-type]  # misuse on purpose
        (lambda: Approx(1, abs=-1), "abs must be a non-negative number"),
        (lambda: OfType(), "one or more types"),
        (lambda: OfType("str"), "one or more types"),  # type: ignore[arg-type]  # misuse on purpose
        (lambda: Satisfies(3), "takes a callable"),  # type: ignore[arg-type]  # misuse on purpose
        (lambda: OneOf(), "at least one value"),
        (lambda: IgnoringKeys({}), "at least one key"),
        (lambda: IgnoringKeys({}, "a..b"), "bad key path"),
        (lambda: Partial([1]), "takes a mapping"),  # type: ignore[arg-type]  # misuse on purpose
        (lambda: Call("X", mode="fuzzy"), "args mode must be one of"),  # type: ignore[arg-type]  # misuse on purpose
        (lambda: Call("X", args={"a": 1}, b=2), "either as args"),
        (lambda: Call("X", agent="sub"), "agent must be"),  # type: ignore[arg-type]  # misuse on purpose
        (lambda: Contains(1, ignore_case=True), "needs a string"),
        # a function or a class as an expected value would be compared by equality, never called
        (lambda: Call("Bash", command=lambda c: "rm" in c),
         ("the expected value of argument 'command' is a function, which would be compared by equality and "
          "never called: wrap it in Satisfies(...)")),
        (lambda: Call("Bash", args={"env": {"paths": [len]}}), "argument 'env.paths[0]' is a function"),
        (lambda: Call("Bash", output=str.isdigit), "output= is a function"),
        (lambda: Call("Bash", command=str), "is the class str, which would be compared by equality: write OfType(str)"),
    ],
)
def test_bad_construction_raises_usage_error_at_once(build: Any, message: str) -> None:
    with pytest.raises(UsageError, match=None) as info:
        build()
    assert message in str(info.value)


def test_matchers_and_dirty_equals_classes_are_not_refused_as_functions() -> None:
    from dirty_equals import IsStr

    Call("Bash", command=Satisfies(lambda c: "rm" in c), where=lambda c: True)
    Call("Bash", command=IsStr)  # a class whose metaclass compares: a matcher, as dirty-equals means it


def test_regex_timeout_raises_a_named_error() -> None:
    m = Matches(r"(?:(?:a|aa)+)+b", timeout=0.05)  # catastrophic backtracking on purpose
    start = time.perf_counter()
    with pytest.raises(RegexTimeoutError, match=r"ran longer than 0\.05s"):
        m.matches("a" * 40)
    assert time.perf_counter() - start < 5  # a guard against a hang (the timeout not firing), not a speed target


def test_dirty_equals_objects_work_as_argument_matchers() -> None:
    assert values_match({"a": IsInt(gt=2), "b": IsStr(regex=r"x+")}, {"a": 3, "b": "xx"})
    assert not values_match({"a": IsInt(gt=2)}, {"a": 1})
    assert values_match(IsPartialDict(a=1), {"a": 1, "b": 2})
    t = T().call("Bash", command="make test").done()
    assert Call("Bash", command=IsStr(regex=r"make .*")).matches_call(t.tool_calls[0])


def test_differences_name_every_offending_path() -> None:
    diffs = Exact({"q": "shoes", "size": 42, "meta": {"ts": 1}}).differences(
        {"q": "boots", "size": 42, "meta": {"ts": 1, "x": 2}, "extra": True}
    )
    assert diffs == [
        Difference("q", "'shoes'", "'boots'"),
        Difference("meta.x", "absent", "2"),
        Difference("extra", "absent", "True"),
    ]


def test_differences_show_type_mismatch_and_missing_keys() -> None:
    diffs = Partial({"size": 42, "color": "red", "tags": ["a"]}).differences(
        {"size": "42", "tags": ["a", "b"]}
    )
    assert diffs == [
        Difference("size", "42", "'42' (str, expected int)"),
        Difference("color", "'red'", "missing"),
        Difference("tags", "['a']", "['a', 'b'] (length 2, expected 1)"),
    ]


def test_jsonpath_differences_say_when_nothing_is_selected() -> None:
    assert JsonPath("$.order.id", "A1").differences({"order": {}}) == [
        Difference("$.order.id", "'A1'", "nothing (the path matched no value)")
    ]
    assert JsonPath("$.order.id", "A1").differences({"order": {"id": "B2"}}) == [
        Difference("$.order.id", "'A1'", "'B2'")
    ]


def test_args_mode_and_overrides_are_explicit_about_direction() -> None:
    seen: list[tuple[Any, Any]] = []

    def cmp(*, actual: Any, expected: Any) -> bool:
        seen.append((actual, expected))
        return True

    assert args_differences({"a": 1}, {"a": 2}, "partial", cmp) == []
    assert seen == [({"a": 2}, {"a": 1})]  # actual first, by keyword: never swapped
    # a list of keys: only those compare
    assert args_differences({"a": 1, "b": 1}, {"a": 1, "b": 2}, "exact", ["a"]) == []
    assert args_differences({"a": 1}, {"a": 2}, "exact", ["a"]) == [Difference("a", "1", "2")]
    assert args_differences({"a": 1}, {"a": 2, "b": 3}, "ignore") == []
    assert args_differences({"a": 1}, {"a": 1, "b": 3}, "exact") == [Difference("b", "absent", "3")]


def test_call_name_matches_mcp_aliases() -> None:
    t = (
        T()
        .call("mcp__shop__search_products", server="shop", tool="search_products", q="x")
        .done()
    )
    c = t.tool_calls[0]
    for name in ("mcp__shop__search_products", "shop.search_products", "search_products"):
        assert Call(name).matches_call(c)
    assert not Call("search").matches_call(c)
    assert Call(Matches("^mcp__shop__")).matches_call(c)


def test_call_outcome_fields() -> None:
    t = T().call("Bash", command="x", output="boom", error=True, exit_code=2).done()
    c = t.tool_calls[0]
    assert Call("Bash", is_error=True, exit_code=2, output=Contains("boom")).matches_call(c)
    diffs = Call("Bash", is_error=False, output=Contains("ok")).call_differences(c)
    assert diffs == [
        Difference("is_error", "False", "True"),
        Difference("output", "Contains('ok')", "'boom'"),
    ]


def test_call_describe_and_label() -> None:
    assert Call("Bash", command="ls").describe() == "a Bash call with command='ls'"
    assert Call(kind="file_edit").describe() == "a file_edit call"
    assert Call().describe() == "a tool call"
    assert Call("Read").label() == "Read"
    assert Call("Read", file_path="a.py").label() == "Read(file_path='a.py')"


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)


@given(_json)
def test_every_json_value_matches_itself_exactly_and_partially(v: Any) -> None:
    assert values_match(v, v)
    assert values_match(v, v, partial=True)
    assert Exact(v) == v
    assert Exact(v).differences(v) == []


@given(st.dictionaries(st.text(max_size=3), _json, max_size=4), st.data())
def test_partial_of_any_sub_dict_matches(d: dict[str, Any], data: st.DataObject) -> None:
    keys = data.draw(st.lists(st.sampled_from(sorted(d)), unique=True) if d else st.just([]))
    sub = {k: d[k] for k in keys}
    assert Partial(sub) == d
    # and differences agree with the boolean
    assert Partial(sub).differences(d) == []


@given(_json, _json)
def test_differences_are_empty_exactly_when_values_match(a: Any, b: Any) -> None:
    assert (Exact(a).differences(b) == []) is values_match(a, b)
    if isinstance(a, dict):
        assert (Partial(a).differences(b) == []) is values_match(a, b, partial=True)


_PATTERNS = [Matches("a"), Matches(r"a\w+b"), Matches("^ab?$", full=True), Matches("B", ignore_case=True),
             Matches(r"\d+", full=True), Matches("(?m)^b")]


@given(st.lists(st.one_of(st.text("abB1\n", max_size=10), st.integers(), st.none()), max_size=10),
       st.sampled_from(_PATTERNS), st.booleans())
def test_a_pattern_searched_over_many_values_in_one_loop_is_matches_of_each(values: list[Any], m: Matches,
                                                                            in_budget: bool) -> None:
    from agenteval_assert.matchers._regex import _budget, pattern_budget

    if in_budget:
        with pattern_budget():
            before = (_budget.get().chars, _budget.get().spent)  # type: ignore[union-attr]
            got = m._found_each(values)
            b = _budget.get()
            assert b is not None
            chars_each_way = b.chars - before[0]
            b.chars = before[0]
            assert [m.matches(v) for v in values] == got
            assert b.chars - before[0] == chars_each_way == sum(len(v) for v in values if isinstance(v, str))
    else:
        assert m._found_each(values) == [m.matches(v) for v in values]


class _LongWay(Matches):
    """A ``Matches`` that check_tool_called tests call by call (its type is not ``Matches``)."""

    __slots__ = ()


def _norm(summary: str) -> str:
    import re

    return re.sub(r"\d+\.\d+s in all", "Ns in all", summary).replace("_LongWay(", "Matches(")


def test_a_catastrophic_pattern_on_tool_outputs_times_out_as_it_does_value_by_value() -> None:
    from agenteval_assert import checks as c

    t = T().user("x").call("Bash", command="a", output="ok").call("Bash", command="b", output="a" * 40).say("x").done()
    pattern = r"(?:(?:a|aa)+)+b"  # catastrophic backtracking on purpose
    started = time.perf_counter()
    fast = c.check_tool_output(t, "Bash", matches=Matches(pattern, timeout=0.05))
    slow = c.check_tool_output(t, "Bash", matches=_LongWay(pattern, timeout=0.05))
    assert time.perf_counter() - started < 5  # a guard against a hang, not a speed target
    assert fast.status is slow.status is Status.ERROR
    assert "ran longer than 0.05s on a 40-character value" in fast.summary
    assert fast.summary == _norm(slow.summary)


def test_a_pattern_slow_on_many_tool_outputs_ends_over_its_budget_as_it_does_value_by_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from agenteval_assert import checks as c

    monkeypatch.setenv("AGENTEVAL_PATTERN_BUDGET", "0.1")
    b = T().user("x")
    for i in range(60):
        b.call("Bash", command=f"c{i}", output="a" * 20 + "b")
    t = b.say("x").done()
    started = time.perf_counter()
    fast = c.check_tool_output(t, "Bash", matches=Matches("(a|a)*$"))
    slow = c.check_tool_output(t, "Bash", matches=_LongWay("(a|a)*$"))
    assert time.perf_counter() - started < 6
    assert fast.status is slow.status is Status.ERROR
    assert "over their budget" in fast.summary
    assert _norm(fast.summary) == _norm(slow.summary)
