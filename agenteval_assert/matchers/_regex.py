"""Regular expressions with a timeout: ``Matches`` and the pattern compiler (the ``regex`` module;
``RegexTimeoutError`` when a search runs out of time).
"""

from __future__ import annotations

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
        self.timeout = timeout
        self._re = compile_pattern(pattern, ignore_case=ignore_case, what="Matches()")

    def search(self, text: str) -> regex.Match[str] | None:
        """The first match in *text* (the whole text with ``full=True``), or ``None``."""
        try:
            if self.full:
                found: regex.Match[str] | None = self._re.fullmatch(text, timeout=self.timeout)
            else:
                found = self._re.search(text, timeout=self.timeout)
            return found
        except TimeoutError:
            raise RegexTimeoutError(
                f"{self!r} ran longer than {self.timeout}s on a {len(text)}-character value"
            ) from None

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
