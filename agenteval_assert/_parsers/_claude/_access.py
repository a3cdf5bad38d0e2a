"""Small typed accessors (a value of the type asked for, or ``None``) and the usage helpers
(an API ``usage`` object, a result's ``modelUsage``, their sums as a ``Usage``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from ...model import Usage
from .._common import as_float


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _nonempty(v: Any) -> str | None:
    return v if isinstance(v, str) and v else None


def _num(v: Any) -> float | None:
    return as_float(v)


def _count(v: Any) -> int | None:
    if type(v) is int:  # the common case first (bool is not int here)
        return v if v >= 0 else None
    if type(v) is float and math.isfinite(v) and v >= 0 and v.is_integer():
        return int(v)
    return None  # a fraction, NaN, a string...: no count (TranscriptBuilder.unusable_usage says so)


def _sum_fields(rows: Iterable[Sequence[int | None]], cost: float | None) -> Usage:
    """``[input, output, cache_read, cache_write]`` rows summed (a field stays ``None`` when no
    row has it) as a ``Usage``."""
    sums: list[int | None] = [None, None, None, None]
    for fields in rows:
        for i, v in enumerate(fields):
            if v is not None:
                sums[i] = (sums[i] or 0) + v
    return Usage(sums[0], sums[1], sums[2], sums[3], None, cost)


#: ``modelUsage`` keys in ``Usage`` order (input, output, cache read, cache write).
_MODEL_USAGE_KEYS = ("inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens")


def _model_usage(mu: Any) -> tuple[Usage, float | None] | None:
    """The run total of a result's ``modelUsage`` (per model, cumulative for the session) and the
    sum of its ``costUSD``; ``None`` when it holds no model entry."""
    if not isinstance(mu, dict):
        return None
    rows: list[list[int | None]] = []
    cost: float | None = None
    for entry in mu.values():
        if not isinstance(entry, dict):
            continue
        rows.append([_count(entry.get(k)) for k in _MODEL_USAGE_KEYS])
        c = _num(entry.get("costUSD"))
        if c is not None:
            cost = (cost or 0.0) + c
    if not rows:
        return None
    return _sum_fields(rows, None), cost


def _usage_text(u: Usage) -> str:
    parts = [f"{label} {v}" for label, v in (("in", u.input_tokens), ("out", u.output_tokens),
             ("cache read", u.cache_read_tokens), ("cache write", u.cache_write_tokens)) if v is not None]
    return ", ".join(parts) or "none"


def _tokens(u: Usage) -> tuple[int | None, ...]:
    return (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens)


_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def _usage_fields(usage: Any) -> list[int | None] | None:
    """``[input, output, cache_read, cache_write]`` of an API ``usage`` object."""
    if type(usage) is dict:
        # the common case, one per API message: four plain non-negative ints (then _count gives
        # them back as they are), and a cache write that needs no look at ``cache_creation``
        get = usage.get
        i, o, r, w = (get("input_tokens"), get("output_tokens"), get("cache_read_input_tokens"),
                      get("cache_creation_input_tokens"))
        if (type(i) is int and type(o) is int and type(r) is int and type(w) is int
                and i >= 0 and o >= 0 and r >= 0 and (w > 0 or (w == 0 and "cache_creation" not in usage))):
            return [i, o, r, w]
    elif not isinstance(usage, dict):
        return None
    cache_write = _count(usage.get("cache_creation_input_tokens"))
    if not cache_write:
        # before 2.1.152 the top-level field was sometimes 0 with only the nested one set (§3.6.9)
        cc = usage.get("cache_creation")
        if isinstance(cc, dict):
            parts = [_count(v) for k, v in cc.items() if isinstance(k, str) and k.startswith("ephemeral_")]
            known = [p for p in parts if p is not None]
            if known:
                cache_write = sum(known)
    return [
        _count(usage.get("input_tokens")),
        _count(usage.get("output_tokens")),
        _count(usage.get("cache_read_input_tokens")),
        cache_write,
    ]

