"""One judge call through the official ``anthropic`` SDK, with the invalid-verdict retries.

Transient HTTP errors (429, 5xx, 529 overloaded, connection errors) are retried by the SDK itself
(``Judge.max_retries``, honouring ``retry-after``); this module never retries a request by hand.
What it does retry is an answer that is not a valid verdict: the next request carries the
previous answer and the validation errors (for forced tool use, as an error ``tool_result``),
at most ``Judge.attempts`` answers in all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import attrs
import pydantic

from ._config import Judge
from ._prompt import feedback_message
from ._schema import Verdict, validate_verdict, validation_messages, verdict_json_schema

__all__ = ["Attempt", "CallOutcome", "call_judge"]

TOOL_NAME = "record_verdict"
#: Characters per token assumed when reserving a call's worst-case cost (deliberately low: an
#: over-estimate of the prompt's tokens, so that the cap is never exceeded).
CHARS_PER_TOKEN = 3


@attrs.define(frozen=True, slots=True)
class Attempt:
    """One answer of the judge: its raw text, its usage, and why it was rejected (if it was)."""

    raw: str
    usage: dict[str, int]
    errors: tuple[str, ...] = ()
    stop_reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"raw": self.raw, "usage": self.usage, "errors": list(self.errors), "stop_reason": self.stop_reason}


@attrs.define(frozen=True, slots=True)
class CallOutcome:
    """A valid verdict, or the error that prevented one; with every attempt and the cost."""

    verdict: Verdict | None
    attempts: tuple[Attempt, ...] = ()
    cost_usd: float | None = 0.0
    error: str | None = None

    @property
    def usage(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for a in self.attempts:
            for k, v in a.usage.items():
                total[k] = total.get(k, 0) + v
        return total


_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def _usage(response: Any) -> dict[str, int]:
    u = getattr(response, "usage", None)
    out: dict[str, int] = {}
    for k in _USAGE_KEYS:
        v = getattr(u, k, None)
        if isinstance(v, int) and not isinstance(v, bool):
            out[k] = v
    return out


def _answer(response: Any, output: str) -> tuple[str, Any, str | None]:
    """(raw text, the value to validate, the tool_use id) of a response."""
    blocks = list(getattr(response, "content", None) or [])
    if output == "tool":
        for b in blocks:
            if getattr(b, "type", None) == "tool_use" and getattr(b, "name", None) == TOOL_NAME:
                value = getattr(b, "input", None)
                try:
                    raw = json.dumps(value, ensure_ascii=False)
                except (TypeError, ValueError):
                    raw = repr(value)
                return raw, value if isinstance(value, dict) else raw, getattr(b, "id", None)
    text = "".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", None) == "text")
    return text, text, None


def _request(judge: Judge, system: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "model": judge.model,
        "max_tokens": judge.max_tokens,
        "system": system,
        "messages": messages,
    }
    if judge.output == "text":
        return kwargs
    from .._optional import require

    anthropic = require("anthropic", extra="judge", feature="the LLM judge")
    schema = anthropic.transform_schema(verdict_json_schema())
    if judge.output == "json_schema":
        kwargs["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
    else:
        kwargs["tools"] = [
            {"name": TOOL_NAME, "description": "Record the verdict on every criterion.", "input_schema": schema}
        ]
        kwargs["tool_choice"] = {"type": "tool", "name": TOOL_NAME}
    return kwargs


def _worst_case(judge: Judge, system: str, messages: Sequence[dict[str, Any]]) -> float | None:
    price = judge.price()
    if price is None:
        return None
    chars = len(system) + len(json.dumps(messages, ensure_ascii=False))
    tokens_in = chars // CHARS_PER_TOKEN + 1
    return price.cost({"input_tokens": tokens_in, "output_tokens": judge.max_tokens})


def call_judge(judge: Judge, system: str, user: str, criteria: Sequence[str]) -> CallOutcome:
    """Ask the judge (live) for a verdict on *criteria*; see the module docstring."""
    price = judge.price()
    if judge.budget.limit is not None and price is None:
        return CallOutcome(None, (), None, (
            f"no price is known for the model {judge.model!r}, so the judge cost cap cannot be kept: "
            "pass prices={model: Price(input, output)} to Judge (USD per million tokens)"
        ))
    try:
        client = judge.sdk_client()
    except Exception as exc:  # noqa: BLE001 - a judge that cannot start is an ERROR, never a verdict
        first = str(exc).splitlines()[0][:300] if str(exc) else ""
        hint = ("replay recorded cassettes, which needs no SDK" if isinstance(exc, ImportError) else
                "set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or replay recorded cassettes")
        return CallOutcome(None, (), 0.0, f"the judge client could not be created: {type(exc).__name__}: {first}\n{hint}")
    messages: list[dict[str, Any]] = [{"role": "user", "content": user}]
    attempts: list[Attempt] = []
    cost: float | None = 0.0
    for _ in range(judge.attempts):
        reserve = _worst_case(judge, system, messages) or 0.0
        if not judge.budget.reserve(reserve):
            return CallOutcome(None, tuple(attempts), cost, (
                f"the judge cost cap is reached: {judge.budget.describe()}; this call could cost up to "
                f"${reserve:.4f}, so it was not made"
            ))
        try:
            response = client.messages.create(**_request(judge, system, messages))
        except Exception as exc:  # noqa: BLE001 - API errors, a missing key, an old SDK: ERROR, not FAIL
            judge.budget.settle(reserve, 0.0)
            return CallOutcome(None, tuple(attempts), cost, _describe_api_error(exc))
        usage = _usage(response)
        spent = price.cost(usage) if price is not None else None
        judge.budget.settle(reserve, spent or 0.0)
        cost = None if cost is None or spent is None else cost + spent
        stop = getattr(response, "stop_reason", None)
        raw, value, tool_id = _answer(response, judge.output)
        try:
            if stop == "refusal":
                raise ValueError("the model refused to answer (stop_reason refusal)")
            verdict = validate_verdict(value if isinstance(value, dict) else str(value), criteria)
        except (pydantic.ValidationError, ValueError) as exc:
            errors = validation_messages(exc)
            if stop == "max_tokens":
                errors.append(f"the answer was cut at max_tokens={judge.max_tokens}")
            attempts.append(Attempt(raw, usage, tuple(errors), stop))
            messages.extend(_feedback(judge.output, raw, value, tool_id, errors))
            continue
        attempts.append(Attempt(raw, usage, (), stop))
        return CallOutcome(verdict, tuple(attempts), cost)
    return CallOutcome(None, tuple(attempts), cost, (
        f"no valid verdict after {len(attempts)} attempt(s); last errors: {'; '.join(attempts[-1].errors)}"
    ))


def _feedback(output: str, raw: str, value: Any, tool_id: str | None, errors: Sequence[str]) -> list[dict[str, Any]]:
    text = feedback_message(errors)
    if output == "tool" and tool_id is not None:
        return [
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": tool_id, "name": TOOL_NAME, "input": value if isinstance(value, dict) else {}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": tool_id, "is_error": True, "content": text},
            ]},
        ]
    return [
        {"role": "assistant", "content": raw if raw.strip() else "(empty answer)"},
        {"role": "user", "content": text},
    ]


def _describe_api_error(exc: Exception) -> str:
    status = getattr(exc, "status_code", None)
    what = f"{type(exc).__name__}" + (f" (HTTP {status})" if status is not None else "")
    msg = str(exc).splitlines()[0][:300] if str(exc) else ""
    if isinstance(exc, TypeError) and "authentication" in msg.lower():
        return (f"no API key for the judge: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or replay "
                f"recorded cassettes ({what}: {msg})")
    return f"the judge API call failed: {what}: {msg}"
