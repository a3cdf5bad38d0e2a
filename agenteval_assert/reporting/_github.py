"""GitHub Actions workflow annotations: ``::error file=…,line=…,title=…::message`` at each piece of
evidence of a failed or errored check (``::warning`` for an inconclusive one), so that the
failures show on the files and lines they cite.
"""

from __future__ import annotations

import os

from ..results import MAX_EVIDENCE, CheckResult, Evidence, Status, cut_middle, printable
from ._model import TranscriptResult

__all__ = ["annotation_path", "escape_data", "escape_property", "workflow_commands"]


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as the runner expects (control characters other
    than newlines and tabs shown as ``\\xNN``)."""
    return printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value (``file``, ``title``...), escaped."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation_path(path: str) -> str:
    """*path* as GitHub attaches annotations to it: relative to the repository checkout
    (``GITHUB_WORKSPACE``, else the current directory) when it lies inside it, with ``/``
    separators and no ``./``; a path outside stays absolute (GitHub shows it on no file)."""
    base = os.path.abspath(os.environ.get("GITHUB_WORKSPACE") or os.getcwd())
    full = os.path.abspath(path)  # a relative path is relative to the current directory
    try:
        rel = os.path.relpath(full, base)
    except ValueError:  # another drive (Windows)
        return full
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return full
    return rel.replace(os.sep, "/")


def _command(level: str, message: str, *, file: str, line: int | None = None, title: str) -> str:
    props = f"file={escape_property(annotation_path(file))}"
    if line is not None:
        props += f",line={line}"
    props += f",title={escape_property(title)}"
    return f"::{level} {props}::{escape_data(message)}"


def _evidence_message(c: CheckResult, e: Evidence) -> str:
    text = c.summary + "\n" + cut_middle(e.text)
    if e.detail:
        text += "\n" + cut_middle(e.detail)
    return text


def workflow_commands(r: TranscriptResult) -> list[str]:
    """The annotation lines for one transcript: one per piece of evidence of each failed,
    errored or inconclusive check (at most ``MAX_EVIDENCE`` per check; a check without located
    evidence is annotated on the transcript file), one for an unreadable or crashed input."""
    if r.problem == "skipped":
        return []
    if r.problem is not None:
        return [_command("error", r.error or r.problem, file=r.path, title=f"{r.problem}: {r.name}")]
    out: list[str] = []
    for c in r.checks:
        if not isinstance(c, CheckResult) or c.status is Status.PASS:
            continue
        level = "warning" if c.status is Status.INCONCLUSIVE else "error"
        title = f"{c.name} {c.status} ({r.name})"
        located = [e for e in c.evidence if e.location is not None]
        if not located:
            out.append(_command(level, c.render(verbose=False), file=r.path, title=title))
            continue
        for e in located[:MAX_EVIDENCE]:
            assert e.location is not None
            out.append(_command(level, _evidence_message(c, e), file=e.location.path, line=e.location.line,
                                title=title))
        if len(located) > MAX_EVIDENCE:
            out.append(_command(level, f"{c.summary}\n... and {len(located) - MAX_EVIDENCE} more pieces of evidence",
                                file=r.path, title=title))
    return out
