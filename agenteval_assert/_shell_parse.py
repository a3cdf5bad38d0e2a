"""The shell parser behind ``agenteval_assert.shell`` (private; the public names live there).

It reads a command string into the immutable model of ``_shell_model``.

A hand-written, single-pass recursive-descent reader of the POSIX/bash *command language*
subset that coding agents emit: simple commands, ``|`` ``|&`` ``&&`` ``||`` ``;`` ``&`` and
newline separators, quoting (``'…'``, ``"…"``, ``$'…'``, ``\\x``), line continuations,
assignments, redirections, heredocs (``<<TAG``, ``<<'TAG'``, ``<<-TAG``, also inside
``$( … )``), command/parameter/arithmetic substitutions, backticks, process substitutions,
subshell/brace grouping, ``if``/``while``/``for``/``case`` keywords and comments.

Why by hand and not tree-sitter-bash or bashlex: see ``docs/shell.md`` (the evaluation and its
numbers). In short: the library is pure Python, malformed input must yield a best-effort
structure (tree-sitter folds it into ``ERROR`` nodes and drops words), tree-sitter attaches the
redirections of ``a && b > f`` to the whole list, and word values/quoting flags would have had to
be computed by hand anyway; bashlex rejects the real heredoc fixture and is 20x slower.

Every scan moves forward: single quotes and heredoc lines are found with ``str.find``, runs of
ordinary characters with a character-class regex (no alternation, no backtracking), and each
nested construct is read once by a recursive call that shares the position. Parsing is linear in
the length of the input (times the nesting depth of ``bash -c`` wrappers, bounded by
``MAX_DEPTH``). Nothing here raises on any input: problems are collected and the script is
marked incomplete.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._shell_model import (
    Assignment,
    Command,
    Expansion,
    ExpansionKind,
    Heredoc,
    Part,
    Redirect,
    ShellScript,
    Word,
)

__all__ = [
    "MAX_DEPTH",
    "parse_shell",
]

#: Deepest nesting of substitutions / ``bash -c`` wrappers that is parsed; deeper text is kept
#: as an opaque literal and the script is marked incomplete.
MAX_DEPTH = 32


# Runs of ordinary word characters (outside quotes). A single negated character class: linear.
_PLAIN = re.compile(r"[^\s'\"\\$`;&|<>()]+")
# Runs inside double quotes.
_DQ_PLAIN = re.compile(r"[^\"\\$`]+")
_WORD_END = frozenset(" \t\n\r;&|<>)")
_REDIR_START = frozenset("<>&0123456789{")
_ESAC = re.compile(r"esac(?![^\s;&|)])")
_EMPTY_PARENS = re.compile(r"\([ \t]*\)")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_FD = re.compile(r"[0-9]+(?=[<>])|\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])")
_BLANK = re.compile(r"(?:[ \t\r\f\v]|\\\r?\n)+")
_SHELLS = re.compile(r"(?:.*/)?(?:sh|bash|zsh|dash|ksh|mksh|ash)")
_C_OPTION = re.compile(r"-[A-Za-z]*c[A-Za-z]*")

_ANSI_SIMPLE = {
    "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
    "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?",
}
_ANSI_NUMERIC = {
    "x": re.compile(r"[0-9A-Fa-f]{1,2}"),
    "u": re.compile(r"[0-9A-Fa-f]{1,4}"),
    "U": re.compile(r"[0-9A-Fa-f]{1,8}"),
}
_OCTAL = re.compile(r"[0-7]{1,3}")

_SEPARATORS = ("&&", "||", ";;&", ";;", ";&", "|&", "|", ";", "&")
_REDIR_OPS = ("<<<", "<<-", "<<", "<>", "<&", ">>", ">&", ">|", "&>>", "&>", "<", ">")
# Reserved words that may open a command and are not part of what runs.
# Alternations of fixed strings, longest first, matched at one position: no backtracking.
_SEPARATOR = re.compile("|".join(re.escape(o) for o in _SEPARATORS))
_REDIR_OP = re.compile("|".join(re.escape(o) for o in _REDIR_OPS))
_LEADING_KEYWORDS = frozenset(
    {"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "time", "esac"}
)
# Headers whose words are not a command (``for x in a b``, ``case $x in``, ``function f``).
_HEADER_KEYWORDS = frozenset({"for", "select", "case", "function"})
# Options of bash/sh/zsh that take the next word as their argument.
_SHELL_OPTS_WITH_ARG = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


class _HD:
    """A heredoc whose body is read at the next newline."""

    __slots__ = ("body", "complete", "quoted", "strip_tabs", "tag")

    def __init__(self, tag: str, quoted: bool, strip_tabs: bool) -> None:
        self.tag = tag
        self.quoted = quoted
        self.strip_tabs = strip_tabs
        self.body = ""
        self.complete = False


class _Cmd:
    __slots__ = ("assignments", "end", "header", "redirects", "start", "words")

    def __init__(self, start: int) -> None:
        self.start = start
        self.end = start
        self.words: list[Word] = []
        self.assignments: list[Assignment] = []
        self.redirects: list[tuple[str | None, str, Word | None, _HD | None]] = []
        self.header = False

    def empty(self) -> bool:
        return not (self.words or self.assignments or self.redirects)


class _Parser:
    def __init__(self, src: str, depth: int) -> None:
        self.src = src
        self.n = len(src)
        self.pos = 0
        self.depth = depth
        self.problems: list[str] = []
        self.pending: list[_HD] = []
        # The commands of every nesting level, frozen only at the end (heredoc bodies arrive
        # after the command that declares them).
        self.sub_depth = 0

    def problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    # -- lists of commands -------------------------------------------------------------------

    def parse_list(self, until: str | None) -> list[tuple[_Cmd, str | None]]:
        """Read commands until end of input or, for a substitution, the closing ``)``."""
        src, n = self.src, self.n
        out: list[tuple[_Cmd, str | None]] = []
        cur = _Cmd(self.pos)
        group = 0
        case_depth = 0
        expect_pattern = False  # after ``case … in`` and after ``;;``: a pattern list up to ``)``

        def finish(sep: str | None) -> None:
            nonlocal cur, case_depth, expect_pattern
            self._strip_keywords(cur)
            if cur.header and cur.words and cur.words[0].value == "case":
                case_depth += 1
                expect_pattern = True
            if not cur.empty() and not cur.header:
                out.append((cur, sep))
            elif out and sep is not None and out[-1][1] is None:
                out[-1] = (out[-1][0], sep)
            cur = _Cmd(self.pos)

        while True:
            m = _BLANK.match(src, self.pos)
            if m:
                self.pos = m.end()
            if self.pos >= n:
                if until is not None:
                    self.problem("unterminated command substitution $( … )")
                break
            c = src[self.pos]
            if not cur.words and not cur.assignments and not cur.redirects:
                cur.start = self.pos
            if c == "\n":
                cur.end = self.pos
                self.pos += 1
                finish("\n")
                self.read_heredocs(in_substitution=until is not None)
                continue
            if c == "#" and (self.pos == 0 or src[self.pos - 1] in " \t\n;&|()"):
                eol = src.find("\n", self.pos)
                self.pos = n if eol < 0 else eol
                continue
            if expect_pattern and cur.empty():
                expect_pattern = False
                if not _ESAC.match(src, self.pos):
                    start = self.pos + 1 if c == "(" else self.pos
                    self.pos = self._skip_balanced(start, "(", ")", 1)
                    cur = _Cmd(self.pos)
                    continue
            if c == ")":
                cur.end = self.pos
                self.pos += 1
                if cur.header and cur.words and cur.words[0].value == "case":
                    case_depth += 1  # ``case WORD in PATTERN)`` on one line
                    cur = _Cmd(self.pos)
                    continue
                if group > 0:
                    group -= 1
                    finish(None)  # the operator after ``)`` (``| wc``) is the separator
                    continue
                if case_depth > 0:
                    cur = _Cmd(self.pos)  # a case pattern: not a command
                    continue
                if until is not None:
                    finish(None)
                    return out
                self.problem(f"unmatched ')' at offset {self.pos - 1}")
                finish(None)
                continue
            if c == "(":
                if src.startswith("((", self.pos) and cur.empty():
                    self.pos = self._skip_balanced(self.pos + 2, "(", ")", 2)
                    continue
                if cur.empty():
                    group += 1
                    self.pos += 1
                    continue
                # ``name () { … }``: a function definition; the name is not a command.
                j = self.pos + 1
                while j < n and src[j] in " \t":
                    j += 1
                if j < n and src[j] == ")":
                    self.pos = j + 1
                    cur = _Cmd(self.pos)
                    continue
                self.problem(f"unexpected '(' at offset {self.pos}")
                self.pos += 1
                continue
            if c in _REDIR_START and self._at_redirect():
                self.read_redirect(cur)
                cur.end = self.pos
                continue
            if c in ";&|":
                sm = _SEPARATOR.match(src, self.pos)
                op = sm.group() if sm is not None else c
                cur.end = self.pos
                self.pos += len(op)
                finish(op)
                if op in (";;", ";&", ";;&") and case_depth > 0:
                    expect_pattern = True
                continue
            # A word (or an assignment before the command name).
            if not cur.words and not cur.header:
                am = _ASSIGN.match(src, self.pos)
                if am:
                    self.pos = am.end()
                    if self.pos < n and src[self.pos] == "(":
                        end = self._skip_balanced(self.pos + 1, "(", ")", 1)
                        txt = src[self.pos : end]
                        self.pos = end
                        value = Word(txt, txt, (txt,))
                    else:
                        value = self.read_word()
                    cur.assignments.append(Assignment(am.group(1), value, bool(am.group(2))))
                    cur.end = self.pos
                    continue
            w = self.read_word()
            if not cur.words and not w.quoted and w.value in _HEADER_KEYWORDS:
                cur.header = True
            if w.value == "esac" and not w.quoted and case_depth > 0 and not cur.words:
                case_depth -= 1
            cur.words.append(w)
            cur.end = self.pos
        cur.end = self.pos
        finish(None)
        if group > 0:
            self.problem("unterminated '(' group")
        return out

    def _strip_keywords(self, cur: _Cmd) -> None:
        stripped = False
        while cur.words and not cur.words[0].quoted and cur.words[0].value in _LEADING_KEYWORDS:
            cur.words.pop(0)
            stripped = True
        if stripped and not cur.words and not cur.assignments:
            cur.header = True  # ``done < f``, ``} > out``: redirections of a compound command
        if cur.words and not cur.words[0].quoted and cur.words[0].value in _HEADER_KEYWORDS:
            cur.header = True

    def _skip_balanced(self, pos: int, open_: str, close: str, depth: int) -> int:
        """Position after the ``close`` that balances *depth* opened ``open_`` (quotes skipped)."""
        src, n = self.src, self.n
        while pos < n:
            ch = src[pos]
            if ch == "\\":
                pos += 2
                continue
            if ch == "'":
                j = src.find("'", pos + 1)
                pos = n if j < 0 else j + 1
                continue
            if ch == open_:
                depth += 1
            elif ch == close:
                depth -= 1
                if depth == 0:
                    return pos + 1
            pos += 1
        self.problem(f"unterminated '{open_}'")
        return n

    # -- heredocs ------------------------------------------------------------------------------

    def read_heredocs(self, in_substitution: bool) -> None:
        src, n = self.src, self.n
        while self.pending:
            hd = self.pending.pop(0)
            lines: list[str] = []
            while self.pos < n:
                eol = src.find("\n", self.pos)
                line_end = n if eol < 0 else eol
                line = src[self.pos : line_end]
                check = line.lstrip("\t") if hd.strip_tabs else line
                if check == hd.tag or check.rstrip("\r") == hd.tag:
                    hd.complete = True
                    self.pos = n if eol < 0 else eol + 1
                    break
                if in_substitution and check.startswith(hd.tag):
                    rest = check[len(hd.tag) :]
                    if rest.lstrip(" \t").startswith(")"):
                        hd.complete = True
                        self.pos = line_end - len(rest)
                        break
                lines.append(check + "\n")
                self.pos = n if eol < 0 else eol + 1
            if not hd.complete:
                self.problem(f"unterminated heredoc (no line {hd.tag!r})")
            hd.body = "".join(lines)

    # -- redirections --------------------------------------------------------------------------

    def _at_redirect(self) -> bool:
        src, p = self.src, self.pos
        c = src[p]
        if c in "<>":
            return not src.startswith("<(", p) and not src.startswith(">(", p)
        if c == "&":
            return src.startswith("&>", p)
        if c.isdigit() or c == "{":
            return _FD.match(src, p) is not None
        return False

    def read_redirect(self, cur: _Cmd) -> None:
        src = self.src
        fd: str | None = None
        m = _FD.match(src, self.pos)
        if m:
            fd = m.group()
            self.pos = m.end()
        om = _REDIR_OP.match(src, self.pos)
        op = om.group() if om is not None else src[self.pos]
        self.pos += len(op)
        if op in ("&>", "&>>"):
            fd = "&"
            op = op[1:]
            op = "&" + op
        m2 = _BLANK.match(src, self.pos)
        if m2:
            self.pos = m2.end()
        if self.pos >= self.n or src[self.pos] in "\n;&|<>()":
            self.problem(f"redirection {op!r} without a target")
            cur.redirects.append((fd, op, None, None))
            return
        target = self.read_word()
        hd: _HD | None = None
        if op in ("<<", "<<-"):
            hd = _HD(target.value, target.quoted, op == "<<-")
            self.pending.append(hd)
        cur.redirects.append((fd, op, target, hd))

    # -- words ---------------------------------------------------------------------------------

    def read_word(self) -> Word:
        src, n = self.src, self.n
        start = self.pos
        # Fast path: most words are one run of plain characters.
        m = _PLAIN.match(src, start)
        if m is not None:
            end = m.end()
            if end >= n or src[end] in _WORD_END:
                text = m.group()
                self.pos = end
                return Word(text, text, (text,))
        parts: list[Part] = []
        lit: list[str] = []
        quoted = False
        quoted_start = False

        def flush() -> None:
            if lit:
                parts.append("".join(lit))
                lit.clear()

        while self.pos < n:
            c = src[self.pos]
            first = self.pos == start
            if c == "(" and not first and not _EMPTY_PARENS.match(src, self.pos):
                # zsh glob qualifiers / bash extglob (``src/(group)/x``, ``@(a|b)``): part of the word
                end = self._skip_balanced(self.pos + 1, "(", ")", 1)
                lit.append(src[self.pos : end])
                self.pos = end
                continue
            if c in " \t\n\r;&|()":
                break
            if c in "<>":
                if (src.startswith("<(", self.pos) or src.startswith(">(", self.pos)) and first:
                    flush()
                    parts.append(self.read_substitution("process", self.pos + 2, quoted=False))
                    continue
                break
            if c == "'":
                j = src.find("'", self.pos + 1)
                if j < 0:
                    self.problem(f"unterminated single quote at offset {self.pos}")
                    lit.append(src[self.pos + 1 :])
                    self.pos = n
                else:
                    lit.append(src[self.pos + 1 : j])
                    self.pos = j + 1
                quoted = True
                quoted_start = quoted_start or first
            elif c == '"':
                self.pos += 1
                self.read_dquote(parts, lit, flush)
                quoted = True
                quoted_start = quoted_start or first
            elif c == "\\":
                if self.pos + 1 >= n:
                    lit.append("\\")
                    self.pos += 1
                elif src[self.pos + 1] == "\n":
                    self.pos += 2
                else:
                    lit.append(src[self.pos + 1])
                    self.pos += 2
                    quoted = True
                    quoted_start = quoted_start or first
            elif c == "$":
                if src.startswith("$'", self.pos):
                    lit.append(self.read_ansi_c())
                    quoted = True
                    quoted_start = quoted_start or first
                elif src.startswith('$"', self.pos):
                    self.pos += 2
                    self.read_dquote(parts, lit, flush)
                    quoted = True
                    quoted_start = quoted_start or first
                else:
                    e = self.read_dollar(quoted=False)
                    if isinstance(e, str):
                        lit.append(e)
                    else:
                        flush()
                        parts.append(e)
            elif c == "`":
                flush()
                parts.append(self.read_backtick(quoted=False))
            else:
                m = _PLAIN.match(src, self.pos)
                if m is None:  # cannot happen: every other character is plain
                    lit.append(c)
                    self.pos += 1
                else:
                    lit.append(m.group())
                    self.pos = m.end()
        flush()
        value = "".join(p if isinstance(p, str) else p.text for p in parts)
        return Word(src[start : self.pos], value, tuple(parts), quoted, quoted_start)

    def read_dquote(self, parts: list[Part], lit: list[str], flush: Callable[[], None]) -> None:
        src, n = self.src, self.n
        while self.pos < n:
            c = src[self.pos]
            if c == '"':
                self.pos += 1
                return
            if c == "\\":
                nxt = src[self.pos + 1] if self.pos + 1 < n else ""
                if nxt == "\n":
                    self.pos += 2
                elif nxt in ('"', "\\", "$", "`"):
                    lit.append(nxt)
                    self.pos += 2
                else:
                    lit.append("\\")
                    self.pos += 1
            elif c == "$":
                e = self.read_dollar(quoted=True)
                if isinstance(e, str):
                    lit.append(e)
                else:
                    flush()
                    parts.append(e)
            elif c == "`":
                flush()
                parts.append(self.read_backtick(quoted=True))
            else:
                m = _DQ_PLAIN.match(src, self.pos)
                assert m is not None
                lit.append(m.group())
                self.pos = m.end()
        self.problem("unterminated double quote")

    def read_dollar(self, quoted: bool) -> Expansion | str:
        src, n = self.src, self.n
        start = self.pos
        nxt = src[self.pos + 1] if self.pos + 1 < n else ""
        if nxt == "(":
            if src.startswith("$((", self.pos):
                end = self._skip_balanced(self.pos + 3, "(", ")", 2)
                self.pos = end
                return Expansion("arithmetic", src[start:end], quoted=quoted)
            return self.read_substitution("command", self.pos + 2, quoted=quoted)
        if nxt == "{":
            end = self._skip_balanced(self.pos + 2, "{", "}", 1)
            self.pos = end
            inner = src[start + 2 : end - 1]
            name = inner if _NAME.fullmatch(inner) else None
            return Expansion("parameter", src[start:end], name=name, quoted=quoted)
        m = _NAME.match(src, self.pos + 1)
        if m:
            self.pos = m.end()
            return Expansion("parameter", src[start : self.pos], name=m.group(), quoted=quoted)
        if nxt and nxt in "0123456789@*#?$!-":
            self.pos += 2
            return Expansion("parameter", src[start : self.pos], quoted=quoted)
        self.pos += 1
        return "$"

    def read_substitution(self, kind: ExpansionKind, body_start: int, quoted: bool) -> Expansion:
        start = self.pos
        if self.depth + self.sub_depth >= MAX_DEPTH:
            self.problem(f"nesting deeper than {MAX_DEPTH} levels: inner text kept as is")
            end = self._skip_balanced(body_start, "(", ")", 1)
            self.pos = end
            return Expansion(kind, self.src[start:end], quoted=quoted)
        self.pos = body_start
        self.sub_depth += 1
        try:
            items = self.parse_list(until=")")
        finally:
            self.sub_depth -= 1
        text = self.src[start : self.pos]
        inner = self.src[body_start : max(body_start, self.pos - 1)]
        problems: list[str] = []
        script = _freeze_script(inner, items, self.depth + 1, problems, offset=body_start)
        for p in problems:
            self.problem(p)
        return Expansion(kind, text, script=script, quoted=quoted)

    def read_backtick(self, quoted: bool) -> Expansion:
        src, n = self.src, self.n
        start = self.pos
        pos = self.pos + 1
        buf: list[str] = []
        while pos < n:
            ch = src[pos]
            if ch == "\\" and pos + 1 < n and src[pos + 1] in "\\`$":
                buf.append(src[pos + 1])
                pos += 2
                continue
            if ch == "`":
                break
            buf.append(ch)
            pos += 1
        if pos >= n:
            self.problem("unterminated backtick substitution")
            self.pos = n
        else:
            self.pos = pos + 1
        inner = parse_shell("".join(buf), _depth=self.depth + 1)
        for p in inner.problems:
            self.problem(p)
        return Expansion("backtick", src[start : self.pos], script=inner, quoted=quoted)

    def read_ansi_c(self) -> str:
        src, n = self.src, self.n
        pos = self.pos + 2
        out: list[str] = []
        while pos < n:
            ch = src[pos]
            if ch == "'":
                self.pos = pos + 1
                return "".join(out)
            if ch == "\\" and pos + 1 < n:
                e = src[pos + 1]
                if e in _ANSI_SIMPLE:
                    out.append(_ANSI_SIMPLE[e])
                    pos += 2
                    continue
                m = None
                if e in _ANSI_NUMERIC:
                    m = _ANSI_NUMERIC[e].match(src, pos + 2)
                elif e in "01234567":
                    m = _OCTAL.match(src, pos + 1)
                if m is not None:
                    code = int(m.group(), 8 if e in "01234567" else 16)
                    out.append(chr(min(code, 0x10FFFF)))
                    pos = m.end()
                    continue
                out.append("\\" + e)
                pos += 2
                continue
            out.append(ch)
            pos += 1
        self.problem("unterminated $'…' string")
        self.pos = n
        return "".join(out)


def _freeze_redirect(fd: str | None, op: str, target: Word | None, hd: _HD | None) -> Redirect:
    heredoc = None
    if hd is not None:
        heredoc = Heredoc(hd.tag, hd.body, hd.quoted, hd.strip_tabs, hd.complete)
    return Redirect(fd, op, target, heredoc)


def _freeze_script(
    source: str,
    items: list[tuple[_Cmd, str | None]],
    depth: int,
    problems: list[str],
    offset: int = 0,
) -> ShellScript:
    cmds: list[Command] = []
    for cur, sep in items:
        redirects = tuple(_freeze_redirect(*r) for r in cur.redirects)
        start, end = cur.start - offset, cur.end - offset
        text = source[start:end].rstrip() if 0 <= start <= len(source) else ""
        cmd = Command(tuple(cur.words), tuple(cur.assignments), redirects, text, start, end, sep)
        cmds.append(_unwrap(cmd, depth, problems))
    return ShellScript(source, tuple(cmds), not problems, tuple(problems))


def nested_script_index(argv: tuple[str, ...]) -> int | None:
    """Index of the script word of a shell wrapper (``bash -lc SCRIPT``), else ``None``.

    A word that is a short-option cluster containing ``c`` (``-c``, ``-lc``, ``-xc``), preceded
    only by options (and the arguments of ``-o``/``-O``/``--rcfile``) back to a shell program
    (``sh``, ``bash``, ``zsh``, ``dash``, ``ksh``, with any directory).
    """
    for i in range(len(argv) - 1):
        if not _C_OPTION.fullmatch(argv[i]):
            continue
        j = i - 1
        while j >= 0:
            w = argv[j]
            if j > 0 and argv[j - 1] in _SHELL_OPTS_WITH_ARG:
                j -= 2
                continue
            if w.startswith(("-", "+")) and len(w) > 1:
                j -= 1
                continue
            break
        if j >= 0 and _SHELLS.fullmatch(argv[j]):
            return i + 1
    return None


def _unwrap(cmd: Command, depth: int, problems: list[str]) -> Command:
    idx = nested_script_index(cmd.argv)
    if idx is None:
        return cmd
    if depth + 1 >= MAX_DEPTH:
        problems.append(f"shell wrappers nested deeper than {MAX_DEPTH} levels")
        return cmd
    inner = parse_shell(cmd.words[idx].value, _depth=depth + 1)
    problems.extend(p for p in inner.problems if p not in problems)
    wrapped = ShellScript(
        inner.source,
        tuple(_with(c, c.nested, cmd) for c in inner.top_level),
        inner.complete,
        inner.problems,
    )
    return _with(cmd, wrapped, cmd.wrapper)


def _with(c: Command, nested: ShellScript | None, wrapper: Command | None) -> Command:
    # attrs.evolve is generic and slow; this is on the hot path of every Codex command.
    return Command(
        c.words, c.assignments, c.redirects, c.text, c.start, c.end, c.separator, nested, wrapper
    )


#: ``parse_shell`` reads a simple command line (``_SIMPLE_TEXT``) with ``_simple_items`` (the
#: tests turn it off to compare with the general reader).
_FAST = True
#: A command line of plain words, single-quoted text and double-quoted text without ``\\``,
#: ``$`` or a backtick, separated by blanks, newlines and ``;``/``&``/``|`` operators: no
#: expansion, escape, redirection (so no heredoc), bracket, comment, carriage return, form feed
#: or other blank that the general reader treats as word text, and no NUL. Possessive: the
#: alternatives start with different characters, so a text that does not match fails in linear time.
_SIMPLE_TEXT = re.compile(r"""(?:[^\s'"\\$`<>()#\x00]++|[ \t\n]++|'[^'\x00]*+'|"[^"\\$`\x00]*+")*+""")
#: One token of a simple line: blanks, a newline, an operator (the general reader's, longest
#: first), or a word (runs of plain characters and quoted text).
_SIMPLE_TOKEN = re.compile(
    r"""[ \t]+|(\n)|(""" + "|".join(re.escape(o) for o in _SEPARATORS)
    + r""")|((?:[^\s'"\\$`<>()#;&|]++|'[^']*+'|"[^"]*+")++)""")
#: The pieces of a word with quotes: a plain run, single-quoted text, double-quoted text.
_SIMPLE_PIECE = re.compile("([^'\"]+)|'([^']*)'|\"([^\"]*)\"")


def _simple_word(text: str) -> Word:
    """The word *text* of a simple line, as ``_Parser.read_word`` reads it: quotes removed,
    one literal part (none when the word is only empty double quotes, whose reading adds no
    text), quoted when a quote is in it, ``quoted_start`` when it starts with one."""
    if "'" not in text and '"' not in text:
        return Word(text, text, (text,))
    lit: list[str] = []
    for m in _SIMPLE_PIECE.finditer(text):
        plain, single, double = m.groups()
        if plain is not None:
            lit.append(plain)
        elif single is not None:
            lit.append(single)  # '' adds an empty text (the general reader's lit.append)
        elif double:
            lit.append(double)  # "" adds nothing
    value = "".join(lit)
    return Word(text, value, (value,) if lit else (), True, text[0] in "'\"")


def _simple_items(src: str) -> list[tuple[_Cmd, str | None]] | None:
    """``_Parser(src).parse_list(None)`` for a line that matches ``_SIMPLE_TEXT``, read with one
    regular expression; ``None`` when a command starts with a word the general reader treats
    apart (a keyword, a header, an assignment), which it then reads. Offsets as the general
    reader keeps them: a command starts at its first word and ends where its separator starts
    (blanks before it included) or at the end of the text."""
    out: list[tuple[_Cmd, str | None]] = []
    cur = _Cmd(0)
    for m in _SIMPLE_TOKEN.finditer(src):
        newline, op, word = m.groups()
        if word is not None:
            if not cur.words:
                if word in _LEADING_KEYWORDS or word in _HEADER_KEYWORDS or _ASSIGN.match(word):
                    return None
                cur.start = m.start()
            cur.words.append(_simple_word(word))
            continue
        sep = newline or op
        if sep is None:
            continue  # blanks
        if cur.words:
            cur.end = m.start()
            out.append((cur, sep))
        cur = _Cmd(m.end())
    if cur.words:
        cur.end = len(src)
        out.append((cur, None))
    return out


def parse_shell(command: str | bytes, *, _depth: int = 0) -> ShellScript:
    """Parse *command* into a ``ShellScript``. Never raises; see ``ShellScript.complete``."""
    if isinstance(command, (bytes, bytearray)):
        command = bytes(command).decode("utf-8", "replace")
    if not isinstance(command, str):
        return ShellScript(str(command), (), False, (f"not a string: {type(command).__name__}",))
    if _FAST and _SIMPLE_TEXT.fullmatch(command) is not None:
        items = _simple_items(command)
        if items is not None:
            return _freeze_script(command, items, _depth, [])
    p = _Parser(command, _depth)
    if "\x00" in command:
        p.problem("contains NUL characters (binary data)")
    try:
        items = p.parse_list(until=None)
        if p.pending:
            p.read_heredocs(in_substitution=False)
    except RecursionError:
        return ShellScript(command, (), False, ("nesting too deep for the parser",))
    problems = list(p.problems)
    return _freeze_script(command, items, _depth, problems)
