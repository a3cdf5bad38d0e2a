"""Judging a transcript: requests, cassettes, samples, citation checks and results."""

from __future__ import annotations

import datetime
import hashlib
import math
import os
import statistics
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pydantic

from .._redact import redact
from .._version import __version__
from ..exceptions import AgentEvalError, UsageError
from ..model import Transcript
from ..results import (
    CheckResult,
    Evidence,
    Status,
    cut_middle,
)
from ._call import Attempt, CallOutcome, call_judge
from ._cassette import CASSETTE_VERSION, HAND_WRITTEN, RECORDED, CassetteDir, canonical_sha256
from ._config import Judge
from ._judgefile import JudgeFile, read_judge_file
from ._prompt import PROMPT_VERSION, SYSTEM_PROMPT, user_message
from ._render import EvidenceSelection, Rendering, quote_found, render
from ._schema import (
    SCHEMA_VERSION,
    CriterionVerdict,
    Verdict,
    validate_verdict,
    validation_messages,
)

__all__ = [
    "JudgeError",
    "JudgeResult",
    "Sample",
    "assert_criterion",
    "check_criterion",
    "check_verdict",
    "judge_verdict",
]

#: How a result names what was judged, as the reference's ``[judge:transcript]``.
SUBJECT = "transcript"


class JudgeError(AgentEvalError):
    """The judge could not give a valid verdict (API error, no key, invalid answers, cost cap,
    cassette miss). ``.attempts`` keeps every raw answer for debugging."""

    def __init__(self, message: str, attempts: Sequence[Attempt] = ()) -> None:
        self.attempts = tuple(attempts)
        super().__init__(message)


@attrs.define(frozen=True, slots=True)
class Sample:
    """One judge call: its verdict (or error), where it came from, and what it cost.

    Attributes:
        index: the sample index (0 for the first).
        verdict: the valid verdict, or ``None`` when the call failed.
        error: why there is no verdict.
        attempts: every answer received (raw text, usage, validation errors).
        source: ``live``, or the cassette file it was replayed from / recorded to.
        how: ``live`` (no cassette), ``recorded`` (live, and written to ``source``) or ``replayed``.
        origin: ``recorded`` or ``hand-written example`` for cassettes; ``""`` for live calls.
        key: the cassette key of the call.
        cost_usd: what the call cost (0 for a replay); ``None`` when the model has no price.
        recorded_cost_usd: what the replayed call cost when it was recorded.
        usage: tokens summed over the attempts.
    """

    index: int
    verdict: Verdict | None
    error: str | None = None
    attempts: tuple[Attempt, ...] = ()
    source: str = "live"
    how: str = "live"
    origin: str = ""
    key: str = ""
    cost_usd: float | None = 0.0
    recorded_cost_usd: float | None = None
    usage: Mapping[str, int] = attrs.field(factory=dict)


@attrs.define(frozen=True, slots=True)
class JudgeResult(CheckResult):
    """A ``CheckResult`` decided by the judge, with what the judge saw, said and cost.

    Attributes (beyond ``CheckResult``):
        criterion: the criterion, whole.
        threshold: the score needed, or ``None`` (then the verdict's ``pass`` decides).
        score: the combined score of the samples (see ``Judge.policy``).
        scores: every sample's score, in order.
        reason: the judge's reason (first sample).
        input_tokens / output_tokens: tokens spent by the live calls of this result.
        cost_usd: what this result cost (0 when replayed; ``None`` when the model has no price).
        samples: the calls behind it.
        cuts: what the judge was not shown.
    """

    criterion: str = ""
    threshold: float | None = None
    score: float | None = None
    scores: tuple[float, ...] = ()
    reason: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0
    samples: tuple[Sample, ...] = attrs.field(default=(), eq=False, repr=False)
    cuts: tuple[str, ...] = ()

    def render(self, *, verbose: bool | None = None) -> str:
        """As ``CheckResult.render``, with the judge's reason on the second line."""
        text = super().render(verbose=verbose)
        if not self.reason:
            return text
        first, _, rest = text.partition("\n")
        reason = self.reason if verbose else cut_middle(self.reason, 400)
        return f"{first}\n  reason: {reason}" + (f"\n{rest}" if rest else "")

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["judge"] = {
            "criterion": self.criterion,
            "threshold": self.threshold,
            "score": self.score,
            "scores": list(self.scores),
            "reason": self.reason,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
            "cuts": list(self.cuts),
            "samples": [
                {"index": s.index, "source": s.source, "origin": s.origin, "key": s.key, "error": s.error,
                 "cost_usd": s.cost_usd, "attempts": [a.to_json() for a in s.attempts]}
                for s in self.samples
            ],
        }
        return d


# -- one call ----------------------------------------------------------------------------------


def _subject_sha256(t: Transcript) -> str:
    def build(t: Transcript) -> str:
        try:
            if os.path.isfile(t.path):
                h = hashlib.sha256()
                with open(t.path, "rb") as f:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        h.update(chunk)
                return h.hexdigest()
        except OSError:
            pass
        return canonical_sha256([[type(s).__name__, getattr(s, "text", None) or getattr(s, "name", "")] for s in t.steps])

    return t.derived("judge.subject_sha256", build)


def _cassettes(judge: Judge, t: Transcript) -> CassetteDir:
    path = judge.cassettes or os.path.join(os.path.dirname(t.path) or ".", "judge-cassettes")
    with judge._lock:
        dirs = judge._state.setdefault("cassette_dirs", {})
        key = os.path.abspath(path)
        if key not in dirs:
            dirs[key] = CassetteDir(path)
        cdir: CassetteDir = dirs[key]
        return cdir


@attrs.define(frozen=True, slots=True)
class _Request:
    t: Transcript
    criteria: tuple[tuple[str, str], ...]
    rendering: Rendering
    system: str
    user: str

    @property
    def names(self) -> list[str]:
        return [n for n, _ in self.criteria]

    def material(self, judge: Judge, sample: int) -> dict[str, Any]:
        return {
            "model": judge.model,
            "prompt_version": PROMPT_VERSION,
            "schema_version": SCHEMA_VERSION,
            "criteria": [{"name": n, "text": c} for n, c in self.criteria],
            "evidence_sha256": hashlib.sha256((self.system + "\n" + self.user).encode("utf-8")).hexdigest(),
            "sampling": {"max_tokens": judge.max_tokens, "output": judge.output},
            "sample": sample,
        }


def _command_hint(judge: Judge, mode: str) -> str:
    if judge.command:
        return judge.command.replace("{mode}", mode)
    return f"Judge(mode={mode!r}, cassettes=...) (CLI: the same command with --judge-mode {mode})"


def _from_doc(req: _Request, index: int, path: Path, doc: Mapping[str, Any]) -> Sample:
    origin = str(doc.get("origin", RECORDED))
    attempts = tuple(
        Attempt(str(a.get("raw", "")), {k: v for k, v in (a.get("usage") or {}).items() if isinstance(v, int)},
                tuple(str(e) for e in a.get("errors", ())), a.get("stop_reason"))
        for a in doc.get("attempts", ()) if isinstance(a, dict)
    )
    try:
        verdict = validate_verdict(dict(doc.get("verdict") or {}), req.names)
    except (pydantic.ValidationError, ValueError) as exc:
        return Sample(index, None, f"invalid verdict in a cassette: {'; '.join(validation_messages(exc))}\ncassette: {path}",
                      attempts, str(path), "replayed", origin, str(doc.get("key", "")))
    cost = doc.get("cost_usd")
    return Sample(index, verdict, None, attempts, str(path), "replayed", origin, str(doc.get("key", "")), 0.0,
                  cost if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None)


def _miss(judge: Judge, req: _Request, cdir: CassetteDir, key: str, material: Mapping[str, Any], index: int) -> Sample:
    crit = cut_middle(req.criteria[0][1], 120) + (f" (and {len(req.criteria) - 1} more)" if len(req.criteria) > 1 else "")
    stale = list(cdir.stale(canonical_sha256([c for _, c in req.criteria]), _subject_sha256(req.t), req.t.path, index))
    mode = judge.effective_mode
    if stale:
        path, doc = stale[0]
        if mode == "rekey":
            if doc.get("origin") != HAND_WRITTEN:
                return Sample(index, None, (
                    f"stale cassette {path} was recorded from a model: it cannot be re-keyed\n"
                    "re-keying would replay an answer to a prompt the model never saw\n"
                    f"record it again with: {_command_hint(judge, 'record')}"), key=key)
            new = {**doc, "key": key, "key_material": dict(material),
                   "subject": {"path": req.t.path, "sha256": _subject_sha256(req.t)}}
            new["rekeyed_at"] = _now()
            target = cdir.write(new, replace=path)
            return _from_doc(req, index, target, new)
        old = doc.get("key_material")
        if not isinstance(old, dict):
            old = {}
        changed = [k for k in material if old.get(k) != material[k]] or ["key"]
        hint = ("it is a hand-written example: re-key it with " + _command_hint(judge, "rekey")
                if doc.get("origin") == HAND_WRITTEN else "record it again with " + _command_hint(judge, "record"))
        return Sample(index, None, (
            f"stale cassette {path} (key {key[:16]}… now)\n"
            f"it was written for this criterion and transcript under another key: {', '.join(changed)} changed since\n"
            f"{hint}"), key=key)
    where = f"{cdir.path}" + ("" if cdir.path.is_dir() else " (the directory does not exist)")
    lines = [f"no cassette for this judge call in {where} (key {key[:16]}…)",
             f"criterion: {crit}", f"transcript: {req.t.path}"]
    lines.extend(f"unreadable cassette: {p}" for p in cdir.problems[:3])
    lines.append(f"record it with: {_command_hint(judge, 'record')}")
    return Sample(index, None, "\n".join(lines), key=key)


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def _call(judge: Judge, req: _Request, index: int) -> Sample:
    mode = judge.effective_mode
    material = req.material(judge, index)
    key = canonical_sha256(material)
    cdir = _cassettes(judge, req.t) if mode != "live" else None
    if cdir is not None and mode in ("replay", "rekey"):
        hit = cdir.get(key)
        if hit is not None:
            return _from_doc(req, index, *hit)
        return _miss(judge, req, cdir, key, material, index)
    outcome: CallOutcome = call_judge(judge, req.system, req.user, req.names)
    usage = outcome.usage
    if outcome.verdict is None:
        return Sample(index, None, redact(outcome.error or "no verdict"), outcome.attempts, "live", "live", "", key,
                      outcome.cost_usd, None, usage)
    if cdir is None:
        return Sample(index, outcome.verdict, None, outcome.attempts, "live", "live", "", key, outcome.cost_usd,
                      None, usage)
    doc = {
        "cassette": CASSETTE_VERSION,
        "key": key,
        "key_material": material,
        "origin": RECORDED,
        "note": "Recorded from the model named in key_material by agenteval-assert; the verdict is the model's answer.",
        "criteria": material["criteria"],
        "criteria_sha256": canonical_sha256([c for _, c in req.criteria]),
        "subject": {"path": req.t.path, "sha256": _subject_sha256(req.t)},
        "sample": index,
        "recorded_at": _now(),
        "agenteval_assert": __version__,
        "attempts": [a.to_json() for a in outcome.attempts],
        "verdict": outcome.verdict.model_dump(by_alias=True),
        "usage": usage,
        "cost_usd": outcome.cost_usd,
    }
    path = cdir.write(doc)
    return Sample(index, outcome.verdict, None, outcome.attempts, str(path), "recorded", RECORDED, key,
                  outcome.cost_usd, outcome.cost_usd, usage)


def _request(
    t: Transcript, criteria: Sequence[tuple[str, str]], judge: Judge, *, task: str = "", steps: Sequence[str] = (),
) -> _Request:
    rendering = render(t, judge.evidence)
    damage = _damage(t)
    if damage:  # judged anyway (assume_complete): the judge is told what the record lacks
        rendering = attrs.evolve(rendering, cuts=(*rendering.cuts, *damage))
    user = user_message(criteria, rendering, task=redact(task), steps=[redact(s) for s in steps], output=judge.output)
    return _Request(t, tuple(criteria), rendering, SYSTEM_PROMPT, user)


def _damage(t: Transcript) -> list[str]:
    """What makes *t* an incomplete record (``[]``: it is complete)."""
    if t.health.complete:
        return []
    return [f"the record is incomplete: {p}" for p in t.health.problems()] or ["the record is incomplete"]


#: How a result says the judge can be asked about an incomplete transcript anyway.
_OPT_IN = ("pass assume_complete=True (command line: --judge-assume-complete) to judge an incomplete "
           "transcript as it is; the judge is then told what it lacks")


def _not_judgeable(t: Transcript, req: _Request, assume_complete: bool) -> tuple[list[str], bool]:
    """Why the judge must not be asked about *t* (``[]``: it may be), and whether the reason is
    the transcript's damage (which the caller may accept)."""
    if not t.steps:
        return ["the transcript has no steps (no message, no tool call): there is nothing to judge"], False
    if not req.rendering.steps:
        why = "; ".join(c for c in req.rendering.cuts if "shown no step" in c or "not selected" in c)
        return ["the judge would be shown nothing of the transcript" + (f" ({why})" if why else "")], False
    if not assume_complete:
        return _damage(t), True
    return [], False


def _not_judged(name: str, criterion: str, threshold: float | None, reasons: Sequence[str],
                damaged: bool) -> JudgeResult:
    return JudgeResult(
        name=name, status=Status.INCONCLUSIVE,
        summary=f"{HEAD} not judged: {cut_middle(reasons[0], 200)} — {cut_middle(criterion, 200)}",
        expected="a transcript the judge can decide on", found=reasons[0], criterion=criterion,
        threshold=threshold, notes=(*reasons[1:], *((_OPT_IN,) if damaged else ())),
    )


def _samples(judge: Judge, req: _Request, decide: Any) -> list[Sample]:
    """Ask for ``judge.samples`` verdicts (``confirm_on_fail``: more only when the first fails)."""
    first = _call(judge, req, 0)
    out = [first]
    if judge.samples == 1:
        return out
    if judge.policy == "confirm_on_fail" and (first.verdict is None or decide(first)):
        return out  # an error is reported as it is; a pass needs no confirmation
    out.extend(_call(judge, req, i) for i in range(1, judge.samples))
    return out


# -- citations ---------------------------------------------------------------------------------


def _passes(c: CriterionVerdict, threshold: float | None) -> bool:
    """The decision taken on one verdict: its score against *threshold*, else its ``pass``."""
    return c.score >= threshold if threshold is not None else c.passed


def _citation_problems(c: CriterionVerdict, rendering: Rendering, threshold: float | None = None) -> list[str]:
    """Why the verdict on *c* cannot be verified against what the judge saw (``[]``: it can).

    Every quote must be found in the step it cites (as the judge saw it: see ``quote_found``), and
    a verdict that **passes** (on its score against *threshold* when there is one, else on its
    ``pass``) must cite at least one quote: a pass nobody can check is no pass.
    """
    problems = []
    for cit in c.evidence:
        step = rendering.step(cit.step)
        if step is None:
            problems.append(f"the verdict cites {cit.step!r}, which is not a step the judge was shown")
            continue
        if not cit.quote.strip():
            problems.append(f"the verdict cites {cit.step} with an empty quote")
        elif not quote_found(cit.quote, step.body):
            problems.append(f"quote {cut_middle(cit.quote, 120)!r} is not in {cit.step} ({step.where})")
    if _passes(c, threshold) and not c.evidence:
        if threshold is None:
            problems.append("the verdict passes the criterion with no citation at all")
        else:
            problems.append(f"the verdict's score {_fmt(c.score)} reaches the threshold {_fmt(threshold)} "
                            "with no citation at all")
    return problems


def _citation_evidence(c: CriterionVerdict, rendering: Rendering) -> list[Evidence]:
    out = []
    for cit in c.evidence:
        step = rendering.step(cit.step)
        if step is None:
            out.append(Evidence(f"{cit.step}: not a step the judge was shown", None, detail=f"quote: {cit.quote!r}"))
            continue
        found = quote_found(cit.quote, step.body)
        label = f"{step.id} {step.kind}" + (f" {step.label}" if step.label else "")
        extra = "" if found else "  [NOT FOUND in this step]"
        out.append(Evidence(label, step.location, detail=f"quote: {cit.quote!r}{extra}"))
    return out


# -- results -----------------------------------------------------------------------------------


def _fmt(x: float) -> str:
    return f"{x:.3g}"


#: The reference's prefix; the subject is always the transcript here.
HEAD = f"[judge:{SUBJECT}]"


def _provenance(judge: Judge, req: _Request, samples: Sequence[Sample], result: JudgeResult) -> list[str]:
    lines = []
    for s in samples:
        if s.verdict is None:
            continue  # its error is the summary
        if s.how == "live":
            lines.append(f"sample {s.index}: live call to {judge.model}")
        elif s.how == "recorded":
            lines.append(f"sample {s.index}: live call to {judge.model}, recorded to {s.source}")
        elif s.origin == HAND_WRITTEN:
            lines.append(f"sample {s.index}: replayed from {s.source}: a HAND-WRITTEN EXAMPLE cassette, "
                         "not a model's answer")
        else:
            rec = "" if s.recorded_cost_usd is None else f" (it cost ${s.recorded_cost_usd:.4f} when recorded)"
            lines.append(f"sample {s.index}: replayed from {s.source}{rec}")
    cost = result.cost_usd
    if cost is None or cost or result.input_tokens or result.output_tokens:
        spent = "unknown (no price for this model)" if cost is None else f"${cost:.4f}"
        lines.append(f"judge cost: {spent}, {result.input_tokens} input / {result.output_tokens} output tokens; "
                     f"run total {judge.budget.describe()}")
    lines.extend(f"not shown to the judge: {c}" for c in req.rendering.cuts)
    if req.rendering.redactions:
        lines.append(f"{req.rendering.redactions} secret(s) redacted from what the judge saw")
    return lines


def _result(
    name: str, criterion: str, cname: str, threshold: float | None, judge: Judge, req: _Request,
    samples: Sequence[Sample], extra_notes: Sequence[str] = (),
) -> JudgeResult:
    costs = [s.cost_usd for s in samples]
    base = JudgeResult(
        name=name, status=Status.ERROR, summary="", criterion=criterion, threshold=threshold,
        input_tokens=sum(s.usage.get("input_tokens", 0) for s in samples),
        output_tokens=sum(s.usage.get("output_tokens", 0) for s in samples),
        cost_usd=None if any(c is None for c in costs) else sum(c or 0.0 for c in costs),
        samples=tuple(samples), cuts=req.rendering.cuts,
    )
    provenance = _provenance(judge, req, samples, base)

    errors = [s for s in samples if s.verdict is None]
    if errors:
        s = errors[0]
        first_line, *more = (s.error or "no verdict").splitlines() or ["no verdict"]
        attempts = [f"attempt {i + 1} raw answer: {cut_middle(a.raw, 300)!r}"
                    + (f"; errors: {'; '.join(a.errors)}" if a.errors else "") for i, a in enumerate(s.attempts)]
        return attrs.evolve(
            base, summary=f"{HEAD} judge error: {cut_middle(first_line, 300)} — {cut_middle(criterion, 120)}",
            expected="a valid verdict from the judge", found=s.error or "",
            notes=(*more, *attempts, *provenance),
        )

    verdicts = [s.verdict.criterion(cname) for s in samples if s.verdict is not None]
    scores = tuple(c.score for c in verdicts)
    first = verdicts[0]
    score = statistics.fmean(scores)
    decisions = [_passes(c, threshold) for c in verdicts]
    if judge.policy == "mean" and threshold is not None:
        passed = score >= threshold
    else:  # majority (ties fail); confirm_on_fail with one sample is that sample
        passed = sum(decisions) * 2 > len(decisions)
    notes: list[str] = []
    if len(samples) > 1:
        notes.append(f"samples ({judge.policy}): scores {', '.join(_fmt(x) for x in scores)}; "
                     f"{sum(decisions)} of {len(decisions)} pass; combined score {_fmt(score)}")
    notes.extend(extra_notes)
    notes.extend(provenance)
    crit = cut_middle(criterion, 200)
    cmp = "" if threshold is None else f" {'>=' if passed else '<'} {_fmt(threshold)}"
    base = attrs.evolve(base, score=score, scores=scores, reason=first.reason,
                        evidence=tuple(_citation_evidence(first, req.rendering)))
    problems = [f"sample {s.index}: {p}" if len(samples) > 1 else p
                for s in samples if s.verdict is not None
                for p in _citation_problems(s.verdict.criterion(cname), req.rendering, threshold)]
    if problems:
        return attrs.evolve(
            base, status=Status.INCONCLUSIVE,
            summary=f"{HEAD} unverifiable verdict (score {_fmt(score)}{cmp}): {cut_middle(problems[0], 200)} — {crit}",
            expected="every quote of the verdict found in the step it cites", found=problems[0],
            notes=(*problems[1:], *notes),
        )
    if threshold is None:
        summary = f"{HEAD} {'pass' if passed else 'fail'} (score {_fmt(score)}) — {crit}"
    else:
        summary = f"{HEAD} score {_fmt(score)}{cmp} — {crit}"
    if passed:
        return attrs.evolve(base, status=Status.PASS, summary=summary, notes=tuple(notes), matched=(first,))
    expected = f"score >= {_fmt(threshold)}" if threshold is not None else "the judge's pass"
    return attrs.evolve(base, status=Status.FAIL, summary=summary, expected=expected,
                        found=f"score {_fmt(score)}", notes=tuple(notes))


def _skipped(name: str, criterion: str, threshold: float | None, failed: Sequence[CheckResult]) -> JudgeResult:
    names = ", ".join(repr(r.name) for r in failed[:3]) + (" ..." if len(failed) > 3 else "")
    return JudgeResult(
        name=name, status=Status.INCONCLUSIVE,
        summary=f"{HEAD} skipped (cheap first): {names} already failed, so the judge was not asked — "
                f"{cut_middle(criterion, 200)}",
        expected="the judge's verdict", found="not asked", criterion=criterion, threshold=threshold,
        notes=tuple(f"failed first: {r.summary}" for r in failed[:3]),
    )


def replayed_hand_written(result: Any) -> bool:
    """The result was decided by a hand-written example cassette (never a model's answer)."""
    return isinstance(result, JudgeResult) and any(
        s.origin == HAND_WRITTEN and s.how == "replayed" for s in result.samples)


def hand_written_note(names: Sequence[str]) -> str | None:
    """The line that says which results come from hand-written example cassettes, if any do."""
    if not names:
        return None
    return (f"{', '.join(repr(n) for n in names)}: replayed from hand-written example cassettes, written by "
            "a person to show the mechanism, not a model's answer")


def _check_threshold(threshold: float | None) -> None:
    if threshold is None:
        return
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold) \
            or not 0.0 <= threshold <= 1.0:
        raise UsageError(f"a judge threshold is a score between 0 and 1, not {threshold!r}")


def _judge_of(judge: Judge | None, evidence: EvidenceSelection | None) -> Judge:
    j = judge if judge is not None else Judge()
    return j.with_evidence(evidence) if evidence is not None else j


# -- public API --------------------------------------------------------------------------------


def check_criterion(
    t: Transcript,
    criterion: str,
    *,
    threshold: float | None = None,
    judge: Judge | None = None,
    evidence: EvidenceSelection | None = None,
    name: str = "judge",
    skip_if_failed: Iterable[CheckResult] = (),
    assume_complete: bool = False,
) -> JudgeResult:
    """Have the judge decide *criterion* on *t* (``toScoreAtLeast`` / ``toSatisfyCriterion``).

    With a *threshold* the result passes iff the (combined) score is ``>= threshold``; without
    one, on the verdict's ``pass``. A verdict whose quotes cannot be found in the steps they cite,
    or that passes with no citation, is INCONCLUSIVE. Anything that keeps the judge from a valid
    verdict (API error, no key, invalid answers, the cost cap, a cassette miss) is ERROR.

    *skip_if_failed*: deterministic results to look at first; when one of them failed, the judge
    is not asked and the result is INCONCLUSIVE, saying so (the failure already fails the run).

    The judge is not asked, and the result is INCONCLUSIVE, when there is nothing to judge (a
    transcript with no steps, or a selection that shows none) or the transcript is incomplete
    (``health.complete`` is false: a torn tail, unanswered calls, no end-of-run record). With
    *assume_complete* an incomplete transcript is judged as it is, and the judge is told what the
    record lacks.
    """
    if not isinstance(criterion, str) or not criterion.strip():
        raise UsageError("the criterion is empty: say what the judge should decide")
    _check_threshold(threshold)
    failed = [r for r in skip_if_failed if r.status is Status.FAIL]
    if failed:
        return _skipped(name, criterion, threshold, failed)
    j = _judge_of(judge, evidence)
    req = _request(t, [("c1", criterion)], j)
    reasons, damaged = _not_judgeable(t, req, assume_complete)
    if reasons:
        return _not_judged(name, criterion, threshold, reasons, damaged)

    def decide(s: Sample) -> bool:
        assert s.verdict is not None
        c = s.verdict.criterion("c1")
        return _passes(c, threshold) and not _citation_problems(c, req.rendering, threshold)

    samples = _samples(j, req, decide)
    return _result(name, criterion, "c1", threshold, j, req, samples, _damage_notes(t))


def _damage_notes(t: Transcript) -> list[str]:
    damage = _damage(t)
    return [f"judged although the transcript is incomplete (assume_complete=True): {'; '.join(damage)}"] if damage else []


def assert_criterion(
    t: Transcript,
    criterion: str,
    *,
    threshold: float | None = None,
    judge: Judge | None = None,
    evidence: EvidenceSelection | None = None,
    assume_complete: bool = False,
) -> CriterionVerdict:
    """``check_criterion``, raising: ``TranscriptAssertionError`` on FAIL, ``InconclusiveError``
    on INCONCLUSIVE, ``CheckError`` (not an ``AssertionError``) on ERROR. Returns the verdict on
    the criterion (first sample) when it passes."""
    __tracebackhide__ = True
    from ..assertions import _raise  # the exception every assert_* raises for this status

    r = check_criterion(t, criterion, threshold=threshold, judge=judge, evidence=evidence,
                        assume_complete=assume_complete)
    if r.status is Status.PASS:
        matched: CriterionVerdict = r.matched[0]
        return matched
    _raise(r)


def _criteria_of(criteria: Sequence[str] | None, judge_file: str | os.PathLike[str] | JudgeFile | None,
                 variables: Mapping[str, str] | None) -> tuple[list[tuple[str, str]], str, tuple[str, ...]]:
    if (criteria is None) == (judge_file is None):
        raise UsageError("give either criteria=[...] or judge_file=... (exactly one of them)")
    if judge_file is not None:
        jf = judge_file if isinstance(judge_file, JudgeFile) else read_judge_file(judge_file, variables)
        texts, task, steps = list(jf.criteria), jf.task, jf.steps
    else:
        assert criteria is not None
        if isinstance(criteria, str):
            raise UsageError("criteria must be a list of strings, not one string")
        texts, task, steps = list(criteria), "", ()
    if not texts or any(not isinstance(c, str) or not c.strip() for c in texts):
        raise UsageError("every criterion must be a non-empty string (and there must be at least one)")
    return [(f"c{i}", c) for i, c in enumerate(texts, 1)], task, tuple(steps)


def _prepared(
    t: Transcript, criteria: Sequence[str] | None, judge_file: str | os.PathLike[str] | JudgeFile | None,
    variables: Mapping[str, str] | None, judge: Judge | None, evidence: EvidenceSelection | None,
    assume_complete: bool,
) -> tuple[list[tuple[str, str]], Judge, _Request, list[str], bool]:
    """The named criteria, the judge, its request, and why it must not be asked (if it must not)."""
    named, task, steps = _criteria_of(criteria, judge_file, variables)
    j = _judge_of(judge, evidence)
    req = _request(t, named, j, task=task, steps=steps)
    reasons, damaged = _not_judgeable(t, req, assume_complete)
    return named, j, req, reasons, damaged


def judge_verdict(
    t: Transcript,
    criteria: Sequence[str] | None = None,
    *,
    judge_file: str | os.PathLike[str] | JudgeFile | None = None,
    variables: Mapping[str, str] | None = None,
    judge: Judge | None = None,
    evidence: EvidenceSelection | None = None,
    assume_complete: bool = False,
) -> Verdict:
    """The judge's structured verdict on several criteria at once (one request).

    Criteria are named ``c1``, ``c2``... in order. Raises ``JudgeError`` when no valid verdict
    could be had, or when the judge is not asked (nothing to judge, or an incomplete transcript
    without *assume_complete*: see ``check_criterion``); ``UsageError`` for a malformed
    ``judge.md``, an unknown ``{{VARIABLE}}`` or a variable the file does not use.
    The verdict's ``unverified`` lists the quotes that could not be found in the steps they cite;
    ``check_verdict`` turns them into INCONCLUSIVE results.
    """
    _, j, req, reasons, damaged = _prepared(t, criteria, judge_file, variables, judge, evidence, assume_complete)
    if reasons:
        raise JudgeError(f"not judged: {reasons[0]}" + (f"; {_OPT_IN}" if damaged else ""))
    s = _call(j, req, 0)
    if s.verdict is None:
        raise JudgeError(s.error or "no verdict", s.attempts)
    problems = tuple(f"{c.name}: {p}" for c in s.verdict.criteria for p in _citation_problems(c, req.rendering))
    s.verdict._unverified = problems
    return s.verdict


def check_verdict(
    t: Transcript,
    criteria: Sequence[str] | None = None,
    *,
    judge_file: str | os.PathLike[str] | JudgeFile | None = None,
    variables: Mapping[str, str] | None = None,
    judge: Judge | None = None,
    evidence: EvidenceSelection | None = None,
    name: str = "judge",
    assume_complete: bool = False,
) -> list[JudgeResult]:
    """One result per criterion of one multi-criteria verdict (a ``judge.md``), citations verified.

    Results are named ``<name>:c1``, ``<name>:c2``...; the first also carries the verdict's
    summary, observations and friction as notes. ``judge.samples`` verdicts are combined per
    criterion with ``judge.policy``. Nothing to judge, or an incomplete transcript without
    *assume_complete*, gives INCONCLUSIVE results without asking the judge (see ``check_criterion``).
    """
    named, j, req, reasons, damaged = _prepared(t, criteria, judge_file, variables, judge, evidence, assume_complete)
    if reasons:
        return [_not_judged(f"{name}:{cname}", text, None, reasons, damaged) for cname, text in named]

    def decide(s: Sample) -> bool:
        assert s.verdict is not None
        return s.verdict.passed and not any(_citation_problems(c, req.rendering) for c in s.verdict.criteria)

    samples = _samples(j, req, decide)
    out = []
    for i, (cname, text) in enumerate(named):
        extra: list[str] = _damage_notes(t)
        v = samples[0].verdict
        if i == 0 and v is not None:
            extra.append(f"verdict summary: {v.summary}")
            extra.extend(f"observation ({o.severity}): {o.summary}" for o in v.observations)
            extra.extend(f"friction: {f.summary} (fix: {f.fix})" for f in v.friction)
        out.append(_result(f"{name}:{cname}", text, cname, None, j, req, samples, extra))
    return out
