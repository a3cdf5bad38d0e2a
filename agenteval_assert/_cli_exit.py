"""The exit codes of every command, and which one wins when several inputs end differently; the
argparse number type the command modules share (``bounded``).

Kept apart from ``_cli.py`` so that the command modules (``_cli_check``...) share them without
importing the parser module that imports them.
"""

from __future__ import annotations

import argparse
import contextvars
import enum
from collections.abc import Callable
from typing import TypeVar

__all__ = ["ExitCode", "bounded", "current_input"]


class ExitCode(enum.IntEnum):
    """Process exit codes of every command."""

    #: every check passed (or was skipped)
    OK = 0
    #: at least one check failed
    FAILED = 1
    #: the command line was wrong (unknown option, unknown eval...)
    USAGE = 2
    #: an input could not be read or parsed
    INPUT = 3
    #: nothing failed, but at least one check could not be decided
    INCONCLUSIVE = 4
    #: nothing failed, but a check could not run (ERROR: a user check raised, a pattern timed out)
    ERROR = 5
    #: the library itself crashed (a bug of ours, never a verdict on the agent); ``EX_SOFTWARE``
    INTERNAL = 70


#: The input a command is working on, named by the last-resort handler when something crashes.
current_input: contextvars.ContextVar[str | None] = contextvars.ContextVar("current_input", default=None)


#: Which code wins when several inputs end differently: 3 over 1 over 5 over 4 over 0.
_RANK = {
    ExitCode.OK: 0,
    ExitCode.INCONCLUSIVE: 1,
    ExitCode.ERROR: 2,
    ExitCode.FAILED: 3,
    ExitCode.INPUT: 4,
    ExitCode.USAGE: 5,
    ExitCode.INTERNAL: 6,
}


def _worse(a: ExitCode, b: ExitCode) -> ExitCode:
    """The code that outranks the other (see ``_RANK``)."""
    return a if _RANK[a] >= _RANK[b] else b


N = TypeVar("N", int, float)


def bounded(convert: Callable[[str], N], ok: Callable[[N], bool], expected: str,
            out_of_range: str | None = None) -> Callable[[str], N]:
    """An argparse ``type``: *convert* the text and accept the value if *ok*; otherwise the
    error ``{expected} {text!r}`` (``{out_of_range} {text!r}`` for a number out of range)."""

    def parse(text: str) -> N:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{expected} {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{out_of_range or expected} {text!r}")
        return value

    return parse
