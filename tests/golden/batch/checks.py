"""Checks for the golden batch outputs: one that a grader bug breaks on baseline runs (ERROR)."""

from __future__ import annotations

from agenteval_assert import Transcript


def check_grader_can_read_the_run(t: Transcript) -> None:
    if "baseline" in t.path:
        raise RuntimeError("simulated grader bug")
