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


def test_the_sweep_module_is_not_an_input_of_the_pages():
    """Scheduling code does not change a page: editing it must not make every page stale."""
    names = {p.name for p in pipeline.input_files("sampled-softmax-bias")}
    assert "sweep.py" not in names and "claims.py" in names


def _claim(cid, status, control_status="not reproduced", measured=1.0, **kw):
    c = {"id": cid, "kind": "empirical", "criterion": ">= 1", "volatile": False, "post_hoc": False,
         "machine_sensitive": False, "status": status, "control_status": control_status, "measured": measured,
         "control": 0.0, **kw}
    return c


def _runs():
    """Three seeds of a page: one claim holds at every seed, one at two, a timing, an implementation check."""
    runs = {}
    for seed in (0, 1, 2):
        record = {"runtime_s": 5.0 + seed, "verdict": "reproduced" if seed != 1 else "partial", "claims": [
            _claim("solid", "reproduced", measured=2.0 + seed),
            _claim("lucky", "not reproduced" if seed == 1 else "reproduced", measured="< 1e-12" if seed else 0.5),
            _claim("idle", "reproduced", control_status="reproduced"),
            _claim("t", "reproduced", control_status=None, volatile=True, measured=0.1 * (seed + 1)),
            _claim("impl", "reproduced", control_status=None, kind="implementation", measured=True),
        ]}
        runs[seed] = sweep.run_of(record)
    return runs


def test_record_from_runs_counts_claims_per_seed():
    record = sweep.build_record("demo", "ci", "abc", _runs(), failed={5: "ValueError: boom"})
    assert sweep.validate_record(record) == []
    assert record["seeds"] == [0, 1, 2] and record["failed"] == [{"seed": 5, "error": "ValueError: boom"}]
    s = record["summary"]
    assert (s["seeds"], s["claims"], s["hold_every_seed"], s["stable"]) == (3, 2, 1, 1)
    assert s["verdict"] == "varies" and s["verdict_counts"] == {"reproduced": 2, "partial": 1}
    assert s["seed_sensitive"] == ["lucky"]
    by = {c["id"]: c for c in record["claims"]}
    assert set(by) == {"solid", "lucky", "idle", "impl"}, "timings are kept apart"
    assert [t["id"] for t in record["timings"]] == ["t"]
    assert by["solid"]["measured_stats"] == {"median": 3.0, "min": 2.0, "max": 4.0}
    assert by["lucky"]["measured_stats"]["bound"] is True
    assert (by["lucky"]["passes"], by["lucky"]["holds"]) == (2, 2)
    assert (by["idle"]["passes"], by["idle"]["holds"], by["idle"]["counted_seeds"]) == (3, 0, 0)
    assert by["idle"]["outcome"] == {"0": "uninformative", "1": "uninformative", "2": "uninformative"}
    assert by["impl"]["measured_stats"] == {"yes": 3, "of": 3}
    # the record holds every run: resuming rebuilds the same record from it
    assert sweep.build_record("demo", "ci", "abc", sweep.runs_of_record(record))["claims"] == record["claims"]
    assert json.loads(sweep.dump_record(record)) == record


def test_schema_errors_are_found():
    good = sweep.build_record("demo", "ci", "abc", _runs())
    assert sweep.validate_record(good) == []
    bad = json.loads(json.dumps(good))
    del bad["claims"][0]["holds"]
    assert any("missing 'holds'" in e for e in sweep.validate_record(bad))
    bad = json.loads(json.dumps(good))
    bad["claims"][0]["passes"] = 7
    assert any("passes 7" in e for e in sweep.validate_record(bad))
    bad = json.loads(json.dumps(good))
    bad["summary"]["hold_every_seed"] = 2
    assert any("hold_every_seed" in e for e in sweep.validate_record(bad))
    bad = json.loads(json.dumps(good))
    bad["seeds"] = "0-2"
    assert sweep.validate_record(bad)
    assert sweep.validate_record({"schema": 1})


def test_the_build_fails_on_a_record_that_does_not_match_the_schema(tmp_path, monkeypatch):
    monkeypatch.setattr(sweep, "RECORDS", tmp_path)
    good = sweep.build_record("sampled-softmax-bias", "ci", "stale-hash", _runs())
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "sampled-softmax-bias.json").write_text(sweep.dump_record(good))
    bookext.check_sweep_records(None)  # stale is not an error: the status page says so
    bad = dict(good, summary={**good["summary"], "stable": 99})
    (tmp_path / "ci" / "sampled-softmax-bias.json").write_text(sweep.dump_record(bad))
    from sphinx.errors import ExtensionError

    with pytest.raises(ExtensionError, match="stable"):
        bookext.check_sweep_records(None)
    (tmp_path / "ci" / "sampled-softmax-bias.json").write_text(sweep.dump_record(dict(good, slug="other")))
    with pytest.raises(ExtensionError, match="not ci/sampled-softmax-bias"):
        bookext.check_sweep_records(None)


def test_book_shows_no_sweep_yet_then_the_record_then_stale(tmp_path):
    slug = "sampled-softmax-bias"
    assert "no sweep yet" in sweep.card_rows_html(slug, tmp_path)
    assert "No sweep yet" in sweep.robustness_html(slug, tmp_path)
    assert "no sweep yet" in sweep.scoreboard_cells(slug, tmp_path)[0]
    for scale in ("ci", "full"):
        record = sweep.build_record(slug, scale, sweep.sweep_hash(slug, scale), _runs())
        if scale == "full":  # at full scale "lucky" fails at every seed: scale-sensitive
            for c in record["claims"]:
                if c["id"] == "lucky":
                    c["status"] = c["outcome"] = {k: "not reproduced" for k in c["status"]}
                    c["passes"] = c["holds"] = 0
            record = sweep.build_record(slug, scale, record["input_hash"], sweep.runs_of_record(record))
        sweep.record_path(slug, scale, tmp_path).parent.mkdir(parents=True, exist_ok=True)
        sweep.record_path(slug, scale, tmp_path).write_text(sweep.dump_record(record))
    card = sweep.card_rows_html(slug, tmp_path)
    assert "across 3 seeds at ci scale: 1 of 2 claims hold at every seed, 1/2 stable" in card
    assert 'data-seeds="3" data-hold="1" data-claims="2" data-stable="1"' in card and "stale" not in card
    table = sweep.robustness_html(slug, tmp_path)
    assert table.count("<tr data-claim=") == 3, "every claim but the implementation check (timings apart)"
    lucky = table.split('data-claim="lucky"')[1].split("</tr>")[0]
    assert "seed-sensitive" in lucky and "scale-sensitive" in lucky and "2/3" in lucky
    solid = table.split('data-claim="solid"')[1].split("</tr>")[0]
    assert "sensitive" not in solid and "<td>3 <small>(2 to 4)</small></td>" in solid, "median (min to max) over the ci seeds"
    stability, full, nums = sweep.scoreboard_cells(slug, tmp_path)
    assert "1/2 stable over 3 seeds" in stability and nums == {"hold": 1, "claims": 2, "swept": 1}
    assert "varies" in full and "3 seeds" in full
    # the inputs change: the record is stale, shown as such everywhere, never as current
    record = json.loads(sweep.record_path(slug, "ci", tmp_path).read_text())
    sweep.record_path(slug, "ci", tmp_path).write_text(sweep.dump_record(dict(record, input_hash="0" * 16)))
    assert sweep.state(slug, "ci", tmp_path)[0] == "stale"
    assert "stale" in sweep.card_rows_html(slug, tmp_path) and 'data-state="stale"' in sweep.card_rows_html(slug, tmp_path)
    assert "stale" in sweep.scoreboard_cells(slug, tmp_path)[0] and "stale" in sweep.robustness_html(slug, tmp_path)
    status = sweep.status_html(tmp_path)
    row = status.split(f'data-slug="{slug}"')[1].split("</tr>")[0]
    assert "stale" in row and "current" in row, "ci stale, full current"


# ---------- the committed records (CI runs no sweep; it checks what is committed) ----------


def test_committed_sweep_records_match_the_schema():
    assert sweep.schema_errors() == []


@pytest.mark.parametrize("scale", ["ci", "full"])
def test_every_page_has_a_committed_sweep_record(scale):
    if not any(sweep.RECORDS.glob(f"{scale}/*.json")):
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
def test_two_seeds_give_a_record_with_the_schema_and_counts(first, tiny):
    assert [f for f in first.failures if f[1] != 3] == [], "seeds 0 and 1 must run"
    record = json.loads(sweep.record_path(SLUG, "ci", tiny["records_dir"]).read_text())
    assert sweep.validate_record(record) == []
    assert record["seeds"] == [0, 1] and set(record["runtime_s"]) == {"0", "1"}
    assert record["input_hash"] == sweep.sweep_hash(SLUG, "ci", tiny["sources"][SLUG])
    assert record["summary"] == {"seeds": 2, "claims": 3, "hold_every_seed": 1, "stable": 2, "verdict": "partial",
                                 "verdict_counts": {"partial": 2}, "seed_sensitive": ["even-seeds"]}
    by = {c["id"]: c for c in record["claims"]}
    assert list(by) == ["always", "even-seeds", "never", "control-passes", "counter"]
    assert [t["id"] for t in record["timings"]] == ["wall"]
    assert (by["always"]["holds"], by["even-seeds"]["holds"], by["never"]["holds"]) == (2, 1, 0)
    assert by["control-passes"]["outcome"] == {"0": "uninformative", "1": "uninformative"}
    assert by["always"]["measured_stats"] == {"median": 1.5, "min": 1.0, "max": 2.0}
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
    assert sweep.notebook_code(text) == "# ---\n# header\n# ---\n# %% tags=[\"parameters\"]\nscale = 'ci'\n"


def test_scoreboard_and_card_read_the_records(tmp_path, monkeypatch):
    monkeypatch.setattr(sweep, "RECORDS", tmp_path)
    html = bookext.scoreboard_html(lambda slug: f"papers/{slug}.html")
    assert "seed stability (ci)" in html and "Across seeds: no sweep yet" in html
    record = json.loads((pipeline.CLAIMS / "sampled-softmax-bias.json").read_text())
    assert "no sweep yet" in bookext.card_html(record)
    slug = "sampled-softmax-bias"
    built = sweep.build_record(slug, "ci", sweep.sweep_hash(slug, "ci"), _runs())
    sweep.record_path(slug, "ci").parent.mkdir(parents=True)
    sweep.record_path(slug, "ci").write_text(sweep.dump_record(built))
    html = bookext.scoreboard_html(lambda slug: f"papers/{slug}.html")
    assert "<strong>1</strong> of 2 claims hold at every ci seed" in html and "on the 1 page with a ci sweep" in html
    assert 'data-seeds="3" data-stable="1" data-claims="2" data-hold="1">1/2 stable over 3 seeds' in html
    assert "across 3 seeds at ci scale: 1 of 2 claims hold at every seed" in bookext.card_html(record)
