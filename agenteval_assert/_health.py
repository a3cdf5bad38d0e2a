"""The built-in health checks that ``python -m agenteval_assert check FILE`` runs.

Each returns a ``CheckResult``. They answer "can this transcript be trusted, and did the run end
well": parsed cleanly, every call answered, a final response present, no tool error left
unhandled at the end, no run-level error.
"""

from __future__ import annotations

from collections.abc import Callable

from .model import Location, Message, Transcript
from .results import CheckResult, Evidence, Status, _plural  # not checks._common: start-up

__all__ = ["HEALTH_CHECKS", "REPLY_THEN_ACTION_FORMATS", "health_checks", "not_applicable"]

#: Formats whose agent acts after the reply that asks for the action: a SWE-agent or
#: mini-swe-agent step's command follows its thought (and a run ends on a submission command,
#: ``submit`` / ``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT``, not on a message); Aider applies
#: edits and runs commands after the model's reply. The last turn's reply, before its actions,
#: is the final answer (unless the run's end record is missing: ``Health.run_ended``). Their
#: parsers say so to the builder (``reply_precedes_actions``), which sets ``final_answer``.
REPLY_THEN_ACTION_FORMATS = frozenset({"swe-agent", "mini-swe-agent", "aider"})


def check_parsed_cleanly(t: Transcript) -> CheckResult:
    """Every record of the file could be read (a JSON record, a line of a text log), and the
    file does not end in a torn line: no unparsable line, no damaged record
    (``Health.damaged``), no orphan result. Lines that belong to no step
    (``Health.orphan_lines``) are noted."""
    h = t.health
    if h.intact and h.records:
        skipped = sum(h.skipped.values())
        unknown = sum(h.unknown_types.values())
        extra = []
        if h.orphan_lines:
            extra.append(f"{_plural(len(h.orphan_lines), 'line')} in no step (Health.orphan_lines)")
        if unknown:
            extra.append(f"{unknown} record(s) of unknown type kept out of the model")
        if skipped:
            extra.append(f"{skipped} record(s) deliberately skipped")
        return CheckResult.passing(
            "parsed_cleanly", f"{_plural(h.records, 'record')} on {_plural(h.lines, 'line')} parsed",
            notes=tuple(extra)
        )
    evidence = [
        Evidence(f"{issue.reason}: {issue.excerpt}" if issue.excerpt else issue.reason, Location(t.path, issue.line))
        for issue in sorted((*h.unparsable, *h.damaged), key=lambda i: i.line)
    ]
    evidence.extend(Evidence(f"result whose call is not in the file: {cid}") for cid in h.orphan_results)
    found = "; ".join(p for p in h.problems() if "with no result" not in p and "end-of-run" not in p)
    return CheckResult.failing("parsed_cleanly", "every record of the file to be read",
                               found or "no records", evidence)


def check_every_call_answered(t: Transcript) -> CheckResult:
    """Every tool call has a result in the file."""
    calls = t.all_tool_calls
    # one pass over the calls (on a 100 MB log, each pass is mostly memory traffic): the calls
    # without a result, then those of them that should have one (``ToolCall.unanswered``)
    no_result = [c for c in calls if c.result is None]
    missing = [c for c in no_result if c.unanswered]
    if not missing:
        # Calls whose format records no result (Aider actions, OpenHands ``finish``) are not
        # missing anything; say how many there are rather than claim they have a result.
        none = len(no_result)
        summary = (f"all {len(calls)} tool calls have a result" if not none else
                   f"{len(calls) - none} of {len(calls)} tool calls have a result; the format records "
                   f"none for the other {none}")
        return CheckResult.passing("every_call_answered", summary, vacuous=not calls)
    return CheckResult.failing(
        "every_call_answered",
        "every tool call to have a result",
        f"{len(missing)} of {len(calls)} calls with no result",
        [Evidence.from_call(c) for c in missing],
    )


def check_final_response(t: Transcript) -> CheckResult:
    """The main agent ended with a text response: ``Transcript.final_answer``, assistant text
    after its last tool call (for agents that act after their reply, the last turn's reply).

    On an incomplete transcript (damaged, calls unanswered, no end-of-run record) this cannot
    be decided: the real last words may be in the part that is missing.
    """
    name = "final_response_present"
    last_call = t.tool_calls[-1] if t.tool_calls else None
    final = _last_main_text(t)
    answer = t.final_answer
    if not t.health.complete:
        after = final if final is not None and (last_call is None or final.index > last_call.step) else None
        return CheckResult(
            name=name,
            status=Status.INCONCLUSIVE,
            summary="expected a final response, found the transcript incomplete: its end may be missing",
            expected="a final response",
            found="an incomplete transcript",
            evidence=(Evidence(f"assistant text: {after.text.strip()[:80]!r}", after.location),) if after else (),
            notes=tuple(t.health.problems()),
        )
    if answer is not None:
        if final is not None and last_call is not None and final.index < last_call.step:
            return CheckResult.passing(name, "the last turn's reply precedes the actions it asked for",
                                       [Evidence(final.text.strip()[:80], final.location)])
        where = final.location if final is not None else None
        return CheckResult.passing(name, "a final response follows the last tool call",
                                   [Evidence(answer.strip()[:80], where)])
    ev = []
    if last_call is not None:
        ev.append(Evidence.from_call(last_call, "the last tool call; no assistant text follows it"))
        if final is not None:
            ev.append(Evidence(f"the last assistant text comes before it: {final.text.strip()[:80]!r}",
                               final.location))
    elif t.steps:
        last = t.steps[-1]
        ev.append(Evidence(f"last step: {type(last).__name__} #{last.index}", last.location))
    found = "no assistant text after the last tool call" if last_call is not None else "none"
    return CheckResult.failing(name, "a final assistant response", found, ev)


def _last_main_text(t: Transcript) -> Message | None:
    """The main agent's last assistant message with text (not injected by the tool)."""
    for s in reversed(t.steps):
        if isinstance(s, Message) and s.role == "assistant" and s.agent_id is None and not s.meta and s.text.strip():
            return s
    return None


def check_no_unhandled_tool_error(t: Transcript) -> CheckResult:
    """The run did not end on a failed tool call: after the main agent's last call failed, the
    agent said something (reported or worked around the failure)."""
    calls = t.tool_calls
    if not calls:
        return CheckResult.passing("no_unhandled_tool_error", "no tool calls", vacuous=True)
    last = calls[-1]
    if not last.outcome_recorded:
        return CheckResult(
            name="no_unhandled_tool_error",
            status=Status.INCONCLUSIVE,
            summary=f"expected the last tool call to succeed, found that {t.format} records no outcome for it",
            expected="the last tool call to succeed",
            found="no recorded outcome",
            evidence=(Evidence.from_call(last),),
        )
    if last.result is None and last.status != "completed":
        return CheckResult(
            name="no_unhandled_tool_error",
            status=Status.INCONCLUSIVE,
            summary="expected the last tool call to succeed, found it has no result",
            expected="the last tool call to succeed",
            found="no result",
            evidence=(Evidence.from_call(last),),
        )
    errors = sum(1 for c in calls if c.is_error)
    if not last.is_error:
        return CheckResult.passing(
            "no_unhandled_tool_error", f"the last call succeeded ({errors} earlier error(s) handled)"
        )
    answered = any(
        isinstance(s, Message) and s.role == "assistant" and s.agent_id is None and not s.meta
        for s in t.steps[last.step + 1 :]
    )
    if answered:
        return CheckResult.passing(
            "no_unhandled_tool_error", "the last call failed, and the agent responded after it"
        )
    if last.status == "declined":
        return CheckResult.passing(
            "no_unhandled_tool_error",
            f"the last call ({last.name}) was declined by the user, and the run stopped there",
            notes=(f"{last.location}: declined",),
        )
    return CheckResult.failing(
        "no_unhandled_tool_error",
        "the run not to end on a failed tool call",
        f"the last call ({last.name}) failed and the agent said nothing after it",
        [Evidence.from_call(last, detail=last.output[:200])],
    )


def check_no_run_errors(t: Transcript) -> CheckResult:
    """The agent reported no run-level error (API error, ``turn.failed``, error result)."""
    if not t.errors:
        return CheckResult.passing("no_run_errors", "no run-level errors")
    evidence = []
    for e in t.errors:
        evidence.append(Evidence(e.message.replace("\n", " "), e.location))
        # the same failure, reported on other lines too (Claude's API-error line and result record)
        evidence.extend(Evidence("the same error, reported here too", loc) for loc in e.locations if loc != e.location)
    return CheckResult.failing(
        "no_run_errors",
        "no run-level errors",
        f"{_plural(len(t.errors), 'error')}",
        evidence,
    )


HEALTH_CHECKS: tuple[Callable[[Transcript], CheckResult], ...] = (
    check_parsed_cleanly,
    check_every_call_answered,
    check_final_response,
    check_no_unhandled_tool_error,
    check_no_run_errors,
)


def not_applicable(check: Callable[[Transcript], CheckResult], t: Transcript) -> str | None:
    """Why a health check does not apply to *t*, or ``None``: ``check`` (the command line) then
    reports it as skipped, which is neither a pass nor a doubt about the run. Only
    ``no_unhandled_tool_error`` on a transcript whose last call has no recorded outcome (an Aider
    command, a SWE-agent step, an API tool result without an error flag): the check is about that
    call, and would be INCONCLUSIVE whatever the agent did. Called as a function, the check
    itself stays INCONCLUSIVE there."""
    if check is check_no_unhandled_tool_error and t.tool_calls and not t.tool_calls[-1].outcome_recorded:
        last = t.tool_calls[-1]
        return (f"{t.format} records no outcome for the last tool call ({last.name} at line "
                f"{last.location.line}): whether it failed cannot be told")
    return None


def health_checks(t: Transcript) -> list[CheckResult]:
    """Run every built-in health check."""
    return [check(t) for check in HEALTH_CHECKS]
