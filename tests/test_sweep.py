"""make sweep (repro.sweep): seeds, records and their schema, resuming, failures, staleness, what the book shows.

The tests that execute run a tiny notebook made for them (``tests/sweep_notebooks/tiny-sweep.py``: seconds,
no torch; seed 3 raises on purpose, one claim holds at even seeds only) on a ``LocalCluster`` of two
single-threaded processes, started once for the module. They are grouped for pytest-xdist
(``--dist loadgroup``), so the cluster and the sweep run once, on one worker.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from repro import bookext, pipeline, sweep
from repro.claims import Claims, Comparator, at_least, at_most, is_true

ROOT = pipeline.ROOT
TINY = ROOT / "tests" / "sweep_notebooks" / "tiny-sweep.py"
SLUG = "tiny-sweep"


# ---------- no execution ----------


def test_seeds_are_parsed_and_refused_plainly():
    assert sweep.parse_seeds("0-9") == list(range(10))
    assert sweep.parse_seeds("0,3,5-7") == [0, 3, 5, 6, 7]
    assert sweep.parse_seeds("4") == [4]
    for bad in ("", "a", "3-1", "-2", "1-"):
        with pytest.raises(ValueError):
            sweep.parse_seeds(bad)
    assert sweep.seeds_text([0, 1, 2, 5, 7, 8]) == "0–2, 5, 7–8"


def test_the_sweep_and_the_rules_are_not_inputs_of_the_pages():
    """Scheduling code and the judge do not change a page: editing them must not make every page stale."""
    names = {p.relative_to(ROOT).as_posix() for p in pipeline.input_files("sampled-softmax-bias")}
    assert not any("repro/sweep" in n for n in names)
    assert "src/repro/claims/record.py" in names and "src/repro/claims/judge.py" not in names
    assert "src/repro/site.py" not in names and "src/repro/claims/compare.py" not in names


def _record(seed: int) -> dict:
    """A page's claims record at one seed: a test that holds at every seed, one at two of three, a timing..."""
    c = Claims("demo", title=None, scale="ci", seed=seed)
    for cid, m in (("solid", 2.0 + seed), ("lucky", 0.5 if seed != 1 else -1.0)):
        c.test(cid, statement="s", paper="p", criterion=at_least(0.0), measured=m,
               ablation=Comparator("without it", -1.0, ingredient="it"), baselines=[Comparator("naive", -2.0)])
    c.check("old", statement="s", paper="p", criterion=at_least(1.0), measured=2.0, control=0.5, control_label="c")
    c.check("t", statement="s", paper="p", criterion=at_most(1.0), measured=0.1 * (seed + 1), volatile=True)
    c.check("impl", statement="s", paper="p", criterion=is_true(), measured=True, kind="implementation")
    rec = c.record()
    rec["runtime_s"] = 5.0 + seed
    return rec


def _runs():
    return {seed: sweep.run_of(_record(seed)) for seed in (0, 1, 2)}


def test_record_from_runs_keeps_raw_values_per_seed():
    record = sweep.build_record("demo", "ci", "abc", _runs(), failed={5: "ValueError: boom"})
    assert sweep.validate_record(record) == []
    assert record["seeds"] == [0, 1, 2] and record["failed"] == [{"seed": 5, "error": "ValueError: boom"}]
    by = {c["id"]: c for c in record["claims"]}
    assert list(by) == ["solid", "lucky", "old", "t", "impl"]
    assert by["solid"]["values"]["2"] == {"measured": 4.0, "ablation": -1.0, "baselines": [-2.0]}
    assert by["solid"]["labels"] == {"ablation": {"label": "without it", "ingredient": "it"}, "baselines": ["naive"]}
    assert by["old"]["values"]["0"] == {"measured": 2.0, "control": 0.5} and by["old"]["labels"] == {"control": "c"}
    assert by["t"]["role"] == "timing" and by["impl"]["role"] == "implementation"
    assert not any(k in json.dumps(record) for k in ('"status":', '"outcome":', '"holds":')), "no judgement in a record"
    # the record holds every run: resuming rebuilds the same record from it
    assert sweep.build_record("demo", "ci", "abc", sweep.runs_of_record(record))["claims"] == record["claims"]
    assert json.loads(sweep.dump_record(record)) == record


def test_the_judge_reads_a_sweep_record():
    from repro.claims.judge import aggregate, per_seed_values

    record = sweep.build_record("demo", "ci", "abc", _runs())
    claims = {c["id"]: c for c in _record(0)["claims"]}
    assert aggregate(claims["solid"], per_seed_values(record, "solid")).text() == "holds at 3 of 3"
    lucky = aggregate(claims["lucky"], per_seed_values(record, "lucky"))
    assert (lucky.holds, lucky.status) == (2, "seed-sensitive")
    assert aggregate(claims["old"], per_seed_values(record, "old")) is None, "old-model claims are not judged"


def test_schema_errors_are_found():
    good = sweep.build_record("demo", "ci", "abc", _runs())
    assert sweep.validate_record(good) == []
    bad = json.loads(json.dumps(good))
    del bad["claims"][0]["values"]
    assert any("missing 'values'" in e for e in sweep.validate_record(bad))
    bad = json.loads(json.dumps(good))
    bad["claims"][0]["values"]["7"] = {"measured": 1.0}
    assert any("outside" in e for e in sweep.validate_record(bad))
    bad = json.loads(json.dumps(good))
    bad["claims"][0]["values"]["0"]["status"] = "reproduced"
    assert any("not a dict of" in e for e in sweep.validate_record(bad))
    bad = json.loads(json.dumps(good))
    bad["seeds"] = "0-2"
    assert sweep.validate_record(bad)
    assert sweep.validate_record({"schema": 1})
    confirm = sweep.build_record("demo", "confirm", "abc", _runs())
    errors = sweep.validate_record(confirm)
    assert any("held-out seeds 10-19" in e for e in errors) and any("frozen_commit" in e for e in errors)
    runs = {s + 10: r for s, r in _runs().items()}
    assert sweep.validate_record(sweep.build_record("demo", "confirm", "abc", runs, frozen_commit="abc123")) == []


def test_the_build_fails_on_a_record_that_does_not_match_the_schema(tmp_path, monkeypatch):
    monkeypatch.setattr(sweep.records, "RECORDS", tmp_path)
    good = sweep.build_record("sampled-softmax-bias", "ci", "stale-hash", _runs())
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "sampled-softmax-bias.json").write_text(sweep.dump_record(good))
    bookext.check_sweep_records(None)  # stale is not an error: the status page says so
    bad = dict(good, claims=[{**good["claims"][0], "status": {}}])
    (tmp_path / "ci" / "sampled-softmax-bias.json").write_text(sweep.dump_record(bad))
    from sphinx.errors import ExtensionError

    with pytest.raises(ExtensionError, match="unknown field 'status'"):
        bookext.check_sweep_records(None)
    (tmp_path / "ci" / "sampled-softmax-bias.json").write_text(sweep.dump_record(dict(good, slug="other")))
    with pytest.raises(ExtensionError, match="not ci/sampled-softmax-bias"):
        bookext.check_sweep_records(None)


def test_a_confirmation_sweep_refuses_design_seeds_and_an_unfrozen_commit():
    with pytest.raises(ValueError, match="held-out"):
        sweep.run_sweep(["tiny-sweep"], "confirm", [3], frozen_commit="abc", client=object())
    with pytest.raises(ValueError, match="frozen"):
        sweep.run_sweep(["tiny-sweep"], "confirm", [12], client=object())
    with pytest.raises(ValueError, match="scale"):
        sweep.run_sweep(["tiny-sweep"], "medium", [0], client=object())


def test_the_frozen_input_hash_of_head_matches_the_current_one_for_a_committed_page():
    import subprocess

    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode:
        pytest.skip("not a git checkout")
    slug = "sampled-softmax-bias"
    files = [pipeline._rel(p) for p in pipeline.input_files(slug)]
    dirty = subprocess.run(["git", "status", "--porcelain", "--", *files], cwd=ROOT, capture_output=True, text=True)
    if dirty.stdout.strip():
        pytest.skip("the page's inputs have uncommitted changes")
    assert sweep.frozen_input_hash(slug, "HEAD") == sweep.sweep_hash(slug, "confirm")


# ---------- the committed records (CI runs no sweep; it checks what is committed) ----------


def test_committed_sweep_records_match_the_schema():
    assert sweep.schema_errors() == []


@pytest.mark.parametrize("scale", ["ci", "full"])
def test_every_page_has_a_committed_sweep_record(scale):
    if not any(sweep.records.RECORDS.glob(f"{scale}/*.json")):
        pytest.skip(f"no {scale} sweep record is committed yet (book/sweeps/{scale}/ is empty): this test checks "
                    f"every page once the first records are committed (make sweep SCALE={scale})")
    missing = [s for s in pipeline.all_slugs() if not sweep.record_path(s, scale).exists()]
    assert not missing, f"pages without a {scale} sweep record (make sweep SCALE={scale} PAPER=...): {missing}"
    if scale == "ci":
        short = [s for s in pipeline.all_slugs()
                 if not set(range(10)) <= set(json.loads(sweep.record_path(s, "ci").read_text())["seeds"])]
        assert not short, f"ci sweep records that do not cover seeds 0-9: {short}"


# ---------- executing the tiny notebook on a LocalCluster of two processes ----------

cluster_tests = pytest.mark.xdist_group("sweep-cluster")


@pytest.fixture(scope="module")
def client():
    from distributed import Client

    cluster = sweep.start_cluster(workers=2, memory_limit="2GiB")
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A copy of the tiny notebook, its output and records folders."""
    base = tmp_path_factory.mktemp("sweep")
    (base / "src").mkdir()
    shutil.copy(TINY, base / "src" / TINY.name)
    return {"sources": {SLUG: str(base / "src" / TINY.name)}, "out_dir": base / "out", "records_dir": base / "records"}


@pytest.fixture(scope="module")
def first(client, tiny):
    """Seeds 0, 1 and 3 (which raises) of the tiny notebook."""
    return sweep.run_sweep([SLUG], "ci", [0, 1, 3], client=client, show_progress=False, **tiny)


@cluster_tests
def test_two_seeds_give_a_record_with_the_schema_and_the_judged_statuses(first, tiny):
    from repro.claims.judge import aggregate, per_seed_values

    assert [f for f in first.failures if f[1] != 3] == [], "seeds 0 and 1 must run"
    record = json.loads(sweep.record_path(SLUG, "ci", tiny["records_dir"]).read_text())
    assert sweep.validate_record(record) == []
    assert record["seeds"] == [0, 1] and set(record["runtime_s"]) == {"0", "1"}
    assert record["input_hash"] == sweep.sweep_hash(SLUG, "ci", tiny["sources"][SLUG])
    by = {c["id"]: c for c in record["claims"]}
    assert list(by) == ["always", "even-seeds", "never", "baseline-passes", "classical", "counter", "wall"]
    status = {cid: aggregate(by[cid], per_seed_values(record, cid)).status
              for cid in ("always", "even-seeds", "never", "baseline-passes")}
    assert status == {"always": "reproduced", "even-seeds": "seed-sensitive", "never": "not reproduced",
                      "baseline-passes": "not specific"}
    assert (Path(tiny["out_dir"]) / "ci" / SLUG / "seed0.ipynb").exists(), "executed notebooks under the output folder"


@cluster_tests
def test_a_task_that_raises_is_recorded_and_the_others_complete(first, tiny, capsys):
    assert first.executed == 3 and first.skipped == 0
    assert first.failures == [(SLUG, 3, "RuntimeError: the tiny notebook fails at seed 3, on purpose")]
    record = json.loads(sweep.record_path(SLUG, "ci", tiny["records_dir"]).read_text())
    assert record["failed"] == [{"seed": 3, "error": "RuntimeError: the tiny notebook fails at seed 3, on purpose"}]
    assert sweep.report(first) == 1, "a sweep with a failure exits non-zero"
    out = capsys.readouterr().out
    assert "1 run(s) failed" in out and "tiny-sweep seed 3: RuntimeError" in out


@cluster_tests
def test_a_rerun_skips_the_tasks_already_done(first, client, tiny):
    path = sweep.record_path(SLUG, "ci", tiny["records_dir"])
    before = path.read_text()
    again = sweep.run_sweep([SLUG], "ci", [0, 1], client=client, show_progress=False, **tiny)
    assert (again.executed, again.skipped, again.failures) == (0, 2, [])
    assert path.read_text() == before
    # without the build folder (a fresh clone), the committed record alone says what is done
    shutil.rmtree(tiny["out_dir"])
    again = sweep.run_sweep([SLUG], "ci", [0, 1], client=client, show_progress=False, **tiny)
    assert (again.executed, again.skipped) == (0, 2) and path.read_text() == before


@cluster_tests
def test_a_changed_input_hash_makes_the_record_stale(first, tiny, tmp_path):
    source = tmp_path / TINY.name
    shutil.copy(tiny["sources"][SLUG], source)
    assert sweep.state(SLUG, "ci", tiny["records_dir"], str(source))[0] == "current"
    # prose cannot change an output: a new markdown cell keeps the record current
    source.write_text(source.read_text() + "\n# %% [markdown]\n# A verdict rewritten.\n")
    assert sweep.state(SLUG, "ci", tiny["records_dir"], str(source))[0] == "current"
    # code can: a new code cell makes it stale
    source.write_text(source.read_text() + "\n# %%\nx = 1\n")
    status, record = sweep.state(SLUG, "ci", tiny["records_dir"], str(source))
    assert status == "stale" and record["seeds"] == [0, 1]


def test_notebook_code_keeps_code_cells_only():
    text = "# ---\n# header\n# ---\n\n# %% [markdown]\n# prose\n\n# %% tags=[\"parameters\"]\nscale = 'ci'\n\n# %% [md]\n# more\n"
    assert pipeline.notebook_code(text) == "# ---\n# header\n# ---\n# %% tags=[\"parameters\"]\nscale = 'ci'\n"
