"""What a shell command reads and writes, read statically from its parsed form (private; the
public names live in ``agenteval_assert.shell``). Nothing is executed.

``file_effects(script)`` walks every simple command (shell wrappers unwrapped, substitutions
included, a literal ``eval`` parsed) and returns:

* ``FileEffect``s: a file read (``cat``, ``sed -n``, ``head``, ``grep``/``rg`` on named files,
  ``< f``...), written (``> f``, ``tee``, ``cp``/``mv``/``ln``/``rsync`` targets, ``touch``,
  ``sort -o``, ``sponge``, ``git checkout -- f``/``git restore``, a patch that creates a file...),
  edited (``>> f``, ``sed -i``, ``perl -i``, ``awk -i inplace``, ``yq -i``, an editor, a patch, a
  formatter's ``--write``, ``npm pkg set``...) or deleted (``rm``, ``unlink``, ``mv`` sources,
  ``git rm``, ``gzip``'s input...), each relative path resolved against the folder a literal
  ``cd``/``pushd``/``popd``/``git -C`` of the line moved to, brace lists expanded;
* ``UnknownWrite``s: commands that may write files whose names the command does not show (a
  script, ``make``, a package script, inline interpreter code, ``xargs rm``, ``find -delete``,
  ``git reset --hard``, a patch read from a file, a target that is a ``$VARIABLE``, a write in a
  folder the line does not fix).

Every other program is taken to write no file (test runners, compilers, linters without
``--fix``, ``ls``, ``git status``, ``chmod``...): the tables of ``_shell_programs`` (what each
program does, from its argv) are the whole model, and ``docs/shell.md`` lists them. This module
walks the command line: which simple commands run, in which folder, and what the line's exit
status says of each.

Each effect also says how the call's exit status speaks for it (``ok_means_done``,
``failure_means_not_done``): in ``cd app && sed -i … f`` a zero exit status means ``sed`` ran and
succeeded; in ``sed -i … f; echo done`` it says nothing about ``sed``, nor in ``true || sed -i …
f`` (``sed`` runs only if ``true`` failed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import attrs

from ._shell_model import Command, Redirect, ShellScript, Word
from ._shell_parse import parse_shell
from ._shell_programs import (
    Folder,
    Op,
    _brace_expand,
    _classify,
    _is_glob,
    _parse_args,
    command_forms,
)

__all__ = [
    "FileEffect",
    "Folder",
    "ShellFileEffects",
    "UnknownWrite",
    "command_forms",
    "file_effects",
]



@attrs.define(frozen=True, slots=True)
class FileEffect:
    """One file a shell command reads, writes, edits or deletes.

    Attributes:
        op: ``read``, ``write`` (created or overwritten), ``edit`` (changed in place) or ``delete``.
        path: the path as written in the command (quotes removed; relative paths stay relative).
        command: the simple command that has the effect.
        pattern: *path* is an unquoted glob (``src/*.ts``): it stands for every file it matches.
        recursive: the effect covers everything under *path* (``rm -r dir``, ``cp -r a dir``,
            ``git checkout -- .``, ``prettier --write src``).
        ok_means_done: a zero exit status of the whole command line means this command succeeded.
        failure_means_not_done: a non-zero exit status means this command did not succeed.
    """

    op: Op
    path: str
    command: Command
    pattern: bool = False
    recursive: bool = False
    ok_means_done: bool = False
    failure_means_not_done: bool = False


@attrs.define(frozen=True, slots=True)
class UnknownWrite:
    """A command that may write files the command line does not name.

    Attributes:
        command: the simple command.
        reason: why, in words (``runs the script ./build.sh``).
    """

    command: Command
    reason: str


@attrs.define(frozen=True, slots=True)
class ShellFileEffects:
    """The file effects of one command line.

    Attributes:
        effects: the files it reads, writes, edits or deletes.
        unknown_writes: its commands that may write files it does not name.
        cwd: the folder its shell is left in when the line exits 0 (a literal ``cd`` at its top
            level moves it; ``""``: the folder it started in), relative to that start folder
            unless absolute: what the next call of an agent whose shell persists starts in.
        cwd_unknown: when *cwd* is a guess (``cd "$X"``, a ``cd`` under ``if``): why, in words.
    """

    effects: tuple[FileEffect, ...] = ()
    unknown_writes: tuple[UnknownWrite, ...] = ()
    cwd: str = ""
    cwd_unknown: str | None = None


# -- the walk --------------------------------------------------------------------------------------

_KEYWORDS = frozenset({"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until",
                       "time", "esac", "for", "select", "case", "function", "(", ")"})


def _gaps(script: ShellScript) -> list[tuple[str, Command | None]]:
    """The text between the top-level commands (what the parser keeps no command for: separators,
    keywords, group brackets, the redirections of a group or loop), heredoc bodies removed, each
    with the command before it."""
    src = script.source
    out: list[tuple[str, Command | None]] = []
    prev: Command | None = None
    prev_end = 0
    pending: list[str] = []  # heredoc bodies declared but not met yet (they follow the line)

    def gap(text: str) -> str:
        if not pending:
            return text
        for body in list(pending):
            if body and body in text:
                text = text.replace(body, "", 1)
                pending.remove(body)
        return text

    for c in script.top_level:
        out.append((gap(src[prev_end : c.start]), prev))
        if c.redirects:
            pending.extend(h.body for h in c.heredocs)
        prev, prev_end = c, c.end
    out.append((gap(src[prev_end:]), prev))
    return out


def _gap_lines(text: str) -> Iterator[str]:
    for line in text.split("\n"):
        if line.lstrip().startswith("#"):
            continue
        yield line.split(" #", 1)[0]


#: What a gap between two commands holds when it is only a separator (``&&``, ``|``, ``;``...)
#: with blanks around it: no keyword, bracket or redirection (``_bare``).
_BARE_GAPS = frozenset({"", ";", "&", "|", "&&", "||", "|&"})


def _bare(text: str) -> bool:
    """*text*, a gap, holds nothing but blanks, newlines and one separator: its lines give no
    structure token, no keyword, nothing ``_structured`` counts, no redirection (the long
    way reads the same from ``_gap_lines``; ``tests/test_shell_files_fast.py`` compares)."""
    return text.strip(" \t\r\n") in _BARE_GAPS


def _structured(script: ShellScript, gaps: list[tuple[str, Command | None]], bare: bool = False) -> bool:
    """The command list has control flow or grouping (``if``, ``for``, ``( … )``, ``!``): the
    parser keeps the commands but not the structure, so the exit status cannot be attributed.
    *bare*: every gap is ``_bare`` (then only the commands' own text is looked at)."""
    for c in script.top_level:
        first = c.text.split(None, 1)[0] if c.text.strip() else ""
        if first in _KEYWORDS and not (c.words and c.words[0].text == first):
            return True
    if bare:
        return False
    for text, _ in gaps:
        for line in _gap_lines(text):
            rest = line.strip().strip(";&|").strip()
            if rest and (rest in _KEYWORDS or not rest.replace("-", "_").isidentifier()):
                return True  # a heredoc delimiter line is a bare word
    return False


_GAP_REDIRECT = re.compile(r"(?:^|[\s;&|})])(\d*)(>>|>\||&>>|&>|>|<)[ \t]*(['\"]?)([^\s;&|<>()'\"]+)\3")


def _gap_redirects(gaps: list[tuple[str, Command | None]]) -> Iterator[Command]:
    """``{ …; } > out``, ``done < list``: the redirections of a group or loop, as commands with
    no words (the parser drops them with the group's brackets)."""
    for text, prev in gaps:
        for line in _gap_lines(text):
            for m in _GAP_REDIRECT.finditer(line):
                path = m.group(4)
                target = Word(path, path, (path,), bool(m.group(3)))
                redirect = Redirect(m.group(1) or None, m.group(2), target)
                start = prev.end if prev is not None else 0
                yield Command((), (), (redirect,), line.strip(), start, start + len(text), None)


_END = (None, ";", "\n")
_CHAIN = ("&&", "|", "|&")
_PIPES = ("|", "|&")
#: Separators after which a new and-or list starts.
_LIST_ENDS = (";", "\n", "&")
_CONTROL_OPEN = frozenset({"if", "for", "while", "until", "case", "select"})
_CONTROL_CLOSE = frozenset({"fi", "done", "esac"})
_STRUCTURE_TOKEN = re.compile(r"[()]|[A-Za-z_]+")
#: Nested ``eval``s followed.
_EVAL_DEPTH = 8


def _chdir(c: Command, here: Folder, stack: list[Folder], _long: bool = False) -> Folder | None:
    """The working folder after *c* if it is a literal ``cd``/``pushd``/``popd``, else ``None``.
    (*_long*, for the tests: without the shortcut of a plain ``cd DIR``.)"""
    if not c.words or c.words[0].value not in ("cd", "pushd", "popd") or c.words[0].expands:
        return None
    name = c.words[0].value
    ops = _parse_args(c.words[1:]).operands
    if not _long and name == "cd" and ops and ops[0].value != "-" and not ops[0].expands:
        return here.cd(ops[0].value)  # the common case, as below: no text to show
    shown = " ".join(w.text for w in c.words)
    unknown = f"after {shown!r}, a folder the command line does not show"
    if name == "popd":
        if ops or not stack:
            return Folder("$PWD", unknown)
        return stack.pop()
    if name == "pushd":
        if not ops:  # swaps the two top folders
            if not stack:
                return Folder("$PWD", unknown)
            top = stack.pop()
            stack.append(here)
            return top
        if ops[0].value[:1] in "+-" and ops[0].value[1:].isdigit():
            return Folder("$PWD", unknown)  # a rotation of the stack
        stack.append(here)
    if not ops:
        return here.cd("~")
    target = ops[0]
    if target.value == "-":
        return Folder("$OLDPWD", unknown)
    if target.expands:
        return here.cd(target.value, f"after {shown!r}, a folder only known when it runs")
    return here.cd(target.value)


def _structure_tokens(gap: str, c: Command, bare: bool = False) -> list[str]:
    """The grouping and control keywords before *c*: in the gap before it (none when the gap
    is ``_bare``), and at the start of its own text (``then cd src``)."""
    out: list[str] = []
    if not bare:
        for line in _gap_lines(gap):
            out += _STRUCTURE_TOKEN.findall(line)
    if c.words:
        k = c.text.find(c.words[0].text)
        if k > 0:
            out += _STRUCTURE_TOKEN.findall(c.text[:k])
    return out


class _Step(NamedTuple):
    command: Command
    ok: bool  # a zero exit status of the whole line means this command succeeded
    fail: bool  # a non-zero exit status means it did not
    piped: bool  # its standard input is the previous command's output
    cwd: Folder  # the folder it runs in


class _Walker:
    """Every simple command of a command line, wrappers unwrapped (their redirections kept),
    substitutions first, each with how the line's exit status speaks for it and the folder it
    runs in (a literal ``cd``, ``pushd``, ``popd`` followed; a subshell's undone at its ``)``)."""

    def __init__(self) -> None:
        self.steps: list[_Step] = []

    def walk(self, script: ShellScript, ok_flow: bool, fail_flow: bool, cwd: Folder,
             depth: int = 0) -> tuple[Folder, Folder]:
        """Add the steps of *script*; return the working folder it leaves, and the one it leaves
        when its exit status is 0 (a ``cd`` in the ``&&`` chain of its last command then ran)."""
        cmds = script.top_level
        gaps = _gaps(script)
        bare = all(_bare(g) for g, _ in gaps)  # no gap holds a keyword, bracket or redirection
        structured = _structured(script, gaps, bare)
        n = len(cmds)
        end_ok = bool(cmds) and cmds[-1].separator in _END
        # chained[i]: every separator from command i to the last is ``&&`` or a pipe
        chained = [True] * (n + 1)
        for j in range(n - 2, -1, -1):
            chained[j] = chained[j + 1] and cmds[j].separator in _CHAIN
        start = cwd
        stack: list[Folder] = []
        subshells: list[tuple[Folder, Folder | None]] = []
        opened: list[str] = []
        chain: Folder | None = None  # the folder of a conditional cd, for the commands its && chain guards
        first = 0  # the first command of the current pipeline
        for i, c in enumerate(cmds):
            for tok in (_structure_tokens(gaps[i][0], c, bare)
                        if not bare or (c.words and not c.text.startswith(c.words[0].text)) else ()):
                in_case = bool(opened) and opened[-1] == "case"
                if tok == "(" and not in_case:
                    subshells.append((cwd, chain))
                elif tok == ")" and not in_case:
                    if subshells:
                        cwd, chain = subshells.pop()
                elif tok in _CONTROL_OPEN:
                    opened.append(tok)
                elif tok in _CONTROL_CLOSE and opened:
                    opened.pop()
            prev = cmds[i - 1].separator if i else None
            if prev not in _PIPES:
                first = i
            if chain is not None and prev != "&&" and prev not in _PIPES:
                cwd, chain = chain.guess("after a cd that may not have run"), None
            here = chain if chain is not None else cwd
            # ``&&`` binds looser than ``|``: in ``a && b | c`` a zero status means ``a`` succeeded;
            # a command after ``||`` runs only if what came before it failed: a zero status of the
            # line does not say it ran.
            guarded = first > 0 and cmds[first - 1].separator == "||"
            ok = (ok_flow and not structured and end_ok and not guarded
                  and (i == n - 1 or (c.separator == "&&" and chained[i + 1])))
            fail = fail_flow and not structured and end_ok and i == n - 1 and (i == 0 or _chained_before(cmds, i))
            piped = prev in _PIPES
            for e in c.substitutions:
                if e.script is not None:
                    inner = _Walker()
                    inner.walk(e.script, False, False, here, depth + 1)
                    self.steps.extend(_Step(s.command, False, False, s.piped, s.cwd) for s in inner.steps)
            after: Folder | None = None
            if c.nested is not None:
                self.walk(c.nested, ok, fail, here, depth + 1)  # a new shell: its cd stays inside
                if c.redirects:
                    self.steps.append(_Step(Command((), (), c.redirects, c.text, c.start, c.end, c.separator),
                                            ok, fail, piped, here))
            elif _literal_eval(c) and depth < _EVAL_DEPTH:
                text = " ".join(w.value for w in c.words[1:])
                left, _ = self.walk(parse_shell(text), ok, fail, here, depth + 1)  # the same shell: cd persists
                after = left if left != here else None
                if c.redirects:
                    self.steps.append(_Step(Command((), (), c.redirects, c.text, c.start, c.end, c.separator),
                                            ok, fail, piped, here))
            else:
                self.steps.append(_Step(c, ok, fail, piped, here))
                after = _chdir(c, here, stack)
            if after is None or piped or c.separator in _PIPES or c.separator == "&":
                continue  # no cd, or one in a pipeline or in the background: a subshell of its own
            if opened:
                cwd, chain = after.guess("after a cd under if, for, while or case"), None
            elif prev is None or prev in _LIST_ENDS:
                cwd, chain = after, None
            elif prev == "||":
                chain = after.guess("after a cd that may not have run")
            else:  # after &&: sure for the commands its && chain guards, a guess for the others
                chain = after
        for line in _gap_lines(gaps[-1][0]) if n and not bare else ():  # a ``)`` after the last command
            for tok in _STRUCTURE_TOKEN.findall(line):
                if tok == ")" and subshells and not (opened and opened[-1] == "case"):
                    cwd, chain = subshells.pop()
                elif tok in _CONTROL_CLOSE and opened:
                    opened.pop()
        ok_end = cwd
        if chain is not None:
            ok_end = chain if end_ok else chain.guess("after a cd that may not have run")
            cwd = chain.guess("after a cd that may not have run")
        for pseudo in () if bare else _gap_redirects(gaps):
            self.steps.append(_Step(pseudo, False, False, False, start))
        return cwd, ok_end


def _chained_before(cmds: Sequence[Command], i: int) -> bool:
    """Every separator before command *i* is ``&&`` or a pipe."""
    return all(cmds[j].separator in _CHAIN for j in range(i))


def _literal_eval(c: Command) -> bool:
    """``eval`` of words whose text the line shows: what it runs is parsed and walked."""
    return (len(c.words) > 1 and c.words[0].value == "eval" and not c.words[0].expands
            and not any(w.expands for w in c.words[1:]))


def file_effects(script: ShellScript | str, *, cwd: str = "") -> ShellFileEffects:
    """The files a command line reads, writes, edits or deletes, and its commands that may write
    files it does not name (see the module docstring).

    A relative path is resolved against *cwd* (the folder the line starts in, ``""`` for the one
    relative paths already mean) and the folder a literal ``cd``/``pushd``/``popd`` or
    ``git -C`` of the line moved to (``cd src && rm app.ts`` deletes ``src/app.ts``); where that
    folder cannot be told (``cd "$X"``, ``cd -``, a ``cd`` under ``if``), the path keeps what is
    known (``$X/app.ts``) and a change to it is also an unknown write. Unquoted brace lists and
    sequences are expanded (``src/{a,b}.ts``). ``ShellFileEffects.cwd`` is the folder the line
    leaves its shell in.
    """
    return line_effects(script, Folder().cd(cwd) if cwd else Folder())


def line_effects(script: ShellScript | str, start: Folder) -> ShellFileEffects:
    """``file_effects`` from the working folder *start*, which may be a guess (private: the file
    checks carry an agent's folder from one shell call to the next)."""
    if isinstance(script, str):
        script = parse_shell(script)
    effects: list[FileEffect] = []
    unknown: list[UnknownWrite] = []
    walker = _Walker()
    _, end = walker.walk(script, True, True, start)
    for step in walker.steps:
        c = step.command
        stdin: str | None = "" if step.piped else None
        for r in c.redirects:
            if r.heredoc is not None:
                stdin = r.heredoc.body
            elif r.op == "<<<" and r.target is not None:
                stdin = r.target.value
            elif r.op in ("<", "<>") and r.fd in (None, "0") and r.target is not None \
                    and r.target.value != "/dev/null":
                stdin = ""  # a file's content: a script for a shell or an interpreter
            target = r.target
            if target is None or r.heredoc is not None or r.op in ("<<<", ">&", "<&"):
                continue
            path = target.value
            if path.startswith(("/dev/", "&")) or path.isdigit() or path == "-":
                continue
            if target.expands:
                if r.writes_file is not None:
                    unknown.append(UnknownWrite(c, f"writes to {target.text}, a name only known when it runs"))
                continue
            if r.op == "<":
                _add(effects, unknown, step, "read", path, _is_glob(target), False)
            elif r.writes_file is not None:
                _add(effects, unknown, step, "edit" if r.op in (">>", "&>>") else "write", path, _is_glob(target),
                     False)
        found, reasons = _classify(_brace_expand(c.words), stdin)
        for op, w, rec in found:
            if w.expands:
                if op != "read":
                    unknown.append(UnknownWrite(c, f"{c.name} changes {w.text}, a name only known when it runs"))
                continue
            _add(effects, unknown, step, op, w.value, _is_glob(w), rec)
        if reasons:
            unknown.extend(UnknownWrite(c, r) for r in reasons)
    return ShellFileEffects(tuple(effects), tuple(unknown), end.path, end.why)


def _add(effects: list[FileEffect], unknown: list[UnknownWrite], step: _Step, op: Op, path: str, pattern: bool,
         rec: bool) -> None:
    """One effect of *step*, its relative path resolved against the step's working folder."""
    c, cwd = step.command, step.cwd
    if (cwd.path or cwd.why) and not path.startswith(("/", "~")):
        if cwd.why is not None and op != "read":
            unknown.append(UnknownWrite(c, f"{c.name or 'the command'} changes {path} in a folder the command "
                                           f"line does not fix ({cwd.why})"))
        path = cwd.join(path)
    effects.append(FileEffect(op, path, c, pattern, rec, step.ok, step.fail))


