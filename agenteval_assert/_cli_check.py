"""``check``: inputs found in files, directories and globs, checked in a process pool (or on a Dask
cluster), reported as text, JSON, JSON Lines, JUnit, GitHub annotations or Markdown.

Results stream: each transcript is printed (and written to the machine-readable output) as soon
as it and every input before it are done; nothing but the totals and a few skipped paths is
kept.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from ._cli_exit import ExitCode, _worse, bounded, current_input
from .exceptions import UsageError

if TYPE_CHECKING:
    from .batch import Checks, Input
    from .model import Transcript
    from .reporting import TranscriptResult

# Start-up: the command line's parser adds these options for every command (``--version`` too),
# so the batch runner, the reporting and the model are imported by ``run``, not here.

__all__ = ["OUTPUT_FORMATS", "add_arguments", "run"]

OUTPUT_FORMATS = ("text", "json", "jsonl", "junit", "github", "markdown")

#: The exit code of each transcript status (the ``TranscriptStatus`` values).
_CODE = {
    "passed": ExitCode.OK,
    "failed": ExitCode.FAILED,
    "error": ExitCode.ERROR,
    "inconclusive": ExitCode.INCONCLUSIVE,
    "unreadable": ExitCode.INPUT,
    "crashed": ExitCode.INTERNAL,
    "skipped": ExitCode.OK,
}
#: How long ``--dask-scheduler`` waits for the scheduler to answer.
DASK_CONNECT_TIMEOUT = "10s"
#: Skipped files listed in the closing block without -v.
_SKIPPED_SHOWN = 10


_percent = bounded(lambda text: float(text.rstrip("%").strip()), lambda v: 0 <= v <= 100,
                   "expected a percentage from 0 to 100, got")
_positive = bounded(int, lambda v: v >= 1, "expected a number of workers (1 or more), got")


def add_arguments(c: argparse.ArgumentParser) -> None:
    c.add_argument("--fail-under", type=_percent, metavar="PCT",
                   help="exit 1 when fewer than PCT %% of the transcripts passed, else 0 (3, 5 and 70 keep their codes)")
    c.add_argument("-j", "--jobs", type=_positive, metavar="N",
                   help="worker processes (default: the number of cores when there are several inputs)")
    c.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text",
                   help="text (default), json (the run-result document), jsonl (one transcript per line), "
                        "junit, github (annotations) or markdown")
    c.add_argument("-o", "--output", metavar="FILE",
                   help="write the output format to FILE (the text report then goes to stdout)")
    c.add_argument("--inconclusive", choices=("fail", "skip"), default="fail",
                   help="JUnit: an inconclusive check is a failure (default) or skipped")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    c.add_argument("--dask-scheduler", metavar="ADDRESS",
                   help="check on a Dask cluster (tcp://host:8786); needs the [dask] extra")
    c.add_argument("--html", metavar="FILE",
                   help="also write the run as one self-contained HTML page; needs the [html] extra")


class _Writer(Protocol):
    def add(self, r: TranscriptResult) -> None: ...
    def close(self) -> None: ...


class _JsonLines:
    def __init__(self, out: TextIO) -> None:
        self._out = out

    def add(self, r: TranscriptResult) -> None:
        self._out.write(json.dumps(r.to_dict(), ensure_ascii=False) + "\n")

    def close(self) -> None:
        pass


def _writer(fmt: str, out: TextIO, args: argparse.Namespace) -> _Writer:
    if fmt == "json":
        from .reporting import JsonWriter

        return JsonWriter(out)
    if fmt == "jsonl":
        return _JsonLines(out)
    if fmt == "junit":
        from .reporting._junit import JUnitWriter

        return JUnitWriter(out, inconclusive="skip" if args.inconclusive == "skip" else "failure",
                           verbose=args.verbose)
    from .reporting._markdown import MarkdownWriter

    return MarkdownWriter(out, verbose=args.verbose)


@contextlib.contextmanager
def _atomic(path: str) -> Iterator[TextIO]:
    """A file written beside *path* and moved over it once complete (no half-written report)."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".agenteval-", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the output: {exc.strerror or exc}") from None
    try:
        with open(fd, "w", encoding="utf-8", newline="\n") as f:
            yield f
        os.chmod(tmp, 0o666 & ~_umask())  # as open() would have made it (mkstemp makes it 0600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _progress(total: int, err: TextIO, quiet: bool) -> Any:
    """A tqdm bar on *err* when it is a terminal (tqdm imported only then), else ``None``."""
    if quiet or total < 2 or not _isatty(err):
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # the [progress] extra is not installed: no bar
        return None
    return tqdm(total=total, file=err, unit="input", leave=False, dynamic_ncols=True)


def _dask_executor(address: str) -> tuple[Any, Any]:
    try:
        import distributed
    except ImportError:
        raise UsageError(
            "--dask-scheduler needs Dask: pip install 'agenteval-assert[dask]'"
        ) from None
    client_class: Any = distributed.Client  # untyped library
    try:
        client = client_class(address, timeout=DASK_CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"cannot connect to the Dask scheduler at {address}: {exc}") from None
    return client, client.get_executor()


def run(args: argparse.Namespace, out: TextIO, err: TextIO, *,
        eval_one: Callable[[argparse.Namespace, Sequence[str], TextIO, TextIO], int]) -> int:
    """``check``; *eval_one* prints one sandbox's eval as the eval's own report."""
    from . import _cli_judge
    from .batch import Checks, default_jobs, expand
    from .results import CheckResult

    if args.eval is not None and _cli_judge.judge_requested(args):
        err.write("error: --criterion and --judge-file do not apply to --eval (its suite names its own criteria)\n")
        return ExitCode.USAGE
    if args.html:  # before any work, not after the run
        from ._optional import MissingExtraError, require

        try:
            require("jinja2", extra="html", feature="--html")
        except MissingExtraError as exc:
            raise UsageError(str(exc)) from None
    inputs = list(expand(args.paths, sandboxes=args.eval is not None))
    fmt = args.output_format
    if (args.eval is not None and len(inputs) == 1 and inputs[0].problem is None and fmt == "text" and not args.output
            and not args.dask_scheduler and not args.html):
        return eval_one(args, [inputs[0].path], out, err)  # one sandbox: the eval's own report
    # The LLM judge runs in this process (its cost cap is run-wide, its cassettes are shared).
    extra = None
    if args.eval is None and _cli_judge.judge_requested(args):
        judge = _cli_judge.judge_from_args(args)

        def extra(t: Transcript) -> list[CheckResult]:
            return _cli_judge.judge_results(t, args, judge)
    checks = Checks(
        files=tuple(os.path.abspath(f) for f in args.checks or ()),
        health=True if args.health else None,
        eval=args.eval,
        run_skipped_judges=bool(getattr(args, "run_skipped_judges", False)),
        extra=extra,
        suite_judge=_cli_judge.suite_judge_from_args(args) if args.eval is not None else None,
    )
    if checks.in_process_only and args.dask_scheduler:
        raise UsageError("the LLM judge runs in this process (its cost cap is run-wide): "
                         "--dask-scheduler does not apply with the judge options")
    checks.validate()  # a bad checks file or suite name: exit 2 before any work
    with contextlib.ExitStack() as stack:
        machine: TextIO | None = None
        text: TextIO | None = None
        if fmt in ("text", "github"):
            text = stack.enter_context(_atomic(args.output)) if args.output else out
        else:
            machine = stack.enter_context(_atomic(args.output)) if args.output else out
            text = out if args.output else None
        writer = _writer(fmt, machine, args) if machine is not None else None
        executor = None
        if args.dask_scheduler:
            client, executor = _dask_executor(args.dask_scheduler)
            stack.callback(client.close)
        jobs = 1 if checks.in_process_only else args.jobs or (default_jobs() if len(inputs) > 1 else 1)
        bar = _Bar(len(inputs), err, args.quiet)
        stack.callback(bar.close)
        code = _report(inputs, checks, args, executor, jobs, writer, text, err, bar)
    return code


class _Bar:
    """The progress bar, drawn from the first result on: the worker processes start first, while
    this process runs no other thread (tqdm's monitor is one)."""

    def __init__(self, total: int, err: TextIO, quiet: bool) -> None:
        self._args = (total, err, quiet)
        self._bar: Any = None
        self._started = False

    def update(self) -> None:
        if not self._started:
            self._started = True
            self._bar = _progress(*self._args)
        if self._bar is not None:
            self._bar.update(1)

    def clear(self) -> None:
        if self._bar is not None:
            self._bar.clear()

    def refresh(self) -> None:
        if self._bar is not None:
            self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _judge_note(r: TranscriptResult) -> str:
    """Which verdicts come from hand-written example cassettes (never a model's answer)."""
    import io

    from . import _cli_judge
    from .results import CheckResult

    buf = io.StringIO()
    _cli_judge.print_judge_notes([c for c in r.checks if isinstance(c, CheckResult)], buf)
    return buf.getvalue()


def _report(inputs: list[Input], checks: Checks, args: argparse.Namespace, executor: Any, jobs: int,
            writer: _Writer | None, text: TextIO | None, err: TextIO, bar: _Bar) -> int:
    from .batch import check_many
    from .reporting import RunTotals
    from .reporting._text import closing_block, github_safe, result_text
    from .results import printable

    totals = RunTotals()
    worst = ExitCode.OK
    skipped: list[TranscriptResult] = []
    github = args.output_format == "github"
    if github:
        from .reporting._github import workflow_commands
    clear_bar = text is not None and _isatty(text)
    last_path = None
    html: list[TranscriptResult] | None = [] if args.html else None  # results are small: no transcript
    # Several inputs per task once there are many (the per-task cost of a pool or a cluster is
    # not small beside a small transcript's checks), while keeping every worker busy.
    chunksize = max(1, min(16, len(inputs) // (8 * max(jobs, 2))))
    results = check_many(inputs, checks, executor=executor, jobs=jobs, format=args.format, ordered=True,
                         chunksize=chunksize)
    for r in results:
        current_input.set(r.path)
        if r.path != last_path:
            bar.update()
        last_path = r.path
        totals.add(r)
        worst = _worse(worst, _CODE[r.status.value])
        if r.problem == "unreadable":
            err.write(f"error: {printable(r.error or '', one_line=True)}\n")
        elif r.problem == "crashed":
            err.write(
                f"internal error while reading {printable(r.path, one_line=True)}: "
                f"{printable(r.error or '', one_line=True)}\n"
                "this is a bug in agenteval-assert, not a verdict on the agent: please report it with the "
                "command line and, if you can share it, the input (exit 70)\n"
            )
        elif r.problem == "skipped" and (args.verbose or len(skipped) < _SKIPPED_SHOWN):
            skipped.append(r)
        if text is not None:
            block = result_text(r, verbose=args.verbose)
            if checks.in_process_only and block:
                block += _judge_note(r)
            if github:  # the report cannot issue workflow commands; the annotations follow it
                block = github_safe(block) + "".join(line + "\n" for line in workflow_commands(r))
            if block:
                if clear_bar:
                    bar.clear()
                text.write(block)
                if clear_bar:
                    text.flush()
                    bar.refresh()
        if writer is not None:
            writer.add(r)
        if html is not None:
            html.append(r)
    if writer is not None:
        writer.close()
    if html is not None:
        from .reporting.html import html_parts

        with _atomic(args.html) as page:  # each transcript is read again for its section, then dropped
            page.writelines(html_parts(html))
    if text is not None:
        closing = closing_block(totals, skipped, skipped_count=totals.skipped_files, verbose=args.verbose)
        text.write(github_safe(closing) if github else closing)
    if not totals.transcripts:
        what = "sandbox" if args.eval is not None else "transcript"
        err.write(f"error: no {what} found in {' '.join(args.paths)} "
                  f"({totals.skipped_files} file(s) skipped: no format reads them)\n")
        return _worse(worst, ExitCode.INPUT)
    if args.fail_under is not None and worst in (ExitCode.OK, ExitCode.FAILED, ExitCode.INCONCLUSIVE):
        worst = ExitCode.FAILED if totals.below(args.fail_under) else ExitCode.OK
    return worst
