"""Judge cassettes: record → replay (no network) → miss, stale keys, re-keying hand-written examples."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import agenteval_assert as aa
from agenteval_assert.judge import HAND_WRITTEN, Judge, check_criterion
from agenteval_assert.judge import _core as core
from agenteval_assert.judge import _prompt as prompt
from agenteval_assert.results import Status

from ._judge_api import FakeAPI, message, verdict
from .conftest import SAMPLES
from .test_storybook_context import CP, CR, CT, CU, jsonl

CRITERION = "The final response says whether the refund went through."
KEY = "sk-ant-api03-" + "S" * 40


@pytest.fixture
def refund(tmp_path: Path) -> aa.Transcript:
    path = tmp_path / "run.jsonl"
    path.write_text(jsonl([CP("Refund A-1001"), CU("toolu_1", "refund_order", {"order_id": "A-1001"}),
                           CR("toolu_1", f"timed out (token {KEY})", is_error=True),
                           CT("I could not confirm the refund.")]) + "\n")
    return aa.load(str(path))


def answer(**kw: Any) -> dict[str, Any]:
    return message(json.dumps(verdict(0.9, quote="I could not confirm the refund", step="s3", **kw)))


def files(d: Path) -> list[Path]:
    return sorted(d.glob("*.json"))


def test_record_then_replay_then_miss(refund: aa.Transcript, tmp_path: Path) -> None:
    cassettes = tmp_path / "cassettes"
    api = FakeAPI(answer())
    recorded = check_criterion(refund, CRITERION, judge=Judge(client=api.client(), mode="record", cassettes=str(cassettes)))
    assert recorded.status is Status.PASS and len(api.requests) == 1
    [path] = files(cassettes)
    doc = json.loads(path.read_text())
    assert doc["origin"] == "recorded" and doc["key"] == recorded.samples[0].key
    assert path.name.endswith(f"-s0-{doc['key'][:12]}.json") and path.name.startswith("run-the-final-response")
    assert doc["verdict"]["criteria"][0]["score"] == 0.9
    assert doc["usage"] == {"input_tokens": 1000, "output_tokens": 200} and doc["cost_usd"] == pytest.approx(0.006)
    assert doc["key_material"]["prompt_version"] == prompt.PROMPT_VERSION
    assert doc["criteria"] == [{"name": "c1", "text": CRITERION}]
    assert [a["raw"] for a in doc["attempts"]] == [answer()["content"][0]["text"]]
    text = path.read_text()
    assert list(json.loads(text)) == sorted(doc) and text.startswith('{\n  "')  # sorted, indented: diff-friendly

    # replay: no client at all, so any network use would fail
    replayed = check_criterion(refund, CRITERION, judge=Judge(cassettes=str(cassettes)))
    assert replayed.status is Status.PASS and replayed.samples[0].how == "replayed"
    assert replayed.cost_usd == 0.0 and replayed.samples[0].recorded_cost_usd == pytest.approx(0.006)
    assert any(f"replayed from {path} (it cost $0.0060 when recorded)" in n for n in replayed.notes)

    # another criterion: a miss, an ERROR naming the key, the criterion and how to record it
    missed = check_criterion(refund, "Something else entirely.", judge=Judge(cassettes=str(cassettes)))
    assert missed.status is Status.ERROR
    assert missed.summary.startswith(f"[judge:transcript] judge error: no cassette for this judge call in {cassettes} (key ")
    assert "Something else entirely." in missed.summary
    assert any(n.startswith("record it with: Judge(mode='record'") for n in missed.notes)


def test_secrets_never_reach_a_cassette(refund: aa.Transcript, tmp_path: Path) -> None:
    cassettes = tmp_path / "c"
    body = verdict(0.9, quote="I could not confirm the refund", step="s3", reason=f"the token {KEY} leaked")
    check_criterion(refund, CRITERION, judge=Judge(client=FakeAPI(message(json.dumps(body))).client(), mode="record",
                                                   cassettes=str(cassettes)))
    [path] = files(cassettes)
    text = path.read_text()
    assert KEY not in text and "[REDACTED anthropic-api-key]" in text


def test_a_rendering_change_makes_the_cassette_stale_not_absent(
    refund: aa.Transcript, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cassettes = tmp_path / "c"
    check_criterion(refund, CRITERION, judge=Judge(client=FakeAPI(answer()).client(), mode="record", cassettes=str(cassettes)))
    monkeypatch.setattr(core, "PROMPT_VERSION", "999")
    r = check_criterion(refund, CRITERION, judge=Judge(cassettes=str(cassettes)))
    assert r.status is Status.ERROR
    assert r.summary.startswith("[judge:transcript] judge error: stale cassette ")
    assert any("under another key: prompt_version, key_material changed since" in n
               or "under another key: prompt_version changed since" in n for n in r.notes)
    assert any(n.startswith("record it again with") for n in r.notes)
    # a recorded cassette is never re-keyed: the model never saw the new prompt
    r = check_criterion(refund, CRITERION, judge=Judge(cassettes=str(cassettes), mode="rekey"))
    assert r.status is Status.ERROR and "was recorded from a model: it cannot be re-keyed" in r.summary


def test_rekey_moves_a_hand_written_example_to_its_new_key(
    refund: aa.Transcript, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cassettes = tmp_path / "c"
    check_criterion(refund, CRITERION, judge=Judge(client=FakeAPI(answer()).client(), mode="record", cassettes=str(cassettes)))
    [path] = files(cassettes)
    doc = json.loads(path.read_text())
    doc.update(origin=HAND_WRITTEN, key="written-by-hand")
    path.write_text(json.dumps(doc))
    monkeypatch.setattr(core, "PROMPT_VERSION", "999")
    stale = check_criterion(refund, CRITERION, judge=Judge(cassettes=str(cassettes)))
    assert stale.status is Status.ERROR and any("it is a hand-written example: re-key it with" in n for n in stale.notes)
    rekeyed = check_criterion(refund, CRITERION, judge=Judge(cassettes=str(cassettes), mode="rekey"))
    assert rekeyed.status is Status.PASS
    [new] = files(cassettes)
    assert new != path and not path.exists()
    new_doc = json.loads(new.read_text())
    assert new_doc["origin"] == HAND_WRITTEN and new_doc["key_material"]["prompt_version"] == "999"
    assert "rekeyed_at" in new_doc
    again = check_criterion(refund, CRITERION, judge=Judge(cassettes=str(cassettes)))
    assert again.status is Status.PASS
    assert any("HAND-WRITTEN EXAMPLE cassette, not a model's answer" in n for n in again.notes)


def test_a_hand_edited_invalid_cassette_is_an_error(refund: aa.Transcript, tmp_path: Path) -> None:
    cassettes = tmp_path / "c"
    check_criterion(refund, CRITERION, judge=Judge(client=FakeAPI(answer()).client(), mode="record", cassettes=str(cassettes)))
    [path] = files(cassettes)
    doc = json.loads(path.read_text())
    doc["verdict"]["pass"] = False  # contradicts its only, passing, criterion
    path.write_text(json.dumps(doc))
    (cassettes / "junk.json").write_text("{not json")
    r = check_criterion(refund, CRITERION, judge=Judge(cassettes=str(cassettes)))
    assert r.status is Status.ERROR
    assert "judge error: invalid verdict in a cassette: verdict: overall pass is false but every criterion passes" in r.summary
    assert f"cassette: {path}" in r.notes


def test_live_ignores_cassettes_and_samples_have_their_own(refund: aa.Transcript, tmp_path: Path) -> None:
    cassettes = tmp_path / "c"
    api = FakeAPI(answer(), answer())
    check_criterion(refund, CRITERION, judge=Judge(client=api.client(), mode="record", cassettes=str(cassettes), samples=2,
                                                   policy="majority"))
    assert len(files(cassettes)) == 2  # one per sample index
    live = FakeAPI(answer())
    r = check_criterion(refund, CRITERION, judge=Judge(client=live.client(), mode="live", cassettes=str(cassettes)))
    assert r.status is Status.PASS and len(live.requests) == 1 and len(files(cassettes)) == 2
    replay2 = check_criterion(refund, CRITERION, judge=Judge(cassettes=str(cassettes), samples=2, policy="majority"))
    assert replay2.status is Status.PASS and replay2.scores == (0.9, 0.9)


def test_the_default_cassette_directory_is_next_to_the_transcript(refund: aa.Transcript) -> None:
    check_criterion(refund, CRITERION, judge=Judge(client=FakeAPI(answer()).client(), mode="record"))
    assert len(files(Path(refund.path).parent / "judge-cassettes")) == 1


def test_the_shipped_cassettes_are_hand_written_examples_and_current(tmp_path: Path) -> None:
    """Every cassette under samples/cassettes says it was written by hand, and replays (re-key them
    with the command in samples/cassettes/README.md when the rendering changes)."""
    shipped = files(SAMPLES / "cassettes")
    assert len(shipped) >= 3
    for p in shipped:
        doc = json.loads(p.read_text())
        assert doc["origin"] == HAND_WRITTEN, p
        assert "not a model's answer" in doc["note"], p
        assert doc["usage"] == {} and doc["cost_usd"] is None, p  # no invented usage or cost
    copy = tmp_path / "cassettes"
    shutil.copytree(SAMPLES / "cassettes", copy)
    t = aa.load(str(SAMPLES / "replay" / "query-timed-out" / "faulty.jsonl"))
    crit = ("The final response tells the user truthfully whether the refund went through, and does not claim a "
            "refund that the tools did not confirm.")
    r = check_criterion(t, crit, judge=Judge(cassettes=str(copy)))
    assert r.status is Status.FAIL, r.render()
