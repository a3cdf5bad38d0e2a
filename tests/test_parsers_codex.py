"""The Codex parsers: ``codex-exec`` (current, intermediate, legacy) and ``codex-rollout``.

Real corpus files are the acceptance fixtures (figures from ``expected.json``, computed from the
raw records independently of this project); small realistic fixtures built from the shapes in
``transcript-formats.md`` §6–§7 and the Storybook spec §3.2 cover each quirk.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agenteval_assert import Thinking, Transcript, detect_format, load, parse
from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._parsers._codex import CodexExecParser, CodexRolloutParser
from agenteval_assert._parsers._codex._shared import _exit_code_from_text
from agenteval_assert._reader import ReadStats

from .conftest import CORPUS

EXPECTED: dict[str, dict[str, Any]] = (
    json.loads((CORPUS / "expected.json").read_text()) if (CORPUS / "expected.json").is_file() else {}
)
CODEX_FILES = sorted(k for k, v in EXPECTED.items() if v["format"] in ("codex-exec", "codex-rollout"))
OTHER_FILES = sorted(k for k, v in EXPECTED.items() if v["format"] not in ("codex-exec", "codex-rollout"))


def jsonl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def exec_t(*records: dict[str, Any]) -> Transcript:
    return parse(jsonl(*records), format="codex-exec")


def rollout_t(*records: dict[str, Any]) -> Transcript:
    return parse(jsonl(*records), format="codex-rollout")


def raw_records(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            out.append(json.loads(line))
    return out


# -- acceptance: the corpus figures ------------------------------------------------------------


def test_corpus_has_codex_files(corpus: Path) -> None:
    assert len(CODEX_FILES) >= 10
    assert {EXPECTED[f]["format"] for f in CODEX_FILES} == {"codex-exec", "codex-rollout"}


@pytest.mark.parametrize("name", CODEX_FILES)
def test_corpus_figures(corpus: Path, name: str) -> None:
    exp = EXPECTED[name]
    t = load(corpus / name)
    assert t.format == exp["format"]
    assert t.agent == "codex"
    assert len(t.tool_calls) == exp["tool_calls"]
    assert len(t.subagent_tool_calls) == exp["subagent_tool_calls"]
    if exp["tool_errors"] is not None:
        assert sum(c.is_error for c in t.tool_calls) == exp["tool_errors"]
    assert sum(c.result is None for c in t.tool_calls) == exp["unanswered_calls"]
    assert dict(t.tool_names) == exp["tools"]
    assert list(t.tool_names) == list(exp["tools"])  # order of first use
    if "final_response" in exp:
        assert t.final_response == exp["final_response"]
    else:
        assert t.final_response is not None
        assert t.final_response[:200] == exp["final_response_prefix"]
    assert t.health.parsed_cleanly
    assert not t.health.unknown_types
    assert not t.health.orphan_results


@pytest.mark.parametrize("name", CODEX_FILES)
def test_corpus_detection(corpus: Path, name: str) -> None:
    assert detect_format(corpus / name) == EXPECTED[name]["format"]


@pytest.mark.parametrize("name", OTHER_FILES)
def test_codex_parsers_do_not_claim_other_formats(corpus: Path, name: str) -> None:
    from itertools import islice

    from agenteval_assert._reader import Source

    src = Source.open(corpus / name)
    head = list(islice(src.records(), 20))
    assert CodexExecParser().sniff(head, src.stats.shape) is not None
    assert CodexRolloutParser().sniff(head, src.stats.shape) is not None


@pytest.mark.parametrize("name", CODEX_FILES)
def test_every_record_is_used_or_counted(corpus: Path, name: str) -> None:
    """Nothing dropped silently: the records the parser skipped are counted by reason."""
    t = load(corpus / name)
    raw = raw_records(corpus / name)
    assert t.health.records == len(raw)
    if EXPECTED[name]["format"] == "codex-rollout":
        dups = Counter(
            r["payload"]["type"]
            for r in raw
            if r["type"] == "event_msg" and r["payload"]["type"] in ("user_message", "agent_message", "agent_reasoning")
        )
        for kind, n in dups.items():
            reasons = [k for k in t.health.skipped if k.startswith(f"event_msg {kind} (duplicate")]
            assert reasons and t.health.skipped[reasons[0]] == n


# -- codex exec: the current shape ------------------------------------------------------------

STORYBOOK_EXEC: list[dict[str, Any]] = [
    {"type": "thread.started", "thread_id": "th-1"},
    {"type": "turn.started"},
    {"type": "item.started", "item": {"id": "item_1", "type": "mcp_tool_call", "server": "storybook", "tool": "test-run", "arguments": {"stories": [{"storyId": "a--b"}]}, "result": None, "status": "in_progress"}},
    {"type": "item.completed", "item": {"id": "item_1", "type": "mcp_tool_call", "server": "storybook", "tool": "test-run", "arguments": {"stories": [{"storyId": "a--b"}]}, "status": "completed", "error": None, "result": {"content": [{"type": "text", "text": "## Passing Stories\n\n- a--b"}]}}},
    {"type": "item.started", "item": {"id": "item_2", "type": "command_execution", "command": "/bin/bash -lc 'npx storybook tools --port 6006 test run'", "status": "in_progress"}},
    {"type": "item.completed", "item": {"id": "item_2", "type": "command_execution", "command": "/bin/bash -lc 'npx storybook tools --port 6006 test run'", "aggregated_output": "## Passing Stories\n\n- a--b", "exit_code": 0, "status": "completed"}},
    {"type": "item.completed", "item": {"type": "mcp_tool_call", "server": "node_repl", "tool": "js", "status": "completed", "error": None, "arguments": {"code": "var tab = (await browser.tabs.selected()) ?? (await browser.tabs.new());\nawait tab.goto('http://localhost:6006/?path=/review/');", "title": "Open review", "timeout_ms": 30000}}},
    {"type": "item.completed", "item": {"type": "agent_message", "text": "Done — review: http://localhost:6006/?path=/review/"}},
    {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
]


def test_storybook_exec_example() -> None:
    t = exec_t(*STORYBOOK_EXEC)
    assert [c.name for c in t.tool_calls] == ["mcp__storybook__test-run", "command_execution", "mcp__node_repl__js"]
    mcp, sh, js = t.tool_calls
    assert (mcp.server, mcp.tool, mcp.kind) == ("storybook", "test-run", "mcp")
    assert mcp.arguments == {"stories": [{"storyId": "a--b"}]}
    assert mcp.output == "## Passing Stories\n\n- a--b"
    assert mcp.result is not None and mcp.result.raw == {"content": [{"type": "text", "text": "## Passing Stories\n\n- a--b"}]}
    assert not mcp.is_error and mcp.status == "completed"
    assert mcp.location.line == 3 and mcp.result.location is not None and mcp.result.location.line == 4
    assert sh.kind == "shell" and sh.command == "/bin/bash -lc 'npx storybook tools --port 6006 test run'"
    assert sh.exit_code == 0
    # an item.completed with no id still counts, with a synthetic id naming its line
    assert (js.server, js.tool, js.id) == ("node_repl", "js", "line:7")
    assert ".goto('http://localhost:6006/?path=/review/')" in js.arguments["code"]
    assert js.answered and js.output == ""
    assert t.final_response == "Done — review: http://localhost:6006/?path=/review/"
    assert t.health.complete
    assert t.session_id == "th-1"


def test_completed_item_is_authoritative_started_keeps_order() -> None:
    t = exec_t(
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.started", "item": {"id": "item_1", "type": "command_execution", "command": "sleep 1", "aggregated_output": "", "exit_code": None, "status": "in_progress"}},
        {"type": "item.started", "item": {"id": "item_2", "type": "command_execution", "command": "ls", "status": "in_progress"}},
        {"type": "item.completed", "item": {"id": "item_2", "type": "command_execution", "command": "ls", "aggregated_output": "a\n", "exit_code": 0, "status": "completed"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "command_execution", "command": "sleep 1 # final", "aggregated_output": "done", "exit_code": 0, "status": "completed"}},
    )
    assert [c.id for c in t.tool_calls] == ["item_1", "item_2"]
    first = t.tool_calls[0]
    assert first.command == "sleep 1 # final" and first.output == "done"
    assert first.location.line == 2 and first.result is not None and first.result.location is not None
    assert first.result.location.line == 5
    assert t.tool_calls[1].output == "a\n"


def test_item_never_completed_is_unanswered_and_interrupted_at_turn_end() -> None:
    t = exec_t(
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.started"},
        {"type": "item.started", "item": {"id": "item_1", "type": "mcp_tool_call", "server": "s", "tool": "slow", "arguments": {}, "status": "in_progress"}},
        {"type": "item.started", "item": {"id": "item_2", "type": "command_execution", "command": "ls", "status": "in_progress"}},
    )
    assert [c.status for c in t.tool_calls] == ["pending", "pending"]
    assert t.health.unanswered_calls == ("item_1", "item_2")
    t2 = exec_t(
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.started", "item": {"id": "item_1", "type": "mcp_tool_call", "server": "s", "tool": "slow", "arguments": {}, "status": "in_progress"}},
        {"type": "turn.completed", "usage": {"input_tokens": 5, "output_tokens": 1}},
    )
    (c,) = t2.tool_calls
    assert c.status == "interrupted" and c.result is None and not c.is_error


@pytest.mark.parametrize(
    ("extra", "exit_code", "is_error"),
    [({}, None, False), ({"exit_code": None}, None, False), ({"exit_code": 0}, 0, False), ({"exit_code": 2}, 2, True)],
)
def test_exit_code_only_when_logged(extra: dict[str, Any], exit_code: int | None, is_error: bool) -> None:
    item = {"id": "item_0", "type": "command_execution", "command": "x", "aggregated_output": "o", "status": "completed", **extra}
    (c,) = exec_t({"type": "item.completed", "item": item}).tool_calls
    assert c.exit_code == exit_code
    assert c.is_error is is_error


def test_failed_and_declined_items() -> None:
    t = exec_t(
        {"type": "item.completed", "item": {"id": "item_0", "type": "mcp_tool_call", "server": "storybook", "tool": "review-create", "arguments": "{\"a\": 1}", "result": None, "error": {"message": "tool crashed"}, "status": "failed"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "command_execution", "command": "rm -rf /", "aggregated_output": "", "exit_code": None, "status": "declined"}},
        {"type": "item.completed", "item": {"id": "item_2", "type": "mcp_tool_call", "server": "s", "tool": "t", "arguments": {}, "result": None, "error": {"message": "boom"}, "status": "completed"}},
        {"type": "item.completed", "item": {"id": "item_3", "type": "mcp_tool_call", "server": "s", "tool": "t", "arguments": {}, "result": {"content": [{"type": "text", "text": "bad"}], "isError": True}, "status": "completed"}},
    )
    mcp, sh, err_completed, is_err = t.tool_calls
    assert mcp.arguments == {"a": 1}  # JSON-string arguments are decoded
    assert mcp.is_error and mcp.status == "failed" and mcp.output == "tool crashed"
    assert mcp.result is not None and mcp.result.raw == {"message": "tool crashed"}
    assert sh.status == "declined" and sh.is_error
    assert err_completed.is_error and err_completed.status == "failed"
    assert is_err.is_error and is_err.output == "bad"


def test_file_change_web_search_todo_plan_reasoning_error_items() -> None:
    t = exec_t(
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "error", "message": "model rerouted: a -> b"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "reasoning", "text": "**Thinking**"}},
        {"type": "item.started", "item": {"id": "item_2", "type": "todo_list", "items": [{"text": "a", "completed": False}]}},
        {"type": "item.completed", "item": {"id": "item_3", "type": "file_change", "changes": [{"path": "/x/a.txt", "kind": "add"}, {"path": "/x/b.txt", "kind": "update", "diff": "@@"}], "status": "completed"}},
        {"type": "item.started", "item": {"id": "item_4", "type": "web_search", "query": "", "action": {"type": "other"}}},
        {"type": "item.completed", "item": {"id": "item_4", "type": "web_search", "query": "storybook 9", "action": {"type": "search", "query": "storybook 9"}, "results": [{"title": "Storybook", "url": "https://storybook.js.org"}]}},
        {"type": "item.updated", "item": {"id": "item_2", "type": "todo_list", "items": [{"text": "a", "completed": True}, {"text": "b", "completed": False}]}},
        {"type": "item.completed", "item": {"id": "item_2", "type": "todo_list", "items": [{"text": "a", "completed": True}, {"text": "b", "completed": True}]}},
        {"type": "item.completed", "item": {"id": "item_5", "type": "plan", "text": "1. do it"}},
    )
    assert dict(t.tool_names) == {"todo_list": 1, "file_change": 1, "web_search": 1}
    todo, fc, ws = t.tool_calls
    assert todo.kind == "todo" and todo.arguments["items"][1] == {"text": "b", "completed": True}
    assert todo.output == "[x] a\n[x] b"
    assert fc.kind == "file_edit" and fc.output == "add /x/a.txt\nupdate /x/b.txt"
    assert ws.kind == "web_search" and ws.arguments["query"] == "storybook 9"
    assert ws.output == "Storybook https://storybook.js.org"
    assert [s.text for s in t.steps if isinstance(s, Thinking)] == ["**Thinking**"]
    assert any("model rerouted: a -> b" in n for n in t.health.notes)
    # no agent_message: the final response falls back to the last plan (as --output-last-message does)
    assert t.final_response == "1. do it"
    # parsed whole and every call answered; the fixture stops before turn.completed, so
    # the run's end is missing and the transcript is not complete
    assert t.health.parsed_cleanly and not t.health.unanswered_calls
    assert t.health.run_ended is False and not t.health.complete


def test_collab_tool_call_declares_subagents() -> None:
    t = exec_t(
        {"type": "item.started", "item": {"id": "item_1", "type": "collab_tool_call", "tool": "spawn_agent", "sender_thread_id": "main", "receiver_thread_ids": ["child-1"], "prompt": "Review the diff", "agents_states": {}, "status": "in_progress"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "collab_tool_call", "tool": "spawn_agent", "sender_thread_id": "main", "receiver_thread_ids": ["child-1"], "prompt": "Review the diff", "agents_states": {"child-1": {"status": "running", "message": None}}, "status": "completed"}},
        {"type": "item.completed", "item": {"id": "item_2", "type": "collab_tool_call", "tool": "wait", "sender_thread_id": "main", "receiver_thread_ids": ["child-1"], "agents_states": {"child-1": {"status": "completed", "message": "LGTM"}}, "status": "completed"}},
        {"type": "item.completed", "item": {"id": "item_3", "type": "agent_message", "text": "Reviewed."}},
    )
    assert [c.kind for c in t.tool_calls] == ["subagent", "subagent"]
    assert t.tool_calls[0].arguments["tool"] == "spawn_agent"
    assert t.tool_calls[1].output == "child-1: completed: LGTM"
    (sub,) = t.subagents
    assert (sub.id, sub.parent_call_id, sub.description, sub.final_response) == ("child-1", "item_1", "Review the diff", "LGTM")
    assert t.final_response == "Reviewed."  # a subagent's message is not the main agent's


def test_resumed_runs_restart_item_ids(corpus: Path) -> None:
    t = exec_t(
        {"type": "thread.started", "thread_id": "T"},
        {"type": "item.started", "item": {"id": "item_1", "type": "command_execution", "command": "echo one", "status": "in_progress"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "command_execution", "command": "echo one", "aggregated_output": "one", "exit_code": 0, "status": "completed"}},
        {"type": "turn.completed", "usage": {"input_tokens": 100, "cached_input_tokens": 40, "output_tokens": 10}},
        {"type": "thread.started", "thread_id": "T"},
        {"type": "item.started", "item": {"id": "item_1", "type": "command_execution", "command": "echo two", "status": "in_progress"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "command_execution", "command": "echo two", "aggregated_output": "two", "exit_code": 1, "status": "failed"}},
        {"type": "turn.completed", "usage": {"input_tokens": 250, "cached_input_tokens": 100, "output_tokens": 25}},
    )
    assert [(c.id, c.command, c.output, c.exit_code) for c in t.tool_calls] == [
        ("item_1", "echo one", "one", 0),
        ("item_1", "echo two", "two", 1),
    ]
    assert t.health.complete and not t.health.orphan_results
    assert t.metadata["runs"] == 2
    assert any("resumed" in n for n in t.health.notes)
    # usage is the thread's running total: the last one, not a sum
    assert t.health.usage_mode == "cumulative (thread total)"
    assert (t.usage.input_tokens, t.usage.cache_read_tokens, t.usage.output_tokens) == (150, 100, 25)


def test_a_resumed_earlier_thread_is_credited_its_own_total() -> None:
    # threads A, B, then A resumed: A's later running total replaces A's, B's stays B's
    t = exec_t(
        {"type": "thread.started", "thread_id": "A"},
        {"type": "turn.completed", "usage": {"input_tokens": 100, "cached_input_tokens": 0, "output_tokens": 10}},
        {"type": "thread.started", "thread_id": "B"},
        {"type": "turn.completed", "usage": {"input_tokens": 1000, "cached_input_tokens": 0, "output_tokens": 100}},
        {"type": "thread.started", "thread_id": "A"},
        {"type": "turn.completed", "usage": {"input_tokens": 300, "cached_input_tokens": 0, "output_tokens": 30}},
    )
    assert t.metadata["thread_ids"] == ["A", "B"]
    # A's last total (300, 30) plus B's (1000, 100): not A's first one plus A's last under B
    assert (t.usage.input_tokens, t.usage.output_tokens) == (1300, 130)


_COUNT = st.one_of(
    st.none(), st.integers(min_value=-3, max_value=2**64), st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=3),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(
    st.sampled_from(["input_tokens", "cached_input_tokens", "output_tokens", "cache_write_input_tokens",
                     "reasoning_output_tokens", "other"]),
    _COUNT, max_size=6,
))
@example({"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0, "cache_write_input_tokens": None})
@example({"input_tokens": 5, "cached_input_tokens": 1, "output_tokens": 2, "reasoning_output_tokens": None})
def test_turn_usage_is_read_as_the_usage_reader_reads_it(usage: dict[str, Any]) -> None:
    # turn.completed reads plain counts without _openai_usage: the same figures and notes
    from agenteval_assert._parsers._codex._shared import OPENAI_USAGE_KEYS, _openai_usage

    records = [{"type": "thread.started", "thread_id": "A"}, {"type": "turn.completed", "usage": usage}]
    tb = TranscriptBuilder("<memory>", "codex-exec", "codex")
    CodexExecParser().parse(iter(enumerate(records, 1)), tb)  # records as decoded: NaN and 2**64 too
    t = tb.build(ReadStats(path="<memory>"))
    expected = _openai_usage(usage)
    b = TranscriptBuilder("<memory>", "codex-exec", "codex")
    b.unusable_usage(usage, OPENAI_USAGE_KEYS, 2)
    notes = [n for n in t.health.notes if n.startswith("usage")]
    if expected is None:  # no count at all: skipped, nothing noted
        assert t.health.usage_mode == "none"
        assert not notes and not t.usage_partial
        return
    assert t.health.usage_mode == "cumulative (thread total)"
    assert b._usable_usage(expected) == t.usage
    assert notes == [n for n in b.notes if n.startswith("usage")]
    assert t.usage_partial == b.usage_partial


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(
    st.sampled_from(["input_tokens", "cached_input_tokens", "output_tokens", "cache_write_input_tokens",
                     "reasoning_output_tokens", "other"]),
    _COUNT, max_size=6,
))
def test_plain_usage_is_what_the_usage_reader_gives_with_nothing_to_note(usage: dict[str, Any]) -> None:
    # the shortcut of turn.completed and token_count: taken only where the long way agrees
    from agenteval_assert._parsers._codex._shared import (
        OPENAI_USAGE_KEYS,
        _openai_usage,
        _plain_usage,
    )
    from agenteval_assert.model import Usage

    plain = _plain_usage(usage)
    if plain is None:
        return
    assert _openai_usage(usage) == Usage(*plain)
    b = TranscriptBuilder("<memory>", "codex-rollout", "codex")
    b.unusable_usage(usage, OPENAI_USAGE_KEYS, 1)
    assert not b.notes and not b.usage_partial


def test_cumulative_usage_real_resume_file(corpus: Path) -> None:
    path = corpus / "codex-exec-json/untether-0.157.1-resume-cumulative-usage.jsonl"
    last = [r for r in raw_records(path) if r["type"] == "turn.completed"][-1]["usage"]
    t = load(path)
    assert t.usage.input_tokens == last["input_tokens"] - last["cached_input_tokens"]
    assert t.usage.cache_read_tokens == last["cached_input_tokens"]
    assert t.usage.output_tokens == last["output_tokens"]
    assert t.usage.reasoning_tokens == last["reasoning_output_tokens"]
    assert t.usage.cache_write_tokens == last["cache_write_input_tokens"]
    assert t.usage.total_tokens == last["input_tokens"] + last["output_tokens"]
    assert t.health.skipped["comment lines (#)"] == sum(
        1 for line in path.read_text().splitlines() if line.startswith("#")
    )
    assert [m.text for m in t.messages("assistant")] == ["Hi!", "Hi again!", "Hi once more!"]
    assert t.metadata["runs"] == 3


def test_stream_starting_with_error_and_turn_failed(corpus: Path) -> None:
    path = corpus / "codex-exec-json/untether-turn-failed-minimal-reasoning.jsonl"
    raw = raw_records(path)
    t = load(path)
    assert t.session_id is None and t.final_response is None
    errors = [r["message"] for r in raw if r["type"] == "error"]
    assert [m for m, _ in t.errors] == errors
    assert [loc.line for _, loc in t.errors] == [1, 3]
    assert t.metadata["failed_turns"] == 2
    assert t.health.skipped["turn.failed repeating the preceding error event"] == 2


def test_turn_failed_with_its_own_message_is_an_error() -> None:
    t = exec_t({"type": "thread.started", "thread_id": "t"}, {"type": "turn.failed", "error": {"message": "quota"}})
    assert [m for m, _ in t.errors] == ["quota"]


DUP_LINE_STARTED = (
    '{"type":"item.started","item":{"id":"item_2","type":"web_search","query":"","action":{"type":"other"},'
    '"id":"exec-aaa"}}'
)
DUP_LINE_COMPLETED = (
    '{"type":"item.completed","item":{"id":"item_2","type":"web_search","query":"codex docs",'
    '"action":{"type":"search","query":"codex docs"},"results":[],"id":"exec-bbb"}}'
)


def test_duplicate_json_keys_keep_the_first_id(tmp_path: Path) -> None:
    f = tmp_path / "dup.jsonl"
    f.write_text(
        '{"type":"thread.started","thread_id":"t"}\n'
        + DUP_LINE_STARTED + "\n" + DUP_LINE_COMPLETED + "\n"
        + '{"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"ok"}}\n'
    )
    assert json.loads(DUP_LINE_STARTED)["item"]["id"] == "exec-aaa"  # what json.loads alone gives
    t = load(f)
    (c,) = t.tool_calls
    assert c.id == "item_2" and c.answered and c.arguments["query"] == "codex docs"
    # parsed whole and every call answered; the fixture stops before turn.completed, so
    # the run's end is missing and the transcript is not complete
    assert t.health.parsed_cleanly and not t.health.unanswered_calls
    assert t.health.run_ended is False and not t.health.complete
    assert any("duplicate JSON key" in n for n in t.health.notes)


def test_duplicate_keys_on_many_lines_are_one_note(tmp_path: Path) -> None:
    f = tmp_path / "dup.jsonl"
    lines = ['{"type":"thread.started","thread_id":"t"}']
    for i in range(2, 5):
        lines.append(DUP_LINE_STARTED.replace("item_2", f"item_{i}").replace("exec-aaa", f"exec-a{i}"))
        lines.append(DUP_LINE_COMPLETED.replace("item_2", f"item_{i}").replace("exec-bbb", f"exec-b{i}"))
    f.write_text("\n".join(lines) + "\n")
    t = load(f)
    assert [c.id for c in t.tool_calls] == ["item_2", "item_3", "item_4"]
    notes = [n for n in t.health.notes if "duplicate JSON key" in n]
    assert notes == [("duplicate JSON key \"id\" in items (6 item records, the first at line 2): the first "
                      "value is used, not the last ('item_2', not 'exec-a2')")]


def test_non_item_ids_without_duplicates_are_kept(tmp_path: Path) -> None:
    f = tmp_path / "ids.jsonl"
    f.write_text(
        jsonl(
            {"type": "item.started", "item": {"id": "exec-1", "type": "command_execution", "command": "ls"}},
            {"type": "item.completed", "item": {"id": "exec-1", "type": "command_execution", "command": "ls", "aggregated_output": "", "exit_code": 0, "status": "completed"}},
        )
    )
    (c,) = load(f).tool_calls
    assert c.id == "exec-1" and c.answered


def test_intermediate_shape() -> None:
    t = exec_t(
        {"type": "session.created", "session_id": "sess-9"},
        {"type": "item.completed", "item": {"id": "itm_0", "item_type": "reasoning", "text": "thinking"}},
        {"type": "item.started", "item": {"id": "itm_1", "item_type": "command_execution", "command": "bash -lc ls", "aggregated_output": "", "exit_code": None, "status": "in_progress"}},
        {"type": "item.completed", "item": {"id": "itm_1", "item_type": "command_execution", "command": "bash -lc ls", "aggregated_output": "a.txt\n", "exit_code": 0, "status": "completed"}},
        {"type": "item.completed", "item": {"id": "itm_2", "item_type": "assistant_message", "text": "There is a.txt"}},
    )
    assert t.session_id == "sess-9"
    (c,) = t.tool_calls
    assert (c.id, c.name, c.command, c.output, c.exit_code) == ("itm_1", "command_execution", "bash -lc ls", "a.txt\n", 0)
    assert t.final_response == "There is a.txt"
    # parsed whole and every call answered; the fixture stops before turn.completed, so
    # the run's end is missing and the transcript is not complete
    assert t.health.parsed_cleanly and not t.health.unanswered_calls
    assert t.health.run_ended is False and not t.health.complete


LEGACY: list[dict[str, Any]] = [
    {"sandbox": "danger-full-access", "reasoning summaries": "auto", "approval": "Never", "provider": "openai", "reasoning effort": "medium", "workdir": "/private/var/vk-ec8b", "model": "codex-mini-latest"},
    {"prompt": "project_id: f61f\n\nTask title: describe this repo"},
    {"id": "1", "msg": {"type": "task_started"}},
    {"id": "1", "msg": {"type": "agent_reasoning", "text": "Listing files"}},
    {"id": "1", "msg": {"type": "exec_command_begin", "call_id": "call_I1o1", "command": ["bash", "-lc", "ls -1"], "cwd": "/Users/user/dev/vk-wip"}},
    {"id": "1", "msg": {"type": "exec_command_output_delta", "call_id": "call_I1o1", "stream": "stdout", "chunk": "QUdFTlQubWQK"}},
    {"id": "1", "msg": {"type": "mcp_tool_call_begin", "call_id": "call_M1", "invocation": {"server": "docs", "tool": "search", "arguments": {"q": "x"}}}},
    {"id": "1", "msg": {"type": "exec_command_end", "call_id": "call_I1o1", "stdout": "AGENT.md\nREADME.md\n", "stderr": "", "exit_code": 0}},
    {"id": "1", "msg": {"type": "mcp_tool_call_end", "call_id": "call_M1", "invocation": {"server": "docs", "tool": "search", "arguments": {"q": "x"}}, "duration": {"secs": 0, "nanos": 1}, "result": {"Err": "server not running"}}},
    {"id": "1", "msg": {"type": "patch_apply_begin", "call_id": "call_P1", "auto_approved": True, "changes": {"a.txt": {"add": {"content": "hi"}}}}},
    {"id": "1", "msg": {"type": "patch_apply_end", "call_id": "call_P1", "stdout": "Success. Updated the following files:\nA a.txt\n", "stderr": "", "success": True}},
    {"id": "1", "msg": {"type": "agent_message", "message": "I can see the directory structure"}},
    {"id": "1", "msg": {"type": "token_count", "input_tokens": 1000, "cached_input_tokens": 200, "output_tokens": 50}},
    {"id": "1", "msg": {"type": "token_count", "input_tokens": 500, "cached_input_tokens": 0, "output_tokens": 10}},
    {"id": "1", "msg": {"type": "task_complete", "last_agent_message": "I can see the directory structure"}},
]


def test_legacy_shape() -> None:
    t = exec_t(*LEGACY)
    assert t.model == "codex-mini-latest"
    assert t.metadata["config"]["workdir"] == "/private/var/vk-ec8b"
    assert [m.text for m in t.messages("user")] == ["project_id: f61f\n\nTask title: describe this repo"]
    assert dict(t.tool_names) == {"command_execution": 1, "mcp__docs__search": 1, "file_change": 1}
    sh, mcp, patch = t.tool_calls
    assert sh.id == "call_I1o1" and sh.command == "bash -lc 'ls -1'" and sh.exit_code == 0
    assert sh.output == "AGENT.md\nREADME.md\n" and sh.arguments["cwd"] == "/Users/user/dev/vk-wip"
    assert (mcp.server, mcp.tool, mcp.arguments) == ("docs", "search", {"q": "x"})
    assert mcp.is_error and mcp.output == "server not running"
    assert patch.kind == "file_edit" and not patch.is_error and "A a.txt" in patch.output
    assert t.final_response == "I can see the directory structure"
    assert t.health.complete and not t.health.unknown_types
    assert t.usage.input_tokens == 1300 and t.usage.cache_read_tokens == 200 and t.usage.output_tokens == 60
    assert t.health.usage_mode == "summed per response"
    assert t.health.skipped["legacy exec_command_output_delta (streamed delta)"] == 1
    assert detect_format_text(jsonl(*LEGACY)) == "codex-exec"


def test_legacy_final_response_from_task_complete_only() -> None:
    t = exec_t({"id": "1", "msg": {"type": "task_complete", "last_agent_message": "done"}})
    assert t.final_response == "done"


def test_legacy_mcp_ok_result_and_cumulative_token_count() -> None:
    t = exec_t(
        {"id": "1", "msg": {"type": "mcp_tool_call_begin", "call_id": "c", "invocation": {"server": "s", "tool": "t", "arguments": "{\"k\": 2}"}}},
        {"id": "1", "msg": {"type": "mcp_tool_call_end", "call_id": "c", "result": {"Ok": {"content": [{"type": "text", "text": "fine"}], "isError": False}}}},
        {"id": "1", "msg": {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 10, "output_tokens": 2}}}},
        {"id": "1", "msg": {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 30, "output_tokens": 5}}}},
    )
    (c,) = t.tool_calls
    assert c.arguments == {"k": 2} and c.output == "fine" and not c.is_error
    assert (t.usage.input_tokens, t.usage.output_tokens) == (30, 5)
    assert t.health.usage_mode == "cumulative (thread total)"


def test_unknown_events_and_items_are_counted() -> None:
    t = exec_t(
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "image_generation", "prompt": "cat"}},
        {"type": "thread.archived"},
        {"type": "item.started", "item": {"id": "item_1", "type": "agent_message", "text": ""}},
        {"type": "item.completed", "item": "not an object"},
        {"no_type": True},
        {"id": "1", "msg": {"type": "brand_new_event"}},
    )
    assert dict(t.health.unknown_types) == {
        "item:image_generation": 1,
        "thread.archived": 1,
        "(record without type)": 1,
        "msg:brand_new_event": 1,
    }
    # an item event whose item is not an object could have held a call: damage, not a skip
    assert [(i.line, i.reason) for i in t.health.damaged] == [(5, "item.completed without an item object")]
    assert not t.health.complete
    assert t.health.skipped["item.started of a agent_message item (the completed item carries the text)"] == 1


def detect_format_text(text: str) -> str:
    from itertools import islice

    from agenteval_assert._parsers import _detect
    from agenteval_assert._reader import Source

    src = Source.from_bytes(text)
    return _detect(list(islice(src.records(), 20)), src).name


def test_sniff_exec() -> None:
    p = CodexExecParser()
    assert p.sniff([(1, {"type": "error", "message": "boom"})], "jsonl") is None
    assert p.sniff([(1, {"type": "error", "message": "boom"}), (2, {"type": "result"})], "jsonl") is not None
    assert p.sniff([(1, {"type": "system", "subtype": "init", "model": "m", "session_id": "s"})], "jsonl") is not None
    assert p.sniff([(1, {"type": "user", "message": {"role": "user"}, "sessionId": "s"})], "jsonl") is not None
    assert p.sniff([], "empty") is not None
    # decided on up to 20 records: a hook-like first record does not hide the exec events
    head = [(i, {"type": "error", "message": "config warning", "extra": 1}) for i in range(1, 5)]
    assert p.sniff([*head, (5, {"type": "thread.started", "thread_id": "x"})], "jsonl") is None


def test_sniff_rollout() -> None:
    p = CodexRolloutParser()
    assert p.sniff([(1, {"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}})], "jsonl") is None
    assert p.sniff([(1, {"type": "session_meta", "payload": "x"})], "jsonl") is not None
    assert p.sniff([(1, {"type": "thread.started", "thread_id": "x"})], "jsonl") is not None


# -- codex rollouts ------------------------------------------------------------------------------


def _ri(payload: dict[str, Any], ts: str = "2026-01-01T00:00:00.000Z") -> dict[str, Any]:
    return {"timestamp": ts, "type": "response_item", "payload": payload}


def _ev(payload: dict[str, Any], ts: str = "2026-01-01T00:00:00.000Z") -> dict[str, Any]:
    return {"timestamp": ts, "type": "event_msg", "payload": payload}


META = {"timestamp": "2026-01-01T00:00:00.000Z", "type": "session_meta", "payload": {"id": "sess-1", "cwd": "/w", "originator": "codex_cli_rs", "cli_version": "0.146.0", "source": "cli"}}
CONTEXT = {"timestamp": "2026-01-01T00:00:00.000Z", "type": "turn_context", "payload": {"cwd": "/w", "model": "gpt-5-codex", "effort": "high"}}


def test_rollout_040_real_file(corpus: Path) -> None:
    path = corpus / "codex-rollout/agentcmd-rollout-0.40-vscode-dashboard-queries.jsonl"
    raw = raw_records(path)
    t = load(path)
    meta = raw[0]["payload"]
    assert t.session_id == meta["id"]
    assert (t.metadata["cwd"], t.metadata["originator"], t.metadata["cli_version"]) == (meta["cwd"], meta["originator"], meta["cli_version"])
    assert t.model == next(r["payload"]["model"] for r in raw if r["type"] == "turn_context")
    # exit codes come from the 0.40 output metadata, exactly where the log has them
    outputs = {r["payload"]["call_id"]: json.loads(r["payload"]["output"]) for r in raw if r["payload"].get("type") == "function_call_output"}
    for c in t.tool_calls:
        assert c.exit_code == outputs[c.id]["metadata"]["exit_code"]
        assert c.output == outputs[c.id]["output"]
        assert c.is_error is (c.exit_code != 0)
    assert sum(c.is_error for c in t.tool_calls) == sum(o["metadata"]["exit_code"] != 0 for o in outputs.values())
    first_call = next(r["payload"] for r in raw if r["payload"].get("type") == "function_call")
    assert t.tool_calls[0].arguments == json.loads(first_call["arguments"])
    assert t.tool_calls[0].command == " ".join(json.loads(first_call["arguments"])["command"]) or t.tool_calls[0].command
    assert t.tool_calls[0].started_at == next(r["timestamp"] for r in raw if r["payload"].get("type") == "function_call")
    # injected context is meta; the IDE-wrapped request is the user's prompt
    users = list(t.messages("user", include_meta=True))
    assert users[0].meta and users[0].text.startswith("<environment_context>")
    assert not users[1].meta and "## My request for Codex:" in users[1].text
    assert t.health.usage_mode == "cumulative (thread total)"
    last = [r["payload"]["info"] for r in raw if r["payload"].get("type") == "token_count" and r["payload"].get("info")][-1]["total_token_usage"]
    assert t.usage.output_tokens == last["output_tokens"]
    assert t.usage.input_tokens == last["input_tokens"] - last["cached_input_tokens"]


def test_rollout_sandbox_denial_text_gives_exit_code(corpus: Path) -> None:
    path = corpus / "codex-rollout/agentcmd-rollout-0.40-0199812e.jsonl"
    t = load(path)
    denied = [c for c in t.tool_calls if c.output.startswith("failed in sandbox")]
    assert denied
    for c in denied:
        stated = int(c.output.split("exit code: ", 1)[1].split(",", 1)[0])
        assert c.exit_code == stated and c.is_error


def test_rollout_redacted_arguments_and_unanswered_call(corpus: Path) -> None:
    path = corpus / "codex-rollout/localpush-0.104-desktop-unanswered-call-sanitized.jsonl"
    raw = raw_records(path)
    t = load(path)
    (c,) = t.tool_calls
    fc = next(r["payload"] for r in raw if r["payload"].get("type") == "function_call")
    assert c.id == fc["call_id"] and c.arguments == {} and c.raw_arguments == fc["arguments"]
    assert t.health.unanswered_calls == (fc["call_id"],) and c.status == "pending"
    # developer messages are system/meta; redacted user text cannot be told apart and stays visible
    assert all(m.meta for m in t.messages("system", include_meta=True))
    assert t.model == "gpt-5.3-codex"


def test_rollout_tools_and_outputs() -> None:
    t = rollout_t(
        META,
        CONTEXT,
        _ri({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "# AGENTS.md instructions for /w\n\nbe nice"}]}),
        _ri({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<user_instructions>x</user_instructions>"}]}),
        _ri({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Fix the bug"}]}),
        _ev({"type": "user_message", "message": "Fix the bug", "images": []}),
        _ri({"type": "function_call", "name": "mcp__cloud-associates__execute_workflow", "arguments": "{\"workflow\": \"w1\"}", "call_id": "call_m"}),
        _ri({"type": "custom_tool_call", "status": "completed", "call_id": "call_p", "name": "apply_patch", "input": "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n"}),
        _ri({"type": "local_shell_call", "call_id": "call_l", "status": "completed", "action": {"type": "exec", "command": ["bash", "-lc", "ls"], "working_directory": "/w"}}),
        _ri({"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "codex rollout"}}),
        _ri({"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\": \"false\"}", "call_id": "call_u"}),
        _ri({"type": "function_call_output", "call_id": "call_m", "output": [{"type": "input_text", "text": "workflow started"}]}),
        _ri({"type": "custom_tool_call_output", "call_id": "call_p", "output": "{\"output\":\"Success. Updated the following files:\\nA a.txt\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"}),
        _ri({"type": "function_call_output", "call_id": "call_l", "output": "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nexit code: 7\n"}),
        _ri({"type": "function_call_output", "call_id": "call_u", "output": "Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 1\nOriginal token count: 0\nOutput:\n"}),
        _ri({"type": "function_call_output", "call_id": "call_nobody", "output": "orphan"}),
        _ri({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Fixed."}]}),
        _ev({"type": "agent_message", "message": "Fixed."}),
    )
    assert list(t.tool_names) == ["mcp__cloud-associates__execute_workflow", "apply_patch", "local_shell_call", "web_search_call", "exec_command"]
    mcp, patch, local, ws, unified = t.tool_calls
    assert (mcp.kind, mcp.server, mcp.tool, mcp.arguments) == ("mcp", "cloud-associates", "execute_workflow", {"workflow": "w1"})
    assert mcp.output == "workflow started" and mcp.exit_code is None
    assert patch.kind == "file_edit" and patch.arguments["input"].startswith("*** Begin Patch")
    assert patch.output.startswith("Success.") and patch.exit_code == 0
    assert local.kind == "shell" and local.command == "bash -lc ls" and local.exit_code == 0  # header only, not the output
    assert ws.kind == "web_search" and ws.arguments["query"] == "codex rollout" and ws.answered
    assert unified.command == "false" and unified.exit_code == 1 and unified.is_error
    assert t.health.orphan_results == ("call_nobody",)
    assert [m.meta for m in t.messages("user", include_meta=True)] == [True, True, False]
    assert [m.text for m in t.messages("user")] == ["Fix the bug"]
    assert t.final_response == "Fixed."
    assert t.metadata["originator"] == "codex_cli_rs" and t.model == "gpt-5-codex"


def test_rollout_end_events_enrich_results_by_call_id() -> None:
    t = rollout_t(
        META,
        _ri({"type": "function_call", "name": "shell", "arguments": "{\"command\": [\"ls\"]}", "call_id": "c1"}),
        _ri({"type": "function_call", "name": "shell", "arguments": "{\"command\": [\"cat\", \"x\"]}", "call_id": "c2"}),
        _ri({"type": "function_call", "name": "mcp__s__t", "arguments": "{}", "call_id": "c3"}),
        _ri({"type": "function_call", "name": "shell", "arguments": "{\"command\": [\"pwd\"]}", "call_id": "c4"}),
        # c2's end event arrives before its output, c1's after: pairing is by call_id, not order
        _ev({"type": "exec_command_end", "call_id": "c2", "exit_code": 1, "aggregated_output": "no such file", "status": "failed"}),
        _ri({"type": "function_call_output", "call_id": "c1", "output": "a\n"}),
        _ri({"type": "function_call_output", "call_id": "c2", "output": "cat: x: No such file"}),
        _ev({"type": "exec_command_end", "call_id": "c1", "exit_code": 0, "status": "completed"}),
        _ev({"type": "mcp_tool_call_end", "call_id": "c3", "invocation": {"server": "s", "tool": "t"}, "result": {"Ok": {"content": [{"type": "text", "text": "nope"}], "isError": True}}}),
        _ri({"type": "function_call_output", "call_id": "c3", "output": "nope"}),
        _ev({"type": "exec_command_end", "call_id": "c4", "exit_code": 0, "aggregated_output": "/w\n", "status": "completed"}),
    )
    c1, c2, c3, c4 = t.tool_calls
    assert (c1.output, c1.exit_code, c1.status) == ("a\n", 0, "completed")
    assert (c2.output, c2.exit_code, c2.status, c2.is_error) == ("cat: x: No such file", 1, "failed", True)
    assert c3.is_error and c3.status == "failed"
    # no function_call_output at all: the end event is the result
    assert (c4.output, c4.exit_code, c4.answered) == ("/w\n", 0, True)
    assert c4.result is not None and c4.result.location is not None and c4.result.location.line == 12


def test_rollout_usage_aborts_compaction_unknown_and_fallbacks() -> None:
    t = rollout_t(
        META,
        _ev({"type": "token_count", "info": None, "rate_limits": {}}),
        _ev({"type": "token_count", "info": {"total_token_usage": {"input_tokens": 100, "cached_input_tokens": 60, "output_tokens": 9, "reasoning_output_tokens": 4}}}),
        _ev({"type": "task_started", "turn_id": "1"}),
        _ri({"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\": \"sleep 99\"}", "call_id": "c1"}),
        _ev({"type": "turn_aborted", "reason": "interrupted"}),
        {"timestamp": "t", "type": "compacted", "payload": {"message": "summary"}},
        {"timestamp": "t", "type": "world_state", "payload": {}},
        {"timestamp": "t", "type": "brand_new", "payload": {}},
        _ri({"type": "tool_search_call", "id": "x"}),
        _ri({"type": "ghost_snapshot", "ghost_commit": {}}),
        _ri({"type": "reasoning", "summary": [], "content": None, "encrypted_content": "xyz"}),
        _ri({"type": "reasoning", "summary": [{"type": "summary_text", "text": "**Plan**"}]}),
        _ev({"type": "agent_reasoning", "text": "**Plan**"}),
        _ev({"type": "agent_message", "message": "only in events"}),
        _ev({"type": "task_complete", "last_agent_message": "only in events"}),
        _ev({"type": "error", "message": "stream disconnected"}),
        _ev({"type": "some_future_event"}),
    )
    (c,) = t.tool_calls
    assert c.status == "interrupted" and c.result is None
    assert (t.usage.input_tokens, t.usage.cache_read_tokens, t.usage.output_tokens, t.usage.reasoning_tokens) == (40, 60, 9, 4)
    assert t.health.skipped["token_count without usage (rate limits only)"] == 1
    assert t.health.skipped["compacted (summary of the earlier history)"] == 1
    assert t.health.skipped["reasoning with no readable text (encrypted only)"] == 1
    assert t.health.skipped["event_msg agent_reasoning (duplicate of the response_item reasoning)"] == 1
    assert dict(t.health.unknown_types) == {"brand_new": 1, "response_item:tool_search_call": 1, "event_msg:some_future_event": 1}
    assert [m for m, _ in t.errors] == ["stream disconnected"]
    assert any("turn aborted" in n for n in t.health.notes)
    assert t.final_response == "only in events"
    assert t.metadata["compactions"] == 1 and t.metadata["turns"] == 1


def test_rollout_duplicate_call_and_output_counted() -> None:
    t = rollout_t(
        META,
        _ri({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
        _ri({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
        _ri({"type": "function_call_output", "call_id": "c1", "output": "one"}),
        _ri({"type": "function_call_output", "call_id": "c1", "output": "two"}),
    )
    (c,) = t.tool_calls
    assert c.output == "one"
    assert t.health.skipped["function_call repeating a known call_id"] == 1
    assert t.health.skipped["function_call_output repeating an answered call_id"] == 1


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Exit code: 3\nWall time: 1 seconds\nOutput:\nx", 3),
        ("Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n", 0),
        ("failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 1, stdout: ", 1),
        ("Process running with session ID 7\nOutput:\n", None),
        ("Wall time: 0.1 seconds\nOutput:\nExit code: 9\n", None),  # in the output, not the header
        ("just some text mentioning exit code: 5", None),
        ("", None),
    ],
)
def test_exit_code_from_text(text: str, code: int | None) -> None:
    assert _exit_code_from_text(text) == code


# -- totality: any JSON objects give a Transcript -------------------------------------------

_leaf = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=6)
#: keys the parsers read inside nested values, so that nested shapes are exercised too
_INNER = ["text", "type", "content", "output", "exit_code", "message", "isError", "Ok", "Err",
          "total_token_usage", "input_tokens", "cached_input_tokens", "path", "kind", "completed",
          "status", "metadata", "server", "tool", "arguments", "title", "url"]
_json = st.recursive(
    _leaf,
    lambda inner: st.lists(inner, max_size=2)
    | st.dictionaries(st.sampled_from(_INNER) | st.text(max_size=3), inner, max_size=3),
    max_leaves=4,
)
_ITEM_KEYS = ["id", "type", "item_type", "command", "aggregated_output", "exit_code", "status", "server", "tool",
              "arguments", "result", "error", "changes", "items", "query", "action", "results", "text", "message",
              "receiver_thread_ids", "agents_states", "prompt", "content", "isError"]
_item = st.fixed_dictionaries(
    {"id": st.sampled_from(["item_1", "item_2", "exec-1", "itm_1"]) | _json,
     "type": st.sampled_from(["command_execution", "file_change", "mcp_tool_call", "web_search", "todo_list",
                              "collab_tool_call", "agent_message", "assistant_message", "reasoning", "plan", "error",
                              "weird"]) | _json},
    optional={k: _json for k in _ITEM_KEYS if k not in ("id", "type")},
)
_exec_record = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["item.started", "item.updated", "item.completed"]), "item": _item | _json}
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["thread.started", "session.created", "turn.started", "turn.completed",
                                  "turn.failed", "error", "request_user_input", "item.plan.delta", "x"]) | _json},
        optional={k: _json for k in ["thread_id", "usage", "error", "message", "call_id", "questions"]},
    ),
    st.fixed_dictionaries(
        {"id": _json, "msg": st.fixed_dictionaries(
            {"type": st.sampled_from(["exec_command_begin", "exec_command_end", "mcp_tool_call_begin",
                                      "mcp_tool_call_end", "patch_apply_begin", "patch_apply_end",
                                      "agent_message", "task_complete", "token_count", "web_search_end",
                                      "turn_aborted", "session_configured", "x_delta"]) | _json},
            optional={k: _json for k in ["call_id", "command", "result", "invocation", "info", "input_tokens",
                                         "stdout", "stderr", "aggregated_output", "exit_code", "success",
                                         "message", "last_agent_message", "query"]},
        ) | _json}
    ),
    st.dictionaries(st.sampled_from(["prompt", "model", "sandbox", "approval", "workdir", "zzz"]), _json, max_size=3),
)
_payload = st.fixed_dictionaries(
    {"type": st.sampled_from(["message", "reasoning", "function_call", "custom_tool_call", "local_shell_call",
                              "web_search_call", "function_call_output", "custom_tool_call_output",
                              "token_count", "exec_command_end", "mcp_tool_call_end", "patch_apply_end",
                              "turn_aborted", "task_complete", "agent_message", "user_message", "error",
                              "ghost_snapshot", "x"]) | _json},
    optional={k: _json for k in ["role", "content", "summary", "name", "arguments", "call_id", "id", "output",
                                  "input", "action", "status", "info", "exit_code", "result", "namespace",
                                  "model", "cwd", "message", "last_agent_message", "success"]},
)
_rollout_record = st.fixed_dictionaries(
    {"type": st.sampled_from(["session_meta", "response_item", "event_msg", "turn_context", "compacted",
                              "world_state", "other"]) | _json,
     "payload": _payload | _json},
    optional={"timestamp": _json},
)


def _run(parser: Any, records: list[dict[str, Any]]) -> Transcript:
    b = TranscriptBuilder("<memory>", parser.name, parser.agent)
    parser.parse(iter(enumerate(records, 1)), b)
    return b.build(ReadStats(path="<memory>", records=len(records), lines=len(records)))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_exec_record, max_size=12))
def test_exec_parser_is_total(records: list[dict[str, Any]]) -> None:
    t = _run(CodexExecParser(), records)
    assert isinstance(t, Transcript)
    assert len(t.health.unanswered_calls) == sum(c.result is None for c in t.all_tool_calls)
    for c in t.all_tool_calls:
        assert isinstance(c.id, str) and isinstance(c.name, str) and isinstance(c.arguments, dict)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_rollout_record, max_size=12))
def test_rollout_parser_is_total(records: list[dict[str, Any]]) -> None:
    t = _run(CodexRolloutParser(), records)
    assert isinstance(t, Transcript)
    for c in t.all_tool_calls:
        assert isinstance(c.id, str) and isinstance(c.name, str) and isinstance(c.arguments, dict)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_exec_record | _rollout_record, max_size=8))
def test_sniff_is_total(records: list[dict[str, Any]]) -> None:
    head = list(enumerate(records, 1))[:20]
    for p in (CodexExecParser(), CodexRolloutParser()):
        why = p.sniff(head, "jsonl")
        assert why is None or isinstance(why, str)


def test_item_updated_without_started_and_request_user_input() -> None:
    t = exec_t(
        {"type": "item.updated", "item": {"id": "item_4", "type": "todo_list", "items": [{"text": "a", "completed": False}]}},
        {"type": "request_user_input", "id": "r1", "call_id": "call_q", "questions": [{"question": "Which port?"}]},
        {"type": "item.completed", "item": {"id": "item_4", "type": "todo_list", "items": [{"text": "a", "completed": True}]}},
    )
    todo, ask = t.tool_calls
    assert todo.id == "item_4" and todo.location.line == 1 and todo.output == "[x] a"
    assert (ask.id, ask.name, ask.kind) == ("call_q", "request_user_input", "ask_user")
    assert ask.arguments == {"questions": [{"question": "Which port?"}]}
    assert t.health.unanswered_calls == ("call_q",)


def test_rereading_stops_when_ids_are_just_not_item_n(tmp_path: Path) -> None:
    recs = []
    for i in range(200):
        recs.append({"type": "item.started", "item": {"id": f"exec-{i}", "type": "command_execution", "command": "ls"}})
        recs.append({"type": "item.completed", "item": {"id": f"exec-{i}", "type": "command_execution", "command": "ls", "aggregated_output": "", "exit_code": 0, "status": "completed"}})
    f = tmp_path / "many.jsonl"
    f.write_text(jsonl(*recs) + DUP_LINE_STARTED + "\n" + DUP_LINE_COMPLETED + "\n")
    t = load(f)
    assert len(t.tool_calls) == 202 and all(c.id.startswith("exec-") for c in t.tool_calls[:200])
    # re-reading gave up after a run of fruitless re-reads: the late duplicate keeps json's last value
    assert [c.id for c in t.tool_calls[200:]] == ["exec-aaa", "exec-bbb"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_exec_record, max_size=8))
def test_exec_parser_is_total_from_a_file(records: list[dict[str, Any]]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "t.jsonl"
        f.write_text(jsonl(*records))
        assert isinstance(load(f, format="codex-exec"), Transcript)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
                 lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3),
                 max_leaves=8).map(json.dumps),
    st.text(alphabet='{}[]":, \t\n\r0123456789aeflnrstuNI\\', max_size=12),
).map(lambda s: s if s[:1] in ("{", "[") else "{" + s))
def test_the_nested_json_shortcut_gives_json_loads_verdict(text: str) -> None:
    # rollout arguments and outputs: decoded without loads's blank scans, the same value or a fallback
    from agenteval_assert._parsers._codex._shared import _decoded

    got = _decoded(text)
    try:
        expected = json.loads(text)
    except (ValueError, RecursionError):
        assert got is None
        return
    assert repr(got) == repr(expected)  # repr: NaN


def test_a_null_count_in_plain_turn_usage_is_noted_not_read_as_absent() -> None:
    # plain counts with "cache_write_input_tokens": null: noted as no count (usage_partial), as
    # the usage reader notes it, not taken silently for an absent field
    records = [{"type": "thread.started", "thread_id": "A"},
               {"type": "turn.completed", "usage": {"input_tokens": 10, "cached_input_tokens": 4, "output_tokens": 3,
                                                    "cache_write_input_tokens": None}}]
    tb = TranscriptBuilder("<memory>", "codex-exec", "codex")
    CodexExecParser().parse(iter(enumerate(records, 1)), tb)
    t = tb.build(ReadStats(path="<memory>"))
    assert (t.usage.input_tokens, t.usage.output_tokens, t.usage.cache_read_tokens) == (6, 3, 4)
    assert t.usage_partial
    assert any(n.startswith("usage: cache_write_input_tokens is not a usable token count") for n in t.health.notes)


def test_a_null_count_in_a_rollout_token_count_is_noted_not_read_as_absent() -> None:
    usage = {"input_tokens": 10, "cached_input_tokens": 4, "output_tokens": 3, "reasoning_output_tokens": None}
    records = [
        {"type": "session_meta", "payload": {"id": "s1", "cli_version": "0.50.0"}},
        {"type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": usage}}},
    ]
    tb = TranscriptBuilder("<memory>", "codex-rollout", "codex")
    CodexRolloutParser().parse(iter(enumerate(records, 1)), tb)
    t = tb.build(ReadStats(path="<memory>"))
    assert (t.usage.input_tokens, t.usage.output_tokens, t.usage.cache_read_tokens) == (6, 3, 4)
    assert t.usage_partial
    assert any(n.startswith("usage: reasoning_output_tokens is not a usable token count") for n in t.health.notes)
