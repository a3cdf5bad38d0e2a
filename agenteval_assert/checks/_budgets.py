"""Budgets, subagents and skills: what the run cost, and what it delegated."""

from __future__ import annotations

import regex

from ..exceptions import UsageError
from ..matchers import Matcher, values_match
from ..model import _ACTION_COUNT, Message, ToolCall, Transcript
from ..results import CheckResult, Evidence, Status, short_repr
from ._common import (
    _echo,
    _evidence,
    _fail,
    _guarded,
    _index,
    _negative,
    _pass,
    _plural,
    _pool,
    _seq_text,
)
from ._index import NO_ARG

__all__ = [
    "check_budget",
    "check_skill_invoked",
    "check_subagent_used",
]


@_guarded("budget")
def check_budget(
    t: Transcript,
    *,
    max_steps: int | None = None,
    max_tool_calls: int | None = None,
    max_tokens: int | None = None,
    max_input_tokens: int | None = None,
    max_output_tokens: int | None = None,
    max_cost_usd: float | None = None,
    include_subagents: bool = True,
    assume_complete: bool = False,
) -> CheckResult:
    """The run stayed within budget.

    Steps are the agent's actions: assistant messages, thinking blocks and tool calls (user
    and system messages are not steps). Tokens and cost come from the log and are never
    estimated: a token or cost budget on a transcript that records none is INCONCLUSIVE, and so
    is one the recorded figures are within when they cover only part of the run
    (``Transcript.usage_partial``: they are a lower bound; over the limit still fails).

    With ``include_subagents=True`` (the default) every limit counts the whole run: tokens and
    cost are ``Transcript.usage_total`` (the main agent and its subagents, the same basis as the
    cost a Claude result record states); a token limit the run is within is INCONCLUSIVE when
    the log records no usage for some subagent (``Transcript.usage_unrecorded``). With
    ``include_subagents=False`` they are the main agent's (``Transcript.usage``).
    """
    limits = {"steps": max_steps, "tool calls": max_tool_calls, "tokens": max_tokens,
              "input tokens": max_input_tokens, "output tokens": max_output_tokens, "cost": max_cost_usd}
    if all(v is None for v in limits.values()):
        raise UsageError("check_budget() needs at least one max_* limit")
    for k, v in limits.items():
        if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0):
            raise UsageError(f"the {k} limit must be a non-negative number, got {v!r}")
    u = t.usage_total if include_subagents else t.usage
    basis = _basis(t, include_subagents)
    actual: dict[str, float | None] = {
        "steps": _action_count(t, include_subagents), "tool calls": len(_pool(t, include_subagents)), "tokens": u.total_tokens,
        "input tokens": u.input_tokens, "output tokens": u.output_tokens, "cost": u.cost_usd,
    }
    echo = _echo("budget", **{f"max_{k.replace(' ', '_')}{'_usd' if k == 'cost' else ''}": v for k, v in limits.items()})
    expected = ", ".join(f"cost at most {_usd(v)}" if k == "cost" else f"at most {v:g} {k}"
                         for k, v in limits.items() if v is not None)
    over, unknown, within = [], [], []
    for k, lim in limits.items():
        if lim is None:
            continue
        a = actual[k]
        if a is None:
            unknown.append(k)
        elif a > lim:
            over.append(f"cost {_usd(a)} (limit {_usd(lim)})" if k == "cost" else f"{a:g} {k} (limit {lim:g})")
        else:
            within.append(f"cost {_usd(a)}" if k == "cost" else f"{a:g} {k}")
    usage_limited = any(limits[k] is not None for k in ("tokens", "input tokens", "output tokens", "cost"))
    notes = [f"tokens and cost: {basis}"] if usage_limited else []
    if over:
        ev = []
        if max_tool_calls is not None and actual["tool calls"] and actual["tool calls"] > max_tool_calls:
            pool = _pool(t, include_subagents)
            ev.append(Evidence.from_call(pool[max_tool_calls] if max_tool_calls < len(pool) else pool[-1],
                                         f"call {max_tool_calls + 1}: first over the limit"))
        return _fail("budget", t, expected, "; ".join(over), echo, ev, notes=notes, positive=False)
    if unknown:
        return CheckResult(
            name="budget", status=Status.INCONCLUSIVE,
            summary=f"inconclusive: expected {expected}, found no {' or '.join(unknown)} recorded in the log",
            expected=expected, found=f"no {' or '.join(unknown)} recorded", check=echo,
            notes=(*notes, f"usage mode of this format: {t.health.usage_mode}; tokens and cost are never estimated"),
        )
    token_limited = any(limits[k] is not None for k in ("tokens", "input tokens", "output tokens"))
    if usage_limited and t.usage_partial:
        return CheckResult.inconclusive(
            "budget", expected, ", ".join(within), check=echo,
            but="the log records usage for only part of the run (Transcript.usage_partial)",
            notes=(*notes, "the recorded figures are a lower bound: within them is not within the budget"),
        )
    if include_subagents and token_limited and t.usage_unrecorded:
        missing = ", ".join(t.usage_unrecorded[:5]) + (" ..." if len(t.usage_unrecorded) > 5 else "")
        return CheckResult.inconclusive(
            "budget", expected, ", ".join(within), check=echo,
            but=f"the log records no usage for {_plural(len(t.usage_unrecorded), 'subagent')} ({missing})",
            notes=(*notes, ("the run's token total leaves out the subagents whose usage is not recorded; "
                            "include_subagents=False checks the main agent alone")),
        )
    return _negative("budget", t, assume_complete=assume_complete, expected=expected,
                     found=", ".join(within), check=echo, notes=notes)


def _action_count(t: Transcript, include_subagents: bool) -> int:
    """``t.action_count(include_subagents=...)``: the builder's count when it kept one (no pass),
    else the index's pass over the steps, which ``check_skill_invoked`` shares."""
    if include_subagents and _ACTION_COUNT in t._derived:
        return t.action_count()
    n, main, _ = _index(t).step_facts()
    return n if include_subagents else main


def _usd(value: float) -> str:
    """``$1.00``, ``$0.50``; more digits when cents would hide a difference (``$1.004``, ``$0.0042``)."""
    cents = value * 100
    return f"${value:,.2f}" if abs(cents - round(cents)) < 1e-9 else f"${value:,.10g}"


def _basis(t: Transcript, include_subagents: bool) -> str:
    """What a budget's tokens and cost count, said in its result."""
    if not include_subagents:
        return "usage (the main agent)"
    if not t.subagents:
        return "usage_total (the main agent; no subagent)"
    return f"usage_total (the main agent and {_plural(len(t.subagents), 'subagent')})"


@_guarded("subagent_used")
def check_subagent_used(
    t: Transcript, *, type: str | Matcher | None = None, description: str | Matcher | None = None
) -> CheckResult:
    """A subagent was spawned (Claude Task/Agent, Codex collab ``spawn_agent``), optionally of a type."""
    echo = _echo("subagent_used", type=type, description=description)
    calls = [c for c in t.all_tool_calls
             if c.kind == "subagent" and c.arguments.get("tool", "spawn_agent") == "spawn_agent"]
    sub_types = {s.parent_call_id: s.type for s in t.subagents}
    what = "a subagent" + (f" of type {short_repr(type, 80)}" if type is not None else "") + (
        f" described {short_repr(description, 80)}" if description is not None else "")
    hits = []
    for c in calls:
        ctype = c.arguments.get("subagent_type") or sub_types.get(c.id)
        if type is not None and not values_match(type, ctype):
            continue
        if description is not None and not values_match(description, c.arguments.get("description")):
            continue
        hits.append(c)
    if not hits and not calls and t.subagents and type is None and description is None:
        return _pass("subagent_used", what, f"{_plural(len(t.subagents), 'subagent')}", echo)
    if hits:
        return _pass("subagent_used", what, f"#{hits[0].index}", echo, _evidence(t, hits), tuple(hits))
    found = "no subagent" if not calls else f"{_plural(len(calls), 'subagent call')} of other types"
    ev = [Evidence.from_call(c, f"type={short_repr(c.arguments.get('subagent_type') or sub_types.get(c.id), 40)}") for c in calls]
    return _fail("subagent_used", t, what, found, echo, ev)


_SKILL_PATH = regex.compile(r"skills/([^/\s'\"]+)/SKILL\.md")


def _skills(t: Transcript) -> list[tuple[str, ToolCall | Message]]:
    """Every skill invocation, in file order: a skill tool call, a read of a ``SKILL.md``, or a
    skill invoked without a call (a Claude Code slash command: ``Message.skill``)."""
    ix = _index(t)
    out: list[tuple[str, ToolCall | Message]] = [
        (s.skill, s) for s in ix.skilled() if s.skill is not None]  # every Message with a skill
    # the calls that can name a skill, from the shared index (not every call); the list is
    # sorted by step at the end (one step per call in a parsed log; a transcript built in Python
    # may give calls one step, which keep the order met here: the skill tools, the shell calls,
    # then the reads, each in the pool's order)
    tools = {c.index: c for c in ix.of_kind("skill", True)}
    tools.update((c.index, c) for c in ix.named("Skill", True) if c.name == "Skill")  # not mcp__s__Skill
    for c in tools.values():
        s = c.arguments.get("skill", c.arguments.get("command", c.arguments.get("name")))
        if isinstance(s, str):
            out.append((s, c))
    found: dict[str, list[str]] = {}  # the skills a text names (commands repeat)

    def named_in(text: str, c: ToolCall) -> None:
        names = found.get(text)
        if names is None:
            names = found[text] = [m.group(1) for m in _SKILL_PATH.finditer(text)]
        out.extend((n, c) for n in names)

    # the pattern holds "SKILL.md": a text without it names no skill (tested inline, first:
    # nearly every command and path)
    texts = ix.shell_texts(True)
    if "SKILL.md" in "\n".join(texts):  # no command holds it, else the one(s) that do
        for c, text in zip(ix.shell_calls(True), texts, strict=True):
            if "SKILL.md" in text and c.index not in tools:
                named_in(text, c)
    # the reads that name a skill, by their place in the pool: added in the pool's order, as the
    # walk over every read met them (the sort by step keeps that order for calls of one step)
    read: list[tuple[int, str, ToolCall]] = []

    def read_in(i: int, text: str) -> None:
        c = pool[i]
        if "SKILL.md" in text and c.index not in tools:
            names = found.get(text)
            if names is None:
                names = found[text] = [m.group(1) for m in _SKILL_PATH.finditer(text)]
            read.extend((i, n, c) for n in names)

    counts: dict[str, int] = {}
    for c in ix.of_kind("file_read", True):
        counts[c.name] = counts.get(c.name, 0) + 1
    pool = ix.pool(True)
    positions = ix.names(True)
    for name, n in counts.items():
        where = positions.get(name, ())
        if len(where) != n:  # a tool with calls of another kind too: its reads looked at one by one
            for i in where:
                if pool[i].kind == "file_read":
                    args = pool[i].arguments
                    p = args.get("file_path", _MISSING)
                    if p is _MISSING:  # args.get("file_path", args.get("path")), the second look-up only when needed
                        p = args.get("path")
                    if isinstance(p, str):
                        read_in(i, p)
            continue
        # every call of the tool is a read: its file paths from the index of its calls by that
        # argument (shared with the checks that name a file path), each distinct path once
        by, others = ix.arg_positions(where, "file_path", True)
        for v, at in by.items():
            if v is NO_ARG:  # no file_path: the path
                for i in at:
                    p = pool[i].arguments.get("path")
                    if isinstance(p, str):
                        read_in(i, p)
            elif "SKILL.md" in v:  # type: ignore[operator]  # a text
                for i in at:
                    read_in(i, v)  # type: ignore[arg-type]
        for i in others:  # not a str: no skill, but for a str of a subclass
            p = pool[i].arguments.get("file_path")
            if isinstance(p, str):
                read_in(i, p)
    if read:
        read.sort(key=lambda r: r[0])
        out.extend((n, c) for _, n, c in read)
    out.sort(key=lambda sc: _step(sc[1]))
    return out


_MISSING = object()


def _step(s: ToolCall | Message) -> int:
    return s.step if isinstance(s, ToolCall) else s.index


def _skill_evidence(s: str, where: ToolCall | Message) -> Evidence:
    if isinstance(where, ToolCall):
        return Evidence.from_call(where, f"skill {s}")
    return Evidence(f"skill {s} invoked without a tool call (its instructions injected into the "
                    "conversation: a slash command)", where.location, step=where.index)


@_guarded("skill_invoked")
def check_skill_invoked(t: Transcript, name: str | Matcher, /) -> CheckResult:
    """A skill was invoked: Claude's ``Skill`` tool (``plugin:name`` matches ``name``), a slash
    command that injected the skill's instructions (``/plugin:name``, ``Message.skill``), or a
    read of ``skills/<name>/SKILL.md`` (Codex has no skill tool)."""
    echo = _echo("skill_invoked", name)
    skills = _skills(t)

    def fits(s: str) -> bool:
        if isinstance(name, str):
            return s == name or s.rsplit(":", 1)[-1] == name
        return values_match(name, s)

    hits = [(s, c) for s, c in skills if fits(s)]
    expected = f"skill {short_repr(name, 80)} invoked"
    if hits:
        s0, first = hits[0]
        found = f"#{first.index} {s0}" if isinstance(first, ToolCall) else f"{s0} (slash command, line {first.location.line})"
        return _pass("skill_invoked", expected, found, echo,
                     [_skill_evidence(s, c) for s, c in hits], tuple(c for _, c in hits))
    found = f"skills {_seq_text(sorted({s for s, _ in skills}), 6)}" if skills else "no skill invoked"
    return _fail("skill_invoked", t, expected, found, echo, [_skill_evidence(s, c) for s, c in skills])
