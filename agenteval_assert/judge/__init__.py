"""The LLM judge: criteria scored against a transcript, structured verdicts, offline replay.

::

    from agenteval_assert.judge import Judge, check_criterion

    judge = Judge(cassettes="tests/cassettes")            # replay: never touches the network
    r = check_criterion(t, "The final response explains the contrast problem.", threshold=0.8, judge=judge)

``check_criterion`` / ``assert_criterion`` decide one criterion (``toScoreAtLeast`` /
``toSatisfyCriterion``); ``judge_verdict`` returns the structured ``Verdict`` on several criteria
(or a ``judge.md``) and ``check_verdict`` one result per criterion. Requests go through the
official ``anthropic`` SDK (the ``judge`` extra), which is imported only when a live call is made:
replaying cassettes needs no SDK and no network. See ``docs/judge.md``.

Importing ``agenteval_assert`` does not import this package.
"""

from __future__ import annotations

from ._call import Attempt
from ._cassette import HAND_WRITTEN, RECORDED
from ._config import (
    DEFAULT_MODEL,
    MODES,
    OUTPUTS,
    POLICIES,
    PRICES,
    CostBudget,
    Judge,
    Price,
    price_for,
)
from ._core import (
    JudgeError,
    JudgeResult,
    Sample,
    assert_criterion,
    check_criterion,
    check_verdict,
    judge_verdict,
)
from ._hook import criterion_hook
from ._judgefile import JudgeFile, parse_judge_file, read_judge_file
from ._prompt import PROMPT_VERSION, SYSTEM_PROMPT
from ._render import EvidenceSelection, RenderedStep, Rendering, render
from ._schema import SCHEMA_VERSION, Citation, CriterionVerdict, Friction, Observation, Verdict

__all__ = [
    "DEFAULT_MODEL",
    "HAND_WRITTEN",
    "MODES",
    "OUTPUTS",
    "POLICIES",
    "PRICES",
    "PROMPT_VERSION",
    "RECORDED",
    "SCHEMA_VERSION",
    "SYSTEM_PROMPT",
    "Attempt",
    "Citation",
    "CostBudget",
    "CriterionVerdict",
    "EvidenceSelection",
    "Friction",
    "Judge",
    "JudgeError",
    "JudgeFile",
    "JudgeResult",
    "Observation",
    "Price",
    "RenderedStep",
    "Rendering",
    "Sample",
    "Verdict",
    "assert_criterion",
    "check_criterion",
    "check_verdict",
    "criterion_hook",
    "judge_verdict",
    "parse_judge_file",
    "price_for",
    "read_judge_file",
    "render",
]
