"""Storybook agent-eval vocabulary: workflow names and calls, story-test reports, the ``expect_*``
assertions, the evaluation context and the built-in eval suites.

The public names live in private modules, each with its own ``__all__``; this package re-exports
exactly those (``__all__`` below is their concatenation, checked for clashes by the tests).
"""

from __future__ import annotations

from . import _context, _expect, _names, _report, _suites, _workflow
from ._context import *  # noqa: F403
from ._expect import *  # noqa: F403
from ._names import *  # noqa: F403
from ._report import *  # noqa: F403
from ._suites import *  # noqa: F403
from ._workflow import *  # noqa: F403

__all__ = [
    *_names.__all__,
    *_workflow.__all__,
    *_report.__all__,
    *_context.__all__,
    *_expect.__all__,
    *_suites.__all__,
]
