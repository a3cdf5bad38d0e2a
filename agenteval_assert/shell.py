"""Shell commands as structured data.

``parse_shell(text)`` turns a command string into a ``ShellScript``: simple commands with their
argv words (quotes and escapes resolved), leading ``VAR=value`` assignments, redirections,
heredoc bodies (kept as data), command substitutions (parsed too), and nested shells
(``bash -lc '…'``, ``sh -c``, ``env bash -x -c``, Codex's ``/bin/bash -lc``) unwrapped
recursively. It never raises: on malformed input (an unbalanced quote, an unterminated heredoc,
binary data) the result is a best effort with ``complete == False`` and the reasons in
``problems``.

``shell_commands(transcript)`` gives every shell command an agent ran, parsed, with its exit
code where the log records one.

``file_effects(script)`` says which files a command line reads, writes, edits or deletes
(``sed -i``, ``> f``, ``cp``, ``rm``, ``git checkout -- f``, a patch...), and which of its commands
may write files it does not name (a script, ``make``): see ``docs/shell.md``.

Examples:
    >>> script = parse_shell("/bin/bash -lc 'cd app && npx storybook tools test run 2>&1 | tail -5'")
    >>> [c.argv for c in script.commands]
    [('cd', 'app'), ('npx', 'storybook', 'tools', 'test', 'run'), ('tail', '-5')]
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from ._shell_files import FileEffect, ShellFileEffects, UnknownWrite, file_effects
from ._shell_model import Assignment, Command, Expansion, Heredoc, Redirect, ShellScript, Word
from ._shell_parse import MAX_DEPTH, nested_script_index, parse_shell
from .model import Location, ToolCall, Transcript

__all__ = [
    "MAX_DEPTH",
    "Assignment",
    "Command",
    "Expansion",
    "FileEffect",
    "Heredoc",
    "Redirect",
    "ShellFileEffects",
    "ShellRun",
    "ShellScript",
    "UnknownWrite",
    "Word",
    "file_effects",
    "nested_script_index",
    "parse_shell",
    "shell_commands",
]


@attrs.define(frozen=True, slots=True, eq=False)
class ShellRun:
    """One shell command the agent ran.

    Attributes:
        call: the tool call (Claude ``Bash``, Codex ``command_execution``/``exec_command``...).
        text: the command text as logged.
        script: the parsed command.
        exit_code: the exit code, where the log records one.
        is_error: the call failed (error result, failed status, or non-zero exit code).
    """

    call: ToolCall
    text: str
    script: ShellScript
    exit_code: int | None
    is_error: bool

    @property
    def commands(self) -> tuple[Command, ...]:
        """The simple commands run (shell wrappers unwrapped)."""
        return self.script.commands

    @property
    def location(self) -> Location:
        return self.call.location

    @property
    def output(self) -> str:
        return self.call.output

    def __repr__(self) -> str:
        return f"ShellRun({self.text!r} at {self.call.location})"


def shell_commands(
    transcript: Transcript | Iterable[ToolCall], *, include_subagents: bool = True
) -> list[ShellRun]:
    """Every shell command in *transcript* (or in an iterable of calls), parsed, in order.

    Shell calls are the calls with ``kind == "shell"`` and a command text (``ToolCall.command``);
    subagents' commands are included unless ``include_subagents=False``.
    """
    if isinstance(transcript, Transcript):
        calls: Iterable[ToolCall] = (
            transcript.all_tool_calls if include_subagents else transcript.tool_calls
        )
    else:
        calls = transcript
    scripts = _scripts(transcript) if isinstance(transcript, Transcript) else {}
    out: list[ShellRun] = []
    for call in calls:
        if call.kind != "shell" or (not include_subagents and call.agent_id is not None):
            continue
        text = call.command
        if text is None:
            continue
        script = scripts.get(text)
        if script is None:
            script = scripts[text] = parse_shell(text)
        out.append(ShellRun(call, text, script, call.exit_code, call.is_error))
    return out


def _new_memo(t: Transcript) -> dict[str, ShellScript]:
    return {}


def _scripts(t: Transcript) -> dict[str, ShellScript]:
    """The parsed scripts of *t*'s command texts, by text: a parse depends on the text alone
    and a script is immutable, so each distinct text is parsed once per transcript, whoever asks
    (``shell_commands``, the checks, the Storybook workflow calls). Kept with the transcript."""
    return t.derived("shell.scripts", _new_memo)


def _script_for(t: Transcript, text: str) -> ShellScript:
    """``parse_shell(text)``, once per distinct text of *t* (see ``_scripts``)."""
    scripts = _scripts(t)
    got = scripts.get(text)
    if got is None:
        got = scripts[text] = parse_shell(text)
    return got
