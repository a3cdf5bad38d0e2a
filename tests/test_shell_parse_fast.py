"""The parser's fast path (``_shell_parse._simple_items``: a command line of plain and simply
quoted words and ``;``/``&``/``|`` operators read with one regular expression) gives the script
the general reader gives: the same commands, words (text, value, parts, quoting), offsets,
separators, wrappers unwrapped, problems. Compared on generated lines (simple ones, and any
line: the fast path must also decline what it cannot read) and on every command of the corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agenteval_assert import _shell_parse
from agenteval_assert._shell_model import Command, ShellScript, Word
from agenteval_assert.shell import parse_shell

from ._shell_texts import corpus_commands, shell_texts


def _word(w: Word) -> tuple[Any, ...]:
    return (w.text, w.value, w.quoted, w.quoted_start,
            tuple(p if isinstance(p, str) else (p.kind, p.text, p.name, p.quoted,
                                                None if p.script is None else _script(p.script)) for p in w.parts))


def _command(c: Command | None) -> Any:
    if c is None:
        return None
    return (c.text, c.start, c.end, c.separator, tuple(_word(w) for w in c.words),
            tuple((a.name, _word(a.value), a.append) for a in c.assignments),
            tuple((r.fd, r.op, None if r.target is None else _word(r.target), r.heredoc) for r in c.redirects),
            None if c.nested is None else _script(c.nested), _command(c.wrapper))


def _script(s: ShellScript) -> tuple[Any, ...]:
    return (s.source, s.complete, s.problems, tuple(_command(c) for c in s.top_level))


def _general(text: str) -> tuple[Any, ...]:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_shell_parse, "_FAST", False)
        return _script(parse_shell(text))


def _same(text: str) -> None:
    assert _script(parse_shell(text)) == _general(text), text


_PLAIN = st.sampled_from(["ls", "-la", "npm", "test", "--reporter=dot", "git", "status", "x=1", "A+=b", "=x", "1=2",
                          "src/{a,b}.ts", "{", "}", "!", "if", "for", "case", "esac", "time", "do", "done", "then",
                          "é", "日本", "a.b", "*.ts", "[ab]", "~", "@x", "2", "2&1", "-", "--", "bash", "-c", "-lc",
                          "sh", "zsh", "sudo", "env", "eval", "%", "^", "a,b", "x:y", "+"])
_QUOTED = st.sampled_from(["''", '""', "'a b'", '"a b"', "'$X'", "'`x`'", "'a\"b'", '"a\'b"', "'\\'", "'#'",
                           '"#"', "'(x)'", '"<x>"', "'\n'", '"\n"', "'\t'", "'if'", '"for"', "'x=1'", "'cd a && rm b'",
                           '"cat f; ls"', "'日本'", "'\r'"])
_WORD = st.lists(st.one_of(_PLAIN, _QUOTED), min_size=1, max_size=3).map("".join)
_SEP = st.sampled_from([" ", " ", "  ", "\t", " && ", "&&", " || ", ";", "; ", " ;; ", ";&", ";;&", " | ", "|&",
                        " & ", "&", "\n", " \n", "\n\n", "&&&", "|||", ";|", " \r ", "\x0b", "\xa0", " # c"])


def simple_texts() -> st.SearchStrategy[str]:
    piece = st.tuples(_WORD, _SEP).map("".join)
    return st.tuples(st.sampled_from(["", " ", "\n", ";", "\t"]), st.lists(piece, min_size=1, max_size=8)).map(
        lambda lp: lp[0] + "".join(lp[1]))


@settings(max_examples=1500, deadline=None)
@given(simple_texts())
@example("grep -rn \"TODO\" src | head -50")
@example("a ;; b")
@example('""')
@example("''")
@example('a"" b')
@example("x=1 ls")
@example("time ls")
@example("bash -lc 'cd x && rm y'")
@example("ls \n")
@example("a\xa0b")
def test_the_fast_path_is_the_general_reader_on_simple_lines(text: str) -> None:
    _same(text)


@settings(max_examples=800, deadline=None)
@given(shell_texts())
def test_the_fast_path_is_the_general_reader_on_any_line(text: str) -> None:
    _same(text)


def test_the_fast_path_reads_the_common_lines_and_declines_the_others() -> None:
    for text in ("npm test", "cd /a && npx vitest run --reporter=dot", 'grep -rn "TODO" src | head -50', "a; b\nc"):
        assert _shell_parse._SIMPLE_TEXT.fullmatch(text) and _shell_parse._simple_items(text) is not None
    for text in ("echo $X", "cat <<EOF\nx\nEOF", "ls > f", "(cd a)", "a \\\n b", "echo 'x", "ls # c", "a\rb"):
        assert not _shell_parse._SIMPLE_TEXT.fullmatch(text)
    for text in ("x=1 ls", "if true; then ls; fi", "for a in b; do c; done", "time ls", "ls; ! x"):
        assert _shell_parse._simple_items(text) is None


def test_the_fast_path_is_the_general_reader_on_the_corpus(corpus: Path) -> None:
    texts = corpus_commands(corpus)
    fast = [t for t in texts if _shell_parse._SIMPLE_TEXT.fullmatch(t) and _shell_parse._simple_items(t) is not None]
    assert len(fast) > 20  # the corpus holds lines of both kinds
    for text in texts:
        _same(text)


def test_the_fast_path_declines_a_long_line_in_linear_time() -> None:
    """A long run of plain characters before what the fast path cannot read: the test of the
    line does not backtrack (possessive), so the line costs one scan before the general reader."""
    import time

    for tail in ("$", "'", "\\", "("):
        text = "a" * 200_000 + tail
        t0 = time.process_time()
        assert _shell_parse._SIMPLE_TEXT.fullmatch(text) is None
        assert time.process_time() - t0 < 0.5
