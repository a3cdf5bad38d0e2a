"""OpenCode (``opencode``): run --format json events, server message lists/exports, server events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa

from ._mutate import assert_total, mutated
from .conftest import CORPUS_MORE

RUN = CORPUS_MORE / "opencode" / "takopi-run-json-bash-echo.jsonl"
MESSAGES = CORPUS_MORE / "opencode" / "sandbox-agent-1.1.49-session-messages.json"
EVENTS = CORPUS_MORE / "opencode" / "sandbox-agent-1.1.49-server-events.json"
SES = "ses_main"


def jl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def parse(*records: dict[str, Any]) -> aa.Transcript:
    t = aa.parse(jl(*records), path="oc.jsonl")
    assert t.format == "opencode"
    return t


def part(pid: str, type: str, mid: str = "msg_a", session: str = SES, **fields: Any) -> dict[str, Any]:
    return {"id": pid, "sessionID": session, "messageID": mid, "type": type, **fields}


def tool(pid: str, call: str, name: str, status: str, session: str = SES, mid: str = "msg_a",
         **state: Any) -> dict[str, Any]:
    return part(pid, "tool", mid, session, callID=call, tool=name, state={"status": status, **state})


def run_ev(p: dict[str, Any], type: str = "tool_use") -> dict[str, Any]:
    return {"type": type, "timestamp": 1767036061199, "sessionID": p["sessionID"], "part": p}


def bus(type: str, **props: Any) -> dict[str, Any]:
    return {"type": type, "properties": props}


def updated(p: dict[str, Any]) -> dict[str, Any]:
    return bus("message.part.updated", part=p)


def info(mid: str, role: str, session: str = SES, **fields: Any) -> dict[str, Any]:
    return {"id": mid, "sessionID": session, "role": role, "time": {"created": 1}, **fields}


FINISH_STOP = part("prt_f", "step-finish", reason="stop", cost=0.002,
                   tokens={"input": 10, "output": 5, "reasoning": 1, "cache": {"read": 100, "write": 7}})


# -- the real files ---------------------------------------------------------------------------------


def test_run_json_capture() -> None:
    t = aa.load(RUN)
    assert (t.format, t.agent, t.session_id) == ("opencode", "opencode", "ses_494719016ffe85dkDMj0FPRbHK")
    (c,) = t.tool_calls
    assert (c.id, c.name, c.kind, c.command) == ("r9bQWsNLvOrJGIOz", "bash", "shell", "echo hello")
    assert (c.output, c.exit_code, c.status, c.is_error) == ("hello\n", 0, "completed", False)
    assert (c.location.line, c.result is not None and c.result.location) == (2, aa.Location(str(RUN), 2))
    assert (c.started_at, c.ended_at) == ("2025-12-29T19:21:01.123Z", "2025-12-29T19:21:01.173Z")
    assert t.final_response == "```\nhello\n```"
    u = t.usage
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (22443, 118, 21415, 0)
    assert u.cost_usd == pytest.approx(0.001)
    assert t.health.complete and t.health.run_ended is True and not t.health.unknown_types
    assert t.metadata["started_at"] == "2025-12-29T19:20:59.338Z"


def test_the_message_list_and_the_event_stream_of_one_session_give_the_same_transcript() -> None:
    a, b = aa.load(MESSAGES), aa.load(EVENTS)
    for t in (a, b):
        assert (t.format, t.model, t.session_id) == ("opencode", "claude-haiku-4-5", "ses_3ce42bdb9ffeEIUUu08AuKTJms")
        assert t.health.complete and not t.health.unknown_types
        assert t.metadata["provider"] == "anthropic"
    assert [(type(s).__name__, getattr(s, "role", None), getattr(s, "text", None)) for s in a.steps] == [
        (type(s).__name__, getattr(s, "role", None), getattr(s, "text", None)) for s in b.steps
    ]
    assert [m.role for m in a.messages()] == ["user", "assistant", "user", "assistant"]
    ca, cb = a.tool_calls[0], b.tool_calls[0]
    assert (ca.id, ca.arguments, ca.output, ca.exit_code) == (cb.id, cb.arguments, cb.output, cb.exit_code)
    assert ca.arguments == {"command": "ls -la", "description": "List files in current directory"}
    assert a.usage == b.usage and a.usage.cache_read_tokens == 40665 and a.usage.cache_write_tokens == 238
    assert a.final_response == b.final_response


def test_message_list_steps_are_located_on_their_part_lines() -> None:
    t = aa.load(MESSAGES)
    lines = MESSAGES.read_text().splitlines()
    for s in t.steps:
        assert '"id": "prt_' in lines[s.location.line - 1]


def test_event_stream_keeps_the_last_version_of_each_part() -> None:
    t = aa.load(EVENTS)
    lines = EVENTS.read_text().splitlines()
    (c,) = t.tool_calls
    # the tool part was sent 5 times (pending, running x3, completed): one call, first seen pending,
    # answered where it completed
    assert t.health.skipped["re-sent part (the last version is kept)"] == 14
    assert c.result is not None and c.result.location is not None
    assert c.location.line < c.result.location.line

    def record_at(line: int) -> str:  # the text of the array element that starts on *line*
        end = next(i for i in range(line, len(lines)) if lines[i] == "  {")
        return "\n".join(lines[line - 1 : end])

    assert '"status": "pending"' in record_at(c.location.line)
    assert '"status": "completed"' in record_at(c.result.location.line)
    text_final = t.steps[-1]
    assert isinstance(text_final, aa.Message) and text_final.text.endswith("- **snapshots/** - A directory")
    assert t.health.run_ended is True  # session.idle of the main session closes it


# -- run --format json ---------------------------------------------------------------------------


def test_run_json_error_event_is_a_run_error_not_a_tool_error() -> None:
    t = parse(
        run_ev(tool("prt_1", "c1", "read", "error", input={"filePath": "/x"}, error="File not found: /x")),
        run_ev(part("prt_t", "text", text="I could not read it."), "text"),
        {"type": "error", "timestamp": 2, "sessionID": SES,
         "error": {"name": "APIError", "data": {"message": "overloaded", "statusCode": 529}}},
    )
    (c,) = t.tool_calls
    assert (c.kind, c.is_error, c.status, c.output) == ("file_read", True, "failed", "File not found: /x")
    assert t.errors == (("APIError: overloaded", aa.Location("oc.jsonl", 3)),)
    assert t.final_response == "I could not read it."
    assert t.health.run_ended is True


def test_run_json_cut_after_a_tool_step_has_not_ended() -> None:
    t = parse(
        run_ev(tool("prt_1", "c1", "bash", "completed", input={"command": "false"}, output="",
                    metadata={"exit": 1})),
        run_ev(part("prt_f", "step-finish", reason="tool-calls"), "step_finish"),
    )
    assert t.health.run_ended is False and not t.health.complete
    (c,) = t.tool_calls
    assert (c.exit_code, c.is_error, c.status) == (1, True, "failed")


def test_permission_rejection_is_declined_and_unknown_parts_are_counted() -> None:
    t = parse(
        run_ev(tool("prt_1", "c1", "edit", "error", input={"filePath": "a"},
                    error="The user rejected permission to use this specific tool call.")),
        run_ev(part("prt_x", "hologram"), "text"),
        run_ev(part("prt_r", "reasoning", text="think first"), "reasoning"),
        run_ev(FINISH_STOP, "step_finish"),
    )
    assert t.tool_calls[0].status == "declined"
    assert t.health.unknown_types == {"part hologram": 1}
    assert [type(s).__name__ for s in t.steps] == ["ToolCall", "Thinking"]
    u = t.usage
    assert (u.input_tokens, u.output_tokens, u.reasoning_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        10, 5, 1, 100, 7)
    assert u.cost_usd == pytest.approx(0.002)


# -- server message lists and exports --------------------------------------------------------------


def test_export_document_is_located_and_synthetic_text_is_not_the_answer() -> None:
    doc = {
        "info": {"id": SES, "title": "t", "version": "1.2.0"},
        "messages": [
            {"info": info("msg_u", "user"), "parts": [part("prt_u", "text", "msg_u", text="hi")]},
            {"info": info("msg_a", "assistant", modelID="gpt-5", providerID="openai", finish="stop",
                          time={"created": 1, "completed": 2},
                          error={"name": "MessageAbortedError", "data": {"message": "aborted"}}),
             "parts": [part("prt_a", "text", text="answer"),
                       part("prt_s", "text", text="[synthetic note]", synthetic=True)]},
        ],
    }
    text = json.dumps(doc, indent=2)
    t = aa.parse(text, path="export.json")
    assert (t.format, t.model, t.session_id, t.metadata["version"]) == ("opencode", "gpt-5", SES, "1.2.0")
    lines = text.splitlines()
    for s in t.steps:
        assert '"id": "prt_' in lines[s.location.line - 1]
    assert t.final_response == "answer"
    assert t.errors[0][0] == "MessageAbortedError: aborted"
    assert t.health.run_ended is True


def test_message_list_waiting_for_the_model_has_not_ended() -> None:
    t = aa.parse(json.dumps([
        {"info": info("msg_u", "user"), "parts": [part("prt_u", "text", "msg_u", text="hi")]},
        {"info": info("msg_a", "assistant", finish="tool-calls", time={"created": 1, "completed": 2}),
         "parts": [tool("prt_t", "c1", "bash", "running", input={"command": "sleep 9"})]},
    ]))
    assert t.health.run_ended is False
    assert t.health.unanswered_calls == ("c1",)


# -- the server event stream -------------------------------------------------------------------------


def test_bus_child_session_is_a_subagent_of_its_task_call() -> None:
    child = "ses_child"
    task_running = tool("prt_task", "call_task", "task", "running",
                        input={"description": "find tests", "prompt": "...", "subagent_type": "general"},
                        metadata={"sessionId": child})
    task_done = tool("prt_task", "call_task", "task", "completed", input=task_running["state"]["input"],
                     output="found 3", metadata={"sessionId": child})
    t = parse(
        bus("session.created", info={"id": SES, "title": "main", "version": "1.1.49"}),
        bus("message.updated", info=info("msg_a", "assistant", modelID="claude-sonnet-4")),
        updated(task_running),
        bus("session.created", info={"id": child, "parentID": SES}),
        bus("message.updated", info=info("msg_c", "assistant", child)),
        updated(tool("prt_g", "call_g", "grep", "pending", child, "msg_c", input={})),
        updated(tool("prt_g", "call_g", "grep", "completed", child, "msg_c", input={"pattern": "def test"},
                     output="3 matches")),
        updated(part("prt_ct", "text", "msg_c", child, text="There are 3 tests.")),
        bus("session.idle", sessionID=child),
        updated(task_done),
        updated(part("prt_t", "text", text="Done: 3 tests.")),
        bus("session.idle", sessionID=SES),
        bus("lsp.frobnicated", x=1),
    )
    (task,) = t.tool_calls
    assert (task.name, task.kind, task.output) == ("task", "subagent", "found 3")
    assert task.result is not None and task.result.location is not None
    assert (task.location.line, task.result.location.line) == (3, 10)
    (sub,) = t.subagents
    assert (sub.id, sub.parent_call_id, sub.type, sub.description) == (child, "call_task", "general", "find tests")
    (g,) = sub.tool_calls
    assert (g.arguments, g.parent_id, g.agent_id, g.output) == ({"pattern": "def test"}, "call_task", child,
                                                                "3 matches")
    assert sub.final_response == "There are 3 tests."
    assert t.final_response == "Done: 3 tests."
    assert (t.session_id, t.metadata["title"], t.model) == (SES, "main", "claude-sonnet-4")
    assert t.health.run_ended is True
    assert t.health.unknown_types == {"lsp.frobnicated": 1}


def test_usage_is_kept_per_session_the_child_sessions_are_the_subagents() -> None:
    child = "ses_child"
    task = tool("prt_task", "call_task", "task", "completed", input={"description": "d", "prompt": "p"},
                output="found 3", metadata={"sessionId": child})
    t = parse(
        bus("session.created", info={"id": SES, "title": "main"}),
        bus("message.updated", info=info("msg_a", "assistant")),
        updated(task),
        bus("session.created", info={"id": child, "parentID": SES}),
        bus("message.updated", info=info("msg_c", "assistant", child)),
        updated(part("prt_ct", "text", "msg_c", child, text="There are 3 tests.")),
        updated(part("prt_cf", "step-finish", "msg_c", child, reason="stop", cost=0.01,
                     tokens={"input": 200, "output": 40, "reasoning": 0, "cache": {"read": 1000, "write": 0}})),
        updated(part("prt_t", "text", text="Done.")),
        updated(FINISH_STOP),
        bus("session.idle", sessionID=SES),
    )
    (sub,) = t.subagents
    assert (t.usage.input_tokens, t.usage.cost_usd) == (10, 0.002)  # the main session's steps only
    assert (sub.usage.input_tokens, sub.usage.cache_read_tokens, sub.usage.cost_usd) == (200, 1000, 0.01)
    assert t.usage_total.input_tokens == 210 and t.usage_total.cost_usd == 0.012
    assert t.usage_unrecorded == ()


def test_bus_cut_while_a_tool_runs() -> None:
    t = parse(
        bus("session.created", info={"id": SES}),
        updated(tool("prt_b", "c1", "bash", "pending", input={})),
        updated(tool("prt_b", "c1", "bash", "running", input={"command": "make"})),
    )
    (c,) = t.tool_calls
    assert (c.command, c.status, c.answered) == ("make", "pending", False)
    assert t.health.run_ended is False and t.health.unanswered_calls == ("c1",)


def test_bus_session_error_and_removed_parts() -> None:
    t = parse(
        bus("session.created", info={"id": SES}),
        updated(part("prt_1", "text", text="first try")),
        bus("message.part.removed", sessionID=SES, messageID="msg_a", partID="prt_1"),
        updated(part("prt_2", "text", "msg_b", text="dropped with its message")),
        bus("message.removed", sessionID=SES, messageID="msg_b"),
        bus("session.error", sessionID=SES, error={"name": "ProviderAuthError", "data": {"message": "no key"}}),
    )
    assert t.steps == ()
    assert t.errors == (("ProviderAuthError: no key", aa.Location("oc.jsonl", 6)),)
    assert t.health.skipped["part removed by message.part.removed"] == 1
    assert t.health.skipped["part of a removed message"] == 1


def test_two_top_level_sessions_are_noted() -> None:
    t = parse(
        bus("session.created", info={"id": SES}),
        bus("session.created", info={"id": "ses_other"}),
        updated(part("prt_1", "text", session="ses_other", text="elsewhere")),
    )
    assert [s.id for s in t.subagents] == ["ses_other"]
    assert any("top-level session" in n for n in t.health.notes)


# -- properties -----------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([RUN, MESSAGES, EVENTS]).flatmap(lambda p: mutated(p.read_bytes())),
       st.sampled_from([None, "opencode"]))
def test_any_damage_gives_a_transcript_or_a_located_error(data: bytes, format: str | None) -> None:
    assert_total(data, format)


_value = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=5), inner, max_size=2),
    max_leaves=6,
)
_any_part = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool", "reasoning", "step-finish", "file", "x"]) | _value},
    optional={"id": st.sampled_from(["prt_1", "prt_2"]) | _value, "sessionID": st.sampled_from([SES, "s2"]) | _value,
              "messageID": _value, "callID": _value, "tool": _value, "state": _value, "text": _value,
              "tokens": _value, "cost": _value, "synthetic": _value, "reason": _value},
)
_any_record = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["tool_use", "text", "step_finish", "error"]),
                           "sessionID": st.just(SES)}, optional={"part": _any_part | _value, "error": _value}),
    st.fixed_dictionaries({"type": st.sampled_from(sorted(["message.part.updated", "message.updated",
                                                           "session.created", "session.idle", "session.error",
                                                           "message.removed", "message.part.removed", "a.b"])),
                           "properties": st.dictionaries(st.sampled_from(["part", "info", "sessionID", "partID",
                                                                          "messageID", "error", "status"]),
                                                         _any_part | _value, max_size=3)}),
    st.fixed_dictionaries({"info": st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant"])},
                                                         optional={"id": _value, "sessionID": _value,
                                                                   "time": _value, "finish": _value,
                                                                   "error": _value, "tokens": _value}),
                           "parts": st.lists(_any_part | _value, max_size=3)}),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_any_record, min_size=1, max_size=8))
def test_parser_is_total_on_any_records(records: list[dict[str, Any]]) -> None:
    t = aa.parse(jl(*records), format="opencode")
    assert t.health.records == len(records)
    assert len(t.health.unanswered_calls) == sum(c.result is None for c in t.all_tool_calls)


_TOOLS = ["bash", "read", "edit", "grep", "webfetch", "my_mcp_tool"]
_calls = st.lists(
    st.tuples(st.sampled_from(_TOOLS), st.sampled_from(["completed", "error", "running"]),
              st.integers(0, 3), st.text(max_size=8)),
    max_size=6,
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_calls, st.text(min_size=1, max_size=20).filter(str.strip), st.sampled_from(["run", "bus", "messages"]))
def test_generated_sessions_give_their_facts_back(
    calls: list[tuple[str, str, int, str]], answer: str, shape: str
) -> None:
    parts = []
    for i, (name, status, exit_code, out) in enumerate(calls):
        state: dict[str, Any] = {"input": {"n": i}}
        if status == "completed":
            state |= {"output": out, "metadata": {"exit": exit_code}}
        elif status == "error":
            state["error"] = out
        parts.append(tool(f"prt_{i}", f"call_{i}", name, status, **state))
    parts.append(part("prt_z", "text", text=answer))
    if shape == "run":
        text = jl(*(run_ev(p) for p in parts))
    elif shape == "bus":
        # every part also sent once earlier, still pending: the last version must win
        early = [tool(p["id"], p["callID"], p["tool"], "pending", input={}) for p in parts if p["type"] == "tool"]
        text = jl(*(updated(p) for p in early), *(updated(p) for p in parts))
    else:
        text = json.dumps([{"info": info("msg_a", "assistant"), "parts": parts}], indent=1)
    t = aa.parse(text)
    assert t.format == "opencode"
    assert [(c.id, c.name, c.arguments) for c in t.tool_calls] == [
        (f"call_{i}", name, {"n": i}) for i, (name, *_) in enumerate(calls)
    ]
    for c, (_, status, exit_code, out) in zip(t.tool_calls, calls, strict=True):
        assert c.answered == (status != "running")
        assert c.is_error == (status == "error" or (status == "completed" and exit_code != 0))
        if c.answered:
            assert c.output == out
    assert t.final_response == answer
    assert t.session_id == SES


def test_detection_needs_opencode_fields(tmp_path: Path) -> None:
    # a generic {type, properties} record with an unknown type is nobody's
    with pytest.raises(aa.UnknownFormatError):
        aa.parse(jl({"type": "thing.happened", "properties": {}}))
