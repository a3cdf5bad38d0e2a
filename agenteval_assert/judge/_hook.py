"""The judge as the Storybook suites' criterion hook, without importing the suites.

``criterion_hook(judge)`` returns a function ``(ctx, criterion, threshold) -> CheckResult``, the
signature of ``agenteval_assert.storybook.judge_criterion``: pass it as ``Suite.run(ctx,
judge=...)``. Any object with a ``transcript`` and a ``workspace`` (the sandbox root, where the
files named by ``EvidenceSelection.files`` are read) is accepted as the context.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Protocol

import attrs

from ..model import Transcript
from ..results import CheckResult
from ._config import Judge
from ._core import check_criterion

__all__ = ["criterion_hook"]


class _Context(Protocol):
    @property
    def transcript(self) -> Transcript: ...


def criterion_hook(judge: Judge) -> Callable[[Any, str, float], CheckResult]:
    """The suites' judge hook deciding every criterion with *judge*."""

    def hook(ctx: _Context, criterion: str, threshold: float) -> CheckResult:
        j = judge
        workspace = getattr(ctx, "workspace", None)
        if workspace is not None and judge.evidence.root is None and judge.evidence.files:
            j = judge.with_evidence(attrs.evolve(judge.evidence, root=os.fspath(workspace)))
        return check_criterion(ctx.transcript, criterion, threshold=threshold, judge=j)

    return hook
