"""NiceEval sandboxes: PROMPT.md, EVAL.ts and __niceeval__/results.json (hand-made from the documented layout)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from agenteval_assert import storybook
from agenteval_assert._cli import main
from agenteval_assert.storybook import EvalContext, EvalProfile, SandboxError

from .conftest import SAMPLES

NICE = SAMPLES / "storybook" / "801-codex-plugin-niceeval"
HEREDOC = SAMPLES / "storybook" / "801-codex-plugin-heredoc"


def test_a_niceeval_sandbox_is_read() -> None:
    ctx = EvalContext.from_sandbox(NICE)
    assert (ctx.layout, ctx.agent, ctx.integration, ctx.review) == ("niceeval", "codex", "plugin", True)
    assert ctx.prompt is not None and ctx.prompt.startswith("Create an accessible ToggleSwitch")
    assert ctx.eval_path == NICE / "EVAL.ts"
    assert ctx.results_path == NICE / "__niceeval__" / "results.json"
    assert ctx.transcript_path is None and ctx.transcript.steps == ()
    assert any("no transcript" in n for n in ctx.notes)
    lines = (NICE / "__niceeval__" / "results.json").read_text().splitlines()
    assert len(ctx.shell_commands) == 5
    for sc in ctx.shell_commands:
        # located in results.json, with the outcome NiceEval recorded (there is no transcript call)
        assert sc.location is not None and sc.location.path.endswith("__niceeval__/results.json")
        assert json.loads(lines[sc.location.line - 1].split(":", 1)[1].rstrip(",")) == sc.command
        assert (sc.tool_call, sc.exit_code, sc.success, sc.succeeded) == (None, 0, True, True)


def test_shell_and_workflow_checks_run_on_the_recorded_commands() -> None:
    ctx = EvalContext.from_sandbox(NICE, profile=EvalProfile(generation="C"))  # `storybook tools … --input`
    assert all(c.location.path.endswith("__niceeval__/results.json") for c in ctx.workflow_calls)
    assert storybook.expect_workflow_calls(ctx, ["get-storybook-story-instructions", "review-create"]).passed
    assert storybook.expect_story_discovery_before_review(ctx).passed
    assert storybook.expect_skill_invoked(ctx, "stories").passed
    assert storybook.expect_dev_server_left_running(ctx).passed
    assert storybook.expect_shell_command_matching(ctx, r"storybook tools test run").passed
    assert storybook.expect_all_story_exports_in_display_review(ctx).passed


def test_with_the_transcript_given_the_run_passes_like_the_agent_eval_sandbox() -> None:
    suite = storybook.suite("801-create-accessible-component")
    transcript = HEREDOC / "__agent_eval__" / "transcript.txt"
    nice = suite.run(EvalContext.from_sandbox(NICE, transcript=transcript))
    vercel = suite.run(EvalContext.from_sandbox(HEREDOC))
    assert (nice.passed, nice.failed, nice.skipped) == (vercel.passed, vercel.failed, vercel.skipped) == (9, 0, 3)


def test_without_the_transcript_only_the_checks_that_read_it_fail() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", str(NICE), "--eval", "storybook/801-create-accessible-component"], stdout=out, stderr=err)
    text = out.getvalue()
    assert code == 1, err.getvalue()
    failed = [line.split()[1:4] for line in text.splitlines() if line.startswith("  FAIL")]
    assert failed == [["story", "tests", "ran"], ["publishes", "a", "visual-change"], ["opens", "the", "review"]]
    assert "note: a NiceEval sandbox: shell commands come from __niceeval__/results.json" in text
    assert text.rstrip().endswith("6 passed, 3 failed, 3 skipped")


def _bare(tmp_path: Path) -> Path:
    """The NiceEval sandbox without Storybook's agent.json."""
    root = tmp_path / "run"
    shutil.copytree(NICE, root)
    shutil.rmtree(root / "__agent_eval__")
    return root


def test_without_agent_json_the_agent_and_integration_are_arguments(tmp_path: Path) -> None:
    root = _bare(tmp_path)
    with pytest.raises(SandboxError) as exc:
        EvalContext.from_sandbox(root)
    assert "a NiceEval sandbox without __agent_eval__/agent.json needs the agent and the integration" in str(exc.value)
    ctx = EvalContext.from_sandbox(root, agent="codex", integration="plugin", review=True)
    assert (ctx.agent, ctx.integration, ctx.review, ctx.agent_json_path) == ("codex", "plugin", True, None)
    assert storybook.expect_skill_invoked(ctx, "stories").passed


def test_mcp_runs_need_the_transcript(tmp_path: Path) -> None:
    root = _bare(tmp_path)
    with pytest.raises(SandboxError, match="with integration=mcp the workflow calls come from it: pass transcript="):
        EvalContext.from_sandbox(root, agent="claude-code", integration="mcp")
    transcript = SAMPLES / "storybook" / "801-claude-mcp-pass" / "__agent_eval__" / "transcript.txt"
    ctx = EvalContext.from_sandbox(root, integration="mcp", transcript=transcript)
    assert ctx.agent == "claude-code"  # taken from the transcript when nothing names it
    assert storybook.expect_workflow_calls(ctx, ["review-create"]).passed


def test_an_agent_eval_sandbox_prefers_its_own_results(tmp_path: Path) -> None:
    root = tmp_path / "both"
    shutil.copytree(HEREDOC, root)
    (root / "__niceeval__").mkdir()
    (root / "__niceeval__" / "results.json").write_text('{"o11y": {"shellCommands": []}}')
    ctx = EvalContext.from_sandbox(root)
    assert ctx.layout == "agent-eval" and len(ctx.shell_commands) == 5
