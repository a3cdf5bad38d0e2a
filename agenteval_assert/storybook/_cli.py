"""``python -m agenteval_assert check SANDBOX_DIR --eval storybook/<name>`` and ``--eval list``.

Exit codes (the CLI's): 0 every test passed or was skipped, 1 a test failed, 2 unknown eval,
3 the sandbox could not be read, 4 nothing failed but something was inconclusive, 5 nothing
failed but a check or the judge could not run (ERROR).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from .._redact import redact
from ..exceptions import AgentEvalError, UsageError
from ..results import printable
from ._context import EvalContext
from ._registry import suite, suites
from ._suites import for_the_command_line

__all__ = ["list_evals_cli", "run_eval_cli"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INPUT, EXIT_INCONCLUSIVE, EXIT_ERROR = 0, 1, 2, 3, 4, 5


def list_evals_cli(stdout: TextIO) -> int:
    """Print one line per built-in eval: ``storybook/<name>  [gen X]  title``."""
    stdout.writelines(f"storybook/{s.name:<56} gen {s.generation:<2}  {len(s.tests):>2} tests  {s.title}\n" for s in suites())
    return EXIT_OK


def run_eval_cli(
    sandbox: str, eval_name: str, *, stdout: TextIO, stderr: TextIO, verbose: bool = False,
    judge: Any = None, run_skipped_judges: bool = False, transcript: str | None = None,
) -> int:
    """Run the eval *eval_name* on the saved sandbox directory *sandbox*; print one line per test.

    *judge* (a suites' judge hook) decides the judge tests, deterministic tests first (a judge
    test is skipped when one of them failed); without it they stay inconclusive. *transcript*
    (a file) stands for the sandbox's ``transcript.txt``, which a NiceEval sandbox does not hold.
    """
    try:
        s = suite(eval_name)
    except UsageError as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    try:
        ctx = EvalContext.from_sandbox(sandbox, transcript=transcript)
    except AgentEvalError as exc:
        if transcript is not None and getattr(exc, "path", None) == str(Path(transcript)):
            stderr.write(f"error: --transcript {exc}\n")  # the option, as the user typed it
        else:
            stderr.write(f"error: {exc}\n")
        return EXIT_INPUT
    except OSError as exc:
        stderr.write(f"error: {sandbox}: {exc}\n")
        return EXIT_INPUT
    run = for_the_command_line(s.run(ctx, judge=judge, run_skipped_judges=run_skipped_judges,
                                     cheap_first=judge is not None))
    stdout.write(f"storybook/{s.name} on {printable(sandbox, one_line=True)}  ({run.context})\n")
    stdout.writelines(f"  note: {printable(note, one_line=True)}\n" for note in ctx.notes)
    for o in run.outcomes:
        # outcome lines quote the transcript (commands, responses): secrets are redacted, and
        # control characters escaped (what the agent's tools printed cannot drive the terminal)
        stdout.writelines(f"  {line}\n" for line in printable(redact(o.line(verbose=verbose))).splitlines())
    if judge is not None:
        from ..judge._core import hand_written_note, replayed_hand_written

        note = hand_written_note([o.name for o in run.outcomes if replayed_hand_written(o.result)])
        if note:
            stdout.write(f"  note: {note}\n")
    parts = [f"{run.passed} passed", f"{run.failed} failed", f"{run.skipped} skipped"]
    if run.inconclusive:
        parts.append(f"{run.inconclusive} inconclusive")
    if run.errors:
        parts.append(f"{run.errors} error" + ("s" if run.errors != 1 else ""))
    stdout.write(", ".join(parts) + "\n")
    if run.failed:
        return EXIT_FAILED
    if run.errors:
        return EXIT_ERROR
    if run.inconclusive:
        return EXIT_INCONCLUSIVE
    return EXIT_OK
