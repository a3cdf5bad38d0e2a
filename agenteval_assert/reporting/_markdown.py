"""A Markdown report for a pull-request comment or ``$GITHUB_STEP_SUMMARY``: the pass rate line,
one table row per transcript, and each failed, errored or inconclusive check folded in a
``<details>`` block with its rendered report. Control characters (an ANSI colour a tool printed)
are shown as escapes (``results.printable``), as in the text and GitHub outputs.

Bounded, since those places are (a job summary holds 1 MiB): past ``MAX_ROWS`` transcripts the
table keeps the ones that did not pass, and at most ``MAX_DETAILS`` reports are folded in; the
report says what it left out (the JSON output has everything).
"""

from __future__ import annotations

import html
import re
import shutil
import tempfile
from typing import TextIO

from ..results import CheckResult, Status, printable
from ._model import RunTotals, TranscriptResult

__all__ = ["MAX_DETAILS", "MAX_ROWS", "MarkdownWriter", "cell"]

#: Transcripts listed one per row; past this, only those that did not pass.
MAX_ROWS = 100
#: Check reports folded in ``<details>`` blocks.
MAX_DETAILS = 50


def cell(text: str) -> str:
    """*text* safe inside a table cell: one line, control characters escaped, pipes escaped,
    Markdown and HTML inert."""
    text = printable(" ".join(text.split()), one_line=True)
    text = re.sub(r"([\\`*_\[\]<>|])", r"\\\1", text)
    return text


def _html(text: str) -> str:
    return html.escape(printable(" ".join(text.split()), one_line=True))


def _fence(body: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    return "`" * max(3, longest + 1)


class MarkdownWriter:
    """Writes the report to *out*: ``add`` each result, then ``close``.

    Rows are spooled to a temporary file (memory stays bounded) because the pass rate comes first.
    """

    def __init__(self, out: TextIO, *, title: str = "agenteval-assert", verbose: bool = False) -> None:
        self._out = out
        self._title = title
        self._verbose = verbose
        self.totals = RunTotals()
        self._rows = tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8")  # noqa: SIM115
        self._details = tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8")  # noqa: SIM115
        self._reports = 0

    def add(self, r: TranscriptResult) -> None:
        self.totals.add(r)
        if r.problem == "skipped":
            return
        counts = r.counts()
        ran = sum(counts.values()) - counts["skip"]
        not_passed = [c.name for c in r.checks if isinstance(c, CheckResult) and c.status is not Status.PASS]
        checks = f"{counts['pass']}/{ran} passed" if r.problem is None else ""
        detail = (r.error or "") if r.problem is not None else ", ".join(not_passed)
        flag = "P" if r.passed else "N"
        self._rows.write(
            f"{flag}| **{r.status.value.upper()}** | {cell(r.name)} | {cell(r.format or '')} | {checks} "
            f"| {cell(detail)} |\n"
        )
        for c in r.checks:
            if not isinstance(c, CheckResult) or c.status is Status.PASS:
                continue
            self._reports += 1
            if self._reports > MAX_DETAILS:
                continue
            body = printable(c.render(verbose=self._verbose))
            fence = _fence(body)
            self._details.write(
                f"<details><summary>{c.status} {_html(c.name)} in {_html(r.name)}: {_html(c.summary)}</summary>\n\n"
                f"{fence}\n{body}\n{fence}\n\n</details>\n\n"
            )

    def close(self) -> None:
        t = self.totals
        out = self._out
        out.write(f"## {printable(self._title, one_line=True)}\n\n{t.summary_line()}\n\n")
        if t.skipped_files:
            out.write(f"{t.skipped_files} file(s) skipped: no format reads them.\n\n")
        rows = t.transcripts
        everyone = rows <= MAX_ROWS
        if not everyone:
            out.write(f"{rows} transcripts: the table lists the {rows - t.passed} that did not pass.\n\n")
        out.write("| status | transcript | format | checks | not passed |\n|---|---|---|---|---|\n")
        self._rows.seek(0)
        for line in self._rows:
            if everyone or line.startswith("N"):
                out.write(line[1:])
        self._rows.close()
        self._details.seek(0)
        first = self._details.read(1)
        if first:
            out.write("\n" + first)
            shutil.copyfileobj(self._details, out)
        self._details.close()
        if self._reports > MAX_DETAILS:
            out.write(f"... and {self._reports - MAX_DETAILS} more check reports (the JSON output has them all)\n")
