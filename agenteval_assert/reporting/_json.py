"""The JSON form of a run (``run-result.schema.json``), whole or streamed, and back."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any, TextIO

from .._version import __version__
from ..model import Location
from ..results import CheckResult, Difference, Evidence, NearestMiss, Status
from ._model import (
    SCHEMA_ID,
    CheckEntry,
    HealthSummary,
    RunTotals,
    SkippedCheck,
    TranscriptResult,
    check_to_dict,
    result_to_dict,
    totals_to_dict,
)

__all__ = [
    "JsonWriter",
    "check_to_dict",
    "result_from_dict",
    "result_to_dict",
    "run_to_dict",
    "schema",
    "totals_to_dict",
]


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the run document, shipped as ``run-result.schema.json``."""
    from importlib import resources  # start-up: the schema is read on use only

    text = resources.files(__package__).joinpath("run-result.schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _header() -> dict[str, Any]:
    return {"schema": SCHEMA_ID, "tool": {"name": "agenteval-assert", "version": __version__}}


def run_to_dict(results: Iterable[TranscriptResult]) -> dict[str, Any]:
    """The whole document for *results* (held in memory; ``JsonWriter`` streams instead)."""
    totals = RunTotals()
    transcripts: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for r in results:
        totals.add(r)
        if r.problem == "skipped":
            skipped.append({"path": r.name, "reason": r.error or ""})
        else:
            transcripts.append(result_to_dict(r))
    return {**_header(), "transcripts": transcripts, "skipped": skipped, "totals": totals_to_dict(totals)}


class JsonWriter:
    """Writes the run document to *out* as results arrive: nothing but skipped paths is held.

    ``add`` each result, then ``close``; the output is byte-for-byte ``json.dumps(run_to_dict(...),
    indent=2)`` of the same results.
    """

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self.totals = RunTotals()
        self._skipped: list[dict[str, Any]] = []
        self._first = True
        head = json.dumps(_header(), indent=2, ensure_ascii=False)
        out.write(head[:-2] + ',\n  "transcripts": [')

    def add(self, r: TranscriptResult) -> None:
        self.totals.add(r)
        if r.problem == "skipped":
            self._skipped.append({"path": r.name, "reason": r.error or ""})
            return
        body = json.dumps(result_to_dict(r), indent=2, ensure_ascii=False)
        self._out.write(("\n" if self._first else ",\n") + _indent(body, 4))
        self._first = False

    def close(self) -> None:
        tail = {"skipped": self._skipped, "totals": totals_to_dict(self.totals)}
        text = json.dumps(tail, indent=2, ensure_ascii=False)
        self._out.write(("]" if self._first else "\n  ]") + ",\n" + text[2:] + "\n")


def _indent(text: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + line for line in text.splitlines())


# -- reading back --------------------------------------------------------------------------


def _evidence(d: dict[str, Any]) -> Evidence:
    loc = Location(d["path"], d["line"]) if d.get("path") is not None and d.get("line") is not None else None
    return Evidence(text=d["text"], location=loc, call_id=d.get("call_id"), step=d.get("step"),
                    detail=d.get("detail") or "")


def _check(d: dict[str, Any]) -> CheckEntry:
    if d["status"] == "skip":
        return SkippedCheck(d["name"], d.get("summary") or "")
    nm = d.get("nearest_miss")
    return CheckResult(
        name=d["name"],
        status=Status(d["status"]),
        summary=d["summary"],
        expected=d.get("expected") or "",
        found=d.get("found") or "",
        evidence=tuple(_evidence(e) for e in d.get("evidence", ())),
        nearest_miss=None
        if nm is None
        else NearestMiss(
            _evidence(nm["evidence"]),
            tuple(Difference(x["path"], x["expected"], x["found"]) for x in nm.get("differences", ())),
        ),
        vacuous=bool(d.get("vacuous")),
        notes=tuple(d.get("notes", ())),
        check=d.get("check") or "",
    )


def result_from_dict(d: dict[str, Any]) -> TranscriptResult:
    """A ``TranscriptResult`` from its JSON form (``result_to_dict``); the round trip is exact."""
    h = d.get("health")
    status = d["status"]
    problem = status if status in ("unreadable", "crashed", "skipped") else None
    return TranscriptResult(
        name=d["name"],
        path=d["path"],
        member=d.get("member"),
        kind=d.get("kind", "transcript"),
        format=d.get("format"),
        agent=d.get("agent"),
        tool_calls=d.get("tool_calls"),
        subagent_tool_calls=d.get("subagent_tool_calls"),
        steps=d.get("steps"),
        health=None
        if h is None
        else HealthSummary(
            lines=h["lines"],
            records=h["records"],
            parsed_cleanly=h["parsed_cleanly"],
            complete=h["complete"],
            truncated_tail=h.get("truncated_tail", False),
            unparsable_lines=h.get("unparsable_lines", 0),
            unanswered_calls=h.get("unanswered_calls", 0),
            unknown_types=tuple(h.get("unknown_types", {}).items()),
            skipped=tuple(h.get("skipped", {}).items()),
            problems=tuple(h.get("problems", ())),
            notes=tuple(h.get("notes", ())),
        ),
        checks=tuple(_check(c) for c in d.get("checks", ())),
        eval=d.get("eval"),
        context=d.get("context"),
        notes=tuple(d.get("notes", ())),
        problem=problem,
        error=d.get("error"),
    )

