"""Amp (``amp``): Claude Code's stream-json events written by ``amp -x --stream-json``."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa

from ._mutate import assert_total, mutated
from .conftest import CORPUS_MORE

FILE = CORPUS_MORE / "amp" / "untether-synthetic-bash-success.jsonl"
TID = "T-7f395a45-7fae-4983-8de0-d02e61d30183"


def jl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def ev(type: str, *blocks: dict[str, Any], **env: Any) -> dict[str, Any]:
    return {"type": type, "message": {"role": type, "content": list(blocks)}, "session_id": TID, **env}


INIT = {"type": "system", "subtype": "init", "cwd": "/w", "session_id": TID, "tools": ["Bash"], "mcp_servers": []}


def test_the_author_made_stream() -> None:
    t = aa.load(FILE)
    assert (t.format, t.agent, t.session_id) == ("amp", "amp", "T-2775dc92-90ed-4f85-8b73-8f9766029e83")
    (c,) = t.tool_calls
    assert (c.id, c.name, c.kind, c.command, c.output, c.is_error) == (
        "toolu_01", "Bash", "shell", "echo hello", "hello", False)
    assert c.result is not None and c.result.location is not None
    assert (c.location.line, c.result.location.line) == (2, 3)
    assert t.final_response == "hello"
    assert (t.usage.input_tokens, t.usage.output_tokens) == (150, 30)
    assert t.health.complete and t.health.run_ended is True
    assert t.metadata["num_turns"] == 1


def test_amp_tool_names_subagents_and_error_results() -> None:
    t = aa.parse(jl(
        INIT,
        ev("assistant", {"type": "tool_use", "id": "t1", "name": "edit_file", "input": {"path": "a.py"}},
           {"type": "tool_use", "id": "t2", "name": "Task", "input": {"description": "look around"}}),
        ev("assistant", {"type": "tool_use", "id": "s1", "name": "glob", "input": {"filePattern": "*.py"}},
           parent_tool_use_id="t2"),
        ev("user", {"type": "tool_result", "tool_use_id": "s1", "content": "a.py"}, parent_tool_use_id="t2"),
        ev("user", {"type": "tool_result", "tool_use_id": "t1", "content": "no such file", "is_error": True},
           {"type": "tool_result", "tool_use_id": "t2", "content": "a.py only"}),
        {"type": "result", "subtype": "error_during_execution", "is_error": True, "error": "model overloaded",
         "duration_ms": 5, "num_turns": 2, "session_id": TID},
    ))
    assert t.format == "amp"
    edit, task = t.tool_calls
    assert (edit.kind, edit.is_error, task.kind) == ("file_edit", True, "subagent")
    (sub,) = t.subagents
    assert (sub.id, sub.parent_call_id, sub.description) == ("t2", "t2", "look around")
    assert [(c.name, c.kind, c.output) for c in sub.tool_calls] == [("glob", "search", "a.py")]
    (msg, _), = t.errors
    assert "error_during_execution" in msg and "model overloaded" in msg


def test_a_claude_stream_stays_claude() -> None:
    t = aa.parse(jl(INIT | {"session_id": "7f395a45-7fae-4983-8de0-d02e61d30183"},
                    ev("assistant", {"type": "text", "text": "hi"}, session_id="7f395a45")))
    assert (t.format, t.agent) == ("claude-stream-json", "claude-code")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(FILE.read_bytes()), st.sampled_from([None, "amp"]))
def test_any_damage_gives_a_transcript_or_a_located_error(data: bytes, format: str | None) -> None:
    assert_total(data, format)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["Bash", "edit_file", "create_file", "Read", "oracle"]), st.booleans(),
                          st.booleans()), max_size=6),
       st.text(min_size=1, max_size=20).filter(str.strip))
def test_generated_streams_give_their_facts_back(calls: list[tuple[str, bool, bool]], answer: str) -> None:
    records: list[dict[str, Any]] = [INIT]
    for i, (name, answered, error) in enumerate(calls):
        records.append(ev("assistant", {"type": "tool_use", "id": f"t{i}", "name": name, "input": {"i": i}}))
        if answered:
            records.append(ev("user", {"type": "tool_result", "tool_use_id": f"t{i}", "content": "x",
                                       "is_error": error}))
    records += [ev("assistant", {"type": "text", "text": answer}),
                {"type": "result", "subtype": "success", "is_error": False, "result": answer, "session_id": TID}]
    t = aa.parse(jl(*records))
    assert t.format == "amp"
    assert [(c.id, c.name, c.arguments) for c in t.tool_calls] == [
        (f"t{i}", name, {"i": i}) for i, (name, *_) in enumerate(calls)]
    assert [(c.answered, c.is_error) for c in t.tool_calls] == [(a, a and e) for _, a, e in calls]
    assert t.final_response == answer
