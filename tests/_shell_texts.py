"""Shell command texts for the property tests of the shell shortcuts: the fast paths of the parser
and the walker are compared with the long way on these (and on every command of the corpus)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

#: Words as agents write them, and the characters that make a parser or a walker take care:
#: quotes of both kinds (empty ones too), escapes, expansions, substitutions, globs, braces,
#: assignments, keywords, comments, redirections, heredoc operators, unicode, odd blanks.
_WORDS = [
    "cat", "ls", "-la", "cd", "/abs/dir", "src", "..", "-", "rm", "-rf", "sed", "-i", "s/a/b/", "f.ts", "npm",
    "test", "git", "status", "checkout", "--", ".", "grep", "-rn", '"TODO"', "'x y'", "''", '""', "a'b'c",
    '"$HOME"', "$X", "${Y}", "$(ls)", "`pwd`", "$((1+2))", "\\;", "a\\ b", "*.ts", "src/{a,b}.ts", "x=1", "A+=2",
    "if", "then", "fi", "for", "in", "do", "done", "while", "case", "esac", "{", "}", "(", ")", "!", "eval",
    "bash", "-c", "'cd x && rm y'", "sh", "-lc", '"cat f"', "#", "# note", "2>&1", ">", ">>", "<", "<<<",
    "&>", "out.txt", "/dev/null", "<<EOF", "<<'EOF'", "<<-EOF", "$'a\\tb'", "é.ts", "日本", "pushd", "popd",
    "touch", "~/y", "make", "python", "-m", "pytest", "node", "-e", "tee", "cp", "mv", "a", "b", "--json",
    "--reporter=dot", "npx", "vitest", "time", "sudo", "env", "FOO=bar", "xargs", "find", "-delete",
    "echo", "hi", "head", "-n", "5", "tail", "wc", "-l", "prettier", "--write", "<(ls)", "x)", "(x", "a#b",
    "\\", "\t", "\\\n",
]
_SEPARATORS = [" ", " ", " ", " && ", " || ", "; ", ";", " | ", "|", " |& ", " & ", "\n", " \n ", "\r\n", ";;",
               " \x0b ", " \\\n "]


def shell_texts() -> st.SearchStrategy[str]:
    """A command line made of the words and separators above (any order: broken lines too)."""
    piece = st.tuples(st.sampled_from(_WORDS), st.sampled_from(_SEPARATORS)).map("".join)
    body = st.lists(piece, min_size=1, max_size=12).map("".join)
    heredoc = st.sampled_from(["", "", "line one\nEOF\n", "x $Y\n\tEOF\n", "no end"])
    return st.tuples(body, heredoc).map(lambda bh: bh[0] + ("\n" + bh[1] if bh[1] else ""))


def corpus_commands(corpus: Path) -> list[str]:
    """Every distinct shell command text of the corpus transcripts (tests/corpus and
    tests/corpus-more beside it)."""
    import contextlib

    from agenteval_assert import load
    from agenteval_assert.exceptions import AgentEvalError

    texts: dict[str, None] = {}
    for root in (corpus, corpus.parent / "corpus-more"):
        if not root.is_dir():
            continue
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json")
                           and p.name != "expected.json"):
            with contextlib.suppress(AgentEvalError):
                for c in load(path).all_tool_calls:
                    if c.kind == "shell" and c.command:
                        texts[c.command] = None
    return list(texts)


def _words(ws: Any) -> tuple[Any, ...]:
    """Words by their fields (an expansion's script is compared by identity: two parses differ)."""
    return tuple((w.text, w.value, w.quoted, w.quoted_start,
                  tuple(p if isinstance(p, str) else (p.kind, p.text, p.name, p.quoted) for p in w.parts))
                 for w in ws)


def _command(c: Any) -> tuple[Any, ...]:
    return (c.text, c.start, c.end, c.separator, _words(c.words),
            tuple((r.fd, r.op, None if r.target is None else _words([r.target]), r.heredoc) for r in c.redirects))


def effects_fields(found: Any) -> tuple[Any, ...]:
    """What a line's effects hold, commands by their fields (two walks make two objects)."""
    return (tuple((e.op, e.path, _command(e.command), e.pattern, e.recursive, e.ok_means_done,
                   e.failure_means_not_done) for e in found.effects),
            tuple((_command(u.command), u.reason) for u in found.unknown_writes),
            found.cwd, found.cwd_unknown)
