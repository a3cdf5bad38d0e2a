"""The ``report`` command: ``python -m agenteval_assert report FILE|- [--json]``."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from agenteval_assert._cli_report import add_arguments, run

FULL = (
    "## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n### a--c\n\nexpected 1 to be 2\n\n"
    "## Accessibility Violations\n\n### a--b - button-name\n\nButtons must have discernible text\n\n"
    "#### Affected Elements\n- **Impact**: critical\n  **Element**: <button></button>\n\n"
    "### a--c - Error\n\naxe crashed\n\n"
    "## Unhandled Errors\n\n### TypeError\n\n**Error message**: x is not a function\n"
    "**Path**: src/a.test.ts\n**Test name**: renders\n**Stack trace**:\nTypeError: x\n    at a.ts:1:1"
)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="agenteval-assert report", exit_on_error=False)
    add_arguments(p)
    return p


def call(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(parser().parse_args(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def report_file(tmp_path: Path) -> Path:
    path = tmp_path / "run.md"
    path.write_text(FULL, encoding="utf-8")
    return path


def test_json_output(report_file: Path) -> None:
    code, out, err = call([str(report_file), "--json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["outcome"] == "completed"
    assert data["passing"] == ["a--b"]
    assert data["failing"] == ["a--c"]
    assert data["a11y_violations"] == [
        {
            "story_id": "a--b",
            "rule_id": "button-name",
            "impact": "critical",
            "description": "Buttons must have discernible text",
            "elements": 1,
        }
    ]
    assert data["a11y_errors"] == [{"story_id": "a--c", "message": "axe crashed"}]
    assert data["unhandled_errors"] == ["TypeError"]
    assert data["complete"] is True
    assert data["passed"] is False
    assert data["issues"] == []
    assert data["failing_details"][0]["message"] == "expected 1 to be 2"
    assert data["result_counts"] is None


def test_readable_output_golden(report_file: Path) -> None:
    code, out, _ = call([str(report_file)])
    assert code == 0
    assert out == (
        "story-test report: completed, not passed\n"
        "complete: yes (no sign of a cut)\n"
        "passing stories (1):\n"
        "  a--b\n"
        "failing stories (1):\n"
        "  a--c: expected 1 to be 2\n"
        "accessibility violations (1):\n"
        "  a--b - button-name [critical]: Buttons must have discernible text (1 element)\n"
        "accessibility check errors (1):\n"
        "  a--c: axe crashed\n"
        "unhandled errors (1):\n"
        "  TypeError: x is not a function (src/a.test.ts renders)\n"
    )


def test_fragment_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("- a--x\n\n## Failing Stories\n\n### a--c"))
    code, out, _ = call(["-"])
    assert code == 0
    assert out.startswith(
        "story-test report: completed, not passed\n"
        "complete: NO - the text is a fragment; only what it shows is listed:\n"
        "  line 1: '- a--x' before the first heading belongs to a section whose heading is "
        "missing (cut by tail/grep?)\n"
    )
    assert "  a--x" not in out


def test_json_document_from_stdin_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = {"status": "no-stories", "notFoundMessages": ["No story with id a--b"]}
    raw = ("npm warn exec x\n" + json.dumps(doc, indent=2) + "\nOutput written to /tmp/r.json\n").encode()

    class Stdin:
        buffer = io.BytesIO(raw)

    monkeypatch.setattr("sys.stdin", Stdin())
    code, out, _ = call(["-", "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["outcome"] == "no-stories"
    assert data["not_found_messages"] == ["No story with id a--b"]
    assert data["passing"] == [] and data["complete"] is True


@pytest.mark.parametrize(
    ("text", "outcome", "line"),
    [
        ("Error: dev server unreachable", "error", "error: dev server unreachable"),
        ("Error: Test run was cancelled", "cancelled", None),
        ("## Passing Stories\n\n- a--b", "completed", "story-test report: completed, passed"),
    ],
)
def test_outcomes_exit_zero(tmp_path: Path, text: str, outcome: str, line: str | None) -> None:
    path = tmp_path / "out.txt"
    path.write_text(text, encoding="utf-8")
    code, out, _ = call([str(path)])
    assert code == 0
    assert out.startswith(f"story-test report: {outcome}")
    if line:
        assert line in out.splitlines()


def test_not_a_report_exits_3(tmp_path: Path) -> None:
    path = tmp_path / "lint.txt"
    path.write_text("lint ok\n", encoding="utf-8")
    code, out, err = call([str(path), "--json"])
    assert (code, out) == (3, "")
    assert err.startswith(f"error: {path}: not a story-test report: expected the markdown")
    assert err.rstrip().endswith("found 1 line starting with 'lint ok'")


def test_missing_file_exits_3(tmp_path: Path) -> None:
    missing = tmp_path / "nope.md"
    code, out, err = call([str(missing)])
    assert (code, out) == (3, "")
    assert err == f"error: {missing}: cannot read: No such file or directory\n"


def test_binary_file_exits_3(tmp_path: Path) -> None:
    path = tmp_path / "bin"
    path.write_bytes(b"## Passing Stories\n\xff\xfe")
    code, _, err = call([str(path)])
    assert code == 3
    assert err.startswith(f"error: {path}: not UTF-8 text (byte 19: invalid start byte)")


@pytest.mark.parametrize("argv", [[], ["a", "--bogus"], ["a", "b"]])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    p = argparse.ArgumentParser(prog="agenteval-assert report")
    add_arguments(p)
    with pytest.raises(SystemExit) as info:
        p.parse_args(argv)
    assert info.value.code == 2
    assert "usage: agenteval-assert report [-h] [--json] FILE" in capsys.readouterr().err


def test_help_names_the_exit_codes() -> None:
    text = parser().format_help()
    assert "Exit status 0 when a report was read, 3 when the input is" in " ".join(text.split())
