"""The benchmark: ``python -m bench.run`` (full) or ``python -m bench.run --smoke`` (CI).

In one run, on generated transcripts (``bench.generate``) of every format and size:

* parse + normalise time of ``agenteval_assert.load``: MB/s, tool calls/s, peak RSS;
* the baseline, a plain ``json.loads`` loop over the same lines: our time ÷ its time;
* the peers, where installed (``bench/setup_peers.sh``): ``claude-agent-sdk``'s message parser
  (stream-json), ``claude-code-log`` (session logs), ``@vercel/agent-eval`` under Node.js
  (Claude and Codex): their time ÷ ours, and the tool calls each one found;
* the check suite on the largest Claude session log: its time ÷ the parse time;
* ``python -m agenteval_assert check`` on a batch of small transcripts: files per second;
* whole processes (``--only whole``): ``summary --json`` and ``check`` against a ``json.loads``
  loop, each a fresh interpreter, on real corpus records repeated to 100 MB (``bench.replicate``);
* start-up (``--only startup``): ``--version``, ``summary`` and ``check`` of a tiny file against
  ``python -c 'import attrs, json'``.

Every figure is measured in a fresh process (so peak RSS is the child's own, minus what the
interpreter and the imports already held), several times, in rotating order; the tables give
the median and the spread (min–max). Results go to stdout and ``bench/results/latest.{md,json}``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bench import generate as gen
from bench import replicate as rep

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PEERS = BENCH / ".peers"
PEER_PYTHON = PEERS / "venv" / "bin" / "python"
VERCEL_MODULE = PEERS / "node" / "node_modules" / "@vercel" / "agent-eval" / "dist" / "lib" / "o11y" / "index.js"
RESULTS = BENCH / "results"
SMOKE_SIZE = 64_000
SMOKE_BATCH = (20, 8_000)
FULL_BATCH = (1000, 10_000)
TIMEOUT = 1800.0
#: Below this file size the RSS growth is lost in allocator granularity: no memory figure.
MEM_MIN_BYTES = 5_000_000

#: The peers: name → (formats it parses, how to run it).
PEER_FORMATS: dict[str, tuple[str, ...]] = {
    "claude-agent-sdk": ("claude-stream-json",),
    "claude-code-log": ("claude-session",),
    "vercel-agent-eval": ("claude-session", "claude-stream-json", "codex-exec", "codex-rollout"),
}
_VERCEL_AGENT = {
    "claude-session": "claude-code",
    "claude-stream-json": "claude-code",
    "codex-exec": "codex",
    "codex-rollout": "codex",
}

Measurement = dict[str, Any]


# -- machine ---------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """Cores, memory, CPU model, Python and Node versions."""
    info: dict[str, Any] = {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
    }
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    info["memory_gib"] = round(int(line.split()[1]) / 1024 / 1024, 1)
                    break
    except OSError:
        pass
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    with contextlib.suppress(OSError):
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    node = shutil.which("node")
    if node:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            info["node"] = subprocess.run(
                [node, "--version"], capture_output=True, text=True, timeout=20, check=False
            ).stdout.strip()
    return info


# -- running children --------------------------------------------------------------------------


def _child(cmd: Sequence[str], timeout: float = TIMEOUT) -> Measurement:
    """Run one measurement process; its last stdout line is a JSON object."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(
            list(cmd), cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"timed out after {timeout:.0f} s"}
    wall = time.perf_counter() - t0
    lines = [ln for ln in p.stdout.splitlines() if ln.strip()]
    if not lines:
        return {"ok": False, "error": f"exit {p.returncode}, no output: {p.stderr.strip()[-400:]}", "wall": wall}
    try:
        out: Measurement = json.loads(lines[-1])
    except ValueError:
        return {"ok": False, "error": f"exit {p.returncode}, bad output: {lines[-1][:200]}", "wall": wall}
    out["wall"] = wall
    return out


def _py_child(kind: str, path: Path | str, python: str = sys.executable) -> Measurement:
    return _child([python, "-m", "bench._measure", kind, str(path)])


def peers_available() -> dict[str, str | None]:
    """Each peer → ``None`` if it can run here, else why not."""
    why: dict[str, str | None] = {}
    if not PEER_PYTHON.exists():
        why["claude-agent-sdk"] = why["claude-code-log"] = "not installed (run bench/setup_peers.sh)"
    else:
        for name, mod in (("claude-agent-sdk", "claude_agent_sdk"), ("claude-code-log", "claude_code_log")):
            p = subprocess.run(
                [str(PEER_PYTHON), "-c", f"import {mod}"], capture_output=True, text=True, check=False, timeout=120
            )
            why[name] = None if p.returncode == 0 else f"import failed: {p.stderr.strip()[-200:]}"
    if not VERCEL_MODULE.exists():
        why["vercel-agent-eval"] = "not installed (run bench/setup_peers.sh)"
    elif not shutil.which("node"):
        why["vercel-agent-eval"] = "node not found"
    else:
        why["vercel-agent-eval"] = None
    return why


def run_peer(peer: str, fmt: str, path: Path) -> Measurement:
    if peer == "claude-agent-sdk":
        return _py_child("sdk", path, str(PEER_PYTHON))
    if peer == "claude-code-log":
        return _py_child("ccl", path, str(PEER_PYTHON))
    node = shutil.which("node") or "node"
    return _child([node, str(BENCH / "peer_vercel.mjs"), str(VERCEL_MODULE), str(path), _VERCEL_AGENT[fmt]])


# -- statistics --------------------------------------------------------------------------------


def summarise(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def _ok(ms: Sequence[Measurement]) -> list[Measurement]:
    return [m for m in ms if m.get("ok")]


def _err(ms: Sequence[Measurement]) -> str | None:
    bad = [m for m in ms if not m.get("ok")]
    return str(bad[0].get("error")) if bad else None


def _paired(a: Sequence[Measurement], b: Sequence[Measurement]) -> list[float]:
    """``a[i] / b[i]`` for every round where both succeeded."""
    pairs = zip(a, b, strict=True)
    return [x["seconds"] / y["seconds"] for x, y in pairs if x.get("ok") and y.get("ok") and y["seconds"] > 0]


def _mem_multiple(m: Measurement, size: int, key: str = "rss_peak_kb") -> float:
    return max(0, int(m.get(key, m["rss_peak_kb"])) - int(m["rss_base_kb"])) * 1024 / size


# -- the benchmark -----------------------------------------------------------------------------


def bench_parse(
    formats: Sequence[str],
    sizes: Sequence[int],
    runs_for: dict[int, int],
    peers: dict[str, str | None],
    data: Path,
    seed: int,
    log: Any,
) -> list[dict[str, Any]]:
    rows = []
    for size in sizes:
        for fmt in formats:
            path, manifest = gen.ensure(fmt, size, data, seed=seed)
            nbytes = path.stat().st_size
            who = ["baseline", "ours"] + [p for p, f in PEER_FORMATS.items() if fmt in f and peers.get(p) is None]
            got: dict[str, list[Measurement]] = {w: [] for w in who}
            runs = runs_for[size]
            for i in range(runs):
                order = who[i % len(who) :] + who[: i % len(who)]  # rotate: drift hits everyone alike
                for w in order:
                    if w == "baseline":
                        m = _py_child("baseline", path)
                    elif w == "ours":
                        m = _py_child("ours", path)
                    else:
                        m = run_peer(w, fmt, path)
                    got[w].append(m)
                    status = f"{m['seconds']:.3f} s" if m.get("ok") else f"ERROR {m.get('error')}"
                    log(f"  {fmt} {gen.size_label(size)} run {i + 1}/{runs} {w}: {status}")
            row: dict[str, Any] = {
                "format": fmt,
                "size": gen.size_label(size),
                "bytes": nbytes,
                "lines": manifest["lines"],
                "expected": {k: manifest[k] for k in ("tool_calls", "subagent_tool_calls", "tool_errors")},
                "raw": got,
            }
            for w in who:
                ok = _ok(got[w])
                row[w] = {
                    "seconds": summarise([m["seconds"] for m in ok]),
                    "mem_x": summarise([_mem_multiple(m, nbytes) for m in ok]),
                "mem_indexed_x": summarise([_mem_multiple(m, nbytes, "rss_indexed_kb") for m in ok if "rss_indexed_kb" in m]),
                    "calls": ok[0].get("calls") if ok else None,
                    "error": _err(got[w]),
                }
            # Ratios are paired by round (the figures of one rotation are taken minutes apart at
            # most), then summarised: slow drift of a shared machine cancels out of each pair.
            for w in who:
                if w in ("baseline", "ours"):
                    continue
                row[w]["ratio_to_ours"] = summarise(_paired(got[w], got["ours"]))
            row["ours"]["ratio_to_baseline"] = summarise(_paired(got["ours"], got["baseline"]))
            ours = _ok(got["ours"])
            if ours:
                o = ours[0]
                row["ours"]["found"] = {k: o.get(k) for k in ("tool_calls", "subagent_tool_calls", "tool_errors")}
                row["ours"]["complete"] = o.get("complete")
                row["ours"]["matches_manifest"] = row["ours"]["found"] == row["expected"] and bool(o.get("complete"))
            rows.append(row)
    return rows


def bench_checks(path: Path, runs: int, log: Any) -> dict[str, Any]:
    ms = []
    for i in range(runs):
        m = _py_child("checks", path)
        ms.append(m)
        status = (
            f"parse {m['parse_seconds']:.3f} s, {m['n_checks']} checks {m['seconds']:.4f} s"
            if m.get("ok")
            else f"ERROR {m.get('error')}"
        )
        log(f"  checks run {i + 1}/{runs}: {status}")
    ok = _ok(ms)
    return {
        "file": path.name,
        "bytes": path.stat().st_size,
        "suite": ok[0]["suite"] if ok else None,
        "n_checks": ok[0]["n_checks"] if ok else None,
        "statuses": ok[0]["statuses"] if ok else None,
        "parse_seconds": summarise([m["parse_seconds"] for m in ok]),
        "check_seconds": summarise([m["seconds"] for m in ok]),
        "gc_seconds": summarise([m["gc_seconds"] for m in ok if "gc_seconds" in m]),
        "ratio": summarise([m["seconds"] / m["parse_seconds"] for m in ok]),
        "slowest": ok[0].get("slowest") if ok else None,
        "error": _err(ms),
        "raw": ms,
    }


def bench_batch(n: int, size: int, runs: int, data: Path, seed: int, log: Any) -> dict[str, Any]:
    paths = gen.batch(n, size, data, seed=seed)
    rel = [str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in paths]
    total = sum(p.stat().st_size for p in paths)
    cli: list[Measurement] = []
    lib: list[Measurement] = []
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\n".join(rel))
        listing = f.name
    try:
        for i in range(runs):
            t0 = time.perf_counter()
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run(
                [sys.executable, "-m", "agenteval_assert", "check", *rel],
                cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=False,
            )
            wall = time.perf_counter() - t0
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            last = (p.stdout.strip().splitlines() or [""])[-1]
            # CPU time of the whole process: interpreter start-up, imports, every file, the output
            m: Measurement = {
                "ok": p.returncode in (0, 1, 4), "seconds": cpu, "wall_seconds": wall,
                "exit": p.returncode, "closing": last,
            }
            if not m["ok"]:
                m["error"] = f"exit {p.returncode}: {(p.stderr.strip() or last)[-300:]}"
            cli.append(m)
            lm = _child([sys.executable, "-m", "bench._measure", "batch", "@" + listing])
            lib.append(lm)
            log(
                f"  batch run {i + 1}/{runs}: CLI {cpu:.2f} s CPU, {wall:.2f} s wall (exit {p.returncode}); "
                + (f"library {lm['seconds']:.2f} s" if lm.get("ok") else f"library ERROR {lm.get('error')}")
            )
    finally:
        os.unlink(listing)
    cli_ok, lib_ok = _ok(cli), _ok(lib)
    return {
        "files": n,
        "bytes": total,
        "cli_seconds": summarise([m["seconds"] for m in cli_ok]),
        "cli_files_per_s": summarise([n / m["seconds"] for m in cli_ok]),
        "cli_exit": cli[0].get("exit") if cli else None,
        "cli_closing": cli[0].get("closing") if cli else None,
        "cli_error": _err(cli),
        "lib_seconds": summarise([m["seconds"] for m in lib_ok]),
        "lib_files_per_s": summarise([n / m["seconds"] for m in lib_ok]),
        "lib_not_passing": lib_ok[0].get("not_passing") if lib_ok else None,
        "lib_error": _err(lib),
    }


# -- whole processes -----------------------------------------------------------------------------

#: The floor of a whole process that parses JSONL: the interpreter, ``json`` and the loop.
LOOP_CODE = "import json, sys\nfor line in open(sys.argv[1], encoding='utf-8'): json.loads(line)"
#: The tiny real file that start-up is measured on (10 KB, 15 records, two failing calls).
TINY = ROOT / "tests" / "corpus" / "claude-session-log" / "spotter-2.1.38-short.jsonl"
#: The start-up commands: label → argv after the interpreter (``{tiny}``: the tiny file).
STARTUP: dict[str, list[str]] = {
    "import json": ["-c", "import json"],
    "import attrs, json": ["-c", "import attrs, json"],
    "--version": ["-m", "agenteval_assert", "--version"],
    "summary --json": ["-m", "agenteval_assert", "summary", "{tiny}", "--json"],
    "check": ["-m", "agenteval_assert", "check", "{tiny}"],
}
#: What each start-up command is held to: ``(the command it is compared with, at most)``.
STARTUP_TARGETS: dict[str, tuple[str, float]] = {
    "--version": ("import attrs, json", 1.5),
    "summary --json": ("import attrs, json", 3.0),
    "check": ("import attrs, json", 3.0),
}
WHOLE_TARGET = 1.8
MEM_TARGET = 2.0
WHOLE_MIN_BYTES = 100_000_000
SMOKE_STARTUP_RUNS = 2
FULL_STARTUP_RUNS = 15


#: The environment of the whole processes: bytecode caches on (``PYTHONDONTWRITEBYTECODE``, set in
#: some sandboxes, would make every start compile our modules from source, which no installed
#: package does), the hash seed fixed.
_WHOLE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONHASHSEED": "0"}


def _process(argv: Sequence[str], timeout: float = TIMEOUT) -> Measurement:
    """One fresh process, output discarded: its own CPU time (user + system, from ``wait4``, so
    start-up, imports and exit are all in it), its peak RSS and its wall time."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(
            list(argv), cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=_WHOLE_ENV,
        )
        try:
            _, status, ru = os.wait4(p.pid, 0)
        except BaseException:
            p.kill()
            p.wait()
            raise
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    m: Measurement = {
        "ok": True, "seconds": ru.ru_utime + ru.ru_stime, "user": ru.ru_utime, "system": ru.ru_stime,
        "rss_peak_kb": ru.ru_maxrss, "wall_seconds": wall, "exit": p.returncode,
    }
    if wall > timeout:
        m.update(ok=False, error=f"took {wall:.0f} s (over {timeout:.0f} s)")
    return m | ({"stderr": stderr[-300:]} if stderr.strip() else {})


def _rounds(
    commands: dict[str, list[str]], runs: int, log: Any, what: str, ok_exits: dict[str, tuple[int, ...]],
    *, warm: bool = True,
) -> dict[str, list[Measurement]]:
    """Every command once per round, the order rotating between rounds; a warm-up round first
    (untimed: it writes the bytecode caches, and fills the page cache with the file)."""
    names = list(commands)
    for name in names if warm else ():
        _process(commands[name])
    got: dict[str, list[Measurement]] = {n: [] for n in names}
    for i in range(runs):
        order = names[i % len(names) :] + names[: i % len(names)]
        for name in order:
            m = _process(commands[name])
            if m["ok"] and m["exit"] not in ok_exits.get(name, (0,)):
                m.update(ok=False, error=f"exit {m['exit']}: {m.get('stderr', '').strip()[-200:]}")
            got[name].append(m)
            status = f"{m['seconds']:.3f} s CPU" if m["ok"] else f"ERROR {m.get('error')}"
            log(f"  {what} run {i + 1}/{runs} {name}: {status}")
    return got


def bench_whole(
    formats: Sequence[str], size: int, runs: int, data: Path, log: Any, *, warm: bool = True
) -> list[dict[str, Any]]:
    """``summary --json`` and ``check`` against the ``json.loads`` loop, each a whole fresh process
    (interpreter start-up and imports included), on the replicated real files."""
    py = sys.executable
    rows = []
    for fmt in formats:
        if fmt not in rep.SOURCES:
            continue
        path, manifest = rep.ensure(fmt, size, data)
        rel = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        commands = {
            "loop": [py, "-c", LOOP_CODE, rel],
            "summary": [py, "-m", "agenteval_assert", "summary", rel, "--json"],
            "check": [py, "-m", "agenteval_assert", "check", rel],
        }
        # check exits 1 when a health check fails: the real sessions stopped with calls unanswered
        got = _rounds(commands, runs, log, f"whole {fmt} {gen.size_label(size)}", {"check": (0, 1, 4)}, warm=warm)
        nbytes = path.stat().st_size
        row: dict[str, Any] = {
            "format": fmt, "size": gen.size_label(size), "bytes": nbytes, "lines": manifest["lines"],
            "copies": manifest["copies"], "tool_calls": manifest["tool_calls"], "raw": got,
        }
        for name, ms in got.items():
            ok = _ok(ms)
            row[name] = {
                "seconds": summarise([m["seconds"] for m in ok]),
                "rss_x": summarise([m["rss_peak_kb"] * 1024 / nbytes for m in ok]),
                "exit": ok[0]["exit"] if ok else None,
                "error": _err(ms),
            }
            if name != "loop":
                row[name]["ratio"] = summarise(_paired(ms, got["loop"]))
        rows.append(row)
    return rows


def bench_startup(runs: int, log: Any, *, warm: bool = True) -> dict[str, Any]:
    """Start-up: each command of ``STARTUP`` on the tiny file, fresh processes, rotated rounds."""
    py = sys.executable
    tiny = str(TINY.relative_to(ROOT))
    commands = {k: [py, *(a.replace("{tiny}", tiny) for a in v)] for k, v in STARTUP.items()}
    got = _rounds(commands, runs, log, "start-up", {"check": (0, 1, 4)}, warm=warm)
    res: dict[str, Any] = {"file": tiny, "bytes": TINY.stat().st_size, "raw": got}
    for name, ms in got.items():
        res[name] = {"seconds": summarise([m["seconds"] for m in _ok(ms)]), "error": _err(ms)}
        if name in STARTUP_TARGETS:
            base, _ = STARTUP_TARGETS[name]
            res[name]["ratio"] = summarise(_paired(ms, got[base]))
            res[name]["ratio_to"] = base
    return res


# -- report ------------------------------------------------------------------------------------


def _fmt_s(s: dict[str, float] | None, digits: int = 3) -> str:
    if not s:
        return "n/a"
    return f"{s['median']:.{digits}f} ({s['min']:.{digits}f}–{s['max']:.{digits}f})"


def render(res: dict[str, Any]) -> str:
    m = res["machine"]
    out = [
        f"# agenteval-assert benchmark — {res['started']}",
        "",
        (f"Machine: {m.get('cpu', '?')}, {m.get('cores')} cores, {m.get('memory_gib', '?')} GiB; "
        f"{m.get('implementation')} {m.get('python')}; Node {m.get('node', 'n/a')}; {m.get('platform')}."),
        (f"Mode: {res['mode']}; runs per figure: {res['runs']}; seed {res['seed']}; "
        f"agenteval-assert {res.get('version', '?')} at {res.get('commit', '?')}."),
        f"Load average (1, 5, 15 min) at start {m.get('load_average', '?')}, at end {m.get('load_average_end', '?')}.",
        ("Times are CPU seconds of the measured work (the machine may be shared: CPU time leaves out waiting for a core; "
        "wall times are in latest.json), medians with (min–max) over the runs; each run is a fresh process. "
        "MB = 10^6 bytes."),
        "A ratio is the median (min–max) of the ratios of the rotation rounds (figures taken side by side).",
        "",
        "## Parse + normalise (`agenteval_assert.load`) against a plain `json.loads` loop",
        "",
        ("| format | size | json.loads loop s | ours s | ours ÷ loop | MB/s | tool calls/s | peak RSS ÷ file "
         "| with check indexes | calls found / expected |"),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in res["parse"]:
        b, o = r["baseline"], r["ours"]
        if o["seconds"]:
            mbs = r["bytes"] / 1e6 / o["seconds"]["median"]
            cps = (o["calls"] or 0) / o["seconds"]["median"]
            found = o.get("found") or {}
            exp = r["expected"]
            calls = (
                f"{(found.get('tool_calls') or 0) + (found.get('subagent_tool_calls') or 0):,} / "
                f"{exp['tool_calls'] + exp['subagent_tool_calls']:,}"
                + ("" if o.get("matches_manifest") else " ⚠")
            )
            mem = f"{o['mem_x']['median']:.2f}" if o["mem_x"] and r["bytes"] >= MEM_MIN_BYTES else "—"
            mix = o.get("mem_indexed_x")
            memi = f"{mix['median']:.2f}" if mix and r["bytes"] >= MEM_MIN_BYTES else "—"
            out.append(
                f"| {r['format']} | {r['size']} | {_fmt_s(b['seconds'])} | {_fmt_s(o['seconds'])} | "
                f"{_fmt_s(o.get('ratio_to_baseline'), 2)} | {mbs:.1f} | {cps:,.0f} | {mem} | {memi} | {calls} |"
            )
        else:
            out.append(
                f"| {r['format']} | {r['size']} | {_fmt_s(b['seconds'])} | error: {o['error']} | n/a | n/a | n/a | n/a | n/a | n/a |"
            )
    out += [
        "",
        "— = file too small for a meaningful RSS figure (under 5 MB).",
        ("⚠ = the tool calls, subagent calls or errors found differ from what the generator wrote, "
        "or the transcript is not `health.complete`."),
        "",
        "## Peers on the same files (peer time ÷ our time: above 1 means we are faster)",
        "",
        "| peer | format | size | peer s | ours s | peer ÷ ours | peer peak RSS ÷ file | calls the peer found |",
        "|---|---|---|---|---|---|---|---|",
    ]
    any_peer = False
    for r in res["parse"]:
        for peer in PEER_FORMATS:
            if peer not in r:
                continue
            any_peer = True
            p, o = r[peer], r["ours"]
            if p["seconds"]:
                mem = f"{p['mem_x']['median']:.2f}" if p["mem_x"] and r["bytes"] >= MEM_MIN_BYTES else "—"
                out.append(
                    f"| {peer} | {r['format']} | {r['size']} | {_fmt_s(p['seconds'])} | {_fmt_s(o['seconds'])} | "
                    f"{_fmt_s(p.get('ratio_to_ours'), 2)} | {mem} | {p['calls']} |"
                )
            else:
                out.append(f"| {peer} | {r['format']} | {r['size']} | error: {p['error']} | | | | |")
    if not any_peer:
        out.append("| (none run) | | | | | | | |")
    skipped = {k: v for k, v in res["peers"].items() if v}
    if skipped:
        out += ["", "Peers not run: " + "; ".join(f"{k}: {v}" for k, v in skipped.items()) + "."]
    c = res.get("checks")
    if c:
        out += [
            "",
            f"## Check suite on `{c['file']}` ({c['bytes'] / 1e6:.0f} MB)",
            "",
            f"Suite: {c['suite']} — {c['n_checks']} checks, outcomes {c['statuses']}.",
            "",
            "| parse s | checks s | checks ÷ parse |",
            "|---|---|---|",
            f"| {_fmt_s(c['parse_seconds'])} | {_fmt_s(c['check_seconds'], 4)} | {_fmt_s(c['ratio'], 4)} |",
        ]
        if c.get("gc_seconds"):
            out += ["", (f"Between the parse and the checks, the garbage collector's first pass over the new "
                         f"model (held off during the parse): {_fmt_s(c['gc_seconds'])} s, counted in neither.")]
        if c.get("slowest"):
            out += ["", "Slowest checks (first run): " + ", ".join(
                f"{name} {sec:.3f} s" for name, sec in c["slowest"][:6]) + "."]
        if c["error"]:
            out.append(f"\nError: {c['error']}")
    bt = res.get("batch")
    if bt:
        out += [
            "",
            (f"## `python -m agenteval_assert check` on {bt['files']:,} small transcripts "
            f"({bt['bytes'] / bt['files'] / 1e3:.0f} KB each, the four formats mixed)"),
            "",
            "| how | s | files/s |",
            "|---|---|---|",
            (f"| one `check` process over all files (end to end) | {_fmt_s(bt['cli_seconds'], 2)} | "
            f"{_fmt_s(bt['cli_files_per_s'], 0)} |"),
            (f"| library: `load` + health checks per file, one process | {_fmt_s(bt['lib_seconds'], 2)} | "
            f"{_fmt_s(bt['lib_files_per_s'], 0)} |"),
            "",
            f"CLI exit code {bt['cli_exit']}; closing line: `{bt['cli_closing']}`.",
        ]
        for k in ("cli_error", "lib_error"):
            if bt[k]:
                out.append(f"{k}: {bt[k]}")
    out += _render_whole(res)
    t = res.get("targets")
    if t:
        out += ["", "## Targets", "", "| target | result | met |", "|---|---|---|"]
        for row in t:
            met = {True: "yes", False: "**no**", None: "n/a"}[row["met"]]
            out.append(f"| {row['target']} | {row['result']} | {met} |")
    return "\n".join(out) + "\n"


def _render_whole(res: dict[str, Any]) -> list[str]:
    out: list[str] = []
    whole = res.get("whole")
    if whole:
        out += [
            "",
            "## Whole processes: `summary --json` and `check` against the `json.loads` loop, start-up included",
            "",
            ("Each figure is one fresh process (`python -c 'for line in open(f): json.loads(line)'`, "
             "`python -m agenteval_assert summary FILE --json`, `python -m agenteval_assert check FILE`, output "
             "discarded): its CPU time (user + system, from `wait4`) and its peak RSS, interpreter start-up and "
             "imports included. The files are real corpus records repeated with fresh ids (`bench.replicate`)."),
            "",
            ("| format | size | copies | loop s | summary s | summary ÷ loop | check s | check ÷ loop | "
             "peak RSS ÷ file: loop, summary, check |"),
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in whole:
            lo, su, ch = r["loop"], r["summary"], r["check"]

            def rss(x: dict[str, Any], nbytes: int = r["bytes"]) -> str:
                return f"{x['rss_x']['median']:.2f}" if x["rss_x"] and nbytes >= MEM_MIN_BYTES else "—"

            out.append(
                f"| {r['format']} | {r['size']} | {r['copies']:,} | {_fmt_s(lo['seconds'])} | "
                f"{_fmt_s(su['seconds'])} | {_fmt_s(su.get('ratio'), 2)} | {_fmt_s(ch['seconds'])} | "
                f"{_fmt_s(ch.get('ratio'), 2)} | {rss(lo)}, {rss(su)}, {rss(ch)} |"
            )
            for name in ("loop", "summary", "check"):
                if r[name]["error"]:
                    out.append(f"| | | | {name} error: {r[name]['error']} | | | | | |")
        out += ["", "`check` exit codes: " + "; ".join(f"{r['format']} {r['check']['exit']}" for r in whole) + "."]
    st = res.get("startup")
    if st:
        out += [
            "",
            f"## Start-up: fresh processes on a tiny file (`{st['file']}`, {st['bytes'] / 1e3:.0f} KB)",
            "",
            "| command | CPU s | ÷ `import attrs, json` |",
            "|---|---|---|",
        ]
        for name, argv in STARTUP.items():
            x = st[name]
            ratio = _fmt_s(x.get("ratio"), 2) if "ratio" in x else "—"
            cmd = f"`python {' '.join(argv).replace('{tiny}', 'FILE')}`"
            out.append(f"| {cmd} | {_fmt_s(x['seconds'])} | {ratio} |" + (f" error: {x['error']}" if x["error"] else ""))
    return out


def targets(res: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's targets, checked on the largest size measured."""
    rows: list[dict[str, Any]] = []
    parse = res["parse"]
    big: list[dict[str, Any]] = []
    if parse:
        biggest = max(r["bytes"] for r in parse)
        big_size = next(r["size"] for r in parse if r["bytes"] == biggest)
        big = [r for r in parse if r["size"] == big_size]
    for r in big:
        rb = r["ours"].get("ratio_to_baseline")
        ratio = rb["median"] if rb else None
        rows.append({
            "target": f"{r['format']} {r['size']}: parse ≥ half the json.loads loop's speed (ours ÷ loop ≤ 2)",
            "result": "n/a" if ratio is None else f"{ratio:.2f}",
            "met": None if ratio is None else ratio <= 2.0,
        })
    for r in big:
        mx = r["ours"].get("mem_indexed_x") or r["ours"]["mem_x"] if r["bytes"] >= MEM_MIN_BYTES else None
        rows.append({
            "target": f"{r['format']} {r['size']}: peak memory ≤ 2x the file, check indexes built",
            "result": "n/a" if not mx else f"{mx['median']:.2f}x",
            "met": None if not mx else mx["median"] <= MEM_TARGET,
        })
    for r in big:
        for peer in ("claude-agent-sdk", "claude-code-log"):
            if peer in r:
                rp = r[peer].get("ratio_to_ours")
                ratio = rp["median"] if rp else None
                rows.append({
                    "target": f"faster than {peer} on {r['format']} {r['size']} (peer ÷ ours > 1)",
                    "result": "n/a" if ratio is None else f"{ratio:.2f}",
                    "met": None if ratio is None else ratio > 1.0,
                })
    for r in res.get("whole") or ():
        for name in ("summary", "check"):
            rr = r[name].get("ratio")
            big_enough = r["bytes"] >= WHOLE_MIN_BYTES  # the target is stated for 100+ MB files
            rows.append({
                "target": f"whole process `{name}` ÷ loop on {r['format']} {r['size']} ≤ {WHOLE_TARGET}",
                "result": "n/a" if not rr else f"{rr['median']:.2f}" + ("" if big_enough else " (under 100 MB)"),
                "met": None if not rr or not big_enough else rr["median"] <= WHOLE_TARGET,
            })
    st = res.get("startup")
    for name, (base, limit) in STARTUP_TARGETS.items() if st else ():
        rr = st[name].get("ratio")
        rows.append({
            "target": f"start-up: `{name}` ≤ {limit}x `{base}`",
            "result": "n/a" if not rr else f"{rr['median']:.2f}",
            "met": None if not rr else rr["median"] <= limit,
        })
    c = res.get("checks")
    if c and c["ratio"]:
        rows.append({
            "target": f"check suite ({c['n_checks']} checks) < 1/4 of the parse time",
            "result": f"{c['ratio']['median']:.4f}",
            "met": c["ratio"]["median"] < 0.25,
        })
    return rows


def _version() -> tuple[str, str]:
    try:
        from agenteval_assert import __version__ as v
    except Exception:  # noqa: BLE001 - a broken package still gets its bench report
        v = "?"
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False, timeout=20
        ).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        commit = "?"
    return v, commit


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n\n")[0])
    p.add_argument("--smoke", action="store_true", help=f"tiny sizes ({gen.size_label(SMOKE_SIZE)}), one run: for CI")
    p.add_argument("--sizes", help="comma-separated sizes (default 1MB,10MB,100MB)")
    p.add_argument("--formats", default="all", help="comma-separated formats, or 'all'")
    p.add_argument("--runs", type=int, help="runs per figure (default 5; 1 with --smoke)")
    p.add_argument("--batch", type=int, help="files in the check batch (default 1000; 0 skips it)")
    p.add_argument("--no-peers", action="store_true", help="skip the peers even when installed")
    p.add_argument("--no-checks", action="store_true", help="skip the check-suite figure")
    p.add_argument("--seed", type=int, default=gen.DEFAULT_SEED)
    p.add_argument("--data", type=Path, default=gen.DATA_DIR, help="where generated files go (default bench/data)")
    p.add_argument("--out", type=Path, default=RESULTS, help="where latest.md/latest.json go (default bench/results)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument(
        "--only", default="parse,checks,batch,whole,startup",
        help="comma-separated tables to make: parse, checks, batch, whole, startup (default all)",
    )
    p.add_argument("--whole-size", help="size of the replicated files of the whole-process table (default 100MB)")
    p.add_argument("--startup-runs", type=int, help=f"rounds of the start-up table (default {FULL_STARTUP_RUNS})")
    a = p.parse_args(argv)

    def log(msg: str) -> None:
        if not a.quiet:
            print(msg, file=sys.stderr, flush=True)

    formats = list(gen._iter_formats(a.formats))
    if a.sizes:
        sizes = [gen.parse_size(s) for s in a.sizes.split(",")]
    else:
        sizes = [SMOKE_SIZE] if a.smoke else [gen.SIZES[k] for k in ("1MB", "10MB", "100MB")]
    runs_for = {s: a.runs or (1 if a.smoke else 5) for s in sizes}
    batch_n, batch_size = SMOKE_BATCH if a.smoke else FULL_BATCH
    if a.batch is not None:
        batch_n = a.batch
    peers: dict[str, str | None] = (
        dict.fromkeys(PEER_FORMATS, "skipped (--no-peers)") if a.no_peers else peers_available()
    )
    version, commit = _version()
    res: dict[str, Any] = {
        "started": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "mode": "smoke" if a.smoke else "full",
        "runs": {gen.size_label(s): n for s, n in runs_for.items()},
        "seed": a.seed,
        "version": version,
        "commit": commit,
        "machine": machine(),
        "peers": peers,
    }
    log(f"machine: {res['machine']}")
    log(f"peers: {peers}")
    only = {x.strip() for x in a.only.split(",") if x.strip()}
    unknown = only - {"parse", "checks", "batch", "whole", "startup"}
    if unknown:
        p.error(f"unknown table(s) in --only: {', '.join(sorted(unknown))}")
    res["parse"] = bench_parse(formats, sizes, runs_for, peers, a.data, a.seed, log) if "parse" in only else []
    if "whole" in only:
        wsize = gen.parse_size(a.whole_size) if a.whole_size else (SMOKE_SIZE if a.smoke else gen.SIZES["100MB"])
        res["whole"] = bench_whole(formats, wsize, a.runs or (1 if a.smoke else 5), a.data, log, warm=not a.smoke)
    if "startup" in only:
        runs = a.startup_runs or (SMOKE_STARTUP_RUNS if a.smoke else FULL_STARTUP_RUNS)
        res["startup"] = bench_startup(runs, log, warm=not a.smoke)
    if not a.no_checks and "checks" in only:
        size = max(sizes)
        path, _ = gen.ensure("claude-session", size, a.data, seed=a.seed)
        res["checks"] = bench_checks(path, runs_for[size], log)
    if batch_n and "batch" in only:
        runs = 1 if a.smoke else 3
        res["batch"] = bench_batch(batch_n, batch_size, runs, a.data, a.seed, log)
    with contextlib.suppress(OSError):
        res["machine"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    res["targets"] = targets(res)
    md = render(res)
    sys.stdout.write(md)
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "latest.md").write_text(md, encoding="utf-8")
    (a.out / "latest.json").write_text(json.dumps(res, indent=1, default=str) + "\n", encoding="utf-8")
    log(f"wrote {a.out / 'latest.md'} and {a.out / 'latest.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
