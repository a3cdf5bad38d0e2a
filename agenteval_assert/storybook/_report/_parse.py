"""The entry points: which form a text holds (the ``--json`` document, a markdown report,
``No stories found…``, ``Error: …``) and the report read from it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ...markdown import split_lines
from ._document import _report_from_document, _test_run_record
from ._markdown import _markdown_report
from ._model import (
    CANCELLED_TEXT,
    NO_STORIES_GIVEN_TEXT,
    NO_STORIES_TEXT,
    NotAStoryTestReport,
    StoryTestReport,
)

__all__ = [
    "find_story_test_report",
    "parse_story_test_report",
]


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
        except RecursionError:
            described += "; it looks like a --json document but is nested too deeply to read"
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
