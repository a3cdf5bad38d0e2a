"""What a shell command reads and writes, read statically from its parsed form (private; the
public names live in ``agenteval_assert.shell``). Nothing is executed.

``file_effects(script)`` walks every simple command (shell wrappers unwrapped, substitutions
included) and returns:

* ``FileEffect``s: a file read (``cat``, ``sed -n``, ``head``, ``tail``, ``less``, ``more``,
  ``nl``, ``grep``/``rg`` on named files, ``< f``), written (``> f``, ``tee``, ``cp``/``mv``
  targets, ``touch``, ``git checkout -- f``/``git restore``, a patch that creates a file),
  edited (``>> f``, ``sed -i``, ``perl -i``, a patch, a formatter's ``--write``) or deleted
  (``rm``, ``mv`` sources, ``git rm``);
* ``UnknownWrite``s: commands that may write files whose names the command does not show (a
  script, ``make``, a package script, inline interpreter code, ``xargs rm``, ``find -delete``,
  ``git reset --hard``, a patch read from a file, a target that is a ``$VARIABLE``).

Every other program is taken to write no file (test runners, compilers, linters without
``--fix``, ``ls``, ``git status``...): the tables below are the whole model, and
``docs/shell.md`` lists them.

Each effect also says how the call's exit status speaks for it (``ok_means_done``,
``failure_means_not_done``): in ``cd app && sed -i … f`` a zero exit status means ``sed`` ran and
succeeded; in ``sed -i … f; echo done`` it says nothing about ``sed``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Literal

import attrs

from ._shell_model import Command, Redirect, ShellScript, Word
from ._shell_parse import parse_shell

__all__ = [
    "FileEffect",
    "ShellFileEffects",
    "UnknownWrite",
    "file_effects",
]

Op = Literal["read", "write", "edit", "delete"]


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
    """The file effects of one command line."""

    effects: tuple[FileEffect, ...] = ()
    unknown_writes: tuple[UnknownWrite, ...] = ()


# -- option parsing ---------------------------------------------------------------------------------


@attrs.define(slots=True)
class _Args:
    """A command's argv split into options and operands."""

    flags: set[str] = attrs.field(factory=set)  # short letters and long names (without dashes)
    values: dict[str, list[Word]] = attrs.field(factory=dict)  # option -> its values
    operands: list[Word] = attrs.field(factory=list)


def _parse_args(
    words: Sequence[Word],
    short_values: str = "",
    long_values: Sequence[str] = (),
    *,
    optional_short: str = "",
    stop_at_first_operand: bool = False,
) -> _Args:
    """GNU-style option parsing: ``-abc`` clusters, ``-nVALUE`` / ``-n VALUE`` for the letters of
    *short_values*, ``--name=value`` / ``--name value`` for *long_values*, ``--`` ends options.
    A letter of *optional_short* takes the rest of its cluster as its value (``sed -i.bak``)."""
    a = _Args()
    i = 0
    n = len(words)
    only_operands = False
    while i < n:
        w = words[i]
        v = w.value
        i += 1
        if only_operands or v == "-" or not v.startswith("-") or v == "":
            a.operands.append(w)
            if stop_at_first_operand:
                only_operands = True
            continue
        if v == "--":
            only_operands = True
            continue
        if v.startswith("--"):
            name, eq, val = v[2:].partition("=")
            a.flags.add(name)
            if eq:
                a.values.setdefault(name, []).append(Word(val, val, (val,)))
            elif name in long_values and i < n:
                a.values.setdefault(name, []).append(words[i])
                i += 1
            continue
        j = 1
        while j < len(v):
            ch = v[j]
            a.flags.add(ch)
            rest = v[j + 1 :]
            if ch in optional_short:
                a.values.setdefault(ch, []).append(Word(rest, rest, (rest,)))
                break
            if ch in short_values:
                if rest:
                    a.values.setdefault(ch, []).append(Word(rest, rest, (rest,)))
                elif i < n:
                    a.values.setdefault(ch, []).append(words[i])
                    i += 1
                break
            j += 1
    return a


# -- the model of each program ----------------------------------------------------------------------

_Effect = tuple[Op, Word, bool]  # op, target word, recursive
_Found = tuple[list[_Effect], list[str]]  # effects, reasons for unknown writes

_READERS_VALUES: dict[str, tuple[str, tuple[str, ...]]] = {
    "cat": ("", ()),
    "head": ("nc", ("lines", "bytes")),
    "tail": ("ncs", ("lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats")),
    "less": ("bhjkoOpPtTxyz", ("log-file", "pattern", "tag", "tabs", "shift")),
    "more": ("n", ("lines",)),
    "nl": ("bdfhilnsvw", ()),
    "bat": ("lrHpm", ("language", "line-range", "highlight-line", "style", "map-syntax", "theme")),
}
_GREP_VALUES = ("efmABCdD", ("regexp", "file", "max-count", "after-context", "before-context", "context",
                             "include", "exclude", "exclude-dir", "label", "devices", "directories",
                             "binary-files", "group-separator", "exclude-from"))
_RG_VALUES = ("efgtTABCmMjdrE", ("regexp", "file", "glob", "iglob", "type", "type-not", "type-add", "type-clear",
                                 "after-context", "before-context", "context", "max-count", "max-columns",
                                 "max-depth", "max-filesize", "threads", "replace", "encoding", "sort", "sortr",
                                 "path-separator", "colors", "color", "context-separator", "field-match-separator",
                                 "pre", "pre-glob", "ignore-file", "engine", "dfa-size-limit", "regex-size-limit"))

#: Programs that run something else: the argv after their own options is classified again.
_PASS_THROUGH: dict[str, tuple[str, tuple[str, ...]]] = {
    "sudo": ("ugCDhpRrTt", ("user", "group", "close-from", "chdir", "host", "prompt", "role", "type",
                            "command-timeout")),
    "nohup": ("", ()),
    "time": ("fo", ("format", "output")),
    "nice": ("n", ("adjustment",)),
    "exec": ("a", ()),
    "command": ("", ()),
    "builtin": ("", ()),
    "stdbuf": ("ioe", ("input", "output", "error")),
    "ionice": ("cnp", ("class", "classdata", "pid")),
    "chronic": ("", ()),
    "unbuffer": ("", ()),
    "npx": ("pc", ("package", "call")),
    "pnpx": ("", ()),
    "bunx": ("", ()),
}

_MAKES = frozenset({"make", "gmake", "ninja", "just", "rake", "scons"})
_INTERPRETERS = frozenset({"node", "nodejs", "ruby", "php", "perl", "tsx", "ts-node", "deno", "Rscript", "lua",
                           "osascript", "pwsh"})
_SHELL_PROGRAMS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish", "source", "."})
_PACKAGE_MANAGERS = frozenset({"npm", "pnpm", "yarn", "bun"})
_YARN_BUILTINS = frozenset({
    "add", "install", "remove", "info", "why", "list", "init", "config", "cache", "global", "upgrade",
    "upgrade-interactive", "outdated", "dlx", "exec", "workspaces", "workspace", "audit", "bin", "link",
    "unlink", "login", "logout", "pack", "publish", "version", "versions", "licenses", "owner", "tag",
    "team", "import", "check", "policies", "set", "node", "plugin", "constraints", "explain", "npm",
    "help", "create", "up", "dedupe", "rebuild", "patch", "patch-commit", "search", "test", "start",
    "run", "ci", "i", "un", "uninstall", "rm", "t", "tst", "x", "update",
})
_NPM_SCRIPTS = frozenset({"run", "run-script", "rum", "urn", "test", "t", "tst", "start", "stop", "restart"})
_NPM_ADD = frozenset({"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal",
                      "add", "uninstall", "remove", "rm", "r", "un", "unlink", "update", "up", "upgrade"})
_GIT_OPAQUE = {
    "reset": "git reset may rewrite tracked files",
    "stash": "git stash rewrites the working tree",
    "pull": "git pull rewrites the working tree",
    "merge": "git merge rewrites the working tree",
    "rebase": "git rebase rewrites the working tree",
    "cherry-pick": "git cherry-pick rewrites the working tree",
    "revert": "git revert rewrites the working tree",
    "switch": "git switch rewrites the working tree",
    "am": "git am applies patches from a mailbox",
    "clean": "git clean deletes untracked files",
}
_FORMATTERS = frozenset({"prettier", "eslint", "black", "ruff", "isort", "gofmt", "goimports", "rustfmt",
                         "clang-format", "autopep8", "biome", "stylelint"})


def _is_glob(w: Word) -> bool:
    return not w.quoted and any(ch in w.value for ch in "*?[")


def _program(words: Sequence[Word]) -> str:
    return words[0].value.rsplit("/", 1)[-1] if words else ""


def _classify(words: Sequence[Word], stdin: str | None, depth: int = 0) -> _Found:
    """Effects of one argv (redirections aside). *stdin* is a heredoc body fed to it, if any."""
    if not words or depth > 8:
        return [], []
    if words[0].expands:
        return [], [f"runs {words[0].text}, a command only known when it runs"]
    name = _program(words)
    argv0 = words[0].value
    rest = list(words[1:])
    if name in _PASS_THROUGH:
        short, long_ = _PASS_THROUGH[name]
        a = _parse_args(rest, short, long_, stop_at_first_operand=True)
        return _classify(a.operands, stdin, depth + 1)
    if name == "timeout":
        a = _parse_args(rest, "sk", ("signal", "kill-after"), stop_at_first_operand=True)
        return _classify(a.operands[1:], stdin, depth + 1)
    if name == "env":
        a = _parse_args(rest, "uCS", ("unset", "chdir", "split-string"), stop_at_first_operand=True)
        inner = list(a.operands)
        while inner and "=" in inner[0].value and not inner[0].value.startswith("="):
            inner.pop(0)
        return _classify(inner, stdin, depth + 1)
    if name in _READERS_VALUES:
        short, long_ = _READERS_VALUES[name]
        a = _parse_args(rest, short, long_)
        return [("read", w, False) for w in a.operands
                if w.value != "-" and not (name in ("head", "tail", "less", "more") and w.value.startswith("+"))], []
    if name in ("grep", "egrep", "fgrep", "rg"):
        short, long_ = _RG_VALUES if name == "rg" else _GREP_VALUES
        a = _parse_args(rest, short, long_)
        ops = a.operands
        if not ({"e", "f", "regexp", "file", "files"} & a.flags):
            ops = ops[1:]
        return [("read", w, False) for w in ops if w.value != "-"], []
    if name == "sed":
        return _sed(rest)
    if name == "perl":
        return _perl(rest, stdin)
    if name == "tee":
        a = _parse_args(rest, "", ("output-error",))
        op: Op = "edit" if {"a", "append"} & a.flags else "write"
        return [(op, w, False) for w in a.operands if w.value != "-"], []
    if name in ("cp", "mv", "install"):
        return _copy(name, rest)
    if name == "rm":
        a = _parse_args(rest)
        rec = bool({"r", "R", "recursive"} & a.flags)
        return [("delete", w, rec) for w in a.operands], []
    if name == "rmdir":
        a = _parse_args(rest)
        return [("delete", w, True) for w in a.operands], []
    if name == "touch":
        a = _parse_args(rest, "drt", ("date", "reference"))
        return [("write", w, False) for w in a.operands], []
    if name == "truncate":
        a = _parse_args(rest, "sr", ("size", "reference"))
        return [("write", w, False) for w in a.operands], []
    if name == "dd":
        eff: list[_Effect] = []
        for w in rest:
            key, eq, val = w.value.partition("=")
            if eq and key in ("of", "if"):
                eff.append(("write" if key == "of" else "read", Word(val, val, (val,), w.quoted), False))
        return eff, []
    if name == "git":
        return _git(rest, stdin)
    if name == "patch":
        return _patch(rest, stdin)
    if name in _MAKES:
        return [], [f"{name} runs build rules that may write any file"]
    if name == "cmake" and any(w.value == "--build" for w in rest):
        return [], ["cmake --build runs build rules that may write any file"]
    if name in _PACKAGE_MANAGERS:
        return _package_manager(name, rest, stdin, depth)
    if name in _SHELL_PROGRAMS:
        a = _parse_args(rest, "oO", ("rcfile", "init-file"), stop_at_first_operand=True)
        if a.operands and name in ("source", ".") and a.operands[0].value.endswith("/bin/activate"):
            return [], []  # a virtualenv's activation sets variables
        if a.operands:
            return [], [f"{name} runs the script {a.operands[0].value}"]
        if stdin is not None:
            return [], [f"{name} runs a script given on its standard input"]
        return [], []
    if name.startswith("python") or name in ("pypy", "pypy3", "uv", "poetry", "pipenv", "conda"):
        return _python(name, rest, stdin, depth)
    if name in _INTERPRETERS:
        return _interpreter(name, rest, stdin)
    if name in _FORMATTERS:
        return _formatter(name, rest)
    if name in ("go", "cargo") and rest and rest[0].value == "fmt":
        return [], [f"{name} fmt rewrites the package's source files"]
    if name in ("curl", "wget"):
        a = _parse_args(rest, "oOdHXuAeTwxrFbcEKm" if name == "curl" else "OoaPtTeUB",
                        ("output", "output-document", "data", "header", "request", "user", "config",
                         "directory-prefix", "output-file", "append-output", "form", "cookie", "cookie-jar",
                         "url", "user-agent", "referer"))
        out = (a.values.get("o") or a.values.get("output")) if name == "curl" else (
            a.values.get("O") or a.values.get("output-document"))
        return [("write", w, False) for w in out or [] if w.value != "-"], []
    if name in ("tar", "unzip", "gunzip", "bunzip2", "unxz"):
        flags = rest[0].value if rest else ""
        if name != "tar" or "x" in flags.lstrip("-") or any(w.value in ("--extract", "--get") for w in rest):
            return [], [f"{name} extracts files whose names are in the archive"]
        return [], []
    if name == "xargs":
        return _xargs(rest, depth)
    if name == "find":
        return _find(rest, depth)
    if "/" in argv0:
        return [], [f"runs the script {argv0}"]
    return [], []


def _sed(rest: Sequence[Word]) -> _Found:
    words = list(rest)
    # BSD/macOS: ``sed -i '' …`` (an empty suffix as its own word)
    bsd = [i for i, w in enumerate(words) if w.value == "-i" and i + 1 < len(words) and words[i + 1].value == ""]
    if bsd:
        del words[bsd[0] + 1]
    a = _parse_args(words, "efl", ("expression", "file", "line-length"), optional_short="i")
    in_place = "i" in a.flags or "in-place" in a.flags
    files = a.operands if ({"e", "f", "expression", "file"} & a.flags) else a.operands[1:]
    op: Op = "edit" if in_place else "read"
    return [(op, w, False) for w in files if w.value != "-"], []


def _perl(rest: Sequence[Word], stdin: str | None) -> _Found:
    a = _parse_args(rest, "eEIMmlx0", (), optional_short="i")
    has_code = bool({"e", "E"} & a.flags)
    if "i" in a.flags and has_code:
        return [("edit", w, False) for w in a.operands], []
    if has_code:
        return [], ["perl runs inline code"]
    if a.operands:
        return [], [f"perl runs the script {a.operands[0].value}"]
    if stdin is not None:
        return [], ["perl runs a script given on its standard input"]
    return [], []


def _copy(name: str, rest: Sequence[Word]) -> _Found:
    a = _parse_args(rest, "tSm" if name == "install" else "tS",
                    ("target-directory", "suffix", "backup", "sparse", "reflink", "preserve", "no-preserve",
                     "mode", "owner", "group"))
    rec = bool({"r", "R", "a", "recursive", "archive"} & a.flags) or name == "mv"
    given = a.values.get("t") or a.values.get("target-directory")
    target: Word | None = given[-1] if given else None
    ops = list(a.operands)
    if target is None:
        if len(ops) < 2:
            return [], []
        target = ops.pop()
        into_dir = len(ops) > 1 or target.value.endswith("/") or target.value in (".", "..")
    else:
        into_dir = True
    out: list[_Effect] = []
    src_op: Op = "delete" if name == "mv" else "read"
    for src in ops:
        out.append((src_op, src, rec))
        if into_dir:
            base = src.value.rstrip("/").rsplit("/", 1)[-1]
            joined = target.value.rstrip("/") + "/" + base
            out.append(("write", Word(joined, joined, (joined,), target.quoted or src.quoted), rec))
        else:
            out.append(("write", target, rec))
    return out, []


def _git(rest: Sequence[Word], stdin: str | None) -> _Found:
    a = _parse_args(rest, "Cc", ("git-dir", "work-tree", "namespace", "exec-path", "config-env"),
                    stop_at_first_operand=True)
    if not a.operands:
        return [], []
    sub, args = a.operands[0].value, a.operands[1:]
    if sub in _GIT_OPAQUE:
        if sub == "stash" and args and args[0].value in ("list", "show"):
            return [], []
        if sub == "reset" and not any(w.value in ("--hard", "--merge", "--keep") for w in args):
            return [], []  # a soft or mixed reset moves HEAD and the index, not the files
        if sub == "clean" and any(w.value in ("-n", "--dry-run") for w in args):
            return [], []
        return [], [_GIT_OPAQUE[sub]]
    if sub == "checkout":
        words = [w.value for w in args]
        if "--" in words:
            k = words.index("--")
            return [("write", w, True) for w in args[k + 1 :]], []
        p = _parse_args(args, "bB", ("orphan", "conflict", "pathspec-from-file"))
        if {"b", "B", "orphan"} & p.flags and len(p.operands) <= 1:
            return [], []  # a new branch at the current commit: the files stay as they are
        if not p.operands:
            return [], []
        if len(p.operands) == 1 and p.operands[0].value in (".", "./"):
            return [("write", p.operands[0], True)], []
        return [], ["git checkout without -- may switch branches: which files change is unknown"]
    if sub == "restore":
        p = _parse_args(args, "s", ("source", "pathspec-from-file", "conflict"))
        if {"S", "staged"} & p.flags and not {"W", "worktree"} & p.flags:
            return [], []  # the index only
        return [("write", w, True) for w in p.operands], []
    if sub == "rm":
        p = _parse_args(args)
        if "cached" in p.flags:
            return [], []
        return [("delete", w, "r" in p.flags) for w in p.operands], []
    if sub == "mv":
        return _copy("mv", [w for w in args if w.value not in ("-f", "-k", "-n", "-v")])
    if sub == "apply":
        p = _parse_args(args, "pC", ("exclude", "include", "directory", "whitespace", "build-fake-ancestor"))
        if {"check", "stat", "numstat", "summary", "cached"} & p.flags and "apply" not in p.flags:
            return [], []
        files = [w for w in p.operands if w.value != "-"]
        if files:
            return [], [f"git apply takes the files to change from the patch {files[0].value}"]
        if stdin:
            strip = _strip_level(p, default=1)
            return _diff_targets(stdin, strip), []
        return [], ["git apply reads the patch from its standard input"]
    return [], []


def _strip_level(p: _Args, default: int | None) -> int | None:
    vals = p.values.get("p") or p.values.get("strip")
    if vals:
        try:
            return int(vals[-1].value)
        except ValueError:
            return default
    return default


def _patch(rest: Sequence[Word], stdin: str | None) -> _Found:
    p = _parse_args(rest, "pioDBVYzrFd", ("strip", "input", "output", "directory", "prefix", "suffix",
                                           "basename-prefix", "reject-file", "fuzz", "backup-if-mismatch",
                                           "quoting-style", "ifdef", "get"))
    if {"dry-run", "C"} & p.flags:
        return [], []
    if p.operands:
        return [("edit", p.operands[0], False)], []
    if p.values.get("i") or p.values.get("input"):
        src = (p.values.get("i") or p.values.get("input") or [])[-1].value
        return [], [f"patch takes the files to change from the patch {src}"]
    if stdin:
        return _diff_targets(stdin, _strip_level(p, default=None)), []
    return [], ["patch reads the patch from its standard input"]


def _strip(path: str, level: int | None, side: str) -> str:
    path = path.split("\t", 1)[0].strip()
    if level is None:
        return path[2:] if path.startswith(side + "/") else path
    parts = path.split("/")
    return "/".join(parts[level:]) if level < len(parts) else parts[-1]


def _diff_targets(body: str, level: int | None) -> list[_Effect]:
    """Files a unified diff creates, changes or deletes (``--- a/x`` / ``+++ b/x`` headers)."""
    out: list[_Effect] = []
    old: str | None = None
    for line in body.splitlines():
        if line.startswith("--- "):
            old = line[4:]
        elif line.startswith("+++ ") and old is not None:
            new = line[4:]
            o = None if old.split("\t", 1)[0].strip() == "/dev/null" else _strip(old, level, "a")
            n = None if new.split("\t", 1)[0].strip() == "/dev/null" else _strip(new, level, "b")
            if o is None and n is not None:
                out.append(("write", Word(n, n, (n,), True), False))
            elif n is None and o is not None:
                out.append(("delete", Word(o, o, (o,), True), False))
            elif n is not None and o is not None:
                if o != n:
                    out.append(("delete", Word(o, o, (o,), True), False))
                out.append(("edit", Word(n, n, (n,), True), False))
            old = None
    return out


def _package_manager(name: str, rest: Sequence[Word], stdin: str | None, depth: int) -> _Found:
    a = _parse_args(rest, "C", ("prefix", "cwd", "dir", "filter", "workspace"), stop_at_first_operand=True)
    if not a.operands:
        return [], []
    sub = a.operands[0].value
    args = a.operands[1:]
    if sub in ("exec", "dlx", "x") and args:
        return _classify([w for w in args if w.value != "--"], stdin, depth + 1)
    if sub in _NPM_ADD:
        pkgs = [w for w in args if not w.value.startswith("-")]
        if sub.startswith(("i", "up")) and not pkgs:
            return [], []  # an install from the lock file: dependencies only
        return [("edit", Word("package.json", "package.json", ("package.json",)), False)], []
    if sub in _NPM_SCRIPTS:
        named = [w.value for w in args if not w.value.startswith("-")]
        script = named[0] if sub in ("run", "run-script", "rum", "urn") and named else sub
        return [], [f"{name} runs the package script {script!r}"]
    if name in ("yarn", "pnpm", "bun") and sub not in _YARN_BUILTINS and not sub.startswith("-"):
        if name == "bun" and ("/" in sub or "." in sub):
            return [], [f"bun runs the script {sub}"]
        return [], [f"{name} runs the package script {sub!r}"]
    return [], []


def _python(name: str, rest: Sequence[Word], stdin: str | None, depth: int) -> _Found:
    if name in ("uv", "poetry", "pipenv", "conda"):
        if rest and rest[0].value == "run":
            inner = _parse_args(rest[1:], "", ("with", "python", "project", "directory", "env-file", "extra",
                                               "group", "package", "name", "prefix"),
                                stop_at_first_operand=True).operands
            return _classify(inner, stdin, depth + 1)
        if rest and rest[0].value in ("add", "remove"):
            return [("edit", Word("pyproject.toml", "pyproject.toml", ("pyproject.toml",)), False)], []
        return [], []
    a = _parse_args(rest, "cmWX", ("check-hash-based-pycs",), stop_at_first_operand=True)
    if "c" in a.flags:
        return [], [f"{name} -c runs inline code"]
    if "m" in a.flags:
        mod = a.values.get("m", [])
        if mod:
            m = mod[-1].value
            if m in ("pytest", "unittest", "mypy", "pyright", "pip", "venv", "http.server", "json.tool",
                     "compileall", "py_compile", "timeit", "doctest", "pydoc", "site", "platform"):
                return [], []
            return _classify([Word(m, m, (m,)), *a.operands], stdin, depth + 1) if m in _FORMATTERS \
                else ([], [f"{name} -m {m} runs a module that may write files"])
        return [], []
    if a.operands:
        if a.operands[0].value == "-":
            return [], [f"{name} runs a script given on its standard input"]
        return [], [f"{name} runs the script {a.operands[0].value}"]
    if stdin is not None:
        return [], [f"{name} runs a script given on its standard input"]
    return [], []


def _interpreter(name: str, rest: Sequence[Word], stdin: str | None) -> _Found:
    a = _parse_args(rest, "erpI", ("eval", "print", "require", "import", "config", "allow-read",
                                   "allow-write"), stop_at_first_operand=True)
    if {"e", "p", "eval", "print"} & a.flags or (name in ("php", "ruby") and "r" in a.flags):
        return [], [f"{name} runs inline code"]
    ops = a.operands
    if name == "deno" and ops and ops[0].value in ("run", "task", "eval"):
        return [], [f"deno {ops[0].value} runs code that may write files"]
    if name == "deno" and ops and ops[0].value == "fmt":
        return [], ["deno fmt rewrites source files"]
    if ops:
        return [], [f"{name} runs the script {ops[0].value}"]
    if stdin is not None:
        return [], [f"{name} runs a script given on its standard input"]
    return [], []


def _formatter(name: str, rest: Sequence[Word]) -> _Found:
    values = {"eslint": ("cfo", ("config", "ext", "format", "output-file", "rule", "plugin", "parser",
                                 "resolve-plugins-relative-to", "rulesdir", "ignore-path", "ignore-pattern",
                                 "max-warnings", "cache-location")),
              "prettier": ("", ("config", "ignore-path", "plugin", "parser", "log-level", "cache-location",
                                "stdin-filepath", "print-width", "tab-width", "trailing-comma",
                                "end-of-line", "quote-props", "arrow-parens", "prose-wrap")),
              "ruff": ("", ("config", "target-version", "line-length", "select", "ignore", "extend-select",
                            "exclude", "extend-exclude", "output-format")),
              "black": ("lt", ("line-length", "target-version", "include", "exclude", "extend-exclude",
                               "config", "required-version")),
              "clang-format": ("", ("style", "assume-filename", "lines", "offset", "length"))}
    short, long_ = values.get(name, ("", ()))
    args = list(rest)
    if name == "ruff":
        if not args:
            return [], []
        sub = args[0].value
        args = args[1:]
        a = _parse_args(args, short, long_)
        writes = (sub == "format" and not {"check", "diff"} & a.flags) or (
            sub == "check" and {"fix", "unsafe-fixes"} & a.flags and "no-fix" not in a.flags)
    else:
        a = _parse_args(args, short, long_)
        if name in ("prettier", "biome"):
            writes = bool({"write", "w", "apply", "fix"} & a.flags)
        elif name in ("eslint", "stylelint"):
            writes = "fix" in a.flags
        elif name in ("gofmt", "goimports"):
            writes = "w" in a.flags
        elif name == "clang-format":
            writes = "i" in a.flags
        elif name == "autopep8":
            writes = bool({"i", "in-place"} & a.flags)
        else:  # black, isort, rustfmt: in place unless told to check
            writes = not ({"check", "diff", "c", "check-only"} & a.flags)
        if name == "biome" and a.operands:
            a.operands = a.operands[1:]  # the subcommand (format, lint, check)
    if not writes:
        return [], []
    targets = [w for w in a.operands if w.value != "-"]
    if not targets:
        return [], [f"{name} rewrites the files its configuration names"]
    return [("edit", w, True) for w in targets], []


#: Stands for the file names ``xargs`` and ``find -exec`` append: does the program change them?
_ANY_FILE = Word("FILE", "FILE", ("FILE",))


def _xargs(rest: Sequence[Word], depth: int) -> _Found:
    a = _parse_args(rest, "adEeIiLlnPs", ("arg-file", "delimiter", "eof", "replace", "max-lines", "max-args",
                                           "max-procs", "max-chars", "process-slot-var"),
                    stop_at_first_operand=True)
    effects, unknown = _classify([*a.operands, _ANY_FILE], None, depth + 1)
    if any(op != "read" for op, _, _ in effects) or unknown:
        inner = a.operands[0].value if a.operands else "echo"
        return [], [f"xargs runs {inner} on file names read from its input"]
    return [], []


def _find(rest: Sequence[Word], depth: int) -> _Found:
    values = [w.value for w in rest]
    if "-delete" in values:
        return [], ["find -delete deletes the files it finds"]
    for flag in ("-exec", "-execdir", "-ok", "-okdir"):
        if flag in values:
            k = values.index(flag)
            inner = [w for w in rest[k + 1 :] if w.value not in (";", "+", "{}")]
            effects, unknown = _classify([*inner, _ANY_FILE], None, depth + 1)
            if any(op != "read" for op, _, _ in effects) or unknown:
                return [], [f"find {flag} runs {rest[k + 1].value if k + 1 < len(rest) else ''} on the files it finds"]
    return [], []


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
        for body in list(pending):
            if body and body in text:
                text = text.replace(body, "", 1)
                pending.remove(body)
        return text

    for c in script.top_level:
        out.append((gap(src[prev_end : c.start]), prev))
        pending.extend(h.body for h in c.heredocs)
        prev, prev_end = c, c.end
    out.append((gap(src[prev_end:]), prev))
    return out


def _gap_lines(text: str) -> Iterator[str]:
    for line in text.split("\n"):
        if line.lstrip().startswith("#"):
            continue
        yield line.split(" #", 1)[0]


def _structured(script: ShellScript, gaps: list[tuple[str, Command | None]]) -> bool:
    """The command list has control flow or grouping (``if``, ``for``, ``( … )``, ``!``): the
    parser keeps the commands but not the structure, so the exit status cannot be attributed."""
    for c in script.top_level:
        first = c.text.split(None, 1)[0] if c.text.strip() else ""
        if first in _KEYWORDS and not (c.words and c.words[0].text == first):
            return True
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


@attrs.define(frozen=True, slots=True)
class _Step:
    command: Command
    ok: bool  # a zero exit status of the whole line means this command succeeded
    fail: bool  # a non-zero exit status means it did not
    piped: bool  # its standard input is the previous command's output


def _walk(script: ShellScript, ok_flow: bool, fail_flow: bool) -> Iterator[_Step]:
    """Every simple command, wrappers unwrapped (their redirections kept), substitutions first."""
    cmds = script.top_level
    gaps = _gaps(script)
    structured = _structured(script, gaps)
    n = len(cmds)
    for i, c in enumerate(cmds):
        # ``&&`` binds looser than ``|``: in ``a && b | c`` a zero status means ``a`` succeeded.
        end_ok = cmds[-1].separator in _END
        ok = (ok_flow and not structured and end_ok
              and (i == n - 1 or (c.separator == "&&" and all(cmds[j].separator in _CHAIN for j in range(i + 1, n - 1)))))
        fail = (fail_flow and not structured and end_ok and i == n - 1
                and all(cmds[j].separator in _CHAIN for j in range(i)))
        piped = i > 0 and cmds[i - 1].separator in ("|", "|&")
        for e in c.substitutions:
            if e.script is not None:
                for inner in _walk(e.script, False, False):
                    yield _Step(inner.command, False, False, inner.piped)
        if c.nested is not None:
            yield from _walk(c.nested, ok, fail)
            if c.redirects:
                yield _Step(Command((), (), c.redirects, c.text, c.start, c.end, c.separator), ok, fail, piped)
        else:
            yield _Step(c, ok, fail, piped)
    for pseudo in _gap_redirects(gaps):
        yield _Step(pseudo, False, False, False)


def file_effects(script: ShellScript | str) -> ShellFileEffects:
    """The files a command line reads, writes, edits or deletes, and its commands that may write
    files it does not name (see the module docstring)."""
    if isinstance(script, str):
        script = parse_shell(script)
    effects: list[FileEffect] = []
    unknown: list[UnknownWrite] = []
    for step in _walk(script, True, True):
        c, ok, fail = step.command, step.ok, step.fail
        stdin: str | None = "" if step.piped else None
        for r in c.redirects:
            if r.heredoc is not None:
                stdin = r.heredoc.body
            elif r.op == "<<<" and r.target is not None:
                stdin = r.target.value
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
                effects.append(FileEffect("read", path, c, _is_glob(target), False, ok, fail))
            elif r.writes_file is not None:
                op: Op = "edit" if r.op in (">>", "&>>") else "write"
                effects.append(FileEffect(op, path, c, _is_glob(target), False, ok, fail))
        found, reasons = _classify(c.words, stdin)
        for op, w, rec in found:
            if w.expands:
                if op != "read":
                    unknown.append(UnknownWrite(c, f"{c.name} changes {w.text}, a name only known when it runs"))
                continue
            effects.append(FileEffect(op, w.value, c, _is_glob(w), rec, ok, fail))
        unknown.extend(UnknownWrite(c, r) for r in reasons)
    return ShellFileEffects(tuple(effects), tuple(unknown))
