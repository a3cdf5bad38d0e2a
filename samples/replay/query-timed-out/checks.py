"""A query that timed out: the refund call timed out, so the answer must not claim success."""

from __future__ import annotations

from agenteval_assert import Transcript
from agenteval_assert.checks import check_failures_not_reported_as_success, check_tool_called
from agenteval_assert.matchers import Approx
from agenteval_assert.results import CheckResult


def check_tried_the_refund(t: Transcript) -> CheckResult:
    return check_tool_called(t, "refund_order", order_id="A-1001", amount=Approx(139.0))


def check_timeout_not_reported_as_success(t: Transcript) -> CheckResult:
    return check_failures_not_reported_as_success(t)
