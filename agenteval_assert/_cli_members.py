"""``summary`` of a file that holds several transcripts (inspect_ai samples, Aider sessions).

The figures are summed over the members (an inspect_ai log's contract figures are the sums over
its samples and epochs), the final response is the last member's, and ``members`` lists each
one. A file whose format reads it whole (an Aider history: ``load()`` takes the whole file)
keeps that transcript's figures and lists its members beside them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TextIO

from .model import Transcript

__all__ = ["member_id", "member_lines", "members_summary"]

_SUMMED = ("tool_calls", "subagent_tool_calls", "unrecorded_outcomes", "unanswered_calls", "steps")
#: Counts that are ``None`` (unknown) in a member whose format does not record them: unknown in the sum too.
_SUMMED_UNKNOWN = ("tool_errors", "subagent_tool_errors")
_USAGE = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens",
          "cost_usd")


def member_id(path: str, member_path: str) -> str:
    """The member id in *member_path* (``FILE#MEMBER``) of the file *path*: all that follows
    ``FILE#``, ``#`` included (member ids may hold ``#``: an inspect_ai sample id is free text)."""
    prefix = f"{path}#"
    return member_path[len(prefix):] if member_path.startswith(prefix) else member_path.rsplit("#", 1)[-1]


def _member_entry(path: str, doc: dict[str, Any]) -> dict[str, Any]:
    return {
        "member": member_id(path, doc["path"]),
        "path": doc["path"],
        "tool_calls": doc["tool_calls"],
        "tool_errors": doc["tool_errors"],
        "unanswered_calls": doc["unanswered_calls"],
        "final_response": doc["final_response"],
        "complete": doc["health"]["complete"],
    }


def _sum_optional(values: list[Any]) -> Any:
    got = [v for v in values if v is not None]
    if not got:
        return None
    total = sum(got)
    return round(total, 6) if isinstance(total, float) else total


def members_summary(path: str, whole: Transcript | None, members: list[Transcript]) -> dict[str, Any]:
    """The ``summary --json`` document of a file of several members."""
    from ._cli import summary_dict

    docs = [summary_dict(t) for t in members]
    if whole is not None:
        doc = summary_dict(whole)
    else:
        last = docs[-1]
        tools: Counter[str] = Counter()
        for d in docs:
            tools.update(d["tools"])
        models = {d["model"] for d in docs}
        doc = {
            "path": path,
            "format": last["format"],
            "agent": last["agent"],
            "model": models.pop() if len(models) == 1 else None,
            "session_id": None,
            **{k: sum(d[k] for d in docs) for k in _SUMMED},
            **{k: None if any(d[k] is None for d in docs) else sum(d[k] for d in docs) for k in _SUMMED_UNKNOWN},
            "tools": dict(tools),
            "final_response": last["final_response"],
            "final_answer": last["final_answer"],
            "subagents": [s for d in docs for s in d["subagents"]],
            "usage": {
                **{k: _sum_optional([d["usage"][k] for d in docs]) for k in _USAGE},
                "mode": "summed over the members",
            },
            "usage_total": {
                **{k: _sum_optional([d["usage_total"][k] for d in docs]) for k in _USAGE},
                "mode": "summed over the members",
            },
            "usage_unrecorded": [s for d in docs for s in d["usage_unrecorded"]],
            "errors": [e for d in docs for e in d["errors"]],
            "run_error": last["run_error"],
            "health": {
                "lines": max(d["health"]["lines"] for d in docs),
                "records": sum(d["health"]["records"] for d in docs),
                "parsed_cleanly": all(d["health"]["parsed_cleanly"] for d in docs),
                "complete": all(d["health"]["complete"] for d in docs),
                "truncated_tail": any(d["health"]["truncated_tail"] for d in docs),
                "unparsable_lines": [{**u, "member": d["path"]} for d in docs
                                     for u in d["health"]["unparsable_lines"]],
                "unknown_types": dict(sum((Counter(d["health"]["unknown_types"]) for d in docs), Counter())),
                "skipped": dict(sum((Counter(d["health"]["skipped"]) for d in docs), Counter())),
                "unanswered_calls": [f"{d['path']}:{c}" for d in docs for c in d["health"]["unanswered_calls"]],
                "orphan_results": [f"{d['path']}:{c}" for d in docs for c in d["health"]["orphan_results"]],
                "notes": [f"{d['path']}: {n}" for d in docs for n in d["health"]["notes"]],
            },
            "workflow_calls": [w for d in docs for w in d["workflow_calls"]],
        }
    doc["members"] = [_member_entry(path, d) for d in docs]
    return doc


def member_lines(path: str, fmt: str, members: list[Transcript], out: TextIO) -> None:
    """The text summary's member list: one line per member."""
    out.write(f"{path}: {len(members)} transcripts ({fmt}); load one with load('FILE#MEMBER')\n")
    for t in members:
        member = member_id(path, t.path)
        # "?": the format does not record whether these calls failed
        errors = "?" if any(not c.outcome_recorded for c in t.tool_calls) else sum(c.is_error for c in t.tool_calls)
        state = "complete" if t.health.complete else "incomplete"
        out.write(f"  {member:<28} {len(t.tool_calls):>5} calls  {errors:>3} errors  {state}\n")
