"""Codex parsers: ``codex-exec`` (``codex exec --json``, three generations) and ``codex-rollout``.

Both parsers are *total* over JSON objects: every record is either turned into a step, used to
fill a transcript field, or counted (``TranscriptBuilder.skip`` / ``.unknown``); a field with the
wrong type is treated as absent. No per-record validation library is used on purpose: the reader
already decoded each line, and these parsers only look at a handful of keys per record (a pydantic
model per line would cost more than the whole parse and reject the damaged records we must keep).

See ``docs/formats-codex.md`` for the detection rules and what every model field is filled from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._exec import CodexExecParser
    from ._rollout import CodexRolloutParser

# Start-up: each parser's module is imported on first use (an exec file needs no rollout parser).
_WHERE = {"CodexExecParser": "._exec", "CodexRolloutParser": "._rollout"}

__getattr__ = lazy_names(__name__, _WHERE)

__all__ = [
    "CodexExecParser",
    "CodexRolloutParser",
]
