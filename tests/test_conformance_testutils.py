"""Spec §9: every test-utils case of tables B*, E* and the D* rendering cases, as real transcripts.

Inputs are written as Claude Code session JSONL lines and Codex ``exec --json`` events in a saved
sandbox (``__agent_eval__/agent.json``, ``results.json``, ``transcript.txt``) and read back through
``EvalContext``; the expected outcomes are the spec's.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from agenteval_assert import parse
from agenteval_assert.results import TranscriptAssertionError
from agenteval_assert.storybook._context import EvalContext, EvalProfile
from agenteval_assert.storybook._expect import (
    expect_dev_server_left_running,
    expect_preview_browser_started,
    expect_review_opened_in_browser,
    expect_story_tests_ran_and_passed,
    expect_valid_storybook_launch_config,
    find_dev_server_kill_commands,
    get_storybook_workflow_calls,
    get_workflow_calls,
    get_workflow_tool_results,
    is_local_dev_server_url,
    is_local_storybook_preview_url,
    parse_codex_browser_navigations,
    run_story_tests_in_sandbox,
    select_final_run_story_tests_report,
    workflow_call_includes_story,
    workflow_call_uses_story_id,
)
from agenteval_assert.storybook._workflow import WorkflowResult

from .test_storybook_context import (
    CR,
    CT,
    CU,
    XC,
    XG,
    XM,
    XT,
    bash,
    codex_end,
    codex_start,
    ctx_of,
    flat,
    jsonl,
)

B = EvalProfile(generation="B")
C = EvalProfile(generation="C")
CPLUS = EvalProfile(generation="C+")


@pytest.fixture(params=["claude-code", "codex"])
def agent(request: pytest.FixtureRequest) -> str:
    """B1–B15 run twice: as Claude ``Bash`` calls and as Codex ``command_execution`` items."""
    return str(request.param)


def plugin_ctx(tmp_path: Path, agent: str, commands: Sequence[str], profile: EvalProfile = B) -> EvalContext:
    """A plugin run whose shell commands are *commands* (also recorded in results.json).

    Codex runs every command as ``/bin/bash -lc '<command>'``; the wrapper is unwrapped.
    """
    if agent == "codex":
        items = [XC(f"item_{i}", "/bin/bash -lc " + shlex.quote(c), "ok", 0) for i, c in enumerate(commands, 1)]
        lines = flat(codex_start(), *items, XT("item_0", "done"), codex_end())
    else:
        lines = flat(*[bash(f"toolu_{i}", c, "ok") for i, c in enumerate(commands, 1)], CT("done"))
    ctx = ctx_of(tmp_path, lines, agent=agent, integration="plugin", profile=profile)
    assert len(ctx.shell_commands) == len(commands)
    return ctx


def plugin_calls(tmp_path: Path, agent: str, commands: Sequence[str], profile: EvalProfile = B) -> list[Any]:
    return get_storybook_workflow_calls(plugin_ctx(tmp_path, agent, commands, profile))


def names_inputs(calls: Sequence[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, c.input) for c in calls]


# ---------------------------------------------------------------------------------------------
# B1–B15: workflow calls from plugin shell commands


def test_b1_skills_literal(tmp_path: Path, agent: str) -> None:
    calls = plugin_calls(tmp_path, agent, ['npx storybook skills write-story 2>&1 | grep -v "npm warn"',
                                    "npx storybook skills stories", "npx storybook skills"])
    assert names_inputs(calls) == [("skills-get", {"id": "write-story"}), ("skills-get", {"id": "stories"})]
    assert {c.source for c in calls} == {"cli"}


def test_b2_skills_alias(tmp_path: Path, agent: str) -> None:
    root = tmp_path
    cmds = ["npx storybook skills write-story", "npx storybook skills --all", "npx storybook skills stories",
            "npx storybook skills all"]
    ctx = plugin_ctx(root, agent, cmds)
    assert [c.input for c in ctx.workflow_calls] == [{"id": "write-story"}, {"all": True}, {"id": "stories"},
                                                     {"id": "all"}]
    matched = get_workflow_calls(ctx, "get-storybook-story-instructions")
    assert [c in matched for c in ctx.workflow_calls] == [True, True, False, False]


@pytest.mark.parametrize("command", [
    "npx storybook skills write-story --help",
    "npx storybook skills write-story -h && npx storybook skills --all --help",
    "npx storybook skills stories --all",
    "npx storybook skills --all stories",
    "echo 'storybook skills write-story'",
])
def test_b3_skills_rejections(tmp_path: Path, agent: str, command: str) -> None:
    assert plugin_calls(tmp_path, agent, [command]) == []


AI_TEST_RUN = """npx storybook ai test-run --json '{"stories":[{"storyId":"example-button--primary"}]}'"""


def test_b4_repeats_across_commands(tmp_path: Path, agent: str) -> None:
    calls = plugin_calls(tmp_path, agent, [AI_TEST_RUN, AI_TEST_RUN])
    assert [c.name for c in calls] == ["test-run", "test-run"]
    assert all(workflow_call_uses_story_id(c) for c in calls)


def test_b5_chained(tmp_path: Path, agent: str) -> None:
    assert [c.name for c in plugin_calls(tmp_path, agent, [AI_TEST_RUN + " && " + AI_TEST_RUN])] == ["test-run", "test-run"]


def test_b6_path_and_export(tmp_path: Path, agent: str) -> None:
    (call,) = plugin_calls(tmp_path, agent, [
        """npx storybook ai stories-preview --json '{"stories":[{"absoluteStoryPath":"stories/Button.stories.tsx","exportName":"Primary"}]}'"""])
    assert call.name == "stories-preview"
    assert workflow_call_includes_story(call, {"absoluteStoryPath": "stories/Button.stories.tsx", "exportName": "Primary"})
    assert not workflow_call_includes_story(call, {"absoluteStoryPath": "stories/Button.stories.tsx", "exportName": "Other"})
    assert workflow_call_includes_story(call, {"absoluteStoryPath": "./Button.stories.tsx", "exportName": "Primary"})


def test_b7_inline_json(tmp_path: Path, agent: str) -> None:
    (call,) = plugin_calls(tmp_path, agent, [
        """npx storybook ai test-run --json='{"stories":[{"storyId":"example-button--primary"}],"a11y":false}'"""])
    assert call.input["a11y"] is False
    assert workflow_call_includes_story(call, {"storyId": "example-button--primary"})


B8 = """STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 39497 review-create --json '{
  "title": "ToggleSwitch",
  "description": "A switch with `role=\\"switch\\"` semantics.",
  "collections": [
    {"title": "ToggleSwitch states", "rationale": "All states.", "storyIds": ["components-toggleswitch--off"]}
  ],
  "changedFiles": ["src/components/ToggleSwitch.tsx"]
}' 2>&1 | tail -30"""


def test_b8_single_quote_backslashes(tmp_path: Path, agent: str) -> None:
    (call,) = plugin_calls(tmp_path, agent, [B8])
    assert call.name == "review-create"
    assert call.input["description"] == 'A switch with `role="switch"` semantics.'
    assert call.input["collections"] == [{"title": "ToggleSwitch states", "rationale": "All states.",
                                          "storyIds": ["components-toggleswitch--off"]}]


PROFILE_CARD = {
    "title": "New ProfileCard component",
    "description": "A card showing an avatar, name and role.",
    "collections": [{"title": "The full card", "rationale": "Default composition.",
                     "storyIds": ["src-components-profilecard--default"]}],
    "changedFiles": ["src/components/ProfileCard.tsx"],
}


def test_b9_cat_heredoc(tmp_path: Path, agent: str) -> None:
    cmd = ("cat > /tmp/review.json <<'EOF'\n" + json.dumps(PROFILE_CARD, indent=2) + "\nEOF\n"
           'STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai -p 36917 review-create --json "$(cat /tmp/review.json)" '
           "2>&1 | tail -20")
    (call,) = plugin_calls(tmp_path, agent, [cmd])
    assert call.name == "review-create"
    assert call.input["title"] == "New ProfileCard component"
    assert call.input["collections"] == PROFILE_CARD["collections"]
    assert call.input["changedFiles"] == ["src/components/ProfileCard.tsx"]


def test_b10_json_before_command(tmp_path: Path, agent: str) -> None:
    payload = {"title": "ReviewCard with date and report button", "description": "d",
               "collections": [{"title": "ReviewCard states", "rationale": "Default plus report.",
                                "storyIds": ["reviews-reviewcard--default"]}]}
    cmd = f"STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 43383 --json '{json.dumps(payload)}' review-create 2>&1"
    (call,) = plugin_calls(tmp_path, agent, [cmd])
    assert call.name == "review-create"
    assert call.input["title"] == payload["title"] and call.input["collections"] == payload["collections"]


def test_b11_no_ad_hoc_mcp(tmp_path: Path, agent: str) -> None:
    assert plugin_calls(tmp_path, agent, [
        """node scripts/mcp-call.mjs test-run '{"stories":[]}'""",
        """curl http://127.0.0.1:6006/mcp/stories-preview --data '{"stories":[]}'"""]) == []


def test_b12_redirections(tmp_path: Path, agent: str) -> None:
    calls = plugin_calls(tmp_path, agent, ["STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai stories-changed 2>&1",
                                    "npx storybook ai --port 6006 test-run >out.txt 2> err.log"])
    assert [c.name for c in calls] == ["stories-changed", "test-run"]
    assert calls[0].input == {}
    assert "json" not in calls[1].input


def test_b13_non_shell_dash_c(tmp_path: Path, agent: str) -> None:
    calls = plugin_calls(tmp_path, agent, [
        ('sleep 3; curl -s http://localhost:40097/index.json 2>/dev/null | head -c 800; echo; echo "---changed---"; '
        'STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 40097 stories-changed 2>&1 | grep -v "No story files" | head -40'),
        "curl -c cookies.txt http://localhost:6006/ && npx storybook ai stories-changed",
        """grep -c foo bar.txt; npx storybook ai stories-find-by-component --json '{"componentPaths":["src/Badge.tsx"]}'""",
    ])
    assert [c.name for c in calls] == ["stories-changed", "stories-changed", "stories-find-by-component"]


def test_b14_genuine_wrappers(tmp_path: Path, agent: str) -> None:
    calls = plugin_calls(tmp_path, agent, ["bash -c 'npx storybook ai stories-changed'",
                                    "/bin/sh -lc 'npx storybook ai --port 6006 test-run'",
                                    "env bash -x -c 'npx storybook ai stories-find-by-component'"])
    assert [c.name for c in calls] == ["stories-changed", "test-run", "stories-find-by-component"]


def test_b15_tools_pairs(tmp_path: Path, agent: str) -> None:
    calls = plugin_calls(tmp_path, agent, [
        """npx storybook tools test run --json '{"stories":[{"storyId":"example-button--primary"}]}'""",
        """npx storybook tools stories find-by-component --json '{"componentPaths":["src/Badge.tsx"]}'""",
        """npx storybook tools review create --json '{"title":"Pass","description":"x","collections":[]}'""",
    ])
    assert [c.name for c in calls] == ["test-run", "stories-find-by-component", "review-create"]
    assert calls[0].input["stories"] == [{"storyId": "example-button--primary"}]


# ---------------------------------------------------------------------------------------------
# B16–B24: test-run results from the raw transcript, final report selection


def results(tmp_path: Path, lines: Sequence[Any], **kw: Any) -> list[Any]:
    return get_workflow_tool_results(ctx_of(tmp_path, lines, **kw), "test-run")


def test_b16_claude_mcp_pairing_out_of_order(tmp_path: Path) -> None:
    rs = results(tmp_path, flat(
        CU("toolu_1", "mcp__storybook-dev-mcp__test-run", {}),
        CU("toolu_2", "mcp__storybook-dev-mcp__stories-preview", {}),
        CR("toolu_2", [{"type": "text", "text": "http://localhost:6006"}]),
        CR("toolu_1", [{"type": "text", "text": "## Passing Stories\n\n- example-button--primary"}])))
    assert len(rs) == 1 and "## Passing Stories" in rs[0].output and rs[0].is_error is False
    assert rs[0].location is not None and rs[0].location.line == 4


def test_b17_claude_plugin_path(tmp_path: Path) -> None:
    rs = results(tmp_path, bash("toolu_1", "STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 6006 test-run",
                                "## Failing Stories\n\n### example-button--primary"), integration="plugin")
    assert len(rs) == 1 and "## Failing Stories" in rs[0].output


def test_b18_claude_error(tmp_path: Path) -> None:
    rs = results(tmp_path, flat(CU("toolu_1", "mcp__storybook-dev-mcp__test-run", {}),
                                CR("toolu_1", "Test run was cancelled", True)))
    assert len(rs) == 1 and rs[0].is_error is True


def test_b19_codex_mcp_counts_completed_once(tmp_path: Path) -> None:
    rs = results(tmp_path, flat(codex_start(), XM("item_1", "storybook", "test-run", {"stories": [{"storyId": "a--b"}]},
                                                  "## Passing Stories\n\n- a--b"), codex_end()), agent="codex")
    assert len(rs) == 1 and "## Passing Stories" in rs[0].output and rs[0].is_error is False


def test_b20_codex_command_execution(tmp_path: Path) -> None:
    rs = results(tmp_path, flat(codex_start(), XC(
        "item_1", "/bin/bash -lc 'npx storybook ai --port 6006 test-run'",
        "## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n### a--c", 0), codex_end()),
        agent="codex", integration="plugin")
    assert len(rs) == 1 and "## Failing Stories" in rs[0].output


def test_b21_noise(tmp_path: Path) -> None:
    assert results(tmp_path, ["not json", *bash("toolu_1", "npm run lint", "lint ok")]) == []


PASSING = WorkflowResult("## Passing Stories\n\n- example-button--primary", False)


def test_b22_select_skips_fragments() -> None:
    rs = [PASSING, WorkflowResult("exit-check-done", False), WorkflowResult("", True)]
    assert select_final_run_story_tests_report(rs) is PASSING


def test_b23_select_later_real_report_wins() -> None:
    failing = WorkflowResult("## Failing Stories\n\n### a--c", False)
    assert select_final_run_story_tests_report([PASSING, failing]) is failing


def test_b24_select_fallback() -> None:
    err = WorkflowResult("Error: dev server unreachable", True)
    assert select_final_run_story_tests_report([err]) is err
    assert select_final_run_story_tests_report([]) is None


# ---------------------------------------------------------------------------------------------
# B25–B35: Codex navigations, URLs, kill commands, fail-loud gates


GOTO_REVIEW = "var tab = (await browser.tabs.selected()) ?? (await browser.tabs.new());\nawait tab.goto('http://localhost:6006/?path=/review/');"
GOTO_STORY = 'await tab.goto("http://localhost:6006/?path=/story/button--primary");'


def test_b25_codex_goto() -> None:
    raw = jsonl(flat(codex_start(), XG("item_1", GOTO_REVIEW), "not json", XG("item_2", GOTO_STORY), codex_end()))
    assert parse_codex_browser_navigations(raw) == ["http://localhost:6006/?path=/review/",
                                                    "http://localhost:6006/?path=/story/button--primary"]
    assert parse_codex_browser_navigations(parse(raw)) == parse_codex_browser_navigations(raw)


def test_b26_codex_goto_ignored() -> None:
    raw = jsonl(flat(codex_start(),
                     XG("item_1", GOTO_REVIEW, status="failed"),
                     XG("item_2", GOTO_REVIEW, error="timed out"),
                     XG("item_3", "await tab.reload();"),
                     XG("item_4", GOTO_REVIEW, server="other-server"), codex_end()))
    assert parse_codex_browser_navigations(raw) == []


def test_b27_empty() -> None:
    assert parse_codex_browser_navigations("") == []


@pytest.mark.parametrize("url", ["http://localhost:6006/?path=/story/button--primary",
                                 "http://127.0.0.1:4123/iframe.html?id=button--primary", "http://[::1]:6006/",
                                 "http://LOCALHOST:6006/", "http://127.1:6006/"])
def test_b28_local_dev_server_url(url: str) -> None:
    assert is_local_dev_server_url(url)


@pytest.mark.parametrize("url", ["https://storybook.js.org", "file:///tmp/index.html", "about:blank", "not a url",
                                 "http://localhost:abc/"])
def test_b29_not_local_dev_server_url(url: str) -> None:
    assert not is_local_dev_server_url(url)


# WHATWG ``new URL`` host parsing (what the reference's JavaScript sees), where urllib differs
@pytest.mark.parametrize(("url", "local"), [
    ("http://[0:0:0:0:0:0:0:1]:6006/?path=/review/", True),  # IPv6 is serialized compressed: [::1]
    ("http://[0::1]/", True),
    ("http://127.0.0.1.:6006/", True),  # a trailing dot after an IPv4 address is dropped
    ("http://localhost\\?path=/review/", True),  # \ is / after a special scheme
    ("http:\\\\localhost:6006/", True),
    ("http:localhost:6006/", True),  # any slashes (or none) after http:
    ("http://0x7f.1/", True), ("http://2130706433/", True), ("http://0177.0.0.1/", True),  # IPv4 forms
    ("http://%6Cocalhost/", True), ("http://loc\talhost:6006/", True), ("http://user:pw@localhost/", True),
    ("http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/", True),  # full-width letters: IDNA maps them
    ("http://localhost./", False),  # a domain keeps its trailing dot
    ("http://evil.example\\@localhost/", False),  # the host ends at the backslash
    ("http://127.0.0.1:6006@evil.example/", False),
    ("http://localhost:65536/", False), ("http://[::1/", False), ("http://127.0.0.1.1/", False),
    ("http://[::ffff:127.0.0.1]/", False),  # serialized [::ffff:7f00:1]
    ("ws://localhost:6006/", False),
])
def test_local_dev_server_url_follows_whatwg_host_parsing(url: str, local: bool) -> None:
    assert is_local_dev_server_url(url) is local


def test_url_port_is_whatwg_port() -> None:
    from agenteval_assert.storybook._url import parse_url

    assert [p.port if (p := parse_url(u)) else None for u in (
        "http://localhost:6006/", "http://localhost:80/", "https://localhost:443", "http://localhost/",
        "http:\\\\127.1:4000", "http://localhost:6006x/")] == ["6006", "", "", "", "4000", None]


NAV = ["http://localhost:6006/?path=/review/"]


def test_b30_kill_flagged() -> None:
    assert find_dev_server_kill_commands(["pkill -f storybook"], NAV) == ["pkill -f storybook"]
    for cmd in ["kill $(cat /tmp/storybook.pid)", "fuser -k 6006/tcp", "fuser -n tcp -k 6006"]:
        assert len(find_dev_server_kill_commands([cmd], NAV)) == 1, cmd


def test_b31_kill_blind_spot() -> None:
    assert find_dev_server_kill_commands(["PID=$(lsof -ti:6006)", "kill $PID"], NAV) == []


def test_b32_kill_ignored() -> None:
    assert find_dev_server_kill_commands(["pkill -f chromium", "nohup npm run storybook >/tmp/storybook.log 2>&1 &",
                                          "curl http://localhost:6006"], NAV) == []


@pytest.mark.parametrize("url", ["http://localhost:6006/?path=/review/change", "http://localhost:6006/?path=/story/button--primary",
                                 "http://127.0.0.1:4123/iframe.html?id=button--primary"])
def test_b33_preview_url(url: str) -> None:
    assert is_local_storybook_preview_url(url)


@pytest.mark.parametrize("url", ["http://localhost:5173/", "http://localhost:6006/",
                                 "https://storybook.js.org/?path=/story/button"])
def test_b34_not_preview_url(url: str) -> None:
    assert not is_local_storybook_preview_url(url)


def test_b35_fail_loud(tmp_path: Path) -> None:
    mcp = ctx_of(tmp_path / "a", [CT("hi")], integration="mcp")
    with pytest.raises(AssertionError, match=r"only for claude-code \+ plugin.*integration=mcp"):
        expect_valid_storybook_launch_config(mcp)
    codex = ctx_of(tmp_path / "b", flat(codex_start(), XT("item_1", "hi"), codex_end()), agent="codex",
                   integration="plugin")
    with pytest.raises(AssertionError, match=r"only for claude-code \+ plugin.*agent=codex"):
        expect_valid_storybook_launch_config(codex)
    with pytest.raises(AssertionError, match=r"only for plugin.*integration=mcp"):
        expect_preview_browser_started(mcp)
    # the @05df4580 source returns silently instead: the profile option, flagged vacuous
    quiet = mcp.with_profile(EvalProfile(out_of_context="return"))
    assert expect_valid_storybook_launch_config(quiet).vacuous
    assert expect_preview_browser_started(quiet).vacuous


# ---------------------------------------------------------------------------------------------
# D1–D7: test-run --json output rendered (Gen C, compact renderer)

JL_CMD = """npx storybook tools test run --input '{"stories":[{"storyId":"reviews-reviewcard--default"}]}' --json"""


def status(story: str, value: str, type_id: str = "storybook/component-test") -> dict[str, Any]:
    return {"storyId": story, "typeId": type_id, "value": value, "title": "", "description": "",
            "sidebarContextMenu": False}


def success(story: str) -> dict[str, Any]:
    return status(story, "status-value:success")


def rendered(tmp_path: Path, doc: Any, *, raw: str | None = None, cmd: str = JL_CMD) -> list[str]:
    out = raw if raw is not None else json.dumps(doc, indent=2) + "\n"
    lines = flat(codex_start(), XC("item_1", cmd, out, 0), codex_end())
    ctx = ctx_of(tmp_path, lines, agent="codex", integration="plugin", profile=C)
    return [r.output for r in get_workflow_tool_results(ctx, "test-run")]


def test_d1_completed_passing(tmp_path: Path) -> None:
    doc = {"status": "completed", "a11y": True, "result": {
        "componentTestStatuses": [success("reviews-reviewcard--default"), success("reviews-reviewcard--with-report-action")],
        "a11yStatuses": [status("reviews-reviewcard--default", "status-value:success", "storybook/a11y")],
        "a11yReports": {"reviews-reviewcard--default": [{"violations": [], "passes": [{"id": "button-name"}],
                                                         "inapplicable": [{"id": "color-contrast"}]}]},
        "unhandledErrors": []}}
    assert rendered(tmp_path, doc) == ["## Passing Stories\n\n- reviews-reviewcard--default\n- reviews-reviewcard--with-report-action"]


D2 = {"status": "completed", "a11y": True, "result": {
    "componentTestStatuses": [success("a--b"), {**status("a--c", "status-value:error"), "description": "expected 1 to be 2"}],
    "a11yReports": {"a--b": [{"violations": [{"id": "button-name", "description": "Buttons must have discernible text",
                                              "nodes": [{"impact": "critical", "html": "<button></button>"}]}],
                              "passes": []}],
                    "a--c": [{"error": {"message": "axe crashed"}}]},
    "unhandledErrors": [{"name": "TypeError", "message": "x is not a function"}]}}


def test_d2_compact_sections(tmp_path: Path) -> None:
    assert rendered(tmp_path, D2) == [
        ("## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n- a--c\n\n## Accessibility Violations\n\n"
        "- a--b - button-name\n\n## Unhandled Errors\n\n- TypeError")]


def test_d2_rendered_report_fails_story_tests(tmp_path: Path) -> None:
    lines = flat(codex_start(), XC("item_1", JL_CMD, json.dumps(D2, indent=2) + "\n", 0), codex_end())
    ctx = ctx_of(tmp_path, lines, agent="codex", integration="plugin", profile=C)
    with pytest.raises(AssertionError, match=r"^Final test-run result must not report failing stories"):
        expect_story_tests_ran_and_passed(ctx)


def test_d3_a11y_off_hides_violations(tmp_path: Path) -> None:
    doc = {"status": "completed", "a11y": False, "result": {
        "componentTestStatuses": [success("a--b")],
        "a11yReports": {"a--b": [{"violations": [{"id": "button-name"}], "passes": []}]}, "unhandledErrors": []}}
    assert rendered(tmp_path, doc) == ["## Passing Stories\n\n- a--b"]


def test_d4_npm_noise_around_the_document(tmp_path: Path) -> None:
    doc = {"status": "completed", "a11y": True, "result": {"componentTestStatuses": [success("a--b")],
                                                           "a11yReports": {}, "unhandledErrors": []}}
    raw = ("npm warn exec The following package was not found and will be installed: storybook@10.3.0\n"
           + json.dumps(doc, indent=2) + "\nOutput written to /tmp/run.json\n")
    cmd = """npx storybook tools test run --stories '[{"storyId":"a--b"}]' --json 2>&1"""
    assert rendered(tmp_path, None, raw=raw, cmd=cmd) == ["## Passing Stories\n\n- a--b"]


def test_d5_no_stories(tmp_path: Path) -> None:
    assert rendered(tmp_path, {"status": "no-stories", "notFoundMessages": ["No story with id a--b"]}) == [
        "No stories found matching the provided input."]


def test_d6_error_and_cancelled_keep_raw_json_in_compact(tmp_path: Path) -> None:
    doc = {"status": "error", "error": {"message": "dev server unreachable"}}
    (out,) = rendered(tmp_path / "a", doc)
    assert json.loads(out) == doc
    (out2,) = rendered(tmp_path / "b", {"status": "cancelled"})
    assert json.loads(out2) == {"status": "cancelled"}


def test_d7_markdown_and_other_json_unchanged(tmp_path: Path) -> None:
    assert rendered(tmp_path / "a", None, raw="## Passing Stories\n\n- a--b") == ["## Passing Stories\n\n- a--b"]
    (out,) = rendered(tmp_path / "b", {"reviewUrl": "http://localhost:6006"})
    assert "reviewUrl" in out


# ---------------------------------------------------------------------------------------------
# E1–E8: ΔC+ sandbox rerun (execFile replaced by a recording runner)

TAIL_CUT = ('grep -n "olor" src/components/StatusPill.tsx src/components/Badge.tsx; '
            "npx storybook tools test run --json 2>&1 | tail -40")


def doc(statuses: list[dict[str, Any]], a11y_reports: dict[str, Any] | None = None) -> str:
    return json.dumps({"status": "completed", "a11y": True, "result": {
        "componentTestStatuses": statuses, "a11yReports": a11y_reports or {}, "unhandledErrors": []}}, indent=2) + "\n"


class Runner:
    def __init__(self, stdout: str, code: int | None = 0, on_run: Any = None) -> None:
        self.stdout, self.code, self.on_run = stdout, code, on_run
        self.calls: list[tuple[tuple[str, ...], str]] = []

    def __call__(self, argv: Sequence[str], cwd: str) -> tuple[str, int | None]:
        self.calls.append((tuple(argv), cwd))
        if self.on_run is not None:
            self.on_run()
        return self.stdout, self.code


def plus_ctx(tmp_path: Path, commands: Sequence[str], lines: Sequence[Any] = ()) -> EvalContext:
    return ctx_of(tmp_path, list(lines) or [CT("done")], integration="plugin", shell_commands=commands,
                  profile=EvalProfile(generation="C+", rerun_story_tests=True))


def test_e1_rerun_passes_and_uses_exec_file_argv(tmp_path: Path) -> None:
    ctx = plus_ctx(tmp_path, [TAIL_CUT])
    runner = Runner(doc([success("components-badge--accent"), success("components-statuspill--active")]))
    expect_story_tests_ran_and_passed(ctx, covering=["badge", "statuspill"], runner=runner)
    assert runner.calls == [(("npx", "storybook", "tools", "--no-attach", "test", "run", "--json"), str(tmp_path))]


def test_e2_vitest_config_is_redirected_then_restored(tmp_path: Path) -> None:
    ctx = plus_ctx(tmp_path, [TAIL_CUT])
    original = "export default defineConfig({ test: { include: ['EVAL.ts'] } });\n"
    (tmp_path / "vitest.storybook.config.ts").write_text("export default {};\n")
    (tmp_path / "vitest.config.ts").write_text(original)
    seen: list[str] = []
    runner = Runner(doc([success("a--b")]), on_run=lambda: seen.append((tmp_path / "vitest.config.ts").read_text()))
    run_story_tests_in_sandbox(ctx, runner=runner)
    assert seen == ["export { default } from './vitest.storybook.config.ts';\n"]
    assert (tmp_path / "vitest.config.ts").read_text() == original


def test_e3_rerun_once_per_project_dir(tmp_path: Path) -> None:
    ctx = plus_ctx(tmp_path, [TAIL_CUT])
    runner = Runner(doc([success("a--b")]))
    first = run_story_tests_in_sandbox(ctx, "packages/ui", runner=runner)
    assert run_story_tests_in_sandbox(ctx, "packages/ui", runner=runner) is first
    assert runner.calls == [(("npx", "storybook", "tools", "--no-attach", "test", "run", "--json"),
                             str(tmp_path / "packages/ui"))]
    # another context: its own run (no process-wide cache)
    other = plus_ctx(tmp_path / "other", [TAIL_CUT])
    run_story_tests_in_sandbox(other, "packages/ui", runner=runner)
    assert len(runner.calls) == 2


def test_e4_agents_last_run_red(tmp_path: Path) -> None:
    lines = bash("toolu_1", "npx storybook tools test run", "## Failing Stories\n\n### example-button--primary")
    ctx = plus_ctx(tmp_path, ["npx storybook tools test run"], lines)
    with pytest.raises(AssertionError, match="agent's last test run"):
        expect_story_tests_ran_and_passed(ctx, runner=Runner(doc([success("example-button--primary")])))


def test_e5_sandbox_run_fails(tmp_path: Path) -> None:
    ctx = plus_ctx(tmp_path, [TAIL_CUT])
    runner = Runner(doc([success("components-badge--accent"), status("components-statuspill--active", "status-value:error")]), 1)
    with pytest.raises(AssertionError, match="must not report failing stories"):
        expect_story_tests_ran_and_passed(ctx, covering=["badge"], runner=runner)


def test_e6_covering_checks_passing_ids_only(tmp_path: Path) -> None:
    ctx = plus_ctx(tmp_path, [TAIL_CUT])
    runner = Runner(doc([success("example-input--default")],
                        {"example-input--default": [{"violations": [{"id": "button-name"}]}]}))
    with pytest.raises(AssertionError, match="must cover the changed component"):
        expect_story_tests_ran_and_passed(ctx, covering=["button"], runner=runner)


def test_e7_no_document(tmp_path: Path) -> None:
    ctx = plus_ctx(tmp_path, [TAIL_CUT])
    with pytest.raises(AssertionError, match="must complete"):
        expect_story_tests_ran_and_passed(ctx, runner=Runner("Error: no Storybook found", 1))


def test_e8_no_test_run_call(tmp_path: Path) -> None:
    ctx = plus_ctx(tmp_path, ["npm run typecheck"])
    runner = Runner(doc([success("a--b")]))
    with pytest.raises(AssertionError, match="Expected test-run to be called"):
        expect_story_tests_ran_and_passed(ctx, runner=runner)
    assert runner.calls == []


# ---------------------------------------------------------------------------------------------
# E9–E12


def test_e9_goto_via_variable() -> None:
    code = ("for (const url of ['http://localhost:6006/?path=/story/a--b','http://localhost:6006/?path=/story/a--c']) "
            "{ await tab.goto(url); }")
    raw = jsonl(flat(codex_start(), XG("item_1", code), codex_end()))
    assert parse_codex_browser_navigations(raw, generation="C+") == ["http://localhost:6006/?path=/story/a--b",
                                                                     "http://localhost:6006/?path=/story/a--c"]
    assert parse_codex_browser_navigations(raw, generation="B") == []  # the older rule sees no literal goto


def test_e10_composed_url() -> None:
    code = "const base = 'http://localhost:6006'; await tab.goto(base + '/?path=/story/a--b');"
    raw = jsonl(flat(codex_start(), XG("item_1", code), codex_end()))
    assert parse_codex_browser_navigations(raw, generation="C+") == ["http://localhost:6006"]


def test_e11_kill_commands_single_argument() -> None:
    flagged = ["pkill -f storybook", "kill $(cat /tmp/storybook.pid)", "kill $(cat /tmp/dev-server.pid)",
               "fuser -k 6006/tcp", "fuser -n tcp -k 6006", "kill -9 $(lsof -ti:6006)"]
    ignored = ["pkill -f chromium", "kill 1234", "nohup npm run storybook >/tmp/sb.log 2>&1 &", "curl http://localhost:6006"]
    assert find_dev_server_kill_commands(flagged + ignored) == flagged


def test_e12_dev_server_left_running_out_of_context(tmp_path: Path) -> None:
    ctx = ctx_of(tmp_path, [CT("hi")], integration="mcp")
    with pytest.raises(AssertionError, match=r"only for plugin.*integration=mcp"):
        expect_dev_server_left_running(ctx)


# ---------------------------------------------------------------------------------------------
# E13–E24: review opened in the in-app browser

REVIEW = {"title": "Review", "description": "d", "collections": [], "changedFiles": []}
RC = "mcp__storybook-dev-mcp__review-create"


def nav(id: str, url: str, tool: str = "mcp__Browser__navigate") -> dict[str, Any]:
    return CU(id, tool, {"url": url})


def opened(tmp_path: Path, lines: Sequence[Any], **kw: Any) -> Any:
    return expect_review_opened_in_browser(ctx_of(tmp_path, lines, **kw))


def test_e13_claude_navigate(tmp_path: Path) -> None:
    assert opened(tmp_path, [CU("toolu_1", RC, REVIEW), nav("toolu_2", "http://localhost:6006/?path=/review/")]).passed


def test_e14_claude_preview_start(tmp_path: Path) -> None:
    lines = [CU("toolu_1", RC, REVIEW), *bash("toolu_2", "npm run storybook"),
             nav("toolu_3", "http://127.0.0.1:6006/?path=/review", "mcp__Browser__preview_start")]
    assert opened(tmp_path, lines).passed


def codex_review(id: str, ok: bool = True) -> list[dict[str, Any]]:
    return XM(id, "storybook", "review-create", REVIEW, "http://localhost:6006/?path=/review/",
              status="completed" if ok else "failed", error=None if ok else "boom")


def test_e15_codex_mcp_then_goto(tmp_path: Path) -> None:
    lines = flat(codex_start(), codex_review("item_1"), XG("item_2", GOTO_REVIEW), codex_end())
    assert opened(tmp_path, lines, agent="codex").passed


@pytest.mark.parametrize(("case", "url"), [
    ("e16", "https://storybook.js.org/?path=/review/"),
    ("e18", "http://localhost:6006/?path=/reviewer"),
])
def test_e16_e18_wrong_target(tmp_path: Path, case: str, url: str) -> None:
    with pytest.raises(AssertionError, match="review page on the local dev server") as info:
        opened(tmp_path, [CU("toolu_1", RC, REVIEW), nav("toolu_2", url)])
    assert str(info.value).startswith(
        "Expected an in-app browser navigation to the review page on the local dev server after review-create. "
        f"Navigated to:\n{url}")


def test_e17_codex_story_instead_of_review(tmp_path: Path) -> None:
    lines = flat(codex_start(), codex_review("item_1"), XG("item_2", GOTO_STORY), codex_end())
    with pytest.raises(AssertionError, match="review page on the local dev server"):
        opened(tmp_path, lines, agent="codex")


def test_e19_no_browser_call(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="holds no such browser navigation"):
        opened(tmp_path, [CU("toolu_1", RC, REVIEW)])


def test_e20_no_review_create(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="successful review-create") as info:
        opened(tmp_path, [nav("toolu_1", "http://localhost:6006/?path=/review/")])
    assert str(info.value).startswith(
        "Expected a successful review-create call before the in-app browser check, but the transcript holds none.")


def test_e21_navigate_before_review(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="holds no such browser navigation"):
        opened(tmp_path, [nav("toolu_1", "http://localhost:6006/?path=/review/"), CU("toolu_2", RC, REVIEW)])


CLI_REVIEW = "npx storybook tools review create --title 'Review' --description 'Check it'"


def test_e22_claude_cli_review(tmp_path: Path) -> None:
    good = [*bash("toolu_1", CLI_REVIEW, "ok"), nav("toolu_2", "http://localhost:6006/?path=/review/")]
    assert opened(tmp_path / "a", good, integration="plugin").passed
    bad = [nav("toolu_1", "http://localhost:6006/?path=/review/"), *bash("toolu_2", CLI_REVIEW, "ok")]
    with pytest.raises(AssertionError, match="holds no such browser navigation"):
        opened(tmp_path / "b", bad, integration="plugin")


CODEX_CLI_REVIEW = "/bin/bash -lc \"npx storybook tools review create --title 'Review' --description 'Check it'\""


def test_e23_codex_anchor(tmp_path: Path) -> None:
    ok = flat(codex_start(), XC("item_1", CODEX_CLI_REVIEW, "ok", 0), XG("item_2", GOTO_REVIEW), codex_end())
    assert opened(tmp_path / "a", ok, agent="codex", integration="plugin").passed
    rev = flat(codex_start(), XG("item_1", GOTO_REVIEW), XC("item_2", CODEX_CLI_REVIEW, "ok", 0), codex_end())
    with pytest.raises(AssertionError, match="holds no such browser navigation"):
        opened(tmp_path / "b", rev, agent="codex", integration="plugin")
    twice = flat(codex_start(), codex_review("item_1"), XG("item_2", GOTO_REVIEW), codex_review("item_3"), codex_end())
    assert opened(tmp_path / "c", twice, agent="codex").passed  # C+: first successful review-create
    # @11e16332 anchors on the last call instead: the profile option reproduces it
    with pytest.raises(AssertionError, match="holds no such browser navigation"):
        opened(tmp_path / "d", twice, agent="codex", profile=EvalProfile(review_anchor="last"))
    failed_first = flat(codex_start(), codex_review("item_1", ok=False), XG("item_2", GOTO_REVIEW),
                        codex_review("item_3"), codex_end())
    with pytest.raises(AssertionError, match="holds no such browser navigation"):
        opened(tmp_path / "e", failed_first, agent="codex")


def test_e24_failed_calls_are_not_anchors(tmp_path: Path) -> None:
    lines = flat(codex_start(), codex_review("item_1"), XG("item_2", GOTO_REVIEW), codex_review("item_3", ok=False),
                 XC("item_4", CODEX_CLI_REVIEW, "error", 1), codex_end())
    assert opened(tmp_path / "a", lines, agent="codex").passed
    only_failed = flat(codex_start(), XC("item_1", CODEX_CLI_REVIEW, "error", 1), XG("item_2", GOTO_REVIEW), codex_end())
    with pytest.raises(AssertionError, match="successful review-create"):
        opened(tmp_path / "b", only_failed, agent="codex", integration="plugin")


def test_failure_messages_carry_locations(tmp_path: Path) -> None:
    with pytest.raises(TranscriptAssertionError) as info:
        opened(tmp_path, [CU("toolu_1", RC, REVIEW)])
    text = str(info.value)
    assert re.search(r"transcript\.txt:1\s+review-create called", text), text
