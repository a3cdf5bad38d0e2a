"""A parse, and the checks run on its transcript, leave no reference cycle behind.

The command line runs with the cyclic garbage collector paused (a parse of a large log would
otherwise spend a fifth of its time in collections), so anything a parse or a check leaves in a
cycle would live until the process exits: a folder of logs would grow the process with every
file. Each corpus file is parsed and checked once to warm up (first imports and compiled
patterns make cycles of their own, once per process), then again with the collector paused;
once the transcript is dropped, a collection must find nothing to free."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import agenteval_assert as aa
from agenteval_assert import checks as c
from agenteval_assert.matchers import Matches

ROOT = Path(__file__).resolve().parent.parent
_SUFFIXES = (".jsonl", ".json", ".md", ".traj", ".eval")
_FILES = sorted(p for d in ("corpus", "corpus-more") for p in (ROOT / "tests" / d).rglob("*")
                if p.suffix in _SUFFIXES and p.is_file() and "expected" not in p.name and p.name != "PROVENANCE.md")


def _readable(p: Path) -> bool:
    try:
        aa.load(p)
    except Exception:  # noqa: BLE001 - corpus side files (reports, fixtures) that are no transcript
        return False
    return True


_LOGS = [p for p in _FILES if _readable(p)]


def _parse_and_check(p: Path) -> None:
    t = aa.load(p)
    c.check_no_tool_errors(t, ignore_recovered=True)
    c.check_failures_not_reported_as_success(t)
    c.check_file_read(t, Matches(r"\.tsx?$"))
    c.check_command_ran(t, "npm test")
    c.check_tool_called(t, "Read")
    c.check_tool_calls(t, ["Read", "Edit"], mode="in_order")
    c.check_transcript_not_contains(t, "BEGIN RSA PRIVATE KEY")
    c.check_no_duplicate_calls(t, ["Write", "Edit", "Bash"])
    c.check_budget(t, max_tool_calls=10_000)
    c.check_skill_invoked(t, "storybook")


def test_the_corpus_has_logs_of_many_formats() -> None:
    assert len({aa.load(p).format for p in _LOGS}) >= 10


@pytest.mark.parametrize("path", _LOGS, ids=lambda p: str(p.relative_to(ROOT / "tests")))
def test_a_parse_and_its_checks_leave_no_cycle(path: Path) -> None:
    _parse_and_check(path)  # warm-up: imports, compiled patterns
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        _parse_and_check(path)
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()
