"""Sweeps: every claim of every page across seeds and at full scale, executed on Dask (``make sweep``).

A page's verdict rests on one run (seed 0 at ci scale). A sweep re-executes
the notebooks over many seeds, at a chosen scale, and keeps, per claim, its
status at every seed: a reader can then tell a verdict that holds from a
lucky draw.

Execution
    Every (notebook, seed) pair is one Dask task that calls
    :func:`repro.pipeline.execute_one`, the task function of ``make book``,
    ``make test`` and ``make run`` (the sweep adds the scheduling, not a second
    executor). Without a scheduler address the sweep starts a
    ``distributed.LocalCluster``: one single-threaded worker process per core,
    each with a memory limit; with one (``--scheduler tcp://host:8786``) it
    submits to that cluster, whose workers run the same checkout and ``.venv``.
    A progress bar shows the count done and an ETA, and the Dask dashboard's
    address is printed when it is available (it needs ``bokeh``).

Resumable
    Each finished task leaves ``book/_build/sweeps/<scale>/<slug>/seed<N>.json``
    (and the executed ``seed<N>.ipynb``). A task whose (slug, scale, seed,
    input hash) already has a successful result there, or in the committed
    record, is skipped; failed tasks run again. A failing or timed-out task is
    recorded with its first error line; it does not stop the others, the
    failures are listed at the end and the exit status is non-zero.

Records
    One committed record per scale and paper, ``book/sweeps/<scale>/<slug>.json``
    (schema :data:`SCHEMA`, checked by :func:`validate_record`; the book's build
    fails on a record that does not match it). It holds the content hash of the
    page's inputs at that scale (:func:`sweep_hash`: the source's code cells,
    shared code, kernels, pins; the seeds are listed apart; prose edits keep a
    record current), the seeds run, the runtime and
    verdict per seed, and per claim its status, outcome and values at every
    seed, the number of seeds at which it passes and at which it holds
    (counted and reproduced), and the median, min and max of its measured
    value. Wall-clock (volatile) claims are kept apart under ``timings``. A
    record whose hash differs from the current inputs is *stale*: the book
    shows it as stale, never silently as current.

Command line (``python -m repro.sweep --help``)::

    run [SLUG ...] [--scale ci|full] [--seeds 0-9] [--scheduler tcp://host:8786] [--workers N]
    bench [SLUG ...] [--seeds 0-1] [--jobs 2]     LocalCluster against the two-process pool
    check                                         validate every committed record against the schema
"""

from __future__ import annotations

import argparse
import html
import json
import math
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repro import pipeline
from repro.claims import STATUSES, VERDICTS, _bound_or_value, is_counted, outcome_of, round_sig, verdict_of

ROOT = pipeline.ROOT
BUILD = ROOT / "book" / "_build" / "sweeps"
# the committed records; REPRO_SWEEPS_DIR points the book at another folder (to preview a sweep before committing it)
RECORDS = Path(os.environ.get("REPRO_SWEEPS_DIR") or ROOT / "book" / "sweeps")
SCHEMA_VERSION = 1
OUTCOMES = (*STATUSES, "uninformative", "machine-sensitive", "implementation check", "timed", "no control")
CLAIM_FIELDS = ("id", "kind", "criterion", "volatile", "post_hoc", "machine_sensitive",
                "status", "control_status", "measured", "control")

# The record's schema: field -> type(s) (documentation and :func:`validate_record`).
SCHEMA = {
    "record": {"schema": int, "slug": str, "scale": str, "input_hash": str, "seeds": list, "failed": list,
               "runtime_s": dict, "verdicts": dict, "summary": dict, "claims": list, "timings": list, "env": list},
    "summary": {"seeds": int, "claims": int, "hold_every_seed": int, "stable": int, "verdict": str,
                "verdict_counts": dict, "seed_sensitive": list},
    "claim": {"id": str, "kind": str, "criterion": str, "post_hoc": bool, "machine_sensitive": bool,
              "status": dict, "control_status": dict, "outcome": dict, "measured": dict, "control": dict,
              "passes": int, "holds": int, "counted_seeds": int, "seed_sensitive": bool,
              "measured_stats": (dict, type(None))},
    "timing": {"id": str, "criterion": str, "status": dict, "measured": dict, "passes": int,
               "measured_stats": (dict, type(None))},
}


# ---------- seeds, hashes, paths ----------


def parse_seeds(text: str) -> list[int]:
    """``"0-9"``, ``"0,3,5-7"`` or ``"4"`` -> sorted distinct seeds (``ValueError`` on anything else)."""
    seeds: set[int] = set()
    for part in str(text).replace(" ", "").split(","):
        if not part:
            continue
        lo, dash, hi = part.partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise ValueError(f"seeds must look like 0-9 or 0,3,5-7 (non-negative ints); got {text!r}")
        a, b = int(lo), int(hi) if dash else int(lo)
        if b < a:
            raise ValueError(f"empty seed range {part!r} in {text!r}")
        seeds.update(range(a, b + 1))
    if not seeds:
        raise ValueError(f"no seeds in {text!r}")
    return sorted(seeds)


def seeds_text(seeds: list[int]) -> str:
    """``[0, 1, 2, 5]`` -> ``"0–2, 5"`` (for readers)."""
    out, run = [], []
    for s in sorted(seeds):
        if run and s == run[-1] + 1:
            run.append(s)
            continue
        if run:
            out.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [s]
    if run:
        out.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


_MARKDOWN_CELL = re.compile(r"# %% \[(?:markdown|md)\]")


def notebook_code(text: str) -> str:
    """A jupytext percent source without its markdown cells: the part that can change an output.

    Blank lines between cells are layout (jupytext drops them too), so each kept cell is right-stripped.
    """
    cells = re.split(r"(?m)^(?=# %%)", text)
    return "".join(c.rstrip() + "\n" for c in cells if not _MARKDOWN_CELL.match(c))


def sweep_hash(slug: str, scale: str, source: str | os.PathLike | None = None) -> str:
    """Content hash of what can change a page's outputs at ``scale``; seeds listed apart.

    The inputs of :func:`repro.pipeline.input_hash` (source, shared code, kernels, pins), with one
    difference: of the notebook source only the code cells count. A record stays current when the
    prose around the results is edited (a verdict rewritten to agree with the record, say), and goes
    stale on any change to code, parameters, kernels, shared code or pins. (The executed page's own
    hash, :func:`repro.pipeline.input_hash`, counts the prose too: the page shows it.)
    """
    src = Path(source) if source is not None else pipeline.NOTEBOOKS / f"{slug}.py"
    return pipeline.input_hash(slug, {"scale": scale}, src, source_filter=notebook_code)


def records_root(records_dir: Path | None = None) -> Path:
    """``records_dir``, or the committed records' folder (:data:`RECORDS`, read when called)."""
    return Path(records_dir) if records_dir is not None else RECORDS


def record_path(slug: str, scale: str, records_dir: Path | None = None) -> Path:
    return records_root(records_dir) / scale / f"{slug}.json"


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
                                   scale, seed, source=source, cell_timeout_s=cell_timeout_s)
    result.update(ok=outcome.ok, error=outcome.error, seconds=round(outcome.seconds, 2), record=outcome.record,
                  env=(outcome.meta or {}).get("env"))
    if outcome.ok and (outcome.record is None or outcome.record.get("seed") != seed
                       or outcome.record.get("scale") != scale):
        result.update(ok=False, error="the notebook wrote no claims record for this run (claims.save() missing?)")
    return result


# ---------- from claims records to a sweep record ----------


def run_of(record: dict) -> dict:
    """What a sweep keeps of one run's claims record: runtime, verdict, and per claim its fields and outcome."""
    claims = []
    for c in record["claims"]:
        kept = {k: c.get(k) for k in CLAIM_FIELDS}
        kept.update(kind=c.get("kind", "empirical"), volatile=bool(c.get("volatile")),
                    post_hoc=bool(c.get("post_hoc")), machine_sensitive=bool(c.get("machine_sensitive")),
                    outcome=outcome_of(c), counted=is_counted(c))
        claims.append(kept)
    return {"runtime_s": record.get("runtime_s"), "verdict": record["verdict"], "claims": claims}


def runs_of_record(sweep: dict) -> dict[int, dict]:
    """The per-seed runs a sweep record holds (inverse of :func:`build_record`, for resuming)."""
    runs: dict[int, dict] = {}
    for seed in sweep["seeds"]:
        key = str(seed)
        claims = []
        for c in sweep["claims"]:
            if key not in c["status"]:
                continue
            claims.append({
                "id": c["id"], "kind": c["kind"], "criterion": c["criterion"], "volatile": False,
                "post_hoc": c["post_hoc"], "machine_sensitive": c["machine_sensitive"],
                "status": c["status"][key], "control_status": c["control_status"].get(key),
                "measured": c["measured"].get(key), "control": c["control"].get(key),
                "outcome": c["outcome"][key], "counted": c["outcome"][key] in STATUSES,
            })
        for t in sweep["timings"]:
            if key in t["status"]:
                claims.append({"id": t["id"], "kind": "empirical", "criterion": t["criterion"], "volatile": True,
                               "post_hoc": False, "machine_sensitive": False, "status": t["status"][key],
                               "control_status": None, "measured": t["measured"].get(key), "control": None,
                               "outcome": "timed", "counted": False})
        runs[seed] = {"runtime_s": sweep["runtime_s"].get(key), "verdict": sweep["verdicts"][key], "claims": claims}
    return runs


def value_stats(values: list) -> dict | None:
    """Median, min and max of numeric values (a bound ``"< B"`` counts as ``B``, flagged); count of yes for booleans."""
    if values and all(isinstance(v, bool) for v in values):
        return {"yes": sum(values), "of": len(values)}
    nums, bounded = [], False
    for v in values:
        if isinstance(v, bool):
            return None
        parsed = _bound_or_value(v)
        if parsed is None or not math.isfinite(parsed[0]):
            return None
        nums.append(parsed[0])
        bounded |= parsed[1]
    if not nums:
        return None
    stats = {"median": round_sig(statistics.median(nums)), "min": round_sig(min(nums)), "max": round_sig(max(nums))}
    if bounded:
        stats["bound"] = True  # some values are only bounds: "< B" counted as B
    return stats


def _ordered_ids(runs: dict[int, dict], volatile: bool) -> list[str]:
    ids: list[str] = []
    for seed in sorted(runs):
        for c in runs[seed]["claims"]:
            if bool(c["volatile"]) == volatile and c["id"] not in ids:
                ids.append(c["id"])
    return ids


def build_record(slug: str, scale: str, input_hash: str, runs: dict[int, dict],
                 failed: dict[int, str] | None = None, envs: list[dict] | None = None) -> dict:
    """The sweep record of one page at one scale from its runs (``{seed: run_of(claims record)}``)."""
    seeds = sorted(runs)
    keys = [str(s) for s in seeds]
    claims, timings = [], []
    for cid in _ordered_ids(runs, volatile=False):
        per = {s: next(c for c in runs[s]["claims"] if c["id"] == cid)
               for s in seeds if any(c["id"] == cid for c in runs[s]["claims"])}
        first = per[min(per)]
        outcomes = {str(s): c["outcome"] for s, c in per.items()}
        claims.append({
            "id": cid, "kind": first["kind"], "criterion": first["criterion"],
            "post_hoc": bool(first["post_hoc"]), "machine_sensitive": bool(first["machine_sensitive"]),
            "status": {str(s): c["status"] for s, c in per.items()},
            "control_status": {str(s): c["control_status"] for s, c in per.items()},
            "outcome": outcomes,
            "measured": {str(s): c["measured"] for s, c in per.items()},
            "control": {str(s): c["control"] for s, c in per.items()},
            "passes": sum(c["status"] == "reproduced" for c in per.values()),
            "holds": sum(c["outcome"] == "reproduced" for c in per.values()),
            "counted_seeds": sum(c["outcome"] in STATUSES for c in per.values()),
            "seed_sensitive": len(set(outcomes.values())) > 1 or len(per) < len(seeds),
            "measured_stats": value_stats([c["measured"] for c in per.values()]),
        })
    for tid in _ordered_ids(runs, volatile=True):
        per = {s: next(c for c in runs[s]["claims"] if c["id"] == tid)
               for s in seeds if any(c["id"] == tid for c in runs[s]["claims"])}
        timings.append({
            "id": tid, "criterion": per[min(per)]["criterion"],
            "status": {str(s): c["status"] for s, c in per.items()},
            "measured": {str(s): c["measured"] for s, c in per.items()},
            "passes": sum(c["status"] == "reproduced" for c in per.values()),
            "measured_stats": value_stats([c["measured"] for c in per.values()]),
        })
    verdicts = {str(s): runs[s]["verdict"] for s in seeds}
    counted = [c for c in claims if c["counted_seeds"] > 0]
    counts: dict[str, int] = {}
    for v in verdicts.values():
        counts[v] = counts.get(v, 0) + 1
    summary = {
        "seeds": len(seeds),
        "claims": len(counted),
        "hold_every_seed": sum(c["holds"] == len(seeds) for c in counted),
        "stable": sum(not c["seed_sensitive"] for c in counted),
        "verdict": next(iter(counts)) if len(counts) == 1 else "varies",
        "verdict_counts": counts,
        "seed_sensitive": [c["id"] for c in counted if c["seed_sensitive"]],
    }
    distinct_envs = []
    for env in envs or []:
        if env and env not in distinct_envs:
            distinct_envs.append(env)
    return {
        "schema": SCHEMA_VERSION, "slug": slug, "scale": scale, "input_hash": input_hash,
        "seeds": seeds,
        "failed": [{"seed": s, "error": e} for s, e in sorted((failed or {}).items()) if s not in runs],
        "runtime_s": {k: runs[s]["runtime_s"] for k, s in zip(keys, seeds)},
        "verdicts": verdicts, "summary": summary, "claims": claims, "timings": timings, "env": distinct_envs,
    }


def dump_record(record: dict) -> str:
    """The record's JSON text: one line per field (a claim's seeds on one line), so diffs stay readable."""
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    lines = ["{"]
    for i, (key, value) in enumerate(record.items()):
        comma = "," if i < len(record) - 1 else ""
        if key in ("claims", "timings", "env") and value:
            lines.append(f" {one(key)}: [")
            for j, item in enumerate(value):
                fields = ",\n".join(f"   {one(k)}: {one(v)}" for k, v in item.items())
                lines.append("  {\n" + fields + "\n  }" + ("," if j < len(value) - 1 else ""))
            lines.append(" ]" + comma)
        else:
            lines.append(f" {one(key)}: {one(value)}{comma}")
    return "\n".join(lines) + "\n}\n"


def _check_fields(obj: Any, spec: dict, where: str) -> list[str]:
    if not isinstance(obj, dict):
        return [f"{where}: not an object"]
    errors = [f"{where}: missing {k!r}" for k in spec if k not in obj]
    errors += [f"{where}: unknown field {k!r}" for k in obj if k not in spec]
    for k, types in spec.items():
        if k in obj and not (isinstance(obj[k], types) and not (types is int and isinstance(obj[k], bool))):
            errors.append(f"{where}: {k!r} is {type(obj[k]).__name__}")
    return errors


def validate_record(record: Any) -> list[str]:
    """What is wrong with a sweep record (empty list: it matches :data:`SCHEMA` and its counts add up)."""
    errors = _check_fields(record, SCHEMA["record"], "record")
    if errors:
        return errors
    if record["schema"] != SCHEMA_VERSION:
        return [f"schema {record['schema']} (this code reads {SCHEMA_VERSION})"]
    if record["scale"] not in ("ci", "full"):
        errors.append(f"scale {record['scale']!r}")
    seeds = record["seeds"]
    keys = {str(s) for s in seeds}
    if not seeds or seeds != sorted(set(seeds)) or not all(isinstance(s, int) and s >= 0 for s in seeds):
        errors.append(f"seeds {seeds!r}: a sorted list of distinct non-negative ints")
    for f in record["failed"]:
        if not (isinstance(f, dict) and set(f) == {"seed", "error"} and isinstance(f["error"], str)):
            errors.append(f"failed entry {f!r}: needs seed and error")
    for name in ("runtime_s", "verdicts"):
        if set(record[name]) != keys:
            errors.append(f"{name} keys {sorted(record[name])} are not the seeds {sorted(keys)}")
    if any(v not in VERDICTS for v in record["verdicts"].values()):
        errors.append(f"verdicts {record['verdicts']}")
    errors += _check_fields(record["summary"], SCHEMA["summary"], "summary")
    for i, c in enumerate(record["claims"]):
        where = f"claim {c.get('id', i) if isinstance(c, dict) else i}"
        errs = _check_fields(c, SCHEMA["claim"], where)
        if errs:
            errors += errs
            continue
        for name in ("status", "control_status", "outcome", "measured", "control"):
            if not set(c[name]) <= keys:
                errors.append(f"{where}: {name} has seeds outside {sorted(keys)}")
        if set(c["status"]) != set(c["outcome"]):
            errors.append(f"{where}: status and outcome cover different seeds")
        if any(s not in STATUSES for s in c["status"].values()):
            errors.append(f"{where}: status {c['status']}")
        if any(o not in OUTCOMES for o in c["outcome"].values()):
            errors.append(f"{where}: outcome {c['outcome']}")
        if c["passes"] != sum(s == "reproduced" for s in c["status"].values()):
            errors.append(f"{where}: passes {c['passes']} does not match its statuses")
        if c["holds"] != sum(o == "reproduced" for o in c["outcome"].values()):
            errors.append(f"{where}: holds {c['holds']} does not match its outcomes")
    for i, t in enumerate(record["timings"]):
        errors += _check_fields(t, SCHEMA["timing"], f"timing {t.get('id', i) if isinstance(t, dict) else i}")
    if not errors:
        rebuilt = build_record(record["slug"], record["scale"], record["input_hash"], runs_of_record(record))
        for key in ("hold_every_seed", "claims", "stable", "seeds"):
            if rebuilt["summary"][key] != record["summary"][key]:
                errors.append(f"summary {key} {record['summary'][key]} does not match the claims "
                              f"({rebuilt['summary'][key]})")
    return errors


def load_records(records_dir: Path | None = None) -> dict[tuple[str, str], dict]:
    """Every committed sweep record, ``{(scale, slug): record}`` (unvalidated)."""
    out = {}
    for path in sorted(records_root(records_dir).glob("*/*.json")):
        out[(path.parent.name, path.stem)] = json.loads(path.read_text())
    return out


def schema_errors(records_dir: Path | None = None) -> list[str]:
    """Schema errors of every committed record, each prefixed with its path (the build fails on any)."""
    errors = []
    root = records_root(records_dir)
    for path in sorted(root.glob("*/*.json")):
        rel = path.relative_to(root.parent)
        try:
            record = json.loads(path.read_text())
        except json.JSONDecodeError as exc:
            errors.append(f"{rel}: not JSON ({exc})")
            continue
        problems = validate_record(record)
        if not problems and (record["slug"], record["scale"]) != (path.stem, path.parent.name):
            problems = [f"holds {record['scale']}/{record['slug']}, not {path.parent.name}/{path.stem}"]
        errors += [f"{rel}: {p}" for p in problems]
    return errors


def state(slug: str, scale: str, records_dir: Path | None = None, source: str | None = None) -> tuple[str, dict | None]:
    """``("none", None)``, ``("current", record)`` or ``("stale", record)`` (inputs changed since the sweep)."""
    path = record_path(slug, scale, records_dir)
    if not path.exists():
        return "none", None
    record = json.loads(path.read_text())
    return ("current" if record.get("input_hash") == sweep_hash(slug, scale, source) else "stale"), record


# ---------- running a sweep ----------


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
    return float(ci) * (10 if scale == "full" else 1)


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
) -> SweepResult:
    """Run every (slug, seed) not already done on Dask, then write one record per slug.

    ``client``: an existing ``distributed.Client`` (the tests'); else one to
    ``scheduler``, else to a new ``LocalCluster`` of ``workers`` processes.
    ``sources``: jupytext sources by slug where not ``notebooks/<slug>.py``.
    ``resume=False`` runs every task again (the benchmark).
    """
    from tqdm import tqdm

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
        result.records = write_records(slugs, scale, hashes, out_dir, records_dir, committed_runs, failed)
        t_close = time.perf_counter()
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()
        result.shutdown_s = time.perf_counter() - t_close
        result.seconds = time.perf_counter() - t0
    return result


def write_records(slugs: list[str], scale: str, hashes: dict[str, str], out_dir: Path, records_dir: Path,
                  committed_runs: dict[str, dict[int, dict]], failed: dict[str, dict[int, str]]) -> list[Path]:
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
        record = build_record(slug, scale, hashes[slug], runs, fails, envs)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = dump_record(record)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        written.append(path)
    return written


def report(result: SweepResult) -> int:
    """Print the failures (all of them) and return the exit status (non-zero if any)."""
    for path in result.records:
        rec = json.loads(path.read_text())
        s = rec["summary"]
        rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"  {rec['slug']:<40} {s['hold_every_seed']} of {s['claims']} claims hold at every one of "
              f"{s['seeds']} seeds; {s['stable']}/{s['claims']} stable; verdict {s['verdict']}  -> {rel}")
    print(f"Sweep: {result.executed} run(s) executed, {result.skipped} skipped (already done), "
          f"{len(result.failures)} failed, in {result.seconds:.1f} s")
    if result.failures:
        print(f"\n{len(result.failures)} run(s) failed (executed notebooks under _failed/ beside their results):")
        for slug, seed, error in sorted(result.failures):
            print(f"  {slug} seed {seed}: {error}")
        return 1
    return 0


# ---------- benchmark ----------


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


# ---------- reader side (used by repro.bookext at build time) ----------


def _pct(k: int, n: int) -> str:
    return f"{k}/{n}"


def card_rows_html(slug: str, records_dir: Path | None = None) -> str:
    """Card rows: "across N seeds at ci scale: k of n claims hold at every seed", and the full-scale verdict."""
    e = html.escape
    rows = []
    for scale, key in (("ci", "Across seeds"), ("full", "Full scale")):
        status, rec = state(slug, scale, records_dir)
        if rec is None:
            cmd = f"make sweep PAPER={slug}" + (" SCALE=full SEEDS=0" if scale == "full" else "")
            body = f'<span class="repro-sweep repro-sweep-none" data-scale="{scale}">no sweep yet (<code>{e(cmd)}</code>)</span>'
        else:
            s = rec["summary"]
            n_seeds = s["seeds"]
            seeds_word = f"{n_seeds} seed{'s' if n_seeds != 1 else ''}"
            stale = (' <strong class="repro-stale">stale: the inputs changed since this sweep '
                     f'(<code>make sweep PAPER={e(slug)}{" SCALE=full" if scale == "full" else ""}</code>)</strong>'
                     if status == "stale" else "")
            counts = (f'{s["hold_every_seed"]} of {s["claims"]} claims hold at every seed, '
                      f'{s["stable"]}/{s["claims"]} stable')
            if scale == "ci":
                text = f"across {seeds_word} at ci scale: {counts}"
            elif n_seeds == 1:
                text = (f"{_verdict_badge(s['verdict'])} at seed {rec['seeds'][0]} "
                        f'({s["hold_every_seed"]} of {s["claims"]} claims hold)')
            else:
                verdict = (f"{_verdict_badge(s['verdict'])} at every seed" if s["verdict"] != "varies"
                           else "verdict varies: " + ", ".join(f"{e(v)} at {k}" for v, k in s["verdict_counts"].items()))
                text = f"{verdict} ({seeds_word}: {seeds_text(rec['seeds'])}); {counts}"
            failed = f"; {len(rec['failed'])} seed(s) failed to run" if rec["failed"] else ""
            body = (f'<span class="repro-sweep" data-scale="{scale}" data-seeds="{n_seeds}" '
                    f'data-hold="{s["hold_every_seed"]}" data-claims="{s["claims"]}" data-stable="{s["stable"]}" '
                    f'data-state="{status}">{text}{e(failed)}</span>{stale}')
        rows.append(f'<div class="repro-card-row"><span class="repro-card-key">{key}</span><span>{body}</span></div>')
    return "".join(rows)


# CSS class of each verdict, shared with the card's badge (repro.bookext.BADGE)
VERDICT_CLASS = {"reproduced": "repro-ok", "partial": "repro-partial", "not reproduced": "repro-no",
                 "inconclusive": "repro-inconclusive"}


def _verdict_badge(verdict: str) -> str:
    cls = VERDICT_CLASS.get(verdict, "repro-inconclusive")
    # not "repro-badge": that class marks the page's own verdict (seed 0 at ci scale) on the card
    return f'<span class="repro-sweep-badge {cls}">{html.escape(verdict)}</span>'


def _modes(outcomes: list[str]) -> set[str]:
    counts = {o: outcomes.count(o) for o in outcomes}
    return {o for o, k in counts.items() if k == max(counts.values())}


def scale_sensitive(ci_claim: dict | None, full_claim: dict | None) -> bool:
    """Whether a claim's outcome changes between scales: an outcome appears at full scale that no ci seed gave,
    or the most frequent outcome at full scale is not the most frequent one over the ci seeds."""
    if ci_claim is None or full_claim is None:
        return False
    ci, full = list(ci_claim["outcome"].values()), list(full_claim["outcome"].values())
    return not set(full) <= set(ci) or not _modes(ci) & _modes(full)


def _outcomes_text(claim: dict) -> str:
    counts: dict[str, int] = {}
    for o in claim["outcome"].values():
        counts[o] = counts.get(o, 0) + 1
    if len(counts) == 1:
        o, k = next(iter(counts.items()))
        return o if k == 1 else f"{o} (all {k})"
    return ", ".join(f"{o} {k}" for o, k in counts.items())


def _stats_text(stats: dict | None) -> str:
    from repro.claims import format_measured

    if stats is None:
        return "–"
    if "yes" in stats:
        return f"yes at {stats['yes']} of {stats['of']}"
    bound = "≤ " if stats.get("bound") else ""
    if stats["min"] == stats["max"]:
        return bound + format_measured(stats["median"])
    return (f'{bound}{format_measured(stats["median"])} <small>({format_measured(stats["min"])} to '
            f'{format_measured(stats["max"])})</small>')


def robustness_html(slug: str, records_dir: Path | None = None) -> str:
    """The page's robustness table: per claim, pass rate over ci seeds, median measured value, full-scale status."""
    e = html.escape
    ci_state, ci = state(slug, "ci", records_dir)
    full_state, full = state(slug, "full", records_dir)
    if ci is None and full is None:
        return ('<p class="repro-robustness-none">No sweep yet: this page\'s claims have been checked at seed 0 '
                f'only. <code>make sweep PAPER={e(slug)}</code> runs them over seeds 0–9 at ci scale.</p>')
    ids = [c["id"] for c in (ci or full)["claims"]]
    ids += [c["id"] for c in (full or {"claims": []})["claims"] if c["id"] not in ids]
    by = {scale: {c["id"]: c for c in rec["claims"]} if rec else {} for scale, rec in (("ci", ci), ("full", full))}
    rows = []
    for cid in ids:
        c_ci, c_full = by["ci"].get(cid), by["full"].get(cid)
        base = c_ci or c_full
        if base["kind"] == "implementation":
            continue
        marks = []
        if (c_ci and c_ci["seed_sensitive"]) or (c_full and c_full["seed_sensitive"]):
            marks.append('<span class="repro-mark repro-seed-sensitive">seed-sensitive</span>')
        if scale_sensitive(c_ci, c_full):
            marks.append('<span class="repro-mark repro-scale-sensitive">scale-sensitive</span>')
        n_ci = ci["summary"]["seeds"] if ci else 0
        rate = (f'{c_ci["holds"]}/{n_ci} <small>(passes {c_ci["passes"]}/{n_ci})</small>'
                if c_ci and c_ci["holds"] != c_ci["passes"] else (f"{c_ci['holds']}/{n_ci}" if c_ci else "–"))
        rows.append(
            f'<tr data-claim="{e(cid)}" data-holds="{c_ci["holds"] if c_ci else ""}" data-seeds="{n_ci}">'
            f'<td><code>{e(cid)}</code>{" †" if base["post_hoc"] else ""}</td><td>{e(base["criterion"])}</td>'
            f'<td>{rate}</td><td>{_stats_text(c_ci["measured_stats"]) if c_ci else "–"}</td>'
            f'<td>{e(_outcomes_text(c_full)) if c_full else "–"}</td><td>{" ".join(marks)}</td></tr>'
        )
    def about(rec: dict | None, st: str, scale: str) -> str:
        if rec is None:
            return f"no {scale} sweep yet"
        stale = " <strong class=\"repro-stale\">(stale: the inputs changed since)</strong>" if st == "stale" else ""
        return f"{scale} scale over seed{'s' if len(rec['seeds']) > 1 else ''} {seeds_text(rec['seeds'])}{stale}"
    head = ("<tr><th>claim</th><th>criterion</th><th>holds at ci seeds</th><th>median measured (ci seeds)</th>"
            "<th>full scale</th><th></th></tr>")
    timings = ""
    if ci and ci["timings"]:
        items = ", ".join(f"<code>{e(t['id'])}</code> {_stats_text(t['measured_stats'])}" for t in ci["timings"])
        timings = f'<p class="repro-robustness-timings"><small>Wall-clock timings (median over the ci seeds, not counted): {items}</small></p>'
    return (
        f'<p class="repro-robustness-about">Each claim re-executed from {about(ci, ci_state, "ci")}; '
        f"{about(full, full_state, 'full')}. A claim holds at a seed when it is reproduced and its control is not. "
        "Generated from <code>book/sweeps/</code> when the book is built.</p>"
        f'<table class="repro-claims repro-robustness"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
        + timings
    )


def scoreboard_cells(slug: str, records_dir: Path | None = None) -> tuple[str, str, dict]:
    """(seed-stability cell, full-scale cell, numbers for the totals) of a scoreboard row."""
    e = html.escape
    ci_state, ci = state(slug, "ci", records_dir)
    full_state, full = state(slug, "full", records_dir)
    nums = {"hold": 0, "claims": 0, "swept": 0}
    if ci is None:
        stability = '<span class="repro-sweep-none">no sweep yet</span>'
    else:
        s = ci["summary"]
        nums = {"hold": s["hold_every_seed"], "claims": s["claims"], "swept": 1}
        stale = ' <strong class="repro-stale">stale</strong>' if ci_state == "stale" else ""
        stability = (f'<span class="repro-stability" data-seeds="{s["seeds"]}" data-stable="{s["stable"]}" '
                     f'data-claims="{s["claims"]}" data-hold="{s["hold_every_seed"]}">{s["stable"]}/{s["claims"]} '
                     f'stable over {s["seeds"]} seeds</span><br><small>{s["hold_every_seed"]} hold at every seed</small>{stale}')
    if full is None:
        full_cell = '<span class="repro-sweep-none">no sweep yet</span>'
    else:
        s = full["summary"]
        stale = ' <strong class="repro-stale">stale</strong>' if full_state == "stale" else ""
        verdict = _verdict_badge(s["verdict"]) if s["verdict"] != "varies" else e("varies")
        full_cell = f'{verdict}<br><small>{s["seeds"]} seed{"s" if s["seeds"] != 1 else ""}</small>{stale}'
    return stability, full_cell, nums


def status_html(records_dir: Path | None = None) -> str:
    """The status page's table: for every notebook and scale, whether its sweep record is current."""
    e = html.escape
    rows = []
    for slug in pipeline.all_slugs():
        cells = []
        for scale in ("ci", "full"):
            st, rec = state(slug, scale, records_dir)
            if rec is None:
                cells.append("<td>no sweep yet</td>")
                continue
            label = ("current" if st == "current"
                     else f'<strong class="repro-stale">stale: inputs changed (<code>{e(rec["input_hash"])}</code>)</strong>')
            failed = f", {len(rec['failed'])} failed" if rec["failed"] else ""
            word = "seeds" if len(rec["seeds"]) > 1 else "seed"
            cells.append(f"<td>{word} {seeds_text(rec['seeds'])}{failed}: {label}</td>")
        rows.append(f"<tr data-slug=\"{e(slug)}\"><td>{e(slug)}</td>{''.join(cells)}</tr>")
    head = "<tr><th>notebook</th><th>ci sweep</th><th>full-scale sweep</th></tr>"
    return f'<table class="repro-sweep-status"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'


# ---------- command line ----------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.sweep", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_run = sub.add_parser("run", help="run the (notebook, seed) pairs not yet done and write book/sweeps/<scale>/")
    p_run.add_argument("slugs", nargs="*", help="these pages (default: all)")
    p_run.add_argument("--scale", default="ci", choices=("ci", "full"))
    p_run.add_argument("--seeds", default="0-9", help="e.g. 0-9 or 0,3,5-7 (default 0-9)")
    p_run.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (default: a LocalCluster)")
    p_run.add_argument("--workers", type=int, default=None, help="LocalCluster worker processes (default: one per core)")
    p_run.add_argument("--memory-limit", default="auto", help="per LocalCluster worker, e.g. 4GiB (default: memory / workers)")
    p_run.add_argument("--cell-timeout", type=int, default=None, help="per-cell timeout in seconds (default: the scale's)")
    p_run.add_argument("--no-resume", action="store_true", help="run every pair again, even those already done")
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
        seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.cmd == "bench":
        bench(slugs, seeds, args.jobs)
        return 0
    try:
        result = run_sweep(slugs, args.scale, seeds, scheduler=args.scheduler, workers=args.workers,
                           memory_limit=args.memory_limit, cell_timeout_s=args.cell_timeout, resume=not args.no_resume)
    except KeyboardInterrupt:
        print("\ninterrupted: finished runs are kept; run the same command to continue", file=sys.stderr)
        return 130
    return report(result)


if __name__ == "__main__":
    sys.exit(main())
