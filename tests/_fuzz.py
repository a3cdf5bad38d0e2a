"""Mutations of real transcripts, and the three laws every mutant must keep.

Used by ``tests/test_fuzz.py`` (hypothesis draws the mutations) and by hand for long runs. A
*seed* is a real sample file as JSONL lines (the JSON-array samples of Claude stream-json are
written one record per line, as the CLI streams them). A *mutant* is the seed damaged the way
files get damaged: cut, torn, lines deleted, duplicated or swapped, the record of a call deleted,
a value of the wrong type, deep nesting, special numbers, lines of another format mixed in.

The laws (``check_laws``):

1. no exception escapes ``parse``, ``summary`` (text and ``--json``), the health checks and the
   negative checks, except a ``TranscriptError`` naming the input;
2. a mutant that lost a call, or the end record of its run, is never ``health.complete`` when
   the seed was;
3. a negative check about a call the mutant lost is never PASS.

Law 2 needs something in the file that shows the loss. A cut at a line boundary of a format that
writes no end-of-run record (Claude session logs, chat files) removes whole turns and leaves a
file that is a valid shorter run: nothing can tell it from a run that stopped there (see the
formats pages). Those mutants are exempt from law 2 (``undetectable``), never from laws 1 and 3's
"no exception".
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
from hypothesis import strategies as st

import agenteval_assert as aa
from agenteval_assert import checks as c
from agenteval_assert._cli import _dump_json, _print_summary, summary_dict
from agenteval_assert._health import health_checks
from agenteval_assert.results import Status

ROOT = Path(__file__).resolve().parent.parent

#: Seed files: one or more per line-oriented format, small enough to parse thousands of times.
SEED_FILES = (
    "samples/replay/confirm-before-saving/baseline.jsonl",
    "samples/replay/another-users-order/faulty.jsonl",
    "samples/replay/product-search/baseline.jsonl",
    "samples/claude-session/spotter-2.1.38-short.jsonl",
    "samples/replay/missing-information/faulty.jsonl",
    "samples/replay/saving-twice/faulty.jsonl",
    "samples/replay/query-timed-out/baseline.jsonl",
    "samples/codex-exec/agentcmd-stream-output-3-file-change.jsonl",
    "samples/claude-stream-json/terragon-1.0.x-bash-errors.json",
    "tests/corpus/codex-rollout/localpush-0.104-desktop-exec-command-sanitized.jsonl",
    "tests/corpus-more/gemini-stream-json/untether-synthetic-tools-success.jsonl",
    "samples/opencode/takopi-run-json-bash-echo.jsonl",
    "samples/cursor-cli/cursor-hack-parallel-shell.jsonl",
    "samples/amp/untether-synthetic-bash-success.jsonl",
    "samples/openai-chat/chat-tool-calls.jsonl",
    "samples/openai-responses/responses-items.jsonl",
    # JSON arrays of records, written one record per line like the Claude stream-json ones
    "samples/openhands/runtime-trajs-wrong-initial-state.json",
    "samples/anthropic-messages/messages-tool-use.json",
)
# The formats whose files are one JSON document (SWE-agent and mini-swe-agent trajectories,
# inspect_ai logs, Gemini chat files, the API request/response dumps...) are damaged at their key
# paths by ``tests/test_odd_input.py``: a line-level mutation of a document only breaks its JSON.

MUTATIONS = (
    "cut",  # the last lines removed (a cut at a line boundary)
    "tear",  # the file ends inside a line
    "delete",  # one line removed
    "duplicate",  # one line written twice
    "swap",  # two neighbouring lines in the other order
    "delete_call",  # the line that records a call removed
    "retype",  # a value (the record type included) of another JSON type
    "nest",  # a value wrapped in deep nesting
    "number",  # a number replaced by NaN, Infinity, 1e400 or a huge integer
    "mix",  # lines of another format inserted
)


@attrs.define(frozen=True)
class Seed:
    name: str
    lines: tuple[bytes, ...]
    transcript: aa.Transcript

    @property
    def data(self) -> bytes:
        return b"".join(self.lines)


def _jsonl_lines(path: Path) -> list[bytes]:
    raw = path.read_bytes()
    if raw.lstrip()[:1] == b"[":
        return [json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in json.loads(raw)]
    return raw.splitlines(keepends=True)


def load_seeds() -> tuple[Seed, ...]:
    seeds = []
    for rel in SEED_FILES:
        lines = tuple(_jsonl_lines(ROOT / rel))
        t = aa.parse(b"".join(lines), path=Path(rel).name)
        seeds.append(Seed(rel, lines, t))
    return tuple(seeds)


@attrs.define
class Mutant:
    seed: Seed
    kind: str
    what: str
    data: bytes
    #: a cut at a line boundary of a format with no end record: nothing in the file shows it
    undetectable: bool = False

    def __repr__(self) -> str:
        return f"Mutant({self.seed.name}: {self.kind} {self.what})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        # hypothesis prints a failing example with its pretty printer: the short form, not the
        # whole file (a repr past 30 kB is a warning, an error under -W error, that hid the failure)
        p.text(repr(self))


# -- mutations ---------------------------------------------------------------------------------


def _paths(value: Any, limit: int = 200) -> list[tuple[Any, ...]]:
    """Paths (keys and indexes) to the nodes of a JSON value, breadth first, at most *limit*."""
    out: list[tuple[Any, ...]] = []
    queue: list[tuple[tuple[Any, ...], Any]] = [((), value)]
    while queue and len(out) < limit:
        path, v = queue.pop(0)
        if path:
            out.append(path)
        if isinstance(v, dict):
            queue.extend(((*path, k), x) for k, x in v.items())
        elif isinstance(v, list):
            queue.extend(((*path, i), x) for i, x in enumerate(v[:20]))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        value = value[k]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for k in path[:-1]:
        value = value[k]
    value[path[-1]] = new


_RETYPES: tuple[Callable[[Any], Any], ...] = (
    lambda v: [v],
    lambda v: {"value": v},
    # a string where there was none is a valid value, not a damaged one: only other values
    lambda v: (json.dumps(v) if v is not None else [None]) if not isinstance(v, str) else 7,
    lambda v: None,
    lambda v: True,
    lambda v: [] if isinstance(v, dict) else {},
)

SPECIAL_NUMBERS: tuple[Any, ...] = (math.nan, math.inf, -math.inf, 1e400, 10**4000, -(10**20), 2**64)


@contextlib.contextmanager
def unlimited_int_digits() -> Iterator[None]:
    """Lift the integer-string conversion limit (3.10.7+, 3.11+) while test data is written."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:
        yield
        return
    old = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def _dump(value: Any) -> bytes:
    # NaN, Infinity and huge integers are what Python's own json writes (and reads back)
    with unlimited_int_digits():
        return json.dumps(value, ensure_ascii=False).encode()


def call_lines(seed: Seed) -> list[int]:
    """0-based indexes of the seed's lines that record a call (its location)."""
    return sorted({c.location.line - 1 for c in seed.transcript.all_tool_calls if 1 <= c.location.line <= len(seed.lines)})


@st.composite
def mutants(draw: st.DrawFn, seeds: tuple[Seed, ...], kinds: tuple[str, ...] = MUTATIONS) -> Mutant:
    seed = draw(st.sampled_from(seeds))
    kind = draw(st.sampled_from(kinds))
    return draw(mutant_of(seed, kind, seeds))


@st.composite
def mutant_of(draw: st.DrawFn, seed: Seed, kind: str, seeds: tuple[Seed, ...]) -> Mutant:
    lines = list(seed.lines)
    n = len(lines)
    ended = seed.transcript.health.run_ended is True
    if kind == "cut":
        k = draw(st.integers(1, max(1, n - 1)))
        return Mutant(seed, kind, f"last {k} line(s)", b"".join(lines[: n - k]), undetectable=not ended)
    if kind == "tear":
        i = draw(st.integers(0, n - 1))
        body = lines[i].rstrip(b"\n")
        j = draw(st.integers(1, max(1, len(body) - 1)))
        return Mutant(seed, kind, f"line {i + 1} at byte {j}", b"".join(lines[:i]) + body[:j])
    if kind in ("delete", "duplicate", "swap"):
        i = draw(st.integers(0, n - 2 if kind == "swap" else n - 1))
        if kind == "delete":
            # the last line removed is a cut at a line boundary
            return Mutant(seed, kind, f"line {i + 1}", b"".join(lines[:i] + lines[i + 1 :]),
                          undetectable=i == n - 1 and not ended)
        if kind == "duplicate":
            return Mutant(seed, kind, f"line {i + 1}", b"".join(lines[: i + 1] + lines[i:]))
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return Mutant(seed, kind, f"lines {i + 1}-{i + 2}", b"".join(lines))
    if kind == "delete_call":
        where = call_lines(seed)
        if not where:
            return draw(mutant_of(seed, "delete", seeds))
        i = draw(st.sampled_from(where))
        return Mutant(seed, kind, f"line {i + 1}", b"".join(lines[:i] + lines[i + 1 :]),
                      undetectable=i == n - 1 and not ended)
    if kind == "mix":
        other = draw(st.sampled_from([s for s in seeds if s.transcript.format != seed.transcript.format]))
        k = draw(st.integers(1, min(12, len(other.lines))))
        at = draw(st.sampled_from([0, n // 2, n]))
        extra = [ln if ln.endswith(b"\n") else ln + b"\n" for ln in other.lines[:k]]
        body = lines[:at] + extra + lines[at:]
        if body and not body[-1].endswith(b"\n"):
            body[-1] += b"\n"
        return Mutant(seed, kind, f"{k} line(s) of {other.name} at line {at + 1}", b"".join(body))
    # the JSON-level mutations: one node of one record
    i = draw(st.integers(0, n - 1))
    try:
        rec = json.loads(lines[i])
    except ValueError:
        return Mutant(seed, "duplicate", f"line {i + 1}", b"".join(lines[: i + 1] + lines[i:]))
    paths = _paths(rec)
    if kind == "retype":
        # the record's own type first: `type` as a list or an object is a classic
        path = ("type",) if "type" in rec and draw(st.booleans()) else (draw(st.sampled_from(paths)) if paths else ())
        if not path:
            new: Any = [rec]
            rec = new
        else:
            _set(rec, path, draw(st.sampled_from(_RETYPES))(_get(rec, path)))
        what = f"line {i + 1} at {'/'.join(map(str, path)) or 'the record'}"
    elif kind == "nest":
        depth = draw(st.sampled_from([50, 400, 900, 990, 1100, 5000]))
        path = draw(st.sampled_from(paths)) if paths else ()
        inner = _get(rec, path) if path else None
        for _ in range(depth):
            inner = [inner]
        if path:
            _set(rec, path, inner)
        else:
            rec = {"type": rec.get("type") if isinstance(rec, dict) else None, "deep": inner}
        what = f"line {i + 1} at {'/'.join(map(str, path))}, {depth} levels"
        # json.dumps would recurse: the nesting is written as text
        text = _dump(rec) if depth < 500 else _nest_text(rec, path, depth)
        return Mutant(seed, kind, what, b"".join([*lines[:i], text + b"\n", *lines[i + 1 :]]))
    else:  # number
        nums = [p for p in paths if isinstance(_get(rec, p), (int, float)) and not isinstance(_get(rec, p), bool)]
        path = draw(st.sampled_from(nums)) if nums else (draw(st.sampled_from(paths)) if paths else ())
        special = draw(st.sampled_from(SPECIAL_NUMBERS))
        if path:
            _set(rec, path, special)
        what = f"line {i + 1} at {'/'.join(map(str, path))} = {'huge int' if isinstance(special, int) and abs(special) > 2**70 else special!r}"
    body = _dump(rec) + b"\n"
    return Mutant(seed, kind, what, b"".join([*lines[:i], body, *lines[i + 1 :]]))


def _nest_text(rec: Any, path: tuple[Any, ...], depth: int) -> bytes:
    marker = "__NEST_HERE__"
    leaf = _get(rec, path)
    while isinstance(leaf, list) and len(leaf) == 1:
        leaf = leaf[0]
    _set(rec, path, marker)
    text = _dump(rec).decode()
    inner = "[" * depth + json.dumps(leaf) + "]" * depth
    return text.replace(json.dumps(marker), inner, 1).encode()


# -- the laws ------------------------------------------------------------------------------------


def _names(t: aa.Transcript) -> Counter[str]:
    """How many calls of each tool (a call whose name was damaged counts as lost)."""
    return Counter(x.name for x in t.all_tool_calls)


@attrs.define
class Verdict:
    mutant: Mutant
    transcript: aa.Transcript | None
    lost: list[str]
    violations: list[str]


def check_laws(m: Mutant) -> Verdict:
    """Parse *m* and everything the CLI would do with it; return the violated laws (none, one day)."""
    seed = m.seed.transcript
    try:
        t = aa.parse(m.data, path="mutant.jsonl")
    except aa.TranscriptError as exc:
        assert str(exc).startswith("mutant.jsonl"), exc
        return Verdict(m, None, [], [])
    violations: list[str] = []
    # law 1: what `summary`, `summary --json` and `check` do must not raise
    buf = io.StringIO()
    _print_summary(t, buf)
    doc = summary_dict(t)
    out = io.StringIO()
    _dump_json(doc, out)
    json.loads(out.getvalue(), parse_constant=_no_constants)  # strict JSON: no NaN/Infinity
    results = list(health_checks(t))
    results.append(c.check_no_tool_errors(t))
    results.append(c.check_budget(t, max_tool_calls=max(len(seed.all_tool_calls), 1), max_tokens=10**9,
                                  max_cost_usd=1e6))
    for r in results:
        r.render()
        r.to_dict()
    # law 2: losses show
    lost = sorted((_names(seed) - _names(t)).elements())
    if seed.health.complete and t.health.complete and not m.undetectable:
        if lost:
            violations.append(f"lost {lost} but complete")
        if seed.health.run_ended is True and t.health.run_ended is not True:
            violations.append("lost its end but complete")
    # law 3: a negative check about a lost call never passes
    if not m.undetectable:
        for name in sorted(set(lost)):
            r = c.check_tool_not_called(t, name, include_subagents=True)
            if r.status is Status.PASS:
                violations.append(f"check_tool_not_called({name!r}) passed")
    return Verdict(m, t, lost, violations)


def _no_constants(name: str) -> Any:
    raise ValueError(f"not strict JSON: {name}")
