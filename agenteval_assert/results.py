"""One result model for every check, and its deterministic, bounded rendering.

A check returns a ``CheckResult``: a status (PASS, FAIL, INCONCLUSIVE, ERROR), a one-line
summary (``expected …, found …``), the expected and the found, and the evidence that decided it,
each item located in the file (``path:line``, call id, step index), plus, on failure, the nearest
miss with a per-argument difference.

``assert_*`` functions raise ``TranscriptAssertionError`` (an ``AssertionError``) carrying the
result; negative checks that could not be decided raise its subclass ``InconclusiveError``.
"""

from __future__ import annotations

import enum
import operator
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar, overload

import attrs

from ._redact import redact, redact_json
from .exceptions import AgentEvalError
from .model import Location, ToolCall

__all__ = [
    "CheckError",
    "CheckResult",
    "Difference",
    "Evidence",
    "InconclusiveError",
    "NearestMiss",
    "Status",
    "TranscriptAssertionError",
    "cut_middle",
    "printable",
    "short_repr",
]

#: Evidence items shown before "... and N more".
MAX_EVIDENCE = 10
#: Longest value shown before it is cut in the middle.
MAX_VALUE = 200


class Status(str, enum.Enum):
    """The outcome of a check."""

    #: the transcript shows what was expected
    PASS = "pass"
    #: the transcript shows it was not done
    FAIL = "fail"
    #: the transcript cannot decide (empty, torn, calls without results...)
    INCONCLUSIVE = "inconclusive"
    #: the check itself could not run (bad pattern, unreadable file...)
    ERROR = "error"

    def __str__(self) -> str:
        return self.value.upper()


def verbose_default() -> bool:
    """``AGENTEVAL_VERBOSE=1`` turns off every elision."""
    return os.environ.get("AGENTEVAL_VERBOSE", "") not in ("", "0")


def cut_middle(text: str, limit: int = MAX_VALUE) -> str:
    """*text* cut in the middle to at most *limit* characters, saying how much was left out.

    A text that must be cut has its secrets redacted first: half of an API key is no longer a
    shape the redaction knows, so redacting what is left after the cut would let it through."""
    if len(text) <= limit:
        return text
    keep = max(limit - 20, 10)
    head = keep // 2 + keep % 2
    tail = keep // 2
    if len(text) > limit + 2 * _REDACT_MARGIN:
        # a long text (a Write of a big file): redact only what is kept, with a margin wider than
        # any secret the redaction knows, so that the cost does not grow with the text
        front = redact(text[: head + _REDACT_MARGIN])[:head]
        back = redact(text[len(text) - tail - _REDACT_MARGIN :])
        return f"{front}...[{len(text) - head - tail} chars]...{back[len(back) - tail:]}"
    text = redact(text)
    if len(text) <= limit:
        return text
    return f"{text[:head]}...[{len(text) - head - tail} chars]...{text[len(text) - tail:]}"


#: Characters around what ``cut_middle`` keeps that are redacted with it: more than the longest
#: secret the redaction recognises whole (a 4096-bit private key block is about 3,300).
_REDACT_MARGIN = 8192


# C0 and C1 control characters and DEL (ANSI escapes, carriage returns, bells), the Unicode
# line and paragraph separators, and the bidirectional overrides that reorder what is shown.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_OR_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """*text* with its control characters shown as escapes (``\\x1b``), so that what an agent's
    tool printed can neither drive the terminal (colours, cursor moves, ``\\r`` overwriting a
    line) nor reorder the text; newlines and tabs are kept, unless *one_line* (a file name, a
    header), where they are escaped too (``\\x0a``)."""
    return (_CONTROL_OR_LINE if one_line else _CONTROL).sub(_escape, text)


def _plural(n: int, word: str) -> str:
    """``1 call``, ``2 calls`` (the checks' and the health checks' one helper)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def short_repr(value: Any, limit: int = MAX_VALUE) -> str:
    """``repr`` that never raises and is cut in the middle when long."""
    try:
        text = repr(value)
    except Exception as exc:  # noqa: BLE001 - a broken __repr__ must not hide the failure
        text = f"<unrepresentable {type(value).__name__}: {exc!r}>"
    return cut_middle(text, limit)


@attrs.define(frozen=True, slots=True, eq=False)
class Evidence:
    """One located fact that decided a check.

    Evidence made by ``from_call`` describes its call lazily: a check over 10,000 calls keeps
    10,000 evidence items (``verbose`` shows them all), but only the ten that are rendered are
    ever described.
    """

    _text: str = attrs.field(default="", alias="text")
    location: Location | None = None
    call_id: str | None = None
    step: int | None = None
    detail: str = ""
    _call: ToolCall | None = attrs.field(default=None, alias="call", eq=False, repr=False)
    _note: str = attrs.field(default="", alias="note", eq=False, repr=False)

    @property
    def text(self) -> str:
        """The one-line description."""
        if not self._text and self._call is not None:
            head, tail = self._call_parts(self._call)
            object.__setattr__(self, "_text", head + tail)  # computed once, on first use
        return self._text

    def _call_parts(self, call: ToolCall) -> tuple[str, str]:
        """``#3 Bash(command='…')`` and what follows it (the outcome tag, the subagent, the note):
        a long description is cut in its arguments, never in what follows them."""
        head, tags = describe_call_parts(call)
        tail = tags
        if call.agent_id is not None:  # a subagent's call, not the main agent's
            tail += f"  [subagent {call.agent_id}]"
        if self._note:
            tail += f"  {self._note}"
        return f"#{call.index} {head}", tail

    def _key(self) -> tuple[object, ...]:
        return (self.text, self.location, self.call_id, self.step, self.detail)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Evidence):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @classmethod
    def from_call(cls, call: ToolCall, note: str = "", *, detail: str = "") -> Evidence:
        """Evidence pointing at a tool call: its name, main arguments and outcome."""
        return cls("", call.location, call.id, call.step, detail, call, note)  # positional: checks make thousands

    def render(self, limit: int = MAX_VALUE) -> list[str]:
        where = printable(str(self.location), one_line=True) if self.location is not None else "(no location)"
        text = redact(self.text)
        if len(text) > limit and self._call is not None:
            head, tail = self._call_parts(self._call)
            if head + tail == self._text:  # described from its call: cut the arguments, keep the rest
                tail = cut_middle(redact(tail), limit // 2)
                text = cut_middle(redact(head), max(limit - len(tail), 40)) + tail
            else:
                text = cut_middle(text, limit)
        else:
            text = cut_middle(text, limit)
        lines = [f"{where}  {text}"]
        if self.detail:
            lines.append(f"    {cut_middle(redact(self.detail), limit)}")
        return lines


_T = TypeVar("_T")


class LazyEvidence(Sequence[Evidence]):
    """Evidence items made when they are read: ``make(item, i)`` for the *i*-th of *items*.

    A check that rests on 10,000 calls keeps them (the sequence it already has) and a way to
    cite each one; only the items read are made (rendering reads ten), each once. It stands for
    the tuple of its items: equal to that tuple (either way round) and hashed alike, its slices
    are tuples, ``+`` with a tuple gives a tuple, and it is pickled and copied as that tuple.
    Several parts (``chain``) read as one sequence, in order.
    """

    __slots__ = ("_len", "_made", "_parts")

    def __init__(self, items: Sequence[_T], make: Callable[[_T, int], Evidence]) -> None:
        self._parts: tuple[tuple[int, Sequence[Any], Callable[[Any, int], Evidence] | None], ...] = (
            (0, items, make),)
        self._len = len(items)
        self._made: dict[int, Evidence] | None = None

    @classmethod
    def chain(cls, *parts: Sequence[Evidence]) -> Sequence[Evidence]:
        """The parts one after the other (a tuple when none of them is lazy)."""
        flat: list[tuple[Sequence[Any], Callable[[Any, int], Evidence] | None]] = []
        for p in parts:
            if type(p) is cls:
                assert isinstance(p, LazyEvidence)
                flat.extend((items, make) for _, items, make in p._parts)
            elif len(p):
                flat.append((tuple(p), None))
        if all(make is None for _, make in flat):
            return tuple(e for items, _ in flat for e in items)
        self = cls.__new__(cls)
        at = 0
        chained = []
        for items, make in flat:
            chained.append((at, items, make))
            at += len(items)
        self._parts = tuple(chained)
        self._len = at
        self._made = None
        return self

    def __len__(self) -> int:
        return self._len

    def _item(self, i: int) -> Evidence:
        made = self._made
        if made is None:
            made = self._made = {}
        ev = made.get(i)
        if ev is None:
            for start, items, make in reversed(self._parts):
                if i >= start:
                    k = i - start
                    ev = items[k] if make is None else make(items[k], k)
                    break
            assert ev is not None
            made[i] = ev
        return ev

    @overload
    def __getitem__(self, i: int) -> Evidence: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Evidence, ...]: ...

    def __getitem__(self, i: int | slice) -> Evidence | tuple[Evidence, ...]:
        if isinstance(i, slice):
            return tuple([self._item(k) for k in range(*i.indices(self._len))])
        i = operator.index(i)
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("tuple index out of range")
        return self._item(i)

    def __iter__(self) -> Iterator[Evidence]:
        for i in range(self._len):
            yield self._item(i)

    def __reversed__(self) -> Iterator[Evidence]:
        for i in range(self._len - 1, -1, -1):
            yield self._item(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, LazyEvidence)):
            return len(other) == self._len and tuple(self) == tuple(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __add__(self, other: object) -> tuple[Evidence, ...]:
        if isinstance(other, (tuple, LazyEvidence)):
            return (*self, *other)
        return NotImplemented

    def __radd__(self, other: object) -> tuple[Evidence, ...]:
        if isinstance(other, tuple):
            return (*other, *self)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self) -> tuple[type[tuple[Evidence, ...]], tuple[tuple[Evidence, ...]]]:
        return tuple, (tuple(self),)


def _as_evidence(evidence: Iterable[Evidence]) -> Sequence[Evidence]:
    """What a result keeps: a tuple, or a ``LazyEvidence`` as it is."""
    if type(evidence) is tuple or type(evidence) is LazyEvidence:
        return evidence
    return tuple(evidence)


def describe_call(call: ToolCall, limit: int = 120) -> str:
    """``Bash(command='npm test')  [error, exit_code=1]`` style one-liner for a call."""
    head, tags = describe_call_parts(call, limit)
    return head + tags


def describe_call_parts(call: ToolCall, limit: int = 120) -> tuple[str, str]:
    """``describe_call`` in two parts: ``Bash(command='npm test')`` and its outcome tag
    (``  [error, exit_code=1]``, ``""`` for a success)."""
    if call.command is not None:
        # the argument as logged: its own key (inspect_ai's ``cmd``) and, for a string, its text
        key = "command" if "command" in call.arguments else "cmd"
        logged = call.arguments.get(key)
        args = f"{key}={short_repr(logged if isinstance(logged, str) else call.command, limit)}"
    elif call.arguments:
        parts = []
        for k, v in list(call.arguments.items())[:3]:
            parts.append(f"{k}={short_repr(v, 60)}")
        if len(call.arguments) > 3:
            parts.append("...")
        args = ", ".join(parts)
    elif call.raw_arguments:
        args = short_repr(call.raw_arguments, 60)
    else:
        args = ""
    tag = ""
    if not call.outcome_recorded:
        tag = "  [outcome not recorded]"
    elif call.result is None:
        tag = "  [no result]"
    elif call.is_error:
        tag = "  [error"
        if call.exit_code not in (None, 0):
            tag += f", exit_code={call.exit_code}"
        tag += "]"
    return f"{call.name}({args})", tag


@attrs.define(frozen=True, slots=True)
class Difference:
    """One argument that differs between the expectation and the nearest call."""

    path: str
    expected: str
    found: str

    def render(self) -> str:
        return f"{self.path}: expected {cut_middle(self.expected, 120)}, found {cut_middle(self.found, 120)}"


@attrs.define(frozen=True, slots=True)
class NearestMiss:
    """The candidate that came closest to satisfying a failed check, and how it differs."""

    evidence: Evidence
    differences: tuple[Difference, ...] = ()


@attrs.define(frozen=True, slots=True)
class CheckResult:
    """The result of one check.

    Attributes:
        name: the check's name (``tool_called``, ``expect_story_tests_ran_and_passed``...).
        status: PASS, FAIL, INCONCLUSIVE or ERROR.
        summary: one line; for failures ``expected …, found …`` (Storybook checks start with
            the reference suite's own message instead).
        expected / found: the two halves of the summary, for programs.
        evidence: located facts, in file order: a sequence that reads as a tuple (equal to
            the tuple of its items); a check that cites thousands of calls makes each item
            when it is read (``LazyEvidence``).
        nearest_miss: on failure, the closest candidate and its per-argument differences.
        vacuous: the check passed only because there was nothing to check.
        notes: extra lines (why a check is inconclusive, which profile was used...).
        matched: on success, what satisfied the check (tool calls, messages...), so that
            ``assert_*`` can return it and tests can keep asserting on it.
        check: the call that produced the result, with matcher reprs
            (``tool_called('Bash', command=Matches('pytest'))``); rendered last.
    """

    name: str
    status: Status
    summary: str
    expected: str = ""
    found: str = ""
    evidence: Sequence[Evidence] = ()
    nearest_miss: NearestMiss | None = None
    vacuous: bool = False
    notes: tuple[str, ...] = ()
    matched: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)
    check: str = ""

    @property
    def passed(self) -> bool:
        return self.status is Status.PASS

    @classmethod
    def passing(cls, name: str, summary: str, evidence: Iterable[Evidence] = (), **kw: Any) -> CheckResult:
        return cls(name=name, status=Status.PASS, summary=summary, evidence=_as_evidence(evidence), **kw)

    @classmethod
    def failing(
        cls, name: str, expected: str, found: str, evidence: Iterable[Evidence] = (), **kw: Any
    ) -> CheckResult:
        summary = kw.pop("summary", None) or f"expected {expected}, found {found}"
        return cls(
            name=name, status=Status.FAIL, summary=summary, expected=expected, found=found,
            evidence=_as_evidence(evidence), **kw,
        )

    @classmethod
    def inconclusive(
        cls, name: str, expected: str, found: str, evidence: Iterable[Evidence] = (), *, but: str | None = None,
        **kw: Any,
    ) -> CheckResult:
        """INCONCLUSIVE: ``inconclusive: expected X, found Y[, but Z]`` (*but*: why *found* does
        not decide)."""
        summary = kw.pop("summary", None) or f"inconclusive: expected {expected}, found {found}" + (
            f", but {but}" if but else "")
        return cls(
            name=name, status=Status.INCONCLUSIVE, summary=summary, expected=expected, found=found,
            evidence=_as_evidence(evidence), **kw,
        )

    def render(self, *, verbose: bool | None = None) -> str:
        """The summary line, then indented evidence; bounded unless *verbose*."""
        if verbose is None:
            verbose = verbose_default()
        limit = 10**9 if verbose else MAX_VALUE
        lines = [self.summary]
        if self.vacuous and self.status is Status.PASS:
            lines.append("  (vacuous: there was nothing to check)")
        items = self.evidence if verbose else self.evidence[:MAX_EVIDENCE]
        if items:
            lines.append("  evidence:")
            for ev in items:
                lines.extend("    " + line for line in ev.render(limit))
            hidden = len(self.evidence) - len(items)
            if hidden:
                lines.append(
                    f"    ... and {hidden} more (set AGENTEVAL_VERBOSE=1 or pass verbose=True to see all)"
                )
        if self.nearest_miss is not None:
            nm = self.nearest_miss
            first, *rest = nm.evidence.render(limit)
            lines.append(f"  nearest miss: {first}")
            lines.extend("    " + r for r in rest)
            for d in nm.differences if verbose else nm.differences[:MAX_EVIDENCE]:
                lines.append("    " + d.render())
        for note in self.notes:
            lines.append(f"  note: {note}")
        if self.check:
            lines.append(f"  check: {cut_middle(self.check, limit)}")
        # Transcripts hold whatever the agent saw, secrets included: never print them in full
        # (AGENTEVAL_NO_REDACT=1 turns this off for local debugging).
        return redact("\n".join(lines))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for ``--output json`` and harnesses); evidence is not elided;
        secrets are redacted (``AGENTEVAL_NO_REDACT=1`` turns it off)."""

        def ev(e: Evidence) -> dict[str, Any]:
            return {
                "text": e.text,
                "path": e.location.path if e.location else None,
                "line": e.location.line if e.location else None,
                "call_id": e.call_id,
                "step": e.step,
                "detail": e.detail,
            }

        nm = self.nearest_miss
        doc = {
            "name": self.name,
            "status": self.status.value,
            "summary": self.summary,
            "expected": self.expected,
            "found": self.found,
            "evidence": [ev(e) for e in self.evidence],
            "nearest_miss": None
            if nm is None
            else {
                "evidence": ev(nm.evidence),
                "differences": [
                    {"path": d.path, "expected": d.expected, "found": d.found} for d in nm.differences
                ],
            },
            "vacuous": self.vacuous,
            "notes": list(self.notes),
            "check": self.check,
        }
        redacted: dict[str, Any] = redact_json(doc)
        return redacted

    def __str__(self) -> str:
        return self.render()


class TranscriptAssertionError(AssertionError):
    """A check failed. ``str()`` is the rendered result; ``.result`` is the ``CheckResult``."""

    def __init__(self, result: CheckResult) -> None:
        self.result = result
        super().__init__(result.render())


class InconclusiveError(TranscriptAssertionError):
    """A check could not be decided from this transcript (empty, torn, unanswered calls...)."""


class CheckError(AgentEvalError):
    """A check could not run (a matcher's callable raised, a regex timed out, no raw file...).

    Not an ``AssertionError``: unittest and pytest report it as an error, not a failure.
    ``.result`` is the ERROR ``CheckResult``.
    """

    def __init__(self, result: CheckResult) -> None:
        self.result = result
        super().__init__(result.render())
