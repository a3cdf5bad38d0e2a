"""Storybook story-test reports as typed data (spec §5.5, §6).

Storybook's story tests (the ``test-run`` MCP tool, ``storybook tools test run``,
``storybook ai run-story-tests``) print one report, written by the core formatter in one of its
forms:

* the **full** markdown form: ``## Passing Stories`` (a list), ``## Failing Stories``,
  ``## Accessibility Violations`` and ``## Unhandled Errors`` (``### …`` blocks with the details),
  and in the newest formatter a closing ``## Result`` section;
* the **compact** markdown form that test-utils renders from the ``--json`` document: the same
  four headings, each with a plain list (story ids, ``<story> - <rule>``, error names);
* the ``--json`` document itself (pretty or on one line, with ``npm warn …`` lines before it and
  ``Output written to …`` after it);
* the non-completed outcomes: ``No stories found matching the provided input.`` (+ messages),
  ``Error: <message>``, ``Error: Test run was cancelled``.

``parse_story_test_report`` reads any of them into one ``StoryTestReport``;
``render_story_test_report`` writes a report back in the formatter's format, so that
model → markdown → model is the identity (see ``docs/story-test-reports.md`` for the limits).

Agents often pipe the output through ``grep`` or ``tail``. The parser reads what is there, never
guesses what is missing, and sets ``complete=False`` with one line in ``issues`` per sign of a
cut it found (lines before the first heading that belong to a section, an empty section, a
heading without the blank line the formatter always writes, a ``### …`` block without its
text, an unhandled error without its fields, ...).

The parser works line by line in one pass per level (sections, then ``###`` blocks); it uses no
regular expression on more than one line, so its time is linear in the size of the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, Literal, Protocol, TypeVar

import attrs
import pydantic
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr

from ..exceptions import AgentEvalError
from ..markdown import Section, split_lines, split_sections

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
    "find_story_test_report",
    "parse_story_test_report",
    "render_story_test_report",
    "render_test_run_json_output",
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


# --------------------------------------------------------------------------------------------
# The model


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


# --------------------------------------------------------------------------------------------
# Final-report choice


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


# --------------------------------------------------------------------------------------------
# The --json document (pydantic: tolerant of extra fields, strict about the types it reads)


class _Doc(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class _Status(_Doc):
    storyId: StrictStr | None = None
    value: StrictStr | None = None
    description: StrictStr | None = None


class _Node(_Doc):
    impact: StrictStr | None = None
    failureSummary: StrictStr | None = None
    html: StrictStr | None = None
    linkPath: StrictStr | None = None


class _Violation(_Doc):
    id: StrictStr | None = None
    description: StrictStr | None = None
    impact: StrictStr | None = None
    nodes: list[_Node] | None = None


class _ErrorMessage(_Doc):
    message: StrictStr | None = None


class _A11yReport(_Doc):
    violations: list[_Violation] | None = None
    error: _ErrorMessage | None = None


class _Unhandled(_Doc):
    name: StrictStr | None = None
    message: StrictStr | None = None
    stack: StrictStr | None = None
    VITEST_TEST_PATH: StrictStr | None = None
    VITEST_TEST_NAME: StrictStr | None = None


class _Count(_Doc):
    success: StrictInt | None = None
    error: StrictInt | None = None


class _Result(_Doc):
    componentTestStatuses: list[_Status] | None = None
    a11yStatuses: list[_Status] | None = None
    a11yReports: dict[str, list[_A11yReport]] | None = None
    unhandledErrors: list[_Unhandled] | None = None
    componentTestCount: _Count | None = None


class _TestRunDocument(_Doc):
    status: Literal["completed", "no-stories", "error", "cancelled"]
    a11y: StrictBool | None = None
    result: _Result | None = None
    notFoundMessages: list[StrictStr] | None = None
    error: _ErrorMessage | None = None


def _loads(text: str) -> Any:
    """``json.loads`` with JavaScript's ``JSON.parse`` limits (no NaN/Infinity); None on error."""

    def reject(constant: str) -> Any:
        raise ValueError(constant)

    try:
        return json.loads(text, parse_constant=reject)
    except (ValueError, RecursionError):
        return None


_JS_LINE_BREAK = re.compile("[\n\r\u2028\u2029]")


def _spec_json_span(text: str) -> str | None:
    """The text matched by ``/^\\{$[\\s\\S]*^\\}$/m`` (spec §6.3), found in one pass.

    JavaScript's multiline ``^``/``$`` treat ``\\n``, ``\\r``, U+2028 and U+2029 as line breaks.
    """
    first: int | None = None
    last_end: int | None = None
    start = 0
    for match in _JS_LINE_BREAK.finditer(text + "\n"):
        end = match.start()
        if end - start == 1:  # only one-character lines can be '{' or '}'
            char = text[start]
            if char == "{" and first is None:
                first = start
            elif char == "}" and first is not None:
                last_end = end
        start = match.end()
    if first is None or last_end is None:
        return None
    return text[first:last_end]


def _test_run_record(text: str) -> dict[str, Any] | None:
    """A ``--json`` test-run document in *text*: pretty (spec locator), spanning lines, or on
    one line. ``None`` when there is none; only records with a known ``status`` count."""

    def usable(candidate: str | None) -> dict[str, Any] | None:
        if candidate is None:
            return None
        value = _loads(candidate)
        if isinstance(value, dict) and value.get("status") in OUTCOMES:
            return value
        return None

    if "{" not in text:
        return None
    found = usable(_spec_json_span(text))
    if found is not None:
        return found
    lines = split_lines(text)
    first = next((i for i, line in enumerate(lines) if line.lstrip().startswith("{")), None)
    if first is None:
        return None
    last = next(
        (i for i in range(len(lines) - 1, first - 1, -1) if lines[i].rstrip().endswith("}")), None
    )
    if last is None:
        return None
    found = usable("\n".join(lines[first : last + 1]))
    if found is not None:
        return found
    for i in range(last, first - 1, -1):  # a compact document on one line among other lines
        stripped = lines[i].strip()
        if stripped.startswith('{"') and stripped.endswith("}"):
            found = usable(stripped)
            if found is not None:
                return found
    return None


def _js_item(value: str | None) -> str:
    return "" if value is None else value


def render_test_run_json_output(text: str) -> str | None:
    """ΔC ``renderTestRunJsonOutput`` (spec §6.3): the compact markdown of a ``--json`` output.

    The document runs from the first line that is exactly ``{`` to the last line that is
    exactly ``}``, which skips the npm and logger lines around it. ``no-stories`` gives
    ``No stories found matching the provided input.`` (without the messages); ``completed`` with
    a ``result`` object gives the compact sections (``""`` when all are empty, which replaces
    the raw output). Anything else (no document, not an object, another status, a document
    whose fields have the wrong types) gives ``None``: keep the raw output.
    """
    span = _spec_json_span(text)
    if span is None:
        return None
    value = _loads(span)
    if not isinstance(value, dict):
        return None
    status = value.get("status")
    if status == "no-stories":
        return NO_STORIES_TEXT
    if status != "completed" or not isinstance(value.get("result"), dict):
        return None
    try:
        doc = _TestRunDocument.model_validate(value)
    except pydantic.ValidationError:
        return None
    result = doc.result
    if result is None:  # pragma: no cover - checked above
        return None
    statuses = result.componentTestStatuses or []
    sections: list[tuple[str, list[str]]] = [
        (PASSING, [_js_item(s.storyId) for s in statuses if s.value == SUCCESS]),
        (FAILING, [_js_item(s.storyId) for s in statuses if s.value == ERROR]),
    ]
    if doc.a11y is not False:
        sections.append(
            (
                A11Y,
                [
                    f"{story_id} - {_js_item(violation.id)}"
                    for story_id, reports in (result.a11yReports or {}).items()
                    for report in reports
                    for violation in report.violations or []
                ],
            )
        )
    sections.append((UNHANDLED, [_js_item(e.name) for e in result.unhandledErrors or []]))
    return "\n\n".join(
        f"## {heading}\n\n- " + "\n- ".join(items) for heading, items in sections if items
    )


def _split_text(text: str | None) -> tuple[str | None, str | None]:
    if not text:
        return None, None
    first, sep, rest = text.partition("\n")
    return first, (rest if sep else None)


def _or_none(value: str | None) -> str | None:
    return value if value else None


def _report_from_document(record: dict[str, Any]) -> StoryTestReport:
    try:
        doc = _TestRunDocument.model_validate(record)
    except pydantic.ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<document>'}: {err['msg']}"
            for err in exc.errors()[:5]
        )
        raise NotAStoryTestReport(
            f"a --json document with status {record.get('status')!r} whose fields do not have "
            f"the expected types ({problems})",
            expected="a --json test-run document: status, a11y (boolean), result "
            "{componentTestStatuses, a11yReports, unhandledErrors}, notFoundMessages, error",
        ) from None
    if doc.status == "no-stories":
        return StoryTestReport("no-stories", not_found_messages=tuple(doc.notFoundMessages or ()))
    if doc.status == "error":
        return StoryTestReport("error", error_message=doc.error.message if doc.error else None)
    if doc.status == "cancelled":
        return StoryTestReport("cancelled")
    result = doc.result
    if result is None:
        return StoryTestReport(
            "completed", complete=False, issues=("the --json document has no 'result' object",)
        )
    statuses = result.componentTestStatuses or []
    passing = tuple(s.storyId for s in statuses if s.value == SUCCESS and s.storyId)
    failing = tuple(
        FailingStory(s.storyId, *_split_text(s.description))
        for s in statuses
        if s.value == ERROR and s.storyId
    )
    violations: list[A11yViolation] = []
    a11y_errors: list[A11yCheckError] = []
    if doc.a11y is not False:
        for story_id, reports in (result.a11yReports or {}).items():
            for report in reports:
                for violation in report.violations or []:
                    nodes = tuple(
                        A11yNode(
                            impact=node.impact,
                            message=node.failureSummary,
                            html=_or_none(node.html),
                            inspect=node.linkPath,
                        )
                        for node in violation.nodes or []
                    )
                    violations.append(
                        A11yViolation(
                            story_id,
                            violation.id or "",
                            _or_none(violation.description),
                            violation.impact or most_severe_impact(nodes),
                            nodes,
                        )
                    )
                if report.error is not None:
                    a11y_errors.append(A11yCheckError(story_id, report.error.message or ""))
    unhandled = tuple(
        UnhandledError(
            name=_or_none(e.name),
            message=_or_none(e.message),
            stack=_or_none(e.stack),
            test_path=_or_none(e.VITEST_TEST_PATH),
            test_name=_or_none(e.VITEST_TEST_NAME),
        )
        for e in result.unhandledErrors or []
    )
    return StoryTestReport(
        "completed",
        passing=passing,
        failing=failing,
        a11y_violations=tuple(violations),
        a11y_errors=tuple(a11y_errors),
        unhandled_errors=unhandled,
    )


# --------------------------------------------------------------------------------------------
# Markdown


@attrs.define
class _Builder:
    passing: list[str] = attrs.Factory(list)
    failing: list[FailingStory] = attrs.Factory(list)
    violations: list[A11yViolation] = attrs.Factory(list)
    a11y_errors: list[A11yCheckError] = attrs.Factory(list)
    unhandled: list[UnhandledError] = attrs.Factory(list)
    counts: ResultCounts | None = None
    has_result: bool = False
    issues: list[str] = attrs.Factory(list)

    def _check_counts(self) -> None:
        """Compare ``## Result`` with the lists; only certain lower bounds count as a cut."""
        c = self.counts
        if c is None:
            return
        listed = (
            (c.unhandled_errors, len(self.unhandled), "unhandled errors"),
            (c.component_tests_failed, len(self.failing), "failing stories"),
        )
        for counted, found, what in listed:
            if counted is not None and counted > found:
                self.issues.append(
                    f"'## Result' counts {counted} {what} but the report lists {found} (cut?)"
                )
        if c.component_tests_passed and not self.passing and not self.failing:
            self.issues.append(
                f"'## Result' counts {c.component_tests_passed} passed component tests but the "
                "report lists no story (cut?)"
            )

    def issue(self, line: int, text: str) -> None:
        self.issues.append(f"line {line}: {text}")

    def report(self) -> StoryTestReport:
        if not self.has_result and any(f.accessibility_failed for f in self.failing):
            self.issues.append(
                "the newest formatter's accessibility failures are listed but its closing "
                "'## Result' section is missing (the end was cut?)"
            )
        self._check_counts()
        return StoryTestReport(
            "completed",
            passing=tuple(self.passing),
            failing=tuple(self.failing),
            a11y_violations=tuple(self.violations),
            a11y_errors=tuple(self.a11y_errors),
            unhandled_errors=tuple(self.unhandled),
            result_counts=self.counts,
            complete=not self.issues,
            issues=tuple(self.issues),
        )


#: Line starts that belong to a report section; before the first heading they mean a cut.
_REPORT_LINE_STARTS: tuple[str, ...] = (
    "- ",
    "### ",
    "#### ",
    "**Error message**",
    "**Path**",
    "**Test name**",
    "**Stack trace**",
    "  **",
    "Passed: ",
    "Failed: ",
    "No component tests ran.",
    "Accessibility: ",
    "    at ",
    NO_FAILURE_DETAILS,
    ACCESSIBILITY_FAILED_TEXT,
)


def _strip_trailing_blank(lines: Sequence[str]) -> Sequence[str]:
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def _body_line(block: Section) -> int:
    """The line number of ``_entry_body(block)[0]``: after the blank line, when there is one."""
    blank = bool(block.lines) and not block.lines[0].strip()
    return block.first_body_line + (1 if blank else 0)


def _entry_body(block: Section, what: str, b: _Builder) -> Sequence[str]:
    """The lines of a ``###`` block after the formatter's blank line, trailing blanks removed."""
    lines = block.lines
    if not lines or lines[0].strip():
        b.issue(block.line, f"{what} is not followed by a blank line (lines filtered out?)")
        body = lines
    else:
        body = lines[1:]
    return _strip_trailing_blank(body)


def _list_items(lines: Sequence[str], first_line: int, what: str, b: _Builder) -> list[str]:
    """The ``- item`` lines of a list.

    The formatter writes a list without blank lines, so an item after the list has ended
    belongs to a section whose heading is missing: it is reported and left out. Other text
    after the list (past a blank line) is ignored unless it looks like part of a report.
    """
    items: list[str] = []
    blank_since_item = False
    for offset, line in enumerate(lines):
        if line.startswith("- ") or line == "-":
            if items and blank_since_item:
                b.issue(
                    first_line + offset,
                    f"{what}: list item {line[:60]!r} after the list ended "
                    "(the heading of its section is missing?)",
                )
                continue
            items.append(line[2:])
            blank_since_item = False
        elif not line.strip():
            blank_since_item = True
        elif not items or not blank_since_item or line.startswith(_REPORT_LINE_STARTS):
            b.issue(first_line + offset, f"{what}: {line[:60]!r} is not a '- ' list item")
    return items


def _is_story_id(text: str) -> bool:
    """Storybook ids never hold whitespace (they are kebab-case ``title--name``)."""
    return bool(text) and " " not in text and "\t" not in text


def _story_ids(items: Sequence[str], section: Section, b: _Builder) -> list[str]:
    ids = []
    for item in items:
        if _is_story_id(item):
            ids.append(item)
        else:
            b.issue(section.line, f"'## {section.title}': {item[:60]!r} is not a story id")
    return ids


def _is_unhandled_block(body: Sequence[str]) -> bool:
    return bool(body) and body[0].startswith("**Error message**:")


def _check_blank_after_heading(section: Section, b: _Builder) -> None:
    if not section.lines or section.lines[0].strip():
        b.issue(
            section.line,
            f"'## {section.title}' is not followed by a blank line (lines filtered out?)",
        )


def _read_passing(section: Section, b: _Builder) -> None:
    _check_blank_after_heading(section, b)
    items = _list_items(section.lines, section.first_body_line, f"'## {PASSING}'", b)
    b.passing.extend(_story_ids(items, section, b))
    if not items:
        b.issue(section.line, f"'## {PASSING}' lists no stories")


def _blocks(section: Section, b: _Builder) -> tuple[list[str], list[Section]]:
    """Split a section into its leading ``- `` list (the compact form) and its ``###`` blocks."""
    _check_blank_after_heading(section, b)
    parts = split_sections(section.lines, level=3, fences=False, first_line=section.first_body_line)
    items: list[str] = []
    blocks: list[Section] = []
    for part in parts:
        if part.level == 0:
            items = _list_items(part.lines, part.line, f"'## {section.title}'", b)
        elif part.level == 3:
            blocks.append(part)
    if not items and not blocks:
        b.issue(section.line, f"'## {section.title}' has no entries")
    return items, blocks


def _read_failing(section: Section, b: _Builder) -> None:
    items, blocks = _blocks(section, b)
    b.failing.extend(FailingStory(story_id) for story_id in _story_ids(items, section, b))
    for block in blocks:
        body = list(_entry_body(block, f"'### {block.title}'", b))
        if not _is_story_id(block.title) or _is_unhandled_block(body):
            b.issue(
                block.line,
                f"'### {block.title}' is not a failing story (the heading of its section is "
                "missing?)",
            )
            continue
        a11y = False
        if body and body[-1] == ACCESSIBILITY_FAILED_TEXT:
            a11y = True
            body = list(_strip_trailing_blank(body[:-1]))
        if not body and not a11y:
            b.issue(block.line, f"'### {block.title}' has no failure text (cut?)")
        text = "\n".join(body)
        message, details = (None, None) if text == NO_FAILURE_DETAILS else _split_text(text)
        b.failing.append(FailingStory(block.title, message, details, a11y))


def _node_field(line: str) -> tuple[str, str] | None:
    if not line.startswith(("- **", "  **")):
        return None
    rest = line[2:]
    for label in NODE_FIELDS:
        head = f"**{label}**:"
        if rest.startswith(head):
            value = rest[len(head) :]
            if value.startswith(" "):
                return label, value[1:]
            if not value:
                return label, ""
    return None


def _read_nodes(lines: Sequence[str], first_line: int, b: _Builder) -> tuple[A11yNode, ...]:
    nodes: list[A11yNode] = []
    fields: dict[str, list[str]] | None = None
    field: str | None = None
    node_line = first_line
    last_index = -1

    def finish() -> None:
        if fields is None:
            return
        values = {k: "\n".join(_strip_trailing_blank(v)) for k, v in fields.items()}
        if "Element" not in values:
            b.issue(node_line, "an affected element has no '**Element**:' line (cut?)")
        html = values.get("Element")
        nodes.append(
            A11yNode(
                impact=values.get("Impact"),
                message=values.get("Message"),
                html=None if not html or html == NO_HTML else html,
                inspect=values.get("Inspect"),
            )
        )

    for offset, line in enumerate(lines):
        parsed = _node_field(line)
        if parsed is not None and (line.startswith("- ") or fields is not None):
            label, value = parsed
            index = NODE_FIELDS.index(label)
            if line.startswith("- ") or fields is None:
                finish()
                fields = {}
                node_line = first_line + offset
            elif index <= last_index:
                b.issue(first_line + offset, f"'**{label}**:' out of order in an affected element")
            fields[label] = [value]
            field = label
            last_index = index
        elif fields is not None and field is not None:
            fields[field].append(line)
        elif line.strip():
            b.issue(first_line + offset, f"{line[:60]!r} is not part of an affected element")
    finish()
    return tuple(nodes)


def _read_a11y(section: Section, b: _Builder) -> None:
    items, blocks = _blocks(section, b)
    for item in items:
        story_id, sep, rule_id = item.partition(" - ")
        if sep and _is_story_id(story_id):
            b.violations.append(A11yViolation(story_id, rule_id))
        else:
            b.issue(section.line, f"'## {A11Y}': {item[:60]!r} is not '<story> - <rule>'")
    for block in blocks:
        story_id, sep, rule_id = block.title.partition(" - ")
        body = _entry_body(block, f"'### {block.title}'", b)
        if not sep or not _is_story_id(story_id) or _is_unhandled_block(body):
            b.issue(
                block.line,
                f"'### {block.title}' is not '### <story> - <rule>' (the heading of its "
                "section is missing?)",
            )
            continue
        if rule_id == "Error":
            b.a11y_errors.append(A11yCheckError(story_id, "\n".join(body)))
            continue
        try:
            cut = list(body).index(AFFECTED_ELEMENTS)
        except ValueError:
            cut = len(body)
        description = "\n".join(_strip_trailing_blank(body[:cut])) or None
        first_body = _body_line(block)
        nodes = _read_nodes(body[cut + 1 :], first_body + cut + 1, b) if cut < len(body) else ()
        if cut < len(body) and not nodes:
            b.issue(block.line, f"'### {block.title}' lists no affected elements (cut?)")
        b.violations.append(
            A11yViolation(story_id, rule_id, description, most_severe_impact(nodes), nodes)
        )


def _placeholder(value: str, placeholder: str) -> str | None:
    return None if value == placeholder else value


def _read_unhandled(section: Section, b: _Builder) -> None:
    items, blocks = _blocks(section, b)
    for item in items:
        b.unhandled.append(UnhandledError(name=item or None))
    labels = [label for label, _ in UNHANDLED_FIELDS]
    for block in blocks:
        body = _entry_body(block, f"'### {block.title}'", b)
        values: dict[str, list[str]] = {}
        current: str | None = None
        stack: list[str] | None = None
        first_body = _body_line(block)
        for offset, line in enumerate(body):
            if stack is not None:
                stack.append(line)
                continue
            if line.rstrip() == STACK_LABEL:
                stack = []
                continue
            label = next((lb for lb in labels if line.startswith(f"**{lb}**: ")), None)
            if label is None:  # '**Path**:' whose trailing space was stripped
                label = next((lb for lb in labels if line == f"**{lb}**:"), None)
            if label is not None:
                if label in values or (values and labels.index(label) < labels.index(current or "")):
                    b.issue(first_body + offset, f"'**{label}**:' repeated or out of order")
                values[label] = [line[len(label) + 6 :]]
                current = label
            elif current is not None:
                values[current].append(line)
            elif line.strip():
                b.issue(first_body + offset, f"{line[:60]!r} is not a field of an unhandled error")
        if body and not values and stack is None:
            b.issue(
                block.line,
                f"'### {block.title}' is not an unhandled error (the heading of its section is "
                "missing?)",
            )
            continue
        missing = [f"'**{lb}**:'" for lb in labels if lb not in values]
        if stack is None:
            missing.append(f"'{STACK_LABEL}'")
        if missing:
            b.issue(block.line, f"'### {block.title}' has no {', '.join(missing)} line (cut?)")
        fields = {
            lb: _placeholder("\n".join(_strip_trailing_blank(values[lb])), placeholder)
            if lb in values
            else None
            for lb, placeholder in UNHANDLED_FIELDS
        }
        stack_text = "\n".join(_strip_trailing_blank(stack or []))
        b.unhandled.append(
            UnhandledError(
                name=_placeholder(block.title, UNKNOWN_ERROR) or None,
                message=fields["Error message"],
                stack=_placeholder(stack_text, "No stack trace available") or None,
                test_path=fields["Path"],
                test_name=fields["Test name"],
            )
        )


_TESTS = r"(?:tests?|test\(s\))"
_PASSED_RE = re.compile(rf"Passed: (\d+) component {_TESTS} passed\.")
_FAILED_PARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("component_tests_failed", re.compile(rf"(\d+) component {_TESTS} failed")),
    ("a11y_checks_failed", re.compile(r"(\d+) accessibility (?:checks?|check\(s\)) failed")),
    ("unhandled_errors", re.compile(r"(\d+) unhandled (?:errors?|error\(s\))")),
)
_STORIES = r"(?:story|stories|stor\(y\|ies\))"
_NO_VIOLATIONS_RE = re.compile(rf"Accessibility: (\d+) {_STORIES} checked, no violations\.")
_CHECKED_RE = re.compile(
    rf"Accessibility: (\d+) {_STORIES} checked; (\d+) without violations; (\d+) with violations "
    r"reported as warnings, which do not fail the run; (\d+) failing the run\."
)
A11Y_SKIPPED_TEXT = "Accessibility: skipped (a11y: false)."
A11Y_NOT_CHECKED_TEXT = "Accessibility: not checked."
NO_TESTS_TEXT = "No component tests ran."


def _verdict(line: str) -> dict[str, Any] | None:
    if line == NO_TESTS_TEXT:
        return {"verdict": "no-tests"}
    match = _PASSED_RE.fullmatch(line)
    if match:
        return {
            "verdict": "passed",
            "component_tests_passed": int(match[1]),
            "component_tests_failed": 0,
            "a11y_checks_failed": 0,
            "unhandled_errors": 0,
        }
    if not (line.startswith("Failed: ") and line.endswith(".")):
        return None
    values: dict[str, Any] = {
        "verdict": "failed",
        "component_tests_failed": 0,
        "a11y_checks_failed": 0,
        "unhandled_errors": 0,
    }
    for part in line[len("Failed: ") : -1].split(", "):
        for key, pattern in _FAILED_PARTS:
            match = pattern.fullmatch(part)
            if match:
                values[key] = int(match[1])
                break
        else:
            return None
    return values


def _accessibility(line: str) -> dict[str, Any] | None:
    if line == A11Y_SKIPPED_TEXT:
        return {"accessibility": "skipped"}
    if line == A11Y_NOT_CHECKED_TEXT:
        return {"accessibility": "not-checked"}
    match = _NO_VIOLATIONS_RE.fullmatch(line)
    if match:
        n = int(match[1])
        return {
            "accessibility": "checked",
            "stories_checked": n,
            "stories_without_violations": n,
            "stories_with_warnings": 0,
            "stories_failing_accessibility": 0,
        }
    match = _CHECKED_RE.fullmatch(line)
    if match:
        return {
            "accessibility": "checked",
            "stories_checked": int(match[1]),
            "stories_without_violations": int(match[2]),
            "stories_with_warnings": int(match[3]),
            "stories_failing_accessibility": int(match[4]),
        }
    return None


def _read_result(section: Section, b: _Builder) -> None:
    _check_blank_after_heading(section, b)
    b.has_result = True
    verdict: dict[str, Any] | None = None
    a11y: dict[str, Any] | None = None
    for offset, line in enumerate(section.lines):
        if not line.strip() or (verdict is not None and a11y is not None):
            continue  # text after the two lines is not part of the report
        if verdict is None and (parsed := _verdict(line)) is not None:
            verdict = parsed
        elif a11y is None and (parsed := _accessibility(line)) is not None:
            a11y = parsed
        else:
            b.issue(section.first_body_line + offset, f"'## {RESULT}': unrecognised line {line[:80]!r}")
    if verdict is None:
        b.issue(section.line, f"'## {RESULT}' has no verdict line (Passed/Failed/No component tests ran.)")
    if a11y is None:
        b.issue(section.line, f"'## {RESULT}' has no 'Accessibility:' line")
    if verdict is not None or a11y is not None:
        b.counts = ResultCounts(**(verdict or {}), **(a11y or {}))


_READERS = {
    PASSING: _read_passing,
    FAILING: _read_failing,
    A11Y: _read_a11y,
    UNHANDLED: _read_unhandled,
    RESULT: _read_result,
}


def _markdown_report(lines: Sequence[str]) -> tuple[int, StoryTestReport] | None:
    """The last completed-run report in *lines* and the index of its first heading."""
    sections = split_sections(lines, level=2, fences=False)
    start: int | None = None  # index in `sections` of the last report's first section
    last_order = -1
    for index, section in enumerate(sections):
        order = SECTION_ORDER.get(section.title) if section.level == 2 else None
        if order is None:
            continue
        if order <= last_order:
            start = None  # a heading going back in the formatter's order: another report
        if start is None:
            start = index
        last_order = order
    if start is None:
        return None
    b = _Builder()
    if start > 0 and all(SECTION_ORDER.get(s.title) is None for s in sections[:start]):
        before = sections[start - 1]  # text before the report: a cut leaves section lines there
        for offset, line in enumerate(before.lines):
            if line.startswith(_REPORT_LINE_STARTS):
                b.issue(
                    before.first_body_line + offset,
                    f"{line[:60]!r} before the first heading belongs to a section whose "
                    "heading is missing (cut by tail/grep?)",
                )
                break
    for section in sections[start:]:
        if section.level == 2 and section.title in _READERS:
            _READERS[section.title](section, b)
    return sections[start].line - 1, b.report()


def _is_npm_line(line: str) -> bool:
    return line.startswith("npm ") or not line.strip()


def _no_stories_report(lines: Sequence[str], start: int) -> StoryTestReport:
    if lines[start].startswith(NO_STORIES_GIVEN_TEXT):
        return StoryTestReport("no-stories")
    messages = tuple(line for line in lines[start + 1 :] if line.strip())
    return StoryTestReport("no-stories", not_found_messages=messages)


def _describe(text: str) -> str:
    stripped = text.strip()
    if not stripped:
        return "empty text" if not text else "only whitespace"
    first = stripped.split("\n", 1)[0]
    shown = first if len(first) <= 80 else first[:77] + "..."
    count = text.rstrip("\r\n").count("\n") + 1  # a final newline ends the last line
    described = f"{count} line{'s' if count != 1 else ''} starting with {shown!r}"
    if stripped.startswith("{"):
        # Text that looks like the --json document: say why it is not one (a cut document
        # is the usual case: `| head`, a killed process).
        try:
            json.loads(stripped)
        except json.JSONDecodeError as exc:
            described += f"; it looks like a --json document but is not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
    return described


def parse_story_test_report(text: str) -> StoryTestReport:
    """Read a story-test report in any of its forms (see the module docstring).

    A ``--json`` test-run document wins when the text holds one. Otherwise the last report in
    the text is read: a completed run (its ``##`` sections; a heading that goes back in the
    formatter's order starts a new report), or ``No stories found…``, whichever comes last;
    failing both, the text must start (after ``npm …`` lines) with ``Error: <message>``.

    Raises:
        NotAStoryTestReport: the text holds no report; the message says what was expected.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_story_test_report: expected a str, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")  # a byte-order mark from a file saved on Windows
    record = _test_run_record(text)
    if record is not None:
        return _report_from_document(record)
    lines = split_lines(text)
    markdown = _markdown_report(lines)
    no_stories = None
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if line.startswith((NO_STORIES_TEXT, NO_STORIES_GIVEN_TEXT)):
            no_stories = index
            break
    if no_stories is not None and (markdown is None or no_stories > markdown[0]):
        return _no_stories_report(lines, no_stories)
    if markdown is not None:
        return markdown[1]
    first = next((i for i, line in enumerate(lines) if not _is_npm_line(line)), None)
    if first is not None:
        rest = "\n".join(lines[first:]).rstrip()
        if rest == CANCELLED_TEXT:
            return StoryTestReport("cancelled")
        if rest.startswith("Error: ") or rest == "Error:":
            return StoryTestReport("error", error_message=rest[len("Error: ") :])
    raise NotAStoryTestReport(_describe(text))


def find_story_test_report(text: str) -> StoryTestReport | None:
    """Like ``parse_story_test_report``, but ``None`` when *text* holds no report.

    Use it on outputs that may or may not be a report (every test-run result of a transcript);
    ``parse_story_test_report`` for text that must be one.
    """
    try:
        return parse_story_test_report(text)
    except NotAStoryTestReport:
        return None


# --------------------------------------------------------------------------------------------
# Rendering


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _verdict_line(c: ResultCounts) -> str | None:
    if c.verdict == "no-tests":
        return NO_TESTS_TEXT
    if c.verdict == "passed":
        n = c.component_tests_passed or 0
        return f"Passed: {_plural(n, 'component test', 'component tests')} passed."
    if c.verdict == "failed":
        parts = []
        if c.component_tests_failed:
            n = c.component_tests_failed
            parts.append(f"{_plural(n, 'component test', 'component tests')} failed")
        if c.a11y_checks_failed:
            n = c.a11y_checks_failed
            parts.append(f"{_plural(n, 'accessibility check', 'accessibility checks')} failed")
        if c.unhandled_errors:
            parts.append(_plural(c.unhandled_errors, "unhandled error", "unhandled errors"))
        return f"Failed: {', '.join(parts)}."
    return None


def _accessibility_line(c: ResultCounts) -> str | None:
    if c.accessibility == "skipped":
        return A11Y_SKIPPED_TEXT
    if c.accessibility == "not-checked":
        return A11Y_NOT_CHECKED_TEXT
    if c.accessibility == "checked":
        checked = c.stories_checked or 0
        without = c.stories_without_violations or 0
        warnings = c.stories_with_warnings or 0
        failing = c.stories_failing_accessibility or 0
        stories = _plural(checked, "story", "stories")
        if warnings == 0 and failing == 0 and without == checked:
            return f"Accessibility: {stories} checked, no violations."
        return (
            f"Accessibility: {stories} checked; {without} without violations; {warnings} with "
            f"violations reported as warnings, which do not fail the run; {failing} failing the run."
        )
    return None


def _failing_block(story: FailingStory) -> str:
    parts = []
    if story.text is not None:
        parts.append(story.text)
    elif not story.accessibility_failed:
        parts.append(NO_FAILURE_DETAILS)
    if story.accessibility_failed:
        parts.append(ACCESSIBILITY_FAILED_TEXT)
    return f"### {story.story_id}\n\n" + "\n\n".join(parts)


def _node_lines(node: A11yNode) -> str:
    fields = []
    if node.impact is not None:
        fields.append(("Impact", node.impact))
    if node.message is not None:
        fields.append(("Message", node.message))
    fields.append(("Element", node.html or NO_HTML))
    if node.inspect is not None:
        fields.append(("Inspect", node.inspect))
    return "\n".join(
        f"{'- ' if i == 0 else '  '}**{label}**: {value}" for i, (label, value) in enumerate(fields)
    )


def _violation_block(v: A11yViolation) -> str:
    text = f"### {v.story_id} - {v.rule_id}"
    if v.description is not None:
        text += f"\n\n{v.description}"
    if v.nodes:
        text += f"\n\n{AFFECTED_ELEMENTS}\n" + "\n".join(_node_lines(n) for n in v.nodes)
    return text


def _unhandled_block(e: UnhandledError) -> str:
    values = (e.message, e.test_path, e.test_name)
    lines = [f"### {e.name or UNKNOWN_ERROR}", ""]
    for (label, placeholder), value in zip(UNHANDLED_FIELDS, values, strict=True):
        lines.append(f"**{label}**: {placeholder if value is None else value}")
    lines.append(STACK_LABEL)
    lines.append(e.stack or "No stack trace available")
    return "\n".join(lines)


def render_story_test_report(report: StoryTestReport, *, style: Style = "full") -> str:
    """*report* as the core formatter writes it (spec §6.1), or in the compact form (§6.3).

    ``full`` writes every detail the model holds (placeholders such as ``No failure details
    available.`` for ``None``) and the ``## Result`` section when ``result_counts`` is set.
    ``compact`` writes the four headings with plain lists (story ids, ``<story> - <rule>``,
    error names) and, for ``no-stories``, the sentence without the messages; it has no room for
    details, accessibility check errors or counts. ``error``/``cancelled`` read ``Error: …`` in
    both. A completed report with nothing to list renders as ``""``, as the older formatter's.
    """
    if style not in ("full", "compact"):
        raise ValueError(f"render_story_test_report: style must be 'full' or 'compact', got {style!r}")
    if report.outcome == "no-stories":
        if style == "compact" or not report.not_found_messages:
            return NO_STORIES_TEXT
        return NO_STORIES_TEXT + "\n\n" + "\n".join(report.not_found_messages)
    if report.outcome == "cancelled":
        return CANCELLED_TEXT
    if report.outcome == "error":
        return f"Error: {report.error_message or ''}"
    sections: list[str] = []
    if style == "compact":
        lists = (
            (PASSING, list(report.passing)),
            (FAILING, [s.story_id for s in report.failing]),
            (A11Y, [f"{v.story_id} - {v.rule_id}" for v in report.a11y_violations]),
            (UNHANDLED, [e.name or "" for e in report.unhandled_errors]),
        )
        return "\n\n".join(
            f"## {heading}\n\n- " + "\n- ".join(items) for heading, items in lists if items
        )
    if report.passing:
        sections.append(f"## {PASSING}\n\n" + "\n".join(f"- {s}" for s in report.passing))
    if report.failing:
        sections.append(f"## {FAILING}\n\n" + "\n\n".join(map(_failing_block, report.failing)))
    if report.a11y_violations or report.a11y_errors:
        blocks = [_violation_block(v) for v in report.a11y_violations]
        blocks += [f"### {e.story_id} - Error\n\n{e.message}" for e in report.a11y_errors]
        sections.append(f"## {A11Y}\n\n" + "\n\n".join(blocks))
    if report.unhandled_errors:
        blocks = [_unhandled_block(e) for e in report.unhandled_errors]
        sections.append(f"## {UNHANDLED}\n\n" + "\n\n".join(blocks))
    if report.result_counts is not None:
        lines = [_verdict_line(report.result_counts), _accessibility_line(report.result_counts)]
        sections.append(f"## {RESULT}\n\n" + "\n".join(line for line in lines if line is not None))
    return "\n\n".join(sections)
