"""A Markdown report for a pull-request comment or ``$GITHUB_STEP_SUMMARY``: the pass rate line,
one table row per transcript, and each failed, errored or inconclusive check folded in a
``<details>`` block with its rendered report.
"""

from __future__ import annotations

import html
import re
import shutil
import tempfile
from typing import TextIO

from ..results import CheckResult, Status
from ._model import RunTotals, TranscriptResult

__all__ = ["MarkdownWriter", "cell"]


def cell(text: str) -> str:
    """*text* safe inside a table cell: one line, pipes escaped, Markdown and HTML inert."""
    text = " ".join(text.split())
    text = re.sub(r"([\\`*_\[\]<>|])", r"\\\1", text)
    return text


def _html(text: str) -> str:
    return html.escape(" ".join(text.split()))


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

    def add(self, r: TranscriptResult) -> None:
        self.totals.add(r)
        if r.problem == "skipped":
            return
        counts = r.counts()
        ran = sum(counts.values()) - counts["skip"]
        not_passed = [c.name for c in r.checks if isinstance(c, CheckResult) and c.status is not Status.PASS]
        checks = f"{counts['pass']}/{ran} passed" if r.problem is None else ""
        detail = (r.error or "") if r.problem is not None else ", ".join(not_passed)
        self._rows.write(
            f"| **{r.status.value.upper()}** | {cell(r.name)} | {cell(r.format or '')} | {checks} | {cell(detail)} |\n"
        )
        for c in r.checks:
            if not isinstance(c, CheckResult) or c.status is Status.PASS:
                continue
            body = c.render(verbose=self._verbose)
            fence = _fence(body)
            self._details.write(
                f"<details><summary>{c.status} {_html(c.name)} in {_html(r.name)}: {_html(c.summary)}</summary>\n\n"
                f"{fence}\n{body}\n{fence}\n\n</details>\n\n"
            )

    def close(self) -> None:
        t = self.totals
        out = self._out
        out.write(f"## {self._title}\n\n{t.summary_line()}\n\n")
        if t.skipped_files:
            out.write(f"{t.skipped_files} file(s) skipped: no format reads them.\n\n")
        out.write("| status | transcript | format | checks | not passed |\n|---|---|---|---|---|\n")
        self._rows.seek(0)
        shutil.copyfileobj(self._rows, out)
        self._rows.close()
        self._details.seek(0)
        first = self._details.read(1)
        if first:
            out.write("\n" + first)
            shutil.copyfileobj(self._details, out)
        self._details.close()
