"""The normalised transcript model: the same shape whatever agent wrote the log.

All classes are immutable attrs classes. Containers inside them (``arguments``, ``raw``,
``metadata``) are plain dicts and lists decoded from the log: treat them as read-only.

Steps and tool calls compare by identity (two calls with the same arguments are still two
events); use ``ToolCall.index`` or ``ToolCall.id`` to refer to one.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

import attrs

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = [
    "Health",
    "LineIssue",
    "Location",
    "Message",
    "RunError",
    "Step",
    "Subagent",
    "Thinking",
    "ToolCall",
    "ToolResult",
    "Transcript",
    "Usage",
]

Role = Literal["user", "assistant", "system"]
T = TypeVar("T")

#: Values of ``ToolCall.status``. ``unrecorded``: the format records no outcome for this call
#: (Aider actions, SWE-agent steps): neither an error nor an unanswered call, but a check that
#: needs the outcome (succeeded, failed, output) cannot decide on it.
CALL_STATUSES = ("completed", "failed", "declined", "interrupted", "pending", "unrecorded")

#: Values of ``ToolCall.kind``: what the tool does, whatever the agent calls it.
CALL_KINDS = (
    "shell",
    "file_read",
    "file_write",
    "file_edit",
    "search",
    "web_search",
    "web_fetch",
    "mcp",
    "subagent",
    "skill",
    "todo",
    "ask_user",
    "plan",
    "other",
)


class Location(NamedTuple):
    """A place in a transcript file: the file and the 1-based line.

    Immutable, ordered and hashable like the attrs classes; a ``NamedTuple`` because every step
    of every transcript has one, and a tuple is made several times faster than a frozen class.
    """

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


class _Located:
    """The private base of ``ToolResult``: a slot for the line of its location, which the class
    keeps apart from its path (``_LocationField``)."""

    __slots__ = ("_line",)


class _LocationField:
    """The ``location`` field of a step or a result, stored without a ``Location`` object.

    A 100 MB log makes hundreds of thousands of steps, each with its own location: a tuple per
    step (64 bytes) is a fifth of what the model of such a log holds. The field's own slot
    (``_location_path`` is the same slot under a name this descriptor does not shadow) keeps the
    path, which every step of a file shares, and ``_line`` the line; reading ``location`` makes
    a ``Location`` equal to the one stored (a new tuple each time, so compare locations with
    ``==``, never ``is``). A value that is not exactly a ``Location`` (``None``, a subclass,
    anything a caller passes) is kept as it is, with ``_line`` ``None``. attrs sees a field like
    any other: ``__init__``, ``evolve``, ``asdict``, ``repr`` and pickling set and read it
    through this descriptor.
    """

    __slots__ = ("_line", "_path")

    def __init__(self, path_slot: Any, line_slot: Any) -> None:
        self._path = path_slot
        self._line = line_slot

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        line = obj._line
        if line is None:
            return obj._location_path
        return _tnew(Location, (obj._location_path, line))

    def __set__(self, obj: Any, value: Any) -> None:
        if type(value) is Location and value[1] is not None:
            self._path.__set__(obj, value[0])
            self._line.__set__(obj, value[1])
        else:
            self._path.__set__(obj, value)
            self._line.__set__(obj, None)

    def __delete__(self, obj: Any) -> None:
        self._path.__delete__(obj)
        self._line.__set__(obj, None)


_tnew = tuple.__new__


def _split_location(cls: type[T]) -> type[T]:
    """Store *cls*'s ``location`` field as a path and a line (``_LocationField``)."""
    slot = cls.__dict__["location"]  # the slot attrs made for the field
    cls._location_path = slot  # type: ignore[attr-defined]
    cls.location = _LocationField(slot, _Located.__dict__["_line"])  # type: ignore[attr-defined]
    return cls


class _Lines:
    """The places of the steps one builder makes: the file's path, and the line of every step
    at its place among the steps (``index``; a call's ``step``), in an array of 4-byte counts.

    A step made by the builder holds this one object in its ``location`` slot
    (``_PlacedLocation``): no line object of its own (a 100 MB log makes 385,000 steps; an int
    per line is 32 bytes, a count in the array 4)."""

    __slots__ = ("lines", "path")

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines = array("I")

    def __repr__(self) -> str:
        return f"_Lines({self.path!r}, {len(self.lines)} lines)"


#: the largest line a ``_Lines`` array holds
_MAX_LINE = (1 << 32) - 1


def _place(where: Any, line: Any, place: int) -> Any:
    """What a step made by a builder keeps in its ``location`` slot: *where*, the builder's
    ``_Lines``, with *line* added to it at *place* (the step's place among the steps), or
    ``Location(path, line)`` when the array cannot hold it (a line that is no int from 0 to
    2**32 - 1, or a place that is not the next one: then the array is not the builder's steps').
    *where* may be a path (a caller that is no builder): then the ``Location``."""
    if type(where) is not _Lines:
        return _tnew(Location, (where, line))
    lines = where.lines
    if len(lines) != place:
        return _tnew(Location, (where.path, line))
    if type(line) is int and 0 <= line <= _MAX_LINE:
        lines.append(line)
        return where
    lines.append(0)  # the step's place in the array, unused: the step keeps its Location
    return _tnew(Location, (where.path, line))


class _PlacedLocation:
    """The ``location`` field of a step (``Message``, ``Thinking``, ``ToolCall``): one slot,
    which holds the builder's ``_Lines`` for the steps it made (the line is then read at the
    step's place, ``index`` or, for a call, ``step``), else the value given (a ``Location``,
    ``None``, anything a caller passes), kept as it is. Reading ``location`` of a step the
    builder made makes an equal ``Location`` each time (compare locations with ``==``, never
    ``is``). attrs sees a field like any other: ``__init__``, ``evolve``, ``asdict``, ``repr``
    and pickling set and read it through this descriptor, so a copy holds a ``Location``."""

    __slots__ = ("_slot",)

    def __init__(self, slot: Any) -> None:
        self._slot = slot  # the field's own slot (also the class's ``_location_slot``)

    def __get__(self, obj: Any, owner: Any = None) -> Any:  # a message's or a thinking block's
        if obj is None:
            return self
        v = obj._location_slot
        if type(v) is _Lines:
            return _tnew(Location, (v.path, v.lines[obj.index]))
        return v

    def __set__(self, obj: Any, value: Any) -> None:
        self._slot.__set__(obj, value)

    def __delete__(self, obj: Any) -> None:
        self._slot.__delete__(obj)


class _CallLocation(_PlacedLocation):
    """``_PlacedLocation`` of a call: its place among the steps is ``step`` (``index`` is its
    place among the calls)."""

    __slots__ = ()

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        v = obj._location_slot
        if type(v) is _Lines:
            return _tnew(Location, (v.path, v.lines[obj.step]))
        return v


def _placed_location(cls: type[T]) -> type[T]:
    """Store a step class's ``location`` field as ``_PlacedLocation`` does (``_CallLocation``
    for a call)."""
    slot = cls.__dict__["location"]  # the slot attrs made for the field
    cls._location_slot = slot  # type: ignore[attr-defined]
    field = _CallLocation if "step" in cls.__dict__ else _PlacedLocation
    cls.location = field(slot)  # type: ignore[attr-defined]
    return cls


class RunError(tuple[str, Location]):
    """A run-level error the agent reported (an API error, ``turn.failed``, an error result).

    A pair ``(message, location)`` (so ``for message, location in t.errors`` works), plus every
    place the log reports this same failure: Claude Code writes an API error twice, as a
    synthetic assistant line and in the run's result record, and that is one error.
    """

    locations: tuple[Location, ...]
    """Every line that reports this failure, in file order (``location`` is one of them)."""

    def __new__(cls, message: str, location: Location, locations: tuple[Location, ...] = ()) -> Self:
        self = tuple.__new__(cls, (message, location))
        self.locations = tuple(sorted(set(locations) | {location}, key=lambda loc: loc.line))
        return self

    def __getnewargs__(self) -> tuple[str, Location, tuple[Location, ...]]:
        return (self[0], self[1], self.locations)

    @property
    def message(self) -> str:
        return self[0]

    @property
    def location(self) -> Location:
        return self[1]

    def __repr__(self) -> str:
        at = ", ".join(str(loc) for loc in self.locations)
        return f"RunError({self[0][:60]!r} at {at})"


@attrs.define(frozen=True, slots=True)
class Usage:
    """Token usage (and cost only where the log states it; it is never estimated).

    One meaning per field, whatever the agent (the model APIs' own definitions):

    * ``input_tokens``: input tokens not read from the cache (OpenAI's and Gemini's
      ``input_tokens`` include the cached ones: they are subtracted).
    * ``output_tokens``: every token the model generated, **reasoning included** (Gemini reports
      its thoughts apart: they are added).
    * ``cache_read_tokens`` / ``cache_write_tokens``: input tokens read from / written to the
      prompt cache.
    * ``reasoning_tokens``: the part of ``output_tokens`` that was reasoning, where the log says
      (Codex ``reasoning_output_tokens``, Gemini thoughts); ``None`` where it does not (Claude
      counts thinking in its output tokens without a separate figure).
    * ``cost_usd``: the cost the log states.

    ``None`` means "not recorded", never 0.
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    cost_usd: float | None = None

    @property
    def recorded(self) -> bool:
        """Whether the log records any of these figures."""
        return self.total_tokens is not None or self.cost_usd is not None or self.reasoning_tokens is not None

    def __add__(self, other: Usage) -> Usage:
        """Field by field sum; a field stays ``None`` only when it is ``None`` on both sides."""
        if not isinstance(other, Usage):
            return NotImplemented

        def add(a: float | None, b: float | None) -> Any:
            return None if a is None and b is None else (a or 0) + (b or 0)

        return Usage(
            add(self.input_tokens, other.input_tokens),
            add(self.output_tokens, other.output_tokens),
            add(self.cache_read_tokens, other.cache_read_tokens),
            add(self.cache_write_tokens, other.cache_write_tokens),
            add(self.reasoning_tokens, other.reasoning_tokens),
            add(self.cost_usd, other.cost_usd),
        )

    @property
    def total_tokens(self) -> int | None:
        """Input + output + cache tokens, or ``None`` when the log has no usage at all."""
        parts = [self.input_tokens, self.output_tokens, self.cache_read_tokens, self.cache_write_tokens]
        if all(p is None for p in parts):
            return None
        return sum(p or 0 for p in parts)


@_split_location
@attrs.define(frozen=True, slots=True, eq=False)
class ToolResult(_Located):
    """What a tool call returned.

    Attributes:
        text: the result as text (content blocks joined with newlines).
        raw: the structured payload as the log has it (Claude ``toolUseResult``, Codex item...).
        is_error: the log marks the result as an error.
        exit_code: a process exit code, only where the log records one (never invented).
        location: where the result was recorded.
    """

    text: str
    raw: Any = None
    is_error: bool = False
    exit_code: int | None = None
    location: Location | None = None


@_placed_location
@attrs.define(frozen=True, slots=True, eq=False)
class ToolCall:
    """One tool call made by the agent (or one of its subagents), with its result.

    Attributes:
        id: the native id (``toolu_...``, ``call_...``, Codex ``item_N``).
        name: the tool name exactly as logged (``Bash``, ``mcp__server__tool``, ``command_execution``).
        kind: what the tool does (see ``CALL_KINDS``): ``shell``, ``file_edit``, ``mcp``...
        server: the MCP server, where the call is an MCP call.
        tool: the MCP tool name on that server.
        arguments: the input, JSON strings decoded.
        raw_arguments: the undecodable argument text, where the log's arguments are not JSON.
        result: the paired result, or ``None`` when the log has none.
        status: ``completed``, ``failed``, ``declined``, ``interrupted``, ``pending`` (no result
            yet) or ``unrecorded`` (the format records no outcome for such calls; ``result`` may
            still hold the output, as SWE-agent observations do).
        index: 0-based order among every tool call in the file (subagents included).
        step: index of this call in ``Transcript.steps``.
        parent_id: id of the call that spawned the subagent which made this call.
        agent_id: ``None`` for the main agent, else the subagent's id.
        location: where the call was recorded.
        started_at / ended_at: ISO timestamps where the log has them.
    """

    id: str
    name: str
    kind: str
    arguments: Mapping[str, Any]
    location: Location
    index: int
    step: int
    status: str = "pending"
    result: ToolResult | None = None
    server: str | None = None
    tool: str | None = None
    raw_arguments: str | None = None
    parent_id: str | None = None
    agent_id: str | None = None
    started_at: str | None = None
    ended_at: str | None = None

    @property
    def is_error(self) -> bool:
        """The call failed: an error result, a failed/declined status or a non-zero exit code."""
        if self.status in ("failed", "declined"):
            return True
        if self.result is None:
            return False
        if self.result.is_error:
            return True
        return self.result.exit_code not in (None, 0)

    @property
    def exit_code(self) -> int | None:
        """The recorded exit code, or ``None``."""
        return None if self.result is None else self.result.exit_code

    @property
    def output(self) -> str:
        """The result text, or ``""`` when there is no result."""
        return "" if self.result is None else self.result.text

    @property
    def answered(self) -> bool:
        """The log holds a result for this call."""
        return self.result is not None

    @property
    def unanswered(self) -> bool:
        """The call has no result although its format records one: not ``unrecorded`` (the
        format keeps no results for such calls), nor ``completed`` without a result (a call that
        ends the run, such as OpenHands ``finish``, whose format records no observation for it).
        These are the calls listed in ``Health.unanswered_calls``."""
        return self.result is None and self.status not in ("completed", "unrecorded")

    @property
    def outcome_recorded(self) -> bool:
        """Whether the log says how the call ended (``status`` is not ``unrecorded``): a check
        on success, failure or output cannot decide on a call where this is ``False``."""
        return self.status != "unrecorded"

    @property
    def command(self) -> str | None:
        """The shell command text of a shell call, else ``None``."""
        if self.kind != "shell":
            return None
        cmd = self.arguments.get("command", self.arguments.get("cmd"))
        if isinstance(cmd, str):
            return cmd
        if isinstance(cmd, list) and all(isinstance(c, str) for c in cmd):
            return " ".join(_shell_quote(c) for c in cmd)
        return None

    def __repr__(self) -> str:
        return f"ToolCall(#{self.index} {self.name} id={self.id!r} at {self.location})"


def _shell_quote(word: str) -> str:
    import shlex

    return shlex.quote(word)


@_placed_location
@attrs.define(frozen=True, slots=True, eq=False)
class Message:
    """A text message of the user, the assistant or the system."""

    role: Role
    text: str
    location: Location
    index: int
    agent_id: str | None = None
    meta: bool = False
    """Injected by the tool rather than typed by a person (Claude ``isMeta``, Codex environment context)."""
    skill: str | None = None
    """The skill whose instructions this message injects, when it was invoked without a tool call
    (a Claude Code slash command such as ``/plugin:skill-name``): ``plugin:skill-name``."""

    def __repr__(self) -> str:
        return f"Message(#{self.index} {self.role} {self.text[:40]!r} at {self.location})"


@_placed_location
@attrs.define(frozen=True, slots=True, eq=False)
class Thinking:
    """A reasoning/thinking block."""

    text: str
    location: Location
    index: int
    agent_id: str | None = None


Step = Message | Thinking | ToolCall

#: the key of ``Transcript.action_count()`` in ``Transcript._derived``, set by the builder
_ACTION_COUNT = "model.action_count"
#: the key in ``Transcript._derived`` of the places (``index``) of the messages that invoke a
#: skill (``Message.skill``), in order, set by the builder as the messages come
_SKILLED_STEPS = "model.skilled_steps"


@attrs.define(frozen=True, slots=True, eq=False)
class Subagent:
    """A subagent (Claude Task/Agent, Codex collab agent, OpenCode child session) and its calls.

    Attributes:
        final_response: the subagent's answer: the result of the call that spawned it (what the
            parent agent received, Claude's ``Task``/``Agent`` result), else its last text.
        usage: the subagent's own token usage, where the log records it (empty ``Usage()``
            when it does not: see ``Transcript.usage_unrecorded``).
    """

    id: str
    parent_call_id: str | None
    type: str | None
    description: str | None
    tool_calls: tuple[ToolCall, ...]
    final_response: str | None = None
    usage: Usage = attrs.field(factory=Usage)


@attrs.define(frozen=True, slots=True)
class LineIssue:
    """A line the reader could not use, and why."""

    line: int
    reason: str
    excerpt: str = ""


@attrs.define(frozen=True, slots=True, eq=False)
class Health:
    """Diagnostics: everything the parser could not use, skipped or had to decide.

    Nothing is dropped silently: every line is either used, or counted here.
    """

    lines: int
    records: int
    unparsable: tuple[LineIssue, ...] = ()
    truncated_tail: bool = False
    unknown_types: Mapping[str, int] = attrs.field(factory=lambda: MappingProxyType({}))
    skipped: Mapping[str, int] = attrs.field(factory=lambda: MappingProxyType({}))
    unanswered_calls: tuple[str, ...] = ()
    orphan_results: tuple[str, ...] = ()
    usage_mode: str = "none"
    notes: tuple[str, ...] = ()
    run_ended: bool | None = None
    """The format's own end-of-run record (Claude ``result``, Codex ``turn.completed`` /
    ``turn.failed`` and rollout ``task_complete``, Gemini ``result``) follows the last step:
    ``False`` when it is missing (the log was cut), ``None`` for formats that have no such record
    (session logs, chat files)."""
    damaged: tuple[LineIssue, ...] = ()
    """Records that could not be read where a call or a result could have been: a record of the
    wrong shape, a record of an unknown type that carries a tool call, records of another format
    inside the file, a record whose predecessor is missing. Each makes the transcript incomplete."""
    orphan_lines: tuple[int, ...] = ()
    """Lines of a text log (Aider's markdown history) that hold something but belong to no step,
    call or result, and were not read as metadata: counted here, never dropped silently. They do
    not make the transcript incomplete (no call or result can hide in them)."""

    @property
    def parsed_cleanly(self) -> bool:
        """No unparsable line (a line that is no record of the format: invalid JSON, or a text log's
        line that is not UTF-8) and no torn last line. Says nothing of damaged records or lines
        in no step: see ``intact`` and ``orphan_lines``."""
        return not self.unparsable and not self.truncated_tail

    @property
    def intact(self) -> bool:
        """Parsed cleanly, and every record was read: no damaged record, no orphan result."""
        return self.parsed_cleanly and not self.damaged and not self.orphan_results

    @property
    def complete(self) -> bool:
        """Every record was read (``intact``), every call has its result, and the run's end record
        (where the format has one) is there: safe ground for "X never happened"."""
        return self.intact and not self.unanswered_calls and self.run_ended is not False

    def problems(self) -> list[str]:
        """Human-readable list of what makes this transcript less than complete."""
        out: list[str] = []
        if self.truncated_tail:
            out.append(f"the last line ({self.lines}) is torn (truncated JSON)")
        bad = [i for i in self.unparsable if not (self.truncated_tail and i.line == self.lines)]
        if bad:
            shown = ", ".join(str(i.line) for i in bad[:5]) + (" ..." if len(bad) > 5 else "")
            out.append(f"{len(bad)} unparsable line(s): {shown}")
        if self.damaged:
            shown = "; ".join(f"line {i.line}: {i.reason}" for i in self.damaged[:3])
            more = f"; ... {len(self.damaged) - 3} more" if len(self.damaged) > 3 else ""
            out.append(f"{len(self.damaged)} damaged record(s) where a call or a result could have been"
                       f" ({shown}{more})")
        if self.orphan_results:
            shown = ", ".join(self.orphan_results[:3]) + (" ..." if len(self.orphan_results) > 3 else "")
            out.append(f"{len(self.orphan_results)} result(s) whose call is not in the file ({shown})")
        if self.unanswered_calls:
            out.append(f"{len(self.unanswered_calls)} call(s) with no result")
        if self.run_ended is False:
            out.append("no end-of-run record after the last step (the log may have been cut)")
        return out


def _freeze_index(d: dict[str, list[ToolCall]]) -> Mapping[str, tuple[ToolCall, ...]]:
    return MappingProxyType({k: tuple(v) for k, v in d.items()})


@attrs.define(frozen=True, slots=True, eq=False)
class Transcript:
    """A parsed transcript.

    Attributes:
        path: the source file (``"<memory>"`` for parsed strings).
        format: ``claude-stream-json``, ``claude-session``, ``codex-exec``, ``codex-rollout``...
        agent: the agent that wrote the log: ``claude-code``, ``codex``, ``gemini-cli``, ``opencode``...
        model: the model name, where the log has one.
        session_id: the session/thread id, where the log has one.
        steps: every message, thinking block and tool call, in file order (subagents included).
        tool_calls: the main agent's tool calls, in order.
        subagents: subagents and their calls.
        final_response: the main agent's last assistant text.
        final_answer: the main agent's text after its last tool call: the answer the run ended
            on. ``None`` when the last assistant text comes before more calls (or there is none).
        usage: the main agent's token usage (and cost where stated) where the log tells agents
            apart, else what the log reports for the run.
        usage_total: the run's total: the main agent and every subagent (a total the log states,
            such as Claude's ``modelUsage``, else ``usage`` plus each ``Subagent.usage``).
        usage_unrecorded: ids of subagents whose usage the log does not record, so that
            ``usage_total`` leaves them out.
        usage_partial: the usage figures cover only part of the run (some responses report no
            usage, or the log says it is missing): they are a lower bound.
        health: diagnostics (see ``Health``).
        metadata: other facts from the log (cwd, CLI version, result subtype...).
        errors: run-level errors reported by the agent (API errors, ``turn.failed``...), one
            ``RunError`` per failure.
        run_error: the run-level error the run ended in (no main-agent text or call follows
            it), else ``None``.
    """

    path: str
    format: str
    agent: str
    steps: tuple[Step, ...]
    tool_calls: tuple[ToolCall, ...]
    health: Health
    model: str | None = None
    session_id: str | None = None
    subagents: tuple[Subagent, ...] = ()
    final_response: str | None = None
    usage: Usage = attrs.field(factory=Usage)
    metadata: Mapping[str, Any] = attrs.field(factory=dict)
    errors: tuple[RunError, ...] = ()
    final_answer: str | None = None
    _usage_total: Usage | None = attrs.field(default=None, alias="usage_total")
    usage_unrecorded: tuple[str, ...] = ()
    run_error: RunError | None = None
    usage_partial: bool = False
    """The usage figures cover only part of the run: some responses (or models) report usage and
    others do not, or the log says usage is missing (SWE-agent ``model_stats`` with API calls and
    0 tokens). The figures recorded are then a lower bound: a token or cost budget the run seems
    to be within is INCONCLUSIVE."""
    _by_name: Mapping[str, tuple[ToolCall, ...]] = attrs.field(init=False, repr=False)
    _by_id: Mapping[str, ToolCall] = attrs.field(init=False, repr=False)
    _all_calls: tuple[ToolCall, ...] = attrs.field(init=False, repr=False)
    _derived: dict[str, Any] = attrs.field(init=False, repr=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        # Indexes are built once, so that later checks never rescan the steps per call.
        all_calls = tuple([s for s in self.steps if isinstance(s, ToolCall)])  # a list first: no generator step
        by_name: dict[str, list[ToolCall]] = {}
        for c in self.tool_calls:
            by_name.setdefault(c.name, []).append(c)
        by_id: dict[str, ToolCall] = {c.id: c for c in reversed(all_calls)}  # the first call of an id wins
        object.__setattr__(self, "_by_name", _freeze_index(by_name))
        object.__setattr__(self, "_by_id", MappingProxyType(by_id))
        object.__setattr__(self, "_all_calls", all_calls)
        if self._usage_total is None:
            total = self.usage
            for sub in self.subagents:
                total = total + sub.usage
            object.__setattr__(self, "_usage_total", total)

    @property
    def usage_total(self) -> Usage:
        """The run's token usage and cost: the main agent and its subagents (see the class doc)."""
        assert self._usage_total is not None  # set in __attrs_post_init__
        return self._usage_total

    def derived(self, key: str, build: Callable[[Transcript], T]) -> T:
        """``build(self)``, computed once per transcript and kept with it (not process-wide).

        For the library's own look-ups (the checks' alias index, Storybook workflow calls): a
        transcript is immutable, so anything computed from it stays valid as long as it lives,
        and is freed with it.
        """
        try:
            value: T = self._derived[key]
        except KeyError:
            value = self._derived[key] = build(self)
        return value

    @property
    def all_tool_calls(self) -> tuple[ToolCall, ...]:
        """Every tool call in the file, subagents included, in order."""
        return self._all_calls

    @property
    def subagent_tool_calls(self) -> tuple[ToolCall, ...]:
        """Calls made by subagents and recorded in this file."""
        return tuple(c for c in self._all_calls if c.agent_id is not None)

    def calls(self, name: str | None = None, *, include_subagents: bool = False) -> tuple[ToolCall, ...]:
        """The calls of the tool *name* (all calls when ``None``), in order."""
        if include_subagents:
            pool = self._all_calls
            return pool if name is None else tuple(c for c in pool if c.name == name)
        if name is None:
            return self.tool_calls
        return self._by_name.get(name, ())

    def call(self, call_id: str) -> ToolCall | None:
        """The call with this native id, or ``None``."""
        return self._by_id.get(call_id)

    @property
    def tool_names(self) -> Mapping[str, int]:
        """Main-agent call counts by original tool name, in order of first use."""
        return {name: len(calls) for name, calls in self._by_name.items()}

    def action_count(self, *, include_subagents: bool = True) -> int:
        """The agent's actions: assistant messages, thinking blocks and tool calls (user and
        system messages are not actions). The steps ``check_budget(max_steps=...)`` counts."""
        if include_subagents:
            counted = self._derived.get(_ACTION_COUNT)  # the builder counts them as they come
            if counted is not None:
                return counted  # type: ignore[no-any-return]
        n = 0
        for s in self.steps:
            if not include_subagents and s.agent_id is not None:
                continue
            cls = type(s)  # the model's own classes first, without an isinstance call per step
            if cls is ToolCall or cls is Thinking:
                n += 1
            elif cls is Message:
                n += s.role == "assistant"  # type: ignore[union-attr]  # a Message
            elif isinstance(s, (ToolCall, Thinking)) or (isinstance(s, Message) and s.role == "assistant"):
                n += 1
        return n

    def messages(self, role: Role | None = None, *, include_meta: bool = False) -> Iterator[Message]:
        """The main agent's messages, optionally of one role."""
        for s in self.steps:
            if (
                isinstance(s, Message)
                and s.agent_id is None
                and (role is None or s.role == role)
                and (include_meta or not s.meta)
            ):
                yield s

    @property
    def text(self) -> str:
        """All message text of the main agent, joined (for "the transcript mentions X")."""
        return "\n".join(m.text for m in self.messages(include_meta=True))

    def __repr__(self) -> str:
        return (
            f"Transcript({self.path!r}, format={self.format!r}, steps={len(self.steps)}, "
            f"tool_calls={len(self.tool_calls)})"
        )
