"""The assertion sets of the Storybook evals (spec §8), one ``Suite`` each.

Titles are ours (the reference titles were not all read); the assertions, their arguments and
their gates follow spec §8. Filesystem checks that EVAL.ts writes inline (``existsSync``,
``readFileSync(...).toMatch``) are small functions here, with their own messages.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..model import Location
from ..results import CheckResult, Evidence, InconclusiveError, Status
from . import _expect as x
from ._context import EvalContext
from ._suites import (
    EvalTest,
    Gate,
    Suite,
    claude_plugin_only,
    mcp_only,
    not_codex,
    not_codex_mcp,
    not_mcp,
    not_review_mcp,
    plugin_only,
    review_off,
    review_on,
)

__all__ = ["ALL"]

INSTRUCTIONS = "get-storybook-story-instructions"
Check = Callable[[EvalContext], Any]


def T(name: str, check: Check | None = None, *gates: Gate, judge: tuple[str, float] | None = None,
      skip: str | None = None) -> EvalTest:
    return EvalTest(name, check, tuple(gates), judge, skip)


def seq(*checks: Check) -> Check:
    def run(ctx: EvalContext) -> Any:
        result = None
        for c in checks:
            result = c(ctx)
        return result

    return run


# -- filesystem helpers ---------------------------------------------------------------------------


def _fs_fail(name: str, message: str, path: Path | None = None) -> Exception:
    ev = [Evidence(text=str(path), location=Location(str(path), 1))] if path is not None else []
    return x._fail(name, message, ev)


def _read(ctx: EvalContext, rel: str, name: str) -> str:
    p = ctx.path(rel)
    try:
        return p.read_text(encoding="utf-8")
    except OSError:
        raise _fs_fail(name, f"Expected {rel} to exist", p) from None


def file_exists(rel: str) -> Check:
    def run(ctx: EvalContext) -> CheckResult:
        if not ctx.path(rel).exists():
            raise _fs_fail("file_exists", f"Expected {rel} to exist", ctx.path(rel))
        return CheckResult.passing("file_exists", f"{rel} exists")

    return run


def file_matches(rel: str, pattern: str, *, flags: int = 0, present: bool = True, what: str = "") -> Check:
    rx = re.compile(pattern, flags)

    def run(ctx: EvalContext) -> CheckResult:
        text = _read(ctx, rel, "file_matches")
        found = rx.search(text) is not None
        if found != present:
            verb = "to match" if present else "not to match"
            raise _fs_fail("file_matches", f"Expected {rel} {verb} {x.js_regex_source(rx)}" + (f" ({what})" if what else ""),
                           ctx.path(rel))
        return CheckResult.passing("file_matches", f"{rel} {'matches' if present else 'does not match'} {x.js_regex_source(rx)}")

    return run


def _find(ctx: EvalContext, basename_rx: str) -> list[str]:
    """Workspace files whose name matches, sorted; ``node_modules``, ``.git``, ``dist`` and
    ``__agent_eval__`` are pruned (never walked: a live sandbox has tens of thousands of files there)."""
    rx = re.compile(basename_rx)
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(ctx.workspace):
        dirnames[:] = [d for d in dirnames if d not in _PRUNE]
        rel = Path(dirpath).relative_to(ctx.workspace)
        out.extend((rel / f).as_posix() for f in filenames if rx.search(f))
    return sorted(out)


_PRUNE = frozenset({"node_modules", ".git", "dist", "__agent_eval__"})


def found_file_matches(basename_rx: str, pattern: str, *, flags: int = 0, present: bool = True,
                       what: str = "") -> Check:
    def run(ctx: EvalContext) -> CheckResult:
        files = _find(ctx, basename_rx)
        if not files:
            raise _fs_fail("file_matches", f"Expected a file matching {basename_rx} in the workspace")
        result: CheckResult = file_matches(files[0], pattern, flags=flags, present=present, what=what)(ctx)
        return result

    return run


def src_free_of(word: str) -> Check:
    def run(ctx: EvalContext) -> CheckResult:
        root = ctx.path("src")
        if not root.is_dir():
            # "gone from src/" is an absence claim: with no src/ at all there is nothing to show it
            raise InconclusiveError(CheckResult(
                name="src_free_of", status=Status.INCONCLUSIVE,
                summary=f"inconclusive: expected no {word} under src/, but {root} does not exist",
                expected=f"no {word} under src/", found="no src/ directory",
            ))
        for p in sorted(root.rglob("*")):
            if p.is_file():
                text = p.read_text(encoding="utf-8", errors="replace")
                if word in text:
                    line = text[: text.index(word)].count("\n") + 1
                    raise x._fail("src_free_of", f"Expected no {word} under src/",
                                  [Evidence(text=f"{word} still here", location=Location(str(p), line))])
        return CheckResult.passing("src_free_of", f"no {word} under src/")

    return run


def src_contains(word: str) -> Check:
    def run(ctx: EvalContext) -> CheckResult:
        root = ctx.path("src")
        for p in sorted(root.rglob("*")) if root.is_dir() else []:
            if p.is_file() and word in p.read_text(encoding="utf-8", errors="replace"):
                return CheckResult.passing("src_contains", f"{word} found in {p}")
        raise x._fail("src_contains", f"Expected {word} under src/")

    return run


def unverifiable(what: str) -> Check:
    def run(ctx: EvalContext) -> CheckResult:
        raise InconclusiveError(CheckResult(
            name="unverifiable", status=Status.INCONCLUSIVE,
            summary=f"cannot be decided from a saved sandbox: {what}",
        ))

    return run


def live_only(check: Check, what: str) -> Check:
    """A check that needs a live workspace (``npm``, ``node_modules``): inconclusive offline."""

    def run(ctx: EvalContext) -> Any:
        if not (ctx.workspace / "node_modules").is_dir():
            raise InconclusiveError(CheckResult(
                name="live_only", status=Status.INCONCLUSIVE,
                summary=f"needs a live sandbox with node_modules: {what} (run it inside the sandbox)",
            ))
        return check(ctx)

    return run


# -- shared blocks ---------------------------------------------------------------------------------


def wf(*names: str) -> Check:
    return lambda ctx: x.expect_workflow_calls(ctx, list(names))


def tests_passed(*covering: str) -> Check:
    return lambda ctx: x.expect_story_tests_ran_and_passed(ctx, covering=list(covering))


def preview_links(*covering: str, any_of: Sequence[str] = ()) -> Check:
    return lambda ctx: x.expect_preview_stories_with_final_links(ctx, covering=list(covering),
                                                                 covering_any_of=list(any_of))


def story_ids(*subs: str) -> Check:
    return lambda ctx: x.expect_story_ids_in_display_review(ctx, list(subs))


def skill(name: str) -> Check:
    return lambda ctx: x.expect_skill_invoked(ctx, name)


CURATION = T("publishes a well-curated review (LLM judge)", None, review_on,
             judge=(x.DISPLAY_REVIEW_CURATION_CRITERION, 0.5),
             skip="test.skip in the reference: toScoreAtLeast(DISPLAY_REVIEW_CURATION_CRITERION, 0.5)")


def gen_c_create(component: str, *, curation: bool, docs_gate: Gate, all_exports: bool = True,
                 ids: Sequence[str] = ()) -> tuple[EvalTest, ...]:
    review: list[EvalTest] = [
        T("calls the story instructions and review-create", wf(INSTRUCTIONS, "review-create"), review_on),
        T("publishes a visual-change review and links it", x.expect_display_review_for_visual_change, review_on),
        T("opens the review in the in-app browser", x.expect_review_opened_in_browser, review_on),
    ]
    if ids:
        review.append(T(f"review includes {', '.join(ids)} stories", story_ids(*ids), review_on))
    review.append(T("discovers stories before publishing the review", x.expect_story_discovery_before_review,
                    review_on))
    if all_exports:
        review.append(T("review includes every story export", x.expect_all_story_exports_in_display_review,
                        review_on))
    if curation:
        review.append(CURATION)
    return (
        T("story tests ran and passed", tests_passed(component)),
        *review,
        T("previews the stories and links them", preview_links(component), review_off),
        T("opens a story preview in the in-app browser", x.expect_preview_opened_in_browser, review_off),
        T("reads the documentation (docs-show)", wf("docs-show"), docs_gate),
        T("invokes the stories skill", skill("stories"), not_mcp),
        T("leaves the dev server running", x.expect_dev_server_left_running, plugin_only),
    )


def _808_fallback(ctx: EvalContext) -> CheckResult:
    results = x.get_workflow_tool_results(ctx, "get-changed-stories")
    last = results[-1] if results else None
    if last is not None and not last.is_error:
        low = last.output.lower()
        if "badge" in low and "statuspill" in low:
            return CheckResult.passing("808 fallback", "get-changed-stories already reported Badge and StatusPill",
                                       [x._result_evidence(last)])
    calls = x.get_workflow_calls(ctx, "get-stories-by-component")
    if not calls:
        ev = [x._result_evidence(last, "(last get-changed-stories result)")] if last is not None else []
        raise x._fail("808 fallback", "Expected get-stories-by-component to be called when get-changed-stories "
                      "does not report both Badge and StatusPill", ev + x._considered(ctx))
    return CheckResult.passing("808 fallback", "fell back to get-stories-by-component",
                               [x._call_evidence(c) for c in calls])


def _811_runs_twice(ctx: EvalContext) -> CheckResult:
    calls = x.get_workflow_calls(ctx, "run-story-tests")
    if len(calls) < 2:
        raise x._fail("811 runs", f"Expected run-story-tests to be called at least twice (before and after the fix). "
                      f"Received: {len(calls)}", x._considered(ctx))
    return CheckResult.passing("811 runs", f"run-story-tests called {len(calls)} times")


def _811_violation_seen_then_fixed(ctx: EvalContext) -> CheckResult:
    results = x.get_workflow_tool_results(ctx, "run-story-tests")
    ev = [x._result_evidence(r) for r in results]
    if not any(re.search(r"button-name", r.output) for r in results):
        raise x._fail("811 violation", "Expected a run-story-tests result reporting the button-name violation", ev)
    if results and re.search(r"button-name", results[-1].output):
        raise x._fail("811 violation", "The last run-story-tests result must not report button-name", ev)
    return CheckResult.passing("811 violation", "button-name reported, then fixed", ev)


def _811_no_a11y_off(ctx: EvalContext) -> CheckResult:
    bad = [c for c in x.get_storybook_workflow_calls(ctx) if x._input(c).get("a11y") is False]
    if bad:
        raise x._fail("811 a11y", "Expected no workflow call to turn accessibility checks off (a11y: false)",
                      [x._call_evidence(c) for c in bad])
    return x._never(ctx, "811 a11y", "no call passed a11y: false", x._considered(ctx))


def _912_reruns(ctx: EvalContext) -> CheckResult:
    """``expectWorkflowCalls(['test-run'])`` then
    ``expect(getWorkflowCalls('test-run').length).toBeGreaterThanOrEqual(2)`` (run, fix, run again)."""
    x.expect_workflow_calls(ctx, ["test-run"])
    calls = x.get_workflow_calls(ctx, "test-run")
    ev = [x._call_evidence(c) for c in calls]
    if len(calls) < 2:
        raise x._fail("912 reruns", f"Expected test-run to be called at least twice (run, fix, run again): "
                      f"expected {len(calls)} to be greater than or equal to 2", ev)
    return CheckResult.passing("912 reruns", f"test-run called {len(calls)} times", ev)


def _914_path_and_export(ctx: EvalContext) -> CheckResult:
    calls = x.get_workflow_calls(ctx, "preview-stories")
    for c in calls:
        for inp in x._story_inputs(x._input(c)):
            if isinstance(inp.get("absoluteStoryPath"), str) and isinstance(inp.get("exportName"), str):
                return CheckResult.passing("914", "preview-stories called with absoluteStoryPath + exportName",
                                           [x._call_evidence(c)])
    raise x._fail("914", "Expected a preview-stories call with absoluteStoryPath and exportName",
                  x._considered(ctx, calls) if calls else x._considered(ctx))


def _915_story_id(ctx: EvalContext) -> CheckResult:
    calls = x.get_workflow_calls(ctx, "preview-stories")
    hits = [c for c in calls if x.workflow_call_uses_story_id(c)]
    if not hits:
        raise x._fail("915", "Expected a preview-stories call that uses a storyId",
                      x._considered(ctx, calls) if calls else x._considered(ctx))
    return CheckResult.passing("915", "preview-stories called with a storyId", [x._call_evidence(c) for c in hits])


def _820_package(ctx: EvalContext) -> CheckResult:
    pkg = x._read_json_or_missing(ctx.path("package.json"))
    ev = [Evidence(text="package.json", location=Location(str(ctx.path("package.json")), 1))]
    if not isinstance(pkg, dict):
        raise x._fail("820 package.json", "Expected package.json to contain a JSON object", ev)
    deps = {**(pkg.get("dependencies") or {}), **(pkg.get("devDependencies") or {})}
    for dep in ("storybook", "@storybook/addon-mcp"):
        if dep not in deps:
            raise x._fail("820 package.json", f"Expected package.json to depend on {dep}", ev)
    scripts = pkg.get("scripts")
    if not (isinstance(scripts, dict) and isinstance(scripts.get("storybook"), str)):
        raise x._fail("820 package.json", "Expected package.json to define a storybook script", ev)
    return CheckResult.passing("820 package.json", "storybook, @storybook/addon-mcp and a storybook script", ev)


def _820_main_mentions_addon(ctx: EvalContext) -> CheckResult:
    d = ctx.path(".storybook")
    mains = sorted(d.glob("main.*")) if d.is_dir() else []
    if not mains:
        raise x._fail("820 main", "Expected .storybook/main.* to exist")
    text = mains[0].read_text(encoding="utf-8", errors="replace")
    if "@storybook/addon-mcp" not in text:
        raise _fs_fail("820 main", f"Expected {mains[0].name} to register @storybook/addon-mcp", mains[0])
    return CheckResult.passing("820 main", f"{mains[0].name} registers @storybook/addon-mcp")


def _814_stories(ctx: EvalContext) -> CheckResult:
    files = [f for f in _find(ctx, r"^OrderHistory\.stories\.[jt]sx?$")]
    if not files:
        raise x._fail("814 stories", "Expected OrderHistory stories to be written")
    rel = files[0]
    text = _read(ctx, rel, "814 stories")
    p = ctx.path(rel)
    if "/api/orders" not in text:
        raise _fs_fail("814 stories", f"Expected {rel} to mock /api/orders", p)
    n = len(re.findall(r"^export const ", text, re.MULTILINE))
    if n < 3:
        raise _fs_fail("814 stories", f"Expected at least 3 stories in {rel}. Received: {n}", p)
    if "msw.use(" not in text:
        raise _fs_fail("814 stories", f"Expected {rel} to register handlers with msw.use(", p)
    if "parameters.msw" in text or re.search(r"\bmsw\s*:\s*\{", text):
        raise _fs_fail("814 stories", f"Expected {rel} not to use parameters.msw", p)
    return CheckResult.passing("814 stories", f"{rel}: {n} stories mocking /api/orders with msw.use(")


def _815_msw_setup(ctx: EvalContext) -> CheckResult:
    pkg = x._read_json_or_missing(ctx.path("package.json"))
    ev = [Evidence(text="package.json", location=Location(str(ctx.path("package.json")), 1))]
    if not isinstance(pkg, dict):
        raise x._fail("815 msw", "Expected package.json to contain a JSON object", ev)
    deps = {**(pkg.get("dependencies") or {}), **(pkg.get("devDependencies") or {})}
    for dep in ("msw", "msw-storybook-addon"):
        if dep not in deps:
            raise x._fail("815 msw", f"Expected package.json to depend on {dep}", ev)
    if not ctx.path("public/mockServiceWorker.js").exists():
        raise x._fail("815 msw", "Expected public/mockServiceWorker.js (npx msw init public)")
    d = ctx.path(".storybook")
    previews = sorted(d.glob("preview.*")) if d.is_dir() else []
    if not any("msw-storybook-addon" in p.read_text(encoding="utf-8", errors="replace") for p in previews):
        raise x._fail("815 msw", "Expected .storybook/preview.* to initialise msw-storybook-addon")
    return CheckResult.passing("815 msw", "msw, msw-storybook-addon, the service worker and the preview loader")


_FORBIDDEN_MOCKS = ("sb.mock(", "vi.mock(", "mocked(", "spyOn(", "globalThis.fetch =", "window.fetch =")


def _815_no_module_mocks(ctx: EvalContext) -> CheckResult:
    files = _find(ctx, r"^OrderHistory\.stories\.[jt]sx?$")
    if not files:
        raise x._fail("815 mocks", "Expected OrderHistory stories to be written")
    text = _read(ctx, files[0], "815 mocks")
    for bad in _FORBIDDEN_MOCKS:
        if bad in text:
            line = text[: text.index(bad)].count("\n") + 1
            raise x._fail("815 mocks", f"Expected {files[0]} to mock the network with MSW, not {bad}",
                          [Evidence(text=bad, location=Location(str(ctx.path(files[0])), line))])
    return CheckResult.passing("815 mocks", f"{files[0]} uses no module mocks or fetch stubs")


def upgrade(min_version: str) -> tuple[EvalTest, ...]:
    return (
        T("invokes the storybook-upgrade skill", skill("storybook-upgrade"), not_mcp),
        T("runs storybook upgrade", lambda ctx: x.expect_shell_command_matching(ctx, re.compile(r"storybook(@\S+)?\s+upgrade"))),
        T(f"upgrades Storybook packages to at least {min_version}",
          lambda ctx: x.expect_storybook_dependencies_at_least(
              ctx, min_version, ["storybook", "@storybook/react-vite"], if_present=["@storybook/react"])),
        T("Storybook boots", live_only(x.expect_storybook_boots, "npm run storybook -- --port 6017 --ci")),
    )


ALL: tuple[Suite, ...] = (
    Suite(
        "801-create-component-no-launch-config",
        "Create an accessible ToggleSwitch; the fixture's .claude/launch.json has no configurations",
        "B", "storybookjs/storybook agent-eval/evals @0d4f9543 (spec §8)",
        (
            T("reads the documentation (get-documentation)", wf("get-documentation"), review_off),
            T("calls the story instructions and display-review", wf(INSTRUCTIONS, "display-review"), review_on),
            T("publishes a visual-change review and links it", x.expect_display_review_for_visual_change, review_on),
            T("calls the story instructions and previews the stories",
              seq(wf(INSTRUCTIONS), preview_links("toggleswitch")), review_off),
            T("discovers stories before publishing the review", x.expect_story_discovery_before_review, review_on),
            T("story tests ran and passed", tests_passed("toggleswitch")),
            T("review includes every story export", x.expect_all_story_exports_in_display_review, review_on),
            CURATION,
            T("invokes the stories skill", skill("stories"), not_mcp),
            T("writes a valid Storybook launch config", x.expect_valid_storybook_launch_config, claude_plugin_only),
            T("starts the preview browser", x.expect_preview_browser_started, plugin_only),
        ),
    ),
    Suite(
        "801-create-accessible-component",
        "Create an accessible ToggleSwitch (Gen C)",
        "C", "storybookjs/storybook agent-eval/evals @11e16332 (spec §8)",
        gen_c_create("toggleswitch", curation=True, docs_gate=not_codex_mcp),
    ),
    Suite(
        "802-create-component",
        "Create a ProfileCard from Reshaped primitives",
        "C", "@11e16332 (spec §8)",
        gen_c_create("profilecard", curation=False, docs_gate=not_codex),
    ),
    Suite(
        "803-edit-component",
        "Edit ReviewCard: add a date and an optional onReport",
        "C+", "@18bf0f7a (spec §8); the sandbox rerun of C+ is opt-in (EvalProfile.rerun_story_tests)",
        gen_c_create("reviewcard", curation=False, docs_gate=not_codex, all_exports=False, ids=["reviewcard"]),
    ),
    Suite(
        "804-write-story-for-existing-component",
        "Write stories for an existing AlertBanner",
        "C", "@1fb361f5 (spec §8)",
        (
            T("story tests ran and passed", tests_passed("alertbanner")),
            T("calls the story instructions and review-create", wf(INSTRUCTIONS, "review-create"), review_on),
            T("publishes a visual-change review and links it", x.expect_display_review_for_visual_change, review_on),
            T("opens the review in the in-app browser", x.expect_review_opened_in_browser, review_on),
            T("review includes alertbanner stories", story_ids("alertbanner"), review_on),
            T("discovers stories before publishing the review", x.expect_story_discovery_before_review, review_on),
            T("previews the stories and links them", preview_links("alertbanner"), review_off),
            T("invokes the stories skill", skill("stories"), not_mcp),
            T("leaves the dev server running", x.expect_dev_server_left_running, plugin_only),
        ),
    ),
    Suite(
        "805-non-visual-refactor",
        "Rename formatRating to formatStars; no review may be published",
        "C", "@2d317e9b (spec §8)",
        (
            T("formatRating is gone from src/", src_free_of("formatRating")),
            T("formatStars exists in src/", src_contains("formatStars")),
            T("publishes no review for a non-visual change", x.expect_no_display_review),
        ),
    ),
    Suite(
        "806-browse-request",
        "Show me all ReviewCard states (no code change)",
        "C", "@11e16332 (spec §8)",
        (
            T("publishes a browse review and links it", x.expect_display_review_for_browse_request, review_on),
            T("opens the review in the in-app browser", x.expect_review_opened_in_browser, review_on),
            T("review includes the ReviewCard states",
              story_ids("reviewcard--default", "reviewcard--with-long-comment", "reviewcard--low-rating"), review_on),
            T("previews the stories and links them", preview_links("reviewcard"), review_off),
            T("opens a story preview in the in-app browser", x.expect_preview_opened_in_browser, review_off),
            T("leaves the dev server running", x.expect_dev_server_left_running, plugin_only),
        ),
    ),
    Suite(
        "807-docs-request",
        "Answer a props/usage question about ReviewCard",
        "B", "@0d4f9543 (spec §8; Gen A tool names)",
        (
            T("reads the documentation", wf("list-all-documentation", "get-documentation"), not_review_mcp),
            T("answers with author, rating and comment",
              lambda ctx: x.expect_final_response_contains(ctx, ["author", "rating", "comment"])),
        ),
    ),
    Suite(
        "808-shared-infra-fallback",
        "Change the accent colour token; the review must show its consumers (Badge, StatusPill)",
        "B", "@0d4f9543 (spec §8; Gen A tool names)",
        (
            T("changes the accent colour token",
              seq(file_matches("src/theme/colors.ts", r"#7c3aed", flags=re.IGNORECASE),
                  file_matches("src/theme/colors.ts", r"#2563eb", flags=re.IGNORECASE, present=False))),
            T("publishes a visual-change review and links it", x.expect_display_review_for_visual_change, review_on),
            T("review includes Badge and StatusPill stories", story_ids("badge", "statuspill"), review_on),
            T("discovers stories before publishing the review", x.expect_story_discovery_before_review, review_on),
            T("falls back to stories-by-component when changed stories miss the consumers", _808_fallback, review_on),
            T("previews a consumer story and links it", preview_links(any_of=["badge", "statuspill"]), review_off),
            T("story tests ran and passed", tests_passed("badge", "statuspill"), not_review_mcp),
            T("invokes the stories skill", skill("stories"), not_mcp),
            T("writes a valid Storybook launch config", x.expect_valid_storybook_launch_config, claude_plugin_only),
            T("starts the preview browser", x.expect_preview_browser_started, plugin_only),
        ),
    ),
    Suite(
        "810-fix-failing-tests",
        "Button never wires onClick; fix the component",
        "C", "@27653e67 (spec §8)",
        (
            T("story tests ran and passed", tests_passed("button")),
            T("Button wires onClick", found_file_matches(r"^Button\.tsx$", r"onClick=\{")),
            T("stories still assert the click",
              found_file_matches(r"^Button\.stories\.[jt]sx?$", r"toHaveBeenCalled")),
        ),
    ),
    Suite(
        "811-fix-a11y-violations",
        "Fix a button-name violation and surface the colour-contrast concern",
        "B", "@15c14095 (spec §8; Gen A tool names)",
        (
            T("runs the story tests before and after the fix", _811_runs_twice),
            T("story tests ran and passed", tests_passed("button")),
            T("the button-name violation was reported, then fixed", _811_violation_seen_then_fixed),
            T("stories keep iconOnly: true", found_file_matches(r"^Button\.stories\.[jt]sx?$", r"iconOnly:\s*true")),
            T("accessibility checks were never turned off", _811_no_a11y_off),
            T("Button keeps its #b0b0b0 colour", found_file_matches(r"^Button\.tsx$", r"#b0b0b0", flags=re.IGNORECASE)),
            T("the final response mentions contrast",
              lambda ctx: x.expect_final_response_matches(ctx, [re.compile("contrast", re.IGNORECASE)])),
        ),
    ),
    Suite(
        "812-first-story-empty-project",
        "First Button stories in an empty Storybook",
        "C", "@1122a1c3 (spec §8)",
        (
            T("story tests ran and passed", tests_passed("button")),
            T("calls the story instructions and review-create", wf(INSTRUCTIONS, "review-create"), review_on),
            T("publishes a visual-change review and links it", x.expect_display_review_for_visual_change, review_on),
            T("opens the review in the in-app browser", x.expect_review_opened_in_browser, review_on),
            T("review includes button stories", story_ids("button"), review_on),
            T("review includes every story export", x.expect_all_story_exports_in_display_review, review_on),
            T("discovers stories before publishing the review", x.expect_story_discovery_before_review, review_on),
            T("previews the stories and links them", preview_links("button"), review_off),
            T("opens a story preview in the in-app browser", x.expect_preview_opened_in_browser, review_off),
            T("invokes the stories skill", skill("stories"), not_mcp),
            T("leaves the dev server running", x.expect_dev_server_left_running, plugin_only),
        ),
    ),
    Suite(
        "813-monorepo-leaf-create-component",
        "Create Callout inside the packages/ui workspace leaf",
        "B", "@0e63f79d (spec §8)",
        (
            T("Callout is created in packages/ui", file_exists("packages/ui/src/components/Callout.tsx")),
            T("review, instructions, story ids, discovery and tests", None,
              skip="test.todo in the reference (storybookjs/storybook#35359)"),
            T("writes a valid Storybook launch config", x.expect_valid_storybook_launch_config, claude_plugin_only),
            T("starts the preview browser", x.expect_preview_browser_started, plugin_only),
        ),
    ),
    Suite(
        "814-write-stories-for-fetching-component",
        "Stories for OrderHistory, which fetches /api/orders, using MSW",
        "C", "@4ca91d12 (spec §8)",
        (
            T("story tests ran and passed", tests_passed("orderhistory")),
            T("the component is unchanged", unverifiable("the original OrderHistory component is not in the saved sandbox")),
            T("stories mock /api/orders with msw.use(", _814_stories),
            T("calls the story instructions and review-create", wf(INSTRUCTIONS, "review-create"), review_on),
            T("publishes a visual-change review and links it", x.expect_display_review_for_visual_change, review_on),
            T("opens the review in the in-app browser", x.expect_review_opened_in_browser, review_on),
            T("review includes orderhistory stories", story_ids("orderhistory"), review_on),
            T("discovers stories before publishing the review", x.expect_story_discovery_before_review, review_on),
            T("previews the stories and links them", preview_links("orderhistory"), review_off),
            T("opens a story preview in the in-app browser", x.expect_preview_opened_in_browser, review_off),
            T("invokes the stories skill", skill("stories"), not_mcp),
            T("leaves the dev server running", x.expect_dev_server_left_running, plugin_only),
        ),
    ),
    Suite(
        "815-write-stories-for-fetching-component-without-msw",
        "Stories for OrderHistory; the agent must install MSW and its addon",
        "C+", "@73de94c2 (spec §8); requireAgentRun defaults to true (modelRunsTestsOnlyWhenAsked is unknown)",
        (
            T("story tests ran and passed", tests_passed("orderhistory")),
            T("installs and wires MSW", _815_msw_setup),
            T("stories mock the network with MSW only", _815_no_module_mocks),
            T("calls the story instructions and review-create", wf(INSTRUCTIONS, "review-create")),
            T("publishes a visual-change review and links it", x.expect_display_review_for_visual_change),
            T("opens the review in the in-app browser", x.expect_review_opened_in_browser),
            T("review includes orderhistory stories", story_ids("orderhistory")),
            T("discovers stories before publishing the review", x.expect_story_discovery_before_review),
            T("invokes the stories skill", skill("stories"), not_mcp),
        ),
    ),
    Suite(
        "820-init-no-storybook",
        "Set up Storybook in a plain Vite app",
        "C", "@1d19e3b3 (spec §8)",
        (
            T("invokes the storybook-init skill", skill("storybook-init"), not_mcp),
            T("runs the Storybook initialiser", lambda ctx: x.expect_shell_command_matching(
                ctx, re.compile(r"create(-|\s+)storybook|storybook(@\S+)?\s+init"))),
            T("package.json has storybook, the MCP addon and a storybook script", _820_package),
            T(".storybook/main registers the MCP addon", _820_main_mentions_addon),
            T("Storybook boots", live_only(x.expect_storybook_boots, "npm run storybook -- --port 6017 --ci")),
        ),
    ),
    Suite("821-upgrade-from-sb9", "Upgrade from Storybook 9.1.20", "C", "@225825d5 (spec §8)", upgrade("10.5.0")),
    Suite("822-upgrade-from-stable", "Upgrade from Storybook 10.4.0", "C", "@52a3e9d8 (spec §8)", upgrade("10.6.0")),
    Suite("823-setup-outdated-storybook", "A setup request on an outdated 10.4.0 routes to the upgrade skill",
          "C", "@48be1fc4 (spec §8)", upgrade("10.5.0")),
    Suite(
        "908-run-story-tests",
        "Run the story tests (MCP-only smoke)",
        "A", "@199efc59 (spec §8)",
        (T("calls run-story-tests", wf("run-story-tests"), mcp_only),),
    ),
    Suite(
        "912-fix-a11y-violations",
        "Run the story tests, fix what can be fixed directly, ask before changing visual colours",
        "C", "its EVAL.ts (spec §8): exactly two tests, test-run called at least twice and the "
             "A11Y_VISUAL_CHANGE_APPROVAL_CRITERION judge at 0.8 (not skipped)",
        (
            T("reruns story tests while fixing accessibility issues", _912_reruns),
            T("asks before visual accessibility changes", None,
              judge=(x.A11Y_VISUAL_CHANGE_APPROVAL_CRITERION, 0.8)),
        ),
    ),
    Suite(
        "914-preview-story-by-path",
        "Preview a story by file path and export name",
        "A", "@199efc59 (spec §8)",
        (T("previews by absoluteStoryPath + exportName", _914_path_and_export, mcp_only),),
    ),
    Suite(
        "915-preview-story-by-id",
        "Preview a story by story id",
        "A", "@199efc59 (spec §8)",
        (T("previews by storyId", _915_story_id, mcp_only),),
    ),
)
