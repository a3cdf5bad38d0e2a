"""``load_all()`` and ``FILE#MEMBER`` on every kind of file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa

from .conftest import CORPUS_MORE, SAMPLES

CODEX = SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"


def test_a_file_of_one_run_is_its_own_only_member() -> None:
    (t,) = aa.load_all(CODEX)
    assert t.path == str(CODEX) and len(t.tool_calls) == len(aa.load(CODEX).tool_calls)


def test_a_member_of_a_file_without_members_is_a_clear_error() -> None:
    with pytest.raises(aa.TranscriptError) as exc:
        aa.load(f"{CODEX}#sample-1-epoch-1")
    assert str(exc.value) == (
        f"{CODEX}: no member 'sample-1-epoch-1': a codex-exec file holds one transcript, not several "
        f"(expected {CODEX} without '#sample-1-epoch-1')")


def test_a_hash_in_a_file_name_is_part_of_the_name(tmp_path: Path) -> None:
    odd = tmp_path / "run#1.jsonl"
    shutil.copy(CODEX, odd)
    assert aa.load(odd).path == str(odd)
    assert aa.detect_format(odd) == "codex-exec"
    nested = tmp_path / "log#a.eval"
    shutil.copy(CORPUS_MORE / "inspect-log" / "inspect-0.3.135-hardcoded-guess-number-dedup.eval", nested)
    assert aa.load(f"{nested}#sample-0-epoch-1").path == f"{nested}#sample-0-epoch-1"
    with pytest.raises(aa.TranscriptError, match="cannot read"):
        aa.load(tmp_path / "missing.eval#sample-0-epoch-1")


def test_member_ids_may_hold_a_hash_and_are_never_cut(tmp_path: Path) -> None:
    """A sample id is free text: ``a#b`` gives member ``sample-a#b-epoch-1``, whole everywhere."""
    import io
    import json

    from agenteval_assert._cli import main

    sample = {"id": "a#b", "epoch": 1, "messages": [{"role": "user", "content": "go"},
                                                     {"role": "assistant", "content": "done"}]}
    log = {"version": 2, "status": "success", "eval": {"task": "t", "model": "m"},
           "samples": [sample, {**sample, "epoch": 2}]}
    path = tmp_path / "we#ird.json"
    path.write_text(json.dumps(log))
    (tmp_path / "we").write_text("a file whose name is a shorter prefix of the path")
    runs = aa.load_all(path)
    assert [t.path.removeprefix(f"{path}#") for t in runs] == ["sample-a#b-epoch-1", "sample-a#b-epoch-2"]
    one = aa.load(f"{path}#sample-a#b-epoch-2")  # the longest existing file prefix is the file
    assert one.path == f"{path}#sample-a#b-epoch-2" and one.metadata["epoch"] == 2

    out, err = io.StringIO(), io.StringIO()
    assert main(["summary", str(path)], stdout=out, stderr=err) == 0, err.getvalue()
    assert [line.split()[0] for line in out.getvalue().splitlines()[1:]] == [
        "sample-a#b-epoch-1", "sample-a#b-epoch-2"]
    out = io.StringIO()
    assert main(["summary", str(path), "--json"], stdout=out, stderr=err) == 0
    assert [m["member"] for m in json.loads(out.getvalue())["members"]] == ["sample-a#b-epoch-1", "sample-a#b-epoch-2"]
    out = io.StringIO()
    assert main(["summary", f"{path}#sample-a#b-epoch-1", "--json"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["path"] == f"{path}#sample-a#b-epoch-1"


def test_unrecorded_is_a_documented_status_and_not_unanswered() -> None:
    from agenteval_assert.model import CALL_STATUSES

    assert "unrecorded" in CALL_STATUSES
    t = aa.load(CORPUS_MORE / "aider" / "afi-core-aider-0.8x-chat-history.md")
    call = t.tool_calls[0]
    assert (call.answered, call.unanswered, call.outcome_recorded, call.is_error) == (False, False, False, False)
    pending = aa.load(SAMPLES / "codex-rollout" / "localpush-0.104-desktop-unanswered-call-sanitized.jsonl")
    (c,) = pending.tool_calls
    assert (c.status, c.unanswered, c.outcome_recorded) == ("pending", True, True)


_NEW = ("swe-agent", "mini-swe-agent", "openhands", "inspect-log", "aider")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from((None, *_NEW)), st.one_of(
    st.binary(max_size=300),
    st.sampled_from([b"PK\x03\x04", b"# aider chat started at x\n", b'{"trajectory": [', b"[{", b'{"eval": {'])
    .flatmap(lambda head: st.binary(max_size=200).map(lambda tail: head + tail)),
))
def test_any_bytes_in_any_new_format_give_a_transcript_or_a_typed_error(fmt: str | None, data: bytes) -> None:
    lines = data.count(b"\n") + 1
    try:
        t = aa.parse(data, format=fmt, path="fuzz")
    except aa.TranscriptError as exc:
        assert exc.line is None or 1 <= exc.line <= lines
        assert str(exc).startswith("fuzz")
    except aa.MultipleTranscriptsError as exc:
        assert len(exc.members) > 1
    else:
        assert isinstance(t, aa.Transcript)
        assert all(1 <= i.line <= max(lines, t.health.lines) for i in t.health.unparsable)
