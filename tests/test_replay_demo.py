"""The replay demo: six business scenarios, each a real transcript file pair and a checks file.

Every baseline passes every check of its scenario; every faulty run fails, each with the right
reason (the named check fails, and its summary says why).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import agenteval_assert as aa
from agenteval_assert._checks_file import load_checks, run_check
from agenteval_assert.results import Status

REPLAY = Path(__file__).resolve().parent.parent / "samples" / "replay"

#: scenario -> (format, the check that must fail on the faulty run, text its summary must contain,
#:              the checks that still pass on the faulty run)
EXPECTED = {
    "product-search": (
        "claude-session",
        "check_searched_the_catalog",
        "found none (0 tool calls in total)",
        set(),
    ),
    "missing-information": (
        "codex-exec",
        "check_did_not_invent_an_address",
        "expected no call of [shop.set_shipping_address, shop.create_shipment], found 2 calls",
        {"check_looked_up_the_order"},
    ),
    "another-users-order": (
        "claude-session",
        "check_only_own_orders",
        "found 1 call outside the allowed set",
        set(),
    ),
    "query-timed-out": (
        "codex-exec",
        "check_timeout_not_reported_as_success",
        "found 1 failed call and a final response that does not say so: 'Your refund of $139.00",
        {"check_tried_the_refund"},
    ),
    "confirm-before-saving": (
        "claude-session",
        "check_saved_only_after_confirmation",
        "after an explicit confirmation, found 1 write without one",
        {"check_read_the_current_address_first"},
    ),
    "saving-twice": (
        "codex-exec",
        "check_saved_once",
        "expected no duplicate calls of [save_address], found 1 duplicate",
        {"check_saved_the_address"},
    ),
}


def test_six_scenarios_are_shipped() -> None:
    assert sorted(p.name for p in REPLAY.iterdir() if p.is_dir()) == sorted(EXPECTED)


@pytest.mark.parametrize("scenario", sorted(EXPECTED))
def test_baseline_passes_every_check(scenario: str) -> None:
    fmt = EXPECTED[scenario][0]
    t = aa.load(REPLAY / scenario / "baseline.jsonl")
    assert t.format == fmt
    assert t.health.complete  # a real, complete transcript: negative checks can decide
    results = [run_check(fn, t) for _, fn in load_checks(REPLAY / scenario / "checks.py")]
    assert len(results) >= 2
    assert all(r.status is Status.PASS for r in results), "\n".join(r.render() for r in results)


@pytest.mark.parametrize("scenario", sorted(EXPECTED))
def test_faulty_fails_for_the_right_reason(scenario: str) -> None:
    fmt, failing, reason, still_passing = EXPECTED[scenario]
    t = aa.load(REPLAY / scenario / "faulty.jsonl")
    assert t.format == fmt
    results = {n: run_check(fn, t) for n, fn in load_checks(REPLAY / scenario / "checks.py")}
    r = results[failing]
    assert r.status is Status.FAIL
    assert reason in r.summary, r.render()
    assert {n for n, x in results.items() if x.status is Status.PASS} == still_passing
    assert all(x.status in (Status.PASS, Status.FAIL) for x in results.values())
    # the report points into the faulty file
    located = [e for e in (*r.evidence, *(() if r.nearest_miss is None else (r.nearest_miss.evidence,)))
               if e.location is not None]
    if scenario != "product-search":  # no call at all: nothing to point at
        assert located and all(e.location.path.endswith("faulty.jsonl") for e in located)


def test_the_final_text_looks_right_while_the_calls_are_wrong() -> None:
    base = aa.load(REPLAY / "product-search" / "baseline.jsonl")
    bad = aa.load(REPLAY / "product-search" / "faulty.jsonl")
    # Both answers open the same way and name the same first product...
    assert base.final_response is not None and bad.final_response is not None
    assert base.final_response.splitlines()[0] == bad.final_response.splitlines()[0]
    assert "Ridgeline GTX Trail Runner** (TR-4471)" in bad.final_response
    # ...but only the baseline searched.
    assert len(base.tool_calls) == 1 and not bad.tool_calls


def test_cli_runs_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    from agenteval_assert._cli import main

    d = REPLAY / "saving-twice"
    assert main(["check", str(d / "baseline.jsonl"), "--checks", str(d / "checks.py")]) == 0
    assert main(["check", str(d / "faulty.jsonl"), "--checks", str(d / "checks.py")]) == 1
    out = capsys.readouterr().out
    assert "check_saved_once" in out
    assert "same tool and arguments as #0" in out
