"""Semantics of every check_* function on small in-memory transcripts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agenteval_assert import checks as c
from agenteval_assert.exceptions import UsageError
from agenteval_assert.matchers import ANY, Call, Contains, Matches, Satisfies, Unordered
from agenteval_assert.model import Transcript
from agenteval_assert.results import Status

from ._build import T, calls
from ._opcount import growth

P, F, I, E = Status.PASS, Status.FAIL, Status.INCONCLUSIVE, Status.ERROR


def fix_tests() -> Transcript:
    return (
        T()
        .user("fix the failing test")
        .call("Read", file_path="/w/src/app.py")
        .call("Bash", command="npm test -- --ci", output="1 failed", error=True)
        .call("Edit", file_path="/w/src/app.py", old_string="a", new_string="b")
        .call("Bash", command="npm test -- --ci", output="12 passed")
        .say("Fixed. All 12 tests pass: https://ci.example.com/runs/7")
        .done()
    )


# -- tool called / counts -------------------------------------------------------------------


def test_tool_called_with_argument_matchers() -> None:
    t = fix_tests()
    r = c.check_tool_called(t, "Bash", command=Contains("npm test"))
    assert r.status is P
    assert [x.index for x in r.matched] == [1, 3]
    r = c.check_tool_called(t, "Bash", command=Matches(r"\bpytest\b"))
    assert r.status is F
    assert r.found == "none among 2 Bash calls (4 tool calls in total)"
    assert r.nearest_miss is not None
    assert r.nearest_miss.differences[0].path == "args.command"


@pytest.mark.parametrize(
    ("kw", "status", "expected"),
    [
        ({"times": 2}, P, "exactly 2 Bash calls"),
        ({"times": 1}, F, "exactly 1 Bash call"),
        ({"at_least": 2}, P, "at least 2 Bash calls"),
        ({"at_least": 3}, F, "at least 3 Bash calls"),
        ({"at_most": 2}, P, "at most 2 Bash calls"),
        ({"at_most": 1}, F, "at most 1 Bash call"),
        ({"at_least": 1}, P, "a Bash call"),
        ({"at_least": 1, "at_most": 2}, P, "between 1 and 2 Bash calls"),
    ],
)
def test_counts(kw: dict[str, Any], status: Status, expected: str) -> None:
    r = c.check_tool_called(fix_tests(), "Bash", **kw)
    assert r.status is status
    assert r.expected == expected


@pytest.mark.parametrize(
    "kw",
    [{"times": -1}, {"times": 1, "at_least": 1}, {"at_least": 3, "at_most": 2}, {"times": True}],
)
def test_bad_counts_are_usage_errors(kw: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        c.check_tool_called(fix_tests(), "Bash", **kw)


def test_unknown_tool_suggests_close_names() -> None:
    r = c.check_tool_called(fix_tests(), "Bsh")
    assert r.status is F
    assert "did you mean 'Bash'?" in r.notes
    assert "tools called: Bash (2), Read (1), Edit (1)" in r.notes


def test_tool_not_called() -> None:
    t = fix_tests()
    assert c.check_tool_not_called(t, "Write").status is P
    r = c.check_tool_not_called(t, "Edit")
    assert r.status is F
    assert r.summary == "expected no Edit call, found 1"
    assert c.check_tool_not_called(t, "Bash", command=Contains("rm -rf")).status is P


def test_subagent_calls_count_for_existence_but_not_for_order() -> None:
    t = T().user("go").call("Task", prompt="look").call("Grep", pattern="x", agent="a1").say("ok").done()
    assert c.check_tool_called(t, "Grep").status is P
    assert c.check_tool_called(t, "Grep", include_subagents=False).status is F
    assert c.check_tool_calls(t, ["Task", "Grep"], mode="exact_sequence").status is F
    assert c.check_tool_calls(t, ["Task", "Grep"], mode="exact_sequence", include_subagents=True).status is P
    assert c.check_tool_called(t, Call("Grep", agent="subagent")).status is P


# -- never a silent pass ---------------------------------------------------------------------

NEGATIVES = [
    lambda t, **kw: c.check_tool_not_called(t, "Write", **kw),
    lambda t, **kw: c.check_no_tool_calls(t, **kw) if not t.tool_calls else c.check_tool_called(t, "Write", at_most=0, **kw),
    lambda t, **kw: c.check_only_tools(t, ["Read", "Bash"], **kw),
    lambda t, **kw: c.check_tools_not_called(t, ["Write"], **kw),
    lambda t, **kw: c.check_never_after(t, "Read", "Write", **kw),
    lambda t, **kw: c.check_no_tool_errors(t, **kw),
    lambda t, **kw: c.check_file_not_changed(t, "x.py", **kw),
    lambda t, **kw: c.check_no_duplicate_calls(t, ["Bash"], **kw),
    lambda t, **kw: c.check_resources_allowed(t, ["Read"], path="file_path", allowed=["a.py"], **kw),
    lambda t, **kw: c.check_tool_calls(t, ["Read", "Bash"], mode="only_from", **kw),
    lambda t, **kw: c.check_tool_calls(t, [x.name for x in t.tool_calls], mode="exact_sequence", **kw),
    lambda t, **kw: c.check_budget(t, max_tool_calls=5, **kw),
]


def _partial_transcripts() -> dict[str, Transcript]:
    return {
        "empty": T().done(),
        "torn": T().user("go").call("Read", file_path="a.py").call("Bash", command="ls").torn().done(),
        "unanswered": T().user("go").call("Read", file_path="a.py").call("Bash", command="ls", answered=False).done(),
    }


@pytest.mark.parametrize("why", ["empty", "torn", "unanswered"])
@pytest.mark.parametrize("check", range(len(NEGATIVES)))
def test_negative_checks_are_inconclusive_on_partial_transcripts(why: str, check: int) -> None:
    t = _partial_transcripts()[why]
    r = NEGATIVES[check](t)
    assert r.status is I, r.render()
    assert r.summary.startswith("inconclusive: expected ")
    assert any("assume_complete=True" in n for n in r.notes)
    assert NEGATIVES[check](t, assume_complete=True).status is P


def test_inconclusive_result_points_at_the_unanswered_call() -> None:
    t = _partial_transcripts()["unanswered"]
    r = c.check_tool_not_called(t, "Write")
    assert r.summary == (
        "inconclusive: expected no Write call, found none, but the transcript 1 call(s) with no result"
    ) or r.summary.endswith("1 call(s) with no result")
    assert r.evidence[0].call_id == "toolu_02"


def test_positive_failure_on_partial_transcript_says_it_may_have_stopped() -> None:
    t = _partial_transcripts()["torn"]
    r = c.check_tool_called(t, "Write")
    assert r.status is F
    assert any(n.startswith("the transcript is incomplete") for n in r.notes)


def test_violation_is_a_failure_even_on_a_partial_transcript() -> None:
    t = _partial_transcripts()["torn"]
    assert c.check_tool_not_called(t, "Bash").status is F


def test_vacuous_passes_are_flagged() -> None:
    t = calls("Read")
    assert c.check_never_after(t, "Write", "Read").vacuous
    assert c.check_called_within(t, "Write", "Read", steps=1).vacuous
    assert c.check_confirmed_before_write(t, ["Write"]).vacuous
    assert c.check_no_duplicate_calls(t, ["Write"]).vacuous
    assert c.check_resources_allowed(t, ["Write"], path="x", allowed=[]).vacuous
    only = c.check_only_tools(T().user("hi").say("hello").done(), ["Read"])
    assert only.status is P and only.vacuous
    assert not c.check_tool_called(t, "Read").vacuous


def test_no_tool_calls() -> None:
    assert c.check_no_tool_calls(T().user("hi").say("hello").done()).status is P
    assert c.check_no_tool_calls(calls("Read")).status is F
    assert c.check_no_tool_calls(T().done()).status is I


def test_allow_and_deny_lists() -> None:
    t = fix_tests()
    assert c.check_only_tools(t, ["Read", "Bash", "Edit"]).status is P
    r = c.check_only_tools(t, ["Read", "Bash"])
    assert r.status is F and r.found == "1 other call (Edit ×1)"
    assert c.check_only_tools(t, ["Read", "Edit", Call("Bash", command=Contains("npm"))]).status is P
    assert c.check_tools_not_called(t, ["Write", "WebFetch"]).status is P
    assert c.check_tools_not_called(t, ["Write", Matches("^Ed")]).status is F
    with pytest.raises(UsageError):
        c.check_only_tools(t, "Read")  # a bare string is a mistake, not a list of letters


# -- order ---------------------------------------------------------------------------------


def test_order_modes() -> None:
    t = calls("Read", "Grep", "Edit", "Bash")
    ok = {
        ("exact_sequence", ("Read", "Grep", "Edit", "Bash")),
        ("in_order", ("Read", "Edit", "Bash")),
        ("in_order", ("Read", "Bash")),
        ("any_order", ("Bash", "Edit", "Grep", "Read")),
        ("covers", ("Bash", "Read")),
        ("only_from", ("Bash", "Read", "Grep", "Edit", "Write")),
    }
    bad = {
        ("exact_sequence", ("Read", "Grep", "Edit")),
        ("exact_sequence", ("Grep", "Read", "Edit", "Bash")),
        ("in_order", ("Edit", "Read")),
        ("any_order", ("Bash", "Edit", "Read")),
        ("covers", ("Bash", "Write")),
        ("covers", ("Bash", "Bash")),
        ("only_from", ("Bash", "Read", "Grep")),
    }
    for mode, exp in ok:
        assert c.check_tool_calls(t, list(exp), mode=mode).status is P, (mode, exp)
    for mode, exp in bad:
        assert c.check_tool_calls(t, list(exp), mode=mode).status is F, (mode, exp)


def test_repeated_calls_are_matched_optimally_not_first_come() -> None:
    t = T().user("go").call("Read", file_path="a.py").call("Read", file_path="b.py").say("ok").done()
    # Greedy would give the first Read (a.py) to the generic Read and then find no a.py left.
    expected = [Call("Read"), Call("Read", file_path="a.py")]
    for mode in ("covers", "any_order", "only_from"):
        r = c.check_tool_calls(t, expected, mode=mode)
        assert r.status is P, r.render()
    assert [x.arguments["file_path"] for x in c.check_tool_calls(t, expected, mode="covers").matched] == [
        "b.py",
        "a.py",
    ]


def test_in_order_failure_points_at_the_gap() -> None:
    t = calls("Edit", "Read", "Bash")
    r = c.check_tool_calls(t, ["Read", "Edit"])
    assert r.status is F
    assert r.found == "no Edit after #1 Read (expected call 2 of 2); calls were [Edit, Read, Bash]"
    assert "Edit was called at #0, before #1 Read (matched as expected call 1)" in r.notes


def test_exact_sequence_failure_has_a_nearest_miss() -> None:
    t = T().user("go").call("Read", file_path="a.py").call("Edit", file_path="b.py").say("x").done()
    r = c.check_tool_calls(t, ["Read", Call("Edit", file_path="a.py")], mode="exact_sequence")
    assert r.status is F
    assert r.nearest_miss is not None
    assert [(d.path, d.expected, d.found) for d in r.nearest_miss.differences] == [
        ("args.file_path", "'a.py'", "'b.py'")
    ]


def test_among_restricts_the_calls_considered() -> None:
    t = calls("Read", "TodoWrite", "Edit", "TodoWrite", "Bash")
    assert c.check_tool_calls(t, ["Read", "Edit", "Bash"], mode="exact_sequence").status is F
    r = c.check_tool_calls(t, ["Read", "Edit", "Bash"], mode="exact_sequence", among=["Read", "Edit", "Bash"])
    assert r.status is P


def test_args_mode_and_overrides_in_sequences() -> None:
    t = T().user("go").call("Write", file_path="a.py", content="x", ts=1).say("ok").done()
    exp = [Call("Write", file_path="a.py", content="x")]
    assert c.check_tool_calls(t, exp, mode="exact_sequence").status is P
    assert c.check_tool_calls(t, exp, mode="exact_sequence", args_mode="exact").status is F
    assert c.check_tool_calls(t, exp, mode="exact_sequence", args_mode="exact", overrides={"Write": ["file_path", "content"]}).status is P
    assert c.check_tool_calls(t, [Call("Write", file_path="zzz")], mode="covers", args_mode="ignore").status is P


def test_bad_mode_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="mode must be one of"):
        c.check_tool_calls(calls("Read"), ["Read"], mode="subset")


def test_before_after() -> None:
    t = calls("Read", "Edit", "Read", "Bash")
    assert c.check_called_before(t, "Read", "Edit").status is P
    assert c.check_called_before(t, "Edit", "Read").status is F
    assert c.check_called_before(t, "Read", "Edit", every=True).status is F  # a Read comes after the Edit
    assert c.check_called_after(t, "Bash", "Edit").status is P
    assert c.check_called_after(t, "Edit", "Bash").status is F
    r = c.check_called_before(t, "Read", "Write")
    assert r.status is F and r.found == "no Write call"


def test_within_and_never_after() -> None:
    t = calls("Edit", "Read", "Bash", "Edit", "Bash")
    assert c.check_called_within(t, "Edit", "Bash", steps=2).status is P
    r = c.check_called_within(t, "Edit", "Bash", steps=1)
    assert r.status is F
    assert r.evidence[0].text.endswith("next Bash is 2 calls later (#2)")
    assert c.check_never_after(t, "Bash", "Write").status is P
    r = c.check_never_after(t, "Bash", "Edit")
    assert r.status is F and r.found == "1 Edit call after #2"
    with pytest.raises(UsageError):
        c.check_called_within(t, "Edit", "Bash", steps=0)


# -- results -------------------------------------------------------------------------------


def test_succeeded_failed_and_retries() -> None:
    t = fix_tests()
    assert c.check_tool_succeeded(t, "Read").status is P
    assert c.check_tool_failed(t, "Bash").status is P
    assert c.check_tool_failed(t, "Read").status is F
    r = c.check_retried_after_failure(t, "Bash")
    assert r.status is P and [x.index for x in r.matched] == [1, 3]
    assert c.check_retried_after_failure(t, "Read").status is F
    t2 = T().user("x").call("Bash", command="a", error=True).call("Bash", command="b").say("x").done()
    assert c.check_retried_after_failure(t2, "Bash").status is F
    assert c.check_retried_after_failure(t2, "Bash", same_args=False).status is P
    assert c.check_no_tool_errors(t).status is F
    assert c.check_no_tool_errors(t, ignore_recovered=True).status is P
    assert c.check_no_tool_errors(t, tools=["Read", "Edit"]).status is P


def test_only_failed_calls_means_tool_succeeded_fails_with_outcomes() -> None:
    t = T().user("x").call("Bash", command="make", error=True, exit_code=2).say("x").done()
    r = c.check_tool_succeeded(t, "Bash")
    assert r.status is F
    assert r.found == "1 Bash call, 1 failed (exit code 2)"


def test_tool_output() -> None:
    t = fix_tests()
    assert c.check_tool_output(t, "Bash", contains="12 passed").status is P
    assert c.check_tool_output(t, "Bash", matches=r"\d+ passed").status is P
    r = c.check_tool_output(t, "Bash", contains="13 passed")
    assert r.status is F and r.name == "tool_output"
    with pytest.raises(UsageError):
        c.check_tool_output(t, "Bash")


# -- shell -------------------------------------------------------------------------------


def test_command_ran_matches_whole_words() -> None:
    t = fix_tests()
    assert c.check_command_ran(t, "npm test").status is P
    assert c.check_command_ran(t, "npm tes").status is F
    assert c.check_command_ran(t, Matches(r"npm\s+test\b.*--ci")).status is P
    assert c.check_command_succeeded(t, "npm test").status is P
    fail = T().user("x").call("Bash", command="npm run build", error=True, exit_code=1).say("x").done()
    r = c.check_command_succeeded(fail, "npm run build")
    assert r.status is F and r.found == "1 matching command, failed (exit code 1)"
    assert c.check_command_ran(fail, "npm run build", succeeded=False).status is P


# -- files -------------------------------------------------------------------------------


def test_claude_file_tools() -> None:
    t = (
        T().user("x")
        .call("Read", file_path="/w/src/a.ts")
        .call("Write", file_path="/w/src/b.ts", content="x")
        .call("MultiEdit", file_path="/w/src/a.ts", edits=[])
        .say("x").done()
    )
    assert c.check_file_read(t, "src/a.ts").status is P
    assert c.check_file_written(t, "src/b.ts").status is P
    assert c.check_file_edited(t, "/w/src/a.ts").status is P
    assert c.check_file_edited(t, "*.ts").status is P
    assert c.check_file_changed(t, Matches(r"b\.ts$")).status is P
    assert c.check_file_written(t, "a.ts").status is F
    assert c.check_file_read(t, "rc/a.ts").status is F  # path components, not substrings
    assert c.check_file_not_changed(t, "README.md").status is P
    assert c.check_file_not_changed(t, "src/b.ts").status is F


def test_codex_file_change_and_apply_patch() -> None:
    patch = "*** Begin Patch\n*** Add File: docs/new.md\n+hi\n*** Update File: src/x.py\n@@\n-a\n+b\n*** Delete File: old.txt\n*** End Patch"
    t = (
        T(fmt="codex-exec").user("x")
        .call("file_change", kind="file_edit", changes=[{"path": "/r/src/m.py", "kind": "update"}, {"path": "/r/n.py", "kind": "add"}])
        .call("apply_patch", kind="file_edit", raw_arguments=patch, args={})
        .call("command_execution", kind="shell", command=f"apply_patch <<'EOF'\n{patch.replace('docs/new.md', 'docs/other.md')}\nEOF")
        .say("x").done()
    )
    ev = [(e.op, e.path) for e in c.file_events(t)]
    assert ev == [
        ("edit", "/r/src/m.py"), ("write", "/r/n.py"),
        ("write", "docs/new.md"), ("edit", "src/x.py"), ("delete", "old.txt"),
        ("write", "docs/other.md"), ("edit", "src/x.py"), ("delete", "old.txt"),
    ]
    assert c.check_file_written(t, "n.py").status is P
    assert c.check_file_edited(t, "src/m.py").status is P
    assert c.check_file_written(t, "docs/other.md").status is P


def test_a_failed_write_is_not_a_write() -> None:
    t = (
        T().user("x")
        .call("Write", file_path="/etc/x.conf", content="x", error=True,
              output="EACCES: permission denied, open '/etc/x.conf'")
        .call("Edit", file_path="src/missing.ts", old_string="a", new_string="b", error=True,
              output="<tool_use_error>File does not exist.</tool_use_error>")
        .say("done").done()
    )
    assert [(e.op, e.path, e.succeeded) for e in c.file_events(t)] == [
        ("write", "/etc/x.conf", False), ("edit", "src/missing.ts", False)]
    r = c.check_file_written(t, "/etc/x.conf")
    assert r.status is F and r.found == "only 1 failed write"
    assert "counting successful events only (succeeded=None counts attempts)" in r.notes
    assert r.evidence[0].text.endswith("write /etc/x.conf, failed")
    assert c.check_file_edited(t, "src/missing.ts").status is F
    assert c.check_file_changed(t, "src/missing.ts").status is F
    assert c.check_file_written(t, "/etc/x.conf", succeeded=None).status is P  # attempts
    assert c.check_file_written(t, "/etc/x.conf", succeeded=False).status is P  # failed ones
    ok = c.check_file_not_changed(t, "/etc/x.conf")
    assert ok.status is P and ok.notes[0].startswith("1 failed attempt not counted as a change")
    assert c.check_file_not_changed(t, "/etc/x.conf", succeeded=None).status is F
    with pytest.raises(UsageError):
        c.check_file_written(t, "x", succeeded="yes")  # type: ignore[arg-type]


def test_a_write_without_a_recorded_outcome_is_undecided() -> None:
    t = T().user("x").call("Write", file_path="a.txt", content="x", answered=False).done()
    r = c.check_file_written(t, "a.txt")
    assert r.status is I and r.found == "1 write whose outcome the transcript does not record"
    assert c.check_file_written(t, "a.txt", succeeded=None).status is P
    assert c.check_file_not_changed(t, "a.txt").status is I


def test_shell_writes_are_file_events_through_the_shell() -> None:
    t = (
        T(fmt="codex-exec").user("x")
        .call("command_execution", kind="shell", command="/bin/bash -lc \"cd /w && sed -i 's/a/b/' src/x.ts\"",
              exit_code=0)
        .call("command_execution", kind="shell", command="echo hi > notes.md && cp notes.md docs/ && rm -rf build",
              exit_code=0)
        .call("command_execution", kind="shell", command="git checkout -- src/y.ts", exit_code=0)
        .call("command_execution", kind="shell", command="git restore lib", exit_code=0)
        .call("command_execution", kind="shell", command="patch -p1 <<'EOF'\n--- a/z.py\n+++ b/z.py\n@@\n-a\n+b\nEOF",
              exit_code=0)
        .call("command_execution", kind="shell", command="cat src/x.ts | head -5; sed -n '1,20p' README.md",
              exit_code=0)
        .say("done").done()
    )
    ev = [(e.op, e.path, e.via, e.succeeded) for e in c.file_events(t)]
    assert ev == [
        ("edit", "/w/src/x.ts", "shell", True),  # after cd /w
        ("write", "notes.md", "shell", True), ("read", "notes.md", "shell", True),
        ("write", "docs/notes.md", "shell", True), ("delete", "build", "shell", True),
        ("write", "src/y.ts", "shell", True),
        ("write", "lib", "shell", True),
        ("edit", "z.py", "shell", True),
        ("read", "src/x.ts", "shell", True), ("read", "README.md", "shell", True),
    ]
    r = c.check_file_not_changed(t, "src/x.ts")
    assert r.status is F and r.evidence[0].text.endswith("edit /w/src/x.ts (shell: sed -i 's/a/b/' src/x.ts)")
    assert c.check_file_edited(t, "src/x.ts").found == "#0 edit /w/src/x.ts through the shell"
    assert c.check_file_changed(t, "build/out/app.js").status is P  # under a directory removed with rm -r
    assert c.check_file_changed(t, "lib/util.ts").status is P  # git restore of a directory
    assert c.check_file_written(t, "docs/notes.md").status is P
    assert c.check_file_read(t, "README.md").status is P
    # `cat f | head`: the pipeline's status is head's, but the line succeeded and no read error shows
    assert c.check_file_read(t, "src/x.ts").status is P
    assert c.check_file_not_changed(t, "package.json").status is P


def test_a_read_before_the_last_command_succeeded_unless_the_output_shows_a_read_error() -> None:
    t = (
        T(fmt="codex-exec").user("x")
        .call("command_execution", kind="shell", command="nl -ba src/a.py | sed -n '1,5p'", exit_code=0,
              output="     1\timport os\n")
        .call("command_execution", kind="shell", command="cat src/b.py | head -3", exit_code=0,
              output="cat: src/b.py: No such file or directory\n")
        .call("command_execution", kind="shell", command="head -n 3 src/c.py; echo ok", exit_code=0,
              output="head: cannot open 'src/c.py' for reading: Permission denied\nok\n")
        .call("command_execution", kind="shell", command="cat src/d.py | grep zzz", exit_code=1, error=True,
              output="")
        .say("done").done()
    )
    assert [(e.path, e.succeeded) for e in c.file_events(t) if e.op == "read"] == [
        ("src/a.py", True), ("src/b.py", None), ("src/c.py", None), ("src/d.py", None)]
    assert c.check_file_read(t, "src/a.py").status is P
    r = c.check_file_read(t, "src/b.py")
    assert r.status is I and "pass succeeded=None to count these attempts" in r.render()
    assert c.check_file_read(t, "src/b.py", succeeded=None).status is P


def test_real_pipeline_reads_of_mini_swe_agent_count() -> None:
    t = _load(Path(__file__).resolve().parent.parent / "samples" / "mini-swe-agent" / "gemini3pro-1.15-django-16255.traj.json")
    r = c.check_file_read(t, "django/contrib/sitemaps/__init__.py")
    assert r.status is P, r.render()
    assert "nl -ba django/contrib/sitemaps/__init__.py | sed -n '150,180p'" in r.render()


def test_shell_outcome_is_attributed_only_where_the_exit_status_speaks_for_the_command() -> None:
    t = (
        T(fmt="codex-exec").user("x")
        .call("command_execution", kind="shell", command="sed -i s/a/b/ a.txt", exit_code=2, error=True)
        .call("command_execution", kind="shell", command="sed -i s/a/b/ b.txt; echo done", exit_code=0)
        .call("command_execution", kind="shell", command="sed -i s/a/b/ c.txt && pytest -q", exit_code=1, error=True)
        .call("command_execution", kind="shell", command="if true; then sed -i s/a/b/ d.txt; fi", exit_code=0)
        .say("done").done()
    )
    assert [(e.path, e.succeeded) for e in c.file_events(t)] == [
        ("a.txt", False), ("b.txt", None), ("c.txt", None), ("d.txt", None)]
    assert c.check_file_not_changed(t, "a.txt").status is P  # sed itself failed
    for path in ("b.txt", "c.txt", "d.txt"):
        assert c.check_file_not_changed(t, path).status is I, path
        assert c.check_file_not_changed(t, path, succeeded=None).status is F, path


def test_commands_that_may_write_unnamed_files_make_absence_inconclusive() -> None:
    t = (
        T(fmt="codex-exec").user("x")
        .call("command_execution", kind="shell", command="ls src && ./scripts/codegen.sh", exit_code=0)
        .call("command_execution", kind="shell", command="make build 2>&1 | tail -5", exit_code=0)
        .say("done").done()
    )
    r = c.check_file_not_changed(t, "src/x.ts")
    assert r.status is I
    assert r.summary == ("inconclusive: expected 'src/x.ts' not changed, found no change, but 2 commands that may "
                         "write files it does not name")
    assert [e.text for e in r.evidence] == [
        "#0 command_execution(command='ls src && ./scripts/codegen.sh')  runs the script ./scripts/codegen.sh",
        "#1 command_execution(command='make build 2>&1 | tail -5')  make runs build rules that may write any file",
    ]
    assert r.notes[-1] == ("pass ignore_unknown_writes=True to accept that these commands left the file alone, "
                           "or a list of the programs to trust (['codegen.sh', 'make build'])")
    # the list suggested is one that works
    assert c.check_file_not_changed(t, "src/x.ts", ignore_unknown_writes=["codegen.sh", "make build"]).status is P
    assert c.check_file_not_changed(t, "src/x.ts", ignore_unknown_writes=True).status is P
    plain = T(fmt="codex-exec").user("x").call("command_execution", kind="shell", command="npx tsc --noEmit",
                                                exit_code=0).say("ok").done()
    assert c.check_file_not_changed(plain, "src/x.ts").status is P  # a compiler is taken to write nothing


def test_gemini_file_tools() -> None:
    t = (
        T(fmt="gemini-session").user("x")
        .call("read_file", kind="file_read", absolute_path="/p/src/main.py")
        .call("read_many_files", kind="file_read", paths=["docs/a.md", "src/**/*.ts"])
        .call("write_file", kind="file_write", file_path="/p/out.txt", content="x")
        .say("done").done()
    )
    assert [(e.op, e.path, e.pattern) for e in c.file_events(t)] == [
        ("read", "/p/src/main.py", False), ("read", "docs/a.md", False), ("read", "src/**/*.ts", True),
        ("write", "/p/out.txt", False)]
    assert c.check_file_read(t, "src/main.py").status is P
    assert c.check_file_read(t, "docs/a.md").status is P
    assert c.check_file_read(t, "src/ui/button.ts").status is P  # matched by the glob it read
    assert c.check_file_written(t, "out.txt").status is P


def test_editor_tool_commands() -> None:
    t = (
        T(fmt="openhands").user("x")
        .call("str_replace_editor", kind="file_edit", command="view", path="/w/a.py")
        .call("str_replace_editor", kind="file_edit", command="create", path="/w/b.py", file_text="x")
        .say("done").done()
    )
    assert [(e.op, e.path) for e in c.file_events(t)] == [("read", "/w/a.py"), ("write", "/w/b.py")]
    assert c.check_file_edited(t, "a.py").status is F  # a view is not an edit


def test_file_events_are_extracted_once_per_transcript() -> None:
    t = T().user("x").call("Read", file_path="a").done()
    assert c.file_events(t) == c.file_events(t)
    assert t.derived("checks.file_events", lambda _: None) is not None


# -- final response, links, raw text --------------------------------------------------------


def test_final_response() -> None:
    t = fix_tests()
    assert c.check_final_response_contains(t, "12 tests pass").status is P
    assert c.check_final_response_contains(t, "ALL 12", ignore_case=True).status is P
    assert c.check_final_response_matches(t, r"\d+ tests pass").status is P
    r = c.check_final_response_not_contains(t, "12 tests")
    assert r.status is F
    assert r.found == "it does at character 11: Fixed. All 12 tests pass: https://ci.example.com/runs/7"
    assert c.check_final_response_not_contains(t, "sorry").status is P
    none = T().user("x").call("Read", file_path="a").done()
    assert c.check_final_response_contains(none, "x").status is F
    assert c.check_final_response_not_contains(none, "x").status is I


def test_links() -> None:
    t = fix_tests()
    assert c.check_link_present(t, "https://ci.example.com/runs/7").status is P
    assert c.check_link_present(t, "https://ci.example.com/*").status is P
    r = c.check_link_present(t, "https://ci.example.com/runs/8")
    assert r.status is F and r.found == "links [https://ci.example.com/runs/7]"
    assert c.check_link_absent(t, Matches("evil")).status is P
    assert c.check_link_absent(t).status is F
    t2 = T().user("x").say("See [docs](https://d.example.org/a). Done.").done()
    assert c.check_link_present(t2, "https://d.example.org/a").status is P


def test_raw_transcript_text(tmp_path: Path) -> None:
    f = tmp_path / "run.jsonl"
    f.write_text('{"a": 1}\n{"token": "sk-live-123"}\n', encoding="utf-8")
    t = T(path=str(f)).user("x").say("ok").done()
    assert c.check_transcript_contains(t, '"a": 1').status is P
    r = c.check_transcript_not_contains(t, "sk-live-")
    assert r.status is F
    assert r.evidence[0].location is not None and r.evidence[0].location.line == 2
    assert c.check_transcript_not_contains(t, Matches(r"AKIA[0-9A-Z]{16}")).status is P
    mem = T(path="<memory>").user("x").done()
    assert c.check_transcript_contains(mem, "x").status is E


# -- budgets, subagents, skills ------------------------------------------------------------


def test_budget() -> None:
    t = fix_tests()
    assert c.check_budget(t, max_tool_calls=4, max_steps=5).status is P
    r = c.check_budget(t, max_tool_calls=3)
    assert r.status is F and r.found == "4 tool calls (limit 3)"
    assert r.evidence[0].call_id == "toolu_04"
    assert c.check_budget(t, max_tokens=10).status is I  # no usage recorded: never estimated
    with pytest.raises(UsageError):
        c.check_budget(t)


def test_subagent_and_skill() -> None:
    t = (
        T().user("x")
        .call("Task", prompt="p", subagent_type="Explore", description="look around")
        .call("Skill", skill="storybook:write-stories")
        .call("command_execution", kind="shell", command="cat ~/.codex/skills/pdf-tools/SKILL.md")
        .say("x").done()
    )
    assert c.check_subagent_used(t).status is P
    assert c.check_subagent_used(t, type="Explore").status is P
    assert c.check_subagent_used(t, type="Plan").status is F
    assert c.check_subagent_used(calls("Read")).status is F
    assert c.check_skill_invoked(t, "write-stories").status is P
    assert c.check_skill_invoked(t, "storybook:write-stories").status is P
    assert c.check_skill_invoked(t, "pdf-tools").status is P
    r = c.check_skill_invoked(t, "docx")
    assert r.status is F and r.found == "skills [pdf-tools, storybook:write-stories]"


HANDMADE = Path(__file__).resolve().parent / "handmade"


def _load(path: Path) -> Transcript:
    import agenteval_assert as aa

    return aa.load(path)


def test_budget_counts_the_whole_run_by_default_and_says_so() -> None:
    t = _load(HANDMADE / "claude-stream-json-1.0.x-parallel-tasks.json")
    total, main = t.usage_total.total_tokens, t.usage.total_tokens
    assert total is not None and main is not None and total > 5 * main
    r = c.check_budget(t, max_tokens=total - 1)  # over, on the basis the cost figure has
    assert r.status is F and r.found == f"{total} tokens (limit {total - 1})"
    assert "tokens and cost: usage_total (the main agent and 3 subagents)" in r.notes
    assert c.check_budget(t, max_tokens=total).status is P
    r = c.check_budget(t, max_tokens=main, include_subagents=False)
    assert r.status is P and "tokens and cost: usage (the main agent)" in r.notes
    assert c.check_budget(t, max_cost_usd=0.41).status is F  # the result's cost counts the subagents
    assert c.check_budget(t, max_cost_usd=0.5, include_subagents=False).status is I  # no main-only cost


def test_budget_within_limits_is_inconclusive_when_a_subagents_usage_is_not_recorded(corpus: Path) -> None:
    t = _load(corpus / "claude-session-log/agentcmd-2.0.29-task-plan.jsonl")
    r = c.check_budget(t, max_tokens=10**9, assume_complete=True)
    assert r.status is I
    assert r.summary.endswith("but the log records no usage for 1 subagent (862cae62)")
    assert c.check_budget(t, max_tokens=1000, assume_complete=True).status is F  # already over without it
    assert c.check_budget(t, max_tokens=10**9, include_subagents=False, assume_complete=True).status is P


def test_a_run_that_ended_in_a_run_level_error_proves_no_absence() -> None:
    t = _load(HANDMADE / "claude-stream-json-2.1.x-api-error.jsonl")
    assert t.steps  # the synthetic API-error line is a step: the transcript is not empty
    for r in (c.check_tool_not_called(t, "Bash"), c.check_no_tool_errors(t),
              c.check_file_not_changed(t, "src/x.ts"), c.check_no_tool_calls(t),
              c.check_only_tools(t, ["Read"]), c.check_budget(t, max_steps=10)):
        assert r.status is I, r.render()
        assert "the run ended in a run-level error at " in r.summary
        assert "claude-stream-json-2.1.x-api-error.jsonl:5" in r.summary
    assert c.check_tool_not_called(t, "Bash", assume_complete=True).status is P


def test_a_run_error_the_agent_recovered_from_does_not_block_absence() -> None:
    b = T()
    b.b.error("API error: overloaded", b._next())
    t = b.user("go").call("Read", file_path="a").say("done").done()
    assert t.errors and t.run_error is None
    assert c.check_tool_not_called(t, "Bash").status is P


def test_final_response_checks_judge_the_text_after_the_last_call(corpus: Path) -> None:
    # a real session whose last text precedes two more calls (both failed): the corpus contract
    # keeps that text as final_response, but it is not what the run ended on
    t = _load(corpus / "claude-session-log/spotter-2.1.38-short.jsonl")
    said = "Let me check the project structure and try running the server to see the error."
    assert t.final_response == said and t.final_answer is None
    r = c.check_final_response_contains(t, "project structure")
    assert r.status is F
    assert r.found == "no text after the last tool call (the last assistant text comes before 2 more calls)"
    assert r.evidence[0].location is not None and r.evidence[0].location.line == 7
    assert c.check_final_response_matches(t, "server").status is F
    assert c.check_final_response_not_contains(t, "sorry").status is I
    assert c.check_link_present(t, "https://x.example").status is F
    from agenteval_assert._health import check_final_response

    assert check_final_response(t).status is F  # the built-in check agrees
    ok = fix_tests()
    assert ok.final_answer == ok.final_response
    assert c.check_final_response_contains(ok, "12 tests pass").status is P


def test_final_response_missing_on_an_incomplete_run_is_inconclusive(corpus: Path) -> None:
    t = _load(corpus / "claude-session-log/agentcmd-2.0.14-bash-read-mcp.jsonl")  # 3 calls unanswered
    assert t.final_answer is None and not t.health.complete
    r = c.check_final_response_contains(t, "source code")
    assert r.status is I and "call(s) with no result" in " ".join(r.notes)


def test_skill_invoked_as_a_slash_command() -> None:
    t = _load(HANDMADE / "claude-session-2.1.x-slash-skill.jsonl")
    r = c.check_skill_invoked(t, "release-notes")
    assert r.status is P and r.found == "shop-tools:release-notes (slash command, line 2)"
    assert r.evidence[0].location is not None and r.evidence[0].location.line == 2
    assert c.check_skill_invoked(t, "shop-tools:release-notes").status is P
    assert c.check_skill_invoked(t, "changelog").status is F


def test_nearest_miss_is_the_most_alike_not_the_first() -> None:
    t = (T().user("close the issue").call("Bash", command="git log --oneline -10")
         .call("Bash", command="bd dep add shop-12 shop-9").call("Bash", command="ls -la").say("ok").done())
    r = c.check_tool_called(t, "Bash", command=Contains("bd close"))
    assert r.nearest_miss is not None
    assert r.nearest_miss.evidence.call_id == "toolu_02"  # bd dep add, not the first Bash call
    r = c.check_tool_called(t, "Bash", command=Contains("git status"))
    assert r.nearest_miss is not None and r.nearest_miss.evidence.call_id == "toolu_01"


def test_subagent_calls_are_marked_and_main_only_counts_say_what_they_leave_out() -> None:
    t = _load(HANDMADE / "claude-stream-json-1.0.x-parallel-tasks.json")
    r = c.check_tool_not_called(t, "Read")
    assert r.status is F and r.found == "9"
    assert r.evidence[0].text.endswith("[error]  [subagent toolu_task_api]")
    assert ("main agent 0 of 9 (the others are subagents' calls); include_subagents=False counts the "
            "main agent alone") in r.notes
    r = c.check_called_before(t, "Task", "Read")  # order checks look at the main agent by default
    assert r.status is F
    assert ("main agent 3 of 12: subagents made 9 more matching calls, not counted here; "
            "include_subagents=True counts them") in r.notes
    assert c.check_called_before(t, "Task", "Read", include_subagents=True).status is P
    plain = fix_tests()
    assert c.check_tool_called(plain, "Bash").notes == ()  # no subagent, no hint


def test_descriptions_take_the_right_article() -> None:
    t = T().user("x").say("y").done()
    assert c.check_tool_called(t, "AskUserQuestion").expected == "an AskUserQuestion call"
    assert c.check_tool_called(t, "Edit").expected == "an Edit call"
    assert c.check_tool_called(t, "Bash").expected == "a Bash call"
    assert c.check_tool_not_called(t, "Edit", assume_complete=True).expected == "no Edit call"
    assert c.check_tool_called(t, "Edit", at_least=2).expected == "at least 2 Edit calls"
    assert c.check_tool_succeeded(t, "Edit").found == "no Edit call"


# -- business-flow safety ------------------------------------------------------------------

SAVE = "mcp__shop__save_address"


def test_confirmation_before_write() -> None:
    ok = (
        T().user("save my new address: 1 Main St")
        .say("Save 1 Main St as your default address?")
        .user("yes please")
        .call(SAVE, address="1 Main St")
        .say("Saved.").done()
    )
    assert c.check_confirmed_before_write(ok, [SAVE]).status is P
    no = T().user("yes, save my new address: 1 Main St").call(SAVE, address="1 Main St").say("Saved.").done()
    r = c.check_confirmed_before_write(no, [SAVE])
    assert r.status is F  # the task prompt is not a confirmation
    assert c.check_confirmed_before_write(no, [SAVE], include_prompt=True).status is P
    twice = (
        T().user("save").say("ok?").user("yes").call(SAVE, address="a").call(SAVE, address="b").say("x").done()
    )
    assert c.check_confirmed_before_write(twice, [SAVE]).status is F
    assert c.check_confirmed_before_write(twice, [SAVE], per_write=False).status is P
    asked = (
        T().user("save")
        .call("AskUserQuestion", questions=[{"question": "Save?"}], output='User answered: "Save?"="Yes"')
        .call(SAVE, address="a").say("x").done()
    )
    assert c.check_confirmed_before_write(asked, [SAVE]).status is P
    refused = T().user("save").say("Sure?").user("no, do not").call(SAVE, address="a").say("x").done()
    assert c.check_confirmed_before_write(refused, [SAVE]).status is F


def test_no_duplicate_calls() -> None:
    t = T().user("x").call(SAVE, address="a", zip="1").call(SAVE, zip="1", address="a").say("x").done()
    r = c.check_no_duplicate_calls(t, [SAVE])
    assert r.status is F
    assert "same tool and arguments as #0 (run.jsonl:2)" in r.evidence[1].text
    retry = T().user("x").call(SAVE, address="a", error=True).call(SAVE, address="a").say("x").done()
    assert c.check_no_duplicate_calls(retry, [SAVE]).status is P
    assert c.check_no_duplicate_calls(retry, [SAVE], ignore_failed=False).status is F


def test_resources_allowed() -> None:
    t = (
        T().user("x")
        .call("mcp__shop__get_order", order_id="A-1001")
        .call("mcp__shop__get_order", order_id="B-2002")
        .call("mcp__shop__refund", items=[{"order_id": "A-1001"}])
        .say("x").done()
    )
    r = c.check_resources_allowed(t, ["get_order"], path="order_id", allowed={"A-1001"})
    assert r.status is F
    assert r.evidence[0].text.endswith("order_id = 'B-2002' not allowed")
    assert c.check_resources_allowed(t, ["refund"], path="$.items[*].order_id", allowed=["A-1001"]).status is P
    assert c.check_resources_allowed(t, ["get_order"], path="order_id", allowed=Matches("^[AB]-")).status is P
    assert c.check_resources_allowed(t, ["refund"], path="order_id", allowed=["A-1001"]).status is F
    assert c.check_resources_allowed(t, ["refund"], path="order_id", allowed=["A-1001"], missing_ok=True).status is P


def test_failures_not_reported_as_success() -> None:
    base = T().user("refund order 7").call("mcp__shop__refund", order_id="7", output="Error: upstream timed out after 30s")
    lying = base.say("Your refund for order 7 has been processed.").done()
    r = c.check_failures_not_reported_as_success(lying)
    assert r.status is F
    assert r.evidence[0].call_id == "toolu_01"
    honest = (
        T().user("refund order 7").call("mcp__shop__refund", order_id="7", output="Error: upstream timed out after 30s")
        .say("The refund request timed out; nothing was charged. Shall I try again?").done()
    )
    assert c.check_failures_not_reported_as_success(honest).status is P
    recovered = (
        T().user("x").call("mcp__shop__refund", order_id="7", error=True, output="timeout")
        .call("mcp__shop__refund", order_id="7", output="refunded").say("Refunded.").done()
    )
    r = c.check_failures_not_reported_as_success(recovered)
    assert r.status is P and r.vacuous
    denied = T().user("x").call("Bash", command="rm x", status="declined", output="denied").say("Removed x.").done()
    assert c.check_failures_not_reported_as_success(denied).status is F


# -- errors from caller-supplied code ----------------------------------------------------------


def test_a_raising_predicate_is_an_error_result_not_a_crash() -> None:
    def boom(v: Any) -> bool:
        raise KeyError("nope")

    r = c.check_tool_called(fix_tests(), "Bash", command=Satisfies(boom))
    assert r.status is E
    assert r.summary == "error: the check could not run: KeyError: 'nope'"


def test_regex_timeout_is_an_error_result() -> None:
    t = T().user("x").call("Bash", command="a" * 40).say("x").done()
    r = c.check_tool_called(t, "Bash", command=Matches(r"(?:(?:a|aa)+)+b", timeout=0.05))
    assert r.status is E
    assert "RegexTimeoutError" in r.summary


def test_results_are_deterministic() -> None:
    a = c.check_tool_calls(fix_tests(), ["Edit", "Read", "Write"], mode="any_order").render()
    b = c.check_tool_calls(fix_tests(), ["Edit", "Read", "Write"], mode="any_order").render()
    assert a == b


def test_any_argument_value_spec() -> None:
    t = fix_tests()
    assert c.check_tool_called(t, "Edit", old_string=ANY, new_string=ANY).status is P


def test_command_ran_on_the_parsed_program_subcommand_and_flags() -> None:
    t = (
        T().user("x")
        .call("Bash", command="/bin/bash -lc 'cd app && npx storybook ai test --json --port=6006 2>&1 | tail -5'")
        .call("Bash", command="git commit -m 'fix: x' --no-verify", error=True, exit_code=1)
        .say("x").done()
    )
    assert c.check_command_ran(t, program="npx", subcommand="storybook ai test").status is P
    assert c.check_command_ran(t, program="npx", subcommand="storybook ai build").status is F
    assert c.check_command_ran(t, program="npx", flags=["--json"]).status is P
    assert c.check_command_ran(t, program="npx", flags={"--port": "6006", "--watch": False}).status is P
    assert c.check_command_ran(t, program="npx", flags={"--json": False}).status is F
    assert c.check_command_ran(t, program="git", subcommand="commit", flags={"-m": Matches("^fix")}).status is P
    assert c.check_command_ran(t, "git commit", program="git", flags=["--no-verify"], succeeded=False).status is P
    assert c.check_command_succeeded(t, program="git").status is F
    assert c.check_command_ran(t, program="tail").status is P  # a command inside a pipeline counts
    with pytest.raises(UsageError):
        c.check_command_ran(t)
    with pytest.raises(UsageError):
        c.check_command_ran(t, subcommand="test")


def test_shell_redirections_are_file_events() -> None:
    t = (
        T().user("x")
        .call("Bash", command="echo hi > notes.txt && echo more >> notes.txt 2>/dev/null")
        .call("Bash", command="npm test 2>&1 | tee -a test.log")
        .say("x").done()
    )
    assert [(e.op, e.path) for e in c.file_events(t)] == [
        ("write", "notes.txt"), ("edit", "notes.txt"), ("edit", "test.log"),
    ]
    assert c.check_file_written(t, "notes.txt").status is P
    assert c.check_file_not_changed(t, "test.log").status is F


def test_checks_do_linear_work_in_the_number_of_calls() -> None:
    """Count predicate evaluations instead of timing: no check may look at a call per call."""

    def transcript(n: int) -> Transcript:
        t = T().user("go")
        for i in range(n):
            t.call("Bash" if i % 3 else "Read", command=f"echo {i}", file_path=f"f{i}.py", error=i % 7 == 0)
        return t.say("done").done()

    n = 3000
    tr = transcript(n)
    seen = [0]

    def counted(v: object) -> bool:
        seen[0] += 1
        return False

    spy = Call("Bash", command=Satisfies(counted))
    c.check_tool_calls(tr, ["Read", spy, "Read"], mode="in_order")
    assert seen[0] <= 2 * n  # the greedy scan looks at each call at most once, the nearest miss once more
    seen[0] = 0
    c.check_tool_calls(tr, [spy, spy, "Read"], mode="covers")
    assert seen[0] <= 2 * n  # each expected call checks only its tool's candidates once
    seen[0] = 0
    c.check_tool_called(tr, spy)
    assert seen[0] <= 2 * n  # the candidates, plus the nearest-miss pass

    # One failure in seven: a scan per failure over every call would be quadratic (16x the
    # calls for 4x the transcript); one pass is linear. Counted calls, not time.
    def failure_checks(t: Transcript) -> None:
        c.check_no_tool_errors(t, ignore_recovered=True)
        c.check_failures_not_reported_as_success(t)
        c.check_retried_after_failure(t, "Bash", same_args=False)

    small, large = transcript(n // 4), tr
    ratio = growth(lambda: failure_checks(small), lambda: failure_checks(large))
    assert ratio <= 4 * 1.1, f"4x the calls made {ratio:.2f}x the work"


CORPUS_DIRS = ("claude-session-log", "claude-stream-json", "codex-exec-json", "codex-rollout", "gemini-cli")


def _battery(t: Transcript) -> list[Any]:
    first = t.tool_calls[0].name if t.tool_calls else "Bash"
    return [
        c.check_tool_called(t, first),
        c.check_tool_called(t, first, at_most=1),
        c.check_tool_not_called(t, "Write", content=Contains("secret")),
        c.check_tool_calls(t, [first, "Bash", "Read"], mode="in_order"),
        c.check_tool_calls(t, [first, "Bash", "Read"], mode="covers"),
        c.check_tool_calls(t, [first, "Bash", "Read"], mode="only_from"),
        c.check_tool_calls(t, [x.name for x in t.tool_calls], mode="any_order"),
        c.check_called_before(t, "Read", "Edit"),
        c.check_called_within(t, "Edit", "Bash", steps=3),
        c.check_never_after(t, first, "Write"),
        c.check_no_tool_errors(t, ignore_recovered=True),
        c.check_retried_after_failure(t, "Bash", same_args=False),
        c.check_command_ran(t, program="git"),
        c.check_command_ran(t, Matches(r"\btest\b")),
        c.check_file_changed(t, "*.ts*"),
        c.check_file_not_changed(t, "package.json"),
        c.check_final_response_contains(t, "done", ignore_case=True),
        c.check_final_response_not_contains(t, "sorry"),
        c.check_link_absent(t),
        c.check_transcript_not_contains(t, Matches(r"sk-ant-[A-Za-z0-9]{20,}")),
        c.check_budget(t, max_tool_calls=1000, max_tokens=10**9),
        c.check_subagent_used(t),
        c.check_skill_invoked(t, "pdf"),
        c.check_no_duplicate_calls(t, [first]),
        c.check_failures_not_reported_as_success(t),
        c.check_confirmed_before_write(t, ["Write", "Edit"]),
        c.check_resources_allowed(t, ["Read"], path="file_path", allowed=Matches("^/")),
    ]


def test_every_check_runs_on_the_real_corpus(corpus: Path) -> None:
    files = sorted(p for d in CORPUS_DIRS for p in (corpus / d).iterdir() if p.is_file())
    assert len(files) >= 15
    import agenteval_assert as aa

    statuses: dict[Status, int] = dict.fromkeys(Status, 0)
    for p in files:
        t = aa.load(p)
        for r in _battery(t):
            assert r.status is not E, f"{p.name}: {r.render()}"  # no check crashes on real data
            text = r.render()
            assert text.splitlines()[0].startswith(("expected ", "inconclusive: expected "))
            assert len(text.splitlines()) <= 40  # bounded, however long the transcript
            statuses[r.status] += 1
    assert statuses[P] and statuses[F] and statuses[I]  # the battery decides both ways on real data


def test_unordered_groups_inside_sequences() -> None:
    ok = calls("Read", "Glob", "Grep", "Edit")
    exp = ["Read", Unordered("Grep", "Glob"), "Edit"]
    assert c.check_tool_calls(ok, exp, mode="exact_sequence").status is P
    assert c.check_tool_calls(ok, exp, mode="in_order").status is P
    split = calls("Read", "Glob", "Edit", "Grep")
    r = c.check_tool_calls(split, exp, mode="exact_sequence")
    assert r.status is F and r.found == "[Read, Glob, Edit, Grep]: positions 2-3 are not {Grep, Glob}"
    r = c.check_tool_calls(split, exp, mode="in_order")
    assert r.status is F
    assert r.found.startswith("no Edit after #3 Grep (expected step 3 of 3")
    gaps = calls("Read", "Glob", "Bash", "Grep", "Bash", "Edit")
    assert c.check_tool_calls(gaps, exp, mode="in_order").status is P
    assert c.check_tool_calls(gaps, exp, mode="exact_sequence").status is F
    assert c.check_tool_calls(gaps, exp, mode="covers").status is P  # groups flatten elsewhere
    missing = calls("Read", "Glob", "Edit")
    r = c.check_tool_calls(missing, exp, mode="in_order")
    assert r.status is F and "missing Grep" in r.found


def test_unordered_groups_match_optimally() -> None:
    t = T().user("go").call("Read", file_path="a.py").call("Read", file_path="b.py").call("Edit", file_path="a.py").say("x").done()
    exp = [Unordered(Call("Read"), Call("Read", file_path="a.py")), "Edit"]
    for mode in ("exact_sequence", "in_order"):
        r = c.check_tool_calls(t, exp, mode=mode)
        assert r.status is P, r.render()
    assert repr(Unordered("Grep", Call("Glob", pattern="*.py"))) == "Unordered('Grep', Call('Glob', pattern='*.py'))"
    with pytest.raises(UsageError):
        Unordered()


# -- shell commands the file checks must not misread ----------------------------------------------


def _codex_run(tmp_path: Path, *commands: str, exit_code: int = 0) -> Transcript:
    """A complete ``codex exec --json`` run of *commands*, read by the real parser."""
    import json

    import agenteval_assert as aa

    records: list[dict[str, Any]] = [{"type": "thread.started", "thread_id": "t"}]
    for k, cmd in enumerate(commands):
        records.append({"type": "item.completed", "item": {
            "id": f"i{k}", "type": "command_execution", "command": cmd, "aggregated_output": "",
            "exit_code": exit_code, "status": "completed" if exit_code == 0 else "failed"}})
    records += [{"type": "item.completed", "item": {"id": "m", "type": "agent_message", "text": "done"}},
                {"type": "turn.completed", "usage": {}}]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return aa.load(path)


@pytest.mark.parametrize("command", ["true || rm src/app.ts", "grep -q X src/app.ts || echo X >> src/app.ts"])
def test_a_command_after_or_on_a_line_that_succeeded_may_not_have_run(tmp_path: Path, command: str) -> None:
    t = _codex_run(tmp_path, command)
    assert c.check_file_changed(t, "src/app.ts").status is I
    assert c.check_file_not_changed(t, "src/app.ts").status is I
    assert c.check_file_changed(t, "src/app.ts", succeeded=None).status is P


@pytest.mark.parametrize("command", [
    "cd src && echo x > app.ts", "cd /repo/src && sed -i s/a/b/ app.ts", "cd src && rm -f app.ts",
    "git -C src checkout -- app.ts", "sed -i s/a/b/ src/{app,other}.ts", "cd src && perl -0pi -e s/a/b/ app.ts",
    "/bin/bash -lc 'cd src && awk -i inplace \"{print}\" app.ts'",
])
def test_relative_paths_after_a_change_of_folder_are_changes_of_the_file(tmp_path: Path, command: str) -> None:
    t = _codex_run(tmp_path, command)
    r = c.check_file_not_changed(t, "src/app.ts")
    assert r.status is F, r.render()
    assert c.check_file_changed(t, "src/app.ts").status is P
    assert c.check_file_not_changed(t, "lib/app.ts").status is P


@pytest.mark.parametrize("command", ['cd "$PKG" && rm -f app.ts', "cd - && sed -i s/a/b/ app.ts",
                                     "if [ -d src ]; then cd src; fi; rm app.ts"])
def test_a_change_in_a_folder_the_line_does_not_fix_makes_absence_inconclusive(tmp_path: Path, command: str) -> None:
    t = _codex_run(tmp_path, command)
    r = c.check_file_not_changed(t, "lib/app.ts")
    assert r.status is I, r.render()
    assert "in a folder the command line does not fix" in r.evidence[0].text


def _shell_session(*commands: str | tuple[str, dict[str, Any]], agent: str = "claude-code", **metadata: Any
                   ) -> Transcript:
    """One shell call per command (``Bash`` for Claude Code, ``shell`` otherwise); a tuple gives
    the call's keyword arguments for ``T.call`` too."""
    t = T(agent=agent, **metadata).user("go")
    for item in commands:
        command, kw = item if isinstance(item, tuple) else (item, {})
        kw = dict(kw)
        args = {"command": command, **kw.pop("args", {})}
        t.call("Bash" if agent == "claude-code" else "shell", kind="shell", args=args, **kw)
    return t.say("done").done()


def _paths(t: Transcript) -> list[str]:
    return [e.path for e in c.file_events(t) if e.op != "read"]


@pytest.mark.parametrize("agent", ["claude-code", "swe-agent", "openhands"])
def test_a_cd_alone_in_one_call_moves_the_next_calls_of_an_agent_whose_shell_persists(agent: str) -> None:
    t = _shell_session("cd src", "rm app.ts", "cd ../lib && touch a.ts", "echo x > b.ts", agent=agent)
    assert _paths(t) == ["src/app.ts", "lib/a.ts", "lib/b.ts"]
    r = c.check_file_not_changed(t, "src/app.ts")
    assert r.status is F, r.render()
    assert c.check_file_not_changed(t, "lib/app.ts").status is P


@pytest.mark.parametrize("agent", ["codex", "gemini-cli", "mini-swe-agent", "opencode", "amp", "cursor-cli"])
def test_an_agent_that_runs_each_call_in_a_fresh_shell_is_not_followed_across_calls(agent: str) -> None:
    t = _shell_session("cd src", "rm app.ts", agent=agent)
    assert _paths(t) == ["app.ts"]
    assert c.check_file_not_changed(t, "src/app.ts").status is P


@pytest.mark.parametrize(("args", "path"), [
    ({"workdir": "/repo/src"}, "/repo/src/app.ts"),  # Codex shell / exec_command
    ({"workdir": "/repo"}, "app.ts"),  # the session's own folder
    ({"working_directory": "src"}, "src/app.ts"),  # Codex local_shell_call
    ({"directory": "src"}, "src/app.ts"),  # Gemini run_shell_command, relative to the project
    ({"workingDirectory": "/elsewhere/src/"}, "/elsewhere/src/app.ts"),  # Cursor
])
def test_a_fresh_shell_runs_in_the_folder_its_call_names(args: dict[str, str], path: str) -> None:
    t = _shell_session(("rm app.ts", {"args": args}), "rm other.ts", agent="codex", cwd="/repo")
    assert _paths(t) == [path, "other.ts"]


def test_a_fresh_shell_folder_applies_to_a_patch_through_the_shell() -> None:
    patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: app.ts\n@@\n-a\n+b\n*** End Patch\nEOF"
    t = _shell_session((patch, {"args": {"workdir": "/repo/src"}}), agent="codex", cwd="/repo")
    assert _paths(t) == ["/repo/src/app.ts"]
    assert c.check_file_not_changed(t, "src/app.ts").status is F


@pytest.mark.parametrize(("version", "paths", "status"), [
    # Claude Code 2 moves its shell only after a command line that exits 0 (``cmd && pwd -P``)
    ({"version": "2.0.27"}, ["app.ts"], P),
    ({"claude_code_version": "2.1.220"}, ["app.ts"], P),
    # before, or when the log does not say: the cd may have run
    ({"version": "1.0.98"}, ["app.ts"], I),
    ({}, ["app.ts"], I),
])
def test_a_failed_command_line_leaves_the_folder_a_guess_unless_claude_code_2_kept_it(
    version: dict[str, str], paths: list[str], status: Status
) -> None:
    t = _shell_session(("cd src && tsc --noEmit", {"error": True, "output": "1 error"}), "rm app.ts", **version)
    assert _paths(t) == paths
    r = c.check_file_not_changed(t, "src/app.ts")
    assert r.status is status, r.render()
    if status is I:
        assert "call #0 failed: its cd may not have run" in r.evidence[0].text


@pytest.mark.parametrize(("first", "why"), [
    ('cd "$PKG"', "after 'cd \"$PKG\"', a folder only known when it runs, in call #0"),
    ("cd -", "after 'cd -', a folder the command line does not show, in call #0"),
    ("test -d src && cd src; true", "after a cd that may not have run, in call #0"),
])
def test_a_folder_an_earlier_call_left_unknown_makes_later_absence_inconclusive(first: str, why: str) -> None:
    t = _shell_session(first, "rm app.ts", "cat notes.md")
    r = c.check_file_not_changed(t, "lib/app.ts")
    assert r.status is I, r.render()
    assert r.evidence[0].text.endswith(f"changes app.ts in a folder the command line does not fix ({why})")
    assert c.check_file_not_changed(t, "lib/app.ts", ignore_unknown_writes=True).status is P
    # an absolute cd fixes the folder again
    t = _shell_session(first, "cd /repo", "rm app.ts")
    assert _paths(t) == ["/repo/app.ts"]
    assert c.check_file_not_changed(t, "lib/app.ts").status is P


def test_the_folder_of_an_agent_whose_shell_is_not_known_to_persist_or_not_is_a_guess_after_a_cd() -> None:
    t = _shell_session("cd src", "rm app.ts", agent="openai-api")
    r = c.check_file_not_changed(t, "lib/app.ts", assume_complete=True)
    assert r.status is I, r.render()
    assert "call #0 moved its shell, and openai-api's shell may keep its folder" in r.evidence[0].text
    assert c.check_file_not_changed(_shell_session("ls", "rm app.ts", agent="openai-api"), "lib/app.ts",
                                    assume_complete=True).status is P


def test_subagents_background_commands_and_declined_calls_do_not_move_the_main_shell() -> None:
    t = (T().user("go")
         .call("Bash", command="cd src")
         .call("Bash", command="cd /elsewhere", agent="sub-1")  # a subagent has its own shell
         .call("Bash", command="rm a.ts", agent="sub-1")
         .call("Bash", command="cd lib && npm run dev", run_in_background=True)  # a shell of its own
         .call("Bash", command="cd /nowhere", status="declined", output="The user declined")
         .call("Bash", command="rm b.ts")
         .say("done").done())
    assert _paths(t) == ["/elsewhere/a.ts", "src/b.ts"]


def test_claude_code_moving_its_shell_back_into_the_project_is_followed() -> None:
    t = _shell_session(("cd /tmp", {"output": "Shell cwd was reset to /repo"}), "rm app.ts")
    assert _paths(t) == ["/repo/app.ts"]


def test_a_real_codex_rollout_shell_call_runs_in_its_workdir(corpus: Path) -> None:
    """Codex's ``shell`` tool runs each command in the ``workdir`` the call names: ``cat
    package.json`` there reads the package of ``apps/spectora-labs``, not the repository's."""
    import agenteval_assert as aa

    t = aa.load(corpus / "codex-rollout" / "agentcmd-rollout-0.40-0199812e.jsonl")
    root = t.metadata["cwd"]
    [call] = [x for x in t.tool_calls if x.command == "zsh -lc 'cat package.json'"]
    assert call.arguments["workdir"] == root + "/apps/spectora-labs"
    r = c.check_file_read(t, "apps/spectora-labs/package.json")
    assert r.status is P, r.render()
    assert [e.path for e in c.file_events(t) if e.call is call] == [root + "/apps/spectora-labs/package.json"]
    # a call in the session's own folder keeps its relative paths
    assert "packages/utils/src/fetcher.ts" in [e.path for e in c.file_events(t)]


def test_the_folder_carried_across_a_real_claude_code_session_is_the_one_it_recorded(corpus: Path) -> None:
    """Claude Code writes its shell's folder in every record of a session log (``cwd``): in this
    one a failed ``cd apps/app && pnpm test`` leaves it where it was, the same line that succeeds
    moves it; the folder carried from call to call is the one recorded."""
    import agenteval_assert as aa
    from agenteval_assert.checks._files import _Folders
    from agenteval_assert.shell import file_effects

    path = corpus / "claude-session-log" / "agentcmd-2.0.27-edit-heavy.jsonl"
    recorded = [json.loads(line).get("cwd") for line in path.read_text(encoding="utf-8").splitlines()]
    root = recorded[0] or recorded[1]

    def rel(folder: str) -> str:
        return "" if folder == root else folder.removeprefix(root + "/")

    t = aa.load(path)
    bash = [call for call in t.tool_calls if call.name == "Bash"]
    assert [(call.command, call.is_error) for call in bash] == [
        ("cd apps/app && pnpm test NavUser.test.tsx", True), ("cd apps/app && pnpm test NavUser.test.tsx", False)]
    folders = _Folders(t)
    for call in bash:
        start = folders.start(call)
        assert (start.path, start.why) == (rel(recorded[call.location.line - 1]), None)
        folders.after(call, start, file_effects(call.command or "", cwd=start.path))
    assert folders.by_agent[None].path == rel(recorded[-1]) == "apps/app"


@pytest.mark.parametrize(("command", "status"), [
    ("gsed -i s/a/b/ src/app.ts", F), ("busybox sed -i s/a/b/ src/app.ts", F), ("yq -i '.a=1' src/app.ts", F),
    ("vim -c '%s/a/b/' -c wq src/app.ts", F), ("jq . src/app.ts | sponge src/app.ts", F),
    ("sort -o src/app.ts src/app.ts", F), ("ln -sf x.ts src/app.ts", F), ("rsync -a build/ src/", F),
    ("shred -u src/app.ts", F), ("unlink src/app.ts", F), ("gzip src/app.ts", F), ("zip -m a.zip src/app.ts", F),
    ("ruff --fix src/app.ts", F), ("npx prettier@3 --write src/app.ts", F), ('eval "rm src/app.ts"', F),
    ("npx storybook@latest init", I), ("sh < setup.sh", I), ("split -l 5 big.txt", I), ("git stash pop", I),
    ("ruff check --fix --diff src/app.ts", P), ("chmod 644 src/app.ts", P), ("yq '.a' src/app.ts", P),
])
def test_more_writers_are_changes_or_unknown_writes(tmp_path: Path, command: str, status: Status) -> None:
    assert c.check_file_not_changed(_codex_run(tmp_path, command), "src/app.ts").status is status


def test_the_storybook_cli_changes_package_json_and_its_config(tmp_path: Path) -> None:
    t = _codex_run(tmp_path, "npx -y storybook@latest init --yes", "pnpm dlx storybook@8.6 upgrade")
    assert c.check_file_edited(t, "package.json").status is P
    assert c.check_file_changed(t, ".storybook/main.ts").status is P
    assert c.check_file_not_changed(t, "package.json").status is F


def test_unknown_writes_can_be_trusted_program_by_program(tmp_path: Path) -> None:
    from agenteval_assert.matchers import Matches

    t = _codex_run(tmp_path, "npm test", "sudo make -j4 build", "npx vitest run && ./scripts/gen.sh")
    r = c.check_file_not_changed(t, "src/app.ts")
    assert r.status is I and r.found == "3 commands that may write files it does not name"
    r = c.check_file_not_changed(t, "src/app.ts", ignore_unknown_writes=["npm test", "make"])
    assert r.status is I and r.found == "1 command that may write files it does not name"
    assert [e.text.rsplit("  ", 1)[-1] for e in r.evidence] == ["runs the script ./scripts/gen.sh"]
    assert "2 commands that may write files it does not name accepted by ignore_unknown_writes" in r.notes
    r = c.check_file_not_changed(t, "src/app.ts", ignore_unknown_writes=["npm test", "make", Matches(r"^\./scripts/")])
    assert r.status is P and r.notes == (("3 commands that may write files it does not name accepted by "
                                         "ignore_unknown_writes"),)
    assert c.check_file_not_changed(t, "src/app.ts", ignore_unknown_writes=["npm run"]).status is I  # not npm test
    assert c.check_file_not_changed(t, "src/app.ts", ignore_unknown_writes=True).status is P
    for bad in ("make", ["make", 3], [""], None):
        with pytest.raises(UsageError, match="ignore_unknown_writes"):
            c.check_file_not_changed(t, "src/app.ts", ignore_unknown_writes=bad)  # type: ignore[arg-type]


def test_the_failure_hints_are_the_words_the_unrolled_test_looks_for() -> None:
    from agenteval_assert.checks import _safety

    assert all(_safety._hinted(h.upper()) for h in _safety._FAILURE_HINTS)
    assert not _safety._hinted("all good")


def test_negative_checks_on_a_name_called_in_another_case_are_inconclusive() -> None:
    # OpenCode names its shell tool `bash`; a check written for Claude Code says `Bash`
    t = _load(Path(__file__).resolve().parent / "corpus-more" / "opencode" / "takopi-run-json-bash-echo.jsonl")
    r = c.check_tool_not_called(t, "Bash")
    assert r.status is I
    assert r.summary == ("inconclusive: expected no Bash call, found none, but 'bash' was called 1 time "
                         "(tool names are case-sensitive)")
    assert r.evidence[0].location is not None and r.evidence[0].location.line == 2
    assert r.notes[-1] == "name the tool as the transcript does ('bash'), or check both names"
    r = c.check_tools_not_called(t, ["Bash", "Write"])
    assert r.status is I and "'bash' was called 1 time" in r.summary
    # the name as logged decides; names with no twin keep their verdicts
    assert c.check_tool_not_called(t, "bash").status is F
    assert c.check_tool_not_called(t, "Read").status is P
    assert c.check_tools_not_called(t, ["Read", "write"]).status is P


def test_order_failures_name_the_calls_by_the_specs_they_matched() -> None:
    # two calls of one tool: the summary must say which is which, not "#0 shellToolCall before #1 shellToolCall"
    t = _load(Path(__file__).resolve().parent / "corpus-more" / "cursor-cli" / "cursor-hack-parallel-shell.jsonl")
    r = c.check_called_before(t, Call("shellToolCall", command="sleep 4"), Call("shellToolCall", command="sleep 6"))
    assert r.status is F
    assert r.summary == (
        "expected shellToolCall(command='sleep 4') before shellToolCall(command='sleep 6'), found the first "
        "shellToolCall(command='sleep 6') at #0, before the first shellToolCall(command='sleep 4') at #1")
    assert [e.location.line for e in r.evidence if e.location] == [4, 5]
    ok = c.check_called_after(t, Call("shellToolCall", command="sleep 4"), Call("shellToolCall", command="sleep 6"))
    assert ok.status is P and ok.found == ("the first shellToolCall(command='sleep 6') at #0, before the first "
                                           "shellToolCall(command='sleep 4') at #1")


@pytest.mark.parametrize(("command", "counted"), [
    ("grep -r '\"----\": \"1\"' .", False),
    ("cat a.txt | grep -n foo", False),
    ("bash -lc 'rg -n TODO src'", False),
    ("diff -u a b", False),
    ("git diff --exit-code", False),
    ("test -f done.txt", False),
    ("grep foo a.txt && echo found", True),  # the status may be echo's or grep's: not an answer of grep's
    ("cd missing && grep foo a.txt", True),
    ("npm test", True),
    ("if grep -q foo a; then echo y; fi", True),
])
def test_an_exit_status_1_that_answers_no_is_not_a_failure_to_report(command: str, counted: bool) -> None:
    t = (T(fmt="codex-exec").user("x")
         .call("command_execution", kind="shell", command=command, exit_code=1, error=True, output="")
         .say("All done, everything works.").done())
    r = c.check_failures_not_reported_as_success(t)
    assert r.status is (F if counted else P), r.render()


def test_a_call_whose_arguments_could_not_be_read_leaves_an_argument_check_undecided() -> None:
    """A call whose argument text is no JSON object has no arguments to match: a negative (or a
    count) about calls with some arguments cannot pass or fail on it; it is INCONCLUSIVE, citing
    the call, and the health notes say so. A check on the name alone still decides."""
    import agenteval_assert as aa

    messages = [
        {"role": "user", "content": "refund order A-1"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "refund", "arguments": '{"order_id": "A-1", bad'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "refunded"},
        {"role": "assistant", "content": "Done."},
    ]
    t = aa.from_messages(messages, flavor="openai-chat")
    (call,) = t.calls()
    assert call.arguments == {} and call.raw_arguments is not None
    assert any("arguments are not a JSON object" in n for n in t.health.notes)
    r = aa.check_tool_not_called(t, "refund", order_id="A-1")
    assert r.status is aa.Status.INCONCLUSIVE, r.render()
    assert "whose arguments could not be read" in r.summary and r.evidence
    assert aa.check_tool_called(t, "refund", order_id="A-1").status is aa.Status.INCONCLUSIVE
    assert aa.check_tool_called(t, "refund").status is aa.Status.PASS
    assert aa.check_tool_not_called(t, "refund").status is aa.Status.FAIL
    assert aa.check_tool_not_called(t, "refund", mode="ignore", order_id="A-1").status is aa.Status.FAIL
    # every claim that no such call was made
    r = aa.check_tools_not_called(t, [aa.Call("refund", order_id="A-1")])
    assert r.status is aa.Status.INCONCLUSIVE and "could not be read" in r.summary, r.render()
    assert aa.check_tools_not_called(t, ["refund"]).status is aa.Status.FAIL
    lookup = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c0", "type": "function", "function": {"name": "lookup", "arguments": '{"order_id": "A-1"}'}}]}
    t2 = aa.from_messages([messages[0], lookup, {"role": "tool", "tool_call_id": "c0", "content": "found"},
                           *messages[1:]], flavor="openai-chat")
    r = aa.check_never_after(t2, "lookup", aa.Call("refund", order_id="A-1"))
    assert r.status is aa.Status.INCONCLUSIVE, r.render()
    assert aa.check_never_after(t2, "lookup", "refund").status is aa.Status.FAIL
    # order checks: a missing call, or an earlier one, may be the unreadable one
    r = aa.check_called_before(t2, "lookup", aa.Call("refund", order_id="A-1"))
    assert r.status is aa.Status.INCONCLUSIVE and "could not be read" in r.summary, r.render()
    assert aa.check_called_before(t2, "lookup", "refund").status is aa.Status.PASS
    # torn refund #0, lookup #1, readable refund(A-1) #2: the torn one may be an earlier refund of A-1
    good = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c9", "type": "function", "function": {"name": "refund", "arguments": '{"order_id": "A-1"}'}}]}
    t3 = aa.from_messages([messages[0], messages[1], messages[2], lookup,
                           {"role": "tool", "tool_call_id": "c0", "content": "found"}, good,
                           {"role": "tool", "tool_call_id": "c9", "content": "ok"},
                           {"role": "assistant", "content": "Done."}], flavor="openai-chat")
    r = aa.check_called_before(t3, "lookup", aa.Call("refund", order_id="A-1"))
    assert r.status is aa.Status.INCONCLUSIVE and "earlier call" in r.summary, r.render()
    assert aa.check_called_before(t3, "refund", "lookup").status is aa.Status.PASS


def test_a_path_with_brackets_is_first_the_path_as_written() -> None:
    """`[id]` is a route folder of web frameworks before it is a glob class: the real rollout read
    `…/teams/[id]/components/TeamStatsCards.tsx` and the check must find it."""
    import agenteval_assert as aa

    from .conftest import CORPUS

    t = aa.load(CORPUS / "codex-rollout" / "agentcmd-rollout-0.40-0199812e.jsonl")
    path = "src/app/(protected)/teams/[id]/components/TeamStatsCards.tsx"
    assert aa.check_file_read(t, path).status is aa.Status.PASS
    # as a glob, brackets are a class: a literal one is written [[]
    assert aa.check_file_read(t, "src/app/(protected)/teams/[[]id]/components/*.tsx").status is aa.Status.PASS
    assert aa.check_file_read(t, "src/app/(protected)/teams/[xyz]/components/Nope.tsx").status is aa.Status.FAIL


def test_a_dotfile_path_is_not_its_name_without_the_dot() -> None:
    """`.env` names the file `.env` (in any folder), not `env`: a leading "./" is dropped whole,
    never character by character."""
    import agenteval_assert as aa

    def run(*commands: str) -> aa.Transcript:
        msgs: list[dict[str, object]] = [{"role": "user", "content": "go"}]
        for i, cmd in enumerate(commands):
            msgs.append({"role": "assistant", "content": None, "tool_calls": [{"id": f"c{i}", "type": "function",
                         "function": {"name": "bash", "arguments": __import__("json").dumps({"command": cmd})}}]})
            msgs.append({"role": "tool", "tool_call_id": f"c{i}", "content": "ok"})
        msgs.append({"role": "assistant", "content": "done"})
        return aa.from_messages(msgs, flavor="openai-chat")

    t = run("echo KEY=1 > /app/.env", "rm src/.eslintrc", "echo x > config/env")
    for path in (".env", "./.env", ".eslintrc", "src/.eslintrc", "./src/.eslintrc"):
        assert aa.check_file_not_changed(t, path).status is not aa.Status.PASS, path
    t = run("echo x > config/env")
    assert aa.check_file_not_changed(t, ".env").status is aa.Status.PASS
    assert aa.check_file_not_changed(t, "env").status is not aa.Status.PASS  # written (outcome not recorded)


def _claude_run(command: str, cwd: str = "/home/u/proj") -> Any:
    import json

    import agenteval_assert as aa

    recs = [
        {"type": "system", "subtype": "init", "cwd": cwd, "session_id": "s1", "model": "claude-x", "tools": ["Bash"]},
        {"type": "user", "message": {"role": "user", "content": "fix it"}, "session_id": "s1"},
        {"type": "assistant", "message": {"id": "m1", "role": "assistant", "model": "claude-x", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": command}}]}, "session_id": "s1"},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": ""}]}, "session_id": "s1"},
        {"type": "assistant", "message": {"id": "m2", "role": "assistant", "model": "claude-x", "content": [
            {"type": "text", "text": "Done."}]}, "session_id": "s1"},
        {"type": "result", "subtype": "success", "is_error": False, "result": "Done.", "session_id": "s1"},
    ]
    return aa.parse("\n".join(json.dumps(r) for r in recs) + "\n", format="claude-stream-json")


def test_an_absolute_path_under_the_session_folder_is_the_shells_relative_one() -> None:
    """`sed -i … src/x.ts` run in /home/u/proj changed /home/u/proj/src/x.ts: asked by its
    absolute path, the check sees it (it passed: the shell's path is relative)."""
    import agenteval_assert as aa

    t = _claude_run("sed -i 's/a/b/' src/x.ts")
    assert aa.check_file_not_changed(t, "/home/u/proj/src/x.ts").status is aa.Status.FAIL
    assert aa.check_file_edited(t, "/home/u/proj/src/x.ts").status is aa.Status.PASS
    # another folder, or a longer path ending the same way, is another file
    assert aa.check_file_not_changed(t, "/other/src/x.ts").status is aa.Status.PASS
    assert aa.check_file_not_changed(t, "/home/u/proj/lib/src/x.ts").status is aa.Status.PASS
    t = _claude_run("rm -r src")
    assert aa.check_file_not_changed(t, "/home/u/proj/src/x.ts").status is aa.Status.FAIL
    assert aa.check_file_not_changed(t, "/home/u/proj/srcx/y.ts").status is aa.Status.PASS
    assert aa.check_file_read(_claude_run("cat src/x.ts"), "/home/u/proj/src/x.ts").status is aa.Status.PASS


def test_an_absolute_path_is_undecided_on_a_relative_change_when_the_folder_is_not_recorded() -> None:
    """With no session folder in the log, `src/x.ts` may be `/repo/src/x.ts`: not a PASS."""
    import agenteval_assert as aa

    t = _claude_run("sed -i 's/a/b/' src/x.ts", cwd=None)  # type: ignore[arg-type]
    assert t.metadata.get("cwd") is None
    r = aa.check_file_not_changed(t, "/repo/src/x.ts")
    assert r.status is aa.Status.INCONCLUSIVE and "relative path that may be it" in r.summary, r.render()
    assert aa.check_file_not_changed(t, "/repo/src/y.ts").status is aa.Status.PASS
    assert aa.check_file_not_changed(t, "/repo/lib/x.ts").status is aa.Status.PASS
