"""Story-test reports as typed data (spec §5.5, §6, §9.1 B16–B24, §9.3 D1–D7)."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agenteval_assert.exceptions import AgentEvalError
from agenteval_assert.storybook import _report
from agenteval_assert.storybook._report import (
    ACCESSIBILITY_FAILED_TEXT,
    REPORT_MARKERS,
    A11yCheckError,
    A11yNode,
    A11yViolation,
    FailingStory,
    NotAStoryTestReport,
    ResultCounts,
    StoryTestReport,
    UnhandledError,
    find_story_test_report,
    parse_story_test_report,
    render_story_test_report,
    render_test_run_json_output,
    select_final_report,
)

SUCCESS = "status-value:success"
ERROR = "status-value:error"


def status(story_id: str, value: str, description: str = "") -> dict[str, Any]:
    """The spec §9.3 ``status(id, v)`` helper."""
    return {
        "storyId": story_id,
        "typeId": "storybook/component-test",
        "value": value,
        "title": "",
        "description": description,
        "sidebarContextMenu": False,
    }


def pretty(doc: dict[str, Any]) -> str:
    """``JSON.stringify(doc, null, 2) + '\\n'``: the aggregated output of §9.3 ``JL(doc)``."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


D1 = {
    "status": "completed",
    "a11y": True,
    "result": {
        "componentTestStatuses": [
            status("reviews-reviewcard--default", SUCCESS),
            status("reviews-reviewcard--with-report-action", SUCCESS),
        ],
        "a11yStatuses": [status("reviews-reviewcard--default", SUCCESS)],
        "a11yReports": {
            "reviews-reviewcard--default": [
                {
                    "violations": [],
                    "passes": [{"id": "button-name"}],
                    "inapplicable": [{"id": "color-contrast"}],
                }
            ]
        },
        "unhandledErrors": [],
    },
}

D2 = {
    "status": "completed",
    "a11y": True,
    "result": {
        "componentTestStatuses": [
            status("a--b", SUCCESS),
            status("a--c", ERROR, "expected 1 to be 2"),
        ],
        "a11yReports": {
            "a--b": [
                {
                    "violations": [
                        {
                            "id": "button-name",
                            "description": "Buttons must have discernible text",
                            "nodes": [{"impact": "critical", "html": "<button></button>"}],
                        }
                    ],
                    "passes": [],
                }
            ],
            "a--c": [{"error": {"message": "axe crashed"}}],
        },
        "unhandledErrors": [{"name": "TypeError", "message": "x is not a function"}],
    },
}

D2_COMPACT = (
    "## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n- a--c\n\n"
    "## Accessibility Violations\n\n- a--b - button-name\n\n## Unhandled Errors\n\n- TypeError"
)


# --------------------------------------------------------------------------------------------
# §9.3 D1–D7


def test_d1_passing_only() -> None:
    expected = "## Passing Stories\n\n- reviews-reviewcard--default\n- reviews-reviewcard--with-report-action"
    assert render_test_run_json_output(pretty(D1)) == expected
    report = parse_story_test_report(pretty(D1))
    assert report == StoryTestReport(
        "completed",
        passing=("reviews-reviewcard--default", "reviews-reviewcard--with-report-action"),
    )
    assert report.passed
    assert render_story_test_report(report, style="compact") == expected


def test_d2_compact() -> None:
    assert render_test_run_json_output(pretty(D2)) == D2_COMPACT
    report = parse_story_test_report(pretty(D2))
    assert render_story_test_report(report, style="compact") == D2_COMPACT


def test_d2_model() -> None:
    report = parse_story_test_report(pretty(D2))
    assert report == StoryTestReport(
        "completed",
        passing=("a--b",),
        failing=(FailingStory("a--c", "expected 1 to be 2"),),
        a11y_violations=(
            A11yViolation(
                "a--b",
                "button-name",
                "Buttons must have discernible text",
                "critical",
                (A11yNode(impact="critical", html="<button></button>"),),
            ),
        ),
        a11y_errors=(A11yCheckError("a--c", "axe crashed"),),
        unhandled_errors=(UnhandledError(name="TypeError", message="x is not a function"),),
    )
    assert not report.passed
    assert report.failing_ids == ("a--c",)


def test_d2_full() -> None:
    full = render_story_test_report(parse_story_test_report(pretty(D2)), style="full")
    for part in (
        "## Failing Stories\n\n### a--c\n\nexpected 1 to be 2",
        "## Accessibility Violations\n\n### a--b - button-name\n\nButtons must have discernible text",
        "### a--c - Error\n\naxe crashed",
        "## Unhandled Errors\n\n### TypeError\n\n**Error message**: x is not a function",
    ):
        assert part in full


def test_d2_full_golden() -> None:
    full = render_story_test_report(parse_story_test_report(pretty(D2)))
    assert full == (
        "## Passing Stories\n"
        "\n"
        "- a--b\n"
        "\n"
        "## Failing Stories\n"
        "\n"
        "### a--c\n"
        "\n"
        "expected 1 to be 2\n"
        "\n"
        "## Accessibility Violations\n"
        "\n"
        "### a--b - button-name\n"
        "\n"
        "Buttons must have discernible text\n"
        "\n"
        "#### Affected Elements\n"
        "- **Impact**: critical\n"
        "  **Element**: <button></button>\n"
        "\n"
        "### a--c - Error\n"
        "\n"
        "axe crashed\n"
        "\n"
        "## Unhandled Errors\n"
        "\n"
        "### TypeError\n"
        "\n"
        "**Error message**: x is not a function\n"
        "**Path**: No path available\n"
        "**Test name**: No test name available\n"
        "**Stack trace**:\n"
        "No stack trace available"
    )


def test_d3_a11y_off_hides_violations() -> None:
    doc = {
        "status": "completed",
        "a11y": False,
        "result": {
            "componentTestStatuses": [status("a--b", SUCCESS)],
            "a11yReports": D2["result"]["a11yReports"],  # type: ignore[index]
            "unhandledErrors": [],
        },
    }
    assert render_test_run_json_output(pretty(doc)) == "## Passing Stories\n\n- a--b"
    report = parse_story_test_report(pretty(doc))
    assert report.a11y_violations == () and report.a11y_errors == ()
    assert report.passing == ("a--b",)


def test_d4_npm_warn_before_and_output_written_after() -> None:
    doc = {"status": "completed", "a11y": True, "result": {"componentTestStatuses": [status("a--b", SUCCESS)]}}
    output = (
        "npm warn exec The following package was not found and will be installed: storybook@10.3.0\n"
        + pretty(doc)
        + "Output written to /tmp/run.json\n"
    )
    assert render_test_run_json_output(output) == "## Passing Stories\n\n- a--b"
    assert parse_story_test_report(output) == StoryTestReport("completed", passing=("a--b",))


def test_d5_no_stories() -> None:
    doc = {"status": "no-stories", "notFoundMessages": ["No story with id a--b"]}
    assert render_test_run_json_output(pretty(doc)) == "No stories found matching the provided input."
    report = parse_story_test_report(pretty(doc))
    assert report == StoryTestReport("no-stories", not_found_messages=("No story with id a--b",))
    assert render_story_test_report(report, style="compact") == "No stories found matching the provided input."
    full = render_story_test_report(report, style="full")
    assert full == "No stories found matching the provided input.\n\nNo story with id a--b"
    assert parse_story_test_report(full) == report


@pytest.mark.parametrize(
    ("doc", "full", "report"),
    [
        (
            {"status": "error", "error": {"message": "dev server unreachable"}},
            "Error: dev server unreachable",
            StoryTestReport("error", error_message="dev server unreachable"),
        ),
        ({"status": "cancelled"}, "Error: Test run was cancelled", StoryTestReport("cancelled")),
    ],
)
def test_d6_error_and_cancelled(doc: dict[str, Any], full: str, report: StoryTestReport) -> None:
    assert render_test_run_json_output(pretty(doc)) is None  # compact: the raw JSON is kept
    assert parse_story_test_report(pretty(doc)) == report
    assert render_story_test_report(report, style="full") == full
    assert parse_story_test_report(full) == report


def test_d7_other_outputs_are_kept() -> None:
    assert render_test_run_json_output("## Passing Stories\n\n- a--b") is None
    review = pretty({"reviewUrl": "http://localhost:6006"})
    assert render_test_run_json_output(review) is None
    with pytest.raises(NotAStoryTestReport):
        parse_story_test_report(review)
    assert parse_story_test_report("## Passing Stories\n\n- a--b").passing == ("a--b",)


# --------------------------------------------------------------------------------------------
# renderTestRunJsonOutput details (§6.3)


def test_json_output_all_sections_empty_gives_empty_string() -> None:
    doc = {"status": "completed", "result": {"componentTestStatuses": []}}
    assert render_test_run_json_output(pretty(doc)) == ""


def test_json_output_missing_ids_print_as_empty_items() -> None:
    doc = {"status": "completed", "result": {"componentTestStatuses": [{"value": SUCCESS}], "unhandledErrors": [{}]}}
    assert render_test_run_json_output(pretty(doc)) == "## Passing Stories\n\n- \n\n## Unhandled Errors\n\n- "


@pytest.mark.parametrize(
    "text",
    [
        '{"status": "completed", "result": {}}',  # one line: the spec locator needs '{' alone
        "{\n  \"status\": \"completed\"\n}\n",  # no result object
        "{\n  \"status\": \"completed\",\n  \"result\": []\n}",
        "{\n  \"status\": \"running\"\n}",
        "[\n1\n]",
        "{\n  not json\n}",
        "{\n  \"status\": \"completed\", \"result\": {\"componentTestStatuses\": 3}\n}",
    ],
)
def test_json_output_keeps_raw_for_anything_else(text: str) -> None:
    assert render_test_run_json_output(text) is None


def test_json_output_crlf_and_a_later_closing_brace() -> None:
    doc = pretty({"status": "completed", "result": {"componentTestStatuses": [status("a--b", SUCCESS)]}})
    assert render_test_run_json_output(doc.replace("\n", "\r\n")) == "## Passing Stories\n\n- a--b"
    # the document ends at the LAST line that is exactly '}': a later one breaks the JSON
    assert render_test_run_json_output(doc + "log\n}\n") is None


# --------------------------------------------------------------------------------------------
# The --json document in the parser


def test_compact_one_line_json_with_noise() -> None:
    doc = {"status": "completed", "result": {"componentTestStatuses": [status("a--b", SUCCESS)]}}
    text = "npm warn exec x\n" + json.dumps(doc) + "\nOutput written to /tmp/run.json\n"
    assert parse_story_test_report(text).passing == ("a--b",)


def test_json_tolerates_extra_fields_and_reads_details() -> None:
    doc = {
        "status": "completed",
        "a11y": True,
        "extra": {"anything": [1, 2]},
        "result": {
            "componentTestStatuses": [
                status("a--c", ERROR, "AssertionError: expected 1 to be 2\n    at a.test.ts:3:7")
            ],
            "a11yReports": {
                "a--c": [
                    {
                        "violations": [
                            {
                                "id": "color-contrast",
                                "impact": "serious",
                                "description": "Elements must meet minimum contrast",
                                "nodes": [
                                    {"impact": "serious", "failureSummary": "Fix any", "html": "<p>", "linkPath": "/?path=/story/a--c"},
                                    {"impact": "minor", "html": ""},
                                ],
                                "helpUrl": "https://example",
                            }
                        ]
                    }
                ]
            },
            "unhandledErrors": [
                {"name": "", "message": "boom", "stack": "s", "VITEST_TEST_PATH": "p.ts", "VITEST_TEST_NAME": "t"}
            ],
            "componentTestCount": {"success": 0, "error": 1},
        },
    }
    report = parse_story_test_report(pretty(doc))
    assert report.failing == (
        FailingStory("a--c", "AssertionError: expected 1 to be 2", "    at a.test.ts:3:7"),
    )
    (violation,) = report.a11y_violations
    assert violation.impact == "serious"
    assert violation.nodes == (
        A11yNode("serious", "Fix any", "<p>", "/?path=/story/a--c"),
        A11yNode("minor", None, None, None),
    )
    assert report.unhandled_errors == (UnhandledError(None, "boom", "s", "p.ts", "t"),)


def test_json_with_wrong_types_is_a_clear_error() -> None:
    doc = {"status": "completed", "result": {"componentTestStatuses": [{"storyId": 7, "value": SUCCESS}]}}
    with pytest.raises(NotAStoryTestReport) as info:
        parse_story_test_report(pretty(doc))
    message = str(info.value)
    assert message.startswith("not a story-test report: expected a --json test-run document")
    assert "result.componentTestStatuses.0.storyId: Input should be a valid string" in message


def test_json_without_result_is_incomplete() -> None:
    report = parse_story_test_report('{"status": "completed"}')
    assert report.outcome == "completed" and not report.complete
    assert report.issues == ("the --json document has no 'result' object",)


# --------------------------------------------------------------------------------------------
# §6.1 formats: full markdown, newest formatter, non-completed outcomes

FULL = """\
## Passing Stories

- example-button--primary
- example-button--secondary

## Failing Stories

### example-input--default

AssertionError: expected 'a' to be 'b'
    at Input.stories.tsx:12:5

### example-card--dark

No failure details available.

## Accessibility Violations

### example-button--primary - color-contrast

Elements must meet minimum color contrast ratio thresholds

#### Affected Elements
- **Impact**: serious
  **Message**: Fix any of the following:
  Element has insufficient color contrast of 2.1
  **Element**: <button class="primary">Go</button>
  **Inspect**: http://localhost:6006/?path=/story/example-button--primary
- **Impact**: critical
  **Message**: Fix it
  **Element**: (no html available)

### example-card--dark - Error

axe crashed

## Unhandled Errors

### Unknown Error

**Error message**: No message available
**Path**: src/Card.stories.tsx
**Test name**: No test name available
**Stack trace**:
No stack trace available"""


def test_full_report_reads_every_field() -> None:
    report = parse_story_test_report(FULL)
    assert report.complete, report.issues
    assert report.passing == ("example-button--primary", "example-button--secondary")
    assert report.failing == (
        FailingStory(
            "example-input--default",
            "AssertionError: expected 'a' to be 'b'",
            "    at Input.stories.tsx:12:5",
        ),
        FailingStory("example-card--dark"),
    )
    assert report.a11y_violations == (
        A11yViolation(
            "example-button--primary",
            "color-contrast",
            "Elements must meet minimum color contrast ratio thresholds",
            "critical",
            (
                A11yNode(
                    "serious",
                    "Fix any of the following:\n  Element has insufficient color contrast of 2.1",
                    '<button class="primary">Go</button>',
                    "http://localhost:6006/?path=/story/example-button--primary",
                ),
                A11yNode("critical", "Fix it", None, None),
            ),
        ),
    )
    assert report.a11y_errors == (A11yCheckError("example-card--dark", "axe crashed"),)
    assert report.unhandled_errors == (UnhandledError(test_path="src/Card.stories.tsx"),)
    assert report.result_counts is None


def test_full_report_renders_back_byte_for_byte() -> None:
    assert render_story_test_report(parse_story_test_report(FULL)) == FULL


NEWEST = """\
## Passing Stories

- a--b

## Failing Stories

### a--c

expected 1 to be 2

The accessibility check failed; see Accessibility Violations below.

### a--d

The accessibility check failed; see Accessibility Violations below.

## Accessibility Violations

### a--c - button-name

Buttons must have discernible text

### a--d - Error

axe crashed

## Result

Failed: 1 component test failed, 2 accessibility checks failed.
Accessibility: 3 stories checked; 1 without violations; 0 with violations reported as warnings, which do not fail the run; 2 failing the run."""


def test_newest_formatter_result_and_a11y_move() -> None:
    report = parse_story_test_report(NEWEST)
    assert report.complete, report.issues
    assert report.failing == (
        FailingStory("a--c", "expected 1 to be 2", None, accessibility_failed=True),
        FailingStory("a--d", None, None, accessibility_failed=True),
    )
    assert report.result_counts == ResultCounts(
        verdict="failed",
        component_tests_failed=1,
        a11y_checks_failed=2,
        unhandled_errors=0,
        accessibility="checked",
        stories_checked=3,
        stories_without_violations=1,
        stories_with_warnings=0,
        stories_failing_accessibility=2,
    )
    assert not report.passed
    assert render_story_test_report(report) == NEWEST


@pytest.mark.parametrize(
    ("lines", "counts"),
    [
        (
            "Passed: 1 component test passed.\nAccessibility: 1 story checked, no violations.",
            ResultCounts("passed", 1, 0, 0, 0, "checked", 1, 1, 0, 0),
        ),
        (
            "Passed: 4 component tests passed.\nAccessibility: skipped (a11y: false).",
            ResultCounts("passed", 4, 0, 0, 0, "skipped"),
        ),
        (
            "No component tests ran.\nAccessibility: not checked.",
            ResultCounts("no-tests", accessibility="not-checked"),
        ),
        (
            "Failed: 2 unhandled errors.\nAccessibility: 5 stories checked, no violations.",
            ResultCounts("failed", None, 0, 0, 2, "checked", 5, 5, 0, 0),
        ),
        (
            ("Failed: 1 component test failed, 1 accessibility check failed, 1 unhandled error.\n"
            "Accessibility: 2 stories checked; 0 without violations; 1 with violations reported "
            "as warnings, which do not fail the run; 1 failing the run."),
            ResultCounts("failed", None, 1, 1, 1, "checked", 2, 0, 1, 1),
        ),
    ],
)
def test_result_lines(lines: str, counts: ResultCounts) -> None:
    listed = "## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n- a--c\n\n## Unhandled Errors\n\n- E\n- F"
    report = parse_story_test_report(f"{listed}\n\n## Result\n\n{lines}")
    assert report.result_counts == counts
    assert report.complete, report.issues
    assert render_story_test_report(report).endswith("\n\n## Result\n\n" + lines)


@pytest.mark.parametrize(
    ("text", "issue"),
    [
        (
            "## Result\n\nPassed: 3 component tests passed.\nAccessibility: not checked.",
            "'## Result' counts 3 passed component tests but the report lists no story (cut?)",
        ),
        (
            "## Unhandled Errors\n\n- E\n\n## Result\n\nFailed: 2 unhandled errors.\nAccessibility: not checked.",
            "'## Result' counts 2 unhandled errors but the report lists 1 (cut?)",
        ),
        (
            "## Failing Stories\n\n- a--c\n\n## Result\n\nFailed: 2 component tests failed.\nAccessibility: not checked.",
            "'## Result' counts 2 failing stories but the report lists 1 (cut?)",
        ),
    ],
)
def test_result_counts_reveal_a_cut(text: str, issue: str) -> None:
    report = parse_story_test_report(text)
    assert report.issues == (issue,)
    assert not report.complete


def test_result_lines_spelled_with_parentheses() -> None:
    text = (
        "## Result\n\nFailed: 1 component test(s) failed.\n"
        "Accessibility: 1 stor(y|ies) checked, no violations."
    )
    counts = parse_story_test_report(text).result_counts
    assert counts == ResultCounts("failed", None, 1, 0, 0, "checked", 1, 1, 0, 0)


@pytest.mark.parametrize(
    ("text", "report"),
    [
        (
            "No stories found matching the provided input.\n\nNo story with id a--b\nNo story with id c--d",
            StoryTestReport("no-stories", not_found_messages=("No story with id a--b", "No story with id c--d")),
        ),
        ("No stories found matching the provided input.\n\n", StoryTestReport("no-stories")),
        (
            "No stories were given, so no tests ran. Pass story IDs in `stories`, or omit it to run every story test.",
            StoryTestReport("no-stories"),
        ),
        ("Error: dev server unreachable\n", StoryTestReport("error", error_message="dev server unreachable")),
        ("npm warn exec x\nError: no Storybook found", StoryTestReport("error", error_message="no Storybook found")),
        ("Error: a\n  multi-line\nmessage", StoryTestReport("error", error_message="a\n  multi-line\nmessage")),
        ("Error: Test run was cancelled", StoryTestReport("cancelled")),
    ],
)
def test_non_completed_outcomes(text: str, report: StoryTestReport) -> None:
    assert parse_story_test_report(text) == report


def test_last_report_in_the_text_wins() -> None:
    text = "## Failing Stories\n\n- a--c\n\n## Passing Stories\n\n- a--b"
    assert parse_story_test_report(text) == StoryTestReport("completed", passing=("a--b",))
    text = "## Passing Stories\n\n- a--b\n\nNo stories found matching the provided input."
    assert parse_story_test_report(text).outcome == "no-stories"
    text = "No stories found matching the provided input.\n## Passing Stories\n\n- a--b"
    assert parse_story_test_report(text).outcome == "completed"


def test_noise_before_and_after_a_report() -> None:
    text = "src/a.ts: ok\nlint passed\n\n## Passing Stories\n\n- a--b\n\nEXIT: 0\n"
    report = parse_story_test_report(text)
    assert report == StoryTestReport("completed", passing=("a--b",))


def test_byte_order_mark_is_ignored() -> None:
    assert parse_story_test_report("\ufeff## Passing Stories\n\n- a--b").passing == ("a--b",)


def test_crlf_report() -> None:
    assert parse_story_test_report(FULL.replace("\n", "\r\n")) == parse_story_test_report(FULL)


# --------------------------------------------------------------------------------------------
# Fragments: parse what is there, mark the report incomplete, never guess


@pytest.mark.parametrize(
    ("text", "passing", "failing", "issues"),
    [
        (  # B17: a failing story without its text
            "## Failing Stories\n\n### example-button--primary",
            (),
            ("example-button--primary",),
            [
                "line 3: '### example-button--primary' is not followed by a blank line (lines filtered out?)",
                "line 3: '### example-button--primary' has no failure text (cut?)",
            ],
        ),
        (  # tail: the list starts before the first heading left in the text
            "- a--b\n- a--c\n\n## Failing Stories\n\n- a--d",
            (),
            ("a--d",),
            [
                ("line 1: '- a--b' before the first heading belongs to a section whose heading is "
                "missing (cut by tail/grep?)")
            ],
        ),
        (  # grep '##\\|- ': blank lines gone
            "## Passing Stories\n- a--b\n## Failing Stories\n- a--c",
            ("a--b",),
            ("a--c",),
            [
                "line 1: '## Passing Stories' is not followed by a blank line (lines filtered out?)",
                "line 3: '## Failing Stories' is not followed by a blank line (lines filtered out?)",
            ],
        ),
        (  # grep -v removed the '## Failing Stories' heading of a compact report
            "## Passing Stories\n\n- a--b\n\n- a--c",
            ("a--b",),
            (),
            [
                ("line 5: '## Passing Stories': list item '- a--c' after the list ended (the "
                "heading of its section is missing?)")
            ],
        ),
        (  # a heading without entries
            "## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n",
            ("a--b",),
            (),
            ["line 5: '## Failing Stories' has no entries"],
        ),
        (  # tail cut inside the failing blocks
            "    at x.ts:1:1\n\n### a--d\n\nboom\n\n## Unhandled Errors\n\n- TypeError",
            (),
            (),
            [
                ("line 1: '    at x.ts:1:1' before the first heading belongs to a section whose "
                "heading is missing (cut by tail/grep?)")
            ],
        ),
        (  # a11y-moved stories without the closing Result: the end was cut
            "## Failing Stories\n\n### a--d\n\n" + ACCESSIBILITY_FAILED_TEXT,
            (),
            ("a--d",),
            [
                ("the newest formatter's accessibility failures are listed but its closing "
                "'## Result' section is missing (the end was cut?)")
            ],
        ),
    ],
)
def test_fragments(text: str, passing: tuple[str, ...], failing: tuple[str, ...], issues: list[str]) -> None:
    report = parse_story_test_report(text)
    assert report.passing == passing
    assert report.failing_ids == failing
    assert list(report.issues) == issues
    assert report.complete is False


def test_fragment_of_unhandled_error_and_result() -> None:
    text = "## Unhandled Errors\n\n### TypeError\n\n**Error message**: x\n\n## Result\n\nPassed: 1 component test passed."
    report = parse_story_test_report(text)
    assert report.unhandled_errors == (UnhandledError("TypeError", "x"),)
    assert report.result_counts == ResultCounts("passed", 1, 0, 0, 0)
    assert report.issues == (
        "line 3: '### TypeError' has no '**Path**:', '**Test name**:', '**Stack trace**:' line (cut?)",
        "line 7: '## Result' has no 'Accessibility:' line",
        "'## Result' counts 1 passed component tests but the report lists no story (cut?)",
    )


def test_missing_heading_does_not_move_blocks_between_sections() -> None:
    """Without '## Unhandled Errors' its block is not read as a failing story."""
    text = (
        "## Failing Stories\n\n### a--c\n\nboom\n\n"
        "### TypeError\n\n**Error message**: x\n**Path**: p\n**Test name**: t\n**Stack trace**:\ns"
    )
    report = parse_story_test_report(text)
    assert report.failing_ids == ("a--c",)
    assert report.unhandled_errors == ()
    assert not report.complete


# --------------------------------------------------------------------------------------------
# Not a report


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("", "empty text"),
        ("  \n", "only whitespace"),
        ("lint ok", "1 line starting with 'lint ok'"),
        ("exit-check-done\nmore", "2 lines starting with 'exit-check-done'"),
        ("exit-check-done\nmore\n", "2 lines starting with 'exit-check-done'"),
        ("Test run was cancelled", "1 line starting with 'Test run was cancelled'"),
        ("- a--b\n- a--c", "2 lines starting with '- a--b'"),  # a list without any heading
        ("## Summary\n\n- a--b", "3 lines starting with '## Summary'"),
        ("build\nError: later", "2 lines starting with 'build'"),
    ],
)
def test_not_a_report(text: str, found: str) -> None:
    with pytest.raises(NotAStoryTestReport) as info:
        parse_story_test_report(text)
    assert str(info.value) == (
        "not a story-test report: expected the markdown of Storybook's test run (a '## Passing "
        "Stories', '## Failing Stories', '## Accessibility Violations', '## Unhandled Errors' or "
        "'## Result' heading), 'No stories found matching the provided input.', 'Error: "
        "<message>', or the --json document (an object with \"status\": completed, no-stories, "
        f"error or cancelled); found {found}"
    )
    assert info.value.found == found
    assert find_story_test_report(text) is None


def test_not_a_report_is_a_value_error_and_an_agenteval_error() -> None:
    assert issubclass(NotAStoryTestReport, ValueError)
    assert issubclass(NotAStoryTestReport, AgentEvalError)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(TypeError, match="expected a str, got bytes"):
        parse_story_test_report(b"## Passing Stories")  # type: ignore[arg-type]


def test_find_returns_the_report() -> None:
    assert find_story_test_report("## Passing Stories\n\n- a--b") == StoryTestReport("completed", passing=("a--b",))


# --------------------------------------------------------------------------------------------
# §9.1 B16–B24: how reports appear in results, and the final-report choice


@attrs.frozen
class Out:
    output: str
    is_error: bool = False


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("## Passing Stories\n\n- example-button--primary", StoryTestReport("completed", passing=("example-button--primary",))),  # B16
        ("## Passing Stories\n\n- a--b", StoryTestReport("completed", passing=("a--b",))),  # B19
    ],
)
def test_b16_b19_outputs(output: str, expected: StoryTestReport) -> None:
    assert parse_story_test_report(output) == expected


def test_b20_codex_output_is_a_fragment() -> None:
    report = parse_story_test_report("## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n### a--c")
    assert report.passing == ("a--b",) and report.failing_ids == ("a--c",)
    assert not report.complete


def test_b18_b21_are_no_reports() -> None:
    assert find_story_test_report("Test run was cancelled") is None
    assert find_story_test_report("lint ok") is None


def test_markers() -> None:
    assert REPORT_MARKERS == (
        "## Passing Stories",
        "## Failing Stories",
        "## Accessibility Violations",
        "## Unhandled Errors",
        "No stories found matching",
    )


def test_b22_select_skips_fragments() -> None:
    first = Out("## Passing Stories\n\n- example-button--primary")
    results = [first, Out("exit-check-done"), Out("", is_error=True)]
    assert select_final_report(results) is first


def test_b23_select_later_real_report_wins() -> None:
    later = Out("## Failing Stories\n\n### a--c")
    assert select_final_report([Out("## Passing Stories\n\n- a--b"), later]) is later


def test_b24_select_fallback() -> None:
    only = Out("Error: dev server unreachable", is_error=True)
    assert select_final_report([only]) is only
    assert select_final_report([]) is None
    assert select_final_report(iter([only])) is only


def test_select_result_is_not_a_marker() -> None:
    marked = Out("No stories found matching the provided input.")
    assert select_final_report([marked, Out("## Result\n\nNo component tests ran.")]) is marked


# --------------------------------------------------------------------------------------------
# Round trip: model -> markdown -> model
#
# Limits of the format (what the strategies leave out, see docs/story-test-reports.md):
# story ids are Storybook ids (no whitespace, so '<story> - <rule>' splits); rule ids are not
# 'Error'; text lines do not start with '#', '-', '*' or a space (except stack-like '    at'
# lines), are not one of the formatter's placeholders or sentences, do not end in whitespace
# and hold no '{' or '}' (a JSON test-run document on a line of its own would win); a
# completed report lists something; '### <story> - <rule>' has a description.

ALPHABET = st.characters(
    codec="utf-8",
    categories=("L", "N", "P", "S", "Zs"),
    exclude_characters="{}\u2028\u2029\x85\r\n",
)
RESERVED = {
    _report.NO_FAILURE_DETAILS,
    _report.ACCESSIBILITY_FAILED_TEXT,
    _report.UNKNOWN_ERROR,
    "No message available",
    "No path available",
    "No test name available",
    "No stack trace available",
    "Test run was cancelled",
}

word = st.text(alphabet=st.characters(categories=("L", "N")), min_size=1, max_size=4)


@st.composite
def safe_line(draw: st.DrawFn) -> str:
    line = draw(word) + draw(st.text(alphabet=ALPHABET, max_size=20))
    line = line.rstrip()
    assume(line not in RESERVED and not line.startswith(("No stories", "Error:")))
    return line


@st.composite
def multi_line(draw: st.DrawFn) -> str:
    rest = draw(st.lists(st.one_of(safe_line(), safe_line().map(lambda s: "    at " + s), st.just("")), max_size=3))
    lines = [draw(safe_line()), *rest]
    while lines[-1] == "":
        lines.pop()
    return "\n".join(lines)


segment = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=5)
kebab = st.lists(segment, min_size=1, max_size=3).map("-".join)
story_id = st.builds(lambda a, b: f"{a}--{b}", kebab, kebab)
rule_id = kebab
optional_line = st.none() | safe_line()
error_name = st.none() | st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ", max_size=8).map(
    lambda s: s[:1].upper() + s[1:] + "Error"
)


@st.composite
def failing_story(draw: st.DrawFn) -> FailingStory:
    message = draw(optional_line)
    details = draw(st.none() | multi_line()) if message is not None else None
    return FailingStory(draw(story_id), message, details, draw(st.booleans()))


node = st.builds(
    A11yNode,
    impact=st.none() | st.sampled_from(_report.IMPACTS),
    message=st.none() | multi_line(),
    html=optional_line,
    inspect=optional_line,
)


@st.composite
def violation(draw: st.DrawFn) -> A11yViolation:
    nodes = tuple(draw(st.lists(node, max_size=3)))
    return A11yViolation(draw(story_id), draw(rule_id), draw(multi_line()), _report.most_severe_impact(nodes), nodes)


unhandled = st.builds(
    UnhandledError,
    name=error_name,
    message=st.none() | multi_line(),
    stack=st.none() | multi_line(),
    test_path=optional_line,
    test_name=optional_line,
)

count = st.integers(0, 500)


@st.composite
def result_counts(draw: st.DrawFn) -> ResultCounts:
    verdict = draw(st.sampled_from(["passed", "failed", "no-tests"]))
    values: dict[str, Any] = {"verdict": verdict}
    if verdict == "passed":
        values.update(component_tests_passed=draw(count), component_tests_failed=0, a11y_checks_failed=0, unhandled_errors=0)
    elif verdict == "failed":
        parts = draw(st.tuples(count, count, count).filter(any))
        values.update(component_tests_failed=parts[0], a11y_checks_failed=parts[1], unhandled_errors=parts[2])
    accessibility = draw(st.sampled_from(["skipped", "not-checked", "checked"]))
    values["accessibility"] = accessibility
    if accessibility == "checked":
        checked, warnings, failing = draw(count), draw(count), draw(count)
        without = checked if warnings == failing == 0 and draw(st.booleans()) else draw(count)
        values.update(
            stories_checked=checked,
            stories_without_violations=without,
            stories_with_warnings=warnings,
            stories_failing_accessibility=failing,
        )
    return ResultCounts(**values)


def small(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[Any, ...]]:
    return st.lists(strategy, max_size=3).map(tuple)


@st.composite
def completed_report(draw: st.DrawFn) -> StoryTestReport:
    report = StoryTestReport(
        "completed",
        passing=draw(small(story_id)),
        failing=draw(small(failing_story())),
        a11y_violations=draw(small(violation())),
        a11y_errors=draw(small(st.builds(A11yCheckError, story_id, multi_line()))),
        unhandled_errors=draw(small(unhandled)),
        result_counts=draw(st.none() | result_counts()),
    )
    counts = report.result_counts
    if counts is None:  # the a11y move belongs to the formatter that writes Result
        report = attrs.evolve(report, failing=tuple(attrs.evolve(f, accessibility_failed=False) for f in report.failing))
    else:  # counts the lists cannot contradict (more counted than listed means a cut)
        counts = attrs.evolve(
            counts,
            unhandled_errors=None if counts.unhandled_errors is None else min(counts.unhandled_errors, len(report.unhandled_errors)),
            component_tests_failed=None if counts.component_tests_failed is None else min(counts.component_tests_failed, len(report.failing)),
        )
        if counts.verdict == "failed" and not (counts.unhandled_errors or counts.component_tests_failed):
            counts = attrs.evolve(counts, a11y_checks_failed=counts.a11y_checks_failed or 1)
        if counts.component_tests_passed and not report.passing and not report.failing:
            counts = attrs.evolve(counts, component_tests_passed=0)
        report = attrs.evolve(report, result_counts=counts)
    assume(render_story_test_report(report) != "")
    return report


full_report = st.one_of(
    completed_report(),
    st.builds(lambda m: StoryTestReport("no-stories", not_found_messages=tuple(m)), st.lists(safe_line(), max_size=3)),
    st.builds(lambda m: StoryTestReport("error", error_message=m), multi_line()),
    st.just(StoryTestReport("cancelled")),
)


@st.composite
def compact_report(draw: st.DrawFn) -> StoryTestReport:
    """A report with only what the compact form can hold."""
    outcome = draw(st.sampled_from(["completed", "no-stories", "error", "cancelled"]))
    if outcome == "error":
        return StoryTestReport("error", error_message=draw(multi_line()))
    if outcome != "completed":
        return StoryTestReport(outcome)
    report = StoryTestReport(
        "completed",
        passing=draw(small(story_id)),
        failing=draw(small(story_id.map(FailingStory))),
        a11y_violations=draw(small(st.builds(A11yViolation, story_id, rule_id))),
        unhandled_errors=draw(small(error_name.map(lambda n: UnhandledError(name=n)))),
    )
    assume(render_story_test_report(report, style="compact") != "")
    return report


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(full_report)
def test_round_trip_full(report: StoryTestReport) -> None:
    text = render_story_test_report(report, style="full")
    assert parse_story_test_report(text) == report


@settings(max_examples=100)
@given(compact_report())
def test_round_trip_compact(report: StoryTestReport) -> None:
    text = render_story_test_report(report, style="compact")
    assert parse_story_test_report(text) == report


@settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow])
@given(full_report)
def test_render_is_a_fixed_point(report: StoryTestReport) -> None:
    text = render_story_test_report(report)
    assert render_story_test_report(parse_story_test_report(text)) == text


def _ids(report: StoryTestReport) -> tuple[set[str], set[str], set[tuple[str, str]]]:
    return (
        set(report.passing),
        set(report.failing_ids),
        {(v.story_id, v.rule_id) for v in report.a11y_violations},
    )


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(completed_report(), st.data())
def test_fragments_never_invent_entries(report: StoryTestReport, data: st.DataObject) -> None:
    """tail/head cuts and grep -v deletions: what is read was in the report, in its section."""
    lines = render_story_test_report(report).split("\n")
    cut = data.draw(
        st.sampled_from(["tail", "head", "delete"]), label="cut"
    )
    if cut == "tail":
        fragment = lines[data.draw(st.integers(0, len(lines) - 1)) :]
    elif cut == "head":
        fragment = lines[: data.draw(st.integers(1, len(lines)))]
    else:
        drop = data.draw(st.integers(0, len(lines) - 1))
        fragment = lines[:drop] + lines[drop + 1 :]
    found = find_story_test_report("\n".join(fragment))
    if found is None:
        return
    passing, failing, violations = _ids(found)
    all_passing, all_failing, all_violations = _ids(report)
    assert passing <= all_passing
    assert failing <= all_failing
    assert violations <= all_violations
    if cut == "tail" and fragment[0].startswith("- ") and fragment != lines:
        assert not found.complete


@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from(
            ["## Passing Stories", "## Failing Stories", "## Unhandled Errors", "### a--b", "- x",
             "", "{", "}", "Error: e", "**Path**: p", "**Stack trace**:", "#### Affected Elements",
             "- **Impact**: x", "  **Element**: e", "## Result", "Passed: 1 component test passed.",
             "## Accessibility Violations", "### a--b - Error", " - ", "No stories found matching"]
        ),
        max_size=25,
    ).map("\n".join)
    | st.text()
)
def test_any_text_is_a_report_or_not_a_report(text: str) -> None:
    try:
        report = parse_story_test_report(text)
    except NotAStoryTestReport:
        return
    assert report.complete == (not report.issues)


@settings(max_examples=200)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5), lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from(["status", "result", "componentTestStatuses", "a11yReports", "violations", "nodes", "error", "message", "storyId", "value", "a11y", "unhandledErrors"]), c, max_size=4), max_leaves=20))
def test_any_json_document_is_a_report_or_not_a_report(doc: Any) -> None:
    if isinstance(doc, dict):
        doc.setdefault("status", "completed")
    text = json.dumps(doc, indent=2)
    render_test_run_json_output(text)  # never raises
    with contextlib.suppress(NotAStoryTestReport):
        parse_story_test_report(text)


# --------------------------------------------------------------------------------------------
# Linear time: count the Python calls made while parsing (no wall clock)


def _big_report(stories: int) -> str:
    failing = tuple(FailingStory(f"s{i}--f", "expected 1 to be 2", "    at x.ts:1:1") for i in range(stories))
    violations = tuple(
        A11yViolation(f"s{i}--v", "button-name", "Buttons", "critical", (A11yNode("critical", "Fix", "<b>", None),))
        for i in range(stories)
    )
    report = StoryTestReport(
        "completed",
        passing=tuple(f"s{i}--p" for i in range(stories)),
        failing=failing,
        a11y_violations=violations,
        unhandled_errors=tuple(UnhandledError(f"E{i}Error", "m", "s") for i in range(stories)),
    )
    return render_story_test_report(report)


def _count_calls(function: Callable[[], object]) -> int:
    calls = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(profile)
    try:
        function()
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("form", ["full", "compact", "json"])
def test_parse_work_grows_linearly(form: str) -> None:
    def text(stories: int) -> str:
        if form == "json":
            doc = {"status": "completed", "result": {"componentTestStatuses": [status(f"s{i}--p", SUCCESS) for i in range(stories)]}}
            return pretty(doc)
        report = parse_story_test_report(_big_report(stories))
        return render_story_test_report(report, style="full" if form == "full" else "compact")

    small_text, large_text = text(200), text(2000)
    small_calls = _count_calls(lambda: parse_story_test_report(small_text))
    large_calls = _count_calls(lambda: parse_story_test_report(large_text))
    ratio = large_calls / small_calls
    assert 8 <= ratio <= 11, (small_calls, large_calls)


# --------------------------------------------------------------------------------------------
# Through the workflow results of a raw transcript (spec §9.3 R(JL(doc)), §9.1 B16–B20)


def _jl(output: str, command: str = "npx storybook tools test run --input "
        "'{\"stories\":[{\"storyId\":\"reviews-reviewcard--default\"}]}' --json") -> str:
    item = {"id": "i1", "type": "command_execution", "command": command, "aggregated_output": output,
            "exit_code": 0, "status": "completed"}
    return json.dumps({"type": "item.completed", "item": item})


def _results(raw: str) -> list[Any]:
    from agenteval_assert.storybook._workflow import parse_workflow_tool_results

    return list(parse_workflow_tool_results(raw, "test-run", profile="C"))


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (D1, "## Passing Stories\n\n- reviews-reviewcard--default\n- reviews-reviewcard--with-report-action"),
        (D2, D2_COMPACT),
        ({"status": "no-stories", "notFoundMessages": ["No story with id a--b"]}, "No stories found matching the provided input."),
    ],
)
def test_d_cases_through_workflow_results(doc: dict[str, Any], expected: str) -> None:
    (result,) = _results(_jl(pretty(doc)))
    assert result.output == expected
    # the compact markdown and the document read into the same ids
    from_markdown, from_json = parse_story_test_report(result.output), parse_story_test_report(pretty(doc))
    assert from_markdown.passing == from_json.passing
    assert from_markdown.failing_ids == from_json.failing_ids
    assert [(v.story_id, v.rule_id) for v in from_markdown.a11y_violations] == [
        (v.story_id, v.rule_id) for v in from_json.a11y_violations
    ]
    assert [e.name for e in from_markdown.unhandled_errors] == [e.name for e in from_json.unhandled_errors]


def test_d4_through_workflow_results() -> None:
    doc = {"status": "completed", "a11y": True, "result": {"componentTestStatuses": [status("a--b", SUCCESS)]}}
    output = "npm warn exec … storybook@10.3.0\n" + pretty(doc) + "Output written to /tmp/run.json\n"
    command = "npx storybook tools test run --stories '[{\"storyId\":\"a--b\"}]' --json 2>&1"
    (result,) = _results(_jl(output, command))
    assert result.output == "## Passing Stories\n\n- a--b"
    assert parse_story_test_report(output) == parse_story_test_report(result.output)


def test_d6_d7_raw_output_is_kept_and_still_parses() -> None:
    raw = pretty({"status": "error", "error": {"message": "dev server unreachable"}})
    (result,) = _results(_jl(raw))
    assert result.output == raw
    assert parse_story_test_report(result.output) == StoryTestReport("error", error_message="dev server unreachable")
    (kept,) = _results(_jl("## Passing Stories\n\n- a--b"))
    assert kept.output == "## Passing Stories\n\n- a--b"


def _cu(tool_id: str, name: str, tool_input: dict[str, Any]) -> str:
    return json.dumps({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}]}})


def _cr(tool_id: str, content: Any, is_error: bool = False) -> str:
    return json.dumps({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": tool_id, "content": content, "is_error": is_error}]}})


def test_b16_b17_b18_claude_results_as_reports() -> None:
    raw = "\n".join([
        _cu("toolu_1", "mcp__storybook-dev-mcp__test-run", {}),
        _cu("toolu_2", "mcp__storybook-dev-mcp__stories-preview", {}),
        _cr("toolu_2", [{"type": "text", "text": "http://localhost:6006"}]),
        _cr("toolu_1", [{"type": "text", "text": "## Passing Stories\n\n- example-button--primary"}]),
        _cu("toolu_3", "Bash", {"command": "STORYBOOK_FEATURE_AI_CLI=1 npx storybook tools test run"}),
        _cr("toolu_3", "## Failing Stories\n\n### example-button--primary"),
        _cu("toolu_4", "Bash", {"command": "npx storybook tools test run | tail -3"}),
        _cr("toolu_4", "Test run was cancelled", True),
    ])
    results = _results(raw)
    assert [find_story_test_report(r.output) is not None for r in results] == [True, True, False]
    final = select_final_report(results)
    assert final is results[1]
    report = parse_story_test_report(final.output)
    assert report.failing_ids == ("example-button--primary",) and not report.complete


# --------------------------------------------------------------------------------------------
# docs/story-test-reports.md: its examples run, and its sample report reads whole

DOC = Path(__file__).resolve().parent.parent / "docs" / "story-test-reports.md"


def _blocks(fence: str, language: str) -> list[str]:
    blocks, current = [], None
    for line in DOC.read_text(encoding="utf-8").split("\n"):
        if current is None and line == fence + language:
            current = []
        elif current is not None and line == fence:
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_docs_python_examples_run() -> None:
    examples = _blocks("```", "python")
    assert len(examples) >= 4
    for source in examples:
        exec(compile(source, str(DOC), "exec"), {})  # noqa: S102 - our own docs, run as tests


def test_docs_sample_report_reads_whole_and_renders_back() -> None:
    (sample,) = _blocks("````", "markdown")
    report = parse_story_test_report(sample)
    assert report.complete, report.issues
    assert report.failing_ids == ("example-input--default",)
    assert report.result_counts is not None and report.result_counts.component_tests_failed == 1
    assert render_story_test_report(report) == sample
    (compact,) = _blocks("```", "markdown")
    (document,) = _blocks("```", "json")
    assert render_test_run_json_output(document) == compact
    assert parse_story_test_report(compact).failing_ids == parse_story_test_report(document).failing_ids


def test_a11y_flag_is_strict_about_types() -> None:
    with pytest.raises(NotAStoryTestReport, match="a11y: Input should be a valid boolean"):
        parse_story_test_report('{"status": "completed", "a11y": "no", "result": {}}')


@pytest.mark.parametrize("blank", ["\n", ""])
def test_issue_line_numbers_point_into_the_text(blank: str) -> None:
    text = f"## Unhandled Errors\n\n### E\n{blank}**Error message**: x\n**Error message**: y"
    issues = parse_story_test_report(text).issues
    repeated = 5 if blank == "" else 6
    assert f"line {repeated}: '**Error message**:' repeated or out of order" in issues
    assert text.split("\n")[repeated - 1] == "**Error message**: y"
