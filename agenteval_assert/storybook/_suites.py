"""The Storybook evals (spec §8) as runnable suites with the reference's skip matrix.

``suite("801-create-component-no-launch-config").run(ctx)`` runs every test of that eval against
an ``EvalContext`` and returns one outcome per test: ``passed``, ``failed`` (with the failure
message), ``skipped`` (with the reason the reference's ``test.skipIf`` gives), ``inconclusive``
(an LLM-judge criterion, or a check that needs a live sandbox) or ``error`` (the check or the judge
could not run: never a verdict on the agent).

LLM-judge criteria go through ONE hook, ``judge_criterion``: pass another function with the same
signature as ``run(ctx, judge=...)`` to plug a real judge in
(``agenteval_assert.judge.criterion_hook(Judge(...))``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

import attrs

from ..results import CheckError, CheckResult, InconclusiveError, Status, TranscriptAssertionError
from ._context import EvalContext, Generation

__all__ = [
    "EvalTest",
    "Judge",
    "Suite",
    "SuiteRun",
    "TestOutcome",
    "judge_criterion",
]

Outcome = Literal["passed", "failed", "skipped", "inconclusive", "error"]

#: ``(ctx, criterion, threshold) -> CheckResult``: decides an LLM-judge criterion.
Judge = Callable[[EvalContext, str, float], CheckResult]
Gate = Callable[[EvalContext], "str | None"]


#: The last note of an undecided judge criterion, for a caller of ``Suite.run``.
NO_JUDGE_HINT = "pass judge=<function(ctx, criterion, threshold) -> CheckResult> to Suite.run to decide it"
#: The same, for a user of the command line (``check --eval``).
NO_JUDGE_CLI_HINT = ("decide it with the judge options: --judge-cassette DIR (replays recorded verdicts: no "
                     "network, no key) or --judge-mode record|live (asks the judge model: the [judge] extra "
                     "and ANTHROPIC_API_KEY)")


def for_the_command_line(run: SuiteRun) -> SuiteRun:
    """*run* with the undecided judge criteria's hint naming the command line's judge options
    instead of ``Suite.run``'s ``judge=`` argument."""
    outcomes = []
    for o in run.outcomes:
        if o.result is not None and NO_JUDGE_HINT in o.result.notes:
            notes = tuple(NO_JUDGE_CLI_HINT if n == NO_JUDGE_HINT else n for n in o.result.notes)
            o = attrs.evolve(o, result=attrs.evolve(o.result, notes=notes))
        outcomes.append(o)
    return attrs.evolve(run, outcomes=tuple(outcomes))


def judge_criterion(ctx: EvalContext, criterion: str, threshold: float) -> CheckResult:
    """THE judge hook: every judge criterion of every suite is decided here.

    No LLM judge ships yet, so the criterion is reported as inconclusive, with the criterion and
    the transcript it would grade. A real judge returns PASS/FAIL (``score >= threshold``).
    """
    where = ctx.transcript_path or ctx.transcript.path
    return CheckResult(
        name="judge",
        status=Status.INCONCLUSIVE,
        summary=f"LLM judge not configured: cannot score {criterion[:80]!r}… (threshold {threshold})",
        notes=(
            f"criterion: {criterion}",
            f"transcript to grade: {where}",
            NO_JUDGE_HINT,
        ),
    )


@attrs.define(frozen=True, slots=True)
class TestOutcome:
    """The outcome of one test of a suite.

    Attributes:
        name: the test's title (as in the reference EVAL.ts, where known).
        outcome: ``passed``, ``failed``, ``skipped``, ``inconclusive`` or ``error``.
        message: the failure message, the skip reason, or why it is inconclusive.
        result: the check's result (evidence included), where a check ran.
    """

    __test__ = False  # not a pytest class

    name: str
    outcome: Outcome
    message: str = ""
    result: CheckResult | None = None

    def line(self, *, verbose: bool = False) -> str:
        """One line (more with *verbose*: the evidence) for the CLI."""
        tag = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP", "inconclusive": "INCONCLUSIVE",
               "error": "ERROR"}[self.outcome]
        if self.outcome == "passed":
            head = f"{tag:<12} {self.name}"
        elif self.outcome == "skipped":
            head = f"{tag:<12} {self.name} (skipped: {self.message})"
        else:
            first = self.message.splitlines()[0] if self.message else ""
            head = f"{tag:<12} {self.name}: {first}"
        if not verbose or self.result is None:
            if self.outcome in ("failed", "inconclusive", "error") and self.result is not None:
                rest = self.result.render(verbose=False).splitlines()
                extra = [ln for ln in rest[1:] if ln.strip()]
                more = self.message.splitlines()[1:]
                return "\n".join([head, *("    " + m for m in more), *("  " + ln for ln in extra)])
            return head
        body = self.result.render(verbose=True).splitlines()[1:]
        return "\n".join([head, *("  " + ln for ln in body)])


@attrs.define(frozen=True, slots=True)
class SuiteRun:
    """The outcomes of one suite against one context."""

    suite: str
    context: str
    outcomes: tuple[TestOutcome, ...]

    def _count(self, o: Outcome) -> int:
        return sum(1 for x in self.outcomes if x.outcome == o)

    @property
    def passed(self) -> int:
        return self._count("passed")

    @property
    def failed(self) -> int:
        return self._count("failed")

    @property
    def skipped(self) -> int:
        return self._count("skipped")

    @property
    def inconclusive(self) -> int:
        return self._count("inconclusive")

    @property
    def errors(self) -> int:
        return self._count("error")

    @property
    def ok(self) -> bool:
        """Nothing failed, nothing was left undecided, nothing could not run."""
        return self.failed == 0 and self.inconclusive == 0 and self.errors == 0

    def outcome(self, name: str) -> TestOutcome:
        """The outcome of the test titled *name*."""
        for o in self.outcomes:
            if o.name == name:
                return o
        raise KeyError(f"{self.suite} has no test {name!r}; tests: {[o.name for o in self.outcomes]}")

    def __iter__(self) -> Iterator[TestOutcome]:
        return iter(self.outcomes)


@attrs.define(frozen=True, slots=True)
class EvalTest:
    """One ``test(...)`` of an EVAL.ts.

    Attributes:
        name: the title.
        check: the body: raises ``TranscriptAssertionError`` on failure.
        gates: ``test.skipIf`` conditions; each returns the skip reason or ``None``.
        judge: ``(criterion, threshold)`` for an LLM-judge test (``check`` is then unused).
        skip: a reason when the reference marks the test ``test.skip``/``test.todo``.
    """

    __test__ = False

    name: str
    check: Callable[[EvalContext], Any] | None = None
    gates: tuple[Gate, ...] = ()
    judge: tuple[str, float] | None = None
    skip: str | None = None

    def skip_reason(self, ctx: EvalContext, *, run_skipped_judges: bool = False) -> str | None:
        """Why the reference would skip this test here (``test.skip``, a ``skipIf``), or ``None``."""
        if self.skip is not None and not (run_skipped_judges and self.judge is not None):
            return self.skip
        for gate in self.gates:
            reason = gate(ctx)
            if reason is not None:
                return reason
        return None

    def run(self, ctx: EvalContext, judge: Judge, *, run_skipped_judges: bool = False) -> TestOutcome:
        reason = self.skip_reason(ctx, run_skipped_judges=run_skipped_judges)
        if reason is not None:
            return TestOutcome(self.name, "skipped", reason)
        if self.judge is not None and ctx.transcript_missing:
            from ._context import NO_TRANSCRIPT_HINT

            return TestOutcome(self.name, "inconclusive", "the judge grades the agent's transcript, and this sandbox "
                               f"holds none; {NO_TRANSCRIPT_HINT}")
        try:
            if self.judge is not None:
                result = judge(ctx, *self.judge)
            else:
                assert self.check is not None
                result = self.check(ctx)
        except InconclusiveError as exc:
            return TestOutcome(self.name, "inconclusive", exc.result.summary, exc.result)
        except TranscriptAssertionError as exc:
            return TestOutcome(self.name, "failed", exc.result.summary, exc.result)
        except CheckError as exc:  # the check could not run (a pattern timed out...)
            return TestOutcome(self.name, "error", exc.result.summary, exc.result)
        except AssertionError as exc:  # a plain assert in a check: a failure, as in vitest
            return TestOutcome(self.name, "failed", str(exc) or "assertion failed")
        except Exception as exc:  # noqa: BLE001 -- a broken check is an error, never a pass nor a failure
            return TestOutcome(self.name, "error", f"error: {type(exc).__name__}: {exc}")
        if isinstance(result, CheckResult):
            if result.status is Status.INCONCLUSIVE:
                return TestOutcome(self.name, "inconclusive", result.summary, result)
            if result.status is Status.ERROR:
                return TestOutcome(self.name, "error", result.summary, result)
            if result.status is Status.FAIL:
                return TestOutcome(self.name, "failed", result.summary, result)
            return TestOutcome(self.name, "passed", result.summary, result)
        return TestOutcome(self.name, "passed")


@attrs.define(frozen=True, slots=True)
class Suite:
    """One Storybook eval.

    Attributes:
        name: the eval directory name (``801-create-component-no-launch-config``).
        title: what the eval asks the agent to do.
        generation: the test-utils generation its EVAL.ts was written against.
        source: the reference commit read (spec §8), or how the suite was reconstructed.
        tests: the tests, in EVAL.ts order.
    """

    name: str
    title: str
    generation: Generation
    source: str
    tests: tuple[EvalTest, ...]

    def run(
        self,
        ctx: EvalContext,
        *,
        judge: Judge | None = None,
        run_skipped_judges: bool = False,
        generation: Generation | None = None,
        cheap_first: bool = False,
    ) -> SuiteRun:
        """Run every test against *ctx*, seen through this suite's generation.

        The context's other profile choices (``out_of_context``, ``review_anchor``...) are kept.
        ``run_skipped_judges`` sends the judge tests that the reference marks ``test.skip`` to
        the judge too. ``cheap_first`` runs the deterministic tests first and skips the judge
        tests (saying why) when one of them failed: the run fails anyway, the judge would cost.
        """
        gen = generation or self.generation
        if ctx.profile.generation != gen:
            ctx = ctx.with_profile(attrs.evolve(ctx.profile, generation=gen))
        j = judge or judge_criterion
        done: dict[int, TestOutcome] = {}
        for i, t in enumerate(self.tests):
            if t.judge is None:
                done[i] = t.run(ctx, j, run_skipped_judges=run_skipped_judges)
        failed = [o.name for o in done.values() if o.outcome == "failed"]
        for i, t in enumerate(self.tests):
            if t.judge is None:
                continue
            if cheap_first and failed and t.skip_reason(ctx, run_skipped_judges=run_skipped_judges) is None:
                done[i] = TestOutcome(t.name, "skipped", f"cheap first: {failed[0]!r} already failed, the judge "
                                                         "was not asked")
            else:
                done[i] = t.run(ctx, j, run_skipped_judges=run_skipped_judges)
        outcomes = tuple(done[i] for i in range(len(self.tests)))
        return SuiteRun(self.name, ctx.describe(), outcomes)


# -- gates (each mirrors a test.skipIf of the reference) ----------------------------------------


def review_on(ctx: EvalContext) -> str | None:
    return None if ctx.review else "review branch: agent.json review is false"


def review_off(ctx: EvalContext) -> str | None:
    return "preview branch: agent.json review is true" if ctx.review else None


def not_mcp(ctx: EvalContext) -> str | None:
    return "skipIf(integration === 'mcp'): skills are read on the plugin path only" if ctx.integration == "mcp" else None


def plugin_only(ctx: EvalContext) -> str | None:
    return None if ctx.integration == "plugin" else f"plugin only (integration={ctx.integration})"


def mcp_only(ctx: EvalContext) -> str | None:
    return None if ctx.integration == "mcp" else f"MCP-only eval (integration={ctx.integration})"


def claude_plugin_only(ctx: EvalContext) -> str | None:
    if ctx.is_claude and ctx.integration == "plugin":
        return None
    return (f"claude-code + plugin only (agent={ctx.agent}, integration={ctx.integration}); "
            "the reference returns silently here")


def not_codex(ctx: EvalContext) -> str | None:
    return "skipIf(agent === 'codex')" if ctx.is_codex else None


def not_codex_mcp(ctx: EvalContext) -> str | None:
    return "skipIf(codex + mcp)" if ctx.is_codex and ctx.integration == "mcp" else None


def not_review_mcp(ctx: EvalContext) -> str | None:
    return "skipIf(review && integration === 'mcp')" if ctx.review and ctx.integration == "mcp" else None


def gates(*gs: Gate) -> tuple[Gate, ...]:
    return tuple(gs)


def names(xs: Sequence[str]) -> list[str]:
    return list(xs)
