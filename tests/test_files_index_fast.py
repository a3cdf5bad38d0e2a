"""The file index made with its shortcuts (``_files._build_file_index``: what a command text
does from a folder made once per pair, the folder carried from call to call with what depends
on the text read from there) holds exactly what the long way gives (``_build_file_index_long``:
every shell call parsed and walked from its own folder, ``_Folders.after`` and
``_shell_events`` call by call)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenteval_assert.checks import _files
from agenteval_assert.model import Transcript

from ._build import T
from ._shell_texts import effects_fields as _plain

_PARTS = ["cd /a", "cd b", "cd ..", "cd /home/dev/p", "cd /home/dev/p/src", "cat x", "cat ../y.ts", "rm -r d",
          "sed -i s/a/b/ f.ts", "echo hi > out", "{ cat x; } > o", "pushd c", "popd", "eval 'cd e'",
          "bash -c 'cd f && rm g'", "cat $(ls)", "cp a /b", "cd -", 'cd "$X"', "(cd s && rm t)", "cat /etc/x",
          "touch ~/y", "make", "npm test", "git checkout -- .", "if true; then cd z; fi", "git status",
          "grep -rn TODO src | head", "ls", "cd /abs && cat k", "*** Begin Patch\n*** Add File: p.ts\n*** End Patch",
          "cd /home/dev/p/. && ls", "cd /home/dev/p/src && npm test", "cd /abs/q && cd r && cat s", "cd /x; cd $Y"]
_SEPS = [" && ", "; ", " | ", " || ", "\n", " & "]
_OUTPUTS = ["ok", "ok", "ok", "Shell cwd was reset to /home/dev/p", "Shell cwd was reset to /elsewhere/q\n",
            "cat: x: No such file or directory", "x\nShell cwd was reset to /home/dev/p/src",
            "Shell cwd was reset to /home/dev/p/.", "Shell cwd was reset to //home/dev/p/", "Shell cwd was reset to x"]
_OUTCOMES = ["ok", "error", "exit1", "none", "declined", "interrupted"]


def _calls() -> st.SearchStrategy[list[tuple[Any, ...]]]:
    text = st.lists(st.tuples(st.sampled_from(_PARTS), st.sampled_from(_SEPS)), min_size=1, max_size=3).map(
        lambda ps: "".join(p + s for p, s in ps[:-1]) + ps[-1][0])
    return st.lists(st.tuples(
        text, st.sampled_from(_OUTPUTS), st.sampled_from(_OUTCOMES),
        st.sampled_from(["Bash", "shell", "bash_session", "execute_bash"]),
        st.sampled_from([None, None, "sub1"]),  # an agent id: each subagent has its own shell
        st.sampled_from([None, None, "lib", "/home/dev/p", "/w/x/", "."]),  # a fresh shell's workdir
        st.booleans(),  # run_in_background
    ), max_size=10)


def _transcript(calls: list[tuple[Any, ...]], agent: str, version: str, cwd: str | None) -> Transcript:
    meta: dict[str, Any] = {"version": version}
    if cwd is not None:
        meta["cwd"] = cwd
    t = T(agent=agent, **meta).user("go")
    for i, (text, output, outcome, name, sub, workdir, background) in enumerate(calls):
        args: dict[str, Any] = {"command": text}
        if workdir is not None:
            args["workdir"] = workdir
        if background:
            args["run_in_background"] = True
        status = {"declined": "declined", "interrupted": "interrupted", "none": None}.get(outcome)
        t.call(name, kind="shell", args=args, output=output, error=outcome == "error",
               exit_code=1 if outcome == "exit1" else None, answered=outcome not in ("none",), status=status,
               agent=sub)
        if i % 3 == 0:
            t.call("Read", file_path=f"src/f{i}.ts", agent=sub)
    return t.say("done").done()


@settings(max_examples=400, deadline=None)
@given(_calls(), st.sampled_from(["claude-code", "codex", "openhands", "inspect-ai", "aider", "swe-agent"]),
       st.sampled_from(["2.0.1", "1.0.0"]), st.sampled_from(["/home/dev/p", None, "/home/dev/p/"]))
def test_the_file_index_is_the_long_way(calls: list[tuple[Any, ...]], agent: str, version: str,
                                        cwd: str | None) -> None:
    t = _transcript(calls, agent, version, cwd)
    fast = _files._build_file_index(t)
    long = _files._build_file_index_long(t)
    assert fast.events == long.events
    assert fast.unknown_writes == long.unknown_writes


def test_the_file_index_is_the_long_way_on_a_session_that_moves_its_shell() -> None:
    """Calls that cd, fail, are reset, run from the folder an earlier call left, and repeat: the
    shots made once per text and folder are used again (and the long way agrees)."""
    calls = [("cd /home/dev/p/src && cat a.ts", "ok", "ok", "Bash", None, None, False),
             ("cat a.ts", "ok", "ok", "Bash", None, None, False),
             ("cd lib", "Shell cwd was reset to /home/dev/p", "ok", "Bash", None, None, False),
             ("cat a.ts", "ok", "ok", "Bash", None, None, False),
             ("cd b && rm x", "no", "error", "Bash", None, None, False),
             ("cat a.ts; make", "ok", "none", "Bash", None, None, False),
             ("cat a.ts; make", "ok", "ok", "Bash", None, None, False),
             ("cd /home/dev/p/src && cat a.ts", "ok", "ok", "Bash", "sub1", None, False),
             ("cat a.ts", "cat: a.ts: No such file or directory", "ok", "Bash", None, None, False)]
    t = _transcript(calls, "claude-code", "2.0.1", "/home/dev/p")
    fast = _files._build_file_index(t)
    assert fast == _files._build_file_index_long(t)
    reads = [(e.path, e.succeeded) for e in fast.events if e.via == "shell" and e.op == "read"]
    assert reads[:3] == [("/home/dev/p/src/a.ts", True), ("/home/dev/p/src/a.ts", True), ("a.ts", True)]
    assert [u[1] for u in fast.unknown_writes] == ["make", "make"]


def test_the_file_index_is_the_long_way_on_the_corpus(corpus: Path) -> None:
    from agenteval_assert import load
    from agenteval_assert.exceptions import AgentEvalError

    roots = [corpus, corpus.parent / "corpus-more"]
    n = events = 0
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json")
                           and p.name != "expected.json"):
            with contextlib.suppress(AgentEvalError):
                t = load(path)
                fast = _files._build_file_index(t)
                assert fast == _files._build_file_index_long(t), path
                n += 1
                events += len(fast.events)
    assert n > 10 and events > 50


def _shell_texts_and_starts() -> Any:
    from agenteval_assert._shell_files import Folder

    from ._shell_texts import shell_texts

    parts = st.lists(st.tuples(st.sampled_from(_PARTS), st.sampled_from(_SEPS)), min_size=1, max_size=4).map(
        lambda ps: "".join(p + s for p, s in ps[:-1]) + ps[-1][0])
    texts = st.one_of(shell_texts(), parts)
    texts = st.one_of(texts, st.tuples(st.sampled_from(["cd /a", "cd /home/dev/p/src", "cd /abs/x/../y", "cd /"]),
                                       st.sampled_from(_SEPS), texts).map("".join))
    starts = [Folder(), Folder("lib"), Folder("/abs/x"), Folder("/home/dev/p"), Folder("$PWD", "w1"),
              Folder("q", "w2"), Folder("/r", "w3")]
    return texts, starts


_TEXTS, _STARTS = _shell_texts_and_starts()


@settings(max_examples=1500, deadline=None)
@given(_TEXTS)
def test_a_line_the_index_reads_without_its_start_does_the_same_from_every_folder(text: str) -> None:
    """``_line_kind``'s two claims, from known and unknown folders: a line that passes has no
    effects, the unknown writes it has from the session's folder, and ends where it started; a
    line that starts with ``cd /abs`` (and ends in a folder it fixes) does what it does from the
    session's folder."""
    assert_line_kind_holds(text, _STARTS)


def assert_line_kind_holds(text: str, starts: Any) -> None:
    """``_line_kind``'s two claims on *text*, from each folder of *starts*."""
    from agenteval_assert._shell_files import file_effects, line_effects
    from agenteval_assert.shell import parse_shell

    script = parse_shell(text)
    home = file_effects(script)
    kind = _files._line_kind(script, home, "/home/dev/p", {})
    for start in starts:
        found = line_effects(script, start)
        if kind == "passes":
            assert not found.effects and _plain(found)[1] == _plain(home)[1], (text, start)
            assert (found.cwd, found.cwd_unknown) == (start.path, start.why), (text, start)
        elif kind is not None:
            assert _plain(found) == _plain(home), (text, start)
            assert ("" if found.cwd == "/home/dev/p" else found.cwd, found.cwd_unknown) == (kind.path, kind.why)


def test_the_index_looks_for_reset_notes_only_when_a_later_call_needs_the_folder() -> None:
    """Lines that pass (``git status``) and lines that start with ``cd /abs`` wait; a line that
    reads a relative path needs the folder, so the notes of the calls since the last ``cd /abs``
    are looked for then (from the last back to the first note)."""
    calls = [("cd /home/dev/p/src && npm test", "ok", "ok", "Bash", None, None, False),
             ("git status", "ok", "ok", "Bash", None, None, False),
             ("cd /home/dev/p/lib && ls", "ok", "ok", "Bash", None, None, False),
             ("git status", "Shell cwd was reset to /home/dev/p", "ok", "Bash", None, None, False),
             ("npm test", "ok", "ok", "Bash", None, None, False),
             ("cat package.json", "ok", "ok", "Bash", None, None, False),
             ("ls", "ok", "ok", "Bash", None, None, False)]
    t = _transcript(calls, "claude-code", "2.0.1", "/home/dev/p")
    searched: list[int] = []
    original = _files._Folders.reset_in

    def counted(self: Any, c: Any) -> Any:
        searched.append(c.index)
        return original(self, c)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(_files._Folders, "reset_in", counted)
        fast = _files._build_file_index(t)
    assert fast == _files._build_file_index_long(t)
    bash = [c.index for c in t.all_tool_calls if c.name == "Bash"]
    assert searched == [bash[4], bash[3]]  # npm test (no note), then git status (the note): not the others
    assert [e.path for e in fast.events if e.via == "shell"] == ["package.json"]  # reset to the session's folder


@pytest.mark.parametrize("outcome", ["ok", "error", "none"])
def test_a_line_that_passes_after_a_reset_to_the_session_folder_by_another_name(outcome: str) -> None:
    """A reset note that names the session's folder by another spelling (``/home/dev/p/.``)
    leaves the shell in that path; a line that passes then ends in the session's folder as
    ``after`` reads it (its path, ``""``, or a guess when the line failed): the waiting call is
    carried by ``_Folders.passed``, not left where it was."""
    calls = [("cd /elsewhere && ls", "Shell cwd was reset to /home/dev/p/.", "ok", "Bash", None, None, False),
             ("git status", "ok", outcome, "Bash", None, None, False),
             ("cat x", "ok", "ok", "Bash", None, None, False)]
    t = _transcript(calls, "claude-code", "1.0.0", "/home/dev/p")
    fast = _files._build_file_index(t)
    assert fast == _files._build_file_index_long(t)
    read = [e.path for e in fast.events if e.via == "shell"]
    assert read == (["/home/dev/p/x"] if outcome == "error" else ["x"])
