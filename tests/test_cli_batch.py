"""``check`` and ``summary`` over many inputs: directories, globs, the pass rate, --fail-under,
--jobs, progress, and the output formats (golden files; JSON against the shipped schema, JUnit
against the vendored Jenkins JUnit XSD).

Regenerate the golden files with ``AGENTEVAL_UPDATE_GOLDEN=1 pytest tests/test_cli_batch.py``
and read the diff before committing it.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest
import xmlschema

from agenteval_assert._cli import ExitCode, main
from agenteval_assert._version import __version__
from agenteval_assert.reporting import schema

from . import _proc
from .conftest import ROOT, SAMPLES

GOLDEN = ROOT / "tests" / "golden" / "batch"
XSD = ROOT / "tests" / "junit" / "junit-10.xsd"
UPDATE = os.environ.get("AGENTEVAL_UPDATE_GOLDEN") == "1"

#: Every outcome once: passed, failed, inconclusive, a check that raised (error), a pattern that
#: matches nothing (unreadable) and a folder holding a file that is no transcript (skipped).
GOLDEN_ARGS = [
    "samples/codex-exec/agentcmd-stream-output-2.jsonl",
    "samples/codex-rollout/localpush-0.104-desktop-unanswered-call-sanitized.jsonl",
    "samples/claude-stream-json/terragon-1.0.x-mcp-followup.json",
    "samples/replay/saving-twice/baseline.jsonl",
    "tests/golden/batch/inputs",
    "tests/golden/batch/missing-*.jsonl",
    "--checks", "tests/golden/batch/checks.py", "--health",
]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def golden(name: str, got: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: run with AGENTEVAL_UPDATE_GOLDEN=1"
    assert got == path.read_text(encoding="utf-8")


def junit_schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(str(XSD))


# -- golden outputs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "name"),
    [("text", "check.txt"), ("json", "check.json"), ("jsonl", "check.jsonl"), ("junit", "check.xml"),
     ("github", "check.github.txt"), ("markdown", "check.md")],
)
@pytest.mark.usefixtures("at_root")
def test_golden_output(fmt: str, name: str) -> None:
    code, out, err = run("check", *GOLDEN_ARGS, "-j", "1", "--output-format", fmt)
    assert code == ExitCode.INPUT  # the unreadable input outranks the failure
    assert err == "error: tests/golden/batch/missing-*.jsonl: no file matches this pattern\n"
    if fmt in ("json", "jsonl"):
        out = out.replace(f'"version": "{__version__}"', '"version": "<version>"')
    golden(name, out)


@pytest.mark.usefixtures("at_root")
def test_the_text_closing_block_lists_skipped_files_then_the_pass_rate_line() -> None:
    _, out, _ = run("check", *GOLDEN_ARGS, "-j", "1")
    assert out.splitlines()[-3:] == [
        "skipped 1 file that no format reads:",
        "  tests/golden/batch/inputs/notes.txt: not valid JSON",
        (
            "1 of 5 transcripts passed (20.0 %), 1 failed, 1 inconclusive, 1 errored, 1 unreadable; "
            "24 checks: 19 passed, 1 failed, 3 inconclusive, 1 error"
        ),
    ]


@pytest.mark.usefixtures("at_root")
def test_a_pool_of_workers_prints_exactly_what_one_process_prints() -> None:
    one = run("check", *GOLDEN_ARGS, "-j", "1")
    assert _proc.within("check -j 2", lambda: run("check", *GOLDEN_ARGS, "-j", "2")) == one
    # default: a pool of one worker per core
    assert _proc.within("check on the default pool", lambda: run("check", *GOLDEN_ARGS)) == one


@pytest.mark.usefixtures("at_root")
def test_the_json_document_and_every_json_line_follow_the_shipped_schema() -> None:
    _, out, _ = run("check", *GOLDEN_ARGS, "-j", "1", "--output-format", "json")
    doc = json.loads(out)
    jsonschema.Draft202012Validator(schema()).validate(doc)
    assert doc["totals"]["pass_rate"] == 20.0 and doc["skipped"][0]["path"] == "tests/golden/batch/inputs/notes.txt"
    _, out, _ = run("check", *GOLDEN_ARGS, "-j", "1", "--output-format", "jsonl")
    line_schema = {**schema(), "$ref": "#/$defs/transcript"}
    for key in ("required", "properties", "additionalProperties", "type"):
        line_schema.pop(key, None)
    lines = [json.loads(line) for line in out.splitlines()]
    # JSON Lines stream the skipped files as they come; the document lists them apart
    assert [x for x in lines if x["status"] != "skipped"] == doc["transcripts"]
    assert [x["path"] for x in lines if x["status"] == "skipped"] == [s["path"] for s in doc["skipped"]]
    for line in lines:
        jsonschema.Draft202012Validator(line_schema).validate(line)


# -- JUnit ---------------------------------------------------------------------------------------


def test_check_samples_junit_output_validates_against_the_junit_schema(tmp_path: Path) -> None:
    """The acceptance command, run as a user runs it."""
    out = tmp_path / "out.xml"
    proc = _proc.run(
        [sys.executable, "-m", "agenteval_assert", "check", "samples/", "--output-format", "junit", "--output", str(out)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == ExitCode.FAILED, proc.stderr  # some samples fail on purpose
    assert "Traceback" not in proc.stderr
    junit_schema().validate(str(out))
    # the text report still goes to stdout, with the pass rate line
    assert re.search(r"^\d+ of \d+ transcripts passed \(\d+\.\d %\)", proc.stdout.splitlines()[-1])
    doc = junit_schema().to_dict(str(out))
    suites = doc["testsuite"]
    assert len(suites) == int(proc.stdout.splitlines()[-1].split(" of ")[1].split()[0])
    assert all(len(s["testcase"]) == int(s["@tests"]) for s in suites)


@pytest.mark.usefixtures("at_root")
def test_junit_inconclusive_is_a_failure_by_default_or_skipped_on_request() -> None:
    args = ("check", "samples/claude-stream-json/terragon-1.0.x-mcp-followup.json", "samples/codex-exec",
            "--output-format", "junit", "-j", "1")
    _, failure, _ = run(*args)
    _, skipped, _ = run(*args, "--inconclusive", "skip")
    for xml in (failure, skipped):
        junit_schema().validate(xml)
    assert '<failure type="inconclusive" message="expected a final response' in failure
    assert '<skipped type="inconclusive" message="expected a final response' in skipped
    assert failure.count('<failure type="inconclusive"') == 1 and skipped.count('<failure type="inconclusive"') == 0
    assert 'failures="3"' in failure.splitlines()[1] and 'failures="2"' in skipped.splitlines()[1]


def test_junit_keeps_control_characters_out_of_the_xml(tmp_path: Path) -> None:
    from agenteval_assert.reporting import TranscriptResult
    from agenteval_assert.reporting._junit import JUnitWriter
    from agenteval_assert.results import CheckResult, Status

    r = TranscriptResult(name="run\x1b[31m.jsonl", path="run.jsonl", format="codex-exec", tool_calls=0, steps=0,
                         checks=(CheckResult("c", Status.FAIL, "expected 0, found \x1b[31m1\x00"),))
    buf = io.StringIO()
    w = JUnitWriter(buf)
    w.add(r)
    w.close()
    junit_schema().validate(buf.getvalue())
    assert "found \\x1b[31m1\\x00" in buf.getvalue()


# -- the closing line, --fail-under, inputs -------------------------------------------------------


@pytest.mark.usefixtures("at_root")
def test_one_transcript_keeps_the_closing_line_it_always_had() -> None:
    code, out, _ = run("check", "samples/codex-exec/agentcmd-stream-output-2.jsonl")
    assert (code, out.splitlines()[-1]) == (ExitCode.OK, "5 passed, 0 failed")
    code, out, _ = run("check", "samples/codex-rollout/localpush-0.104-desktop-unanswered-call-sanitized.jsonl")
    assert (code, out.splitlines()[-1]) == (ExitCode.FAILED, "2 passed, 1 failed, 2 inconclusive")
    code, out, _ = run("check", "no-such-file.jsonl")
    assert (code, out) == (ExitCode.INPUT, "0 passed, 0 failed, 1 unreadable input\n")


@pytest.mark.usefixtures("at_root")
def test_fail_under_turns_the_pass_rate_into_the_exit_code() -> None:
    args = ("check", "samples/codex-exec", "samples/claude-stream-json", "-j", "1")
    code, out, _ = run(*args)
    # 4 codex-exec files (3 pass, 1 fails) + 2 stream-json (1 passes, 1 inconclusive)
    assert out.splitlines()[-1].startswith("4 of 6 transcripts passed (66.7 %), 1 failed, 1 inconclusive; ")
    assert code == ExitCode.FAILED
    assert run(*args, "--fail-under", "66")[0] == ExitCode.OK
    assert run(*args, "--fail-under", "66.67")[0] == ExitCode.FAILED  # the exact rate, not the rounded one
    assert run(*args, "--fail-under", "0")[0] == ExitCode.OK
    # inconclusive alone (exit 4 without a threshold) is decided by the rate too: it has not passed
    inconclusive = ("check", "samples/claude-stream-json/terragon-1.0.x-mcp-followup.json")
    assert run(*inconclusive)[0] == ExitCode.INCONCLUSIVE
    assert run(*inconclusive, "--fail-under", "1")[0] == ExitCode.FAILED
    # an unreadable input keeps its code whatever the rate
    assert run("check", "missing.jsonl", *args[1:], "--fail-under", "10")[0] == ExitCode.INPUT
    assert run(*args, "--fail-under", "101")[0] == ExitCode.USAGE


@pytest.mark.usefixtures("at_root")
def test_a_check_error_keeps_exit_5_under_fail_under() -> None:
    code, _, _ = run("check", "samples/replay/saving-twice/baseline.jsonl", "samples/codex-exec/agentcmd-stream-output-2.jsonl",
                     "--checks", "tests/golden/batch/checks.py", "--fail-under", "10", "-j", "1")
    assert code == ExitCode.ERROR


def test_a_folder_without_transcripts_is_never_a_pass(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("nothing here\n")
    code, _, err = run("check", str(tmp_path))
    assert code == ExitCode.INPUT
    assert err == f"error: no transcript found in {tmp_path} (1 file(s) skipped: no format reads them)\n"
    assert run("check", str(tmp_path / "empty-dir-*"))[0] == ExitCode.INPUT


def test_internal_crash_on_one_of_several_inputs_exits_70_and_the_others_are_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agenteval_assert import _batch_run

    real = _batch_run.load_all

    def flaky(path: str, **kw: object) -> object:
        if "stream-output-2" in path:
            raise ZeroDivisionError("simulated bug")
        return real(path, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(_batch_run, "load_all", flaky)
    a, b = str(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl"), str(SAMPLES / "codex-exec" / "agentcmd-stream-output-3-file-change.jsonl")
    code, out, err = run("check", a, b, "-j", "1")
    assert code == ExitCode.INTERNAL
    assert err.splitlines()[0] == f"internal error while reading {a}: ZeroDivisionError: simulated bug"
    assert f"{b}  codex-exec" in out
    assert out.splitlines()[-1].startswith("1 of 2 transcripts passed (50.0 %), 0 failed, 0 inconclusive, 1 crashed; ")


@pytest.mark.usefixtures("at_root")
def test_several_sandboxes_run_through_an_eval_one_keeps_the_evals_own_report() -> None:
    suite = "storybook/801-create-component-no-launch-config"
    code, out, _ = run("check", "samples/storybook", "--eval", suite, "-j", "1")
    assert code == ExitCode.FAILED
    assert out.splitlines()[0].startswith(f"samples/storybook/801-claude-mcp-fail  {suite}  claude-session")
    assert "  SKIP         reads the documentation (get-documentation) (skipped: " in out
    # the agent-eval sandboxes (801's and the three of 912) and the NiceEval one (whose eval reads
    # it without a transcript)
    assert out.splitlines()[-1].startswith("1 of 7 transcripts passed (14.3 %), 6 failed, 0 inconclusive; 77 checks: ")
    assert "samples/storybook/801-codex-plugin-niceeval  " + suite in out
    code, out, _ = run("check", "samples/storybook/801-claude-mcp-pass", "--eval", suite)
    assert code == ExitCode.OK
    assert out.splitlines()[0].startswith(f"{suite} on samples/storybook/801-claude-mcp-pass  (")
    assert out.splitlines()[-1] == "5 passed, 0 failed, 6 skipped"
    code, _, err = run("check", "samples/codex-exec", "--eval", suite)
    assert code == ExitCode.INPUT and err == "error: samples/codex-exec: no sandbox in this directory\n"


def test_output_file_gets_the_format_and_stdout_the_text_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    target = tmp_path / "report.md"
    code, out, _ = run("check", "samples/codex-exec", "-j", "1", "--output-format", "markdown", "--output", str(target))
    assert code == ExitCode.FAILED
    assert target.read_text().startswith("## agenteval-assert\n\n3 of 4 transcripts passed (75.0 %)")
    assert out.splitlines()[-1].startswith("3 of 4 transcripts passed (75.0 %)")
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]  # no temporary file left
    code, _, err = run("check", "samples/codex-exec", "--output", str(tmp_path / "no-dir" / "x.xml"))
    assert code == ExitCode.USAGE and "cannot write the output" in err


# -- progress --------------------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.usefixtures("at_root")
def test_progress_shows_on_a_terminal_only_and_not_under_quiet() -> None:
    out = io.StringIO()
    err = Terminal()
    main(["check", "samples/codex-exec", "-j", "1"], stdout=out, stderr=err)
    assert "/4 [" in err.getvalue()  # tqdm's counter
    assert "/4 [" not in out.getvalue()
    err = Terminal()
    main(["check", "samples/codex-exec", "-j", "1", "--quiet"], stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == ""


def test_tqdm_is_imported_only_when_a_bar_is_shown() -> None:
    code = (
        "import io, sys; from agenteval_assert._cli import main; "
        "main(['check', 'samples/codex-exec', '-j', '1'], stdout=io.StringIO(), stderr=io.StringIO()); "
        "print('tqdm' in sys.modules)"
    )
    proc = _proc.python(code, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout.strip() == "False"


# -- summary -------------------------------------------------------------------------------------


@pytest.mark.usefixtures("at_root")
def test_summary_over_several_inputs_prints_json_lines() -> None:
    code, out, err = run("summary", "samples/codex-exec", "--json")
    assert code == ExitCode.OK and err == ""
    docs = [json.loads(line) for line in out.splitlines()]
    assert [d["path"] for d in docs] == sorted(str(p.relative_to(ROOT)) for p in (SAMPLES / "codex-exec").iterdir())
    # one file: the indented document it always was
    code, out, _ = run("summary", "samples/codex-exec/agentcmd-stream-output-2.jsonl", "--json")
    assert out.startswith("{\n  \"path\"") and json.loads(out)["format"] == "codex-exec"


@pytest.mark.usefixtures("at_root")
def test_summary_skips_what_no_format_reads_and_reports_what_cannot_be_read() -> None:
    code, out, err = run("summary", "tests/golden/batch/inputs", "samples/codex-exec/agentcmd-stream-output-2.jsonl",
                         "missing.jsonl")
    assert code == ExitCode.INPUT
    assert err.splitlines() == [
        "skipped tests/golden/batch/inputs/notes.txt: not valid JSON",
        "error: missing.jsonl: cannot read: No such file or directory",
    ]
    assert out.startswith("samples/codex-exec/agentcmd-stream-output-2.jsonl\n  format      codex-exec")


def test_summary_of_a_folder_without_transcripts_exits_3(tmp_path: Path) -> None:
    shutil.copy(ROOT / "README.md", tmp_path)
    code, _, err = run("summary", str(tmp_path))
    assert code == ExitCode.INPUT and err.endswith(f"error: no transcript found in {tmp_path}\n")


def test_markdown_stays_bounded_for_a_large_run() -> None:
    from agenteval_assert.reporting import TranscriptResult
    from agenteval_assert.reporting._markdown import MAX_DETAILS, MAX_ROWS, MarkdownWriter
    from agenteval_assert.results import CheckResult, Status

    buf = io.StringIO()
    w = MarkdownWriter(buf)
    n = MAX_ROWS + 50
    for i in range(n):
        status = Status.FAIL if i % 2 else Status.PASS
        w.add(TranscriptResult(name=f"run-{i:03d}.jsonl", path=f"run-{i:03d}.jsonl", format="codex-exec",
                               tool_calls=0, steps=0, checks=(CheckResult("c", status, f"summary {i}"),)))
    w.close()
    md = buf.getvalue()
    assert f"{n} transcripts: the table lists the {n // 2} that did not pass." in md
    assert "run-001.jsonl" in md and "| run-000.jsonl" not in md
    assert md.count("<details>") == MAX_DETAILS
    assert md.endswith(f"... and {n // 2 - MAX_DETAILS} more check reports (the JSON output has them all)\n")


@pytest.mark.usefixtures("at_root")
def test_summary_json_lines_keep_a_multi_run_files_members_in_its_line_and_check_names_them() -> None:
    code, out, _ = run("summary", "samples/aider", "--json")
    assert code == ExitCode.OK
    [doc] = [json.loads(line) for line in out.splitlines()]
    assert doc["format"] == "aider" and len(doc["members"]) > 1
    assert all(m["path"] == f"{doc['path']}#{m['member']}" for m in doc["members"])
    code, out, _ = run("check", "samples/aider", "-j", "1", "--output-format", "json")
    report = json.loads(out)
    names = [t["name"] for t in report["transcripts"]]
    # a session with no prompt and no activity is listed under `skipped`, by its member name
    idle = [s["path"] for s in report["skipped"]]
    assert idle == [f"{doc['path']}#session-5"]
    assert names == [m["path"] for m in doc["members"] if m["path"] not in idle]
    assert {t["member"] for t in report["transcripts"]} == {m["member"] for m in doc["members"]} - {"session-5"}


@pytest.mark.parametrize("fmt", ["json", "junit", "jsonl", "markdown", "github"])
def test_the_output_file_is_written_whatever_the_exit_code(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "empty").mkdir()
    report = tmp_path / "r.out"
    code, _, err = run("check", str(tmp_path / "empty"), "--output-format", fmt, "-o", str(report))
    assert code == ExitCode.INPUT
    assert err == f"error: {tmp_path / 'empty'}: no file in this directory\n"
    text = report.read_text(encoding="utf-8")
    assert "no file in this directory" in text  # the unreadable input is in the report
    if fmt == "json":
        doc = json.loads(text)
        jsonschema.validate(doc, schema())
        assert doc["totals"]["unreadable"] == 1
    if fmt == "junit":
        junit_schema().validate(str(report))


def test_damaged_transcripts_in_a_folder_are_unreadable_in_check_and_summary(tmp_path: Path) -> None:
    shutil.copy(SAMPLES / "codex-exec" / "agentcmd-stream-output-2.jsonl", tmp_path / "good.jsonl")
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "garbage.jsonl").write_text("%%%\n")
    (tmp_path / "README.md").write_text("# runs\n")
    code, out, err = run("check", str(tmp_path), "-j", "1")
    assert code == ExitCode.INPUT
    assert out.splitlines()[-1].startswith("1 of 3 transcripts passed (33.3 %), 0 failed, 0 inconclusive, 2 unreadable")
    assert err.splitlines() == [
        f"error: {tmp_path / 'empty.jsonl'}: empty file (expected a transcript (JSON records))",
        (f"error: {tmp_path / 'garbage.jsonl'}:1: not valid JSON "
        "(expected JSON records (one JSON object per line, or a JSON array/document))"),
    ]
    code, _, err = run("summary", str(tmp_path))
    assert code == ExitCode.INPUT
    assert err.splitlines() == [
        f"skipped {tmp_path / 'README.md'}: no JSON records (only blank or # comment lines)",
        f"error: {tmp_path / 'empty.jsonl'}: empty file (expected a transcript (JSON records))",
        (f"error: {tmp_path / 'garbage.jsonl'}:1: not valid JSON "
        "(expected JSON records (one JSON object per line, or a JSON array/document))"),
    ]


def _hostile_run(path: Path) -> None:
    """A codex exec run whose failed command printed workflow commands and ANSI escapes."""
    output = ("running tests\n::error file=src/app.py,line=1::INJECTED by tool output\n  ::stop-commands::abc123\n"
              "##[error]legacy form\n::add-mask::foo\n\x1b[31mred\x1b[0m\rover\x07\ndone")
    records = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "i1", "type": "command_execution", "command": "pytest",
                                            "aggregated_output": output, "exit_code": 1, "status": "failed"}},
        {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _workflow_command(line: str) -> bool:
    """The runner's reading of a log line (it trims the indentation first)."""
    body = line.strip()
    return body.startswith(("::", "##["))


def test_tool_output_cannot_forge_annotations_or_drive_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _hostile_run(tmp_path / "run.jsonl")
    code, out, _ = run("check", "run.jsonl", "--output-format", "github", "-v")
    assert code == ExitCode.FAILED
    commands = [line for line in out.splitlines() if _workflow_command(line)]
    assert commands and all(c.startswith("::error file=run.jsonl,line=3,title=") for c in commands)
    assert "INJECTED" in out and "\\x3a:error file=src/app.py,line=1::INJECTED by tool output" in out
    assert "\\x3a:stop-commands::abc123" in out and "\\x23#[error]legacy form" in out
    # control characters are escaped in the report and in the annotations, newlines kept
    assert "\x1b" not in out and "\r" not in out and "\x07" not in out
    assert "\\x1b[31mred\\x1b[0m\\x0dover\\x07" in out
    code, text, _ = run("check", "run.jsonl", "-v")
    assert "\x1b" not in text and "\\x1b[31mred" in text
    assert "\n               ::error file=src/app.py" in text  # plain text keeps the output as it was


def test_markdown_shows_control_characters_from_tool_output_as_escapes(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A PR comment or a job summary must not carry an ANSI escape, a bell or a ``\\r`` a tool
    printed (the text and GitHub outputs escape them too)."""
    monkeypatch.chdir(tmp_path)
    _hostile_run(tmp_path / "run\x1b[2J.jsonl")
    code, out, _ = run("check", ".", "--output-format", "markdown", "-v")
    assert code == ExitCode.FAILED
    assert not {"\x1b", "\r", "\x07", "\x00"} & set(out)
    assert "\\x1b[31mred\\x1b[0m\\x0dover\\x07" in out  # in the fenced report
    assert "run\\\\x1b\\[2J.jsonl" in out  # in a table cell: the backslash escaped for Markdown
    golden("hostile.md", out)


def test_a_file_name_with_a_newline_keeps_the_report_one_line_per_item(tmp_path: Path) -> None:
    odd = tmp_path / "new\nline.jsonl"
    _hostile_run(odd)
    code, out, _ = run("check", str(odd))
    assert code == ExitCode.FAILED
    name = str(tmp_path) + "/new\\x0aline.jsonl"
    lines = out.splitlines()
    assert lines[0].startswith(f"{name}  codex-exec  1 tool call")
    assert any(line.strip().startswith(f"{name}:3  #0 command_execution") for line in lines)
    (odd).write_text("")
    code, _, err = run("check", str(odd))
    assert code == ExitCode.INPUT and err.count("\n") == 1 and "new\\x0aline.jsonl" in err


def test_annotations_name_files_relative_to_the_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agenteval_assert.reporting._github import annotation_path

    (tmp_path / "sub" / "runs").mkdir(parents=True)
    _hostile_run(tmp_path / "sub" / "runs" / "r.jsonl")
    monkeypatch.chdir(tmp_path / "sub")
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    for given in ("./runs/r.jsonl", "runs/r.jsonl", str(tmp_path / "sub" / "runs" / "r.jsonl"), "runs/../runs/r.jsonl"):
        _, out, _ = run("check", given, "--output-format", "github")
        assert "::error file=runs/r.jsonl,line=3," in out, given
    assert annotation_path("/elsewhere/x.jsonl") == "/elsewhere/x.jsonl"
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))  # a step run with working-directory: sub
    _, out, _ = run("check", "./runs/r.jsonl", "--output-format", "github")
    assert "::error file=sub/runs/r.jsonl,line=3," in out


def test_a_broken_sandbox_among_several_is_named(tmp_path: Path) -> None:
    """The reference's message names the sandbox's own file (`__agent_eval__/agent.json`): with
    several sandboxes checked at once, the report says which sandbox it is about."""
    import shutil

    good = tmp_path / "good"
    bad = tmp_path / "bad"
    shutil.copytree(ROOT / "samples" / "storybook" / "801-claude-mcp-pass", good)
    shutil.copytree(good, bad)
    (bad / "__agent_eval__" / "agent.json").write_text("{not json")
    code, out, err = run("check", str(good), str(bad), "--eval", "storybook/801-create-component-no-launch-config", "-j", "1")
    assert code == ExitCode.INPUT
    assert f"{bad}: __agent_eval__/agent.json: invalid JSON" in out + err, out + err
