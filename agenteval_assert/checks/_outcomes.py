"""Outcomes and retries: a call succeeded or failed, no tool errors, a failure retried to success."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Any, Literal

from .._unrecorded import outcome_unknown
from ..matchers import Call, ToolSpec, as_call
from ..model import ToolCall, Transcript
from ..results import CheckResult, Evidence
from ._common import (
    _calls_matching,
    _calls_word,
    _candidates,
    _cited,
    _echo,
    _evidence,
    _fail,
    _fitting,
    _guarded,
    _index,
    _made,
    _name_hint,
    _nearest,
    _negative,
    _outcome,
    _pass,
    _plural,
    _pool,
    _recoveries,
    _specs,
    _with_outcome,
)
from ._index import CallIndex

__all__ = [
    "check_no_tool_errors",
    "check_retried_after_failure",
    "check_tool_failed",
    "check_tool_succeeded",
]


def _matching(t: Transcript, spec: Call, include_subagents: bool) -> tuple[Sequence[ToolCall], list[ToolCall]]:
    cands = _candidates(t, spec, include_subagents)
    if spec.literal_name is not None and spec.is_name_only:
        return cands, list(cands)  # the alias index entry of a bare name: every call in it matches
    fitting = _fitting(t, spec, "partial", None, include_subagents)
    if fitting is not None:
        return cands, list(fitting)
    return cands, [c for c in cands if spec.matches_call(c)]


def _outcome_check(
    name: str, t: Transcript, spec: Call, want: Literal["succeeded", "failed"], include_subagents: bool,
    echo: str,
) -> CheckResult:
    cands, calls = _matching(t, spec, include_subagents)
    expected = f"{spec.describe()} that {want}"
    if not calls:
        nearest = _nearest(spec, cands)
        return _fail(name, t, expected, f"no {spec.describe_bare()}", echo,
                     _evidence(t, cands), nearest,
                     [] if cands else _name_hint(t, spec, include_subagents))
    if want == "succeeded":
        ok = [c for c in calls if c.result is not None and not c.is_error and c.outcome_recorded]
    else:
        ok = [c for c in calls if c.is_error]
    if ok:
        return _pass(name, expected, f"#{ok[0].index}", echo, _evidence(t, ok), tuple(ok))
    if (unknown := outcome_unknown(name, calls, expected, echo)) is not None:
        return unknown
    outcomes = Counter(_outcome(c) for c in calls)
    found = f"{_calls_word(spec, len(calls))}, " + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
    return _fail(name, t, expected, found, echo, _made(calls, _with_outcome))


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
    bad = list(_index(t).errors(include_subagents)) if specs is None else [c for c in pool if c.is_error]
    if ignore_recovered:
        ix = _index(t)
        recovered = _recoveries(bad, pool, memo=ix.args_keys,
                                walks=ix.retry_walks(include_subagents) if specs is None else None,
                                positions=ix.names(include_subagents) if specs is None else None,
                                values=ix.by_value(include_subagents) if specs is None else None)
        bad = [c for c in bad if c.index not in recovered]
    expected = "no failed tool calls"
    if bad:
        ev = _cited(bad, output=True)
        return _fail("no_tool_errors", t, expected, str(len(bad)), echo, ev, positive=False)
    return _negative("no_tool_errors", t, assume_complete=assume_complete, expected=expected,
                     found="none", check=echo, vacuous=not pool, outcomes=pool)


def _calls_named(ix: CallIndex, names: set[str], include_subagents: bool) -> list[ToolCall]:
    """The pool's calls whose ``name`` is one of *names*, in order (from the index's positions
    by name): what ``_recoveries(same_args=False)`` looks at in the whole pool."""
    pool = ix.pool(include_subagents)
    by_name = ix.names(include_subagents)
    where = sorted(chain.from_iterable(by_name.get(n, ()) for n in names)) if len(names) != 1 else by_name.get(
        next(iter(names)), [])
    return [pool[i] for i in where]


def _succeeded(d: ToolCall) -> bool:
    return d.result is not None and not d.is_error and d.outcome_recorded


def _first_retry(failed: Sequence[ToolCall], named: Sequence[ToolCall]) -> dict[int, ToolCall]:
    """``_recoveries(failed, named, same_args=False)`` as far as the check reads it (the first
    of *failed* that it answers, and its answer): the walk, forward, stops once the first failed
    call is answered (the check's answer then), instead of going over every call of the tool.

    Each failed call (by ``index``) waits from the call of *named* with its index, under its
    name, until a later call of that name succeeds (what the reversed walk of ``_recoveries``
    finds: the first success after it). Two calls of one index are left to ``_recoveries``."""
    if not failed:
        return {}
    waiting = {f.index for f in failed}
    head = failed[0].index
    started: set[int] = set()
    pending: dict[str, list[int]] = {}
    found: dict[int, ToolCall] = {}
    for d in named:
        if pending and _succeeded(d):
            answered = pending.pop(d.name, None)
            if answered:
                for i in answered:
                    found[i] = d
                if head in found:
                    break
        i = d.index
        if i in waiting:
            if i in started:  # two calls of one index (a transcript made by hand): the long way
                return _recoveries(failed, named, same_args=False)
            started.add(i)
            pending.setdefault(d.name, []).append(i)
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
                     f"no failed {spec.describe_bare()}" + (f" ({_plural(len(calls), 'call')}, none failed)" if calls else ""),
                     echo, _made(calls, _with_outcome))
    ix = _index(t)
    if same_args:
        recovered = _recoveries(failed, _pool(t, include_subagents), memo=ix.args_keys,
                                walks=ix.retry_walks(include_subagents), positions=ix.names(include_subagents),
                                values=ix.by_value(include_subagents))
    else:  # a later success of the same tool: only that tool's calls are walked, up to the answer
        recovered = _first_retry(failed, _calls_named(ix, {f.name for f in failed}, include_subagents))
    for f in failed:
        r = recovered.get(f.index)
        if r is not None:
            return _pass("retried_after_failure", expected, f"#{f.index} failed, #{r.index} succeeded", echo,
                         [Evidence.from_call(f, "failed"), Evidence.from_call(r, "retry succeeded")], (f, r))
    return _fail("retried_after_failure", t, expected, f"{_plural(len(failed), 'failure')} without a successful retry",
                 echo, [Evidence.from_call(c, _outcome(c)) for c in calls])
