"""The newer formats say what the log says: one regression test per defect of the correctness
round (inspect_ai, SWE-agent, OpenHands, Aider, the API message lists).

Real files of ``tests/corpus-more`` and ``samples/`` are the fixtures; a copy changed in one place
covers what no real file holds (each says what it changes). Expected values are read from the
files themselves where they can be.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import checks as C
from agenteval_assert._cli import ExitCode, main
from agenteval_assert._health import check_no_unhandled_tool_error, health_checks, not_applicable
from agenteval_assert.results import Status, describe_call

from .conftest import CORPUS_MORE, SAMPLES

INSPECT_EVAL = CORPUS_MORE / "inspect-log" / "inspect-0.3.135-hardcoded-guess-number-dedup.eval"
INSPECT_JSON = CORPUS_MORE / "inspect-log" / "inspect-0.3.58-tool-call-error-types.json"
SWE_TEXT = CORPUS_MORE / "swe-agent" / "gpt4-test-repo-i1.traj"
SWE_FC = CORPUS_MORE / "swe-agent" / "swe-agent-6e44b9-sweagenttestrepo.traj"
SWE_DEMO = CORPUS_MORE / "swe-agent" / "demo-function-calling-replace-marshmallow-1867.traj"
OH_CREATE = CORPUS_MORE / "openhands" / "openhands-basic-trajectory.json"
OH_VIEW = CORPUS_MORE / "openhands" / "runtime-trajs-wrong-initial-state.json"
AIDER = CORPUS_MORE / "aider" / "afi-core-aider-0.8x-chat-history.md"
ANTHROPIC = SAMPLES / "anthropic-messages" / "messages-request-response.json"
CHAT = SAMPLES / "openai-chat" / "chat-request-response.json"
CHAT_PROXY = SAMPLES / "openai-chat" / "chat-proxy-log.jsonl"
RESPONSES = SAMPLES / "openai-responses" / "responses-request-response.json"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _summary_json(path: Path | str) -> dict[str, Any]:
    code, out, err = run("summary", str(path), "--json")
    assert code == ExitCode.OK, err
    doc: dict[str, Any] = json.loads(out)
    return doc


# -- 1. inspect_ai: a call's arguments shown as logged ----------------------------------------------

def test_inspect_bash_cmd_is_shown_under_its_own_key() -> None:
    t = aa.load(INSPECT_EVAL)
    for c in t.tool_calls:
        logged = c.arguments["cmd"]
        assert "command" not in c.arguments  # not renamed by the parser
        assert describe_call(c) == f"bash(cmd={logged!r})"
    r = C.check_tool_called(t, "bash")
    assert all("bash(cmd='" in e.text for e in r.evidence) and "command=" not in r.render()
    # a call logged with ``command`` keeps its key (Claude, Codex...): only the label follows the log
    claude = aa.load(SAMPLES / "claude-session" / "spotter-2.1.38-short.jsonl")
    shell = [c for c in claude.tool_calls if c.kind == "shell"]
    assert shell and all(describe_call(c).startswith(f"{c.name}(command=") for c in shell)


# -- 2. SWE-agent: call names are the log's own -----------------------------------------------------

def test_swe_agent_call_names_are_the_tool_or_command_word_the_log_uses() -> None:
    """Not a defect on main: the names were already the log's. A function-calling tool other than
    ``bash`` is named after the function (``find_file``, ``open``, ``edit``, ``submit``); a
    ``bash`` call after the program it runs (``python3``), as the corpus's independent figures
    count them; never a generic name."""
    doc = json.loads(SWE_FC.read_text())
    functions = [tc["function"] for h in doc["history"] for tc in h.get("tool_calls") or ()]
    t = aa.load(SWE_FC)
    assert functions and len(functions) <= len(t.tool_calls)
    for c, fn in zip(t.tool_calls, functions, strict=False):
        if fn["name"] == "bash":
            assert c.name == json.loads(fn["arguments"])["command"].split()[0]
        else:
            assert c.name == fn["name"]
    for path in (SWE_TEXT, SWE_FC, SWE_DEMO):
        steps = json.loads(path.read_text())["trajectory"]
        calls = aa.load(path).tool_calls
        assert [c.name for c in calls] == [re.split(r"\s", s["action"].strip(), maxsplit=1)[0] for s in steps]
        assert not {c.name for c in calls} & {"shell", "tool", "action", "call"}


# -- 3. OpenHands: the file editor's commands -------------------------------------------------------

def test_openhands_editor_create_is_a_write_and_view_a_read() -> None:
    t = aa.load(OH_CREATE)
    create = t.tool_calls[0]
    assert (create.name, create.arguments["command"], create.kind) == ("str_replace_editor", "create", "file_write")
    # the action's own args stay as logged; what the model sent and the action leaves out is added
    assert create.arguments["content"] == "" and create.arguments["file_text"].startswith("import random")
    for path in ("/workspace/game_2048.py", "game_2048.py"):
        assert C.check_file_written(t, path).passed
    assert C.check_file_edited(t, "game_2048.py").status is Status.FAIL  # created, not edited

    view = aa.load(OH_VIEW)
    reads = [c for c in view.tool_calls if c.name == "str_replace_editor"]
    assert [(c.arguments["command"], c.kind) for c in reads] == [("view", "file_read")] * 2
    assert C.check_file_read(view, "/workspace").passed


def _openhands_with(edit_args: dict[str, Any], *, keep_response: bool = True) -> aa.Transcript:
    """The create call of ``OH_CREATE`` turned into another editor command: the model's arguments
    in ``model_response`` replaced by *edit_args* (or the response dropped, leaving
    ``translated_ipython_code`` as the only witness)."""
    events = json.loads(OH_CREATE.read_text())
    action = events[1]
    action["action"] = "edit"
    meta = action["tool_call_metadata"]
    if keep_response:
        meta["model_response"]["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = json.dumps(edit_args)
    else:
        meta.pop("model_response")
    action["args"]["translated_ipython_code"] = f"print(file_editor(**{edit_args!r}))"
    return aa.parse(json.dumps(events), path="oh.json")


def test_openhands_str_replace_and_insert_are_edits_with_their_path() -> None:
    for command in ("str_replace", "insert"):
        t = _openhands_with({"command": command, "path": "/workspace/game_2048.py", "old_str": "a", "new_str": "b"})
        call = t.tool_calls[0]
        assert (call.arguments["command"], call.kind) == (command, "file_edit")
        assert C.check_file_edited(t, "game_2048.py").passed
        assert C.check_file_written(t, "game_2048.py").status is Status.FAIL
    # no model response: the command is read from the translated code
    t = _openhands_with({"command": "view", "path": "/workspace/game_2048.py"}, keep_response=False)
    assert (t.tool_calls[0].arguments["command"], t.tool_calls[0].kind) == ("view", "file_read")


# -- 4. SWE-agent: relative paths resolved against the working folder -------------------------------

def test_swe_agent_relative_paths_resolve_against_the_working_dir_and_keep_the_logged_text() -> None:
    doc = json.loads(SWE_DEMO.read_text())
    cwd = doc["trajectory"][0]["state"]["working_dir"]
    t = aa.load(SWE_DEMO)
    create = t.tool_calls[0]
    assert create.arguments["action"] == "create reproduce.py" and create.arguments["path"] == "reproduce.py"
    assert create.arguments["absolute_path"] == f"{cwd}/reproduce.py"
    # the evidence shows the logged text; the file event carries the absolute path
    assert describe_call(create).startswith("create(filename='reproduce.py', action='create reproduce.py'")
    events = [e for e in C.file_events(t) if e.call is create]
    assert [(e.op, e.path) for e in events] == [("write", f"{cwd}/reproduce.py")]
    # SWE-agent records no outcome: the attempts are counted (succeeded=None)
    for path in ("reproduce.py", f"{cwd}/reproduce.py"):
        assert C.check_file_written(t, path, succeeded=None).passed, path
    opened = next(c for c in t.tool_calls if c.name == "open")
    assert C.check_file_read(t, f"{cwd}/{opened.arguments['path']}", succeeded=None).passed
    # 0.x: the state before the step names the folder too
    old = aa.load(SWE_TEXT)
    cwd0 = json.loads(json.loads(SWE_TEXT.read_text())["trajectory"][1]["state"])["working_dir"]
    assert C.check_file_read(old, f"{cwd0}/tests/missing_colon.py", succeeded=None).passed


def test_swe_agent_paths_are_not_resolved_where_it_is_not_safe() -> None:
    doc = json.loads(SWE_DEMO.read_text())
    for step in doc["trajectory"]:
        step["state"] = {"open_file": step["state"]["open_file"]}  # no working_dir recorded
    t = aa.parse(json.dumps(doc), path="demo.traj")
    assert all("absolute_path" not in c.arguments for c in t.tool_calls)
    assert C.check_file_written(t, "reproduce.py", succeeded=None).passed
    doc = json.loads(SWE_DEMO.read_text())
    doc["trajectory"][0]["action"] = "create ~/reproduce.py"
    doc["history"] = [h for h in doc["history"] if h.get("role") != "assistant"]
    t = aa.parse(json.dumps(doc), path="home.traj")
    assert t.tool_calls[0].arguments["path"] == "~/reproduce.py" and "absolute_path" not in t.tool_calls[0].arguments


@settings(max_examples=200, deadline=None)
@given(parts=st.lists(st.sampled_from(["a", "b.py", ".", "..", "src", "x y", "~", "$H", "*", "c\\d"]),
                      min_size=1, max_size=5),
       cwd=st.sampled_from(["/testbed", "/", "/a/b/", None, "rel"]))
def test_swe_agent_resolved_paths_are_absolute_and_keep_the_logged_tail(parts: list[str], cwd: str | None) -> None:
    from agenteval_assert._parsers._swe import _absolute

    path = "/".join(parts)
    got = _absolute(path, cwd if cwd is None or cwd.startswith("/") else None)
    if got is None:
        return
    assert cwd is not None and got.startswith("/") and "//" not in got
    assert not any(ch in path for ch in "$*\\") and path[0] not in "/~"  # a ~ expands only first
    if ".." not in parts:  # the logged relative path is the tail of the resolved one
        tail = "/".join(p for p in parts if p != ".")
        assert not tail or got.endswith("/" + tail) or got == "/" + tail


# -- 5. Aider: an applied edit is done; created files are written; the skip rule -------------------

def test_aider_applied_edits_completed_and_created_files_written() -> None:
    t = aa.load(AIDER)
    lines = AIDER.read_text().splitlines()
    created = {lines[i - 1][2:].strip() for i, line in enumerate(lines)
               if line.startswith("> Create new file? (Y)es/(N)o [Yes]: y")}
    edits = [c for c in t.tool_calls if c.name == "edit"]
    assert edits and all(c.status == "completed" and not c.is_error and c.result is None for c in edits)
    written = {c.arguments["file_path"] for c in edits if c.kind == "file_write"}
    assert written == created and len(created) >= 5
    for path in sorted(created):
        assert C.check_file_written(t, path).passed, path
    assert C.check_file_edited(t, "schemas/index.ts").passed
    # commands stay unrecorded: whether one succeeded cannot be told
    assert C.check_command_succeeded(t, "git push origin main").status is Status.INCONCLUSIVE
    # a file Aider was told not to create is not written by the next applied edit of another file
    text = AIDER.read_text().replace("> Create new file? (Y)es/(N)o [Yes]: y  \n> Applied edit to aider-afi.sh",
                                     "> Create new file? (Y)es/(N)o [Yes]: n  \n> Applied edit to aider-afi.sh", 1)
    other = aa.parse(text, format="aider")
    kinds = {c.arguments["file_path"]: c.kind for c in other.tool_calls if c.name == "edit"}
    assert kinds["aider-afi.sh"] == "file_edit" and kinds["sync-afi.sh"] == "file_write"


def test_unhandled_error_check_is_skipped_only_when_the_last_call_has_no_outcome() -> None:
    sessions = {s.path.rsplit("#", 1)[1]: s for s in aa.load_all(AIDER)}
    for s in sessions.values():
        if not s.tool_calls:
            continue
        reason = not_applicable(check_no_unhandled_tool_error, s)
        last = s.tool_calls[-1]
        if last.outcome_recorded:  # an applied edit: judged
            assert reason is None and check_no_unhandled_tool_error(s).passed
        else:
            assert reason == (f"aider records no outcome for the last tool call (shell at line "
                              f"{last.location.line}): whether it failed cannot be told")
    assert not_applicable(check_no_unhandled_tool_error, sessions["session-6"]) is None
    assert sessions["session-6"].tool_calls[-1].name == "edit"


# -- 6. usage_partial --------------------------------------------------------------------------------

def test_swe_agent_zero_tokens_for_api_calls_is_unrecorded_usage() -> None:
    stats = json.loads(SWE_DEMO.read_text())["info"]["model_stats"]
    assert stats["api_calls"] > 0 and stats["tokens_sent"] == stats["tokens_received"] == 0
    t = aa.load(SWE_DEMO)
    assert t.usage_partial and not t.usage.recorded and t.usage.total_tokens is None
    for limit in ({"max_tokens": 10**9}, {"max_cost_usd": 100.0}):
        assert C.check_budget(t, **limit).status is Status.INCONCLUSIVE  # type: ignore[arg-type]
    assert C.check_budget(t, max_tool_calls=100).passed  # calls are counted from the log
    doc = _summary_json(SWE_DEMO)
    assert doc["usage_partial"] is True and doc["usage"]["input_tokens"] is None
    whole = aa.load(SWE_FC)
    assert not whole.usage_partial and C.check_budget(whole, max_tokens=10**9).passed
    assert _summary_json(SWE_FC)["usage_partial"] is False


def test_api_responses_some_without_usage_are_partial_a_lower_bound() -> None:
    lines = CHAT_PROXY.read_text().splitlines()
    first = json.loads(lines[0])
    first["response"].pop("usage")
    t = aa.parse("\n".join([json.dumps(first), *lines[1:]]) + "\n", path="proxy.jsonl")
    assert t.usage_partial and t.usage.input_tokens is not None
    within = C.check_budget(t, max_tokens=10**9)
    assert within.status is Status.INCONCLUSIVE and "part of the run" in within.summary
    assert C.check_budget(t, max_tokens=1).status is Status.FAIL  # over even on part of it
    full = aa.load(CHAT_PROXY)
    assert not full.usage_partial and C.check_budget(full, max_tokens=10**9).passed
    _, out, _ = run("summary", str(CHAT_PROXY))
    assert "partial" not in out


def test_openhands_responses_without_usage_are_partial() -> None:
    events = json.loads(OH_VIEW.read_text())
    with_meta = [e for e in events if isinstance(e.get("tool_call_metadata"), dict)
                 and isinstance(e["tool_call_metadata"].get("model_response"), dict)]
    assert len(with_meta) >= 2
    with_meta[0]["tool_call_metadata"]["model_response"].pop("usage")
    for e in events:
        e.pop("llm_metrics", None)
    t = aa.parse(json.dumps(events), path="oh.json")
    assert t.usage_partial and t.usage.output_tokens
    assert C.check_budget(t, max_output_tokens=10**9).status is Status.INCONCLUSIVE


# -- 7. SWE-agent: an edit the linter rejected failed ------------------------------------------------

def test_swe_agent_edit_not_applied_failed() -> None:
    t = aa.load(SWE_DEMO)
    rejected = [c for c in t.tool_calls if "NOT been applied" in c.output]
    assert len(rejected) == 1
    (edit,) = rejected
    assert (edit.name, edit.kind, edit.status, edit.is_error, edit.exit_code) == ("edit", "file_edit", "failed", True, None)
    assert all(c.status == "unrecorded" for c in t.tool_calls if c is not edit)
    assert any("1 edit(s) were rejected" in n for n in t.health.notes)
    assert C.check_no_tool_errors(t).status is Status.FAIL
    assert [e.succeeded for e in C.file_events(t) if e.call is edit] == [False]
    # the words in a shell command's output are not the linter's verdict
    doc = json.loads(SWE_DEMO.read_text())
    ls = next(i for i, s in enumerate(doc["trajectory"]) if s["action"].startswith("ls"))
    doc["trajectory"][ls]["observation"] = "Your changes have NOT been applied"
    t = aa.parse(json.dumps(doc), path="demo.traj")
    assert t.tool_calls[ls].status == "unrecorded"


# -- 8. lines in no step; health wording -------------------------------------------------------------

def test_aider_lines_in_no_step_are_counted_and_shown() -> None:
    text = "# aider chat started at 2025-01-01 10:00:00\n\n#### fix it\n\n>\n\nDone.\n"
    t = aa.parse(text, format="aider", path="h.md")
    assert t.health.orphan_lines == (5,) and t.health.complete
    assert all(s.location.line != 5 for s in t.steps)
    (parsed,) = [r for r in health_checks(t) if r.name == "parsed_cleanly"]
    assert parsed.passed and "1 line in no step (Health.orphan_lines)" in parsed.notes
    clean = aa.load(AIDER)
    assert clean.health.orphan_lines == ()


def test_aider_session_health_counts_its_own_lines(tmp_path: Path) -> None:
    lines = AIDER.read_text().splitlines()
    heads = [i + 1 for i, line in enumerate(lines) if line.startswith("# aider chat started at")]
    second = aa.load(f"{AIDER}#session-2")
    assert second.health.lines == heads[2] - heads[1]  # its heading to the line before the next one
    assert min(s.location.line for s in second.steps) > heads[1]
    (parsed,) = [r for r in health_checks(second) if r.name == "parsed_cleanly"]
    assert parsed.summary.endswith(f"on {heads[2] - heads[1]} lines parsed")
    doc = _summary_json(f"{AIDER}#session-2")
    assert doc["health"]["orphan_lines"] == [] and doc["health"]["lines"] == heads[2] - heads[1]


# -- 9. API: server tool results on their own block; cache writes ----------------------------------

def test_anthropic_server_tool_result_is_located_on_its_own_block() -> None:
    lines = ANTHROPIC.read_text().splitlines()
    t = aa.load(ANTHROPIC)
    search = next(c for c in t.tool_calls if c.id.startswith("srvtoolu_"))
    assert search.result is not None and search.result.location is not None
    at = search.result.location.line
    assert at > search.location.line
    assert '"tool_use_id"' in lines[at - 1] and search.id in lines[at - 1]
    assert '"id"' in lines[search.location.line - 1] and search.id in lines[search.location.line - 1]
    # a client tool's result, in the next user message, stays where it was
    client = next(c for c in t.tool_calls if c.id.startswith("toolu_"))
    assert client.result is not None and client.result.location is not None
    assert client.id in lines[client.result.location.line - 1]


def test_openai_cache_write_tokens_where_the_api_reports_them() -> None:
    doc = json.loads(RESPONSES.read_text())
    details = doc["response"]["usage"]["input_tokens_details"]
    base = aa.load(RESPONSES).usage
    assert base.cache_write_tokens == details["cache_write_tokens"] == 0
    details["cache_write_tokens"] = 300
    t = aa.parse(json.dumps(doc), path="r.json")
    assert t.usage.cache_write_tokens == 300
    assert base.input_tokens is not None and t.usage.input_tokens == base.input_tokens - 300
    assert t.usage.total_tokens == base.total_tokens  # part of the input, not more of it

    chat = json.loads(CHAT.read_text())
    pd = chat["response"]["usage"]["prompt_tokens_details"]
    assert "cache_write_tokens" in pd and pd["cache_write_tokens"] is None
    assert aa.load(CHAT).usage.cache_write_tokens is None  # null: not reported, never 0
    pd["cache_write_tokens"] = 64
    t = aa.parse(json.dumps(chat), path="c.json")
    assert t.usage.cache_write_tokens == 64
    assert t.usage.total_tokens == aa.load(CHAT).usage.total_tokens


@settings(max_examples=40, deadline=None)
@given(read=st.integers(0, 10_000), write=st.integers(0, 10_000), extra=st.integers(0, 10_000))
def test_openai_usage_keeps_the_prompt_total(read: int, write: int, extra: int) -> None:
    """Whatever the split, the input, cache read and cache write add up to the API's prompt
    tokens (when they fit in it), each never negative."""
    chat = json.loads(CHAT.read_text())
    u = chat["response"]["usage"]
    u["prompt_tokens"] = read + write + extra
    u["prompt_tokens_details"] = {"cached_tokens": read, "cache_write_tokens": write}
    got = aa.parse(json.dumps(chat), path="c.json").usage
    assert (got.input_tokens, got.cache_read_tokens, got.cache_write_tokens) == (extra, read, write)


# -- 10. FILE#member for a file of one member ---------------------------------------------------------

def test_member_of_a_single_member_file_loads(tmp_path: Path) -> None:
    """Not a defect on main: ``load("FILE#member")`` already read the one member of an inspect
    log of one sample and of an Aider history of one session."""
    for path in (INSPECT_EVAL, INSPECT_JSON):
        (only,) = aa.load_all(path)
        member = only.path.rsplit("#", 1)[1]
        one = aa.load(f"{path}#{member}")
        assert one.path == only.path and len(one.tool_calls) == len(only.tool_calls)
        assert len(aa.load(path).tool_calls) == len(one.tool_calls)
    lines = AIDER.read_text().splitlines(keepends=True)
    heads = [i for i, line in enumerate(lines) if line.startswith("# aider chat started at")]
    single = tmp_path / ".aider.chat.history.md"
    single.write_text("".join(lines[heads[1]:heads[2]]))
    (only,) = aa.load_all(single)
    assert only.path == f"{single}#session-1"
    one = aa.load(f"{single}#session-1")
    assert len(one.tool_calls) == len(aa.load(f"{AIDER}#session-2").tool_calls) == 4
    code, out, err = run("summary", f"{single}#session-1", "--json")
    assert code == ExitCode.OK, err
    assert json.loads(out)["tool_calls"] == 4
