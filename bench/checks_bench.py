"""Benchmark: 50 mixed checks on a transcript with 10,000 tool calls, next to its parse time.

    python -m bench.checks_bench                    # 10,000 calls, plus the scaling runs
    python -m bench.checks_bench --calls 2000 --no-scaling

The transcript is a generated Claude session log (``bench.generate``, fixed seed) grown until it
holds at least ``--calls`` tool calls. The 50 checks are the suite of ``bench._check_suite``
(existence, counts, negatives, the five order modes, before/after/within/never-after, outcomes,
retries, outputs, shell, files, final response, links, raw-text searches of the whole file,
budgets, subagents, skills, duplicates). Times are CPU seconds (``time.process_time``), the best
of ``--repeat`` runs, so that a busy shared machine does not inflate them.

The scaling runs (an eighth, a quarter, a half and all of the calls) show whether any check grows
faster than the transcript: with linear checks the time per call stays flat.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench import _check_suite
from bench.generate import DATA_DIR, ensure

BYTES_PER_CALL = 9_300  # claude-session from bench.generate: ~9.2 KB of log per tool call


def transcript_file(calls: int, out: Path = DATA_DIR) -> tuple[Path, dict[str, Any]]:
    """A generated claude-session file with at least *calls* tool calls (grown if needed)."""
    size = calls * BYTES_PER_CALL
    for _ in range(4):
        path, manifest = ensure("claude-session", size, out)
        have = int(manifest["tool_calls"])
        if have >= calls:
            return path, manifest
        size = int(size * calls / max(have, 1) * 1.02) + 1
    raise RuntimeError(f"could not generate a transcript with {calls} tool calls")


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    out: Any = None
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return min(times), out


def measure(path: Path, repeat: int) -> dict[str, Any]:
    from agenteval_assert import load

    suite = _check_suite._checks()
    if suite is None:
        raise SystemExit("agenteval_assert.checks is not importable")
    parse_s, t = best(lambda: load(path), repeat)
    per_check: dict[str, float] = {}
    statuses: Counter[str] = Counter()
    from_parse = dict(t._derived)  # what the parser leaves there (its count of the actions)

    def run_all() -> None:
        # every repeat starts without the look-ups the checks share (built once per transcript,
        # kept with it): their building is part of what the suite costs; what the parse itself
        # recorded stays, as a caller of load() has it
        t._derived.clear()
        t._derived.update(from_parse)
        statuses.clear()
        for name, fn in suite:
            t0 = time.process_time()
            r = fn(t)
            dt = time.process_time() - t0
            per_check[name] = min(dt, per_check.get(name, float("inf")))
            statuses[str(getattr(getattr(r, "status", None), "value", type(r).__name__))] += 1

    checks_s, _ = best(run_all, repeat)
    return {
        "path": str(path),
        "bytes": path.stat().st_size,
        "tool_calls": len(t.all_tool_calls),
        "steps": len(t.steps),
        "n_checks": len(suite),
        "parse_seconds": parse_s,
        "checks_seconds": checks_s,
        "statuses": dict(sorted(statuses.items())),
        "per_check_seconds": dict(sorted(per_check.items(), key=lambda kv: -kv[1])),
    }


def report(main: dict[str, Any], scaling: Sequence[dict[str, Any]]) -> str:
    head = (
        f"transcript: {main['path']} ({main['bytes'] / 1e6:.1f} MB, {main['tool_calls']} tool calls,"
        f" {main['steps']} steps)"
    )
    ratio = (
        f"{main['n_checks']} mixed checks:    {main['checks_seconds']:.3f} s CPU"
        f"  ({main['checks_seconds'] / main['parse_seconds']:.2f}x the parse time,"
        f" {main['checks_seconds'] / main['n_checks'] * 1000:.1f} ms per check)"
    )
    lines = [
        head,
        f"parse (load):        {main['parse_seconds']:.3f} s CPU",
        ratio,
        "statuses: " + ", ".join(f"{k} {v}" for k, v in main["statuses"].items()),
        "slowest checks:",
    ]
    for name, s in list(main["per_check_seconds"].items())[:10]:
        lines.append(f"  {s * 1000:8.2f} ms  {name}")
    if scaling:
        lines.append("scaling (CPU seconds; µs per tool call should stay flat if every check is linear):")
        lines.append("  calls    parse s   checks s   parse µs/call  checks µs/call  slowest check µs/call")
        for r in scaling:
            slow_name, slow_s = next(iter(r["per_check_seconds"].items()))
            n = r["tool_calls"]
            lines.append(
                f"  {n:>6}  {r['parse_seconds']:8.3f}  {r['checks_seconds']:9.3f}"
                f"  {r['parse_seconds'] / n * 1e6:13.1f}  {r['checks_seconds'] / n * 1e6:14.1f}"
                f"  {slow_s / n * 1e6:10.2f} ({slow_name})"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--calls", type=int, default=10_000, help="tool calls in the transcript (default 10000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best counts")
    ap.add_argument("--no-scaling", action="store_true", help="skip the 1/8, 1/4 and 1/2 size runs")
    ap.add_argument("--json", type=Path, help="also write the numbers to this JSON file")
    ap.add_argument("--out", type=Path, default=DATA_DIR, help="where generated transcripts go")
    args = ap.parse_args(argv)
    path, _ = transcript_file(args.calls, args.out)
    main_r = measure(path, args.repeat)
    scaling: list[dict[str, Any]] = []
    if not args.no_scaling:
        for part in (args.calls // 8, args.calls // 4, args.calls // 2):
            p, _ = transcript_file(part, args.out)
            scaling.append(measure(p, args.repeat))
        scaling.append(main_r)
    print(report(main_r, scaling))
    if args.json:
        args.json.write_text(json.dumps({"main": main_r, "scaling": scaling}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
