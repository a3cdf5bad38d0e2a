"""The "50 mixed checks" of the benchmark, built on ``agenteval_assert.checks``.

``suite()`` returns ``None`` while that module does not exist; ``bench._measure`` then times the
built-in health checks instead (and says so in the report).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def suite() -> tuple[str, Callable[[Any], list[Any]]] | None:
    try:
        import agenteval_assert.checks  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        return None
    return None
