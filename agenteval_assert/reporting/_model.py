"""The run-result model: ``TranscriptResult``, ``HealthSummary``, ``SkippedCheck``, ``RunTotals``."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

import attrs

from .._redact import redact
from ..model import Health, Transcript
from ..results import CheckResult, Difference, Evidence, NearestMiss, Status

#: The identifier of the JSON document's schema (its ``"schema"`` field); bumped on a breaking change.
SCHEMA_ID = "agenteval-assert/run-result/1"


class TranscriptStatus(str, enum.Enum):
    """The verdict on one transcript (one input of a run).

    Ranked like the exit codes: a transcript with a failed check has ``failed`` even if another
    check raised; an inconclusive transcript has not passed.
    """

    #: every check passed (or was skipped)
    PASSED = "passed"
    #: at least one check failed
    FAILED = "failed"
    #: nothing failed, but at least one check could not run (ERROR)
    ERROR = "error"
    #: nothing failed or errored, but at least one check could not be decided
    INCONCLUSIVE = "inconclusive"
    #: the input could not be read or parsed (no check ran)
    UNREADABLE = "unreadable"
    #: the library crashed on this input (a bug of ours, never a verdict on the agent)
    CRASHED = "crashed"
    #: a file found while walking a directory that no format reads: listed, not counted
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return self.value


@attrs.define(frozen=True, slots=True)
class SkippedCheck:
    """A check that did not run on purpose (a Storybook test that its eval skips, a pytest skip).

    Skipping is not failing: a transcript whose other checks passed has passed.
    """

    name: str
    reason: str = ""

    @property
    def status(self) -> Literal["skip"]:
        return "skip"


#: One entry of ``TranscriptResult.checks``.
CheckEntry = CheckResult | SkippedCheck

#: Check statuses as they appear in the JSON document, in display order.
CHECK_STATUSES: tuple[str, ...] = ("pass", "fail", "inconclusive", "error", "skip")


def check_status(entry: CheckEntry) -> str:
    """``pass``, ``fail``, ``inconclusive``, ``error`` or ``skip``."""
    if isinstance(entry, SkippedCheck):
        return "skip"
    return entry.status.value


def _same(text: str) -> str:
    return text


def _detach_evidence(e: Evidence, clean: Callable[[str], str] = redact) -> Evidence:
    return Evidence(text=clean(e.text), location=e.location, call_id=e.call_id, step=e.step,
                    detail=clean(e.detail))


def _texts(result: CheckResult) -> Iterator[str]:
    yield from (result.summary, result.expected, result.found, result.check, *result.notes)
    for e in result.evidence:
        yield e.text
        yield e.detail
    nm = result.nearest_miss
    if nm is not None:
        yield from (nm.evidence.text, nm.evidence.detail)
        for d in nm.differences:
            yield from (d.expected, d.found)


def detach(result: CheckResult) -> CheckResult:
    """A copy of *result* that holds no reference to the transcript, with secrets redacted.

    Evidence texts are computed (they render exactly as before, secrets aside) and ``matched``
    is dropped, so the copy is small and picklable: it can be sent back from a worker process or
    a cluster. Every text goes through the library's redaction (API keys, tokens, private keys:
    ``AGENTEVAL_NO_REDACT=1`` turns it off), so that no report built from it shows a secret.
    """
    # One pass of the redaction over all the texts at once (most results hold no secret); only
    # when it finds one is each text redacted on its own.
    joined = "\n".join(_texts(result))
    clean = redact if redact(joined) != joined else _same
    nm = result.nearest_miss
    return attrs.evolve(
        result,
        summary=clean(result.summary),
        expected=clean(result.expected),
        found=clean(result.found),
        evidence=tuple(_detach_evidence(e, clean) for e in result.evidence),
        nearest_miss=None
        if nm is None
        else NearestMiss(
            _detach_evidence(nm.evidence, clean),
            tuple(Difference(d.path, clean(d.expected), clean(d.found)) for d in nm.differences),
        ),
        notes=tuple(clean(n) for n in result.notes),
        check=clean(result.check),
        matched=(),
    )


def _pairs(m: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(m.items())


@attrs.define(frozen=True, slots=True)
class HealthSummary:
    """What ``Health`` says about a transcript, in a form that travels (counts, not line lists).

    Attributes:
        lines / records: lines read, JSON records among them.
        parsed_cleanly: every line was a JSON record and the file does not end in a torn line.
        complete: parsed cleanly, every call answered, and the run's end record is there.
        truncated_tail: the last line is torn.
        unparsable_lines: how many lines were not JSON records.
        unanswered_calls: tool calls with no result.
        unknown_types / skipped: record types kept out of the model, with their counts.
        problems: ``Health.problems()``: what makes the transcript less than complete.
        notes: the parser's notes.
    """

    lines: int
    records: int
    parsed_cleanly: bool
    complete: bool
    truncated_tail: bool = False
    unparsable_lines: int = 0
    unanswered_calls: int = 0
    unknown_types: tuple[tuple[str, int], ...] = ()
    skipped: tuple[tuple[str, int], ...] = ()
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @classmethod
    def of(cls, health: Health) -> HealthSummary:
        return cls(
            lines=health.lines,
            records=health.records,
            parsed_cleanly=health.parsed_cleanly,
            complete=health.complete,
            truncated_tail=health.truncated_tail,
            unparsable_lines=len(health.unparsable),
            unanswered_calls=len(health.unanswered_calls),
            unknown_types=_pairs(health.unknown_types),
            skipped=_pairs(health.skipped),
            problems=tuple(health.problems()),
            notes=tuple(health.notes),
        )


_RANK = {
    TranscriptStatus.FAILED: 3,
    TranscriptStatus.ERROR: 2,
    TranscriptStatus.INCONCLUSIVE: 1,
    TranscriptStatus.PASSED: 0,
}
_FROM_CHECK = {
    Status.FAIL: TranscriptStatus.FAILED,
    Status.ERROR: TranscriptStatus.ERROR,
    Status.INCONCLUSIVE: TranscriptStatus.INCONCLUSIVE,
    Status.PASS: TranscriptStatus.PASSED,
}

Problem = Literal["unreadable", "crashed", "skipped"]


@attrs.define(frozen=True, slots=True)
class TranscriptResult:
    """The checks of one transcript, or why it could not be checked.

    Attributes:
        name: how the transcript is named everywhere (text, JSON, JUnit, HTML): its path, or
            ``path#member`` for one run of a file that holds several, or a sandbox directory.
        path: the file (or the sandbox directory) that was read.
        member: the run's name inside the file, or ``None``.
        kind: ``transcript`` (a file or a member) or ``sandbox`` (a Storybook sandbox run
            through an eval suite).
        format / agent: as detected; ``None`` when the input could not be read.
        tool_calls / steps: the main agent's tool calls and the transcript's steps.
        subagent_tool_calls: the calls its subagents made (``None`` when not read).
        health: a summary of ``Transcript.health``; ``None`` when the input could not be read.
        checks: every check result in the order the checks ran (``CheckResult`` detached from
            the transcript, or ``SkippedCheck``).
        eval / context: for a sandbox, the eval suite that ran and how it read the sandbox.
        notes: facts about how the input was read (a sandbox without ``results.json``...).
        problem: ``unreadable``, ``crashed`` or ``skipped`` when no check ran, else ``None``.
        error: the message that goes with *problem* (``path:line: what (expected what)``).
    """

    name: str
    path: str
    member: str | None = None
    kind: Literal["transcript", "sandbox"] = "transcript"
    format: str | None = None
    agent: str | None = None
    tool_calls: int | None = None
    steps: int | None = None
    health: HealthSummary | None = None
    subagent_tool_calls: int | None = None
    checks: tuple[CheckEntry, ...] = ()
    eval: str | None = None
    context: str | None = None
    notes: tuple[str, ...] = ()
    problem: Problem | None = None
    error: str | None = None

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def of(
        cls,
        transcript: Transcript,
        checks: Iterable[CheckEntry],
        *,
        name: str | None = None,
        path: str | None = None,
        member: str | None = None,
        kind: Literal["transcript", "sandbox"] = "transcript",
        eval: str | None = None,
        context: str | None = None,
        notes: Sequence[str] = (),
    ) -> TranscriptResult:
        """The result of *checks* on *transcript* (check results are detached here)."""
        return cls(
            name=name if name is not None else transcript.path,
            path=path if path is not None else transcript.path,
            member=member,
            kind=kind,
            format=transcript.format,
            agent=transcript.agent,
            tool_calls=len(transcript.tool_calls),
            subagent_tool_calls=sum(len(s.tool_calls) for s in transcript.subagents),
            steps=len(transcript.steps),
            health=HealthSummary.of(transcript.health),
            checks=tuple(c if isinstance(c, SkippedCheck) else detach(c) for c in checks),
            eval=eval,
            context=context,
            notes=tuple(redact(n) for n in notes),
        )

    @classmethod
    def unreadable(cls, path: str, error: str, *, name: str | None = None, member: str | None = None,
                   kind: Literal["transcript", "sandbox"] = "transcript") -> TranscriptResult:
        """An input that could not be read or parsed (exit code 3)."""
        return cls(name=name or path, path=path, member=member, kind=kind, problem="unreadable", error=redact(error))

    @classmethod
    def crashed(cls, path: str, error: str, *, name: str | None = None, member: str | None = None,
                kind: Literal["transcript", "sandbox"] = "transcript") -> TranscriptResult:
        """An input on which the library itself crashed (exit code 70)."""
        return cls(name=name or path, path=path, member=member, kind=kind, problem="crashed", error=redact(error))

    @classmethod
    def skipped(cls, path: str, reason: str) -> TranscriptResult:
        """A file found in a directory that is not a transcript (listed, not counted)."""
        return cls(name=path, path=path, problem="skipped", error=reason)

    # -- reading -----------------------------------------------------------------------------

    @property
    def status(self) -> TranscriptStatus:
        """The verdict: a problem if there was one, else the worst check status."""
        if self.problem is not None:
            return TranscriptStatus(self.problem)
        worst = TranscriptStatus.PASSED
        for c in self.checks:
            if isinstance(c, SkippedCheck):
                continue
            s = _FROM_CHECK[c.status]
            if _RANK[s] > _RANK[worst]:
                worst = s
        return worst

    @property
    def passed(self) -> bool:
        """Every check passed or was skipped (an inconclusive transcript has not passed)."""
        return self.status is TranscriptStatus.PASSED

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (one entry of the document's ``transcripts``, one line of JSON Lines)."""
        return result_to_dict(self)

    def counts(self) -> dict[str, int]:
        """Checks by status (``pass``, ``fail``, ``inconclusive``, ``error``, ``skip``)."""
        out = dict.fromkeys(CHECK_STATUSES, 0)
        for c in self.checks:
            out[check_status(c)] += 1
        return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@attrs.define
class RunTotals:
    """Counts over a run, filled one ``TranscriptResult`` at a time (``add``).

    ``transcripts`` counts every input that should have been a transcript (passed, failed,
    inconclusive, error, unreadable, crashed); skipped files are counted apart and do not enter
    the pass rate.
    """

    transcripts: int = 0
    passed: int = 0
    failed: int = 0
    inconclusive: int = 0
    errors: int = 0
    unreadable: int = 0
    crashed: int = 0
    skipped_files: int = 0
    checks: dict[str, int] = attrs.field(factory=lambda: dict.fromkeys(CHECK_STATUSES, 0))

    def add(self, result: TranscriptResult) -> None:
        s = result.status
        if s is TranscriptStatus.SKIPPED:
            self.skipped_files += 1
            return
        self.transcripts += 1
        field = {
            TranscriptStatus.PASSED: "passed",
            TranscriptStatus.FAILED: "failed",
            TranscriptStatus.INCONCLUSIVE: "inconclusive",
            TranscriptStatus.ERROR: "errors",
            TranscriptStatus.UNREADABLE: "unreadable",
            TranscriptStatus.CRASHED: "crashed",
        }[s]
        setattr(self, field, getattr(self, field) + 1)
        for k, v in result.counts().items():
            self.checks[k] += v

    @property
    def pass_rate(self) -> float | None:
        """Passed transcripts in percent of all transcripts, or ``None`` when there were none."""
        if not self.transcripts:
            return None
        return 100.0 * self.passed / self.transcripts

    def below(self, percent: float) -> bool:
        """The pass rate is below *percent* (exactly, not after rounding); no transcript is below."""
        return self.passed * 100.0 < percent * self.transcripts or not self.transcripts

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the document's ``totals``)."""
        return totals_to_dict(self)

    @property
    def total_checks(self) -> int:
        return sum(self.checks.values())

    def checks_line(self) -> str:
        """``N passed, N failed[, N inconclusive][, N errors][, N skipped]``: the checks' counts
        as the one-transcript closing line has always shown them."""
        c = self.checks
        parts = [f"{c['pass']} passed", f"{c['fail']} failed"]
        if c["inconclusive"]:
            parts.append(f"{c['inconclusive']} inconclusive")
        if c["error"]:
            parts.append(_plural(c["error"], "error"))
        if c["skip"]:
            parts.append(f"{c['skip']} skipped")
        return ", ".join(parts)

    def summary_line(self) -> str:
        """``37 of 40 transcripts passed (92.5 %), 3 failed, 0 inconclusive; 412 checks: …``."""
        rate = self.pass_rate
        shown = "n/a" if rate is None else f"{rate:.1f} %"
        parts = [
            f"{self.passed} of {_plural(self.transcripts, 'transcript')} passed ({shown})",
            f"{self.failed} failed",
            f"{self.inconclusive} inconclusive",
        ]
        if self.errors:
            parts.append(f"{self.errors} errored")
        if self.unreadable:
            parts.append(f"{self.unreadable} unreadable")
        if self.crashed:
            parts.append(f"{self.crashed} crashed")
        return ", ".join(parts) + f"; {_plural(self.total_checks, 'check')}: {self.checks_line()}"


# -- the JSON form (the schema is run-result.schema.json) ------------------------------------


def check_to_dict(entry: CheckEntry) -> dict[str, Any]:
    """One check: ``CheckResult.to_dict()`` (evidence not elided), or a skipped check in the same shape."""
    if isinstance(entry, SkippedCheck):
        return {
            "name": entry.name,
            "status": "skip",
            "summary": entry.reason,
            "expected": "",
            "found": "",
            "evidence": [],
            "nearest_miss": None,
            "vacuous": False,
            "notes": [],
            "check": "",
        }
    return entry.to_dict()


def _health_to_dict(h: HealthSummary | None) -> dict[str, Any] | None:
    if h is None:
        return None
    return {
        "lines": h.lines,
        "records": h.records,
        "parsed_cleanly": h.parsed_cleanly,
        "complete": h.complete,
        "truncated_tail": h.truncated_tail,
        "unparsable_lines": h.unparsable_lines,
        "unanswered_calls": h.unanswered_calls,
        "unknown_types": dict(h.unknown_types),
        "skipped": dict(h.skipped),
        "problems": list(h.problems),
        "notes": list(h.notes),
    }


def result_to_dict(r: TranscriptResult) -> dict[str, Any]:
    """One transcript, as in the document's ``transcripts`` array (and one line of JSON Lines)."""
    return {
        "name": r.name,
        "path": r.path,
        "member": r.member,
        "kind": r.kind,
        "status": r.status.value,
        "format": r.format,
        "agent": r.agent,
        "tool_calls": r.tool_calls,
        "subagent_tool_calls": r.subagent_tool_calls,
        "steps": r.steps,
        "health": _health_to_dict(r.health),
        "eval": r.eval,
        "context": r.context,
        "notes": list(r.notes),
        "error": r.error,
        "counts": r.counts(),
        "checks": [check_to_dict(c) for c in r.checks],
    }


def totals_to_dict(t: RunTotals) -> dict[str, Any]:
    rate = t.pass_rate
    return {
        "transcripts": t.transcripts,
        "passed": t.passed,
        "failed": t.failed,
        "inconclusive": t.inconclusive,
        "errors": t.errors,
        "unreadable": t.unreadable,
        "crashed": t.crashed,
        "skipped_files": t.skipped_files,
        "pass_rate": None if rate is None else round(rate, 4),
        "checks": dict(t.checks),
    }
