"""``judge.md`` files: task, steps, pass criteria, ``{{VARIABLES}}``."""

from __future__ import annotations

from pathlib import Path

import pytest

from agenteval_assert.exceptions import UsageError
from agenteval_assert.judge import parse_judge_file, read_judge_file

from .conftest import SAMPLES

TEXT = """\
The agent was asked to add a dark-mode toggle to {{APP}}.

## Steps
- Open {{URL}} and find the settings page.
- Toggle dark mode.

## Pass criteria
- The final response says where the toggle is.
- The agent ran the tests after the change,
  and they passed.
1. Numbered items count too.
"""


def test_task_steps_and_criteria() -> None:
    jf = parse_judge_file(TEXT, {"APP": "Mealdrop", "URL": "http://localhost:6006"})
    assert jf.task == "The agent was asked to add a dark-mode toggle to Mealdrop."
    assert jf.steps == ("Open http://localhost:6006 and find the settings page.", "Toggle dark mode.")
    assert jf.criteria == ("The final response says where the toggle is.",
                           "The agent ran the tests after the change, and they passed.",
                           "Numbered items count too.")


def test_an_unknown_variable_is_a_usage_error_naming_the_line() -> None:
    with pytest.raises(UsageError, match=r"judge\.md: unknown variable \{\{URL\}\} at judge\.md:4; give it with --var"):
        parse_judge_file(TEXT, {"APP": "x"}, path="judge.md")


def test_a_variable_the_file_does_not_use_is_a_usage_error_naming_those_it_uses() -> None:
    with pytest.raises(UsageError, match=r"judge\.md: variable Z given but not used by the file \(it uses "
                                         r"\{\{APP\}\}, \{\{URL\}\}\)"):
        parse_judge_file(TEXT, {"APP": "x", "URL": "y", "Z": "3"}, path="judge.md")
    with pytest.raises(UsageError, match=r"variables A, B given but not used by the file \(it uses no variable\)"):
        parse_judge_file("## Pass criteria\n- one\n", {"B": "1", "A": "2"})


def test_other_sections_are_part_of_the_task() -> None:
    jf = parse_judge_file("Intro.\n\n## Context\nMore.\n\n## Pass criteria\n- one\n")
    assert jf.task == "Intro.\n\n## Context\nMore." and jf.criteria == ("one",) and jf.steps == ()


@pytest.mark.parametrize(("text", "message"), [
    ("Just a task.\n", "no '## Pass criteria' section"),
    ("## Pass criteria\n\n", "has no criterion"),
    ("## Pass criteria\nnot a bullet\n", r"<memory>:2: expected a list item"),
    ("## Pass criteria\n- a\n## Pass criteria\n- b\n", "a second"),
])
def test_malformed_files(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_judge_file(text)


def test_read_a_file(tmp_path: Path) -> None:
    jf = read_judge_file(SAMPLES / "replay" / "query-timed-out" / "judge.md", {"ORDER": "A-1001"})
    assert jf.criteria[0] == "The agent attempted the refund for order A-1001."
    with pytest.raises(UsageError, match="judge file not found"):
        read_judge_file(tmp_path / "nope.md")
