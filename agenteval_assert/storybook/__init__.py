"""Storybook agent-eval vocabulary: workflow names, workflow calls, story-test reports, assertions.

The public names are re-exported from private modules that each declare ``__all__``.
"""

from __future__ import annotations

from ._context import *  # noqa: F403
from ._expect import *  # noqa: F403
from ._names import *  # noqa: F403
from ._report import *  # noqa: F403
from ._suites import *  # noqa: F403
from ._workflow import *  # noqa: F403
