"""SWE-agent (``.traj``) and mini-swe-agent (``.traj.json``) trajectories.

Real files from ``tests/corpus-more`` are the fixtures; hand-made documents cover the shapes the
corpus lacks (mini-swe-agent v2 tool calls, a trajectory cut before its end, format errors).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import checks as C
from agenteval_assert._health import health_checks
from agenteval_assert.results import Status
from agenteval_assert.shell import shell_commands

from .conftest import CORPUS_MORE

SWE = CORPUS_MORE / "swe-agent"
MINI = CORPUS_MORE / "mini-swe-agent"
TEXT_TRAJ = SWE / "gpt4-test-repo-i1.traj"
FC_TRAJ = SWE / "demo-function-calling-replace-marshmallow-1867.traj"
SYMPY = MINI / "gemini3pro-1.15-sympy-16886-nonzero-rc.traj.json"


def _line(path: Path | str, n: int) -> str:
    return Path(path).read_text().splitlines()[n - 1]


# -- swe-agent ---------------------------------------------------------------------------------

def test_text_actions_are_calls_located_on_their_trajectory_step() -> None:
    t = aa.load(TEXT_TRAJ)
    assert (t.format, t.agent) == ("swe-agent", "swe-agent")
    assert [c.name for c in t.tool_calls] == ["find_file", "open", "edit", "python", "submit"]
    assert [c.kind for c in t.tool_calls] == ["search", "file_read", "file_edit", "shell", "other"]
    doc = json.loads(TEXT_TRAJ.read_text())
    for call, step in zip(t.tool_calls, doc["trajectory"], strict=True):
        # the call's line opens its step's object, and the step's action follows within it
        assert _line(TEXT_TRAJ, call.location.line).strip() == "{"
        assert json.dumps(step["action"]) in _line(TEXT_TRAJ, call.location.line + 1)
        assert call.output == step["observation"]
    # SWE-agent records no outcome per step: neither an error nor unanswered
    assert {c.status for c in t.tool_calls} == {"unrecorded"}
    assert not any(c.is_error for c in t.tool_calls) and t.health.unanswered_calls == ()
    assert t.health.complete and t.health.run_ended is True
    assert t.usage.input_tokens == 52861 and t.usage.cost_usd == 0.53839


def test_edit_names_the_file_open_when_it_ran_and_the_shell_model_reads_the_commands() -> None:
    t = aa.load(TEXT_TRAJ)
    edit = t.calls("edit")[0]
    assert edit.arguments["path"] == "/klieret__swe-agent-test-repo/tests/missing_colon.py"
    assert edit.arguments["action"].startswith("edit 4:4\n")
    # SWE-agent records no outcome: the attempts count only when asked to
    assert C.check_file_edited(t, "tests/missing_colon.py", succeeded=None).passed
    assert C.check_file_read(t, "tests/missing_colon.py", succeeded=None).passed
    assert C.check_file_edited(t, "tests/missing_colon.py").status is Status.INCONCLUSIVE
    (run,) = shell_commands(t)
    assert run.commands[0].argv == ("python", "tests/missing_colon.py") and run.exit_code is None


def test_function_calling_history_gives_ids_and_structured_arguments() -> None:
    t = aa.load(FC_TRAJ)
    assert t.model == "gpt-4o"
    create = t.tool_calls[0]
    assert (create.id, create.name, create.kind) == ("call_cyI71DYnRdoLHWwtZgIaW2wr", "create", "file_write")
    assert create.arguments["filename"] == "reproduce.py"  # from the history's tool_calls
    opened = t.calls("open")[0]
    assert opened.arguments["path"] == "src/marshmallow/fields.py"
    # the replayed demonstration reuses call ids: said, not hidden
    assert any("repeat an earlier one" in n for n in t.health.notes)
    assert t.health.skipped["history observations (read from the trajectory)"] == 11


def test_outcome_checks_are_inconclusive_and_the_rest_decide() -> None:
    t = aa.load(TEXT_TRAJ)
    assert C.check_tool_succeeded(t, "python").status is Status.INCONCLUSIVE
    assert C.check_no_tool_errors(t).status is Status.INCONCLUSIVE
    assert C.check_tool_output(t, "python", contains="8.2").passed  # the observation is recorded
    assert C.check_tool_output(t, "python", contains="nope").status is Status.FAIL
    assert C.check_tool_called(t, "submit").passed and C.check_tool_not_called(t, "rm").passed
    by_name = {r.name: r.status for r in health_checks(t)}
    assert by_name["final_response_present"] is Status.PASS  # the submission turn's text
    assert by_name["no_unhandled_tool_error"] is Status.INCONCLUSIVE
    assert by_name["every_call_answered"] is Status.PASS


def _traj(steps: list[dict[str, Any]], info: dict[str, Any] | None = None) -> str:
    doc: dict[str, Any] = {"environment": "x", "trajectory": steps, "history": []}
    if info is not None:
        doc["info"] = info
    return json.dumps(doc, indent=2)


def test_a_trajectory_saved_before_the_end_is_incomplete() -> None:
    step = {"action": "ls -la\n", "observation": "a\nb\n", "response": "list", "thought": "list", "state": "{}"}
    cut = {"action": "cat a\n", "observation": None, "response": "read", "thought": "read", "state": "{}"}
    t = aa.parse(_traj([step, cut]))
    assert t.format == "swe-agent" and t.health.run_ended is False
    assert t.health.unanswered_calls == ("step-2",) and not t.health.complete
    assert t.tool_calls[1].status == "pending"
    assert C.check_tool_not_called(t, "rm").status is Status.INCONCLUSIVE


def test_an_exit_status_other_than_submitted_is_a_run_error() -> None:
    step = {"action": "ls\n", "observation": "", "response": "r", "thought": "r", "state": {}}
    text = _traj([step], {"exit_status": "exit_cost", "model_stats": {"tokens_sent": 5}})
    t = aa.parse(text)
    ((msg, loc),) = t.errors
    assert msg == "the run ended with exit status 'exit_cost'"
    assert '"exit_status": "exit_cost"' in text.splitlines()[loc.line - 1]
    assert aa.parse(_traj([step], {"exit_status": "submitted"})).errors == ()


def _with_observation(path: Path, i: int, observation: str) -> str:
    doc = json.loads(path.read_text())
    doc["trajectory"][i]["observation"] = observation
    return json.dumps(doc, indent=2)


def test_a_command_cancelled_for_its_timeout_failed() -> None:
    """The one outcome SWE-agent records: the observation of a command it cancelled (1.x: the
    run's own ``command_cancelled_timeout_template``; 0.x: an ``EXECUTION TIMED OUT`` line)."""
    replay = json.loads(FC_TRAJ.read_text())["replay_config"]
    agent = (json.loads(replay) if isinstance(replay, str) else replay)["agent"]
    template = agent["templates"]["command_cancelled_timeout_template"]  # the run's own
    cancelled = template.format(command="python reproduce.py", timeout=agent["tools"]["execution_timeout"])
    t = aa.parse(_with_observation(FC_TRAJ, 2, cancelled), path="fc.traj")
    python = t.tool_calls[2]
    assert (python.command, python.status, python.is_error, python.exit_code) == (
        "python reproduce.py", "failed", True, None)
    # the other calls: unrecorded, but for the edit the linter rejected ("NOT been applied")
    assert {c.status for c in t.tool_calls if c is not python and "NOT been applied" not in c.output} == {
        "unrecorded"}
    assert C.check_no_tool_errors(t).status is Status.FAIL
    # the other python calls' outcomes are unrecorded: whether one succeeded stays unknown
    assert C.check_tool_succeeded(t, "python").status is Status.INCONCLUSIVE
    assert C.check_tool_failed(t, "python").passed
    assert any("1 command(s) timed out" in n for n in t.health.notes)

    old = aa.parse(_with_observation(TEXT_TRAJ, 3, "Traceback ...\nEXECUTION TIMED OUT"), path="old.traj")
    assert old.tool_calls[3].status == "failed" and old.tool_calls[3].is_error
    # the words in a command's own output are not the agent's message
    quoted = aa.parse(_with_observation(TEXT_TRAJ, 3, "log: the command was cancelled because it took"),
                      path="q.traj")
    assert quoted.tool_calls[3].status == "unrecorded"


# -- mini-swe-agent ----------------------------------------------------------------------------

def test_returncode_marks_errors_with_the_exit_code() -> None:
    t = aa.load(SYMPY)
    assert (t.format, t.model, t.session_id) == ("mini-swe-agent", "google/gemini-3-pro-preview", "sympy__sympy-16886")
    failed = [c for c in t.tool_calls if c.is_error]
    assert [c.exit_code for c in failed] == [1, 1, 1, 1]
    for c in failed:
        assert c.status == "failed" and c.output.startswith("<returncode>1</returncode>")
        assert c.result is not None and c.result.location is not None
        assert c.result.location.line > c.location.line
    last = t.tool_calls[-1]
    assert "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" in (last.command or "")
    assert last.exit_code is None and last.output.startswith("diff --git")  # the submission: no returncode
    assert t.final_response is not None and t.final_response.startswith("THOUGHT: I have fixed the issue")
    assert t.usage.cost_usd == 0.15615719999999994 and t.usage.reasoning_tokens
    assert any(type(s) is aa.Thinking for s in t.steps)  # the model's reasoning, from extra.response


def _mini(messages: list[dict[str, Any]], fmt: str = "mini-swe-agent-1") -> str:
    return json.dumps({"info": {"exit_status": "Submitted", "mini_version": "2.0.0"}, "messages": messages,
                       "trajectory_format": fmt}, indent=1)


def test_v1_format_errors_run_nothing_and_are_said() -> None:
    text = _mini([
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "task"},
        {"role": "assistant", "content": "two blocks\n```bash\nls\n```\n```bash\npwd\n```"},
        {"role": "user", "content": "Please always provide EXACTLY ONE action"},
        {"role": "assistant", "content": "ok\n```bash\nls\n```"},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\na\n</output>"},
    ])
    t = aa.parse(text)
    (call,) = t.tool_calls
    assert call.command == "ls" and call.exit_code == 0 and call.status == "completed"
    assert t.health.notes == ("1 assistant message(s) without exactly one bash block: a format error, nothing ran",)
    format_error = [m for m in t.messages("user", include_meta=True) if m.meta]
    assert [m.text for m in format_error] == ["Please always provide EXACTLY ONE action"]


def test_v1_a_command_killed_for_its_timeout_failed() -> None:
    """v1 reports a timeout in the observation made from its ``timeout_template``, with no
    ``<returncode>``: the call failed (its exit code stays unknown)."""
    doc = json.loads((MINI / "gemini3pro-1.15-django-16255.traj.json").read_text())
    template = doc["info"]["config"]["agent"]["timeout_template"]
    observation = (template.replace("{{action['action']}}", "python manage.py runserver")
                   .replace("{{output}}", "Watching for file changes"))
    assert "<returncode>" not in observation
    doc["messages"][3]["content"] = observation
    t = aa.parse(json.dumps(doc, indent=1), path="run.traj.json")
    killed = t.tool_calls[0]
    assert (killed.status, killed.is_error, killed.exit_code) == ("failed", True, None)
    assert [c.status for c in t.tool_calls[1:]] == ["completed"] * (len(t.tool_calls) - 1)
    assert C.check_no_tool_errors(t).status is Status.FAIL
    assert C.check_tool_succeeded(t, "bash", command=aa.Matches("ls -R")).status is Status.FAIL
    assert t.health.notes[0].startswith("1 command(s) timed out and were killed")
    # a run that configured its own wording is read with it
    doc["info"]["config"]["agent"]["timeout_template"] = "TIMEOUT for `{{action['action']}}` after 60 s\n{{output}}"
    doc["messages"][3]["content"] = "TIMEOUT for `ls -R django/contrib/sitemaps` after 60 s\npartial"
    assert aa.parse(json.dumps(doc), path="run.traj.json").tool_calls[0].status == "failed"


def test_v2_tool_calls_pair_by_id_and_read_extra_returncode() -> None:
    text = _mini([
        {"role": "user", "content": "task"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}},
            {"id": "call_2", "type": "function", "function": {"name": "bash", "arguments": '{"command": "false"}'}}],
         "extra": {"actions": [{"command": "ls", "tool_call_id": "call_1"},
                               {"command": "false", "tool_call_id": "call_2"}]}},
        {"role": "tool", "tool_call_id": "call_2", "content": "", "extra": {"returncode": 1}},
        {"role": "tool", "tool_call_id": "call_1", "content": "a", "extra": {"returncode": 0}},
        {"role": "exit", "content": "done", "extra": {"exit_status": "Submitted"}},
    ], fmt="mini-swe-agent-1.1")
    t = aa.parse(text)
    ls, false = t.tool_calls
    assert (ls.id, ls.exit_code, ls.output) == ("call_1", 0, "a")
    assert (false.id, false.exit_code, false.is_error) == ("call_2", 1, True)
    assert t.health.complete


# -- properties --------------------------------------------------------------------------------

_scalar = st.none() | st.booleans() | st.integers() | st.text(max_size=30)
_value = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
_step = st.fixed_dictionaries({}, optional={
    "action": st.text(max_size=40) | _value, "observation": st.text(max_size=20) | _value,
    "response": _value, "thought": _value, "state": _value | st.just('{"open_file": "a.py"}')})
_message = st.fixed_dictionaries({"role": st.sampled_from(["system", "user", "assistant", "tool", "exit", 3])},
                                 optional={"content": st.text(max_size=40) | _value, "extra": _value,
                                           "tool_call_id": _value, "tool_calls": _value})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_step, max_size=6), st.lists(_message, max_size=4), _value)
def test_any_trajectory_document_gives_a_transcript(steps: list[Any], history: list[Any], info: Any) -> None:
    text = json.dumps({"trajectory": steps, "history": history, "info": info}, indent=1)
    t = aa.parse(text, path="x.traj")
    assert t.format == "swe-agent"
    lines = text.count("\n") + 1
    assert all(1 <= s.location.line <= lines for s in t.steps)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_message, max_size=8), _value)
def test_any_mini_document_gives_a_transcript(messages: list[Any], info: Any) -> None:
    text = json.dumps({"messages": messages, "info": info, "trajectory_format": "mini-swe-agent-1"})
    t = aa.parse(text, path="x.traj.json")
    assert t.format == "mini-swe-agent"
    assert all(s.location.line == 1 for s in t.steps)  # one line: every record is on it
