"""Product search: the answer must come from a catalog search, not from the model's memory.

The faulty run answers with plausible products (one of them even real) without searching:
its final text looks right while the calls are wrong.
"""

from __future__ import annotations

import json

from agenteval_assert import Transcript
from agenteval_assert.checks import check_tool_called
from agenteval_assert.matchers import Approx, Contains, Matches
from agenteval_assert.results import CheckResult


def check_searched_the_catalog(t: Transcript) -> CheckResult:
    return check_tool_called(
        t,
        "search_products",
        query=Contains("trail", ignore_case=True),
        max_price=Approx(150, abs=0.01),
        size=Matches(r"^10(\.0)?$"),
    )


def check_every_sku_in_the_answer_came_from_a_search(t: Transcript) -> None:
    import regex

    from agenteval_assert.assertions import assert_final_response_matches

    answer = assert_final_response_matches(t, r"\bTR-\d{4}\b")
    returned: set[str] = set()
    for call in t.calls("mcp__shop__search_products"):
        data = json.loads(call.output) if call.output.startswith("{") else {}
        returned.update(r["sku"] for r in data.get("results", []))
    invented = sorted(set(regex.findall(r"\bTR-\d{4}\b", answer)) - returned)
    assert not invented, f"expected only SKUs returned by a search, found invented {', '.join(invented)}"
