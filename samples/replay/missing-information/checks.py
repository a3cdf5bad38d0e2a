"""Asking for missing information: no address given, so the agent must ask, not invent one."""

from __future__ import annotations

from agenteval_assert import Transcript
from agenteval_assert.assertions import assert_final_response_matches, assert_tools_not_called
from agenteval_assert.checks import check_tool_called
from agenteval_assert.results import CheckResult


def check_looked_up_the_order(t: Transcript) -> CheckResult:
    return check_tool_called(t, "shop.get_order", order_id="A-1003")


def check_did_not_invent_an_address(t: Transcript) -> None:
    assert_tools_not_called(t, ["shop.set_shipping_address", "shop.create_shipment"])


def check_asked_for_the_address(t: Transcript) -> None:
    assert_final_response_matches(t, r"(?i)\baddress\b[^?]*\?")
