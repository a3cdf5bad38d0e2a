"""Aider chat histories: actions as calls with no recorded outcome, sessions as members."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import checks as C
from agenteval_assert._cli import ExitCode, main
from agenteval_assert._health import health_checks
from agenteval_assert.results import Status

from .conftest import CORPUS_MORE

HISTORY = CORPUS_MORE / "aider" / "afi-core-aider-0.8x-chat-history.md"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_actions_are_calls_on_their_own_lines_commands_with_no_recorded_outcome() -> None:
    t = aa.load(HISTORY)
    assert (t.format, t.agent, t.model, t.path) == ("aider", "aider", "gpt-4o", str(HISTORY))
    lines = HISTORY.read_text().splitlines()
    for c in t.tool_calls:
        line = lines[c.location.line - 1]
        if c.name == "edit":
            # an applied edit is done (Aider reports it once written); a file Aider created is written
            assert line.rstrip() == f"> Applied edit to {c.arguments['file_path']}"
            assert c.kind in ("file_edit", "file_write") and c.status == "completed"
        else:
            assert line.rstrip() == f"> Running {c.command}" and c.kind == "shell"
            assert c.status == "unrecorded"
        assert (c.result, c.is_error, c.unanswered) == (None, False, False)
    assert t.health.complete and t.health.unanswered_calls == ()
    assert t.metadata["sessions"] == 9 and t.metadata["edit_format_errors"] == 1
    assert t.usage.output_tokens and t.usage.cost_usd  # Aider's rounded figures, summed


def test_checks_on_outcomes_are_inconclusive_the_others_decide() -> None:
    t = aa.load(HISTORY)
    assert C.check_command_ran(t, "git push origin main").passed
    # an applied edit is done: "Applied edit to" is written once the edit is in the file
    assert C.check_file_edited(t, "dist/index.js", succeeded=None).passed
    assert C.check_file_edited(t, "dist/index.js").passed
    assert C.check_tool_not_called(t, "Bash").passed  # complete: absence can be shown
    for r in (C.check_command_succeeded(t, "git push origin main"), C.check_no_tool_errors(t),
              C.check_tool_failed(t, "shell"), C.check_tool_output(t, "shell", contains="main")):
        assert r.status is Status.INCONCLUSIVE, r.name
        assert "not recorded" in r.summary
    assert r.render().splitlines()[0] == (
        "inconclusive: expected a shell call with output=Contains('main'), found 10 matching call(s) whose "
        "output is not recorded")
    with pytest.raises(aa.InconclusiveError):
        aa.assert_command_succeeded(t, "pwd")
    # a Call(...) that asks about the outcome cannot be matched either way
    for r in (C.check_tool_called(t, aa.Call("shell", is_error=False)),
              C.check_tool_not_called(t, aa.Call("shell", is_error=True)),
              C.check_tool_called(t, aa.Call("shell", exit_code=0))):
        assert r.status is Status.INCONCLUSIVE, r.check
    assert C.check_tool_called(t, aa.Call("shell", status="unrecorded"), times=10).passed
    by_name = {r.name: r for r in health_checks(t)}
    assert by_name["every_call_answered"].summary == (
        "0 of 27 tool calls have a result; the format records none for the other 27")
    # the last call of the file is a command, whose outcome is not recorded
    assert by_name["no_unhandled_tool_error"].status is Status.INCONCLUSIVE


def test_sessions_are_members_and_load_takes_the_whole_file() -> None:
    sessions = aa.load_all(HISTORY)
    assert [s.path.rsplit("#", 1)[1] for s in sessions] == [f"session-{i}" for i in range(1, 10)]
    assert sum(len(s.tool_calls) for s in sessions) == 27
    assert sessions[-1].final_response == aa.load(HISTORY).final_response
    second = aa.load(f"{HISTORY}#session-2")
    assert [c.location.line for c in second.tool_calls] == [63, 117, 118, 122]
    assert second.metadata["started_at"] == "2025-07-15 14:53:34"


def test_summary_keeps_the_whole_file_figures_and_lists_the_sessions() -> None:
    code, out, _ = run("summary", str(HISTORY), "--json")
    assert code == ExitCode.OK
    doc = json.loads(out)
    assert (doc["tool_calls"], doc["tools"]) == (27, {"shell": 10, "edit": 17})
    assert [m["tool_calls"] for m in doc["members"]] == [0, 4, 0, 0, 0, 9, 3, 1, 10]
    code, out, _ = run("check", str(HISTORY))
    # one verdict per session; session 5 (Aider upgraded itself: no prompt, no reply) has nothing
    # to check and is listed as skipped; the outcome of the last command of four sessions is not
    # recorded: the check that would need it is skipped (session 6 ends on an applied edit: judged)
    assert code == ExitCode.OK
    assert sum(line.startswith(f"{HISTORY}#session-") for line in out.splitlines()) == 8
    assert (f"skipped 1 input with nothing to check:\n  {HISTORY}#session-5: a run with no prompt and no "
            "agent activity (nothing to check)\n") in out
    assert out.splitlines()[-1] == ("8 of 8 transcripts passed (100.0 %), 0 failed, 0 inconclusive; "
                                    "40 checks: 36 passed, 0 failed, 4 skipped")
    assert ("  SKIP         no_unhandled_tool_error (skipped: aider records no outcome for the last tool call "
            "(shell at line 122): whether it failed cannot be told)") in out
    # asked for by name, the idle session is checked, and an empty run does not pass
    code, out, _ = run("check", f"{HISTORY}#session-5")
    assert code == ExitCode.FAILED
    assert "#session-5  aider  0 tool calls  1 step\n  PASS         parsed_cleanly\n  PASS         " \
           "every_call_answered (vacuous)\n  FAIL         final_response_present" in out


def _history(*sessions: str) -> str:
    return "".join(f"\n# aider chat started at 2025-01-0{i} 10:00:00\n\n{body}" for i, body in enumerate(sessions, 1))


def test_fenced_text_is_data_until_aider_speaks_again() -> None:
    text = _history(
        "#### edit the readme\n\n"
        "README.md\n```markdown\n<<<<<<< SEARCH\n#### Usage\n> quoted\n=======\n#### How to\n>>>>>>> REPLACE\n```\n\n"
        "> Tokens: 2.5k sent, 1.1k cache hit, 120 received. Cost: $0.01 message, $0.01 session.  \n"
        "> Applied edit to README.md  \n> Commit abc123 docs: rename  \n\n"
        "#### run it\n\nunclosed fence:\n```bash\nmake test\n"
        "> Tokens: 1k sent, 10 received. Cost: $0.002 message, $0.012 session.  \n"
        "> make test  \n> Run shell command? (Y)es/(N)o [Yes]: y  \n> Running make test  \n",
    )
    t = aa.parse(text, path="h.md")
    assert [(c.name, dict(c.arguments)) for c in t.tool_calls] == [
        ("edit", {"file_path": "README.md"}), ("shell", {"command": "make test"})]
    users = [m.text for m in t.messages("user")]
    assert users == ["edit the readme", "run it"]  # the "#### Usage" inside the fence is the model's text
    assert "#### Usage\n> quoted" in t.text
    assert (t.usage.input_tokens, t.usage.output_tokens, t.usage.cache_read_tokens) == (3500, 130, 1100)
    assert t.usage.cost_usd == 0.012


def test_text_before_the_first_heading_is_session_zero_and_said(tmp_path: Path) -> None:
    p = tmp_path / ".aider.chat.history.md"
    p.write_text("\n# aider chat started at 2025-01-01 09:00:00\n\n#### hello\n\nhi there\n")
    p.write_text("#### cut\n\nthe head of this file was cut\n" + p.read_text())
    first, second = aa.load_all(p, format="aider")
    assert (first.path, second.path) == (f"{p}#session-0", f"{p}#session-1")
    assert first.final_response == "the head of this file was cut"
    assert first.health.notes == ("no '# aider chat started at' heading before these lines",)


def test_forcing_aider_on_a_file_without_headings_reads_it_as_one_session(tmp_path: Path) -> None:
    p = tmp_path / "notes.md"
    p.write_text("#### do it\n\ndone\n")
    with pytest.raises(aa.UnknownFormatError):
        aa.load(p)
    t = aa.load(p, format="aider")
    assert t.final_response == "done"
    assert t.health.notes == ("no '# aider chat started at' heading: read as one session",)


_line = st.one_of(
    st.sampled_from(["# aider chat started at 2025-01-01 00:00:00", "#### ", "> ", ">", "```", "```bash", "",
                     "> Applied edit to a.py", "> Running ls", "> Tokens: 1.2k sent, 3 received.",
                     "> Tokens: 1k sent, 2 received. Cost: $0.01 message, $0.02 session."]),
    st.text(max_size=20).map(lambda s: s.replace("\n", " ")),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_line, max_size=15), st.binary(max_size=20))
def test_any_history_gives_a_transcript_with_valid_lines(lines: list[str], tail: bytes) -> None:
    data = ("# aider chat started at 2025-01-01 00:00:00\n" + "\n".join(lines)).encode() + tail
    t = aa.parse(data, path="h.md")
    n = data.count(b"\n") + 1
    assert t.format == "aider"
    assert all(1 <= s.location.line <= n for s in t.steps)
    assert all(1 <= i.line <= n for i in t.health.unparsable)
    assert sum(len(m.tool_calls) for m in _members_t(data)) == len(t.tool_calls)


def _members_t(data: bytes) -> list[aa.Transcript]:
    from agenteval_assert._parsers import _parsers
    from agenteval_assert._reader import Source

    got = _parsers()["aider"].read_raw(Source.from_bytes(data, "h.md"))  # type: ignore[attr-defined]
    return [m.build(f"h.md#{m.id}") for m in got.items]
