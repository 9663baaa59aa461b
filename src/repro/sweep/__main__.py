"""``python -m repro.sweep``: run sweeps, confirm post-hoc tests, benchmark, check the records.

::

    run [SLUG ...] [--scale ci|full] [--seeds 0-9] [--scheduler tcp://host:8786] [--workers N]
    confirm SLUG [SLUG ...]        ci scale on the held-out seeds 10-19, from a commit with the inputs frozen
    bench [SLUG ...] [--seeds 0-1] [--jobs 2]     LocalCluster against the two-process pool
    check                                         validate every committed record against the schema
"""

from __future__ import annotations

import argparse
import sys

from repro import pipeline
from repro.sweep.records import load_records, parse_seeds, schema_errors


def main(argv: list[str] | None = None) -> int:
    from repro.sweep.runner import frozen_commit_of, report, run_sweep

    parser = argparse.ArgumentParser(prog="python -m repro.sweep", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_run = sub.add_parser("run", help="run the (notebook, seed) pairs not yet done and write book/sweeps/<scale>/")
    p_run.add_argument("slugs", nargs="*", help="these pages (default: all)")
    p_run.add_argument("--scale", default="ci", choices=("ci", "full"))
    p_run.add_argument("--seeds", default="0-9", help="e.g. 0-9 or 0,3,5-7 (default 0-9)")
    p_conf = sub.add_parser("confirm", help="ci scale on the held-out seeds 10-19 from the current commit "
                                            "(the pages' inputs must be committed): book/sweeps/confirm/")
    p_conf.add_argument("slugs", nargs="+", help="the pages with post-hoc tests to confirm")
    for p in (p_run, p_conf):
        p.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (default: a LocalCluster)")
        p.add_argument("--workers", type=int, default=None, help="LocalCluster worker processes (default: one per core)")
        p.add_argument("--memory-limit", default="auto", help="per LocalCluster worker, e.g. 4GiB (default: memory / workers)")
        p.add_argument("--cell-timeout", type=int, default=None, help="per-cell timeout in seconds (default: the scale's)")
        p.add_argument("--no-resume", action="store_true", help="run every pair again, even those already done")
    p_bench = sub.add_parser("bench", help="the same ci sweep through a LocalCluster and through the two-process pool")
    p_bench.add_argument("slugs", nargs="*")
    p_bench.add_argument("--seeds", default="0-1")
    p_bench.add_argument("--jobs", type=int, default=2)
    sub.add_parser("check", help="validate every committed sweep record against the schema")
    args = parser.parse_args(argv)
    if args.cmd == "check":
        errors = schema_errors()
        for err in errors:
            print(err)
        print(f"{len(load_records())} sweep record(s), {len(errors)} problem(s)")
        return 1 if errors else 0
    slugs = args.slugs or pipeline.all_slugs()
    pipeline._check_known(slugs)
    try:
        seeds = parse_seeds(args.seeds) if args.cmd != "confirm" else list(range(10, 20))
        frozen = frozen_commit_of(slugs) if args.cmd == "confirm" else None
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.cmd == "bench":
        from repro.sweep.bench import bench

        bench(slugs, seeds, args.jobs)
        return 0
    scale = "confirm" if args.cmd == "confirm" else args.scale
    try:
        result = run_sweep(slugs, scale, seeds, scheduler=args.scheduler, workers=args.workers,
                           memory_limit=args.memory_limit, cell_timeout_s=args.cell_timeout,
                           resume=not args.no_resume, frozen_commit=frozen)
    except KeyboardInterrupt:
        print("\ninterrupted: finished runs are kept; run the same command to continue", file=sys.stderr)
        return 130
    return report(result)


if __name__ == "__main__":
    sys.exit(main())
