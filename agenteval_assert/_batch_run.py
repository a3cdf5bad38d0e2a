"""Running the checks of a batch run on one input, in whatever process (``agenteval_assert.batch``):
``Checks`` (what to run, as names and paths that travel to a worker), loading them once per
process, ``check_one`` (a file, each member of a file that holds several runs, or a sandbox
through its eval suite) and ``_check_chunk``, the task a worker receives.

Imports ``_batch_inputs`` (``Input``, ``_screen``) and the layers below the front ends; the
checks files, the health checks and the Storybook suites are imported when first needed.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

import attrs

from ._batch_inputs import Input, _screen
from ._parsers import detect_format, load_all
from .exceptions import AgentEvalError, UsageError
from .model import Transcript
from .reporting import SkippedCheck, TranscriptResult
from .results import CheckResult, Status

__all__ = ["Checks", "check_one"]


def _fspaths(paths: Iterable[str | os.PathLike[str]]) -> tuple[str, ...]:
    return tuple(os.fspath(p) for p in paths)


def _strings(refs: Iterable[str]) -> tuple[str, ...]:
    return tuple(refs)


@attrs.define(frozen=True, slots=True)
class Checks:
    """What to run on each transcript, as names and paths only (nothing else needs pickling).

    Attributes:
        files: checks files (``check_*`` functions), imported once per worker process. On a
            cluster the path must exist on the workers.
        functions: importable checks as ``"module:function"`` (each takes a ``Transcript``
            and returns a ``CheckResult``, a bool or ``None``, or raises, as in a checks file).
        health: run the built-in health checks too; by default (``None``) they run when no
            file, function or *extra* is given.
        eval: a Storybook eval suite name: the inputs are sandboxes, and the suite's tests run
            on each.
        run_skipped_judges: with *eval* and a ``suite_judge``: also judge the tests that the
            reference marks ``test.skip``.
    """

    files: tuple[str, ...] = attrs.field(default=(), converter=_fspaths)
    functions: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    health: bool | None = None
    eval: str | None = None
    run_skipped_judges: bool = False
    #: In this process only (not sent to workers: ``check_many`` then runs without a pool): more
    #: checks on each transcript, after the others (the command line's LLM-judge criteria, whose
    #: cost cap is run-wide).
    extra: Callable[[Transcript], Sequence[CheckResult]] | None = attrs.field(default=None, eq=False)
    #: In this process only: the judge hook of the Storybook suites (``eval``).
    suite_judge: Any = attrs.field(default=None, eq=False)

    @property
    def runs_health(self) -> bool:
        if self.health is not None:
            return self.health
        return not self.files and not self.functions and self.extra is None

    @property
    def in_process_only(self) -> bool:
        """Something here cannot be sent to a worker."""
        return self.extra is not None or self.suite_judge is not None

    def validate(self) -> None:
        """Load everything once here, so that a bad checks file or suite name is a usage error
        before any work starts (``UsageError`` naming the file and line)."""
        _loaded(self)


# -- loading the checks (once per process) and running them ---------------------------------

CheckFn = Callable[[Transcript], Any]
_LOADED: dict[tuple[object, ...], list[CheckFn]] = {}


def _loaded(checks: Checks) -> list[CheckFn]:
    """The check functions of *checks*, loaded once per process."""
    key = (checks.files, checks.functions, checks.runs_health, checks.eval)
    fns = _LOADED.get(key)
    if fns is not None:
        return fns
    fns = []
    if checks.eval is not None:
        from .storybook._registry import suite

        suite(checks.eval)  # raises UsageError for an unknown suite
    else:
        if checks.runs_health:
            from ._health import HEALTH_CHECKS

            fns.extend(HEALTH_CHECKS)
        if checks.files:
            from ._checks_file import load_checks, named_check

            for f in checks.files:
                fns.extend(named_check(name, fn) for name, fn in load_checks(f))
        fns.extend(_import_function(ref) for ref in checks.functions)
    _LOADED[key] = fns
    return fns


def _import_function(ref: str) -> CheckFn:
    module, sep, name = ref.partition(":")
    if not sep or not module or not name:
        raise UsageError(f"{ref!r}: expected a check as 'module:function'")
    try:
        obj: Any = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"{ref}: cannot import the check: {type(exc).__name__}: {exc}") from None
    if not callable(obj):
        raise UsageError(f"{ref}: not a function")
    fn: CheckFn = obj
    return fn


def _run_checks(fns: Sequence[CheckFn], t: Transcript) -> list[CheckResult | SkippedCheck]:
    from ._health import HEALTH_CHECKS, not_applicable

    # Built-in health checks return their result (named after the check), or are skipped where
    # they cannot apply to the format; any other function runs as a checks-file function does
    # (its exceptions become FAIL or ERROR results).
    def health(fn: CheckFn) -> CheckResult | SkippedCheck:
        why = not_applicable(fn, t)
        return fn(t) if why is None else SkippedCheck(fn.__name__.removeprefix("check_"), why)

    if all(fn in HEALTH_CHECKS for fn in fns):
        return [health(fn) for fn in fns]  # start-up: `check FILE` imports no checks-file machinery
    from ._checks_file import run_check

    return [health(fn) if fn in HEALTH_CHECKS else run_check(fn, t) for fn in fns]


# -- one input ------------------------------------------------------------------------------


def _short(exc: AgentEvalError) -> str:
    reason = getattr(exc, "reason", None)
    return str(reason if reason is not None else exc).split("\n", 1)[0]


def _load_members(inp: Input, format: str | None) -> list[tuple[str, str | None, Transcript]]:
    """``(name, member, transcript)`` for each run the file holds: one for most files; one per
    member, named ``path#member``, for a file that holds several runs (an inspect_ai log's
    samples, an Aider history's sessions)."""
    out: list[tuple[str, str | None, Transcript]] = []
    for t in load_all(inp.path, format=format):
        name = t.path
        member = name[len(inp.path) + 1 :] if name.startswith(inp.path + "#") else None
        out.append((name, member, t))
    return out


def _kind(inp: Input) -> Literal["transcript", "sandbox"]:
    return "sandbox" if inp.kind == "sandbox" else "transcript"


def check_one(inp: Input | str | os.PathLike[str], checks: Checks | None = None, *,
              format: str | None = None) -> list[TranscriptResult]:
    """Check one input in this process: one result per transcript it holds (a file that holds
    several runs gives one per member, named ``path#member``).

    Never raises for a bad input: unreadable, skipped and crashed inputs are results too.
    """
    if not isinstance(inp, Input):
        inp = Input(os.fspath(inp))
    checks = checks or Checks()
    if inp.skip is not None:
        return [TranscriptResult.skipped(inp.path, inp.skip)]
    if inp.problem is not None:
        return [TranscriptResult.unreadable(inp.path, f"{inp.path}: {inp.problem}",
                                            kind=_kind(inp))]
    try:
        if inp.kind == "sandbox":
            return [_check_sandbox(inp.path, checks)]
        skippable = inp.discovered
        if inp.discovered:
            why, unreadable = _screen(inp.path)
            skippable = not unreadable
            if why is not None and skippable:
                return [TranscriptResult.skipped(inp.path, why)]
        fns = _loaded(checks)
        try:
            if skippable and format is not None:
                detect_format(inp.path)  # a forced format does not make every file a transcript
            members = _load_members(inp, format)
        except AgentEvalError as exc:
            if skippable:
                return [TranscriptResult.skipped(inp.path, _short(exc))]
            return [TranscriptResult.unreadable(inp.path, str(exc))]
        # Results are detached from their transcript: the transcripts go when this returns.
        out = []
        for name, member, t in members:
            if member is not None and len(members) > 1 and _idle(t):
                out.append(TranscriptResult(name=name, path=inp.path, member=member, problem="skipped",
                                            error="a run with no prompt and no agent activity (nothing to check)"))
                continue
            results = _run_checks(fns, t)
            if checks.extra is not None:
                results.extend(checks.extra(t))
            out.append(TranscriptResult.of(t, results, name=name, path=inp.path, member=member))
        return out
    except UsageError:
        raise  # a bad checks file or suite name: the whole run is wrong, not this input
    except Exception as exc:  # noqa: BLE001 - a crash on one input is that input's result
        what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        return [TranscriptResult.crashed(inp.path, what,
                                          kind=_kind(inp))]


def _idle(t: Transcript) -> bool:
    """A member of a file that holds several runs in which nobody asked or did anything (an Aider
    session that only upgraded Aider): skipped, as a file that is not a transcript is. A file of
    its own is never skipped this way: an empty transcript is checked, and does not pass."""
    from .model import Message

    return not t.all_tool_calls and not any(
        isinstance(s, Message) and s.role in ("user", "assistant") and not s.meta for s in t.steps)


_OUTCOME_STATUS = {
    "passed": Status.PASS,
    "failed": Status.FAIL,
    "inconclusive": Status.INCONCLUSIVE,
    "error": Status.ERROR,
}


def _check_sandbox(path: str, checks: Checks) -> TranscriptResult:
    from .storybook._context import EvalContext
    from .storybook._registry import suite
    from .storybook._suites import for_the_command_line

    if checks.eval is None:
        raise UsageError(f"{path}: a sandbox is checked by an eval suite (Checks(eval=...))")
    s = suite(checks.eval)
    try:
        ctx = EvalContext.from_sandbox(path)
    except (AgentEvalError, OSError) as exc:
        msg = str(exc)
        if not msg.startswith(str(path)):  # "__agent_eval__/agent.json: …": say which sandbox
            msg = f"{path}: {msg}"
        return TranscriptResult.unreadable(path, msg, kind="sandbox")
    judge = checks.suite_judge
    run = for_the_command_line(s.run(ctx, judge=judge, run_skipped_judges=checks.run_skipped_judges,
                                     cheap_first=judge is not None))
    entries: list[CheckResult | SkippedCheck] = []
    for o in run.outcomes:
        if o.outcome == "skipped":
            entries.append(SkippedCheck(o.name, o.message))
            continue
        # The suite's own verdict decides the status, as ``check --eval`` on one sandbox reports it.
        status = _OUTCOME_STATUS[o.outcome]
        if o.result is not None:
            entries.append(attrs.evolve(o.result, name=o.name, status=status))
        else:
            entries.append(CheckResult(name=o.name, status=status, summary=o.message or o.outcome))
    return TranscriptResult.of(
        ctx.transcript, entries, name=path, path=path, kind="sandbox", eval=f"storybook/{s.name}",
        context=run.context, notes=ctx.notes,
    )


def _check_chunk(chunk: Sequence[Input], checks: Checks, format: str | None) -> list[list[TranscriptResult]]:
    """The worker's task: check each input of *chunk* (module-level, so it pickles by name)."""
    return [check_one(inp, checks, format=format) for inp in chunk]
