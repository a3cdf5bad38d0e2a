"""Checks files: discovery of check_* functions, import errors, and running one check."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from agenteval_assert._checks_file import load_checks, run_check
from agenteval_assert.exceptions import UsageError
from agenteval_assert.model import Transcript
from agenteval_assert.results import Status

from ._build import T


def write(tmp_path: Path, body: str, name: str = "checks.py") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body), encoding="utf-8")
    return p


def transcript() -> Transcript:
    return T().user("hi").call("Bash", command="npm test", output="ok").say("done").done()


def test_collects_check_functions_in_definition_order(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        """
        from agenteval_assert.checks import check_tool_called, check_budget  # imported: not checks

        def check_zeta(t):
            return check_tool_called(t, "Bash")

        def helper(t):
            return None

        check_not_a_function = 3

        def check_alpha(t):
            pass

        class check_Klass:
            pass
        """,
    )
    assert [n for n, _ in load_checks(p)] == ["check_zeta", "check_alpha"]


def test_runs_the_four_kinds_of_outcome(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        """
        from agenteval_assert.assertions import assert_tool_called, assert_tool_not_called
        from agenteval_assert.checks import check_tool_called

        def check_returns_result(t):
            return check_tool_called(t, "Write")

        def check_asserts_ok(t):
            assert_tool_called(t, "Bash")

        def check_asserts_fail(t):
            assert_tool_called(t, "Write")

        def check_inconclusive(t):
            from agenteval_assert._builder import TranscriptBuilder
            from agenteval_assert._reader import ReadStats
            empty = TranscriptBuilder("e.jsonl", "claude-session", "claude-code").build(ReadStats(path="e.jsonl"))
            assert_tool_not_called(empty, "Write")

        def check_plain_assert(t):
            assert len(t.tool_calls) == 5, "expected five calls"

        def check_bool_true(t):
            return True

        def check_bool_false(t):
            return len(t.tool_calls) > 3

        def check_raises(t):
            return t.tool_calls[10]

        def check_bad_return(t):
            return "yes"
        """,
    )
    t = transcript()
    got = {name: run_check(fn, t) for name, fn in load_checks(p)}
    assert {n: r.status for n, r in got.items()} == {
        "check_returns_result": Status.FAIL,
        "check_asserts_ok": Status.PASS,
        "check_asserts_fail": Status.FAIL,
        "check_inconclusive": Status.INCONCLUSIVE,
        "check_plain_assert": Status.FAIL,
        "check_bool_true": Status.PASS,
        "check_bool_false": Status.FAIL,
        "check_raises": Status.ERROR,
        "check_bad_return": Status.ERROR,
    }
    assert all(r.name == n for n, r in got.items())
    assert got["check_asserts_fail"].summary == "expected a Write call, found none (1 tool call in total)"
    assert got["check_plain_assert"].summary == "expected five calls"
    err = got["check_raises"]
    assert err.summary == "error: IndexError: tuple index out of range"
    assert err.evidence[0].location is not None
    assert Path(err.evidence[0].location.path).resolve() == p.resolve()
    assert err.evidence[0].text == "raised in check_raises"
    assert got["check_plain_assert"].evidence[0].text == "failed in check_plain_assert"
    raising_line = p.read_text().splitlines().index("    return t.tool_calls[10]") + 1
    assert err.evidence[0].location.line == raising_line
    assert "expected a CheckResult, None or a bool" in got["check_bad_return"].summary


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    p = write(tmp_path, "def check_a(t):\n    return (\n")
    with pytest.raises(UsageError) as info:
        load_checks(p)
    assert str(info.value).startswith(f"{p}:")
    assert "syntax error in checks file" in str(info.value)


def test_import_time_exception_names_file_and_line(tmp_path: Path) -> None:
    p = write(tmp_path, "x = 1\nimport no_such_module_here\n\ndef check_a(t):\n    pass\n")
    with pytest.raises(UsageError, match="ModuleNotFoundError") as info:
        load_checks(p)
    assert str(info.value).startswith(f"{p}:2: importing the checks file failed")


def test_no_checks_and_missing_file(tmp_path: Path) -> None:
    p = write(tmp_path, "def helper(t):\n    pass\n")
    with pytest.raises(UsageError, match="no checks found"):
        load_checks(p)
    with pytest.raises(UsageError, match="checks file not found"):
        load_checks(tmp_path / "nope.py")


def test_two_files_with_the_same_name_do_not_clash(tmp_path: Path) -> None:
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.mkdir()
    b.mkdir()
    pa = write(a, "def check_one(t):\n    return True\n")
    pb = write(b, "def check_two(t):\n    return False\n")
    assert [n for n, _ in load_checks(pa)] == ["check_one"]
    assert [n for n, _ in load_checks(pb)] == ["check_two"]
