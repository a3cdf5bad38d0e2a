"""Work counted, not timed: the number of function calls a piece of code makes.

Unit tests never assert on wall-clock or CPU time (a shared CI machine makes them flaky; speed is
measured by the benchmark in ``bench/``). What a timed test protected, an algorithmic property
(linear, not quadratic; a bounded amount of work per record), is asserted on this count instead:
every Python function call and every call of a builtin (``str.find``, a regex ``match``, a
``dict`` method) made while the code runs, counted with ``sys.setprofile``. The count is
deterministic for a given input and Python version, so a bound on it never flakes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

__all__ = ["call_count", "growth"]


def call_count(fn: Callable[[], object]) -> int:
    """The Python and builtin calls made by ``fn()`` (generator resumptions included)."""
    n = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal n
        if event == "call" or event == "c_call":
            n += 1

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(old)
    return n


def growth(small: Callable[[], object], large: Callable[[], object]) -> float:
    """``call_count(large) / call_count(small)``: about k for linear work on k times the input,
    about k² for quadratic work."""
    return call_count(large) / max(1, call_count(small))
