"""The one place where parsers turn records into a ``Transcript``.

Every format parser drives a ``TranscriptBuilder``: it reports messages, thinking, calls and
results as it meets them, and the builder pairs results with calls **by key, never by order**,
keeps the file order of steps, counts what was skipped, and builds the immutable model and its
indexes once at the end.

A *key* identifies a call inside one file. It is usually the native id; formats whose ids are not
unique (Codex ``exec --json`` restarts ``item_N`` in every resumed process) pass a namespaced key.
"""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType
from typing import Any

import attrs

from ._reader import ReadStats
from .model import (
    _ACTION_COUNT,
    _SKILLED_STEPS,
    Health,
    LineIssue,
    Location,
    Message,
    Role,
    RunError,
    Step,
    Subagent,
    Thinking,
    ToolCall,
    ToolResult,
    Transcript,
    Usage,
    _Lines,
    _place,
)

#: ``Location(path, line)`` without the Python frame of a named tuple's ``__new__`` (which does
#: exactly this): for the few locations the model keeps as tuples (errors).
_tnew = tuple.__new__


def _maker(cls: type) -> Any:
    """A function that makes a *cls* from its fields, positionally, in ``attrs.fields`` order,
    the ``location`` field given as two values, its path and its line (what the class stores,
    ``model._LocationField``): one slot store per field, as the attrs ``__init__`` does, without
    its ``object.__setattr__`` call per field that a frozen class pays (a 100 MB log makes
    hundreds of thousands of steps). The object is made as an instance of a private subclass of
    *cls* that adds no slot and whose ``__setattr__`` is ``object``'s (so each store is the
    interpreter's own slot store, not a call), then its class is set to *cls* (what ``_Call``
    does for calls). Only for the model's classes that have no default factory, validator,
    converter or ``__attrs_post_init__`` (asserted here, and in tests/test_builder_fields.py):
    what it makes is then the object ``cls(..., Location(path, line), ...)`` makes, field for
    field.

    A result stores the path and the line (``model._LocationField``). A step stores what
    ``model._place(path, line, place)`` gives (``model._PlacedLocation``): given the builder's
    ``_Lines`` as its path, the line goes to that array at the step's place (``index``, a
    call's ``step``), taken here without the call when it fits (an int from 0 to 2**32 - 1 at
    the next place)."""
    fields = attrs.fields(cls)
    assert not hasattr(cls, "__attrs_post_init__")
    assert all(f.init and f.validator is None and f.converter is None
               and not isinstance(f.default, attrs.Factory) for f in fields)  # type: ignore[arg-type]
    names = [f.name for f in fields]
    assert "location" in names and "path" not in names and "line" not in names
    # writable, and no slot of its own: an instance can become a *cls* (``__class__``)
    making = type(f"_Making{cls.__name__}", (cls,), {
        "__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__,
        "__module__": __name__})
    for name in names:  # each store below is the field's own slot, as *cls* defines it
        assert name == "location" or type(cls.__dict__[name]).__name__ == "member_descriptor"
    env: dict[str, Any] = {"_new": object.__new__, "_making": making, "_cls": cls, "_tnew": _tnew}
    params = []
    body = []
    for name in names:
        if name == "location" and "_location_slot" in cls.__dict__:  # a step: model._PlacedLocation
            place = "step" if "step" in names else "index"
            assert place in names
            env["_place"] = _place
            params += ["path", "line"]
            # _place(path, line, place), its common case inline: a path has no lines
            # (AttributeError), the array takes no count below 0 or above 2**32 - 1 (OverflowError);
            # ``_location_slot`` is the class's member descriptor of the field's slot
            body.append(
                f"    try:\n"
                f"        if type(line) is int and len(lines := path.lines) == {place}:\n"
                f"            lines.append(line)\n"
                f"            o._location_slot = path\n"
                f"        else:\n"
                f"            o._location_slot = _place(path, line, {place})\n"
                f"    except (AttributeError, OverflowError):\n"
                f"        o._location_slot = _place(path, line, {place})\n")
            continue
        if name == "location":  # the path in the field's own slot, the line in _line
            params += ["path", "line"]
            # a line of None: the Location(path, None) itself in the slot (_LocationField keeps a
            # value with no line as it is), as a step's location is (model._place)
            env["_Location"] = Location
            body.append("    if line is None:\n        o._location_path = _tnew(_Location, (path, None))\n"
                        "    else:\n        o._location_path = path\n    o._line = line\n")
            continue
        params.append(name)
        body.append(f"    o.{name} = {name}\n")
    src = (f"def make({', '.join(params)}):\n    o = _new(_making)\n{''.join(body)}"
           "    o.__class__ = _cls\n    return o\n")
    exec(src, env)  # noqa: S102 - generated from the field names above
    make = env["make"]
    make.making = making  # for the builder's hottest paths, which make their objects inline
    return make


_message = _maker(Message)
_thinking = _maker(Thinking)
_tool_result = _maker(ToolResult)
_tool_call = _maker(ToolCall)
#: the writable twins of ``Message`` and ``ToolResult`` (``_maker``), for the stores made inline
_MakingMessage: Any = _message.making
_MakingToolResult: Any = _tool_result.making

#: Top-level unknown records kept for the foreign-format check.
_UNKNOWN_SAMPLE = 20

#: ``type`` values of the objects that hold a tool call, in the formats we know and their kin.
CALL_TYPES = frozenset({
    "tool_use", "server_tool_use", "mcp_tool_use", "tool_call", "tool-call", "toolCall", "tool_calls",
    "function_call", "functionCall", "custom_tool_call", "local_shell_call", "mcp_tool_call", "mcp_call",
    "command_execution", "file_change", "tool-invocation", "tool_invocation", "tool_request", "tool",
})
#: Keys whose (non-empty) value is a call in the formats we know (OpenAI ``tool_calls``, Gemini
#: ``functionCall``...).
_CALL_KEYS = ("tool_calls", "toolCalls", "functionCall", "function_call", "tool_use", "toolCall")
#: How much of an unknown value is searched for call-shaped content (objects looked at).
_SHAPE_BUDGET = 256


def call_shape(value: Any) -> str | None:
    """What call-shaped content *value* holds (``"a tool_use object"``), or ``None``.

    A bounded, iterative walk (no recursion: a value may be nested deeply): the type name itself,
    objects whose ``type`` is a call type (``CALL_TYPES``), or keys that hold calls
    (``tool_calls``, ``functionCall``...).
    """
    if isinstance(value, str):
        last = value.replace(":", " ").replace("/", " ").split()[-1:] or [""]
        return f"a {last[0]} record" if last[0] in CALL_TYPES else None
    stack = [value]
    seen = 0
    while stack and seen < _SHAPE_BUDGET:
        v = stack.pop()
        seen += 1
        if isinstance(v, dict):
            t = v.get("type")
            if isinstance(t, str) and t in CALL_TYPES:
                return f"a {t} object"
            for k in _CALL_KEYS:
                c = v.get(k)
                if isinstance(c, (dict, list)) and c:
                    return f"a {k} field"
            stack.extend(x for x in v.values() if isinstance(x, (dict, list)))
        elif isinstance(v, list):
            stack.extend(x for x in v[:64] if isinstance(x, (dict, list)))
    return None


#: Token counts at or above this are not counts (a JSON integer of thousands of digits).
_MAX_COUNT = 1 << 63


def _finite(v: float) -> bool:
    import math

    try:
        return math.isfinite(v)
    except OverflowError:  # an int too large for a float
        return False


def _describe_number(v: Any) -> str:
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= _MAX_COUNT:
        return f"an integer of {len(str(abs(v))) if v.bit_length() < 14000 else 'thousands of'} digits"
    return repr(v)[:40]


def _excerpt(value: Any, limit: int = 80) -> str:
    if value is None:
        return ""
    try:
        import json

        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, TypeError, RecursionError):
        text = f"<{type(value).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Call(ToolCall):
    """A call while it is being built: a ``ToolCall`` that can still change (the parsers add its
    result, status, arguments...). It adds no slot, so ``build()`` makes it the ``ToolCall`` itself
    by setting its class: no second object per call (a 100 MB log makes tens of thousands of
    calls). ``line``: its location's line."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    # writable here (ToolCall's slots, no new ones): what type checkers see of a call in the making
    id: str
    name: str
    kind: str
    arguments: dict[str, Any]
    location: Location
    index: int
    step: int
    status: str
    result: ToolResult | None
    server: str | None
    tool: str | None
    raw_arguments: str | None
    parent_id: str | None
    agent_id: str | None
    started_at: str | None
    ended_at: str | None
    _location_slot: Any  # model._PlacedLocation: the builder's _Lines, or the location given

    def __init__(  # ToolCall's fields, positionally, in its order (tests/test_builder_fields.py)
        self, id: str, name: str, kind: str, arguments: dict[str, Any], location: Location, index: int,
        step: int, status: str, result: ToolResult | None, server: str | None, tool: str | None,
        raw_arguments: str | None, parent_id: str | None, agent_id: str | None, started_at: str | None,
        ended_at: str | None,
    ) -> None:
        # plain slot stores: _Call's __setattr__ is object's, not the frozen class's
        self.id = id
        self.name = name
        self.kind = kind
        self.arguments = arguments
        self.location = location  # through model._LocationField (the builder's calls: _open_call)
        self.index = index
        self.step = step
        self.status = status
        self.result = result
        self.server = server
        self.tool = tool
        self.raw_arguments = raw_arguments
        self.parent_id = parent_id
        self.agent_id = agent_id
        self.started_at = started_at
        self.ended_at = ended_at

    @property
    def line(self) -> int:
        v = self._location_slot
        if type(v) is _Lines:
            return v.lines[self.step]
        line: int = self.location.line
        return line

    @line.setter
    def line(self, value: int) -> None:
        self.location = _tnew(Location, (self.location.path, value))


_new = object.__new__


def _shared_index(steps: list[Any], n: int) -> int:
    """*n*, as the int object that step *n* holds for its place (``index``, a call's ``step``),
    or ``len(steps)`` when step *n* is the call being made: a call's index is the place of an
    earlier step, so it shares that step's int instead of making one (a 100 MB log makes
    77,000 calls)."""
    if n < len(steps):
        s = steps[n]
        return s.step if type(s) is _Call else s.index
    return len(steps)


def _open_call(id: str, name: str, kind: str, arguments: dict[str, Any], path: _Lines | str, line: int,
               index: int, step: int, status: str, server: str | None, tool: str | None,
               raw_arguments: str | None, parent_id: str | None, agent_id: str | None,
               started_at: str | None) -> _Call:
    """``_Call(id, ..., Location(path, line), ..., started_at, None)`` with no result: the slots
    stored as ``_Call.__init__`` stores them, the location as ``model._PlacedLocation`` keeps
    one (*path*: the builder's ``_Lines``, which takes the line at the call's *step*), without
    making the ``Location``."""
    c: _Call = _new(_Call)
    c.id = id
    c.name = name
    c.kind = kind
    c.arguments = arguments
    try:  # _place(path, line, step), its common case inline (as the makers do: _maker)
        if type(line) is int and len(lines := path.lines) == step:  # type: ignore[union-attr]
            lines.append(line)
            c._location_slot = path
        else:
            c._location_slot = _place(path, line, step)
    except (AttributeError, OverflowError):
        c._location_slot = _place(path, line, step)
    c.index = index
    c.step = step
    c.status = status
    c.result = None
    c.server = server
    c.tool = tool
    c.raw_arguments = raw_arguments
    c.parent_id = parent_id
    c.agent_id = agent_id
    c.started_at = started_at
    c.ended_at = None
    return c


class TranscriptBuilder:
    """Collects the steps of one transcript in file order."""

    def __init__(self, path: str, format: str, agent: str) -> None:
        self.path = path
        #: the path and the line of every step, at its place (``model._PlacedLocation``)
        self._where = _Lines(path)
        self.format = format
        self.agent = agent
        self.model: str | None = None
        self.session_id: str | None = None
        self.final_response: str | None = None
        self.final_response_set = False
        self.usage = Usage()
        #: the run's total where the log states one (Claude ``modelUsage``); ``None``: the
        #: transcript sums ``usage`` and every subagent's usage
        self.usage_total: Usage | None = None
        #: the stated ``usage_total`` counts every agent, those whose own usage is not recorded
        #: too (Claude's ``modelUsage``): no subagent is listed in ``usage_unrecorded``
        self.usage_total_complete = False
        self.usage_mode = "none"
        #: see ``Transcript.usage_partial``: the usage figures cover only part of the run
        self.usage_partial = False
        #: lines of calls whose arguments are text that is no JSON object (kept as raw_arguments)
        self.unreadable_arguments: list[int] = []
        #: see ``Health.orphan_lines``: lines of a text log that belong to no step
        self.orphan_lines: list[int] = []
        #: the agent acts after the reply that asks for the action (a SWE-agent step's command
        #: follows its thought; Aider applies edits after the model's reply): the last turn's
        #: reply, before those actions, is the final answer (when the run's end record is there)
        self.reply_precedes_actions = False
        #: see ``Health.run_ended``: parsers that know an end record set True/False as they go
        self.run_ended: bool | None = None
        self.metadata: dict[str, Any] = {}
        self.errors: list[RunError] = []
        #: for each error, how many steps were recorded before it (what follows it in the run)
        self._error_steps: list[int] = []
        self._steps: list[Any] = []  # Message | Thinking | _Call, in file order
        #: the calls in ``_steps``, in order (each knows its place there: ``step``)
        self._made_calls: list[_Call] = []
        #: the last assistant text of every agent (None = the main agent), and the step of the
        #: main agent's last assistant text that is no meta message and not blank (-1: none)
        self._last_text: dict[str | None, str] = {}
        self._main_text_step = -1
        #: the messages that are no action (not the assistant's: ``Transcript.action_count``)
        self._not_actions = 0
        self._skilled: list[int] = []  # the places of the messages that invoke a skill
        self._calls: dict[str, _Call] = {}
        self._subagents: dict[str, dict[str, Any]] = {}
        self.unknown_types: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.notes: list[str] = []
        self.orphan_results: list[str] = []
        #: see ``Health.damaged``
        self.damaged_records: list[LineIssue] = []
        #: the first top-level records of an unknown type, for the check that they are not records
        #: of another format (``_parsers._build``)
        self.unknown_sample: list[tuple[int, dict[str, Any]]] = []
        #: the whole document, for single-document formats (JSON object/array), else ``None``
        self.document: str | None = None
        self._doc_pos = 0
        self._doc_line = 1

    # -- locations ---------------------------------------------------------------------------

    def loc(self, line: int) -> Location:
        return _tnew(Location, (self.path, line))

    def line_of(self, needle: object, default: int) -> int:
        """The line of the next occurrence of the JSON string *needle* in a single-document file.

        Single-document formats (a Gemini chat file) give every record line 1; this finds where a
        message or call really starts, searching forward only (records come in document order),
        so locating every record costs one pass over the text.
        """
        if self.document is None or not isinstance(needle, str) or not needle:
            return default
        import json

        pos = self.document.find(json.dumps(needle, ensure_ascii=False), self._doc_pos)
        if pos < 0:
            return default
        self._doc_line += self.document.count("\n", self._doc_pos, pos)
        self._doc_pos = pos
        return self._doc_line

    # -- steps -------------------------------------------------------------------------------

    def message(
        self,
        role: Role,
        text: str,
        line: int,
        *,
        agent_id: str | None = None,
        meta: bool = False,
        skill: str | None = None,
    ) -> None:
        """Record a text message (*skill*: the skill whose instructions it injects, see ``Message``)."""
        steps = self._steps
        if role == "assistant":
            if text:
                # what build() needs of the messages, taken here: no pass over every step there
                self._last_text[agent_id] = text
                if agent_id is None and not meta and not text.isspace():  # text.strip(), without a copy
                    self._main_text_step = len(steps)
        else:
            self._not_actions += 1
        if skill is not None:
            self._skilled.append(len(steps))
        # _message(role, text, self._where, line, len(steps), agent_id, meta, skill), inline
        m = _new(_MakingMessage)
        m.role = role
        m.text = text
        place = len(steps)
        where = self._where
        try:  # _place(where, line, place), its common case inline (as the makers do: _maker)
            if type(line) is int and len(lines := where.lines) == place:
                lines.append(line)
                m._location_slot = where
            else:
                m._location_slot = _place(where, line, place)
        except (AttributeError, OverflowError):  # a path, not an array (a caller's long way)
            m._location_slot = _place(where, line, place)
        m.index = place
        m.agent_id = agent_id
        m.meta = meta
        m.skill = skill
        m.__class__ = Message
        steps.append(m)

    def thinking(self, text: str, line: int, *, agent_id: str | None = None) -> None:
        """Record a reasoning block."""
        steps = self._steps
        steps.append(_thinking(text, self._where, line, len(steps), agent_id))

    def call(
        self,
        key: str,
        *,
        id: str,
        name: str,
        kind: str,
        arguments: dict[str, Any],
        line: int,
        raw_arguments: str | None = None,
        server: str | None = None,
        tool: str | None = None,
        parent_id: str | None = None,
        agent_id: str | None = None,
        started_at: str | None = None,
        status: str = "pending",
        reuse_answered: bool = False,
    ) -> bool:
        """Record a call. Returns ``False`` (and records nothing) when *key* is already known.

        *reuse_answered*: for formats whose ids are only unique among the open calls (a model that
        numbers its calls ``call_0``, ``call_1``... afresh in every turn), a key whose call already
        has its result starts a **new** call; results then go to the latest call of the key. A key
        whose call is still open stays a repeat either way.
        """
        known = self._calls.get(key)
        if known is not None and not (reuse_answered and known.result is not None):
            return False
        self._new_call(key, id, name, kind, arguments, line, raw_arguments, server, tool, parent_id, agent_id,
                       started_at, status)
        return True

    def _call(self, key: str, id: str, name: str, kind: str, arguments: dict[str, Any], line: int,
              raw_arguments: str | None, server: str | None, tool: str | None, parent_id: str | None,
              agent_id: str | None, started_at: str | None) -> bool:
        """``call`` for the built-in parsers: positional, a pending call, no ``reuse_answered``
        (one call per tool_use or item: tens of thousands in a 100 MB log)."""
        steps = self._steps  # _new_call, inline
        made = self._made_calls
        step = len(steps)
        n = len(made)
        if n < step:  # the call's index: the int object step n holds (_shared_index, inline)
            s = steps[n]
            n = s.step if type(s) is _Call else s.index
        else:
            n = step
        # _open_call(id, name, kind, arguments, self._where, line, n, step, "pending", server, tool,
        # raw_arguments, parent_id, agent_id, started_at), inline
        c: _Call = _new(_Call)
        c.id = id
        c.name = name
        c.kind = kind
        c.arguments = arguments
        c.index = n
        c.step = step
        c.status = "pending"
        c.result = None
        c.server = server
        c.tool = tool
        c.raw_arguments = raw_arguments
        c.parent_id = parent_id
        c.agent_id = agent_id
        c.started_at = started_at
        c.ended_at = None
        if self._calls.setdefault(key, c) is not c:  # a key already known (one look-up, not two): c is dropped
            return False
        where = self._where  # the line placed only for a call kept (the array follows the steps)
        try:  # _place(where, line, step), its common case inline (as the makers do: _maker)
            if type(line) is int and len(lines := where.lines) == step:
                lines.append(line)
                c._location_slot = where
            else:
                c._location_slot = _place(where, line, step)
        except (AttributeError, OverflowError):  # a path, not an array (a caller's long way)
            c._location_slot = _place(where, line, step)
        made.append(c)
        steps.append(c)
        if raw_arguments is not None and not arguments:
            self.unreadable_arguments.append(line)
        return True

    def _new_call(self, key: str, id: str, name: str, kind: str, arguments: dict[str, Any], line: int,
                  raw_arguments: str | None, server: str | None, tool: str | None, parent_id: str | None,
                  agent_id: str | None, started_at: str | None, status: str) -> None:
        steps = self._steps
        step = len(steps)
        c = _open_call(id, name, kind, arguments, self._where, line, _shared_index(steps, len(self._made_calls)), step,
                       status, server, tool, raw_arguments, parent_id, agent_id, started_at)
        made = self._made_calls
        self._calls[key] = c
        made.append(c)
        steps.append(c)
        if raw_arguments is not None and not arguments:
            self.unreadable_arguments.append(line)

    def has_subagents(self) -> bool:
        """Whether the run delegated: a subagent is declared, or a call spawns or belongs to one."""
        return bool(self._subagents) or any(
            c.kind == "subagent" or c.agent_id is not None for c in self._calls.values()
        )

    def has_steps(self) -> bool:
        """Whether any message, thinking block or call was recorded."""
        return bool(self._steps)

    def _forget(self, keys: list[str]) -> None:
        """*keys* will never be given again (Codex ``exec --json`` keys hold the number of their
        process run): their calls stay in the transcript, only the map from key to call forgets
        them, so that it holds the calls of one run, not of 25,000 resumed ones."""
        calls = self._calls
        for key in keys:
            calls.pop(key, None)

    def has_call(self, key: str) -> bool:
        return key in self._calls

    def call_info(self, key: str) -> _Call | None:
        """The call being built under *key* (for parsers that enrich calls)."""
        return self._calls.get(key)

    def update_call(self, key: str, **fields: Any) -> None:
        """Change fields of a known call (e.g. Codex ``item.completed`` carries final arguments)."""
        c = self._calls[key]
        for k, v in fields.items():
            setattr(c, k, v)

    def result(
        self,
        key: str,
        *,
        text: str,
        line: int,
        raw: Any = None,
        is_error: bool = False,
        exit_code: int | None = None,
        status: str | None = None,
        ended_at: str | None = None,
        replace: bool = False,
    ) -> bool:
        """Pair a result with its call. Returns ``False`` and counts an orphan if there is none.

        A second result for a call that already has one is counted in ``health.skipped`` and kept
        out: the first result stays, never overwritten silently. *replace*: the parser enriches
        the result it gave before (a Codex ``exec_command_end`` adds the exit code).
        """
        return self._result(key, text, line, raw, is_error, exit_code, status, ended_at, replace) is not None

    def _result(self, key: str, text: str, line: int, raw: Any, is_error: bool, exit_code: int | None,
                status: str | None, ended_at: str | None, replace: bool = False) -> _Call | None:
        """``result`` for the built-in parsers: positional; the call it answered, or ``None``."""
        c = self._calls.get(key)
        if c is None:
            self.orphan_results.append(key)
            return None
        if c.result is not None and not replace:
            self.skip("result repeating an answered call id")
            return None
        # _tool_result(text, raw, bool(is_error), exit_code, self.path, line), inline
        r = _new(_MakingToolResult)
        r.text = text
        r.raw = raw
        r.is_error = bool(is_error)
        r.exit_code = exit_code
        r._location_path = self.path if line is not None else _tnew(Location, (self.path, None))
        r._line = line
        r.__class__ = ToolResult
        c.result = r
        if status is not None:
            c.status = status
        elif c.status == "pending":
            c.status = "failed" if is_error or exit_code not in (None, 0) else "completed"
        if ended_at is not None:
            c.ended_at = ended_at
        return c

    def subagent(
        self,
        agent_id: str,
        *,
        parent_call_id: str | None = None,
        type: str | None = None,
        description: str | None = None,
        final_response: str | None = None,
        usage: Usage | None = None,
    ) -> None:
        """Declare (or complete the facts of) a subagent.

        ``parent_call_id``, ``type`` and ``description``: the first value given is kept.
        ``final_response`` (its answer: what the spawning call returned) and ``usage`` (its own
        token usage): the last value given is kept.
        """
        info = self._subagents.setdefault(
            agent_id, {"parent_call_id": None, "type": None, "description": None}
        )
        for k, v in (("parent_call_id", parent_call_id), ("type", type), ("description", description)):
            if v is not None and info[k] is None:
                info[k] = v
        if final_response is not None:
            info["final_response"] = final_response
        if usage is not None:
            info["usage"] = usage

    # -- diagnostics -------------------------------------------------------------------------

    def unknown(self, type_name: str, value: Any = None, *, line: int | None = None, record: bool = False) -> None:
        """A record type this parser does not know: kept out of the model, counted.

        Pass the unknown *value* (the record or the block) and its *line*: one that carries
        call-shaped content (a ``tool_use``, ``function_call``, ``tool_call``... object) is
        damage, not a note, since a call may be hidden in it (``Health.damaged``). *record*: the
        value is a whole top-level record (the first few are kept to tell whether they are
        records of another format).
        """
        self.unknown_types[type_name] += 1
        if value is None or line is None:
            return
        shape = call_shape(type_name) or call_shape(value)
        if shape is not None:
            self.damaged(line, f"{type_name}: unknown, but carries {shape}", value)
        if record and isinstance(value, dict) and len(self.unknown_sample) < _UNKNOWN_SAMPLE:
            self.unknown_sample.append((line, value))

    def damaged(self, line: int, reason: str, value: Any = None) -> None:
        """A record that could not be read where a call or a result could have been (a record of
        the wrong shape, a tool_use without a name...): the transcript is not complete."""
        self.damaged_records.append(LineIssue(line, reason, _excerpt(value)))

    def skip(self, reason: str, n: int = 1) -> None:
        """A known record deliberately not turned into a step (e.g. ``file-history-snapshot``)."""
        self.skipped[reason] += n

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def unusable_usage(self, usage: Any, keys: tuple[str, ...], line: int | None = None) -> None:
        """Note the *keys* of a usage object that are present but hold no token count (``null``,
        ``NaN``, ``Infinity``, a negative or fractional number, a string): the parser reads them as
        absent, so the figures it keeps cover only part of the run (``usage_partial``: a budget
        the run seems within is INCONCLUSIVE, never PASS)."""
        if type(usage) is not dict:
            return
        for key in keys:
            if key not in usage:
                continue  # not reported: the format's own way of saying nothing
            v = usage[key]
            if type(v) is int and 0 <= v < _MAX_COUNT:
                continue
            if type(v) is float and _finite(v) and v >= 0 and v.is_integer():
                continue
            self.usage_partial = True
            head = f"usage: {key} is not a usable token count"
            if any(n.startswith(head) for n in self.notes):
                continue  # said once per field
            where = f" (line {line})" if line is not None else ""
            self.note(f"{head} ({_describe_number(v)}){where}: "
                      "read as absent, so the usage figures are a lower bound (usage_partial)")

    def error(self, message: str, line: int, *, same_as_last: bool = False) -> None:
        """A run-level error reported by the agent (API error, ``turn.failed``...).

        ``same_as_last``: this record reports the failure of the previous error again (Claude's
        result record after its synthetic API-error line): one error, with both locations and
        this message, unless a step came in between.
        """
        loc = self.loc(line)
        if same_as_last and self.errors and all(
            isinstance(s, Message) and s.meta for s in self._steps[self._error_steps[-1]:]
        ):
            prev = self.errors[-1]
            self.errors[-1] = RunError(message, loc, (*prev.locations, loc))
            return
        self.errors.append(RunError(message, loc))
        self._error_steps.append(len(self._steps))

    def set_final_response(self, text: str | None) -> None:
        self.final_response = text
        self.final_response_set = True

    # -- build -------------------------------------------------------------------------------

    def _usable_usage(self, u: Usage) -> Usage:
        """*u* without the values no count or amount can be: a token count that is not a
        non-negative integer below 2**63 (then no token count is kept: a total made of the others
        would be too low), a cost that is not a finite non-negative number (``NaN``,
        ``Infinity``). Each is dropped with a note, so a budget on it is INCONCLUSIVE, never PASS."""
        fields: dict[str, Any] = {}
        names = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens")
        for name in names:
            v = getattr(u, name)
            if v is not None and (type(v) is not int or not 0 <= v < _MAX_COUNT):
                self.note(f"usage: {name} is not a usable token count ({_describe_number(v)}): no token count is kept")
                fields.update(dict.fromkeys(names))
        c = u.cost_usd
        if c is not None and (isinstance(c, bool) or not isinstance(c, (int, float)) or not _finite(c) or c < 0):
            fields["cost_usd"] = None
            self.note(f"usage: the cost is not a usable amount ({_describe_number(c)}): ignored")
        return attrs.evolve(u, **fields) if fields else u

    def _notes_with_arguments(self) -> list[str]:
        lines = self.unreadable_arguments
        if not lines:
            return self.notes
        n = len(lines)
        return [*self.notes, (
            f"{n} {'calls' if n > 1 else 'call'}{chr(39) if n > 1 else chr(39) + 's'} arguments are not a JSON object (first at line {lines[0]}): "
            "kept as raw_arguments; a claim that no call with some arguments was made is INCONCLUSIVE on them")]

    def build(self, stats: ReadStats) -> Transcript:
        """The transcript. A builder builds once: its calls in the making become the model's
        (their class is set: no second object per call), and ``call_info`` knows none of them
        afterwards."""
        # the messages and thinking blocks are the model's already: only the calls are made
        # here (their results came after them), in their places
        steps: list[Any] = self._steps
        made = self._made_calls
        self._calls = {}  # the keys are done with: freed before the model's tuples are made
        self._made_calls = []
        main_calls: list[ToolCall] = []
        by_agent: dict[str, list[ToolCall]] = {}
        unanswered: list[str] = []
        #: the last assistant text of every agent (None = the main agent), found as they came
        last_text = self._last_text
        #: steps of the main agent's last assistant text, its last call and its last action
        #: (assistant text or call: what a run-level error must not be followed by)
        main_text_step = self._main_text_step
        main_call_step = -1
        for tc in made:
            tc.__class__ = ToolCall  # type: ignore[assignment]  # the same slots: the call becomes the model's
            if tc.agent_id is None:
                main_calls.append(tc)
                main_call_step = tc.step
            else:
                by_agent.setdefault(tc.agent_id, []).append(tc)
            if tc.result is None and tc.status not in ("completed", "unrecorded"):  # tc.unanswered
                unanswered.append(tc.id)
        del made
        main_act_step = max(main_text_step, main_call_step)

        if not self.final_response_set:
            self.final_response = last_text.get(None, self.final_response)
        final_answer = self._final_answer(steps, main_text_step, main_call_step)
        run_error = None
        if self.errors and self._error_steps[-1] > main_act_step:
            run_error = self.errors[-1]

        subagents = []
        for agent_id in list(self._subagents) + [a for a in by_agent if a not in self._subagents]:
            info = self._subagents.get(agent_id, {})
            final = info.get("final_response") or last_text.get(agent_id)
            subagents.append(
                Subagent(
                    id=agent_id,
                    parent_call_id=info.get("parent_call_id"),
                    type=info.get("type"),
                    description=info.get("description"),
                    tool_calls=tuple(by_agent.get(agent_id, ())),
                    final_response=final,
                    usage=info.get("usage") or Usage(),
                )
            )
        unrecorded = () if self.usage_total_complete else tuple(
            sub.id for sub in subagents if not sub.usage.recorded
        )
        if unrecorded and (self.usage.recorded or self.usage_total is not None):
            shown = ", ".join(unrecorded[:5]) + (" ..." if len(unrecorded) > 5 else "")
            self.note(f"usage: the log records no usage for {len(unrecorded)} subagent(s) ({shown}): "
                      "usage_total leaves them out")

        self.usage = self._usable_usage(self.usage)
        skipped = Counter(self.skipped)
        if stats.blank:
            skipped["blank lines"] += stats.blank
        if stats.comments:
            skipped["comment lines (#)"] += stats.comments
        health = Health(
            lines=stats.lines,
            records=stats.records,
            unparsable=tuple(stats.unparsable),
            truncated_tail=stats.truncated_tail,
            unknown_types=MappingProxyType(dict(sorted(self.unknown_types.items()))),
            skipped=MappingProxyType(dict(sorted(skipped.items()))),
            unanswered_calls=tuple(unanswered),
            orphan_results=tuple(self.orphan_results),
            usage_mode=self.usage_mode,
            notes=tuple(self._notes_with_arguments()),
            run_ended=self.run_ended,
            damaged=tuple(sorted(self.damaged_records, key=lambda i: i.line)),
            orphan_lines=tuple(sorted(set(self.orphan_lines))),
        )
        t = Transcript(
            path=self.path,
            format=self.format,
            agent=self.agent,
            steps=tuple(steps),
            tool_calls=tuple(main_calls),
            health=health,
            model=self.model,
            session_id=self.session_id,
            subagents=tuple(subagents),
            final_response=self.final_response,
            usage=self.usage,
            metadata=self.metadata,
            errors=tuple(self.errors),
            final_answer=final_answer,
            usage_total=self.usage_total,
            usage_unrecorded=unrecorded,
            run_error=run_error,
            usage_partial=self.usage_partial,
        )
        self._steps = []  # the model holds its steps: the builder's list of them is freed
        # every step is an action but the messages that are not the assistant's: counted as they came
        t._derived[_ACTION_COUNT] = len(steps) - self._not_actions
        t._derived[_SKILLED_STEPS] = tuple(self._skilled)  # check_skill_invoked: no pass over the steps
        return t

    def _final_answer(self, steps: list[Step], text_step: int, call_step: int) -> str | None:
        """The main agent's answer after its last call (see ``Transcript.final_answer``)."""
        if self.final_response is None:
            return None
        if text_step < 0:
            # No assistant text at all: the final response comes from the end record (Claude's
            # ``result.result``), which closes the run.
            return self.final_response
        if text_step > call_step:
            return self.final_response
        if self.reply_precedes_actions and self.run_ended is not False:
            # The last turn's reply precedes the actions it asked for: it is the answer when
            # only those actions (and the tool's own output) come between it and the last call.
            for s in steps[text_step + 1 : call_step]:
                if isinstance(s, Message) and s.agent_id is None and not s.meta:
                    return None  # a new prompt came between the reply and the last call
            return self.final_response
        return None
