"""Command line: ``python -m agenteval_assert {summary,check,report} ...``.

Exit codes are stable (see ``ExitCode``) and documented in ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO, cast

from ._cli_exit import ExitCode, _worse, current_input
from ._parsers import FORMATS, load_each
from ._version import __version__
from .exceptions import AgentEvalError, TranscriptError

if TYPE_CHECKING:
    from .model import ToolCall, Transcript, Usage

# Start-up: ``--version`` and ``--help`` import only the command line, argparse, the format names
# and the exceptions; the model, the results, the checks and the front ends are imported by the
# command that uses them (``tests/test_public_api.py`` lists what each command may import).

__all__ = ["ExitCode", "main", "process_main", "summary_dict"]


_FORMAT_HELP = f"skip auto-detection: one of {', '.join(FORMATS)}, or an installed plugin's format"


# -- summary ---------------------------------------------------------------------------------


def _usage_dict(u: Usage, mode: str) -> dict[str, Any]:
    return {
        "input_tokens": u.input_tokens,
        "output_tokens": u.output_tokens,
        "cache_read_tokens": u.cache_read_tokens,
        "cache_write_tokens": u.cache_write_tokens,
        "reasoning_tokens": u.reasoning_tokens,
        "cost_usd": u.cost_usd,
        "mode": mode,
    }


def _total_mode(t: Transcript) -> str:
    """How ``usage_total`` was made, for ``summary``."""
    if not t.subagents:
        return t.health.usage_mode
    mode = f"main agent and {_plural(len(t.subagents), 'subagent')}"
    if t.usage_unrecorded:
        mode += f" ({len(t.usage_unrecorded)} without recorded usage: left out)"
    return mode


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _errors(calls: Sequence[ToolCall]) -> int | None:
    """How many *calls* ended in an error; ``None`` (unknown) when the log does not record the
    outcome of one of them (Aider, SWE-agent, the OpenAI APIs' tool results): never a 0 that
    only means "not recorded"."""
    return _tally(calls)[0]


def _tally(calls: Sequence[ToolCall]) -> tuple[int | None, int, int]:
    """``_errors(calls)``, how many *calls* have no recorded outcome, and how many are
    unanswered: one pass over the calls (a long log has hundreds of thousands)."""
    from .model import ToolCall  # loaded with the transcript; _cli itself imports it lazily

    errors = unrecorded = unanswered = 0
    for c in calls:
        if type(c) is not ToolCall:  # a subclass may say otherwise: its own properties
            if c.outcome_recorded:
                errors += c.is_error
            else:
                unrecorded += 1
            unanswered += c.unanswered
            continue
        # ToolCall's outcome_recorded, is_error and unanswered, inline (no three property
        # frames per call: tests/test_cli_tally.py holds them to the properties)
        status = c.status
        result = c.result
        if status == "unrecorded":
            unrecorded += 1
        elif status in ("failed", "declined") or (
                result is not None and (result.is_error or result.exit_code not in (None, 0))):
            errors += 1
        if result is None and status not in ("completed", "unrecorded"):
            unanswered += 1
    return (None if unrecorded else errors), unrecorded, unanswered


def summary_dict(t: Transcript) -> dict[str, Any]:
    """The ``summary --json`` document (fields defined in ``docs/cli.md``)."""
    main_calls = t.tool_calls
    main_errors, unrecorded, unanswered = _tally(main_calls)
    sub_calls = t.subagent_tool_calls  # a pass over every call: made once
    h = t.health
    doc: dict[str, Any] = {
        "path": t.path,
        "format": t.format,
        "agent": t.agent,
        "model": t.model,
        "session_id": t.session_id,
        "tool_calls": len(main_calls),
        "subagent_tool_calls": len(sub_calls),
        "tool_errors": main_errors,
        "subagent_tool_errors": _errors(sub_calls),
        "unrecorded_outcomes": unrecorded,
        "unanswered_calls": unanswered,
        "tools": dict(t.tool_names),
        "final_response": t.final_response,
        "final_answer": t.final_answer,
        "steps": len(t.steps),
        "agent_steps": t.action_count(),
        "subagents": [
            {"id": s.id, "parent_call_id": s.parent_call_id, "type": s.type, "tool_calls": len(s.tool_calls),
             "tool_errors": _errors(s.tool_calls),
             "usage": _usage_dict(s.usage, "recorded" if s.usage.recorded else "none")}
            for s in t.subagents
        ],
        "usage": _usage_dict(t.usage, h.usage_mode),
        "usage_total": _usage_dict(t.usage_total, _total_mode(t)),
        "usage_unrecorded": list(t.usage_unrecorded),
        "usage_partial": t.usage_partial,
        "errors": [
            {"message": e.message, "location": str(e.location), "locations": [str(loc) for loc in e.locations]}
            for e in t.errors
        ],
        "run_error": None if t.run_error is None else str(t.run_error.location),
        "health": {
            "lines": h.lines,
            "records": h.records,
            "parsed_cleanly": h.parsed_cleanly,
            "complete": h.complete,
            "truncated_tail": h.truncated_tail,
            "unparsable_lines": [{"line": i.line, "reason": i.reason} for i in h.unparsable],
            "unknown_types": dict(h.unknown_types),
            "skipped": dict(h.skipped),
            "unanswered_calls": list(h.unanswered_calls),
            "orphan_results": list(h.orphan_results),
            "damaged_records": [{"line": i.line, "reason": i.reason} for i in h.damaged],
            "orphan_lines": list(h.orphan_lines),
            "run_ended": h.run_ended,
            "problems": h.problems(),
            "notes": list(h.notes),
        },
    }
    doc["workflow_calls"] = _optional_workflow_calls(t)
    return doc


def _optional_workflow_calls(t: Transcript) -> list[dict[str, Any]]:
    from .storybook._prefilter import may_hold_workflow_calls

    if not may_hold_workflow_calls(t):  # no text or name that can hold one: nothing to parse
        return []
    from .storybook._workflow import workflow_calls_json  # imported on use: keeps start-up fast

    return workflow_calls_json(t)


def _print_summary(t: Transcript, out: TextIO) -> None:
    d = summary_dict(t)
    h = t.health
    out.write(f"{t.path}\n")
    out.write(f"  format      {t.format} ({t.agent})\n")
    if t.model:
        out.write(f"  model       {t.model}\n")
    if t.session_id:
        out.write(f"  session     {t.session_id}\n")
    out.write(f"  steps       {len(t.steps)} ({t.action_count()} by the agent: what check_budget's max_steps counts)\n")
    errors = "errors not recorded" if d["tool_errors"] is None else _plural(d["tool_errors"], "error")
    if d["subagent_tool_calls"]:
        sub = d["subagent_tool_errors"]
        errors += f" (+{'unrecorded' if sub is None else sub} by subagents)"
    out.write(
        f"  tool calls  {d['tool_calls']} main, {d['subagent_tool_calls']} by subagents, "
        f"{errors}, {d['unanswered_calls']} unanswered\n"
    )
    out.writelines(f"    {n:>5}  {name}\n" for name, n in d["tools"].items())
    u = t.usage
    if u.recorded:
        label = "usage" if not t.subagents else "usage main"
        out.write(f"  {label:<11} {_usage_text(u)} ({h.usage_mode})\n")
    if t.usage_partial:
        out.write("  usage       partial: the log records usage for only part of the run (a lower bound)\n")
    if t.subagents and (t.usage_total.recorded or u.recorded):
        out.write(f"  usage total {_usage_text(t.usage_total)} ({d['usage_total']['mode']})\n")
    for sub in t.subagents:
        sub_errors = sum(1 for c in sub.tool_calls if c.is_error)
        out.write(f"  subagent    {sub.id} ({sub.type or 'unknown type'}): {_plural(len(sub.tool_calls), 'call')}, "
                  f"{_plural(sub_errors, 'error')}\n")
    for e in t.errors:
        also = [str(loc.line) for loc in e.locations if loc != e.location]
        at = f"{e.location}" + (f" (also line {', '.join(also)})" if also else "")
        msg = e.message.splitlines()[0][:120] if e.message else ""
        out.write(f"  run error   {at}: {msg}\n")
    if d.get("workflow_calls"):
        out.write(f"  storybook   {len(d['workflow_calls'])} workflow call(s): ")
        out.write(", ".join(w["name"] for w in d["workflow_calls"][:12]) + "\n")
    _print_final(t, out)
    status = "clean" if h.complete else "DAMAGED" if not h.intact else "INCOMPLETE"
    out.write(f"  health      {status}: {_plural(h.records, 'record')} on {_plural(h.lines, 'line')}\n")
    out.writelines(f"    - {p}\n" for p in h.problems())
    out.writelines(f"    line {issue.line}: {issue.reason}\n" for issue in h.unparsable[:10])
    if len(h.unparsable) > 10:
        out.write(f"    ... and {len(h.unparsable) - 10} more (summary --json lists all)\n")
    if h.unknown_types:
        out.write("    unknown record types: " + ", ".join(f"{k} x{v}" for k, v in h.unknown_types.items()) + "\n")
    if h.orphan_lines:
        shown = ", ".join(str(n) for n in h.orphan_lines[:10]) + (" ..." if len(h.orphan_lines) > 10 else "")
        out.write(f"    {_plural(len(h.orphan_lines), 'line')} in no step: {shown}\n")
    if h.skipped:
        out.write("    skipped: " + ", ".join(f"{k} x{v}" for k, v in h.skipped.items()) + "\n")
    out.writelines(f"    note: {note}\n" for note in h.notes)


def _usage_text(u: Usage) -> str:
    parts = [f"{label} {v}" for label, v in (
        ("in", u.input_tokens), ("out", u.output_tokens), ("cache read", u.cache_read_tokens),
        ("cache write", u.cache_write_tokens), ("of which reasoning", u.reasoning_tokens)) if v is not None]
    if u.cost_usd is not None:
        parts.append(f"${u.cost_usd:.4f}")
    return ", ".join(parts) or "none recorded"


#: Lines of the final response shown by ``summary`` (and characters per line).
_FINAL_LINES, _FINAL_WIDTH = 6, 100


def _print_final(t: Transcript, out: TextIO) -> None:
    """The final response, over several lines (bounded), and whether the run ended on it."""
    fr = t.final_response
    if fr is None or not fr.strip():
        out.write("  final       (none)\n")
        return
    if t.final_answer is None:
        out.write("  final       (no text after the last tool call; the last assistant text was:)\n")
    lines = fr.strip().splitlines()
    for i, line in enumerate(lines[:_FINAL_LINES]):
        shown = line if len(line) <= _FINAL_WIDTH else line[: _FINAL_WIDTH - 3] + "..."
        out.write(f"  {'final' if i == 0 and t.final_answer is not None else '':<11} {shown}".rstrip() + "\n")
    if len(lines) > _FINAL_LINES:
        out.write(f"              ... {_plural(len(lines) - _FINAL_LINES, 'more line')}\n")


def _dump_json(doc: Any, out: TextIO, indent: int | None = 2) -> None:
    """*doc* as strict JSON (RFC 8259): no ``NaN``/``Infinity`` (they become ``null``, as
    JavaScript's ``JSON.stringify`` writes them), and redacted; one line with ``indent=None``."""
    from ._redact import redact_json

    try:
        text = json.dumps(redact_json(doc), indent=indent, ensure_ascii=False, allow_nan=False)
    except (ValueError, RecursionError):
        text = json.dumps(redact_json(strict_json(doc)), indent=indent, ensure_ascii=False, allow_nan=False)
    out.write(text + "\n")


#: Containers deeper than this are cut from strict JSON output (``"<nested too deeply>"``).
_JSON_DEPTH = 200


def strict_json(value: Any, depth: int = 0) -> Any:
    """A copy of a JSON-like *value* that strict JSON can hold: non-finite floats become ``None``,
    integers too long to print become a string saying so, containers nested deeper than
    ``_JSON_DEPTH`` become ``"<nested too deeply>"``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value.bit_length() < 14000 else f"<an integer of {value.bit_length()} bits>"
    if isinstance(value, (dict, list, tuple)):
        if depth >= _JSON_DEPTH:
            return "<nested too deeply>"
        if isinstance(value, dict):
            return {str(k): strict_json(v, depth + 1) for k, v in value.items()}
        return [strict_json(v, depth + 1) for v in value]
    return value


def _printable(text: str) -> str:
    from .results import printable

    return printable(text)


class _OneFile(NamedTuple):
    """One transcript file named on the command line (the fields of ``batch.Input`` read here)."""

    path: str
    problem: str | None = None
    discovered: bool = False


def _cmd_summary(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # One file gives the document it always has; several inputs (or a directory, or a pattern)
    # give one document per transcript: JSON Lines with --json.
    inputs: Iterable[Any]  # batch.Input, or _OneFile
    if len(args.paths) == 1 and os.path.isfile(args.paths[0]):
        # what expand() gives for one file, without importing the batch machinery (start-up)
        several, inputs = False, (_OneFile(args.paths[0]),)
    else:
        from .batch import _is_glob, expand

        several = len(args.paths) > 1 or any(os.path.isdir(p) or _is_glob(p) for p in args.paths)
        inputs = expand(args.paths)
    worst = ExitCode.OK
    found = 0
    for inp in inputs:
        current_input.set(inp.path)
        if inp.problem is not None:
            err.write(f"error: {inp.path}: {inp.problem}\n")
            worst = _worse(worst, ExitCode.INPUT)
            continue
        if inp.discovered:
            from .batch import _screen, _short
        why, unreadable = _screen(inp.path) if inp.discovered else (None, True)
        if why is not None and not unreadable:
            err.write(f"skipped {inp.path}: {why}\n")
            continue
        try:
            whole, members = load_each(inp.path, format=args.format)
        except AgentEvalError as exc:
            if not unreadable:
                err.write(f"skipped {inp.path}: {_short(exc)}\n")
                continue
            if not several:
                raise
            err.write(f"error: {exc}\n")
            worst = _worse(worst, ExitCode.INPUT)
            continue
        found += 1
        if members:  # a file of several runs (inspect_ai samples, Aider sessions)
            from ._cli_members import member_lines, members_summary

            doc = members_summary(inp.path, whole, members) if args.json else None
        else:
            assert whole is not None
            doc = summary_dict(whole) if args.json else None
        if doc is not None:
            _dump_json(doc, out, indent=None if several else 2)
            continue
        if found > 1:
            out.write("\n")
        text = io.StringIO()  # redacted as a whole: secrets in the final response or run errors
        if whole is not None:
            _print_summary(whole, text)
        if members:
            member_lines(inp.path, members[0].format, members, text)
        from ._redact import redact  # start-up: on use

        out.write(_printable(redact(text.getvalue())))  # and control characters escaped
    if not found and worst is ExitCode.OK:
        err.write(f"error: no transcript found in {' '.join(args.paths)}\n")
        worst = ExitCode.INPUT
    return worst


# -- check -----------------------------------------------------------------------------------


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.eval == "list":
        return _cmd_check_eval(args, args.paths, out, err)
    if getattr(args, "transcript", None) is not None:
        # the agent's transcript for ONE sandbox that holds none: the eval's own report
        if args.eval is None:
            err.write("error: --transcript goes with --eval (a sandbox without its transcript)\n")
            return ExitCode.USAGE
        if len(args.paths) != 1 or args.output_format != "text" or args.output or args.dask_scheduler or args.html:
            err.write("error: --transcript gives the transcript of one sandbox: one PATH, the text report\n")
            return ExitCode.USAGE
        return _cmd_check_eval(args, args.paths, out, err)
    from . import _cli_check

    code: int = _cli_check.run(args, out, err, eval_one=_cmd_check_eval)
    return code


def _cmd_check_eval(args: argparse.Namespace, paths: Sequence[str], out: TextIO, err: TextIO) -> int:
    """``--eval list``, and ``--eval NAME`` on one sandbox printed as the eval's own report."""
    from .storybook import _cli as sb_cli

    if args.eval == "list":
        code: int = sb_cli.list_evals_cli(out)
        return code
    from . import _cli_judge

    if _cli_judge.judge_requested(args):
        err.write("error: --criterion and --judge-file do not apply to --eval (its suite names its own criteria)\n")
        return ExitCode.USAGE
    current_input.set(paths[0])
    code = sb_cli.run_eval_cli(paths[0], args.eval, stdout=out, stderr=err, verbose=args.verbose,
                               judge=_cli_judge.suite_judge_from_args(args),
                               run_skipped_judges=args.run_skipped_judges,
                               transcript=getattr(args, "transcript", None))
    return code


# -- report ----------------------------------------------------------------------------------


def _cmd_report(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from . import _cli_report

    current_input.set("<stdin>" if args.file == "-" else args.file)
    code: int = _cli_report.run(args, out, err)
    return code


# -- parser ----------------------------------------------------------------------------------


def _build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m agenteval_assert",
        description="Parse coding-agent transcripts and check what the agent did.",
    )
    p.add_argument("--version", action="version", version=f"agenteval-assert {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser(
        "summary",
        help="summarise transcripts (tool calls, errors, usage, health)",
        description=(
            "Summarise transcripts. FILE may be a file, a directory (walked recursively: every file a "
            "format reads) or a glob pattern; with several, --json prints JSON Lines. "
            "Example: python -m agenteval_assert summary run.jsonl --json"
        ),
    )
    s.add_argument("paths", nargs="+", metavar="FILE", help="transcript files, directories or glob patterns")
    s.add_argument("--format", metavar="NAME", help=_FORMAT_HELP)
    s.add_argument("--json", action="store_true", help="print the summary as a JSON document (JSON Lines for several)")
    s.set_defaults(func=_cmd_summary)

    c = sub.add_parser(
        "check",
        help="run checks on transcripts (built-in health checks, --checks FILE.py, --eval NAME)",
        description=(
            "Run checks on transcripts: files, directories (walked recursively: every file a format "
            "reads; the others are listed as skipped) and glob patterns. Without --checks or --eval, "
            "the built-in health checks run. Exit codes: 0 all passed, 1 a check failed, 2 usage error, "
            "3 input could not be read, 4 inconclusive, 5 a check could not run (ERROR), 70 internal "
            "error. Example: python -m agenteval_assert check runs/ --fail-under 90"
        ),
    )
    c.add_argument("paths", nargs="*", metavar="PATH",
                   help="transcript files, directories or glob patterns (sandbox directories with --eval)")
    c.add_argument("--format", metavar="NAME", help=_FORMAT_HELP)
    c.add_argument(
        "--checks", action="append", metavar="FILE.py", help="run the check_* functions of FILE.py (repeatable)"
    )
    c.add_argument("--health", action="store_true", help="also run the health checks with --checks")
    c.add_argument("--eval", metavar="NAME", help="run a built-in eval suite on sandbox dirs ('list' lists them)")
    c.add_argument("--transcript", metavar="FILE",
                   help="with --eval on one sandbox: the agent's transcript, for a sandbox that holds none (NiceEval)")
    c.add_argument("-v", "--verbose", action="store_true", help="show every evidence item and long values whole")
    from . import _cli_check, _cli_judge

    _cli_check.add_arguments(c)
    _cli_judge.add_judge_options(c)
    c.set_defaults(func=_cmd_check)

    r = sub.add_parser(
        "report",
        help="read a Storybook story-test report (markdown or --json document)",
        description="Read a story-test report. Example: python -m agenteval_assert report run.md --json",
    )
    from . import _cli_report

    _cli_report.add_arguments(r)
    r.set_defaults(func=_cmd_report)
    return p


class _PipeSafe(io.TextIOBase):
    """Standard output that stops writing once its reader has gone (``| head -1``) instead of
    ending the run: the ``--output`` files are still written in full and the exit code is still
    the verdict's."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream
        self.broken = False

    def _lost(self) -> None:
        self.broken = True
        if self._stream is sys.stdout or self._stream is sys.__stdout__:
            # what Python would otherwise flush at exit (and fail on, exit 120) goes nowhere
            with contextlib.suppress(OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, self._stream.fileno())
                os.close(devnull)

    def write(self, text: str) -> int:
        if not self.broken:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._lost()
        return len(text)

    def flush(self) -> None:
        if not self.broken:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._lost()

    def isatty(self) -> bool:
        try:
            return bool(self._stream.isatty())
        except (AttributeError, ValueError):
            return False

    def writable(self) -> bool:
        return True


#: Set while ``process_main`` runs: the command line is the whole process (not a call from a
#: test or an application), which then may keep its transcript alive until it exits.
_PROCESS = False
_GC_WAS_ENABLED = True


def process_main() -> int:
    """The entry point of a process (``python -m agenteval_assert``, the ``agenteval-assert``
    script): ``main()`` with the command line's own arguments, run as a short-lived process.

    When the command reads one transcript file (``summary FILE``, ``check FILE`` with the health
    checks), the cyclic garbage collector is off for the whole run (the parse makes trees, not
    cycles; a collection after the parse would walk the whole new model), and the transcript is
    not freed object by object before the exit (``_parsers.keep_for_exit``): the operating system
    takes its memory back. The exit itself is the ordinary one.
    """
    global _PROCESS
    _PROCESS = True
    try:
        return main()
    finally:
        _PROCESS = False
        from . import _parsers

        if _parsers._kept is not None:
            import gc

            gc.freeze()  # the kept transcript's cycle is out of the collector's reach: never freed
            _parsers._kept = None  # parses after this one (an in-process caller) keep nothing
            if _GC_WAS_ENABLED:
                gc.enable()  # as it was (what runs after this point sees the collector it had)


def _short_lived(args: argparse.Namespace) -> None:
    """``process_main``'s fast path, for one transcript file read by ``summary`` or by ``check``
    with the built-in health checks only (no checks file, eval, judge, cluster or report page:
    their code may allocate in cycles, or run long)."""
    if args.command not in ("summary", "check") or len(args.paths) != 1 or not os.path.isfile(args.paths[0]):
        return
    if args.command == "check":
        from . import _cli_judge

        if (args.checks or args.eval is not None or args.dask_scheduler or args.html
                or _cli_judge.judge_requested(args)):
            return
    import gc

    from ._parsers import keep_for_exit

    global _GC_WAS_ENABLED
    _GC_WAS_ENABLED = gc.isenabled()
    gc.disable()
    keep_for_exit()


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code (see ``ExitCode``)."""
    safe = _PipeSafe(stdout if stdout is not None else sys.stdout)
    out = cast(TextIO, safe)
    err = stderr if stderr is not None else sys.stderr
    try:
        return _main(argv, out, err)
    finally:
        safe.flush()


def _main(argv: Sequence[str] | None, out: TextIO, err: TextIO) -> int:
    current_input.set(None)
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help/--version
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help(out)
        return ExitCode.USAGE
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the judge names the command that records
    if _PROCESS:
        _short_lived(args)
    if args.command == "check" and not args.paths and args.eval != "list":
        err.write("error: check needs at least one PATH (a transcript, a directory or a glob pattern)\n")
        return ExitCode.USAGE
    try:
        code: int = args.func(args, out, err)
        return code
    except TranscriptError as exc:
        err.write(f"error: {exc}\n")
        return ExitCode.INPUT
    except AgentEvalError as exc:
        err.write(f"error: {exc}\n")
        # a format plugin that failed while reading an input: that input was not read
        return ExitCode.INPUT if getattr(exc, "path", None) is not None else ExitCode.USAGE
    except BrokenPipeError:  # pragma: no cover - standard error gone: nothing left to say it on
        return ExitCode.INTERNAL
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    except Exception as exc:  # noqa: BLE001 - the last resort: a crash must never read as "the agent failed"
        return _internal_error(exc, err)


def _internal_error(exc: BaseException, err: TextIO) -> int:
    """One line naming the input and the exception, a request for a bug report, exit 70."""
    where = current_input.get()
    what = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    err.write(
        f"internal error{f' while reading {where}' if where else ''}: {what}\n"
        "this is a bug in agenteval-assert, not a verdict on the agent: please report it with the "
        "command line and, if you can share it, the input (exit 70)\n"
    )
    return ExitCode.INTERNAL

