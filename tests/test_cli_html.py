"""``check … --html FILE``: the HTML report written by the command line."""

from __future__ import annotations

import io
import json
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
    argv = ["check", str(faulty), str(codex), str(notes), "--checks", str(checks), "--health", "-j", "1"]
    code, out, err = run(*argv, "--html", str(html))
    assert (code, out, err) == run(*argv)  # the run is the same with or without the page
    assert code == ExitCode.INPUT
    page = html.read_text()
    assert "1 of 3 transcripts passed (33.3 %), 1 failed, 0 inconclusive, 1 unreadable" in page
    for name in (str(faulty), str(codex), str(notes)):
        assert name in page
    assert "not valid JSON" in page  # the unreadable input, with its reason
    assert 'data-check="check_honest"' in page and 'data-check="parsed_cleanly"' in page
    # the transcripts were read again for their timelines, evidence linked to their steps
    assert 'class="timeline"' in page and 'data-target="t0-s1"' in page


def test_a_folder_with_machine_output_and_the_page(tmp_path: Path) -> None:
    html = tmp_path / "replay.html"
    code, out, _ = run("check", str(SAMPLES / "replay"), "--output-format", "json", "--html", str(html), "-q")
    doc = json.loads(out)  # stdout stays one JSON document
    assert code == ExitCode.OK  # the health checks pass on every replay run
    page = html.read_text()
    assert doc["totals"]["transcripts"] == page.count('<section class="transcript')
    assert "file" in page and "skipped (no format reads them)" in page  # the READMEs and checks.py


def test_an_eval_over_a_sandbox_has_its_transcript_in_the_page(tmp_path: Path) -> None:
    sandbox = SAMPLES / "storybook" / "801-claude-mcp-pass"
    html = tmp_path / "eval.html"
    argv = ["check", str(sandbox), "--eval", "storybook/801-create-component-no-launch-config"]
    code, _, _ = run(*argv, "--html", str(html))
    assert code == run(*argv)[0]
    page = html.read_text()
    assert str(sandbox) in page and "storybook/801-create-component-no-launch-config" in page
    assert 'class="timeline"' in page and "data-target=" in page


def test_without_jinja2_html_is_a_usage_error_before_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)  # import jinja2 now raises ImportError
    code, out, err = run("check", str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"), "--html", str(tmp_path / "r.html"))
    assert code == ExitCode.USAGE
    assert "pip install 'agenteval-assert[html]'" in err
    assert out == ""  # nothing ran
    assert not (tmp_path / "r.html").exists()


def test_html_is_not_silently_ignored_with_a_given_transcript(tmp_path: Path) -> None:
    sandbox = SAMPLES / "storybook" / "801-claude-mcp-pass"
    transcript = sandbox / "__agent_eval__" / "transcript.txt"
    code, _, err = run(
        "check", str(sandbox), "--eval", "storybook/801-create-component-no-launch-config",
        "--transcript", str(transcript), "--html", str(tmp_path / "r.html"),
    )
    assert code == ExitCode.USAGE and "--transcript gives the transcript of one sandbox" in err
    assert not (tmp_path / "r.html").exists()
