"""The look-ups the checks of a transcript share (``checks/_index.py``): built once, on first use,
and giving exactly the answers the checks computed on their own before."""

from __future__ import annotations

import json
import math
from typing import Any

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agenteval_assert import checks as c
from agenteval_assert.checks._common import _index
from agenteval_assert.checks._index import CallIndex, args_key
from agenteval_assert.matchers import (
    ABSENT,
    Call,
    Contains,
    Matcher,
    Matches,
    as_call,
    call_aliases,
    canonical_json,
)
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


_LOOK_ALIKE = [  # flat keys (key, value, key, value...; list items in a row): shapes that could meet
    {"a": "b", "c": "d"}, {"a": ["b", "c", "d"]}, {"a": {"b": "c"}}, {"a": ["b", "c"]}, {"a": "b"},
    {"a": ["b"]}, {"a": {}}, {"a": []}, {}, {"a": [["b", "c"]]}, {"a": [{"b": "c"}]}, {"a": ["{", "b", "c"]},
    {"a": ["[", "b"]}, {"{": "a"}, {"[": "a"}, {"a": [None]}, {"a": None}, {"a": ["i", 1]}, {"a": 1},
    {"a": ["f", "1.0"]}, {"a": 1.0}, {"a": "b", "[": "c"}, {"a": [1, 2]}, {"a": [[1], 2]}, {"a": [1, [2]]},
]


def test_flat_keys_of_look_alike_arguments_are_equal_exactly_when_the_canonical_json_is() -> None:
    for a in _LOOK_ALIKE:
        for b in _LOOK_ALIKE:
            assert (args_key(a) == args_key(b)) == (canonical_json(a) == canonical_json(b)), (a, b)


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


# -- shared answers against the direct computation they replace ------------------------------------

_FRAGMENTS = ["TIMEOUT", "timed out", "Time", "deadline exceeded", "Permission denied", "FORBIDDEN",
              "unauthorized", "Unauthorised", "\u0130", "\u212a", "UNAUTHOR\u0130ZED", "t\u0130me", "\x00", "é",
              "\U0001f600", " ", "\n", "ok", "x" * 300, "denied", "Deadline"]
_OUTPUT = st.lists(st.sampled_from(_FRAGMENTS) | st.text(max_size=4), max_size=12).map("".join)


@st.composite
def _failure_transcripts(draw: st.DrawFn) -> Transcript:
    t = T().user("go")
    for _ in range(draw(st.integers(0, 12))):
        answered = draw(st.booleans()) or draw(st.booleans())
        t.call(draw(st.sampled_from(["Bash", "Read", "mcp__s__t"])), command="x", output=draw(_OUTPUT),
               error=draw(st.booleans()) and draw(st.booleans()), exit_code=draw(st.sampled_from([None, 0, 1, 2])),
               answered=answered,
               status=draw(st.sampled_from([None, "failed", "declined", "interrupted", "completed"])))
    return t.say("done").done()


@settings(max_examples=300, deadline=None)
@given(_failure_transcripts(), st.integers(1, 4))
def test_the_batched_failure_scan_flags_the_calls_the_scan_of_each_output_does(t: Transcript, batch: int) -> None:
    from agenteval_assert.checks import _safety

    calls = t.all_tool_calls
    saved = _safety._SCAN_BATCH
    _safety._SCAN_BATCH = batch  # batch borders anywhere
    try:
        scan = _safety._default_failure_scan(calls)
        failed = _safety._default_failed(calls)
    finally:
        _safety._SCAN_BATCH = saved
    assert [bool(x) for x in scan] == [_safety._default_failure_output(x) for x in calls]
    assert [bool(x) for x in failed] == [_safety._failed(x, _safety.DEFAULT_FAILURE_OUTPUT, None) for x in calls]
    ix = _index(t)
    assert [_safety._failed(x, _safety.DEFAULT_FAILURE_OUTPUT, ix) for x in calls] == [bool(x) for x in failed]


#: Pieces of outputs for the scan: the words in every case and form, the near misses, what the
#: lower case of Unicode or the pattern's case-insensitive match makes ASCII (İ, Kelvin, long s),
#: the separator itself, surrogates, text beyond ASCII, and lengths around the windows' borders.
_SCAN_PIECES = ["deadline exceeded", "DEADLINE EXCEEDED", "Deadline  exceeded", "deadline", "deadlİne exceeded",
                "time out", "TIMED-OUT", "timeout", "time", "runtime", "tİmeout", "Denied", "denİed", "forbidden",
                "FORBİDDEN", "unauthorized", "UNAUTHORISED", "unauthoriſed", "unauthor\u0130zed", "unauthor\u0130",
                "\u212a", "\u0131", "\x00", "\x01", "\ud800", "\udfff", "\u2192", "é", "\U0001f600", " ", "-", "\n",
                "x" * 250, "y" * 499, "z" * 500, "w" * 1000,
                "\u00df", "\ufb01", "\u03a3", "\u03c2", "\uff34\uff29\uff2d\uff25\uff2f\uff35\uff34", "\u0301", "\u0307",
                "\u017f", "time\u0301out", "denied\u0307"]


@st.composite
def _scan_outputs(draw: st.DrawFn) -> str:
    text = "".join(draw(st.lists(st.sampled_from(_SCAN_PIECES) | st.text(max_size=5), max_size=8)))
    if draw(st.booleans()):  # exactly at, or one past, a window border
        size = draw(st.sampled_from([499, 500, 501, 999, 1000, 1001, 1002]))
        text = (text * (size // max(len(text), 1) + 1))[:size] if text else "a" * size
    return text


@settings(max_examples=400, deadline=None)
# text beyond ASCII: "deadline" makes the window pass the hint test, and the pattern matches
# "tİmeout" (İ matches i): the scan of such text must look for "deadline" itself
@example([("deadline t\u0130meout", "completed", True)], 1, 29_000)
@example([("unauthor\u0130zed", None, True), ("Access denied\x00", "completed", True)], 2, 17)
@given(st.lists(st.tuples(_scan_outputs(), st.sampled_from([None, "completed", "failed", "interrupted"]),
                          st.booleans()), max_size=10),
       st.integers(1, 5), st.integers(17, 80))
def test_the_failure_scan_in_ascii_and_other_text_flags_what_each_output_does(
        outputs: list[tuple[str, str | None, bool]], batch: int, span: int) -> None:
    """Every shortcut of the batched scan (ASCII windows apart, searched for ``deadline exceeded``;
    the others as UTF-8 bytes, for ``unauthor``; searches over stretches of *span* characters)
    against ``_default_failure_output`` and ``_failed`` called on each call."""
    from agenteval_assert.checks import _safety

    t = T().user("go")
    for out, status, answered in outputs:
        t.call("Bash", command="x", output=out, status=status, answered=answered)
    calls = t.say("done").done().all_tool_calls
    saved = _safety._SCAN_BATCH, _safety._FIND_SPAN
    _safety._SCAN_BATCH, _safety._FIND_SPAN = batch, span  # batch and stretch borders anywhere
    try:
        scan = _safety._default_failure_scan(calls)
        failed = _safety._default_failed(calls)
    finally:
        _safety._SCAN_BATCH, _safety._FIND_SPAN = saved
    assert [bool(x) for x in scan] == [_safety._default_failure_output(x) for x in calls]
    assert [bool(x) for x in failed] == [_safety._failed(x, _safety.DEFAULT_FAILURE_OUTPUT, None) for x in calls]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["time", "deadline exceeded", "denied", "forbidden", "unauthori", "ab", "\x00"])
                | st.text(alphabet="abdeilmnortu\x00 ", max_size=40), max_size=12).map("".join),
       st.integers(17, 40))
def test_the_search_by_stretches_finds_the_windows_a_plain_search_does(text: str, span: int) -> None:
    from agenteval_assert.checks import _safety

    windows = text.split("\x00")
    at = list(range(len(windows)))
    saved = _safety._FIND_SPAN
    _safety._FIND_SPAN = span
    try:
        got = _safety._windows_with(text, _safety._ASCII_WORDS, "\x00", at)
        got_bytes = _safety._windows_with(text.encode(), _safety._TEXT_WORDS, b"\x00", at)
    finally:
        _safety._FIND_SPAN = saved
    assert got == [k for k, x in enumerate(windows) if any(w in x for w in _safety._ASCII_WORDS)]
    assert got_bytes == [k for k, x in enumerate(windows) if any(w.decode() in x for w in _safety._TEXT_WORDS)]


def _output_at(before: int, form: str, unit: str) -> list[str]:
    """Outputs whose windows, joined by the scan, put *form* at offset *before* (characters of the
    ASCII text, or bytes of the UTF-8 text when *unit* is ``é``): fillers of 1000 units, none
    with a word, then a short output holding *form* between spaces (no window edge near it)."""
    def filler(n: int) -> str:  # n units
        return " " * n if unit == " " else "é" * (n // 2) + " " * (n % 2)

    r = 100
    while True:
        m = max(1, -(-(before - r) // 1001))
        first = before - r - (m - 1) * 1001 - 1
        if 0 <= first <= 1000 and (unit == " " or first >= 2):
            break
        r += 1
    return [filler(first), *[filler(1000)] * (m - 1), filler(r - 1) + " " + form + (" " if unit == " " else " é")]


@pytest.mark.parametrize(("form", "unit"), [
    *((f, u) for f in ("timeout", "Permission DENIED", "forbidden", "deadline exceeded", "unauthorized") for u in " é"),
    ("UNAUTHOR\u0130ZED", "é")])
def test_a_failure_word_across_the_border_of_two_stretches_is_found(form: str, unit: str) -> None:
    """With the scan's own stretch (``_FIND_SPAN``) and batch: a word that starts at every place
    from before the first stretch's end (or the second's, which starts ``len(word) - 1`` before
    it) to past it, in ASCII text and in UTF-8 bytes, is found: its call is flagged as the long
    way flags it."""
    from agenteval_assert.checks import _safety

    words = _safety._ASCII_WORDS if unit == " " else _safety._TEXT_WORDS
    low = form.lower().encode() if unit != " " else form.lower()
    word = next(w for w in words if w in low)  # type: ignore[operator]
    span = _safety._FIND_SPAN
    for border in (span, 2 * span - len(word) + 1):
        for d in range(-len(word) - 1, 3):
            at = border + d - low.index(word)  # type: ignore[arg-type]
            outputs = _output_at(at, form, unit)
            t = T().user("go")
            for out in outputs:
                t.call("Bash", command="x", output=out)
            calls = t.say("done").done().all_tool_calls
            joined = "\x00".join(outputs)
            text = joined.lower() if unit == " " else joined.encode().lower()
            assert text.find(word, border + d - 3) == border + d  # type: ignore[arg-type]
            assert len(calls) < _safety._SCAN_BATCH and (unit == " ") == joined.isascii()
            want = [_safety._default_failure_output(x) for x in calls]
            assert want[-1] and not any(want[:-1])
            assert [bool(x) for x in _safety._default_failure_scan(calls)] == want
            assert [bool(x) for x in _safety._default_failed(calls)] == want


_FAILURE_FORMS = ["timeout", "timedout", "time out", "time-out", "timed out", "timed-out", "deadline exceeded",
                  "permission denied", "access denied", "denied", "forbidden", "unauthorised", "unauthorized"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_FAILURE_FORMS), st.lists(st.booleans(), min_size=17, max_size=17),
       st.text(alphabet=" -_.a1", max_size=2), st.text(alphabet=" -_.a1", max_size=2))
def test_every_match_of_the_failure_words_in_ascii_text_holds_a_word_the_scan_looks_for(
        form: str, upper: list[bool], before: str, after: str) -> None:
    """The ASCII scan looks for ``deadline exceeded``, not ``deadline``: each form of
    ``DEFAULT_FAILURE_OUTPUT``'s words, in any case, holds one of its words once lower-cased."""
    from agenteval_assert.checks import _safety

    text = before + "".join(ch.upper() if u else ch for ch, u in zip(form, upper, strict=False)) + after
    if _safety.DEFAULT_FAILURE_OUTPUT.matches(text):
        assert any(w in text.lower() for w in _safety._ASCII_WORDS)


def test_the_failure_forms_are_every_way_the_failure_words_match() -> None:
    from agenteval_assert.checks import _safety

    pattern = _safety.DEFAULT_FAILURE_OUTPUT.pattern
    assert pattern == (r"\b(timed?[ -]?out|timeout|deadline exceeded|permission denied|access denied|denied"
                       r"|forbidden|unauthori[sz]ed)\b")  # the forms above: change them with the pattern
    for f in _FAILURE_FORMS:
        m = _safety.DEFAULT_FAILURE_OUTPUT.search(f)
        assert m is not None and m.group(0) in (f, "denied")


_WINDOW_PIECES = st.sampled_from([*_FAILURE_FORMS, "TIMED OUT", "Time-Out", "runtime", "time", "deadline", "denİed",
                                   "tİmeout", "unauthoriſed", "UNAUTHORİZED", "timestamp", "time\u212aout", "\u0131",
                                   " ", "-", "_", "a", "1", "é", "\u2192", "\x00", "\ud800",
                                   "\u00df", "\ufb01", "\u03a3", "\u0301", "\u0307", "\uff34\uff29\uff2d\uff25"])


@settings(max_examples=500, deadline=None)
@example("runtime tİmeout")  # a hint in one word, a match through İ in another
@example("runtime: access unauthoriſed")
@example("Time-Out")
@example("timeouts, denied")
@given(st.lists(_WINDOW_PIECES | st.text(max_size=3), max_size=8).map("".join))
def test_the_failure_words_are_looked_for_in_the_forms_only_where_the_pattern_could_match(window: str) -> None:
    from agenteval_assert.checks import _safety

    assert _safety._may_fail(window) == (_safety._hinted(window) and _safety.DEFAULT_FAILURE_OUTPUT.matches(window))


def test_the_characters_the_failure_words_match_an_ascii_letter_with_are_the_ones_the_scan_knows() -> None:
    import sys

    import regex

    from agenteval_assert.checks import _safety

    pattern = _safety.DEFAULT_FAILURE_OUTPUT
    letters = sorted({ch for f in _FAILURE_FORMS for ch in f if "a" <= ch <= "z"})  # every letter of the words
    any_letter = regex.compile("[" + "".join(letters) + "]", pattern._re.flags)
    found = tuple(chr(i) for i in range(128, sys.maxunicode + 1) if any_letter.fullmatch(chr(i)))
    assert found == _safety._MATCHED_AS_ASCII
    assert "k" not in letters  # Kelvin sign matches k: no word holds one


@settings(max_examples=200, deadline=None)
@given(_failure_transcripts(), st.randoms(use_true_random=False))
def test_the_failed_calls_of_the_whole_pool_read_from_the_flags_are_those_of_each_call(t: Transcript, rnd: Any) -> None:
    """``_failed_calls(..., whole=True)`` (the flags select the calls at once) against the calls
    one by one, also when the calls are not numbered by their place (steps re-ordered)."""
    from agenteval_assert.checks import _safety

    calls = list(t.tool_calls)
    rnd.shuffle(calls)
    steps = [s for s in t.steps if s not in t.tool_calls] + calls
    for tr in (t, attrs.evolve(t, steps=tuple(steps), tool_calls=tuple(calls))):
        ix = _index(tr)
        pool = list(ix.all_calls)
        want = [x for x in pool if _safety._failed(x, _safety.DEFAULT_FAILURE_OUTPUT, None)]
        assert _safety._failed_calls(pool, _safety.DEFAULT_FAILURE_OUTPUT, ix, whole=True) == want
        assert _safety._failed_calls(pool, _safety.DEFAULT_FAILURE_OUTPUT, ix) == want


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Bash", "Read", "mcp__s__t", "t"]), st.sampled_from([None, "sub"]),
                          st.sampled_from([None, "failed", "declined", "completed"]), st.sampled_from([None, 0, 1]),
                          st.booleans()), max_size=14),
       st.booleans())
def test_retries_of_any_arguments_walk_the_failed_tools_calls_only(
        calls: list[tuple[str, str | None, str | None, int | None, bool]], include_subagents: bool) -> None:
    """``retried_after_failure(same_args=False)`` walks the calls of the failed tools
    (``_calls_named``), not the whole pool: the same retries for any set of failed calls."""
    from agenteval_assert.checks._common import _recoveries
    from agenteval_assert.checks._outcomes import _calls_named

    t = T().user("go")
    for name, agent, status, code, answered in calls:
        t.call(name, command="x", agent=agent, status=status, exit_code=code, answered=answered)
    tr = t.say("done").done()
    ix = _index(tr)
    pool = ix.pool(include_subagents)
    failed = [x for x in pool if x.is_error]
    for names in [{x.name for x in failed}, *({x.name} for x in failed)]:
        some = [x for x in failed if x.name in names]
        assert _calls_named(ix, names, include_subagents) == [x for x in pool if x.name in names]
        assert (_recoveries(some, _calls_named(ix, names, include_subagents), same_args=False)
                == _recoveries(some, pool, same_args=False))
    from agenteval_assert.checks import _outcomes

    for tool in ("Bash", "t", "s.t", Call("Bash", command="x")):
        r = c.check_retried_after_failure(tr, tool, same_args=False, include_subagents=include_subagents)
        saved = _outcomes._calls_named
        _outcomes._calls_named = lambda ix, names, inc: list(ix.pool(inc))  # the long way: every call
        try:
            again = c.check_retried_after_failure(attrs.evolve(tr), tool, same_args=False,
                                                  include_subagents=include_subagents)
        finally:
            _outcomes._calls_named = saved
        assert r.to_dict() == again.to_dict() and r.render(verbose=True) == again.render(verbose=True)


def test_the_characters_that_lower_case_to_ascii_are_the_ones_the_scan_knows() -> None:
    import sys

    from agenteval_assert.checks import _safety

    found = tuple(chr(i) for i in range(128, sys.maxunicode + 1) if any(ord(x) < 128 for x in chr(i).lower()))
    assert found == _safety._LOWER_TO_ASCII


def _both_ways(path: str, needle: bytes) -> tuple[int, int]:
    """``_first_offset`` of the file mapped (where it can be) and read into a buffer."""
    from agenteval_assert.checks import _outputs

    with open(path, "rb", buffering=0) as fh:
        read = _outputs._read_first_offset(fh, needle)
    return _outputs._first_offset(path, needle), read


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60) | st.lists(st.sampled_from([b"ab", b"a", b"b", b"\n", b"abc"]), max_size=30).map(b"".join),
       st.sampled_from([b"a", b"ab", b"abc", b"bab", b"\nab"]), st.integers(1, 9))
@example(b"", b"ab", 3)  # an empty file cannot be mapped: read
@example(b"ab", b"ab", 1)  # at offset 0
@example(b"xxxxab", b"ab", 2)  # at the end of the file, across a border
def test_the_chunked_search_finds_the_first_hit_of_the_whole_file(data: bytes, needle: bytes, chunk: int) -> None:
    import os
    import tempfile

    from agenteval_assert.checks import _outputs

    fd, path = tempfile.mkstemp()
    try:
        os.write(fd, data)
        os.close(fd)
        saved = _outputs._CHUNK
        _outputs._CHUNK = chunk  # hits across chunk borders
        try:
            assert _both_ways(path, needle) == (data.find(needle), data.find(needle))
        finally:
            _outputs._CHUNK = saved
    finally:
        os.unlink(path)


_BYTES = st.lists(st.sampled_from([b"a", b"b", b"ab", b"ba", b"\n", b"c", b"aab"]), max_size=40).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(_BYTES, st.binary(max_size=6), st.integers(0, 50),
       st.sampled_from([b"a", b"ab", b"ba", b"aab", b"bab", b"abc", b"abb"]),
       st.data(), st.integers(1, 3), st.integers(0, 5), st.integers(1, 6))
@example(b"xab", b"", 3, b"ab", None, 1, 0, 1)  # a hit that ends where the chunk ends
@example(b"bab", b"", 3, b"ab", None, 1, 0, 1)  # the rare byte before its offset in the needle
@example(b"a" * 20 + b"ba", b"", 22, b"ba", None, 3, 0, 1)  # gives up after 7 places, the hit after them
@example(b"ab" + b"b" * 6 + b"ab", b"", 10, b"ab", None, 1, 0, 3)  # the next window from a place past the last
@example(b"abab", b"ab", 4, b"ab", None, 1, 2, 1)  # not before *lo*; stale bytes past *end*
@example(b"xabb", b"", 4, b"abb", None, 1, 0, 1)  # the next window starts at the start after this one
def test_the_rare_byte_search_is_bytearray_find(data: bytes, stale: bytes, end: int, needle: bytes,
                                                 pick: Any, budget: int, lo: int, width: int) -> None:
    from agenteval_assert.checks import _outputs

    buf = bytearray(data + stale)  # what lies past *end* is left from an earlier chunk
    end = min(end, len(data))
    lo = min(lo, end)
    at = len(needle) - 1 if pick is None else pick.draw(st.integers(0, len(needle) - 1))
    rare = needle[at:at + 1]
    at = needle.rindex(rare)
    saved = _outputs._BUDGET
    _outputs._BUDGET = budget  # give up after a window or two, or never ((end - lo) // budget windows)
    try:
        got, _ = _outputs._find_from(buf, lo, end, needle, rare, at, width)
    finally:
        _outputs._BUDGET = saved
    assert got == buf.find(needle, lo, end)


def test_the_rarest_byte_is_the_one_least_seen_and_its_last_place() -> None:
    from agenteval_assert.checks import _outputs

    sample = b"a" * 5000 + b"b" * 3 + b"c"
    assert _outputs._rarest(b"abca", sample) == (b"c", 2)
    assert _outputs._rarest(b"abab", sample) == (b"b", 3)
    assert _outputs._rarest(b"aa", sample) is None  # common: the plain search
    assert _outputs._rarest(b"c", sample) is None  # one byte: the plain search is memchr already
    assert _outputs._rarest(b"xy", sample) == (b"x", 0)  # in neither: the first


@settings(max_examples=300, deadline=None)
@given(_BYTES, st.sampled_from([b"a", b"ab", b"abc", b"bab", b"\nab", b"aab", b"ba", b"abb"]), st.integers(1, 9),
       st.integers(1, 3), st.integers(1, 8), st.integers(1, 3))
def test_the_chunked_search_by_a_rare_byte_finds_the_first_hit_of_the_whole_file(
        data: bytes, needle: bytes, chunk: int, budget: int, sample: int, width: int) -> None:
    import os
    import tempfile

    from agenteval_assert.checks import _outputs

    fd, path = tempfile.mkstemp()
    try:
        os.write(fd, data)
        os.close(fd)
        saved = _outputs._CHUNK, _outputs._RARE, _outputs._BUDGET, _outputs._SAMPLE, _outputs._WIDTH
        # every byte counts as rare, a sample of a few bytes, give up after a window or two,
        # windows of a few starts
        _outputs._CHUNK, _outputs._RARE, _outputs._BUDGET, _outputs._SAMPLE, _outputs._WIDTH = (
            chunk, 0, budget, sample, width)
        try:
            assert _both_ways(path, needle) == (data.find(needle), data.find(needle))
        finally:
            _outputs._CHUNK, _outputs._RARE, _outputs._BUDGET, _outputs._SAMPLE, _outputs._WIDTH = saved
    finally:
        os.unlink(path)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3 * 4096 + 100), st.integers(1, 9000), st.integers(1, 300), st.booleans(), st.integers(1, 2))
@example(3 * 4096 + 100, 4096, 1, False, 1)  # the last bytes of the file, in the last chunk
@example(4095, 4096, 1, False, 1)  # across the first page border
def test_the_mapped_search_lets_pages_go_and_still_finds_every_hit(place: int, chunk: int, budget: int,
                                                                   twice: bool, sample_kb: int) -> None:
    """Files of several pages: the pages behind each chunk are let go (MADV_DONTNEED) and
    read again if a later chunk overlaps them; a base64-like body where the rare byte comes in
    runs."""
    import os
    import random
    import tempfile

    from agenteval_assert.checks import _outputs

    needle = b"BEGIN RSA PRIVATE KEY"
    rng = random.Random(place)
    alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789+/ NRSA"
    body = bytearray(rng.choice(alphabet) for _ in range(3 * 4096 + 200))
    for q in rng.sample(range(len(body) - 30), 40):  # near misses
        body[q:q + 20] = needle[:20]
    place = min(place, len(body))
    data = bytes(body[:place]) + needle + bytes(body[place:])
    if twice:
        data += needle
    fd, path = tempfile.mkstemp()
    try:
        os.write(fd, data)
        os.close(fd)
        saved = _outputs._CHUNK, _outputs._RARE, _outputs._BUDGET, _outputs._SAMPLE
        _outputs._CHUNK, _outputs._RARE, _outputs._BUDGET, _outputs._SAMPLE = chunk, 0, budget, 1024 * sample_kb
        try:
            assert _both_ways(path, needle) == (data.find(needle), data.find(needle)) == (place, place)
            assert _both_ways(path, needle + b"!") == (-1, -1)
        finally:
            _outputs._CHUNK, _outputs._RARE, _outputs._BUDGET, _outputs._SAMPLE = saved
    finally:
        os.unlink(path)


def test_the_raw_search_finds_what_bytes_find_finds_in_the_corpus() -> None:
    """Every corpus file: needles taken from it (at several places) and needles it does not hold,
    against ``bytes.find`` of the whole file, mapped and read."""
    import random
    from pathlib import Path

    from agenteval_assert.checks import _outputs

    files = sorted(p for p in (Path(__file__).parent / "corpus").rglob("*") if p.is_file() and p.stat().st_size)
    assert files
    rng = random.Random(7)
    saved = _outputs._CHUNK
    _outputs._CHUNK = 4096 + 7  # many chunks, borders not at pages
    try:
        for p in files:
            data = p.read_bytes()
            needles = [b"BEGIN RSA PRIVATE KEY", b"\x00\x01", data[-5:], data[:9]]
            for _ in range(6):
                q = rng.randrange(len(data))
                needles.append(data[q:q + rng.randint(2, 24)])
            for needle in needles:
                if needle:
                    assert _both_ways(str(p), needle) == (data.find(needle), data.find(needle)), (p, needle)
    finally:
        _outputs._CHUNK = saved


def _recoveries_of_every_call(failed: Any, pool: Any, *, same_args: bool = True, ok: Any = None) -> dict[int, Any]:
    """``_common._recoveries`` as it was: every call of a failed tool keyed, no probe."""
    succeeded = ok or (lambda d: d.result is not None and not d.is_error and d.outcome_recorded)
    names = {f.name for f in failed}
    waiting = {f.index for f in failed}
    next_ok: dict[Any, Any] = {}
    found: dict[int, Any] = {}
    for d in reversed(pool):
        if d.name not in names:
            continue
        key = (d.name, args_key(d.arguments) if same_args else None)
        if d.index in waiting and key in next_ok:
            found[d.index] = next_ok[key]
        if succeeded(d):
            next_ok[key] = d
    return found


class _Thing:
    def __repr__(self) -> str:
        return "'x'"


_ARG = st.sampled_from(["x", "'x'", 1, True, None, ["x"], _Thing()])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Bash", "Read"]),
                          st.dictionaries(st.sampled_from(["command", "1", 1]), _ARG, max_size=2),
                          st.booleans()), max_size=12),
       st.booleans())
@example([("Bash", {"1": "x"}, True), ("Bash", {1: "x"}, False)], True)
@example([("Bash", {"command": "'x'"}, True), ("Bash", {"command": _Thing()}, False)], True)
def test_retries_found_through_the_probes_are_the_retries_of_every_call(
        calls: list[tuple[str, dict[Any, Any], bool]], same_args: bool) -> None:
    from agenteval_assert.checks._common import _recoveries

    t = T().user("go")
    for name, args, error in calls:
        t.call(name, args=args, error=error)
    tr = t.say("done").done()
    pool = _transcript_calls(tr)
    failed = [c for c in pool if c.is_error]
    try:
        expected = _recoveries_of_every_call(failed, pool, same_args=same_args)
    except TypeError:  # {1: x, "a": y}: canonical JSON cannot sort the keys; no key either
        return
    assert _recoveries(failed, pool, same_args=same_args) == expected
    assert _recoveries(failed, pool, same_args=same_args, memo={}) == expected
    positions = _index(tr).names(True)
    assert _recoveries(failed, pool, same_args=same_args, memo={}, positions=positions) == expected
    assert _recoveries(failed, pool, same_args=same_args, memo={}, positions=positions,
                       values=_index(tr).by_value(True)) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Bash", "Read", "Edit"]),
                          st.dictionaries(st.sampled_from(["command", "path", 1]), _ARG, max_size=2),
                          st.booleans(), st.booleans()), max_size=14),
       st.integers(min_value=0, max_value=13))
@example([("Bash", {"command": "x"}, True, True), ("Bash", {"command": "x"}, False, True),
          ("Bash", {"command": "x"}, False, False)], 0)
def test_retry_candidates_shared_between_checks_give_each_check_its_own_retries(
        calls: list[tuple[str, dict[Any, Any], bool, bool]], skip: int) -> None:
    """The candidates kept by ``CallIndex.retry_walks`` for a set of failed calls serve another
    check with another idea of success (no_tool_errors, then failures_not_reported): each finds
    what ``_recoveries`` finds alone, and what keying every call finds; a subset of the failed
    calls is served by the same candidates, with the same results."""
    from agenteval_assert.checks._common import _recoveries

    t = T().user("go")
    for name, args, error, answered in calls:
        t.call(name, args=args, error=error, answered=answered)
    tr = t.say("done").done()
    pool = _transcript_calls(tr)
    failed = [c for c in pool if c.is_error]
    ids = {c.index for c in failed}
    not_failed = lambda d: d.result is not None and d.index not in ids
    try:
        expected = [_recoveries_of_every_call(failed, pool), _recoveries_of_every_call(failed, pool, ok=not_failed)]
        fewer = [c for i, c in enumerate(failed) if i != skip]
        expected_fewer = _recoveries_of_every_call(fewer, pool)
        fewer_ids = {c.index for c in fewer}
        not_fewer = lambda d: d.result is not None and d.index not in fewer_ids
        expected_fewer_ok = _recoveries_of_every_call(fewer, pool, ok=not_fewer)
    except TypeError:  # {1: x, "a": y}: canonical JSON cannot sort the keys; no key either
        return
    walks: dict[tuple[int, ...], list[Any]] = {}
    memo: dict[int, object] = {}
    positions = _index(tr).names(True)
    assert _recoveries(failed, pool, memo=memo, walks=walks, positions=positions) == expected[0]
    assert _recoveries(failed, pool, ok=not_failed, memo=memo, walks=walks, positions=positions) == expected[1]
    assert _recoveries(failed, pool, ok=not_failed) == expected[1]
    assert len(walks) == (1 if failed else 0)
    # a subset of the failed calls: the candidates of the wider set serve (no walk of its own)
    assert _recoveries(fewer, pool, memo=memo, walks=walks) == expected_fewer
    assert _recoveries(fewer, pool, ok=not_fewer, memo=memo, walks=walks, positions=positions) == expected_fewer_ok
    assert len(walks) == (1 if failed else 0)
    assert _recoveries(fewer, pool) == expected_fewer
    if failed:
        assert walks[tuple(c.index for c in failed)] is walks[tuple(c.index for c in failed)]
        assert all(pool[at].name in {f.name for f in failed} for at, _, _ in walks[tuple(c.index for c in failed)])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Bash", "Read"]),
                          st.dictionaries(st.sampled_from(["command", "path", 1]), _ARG | st.sampled_from(["y", "z"]),
                                          max_size=2),
                          st.booleans(), st.booleans()), max_size=16),
       st.booleans())
@example([("Bash", {"command": "x"}, True, False), ("Bash", {"command": "x"}, True, True),
          ("Bash", {"command": "x"}, False, True)], True)  # a failed call that is the retry of one before it
def test_retries_by_groups_are_the_retries_of_every_call_whatever_fails_and_succeeds(
        calls: list[tuple[str, dict[Any, Any], bool, bool]], positions: bool) -> None:
    """``_recoveries``' forward walk by groups, for any set of failed calls and any idea of
    success (a failed call may also count as a success, the retry of an earlier one), finds
    what keying every call finds."""
    from agenteval_assert.checks._common import _recoveries

    t = T().user("go")
    for name, args, _, _ in calls:
        t.call(name, args=args)
    tr = t.say("done").done()
    pool = _transcript_calls(tr)
    failed = [c for c, (_, _, fails, _) in zip(pool, calls, strict=True) if fails]
    oks = {c.index for c, (_, _, _, ok) in zip(pool, calls, strict=True) if ok}
    ok = lambda d: d.index in oks
    try:
        expected = _recoveries_of_every_call(failed, pool, ok=ok)
    except TypeError:  # {1: x, "a": y}: canonical JSON cannot sort the keys; no key either
        return
    where = _index(tr).names(True) if positions else None
    assert _recoveries(failed, pool, ok=ok, memo={}, walks={}, positions=where) == expected
    if positions:
        values = _index(tr).by_value(True)
        assert _recoveries(failed, pool, ok=ok, memo={}, walks={}, positions=where, values=values) == expected
    assert _recoveries(failed, pool, ok=ok) == expected


def test_retry_checks_of_one_transcript_share_one_walk_and_keep_their_verdicts() -> None:
    """no_tool_errors(ignore_recovered) and failures_not_reported look for the retries of the same
    failures: the second reuses the first's candidates (one entry in the index), and both give
    the results they give on a transcript of their own."""
    def build() -> Transcript:
        return (T().user("go")
                .call("Bash", args={"command": "npm test"}, error=True, output="failed: 1")
                .call("Read", args={"file_path": "/a"})
                .call("Bash", args={"command": "npm test"}, output="ok")
                .call("Bash", args={"command": "ls"}, error=True, output="permission denied")
                .say("all done").done())

    t = build()
    first = c.check_no_tool_errors(t, ignore_recovered=True)
    second = c.check_failures_not_reported_as_success(t)
    walks = _index(t).retry_walks(True)
    assert len(walks) == 1
    alone = c.check_failures_not_reported_as_success(build())
    assert (first.status, first.render(verbose=True)) == (c.check_no_tool_errors(build(), ignore_recovered=True).status,
                                                          c.check_no_tool_errors(build(), ignore_recovered=True).render(verbose=True))
    assert (second.status, second.render(verbose=True), second.to_dict()) == (alone.status, alone.render(verbose=True),
                                                                              alone.to_dict())
    assert first.status.value == "fail" and second.status.value == "fail"


def _transcript_calls(t: Transcript) -> tuple[Any, ...]:
    return t.all_tool_calls


_SHELL_PARTS = ["cd /a", "cd b", "cd ..", "cat x", "rm -r d", "sed -i s/a/b/ f.ts", "echo hi > out", "{ cat x; } > o",
                "pushd c", "popd", "eval 'cd e'", "bash -c 'cd f && rm g'", "cat $(ls)", "cp a /b", "cd -",
                'cd "$X"', "(cd s && rm t)", "cat /etc/x", "touch ~/y", "make", "git checkout -- .", "if true; then cd z; fi"]
_SEPARATORS = [" && ", "; ", " | ", " || ", "\n", " & "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_SHELL_PARTS), st.sampled_from(_SEPARATORS)), min_size=1, max_size=4),
       st.sampled_from(["lib", "/abs/x", "a/../b", "$PWD"]))
def test_effects_from_another_folder_are_those_walked_from_it(parts: list[tuple[str, str]], start: str) -> None:
    from agenteval_assert._shell_files import Folder, file_effects, line_effects
    from agenteval_assert.checks import _files
    from agenteval_assert.shell import parse_shell

    text = "".join(p + s for p, s in parts[:-1]) + parts[-1][0]
    script = parse_shell(text)
    home = file_effects(script)
    folder = Folder(start)
    walked = line_effects(script, folder)
    if not _files._moves(script, {}):
        assert _plain(_files._rebased(home, folder)) == _plain(walked)
    if _files._leaves_start(script, home):
        assert _plain(home) == _plain(walked)


@pytest.mark.parametrize("text", [
    "cd /a && { cat x; } > o", "cd /a && cd - && cat x", "cd /a && popd && rm f", "cd /a; cat x > y",
    "cd /a && (cd b && rm x) && rm y", "cd /a | cat x", "cd /a & rm x", "cd /a\nrm b", "cd /a && eval 'cd b' && rm c",
    "cd /a && bash -c 'cd b && rm c'", "cd /a || rm x", "cd /a && cd .. && rm x", "cd /a && sed -i s/a/b/ *.ts",
    "cd /a && for f in x; do rm $f; done", "cat x", "{ cat x; } > o", "x=1 cd /a && rm b", "cd /a > log && rm b",
])
def test_effects_of_a_line_that_starts_with_a_cd_are_those_walked_from_any_folder(text: str) -> None:
    from agenteval_assert._shell_files import Folder, file_effects, line_effects
    from agenteval_assert.checks import _files
    from agenteval_assert.shell import parse_shell

    script = parse_shell(text)
    home = file_effects(script)
    for start in ("lib", "/abs/x", "a/../b"):
        walked = line_effects(script, Folder(start))
        if _files._leaves_start(script, home):
            assert _plain(home) == _plain(walked), start
        if not _files._moves(script, {}):
            assert _plain(_files._rebased(home, Folder(start))) == _plain(walked), start
    if text in ("cd /a; cat x > y", "cd /a && cd .. && rm x", "cd /a\nrm b"):
        assert _files._leaves_start(script, home)
    if text in ("cd /a && { cat x; } > o", "cd /a && cd - && cat x", "cat x", "x=1 cd /a && rm b", "cd /a | cat x"):
        assert not _files._leaves_start(script, home)


def _plain(found: Any) -> tuple[Any, ...]:
    """What file events keep of a line's effects (a command by its text: the walk makes a new
    command for the redirection of a group, ``{ …; } > o``, each time)."""
    return (tuple((e.op, e.path, e.command.text, e.pattern, e.recursive, e.ok_means_done, e.failure_means_not_done)
                  for e in found.effects),
            tuple((u.command.text, u.command.words, u.reason) for u in found.unknown_writes), found.cwd, found.cwd_unknown)


def _file_events_walked(t: Transcript) -> tuple[Any, ...]:
    """Every file event, each shell call's effects walked from its own start folder (no rebase)."""
    from agenteval_assert._shell_files import line_effects
    from agenteval_assert.checks import _files
    from agenteval_assert.shell import parse_shell

    events: list[Any] = []
    folders = _files._Folders(t)
    for x in t.all_tool_calls:
        if x.kind in ("file_read", "file_write", "file_edit"):
            events.extend(_files._tool_events(x))
        elif x.kind == "shell" and x.command:
            start = folders.start(x)
            found = None
            if "*** Begin Patch" not in x.command:
                found = line_effects(parse_shell(x.command), start)
                folders.after(x, start, found)
            events.extend(_files._shell_events(x, x.command, found, start, folders.home)[0])
    return tuple(events)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_SHELL_PARTS), st.sampled_from(_SEPARATORS),
                          st.sampled_from(["ok", "Shell cwd was reset to /home/dev/p", "cat: x: No such file"]),
                          st.booleans()), max_size=8),
       st.sampled_from(["2.0.1", "1.0.0"]))
def test_the_file_index_holds_the_events_each_call_walked_from_its_folder(
        calls: list[tuple[str, str, str, bool]], version: str) -> None:
    from agenteval_assert.checks import _files

    t = T(cwd="/home/dev/p", version=version).user("go")
    for i, (part, sep, output, error) in enumerate(calls):
        text = part if i % 2 else part + sep + calls[0][0]
        t.call("Bash", command=text, output=output, error=error)
        if i % 3 == 0:
            t.call("Read", file_path=f"src/f{i}.ts")
    tr = t.say("done").done()
    assert _files._file_index(tr).events == _file_events_walked(tr)


def _skills_of_every_call(t: Transcript) -> list[tuple[str, Any]]:
    """``_budgets._skills`` as it was: every call looked at."""
    from agenteval_assert.checks._budgets import _SKILL_PATH, _step

    out: list[tuple[str, Any]] = []
    for s in t.steps:
        if getattr(s, "skill", None) is not None:
            out.append((s.skill, s))  # type: ignore[union-attr]
    for x in t.all_tool_calls:
        if x.kind == "skill" or x.name == "Skill":
            s = x.arguments.get("skill", x.arguments.get("command", x.arguments.get("name")))
            if isinstance(s, str):
                out.append((s, x))
            continue
        texts: list[str] = []
        if x.kind == "shell" and x.command:
            texts.append(x.command)
        elif x.kind == "file_read":
            p = x.arguments.get("file_path", x.arguments.get("path"))
            if isinstance(p, str):
                texts.append(p)
        for text in texts:
            out.extend((m.group(1), x) for m in _SKILL_PATH.finditer(text))
    out.sort(key=lambda sc: _step(sc[1]))
    return out


_SKILL_TEXT = st.sampled_from(["cat ~/.claude/skills/pdf/SKILL.md", "ls", "cat skills/a/SKILL.md skills/b/SKILL.md",
                               "/x/skills/storybook/SKILL.md", "src/a.ts", "SKILL.md", "cat 'skills/a b/SKILL.md'"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Skill", "Bash", "Read", "mcp__s__Skill", "Glob", "view"]), _SKILL_TEXT,
                          st.sampled_from([None, "sub"]), st.sampled_from([None, "file_read", "shell", "other"]),
                          st.sampled_from(["file_path", "path", "both", "none", "file_path=None"])), max_size=10),
       st.booleans())
def test_skills_found_among_the_calls_that_can_name_one_are_those_of_every_call(
        calls: list[tuple[str, str, str | None, str | None, str]], shared: bool) -> None:
    """Also for a tool whose calls are of several kinds (a read among others: looked at one by
    one), reads naming the file by ``path``, and with the index of reads by file path built
    first by another check."""
    from agenteval_assert.checks._budgets import _skills

    t = T().user("go")
    for name, text, agent, kind, how in calls:
        args: dict[str, Any] = {"command": text, "skill": text.rsplit("/", 1)[-1]}
        if how in ("file_path", "both"):
            args["file_path"] = text
        if how in ("path", "both"):
            args["path"] = text + "x" if how == "both" else text
        if how == "file_path=None":
            args.update(file_path=None, path=text)
        t.call(name, kind=kind, agent=agent, args=args)
    tr = t.say("done").done()
    if shared:
        c.check_tool_called(tr, Call("Read", file_path=Matches("SKILL")))
        c.check_tool_called(tr, Call("view", file_path=Matches("SKILL")))
    assert _skills(tr) == _skills_of_every_call(tr)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Read", "t", "mcp__s__t", "mcp__r__t", "s.t", "mcp__s__u"]), max_size=14))
def test_the_alias_index_is_the_calls_under_each_of_their_names(names: list[str]) -> None:
    t = T().user("go")
    for n in names:
        t.call(n)
    ix = CallIndex(t.say("done").done())
    expected: dict[str, list[int]] = {}
    for i, call in enumerate(ix.all_calls):
        for alias in call_aliases(call):
            expected.setdefault(alias, []).append(i)
    assert dict(ix.positions(True)) == expected
    assert {k: list(v) for k, v in ix.by_alias(True).items()} == {k: [ix.all_calls[i] for i in v] for k, v in expected.items()}


_SPEC_VALUE = st.sampled_from(["a.tsx", "b.ts", 1, None]) | st.just(ABSENT) | st.just(Matches(r"\.tsx$")) \
    | st.just(Contains("b"))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["file_path", "limit", "x"]),
                                st.sampled_from(["a.tsx", "b.ts", "a.tsx", 1, None, ["a.tsx"]]), max_size=3),
                max_size=10),
       st.dictionaries(st.sampled_from(["file_path", "limit"]), _SPEC_VALUE, min_size=1, max_size=2),
       st.sampled_from(["partial", "exact", "ignore"]))
def test_a_spec_decided_once_per_argument_text_fits_the_calls_matching_does(
        args: list[dict[str, Any]], expected: dict[str, Any], mode: str) -> None:
    from agenteval_assert.checks._common import _fits_by_args

    t = T().user("go")
    for a in args:
        t.call("Read", args=a)
    tr = t.say("done").done()
    spec = Call("Read", **expected)
    fits = _fits_by_args(spec, mode, None)
    assert (fits is None) == (mode != "partial")
    if fits is not None:
        assert [fits(x) for x in tr.all_tool_calls] == [spec.matches_call(x, mode=mode) for x in tr.all_tool_calls]
    assert _fits_by_args(Call("Read", is_error=False, **expected), "partial", None) is None


class _Seen(Matcher):
    """A caller's matcher that notes every value it is asked about (the order the check asks in)."""

    def __init__(self, inner: Any, seen: list[Any]) -> None:
        self.inner, self.seen = inner, seen

    def matches(self, actual: Any) -> bool:
        self.seen.append(actual)
        return bool(c_values_match(self.inner, actual))

    def differences(self, actual: Any, path: str = "$") -> list[Any]:
        return []


def c_values_match(expected: Any, actual: Any) -> bool:
    from agenteval_assert.matchers import values_match

    return values_match(expected, actual, partial=True)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Read", "mcp__s__Read", "Bash"]),
                          st.dictionaries(st.sampled_from(["file_path", "limit", "x"]),
                                          st.sampled_from(["a.tsx", "b.ts", "a.tsx", 1, None, ["a.tsx"]]),
                                          max_size=3),
                          st.booleans()), max_size=12),
       st.sampled_from(["file_path", "limit"]), _SPEC_VALUE, st.sampled_from(["Read", "mcp__s__Read", "Bash"]),
       st.booleans())
def test_a_spec_decided_by_the_values_of_its_argument_is_what_each_call_decides(
        calls: list[tuple[str, dict[str, Any], bool]], key: str, value: Any, name: str, include: bool) -> None:
    """``_common._fitting`` of a spec naming one argument (from ``CallIndex.arg_positions``)
    gives the calls, in order, that the closure of ``_fits_by_args`` keeps over the candidates,
    and asks a caller's matcher about the same values in the same order; the positions by
    value are the calls' values."""
    from agenteval_assert.checks._common import _NO_ARG, _fits_by_args, _fitting, _narrowed

    t = T().user("go")
    for n, args, sub in calls:
        t.call(n, args=args, agent="sub" if sub else None)
    tr = t.say("done").done()
    old: list[Any] = []
    new: list[Any] = []
    spec_old = Call(name, **{key: _Seen(value, old)})
    spec_new = Call(name, **{key: _Seen(value, new)})
    fits = _fits_by_args(spec_old, "partial", None)
    assert fits is not None
    want = tuple(x for x in _narrowed(tr, spec_old, include) if fits(x))
    assert _fitting(tr, spec_new, "partial", None, include) == want
    assert new == old  # the same values asked about, in the same order
    plain = Call(name, **{key: value})
    assert _fitting(tr, plain, "partial", None, include) == tuple(
        x for x in _narrowed(tr, plain, include) if plain.matches_call(x))
    ix = _index(tr)
    where = ix.positions(include).get(name, [])
    by, others = ix.arg_positions(where, key, include)
    pool = ix.pool(include)
    assert sorted([*others, *(i for lst in by.values() for i in lst)]) == list(where)
    for v, lst in by.items():
        assert lst == sorted(lst) and all(pool[i].arguments.get(key, _NO_ARG) == v for i in lst)
        assert type(v) is str or v is _NO_ARG
    assert all(type(pool[i].arguments.get(key, _NO_ARG)) is not str and pool[i].arguments.get(key, _NO_ARG)
               is not _NO_ARG for i in others)
    assert ix.arg_positions(where, key, include) is ix.arg_positions(where, key, include)  # built once


def test_command_ran_matches_each_distinct_text_once_with_our_matchers_and_every_call_with_the_callers() -> None:
    t = T().user("go")
    for i in range(30):
        t.call("Bash", command=["npm test", "git status", "npm test -- --ci"][i % 3])
    tr = t.say("done").done()
    seen: list[str] = []

    class Spy(Matcher):
        def matches(self, actual: Any) -> bool:
            seen.append(actual)
            return "npm" in actual

        def differences(self, actual: Any, path: str = "$") -> list[Any]:
            return []

    r = c.check_command_ran(tr, Spy())
    assert len(seen) == 30 and len(r.matched) == 20  # a caller's matcher sees every call
    assert len(c.check_command_ran(tr, "npm test").matched) == 20
    assert len(c.check_command_ran(tr, Matches(r"--ci")).matched) == 10


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["read", "write", "edit", "delete"]), st.text(max_size=8),
       st.sampled_from([True, False, None]), st.sampled_from(["tool", "shell"]), st.none() | st.text(max_size=5),
       st.booleans(), st.booleans())
def test_a_file_event_made_by_slot_stores_is_the_one_the_class_makes(
        op: str, path: str, ok: bool | None, via: str, command: str | None, pattern: bool, recursive: bool) -> None:
    """``_files._event`` (slot stores) makes the object ``FileEvent(...)`` makes: fields, equality,
    hash, repr, pickling, ``attrs.evolve``, frozenness."""
    import pickle

    import attrs

    from agenteval_assert.checks import _files

    call = T().user("go").call("Read", file_path="x", output="ok").say("done").done().all_tool_calls[0]
    made = _files._event(op, path, call, ok, via, command, pattern, recursive)
    want = _files.FileEvent(op, path, call, ok, via, command, pattern, recursive)  # type: ignore[arg-type]
    assert type(made) is _files.FileEvent
    assert attrs.astuple(made, recurse=False) == attrs.astuple(want, recurse=False)
    assert made == want and hash(made) == hash(want) and repr(made) == repr(want)
    assert made.describe() == want.describe()
    back = pickle.loads(pickle.dumps(made))
    assert attrs.astuple(back, recurse=False)[:2] == (op, path) and back.via == via
    assert attrs.evolve(made, path="y") == attrs.evolve(want, path="y")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.path = "z"  # type: ignore[misc]


def _walk_as_it_was(failed: Any, pool: Any, waiting: set[int]) -> list[Any]:
    """``_common._retry_candidates`` before it visited the failed tools' calls by position: one
    pass over the pool, in order."""
    from agenteval_assert.checks._common import _ONLY_TEXT, _probed, _probes

    names = {f.name for f in failed}
    probes = _probes(failed)
    single = {n: next(iter(bk.items())) for n, bk in probes.items() if bk is not None and len(bk) == 1}
    out = []
    for d in pool:
        if d.name not in names:
            continue
        if d.index not in waiting:
            one = single.get(d.name)
            if one is not None:
                have = tuple(map(d.arguments.get, one[0]))
                if _ONLY_TEXT.issuperset(map(type, have)):
                    if have not in one[1]:
                        continue
                elif not _probed(d, probes[d.name]):
                    continue
            elif not _probed(d, probes.get(d.name)):
                continue
        out.append(d)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Bash", "Read", "Edit", "mcp__s__Read"]),
                          st.dictionaries(st.sampled_from(["command", "path", 1]), _ARG, max_size=2),
                          st.booleans(), st.booleans(), st.booleans()), max_size=14),
       st.booleans())
def test_the_walk_by_positions_keeps_the_calls_the_pass_over_the_pool_keeps(
        calls: list[tuple[str, dict[Any, Any], bool, bool, bool]], main_only: bool) -> None:
    """``_retry_candidates`` with the alias index's positions (the failed tools' calls only, put
    back in order) keeps exactly the calls, in the order, that one pass over the pool keeps; in
    either pool (a subagent's calls make the main agent's pool another one)."""
    from agenteval_assert.checks._common import _retry_candidates

    t = T().user("go")
    for name, args, error, answered, sub in calls:
        t.call(name, args=args, error=error, answered=answered, agent="sub" if sub else None)
    tr = t.say("done").done()
    ix = _index(tr)
    include = not main_only
    pool = ix.pool(include)
    failed = [c for c in pool if c.is_error]
    waiting = {c.index for c in failed}
    was = _walk_as_it_was(failed, pool, waiting)
    walked = _retry_candidates(failed, pool, waiting, ix.names(include))
    assert _retry_candidates(failed, pool, waiting) == walked
    # visiting only the calls with a failed call's first text there (or none, or no text), and
    # keeping those of a tool of one text argument without reading them, keeps the same
    assert _retry_candidates(failed, pool, waiting, ix.names(include), ix.by_value(include)) == walked
    got = [pool[at] for at, _, _ in walked]
    assert [i for _, i, _ in walked] == [d.index for d in got]
    _assert_only_unneeded_calls_dropped(failed, was, got)
    _assert_same_arguments_same_group([(pool[at], i, g) for at, i, g in walked])


def _assert_same_arguments_same_group(walked: list[Any]) -> None:
    """What ``_recoveries`` rests on to pass over a candidate: two candidates of one tool with
    the same arguments (``args_key``) are in the same group, or one of them is in none."""
    for d, _, g in walked:
        assert g[0] == d.name
        for e, _, h in walked:
            if d.name == e.name and g[1] is not None and h[1] is not None:
                try:
                    same = args_key(d.arguments) == args_key(e.arguments)
                except TypeError:  # keys of mixed types: no key
                    continue
                assert not same or g == h, (d.arguments, e.arguments)


def _assert_only_unneeded_calls_dropped(failed: Any, was: list[Any], got: list[Any]) -> None:
    """*got* keeps the calls of *was*, in order, but those that cannot be the retry of a failed
    call: each call it drops has other arguments (another ``args_key``) than every failed call
    of its tool, so the retries found are the same."""
    kept = {id(d) for d in got}
    assert [d for d in was if id(d) in kept] == got

    def key(c: Any) -> object:
        try:
            return (c.name, args_key(c.arguments))
        except TypeError:  # keys of mixed types ({"a": 1, 1: 2}), which no JSON log holds: no key
            return None

    keys = {key(f) for f in failed}
    for d in was:
        if id(d) not in kept:
            k = key(d)
            assert k is None or k not in keys, d.arguments


def test_the_first_text_argument_alone_drops_a_call_the_whole_test_keeps() -> None:
    """A failed call with two text arguments; a later call whose first one is another text and
    whose second is an object (canonical JSON writes its repr): the whole test keeps it (its
    arguments cannot be told apart by their texts), the first argument alone drops it, and the
    retries are the same."""
    from agenteval_assert.checks._common import _recoveries, _retry_candidates

    tr = (T().user("go").call("Bash", args={"command": "x", "path": "p"}, error=True)
          .call("Bash", args={"command": "y", "path": _Thing()})
          .call("Bash", args={"command": "x", "path": "p"}).say("done").done())
    ix = _index(tr)
    pool = ix.pool(True)
    failed = [c for c in pool if c.is_error]
    waiting = {c.index for c in failed}
    was = _walk_as_it_was(failed, pool, waiting)
    got = [pool[at] for at, _, _ in _retry_candidates(failed, pool, waiting, ix.names(True))]
    assert [d.index for d in was] == [0, 1, 2] and [d.index for d in got] == [0, 2]
    _assert_only_unneeded_calls_dropped(failed, was, got)
    assert _recoveries(failed, pool, positions=ix.names(True)) == _recoveries(failed, pool) == {0: pool[2]}


def _corpus_transcripts(corpus: Any) -> list[tuple[Any, Transcript]]:
    """Every transcript of the test corpus (its files that load), with its path."""
    import contextlib

    from agenteval_assert import load
    from agenteval_assert.exceptions import AgentEvalError

    out = []
    for path in sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json")
                       and p.name != "expected.json"):
        with contextlib.suppress(AgentEvalError):  # a file of the corpus that is no transcript
            out.append((path, load(path)))
    assert len(out) > 10
    return out


def _outcome_long_way(call: Any) -> bool | None:
    """``_files._tool_outcome`` as it was written before it read the fields inline."""
    if call.status == "declined":
        return False
    if call.result is None:
        if call.status == "completed":
            return True
        return False if call.status in ("failed", "interrupted") else None
    if not call.outcome_recorded:
        return None
    return not call.is_error


_STATUSES = ["completed", "failed", "declined", "interrupted", "pending", "unrecorded", "other"]


def test_tool_outcome_read_inline_is_the_long_way_for_every_status_and_result() -> None:
    import attrs as _attrs

    from agenteval_assert.checks import _files
    from agenteval_assert.model import ToolResult

    base = T().user("go").call("Read", file_path="a").say("done").done().all_tool_calls[0]
    results = [None] + [ToolResult("x", is_error=e, exit_code=x) for e in (False, True) for x in (None, 0, 1, -2)]
    seen = 0
    for status in _STATUSES:
        for r in results:
            call = _attrs.evolve(base, status=status, result=r)
            assert _files._tool_outcome(call) is _outcome_long_way(call), (status, r)
            seen += 1
    assert seen == len(_STATUSES) * 9


def test_tool_outcome_read_inline_is_the_long_way_on_the_corpus(corpus: Any) -> None:
    from agenteval_assert.checks import _files

    n = 0
    for path, tr in _corpus_transcripts(corpus):
        for call in tr.all_tool_calls:
            assert _files._tool_outcome(call) is _outcome_long_way(call), (path, call)
            n += 1
    assert n > 300  # the corpus holds a few hundred calls, of every format it has


def _file_index_both_ways(tr: Transcript) -> tuple[Any, Any]:
    from agenteval_assert.checks import _files

    fast = _files._build_file_index(tr)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_files, "_FAST_TOOL_EVENTS", False)
        slow = _files._build_file_index(tr)
    return fast, slow


def test_file_events_made_inline_are_those_of_tool_events_on_the_corpus(corpus: Any) -> None:
    n = 0
    for path, tr in _corpus_transcripts(corpus):
        fast, slow = _file_index_both_ways(tr)
        assert fast == slow, path
        n += len(fast.events)
    assert n > 50


_FILE_ARG = st.sampled_from(["a.ts", "", "/abs/b.tsx", 1, None, ["x"]])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Read", "Write", "Edit", "str_replace_editor", "read_file"]),
                          st.dictionaries(st.sampled_from(["file_path", "path", "command", "absolute_path"]),
                                          _FILE_ARG | st.sampled_from(["view", "create"]), max_size=3),
                          st.sampled_from(["ok", "error", "none"])), max_size=8),
       st.sampled_from(["claude-code", "codex", "openhands"]))
def test_file_events_made_inline_are_those_of_tool_events(calls: list[tuple[str, dict[str, Any], str]],
                                                          agent: str) -> None:
    kinds = {"Read": "file_read", "read_file": "file_read", "Write": "file_write", "Edit": "file_edit",
             "str_replace_editor": "file_edit"}
    t = T(agent=agent).user("go")
    for name, args, outcome in calls:
        t.call(name, args=args, kind=kinds[name], error=outcome == "error", answered=outcome != "none")
    tr = t.say("done").done()
    fast, slow = _file_index_both_ways(tr)
    assert fast == slow
    assert len(fast.events) >= sum(1 for _, a, _ in calls if isinstance(a.get("file_path"), str) and a["file_path"])


def test_the_failed_calls_read_inline_are_those_is_error_gives() -> None:
    import attrs as _attrs

    from agenteval_assert.checks._index import _failed_by_flags
    from agenteval_assert.model import ToolResult

    base = T().user("go").call("Bash", command="ls").say("done").done().all_tool_calls[0]
    results = [None] + [ToolResult("x", is_error=e, exit_code=x) for e in (False, True) for x in (None, 0, 1, -2)]
    calls = [_attrs.evolve(base, status=s, result=r) for s in _STATUSES for r in results]
    assert any(c.is_error for c in calls) and not all(c.is_error for c in calls)
    assert _failed_by_flags(calls) == tuple(c for c in calls if c.is_error)


def test_the_failed_calls_read_inline_are_those_is_error_gives_on_the_corpus(corpus: Any) -> None:
    from agenteval_assert.checks._index import _failed_by_flags

    n = 0
    for path, tr in _corpus_transcripts(corpus):
        want = tuple(c for c in tr.all_tool_calls if c.is_error)
        assert _failed_by_flags(tr.all_tool_calls) == want, path
        n += len(want)
    assert n > 5


@pytest.mark.parametrize("args", [
    {"file_path": "/x/skills/pdf/SKILL.md"}, {"path": "/x/skills/pdf/SKILL.md"},
    {"file_path": None, "path": "/x/skills/pdf/SKILL.md"}, {"file_path": 1, "path": "skills/a/SKILL.md"},
    {"file_path": "skills/a/SKILL.md", "path": "skills/b/SKILL.md"}, {}, {"path": None},
])
def test_skills_read_from_a_file_path_or_else_a_path_are_those_of_every_call(args: dict[str, Any]) -> None:
    from agenteval_assert.checks._budgets import _skills

    tr = T().user("go").call("Read", args=args).call("read_file", args=args).say("done").done()
    assert _skills(tr) == _skills_of_every_call(tr)


def _skills_as_it_was(t: Transcript) -> list[tuple[str, Any]]:
    """``_budgets._skills`` before it read the file paths from the shared index: the messages,
    the skill tools, the shell calls in order, then every read in order, sorted by step (the
    order of calls of one step is the order they were met in)."""
    from agenteval_assert.checks._budgets import _SKILL_PATH, _step

    ix = _index(t)
    out: list[tuple[str, Any]] = [(s.skill, s) for s in ix.skilled() if s.skill is not None]
    tools = {x.index: x for x in ix.of_kind("skill", True)}
    tools.update((x.index, x) for x in ix.named("Skill", True) if x.name == "Skill")
    for x in tools.values():
        s = x.arguments.get("skill", x.arguments.get("command", x.arguments.get("name")))
        if isinstance(s, str):
            out.append((s, x))
    for x, text in zip(ix.shell_calls(True), ix.shell_texts(True), strict=True):
        if x.index not in tools:
            out.extend((m.group(1), x) for m in _SKILL_PATH.finditer(text))
    for x in ix.of_kind("file_read", True):
        if x.index not in tools:
            p = x.arguments.get("file_path", x.arguments.get("path"))
            if isinstance(p, str):
                out.extend((m.group(1), x) for m in _SKILL_PATH.finditer(p))
    out.sort(key=lambda sc: _step(sc[1]))
    return out


class _Text(str):
    """A text argument of a ``str`` subclass (a transcript built in Python)."""


@settings(max_examples=400, deadline=None)
@example([("Read", "skills/y/SKILL.md", None, "file_path", 0), ("Read", "skills/x/SKILL.md", None, "file_path", 1),
          ("Read", "skills/y/SKILL.md", None, "file_path", 1)], False)  # the read of x first, as in the pool
@example([("Read", "skills/y/SKILL.md", None, "file_path", 0), ("read_file", "skills/x/SKILL.md", None, "path", 0)],
         False)
@example([("Read", "skills/y/SKILL.md", None, "subclass", 0)], False)
@given(st.lists(st.tuples(st.sampled_from(["Skill", "Bash", "Read", "read_file", "view", "Glob"]),
                          st.sampled_from(["skills/a/SKILL.md", "skills/b/SKILL.md", "cat skills/a/SKILL.md",
                                           "skills/a/SKILL.md skills/b/SKILL.md", "src/a.ts", "SKILL.md"]),
                          st.sampled_from([None, "sub", "file_read", "shell"]),
                          st.sampled_from(["file_path", "path", "both", "file_path=None", "subclass"]),
                          st.integers(0, 2)), max_size=10),
       st.booleans())
def test_skills_of_calls_of_one_step_keep_the_order_the_walk_over_every_call_gave(
        calls: list[tuple[str, str, str | None, str, int]], shared: bool) -> None:
    """A transcript built in Python may give several calls one step (or steps out of order): the
    skills they name keep the order the walk over the reads gave, whatever the tools, the paths
    and their first calls (not grouped by tool or path); a path of a ``str`` subclass names one."""
    from agenteval_assert.checks import _budgets
    from agenteval_assert.model import ToolCall

    t = T().user("go")
    for name, text, how_kind, how, _ in calls:
        args: dict[str, Any] = {"command": text, "skill": "s"}
        if how in ("file_path", "both"):
            args["file_path"] = text
        if how in ("path", "both", "file_path=None"):
            args["path"] = text
        if how == "file_path=None":
            args["file_path"] = None
        if how == "subclass":
            args["file_path"] = _Text(text)
        kind = how_kind if how_kind in ("file_read", "shell") else None
        t.call(name, kind=kind, agent="sub" if how_kind == "sub" else None, args=args)
    tr = t.say("done").done()
    steps = {x.index: step for x, (*_, step) in zip(tr.all_tool_calls, calls, strict=True)}
    made = tuple(attrs.evolve(s, step=steps[s.index]) if isinstance(s, ToolCall) else s for s in tr.steps)
    tr = attrs.evolve(tr, steps=made, tool_calls=tuple(s for s in made if isinstance(s, ToolCall) and s.agent_id is None))
    if shared:
        c.check_tool_called(tr, Call("Read", file_path=Matches("SKILL")))
    assert _budgets._skills(tr) == _skills_as_it_was(tr)
    for name in ("a", "b", "nope"):
        got = c.check_skill_invoked(tr, name)
        saved = _budgets._skills
        _budgets._skills = _skills_as_it_was
        try:
            want = c.check_skill_invoked(attrs.evolve(tr), name)
        finally:
            _budgets._skills = saved
        assert got.to_dict() == want.to_dict() and got.render(verbose=True) == want.render(verbose=True)


def _step_facts_long_way(tr: Transcript) -> tuple[int, int, tuple[Any, ...]]:
    """What ``CallIndex.step_facts`` replaces: ``action_count`` both ways without the builder's
    count, and the messages with a skill as ``_skills`` listed them."""
    from agenteval_assert.model import _ACTION_COUNT, Message

    saved = tr._derived.pop(_ACTION_COUNT, None)
    try:
        n, main = tr.action_count(), tr.action_count(include_subagents=False)
    finally:
        if saved is not None:
            tr._derived[_ACTION_COUNT] = saved
    return n, main, tuple(s for s in tr.steps if isinstance(s, Message) and s.skill is not None)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["user", "assistant", "think", "call"]), st.none() | st.just("sub"),
                          st.none() | st.sampled_from(["pdf", "plug:storybook"]), st.booleans()), max_size=12))
def test_one_pass_over_the_steps_counts_the_actions_and_finds_the_skills_as_before(
        steps: list[tuple[str, str | None, str | None, bool]]) -> None:
    from agenteval_assert.checks._budgets import _action_count, _skills

    t = T()
    for kind, agent, skill, meta in steps:
        if kind == "call":
            t.call("Bash", command="ls", agent=agent)
        elif kind == "think":
            t.b.thinking("hmm", t._next(), agent_id=agent)
        else:
            t.b.message(kind, "text", t._next(), agent_id=agent, meta=meta, skill=skill)  # type: ignore[arg-type]
    tr = t.say("done").done()
    assert _index(tr).step_facts() == _step_facts_long_way(tr)
    for include in (True, False):
        assert _action_count(tr, include) == tr.action_count(include_subagents=include)
    tr._derived.clear()  # without the builder's count (and a fresh index)
    for include in (True, False):
        assert _action_count(tr, include) == _step_facts_long_way(tr)[0 if include else 1]
    assert _skills(tr) == [(m.skill, m) for m in _step_facts_long_way(tr)[2]]  # no call names a skill here


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["user", "assistant", "think", "call"]), st.none() | st.just("sub"),
                          st.none() | st.sampled_from(["pdf", "plug:storybook"])), max_size=12))
def test_the_builders_skilled_messages_are_the_ones_a_pass_finds(
        steps: list[tuple[str, str | None, str | None]]) -> None:
    # the builder records the places of the messages that invoke a skill as they come:
    # check_skill_invoked reads them there, without a pass over the steps
    from agenteval_assert.checks._budgets import _skills
    from agenteval_assert.model import _SKILLED_STEPS

    t = T()
    for kind, agent, skill in steps:
        if kind == "call":
            t.call("Bash", command="ls", agent=agent)
        elif kind == "think":
            t.b.thinking("hmm", t._next(), agent_id=agent)
        else:
            t.b.message(kind, "text", t._next(), agent_id=agent, skill=skill)  # type: ignore[arg-type]
    tr = t.say("done").done()
    long_way = _step_facts_long_way(tr)[2]
    assert tr._derived[_SKILLED_STEPS] == tuple(m.index for m in long_way)
    ix = _index(tr)
    assert ix._skilled_places is not None and ix._step_facts is None
    found = ix.skilled()
    assert len(found) == len(long_way) and all(a is b for a, b in zip(found, long_way, strict=True))
    assert ix._step_facts is None  # no pass was made
    skills = _skills(tr)
    evolved = attrs.evolve(tr)  # a transcript made otherwise: no record, the pass
    assert _SKILLED_STEPS not in evolved._derived and _index(evolved)._skilled_places is None
    assert _skills(evolved) == skills


def test_one_pass_over_the_steps_is_the_long_way_on_the_corpus(corpus: Any) -> None:
    n = 0
    for path, tr in _corpus_transcripts(corpus):
        tr._derived.clear()
        assert _index(tr).step_facts() == _step_facts_long_way(tr), path
        r1 = c.check_budget(tr, max_steps=10)
        tr._derived.clear()
        r2 = c.check_skill_invoked(tr, "storybook")
        r3 = c.check_budget(tr, max_steps=10)  # the pass made by skill_invoked
        assert r1 == r3 and r1.render() == r3.render(), path
        assert r2.status is not None
        n += 1
    assert n > 10


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Read", "Edit", "Bash", "x"]),
                          st.sampled_from([None, "file_edit", "file_read", "shell", "other"]), st.booleans()),
                max_size=12),
       st.sampled_from(["file_edit", "shell", "nothing"]), st.sampled_from([None, "partial", "exact", "ignore"]),
       st.sampled_from(["partial", "exact", "ignore", "bad"]), st.booleans(),
       st.sampled_from([{}, {"name": "Edit"}, {"status": "completed"}, {"args": {}}]))
def test_a_spec_of_a_kind_alone_matches_the_index_entry_of_that_kind(
        calls: list[tuple[str, str | None, bool]], kind: str, spec_mode: str | None, mode: str, include: bool,
        more: dict[str, Any]) -> None:
    """``_common._of_kind_only``: the calls ``matches_call`` keeps among the candidates, or the
    same error (an unknown argument mode); ``None`` for a spec that asks more than a kind."""
    from agenteval_assert.checks._common import _narrowed, _of_kind_only

    t = T().user("go")
    for name, k, sub in calls:
        t.call(name, kind=k, agent="sub" if sub else None)
    tr = t.say("done").done()
    spec = Call(kind=kind, mode=spec_mode, **more)  # type: ignore[arg-type]
    try:
        want: Any = tuple(c for c in _narrowed(tr, spec, include) if spec.matches_call(c, mode=mode))
    except Exception as exc:  # noqa: BLE001 - the same error is expected
        want = type(exc)
    try:
        got: Any = _of_kind_only(tr, spec, mode, None, include)
    except Exception as exc:  # noqa: BLE001
        got = type(exc)
    if more:
        assert got is None
    else:
        assert got == want
        assert _of_kind_only(tr, spec, mode, {"x": "exact"}, include) is None  # overrides: not a kind alone


def _output_fits_long_way(out: Any, cands: Any) -> tuple[Any, ...]:
    """The output test of check_tool_called as it was: ``values_match`` (a matcher's ``matches``)
    call by call."""
    from agenteval_assert.matchers import Matcher, values_match

    if isinstance(out, Matcher):
        return tuple(c for c in cands if c.result is not None and out.matches(c.result.text))
    return tuple(c for c in cands if c.result is not None and values_match(out, c.result.text, partial=True))


_OUTPUTS = [Contains("a"), Contains("ok"), Contains(""), Contains("OK", ignore_case=True), Contains(["x"]),
            Matches("a"), Matches(r"o\w"), Matches("^ok$", full=True), Matches("K", ignore_case=True), "ok"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text("aokK\n ", max_size=8)), max_size=12), st.sampled_from(_OUTPUTS))
def test_tool_outputs_tested_in_one_loop_are_those_each_call_matches(outputs: list[str | None], out: Any) -> None:
    from agenteval_assert.checks import _calls

    b = T().user("go")
    for o in outputs:
        if o is None:
            b.call("Bash", command="x", answered=False)
        else:
            b.call("Bash", command="x", output=o)
    cands = b.say("done").done().all_tool_calls
    assert _calls._output_fits(out, cands) == _output_fits_long_way(out, cands)


def test_tool_outputs_tested_in_one_loop_on_the_corpus(corpus: Any) -> None:
    from agenteval_assert.checks import _calls

    n = 0
    for path, tr in _corpus_transcripts(corpus):
        cands = tr.all_tool_calls
        for out in [*_OUTPUTS, Matches(r"\berror\b", ignore_case=True), Contains("\n")]:
            got = _calls._output_fits(out, cands)
            assert got == _output_fits_long_way(out, cands), (path, out)
            n += len(got)
    assert n > 100


def test_a_tool_output_that_is_not_text_is_tested_by_the_matcher() -> None:
    """A result whose text is no string (a plugin's builder): ``Contains`` of a list element,
    ``Matches`` never, as ``matches`` decides."""
    from agenteval_assert.checks import _calls

    cands = T().user("go").call("Bash", command="x", output="ok").say("done").done().all_tool_calls
    odd = [attrs.evolve(cands[0], result=attrs.evolve(cands[0].result, text=["ok", "x"]))]
    assert _calls._output_fits(Contains("x"), odd) == tuple(odd) == _output_fits_long_way(Contains("x"), odd)
    assert _calls._output_fits(Matches("x"), odd) == () == _output_fits_long_way(Matches("x"), odd)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["Read", "Bash", "mcp__s__t", "t"]), max_size=30), st.integers(1, 14))
def test_the_names_of_the_calls_shown_are_those_of_the_list_of_every_name(names: list[str], limit: int) -> None:
    from agenteval_assert.checks import _ordering

    b = T().user("go")
    for n in names:
        b.call(n)
    calls = b.say("done").done().all_tool_calls
    assert _ordering._calls_text(calls, limit) == _ordering._seq_text([c.name for c in calls], limit)


_WITHIN_SPECS = ["Read", "t", "mcp__s__t", "s.t", "Bash", "Nope", Call("Read", file_path="a"), Call("Bash", command=Contains("x"))]


def _renumbered(t: Transcript, renumber: list[tuple[int, int]]) -> Transcript:
    """*t* with some calls given another call's index (a transcript made by hand, or changed by
    ``attrs.evolve``: two calls of one index)."""
    calls = list(t.all_tool_calls)
    if not calls or not renumber:
        return t
    new = {}
    for i, j in renumber:
        x = calls[i % len(calls)]
        new[id(x)] = attrs.evolve(new.get(id(x), x), index=calls[j % len(calls)].index)
    steps = tuple(new.get(id(s), s) for s in t.steps)
    subs = tuple(attrs.evolve(a, tool_calls=tuple(new.get(id(x), x) for x in a.tool_calls)) for a in t.subagents)
    return attrs.evolve(t, steps=steps, tool_calls=tuple(new.get(id(x), x) for x in t.tool_calls), subagents=subs)


_RENUMBER = st.lists(st.tuples(st.integers(0, 19), st.integers(0, 19)), max_size=3)


@settings(max_examples=300, deadline=None)
@example([("Read", "a", None), ("Bash", "a", None), ("Read", "b", None)], "Read", False, [(2, 0)])
@given(st.lists(st.tuples(st.sampled_from(["Read", "Bash", "mcp__s__t", "t"]), st.sampled_from(["a", "b"]),
                          st.sampled_from([None, "sub1"])), max_size=20),
       st.sampled_from(_WITHIN_SPECS), st.booleans(), _RENUMBER)
def test_the_positions_of_a_specs_calls_in_the_pool_are_those_of_its_matching_calls(
        calls: list[tuple[str, str, str | None]], spec: Any, include_subagents: bool,
        renumber: list[tuple[int, int]]) -> None:
    from agenteval_assert.checks import _ordering
    from agenteval_assert.checks._common import _index, _pool

    b = T().user("go")
    for name, arg, agent in calls:
        b.call(name, file_path=arg, command=arg + "x", agent=agent)
    t = _renumbered(b.say("done").done(), renumber)
    spec = as_call(spec)
    pool = _pool(t, include_subagents)
    pos = {c.index: i for i, c in enumerate(pool)}  # the long way: every call's index looked up
    long_way = [pos[c.index] for c in _ordering._positions(t, spec, include_subagents) if c.index in pos]
    asked: list[int] = []

    def lazily() -> dict[int, int]:
        asked.append(1)
        return pos

    assert _ordering._pool_positions(t, spec, include_subagents, pool, lazily) == long_way
    distinct = len({c.index for c in pool}) == len(pool)
    assert _index(t).distinct_indexes(include_subagents) == distinct
    assert not asked if (spec.literal_name is not None and spec.is_name_only and distinct) else asked


@settings(max_examples=300, deadline=None)
@example([("Read", "a", None), ("Bash", "a", None), ("Read", "b", None)], "Read", "Bash", 1, False, [(2, 0)])
@given(st.lists(st.tuples(st.sampled_from(["Read", "Bash", "mcp__s__t", "t"]), st.sampled_from(["a", "b"]),
                          st.sampled_from([None, "sub1"])), max_size=20),
       st.sampled_from(_WITHIN_SPECS), st.sampled_from(_WITHIN_SPECS), st.integers(1, 4), st.booleans(), _RENUMBER)
def test_called_within_gives_what_the_lookup_of_every_calls_index_gives(
        calls: list[tuple[str, str, str | None]], trigger: Any, follow: Any, steps: int, include_subagents: bool,
        renumber: list[tuple[int, int]]) -> None:
    """The whole check (verdict, message, evidence) against the long way of finding positions,
    also where two calls share an index (each call's position is then its index's last)."""
    from agenteval_assert import checks as c
    from agenteval_assert.checks import _ordering

    b = T().user("go")
    for name, arg, agent in calls:
        b.call(name, file_path=arg, command=arg + "x", agent=agent)
    t = _renumbered(b.say("done").done(), renumber)
    r = c.check_called_within(t, trigger, follow, steps=steps, include_subagents=include_subagents)
    fast = _ordering._pool_positions

    def long_way(t: Transcript, spec: Call, include_subagents: bool, pool: Any, pos: Any) -> list[int]:
        where = pos()
        return [where[x.index] for x in _ordering._positions(t, spec, include_subagents) if x.index in where]

    _ordering._pool_positions = long_way
    try:
        again = c.check_called_within(attrs.evolve(t), trigger, follow, steps=steps,
                                      include_subagents=include_subagents)
    finally:
        _ordering._pool_positions = fast
    assert r.to_dict() == again.to_dict() and r.render(verbose=True) == again.render(verbose=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Read", "Bash", "mcp__s__t", "t", "Edit"]), max_size=20),
       st.lists(st.sampled_from(["Read", "Bash", "t", "s.t", "mcp__s__t", "Edit", "Nope"]), max_size=5), st.booleans())
def test_the_calls_outside_an_allow_list_of_names_are_every_call_not_named(
        names: list[str], allowed: list[str], want_match: bool) -> None:
    from agenteval_assert.checks import _calls
    from agenteval_assert.checks._common import _pool

    b = T().user("go")
    for n in names:
        b.call(n)
    t = b.say("done").done()
    specs = [as_call(n) for n in allowed]
    pool = _pool(t, True)
    named = {i for i, c in enumerate(pool) if any(s.name_matches(c) for s in specs)}
    long_way = [c for i, c in enumerate(pool) if (i in named) != want_match]
    assert _calls._violations(t, specs, True, want_match) == long_way


class _SubText(str):
    """A command text of a str subclass: ``ToolCall.command`` returns it as it is."""


_shell_commands = st.one_of(
    st.sampled_from(["npm test", "", "ls -la", _SubText("git status"), None, 3, ["ls", "-la"], ["a b", "c"],
                     ["x", 1], [], {"a": 1}]),
    st.text(max_size=6),
)


@st.composite
def _shell_call_lists(draw: st.DrawFn) -> Transcript:
    from agenteval_assert._builder import TranscriptBuilder
    from agenteval_assert._reader import ReadStats

    b = TranscriptBuilder("t.jsonl", "claude-session", "claude-code")
    n = draw(st.integers(0, 8))
    for i in range(n):
        args: dict[str, Any] = {}
        for key in draw(st.lists(st.sampled_from(["command", "cmd", "description"]), max_size=3, unique=True)):
            args[key] = draw(_shell_commands)
        b.call(f"k{i}", id=f"t{i}", name=draw(st.sampled_from(["Bash", "shell", "Read"])),
               kind=draw(st.sampled_from(["shell", "shell", "file_read", "other"])), arguments=args, line=i + 1,
               agent_id=draw(st.sampled_from([None, "sub"])))
    return b.build(ReadStats(path="t.jsonl", lines=n, records=n))


@settings(max_examples=400, deadline=None)
@given(_shell_call_lists(), st.booleans(), st.booleans())
def test_the_shell_calls_and_texts_are_those_of_toolcall_command(t: Transcript, include_subagents: bool,
                                                                  mapping: bool) -> None:
    """``CallIndex._shell`` (a plain text read inline) gives the calls and texts that asking
    ``ToolCall.command`` of every shell call does (``_shell_long``): equal texts of the same
    type, the argument itself where it is a text; and for arguments that are not a plain dict
    (a mapping proxy) too."""
    import types

    if mapping:
        t = attrs.evolve(t, steps=tuple(
            attrs.evolve(s, arguments=types.MappingProxyType(dict(s.arguments))) if hasattr(s, "arguments") else s
            for s in t.steps))
    fast, slow = CallIndex(t), CallIndex(t)
    fast._shell(include_subagents)
    slow._shell_long(include_subagents)
    assert fast.shell_calls(include_subagents) == slow.shell_calls(include_subagents)
    got, want = fast.shell_texts(include_subagents), slow.shell_texts(include_subagents)
    assert len(got) == len(want)
    for a, b, call in zip(got, want, slow.shell_calls(include_subagents), strict=True):
        assert type(a) is type(b) and a == b
        # the argument itself where it is a text (a list is joined anew on each read)
        assert (a is b) == (call.command is call.command)
    assert list(slow.shell_calls(include_subagents)) == [
        c for c in slow.pool(include_subagents) if c.kind == "shell" and c.command is not None]


class _Twisted(str):
    """An output text of a str subclass whose ``in`` says yes to every part (``Contains`` asks it)."""

    def __contains__(self, part: object) -> bool:
        return True


class _LongWayMatches(Matches):
    """A ``Matches`` subclass: asked call by call (its type is not ``Matches``)."""

    __slots__ = ()


class _Inverted(Contains):
    """A ``Contains`` subclass with its own verdict: asked call by call, never the substring test."""

    __slots__ = ()

    def matches(self, actual: Any) -> bool:
        return not super().matches(actual)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text("aokK", max_size=5), st.text("ao", max_size=3).map(_Twisted),
                          st.text("ao", max_size=3).map(_SubText), st.sampled_from([["ok", "a"], ("a",), 3, b"ok", {}])),
                max_size=10),
       st.sampled_from([Contains("a"), Contains(_SubText("ok")), Contains(""), Contains(["a"]), Contains(3),
                        Contains(None), Contains("A", ignore_case=True), _Inverted("a"), _Inverted(1),
                        Matches("a"), Matches("^o", full=True), _LongWayMatches("k"), "ok", _SubText("a")]))
def test_tool_outputs_of_any_type_tested_in_one_loop_are_those_each_call_matches(outputs: list[Any], out: Any) -> None:
    """Texts that are no str (lists, tuples, ints, bytes, dicts), str subclasses (one whose ``in``
    says yes to every part), parts that are no str or a str subclass, case-insensitive parts, and
    subclasses of Contains and Matches: the calls whose output fits are those the call-by-call
    test gives."""
    from agenteval_assert.checks import _calls

    b = T().user("go")
    for _ in outputs:
        b.call("Bash", command="x", output="placeholder")
    cands = list(b.say("done").done().all_tool_calls)
    for i, o in enumerate(outputs):  # any text, or no result
        x = cands[i]
        cands[i] = attrs.evolve(x, result=None if o is None else attrs.evolve(x.result, text=o))
    assert _calls._output_fits(out, cands) == _output_fits_long_way(out, cands)
