"""Files: which files the agent read, wrote, edited or deleted (``file_events``) and the checks on them."""

from __future__ import annotations

import difflib
import fnmatch
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Literal

import attrs
import regex

from ..exceptions import UsageError
from ..matchers import Matcher
from ..model import ToolCall, Transcript
from ..results import CheckResult, Evidence, short_repr
from ._common import _echo, _fail, _guarded, _negative, _pass, _plural, _pool

__all__ = [
    "FileEvent",
    "check_file_changed",
    "check_file_edited",
    "check_file_not_changed",
    "check_file_read",
    "check_file_written",
    "file_events",
]


@attrs.define(frozen=True)
class FileEvent:
    """A file the agent read, wrote, edited or deleted, and the call that did it."""

    op: Literal["read", "write", "edit", "delete"]
    path: str
    call: ToolCall


_PATCH_HEADER = regex.compile(r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", regex.M)
_PATCH_OPS: dict[str, Literal["write", "edit", "delete"]] = {"Add": "write", "Update": "edit", "Delete": "delete"}
_CHANGE_OPS: dict[str, Literal["write", "edit", "delete"]] = {
    "add": "write", "create": "write", "update": "edit", "modify": "edit", "delete": "delete", "remove": "delete",
}


def _patch_events(text: str, call: ToolCall) -> Iterator[FileEvent]:
    for m in _PATCH_HEADER.finditer(text):
        if m.group(1):
            yield FileEvent(_PATCH_OPS[m.group(1)], m.group(2), call)
        else:
            yield FileEvent("write", m.group(3), call)


def _redirections(command: str, call: ToolCall) -> Iterator[FileEvent]:
    """Files written by output redirections (``> f`` write, ``>> f`` edit) and ``tee``."""
    from ..shell import parse_shell  # never raises: a best effort on malformed input

    for cmd in parse_shell(command).walk():
        for r in cmd.redirects:
            target = r.writes_file
            if target is None or target.startswith(("/dev/", "&")):
                continue
            yield FileEvent("edit" if r.op in (">>", "&>>") else "write", target, call)
        if cmd.name == "tee":
            args = list(cmd.argv[1:])
            append = "-a" in args or "--append" in args
            for a in args:
                if not a.startswith("-") and not a.startswith("/dev/"):
                    yield FileEvent("edit" if append else "write", a, call)


def file_events(t: Transcript, *, include_subagents: bool = True) -> list[FileEvent]:
    """Every file read/write/edit/delete the transcript shows, in order.

    Sources: Claude ``Read``/``Write``/``Edit``/``MultiEdit``/``NotebookEdit`` (``file_path``),
    Codex ``file_change`` (``changes[].path`` and kind), ``apply_patch`` patch headers (in
    arguments, or a shell here-doc), and shell output redirections where the shell parser
    understands the command.
    """
    out: list[FileEvent] = []
    for c in _pool(t, include_subagents):
        args = c.arguments
        if c.kind in ("file_read", "file_write", "file_edit"):
            op: Literal["read", "write", "edit"] = {"file_read": "read", "file_write": "write", "file_edit": "edit"}[c.kind]  # type: ignore[assignment]
            path = args.get("file_path", args.get("path", args.get("notebook_path")))
            if isinstance(path, str):
                out.append(FileEvent(op, path, c))
                continue
            changes = args.get("changes")
            if isinstance(changes, list):
                for ch in changes:
                    if isinstance(ch, Mapping) and isinstance(ch.get("path"), str):
                        k = ch.get("kind")
                        if isinstance(k, Mapping):
                            k = k.get("type")
                        out.append(FileEvent(_CHANGE_OPS.get(str(k), "edit"), ch["path"], c))
                continue
            texts = [v for v in (c.raw_arguments, args.get("input"), args.get("patch"), args.get("value")) if isinstance(v, str)]
            for text in texts:
                out.extend(_patch_events(text, c))
        elif c.kind == "shell" and c.command:
            if "*** Begin Patch" in c.command:
                out.extend(_patch_events(c.command, c))
            elif ">" in c.command or "tee" in c.command:
                out.extend(_redirections(c.command, c))
    return out


def _path_matcher(path: str | Matcher) -> Callable[[str], bool]:
    if isinstance(path, Matcher):
        return path.matches
    if not isinstance(path, str) or not path:
        raise UsageError(f"path must be a non-empty string or a matcher, got {path!r}")
    want = path.replace("\\", "/")
    glob = any(ch in want for ch in "*?[")

    def fits(actual: str) -> bool:
        a = actual.replace("\\", "/")
        if glob:
            return fnmatch.fnmatchcase(a, want) or fnmatch.fnmatchcase(a, "*/" + want.lstrip("/"))
        return a == want or a.endswith("/" + want.lstrip("./")) or os.path.normpath(a) == os.path.normpath(want)

    return fits


def _file_check(
    name: str, t: Transcript, path: str | Matcher, ops: tuple[str, ...], verb: str, include_subagents: bool
) -> CheckResult:
    fits = _path_matcher(path)
    events = file_events(t, include_subagents=include_subagents)
    hits = [e for e in events if e.op in ops and fits(e.path)]
    echo = _echo(name, path)
    expected = f"{short_repr(path, 120)} {verb}"
    if hits:
        return _pass(name, expected, f"#{hits[0].call.index} {hits[0].op} {hits[0].path}", echo,
                     [Evidence.from_call(e.call, f"{e.op} {e.path}") for e in hits], tuple(e.call for e in hits))
    same_path = [e for e in events if fits(e.path)]
    others = [e for e in events if e.op in ops]
    ev = [Evidence.from_call(e.call, f"{e.op} {e.path}") for e in (same_path or others)]
    verbs = {"read": "read", "write": "written", "edit": "edited", "delete": "deleted"}
    found = (f"it was only {' and '.join(sorted({verbs[e.op] for e in same_path}))}" if same_path else
             f"{_plural(len(others), 'other file')} {verb}" if others else f"no file {verb}")
    notes = []
    if isinstance(path, str) and others:
        close = difflib.get_close_matches(path, sorted({e.path for e in others}), n=2, cutoff=0.5)
        if close:
            notes.append("did you mean " + " or ".join(repr(c) for c in close) + "?")
    return _fail(name, t, expected, found, echo, ev, notes=notes)


@_guarded("file_read")
def check_file_read(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> CheckResult:
    """The agent read the file (a path equal to, or ending in ``/``+*path*; globs allowed)."""
    return _file_check("file_read", t, path, ("read",), "read", include_subagents)


@_guarded("file_written")
def check_file_written(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> CheckResult:
    """The agent wrote (created or overwrote) the file."""
    return _file_check("file_written", t, path, ("write",), "written", include_subagents)


@_guarded("file_edited")
def check_file_edited(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> CheckResult:
    """The agent edited the file in place (Edit/MultiEdit, a patch update, ``>>``)."""
    return _file_check("file_edited", t, path, ("edit",), "edited", include_subagents)


@_guarded("file_changed")
def check_file_changed(t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True) -> CheckResult:
    """The agent wrote, edited or deleted the file."""
    return _file_check("file_changed", t, path, ("write", "edit", "delete"), "changed", include_subagents)


@_guarded("file_not_changed")
def check_file_not_changed(
    t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True, assume_complete: bool = False
) -> CheckResult:
    """The agent did not write, edit or delete the file. INCONCLUSIVE on a partial transcript."""
    fits = _path_matcher(path)
    hits = [e for e in file_events(t, include_subagents=include_subagents)
            if e.op != "read" and fits(e.path)]
    echo = _echo("file_not_changed", path)
    expected = f"{short_repr(path, 120)} not changed"
    if hits:
        return _fail("file_not_changed", t, expected, f"{_plural(len(hits), 'change')}", echo,
                     [Evidence.from_call(e.call, f"{e.op} {e.path}") for e in hits], positive=False)
    return _negative("file_not_changed", t, assume_complete=assume_complete, expected=expected,
                     found="no change", check=echo)
