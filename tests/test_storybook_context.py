"""EvalContext: saved sandboxes, parts, the reference's agent.json errors, no shared caches.

The helpers at the top write *real* transcript lines: Claude Code session JSONL (the envelope of
``~/.claude/projects/*.jsonl`` around ``{"type":"assistant","message":{...}}``, spec §3.1) and
Codex ``exec --json`` events (spec §3.2). The other Storybook test modules import them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from agenteval_assert.storybook._context import (
    EvalContext,
    EvalProfile,
    SandboxError,
    js_string,
)

# --------------------------------------------------------------------------------------------
# transcript writers

_uuid = itertools.count(1)


def _envelope(kind: str, message: dict[str, Any], parent: str | None = None) -> dict[str, Any]:
    n = next(_uuid)
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/workspace",
        "sessionId": "5f0c2f0e-0000-4000-8000-000000000801",
        "version": "2.0.14",
        "gitBranch": "main",
        "type": kind,
        "message": message,
        "uuid": f"00000000-0000-4000-8000-{n:012d}",
        "timestamp": f"2026-10-04T12:00:{n % 60:02d}.000Z",
    }


def CU(id: str, name: str, input: Mapping[str, Any]) -> dict[str, Any]:
    """Claude assistant line with one ``tool_use`` block (spec §9 notation ``CU``)."""
    return _envelope("assistant", {
        "id": f"msg_{id}", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "tool_use", "id": id, "name": name, "input": dict(input)}],
    })


def CR(id: str, content: Any, is_error: bool = False) -> dict[str, Any]:
    """Claude user line with one ``tool_result`` block (spec §9 notation ``CR``)."""
    return _envelope("user", {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error}]})


def CT(text: str) -> dict[str, Any]:
    """Claude assistant text line."""
    n = next(_uuid)
    return _envelope("assistant", {"id": f"msg_t{n}", "type": "message", "role": "assistant",
                                   "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": text}]})


def CP(text: str) -> dict[str, Any]:
    """Claude user prompt line."""
    return _envelope("user", {"role": "user", "content": text})


def bash(id: str, command: str, output: str | None = None, is_error: bool = False) -> list[dict[str, Any]]:
    """A Claude ``Bash`` call and (when *output* is given) its result."""
    lines = [CU(id, "Bash", {"command": command, "description": "run"})]
    if output is not None:
        lines.append(CR(id, output, is_error))
    return lines


def codex_start() -> list[dict[str, Any]]:
    return [{"type": "thread.started", "thread_id": "0199a2d7-6455-7170-a661-c6d8b94c6801"},
            {"type": "turn.started"}]


def codex_end() -> dict[str, Any]:
    return {"type": "turn.completed", "usage": {"input_tokens": 100, "cached_input_tokens": 0, "output_tokens": 10}}


def XC(id: str, command: str, output: str = "", exit_code: int | None = 0) -> list[dict[str, Any]]:
    """A Codex ``command_execution`` item: started + completed."""
    started = {"id": id, "type": "command_execution", "command": command, "aggregated_output": "",
               "exit_code": None, "status": "in_progress"}
    done = {"id": id, "type": "command_execution", "command": command, "aggregated_output": output,
            "exit_code": exit_code, "status": "completed" if exit_code == 0 else "failed"}
    return [{"type": "item.started", "item": started}, {"type": "item.completed", "item": done}]


def XM(id: str, server: str, tool: str, arguments: Mapping[str, Any], result_text: str | None = "ok", *,
       status: str = "completed", error: str | None = None, started: bool = True) -> list[dict[str, Any]]:
    """A Codex ``mcp_tool_call`` item: started (optional) + completed."""
    base = {"id": id, "type": "mcp_tool_call", "server": server, "tool": tool, "arguments": dict(arguments)}
    out: list[dict[str, Any]] = []
    if started:
        out.append({"type": "item.started", "item": {**base, "result": None, "error": None, "status": "in_progress"}})
    result = None if result_text is None else {"content": [{"type": "text", "text": result_text}],
                                               "structured_content": None}
    out.append({"type": "item.completed", "item": {
        **base, "result": result, "error": None if error is None else {"message": error}, "status": status}})
    return out


def XG(id: str, code: str, *, status: str = "completed", error: str | None = None,
       server: str = "node_repl") -> list[dict[str, Any]]:
    """A Codex in-app-browser call: ``node_repl`` ``js`` with *code*."""
    return XM(id, server, "js", {"code": code, "title": "Open page", "timeout_ms": 30000}, "",
              status=status, error=error)


def XT(id: str, text: str) -> dict[str, Any]:
    """A Codex ``agent_message``."""
    return {"type": "item.completed", "item": {"id": id, "type": "agent_message", "text": text}}


def jsonl(lines: Sequence[Any]) -> str:
    out: list[str] = []
    for line in lines:
        if isinstance(line, list):
            out.extend(json.dumps(x, ensure_ascii=False) for x in line)
        elif isinstance(line, str):
            out.append(line)
        else:
            out.append(json.dumps(line, ensure_ascii=False))
    return "\n".join(out) + "\n"


def flat(*parts: Any) -> list[Any]:
    out: list[Any] = []
    for p in parts:
        if isinstance(p, list):
            out.extend(p)
        else:
            out.append(p)
    return out


def sandbox(
    root: Path,
    lines: Sequence[Any],
    *,
    agent: str = "claude-code",
    integration: str = "mcp",
    review: bool = False,
    shell_commands: Sequence[str] | None = None,
    files: Mapping[str, str] | None = None,
) -> Path:
    """Write a saved sandbox: ``__agent_eval__/{agent.json,results.json,transcript.txt}`` + files.

    ``results.json`` holds ``shell_commands`` (default: the transcript's shell commands, as the
    harness would record them).
    """
    ev = root / "__agent_eval__"
    ev.mkdir(parents=True, exist_ok=True)
    (ev / "agent.json").write_text(json.dumps({"agent": agent, "integration": integration, "review": review},
                                              indent=2) + "\n")
    text = jsonl(lines)
    (ev / "transcript.txt").write_text(text, encoding="utf-8")
    if shell_commands is None:
        shell_commands = _commands_in(text)
    (ev / "results.json").write_text(json.dumps({
        "status": "passed", "o11y": {"shellCommands": [{"command": c, "success": True} for c in shell_commands]},
    }, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for rel, content in (files or {}).items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content, encoding="utf-8")
    return root


def _commands_in(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        msg = rec.get("message")
        if isinstance(msg, dict) and isinstance(msg.get("content"), list):
            for b in msg["content"]:
                if isinstance(b, dict) and b.get("type") == "tool_use" and b.get("name") == "Bash":
                    out.append(b["input"]["command"])
        item = rec.get("item")
        if rec.get("type") == "item.started" and isinstance(item, dict) and item.get("type") == "command_execution":
            out.append(item["command"])
    return out


def ctx_of(tmp_path: Path, lines: Sequence[Any], **kw: Any) -> EvalContext:
    profile = kw.pop("profile", None)
    return EvalContext.from_sandbox(sandbox(tmp_path, lines, **kw), profile=profile)


# --------------------------------------------------------------------------------------------
# tests


def test_from_sandbox_reads_the_three_files(tmp_path: Path) -> None:
    lines = flat(CP("Create a ToggleSwitch"), CU("toolu_1", "mcp__storybook-dev-mcp__test-run", {"a11y": True}),
                 CR("toolu_1", [{"type": "text", "text": "## Passing Stories\n\n- a--b"}]),
                 bash("toolu_2", "npm run lint", "ok"), CT("All green."))
    ctx = ctx_of(tmp_path, lines, review=True)
    assert (ctx.agent, ctx.integration, ctx.review) == ("claude-code", "mcp", True)
    assert ctx.transcript.format == "claude-session"
    assert ctx.final_assistant_message == "All green."
    assert ctx.shell_command_texts == ["npm run lint"]
    (sc,) = ctx.shell_commands
    assert sc.location is not None and sc.location.path.endswith("transcript.txt")
    assert sc.tool_call is not None and sc.succeeded is True
    [call] = ctx.workflow_calls
    assert (call.name, call.input, call.source) == ("test-run", {"a11y": True}, "mcp")
    assert [r.output for r in ctx.workflow_results("test-run")] == ["## Passing Stories\n\n- a--b"]
    assert ctx.notes == ()


def test_review_is_true_only_for_literal_true(tmp_path: Path) -> None:
    root = sandbox(tmp_path, [CT("hi")])
    (root / "__agent_eval__/agent.json").write_text('{"agent":"codex","integration":"plugin","review":"yes"}')
    ctx = EvalContext.from_sandbox(root)
    assert ctx.review is False and ctx.is_codex


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"integration": "mcp"}, "Expected __agent_eval__/agent.json to contain an agent name. Received: undefined"),
        ({"agent": None, "integration": "mcp"}, "Expected __agent_eval__/agent.json to contain an agent name. Received: null"),
        ({"agent": 7, "integration": "mcp"}, "Expected __agent_eval__/agent.json to contain an agent name. Received: 7"),
        ({"agent": "codex"}, "Expected __agent_eval__/agent.json to contain an integration. Received: undefined"),
        ({"agent": "codex", "integration": "cli"}, "Expected __agent_eval__/agent.json to contain an integration. Received: cli"),
        ({"agent": "codex", "integration": {"a": 1}},
         "Expected __agent_eval__/agent.json to contain an integration. Received: [object Object]"),
        ([1, 2], "Expected __agent_eval__/agent.json to contain an agent name. Received: undefined"),
    ],
)
def test_agent_json_errors_are_the_references(tmp_path: Path, doc: Any, message: str) -> None:
    root = sandbox(tmp_path, [CT("hi")])
    (root / "__agent_eval__/agent.json").write_text(json.dumps(doc))
    with pytest.raises(SandboxError) as info:
        EvalContext.from_sandbox(root)
    assert str(info.value) == message
    assert info.value.path.endswith("agent.json")


def test_integration_none_is_accepted(tmp_path: Path) -> None:
    root = sandbox(tmp_path, [CT("hi")], integration="none")
    assert EvalContext.from_sandbox(root).integration == "none"


def test_malformed_agent_json_names_the_file(tmp_path: Path) -> None:
    root = sandbox(tmp_path, [CT("hi")])
    (root / "__agent_eval__/agent.json").write_text('{"agent": "codex",')
    with pytest.raises(SandboxError, match=r"^__agent_eval__/agent\.json: invalid JSON at line 1"):
        EvalContext.from_sandbox(root)


def test_malformed_results_json_names_the_file(tmp_path: Path) -> None:
    root = sandbox(tmp_path, [CT("hi")])
    (root / "__agent_eval__/results.json").write_text("{not json\n")
    with pytest.raises(SandboxError, match=r"^__agent_eval__/results\.json: invalid JSON at line 1 column 2"):
        EvalContext.from_sandbox(root)
    (root / "__agent_eval__/results.json").write_text("[]")
    with pytest.raises(SandboxError, match=r"results\.json: expected a JSON object"):
        EvalContext.from_sandbox(root)


def test_missing_files(tmp_path: Path) -> None:
    with pytest.raises(SandboxError, match="not a directory"):
        EvalContext.from_sandbox(tmp_path / "nope")
    root = sandbox(tmp_path, [CT("hi")])
    (root / "__agent_eval__/transcript.txt").unlink()
    with pytest.raises(SandboxError, match=r"^__agent_eval__/transcript\.txt: file not found"):
        EvalContext.from_sandbox(root)
    (root / "__agent_eval__/agent.json").unlink()
    with pytest.raises(SandboxError, match=r"^__agent_eval__/agent\.json: file not found"):
        EvalContext.from_sandbox(root)


def test_missing_results_json_falls_back_to_transcript_and_says_so(tmp_path: Path) -> None:
    root = sandbox(tmp_path, bash("toolu_1", "npx storybook tools test run", "## Passing Stories\n\n- a--b"),
                   integration="plugin")
    (root / "__agent_eval__/results.json").unlink()
    ctx = EvalContext.from_sandbox(root)
    assert ctx.shell_command_texts == ["npx storybook tools test run"]
    assert ctx.notes and "results.json is absent" in ctx.notes[0]
    assert [c.name for c in ctx.workflow_calls] == ["test-run"]


def test_plugin_calls_come_from_results_json_not_the_transcript(tmp_path: Path) -> None:
    # The reference reads o11y.shellCommands on the plugin path; a command only in results.json
    # counts (located in results.json), one only in the transcript does not.
    lines = bash("toolu_1", "npx storybook tools test run", "## Passing Stories\n\n- a--b")
    ctx = ctx_of(tmp_path, lines, integration="plugin",
                 shell_commands=["npx storybook tools stories changed", "npx storybook tools test run"])
    assert [c.name for c in ctx.workflow_calls] == ["stories-changed", "test-run"]
    first, second = ctx.workflow_calls
    assert first.location is not None and first.location.path.endswith("results.json")
    assert first.location.line > 1
    assert second.location is not None and second.location.path.endswith("transcript.txt")
    assert second.result is not None and "Passing" in second.result.output


def test_mcp_path_ignores_cli_calls(tmp_path: Path) -> None:
    lines = flat(bash("toolu_1", "npx storybook tools test run", "## Passing Stories\n\n- a--b"))
    ctx = ctx_of(tmp_path, lines, integration="mcp")
    assert ctx.workflow_calls == []
    # results are read from the raw transcript whatever the integration (spec §5.5)
    assert len(ctx.workflow_results("test-run")) == 1


def test_codex_mcp_counts_completed_items_only(tmp_path: Path) -> None:
    lines = flat(codex_start(),
                 XM("item_1", "storybook", "test-run", {"stories": [{"storyId": "a--b"}]}, "## Passing Stories\n\n- a--b"),
                 [{"type": "item.started", "item": {"id": "item_2", "type": "mcp_tool_call", "server": "storybook",
                                                    "tool": "review-create", "arguments": {}, "result": None,
                                                    "status": "in_progress"}}],
                 XT("item_3", "done"), codex_end())
    ctx = ctx_of(tmp_path, lines, agent="codex", integration="mcp")
    assert ctx.transcript.format == "codex-exec"
    assert [c.name for c in ctx.workflow_calls] == ["test-run"]
    assert ctx.final_assistant_message == "done"


def test_from_parts_with_shell_commands_and_results_mapping(tmp_path: Path) -> None:
    root = sandbox(tmp_path, [CT("hi")])
    t = root / "__agent_eval__/transcript.txt"
    a = EvalContext.from_parts(t, integration="plugin", shell_commands=["npx storybook tools test run"])
    assert a.agent == "claude-code" and [c.name for c in a.workflow_calls] == ["test-run"]
    b = EvalContext.from_parts(t, integration="plugin",
                               results={"o11y": {"shellCommands": [{"command": "npx storybook skills --all"}, {"x": 1}]}})
    assert [(c.name, c.input) for c in b.workflow_calls] == [("skills-get", {"all": True})]
    c = EvalContext.from_parts(a.transcript, agent="codex", integration="plugin", review=True, workspace=root)
    assert c.is_codex and c.review and c.workspace == root
    assert c.notes  # commands taken from the transcript: said so
    with pytest.raises(SandboxError, match=r"integration\. Received: cli"):
        EvalContext.from_parts(t, integration="cli")


def test_empty_transcript_is_zero_events(tmp_path: Path) -> None:
    root = sandbox(tmp_path, [])
    (root / "__agent_eval__/transcript.txt").write_text("")
    ctx = EvalContext.from_sandbox(root)
    assert ctx.transcript.tool_calls == () and ctx.final_assistant_message is None


def test_no_process_wide_cache_between_contexts(tmp_path: Path) -> None:
    # The reference memoises getStorybookWorkflowCalls() for the life of the process (§1.3).
    a = ctx_of(tmp_path / "a", flat(CU("toolu_1", "mcp__storybook-dev-mcp__test-run", {}), CR("toolu_1", "x")))
    b = ctx_of(tmp_path / "b", flat(CU("toolu_1", "mcp__storybook-dev-mcp__review-create", {}), CR("toolu_1", "x")))
    assert [c.name for c in a.workflow_calls] == ["test-run"]
    assert [c.name for c in b.workflow_calls] == ["review-create"]
    assert a.workflow_calls is a.workflow_calls  # computed once per context


def test_profile_validation_and_generation_views() -> None:
    with pytest.raises(ValueError, match="unknown generation"):
        EvalProfile(generation="D")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="out_of_context"):
        EvalProfile(out_of_context="maybe")  # type: ignore[arg-type]
    assert EvalProfile(generation="C+").names_profile == "C"
    assert EvalProfile(generation="A").names_profile is None
    assert EvalProfile(generation="A", strict_names=True).names_profile == "A"


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "null"), (True, "true"), (False, "false"), (6006, "6006"), (6006.0, "6006"), (1.5, "1.5"),
     ("x", "x"), ({"a": 1}, "[object Object]"), ([1, None, "b"], "1,,b"), (float("nan"), "NaN"),
     (1e-7, "1e-7"), (0.000001, "0.000001"), (1e21, "1e+21"), ([1e-7, 2.0], "1e-7,2")],
)
def test_js_string(value: Any, text: str) -> None:
    assert js_string(value) == text


def test_notes_say_when_the_transcript_is_weak_ground(tmp_path: Path) -> None:
    root = sandbox(tmp_path, [CT("hi"), "not json", CT("bye")], agent="codex")
    ctx = EvalContext.from_sandbox(root)
    assert any("1 line(s) are not JSON and were skipped: 2" in n for n in ctx.notes), ctx.notes
    assert any("agent.json says agent=codex but" in n and "claude-session" in n for n in ctx.notes), ctx.notes
    t = root / "__agent_eval__/transcript.txt"
    t.write_text(t.read_text() + '{"type":"assistant","message":{"content":[{"type":"te')
    assert any("is torn" in n for n in EvalContext.from_sandbox(root).notes)


# -- a transcript.txt that already holds a parsed transcript document (spec §3.3) -----------------

GOLDEN_RUN = Path(__file__).parent / "corpus/storybook/lib/agentic-reference/__fixtures__/golden-run"


def _parsed_sandbox(root: Path, document: Mapping[str, Any], integration: str = "mcp") -> Path:
    ev = root / "__agent_eval__"
    ev.mkdir(parents=True)
    (ev / "agent.json").write_text(json.dumps({"agent": "claude-code", "integration": integration}))
    (ev / "transcript.txt").write_text(json.dumps(document, indent=2), encoding="utf-8")
    return root


def test_a_parsed_transcript_document_is_used_as_is(tmp_path: Path) -> None:
    from agenteval_assert import storybook

    golden = json.loads((GOLDEN_RUN / "transcript.json").read_text(encoding="utf-8"))
    ctx = EvalContext.from_sandbox(_parsed_sandbox(tmp_path / "golden", golden))
    assert ctx.transcript.format == "agent-eval-transcript" and len(ctx.tool_calls) == 25
    assert ctx.shell_command_texts == [c["command"] for c in golden["summary"]["shellCommands"]]
    gen_a = ctx.with_profile(EvalProfile(generation="A"))
    assert [c.name for c in gen_a.workflow_calls] == ["docs-list"]  # Gen A list-all-documentation
    # a document with the results in it: a full story-test check runs on it
    doc = {"agent": "vercel-ai-gateway/claude-code", "parseSuccess": True, "summary": {}, "events": [
        {"type": "message", "role": "user", "content": "Run the story tests"},
        {"type": "tool_call", "tool": {"name": "unknown", "originalName": "mcp__storybook-dev-mcp__test-run",
                                       "args": {"stories": [{"storyId": "button--primary"}]}}},
        {"type": "tool_result", "tool": {"name": "unknown", "originalName": "toolu_1", "success": True,
                                         "result": [{"type": "text", "text": "## Passing Stories\n\n- button--primary"}]}},
        {"type": "message", "role": "assistant", "content": "All story tests pass."},
    ]}
    ctx = EvalContext.from_sandbox(_parsed_sandbox(tmp_path / "full", doc))
    assert storybook.expect_story_tests_ran_and_passed(ctx, covering=["button"]).passed
    assert storybook.expect_final_response_contains(ctx, ["pass"]).passed
