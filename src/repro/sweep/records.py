"""Sweep records: what a sweep keeps of each run, their schema, and whether they are current.

One committed record per page and kind of sweep, ``book/sweeps/<scale>/<slug>.json``:

``ci``
    ci scale, the design seeds 0-9 (``make sweep``);
``full``
    full scale, seeds 0-2 or 0 (``make sweep SCALE=full``);
``confirm``
    ci scale, seeds 10-19, run on a commit whose page inputs are frozen (``make confirm``): it names that
    commit, and a post-hoc test moves a badge only through it.

A record holds raw measurements only, never a status: per check its static fields (role, kind, criterion and
rule, tolerance, comparators' labels) and, per seed, the values of the method and of each comparator.
:mod:`repro.claims.judge` judges them when the book is built. The record also holds the content hash of the
page's inputs (:func:`repro.pipeline.input_hash` with ``code_only=True``: prose edits keep it current); a record
made from other inputs is *stale* and shown as such.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
from pathlib import Path
from typing import Any

from repro import pipeline
from repro.claims.judge import values_of
from repro.claims.values import bound_or_value, round_sig

ROOT = pipeline.ROOT
# the committed records; REPRO_SWEEPS_DIR points the book at another folder (to preview a sweep before committing it)
RECORDS = Path(os.environ.get("REPRO_SWEEPS_DIR") or ROOT / "book" / "sweeps")
SCHEMA_VERSION = 2
SCALES = ("ci", "full", "confirm")
EXEC_SCALE = {"ci": "ci", "full": "full", "confirm": "ci"}
STATIC_FIELDS = ("id", "role", "kind", "criterion", "rule", "tolerance", "post_hoc", "setting", "labels")

# The record's schema: field -> type(s) (documentation and :func:`validate_record`).
SCHEMA = {
    "record": {"schema": int, "slug": str, "scale": str, "input_hash": str, "seeds": list, "failed": list,
               "runtime_s": dict, "claims": list, "env": list, "frozen_commit": (str, type(None))},
    "claim": {"id": str, "role": str, "kind": (str, type(None)), "criterion": str, "rule": dict,
              "tolerance": (dict, type(None)), "post_hoc": bool, "setting": str, "labels": dict, "values": dict},
}
VALUE_KEYS = {"measured", "ablation", "baselines", "wrong_inputs", "control", "custom_status"}


# ---------- seeds ----------


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


# ---------- hashes, paths, state ----------


HASH_CACHE = ROOT / "book" / "_build" / "input-hashes.json"
_HASHES: dict[str, dict[str, str]] = {}


def _tree_fingerprint(source: str | os.PathLike | None) -> str:
    """A digest of the sizes and modification times of every file a page's input hash can read."""
    import hashlib

    paths = [*sorted(pipeline.PACKAGE.rglob("*.py")), *sorted(pipeline.NOTEBOOKS.glob("*.py")), *pipeline.PINS]
    if source is not None:
        paths.append(Path(source))
    stats = [(str(p), st.st_mtime_ns, st.st_size) for p in paths for st in (p.stat(),)]
    return hashlib.sha256(json.dumps(stats).encode()).hexdigest()[:16]


def cached_input_hash(slug: str, params: dict | None = None, source: str | os.PathLike | None = None,
                      code_only: bool = False) -> str:
    """:func:`repro.pipeline.input_hash`, remembered (in this process and in ``book/_build/input-hashes.json``)
    while no file it could read has changed.

    Building the site asks for every page's hashes (card, scoreboard, status page); computing each page's import
    closure every time made an unchanged build spend seconds hashing. Any change to a source, a shared module,
    a notebook or the pins changes the fingerprint, and every hash is computed again.
    """
    fingerprint = _tree_fingerprint(source)
    key = json.dumps([slug, params, str(source), code_only], sort_keys=True)
    if fingerprint not in _HASHES:
        stored: dict = {}
        if source is None and HASH_CACHE.exists():
            try:
                stored = json.loads(HASH_CACHE.read_text())
            except (json.JSONDecodeError, OSError):
                stored = {}
        _HASHES.clear()
        _HASHES[fingerprint] = stored.get(fingerprint, {}) if isinstance(stored, dict) else {}
    cache = _HASHES[fingerprint]
    if key not in cache:
        cache[key] = pipeline.input_hash(slug, params, Path(source) if source is not None else None, code_only)
        if source is None and HASH_CACHE.parent.is_dir():
            try:
                HASH_CACHE.write_text(json.dumps({fingerprint: cache}))
            except OSError:
                pass
    return cache[key]


def sweep_hash(slug: str, scale: str, source: str | os.PathLike | None = None) -> str:
    """Content hash of what can change a page's outputs at ``scale`` (its code, not its prose); seeds apart."""
    return cached_input_hash(slug, {"scale": EXEC_SCALE[scale]}, source, code_only=True)


def records_root(records_dir: Path | None = None) -> Path:
    """``records_dir``, or the committed records' folder (:data:`RECORDS`, read when called)."""
    return Path(records_dir) if records_dir is not None else RECORDS


def record_path(slug: str, scale: str, records_dir: Path | None = None) -> Path:
    return records_root(records_dir) / scale / f"{slug}.json"


def state(slug: str, scale: str, records_dir: Path | None = None, source: str | None = None) -> tuple[str, dict | None]:
    """``("none", None)``, ``("current", record)`` or ``("stale", record)`` (inputs changed since the sweep)."""
    path = record_path(slug, scale, records_dir)
    if not path.exists():
        return "none", None
    record = json.loads(path.read_text())
    return ("current" if record.get("input_hash") == sweep_hash(slug, scale, source) else "stale"), record


def sweeps_of(slug: str, records_dir: Path | None = None) -> dict[str, tuple[str, dict | None]]:
    """``{scale: (state, record)}`` for the three kinds of sweep (what :func:`repro.claims.judge.judge_page` takes)."""
    return {scale: state(slug, scale, records_dir) for scale in SCALES}


def frozen_input_hash(slug: str, commit: str, scale: str = "confirm") -> str | None:
    """The sweep hash of the page's inputs as committed at ``commit`` (``None`` where git cannot tell)."""
    import hashlib

    h = hashlib.sha256()
    src = pipeline.NOTEBOOKS / f"{slug}.py"
    for path in pipeline.input_files(slug, src):
        rel = pipeline._rel(path)
        try:
            content = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=ROOT, capture_output=True,
                                     check=True).stdout
        except (subprocess.CalledProcessError, FileNotFoundError):
            return None
        if path.resolve() == src.resolve():
            content = pipeline.notebook_code(content.decode()).encode()
        h.update(rel.encode() + b"\0" + content + b"\0")
    h.update(json.dumps({"scale": EXEC_SCALE[scale]}, sort_keys=True).encode())
    return h.hexdigest()[:16]


# ---------- from claims records to a sweep record ----------


def _labels(c: dict) -> dict:
    out: dict[str, Any] = {}
    if c.get("ablation"):
        out["ablation"] = {"label": c["ablation"]["label"], "ingredient": c["ablation"].get("ingredient")}
    for key in ("baselines", "wrong_inputs"):
        if c.get(key):
            out[key] = [b["label"] for b in c[key]]
    if c.get("legacy_control"):
        out["control"] = c["legacy_control"].get("label")
    return out


def run_of(record: dict) -> dict:
    """What a sweep keeps of one run's claims record: runtime, and per check its static fields and raw values."""
    claims = []
    for c in record["claims"]:
        static = {"id": c["id"], "role": c.get("role", "test"), "kind": c.get("kind"),
                  "criterion": c["criterion"], "rule": c.get("rule") or {}, "tolerance": c.get("tolerance"),
                  "post_hoc": bool(c.get("post_hoc")), "setting": c.get("setting") or "", "labels": _labels(c)}
        values = values_of(c)
        claims.append({**static, "values": values})
    return {"runtime_s": record.get("runtime_s"), "claims": claims}


def runs_of_record(sweep: dict) -> dict[int, dict]:
    """The per-seed runs a sweep record holds (inverse of :func:`build_record`, for resuming)."""
    runs: dict[int, dict] = {}
    for seed in sweep["seeds"]:
        key = str(seed)
        claims = [{**{k: c[k] for k in STATIC_FIELDS}, "values": c["values"][key]}
                  for c in sweep["claims"] if key in c["values"]]
        runs[seed] = {"runtime_s": sweep["runtime_s"].get(key), "claims": claims}
    return runs


def build_record(slug: str, scale: str, input_hash: str, runs: dict[int, dict],
                 failed: dict[int, str] | None = None, envs: list[dict] | None = None,
                 frozen_commit: str | None = None) -> dict:
    """The sweep record of one page from its runs (``{seed: run_of(claims record)}``).

    A check's static fields are taken from its latest seed's run (they are the same at every seed of current
    inputs); its values are kept per seed.
    """
    seeds = sorted(runs)
    order: list[str] = []
    static: dict[str, dict] = {}
    values: dict[str, dict[str, dict]] = {}
    for s in seeds:
        for c in runs[s]["claims"]:
            if c["id"] not in static:
                order.append(c["id"])
            static[c["id"]] = {k: c[k] for k in STATIC_FIELDS}
            values.setdefault(c["id"], {})[str(s)] = c["values"]
    distinct_envs = []
    for env in envs or []:
        if env and env not in distinct_envs:
            distinct_envs.append(env)
    return {
        "schema": SCHEMA_VERSION, "slug": slug, "scale": scale, "input_hash": input_hash, "seeds": seeds,
        "failed": [{"seed": s, "error": e} for s, e in sorted((failed or {}).items()) if s not in runs],
        "runtime_s": {str(s): runs[s]["runtime_s"] for s in seeds},
        "claims": [{**static[cid], "values": values[cid]} for cid in order],
        "env": distinct_envs, "frozen_commit": frozen_commit,
    }


def dump_record(record: dict) -> str:
    """The record's JSON text: one line per field (a check's seeds on one line each), so diffs stay readable."""
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    lines = ["{"]
    for i, (key, value) in enumerate(record.items()):
        comma = "," if i < len(record) - 1 else ""
        if key in ("claims", "env") and value:
            lines.append(f" {one(key)}: [")
            for j, item in enumerate(value):
                fields = []
                for k, v in item.items():
                    if k == "values" and v:
                        inner = ",\n".join(f"    {one(s)}: {one(x)}" for s, x in v.items())
                        fields.append(f'   "values": {{\n{inner}\n   }}')
                    else:
                        fields.append(f"   {one(k)}: {one(v)}")
                lines.append("  {\n" + ",\n".join(fields) + "\n  }" + ("," if j < len(value) - 1 else ""))
            lines.append(" ]" + comma)
        else:
            lines.append(f" {one(key)}: {one(value)}{comma}")
    return "\n".join(lines) + "\n}\n"


def value_stats(values: list) -> dict | None:
    """Median, min and max of numeric values (a bound ``"< B"`` counts as ``B``, flagged); count of yes for booleans."""
    if values and all(isinstance(v, bool) for v in values):
        return {"yes": sum(values), "of": len(values)}
    nums, bounded = [], False
    for v in values:
        if isinstance(v, bool):
            return None
        parsed = bound_or_value(v)
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


# ---------- schema ----------


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
    """What is wrong with a sweep record (empty list: it matches :data:`SCHEMA`)."""
    errors = _check_fields(record, SCHEMA["record"], "record")
    if errors:
        return errors
    if record["schema"] != SCHEMA_VERSION:
        return [f"schema {record['schema']} (this code reads {SCHEMA_VERSION})"]
    if record["scale"] not in SCALES:
        errors.append(f"scale {record['scale']!r}")
    seeds = record["seeds"]
    keys = {str(s) for s in seeds}
    if not seeds or seeds != sorted(set(seeds)) or not all(isinstance(s, int) and s >= 0 for s in seeds):
        errors.append(f"seeds {seeds!r}: a sorted list of distinct non-negative ints")
    if record["scale"] == "confirm":
        if not set(seeds) <= set(range(10, 20)):
            errors.append(f"a confirmation sweep runs the held-out seeds 10-19 only; got {seeds_text(seeds)}")
        if not record["frozen_commit"]:
            errors.append("a confirmation sweep names the commit its inputs were frozen in (frozen_commit)")
    for f in record["failed"]:
        if not (isinstance(f, dict) and set(f) == {"seed", "error"} and isinstance(f["error"], str)):
            errors.append(f"failed entry {f!r}: needs seed and error")
    if set(record["runtime_s"]) != keys:
        errors.append(f"runtime_s keys {sorted(record['runtime_s'])} are not the seeds {sorted(keys)}")
    for i, c in enumerate(record["claims"]):
        where = f"claim {c.get('id', i) if isinstance(c, dict) else i}"
        errs = _check_fields(c, SCHEMA["claim"], where)
        if errs:
            errors += errs
            continue
        if not set(c["values"]) <= keys:
            errors.append(f"{where}: values at seeds outside {sorted(keys)}")
        for seed, v in c["values"].items():
            if not (isinstance(v, dict) and set(v) <= VALUE_KEYS):
                errors.append(f"{where}: values at seed {seed} are not a dict of {sorted(VALUE_KEYS)}")
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
