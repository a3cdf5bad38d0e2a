"""inspect_ai eval logs (``.json`` and ``.eval`` zip archives): samples × epochs as members.

The multi-sample archives are made from the real ``.eval`` of the corpus: its members copied
unchanged, plus the same sample written again as another epoch (with one tool error added).
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import checks as C
from agenteval_assert._cli import ExitCode, main
from agenteval_assert.results import Status

from .conftest import CORPUS_MORE

EVAL = CORPUS_MORE / "inspect-log" / "inspect-0.3.135-hardcoded-guess-number-dedup.eval"
ERRORS_JSON = CORPUS_MORE / "inspect-log" / "inspect-0.3.58-tool-call-error-types.json"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _sample() -> dict[str, Any]:
    with zipfile.ZipFile(EVAL) as z:
        sample: dict[str, Any] = json.loads(z.read("samples/0_epoch_1.json"))
    return sample


@pytest.fixture
def two_epochs(tmp_path: Path) -> Path:
    """The real archive plus epoch 2 of its sample, whose first tool message is an error."""
    out = tmp_path / "two.eval"
    second = _sample()
    second["epoch"] = 2
    second["messages"][2]["error"] = {"type": "timeout", "message": "Command timed out"}
    with zipfile.ZipFile(EVAL) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, src.read(name))
        dst.writestr("samples/0_epoch_2.json", json.dumps(second))
    return out


def test_a_single_sample_archive_loads_as_one_transcript() -> None:
    t = aa.load(EVAL)
    assert (t.format, t.agent, t.model, t.path) == ("inspect-log", "inspect-ai", "hardcoded/hardcoded", str(EVAL))
    assert [c.id for c in t.tool_calls] == [f"hardcoded_{i}" for i in range(5)]
    assert all(c.command == "ls" and c.output.startswith("bin\n") for c in t.tool_calls)
    # in an archive a location's line is the message's number in the sample (1-based)
    sample = _sample()
    for c in t.tool_calls:
        assert c.location is not None and c.result is not None and c.result.location is not None
        assert sample["messages"][c.location.line - 1]["tool_calls"][0]["id"] == c.id
        assert sample["messages"][c.result.location.line - 1]["tool_call_id"] == c.id
    assert t.health.lines == t.health.records == len(sample["messages"])
    assert t.metadata["sample_id"] == "0" and t.metadata["epoch"] == 1 and t.final_response == "done"
    assert aa.load_all(EVAL)[0].path == f"{EVAL}#sample-0-epoch-1"


def test_several_samples_refuse_load_and_name_load_all(two_epochs: Path) -> None:
    with pytest.raises(aa.MultipleTranscriptsError) as exc:
        aa.load(two_epochs)
    assert exc.value.members == ("sample-0-epoch-1", "sample-0-epoch-2")
    assert str(exc.value) == (
        f"{two_epochs}: holds 2 transcripts (inspect-log samples × epochs); load them all with "
        f"load_all({str(two_epochs)!r}), or one with load({str(two_epochs) + '#sample-0-epoch-1'!r}) "
        "(members: sample-0-epoch-1, sample-0-epoch-2)"
    )
    assert isinstance(exc.value, aa.UsageError)
    first, second = aa.load_all(two_epochs)
    assert (first.path, second.path) == (f"{two_epochs}#sample-0-epoch-1", f"{two_epochs}#sample-0-epoch-2")
    assert [c.is_error for c in second.tool_calls] == [True, False, False, False, False]
    assert str(second.tool_calls[0].location) == f"{two_epochs}#sample-0-epoch-2:2"
    alone = aa.load(f"{two_epochs}#sample-0-epoch-2")
    assert alone.path == second.path and len(alone.tool_calls) == 5
    assert aa.load_all(f"{two_epochs}#sample-0-epoch-1")[0].path == first.path
    with pytest.raises(aa.TranscriptError, match=r"no member 'sample-9-epoch-1' \(members: sample-0-epoch-1"):
        aa.load(f"{two_epochs}#sample-9-epoch-1")


def test_summary_sums_the_members_and_lists_them(two_epochs: Path) -> None:
    code, out, err = run("summary", str(two_epochs), "--json")
    assert code == ExitCode.OK, err
    doc = json.loads(out)
    assert (doc["format"], doc["tool_calls"], doc["tool_errors"], doc["unanswered_calls"]) == ("inspect-log", 10, 1, 0)
    assert doc["tools"] == {"bash": 10} and doc["final_response"] == "done"
    assert [(m["member"], m["tool_calls"], m["tool_errors"]) for m in doc["members"]] == [
        ("sample-0-epoch-1", 5, 0), ("sample-0-epoch-2", 5, 1)]
    code, out, _ = run("summary", str(two_epochs))
    assert code == ExitCode.OK and "sample-0-epoch-2                 5 calls    1 errors  complete" in out


def test_check_checks_every_member_as_a_file(two_epochs: Path, tmp_path: Path) -> None:
    checks = tmp_path / "checks.py"
    checks.write_text("from agenteval_assert import checks as C\n\n"
                      "def check_no_errors(t):\n    return C.check_no_tool_errors(t)\n")
    code, out, _ = run("check", str(two_epochs), "--checks", str(checks))
    assert code == ExitCode.FAILED
    assert f"{two_epochs}#sample-0-epoch-1  inspect-log  5 tool calls" in out
    assert f"{two_epochs}#sample-0-epoch-2  inspect-log  5 tool calls" in out
    assert out.splitlines()[-1] == "1 of 2 transcripts passed (50.0 %), 1 failed, 0 inconclusive; 2 checks: 1 passed, 1 failed"
    code, out, _ = run("check", f"{two_epochs}#sample-0-epoch-1")
    assert code == ExitCode.OK and out.splitlines()[-1] == "5 passed, 0 failed"


def test_tool_messages_that_answer_no_call_are_orphans_not_errors() -> None:
    t = aa.load(ERRORS_JSON)
    assert t.tool_calls == () and len(t.health.orphan_results) == 11
    assert not t.health.unanswered_calls  # orphans make nothing unanswered
    assert not t.health.complete  # but their calls are missing: the transcript is not complete
    doc = json.loads(ERRORS_JSON.read_text())
    assert t.health.orphan_results == tuple(m["tool_call_id"] for m in doc["samples"][0]["messages"])
    from agenteval_assert import checks as C

    # 11 errors, none of them a tool error; and with no step at all, absence proves nothing
    r = C.check_no_tool_errors(t)
    assert r.status is Status.INCONCLUSIVE and "the transcript is empty" in r.summary
    assert t.path == str(ERRORS_JSON)


def _log(samples: list[dict[str, Any]]) -> str:
    return json.dumps({"version": 2, "status": "success", "eval": {"task": "t", "model": "m/x"},
                       "samples": samples}, indent=2)


def test_json_log_locates_messages_resolves_attachments_and_reads_errors() -> None:
    sample = {
        "id": "a#1", "epoch": 1, "attachments": {"h1": "the long command output"},
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "go"}]},
            {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "hmm"}, {"type": "text", "text": "ok"}],
             "tool_calls": [{"id": "c1", "function": "text_editor", "arguments": {"command": "view", "path": "/x"}},
                            {"id": "c2", "function": "bash", "arguments": {"cmd": "ls"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "attachment://h1"},
            {"role": "tool", "tool_call_id": "c2", "content": "", "error": {"type": "timeout", "message": "timed out"}},
            {"role": "assistant", "content": "bye"},
        ],
        "model_usage": {"m/x": {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12}},
        "error": {"message": "RuntimeError: sandbox died", "traceback": "..."},
    }
    text = _log([sample])
    t = aa.parse(text, path="log.json")
    view, ls = t.tool_calls
    assert (view.kind, view.output) == ("file_read", "the long command output")
    assert (ls.kind, ls.is_error, ls.output) == ("shell", True, "timed out")
    lines = text.splitlines()
    assert lines[view.location.line - 1].strip() == "{" and '"role": "assistant"' in lines[view.location.line]
    assert ls.result is not None and ls.result.location is not None
    assert '"tool_call_id": "c2"' in lines[ls.result.location.line + 1]
    assert [type(s).__name__ for s in t.steps][:3] == ["Message", "Thinking", "Message"]
    assert t.usage.input_tokens == 10 and t.final_response == "bye"
    # counts the log does not report stay unknown, never 0
    assert (t.usage.cache_read_tokens, t.usage.cache_write_tokens, t.usage.reasoning_tokens) == (None, None, None)
    assert t.errors[0][0] == "RuntimeError: sandbox died"
    both = _log([sample, {**sample, "epoch": 2}])  # the member id keeps the sample id as it is
    with pytest.raises(aa.MultipleTranscriptsError, match="sample-a#1-epoch-2"):
        aa.parse(both, path="log.json")


def test_a_tool_call_id_reused_after_its_result_is_a_new_call() -> None:
    """Providers that number calls afresh every turn reuse ``call_0``: each answer finds its call."""
    from agenteval_assert import checks as C

    def tc(cmd: str) -> dict[str, Any]:
        return {"id": "call_0", "function": "bash", "arguments": {"cmd": cmd}, "type": "function"}

    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": "", "tool_calls": [tc("ls")]},
        {"role": "tool", "tool_call_id": "call_0", "function": "bash", "content": "a b"},
        {"role": "assistant", "content": "", "tool_calls": [tc("rm -rf /data")]},
        {"role": "tool", "tool_call_id": "call_0", "function": "bash", "content": "",
         "error": {"type": "permission", "message": "denied"}},
        {"role": "assistant", "content": "done"},
    ]
    t = aa.parse(_log([{"id": 1, "epoch": 1, "messages": messages}]), path="log.json")
    assert [(c.command, c.output, c.is_error) for c in t.tool_calls] == [
        ("ls", "a b", False), ("rm -rf /data", "denied", True)]
    assert t.health.skipped == {} and t.health.complete
    assert C.check_command_ran(t, "rm").passed
    assert C.check_no_tool_errors(t).status is Status.FAIL


def test_model_usage_sums_each_count_over_the_models_that_report_it() -> None:
    usage = {"a/x": {"input_tokens": 10, "output_tokens": 2, "input_tokens_cache_read": 5},
             "b/y": {"input_tokens": 1, "output_tokens": 1, "reasoning_tokens": 7}}
    t = aa.parse(_log([{"id": 1, "epoch": 1, "messages": [{"role": "user", "content": "go"}],
                        "model_usage": usage}]), path="log.json")
    u = t.usage
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens, u.reasoning_tokens) == (
        11, 3, 5, None, 7)


def test_reasoning_counted_apart_from_the_output_is_added_to_it() -> None:
    # inspect_ai's Google provider leaves the thoughts out of output_tokens (its total holds them);
    # its OpenAI provider counts them in: one meaning here, the output holds every generated token
    msgs = [{"role": "user", "content": "go"}, {"role": "assistant", "content": "ok"}]
    usage = {"google/gemini-2.5-pro": {"input_tokens": 100, "output_tokens": 20, "reasoning_tokens": 50,
                                       "total_tokens": 170},
             "openai/o3": {"input_tokens": 10, "output_tokens": 30, "reasoning_tokens": 25, "total_tokens": 40}}
    t = aa.parse(_log([{"id": 1, "epoch": 1, "messages": msgs, "model_usage": usage}]), path="log.json")
    assert (t.usage.output_tokens, t.usage.reasoning_tokens) == (70 + 30, 75)
    assert t.usage.total_tokens == 170 + 40
    assert "reasoning added to the output" in t.health.usage_mode


def test_archives_that_are_not_eval_logs_say_so(tmp_path: Path) -> None:
    other = tmp_path / "other.eval"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(aa.TranscriptError, match=r"a zip archive, but not an inspect_ai \.eval log"):
        aa.load(other)
    torn = tmp_path / "torn.eval"
    torn.write_bytes(EVAL.read_bytes()[:4000])
    with pytest.raises(aa.TranscriptError, match="not a readable zip archive") as exc:
        aa.load(torn)
    assert exc.value.line is None
    assert run("summary", str(torn))[0] == ExitCode.INPUT
    empty = tmp_path / "header-only.json"
    empty.write_text(_log([]))
    with pytest.raises(aa.TranscriptError, match="holds no transcript"):
        aa.load(empty)


def test_a_sample_member_that_is_not_json_is_an_input_error_naming_the_member(tmp_path: Path) -> None:
    bad = tmp_path / "bad.eval"
    with zipfile.ZipFile(EVAL) as src, zipfile.ZipFile(bad, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, src.read(name)[:100] if name.startswith("samples/") else src.read(name))
    with pytest.raises(aa.TranscriptError, match=r"the archive member samples/0_epoch_1\.json is not valid JSON") as exc:
        aa.load(bad)
    assert exc.value.path == f"{bad}#sample-0-epoch-1" and exc.value.line == 1
    code, _, err = run("summary", str(bad))
    assert code == ExitCode.INPUT and f"error: {bad}#sample-0-epoch-1:1: the archive member" in err


def test_a_member_whose_compressed_bytes_are_corrupt_is_an_input_error(tmp_path: Path) -> None:
    # was exit 70: zlib.error escaped zipfile's read of a member whose deflate data is damaged
    data = bytearray(EVAL.read_bytes())
    with zipfile.ZipFile(EVAL) as z:
        info = next(i for i in z.infolist() if i.filename.startswith("samples/"))
    start = info.header_offset + 30 + len(info.filename) + 20
    data[start : start + 40] = bytes(b ^ 0x55 for b in data[start : start + 40])
    bad = tmp_path / "corrupt.eval"
    bad.write_bytes(bytes(data))
    with pytest.raises(aa.TranscriptError, match=r"the archive member samples/0_epoch_1\.json cannot be read") as exc:
        aa.load(bad)
    assert exc.value.path == f"{bad}#sample-0-epoch-1"
    for argv in (["summary", str(bad)], ["check", str(bad)], ["summary", f"{bad}#sample-0-epoch-1"]):
        code, _, err = run(*argv)
        assert code == ExitCode.INPUT and "internal error" not in err, (argv, err)
        assert f"{bad}#sample-0-epoch-1" in err


def test_a_sample_whose_messages_are_not_a_list_is_damaged(tmp_path: Path) -> None:
    # was exit 70: TypeError "object of type 'int' has no len()"
    p = tmp_path / "odd.json"
    p.write_text('{"version":2,"status":"success","eval":{},"samples":[{"messages":5}]}')
    t = aa.load(p)
    assert not t.health.complete and "messages is a JSON int" in t.health.damaged[0].reason
    assert C.check_tool_not_called(t, "bash").status is Status.INCONCLUSIVE
    assert run("summary", str(p))[0] == ExitCode.OK


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_any_bytes_after_the_zip_magic_give_a_typed_error(data: bytes) -> None:
    try:
        got = aa.parse(b"PK\x03\x04" + data, path="x.eval")
    except aa.TranscriptError as exc:
        assert exc.line is None or exc.line >= 1
    except aa.MultipleTranscriptsError:
        pass
    else:
        assert got.format == "inspect-log"


_value = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                      max_leaves=8)
_msg = st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "tool", "system", "x"])},
                             optional={"content": _value, "tool_calls": _value | st.just([{"id": "c", "function": "bash"}]),
                                       "tool_call_id": st.just("c") | _value, "error": _value})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_msg, max_size=6), _value)
def test_any_sample_gives_a_transcript(messages: list[Any], extra: Any) -> None:
    text = _log([{"id": 1, "epoch": 1, "messages": messages, "attachments": extra, "model_usage": extra}])
    t = aa.parse(text, path="x.json")
    assert t.format == "inspect-log"
    assert all(1 <= s.location.line <= text.count("\n") + 1 for s in t.steps)


def test_an_archive_member_past_the_input_limit_is_an_input_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A small archive can hold a huge member (a zip bomb): members are read within the input
    limit, decompressed size counted, not the archive's size alone."""
    out = tmp_path / "bomb.eval"
    sample = _sample()
    sample["metadata"] = {"padding": "x" * 3_000_000}  # compresses to a few kB
    with zipfile.ZipFile(EVAL) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            dst.writestr(name, json.dumps(sample) if name == "samples/0_epoch_1.json" else src.read(name))
    assert out.stat().st_size < 200_000
    monkeypatch.setenv("AGENTEVAL_MAX_INPUT_BYTES", "1M")
    with pytest.raises(aa.TranscriptError, match=r"member samples/0_epoch_1.json is more than the input limit"):
        aa.load_all(out)
    monkeypatch.setenv("AGENTEVAL_MAX_INPUT_BYTES", "10M")
    assert len(aa.load_all(out)) == 1
