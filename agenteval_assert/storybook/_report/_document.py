"""The ``--json`` test-run document (pydantic: tolerant of extra fields, strict about the types it
reads): finding it in a tool output, reading it into a ``StoryTestReport``, and rendering it as
the compact markdown that test-utils prints.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr

from ...markdown import split_lines
from ._model import (
    A11Y,
    ERROR,
    FAILING,
    NO_STORIES_TEXT,
    OUTCOMES,
    PASSING,
    SUCCESS,
    UNHANDLED,
    A11yCheckError,
    A11yNode,
    A11yViolation,
    FailingStory,
    NotAStoryTestReport,
    StoryTestReport,
    UnhandledError,
    _split_text,
    most_severe_impact,
)

__all__ = [
    "render_test_run_json_output",
]


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
