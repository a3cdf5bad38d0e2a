"""The immutable model of a parsed shell command (private; the public names live in
``agenteval_assert.shell``): words with their quoting resolved, expansions kept unexpanded,
redirections, heredocs, simple commands and scripts, and the static resolution of a word's
value from known variables and files. Nothing is executed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Literal, TypeAlias, Union

import attrs

__all__ = [
    "Assignment",
    "Command",
    "Expansion",
    "Heredoc",
    "Redirect",
    "ShellScript",
    "Word",
]


ExpansionKind = Literal["command", "backtick", "process", "parameter", "arithmetic"]


@attrs.define(frozen=True, slots=True)
class Expansion:
    """A substitution inside a word, kept unexpanded.

    Attributes:
        kind: ``command`` (``$( … )``), ``backtick`` (`` `…` ``), ``process`` (``<( … )``),
            ``parameter`` (``$X``, ``${X…}``) or ``arithmetic`` (``$(( … ))``).
        text: the source text, e.g. ``$(cat /tmp/x)``.
        name: the variable of a plain ``$NAME`` / ``${NAME}``, else ``None``.
        script: the parsed commands of a command/backtick/process substitution.
        quoted: it sits inside double quotes (no word splitting).
    """

    kind: ExpansionKind
    text: str
    name: str | None = None
    script: ShellScript | None = None
    quoted: bool = False


Part: TypeAlias = Union[str, Expansion]  # noqa: UP007 (a runtime alias on Python 3.10)


@attrs.define(frozen=True, slots=True)
class Word:
    """One shell word with its quoting resolved.

    Attributes:
        text: the source text of the word.
        value: the word after quote removal and escape processing; expansions stay as their
            source text (``--input=$(cat f)`` keeps ``$(cat f)``): nothing is executed.
        parts: literal strings and ``Expansion`` objects, in order.
        quoted: some character was quoted or escaped.
        quoted_start: the first character was quoted or escaped (``'--x'`` is not an option).
    """

    text: str
    value: str
    parts: tuple[Part, ...] = ()
    quoted: bool = False
    quoted_start: bool = False

    @property
    def expands(self) -> bool:
        """The word contains an unquoted or double-quoted ``$``/backtick expansion."""
        for p in self.parts:  # noqa: SIM110 - a loop, not any() over a generator: asked of every word of a walk
            if isinstance(p, Expansion):
                return True
        return False

    @property
    def expansions(self) -> tuple[Expansion, ...]:
        return tuple(p for p in self.parts if isinstance(p, Expansion))

    def resolve(
        self, env: Mapping[str, str] | None = None, files: Mapping[str, str] | None = None
    ) -> str | None:
        """The value with statically known expansions replaced, or ``None`` if one is unknown.

        Known are: ``$NAME``/``${NAME}`` in *env*; ``$(cat FILE)``, ``$(< FILE)`` and
        `` `cat FILE` `` for a FILE in *files*; ``$(cat <<'EOF' … EOF)`` (an inline heredoc).
        Command substitutions lose their trailing newlines, as in the shell.
        """
        out: list[str] = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
                continue
            r = resolve_expansion(p, env or {}, files or {})
            if r is None:
                return None
            out.append(r)
        return "".join(out)


@attrs.define(frozen=True, slots=True)
class Heredoc:
    """The body of a here-document (``<<TAG``): data, never commands.

    Attributes:
        tag: the delimiter, quotes removed.
        body: the text between the operator's line and the delimiter line, each line ending in
            ``\\n`` (leading tabs removed for ``<<-``).
        quoted: the tag was quoted, so the shell does not expand the body.
        strip_tabs: ``<<-``.
        complete: the delimiter line was found.
    """

    tag: str
    body: str
    quoted: bool
    strip_tabs: bool
    complete: bool


@attrs.define(frozen=True, slots=True)
class Redirect:
    """A redirection: ``2>&1``, ``> out``, ``2> err.log``, ``< in``, ``<<EOF``, ``<<< word``.

    Attributes:
        fd: the explicit descriptor (``"2"``, ``"{var}"``), ``"&"`` for ``&>``, else ``None``.
        op: the operator: ``>``, ``>>``, ``>|``, ``<``, ``<>``, ``>&``, ``<&``, ``&>``, ``&>>``,
            ``<<``, ``<<-``, ``<<<``.
        target: the file / descriptor word (for heredocs: the tag word).
        heredoc: the here-document body for ``<<``/``<<-``.
    """

    fd: str | None
    op: str
    target: Word | None
    heredoc: Heredoc | None = None

    @property
    def text(self) -> str:
        t = self.target.text if self.target is not None else ""
        return f"{self.fd or ''}{self.op}{t}"

    @property
    def writes_file(self) -> str | None:
        """The file this redirection writes (``> f``, ``>> f``, ``&> f``), else ``None``."""
        if self.op in (">", ">>", ">|", "&>", "&>>") and self.target is not None:
            return self.target.value
        return None


@attrs.define(frozen=True, slots=True)
class Assignment:
    """A leading ``NAME=value`` (or ``NAME+=value``) of a command."""

    name: str
    value: Word
    append: bool = False


@attrs.define(frozen=True, slots=True, eq=False)
class Command:
    """One simple command.

    Attributes:
        words: the argv words (assignments, redirections and keywords removed).
        assignments: leading ``NAME=value`` words.
        redirects: redirections, in order.
        text: the command's source text (heredoc bodies excluded).
        start / end: offsets of ``text`` in the script's source.
        separator: the operator that follows: ``|``, ``|&``, ``&&``, ``||``, ``;``, ``&``,
            ``\\n``, ``;;``, or ``None`` at the end.
        nested: for a shell wrapper (``bash -lc '…'``, ``env bash -x -c '…'``), the parsed
            inner script.
        wrapper: for a command read from a nested script, the wrapper command that ran it.
    """

    words: tuple[Word, ...]
    assignments: tuple[Assignment, ...]
    redirects: tuple[Redirect, ...]
    text: str
    start: int
    end: int
    separator: str | None = None
    nested: ShellScript | None = None
    wrapper: Command | None = None

    @property
    def argv(self) -> tuple[str, ...]:
        """The word values."""
        return tuple(w.value for w in self.words)

    @property
    def name(self) -> str | None:
        """The program: the last path component of ``argv[0]``, or ``None`` without words."""
        if not self.words:
            return None
        return self.words[0].value.rsplit("/", 1)[-1]

    @property
    def env(self) -> dict[str, str]:
        """The leading assignments as ``{name: value}`` (values unexpanded)."""
        return {a.name: a.value.value for a in self.assignments}

    @property
    def heredocs(self) -> tuple[Heredoc, ...]:
        return tuple(r.heredoc for r in self.redirects if r.heredoc is not None)

    @property
    def substitutions(self) -> tuple[Expansion, ...]:
        """The command/backtick/process substitutions in its words, assignments and redirects."""
        if not self.assignments and not self.redirects:
            for w in self.words:  # most commands: words of one literal part, nothing to gather
                parts = w.parts
                if len(parts) > 1 or (parts and not isinstance(parts[0], str)):
                    break
            else:
                return ()
        words = [*self.words, *(a.value for a in self.assignments)]
        words += [r.target for r in self.redirects if r.target is not None and r.heredoc is None]
        return tuple(
            e
            for w in words
            if len(w.parts) > 1 or (w.parts and not isinstance(w.parts[0], str))
            for e in w.expansions
            if e.script is not None
        )

    def __repr__(self) -> str:
        return f"Command({self.text!r})"


@attrs.define(frozen=True, slots=True, eq=False)
class ShellScript:
    """A parsed command string.

    Attributes:
        source: the text parsed.
        top_level: the simple commands as written, in order (a ``bash -c`` wrapper is one
            command whose ``nested`` holds the inner script).
        complete: the whole text was understood (no unterminated quote, heredoc or
            substitution, no depth limit hit); ``False`` means best effort.
        problems: why it is incomplete, in words.
    """

    source: str
    top_level: tuple[Command, ...]
    complete: bool = True
    problems: tuple[str, ...] = ()

    @property
    def commands(self) -> tuple[Command, ...]:
        """The simple commands that run, in order, shell wrappers replaced by what they run."""
        out: list[Command] = []
        for c in self.top_level:
            if c.nested is not None:
                out.extend(c.nested.commands)
            else:
                out.append(c)
        return tuple(out)

    def walk(self, *, substitutions: bool = True) -> Iterator[Command]:
        """Every command in execution order: substitutions first (when asked), then the command,
        shell wrappers unwrapped recursively."""
        for c in self.top_level:
            if substitutions:
                for e in c.substitutions:
                    if e.script is not None:
                        yield from e.script.walk(substitutions=True)
            if c.nested is not None:
                yield from c.nested.walk(substitutions=substitutions)
            else:
                yield c

    @property
    def pipelines(self) -> tuple[tuple[Command, ...], ...]:
        """The top-level commands grouped into pipelines (split at everything but ``|``/``|&``)."""
        out: list[tuple[Command, ...]] = []
        cur: list[Command] = []
        for c in self.top_level:
            cur.append(c)
            if c.separator not in ("|", "|&"):
                out.append(tuple(cur))
                cur = []
        if cur:
            out.append(tuple(cur))
        return tuple(out)

    def files_written(self, files: Mapping[str, str] | None = None) -> dict[str, str]:
        """Files written by heredocs: ``cat > f <<EOF``, ``cat <<EOF > f``, ``cat >> f``, ``tee f``.

        *files* (earlier known contents) is used for appends; the result holds only the files
        this script writes, with their final content.
        """
        known: dict[str, str] = dict(files or {})
        written: dict[str, str] = {}
        for c in self.walk(substitutions=False):
            docs = c.heredocs
            if not docs or c.name not in ("cat", "tee"):
                continue
            body = docs[-1].body
            targets: list[tuple[str, bool]] = []
            for r in c.redirects:
                path = r.writes_file
                if path is not None:
                    targets.append((path, r.op in (">>", "&>>")))
            if c.name == "tee":
                args = [w.value for w in c.words[1:]]
                append = "-a" in args or "--append" in args
                targets += [(a, append) for a in args if not a.startswith("-")]
            elif len(c.words) > 1:
                continue  # cat FILE <<EOF: the heredoc is not what is written
            for path, append in targets:
                text = (known.get(path, "") + body) if append else body
                known[path] = written[path] = text
        return written


def resolve_expansion(
    e: Expansion, env: Mapping[str, str], files: Mapping[str, str]
) -> str | None:
    """The static value of one expansion, or ``None`` (see ``Word.resolve``)."""
    if e.kind == "parameter":
        return env.get(e.name) if e.name is not None else None
    if e.script is None or e.kind == "process":
        return None
    cmds = list(e.script.walk(substitutions=False))
    if len(cmds) != 1:
        return None
    c = cmds[0]
    text: str | None = None
    if c.name == "cat" and not c.assignments:
        args = [w for w in c.words[1:]]
        inputs = [r for r in c.redirects if r.op in ("<", "<<", "<<-", "<<<")]
        outputs = [r for r in c.redirects if r.op not in ("<", "<<", "<<-", "<<<")]
        if outputs:
            return None
        if len(args) == 1 and not inputs:
            text = lookup_file(files, args[0].value)
        elif not args and len(inputs) == 1:
            text = _input_text(inputs[0], env, files)
    elif not c.words and not c.assignments and len(c.redirects) == 1 and c.redirects[0].op == "<":
        text = _input_text(c.redirects[0], env, files)
    if text is None:
        return None
    return text.rstrip("\n")


def _input_text(r: Redirect, env: Mapping[str, str], files: Mapping[str, str]) -> str | None:
    if r.heredoc is not None:
        return r.heredoc.body
    if r.target is None:
        return None
    if r.op == "<<<":
        v = r.target.resolve(env, files)
        return None if v is None else v + "\n"
    if r.op == "<":
        return lookup_file(files, r.target.value)
    return None


def lookup_file(files: Mapping[str, str], path: str) -> str | None:
    """The content of *path* in *files*: an exact key, else the one key that ends with it.

    The agent may write ``/workspace/tmp/p.json`` and read ``tmp/p.json`` or ``./tmp/p.json``
    after a ``cd``: a relative path matches the single known path ending in ``/`` + it.
    """
    if path in files:
        return files[path]
    rel = path.removeprefix("./")
    if not rel or rel.startswith("/"):
        return None
    hits = [v for k, v in files.items() if k.endswith("/" + rel) or k == rel]
    return hits[0] if len(hits) == 1 else None
