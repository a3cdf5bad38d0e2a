"""The run-result model, its totals and its JSON form (validated against the shipped schema)."""

from __future__ import annotations

import io
import json
import pickle
from typing import Any

import jsonschema
import pytest

from agenteval_assert import load
from agenteval_assert._health import health_checks
from agenteval_assert.reporting import (
    SCHEMA_ID,
    HealthSummary,
    JsonWriter,
    RunTotals,
    SkippedCheck,
    TranscriptResult,
    TranscriptStatus,
    check_status,
    result_from_dict,
    run_to_dict,
    schema,
)
from agenteval_assert.reporting._json import result_to_dict
from agenteval_assert.results import CheckResult, Status

from .conftest import SAMPLES

UNANSWERED = SAMPLES / "codex-rollout" / "localpush-0.104-desktop-unanswered-call-sanitized.jsonl"
HEALTHY = SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"


def validate(doc: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(schema()).validate(doc)


def checked(path: object) -> TranscriptResult:
    t = load(str(path))
    return TranscriptResult.of(t, health_checks(t))


def _status(*statuses: Status) -> TranscriptResult:
    return TranscriptResult(
        name="x", path="x", checks=tuple(CheckResult(f"c{i}", s, "s") for i, s in enumerate(statuses))
    )


def test_the_shipped_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    assert schema()["properties"]["schema"]["const"] == SCHEMA_ID


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        ((Status.PASS, Status.PASS), TranscriptStatus.PASSED),
        ((Status.PASS, Status.INCONCLUSIVE), TranscriptStatus.INCONCLUSIVE),
        ((Status.INCONCLUSIVE, Status.ERROR), TranscriptStatus.ERROR),
        ((Status.ERROR, Status.FAIL, Status.INCONCLUSIVE), TranscriptStatus.FAILED),
    ],
)
def test_a_transcript_takes_the_worst_check_status_ranked_like_the_exit_codes(
    statuses: tuple[Status, ...], expected: TranscriptStatus
) -> None:
    assert _status(*statuses).status is expected


def test_an_inconclusive_transcript_has_not_passed_and_a_skipped_check_is_not_a_failure() -> None:
    assert not _status(Status.PASS, Status.INCONCLUSIVE).passed
    r = TranscriptResult(name="x", path="x", checks=(CheckResult("a", Status.PASS, "ok"), SkippedCheck("b", "gated")))
    assert r.passed
    assert r.counts() == {"pass": 1, "fail": 0, "inconclusive": 0, "error": 0, "skip": 1}
    assert [check_status(c) for c in r.checks] == ["pass", "skip"]


def test_of_summarises_the_transcript_and_detaches_the_results() -> None:
    t = load(str(UNANSWERED))
    results = health_checks(t)
    r = TranscriptResult.of(t, results)
    assert (r.name, r.path, r.member, r.format) == (str(UNANSWERED), str(UNANSWERED), None, "codex-rollout")
    assert r.tool_calls == 1 and r.steps == len(t.steps)
    assert r.health == HealthSummary.of(t.health)
    assert r.health is not None and not r.health.complete and r.health.unanswered_calls == 1
    # detached results render exactly as the originals, and hold no tool call
    assert [c.render(verbose=True) for c in r.checks if isinstance(c, CheckResult)] == [
        c.render(verbose=True) for c in results
    ]
    assert all(c.matched == () for c in r.checks if isinstance(c, CheckResult))
    assert r.status is TranscriptStatus.FAILED
    # small enough to send back from a worker: no transcript inside
    assert len(pickle.dumps(r)) < 5_000
    assert pickle.loads(pickle.dumps(r)) == r


def test_totals_count_transcripts_by_status_and_keep_skipped_files_out_of_the_pass_rate() -> None:
    totals = RunTotals()
    for r in (
        checked(HEALTHY),
        checked(UNANSWERED),
        TranscriptResult.unreadable("gone.jsonl", "gone.jsonl: file not found"),
        TranscriptResult.skipped("notes.txt", "not JSON"),
    ):
        totals.add(r)
    assert (totals.transcripts, totals.passed, totals.failed, totals.unreadable, totals.skipped_files) == (3, 1, 1, 1, 1)
    assert totals.pass_rate == pytest.approx(100 / 3)
    assert totals.summary_line() == (
        "1 of 3 transcripts passed (33.3 %), 1 failed, 0 inconclusive, 1 unreadable; "
        "10 checks: 7 passed, 1 failed, 2 inconclusive"
    )
    assert totals.below(33.34) and not totals.below(33.33)


def test_no_transcript_has_no_pass_rate_and_is_below_any_threshold() -> None:
    totals = RunTotals()
    assert totals.pass_rate is None and totals.below(0)
    assert totals.summary_line().startswith("0 of 0 transcripts passed (n/a)")


def test_the_document_validates_and_round_trips() -> None:
    results = [
        checked(HEALTHY),
        checked(UNANSWERED),
        TranscriptResult.unreadable("gone.jsonl", "gone.jsonl: file not found"),
        TranscriptResult.crashed("boom.jsonl", "RuntimeError: boom"),
        TranscriptResult.skipped("notes.txt", "not JSON"),
        TranscriptResult(
            name="sb", path="sb", kind="sandbox", eval="storybook/x", checks=(SkippedCheck("gated", "why"),)
        ),
    ]
    doc = run_to_dict(results)
    validate(doc)
    assert doc["schema"] == SCHEMA_ID
    assert [t["status"] for t in doc["transcripts"]] == ["passed", "failed", "unreadable", "crashed", "passed"]
    assert doc["skipped"] == [{"path": "notes.txt", "reason": "not JSON"}]
    assert doc["totals"]["transcripts"] == 5 and doc["totals"]["pass_rate"] == 40.0
    fail = doc["transcripts"][1]["checks"][1]
    assert fail["status"] == "fail"
    assert fail["evidence"][0]["path"] == str(UNANSWERED) and fail["evidence"][0]["line"] == 18
    for r in results:
        assert result_from_dict(result_to_dict(r)) == r


@pytest.mark.parametrize("n", [0, 1, 3])
def test_the_streaming_writer_writes_exactly_the_whole_document(n: int) -> None:
    results = [checked(HEALTHY), TranscriptResult.skipped("a.txt", "binary file"), checked(UNANSWERED)][:n]
    buf = io.StringIO()
    w = JsonWriter(buf)
    for r in results:
        w.add(r)
    w.close()
    assert buf.getvalue() == json.dumps(run_to_dict(results), indent=2, ensure_ascii=False) + "\n"
    validate(json.loads(buf.getvalue()))
