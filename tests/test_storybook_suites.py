"""The eval suites: registry, skip matrix (agent × integration × review), judge hook, samples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agenteval_assert import storybook
from agenteval_assert.exceptions import UsageError
from agenteval_assert.results import CheckResult, Status
from agenteval_assert.storybook._context import EvalContext

from .conftest import SAMPLES
from .test_storybook_context import CR, CT, CU, XT, codex_end, codex_start, ctx_of, flat

STORYBOOK_SAMPLES = SAMPLES / "storybook"

REQUIRED = [
    "801-create-component-no-launch-config", "801-create-accessible-component", "802-create-component",
    "803-edit-component", "804-write-story-for-existing-component", "805-non-visual-refactor", "806-browse-request",
    "807-docs-request", "808-shared-infra-fallback", "810-fix-failing-tests", "811-fix-a11y-violations",
    "812-first-story-empty-project", "814-write-stories-for-fetching-component", "820-init-no-storybook",
    "821-upgrade-from-sb9", "908-run-story-tests", "912-fix-a11y-violations", "914-preview-story-by-path",
    "915-preview-story-by-id",
]


def test_every_required_eval_is_a_suite() -> None:
    names = storybook.suite_names()
    assert set(REQUIRED) <= set(names)
    assert names == sorted(names)
    for s in storybook.suites():
        assert s.tests and s.generation in ("A", "B", "C", "C+") and s.source
        titles = [t.name for t in s.tests]
        assert len(titles) == len(set(titles)), s.name


def test_suite_lookup() -> None:
    assert storybook.suite("storybook/801-create-accessible-component").generation == "C"
    assert storybook.suite("912").name == "912-fix-a11y-violations"
    with pytest.raises(UsageError, match="did you mean one of: 801-create-accessible-component"):
        storybook.suite("801")
    with pytest.raises(UsageError, match="unknown Storybook eval 'nope'"):
        storybook.suite("nope")


def empty_ctx(tmp_path: Path, agent: str, integration: str, review: bool) -> EvalContext:
    lines = flat(codex_start(), XT("item_1", "done"), codex_end()) if agent == "codex" else [CT("done")]
    return ctx_of(tmp_path, lines, agent=agent, integration=integration, review=review)


def skipped(run: Any) -> set[str]:
    return {o.name for o in run if o.outcome == "skipped"}


# The reference's gates for 801 (spec §8): review/preview branches, the skill off MCP, the launch
# config for claude-code + plugin, the preview browser and dev server on plugin, docs-show not for
# codex + mcp (Gen C), the curation judge always test.skip.
B_801 = {
    "docs": "reads the documentation (get-documentation)",
    "instr_review": "calls the story instructions and display-review",
    "visual": "publishes a visual-change review and links it",
    "preview": "calls the story instructions and previews the stories",
    "discovery": "discovers stories before publishing the review",
    "exports": "review includes every story export",
    "judge": "publishes a well-curated review (LLM judge)",
    "skill": "invokes the stories skill",
    "launch": "writes a valid Storybook launch config",
    "browser": "starts the preview browser",
}


@pytest.mark.parametrize(("agent", "integration", "review", "skips"), [
    ("claude-code", "mcp", False, {"instr_review", "visual", "discovery", "exports", "judge", "skill", "launch", "browser"}),
    ("claude-code", "mcp", True, {"docs", "preview", "judge", "skill", "launch", "browser"}),
    ("claude-code", "plugin", True, {"docs", "preview", "judge"}),
    ("codex", "mcp", True, {"docs", "preview", "judge", "skill", "launch", "browser"}),
    ("codex", "plugin", True, {"docs", "preview", "judge", "launch"}),
    ("codex", "plugin", False, {"instr_review", "visual", "discovery", "exports", "judge", "launch"}),
])
def test_801_gen_b_skip_matrix(tmp_path: Path, agent: str, integration: str, review: bool, skips: set[str]) -> None:
    run = storybook.suite("801-create-component-no-launch-config").run(empty_ctx(tmp_path, agent, integration, review))
    assert skipped(run) == {B_801[k] for k in skips}
    assert "story tests ran and passed" not in skipped(run)
    # nothing ran on an empty transcript can pass
    assert {o.outcome for o in run} <= {"skipped", "failed"}


C_801_REVIEW = {"calls the story instructions and review-create", "publishes a visual-change review and links it",
                "opens the review in the in-app browser", "discovers stories before publishing the review",
                "review includes every story export"}
C_801_PREVIEW = {"previews the stories and links them", "opens a story preview in the in-app browser"}
JUDGE = "publishes a well-curated review (LLM judge)"


@pytest.mark.parametrize(("agent", "integration", "review", "extra"), [
    ("claude-code", "mcp", False, C_801_REVIEW | {"invokes the stories skill", "leaves the dev server running"}),
    ("codex", "mcp", True, C_801_PREVIEW | {"reads the documentation (docs-show)", "invokes the stories skill",
                                           "leaves the dev server running"}),
    ("codex", "plugin", True, C_801_PREVIEW),
    ("claude-code", "none", True, C_801_PREVIEW | {"leaves the dev server running"}),
])
def test_801_gen_c_skip_matrix(tmp_path: Path, agent: str, integration: str, review: bool, extra: set[str]) -> None:
    run = storybook.suite("801-create-accessible-component").run(empty_ctx(tmp_path, agent, integration, review))
    assert skipped(run) == extra | {JUDGE}


def test_802_skips_docs_for_every_codex_run(tmp_path: Path) -> None:
    run = storybook.suite("802-create-component").run(empty_ctx(tmp_path, "codex", "plugin", True))
    assert run.outcome("reads the documentation (docs-show)").message == "skipIf(agent === 'codex')"


def test_807_and_808_review_mcp_gates(tmp_path: Path) -> None:
    ctx = empty_ctx(tmp_path, "claude-code", "mcp", True)
    assert storybook.suite("807-docs-request").run(ctx).outcome("reads the documentation").outcome == "skipped"
    assert storybook.suite("808-shared-infra-fallback").run(ctx).outcome("story tests ran and passed").outcome == "skipped"


def test_9xx_are_mcp_only(tmp_path: Path) -> None:
    ctx = empty_ctx(tmp_path, "claude-code", "plugin", True)
    for name in ("908-run-story-tests", "914-preview-story-by-path", "915-preview-story-by-id"):
        run = storybook.suite(name).run(ctx)
        assert {o.outcome for o in run} == {"skipped"}, name


# -- 912: rebuilt from its EVAL.ts (two tests), on hand-made samples --------------------------------

S912 = "912-fix-a11y-violations"
RERUNS = "reruns story tests while fixing accessibility issues"
ASKS = "asks before visual accessibility changes"


def a11y_run(name: str = "912-claude-mcp-asks") -> EvalContext:
    return EvalContext.from_sandbox(STORYBOOK_SAMPLES / name)


def keyword_judge(seen: list[tuple[str, float]] | None = None) -> Any:
    """A stand-in for the LLM judge: passes a final response that asks before changing colours."""

    def judge(ctx: EvalContext, criterion: str, threshold: float) -> CheckResult:
        if seen is not None:
            seen.append((criterion, threshold))
        ok = "Which would you like?" in (ctx.final_assistant_message or "")
        return CheckResult(name="judge", status=Status.PASS if ok else Status.FAIL, summary=f"score {int(ok)}")

    return judge


def test_912_has_the_two_tests_of_its_eval_ts() -> None:
    s = storybook.suite(S912)
    assert [t.name for t in s.tests] == [RERUNS, ASKS]
    judge = s.tests[1]
    assert judge.judge == (storybook.A11Y_VISUAL_CHANGE_APPROVAL_CRITERION, 0.8) and judge.skip is None
    assert judge.gates == () and s.tests[0].gates == ()


def test_912_on_the_samples() -> None:
    asks = storybook.suite(S912).run(a11y_run("912-claude-mcp-asks"), judge=keyword_judge())
    assert asks.ok and (asks.passed, asks.failed) == (2, 0)
    # the last run still reports the contrast violation: a correct agent leaves it and asks
    last = storybook.get_workflow_tool_results(a11y_run(), "test-run")[-1]
    assert "color-contrast" in last.output and "button-name" not in last.output
    once = storybook.suite(S912).run(a11y_run("912-claude-mcp-runs-once"), judge=keyword_judge())
    o = once.outcome(RERUNS)
    assert o.outcome == "failed" and o.message == (
        "Expected test-run to be called at least twice (run, fix, run again): "
        "expected 1 to be greater than or equal to 2")
    assert once.outcome(ASKS).outcome == "passed"
    colours = storybook.suite(S912).run(a11y_run("912-claude-mcp-changes-colours"), judge=keyword_judge())
    assert colours.outcome(RERUNS).outcome == "passed" and colours.outcome(ASKS).outcome == "failed"


def test_912_samples_show_the_colour_change_in_the_file_checks() -> None:
    from agenteval_assert import checks

    button = "src/components/Button.tsx"
    assert checks.check_file_not_changed(a11y_run().transcript, button).passed
    assert checks.check_file_read(a11y_run().transcript, button).passed
    assert checks.check_file_edited(a11y_run("912-claude-mcp-changes-colours").transcript, button).passed


def test_912_is_not_gated(tmp_path: Path) -> None:
    for agent, integration in (("claude-code", "plugin"), ("codex", "mcp"), ("codex", "plugin")):
        run = storybook.suite(S912).run(empty_ctx(tmp_path / f"{agent}-{integration}", agent, integration, False))
        assert skipped(run) == set(), (agent, integration)


# -- judge hook ------------------------------------------------------------------------------------


def test_judge_criterion_is_inconclusive_until_a_judge_exists() -> None:
    run = storybook.suite(S912).run(a11y_run())
    judge = run.outcome(ASKS)
    assert judge.outcome == "inconclusive"
    assert judge.result is not None and judge.result.status is Status.INCONCLUSIVE
    assert any(storybook.A11Y_VISUAL_CHANGE_APPROVAL_CRITERION in n for n in judge.result.notes)
    assert (run.passed, run.failed, run.inconclusive) == (1, 0, 1)
    assert not run.ok


def test_a_judge_plugs_into_the_one_hook(tmp_path: Path) -> None:
    seen: list[tuple[str, float]] = []
    judge = keyword_judge(seen)
    run = storybook.suite(S912).run(a11y_run(), judge=judge)
    assert run.ok and seen == [(storybook.A11Y_VISUAL_CHANGE_APPROVAL_CRITERION, 0.8)]
    # the curation judge is test.skip in the reference; it reaches the judge only on request
    ctx = empty_ctx(tmp_path / "b", "claude-code", "mcp", True)
    s801 = storybook.suite("801-create-component-no-launch-config")
    assert s801.run(ctx, judge=judge).outcome(JUDGE).outcome == "skipped"
    assert s801.run(ctx, judge=judge, run_skipped_judges=True).outcome(JUDGE).outcome == "failed"
    assert seen[-1] == (storybook.DISPLAY_REVIEW_CURATION_CRITERION, 0.5)


def test_a_broken_check_is_an_error_never_a_pass_nor_a_failure(tmp_path: Path) -> None:
    def broken(ctx: EvalContext) -> None:
        raise KeyError("boom")

    t = storybook.EvalTest("broken", broken)
    s = storybook.Suite("x", "x", "B", "test", (t,))
    run = s.run(empty_ctx(tmp_path, "claude-code", "mcp", False))
    (o,) = run
    assert o.outcome == "error" and o.message == "error: KeyError: 'boom'"
    assert (run.failed, run.errors, run.ok) == (0, 1, False)
    assert o.line() == "ERROR        broken: error: KeyError: 'boom'"


def test_a_check_that_could_not_run_is_an_error_with_its_result(tmp_path: Path) -> None:
    from agenteval_assert.results import CheckError

    result = CheckResult(name="x", status=Status.ERROR, summary="error: the pattern timed out")

    def timed_out(ctx: EvalContext) -> None:
        raise CheckError(result)

    (o,) = storybook.Suite("x", "x", "B", "test", (storybook.EvalTest("t", timed_out),)).run(
        empty_ctx(tmp_path, "claude-code", "mcp", False))
    assert (o.outcome, o.message, o.result) == ("error", "error: the pattern timed out", result)


def test_a_judge_error_is_an_error_outcome(tmp_path: Path) -> None:
    def judge(ctx: EvalContext, criterion: str, threshold: float) -> CheckResult:
        return CheckResult(name="judge", status=Status.ERROR, summary="judge error: no API key")

    run = storybook.suite(S912).run(a11y_run(), judge=judge)
    o = run.outcome(ASKS)
    assert o.outcome == "error" and o.message == "judge error: no API key"
    assert run.failed == 0 and run.errors == 1


def test_cheap_first_skips_the_judge_after_a_deterministic_failure(tmp_path: Path) -> None:
    asked: list[str] = []

    def judge(ctx: EvalContext, criterion: str, threshold: float) -> CheckResult:
        asked.append(criterion)
        return CheckResult(name="judge", status=Status.PASS, summary="score 1")

    s801 = storybook.suite("801-create-component-no-launch-config")
    ctx = empty_ctx(tmp_path, "claude-code", "mcp", True)  # no review at all: deterministic tests fail
    run = s801.run(ctx, judge=judge, run_skipped_judges=True, cheap_first=True)
    o = run.outcome(JUDGE)
    assert o.outcome == "skipped" and o.message.startswith("cheap first: ") and "already failed" in o.message
    assert asked == []
    assert [x.name for x in run] == [t.name for t in s801.tests]  # the order of the EVAL.ts is kept
    ok = s801.run(sample("801-claude-mcp-pass"), judge=judge, run_skipped_judges=True, cheap_first=True)
    assert ok.outcome(JUDGE).outcome == "passed" and asked == [storybook.DISPLAY_REVIEW_CURATION_CRITERION]


def test_live_checks_are_inconclusive_offline(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, flat(CU("toolu_1", "Bash", {"command": "npx storybook@latest upgrade"}), CR("toolu_1", "ok")),
                 integration="plugin",
                 files={"package.json": '{"devDependencies":{"storybook":"10.5.1","@storybook/react-vite":"^10.5.0"}}'})
    run = storybook.suite("821-upgrade-from-sb9").run(ctx)
    assert run.outcome("runs storybook upgrade").outcome == "passed"
    assert run.outcome("upgrades Storybook packages to at least 10.5.0").outcome == "passed"
    assert run.outcome("invokes the storybook-upgrade skill").outcome == "failed"
    boots = run.outcome("Storybook boots")
    assert boots.outcome == "inconclusive" and "needs a live sandbox" in boots.message


def test_suite_runs_under_its_own_generation(tmp_path: Path) -> None:
    # 908 is a Gen A eval: run-story-tests via the legacy MCP tool name
    ctx = ctx_of(tmp_path, flat(CU("toolu_1", "mcp__storybook-dev-mcp__run-story-tests", {}), CR("toolu_1", "x")))
    run = storybook.suite("908-run-story-tests").run(ctx)
    assert run.outcome("calls run-story-tests").outcome == "passed"
    assert "generation=A" in run.context


def test_filesystem_checks(tmp_path: Path) -> None:
    files = {"src/utils/format.ts": "export const formatStars = (n: number) => '★'.repeat(n);\n",
             "src/Old.ts": "import { formatRating } from './utils/format';\n"}
    run = storybook.suite("805-non-visual-refactor").run(ctx_of(tmp_path, [CT("Renamed.")], files=files))
    assert run.outcome("formatStars exists in src/").outcome == "passed"
    gone = run.outcome("formatRating is gone from src/")
    assert gone.outcome == "failed" and gone.message == "Expected no formatRating under src/"
    assert gone.result is not None and "Old.ts:1" in gone.result.render()
    assert run.outcome("publishes no review for a non-visual change").outcome == "passed"


# -- the shipped samples ---------------------------------------------------------------------------


def sample(name: str) -> EvalContext:
    return EvalContext.from_sandbox(STORYBOOK_SAMPLES / name)


@pytest.mark.parametrize("suite_name", ["801-create-component-no-launch-config", "801-create-accessible-component"])
def test_passing_sample_passes_both_generations(suite_name: str) -> None:
    run = storybook.suite(suite_name).run(sample("801-claude-mcp-pass"))
    assert run.failed == 0 and run.inconclusive == 0 and run.passed >= 5, [o.line() for o in run]


def test_failing_sample_fails_with_reference_messages() -> None:
    run = storybook.suite("801-create-component-no-launch-config").run(sample("801-claude-mcp-fail"))
    failed = {o.name: o.message for o in run if o.outcome == "failed"}
    assert failed == {
        "publishes a visual-change review and links it":
            "visual change review-create changedFiles must be a non-empty array. Received: undefined",
        "discovers stories before publishing the review":
            "Expected a story-discovery call (stories-changed or stories-find-by-component) before publishing the review",
        "story tests ran and passed": "Final test-run result must not report failing stories",
        "review includes every story export":
            'Expected story "Disabled" from src/components/ToggleSwitch.stories.tsx in the review-create payload. '
            'Received storyIds: ["components-toggleswitch--off","components-toggleswitch--on",'
            '"components-toggleswitch--toggled-with-keyboard"]',
    }


def test_codex_heredoc_sample_passes_gen_c() -> None:
    ctx = sample("801-codex-plugin-heredoc")
    assert ctx.is_codex and ctx.integration == "plugin"
    names = [c.name for c in ctx.workflow_calls]
    assert names == ["skills-get", "docs-show", "test-run", "stories-find-by-component", "review-create"]
    run = storybook.suite("801-create-accessible-component").run(ctx)
    assert run.failed == 0 and run.inconclusive == 0, [o.line() for o in run]
    review = ctx.with_profile(storybook.EvalProfile(generation="C")).workflow_calls[-1]
    assert review.input["changedFiles"] == ["src/components/ToggleSwitch.tsx", "src/components/ToggleSwitch.stories.tsx"]
    assert review.location is not None and review.location.path.endswith("transcript.txt")


@pytest.mark.parametrize("name", sorted(p.name for p in STORYBOOK_SAMPLES.iterdir() if (p / "__agent_eval__").is_dir()))
def test_every_suite_runs_on_every_sample_without_errors(name: str) -> None:
    ctx = sample(name)
    for s in storybook.suites():
        for o in s.run(ctx):
            assert not o.message.startswith("error:"), (s.name, o.name, o.message)


def test_storybook_modules_export_disjoint_names() -> None:
    # ``storybook/__init__`` star-imports every module: a duplicate name would silently shadow one.
    from agenteval_assert.storybook import (
        _cli,
        _context,
        _expect,
        _names,
        _registry,
        _report,
        _suites,
        _workflow,
    )

    seen: dict[str, str] = {}
    for mod in (_names, _report, _workflow, _context, _expect, _suites, _registry, _cli):
        for name in mod.__all__:
            assert name not in seen, f"{name} exported by {seen[name]} and {mod.__name__}"
            seen[name] = mod.__name__
            assert hasattr(storybook, name) or mod is _cli, name


def test_815_msw_checks(tmp_path: Path) -> None:
    files = {
        "package.json": '{"devDependencies":{"msw":"^2.7.0","msw-storybook-addon":"^2.0.5"}}',
        "public/mockServiceWorker.js": "/* msw */\n",
        ".storybook/preview.ts": "import { initialize, mswLoader } from 'msw-storybook-addon';\ninitialize();\n",
        "src/OrderHistory.stories.tsx": "import { http } from 'msw';\nexport const Default = {};\n"
                                         "export const Empty = { beforeEach() { vi.mock('./api'); } };\n",
    }
    run = storybook.suite("815").run(ctx_of(tmp_path, [CT("done")], files=files))
    assert run.outcome("installs and wires MSW").outcome == "passed"
    mocks = run.outcome("stories mock the network with MSW only")
    assert mocks.outcome == "failed"
    assert mocks.message == "Expected src/OrderHistory.stories.tsx to mock the network with MSW, not vi.mock("
    assert mocks.result is not None and "OrderHistory.stories.tsx:3" in mocks.result.render()
    # the review set is unconditional in 815 (review is false here, and it still runs)
    assert run.outcome("publishes a visual-change review and links it").outcome == "failed"


def test_810_reads_the_workspace_not_node_modules(tmp_path: Path) -> None:
    files = {"node_modules/ui/Button.tsx": "export const Button = () => <button onClick={f} />;\n",
             "src/components/Button.tsx": "export const Button = () => <button />;\n",
             "src/components/Button.stories.tsx": "await expect(args.onClick).toHaveBeenCalled();\n"}
    run = storybook.suite("810").run(ctx_of(tmp_path, [CT("fixed")], files=files))
    wires = run.outcome("Button wires onClick")
    assert wires.outcome == "failed"
    assert wires.message == r"Expected src/components/Button.tsx to match /onClick=\{/"
    assert run.outcome("stories still assert the click").outcome == "passed"


def test_cheap_first_keeps_the_references_own_skip_reasons(tmp_path: Path) -> None:
    def failing(ctx: EvalContext) -> None:
        raise AssertionError("nope")

    def gated(ctx: EvalContext) -> str | None:
        return "skipIf(agent === 'claude-code')"

    s = storybook.Suite("x", "x", "B", "test", (
        storybook.EvalTest("deterministic", failing),
        storybook.EvalTest("gated judge", None, (gated,), judge=("c", 0.5)),
        storybook.EvalTest("open judge", None, (), judge=("c", 0.5)),
    ))
    run = s.run(empty_ctx(tmp_path, "claude-code", "mcp", False), cheap_first=True)
    assert [(o.outcome, o.message) for o in run][1:] == [
        ("skipped", "skipIf(agent === 'claude-code')"),
        ("skipped", "cheap first: 'deterministic' already failed, the judge was not asked"),
    ]
