"""Running a sweep: every (notebook, seed) pair as a Dask task, then one record per page (``make sweep``).

Every (notebook, seed) pair is one Dask task that calls :func:`repro.pipeline.execute_one`, the task function of
``make book``, ``make test`` and ``make run`` (the sweep adds the scheduling, not a second executor). Without a
scheduler address the sweep starts a ``distributed.LocalCluster``: one single-threaded worker process per core,
each with a memory limit; with one (``--scheduler tcp://host:8786``) it submits to that cluster, whose workers run
the same checkout and ``.venv``. A progress bar shows the count done and an ETA, and the Dask dashboard's address
is printed (it needs ``bokeh``).

Resumable: each finished task leaves ``book/_build/sweeps/<scale>/<slug>/seed<N>.json`` (and the executed
``seed<N>.ipynb``). A task whose (slug, scale, seed, input hash) already has a successful result there, or in the
committed record, is skipped; failed tasks run again. A failing or timed-out task is recorded with its first error
line; it does not stop the others, the failures are listed at the end and the exit status is non-zero.

A confirmation sweep (``scale="confirm"``, ``make confirm``) runs ci scale on the held-out seeds 10-19, only
from a commit in which the page's inputs are committed unchanged, and names that commit in its record.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repro import pipeline
from repro.sweep.records import (
    EXEC_SCALE,
    build_record,
    dump_record,
    record_path,
    records_root,
    runs_of_record,
    run_of,
    seeds_text,
    state,
    sweep_hash,
    validate_record,
)

ROOT = pipeline.ROOT
BUILD = ROOT / "book" / "_build" / "sweeps"


def task_dir(slug: str, scale: str, out_dir: Path | None = None) -> Path:
    return Path(out_dir if out_dir is not None else BUILD) / scale / slug


# ---------- one task ----------


def sweep_task(slug: str, scale: str, seed: int, expected_hash: str, out_dir: str,
               source: str | None = None, cell_timeout_s: int | None = None) -> dict:
    """One (notebook, seed) pair on a worker: :func:`repro.pipeline.execute_one`, and its result as a dict.

    Paths are resolved in the worker's own checkout (``out_dir`` relative to its
    repository root), so workers on other machines need no shared disk: the
    claims record comes back in the result. A worker whose checkout gives
    another input hash refuses the task (its result would not belong to this
    sweep).
    """
    base = Path(out_dir) if Path(out_dir).is_absolute() else pipeline.ROOT / out_dir
    if source is not None and not Path(source).is_absolute():
        source = str(pipeline.ROOT / source)
    where = task_dir(slug, scale, base)
    here = sweep_hash(slug, scale, source)
    result = {"slug": slug, "scale": scale, "seed": seed, "input_hash": expected_hash, "ok": False,
              "error": "", "seconds": 0.0, "record": None, "env": None, "host": os.uname().nodename}
    if here != expected_hash:
        result["error"] = (f"this worker's checkout gives input hash {here}, the sweep's is {expected_hash}: "
                           "run the workers on the same commit and .venv")
        return result
    outcome = pipeline.execute_one(slug, str(where / f"seed{seed}.ipynb"), str(where / f"claims-seed{seed}"),
                                   EXEC_SCALE[scale], seed, source=source, cell_timeout_s=cell_timeout_s)
    result.update(ok=outcome.ok, error=outcome.error, seconds=round(outcome.seconds, 2), record=outcome.record,
                  env=(outcome.meta or {}).get("env"))
    if outcome.ok and (outcome.record is None or outcome.record.get("seed") != seed
                       or outcome.record.get("scale") != EXEC_SCALE[scale]):
        result.update(ok=False, error="the notebook wrote no claims record for this run (claims.save() missing?)")
    return result


@dataclass
class SweepResult:
    """What :func:`run_sweep` did: tasks run and skipped, failures ``(slug, seed, error)``, records written."""

    executed: int = 0
    skipped: int = 0
    failures: list[tuple[str, int, str]] = field(default_factory=list)
    records: list[Path] = field(default_factory=list)
    seconds: float = 0.0
    run_seconds: list[float] = field(default_factory=list)  # each executed run's own time (execute_one)
    startup_s: float = 0.0  # starting the LocalCluster and connecting
    shutdown_s: float = 0.0  # closing them


def _done_result(path: Path, expected_hash: str) -> dict | None:
    if not path.exists():
        return None
    try:
        result = json.loads(path.read_text())
    except json.JSONDecodeError:
        return None
    return result if result.get("ok") and result.get("input_hash") == expected_hash else None


def _runtime_estimate(slug: str, scale: str) -> float:
    """Expected runtime (the page's ci runtime; x10 at full scale), to start the longest tasks first."""
    path = pipeline.CLAIMS / f"{slug}.json"
    ci = json.loads(path.read_text()).get("runtime_s", 10.0) if path.exists() else 10.0
    return float(ci) * (10 if EXEC_SCALE[scale] == "full" else 1)


def plan(slugs: list[str], scale: str, seeds: list[int], sources: dict[str, str] | None = None) -> list[tuple[str, int]]:
    """The (slug, seed) tasks, longest expected first (the last tasks to start are the short ones)."""
    tasks = [(slug, seed) for slug in slugs for seed in seeds]
    return sorted(tasks, key=lambda t: (-_runtime_estimate(t[0], scale), t[0], t[1]))


def start_cluster(workers: int | None = None, memory_limit: str | None = "auto"):  # noqa: ANN201
    """A ``LocalCluster``: one single-threaded worker process per core (or ``workers``), a memory limit each."""
    from distributed import LocalCluster

    n = workers or os.cpu_count() or 1
    return LocalCluster(n_workers=n, threads_per_worker=1, processes=True, memory_limit=memory_limit,
                        dashboard_address="127.0.0.1:0", host="127.0.0.1")


def dashboard(client, local: bool) -> str | None:  # noqa: ANN001
    """The dashboard's address, or ``None`` where the scheduler serves none (it needs ``bokeh``)."""
    import importlib.util

    if local and importlib.util.find_spec("bokeh") is None:
        return None  # the scheduler's HTTP server runs, but without bokeh it serves no dashboard
    try:
        if "dashboard" not in client.scheduler_info().get("services", {}):
            return None
        return client.dashboard_link
    except Exception:  # noqa: BLE001
        return None


def first_line(text: str) -> str:
    lines = [ln.strip() for ln in str(text).strip().splitlines() if ln.strip()]
    return lines[0] if lines else ""


def run_sweep(
    slugs: list[str],
    scale: str = "ci",
    seeds: list[int] | None = None,
    *,
    scheduler: str | None = None,
    client: Any = None,
    workers: int | None = None,
    memory_limit: str | None = "auto",
    out_dir: Path | None = None,
    records_dir: Path | None = None,
    sources: dict[str, str] | None = None,
    cell_timeout_s: int | None = None,
    resume: bool = True,
    show_progress: bool = True,
    frozen_commit: str | None = None,
) -> SweepResult:
    """Run every (slug, seed) not already done on Dask, then write one record per slug.

    ``scale``: ``"ci"``, ``"full"`` or ``"confirm"`` (ci scale on the held-out seeds 10-19; needs
    ``frozen_commit``, see :func:`frozen_commit_of`). ``client``: an existing ``distributed.Client`` (the
    tests'); else one to ``scheduler``, else to a new ``LocalCluster`` of ``workers`` processes. ``sources``:
    jupytext sources by slug where not ``notebooks/<slug>.py``. ``resume=False`` runs every task again (the
    benchmark).
    """
    from tqdm import tqdm

    if scale not in EXEC_SCALE:
        raise ValueError(f"scale must be one of {tuple(EXEC_SCALE)}; got {scale!r}")
    if scale == "confirm":
        seeds = seeds if seeds is not None else list(range(10, 20))
        if not set(seeds) <= set(range(10, 20)):
            raise ValueError(f"a confirmation sweep runs the held-out seeds 10-19 only; got {seeds_text(seeds)}")
        if not frozen_commit:
            raise ValueError("a confirmation sweep needs the commit its inputs are frozen in (frozen_commit)")
    seeds = seeds if seeds is not None else list(range(10))
    sources = sources or {}
    out_dir, records_dir = Path(out_dir if out_dir is not None else BUILD), records_root(records_dir)
    t0 = time.perf_counter()
    result = SweepResult()
    hashes = {slug: sweep_hash(slug, scale, sources.get(slug)) for slug in slugs}
    committed_runs: dict[str, dict[int, dict]] = {}
    if resume:
        for slug in slugs:
            status, record = state(slug, scale, records_dir, sources.get(slug))
            if status == "current" and record is not None and not validate_record(record):
                committed_runs[slug] = runs_of_record(record)
    todo = []
    for slug, seed in plan(slugs, scale, seeds, sources):
        if resume and (seed in committed_runs.get(slug, {})
                       or _done_result(task_dir(slug, scale, out_dir) / f"seed{seed}.json", hashes[slug])):
            result.skipped += 1
        else:
            todo.append((slug, seed))
    print(f"Sweep at {scale} scale, seeds {seeds_text(seeds)}: {len(slugs)} notebook(s), {len(todo)} run(s) to do, "
          f"{result.skipped} already done (same inputs)", flush=True)
    failed: dict[str, dict[int, str]] = {}
    own_cluster = own_client = None
    try:
        if todo:
            if client is None:
                from distributed import Client

                t_start = time.perf_counter()
                if scheduler:
                    own_client = client = Client(scheduler)
                else:
                    own_cluster = start_cluster(workers, memory_limit)
                    own_client = client = Client(own_cluster)
                result.startup_s = time.perf_counter() - t_start
            n_workers = len(client.scheduler_info().get("workers", {}))
            link = dashboard(client, local=scheduler is None)
            print(f"Dask scheduler {client.scheduler.address}: {n_workers} worker(s); dashboard "
                  f"{link or 'not available (install bokeh to get one)'}", flush=True)
            from distributed import as_completed

            # The client hands out one task per worker thread and the next one when a task ends, longest
            # first. Submitted all at once, tasks of unknown duration are spread over the workers' own queues
            # up front (Dask's estimate is half a second each), and a worker can end up with the two longest.
            futures: dict[Any, tuple[str, int]] = {}
            pending = iter(todo)
            running = as_completed()
            rel_out = str(out_dir.relative_to(ROOT) if out_dir.is_relative_to(ROOT) else out_dir)

            def top_up() -> None:
                slots = max(1, sum(client.nthreads().values()))
                while len(futures) < slots:
                    nxt = next(pending, None)
                    if nxt is None:
                        return
                    slug, seed = nxt
                    fut = client.submit(sweep_task, slug, scale, seed, hashes[slug], rel_out, sources.get(slug),
                                        cell_timeout_s, key=f"repro-{slug}-{scale}-seed{seed}-{uuid.uuid4().hex[:8]}",
                                        pure=False)
                    futures[fut] = (slug, seed)
                    running.add(fut)

            top_up()
            bar = tqdm(total=len(todo), unit="run", desc=f"sweep {scale}", disable=not show_progress,
                       file=sys.stdout, dynamic_ncols=True)
            with bar:
                for fut in running:
                    slug, seed = futures.pop(fut)
                    try:
                        res = fut.result()
                    except Exception as exc:  # noqa: BLE001 - a killed worker, a lost connection
                        res = {"slug": slug, "scale": scale, "seed": seed, "input_hash": hashes[slug], "ok": False,
                               "error": f"{type(exc).__name__}: {first_line(str(exc))}", "seconds": 0.0,
                               "record": None, "env": None, "host": ""}
                    res["error"] = first_line(res["error"])
                    where = task_dir(slug, scale, out_dir)
                    where.mkdir(parents=True, exist_ok=True)
                    (where / f"seed{seed}.json").write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")
                    result.executed += 1
                    result.run_seconds.append(float(res.get("seconds") or 0.0))
                    if not res["ok"]:
                        failed.setdefault(slug, {})[seed] = res["error"]
                        result.failures.append((slug, seed, res["error"]))
                        bar.write(f"  FAILED {slug} seed {seed}: {res['error']}")
                    bar.set_postfix_str(f"{slug} seed {seed} {'ok' if res['ok'] else 'FAILED'}", refresh=False)
                    bar.update(1)
                    fut.release()
                    top_up()
    finally:
        result.records = write_records(slugs, scale, hashes, out_dir, records_dir, committed_runs, failed,
                                       frozen_commit)
        t_close = time.perf_counter()
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()
        result.shutdown_s = time.perf_counter() - t_close
        result.seconds = time.perf_counter() - t0
    return result


def write_records(slugs: list[str], scale: str, hashes: dict[str, str], out_dir: Path, records_dir: Path,
                  committed_runs: dict[str, dict[int, dict]], failed: dict[str, dict[int, str]],
                  frozen_commit: str | None = None) -> list[Path]:
    """Merge, per slug, the committed record's runs and every result on the current inputs; write the record."""
    written = []
    for slug in slugs:
        runs = dict(committed_runs.get(slug, {}))
        envs: list[dict] = []
        old_failed: dict[int, str] = {}
        path = record_path(slug, scale, records_dir)
        if path.exists() and slug in committed_runs:
            old = json.loads(path.read_text())
            envs += old.get("env", [])
            old_failed = {f["seed"]: f["error"] for f in old.get("failed", [])}
        for res_path in sorted(task_dir(slug, scale, out_dir).glob("seed*.json")):
            res = _done_result(res_path, hashes[slug])
            if res is not None:
                runs[res["seed"]] = run_of(res["record"])
                envs.append(res.get("env"))
        fails = {**old_failed, **failed.get(slug, {})}
        if not runs:
            continue  # nothing succeeded: no record (the failures are listed by the command)
        record = build_record(slug, scale, hashes[slug], runs, fails, envs, frozen_commit)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = dump_record(record)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        written.append(path)
    return written


def frozen_commit_of(slugs: list[str]) -> str:
    """The commit (``HEAD``) in which every input of these pages is committed unchanged; ``ValueError`` otherwise.

    A confirmation sweep runs only on frozen inputs: a test designed on seeds 0-9, committed, then run once on
    seeds 10-19. Its record names this commit, and the book checks that its inputs hash to the record's.
    """
    files = sorted({pipeline._rel(p) for slug in slugs for p in pipeline.input_files(slug)})
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--", *files], cwd=ROOT, capture_output=True,
                                 text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        raise ValueError(f"a confirmation sweep needs a git checkout: {exc}") from exc
    if changed:
        raise ValueError("commit the pages' inputs first: a confirmation sweep runs on a frozen commit; "
                         "uncommitted:\n  " + "\n  ".join(changed.splitlines()))
    return head


def report(result: SweepResult) -> int:
    """Print each record's judged summary and the failures (all of them); return the exit status (non-zero if any)."""
    from repro.claims.judge import aggregate, per_seed_values, role_of

    for path in result.records:
        rec = json.loads(path.read_text())
        rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        parts = []
        for c in rec["claims"]:
            agg = aggregate(c, per_seed_values(rec, c["id"])) if role_of(c) == "test" else None
            if agg is not None:
                parts.append(f"{c['id']} {agg.status} ({agg.holds}/{agg.n})")
        print(f"  {rec['slug']:<40} {len(rec['seeds'])} seed(s): {'; '.join(parts) or 'no test with comparators'}"
              f"  -> {rel}")
    print(f"Sweep: {result.executed} run(s) executed, {result.skipped} skipped (already done), "
          f"{len(result.failures)} failed, in {result.seconds:.1f} s")
    if result.failures:
        print(f"\n{len(result.failures)} run(s) failed (executed notebooks under _failed/ beside their results):")
        for slug, seed, error in sorted(result.failures):
            print(f"  {slug} seed {seed}: {error}")
        return 1
    return 0
