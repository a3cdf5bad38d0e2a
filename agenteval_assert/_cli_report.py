"""``python -m agenteval_assert report FILE|- [--json]``: read a story-test report and show it.

The input is any form ``agenteval_assert.storybook.parse_story_test_report`` reads (full or
compact markdown, the ``--json`` document with npm lines around it, ``No stories found…``,
``Error: …``), from a file or from standard input (``-``).

Exit codes: 0 a report was read (whatever its outcome: a failed run is still a report);
3 the input could not be read or holds no story-test report; 2 usage (argparse).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

from .exceptions import TranscriptError

if TYPE_CHECKING:
    from .storybook._report import StoryTestReport

__all__ = ["add_arguments", "report_to_json", "run"]

#: Exit status when a report was read.
EXIT_OK = 0
#: Exit status for an unreadable input or text that is not a story-test report.
EXIT_NOT_A_REPORT = 3

DESCRIPTION = (
    "Read a Storybook story-test report (the output of the test-run MCP tool, "
    "`storybook tools test run` with or without --json, or `storybook ai run-story-tests`) "
    "and print what it says. Exit status 0 when a report was read, 3 when the input is "
    "unreadable or holds no report. "
    "Example: npx storybook tools test run --json | python -m agenteval_assert report - --json"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``report`` command's arguments to *parser*."""
    if parser.description is None:
        parser.description = DESCRIPTION
    parser.add_argument(
        "file",
        metavar="FILE",
        help="the report: a file holding the tool output, or - for standard input",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        dest="as_json",
        help="print the report as one JSON object (outcome, passing, failing, a11y_violations, "
        "unhandled_errors, complete, ...)",
    )


def report_to_json(report: StoryTestReport) -> dict[str, Any]:
    """The JSON object the ``--json`` option prints (keys are stable; lists keep report order)."""
    counts = report.result_counts
    return {
        "outcome": report.outcome,
        "passed": report.passed,
        "complete": report.complete,
        "issues": list(report.issues),
        "passing": list(report.passing),
        "failing": [story.story_id for story in report.failing],
        "failing_details": [
            {
                "story_id": story.story_id,
                "message": story.message,
                "details": story.details,
                "accessibility_failed": story.accessibility_failed,
            }
            for story in report.failing
        ],
        "a11y_violations": [
            {
                "story_id": v.story_id,
                "rule_id": v.rule_id,
                "impact": v.impact,
                "description": v.description,
                "elements": len(v.nodes),
            }
            for v in report.a11y_violations
        ],
        "a11y_errors": [{"story_id": e.story_id, "message": e.message} for e in report.a11y_errors],
        "unhandled_errors": [e.name for e in report.unhandled_errors],
        "unhandled_error_details": [
            {
                "name": e.name,
                "message": e.message,
                "test_path": e.test_path,
                "test_name": e.test_name,
            }
            for e in report.unhandled_errors
        ],
        "result_counts": None
        if counts is None
        else {
            "verdict": counts.verdict,
            "component_tests_passed": counts.component_tests_passed,
            "component_tests_failed": counts.component_tests_failed,
            "a11y_checks_failed": counts.a11y_checks_failed,
            "unhandled_errors": counts.unhandled_errors,
            "accessibility": counts.accessibility,
            "stories_checked": counts.stories_checked,
            "stories_without_violations": counts.stories_without_violations,
            "stories_with_warnings": counts.stories_with_warnings,
            "stories_failing_accessibility": counts.stories_failing_accessibility,
        },
        "not_found_messages": list(report.not_found_messages),
        "error_message": report.error_message,
    }


def _first_line(text: str | None, limit: int = 120) -> str:
    if not text:
        return ""
    from .results import cut_middle  # start-up: results (and attrs) only when a report is read

    return cut_middle(text.split("\n", 1)[0], limit)


def render_text(report: StoryTestReport) -> str:
    """The readable summary the command prints without ``--json``."""
    lines: list[str] = []
    if report.outcome == "completed":
        verdict = "passed" if report.passed else "not passed"
        lines.append(f"story-test report: completed, {verdict}")
    else:
        lines.append(f"story-test report: {report.outcome}")
    if report.complete:
        lines.append("complete: yes (no sign of a cut)")
    else:
        lines.append("complete: NO - the text is a fragment; only what it shows is listed:")
        lines.extend(f"  {issue}" for issue in report.issues)
    if report.outcome == "error":
        lines.append(f"error: {report.error_message or ''}")
    if report.outcome == "no-stories":
        lines.append(f"not found ({len(report.not_found_messages)}):")
        lines.extend(f"  {m}" for m in report.not_found_messages)
    if report.outcome != "completed":
        return "\n".join(lines)
    lines.append(f"passing stories ({len(report.passing)}):")
    lines.extend(f"  {story_id}" for story_id in report.passing)
    lines.append(f"failing stories ({len(report.failing)}):")
    for story in report.failing:
        why = _first_line(story.message)
        if story.accessibility_failed:
            why = f"{why}; accessibility check failed" if why else "accessibility check failed"
        lines.append(f"  {story.story_id}" + (f": {why}" if why else ""))
    lines.append(f"accessibility violations ({len(report.a11y_violations)}):")
    for v in report.a11y_violations:
        impact = f" [{v.impact}]" if v.impact else ""
        elements = f" ({len(v.nodes)} element{'s' if len(v.nodes) != 1 else ''})" if v.nodes else ""
        description = f": {_first_line(v.description)}" if v.description else ""
        lines.append(f"  {v.story_id} - {v.rule_id}{impact}{description}{elements}")
    if report.a11y_errors:
        lines.append(f"accessibility check errors ({len(report.a11y_errors)}):")
        lines.extend(f"  {e.story_id}: {_first_line(e.message)}" for e in report.a11y_errors)
    lines.append(f"unhandled errors ({len(report.unhandled_errors)}):")
    for e in report.unhandled_errors:
        where = " ".join(p for p in (e.test_path, e.test_name) if p)
        message = f": {_first_line(e.message)}" if e.message else ""
        lines.append(f"  {e.name or 'Unknown Error'}{message}" + (f" ({where})" if where else ""))
    if report.result_counts is not None:
        c = report.result_counts
        lines.append(f"result: {c.verdict or 'no verdict line'}; accessibility: {c.accessibility or 'no line'}")
    return "\n".join(lines)


def _read(path: str, stderr: TextIO) -> str | None:
    from ._reader import MAX_INPUT_ENV, max_input_bytes, read_input_file  # start-up: on use

    try:
        if path == "-":
            stream = sys.stdin
            buffer = getattr(stream, "buffer", None)
            limit = max_input_bytes()
            data: str | bytes = buffer.read(limit + 1) if buffer is not None else stream.read(limit + 1)
            if len(data) > limit:
                stderr.write(f"error: <stdin>: more than the input limit of {limit:,} bytes "
                             f"(set {MAX_INPUT_ENV} to read more)\n")
                return None
        else:
            data = read_input_file(path, "report")
    except TranscriptError as exc:
        stderr.write(f"error: {exc}\n")
        return None
    except OSError as exc:
        stderr.write(f"error: {path}: cannot read: {exc.strerror or exc}\n")
        return None
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        stderr.write(
            f"error: {'<stdin>' if path == '-' else path}: not UTF-8 text "
            f"(byte {exc.start}: {exc.reason}); expected the text output of a story-test run\n"
        )
        return None


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``report`` with parsed *args*; write to *stdout*/*stderr*; return the exit status."""
    # imported on use: the CLI builds this command's parser on every run (--version included)
    from .storybook._report import NotAStoryTestReport, parse_story_test_report

    path: str = args.file
    text = _read(path, stderr)
    if text is None:
        return EXIT_NOT_A_REPORT
    try:
        report = parse_story_test_report(text)
    except NotAStoryTestReport as exc:
        stderr.write(f"error: {'<stdin>' if path == '-' else path}: {exc}\n")
        return EXIT_NOT_A_REPORT
    if getattr(args, "as_json", False):
        stdout.write(json.dumps(report_to_json(report), indent=2, ensure_ascii=False) + "\n")
    else:
        stdout.write(render_text(report) + "\n")
    return EXIT_OK
