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

import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

# The names of this module live in two private ones and are re-exported here (``X as X``: an
# explicit re-export for type checkers): finding the inputs (``_batch_inputs``) and running the
# checks on one input in whatever process (``_batch_run``). This module fans the inputs out.
from ._batch_inputs import NICEEVAL_MARKER as NICEEVAL_MARKER  # noqa: PLC0414
from ._batch_inputs import SANDBOX_MARKER as SANDBOX_MARKER  # noqa: PLC0414
from ._batch_inputs import SANDBOX_TRANSCRIPT as SANDBOX_TRANSCRIPT  # noqa: PLC0414
from ._batch_inputs import SKIP_DIRS as SKIP_DIRS  # noqa: PLC0414
from ._batch_inputs import TRANSCRIPT_NAMES as TRANSCRIPT_NAMES  # noqa: PLC0414
from ._batch_inputs import TRANSCRIPT_SUFFIXES as TRANSCRIPT_SUFFIXES  # noqa: PLC0414
from ._batch_inputs import Input, expand
from ._batch_inputs import _is_glob as _is_glob  # noqa: PLC0414
from ._batch_inputs import _screen as _screen  # noqa: PLC0414
from ._batch_run import CheckFn as CheckFn  # noqa: PLC0414
from ._batch_run import Checks, _check_chunk, _kind, check_one
from ._batch_run import _short as _short  # noqa: PLC0414
from .exceptions import UsageError
from .reporting import TranscriptResult

if TYPE_CHECKING:
    import concurrent.futures as cf
    import multiprocessing.context

# Start-up: ``summary`` and ``check`` of one file use ``expand`` and ``check_one``; the process
# pool (concurrent.futures, multiprocessing, threading) is imported when one is started.

__all__ = ["Checks", "Input", "check_many", "check_one", "expand"]


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
