"""Check many transcripts: find them (files, directories, globs, sandboxes) and check them in
parallel, locally or on a cluster.

``check_many(paths, checks)`` yields one ``TranscriptResult`` per transcript. It accepts any
``concurrent.futures.Executor``: a local process pool by default, or
``dask.distributed.Client(address).get_executor()`` to fan out over a Dask cluster. Only names and
paths travel to the workers (``Input``, ``Checks``); each worker loads the checks itself (a checks
file, a suite name) and sends back detached results, and the transcript is dropped as soon as its
checks have run: memory stays bounded however many paths go in.

``expand(args)`` turns command-line arguments into inputs: a file is an input, a directory is
walked (every file a format reads; the others come back as skipped results, not errors, unless
their name says transcript: see ``TRANSCRIPT_SUFFIXES``), a glob pattern is expanded, and a
Storybook sandbox (a directory holding ``__agent_eval__/`` or
``__niceeval__/``) is one input when an eval suite runs (else its
``__agent_eval__/transcript.txt`` is).
"""

from __future__ import annotations

import glob
import importlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal

import attrs

from ._parsers import detect_format, load_all
from .exceptions import AgentEvalError, UsageError
from .model import Transcript
from .reporting import SkippedCheck, TranscriptResult
from .results import CheckResult, Status

if TYPE_CHECKING:
    import concurrent.futures as cf
    import multiprocessing.context

# Start-up: ``summary`` and ``check`` of one file use ``expand`` and ``check_one``; the process
# pool (concurrent.futures, multiprocessing, threading) is imported when one is started.

__all__ = ["Checks", "Input", "check_many", "check_one", "expand"]

#: Directory names never walked into.
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", ".tox", ".nox", ".mypy_cache",
     ".pytest_cache", ".ruff_cache"}
)
#: The directory that makes a directory a Storybook sandbox (``@vercel/agent-eval``'s layout).
SANDBOX_MARKER = "__agent_eval__"
#: The directory of an older NiceEval run's sandbox (whose transcript may be absent).
NICEEVAL_MARKER = "__niceeval__"
#: A sandbox's transcript, relative to the sandbox.
SANDBOX_TRANSCRIPT = os.path.join(SANDBOX_MARKER, "transcript.txt")

_GLOB_CHARS = frozenset("*?[")
_ARCHIVE = b"PK\x03\x04"
_SNIFF = 8192


@attrs.define(frozen=True, slots=True)
class Input:
    """One unit of work: a transcript file or a sandbox directory.

    Attributes:
        path: the file or the sandbox directory.
        kind: ``file`` or ``sandbox``.
        discovered: found by walking a directory: when no format reads it, the result is
            *skipped* (listed, not counted) rather than *unreadable*, unless its name says
            transcript or it cannot be read at all.
        problem: known before reading (a glob that matched nothing): the result is unreadable.
        skip: known before reading not to be a transcript (a sandbox without one): the result
            is skipped, with this reason.
    """

    path: str
    kind: Literal["file", "sandbox"] = "file"
    discovered: bool = False
    problem: str | None = None
    skip: str | None = None


def _fspaths(paths: Iterable[str | os.PathLike[str]]) -> tuple[str, ...]:
    return tuple(os.fspath(p) for p in paths)


def _strings(refs: Iterable[str]) -> tuple[str, ...]:
    return tuple(refs)


@attrs.define(frozen=True, slots=True)
class Checks:
    """What to run on each transcript, as names and paths only (nothing else needs pickling).

    Attributes:
        files: checks files (``check_*`` functions), imported once per worker process. On a
            cluster the path must exist on the workers.
        functions: importable checks as ``"module:function"`` (each takes a ``Transcript``
            and returns a ``CheckResult``, a bool or ``None``, or raises, as in a checks file).
        health: run the built-in health checks too; by default (``None``) they run when no
            file, function or *extra* is given.
        eval: a Storybook eval suite name: the inputs are sandboxes, and the suite's tests run
            on each.
        run_skipped_judges: with *eval* and a ``suite_judge``: also judge the tests that the
            reference marks ``test.skip``.
    """

    files: tuple[str, ...] = attrs.field(default=(), converter=_fspaths)
    functions: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    health: bool | None = None
    eval: str | None = None
    run_skipped_judges: bool = False
    #: In this process only (not sent to workers: ``check_many`` then runs without a pool): more
    #: checks on each transcript, after the others (the command line's LLM-judge criteria, whose
    #: cost cap is run-wide).
    extra: Callable[[Transcript], Sequence[CheckResult]] | None = attrs.field(default=None, eq=False)
    #: In this process only: the judge hook of the Storybook suites (``eval``).
    suite_judge: Any = attrs.field(default=None, eq=False)

    @property
    def runs_health(self) -> bool:
        if self.health is not None:
            return self.health
        return not self.files and not self.functions and self.extra is None

    @property
    def in_process_only(self) -> bool:
        """Something here cannot be sent to a worker."""
        return self.extra is not None or self.suite_judge is not None

    def validate(self) -> None:
        """Load everything once here, so that a bad checks file or suite name is a usage error
        before any work starts (``UsageError`` naming the file and line)."""
        _loaded(self)


# -- finding the inputs ---------------------------------------------------------------------


def _is_glob(arg: str) -> bool:
    return any(ch in _GLOB_CHARS for ch in arg) and not os.path.exists(arg)


def _is_sandbox(path: str) -> bool:
    return os.path.isdir(os.path.join(path, SANDBOX_MARKER)) or os.path.isdir(os.path.join(path, NICEEVAL_MARKER))


def _walk(root: str, *, sandboxes: bool) -> Iterator[Input]:
    """Every candidate under *root*, in sorted order (files of a directory before its subdirectories).

    Symbolic links to directories are followed (as a ``**`` pattern follows them), each real
    directory once (a link back to a parent does not loop); a directory that cannot be listed is
    an unreadable input, never silently left out."""
    errors: list[OSError] = []
    seen: set[str] = {os.path.realpath(root)}
    for dirpath, dirnames, filenames in os.walk(root, onerror=errors.append, followlinks=True):
        yield from _listing_errors(errors, sandboxes)
        dirnames.sort()
        if dirpath != root and _is_sandbox(dirpath):
            dirnames.clear()
            yield from _sandbox_input(dirpath, sandboxes=sandboxes)
            continue
        kept = []
        for d in dirnames:
            if d in SKIP_DIRS:
                continue
            real = os.path.realpath(os.path.join(dirpath, d))
            if real in seen:
                continue  # a link to a directory already walked (or to one of its parents)
            seen.add(real)
            kept.append(d)
        dirnames[:] = kept
        if sandboxes:
            continue  # an eval runs on sandboxes only: plain files are not candidates
        for name in sorted(filenames):
            yield Input(os.path.join(dirpath, name), discovered=True)
    yield from _listing_errors(errors, sandboxes)


def _listing_errors(errors: list[OSError], sandboxes: bool) -> Iterator[Input]:
    """A directory ``os.walk`` could not list: an unreadable input (the transcripts in it are not
    seen, so the run must not read as complete)."""
    for exc in errors:
        path = os.fspath(exc.filename) if exc.filename is not None else "?"
        yield Input(path, kind="sandbox" if sandboxes else "file",
                    problem=f"cannot list this directory: {exc.strerror or exc}")
    errors.clear()


def _sandbox_input(path: str, *, sandboxes: bool) -> Iterator[Input]:
    if sandboxes:
        yield Input(path, kind="sandbox")
        return
    # Without an eval, a sandbox contributes its transcript (and not its workspace's files).
    transcript = os.path.join(path, SANDBOX_TRANSCRIPT)
    niceeval = not os.path.exists(os.path.join(path, SANDBOX_MARKER, "results.json")) and os.path.isdir(
        os.path.join(path, NICEEVAL_MARKER)
    )
    if niceeval and not os.path.exists(transcript):
        # A NiceEval run may keep no transcript: nothing to check here, but the sandbox is named.
        yield Input(path, skip="a NiceEval sandbox without a transcript (an eval suite reads it: --eval NAME)")
    else:
        yield Input(transcript)  # an agent-eval sandbox must have it: missing is unreadable


def expand(args: Iterable[str | os.PathLike[str]], *, sandboxes: bool = False) -> Iterator[Input]:
    """The inputs named by command-line style *args*, in order, each path once.

    * a file is an input (unreadable if no format reads it);
    * a directory is walked recursively (skipping ``SKIP_DIRS``, following links to
      directories, each real directory once); each file found is an input that is *skipped* if
      no format reads it, unless its name says transcript (then it is unreadable); a
      subdirectory that cannot be listed, and a directory with no file, are unreadable inputs;
      a sandbox directory found on the way stands for its transcript, or, with *sandboxes* (an
      eval suite runs), for itself;
    * a pattern with ``*``, ``?`` or ``[`` (``**`` spans directories, but not ``SKIP_DIRS``) is
      expanded in sorted order, each match treated as above; a pattern that matches nothing is
      an unreadable input.
    """
    seen: set[str] = set()
    for arg in args:
        a = os.fspath(arg)
        for inp in _expand_one(a, sandboxes=sandboxes):
            key = os.path.realpath(inp.path)  # a file reached through a link is still the same file
            if key in seen:
                continue
            seen.add(key)
            yield inp


def _expand_one(arg: str, *, sandboxes: bool) -> Iterator[Input]:
    if _is_glob(arg):
        named = set(_parts(arg))
        # ``**`` does not reach into the directories a walk skips, unless the pattern names them.
        matches = sorted(m for m in glob.glob(arg, recursive=True) if not (set(_parts(m)) - named) & SKIP_DIRS)
        if not matches:
            yield Input(arg, kind="sandbox" if sandboxes else "file",
                        problem="no file matches this pattern")
            return
        for m in matches:
            yield from _expand_path(m, sandboxes=sandboxes)
        return
    yield from _expand_path(arg, sandboxes=sandboxes)


def _parts(path: str) -> list[str]:
    return os.path.normpath(path).split(os.sep)


def _expand_path(path: str, *, sandboxes: bool) -> Iterator[Input]:
    if os.path.isdir(path):
        if _is_sandbox(path):
            yield from _sandbox_input(path, sandboxes=sandboxes)
            return
        found = False
        for inp in _walk(path, sandboxes=sandboxes):
            found = True
            yield inp
        if not found:  # never a pass on nothing: the directory is named, as a pattern that matches nothing is
            what = "no sandbox" if sandboxes else "no file"
            yield Input(path, kind="sandbox" if sandboxes else "file", problem=f"{what} in this directory")
    else:
        yield Input(path, kind="sandbox" if sandboxes else "file")


# -- running checks (in whatever process) ---------------------------------------------------

CheckFn = Callable[[Transcript], Any]
_LOADED: dict[tuple[object, ...], list[CheckFn]] = {}


def _loaded(checks: Checks) -> list[CheckFn]:
    """The check functions of *checks*, loaded once per process."""
    key = (checks.files, checks.functions, checks.runs_health, checks.eval)
    fns = _LOADED.get(key)
    if fns is not None:
        return fns
    fns = []
    if checks.eval is not None:
        from .storybook._registry import suite

        suite(checks.eval)  # raises UsageError for an unknown suite
    else:
        if checks.runs_health:
            from ._health import HEALTH_CHECKS

            fns.extend(HEALTH_CHECKS)
        if checks.files:
            from ._checks_file import load_checks, named_check

            for f in checks.files:
                fns.extend(named_check(name, fn) for name, fn in load_checks(f))
        fns.extend(_import_function(ref) for ref in checks.functions)
    _LOADED[key] = fns
    return fns


def _import_function(ref: str) -> CheckFn:
    module, sep, name = ref.partition(":")
    if not sep or not module or not name:
        raise UsageError(f"{ref!r}: expected a check as 'module:function'")
    try:
        obj: Any = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"{ref}: cannot import the check: {type(exc).__name__}: {exc}") from None
    if not callable(obj):
        raise UsageError(f"{ref}: not a function")
    fn: CheckFn = obj
    return fn


def _run_checks(fns: Sequence[CheckFn], t: Transcript) -> list[CheckResult | SkippedCheck]:
    from ._health import HEALTH_CHECKS, not_applicable

    # Built-in health checks return their result (named after the check), or are skipped where
    # they cannot apply to the format; any other function runs as a checks-file function does
    # (its exceptions become FAIL or ERROR results).
    def health(fn: CheckFn) -> CheckResult | SkippedCheck:
        why = not_applicable(fn, t)
        return fn(t) if why is None else SkippedCheck(fn.__name__.removeprefix("check_"), why)

    if all(fn in HEALTH_CHECKS for fn in fns):
        return [health(fn) for fn in fns]  # start-up: `check FILE` imports no checks-file machinery
    from ._checks_file import run_check

    return [health(fn) if fn in HEALTH_CHECKS else run_check(fn, t) for fn in fns]


#: Names that say "transcript": a file found in a directory under such a name that no format
#: reads is unreadable (a damaged or foreign transcript must not vanish from the run), while
#: any other file no format reads (a README, a config, an image) is skipped.
TRANSCRIPT_SUFFIXES = (".jsonl", ".ndjson", ".traj", ".eval", ".aider.chat.history.md")
TRANSCRIPT_NAMES = frozenset({"transcript.txt"})
#: How far into a ``.json`` file the first line is looked for (``_json_lines``).
_FIRST_LINE_MAX = 1 << 20


def _named_transcript(path: str) -> bool:
    """The file's name alone says it is a transcript (``TRANSCRIPT_SUFFIXES``, ``TRANSCRIPT_NAMES``)."""
    name = os.path.basename(path)
    return name in TRANSCRIPT_NAMES or name.lower().endswith(TRANSCRIPT_SUFFIXES)


def _json_lines(f: Any) -> bool:
    """A ``.json`` file that holds JSON Lines (its first line is a whole JSON object and another
    line follows): records, as an agent's ``--output-format stream-json`` saved as ``.json``. A
    single JSON document (a config, a cassette, ``package.json``) is not."""
    import json

    f.seek(0)
    first = f.readline(_FIRST_LINE_MAX).removeprefix(b"\xef\xbb\xbf")
    while first and not first.strip():
        first = f.readline(_FIRST_LINE_MAX)
    if not first.endswith(b"\n"):
        return False
    try:
        doc = json.loads(first)
    except ValueError:
        return False
    if not isinstance(doc, dict):
        return False
    return any(line.strip() for line in iter(lambda: f.readline(_FIRST_LINE_MAX), b""))


def _screen(path: str) -> tuple[str | None, bool]:
    """A file found in a directory, looked at cheaply (one stat, the first bytes): why it is
    obviously not a transcript (or ``None``: the formats' detection decides), and whether a
    failure to read it is *unreadable* rather than *skipped*: its name says transcript, or it
    cannot be read at all (a file nobody can look at is never "not a transcript")."""
    named = _named_transcript(path)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return "not a regular file", named
        with open(path, "rb") as f:
            head = f.read(_SNIFF)
            if not named and path.lower().endswith(".json"):
                named = _json_lines(f)
    except FileNotFoundError:
        if os.path.islink(path):
            return "a symbolic link to a missing file", named
        return "cannot be read: no such file", True
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}", True
    if not head.removeprefix(b"\xef\xbb\xbf").strip():
        return "empty file", named
    if b"\0" in head and not head.startswith(_ARCHIVE):
        return "binary file", named  # a zip archive may be a log (inspect_ai's .eval): detection decides
    return None, named


def _short(exc: AgentEvalError) -> str:
    reason = getattr(exc, "reason", None)
    return str(reason if reason is not None else exc).split("\n", 1)[0]


def _load_members(inp: Input, format: str | None) -> list[tuple[str, str | None, Transcript]]:
    """``(name, member, transcript)`` for each run the file holds: one for most files; one per
    member, named ``path#member``, for a file that holds several runs (an inspect_ai log's
    samples, an Aider history's sessions)."""
    out: list[tuple[str, str | None, Transcript]] = []
    for t in load_all(inp.path, format=format):
        name = t.path
        member = name[len(inp.path) + 1 :] if name.startswith(inp.path + "#") else None
        out.append((name, member, t))
    return out


def _kind(inp: Input) -> Literal["transcript", "sandbox"]:
    return "sandbox" if inp.kind == "sandbox" else "transcript"


def check_one(inp: Input | str | os.PathLike[str], checks: Checks | None = None, *,
              format: str | None = None) -> list[TranscriptResult]:
    """Check one input in this process: one result per transcript it holds (a file that holds
    several runs gives one per member, named ``path#member``).

    Never raises for a bad input: unreadable, skipped and crashed inputs are results too.
    """
    if not isinstance(inp, Input):
        inp = Input(os.fspath(inp))
    checks = checks or Checks()
    if inp.skip is not None:
        return [TranscriptResult.skipped(inp.path, inp.skip)]
    if inp.problem is not None:
        return [TranscriptResult.unreadable(inp.path, f"{inp.path}: {inp.problem}",
                                            kind=_kind(inp))]
    try:
        if inp.kind == "sandbox":
            return [_check_sandbox(inp.path, checks)]
        skippable = inp.discovered
        if inp.discovered:
            why, unreadable = _screen(inp.path)
            skippable = not unreadable
            if why is not None and skippable:
                return [TranscriptResult.skipped(inp.path, why)]
        fns = _loaded(checks)
        try:
            if skippable and format is not None:
                detect_format(inp.path)  # a forced format does not make every file a transcript
            members = _load_members(inp, format)
        except AgentEvalError as exc:
            if skippable:
                return [TranscriptResult.skipped(inp.path, _short(exc))]
            return [TranscriptResult.unreadable(inp.path, str(exc))]
        # Results are detached from their transcript: the transcripts go when this returns.
        out = []
        for name, member, t in members:
            if member is not None and len(members) > 1 and _idle(t):
                out.append(TranscriptResult(name=name, path=inp.path, member=member, problem="skipped",
                                            error="a run with no prompt and no agent activity (nothing to check)"))
                continue
            results = _run_checks(fns, t)
            if checks.extra is not None:
                results.extend(checks.extra(t))
            out.append(TranscriptResult.of(t, results, name=name, path=inp.path, member=member))
        return out
    except UsageError:
        raise  # a bad checks file or suite name: the whole run is wrong, not this input
    except Exception as exc:  # noqa: BLE001 - a crash on one input is that input's result
        what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        return [TranscriptResult.crashed(inp.path, what,
                                          kind=_kind(inp))]


def _idle(t: Transcript) -> bool:
    """A member of a file that holds several runs in which nobody asked or did anything (an Aider
    session that only upgraded Aider): skipped, as a file that is not a transcript is. A file of
    its own is never skipped this way: an empty transcript is checked, and does not pass."""
    from .model import Message

    return not t.all_tool_calls and not any(
        isinstance(s, Message) and s.role in ("user", "assistant") and not s.meta for s in t.steps)


_OUTCOME_STATUS = {
    "passed": Status.PASS,
    "failed": Status.FAIL,
    "inconclusive": Status.INCONCLUSIVE,
    "error": Status.ERROR,
}


def _check_sandbox(path: str, checks: Checks) -> TranscriptResult:
    from .storybook._context import EvalContext
    from .storybook._registry import suite
    from .storybook._suites import for_the_command_line

    if checks.eval is None:
        raise UsageError(f"{path}: a sandbox is checked by an eval suite (Checks(eval=...))")
    s = suite(checks.eval)
    try:
        ctx = EvalContext.from_sandbox(path)
    except (AgentEvalError, OSError) as exc:
        msg = str(exc)
        if not msg.startswith(str(path)):  # "__agent_eval__/agent.json: …": say which sandbox
            msg = f"{path}: {msg}"
        return TranscriptResult.unreadable(path, msg, kind="sandbox")
    judge = checks.suite_judge
    run = for_the_command_line(s.run(ctx, judge=judge, run_skipped_judges=checks.run_skipped_judges,
                                     cheap_first=judge is not None))
    entries: list[CheckResult | SkippedCheck] = []
    for o in run.outcomes:
        if o.outcome == "skipped":
            entries.append(SkippedCheck(o.name, o.message))
            continue
        # The suite's own verdict decides the status, as ``check --eval`` on one sandbox reports it.
        status = _OUTCOME_STATUS[o.outcome]
        if o.result is not None:
            entries.append(attrs.evolve(o.result, name=o.name, status=status))
        else:
            entries.append(CheckResult(name=o.name, status=status, summary=o.message or o.outcome))
    return TranscriptResult.of(
        ctx.transcript, entries, name=path, path=path, kind="sandbox", eval=f"storybook/{s.name}",
        context=run.context, notes=ctx.notes,
    )


def _check_chunk(chunk: Sequence[Input], checks: Checks, format: str | None) -> list[list[TranscriptResult]]:
    """The worker's task: check each input of *chunk* (module-level, so it pickles by name)."""
    return [check_one(inp, checks, format=format) for inp in chunk]


# -- check_many ------------------------------------------------------------------------------


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _as_checks(checks: Checks | Iterable[str | os.PathLike[str]] | None) -> Checks:
    if checks is None:
        return Checks()
    if isinstance(checks, Checks):
        return checks
    if isinstance(checks, (str, os.PathLike)):
        return Checks(files=(os.fspath(checks),))
    items: list[object]
    try:
        items = [checks] if callable(checks) else list(checks)
    except TypeError:  # not iterable either: reported just below
        items = [checks]
    files: list[str] = []
    for c in items:
        if isinstance(c, (str, os.PathLike)):
            files.append(os.fspath(c))
        else:
            raise UsageError(
                f"check_many() takes checks as checks-file paths or a Checks(...) (files, \"module:function\" "
                f"names, an eval suite), not {type(c).__name__} {c!r:.60}: the checks are loaded by name in "
                "each worker process, so that nothing needs pickling")
    return Checks(files=tuple(files))


def check_many(
    paths: Iterable[str | os.PathLike[str] | Input],
    checks: Checks | Iterable[str | os.PathLike[str]] | None = None,
    *,
    executor: cf.Executor | None = None,
    jobs: int | None = None,
    format: str | None = None,
    ordered: bool = False,
    chunksize: int = 1,
    window: int | None = None,
) -> Iterator[TranscriptResult]:
    """Check every input of *paths* and yield one ``TranscriptResult`` per transcript.

    Args:
        paths: files, or ``Input`` objects (``expand`` makes them from directories and globs).
            Consumed lazily: a generator over a million paths is fine.
        checks: a ``Checks``, checks-file paths, or ``None`` for the health checks.
        executor: any ``concurrent.futures.Executor`` (a ``ProcessPoolExecutor``, a
            ``dask.distributed.Client(...).get_executor()``...). Left open: the caller owns it.
            Without one, a local process pool of *jobs* workers is made and shut down, or, with
            ``jobs=1``, everything runs in this process.
        jobs: workers of the local pool (default: the cores this process may use).
        format: skip auto-detection.
        ordered: yield in input order (else as results complete).
        chunksize: inputs per task (raise it for many small files on a cluster).
        window: tasks in flight at once (default: four per worker); bounds the memory held
            by results waiting to be yielded.

    Yields results as they complete (or in order); unreadable and crashed inputs and skipped
    files are results too, so that nothing is silently dropped.

    Raises:
        UsageError: a checks file does not import, or the suite is unknown (before any work).
    """
    spec = _as_checks(checks)
    spec.validate()
    inputs = (p if isinstance(p, Input) else Input(os.fspath(p)) for p in paths)
    if spec.in_process_only:
        if executor is not None:
            raise UsageError("these checks run in this process (an LLM judge's cost cap is run-wide): "
                             "they cannot be sent to an executor")
        jobs = 1
    if executor is None:
        n = jobs or default_jobs()
        if n <= 1:
            for inp in inputs:
                yield from check_one(inp, spec, format=format)
            return
        import concurrent.futures as cf

        with cf.ProcessPoolExecutor(max_workers=n, mp_context=_mp_context()) as pool:
            yield from _fan_out(pool, inputs, spec, format, ordered, chunksize, window or 4 * n)
        return
    workers = jobs or _executor_workers(executor)
    yield from _fan_out(executor, inputs, spec, format, ordered, chunksize, window or 4 * workers)


def _mp_context() -> multiprocessing.context.BaseContext:
    """How the local pool starts its workers: by forking this process while it runs no other
    thread (fast: nothing to import again), else from a clean server process (``forkserver``,
    or ``spawn`` where there is none), since forking a process that runs threads (a Dask client,
    the caller's own) can deadlock, and Python 3.12+ warns about it."""
    import multiprocessing
    import threading

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _executor_workers(executor: cf.Executor) -> int:
    n = getattr(executor, "_max_workers", None)
    if isinstance(n, int) and n > 0:
        return n
    client = getattr(executor, "_client", None)  # dask.distributed's ClientExecutor
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # noqa: BLE001 - only a sizing hint
            return 8
    return 8


def _chunks(inputs: Iterator[Input], size: int) -> Iterator[list[Input]]:
    chunk: list[Input] = []
    for inp in inputs:
        chunk.append(inp)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _fan_out(
    executor: cf.Executor,
    inputs: Iterator[Input],
    checks: Checks,
    format: str | None,
    ordered: bool,
    chunksize: int,
    window: int,
) -> Iterator[TranscriptResult]:
    """Keep at most *window* tasks in flight (or waiting to be yielded in order)."""
    import concurrent.futures as cf

    chunks = enumerate(_chunks(inputs, max(1, chunksize)))
    pending: dict[cf.Future[list[list[TranscriptResult]]], tuple[int, list[Input]]] = {}
    done_early: dict[int, list[list[TranscriptResult]]] = {}
    next_out = 0
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) + len(done_early) < window:
                item = next(chunks, None)
                if item is None:
                    exhausted = True
                    break
                seq, chunk = item
                pending[executor.submit(_check_chunk, chunk, checks, format)] = (seq, chunk)
            if not pending:
                break
            done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                seq, chunk = pending.pop(fut)
                results = _outcome(fut, chunk)
                if ordered:
                    done_early[seq] = results
                else:
                    for rs in results:
                        yield from rs
            while ordered and next_out in done_early:
                for rs in done_early.pop(next_out):
                    yield from rs
                next_out += 1
    finally:
        for fut in pending:
            fut.cancel()


def _outcome(fut: cf.Future[list[list[TranscriptResult]]], chunk: list[Input]) -> list[list[TranscriptResult]]:
    """The task's results; if the task itself failed (a worker died, a result could not travel),
    each of its inputs is a *crashed* result saying so, and the run goes on."""
    try:
        return fut.result()
    except UsageError:
        raise  # a checks file or suite that a worker cannot load: the whole run is wrong
    except Exception as exc:  # noqa: BLE001 - reported per input, never lost
        what = f"the worker failed: {type(exc).__name__}: {exc}".splitlines()[0][:300]
        return [[TranscriptResult.crashed(inp.path, what, kind=_kind(inp))]
                for inp in chunk]
