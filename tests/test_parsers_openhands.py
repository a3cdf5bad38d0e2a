"""OpenHands event lists: calls paired to observations by ``cause``, ``finish``, exit codes."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import checks as C
from agenteval_assert._health import health_checks
from agenteval_assert.results import Status

from .conftest import CORPUS_MORE

RENAME = CORPUS_MORE / "openhands" / "runtime-trajs-wrong-initial-state.json"


def test_calls_pair_with_the_observation_caused_by_them() -> None:
    t = aa.load(RENAME)
    assert (t.format, t.agent, t.model) == ("openhands", "openhands", "claude-3-5-sonnet-20241022")
    read, run, read2, _finish = t.tool_calls
    assert (run.name, run.kind, run.command) == ("execute_bash", "shell", "mv /workspace/game_2048.py /workspace/2048.py")
    assert run.id == "toolu_01PuY3mXrE6fm3j52GscR4rj" and run.exit_code == 0 and run.status == "completed"
    assert read.kind == "file_read" and read.arguments["path"] == "/workspace"
    lines = RENAME.read_text().splitlines()
    for c in (read, run, read2):
        assert c.result is not None and c.result.location is not None
        # each event starts on its own line of the array: the call, then the observation it caused
        obs = c.result.raw
        assert lines[c.result.location.line - 1].strip() == "{"
        assert lines[c.result.location.line].strip() == f'"id": {obs["id"]},'
        assert obs["tool_call_metadata"]["tool_call_id"] == c.id
        assert lines[c.location.line].strip() == f'"id": {obs["cause"]},'
    assert C.check_file_read(t, "/workspace").passed


def test_finish_is_a_completed_call_whose_message_is_the_final_response() -> None:
    t = aa.load(RENAME)
    finish = t.tool_calls[-1]
    assert (finish.name, finish.status, finish.result) == ("finish", "completed", None)
    assert not finish.unanswered and t.health.unanswered_calls == ()
    assert t.final_response == t.steps[-1].text  # type: ignore[union-attr]
    assert t.final_response is not None and t.final_response.startswith("The file has been successfully renamed")
    assert [r.status for r in health_checks(t)] == [Status.PASS] * 5


def _event(i: int, **kw: Any) -> dict[str, Any]:
    return {"id": i, "timestamp": f"2025-01-01T00:00:{i:02d}", "source": "agent", **kw}


def _run(i: int, command: str) -> dict[str, Any]:
    return _event(i, action="run", args={"command": command, "thought": ""},
                  tool_call_metadata={"function_name": "execute_bash", "tool_call_id": f"call_{i}"})


def _ran(i: int, cause: int, code: int, content: str = "") -> dict[str, Any]:
    return _event(i, observation="run", cause=cause, content=content,
                  extras={"command": "x", "metadata": {"exit_code": code}})


def test_exit_code_minus_one_is_a_command_left_running_not_an_exit_code() -> None:
    events = [
        {"id": 0, "source": "user", "action": "message", "args": {"content": "serve it"}},
        _run(1, "python -m http.server 8000"),
        _ran(2, 1, -1, "Serving HTTP on 0.0.0.0 port 8000 ..."),
        _run(3, "false"),
        _ran(4, 3, 1),
        _event(5, observation="error", cause=3, content="dup"),  # a second answer to a call: not kept twice
        _event(6, action="finish", args={"final_thought": "Started the server."},
               tool_call_metadata={"function_name": "finish", "tool_call_id": "call_f"}),
    ]
    t = aa.parse(json.dumps(events, indent=2))
    serve, false, _finish = t.tool_calls
    assert (serve.status, serve.exit_code, serve.is_error) == ("interrupted", None, False)
    assert "Serving HTTP" in serve.output
    assert (false.status, false.exit_code, false.is_error) == ("failed", 1, True)
    assert t.final_response == "Started the server."
    assert C.check_tool_failed(t, "execute_bash").passed
    assert C.check_failures_not_reported_as_success(t).status is Status.FAIL  # interrupted + failed, unsaid


def test_error_observations_orphans_and_non_tool_events_are_accounted_for() -> None:
    events = [
        {"id": 0, "source": "user", "action": "message", "args": {"content": "hi"}, "message": "hi"},
        {"id": 1, "source": "user", "observation": "recall", "cause": 0, "content": ""},
        {"id": 2, "source": "environment", "observation": "agent_state_changed", "content": "",
         "extras": {"agent_state": "running"}},
        _event(3, action="read", args={"path": "/a"},
               tool_call_metadata={"function_name": "str_replace_editor", "tool_call_id": "t3"}),
        _event(4, observation="error", cause=3, content="No such file: /a"),
        _event(5, observation="run", cause=99, content="lost"),
        _event(6, action="system", args={"content": "prompt"}),
        _event(7, action="message", args={"content": "There is no /a."}),
    ]
    t = aa.parse(json.dumps(events))
    (read,) = t.tool_calls
    assert read.is_error and read.output == "No such file: /a"
    assert t.health.orphan_results == ("99",)
    assert t.health.skipped == {
        "agent_state_changed observations without a cause": 1,
        "recall observations of actions that are not tool calls": 1,
        "system actions without tool_call_metadata": 1,
    }
    assert t.final_response == "There is no /a."


_scalar = st.none() | st.booleans() | st.integers(-2, 5) | st.text(max_size=10)
_value = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
_events = st.fixed_dictionaries(
    {"source": st.sampled_from(["user", "agent", "environment"])},
    optional={"id": st.integers(0, 6) | _scalar, "action": st.sampled_from(["run", "read", "finish", "message", "x"]),
              "observation": st.sampled_from(["run", "error", "read"]), "cause": st.integers(0, 6) | _scalar,
              "args": _value, "extras": _value, "content": _value, "message": _value,
              "tool_call_metadata": _value | st.fixed_dictionaries({"function_name": _value, "tool_call_id": _value}),
              "llm_metrics": _value},
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_events, min_size=1, max_size=8))
def test_any_event_list_gives_a_transcript_or_a_typed_error(events: list[dict[str, Any]]) -> None:
    text = json.dumps(events, indent=1)
    try:
        t = aa.parse(text, format="openhands")
    except aa.TranscriptError as exc:
        assert exc.line is None or 1 <= exc.line <= text.count("\n") + 1
    else:
        assert t.format == "openhands"
        assert all(1 <= s.location.line <= text.count("\n") + 1 for s in t.steps)


def _without_metadata(events: list[dict[str, Any]], which: str) -> list[dict[str, Any]]:
    out = []
    for e in events:
        e = dict(e)
        if e.get("source") == "agent" and "action" in e and (which == "all" or e.get("action") == which):
            e.pop("tool_call_metadata", None)
        out.append(e)
    return out


def test_actions_of_a_non_function_calling_agent_are_calls_named_after_the_action() -> None:
    """Older (non-function-calling) agents log actions with no tool_call_metadata: each is still
    a call the agent made, named after its action and answered by the observation it caused."""
    events = json.loads(RENAME.read_text())
    t = aa.parse(json.dumps(_without_metadata(events, "all")), format="openhands")
    assert [c.name for c in t.tool_calls] == ["read", "run", "read", "finish"]
    assert all(c.result is not None for c in t.tool_calls if c.name != "finish")
    assert t.health.complete
    assert any("non-function-calling agent" in n for n in t.health.notes)
    assert C.check_tool_not_called(t, "run").status is Status.FAIL


def test_one_action_without_its_metadata_among_function_calls_is_damage() -> None:
    """In a function-calling trajectory an action that lost its tool_call_metadata lost its call's
    name (str_replace_editor becomes read): the transcript is not complete, so a negative check
    about the lost name is not a PASS."""
    events = json.loads(RENAME.read_text())
    t = aa.parse(json.dumps(_without_metadata(events, "run")), format="openhands")
    assert not t.health.complete
    assert any("without tool_call_metadata among function-calling" in p.reason for p in t.health.damaged)
    assert C.check_tool_not_called(t, "execute_bash").status is Status.INCONCLUSIVE
