"""Expected calls: ``Call`` (name, arguments and outcome of a tool call), ``Unordered`` groups, the
argument comparison modes and overrides, and the per-argument difference reports.
"""

from __future__ import annotations

import functools
import json
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, Union

from ..exceptions import UsageError
from ..model import ToolCall
from ..results import Difference, short_repr
from ._base import _MODES, Absent, ArgsMode, Matcher, _diff, _split_key_path, values_match

__all__ = [
    "Call",
    "ToolSpec",
    "Unordered",
    "args_differences",
    "as_call",
]


#: Per-tool override of how arguments compare: a mode, the list of keys (dotted paths) that
#: must be equal, or ``fn(*, actual, expected) -> bool``.
Override = Union[ArgsMode, Sequence[str], Callable[..., object]]  # noqa: UP007 - runtime alias on 3.10


_FUNCTIONS = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.MethodDescriptorType,
              types.WrapperDescriptorType, functools.partial)


def _refuse_functions(value: Any, what: str, path: str = "") -> None:
    """A function or a plain class given as an expected value is compared by equality, never
    called: ``command=lambda c: "rm" in c`` would match nothing (and a negative check about it
    would pass). Refuse it, saying what to write instead. Matchers are not looked into, and a
    class whose metaclass has an ``__eq__`` of its own (dirty-equals' ``IsStr``) is a matcher."""
    if isinstance(value, Matcher):
        return
    if isinstance(value, Mapping):
        for k, v in value.items():
            _refuse_functions(v, what, f"{path}.{k}" if path else str(k))
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _refuse_functions(v, what, f"{path}[{i}]")
        return
    where = f"{what} {path!r}" if path else what
    if isinstance(value, _FUNCTIONS):
        raise UsageError(f"Call(): the expected value of {where} is a function, which would be compared by "
                         f"equality and never called: wrap it in Satisfies(...)")
    if type(value) is type:
        raise UsageError(f"Call(): the expected value of {where} is the class {value.__name__}, which would be "
                         f"compared by equality: write OfType({value.__name__}) to accept any {value.__name__}")


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


def _article(word: str) -> str:
    """``an`` before a vowel sound as written (``an Edit``, ``an AskUserQuestion``), else ``a``."""
    w = word.lower()
    if w[:1] in ("a", "e", "i", "o") or (w[:1] == "u" and not w.startswith(("us", "uni", "uti"))):
        return "an"
    return "a"


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
        _refuse_functions(dict(fields) if fields else args, "argument")
        for field, value in (("server", server), ("tool", tool), ("status", status), ("exit_code", exit_code),
                             ("output", output)):
            _refuse_functions(value, f"{field}=")
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
        name = self.name
        if name is None:
            return True
        if type(name) is str:  # equality with one of _names_of(call), without the generator
            if name == call.name:
                return True
            tool, server = call.tool, call.server
            if not tool:
                return False
            return name == tool or (bool(server) and (name == f"{server}.{tool}" or name == f"mcp__{server}__{tool}"))
        return any(values_match(name, candidate) for candidate in _names_of(call))

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
        per candidate call, so it is their inner loop. It reads only the call's fields that the
        spec asks about, and compares expected arguments given as a plain ``dict`` with a
        call's plain ``dict`` of arguments in one loop (``_dict_fits``): the same comparisons,
        in the same order, as ``values_match`` (``_matches_call_long``, kept for the tests)."""
        if not self.name_matches(call):
            return False
        if self.kind is not None and not values_match(self.kind, call.kind):
            return False
        if self.server is not None and not values_match(self.server, call.server):
            return False
        if self.tool is not None and not values_match(self.tool, call.tool):
            return False
        if self.status is not None and not values_match(self.status, call.status):
            return False
        if self.exit_code is not None and not values_match(self.exit_code, call.exit_code):
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
        if use_mode not in _MODES:
            _check_mode(use_mode, "Call()")
        override = None
        if overrides:
            override = next((overrides[n] for n in _names_of(call) if n in overrides), None)
        args = self.args
        if override is not None:
            if args_differences(args, call.arguments, use_mode, override):
                return False
        elif use_mode != "ignore" and args is not None:
            have = call.arguments
            if type(args) is dict and type(have) is dict:
                if not _dict_fits(args, have, use_mode == "partial"):
                    return False
            elif not values_match(args, have, partial=use_mode == "partial"):
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
        """``a Bash call with command=Matches('pytest')``, ``an Edit call`` — for summaries."""
        bare = self.describe_bare()
        return f"{_article(bare)} {bare}"

    def describe_bare(self) -> str:
        """:meth:`describe` without its article: ``Bash call with command=Matches('pytest')``."""
        if self.name is None:
            head = f"{self.kind} call" if self.kind else "tool call"
        elif isinstance(self.name, str):
            head = f"{self.name} call"
        else:
            head = f"call of a tool matching {short_repr(self.name, 60)}"
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



def _matches_call_long(
    spec: Call,
    call: ToolCall,
    *,
    mode: str = "partial",
    overrides: Mapping[str, Override] | None = None,
) -> bool:
    """``Call.matches_call`` the long way (every field of the call read, the arguments compared
    by ``values_match``): what the tests compare the method with."""
    if not spec.name_matches(call):
        return False
    for want, have in (
        (spec.kind, call.kind),
        (spec.server, call.server),
        (spec.tool, call.tool),
        (spec.status, call.status),
        (spec.exit_code, call.exit_code),
    ):
        if want is not None and not values_match(want, have):
            return False
    if spec.is_error is not None and call.is_error != spec.is_error:
        return False
    if spec.agent is not None and ("main" if call.agent_id is None else "subagent") != spec.agent:
        return False
    if spec.output is not None and (
        call.result is None or not values_match(spec.output, call.result.text, partial=True)
    ):
        return False
    use_mode = spec.mode or mode
    _check_mode(use_mode, "Call()")
    override = None
    if overrides:
        override = next((overrides[n] for n in _names_of(call) if n in overrides), None)
    if override is not None:
        if args_differences(spec.args, call.arguments, use_mode, override):
            return False
    elif (
        use_mode != "ignore"
        and spec.args is not None
        and not values_match(spec.args, call.arguments, partial=use_mode == "partial")
    ):
        return False
    return spec.where is None or bool(spec.where(call))


_MISSING = object()


def _dict_fits(expected: dict[Any, Any], actual: dict[Any, Any], partial: bool) -> bool:
    """``values_match(expected, actual, partial=partial)`` of two plain dicts: its mapping branch,
    with a value that is a text compared inline and a matcher asked directly (what
    ``values_match`` does first with either), every other value through ``values_match``."""
    for k, v in expected.items():
        if isinstance(v, Absent):
            if k in actual:
                return False
            continue
        a = actual.get(k, _MISSING)
        if a is _MISSING:
            return False
        if type(v) is str:
            if not (isinstance(a, str) and v == a):
                return False
        elif isinstance(v, Matcher):
            if not v.matches(a):
                return False
        elif not values_match(v, a, partial=partial):
            return False
    if not partial:
        wanted = {k for k, v in expected.items() if not isinstance(v, Absent)}
        if any(k not in wanted for k in actual):
            return False
    return True

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
