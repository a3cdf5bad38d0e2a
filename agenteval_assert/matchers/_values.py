"""The argument matchers: ``Exact``, ``Partial``, ``IgnoringKeys``, ``JsonPath``, ``Contains``,
``Approx``, ``OfType``, ``Satisfies``, ``OneOf``, ``Not``, ``AllOf``, ``AnyOf``.
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..exceptions import UsageError
from ..results import Difference, short_repr
from ._base import ANY, Anything, Matcher, _diff, _is_number, _split_key_path, values_match

__all__ = [
    "AllOf",
    "AnyOf",
    "Approx",
    "Contains",
    "Exact",
    "IgnoringKeys",
    "JsonPath",
    "Not",
    "OfType",
    "OneOf",
    "Partial",
    "Satisfies",
]


class Exact(Matcher):
    """Equal to *value*: the same keys at every depth, every value matching.

    Example: ``Exact({"file_path": "a.py", "limit": 10})``.
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def matches(self, actual: Any) -> bool:
        return values_match(self.value, actual, partial=False)

    def differences(self, actual: Any, path: str = "$") -> list[Difference]:
        return _diff(self.value, actual, path, partial=False)

    def __repr__(self) -> str:
        return f"Exact({short_repr(self.value)})"


class Partial(Matcher):
    """Contains the expected keys, recursively (extra keys are fine at every depth).

    Example: ``Partial({"options": {"verbose": True}})`` or ``Partial(command="ls")``.
    """

    __slots__ = ("value",)

    def __init__(self, value: Mapping[str, Any] | None = None, /, **fields: Any) -> None:
        if value is not None and not isinstance(value, Mapping):
            raise UsageError(f"Partial() takes a mapping, got {type(value).__name__}")
        self.value: dict[str, Any] = {**(value or {}), **fields}

    def matches(self, actual: Any) -> bool:
        return values_match(self.value, actual, partial=True)

    def differences(self, actual: Any, path: str = "$") -> list[Difference]:
        if not isinstance(actual, Mapping):
            return [Difference(path, repr(self), short_repr(actual))]
        return _diff(self.value, actual, path, partial=True)

    def __repr__(self) -> str:
        return f"Partial({short_repr(self.value)})"


def _strip(value: Any, paths: Sequence[tuple[str, ...]]) -> Any:
    if not paths:
        return value
    if isinstance(value, Mapping):
        here = {p[0] for p in paths if len(p) == 1}
        out = {}
        for k, v in value.items():
            if k in here or "*" in here:
                continue
            deeper = [p[1:] for p in paths if len(p) > 1 and p[0] in (k, "*")]
            out[k] = _strip(v, deeper)
        return out
    if isinstance(value, (list, tuple)):
        deeper = [p[1:] for p in paths if len(p) > 1 and p[0] == "*"]
        return [_strip(v, deeper) for v in value]
    return value


class IgnoringKeys(Matcher):
    """Exactly *value* once the listed keys are removed from both sides.

    Keys are dotted paths; ``*`` matches any key or list element at that depth.
    Example: ``IgnoringKeys({"q": "shoes"}, "request_id", "meta.*.timestamp")``.
    """

    __slots__ = ("_paths", "keys", "value")

    def __init__(self, value: Any, *keys: str) -> None:
        if not keys:
            raise UsageError("IgnoringKeys() needs at least one key to ignore (else use Exact)")
        self.value = value
        self.keys = keys
        self._paths = [_split_key_path(k) for k in keys]

    def matches(self, actual: Any) -> bool:
        return values_match(_strip(self.value, self._paths), _strip(actual, self._paths))

    def differences(self, actual: Any, path: str = "$") -> list[Difference]:
        return _diff(_strip(self.value, self._paths), _strip(actual, self._paths), path, False)

    def __repr__(self) -> str:
        keys = ", ".join(repr(k) for k in self.keys)
        return f"IgnoringKeys({short_repr(self.value)}, {keys})"


@functools.lru_cache(maxsize=512)
def _compile_jsonpath(path: str) -> Any:
    # jsonpath_ng.ext adds filters ([?(@.x > 1)]) and arithmetic to the base grammar. Imported
    # by name: jsonpath-ng ships type hints only in recent releases, and both must type-check.
    ext: Any = importlib.import_module("jsonpath_ng.ext")
    errors: Any = importlib.import_module("jsonpath_ng.exceptions")

    try:
        return ext.parse(path)
    except (errors.JsonPathLexerError, errors.JsonPathParserError, ValueError, TypeError, AttributeError) as exc:
        raise UsageError(f"JsonPath({path!r}): not a valid JSONPath: {exc}") from None


class JsonPath(Matcher):
    """The values selected by a JSONPath expression (jsonpath-ng) satisfy *expected*.

    By default at least one selected value must match; with ``every=True`` all of them must
    (and at least one must be selected). A path that selects nothing never matches.

    Example: ``JsonPath("$.items[*].sku", OneOf("A1", "B2"), every=True)``.
    """

    __slots__ = ("_expr", "every", "expected", "path")

    def __init__(self, path: str, expected: Any = ANY, *, every: bool = False) -> None:
        if not isinstance(path, str):
            raise UsageError(f"JsonPath() takes a string path, got {type(path).__name__}")
        self.path = path
        self.expected = expected
        self.every = every
        self._expr = _compile_jsonpath(path)

    def select(self, actual: Any) -> list[Any]:
        """The values the path selects in *actual*."""
        try:
            return [m.value for m in self._expr.find(actual)]
        except (TypeError, AttributeError, KeyError, IndexError):
            return []

    def matches(self, actual: Any) -> bool:
        found = self.select(actual)
        if not found:
            return False
        test = (values_match(self.expected, v, partial=True) for v in found)
        return all(test) if self.every else any(test)

    def differences(self, actual: Any, path: str = "$") -> list[Difference]:
        found = self.select(actual)
        here = self.path if path in ("", "$") else f"{path}:{self.path}"
        if not found:
            return [Difference(here, short_repr(self.expected), "nothing (the path matched no value)")]
        if self.matches(actual):
            return []
        bad = [v for v in found if not values_match(self.expected, v, partial=True)]
        return _diff(self.expected, bad[0], here, partial=True)

    def __repr__(self) -> str:
        args = [repr(self.path)]
        if not isinstance(self.expected, Anything):
            args.append(short_repr(self.expected))
        if self.every:
            args.append("every=True")
        return f"JsonPath({', '.join(args)})"


class Contains(Matcher):
    """A string containing *part*, or a list/tuple containing an element matching *part*.

    Example: ``Contains("--json")``, ``Contains("order 1042", ignore_case=True)``.
    """

    __slots__ = ("ignore_case", "part")

    def __init__(self, part: Any, *, ignore_case: bool = False) -> None:
        if ignore_case and not isinstance(part, str):
            raise UsageError("Contains(ignore_case=True) needs a string")
        self.part = part
        self.ignore_case = ignore_case

    def matches(self, actual: Any) -> bool:
        if isinstance(actual, str):
            if not isinstance(self.part, str):
                return False
            if self.ignore_case:
                return self.part.casefold() in actual.casefold()
            return self.part in actual
        if isinstance(actual, (list, tuple)):
            return any(values_match(self.part, a, partial=True) for a in actual)
        return False

    def __repr__(self) -> str:
        extra = ", ignore_case=True" if self.ignore_case else ""
        return f"Contains({short_repr(self.part)}{extra})"


class Approx(Matcher):
    """A number within a tolerance of *value* (``abs`` and/or ``rel``; default ``rel=1e-6``).

    Booleans are not numbers here. Example: ``Approx(19.99, abs=0.01)``.
    """

    __slots__ = ("abs", "rel", "value")

    def __init__(self, value: float, *, rel: float | None = None, abs: float | None = None) -> None:
        if not _is_number(value):
            raise UsageError(f"Approx() takes a number, got {type(value).__name__}")
        for name, tol in (("rel", rel), ("abs", abs)):
            if tol is not None and (not _is_number(tol) or tol < 0 or math.isnan(tol)):
                raise UsageError(f"Approx(): {name} must be a non-negative number, got {tol!r}")
        self.value = value
        self.rel = rel
        self.abs = abs

    def matches(self, actual: Any) -> bool:
        if not _is_number(actual):
            return False
        if self.rel is None and self.abs is None:
            return math.isclose(actual, self.value, rel_tol=1e-6, abs_tol=0.0)
        return math.isclose(actual, self.value, rel_tol=self.rel or 0.0, abs_tol=self.abs or 0.0)

    def __repr__(self) -> str:
        args = [repr(self.value)]
        if self.rel is not None:
            args.append(f"rel={self.rel!r}")
        if self.abs is not None:
            args.append(f"abs={self.abs!r}")
        return f"Approx({', '.join(args)})"


class OfType(Matcher):
    """Any value of the given type(s); ``bool`` only matches when listed.

    Example: ``OfType(str)``, ``OfType(int, float)``.
    """

    __slots__ = ("types",)

    def __init__(self, *types: type) -> None:
        if not types or not all(isinstance(t, type) for t in types):
            raise UsageError("OfType() takes one or more types, e.g. OfType(str)")
        self.types = types

    def matches(self, actual: Any) -> bool:
        if isinstance(actual, bool) and bool not in self.types:
            return False
        return isinstance(actual, self.types)

    def differences(self, actual: Any, path: str = "$") -> list[Difference]:
        if self.matches(actual):
            return []
        return [Difference(path, repr(self), f"{short_repr(actual)} ({type(actual).__name__})")]

    def __repr__(self) -> str:
        return f"OfType({', '.join(t.__name__ for t in self.types)})"


class Satisfies(Matcher):
    """Any value for which ``predicate(value)`` is true.

    Exceptions raised by the predicate are not swallowed: a check turns them into an ERROR
    result. Example: ``Satisfies(lambda v: v > 0, "positive")``.
    """

    __slots__ = ("description", "predicate")

    def __init__(self, predicate: Callable[[Any], object], description: str | None = None) -> None:
        if not callable(predicate):
            raise UsageError(f"Satisfies() takes a callable, got {type(predicate).__name__}")
        self.predicate = predicate
        self.description = description

    def matches(self, actual: Any) -> bool:
        return bool(self.predicate(actual))

    def __repr__(self) -> str:
        if self.description:
            return f"Satisfies({self.description!r})"
        name = getattr(self.predicate, "__qualname__", None) or type(self.predicate).__name__
        return f"Satisfies({name})"


class OneOf(Matcher):
    """Equal to one of the values (each may itself be a matcher). Example: ``OneOf("a", "b")``."""

    __slots__ = ("values",)

    def __init__(self, *values: Any) -> None:
        if not values:
            raise UsageError("OneOf() needs at least one value")
        self.values = values

    def matches(self, actual: Any) -> bool:
        return any(values_match(v, actual) for v in self.values)

    def __repr__(self) -> str:
        return f"OneOf({', '.join(short_repr(v, 60) for v in self.values)})"


class Not(Matcher):
    """Anything that does not match *expected*. Example: ``Not(Contains("--force"))``."""

    __slots__ = ("expected",)

    def __init__(self, expected: Any) -> None:
        self.expected = expected

    def matches(self, actual: Any) -> bool:
        return not values_match(self.expected, actual, partial=True)

    def __repr__(self) -> str:
        return f"Not({short_repr(self.expected)})"


class AllOf(Matcher):
    """Matches every one of the matchers/values. Example: ``AllOf(OfType(str), Contains("a"))``."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Any) -> None:
        if not parts:
            raise UsageError("AllOf() needs at least one matcher")
        self.parts = parts

    def matches(self, actual: Any) -> bool:
        return all(values_match(p, actual, partial=True) for p in self.parts)

    def differences(self, actual: Any, path: str = "$") -> list[Difference]:
        out: list[Difference] = []
        for p in self.parts:
            out.extend(_diff(p, actual, path, partial=True))
        return out

    def __repr__(self) -> str:
        return f"AllOf({', '.join(short_repr(p, 60) for p in self.parts)})"


class AnyOf(Matcher):
    """Matches at least one of the matchers/values."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Any) -> None:
        if not parts:
            raise UsageError("AnyOf() needs at least one matcher")
        self.parts = parts

    def matches(self, actual: Any) -> bool:
        return any(values_match(p, actual, partial=True) for p in self.parts)

    def __repr__(self) -> str:
        return f"AnyOf({', '.join(short_repr(p, 60) for p in self.parts)})"
