"""Claude Code parsers (``claude-stream-json``, ``claude-session``) on the real corpus and on quirks."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert._builder import TranscriptBuilder
from agenteval_assert._parsers._claude import (
    ClaudeSessionParser,
    ClaudeStreamJsonParser,
    find_subagent_files,
)
from agenteval_assert._reader import ReadStats, Source

from ._opcount import call_count, growth
from .conftest import CORPUS

CLAUDE_FORMATS = ("claude-stream-json", "claude-session")


def _expected() -> dict[str, dict[str, Any]]:
    if not CORPUS.is_dir():
        return {}
    data: dict[str, dict[str, Any]] = json.loads((CORPUS / "expected.json").read_text())
    return data


EXPECTED = _expected()
CLAUDE_FILES = sorted(k for k, v in EXPECTED.items() if v["format"] in CLAUDE_FORMATS)
OTHER_FILES = sorted(k for k, v in EXPECTED.items() if v["format"] not in CLAUDE_FORMATS)


def jl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def stream(*records: dict[str, Any]) -> aa.Transcript:
    return aa.parse(jl(*records), format="claude-stream-json", path="s.jsonl")


def session(*records: dict[str, Any]) -> aa.Transcript:
    return aa.parse(jl(*records), format="claude-session", path="s.jsonl")


def asst(*blocks: dict[str, Any], mid: str = "msg_1", **env: Any) -> dict[str, Any]:
    return {"type": "assistant", "message": {"id": mid, "role": "assistant", "content": list(blocks)}, **env}


def user(content: Any, **env: Any) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": content}, **env}


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def use(id: str, name: str, **inp: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": id, "name": name, "input": inp}


def res(id: str, content: Any, **kw: Any) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": id, "content": content, **kw}


# -- the real corpus -----------------------------------------------------------------------------


def test_the_corpus_has_claude_files(corpus: Path) -> None:
    assert {EXPECTED[f]["format"] for f in CLAUDE_FILES} == set(CLAUDE_FORMATS)
    assert len(CLAUDE_FILES) >= 10


@pytest.mark.parametrize("rel", CLAUDE_FILES)
def test_corpus_figures_match_expected(corpus: Path, rel: str) -> None:
    exp = EXPECTED[rel]
    path = corpus / rel
    assert aa.detect_format(path) == exp["format"]
    t = aa.load(path)
    got = {
        "format": t.format,
        "tool_calls": len(t.tool_calls),
        "subagent_tool_calls": len(t.subagent_tool_calls),
        "tool_errors": sum(1 for c in t.tool_calls if c.is_error),
        "unanswered_calls": sum(1 for c in t.tool_calls if c.result is None),
        "tools": dict(t.tool_names),
    }
    want = {k: exp[k] for k in got if exp.get(k) is not None}
    assert {k: got[k] for k in want} == want
    if "final_response" in exp:
        assert t.final_response == exp["final_response"]
    if "final_response_prefix" in exp:
        assert t.final_response is not None
        assert t.final_response[:200] == exp["final_response_prefix"]
    assert t.agent == "claude-code"
    assert t.session_id
    assert t.model and t.model != "<synthetic>"
    # Claude Bash has no exit code: one is never invented
    assert all(c.exit_code is None for c in t.all_tool_calls)
    assert t.health.parsed_cleanly
    assert not t.health.unknown_types


@pytest.mark.parametrize("rel", OTHER_FILES)
def test_other_corpus_files_are_rejected_with_a_reason(corpus: Path, rel: str) -> None:
    src = Source.open(corpus / rel)
    head = list(islice(src.records(), 20))
    for parser in (ClaudeSessionParser(), ClaudeStreamJsonParser()):
        why = parser.sniff(head, src.stats.shape)
        assert isinstance(why, str) and why, (parser.name, rel)
    try:
        fmt = aa.detect_format(corpus / rel)
    except aa.UnknownFormatError as exc:
        assert "claude-session: " in str(exc) and "claude-stream-json: " in str(exc)
    else:
        assert fmt not in CLAUDE_FORMATS


def test_codex_files_are_refused_for_their_codex_record_types(corpus: Path) -> None:
    for rel in OTHER_FILES:
        if EXPECTED[rel]["format"].startswith("codex"):
            src = Source.open(corpus / rel)
            head = list(islice(src.records(), 20))
            assert "Codex record types" in (ClaudeStreamJsonParser().sniff(head, src.stats.shape) or "")
            assert "Codex record types" in (ClaudeSessionParser().sniff(head, src.stats.shape) or "")


def test_stream_json_corpus_details(corpus: Path) -> None:
    t = aa.load(corpus / "claude-stream-json/terragon-1.0.x-bash-errors.json")
    assert t.model == "claude-opus-4-20250514"
    assert t.session_id == "9c3fc96f-5c01-4799-918f-0634283e1ada"
    assert t.metadata["cwd"] == "/Users/michael/Projects/test-project-2"
    assert t.metadata["result_subtype"] == "success" and t.metadata["is_error"] is False
    # 1.0.x: `cost_usd`/`total_cost`, no `total_cost_usd`
    assert t.usage.cost_usd == pytest.approx(0.50686325)
    # the result record's usage is authoritative (the split assistant lines hold placeholders)
    assert (t.usage.input_tokens, t.usage.output_tokens) == (11, 838)
    assert (t.usage.cache_read_tokens, t.usage.cache_write_tokens) == (14910, 21799)
    assert not t.errors
    failed = [c for c in t.tool_calls if c.is_error]
    assert [c.output for c in failed][:2] == ["cat: /nonexistent/file.txt: No such file or directory", "Error"]
    assert all(c.status == "failed" for c in failed)
    # results come after all the calls: pairing is by id (the 3rd call got the 3rd result line)
    third = t.tool_calls[2]
    assert third.command == "cat /nonexistent/file.txt"
    assert third.result is not None and third.result.location is not None
    assert third.result.location.line > third.location.line


def test_stream_json_without_result_record(corpus: Path) -> None:
    t = aa.load(corpus / "claude-stream-json/terragon-1.0.x-mcp-followup.json")
    assert "result_subtype" not in t.metadata
    [call] = t.tool_calls
    assert (call.server, call.tool, call.kind) == ("terry", "SuggestFollowupTask", "mcp")
    assert t.usage.cost_usd is None
    assert t.health.usage_mode == "deduplicated per message.id"


def test_session_corpus_details(corpus: Path) -> None:
    t = aa.load(corpus / "claude-session-log/agentcmd-2.0.14-bash-read-mcp.jsonl")
    assert t.metadata["version"] == "2.0.14" and t.metadata["gitBranch"] == "main"
    assert t.metadata["started_at"] <= t.metadata["ended_at"]
    mcp = t.calls("mcp__happy__change_title")
    assert [(c.server, c.tool) for c in mcp] == [("happy", "change_title")] * 2
    bash = t.calls("Bash")[0]
    assert bash.started_at and bash.result is not None and bash.ended_at
    assert isinstance(bash.result.raw, dict) and "stdout" in bash.result.raw  # toolUseResult
    assert t.health.usage_mode == "deduplicated per message.id"
    assert len(t.health.unanswered_calls) == 3


def test_session_rejected_tool_use_is_a_declined_error(corpus: Path) -> None:
    t = aa.load(corpus / "claude-session-log/spotter-2.1.38-short.jsonl")
    assert [c.status for c in t.tool_calls] == ["declined", "declined"]
    assert all(c.result is not None and c.result.raw == "User rejected tool use" for c in t.tool_calls)
    assert t.health.skipped["progress/hook_progress"] == 3
    assert t.health.skipped["file-history-snapshot"] == 1
    system = [m for m in t.steps if isinstance(m, aa.Message) and m.role == "system"]
    assert len(system) == 2 and all(m.meta for m in system)
    # the whitespace-only text block is not a response
    assert t.final_response == "Let me check the project structure and try running the server to see the error."


def test_session_slash_command_echoes_and_meta_lines(corpus: Path) -> None:
    t = aa.load(corpus / "claude-session-log/spotter-2.1.38-tool-heavy.jsonl")
    prompts = [m.text for m in t.messages("user")]
    assert prompts == [
        "start phoenix in background",
        (
            "scrolling back in xterm.js still does not work (maybe because outer web catches it)? "
            "websearch xterm.js tmux interactions"
        ),
    ]
    everything = [m.text for m in t.messages("user", include_meta=True)]
    assert any(x.startswith("<command-name>/mcp") for x in everything)
    assert any(x.startswith("[Request interrupted by user") for x in everything)
    assert t.health.skipped["queue-operation"] == 2


def test_subagent_own_file_is_its_main_agent(corpus: Path) -> None:
    t = aa.load(corpus / "claude-session-log/spotter-2.1.x-subagents-agent-a2898e3.jsonl")
    assert t.metadata["subagent_id"] == "a2898e3"
    assert not t.subagents and not t.subagent_tool_calls
    assert all(c.agent_id is None and c.parent_id is None for c in t.tool_calls)
    assert t.messages("user").__next__().text.startswith("Very thorough exploration.")


def test_compaction_file(corpus: Path) -> None:
    t = aa.load(corpus / "claude-session-log/spotter-2.1.x-subagents-agent-acompact-e1f845.jsonl")
    assert t.metadata["subagent_id"] == "acompact-e1f845"
    assert t.metadata["compaction"] is True
    assert [m.meta for m in t.messages("user", include_meta=True)] == [True, True, True, False]


# -- stream-json quirks --------------------------------------------------------------------------

INIT = {
    "type": "system",
    "subtype": "init",
    "session_id": "sess-1",
    "cwd": "/w",
    "model": "claude-sonnet-5",
    "tools": ["Task", "Bash", "Skill"],
    "mcp_servers": [
        {"name": "storybook-dev-mcp", "status": "connected"},
        {"name": "plugin:playwright:playwright", "status": "failed"},
        {"name": "a", "status": "connected"},
    ],
    "claude_code_version": "2.1.220",
}
HOOK = {
    "type": "system",
    "subtype": "hook_started",
    "hook_id": "h1",
    "hook_name": "SessionStart:startup",
    "session_id": "sess-1",
}


def test_hook_events_before_init_are_detected_and_counted() -> None:
    data = jl(HOOK, dict(HOOK, subtype="hook_response"), INIT, asst(text("hi")))
    t = aa.parse(data)
    assert t.format == "claude-stream-json"
    assert t.health.skipped == {"system/hook_started": 1, "system/hook_response": 1}
    assert (t.model, t.session_id, t.metadata["version"]) == ("claude-sonnet-5", "sess-1", "2.1.220")
    assert t.final_response == "hi"


def test_mcp_names_split_on_known_servers_hyphens_and_plugins() -> None:
    t = stream(
        INIT,
        asst(
            use("t1", "mcp__storybook-dev-mcp__test-run", stories=[]),
            use("t2", "mcp__plugin_playwright_playwright__browser_navigate", url="x"),
            use("t3", "mcp__a__b__c"),
            use("t4", "mcp__unknown-srv__do_it"),
        ),
    )
    got = [(c.server, c.tool, c.kind) for c in t.tool_calls]
    assert got == [
        ("storybook-dev-mcp", "test-run", "mcp"),
        ("plugin_playwright_playwright", "browser_navigate", "mcp"),
        ("a", "b__c", "mcp"),  # the known server wins over the last-`__` rule
        ("unknown-srv", "do_it", "mcp"),
    ]


def test_error_run_with_subtype_success() -> None:
    t = stream(
        HOOK,
        INIT,
        asst(
            text("API Error: 404 model not found"),
            mid="msg_x",
            error="model_not_found",
            is_api_error_message=True,
        )
        | {"message": {"id": "m", "model": "<synthetic>", "content": [text("API Error: 404 model not found")]}},
        {
            "is_error": True,
            "subtype": "success",
            "terminal_reason": "api_error",
            "api_error_status": 404,
            "result": "API Error: 404 model not found",
            "total_cost_usd": 0,
            "type": "result",
        },
    )
    assert t.metadata["result_subtype"] == "success"
    assert t.metadata["is_error"] is True
    assert t.metadata["terminal_reason"] == "api_error"
    # the synthetic API-error line and the result record report one failure: one error, both lines
    [err] = t.errors
    assert err[0] == err.message == (
        "the run ended with an error (subtype success, terminal_reason api_error, API status 404): "
        "API Error: 404 model not found"
    )
    assert err[1].line == 4
    assert [loc.line for loc in err.locations] == [3, 4]
    assert t.run_error is err
    assert t.final_response is None  # an API error is not the agent's answer
    assert t.model == "claude-sonnet-5"
    assert t.usage.cost_usd == 0.0


def test_flagged_api_error_without_text_is_still_an_error() -> None:
    t = stream(asst(mid="e", error="rate_limit"), asst(text("later"), mid="m2"))
    assert [e for e, _ in t.errors] == ["API error: rate_limit"]
    assert t.final_response == "later"


def test_error_subtypes_are_errors_even_without_is_error() -> None:
    t = stream(INIT, asst(text("working")), {"type": "result", "subtype": "error_max_turns", "num_turns": 3})
    assert t.errors and "error_max_turns" in t.errors[0][0]
    assert t.final_response == "working"


def test_json_object_result_only() -> None:
    doc = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "All done.",
        "session_id": "s9",
        "total_cost_usd": 0.25,
        "usage": {"input_tokens": 5, "output_tokens": 7, "cache_read_input_tokens": 3},
    }
    t = aa.parse(json.dumps(doc, indent=2), path="out.json")
    assert t.format == "claude-stream-json"
    assert (t.final_response, t.session_id) == ("All done.", "s9")
    assert t.usage == aa.Usage(5, 7, 3, None, None, 0.25)
    assert t.tool_calls == ()


def test_json_array_of_events_is_the_same_format() -> None:
    events = [INIT, asst(use("t1", "Bash", command="ls")), user([res("t1", "a\nb")])]
    t = aa.parse(json.dumps(events, indent=1))
    assert t.format == "claude-stream-json"
    assert t.tool_calls[0].output == "a\nb"


def test_result_text_is_a_fallback_and_last_assistant_text_wins() -> None:
    long = "Final answer, complete and long."
    t = stream(INIT, asst(text(long)), {"type": "result", "subtype": "success", "result": "Final answ"})
    assert t.final_response == long  # result.result may be truncated (claude-code#78686)
    t = stream(INIT, asst(use("t1", "Bash", command="x")), {"type": "result", "subtype": "success", "result": "R"})
    assert t.final_response == "R"


def test_final_message_split_over_records_is_rebuilt() -> None:
    t = stream(
        asst(text("Earlier."), mid="m0"),
        asst(text("Part one."), mid="m1"),
        asst(text("Part two."), mid="m1"),
        {"type": "result", "subtype": "success", "result": "Part two."},
    )
    assert t.final_response == "Part one.\nPart two."


def test_cumulative_cost_takes_the_last_and_turn_usage_is_summed() -> None:
    def result(cost: float, out: int) -> dict[str, Any]:
        u = {"input_tokens": 1, "output_tokens": out}
        return {"type": "result", "subtype": "success", "total_cost_usd": cost, "usage": u}

    t = stream(INIT, asst(text("a")), result(0.1, 10), asst(text("b"), mid="m2"), result(0.3, 20))
    assert t.usage.cost_usd == 0.3
    assert (t.usage.input_tokens, t.usage.output_tokens) == (2, 30)
    assert t.health.usage_mode == "from result records (per turn, summed)"
    assert t.metadata["result_records"] == 2


def test_old_total_cost_field() -> None:
    t = stream(asst(text("a")), {"type": "result", "subtype": "success", "total_cost": 0.5})
    assert t.usage.cost_usd == 0.5


def test_unknown_types_are_counted_and_stream_events_skipped() -> None:
    t = stream(
        INIT,
        {"type": "stream_event", "event": {"type": "message_start"}},
        {"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"}},
        {"type": "brand_new_thing"},
        {"type": "system", "subtype": "brand_new_subtype", "session_id": "s"},
        {"no_type": 1},
        asst(text("ok")),
    )
    assert t.health.skipped == {"rate_limit_event": 1, "stream_event": 1}
    assert t.health.unknown_types == {
        "(record without a string type)": 1,
        "brand_new_thing": 1,
        "system/brand_new_subtype": 1,
    }
    assert t.final_response == "ok"


def test_subagent_events_with_parent_tool_use_id() -> None:
    spawn = use("toolu_A", "Agent", description="Find files", prompt="look", subagent_type="Explore")
    t = stream(
        INIT,
        asst(spawn),
        {"type": "system", "subtype": "task_started", "task_id": "a1", "tool_use_id": "toolu_A",
         "description": "Find files", "subagent_type": "Explore", "session_id": "sess-1"},
        user([text("look")], parent_tool_use_id="toolu_A"),
        asst(use("toolu_S1", "Glob", pattern="*.py"), mid="sub1", parent_tool_use_id="toolu_A"),
        asst(use("toolu_S2", "Read", file_path="a.py"), mid="sub1", parent_tool_use_id="toolu_A"),
        user([res("toolu_S2", "content"), res("toolu_S1", "a.py", is_error=True)], parent_tool_use_id="toolu_A"),
        asst(text("found a.py"), mid="sub2", parent_tool_use_id="toolu_A"),
        {"type": "system", "subtype": "task_notification", "task_id": "a1", "status": "completed",
         "session_id": "sess-1"},
        user([res("toolu_A", [text("found a.py"), text("agentId: a1")])], parent_tool_use_id=None),
        asst(text("The file is a.py."), mid="m9"),
    )
    assert [c.name for c in t.tool_calls] == ["Agent"]
    assert t.tool_calls[0].kind == "subagent"
    assert t.tool_calls[0].output == "found a.py\nagentId: a1"
    sub = t.subagent_tool_calls
    assert [(c.name, c.agent_id, c.parent_id) for c in sub] == [
        ("Glob", "toolu_A", "toolu_A"),
        ("Read", "toolu_A", "toolu_A"),
    ]
    assert [c.is_error for c in sub] == [True, False]
    [agent] = t.subagents
    assert (agent.id, agent.parent_call_id, agent.type, agent.description) == (
        "toolu_A", "toolu_A", "Explore", "Find files",
    )
    assert agent.final_response == "found a.py"
    assert t.final_response == "The file is a.py."
    assert t.metadata["subagent_task_ids"] == {"toolu_A": "a1"}
    assert t.health.skipped == {"system/task_notification": 1}
    assert [m.text for m in t.messages("user")] == []  # the subagent prompt is the subagent's


def test_subagent_named_by_its_prompt_record_when_the_spawning_call_is_not_in_the_stream() -> None:
    t = stream(
        user([text("look")], parent_tool_use_id="toolu_Z", subagent_type="Plan", task_description="Plan it"),
        asst(use("s1", "Read", file_path="a"), mid="sub", parent_tool_use_id="toolu_Z"),
    )
    [agent] = t.subagents
    assert (agent.id, agent.type, agent.description) == ("toolu_Z", "Plan", "Plan it")
    assert [c.agent_id for c in t.subagent_tool_calls] == ["toolu_Z"]
    assert t.tool_calls == ()


def test_skill_call() -> None:
    t = stream(
        asst(use("s1", "Skill", skill="elixir:hex-docs-search", args="bandit")),
        user([res("s1", "Launching skill: elixir:hex-docs-search")],
             tool_use_result={"success": True, "commandName": "elixir:hex-docs-search"}),
    )
    [c] = t.tool_calls
    assert (c.kind, c.arguments["skill"]) == ("skill", "elixir:hex-docs-search")
    assert c.result is not None and c.result.raw == {"success": True, "commandName": "elixir:hex-docs-search"}


def test_bash_never_gets_an_exit_code() -> None:
    t = stream(
        asst(use("b1", "Bash", command="false"), use("b2", "Bash", command="true")),
        user([res("b1", "Error", is_error=True)]),
        user([res("b2", "")]),
    )
    assert [(c.exit_code, c.is_error, c.status) for c in t.tool_calls] == [
        (None, True, "failed"),
        (None, False, "completed"),
    ]


def test_results_out_of_order_pair_by_id() -> None:
    t = stream(
        asst(use("t1", "Read", file_path="a"), use("t2", "Read", file_path="b"), use("t3", "Read", file_path="c")),
        user([res("t3", "C")]),
        user([res("t1", "A")]),
        user([res("t2", [{"type": "text", "text": "B"}])]),
        user([res("nope", "orphan")]),
    )
    assert [c.output for c in t.tool_calls] == ["A", "B", "C"]
    assert [c.result.location.line for c in t.tool_calls if c.result and c.result.location] == [3, 4, 2]
    assert t.health.orphan_results == ("nope",)
    assert t.tool_calls[1].result is not None
    assert t.tool_calls[1].result.raw == [{"type": "text", "text": "B"}]


def test_torn_tail() -> None:
    data = jl(INIT, asst(use("t1", "Bash", command="ls")), user([res("t1", "x")]))
    data += jl(asst(use("t2", "Bash", command="pwd")))
    data += '{"type":"user","message":{"role":"user","content":[{"type":"tool_res'
    t = aa.parse(data)
    assert t.format == "claude-stream-json"
    assert t.health.truncated_tail
    assert [c.answered for c in t.tool_calls] == [True, False]
    assert t.health.unanswered_calls == ("t2",)
    assert not t.health.complete


def test_storybook_minimal_lines() -> None:
    """Spec §3.1 ``transcript.txt``: only ``type`` + ``message``, no envelope at all."""
    lines = [
        asst(text("I'll run the tests."),
             use("toolu_1", "mcp__storybook-dev-mcp__test-run", stories=[{"storyId": "example-button--primary"}]))
        | {"message": {"id": "msg_1", "role": "assistant", "usage": {"input_tokens": 10, "output_tokens": 5},
                       "content": [text("I'll run the tests."),
                                   use("toolu_1", "mcp__storybook-dev-mcp__test-run",
                                       stories=[{"storyId": "example-button--primary"}])]}},
        {"type": "user", "message": {"role": "user", "content": [
            res("toolu_1", [text("## Passing Stories\n\n- example-button--primary")], is_error=False)]}},
        {"type": "assistant", "message": {"content": [use("toolu_2", "Bash", command="npx storybook tools test run")]}},
        {"type": "user", "message": {"content": [res("toolu_2", "## Failing Stories\n\n### example-button--primary")]}},
        {"type": "assistant", "message": {"content": [use("toolu_3", "Skill", skill="stories")]}},
        {"type": "user", "message": {"content": [res("toolu_3", {"content": [text("Loaded skill")]})]}},
        {"type": "assistant", "message": {"content": [use("toolu_4", "mcp__Browser__navigate", url="http://x/")]}},
        {"type": "assistant", "message": {"content": [text("Done. Review: http://localhost:6006/?path=/review/")]}},
    ]
    data = jl(*lines)
    t = aa.parse(data)
    assert t.format == "claude-stream-json"
    assert [c.name for c in t.tool_calls] == [
        "mcp__storybook-dev-mcp__test-run", "Bash", "Skill", "mcp__Browser__navigate",
    ]
    assert (t.tool_calls[0].server, t.tool_calls[0].tool) == ("storybook-dev-mcp", "test-run")
    assert t.tool_calls[1].output.startswith("## Failing Stories")
    assert [c.answered for c in t.tool_calls] == [True, True, True, False]
    assert t.tool_calls[2].output == "Loaded skill"  # content wrapped in an object (spec §3.1)
    assert t.final_response == "Done. Review: http://localhost:6006/?path=/review/"
    assert t.usage.input_tokens == 10
    # the session parser accepts the same lines when asked explicitly
    s = aa.parse(data, format="claude-session")
    assert [c.name for c in s.tool_calls] == [c.name for c in t.tool_calls]
    assert s.final_response == t.final_response


# -- session-log quirks ---------------------------------------------------------------------------

ENV = {
    "parentUuid": None,
    "isSidechain": False,
    "userType": "external",
    "cwd": "/proj",
    "sessionId": "S1",
    "version": "2.1.39",
    "gitBranch": "main",
}


def s_asst(*blocks: dict[str, Any], mid: str, req: str = "req_1", usage: Any = None, **kw: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"id": mid, "model": "claude-opus-4-6", "role": "assistant", "content": list(blocks)}
    if usage is not None:
        msg["usage"] = usage
    return {**ENV, "type": "assistant", "requestId": req, "message": msg, **kw}


def s_user(content: Any, **kw: Any) -> dict[str, Any]:
    return {**ENV, "type": "user", "message": {"role": "user", "content": content}, **kw}


def test_split_message_usage_is_deduplicated_keeping_the_max() -> None:
    placeholder = {"input_tokens": 3, "output_tokens": 1, "cache_read_input_tokens": 100,
                   "cache_creation_input_tokens": 0, "cache_creation": {"ephemeral_5m_input_tokens": 40}}
    final = {"input_tokens": 3, "output_tokens": 90, "cache_read_input_tokens": 100,
             "cache_creation_input_tokens": 0, "cache_creation": {"ephemeral_5m_input_tokens": 40}}
    t = session(
        s_user("do it", timestamp="2026-01-01T00:00:00Z"),
        s_asst(text("Sure."), mid="m1", usage=placeholder, timestamp="2026-01-01T00:00:01Z"),
        s_asst(use("t1", "Bash", command="ls"), mid="m1", usage=final, timestamp="2026-01-01T00:00:02Z"),
        s_user([res("t1", "out")], toolUseResult={"stdout": "out", "stderr": ""}, timestamp="2026-01-01T00:00:03Z"),
        s_asst(text("Done."), mid="m2", req="req_2", usage={"input_tokens": 5, "output_tokens": 7},
               timestamp="2026-01-01T00:00:04Z"),
    )
    assert t.usage == aa.Usage(8, 97, 100, 40, None, None)
    assert t.health.usage_mode == "deduplicated per message.id"
    [c] = t.tool_calls
    assert (c.started_at, c.ended_at) == ("2026-01-01T00:00:02Z", "2026-01-01T00:00:03Z")
    assert c.result is not None and c.result.raw == {"stdout": "out", "stderr": ""}
    assert (t.metadata["started_at"], t.metadata["ended_at"]) == ("2026-01-01T00:00:00Z", "2026-01-01T00:00:04Z")
    assert (t.metadata["cwd"], t.metadata["version"], t.metadata["gitBranch"]) == ("/proj", "2.1.39", "main")
    assert t.session_id == "S1" and t.model == "claude-opus-4-6"


def test_tool_results_as_string_or_blocks_and_absent_is_error() -> None:
    t = session(
        s_asst(use("a", "Read", file_path="x"), use("b", "mcp__srv__q"), use("c", "Edit"), mid="m1"),
        s_user([res("a", "text result")]),
        s_user([res("b", [text("one"), {"type": "image", "source": {}}, text("two")])],
               toolUseResult=[text("one"), text("two")]),
        s_user([res("c", "<tool_use_error>String not found</tool_use_error>", is_error=True)],
               toolUseResult="Error: String not found"),
    )
    a, b, c = t.tool_calls
    assert (a.output, a.is_error, a.status) == ("text result", False, "completed")
    assert (b.output, b.is_error) == ("one\ntwo", False)
    assert b.result is not None and b.result.raw == [text("one"), text("two")]
    assert (c.is_error, c.status) == (True, "failed")
    assert c.result is not None and c.result.raw == "Error: String not found"


def test_sidechain_records_inside_a_main_file_are_subagent_calls() -> None:
    side: dict[str, Any] = {"isSidechain": True, "agentId": "ag1"}
    t = session(
        s_user("go"),
        s_asst(use("T", "Task", description="Explore code", prompt="p", subagent_type="Explore"), mid="m1"),
        s_user("p", **side),
        s_asst(use("s1", "Grep", pattern="x"), mid="sm1", **side),
        s_user([res("s1", "hit")], **side),
        s_asst(text("sub done"), mid="sm2", **side),
        s_user([res("T", [text("sub done")])], toolUseResult={"status": "completed", "agentId": "ag1"}),
        s_asst(text("All done."), mid="m2"),
    )
    assert [c.name for c in t.tool_calls] == ["Task"]
    [s1] = t.subagent_tool_calls
    assert (s1.agent_id, s1.parent_id, s1.output) == ("ag1", "T", "hit")
    [agent] = t.subagents
    assert (agent.id, agent.parent_call_id, agent.type, agent.description) == ("ag1", "T", "Explore", "Explore code")
    assert agent.final_response == "sub done"
    assert t.final_response == "All done."
    assert [m.text for m in t.messages("user")] == ["go"]


def _progress(parent: str, agent: str, uid: str, inner: dict[str, Any]) -> dict[str, Any]:
    return {
        **ENV,
        "type": "progress",
        "parentToolUseID": parent,
        "toolUseID": f"agent_msg_{uid}",
        "data": {"type": "agent_progress", "agentId": agent, "prompt": "p",
                 "message": {"type": inner["role"], "message": inner, "uuid": uid,
                             "timestamp": "2026-01-01T00:00:05Z"}},
    }


def test_agent_progress_mirrors_are_subagent_calls_deduplicated() -> None:
    a_msg = {"role": "assistant", "id": "sub_m1", "content": [use("s1", "Glob", pattern="*"), use("s2", "Read")]}
    u_msg = {"role": "user", "content": [res("s1", "a.py"), res("s2", "boom", is_error=True)]}
    hook = {**ENV, "type": "progress", "data": {"type": "hook_progress", "hookEvent": "PreToolUse"},
            "parentToolUseID": "T", "toolUseID": "T"}
    t = session(
        s_asst(use("T", "Task", description="Look", prompt="p", subagent_type="general-purpose"), mid="m1"),
        hook,
        _progress("T", "a77", "u1", a_msg),
        _progress("T", "a77", "u1", a_msg),  # the same mirror again
        _progress("T", "a77", "u2", u_msg),
        _progress("T", "a77", "u3", dict(a_msg, content=[use("s1", "Glob", pattern="*")])),  # same call id
        s_user([res("T", "done")], toolUseResult={"status": "completed", "agentId": "a77"}),
    )
    assert len(t.tool_calls) == 1
    assert [(c.name, c.agent_id, c.parent_id) for c in t.subagent_tool_calls] == [
        ("Glob", "a77", "T"), ("Read", "a77", "T"),
    ]
    assert [c.is_error for c in t.subagent_tool_calls] == [False, True]
    [agent] = t.subagents
    assert (agent.id, agent.parent_call_id, agent.type, agent.description) == ("a77", "T", "general-purpose", "Look")
    assert t.health.skipped["progress/hook_progress"] == 1
    assert t.health.skipped["progress/agent_progress (repeated mirror)"] == 1
    assert t.health.skipped["repeated tool_use (same id)"] == 1


def test_session_bookkeeping_records_are_counted() -> None:
    t = session(
        {"type": "summary", "summary": "Fix the login bug", "leafUuid": "u9"},
        {"type": "file-history-snapshot", "messageId": "x", "snapshot": {}, "isSnapshotUpdate": False},
        {"type": "queue-operation", "operation": "enqueue", "content": "/mcp", "sessionId": "S1"},
        {**ENV, "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
         "logicalParentUuid": "u1", "compactMetadata": {"trigger": "auto"}},
        {**ENV, "type": "system", "subtype": "stop_hook_summary", "hookCount": 1},
        {**ENV, "type": "system", "subtype": "local_command", "content": "<local-command-stdout>ok</local-command-stdout>"},
        s_user("This session is being continued from a previous conversation...", isCompactSummary=True),
        s_user("Base directory for this skill: /s", isMeta=True, sourceToolUseID="k1"),
        s_user("<command-name>/clear</command-name>"),
        s_user("real prompt"),
        {"type": "mystery-record"},
    )
    assert t.format == "claude-session"
    assert t.metadata["summaries"] == ["Fix the login bug"]
    assert t.metadata["compactions"] == 1 and t.metadata["compact_summaries"] == 1
    assert t.health.skipped == {
        "file-history-snapshot": 1,
        "queue-operation": 1,
        "summary": 1,
        "system/compact_boundary": 1,
        "system/stop_hook_summary": 1,
    }
    assert t.health.unknown_types == {"mystery-record": 1}
    assert [m.text for m in t.messages("user")] == ["real prompt"]
    assert len(list(t.messages("user", include_meta=True))) == 4
    assert any("compacted" in n for n in t.health.notes)


def test_session_api_error_message_is_an_error_not_a_response() -> None:
    t = session(
        s_asst(text("Working on it."), mid="m1"),
        {**ENV, "type": "assistant", "isApiErrorMessage": True,
         "message": {"id": "e1", "model": "<synthetic>", "role": "assistant", "content": [text("API Error: 529")]}},
        {**ENV, "type": "assistant",
         "message": {"id": "e2", "model": "<synthetic>", "role": "assistant", "content": [text("No response requested.")]}},
    )
    assert [e for e, _ in t.errors] == ["API Error: 529"]
    assert t.final_response == "Working on it."
    assert t.model == "claude-opus-4-6"


def test_session_thinking_blocks() -> None:
    t = session(s_asst({"type": "thinking", "thinking": "hmm", "signature": "x"},
                       {"type": "thinking", "thinking": "", "signature": "y"}, text("Answer"), mid="m1"))
    kinds = [type(s).__name__ for s in t.steps]
    assert kinds == ["Thinking", "Message"]
    assert t.health.skipped == {"empty thinking block (signature only)": 1}


def test_detection_of_session_head_made_only_of_summaries() -> None:
    recs = [{"type": "summary", "summary": f"s{i}", "leafUuid": f"u{i}"} for i in range(25)]
    data = jl(*recs, s_user("hi"), s_asst(text("hello"), mid="m"))
    assert aa.parse(data).format == "claude-session"


def test_find_subagent_files(tmp_path: Path) -> None:
    proj = tmp_path / "-home-me-proj"
    sub = proj / "S1" / "subagents"
    (sub / "workflows" / "run1").mkdir(parents=True)
    main = proj / "S1.jsonl"
    main.write_text(jl(s_user("hi")))
    for p in (sub / "agent-a1.jsonl", sub / "agent-acompact-9.jsonl", sub / "workflows" / "run1" / "agent-b2.jsonl"):
        p.write_text(jl(s_user("x", isSidechain=True, agentId=p.stem[6:])))
    (sub / "agent-a1.meta.json").write_text("{}")
    (proj / "S2" / "subagents").mkdir(parents=True)
    (proj / "S2" / "subagents" / "agent-zz.jsonl").write_text("{}\n")
    # older layout: agent files beside the main file, matched by their sessionId
    (proj / "agent-old.jsonl").write_text(jl(s_user("x", isSidechain=True, agentId="old")))
    (proj / "agent-other.jsonl").write_text(jl(dict(s_user("x"), sessionId="S2")))
    (proj / "agent-torn.jsonl").write_text('{"sessionId": "S1", ')
    got = [p.relative_to(proj).as_posix() for p in find_subagent_files(main)]
    assert got == [
        "S1/subagents/agent-a1.jsonl",
        "S1/subagents/agent-acompact-9.jsonl",
        "S1/subagents/workflows/run1/agent-b2.jsonl",
        "agent-old.jsonl",
    ]
    assert find_subagent_files(proj / "S3.jsonl") == []
    t = aa.load(sub / "agent-a1.jsonl")
    assert t.metadata["subagent_id"] == "a1"


# -- detection -------------------------------------------------------------------------------------


def _sniff(parser: ClaudeSessionParser | ClaudeStreamJsonParser, *records: dict[str, Any]) -> str | None:
    return parser.sniff(list(enumerate(records, 1)), "jsonl")


def test_sniff_reasons() -> None:
    s, j = ClaudeSessionParser(), ClaudeStreamJsonParser()
    codex = {"type": "thread.started", "thread_id": "t"}
    assert "Codex record types (thread.started)" in (_sniff(s, codex) or "")
    assert "Codex record types (thread.started)" in (_sniff(j, codex) or "")
    gemini = {"type": "init", "session_id": "g", "model": "gemini-2.5-pro"}
    assert _sniff(j, gemini) == "has Gemini CLI record types (init)"
    assert _sniff(s, {"sessionId": "x", "projectHash": "h", "startTime": "t"}) == (
        "has a Gemini CLI session header (projectHash)"
    )
    assert (_sniff(j, s_user("hi")) or "").startswith("looks like a Claude session log")
    assert _sniff(s, user("hi")) == (
        "no Claude session-log record (user/assistant/system with sessionId/parentUuid/isSidechain, or "
        "file-history-snapshot/summary/progress/queue-operation) in the first record; types seen: user"
    )
    assert _sniff(j, {"type": "message", "role": "user"}, {"type": "x"}) == (
        "no Claude stream-json event (system/init, result, or user/assistant with a `message` object) "
        "in the first 2 records; types seen: message, x"
    )
    assert j.sniff([(1, {"agent": "x", "events": []})], "json-object") == (
        "a single JSON object that is not a Claude `result` record"
    )
    assert _sniff(j, user("hi")) is None
    assert _sniff(j, {"type": "result", "subtype": "success"}) is None
    assert _sniff(s, {"type": "progress", "data": {}}) is None


# -- totality ----------------------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=4,
)
_ids = st.sampled_from(["t1", "t2", "T", "", None, 3])
_block = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "thinking", "tool_use", "tool_result", "server_tool_use",
                              "web_search_tool_result", "image", "weird", None, 7])},
    optional={
        "text": st.one_of(st.text(max_size=5), _json),
        "thinking": _json,
        "id": _ids,
        "tool_use_id": _ids,
        "name": st.sampled_from(["Bash", "Task", "Agent", "mcp__a-b__c", "mcp__x", "", None, 1]),
        "input": _json | st.just('{"command": "ls"}'),
        "content": _json | st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": _json})),
        "is_error": _json,
    },
)
_content = st.one_of(_json, st.lists(st.one_of(_block, _json), max_size=4))
_message = st.one_of(
    _json,
    st.fixed_dictionaries(
        {"content": _content},
        optional={"id": _ids, "model": st.sampled_from(["m", "<synthetic>", None]), "usage": _json,
                  "role": _json},
    ),
)
_record = st.fixed_dictionaries(
    {"type": st.sampled_from(["user", "assistant", "system", "result", "progress", "summary",
                              "stream_event", "file-history-snapshot", "other", None, 5])},
    optional={
        "message": _message,
        "subtype": st.sampled_from(["init", "task_started", "hook_started", "compact_boundary", None, 2]),
        "parent_tool_use_id": _ids,
        "parentToolUseID": _ids,
        "isSidechain": _json,
        "agentId": st.sampled_from(["a1", "a2", None, 4]),
        "sessionId": _json,
        "session_id": _json,
        "toolUseResult": _json,
        "tool_use_result": _json,
        "is_error": _json,
        "result": _json,
        "total_cost_usd": _json,
        "usage": _json,
        "mcp_servers": _json,
        "tool_use_id": _ids,
        "timestamp": _json,
        "data": st.one_of(
            _json,
            st.fixed_dictionaries(
                {"type": st.sampled_from(["agent_progress", "hook_progress"])},
                optional={"agentId": _ids, "message": st.one_of(_json, st.fixed_dictionaries(
                    {"type": st.sampled_from(["assistant", "user", 1])},
                    optional={"message": _message, "uuid": _ids}))},
            ),
        ),
        "error": _json,
        "isMeta": _json,
    },
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_record, max_size=8))
def test_parsers_are_total_over_json_objects(records: list[dict[str, Any]]) -> None:
    for parser in (ClaudeStreamJsonParser(), ClaudeSessionParser()):
        b = TranscriptBuilder("<p>", parser.name, parser.agent)
        parser.parse(iter(enumerate(records, 1)), b)
        t = b.build(ReadStats(path="<p>", records=len(records), lines=len(records)))
        assert t.format == parser.name
        assert len(t.all_tool_calls) <= sum(
            len(r["message"]["content"]) if isinstance(r.get("message"), dict)
            and isinstance(r["message"].get("content"), list) else 0
            for r in records
        ) + sum(1 for r in records if isinstance(r.get("data"), dict)) * 4
        parser.sniff(list(enumerate(records[:20], 1)), "jsonl")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_record, min_size=1, max_size=8))
def test_auto_detection_on_claude_ish_records_never_raises_anything_else(records: list[dict[str, Any]]) -> None:
    data = jl(*records)
    try:
        t = aa.parse(data)
    except aa.UnknownFormatError:
        return
    assert t.format in aa.FORMATS


# -- usage per agent, run errors, subagent answers, skills ------------------------------------------

HANDMADE = Path(__file__).resolve().parent / "handmade"


def test_parallel_task_subagents_keep_their_usage_and_the_run_total_adds_up() -> None:
    t = aa.load(HANDMADE / "claude-stream-json-1.0.x-parallel-tasks.json")
    # the result record's usage is the main agent's: 32k cache reads
    assert (t.usage.cache_read_tokens, t.usage.cache_write_tokens) == (32000, 10200)
    # its cost counts every agent: it belongs to the run's total, not to the main agent
    assert t.usage.cost_usd is None and t.usage_total.cost_usd == 0.4121
    subs = {s.id: s for s in t.subagents}
    assert set(subs) == {"toolu_task_api", "toolu_task_web", "toolu_task_db"}
    for s in subs.values():  # each subagent's messages, de-duplicated per message id
        assert (s.usage.cache_read_tokens, s.usage.cache_write_tokens) == (67000, 16700)
    total = t.usage_total
    assert total.cache_read_tokens == 32000 + 3 * 67000  # the subagents read about 200k more
    assert total.cache_write_tokens == 10200 + 3 * 16700  # and wrote about 50k
    assert total.input_tokens == (t.usage.input_tokens or 0) + sum(s.usage.input_tokens or 0 for s in t.subagents)
    assert t.usage_unrecorded == ()
    assert sum(c.is_error for c in t.subagent_tool_calls) == 11


def test_model_usage_is_the_run_total_and_a_mismatch_is_a_health_note() -> None:
    t = aa.load(HANDMADE / "claude-stream-json-2.1.x-agent-model-usage.jsonl")
    [sub] = t.subagents
    assert (sub.usage.input_tokens, sub.usage.cache_read_tokens) == (6, 24000)
    assert (t.usage.input_tokens, t.usage.cache_read_tokens) == (11, 26000)  # the result's usage
    # modelUsage (every model, every agent) is the total: the haiku call is in no message
    assert (t.usage_total.input_tokens, t.usage_total.output_tokens) == (17 + 420, 180 + 12)
    assert (t.usage_total.cache_read_tokens, t.usage_total.cost_usd) == (50000, 0.0712)
    [note] = [n for n in t.health.notes if "modelUsage" in n]
    assert note == (
        "usage: the result's modelUsage (in 437, out 192, cache read 50000, cache write 11700) differs "
        "from what the agents' records add up to (in 17, out 180, cache read 50000, cache write 11700); "
        "usage_total follows modelUsage"
    )


def test_model_usage_that_adds_up_gives_no_note() -> None:
    model_usage = {"claude-sonnet-5": {"inputTokens": 7, "outputTokens": 9, "cacheReadInputTokens": 3,
                                       "cacheCreationInputTokens": 0, "costUSD": 0.01}}
    t = stream(INIT, asst(text("hi"), mid="m1"),
               {"type": "result", "subtype": "success", "is_error": False, "total_cost_usd": 0.01,
                "usage": {"input_tokens": 7, "output_tokens": 9, "cache_read_input_tokens": 3,
                          "cache_creation_input_tokens": 0}, "modelUsage": model_usage})
    assert not [n for n in t.health.notes if "modelUsage" in n]
    assert t.usage == t.usage_total == aa.Usage(7, 9, 3, 0, None, 0.01)


def test_a_subagent_whose_usage_is_elsewhere_is_named_not_silently_left_out(corpus: Path) -> None:
    # the main session log holds the Task call and its result; the subagent's own turns (and
    # their usage) are in its own file, agent-862cae62.jsonl
    t = aa.load(corpus / "claude-session-log/agentcmd-2.0.29-task-plan.jsonl")
    [sub] = t.subagents
    assert sub.id == "862cae62" and not sub.usage.recorded
    assert t.usage_unrecorded == ("862cae62",)
    assert t.usage_total == t.usage
    assert "usage: the log records no usage for 1 subagent(s) (862cae62): usage_total leaves them out" in t.health.notes


def test_a_subagents_final_response_is_what_its_task_call_returned(corpus: Path) -> None:
    t = aa.load(corpus / "claude-session-log/agentcmd-2.0.29-task-plan.jsonl")
    [sub] = t.subagents
    [task] = [c for c in t.tool_calls if c.name == "Task"]
    assert sub.final_response == task.output
    assert sub.final_response.startswith("Excellent! Now I have a comprehensive understanding.")
    streamed = aa.load(HANDMADE / "claude-stream-json-1.0.x-parallel-tasks.json")
    assert {s.id: s.final_response for s in streamed.subagents}["toolu_task_db"] == (
        "The db service has no config file: it is configured through environment variables."
    )
    # Claude Code's trailer for the parent (agentId line, <usage> block) is not the answer
    agent = aa.load(HANDMADE / "claude-stream-json-2.1.x-agent-model-usage.jsonl")
    assert agent.subagents[0].final_response == (
        "The failing test is `total > applies the discount` in src/cart.test.ts."
    )
    failed = stream(asst(use("toolu_T", "Task", description="d", prompt="p")),
                    user([res("toolu_T", "Agent type 'x' not found", is_error=True)]))
    assert [s.final_response for s in failed.subagents] == [None]  # an error is not an answer


def test_an_api_error_reported_twice_is_one_error_and_the_run_ended_in_it() -> None:
    t = aa.load(HANDMADE / "claude-stream-json-2.1.x-api-error.jsonl")
    [err] = t.errors
    assert [loc.line for loc in err.locations] == [4, 5]
    assert err.message.startswith("the run ended with an error (subtype success, terminal_reason api_error, "
                                  "API status 404): API Error: 404")
    assert t.run_error is err
    assert t.final_response is None and t.final_answer is None
    # the same failure without the synthetic line: one error, one line
    lines = (HANDMADE / "claude-stream-json-2.1.x-api-error.jsonl").read_text().splitlines()
    t2 = aa.parse("\n".join(lines[:3] + lines[4:]) + "\n", path="x.jsonl")
    assert [[loc.line for loc in e.locations] for e in t2.errors] == [[4]] and t2.run_error is not None


def test_an_error_the_run_went_on_after_is_not_where_it_ended() -> None:
    t = stream(INIT, asst(mid="e", error="rate_limit"), asst(text("later"), mid="m2"),
               {"type": "result", "subtype": "success", "is_error": False, "result": "later"})
    assert len(t.errors) == 1 and t.run_error is None
    # two failures with steps between them stay two errors
    t = stream(INIT, asst(mid="e", error="rate_limit"), asst(text("later"), mid="m2"),
               {"type": "result", "subtype": "error_max_turns", "is_error": True, "num_turns": 3})
    assert len(t.errors) == 2 and t.run_error is t.errors[-1]


def test_a_slash_command_skill_is_an_invocation_of_the_skill() -> None:
    t = aa.load(HANDMADE / "claude-session-2.1.x-slash-skill.jsonl")
    [body] = [m for m in t.messages("user", include_meta=True) if m.skill is not None]
    assert (body.skill, body.meta, body.location.line) == ("shop-tools:release-notes", True, 2)
    # a Skill call's injected body is that call's, not a second invocation
    t = session(s_user("<command-name>/clear</command-name>"),
                s_user([text("Base directory for this skill: /p/skills/hex-docs")], isMeta=True,
                       sourceToolUseID="k1"),
                s_user([text("Base directory for this skill: /home/u/.claude/skills/pdf-tools")], isMeta=True))
    assert [m.skill for m in t.messages("user", include_meta=True)] == [None, None, "pdf-tools"]


_msg_usage = st.fixed_dictionaries({"input_tokens": st.integers(0, 50), "output_tokens": st.integers(0, 50),
                                     "cache_read_input_tokens": st.integers(0, 500)})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([None, "toolu_A", "toolu_B"]), _msg_usage), max_size=12))
def test_the_run_total_is_the_sum_of_every_agents_usage(messages: list[tuple[str | None, dict[str, int]]]) -> None:
    records = [asst(text(f"m{i}"), mid=f"msg_{i}", usage=u, parent_tool_use_id=agent) | {
        "message": {"id": f"msg_{i}", "role": "assistant", "content": [text(f"m{i}")], "usage": u}}
        for i, (agent, u) in enumerate(messages)]
    t = stream(INIT, *records)

    def tokens(agent: str | bool | None) -> int:
        return sum(u["input_tokens"] + u["output_tokens"] + u["cache_read_input_tokens"]
                   for a, u in messages if agent is True or a == agent)
    assert (t.usage.total_tokens or 0) == tokens(None)
    for sub in t.subagents:
        assert (sub.usage.total_tokens or 0) == tokens(sub.id)
    assert (t.usage_total.total_tokens or 0) == tokens(True)


# -- speed ---------------------------------------------------------------------------------------------


def test_parsing_does_bounded_work_per_record(corpus: Path, tmp_path: Path) -> None:
    """Session logs from corpus shapes, 2 and 8 copies: the parse does linear work, and a bounded
    number of calls per record (counted, not timed: how it compares with a json.loads loop in
    time is the benchmark's job, ``python -m bench.run``)."""
    lines = (corpus / "claude-session-log/agentcmd-2.0.27-edit-heavy.jsonl").read_bytes().splitlines()
    lines += (corpus / "claude-session-log/spotter-2.1.x-subagents-agent-a2898e3.jsonl").read_bytes().splitlines()[1:]

    def log(copies: int) -> Path:
        big = tmp_path / f"big-{copies}.jsonl"
        with big.open("wb") as f:
            for i in range(copies):
                for raw in lines:
                    f.write(raw.replace(b'"toolu_', b'"toolu_%d_' % i).replace(b'"msg_', b'"msg_%d_' % i) + b"\n")
        return big

    small, large = log(2), log(8)
    aa.load(small, format="claude-session")  # lazy imports happen once, outside the counts
    ratio = growth(lambda: aa.load(small, format="claude-session"), lambda: aa.load(large, format="claude-session"))
    assert ratio <= 4 * 1.05, f"4x the records made {ratio:.2f}x the calls"
    per_record = call_count(lambda: aa.load(large, format="claude-session")) / (8 * len(lines))
    assert per_record <= 80, f"{per_record:.1f} calls per record"  # about 48 when written
