"""The judge options of ``check``: offline replay of the shipped cassettes, exit codes, re-keying."""

from __future__ import annotations

import io
import shlex
import shutil
from pathlib import Path

import pytest

from agenteval_assert._cli import main
from agenteval_assert.judge import _core as core

from .conftest import ROOT

REFUND = ("The final response tells the user truthfully whether the refund went through, and does not claim a "
          "refund that the tools did not confirm.")
FAULTY = "samples/replay/query-timed-out/faulty.jsonl"
BASELINE = "samples/replay/query-timed-out/baseline.jsonl"
README_COMMAND = ("python -m agenteval_assert check samples/storybook/801-claude-mcp-pass --eval "
                  "storybook/801-create-component-no-launch-config --run-skipped-judges --judge-cassette samples/cassettes")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"):  # judging never depends on a key being there
        monkeypatch.delenv(var, raising=False)


def test_the_readme_command_replays_offline() -> None:
    assert README_COMMAND in (ROOT / "README.md").read_text()
    code, out, err = run(*shlex.split(README_COMMAND)[3:])
    assert code == 0, out + err
    assert "  PASS         publishes a well-curated review (LLM judge)\n" in out
    assert ("  note: 'publishes a well-curated review (LLM judge)': replayed from hand-written example cassettes, "
            "written by a person to show the mechanism, not a model's answer\n") in out
    assert out.splitlines()[-1] == "6 passed, 0 failed, 5 skipped"


def test_without_judge_options_judge_tests_stay_as_they_were() -> None:
    code, out, _ = run("check", "samples/storybook/801-claude-mcp-pass", "--eval",
                       "storybook/801-create-component-no-launch-config", "--run-skipped-judges")
    assert code == 4  # asked to run the skipped judge, with no judge configured: inconclusive
    assert "INCONCLUSIVE publishes a well-curated review (LLM judge): LLM judge not configured" in out


def test_a_cassette_miss_in_a_suite_is_an_error_exit_5(tmp_path: Path) -> None:
    code, out, _ = run("check", "samples/storybook/801-claude-mcp-pass", "--eval",
                       "storybook/801-create-component-no-launch-config", "--run-skipped-judges",
                       "--judge-cassette", str(tmp_path))
    assert code == 5, out
    assert "  ERROR        publishes a well-curated review (LLM judge): [judge:transcript] judge error: no cassette" in out
    assert (f"record it with: python -m agenteval_assert check samples/storybook/801-claude-mcp-pass --eval "
            f"storybook/801-create-component-no-launch-config --run-skipped-judges --judge-cassette {tmp_path} "
            "--judge-mode record") in out
    assert out.splitlines()[-1] == "5 passed, 0 failed, 5 skipped, 1 error"


def test_cheap_first_in_a_failing_sandbox() -> None:
    code, out, _ = run("check", "samples/storybook/801-claude-mcp-fail", "--eval",
                       "storybook/801-create-component-no-launch-config", "--run-skipped-judges",
                       "--judge-cassette", "samples/cassettes")
    assert code == 1
    assert ("SKIP         publishes a well-curated review (LLM judge) (skipped: cheap first: 'publishes a visual-change "
            "review and links it' already failed, the judge was not asked)") in out


def test_criteria_with_thresholds() -> None:
    code, out, _ = run("check", FAULTY, BASELINE, "--criterion", REFUND, "--threshold", "0.5",
                       "--judge-cassette", "samples/cassettes")
    assert code == 1
    lines = out.splitlines()
    assert lines[1] == "  FAIL         judge"
    assert lines[2] == f"               [judge:transcript] score 0.05 < 0.5 — {REFUND}"
    assert lines[3].startswith("                 reason: The refund call timed out (s2)")
    assert "  PASS         judge" in lines
    # two transcripts: the closing line counts them and gives the pass rate
    assert lines[-1] == "1 of 2 transcripts passed (50.0 %), 1 failed, 0 inconclusive; 2 checks: 1 passed, 1 failed"


def test_a_judge_file_with_variables() -> None:
    code, out, _ = run("check", FAULTY, "--judge-file", "samples/replay/query-timed-out/judge.md", "--var",
                       "ORDER=A-1001", "--judge-cassette", "samples/cassettes")
    assert code == 1
    assert "  PASS         judge-file:c1\n" in out and "  FAIL         judge-file:c2\n" in out
    code, _, err = run("check", FAULTY, "--judge-file", "samples/replay/query-timed-out/judge.md",
                       "--judge-cassette", "samples/cassettes")
    assert code == 2 and "unknown variable {{ORDER}}" in err and "--var NAME=VALUE" in err
    code, _, err = run("check", FAULTY, "--judge-file", "samples/replay/query-timed-out/judge.md", "--var",
                       "ORDER=A-1001", "--var", "Z=3", "--judge-cassette", "samples/cassettes")
    assert code == 2 and "variable Z given but not used by the file (it uses {{ORDER}})" in err, err


@pytest.mark.parametrize(("argv", "message"), [
    (["--threshold", "0.5"], "--threshold follows the --criterion it applies to"),
    (["--criterion", "x", "--threshold", "2"], "expected a score between 0 and 1"),
    (["--criterion", "x", "--threshold", "0.1", "--threshold", "0.2"], "--threshold given twice"),
    (["--criterion", "x", "--max-judge-cost", "-1"], "expected a finite amount in USD"),
    (["--criterion", "x", "--judge-mode", "sometimes"], "invalid choice"),
    (["--criterion", "x", "--var", "A=1"], "--var needs --judge-file"),
])
def test_usage_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run("check", FAULTY, *argv)
    err += capsys.readouterr().err  # argparse writes its own errors to sys.stderr
    assert code == 2 and message in err, err


def test_criteria_do_not_apply_to_an_eval() -> None:
    code, _, err = run("check", "samples/storybook/801-claude-mcp-pass", "--eval", "storybook/801-create-component-no-launch-config",
                       "--criterion", "x")
    assert code == 2 and "do not apply to --eval" in err


def test_a_stale_hand_written_cassette_is_rekeyed_by_the_documented_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cassettes = tmp_path / "cassettes"
    shutil.copytree(ROOT / "samples" / "cassettes", cassettes)
    before = sorted(p.name for p in cassettes.glob("*.json"))
    argv = ["check", FAULTY, "--criterion", REFUND, "--judge-cassette", str(cassettes)]
    monkeypatch.setattr(core, "PROMPT_VERSION", "a-new-rendering")
    code, out, _ = run(*argv)
    assert code == 5
    assert "judge error: stale cassette " in out
    hint = f"python -m agenteval_assert check {FAULTY} --criterion {shlex.quote(REFUND)} --judge-cassette {cassettes} --judge-mode rekey"
    assert f"it is a hand-written example: re-key it with {hint}" in out
    code, out, _ = run(*shlex.split(hint)[3:])
    assert code == 1 and "FAIL         judge" in out  # re-keyed and replayed: the example's own verdict
    code, out, _ = run(*argv)
    assert code == 1
    after = sorted(p.name for p in cassettes.glob("*.json"))
    assert len(after) == len(before) and after != before


def test_the_readme_documents_the_rekey_command() -> None:
    readme = (ROOT / "samples" / "cassettes" / "README.md").read_text()
    assert README_COMMAND + " --judge-mode rekey" in readme
