"""An HTML report of a run: one self-contained file (inline CSS and JavaScript, no network).

``write_html(results, path)`` takes the run's results, one per transcript: a ``TranscriptResult``
(the run model of ``check``, ``check_many`` and the pytest plugin; the transcript is read again,
one at a time, for its timeline), a ``(TranscriptResult, Transcript)`` pair, or a
``(name, Transcript, check results)`` triple; and writes a page with

* a run overview: the pass rate over transcripts, a bar per status for transcripts and for
  checks, filters by status and by check, and a table of the transcripts;
* per transcript: its checks with their evidence, each item linked to the step it cites, and
  a timeline of the steps (messages, folded thinking, tool calls with their arguments and
  results, errors highlighted, subagents as collapsible nested timelines), each cited step
  linking back to the checks that cite it; usage and cost where the log states them.

Secrets (API keys, bearer tokens, private keys...) are redacted everywhere on the page
(``agenteval_assert._redact``; ``AGENTEVAL_NO_REDACT=1`` turns it off). Long outputs are folded and cut at ``MAX_OUTPUT`` characters (saying how much was left out);
past ``LAZY_AFTER`` steps a timeline renders in chunks of ``CHUNK`` steps as they scroll into
view (or as an evidence link needs one), so a transcript of 50,000 steps stays responsive.

Templates are Jinja2 (``pip install 'agenteval-assert[html]'``), imported only when a report
is written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from .._redact import redact, redact_json
from ..model import Location, Message, Step, Thinking, ToolCall, Transcript
from ..results import Evidence
from ._model import CheckEntry, RunTotals, SkippedCheck, TranscriptResult, check_status

__all__ = ["html_parts", "render_html", "write_html"]

#: Output characters kept per tool result before the rest is cut (and counted).
MAX_OUTPUT = 20_000
#: Output lines or characters above which a result starts folded.
FOLD_LINES = 12
FOLD_CHARS = 1_200
#: Steps a timeline renders at once; past this, the rest renders in chunks as needed.
LAZY_AFTER = 2_000
CHUNK = 500

#: Transcript statuses as the page shows them, in order (skipped files are listed apart).
_TRANSCRIPT_STATUSES = ("failed", "error", "inconclusive", "passed", "unreadable", "crashed")
#: Check statuses, in order.
_CHECK_STATUSES = ("fail", "error", "inconclusive", "pass", "skip")
#: A check's status in the words of the transcript filter (a skipped check is not a failure).
_AS_TRANSCRIPT = {"pass": "passed", "fail": "failed", "inconclusive": "inconclusive", "error": "error", "skip": "passed"}

Item = TranscriptResult | tuple[TranscriptResult, Transcript | None] | tuple[str, Transcript, Sequence[CheckEntry]]


@attrs.define
class _Entry:
    """One transcript of the run: its result, and its parsed transcript when the caller has it
    (else it is read again when its section is written, and dropped after)."""

    result: TranscriptResult
    transcript: Transcript | None = None
    given: bool = False

    def load(self) -> tuple[Transcript | None, str | None]:
        """The transcript for the timeline, or ``None`` and why there is none."""
        r = self.result
        if self.given or r.problem is not None:
            return self.transcript, None
        try:
            if r.kind == "sandbox":
                from ..storybook import EvalContext

                return EvalContext.from_sandbox(r.path).transcript, None
            from .._parsers import load

            return load(r.name), None
        except Exception as exc:  # noqa: BLE001 - the report still shows the checks
            return None, f"the timeline could not be read again: {type(exc).__name__}: {exc}"


def _entry(x: Item) -> _Entry:
    if isinstance(x, TranscriptResult):
        return _Entry(x)
    if len(x) == 2:
        r, t = x
        return _Entry(r, t, given=True)
    name, t, checks = x
    return _Entry(TranscriptResult.of(t, checks, name=name), t, given=True)


# -- the view model: plain data the template only lays out --------------------------------------


def _fold(text: str) -> bool:
    return len(text) > FOLD_CHARS or text.count("\n") >= FOLD_LINES


def _cap(text: str, limit: int = MAX_OUTPUT) -> tuple[str, int]:
    """*text* cut at *limit* characters, and how many were left out."""
    if len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


def _first_line(text: str, limit: int = 160) -> str:
    stripped = text.strip()
    first = stripped.splitlines()[0] if stripped else ""
    if len(first) > limit:
        return first[: limit - 1] + "…"
    return first + (" …" if "\n" in stripped else "")


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def _call_title(call: ToolCall) -> str:
    """``Bash(npm test)``: the name and the main argument (the outcome has its own badge)."""
    from ..snapshot import call_title

    return call_title(call, redact)  # redacted before it is cut: no half key survives


class _Builder:
    """Turns one transcript and its results into the dicts the template lays out."""

    def __init__(self, n: int, result: TranscriptResult, transcript: Transcript | None, note: str | None) -> None:
        self.n = n
        self.result = result
        self.t = transcript
        self.note = note
        self.cited: dict[int, list[dict[str, str]]] = {}
        self._by_location: dict[tuple[str, int], int] = {}
        if self.t is not None:
            for i, s in enumerate(self.t.steps):
                self._by_location.setdefault(_key(s.location), i)
                if isinstance(s, ToolCall) and s.result is not None and s.result.location is not None:
                    self._by_location.setdefault(_key(s.result.location), i)

    def step_id(self, i: int) -> str:
        return f"t{self.n}-s{i}"

    def step_of(self, ev: Evidence) -> int | None:
        """The index of the step *ev* cites: its step, its call's step, or the step at its line."""
        t = self.t
        if t is None:
            return None
        if ev.step is not None and 0 <= ev.step < len(t.steps):
            return ev.step
        if ev.call_id is not None:
            call = t.call(ev.call_id)
            if call is not None:
                return call.step
        if ev.location is not None:
            return self._by_location.get(_key(ev.location))
        return None

    def evidence(self, ev: Evidence, check_id: str, check: CheckEntry) -> dict[str, Any]:
        i = self.step_of(ev)
        if i is not None:
            self.cited.setdefault(i, []).append({"id": check_id, "name": check.name, "status": check_status(check)})
        return {
            "where": str(ev.location) if ev.location is not None else "",
            "text": redact(ev.text),
            "detail": redact(ev.detail),
            "target": self.step_id(i) if i is not None else None,
        }

    def checks(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for k, r in enumerate(self.result.checks):
            cid = f"t{self.n}-c{k}"
            if isinstance(r, SkippedCheck):
                out.append(
                    {"id": cid, "name": r.name, "status": "skip", "summary": redact(r.reason) or "skipped",
                     "vacuous": False, "notes": [], "check": "", "evidence": [], "nearest_miss": None}
                )
                continue
            nm = r.nearest_miss
            out.append(
                {
                    "id": cid,
                    "name": r.name,
                    "status": r.status.value,
                    "summary": redact(r.summary),
                    "vacuous": r.vacuous,
                    "notes": [redact(n) for n in r.notes],
                    "check": redact(r.check),
                    "evidence": [self.evidence(e, cid, r) for e in r.evidence],
                    "nearest_miss": None
                    if nm is None
                    else {
                        "evidence": self.evidence(nm.evidence, cid, r),
                        "differences": [redact(d.render()) for d in nm.differences],
                    },
                }
            )
        return out

    def step(self, i: int, s: Step) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.step_id(i),
            "index": i,
            "where": str(s.location),
            "cited_by": self.cited.get(i, []),
            "children": [],
            "error": False,
            "meta": False,
            "cut": 0,
            "fold": False,
        }
        if isinstance(s, Message):
            full = redact(s.text)
            text, cut = _cap(full)
            d.update(kind=s.role, meta=s.meta, text=text, cut=cut, fold=_fold(full), first=_first_line(full))
        elif isinstance(s, Thinking):
            full = redact(s.text)
            text, cut = _cap(full)
            d.update(kind="thinking", text=text, cut=cut, first=_first_line(full, 100))
        else:
            output = redact(s.output)
            out, cut = _cap(output)
            status = s.status
            if s.result is not None and s.result.is_error and status not in ("failed", "declined"):
                status += ", error"
            if s.exit_code is not None:
                status += f", exit {s.exit_code}"
            d.update(
                kind="call",
                name=s.name,
                title=_call_title(s),
                status=status,
                error=s.is_error,
                answered=s.result is not None,
                args=_json(redact_json(dict(s.arguments))) if s.arguments else redact(s.raw_arguments or ""),
                output=out,
                cut=cut,
                fold=_fold(output),
                first=_first_line(output),
                result_where=str(s.result.location) if s.result is not None and s.result.location else "",
            )
        return d

    def timeline(self) -> list[dict[str, Any]]:
        """The main agent's steps; each subagent's steps nested under the call that spawned it
        (or, when that call is not in the file, as a block where its first step is)."""
        t = self.t
        if t is None:
            return []
        parent_of = {sub.id: sub.parent_call_id for sub in t.subagents}
        label_of = {
            sub.id: " ".join(filter(None, ["subagent", sub.type])) + (f" ({sub.description})" if sub.description else "")
            for sub in t.subagents
        }
        top: list[dict[str, Any]] = []
        by_call: dict[str, dict[str, Any]] = {}
        groups: dict[str, dict[str, Any]] = {}
        for i, s in enumerate(t.steps):
            d = self.step(i, s)
            if isinstance(s, ToolCall):
                by_call.setdefault(s.id, d)
            agent = s.agent_id
            if agent is None:
                top.append(d)
                continue
            group = groups.get(agent)
            if group is None:
                group = groups[agent] = {
                    "label": label_of.get(agent) or f"subagent {agent}",
                    "agent": agent,
                    "steps": [],
                    "errors": 0,
                }
                parent = by_call.get(parent_of.get(agent) or "")
                if parent is not None:
                    parent["children"].append(group)
                else:
                    top.append({"kind": "subagent", "group": group, "id": f"t{self.n}-a{len(groups)}"})
            group["steps"].append(d)
            if d.get("error"):
                group["errors"] += 1
        # subagents known from the log with no step in this file (their calls are elsewhere)
        for sub in t.subagents:
            if sub.id not in groups:
                parent = by_call.get(sub.parent_call_id or "")
                if parent is not None:
                    parent["children"].append(
                        {"label": label_of[sub.id], "agent": sub.id, "steps": [], "errors": 0}
                    )
        return top

    def build(self) -> dict[str, Any]:
        r, t = self.result, self.t
        checks = self.checks()  # before the timeline: steps learn which checks cite them
        d: dict[str, Any] = {
            "id": f"t{self.n}",
            "name": r.name,
            "status": r.status.value,
            "error": None if r.error is None else redact(r.error),
            "notes": [*r.notes, *([self.note] if self.note else [])],
            "checks": checks,
            "counts": r.counts(),
            "check_statuses": _check_statuses(r.checks),
            "chunks": [],
            "steps": r.steps or 0,
            "facts": [],
            "problems": list(r.health.problems) if r.health is not None else [],
            "run_errors": [],
            "final": None,
        }
        if r.format is not None:
            d["facts"].append(("format", f"{r.format} ({r.agent})"))
        if r.eval is not None:
            d["facts"].append(("eval", r.eval))
        if t is None:
            return d
        timeline = self.timeline()
        chunks = [timeline]
        if len(t.steps) > LAZY_AFTER:
            chunks = [timeline[k : k + CHUNK] for k in range(0, len(timeline), CHUNK)]
        u = t.usage
        usage = []
        for label, v in (
            ("input", u.input_tokens),
            ("output", u.output_tokens),
            ("cache read", u.cache_read_tokens),
            ("cache write", u.cache_write_tokens),
            ("reasoning", u.reasoning_tokens),
        ):
            if v is not None:
                usage.append(f"{v:,} {label}")
        facts = [("format", f"{t.format} ({t.agent})")]
        if r.eval is not None:
            facts.append(("eval", r.eval))
        if t.model:
            facts.append(("model", t.model))
        n_sub = len(t.all_tool_calls) - len(t.tool_calls)
        facts.append(("steps", f"{len(t.steps)} ({len(t.tool_calls)} tool calls, {n_sub} by subagents)"))
        if usage:
            facts.append(("tokens", ", ".join(usage) + f" ({t.health.usage_mode})"))
        if u.cost_usd is not None:
            facts.append(("cost", f"${u.cost_usd:.4f}"))
        run_errors = []
        for msg, loc in t.errors:
            i = self._by_location.get(_key(loc))
            run_errors.append({"text": redact(msg), "where": str(loc), "target": self.step_id(i) if i is not None else None})
        d.update(
            chunks=chunks,
            steps=len(t.steps),
            facts=facts,
            problems=t.health.problems(),
            run_errors=run_errors,
            final=None if t.final_response is None else redact(t.final_response),
        )
        return d


def _key(loc: Location) -> tuple[str, int]:
    """A location compared whatever the spelling of its path (relative or absolute)."""
    return (os.path.abspath(loc.path), loc.line)


_RANK = {"failed": 4, "error": 3, "inconclusive": 2, "passed": 1}


def _check_statuses(checks: Sequence[CheckEntry]) -> str:
    """``{check name: status}`` (JSON) for the check filter, in the transcript filter's words; a
    check that ran several times counts with its worst status."""
    out: dict[str, str] = {}
    for c in checks:
        status = _AS_TRANSCRIPT[check_status(c)]
        if c.name not in out or _RANK[status] > _RANK[out[c.name]]:
            out[c.name] = status
    return json.dumps(out, ensure_ascii=False, sort_keys=True)


def _overview(results: Sequence[TranscriptResult], skipped: Sequence[TranscriptResult]) -> dict[str, Any]:
    totals = RunTotals()
    for r in [*results, *skipped]:
        totals.add(r)
    by_status = dict.fromkeys(_TRANSCRIPT_STATUSES, 0)
    names: dict[str, None] = {}
    rows = []
    for n, r in enumerate(results):
        by_status[r.status.value] += 1
        for c in r.checks:
            names.setdefault(c.name, None)
        rows.append(
            {"id": f"t{n}", "name": r.name, "status": r.status.value, "counts": r.counts(),
             "check_statuses": _check_statuses(r.checks)}
        )
    total = totals.transcripts
    shown = [(s, n) for s, n in by_status.items() if n or s not in ("unreadable", "crashed")]
    n_checks = totals.total_checks
    return {
        "summary": totals.summary_line(),
        "transcripts": total,
        "by_status": [(s, n, 100 * n / total if total else 0) for s, n in shown],
        "checks": n_checks,
        "check_bars": [
            (s, totals.checks[s], 100 * totals.checks[s] / n_checks if n_checks else 0)
            for s in _CHECK_STATUSES
            if totals.checks[s] or s != "skip"
        ],
        "check_names": sorted(names),
        "rows": rows,
        "skipped": [f"{r.name}: {r.error}" if r.error else r.name for r in skipped],
    }


def html_parts(items: Iterable[Item], *, title: str = "agenteval-assert report") -> Iterator[str]:
    """The page in pieces: the overview, then one section per transcript, then the script; a
    section's transcript is read (when the caller did not give it), laid out and dropped one
    transcript at a time."""
    from .._optional import require

    jinja2 = require("jinja2", extra="html", feature="the HTML report")
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("agenteval_assert.reporting", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    entries: list[_Entry] = []
    skipped: list[TranscriptResult] = []
    for x in items:
        e = _entry(x)
        if e.result.problem == "skipped":  # a file no format reads: listed, not a section
            skipped.append(e.result)
        else:
            entries.append(e)
    yield env.get_template("head.html.j2").render(
        title=title, overview=_overview([e.result for e in entries], skipped)
    )
    section = env.get_template("section.html.j2")
    for n, e in enumerate(entries):
        transcript, note = e.load()
        yield section.render(t=_Builder(n, e.result, transcript, note).build())
        e.transcript = None if not e.given else e.transcript  # a transcript read here is dropped
    yield env.get_template("tail.html.j2").render()


def render_html(items: Iterable[Item], *, title: str = "agenteval-assert report") -> str:
    """The report page for *items* (see the module docstring), as one string."""
    return "".join(html_parts(items, title=title))


def write_html(items: Iterable[Item], path: str | os.PathLike[str], *, title: str = "agenteval-assert report") -> None:
    """Write the report page for *items* to *path* (UTF-8), one transcript's section at a time."""
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(html_parts(items, title=title))
