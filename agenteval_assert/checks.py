"""General trajectory checks: pure functions from a ``Transcript`` to a ``CheckResult``.

Every ``check_*`` function returns a result and never raises for a failed expectation; the
``assert_*`` functions of ``agenteval_assert.assertions`` wrap them. A check raises only when it
is called the wrong way (``UsageError``). When something the caller supplied breaks while the
check runs (a predicate raises, a regex times out, the raw file cannot be read) the result is
ERROR, naming the exception.

Never a silent pass: checks that pass because something is *absent* (not called, never after,
does not contain, only from, at most N...) return INCONCLUSIVE when the transcript is empty,
did not parse cleanly, ends in a torn line or has calls with no result — unless the caller
passes ``assume_complete=True``. Checks over "every call of X" that had no X to look at pass
with ``vacuous=True``, which the rendering says.

Which calls a check sees: existence, count, negative, shell, file, skill and safety checks look
at every call in the file, subagents included (a subagent's ``rm -rf`` is still the agent's);
order checks (``check_tool_calls``, ``before``/``after``/``within``/``never_after``) look at the
main agent's calls only, because interleaved subagent calls have no meaningful order relative
to the parent. Every check takes ``include_subagents=`` to choose otherwise.
"""

from __future__ import annotations

import bisect
import difflib
import fnmatch
import functools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal, ParamSpec, TypeVar, Union

import attrs
import regex

from ._order import max_bipartite_matching, subsequence
from ._unrecorded import asks_unrecorded, outcome_unknown
from .exceptions import UsageError
from .matchers import (
    ArgsMode,
    Call,
    Contains,
    JsonPath,
    Matcher,
    Matches,
    Override,
    ToolSpec,
    Unordered,
    as_call,
    call_aliases,
    canonical_json,
    values_match,
)
from .model import Message, Thinking, ToolCall, Transcript
from .results import (
    CheckResult,
    Difference,
    Evidence,
    NearestMiss,
    Status,
    cut_middle,
    short_repr,
)

__all__ = [
    "DEFAULT_ACKNOWLEDGEMENT",
    "DEFAULT_ANSWER",
    "DEFAULT_CONFIRMATION",
    "DEFAULT_FAILURE_OUTPUT",
    "MODES",
    "FileEvent",
    "FlagSpec",
    "Mode",
    "check_budget",
    "check_called_after",
    "check_called_before",
    "check_called_within",
    "check_command_ran",
    "check_command_succeeded",
    "check_confirmed_before_write",
    "check_failures_not_reported_as_success",
    "check_file_changed",
    "check_file_edited",
    "check_file_not_changed",
    "check_file_read",
    "check_file_written",
    "check_final_response_contains",
    "check_final_response_matches",
    "check_final_response_not_contains",
    "check_link_absent",
    "check_link_present",
    "check_never_after",
    "check_no_duplicate_calls",
    "check_no_tool_calls",
    "check_no_tool_errors",
    "check_only_tools",
    "check_resources_allowed",
    "check_retried_after_failure",
    "check_skill_invoked",
    "check_subagent_used",
    "check_tool_called",
    "check_tool_calls",
    "check_tool_failed",
    "check_tool_not_called",
    "check_tool_output",
    "check_tool_succeeded",
    "check_tools_not_called",
    "check_transcript_contains",
    "check_transcript_not_contains",
    "file_events",
]

#: Order modes of ``check_tool_calls``, named by what they mean.
Mode = Literal["exact_sequence", "in_order", "any_order", "covers", "only_from"]
MODES: tuple[str, ...] = ("exact_sequence", "in_order", "any_order", "covers", "only_from")
_MODE_TEXT = {
    "exact_sequence": "exactly the calls",
    "in_order": "the calls in this order (gaps allowed)",
    "any_order": "the same calls in any order",
    "covers": "calls covering",
    "only_from": "only calls from",
}

#: A user message that confirms a proposed action (anchored at the start of the message).
DEFAULT_CONFIRMATION = Matches(
    r"^\W*(yes|yep|yeah|y|sure|ok|okay|confirm(ed)?|go ahead|do it|please do|approved?|correct)\b",
    ignore_case=True,
)
#: The answer of an ask-the-user call that confirms.
DEFAULT_ANSWER = Matches(
    r"(?<!\bnot\s)\b(yes|confirm(ed)?|approved?|go ahead)\b", ignore_case=True
)
#: Output of a call that failed even though the tool did not flag an error.
DEFAULT_FAILURE_OUTPUT = Matches(
    r"\b(timed?[ -]?out|timeout|deadline exceeded|permission denied|access denied|denied"
    r"|forbidden|unauthori[sz]ed)\b",
    ignore_case=True,
)
#: A final response that acknowledges a failure.
DEFAULT_ACKNOWLEDGEMENT = Matches(
    r"\b(timed?[ -]?out|time-?out|fail(ed|ure|ing)?|error|could(n't| not)|can(no|')t|unable"
    r"|denied|not (able|possible|available)|unavailable|try again|did not|didn't|wasn't|was not)\b",
    ignore_case=True,
)

_URL = regex.compile(r"""https?://[^\s<>()\[\]"'`]+[^\s<>()\[\]"'`.,;:!?]""")

T = TypeVar("T")


# == plumbing =================================================================================


class _CheckFailedToRun(Exception):
    """Internal: carries an ERROR result out of a check's body."""

    def __init__(self, result: CheckResult) -> None:
        self.result = result


_P = ParamSpec("_P")


def _guarded(name: str) -> Callable[[Callable[_P, CheckResult]], Callable[_P, CheckResult]]:
    """Turn exceptions raised by caller-supplied code into an ERROR result (not UsageError).

    The decorated check keeps its signature for type checkers (``ParamSpec``).
    """

    def deco(fn: Callable[_P, CheckResult]) -> Callable[_P, CheckResult]:
        @functools.wraps(fn)
        def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> CheckResult:
            try:
                return fn(*args, **kwargs)
            except UsageError:
                raise
            except _CheckFailedToRun as exc:
                return exc.result
            except Exception as exc:  # noqa: BLE001 - a predicate, a matcher's __eq__, a regex timeout...
                return CheckResult(
                    name=name,
                    status=Status.ERROR,
                    summary=f"error: the check could not run: {type(exc).__name__}: {exc}",
                    found=f"{type(exc).__name__}: {exc}",
                    notes=("a matcher, predicate or pattern supplied to the check raised; fix it",),
                )

        return wrapper

    return deco


def _echo(fn: str, *args: Any, **kwargs: Any) -> str:
    parts = [short_repr(a, 120) for a in args]
    parts.extend(f"{k}={short_repr(v, 120)}" for k, v in kwargs.items() if v is not None)
    return f"{fn}({', '.join(parts)})"


@attrs.define(frozen=True)
class _Index:
    """Per-transcript look-ups built once: calls by every alias of their name."""

    all_calls: tuple[ToolCall, ...]
    main_calls: tuple[ToolCall, ...]
    by_alias_all: Mapping[str, tuple[ToolCall, ...]]
    by_alias_main: Mapping[str, tuple[ToolCall, ...]]
    #: canonical JSON of a call's arguments, by call index, filled as checks need it
    args_keys: dict[int, str] = attrs.field(factory=dict)


def _build_index(t: Transcript) -> _Index:
    all_calls = t.all_tool_calls
    a: dict[str, list[ToolCall]] = {}
    m: dict[str, list[ToolCall]] = {}
    for c in all_calls:
        for alias in call_aliases(c):
            a.setdefault(alias, []).append(c)
            if c.agent_id is None:
                m.setdefault(alias, []).append(c)
    return _Index(
        all_calls,
        t.tool_calls,
        {k: tuple(v) for k, v in a.items()},
        {k: tuple(v) for k, v in m.items()},
    )


def _index(t: Transcript) -> _Index:
    """The checks' look-ups for *t*, built once and kept with the transcript."""
    return t.derived("checks.index", _build_index)


def _pool(t: Transcript, include_subagents: bool) -> tuple[ToolCall, ...]:
    ix = _index(t)
    return ix.all_calls if include_subagents else ix.main_calls


def _candidates(t: Transcript, spec: Call, include_subagents: bool) -> Sequence[ToolCall]:
    """The calls that can match *spec*: the index entry of a literal name, else every call."""
    name = spec.literal_name
    if name is None:
        return _pool(t, include_subagents)
    ix = _index(t)
    return (ix.by_alias_all if include_subagents else ix.by_alias_main).get(name, ())


def _calls_matching(t: Transcript, specs: Sequence[Call] | None, include_subagents: bool) -> list[ToolCall]:
    """The calls (in order) that match any of *specs* (all calls for ``None``).

    Specs with a literal name are looked up in the alias index, so a check about the two write
    tools of a 10,000-call transcript looks at those tools' calls only.
    """
    if specs is None:
        return list(_pool(t, include_subagents))
    if any(s.literal_name is None for s in specs):
        return [c for c in _pool(t, include_subagents) if any(s.matches_call(c) for s in specs)]
    seen: dict[int, ToolCall] = {}
    for s in specs:
        for c in _candidates(t, s, include_subagents):
            if c.index not in seen and s.matches_call(c):
                seen[c.index] = c
    return [seen[i] for i in sorted(seen)]


def _incomplete(t: Transcript) -> list[str]:
    """Why *t* cannot support "X never happened" (``[]`` when it can)."""
    reasons = []
    if not t.steps:
        reasons.append("the transcript is empty (no messages, no tool calls)")
    reasons.extend(p if p.startswith("the ") else f"the transcript has {p}" for p in t.health.problems())
    return reasons


def _inconclusive_evidence(t: Transcript) -> list[Evidence]:
    ev = []
    for cid in t.health.unanswered_calls[:10]:
        c = t.call(cid)
        if c is not None:
            ev.append(Evidence.from_call(c))
    return ev


def _negative(
    name: str,
    t: Transcript,
    *,
    assume_complete: bool,
    expected: str,
    found: str,
    check: str,
    evidence: Iterable[Evidence] = (),
    matched: tuple[Any, ...] = (),
    vacuous: bool = False,
    notes: Sequence[str] = (),
) -> CheckResult:
    """The PASS of a check that rests on absence, or INCONCLUSIVE when the transcript is partial."""
    reasons = [] if assume_complete else _incomplete(t)
    if reasons:
        return CheckResult(
            name=name,
            status=Status.INCONCLUSIVE,
            summary=f"inconclusive: expected {expected}, found {found}, but {reasons[0]}",
            expected=expected,
            found=found,
            evidence=tuple(_inconclusive_evidence(t)) or tuple(evidence),
            notes=(
                *reasons[1:],
                *notes,
                (
                    "absence cannot be shown on an incomplete transcript; pass assume_complete=True"
                    " to accept it as it is"
                ),
            ),
            check=check,
        )
    return _pass(name, expected, found, check, evidence, matched, vacuous, notes)


def _pass(
    name: str,
    expected: str,
    found: str,
    check: str,
    evidence: Iterable[Evidence] = (),
    matched: tuple[Any, ...] = (),
    vacuous: bool = False,
    notes: Sequence[str] = (),
) -> CheckResult:
    return CheckResult(
        name=name,
        status=Status.PASS,
        summary=f"expected {expected}, found {found}",
        expected=expected,
        found=found,
        evidence=tuple(evidence),
        matched=matched,
        vacuous=vacuous,
        notes=tuple(notes),
        check=check,
    )


def _fail(
    name: str,
    t: Transcript,
    expected: str,
    found: str,
    check: str,
    evidence: Iterable[Evidence] = (),
    nearest: NearestMiss | None = None,
    notes: Sequence[str] = (),
    positive: bool = True,
) -> CheckResult:
    extra = list(notes)
    if positive:
        reasons = _incomplete(t)
        if reasons:
            extra.append("the transcript is incomplete, so it may have stopped before: " + "; ".join(reasons))
    return CheckResult.failing(
        name, expected, found, evidence, nearest_miss=nearest, notes=tuple(extra), check=check
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _calls_word(spec: Call, n: int) -> str:
    """``3 Bash calls`` / ``1 call``."""
    if isinstance(spec.name, str):
        return _plural(n, f"{spec.name} call")
    return _plural(n, "matching call" if spec.name is not None else "call")


def _nearest(
    spec: Call,
    calls: Iterable[ToolCall],
    *,
    mode: str = "partial",
    overrides: Mapping[str, Override] | None = None,
) -> NearestMiss | None:
    """The candidate with the fewest differences from *spec* (earliest on ties)."""
    best: tuple[int, ToolCall, list[Difference]] | None = None
    for c in calls:
        diffs = spec.call_differences(c, mode=mode, overrides=overrides)
        if not diffs:
            continue
        if best is None or len(diffs) < best[0]:
            best = (len(diffs), c, diffs)
            if len(diffs) == 1:
                break
    if best is None:
        return None
    return NearestMiss(Evidence.from_call(best[1]), tuple(best[2]))


def _name_hint(t: Transcript, spec: Call, include_subagents: bool) -> list[str]:
    """``did you mean 'Bash'?`` and what was called, when no call has the expected name."""
    counts = Counter(c.name for c in _pool(t, include_subagents))
    notes = []
    if isinstance(spec.name, str) and counts:
        close = difflib.get_close_matches(spec.name, list(counts), n=3, cutoff=0.6)
        if close:
            notes.append("did you mean " + " or ".join(repr(c) for c in close) + "?")
    if counts:
        shown = ", ".join(f"{n} ({k})" for n, k in counts.most_common(8))
        more = f", ... {len(counts) - 8} more" if len(counts) > 8 else ""
        notes.append(f"tools called: {shown}{more}")
    else:
        notes.append("no tool was called")
    return notes


def _bounds(times: int | None, at_least: int | None, at_most: int | None) -> tuple[int, int | None]:
    for label, v in (("times", times), ("at_least", at_least), ("at_most", at_most)):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise UsageError(f"{label} must be a non-negative int, got {v!r}")
    if times is not None:
        if at_least is not None or at_most is not None:
            raise UsageError("give either times=, or at_least=/at_most=, not both")
        return times, times
    lo = at_least if at_least is not None else (0 if at_most is not None else 1)
    if at_most is not None and lo > at_most:
        raise UsageError(f"at_least={lo} is more than at_most={at_most}")
    return lo, at_most


def _bound_text(lo: int, hi: int | None, spec: Call) -> str:
    what = spec.describe()
    many = what.removeprefix("a ")
    many = many.replace(" call", " calls", 1) if " call" in many else many
    if hi == 0:
        return "no " + many.replace(" calls", " call", 1)
    if lo == 1 and hi is None:
        return what
    one = what.removeprefix("a ")

    def n_of(n: int) -> str:
        return f"{n} {one if n == 1 else many}"

    if hi is None:
        return f"at least {n_of(lo)}"
    if lo == hi:
        return f"exactly {n_of(lo)}"
    if lo == 0:
        return f"at most {n_of(hi)}"
    return f"between {lo} and {n_of(hi)}"


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise UsageError(f"{name} must be True or False, got {value!r}")


def _specs(items: Sequence[ToolSpec] | ToolSpec, where: str) -> list[Call]:
    if isinstance(items, (str, Call)) or not isinstance(items, Sequence):
        raise UsageError(f"{where}: expected a list of tool names or Call(...), got {short_repr(items, 80)}")
    return [as_call(s, where) for s in items]


def _fits(spec: Call, call: ToolCall, mode: str, overrides: Mapping[str, Override] | None) -> bool:
    return spec.matches_call(call, mode=mode, overrides=overrides)


# == tool called / not called ==================================================================


@_guarded("tool_called")
def check_tool_called(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    times: int | None = None,
    at_least: int | None = None,
    at_most: int | None = None,
    mode: ArgsMode = "partial",
    overrides: Mapping[str, Override] | None = None,
    include_subagents: bool = True,
    assume_complete: bool = False,
    **fields: Any,
) -> CheckResult:
    """The tool was called (with matching arguments), optionally a bounded number of times.

    Args:
        t: the transcript.
        tool: a tool name (``"Bash"``, ``"mcp__shop__save_address"``, ``"shop.save_address"``),
            a matcher on the name, or a ``Call(...)``.
        times: exactly this many matching calls.
        at_least: at least this many matching calls (the default, with none of the three: 1).
        at_most: at most this many matching calls.
        mode: how expected arguments compare (``partial`` by default, ``exact``, ``ignore``).
        overrides: per-tool argument comparison (mode, list of keys, or callable).
        include_subagents: count calls made by subagents too (default).
        assume_complete: accept an incomplete transcript for the "at most" half.
        **fields: expected arguments (``command=Matches("pytest")``).

    Returns:
        PASS with the matching calls as ``matched``/evidence; FAIL with the nearest miss.
    """
    _check_bool("include_subagents", include_subagents)
    spec = as_call(tool, "check_tool_called", **fields)
    lo, hi = _bounds(times, at_least, at_most)
    name = "tool_not_called" if hi == 0 else "tool_called"
    echo = _echo(
        name, tool, times=None if name == "tool_not_called" else times, at_least=at_least,
        at_most=at_most, mode=None if mode == "partial" else mode, **fields,
    )
    cands = _candidates(t, spec, include_subagents)
    unknown = [c for c in cands if asks_unrecorded(spec, c)]  # asked about an outcome not recorded
    matched = tuple(c for c in cands if _fits(spec, c, mode, overrides) and not asks_unrecorded(spec, c))
    n = len(matched)
    expected = _bound_text(lo, hi, spec)
    if unknown and (n < lo or (hi is not None and n <= hi < n + len(unknown))) and (
            r := outcome_unknown(name, unknown, expected, echo, need_output=spec.output is not None)):
        return r
    total = len(_pool(t, include_subagents))
    if n < lo:
        if cands and spec.name is not None:
            found = f"none among {_calls_word(spec, len(cands))}" if n == 0 else f"{n}"
        else:
            found = "none" if n == 0 else f"{n}"
        found += f" ({_plural(total, 'tool call')} in total)" if n == 0 else ""
        taken = {id(c) for c in matched}
        nearest = _nearest(spec, (c for c in cands if id(c) not in taken), mode=mode, overrides=overrides)
        notes = [] if cands else _name_hint(t, spec, include_subagents)
        ev = [Evidence.from_call(c) for c in (matched or cands)]
        return _fail(name, t, expected, found, echo, ev, nearest, notes)
    if hi is not None and n > hi:
        ev = [Evidence.from_call(c) for c in matched]
        return _fail(name, t, expected, str(n), echo, ev, positive=False)
    ev = [Evidence.from_call(c) for c in matched]
    found = "none" if n == 0 else str(n)
    if hi is not None:
        return _negative(
            name, t, assume_complete=assume_complete, expected=expected, found=found,
            check=echo, evidence=ev, matched=matched,
        )
    return _pass(name, expected, found, echo, ev, matched)


def check_tool_not_called(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    mode: ArgsMode = "partial",
    overrides: Mapping[str, Override] | None = None,
    include_subagents: bool = True,
    assume_complete: bool = False,
    **fields: Any,
) -> CheckResult:
    """No call of the tool (with matching arguments, if given). INCONCLUSIVE on a partial transcript."""
    return check_tool_called(
        t, tool, times=0, mode=mode, overrides=overrides, include_subagents=include_subagents,
        assume_complete=assume_complete, **fields,
    )


@_guarded("no_tool_calls")
def check_no_tool_calls(
    t: Transcript, *, include_subagents: bool = True, assume_complete: bool = False
) -> CheckResult:
    """The agent called no tool at all."""
    calls = _pool(t, include_subagents)
    echo = _echo("no_tool_calls")
    if calls:
        return _fail(
            "no_tool_calls", t, "no tool calls", str(len(calls)), echo,
            [Evidence.from_call(c) for c in calls], positive=False,
        )
    return _negative(
        "no_tool_calls", t, assume_complete=assume_complete, expected="no tool calls",
        found="none", check=echo,
    )


def _violations(
    t: Transcript, specs: Sequence[Call], include_subagents: bool, want_match: bool
) -> list[ToolCall]:
    # Fast path: plain names are a set look-up per call alias; only the rest are matched.
    names = {s.name for s in specs if s.is_name_only and isinstance(s.name, str)}
    rest = [s for s in specs if not (s.is_name_only and isinstance(s.name, str))]
    out = []
    for c in _pool(t, include_subagents):
        hit = any(a in names for a in call_aliases(c)) or any(s.matches_call(c) for s in rest)
        if hit != want_match:
            out.append(c)
    return out


@_guarded("only_tools")
def check_only_tools(
    t: Transcript,
    allowed: Sequence[ToolSpec],
    /,
    *,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> CheckResult:
    """Every call is of a tool in the allow-list (names, name matchers or ``Call``s)."""
    specs = _specs(allowed, "check_only_tools")
    labels = "[" + ", ".join(s.label() for s in specs) + "]"
    echo = _echo("only_tools", [s.label() for s in specs])
    bad = _violations(t, specs, include_subagents, want_match=True)
    expected = f"only calls of {labels}"
    if bad:
        names = sorted(Counter(c.name for c in bad).items())
        found = f"{_plural(len(bad), 'other call')} (" + ", ".join(f"{k} ×{v}" for k, v in names) + ")"
        return _fail(
            "only_tools", t, expected, found, echo, [Evidence.from_call(c) for c in bad],
            positive=False,
        )
    n = len(_pool(t, include_subagents))
    return _negative(
        "only_tools", t, assume_complete=assume_complete, expected=expected,
        found=f"{_plural(n, 'call')}, all allowed" if n else "no calls", check=echo,
        vacuous=n == 0,
    )


@_guarded("tools_not_called")
def check_tools_not_called(
    t: Transcript,
    denied: Sequence[ToolSpec],
    /,
    *,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> CheckResult:
    """No call of any tool in the deny-list."""
    specs = _specs(denied, "check_tools_not_called")
    labels = "[" + ", ".join(s.label() for s in specs) + "]"
    echo = _echo("tools_not_called", [s.label() for s in specs])
    bad = _violations(t, specs, include_subagents, want_match=False)
    expected = f"no call of {labels}"
    if bad:
        return _fail(
            "tools_not_called", t, expected, _plural(len(bad), "call"), echo,
            [Evidence.from_call(c) for c in bad], positive=False,
        )
    return _negative(
        "tools_not_called", t, assume_complete=assume_complete, expected=expected, found="none",
        check=echo,
    )


# == order ====================================================================================


def _positions_by_alias(actual: Sequence[ToolCall]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, c in enumerate(actual):
        for alias in call_aliases(c):
            out.setdefault(alias, []).append(i)
    return out


def _adjacency(
    specs: Sequence[Call],
    actual: Sequence[ToolCall],
    mode: str,
    overrides: Mapping[str, Override] | None,
) -> list[list[int]]:
    by_alias = _positions_by_alias(actual)
    every = range(len(actual))
    adj = []
    for s in specs:
        name = s.literal_name
        pos: Iterable[int] = by_alias.get(name, ()) if name is not None else every
        adj.append([i for i in pos if _fits(s, actual[i], mode, overrides)])
    return adj


def _seq_text(items: Sequence[str], limit: int = 12) -> str:
    if len(items) <= limit:
        return "[" + ", ".join(items) + "]"
    head = ", ".join(items[: limit - 2])
    return f"[{head}, ... {len(items) - limit + 1} more, {items[-1]}]"


@_guarded("tool_calls")
def check_tool_calls(
    t: Transcript,
    expected: Sequence[ToolSpec | Unordered],
    /,
    *,
    mode: Mode = "in_order",
    args_mode: ArgsMode = "partial",
    overrides: Mapping[str, Override] | None = None,
    among: Sequence[ToolSpec] | None = None,
    include_subagents: bool = False,
    assume_complete: bool = False,
) -> CheckResult:
    """The calls relate to the expected list as *mode* says.

    Modes:
        ``exact_sequence``: the calls are exactly the expected ones, in this order.
        ``in_order``: the expected calls appear in this order; other calls may come between.
        ``any_order``: the same calls, each once, in any order (a perfect matching).
        ``covers``: every expected call appears (distinct calls; extras and any order allowed).
        ``only_from``: every call is one of the expected (each expected used at most once).

    Repeated calls are matched optimally (maximum bipartite matching), never first-come, so
    overlapping expectations (``Call("Read")`` and ``Call("Read", file_path="a.py")``) cannot
    steal each other's call.

    Args:
        expected: tool names or ``Call(...)`` in order.
        among: only calls matching one of these specs are considered (others are ignored).
        args_mode: how arguments compare (see ``Call``).
        overrides: per-tool argument comparison (see ``Call``).
    """
    if mode not in MODES:
        raise UsageError(f"check_tool_calls(): mode must be one of {', '.join(MODES)}, got {mode!r}")
    if isinstance(expected, (str, Call)) or not isinstance(expected, Sequence):
        raise UsageError(
            f"check_tool_calls: expected a list of tool names or Call(...), got {short_repr(expected, 80)}"
        )
    steps: list[list[Call]] = [
        list(e.calls) if isinstance(e, Unordered) else [as_call(e, "check_tool_calls")] for e in expected
    ]
    specs = [s for step in steps for s in step]
    grouped = any(len(step) > 1 or isinstance(e, Unordered) for step, e in zip(steps, expected, strict=True))
    actual: Sequence[ToolCall] = _pool(t, include_subagents)
    if among is not None:
        scope = _specs(among, "check_tool_calls(among=...)")
        actual = [c for c in actual if any(s.matches_call(c) for s in scope)]
    labels = [s.label() for s in specs]
    step_labels = [e.label() if isinstance(e, Unordered) else as_call(e).label() for e in expected]
    echo = _echo(
        "tool_calls", _Shown("[" + ", ".join(repr(e) for e in expected) + "]"),
        mode=mode, args_mode=None if args_mode == "partial" else args_mode,
        among=None if among is None else [as_call(s).label() for s in among],
    )
    exp_text = f"{_MODE_TEXT[mode]} {_seq_text(step_labels)}"
    act_labels = [c.name for c in actual]
    name = "tool_calls"

    if grouped and mode in ("exact_sequence", "in_order"):
        return _grouped_sequence(
            t, steps, step_labels, actual, mode, args_mode, overrides, exp_text, echo, assume_complete
        )

    if mode == "exact_sequence":
        for i, s in enumerate(specs):
            if i >= len(actual):
                ev = [Evidence.from_call(c) for c in actual[-3:]]
                return _fail(
                    name, t, exp_text,
                    f"{_seq_text(act_labels)}: {_plural(len(specs) - len(actual), 'expected call')}"
                    f" missing from position {i + 1}", echo, ev,
                )
            if not _fits(s, actual[i], args_mode, overrides):
                diffs = s.call_differences(actual[i], mode=args_mode, overrides=overrides)
                nm = NearestMiss(Evidence.from_call(actual[i]), tuple(diffs))
                return _fail(
                    name, t, exp_text,
                    f"{_seq_text(act_labels)}: position {i + 1} is #{actual[i].index} {actual[i].name},"
                    f" not {s.label()}", echo, [Evidence.from_call(actual[i], f"position {i + 1}")], nm,
                )
        if len(actual) > len(specs):
            extra = actual[len(specs):]
            return _fail(
                name, t, exp_text,
                f"{_seq_text(act_labels)}: {_plural(len(extra), 'extra call')} after position {len(specs)}",
                echo, [Evidence.from_call(c, "extra") for c in extra], positive=False,
            )
        ev = [Evidence.from_call(c, f"position {i + 1}") for i, c in enumerate(actual)]
        return _negative(
            name, t, assume_complete=assume_complete, expected=exp_text,
            found=f"{_plural(len(actual), 'call')} in that order", check=echo, evidence=ev,
            matched=tuple(actual), vacuous=not specs,
        )

    if mode == "in_order":
        pos = subsequence(len(specs), actual, lambda j, c: _fits(specs[j], c, args_mode, overrides))
        if len(pos) == len(specs):
            ev = [Evidence.from_call(actual[p], f"expected {i + 1}") for i, p in enumerate(pos)]
            return _pass(
                name, exp_text, f"them at {', '.join('#' + str(actual[p].index) for p in pos)}" if pos
                else "nothing to look for", echo, ev, tuple(actual[p] for p in pos), vacuous=not specs,
            )
        k = len(pos)
        after = pos[-1] if pos else -1
        s = specs[k]
        ev = [Evidence.from_call(actual[p], f"expected {i + 1}") for i, p in enumerate(pos)]
        notes = []
        earlier = [c for c in actual[: after + 1] if _fits(s, c, args_mode, overrides)]
        if earlier:
            notes.append(
                f"{s.label()} was called at #{earlier[0].index}, before"
                f" #{actual[after].index} {actual[after].name} (matched as expected call {k})"
            )
        rest = actual[after + 1:]
        nearest = _nearest(s, (c for c in rest if s.name_matches(c)), mode=args_mode, overrides=overrides)
        if nearest is None:
            nearest = _nearest(s, (c for c in actual if s.name_matches(c)), mode=args_mode, overrides=overrides)
        where = f" after #{actual[after].index} {actual[after].name}" if pos else ""
        found = (
            f"no {s.label()}{where} (expected call {k + 1} of {len(specs)});"
            f" calls were {_seq_text(act_labels)}"
        )
        return _fail(name, t, exp_text, found, echo, ev, nearest, notes)

    # any_order / covers / only_from: maximum bipartite matching.
    adj = _adjacency(specs, actual, args_mode, overrides)
    match = max_bipartite_matching(len(actual), adj)
    used = {m for m in match if m is not None}
    missing = [i for i, m in enumerate(match) if m is None]
    extra = [c for i, c in enumerate(actual) if i not in used]
    matched = tuple(actual[m] for m in match if m is not None)
    ev_ok = [Evidence.from_call(actual[m], f"expected {i + 1}") for i, m in enumerate(match) if m is not None]

    def nearest_for(i: int) -> NearestMiss | None:
        s = specs[i]
        free = [c for j, c in enumerate(actual) if j not in used and s.name_matches(c)]
        return _nearest(s, free or [c for c in actual if s.name_matches(c)], mode=args_mode, overrides=overrides)

    need_missing = mode in ("any_order", "covers")
    need_extra = mode in ("any_order", "only_from")
    if (need_missing and missing) or (need_extra and extra):
        parts = []
        if need_missing and missing:
            parts.append(f"{_plural(len(missing), 'expected call')} unmatched: {_seq_text([labels[i] for i in missing], 6)}")
        if need_extra and extra:
            parts.append(f"{_plural(len(extra), 'unexpected call')}: {_seq_text([c.name for c in extra], 6)}")
        ev = [Evidence.from_call(c, "unexpected") for c in extra] if need_extra else []
        ev = ev + ev_ok if not (need_missing and missing) else ev_ok + ev
        nearest = nearest_for(missing[0]) if need_missing and missing else None
        return _fail(
            name, t, exp_text, "; ".join(parts), echo, ev, nearest,
            positive=need_missing and bool(missing),
        )
    found = f"all {_plural(len(specs), 'expected call')} matched" if mode != "only_from" else (
        f"{_plural(len(actual), 'call')}, each matched to a distinct expected call"
    )
    if mode == "covers":
        return _pass(name, exp_text, found, echo, ev_ok, matched, vacuous=not specs)
    return _negative(
        name, t, assume_complete=assume_complete, expected=exp_text, found=found, check=echo,
        evidence=ev_ok, matched=matched, vacuous=not actual,
    )


def _group_match(
    group: Sequence[Call], calls: Sequence[ToolCall], mode: str, overrides: Mapping[str, Override] | None
) -> list[int | None]:
    adj = [[j for j, c in enumerate(calls) if _fits(s, c, mode, overrides)] for s in group]
    return max_bipartite_matching(len(calls), adj)


def _grouped_sequence(
    t: Transcript,
    steps: Sequence[Sequence[Call]],
    step_labels: Sequence[str],
    actual: Sequence[ToolCall],
    mode: str,
    args_mode: str,
    overrides: Mapping[str, Override] | None,
    exp_text: str,
    echo: str,
    assume_complete: bool,
) -> CheckResult:
    """exact_sequence / in_order where some steps are ``Unordered`` groups.

    exact: each group takes the next ``len(group)`` positions, matched as a set (perfect
    bipartite matching). in_order: each group ends as early as possible — the first position
    by which all its calls can be matched to distinct calls after the previous step — which is
    optimal for what follows (the same exchange argument as for single calls).
    """
    name = "tool_calls"
    act_labels = [c.name for c in actual]
    matched: list[ToolCall] = []
    ev: list[Evidence] = []
    p = 0
    for k, group in enumerate(steps):
        if mode == "exact_sequence":
            window = list(actual[p: p + len(group)])
            m = _group_match(group, window, args_mode, overrides) if len(window) == len(group) else []
            if len(window) < len(group) or any(x is None for x in m):
                free = [c for j, c in enumerate(window) if j not in {x for x in m if x is not None}]
                miss = [s for s, x in zip(group, m, strict=False) if x is None] or list(group)
                nearest = _nearest(miss[0], free or window, mode=args_mode, overrides=overrides)
                where = (f"positions {p + 1}-{p + len(group)}" if len(group) > 1 else f"position {p + 1}")
                return _fail(
                    name, t, exp_text,
                    f"{_seq_text(act_labels)}: {where} are not {step_labels[k]}", echo,
                    [Evidence.from_call(c, f"position {p + 1 + j}") for j, c in enumerate(window)], nearest,
                )
            for i, x in enumerate(m):
                assert x is not None
                matched.append(window[x])
                ev.append(Evidence.from_call(window[x], f"expected {k + 1}.{i + 1}" if len(group) > 1 else f"expected {k + 1}"))
            p += len(group)
            continue
        # in_order: grow the window from p until the group can be matched in it.
        cands: list[int] = []
        done: list[int] | None = None
        for i in range(p, len(actual)):
            if any(_fits(s, actual[i], args_mode, overrides) for s in group):
                cands.append(i)
                if len(cands) >= len(group):
                    m = _group_match(group, [actual[j] for j in cands], args_mode, overrides)
                    if all(x is not None for x in m):
                        done = [cands[x] for x in m if x is not None]
                        p = i + 1
                        break
        if done is None:
            after = f" after #{actual[p - 1].index} {actual[p - 1].name}" if p else ""
            sub = [actual[j] for j in cands]
            m = _group_match(group, sub, args_mode, overrides) if sub else [None] * len(group)
            missing = [s for s, x in zip(group, m, strict=True) if x is None]
            nearest = _nearest(missing[0], (c for c in actual[p:] if missing[0].name_matches(c)),
                               mode=args_mode, overrides=overrides)
            return _fail(
                name, t, exp_text,
                f"no {step_labels[k]}{after} (expected step {k + 1} of {len(steps)}: missing "
                f"{', '.join(s.label() for s in missing)}); calls were {_seq_text(act_labels)}",
                echo, ev, nearest,
            )
        for i, j in enumerate(done):
            matched.append(actual[j])
            ev.append(Evidence.from_call(actual[j], f"expected {k + 1}.{i + 1}" if len(group) > 1 else f"expected {k + 1}"))
    if mode == "exact_sequence":
        if len(actual) > p:
            extra = actual[p:]
            return _fail(
                name, t, exp_text,
                f"{_seq_text(act_labels)}: {_plural(len(extra), 'extra call')} after position {p}",
                echo, [Evidence.from_call(c, "extra") for c in extra], positive=False,
            )
        return _negative(
            name, t, assume_complete=assume_complete, expected=exp_text,
            found=f"{_plural(len(actual), 'call')} in that order", check=echo, evidence=ev,
            matched=tuple(matched),
        )
    return _pass(name, exp_text, "them at " + ", ".join(f"#{c.index}" for c in matched), echo, ev, tuple(matched))


def _positions(t: Transcript, spec: Call, include_subagents: bool) -> list[ToolCall]:
    return [c for c in _candidates(t, spec, include_subagents) if spec.matches_call(c)]


@_guarded("called_before")
def check_called_before(
    t: Transcript,
    first: ToolSpec,
    then: ToolSpec,
    /,
    *,
    every: bool = False,
    include_subagents: bool = False,
) -> CheckResult:
    """*first* was called before *then*: the first *first* precedes the first *then*.

    Equivalently: no *then* happens before some *first* has. With ``every=True``, every
    *first* precedes every *then* (the last *first* comes before the first *then*).
    Both must have been called.
    """
    a, b = as_call(first, "check_called_before"), as_call(then, "check_called_before")
    return _before("called_before", t, a, b, every, include_subagents,
                   _echo("called_before", a.label(), b.label(), every=every or None))


@_guarded("called_after")
def check_called_after(
    t: Transcript,
    later: ToolSpec,
    earlier: ToolSpec,
    /,
    *,
    every: bool = False,
    include_subagents: bool = False,
) -> CheckResult:
    """*later* was called after *earlier*: the same as ``check_called_before(t, earlier, later)``."""
    a, b = as_call(earlier, "check_called_after"), as_call(later, "check_called_after")
    return _before("called_after", t, a, b, every, include_subagents,
                   _echo("called_after", b.label(), a.label(), every=every or None))


def _before(
    name: str, t: Transcript, a: Call, b: Call, every: bool, include_subagents: bool, echo: str
) -> CheckResult:
    _check_bool("every", every)
    a_calls = _positions(t, a, include_subagents)
    b_calls = _positions(t, b, include_subagents)
    rel = "every " if every else ""
    expected = f"{rel}{a.label()} before {'every ' if every else ''}{b.label()}"
    if not a_calls or not b_calls:
        missing = [s.label() for s, cs in ((a, a_calls), (b, b_calls)) if not cs]
        nearest = _nearest(a if not a_calls else b, _candidates(t, a if not a_calls else b, include_subagents))
        return _fail(name, t, expected, f"no {' and no '.join(missing)} call", echo,
                     [Evidence.from_call(c) for c in (a_calls or b_calls)[:1]], nearest)
    pivot = a_calls[-1] if every else a_calls[0]
    if pivot.index < b_calls[0].index:
        return _pass(name, expected, f"#{pivot.index} {pivot.name} before #{b_calls[0].index} {b_calls[0].name}",
                     echo, [Evidence.from_call(pivot), Evidence.from_call(b_calls[0])], (pivot, b_calls[0]))
    found = f"#{b_calls[0].index} {b_calls[0].name} before #{pivot.index} {pivot.name}"
    return _fail(name, t, expected, found, echo,
                 [Evidence.from_call(b_calls[0], "too early"), Evidence.from_call(pivot)], positive=False)


@_guarded("called_within")
def check_called_within(
    t: Transcript,
    trigger: ToolSpec,
    follow: ToolSpec,
    /,
    *,
    steps: int,
    include_subagents: bool = False,
) -> CheckResult:
    """Every *trigger* call is followed by a *follow* call within *steps* tool calls.

    Steps count tool calls (1 = the very next call). Vacuous PASS when *trigger* never happened.
    """
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
        raise UsageError(f"steps must be a positive int, got {steps!r}")
    a, b = as_call(trigger, "check_called_within"), as_call(follow, "check_called_within")
    echo = _echo("called_within", a.label(), b.label(), steps=steps)
    pool = _pool(t, include_subagents)
    pos = {c.index: i for i, c in enumerate(pool)}
    a_pos = [pos[c.index] for c in _positions(t, a, include_subagents) if c.index in pos]
    b_pos = [pos[c.index] for c in _positions(t, b, include_subagents) if c.index in pos]
    expected = f"{b.label()} within {_plural(steps, 'call')} after every {a.label()}"
    if not a_pos:
        return _pass("called_within", expected, f"no {a.label()} call", echo, vacuous=True)
    late: list[ToolCall] = []
    pairs: list[ToolCall] = []
    for p in a_pos:
        k = bisect.bisect_right(b_pos, p)
        if k < len(b_pos) and b_pos[k] - p <= steps:
            pairs.append(pool[b_pos[k]])
        else:
            late.append(pool[p])
    if late:
        ev = []
        for c in late:
            p = pos[c.index]
            k = bisect.bisect_right(b_pos, p)
            note = f"next {b.label()} is {b_pos[k] - p} calls later (#{pool[b_pos[k]].index})" if k < len(b_pos) else f"no {b.label()} after it"
            ev.append(Evidence.from_call(c, note))
        return _fail("called_within", t, expected,
                     f"{_plural(len(late), a.label() + ' call')} without it", echo, ev)
    return _pass("called_within", expected, f"{_plural(len(a_pos), 'follow-up')} in time", echo,
                 [Evidence.from_call(c) for c in pairs], tuple(pairs))


@_guarded("never_after")
def check_never_after(
    t: Transcript,
    trigger: ToolSpec,
    forbidden: ToolSpec,
    /,
    *,
    include_subagents: bool = False,
    assume_complete: bool = False,
) -> CheckResult:
    """No *forbidden* call once *trigger* has happened (e.g. no Edit after the tests passed).

    Vacuous PASS when *trigger* never happened.
    """
    a, b = as_call(trigger, "check_never_after"), as_call(forbidden, "check_never_after")
    echo = _echo("never_after", a.label(), b.label())
    a_calls = _positions(t, a, include_subagents)
    expected = f"no {b.label()} after {a.label()}"
    if not a_calls:
        return _negative("never_after", t, assume_complete=assume_complete, expected=expected,
                         found=f"no {a.label()} call", check=echo, vacuous=True)
    start = a_calls[0].index
    bad = [c for c in _positions(t, b, include_subagents) if c.index > start]
    if bad:
        return _fail("never_after", t, expected, f"{_plural(len(bad), b.label() + ' call')} after #{start}",
                     echo, [Evidence.from_call(a_calls[0], "trigger")] + [Evidence.from_call(c) for c in bad],
                     positive=False)
    return _negative("never_after", t, assume_complete=assume_complete, expected=expected,
                     found="none", check=echo, evidence=[Evidence.from_call(a_calls[0], "trigger")])


# == results ==================================================================================


#: Characters at each end of an output searched for ``failure_output``: failure messages sit at
#: the start or the end; the middle of a long log is data, not a verdict (and costs time).
_FAILURE_WINDOW = 500


#: Every word of ``DEFAULT_FAILURE_OUTPUT`` contains one of these (lower case): a cheap test that
#: skips the regex for the outputs that cannot match it, which are nearly all of them.
_FAILURE_HINTS = ("time", "deadline", "denied", "forbidden", "unauthori")


def _failed(c: ToolCall, failure_output: Matcher | None = DEFAULT_FAILURE_OUTPUT) -> bool:
    if c.result is None:
        # No result in the log (lost, or still running): nothing shows that it failed. The
        # negative checks built on this are INCONCLUSIVE on such a transcript instead.
        return c.status in ("failed", "declined")
    if c.is_error or c.status in ("failed", "declined", "interrupted"):
        return True
    if failure_output is None:
        return False
    text = c.result.text
    windows: tuple[str, ...] = (
        (text[:_FAILURE_WINDOW], text[-_FAILURE_WINDOW:]) if len(text) > 2 * _FAILURE_WINDOW else (text,)
    )
    if failure_output is DEFAULT_FAILURE_OUTPUT:
        lowered = [w.lower() for w in windows]
        windows = tuple(w for w, low in zip(windows, lowered, strict=True) if any(h in low for h in _FAILURE_HINTS))
    return any(failure_output.matches(w) for w in windows)


def _outcome(c: ToolCall) -> str:
    if c.result is None:
        return f"no result (status {c.status})"
    if c.is_error:
        return "failed" + (f" (exit code {c.exit_code})" if c.exit_code not in (None, 0) else "")
    return "succeeded"


def _matching(t: Transcript, spec: Call, include_subagents: bool) -> tuple[Sequence[ToolCall], list[ToolCall]]:
    cands = _candidates(t, spec, include_subagents)
    return cands, [c for c in cands if spec.matches_call(c)]


def _outcome_check(
    name: str, t: Transcript, spec: Call, want: Literal["succeeded", "failed"], include_subagents: bool,
    echo: str,
) -> CheckResult:
    cands, calls = _matching(t, spec, include_subagents)
    expected = f"{spec.describe()} that {want}"
    if not calls:
        nearest = _nearest(spec, cands)
        return _fail(name, t, expected, f"no {spec.describe()[2:]}", echo,
                     [Evidence.from_call(c) for c in cands], nearest,
                     [] if cands else _name_hint(t, spec, include_subagents))
    if want == "succeeded":
        ok = [c for c in calls if c.result is not None and not c.is_error and c.outcome_recorded]
    else:
        ok = [c for c in calls if c.is_error]
    if ok:
        return _pass(name, expected, f"#{ok[0].index}", echo, [Evidence.from_call(c) for c in ok], tuple(ok))
    if (unknown := outcome_unknown(name, calls, expected, echo)) is not None:
        return unknown
    outcomes = Counter(_outcome(c) for c in calls)
    found = f"{_calls_word(spec, len(calls))}, " + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
    return _fail(name, t, expected, found, echo, [Evidence.from_call(c, _outcome(c)) for c in calls])


@_guarded("tool_succeeded")
def check_tool_succeeded(
    t: Transcript, tool: ToolSpec, /, *, include_subagents: bool = True, **fields: Any
) -> CheckResult:
    """A matching call has a result that is not an error (no error flag, exit code 0 or none)."""
    spec = as_call(tool, "check_tool_succeeded", **fields)
    return _outcome_check("tool_succeeded", t, spec, "succeeded", include_subagents,
                          _echo("tool_succeeded", tool, **fields))


@_guarded("tool_failed")
def check_tool_failed(
    t: Transcript, tool: ToolSpec, /, *, include_subagents: bool = True, **fields: Any
) -> CheckResult:
    """A matching call failed (error flag, failed/declined status or non-zero exit code)."""
    spec = as_call(tool, "check_tool_failed", **fields)
    return _outcome_check("tool_failed", t, spec, "failed", include_subagents, _echo("tool_failed", tool, **fields))


@_guarded("no_tool_errors")
def check_no_tool_errors(
    t: Transcript,
    *,
    tools: Sequence[ToolSpec] | None = None,
    ignore_recovered: bool = False,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> CheckResult:
    """No call failed (optionally only among *tools*; optionally forgiving failures retried to success)."""
    specs = None if tools is None else _specs(tools, "check_no_tool_errors")
    echo = _echo("no_tool_errors", tools=None if specs is None else [s.label() for s in specs],
                 ignore_recovered=ignore_recovered or None)
    pool = _calls_matching(t, specs, include_subagents)
    bad = [c for c in pool if c.is_error]
    if ignore_recovered:
        recovered = _recoveries(bad, pool, memo=_index(t).args_keys)
        bad = [c for c in bad if c.index not in recovered]
    expected = "no failed tool calls"
    if bad:
        ev = [Evidence.from_call(c, detail=f"output: {short_repr(c.output, 160)}") for c in bad]
        return _fail("no_tool_errors", t, expected, str(len(bad)), echo, ev, positive=False)
    if (unknown := outcome_unknown("no_tool_errors", pool, expected, echo)) is not None:
        return unknown
    return _negative("no_tool_errors", t, assume_complete=assume_complete, expected=expected,
                     found="none", check=echo, vacuous=not pool)


def _args_key(c: ToolCall, memo: dict[int, str] | None = None) -> str:
    """The call's arguments as canonical JSON (kept in *memo*: several checks ask for it)."""
    if memo is None:
        return canonical_json(dict(c.arguments))
    key = memo.get(c.index)
    if key is None:
        key = memo[c.index] = canonical_json(dict(c.arguments))
    return key


def _recoveries(
    failed: Sequence[ToolCall],
    pool: Sequence[ToolCall],
    *,
    same_args: bool = True,
    ok: Callable[[ToolCall], bool] | None = None,
    memo: dict[int, str] | None = None,
) -> dict[int, ToolCall]:
    """For each failed call (by ``index``), the first later successful call of the same tool
    (and the same arguments), in one pass over *pool*: O(n), never failures × calls."""
    if not failed:
        return {}
    succeeded = ok or (lambda d: d.result is not None and not d.is_error and d.outcome_recorded)
    names = {f.name for f in failed}
    # Walk backwards keeping the earliest success seen so far per key.
    waiting = {f.index for f in failed}
    next_ok: dict[tuple[str, str | None], ToolCall] = {}
    found: dict[int, ToolCall] = {}
    for d in reversed(pool):
        if d.name not in names:
            continue
        key = (d.name, _args_key(d, memo) if same_args else None)
        if d.index in waiting and key in next_ok:
            found[d.index] = next_ok[key]
        if succeeded(d):
            next_ok[key] = d
    return found


@_guarded("retried_after_failure")
def check_retried_after_failure(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    same_args: bool = True,
    include_subagents: bool = True,
    **fields: Any,
) -> CheckResult:
    """A matching call failed and a later call of the same tool succeeded (same arguments by default)."""
    spec = as_call(tool, "check_retried_after_failure", **fields)
    echo = _echo("retried_after_failure", tool, same_args=None if same_args else False, **fields)
    _, calls = _matching(t, spec, include_subagents)
    expected = f"{spec.describe()} that failed, then a successful retry"
    failed = [c for c in calls if c.is_error]
    if not failed and (unknown := outcome_unknown("retried_after_failure", calls, expected, echo)) is not None:
        return unknown
    if not failed:
        return _fail("retried_after_failure", t, expected,
                     f"no failed {spec.describe()[2:]}" + (f" ({_plural(len(calls), 'call')}, none failed)" if calls else ""),
                     echo, [Evidence.from_call(c, _outcome(c)) for c in calls])
    recovered = _recoveries(failed, _pool(t, include_subagents), same_args=same_args, memo=_index(t).args_keys)
    for f in failed:
        r = recovered.get(f.index)
        if r is not None:
            return _pass("retried_after_failure", expected, f"#{f.index} failed, #{r.index} succeeded", echo,
                         [Evidence.from_call(f, "failed"), Evidence.from_call(r, "retry succeeded")], (f, r))
    return _fail("retried_after_failure", t, expected, f"{_plural(len(failed), 'failure')} without a successful retry",
                 echo, [Evidence.from_call(c, _outcome(c)) for c in calls])


@_guarded("tool_output")
def check_tool_output(
    t: Transcript,
    tool: ToolSpec,
    /,
    *,
    contains: str | None = None,
    matches: str | Matcher | None = None,
    include_subagents: bool = True,
    **fields: Any,
) -> CheckResult:
    """A matching call's output contains *contains* and/or matches the pattern *matches*."""
    if contains is None and matches is None:
        raise UsageError("check_tool_output() needs contains= or matches=")
    base = as_call(tool, "check_tool_output", **fields)
    parts: list[Any] = []
    if contains is not None:
        parts.append(Contains(contains))
    if matches is not None:
        parts.append(matches if isinstance(matches, Matcher) else Matches(matches))
    from .matchers import AllOf

    out = parts[0] if len(parts) == 1 else AllOf(*parts)
    spec = Call(base.name, args=base.args, mode=base.mode, kind=base.kind, server=base.server,
                tool=base.tool, status=base.status, is_error=base.is_error, exit_code=base.exit_code,
                output=out, where=base.where, agent=base.agent)
    r = check_tool_called(t, spec, include_subagents=include_subagents)
    return attrs.evolve(r, name="tool_output", check=_echo("tool_output", tool, contains=contains, matches=matches, **fields))


# == shell ====================================================================================


def _command_matcher(command: str | Matcher) -> Matcher:
    if isinstance(command, Matcher):
        return command
    if not isinstance(command, str) or not command.strip():
        raise UsageError(f"command must be a non-empty string or a matcher, got {command!r}")
    words = command.split()
    body = r"\s+".join(regex.escape(w) for w in words)
    # Whole words: "npm test" matches "cd app && npm test -- --ci" but not "npm tests".
    return Matches(rf"(?<![\w./-]){body}(?![\w./-])")


def _shell_calls(t: Transcript, include_subagents: bool) -> list[ToolCall]:
    return [c for c in _pool(t, include_subagents) if c.kind == "shell" and c.command is not None]


#: Flags of ``check_command_ran``: names that must be present, or ``{name: True | False | value}``.
FlagSpec = Union[Sequence[str], Mapping[str, Any]]  # noqa: UP007 - a runtime alias on 3.10


def _flag_values(argv: Sequence[str]) -> dict[str, list[Any]]:
    """``{"--json": [True], "--port": ["6006"], "-p": ["6006"]}`` from argv (after the program)."""
    out: dict[str, list[Any]] = {}
    for i, tok in enumerate(argv):
        if not tok.startswith("-") or tok == "-" or tok == "--":
            continue
        if "=" in tok:
            name, _, value = tok.partition("=")
            out.setdefault(name, []).append(value)
            continue
        vals = out.setdefault(tok, [])
        vals.append(True)
        if i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            vals.append(argv[i + 1])  # "--port 6006": the next word may be the value
    return out


def _parsed_fits(
    cmd: Any, program: str | Matcher | None, subcommand: str | Sequence[str] | None,
    flags: FlagSpec | None,
) -> bool:
    argv: tuple[str, ...] = cmd.argv
    if not argv:
        return False
    if program is not None and not values_match(program, cmd.name) and not values_match(program, argv[0]):
        return False
    if subcommand is not None:
        words = subcommand.split() if isinstance(subcommand, str) else list(subcommand)
        positional = [a for a in argv[1:] if not a.startswith("-")]
        if positional[: len(words)] != words:
            return False
    if flags is not None:
        have = _flag_values(argv[1:])
        wanted: Mapping[str, Any] = flags if isinstance(flags, Mapping) else dict.fromkeys(flags, True)
        for name, want in wanted.items():
            vals = have.get(name)
            if want is False:
                if vals:
                    return False
            elif want is True:
                if not vals:
                    return False
            elif not vals or not any(values_match(want, v) for v in vals if v is not True):
                return False
    return True


def _parsed_commands(call: ToolCall) -> Sequence[Any]:
    from .shell import parse_shell

    return tuple(parse_shell(call.command or "").walk())


@_guarded("command_ran")
def check_command_ran(
    t: Transcript,
    command: str | Matcher | None = None,
    /,
    *,
    program: str | Matcher | None = None,
    subcommand: str | Sequence[str] | None = None,
    flags: FlagSpec | None = None,
    succeeded: bool | None = None,
    include_subagents: bool = True,
) -> CheckResult:
    """A shell command ran: matched on its text, and/or on the parsed program, subcommand, flags.

    *command* (text): ``"npm test"`` matches ``cd web && npm test -- --ci`` (whole words); a
    ``Matches(...)`` is searched in the command text.

    Parsed (``agenteval_assert.shell.parse_shell``; ``bash -lc '…'`` wrappers, ``&&``, pipes
    and ``$(…)`` are looked through): some simple command has *program* as its
    ``argv[0]`` (basename or full), the words of *subcommand* as its first positional
    arguments, and *flags* — a list of flags that must be present, or a mapping
    ``{"--json": True, "--watch": False, "--port": "6006"}`` (present / absent / with a value,
    ``--port=6006`` or ``--port 6006``; values may be matchers).

    With ``succeeded=True`` the command must also have succeeded (exit code 0 / no error);
    with ``False``, failed.
    """
    if command is None and program is None and subcommand is None and flags is None:
        raise UsageError("check_command_ran() needs the command text, or program=/subcommand=/flags=")
    if subcommand is not None and program is None:
        raise UsageError("check_command_ran(): subcommand= needs program=")
    m = None if command is None else _command_matcher(command)
    parsed = program is not None or flags is not None
    name = "command_ran" if succeeded is None else "command_succeeded" if succeeded else "command_failed"
    echo = _echo(name, *(() if command is None else (command,)), program=program, subcommand=subcommand,
                 flags=flags, succeeded=succeeded if name == "command_ran" else None)
    shells = _shell_calls(t, include_subagents)
    hits = [
        c for c in shells
        if (m is None or m.matches(c.command))
        and (not parsed or any(_parsed_fits(x, program, subcommand, flags) for x in _parsed_commands(c)))
    ]
    quals = [f"{k}={short_repr(v, 60)}" for k, v in (("program", program), ("subcommand", subcommand),
                                                     ("flags", flags)) if v is not None]
    what = "a shell command" + (f" matching {short_repr(command, 80)}" if command is not None else "")
    if quals:
        what += (" with " if command is None else " and ") + ", ".join(quals)
    expected = f"{what} that {'succeeded' if succeeded else 'failed'}" if succeeded is not None else what
    if not hits:
        nm = None
        if isinstance(command, str):
            near = difflib.get_close_matches(command, [c.command or "" for c in shells], n=1, cutoff=0.3)
            if near:
                c = next(c for c in shells if c.command == near[0])
                nm = NearestMiss(Evidence.from_call(c), (Difference("command", short_repr(command), short_repr(c.command)),))
        return _fail(name, t, expected, f"none among {_plural(len(shells), 'shell command')}", echo,
                     [Evidence.from_call(c) for c in shells], nm)
    if succeeded is not None:
        good = [c for c in hits if (c.result is not None and not c.is_error) == succeeded and (succeeded or c.is_error)
                and c.outcome_recorded]
        if not good and (unknown := outcome_unknown(name, hits, expected, echo)) is not None:
            return unknown
        if not good:
            return _fail(name, t, expected, f"{_plural(len(hits), 'matching command')}, " + ", ".join(_outcome(c) for c in hits[:3]),
                         echo, [Evidence.from_call(c, _outcome(c), detail=f"output: {short_repr(c.output, 160)}") for c in hits])
        hits = good
    return _pass(name, expected, f"#{hits[0].index}", echo, [Evidence.from_call(c) for c in hits], tuple(hits))


def check_command_succeeded(
    t: Transcript,
    command: str | Matcher | None = None,
    /,
    *,
    program: str | Matcher | None = None,
    subcommand: str | Sequence[str] | None = None,
    flags: FlagSpec | None = None,
    include_subagents: bool = True,
) -> CheckResult:
    """A shell command matching *command* (and/or program/subcommand/flags) ran and succeeded."""
    return check_command_ran(
        t, command, program=program, subcommand=subcommand, flags=flags, succeeded=True,
        include_subagents=include_subagents,
    )


# == files ====================================================================================


@attrs.define(frozen=True)
class FileEvent:
    """A file the agent read, wrote, edited or deleted, and the call that did it."""

    op: Literal["read", "write", "edit", "delete"]
    path: str
    call: ToolCall


_PATCH_HEADER = regex.compile(r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", regex.M)
_PATCH_OPS: dict[str, Literal["write", "edit", "delete"]] = {"Add": "write", "Update": "edit", "Delete": "delete"}
_CHANGE_OPS: dict[str, Literal["write", "edit", "delete"]] = {
    "add": "write", "create": "write", "update": "edit", "modify": "edit", "delete": "delete", "remove": "delete",
}


def _patch_events(text: str, call: ToolCall) -> Iterator[FileEvent]:
    for m in _PATCH_HEADER.finditer(text):
        if m.group(1):
            yield FileEvent(_PATCH_OPS[m.group(1)], m.group(2), call)
        else:
            yield FileEvent("write", m.group(3), call)


def _redirections(command: str, call: ToolCall) -> Iterator[FileEvent]:
    """Files written by output redirections (``> f`` write, ``>> f`` edit) and ``tee``."""
    from .shell import parse_shell  # never raises: a best effort on malformed input

    for cmd in parse_shell(command).walk():
        for r in cmd.redirects:
            target = r.writes_file
            if target is None or target.startswith(("/dev/", "&")):
                continue
            yield FileEvent("edit" if r.op in (">>", "&>>") else "write", target, call)
        if cmd.name == "tee":
            args = list(cmd.argv[1:])
            append = "-a" in args or "--append" in args
            for a in args:
                if not a.startswith("-") and not a.startswith("/dev/"):
                    yield FileEvent("edit" if append else "write", a, call)


def file_events(t: Transcript, *, include_subagents: bool = True) -> list[FileEvent]:
    """Every file read/write/edit/delete the transcript shows, in order.

    Sources: Claude ``Read``/``Write``/``Edit``/``MultiEdit``/``NotebookEdit`` (``file_path``),
    Codex ``file_change`` (``changes[].path`` and kind), ``apply_patch`` patch headers (in
    arguments, or a shell here-doc), and shell output redirections where the shell parser
    understands the command.
    """
    out: list[FileEvent] = []
    for c in _pool(t, include_subagents):
        args = c.arguments
        if c.kind in ("file_read", "file_write", "file_edit"):
            op: Literal["read", "write", "edit"] = {"file_read": "read", "file_write": "write", "file_edit": "edit"}[c.kind]  # type: ignore[assignment]
            path = args.get("file_path", args.get("path", args.get("notebook_path")))
            if isinstance(path, str):
                out.append(FileEvent(op, path, c))
                continue
            changes = args.get("changes")
            if isinstance(changes, list):
                for ch in changes:
                    if isinstance(ch, Mapping) and isinstance(ch.get("path"), str):
                        k = ch.get("kind")
                        if isinstance(k, Mapping):
                            k = k.get("type")
                        out.append(FileEvent(_CHANGE_OPS.get(str(k), "edit"), ch["path"], c))
                continue
            texts = [v for v in (c.raw_arguments, args.get("input"), args.get("patch"), args.get("value")) if isinstance(v, str)]
            for text in texts:
                out.extend(_patch_events(text, c))
        elif c.kind == "shell" and c.command:
            if "*** Begin Patch" in c.command:
                out.extend(_patch_events(c.command, c))
            elif ">" in c.command or "tee" in c.command:
                out.extend(_redirections(c.command, c))
    return out


def _path_matcher(path: str | Matcher) -> Callable[[str], bool]:
    if isinstance(path, Matcher):
        return path.matches
    if not isinstance(path, str) or not path:
        raise UsageError(f"path must be a non-empty string or a matcher, got {path!r}")
    want = path.replace("\\", "/")
    glob = any(ch in want for ch in "*?[")

    def fits(actual: str) -> bool:
        a = actual.replace("\\", "/")
        if glob:
            return fnmatch.fnmatchcase(a, want) or fnmatch.fnmatchcase(a, "*/" + want.lstrip("/"))
        return a == want or a.endswith("/" + want.lstrip("./")) or os.path.normpath(a) == os.path.normpath(want)

    return fits


def _file_check(
    name: str, t: Transcript, path: str | Matcher, ops: tuple[str, ...], verb: str, include_subagents: bool
) -> CheckResult:
    fits = _path_matcher(path)
    events = file_events(t, include_subagents=include_subagents)
    hits = [e for e in events if e.op in ops and fits(e.path)]
    echo = _echo(name, path)
    expected = f"{short_repr(path, 120)} {verb}"
    if hits:
        return _pass(name, expected, f"#{hits[0].call.index} {hits[0].op} {hits[0].path}", echo,
                     [Evidence.from_call(e.call, f"{e.op} {e.path}") for e in hits], tuple(e.call for e in hits))
    same_path = [e for e in events if fits(e.path)]
    others = [e for e in events if e.op in ops]
    ev = [Evidence.from_call(e.call, f"{e.op} {e.path}") for e in (same_path or others)]
    verbs = {"read": "read", "write": "written", "edit": "edited", "delete": "deleted"}
    found = (f"it was only {' and '.join(sorted({verbs[e.op] for e in same_path}))}" if same_path else
             f"{_plural(len(others), 'other file')} {verb}" if others else f"no file {verb}")
    notes = []
    if isinstance(path, str) and others:
        close = difflib.get_close_matches(path, sorted({e.path for e in others}), n=2, cutoff=0.5)
        if close:
            notes.append("did you mean " + " or ".join(repr(c) for c in close) + "?")
    return _fail(name, t, expected, found, echo, ev, notes=notes)


@_guarded("file_read")
def check_file_read(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> CheckResult:
    """The agent read the file (a path equal to, or ending in ``/``+*path*; globs allowed)."""
    return _file_check("file_read", t, path, ("read",), "read", include_subagents)


@_guarded("file_written")
def check_file_written(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> CheckResult:
    """The agent wrote (created or overwrote) the file."""
    return _file_check("file_written", t, path, ("write",), "written", include_subagents)


@_guarded("file_edited")
def check_file_edited(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> CheckResult:
    """The agent edited the file in place (Edit/MultiEdit, a patch update, ``>>``)."""
    return _file_check("file_edited", t, path, ("edit",), "edited", include_subagents)


@_guarded("file_changed")
def check_file_changed(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> CheckResult:
    """The agent wrote, edited or deleted the file."""
    return _file_check("file_changed", t, path, ("write", "edit", "delete"), "changed", include_subagents)


@_guarded("file_not_changed")
def check_file_not_changed(
    t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True, assume_complete: bool = False
) -> CheckResult:
    """The agent did not write, edit or delete the file. INCONCLUSIVE on a partial transcript."""
    fits = _path_matcher(path)
    hits = [e for e in file_events(t, include_subagents=include_subagents)
            if e.op != "read" and fits(e.path)]
    echo = _echo("file_not_changed", path)
    expected = f"{short_repr(path, 120)} not changed"
    if hits:
        return _fail("file_not_changed", t, expected, f"{_plural(len(hits), 'change')}", echo,
                     [Evidence.from_call(e.call, f"{e.op} {e.path}") for e in hits], positive=False)
    return _negative("file_not_changed", t, assume_complete=assume_complete, expected=expected,
                     found="no change", check=echo)


# == final response and raw text ===============================================================


def _final(t: Transcript) -> tuple[str | None, Evidence | None]:
    text = t.final_response
    if text is None:
        return None, None
    loc = None
    for s in reversed(t.steps):
        if isinstance(s, Message) and s.role == "assistant" and s.agent_id is None and s.text:
            loc = s.location
            break
    return text, Evidence(f"final response: {short_repr(text, 160)}", loc)


def _text_matcher(text: str | Matcher, ignore_case: bool) -> Matcher:
    if isinstance(text, Matcher):
        return text
    if not isinstance(text, str) or not text:
        raise UsageError(f"expected a non-empty string or a matcher, got {text!r}")
    return Contains(text, ignore_case=ignore_case)


@_guarded("final_response_contains")
def check_final_response_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False
) -> CheckResult:
    """The main agent's final response contains *text* (or satisfies a matcher)."""
    m = _text_matcher(text, ignore_case)
    return _final_check("final_response_contains", t, m, text, True,
                        _echo("final_response_contains", text, ignore_case=ignore_case or None), "containing")


@_guarded("final_response_matches")
def check_final_response_matches(
    t: Transcript, pattern: str | Matcher, /, *, ignore_case: bool = False
) -> CheckResult:
    """The final response matches the regular expression (``regex.search``)."""
    m = pattern if isinstance(pattern, Matcher) else Matches(pattern, ignore_case=ignore_case)
    return _final_check("final_response_matches", t, m, pattern, True,
                        _echo("final_response_matches", m), "matching")


@_guarded("final_response_not_contains")
def check_final_response_not_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False, assume_complete: bool = False
) -> CheckResult:
    """The final response does not contain *text*. INCONCLUSIVE without a final response."""
    m = _text_matcher(text, ignore_case)
    return _final_check("final_response_not_contains", t, m, text, False,
                        _echo("final_response_not_contains", text, ignore_case=ignore_case or None),
                        "not containing", assume_complete)


def _final_check(
    name: str, t: Transcript, m: Matcher, shown: object, want: bool, echo: str, verb: str,
    assume_complete: bool = False,
) -> CheckResult:
    text, ev = _final(t)
    expected = f"a final response {verb} {short_repr(shown, 120)}"
    if text is None:
        if not want:
            return CheckResult(name=name, status=Status.INCONCLUSIVE,
                               summary=f"inconclusive: expected {expected}, found no final response",
                               expected=expected, found="no final response", check=echo,
                               notes=("the transcript has no final assistant message to look at",))
        return _fail(name, t, expected, "no final response", echo)
    hit = m.matches(text)
    evs = [ev] if ev else []
    if hit == want:
        if want:
            return _pass(name, expected, "it", echo, evs, (text,))
        return _negative(name, t, assume_complete=assume_complete, expected=expected, found="it does not",
                         check=echo, evidence=evs, matched=(text,))
    if want:
        return _fail(name, t, expected, f"{short_repr(text, 160)}", echo, evs)
    where = ""
    if isinstance(m, (Contains, Matches)):
        idx = _find(m, text)
        if idx is not None:
            where = f" at character {idx}: {_snippet(text, idx)}"
    return _fail(name, t, expected, f"it does{where}", echo, evs, positive=False)


def _snippet(text: str, idx: int) -> str:
    """The text around *idx* (40 characters before, 60 after), elisions marked."""
    start, end = max(0, idx - 40), min(len(text), idx + 60)
    body = text[start:end].replace("\n", " ")
    return ("..." if start else "") + body + ("..." if end < len(text) else "")


def _find(m: Contains | Matches, text: str) -> int | None:
    if isinstance(m, Matches):
        hit = m.search(text)
        return None if hit is None else hit.start()
    if isinstance(m.part, str):
        i = (text.casefold().find(m.part.casefold()) if m.ignore_case else text.find(m.part))
        return None if i < 0 else i
    return None


def _links(text: str) -> list[str]:
    return list(dict.fromkeys(_URL.findall(text)))


@_guarded("link_present")
def check_link_present(t: Transcript, url: str | Matcher, /) -> CheckResult:
    """The final response has a link equal to *url* (a prefix when it ends in ``/`` or ``*``)."""
    m = _url_matcher(url)
    text, ev = _final(t)
    echo = _echo("link_present", url)
    expected = f"a link {short_repr(url, 120)} in the final response"
    if text is None:
        return _fail("link_present", t, expected, "no final response", echo)
    links = _links(text)
    hits = [u for u in links if m(u)]
    if hits:
        return _pass("link_present", expected, hits[0], echo, [ev] if ev else [], tuple(hits))
    found = f"links {_seq_text([cut_middle(u, 80) for u in links], 6)}" if links else "no links"
    return _fail("link_present", t, expected, found, echo, [ev] if ev else [])


@_guarded("link_absent")
def check_link_absent(
    t: Transcript, url: str | Matcher | None = None, /, *, assume_complete: bool = False
) -> CheckResult:
    """The final response has no link (matching *url*, when given)."""
    m = _url_matcher(url) if url is not None else (lambda u: True)
    text, ev = _final(t)
    echo = _echo("link_absent", url)
    expected = f"no link {short_repr(url, 120)} in the final response" if url is not None else "no links in the final response"
    if text is None:
        return CheckResult(name="link_absent", status=Status.INCONCLUSIVE,
                           summary=f"inconclusive: expected {expected}, found no final response",
                           expected=expected, found="no final response", check=echo)
    hits = [u for u in _links(text) if m(u)]
    if hits:
        return _fail("link_absent", t, expected, ", ".join(short_repr(u, 80) for u in hits[:5]), echo,
                     [ev] if ev else [], positive=False)
    return _negative("link_absent", t, assume_complete=assume_complete, expected=expected, found="none",
                     check=echo, evidence=[ev] if ev else [])


def _url_matcher(url: str | Matcher) -> Callable[[str], bool]:
    if isinstance(url, Matcher):
        return url.matches
    if not isinstance(url, str) or not url:
        raise UsageError(f"url must be a non-empty string or a matcher, got {url!r}")
    if url.endswith("*"):
        return lambda u: u.startswith(url[:-1])
    if url.endswith("/"):
        return lambda u: u.startswith(url) or u == url[:-1]
    return lambda u: u == url or u.rstrip("/") == url.rstrip("/")


def _raw_lines(t: Transcript) -> Iterator[tuple[int, str]]:
    if not t.path or t.path.startswith("<"):
        raise _CheckFailedToRun(CheckResult(
            name="transcript_text", status=Status.ERROR,
            summary=f"error: the raw transcript text is not available (path {t.path!r})",
            notes=("raw-text checks need a transcript loaded from a file",),
        ))
    try:
        with open(t.path, encoding="utf-8", errors="replace") as fh:
            yield from enumerate(fh, start=1)
    except OSError as exc:
        raise _CheckFailedToRun(CheckResult(
            name="transcript_text", status=Status.ERROR,
            summary=f"error: cannot read {t.path}: {exc.strerror or exc}",
        )) from None


def _raw_hits(t: Transcript, m: Matcher, *, first_only: bool = False) -> list[tuple[int, str]]:
    """``(line, text)`` of the raw lines that *m* matches.

    A case-sensitive substring is searched in the memory-mapped file (``mmap.find``),
    which costs a fraction of decoding and testing every line; only hit lines are decoded.
    Other matchers are applied line by line.
    """
    if not (isinstance(m, Contains) and isinstance(m.part, str) and not m.ignore_case):
        hits = []
        for no, line in _raw_lines(t):
            if m.matches(line):
                hits.append((no, line))
                if first_only:
                    break
        return hits
    next(iter(_raw_lines(t)), None)  # the same errors as the line-by-line path (no file, unreadable)
    import mmap

    needle = m.part.encode("utf-8")
    out: list[tuple[int, str]] = []
    with open(t.path, "rb") as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            return out
        # Mapped, not read: searching the page cache in place costs no copy of the file.
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            pos = data.find(needle)
            lineno, counted = 1, 0
            while pos >= 0:
                start = data.rfind(b"\n", 0, pos) + 1
                lineno += data[counted:start].count(b"\n")
                counted = start
                end = data.find(b"\n", pos)
                end = len(data) if end < 0 else end
                out.append((lineno, data[start:end].decode("utf-8", "replace")))
                if first_only:
                    break
                pos = data.find(needle, end)
    return out


@_guarded("transcript_contains")
def check_transcript_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False
) -> CheckResult:
    """The raw transcript file contains *text* (a matcher is applied line by line)."""
    m = _text_matcher(text, ignore_case)
    echo = _echo("transcript_contains", text, ignore_case=ignore_case or None)
    expected = f"the raw transcript containing {short_repr(text, 120)}"
    hits = [no for no, _ in _raw_hits(t, m, first_only=True)]
    if hits:
        from .model import Location
        return _pass("transcript_contains", expected, f"it at line {hits[0]}", echo,
                     [Evidence(f"line {hits[0]} contains it", Location(t.path, hits[0]))])
    return _fail("transcript_contains", t, expected, "it does not", echo)


@_guarded("transcript_not_contains")
def check_transcript_not_contains(
    t: Transcript, text: str | Matcher, /, *, ignore_case: bool = False, assume_complete: bool = False
) -> CheckResult:
    """The raw transcript file does not contain *text* (e.g. a secret). Lists every hit."""
    from .model import Location

    m = _text_matcher(text, ignore_case)
    echo = _echo("transcript_not_contains", text, ignore_case=ignore_case or None)
    expected = f"the raw transcript not containing {short_repr(text, 120)}"
    hits = _raw_hits(t, m)
    if hits:
        ev = []
        for no, line in hits:
            i = _find(m, line) if isinstance(m, (Contains, Matches)) else None
            snippet = cut_middle(line.strip(), 120) if i is None else _snippet(line.rstrip("\n"), i)
            ev.append(Evidence(snippet, Location(t.path, no)))
        return _fail("transcript_not_contains", t, expected, f"it on {_plural(len(hits), 'line')}", echo,
                     ev, positive=False)
    return _negative("transcript_not_contains", t, assume_complete=assume_complete, expected=expected,
                     found="it does not", check=echo)


# == budgets ==================================================================================


@_guarded("budget")
def check_budget(
    t: Transcript,
    *,
    max_steps: int | None = None,
    max_tool_calls: int | None = None,
    max_tokens: int | None = None,
    max_input_tokens: int | None = None,
    max_output_tokens: int | None = None,
    max_cost_usd: float | None = None,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> CheckResult:
    """The run stayed within budget.

    Steps are the agent's actions: assistant messages, thinking blocks and tool calls (user
    and system messages are not steps). Tokens and cost come from the log and are never
    estimated: a token or cost budget on a transcript that records none is INCONCLUSIVE.
    """
    limits = {"steps": max_steps, "tool calls": max_tool_calls, "tokens": max_tokens,
              "input tokens": max_input_tokens, "output tokens": max_output_tokens, "cost (USD)": max_cost_usd}
    if all(v is None for v in limits.values()):
        raise UsageError("check_budget() needs at least one max_* limit")
    for k, v in limits.items():
        if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0):
            raise UsageError(f"the {k} limit must be a non-negative number, got {v!r}")
    steps = [s for s in t.steps if (include_subagents or s.agent_id is None)
             and (isinstance(s, (ToolCall, Thinking)) or (isinstance(s, Message) and s.role == "assistant"))]
    u = t.usage
    actual: dict[str, float | None] = {
        "steps": len(steps), "tool calls": len(_pool(t, include_subagents)), "tokens": u.total_tokens,
        "input tokens": u.input_tokens, "output tokens": u.output_tokens, "cost (USD)": u.cost_usd,
    }
    echo = _echo("budget", **{f"max_{k.replace(' (USD)', '_usd').replace(' ', '_')}": v for k, v in limits.items()})
    expected = ", ".join(f"at most {v} {k}" for k, v in limits.items() if v is not None)
    over, unknown, within = [], [], []
    for k, lim in limits.items():
        if lim is None:
            continue
        a = actual[k]
        if a is None:
            unknown.append(k)
        elif a > lim:
            over.append(f"{a:g} {k} (limit {lim:g})")
        else:
            within.append(f"{a:g} {k}")
    if over:
        ev = []
        if max_tool_calls is not None and actual["tool calls"] and actual["tool calls"] > max_tool_calls:
            pool = _pool(t, include_subagents)
            ev.append(Evidence.from_call(pool[max_tool_calls] if max_tool_calls < len(pool) else pool[-1],
                                         f"call {max_tool_calls + 1}: first over the limit"))
        return _fail("budget", t, expected, "; ".join(over), echo, ev, positive=False)
    if unknown:
        return CheckResult(
            name="budget", status=Status.INCONCLUSIVE,
            summary=f"inconclusive: expected {expected}, found no {' or '.join(unknown)} recorded in the log",
            expected=expected, found=f"no {' or '.join(unknown)} recorded", check=echo,
            notes=(f"usage mode of this format: {t.health.usage_mode}; tokens and cost are never estimated",),
        )
    return _negative("budget", t, assume_complete=assume_complete, expected=expected,
                     found=", ".join(within), check=echo)


# == delegation and skills =====================================================================


@_guarded("subagent_used")
def check_subagent_used(
    t: Transcript, *, type: str | Matcher | None = None, description: str | Matcher | None = None
) -> CheckResult:
    """A subagent was spawned (Claude Task/Agent, Codex collab ``spawn_agent``), optionally of a type."""
    echo = _echo("subagent_used", type=type, description=description)
    calls = [c for c in t.all_tool_calls
             if c.kind == "subagent" and c.arguments.get("tool", "spawn_agent") == "spawn_agent"]
    sub_types = {s.parent_call_id: s.type for s in t.subagents}
    what = "a subagent" + (f" of type {short_repr(type, 80)}" if type is not None else "") + (
        f" described {short_repr(description, 80)}" if description is not None else "")
    hits = []
    for c in calls:
        ctype = c.arguments.get("subagent_type") or sub_types.get(c.id)
        if type is not None and not values_match(type, ctype):
            continue
        if description is not None and not values_match(description, c.arguments.get("description")):
            continue
        hits.append(c)
    if not hits and not calls and t.subagents and type is None and description is None:
        return _pass("subagent_used", what, f"{_plural(len(t.subagents), 'subagent')}", echo)
    if hits:
        return _pass("subagent_used", what, f"#{hits[0].index}", echo, [Evidence.from_call(c) for c in hits], tuple(hits))
    found = "no subagent" if not calls else f"{_plural(len(calls), 'subagent call')} of other types"
    ev = [Evidence.from_call(c, f"type={short_repr(c.arguments.get('subagent_type') or sub_types.get(c.id), 40)}") for c in calls]
    return _fail("subagent_used", t, what, found, echo, ev)


_SKILL_PATH = regex.compile(r"skills/([^/\s'\"]+)/SKILL\.md")


def _skills(t: Transcript) -> list[tuple[str, ToolCall]]:
    out = []
    for c in t.all_tool_calls:
        if c.kind == "skill" or c.name == "Skill":
            s = c.arguments.get("skill", c.arguments.get("command", c.arguments.get("name")))
            if isinstance(s, str):
                out.append((s, c))
            continue
        texts: list[str] = []
        if c.kind == "shell" and c.command:
            texts.append(c.command)
        elif c.kind == "file_read":
            p = c.arguments.get("file_path", c.arguments.get("path"))
            if isinstance(p, str):
                texts.append(p)
        for text in texts:
            for m in _SKILL_PATH.finditer(text):
                out.append((m.group(1), c))
    return out


@_guarded("skill_invoked")
def check_skill_invoked(t: Transcript, name: str | Matcher, /) -> CheckResult:
    """A skill was invoked: Claude's ``Skill`` tool (``plugin:name`` matches ``name``), or a read of
    ``skills/<name>/SKILL.md`` (Codex has no skill tool)."""
    echo = _echo("skill_invoked", name)
    skills = _skills(t)

    def fits(s: str) -> bool:
        if isinstance(name, str):
            return s == name or s.rsplit(":", 1)[-1] == name
        return values_match(name, s)

    hits = [(s, c) for s, c in skills if fits(s)]
    expected = f"skill {short_repr(name, 80)} invoked"
    if hits:
        return _pass("skill_invoked", expected, f"#{hits[0][1].index} {hits[0][0]}", echo,
                     [Evidence.from_call(c, f"skill {s}") for s, c in hits], tuple(c for _, c in hits))
    found = f"skills {_seq_text(sorted({s for s, _ in skills}), 6)}" if skills else "no skill invoked"
    return _fail("skill_invoked", t, expected, found, echo, [Evidence.from_call(c, f"skill {s}") for s, c in skills])


# == business-flow safety =====================================================================


def _user_turns(t: Transcript, include_prompt: bool) -> list[Message]:
    users = [m for m in t.messages("user") if not m.meta]
    return users if include_prompt else users[1:]


@_guarded("confirmed_before_write")
def check_confirmed_before_write(
    t: Transcript,
    writes: Sequence[ToolSpec],
    /,
    *,
    confirmation: str | Matcher = DEFAULT_CONFIRMATION,
    answer: str | Matcher = DEFAULT_ANSWER,
    per_write: bool = True,
    include_prompt: bool = False,
    include_subagents: bool = True,
) -> CheckResult:
    """Every write call comes after an explicit confirmation.

    A confirmation is a user message matching *confirmation* (by default one that starts
    with yes/ok/confirm/go ahead...) or an ask-the-user call (``kind == "ask_user"``,
    e.g. Claude ``AskUserQuestion``, Codex ``request_user_input``) answered without error with
    a text matching *answer*. The first user message (the task itself) does not count unless
    ``include_prompt=True``. With ``per_write`` (default) each write needs its own
    confirmation after the previous write. Vacuous PASS when nothing was written.
    """
    specs = _specs(writes, "check_confirmed_before_write")
    conf = confirmation if isinstance(confirmation, Matcher) else Matches(confirmation, ignore_case=True)
    ans = answer if isinstance(answer, Matcher) else Matches(answer, ignore_case=True)
    echo = _echo("confirmed_before_write", [s.label() for s in specs], per_write=None if per_write else False)
    events: list[tuple[int, Evidence]] = []  # (step, evidence) of confirmations
    for m in _user_turns(t, include_prompt):
        if conf.matches(m.text):
            events.append((m.index, Evidence(f"user: {short_repr(m.text, 100)}", m.location, step=m.index)))
    for c in _pool(t, include_subagents):
        if c.kind == "ask_user" and c.result is not None and not c.is_error and ans.matches(c.result.text):
            events.append((c.step, Evidence.from_call(c, f"answered: {short_repr(c.result.text, 80)}")))
    events.sort(key=lambda e: e[0])
    steps = [s for s, _ in events]
    write_calls = _calls_matching(t, specs, include_subagents)
    expected = "every write of " + _seq_text([s.label() for s in specs], 6) + " after an explicit confirmation"
    if not write_calls:
        return _pass("confirmed_before_write", expected, "no write call", echo, vacuous=True)
    bad: list[ToolCall] = []
    ok: list[Evidence] = []
    prev_step = -1
    for c in write_calls:
        lo = prev_step if per_write else -1
        k = bisect.bisect_right(steps, lo)
        if k < len(steps) and steps[k] < c.step:
            j = bisect.bisect_left(steps, c.step) - 1
            ok.append(events[j][1])
        else:
            bad.append(c)
        prev_step = c.step
    if bad:
        ev = [Evidence.from_call(c, "no confirmation before it" + (" (since the previous write)" if per_write and c is not write_calls[0] else "")) for c in bad]
        last_user = _user_turns(t, True)
        notes = [f"confirmations seen: {len(events)}"] if events else ["no user message or ask-the-user answer confirmed anything"]
        if last_user:
            notes.append(f"user messages: {_plural(len(last_user), 'message')}; the first is the task prompt")
        return _fail("confirmed_before_write", t, expected,
                     f"{_plural(len(bad), 'write')} without one", echo, ev, notes=notes, positive=False)
    return _pass("confirmed_before_write", expected, f"{_plural(len(write_calls), 'write')}, each confirmed", echo,
                 ok + [Evidence.from_call(c) for c in write_calls], tuple(write_calls))


@_guarded("no_duplicate_calls")
def check_no_duplicate_calls(
    t: Transcript,
    tools: Sequence[ToolSpec],
    /,
    *,
    ignore_failed: bool = True,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> CheckResult:
    """No two calls of the same tool with the same arguments (e.g. saving an address twice).

    Calls that failed are not counted by default (retrying a failed write is not a duplicate).
    """
    specs = _specs(tools, "check_no_duplicate_calls")
    echo = _echo("no_duplicate_calls", [s.label() for s in specs], ignore_failed=None if ignore_failed else False)
    seen: dict[tuple[str, str], ToolCall] = {}
    dups: list[tuple[ToolCall, ToolCall]] = []
    n = 0
    for c in _calls_matching(t, specs, include_subagents):
        if ignore_failed and c.is_error:
            continue
        n += 1
        key = (c.name, _args_key(c, _index(t).args_keys))
        if key in seen:
            dups.append((seen[key], c))
        else:
            seen[key] = c
    expected = "no duplicate calls of " + _seq_text([s.label() for s in specs], 6)
    if dups:
        ev = []
        for first, again in dups:
            ev.append(Evidence.from_call(again, f"same tool and arguments as #{first.index} ({first.location})"))
        return _fail("no_duplicate_calls", t, expected, _plural(len(dups), "duplicate"), echo,
                     [Evidence.from_call(dups[0][0], "first"), *ev], positive=False)
    return _negative("no_duplicate_calls", t, assume_complete=assume_complete, expected=expected,
                     found=f"{_plural(n, 'call')}, all distinct" if n else "no such calls", check=echo, vacuous=n == 0)


@_guarded("resources_allowed")
def check_resources_allowed(
    t: Transcript,
    tools: Sequence[ToolSpec],
    /,
    *,
    path: str,
    allowed: Iterable[Any] | Matcher,
    missing_ok: bool = False,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> CheckResult:
    """Every call of *tools* names only allowed resources (e.g. the user's own order ids).

    *path* is an argument name (``"order_id"``) or a JSONPath (``"$.items[*].sku"``); every
    value it selects must be in *allowed* (a collection, or a matcher). A call where the path
    selects nothing is a violation unless ``missing_ok=True``. Vacuous PASS when no such call.
    """
    specs = _specs(tools, "check_resources_allowed")
    jp = JsonPath(path if path.startswith("$") else f"$.{_jp_key(path)}")
    if isinstance(allowed, Matcher):
        ok: Callable[[Any], bool] = allowed.matches
        shown = repr(allowed)
    else:
        pool = list(allowed)
        ok = lambda v: any(values_match(a, v) for a in pool)
        shown = short_repr(sorted(pool, key=repr) if all(isinstance(a, (str, int)) for a in pool) else pool, 120)
    echo = _echo("resources_allowed", [s.label() for s in specs], path=path, allowed=_Shown(shown))
    bad: list[Evidence] = []
    n = 0
    for c in _calls_matching(t, specs, include_subagents):
        n += 1
        vals = jp.select(dict(c.arguments))
        if not vals:
            if not missing_ok:
                bad.append(Evidence.from_call(c, f"{path}: nothing selected"))
            continue
        for v in vals:
            if not ok(v):
                bad.append(Evidence.from_call(c, f"{path} = {short_repr(v, 80)} not allowed"))
                break
    expected = f"every {_seq_text([s.label() for s in specs], 6)} call on {path} in {shown}"
    if bad:
        return _fail("resources_allowed", t, expected, _plural(len(bad), "call") + " outside the allowed set",
                     echo, bad, positive=False)
    return _negative("resources_allowed", t, assume_complete=assume_complete, expected=expected,
                     found=f"{_plural(n, 'call')}, all allowed" if n else "no such calls", check=echo, vacuous=n == 0)


class _Shown:
    """A value whose repr is already made (for the ``check:`` echo line)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _jp_key(key: str) -> str:
    return key if regex.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", key) else "'" + key.replace("'", "\\'") + "'"


@_guarded("failures_not_reported_as_success")
def check_failures_not_reported_as_success(
    t: Transcript,
    *,
    tools: Sequence[ToolSpec] | None = None,
    acknowledgement: str | Matcher = DEFAULT_ACKNOWLEDGEMENT,
    failure_output: str | Matcher | None = DEFAULT_FAILURE_OUTPUT,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> CheckResult:
    """A call that failed, timed out or was denied, and was not retried to success, is
    acknowledged in the final response rather than reported as a success.

    A call failed when it has an error flag, a failed/declined/interrupted status, or output
    matching *failure_output* (timed out, denied, forbidden...). The final response must
    match *acknowledgement* (failed, timed out, could not, unable, try again...). PASS
    (vacuous) when nothing failed.
    """
    specs = None if tools is None else _specs(tools, "check_failures_not_reported_as_success")
    ack = acknowledgement if isinstance(acknowledgement, Matcher) else Matches(acknowledgement, ignore_case=True)
    fo = None if failure_output is None else (
        failure_output if isinstance(failure_output, Matcher) else Matches(failure_output, ignore_case=True))
    echo = _echo("failures_not_reported_as_success",
                 tools=None if specs is None else [s.label() for s in specs])
    pool = _calls_matching(t, specs, include_subagents)
    failed = [c for c in pool if _failed(c, fo)]
    failed_ids = {c.index for c in failed}
    recovered = _recoveries(
        failed, pool, ok=lambda d: d.result is not None and d.index not in failed_ids, memo=_index(t).args_keys
    )
    unrecovered = [c for c in failed if c.index not in recovered]
    expected = "every unrecovered failed call acknowledged in the final response"
    if not unrecovered and (unknown := outcome_unknown("failures_not_reported_as_success", pool, expected,
                                                       echo)) is not None:
        return unknown
    if not unrecovered:
        # "nothing failed" is an absence: an incomplete transcript cannot show it
        return _negative("failures_not_reported_as_success", t, assume_complete=assume_complete,
                         expected=expected, found="no unrecovered failure", check=echo, vacuous=True,
                         notes=[f"{_plural(len(failed), 'failure')} retried to success"] if failed else [])
    ev = [Evidence.from_call(c, "failed", detail=f"output: {short_repr(c.output, 160)}") for c in unrecovered]
    text, fev = _final(t)
    if text is None:
        return CheckResult(name="failures_not_reported_as_success", status=Status.INCONCLUSIVE,
                           summary=f"inconclusive: expected {expected}, found no final response",
                           expected=expected, found="no final response", evidence=tuple(ev), check=echo)
    if ack.matches(text):
        return _negative("failures_not_reported_as_success", t, assume_complete=assume_complete,
                         expected=expected, found="the final response acknowledges it", check=echo,
                         evidence=ev + ([fev] if fev else []), matched=tuple(unrecovered))
    return _fail("failures_not_reported_as_success", t, expected,
                 f"{_plural(len(unrecovered), 'failed call')} and a final response that does not say so: "
                 f"{short_repr(text, 120)}", echo, ev + ([fev] if fev else []), positive=False)
