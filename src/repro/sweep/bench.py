"""The sweep benchmark (``make bench-sweep``): a Dask ``LocalCluster`` against the plain two-process pool."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from repro import pipeline
from repro.sweep.records import seeds_text
from repro.sweep.runner import ROOT, plan, run_sweep


def bench(slugs: list[str], seeds: list[int], jobs: int = 2) -> dict[str, float]:
    """Wall time of the same ci sweep through a ``LocalCluster`` of ``jobs`` workers and the ``jobs``-process pool.

    Both run the same tasks in the same order (longest first) with ``pipeline.execute_one``; both wall times
    include starting and stopping their processes. Besides the ratio it prints, for each, the time not spent
    inside a run: wall time minus the runs' own time divided by the workers (scheduling, process start, idle
    tail). On a machine shared with other work the runs' own times move too: compare those sums as well.
    """
    tasks = plan(slugs, "ci", seeds)
    print(f"Benchmark: {len(tasks)} ci run(s) ({len(slugs)} notebook(s) x seeds {seeds_text(seeds)}), "
          f"{jobs} workers each way, same order (longest first)", flush=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "book" / "_build" if (ROOT / "book" / "_build").exists() else None) as tmp:
        t0 = time.perf_counter()
        res = run_sweep(slugs, "ci", seeds, workers=jobs, out_dir=Path(tmp) / "dask", records_dir=Path(tmp) / "records",
                        resume=False)
        t_dask = time.perf_counter() - t0
        busy_dask = sum(res.run_seconds)
        print(f"  Dask LocalCluster ({jobs} single-threaded worker processes): {t_dask:.1f} s wall "
              f"(cluster start {res.startup_s:.1f} s, shutdown {res.shutdown_s:.1f} s), runs' own time "
              f"{busy_dask:.1f} s, {len(res.failures)} failed", flush=True)
        jobs_pool = [(slug, Path(tmp) / "pool" / slug / f"seed{seed}.ipynb", Path(tmp) / "pool" / slug / f"claims-seed{seed}",
                      "ci", seed) for slug, seed in tasks]
        t0 = time.perf_counter()
        outcomes = pipeline.execute_many(jobs_pool, workers=jobs)
        t_pool = time.perf_counter() - t0
        busy_pool = sum(o.seconds for o in outcomes)
        print(f"  process pool (pipeline.execute_many, {jobs} processes): {t_pool:.1f} s wall, runs' own time "
              f"{busy_pool:.1f} s, {sum(not o.ok for o in outcomes)} failed", flush=True)
    ratio = t_dask / t_pool if t_pool else float("nan")
    outside = {"dask": t_dask - busy_dask / jobs, "pool": t_pool - busy_pool / jobs}
    print(f"Dask / pool wall time: {ratio:.3f} ({100 * (ratio - 1):+.1f}% of the pool's time)")
    print(f"Time outside the runs (wall - own time / {jobs}): Dask {outside['dask']:.1f} s "
          f"({100 * outside['dask'] / t_dask:.1f}% of its wall time), pool {outside['pool']:.1f} s "
          f"({100 * outside['pool'] / t_pool:.1f}%)")
    return {"dask_s": t_dask, "pool_s": t_pool, "ratio": ratio, "dask_busy_s": busy_dask, "pool_busy_s": busy_pool}


