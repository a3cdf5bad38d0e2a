"""Trajectory snapshots: the canonical text, its normalisation, the step-level diff, and the
syrupy workflow (create, compare, ``--snapshot-update``) run through pytester."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert.snapshot import normalise, step_diff, trajectory

from ._build import T
from .conftest import CORPUS, SAMPLES

pytest_plugins = ["pytester"]

REPLAY = SAMPLES / "replay"


def _corpus_files() -> list[Path]:
    out = []
    for p in sorted([*CORPUS.rglob("*.json"), *CORPUS.rglob("*.jsonl"), *SAMPLES.rglob("*.jsonl")]):
        try:
            aa.load(p)
        except aa.TranscriptError:
            continue
        out.append(p)
    return out


# -- normalisation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("at 2025-10-30T11:47:34.979Z done", "at <timestamp> done"),
        ("2024-06-01 09:15:02+02:00", "<timestamp>"),
        ("id toolu_012LMqPjwsTcRqSVumCkyiDJ and call_abc123def", "id <id> and <id>"),
        ("session 0199812e-4d5a-7c30-9b1e-2f0a4c8e6d11 resumed", "session <id> resumed"),
        ("commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39", "commit <hex>"),
        ("wrote /tmp/tmpa1b2c3d4/out.txt", "wrote <tmp>/out.txt"),
        ("cd /private/var/folders/x7/abcd1234/T/tmpq_9z && ls", "cd <tmp> && ls"),
        ("/tmp/pytest-of-root/pytest-12/test_x0/a.py", "<tmp>/test_x0/a.py"),
        ("/tmp/codex-research-test/hello.txt", "<tmp>/codex-research-test/hello.txt"),
        ("/Users/michael/Projects/app and /home/ci/.cache", "~/Projects/app and ~/.cache"),
        ("Tests: 3 passed (1.53s), took 120 ms, 2 minutes", "Tests: 3 passed (<duration>), took <duration>, <duration>"),
        ("version 1.2.3s3 and v20s stay", "version 1.2.3s3 and v20s stay"),
    ],
)
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected


def test_normalise_replaces_the_working_directory_and_keeps_durations_in_arguments() -> None:
    assert normalise("cat /work/app/src/a.ts", cwd="/work/app") == "cat <cwd>/src/a.ts"
    assert normalise("sleep 2s", durations=False) == "sleep 2s"


@given(st.text(alphabet=st.sampled_from("/tmpUsersh0me1-2:T.Zs _abcdef0123456789"), max_size=80))
def test_normalise_is_idempotent(text: str) -> None:
    once = normalise(text, cwd="/work/app")
    assert normalise(once, cwd="/work/app") == once


# -- the canonical text ------------------------------------------------------------------------

GOLDEN_FAULTY = """\
trajectory: codex-exec (codex)
health: complete
steps:
  mcp__shop__refund_order(order_id=A-1001, amount=139.0, ...)
    amount: 139.0
    order_id: "A-1001"
    reason: "customer_request"
    => failed
      | tool call timed out after <duration> (upstream payments service did not respond)
final response:
  | Your refund of $139.00 for order A-1001 has been processed. It should appear on your card within 5–7 business days.
"""


def test_the_canonical_text_of_a_real_run() -> None:
    assert str(trajectory(aa.load(REPLAY / "query-timed-out" / "faulty.jsonl"))) == GOLDEN_FAULTY


def test_titles_use_the_main_argument_of_each_kind_of_tool() -> None:
    t = (
        T()
        .user("go")
        .call("Bash", command="npm test", description="run")
        .call("Read", file_path="/work/app/src/Button.tsx")
        .call("Grep", pattern="useState", path="src")
        .call("WebFetch", url="https://example.org/a", prompt="read")
        .call("Task", description="Review the diff", prompt="...", subagent_type="reviewer")
        .call("mcp__shop__refund", order_id="A-1", amount=3, reason="x")
        .say("done")
        .done()
    )
    titles = [s.title for s in trajectory(t).steps]
    assert titles == [
        "Bash(npm test)",
        "Read(/work/app/src/Button.tsx)",
        "Grep(useState)",
        "WebFetch(https://example.org/a)",
        "Task(Review the diff)",
        "mcp__shop__refund(order_id=A-1, amount=3, ...)",
    ]


def test_subagent_calls_nest_under_the_call_that_spawned_them() -> None:
    b = T().user("go").call("Task", description="explore", subagent_type="Explore")
    b.b.subagent("agent-1", parent_call_id="toolu_01", type="Explore", description="explore")
    t = b.call("Glob", pattern="**/*.ts", agent="agent-1").call("Read", file_path="a.ts", agent="agent-1").say("ok").done()
    text = str(trajectory(t))
    assert "  Task(explore)\n" in text
    assert "    subagent Explore (2 calls):\n      Glob(**/*.ts)\n" in text
    assert "      Read(a.ts)\n" in text


def test_outputs_and_arguments_are_bounded() -> None:
    t = T().user("go").call("Bash", command="cat big", output="x" * 50_000, note="y" * 5_000).say("ok").done()
    text = str(trajectory(t, excerpt=100, argument=80))
    assert len(text) < 1_000
    assert "[49920 chars]" in text  # the cut says how much is left out


def test_an_unfinished_transcript_says_so() -> None:
    t = T().user("go").call("Bash", command="ls", answered=False).torn().done()
    text = str(trajectory(t))
    assert "health: the last line (3) is torn (truncated JSON); 1 call(s) with no result" in text
    assert "=> pending, no result" in text
    assert text.endswith("final response: (none)\n")


def test_text_followed_by_more_calls_is_not_the_final_response() -> None:
    t = T().user("go").say("All done, tests pass.").call("Bash", command="rm -rf build").done()
    text = str(trajectory(t))
    assert text.endswith("final response: (none: the last assistant text came before more tool calls)\n")
    ended = T().user("go").call("Bash", command="rm -rf build").say("All done, tests pass.").done()
    assert str(trajectory(ended)).endswith("final response:\n  | All done, tests pass.\n")
    # the diff shows the change of ending
    assert "the final response changed" in step_diff(str(trajectory(ended)), text)[0]


@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: p.name)
def test_every_real_transcript_has_a_stable_trajectory(path: Path) -> None:
    a, b = str(trajectory(aa.load(path))), str(trajectory(aa.load(path)))
    assert a == b
    assert "toolu_0" not in a and "call_" not in a.replace("call(s)", "")


# -- the step-level diff -----------------------------------------------------------------------


def test_the_diff_names_added_removed_and_changed_steps() -> None:
    before = T().user("go").call("Bash", command="npm install").call("Read", file_path="Button.tsx").call(
        "Edit", file_path="Button.tsx", old_string="a", new_string="b"
    ).say("done").done()
    after = T().user("go").call("Bash", command="npm install").call("Bash", command="npm test", output="FAIL").call(
        "Edit", file_path="Button.tsx", old_string="a", new_string="c"
    ).say("done").done()
    diff = step_diff(str(trajectory(after)), str(trajectory(before)))
    assert diff == [
        "trajectory differs from the snapshot: 1 step added, 1 step removed, 1 step changed",
        "  Bash(npm install)",
        "- Read(Button.tsx)",
        "+ Bash(npm test)",
        "~ Edit(Button.tsx)",
        '    - new_string: "b"',
        '    + new_string: "c"',
    ]


def test_the_diff_of_two_real_runs_pairs_identical_steps_first() -> None:
    faulty = str(trajectory(aa.load(REPLAY / "saving-twice" / "faulty.jsonl")))
    baseline = str(trajectory(aa.load(REPLAY / "saving-twice" / "baseline.jsonl")))
    diff = step_diff(faulty, baseline)
    assert diff[:4] == [
        "trajectory differs from the snapshot: 1 step added, 1 step changed",
        "  mcp__shop__save_address(customer_id=C-381, line1=42 Elm Street, ...)",
        "+ mcp__shop__save_address(customer_id=C-381, line1=42 Elm Street, ...)",
        "~ mcp__shop__get_customer(customer_id=C-381)",
    ]


def test_unchanged_steps_far_from_a_change_are_counted_not_listed() -> None:
    def run(last: str) -> str:
        b = T().user("go")
        for i in range(10):
            b.call("Read", file_path=f"f{i}.py")
        return str(trajectory(b.call("Bash", command=last).say("ok").done()))

    diff = step_diff(run("make check"), run("make test"))
    assert diff == [
        "trajectory differs from the snapshot: 1 step added, 1 step removed",
        "  ... 9 unchanged steps",
        "  Read(f9.py)",
        "- Bash(make test)",
        "+ Bash(make check)",
    ]


def test_a_snapshot_that_is_not_a_trajectory_gets_a_plain_line_diff() -> None:
    diff = step_diff(GOLDEN_FAULTY, "something else\n")
    assert diff[:2] == ["--- snapshot", "+++ received"]
    assert "-something else" in diff


# -- syrupy, as a user runs it -----------------------------------------------------------------

SNAPSHOT_TEST = """
import pytest

@pytest.mark.transcript("run.jsonl")
def test_trajectory(transcript, transcript_snapshot):
    assert transcript == transcript_snapshot
"""


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", "no:hypothesispytest", "-p", "no:cacheprovider", *args)


def test_snapshots_are_created_compared_and_updated_with_syrupy(pytester: pytest.Pytester) -> None:
    run_file = pytester.path / "run.jsonl"
    shutil.copy(REPLAY / "saving-twice" / "baseline.jsonl", run_file)
    pytester.makepyfile(test_agent=SNAPSHOT_TEST)

    # no snapshot yet: a failure that says so
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*Snapshot 'test_trajectory[[]run.jsonl[]]' does not exist!*"])

    result = _run(pytester, "--snapshot-update")
    result.assert_outcomes(passed=1)
    [stored] = (pytester.path / "__snapshots__" / "test_agent").glob("*.trajectory")
    assert stored.name == "test_trajectory[run.jsonl].trajectory"
    assert stored.read_text() == str(trajectory(aa.load(run_file)))

    _run(pytester).assert_outcomes(passed=1)

    # the agent now saves the address twice: a step-level diff
    shutil.copy(REPLAY / "saving-twice" / "faulty.jsonl", run_file)
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*trajectory differs from the snapshot: 1 step added, 1 step changed*",
            "*  mcp__shop__save_address(customer_id=C-381, line1=42 Elm Street, ...)*",
            "*+ mcp__shop__save_address(customer_id=C-381, line1=42 Elm Street, ...)*",
            "*~ mcp__shop__get_customer(customer_id=C-381)*",
        ]
    )
    _run(pytester, "--snapshot-update").assert_outcomes(passed=1)
    assert stored.read_text() == str(trajectory(aa.load(run_file)))
    _run(pytester).assert_outcomes(passed=1)


def test_a_trajectory_with_other_limits_can_be_snapshotted(pytester: pytest.Pytester) -> None:
    shutil.copy(REPLAY / "query-timed-out" / "faulty.jsonl", pytester.path / "run.jsonl")
    pytester.makepyfile(
        test_limits="""
        import pytest
        from agenteval_assert.snapshot import trajectory

        @pytest.mark.transcript("run.jsonl")
        def test_short(transcript, transcript_snapshot):
            assert trajectory(transcript, excerpt=0) == transcript_snapshot

        def test_not_a_transcript(transcript_snapshot):
            assert {"a": 1} == transcript_snapshot
        """
    )
    result = _run(pytester, "--snapshot-update")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*TypeError: a trajectory snapshot compares a Transcript or a Trajectory, not dict*"])
    [stored] = (pytester.path / "__snapshots__" / "test_limits").glob("test_short*.trajectory")
    assert "| tool call timed out" not in stored.read_text()


def test_the_extension_can_be_used_with_syrupy_directly(pytester: pytest.Pytester) -> None:
    shutil.copy(REPLAY / "query-timed-out" / "faulty.jsonl", pytester.path / "run.jsonl")
    pytester.makepyfile(
        test_direct="""
        import agenteval_assert as aa
        from agenteval_assert.snapshot import TrajectoryExtension

        def test_it(snapshot):
            assert aa.load("run.jsonl") == snapshot(extension_class=TrajectoryExtension)
        """
    )
    _run(pytester, "--snapshot-update").assert_outcomes(passed=1)
    _run(pytester).assert_outcomes(passed=1)


def test_with_no_snapshot_yet_every_step_is_new() -> None:
    received = str(trajectory(aa.load(REPLAY / "saving-twice" / "faulty.jsonl")))
    assert step_diff(received, "") == [
        "trajectory differs from the snapshot: 3 steps added",
        "+ mcp__shop__save_address(customer_id=C-381, line1=42 Elm Street, ...)",
        "+ mcp__shop__save_address(customer_id=C-381, line1=42 Elm Street, ...)",
        "+ mcp__shop__get_customer(customer_id=C-381)",
    ]


def test_secrets_never_reach_a_snapshot() -> None:
    key = "sk-ant-api03-" + "Z" * 40
    t = T().user("go").call("Bash", command=f"export ANTHROPIC_API_KEY={key} && npm test", output=f"key={key}").say(key).done()
    text = str(trajectory(t))
    assert key not in text and "sk-ant-api03-ZZZ" not in text
    assert "Bash(export ANTHROPIC_API_KEY=[REDACTED anthropic-api-key] && npm test)" in text
