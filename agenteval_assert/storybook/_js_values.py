"""JavaScript values as the reference suite (TypeScript) sees them: ``String(value)``
(``js_string``), ``Number.prototype.toString()`` (``js_number``), ``JSON.parse`` (``json_parse``)
and ``undefined`` (``_MISSING``, a key that is absent).

Imports nothing of ours. ``_context`` re-exports these names, where the rest of the Storybook
package imports them from; the messages' formatting (``JSON.stringify``, ``trunc``, regex
sources) is ``_expect/_js``.
"""

from __future__ import annotations

import decimal
import json
import math
from typing import Any

__all__ = ["js_number", "js_string", "json_parse"]


def js_string(value: Any) -> str:
    """JavaScript ``String(value)`` for JSON-decoded values (``None`` is ``null``).

    ``_MISSING`` prints ``undefined``; numbers print without a trailing ``.0``; objects print as
    ``[object Object]``; arrays join their elements with commas.
    """
    if value is _MISSING:
        return "undefined"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def js_number(value: float) -> str:
    """JavaScript ``Number.prototype.toString()`` (ECMAScript ``Number::toString``): the shortest
    digits that round-trip, in decimal notation from 1e-6 up to 1e21 and exponential outside
    (``1e-7``, ``1.5e+21``; Python writes ``1e-07``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) < 10**21:
            return str(value)
        value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    _, digit_tuple, exp = decimal.Decimal(repr(abs(value))).as_tuple()
    assert isinstance(exp, int)
    digits = "".join(map(str, digit_tuple))
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits = stripped
    k = len(digits)
    n = k + exp  # value = 0.digits × 10^n
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


class _Missing:
    def __repr__(self) -> str:
        return "undefined"


#: Stands for JavaScript ``undefined`` (a key that is absent).
_MISSING: Any = _Missing()


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_parse(text: str | bytes) -> Any:
    """``JSON.parse``: ``json.loads`` without Python's extensions (``NaN``, ``Infinity``,
    ``-Infinity`` raise ``ValueError``, as JavaScript rejects them)."""
    return json.loads(text, parse_constant=_reject_constant)
