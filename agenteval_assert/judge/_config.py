"""The judge's configuration (``Judge``), its price table and its run-wide cost budget."""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Mapping
from typing import Any, Literal

import attrs

from ..exceptions import UsageError
from ._render import EvidenceSelection

__all__ = [
    "DEFAULT_MODEL",
    "MODES",
    "OUTPUTS",
    "POLICIES",
    "PRICES",
    "CostBudget",
    "Judge",
    "Price",
    "price_for",
]

#: The model used when none is named.
DEFAULT_MODEL = "claude-sonnet-4-6"

Mode = Literal["live", "record", "replay", "rekey"]
#: ``live`` calls the API and ignores cassettes; ``record`` calls the API and writes a cassette per
#: call; ``replay`` never touches the network (a missing cassette is an ERROR); ``rekey`` replays,
#: and moves a stale *hand-written example* cassette to its new key.
MODES: tuple[str, ...] = ("live", "record", "replay", "rekey")

Output = Literal["json_schema", "tool", "text"]
#: How the verdict is asked for: structured output (``output_config.format``), a forced tool call,
#: or JSON extracted from text (for Anthropic-compatible endpoints that can do neither).
OUTPUTS: tuple[str, ...] = ("json_schema", "tool", "text")

Policy = Literal["mean", "majority", "confirm_on_fail"]
#: How several samples of one criterion are combined (see ``docs/judge.md``).
POLICIES: tuple[str, ...] = ("mean", "majority", "confirm_on_fail")


@attrs.define(frozen=True, slots=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cache_write: float | None = None  # default: 1.25 x input
    cache_read: float | None = None  # default: 0.1 x input

    def cost(self, usage: Mapping[str, Any]) -> float:
        """The cost of one response's ``usage`` (``input_tokens``, ``output_tokens``, cache tokens)."""
        cw = self.cache_write if self.cache_write is not None else self.input * 1.25
        cr = self.cache_read if self.cache_read is not None else self.input * 0.1
        total = (
            _tokens(usage, "input_tokens") * self.input
            + _tokens(usage, "output_tokens") * self.output
            + _tokens(usage, "cache_creation_input_tokens") * cw
            + _tokens(usage, "cache_read_input_tokens") * cr
        )
        return total / 1_000_000


def _tokens(usage: Mapping[str, Any], key: str) -> int:
    v = usage.get(key)
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 0


#: Anthropic list prices, USD per million tokens (input, output), for the models whose prices were
#: published when this table was written. Check the current prices and pass ``prices=`` to
#: ``Judge`` for any model missing here or priced differently: a model with no price has an
#: unknown cost, and a cost cap then refuses to call it.
PRICES: Mapping[str, Price] = {
    "claude-opus-4-6": Price(5.0, 25.0),
    "claude-opus-4-5": Price(5.0, 25.0),
    "claude-opus-4-1": Price(15.0, 75.0),
    "claude-opus-4-0": Price(15.0, 75.0),
    "claude-opus-4": Price(15.0, 75.0),
    "claude-sonnet-4-6": Price(3.0, 15.0),
    "claude-sonnet-4-5": Price(3.0, 15.0),
    "claude-sonnet-4-0": Price(3.0, 15.0),
    "claude-sonnet-4": Price(3.0, 15.0),
    "claude-3-7-sonnet": Price(3.0, 15.0),
    "claude-haiku-4-5": Price(1.0, 5.0),
    "claude-3-5-haiku": Price(0.8, 4.0),
}

_DATED = re.compile(r"-(?:\d{8}|latest)$")


def price_for(model: str, prices: Mapping[str, Price] | None = None) -> Price | None:
    """The price of *model* in *prices* (then ``PRICES``), matched exactly or without a date
    suffix (``claude-sonnet-4-5-20250929`` is priced as ``claude-sonnet-4-5``)."""
    for table in (prices or {}, PRICES):
        for name in (model, _DATED.sub("", model)):
            if name in table:
                return table[name]
    return None


class CostBudget:
    """A run-wide cap on what the judge may spend, shared by every call made through one ``Judge``.

    A call is started only when what was spent, plus what the calls in flight may still spend,
    plus this call's worst case (its prompt at one token per 3 characters, and ``max_tokens`` of
    output) fits under the cap; the reservation is replaced by the actual cost when the response
    arrives. Threads checking transcripts in parallel with one ``Judge`` therefore share the cap
    and never exceed it together. Separate processes each have their own budget.
    """

    def __init__(self, limit: float | None) -> None:
        if limit is not None and (not math.isfinite(limit) or limit < 0):
            raise UsageError(f"the judge cost cap must be a finite number of USD >= 0, not {limit!r}")
        self.limit = limit
        self._spent = 0.0
        self._reserved = 0.0
        self._lock = threading.Lock()

    @property
    def spent(self) -> float:
        with self._lock:
            return self._spent

    def reserve(self, amount: float) -> bool:
        """Hold *amount* for a call about to start; ``False`` when it would break the cap."""
        with self._lock:
            if self.limit is not None and self._spent + self._reserved + amount > self.limit:
                return False
            self._reserved += amount
            return True

    def settle(self, reserved: float, actual: float) -> None:
        """Replace a reservation by what the call actually cost."""
        with self._lock:
            self._reserved = max(0.0, self._reserved - reserved)
            self._spent += actual

    def describe(self) -> str:
        with self._lock:
            cap = "no cap" if self.limit is None else f"cap ${self.limit:.4f}"
            return f"${self._spent:.4f} spent ({cap})"


def _positive_int(name: str) -> Any:
    def check(_: Any, attribute: Any, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise UsageError(f"Judge.{name} must be a whole number >= 1, not {value!r}")

    return check


def _choice(name: str, choices: tuple[str, ...]) -> Any:
    def check(_: Any, attribute: Any, value: str | None) -> None:
        if value is not None and value not in choices:
            raise UsageError(f"Judge.{name} must be one of {', '.join(choices)}, not {value!r}")

    return check


@attrs.define(frozen=True, slots=True, eq=False)
class Judge:
    """How criteria are judged. Every option is optional: ``Judge()`` judges live with the default
    model, reading the API key and base URL from the SDK's environment variables
    (``ANTHROPIC_API_KEY``, ``ANTHROPIC_BASE_URL``...).

    Attributes:
        model: the model that judges.
        mode: ``live``, ``record``, ``replay`` or ``rekey`` (see ``MODES``); default: ``replay``
            when ``cassettes`` is given, else ``live``.
        cassettes: the directory of the cassettes; default (``record``/``replay`` without it):
            ``judge-cassettes/`` next to the transcript.
        timeout: seconds for one HTTP request (the SDK's ``timeout``).
        max_retries: how often the SDK retries a transient error (429, 5xx, 529, connection).
        attempts: how many answers are asked for when a verdict is invalid (each retry sends the
            validation errors back); then the result is ERROR.
        max_tokens: the longest answer.
        output: ``json_schema`` (structured output), ``tool`` (forced tool use) or ``text``.
        samples: how many verdicts per criterion (see ``policy``).
        policy: ``mean``, ``majority`` or ``confirm_on_fail``.
        max_cost: the run-wide cap in USD (see ``CostBudget``); ``None``: no cap.
        prices: prices that complete or override ``PRICES``.
        evidence: what of the transcript the judge sees (``EvidenceSelection``).
        client: an ``anthropic.Anthropic`` client to use instead of building one (a proxy, a
            gateway, tests).
        command: the command that runs this judge, with ``{mode}`` where the mode goes; shown
            by a cassette miss as the command that would record (or re-key) it.
    """

    model: str = DEFAULT_MODEL
    mode: str | None = attrs.field(default=None, validator=_choice("mode", MODES))
    cassettes: str | None = None
    timeout: float = 120.0
    max_retries: int = 2
    attempts: int = attrs.field(default=3, validator=_positive_int("attempts"))
    max_tokens: int = attrs.field(default=4096, validator=_positive_int("max_tokens"))
    output: str = attrs.field(default="json_schema", validator=_choice("output", OUTPUTS))
    samples: int = attrs.field(default=1, validator=_positive_int("samples"))
    policy: str = attrs.field(default="mean", validator=_choice("policy", POLICIES))
    max_cost: float | None = None
    prices: Mapping[str, Price] | None = None
    evidence: EvidenceSelection = attrs.field(factory=EvidenceSelection)
    client: Any = attrs.field(default=None, repr=False)
    command: str | None = attrs.field(default=None, repr=False)
    budget: CostBudget = attrs.field(init=False, repr=False)
    _lock: threading.Lock = attrs.field(init=False, repr=False, factory=threading.Lock)
    _state: dict[str, Any] = attrs.field(init=False, repr=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "budget", CostBudget(self.max_cost))
        if not (isinstance(self.timeout, (int, float)) and math.isfinite(self.timeout) and self.timeout > 0):
            raise UsageError(f"Judge.timeout must be a positive number of seconds, not {self.timeout!r}")
        if not isinstance(self.max_retries, int) or self.max_retries < 0:
            raise UsageError(f"Judge.max_retries must be a whole number >= 0, not {self.max_retries!r}")

    @property
    def effective_mode(self) -> str:
        """The mode in force: ``mode``, else ``replay`` with cassettes, else ``live``."""
        if self.mode is not None:
            return self.mode
        return "replay" if self.cassettes is not None else "live"

    def price(self) -> Price | None:
        return price_for(self.model, self.prices)

    def sdk_client(self) -> Any:
        """The ``anthropic.Anthropic`` client (built once, on first use; needs the ``judge`` extra)."""
        if self.client is not None:
            return self.client
        with self._lock:
            if "client" not in self._state:
                from .._optional import require

                anthropic = require("anthropic", extra="judge", feature="the LLM judge")
                self._state["client"] = anthropic.Anthropic(timeout=self.timeout, max_retries=self.max_retries)
            return self._state["client"]

    def with_evidence(self, evidence: EvidenceSelection) -> Judge:
        """The same judge (same budget, same client) seeing other evidence."""
        j = attrs.evolve(self, evidence=evidence)
        object.__setattr__(j, "budget", self.budget)
        object.__setattr__(j, "_state", self._state)
        return j
