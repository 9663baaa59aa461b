"""The notebook pipeline and the book's structure: every page is executed, current and well-formed."""

import ast
import json
import re
from pathlib import Path

import jupytext
import pytest

from repro import pipeline
from repro.claims import Tolerance
from repro.claims.judge import is_legacy, role_of
from repro.claims.record import KINDS, ROLES

ROOT = pipeline.ROOT
SLUGS = pipeline.all_slugs()
SHARED_README = ROOT.parent / "shared" / "papers" / "README.md"


def test_repro_imports_are_found_absolute_relative_and_through_magics():
    src = ("%matplotlib inline\nfrom repro.papers import tao_linear_leaves_smw as K\n"
           "import repro.papers.sampled_softmax_bias\nfrom repro.claims import Claims\nimport numpy\n")
    assert pipeline._repro_imports(src) == {
        "repro.papers", "repro.papers.tao_linear_leaves_smw", "repro.papers.sampled_softmax_bias", "repro.claims"}
    assert pipeline._repro_imports("from ..stats import loglog_slope\nfrom . import other\n",
                                   "repro.papers.x") == {"repro.stats", "repro.papers"}


def test_the_closure_follows_imports_through_the_package(tmp_path):
    files = {p.relative_to(ROOT).as_posix() for p in pipeline.repro_closure("from repro.claims import Claims\n")}
    # repro/__init__ imports runtime, the recorder imports runtime, runtime's setup_notebook imports plotting;
    # the rules (judge, compare) are not imported by a notebook, so they are no page's input
    assert files == {"src/repro/__init__.py", "src/repro/claims/__init__.py", "src/repro/claims/record.py",
                     "src/repro/claims/values.py", "src/repro/runtime.py", "src/repro/plotting.py"}


def test_clean_notebook_strips_volatile_metadata():
    nb = {
        "metadata": {"papermill": {"duration": 1.0}, "kernelspec": {}},
        "cells": [
            {"cell_type": "code", "metadata": {"papermill": {}, "execution": {}, "tags": ["injected-parameters"]}},
            {"cell_type": "markdown", "metadata": {"ExecuteTime": {}}, "id": "random"},
        ],
    }
    out = pipeline.clean_notebook(nb, {"input_hash": "abc"})
    assert "papermill" not in out["metadata"] and out["metadata"]["repro"] == {"input_hash": "abc"}
    assert out["cells"][0]["metadata"] == {"tags": ["injected-parameters", "remove-cell"]}
    assert out["cells"][1]["metadata"] == {} and out["cells"][1]["id"] == "cell-001"


def test_toc_is_generated_and_current():
    assert (ROOT / "_toc.yml").read_text() == pipeline.toc_text()


def test_catalog_lists_the_57_papers_in_parts():
    parts = pipeline.load_catalog()
    slugs = [p["slug"] for part in parts for p in part["papers"]]
    assert len(slugs) == len(set(slugs)) == 57
    if SHARED_README.exists():
        readme = SHARED_README.read_text()
        for part in parts:
            row = next(line for line in readme.splitlines() if line.startswith(f"| {part['name']} |"))
            assert [p["slug"] for p in part["papers"]] == [s.strip() for s in row.split("|")[2].split(",")]


def test_unknown_paper_is_refused():
    with pytest.raises(SystemExit, match="unknown paper"):
        pipeline._check_known(["no-such-paper"])


def test_bad_scale_in_run_is_refused(capsys):
    if not SLUGS:
        pytest.skip("no notebooks")
    assert pipeline.main(["run", SLUGS[0], "--scale", "medium"]) == 2
    assert "'ci', 'full'" in capsys.readouterr().err


@pytest.mark.parametrize("slug", SLUGS)
def test_notebook_source_follows_the_pattern(slug):
    nb = jupytext.read(ROOT / "notebooks" / f"{slug}.py")
    cells = nb.cells
    assert cells[0].cell_type == "markdown" and cells[0].source.startswith("# "), "first cell: '# Title'"
    params = [c for c in cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1, "exactly one cell tagged 'parameters'"
    tree = ast.parse(params[0].source)
    names = {t.id for node in tree.body for t in node.targets}
    assert names == {"scale", "seed"}, "the parameters cell holds exactly scale and seed"
    assert all(isinstance(node.value, ast.Constant) for node in tree.body), "parameters must be literals"
    checked = [c for c in cells if "nbval-check-output" in c.metadata.get("tags", [])]
    assert len(checked) == 1 and "claims.save()" in checked[0].source and "claims.table()" in checked[0].source
    assert re.search(r"Claims\(\s*[\"']" + re.escape(slug) + r"[\"']", nb_source(slug)), "Claims(...) must carry the slug"
    text = nb_source(slug)
    assert re.search(r"deviations", text, re.I), "the page must list its deviations from the paper"
    assert "## Claims" in text and re.search(r"^# ## Verdict", text, re.M), "claims and verdict sections"
    figures = text.count("plt.show()")
    assert figures >= 2, f"at least two figures, each plotting cell ending with plt.show(): found {figures}"
    module = pipeline.module_name(slug)
    assert (ROOT / "src" / "repro" / "papers" / f"{module}.py").exists(), "kernel module missing"
    assert (ROOT / "tests" / "papers" / f"test_{module}.py").exists(), "kernel tests missing"


def nb_source(slug: str) -> str:
    return (ROOT / "notebooks" / f"{slug}.py").read_text()


@pytest.mark.parametrize("slug", SLUGS)
def test_committed_page_is_current(slug):
    page = pipeline.PAGES / f"{slug}.ipynb"
    assert page.exists(), f"book/papers/{slug}.ipynb missing: run make book"
    assert pipeline.is_up_to_date(slug), f"book/papers/{slug}.ipynb is stale: run make book"
    nb = json.loads(page.read_text())
    assert "papermill" not in nb["metadata"]
    for cell in nb["cells"]:
        assert not {"papermill", "execution"} & set(cell.get("metadata", {}))
        if cell["cell_type"] == "code":
            assert not any(o.get("output_type") == "error" for o in cell.get("outputs", []))


@pytest.mark.parametrize("slug", SLUGS)
def test_claims_record_is_well_formed(slug):
    path = pipeline.CLAIMS / f"{slug}.json"
    assert path.exists(), f"book/claims/{slug}.json missing: run make book"
    record = json.loads(path.read_text())
    assert record.get("schema") == 2, "re-execute with the current recorder (make book)"
    assert record["slug"] == slug and record["scale"] == "ci" and record["seed"] == 0
    assert isinstance(record["runtime_s"], float | int) and record["runtime_s"] > 0, "no runtime: run make book"
    assert record["claims"], "a page without checks: record each with claims.test / illustrate / check"
    assert "verdict" not in record, "a record holds measurements, never a verdict"
    for c in record["claims"]:
        assert c["role"] in ROLES and c["statement"] and c["paper"] and c["criterion"]
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", c["id"]), f"check id {c['id']!r}: no spaces"


@pytest.mark.parametrize("slug", SLUGS)
def test_glued_values_are_plain_python(slug):
    """A value glued as a NumPy scalar is stored as ``np.float64(...)``, which ``{glue:text}`` with a format spec
    cannot parse (a build warning, so a failed build): glue ``float(x)`` / ``int(x)``."""
    nb = json.loads((pipeline.PAGES / f"{slug}.ipynb").read_text())
    bad = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            text = out.get("data", {}).get("application/papermill.record/text/plain", "")
            text = "".join(text) if isinstance(text, list) else text
            if re.match(r"np\.\w+\(", text):
                bad.append(f"{out.get('metadata', {}).get('scrapbook', {}).get('name')} = {text}")
    assert not bad, f"glue plain Python numbers, not NumPy scalars: {bad}"


CI_RUNTIME_CAP_S = 20.0  # CONTRIBUTING: a page needs about 10 s at ci scale, 20 s at most (one thread, comparators included)


@pytest.mark.parametrize("slug", SLUGS)
def test_committed_ci_runtime_is_under_the_cap(slug):
    """The runtime a committed record holds (measured by ``make book`` on a quiet machine) stays under the cap.

    Reads the committed record only: nothing is timed here, so a slow or loaded machine cannot fail it.
    """
    record = json.loads((pipeline.CLAIMS / f"{slug}.json").read_text())
    assert record["runtime_s"] <= CI_RUNTIME_CAP_S, (
        f"{slug} took {record['runtime_s']} s at ci scale (cap {CI_RUNTIME_CAP_S} s): make the ci preset cheaper, or "
        "re-execute it on a quiet machine if the time was measured under load")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_test_has_its_comparators_and_declared_flags(slug):
    """Every test has an ablation (with its ingredient) and a naive baseline, or, for a theorem, the independent
    computation and a wrong input; the old model's single control is allowed only on a page not yet converted."""
    record = json.loads((pipeline.CLAIMS / f"{slug}.json").read_text())
    converted = not any(is_legacy(c) for c in record["claims"])
    for c in record["claims"]:
        where = f"{slug}: {c['id']}"
        if role_of(c) == "test" and not is_legacy(c):
            assert c["kind"] in KINDS
            if c["kind"] == "empirical":
                assert c["ablation"] and c["ablation"].get("ingredient"), f"{where}: a test without its ablation"
                assert c["baselines"], f"{where}: a test without a naive baseline"
            else:
                assert c["independent"] and c["wrong_inputs"], f"{where}: a theorem test without its refuter"
            if c.get("post_hoc"):
                assert c.get("post_hoc_why", "").strip(), f"{where}: post hoc without its reason"
        if converted:
            assert not c.get("legacy_control"), f"{where}: mixes the old model's control with the new tests"
        if role_of(c) == "illustration":
            assert c.get("why", "").strip(), f"{where}: an illustration says why it is not a test"
        assert isinstance(c["tolerance"].get("bound"), bool), f"{where}: tolerance without its bound rule"
        tol = Tolerance(**c["tolerance"])  # a wide tolerance without its reason raises here
        assert tol.bounds_small_values == c["tolerance"]["bound"]
        values = [c.get("measured")] + [x["value"] for k in ("baselines", "wrong_inputs") for x in c.get(k) or []]
        values += [x["value"] for x in (c.get("ablation"), c.get("legacy_control")) if x]
        for x in values:
            if isinstance(x, float) and role_of(c) != "timing" and tol.bounds_small_values:
                assert abs(x) >= tol.abs, f"{where}: a value {x!r} is noise below its tolerance: record the bound"


@pytest.mark.parametrize("slug", SLUGS)
def test_checked_cell_shows_measurements_and_no_status(slug):
    """The nbval-checked cell shows raw values only: statuses are the book's, decided at build time."""
    page = pipeline.PAGES / f"{slug}.ipynb"
    assert page.exists(), f"book/papers/{slug}.ipynb missing: run make book"
    nb = json.loads(page.read_text())
    checked = [c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert len(checked) == 1
    text = "".join(
        "".join(o["data"]["text/plain"]) for o in checked[0]["outputs"] if "text/plain" in o.get("data", {})
    )
    assert "measurements only" in text or "illustration" in text, f"{slug}: the checked cell is not the recorder's"
    for word in ("reproduced", "uninformative", "FAILS", "not specific"):
        assert word not in text, f"{slug}: the checked cell shows a status ({word!r})"


@pytest.mark.parametrize("slug", SLUGS)
def test_page_shows_no_warnings(slug):
    """A reader never sees a library's warning on a page: fix its cause, or filter it where it is expected."""
    page = pipeline.PAGES / f"{slug}.ipynb"
    assert page.exists(), f"book/papers/{slug}.ipynb missing: run make book"
    for cell in json.loads(page.read_text())["cells"]:
        for o in cell.get("outputs", []):
            text = "".join(o.get("text", "")) if o.get("output_type") == "stream" else ""
            assert "Warning:" not in text, f"{slug}: a cell prints a warning: {text.strip().splitlines()[0][:160]}"


def test_no_orphan_pages_or_records():
    assert {p.stem for p in pipeline.PAGES.glob("*.ipynb")} <= set(SLUGS)
    assert {p.stem for p in pipeline.CLAIMS.glob("*.json")} <= set(SLUGS)


def test_input_files_cover_source_imported_code_executor_and_pins():
    slug = "tao-linear-leaves-smw"
    names = {p.relative_to(ROOT).as_posix() for p in pipeline.input_files(slug)}
    assert f"notebooks/{slug}.py" in names
    assert "src/repro/claims/record.py" in names and "src/repro/runtime.py" in names
    assert "src/repro/claims/judge.py" not in names, "the rules are no page's input: changing them re-judges, never re-runs"
    assert "src/repro/papers/tao_linear_leaves_smw.py" in names and "src/repro/papers/__init__.py" in names
    assert "src/repro/pipeline.py" in names, "the executor counts for every page"
    assert "src/repro/papers/sampled_softmax_bias.py" not in names, "another paper's kernels do not count"
    assert "src/repro/bookext.py" not in names, "the render-only extension does not count"
    assert "src/repro/sweep.py" not in names and "src/repro/scaffold.py" not in names
    assert {"pyproject.toml", "requirements-lock.txt"} <= names
    assert pipeline.input_hash(slug) != pipeline.input_hash(slug, {"scale": "full", "seed": 0})


def test_a_shared_module_counts_only_for_the_pages_that_import_it():
    users = {s for s in SLUGS
             if ROOT / "src/repro/timing.py" in pipeline.input_files(s)}
    importers = {s for s in SLUGS if "repro.timing" in (pipeline.NOTEBOOKS / f"{s}.py").read_text()
                 or "timing" in (ROOT / "src/repro/papers" / f"{pipeline.module_name(s)}.py").read_text()}
    assert users and users <= importers and users != set(SLUGS)


def test_the_setup_cell_is_folded_on_the_page(tmp_path):
    """to_ipynb tags the cell that calls setup_notebook( hide-input, and only that one, once."""
    out = tmp_path / "page.ipynb"
    pipeline.to_ipynb("tao-linear-leaves-smw", out)
    cells = json.loads(out.read_text())["cells"]
    folded = [c for c in cells if "hide-input" in c["metadata"].get("tags", [])]
    assert len(folded) == 1 and "setup_notebook(" in "".join(folded[0]["source"])
    nb = jupytext.reads("# %% tags=['hide-input']\nP = setup_notebook(scale, seed)\n\n# %%\nx = 1\n", fmt="py:percent")
    pipeline.fold_setup_cell(nb)
    assert [c.metadata.get("tags", []) for c in nb.cells] == [["hide-input"], []]


def test_kernels_listen_on_unix_sockets_and_are_not_interrupted_at_shutdown():
    """No TCP-without-encryption warning, no KeyboardInterrupt at shutdown (see quiet_kernel_manager)."""
    import asyncio
    import tempfile

    km = pipeline.quiet_kernel_manager()(kernel_name="python3")
    assert km.transport == "ipc"
    assert Path(km.ip).is_absolute() and Path(km.ip).parent == Path(tempfile.gettempdir())
    assert km.ip != pipeline.quiet_kernel_manager()(kernel_name="python3").ip, "two kernels side by side"
    km.shutting_down = True
    asyncio.run(km._async_interrupt_kernel())  # no kernel, yet no error: nothing is sent while shutting down
    km.shutting_down = False
    with pytest.raises(RuntimeError, match="No kernel is running"):
        asyncio.run(km._async_interrupt_kernel())


@pytest.mark.parametrize("slug", SLUGS)
def test_no_scaffold_placeholders_are_left(slug):
    """``make new`` marks what the author still has to write ``TODO(scaffold)``: a finished page has none."""
    from repro.scaffold import MARK, page_files

    left = [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:90]}"
            for path in page_files(slug) if path.exists()
            for n, line in enumerate(path.read_text().splitlines(), 1) if MARK in line]
    assert not left, f"{slug}: {len(left)} placeholder(s) of make new still to fill:\n" + "\n".join(left)
