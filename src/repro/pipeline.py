"""Execute the book's notebooks with papermill (what ``make book``, ``make test`` and ``make run`` call).

Pipeline of one notebook:

1. jupytext reads ``notebooks/<slug>.py`` and sets a ``python3`` kernelspec;
2. papermill executes it with the parameters ``scale`` and ``seed``, an explicit
   per-cell timeout, one thread (``OMP_NUM_THREADS=1``) and the claims record
   directed to a chosen folder (``REPRO_CLAIMS_DIR``);
3. volatile metadata (papermill's and nbclient's timestamps and durations) is
   stripped, the injected-parameters cell is tagged ``remove-cell`` so the page
   does not show it, and the content hash of the inputs is stored in
   ``metadata.repro``.

Execution is incremental: a notebook runs again only when its input hash
changes (its source, the shared part of ``src/repro`` except the render-only
Sphinx extension, the kernel modules it imports, the pinned dependencies, its
parameters). Notebooks run two at a time,
each pinned to one thread; a failure does not stop the others.

Command line (``python -m repro.pipeline --help``)::

    execute [SLUG ...] [--force]       ci-scale pages into book/papers, records into book/claims
    check [SLUG ...]                   execute into build/check and compare with the claims records
    run SLUG [--scale full] [--seed N] one run beside the committed pages (book/_build/runs)
    toc                                regenerate _toc.yml from book/catalog.yml and the pages present
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
PAGES = ROOT / "book" / "papers"
CLAIMS = ROOT / "book" / "claims"
CATALOG = ROOT / "book" / "catalog.yml"
TOC = ROOT / "_toc.yml"
CI_PARAMS = {"scale": "ci", "seed": 0}
# The package and the executor: a page imports (a closure of) the one and is run by the other.
PACKAGE = ROOT / "src" / "repro"
EXECUTOR = PACKAGE / "pipeline.py"
PINS = (ROOT / "pyproject.toml", ROOT / "requirements-lock.txt")
CELL_TIMEOUT_S = {"ci": 300, "full": 3600}
VOLATILE_NB_KEYS = ("papermill", "widgets")
VOLATILE_CELL_KEYS = ("papermill", "execution", "ExecuteTime")
RUN_ENV = {
    # one thread per notebook: two notebooks run side by side on two cores
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    # glibc malloc: serve the many few-MB numpy/torch temporaries from the heap and keep freed memory,
    # instead of mapping fresh pages from the OS for each one. Measured on deltazero-tree-metrics:
    # 11.0 s instead of 14.9 s (system time 0.4 s instead of 3.0 s); inside a Jupyter kernel the
    # saving is larger. Ignored where the C library is not glibc; it changes no computed value.
    "MALLOC_MMAP_THRESHOLD_": str(32 * 2**20),
    "MALLOC_TRIM_THRESHOLD_": str(4 * 2**30),
}


def all_slugs() -> list[str]:
    """Slugs of every notebook source, sorted."""
    return sorted(p.stem for p in NOTEBOOKS.glob("*.py"))


def module_name(slug: str) -> str:
    """Kernel module of a slug: ``repro.papers.<slug with '-' -> '_'>``."""
    return slug.replace("-", "_")


def _module_file(name: str) -> Path | None:
    """The file of module ``repro.x.y`` (``src/repro/x/y.py`` or ``.../y/__init__.py``), or None."""
    parts = name.split(".")
    if parts[0] != "repro":
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _parse_python(text: str) -> ast.Module:
    """``ast.parse`` that tolerates notebook magics (``%...``, ``!...`` lines are blanked first)."""
    try:
        return ast.parse(text)
    except SyntaxError:
        return ast.parse(re.sub(r"(?m)^[ \t]*[%!].*$", "", text))


def _repro_imports(text: str, module: str | None = None) -> set[str]:
    """Names of the ``repro`` modules a Python source imports (absolute or, inside the package, relative).

    ``from repro.papers import x`` yields ``repro.papers`` and, where ``x`` is a module, ``repro.papers.x``.
    ``module``: the dotted name of the file being read, to resolve its relative imports.
    """
    found: set[str] = set()
    for node in ast.walk(_parse_python(text)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "repro")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if module is None:
                    continue
                is_package = (_module_file(module) or Path()).name == "__init__.py"
                anchor = module.split(".")[: len(module.split(".")) - node.level + is_package]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "repro":
                continue
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names if _module_file(f"{base}.{a.name}"))
    return found


def repro_closure(text: str) -> list[Path]:
    """Files of every ``repro`` module that importing ``text``'s imports executes, transitively.

    Importing ``repro.a.b`` runs ``repro/__init__.py`` and ``repro/a/__init__.py`` too, so parent packages
    count. Only static imports are seen (an ``importlib`` call by computed name is not).
    """
    todo = sorted(_repro_imports(text))
    seen: dict[str, Path] = {}
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            sub = ".".join(parts[:i])
            path = _module_file(sub)
            if path is None or sub in seen:
                continue
            seen[sub] = path
            todo.extend(_repro_imports(path.read_text(), sub))
    return sorted(set(seen.values()))


def input_files(slug: str, source: Path | None = None) -> list[Path]:
    """Every file whose content determines a page: its source, the code it imports, the executor, the pins.

    The code is the import closure of the source within the ``repro`` package (:func:`repro_closure`):
    the kernel module, the shared modules it and the notebook import, their parent packages. Shared code
    a page does not import (another paper's kernels, the sweep, the book's Sphinx extension) does not
    count, so adding or editing a shared module makes stale only the pages that use it. The executor
    (this module: parameters, environment) and the pins (every package version) count for every page.
    ``source``: the jupytext source if not ``notebooks/<slug>.py`` (the sweep's tests use a tiny one).
    """
    src = Path(source) if source is not None else NOTEBOOKS / f"{slug}.py"
    return sorted({src, *repro_closure(src.read_text()), EXECUTOR, *PINS})


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


_MARKDOWN_CELL = re.compile(r"# %% \[(?:markdown|md)\]")


def notebook_code(text: str) -> str:
    """A jupytext percent source without its markdown cells: the part that can change an output.

    Blank lines between cells are layout (jupytext drops them too), so each kept cell is right-stripped.
    """
    cells = re.split(r"(?m)^(?=# %%)", text)
    return "".join(c.rstrip() + "\n" for c in cells if not _MARKDOWN_CELL.match(c))


def input_hash(slug: str, params: dict | None = None, source: Path | None = None, code_only: bool = False) -> str:
    """SHA-256 over the input files (path and content) and the parameters.

    ``code_only``: count only the code cells of the notebook source (:func:`notebook_code`). The sweep records
    use it, so that prose edits (a verdict rewritten to agree with the record, say) keep them current while any
    change that could move a number makes them stale. The executed page's own hash counts the prose too.
    """
    src = Path(source) if source is not None else NOTEBOOKS / f"{slug}.py"
    h = hashlib.sha256()
    for path in input_files(slug, src):
        content = path.read_bytes()
        if code_only and path.resolve() == src.resolve():
            content = notebook_code(content.decode()).encode()
        h.update(_rel(path).encode() + b"\0" + content + b"\0")
    h.update(json.dumps(params or CI_PARAMS, sort_keys=True).encode())
    return h.hexdigest()[:16]


def page_metadata(slug: str) -> dict:
    """``metadata.repro`` of the executed page ``book/papers/<slug>.ipynb`` (empty if there is no page)."""
    page = PAGES / f"{slug}.ipynb"
    if not page.exists():
        return {}
    return json.loads(page.read_text()).get("metadata", {}).get("repro", {})


def is_up_to_date(slug: str) -> bool:
    """Whether ``book/papers/<slug>.ipynb`` was executed from the current inputs."""
    return page_metadata(slug).get("input_hash") == input_hash(slug)


def clean_notebook(nb: dict, repro_meta: dict) -> dict:
    """Strip volatile metadata, hide the injected-parameters cell, record ``repro_meta``."""
    for key in VOLATILE_NB_KEYS:
        nb.get("metadata", {}).pop(key, None)
    nb["metadata"]["repro"] = repro_meta
    for cell in nb["cells"]:
        meta = cell.setdefault("metadata", {})
        for key in VOLATILE_CELL_KEYS:
            meta.pop(key, None)
        tags = meta.get("tags", [])
        if "injected-parameters" in tags and "remove-cell" not in tags:
            meta["tags"] = [*tags, "remove-cell"]
    for index, cell in enumerate(nb["cells"]):
        cell["id"] = f"cell-{index:03d}"  # deterministic ids: quiet diffs
    return nb


SETUP_CALL = "setup_notebook("


def fold_setup_cell(nb) -> None:
    """Tag the imports-and-presets cell (the code cell that calls ``setup_notebook(``) ``hide-input``.

    The page then opens with its title, claim and card; the reader unfolds the imports on demand.
    """
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and SETUP_CALL in cell["source"]:
            tags = cell.setdefault("metadata", {}).setdefault("tags", [])
            if "hide-input" not in tags:
                tags.append("hide-input")


def to_ipynb(slug: str, path: Path, source: Path | None = None) -> None:
    """Convert the jupytext source of ``slug`` (or ``source``) to an ``.ipynb`` at ``path`` with a python3 kernelspec."""
    import jupytext
    import nbformat

    nb = jupytext.read(Path(source) if source is not None else NOTEBOOKS / f"{slug}.py")
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata.pop("jupytext", None)
    fold_setup_cell(nb)
    nbformat.write(nb, path)


KEY_PACKAGES = ("torch", "numpy", "scipy", "scikit-learn", "matplotlib", "pot", "networkx", "papermill")


def package_versions(names: tuple[str, ...] = KEY_PACKAGES) -> dict[str, str]:
    """Installed versions of ``names`` ("not installed" where missing)."""
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in names:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "not installed"
    return out


NUMERICS_VARS = ("ATEN_CPU_CAPABILITY", "OPENBLAS_CORETYPE", "MKL_CBWR")


def numerics_setting() -> dict[str, str]:
    """The variables that steer the floating-point code paths of torch and BLAS ("" where unset).

    ``make test`` re-executes the pages under a setting other than the one that
    wrote them (the Makefile's ``NUMERICS``), standing in for a second machine.
    """
    return {name: os.environ.get(name, "") for name in NUMERICS_VARS}


def run_environment() -> dict:
    """Python, platform, numerics setting and key package versions of this run (stored in the executed notebook)."""
    import platform

    return {"python": platform.python_version(), "platform": f"{platform.system()} {platform.machine()}",
            "numerics": numerics_setting(), "packages": package_versions()}


def quiet_kernel_manager() -> type:
    """The kernel manager papermill starts each notebook's kernel with: Unix sockets, no SIGINT at shutdown.

    It removes the two lines a kernel otherwise writes into the logs of ``make book`` and ``make test``:

    - ``Kernel is running over TCP without encryption`` (ipykernel, at start): the kernel only talks to
      this process on this machine, so it listens on Unix sockets (IPC transport) instead of TCP ports.
      Their path is absolute (the kernel runs in ``notebooks/``, this process elsewhere) and unique per
      kernel (two notebooks run side by side); jupyter_client removes the socket files at shutdown.
    - ``KeyboardInterrupt caught in kernel`` (ipykernel, at shutdown): jupyter_client sends SIGINT before
      every shutdown request, and papermill shuts the kernel down as soon as the reply to its last
      ``kernel_info`` request arrives, so the signal can land while the kernel still finishes that
      handler. A kernel whose notebook has run needs no interrupt. A busy one (a cell timed out) still
      stops: the shutdown request goes over the control channel, then SIGTERM and SIGKILL follow after
      ``shutdown_wait_time``, as for any kernel.
    """
    import uuid

    from jupyter_client import AsyncKernelManager
    from traitlets import default

    class QuietKernelManager(AsyncKernelManager):
        @default("transport")
        def _default_transport(self) -> str:
            return "ipc"

        @default("ip")
        def _default_ip(self) -> str:
            if self.transport != "ipc":
                return super()._ip_default()
            return os.path.join(tempfile.gettempdir(), f"repro-kernel-{uuid.uuid4().hex[:12]}")

        async def _async_interrupt_kernel(self) -> None:
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

    return QuietKernelManager


@dataclass
class Outcome:
    """What one execution returns: ``record`` is the claims record it wrote, ``meta`` the notebook's ``metadata.repro``."""

    slug: str
    ok: bool
    seconds: float
    error: str = ""
    record: dict | None = None
    meta: dict | None = None


PROGRESS_ENGINE = "repro-progress"


def _register_progress_engine() -> str:
    """A papermill engine that prints which code cell is running (``make run``, a live run in a terminal).

    Only the terminal sees it: the executed notebook is the same as with papermill's default engine.
    """
    from papermill.engines import NBClientEngine, papermill_engines

    class ProgressEngine(NBClientEngine):
        @classmethod
        def execute_managed_notebook(cls, nb_man, kernel_name, **kwargs):  # noqa: ANN001, ANN206
            code = [i for i, c in enumerate(nb_man.nb.cells) if c.cell_type == "code"]
            start, t0 = nb_man.cell_start, time.perf_counter()

            def cell_start(cell, cell_index=None, **kw):  # noqa: ANN001, ANN202
                if cell_index in code:
                    lines = [ln.strip() for ln in cell.source.splitlines()]
                    first = next((ln for ln in lines if ln and not ln.startswith("#")), "")
                    print(f"  [{time.perf_counter() - t0:7.1f} s] cell {code.index(cell_index) + 1}/{len(code)}: "
                          f"{first[:72]}", flush=True)
                return start(cell, cell_index, **kw)

            nb_man.cell_start = cell_start
            return super().execute_managed_notebook(nb_man, kernel_name, **kwargs)

    papermill_engines.register(PROGRESS_ENGINE, ProgressEngine)
    return PROGRESS_ENGINE


def execute_one(
    slug: str,
    out: str,
    claims_dir: str,
    scale: str,
    seed: int,
    *,
    source: str | None = None,
    progress: bool = False,
    cell_timeout_s: int | None = None,
) -> Outcome:
    """Execute one notebook with papermill (runs in a worker process). Never raises.

    The one task function of ``make book``, ``make test``, ``make run`` and ``make sweep``: it writes the
    executed notebook to ``out`` and the claims record to ``claims_dir/<slug>.json``, and returns both the
    record and the notebook's ``metadata.repro`` (input hash, parameters, environment) in the
    :class:`Outcome`, so that a caller on another machine gets them without a shared disk.

    ``source``: the jupytext source if not ``notebooks/<slug>.py``. ``progress``: print which cell is
    running and pass the notebook's stderr (its progress bars at full scale) to this process's stderr.
    ``cell_timeout_s``: per-cell timeout (default :data:`CELL_TIMEOUT_S` of the scale).
    """
    os.environ.update(RUN_ENV)
    # absolute: the kernel runs in notebooks/, a relative folder would land there
    os.environ["REPRO_CLAIMS_DIR"] = str(Path(claims_dir).resolve())
    out_path = Path(out).resolve()
    out_path.parent.mkdir(parents=True, exist_ok=True)
    t0, started = time.perf_counter(), time.time()
    try:
        import papermill

        from repro.runtime import check_params

        check_params(scale, seed)
        params = {"scale": scale, "seed": seed}
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / f"{slug}.ipynb"
            to_ipynb(slug, src, source)
            tmp_out = Path(tmp) / "executed.ipynb"
            live = {"engine_name": _register_progress_engine(), "stderr_file": sys.stderr} if progress else {}
            try:
                papermill.execute_notebook(
                    str(src),
                    str(tmp_out),
                    parameters=params,
                    kernel_name="python3",
                    execution_timeout=cell_timeout_s or CELL_TIMEOUT_S[scale],
                    progress_bar=False,
                    log_output=False,
                    cwd=str(Path(source).resolve().parent if source is not None else NOTEBOOKS),
                    kernel_manager_class=quiet_kernel_manager(),
                    **live,
                )
            except Exception as exc:  # noqa: BLE001 - reported, not raised
                failed = out_path.parent / "_failed" / out_path.name
                failed.parent.mkdir(parents=True, exist_ok=True)
                if tmp_out.exists():
                    failed.write_text(tmp_out.read_text())
                ename = getattr(exc, "ename", type(exc).__name__)
                evalue = str(getattr(exc, "evalue", exc)).strip().splitlines()
                return Outcome(slug, False, time.perf_counter() - t0, f"{ename}: {evalue[0] if evalue else ''}")
            nb = json.loads(tmp_out.read_text())
        duration = nb["metadata"].get("papermill", {}).get("duration")
        record_path = Path(claims_dir) / f"{slug}.json"
        # this run's record only (not one an earlier run left there)
        fresh = record_path.exists() and record_path.stat().st_mtime >= started - 1
        record = json.loads(record_path.read_text()) if fresh else None
        if duration is not None and record is not None:
            # the page's runtime is the whole notebook's (kernel start and imports included)
            record["runtime_s"] = round(float(duration), 1)
            record_path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        meta = {"input_hash": input_hash(slug, params, source), "scale": scale, "seed": seed, "env": run_environment()}
        out_path.write_text(json.dumps(clean_notebook(nb, meta), indent=1, ensure_ascii=False) + "\n")
        return Outcome(slug, True, time.perf_counter() - t0, record=record, meta=meta)
    except Exception as exc:  # noqa: BLE001
        return Outcome(slug, False, time.perf_counter() - t0, f"{type(exc).__name__}: {exc}")


def execute_many(jobs: list[tuple[str, Path, Path, str, int]], workers: int = 2) -> list[Outcome]:
    """Run ``execute_one`` on every job, ``workers`` at a time, printing one line per notebook."""
    outcomes: list[Outcome] = []
    if not jobs:
        return outcomes
    import multiprocessing as mp

    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=mp.get_context("spawn")) as pool:
        futures = [pool.submit(execute_one, s, str(o), str(c), sc, sd) for s, o, c, sc, sd in jobs]
        for fut in as_completed(futures):
            res = fut.result()
            outcomes.append(res)
            status = "ok" if res.ok else f"FAILED  {res.error}"
            print(f"  {res.slug:<40} {res.seconds:6.1f} s  {status}", flush=True)
    return sorted(outcomes, key=lambda o: o.slug)


def report_failures(outcomes: list[Outcome]) -> int:
    failed = [o for o in outcomes if not o.ok]
    if failed:
        print(f"\n{len(failed)} notebook(s) failed:")
        for o in failed:
            print(f"  {o.slug}: {o.error}")
        return 1
    return 0


def cmd_execute(slugs: list[str], force: bool, workers: int) -> int:
    slugs = slugs or all_slugs()
    _check_known(slugs)
    todo = [s for s in slugs if force or not is_up_to_date(s)]
    print(f"Executing {len(todo)} of {len(slugs)} notebook(s) at ci scale ({len(slugs) - len(todo)} up to date)")
    t0 = time.perf_counter()
    jobs = [(s, PAGES / f"{s}.ipynb", CLAIMS, "ci", 0) for s in todo]
    outcomes = execute_many(jobs, workers)
    if todo:
        print(f"Executed in {time.perf_counter() - t0:.1f} s")
    write_toc()
    return report_failures(outcomes)


def cmd_check(workers: int, out_dir: Path, only: list[str] | None = None) -> int:
    """Execute every notebook into ``out_dir`` and compare claims with the committed records.

    Ids, roles, criteria, flags and comparators must be equal; every value must agree within its check's
    declared tolerance, and statuses where both values lie outside the band around the threshold
    (:func:`repro.claims.compare.compare_records`).
    """
    from repro.claims.compare import compare_records

    slugs = only or all_slugs()
    _check_known(slugs)
    setting = ", ".join(f"{k}={v or '(unset)'}" for k, v in numerics_setting().items())
    print(f"Executing {len(slugs)} notebook(s) at ci scale into {out_dir} (numerics: {setting})")
    t0 = time.perf_counter()
    claims_dir = out_dir / "claims"
    outcomes = execute_many([(s, out_dir / f"{s}.ipynb", claims_dir, "ci", 0) for s in slugs], workers)
    print(f"Executed in {time.perf_counter() - t0:.1f} s")
    status = report_failures(outcomes)
    mismatches = []
    for o in outcomes:
        if not o.ok:
            continue
        committed = CLAIMS / f"{o.slug}.json"
        fresh = claims_dir / f"{o.slug}.json"
        if not committed.exists():
            mismatches.append(f"{o.slug}: no committed record book/claims/{o.slug}.json (run make book)")
        elif not fresh.exists():
            mismatches.append(f"{o.slug}: the notebook wrote no claims record (claims.save() missing?)")
        else:
            diffs = compare_records(json.loads(committed.read_text()), json.loads(fresh.read_text()))
            if diffs:
                mismatches.append(f"{o.slug}: claims differ from the committed record:\n      " + "\n      ".join(diffs))
    for slug in slugs:
        if not (PAGES / f"{slug}.ipynb").exists():
            mismatches.append(f"{slug}: no executed page book/papers/{slug}.ipynb (run make book)")
    if mismatches:
        print("\nClaims records that do not match:")
        for m in mismatches:
            print(f"  {m}")
        status = 1
    else:
        print("All claims records match the committed ones (values within their tolerances, no status flipped).")
    return status


def cmd_run(slug: str, scale: str, seed: int) -> int:
    from repro.claims.judge import seed_outcome
    from repro.runtime import check_params

    _check_known([slug])
    check_params(scale, seed)
    runs = ROOT / "book" / "_build" / "runs"
    out = runs / f"{slug}-{scale}-seed{seed}.ipynb"
    print(f"Executing {slug} at scale={scale!r}, seed={seed} -> {out.relative_to(ROOT)}")
    outcome = execute_one(slug, str(out), str(runs / "claims"), scale, seed, progress=True)
    print(f"  {slug:<40} {outcome.seconds:6.1f} s  {'ok' if outcome.ok else 'FAILED  ' + outcome.error}")
    if outcome.ok:
        record = json.loads((runs / "claims" / f"{slug}.json").read_text())
        for c in record["claims"]:
            print(f"    {c['id']:<36} {seed_outcome(c):<22} measured {c['measured']}")
        print(f"  outcomes at this seed only; the page's verdict comes from its ci sweep (make sweep PAPER={slug})")
    return 0 if outcome.ok else 1


def _check_known(slugs: list[str]) -> None:
    known = set(all_slugs())
    unknown = [s for s in slugs if s not in known]
    if unknown:
        raise SystemExit(f"unknown paper(s) {unknown}; notebooks/ has: {', '.join(sorted(known))}")


def load_catalog() -> list[dict]:
    """The book's parts and papers (``book/catalog.yml``), in reading order."""
    import yaml

    return yaml.safe_load(CATALOG.read_text())["parts"]


def toc_text() -> str:
    """``_toc.yml``: landing page, then one part per catalog part with at least one page, then the status page."""
    lines = [
        "# Generated by `python -m repro.pipeline toc` from book/catalog.yml and the pages in book/papers.",
        "format: jb-book",
        "root: book/index",
        "parts:",
    ]
    for part in load_catalog():
        present = [p["slug"] for p in part["papers"] if (PAGES / f"{p['slug']}.ipynb").exists()]
        if not present:
            continue
        lines += [f"  - caption: {part['name']}", "    chapters:"]
        lines += [f"      - file: book/papers/{slug}" for slug in present]
    listed = {p["slug"] for part in load_catalog() for p in part["papers"]}
    unlisted = sorted(p.stem for p in PAGES.glob("*.ipynb") if p.stem not in listed)
    if unlisted:
        lines += ["  - caption: Not in the catalogue", "    chapters:"]
        lines += [f"      - file: book/papers/{slug}" for slug in unlisted]
    lines += ["  - caption: About this book", "    chapters:", "      - file: book/status"]
    return "\n".join(lines) + "\n"


def write_toc() -> None:
    text = toc_text()
    if not TOC.exists() or TOC.read_text() != text:
        TOC.write_text(text)
        print("Wrote _toc.yml")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.pipeline", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_exec = sub.add_parser("execute", help="execute notebooks whose inputs changed into book/papers")
    p_exec.add_argument("slugs", nargs="*")
    p_exec.add_argument("--force", action="store_true", help="re-execute even if up to date")
    p_exec.add_argument("--jobs", type=int, default=2)
    p_check = sub.add_parser("check", help="execute all into a scratch folder and compare claims records")
    p_check.add_argument("slugs", nargs="*", help="only these pages (default: all)")
    p_check.add_argument("--jobs", type=int, default=2)
    p_check.add_argument("--out", type=Path, default=ROOT / "build" / "check")
    p_run = sub.add_parser("run", help="execute one notebook with chosen parameters (not over the pages)")
    p_run.add_argument("slug")
    p_run.add_argument("--scale", default="ci")
    p_run.add_argument("--seed", type=int, default=0)
    sub.add_parser("toc", help="regenerate _toc.yml")
    args = parser.parse_args(argv)
    if args.cmd == "execute":
        return cmd_execute(args.slugs, args.force, args.jobs)
    if args.cmd == "check":
        return cmd_check(args.jobs, args.out, args.slugs)
    if args.cmd == "run":
        try:
            return cmd_run(args.slug, args.scale, args.seed)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    write_toc()
    return 0


if __name__ == "__main__":
    sys.exit(main())
