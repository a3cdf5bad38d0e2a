"""The file index made with its shortcuts (``_files._build_file_index``: what a command text
does from a folder made once per pair, the folder carried from call to call with what depends
on the text read from there) holds exactly what the long way gives (``_build_file_index_long``:
every shell call parsed and walked from its own folder, ``_Folders.after`` and
``_shell_events`` call by call)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agenteval_assert.checks import _files
from agenteval_assert.model import Transcript

from ._build import T

_PARTS = ["cd /a", "cd b", "cd ..", "cd /home/dev/p", "cd /home/dev/p/src", "cat x", "cat ../y.ts", "rm -r d",
          "sed -i s/a/b/ f.ts", "echo hi > out", "{ cat x; } > o", "pushd c", "popd", "eval 'cd e'",
          "bash -c 'cd f && rm g'", "cat $(ls)", "cp a /b", "cd -", 'cd "$X"', "(cd s && rm t)", "cat /etc/x",
          "touch ~/y", "make", "npm test", "git checkout -- .", "if true; then cd z; fi", "git status",
          "grep -rn TODO src | head", "ls", "cd /abs && cat k", "*** Begin Patch\n*** Add File: p.ts\n*** End Patch"]
_SEPS = [" && ", "; ", " | ", " || ", "\n", " & "]
_OUTPUTS = ["ok", "Shell cwd was reset to /home/dev/p", "Shell cwd was reset to /elsewhere/q\n",
            "cat: x: No such file or directory", "x\nShell cwd was reset to /home/dev/p/src"]
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

    roots = [corpus, Path("/work/shared/corpus"), Path("/work/shared/corpus-more")]
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
