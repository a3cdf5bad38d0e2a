"""A canned Anthropic Messages API for the judge tests: no network, the real SDK.

The real ``anthropic.Anthropic`` client is given an HTTP client of the library the installed SDK
actually uses (``httpx`` up to the 1.x SDKs, ``httpx2`` later: found at test time from the base
classes of ``anthropic.DefaultHttpxClient``) with that library's ``MockTransport``. Every request
body is kept, and responses are served from a queue.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import anthropic


def sdk_http_library() -> ModuleType:
    """The HTTP library module (``httpx``, ``httpx2``...) that the installed SDK is built on."""
    for cls in anthropic.DefaultHttpxClient.__mro__:
        top = cls.__module__.split(".")[0]
        if top not in ("anthropic", "builtins"):
            return importlib.import_module(top)
    raise AssertionError("cannot tell which HTTP library the anthropic SDK uses")


def verdict(
    score: float = 0.9,
    passed: bool | None = None,
    *,
    name: str = "c1",
    step: str = "s1",
    quote: str = "",
    reason: str = "clear evidence",
    criteria: Iterable[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A verdict document; one criterion unless *criteria* is given."""
    if criteria is None:
        p = passed if passed is not None else score >= 0.5
        criteria = [{"name": name, "pass": p, "score": score, "reason": reason,
                     "evidence": [{"step": step, "quote": quote}] if quote else []}]
    crit = list(criteria)
    return {"criteria": crit, "observations": [], "friction": [], "pass": all(c["pass"] for c in crit),
            "summary": "canned verdict"}


def message(text: str | None = None, *, tool_input: Any = None, usage: tuple[int, int] = (1000, 200),
            stop_reason: str = "end_turn", model: str = "claude-sonnet-4-6") -> dict[str, Any]:
    """A Messages API response body holding *text* (or a ``record_verdict`` tool call)."""
    if tool_input is not None:
        content: list[dict[str, Any]] = [{"type": "tool_use", "id": "toolu_judge_1", "name": "record_verdict",
                                          "input": tool_input}]
        stop_reason = "tool_use"
    else:
        content = [{"type": "text", "text": text or ""}]
    return {"id": "msg_canned", "type": "message", "role": "assistant", "model": model, "content": content,
            "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": usage[0], "output_tokens": usage[1]}}


class FakeAPI:
    """Serves queued responses to the real SDK client and keeps every request."""

    def __init__(self, *responses: Any) -> None:
        self.queue: list[Any] = list(responses)
        self.requests: list[dict[str, Any]] = []
        self.raw_requests: list[bytes] = []
        self.http = sdk_http_library()

    def push(self, *responses: Any) -> None:
        self.queue.extend(responses)

    def _handle(self, request: Any) -> Any:
        body = request.read()
        self.raw_requests.append(body)
        self.requests.append(json.loads(body))
        if not self.queue:
            return self.http.Response(500, json={"type": "error", "error": {"type": "api_error", "message": "queue empty"}},
                                      headers={"x-should-retry": "false"})
        item = self.queue.pop(0)
        if isinstance(item, tuple):  # (status, body, headers)
            status, data, headers = item
            return self.http.Response(status, json=data, headers=headers)
        if isinstance(item, str):
            item = message(json.dumps(verdict()) if item == "valid" else item)
        return self.http.Response(200, json=item)

    def client(self, *, max_retries: int = 2) -> anthropic.Anthropic:
        transport = self.http.MockTransport(self._handle)
        return anthropic.Anthropic(api_key="sk-ant-test-key-not-real-0000000000", max_retries=max_retries,
                                   http_client=self.http.Client(transport=transport))


def overloaded() -> tuple[int, dict[str, Any], dict[str, str]]:
    """HTTP 529 with a 1 ms retry-after, so that the SDK's own retry is fast."""
    return 529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, {"retry-after-ms": "1"}


def rate_limited() -> tuple[int, dict[str, Any], dict[str, str]]:
    return 429, {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}, {"retry-after-ms": "1"}
