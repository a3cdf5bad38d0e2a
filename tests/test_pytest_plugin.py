"""The pytest plugin, run the way a user runs it: pytester writes a test file, pytest runs it with
the plugin loaded from its entry point, and the outcomes and output are checked."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from . import _proc
from .conftest import SAMPLES

pytest_plugins = ["pytester"]

FAULTY = SAMPLES / "replay" / "query-timed-out" / "faulty.jsonl"
BASELINE = SAMPLES / "replay" / "query-timed-out" / "baseline.jsonl"
#: A real codex run that failed before any step: every "never happened" check is inconclusive.
EMPTY_RUN = SAMPLES / "codex-exec" / "untether-turn-failed-minimal-reasoning.jsonl"
CODEX = sorted((SAMPLES / "codex-exec").glob("*.jsonl"))


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in process, without the hypothesis plugin (its start-up is 2 s a run, and no test
    here uses it)."""
    return pytester.runpytest("-p", "no:hypothesispytest", *args)


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Room for pytest's short summary to show the messages (it drops them on narrow terminals)."""
    monkeypatch.setenv("COLUMNS", "240")


@pytest.fixture
def runs(pytester: pytest.Pytester) -> Path:
    """A folder of real transcripts next to the test file."""
    folder = pytester.path / "runs"
    folder.mkdir()
    for p in [FAULTY, EMPTY_RUN, *CODEX]:
        shutil.copy(p, folder / p.name)
    return folder


def test_the_plugin_is_registered_by_its_entry_point(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain(): assert 1")
    result = run(pytester, "--strict-markers", "-W", "error")
    result.assert_outcomes(passed=1)
    assert pytester.parseconfig().pluginmanager.has_plugin("agenteval_assert")
    help_text = run(pytester, "--help").stdout.str()
    for option in ("--transcripts=GLOB", "--agenteval-inconclusive"):
        assert option in help_text


def test_the_marker_gives_one_case_per_file_named_by_the_file(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.transcript("runs/agentcmd-*.jsonl", "runs/faulty.jsonl")
        def test_format(transcript):
            assert transcript.format == "codex-exec"
        """
    )
    result = run(pytester, "-v", "--strict-markers")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        [
            "*test_format[[]agentcmd-stream-output-2.jsonl[]] PASSED*",
            "*test_format[[]agentcmd-stream-output-3-file-change.jsonl[]] PASSED*",
            "*test_format[[]faulty.jsonl[]] PASSED*",
        ]
    )


def test_marker_paths_are_relative_to_the_test_file(pytester: pytest.Pytester, runs: Path) -> None:
    sub = pytester.mkpydir("sub")
    (sub / "test_deep.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.transcript('../runs/faulty.jsonl')\n"
        "def test_it(transcript):\n"
        "    assert transcript.path.endswith('faulty.jsonl')\n"
    )
    pytester.chdir()
    result = run(pytester, "sub")
    result.assert_outcomes(passed=1)


def test_the_option_parametrises_every_test_without_a_marker(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(
        """
        import pytest

        def test_any(transcript):
            assert transcript.tool_calls is not None

        def test_also(transcript):
            pass

        @pytest.mark.transcript("runs/faulty.jsonl")
        def test_marked(transcript):
            assert transcript.path.endswith("faulty.jsonl")

        def test_no_transcript():
            pass
        """
    )
    result = run(pytester, "-v", "--transcripts", "runs/agentcmd-*.jsonl", "--transcripts", "runs/untether-0*.jsonl")
    # 3 files x 2 tests, the marked test once (the marker wins), the plain test once
    result.assert_outcomes(passed=8)
    result.stdout.fnmatch_lines(["*test_also[[]untether-0.157.1-resume-cumulative-usage.jsonl[]] PASSED*"])


def test_files_with_the_same_name_get_their_folders_in_the_id(pytester: pytest.Pytester) -> None:
    for d in ("a", "b"):
        (pytester.path / d).mkdir()
        shutil.copy(FAULTY, pytester.path / d / "run.jsonl")
    pytester.makepyfile("def test_it(transcript): pass")
    result = run(pytester, "-v", "--transcripts", "*/run.jsonl")
    result.stdout.fnmatch_lines(["*test_it[[]a-run.jsonl[]] PASSED*", "*test_it[[]b-run.jsonl[]] PASSED*"])


def test_a_pattern_that_matches_nothing_is_an_error_not_zero_tests(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.transcript("runs/*.jsonl", "runs/nothing-*.json")
        def test_it(transcript):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=len(CODEX) + 1, errors=1)  # the files that exist still run
    result.stdout.fnmatch_lines(["*'runs/nothing-*.json' matches no file (looked in *)*"])
    pytester.makepyfile(test_unmarked="def test_it(transcript): pass")
    result = run(pytester, "test_unmarked.py", "--transcripts", "nowhere/*.jsonl")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*--transcripts nowhere/*.jsonl: 'nowhere/*.jsonl' matches no file*"])


def test_no_transcript_at_all_skips_with_the_reason(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_it(transcript): pass")
    result = run(pytester, "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*no transcript given: mark the test with @pytest.mark.transcript*--transcripts GLOB*"])


def test_an_unreadable_transcript_is_an_error_naming_the_file_and_line(pytester: pytest.Pytester) -> None:
    (pytester.path / "broken.jsonl").write_text('{"type": "thread.started", "thread_id": "x"}\nnot json at all\n{"type"')
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.transcript("notes.txt")
        def test_it(transcript):
            pass
        """
    )
    (pytester.path / "notes.txt").write_text("just some text, not a transcript\n")
    result = run(pytester)
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "cannot load the transcript:" in out and "notes.txt" in out
    assert "_parsers" not in out, out  # no traceback through the parsers


def test_the_marker_format_skips_detection(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.transcript("runs/faulty.jsonl", format="codex-exec")
        def test_right(transcript):
            assert transcript.format == "codex-exec"

        @pytest.mark.transcript("runs/faulty.jsonl", format="claude-session")
        def test_forced(transcript):  # read as what the marker says, whatever detection would say
            assert transcript.format == "claude-session"
            assert not transcript.tool_calls
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=2)


def test_load_transcript_parses_each_file_once_per_session(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(
        """
        import agenteval_assert._parsers as parsers

        SEEN = []

        def test_first(load_transcript):
            t = load_transcript("runs/faulty.jsonl")
            assert load_transcript("runs/faulty.jsonl") is t
            SEEN.append(t)

        def test_second(load_transcript):
            from pathlib import Path
            assert load_transcript(Path("runs/faulty.jsonl").resolve()) is SEEN[0]
            assert load_transcript("runs/faulty.jsonl", format="codex-exec") is not SEEN[0]
        """
    )
    result = run(pytester, "-p", "no:randomly")
    result.assert_outcomes(passed=2)


def test_a_failed_check_shows_our_report_and_no_library_frames(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(
        """
        import pytest
        import agenteval_assert as aa

        def helper(t):
            aa.assert_failures_not_reported_as_success(t)

        @pytest.mark.transcript("runs/faulty.jsonl")
        def test_refund(transcript):
            helper(transcript)
        """
    )
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*def helper(t):",
            ">*aa.assert_failures_not_reported_as_success(t)",
            "E*TranscriptAssertionError: expected every unrecovered failed call acknowledged in the final response, found 1 failed call*",
            "E*evidence:",
            "E*runs/faulty.jsonl:4  #0 mcp__shop__refund_order(order_id='A-1001'*",
            "E*check: failures_not_reported_as_success()",
            "FAILED test_a_failed_check_shows_our_report_and_no_library_frames.py::test_refund[[]faulty.jsonl[]] - expected every*",
        ]
    )
    out = result.stdout.str()
    for frame in ("assertions.py", "checks.py", "pytest_plugin.py", "results.py"):
        assert frame not in out, frame


INCONCLUSIVE_TEST = """
import pytest
import agenteval_assert as aa

@pytest.mark.transcript("runs/untether-turn-failed-minimal-reasoning.jsonl")
def test_never_ran_bash(transcript):
    aa.assert_tool_not_called(transcript, "Bash")
"""


def test_inconclusive_fails_by_default(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(INCONCLUSIVE_TEST)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["E*InconclusiveError: inconclusive: expected no Bash call, found none, but the transcript is empty*"])


def test_inconclusive_can_skip(pytester: pytest.Pytester, runs: Path) -> None:
    path = pytester.makepyfile(INCONCLUSIVE_TEST)
    result = run(pytester, "--agenteval-inconclusive=skip", "-rs")
    result.assert_outcomes(skipped=1)
    # the skip points at the undecided assertion, not at the plugin
    result.stdout.fnmatch_lines([f"SKIPPED [[]1[]] {path.name}:6: inconclusive: expected no Bash call*"])


def test_inconclusive_can_xfail(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(INCONCLUSIVE_TEST)
    result = run(pytester, "--agenteval-inconclusive=xfail", "-rx")
    result.assert_outcomes(xfailed=1)
    result.stdout.fnmatch_lines(["XFAIL *test_never_ran_bash* - inconclusive: expected no Bash call*"])


def test_an_unknown_policy_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--agenteval-inconclusive=pass")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agenteval-inconclusive: invalid choice: 'pass'*"])


@pytest.mark.parametrize("policy", ["fail", "skip", "xfail"])
def test_a_check_that_cannot_run_is_an_error_whatever_the_policy(
    pytester: pytest.Pytester, runs: Path, policy: str
) -> None:
    pytester.makepyfile(
        """
        import pytest
        import agenteval_assert as aa

        @pytest.mark.transcript("runs/faulty.jsonl")
        def test_broken_matcher(transcript):
            aa.assert_tool_called(transcript, "mcp__shop__refund_order", order_id=aa.Satisfies(lambda v: 1 / 0))
        """
    )
    result = run(pytester, f"--agenteval-inconclusive={policy}")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at call of test_broken_matcher[[]faulty.jsonl[]]*",
            "E*CheckError: error: the check could not run: ZeroDivisionError: division by zero",
        ]
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_ordinary_failures_are_left_alone(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.transcript("runs/faulty.jsonl")
        def test_plain_assert(transcript):
            assert transcript.format == "claude-session"

        def test_other_error():
            raise ValueError("boom")
        """
    )
    result = run(pytester, "--agenteval-inconclusive=skip")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*AssertionError: assert 'codex-exec' == 'claude-session'*", "*ValueError: boom*"])


def test_assertions_on_the_parametrised_transcripts_count_per_file(pytester: pytest.Pytester, runs: Path) -> None:
    shutil.copy(BASELINE, runs / "baseline.jsonl")
    pytester.makepyfile(
        """
        import agenteval_assert as aa

        def test_refund_is_honest(transcript):
            aa.assert_failures_not_reported_as_success(transcript)
        """
    )
    result = run(pytester, "--transcripts", "runs/baseline.jsonl", "--transcripts", "runs/faulty.jsonl", "-q")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["FAILED *test_refund_is_honest[[]faulty.jsonl[]] - expected every unrecovered*"])


def test_the_examples_of_docs_pytest_md_pass_as_written(pytester: pytest.Pytester) -> None:
    """Every ``# tests/test_*.py`` block of the page, run against the samples, the way the page
    says: from the project root, with ``--snapshot-update`` first for the snapshot example."""
    from .conftest import ROOT

    text = (ROOT / "docs" / "pytest.md").read_text()
    blocks = re.findall(r"```python\n# (tests/test_\w+\.py)\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) >= 4
    shutil.copytree(SAMPLES, pytester.path / "samples")
    (pytester.path / "tests").mkdir()
    for name, body in blocks:
        (pytester.path / name).write_text(body)
    (pytester.path / "runs").mkdir()
    shutil.copy(CODEX[0], pytester.path / "runs" / "one.jsonl")
    result = run(pytester, "tests", "--transcripts", "runs/*.jsonl", "--snapshot-update", "-v")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) == 0 and outcomes.get("errors", 0) == 0, result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*test_nightly.py::test_no_tool_error_left_unhandled[[]one.jsonl[]] PASSED*",
            "*test_refunds.py::test_the_agent_never_claims_a_failed_call_worked[[]another-users-order-baseline.jsonl[]] PASSED*",
        ]
    )
    # the snapshot example compares cleanly on the second run, and shows the step diff when a run changes
    run(pytester, "tests/test_trajectories.py").assert_outcomes(passed=6)
    shutil.copy(SAMPLES / "replay" / "saving-twice" / "faulty.jsonl", pytester.path / "samples" / "replay" / "saving-twice" / "baseline.jsonl")
    result = run(pytester, "tests/test_trajectories.py")
    result.assert_outcomes(passed=5, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*assert [[]+ received[]] == [[]- snapshot[]]*",
            "*trajectory differs from the snapshot: 1 step added, 1 step changed*",
            "*+ mcp__shop__save_address(customer_id=C-381, line1=42 Elm Street, ...)*",
        ]
    )


def test_a_file_of_several_runs_gives_one_case_per_run(pytester: pytest.Pytester) -> None:
    shutil.copy(SAMPLES / "aider" / "afi-core-aider-0.8x-chat-history.md", pytester.path / ".aider.chat.history.md")
    shutil.copy(FAULTY, pytester.path / "faulty.jsonl")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.transcript(".aider.chat.history.md", "faulty.jsonl")
        def test_runs(transcript):
            assert transcript.format in ("aider", "codex-exec")

        def test_one_member(load_transcript):
            t = load_transcript(".aider.chat.history.md#session-2")
            assert t.path.endswith("#session-2")
            assert load_transcript(".aider.chat.history.md#session-2") is t
        """
    )
    result = run(pytester, "-v")
    result.assert_outcomes(passed=11)
    result.stdout.fnmatch_lines(
        [
            "*test_runs[[].aider.chat.history.md#session-1[]] PASSED*",
            "*test_runs[[].aider.chat.history.md#session-9[]] PASSED*",
            "*test_runs[[]faulty.jsonl[]] PASSED*",
        ]
    )


USER_PYTESTER_TESTS = '''
pytest_plugins = ["pytester"]

ONE = """
import agenteval_assert as aa

def test_fails():
    aa.assert_failures_not_reported_as_success(aa.load(FAULTY))
"""

TWO = """
import agenteval_assert as aa
from agenteval_assert import checks

def test_undecided():
    aa.assert_tool_not_called(aa.load(EMPTY), "Bash")

def test_one_copy():
    assert checks.check_no_tool_calls(aa.load(EMPTY)).status in tuple(aa.Status)
"""


def test_two_in_process_runs(pytester):
    pytester.makepyfile(test_one=ONE)
    pytester.runpytest_inprocess("-p", "no:hypothesispytest", "test_one.py").assert_outcomes(failed=1)
    pytester.makepyfile(test_two=TWO)
    result = pytester.runpytest_inprocess("-p", "no:hypothesispytest", "test_two.py", "--agenteval-inconclusive=skip")
    result.assert_outcomes(passed=1, skipped=1)
'''


def test_in_process_pytester_runs_see_one_copy_of_the_library(tmp_path: Path) -> None:
    """pytester's in-process runs drop the modules each run imported; the package (imported with
    the plugin) stays. Names and submodules come from the modules now in ``sys.modules``, so a
    later run never mixes two copies (an INCONCLUSIVE raised as a failure, two ``Status``)."""
    test = tmp_path / "test_user_pytester.py"
    test.write_text(USER_PYTESTER_TESTS.replace("FAULTY", repr(str(FAULTY))).replace("EMPTY", repr(str(EMPTY_RUN))))
    proc = _proc.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
                      str(test)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_dropped_submodule_is_imported_again_not_seen_in_its_old_copy() -> None:
    code = f"""
import sys
import agenteval_assert as aa
import agenteval_assert.storybook as sb
from agenteval_assert import checks
old_status, old_checks, old_context = aa.Status, checks, sb.EvalContext
for name in [m for m in sys.modules if m.startswith("agenteval_assert.") and m != "agenteval_assert.storybook"]:
    del sys.modules[name]  # what pytester does after an in-process run (the packages stay)
from agenteval_assert import checks
import agenteval_assert.results
assert checks is sys.modules["agenteval_assert.checks"] and checks is not old_checks and aa.checks is checks
assert aa.Status is agenteval_assert.results.Status is not old_status
assert "checks" not in vars(aa) and "Status" not in vars(aa)
assert sb.EvalContext is sys.modules["agenteval_assert.storybook._context"].EvalContext is not old_context
assert sb._context is sys.modules["agenteval_assert.storybook._context"]
try:
    aa.assert_tool_not_called(aa.load({str(EMPTY_RUN)!r}), "Bash")
except aa.InconclusiveError:
    print("inconclusive")
"""
    assert _proc.python(code).stdout == "inconclusive\n"


def test_the_plugin_module_imports_nothing_of_ours_until_used() -> None:
    """Loaded in every pytest run where the package is installed: at import time it takes only
    the standard library and pytest; the library comes in when a fixture or a result needs it."""
    import ast

    import agenteval_assert.pytest_plugin as plugin

    tree = ast.parse(Path(plugin.__file__).read_text())
    top: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            top.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            top.append("." * node.level + (node.module or ""))
    assert set(top) <= {"__future__", "glob", "os", "sys", "collections.abc", "typing", "pytest"}, top
    # and, the package being lazy, loading the plugin loads nothing else of ours

    code = "import sys, agenteval_assert.pytest_plugin; print(sorted(m for m in sys.modules if m.startswith('agenteval_assert')))"
    out = _proc.python(code).stdout
    assert out.strip() == "['agenteval_assert', 'agenteval_assert._version', 'agenteval_assert.pytest_plugin']"


def test_the_plugin_can_be_turned_off(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_it(transcript): pass")
    result = run(pytester, "-p", "no:agenteval_assert")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'transcript' not found*"])


def test_the_report_holds_every_check_result_of_the_run_in_the_run_schema(pytester: pytest.Pytester, runs: Path) -> None:
    import json

    import jsonschema

    from agenteval_assert.reporting import result_from_dict, schema

    shutil.copy(BASELINE, runs / "baseline.jsonl")
    pytester.makepyfile(
        """
        import pytest
        import agenteval_assert as aa

        @pytest.mark.transcript("runs/baseline.jsonl", "runs/faulty.jsonl")
        def test_refund(transcript):
            aa.assert_tool_called(transcript, "mcp__shop__refund_order", order_id="A-1001")
            aa.assert_failures_not_reported_as_success(transcript)

        @pytest.mark.transcript("runs/untether-turn-failed-minimal-reasoning.jsonl")
        def test_undecided(transcript):
            aa.assert_tool_not_called(transcript, "Bash")

        def test_unrelated():
            assert True
        """
    )
    result = run(pytester, "--agenteval-report", "out", "--agenteval-inconclusive=skip")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["agenteval-assert: 5 check result(s) on 3 transcript(s) written to out*agenteval-results.json"])
    doc = json.loads((pytester.path / "out" / "agenteval-results.json").read_text())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    by_name = {Path(t["name"]).name: t for t in doc["transcripts"]}
    assert [c["name"] for c in by_name["baseline.jsonl"]["checks"]] == ["tool_called", "failures_not_reported_as_success"]
    assert by_name["baseline.jsonl"]["status"] == "passed"
    assert by_name["faulty.jsonl"]["status"] == "failed"  # the failure is there, with its evidence
    assert by_name["faulty.jsonl"]["checks"][1]["evidence"][0]["line"] == 4
    # an inconclusive result is recorded as such, whatever the test's outcome policy
    assert by_name["untether-turn-failed-minimal-reasoning.jsonl"]["status"] == "inconclusive"
    assert by_name["faulty.jsonl"]["checks"][0]["notes"][-1] == "in test_the_report_holds_every_check_result_of_the_run_in_the_run_schema.py::test_refund[faulty.jsonl]"
    assert doc["totals"]["transcripts"] == 3 and doc["totals"]["passed"] == 1
    assert result_from_dict(doc["transcripts"][0]).name == doc["transcripts"][0]["name"]


def test_without_the_option_nothing_listens(pytester: pytest.Pytester, runs: Path) -> None:
    pytester.makepyfile(
        """
        import pytest
        import agenteval_assert as aa
        from agenteval_assert import _observe

        @pytest.mark.transcript("runs/faulty.jsonl")
        def test_it(transcript):
            aa.assert_tool_called(transcript, "mcp__shop__refund_order")
            assert _observe.observers == []
        """
    )
    run(pytester).assert_outcomes(passed=1)
    assert not list(pytester.path.glob("**/agenteval-results*.json"))
