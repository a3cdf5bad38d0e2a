"""Gemini CLI parsers: chat session files (legacy .json, current .jsonl) and stream-json."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa

GEMINI = "gemini-cli/agentcmd-gemini-chat-session-2025-10-27.json"


def test_legacy_session_calls_are_located_on_their_own_lines(corpus: Path) -> None:
    path = corpus / GEMINI
    t = aa.load(path)
    assert (t.format, t.agent, t.model) == ("gemini-session", "gemini-cli", "gemini-2.5-pro")
    lines = path.read_text().splitlines()
    for call in t.tool_calls:
        # the call's line holds its own id: failures point into the file, not at line 1
        assert call.id in lines[call.location.line - 1]
    statuses = {c.status for c in t.tool_calls}
    assert statuses == {"completed", "failed", "interrupted"}
    cancelled = next(c for c in t.tool_calls if c.status == "interrupted")
    assert not cancelled.is_error and "Cancelled" in cancelled.output
    shell = [c for c in t.tool_calls if c.kind == "shell"]
    assert shell and all(c.exit_code is None for c in shell)  # only in the text: never invented
    assert t.health.usage_mode == "summed per message (thoughts counted in the output)"


def test_session_usage_counts_the_thoughts_in_the_output(corpus: Path) -> None:
    # Gemini's own ``output`` leaves its thoughts out (``total`` = input + output + thoughts +
    # tool): ours is every generated token, reasoning included, as the other agents report it
    messages = json.loads((corpus / GEMINI).read_text())["messages"]
    tokens = [m["tokens"] for m in messages if isinstance(m.get("tokens"), dict)]
    u = aa.load(corpus / GEMINI).usage
    assert u.reasoning_tokens == sum(k["thoughts"] for k in tokens) == 4905
    assert u.output_tokens == sum(k["output"] + k["thoughts"] for k in tokens)
    assert u.cache_read_tokens == sum(k["cached"] for k in tokens)
    assert u.total_tokens == sum(k["total"] for k in tokens)  # Gemini's own total, to the token


def test_stream_stats_thoughts_are_what_the_total_holds_beyond_input_and_output() -> None:
    t = aa.parse(_jsonl(
        {"type": "init", "session_id": "s", "model": "gemini-2.5-pro"},
        {"type": "message", "role": "assistant", "content": "ok"},
        {"type": "result", "status": "success",
         "stats": {"total_tokens": 190, "input_tokens": 100, "output_tokens": 30, "cached": 40}},
    ))
    u = t.usage
    assert (u.input_tokens, u.cache_read_tokens, u.output_tokens, u.reasoning_tokens) == (60, 40, 90, 60)
    assert u.total_tokens == 190


def _jsonl(*records: dict[str, object]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


META = {"sessionId": "s1", "projectHash": "p", "startTime": "2026-01-01T00:00:00Z"}


def test_jsonl_session_applies_set_and_rewind() -> None:
    text = _jsonl(
        META,
        {"id": "m1", "type": "user", "content": "hi"},
        {"id": "m2", "type": "gemini", "content": "first answer", "model": "gemini-3",
         "toolCalls": [{"id": "c1", "name": "read_file", "args": {"path": "/a"}, "status": "success",
                        "result": [{"functionResponse": {"response": {"output": "A"}}}]}]},
        {"$rewindTo": "m1"},
        {"$set": {"summary": "a chat"}},
        {"id": "m3", "type": "gemini", "content": "second answer", "model": "gemini-3"},
    )
    t = aa.parse(text)
    assert t.format == "gemini-session"
    assert t.tool_calls == ()  # the rewound message and its call are gone
    assert t.final_response == "second answer"
    assert t.metadata["summary"] == "a chat"
    assert t.health.skipped["messages removed by $rewindTo"] == 1
    assert t.call("c1") is None


def test_stream_json_concatenates_deltas_and_pairs_by_tool_id() -> None:
    text = _jsonl(
        {"type": "init", "timestamp": "t", "session_id": "s", "model": "gemini-2.5-pro"},
        {"type": "message", "role": "user", "content": "list files"},
        {"type": "tool_use", "tool_name": "run_shell_command", "tool_id": "run_shell_command-1-a",
         "parameters": {"command": "ls"}},
        {"type": "tool_use", "tool_name": "read_file", "tool_id": "read_file-2-b", "parameters": {"path": "x"}},
        {"type": "tool_result", "tool_id": "read_file-2-b", "status": "error",
         "error": {"type": "x", "message": "no such file"}},
        {"type": "tool_result", "tool_id": "run_shell_command-1-a", "status": "success", "output": "a\nb"},
        {"type": "message", "role": "assistant", "content": "Two ", "delta": True},
        {"type": "message", "role": "assistant", "content": "files.", "delta": True},
        {"type": "result", "status": "success", "stats": {"input_tokens": 100, "output_tokens": 7, "cached": 40}},
    )
    t = aa.parse(text)
    assert t.format == "gemini-stream-json"
    shell, read = t.tool_calls
    assert (shell.output, shell.is_error) == ("a\nb", False)
    assert (read.output, read.is_error) == ("no such file", True)
    assert t.final_response == "Two files."
    assert (t.usage.input_tokens, t.usage.cache_read_tokens, t.usage.output_tokens) == (60, 40, 7)
    assert t.health.complete


def test_gemini_detection_does_not_claim_other_formats(corpus: Path) -> None:
    for rel in ("codex-exec-json/agentcmd-stream-output-2.jsonl", "claude-session-log/spotter-2.1.38-short.jsonl"):
        assert not aa.detect_format(corpus / rel).startswith("gemini")


_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.fixed_dictionaries(
    {"type": st.sampled_from(["user", "gemini", "info", "error", "x"])},
    optional={"id": _value, "content": _value, "toolCalls": _value, "thoughts": _value, "tokens": _value,
              "model": _value, "$rewindTo": _value, "$set": _value},
), max_size=6))
def test_session_parser_is_total(messages: list[dict[str, object]]) -> None:
    t = aa.parse(_jsonl(META, *messages), format="gemini-session")
    assert t.health.records == len(messages) + 1


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.fixed_dictionaries(
    {"type": st.sampled_from(["init", "message", "tool_use", "tool_result", "error", "result", "x"])},
    optional={"role": _value, "content": _value, "delta": _value, "tool_name": _value, "tool_id": _value,
              "parameters": _value, "status": _value, "output": _value, "error": _value, "stats": _value},
), max_size=8))
def test_stream_parser_is_total(events: list[dict[str, object]]) -> None:
    t = aa.parse(_jsonl(*events) or "\n", format="gemini-stream-json") if events else None
    assert t is None or t.format == "gemini-stream-json"
