"""The look-ups that the checks of one transcript share, each built once, on first use.

Fifty checks on a 10,000-call transcript must not each walk the calls to find a tool's calls,
re-serialise arguments, re-parse the same shell command or re-scan outputs. ``CallIndex`` holds
what they share; ``_common._index(t)`` returns the one kept with the transcript
(``Transcript.derived``), so it lives and dies with it. Every part is built lazily: a check
that needs only the alias index never pays for parsed shell commands.

What it keeps is compact (RSS is measured with it built): positions and tuples of the calls the
transcript already holds, one canonical string per call whose arguments a check compared, one
parsed script per distinct command text, one byte per call for the failure-word scan. It
never keeps copies of outputs (the scan lower-cases the short windows it reads, a batch of calls
at a time, and keeps one byte per call).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping, Sequence
from itertools import chain
from typing import TYPE_CHECKING

from ..matchers import call_aliases, canonical_json
from ..model import _SKILLED_STEPS, Message, Thinking, ToolCall, Transcript
from ..results import Evidence

if TYPE_CHECKING:
    from ..shell import ShellFileEffects, ShellScript

__all__ = ["CallIndex", "args_key"]


class _NotJson(Exception):
    """A value canonical JSON writes otherwise than as itself (``repr`` of an object, a key that
    is not a string): the key is made from the canonical JSON text instead."""


def _frozen(v: object) -> object:
    t = type(v)
    if t is str or v is None or t is bool:
        return v
    if t is int:
        return ("i", v)  # 1 and 1.0 and True are three JSON texts: three keys
    if t is float:
        return ("f", repr(v))  # the JSON text of a float is its repr (nan, inf: their own)
    if t is dict:
        items = []
        for k, x in v.items():  # type: ignore[attr-defined]
            if type(k) is not str:
                raise _NotJson  # JSON writes other keys as text ({1: x} is {"1": x})
            items.append((k, x if type(x) is str else _frozen(x)))  # a text is its own key
        if len(items) == 1:  # most calls: one argument
            return ("{", *items[0])
        # by key: the keys of a dict are distinct, so comparing the pairs never reaches a value
        items.sort()
        # flat, key, value, key, value... (one tuple, not one per pair: the keys of every call
        # of a long run are kept): two are equal exactly when their sorted pairs are, as the
        # keys sit at the even places and are texts, the values at the odd ones
        return ("{", *chain.from_iterable(items))
    if t is list or t is tuple:
        return ("[", *[_frozen(x) for x in v])  # type: ignore[attr-defined]  # flat, as a dict's
    raise _NotJson


def args_key(arguments: Mapping[str, object]) -> object:
    """A hashable key of a call's arguments: two keys are equal exactly when the arguments'
    canonical JSON texts (``matchers.canonical_json``) are. Built from the values themselves
    (a long string is referenced, not escaped into a copy), which is what repeated-call checks
    compare; arguments holding anything else than JSON values get the key of their canonical
    JSON text read back, so the two kinds of key still agree."""
    try:
        return _frozen(arguments if type(arguments) is dict else dict(arguments))
    except _NotJson:
        return _frozen(json.loads(canonical_json(dict(arguments))))
    except RecursionError:  # deeper than Python recurses: the text itself (such keys only meet their own kind)
        return ("json", canonical_json(dict(arguments)))


#: ``CallIndex.arg_positions``: positions by text value (or ``NO_ARG``), and the others.
_ByValue = tuple[dict[object, list[int]], list[int]]
#: A retry candidate's group (``_kept``): ``(tool, texts)``, the values of the tool's failed
#: calls' text arguments that it has; ``(tool, None)`` for a call that cannot be told apart by
#: them (the failed calls of its tool have several sets of text arguments, or none; or the call
#: has another kind of value there).
_Group = tuple[str, "tuple[str, ...] | None"]
#: A retry candidate: its position in the pool, its index, its group.
_Cand = tuple[int, int, _Group]


#: What ``CallIndex.arg_positions`` files the calls that lack the argument under (the same
#: object as ``_common._NO_ARG``).
NO_ARG = object()
#: ``CallIndex._shell``: no ``command`` argument.
_NO_TEXT = object()


_Aliases = tuple[dict[str, tuple[ToolCall, ...]], dict[str, list[int]], dict[str, list[int]]]


def _aliases(calls: Sequence[ToolCall]) -> _Aliases:
    """Calls by every alias of their name, their positions in *calls*, and the positions of
    the calls of each name (``ToolCall.name`` itself).

    The calls are first grouped by what their aliases depend on (the name, and the MCP server
    and tool), one dictionary step per call; the aliases are then made once per group, and an
    alias that several groups share (``t`` for ``mcp__s__t`` and a plain ``t``) gets their
    positions merged in order."""
    groups: dict[object, list[int]] = {}
    first: dict[object, ToolCall] = {}
    for i, c in enumerate(calls):
        key: object = (c.name, c.server, c.tool) if c.tool else c.name
        lst = groups.get(key)
        if lst is None:
            groups[key] = [i]
            first[key] = c
        else:
            lst.append(i)
    pos: dict[str, list[int]] = {}
    names: dict[str, list[int]] = {}
    for key, where in groups.items():
        c = first[key]
        have = names.get(c.name)
        names[c.name] = where if have is None else sorted(have + where)
        for alias in (call_aliases(c) if c.tool else (c.name,)):
            have = pos.get(alias)
            pos[alias] = where if have is None else sorted(have + where)
    by: dict[str, tuple[ToolCall, ...]] = {}
    for alias, where in pos.items():
        by[alias] = (calls[where[0]],) if len(where) == 1 else operator.itemgetter(*where)(calls)
    return by, pos, names


def _failed_by_flags(calls: Sequence[ToolCall]) -> tuple[ToolCall, ...]:
    """``tuple(c for c in calls if c.is_error)``, the property read inline (one pass over every
    call of a long transcript: a property call per call is a good part of it)."""
    out: list[ToolCall] = []
    for c in calls:
        status = c.status
        if status == "failed" or status == "declined":
            out.append(c)
            continue
        r = c.result
        if r is not None and (r.is_error or r.exit_code not in (None, 0)):
            out.append(c)
    return tuple(out)


class CallIndex:
    """Per-transcript look-ups for the checks, each built on first use and then kept.

    Attributes:
        all_calls: every tool call, subagents' included, in order.
        main_calls: the main agent's calls, in order.
        args_keys: the ``args_key`` of a call's arguments, by call index, filled as checks ask.
    """

    __slots__ = (
        "__weakref__",
        "_aliases",
        "_arg_positions",
        "_distinct",
        "_effects",
        "_errors",
        "_evidence",
        "_failure_flags",
        "_kinds",
        "_retry_walks",
        "_scripts",
        "_shell_calls",
        "_shell_texts",
        "_skilled_places",
        "_step_facts",
        "_steps",
        "_unreadable",
        "all_calls",
        "args_keys",
        "main_calls",
    )

    def __init__(self, t: Transcript) -> None:
        self.all_calls: tuple[ToolCall, ...] = t.all_tool_calls
        self.main_calls: tuple[ToolCall, ...] = t.tool_calls
        self.args_keys: dict[int, object] = {}
        self._aliases: dict[bool, _Aliases] = {}
        self._shell_calls: dict[bool, tuple[ToolCall, ...]] = {}
        self._shell_texts: dict[bool, tuple[str, ...]] = {}
        self._kinds: dict[bool, dict[str, tuple[ToolCall, ...]]] = {}
        self._distinct: dict[bool, bool] = {}
        from ..shell import _scripts

        self._scripts: dict[str, ShellScript] = _scripts(t)  # shared with shell_commands, Storybook
        self._effects: dict[str, ShellFileEffects] = {}
        self._evidence: dict[int, Evidence] = {}
        self._errors: dict[bool, tuple[ToolCall, ...]] = {}
        self._failure_flags: bytearray | None = None
        self._retry_walks: dict[bool, dict[tuple[int, ...], list[_Cand]]] = {}
        self._unreadable: tuple[ToolCall, ...] | None = None
        self._arg_positions: dict[tuple[int, str, bool], tuple[Sequence[int], _ByValue]] = {}
        self._steps = t.steps  # the transcript's own tuple (no copy)
        self._step_facts: tuple[int, int, tuple[Message, ...]] | None = None
        #: the places of the messages that invoke a skill, as the builder recorded them (absent
        #: from a transcript made otherwise, or changed by ``attrs.evolve``: then a pass)
        self._skilled_places: tuple[int, ...] | None = t._derived.get(_SKILLED_STEPS)

    # -- steps ---------------------------------------------------------------------------------

    def step_facts(self) -> tuple[int, int, tuple[Message, ...]]:
        """``(actions, main_actions, skilled)`` from one pass over the steps: the agent's actions
        (``Transcript.action_count()``, and with ``include_subagents=False``), and the messages
        that invoked a skill (``Message.skill``), in order. ``check_budget`` (when the builder's
        count is not there) and ``check_skill_invoked`` share it: each walked every step."""
        got = self._step_facts
        if got is None:
            n = main = 0
            skilled: list[Message] = []
            for s in self._steps:
                cls = type(s)  # the model's own classes first, as action_count does
                if cls is ToolCall or cls is Thinking:
                    act = True
                elif cls is Message:
                    act = s.role == "assistant"  # type: ignore[union-attr]  # a Message
                    if s.skill is not None:  # type: ignore[union-attr]
                        skilled.append(s)  # type: ignore[arg-type]
                else:
                    act = isinstance(s, (ToolCall, Thinking)) or (isinstance(s, Message) and s.role == "assistant")
                    if isinstance(s, Message) and s.skill is not None:
                        skilled.append(s)
                if act:
                    n += 1
                    if s.agent_id is None:
                        main += 1
            got = self._step_facts = (n, main, tuple(skilled))
        return got

    def skilled(self) -> tuple[Message, ...]:
        """The messages that invoke a skill (``Message.skill``), in order: at the places the
        builder recorded, else from ``step_facts``'s pass over the steps."""
        places = self._skilled_places
        if places is None:
            return self.step_facts()[2]
        steps = self._steps
        return tuple([steps[i] for i in places])  # type: ignore[misc]  # Messages, by the builder

    # -- calls by name -------------------------------------------------------------------------

    @property
    def unreadable(self) -> tuple[ToolCall, ...]:
        """The calls whose logged arguments are no JSON object (``raw_arguments``, no
        ``arguments``), found once: almost always none."""
        if self._unreadable is None:
            self._unreadable = tuple(c for c in self.all_calls if c.raw_arguments is not None and not c.arguments)
        return self._unreadable

    def pool(self, include_subagents: bool) -> tuple[ToolCall, ...]:
        """The calls a check looks at: every call, or the main agent's."""
        return self.all_calls if include_subagents else self.main_calls

    def distinct_indexes(self, include_subagents: bool) -> bool:
        """No two calls of the pool share an ``index`` (a transcript made by hand, or changed by
        ``attrs.evolve``, may number two calls alike)."""
        got = self._distinct.get(include_subagents)
        if got is None:
            if self._distinct.get(True):
                got = True  # the main agent's calls are some of every call
            else:
                pool = self.pool(include_subagents)
                got = len({c.index for c in pool}) == len(pool)
            self._distinct[include_subagents] = got
        return got

    def _alias_index(self, include_subagents: bool) -> _Aliases:
        got = self._aliases.get(include_subagents)
        if got is None:
            other = self._aliases.get(not include_subagents)
            if other is not None and len(self.main_calls) == len(self.all_calls):
                got = other  # no subagent call: both pools are the same calls
            else:
                got = _aliases(self.pool(include_subagents))
            self._aliases[include_subagents] = got
        return got

    def by_alias(self, include_subagents: bool) -> Mapping[str, tuple[ToolCall, ...]]:
        """The pool's calls under every name they answer to (``mcp__s__t``, ``s.t``, ``t``)."""
        return self._alias_index(include_subagents)[0]

    @property
    def by_alias_all(self) -> Mapping[str, tuple[ToolCall, ...]]:
        return self.by_alias(True)

    @property
    def by_alias_main(self) -> Mapping[str, tuple[ToolCall, ...]]:
        return self.by_alias(False)

    def named(self, name: str, include_subagents: bool) -> tuple[ToolCall, ...]:
        """The pool's calls answering to *name*, in order."""
        return self._alias_index(include_subagents)[0].get(name, ())

    def positions(self, include_subagents: bool) -> Mapping[str, list[int]]:
        """Where each alias's calls are in the pool (its positions, ascending)."""
        return self._alias_index(include_subagents)[1]

    def names(self, include_subagents: bool) -> Mapping[str, list[int]]:
        """Where the calls of each tool name are in the pool (their positions, ascending)."""
        return self._alias_index(include_subagents)[2]

    def arg_positions(self, where: Sequence[int], key: str, include_subagents: bool) -> _ByValue:
        """The pool's calls at *where* (ascending positions in the pool: one of this index's
        ``positions`` or ``names`` lists) by the value of their argument *key*: for each text
        value and for ``NO_ARG`` (no such argument), the positions of the calls that have it,
        in the order of their first call; then the positions of the calls whose value there
        is of another kind. Every list ascending. One pass over those calls, kept by the list
        and the key: the checks that look for a tool's calls by one argument (a command, a
        file path; the retries of failed calls) share it, and look at each distinct value once
        instead of at each call."""
        memo = (id(where), key, include_subagents)
        got = self._arg_positions.get(memo)
        if got is not None and got[0] is where:
            return got[1]
        pool = self.pool(include_subagents)
        by: dict[object, list[int]] = {}
        others: list[int] = []
        for i in where:
            v = pool[i].arguments.get(key, NO_ARG)
            if type(v) is str or v is NO_ARG:
                lst = by.get(v)
                if lst is None:
                    by[v] = [i]
                else:
                    lst.append(i)
            else:
                others.append(i)
        self._arg_positions[memo] = (where, (by, others))  # *where* kept: its id stays its own
        return by, others

    def by_value(self, include_subagents: bool) -> Callable[[Sequence[int], str], _ByValue]:
        """``arg_positions`` of the pool, as a function of the positions and the key (for
        ``_common._recoveries``)."""
        return lambda where, key: self.arg_positions(where, key, include_subagents)

    def of_kind(self, kind: str, include_subagents: bool) -> tuple[ToolCall, ...]:
        """The pool's calls of this ``kind`` (``shell``, ``file_edit``...), in order."""
        kinds = self._kinds.get(include_subagents)
        if kinds is None and len(self.main_calls) == len(self.all_calls):
            kinds = self._kinds.get(not include_subagents)  # no subagent call: the same pools
        if kinds is None:
            by: dict[str, list[ToolCall]] = {}
            for c in self.pool(include_subagents):
                by.setdefault(c.kind, []).append(c)
            kinds = self._kinds[include_subagents] = {k: tuple(v) for k, v in by.items()}
        return kinds.get(kind, ())

    def errors(self, include_subagents: bool) -> tuple[ToolCall, ...]:
        """The pool's calls that failed (``ToolCall.is_error``), in order."""
        got = self._errors.get(include_subagents)
        if got is None:
            got = self._errors[include_subagents] = _failed_by_flags(self.pool(include_subagents))
        return got

    def _shell(self, include_subagents: bool) -> None:
        """``shell_calls`` and ``shell_texts`` in one pass (``ToolCall.command`` is computed on
        every read: once per call here). A command that is a plain text in a plain dict of
        arguments is read inline (what ``ToolCall.command`` returns then: the ``command``
        argument, else ``cmd``); any other call asks the property. ``_shell_long`` asks it of
        every shell call (kept for the tests)."""
        calls: list[ToolCall] = []
        texts: list[str] = []
        add_call, add_text = calls.append, texts.append
        for c in self.pool(include_subagents):
            if c.kind == "shell":
                args = c.arguments
                if type(args) is dict:
                    text = args.get("command", _NO_TEXT)
                    if text is _NO_TEXT:
                        text = args.get("cmd")
                    if type(text) is str:
                        add_call(c)
                        add_text(text)
                        continue
                text = c.command
                if text is not None:
                    add_call(c)
                    add_text(text)
        self._shell_calls[include_subagents] = tuple(calls)
        self._shell_texts[include_subagents] = tuple(texts)

    def _shell_long(self, include_subagents: bool) -> None:
        """``_shell`` with ``ToolCall.command`` asked of every shell call."""
        calls: list[ToolCall] = []
        texts: list[str] = []
        for c in self.pool(include_subagents):
            if c.kind == "shell":
                text = c.command
                if text is not None:
                    calls.append(c)
                    texts.append(text)
        self._shell_calls[include_subagents] = tuple(calls)
        self._shell_texts[include_subagents] = tuple(texts)

    def shell_calls(self, include_subagents: bool) -> tuple[ToolCall, ...]:
        """The pool's shell calls that have a command text."""
        got = self._shell_calls.get(include_subagents)
        if got is None:
            self._shell(include_subagents)
            got = self._shell_calls[include_subagents]
        return got

    def shell_texts(self, include_subagents: bool) -> tuple[str, ...]:
        """The command text of each of ``shell_calls``."""
        got = self._shell_texts.get(include_subagents)
        if got is None:
            self._shell(include_subagents)
            got = self._shell_texts[include_subagents]
        return got

    # -- what checks compute about calls ---------------------------------------------------------

    def args_key(self, c: ToolCall) -> object:
        """``args_key(c.arguments)``, once per call (duplicates, retries with the same arguments)."""
        key = self.args_keys.get(c.index)
        if key is None:
            key = args_key(c.arguments)
            if self._own(c):
                self.args_keys[c.index] = key
        return key

    def script(self, text: str) -> ShellScript:
        """*text* parsed as a shell command line: once per distinct text (a parse depends on the
        text alone, and the script is immutable, so every call with that text shares it)."""
        got = self._scripts.get(text)
        if got is None:
            from ..shell import parse_shell

            got = self._scripts[text] = parse_shell(text)
        return got

    def file_effects(self, text: str) -> ShellFileEffects:
        """``shell.file_effects`` of *text*'s script: once per distinct text, like the script."""
        got = self._effects.get(text)
        if got is None:
            from ..shell import file_effects

            got = self._effects[text] = file_effects(self.script(text))
        return got

    def evidence(self, c: ToolCall) -> Evidence:
        """``Evidence.from_call(c)``, made once per call and shared by every check that cites the
        call without a note (evidence is immutable; its text is described on first render)."""
        ev = self._evidence.get(c.index)
        if ev is None or ev._call is not c:
            ev = Evidence.from_call(c)
            if self._own(c):
                self._evidence[c.index] = ev
        return ev

    def _own(self, c: ToolCall) -> bool:
        """*c* is this transcript's call (memos are keyed by ``index``)."""
        i = c.index
        return 0 <= i < len(self.all_calls) and self.all_calls[i] is c

    def failure_flags(self, build: Callable[[Sequence[ToolCall]], bytearray]) -> bytearray:
        """``build(all_calls)``: one byte per call (by ``index``), built once in one batched pass
        (``_safety._failed`` with the default failure words: a non-zero byte for a call that
        failed)."""
        flags = self._failure_flags
        if flags is None:
            flags = self._failure_flags = build(self.all_calls)
        return flags

    def retry_walks(self, include_subagents: bool) -> dict[tuple[int, ...], list[_Cand]]:
        """For ``_common._recoveries`` over the whole pool: by the indexes of a set of failed
        calls, the pool's calls that may be their retries (the walk's candidates do not depend on
        what counts as a success, so checks that look for the retries of the same failures share
        them; those of a set serve any subset of it too: ``_common._wider_walk``)."""
        got = self._retry_walks.get(include_subagents)
        if got is None:
            got = self._retry_walks[include_subagents] = {}
        return got

    def own(self, c: ToolCall) -> bool:
        """*c* is this transcript's call (so the per-call tables, kept by ``index``, hold it)."""
        return self._own(c)
