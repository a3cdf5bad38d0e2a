"""Damaged input never passes silently, never crashes, never hangs: one test per way it used to.

Each test starts from a real file of the repository and damages it the way the attack that found
the bug did (``sed 5d``, Codex lines pasted in front of a Claude log, a FIFO, UTF-16...).
"""

from __future__ import annotations

import gc
import io
import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest

import agenteval_assert as aa
from agenteval_assert import checks as c
from agenteval_assert._cli import main
from agenteval_assert._health import health_checks
from agenteval_assert._parsers import gc_paused
from agenteval_assert._reader import DEFAULT_MAX_INPUT_BYTES, MAX_INPUT_ENV
from agenteval_assert.results import InconclusiveError, Status

from ._fuzz import unlimited_int_digits
from .conftest import CORPUS, CORPUS_MORE, SAMPLES

P, F, I, E = Status.PASS, Status.FAIL, Status.INCONCLUSIVE, Status.ERROR
REPLAY = SAMPLES / "replay"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def sed_d(path: Path, line: int, dest: Path) -> Path:
    """``sed {line}d path > dest``."""
    lines = path.read_bytes().splitlines(keepends=True)
    dest.write_bytes(b"".join(lines[: line - 1] + lines[line:]))
    return dest


# -- damage reaches health and every absence claim -----------------------------------------------


def test_sed_5d_of_a_replay_sample_deletes_the_call_and_nothing_passes_about_it(tmp_path: Path) -> None:
    # line 5 of the faulty run is the assistant record that calls save_address
    src = REPLAY / "confirm-before-saving" / "faulty.jsonl"
    full = aa.load(src)
    assert [x.name for x in full.tool_calls][-1] == "mcp__shop__save_address"
    t = aa.load(sed_d(src, 5, tmp_path / "cut.jsonl"))
    assert "mcp__shop__save_address" not in t.tool_names
    h = t.health
    assert h.orphan_results == (full.tool_calls[-1].id,)
    assert not h.intact and not h.complete
    assert any("whose call is not in the file" in p for p in h.problems())
    assert any("parent record" in i.reason for i in h.damaged)  # the uuid chain is broken too
    assert c.check_tool_not_called(t, "save_address").status is I
    assert c.check_confirmed_before_write(t, ["save_address"]).status is I
    # `check` no longer says "5 passed, 0 failed", and `summary` says DAMAGED
    code, out, _ = run("check", str(tmp_path / "cut.jsonl"))
    assert code == 1 and "FAIL         parsed_cleanly" in out
    code, out, _ = run("summary", str(tmp_path / "cut.jsonl"))
    assert code == 0 and "health      DAMAGED" in out and "result(s) whose call is not in the file" in out


def test_a_deleted_text_line_of_a_claude_session_breaks_its_uuid_chain(tmp_path: Path) -> None:
    src = REPLAY / "confirm-before-saving" / "baseline.jsonl"
    assert aa.load(src).health.complete
    t = aa.load(sed_d(src, 5, tmp_path / "cut.jsonl"))  # the assistant's question, no call
    assert [i.line for i in t.health.damaged] == [5]
    assert "a line before it is missing" in t.health.damaged[0].reason
    assert c.check_transcript_not_contains(t, "delete_address").status is I


def test_a_subagent_file_that_starts_mid_conversation_is_not_a_broken_chain(corpus: Path) -> None:
    # a compaction agent's file points into the main session from its first line
    t = aa.load(corpus / "claude-session-log" / "spotter-2.1.x-subagents-agent-acompact-e1f845.jsonl")
    assert t.health.damaged == () and t.health.complete


def test_codex_lines_in_front_of_a_claude_log_are_damage_not_a_note(tmp_path: Path) -> None:
    codex = (SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl").read_bytes().splitlines(keepends=True)
    claude = (SAMPLES / "claude-session" / "spotter-2.1.38-tool-heavy.jsonl").read_bytes()
    f = tmp_path / "mixed.jsonl"
    f.write_bytes(b"".join(codex[:12]) + claude)
    t = aa.load(f)
    assert t.format == "codex-exec"
    assert not t.health.complete
    foreign = [i for i in t.health.damaged if "another format (claude-session)" in i.reason]
    assert len(foreign) == 1 and foreign[0].line == len(codex[:12]) + 1
    # the Claude records that carry tool calls are named too
    assert any("carries a tool_use object" in i.reason for i in t.health.damaged)
    assert c.check_tool_not_called(t, "Bash").status is I
    _, out, _ = run("summary", str(f))
    assert "health      DAMAGED" in out and "another format" in out


def test_an_unknown_record_type_without_a_call_stays_a_note() -> None:
    lines = (SAMPLES / "claude-session" / "spotter-2.1.38-short.jsonl").read_text().splitlines()
    t = aa.parse("\n".join([*lines, json.dumps({"type": "brand-new-bookkeeping", "data": {"x": 1}})]) + "\n")
    assert t.health.unknown_types == {"brand-new-bookkeeping": 1}
    assert t.health.damaged == () and t.health.complete


def test_an_unknown_record_type_that_carries_a_call_is_damage() -> None:
    lines = (SAMPLES / "claude-session" / "spotter-2.1.38-short.jsonl").read_text().splitlines()
    rec = {"type": "assistant-v2", "message": {"content": [{"type": "tool_use", "id": "t1", "name": "Deploy",
                                                             "input": {"target": "prod"}}]}}
    t = aa.parse("\n".join([*lines, json.dumps(rec)]) + "\n")
    assert [(i.line, i.reason) for i in t.health.damaged] == [
        (len(lines) + 1, "assistant-v2: unknown, but carries a tool_use object")]
    assert c.check_tool_not_called(t, "Deploy").status is I


def test_a_record_of_the_wrong_shape_where_a_call_could_be_is_damage() -> None:
    lines = (REPLAY / "confirm-before-saving" / "faulty.jsonl").read_text().splitlines()
    rec = json.loads(lines[4])
    rec["message"]["content"] = 42  # the assistant record that held the save_address call
    t = aa.parse("\n".join([*lines[:4], json.dumps(rec), *lines[5:]]) + "\n")
    assert (5, "assistant message without a content list") in [(i.line, i.reason) for i in t.health.damaged]
    assert c.check_tool_not_called(t, "save_address").status is I
    assert health_checks(t)[0].status is F  # parsed_cleanly


def test_a_record_type_that_is_a_list_or_an_object_is_an_unknown_record() -> None:
    lines = (SAMPLES / "claude-session" / "spotter-2.1.38-short.jsonl").read_text().splitlines()
    for bad in ([], ["user"], {"a": 1}):
        rec = json.loads(lines[1])
        rec["type"] = bad
        t = aa.parse("\n".join([lines[0], json.dumps(rec), *lines[2:]]) + "\n")
        assert t.health.unknown_types.get("(record without a string type)") == 1


def test_a_codex_rollout_records_the_end_of_its_run(corpus: Path, tmp_path: Path) -> None:
    src = corpus / "codex-rollout" / "localpush-0.104-desktop-exec-command-sanitized.jsonl"
    full = aa.load(src)
    assert full.health.run_ended is True and full.health.complete
    lines = src.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:200]))  # a cut at a line boundary, between two calls
    t = aa.load(cut)
    assert t.health.run_ended is False and not t.health.complete
    limit = len(full.tool_calls) - 1
    assert c.check_budget(full, max_tool_calls=limit).status is F
    assert c.check_budget(t, max_tool_calls=limit).status is I  # never a PASS the full file fails
    code, _, _ = run("check", str(cut))
    assert code == 4
    # 0.40 rollouts write no task events: no end record, run_ended stays unknown
    assert aa.load(corpus / "codex-rollout" / "agentcmd-rollout-0.40-0199812e.jsonl").health.run_ended is None


def test_a_started_run_without_its_end_record_is_not_complete() -> None:
    # only the init record left: the run started, its end record is missing
    for text in (
        '{"type":"system","subtype":"init","session_id":"0b5e1c9a-0000-4000-8000-000000000000","model":"m"}\n',
        '{"type":"thread.started","thread_id":"t"}\n{"type":"turn.started"}\n',
    ):
        t = aa.parse(text)
        assert t.health.run_ended is False and not t.health.complete


def test_a_prompt_only_transcript_shows_nothing_never_happened() -> None:
    lines = (REPLAY / "confirm-before-saving" / "faulty.jsonl").read_text().splitlines()
    t = aa.parse("\n".join(lines[:2]) + "\n")  # the snapshot and the user's request
    assert [s.role for s in t.steps] == ["user"]  # type: ignore[union-attr]
    for r in (c.check_tool_not_called(t, "save_address"), c.check_no_tool_calls(t),
              c.check_no_tool_errors(t), c.check_confirmed_before_write(t, ["save_address"])):
        assert r.status is I, r
        assert "only the prompt" in r.summary
    assert c.check_tool_not_called(t, "save_address", assume_complete=True).status is P


def test_confirmed_before_write_with_no_write_goes_through_the_guard() -> None:
    t = aa.load(REPLAY / "product-search" / "baseline.jsonl")  # complete, no write
    r = c.check_confirmed_before_write(t, ["save_address"])
    assert r.status is P and r.vacuous
    torn = aa.parse((REPLAY / "product-search" / "baseline.jsonl").read_bytes()[:-40])
    assert c.check_confirmed_before_write(torn, ["save_address"]).status is I
    assert c.check_confirmed_before_write(torn, ["save_address"], assume_complete=True).status is P


# -- formats that record no outcome ---------------------------------------------------------------


def test_tool_results_without_an_error_flag_never_show_that_nothing_failed() -> None:
    for f in (SAMPLES / "openai-chat" / "chat-tool-calls.jsonl", SAMPLES / "openai-responses" / "responses-items.jsonl"):
        t = aa.load(f)
        unflagged = [x for x in t.all_tool_calls if not x.outcome_recorded]
        assert unflagged, f
        assert all(x.result is not None and not x.is_error and not x.unanswered for x in unflagged)
        r = c.check_no_tool_errors(t, tools=[unflagged[0].name])
        assert r.status is I and "records no outcome" in " ".join(r.notes), r
        assert c.check_tool_succeeded(t, unflagged[0].name).status is I
        assert c.check_tool_not_called(t, aa.Call(unflagged[0].name, is_error=True)).status is I
        assert t.health.complete  # the format's silence is not damage
    chat = aa.load(SAMPLES / "openai-chat" / "chat-tool-calls.jsonl")
    assert c.check_no_tool_errors(chat).status is I
    assert c.check_failures_not_reported_as_success(chat).status is I


def test_codex_rollout_outputs_without_an_exit_code_are_unrecorded(corpus: Path) -> None:
    t = aa.load(corpus / "codex-rollout" / "localpush-0.104-desktop-exec-command-sanitized.jsonl")
    # sanitised outputs: no "Process exited with code", no end event
    assert {x.status for x in t.tool_calls} == {"unrecorded"}
    assert c.check_no_tool_errors(t).status is I
    t40 = aa.load(corpus / "codex-rollout" / "agentcmd-rollout-0.40-0199812e.jsonl")
    assert all(x.outcome_recorded for x in t40.tool_calls)  # 0.40 outputs carry metadata.exit_code


# -- no traceback, no hang ------------------------------------------------------------------------


DEEP = 5000


def test_json_nested_past_the_recursion_limit_is_an_unparsable_line() -> None:
    lines = (SAMPLES / "claude-session" / "spotter-2.1.38-short.jsonl").read_text().splitlines()
    deep = '{"type":"user","x":' + "[" * DEEP + "]" * DEEP + "}"
    t = aa.parse("\n".join([lines[0], deep, *lines[1:]]) + "\n")
    assert [(i.line, i.reason.split(" (")[0]) for i in t.health.unparsable] == [(2, "JSON nested too deeply to read")]
    # a single document (the first line does not close it) and a JSON array
    doc = '{"a":\n' + "[" * DEEP + "]" * DEEP + "}"
    with pytest.raises(aa.TranscriptError) as exc:
        aa.parse(doc)
    assert exc.value.line is not None
    recs = json.loads((SAMPLES / "claude-stream-json" / "terragon-1.0.x-mcp-followup.json").read_text())
    t = aa.parse("[" + ", ".join(json.dumps(r) for r in recs[:3]) + ", " + "[" * DEEP + "]" * DEEP + "]")
    assert any("nested too deeply" in i.reason for i in t.health.unparsable)
    assert not t.health.complete


def test_deep_nesting_in_sandbox_files_and_reports(tmp_path: Path) -> None:
    from agenteval_assert.storybook import EvalContext, SandboxError

    box = tmp_path / "box"
    (box / "__agent_eval__").mkdir(parents=True)
    (box / "__agent_eval__" / "agent.json").write_text('{"agent": ' + "[" * DEEP + "]" * DEEP + "}")
    (box / "__agent_eval__" / "transcript.txt").write_text("")
    with pytest.raises(SandboxError, match="nested too deeply"):
        EvalContext.from_sandbox(box)
    report = tmp_path / "report.json"
    report.write_text('{"status": "completed", "result": ' + "[" * DEEP + "]" * DEEP + "}")
    code, _, err = run("report", str(report))
    assert code == 3 and "error:" in err and "Traceback" not in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_only_regular_files_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [(str(fifo), "named pipe"), (str(tmp_path), "is a directory")]
    cases += [(d, "character device") for d in ("/dev/zero", "/dev/urandom") if os.path.exists(d)]
    for path, what in cases:
        started = time.monotonic()
        with pytest.raises(aa.TranscriptError, match=what):
            aa.load(path)
        code, _, err = run("report", path)
        assert code == 3 and what in err, err
        if what != "is a directory":  # summary and check read a directory as a set of inputs
            code, _, err = run("summary", path)
            assert code == 3 and what.split()[-1] in err, err
            code, out, err = run("check", path)
            assert code == 3 and "Traceback" not in err, (out, err)
        assert time.monotonic() - started < 5  # no hang, no MemoryError
    code, _, err = run("summary", str(tmp_path))  # a directory holding only a FIFO: nothing read
    assert code == 3 and "not a regular file" in err


def test_report_dash_still_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (SAMPLES / "story-test-reports" / "failing-run.md").read_bytes()

    class Stdin:
        buffer = io.BytesIO(text)

    monkeypatch.setattr(sys, "stdin", Stdin())
    code, out, err = run("report", "-")
    assert code == 0, err
    assert out


def test_the_input_size_limit_is_documented_and_overridable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert DEFAULT_MAX_INPUT_BYTES >= 1 << 30  # far above real logs: the benchmark's 120 MB files pass
    src = SAMPLES / "claude-session" / "spotter-2.1.38-short.jsonl"
    monkeypatch.setenv(MAX_INPUT_ENV, "1K")
    with pytest.raises(aa.TranscriptError, match=f"input limit of 1,024 bytes .set {MAX_INPUT_ENV}"):
        aa.load(src)
    code, _, err = run("summary", str(src))
    assert code == 3 and MAX_INPUT_ENV in err
    monkeypatch.setenv(MAX_INPUT_ENV, "64M")
    assert aa.load(src).steps
    monkeypatch.setenv(MAX_INPUT_ENV, "lots")
    code, _, err = run("summary", str(src))
    assert code == 2 and "expected a positive size" in err


def test_sandbox_files_that_are_not_utf8_are_an_input_error(tmp_path: Path) -> None:
    from agenteval_assert.storybook import EvalContext, SandboxError

    box = tmp_path / "box"
    (box / "__agent_eval__").mkdir(parents=True)
    (box / "__agent_eval__" / "agent.json").write_bytes(b'{"agent": "claude-code", "integration": "mcp\xff"}')
    (box / "__agent_eval__" / "transcript.txt").write_text("")
    with pytest.raises(SandboxError, match=r"agent\.json: not UTF-8 text"):
        EvalContext.from_sandbox(box)
    (box / "__agent_eval__" / "agent.json").write_text('{"agent": "claude-code", "integration": "mcp"}')
    (box / "__agent_eval__" / "results.json").write_bytes(b'{"o11y": {"shellCommands": ["\xfe"]}}')
    with pytest.raises(SandboxError, match=r"results\.json: not UTF-8 text"):
        EvalContext.from_sandbox(box)
    code, _, err = run("check", str(box), "--eval", "storybook/801-create-accessible-component")
    assert code in (2, 3) and "not UTF-8" in err and "Traceback" not in err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_utf16_transcript_is_read_the_same_by_the_parser_and_the_raw_text_checks(
    tmp_path: Path, encoding: str
) -> None:
    src = REPLAY / "product-search" / "faulty.jsonl"
    text = src.read_text(encoding="utf-8")
    f = tmp_path / f"{encoding}.jsonl"
    f.write_bytes(text.encode(encoding))
    a, b = aa.load(src), aa.load(f)
    assert [type(s).__name__ for s in b.steps] == [type(s).__name__ for s in a.steps]
    assert b.health.complete == a.health.complete and not b.health.unparsable
    for needle in ("waterproof", aa.Matches("water.roof")):
        ra, rb = c.check_transcript_not_contains(a, needle), c.check_transcript_not_contains(b, needle)
        assert ra.status is rb.status is F
        assert [e.location for e in rb.evidence] == [e.location._replace(path=str(f)) for e in ra.evidence]  # type: ignore[union-attr]
        assert c.check_transcript_contains(b, needle).status is P
    if encoding != "utf-8-sig":
        assert any("UTF-16" in n or "UTF-32" in n for n in b.health.notes)


def test_nan_and_infinite_usage_is_unusable_and_summary_json_stays_strict(tmp_path: Path) -> None:
    lines = (SAMPLES / "claude-stream-json" / "terragon-1.0.x-bash-errors.json").read_text()
    recs = json.loads(lines)
    assert recs[-1]["type"] == "result"
    for bad in (float("nan"), float("inf"), 10**4000):
        recs[-1]["cost_usd"] = recs[-1]["total_cost"] = bad
        f = tmp_path / "run.jsonl"
        with unlimited_int_digits():
            f.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
        t = aa.load(f)
        assert t.usage.cost_usd is None
        assert c.check_budget(t, max_cost_usd=1.0).status is I
        code, out, _ = run("summary", "--json", str(f))
        assert code == 0
        json.loads(out, parse_constant=lambda name: pytest.fail(f"not strict JSON: {name}"))


def test_absurd_token_counts_are_dropped_with_a_note() -> None:
    lines = (SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl").read_text().splitlines()
    for bad in ({"input_tokens": 10**4000}, {"input_tokens": 10**30}, {"output_tokens": -5}):
        recs = [json.loads(x) for x in lines]
        for r in recs:
            if r.get("type") == "turn.completed":
                r["usage"].update(bad)
        text = "\n".join(json.dumps(r) for r in recs) + "\n"  # 4,001 digits: within json's own limit
        t = aa.parse(text)
        assert t.usage.total_tokens is None, bad  # the others alone would under-count
        assert any("not a usable token count" in n for n in t.health.notes)
        assert c.check_budget(t, max_tokens=10**12).status is I


@pytest.mark.parametrize("bad", ["1e400", '"12"', "1.5", "NaN", "null"])
@pytest.mark.parametrize(
    "sample", ["claude-session/agentcmd-2.0.27-edit-heavy.jsonl", "claude-stream-json/terragon-1.0.x-bash-errors.json",
               "codex-exec/untether-0.157.1-resume-cumulative-usage.jsonl"])
def test_a_token_count_that_is_no_count_makes_the_usage_partial(sample: str, bad: str) -> None:
    """An output_tokens of Infinity (1e400 reads as one), a string, a fraction or NaN was read
    as absent with no word: a token budget then passed on the other counts. Now the figures are
    a lower bound (usage_partial, with a note) and the budget they are within is INCONCLUSIVE."""
    import re

    text = (SAMPLES / sample).read_text()
    text, n = re.subn(r'"output_tokens": ?[0-9]+', f'"output_tokens": {bad}', text)
    assert n
    t = aa.parse(text, format=aa.load(SAMPLES / sample).format)
    if t.usage_total.total_tokens is None:
        # JSON Lines refuse NaN: every usage line is damaged, no figure at all (INCONCLUSIVE too)
        assert bad == "NaN" and not t.health.complete
        assert c.check_budget(t, max_tokens=10**12).status is I
        return
    assert t.usage_partial
    assert any("output_tokens is not a usable token count" in note for note in t.health.notes)
    assert c.check_budget(t, max_tokens=10**12).status is I
    assert c.check_budget(t, max_tokens=1).status is aa.Status.FAIL  # over the limit still fails


def test_every_command_names_its_input_when_it_crashes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from agenteval_assert import _cli_report

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("boom")

    report = tmp_path / "r.md"
    report.write_text("## Passing Stories\n\n- a--b\n")
    monkeypatch.setattr(_cli_report, "parse_story_test_report", boom, raising=False)
    monkeypatch.setattr("agenteval_assert.storybook._report.parse_story_test_report", boom)
    code, _, err = run("report", str(report))
    assert code == 70 and f"while reading {report}" in err and "RuntimeError: boom" in err


# -- user code and patterns -----------------------------------------------------------------------


CHECKS = '''
import functools, sys
from agenteval_assert.checks import check_tool_called


def hides(fn):
    def wrapper(t):
        return fn(t)
    return wrapper


@hides
def check_wrapped_without_wraps(t):
    return check_tool_called(t, "nope")


def check_exits(t):
    sys.exit(3)


class Stop(BaseException):
    pass


def check_base_exception(t):
    raise Stop("stop")


def check_returns_a_list(t):
    return [1, 2]


imported_alias = check_tool_called
check_alias = check_tool_called  # an imported function is not a check, whatever its name
'''


def test_a_checks_file_never_ends_the_run_nor_leaves_it_with_nothing_run(tmp_path: Path) -> None:
    f = tmp_path / "checks.py"
    f.write_text(CHECKS)
    code, out, err = run("check", str(REPLAY / "product-search" / "baseline.jsonl"), "--checks", str(f))
    assert code == 1, err
    lines = [ln.split() for ln in out.splitlines() if ln.startswith("  ") and ln.split()[0] in ("PASS", "FAIL", "ERROR")]
    assert lines == [["FAIL", "check_wrapped_without_wraps"], ["ERROR", "check_exits"],
                     ["ERROR", "check_base_exception"], ["ERROR", "check_returns_a_list"]]
    assert "error: called sys.exit(3)" in out and "error: Stop: stop" in out
    assert not (tmp_path / "__pycache__").exists()  # compiled in memory


def test_sys_exit_at_import_is_a_usage_error_naming_the_file(tmp_path: Path) -> None:
    f = tmp_path / "checks.py"
    f.write_text("import sys\nsys.exit(0)\n\ndef check_x(t):\n    pass\n")
    code, _, err = run("check", str(REPLAY / "product-search" / "baseline.jsonl"), "--checks", str(f))
    assert code == 2 and f"{f}:2: importing the checks file failed: called sys.exit(0)" in err


def test_regex_timeouts_are_validated() -> None:
    for bad in (0, -1, float("nan"), float("inf"), "1", True):
        with pytest.raises(aa.UsageError, match="timeout"):
            aa.Matches("x", timeout=bad)  # type: ignore[arg-type]


def test_a_pathological_pattern_ends_as_an_error_within_its_budget(tmp_path: Path) -> None:
    f = tmp_path / "run.jsonl"
    f.write_text("".join(json.dumps({"type": "user", "message": {"role": "user", "content": "a" * 20 + "b"}}) + "\n"
                         for _ in range(44)))
    t = aa.load(f, format="claude-session")
    started = time.monotonic()
    r = c.check_transcript_not_contains(t, aa.Matches("(a|a)*$"), assume_complete=True)
    assert r.status is E and "budget" in r.summary
    assert time.monotonic() - started < 6


# -- threads and secrets --------------------------------------------------------------------------


def test_the_collector_pause_restores_exactly_the_applications_state() -> None:
    text = (SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl").read_text()
    before = gc.get_threshold()
    enabled = gc.isenabled()
    errors: list[BaseException] = []

    def load_many() -> None:
        try:
            for _ in range(30):
                aa.parse(text)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=load_many) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert gc.get_threshold() == before and gc.isenabled() == enabled


def test_a_thread_that_disables_the_collector_during_a_parse_keeps_it_disabled() -> None:
    inside = threading.Event()
    done = threading.Event()

    def parse_slowly() -> None:
        with gc_paused():
            inside.set()
            done.wait(5)

    th = threading.Thread(target=parse_slowly)
    assert gc.isenabled()
    th.start()
    inside.wait(5)
    gc.disable()  # the application's own choice, while a parse runs in another thread
    done.set()
    th.join()
    try:
        assert not gc.isenabled()
        aa.parse((SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl").read_text())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_thresholds_set_by_the_application_during_a_parse_are_kept() -> None:
    before = gc.get_threshold()
    try:
        with gc_paused():
            assert gc.get_threshold()[0] > before[0]
            gc.set_threshold(1234, 11, 12)  # the application changes its mind meanwhile
        assert gc.get_threshold() == (1234, 11, 12)
    finally:
        gc.set_threshold(*before)


SECRET = "sk-ant-api03-" + "Q" * 40


def test_secrets_in_a_transcript_are_never_printed_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recs = [json.loads(x) for x in (SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl").read_text().splitlines()]
    for r in recs:
        item = r.get("item")
        if isinstance(item, dict) and item.get("type") == "command_execution":
            item["command"] = f"echo {SECRET}"
            item["aggregated_output"] = f"ANTHROPIC_API_KEY={SECRET}\n"
        if isinstance(item, dict) and item.get("type") == "agent_message":
            item["text"] = f"Your key is {SECRET}"
    f = tmp_path / "run.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    checks = tmp_path / "checks.py"
    checks.write_text(
        "from agenteval_assert.checks import check_transcript_not_contains, check_final_response_not_contains, "
        "check_tool_not_called\n"
        "def check_raw(t): return check_transcript_not_contains(t, 'sk-ant-')\n"
        "def check_final(t): return check_final_response_not_contains(t, 'sk-ant-')\n"
        "def check_shell(t): return check_tool_not_called(t, 'command_execution')\n"
    )
    outputs = [run("check", str(f), "--checks", str(checks), "-v")[1], run("summary", str(f))[1],
               run("summary", "--json", str(f))[1]]
    t = aa.load(f)
    r = c.check_tool_not_called(t, "command_execution")
    outputs += [r.render(), str(r), json.dumps(r.to_dict())]
    for out in outputs:
        assert SECRET not in out and "QQQQQQQQ" not in out
        assert "sk-ant-" not in out.replace("'sk-ant-'", "").replace("[REDACTED anthropic-api-key]", "")
    assert "[REDACTED anthropic-api-key]" in outputs[0]
    monkeypatch.setenv("AGENTEVAL_NO_REDACT", "1")  # local debugging
    assert SECRET in run("summary", str(f))[1]


def test_storybook_never_tests_go_through_the_guard(tmp_path: Path) -> None:
    from agenteval_assert.storybook import EvalContext
    from agenteval_assert.storybook import _expect as x
    from agenteval_assert.storybook._suites_evals import _811_no_a11y_off, src_free_of

    src = REPLAY / "product-search" / "baseline.jsonl"  # a run with no Storybook call at all
    whole = EvalContext.from_parts(aa.load(src), agent="claude-code", workspace=tmp_path)
    torn = EvalContext.from_parts(aa.parse(src.read_bytes()[:-40], path="torn.jsonl"), agent="claude-code",
                                  workspace=tmp_path)
    empty = EvalContext.from_parts(aa.parse(src.read_bytes().splitlines(keepends=True)[1], path="prompt.jsonl"),
                                   agent="claude-code", workspace=tmp_path)
    for fn in (x.expect_no_display_review, _811_no_a11y_off):
        assert fn(whole).status is P
        for ctx in (torn, empty):
            with pytest.raises(InconclusiveError):
                fn(ctx)
    with pytest.raises(InconclusiveError, match="does not exist"):
        src_free_of("formatRating")(whole)  # no src/ at all: "gone from src/" cannot be shown
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.ts").write_text("export const formatStars = 1\n")
    assert src_free_of("formatRating")(whole).status is P


def test_the_corpus_stays_clean_where_it_is_whole(corpus: Path) -> None:
    # the new damage rules find no damage in the real files (only their known problems)
    for f in sorted([*corpus.rglob("*.json*"), *CORPUS_MORE.rglob("*.json*")]):
        if f.name == "expected.json" or "storybook" in f.parts:
            continue
        for t in aa.load_all(f):
            assert t.health.damaged == (), (f, t.health.damaged)
    assert CORPUS.is_dir()
