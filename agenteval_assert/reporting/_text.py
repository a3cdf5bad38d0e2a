"""The text rendering of transcript results (what ``check`` prints)."""

from __future__ import annotations

from collections.abc import Iterable

from ..results import Status, printable
from ._model import CheckEntry, RunTotals, SkippedCheck, TranscriptResult, _plural

__all__ = ["LABELS", "check_lines", "closing_block", "github_safe", "header_line", "one_transcript_line",
           "result_text"]

#: The label of each check status in text output.
LABELS = {
    Status.PASS: "PASS",
    Status.FAIL: "FAIL",
    Status.INCONCLUSIVE: "INCONCLUSIVE",
    Status.ERROR: "ERROR",
}


def check_lines(entries: Iterable[CheckEntry], *, verbose: bool = False) -> list[str]:
    """One line per check; failed, inconclusive and errored checks with their rendered report."""
    lines: list[str] = []
    for r in entries:
        if isinstance(r, SkippedCheck):
            reason = f" (skipped: {r.reason})" if r.reason else ""
            lines.append(f"  {'SKIP':<12} {r.name}{reason}")
            continue
        label = LABELS[r.status]
        if r.status is Status.PASS:
            extra = " (vacuous)" if r.vacuous else ""
            lines.append(f"  {label:<12} {r.name}{extra}")
            if verbose:
                lines.append(f"               {r.summary}")
        else:
            lines.append(f"  {label:<12} {r.name}")
            lines.extend(f"               {line}" for line in r.render(verbose=verbose).splitlines())
    return lines


def header_line(r: TranscriptResult) -> str:
    """``path  format  N tool calls (+M by subagents)  N steps`` (a sandbox also names its eval and
    how it was read)."""
    head = f"{printable(r.name, one_line=True)}  "
    if r.eval:
        head += f"{r.eval}  "
    calls = "? tool calls" if r.tool_calls is None else _plural(r.tool_calls, "tool call")
    if r.subagent_tool_calls:
        calls += f" (+{r.subagent_tool_calls} by subagents)"
    steps = "? steps" if r.steps is None else _plural(r.steps, "step")
    head += f"{r.format}  {calls}  {steps}"
    if r.context:
        head += f"  ({r.context})"
    return head


def result_text(r: TranscriptResult, *, verbose: bool = False) -> str:
    """A checked transcript's block: the header, its notes, one line per check.

    Unreadable, crashed and skipped inputs have no block (they are reported on stderr and in
    the closing block).
    """
    if r.problem is not None:
        return ""
    lines = [header_line(r)]
    lines.extend(f"  note: {n}" for n in r.notes)
    lines.extend(check_lines(r.checks, verbose=verbose))
    # What the agent's tools printed is shown as text: its control characters (ANSI escapes,
    # carriage returns) are escaped, so that it cannot colour or rewrite the report.
    return printable("\n".join(lines)) + "\n"


def one_transcript_line(totals: RunTotals) -> str:
    """The closing line of a run of one transcript, as it has always been:
    ``N passed, N failed[, N inconclusive][, N errors][, N skipped][, N unreadable input(s)]``."""
    line = totals.checks_line()
    n = totals.unreadable
    if n:
        line += f", {n} unreadable input" + ("s" if n != 1 else "")
    return line


def closing_block(totals: RunTotals, skipped: Iterable[TranscriptResult] = (), *, skipped_count: int = 0,
                  verbose: bool = False, limit: int = 10) -> str:
    """The skipped files (at most *limit* listed unless *verbose*), then the closing line: the
    checks' counts for one transcript, the transcripts' pass rate and the checks for several."""
    lines: list[str] = []
    skipped = list(skipped)
    n_skipped = max(skipped_count, len(skipped))
    if n_skipped:
        if any(s.member is not None for s in skipped):  # runs of a file with nothing in them, too
            lines.append(f"skipped {n_skipped} input{'s' if n_skipped != 1 else ''} with nothing to check:")
        else:
            lines.append(f"skipped {n_skipped} file{'s' if n_skipped != 1 else ''} that no format reads:")
        shown = skipped if verbose else skipped[:limit]
        lines.extend(f"  {printable(s.name, one_line=True)}: {printable(s.error or '', one_line=True)}" for s in shown)
        if n_skipped > len(shown):
            lines.append(f"  ... and {n_skipped - len(shown)} more (-v lists all)")
    if totals.transcripts <= 1:
        lines.append(one_transcript_line(totals))
    else:
        lines.append(totals.summary_line())
    return "\n".join(lines) + "\n"



def github_safe(text: str) -> str:
    """*text* (a report printed in a GitHub Actions log) with every line that the runner would
    read as a workflow command neutralised: ``::`` or ``##[`` after the indentation (the runner
    trims it) becomes ``\\x3a:`` / ``\\x23#[``. What an agent's tool printed
    (``::error file=…::``, ``::stop-commands::``, ``::add-mask::``) can then forge no annotation
    and stop no processing; the annotations this library writes are added after it."""
    out = []
    for line in text.split("\n"):
        body = line.lstrip()
        if body.startswith(("::", "##[")):
            cut = len(line) - len(body)
            line = line[:cut] + ("\\x3a" if body[0] == ":" else "\\x23") + body[1:]
        out.append(line)
    return "\n".join(out)
