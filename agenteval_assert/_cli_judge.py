"""The judge options of ``check`` (``--criterion``, ``--judge-file``, ``--judge-cassette``...).

Kept apart from ``_cli.py`` so that the command line starts without importing the judge: the
judge package (and the ``anthropic`` SDK, for live calls only) is imported when an option asks
for it. Judging happens only when these options ask for it, never because an API key happens to
be in the environment.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ._cli_exit import bounded
from .exceptions import UsageError

if TYPE_CHECKING:  # start-up: the model is imported when a transcript is judged
    from .model import Transcript
    from .results import CheckResult

__all__ = ["add_judge_options", "judge_from_args", "judge_requested", "judge_results", "print_judge_notes", "suite_judge_from_args"]

_MODES = ("replay", "record", "live", "rekey")


class _Criterion(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, ns: argparse.Namespace, value: Any, option: str | None = None) -> None:
        items = list(getattr(ns, self.dest) or [])
        items.append([value, None])
        setattr(ns, self.dest, items)


class _Threshold(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, ns: argparse.Namespace, value: Any, option: str | None = None) -> None:
        items = getattr(ns, "criteria", None) or []
        if not items:
            parser.error("--threshold follows the --criterion it applies to")
        if items[-1][1] is not None:
            parser.error("--threshold given twice for the same --criterion")
        items[-1][1] = value


_score = bounded(float, lambda v: 0.0 <= v <= 1.0, "expected a score between 0 and 1, not")
_usd = bounded(float, lambda v: v >= 0.0 and v != float("inf"), "expected an amount in USD, not",
               "expected a finite amount in USD >= 0, not")


def add_judge_options(p: argparse.ArgumentParser) -> None:
    """Add the judge options to the ``check`` parser."""
    g = p.add_argument_group(
        "LLM judge",
        "Criteria decided by an LLM judge (the 'judge' extra for live calls). Judging happens only "
        "when these options ask for it. With --judge-cassette and no --judge-mode, cassettes are "
        "replayed and the network is never used.",
    )
    g.add_argument("--criterion", dest="criteria", action=_Criterion, metavar="TEXT",
                   help="a criterion for the judge (repeatable); passes on the judge's pass, or on --threshold")
    g.add_argument("--threshold", action=_Threshold, type=_score, metavar="X",
                   help="the score (0-1) the preceding --criterion needs")
    g.add_argument("--judge-file", metavar="judge.md",
                   help="a judge.md (task, '## Steps', '## Pass criteria'): one verdict on every criterion")
    g.add_argument("--var", dest="judge_vars", action="append", default=[], metavar="NAME=VALUE",
                   help="a {{NAME}} variable of --judge-file (repeatable)")
    g.add_argument("--judge-assume-complete", action="store_true",
                   help="judge an incomplete transcript as it is (the judge is told what it lacks); "
                        "without it, such a transcript's criteria are INCONCLUSIVE and the judge is not asked")
    g.add_argument("--judge-model", metavar="MODEL", help="the judge's model (default: the library's)")
    g.add_argument("--judge-cassette", metavar="PATH", help="the directory of the judge cassettes")
    g.add_argument("--judge-mode", choices=_MODES,
                   help="replay (offline; default with --judge-cassette), record, live (ignores cassettes), "
                        "rekey (moves stale hand-written example cassettes to their new key)")
    g.add_argument("--max-judge-cost", type=_usd, metavar="USD",
                   help="stop calling the judge once this much was spent (the rest is ERROR)")
    g.add_argument("--run-skipped-judges", action="store_true",
                   help="with --eval: also judge the tests the reference marks test.skip")


def judge_requested(args: argparse.Namespace) -> bool:
    """The options ask for criteria to be judged on each transcript."""
    return bool(getattr(args, "criteria", None) or getattr(args, "judge_file", None))


def _configures_judge(args: argparse.Namespace) -> bool:
    return any(getattr(args, k, None) is not None for k in ("judge_mode", "judge_cassette", "judge_model"))


def _command(args: argparse.Namespace) -> str:
    argv: list[str] = list(getattr(args, "argv", None) or [])
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "--judge-mode":
            skip = True
            continue
        if a.startswith("--judge-mode="):
            continue
        out.append(a)
    return "python -m agenteval_assert " + shlex.join(out) + " --judge-mode {mode}"


def judge_from_args(args: argparse.Namespace) -> Any:
    """The ``Judge`` the options describe, or ``None`` when they configure none."""
    if not (judge_requested(args) or _configures_judge(args)):
        return None
    if getattr(args, "judge_vars", None) and not getattr(args, "judge_file", None):
        raise UsageError("--var needs --judge-file")
    from .judge import DEFAULT_MODEL, Judge

    return Judge(
        model=args.judge_model or DEFAULT_MODEL,
        mode=args.judge_mode,
        cassettes=args.judge_cassette,
        max_cost=args.max_judge_cost,
        command=_command(args),
    )


def _variables(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--var expects NAME=VALUE, not {pair!r}")
        out[name.strip()] = value
    return out


def judge_results(t: Transcript, args: argparse.Namespace, judge: Any) -> list[CheckResult]:
    """The results of the ``--criterion`` and ``--judge-file`` options on *t*."""
    from .judge import check_criterion, check_verdict

    results: list[CheckResult] = []
    criteria = list(getattr(args, "criteria", None) or [])
    whole = bool(getattr(args, "judge_assume_complete", False))
    for n, (text, threshold) in enumerate(criteria, 1):
        name = "judge" if len(criteria) == 1 else f"judge {n}"
        results.append(check_criterion(t, text, threshold=threshold, judge=judge, name=name, assume_complete=whole))
    if getattr(args, "judge_file", None):
        results.extend(check_verdict(t, judge_file=args.judge_file, variables=_variables(args.judge_vars),
                                     judge=judge, name="judge-file", assume_complete=whole))
    return results


def suite_judge_from_args(args: argparse.Namespace) -> Any:
    """The Storybook suites' judge hook the options describe, or ``None`` (judge tests then stay
    INCONCLUSIVE)."""
    judge = judge_from_args(args)
    if judge is None:
        return None
    from .judge import criterion_hook

    return criterion_hook(judge)


def print_judge_notes(results: Sequence[Any], out: TextIO) -> None:
    """Say which verdicts come from hand-written example cassettes (never a model's answer)."""
    from .judge._core import hand_written_note, replayed_hand_written

    note = hand_written_note([r.name for r in results if replayed_hand_written(r)])
    if note:
        out.write(f"  note: {note}\n")
