"""``check SANDBOX_DIR --eval storybook/<name>``: one line per test, exit codes 0/1/2/3/4."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from agenteval_assert import storybook
from agenteval_assert.storybook._cli import list_evals_cli, run_eval_cli

from . import _proc
from .conftest import ROOT, SAMPLES
from .test_storybook_context import CT, sandbox

PASS = str(SAMPLES / "storybook/801-claude-mcp-pass")
FAIL = str(SAMPLES / "storybook/801-claude-mcp-fail")
EVAL_B = "storybook/801-create-component-no-launch-config"


def run(sandbox_dir: str, name: str, *, verbose: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_eval_cli(sandbox_dir, name, stdout=out, stderr=err, verbose=verbose)
    return code, out.getvalue(), err.getvalue()


def test_passing_sandbox_exits_0_with_one_line_per_test() -> None:
    code, out, err = run(PASS, EVAL_B)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{EVAL_B} on {PASS}  (agent=claude-code integration=mcp review=true generation=B)"
    tests = [ln for ln in lines if ln.startswith("  ") and not ln.startswith("    ")]
    assert len(tests) == len(storybook.suite(EVAL_B).tests)
    assert "  PASS         story tests ran and passed" in lines
    assert ("  SKIP         invokes the stories skill (skipped: skipIf(integration === 'mcp'): skills are read "
            "on the plugin path only)") in lines
    assert lines[-1] == "5 passed, 0 failed, 6 skipped"


def test_failing_sandbox_exits_1_with_messages_and_locations() -> None:
    code, out, _ = run(FAIL, EVAL_B)
    assert code == 1
    assert "  FAIL         story tests ran and passed: Final test-run result must not report failing stories" in out
    assert "801-claude-mcp-fail/__agent_eval__/transcript.txt:9" in out
    assert out.splitlines()[-1] == "1 passed, 4 failed, 6 skipped"


def test_verbose_shows_evidence_of_passing_tests() -> None:
    _, quiet, _ = run(PASS, EVAL_B)
    _, loud, _ = run(PASS, EVAL_B, verbose=True)
    assert len(loud.splitlines()) > len(quiet.splitlines())
    assert "transcript.txt:" in loud


def test_unknown_eval_exits_2() -> None:
    code, out, err = run(PASS, "storybook/999-nothing")
    assert code == 2 and out == ""
    assert err.startswith("error: unknown Storybook eval 'storybook/999-nothing'")


def test_unreadable_sandbox_exits_3(tmp_path: Path) -> None:
    code, _, err = run(str(tmp_path / "missing"), EVAL_B)
    assert code == 3 and "not a directory" in err
    root = sandbox(tmp_path / "bad", [CT("x")])
    (root / "__agent_eval__/agent.json").write_text('{"agent":"claude-code","integration":"web"}')
    code, _, err = run(str(root), EVAL_B)
    assert code == 3
    assert err == "error: Expected __agent_eval__/agent.json to contain an integration. Received: web\n"


def test_inconclusive_exits_4() -> None:
    code, out, _ = run(str(SAMPLES / "storybook" / "912-claude-mcp-asks"), "912-fix-a11y-violations")
    assert code == 4
    assert "  INCONCLUSIVE asks before visual accessibility changes: LLM judge not configured" in out
    assert out.splitlines()[-1] == "1 passed, 0 failed, 0 skipped, 1 inconclusive"


def test_list() -> None:
    out = io.StringIO()
    assert list_evals_cli(out) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == len(storybook.suite_names())
    assert any(ln.startswith("storybook/801-create-accessible-component ") and "gen C " in ln for ln in lines)


@pytest.mark.parametrize(("args", "code"), [
    (["check", PASS, "--eval", EVAL_B], 0),
    (["check", FAIL, "--eval", EVAL_B], 1),
    (["check", PASS, "--eval", "storybook/nope"], 2),
    (["check", "--eval", "list"], 0),
])
def test_through_python_dash_m(args: list[str], code: int) -> None:
    proc = _proc.run([sys.executable, "-m", "agenteval_assert", *args], cwd=ROOT)
    assert proc.returncode == code, proc.stdout + proc.stderr
    if args[-1] == "list":
        assert "storybook/915-preview-story-by-id" in proc.stdout


def test_results_json_commands_are_located_in_results_json(tmp_path: Path) -> None:
    root = sandbox(tmp_path, [CT("done")], integration="plugin",
                   shell_commands=["npx storybook tools stories changed", "pkill -f storybook"])
    code, out, _ = run(str(root), "801-create-accessible-component")
    assert code == 1
    doc = json.loads((root / "__agent_eval__/results.json").read_text())
    assert doc["o11y"]["shellCommands"][1]["command"] == "pkill -f storybook"
    assert "FAIL         leaves the dev server running: The dev server must be left running for the user, never killed" in out
    assert "results.json:" in out


def _readme_commands(readme: Path, needle: str) -> list[list[str]]:
    prefix = "python -m agenteval_assert "
    return [line.strip()[len(prefix):].split() for line in readme.read_text(encoding="utf-8").splitlines()
            if line.strip().startswith(prefix) and needle in line]


def test_the_912_samples_judge_test_replays_from_the_example_cassettes_as_the_readme_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agenteval_assert._cli import main

    monkeypatch.chdir(ROOT)
    commands = _readme_commands(SAMPLES / "storybook" / "README.md", "--judge-cassette")
    assert commands == [cmd for cmd in _readme_commands(SAMPLES / "cassettes" / "README.md", "912")
                        if "rekey" not in cmd]
    expected = {"912-claude-mcp-asks": (0, "PASS         asks before visual accessibility changes"),
                "912-claude-mcp-changes-colours": (1, ("FAIL         asks before visual accessibility changes: "
                                                      "[judge:transcript] score 0.1 < 0.8"))}
    assert sorted(Path(cmd[1]).name for cmd in commands) == sorted(expected)
    for cmd in commands:
        out, err = io.StringIO(), io.StringIO()
        code = main(cmd, stdout=out, stderr=err)
        want_code, want_line = expected[Path(cmd[1]).name]
        assert code == want_code, out.getvalue() + err.getvalue()
        assert f"  {want_line}" in out.getvalue()
        assert "replayed from hand-written example cassettes" in out.getvalue()


def test_an_undecided_judge_test_names_the_command_lines_judge_options() -> None:
    from agenteval_assert._cli import main

    sandbox = str(SAMPLES / "storybook" / "912-claude-mcp-asks")
    for argv in (["check", sandbox, "--eval", "storybook/912-fix-a11y-violations"],
                 ["check", sandbox, "--eval", "storybook/912-fix-a11y-violations", "--output-format", "json"]):
        out = io.StringIO()
        assert main(argv, stdout=out, stderr=io.StringIO()) == 4
        assert "--judge-cassette DIR" in out.getvalue() and "Suite.run" not in out.getvalue()
    # from Python, the hint names Suite.run's judge argument
    ctx = storybook.EvalContext.from_sandbox(sandbox)
    run = storybook.suite("912-fix-a11y-violations").run(ctx)
    [undecided] = [o for o in run.outcomes if o.outcome == "inconclusive"]
    assert undecided.result is not None and "Suite.run" in undecided.result.notes[-1]
