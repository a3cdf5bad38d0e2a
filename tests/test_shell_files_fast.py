"""The walker's shortcuts give what the long way gives: a gap between commands that holds only a
separator (``_shell_files._bare``) is not read line by line, a command whose words are plain
literals has no substitutions, ``Word.expands`` is a loop. Each is compared with the long way
on generated command lines and on every command of the corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agenteval_assert import _shell_files
from agenteval_assert._shell_files import Folder, line_effects
from agenteval_assert._shell_model import Expansion, Word
from agenteval_assert.shell import parse_shell

from ._shell_texts import corpus_commands, shell_texts
from ._shell_texts import effects_fields as _plain


def _long_way(text: str, start: Folder) -> tuple[Any, ...]:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_shell_files, "_bare", lambda _text: False)
        return _plain(line_effects(parse_shell(text), start))


def _expands_long(w: Word) -> bool:
    return any(isinstance(p, Expansion) for p in w.parts)


def _substitutions_long(c: Any) -> tuple[Expansion, ...]:
    words = [*c.words, *(a.value for a in c.assignments)]
    words += [r.target for r in c.redirects if r.target is not None and r.heredoc is None]
    return tuple(e for w in words if len(w.parts) > 1 or (w.parts and not isinstance(w.parts[0], str))
                 for e in w.expansions if e.script is not None)


_STARTS = [Folder(), Folder("lib"), Folder("/abs/x"), Folder("w", "after 'cd $X', a folder only known when it runs")]


def _same(text: str) -> None:
    script = parse_shell(text)
    for start in _STARTS:
        assert _plain(line_effects(script, start)) == _long_way(text, start), (text, start)
    for c in script.walk(substitutions=True):
        assert c.substitutions == _substitutions_long(c)
        for w in c.words:
            assert w.expands is _expands_long(w)


@settings(max_examples=600, deadline=None)
@given(shell_texts())
@example("cd /a && cat x ; & ; rm y")
@example("a ;\n\n b &&\n c | d")
@example("{ cat x; } > o && cd s")
@example("cat x\x0b; rm y")
def test_the_walk_with_its_shortcuts_is_the_long_way(text: str) -> None:
    _same(text)


def test_a_gap_is_bare_only_when_it_holds_one_separator_and_blanks() -> None:
    assert all(_shell_files._bare(g) for g in ("", " ", " && ", "\n", " ;\n ", "|", " |& ", "\r\n"))
    assert not any(_shell_files._bare(g) for g in ("; & ;", " ( ", "then ", "} > o", " # c", "\x0b", "do", "!"))


def test_the_walk_with_its_shortcuts_is_the_long_way_on_the_corpus(corpus: Path) -> None:
    texts = corpus_commands(corpus)
    assert len(texts) > 100
    for text in texts:
        _same(text)


def _chdir_long(c: Any, here: Folder, stack: list[Folder]) -> Folder | None:
    """``_shell_files._chdir`` without its shortcut (every case read after the text to show)."""
    return _CHDIR(c, here, stack, _long=True)


_CHDIR = _shell_files._chdir  # the function itself, whatever a test patches in its place


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["cd", "pushd", "popd", "'cd'", "$C", "ls"]),
       st.lists(st.sampled_from(["src", "/abs", "..", "-", "+1", "-2", "-P", "--", "$X", '"$Y"/z', "~", "a b", "''"]),
                max_size=3),
       st.sampled_from([Folder(), Folder("lib"), Folder("/r", "w")]), st.integers(0, 2))
def test_a_cd_is_followed_as_the_long_way_follows_it(name: str, args: list[str], here: Folder, depth: int) -> None:
    script = parse_shell(" ".join([name, *args]))
    stack = [Folder(f"s{i}") for i in range(depth)]
    for c in script.top_level:
        fast_stack, long_stack = list(stack), list(stack)
        assert _shell_files._chdir(c, here, fast_stack) == _chdir_long(c, here, long_stack)
        assert fast_stack == long_stack
