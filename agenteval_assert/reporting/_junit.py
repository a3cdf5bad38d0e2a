"""JUnit XML for CI test reporters (Jenkins, GitLab, GitHub actions that read JUnit).

One ``<testsuite>`` per transcript (named like the transcript: ``path`` or ``path#member``), one
``<testcase>`` per check. FAIL is a ``<failure>``, ERROR an ``<error>``; INCONCLUSIVE is a
``<failure type="inconclusive">`` by default, so that no reporter shows it green, or a
``<skipped>`` with ``inconclusive="skip"``. A skipped check is ``<skipped>``. An input that could
not be read (or on which the library crashed) is a suite with one ``<error>`` testcase.

The document follows the Jenkins JUnit schema (``junit-10.xsd``) that these reporters accept.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from typing import Literal, TextIO

from ..results import CheckResult, Status
from ._model import SkippedCheck, TranscriptResult

__all__ = ["JUnitWriter", "xml_safe"]

# Characters XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/U+FFFF).
_INVALID = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """*text* with every character XML 1.0 cannot hold shown as ``\\xNN`` (ANSI escapes in tool
    output, NUL...), so that the document stays well-formed."""
    return _INVALID.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class JUnitWriter:
    """Writes the JUnit document to *out*: ``add`` each result, then ``close``.

    Suites are spooled to a temporary file (memory stays bounded) because the root element
    carries the run's totals.
    """

    def __init__(self, out: TextIO, *, inconclusive: Literal["failure", "skip"] = "failure",
                 name: str = "agenteval-assert", verbose: bool = False) -> None:
        self._out = out
        self._inconclusive = inconclusive
        self._name = name
        self._verbose = verbose
        self._spool = tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8")  # noqa: SIM115
        self.tests = self.failures = self.errors = 0

    def add(self, r: TranscriptResult) -> None:
        if r.problem == "skipped":
            return  # not a transcript: listed in the text and JSON outputs, not a test
        suite = self._suite(r)
        ET.indent(suite, space="  ", level=1)
        self._spool.write("  " + ET.tostring(suite, encoding="unicode") + "\n")

    def _suite(self, r: TranscriptResult) -> ET.Element:
        suite = ET.Element("testsuite", name=xml_safe(r.name))
        props = ET.SubElement(suite, "properties")
        for key, value in (("path", r.path), ("member", r.member), ("kind", r.kind), ("format", r.format),
                           ("agent", r.agent), ("eval", r.eval), ("status", r.status.value)):
            if value is not None:
                ET.SubElement(props, "property", name=key, value=xml_safe(str(value)))
        tests = failures = errors = skipped = 0
        if r.problem is not None:
            case = ET.SubElement(suite, "testcase", name="read transcript", classname=xml_safe(r.name))
            el = ET.SubElement(case, "error", type=r.problem, message=xml_safe((r.error or "").splitlines()[0]
                                                                                 if r.error else r.problem))
            el.text = xml_safe(r.error or "")
            tests, errors = 1, 1
        for c in r.checks:
            tests += 1
            case = ET.SubElement(suite, "testcase", name=xml_safe(c.name), classname=xml_safe(r.name))
            if isinstance(c, SkippedCheck):
                ET.SubElement(case, "skipped", message=xml_safe(c.reason))
                skipped += 1
                continue
            tag = self._tag(c)
            if tag is None:
                continue
            kind = "inconclusive" if c.status is Status.INCONCLUSIVE else c.status.value
            el = ET.SubElement(case, tag, type=kind, message=xml_safe(c.summary))
            if tag == "skipped":
                skipped += 1
            else:
                el.text = xml_safe(c.render(verbose=self._verbose))
                if tag == "error":
                    errors += 1
                else:
                    failures += 1
        for key, n in (("tests", tests), ("failures", failures), ("errors", errors), ("skipped", skipped)):
            suite.set(key, str(n))
        suite.set("file", xml_safe(r.path))
        self.tests += tests
        self.failures += failures
        self.errors += errors
        return suite

    def _tag(self, c: CheckResult) -> str | None:
        if c.status is Status.FAIL:
            return "failure"
        if c.status is Status.ERROR:
            return "error"
        if c.status is Status.INCONCLUSIVE:
            return "skipped" if self._inconclusive == "skip" else "failure"
        return None

    def close(self) -> None:
        root = ET.Element("testsuites", name=self._name, tests=str(self.tests), failures=str(self.failures),
                          errors=str(self.errors))
        self._out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self._out.write(ET.tostring(root, encoding="unicode")[: -len(" />")] + ">\n")
        self._spool.seek(0)
        shutil.copyfileobj(self._spool, self._out)
        self._spool.close()
        self._out.write("</testsuites>\n")
