"""Shell commands: a command ran (on its text, or its parsed program, subcommand and flags)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any, Union

import regex

from .._unrecorded import outcome_unknown
from ..exceptions import UsageError
from ..matchers import Contains, Matcher, Matches, values_match
from ..model import ToolCall, Transcript
from ..results import CheckResult, Difference, Evidence, NearestMiss, short_repr
from ._common import (
    _echo,
    _evidence,
    _fail,
    _guarded,
    _index,
    _made,
    _outcome,
    _pass,
    _plural,
    _with_outcome_and_output,
)

__all__ = [
    "FlagSpec",
    "check_command_ran",
    "check_command_succeeded",
]


def _command_matcher(command: str | Matcher) -> Matcher:
    if isinstance(command, Matcher):
        return command
    if not isinstance(command, str) or not command.strip():
        raise UsageError(f"command must be a non-empty string or a matcher, got {command!r}")
    words = command.split()
    body = r"\s+".join(regex.escape(w) for w in words)
    # Whole words: "npm test" matches "cd app && npm test -- --ci" but not "npm tests".
    return Matches(rf"(?<![\w./-]){body}(?![\w./-])")


def _shell_calls(t: Transcript, include_subagents: bool) -> list[ToolCall]:
    return list(_index(t).shell_calls(include_subagents))


#: Flags of ``check_command_ran``: names that must be present, or ``{name: True | False | value}``.
FlagSpec = Union[Sequence[str], Mapping[str, Any]]  # noqa: UP007 - a runtime alias on 3.10


def _flag_values(argv: Sequence[str]) -> dict[str, list[Any]]:
    """``{"--json": [True], "--port": ["6006"], "-p": ["6006"]}`` from argv (after the program)."""
    out: dict[str, list[Any]] = {}
    for i, tok in enumerate(argv):
        if not tok.startswith("-") or tok == "-" or tok == "--":
            continue
        if "=" in tok:
            name, _, value = tok.partition("=")
            out.setdefault(name, []).append(value)
            continue
        vals = out.setdefault(tok, [])
        vals.append(True)
        if i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            vals.append(argv[i + 1])  # "--port 6006": the next word may be the value
    return out


def _parsed_fits(
    cmd: Any, program: str | Matcher | None, subcommand: str | Sequence[str] | None,
    flags: FlagSpec | None,
) -> bool:
    argv: tuple[str, ...] = cmd.argv
    if not argv:
        return False
    if program is not None and not values_match(program, cmd.name) and not values_match(program, argv[0]):
        return False
    if subcommand is not None:
        words = subcommand.split() if isinstance(subcommand, str) else list(subcommand)
        positional = [a for a in argv[1:] if not a.startswith("-")]
        if positional[: len(words)] != words:
            return False
    if flags is not None:
        have = _flag_values(argv[1:])
        wanted: Mapping[str, Any] = flags if isinstance(flags, Mapping) else dict.fromkeys(flags, True)
        for name, want in wanted.items():
            vals = have.get(name)
            if want is False:
                if vals:
                    return False
            elif want is True:
                if not vals:
                    return False
            elif not vals or not any(values_match(want, v) for v in vals if v is not True):
                return False
    return True


def _pure(v: object) -> bool:
    """*v* is matched the same way every time: nothing, a value, or one of our text matchers
    (a caller's matcher may keep state, so it sees every call)."""
    return (v is None or type(v) in (str, bool, int, Matches)
            or (type(v) is Contains and type(v.part) is str))


@_guarded("command_ran")
def check_command_ran(
    t: Transcript,
    command: str | Matcher | None = None,
    /,
    *,
    program: str | Matcher | None = None,
    subcommand: str | Sequence[str] | None = None,
    flags: FlagSpec | None = None,
    succeeded: bool | None = None,
    include_subagents: bool = True,
) -> CheckResult:
    """A shell command ran: matched on its text, and/or on the parsed program, subcommand, flags.

    *command* (text): ``"npm test"`` matches ``cd web && npm test -- --ci`` (whole words); a
    ``Matches(...)`` is searched in the command text.

    Parsed (``agenteval_assert.shell.parse_shell``; ``bash -lc '…'`` wrappers, ``&&``, pipes
    and ``$(…)`` are looked through): some simple command has *program* as its
    ``argv[0]`` (basename or full), the words of *subcommand* as its first positional
    arguments, and *flags* — a list of flags that must be present, or a mapping
    ``{"--json": True, "--watch": False, "--port": "6006"}`` (present / absent / with a value,
    ``--port=6006`` or ``--port 6006``; values may be matchers).

    With ``succeeded=True`` the command must also have succeeded (exit code 0 / no error);
    with ``False``, failed.
    """
    if command is None and program is None and subcommand is None and flags is None:
        raise UsageError("check_command_ran() needs the command text, or program=/subcommand=/flags=")
    if subcommand is not None and program is None:
        raise UsageError("check_command_ran(): subcommand= needs program=")
    m = None if command is None else _command_matcher(command)
    parsed = program is not None or flags is not None
    name = "command_ran" if succeeded is None else "command_succeeded" if succeeded else "command_failed"
    echo = _echo(name, *(() if command is None else (command,)), program=program, subcommand=subcommand,
                 flags=flags, succeeded=succeeded if name == "command_ran" else None)
    shells = _shell_calls(t, include_subagents)
    ix = _index(t)

    def fits(text: str) -> bool:
        return ((m is None or m.matches(text))
                and (not parsed or any(_parsed_fits(x, program, subcommand, flags) for x in ix.script(text).walk())))

    if _pure(m) and _pure(program) and (flags is None or all(
            _pure(v) for v in (flags.values() if isinstance(flags, Mapping) else flags))):
        seen: dict[str, bool] = {}  # the verdict depends on the text alone: once per distinct text
        hits = []
        for c, text in zip(shells, ix.shell_texts(include_subagents), strict=True):
            got = seen.get(text)
            if got is None:
                got = seen[text] = fits(text)
            if got:
                hits.append(c)
    else:
        hits = [c for c, text in zip(shells, ix.shell_texts(include_subagents), strict=True) if fits(text)]
    quals = [f"{k}={short_repr(v, 60)}" for k, v in (("program", program), ("subcommand", subcommand),
                                                     ("flags", flags)) if v is not None]
    what = "a shell command" + (f" matching {short_repr(command, 80)}" if command is not None else "")
    if quals:
        what += (" with " if command is None else " and ") + ", ".join(quals)
    expected = f"{what} that {'succeeded' if succeeded else 'failed'}" if succeeded is not None else what
    if not hits:
        nm = None
        if isinstance(command, str):
            near = difflib.get_close_matches(command, [c.command or "" for c in shells], n=1, cutoff=0.3)
            if near:
                c = next(c for c in shells if c.command == near[0])
                nm = NearestMiss(Evidence.from_call(c), (Difference("command", short_repr(command), short_repr(c.command)),))
        return _fail(name, t, expected, f"none among {_plural(len(shells), 'shell command')}", echo,
                     _evidence(t, shells), nm)
    if succeeded is not None:
        good = [c for c in hits if (c.result is not None and not c.is_error) == succeeded and (succeeded or c.is_error)
                and c.outcome_recorded]
        if not good and (unknown := outcome_unknown(name, hits, expected, echo)) is not None:
            return unknown
        if not good:
            return _fail(name, t, expected, f"{_plural(len(hits), 'matching command')}, " + ", ".join(_outcome(c) for c in hits[:3]),
                         echo, _made(hits, _with_outcome_and_output))
        hits = good
    return _pass(name, expected, f"#{hits[0].index}", echo, _evidence(t, hits), tuple(hits))


def check_command_succeeded(
    t: Transcript,
    command: str | Matcher | None = None,
    /,
    *,
    program: str | Matcher | None = None,
    subcommand: str | Sequence[str] | None = None,
    flags: FlagSpec | None = None,
    include_subagents: bool = True,
) -> CheckResult:
    """A shell command matching *command* (and/or program/subcommand/flags) ran and succeeded."""
    return check_command_ran(
        t, command, program=program, subcommand=subcommand, flags=flags, succeeded=True,
        include_subagents=include_subagents,
    )
