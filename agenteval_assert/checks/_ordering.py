"""Order and time: the sequence of calls, before/after, within N calls, never after."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

from .._order import max_bipartite_matching, subsequence
from ..exceptions import UsageError
from ..matchers import ArgsMode, Call, Override, ToolSpec, Unordered, as_call, call_aliases
from ..model import ToolCall, Transcript
from ..results import CheckResult, Evidence, NearestMiss, Status, short_repr
from ._common import (
    UNREADABLE_NOTE,
    _agents_hint,
    _candidates,
    _chain,
    _check_bool,
    _cited,
    _echo,
    _evidence,
    _fail,
    _fits,
    _guarded,
    _index,
    _made,
    _matching,
    _nearest,
    _negative,
    _pass,
    _plural,
    _pool,
    _seq_text,
    _Shown,
    _specs,
    _unreadable,
    _with_hint,
)

__all__ = [
    "MODES",
    "Mode",
    "check_called_after",
    "check_called_before",
    "check_called_within",
    "check_never_after",
    "check_tool_calls",
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
    by_alias: Mapping[str, list[int]] | None = None,
) -> list[list[int]]:
    """For each spec, the positions in *actual* of the calls it fits (*by_alias*: the positions
    of *actual*'s calls by alias, when the index already holds them)."""
    if by_alias is None:
        by_alias = _positions_by_alias(actual)
    every = range(len(actual))
    adj = []
    for s in specs:
        name = s.literal_name
        pos: Iterable[int] = by_alias.get(name, ()) if name is not None else every
        if name is not None and s.is_name_only and mode == "partial" and not overrides:
            adj.append(list(pos))  # a bare name fits every call under it
        else:
            adj.append([i for i in pos if _fits(s, actual[i], mode, overrides)])
    return adj


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
    r = _tool_calls(t, expected, mode, args_mode, overrides, among, include_subagents, assume_complete)
    if r.status is Status.PASS:
        return r
    specs = [s for e in expected for s in (e.calls if isinstance(e, Unordered) else [as_call(e)])]
    return _with_hint(r, _agents_hint(t, specs, include_subagents))


def _tool_calls(
    t: Transcript,
    expected: Sequence[ToolSpec | Unordered],
    mode: Mode,
    args_mode: ArgsMode,
    overrides: Mapping[str, Override] | None,
    among: Sequence[ToolSpec] | None,
    include_subagents: bool,
    assume_complete: bool,
) -> CheckResult:
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
    # the step's Call made above is the one as_call(e) makes again (the same name and fields)
    step_labels = [e.label() if isinstance(e, Unordered) else step[0].label()
                   for step, e in zip(steps, expected, strict=True)]
    echo = _echo(
        "tool_calls", _Shown("[" + ", ".join(repr(e) for e in expected) + "]"),
        mode=mode, args_mode=None if args_mode == "partial" else args_mode,
        among=None if among is None else [as_call(s).label() for s in among],
    )
    exp_text = f"{_MODE_TEXT[mode]} {_seq_text(step_labels)}"
    name = "tool_calls"

    if grouped and mode in ("exact_sequence", "in_order"):
        return _grouped_sequence(
            t, steps, step_labels, actual, mode, args_mode, overrides, exp_text, echo, assume_complete
        )

    if mode == "exact_sequence":
        for i, s in enumerate(specs):
            if i >= len(actual):
                ev = _evidence(t, actual[-3:])
                return _fail(
                    name, t, exp_text,
                    f"{_calls_text(actual)}: {_plural(len(specs) - len(actual), 'expected call')}"
                    f" missing from position {i + 1}", echo, ev,
                )
            if not _fits(s, actual[i], args_mode, overrides):
                diffs = s.call_differences(actual[i], mode=args_mode, overrides=overrides)
                nm = NearestMiss(Evidence.from_call(actual[i]), tuple(diffs))
                return _fail(
                    name, t, exp_text,
                    f"{_calls_text(actual)}: position {i + 1} is #{actual[i].index} {actual[i].name},"
                    f" not {s.label()}", echo, [Evidence.from_call(actual[i], f"position {i + 1}")], nm,
                )
        if len(actual) > len(specs):
            extra = actual[len(specs):]
            return _fail(
                name, t, exp_text,
                f"{_calls_text(actual)}: {_plural(len(extra), 'extra call')} after position {len(specs)}",
                echo, _cited(extra, "extra"), positive=False,
            )
        ev = _made(actual, _at_position)
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
            f" calls were {_calls_text(actual)}"
        )
        return _fail(name, t, exp_text, found, echo, ev, nearest, notes)

    # any_order / covers / only_from: maximum bipartite matching.
    adj = _adjacency(specs, actual, args_mode, overrides,
                     _index(t).positions(include_subagents) if among is None else None)
    match = max_bipartite_matching(len(actual), adj)
    used = {m for m in match if m is not None}
    missing = [i for i, m in enumerate(match) if m is None]
    need_missing = mode in ("any_order", "covers")
    need_extra = mode in ("any_order", "only_from")
    # the calls no expected call took: only the modes that refuse them look (covers does not)
    extra = [c for i, c in enumerate(actual) if i not in used] if need_extra else []
    matched = tuple(actual[m] for m in match if m is not None)
    ev_ok = _made(matched, _expected_nth(match, len(matched)))

    def nearest_for(i: int) -> NearestMiss | None:
        s = specs[i]
        free = [c for j, c in enumerate(actual) if j not in used and s.name_matches(c)]
        return _nearest(s, free or [c for c in actual if s.name_matches(c)], mode=args_mode, overrides=overrides)

    if (need_missing and missing) or (need_extra and extra):
        parts = []
        if need_missing and missing:
            parts.append(f"{_plural(len(missing), 'expected call')} unmatched: {_seq_text([labels[i] for i in missing], 6)}")
        if need_extra and extra:
            parts.append(f"{_plural(len(extra), 'unexpected call')}: {_calls_text(extra, 6)}")
        ev = _cited(extra, "unexpected") if need_extra else ()
        ev = _chain(ev, ev_ok) if not (need_missing and missing) else _chain(ev_ok, ev)
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


def _at_position(c: ToolCall, i: int) -> Evidence:
    return Evidence.from_call(c, f"position {i + 1}")


def _expected_nth(match: Sequence[int | None], n: int) -> Callable[[ToolCall, int], Evidence]:
    """The evidence of the *k*-th matched call: ``expected i`` for the expected call *i* it
    matched (*match*: the call matched to each expected call, ``None`` for none; *n* matched)."""
    if n == len(match):
        return _expected_k
    which = [i for i, m in enumerate(match) if m is not None]

    def make(c: ToolCall, k: int) -> Evidence:
        return Evidence.from_call(c, f"expected {which[k] + 1}")

    return make


def _expected_k(c: ToolCall, k: int) -> Evidence:
    return Evidence.from_call(c, f"expected {k + 1}")


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
                    f"{_calls_text(actual)}: {where} are not {step_labels[k]}", echo,
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
                f"{', '.join(s.label() for s in missing)}); calls were {_calls_text(actual)}",
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
                f"{_calls_text(actual)}: {_plural(len(extra), 'extra call')} after position {p}",
                echo, _cited(extra, "extra"), positive=False,
            )
        return _negative(
            name, t, assume_complete=assume_complete, expected=exp_text,
            found=f"{_plural(len(actual), 'call')} in that order", check=echo, evidence=ev,
            matched=tuple(matched),
        )
    return _pass(name, exp_text, "them at " + ", ".join(f"#{c.index}" for c in matched), echo, ev, tuple(matched))


def _positions(t: Transcript, spec: Call, include_subagents: bool) -> list[ToolCall]:
    return list(_matching(t, spec, include_subagents))


def _calls_text(calls: Sequence[ToolCall], limit: int = 12) -> str:
    """``_seq_text([c.name for c in calls], limit)``, reading only the names it shows (a
    message of a failed order check; the check itself need not read 10,000 names)."""
    if len(calls) <= limit:
        return "[" + ", ".join([c.name for c in calls]) + "]"
    head = ", ".join([c.name for c in calls[: limit - 2]])
    return f"[{head}, ... {len(calls) - limit + 1} more, {calls[-1].name}]"


def _pool_positions(t: Transcript, spec: Call, include_subagents: bool, pool: Sequence[ToolCall],
                    pos: Callable[[], dict[int, int]]) -> list[int]:
    """The positions in *pool* (``_pool(t, include_subagents)``) of the calls that match *spec*,
    by their indexes looked up in ``pos()`` (for a call whose index another call shares, the
    position of the last of them): for a bare tool name, when no two calls of the pool share an
    index (``CallIndex.distinct_indexes``), its entry of the alias index's positions (the positions of the
    calls ``_matching`` gives, each its own index's)."""
    if spec.literal_name is not None and spec.is_name_only:
        ix = _index(t)
        if ix.distinct_indexes(include_subagents):
            return list(ix.positions(include_subagents).get(spec.literal_name, ()))
    where = pos()
    return [where[c.index] for c in _positions(t, spec, include_subagents) if c.index in where]


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
    return _ordered("called_before", t, first, then, every, include_subagents)


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
    return _ordered("called_after", t, earlier, later, every, include_subagents, shown_reversed=True)


def _ordered(name: str, t: Transcript, first: ToolSpec, then: ToolSpec, every: bool, include_subagents: bool,
             *, shown_reversed: bool = False) -> CheckResult:
    """*first* before *then*; the echo shows them in the order the caller gave them."""
    a, b = as_call(first, f"check_{name}"), as_call(then, f"check_{name}")
    shown = (b.label(), a.label()) if shown_reversed else (a.label(), b.label())
    r = _before(name, t, a, b, every, include_subagents, _echo(name, *shown, every=every or None))
    return r if r.status is Status.PASS else _with_hint(r, _agents_hint(t, [a, b], include_subagents))


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
        unread = [c for s, cs in ((a, a_calls), (b, b_calls)) if not cs for c in _unreadable(t, [s], include_subagents)]
        if unread:  # the missing call may be one whose arguments could not be read
            return CheckResult.inconclusive(
                name, expected, f"no {' and no '.join(missing)} call", _evidence(t, unread), check=echo,
                but=f"{_plural(len(unread), 'call')} of the tool have arguments that could not be read",
                notes=(UNREADABLE_NOTE,))
        nearest = _nearest(a if not a_calls else b, _candidates(t, a if not a_calls else b, include_subagents))
        return _fail(name, t, expected, f"no {' and no '.join(missing)} call", echo,
                     _evidence(t, (a_calls or b_calls)[:1]), nearest)
    pivot = a_calls[-1] if every else a_calls[0]
    # an unreadable call of *then*'s tool before the pivot may be an earlier *then*: no PASS on it
    early = [c for c in _unreadable(t, [b], include_subagents) if c.index < pivot.index]
    if pivot.index < b_calls[0].index and early:
        return CheckResult.inconclusive(
            name, expected, f"the first {b.label()} at #{b_calls[0].index}", _evidence(t, early), check=echo,
            but=f"{_plural(len(early), 'earlier call')} of its tool have arguments that could not be read",
            notes=(UNREADABLE_NOTE,))
    # the calls named by the specs they matched: two calls of one tool differ by their arguments
    first_a = f"{'the last' if every and len(a_calls) > 1 else 'the first'} {a.label()} at #{pivot.index}"
    first_b = f"the first {b.label()} at #{b_calls[0].index}"
    if pivot.index < b_calls[0].index:
        return _pass(name, expected, f"{first_a}, before {first_b}",
                     echo, [Evidence.from_call(pivot), Evidence.from_call(b_calls[0])], (pivot, b_calls[0]))
    found = f"{first_b}, before {first_a}"
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
    made: list[dict[int, int]] = []

    def pos() -> dict[int, int]:  # the pool's positions by call index, made once if needed
        if not made:
            made.append({c.index: i for i, c in enumerate(pool)})
        return made[0]

    a_pos = _pool_positions(t, a, include_subagents, pool, pos)
    b_pos = _pool_positions(t, b, include_subagents, pool, pos)
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
        label = b.label()

        def late_one(c: ToolCall, _: int) -> Evidence:
            p = pos()[c.index]
            k = bisect.bisect_right(b_pos, p)
            note = f"next {label} is {b_pos[k] - p} calls later (#{pool[b_pos[k]].index})" if k < len(b_pos) else f"no {label} after it"
            return Evidence.from_call(c, note)

        ev = _made(late, late_one)
        return _fail("called_within", t, expected,
                     f"{_plural(len(late), a.label() + ' call')} without it", echo, ev)
    return _pass("called_within", expected, f"{_plural(len(a_pos), 'follow-up')} in time", echo,
                 _evidence(t, pairs), tuple(pairs))


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
                     echo, _chain([Evidence.from_call(a_calls[0], "trigger")], _evidence(t, bad)),
                     positive=False)
    return _negative("never_after", t, assume_complete=assume_complete, expected=expected,
                     found="none", check=echo, evidence=[Evidence.from_call(a_calls[0], "trigger")],
                     unreadable=[c for c in _unreadable(t, [b], include_subagents) if c.index > start])
