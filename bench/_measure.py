"""One measurement in a fresh interpreter: ``python -m bench._measure KIND FILE [FILE...]``.

Prints one JSON object on stdout. Every kind imports what it needs *first*, then takes the
interpreter's RSS as the baseline, then times the work and takes the peak RSS, so that
``rss_peak_kb - rss_base_kb`` is what the work itself added (imports excluded).

``seconds`` is the CPU time of the work (``time.process_time``): all the measured work is
single-threaded, and CPU time does not count the time the process waited for a core, which
on a shared machine is most of the noise in wall time. ``wall_seconds`` is kept beside it.

Kinds:
  baseline   a plain ``json.loads`` loop over the lines of FILE (the floor of any Python parser)
  ours       ``agenteval_assert.load(FILE)`` (parse + normalise, the Transcript kept alive)
  checks     ``load(FILE)`` timed, then the check suite timed on the Transcript
  batch      ``load`` + the health checks on every FILE (library level, no process per file)
  sdk        ``claude_agent_sdk`` ``parse_message`` over each line (stream-json peer)
  ccl        ``claude_code_log.converter.load_transcript`` (session-log peer)
"""

from __future__ import annotations

import contextlib
import gc
import json
import resource
import sys
import time
import traceback
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

Result = dict[str, Any]


def _rss_kb() -> int:
    """Peak RSS of this process so far, KiB (Linux reports ru_maxrss in KiB)."""
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _current_rss_kb() -> int:
    """RSS now, KiB: the baseline. The peak so far can be higher (import-time garbage since
    freed), and the work may grow into that room without moving the peak, so the baseline is
    the current RSS, not the peak."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[1])
        return pages * resource.getpagesize() // 1024
    except (OSError, ValueError, IndexError):
        return _rss_kb()


def _timed(work: Callable[[], Result]) -> Result:
    gc.collect()
    base = _current_rss_kb()
    c0 = time.process_time()
    t0 = time.perf_counter()
    out = work()
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    out.update(ok=True, seconds=cpu, wall_seconds=wall, rss_base_kb=base, rss_peak_kb=_rss_kb())
    return out


def baseline(path: str) -> Result:
    loads = json.loads

    def work() -> Result:
        n = 0
        with open(path, "rb") as f:
            for line in f:
                if line.strip():
                    loads(line)
                    n += 1
        return {"records": n}

    return _timed(work)


def _warm(path: str) -> None:
    """Parse the first lines of *path* once, so that lazy imports (the format modules, pydantic
    schemas) are not billed to the timed parse: the figure is the steady-state parse."""
    from agenteval_assert import parse

    with open(path, "rb") as f:
        head = b"".join(islice(f, 40))
    # a warm-up failure shows again, reported, in the timed run
    with contextlib.suppress(Exception):
        parse(head, path="<warm-up>")


def build_check_indexes(t: Any) -> None:
    """Every look-up the checks share, built in full (an upper bound: checks build only what
    they use): calls by alias and kind, shell scripts and file events, argument keys, the
    failure-word flags and one evidence item for every call."""
    try:
        from agenteval_assert.checks import _safety
        from agenteval_assert.checks._common import _index
        from agenteval_assert.checks._files import _file_index
    except ImportError:  # an older tree without the shared index
        return
    ix = _index(t)
    for include in (True, False):
        ix.by_alias(include)
        ix.of_kind("shell", include)
        ix.shell_calls(include)
    for c in ix.all_calls:
        ix.args_key(c)
        ix.evidence(c)
        _safety._failed(c, _safety.DEFAULT_FAILURE_OUTPUT, ix)
    _file_index(t)


def ours(path: str) -> Result:
    from agenteval_assert import load, parse

    _warm(path)
    with open(path, "rb") as f:  # the index modules imported before the baseline too
        head = b"".join(islice(f, 40))
    with contextlib.suppress(Exception):
        build_check_indexes(parse(head, path="<warm-up>"))
    kept: list[Any] = []

    def work() -> Result:
        t = load(path)
        kept.append(t)  # alive at the second RSS reading, like a caller's transcript
        return {
            "calls": len(t.all_tool_calls),
            "tool_calls": len(t.tool_calls),
            "subagent_tool_calls": len(t.all_tool_calls) - len(t.tool_calls),
            "tool_errors": sum(1 for c in t.tool_calls if c.is_error),
            "complete": t.health.complete,
            "final_response": t.final_response,
            "format": t.format,
        }

    out = _timed(work)
    # then the checks' shared look-ups, untimed: the peak RSS with them built (compact, lazy)
    build_check_indexes(kept[0])
    out["rss_indexed_kb"] = _rss_kb()
    return out


def check_suite() -> tuple[str, Callable[[Any], list[Any]]]:
    """The suite run by ``checks``: 50 mixed checks when ``agenteval_assert.checks`` has them,
    else the built-in health checks."""
    from bench import _check_suite

    suite = _check_suite.suite()
    if suite is not None:
        return suite
    try:
        from agenteval_assert._health import health_checks

        return "health checks (agenteval_assert._health)", lambda t: list(health_checks(t))
    except ImportError:

        def manual(t: Any) -> list[Any]:
            return [
                t.health.complete,
                [c for c in t.all_tool_calls if c.result is None],
                sum(1 for c in t.tool_calls if c.is_error),
                bool(t.final_response),
            ]

        return "health checks (by hand)", manual


def checks(path: str) -> Result:
    from agenteval_assert import load, parse

    name, run = check_suite()
    _warm(path)
    # the suite once on the first lines, so that the modules the checks import on first use
    # (the shell parser, regexes compiled at import) are not billed to the timed run
    with open(path, "rb") as f:
        head = b"".join(islice(f, 40))
    with contextlib.suppress(Exception):
        run(parse(head, path="<warm-up>"))
    gc.collect()
    t0 = time.process_time()
    t = load(path)
    parse_s = time.process_time() - t0
    # The collector's first pass over the objects the parse made (it is held off during the
    # parse): a cost of the load, paid by whatever allocates next; paid here, reported apart,
    # so that it does not land on whichever check happens to come first.
    t0 = time.process_time()
    gc.collect()
    gc_s = time.process_time() - t0
    base = _current_rss_kb()
    t0 = time.process_time()
    results = run(t)
    check_s = time.process_time() - t0
    statuses: dict[str, int] = {}
    for r in results:
        s = getattr(r, "status", None)
        if isinstance(r, str):
            key = r
        elif s is not None:
            key = str(getattr(s, "value", s))
        else:
            key = type(r).__name__
        statuses[key] = statuses.get(key, 0) + 1
    from bench import _check_suite

    slowest = sorted(_check_suite.LAST_TIMINGS, key=lambda x: -x[1])[:8]
    return {
        "ok": True,
        "suite": name,
        "slowest": slowest,
        "n_checks": len(results),
        "statuses": statuses,
        "parse_seconds": parse_s,
        "gc_seconds": gc_s,
        "seconds": check_s,
        "rss_base_kb": base,
        "rss_peak_kb": _rss_kb(),
    }


def batch(paths: list[str]) -> Result:
    from agenteval_assert import load

    try:
        from agenteval_assert._health import health_checks
    except ImportError:
        health_checks = None  # type: ignore[assignment]

    def work() -> Result:
        failed = 0
        for p in paths:
            t = load(p)
            if health_checks is not None:
                rs = health_checks(t)
                failed += any(str(getattr(r.status, "value", r.status)).lower() != "pass" for r in rs)
            elif not t.health.complete:
                failed += 1
        return {"files": len(paths), "not_passing": failed}

    return _timed(work)


def sdk(path: str) -> Result:
    from claude_agent_sdk._internal.message_parser import (  # type: ignore[import-not-found, unused-ignore]
        parse_message,
    )

    loads = json.loads

    def work() -> Result:
        calls = 0
        kept = []
        with open(path, "rb") as f:
            for line in f:
                if not line.strip():
                    continue
                m = parse_message(loads(line))
                kept.append(m)
                for block in getattr(m, "content", None) or ():
                    if type(block).__name__ == "ToolUseBlock":
                        calls += 1
        return {"calls": calls, "messages": len(kept)}

    return _timed(work)


def ccl(path: str) -> Result:
    from claude_code_log.converter import (  # type: ignore[import-not-found, unused-ignore]
        load_transcript,
    )

    def work() -> Result:
        entries = load_transcript(Path(path), silent=True)
        calls = 0
        for e in entries:
            content = getattr(getattr(e, "message", None), "content", None)
            if isinstance(content, list):
                calls += sum(1 for b in content if type(b).__name__ == "ToolUseContent")
        return {"calls": calls, "entries": len(entries)}

    return _timed(work)


KINDS: dict[str, Callable[..., Result]] = {
    "baseline": baseline,
    "ours": ours,
    "checks": checks,
    "sdk": sdk,
    "ccl": ccl,
}


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    kind, files = argv[0], argv[1:]
    try:
        if kind == "batch":
            if len(files) == 1 and files[0].startswith("@"):
                files = Path(files[0][1:]).read_text(encoding="utf-8").split("\n")
                files = [f for f in files if f]
            out = batch(files)
        else:
            out = KINDS[kind](files[0])
    except Exception as exc:  # noqa: BLE001 - reported to the runner, which shows it in the table
        out = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:500], "trace": traceback.format_exc()[-2000:]}
    print(json.dumps(out, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
