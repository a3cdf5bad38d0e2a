"""The built-in health checks of `check`."""

from __future__ import annotations

import json

import agenteval_assert as aa
from agenteval_assert._health import check_no_unhandled_tool_error, health_checks
from agenteval_assert.results import Status

from .conftest import SAMPLES


def _session(*blocks: tuple[str, list[dict[str, object]]]) -> aa.Transcript:
    lines = []
    for i, (kind, content) in enumerate(blocks):
        lines.append(json.dumps({
            "type": kind, "sessionId": "s", "uuid": f"u{i}", "parentUuid": None, "isSidechain": False,
            "message": {"id": f"m{i}", "role": kind, "content": content},
        }))
    return aa.parse("\n".join(lines) + "\n")


USE = ("assistant", [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}])
FAIL = ("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "make: *** Error 2", "is_error": True}])
OK = ("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "built"}])
SAY = ("assistant", [{"type": "text", "text": "The build failed; here is why."}])


def test_run_ending_on_a_failed_call_fails_with_its_location() -> None:
    r = check_no_unhandled_tool_error(_session(("user", [{"type": "text", "text": "build it"}]), USE, FAIL))
    assert r.status is Status.FAIL
    assert r.summary == ("expected the run not to end on a failed tool call, found the last call (Bash) "
                         "failed and the agent said nothing after it")
    assert r.evidence[0].location is not None and r.evidence[0].location.line == 2


def test_failure_followed_by_a_response_is_handled() -> None:
    assert check_no_unhandled_tool_error(_session(USE, FAIL, SAY)).status is Status.PASS


def test_last_call_without_result_is_inconclusive() -> None:
    assert check_no_unhandled_tool_error(_session(USE)).status is Status.INCONCLUSIVE


def test_declined_last_call_is_the_users_choice() -> None:
    t = aa.load(SAMPLES / "claude-session" / "spotter-2.1.38-short.jsonl")
    assert t.tool_calls[-1].status == "declined"
    assert check_no_unhandled_tool_error(t).status is Status.PASS


def test_all_health_checks_pass_on_a_clean_run() -> None:
    results = health_checks(_session(USE, OK, SAY))
    assert [r.status for r in results] == [Status.PASS] * 5
    assert [r.name for r in results] == [
        "parsed_cleanly", "every_call_answered", "final_response_present",
        "no_unhandled_tool_error", "no_run_errors",
    ]


def test_missing_final_response_on_a_torn_transcript_is_inconclusive() -> None:
    text = (SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl").read_text()
    cut = text[: text.index('"agent_message"') - 40]
    [final] = [r for r in health_checks(aa.parse(cut)) if r.name == "final_response_present"]
    assert final.status is Status.INCONCLUSIVE


def test_a_stream_cut_before_its_end_record_is_incomplete() -> None:
    from agenteval_assert.checks import check_no_duplicate_calls, check_tool_not_called

    full = (SAMPLES.parent / "samples" / "replay" / "saving-twice" / "faulty.jsonl").read_text().splitlines()
    cut = aa.parse("\n".join(full[:5]) + "\n")
    assert cut.health.parsed_cleanly and not cut.health.unanswered_calls
    assert cut.health.run_ended is False and not cut.health.complete
    assert "no end-of-run record" in " ".join(cut.health.problems())
    # absence cannot be claimed on the cut run
    assert check_no_duplicate_calls(cut, ["save_address"]).status is Status.INCONCLUSIVE
    assert check_tool_not_called(cut, "delete_address").status is Status.INCONCLUSIVE
    whole = aa.parse("\n".join(full) + "\n")
    assert whole.health.run_ended is True and whole.health.complete


def test_claude_stream_without_result_record_is_incomplete() -> None:
    import json as _json

    records = _json.loads((SAMPLES / "claude-stream-json" / "terragon-1.0.x-bash-errors.json").read_text())
    last_user = max(i for i, r in enumerate(records) if r.get("type") == "user")
    cut = aa.parse("\n".join(_json.dumps(r) for r in records[: last_user + 1]) + "\n")
    assert cut.health.run_ended is False and not cut.health.complete
    [final] = [r for r in health_checks(cut) if r.name == "final_response_present"]
    assert final.status is Status.INCONCLUSIVE


def test_a_lost_result_is_not_a_failure_and_absence_is_inconclusive() -> None:
    from agenteval_assert.checks import check_failures_not_reported_as_success

    lines = (SAMPLES / "replay" / "saving-twice" / "faulty.jsonl").read_text().splitlines()
    damaged = "\n".join("{garbage" if i == 7 else line for i, line in enumerate(lines)) + "\n"
    r = check_failures_not_reported_as_success(aa.parse(damaged))
    assert r.status is Status.INCONCLUSIVE
    assert "failed" not in " ".join(e.text for e in r.evidence)


def test_a_format_that_records_no_outcome_skips_the_unhandled_error_check_in_check() -> None:
    from agenteval_assert._health import HEALTH_CHECKS, not_applicable
    from agenteval_assert.batch import check_one

    path = SAMPLES / "swe-agent" / "swe-agent-6e44b9-sweagenttestrepo.traj"
    t = aa.load(path)
    # called as a function the check stays honest: it cannot tell
    assert check_no_unhandled_tool_error(t).status is Status.INCONCLUSIVE
    assert not_applicable(check_no_unhandled_tool_error, t) == (
        "swe-agent records no outcome for the last tool call (submit at line 48): whether it failed cannot be told")
    (result,) = check_one(str(path))
    entries = {c.name: c.status for c in result.checks}
    assert entries["no_unhandled_tool_error"] == "skip"
    assert result.status.value == "passed"
    # a format that records outcomes keeps the check, even when one call's outcome is missing
    clean = aa.load(SAMPLES / "claude-session" / "spotter-2.1.38-short.jsonl")
    assert all(not_applicable(check, clean) is None for check in HEALTH_CHECKS)
