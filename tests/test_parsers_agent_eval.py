"""``agent-eval-transcript``: the parsed transcripts of ``@vercel/agent-eval`` (Storybook's harness)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import checks as C
from agenteval_assert.exceptions import TranscriptError
from agenteval_assert.results import Status

from .conftest import CORPUS

GOLDEN = CORPUS / "storybook/lib/agentic-reference/__fixtures__/golden-run/transcript.json"


def test_the_golden_run_is_read_as_is() -> None:
    t = aa.load(GOLDEN)
    doc = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert (t.format, t.agent, t.model) == ("agent-eval-transcript", "claude-code", "opus")
    assert t.metadata["agent"] == "vercel-ai-gateway/claude-code" and t.metadata["summary"] == doc["summary"]
    # our kinds agree with the harness's own counts in its summary
    kinds = Counter(c.kind for c in t.tool_calls)
    counts = doc["summary"]["toolCalls"]
    assert (kinds["shell"], kinds["file_read"], kinds["file_edit"], kinds["mcp"]) == (
        counts["shell"], counts["file_read"], counts["file_edit"], counts["unknown"])
    assert len(t.tool_calls) == doc["summary"]["totalToolCalls"] == 25
    assert [c.command for c in t.tool_calls if c.kind == "shell"] == [
        s["command"] for s in doc["summary"]["shellCommands"]]
    # each call is located on the line where its event starts
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    for c in t.tool_calls:
        assert lines[c.location.line - 1].strip() == "{", c
        assert '"type": "tool_call"' in lines[c.location.line]
    # the file trims every tool_result: the calls are unanswered, so "never" cannot be shown
    assert len(t.health.unanswered_calls) == 25 and not t.health.complete
    assert C.check_tool_not_called(t, "Write").status is Status.INCONCLUSIVE
    assert C.check_file_edited(t, "src/components/Footer/Footer.tsx", succeeded=None).passed


def doc(events: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"agent": "claude-code", "events": events, "summary": {"totalTurns": 1}, **extra}


def write(tmp_path: Path, document: Any, name: str = "transcript.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return p


def call(name: str, original: str, **args: Any) -> dict[str, Any]:
    return {"type": "tool_call", "tool": {"name": name, "originalName": original, "args": args}}


def result(original: str, value: Any, success: bool = True) -> dict[str, Any]:
    return {"type": "tool_result", "tool": {"name": "unknown", "originalName": original, "result": value,
                                            "success": success}}


def test_claude_events_with_results(tmp_path: Path) -> None:
    t = aa.load(write(tmp_path, doc([
        {"type": "message", "role": "user", "content": "Fix the button"},
        {"type": "thinking", "content": "Look at Button.tsx first"},
        call("file_read", "Read", file_path="/w/Button.tsx", _extractedPath="/w/Button.tsx"),
        call("shell", "Bash", command="npm test", _extractedCommand="npm test"),
        result("toolu_1", "export function Button() {}"),
        result("toolu_2", "1 failed", success=False),
        call("unknown", "mcp__storybook-dev-mcp__test-run", stories=[]),
        {"type": "message", "role": "assistant", "content": "Done."},
    ], parseSuccess=True)))
    read, sh, mcp = t.tool_calls
    assert (read.kind, read.output, read.is_error) == ("file_read", "export function Button() {}", False)
    assert (sh.command, sh.is_error, sh.status) == ("npm test", True, "failed")
    assert (mcp.kind, mcp.server, mcp.answered) == ("mcp", None, False)
    assert t.final_response == "Done." and [m.text for m in t.messages("user")] == ["Fix the button"]
    assert "tool results are paired with calls in order (the document gives calls no id)" in t.health.notes
    assert C.check_file_read(t, "Button.tsx").passed


def test_codex_events(tmp_path: Path) -> None:
    t = aa.load(write(tmp_path, doc([
        {"type": "message", "role": "system", "content": "thread.started"},
        call("shell", "command_execution", command="/bin/bash -lc 'ls'"),
        result("command_execution", {"output": "a\nb\n", "exitCode": 0}),
        call("shell", "command_execution", command="/bin/bash -lc 'false'"),
        result("command_execution", {"output": "", "exitCode": 1}, success=False),
        {"type": "error", "content": "turn failed: rate limited"},
    ], agent="codex")))
    ls, fail = t.tool_calls
    assert t.agent == "codex" and (ls.output, ls.exit_code) == ("a\nb\n", 0)
    assert (fail.exit_code, fail.is_error) == (1, True)
    assert [e[0] for e in t.errors] == ["turn failed: rate limited"]


def test_parse_success_false_is_a_health_note(tmp_path: Path) -> None:
    t = aa.load(write(tmp_path, doc([], parseSuccess=False)))
    assert any("parseSuccess: false" in n for n in t.health.notes)


@pytest.mark.parametrize("document", [
    {"agent": "claude-code", "events": [], "summary": {}, "parseSuccess": "yes"},
    {"agent": 1, "events": [], "summary": {}},
    {"agent": "codex", "events": {}, "summary": {}},
    {"agent": "codex", "events": []},
])
def test_detection_needs_the_shape_the_harness_checks(tmp_path: Path, document: dict[str, Any]) -> None:
    with pytest.raises(TranscriptError):
        aa.load(write(tmp_path, document))


def test_a_torn_document_is_an_error_naming_the_file(tmp_path: Path) -> None:
    p = tmp_path / "torn.json"
    text = GOLDEN.read_text(encoding="utf-8")
    p.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(TranscriptError) as exc:
        aa.load(p)
    assert str(p) in str(exc.value)


_EVENT = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["message", "thinking", "error"]),
                           "role": st.sampled_from(["user", "assistant", "system", "tool"]),
                           "content": st.one_of(st.text(max_size=10), st.none())}),
    st.builds(call, st.sampled_from(["shell", "file_read", "unknown", "glob"]), st.sampled_from(["Bash", "Read", "x"])),
    st.builds(result, st.just("id"), st.one_of(st.text(max_size=5), st.none(), st.just({"output": "o", "exitCode": 2})),
              st.booleans()),
    st.dictionaries(st.sampled_from(["type", "tool"]), st.one_of(st.none(), st.integers(), st.text(max_size=3))),
)


@given(st.lists(_EVENT, max_size=12))
def test_every_event_is_a_step_or_counted(events: list[Any]) -> None:
    from agenteval_assert._builder import TranscriptBuilder
    from agenteval_assert._parsers._agent_eval import AgentEvalTranscriptParser
    from agenteval_assert._reader import ReadStats

    b = TranscriptBuilder("<memory>", "agent-eval-transcript", "agent-eval")
    AgentEvalTranscriptParser().parse(iter([(1, doc(events))]), b)
    t = b.build(ReadStats(path="<memory>", shape="json-object"))
    answered = sum(1 for c in t.tool_calls if c.answered)  # each by one tool_result event
    accounted = (len(t.steps) + answered + len(t.health.orphan_results) + sum(t.health.unknown_types.values())
                 + sum(t.health.skipped.values()))
    assert accounted == len(events)
