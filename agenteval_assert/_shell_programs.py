"""What each program does to files, read from its argv (private: the walk over a command line
and the public ``FileEffect`` live in ``_shell_files``; ``docs/shell.md`` lists the model).

* option parsing (``_parse_args``): an argv split into flags, option values and operands;
* ``_classify(words, stdin)``: the files one simple command reads, writes, edits or deletes
  (``cat``, ``sed -i``, ``cp``, ``git checkout``, ``patch``, package managers, interpreters,
  formatters, editors, archivers...) and the reasons it may write files it does not name;
* ``command_forms``: the program and what its wrappers run (``sudo make``, ``npx vitest``);
* ``Folder``: a working folder relative to where the line started, possibly a guess;
* brace expansion of unquoted words (``src/{a,b}.ts``).

Every other program is taken to write no file.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import Literal

import attrs

from ._shell_model import Word

Op = Literal["read", "write", "edit", "delete"]

#: A working folder longer than this is not followed (a pathological line).
_CWD_MAX = 1024


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
    "zcat": ("", ()),
    "bzcat": ("", ()),
    "xzcat": ("", ()),
    "zstdcat": ("", ()),
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
    "uvx": ("p", ("from", "with", "python", "with-requirements", "with-editable", "index", "extra-index-url")),
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
    """The program's name: its path and a package runner's version left out
    (``./node_modules/.bin/prettier``, ``prettier@3``, ``storybook@latest``: ``prettier``,
    ``storybook``; a scoped package keeps its scope: ``@storybook/cli``)."""
    if not words:
        return ""
    v = words[0].value
    if v.startswith("@") and "/" in v:
        return v.rsplit("@", 1)[0] if v.count("@") > 1 else v
    name = v.rsplit("/", 1)[-1]
    return name.split("@", 1)[0] if "@" in name[1:] else name


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
    if name in ("sed", "gsed"):
        return _sed(rest)
    if name in ("busybox", "toybox") and rest:
        return _classify(rest, stdin, depth + 1)  # busybox sed -i …: the applet
    if name == "perl":
        return _perl(rest, stdin)
    if name in ("awk", "gawk", "mawk", "nawk"):
        return _awk(name, rest)
    if name in ("yq", "yq_linux_amd64"):
        return _yq(rest)
    if name in _EDITORS:
        return _editor(name, rest)
    if name == "sponge":
        a = _parse_args(rest)
        return [("edit" if "a" in a.flags else "write", w, False) for w in a.operands[:1]], []
    if name in ("sort", "iconv", "uniq"):
        return _filter_output(name, rest)
    if name in ("split", "csplit"):
        return [], [f"{name} writes files named after its prefix"]
    if name == "ln":
        return _copy("ln", rest)
    if name == "rsync":
        return _rsync(rest)
    if name == "shred":
        a = _parse_args(rest, "ns", ("iterations", "size", "random-source"))
        op_: Op = "delete" if {"u", "remove"} & a.flags else "write"
        return [(op_, w, False) for w in a.operands if w.value != "-"], []
    if name == "unlink":
        return [("delete", w, False) for w in rest[:1]], []
    if name in _COMPRESSORS:
        return _compress(name, rest)
    if name == "zip":
        return _zip(rest)
    if name in _STORYBOOK:
        return _storybook([Word("init", "init", ("init",)), *rest] if name == "create-storybook" else rest)
    if name == "pipx" and rest and rest[0].value == "run":
        a = _parse_args(rest[1:], "", ("spec", "python", "index-url", "pip-args"), stop_at_first_operand=True)
        return _classify(a.operands, stdin, depth + 1)
    if name == "eval":
        return [], ["eval runs a command only known when it runs"]  # a literal one is walked as a script
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


_PERL_DIGITS = re.compile(r"^-([^-]*?)([0l])(x[0-9A-Fa-f]+|[0-7]*)(.*)$")


def _perl_words(rest: Sequence[Word]) -> list[Word]:
    """Perl's ``-0[octal]`` and ``-l[octal]`` take optional digits, not the rest of the cluster:
    ``-0pi`` is ``-0 -p -i``, ``-0777`` is one option."""
    out: list[Word] = []
    for w in rest:
        v = w.value
        m = _PERL_DIGITS.match(v) if v.startswith("-") and not v.startswith("--") and not w.quoted_start else None
        while m is not None and not ({"e", "E", "i", "I", "M", "m", "x"} & set(m.group(1))):
            before, tail = m.group(1), m.group(4)
            if before:
                out.append(Word("-" + before, "-" + before, ("-" + before,)))
            if not tail:
                v = ""
                break
            v = "-" + tail
            m = _PERL_DIGITS.match(v)
        if v:
            out.append(w if v == w.value else Word(v, v, (v,)))
    return out


def _perl(rest: Sequence[Word], stdin: str | None) -> _Found:
    a = _parse_args(_perl_words(rest), "eEIMmx", (), optional_short="i")
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
    a = _parse_args(rest, "tSmog" if name == "install" else "tS",
                    ("target-directory", "suffix", "backup", "sparse", "reflink", "preserve", "no-preserve",
                     "mode", "owner", "group"))
    if name == "install" and {"d", "directory"} & a.flags:
        return [], []  # makes directories: no file's content changes
    rec = name != "ln" and (bool({"r", "R", "a", "recursive", "archive"} & a.flags) or name == "mv")
    given = a.values.get("t") or a.values.get("target-directory")
    target: Word | None = given[-1] if given else None
    ops = list(a.operands)
    if target is None:
        if name == "ln" and len(ops) == 1:  # ``ln -s ../x``: a link named like its target, here
            base = ops[0].value.rstrip("/").rsplit("/", 1)[-1]
            return [("write", Word(base, base, (base,), ops[0].quoted), False)], []
        if len(ops) < 2:
            return [], []
        target = ops.pop()
        into_dir = len(ops) > 1 or target.value.endswith("/") or target.value in (".", "..")
    else:
        into_dir = True
    out: list[_Effect] = []
    src_op: Op | None = "delete" if name == "mv" else None if name == "ln" else "read"
    for src in ops:
        if src_op is not None:  # a link's target is neither read nor changed
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
    effects, reasons = _git_command(a.operands[0].value, a.operands[1:], stdin)
    folders = a.values.get("C", [])
    if not folders or not effects:
        return effects, reasons
    # ``git -C DIR``: the paths are relative to DIR (each -C relative to the one before)
    where = Folder()
    for f in folders:
        where = where.cd(f.value, f"git -C {f.text}: a folder only known when it runs" if f.expands else None)
    out: list[_Effect] = []
    for op, w, rec in effects:
        if where.path and not w.value.startswith(("/", "~")):
            if where.why is not None and op != "read":
                reasons.append(f"git changes {w.value} in a folder the command line does not fix ({where.why})")
            joined = where.join(w.value)
            w = Word(joined, joined, (joined,), w.quoted)
        out.append((op, w, rec))
    return out, reasons


def _git_command(sub: str, args: Sequence[Word], stdin: str | None) -> _Found:
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
    pkg = Word("package.json", "package.json", ("package.json",))
    if sub in ("exec", "dlx", "x") and args:
        return _classify([w for w in args if w.value != "--"], stdin, depth + 1)
    if sub == "pkg":
        verb = args[0].value if args else ""
        return ([("edit", pkg, False)] if verb in ("set", "delete", "fix") else []), []
    if sub == "version":
        if name == "npm" and not any(not w.value.startswith("-") for w in args):
            return [], []  # prints the versions
        lock = Word("package-lock.json", "package-lock.json", ("package-lock.json",))
        bumped: list[_Effect] = [("edit", pkg, False)]
        if name == "npm":
            bumped.append(("edit", lock, False))
        return bumped, []
    if sub in ("init", "create", "innit"):
        given = [w for w in args if not w.value.startswith("-")]
        if not given:
            return [("write", pkg, False)], []  # npm init -y: a package.json
        initializer = given[0].value
        scope, _, bare = initializer.rpartition("/") if initializer.startswith("@") else ("", "", initializer)
        bare = bare.split("@", 1)[0] if "@" in bare[1:] else bare
        created = f"{scope}/create-{bare}" if scope else f"create-{bare}"
        if created == "create-storybook":
            return _storybook([Word("init", "init", ("init",)), *given[1:]])
        return [], [f"{name} {sub} runs the initializer {created}"]
    if name != "npm" and sub in _FORMATTERS:
        return _classify(list(a.operands), stdin, depth + 1)  # ``yarn eslint --fix``: the package's bin
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
        if sub in ("check", "format"):
            args = args[1:]
        elif not sub.startswith("-") and not sub.startswith((".", "/")) and sub.isidentifier():
            return [], []  # rule, config, linter, clean, version, server...: no file changes
        else:
            sub = "check"  # ruff before 0.5: ``ruff [--fix] PATH`` checks
        a = _parse_args(args, short, long_)
        writes = (sub == "format" and not {"check", "diff"} & a.flags) or (
            sub == "check" and bool({"fix", "fix-only"} & a.flags) and not {"no-fix", "diff"} & a.flags)
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


# -- more writers -------------------------------------------------------------------------------

#: Text editors: a file they are given may be changed (interactively or by a script).
_EDITORS = frozenset({"vi", "vim", "nvim", "ex", "ed", "red", "nano", "pico", "emacs", "micro", "kak", "hx", "joe"})
#: Compressors that replace a file by its compressed form (and their decompressing names).
_COMPRESSORS = {"gzip": ".gz", "gunzip": ".gz", "bzip2": ".bz2", "bunzip2": ".bz2", "xz": ".xz", "unxz": ".xz",
                "zstd": ".zst", "unzstd": ".zst", "lzma": ".lzma", "unlzma": ".lzma", "compress": ".Z",
                "uncompress": ".Z"}
#: Storybook's CLI, as a package runner names it.
_STORYBOOK = frozenset({"storybook", "sb", "@storybook/cli", "create-storybook"})
_AWK_WRITES = re.compile(r"\b(?:print|printf)\b[^;{}]*(?:>|\|)|\bsystem\s*\(|\|\s*getline|\bfflush\b")


def _awk(name: str, rest: Sequence[Word]) -> _Found:
    a = _parse_args(rest, "fvFieE", ("file", "assign", "field-separator", "include", "source", "exec"))
    includes = [w.value for w in a.values.get("i", []) + a.values.get("include", [])]
    files = list(a.operands)
    programs = [w.value for w in a.values.get("e", []) + a.values.get("source", [])]
    program_files = [w.value for k in ("f", "file", "E", "exec") for w in a.values.get(k, [])]
    if not (program_files or programs) and files:
        programs.append(files.pop(0).value)
    files = [w for w in files if w.value != "-" and not re.match(r"^[A-Za-z_]\w*=", w.value)]  # var=value
    if any(i in ("inplace", "inplace.awk") for i in includes):
        return [("edit", w, False) for w in files], []
    reasons = []
    if program_files:
        reasons.append(f"{name} runs the program file {program_files[0]}")
    elif any(_AWK_WRITES.search(p) for p in programs):
        reasons.append(f"{name} runs a program that writes files or runs commands")
    return [("read", w, False) for w in files], reasons


def _yq(rest: Sequence[Word]) -> _Found:
    words = list(rest)
    if words and words[0].value in ("e", "eval", "ea", "eval-all"):
        words = words[1:]
    a = _parse_args(words, "opIs", ("output-format", "input-format", "indent", "split-exp", "expression",
                                    "arg", "argjson", "from-file"))
    ops = list(a.operands)
    if not (a.values.get("expression") or a.values.get("from-file")) and ops:
        ops = ops[1:]  # the expression
    op: Op = "edit" if {"i", "inplace", "in-place"} & a.flags else "read"
    return [(op, w, False) for w in ops if w.value != "-"], []


_EDITOR_VALUES = {"vi": "cSuUiTwWt", "vim": "cSuUiTwWt", "nvim": "cSuUiTwWt", "ex": "cSuUiTwWt", "ed": "p",
                  "red": "p", "nano": "YTroCQX", "pico": "YTroCQX", "emacs": "lfL"}


def _editor(name: str, rest: Sequence[Word]) -> _Found:
    a = _parse_args(rest, _EDITOR_VALUES.get(name, ""),
                    ("cmd", "eval", "load", "funcall", "directory", "file", "insert", "syntax", "tabsize"))
    readonly = "R" in a.flags or (name in ("vi", "vim", "nvim") and "M" in a.flags)
    files = [w for w in a.operands if w.value != "-" and not w.value.startswith("+")]
    return [("read" if readonly else "edit", w, False) for w in files], []


def _filter_output(name: str, rest: Sequence[Word]) -> _Found:
    """``sort -o F``, ``iconv -o F``: the output file; ``uniq IN OUT``: its second operand."""
    if name == "sort":
        a = _parse_args(rest, "oktST", ("output", "key", "field-separator", "buffer-size", "temporary-directory",
                                        "parallel", "batch-size", "files0-from", "compress-program",
                                        "random-source", "sort"))
    elif name == "iconv":
        a = _parse_args(rest, "fto", ("from-code", "to-code", "output"))
    else:
        a = _parse_args(rest, "fsw", ("skip-fields", "skip-chars", "check-chars", "group", "all-repeated"))
        ops = [w for w in a.operands]
        eff: list[_Effect] = [("read", w, False) for w in ops[:1] if w.value != "-"]
        eff += [("write", w, False) for w in ops[1:2] if w.value != "-"]
        return eff, []
    outs = a.values.get("o", []) + a.values.get("output", [])
    return ([("read", w, False) for w in a.operands if w.value != "-"]
            + [("write", w, False) for w in outs if w.value != "-"]), []


def _rsync(rest: Sequence[Word]) -> _Found:
    a = _parse_args(rest, "efBTM@", (
        "rsh", "exclude", "include", "filter", "rsync-path", "files-from", "exclude-from", "include-from",
        "block-size", "chmod", "chown", "log-file", "temp-dir", "partial-dir", "backup-dir", "suffix",
        "compare-dest", "link-dest", "copy-dest", "remote-option", "port", "password-file", "timeout",
        "bwlimit", "max-size", "min-size", "max-delete", "modify-window", "out-format", "info", "debug",
        "usermap", "groupmap", "contimeout", "sockopts", "outbuf", "iconv", "checksum-choice", "compress-choice"))
    if {"n", "dry-run", "list-only"} & a.flags or len(a.operands) < 2:
        return [], []
    *sources, target = a.operands

    def remote(w: Word) -> bool:
        head = w.value.split("/", 1)[0]
        return ":" in head or w.value.startswith("rsync://")

    eff: list[_Effect] = []
    src_op: Op = "delete" if "remove-source-files" in a.flags else "read"
    for src in sources:
        if not remote(src):
            eff.append((src_op, src, True))
    if not remote(target):
        eff.append(("write", target, True))
    return eff, []


def _compress(name: str, rest: Sequence[Word]) -> _Found:
    """``gzip f`` replaces ``f`` by ``f.gz``; ``gunzip f.gz`` (``gzip -d``) the other way round.
    ``-k`` keeps the input, ``-c`` writes to standard output, ``-t``/``-l`` only read."""
    suffix = _COMPRESSORS[name]
    a = _parse_args(rest, "S" if name != "zstd" else "oSDL", ("suffix", "output"))
    if {"c", "stdout", "to-stdout", "t", "test", "l", "list"} & a.flags:
        return [("read", w, False) for w in a.operands if w.value != "-"], []
    given = a.values.get("S") or a.values.get("suffix")
    if given and name != "zstd":
        suffix = given[-1].value
    unpack = name.startswith("un") or name == "gunzip" or bool({"d", "decompress", "uncompress"} & a.flags)
    keep = bool({"k", "keep"} & a.flags) or (name in ("zstd", "unzstd") and not {"rm"} & a.flags)
    if {"r", "recursive"} & a.flags:
        return [], [f"{name} -r replaces every file under {a.operands[0].value if a.operands else 'the folder'}"]
    eff: list[_Effect] = []
    for w in a.operands:
        if w.value == "-":
            continue
        eff.append(("read" if keep else "delete", w, False))
        if unpack:
            out = w.value[: -len(suffix)] if suffix and w.value.endswith(suffix) else None
            if out is None and w.value.endswith(".tgz"):
                out = w.value[:-4] + ".tar"
        else:
            out = w.value + suffix
        if out:
            eff.append(("write", Word(out, out, (out,), w.quoted), False))
    return eff, []


def _zip(rest: Sequence[Word]) -> _Found:
    words: list[Word] = []
    for w in rest:
        if w.value in ("-x", "-i", "--exclude", "--include"):
            break  # the patterns that follow are not files
        words.append(w)
    a = _parse_args(words, "PtbnOsZ", ("password", "temp-path", "suffixes", "output-file", "split-size",
                                         "compression-method"))
    if not a.operands:
        return [], []
    archive, *files = a.operands
    if {"d", "delete", "sf", "show-files"} & a.flags:
        return [("edit", archive, False)] if "d" in a.flags or "delete" in a.flags else [], []
    out = (a.values.get("O") or a.values.get("output-file") or [archive])[-1]
    rec = bool({"r", "R", "recurse-paths"} & a.flags)
    file_op: Op = "delete" if {"m", "move"} & a.flags else "read"
    return [(file_op, w, rec) for w in files if w.value != "-"] + [("write", out, False)], []


def _storybook(rest: Sequence[Word]) -> _Found:
    """Storybook's CLI (``npx storybook@latest init``): the commands that set it up or move it to
    another version change ``package.json`` and ``.storybook/``, and more that the line does not
    name (example stories, automigrations, an addon's set-up)."""
    a = _parse_args(rest, "co", ("config-dir", "output-dir", "package-manager", "type", "builder", "renderer",
                                 "features", "loglevel", "port", "host"), stop_at_first_operand=True)
    if not a.operands:
        return [], []
    sub = a.operands[0].value
    config = (a.values.get("c") or a.values.get("config-dir") or [Word(".storybook", ".storybook", (".storybook",))])[-1]
    pkg = Word("package.json", "package.json", ("package.json",))
    if sub == "init":
        return [("edit", pkg, False), ("write", config, True)], [
            "storybook init also writes example stories and installs dependencies"]
    if sub in ("upgrade", "automigrate"):
        return [("edit", pkg, False), ("edit", config, True)], [
            f"storybook {sub} runs automigrations that may change any file"]
    if sub in ("add", "remove"):
        return [("edit", pkg, False), ("edit", config, True)], (
            ["storybook add runs the addon's set-up, which may change any file"] if sub == "add" else [])
    if sub == "migrate":
        return [], ["storybook migrate rewrites story files"]
    if sub == "build":
        outs = a.values.get("o") or a.values.get("output-dir")
        sub_args = _parse_args(a.operands[1:], "o", ("output-dir",))
        outs = outs or sub_args.values.get("o") or sub_args.values.get("output-dir")
        out = outs[-1] if outs else Word("storybook-static", "storybook-static", ("storybook-static",))
        return [("write", out, True)], []
    return [], []


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


def command_forms(words: Sequence[Word]) -> list[tuple[str, ...]]:
    """The argv of a simple command, program name first (its path and a package runner's
    version left out), then the argv of what each wrapper it goes through runs: ``sudo -E make
    -j4`` gives ``('sudo', '-E', 'make', '-j4')`` and ``('make', '-j4')``; ``npx vitest run``
    gives ``('npx', 'vitest', 'run')`` and ``('vitest', 'run')``."""
    out: list[tuple[str, ...]] = []
    current = list(words)
    for _ in range(8):
        if not current or current[0].expands:
            break
        out.append((_program(current), *(w.value for w in current[1:])))
        name, rest = _program(current), current[1:]
        if name in _PASS_THROUGH:
            current = _parse_args(rest, *_PASS_THROUGH[name], stop_at_first_operand=True).operands
        elif name == "timeout":
            current = _parse_args(rest, "sk", ("signal", "kill-after"), stop_at_first_operand=True).operands[1:]
        elif name == "env":
            current = _parse_args(rest, "uCS", ("unset", "chdir", "split-string"), stop_at_first_operand=True).operands
            while current and "=" in current[0].value and not current[0].value.startswith("="):
                current.pop(0)
        elif name in _PACKAGE_MANAGERS and rest and rest[0].value in ("exec", "dlx", "x"):
            current = [w for w in rest[1:] if w.value != "--"]
        elif name in ("uv", "poetry", "pipenv", "conda", "pipx") and rest and rest[0].value == "run":
            current = _parse_args(rest[1:], "", ("with", "python", "project", "directory", "env-file", "spec"),
                                  stop_at_first_operand=True).operands
        else:
            break
    return out


# -- working folders ----------------------------------------------------------------------------


@attrs.define(frozen=True, slots=True)
class Folder:
    """The working folder of a command, relative to the one its command line starts in.

    Attributes:
        path: ``""`` for the starting folder, else a relative or absolute path (``$VAR`` text
            where a ``cd`` target is an expansion).
        why: when the folder is a guess (a ``cd "$X"``, ``cd -``, a ``cd`` that may not have
            run): the reason, in words; ``None`` when the line shows it.
    """

    path: str = ""
    why: str | None = None

    def join(self, p: str) -> str:
        if not self.path or p.startswith(("/", "~")):
            return p
        return posixpath.normpath(self.path + "/" + p)

    def cd(self, target: str, why: str | None = None) -> Folder:
        absolute = target.startswith(("/", "~"))
        path = posixpath.normpath(target if absolute or not self.path else self.path + "/" + target)
        if len(path) > _CWD_MAX:
            return Folder("$PWD", "a working folder too deep to follow")
        return Folder("" if path == "." else path, why or (None if absolute else self.why))

    def guess(self, why: str) -> Folder:
        return self if self.why else Folder(self.path, why)


# -- brace expansion ------------------------------------------------------------------------------

#: Words one brace expansion may give before it is left as it is.
_BRACE_MAX = 256
_SEQUENCE = re.compile(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?|([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?")


def _brace_expand(words: Sequence[Word]) -> list[Word]:
    """*words* with their unquoted brace lists and sequences expanded, as the shell does before
    running the command (``src/{app,other}.ts`` is two words). A word with quoting or an expansion
    is left alone, as is one that would give more than ``_BRACE_MAX`` words."""
    out: list[Word] = []
    for w in words:
        if w.quoted or w.expands or "{" not in w.value or "}" not in w.value:
            out.append(w)
            continue
        values = _braces(w.value)
        if values is None or len(values) > _BRACE_MAX:
            out.append(w)
        else:
            out.extend(Word(v, v, (v,)) for v in values)
    return out


def _braces(s: str, budget: int = _BRACE_MAX) -> list[str] | None:
    """The brace expansion of *s*; ``None`` past *budget* words."""
    i = 0
    while True:
        open_ = s.find("{", i)
        if open_ < 0:
            return [s]
        depth, commas, close = 0, [], -1
        for j in range(open_, len(s)):
            ch = s[j]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    close = j
                    break
            elif ch == "," and depth == 1:
                commas.append(j)
        if close < 0:
            return [s]
        inner = s[open_ + 1 : close]
        alternatives: list[str] | None
        if commas:
            bounds = [open_, *commas, close]
            alternatives = [s[bounds[k] + 1 : bounds[k + 1]] for k in range(len(bounds) - 1)]
        else:
            alternatives = _sequence(inner)
            if alternatives is None:
                i = open_ + 1  # not an expansion ({}, {x}): look further on
                continue
        pre, post = s[:open_], s[close + 1 :]
        tails = _braces(post, budget)
        if tails is None:
            return None
        out: list[str] = []
        for alt in alternatives:
            heads = _braces(alt, budget)
            if heads is None:
                return None
            for h in heads:
                for t in tails:
                    out.append(pre + h + t)
                    if len(out) > budget:
                        return None
        return out


def _sequence(inner: str) -> list[str] | None:
    m = _SEQUENCE.fullmatch(inner)
    if m is None:
        return None
    if m.group(1) is not None:
        a, b, step = int(m.group(1)), int(m.group(2)), abs(int(m.group(3) or 1)) or 1
        if abs(b - a) // step > _BRACE_MAX:
            return None
        width = max(len(m.group(1)), len(m.group(2))) if m.group(1).lstrip("-").startswith("0") or \
            m.group(2).lstrip("-").startswith("0") else 0
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [str(k).zfill(width) if width else str(k) for k in rng]
    a, b = ord(m.group(4)), ord(m.group(5))
    step = abs(int(m.group(6) or 1)) or 1
    rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
    return [chr(k) for k in rng]
