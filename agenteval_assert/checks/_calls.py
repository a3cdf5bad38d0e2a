"""Calls and counts: was a tool called, how many times, only allowed tools, no denied tool."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Any

from .._unrecorded import asks_unrecorded, outcome_unknown
from ..exceptions import UsageError
from ..matchers import (
    ArgsMode,
    Call,
    Contains,
    Matcher,
    Matches,
    Override,
    ToolSpec,
    as_call,
    values_match,
)
from ..model import ToolCall, Transcript
from ..results import CheckResult
from ._common import (
    UNREADABLE_NOTE,
    _agents_hint,
    _calls_word,
    _candidates,
    _case_twin_result,
    _case_twins,
    _check_bool,
    _echo,
    _evidence,
    _fail,
    _fits,
    _fitting,
    _guarded,
    _index,
    _name_hint,
    _narrowed,
    _nearest,
    _negative,
    _of_kind_only,
    _pass,
    _plural,
    _pool,
    _specs,
    _unreadable,
)

__all__ = [
    "check_no_tool_calls",
    "check_only_tools",
    "check_tool_called",
    "check_tool_not_called",
    "check_tools_not_called",
]


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
    one = spec.describe_bare()
    many = one.replace(" call", " calls", 1) if " call" in one else one
    if hi == 0:
        return "no " + one
    if lo == 1 and hi is None:
        return what

    def n_of(n: int) -> str:
        return f"{n} {one if n == 1 else many}"

    if hi is None:
        return f"at least {n_of(lo)}"
    if lo == hi:
        return f"exactly {n_of(lo)}"
    if lo == 0:
        return f"at most {n_of(hi)}"
    return f"between {lo} and {n_of(hi)}"


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
    # asked about an outcome not recorded (only a spec that asks about the outcome can)
    asks = spec.is_error is not None or spec.exit_code is not None or spec.output is not None
    output_only = _output_only(spec, mode, overrides)
    if output_only:  # asks_unrecorded of a spec that asks about the output alone, inline
        unknown = [c for c in cands if c.result is None and not c.outcome_recorded]
    else:
        unknown = [c for c in cands if asks_unrecorded(spec, c)] if asks else []
    if spec.literal_name is not None and spec.is_name_only and mode == "partial" and not overrides:
        matched = tuple(cands)  # the alias index entry of a bare name: every call in it matches
    elif output_only:
        # a name and an output: each call of the name's index entry whose output fits, as
        # matches_call decides it (a call without a result never fits, nor counts as unrecorded)
        matched = _output_fits(spec.output, cands)
    else:
        fitting = None if asks else _fitting(t, spec, mode, overrides, include_subagents)
        if fitting is None:
            fitting = _of_kind_only(t, spec, mode, overrides, include_subagents)
        if fitting is not None:
            matched = fitting
        else:
            matched = tuple(c for c in _narrowed(t, spec, include_subagents)
                            if _fits(spec, c, mode, overrides) and not (asks and asks_unrecorded(spec, c)))
    n = len(matched)
    expected = _bound_text(lo, hi, spec)
    # calls whose arguments could not be read (text that is no JSON object): an expectation on
    # the arguments cannot say whether they match, so a count they could change is undecided
    if spec.args is not None and mode != "ignore" and (n < lo or (hi is not None and n <= hi)):
        taken = {id(c) for c in matched}
        unreadable = [c for c in _unreadable(t, [spec], include_subagents) if id(c) not in taken]
        if unreadable and (n < lo <= n + len(unreadable) or (hi is not None and n <= hi < n + len(unreadable))):
            return CheckResult.inconclusive(
                name, expected, f"{n}, and {_calls_word(spec, len(unreadable))} whose arguments could not be read",
                _evidence(t, unreadable), check=echo,
                notes=(UNREADABLE_NOTE,))
    if unknown and (n < lo or (hi is not None and n <= hi < n + len(unknown))) and (
            r := outcome_unknown(name, unknown, expected, echo, need_output=spec.output is not None)):
        return r
    total = len(_pool(t, include_subagents))
    hint = _agents_hint(t, [spec], include_subagents, matched)
    if n < lo:
        if cands and spec.name is not None:
            found = f"none among {_calls_word(spec, len(cands))}" if n == 0 else f"{n}"
        else:
            found = "none" if n == 0 else f"{n}"
        found += f" ({_plural(total, 'tool call')} in total)" if n == 0 else ""
        taken = {id(c) for c in matched}
        nearest = _nearest(spec, (c for c in cands if id(c) not in taken), mode=mode, overrides=overrides)
        notes = [] if cands else _name_hint(t, spec, include_subagents)
        ev = _evidence(t, (matched or cands))
        return _fail(name, t, expected, found, echo, ev, nearest, [*notes, *hint])
    if hi is not None and n > hi:
        ev = _evidence(t, matched)
        return _fail(name, t, expected, str(n), echo, ev, notes=hint, positive=False)
    ev = _evidence(t, matched)
    found = "none" if n == 0 else str(n)
    if hi == 0 and not cands and (twins := _case_twins(t, [spec], include_subagents)):
        return _case_twin_result(name, t, expected, echo, twins)
    if hi is not None:
        return _negative(
            name, t, assume_complete=assume_complete, expected=expected, found=found,
            check=echo, evidence=ev, matched=matched, notes=hint,
        )
    return _pass(name, expected, found, echo, ev, matched, notes=hint)


#: The fields of ``Call`` besides its name and output.
_NOT_OUTPUT = ("args", "mode", "kind", "server", "tool", "status", "is_error", "exit_code", "where", "agent")


def _output_fits(out: Any, cands: Sequence[ToolCall]) -> tuple[ToolCall, ...]:
    """The calls of *cands* that have a result whose text *out* matches (``values_match``, which
    calls a matcher's ``matches``), in order. A plain ``Matches`` searches the texts in one loop
    (``Matches._found_each``: the same timeout and pattern budget per search); a plain
    case-sensitive ``Contains`` of a string is ``in`` for a text that is a string.
    ``tests/test_checks_index.py`` compares it with the call-by-call test."""
    if type(out) is Matches:
        have = [c for c in cands if c.result is not None]
        return tuple(compress(have, out._found_each([c.result.text for c in have])))  # type: ignore[union-attr]
    if type(out) is Contains and isinstance(out.part, str) and not out.ignore_case:
        part, fits = out.part, out.matches
        return tuple(c for c in cands if (r := c.result) is not None
                     and (part in x if isinstance(x := r.text, str) else fits(x)))
    if isinstance(out, Matcher):  # what values_match does with a matcher, called directly
        fits = out.matches
        return tuple(c for c in cands if c.result is not None and fits(c.result.text))
    return tuple(c for c in cands if c.result is not None and values_match(out, c.result.text, partial=True))


def _output_only(spec: Call, mode: str, overrides: Mapping[str, Override] | None) -> bool:
    """*spec* is a literal tool name and an expected output, nothing else (``check_tool_output``
    of a bare tool name), in the default argument mode: its matches are decided by the output."""
    return (spec.literal_name is not None and spec.output is not None and mode == "partial" and not overrides
            and all(getattr(spec, f) is None for f in _NOT_OUTPUT))


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
            _evidence(t, calls), positive=False,
        )
    return _negative(
        "no_tool_calls", t, assume_complete=assume_complete, expected="no tool calls",
        found="none", check=echo,
    )


def _violations(
    t: Transcript, specs: Sequence[Call], include_subagents: bool, want_match: bool
) -> list[ToolCall]:
    # Fast path: plain names are positions in the alias index; only the rest are matched.
    names = {s.name for s in specs if s.is_name_only and isinstance(s.name, str)}
    rest = [s for s in specs if not (s.is_name_only and isinstance(s.name, str))]
    ix = _index(t)
    pool = ix.pool(include_subagents)
    positions = ix.positions(include_subagents)
    named: set[int] = set()
    for n in names:
        named.update(positions.get(n, ()))
    if not rest:
        if want_match:
            if len(named) == len(pool):  # every position (named holds positions of the pool only)
                return []
            return [c for i, c in enumerate(pool) if i not in named]
        return [pool[i] for i in sorted(named)]
    out = []
    for i, c in enumerate(pool):
        hit = i in named or any(s.matches_call(c) for s in rest)
        if hit != want_match:
            out.append(c)
    return out


def _listed(name: str, t: Transcript, tools: Sequence[ToolSpec], include_subagents: bool, *, want_match: bool
            ) -> tuple[str, str, list[ToolCall]]:
    """The list of *tools* as shown (``[Read, Bash]``), the check's echo, and the calls that
    break it (of a tool outside an allow-list, ``want_match=True``, or in a deny-list)."""
    specs = _specs(tools, f"check_{name}")
    labels = [s.label() for s in specs]
    return "[" + ", ".join(labels) + "]", _echo(name, labels), _violations(t, specs, include_subagents, want_match)


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
    labels, echo, bad = _listed("only_tools", t, allowed, include_subagents, want_match=True)
    expected = f"only calls of {labels}"
    if bad:
        names = sorted(Counter(c.name for c in bad).items())
        found = f"{_plural(len(bad), 'other call')} (" + ", ".join(f"{k} ×{v}" for k, v in names) + ")"
        return _fail(
            "only_tools", t, expected, found, echo, _evidence(t, bad),
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
    labels, echo, bad = _listed("tools_not_called", t, denied, include_subagents, want_match=False)
    expected = f"no call of {labels}"
    if bad:
        return _fail(
            "tools_not_called", t, expected, _plural(len(bad), "call"), echo,
            _evidence(t, bad), positive=False,
        )
    specs = _specs(denied, "check_tools_not_called")
    if twins := _case_twins(t, specs, include_subagents):
        return _case_twin_result("tools_not_called", t, expected, echo, twins)
    return _negative(
        "tools_not_called", t, assume_complete=assume_complete, expected=expected, found="none",
        check=echo, unreadable=_unreadable(t, specs, include_subagents),
    )
