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

import functools
import importlib
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, Union

import regex

from .exceptions import AgentEvalError, UsageError
from .model import ToolCall
from .results import Difference, short_repr

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

#: Default regex timeout in seconds, per search.
DEFAULT_REGEX_TIMEOUT = 1.0

#: How the arguments of a call are compared with an expected dict:
#: ``"partial"`` — every expected key is present and matches (recursively), extra keys are fine;
#: ``"exact"`` — the same keys, every value matches (nested dicts exactly too);
#: ``"ignore"`` — arguments are not compared at all.
ArgsMode = Literal["exact", "partial", "ignore"]
_MODES = ("exact", "partial", "ignore")


class RegexTimeoutError(AgentEvalError, TimeoutError):
    """A regular expression ran longer than its timeout on one value."""


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


# -- comparing plain values ------------------------------------------------------------------


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


# -- the matchers ----------------------------------------------------------------------------


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


def _split_key_path(key: str) -> tuple[str, ...]:
    parts = tuple(key.split("."))
    if not key or any(p == "" for p in parts):
        raise UsageError(f"IgnoringKeys(): bad key path {key!r} (use dotted keys like 'meta.id')")
    return parts


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


# -- argument specs and expected calls -------------------------------------------------------

#: Per-tool override of how arguments compare: a mode, the list of keys (dotted paths) that
#: must be equal, or ``fn(*, actual, expected) -> bool``.
Override = Union[ArgsMode, Sequence[str], Callable[..., object]]  # noqa: UP007 - runtime alias on 3.10


def _check_mode(mode: str, where: str) -> None:
    if mode not in _MODES:
        raise UsageError(f"{where}: args mode must be one of {', '.join(_MODES)}, got {mode!r}")


def _dig(value: Any, parts: tuple[str, ...]) -> tuple[bool, Any]:
    for p in parts:
        if isinstance(value, Mapping) and p in value:
            value = value[p]
        else:
            return False, None
    return True, value


def args_differences(
    expected: Any, actual: Mapping[str, Any], mode: str, override: Override | None = None
) -> list[Difference]:
    """Per-argument differences between *expected* and a call's arguments (``[]``: they match)."""
    if override is not None:
        if isinstance(override, str):
            mode = override
        elif callable(override):
            ok = override(actual=actual, expected=expected)
            if ok:
                return []
            name = getattr(override, "__qualname__", type(override).__name__)
            return [Difference("$", f"{name}(actual=..., expected=...) to be true", "false")]
        else:
            out = []
            for key in override:
                parts = _split_key_path(key)
                has_e, e = _dig(expected, parts)
                has_a, a = _dig(actual, parts)
                if not has_e and not has_a:
                    continue
                if not has_e or not has_a or not values_match(e, a):
                    out.append(
                        Difference(
                            key,
                            short_repr(e) if has_e else "missing",
                            short_repr(a) if has_a else "missing",
                        )
                    )
            return out
    if mode == "ignore" or expected is None:
        return []
    if isinstance(expected, Matcher) or not isinstance(expected, Mapping):
        return _diff(expected, actual, "$", partial=mode == "partial")
    return _diff(expected, actual, "$", partial=mode == "partial")


ToolSpec = Union[str, "Call", Matcher]


class Call(Matcher):
    """An expected tool call: its tool name, arguments and, optionally, its outcome.

    ``Call("Bash", command=Matches("pytest"))`` — keyword arguments are expected arguments,
    compared as *mode* says (``"partial"`` unless the check says otherwise). The tool name is
    compared with the logged name; for MCP calls ``server.tool`` and the bare tool name also
    match, so ``Call("search_products")`` matches both Claude's ``mcp__shop__search_products``
    and Codex's ``shop``/``search_products`` call. ``name=None`` matches any tool.

    Reserved keywords (pass arguments with those names through ``args={...}``):
    ``args, mode, kind, server, tool, status, is_error, exit_code, output, where, agent``.

    Example: ``Call("Write", args={"file_path": "a.py", "content": ANY}, mode="exact")``,
    ``Call(kind="file_edit")``, ``Call("Bash", output=Contains("passed"), exit_code=0)``.
    """

    __slots__ = (
        "agent",
        "args",
        "exit_code",
        "is_error",
        "kind",
        "mode",
        "name",
        "output",
        "server",
        "status",
        "tool",
        "where",
    )

    def __init__(
        self,
        name: str | Matcher | None = None,
        /,
        *,
        args: Mapping[str, Any] | Matcher | None = None,
        mode: ArgsMode | None = None,
        kind: str | None = None,
        server: Any = None,
        tool: Any = None,
        status: Any = None,
        is_error: bool | None = None,
        exit_code: Any = None,
        output: Any = None,
        where: Callable[[ToolCall], object] | None = None,
        agent: Literal["main", "subagent"] | None = None,
        **fields: Any,
    ) -> None:
        if name is not None and not isinstance(name, str) and not hasattr(name, "__eq__"):
            raise UsageError(f"Call(): the tool name must be a string or a matcher, got {name!r}")
        if mode is not None:
            _check_mode(mode, "Call()")
        if args is not None and fields:
            raise UsageError("Call(): give the arguments either as args={...} or as keywords, not both")
        if args is not None and not isinstance(args, (Mapping, Matcher)):
            raise UsageError(f"Call(): args must be a dict or a matcher, got {type(args).__name__}")
        if agent not in (None, "main", "subagent"):
            raise UsageError(f"Call(): agent must be 'main' or 'subagent', got {agent!r}")
        self.name = name
        self.args: Any = dict(fields) if fields else args
        self.mode = mode
        self.kind = kind
        self.server = server
        self.tool = tool
        self.status = status
        self.is_error = is_error
        self.exit_code = exit_code
        self.output = output
        self.where = where
        self.agent = agent

    # -- names ---------------------------------------------------------------------------------

    def name_matches(self, call: ToolCall) -> bool:
        """Whether the call's tool name (or MCP ``server.tool`` / ``tool``) is the expected one."""
        if self.name is None:
            return True
        return any(values_match(self.name, candidate) for candidate in _names_of(call))

    @property
    def is_name_only(self) -> bool:
        """Only the tool name is constrained (so a name look-up decides the match)."""
        return all(
            getattr(self, a) is None
            for a in ("args", "kind", "server", "tool", "status", "is_error", "exit_code", "output",
                      "where", "agent")
        )

    @property
    def literal_name(self) -> str | None:
        """The expected name when it is a plain string (used for index look-ups)."""
        return self.name if isinstance(self.name, str) else None

    # -- matching ------------------------------------------------------------------------------

    def call_differences(
        self,
        call: ToolCall,
        *,
        mode: str = "partial",
        overrides: Mapping[str, Override] | None = None,
    ) -> list[Difference]:
        """Why *call* is not this call (``[]`` when it is)."""
        out: list[Difference] = []
        if not self.name_matches(call):
            out.append(Difference("name", short_repr(self.name), repr(call.name)))
        for attr, want, have in (
            ("kind", self.kind, call.kind),
            ("server", self.server, call.server),
            ("tool", self.tool, call.tool),
            ("status", self.status, call.status),
            ("exit_code", self.exit_code, call.exit_code),
        ):
            if want is not None and not values_match(want, have):
                out.append(Difference(attr, short_repr(want), short_repr(have)))
        if self.is_error is not None and call.is_error != self.is_error:
            out.append(Difference("is_error", repr(self.is_error), repr(call.is_error)))
        if self.agent is not None:
            have_agent = "main" if call.agent_id is None else "subagent"
            if have_agent != self.agent:
                out.append(Difference("agent", repr(self.agent), repr(have_agent)))
        if self.output is not None:
            if call.result is None:
                out.append(Difference("output", short_repr(self.output), "no result"))
            else:
                out.extend(_diff(self.output, call.result.text, "output", partial=True))
        override = None
        if overrides:
            for n in _names_of(call):
                if n in overrides:
                    override = overrides[n]
                    break
        use_mode = self.mode or mode
        _check_mode(use_mode, "Call()")
        for d in args_differences(self.args, call.arguments, use_mode, override):
            out.append(attrs_evolve_path(d))
        if self.where is not None and not self.where(call):
            out.append(Difference("where", _callable_name(self.where), "false"))
        return out

    def matches_call(
        self,
        call: ToolCall,
        *,
        mode: str = "partial",
        overrides: Mapping[str, Override] | None = None,
    ) -> bool:
        """Whether *call* is this call: the verdict of :meth:`call_differences` (``[]``), without
        building the differences (no reprs, stops at the first mismatch); checks call this once
        per candidate call, so it is their inner loop."""
        if not self.name_matches(call):
            return False
        for want, have in (
            (self.kind, call.kind),
            (self.server, call.server),
            (self.tool, call.tool),
            (self.status, call.status),
            (self.exit_code, call.exit_code),
        ):
            if want is not None and not values_match(want, have):
                return False
        if self.is_error is not None and call.is_error != self.is_error:
            return False
        if self.agent is not None and ("main" if call.agent_id is None else "subagent") != self.agent:
            return False
        if self.output is not None and (
            call.result is None or not values_match(self.output, call.result.text, partial=True)
        ):
            return False
        use_mode = self.mode or mode
        _check_mode(use_mode, "Call()")
        override = None
        if overrides:
            override = next((overrides[n] for n in _names_of(call) if n in overrides), None)
        if override is not None:
            if args_differences(self.args, call.arguments, use_mode, override):
                return False
        elif (
            use_mode != "ignore"
            and self.args is not None
            and not values_match(self.args, call.arguments, partial=use_mode == "partial")
        ):
            return False
        return self.where is None or bool(self.where(call))

    def matches(self, actual: Any) -> bool:
        return isinstance(actual, ToolCall) and self.matches_call(actual)

    def differences(self, actual: Any, path: str = "$") -> list[Difference]:
        if not isinstance(actual, ToolCall):
            return [Difference(path, repr(self), short_repr(actual))]
        return self.call_differences(actual)

    # -- text ------------------------------------------------------------------------------------

    def describe(self) -> str:
        """``a Bash call with command=Matches('pytest')`` — for summaries."""
        if self.name is None:
            head = f"a {self.kind} call" if self.kind else "a tool call"
        elif isinstance(self.name, str):
            head = f"a {self.name} call"
        else:
            head = f"a call of a tool matching {short_repr(self.name, 60)}"
        quals = self._qualifiers(skip_kind=self.name is None)
        return head + (f" with {', '.join(quals)}" if quals else "")

    def label(self) -> str:
        """Short form for sequences: ``Read`` or ``Read(file_path='a.py')``."""
        base = self.name if isinstance(self.name, str) else (self.kind or "*") if self.name is None else short_repr(self.name, 40)
        quals = self._qualifiers(skip_kind=self.name is None)
        return f"{base}({', '.join(quals)})" if quals else str(base)

    def _qualifiers(self, *, skip_kind: bool = False) -> list[str]:
        quals: list[str] = []
        if isinstance(self.args, Mapping):
            quals.extend(f"{k}={short_repr(v, 80)}" for k, v in self.args.items())
        elif self.args is not None:
            quals.append(f"args={short_repr(self.args, 80)}")
        if self.mode is not None:
            quals.append(f"mode={self.mode!r}")
        for attr in ("kind", "server", "tool", "status", "is_error", "exit_code", "output", "agent"):
            if attr == "kind" and skip_kind:
                continue
            v = getattr(self, attr)
            if v is not None:
                quals.append(f"{attr}={short_repr(v, 80)}")
        if self.where is not None:
            quals.append(f"where={_callable_name(self.where)}")
        return quals

    def __repr__(self) -> str:
        parts = [] if self.name is None else [short_repr(self.name, 80)]
        if isinstance(self.args, Mapping) and all(isinstance(k, str) and k.isidentifier() and k not in self.__slots__ for k in self.args):
            parts.extend(f"{k}={short_repr(v, 80)}" for k, v in self.args.items())
        elif self.args is not None:
            parts.append(f"args={short_repr(self.args, 80)}")
        for attr in ("mode", "kind", "server", "tool", "status", "is_error", "exit_code", "output", "agent"):
            v = getattr(self, attr)
            if v is not None:
                parts.append(f"{attr}={short_repr(v, 80)}")
        if self.where is not None:
            parts.append(f"where={_callable_name(self.where)}")
        return f"Call({', '.join(parts)})"


def attrs_evolve_path(d: Difference) -> Difference:
    """Arguments' differences are reported under ``args``: ``$`` → ``args``, ``q`` → ``args.q``."""
    if d.path == "$":
        return Difference("args", d.expected, d.found)
    if d.path.startswith("["):
        return Difference("args" + d.path, d.expected, d.found)
    return Difference("args." + d.path, d.expected, d.found)


def _callable_name(fn: object) -> str:
    return str(getattr(fn, "__qualname__", None) or type(fn).__name__)


def _names_of(call: ToolCall) -> Iterable[str]:
    yield call.name
    if call.tool:
        if call.server:
            yield f"{call.server}.{call.tool}"
            yield f"mcp__{call.server}__{call.tool}"
        yield call.tool


def call_aliases(call: ToolCall) -> tuple[str, ...]:
    """Every name under which *call* can be looked up (its name, and MCP aliases)."""
    return tuple(dict.fromkeys(_names_of(call)))


def as_call(spec: ToolSpec | Any, where: str = "expected call", **fields: Any) -> Call:
    """Normalise a tool spec: ``"Bash"``, a name matcher, or a ``Call``; keywords add arguments."""
    if isinstance(spec, Call):
        if fields:
            raise UsageError(f"{where}: give the arguments inside Call(...), not as extra keywords")
        return spec
    if isinstance(spec, str) or (spec is not None and not isinstance(spec, (Mapping, list, tuple))):
        return Call(spec, **fields)
    if spec is None:
        return Call(None, **fields)
    raise UsageError(
        f"{where}: expected a tool name, a name matcher or Call(...), got {short_repr(spec, 80)}"
    )


class Unordered:
    """Calls expected together, in any order, as one step of a sequence (parallel tool calls).

    In ``check_tool_calls(mode="exact_sequence")`` the group takes the next ``len(calls)``
    positions in some order; with ``mode="in_order"`` its calls may be spread out (other calls
    between them) but all come after the previous step and before the next. In the unordered
    modes a group is just its calls. Example:
    ``["Read", Unordered("Grep", "Glob"), "Edit"]``.
    """

    __slots__ = ("calls",)

    def __init__(self, *calls: ToolSpec) -> None:
        if not calls:
            raise UsageError("Unordered() needs at least one call")
        self.calls: tuple[Call, ...] = tuple(as_call(c, "Unordered()") for c in calls)

    def label(self) -> str:
        """``{Grep, Glob}``."""
        return "{" + ", ".join(c.label() for c in self.calls) + "}"

    def __repr__(self) -> str:
        parts = [repr(c.name) if c.is_name_only and isinstance(c.name, str) else repr(c) for c in self.calls]
        return f"Unordered({', '.join(parts)})"


def canonical_json(value: Any) -> str:
    """A canonical text of a JSON-like value (sorted keys), for duplicate detection."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=repr)
