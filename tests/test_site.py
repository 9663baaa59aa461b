"""The generated parts of the site (repro.site, repro.bookext): card, claims table, headlines, scoreboard, status."""

from __future__ import annotations

import json

import pytest

from repro import pipeline, site, sweep
from repro.claims import Claims, Comparator, at_least, greater_than, is_true, tolerance
from repro.claims.judge import judge_page

TOL = tolerance(abs=0.05, why="a training end point")


def _record(seed: int = 0, post_hoc: bool = False) -> dict:
    c = Claims("sampled-softmax-bias", title="A <b>title</b>", authors=None, paper_url="https://example.org/p",
               scale="ci", seed=seed)
    c.test("gain", statement="the method gains", paper="p", criterion=greater_than(0.0), measured=0.3,
           ablation=Comparator("without X", -0.2, ingredient="X"), baselines=[Comparator("naive", -0.1)], tol=TOL)
    c.test("also", statement="a second test", paper="p", criterion=greater_than(0.0), measured=0.3,
           ablation=Comparator("without Y", 0.2, ingredient="Y"), baselines=[Comparator("naive", -0.1)], tol=TOL,
           post_hoc="added later" if post_hoc else None)
    c.illustrate("classic", statement="a classical bound", paper="p", criterion=at_least(1.0), measured=2.0,
                 why="a result of prior work")
    c.check("impl", statement="an identity", paper="p", criterion=is_true(), measured=True, kind="implementation")
    c.headline("h1", "the method gains", tests=["gain"])
    c.headline("h2", "on ImageNet", untestable="no ImageNet offline")
    rec = c.record()
    rec["runtime_s"] = 7.25
    return rec


def _write_sweep(tmp_path, record: dict, seeds=range(10), scale="ci"):
    runs = {s: sweep.run_of({**record, "seed": s}) for s in seeds}
    slug = record["slug"]
    rec = sweep.build_record(slug, scale, sweep.sweep_hash(slug, scale), runs,
                             frozen_commit="abc" if scale == "confirm" else None)
    path = sweep.record_path(slug, scale, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(sweep.dump_record(rec))


def test_card_shows_badge_tests_headlines_and_what_is_not_counted(tmp_path):
    record = _record()
    html = site.card_html(record, tmp_path)
    assert 'data-badge="awaiting a sweep"' in html, "no sweep: no test has a status"
    _write_sweep(tmp_path, record)
    html = site.card_html(record, tmp_path)
    assert 'data-badge="partial"' in html and "1 of 2 counted tests reproduced" in html and "1 not specific" in html
    assert 'data-tested="1" data-of="2"' in html
    assert "1 illustration, 1 implementation check" in html
    assert "&lt;b&gt;" in html, "titles are escaped"
    assert "make run PAPER=sampled-softmax-bias SCALE=full" in html and "7.2 s" in html or "7.3 s" in html
    assert "authors not found" in html and 'href="https://example.org/p"' in html


def test_claims_table_sets_method_ablation_and_baselines_side_by_side(tmp_path):
    record = _record()
    _write_sweep(tmp_path, record)
    table = site.claims_table_html("sampled-softmax-bias", record, tmp_path)
    row = table.split('data-claim="gain"')[1].split("</tr>")[0]
    detail = table.split('data-detail="gain"')[1].split("</tr>")[0]
    assert 'data-status="reproduced"' in table.split("<tr")[2]
    assert "10/10" in row and "without X" in detail and "(without X)" in detail and "naive" in detail
    also = table.split('data-claim="also"')[1].split("</tr>")[0]
    assert "not specific" in also
    assert "Illustrations" in table and "a result of prior work" in table
    assert "<details" in table and "a training end point" in table, "tolerance reasons are collapsed notes"
    heads = site.headlines_html("sampled-softmax-bias", record, tmp_path)
    assert "1 of 2 tested here" in heads and "no ImageNet offline" in heads and "reproduced, 10 of 10" in heads


def test_a_post_hoc_test_counts_only_once_confirmed(tmp_path):
    record = _record(post_hoc=True)
    _write_sweep(tmp_path, record)
    j = judge_page(record, sweep.sweeps_of("sampled-softmax-bias", tmp_path))
    assert j.badge == "reproduced" and [t.id for t in j.counted] == ["gain"]
    assert "awaiting its confirmation" in site.claims_table_html("sampled-softmax-bias", record, tmp_path)


def test_old_model_pages_show_their_claims_as_awaiting_comparators(tmp_path):
    c = Claims("sampled-softmax-bias", title=None, scale="ci", seed=0)
    c.check("old", statement="s", paper="p", criterion=at_least(1.0), measured=2.0, control=0.5, control_label="c")
    record = {**c.record(), "runtime_s": 1.0}
    html = site.card_html(record, tmp_path)
    assert "untested: awaiting comparators" in html and "none counted" in html
    assert "awaiting comparators" in site.claims_table_html("sampled-softmax-bias", record, tmp_path)


def test_scoreboard_lists_every_catalogued_paper_with_its_badge():
    html = site.scoreboard_html(lambda slug: f"papers/{slug}.html")
    for part in pipeline.load_catalog():
        for paper in part["papers"]:
            assert f'data-slug="{paper["slug"]}"' in html
    assert html.count('class="repro-part"') == len(pipeline.load_catalog()), "rows grouped by part"
    assert '<select class="repro-filter">' in html and 'data-sort="runtime"' in html
    glance = site.glance_html()
    assert "57</strong> pages" in glance and "counted tests reproduced" in glance
    assert " 1 pages " not in glance, "a count of one takes the singular"
    assert site._pages(1, "only illustrates", "only illustrate") == "1 page only illustrates"
    assert site._pages(0, "only illustrates", "only illustrate") == "0 pages only illustrate"
    for path in pipeline.CLAIMS.glob("*.json"):
        j = site.judgement(path.stem)
        assert f'data-slug="{path.stem}"' in html and f'data-badge="{j.badge}"' in html.split(
            f'data-slug="{path.stem}"')[1].split(">")[0]


def test_status_reports_every_notebook_and_its_sweeps():
    html = site.status_html(lambda slug: None)
    for slug in pipeline.all_slugs():
        assert slug in html
    assert "confirmation (seeds 10–19)" in html


def test_status_word_names_a_test_or_refuses():
    slug = next(p.stem for p in pipeline.CLAIMS.glob("*.json"))
    record = json.loads((pipeline.CLAIMS / f"{slug}.json").read_text())
    cid = record["claims"][0]["id"]
    assert site.status_word(slug, cid)
    with pytest.raises(KeyError):
        site.status_word(slug, "no-such-test")


def test_seed_counts_for_the_prose_come_from_the_sweep(tmp_path, monkeypatch):
    record = _record()
    _write_sweep(tmp_path, record)
    monkeypatch.setattr(site, "load_record", lambda slug: record)
    assert site.seed_count("sampled-softmax-bias", "gain:ablation:fail", tmp_path) == "10 of 10"
    assert site.seed_count("sampled-softmax-bias", "also:ablation:pass", tmp_path) == "10 of 10"
    assert site.seed_count("sampled-softmax-bias", "also:test:not-specific", tmp_path) == "10 of 10"
    assert site.seed_count("sampled-softmax-bias", "gain:baseline1:edge", tmp_path) == "0 of 10"
    with pytest.raises(KeyError):
        site.seed_count("sampled-softmax-bias", "gain:ablation", tmp_path)
