"""Who wants to see every check result: the pytest plugin's ``--agenteval-report`` listens here.

The ``assert_*`` functions tell the observers each result they compute (passing ones too),
with the transcript it is about. Nobody listens unless a report was asked for: then the cost
is one list look-up per assertion.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["emit", "listening", "observers"]

#: The callbacks, called as ``fn(transcript, result)``.
observers: list[Callable[[Any, Any], None]] = []


def emit(transcript: Any, result: Any) -> None:
    """Tell every observer about *result* (a ``CheckResult``) on *transcript*."""
    for fn in observers:
        fn(transcript, result)


@contextlib.contextmanager
def listening(fn: Callable[[Any, Any], None]) -> Iterator[None]:
    """Call *fn* for every result emitted while the block runs."""
    observers.append(fn)
    try:
        yield
    finally:
        observers.remove(fn)
