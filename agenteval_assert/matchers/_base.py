"""The ``Matcher`` protocol and how plain values compare: ``values_match`` and the per-path
``Difference`` reports behind nearest misses, with the two sentinels they know (``ANY``,
``ABSENT``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ..exceptions import UsageError
from ..results import Difference, short_repr

__all__ = [
    "ABSENT",
    "ANY",
    "Absent",
    "Anything",
    "ArgsMode",
    "Matcher",
    "values_match",
]


#: How the arguments of a call are compared with an expected dict:
#: ``"partial"`` — every expected key is present and matches (recursively), extra keys are fine;
#: ``"exact"`` — the same keys, every value matches (nested dicts exactly too);
#: ``"ignore"`` — arguments are not compared at all.
ArgsMode = Literal["exact", "partial", "ignore"]
_MODES = ("exact", "partial", "ignore")


class Matcher:
    """Base class of the matchers: ``matcher == value`` calls :meth:`matches`.

    Subclasses implement :meth:`matches`, ``__repr__`` (the constructor call) and may refine
    :meth:`differences` (per-path explanations used by nearest-miss reports).
    """

    __slots__ = ()

    def matches(self, actual: Any) -> bool:
        """``True`` when *actual* satisfies this matcher."""
        raise NotImplementedError

    def differences(self, actual: Any, path: str = "$") -> list[Difference]:
        """Why *actual* does not match, one ``Difference`` per offending path (``[]`` when it does)."""
        if self.matches(actual):
            return []
        return [Difference(path, repr(self), short_repr(actual))]

    def __eq__(self, other: object) -> bool:
        return self.matches(other)

    def __ne__(self, other: object) -> bool:
        return not self.matches(other)

    __hash__ = None  # type: ignore[assignment]  # mutable-looking equality: not hashable


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def values_match(expected: Any, actual: Any, *, partial: bool = False) -> bool:
    """Whether *actual* (from the transcript) satisfies *expected* (from the test).

    *expected* may contain matchers or any object with ``__eq__`` at any depth. With
    *partial*, dicts need only contain the expected keys (recursively); lists always compare
    element by element and must have the same length.
    """
    if isinstance(expected, Matcher):
        return expected.matches(actual)
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return False
        for k, v in expected.items():
            if isinstance(v, Absent):
                if k in actual:
                    return False
                continue
            if k not in actual or not values_match(v, actual[k], partial=partial):
                return False
        if not partial:
            wanted = {k for k, v in expected.items() if not isinstance(v, Absent)}
            if any(k not in wanted for k in actual):
                return False
        return True
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)) or len(actual) != len(expected):
            return False
        return all(
            values_match(e, a, partial=partial) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        if isinstance(expected, bool):
            return isinstance(actual, bool) and expected is actual
        if _is_number(expected) or isinstance(expected, str) or expected is None:
            return False
        return bool(expected == actual)
    if _is_number(expected):
        return _is_number(actual) and expected == actual
    if isinstance(expected, str):
        return isinstance(actual, str) and expected == actual
    if expected is None:
        return actual is None
    # Any other object: its own __eq__ decides (dirty-equals matchers, enums, ...).
    return bool(expected == actual)


def _key_path(path: str, key: Any) -> str:
    if isinstance(key, str) and key.isidentifier():
        return key if path in ("", "$") else f"{path}.{key}"
    return f"{'' if path in ('', '$') else path}[{key!r}]"


def _diff(expected: Any, actual: Any, path: str, partial: bool) -> list[Difference]:
    if isinstance(expected, Matcher):
        return expected.differences(actual, path)
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        out: list[Difference] = []
        for k, v in expected.items():
            p = _key_path(path, k)
            if isinstance(v, Absent):
                if k in actual:
                    out.append(Difference(p, "absent", short_repr(actual[k])))
            elif k not in actual:
                out.append(Difference(p, short_repr(v), "missing"))
            else:
                out.extend(_diff(v, actual[k], p, partial))
        if not partial:
            wanted = {k for k, v in expected.items() if not isinstance(v, Absent)}
            for k in actual:
                if k not in wanted:
                    out.append(Difference(_key_path(path, k), "absent", short_repr(actual[k])))
        return out
    if (
        isinstance(expected, (list, tuple))
        and isinstance(actual, (list, tuple))
        and len(expected) == len(actual)
    ):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(_diff(e, a, f"{'' if path == '$' else path}[{i}]", partial))
        return out
    if values_match(expected, actual, partial=partial):
        return []
    found = short_repr(actual)
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        found += f" (length {len(actual)}, expected {len(expected)})"
    elif (
        type(expected) is not type(actual)
        and not (_is_number(expected) and _is_number(actual))
        and _plain(expected)
    ):
        found += f" ({type(actual).__name__}, expected {type(expected).__name__})"
    return [Difference(path, short_repr(expected), found)]


def _plain(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool, list, tuple, Mapping))


class Anything(Matcher):
    """Matches any value (but not a missing key)."""

    __slots__ = ()

    def matches(self, actual: Any) -> bool:
        return True

    def __repr__(self) -> str:
        return "ANY"


#: Any value; ``{"timeout": ANY}`` requires the key, whatever its value.
ANY = Anything()


class Absent(Matcher):
    """Inside an expected dict: the key must not be there (``{"force": ABSENT}``)."""

    __slots__ = ()

    def matches(self, actual: Any) -> bool:
        # Only meaningful as a dict value; as a value of its own nothing is "absent".
        return False

    def __repr__(self) -> str:
        return "ABSENT"


#: The key must be absent.
ABSENT = Absent()


def _split_key_path(key: str) -> tuple[str, ...]:
    parts = tuple(key.split("."))
    if not key or any(p == "" for p in parts):
        raise UsageError(f"IgnoringKeys(): bad key path {key!r} (use dotted keys like 'meta.id')")
    return parts
