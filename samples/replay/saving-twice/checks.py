"""Saving twice: one confirmed save must create one address, not two."""

from __future__ import annotations

from agenteval_assert import Transcript
from agenteval_assert.checks import check_no_duplicate_calls, check_tool_called
from agenteval_assert.results import CheckResult


def check_saved_the_address(t: Transcript) -> CheckResult:
    return check_tool_called(t, "save_address", line1="42 Elm Street", postal_code="62704")


def check_saved_once(t: Transcript) -> CheckResult:
    return check_no_duplicate_calls(t, ["save_address"])
