"""Argument matchers: compare what a tool call received with what a test expected.

Every matcher compares with ``==`` (``Matches("pytest") == "uv run pytest"``), so a matcher can
sit anywhere inside an expected dict or list, and any object with an ``__eq__`` — a
`dirty-equals <https://dirty-equals.helpmanual.io>`_ ``IsStr(regex=...)``, ``IsNow()``… — works
as a matcher too. A matcher's ``repr`` is its constructor call, defaults left out, so failure
messages can be pasted back into a test.

Comparison of plain values (:func:`values_match`) is JSON-minded: ``1 == 1.0`` holds, but
``True`` is not ``1`` and ``"1"`` is not ``1``; dicts compare key by key, lists element by
element. The *direction* is always ``expected`` (what the test wrote) against ``actual`` (what
the transcript holds); callables receive ``actual`` first, then ``expected``, by keyword.

Patterns are checked when the matcher is built: ``Matches("(")`` and ``JsonPath("$[")`` raise
``UsageError`` at once, never in the middle of a check. Regular expressions use the ``regex``
module with a per-search timeout (``RegexTimeoutError`` when it runs out), because a pattern
written for a short string can backtrack for minutes on a 2 MB tool output.
"""

from __future__ import annotations

from ._base import ABSENT, ANY, Absent, Anything, ArgsMode, Matcher, values_match
from ._calls import Call, ToolSpec, Unordered, args_differences, as_call
from ._calls import Override as Override
from ._calls import attrs_evolve_path as attrs_evolve_path
from ._calls import call_aliases as call_aliases
from ._calls import canonical_json as canonical_json
from ._regex import DEFAULT_REGEX_TIMEOUT as DEFAULT_REGEX_TIMEOUT
from ._regex import Matches, RegexTimeoutError
from ._regex import compile_pattern as compile_pattern
from ._values import (
    AllOf,
    AnyOf,
    Approx,
    Contains,
    Exact,
    IgnoringKeys,
    JsonPath,
    Not,
    OfType,
    OneOf,
    Partial,
    Satisfies,
)

__all__ = [
    "ABSENT",
    "ANY",
    "Absent",
    "AllOf",
    "AnyOf",
    "Anything",
    "Approx",
    "ArgsMode",
    "Call",
    "Contains",
    "Exact",
    "IgnoringKeys",
    "JsonPath",
    "Matcher",
    "Matches",
    "Not",
    "OfType",
    "OneOf",
    "Partial",
    "RegexTimeoutError",
    "Satisfies",
    "ToolSpec",
    "Unordered",
    "args_differences",
    "as_call",
    "values_match",
]
