"""The speed shortcuts of the shell parser, the shell walk and the file index, compared with the
long ways kept in the code on wider inputs than their own tests draw: any text over an alphabet
of the characters a shell reader must take care of (quotes of both kinds, empty and adjacent;
backslash and backslash-newline; ``\\r``, tabs, vertical tab, form feed, NBSP and other unicode
blanks; ``#`` in a word and as a comment; every ``;``/``&``/``|`` operator, leading, trailing and
doubled; brackets, redirections, ``$`` and backticks), and sessions of shells that persist in
which many calls wait for their folder (lines that pass, lines that start with ``cd /abs``) and
reset notes sit in any of them, the last or an earlier one."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agenteval_assert import _shell_files, _shell_parse
from agenteval_assert._shell_files import Folder, line_effects
from agenteval_assert.checks import _files
from agenteval_assert.shell import parse_shell

from ._build import T
from ._shell_texts import effects_fields as _plain
from .test_files_index_fast import assert_line_kind_holds
from .test_shell_files_fast import _chdir_long, _expands_long, _substitutions_long
from .test_shell_parse_fast import _script

#: Single characters: blanks of every kind, quotes, escapes, operators, brackets, expansions.
_CHARS = [" ", " ", "\t", "\n", "\r", "\x0b", "\x0c", "\xa0", "\u2003", "\x1c", "\x85", "\u3000", ";", "&", "|",
          "'", '"', "\\", "#", "(", ")", "{", "}", "<", ">", "$", "`", "!", "=", "*", "?", "[", "]", "~", "-", "/",
          ".", ",", ":", "%", "+", "@", "^", "a", "b", "x", "1", "2", "é", "\x00"]
#: Pieces agents write, and the ones that make a reader treat a command apart (keywords, headers,
#: assignments, wrappers), so that a generated text is often also a well-formed line.
_PIECES = ["ls", "cat", "f.ts", "cd", "/abs", "src", "..", "-", "rm", "-rf", "a'b'\"c\"", "''", '""', "'' ''",
           "'a b'", '"a b"', "\"it's\"", "'say \"hi\"'", "a#b", "#c", "if", "then", "fi", "for", "in", "do", "done",
           "case", "esac", "{", "}", "!", "time", "function", "select", "while", "until", "else", "elif", "x=1",
           "A+=b", "1a=b", "=x", "'x'=1", "bash", "-c", "-lc", "sh", "'cd x; ls'", '"cd y && rm z"', "eval", "&&",
           "||", "|&", ";;", ";&", ";;&", "&>", "&>>", "2>&1", ">", "<", "<<", "<<<", "a&&b", "a||b", "a;b", "a|b",
           "a&b", "\\\n", "\\ ", "\\;", "'\n'", '"\r"', "pushd", "popd", "touch", "~/y", "*.ts", "{a,b}.ts"]
_TEXT = st.one_of(
    st.text(st.sampled_from(_CHARS), max_size=24),
    st.lists(st.one_of(st.sampled_from(_PIECES), st.sampled_from(_CHARS)), max_size=14).map("".join),
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=10).map(" ".join),
)


def _general(text: str) -> tuple[Any, ...]:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_shell_parse, "_FAST", False)
        return _script(parse_shell(text))


@settings(max_examples=3000, deadline=None)
@given(_TEXT)
@example("")
@example(";")
@example("&& ls")
@example("ls &&")
@example("ls |")
@example("a &&& b ||| c ;;; d")
@example("a;;b;&c;;&d|&e")
@example("''\"\"a'b'\"c\"")
@example('"" ""')
@example("a\xa0b")
@example("a\u2003b")
@example("a\x1cb")
@example("a\x85b")
@example("ls\r\n")
@example("a\x0bb")
@example("a\x0cb")
@example("a#b c")
@example("'x'=1 ls")
@example("1a=b ls")
@example("ls\n\n;\n")
@example("bash -c 'bash -c \"ls; ls\"'")
def test_the_parser_fast_path_is_the_general_reader_on_any_characters(text: str) -> None:
    assert _script(parse_shell(text)) == _general(text), text


def test_the_parser_fast_path_takes_simple_lines_of_the_wide_alphabet() -> None:
    """The wide strategy reaches the fast path (the comparison above is not only of lines the
    fast path declines)."""
    for text in ("a'b'\"c\" && ls", "''", '""', "ls |", "&& ls", "a;;b", "'#' x", "ls\n\n;\n", "'x'=1 ls"):
        assert _shell_parse._SIMPLE_TEXT.fullmatch(text) and _shell_parse._simple_items(text) is not None, text


_STARTS = [Folder(), Folder("lib"), Folder("/abs/x"), Folder("$PWD", "w1"), Folder("q", "w2")]


def _walk_long(text: str, start: Folder) -> tuple[Any, ...]:
    """``line_effects`` the long way: the general reader, every gap read line by line, ``cd``
    followed as it was, substitutions and expansions looked for in every word."""
    from agenteval_assert._shell_model import Command, Word

    with pytest.MonkeyPatch.context() as m:
        m.setattr(_shell_parse, "_FAST", False)
        m.setattr(_shell_files, "_bare", lambda _text: False)
        m.setattr(_shell_files, "_chdir", _chdir_long)
        m.setattr(Word, "expands", property(_expands_long))
        m.setattr(Command, "substitutions", property(_substitutions_long))
        return _plain(line_effects(parse_shell(text), start))


@settings(max_examples=1500, deadline=None)
@given(_TEXT)
@example("cd /a && cat x ; & ; rm y")
@example("cd /a;;cat x")
@example("cd /a |& cat x")
@example("cd /a &\ncat x")
@example("cd src\x0b&& cat x")
@example("cd 'a b' && cat '' \"\"")
@example("cd src lib && cat x; pushd /p q && cat y")
def test_the_walk_with_its_shortcuts_is_the_long_way_on_any_characters(text: str) -> None:
    script = parse_shell(text)
    for start in _STARTS:
        assert _plain(line_effects(script, start)) == _walk_long(text, start), (text, start)


# -- the file index: shells that persist, calls that wait for their folder ------------------------------

#: Lines that change no file and never change folder (they wait: ``_line_kind`` "passes").
_PASS = ["git status", "ls", "make", "npm test", "pwd", "echo hi", "./run.sh", "git diff | head", "x=1 env",
         "cat $(ls)"]
#: Lines that start with ``cd /abs`` and end in a folder they fix (they wait when they succeed).
_KEPT = ["cd /home/dev/p/src && npm test", "cd /abs && cat k", "cd /home/dev/p", "cd /home/dev/p/. && ls",
         "cd /a; cd b", "cd /abs && cd r && cat s", "cd / && cat etc/x", "cd /home/dev/p/src"]
#: Lines that need the folder they start in (they settle the waiting calls).
_NEED = ["cat x", "cd lib", "cd ..", "rm -r d", "cd lib && cat y", "sed -i s/a/b/ f.ts", "cd -", 'cd "$X"', "pushd q",
         "popd", "if true; then cd z; fi", "cd /abs && cd $Y", "*** Begin Patch\n*** Add File: p.ts\n*** End Patch",
         "cat ../up.ts"]
_RESETS = ["Shell cwd was reset to /home/dev/p", "Shell cwd was reset to /home/dev/p/.", "Shell cwd was reset to /q/r",
           "Shell cwd was reset to /home/dev/p/src/", "x\nShell cwd was reset to /abs\n",
           "Shell cwd was reset to //home/dev/p"]
_OUTCOMES = ["ok", "ok", "ok", "ok", "error", "exit1", "none", "declined", "interrupted"]

_CALL = st.tuples(
    st.one_of(st.sampled_from(_PASS), st.sampled_from(_KEPT), st.sampled_from(_NEED),
              _TEXT),
    st.one_of(st.sampled_from(_RESETS), st.sampled_from(["ok", "", "cat: x: No such file or directory"])),
    st.sampled_from(_OUTCOMES),
    st.sampled_from([None, None, None, "sub1"]),  # each subagent has a shell of its own
    st.sampled_from([False] * 9 + [True]),  # run_in_background: a fresh shell
)


def _session(agent: str, version: str, cwd: str | None, calls: list[tuple[Any, ...]]) -> Any:
    name = {"claude-code": "Bash", "inspect-ai": "bash_session", "openhands": "execute_bash"}.get(agent, "shell")
    meta: dict[str, Any] = {"version": version}
    if cwd is not None:
        meta["cwd"] = cwd
    t = T(agent=agent, **meta).user("go")
    for text, output, outcome, sub, background in calls:
        args: dict[str, Any] = {"command": text}
        if background:
            args["run_in_background"] = True
        status = {"declined": "declined", "interrupted": "interrupted", "none": None}.get(outcome)
        t.call(name, kind="shell", args=args, output=output, error=outcome == "error",
               exit_code=1 if outcome == "exit1" else None, answered=outcome != "none", status=status, agent=sub)
    return t.say("done").done()


_OK = ("ok", "ok", None, False)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["claude-code"] * 4 + ["inspect-ai", "openhands", "aider"]), st.sampled_from(["2.0.1", "1.0.0"]),
       st.sampled_from(["/home/dev/p", None, "/home/dev/p/"]), st.lists(_CALL, min_size=1, max_size=16))
# a note in an earlier waiting call, none in the last one: the folder is the note's
@example("claude-code", "2.0.1", "/home/dev/p",
         [("cd /q && cat a", *_OK), ("git status", "Shell cwd was reset to /q/r", "ok", None, False),
          ("ls", *_OK), ("cat x", *_OK)])
# a cd /abs that waits, then a line that passes with a note, then one that needs the folder
@example("claude-code", "1.0.0", "/home/dev/p",
         [("cd /abs && cat k", *_OK), ("make", "Shell cwd was reset to /home/dev/p/.", "ok", None, False),
          ("npm test", *_OK), ("cat x", *_OK)])
# a subagent's waiting calls do not settle the main shell's, and a background call waits for none
@example("claude-code", "2.0.1", "/home/dev/p",
         [("cd lib", *_OK), ("ls", "Shell cwd was reset to /home/dev/p", "ok", "sub1", False),
          ("cat x", "ok", "ok", None, True), ("cat x", *_OK)])
# a declined call never ran: its note does not move the shell
@example("claude-code", "2.0.1", "/home/dev/p",
         [("cd lib", *_OK), ("git status", "Shell cwd was reset to /home/dev/p", "declined", None, False),
          ("cat x", *_OK)])
# a shell that may keep its folder or not (aider): a cd /abs line does not fix where the next call starts
@example("aider", "1.0.0", "/home/dev/p", [("cd /abs && cat k", *_OK), ("cat x", *_OK)])
# a line that starts with cd /abs but ends in a folder only known when it runs (a write there is
# an unknown write that says why)
@example("claude-code", "2.0.1", "/home/dev/p", [("cd /abs && cd $Y", *_OK), ("rm -r d", *_OK)])
# a cd /abs line that failed, or has no outcome, does not fix the folder either
@example("claude-code", "1.0.0", "/home/dev/p",
         [("cd lib", *_OK), ("cd /abs && cat k", "no", "error", None, False), ("cat x", *_OK),
          ("cd /abs && cat k", "", "none", None, False), ("rm -r d", *_OK)])
def test_the_file_index_is_the_long_way_when_calls_wait_for_their_folder(
        agent: str, version: str, cwd: str | None, calls: list[tuple[Any, ...]]) -> None:
    t = _session(agent, version, cwd, calls)
    fast = _files._build_file_index(t)
    long = _files._build_file_index_long(t)
    assert fast.events == long.events
    assert fast.unknown_writes == long.unknown_writes


_LINE_STARTS = [*_STARTS, Folder("/home/dev/p"), Folder("/r", "w3")]


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_TEXT, st.tuples(st.sampled_from(["cd /a", "cd /home/dev/p/src", "cd /x/../y", "cd /", "cd '/a b'",
                                                   "cd /home/dev/p"]),
                                  st.sampled_from([" && ", "; ", "\n", ";", "&&", " || ", " | ", " & "]),
                                  _TEXT).map("".join)))
@example("cd /a && cd -")
@example("cd /a; popd")
@example("cd /a && { cat x; } > o")
@example("cd /a && cd $(echo b)")
@example("cd /a && eval 'cd b' && rm c")
def test_a_line_the_index_reads_without_its_start_does_the_same_from_every_folder_on_any_characters(
        text: str) -> None:
    """``_line_kind``'s two claims (see tests/test_files_index_fast.py) on the wide texts."""
    assert_line_kind_holds(text, _LINE_STARTS)
