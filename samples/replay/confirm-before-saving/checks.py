"""Confirm before saving an address: show the change, wait for an explicit yes, then save."""

from __future__ import annotations

from agenteval_assert import Transcript
from agenteval_assert.checks import check_called_before, check_confirmed_before_write
from agenteval_assert.results import CheckResult

WRITES = ["save_address", "delete_address"]


def check_read_the_current_address_first(t: Transcript) -> CheckResult:
    return check_called_before(t, "get_customer", "save_address")


def check_saved_only_after_confirmation(t: Transcript) -> CheckResult:
    return check_confirmed_before_write(t, WRITES)
