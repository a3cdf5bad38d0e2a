"""Rendering a ``StoryTestReport`` back in the formatter's markdown (full or compact), so that
model → markdown → model is the identity.
"""

from __future__ import annotations

from ._model import (
    A11Y,
    A11Y_NOT_CHECKED_TEXT,
    A11Y_SKIPPED_TEXT,
    ACCESSIBILITY_FAILED_TEXT,
    AFFECTED_ELEMENTS,
    CANCELLED_TEXT,
    FAILING,
    NO_FAILURE_DETAILS,
    NO_HTML,
    NO_STORIES_TEXT,
    NO_TESTS_TEXT,
    PASSING,
    RESULT,
    STACK_LABEL,
    UNHANDLED,
    UNHANDLED_FIELDS,
    UNKNOWN_ERROR,
    A11yNode,
    A11yViolation,
    FailingStory,
    ResultCounts,
    StoryTestReport,
    Style,
    UnhandledError,
)

__all__ = [
    "render_story_test_report",
]


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
