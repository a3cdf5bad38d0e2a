"""``python -m agenteval_assert check SANDBOX_DIR --eval storybook/<name>`` and ``--eval list``.

Exit codes (the CLI's): 0 every test passed or was skipped, 1 a test failed, 2 unknown eval,
3 the sandbox could not be read, 4 nothing failed but something was inconclusive.
"""

from __future__ import annotations

from typing import TextIO

from ..exceptions import AgentEvalError, UsageError
from ._context import EvalContext
from ._suites import suite, suites

__all__ = ["list_evals_cli", "run_eval_cli"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INPUT, EXIT_INCONCLUSIVE = 0, 1, 2, 3, 4


def list_evals_cli(stdout: TextIO) -> int:
    """Print one line per built-in eval: ``storybook/<name>  [gen X]  title``."""
    stdout.writelines(f"storybook/{s.name:<56} gen {s.generation:<2}  {len(s.tests):>2} tests  {s.title}\n" for s in suites())
    return EXIT_OK


def run_eval_cli(
    sandbox: str, eval_name: str, *, stdout: TextIO, stderr: TextIO, verbose: bool = False
) -> int:
    """Run the eval *eval_name* on the saved sandbox directory *sandbox*; print one line per test."""
    try:
        s = suite(eval_name)
    except UsageError as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    try:
        ctx = EvalContext.from_sandbox(sandbox)
    except AgentEvalError as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_INPUT
    except OSError as exc:
        stderr.write(f"error: {sandbox}: {exc}\n")
        return EXIT_INPUT
    run = s.run(ctx)
    stdout.write(f"storybook/{s.name} on {sandbox}  ({run.context})\n")
    stdout.writelines(f"  note: {note}\n" for note in ctx.notes)
    for o in run.outcomes:
        stdout.writelines(f"  {line}\n" for line in o.line(verbose=verbose).splitlines())
    parts = [f"{run.passed} passed", f"{run.failed} failed", f"{run.skipped} skipped"]
    if run.inconclusive:
        parts.append(f"{run.inconclusive} inconclusive")
    stdout.write(", ".join(parts) + "\n")
    if run.failed:
        return EXIT_FAILED
    if run.inconclusive:
        return EXIT_INCONCLUSIVE
    return EXIT_OK
