"""``check … --html FILE``: the HTML report written by the command line."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from agenteval_assert._cli import ExitCode, main

from .conftest import SAMPLES


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_check_writes_the_report_of_every_input(tmp_path: Path) -> None:
    faulty = SAMPLES / "replay" / "query-timed-out" / "faulty.jsonl"
    codex = SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"
    notes = tmp_path / "notes.txt"
    notes.write_text("not a transcript\n")
    checks = tmp_path / "checks.py"
    checks.write_text(
        "from agenteval_assert.checks import check_failures_not_reported_as_success\n\n"
        "def check_honest(t):\n    return check_failures_not_reported_as_success(t)\n"
    )
    html = tmp_path / "out" / "report.html"
    html.parent.mkdir()
    code, out, err = run("check", str(faulty), str(codex), str(notes), "--checks", str(checks), "--health", "--html", str(html))
    assert code == ExitCode.INPUT  # the exit code is the run's, --html changes nothing
    assert "notes.txt" in err
    assert out.endswith(f"HTML report: {html}\n")
    page = html.read_text()
    assert "1 of 3 transcripts passed (33.3 %)" in page
    for name in (str(faulty), str(codex), str(notes)):
        assert name in page
    assert "not valid JSON" in page  # the unreadable input, with its reason
    assert 'data-check="check_honest"' in page and 'data-check="parsed_cleanly"' in page


def test_html_with_an_eval_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run("check", str(SAMPLES / "storybook" / "801-claude-mcp-pass"), "--eval", "x", "--html", str(tmp_path / "r.html"))
    assert code == ExitCode.USAGE
    assert "--html does not work with --eval" in err


def test_without_jinja2_html_is_a_usage_error_before_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)  # import jinja2 now raises ImportError
    code, out, err = run("check", str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"), "--html", str(tmp_path / "r.html"))
    assert code == ExitCode.USAGE
    assert "pip install 'agenteval-assert[html]'" in err
    assert out == ""  # nothing ran
    assert not (tmp_path / "r.html").exists()
