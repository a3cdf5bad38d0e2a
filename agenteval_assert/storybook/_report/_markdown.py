"""The markdown forms (full and compact): one pass over the ``##`` sections, then the ``###``
blocks, reading what is there and recording every sign of a cut in ``issues``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs

from ...markdown import Section, split_sections
from ._model import (
    A11Y,
    A11Y_NOT_CHECKED_TEXT,
    A11Y_SKIPPED_TEXT,
    ACCESSIBILITY_FAILED_TEXT,
    AFFECTED_ELEMENTS,
    FAILING,
    NO_FAILURE_DETAILS,
    NO_HTML,
    NO_TESTS_TEXT,
    NODE_FIELDS,
    PASSING,
    RESULT,
    SECTION_ORDER,
    STACK_LABEL,
    UNHANDLED,
    UNHANDLED_FIELDS,
    UNKNOWN_ERROR,
    A11yCheckError,
    A11yNode,
    A11yViolation,
    FailingStory,
    ResultCounts,
    StoryTestReport,
    UnhandledError,
    _split_text,
    most_severe_impact,
)


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
