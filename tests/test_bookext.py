"""The generated parts of the site: card, scoreboard, status."""

import json

from repro import bookext, pipeline

RECORD = {
    "slug": "demo", "title": "A <b>title</b>", "authors": None, "paper_url": "https://example.org/p",
    "scale": "ci", "seed": 0, "runtime_s": 7.25, "verdict": "partial",
    "claims": [
        {"id": "a", "status": "reproduced", "control_status": "not reproduced"},
        {"id": "b", "status": "not reproduced", "control_status": "not reproduced"},
        {"id": "c", "status": "reproduced", "control_status": "reproduced"},
        {"id": "d", "status": "reproduced", "kind": "implementation"},
    ],
}


def test_card_shows_the_record():
    html = bookext.card_html(RECORD)
    assert "1 of 2 claims reproduced, each against a control that fails" in html
    assert "repro-partial" in html and ">partial<" in html
    assert "1 uninformative" in html and "1 check of our own implementation" in html
    assert "&lt;b&gt;" in html, "titles are escaped"
    assert "make run PAPER=demo SCALE=full" in html and "7.2 s" in html or "7.3 s" in html
    assert "authors not found" in html and 'href="https://example.org/p"' in html


def test_scoreboard_lists_every_catalogued_paper():
    html = bookext.scoreboard_html(lambda slug: None)
    for part in pipeline.load_catalog():
        for paper in part["papers"]:
            assert f'data-slug="{paper["slug"]}"' in html
    assert "of 57 papers have a page" in html


def test_scoreboard_links_existing_pages_with_their_counts():
    slugs = [p.stem for p in pipeline.CLAIMS.glob("*.json")]
    html = bookext.scoreboard_html(lambda slug: f"papers/{slug}.html")
    for slug in slugs:
        record = json.loads((pipeline.CLAIMS / f"{slug}.json").read_text())
        ok, total = bookext.counts(record)
        if any(p["slug"] == slug for part in pipeline.load_catalog() for p in part["papers"]):
            assert f'href="papers/{slug}.html"' in html
            assert f'data-ok="{ok}" data-total="{total}"' in html


def test_status_reports_every_notebook():
    html = bookext.status_html(lambda slug: None)
    for slug in pipeline.all_slugs():
        assert slug in html


def test_card_mentions_uncounted_timings():
    record = dict(RECORD, claims=[*RECORD["claims"], {"id": "t", "status": "not reproduced", "volatile": True}])
    html = bookext.card_html(record)
    assert "1 of 2 claims reproduced" in html and "plus 1 wall-clock timing on the page" in html
    assert "wall-clock" not in bookext.card_html(RECORD)


def test_card_and_scoreboard_count_post_hoc_claims_apart():
    record = dict(RECORD, slug="sampled-softmax-bias", claims=[
        *RECORD["claims"], {"id": "e", "status": "reproduced", "control_status": "not reproduced", "post_hoc": True}])
    html = bookext.card_html(record)
    assert "1 of 2 pre-registered claims reproduced; 1 added or changed after the first run (1 reproduced)" in html
