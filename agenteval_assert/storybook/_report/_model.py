"""The story-test report as data: the formatter's vocabulary (headings, fixed texts), the
``StoryTestReport`` model and its parts, and the reference's choice of the final report.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, Protocol, TypeVar

import attrs

from ...exceptions import AgentEvalError

__all__ = [
    "ACCESSIBILITY_FAILED_TEXT",
    "REPORT_MARKERS",
    "A11yCheckError",
    "A11yNode",
    "A11yViolation",
    "FailingStory",
    "NotAStoryTestReport",
    "ResultCounts",
    "StoryTestReport",
    "UnhandledError",
    "select_final_report",
]

Outcome = Literal["completed", "no-stories", "error", "cancelled"]
Verdict = Literal["passed", "failed", "no-tests"]
A11yState = Literal["skipped", "not-checked", "checked"]
Style = Literal["full", "compact"]

OUTCOMES: tuple[str, ...] = ("completed", "no-stories", "error", "cancelled")

#: Substrings whose presence makes an output a story-test report for ``select_final_report``
#: (spec §5.5; ``## Result`` is deliberately not one of them).
REPORT_MARKERS: tuple[str, ...] = (
    "## Passing Stories",
    "## Failing Stories",
    "## Accessibility Violations",
    "## Unhandled Errors",
    "No stories found matching",
)

PASSING = "Passing Stories"
FAILING = "Failing Stories"
A11Y = "Accessibility Violations"
UNHANDLED = "Unhandled Errors"
RESULT = "Result"
#: The formatter's section order; a heading that goes back in this order starts another report.
SECTION_ORDER: dict[str, int] = {PASSING: 0, FAILING: 1, A11Y: 2, UNHANDLED: 3, RESULT: 4}

NO_STORIES_TEXT = "No stories found matching the provided input."
NO_STORIES_GIVEN_TEXT = (
    "No stories were given, so no tests ran. Pass story IDs in `stories`, "
    "or omit it to run every story test."
)
CANCELLED_TEXT = "Error: Test run was cancelled"
#: The newest formatter's entry for a story whose accessibility check failed the run.
ACCESSIBILITY_FAILED_TEXT = "The accessibility check failed; see Accessibility Violations below."
NO_FAILURE_DETAILS = "No failure details available."
NO_HTML = "(no html available)"
UNKNOWN_ERROR = "Unknown Error"
AFFECTED_ELEMENTS = "#### Affected Elements"
STACK_LABEL = "**Stack trace**:"
#: (label, placeholder written when the value is missing) of an unhandled error, in order.
UNHANDLED_FIELDS: tuple[tuple[str, str], ...] = (
    ("Error message", "No message available"),
    ("Path", "No path available"),
    ("Test name", "No test name available"),
)
NODE_FIELDS: tuple[str, ...] = ("Impact", "Message", "Element", "Inspect")
#: axe impacts, least to most severe.
IMPACTS: tuple[str, ...] = ("minor", "moderate", "serious", "critical")

SUCCESS = "status-value:success"
ERROR = "status-value:error"

EXPECTED = (
    "the markdown of Storybook's test run (a '## Passing Stories', "
    "'## Failing Stories', '## Accessibility Violations', '## Unhandled Errors' or '## Result' "
    "heading), 'No stories found matching the provided input.', 'Error: <message>', or the "
    "--json document (an object with \"status\": completed, no-stories, error or cancelled)"
)


class NotAStoryTestReport(AgentEvalError, ValueError):
    """The text holds no story-test report.

    Attributes:
        expected: what a report looks like.
        found: a short description of the text that was given.
    """

    def __init__(self, found: str, *, expected: str = EXPECTED) -> None:
        self.expected = expected
        self.found = found
        super().__init__(f"not a story-test report: expected {expected}; found {found}")


@attrs.frozen
class FailingStory:
    """A story listed under ``## Failing Stories``.

    Attributes:
        story_id: the Storybook story id (``reviews-reviewcard--default``).
        message: the first line of the failure text; ``None`` when the report has none (the
            compact form lists ids only; the full form writes ``No failure details available.``).
        details: the lines of the failure text after the first one, joined with ``"\\n"``
            (a stack or a diff), or ``None``.
        accessibility_failed: the newest formatter moved the story here because its
            accessibility check failed (``The accessibility check failed; see …``).
    """

    story_id: str
    message: str | None = None
    details: str | None = None
    accessibility_failed: bool = False

    @property
    def text(self) -> str | None:
        """The whole failure text (``message`` and ``details``), or ``None``."""
        if self.message is None:
            return None
        return self.message if self.details is None else f"{self.message}\n{self.details}"


@attrs.frozen
class A11yNode:
    """One affected element of an accessibility violation.

    Attributes:
        impact: the axe impact (``minor``, ``moderate``, ``serious``, ``critical``) or ``None``.
        message: axe's failure summary, or ``None``.
        html: the element's html, or ``None`` (``(no html available)``).
        inspect: the link to the element: ``origin + linkPath`` in markdown, ``linkPath`` in the
            ``--json`` document; ``None`` when absent.
    """

    impact: str | None = None
    message: str | None = None
    html: str | None = None
    inspect: str | None = None


def most_severe_impact(nodes: Iterable[A11yNode]) -> str | None:
    """The most severe of the nodes' axe impacts (axe's rule for a violation's impact)."""
    best = -1
    for node in nodes:
        if node.impact in IMPACTS:
            best = max(best, IMPACTS.index(node.impact))
    return IMPACTS[best] if best >= 0 else None


@attrs.frozen
class A11yViolation:
    """An accessibility violation: ``### <story_id> - <rule_id>``.

    Attributes:
        story_id: the story.
        rule_id: the axe rule (``button-name``, ``color-contrast``).
        description: the rule's description, ``None`` when the form has none (compact).
        impact: the violation's impact: the ``--json`` document's value, else the most severe
            impact of its nodes (axe's definition), ``None`` when neither is known.
        nodes: the affected elements.
    """

    story_id: str
    rule_id: str
    description: str | None = None
    impact: str | None = None
    nodes: tuple[A11yNode, ...] = ()


@attrs.frozen
class A11yCheckError:
    """An accessibility check that could not run: ``### <story_id> - Error``."""

    story_id: str
    message: str


@attrs.frozen
class UnhandledError:
    """An error outside any test: ``### <name>`` under ``## Unhandled Errors``.

    Every field is ``None`` when the report has no value for it (the formatter's placeholders
    ``Unknown Error``, ``No message available``… read as ``None``; the compact form has names only).
    """

    name: str | None = None
    message: str | None = None
    stack: str | None = None
    test_path: str | None = None
    test_name: str | None = None


@attrs.frozen
class ResultCounts:
    """The newest formatter's ``## Result`` section.

    Attributes:
        verdict: ``passed`` (``Passed: N component tests passed.``), ``failed``
            (``Failed: …``) or ``no-tests`` (``No component tests ran.``); ``None`` if missing.
        component_tests_passed: N of ``Passed:``; ``None`` for the other verdicts.
        component_tests_failed, a11y_checks_failed, unhandled_errors: the parts of
            ``Failed:`` (a part that is left out is 0), all 0 for ``Passed:``, ``None`` for
            ``No component tests ran.``.
        accessibility: ``skipped`` (``a11y: false``), ``not-checked`` or ``checked``; ``None``
            if the line is missing.
        stories_checked: the stories of a ``checked`` line (``N stories checked, no
            violations.`` gives N, and N, 0, 0 for the three below).
        stories_without_violations: of those, the stories without violations.
        stories_with_warnings: the stories whose violations are reported as warnings (they do
            not fail the run).
        stories_failing_accessibility: the stories whose violations fail the run.
    """

    verdict: Verdict | None = None
    component_tests_passed: int | None = None
    component_tests_failed: int | None = None
    a11y_checks_failed: int | None = None
    unhandled_errors: int | None = None
    accessibility: A11yState | None = None
    stories_checked: int | None = None
    stories_without_violations: int | None = None
    stories_with_warnings: int | None = None
    stories_failing_accessibility: int | None = None


@attrs.frozen
class StoryTestReport:
    """One story-test report, whatever form it was written in.

    Attributes:
        outcome: ``completed``, ``no-stories``, ``error`` or ``cancelled``.
        passing: ids of the passing stories, in report order.
        failing: the failing stories.
        a11y_violations: accessibility violations (only when accessibility checks were on).
        a11y_errors: accessibility checks that errored.
        unhandled_errors: errors outside the tests.
        result_counts: the ``## Result`` section, ``None`` when the report has none (older
            formatters, the compact form, the ``--json`` document).
        not_found_messages: the messages after ``No stories found matching the provided input.``
        error_message: the message of ``Error: <message>`` (``None`` for other outcomes).
        complete: ``False`` when the text shows signs of having been cut (by ``grep``,
            ``tail``, ``head``): then ``issues`` says where. ``True`` means no sign was found,
            not that nothing could have been cut at the very end.
        issues: one ``line N: …`` sentence per sign of a cut, in text order.
    """

    outcome: Outcome
    passing: tuple[str, ...] = ()
    failing: tuple[FailingStory, ...] = ()
    a11y_violations: tuple[A11yViolation, ...] = ()
    a11y_errors: tuple[A11yCheckError, ...] = ()
    unhandled_errors: tuple[UnhandledError, ...] = ()
    result_counts: ResultCounts | None = None
    not_found_messages: tuple[str, ...] = ()
    error_message: str | None = None
    complete: bool = True
    issues: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        """The reference's verdict (spec §5.5): the run completed, reported passing stories,
        and no failing story and no unhandled error. Accessibility violations alone do not fail
        it. It says nothing about ``complete``: check that too when a fragment must not pass.
        """
        return (
            self.outcome == "completed"
            and bool(self.passing)
            and not self.failing
            and not self.unhandled_errors
        )

    @property
    def failing_ids(self) -> tuple[str, ...]:
        """The ids of the failing stories."""
        return tuple(story.story_id for story in self.failing)

    @property
    def story_ids(self) -> tuple[str, ...]:
        """Passing then failing story ids."""
        return self.passing + self.failing_ids


class HasOutput(Protocol):
    """Anything with the text output of a tool call (``WorkflowResult``, ...)."""

    @property
    def output(self) -> str: ...


R = TypeVar("R", bound=HasOutput)


def select_final_report(results: Iterable[R]) -> R | None:
    """The reference's final test-run report (``selectFinalRunStoryTestsReport``, spec §5.5).

    The **last** result whose ``output`` contains one of ``REPORT_MARKERS``; when none does, the
    last result; ``None`` for no results. ``is_error`` plays no part. The object itself is
    returned, so its other attributes (``is_error``, ``location``) stay at hand.
    """
    last: R | None = None
    marked: R | None = None
    for result in results:
        last = result
        output = result.output
        if isinstance(output, str) and any(marker in output for marker in REPORT_MARKERS):
            marked = result
    return marked if marked is not None else last


def _split_text(text: str | None) -> tuple[str | None, str | None]:
    if not text:
        return None, None
    first, sep, rest = text.partition("\n")
    return first, (rest if sep else None)


A11Y_SKIPPED_TEXT = "Accessibility: skipped (a11y: false)."
A11Y_NOT_CHECKED_TEXT = "Accessibility: not checked."
NO_TESTS_TEXT = "No component tests ran."
