"""Files per second of ``agenteval_assert.batch.check_many`` for 1 and 2 workers (docs/scale.md).

    python -m bench.scale_bench [--files 2000] [--size 10000] [--runs 3]

The pattern of docs/scale.md, measured: a listing of paths in, the health checks on each file,
one JSON line per transcript out (to a temporary file), nothing held. On generated small
transcripts of the benchmark's formats (``bench.generate.batch``, made once under ``bench/data``),
for:

* ``in-process``: ``jobs=1``, no pool (one worker);
* ``pool-2``: a local ``ProcessPoolExecutor`` of 2 workers;
* ``dask-1`` / ``dask-2``: a ``distributed.LocalCluster`` of 1 or 2 worker processes (one thread
  each), through ``client.get_executor()`` (cluster start-up, the workers' imports included, not
  counted).

Each configuration runs in a fresh process, *runs* times in rotating order; the table gives the
median and the best wall time with their files per second (on a shared machine the best run is
the one least disturbed by the neighbours), the load average when the runs ended, the CPU time
per file spent in the calling process and in the workers (which the neighbours do not change
much), and the parent's peak RSS (which must not grow with the number of files).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import generate as gen

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ("in-process", "pool-2", "dask-1", "dask-2")


def _warm_up() -> None:
    import agenteval_assert._health
    import agenteval_assert._parsers
    import agenteval_assert.batch  # noqa: F401


def _cpu(who: int = resource.RUSAGE_SELF) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def _one(config: str, listing: str, chunksize: int) -> dict[str, float]:
    from agenteval_assert.batch import check_many

    def paths():  # type: ignore[no-untyped-def]
        with open(listing, encoding="utf-8") as f:
            for line in f:
                yield line.rstrip("\n")

    cluster = client = pool = None
    kw: dict[str, object] = {}
    if config == "in-process":
        kw["jobs"] = 1
    elif config == "pool-2":
        import concurrent.futures as cf
        import multiprocessing

        pool = cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
        kw["executor"] = pool
        kw["chunksize"] = chunksize
    else:
        from distributed import Client, LocalCluster

        n = int(config.split("-")[1])
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        client.run(_warm_up)  # start-up is not counted: the workers import the library first
        kw["executor"] = client.get_executor()
        kw["chunksize"] = chunksize
    workers0 = sum(client.run(_cpu).values()) if client is not None else 0.0
    children0 = _cpu(resource.RUSAGE_CHILDREN)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    count = 0
    with tempfile.TemporaryFile("w", encoding="utf-8") as out:
        cpu0 = _cpu()
        t0 = time.perf_counter()
        for r in check_many(paths(), None, **kw):  # type: ignore[arg-type]
            out.write(json.dumps(r.to_dict()) + "\n")
            count += 1
        wall = time.perf_counter() - t0
        parent_cpu = _cpu() - cpu0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers_cpu = 0.0
    if client is not None:
        workers_cpu = sum(client.run(_cpu).values()) - workers0
        client.close()
        cluster.close()  # type: ignore[union-attr]
    if pool is not None:
        pool.shutdown()  # the workers are reaped: their CPU time is the children's
        workers_cpu = _cpu(resource.RUSAGE_CHILDREN) - children0
    return {"files": count, "seconds": wall, "parent_cpu": parent_cpu, "workers_cpu": workers_cpu,
            "rss_mb": rss / 1024, "rss_growth_mb": (rss - rss0) / 1024}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.scale_bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--files", type=int, default=2000)
    p.add_argument("--size", type=int, default=10_000, help="bytes per transcript")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--chunksize", type=int, default=16, help="inputs per task (pool and Dask)")
    p.add_argument("--data", type=Path, default=ROOT / "bench" / "data")
    p.add_argument("--configs", default=",".join(CONFIGS))
    p.add_argument("--one", help=argparse.SUPPRESS)
    p.add_argument("--listing", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.one:
        print(json.dumps(_one(a.one, a.listing, a.chunksize)))
        return 0
    paths = gen.batch(a.files, a.size, a.data)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\n".join(str(x) for x in paths) + "\n")
        listing = f.name
    configs = [c for c in a.configs.split(",") if c]
    got: dict[str, list[dict[str, float]]] = {c: [] for c in configs}
    try:
        for i in range(a.runs):
            for c in configs[i % len(configs):] + configs[: i % len(configs)]:
                proc = subprocess.run(
                    [sys.executable, "-m", "bench.scale_bench", "--one", c, "--listing", listing,
                     "--chunksize", str(a.chunksize)],
                    cwd=ROOT, capture_output=True, text=True, check=True,
                    env={**os.environ, "PYTHONWARNINGS": "ignore"},
                )
                m = json.loads(proc.stdout.strip().splitlines()[-1])
                got[c].append(m)
                print(f"run {i + 1} {c}: {m['seconds']:.2f} s, {a.files / m['seconds']:.0f} files/s", file=sys.stderr)
    finally:
        os.unlink(listing)
    load = os.getloadavg()
    print(f"{a.files} files of {a.size} bytes, health checks, JSON lines out; {a.runs} runs; "
          f"{os.cpu_count()} cores; load average at the end {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}\n")
    print("| workers | how | median s | files/s (median) | best s | files/s (best) "
          "| CPU ms per file: parent + workers | parent peak RSS |")
    print("|---|---|---|---|---|---|---|---|")
    for c in configs:
        secs = [m["seconds"] for m in got[c]]
        med, best = statistics.median(secs), min(secs)
        rss = max(m["rss_mb"] for m in got[c])
        parent = statistics.median(m["parent_cpu"] for m in got[c]) * 1000 / a.files
        workers_ms = statistics.median(m["workers_cpu"] for m in got[c]) * 1000 / a.files
        n = {"in-process": 1, "pool-2": 2}.get(c) or int(c.split("-")[1])
        print(f"| {n} | {c} | {med:.2f} | {a.files / med:.0f} | {best:.2f} | {a.files / best:.0f} "
              f"| {parent:.2f} + {workers_ms:.2f} | {rss:.0f} MB |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
