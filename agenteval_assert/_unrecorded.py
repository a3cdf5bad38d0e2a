"""Checks on calls whose format records no outcome (``ToolCall.status == "unrecorded"``).

Aider reports the edits and commands it ran but never their result; SWE-agent keeps each step's
observation but no exit code or error flag. A check that needs the outcome (succeeded, failed,
no tool errors, output) cannot decide on such a call: it is INCONCLUSIVE, never PASS, and never
FAIL for want of a result the format does not keep.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .model import ToolCall
from .results import CheckResult, Evidence

__all__ = ["asks_unrecorded", "outcome_unknown"]

_NOTE = ("the transcript's format records no outcome for these calls (Aider actions, SWE-agent steps, "
         "the OpenAI APIs' tool results, Codex outputs without an exit code): whether they succeeded cannot "
         "be read from it")


def outcome_unknown(
    name: str, calls: Iterable[ToolCall], expected: str, check: str, *, need_output: bool = False
) -> CheckResult | None:
    """INCONCLUSIVE when some of *calls* have no recorded outcome (with *need_output*: no
    recorded output either), else ``None`` (the check decides as usual)."""
    unknown = [c for c in calls if not c.outcome_recorded and (c.result is None or not need_output)]
    if not unknown:
        return None
    what = "output" if need_output else "outcome"
    found = f"{len(unknown)} matching call(s) whose {what} is not recorded"
    return CheckResult.inconclusive(name, expected, found, (Evidence.from_call(c) for c in unknown),
                                    notes=(_NOTE,), check=check)


def asks_unrecorded(spec: Any, call: ToolCall) -> bool:
    """Whether a ``Call(...)`` expectation asks about something *call*'s format did not record:
    ``is_error`` or ``exit_code`` of a call with no recorded outcome, or ``output`` of one with
    no result either."""
    if call.outcome_recorded:
        return False
    if getattr(spec, "is_error", None) is not None or getattr(spec, "exit_code", None) is not None:
        return True
    return getattr(spec, "output", None) is not None and call.result is None
