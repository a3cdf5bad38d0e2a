"""storybook._workflow: workflow calls and results from real transcript lines (Claude, Codex)."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert.model import Transcript
from agenteval_assert.storybook import (
    WorkflowCall,
    WorkflowResult,
    parse_workflow_shell_commands,
    shell_command_texts,
    tool_result_text,
    workflow_calls,
    workflow_calls_json,
    workflow_results,
)

from .conftest import CORPUS


def jl(*records: dict[str, Any]) -> str:
    return "\n".join(json.dumps(r) for r in records)


def use(id: str, name: str, input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "assistant", "message": {"content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}}


def res(id: str, content: Any, is_error: bool = False) -> dict[str, Any]:
    return {"type": "user", "message": {"content": [
        {"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error}]}}  # fmt: skip


def bash(id: str, command: str) -> dict[str, Any]:
    return use(id, "Bash", {"command": command, "description": "run"})


def names(calls: list[WorkflowCall]) -> list[str]:
    return [c.name for c in calls]


# -- Claude -----------------------------------------------------------------------------------

CLAUDE = jl(
    {"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [
        {"type": "text", "text": "I'll run the tests."},
        {"type": "tool_use", "id": "toolu_1", "name": "mcp__storybook-dev-mcp__test-run",
         "input": {"stories": [{"storyId": "example-button--primary"}]}}]}},
    res("toolu_1", [{"type": "text", "text": "## Passing Stories\n\n- example-button--primary"}]),
    bash("toolu_2", "npx storybook tools --port 6006 test run 2>&1 | tail -40"),
    res("toolu_2", "## Failing Stories\n\n### example-button--primary", True),
    use("toolu_3", "Skill", {"skill": "stories"}),
    use("toolu_4", "mcp__Browser__navigate", {"url": "http://localhost:6006/?path=/review/"}),
    {"type": "assistant", "message": {"content": [{"type": "text", "text": "Done."}]}},
)  # fmt: skip


@pytest.fixture
def claude() -> Transcript:
    return aa.parse(CLAUDE)


def test_claude_mcp_and_cli_calls(claude: Transcript) -> None:
    calls = workflow_calls(claude)
    assert [(c.name, c.source, c.original_name, c.order) for c in calls] == [
        ("test-run", "mcp", "mcp__storybook-dev-mcp__test-run", 0),
        ("test-run", "cli", "tools test run", 1),
    ]
    mcp, cli = calls
    assert mcp.input == {"stories": [{"storyId": "example-button--primary"}]}
    assert mcp.location is not None and mcp.location.line == 1
    assert mcp.tool_call is claude.call("toolu_1") and mcp.command is None
    assert mcp.result is not None
    assert mcp.result == WorkflowResult("## Passing Stories\n\n- example-button--primary", False, mcp.result.location)
    assert mcp.result.location is not None and mcp.result.location.line == 2
    assert cli.input == {}  # options before the toolset are the CLI's, not the tool's (Gen C)
    assert cli.command == "npx storybook tools --port 6006 test run 2>&1 | tail -40"
    assert cli.result is not None and cli.result.is_error and cli.is_error
    assert cli.location is not None and cli.location.line == 3


def test_claude_results(claude: Transcript) -> None:
    results = workflow_results(claude, "test-run")
    assert [(r.output.split("\n")[0], r.is_error) for r in results] == [
        ("## Passing Stories", False),
        ("## Failing Stories", True),
    ]
    assert workflow_results(claude, "run-story-tests") == results  # either vocabulary
    assert workflow_results(claude, "review-create") == []


def test_results_arrive_in_result_order() -> None:
    t = aa.parse(jl(
        use("a", "mcp__storybook-dev-mcp__test-run", {}),
        bash("b", "npx storybook tools test run"),
        res("b", "second call, first result"),
        res("a", "first call, second result"),
    ))  # fmt: skip
    assert [r.output for r in workflow_results(t, "test-run")] == [
        "second call, first result",
        "first call, second result",
    ]


def test_one_result_per_tool_call_with_several_cli_calls() -> None:
    t = aa.parse(jl(
        bash("b", "npx storybook tools test run && npx storybook tools test run --a11y false"),
        res("b", "## Passing Stories\n\n- a--b"),
    ))  # fmt: skip
    calls = workflow_calls(t)
    assert [c.input for c in calls] == [{}, {"a11y": False}]
    assert calls[0].result is calls[1].result or calls[0].result == calls[1].result
    assert len(workflow_results(t, "test-run")) == 1


def test_payload_from_a_file_written_by_the_write_tool() -> None:
    payload = {"title": "T", "description": "D", "collections": []}
    t = aa.parse(jl(
        use("w", "Write", {"file_path": "/tmp/review.json", "content": json.dumps(payload)}),
        res("w", "File created"),
        bash("b", 'npx storybook tools review create --input "$(cat /tmp/review.json)"'),
        res("b", "ok"),
    ))  # fmt: skip
    (call,) = workflow_calls(t)
    assert call.input == payload and call.complete


def test_payload_from_a_heredoc_written_in_an_earlier_command() -> None:
    payload = {"title": "T", "collections": []}
    t = aa.parse(jl(
        bash("a", "cat > /tmp/r.json <<'EOF'\n" + json.dumps(payload) + "\nEOF"),
        res("a", ""),
        bash("b", "npx storybook tools review create --input \"$(cat /tmp/r.json)\" --json"),
        res("b", "ok"),
    ))  # fmt: skip
    assert [c.input for c in workflow_calls(t)] == [payload]


def test_payload_from_a_shell_variable() -> None:
    cmds = [
        """P='{"stories":[{"storyId":"a--b"}]}'; npx storybook tools test run --input "$P" """,
        """export P='{"a11y":false}' && npx storybook tools test run --input "$P" """,
        """npx storybook tools test run --input "$UNSET" """,
    ]
    calls = parse_workflow_shell_commands(cmds)
    assert [(c.input, c.complete) for c in calls] == [
        ({"stories": [{"storyId": "a--b"}]}, True),
        ({"a11y": False}, True),
        ({"input": "$UNSET"}, False),
    ]


def test_heredoc_mention_is_not_a_call() -> None:
    cmd = "cat > README.md <<'EOF'\nRun `npx storybook tools test run` to test.\nEOF"
    assert parse_workflow_shell_commands([cmd]) == []
    assert parse_workflow_shell_commands([cmd], profile="C") == []


def test_calls_inside_command_substitutions_and_wrappers() -> None:
    cmds = [
        'echo "$(npx storybook tools stories changed)"',
        "bash -lc 'npx storybook tools test run'; npx storybook tools docs list",
    ]
    # The reference reads only the nested script of a wrapper; we read both (difference).
    assert names(parse_workflow_shell_commands(cmds)) == ["stories-changed", "test-run", "docs-list"]


@pytest.mark.parametrize(
    ("cmd", "default", "strict"),
    [
        ("echo storybook tools test run", [], ["test-run"]),
        ("npx storybook@latest tools test run", ["test-run"], []),
        ("./node_modules/.bin/storybook tools test run", ["test-run"], []),
        ("pnpm dlx storybook tools test run", ["test-run"], ["test-run"]),
        ("yarn storybook tools test run", ["test-run"], ["test-run"]),
        ("bunx storybook tools test run", ["test-run"], ["test-run"]),
        ("A=1 B=2 npx storybook tools test run", ["test-run"], ["test-run"]),
        ("npx -y storybook tools test run", ["test-run"], ["test-run"]),
        ("timeout 120 npx storybook tools test run", ["test-run"], ["test-run"]),
        ("storybook tools test run", ["test-run"], ["test-run"]),
        ("npx storybook tools test run --help", [], []),
        ("npx storybook dev -p 6006", [], []),
    ],
)
def test_invocation_forms(cmd: str, default: list[str], strict: list[str]) -> None:
    assert names(parse_workflow_shell_commands([cmd])) == default
    assert names(parse_workflow_shell_commands([cmd], profile="C")) == strict


def test_ai_form_and_profiles() -> None:
    cmd = "npx storybook ai run-story-tests --a11y-mode=off"
    assert [(c.name, c.input, c.original_name) for c in parse_workflow_shell_commands([cmd], profile="A")] == [
        ("test-run", {"a11yMode": "off"}, "ai run-story-tests")
    ]
    assert parse_workflow_shell_commands([cmd], profile="B") == []
    assert names(parse_workflow_shell_commands([cmd])) == ["test-run"]
    assert parse_workflow_shell_commands(["npx storybook skills write-story"], profile="A") == []
    assert names(parse_workflow_shell_commands(["npx storybook skills get write-story"])) == ["skills-get"]


def test_tools_form_gen_b_camel_cases_and_reads_options_before_the_command() -> None:
    (b,) = parse_workflow_shell_commands(["npx storybook tools --config-dir x test run --a11y-mode off"], profile="B")
    assert b.input == {"configDir": "x", "a11yMode": "off"}
    (c,) = parse_workflow_shell_commands(["npx storybook tools --config-dir x test run --a11y-mode off"], profile="C")
    assert c.input == {"a11y-mode": "off"}


def test_incomplete_command_marks_the_call() -> None:
    (call,) = parse_workflow_shell_commands(["npx storybook tools test run --title 'oops"])
    assert call.input == {"title": "oops"} and not call.complete


def test_not_strings_are_skipped() -> None:
    assert parse_workflow_shell_commands([None, 3, "npx storybook tools test run"]) != []  # type: ignore[list-item]


# -- Codex ------------------------------------------------------------------------------------


def item(kind: str, i: int, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "item": {"id": f"item_{i}", **fields}}


def mcp(i: int, tool: str, status: str, kind: str = "item.completed", **extra: Any) -> dict[str, Any]:
    return item(kind, i, type="mcp_tool_call", server="storybook", tool=tool, arguments={"stories": []},
                status=status, **extra)  # fmt: skip


def cmd_item(i: int, command: str, code: int, output: str = "") -> dict[str, Any]:
    return item("item.completed", i, type="command_execution", command=command, aggregated_output=output,
                exit_code=code, status="completed")  # fmt: skip


CODEX = jl(
    {"type": "thread.started", "thread_id": "t"},
    {"type": "turn.started"},
    mcp(1, "test-run", "in_progress", "item.started", result=None),
    mcp(1, "test-run", "completed", error=None, result={"content": [{"type": "text", "text": "## Passing Stories"}]}),
    mcp(2, "review-create", "failed", error={"message": "invalid payload"}, result=None),
    cmd_item(3, "/bin/bash -lc 'npx storybook tools stories changed 2>&1 | tail -20'", 0, "src/a.tsx"),
    cmd_item(4, "/bin/bash -lc 'npx storybook tools test run'", 1, "boom"),
    cmd_item(5, "/bin/bash -lc 'ls'", 0, "x"),
    {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
)


def test_codex_calls_and_errors() -> None:
    t = aa.parse(CODEX)
    calls = workflow_calls(t)
    assert [(c.name, c.source, c.is_error) for c in calls] == [
        ("test-run", "mcp", False),
        ("review-create", "mcp", True),
        ("stories-changed", "cli", False),
        ("test-run", "cli", True),
    ]
    assert calls[0].input == {"stories": []}
    assert calls[2].result is not None and calls[2].result.output == "src/a.tsx"
    assert [r.is_error for r in workflow_results(t, "test-run")] == [False, True]
    raw = aa.storybook.parse_workflow_tool_results(CODEX, "test-run")
    assert [(r.output, r.is_error) for r in raw] == [(r.output, r.is_error) for r in workflow_results(t, "test-run")]


def test_codex_started_only_mcp_call() -> None:
    text = jl({"type": "thread.started", "thread_id": "t"}, mcp(1, "test-run", "in_progress", "item.started"))
    t = aa.parse(text)
    # The references count only item.completed; the default still reports the call, without result.
    assert [(c.name, c.result) for c in workflow_calls(t)] == [("test-run", None)]
    assert workflow_calls(t, profile="C") == []
    assert workflow_results(t, "test-run") == []


def test_codex_rollout() -> None:
    text = jl(
        {"timestamp": "2025-09-25T14:02:05Z", "type": "session_meta",
         "payload": {"id": "x", "cwd": "/w", "originator": "codex_cli", "cli_version": "0.40.0"}},
        {"timestamp": "2025-09-25T14:02:06Z", "type": "response_item", "payload": {
            "type": "function_call", "name": "mcp__storybook-dev-mcp__test-run",
            "arguments": json.dumps({"a11y": False}), "call_id": "c1"}},
        {"timestamp": "2025-09-25T14:02:07Z", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "c1", "output": "## Passing Stories\n\n- a--b"}},
        {"timestamp": "2025-09-25T14:02:08Z", "type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "call_id": "c2",
            "arguments": json.dumps({"command": ["bash", "-lc", "npx storybook tools stories changed"]})}},
        {"timestamp": "2025-09-25T14:02:09Z", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "c2",
            "output": json.dumps({"output": "x", "metadata": {"exit_code": 1}})}},
    )  # fmt: skip
    t = aa.parse(text)
    assert t.format == "codex-rollout"
    calls = workflow_calls(t)
    assert [(c.name, c.source, c.input, c.is_error) for c in calls] == [
        ("test-run", "mcp", {"a11y": False}, False),
        ("stories-changed", "cli", {}, True),
    ]


def test_gen_a_names_in_a_transcript() -> None:
    t = aa.parse(jl(use("a", "mcp__storybook-dev-mcp__run-story-tests", {}), res("a", "## Passing Stories")))
    (call,) = workflow_calls(t, profile="A")
    assert (call.name, call.original_name) == ("test-run", "mcp__storybook-dev-mcp__run-story-tests")
    assert workflow_calls(t, profile="B") == []
    assert [r.output for r in workflow_results(t, "run-story-tests", profile="A")] == ["## Passing Stories"]


def test_cache_is_per_transcript_and_profile(claude: Transcript) -> None:
    first = workflow_calls(claude)
    first.clear()  # the caller's list is a copy
    again = workflow_calls(claude)
    assert len(again) == 2
    assert workflow_calls(claude)[0] is again[0]
    assert len(workflow_calls(claude, profile="A")) == 0


def test_workflow_calls_json(claude: Transcript) -> None:
    doc = workflow_calls_json(claude)
    assert json.loads(json.dumps(doc)) == doc
    assert doc[0] == {
        "name": "test-run", "source": "mcp", "input": {"stories": [{"storyId": "example-button--primary"}]},
        "original_name": "mcp__storybook-dev-mcp__test-run", "order": 0, "location": "<memory>:1",
        "call_id": "toolu_1", "command": None, "is_error": False, "complete": True,
    }  # fmt: skip
    assert doc[1]["source"] == "cli" and doc[1]["is_error"] is True


def test_shell_command_texts(claude: Transcript) -> None:
    assert shell_command_texts(claude) == ["npx storybook tools --port 6006 test run 2>&1 | tail -40"]


@pytest.mark.parametrize(
    ("content", "text"),
    [
        ("plain", "plain"),
        ([{"type": "text", "text": "a"}, {"type": "image"}, "x", {"type": "text", "text": "b"}], "a\nb"),
        ({"content": [{"type": "text", "text": "c"}]}, "c"),
        (None, ""),
        (3, ""),
    ],
)
def test_tool_result_text(content: Any, text: str) -> None:
    assert tool_result_text(content) == text


def test_unknown_profile() -> None:
    with pytest.raises(ValueError, match="unknown profile"):
        parse_workflow_shell_commands([], profile="Z")  # type: ignore[arg-type]


# -- properties -------------------------------------------------------------------------------

_KEYS = st.from_regex(r"[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,5}){0,2}", fullmatch=True).filter(
    lambda k: k not in ("help", "json", "attach", "no-attach", "output", "input")
)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=5,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=4), st.sampled_from(["C", None]))
def test_tools_flags_round_trip(flags: dict[str, Any], profile: Any) -> None:
    """``--key 'json'`` flags come back as the input, keys verbatim, values JSON-decoded."""
    args = []
    for k, v in flags.items():
        text = json.dumps(v) if not isinstance(v, str) else v
        if isinstance(v, str):
            ok = True
            try:
                json.loads(v)
                ok = False  # a string that is itself JSON would be decoded: not this property
            except ValueError:
                pass
            if not ok or v.startswith("--"):
                continue
        args.append(f"--{k}={shlex.quote(text)}")
    expected = {k: v for k, v in flags.items() if any(a.startswith(f"--{k}=") for a in args)}
    cmd = "/bin/bash -lc " + shlex.quote("npx storybook tools test run " + " ".join(args))
    assert summary_inputs(parse_workflow_shell_commands([cmd], profile=profile)) == [expected]


def summary_inputs(calls: list[WorkflowCall]) -> list[dict[str, Any]]:
    return [c.input for c in calls]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"ab '\"\\$()<>|&;\n-=", "storybook", "tools", "test", "run", "ai",
                                   "skills", "--input", "{}", "EOF", "<<", " "]), max_size=40).map("".join))  # fmt: skip
def test_recognition_never_raises(text: str) -> None:
    for profile in ("A", "B", "C", None):
        for call in parse_workflow_shell_commands([text], profile=profile):
            assert isinstance(call.input, dict) and call.source == "cli"


_TOOL_NAMES = ["mcp__storybook-dev-mcp__test-run", "mcp__storybook__review-create", "mcp__x__docs-show-story",
               "mcp__Browser__navigate", "Read"]  # fmt: skip
_COMMANDS = ["npx storybook tools test run", "npm run lint", "npx storybook skills write-story",
             "bash -lc 'npx storybook tools review create --title T'", "npx storybook ai test-run --json '{}'",
             "cat > f <<'EOF'\nnpx storybook tools test run\nEOF"]  # fmt: skip


@st.composite
def _claude_lines(draw: st.DrawFn) -> list[str]:
    n = draw(st.integers(1, 8))
    lines: list[str] = []
    pending: list[str] = []
    for i in range(n):
        cid = f"toolu_{i}"
        if draw(st.booleans()):
            lines.append(json.dumps(use(cid, draw(st.sampled_from(_TOOL_NAMES)), {})))
        else:
            lines.append(json.dumps(bash(cid, draw(st.sampled_from(_COMMANDS)))))
        pending.append(cid)
        # answer some pending calls, in any order
        for cid2 in draw(st.lists(st.sampled_from(pending), unique=True, max_size=len(pending))):
            pending.remove(cid2)
            lines.append(json.dumps(res(cid2, f"out of {cid2}", draw(st.booleans()))))
    return lines


@settings(max_examples=150, deadline=None)
@given(_claude_lines(), st.sampled_from(["B", "C", None]))
def test_model_and_raw_results_agree(lines: list[str], profile: Any) -> None:
    """workflow_results on the parsed model == the spec's line-based parse_workflow_tool_results."""
    text = "\n".join(lines)
    t = aa.parse(text)
    for name in ("test-run", "review-create", "docs-show-story", "get-storybook-story-instructions"):
        raw = aa.storybook.parse_workflow_tool_results(text, name, profile=profile)
        model = workflow_results(t, name, profile=profile)
        assert [(r.output, r.is_error, r.location) for r in raw] == [
            (r.output, r.is_error, r.location) for r in model
        ]


FIXTURE = CORPUS / "storybook" / "lib" / "__fixtures__" / "claude-plugin-801-heredoc-commands.json"


def test_fixture_commands_in_claude_and_codex_transcripts() -> None:
    """The real 801 plugin commands, as Claude Bash calls and as Codex ``/bin/bash -lc`` items."""
    fx = json.loads(FIXTURE.read_text())
    keys = ["writeFilesThenTestRun", "reviewCreateWithHeredocInput", "reviewCreateWithHeredocAfterJsonFlag"]
    claude = aa.parse(jl(*[r for i, k in enumerate(keys) for r in (bash(f"b{i}", fx[k]), res(f"b{i}", "ok"))]))
    codex = aa.parse(jl({"type": "thread.started", "thread_id": "t"}, *[
        cmd_item(i, "/bin/bash -lc " + shlex.quote(fx[k]), 0, "ok") for i, k in enumerate(keys)]))  # fmt: skip
    expected = ["test-run", "stories-find-by-component", "review-create", "stories-changed", "review-create"]
    for t in (claude, codex):
        calls = workflow_calls(t)
        assert names(calls) == expected
        assert calls[2].input == calls[4].input
        assert calls[2].input["changedFiles"] == [
            "src/components/ToggleSwitch.tsx",
            "src/components/ToggleSwitch.stories.tsx",
        ]
        assert all(c.complete and c.result is not None for c in calls)
        # The payload is the fixture's inline heredoc, read independently of the parser.
        body = fx[keys[1]].split("<<'EOF'\n", 1)[1].split("\nEOF\n", 1)[0]
        assert calls[2].input == json.loads(body)
