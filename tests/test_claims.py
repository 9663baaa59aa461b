import json

import pytest

from repro.claims import (
    Claims,
    Criterion,
    at_least,
    at_most,
    between,
    comparable,
    format_measured,
    greater_than,
    is_true,
    less_than,
    round_sig,
    verdict_of,
)


def make():
    return Claims("demo", title="Demo", scale="ci", seed=0)


def test_criteria_statuses():
    assert at_least(1.5)(2.0) == "reproduced"
    assert at_least(1.5, partial=1.0)(1.2) == "partial"
    assert at_least(1.5, partial=1.0)(0.5) == "not reproduced"
    assert at_most(0.1)(0.2) == "not reproduced"
    assert between(0.35, 0.7)(0.5) == "reproduced" and between(0.35, 0.7)(0.8) == "not reproduced"
    assert greater_than(0)(0) == "not reproduced" and less_than(1)(0.5) == "reproduced"
    assert is_true()(True) == "reproduced" and is_true()(False) == "not reproduced"
    with pytest.raises(TypeError):
        is_true()(1.0)
    with pytest.raises(TypeError):
        at_least(1)("many")
    with pytest.raises(ValueError):
        Criterion("bad", lambda m: "maybe")(1)


def test_failed_claim_is_recorded_not_raised():
    c = make()
    r = c.check("x", statement="s", paper="p", criterion=at_least(10), measured=1.0)
    assert r.status == "not reproduced" and c.verdict == "not reproduced"


def test_nan_never_passes():
    c = make()
    assert c.check("x", statement="s", paper="p", criterion=at_most(1), measured=float("nan")).status == "not reproduced"


def test_verdicts():
    assert verdict_of(["reproduced", "reproduced"]) == "reproduced"
    assert verdict_of(["reproduced", "not reproduced"]) == "partial"
    assert verdict_of(["partial"]) == "partial"
    assert verdict_of(["not reproduced"]) == "not reproduced"
    assert verdict_of([]) == "not reproduced"


def test_duplicate_ids_are_refused():
    c = make()
    c.check("x", statement="s", paper="p", criterion=is_true(), measured=True)
    with pytest.raises(ValueError, match="twice"):
        c.check("x", statement="s", paper="p", criterion=is_true(), measured=True)


def test_table_rounds_and_keeps_timings_out_of_the_verdict():
    c = make()
    c.check("slope", statement="s", paper="p", criterion=between(0.35, 0.7), measured=0.523456)
    c.check("speed", statement="s", paper="p", criterion=at_least(1.5), measured=1.2345, volatile=True)
    text = repr(c.table())
    assert "0.523" in text and "1.23" not in text and "not reproduced" not in text and "see timings" in text
    assert "verdict: reproduced (1 of 1 claims reproduced)" in text
    assert c.verdict == "reproduced"
    assert "<table" in c.table()._repr_html_() and "1.23" not in c.table()._repr_html_()
    timings = repr(c.timings())
    assert "1.23" in timings and "not reproduced" in timings and "slope" not in timings


def test_record_schema_and_save(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CLAIMS_DIR", str(tmp_path))
    c = Claims("demo", title=None, scale="ci", seed=2, paper_url="https://example.org")
    c.check("a", statement="s", paper="p", criterion=at_least(0), measured=1)
    path = c.save()
    record = json.loads(path.read_text())
    assert path == tmp_path / "demo.json"
    assert set(record) == {"slug", "title", "authors", "paper_url", "scale", "seed", "runtime_s", "verdict", "claims"}
    assert set(record["claims"][0]) == {"id", "statement", "paper", "criterion", "measured", "status", "volatile"}
    assert record["seed"] == 2 and record["verdict"] == "reproduced"


def test_comparable_ignores_runtime_and_volatile_values():
    c = make()
    c.check("a", statement="s", paper="p", criterion=at_least(0), measured=0.123456)
    c.check("t", statement="s", paper="p", criterion=at_least(1), measured=3.0, volatile=True)
    r1 = c.record()
    r2 = json.loads(json.dumps(r1))
    r2["runtime_s"] = 99.0
    r2["claims"][1]["measured"] = 0.5
    r2["claims"][1]["status"] = "not reproduced"
    assert comparable(r1) == comparable(r2)
    r2["claims"][0]["measured"] = 0.124
    assert comparable(r1) != comparable(r2)


def test_rounding_helpers():
    assert round_sig(0.000123456) == 0.0001235
    assert format_measured(True) == "yes" and format_measured(3) == "3" and format_measured(0.5234) == "0.523"


def test_bad_params_are_refused():
    with pytest.raises(ValueError):
        Claims("demo", title=None, scale="medium", seed=0)
