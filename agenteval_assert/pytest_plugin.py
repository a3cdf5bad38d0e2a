"""The pytest plugin (entry point ``pytest11``): transcripts as fixtures, and our failures as tests.

Loaded by pytest wherever agenteval-assert is installed, so it stays inert unless a test uses it:
it imports only the standard library and pytest, and touches the library's result types only
when the library has already been imported (no exception of ours can exist before that).

* ``load_transcript(path, format=None)``: a session-wide, cached ``agenteval_assert.load``.
* ``transcript``: one parsed transcript per test case, from ``@pytest.mark.transcript(...)`` or
  ``--transcripts GLOB``; ids are the file names (``file#member`` for each run of a file that
  holds several: an inspect_ai log, an Aider chat history).
* ``--agenteval-report DIR``: every result of the run's ``assert_*`` calls, grouped by
  transcript, written as the run-result JSON document (``agenteval_assert.reporting``).
* ``--agenteval-inconclusive=fail|skip|xfail``: what an ``InconclusiveError`` does to a test
  (default ``fail``: an undecided check never reads as a pass). A ``CheckError`` (a check that
  could not run) is always reported as an error, whatever the policy.
* ``transcript_snapshot``: a syrupy snapshot of the transcript's canonical trajectory (needs
  the ``snapshot`` extra).
"""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest

if TYPE_CHECKING:
    from .model import Transcript

__all__ = ["TranscriptSource"]

#: Values of ``--agenteval-inconclusive``.
INCONCLUSIVE_POLICIES = ("fail", "skip", "xfail")

_MARKER_DOC = (
    "transcript(*paths_or_globs, format=None): run the test once per matching transcript file, "
    "given to it as the `transcript` fixture (paths relative to the test file's directory)"
)


class TranscriptSource(NamedTuple):
    """One case of the ``transcript`` fixture: a file, or the reason there is none."""

    path: str | None
    format: str | None = None
    #: set when no file could be found: the fixture fails with this message
    problem: str | None = None


# -- options and marker ----------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agenteval-assert", "agenteval-assert (transcripts of coding agents)")
    group.addoption(
        "--transcripts",
        action="append",
        default=[],
        metavar="GLOB",
        help="run every test that takes the `transcript` fixture (and has no "
        "@pytest.mark.transcript) once per file matching GLOB (repeatable; ** recurses)",
    )
    group.addoption(
        "--agenteval-report",
        metavar="DIR",
        help="write every check result of the run's assert_* calls to DIR/agenteval-results.json "
        "(the run-result JSON document of `check --output-format json`)",
    )
    group.addoption(
        "--agenteval-inconclusive",
        choices=INCONCLUSIVE_POLICIES,
        default="fail",
        help="what an inconclusive check does to a test: fail (default), skip or xfail; "
        "a check that could not run is always an error",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", _MARKER_DOC)
    config.stash[_CACHE] = _Cache()
    if config.getoption("agenteval_report"):
        config.stash[_REPORT] = _Report(config)
        config.pluginmanager.register(config.stash[_REPORT], "agenteval_assert-report")


class _Cache:
    """Parsed transcripts of the session, by (absolute path[#member], format): each file is
    read once, whether collection (to find the runs of a file) or a test asked first."""

    def __init__(self) -> None:
        self.loaded: dict[tuple[str, str | None], Transcript] = {}

    @staticmethod
    def _key(path: str | os.PathLike[str], format: str | None) -> tuple[str, str | None]:
        from ._parsers import _split_member

        file, member = _split_member(path)
        full = os.path.abspath(file)
        return (full if member is None else f"{full}#{member}", format)

    def load(self, path: str | os.PathLike[str], format: str | None = None) -> Transcript:
        __tracebackhide__ = True
        key = self._key(path, format)
        if key not in self.loaded:
            from ._parsers import load

            self.loaded[key] = load(os.fspath(path), format=format)
        return self.loaded[key]

    def runs(self, path: str, format: str | None) -> list[str]:
        """The members of a file that holds several runs (``sample-1-epoch-1``...), loaded into
        the cache; ``[]`` for a file of one run, or one that cannot be read (its test says why)."""
        from ._parsers import load_all

        try:
            found = load_all(path, format=format)
        except Exception:  # noqa: BLE001 - at collection: the test that loads it reports it, alone
            return []
        if len(found) < 2:
            if found:
                self.loaded[self._key(path, format)] = found[0]
            return []
        members = []
        for t in found:
            member = t.path.rpartition("#")[2]
            self.loaded[self._key(f"{path}#{member}", format)] = t
            members.append(member)
        return members


_CACHE = pytest.StashKey[_Cache]()


# -- the transcript fixtures -----------------------------------------------------------------


def _expand(patterns: Iterable[str], base: str) -> tuple[list[str], list[str]]:
    """Files matching *patterns* (relative to *base*), in order, without duplicates; and the
    patterns that matched no file."""
    found: dict[str, None] = {}
    empty: list[str] = []
    for pattern in patterns:
        full = os.path.join(base, os.path.expanduser(pattern))
        if glob.has_magic(full):
            matches = sorted(p for p in glob.glob(full, recursive=True) if os.path.isfile(p))
        else:
            matches = [full] if os.path.isfile(full) else []
        if not matches:
            empty.append(pattern)
        for m in matches:
            found.setdefault(os.path.normpath(m), None)
    return list(found), empty


def _ids(paths: Sequence[str]) -> list[str]:
    """File names; where two files share a name, their paths below the common directory with
    ``-`` for ``/`` (``a-run.jsonl``): a ``/`` in an id breaks snapshot file names."""
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) == len(names):
        return names
    common = os.path.commonpath([os.path.abspath(p) for p in paths]) if len(paths) > 1 else ""
    return [
        "-".join(os.path.relpath(os.path.abspath(p), common).split(os.sep)) if names.count(n) > 1 else n
        for p, n in zip(paths, names, strict=True)
    ]


def _sources(metafunc: pytest.Metafunc) -> tuple[list[TranscriptSource], list[str]]:
    marker = metafunc.definition.get_closest_marker("transcript")
    if marker is not None:
        patterns = [str(a) for a in marker.args]
        fmt = marker.kwargs.get("format")
        base = os.path.dirname(str(metafunc.definition.path))
        origin = "@pytest.mark.transcript(" + ", ".join(repr(p) for p in patterns) + ")"
        if not patterns:
            return [TranscriptSource(None, None, f"{origin}: give at least one path or glob")], ["no-transcript"]
    else:
        patterns = list(metafunc.config.getoption("transcripts") or [])
        fmt = None
        base = str(metafunc.config.invocation_params.dir)
        origin = "--transcripts " + " ".join(patterns)
        if not patterns:
            return [TranscriptSource(None)], ["no-transcript"]
    paths, empty = _expand(patterns, base)
    sources: list[TranscriptSource] = []
    ids: list[str] = []
    cache = metafunc.config.stash[_CACHE]
    for path, name in zip(paths, _ids(paths), strict=True):
        members = cache.runs(path, fmt)  # a file of several runs: one case per run
        sources.extend(TranscriptSource(f"{path}#{m}", fmt) for m in members)
        ids.extend(f"{name}#{m}" for m in members)
        if not members:
            sources.append(TranscriptSource(path, fmt))
            ids.append(name)
    for pattern in empty:  # a pattern that finds nothing is a mistake, never zero silent cases
        sources.append(
            TranscriptSource(None, fmt, f"{origin}: {pattern!r} matches no file (looked in {base})")
        )
        ids.append(f"no-match:{pattern}")
    return sources, ids


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "transcript" not in metafunc.fixturenames:
        return
    sources, ids = _sources(metafunc)
    metafunc.parametrize("transcript", sources, ids=ids, indirect=True)


@pytest.fixture(scope="session")
def load_transcript(pytestconfig: pytest.Config) -> Callable[..., Transcript]:
    """``load_transcript(path, format=None) -> Transcript``: ``agenteval_assert.load``, cached
    for the session (each file is parsed once, however many tests read it). ``path#member``
    names one run of a file that holds several."""
    return pytestconfig.stash[_CACHE].load


@pytest.fixture
def transcript(request: pytest.FixtureRequest, load_transcript: Callable[..., Transcript]) -> Transcript:
    """The parsed transcript of this test case (see ``@pytest.mark.transcript`` and
    ``--transcripts``)."""
    source: TranscriptSource = getattr(request, "param", TranscriptSource(None))
    if source.problem is not None:
        pytest.fail(source.problem, pytrace=False)
    if source.path is None:
        pytest.skip(
            "no transcript given: mark the test with @pytest.mark.transcript('path/or/glob') "
            "or run pytest --transcripts GLOB"
        )
    from .exceptions import AgentEvalError

    try:
        return load_transcript(source.path, source.format)
    except AgentEvalError as exc:  # the file's own problem, named with its line: no traceback
        pytest.fail(f"cannot load the transcript: {exc}", pytrace=False)


# -- our exceptions in test outcomes ---------------------------------------------------------


def _results_module() -> Any:
    """``agenteval_assert.results`` if something has imported it, else ``None``."""
    return sys.modules.get("agenteval_assert.results")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    results = _results_module()
    if results is None or call.excinfo is None or not report.failed:
        return report
    exc = call.excinfo.value
    if not isinstance(exc, (results.TranscriptAssertionError, results.CheckError)):
        return report
    summary: str = exc.result.summary
    # the short summary line shows the result's own summary, not a cut class path
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        crash.message = summary
    if isinstance(exc, results.CheckError):
        report.agenteval_status = "error"  # type: ignore[attr-defined]
    elif isinstance(exc, results.InconclusiveError) and call.when == "call":
        policy = item.config.getoption("agenteval_inconclusive")
        reason = summary if summary.startswith("inconclusive") else f"inconclusive: {summary}"
        if policy == "skip":
            report.outcome = "skipped"
            # where the undecided assertion is, as pytest.skip() would say
            where = (crash.path, crash.lineno) if crash is not None else item.location[:2]
            report.longrepr = (str(where[0]), int(where[1] or 0), f"Skipped: {reason}")
        elif policy == "xfail":
            report.outcome = "skipped"
            report.wasxfail = reason
    return report


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> tuple[str, str, str] | None:
    # A check that could not run is an error, not a failed expectation, even in the test body.
    if getattr(report, "agenteval_status", None) == "error" and report.when == "call":
        return "error", "E", "ERROR"
    return None


# -- --agenteval-report DIR ------------------------------------------------------------------


class _Report:
    """Every result of an ``assert_*`` call during the tests, grouped by transcript, written at
    the end of the session as the run-result document (one ``TranscriptResult`` per transcript;
    each check's notes say which test ran it)."""

    def __init__(self, config: pytest.Config) -> None:
        self.dir = str(config.getoption("agenteval_report"))
        self.worker = getattr(config, "workerinput", {}).get("workerid")  # pytest-xdist
        self.by_transcript: dict[str, tuple[Any, list[Any]]] = {}
        self.seen: set[int] = set()
        self.test = ""

    def record(self, transcript: Any, result: Any) -> None:
        from .model import Transcript
        from .reporting import TranscriptResult, detach

        if not isinstance(transcript, Transcript):
            return  # (a check called with something else: it has raised already)
        self.seen.add(id(result))
        entry = self.by_transcript.get(transcript.path)
        if entry is None:  # the transcript's facts now, so that no transcript is kept
            entry = self.by_transcript[transcript.path] = (TranscriptResult.of(transcript, ()), [])
        note = f"in {self.test}" if self.test else ""
        checked = detach(result)
        if note:
            import attrs

            checked = attrs.evolve(checked, notes=(*checked.notes, note))
        entry[1].append(checked)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        from . import _observe

        self.test = item.nodeid
        try:
            with _observe.listening(self.record):
                return (yield)
        finally:
            self.test = ""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        # a result that reached pytest without an assert_* call (a judge, a Storybook expectation)
        results = _results_module()
        exc = call.excinfo.value if call.excinfo is not None else None
        if (
            results is not None
            and isinstance(exc, (results.TranscriptAssertionError, results.CheckError))
            and id(exc.result) not in self.seen
        ):
            self.test = item.nodeid
            self.record(getattr(item, "funcargs", {}).get("transcript"), exc.result)
            self.test = ""
        return report

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        import json

        import attrs

        from .reporting import run_to_dict

        results = [attrs.evolve(r, checks=tuple(checks)) for r, checks in self.by_transcript.values()]
        os.makedirs(self.dir, exist_ok=True)
        name = f"agenteval-results-{self.worker}.json" if self.worker else "agenteval-results.json"
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(run_to_dict(results), f, ensure_ascii=False, indent=2)
            f.write("\n")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        n = sum(len(c) for _, c in self.by_transcript.values())
        name = f"agenteval-results-{self.worker}.json" if self.worker else "agenteval-results.json"
        terminalreporter.write_line(
            f"agenteval-assert: {n} check result(s) on {len(self.by_transcript)} transcript(s) "
            f"written to {os.path.join(self.dir, name)}"
        )


_REPORT = pytest.StashKey[_Report]()


# -- snapshots -------------------------------------------------------------------------------


@pytest.fixture
def transcript_snapshot(request: pytest.FixtureRequest) -> Any:
    """syrupy's ``snapshot`` with the trajectory extension: ``assert transcript == transcript_snapshot``
    stores (and compares) the canonical, redacted trajectory; ``--snapshot-update`` rewrites it."""
    from ._optional import require

    require("syrupy", extra="snapshot", feature="transcript_snapshot")
    from .snapshot import TrajectoryExtension

    return request.getfixturevalue("snapshot").use_extension(TrajectoryExtension)
