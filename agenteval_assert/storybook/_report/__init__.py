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

from ._document import render_test_run_json_output
from ._model import A11Y as A11Y
from ._model import A11Y_NOT_CHECKED_TEXT as A11Y_NOT_CHECKED_TEXT
from ._model import A11Y_SKIPPED_TEXT as A11Y_SKIPPED_TEXT
from ._model import (
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
    select_final_report,
)
from ._model import AFFECTED_ELEMENTS as AFFECTED_ELEMENTS
from ._model import CANCELLED_TEXT as CANCELLED_TEXT
from ._model import ERROR as ERROR
from ._model import EXPECTED as EXPECTED
from ._model import FAILING as FAILING
from ._model import IMPACTS as IMPACTS
from ._model import NO_FAILURE_DETAILS as NO_FAILURE_DETAILS
from ._model import NO_HTML as NO_HTML
from ._model import NO_STORIES_GIVEN_TEXT as NO_STORIES_GIVEN_TEXT
from ._model import NO_STORIES_TEXT as NO_STORIES_TEXT
from ._model import NO_TESTS_TEXT as NO_TESTS_TEXT
from ._model import NODE_FIELDS as NODE_FIELDS
from ._model import OUTCOMES as OUTCOMES
from ._model import PASSING as PASSING
from ._model import RESULT as RESULT
from ._model import SECTION_ORDER as SECTION_ORDER
from ._model import STACK_LABEL as STACK_LABEL
from ._model import SUCCESS as SUCCESS
from ._model import UNHANDLED as UNHANDLED
from ._model import UNHANDLED_FIELDS as UNHANDLED_FIELDS
from ._model import UNKNOWN_ERROR as UNKNOWN_ERROR
from ._model import A11yState as A11yState
from ._model import HasOutput as HasOutput
from ._model import Outcome as Outcome
from ._model import R as R
from ._model import Style as Style
from ._model import Verdict as Verdict
from ._model import most_severe_impact as most_severe_impact
from ._parse import find_story_test_report, parse_story_test_report
from ._render import render_story_test_report

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
