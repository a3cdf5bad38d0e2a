"""Cursor CLI (``cursor-cli``): ``cursor-agent -p --output-format stream-json``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa

from ._mutate import assert_total, mutated
from .conftest import CORPUS_MORE

DIR = CORPUS_MORE / "cursor-cli"
PARALLEL = DIR / "cursor-hack-parallel-shell.jsonl"
THINKING = DIR / "cursor-hack-thinking-deltas-shell.jsonl"
SID = "0f6fa7cf-4483-4a6d-ab20-21fb703f6e97"
INIT = {"type": "system", "subtype": "init", "apiKeySource": "login", "cwd": "/p", "session_id": SID,
        "model": "Auto", "permissionMode": "default"}


def jl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def parse(*records: dict[str, Any]) -> aa.Transcript:
    t = aa.parse(jl(*records), path="c.jsonl")
    assert t.format == "cursor-cli"
    return t


def said(role: str, text: str, **env: Any) -> dict[str, Any]:
    return {"type": role, "message": {"role": role, "content": [{"type": "text", "text": text}]},
            "session_id": SID, **env}


def started(cid: str, kind: str = "shellToolCall", **args: Any) -> dict[str, Any]:
    return {"type": "tool_call", "subtype": "started", "call_id": cid, "tool_call": {kind: {"args": args}},
            "session_id": SID, "timestamp_ms": 1770823976204}


def completed(cid: str, result: Any, kind: str = "shellToolCall", **args: Any) -> dict[str, Any]:
    return {"type": "tool_call", "subtype": "completed", "call_id": cid,
            "tool_call": {kind: {"args": args, "result": result}}, "session_id": SID, "timestamp_ms": 1770823980492}


def shell_ok(stdout: str = "", exit_code: int = 0) -> dict[str, Any]:
    return {"success": {"command": "x", "exitCode": exit_code, "stdout": stdout, "stderr": "", "interleavedOutput": ""}}


RESULT = {"type": "result", "subtype": "success", "duration_ms": 10, "duration_api_ms": 10, "is_error": False,
          "result": "ignored", "session_id": SID, "request_id": "r1"}


# -- the real captures ------------------------------------------------------------------------------


def test_parallel_calls_are_paired_by_call_ids_that_contain_a_newline() -> None:
    t = aa.load(PARALLEL)
    assert (t.format, t.agent, t.model, t.session_id) == (
        "cursor-cli", "cursor-cli", "Auto", "1e273e42-21dd-4b5e-9c2a-1cbbde35ae1c")
    six, four = t.tool_calls
    assert [c.command for c in t.tool_calls] == ["sleep 6", "sleep 4"]
    assert "\n" in six.id and six.id.startswith("call_MZSw") and six.id.split("\n")[1].startswith("fc_")
    assert t.call(six.id) is six
    # both started (lines 4, 5) before either completed; sleep 4 completed first (line 6)
    assert (six.location.line, four.location.line) == (4, 5)
    assert four.result is not None and six.result is not None
    assert four.result.location is not None and six.result.location is not None
    assert (four.result.location.line, six.result.location.line) == (6, 7)
    assert all((c.kind, c.exit_code, c.status, c.is_error) == ("shell", 0, "completed", False) for c in t.tool_calls)
    assert six.started_at == "2026-02-11T15:32:56.204Z" and six.ended_at == "2026-02-11T15:33:02.401Z"
    # the result event joins every assistant segment; the answer is the last one
    assert t.final_response == "done"
    assert t.metadata["request_id"] == "31c9efbe-c94a-4021-b6cb-832a6a9542a2"
    assert t.health.complete and t.health.run_ended is True and not t.health.unknown_types
    assert t.usage == aa.Usage() and t.health.usage_mode == "none"


def test_thinking_deltas_become_one_thinking_step() -> None:
    t = aa.load(THINKING)
    kinds = [type(s).__name__ for s in t.steps]
    assert kinds == ["Message", "Thinking", "Message", "ToolCall", "Message"]
    th = t.steps[1]
    assert isinstance(th, aa.Thinking) and th.location.line == 3
    assert th.text.startswith("**Following developer instructions") and th.text.endswith("tool call!")
    assert t.final_response == "complete"


# -- quirks ----------------------------------------------------------------------------------------------


def test_failures_rejections_and_non_zero_exits() -> None:
    t = parse(
        INIT,
        said("user", "go"),
        started("c1", command="false"),
        completed("c1", shell_ok("", 1), command="false"),
        started("c2", "readToolCall", path="/nope"),
        completed("c2", {"error": {"errorMessage": "File not found"}}, "readToolCall", path="/nope"),
        started("c3", "editToolCall", path="a.py"),
        completed("c3", {"rejected": {"reason": "user said no"}}, "editToolCall", path="a.py"),
        started("c4", "mcpToolCall", providerIdentifier="github", toolName="search", args={"q": "x"}),
        said("assistant", "Stopped."),
        RESULT,
    )
    c1, c2, c3, c4 = t.tool_calls
    assert (c1.exit_code, c1.is_error, c1.status) == (1, True, "failed")
    assert (c2.kind, c2.is_error, c2.status) == ("file_read", True, "failed")
    assert "File not found" in c2.output
    assert (c3.kind, c3.status, c3.output) == ("file_edit", "declined", "user said no")
    assert (c4.kind, c4.server, c4.tool, c4.answered) == ("mcp", "github", "search", False)
    assert t.health.unanswered_calls == ("c4",)
    assert t.final_response == "Stopped."


def test_a_run_cut_before_its_result_and_an_error_result() -> None:
    cut = parse(INIT, said("user", "go"), started("c1", command="ls"))
    assert cut.health.run_ended is False and not cut.health.complete
    failed = parse(INIT, said("assistant", "partial"), RESULT | {"subtype": "error", "is_error": True,
                                                                  "result": "rate limited"})
    assert failed.errors == (("the run ended with an error (subtype error): rate limited", aa.Location("c.jsonl", 3)),)


def test_completed_without_started_and_repeats_are_counted() -> None:
    t = parse(INIT, completed("c1", shell_ok("hi"), command="echo hi"), completed("c1", shell_ok("hi")),
              started("c1", command="echo hi"), {"type": "interaction_query", "session_id": SID})
    (c,) = t.tool_calls
    assert (c.output, c.location.line) == ("hi", 2)
    assert t.health.skipped == {"repeated tool_call/completed (same call_id)": 1,
                                "repeated tool_call/started (same call_id)": 1}
    assert t.health.unknown_types == {"interaction_query": 1}


def test_claude_stream_json_is_not_cursor() -> None:
    claude_init = INIT | {"tools": ["Bash"], "mcp_servers": [], "session_id": "abc"}
    t = aa.parse(jl(claude_init, said("assistant", "hi") | {"session_id": "abc"}))
    assert t.format == "claude-stream-json"


# -- properties -------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(DIR.iterdir())).flatmap(lambda p: mutated(p.read_bytes())),
       st.sampled_from([None, "cursor-cli"]))
def test_any_damage_gives_a_transcript_or_a_located_error(data: bytes, format: str | None) -> None:
    assert_total(data, format)


_value = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=5), inner, max_size=2),
    max_leaves=6,
)
_record = st.fixed_dictionaries(
    {"type": st.sampled_from(["system", "user", "assistant", "thinking", "tool_call", "result", "zz"])},
    optional={"subtype": st.sampled_from(["init", "delta", "completed", "started", "success"]) | _value,
              "call_id": st.sampled_from(["a\nb", "c"]) | _value, "text": _value, "message": _value,
              "tool_call": st.dictionaries(st.sampled_from(["shellToolCall", "function", "x"]), _value,
                                           max_size=2) | _value,
              "timestamp_ms": _value, "session_id": _value, "model": _value, "is_error": _value, "result": _value},
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_record, min_size=1, max_size=8))
def test_parser_is_total_on_any_records(records: list[dict[str, Any]]) -> None:
    t = aa.parse(jl(*records), format="cursor-cli")
    assert t.health.records == len(records)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["shellToolCall", "readToolCall", "grepToolCall"]),
                          st.sampled_from(["ok", "error", "none"]), st.integers(0, 2)), max_size=6),
       st.lists(st.text(min_size=1, max_size=12).filter(str.strip), min_size=1, max_size=3),
       st.randoms(use_true_random=False))
def test_generated_streams_give_their_facts_back(
    calls: list[tuple[str, str, int]], segments: list[str], rnd: Any
) -> None:
    ids = [f"call_{i}\nfc_{i}" for i in range(len(calls))]
    starts = [started(cid, kind, n=i) for i, (cid, (kind, _, _)) in enumerate(zip(ids, calls, strict=True))]
    ends = []
    for cid, (kind, outcome, exit_code) in zip(ids, calls, strict=True):
        if outcome == "ok":
            ends.append(completed(cid, shell_ok("out", exit_code), kind))
        elif outcome == "error":
            ends.append(completed(cid, {"error": {"message": "boom"}}, kind))
    rnd.shuffle(ends)  # parallel calls complete in any order
    t = parse(INIT, said("user", "go"), *starts, *ends, *(said("assistant", s) for s in segments),
              RESULT | {"result": "".join(segments)})
    assert [c.id for c in t.tool_calls] == ids
    assert [c.arguments for c in t.tool_calls] == [{"n": i} for i in range(len(calls))]
    for c, (_, outcome, exit_code) in zip(t.tool_calls, calls, strict=True):
        assert c.answered == (outcome != "none")
        assert c.is_error == (outcome == "error" or (outcome == "ok" and exit_code != 0))
    assert t.final_response == segments[-1]
    assert t.health.run_ended is True


@pytest.mark.parametrize("kind", ["shellToolCall", "function"])
def test_tool_name_is_the_single_key_or_the_function_name(kind: str) -> None:
    body = {"name": "custom_tool", "arguments": '{"a": 1}'} if kind == "function" else {"args": {"a": 1}}
    t = parse(INIT, {"type": "tool_call", "subtype": "started", "call_id": "c", "tool_call": {kind: body}})
    (c,) = t.tool_calls
    assert c.name == ("custom_tool" if kind == "function" else kind) and c.arguments == {"a": 1}
