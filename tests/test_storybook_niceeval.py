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


def test_without_the_transcript_the_checks_that_read_it_are_inconclusive() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", str(NICE), "--eval", "storybook/801-create-accessible-component"], stdout=out, stderr=err)
    text = out.getvalue()
    assert code == 4, err.getvalue()  # inconclusive: never a failure (nor a pass) for want of the transcript
    undecided = [line.split()[1:4] for line in text.splitlines() if line.startswith("  INCONCLUSIVE")]
    assert undecided == [["story", "tests", "ran"], ["publishes", "a", "visual-change"], ["opens", "the", "review"]]
    assert "needs the agent's transcript (the final response (which must link the review)), and this sandbox holds none" in text
    assert "--transcript PATH on the command line" in text
    assert "note: a NiceEval sandbox: shell commands come from __niceeval__/results.json" in text
    assert text.rstrip().endswith("6 passed, 0 failed, 3 skipped, 3 inconclusive")
    out = io.StringIO()
    transcript = HEREDOC / "__agent_eval__" / "transcript.txt"
    assert main(["check", str(NICE), "--eval", "storybook/801-create-accessible-component",
                 "--transcript", str(transcript)], stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue().rstrip().endswith("9 passed, 0 failed, 3 skipped")
    err = io.StringIO()
    assert main(["check", str(transcript), "--transcript", str(transcript)], stdout=io.StringIO(), stderr=err) == 2
    assert "--transcript goes with --eval" in err.getvalue()


def test_no_check_that_reads_the_transcript_passes_or_fails_without_it() -> None:
    from agenteval_assert.results import InconclusiveError, Status

    ctx = EvalContext.from_sandbox(NICE, profile=EvalProfile(generation="C"))
    assert ctx.transcript_missing
    reads = [
        lambda: storybook.expect_final_response_contains(ctx, ["ToggleSwitch"]),
        lambda: storybook.expect_final_response_matches(ctx, [r"review"]),
        lambda: storybook.expect_story_tests_ran_and_passed(ctx, covering=["toggleswitch"]),
        lambda: storybook.expect_display_review_for_visual_change(ctx),
        lambda: storybook.expect_display_review_for_browse_request(ctx),
        lambda: storybook.expect_review_opened_in_browser(ctx),
        lambda: storybook.expect_preview_opened_in_browser(ctx),
        lambda: storybook.expect_preview_browser_started(ctx),
        lambda: storybook.expect_no_display_review(ctx.with_profile(EvalProfile(generation="C"))),
    ]
    for i, check in enumerate(reads):
        with pytest.raises(AssertionError) as exc:
            check()
        result = exc.value.result  # type: ignore[attr-defined]
        if i in (4, 8):  # decided before the transcript is needed, from the recorded review-create call
            assert result.status is Status.FAIL and "review-create" in result.summary, i
        else:
            assert isinstance(exc.value, InconclusiveError), i
            assert result.status is Status.INCONCLUSIVE and "needs the agent's transcript" in result.summary, i
    # the judge grades the transcript: inconclusive too, whatever judge is configured
    asked: list[str] = []

    def judge(c: EvalContext, criterion: str, threshold: float) -> storybook.CheckResult:  # type: ignore[name-defined]
        asked.append(criterion)
        raise AssertionError("not called")

    run = storybook.suite("912-fix-a11y-violations").run(ctx, judge=judge)
    o = run.outcome("asks before visual accessibility changes")
    assert o.outcome == "inconclusive" and "holds none" in o.message and asked == []


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


def test_a_claude_skill_is_read_from_the_transcript(tmp_path: Path) -> None:
    from agenteval_assert.results import InconclusiveError

    ctx = EvalContext.from_sandbox(_bare(tmp_path), agent="claude-code", integration="plugin", review=True)
    with pytest.raises(InconclusiveError, match=r"needs the agent's transcript \(the Skill tool calls\)"):
        storybook.expect_skill_invoked(ctx, "stories")


def test_a_transcript_given_that_cannot_be_read_is_named_as_given(tmp_path: Path) -> None:
    err = io.StringIO()
    code = main(["check", str(NICE), "--eval", "storybook/801-create-accessible-component",
                 "--transcript", "/nonexistent"], stdout=io.StringIO(), stderr=err)
    assert code == 3
    assert err.getvalue() == "error: --transcript /nonexistent: file not found (the transcript given for the sandbox)\n"
    garbage = tmp_path / "t.txt"
    garbage.write_text("not json\n")
    err = io.StringIO()
    main(["check", str(NICE), "--eval", "storybook/801-create-accessible-component", "--transcript", str(garbage)],
         stdout=io.StringIO(), stderr=err)
    assert err.getvalue().startswith(f"error: --transcript {garbage}:1: not valid JSON")
    with pytest.raises(SandboxError, match=r"^/nonexistent: file not found \(the transcript given for the sandbox\)$"):
        EvalContext.from_sandbox(NICE, transcript="/nonexistent")
