"""Regular expressions with a timeout: ``Matches`` and the pattern compiler (the ``regex`` module;
``RegexTimeoutError`` when a search runs out of time).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
import time
from collections.abc import Iterator, Sequence
from typing import Any

import regex

from ..exceptions import AgentEvalError, UsageError
from ._base import Matcher

__all__ = [
    "Matches",
    "RegexTimeoutError",
]

#: Default regex timeout in seconds, per search.
DEFAULT_REGEX_TIMEOUT = 1.0
#: The time one check may spend in user patterns, all searches together: this many seconds...
DEFAULT_PATTERN_BUDGET = 2.0
#: ...plus one second per this many characters searched (a sane pattern scans tens of MB a
#: second, so a long transcript gets the time it needs while a pathological pattern on short
#: values ends as an ERROR within seconds).
PATTERN_CHARS_PER_SECOND = 10_000_000
#: Environment variable that overrides ``DEFAULT_PATTERN_BUDGET`` (seconds).
PATTERN_BUDGET_ENV = "AGENTEVAL_PATTERN_BUDGET"


class _Budget:
    """The pattern time left to the check that is running (see ``pattern_budget``)."""

    __slots__ = ("base", "chars", "spent")

    def __init__(self, base: float) -> None:
        self.base = base
        self.spent = 0.0
        self.chars = 0

    def remaining(self) -> float:
        return self.base + self.chars / PATTERN_CHARS_PER_SECOND - self.spent


_clock = time.perf_counter

_budget: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("agenteval_pattern_budget", default=None)


def _budget_seconds() -> float:
    raw = os.environ.get(PATTERN_BUDGET_ENV, "").strip()
    if not raw:
        return DEFAULT_PATTERN_BUDGET
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not (math.isfinite(value) and value > 0):
        raise UsageError(f"{PATTERN_BUDGET_ENV}={raw!r}: expected a positive number of seconds")
    return value


@contextlib.contextmanager
def pattern_budget() -> Iterator[None]:
    """Bound the time spent in user patterns (``Matches``) by everything the body runs, all
    searches together (``DEFAULT_PATTERN_BUDGET`` plus one second per
    ``PATTERN_CHARS_PER_SECOND`` characters searched). Each check runs inside one; a nested one
    (a check that calls another) shares the outer budget."""
    if _budget.get() is not None:
        yield
        return
    token = _budget.set(_Budget(_budget_seconds()))
    try:
        yield
    finally:
        _budget.reset(token)


def _valid_timeout(timeout: Any) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise UsageError(f"Matches() timeout must be a number of seconds, got {timeout!r}")
    t = float(timeout)
    if not (math.isfinite(t) and t > 0):
        raise UsageError(f"Matches() timeout must be positive and finite, got {timeout!r}")
    return t


class RegexTimeoutError(AgentEvalError, TimeoutError):
    """A regular expression ran longer than its timeout on one value."""


class Matches(Matcher):
    """A string in which the regular expression is found (``regex.search``; ``full=True``: whole).

    Example: ``Matches(r"\\bpytest\\b")``, ``Matches("^save", ignore_case=True)``.
    """

    __slots__ = ("_re", "full", "ignore_case", "pattern", "timeout")

    def __init__(
        self,
        pattern: str,
        *,
        ignore_case: bool = False,
        full: bool = False,
        timeout: float = DEFAULT_REGEX_TIMEOUT,
    ) -> None:
        if not isinstance(pattern, str):
            raise UsageError(f"Matches() takes a pattern string, got {type(pattern).__name__}")
        self.pattern = pattern
        self.ignore_case = ignore_case
        self.full = full
        self.timeout = _valid_timeout(timeout)
        self._re = compile_pattern(pattern, ignore_case=ignore_case, what="Matches()")

    def search(self, text: str) -> regex.Match[str] | None:
        """The first match in *text* (the whole text with ``full=True``), or ``None``.

        Inside a check, the search also draws on the check's total pattern budget
        (``pattern_budget``): a pattern that is slow on many short values ends the check as an
        ERROR within seconds, not after a timeout per value.
        """
        budget = _budget.get()
        timeout = self.timeout
        if budget is not None:
            budget.chars += len(text)
            left = budget.base + budget.chars / PATTERN_CHARS_PER_SECOND - budget.spent  # budget.remaining()
            if left <= 0:
                raise self._out_of_budget(budget)
            timeout = min(timeout, left)
        start = _clock()
        try:
            if self.full:
                found: regex.Match[str] | None = self._re.fullmatch(text, timeout=timeout)
            else:
                found = self._re.search(text, timeout=timeout)
            return found
        except TimeoutError:
            raise self._timed_out(budget, timeout, text) from None
        finally:
            if budget is not None:
                budget.spent += _clock() - start

    def _timed_out(self, budget: _Budget | None, timeout: float, text: str) -> RegexTimeoutError:
        if budget is not None and timeout < self.timeout:
            return self._out_of_budget(budget)
        return RegexTimeoutError(f"{self!r} ran longer than {self.timeout}s on a {len(text)}-character value")

    def _found_each(self, texts: Sequence[Any]) -> list[bool]:
        """``[self.matches(x) for x in texts]``, in one loop: each search has the timeout and
        draws on the check's pattern budget as ``search`` does (the same bookkeeping, in the
        same order, so the same error at the same value), without two method calls per value.
        ``tests/test_matchers.py`` compares it with ``matches``."""
        budget = _budget.get()  # no code of the caller runs until the loop ends: the same budget
        whole = self.timeout
        find = self._re.fullmatch if self.full else self._re.search
        out: list[bool] = []
        add = out.append
        for text in texts:
            if not isinstance(text, str):
                add(False)
                continue
            timeout = whole
            if budget is not None:
                budget.chars += len(text)
                left = budget.base + budget.chars / PATTERN_CHARS_PER_SECOND - budget.spent
                if left <= 0:
                    raise self._out_of_budget(budget)
                timeout = min(timeout, left)
            start = _clock()
            try:
                found = find(text, timeout=timeout)
            except TimeoutError:
                raise self._timed_out(budget, timeout, text) from None
            finally:
                if budget is not None:
                    budget.spent += _clock() - start
            add(found is not None)
        return out

    def _out_of_budget(self, budget: _Budget) -> RegexTimeoutError:
        return RegexTimeoutError(
            f"{self!r}: the check's patterns ran {budget.spent:.1f}s in all, over their budget "
            f"({budget.base:g}s plus 1s per {PATTERN_CHARS_PER_SECOND // 1_000_000} million characters searched; "
            f"{PATTERN_BUDGET_ENV} sets the seconds)"
        )

    def matches(self, actual: Any) -> bool:
        return isinstance(actual, str) and self.search(actual) is not None

    def __repr__(self) -> str:
        args = [repr(self.pattern)]
        if self.ignore_case:
            args.append("ignore_case=True")
        if self.full:
            args.append("full=True")
        if self.timeout != DEFAULT_REGEX_TIMEOUT:
            args.append(f"timeout={self.timeout!r}")
        return f"Matches({', '.join(args)})"


def compile_pattern(pattern: str, *, ignore_case: bool = False, what: str = "pattern") -> Any:
    """Compile a user pattern with the ``regex`` module; a bad pattern raises ``UsageError``."""
    try:
        return regex.compile(pattern, regex.IGNORECASE if ignore_case else 0)
    except regex.error as exc:
        raise UsageError(f"{what}: invalid regular expression {pattern!r}: {exc}") from None
