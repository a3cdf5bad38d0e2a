"""The CLI: summary (against the corpus's expected figures), check, exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import agenteval_assert as aa
from agenteval_assert._cli import ExitCode, main

from . import _proc
from .conftest import CORPUS, SAMPLES


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _expected() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads((CORPUS / "expected.json").read_text())
    return data


EXPECTED = _expected() if CORPUS.is_dir() else {}
#: Files the corpus contract lists as ``unknown`` that a format added since reads. The contract
#: stays as its authors computed it; these files' figures are tested by their format's own tests
#: (against what the file itself states).
READ_SINCE = {
    "storybook/lib/agentic-reference/__fixtures__/golden-run/transcript.json": "agent-eval-transcript",
}


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_summary_json_reproduces_the_corpus_figures(rel: str, corpus: Path) -> None:
    want = EXPECTED[rel]
    path = corpus / rel
    if rel in READ_SINCE:
        code, out, err = run("summary", str(path), "--json")
        assert want["format"] == "unknown" and code == ExitCode.OK, err
        assert json.loads(out)["format"] == READ_SINCE[rel]
        return
    if want["format"] not in aa.FORMATS:
        # Not (yet) a supported format: a clear error listing what was tried, exit 3.
        code, out, err = run("summary", str(path), "--json")
        assert code == ExitCode.INPUT, out
        first, *reasons = err.splitlines()
        assert first.startswith(f"error: {path}:") and first.endswith(
            "not a transcript in any supported format (expected one of: " + ", ".join(aa.FORMATS) + ")")
        # then why each format said no, one per line, indented and bounded
        assert [r.split(":", 1)[0].strip() for r in reasons] == list(aa.FORMATS)
        assert all(r.startswith("  ") and len(r) <= 2 + len(max(aa.FORMATS, key=len)) + 2 + 200 for r in reasons)
        return
    code, out, err = run("summary", str(path), "--json")
    assert code == ExitCode.OK, err
    got = json.loads(out)
    for key, value in want.items():
        if value is None and key != "final_response":
            continue  # null means "not checked"
        if key == "final_response_prefix":
            assert got["final_response"][:200] == value
        else:
            assert got[key] == value, key


def test_every_corpus_file_is_covered_by_expected_json(corpus: Path) -> None:
    files = {
        str(p.relative_to(corpus))
        for p in corpus.rglob("*")
        if p.is_file() and p.suffix in (".json", ".jsonl", ".traj")
        and p.name != "expected.json"
    }
    assert files == set(EXPECTED)


def test_summary_text_names_format_counts_and_health() -> None:
    code, out, _ = run("summary", str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"))
    assert code == ExitCode.OK
    assert "codex-exec" in out
    assert "1 main" in out
    assert "command_execution" in out
    assert "health      clean" in out


HANDMADE = Path(__file__).resolve().parent / "handmade"


def test_summary_json_has_the_run_total_and_the_subagents_errors() -> None:
    code, out, _ = run("summary", str(HANDMADE / "claude-stream-json-1.0.x-parallel-tasks.json"), "--json")
    assert code == ExitCode.OK
    doc = json.loads(out)
    assert set(doc["usage_total"]) == set(doc["usage"])  # the same keys
    assert doc["usage"]["cache_read_tokens"] == 32000 and doc["usage"]["cost_usd"] is None
    assert (doc["usage_total"]["cache_read_tokens"], doc["usage_total"]["cost_usd"]) == (233000, 0.4121)
    assert doc["usage_total"]["mode"] == "main agent and 3 subagents"
    assert (doc["tool_errors"], doc["subagent_tool_errors"]) == (0, 11)
    assert [s["tool_errors"] for s in doc["subagents"]] == [3, 3, 5]
    assert doc["subagents"][0]["usage"]["cache_read_tokens"] == 67000
    assert doc["usage_unrecorded"] == []
    assert doc["final_answer"] == doc["final_response"]


def test_summary_text_shows_subagent_failures_and_the_run_total() -> None:
    code, out, _ = run("summary", str(HANDMADE / "claude-stream-json-1.0.x-parallel-tasks.json"))
    assert code == ExitCode.OK
    assert "  tool calls  3 main, 15 by subagents, 0 errors (+11 by subagents), 0 unanswered\n" in out
    assert "  subagent    toolu_task_db (unknown type): 5 calls, 5 errors\n" in out
    assert "  usage main  in 12, out 146, cache read 32000, cache write 10200 (" in out
    assert "  usage total in 66, out 1316, cache read 233000, cache write 60300, $0.4121 (main agent and " \
           "3 subagents)\n" in out


def test_summary_shows_one_run_error_with_all_its_lines() -> None:
    path = HANDMADE / "claude-stream-json-2.1.x-api-error.jsonl"
    _, out, _ = run("summary", str(path), "--json")
    doc = json.loads(out)
    [err] = doc["errors"]
    assert err["locations"] == [f"{path}:4", f"{path}:5"] and err["location"] == f"{path}:5"
    assert doc["run_error"] == f"{path}:5"
    _, out, _ = run("summary", str(path))
    assert sum(line.startswith("  run error") for line in out.splitlines()) == 1
    assert f"  run error   {path}:5 (also line 4): the run ended with an error (" in out
    _, out, _ = run("check", str(path))
    assert "expected no run-level errors, found 1 error" in out
    assert f"{path}:4  the same error, reported here too" in out


def test_summary_prints_a_multi_line_final_response_and_says_when_it_is_not_the_answer(corpus: Path) -> None:
    _, out, _ = run("summary", str(HANDMADE / "claude-session-2.1.x-slash-skill.jsonl"))
    assert "  final       ## v2.3.0\n\n              ### Cart\n              - Fix cart totals (#41)\n" in out
    assert "  health      clean: 5 records on 5 lines\n" in out
    _, out, _ = run("summary", str(corpus / "claude-session-log/spotter-2.1.38-short.jsonl"))
    assert ("  final       (no text after the last tool call; the last assistant text was:)\n"
            "              Let me check the project structure") in out
    long = "\n".join(f"line {i}" for i in range(20))
    t = aa.parse(json.dumps({"type": "assistant", "message": {"role": "assistant", "content": long}}) + "\n")
    from agenteval_assert._cli import _print_summary

    buf = io.StringIO()
    _print_summary(t, buf)
    text = buf.getvalue()
    assert "  final       line 0\n" in text and "              line 5\n" in text
    assert "line 6\n" not in text and "              ... 14 more lines\n" in text
    # a stream-json assistant record with no `result` after it: read whole, but not complete
    assert "  health      INCOMPLETE: 1 record on 1 line\n" in text


def test_check_passes_on_a_healthy_sample() -> None:
    code, out, _ = run("check", str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"))
    assert code == ExitCode.OK, out
    assert out.splitlines()[-1] == "5 passed, 0 failed"
    assert "PASS         parsed_cleanly" in out


def test_check_fails_on_a_run_error_and_says_why() -> None:
    path = SAMPLES / "codex-exec" / "untether-turn-failed-minimal-reasoning.jsonl"
    code, out, _ = run("check", str(path))
    assert code == ExitCode.FAILED
    assert "FAIL         no_run_errors" in out
    assert f"{path}:" in out  # evidence is located


def test_check_unanswered_call_fails_with_location() -> None:
    path = SAMPLES / "codex-rollout" / "localpush-0.104-desktop-unanswered-call-sanitized.jsonl"
    code, out, _ = run("check", str(path))
    assert code == ExitCode.FAILED
    assert "FAIL         every_call_answered" in out
    assert "expected every tool call to have a result, found 1 of 1 calls with no result" in out


def test_check_torn_file_reports_damage(tmp_path: Path) -> None:
    src = (SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl").read_bytes()
    p = tmp_path / "torn.jsonl"
    p.write_bytes(src[: len(src) - 30])
    code, out, _ = run("check", str(p))
    assert code == ExitCode.FAILED
    assert "FAIL         parsed_cleanly" in out
    assert "torn" in out


def test_exit_codes_for_bad_input_and_usage(tmp_path: Path) -> None:
    assert run("check", str(tmp_path / "missing.jsonl"))[0] == ExitCode.INPUT
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    code, _, err = run("summary", str(empty))
    assert code == ExitCode.INPUT
    assert "empty file" in err
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)) * 10)
    code, _, err = run("check", str(garbage))
    assert code == ExitCode.INPUT
    assert str(garbage) in err
    assert run("frobnicate")[0] == ExitCode.USAGE
    assert run("check")[0] == ExitCode.USAGE
    assert run("summary", "x", "--format", "nope")[0] == ExitCode.USAGE


def test_format_override() -> None:
    path = SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"
    code, out, _ = run("summary", str(path), "--json", "--format", "codex-exec")
    assert code == ExitCode.OK
    assert json.loads(out)["format"] == "codex-exec"


def test_python_dash_m_entry_point() -> None:
    proc = _proc.run([sys.executable, "-m", "agenteval_assert", "--version"])
    assert proc.returncode == 0
    assert proc.stdout.startswith("agenteval-assert ")


def test_a_check_that_could_not_run_exits_5_not_1(tmp_path: Path) -> None:
    checks = tmp_path / "checks.py"
    checks.write_text("def check_raises(t):\n    raise RuntimeError('the grader broke')\n")
    path = SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"
    code, out, _ = run("check", str(path), "--checks", str(checks))
    assert code == ExitCode.ERROR == 5
    assert "ERROR" in out and "check_raises" in out


def test_a_failure_outranks_an_error_and_an_unreadable_input_outranks_both(tmp_path: Path) -> None:
    checks = tmp_path / "checks.py"
    checks.write_text(
        "def check_raises(t):\n    raise RuntimeError('x')\n\n"
        "def check_fails(t):\n    import agenteval_assert as aa\n    return aa.checks.check_tool_called(t, 'Nope')\n"
    )
    path = str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl")
    assert run("check", path, "--checks", str(checks))[0] == ExitCode.FAILED
    assert run("check", path, str(tmp_path / "missing.jsonl"), "--checks", str(checks))[0] == ExitCode.INPUT


def test_an_internal_crash_exits_70_with_one_line_naming_the_input(monkeypatch: pytest.MonkeyPatch) -> None:
    import agenteval_assert._cli as cli
    from agenteval_assert import _batch_run

    def boom(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(cli, "load_each", boom)
    monkeypatch.setattr(_batch_run, "load_all", boom)
    path = str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl")
    for command in ("check", "summary"):
        code, _, err = run(command, path)
        assert code == ExitCode.INTERNAL == 70
        first, second = err.splitlines()
        assert first == f"internal error while reading {path}: ZeroDivisionError: simulated bug"
        assert "bug in agenteval-assert" in second and "Traceback" not in err


class _ClosedPipe(io.StringIO):
    """Standard output whose reader has gone (``| head -1``): every write fails."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_keeps_the_verdicts_exit_code_and_the_output_file(tmp_path: Path) -> None:
    report = tmp_path / "out.xml"
    failing = str(SAMPLES / "codex-rollout" / "localpush-0.104-desktop-unanswered-call-sanitized.jsonl")
    err = io.StringIO()
    code = main(["check", failing, str(SAMPLES / "codex-exec"), "-j", "1", "-o", str(report),
                 "--output-format", "junit"], stdout=_ClosedPipe(), stderr=err)
    assert code == ExitCode.FAILED and err.getvalue() == ""
    assert report.read_text(encoding="utf-8").rstrip().endswith("</testsuites>")  # written in full
    assert main(["check", str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl")], stdout=_ClosedPipe()) == 0
    assert main(["summary", failing, "/nonexistent.jsonl"], stdout=_ClosedPipe(), stderr=io.StringIO()) == ExitCode.INPUT


def test_a_closed_pipe_in_a_real_process_exits_with_the_verdict_and_no_traceback(tmp_path: Path) -> None:
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line
    try:
        proc = _proc.run(
            [sys.executable, "-m", "agenteval_assert", "check", str(SAMPLES / "codex-rollout"), "-q",
             "-o", str(tmp_path / "r.json"), "--output-format", "json"],
            stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    assert proc.returncode == ExitCode.FAILED, proc.stderr
    assert proc.stderr == ""
    assert json.loads((tmp_path / "r.json").read_text())["totals"]["failed"] >= 1


def test_summary_escapes_control_characters_of_the_transcript(tmp_path: Path) -> None:
    records = [{"type": "thread.started", "thread_id": "t"},
               {"type": "item.completed", "item": {"id": "m", "type": "agent_message",
                                                   "text": "all \x1b[32mgreen\x1b[0m\rdone"}},
               {"type": "turn.completed", "usage": {}}]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = run("summary", str(path))
    assert code == 0 and "\x1b" not in out and "\r" not in out
    assert "all \\x1b[32mgreen\\x1b[0m" in out


def test_summary_gives_the_agent_steps_that_check_budget_counts() -> None:
    # `steps` counts every step, the user's prompt included; a max_steps budget counts the agent's
    path = Path(__file__).resolve().parent / "corpus-more" / "inspect-log" / "inspect-0.3.135-hardcoded-guess-number-dedup.eval"
    code, out, _ = run("summary", str(path), "--json")
    assert code == ExitCode.OK
    doc = json.loads(out)
    assert (doc["steps"], doc["agent_steps"]) == (12, 11)
    r = aa.check_budget(aa.load(path), max_steps=10)
    assert r.found == "11 steps (limit 10)"
    code, out, _ = run("summary", str(path))
    assert "  steps       12 (11 by the agent: what check_budget's max_steps counts)\n" in out
