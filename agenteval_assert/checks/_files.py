"""Files: which files the agent read, wrote, edited or deleted (``file_events``) and the checks on them."""

from __future__ import annotations

import difflib
import fnmatch
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

import attrs
import regex

from ..exceptions import UsageError
from ..matchers import Matcher
from ..model import ToolCall, Transcript
from ..results import CheckResult, Evidence, short_repr
from ._common import _echo, _fail, _guarded, _index, _made, _negative, _pass, _plural, _Shown

if TYPE_CHECKING:
    from .._shell_files import Folder, ShellFileEffects
    from ..shell import ShellScript

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
    """A file the agent read, wrote, edited or deleted, and the call that did it.

    Attributes:
        op: ``read``, ``write`` (created or overwritten), ``edit`` (changed in place) or ``delete``.
        path: the path as the call names it.
        call: the tool call.
        succeeded: ``True`` when the call succeeded, ``False`` when it failed (an error result, a
            non-zero exit code, a declined call), ``None`` when the log does not tell (no result,
            a format that records no outcome, a shell command whose exit status belongs to
            another command of the line).
        via: ``"tool"`` (a file tool, a patch) or ``"shell"`` (read from a shell command:
            ``sed -i``, ``> f``, ``cat f``...).
        command: for a shell event, the simple command that has the effect.
        pattern: *path* is an unquoted shell glob (``src/*.ts``): it stands for every file it matches.
        recursive: the event covers everything under *path* (``rm -r dir``, ``git checkout -- .``).
    """

    op: Literal["read", "write", "edit", "delete"]
    path: str
    call: ToolCall
    succeeded: bool | None = None
    via: Literal["tool", "shell"] = "tool"
    command: str | None = None
    pattern: bool = False
    recursive: bool = False

    def describe(self) -> str:
        """``edit src/x.ts (shell: sed -i s/a/b/ src/x.ts), failed``."""
        text = f"{self.op} {self.path}"
        if self.via == "shell":
            text += f" (shell: {short_repr(self.command, 100)[1:-1] if self.command else 'command'})"
        if self.succeeded is False:
            text += ", failed"
        elif self.succeeded is None:
            text += ", outcome not recorded"
        return text


def _slot_maker(cls: type) -> Callable[..., FileEvent]:
    """A function that makes a *cls* from all its fields, positionally, in ``attrs.fields``
    order: ``object.__new__`` and one slot store per field, which is what the attrs ``__init__``
    of a frozen class does through ``object.__setattr__``, a call per field (a 10,000-call
    transcript has thousands of file events). Only for a class with no default factory,
    validator, converter or ``__attrs_post_init__`` (asserted): what it makes is then the object
    ``cls(*values)`` makes (``tests/test_checks_index.py`` compares them)."""
    fields = attrs.fields(cls)
    assert not hasattr(cls, "__attrs_post_init__")
    assert all(f.init and f.validator is None and f.converter is None
               and not isinstance(f.default, attrs.Factory) for f in fields)  # type: ignore[arg-type]
    names = [f.name for f in fields]
    env: dict[str, object] = {"_new": object.__new__, "_cls": cls}
    body = []
    for i, name in enumerate(names):
        env[f"_set{i}"] = cls.__dict__[name].__set__  # the slot's member descriptor
        body.append(f"    _set{i}(o, {name})\n")
    exec(f"def make({', '.join(names)}):\n    o = _new(_cls)\n{''.join(body)}    return o\n", env)  # noqa: S102
    make: Callable[..., FileEvent] = env["make"]  # type: ignore[assignment]
    return make


#: ``FileEvent(op, path, call, succeeded, via, command, pattern, recursive)``, every field given.
_event = _slot_maker(FileEvent)

_PATCH_HEADER = regex.compile(r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", regex.M)
_PATCH_OPS: dict[str, Literal["write", "edit", "delete"]] = {"Add": "write", "Update": "edit", "Delete": "delete"}
_CHANGE_OPS: dict[str, Literal["write", "edit", "delete"]] = {
    "add": "write", "create": "write", "update": "edit", "modify": "edit", "delete": "delete", "remove": "delete",
}
#: ``str_replace_editor`` / ``str_replace_based_edit_tool`` commands (OpenHands, Anthropic, SWE-agent).
_EDITOR_OPS: dict[str, Literal["read", "write", "edit"]] = {
    "view": "read", "create": "write", "str_replace": "edit", "insert": "edit", "undo_edit": "edit",
}
_GLOB = frozenset("*?[")


def _tool_outcome(c: ToolCall) -> bool | None:
    """Whether the call succeeded: ``None`` when the log does not tell (a declined call never
    ran; no result: its status says; an ``unrecorded`` outcome: not told; else not
    ``c.is_error``, read inline: the file index asks it of every file and shell call)."""
    status = c.status
    if status == "declined":
        return False  # never ran
    r = c.result
    if r is None:
        if status == "completed":
            return True
        return False if status in ("failed", "interrupted") else None
    if status == "unrecorded":  # not c.outcome_recorded
        return None
    return not (status == "failed" or r.is_error or r.exit_code not in (None, 0))


def _shell_outcome(c: ToolCall, ok_means_done: bool, failure_means_not_done: bool) -> bool | None:
    """Whether one command of a command line succeeded, from the line's outcome."""
    whole = _tool_outcome(c)
    if whole is True:
        return True if ok_means_done else None
    if whole is False:
        return False if (failure_means_not_done or c.status == "declined") else None
    return None


#: what a program prints when it could not read a file (``cat: f: No such file or directory``,
#: ``head: cannot open 'f' for reading``, ``sed: can't read f``, ``grep: f: Is a directory``...)
_READ_FAILED = regex.compile(
    r"no such file|cannot open|can't open|can't read|cannot read|permission denied|is a directory"
    r"|not a regular file|cannot access|unable to read",
    regex.I,
)


def _shell_read_outcome(c: ToolCall, path: str, ok_means_done: bool, failure_means_not_done: bool) -> bool | None:
    """Whether a shell read succeeded. The line's exit status speaks for the last command of a
    pipeline or a ``;`` list only (``nl -ba f | sed -n 1,40p``, ``cat f; echo``); for a read
    before it, a line that succeeded and whose output shows no read error naming the file
    (``cat: f: No such file or directory``) is taken as a successful read: a reading program
    that fails says so on its error stream, which the agents' shells record with the output."""
    outcome = _shell_outcome(c, ok_means_done, failure_means_not_done)
    if outcome is not None or _tool_outcome(c) is not True:
        return outcome
    return _read_ok(c, path)


def _read_ok(c: ToolCall, path: str) -> bool | None:
    """The output of *c*, a line that succeeded, shows no read error naming *path*'s file."""
    name = path.rstrip("/").rsplit("/", 1)[-1] or path
    output = c.output
    if name not in output:
        return True  # no line names the file (one search of the whole output first)
    for line in output.splitlines():
        if name in line and _READ_FAILED.search(line):
            return None
    return True


def _patch_events(text: str, call: ToolCall, outcome: bool | None, via: Literal["tool", "shell"]) -> Iterator[FileEvent]:
    for m in _PATCH_HEADER.finditer(text):
        if m.group(1):
            yield _event(_PATCH_OPS[m.group(1)], m.group(2), call, outcome, via, None, False, False)
        else:
            yield _event("write", m.group(3), call, outcome, via, None, False, False)


@attrs.define(frozen=True)
class _FileIndex:
    """Every file event of a transcript, and the commands that may write unnamed files."""

    events: tuple[FileEvent, ...]
    #: call, command text, reason, the command's argv and what its wrappers run (``command_forms``)
    unknown_writes: tuple[tuple[ToolCall, str, str, tuple[tuple[str, ...], ...]], ...]


_TOOL_OPS: dict[str, Literal["read", "write", "edit", "delete"]] = {"file_read": "read", "file_write": "write"}


_PATH_KEYS = ("file_path", "absolute_path", "path", "notebook_path", "filePath", "target_file")


def _tool_events(c: ToolCall) -> list[FileEvent]:
    args = c.arguments
    ok = _tool_outcome(c)
    out: list[FileEvent] = []
    op = _TOOL_OPS.get(c.kind, "edit")
    command = args.get("command")
    if command is not None and isinstance(command, str) and command in _EDITOR_OPS and isinstance(args.get("path"), str):
        return [_event(_EDITOR_OPS[command], args["path"], c, ok, "tool", None, False, False)]
    path = args.get("file_path")  # the first of _PATH_KEYS, the one most file tools name
    if isinstance(path, str) and path:
        return [_event(op, path, c, ok, "tool", None, False, False)]
    for key in _PATH_KEYS:
        path = args.get(key)
        if isinstance(path, str) and path:
            return [_event(op, path, c, ok, "tool", None, False, False)]
    paths = args.get("paths")  # Gemini read_many_files: files, directories or globs
    if isinstance(paths, list) and any(isinstance(p, str) for p in paths):
        return [_event(op, p, c, ok, "tool", None, bool(_GLOB & set(p)), False) for p in paths if isinstance(p, str) and p]
    changes = args.get("changes")
    if isinstance(changes, list):
        for ch in changes:
            if isinstance(ch, Mapping) and isinstance(ch.get("path"), str):
                k = ch.get("kind")
                if isinstance(k, Mapping):
                    k = k.get("type")
                out.append(_event(_CHANGE_OPS.get(str(k), "edit"), ch["path"], c, ok, "tool", None, False, False))
        return out
    texts = [v for v in (c.raw_arguments, args.get("input"), args.get("patch"), args.get("value")) if isinstance(v, str)]
    for text in texts:
        out.extend(_patch_events(text, c, ok, "tool"))
    return out


_Unknown = tuple[ToolCall, str, str, tuple[tuple[str, ...], ...]]

#: Where an agent's shell tool runs each command: ``persists`` (one shell for every call of an
#: agent, so a ``cd`` alone in one call moves the next: Claude Code's ``Bash``, SWE-agent's
#: session, OpenHands' ``execute_bash``, inspect's ``bash_session``), ``fresh`` (a new shell per
#: call, in the folder the call names: Codex, Gemini CLI, mini-swe-agent, OpenCode, Amp, Cursor,
#: inspect's ``bash``); any other agent's is not known, and a call that leaves its shell in
#: another folder makes the next calls' folder a guess.
_PERSISTS = {"claude-code": frozenset({"Bash"}), "inspect-ai": frozenset({"bash_session"})}
_PERSISTS_ALL = frozenset({"swe-agent", "openhands"})
_FRESH = frozenset({"codex", "gemini-cli", "mini-swe-agent", "opencode", "amp", "cursor-cli", "inspect-ai"})
#: The argument that names the folder a call of a fresh shell runs in (Codex ``workdir``,
#: ``working_directory``, legacy ``cwd``; Cursor ``workingDirectory``; Gemini ``directory`` /
#: ``dir_path``; Amp ``cwd``; OpenCode ``workdir``).
_FOLDER_KEYS = ("workdir", "working_directory", "workingDirectory", "cwd", "dir_path", "directory")
#: What Claude Code adds to a result when it moved its shell back into the project.
_CLAUDE_RESET = regex.compile(r"Shell cwd was reset to (/[^\n]*?)\s*$", regex.M)


class _Folders:
    """The working folder each shell call starts in, relative to the session's: the folder its
    call names (a fresh shell), or the one the agent's earlier calls left its shell in (a shell
    that persists; each subagent has its own)."""

    def __init__(self, t: Transcript) -> None:
        from .._shell_files import Folder

        self.home = Folder()  # the session's folder, the one relative paths already mean
        self._folder = Folder  # made directly, not by attrs.evolve of home: the same object, a few times faster
        root = t.metadata.get("cwd")
        self.root = root.rstrip("/") if isinstance(root, str) and root.startswith("/") else None
        self.agent = t.agent
        self.by_agent: dict[str | None, Folder] = {}
        self._modes: dict[str, str] = {}  # mode_by_name: by the tool's name
        #: per agent, the calls since its last settled folder (``settle``): each with the folder
        #: it leaves when its output holds no reset note (``None``: the one it starts in, see
        #: ``passed``) and its mode; only the first may have a folder of its own
        self.pending: dict[str | None, list[tuple[ToolCall, Folder | None, Literal["persists", "fresh", "unknown"]]]] = {}
        # Claude Code 2 runs each command as ``cmd && pwd -P >| FILE`` and moves its shell to
        # the folder written there: a command line that fails leaves the folder as it was.
        self.moves_on_success_only = t.agent == "claude-code" and _major(t.metadata) >= 2

    def mode(self, c: ToolCall) -> Literal["persists", "fresh", "unknown"]:
        if self.agent in _PERSISTS_ALL or c.name in _PERSISTS.get(self.agent, ()):
            return "fresh" if c.arguments.get("run_in_background") is True else "persists"
        return "fresh" if self.agent in _FRESH or self.agent == "claude-code" else "unknown"

    def mode_by_name(self, c: ToolCall) -> Literal["persists", "fresh", "unknown"]:
        """``self.mode(c)``, with what depends on the tool's name alone kept by name (one
        dictionary look-up per call; a shell that persists still reads the call's
        ``run_in_background``)."""
        name = c.name
        m = self._modes.get(name)
        if m is None:
            m = self._modes[name] = (
                "maybe" if self.agent in _PERSISTS_ALL or name in _PERSISTS.get(self.agent, ())
                else "fresh" if self.agent in _FRESH or self.agent == "claude-code" else "unknown")
        if m == "maybe":
            return "fresh" if c.arguments.get("run_in_background") is True else "persists"
        return m  # type: ignore[return-value]

    def start(self, c: ToolCall, mode: Literal["persists", "fresh", "unknown"] | None = None) -> Folder:
        """The folder *c* starts in (*mode*: ``self.mode(c)``, when the caller has it)."""
        if (self.mode(c) if mode is None else mode) != "fresh":
            return self.by_agent.get(c.agent_id, self.home)
        for key in _FOLDER_KEYS:
            folder = c.arguments.get(key)
            if isinstance(folder, str) and folder:
                folder = folder.rstrip("/") or "/"
                if folder == self.root or folder == ".":
                    return self.home
                return self.home.cd(folder)
        return self.home

    def after(self, c: ToolCall, start: Folder, found: ShellFileEffects,
              mode: Literal["persists", "fresh", "unknown"] | None = None) -> None:
        """Carry the folder *c* left its shell in to the next call of its agent (*mode*:
        ``self.mode(c)``, when the caller has it)."""
        if mode is None:
            mode = self.mode(c)
        if mode == "fresh" or c.status == "declined":
            return
        # "…reset to" first: the same answer, found faster than with the trailing space (a
        # substring search tests its last character at each place, and spaces are everywhere)
        reset = (_CLAUDE_RESET.search(c.result.text) if self.agent == "claude-code" and c.result
                 and "Shell cwd was reset to" in c.result.text and "Shell cwd was reset to " in c.result.text
                 else None)
        if reset:
            self.reset(c, reset)
            return
        path = "" if found.cwd == self.root else found.cwd
        if path == start.path and found.cwd_unknown == start.why:
            return  # the folder it started in (``end == start``, without making ``end``)
        self.by_agent[c.agent_id] = self.moved(c, start, path, found.cwd_unknown, mode)

    def settle(self, agent: str | None) -> Folder:
        """The folder *agent*'s shell is in now: the calls waiting in ``pending`` since the last
        settled folder are read from the last back to the first reset note (``Shell cwd was
        reset to``), and those after it carried forward; a call none of which leaves a note
        costs one search of its output, as in ``after``, but only when a later call needs the
        folder (a line that changes no file, or starts with ``cd /abs``, does not)."""
        state = self.by_agent.get(agent, self.home)
        entries = self.pending.pop(agent, None)
        if not entries:
            return state
        rest = entries
        for j in range(len(entries) - 1, -1, -1):
            reset = self.reset_in(entries[j][0])
            if reset:
                state, rest = self.reset_folder(reset), entries[j + 1 :]
                break
        for c, end, mode in rest:
            state = end if end is not None else self.passed(c, state, mode)
        self.by_agent[agent] = state
        return state

    def reset_in(self, c: ToolCall) -> regex.Match[str] | None:
        """Claude Code's note that it moved *c*'s shell back (``Shell cwd was reset to …``)."""
        # "…reset to" first: the same answer, found faster than with the trailing space (a
        # substring search tests its last character at each place, and spaces are everywhere)
        r = c.result
        if r is None or self.agent != "claude-code":
            return None
        text = r.text
        if "Shell cwd was reset to" in text and "Shell cwd was reset to " in text:
            return _CLAUDE_RESET.search(text)
        return None

    def reset(self, c: ToolCall, reset: regex.Match[str]) -> None:
        self.by_agent[c.agent_id] = self.reset_folder(reset)

    def reset_folder(self, reset: regex.Match[str]) -> Folder:
        folder = reset.group(1).rstrip("/")
        return self.home if folder == self.root else self.home.cd(folder)

    def moved(self, c: ToolCall, start: Folder, path: str, why: str | None,
              mode: Literal["persists", "fresh", "unknown"]) -> Folder:
        """*c* ended in the folder *path* (*why*: the line's ``cwd_unknown``), not where it
        started: the folder, or the guess it makes, the next call of its agent starts in."""
        if why is not None and why != start.why:
            why = f"{why}, in call #{c.index}"
        end = self._folder(path, why)  # attrs.evolve(self.home, path=path, why=why): home is Folder()
        outcome = _tool_outcome(c)
        if mode == "unknown":
            end = start.guess(f"call #{c.index} moved its shell, and {self.agent}'s shell may keep its folder")
        elif outcome is False:
            end = start if self.moves_on_success_only else start.guess(
                f"call #{c.index} failed: its cd may not have run")
        elif outcome is None:
            end = end.guess(f"call #{c.index} has no recorded outcome: its cd may not have run")
        return end

    def passed(self, c: ToolCall, start: Folder, mode: Literal["persists", "fresh", "unknown"]) -> Folder:
        """The folder a line that never changes folder leaves *c*'s shell in when its output
        holds no reset note: its effects leave it where it started (``line_effects`` gives
        ``cwd``, ``cwd_unknown`` = *start*'s fields), which ``after`` reads as ``start`` unless
        *start* names the session's folder by its absolute path."""
        path = "" if start.path == self.root else start.path
        if path == start.path:
            return start
        return self.moved(c, start, path, start.why, mode)


def _major(metadata: Mapping[str, object]) -> int:
    """The major version of Claude Code that wrote the log (0 when it does not say)."""
    for key in ("claude_code_version", "version"):
        v = metadata.get(key)
        if isinstance(v, str) and v.split(".", 1)[0].isdigit():
            return int(v.split(".", 1)[0])
    return 0


def _shell_events(c: ToolCall, text: str, found: ShellFileEffects | None, start: Folder, home: Folder,
                  forms: dict[int, tuple[tuple[str, ...], ...]] | None = None,
                  ) -> tuple[list[FileEvent], list[_Unknown]]:
    """The file events of the shell call *c*, and its commands that may write unnamed files
    (*forms*: ``command_forms`` of a command by its id, kept by the caller: a command line's
    commands are shared by its calls)."""
    if found is None:  # Codex's apply_patch through the shell
        events = list(_patch_events(text, c, _tool_outcome(c), "shell"))
        if start == home:
            return events, []
        return [attrs.evolve(e, path=start.join(e.path)) for e in events], [
            (c, text, f"{e.op} {e.path} in a folder the command does not fix ({start.why})", ())
            for e in events if start.why is not None and not e.path.startswith(("/", "~"))]
    events = [
        _event(e.op, e.path, c,
               _shell_read_outcome(c, e.path, e.ok_means_done, e.failure_means_not_done) if e.op == "read"
               else _shell_outcome(c, e.ok_means_done, e.failure_means_not_done),
               "shell", e.command.text, e.pattern, e.recursive)
        for e in found.effects
    ]
    if not found.unknown_writes or c.status == "declined":
        return events, []
    if forms is None:
        forms = {}
    unknown = []
    for u in found.unknown_writes:
        f = forms.get(id(u.command))
        if f is None:
            from .._shell_files import command_forms

            f = forms[id(u.command)] = tuple(command_forms(u.command.words))
        unknown.append((c, u.command.text, u.reason, f))
    return events, unknown


#: The commands that may move a shell (``_shell_files._chdir``), and ``eval``, whose text may.
_MOVERS = frozenset({"cd", "pushd", "popd", "eval"})


def _moves(script: ShellScript, stays: dict[int, bool]) -> bool:
    """Some command of *script* (wrappers' and substitutions' included) may change the working
    folder: a ``cd``, ``pushd``, ``popd`` or ``eval``. Kept in *stays* by the script's id (the
    index keeps one script per text)."""
    got = stays.get(id(script))
    if got is None:
        got = stays[id(script)] = not any(
            c.words and c.words[0].value in _MOVERS for c in script.walk(substitutions=True))
    return not got


def _leaves_start(script: ShellScript, home: ShellFileEffects) -> bool:
    """*script*'s effects are the same from any known folder: its first command is a plain
    ``cd /absolute/path`` (a whole command, not piped, nothing before it, no redirection or
    substitution), so every later command runs in a folder it fixes, and its effects from the
    session's folder name absolute paths only (none relative to the folder it started in)."""
    cmds = script.top_level
    if not cmds:
        return False
    c0 = cmds[0]
    words = c0.words
    if (len(words) != 2 or words[0].value != "cd" or words[0].expands or words[1].expands
            or not words[1].value.startswith("/") or c0.nested is not None or c0.redirects
            or c0.assignments or c0.separator not in ("&&", ";", "\n", None)
            or script.source[:c0.start].strip() or not c0.text.startswith(words[0].text)
            or c0.substitutions):
        return False
    return all(e.path.startswith(("/", "~")) for e in home.effects)


def _rebased(home: ShellFileEffects, start: Folder) -> ShellFileEffects:
    """``line_effects(script, start)`` from the script's effects from the session's folder,
    for a script that never changes folder (``_moves`` is false) and a *start* that is known
    (``start.why is None``): then every command runs in *start*, so each relative path is
    joined to it (``_shell_files._add``) and nothing else changes; the shell is left in
    *start*. ``tests/test_checks_index.py`` compares the two on every command of the corpus."""
    from .._shell_files import FileEffect, ShellFileEffects

    effects = tuple(FileEffect(e.op, start.join(e.path), e.command, e.pattern, e.recursive, e.ok_means_done,
                               e.failure_means_not_done) for e in home.effects)
    return ShellFileEffects(effects, home.unknown_writes, start.path, None)


#: The file index makes the one event of a file call that names its ``file_path`` (and no
#: editor ``command``) inline, not through ``_tool_events`` (the tests turn it off to compare).
_FAST_TOOL_EVENTS = True


#: What the file index keeps of a command line run from one folder (``_shot``): its effects,
#: whether it leaves the shell where it started, the folder it leaves it in (``""`` for the
#: session's; the line's ``cwd_unknown``), and each effect and unknown write as the fields a
#: call's event takes from it.
_Shot = tuple[
    "ShellFileEffects", bool, str, "str | None",
    tuple[tuple[Literal["read", "write", "edit", "delete"], str, str, bool, bool, bool, bool], ...],
    "list[tuple[str, str, tuple[tuple[str, ...], ...]]] | None",
]


def _shot(found: ShellFileEffects, start: Folder, root: str | None) -> _Shot:
    """``_Folders.after``'s and ``_shell_events``'s reading of *found* (the effects of a line
    run from *start*), made once per text and folder: what stays the same for every call."""
    path = "" if found.cwd == root else found.cwd
    stays = path == start.path and found.cwd_unknown == start.why
    effects = tuple((e.op, e.path, e.command.text, e.pattern, e.recursive, e.ok_means_done,
                     e.failure_means_not_done) for e in found.effects)
    return (found, stays, path, found.cwd_unknown, effects, None)


def _unknown_forms(found: ShellFileEffects, forms: dict[int, tuple[tuple[str, ...], ...]],
                   ) -> list[tuple[str, str, tuple[tuple[str, ...], ...]]]:
    """Each unknown write of *found*: its command's text, the reason, and ``command_forms`` of
    its words (by the command's id in *forms*: a command line's commands are shared)."""
    from .._shell_files import command_forms

    out = []
    for u in found.unknown_writes:
        f = forms.get(id(u.command))
        if f is None:
            f = forms[id(u.command)] = tuple(command_forms(u.command.words))
        out.append((u.command.text, u.reason, f))
    return out


def _line_kind(script: ShellScript, home: ShellFileEffects, root: str | None,
               stays: dict[int, bool]) -> Folder | Literal["passes"] | None:
    """What the file index may take from a command line without the folder it starts in:
    ``"passes"`` for a line that never changes folder (``_moves``) and touches no file (its
    effects from any folder are none, its unknown writes those from the session's folder, and it
    leaves the shell where it found it: ``_Folders.passed``); the folder a line leaves when its
    effects are the same from any folder (``_leaves_start``, a first ``cd /abs``) and it ends in
    a folder it fixes, for a call of a shell that persists whose line succeeded (``after`` then
    carries that folder whatever the start); else ``None`` (the start is needed).
    ``tests/test_files_index_fast.py`` checks both claims against ``line_effects`` from known and
    unknown folders."""
    if not home.effects and not _moves(script, stays):
        return "passes"
    if home.cwd_unknown is None and _leaves_start(script, home):
        from .._shell_files import Folder

        return Folder("" if home.cwd == root else home.cwd, None)
    return None


def _build_file_index(t: Transcript) -> _FileIndex:
    """Every file event of *t*: the events ``_tool_events`` and ``_shell_events`` give each call
    in turn, each shell call's effects those ``line_effects`` gives its text from the folder
    ``_Folders`` carries to it (``_build_file_index_long`` is that, call by call; the tests
    compare the two). What depends on a command text and its start folder alone is made once
    per pair (``_shot``); a call then costs its outcome and one event per effect."""
    from .._shell_files import line_effects

    events: list[FileEvent] = []
    unknown: list[_Unknown] = []
    ix = _index(t)
    folders = _Folders(t)
    home, root = folders.home, folders.root
    # by text: whether it is a patch, and its _line_kind ("?" until a shell that persists runs it)
    lines: dict[str, tuple[bool, Folder | Literal["passes", "?"] | None]] = {}
    # what a text does from a folder, by the text and the folder's fields (a tuple of strings
    # hashes and compares without the Folder's methods: most calls start elsewhere)
    shots: dict[tuple[str, str, str | None], _Shot] = {}
    stays: dict[int, bool] = {}  # by id of a kept script: no command of it can change the folder
    forms: dict[int, tuple[tuple[str, ...], ...]] = {}  # command_forms by id of a kept command
    leaves: dict[int, bool] = {}  # by id of a kept script: ``_leaves_start``
    # the shell calls with a command text, and their texts, in order (``ToolCall.command`` is
    # computed on every read: the index reads it once per call, for every check)
    shells, texts = ix.shell_calls(True), ix.shell_texts(True)
    k, n_shells = 0, len(shells)
    fast = _FAST_TOOL_EVENTS
    event = _event
    for c in ix.all_calls:
        kind = c.kind
        if kind == "file_read" or kind == "file_write" or kind == "file_edit":
            args = c.arguments
            path = args.get("file_path")
            if fast and type(path) is str and path and "command" not in args:
                # what _tool_events gives a call that names its file as most file tools do
                # (``file_path``, no editor ``command``), made inline: one event
                events.append(event(_TOOL_OPS.get(kind, "edit"), path, c, _tool_outcome(c), "tool", None, False,
                                    False))
            else:
                events.extend(_tool_events(c))
        elif kind == "shell" and k < n_shells and shells[k] is c:
            text = texts[k]
            k += 1
            if not text:
                continue
            mode = folders.mode_by_name(c)
            status = c.status
            line = lines.get(text)
            if line is None:  # once per text: a patch?
                line = lines[text] = ("*** Begin Patch" in text, "?")
            if line[0]:
                start = folders.settle(c.agent_id) if mode != "fresh" else folders.start(c, mode)
                ev, un = _shell_events(c, text, None, start, home, forms)
                events.extend(ev)
                unknown.extend(un)
                continue
            waits = False  # the call needs no start folder: its agent's folder is settled later
            if mode == "fresh":
                start = folders.start(c, mode)
            else:
                kept = line[1]
                if kept == "?":  # once per text: what it needs of its start folder
                    kept = _line_kind(ix.script(text), ix.file_effects(text), root, stays)
                    lines[text] = (False, kept)
                # what the line does is the same from any folder: the folder its agent's shell
                # is in, and the reset notes of the calls before it, can wait (``settle``)
                if kept == "passes":  # it leaves the folder as it finds it
                    start, waits = home, True
                    if status != "declined":
                        folders.pending.setdefault(c.agent_id, []).append((c, None, mode))
                elif kept is not None and mode == "persists" and _tool_outcome(c) is True:
                    start, waits = home, True  # a cd to an absolute path first, and it succeeded
                    folders.pending[c.agent_id] = [(c, kept, mode)]  # it ends in kept
                else:
                    start = folders.settle(c.agent_id)
            key = (text, start.path, start.why)
            shot = shots.get(key)
            if shot is None:
                if start.path == "" and start.why is None:  # start == Folder()
                    found = ix.file_effects(text)  # never raises: a best effort; once per text
                else:
                    script = ix.script(text)
                    if start.why is None and not _moves(script, stays):
                        found = _rebased(ix.file_effects(text), start)
                    else:
                        same: bool | None = False  # the same effects from any known folder
                        if start.why is None and (same := leaves.get(id(script))) is None:
                            same = leaves[id(script)] = _leaves_start(script, ix.file_effects(text))
                        found = ix.file_effects(text) if same else line_effects(script, start)
                shot = shots[key] = _shot(found, start, root)
            # _Folders.after, with what depends on the text and folder read from the shot: the
            # folder it leaves when its output holds no reset note, the note looked for when a
            # later call needs the folder (``settle``)
            if not waits and mode != "fresh" and status != "declined":
                end = start if shot[1] else folders.moved(c, start, shot[2], shot[3], mode)
                folders.pending[c.agent_id] = [(c, end, mode)]
            # _shell_events, likewise
            effects = shot[4]
            if effects:
                whole = _tool_outcome(c)
                for op, path, command, pattern, recursive, ok_means_done, failure_means_not_done in effects:
                    # _shell_outcome, then _shell_read_outcome's look at the output
                    if whole is True:
                        ok = True if ok_means_done else None
                    elif whole is False:
                        ok = False if (failure_means_not_done or status == "declined") else None
                    else:
                        ok = None
                    if ok is None and op == "read" and whole is True:
                        ok = _read_ok(c, path)
                    events.append(event(op, path, c, ok, "shell", command, pattern, recursive))
            if status != "declined" and shot[0].unknown_writes:
                todo = shot[5]
                if todo is None:
                    todo = _unknown_forms(shot[0], forms)
                    shot = shots[key] = (*shot[:5], todo)
                unknown.extend((c, u_text, reason, f) for u_text, reason, f in todo)
    return _FileIndex(tuple(events), tuple(unknown))


def _build_file_index_long(t: Transcript) -> _FileIndex:
    """``_build_file_index`` the long way, call by call (for the tests): each shell call's
    effects walked from its start folder (``line_effects``), ``_Folders.after`` and
    ``_shell_events`` as they are."""
    from .._shell_files import line_effects
    from .._shell_parse import parse_shell

    events: list[FileEvent] = []
    unknown: list[_Unknown] = []
    folders = _Folders(t)
    for c in t.all_tool_calls:
        if c.kind in ("file_read", "file_write", "file_edit"):
            events.extend(_tool_events(c))
        elif c.kind == "shell" and c.command:
            text = c.command
            start = folders.start(c)
            found = None
            if "*** Begin Patch" not in text:
                found = line_effects(parse_shell(text), start)
                folders.after(c, start, found)
            ev, un = _shell_events(c, text, found, start, folders.home)
            events.extend(ev)
            unknown.extend(un)
    return _FileIndex(tuple(events), tuple(unknown))


def _file_index(t: Transcript) -> _FileIndex:
    """Every file event of *t*, extracted once and kept with the transcript."""
    return t.derived("checks.file_events", _build_file_index)


def file_events(t: Transcript, *, include_subagents: bool = True) -> list[FileEvent]:
    """Every file read/write/edit/delete the transcript shows, in order, with its outcome.

    Sources: file tools (Claude ``Read``/``Write``/``Edit``/``MultiEdit``/``NotebookEdit``
    ``file_path``; Gemini ``read_file`` ``absolute_path``, ``read_many_files`` ``paths``,
    ``write_file``/``replace`` ``file_path``; ``str_replace_editor`` ``command`` + ``path``;
    other agents' ``path``), Codex ``file_change`` (``changes[].path`` and kind), ``apply_patch``
    patch headers (in arguments, or a shell here-doc), and shell commands read through the shell
    model (``agenteval_assert.shell.file_effects``): reads (``cat``, ``sed -n``, ``head``...) and
    writes (``sed -i``, ``> f``, ``tee``, ``cp``/``mv``, ``rm``, ``git checkout -- f``, patches),
    marked ``via="shell"``, relative paths resolved against the folder the call runs in (the one
    it names, or the one the agent's earlier calls left a shell that persists in: see
    ``docs/shell.md``). Computed once per transcript.
    """
    events = _file_index(t).events
    if include_subagents:
        return list(events)
    return [e for e in events if e.call.agent_id is None]


def _path_matcher(path: str | Matcher) -> Callable[[str], bool]:
    if isinstance(path, Matcher):
        return path.matches
    if not isinstance(path, str) or not path:
        raise UsageError(f"path must be a non-empty string or a matcher, got {path!r}")
    want = path.replace("\\", "/")
    glob = any(ch in want for ch in "*?[")
    # the tail to look for: the path without a leading "./" (whole ones only: ".env" stays ".env")
    tail = want
    while tail.startswith("./"):
        tail = tail[2:]
    tail = "/" + tail.lstrip("/")

    def fits(actual: str) -> bool:
        a = actual.replace("\\", "/")
        # as written first: `[id]` is a folder name of many web frameworks before it is a glob
        if a == want or a.endswith(tail) or os.path.normpath(a) == os.path.normpath(want):
            return True
        return glob and (fnmatch.fnmatchcase(a, want) or fnmatch.fnmatchcase(a, "*/" + want.lstrip("/")))

    return fits


def _covers(e: FileEvent, fits: Callable[[str], bool], path: str | Matcher) -> bool:
    """The event concerns the file *path*: its path fits, or *path* is under a recursive event
    (``rm -r src``), or matches a glob event (``sed -i … src/*.ts``)."""
    if fits(e.path):
        return True
    if not isinstance(path, str) or not (e.pattern or e.recursive):
        return False
    want = os.path.normpath(path.replace("\\", "/")).replace("\\", "/")
    parts = want.split("/")
    if e.pattern:
        pat = e.path.replace("\\", "/")
        tail = "/".join(pat.split("/")[-len(parts):])
        return fnmatch.fnmatchcase(want, pat) or fnmatch.fnmatchcase(want, tail)
    root = os.path.normpath(e.path.replace("\\", "/")).replace("\\", "/")
    if root in (".", ""):
        return not want.startswith("/")
    if want.startswith(root.rstrip("/") + "/"):
        return True
    for k in range(1, len(parts)):
        prefix = "/".join(parts[:k])
        if prefix and (root == prefix or root.endswith("/" + prefix)):
            return True
    return False


def _covers_in(t: Transcript, path: str | Matcher) -> Callable[[FileEvent], bool]:
    """``_memo_covers`` of *path*, and, when *path* is absolute and under the session's folder
    (``metadata["cwd"]``, where the format records it), of the same file as the relative paths
    of the shell name it: ``sed -i … src/x.ts`` run in ``/repo`` changes ``/repo/src/x.ts``."""
    fits = _path_matcher(path)
    covers = _memo_covers(fits, path)
    root = t.metadata.get("cwd")
    if not (isinstance(path, str) and isinstance(root, str) and root.startswith("/")):
        return covers
    want = os.path.normpath(path.replace("\\", "/"))
    base = os.path.normpath(root)
    if not want.startswith(base.rstrip("/") + "/"):
        return covers
    rel = want[len(base.rstrip("/")) + 1 :]
    exact = os.path.normpath(rel)
    covers_rel = _memo_covers(lambda a: os.path.normpath(a.replace("\\", "/")) == exact, rel)

    def either(e: FileEvent) -> bool:
        return covers(e) or (not e.path.startswith(("/", "~")) and covers_rel(e))

    return either


def _relative_twins(t: Transcript, path: str | Matcher, events: Sequence[FileEvent],
                    taken: Sequence[FileEvent]) -> list[FileEvent]:
    """Changes to a relative path that an absolute *path* ends with, when the transcript does not
    record the session's folder: ``src/x.ts`` may be ``/repo/src/x.ts`` (or another copy)."""
    root = t.metadata.get("cwd")
    if not isinstance(path, str) or not path.startswith("/") or (isinstance(root, str) and root.startswith("/")):
        return []
    want = os.path.normpath(path.replace("\\", "/"))
    seen = {id(e) for e in taken}
    out = []
    for e in events:
        if e.op == "read" or id(e) in seen or e.pattern or e.path.startswith(("/", "~")):
            continue
        rel = os.path.normpath(e.path.replace("\\", "/"))
        if rel not in (".", "..") and not rel.startswith("../") and (
                want.endswith("/" + rel) or (e.recursive and ("/" + rel + "/") in want)):
            out.append(e)
    return out


def _memo_covers(fits: Callable[[str], bool], path: str | Matcher) -> Callable[[FileEvent], bool]:
    """``_covers(e, fits, path)``, decided once per distinct event path (a file is read and
    edited many times: the path matcher, a regex with a time budget, runs once per path)."""
    seen: dict[tuple[str, bool, bool], bool] = {}

    def covers(e: FileEvent) -> bool:
        key = (e.path, e.pattern, e.recursive)
        got = seen.get(key)
        if got is None:
            got = seen[key] = _covers(e, fits, path)
        return got

    return covers


_COUNTING = {
    True: "successful events only (succeeded=None counts attempts)",
    False: "failed events only",
    None: "every attempt, successful or not",
}


def _check_succeeded(succeeded: object) -> None:
    if succeeded not in (True, False, None):
        raise UsageError(f"succeeded must be True, False or None, got {succeeded!r}")


def _outcome_filter(events: list[FileEvent], succeeded: bool | None) -> tuple[list[FileEvent], list[FileEvent]]:
    """The events that count, and those whose outcome is not recorded (they might count)."""
    if succeeded is None:
        return events, []
    hits = [e for e in events if e.succeeded is succeeded]
    unknown = [e for e in events if e.succeeded is None]
    return hits, unknown


def _ev_at(e: FileEvent, i: int) -> Evidence:
    return Evidence.from_call(e.call, e.describe())


def _file_check(
    name: str, t: Transcript, path: str | Matcher, ops: tuple[str, ...], verb: str, include_subagents: bool,
    succeeded: bool | None,
) -> CheckResult:
    _check_succeeded(succeeded)
    events = file_events(t, include_subagents=include_subagents)
    covers = _covers_in(t, path)
    mine = [e for e in events if e.op in ops and covers(e)]
    hits, unknown = _outcome_filter(mine, succeeded)
    echo = _echo(name, path, succeeded=None if succeeded is True else _Shown(repr(succeeded)))
    expected = f"{short_repr(path, 120)} {verb}"
    counting = f"counting {_COUNTING[succeeded]}"
    if hits:
        first = hits[0]
        via = " through the shell" if first.via == "shell" else ""
        return _pass(name, expected, f"#{first.call.index} {first.op} {first.path}{via}", echo,
                     _made(hits, _ev_at), tuple(e.call for e in hits),
                     notes=[counting] if len(hits) != len(mine) else [])
    if unknown:
        found = f"{_plural(len(unknown), verb_noun(ops))} whose outcome the transcript does not record"
        return CheckResult.inconclusive(name, expected, found, _made(unknown, _ev_at), check=echo,
                                        notes=(counting, "pass succeeded=None to count these attempts"))
    if mine:
        kind = "failed" if succeeded is True else "successful"
        found = f"only {_plural(len(mine), kind + ' ' + verb_noun(ops))}"
        return _fail(name, t, expected, found, echo, _made(mine, _ev_at), notes=[counting])
    same_path = [e for e in events if covers(e)]
    others = [e for e in events if e.op in ops]
    ev = _made((same_path or others), _ev_at)
    verbs = {"read": "read", "write": "written", "edit": "edited", "delete": "deleted"}
    found = (f"it was only {' and '.join(sorted({verbs[e.op] for e in same_path}))}" if same_path else
             f"{_plural(len(others), 'other file')} {verb}" if others else f"no file {verb}")
    notes = []
    if isinstance(path, str) and others:
        close = difflib.get_close_matches(path, sorted({e.path for e in others}), n=2, cutoff=0.5)
        if close:
            notes.append("did you mean " + " or ".join(repr(c) for c in close) + "?")
    return _fail(name, t, expected, found, echo, ev, notes=notes)


def verb_noun(ops: tuple[str, ...]) -> str:
    """``read`` / ``write`` / ``change``: what one event of *ops* is called."""
    return ops[0] if len(ops) == 1 else "change"


@_guarded("file_read")
def check_file_read(
    t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True, succeeded: bool | None = True
) -> CheckResult:
    """The agent read the file (a path equal to, or ending in ``/``+*path*; globs allowed).

    Counts successful reads (``succeeded=None``: every attempt; ``False``: failed ones); shell
    reads (``cat``, ``sed -n``, ``head``...) count, marked as made through the shell.
    """
    return _file_check("file_read", t, path, ("read",), "read", include_subagents, succeeded)


@_guarded("file_written")
def check_file_written(
    t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True, succeeded: bool | None = True
) -> CheckResult:
    """The agent wrote (created or overwrote) the file; a failed write does not count unless
    ``succeeded=None``."""
    return _file_check("file_written", t, path, ("write",), "written", include_subagents, succeeded)


@_guarded("file_edited")
def check_file_edited(
    t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True, succeeded: bool | None = True
) -> CheckResult:
    """The agent edited the file in place (Edit/MultiEdit, a patch update, ``>>``, ``sed -i``)."""
    return _file_check("file_edited", t, path, ("edit",), "edited", include_subagents, succeeded)


@_guarded("file_changed")
def check_file_changed(
    t: Transcript, path: str | Matcher, /, *, include_subagents: bool = True, succeeded: bool | None = True
) -> CheckResult:
    """The agent wrote, edited or deleted the file."""
    return _file_check("file_changed", t, path, ("write", "edit", "delete"), "changed", include_subagents, succeeded)


def _trust(value: object) -> Callable[[_Unknown], bool]:
    """Which commands that may write unnamed files ``ignore_unknown_writes`` accepts: all
    (``True``), none (``False``), or those a list names: a string is a program and the first
    arguments it is run with (``"make"``, ``"npm test"``, ``"npm run build"``), matched against
    the command and what its wrappers run (``sudo make``, ``npx vitest``); a matcher is matched
    against the simple command's text."""
    if isinstance(value, bool):
        return lambda _u: value
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise UsageError("ignore_unknown_writes must be True, False, or a list of programs or matchers "
                         f"(['make', 'npm test']), got {short_repr(value, 80)}")
    words: list[tuple[str, ...]] = []
    matchers: list[Matcher] = []
    for item in value:
        if isinstance(item, Matcher):
            matchers.append(item)
        elif isinstance(item, str) and item.split():
            first, *args = item.split()
            words.append((first.rsplit("/", 1)[-1], *args))
        else:
            raise UsageError(f"ignore_unknown_writes: expected a program (a non-empty string) or a matcher, "
                             f"got {short_repr(item, 80)}")

    def trusted(u: _Unknown) -> bool:
        _, text, _, forms = u
        return (any(form[: len(w)] == w for form in forms for w in words)
                or any(m.matches(text) for m in matchers))

    return trusted


def _suggested_trust(opaque: Sequence[_Unknown]) -> list[str]:
    """The ``ignore_unknown_writes`` list that would accept exactly these commands' programs (the
    program and its first argument: ``pnpm test``, ``make build``), checked against the rule that
    reads it; ``['make', 'npm test']`` when no short list would do."""
    names: list[str] = []
    for _, _, _, forms in opaque:
        if forms and forms[0]:
            form = forms[0]
            words = form[:2] if len(form) > 1 and not form[1].startswith("-") else form[:1]
            name = " ".join((words[0].rsplit("/", 1)[-1], *words[1:]))
            if name not in names:
                names.append(name)
    if not names or len(names) > 4:
        return ["make", "npm test"]
    trusted = _trust(names)
    return names if all(trusted(u) for u in opaque) else ["make", "npm test"]


@_guarded("file_not_changed")
def check_file_not_changed(
    t: Transcript,
    path: str | Matcher,
    /,
    *,
    include_subagents: bool = True,
    assume_complete: bool = False,
    succeeded: bool | None = True,
    ignore_unknown_writes: bool | Sequence[str | Matcher] = False,
) -> CheckResult:
    """The agent did not write, edit or delete the file.

    A failed attempt is not a change (``succeeded=None`` counts every attempt). INCONCLUSIVE on
    a partial transcript, on a change whose outcome is not recorded, and when a command may have
    written files it does not name (a script, ``make``, ``npm test``):
    ``ignore_unknown_writes=True`` accepts them all, a list accepts those of the programs it
    names (``["make", "npm test"]``, or matchers on the command's text).
    """
    _check_succeeded(succeeded)
    trusted = _trust(ignore_unknown_writes)
    covers = _covers_in(t, path)
    changes = [e for e in file_events(t, include_subagents=include_subagents)
               if e.op != "read" and covers(e)]
    hits, unknown = _outcome_filter(changes, succeeded)
    echo = _echo("file_not_changed", path, succeeded=None if succeeded is True else _Shown(repr(succeeded)))
    expected = f"{short_repr(path, 120)} not changed"
    counting = f"counting {_COUNTING[succeeded]}"
    if hits:
        return _fail("file_not_changed", t, expected, f"{_plural(len(hits), 'change')}", echo,
                     _made(hits, _ev_at), positive=False,
                     notes=[counting] if len(hits) != len(changes) else [])
    notes = []
    skipped = [e for e in changes if e not in unknown]
    if skipped:
        notes.append(f"{_plural(len(skipped), 'failed attempt')} not counted as a change: {counting}")
    if unknown:
        found = f"{_plural(len(unknown), 'change')} whose outcome the transcript does not record"
        return CheckResult.inconclusive(
            "file_not_changed", expected, found, _made(unknown, _ev_at), check=echo,
            notes=(*notes, "pass succeeded=None to count these attempts as changes"),
        )
    maybe = [e for e in _relative_twins(t, path, file_events(t, include_subagents=include_subagents), changes)
             if succeeded is None or e.succeeded is not False]  # a failed attempt is no change either
    if maybe:
        return CheckResult.inconclusive(
            "file_not_changed", expected, f"{_plural(len(maybe), 'change')} to a relative path that may be it",
            _made(maybe, _ev_at), check=echo,
            notes=(*notes, ("the transcript does not record the folder the agent's shell started in, so a relative "
                           "path ending like this one may name the same file")),
        )
    candidates = [u for u in _file_index(t).unknown_writes if include_subagents or u[0].agent_id is None]
    opaque = [u for u in candidates if not trusted(u)]
    accepted = len(candidates) - len(opaque)
    if accepted and not isinstance(ignore_unknown_writes, bool):
        notes.append(f"{_plural(accepted, 'command')} that may write files it does not name accepted "
                     "by ignore_unknown_writes")
    if opaque:
        found = f"{_plural(len(opaque), 'command')} that may write files it does not name"
        return CheckResult.inconclusive(
            "file_not_changed", expected, found, (Evidence.from_call(c, reason) for c, _, reason, _ in opaque),
            summary=f"inconclusive: expected {expected}, found no change, but {found}",
            notes=(*notes, ("pass ignore_unknown_writes=True to accept that these commands left the file alone, "
                           f"or a list of the programs to trust ({_suggested_trust(opaque)!r})")),
            check=echo,
        )
    return _negative("file_not_changed", t, assume_complete=assume_complete, expected=expected,
                     found="no change", check=echo, notes=notes,
                     evidence=_made(changes, _ev_at))
