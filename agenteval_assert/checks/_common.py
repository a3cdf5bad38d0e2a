"""The machinery every check shares: call selection (the alias index), the vacuity and
completeness guards (``_negative``/``_incomplete``), evidence and nearest-miss building,
``_guarded`` (caller errors become ERROR results) and the small text helpers of the messages.

Nothing here is public: the checks and their names live in the sibling modules.
"""

from __future__ import annotations

import difflib
import functools
import operator
import re
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ParamSpec, TypeVar

import attrs

from .._parsers import gc_paused
from .._unrecorded import outcome_unknown
from ..exceptions import UsageError
from ..matchers import (
    Call,
    Contains,
    Matcher,
    Matches,
    Override,
    ToolSpec,
    as_call,
)
from ..matchers._calls import _check_mode
from ..matchers._regex import pattern_budget
from ..model import Message, ToolCall, Transcript
from ..results import (
    MAX_EVIDENCE,
    CheckResult,
    Difference,
    Evidence,
    LazyEvidence,
    NearestMiss,
    Status,
    _as_evidence,
    cut_middle,
    short_repr,
)
from ..results import _plural as _plural  # noqa: PLC0414 - re-exported: the checks take it from here
from ._index import NO_ARG, CallIndex, _ByValue, _Cand, _Group, args_key


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
                # all the check's user patterns together are time-bounded; the cyclic collector
                # is held off as during a parse: a check makes trees (indexes, evidence), and a
                # collection it triggered would walk the whole transcript (0.1 s at 200 MB)
                with pattern_budget(), gc_paused():
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


def _index(t: Transcript) -> CallIndex:
    """The checks' shared look-ups for *t* (``_index.CallIndex``), kept with the transcript."""
    return t.derived("checks.index", CallIndex)


def _pool(t: Transcript, include_subagents: bool) -> tuple[ToolCall, ...]:
    ix = _index(t)
    return ix.all_calls if include_subagents else ix.main_calls


def _candidates(t: Transcript, spec: Call, include_subagents: bool) -> Sequence[ToolCall]:
    """The calls that can match *spec*: the index entry of a literal name, else every call."""
    name = spec.literal_name
    if name is None:
        return _pool(t, include_subagents)
    return _index(t).named(name, include_subagents)


def _narrowed(t: Transcript, spec: Call, include_subagents: bool) -> Sequence[ToolCall]:
    """A subset of ``_candidates`` holding every call that matches *spec*: also narrowed by a
    literal ``kind`` when there is no literal name (for matching only: messages about the
    candidates keep using ``_candidates``)."""
    if spec.literal_name is None and type(spec.kind) is str:
        return _index(t).of_kind(spec.kind, include_subagents)
    return _candidates(t, spec, include_subagents)


def _matching(t: Transcript, spec: Call, include_subagents: bool) -> Sequence[ToolCall]:
    """The calls (in order) that match *spec* (default argument mode, no overrides). A bare
    tool name is answered by the alias index alone: its entry holds exactly the matching calls."""
    cands = _narrowed(t, spec, include_subagents)
    if spec.literal_name is not None and spec.is_name_only:
        return cands
    fitting = _fitting(t, spec, "partial", None, include_subagents)
    if fitting is not None:
        return list(fitting)
    return [c for c in cands if spec.matches_call(c)]


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
        for c in _matching(t, s, include_subagents):
            if c.index not in seen:
                seen[c.index] = c
    return [seen[i] for i in sorted(seen)]


def _agents_hint(
    t: Transcript, specs: Sequence[Call], include_subagents: bool, matched: Sequence[ToolCall] | None = None
) -> list[str]:
    """A note when counting the main agent alone and counting its subagents too disagree:
    ``main agent 4 of 8`` (with subagents), or how many matching calls the subagents made (main
    agent alone). *matched*: the calls the check counted, when it has them."""
    if not t.subagents:  # every subagent's call belongs to a subagent of the list
        return []
    if include_subagents:
        pool = matched if matched is not None else _calls_matching(t, specs, True)
        main = sum(1 for c in pool if c.agent_id is None)
        if main == len(pool):
            return []
        return [(f"main agent {main} of {len(pool)} (the others are subagents' calls); "
                 "include_subagents=False counts the main agent alone")]
    every = _calls_matching(t, specs, True)
    extra = sum(1 for c in every if c.agent_id is not None)
    if not extra:
        return []
    return [(f"main agent {len(every) - extra} of {len(every)}: subagents made "
             f"{_plural(extra, 'more matching call')}, not counted here; include_subagents=True counts them")]


def _with_hint(r: CheckResult, hint: Sequence[str]) -> CheckResult:
    return r if not hint else attrs.evolve(r, notes=(*r.notes, *hint))


#: Evidence of more items than this is made when read (``LazyEvidence``): a result shows
#: ``MAX_EVIDENCE`` items, and nothing reads the rest unless it is asked for (``verbose``,
#: ``to_dict``). Fewer are made at once: they are all shown. (Tests set it to compare the two.)
_LAZY_FROM = MAX_EVIDENCE

_T = TypeVar("_T")


def _evidence(t: Transcript, calls: Iterable[ToolCall]) -> Sequence[Evidence]:
    """``Evidence.from_call`` of each call (no note): a few are shared between the checks of
    *t*; many are made when read."""
    if not isinstance(calls, Sequence):
        calls = list(calls)
    ix = _index(t)
    if len(calls) > _LAZY_FROM:
        return LazyEvidence(calls, _Shared(ix))
    ev = ix.evidence
    return [ev(c) for c in calls]


class _Shared:
    """``LazyEvidence``'s maker of plain call evidence: the index's shared item of the call
    (``CallIndex.evidence``: described once for every check that cites the call) while the
    index lives, else a fresh one (equal to it). The index is weakly referenced: a result kept
    after its transcript does not keep the index, nor the calls it did not cite."""

    __slots__ = ("_ix",)

    def __init__(self, ix: CallIndex) -> None:
        self._ix = weakref.ref(ix)

    def __call__(self, c: ToolCall, i: int) -> Evidence:
        ix = self._ix()
        return Evidence.from_call(c) if ix is None else ix.evidence(c)


def _made(items: Sequence[_T], make: Callable[[_T, int], Evidence]) -> Sequence[Evidence]:
    """``make(item, i)`` for each of *items*: made when read when there are many."""
    if len(items) > _LAZY_FROM:
        return LazyEvidence(items, make)
    return [make(x, i) for i, x in enumerate(items)]


def _cited(calls: Sequence[ToolCall], note: str = "", *, output: bool = False) -> Sequence[Evidence]:
    """``Evidence.from_call(c, note)`` of each call; with *output*, its detail is the call's
    output (``output: '...'``, cut to 160 characters)."""
    if output:
        return _made(calls, functools.partial(_with_output, note))
    return _made(calls, functools.partial(_with_note, note))


def _with_note(note: str, c: ToolCall, i: int) -> Evidence:
    return Evidence.from_call(c, note)


def _with_output(note: str, c: ToolCall, i: int) -> Evidence:
    return Evidence.from_call(c, note, detail=f"output: {short_repr(c.output, 160)}")


def _with_outcome(c: ToolCall, i: int) -> Evidence:
    """The call, noted with its outcome (``failed (exit code 1)``...)."""
    return Evidence.from_call(c, _outcome(c))


def _with_outcome_and_output(c: ToolCall, i: int) -> Evidence:
    return Evidence.from_call(c, _outcome(c), detail=f"output: {short_repr(c.output, 160)}")


def _chain(*parts: Sequence[Evidence]) -> Sequence[Evidence]:
    """The evidence of *parts*, one after the other (lazy parts stay lazy)."""
    return LazyEvidence.chain(*parts)


def _incomplete(t: Transcript) -> list[str]:
    """Why *t* cannot support "X never happened" (``[]`` when it can).

    The one guard of every absence claim (the ``check_*`` functions through ``_negative``, the
    Storybook "never" tests through ``storybook._expect._common``): an empty transcript, one that
    holds only the prompt (no agent activity: a run that never started, or a log cut right after
    the prompt), every problem of ``Health.problems()`` (unparsable or damaged records, orphan
    results, unanswered calls, a missing end of run), and a run that ended in a run-level error.
    """
    reasons = []
    if not t.steps:
        reasons.append("the transcript is empty (no messages, no tool calls)")
    if t.run_error is not None:  # whatever else the file holds, the run stopped on a failure
        e = t.run_error
        msg = e.message.splitlines()[0] if e.message else "an error"
        reasons.append(f"the run ended in a run-level error at {e.location}: {cut_middle(msg, 120)}")
    if t.steps and not _agent_acted(t):
        reasons.append("the transcript holds no agent activity (only the prompt): it shows nothing the agent did")
    reasons.extend(p if p.startswith("the ") else f"the transcript has {p}" for p in t.health.problems())
    return reasons


def _agent_acted(t: Transcript) -> bool:
    """Some step is the agent's: a tool call, a thinking block or an assistant message."""
    return any(not isinstance(s, Message) or s.role == "assistant" for s in t.steps)


def _inconclusive_evidence(t: Transcript) -> list[Evidence]:
    ev = []
    for cid in t.health.unanswered_calls[:10]:
        c = t.call(cid)
        if c is not None:
            ev.append(Evidence.from_call(c))
    return ev


UNREADABLE_NOTE = ("their arguments are not a JSON object in the log (kept as raw_arguments): whether they "
                   "match the expected arguments cannot be told")


def _unreadable(t: Transcript, specs: Iterable[Call], include_subagents: bool) -> list[ToolCall]:
    """The calls whose logged arguments are no JSON object (``raw_arguments``, no ``arguments``)
    of a tool that one of *specs* names with expected arguments: an argument check cannot say
    whether they match. Empty, at no cost, when the transcript has no such call."""
    with_args = [s for s in specs if s.args is not None]
    if not with_args:
        return []
    return [c for c in _index(t).unreadable
            if (include_subagents or c.agent_id is None) and any(s.name_matches(c) for s in with_args)]


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
    outcomes: Iterable[ToolCall] = (),
    unreadable: Sequence[ToolCall] = (),
) -> CheckResult:
    """The PASS of a check that rests on absence, or INCONCLUSIVE when the transcript is partial.

    *unreadable*: calls of the tools the claim names whose arguments could not be read
    (``_unreadable``): whether they are the calls it says never happened cannot be told, so the
    claim is INCONCLUSIVE, citing them, whatever *assume_complete* says.

    *outcomes*: the calls whose outcome the claim rests on ("none of these failed"): when the
    format records no outcome for some of them (``ToolCall.outcome_recorded`` is false: Aider,
    SWE-agent, the OpenAI APIs' tool results), the claim is INCONCLUSIVE too, whatever
    *assume_complete* says (it accepts a cut transcript, not a format that cannot tell).
    """
    if (unknown := outcome_unknown(name, outcomes, expected, check)) is not None:
        return unknown
    if unreadable:
        return CheckResult.inconclusive(
            name, expected, f"{found}, but {_plural(len(unreadable), 'call')} whose arguments could not be read",
            (Evidence.from_call(c) for c in unreadable[:50]), check=check,
            notes=(*notes, UNREADABLE_NOTE))
    reasons = [] if assume_complete else _incomplete(t)
    if reasons:
        return CheckResult.inconclusive(
            name, expected, found, tuple(_inconclusive_evidence(t)) or _as_evidence(evidence), but=reasons[0],
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
        evidence=_as_evidence(evidence),
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
    """The candidate closest to *spec*: the fewest differences, then the differing values most
    like the expected ones (shared words, then shared characters), then the earliest.

    ``Contains("bd close")`` is nearer to ``bd dep add x-1`` than to ``git log -10``. At most
    ``_NEAREST_LIMIT`` candidates are compared (the first ones, in file order).
    """
    # First the fewest differences and the most expected words held (cheap), keeping the
    # candidates that tie on both; then their likeness character by character (difflib, the
    # costly part) for at most ``_NEAREST_TIES`` of them.
    best_key: tuple[int, float] | None = None
    ties: list[tuple[ToolCall, list[Difference]]] = []
    for n, c in enumerate(calls):
        if n >= _NEAREST_LIMIT:
            break
        diffs = spec.call_differences(c, mode=mode, overrides=overrides)
        if not diffs or (best_key is not None and len(diffs) > best_key[0]):
            continue
        key = (len(diffs), -sum(_words_held(d.expected, d.found) for d in diffs) / len(diffs))
        if best_key is None or key < best_key:
            best_key, ties = key, [(c, diffs)]
        elif key == best_key and len(ties) < _NEAREST_TIES:
            ties.append((c, diffs))
    if not ties:
        return None
    c, diffs = ties[0]
    if len(ties) > 1:
        c, diffs = max(ties, key=lambda cd: sum(_chars_alike(d.expected, d.found) for d in cd[1]))
    return NearestMiss(Evidence.from_call(c), tuple(diffs))


#: Candidates compared by ``_nearest`` (a failure's nearest miss never costs more than this),
#: and the candidates tied on differences and words whose characters are compared.
_NEAREST_LIMIT = 2000
_NEAREST_TIES = 50
_WORD = re.compile(r"\w+")


def _words_held(expected: str, found: str) -> float:
    """The share of the words of *expected* that *found* holds (case-insensitive)."""
    want = {w.lower() for w in _WORD.findall(expected)}
    if not want:
        return 0.0
    return len(want & {w.lower() for w in _WORD.findall(found)}) / len(want)


def _chars_alike(expected: str, found: str) -> float:
    """difflib's ratio of the two texts, both cut to 200 characters."""
    return difflib.SequenceMatcher(None, expected[:200], found[:200], autojunk=False).ratio()


def _name_hint(t: Transcript, spec: Call, include_subagents: bool) -> list[str]:
    """``did you mean 'Bash'?`` and what was called, when no call has the expected name."""
    # the alias index's calls per name: its names are in the order of their first call, as a
    # Counter over the calls would have them (ties in ``most_common`` keep that order)
    counts = Counter({n: len(where) for n, where in _index(t).names(include_subagents).items()})
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


def _case_twins(t: Transcript, specs: Sequence[Call], include_subagents: bool
                ) -> list[tuple[str, str, list[ToolCall]]]:
    """For each expected plain name that no call has, the called names equal to it but for case
    (``Bash`` asked, ``bash`` called: OpenCode, Codex and Claude name their shell tools
    differently): ``(asked, called, calls)``. A negative check resting on such a name would
    pass on a call the test almost certainly meant."""
    ix = _index(t)
    pool = ix.pool(include_subagents)
    by_lower: dict[str, dict[str, list[int]]] = {}  # the positions of each name's calls, from the index
    for called, where in ix.names(include_subagents).items():
        by_lower.setdefault(called.lower(), {})[called] = where
    out = []
    for s in specs:
        asked = s.literal_name
        if asked is None:
            continue
        twins = by_lower.get(asked.lower(), {})
        if asked in twins:
            continue
        for called, where in twins.items():
            out.append((asked, called, [pool[i] for i in where]))
    return out


def _case_twin_result(name: str, t: Transcript, expected: str, check: str,
                      twins: list[tuple[str, str, list[ToolCall]]]) -> CheckResult:
    """INCONCLUSIVE: no call of the name asked, but calls of the same name in another case."""
    _, called, calls = twins[0]
    but = f"{called!r} was called {_plural(len(calls), 'time')} (tool names are case-sensitive)"
    return CheckResult.inconclusive(
        name, expected, "none", _evidence(t, [c for _, _, cs in twins for c in cs]), but=but,
        notes=(*(f"{c!r} was called {_plural(len(cs), 'time')}, not {a!r}" for a, c, cs in twins[1:]),
               f"name the tool as the transcript does ({called!r}), or check both names"),
        check=check,
    )


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise UsageError(f"{name} must be True or False, got {value!r}")


def _specs(items: Sequence[ToolSpec] | ToolSpec, where: str) -> list[Call]:
    if isinstance(items, (str, Call)) or not isinstance(items, Sequence):
        raise UsageError(f"{where}: expected a list of tool names or Call(...), got {short_repr(items, 80)}")
    return [as_call(s, where) for s in items]


def _fits(spec: Call, call: ToolCall, mode: str, overrides: Mapping[str, Override] | None) -> bool:
    return spec.matches_call(call, mode=mode, overrides=overrides)


_NO_ARG = NO_ARG  # the index's: calls that lack an argument are filed under it
#: The fields of ``Call`` besides the name and the arguments: a spec with any of them set is
#: not decided by the arguments alone.
_OTHER_FIELDS = ("kind", "server", "tool", "status", "is_error", "exit_code", "output", "where", "agent")


def _fits_by_args(spec: Call, mode: str, overrides: Mapping[str, Override] | None
                  ) -> Callable[[ToolCall], bool] | None:
    """``_fits(spec, c, mode, overrides)`` for calls under *spec*'s literal name, decided once
    per distinct value of the arguments it names (``Read`` with ``file_path=Matches(...)``:
    once per path, not once per call), or ``None`` when the spec is not of that kind.

    Exact for such a spec: its name is met by every call of the alias index entry, and a
    partial argument match compares the named keys alone (present or not, and their values);
    only calls whose values there are all strings are memoised (equal strings, equal
    verdicts), the others are matched as they are."""
    if (spec.literal_name is None or (spec.mode or mode) != "partial" or overrides
            or type(spec.args) is not dict or not spec.args
            or any(getattr(spec, f) is not None for f in _OTHER_FIELDS)):
        return None
    keys = tuple(spec.args)
    if len(keys) == 1:
        return _fits_by_arg(spec, keys[0], mode)
    seen: dict[tuple[object, ...], bool] = {}

    def fits(c: ToolCall) -> bool:
        args = c.arguments
        key = tuple([args.get(k, _NO_ARG) for k in keys])
        for v in key:
            if type(v) is not str and v is not _NO_ARG:
                return spec.matches_call(c, mode=mode, overrides=overrides)
        got = seen.get(key)
        if got is None:
            got = seen[key] = spec.matches_call(c, mode=mode, overrides=overrides)
        return got

    return fits


def _fitting(t: Transcript, spec: Call, mode: str, overrides: Mapping[str, Override] | None,
             include_subagents: bool) -> tuple[ToolCall, ...] | None:
    """``tuple(c for c in _narrowed(t, spec, ...) if _fits_by_args(spec, mode, overrides)(c))``,
    or ``None`` when ``_fits_by_args`` does not apply. A spec that names one argument is
    answered from the index's calls of the name by that argument's value
    (``CallIndex.arg_positions``): ``matches_call`` runs on the calls, and in the order, that
    the memo of ``_fits_by_arg`` would run it on (the first call of each text value, and of
    the calls without the argument; every call with another kind of value), and each verdict
    stands for its value's calls: a look at each distinct value, not at each call."""
    fits = _fits_by_args(spec, mode, overrides)
    if fits is None:
        return None
    assert spec.literal_name is not None and type(spec.args) is dict  # what _fits_by_args asks
    if len(spec.args) != 1:
        return tuple(c for c in _narrowed(t, spec, include_subagents) if fits(c))
    (key,) = spec.args
    ix = _index(t)
    where = ix.positions(include_subagents).get(spec.literal_name)
    if not where:
        return ()
    by, others = ix.arg_positions(where, key, include_subagents)
    pool = ix.pool(include_subagents)
    matches_call = spec.matches_call
    firsts = {lst[0]: v for v, lst in by.items()}
    out: list[int] = []
    for i in sorted([*firsts, *others]):  # as the calls come
        if matches_call(pool[i], mode=mode, overrides=None):
            v = firsts.get(i, _NO_VALUE)
            if v is _NO_VALUE:
                out.append(i)  # another kind of value: this call alone
            else:
                out += by[v]
    out.sort()
    return tuple([pool[i] for i in out])


_NO_VALUE = object()
#: The fields of ``Call`` that a spec of a kind alone leaves unset.
_NOT_KIND = ("name", "args", "server", "tool", "status", "is_error", "exit_code", "output", "where", "agent")


def _of_kind_only(t: Transcript, spec: Call, mode: str, overrides: Mapping[str, Override] | None,
                  include_subagents: bool) -> tuple[ToolCall, ...] | None:
    """``tuple(c for c in _narrowed(t, spec, ...) if spec.matches_call(c, mode=mode, ...))`` of a
    spec that gives a kind and nothing else (``Call(kind="file_edit")``), or ``None`` for any
    other: the index's calls of that kind (``matches_call`` compares a text kind by equality
    with the call's text kind, which is how the index files them, and asks nothing more; its
    check of the argument mode is made once, as it is at the first call)."""
    if type(spec.kind) is not str or overrides or any(getattr(spec, f) is not None for f in _NOT_KIND):
        return None
    calls = _index(t).of_kind(spec.kind, include_subagents)
    if calls:
        _check_mode(spec.mode or mode, "Call()")
    if not all(type(c.kind) is str for c in calls):
        return None
    return calls


def _fits_by_arg(spec: Call, key: str, mode: str) -> Callable[[ToolCall], bool]:
    """``_fits_by_args`` of a spec that names one argument: the same memo, keyed by the value
    itself (not a tuple of one), read without a loop (``Read`` with ``file_path=...`` looks at
    thousands of calls)."""
    seen: dict[object, bool] = {}
    matches_call = spec.matches_call

    def fits(c: ToolCall) -> bool:
        v = c.arguments.get(key, _NO_ARG)
        if type(v) is not str and v is not _NO_ARG:
            return matches_call(c, mode=mode, overrides=None)
        got = seen.get(v)
        if got is None:
            got = seen[v] = matches_call(c, mode=mode, overrides=None)
        return got

    return fits


def _seq_text(items: Sequence[str], limit: int = 12) -> str:
    if len(items) <= limit:
        return "[" + ", ".join(items) + "]"
    head = ", ".join(items[: limit - 2])
    return f"[{head}, ... {len(items) - limit + 1} more, {items[-1]}]"


def _outcome(c: ToolCall) -> str:
    if c.result is None:
        return f"no result (status {c.status})"
    if c.is_error:
        return "failed" + (f" (exit code {c.exit_code})" if c.exit_code not in (None, 0) else "")
    return "succeeded"


def _args_key(c: ToolCall, memo: dict[int, object] | None = None) -> object:
    """A key of the call's arguments, equal exactly when their canonical JSON is (kept in
    *memo*, the index's: several checks ask for it)."""
    if memo is None:
        return args_key(c.arguments)
    key = memo.get(c.index)
    if key is None:
        key = memo[c.index] = args_key(c.arguments)
    return key


def _recoveries(
    failed: Sequence[ToolCall],
    pool: Sequence[ToolCall],
    *,
    same_args: bool = True,
    ok: Callable[[ToolCall], bool] | None = None,
    memo: dict[int, object] | None = None,
    walks: dict[tuple[int, ...], list[_Cand]] | None = None,
    positions: Mapping[str, Sequence[int]] | None = None,
    values: Callable[[Sequence[int], str], _ByValue] | None = None,
) -> dict[int, ToolCall]:
    """For each failed call (by ``index``), the first later successful call of the same tool
    (and the same arguments), in one pass over *pool*: O(n), never failures × calls.

    *walks* (``CallIndex.retry_walks``, only when *pool* is the index's pool and *failed* its
    calls): the candidates of a set of failed calls, kept for the next check that looks for
    the retries of the same failures. *positions* (``CallIndex.names`` of that pool): where the
    calls of each tool name are, so that the walk visits only the failed tools' calls; *values*
    (``CallIndex.arg_positions`` of that pool, with *positions*): those calls by the value of
    an argument, so that it visits only the calls that have a failed call's first text
    argument there (``_retry_candidates``)."""
    if not failed:
        return {}
    succeeded = ok or (lambda d: d.result is not None and not d.is_error and d.outcome_recorded)
    waiting = {f.index for f in failed}
    next_ok: dict[tuple[str, object], ToolCall] = {}
    found: dict[int, ToolCall] = {}
    if not same_args:
        names = {f.name for f in failed}
        for d in reversed(pool):
            if d.name not in names:
                continue
            key: tuple[str, object] = (d.name, None)
            if d.index in waiting and key in next_ok:
                found[d.index] = next_ok[key]
            if succeeded(d):
                next_ok[key] = d
        return found
    wkey = tuple([f.index for f in failed]) if walks is not None else ()
    cands = walks.get(wkey) if walks is not None else None
    if cands is None and walks:
        cands = _wider_walk(walks, waiting)
    if cands is None:
        cands = _retry_candidates(failed, pool, waiting, positions, values)
        if walks is not None:
            walks[wkey] = cands
    # Forward, by group: a failed call waits under its key until a later call of that key
    # succeeds (the first one is its retry). A candidate is looked at (success, key) only while
    # a failed call of its group waits: a call of the same arguments is in the same group
    # (``_kept``), so one that comes before any failure of its group, or after all of them are
    # answered, retries none, and is passed over without reading it.
    known: dict[int, object] = memo if memo is not None else {}
    pending: dict[tuple[str, object], list[tuple[ToolCall, _Group]]] = {}
    open_groups: dict[_Group, int] = {}  # failed calls waiting, by group
    open_tools: dict[str, int] = {}  # failed calls waiting, by tool (for the calls of no group)
    for at, i, g in cands:
        wait = i in waiting
        if not wait and not (open_groups.get(g) if g[1] is not None else open_tools.get(g[0])):
            continue
        d = pool[at]  # read only now: most candidates are passed over
        k = known.get(i)  # the index's memo, read inline
        key = (g[0], k if k is not None else _args_key(d, memo))
        if succeeded(d):
            answered = pending.pop(key, None)
            if answered:
                for f, fg in answered:
                    found[f.index] = d
                    open_groups[fg] -= 1
                    open_tools[fg[0]] -= 1
        if wait:
            pending.setdefault(key, []).append((d, g))
            open_groups[g] = open_groups.get(g, 0) + 1
            open_tools[g[0]] = open_tools.get(g[0], 0) + 1
    return found


def _wider_walk(walks: dict[tuple[int, ...], list[_Cand]], waiting: set[int]) -> list[_Cand] | None:
    """The candidates kept for a set of failed calls that holds every call of *waiting*, if
    any: they serve for *waiting* too. They hold every call that may have the arguments of one
    of *waiting* (in pool order), and the others are keyed for nothing: a call whose
    arguments are no failed call's of *waiting* never gives a retry to one of them, nor takes
    the place of one (``_recoveries`` looks up the next success by tool and arguments)."""
    for done, cands in walks.items():
        if len(done) >= len(waiting) and waiting.issubset(done):
            return cands
    return None


def _retry_candidates(failed: Sequence[ToolCall], pool: Sequence[ToolCall], waiting: set[int],
                      positions: Mapping[str, Sequence[int]] | None = None,
                      values: Callable[[Sequence[int], str], _ByValue] | None = None) -> list[_Cand]:
    """The calls of *pool* (in order) that ``_recoveries`` may key: the failed calls themselves,
    and the calls of their tools that may have the arguments of one of them (``_probed``), each
    with its index and its group (``_kept``).

    *positions*: where the calls of each tool name are in *pool*, ascending (the alias index's
    ``names``, when *pool* is the index's pool): only the failed tools' calls are then visited,
    tool by tool (on a long transcript, reading a call's name is a memory access that misses
    the cache); without it, one pass over *pool*.

    *values* (``CallIndex.arg_positions``, with *positions*): a tool whose failed calls have
    one set of text arguments has its calls visited only where their first of those
    arguments is one of the failed calls' texts there, is missing, or is no text: ``_kept``
    passes over the others without keeping them (another text there, and no failed call:
    the failed calls' own texts are among those), so it keeps the same calls."""
    names = {f.name for f in failed}
    probes = _probes(failed)
    if positions is None:
        return _kept(pool, range(len(pool)), probes, waiting, names)
    kept: list[_Cand] = []
    for name in names:
        where: Sequence[int] = positions.get(name, ())
        by_keys = probes.get(name)
        if values is not None and where and by_keys is not None and len(by_keys) == 1:
            keys, texts = next(iter(by_keys.items()))
            by, others = values(where, keys[0])
            firsts = {v[0] for v in texts}
            if len(keys) == 1:
                # one text argument: ``_kept`` keeps every call with a failed call's text there,
                # in that text's group: kept here without reading the call (the calls that
                # may retry a file read that failed are most of the reads of a long session)
                # each kept call's own index read (not a test of every call of the pool that
                # its index is its position: a pass over the whole transcript)
                for v in firsts:
                    g = (name, (v,))
                    kept += [(i, pool[i].index, g) for i in by.get(v, ())]
                where = sorted([*others, *by.get(_NO_ARG, ())])
            else:
                where = sorted([*others, *by.get(_NO_ARG, ()), *(i for v in firsts for i in by.get(v, ()))])
        kept += _kept(pool, where, probes, waiting, name)
    kept.sort(key=_first)  # back in pool order (each tool's positions are ascending, and no two tools share one)
    return kept


_first = operator.itemgetter(0)


def _kept(pool: Sequence[ToolCall], where: Iterable[int], probes: _Probes, waiting: set[int],
          name: str | set[str]) -> list[_Cand]:
    """``(position, index, group)`` of the calls among *where* that ``_recoveries`` may key: the
    failed calls, and the calls that may have the arguments of one of them (``_probed``).
    *name*: the tool of every call at *where*, or the set of the failed tools (the calls of
    other tools are skipped).

    The group (``_Group``) of a call of a tool whose failed calls have one set of text arguments,
    and which has texts there, is ``(tool, those texts)``; of any other call ``(tool, None)``.
    Two calls with the same arguments (canonical JSON) are in the same group, or one of them
    has no texts (``None``): texts are their own canonical JSON."""
    # a tool whose failed calls have one set of text arguments: ``_probed`` inline for the
    # calls whose values there are all text (the others go through ``_probed``). First the
    # first of those arguments alone: a call whose value there is a text that no failed call
    # has there has other arguments than each of them (what the whole test finds, for a
    # fraction of its cost, on most calls)
    single = {n: (*kv, kv[0][0], {v[0] for v in kv[1]})
              for n, kv in ((n, next(iter(bk.items()))) for n, bk in probes.items() if bk is not None and len(bk) == 1)}
    only_text = _ONLY_TEXT.issuperset
    mixed = isinstance(name, set)
    tool = "" if isinstance(name, set) else name
    one = single.get(tool)
    by_keys = probes.get(tool)
    out: list[_Cand] = []
    for i in where:
        d = pool[i]
        if mixed:
            tool = d.name
            if tool not in name:
                continue
            one = single.get(tool)
            by_keys = probes.get(tool)
        index = d.index
        if one is not None:
            args = d.arguments
            if index in waiting:  # its texts are the probe's own (its tool has one set of them)
                out.append((i, index, (tool, tuple([args[k] for k in one[0]]))))
                continue
            first = args.get(one[2])
            if type(first) is str and first not in one[3]:
                continue  # another text there: not these arguments
            have = tuple(map(args.get, one[0]))
            if only_text(map(type, have)):
                if have not in one[1]:
                    continue  # other texts: not these arguments
                out.append((i, index, (tool, have)))
                continue
            if not _probed(d, by_keys):
                continue
        elif index not in waiting and not _probed(d, by_keys):
            continue  # its arguments differ from every failed call's: it recovers none
        out.append((i, index, (tool, None)))
    return out


#: By tool name: for each set of text argument names (sorted), the values the failed calls of
#: the tool have there; ``None`` when a failed call of the tool has no text argument.
_Probes = dict[str, "dict[tuple[str, ...], set[tuple[str, ...]]] | None"]


def _probes(failed: Sequence[ToolCall]) -> _Probes:
    """By tool name, the text arguments of each failed call (every key whose value is a
    string): a call whose arguments differ there cannot have the same arguments, so
    ``_recoveries`` never computes its key (retries are looked for among a few calls, not
    every call of the tool)."""
    out: _Probes = {}
    for f in failed:
        args = f.arguments
        keys = tuple(sorted(k for k, v in args.items() if type(k) is str and type(v) is str))
        if not keys or (f.name in out and out[f.name] is None):
            out[f.name] = None
            continue
        by_keys = out.setdefault(f.name, {})
        assert by_keys is not None
        by_keys.setdefault(keys, set()).add(tuple(args[k] for k in keys))
    return out


def _probed(d: ToolCall, by_keys: dict[tuple[str, ...], set[tuple[str, ...]]] | None) -> bool:
    """*d* may have the arguments of a failed call of its tool: it has the text arguments of
    one of them, or cannot be told apart by them (its canonical JSON could still be theirs)."""
    if by_keys is None:
        return True
    args = d.arguments
    get = args.get
    for keys, values in by_keys.items():
        have = tuple(map(get, keys))
        if _ONLY_TEXT.issuperset(map(type, have)):
            if have in values:
                return True
            continue  # other texts: not these arguments
        for k, v in zip(keys, have, strict=True):  # the first value that is not a string decides
            if type(v) is str:
                continue
            if v is None and k not in args:
                if any(type(x) is not str for x in args):
                    return True  # {1: "x"} has the canonical JSON of {"1": "x"}
            elif type(v) not in _NOT_TEXT:
                return True  # another object: canonical JSON writes its repr, a string
            break  # a text argument missing, or a number, list...: never a string's canonical JSON
    return False


_ONLY_TEXT = frozenset({str})
#: Values whose canonical JSON is never a string's.
_NOT_TEXT = frozenset({int, float, bool, type(None), list, dict, tuple})


def _last_text(t: Transcript) -> Message | None:
    """The main agent's last assistant text (not injected by the tool)."""
    for s in reversed(t.steps):
        if isinstance(s, Message) and s.role == "assistant" and s.agent_id is None and not s.meta and s.text.strip():
            return s
    return None


def _final(t: Transcript) -> tuple[str | None, Evidence | None]:
    """The final answer (``Transcript.final_answer``: the text after the last call) and where it is."""
    text = t.final_answer
    if text is None:
        return None, None
    last = _last_text(t)
    return text, Evidence(f"final response: {short_repr(text, 160)}", None if last is None else last.location)


def _no_final(t: Transcript) -> tuple[str, list[Evidence]]:
    """What stands where the final answer should be: ``(found, evidence)``."""
    last = _last_text(t)
    if t.final_response is None or last is None:
        return "no final response", []
    later = [c for c in t.tool_calls if c.step > last.index]
    ev = [Evidence(f"the last assistant text: {short_repr(last.text, 120)}", last.location)]
    ev.extend(Evidence.from_call(c, "after the last text") for c in later[:3])
    return (f"no text after the last tool call (the last assistant text comes before "
            f"{_plural(len(later), 'more call')})"), ev


def _text_matcher(text: str | Matcher, ignore_case: bool) -> Matcher:
    if isinstance(text, Matcher):
        return text
    if not isinstance(text, str) or not text:
        raise UsageError(f"expected a non-empty string or a matcher, got {text!r}")
    return Contains(text, ignore_case=ignore_case)


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


class _Shown:
    """A value whose repr is already made (for the ``check:`` echo line)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text
