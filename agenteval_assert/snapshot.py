"""Trajectory snapshots: a canonical, redacted text of what an agent did, for golden-file tests.

``trajectory(t)`` keeps what a reviewer compares between two runs of an agent and drops what
changes every time:

* kept: every tool call (name, a short title, its arguments), its outcome (status, exit code,
  the start and end of its output), the calls of subagents nested under the call that spawned
  them, the final response (the text the run ended on, after its last call), and whether the
  transcript is complete;
* normalised: timestamps, native ids (``toolu_…``, ``call_…``, UUIDs, long hex digests), temp
  directories, the run's working directory and home directories, durations (``3.2s``);
* redacted: secrets (API keys, bearer tokens, private keys..., as everywhere we render text);
* left out: thinking, intermediate messages, usage, line numbers.

``str(trajectory(t))`` is the canonical text. With syrupy installed (the ``snapshot`` extra),
``assert t == transcript_snapshot`` (the pytest plugin's fixture) stores it next to the test and
``pytest --snapshot-update`` rewrites it; a mismatch prints a step-level diff::

    trajectory differs from the snapshot: 1 step added, 1 removed
      Bash(npm install)
    - Read(src/Button.tsx)
    + Bash(npm test)
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import regex

from ._redact import redact
from .model import Subagent, ToolCall, Transcript
from .results import cut_middle

__all__ = [
    "Trajectory",
    "TrajectoryExtension",  # noqa: F822 - built on first access (module __getattr__): needs syrupy
    "TrajectoryStep",
    "call_title",
    "normalise",
    "step_diff",
    "trajectory",
]

#: Longest excerpt of a call's output kept in a snapshot (cut in the middle beyond it).
EXCERPT = 200
#: Longest argument value kept (cut in the middle beyond it).
ARGUMENT = 200
_ENDS_ON_CALLS = ": the last assistant text came before more tool calls"
#: Longest final response kept.
FINAL = 1000
#: Longest call title (``Bash(npm test)``).
TITLE = 80

_TIMESTAMP = regex.compile(
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b"
)
_UUID = regex.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_NATIVE_ID = regex.compile(r"\b(?:toolu|call|fc|msg|item|req|run|resp)_[A-Za-z0-9_-]{6,}\b")
_HEX = regex.compile(r"\b[0-9a-f]{16,}\b")
_TEMP = regex.compile(
    r"(?:(?:/private)?(?:/var/folders/[^/\s]+/[^/\s]+/T|/tmp|/var/tmp)|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp)"
    r"(?:[/\\](?:pytest-of-[^/\\\s]+[/\\]pytest-\d+|tmp[A-Za-z0-9_.-]*|[A-Za-z_.-]*\d[A-Za-z0-9_.-]*))?"
)
_HOME = regex.compile(r"(?:/Users|/home)/[^/\s'\"]+|[A-Za-z]:\\Users\\[^\\\s'\"]+")
_DURATION = regex.compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|s|secs?|seconds?|mins?|minutes?)(?![\w])"
)

#: Argument names that hold the path a file tool works on, in order of preference.
_PATH_KEYS = ("file_path", "path", "filePath", "absolute_path", "notebook_path", "target_file", "file", "filename")
#: Argument names that hold the main argument of other kinds of tools.
_MAIN_KEYS = {
    "search": ("pattern", "query", "path"),
    "web_search": ("query",),
    "web_fetch": ("url",),
    "subagent": ("description", "subagent_type", "prompt"),
    "skill": ("skill", "name", "command"),
    "ask_user": ("question",),
}


def normalise(text: str, *, cwd: str | None = None, durations: bool = True) -> str:
    """*text* with what changes from run to run replaced by placeholders.

    The working directory (when known) becomes ``<cwd>``, temp directories ``<tmp>``, home
    directories ``~``, ISO timestamps ``<timestamp>``, native ids and UUIDs ``<id>``, long hex
    digests ``<hex>``, and with *durations* (outputs, not the arguments an agent chose:
    ``sleep 2s`` stays) ``3.2s`` or ``120 ms`` ``<duration>``.
    """
    if cwd and len(cwd) > 1:
        text = text.replace(cwd.rstrip("/\\"), "<cwd>")
    text = _TEMP.sub("<tmp>", text)
    text = _HOME.sub("~", text)
    text = _TIMESTAMP.sub("<timestamp>", text)
    text = _UUID.sub("<id>", text)
    text = _NATIVE_ID.sub("<id>", text)
    text = _HEX.sub("<hex>", text)
    return _DURATION.sub("<duration>", text) if durations else text


@attrs.define(frozen=True, slots=True)
class TrajectoryStep:
    """One tool call in a trajectory.

    Attributes:
        title: ``Name(main argument)``, the line a step-level diff shows.
        lines: the arguments and the outcome, one item per line.
        subagents: ``(label, steps)`` for each subagent the call spawned.
    """

    title: str
    lines: tuple[str, ...] = ()
    subagents: tuple[tuple[str, tuple[TrajectoryStep, ...]], ...] = ()

    def render(self, indent: int = 0) -> Iterator[str]:
        pad = " " * indent
        yield pad + self.title
        for line in self.lines:
            yield f"{pad}  {line}"
        for label, steps in self.subagents:
            yield f"{pad}  {label}:"
            for step in steps:
                yield from step.render(indent + 4)


@attrs.define(frozen=True, slots=True)
class Trajectory:
    """The canonical form of a transcript; ``str()`` is the snapshot text."""

    header: tuple[str, ...]
    steps: tuple[TrajectoryStep, ...]
    final_response: str | None
    #: the run has assistant text, but none after its last tool call (``final_response`` is then None)
    ends_on_calls: bool = False

    def render(self) -> str:
        lines = list(self.header)
        lines.append("steps:" if self.steps else "steps: (none)")
        for step in self.steps:
            lines.extend(step.render(2))
        if self.final_response is None:
            lines.append(f"final response: (none{_ENDS_ON_CALLS if self.ends_on_calls else ''})")
        else:
            lines.append("final response:")
            lines.extend(_block(self.final_response, 2))
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.render()


def trajectory(
    t: Transcript,
    *,
    excerpt: int = EXCERPT,
    argument: int = ARGUMENT,
    final: int = FINAL,
    normalise_text: bool = True,
) -> Trajectory:
    """The canonical, redacted trajectory of *t* (see the module docstring for what it keeps).

    Args:
        excerpt: the longest output excerpt per call (cut in the middle beyond it; 0 keeps none).
        argument: the longest argument value (cut in the middle beyond it).
        final: the longest final response.
        normalise_text: replace run-specific values (ids, timestamps, paths...) by placeholders.
    """
    cwd = t.metadata.get("cwd") if isinstance(t.metadata.get("cwd"), str) else None

    def norm(text: str) -> str:
        text = redact(text)
        return normalise(text, cwd=cwd, durations=False) if normalise_text else text

    def norm_output(text: str) -> str:
        text = redact(text)
        return normalise(text, cwd=cwd) if normalise_text else text

    spawned: dict[str, list[Subagent]] = {}
    for sub in t.subagents:
        if sub.parent_call_id is not None:
            spawned.setdefault(sub.parent_call_id, []).append(sub)
    known_calls = {c.id for c in t.all_tool_calls}

    def steps_of(calls: Iterable[ToolCall], depth: int) -> tuple[TrajectoryStep, ...]:
        return tuple(step_of(c, depth) for c in calls)

    def step_of(call: ToolCall, depth: int) -> TrajectoryStep:
        lines = _arguments(call, norm, argument)
        lines.append("=> " + _outcome(call))
        if excerpt and call.output.strip():
            lines.extend(_block(cut_middle(norm_output(call.output.strip()), excerpt), 2))
        subs: list[tuple[str, tuple[TrajectoryStep, ...]]] = []
        if depth < 8:  # subagents of subagents, bounded against a cyclic log
            for sub in spawned.get(call.id, ()):
                subs.append((_subagent_label(sub), steps_of(sub.tool_calls, depth + 1)))
        return TrajectoryStep(call_title(call, norm), tuple(lines), tuple(subs))

    steps = list(steps_of(t.tool_calls, 0))
    # subagents whose spawning call is not in this file still show what they did
    for sub in t.subagents:
        if sub.parent_call_id is None or sub.parent_call_id not in known_calls:
            steps.append(
                TrajectoryStep(
                    "(subagent without a spawning call)", (), ((_subagent_label(sub), steps_of(sub.tool_calls, 1)),)
                )
            )
    header = [f"trajectory: {t.format} ({t.agent})"]
    problems = t.health.problems()
    header.append("health: complete" if not problems else "health: " + "; ".join(problems))
    fr = t.final_answer  # the answer the run ended on: text followed by more calls is not one
    return Trajectory(
        header=tuple(header),
        steps=tuple(steps),
        final_response=None if fr is None else cut_middle(norm_output(fr.strip()), final),
        ends_on_calls=fr is None and t.final_response is not None,
    )


def _block(text: str, indent: int) -> list[str]:
    pad = " " * indent
    return [f"{pad}| {line}".rstrip() for line in text.splitlines()] or [f"{pad}|"]


def _one_line(text: str, limit: int) -> str:
    """The first line of *text*, cut at *limit* characters; ``…`` says something was left out."""
    lines = text.strip().splitlines()
    first = lines[0] if lines else ""
    if len(first) > limit:
        return first[: max(limit - 1, 1)] + "…"
    return first + " …" if len(lines) > 1 else first


def call_title(call: ToolCall, norm: Callable[[str], str] = str) -> str:
    """``Bash(npm test)``, ``Read(<cwd>/src/Button.tsx)``, ``mcp__shop__refund(order_id=A-1)``:
    the tool's name and its main argument on one line (*norm* applied to the argument)."""
    args = call.arguments
    main: str | None = None
    if call.command is not None:
        main = call.command
    elif call.kind in ("file_read", "file_write", "file_edit"):
        main = next((args[k] for k in _PATH_KEYS if isinstance(args.get(k), str)), None)
        changes = args.get("changes")
        if main is None and isinstance(changes, list):  # Codex file_change: [{path, kind}, ...]
            paths = [c.get("path") for c in changes if isinstance(c, dict) and isinstance(c.get("path"), str)]
            main = ", ".join(str(p) for p in paths) or None
    elif call.kind in _MAIN_KEYS:
        main = next((args[k] for k in _MAIN_KEYS[call.kind] if isinstance(args.get(k), str)), None)
    if main is None:
        parts = [f"{k}={_short_value(v)}" for k, v in list(args.items())[:2]]
        if len(args) > 2:
            parts.append("...")
        main = ", ".join(parts)
    return f"{call.name}({_one_line(norm(main), max(TITLE - len(call.name), 20))})"


def _short_value(value: Any) -> str:
    text = value if isinstance(value, str) else _json(value)
    return _one_line(text, 40)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _arguments(call: ToolCall, norm: Any, limit: int) -> list[str]:
    """One ``name: value`` line per argument (JSON values, sorted names, long values cut)."""
    if not call.arguments:
        return [f"(raw): {_json(cut_middle(norm(call.raw_arguments), limit))}"] if call.raw_arguments else []

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            return norm(value)
        if isinstance(value, Mapping):
            return {str(k): clean(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [clean(v) for v in value]
        return value

    return [f"{k}: {cut_middle(_json(clean(call.arguments[k])), limit)}" for k in sorted(call.arguments, key=str)]


def _outcome(call: ToolCall) -> str:
    if call.result is None:
        return f"{call.status}, no result"
    parts = [call.status]
    if call.result.is_error and call.status not in ("failed", "declined"):
        parts.append("error")
    if call.exit_code is not None:
        parts.append(f"exit {call.exit_code}")
    return ", ".join(parts)


def _subagent_label(sub: Subagent) -> str:
    what = sub.type or "subagent"
    n = len(sub.tool_calls)
    return f"subagent {what} ({n} call{'s' if n != 1 else ''})"


# -- step-level diff ---------------------------------------------------------------------------


def _blocks(text: str) -> tuple[list[str], list[list[str]], list[str]] | None:
    """The header lines, the step blocks (a title line and its indented lines) and the final
    section of a trajectory text; ``None`` when the text is not one."""
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("steps:"))
        end = next(i for i, line in enumerate(lines) if line.startswith("final response:"))
    except StopIteration:
        return None
    blocks: list[list[str]] = []
    for line in lines[start + 1 : end]:
        if line.startswith("  ") and not line.startswith("   "):
            blocks.append([line[2:]])
        elif blocks:
            blocks[-1].append(line[2:])
        else:
            return None
    return lines[: start + 1], blocks, lines[end:]


def step_diff(received: str, snapshot: str, *, context: int = 1) -> list[str]:
    """A step-level diff of two trajectory texts: ``- Read(a.py)`` is in the snapshot only,
    ``+ Bash(npm test)`` in the received run only, ``~ Edit(b.py)`` is in both but differs
    (its differing lines follow). Unchanged steps are shown around changes and counted elsewhere.
    """
    new = _blocks(received)
    # no snapshot yet: every step is new
    old = _blocks(snapshot) if snapshot.strip() else ([], [], [])
    if new is None or old is None:  # not trajectories (an empty or hand-edited snapshot)
        return [
            line.rstrip("\n")
            for line in difflib.unified_diff(snapshot.splitlines(), received.splitlines(), "snapshot", "received", lineterm="")
        ]
    out: list[str] = []
    added = removed = changed = 0
    if old[0]:  # (no header when there is no snapshot yet)
        for a, b in zip(old[0], new[0], strict=False):
            if a != b:
                out.extend([f"- {a}", f"+ {b}"])
        out.extend(f"- {a}" for a in old[0][len(new[0]) :])
        out.extend(f"+ {b}" for b in new[0][len(old[0]) :])
    body: list[tuple[str, list[str]]] = []  # (kind, lines); unchanged steps can be folded
    # identical steps first; then, inside each differing stretch, steps by their titles
    whole = difflib.SequenceMatcher(a=["\n".join(b) for b in old[1]], b=["\n".join(b) for b in new[1]], autojunk=False)
    for op, i1, i2, j1, j2 in whole.get_opcodes():
        if op == "equal":
            body.extend(("same", [f"  {b[0]}"]) for b in new[1][j1:j2])
            continue
        olds, news = old[1][i1:i2], new[1][j1:j2]
        titles = difflib.SequenceMatcher(a=[b[0] for b in olds], b=[b[0] for b in news], autojunk=False)
        for op2, k1, k2, m1, m2 in titles.get_opcodes():
            if op2 == "equal":
                for ob, nb in zip(olds[k1:k2], news[m1:m2], strict=True):
                    changed += 1
                    inner = [
                        f"    {line[:2]}{line[4:]}"
                        for line in difflib.ndiff(ob[1:], nb[1:])
                        if line.startswith(("- ", "+ "))
                    ]
                    body.append(("change", [f"~ {nb[0]}", *inner]))
                continue
            for block in olds[k1:k2]:
                removed += 1
                body.append(("change", [f"- {block[0]}"]))
            for block in news[m1:m2]:
                added += 1
                body.append(("change", [f"+ {block[0]}"]))
    out.extend(_fold(body, context))
    if old[2] != new[2] and old[2]:
        out.append("~ final response")
        out.extend(
            f"    {line[:2]}{line[4:]}" for line in difflib.ndiff(old[2][1:], new[2][1:]) if line.startswith(("- ", "+ "))
        )
        if old[2][:1] != new[2][:1]:
            out.extend([f"    - {old[2][0]}", f"    + {new[2][0]}"])
    counts = [
        f"{n} step{'s' if n != 1 else ''} {word}"
        for n, word in ((added, "added"), (removed, "removed"), (changed, "changed"))
        if n
    ]
    if old[2] != new[2] and old[2]:
        counts.append("the final response changed")
    if old[0] != new[0] and old[0]:
        counts.insert(0, "the header changed")
    head = "trajectory differs from the snapshot: " + (", ".join(counts) or "whitespace only")
    return [head, *out]


def _fold(body: Sequence[tuple[str, list[str]]], context: int) -> list[str]:
    """Unchanged steps farther than *context* from a change become ``... N unchanged steps``."""
    near = [False] * len(body)
    for i, (kind, _) in enumerate(body):
        if kind == "change":
            for j in range(max(0, i - context), min(len(body), i + context + 1)):
                near[j] = True
    out: list[str] = []
    hidden = 0
    for (kind, lines), keep in zip(body, near, strict=True):
        if kind == "change" or keep:
            if hidden:
                out.append(f"  ... {hidden} unchanged step{'s' if hidden != 1 else ''}")
                hidden = 0
            out.extend(lines)
        else:
            hidden += 1
    if hidden:
        out.append(f"  ... {hidden} unchanged step{'s' if hidden != 1 else ''}")
    return out


# -- syrupy ----------------------------------------------------------------------------------


def _syrupy_extension() -> type[Any]:
    from ._optional import require

    require("syrupy", extra="snapshot", feature="trajectory snapshots")
    from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

    class TrajectoryExtension(SingleFileSnapshotExtension):
        """syrupy extension: one ``.trajectory`` text file per snapshot, a step-level diff on
        mismatch. Serialises a ``Transcript`` (with the default limits) or a ``Trajectory``."""

        file_extension = "trajectory"
        _write_mode = WriteMode.TEXT

        def serialize(self, data: Any, **_: Any) -> str:
            if isinstance(data, Transcript):
                data = trajectory(data)
            if isinstance(data, Trajectory):
                return data.render()
            raise TypeError(
                f"a trajectory snapshot compares a Transcript or a Trajectory, not {type(data).__name__}"
            )

        def diff_lines(self, serialized_data: Any, snapshot_data: Any) -> Iterator[str]:
            yield from step_diff(str(serialized_data), str(snapshot_data or ""))

    TrajectoryExtension.__module__ = __name__
    TrajectoryExtension.__qualname__ = "TrajectoryExtension"
    return TrajectoryExtension


def __getattr__(name: str) -> Any:
    # The syrupy extension is built on first use: importing this module does not need syrupy.
    if name == "TrajectoryExtension":
        cls = _syrupy_extension()
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
