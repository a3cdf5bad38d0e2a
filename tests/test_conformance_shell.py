"""Conformance with Storybook's agent-eval test files (spec §9.1 B1–B21, §9.2, §9.3, §10).

Each case has the reference's input and expected output and runs under the profile of the
generation it comes from ("B" for §9.1, "C" for §9.2/§9.3), and again under the default profile
where the default must agree. Where we intentionally differ from a reference (a known bug), the
test asserts OUR behaviour and says so in a comment; docs/conformance.md lists every case.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import agenteval_assert as aa
from agenteval_assert.storybook import (
    WorkflowCall,
    parse_workflow_shell_commands,
    parse_workflow_tool_results,
    workflow_call_matches_name,
    workflow_results,
)

from .conftest import CORPUS

FIXTURE = CORPUS / "storybook" / "lib" / "__fixtures__" / "claude-plugin-801-heredoc-commands.json"


def P(commands: list[str], profile: Any = None) -> list[WorkflowCall]:
    return parse_workflow_shell_commands(commands, profile=profile)


def summary(calls: list[WorkflowCall]) -> list[tuple[str, dict[str, Any], str]]:
    return [(c.name, c.input, c.source) for c in calls]


def CU(id: str, name: str, input: dict[str, Any]) -> str:
    return json.dumps({"type": "assistant", "message": {"content": [
        {"type": "tool_use", "id": id, "name": name, "input": input}]}})  # fmt: skip


def CR(id: str, content: Any, is_err: bool = False) -> str:
    return json.dumps({"type": "user", "message": {"content": [
        {"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_err}]}})  # fmt: skip


def R(lines: list[str], name: str = "test-run", profile: Any = None) -> list[Any]:
    """The spec's line-based function, and the same answer from the parsed model."""
    text = "\n".join(lines)
    raw = parse_workflow_tool_results(text, name, profile=profile)
    modelled = workflow_results(aa.parse(text), name, profile=profile)
    assert [(r.output, r.is_error) for r in raw] == [(r.output, r.is_error) for r in modelled]
    return raw


# =============================================================================================
# §9.1 Gen B (test file 58009682197)
# =============================================================================================

B_PROFILES = ["B", None]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b1_skills_literal(profile: Any) -> None:
    calls = P([
        'npx storybook skills write-story 2>&1 | grep -v "npm warn"',
        "npx storybook skills stories",
        "npx storybook skills",
    ], profile)  # fmt: skip
    assert summary(calls) == [
        ("skills-get", {"id": "write-story"}, "cli"),
        ("skills-get", {"id": "stories"}, "cli"),
    ]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b2_skills_alias(profile: Any) -> None:
    calls = P([f"npx storybook skills {x}" for x in ("write-story", "--all", "stories", "all")], profile)
    assert [c.input for c in calls] == [{"id": "write-story"}, {"all": True}, {"id": "stories"}, {"id": "all"}]
    matches = [workflow_call_matches_name(c, "get-storybook-story-instructions", profile=profile) for c in calls]
    assert matches == [True, True, False, False]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b3_skills_rejections(profile: Any) -> None:
    assert P([
        "npx storybook skills write-story --help",
        "npx storybook skills write-story -h && npx storybook skills --all --help",
        "npx storybook skills stories --all",
        "npx storybook skills --all stories",
        "echo 'storybook skills write-story'",
    ], profile) == []  # fmt: skip


B4_CMD = """STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai test-run --json '{"stories":[{"storyId":"example-button--primary"}]}'"""


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b4_repeats_across_commands(profile: Any) -> None:
    calls = P([B4_CMD, B4_CMD], profile)
    assert [c.name for c in calls] == ["test-run", "test-run"]
    for c in calls:  # workflowCallUsesStoryId
        assert any(isinstance(s.get("storyId"), str) for s in c.input["stories"])


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b5_chained(profile: Any) -> None:
    assert [c.name for c in P([B4_CMD + " && " + B4_CMD], profile)] == ["test-run", "test-run"]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b6_path_and_export(profile: Any) -> None:
    (call,) = P([("npx storybook ai stories-preview --json '{\"stories\":[{\"absoluteStoryPath\":"
                 "\"stories/Button.stories.tsx\",\"exportName\":\"Primary\"}]}'")], profile)  # fmt: skip
    assert call.name == "stories-preview"
    assert call.input["stories"] == [{"absoluteStoryPath": "stories/Button.stories.tsx", "exportName": "Primary"}]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b7_inline_json(profile: Any) -> None:
    (call,) = P([("npx storybook ai test-run --json='{\"stories\":[{\"storyId\":\"example-button--primary\"}],"
                 "\"a11y\":false}'")], profile)  # fmt: skip
    assert call.input["a11y"] is False
    assert call.input["stories"] == [{"storyId": "example-button--primary"}]


B8_CMD = """STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 39497 review-create --json '{
  "title": "ToggleSwitch",
  "description": "A switch with `role=\\"switch\\"` semantics.",
  "collections": [
    {"title": "ToggleSwitch states", "rationale": "All states.", "storyIds": ["components-toggleswitch--off"]}
  ]
}' 2>&1 | tail -30"""


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b8_single_quote_backslashes(profile: Any) -> None:
    (call,) = P([B8_CMD], profile)
    assert call.name == "review-create"
    assert call.input["description"] == 'A switch with `role="switch"` semantics.'
    assert call.input["collections"] == [
        {"title": "ToggleSwitch states", "rationale": "All states.", "storyIds": ["components-toggleswitch--off"]}
    ]


B9_PAYLOAD = {
    "title": "New ProfileCard component",
    "description": "A card.",
    "collections": [
        {"title": "The full card", "rationale": "Default composition.",
         "storyIds": ["src-components-profilecard--default"]}
    ],
    "changedFiles": ["src/components/ProfileCard.tsx"],
}  # fmt: skip
B9_CMD = (
    "cat > /tmp/review.json <<'EOF'\n" + json.dumps(B9_PAYLOAD, indent=2) + "\nEOF\n"
    'STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai -p 36917 review-create --json "$(cat /tmp/review.json)" 2>&1 | tail -20'
)


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b9_cat_heredoc(profile: Any) -> None:
    (call,) = P([B9_CMD], profile)
    assert call.name == "review-create"
    for key in ("title", "collections", "changedFiles"):
        assert call.input[key] == B9_PAYLOAD[key]
    if profile == "B":
        # Gen B reads `-p 36917` as positional payloads: a stray `json` key (the tests tolerate it).
        assert call.input["json"] == 36917
    else:
        # Ours (default): `-p 36917` is a CLI option, not part of the tool input.
        assert "json" not in call.input


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b10_json_before_command(profile: Any) -> None:
    payload = {"title": "ReviewCard with date and report button", "description": "d",
               "collections": [{"title": "ReviewCard states", "rationale": "Default plus report.",
                                "storyIds": ["reviews-reviewcard--default"]}]}  # fmt: skip
    cmd = f"STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 43383 --json '{json.dumps(payload)}' review-create 2>&1"
    (call,) = P([cmd], profile)
    assert call.name == "review-create"
    assert call.input["title"] == payload["title"]
    assert call.input["collections"] == payload["collections"]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b11_no_ad_hoc_mcp(profile: Any) -> None:
    assert P([
        """node scripts/mcp-call.mjs test-run '{"stories":[]}'""",
        """curl http://127.0.0.1:6006/mcp/stories-preview --data '{"stories":[]}'""",
    ], profile) == []  # fmt: skip


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b12_redirections(profile: Any) -> None:
    calls = P([
        "STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai stories-changed 2>&1",
        "npx storybook ai --port 6006 test-run >out.txt 2> err.log",
    ], profile)  # fmt: skip
    assert len(calls) == 2
    assert calls[0].input == {}
    assert "json" not in calls[1].input


B13 = [
    ('sleep 3; curl -s http://localhost:40097/index.json 2>/dev/null | head -c 800; echo; echo "---changed---"; '
    'STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 40097 stories-changed 2>&1 | grep -v "No story files" | head -40'),
    "curl -c cookies.txt http://localhost:6006/ && npx storybook ai stories-changed",
    """grep -c foo bar.txt; npx storybook ai stories-find-by-component --json '{"componentPaths":["src/Badge.tsx"]}'""",
]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b13_non_shell_dash_c(profile: Any) -> None:
    assert [c.name for c in P(B13, profile)] == ["stories-changed", "stories-changed", "stories-find-by-component"]


B14 = [
    "bash -c 'npx storybook ai stories-changed'",
    "/bin/sh -lc 'npx storybook ai --port 6006 test-run'",
    "env bash -x -c 'npx storybook ai stories-find-by-component'",
]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b14_genuine_wrappers(profile: Any) -> None:
    assert [c.name for c in P(B14, profile)] == ["stories-changed", "test-run", "stories-find-by-component"]


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b15_tools_pairs(profile: Any) -> None:
    calls = P([
        """npx storybook tools test run --json '{"stories":[{"storyId":"example-button--primary"}]}'""",
        """npx storybook tools stories find-by-component --json '{"componentPaths":["src/Badge.tsx"]}'""",
        """npx storybook tools review create --json '{"title":"Pass","description":"x","collections":[]}'""",
    ], profile)  # fmt: skip
    assert [c.name for c in calls] == ["test-run", "stories-find-by-component", "review-create"]
    assert calls[0].input["stories"] == [{"storyId": "example-button--primary"}]


@pytest.mark.parametrize("profile", ["B", "C", None])
def test_b16_claude_mcp_pairing(profile: Any) -> None:
    results = R([
        CU("toolu_1", "mcp__storybook-dev-mcp__test-run", {}),
        CU("toolu_2", "mcp__storybook-dev-mcp__stories-preview", {}),
        CR("toolu_2", [{"type": "text", "text": "http://localhost:6006"}]),
        CR("toolu_1", [{"type": "text", "text": "## Passing Stories\n\n- example-button--primary"}]),
    ], profile=profile)  # fmt: skip
    assert len(results) == 1
    assert "## Passing Stories" in results[0].output and results[0].is_error is False


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b17_claude_plugin_path(profile: Any) -> None:
    results = R([
        CU("toolu_1", "Bash", {"command": "STORYBOOK_FEATURE_AI_CLI=1 npx storybook ai --port 6006 test-run"}),
        CR("toolu_1", "## Failing Stories\n\n### example-button--primary"),
    ], profile=profile)  # fmt: skip
    assert len(results) == 1 and "## Failing Stories" in results[0].output


@pytest.mark.parametrize("profile", ["B", "C", None])
def test_b18_claude_error(profile: Any) -> None:
    results = R([
        CU("toolu_1", "mcp__storybook-dev-mcp__test-run", {}),
        CR("toolu_1", "Test run was cancelled", True),
    ], profile=profile)  # fmt: skip
    assert len(results) == 1 and results[0].is_error is True


def _codex_mcp(status: str, started: bool = False) -> str:
    item: dict[str, Any] = {"id": "item_1", "type": "mcp_tool_call", "server": "storybook", "tool": "test-run",
                            "arguments": {}, "status": status}  # fmt: skip
    if started:
        return json.dumps({"type": "item.started", "item": {**item, "result": None}})
    item.update(error=None, result={"content": [{"type": "text", "text": "## Passing Stories\n\n- a--b"}]})
    return json.dumps({"type": "item.completed", "item": item})


@pytest.mark.parametrize("profile", ["B", "C", None])
def test_b19_codex_mcp(profile: Any) -> None:
    results = R([_codex_mcp("in_progress", started=True), _codex_mcp("completed")], profile=profile)
    assert len(results) == 1
    assert "## Passing Stories" in results[0].output and results[0].is_error is False


def _codex_wrapped(result: Any) -> str:
    return json.dumps({"type": "item.completed", "item": {
        "id": "item_1", "type": "mcp_tool_call", "server": "storybook", "tool": "test-run", "arguments": {},
        "status": "completed", "error": None, "result": result}})  # fmt: skip


@pytest.mark.parametrize("profile", ["B", "C", None])
def test_codex_mcp_results_wrapped_as_ok_or_err(profile: Any) -> None:
    """Intentional difference: the reference's text() reads ``{"Ok": …}`` as ``""``; both our paths
    unwrap it, as the Codex parser does (R() checks the raw and the modelled paths agree)."""
    report = {"content": [{"type": "text", "text": "## Passing Stories\n\n- a--b"}]}
    (ok,) = R([_codex_wrapped({"Ok": report})], profile=profile)
    assert (ok.output, ok.is_error) == ("## Passing Stories\n\n- a--b", False)
    (err,) = R([_codex_wrapped({"Err": "tool call failed: connection refused"})], profile=profile)
    assert (err.output, err.is_error) == ("tool call failed: connection refused", True)
    (flagged,) = R([_codex_wrapped({"Ok": {**report, "isError": True}})], profile=profile)
    assert flagged.is_error is True


@pytest.mark.parametrize("profile", B_PROFILES)
def test_b20_codex_command_execution(profile: Any) -> None:
    line = json.dumps({"type": "item.completed", "item": {
        "id": "item_2", "type": "command_execution",
        "command": "/bin/bash -lc 'npx storybook ai --port 6006 test-run'",
        "aggregated_output": "## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n### a--c",
        "exit_code": 0, "status": "completed"}})  # fmt: skip
    results = R([line], profile=profile)
    assert len(results) == 1 and "## Failing Stories" in results[0].output


@pytest.mark.parametrize("profile", ["B", "C", None])
def test_b21_noise(profile: Any) -> None:
    text = "\n".join(["not json", CU("toolu_1", "Bash", {"command": "npm run lint"}), CR("toolu_1", "lint ok")])
    assert parse_workflow_tool_results(text, "test-run", profile=profile) == []
    assert workflow_results(aa.parse(text), "test-run", profile=profile) == []


# =============================================================================================
# §9.2 Gen C shell parsing (shell-parse.test.ts @299333cb)
# =============================================================================================

C_TABLE: list[tuple[list[str], Any]] = [
    ([], {}),
    (["--a11y", "false"], {"a11y": False}),
    (["--a11y=false"], {"a11y": False}),
    (["--verbose"], {"verbose": True}),
    (["--delta", "-1"], {"delta": -1}),
    (["--grep", "-h"], {"grep": "-h"}),
    (["--title", "plain text"], {"title": "plain text"}),
    (["--title", "a=b"], {"title": "a=b"}),
    (["--title=a=b"], {"title": "a=b"}),
    (["--title", ""], {"title": ""}),
    (["--title", "<Callout> variants"], {"title": "<Callout> variants"}),
    (["--title", "> quote", "--a11y", "false"], {"title": "> quote", "a11y": False}),
    (["--title", "$HOME"], {"title": "$HOME"}),
    (["--value", "null"], {"value": None}),
    (["--stories", '[{"storyId":"a--b"}]'], {"stories": [{"storyId": "a--b"}]}),
    (["--input", '{"a11y":true,"stories":[{"storyId":"a--b"}]}', "--a11y", "false"],
     {"a11y": False, "stories": [{"storyId": "a--b"}]}),
    (["--a11y", "false", "--input", '{"a11y":true,"stories":[{"storyId":"a--b"}]}'],
     {"a11y": False, "stories": [{"storyId": "a--b"}]}),
    (['--input={"title":"T","url":"/?a=b"}'], {"title": "T", "url": "/?a=b"}),
    (["--input", '{"arguments":{"stories":[]}}'], {"arguments": {"stories": []}}),
    (["--json", "--attach", "-o", "/tmp/run.md", "--output=/tmp/run.json"], {}),
    (["--no-attach", "--output", "/tmp/run.md"], {}),
    (["--port", "6006", "--cwd", "app", "--config-dir", ".storybook"],
     {"port": 6006, "cwd": "app", "config-dir": ".storybook"}),
    (["--help"], None), (["-h"], None), (["--a11y", "false", "--help"], None), (["-a11y", "false"], None),
    (["-p", "6006"], None), (["stories.json"], None), (["--componentPaths", "src/A.tsx", "src/B.tsx"], None),
    (["--"], None), (["--=x"], None), (["--json=true"], None), (["--attach", "--no-attach"], None),
    (["-o"], None), (["-o", "--json"], None), (["--output="], None), (["--input"], None),
    (["--input", '{"title":'], None), (["--input", '["a--b"]'], None), (["--input", "$not-json"], None),
]  # fmt: skip


def _sq(token: str) -> str:
    return "'" + token.replace("'", "'\\''") + "'"


@pytest.mark.parametrize("profile", ["C", None])
@pytest.mark.parametrize(("tokens", "expected"), C_TABLE, ids=[" ".join(t) or "(none)" for t, _ in C_TABLE])
def test_c_token_table(tokens: list[str], expected: Any, profile: Any) -> None:
    cmd = "npx storybook tools test run " + " ".join(_sq(t) for t in tokens)
    calls = P([cmd], profile)
    if expected is None:
        assert calls == []
    else:
        assert summary(calls) == [("test-run", expected, "cli")]


@pytest.mark.parametrize("profile", ["C", None])
def test_c1_names(profile: Any) -> None:
    calls = P([
        "npx storybook tools test run",
        """npx storybook tools stories find-by-component --componentPaths '["src/Badge.tsx"]'""",
        """npx storybook tools review create --input '{"title":"Pass","collections":[]}'""",
        "npx storybook tools docs show-story --id button--primary",
    ], profile)  # fmt: skip
    assert summary(calls) == [
        ("test-run", {}, "cli"),
        ("stories-find-by-component", {"componentPaths": ["src/Badge.tsx"]}, "cli"),
        ("review-create", {"title": "Pass", "collections": []}, "cli"),
        ("docs-show-story", {"id": "button--primary"}, "cli"),
    ]


@pytest.mark.parametrize("profile", ["C", None])
def test_c2_commander_options(profile: Any) -> None:
    calls = P([
        "npx storybook tools -p 6006 -c .storybook --no-attach --json test run --a11y false",
        "npx storybook tools --cwd app --port=6006 -o /tmp/run.md test run",
        """npx storybook tools --input '{"a11y":true,"stories":[]}' test run --a11y false""",
        """npx storybook tools --input='{"stories":[]}' test run""",
    ], profile)  # fmt: skip
    assert [c.input for c in calls] == [{"a11y": False}, {}, {"a11y": False, "stories": []}, {"stories": []}]


@pytest.mark.parametrize("profile", ["C", None])
def test_c3_help_before_toolset(profile: Any) -> None:
    assert P([
        "npx storybook tools --help test run",
        "npx storybook tools -h review create",
        "npx storybook tools help test run",
    ], profile) == []  # fmt: skip


@pytest.mark.parametrize("profile", ["C", None])
def test_c4_c6_skills(profile: Any) -> None:
    test_b1_skills_literal(profile)
    test_b2_skills_alias(profile)
    test_b3_skills_rejections(profile)


@pytest.mark.parametrize("profile", ["C", None])
def test_c7_every_call(profile: Any) -> None:
    cmd = """npx storybook tools test run --stories '[{"storyId":"a--b"}]'"""
    calls = P([cmd, cmd + " && " + cmd], profile)
    assert [c.input for c in calls] == [{"stories": [{"storyId": "a--b"}]}] * 3


C8_REVIEW = {
    "title": "ReviewCard gains a date and a report action",
    "description": "Adds the review date and an optional Report button.",
    "collections": [
        {"title": "ReviewCard states", "rationale": "Default and with report.",
         "storyIds": ["reviews-reviewcard--default", "reviews-reviewcard--with-report-action"]}
    ],
    "changedFiles": ["src/components/ReviewCard.tsx", "src/components/ReviewCard.stories.tsx"],
}  # fmt: skip


@pytest.mark.parametrize("profile", ["C", None])
def test_c8_agent_payloads(profile: Any) -> None:
    two = {"stories": [{"storyId": "reviews-reviewcard--default"}, {"storyId": "reviews-reviewcard--with-report-action"}]}
    calls = P([
        f"npx storybook tools review create --input {_sq(json.dumps(C8_REVIEW))} --json",
        f"npx storybook tools test run --input {_sq(json.dumps(two))} --json",
        """npx storybook tools test run --stories '[{"storyId":"components-badge--default"}]' --json 2>&1""",
    ], profile)  # fmt: skip
    assert [c.input for c in calls] == [C8_REVIEW, two, {"stories": [{"storyId": "components-badge--default"}]}]


@pytest.mark.parametrize("profile", ["C", None])
def test_c9_single_quote_backslashes(profile: Any) -> None:
    cmd = """npx storybook tools review create --input '{
  "title": "ToggleSwitch",
  "description": "A switch with `role=\\"switch\\"` semantics.",
  "collections": [{"title": "States", "storyIds": ["components-toggleswitch--off"]}]
}' 2>&1 | tail -30"""
    (call,) = P([cmd], profile)
    assert call.input == {
        "title": "ToggleSwitch",
        "description": 'A switch with `role="switch"` semantics.',
        "collections": [{"title": "States", "storyIds": ["components-toggleswitch--off"]}],
    }


@pytest.mark.parametrize("profile", ["C", None])
def test_c10_backslash_newline(profile: Any) -> None:
    cmd = ("npx storybook tools review create --port 45723 --json \\\n --title 'New ToggleSwitch' \\\n"
           """ --collections '[{"title":"States","storyIds":["a--b"]}]'""")  # fmt: skip
    (call,) = P([cmd], profile)
    assert call.input == {"port": 45723, "title": "New ToggleSwitch",
                          "collections": [{"title": "States", "storyIds": ["a--b"]}]}  # fmt: skip


@pytest.mark.parametrize("profile", ["C", None])
def test_c11_heredoc(profile: Any) -> None:
    payload = {"title": "New ProfileCard component", "collections": B9_PAYLOAD["collections"]}
    cmd = (
        "cat > /tmp/review.json <<'EOF'\n" + json.dumps(payload, indent=2) + "\nEOF\n"
        'npx storybook tools -p 36917 review create --input "$(cat /tmp/review.json)" 2>&1 | tail -20\n'
        'npx storybook tools review create --input="$(cat /tmp/review.json)" --title Override'
    )
    calls = P([cmd], profile)
    assert [c.input for c in calls] == [payload, {**payload, "title": "Override"}]


@pytest.mark.parametrize("profile", ["C", None])
def test_c12_unresolvable(profile: Any) -> None:
    calls = P([
        'npx storybook tools test run --input "$(cat /tmp/input.json)"',
        'npx storybook tools test run --input="$(cat /tmp/input.json)"',
        "npx storybook tools test run --input $PAYLOAD --a11y false",
    ], profile)  # fmt: skip
    assert [c.input for c in calls] == [
        {"input": "$(cat /tmp/input.json)"},
        {"input": "$(cat /tmp/input.json)"},
        {"input": "$PAYLOAD", "a11y": False},
    ]
    assert [c.complete for c in calls] == [False, False, False]


@pytest.mark.parametrize("profile", ["C", None])
def test_c13_literal_dollar(profile: Any) -> None:
    assert P([
        "npx storybook tools test run --input '$(cat /tmp/input.json)'",
        "npx storybook tools test run --input \\$PAYLOAD",
    ], profile) == []  # fmt: skip


@pytest.mark.parametrize("profile", ["C", None])
def test_c14_redirections(profile: Any) -> None:
    calls = P([
        "npx storybook tools stories changed 2>&1",
        "npx storybook tools --port 6006 test run >out.txt 2> err.log",
        "npx storybook tools test run --a11y false > /tmp/out.md",
        """npx storybook tools test run --a11y false 2>"/tmp/err log" >'/tmp/out.md'""",
        "npx storybook tools review create --title \\<Callout\\> 2>&1",
    ], profile)  # fmt: skip
    assert [c.input for c in calls] == [{}, {}, {"a11y": False}, {"a11y": False}, {"title": "<Callout>"}]


@pytest.mark.parametrize("profile", ["C", None])
def test_c15_c17_tools_forms(profile: Any) -> None:
    assert P([
        """node scripts/mcp-call.mjs test-run '{"stories":[]}'""",
        """curl http://127.0.0.1:6006/mcp/stories-preview --data '{"stories":[]}'""",
    ], profile) == []  # fmt: skip
    c16 = [c.replace("storybook ai --port 40097 stories-changed", "storybook tools --port 40097 stories changed")
            .replace("storybook ai stories-changed", "storybook tools stories changed")
            .replace("storybook ai stories-find-by-component --json", "storybook tools stories find-by-component --input")
           for c in B13]  # fmt: skip
    assert [c.name for c in P(c16, profile)] == ["stories-changed", "stories-changed", "stories-find-by-component"]
    c17 = [
        "bash -c 'npx storybook tools stories changed'",
        "/bin/sh -lc 'npx storybook tools --port 6006 test run'",
        "env bash -x -c 'npx storybook tools stories find-by-component'",
    ]
    assert [c.name for c in P(c17, profile)] == ["stories-changed", "test-run", "stories-find-by-component"]


@pytest.mark.parametrize("profile", ["C", None])
def test_c18_mcp_wrapper_not_unwrapped(profile: Any) -> None:
    (call,) = P(["""npx storybook tools test run --input '{"arguments":{"stories":[{"storyId":"a--b"}]}}'"""], profile)
    assert call.input == {"arguments": {"stories": [{"storyId": "a--b"}]}}


@pytest.mark.parametrize("profile", ["C", None])
def test_c19_unresolvable_input(profile: Any) -> None:
    (call,) = P(['npx storybook tools test run --input "$(cat /tmp/input.json)"'], profile)
    assert call.input == {"input": "$(cat /tmp/input.json)"}


def test_gen_c_does_not_know_storybook_ai() -> None:
    assert P(["npx storybook ai test-run"], "C") == []
    assert [c.name for c in P(["npx storybook ai test-run"], None)] == ["test-run"]


def test_gen_b_unwraps_mcp_wrappers_in_json() -> None:
    cmd = """npx storybook ai test-run --json '{"arguments":{"stories":[{"storyId":"a--b"}]}}'"""
    assert P([cmd], "B")[0].input == {"stories": [{"storyId": "a--b"}]}
    cmd = """npx storybook ai test-run --json '{"params":{"input":{"a11y":false}}}'"""
    assert P([cmd], "B")[0].input == {"a11y": False}


def test_gen_b_title_with_two_equals_signs() -> None:
    # Intentional difference: Gen B's split('=', 2) gives 'a'; we keep the whole value.
    (call,) = P(["npx storybook ai test-run --title=a=b"], "B")
    assert call.input == {"title": "a=b"}


# =============================================================================================
# §9.3 Gen C results / rendering (68902621478 compact)
# =============================================================================================


def _status(story: str, value: str) -> dict[str, Any]:
    return {"storyId": story, "typeId": "storybook/component-test", "value": value,
            "title": "", "description": "", "sidebarContextMenu": False}  # fmt: skip


OK, ERR = "status-value:success", "status-value:error"


def JL(doc: Any, output: str | None = None, command: str | None = None) -> str:
    cmd = command or ("npx storybook tools test run --input "
                      """'{"stories":[{"storyId":"reviews-reviewcard--default"}]}' --json""")  # fmt: skip
    out = output if output is not None else json.dumps(doc, indent=2) + "\n"
    return json.dumps({"type": "item.completed", "item": {
        "id": "item_1", "type": "command_execution", "command": cmd,
        "aggregated_output": out, "exit_code": 0, "status": "completed"}})  # fmt: skip


@pytest.mark.parametrize("profile", ["C", None])
def test_d1_passing(profile: Any) -> None:
    doc = {"status": "completed", "a11y": True, "result": {
        "componentTestStatuses": [_status("reviews-reviewcard--default", OK),
                                  _status("reviews-reviewcard--with-report-action", OK)],
        "a11yStatuses": [_status("reviews-reviewcard--default", OK)],
        "a11yReports": {"reviews-reviewcard--default": [
            {"violations": [], "passes": [{"id": "button-name"}], "inapplicable": [{"id": "color-contrast"}]}]},
        "unhandledErrors": []}}  # fmt: skip
    results = R([JL(doc)], profile=profile)
    assert [r.output for r in results] == [
        "## Passing Stories\n\n- reviews-reviewcard--default\n- reviews-reviewcard--with-report-action"
    ]


D2_DOC = {"status": "completed", "a11y": True, "result": {
    "componentTestStatuses": [_status("a--b", OK), {**_status("a--c", ERR), "description": "expected 1 to be 2"}],
    "a11yReports": {
        "a--b": [{"violations": [{"id": "button-name", "description": "Buttons must have discernible text",
                                  "nodes": [{"impact": "critical", "html": "<button></button>"}]}], "passes": []}],
        "a--c": [{"error": {"message": "axe crashed"}}]},
    "unhandledErrors": [{"name": "TypeError", "message": "x is not a function"}]}}  # fmt: skip


@pytest.mark.parametrize("profile", ["C", None])
def test_d2_compact(profile: Any) -> None:
    (r,) = R([JL(D2_DOC)], profile=profile)
    assert r.output == ("## Passing Stories\n\n- a--b\n\n## Failing Stories\n\n- a--c\n\n"
                        "## Accessibility Violations\n\n- a--b - button-name\n\n## Unhandled Errors\n\n- TypeError")  # fmt: skip


def test_d2_gen_b_keeps_the_raw_json() -> None:
    (r,) = R([JL(D2_DOC)], profile="B")
    assert json.loads(r.output) == D2_DOC


@pytest.mark.parametrize("profile", ["C", None])
def test_d3_a11y_off(profile: Any) -> None:
    doc = {"status": "completed", "a11y": False, "result": {
        "componentTestStatuses": [_status("a--b", OK)],
        "a11yReports": {"a--b": [{"violations": [{"id": "button-name"}], "passes": []}]},
        "unhandledErrors": []}}  # fmt: skip
    assert [r.output for r in R([JL(doc)], profile=profile)] == ["## Passing Stories\n\n- a--b"]


@pytest.mark.parametrize("profile", ["C", None])
def test_d4_npm_noise_around_the_document(profile: Any) -> None:
    doc = {"status": "completed", "a11y": True, "result": {
        "componentTestStatuses": [_status("a--b", OK)], "a11yReports": {}, "unhandledErrors": []}}  # fmt: skip
    out = ("npm warn exec The following package was not found and will be installed: storybook@10.3.0\n"
           + json.dumps(doc, indent=2) + "\nOutput written to /tmp/run.json\n")  # fmt: skip
    cmd = """npx storybook tools test run --stories '[{"storyId":"a--b"}]' --json 2>&1"""
    assert [r.output for r in R([JL(None, out, cmd)], profile=profile)] == ["## Passing Stories\n\n- a--b"]


@pytest.mark.parametrize("profile", ["C", None])
def test_d5_no_stories(profile: Any) -> None:
    doc = {"status": "no-stories", "notFoundMessages": ["No story with id a--b"]}
    assert [r.output for r in R([JL(doc)], profile=profile)] == ["No stories found matching the provided input."]


@pytest.mark.parametrize("profile", ["C", None])
def test_d6_error_and_cancelled_keep_raw_json_in_compact(profile: Any) -> None:
    for doc in ({"status": "error", "error": {"message": "dev server unreachable"}}, {"status": "cancelled"}):
        (r,) = R([JL(doc)], profile=profile)
        assert json.loads(r.output) == doc


@pytest.mark.parametrize("profile", ["C", None])
def test_d7_markdown_and_other_json_unchanged(profile: Any) -> None:
    (r,) = R([JL(None, "## Passing Stories\n\n- a--b")], profile=profile)
    assert r.output == "## Passing Stories\n\n- a--b"
    (r,) = R([JL({"reviewUrl": "http://localhost:6006"})], profile=profile)
    assert "reviewUrl" in r.output


# =============================================================================================
# §10: the real fixture claude-plugin-801-heredoc-commands.json
# =============================================================================================


@pytest.fixture(scope="module")
def fixture() -> dict[str, str]:
    data = json.loads(FIXTURE.read_text())
    assert isinstance(data, dict)
    return data


def _inline_payload(command: str) -> dict[str, Any]:
    """The JSON between ``<<'EOF'`` and ``EOF`` (read independently of the parser)."""
    body = command.split("<<'EOF'\n", 1)[1].split("\nEOF\n", 1)[0]
    doc = json.loads(body)
    assert isinstance(doc, dict)
    return doc


@pytest.mark.parametrize("profile", [None, "B", "C"])
def test_fixture_write_files_then_test_run(fixture: dict[str, str], profile: Any) -> None:
    # The references lose this call (an apostrophe in a heredoc body flips their quote state);
    # heredoc bodies are data here, under every profile.
    assert summary(P([fixture["writeFilesThenTestRun"]], profile)) == [("test-run", {}, "cli")]


@pytest.mark.parametrize("profile", [None, "C"])
def test_fixture_review_create_with_heredoc_input(fixture: dict[str, str], profile: Any) -> None:
    cmd = fixture["reviewCreateWithHeredocInput"]
    calls = P([cmd], profile)
    assert summary(calls) == [
        ("stories-find-by-component", {"componentPaths": ["/workspace/src/components/ToggleSwitch.tsx"]}, "cli"),
        ("review-create", _inline_payload(cmd), "cli"),
    ]
    assert all(c.complete for c in calls)


def test_fixture_review_create_with_heredoc_input_gen_b(fixture: dict[str, str]) -> None:
    # Gen B has no special --input flag: it is stored under `input`, and the bare --json is True.
    # (Gen B would keep the unexpanded "$(cat <<'EOF' …" text; we resolve the inline heredoc.)
    cmd = fixture["reviewCreateWithHeredocInput"]
    calls = P([cmd], "B")
    assert [c.name for c in calls] == ["stories-find-by-component", "review-create"]
    assert calls[1].input == {"input": _inline_payload(cmd), "json": True}


@pytest.mark.parametrize("profile", [None, "B"])
def test_fixture_review_create_with_heredoc_after_json_flag(fixture: dict[str, str], profile: Any) -> None:
    cmd = fixture["reviewCreateWithHeredocAfterJsonFlag"]
    assert summary(P([cmd], profile)) == [
        ("stories-changed", {}, "cli"),
        ("review-create", _inline_payload(cmd), "cli"),
    ]


def test_fixture_review_create_with_heredoc_after_json_flag_strict_c(fixture: dict[str, str]) -> None:
    # Strict Gen C: `--json` is an output flag and the payload a rejected positional: the CLI
    # prints its usage and no review-create runs. Profile "C" reports exactly that.
    assert summary(P([fixture["reviewCreateWithHeredocAfterJsonFlag"]], "C")) == [("stories-changed", {}, "cli")]
