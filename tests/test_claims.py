import json

import pytest

from repro.claims import (
    Claims,
    Criterion,
    at_least,
    at_most,
    between,
    compare_records,
    format_measured,
    headline,
    summary,
    tolerance,
    greater_than,
    is_true,
    less_than,
    round_sig,
    verdict_of,
)
from repro.claims import count_reproduced


def make():
    return Claims("demo", title="Demo", scale="ci", seed=0)


CTRL = {"control": 0.0, "control_label": "a null model"}


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
    r = c.check("x", statement="s", paper="p", criterion=at_least(10), measured=1.0, **CTRL)
    assert r.status == "not reproduced" and c.verdict == "not reproduced"


def test_nan_never_passes():
    c = make()
    r = c.check("x", statement="s", paper="p", criterion=at_most(1), measured=float("nan"), control=5.0,
                control_label="c")
    assert r.status == "not reproduced"


def test_verdicts():
    assert verdict_of(["reproduced", "reproduced"]) == "reproduced"
    assert verdict_of(["reproduced", "not reproduced"]) == "partial"
    assert verdict_of(["partial"]) == "partial"
    assert verdict_of(["not reproduced"]) == "not reproduced"
    assert verdict_of([]) == "inconclusive"


def test_duplicate_ids_are_refused():
    c = make()
    c.check("x", statement="s", paper="p", criterion=is_true(), measured=True, control=False, control_label="c")
    with pytest.raises(ValueError, match="twice"):
        c.check("x", statement="s", paper="p", criterion=is_true(), measured=True, control=False, control_label="c")


def test_table_rounds_and_keeps_timings_out_of_the_verdict():
    c = make()
    c.check("slope", statement="s", paper="p", criterion=between(0.35, 0.7), measured=0.523456, control=0.9,
            control_label="c")
    c.check("speed", statement="s", paper="p", criterion=at_least(1.5), measured=1.2345, volatile=True)
    text = repr(c.table())
    assert "0.523" in text and "1.23" not in text and "see timings" in text
    assert "speed" in text and text.count("not reproduced") == 1, "only the control's status, never the timing's"
    assert "verdict: reproduced (1 of 1 claims reproduced, each against a control that fails)" in text
    assert c.verdict == "reproduced"
    assert "<table" in c.table()._repr_html_() and "1.23" not in c.table()._repr_html_()
    timings = repr(c.timings())
    assert "1.23" in timings and "not reproduced" in timings and "slope" not in timings


def test_record_schema_and_save(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CLAIMS_DIR", str(tmp_path))
    c = Claims("demo", title=None, scale="ci", seed=2, paper_url="https://example.org")
    c.check("a", statement="s", paper="p", criterion=at_least(0), measured=1, control=-1, control_label="c")
    path = c.save()
    record = json.loads(path.read_text())
    assert path == tmp_path / "demo.json"
    assert set(record) == {"slug", "title", "authors", "paper_url", "scale", "seed", "runtime_s", "verdict", "claims"}
    assert set(record["claims"][0]) == {
        "id", "kind", "statement", "paper", "criterion", "measured", "status", "control", "control_label",
        "control_status", "outcome", "counted", "tolerance", "post_hoc", "post_hoc_why", "machine_sensitive",
        "machine_sensitive_why", "volatile",
    }
    assert record["seed"] == 2 and record["verdict"] == "reproduced"
    assert record["claims"][0]["control_status"] == "not reproduced" and record["claims"][0]["counted"] is True
    assert record["claims"][0]["tolerance"] == {"rel": 1e-6, "abs": 1e-12, "why": "", "bound": True}


def test_counted_claim_needs_a_control_and_its_label():
    c = make()
    with pytest.raises(ValueError, match="needs a control"):
        c.check("x", statement="s", paper="p", criterion=at_least(1), measured=2.0)
    with pytest.raises(ValueError, match="control_label"):
        c.check("x", statement="s", paper="p", criterion=at_least(1), measured=2.0, control=0.0)
    with pytest.raises(ValueError, match="kind"):
        c.check("x", statement="s", paper="p", criterion=at_least(1), measured=2.0, kind="lemma", **CTRL)
    # implementation checks and timings need none, and never count
    c.check("impl", statement="s", paper="p", criterion=is_true(), measured=True, kind="implementation")
    c.check("t", statement="s", paper="p", criterion=at_least(1), measured=2.0, volatile=True)
    assert c.verdict == "inconclusive" and count_reproduced(c.results) == (0, 0)


def test_a_claim_whose_control_passes_too_is_uninformative_and_not_counted():
    c = make()
    c.check("informative", statement="s", paper="p", criterion=at_least(1), measured=2.0, **CTRL)
    r = c.check("uninformative", statement="s", paper="p", criterion=at_least(1), measured=2.0, control=3.0,
                control_label="naive baseline")
    both_fail = c.check("both-fail", statement="s", paper="p", criterion=at_least(1), measured=0.5, **CTRL)
    assert r.outcome == "uninformative" and not r.counted
    assert both_fail.outcome == "not reproduced" and both_fail.counted, "a tested claim that fails still counts"
    assert count_reproduced(c.results) == (1, 2) and c.verdict == "partial"
    text = repr(c.table())
    assert "uninformative" in text and "3 (reproduced)" in text, "both values are shown"
    assert "1 uninformative (the control passes too), not counted" in text


def test_post_hoc_claims_count_apart_and_machine_sensitive_ones_not_at_all():
    c = make()
    c.check("pre", statement="s", paper="p", criterion=at_least(1), measured=2.0, **CTRL)
    c.check("late", statement="s", paper="p", criterion=at_least(1), measured=0.5, post_hoc="threshold set late",
            **CTRL)
    c.check("flaky", statement="s", paper="p", criterion=at_least(1), measured=2.0,
            machine_sensitive="flips under ATEN default", **CTRL)
    s = summary(c.results)
    assert (s["pre_registered_reproduced"], s["pre_registered"], s["post_hoc_reproduced"], s["post_hoc"]) == (1, 1, 0, 1)
    assert s["machine_sensitive"] == 1 and count_reproduced(c.results) == (1, 2)
    line = headline(c.results)
    assert line.startswith("1 of 1 pre-registered claims reproduced; 1 added or changed after the first run")
    text = repr(c.table())
    assert "late †" in text and "post hoc" in text and "machine-sensitive" in text
    assert "~2" in text, "a machine-sensitive value is masked for nbval"
    with pytest.raises(ValueError, match="reason"):
        c.check("bad", statement="s", paper="p", criterion=at_least(1), measured=2.0, post_hoc=True, **CTRL)


def test_noise_digits_become_a_bound_and_wide_tolerances_need_a_reason():
    c = make()
    r = c.check("err", statement="s", paper="p", criterion=at_most(1e-9), measured=4.84e-16, control=0.3,
                control_label="wrong kernel", kind="theorem")
    assert r.measured == "< 1e-12" and "< 1e-12" in repr(c.table()) and "4.84" not in repr(c.table())
    r2 = c.check("grad", statement="s", paper="p", criterion=at_most(1e-6), measured=2.43e-10, control=0.1,
                 control_label="c", tol=tolerance(abs=1e-8, why="quadrature error of the ODE solver"))
    assert r2.measured == "< 1e-08"
    with pytest.raises(ValueError, match="reason"):
        tolerance(rel=0.1)
    r3 = c.check("acc", statement="s", paper="p", criterion=at_least(0.5), measured=0.71234, control=0.1,
                 control_label="c", tol=tolerance(rel=0.1, why="end point of training"))
    assert "~0.712" in repr(c.table()) and '<span class="repro-approx">0.712</span>' in c.table()._repr_html_()
    assert r3.measured == 0.7123
    r4 = c.check("gap", statement="s", paper="p", criterion=at_most(0.03), measured=0.00889, control=0.2,
                 control_label="c", tol=tolerance(abs=0.05, why="accuracy difference of two trainings"))
    assert r4.measured == 0.00889 and "~0.00889" in repr(c.table()), "a coarse tolerance keeps the value"
    r5 = c.check("gap2", statement="s", paper="p", criterion=at_most(0.03), measured=0.00889, control=0.2,
                 control_label="c", tol=tolerance(abs=0.05, why="a solver error", bound=True))
    assert r5.measured == "< 0.05" and r5.tolerance["bound"] is True


def test_tolerance_agreement():
    exact, loose = tolerance(), tolerance(rel=0.2, why="training")
    assert exact.agree(0.5, 0.5 + 1e-9) and not exact.agree(0.5, 0.51)
    assert loose.agree(-0.00222, 0.00889) is False and loose.agree(1.2, 1.36)
    assert exact.agree("< 1e-12", "< 1e-12") and exact.agree("< 1e-12", 5e-13) and not exact.agree("< 1e-12", 1e-6)
    assert exact.agree(True, True) and not exact.agree(True, False) and not exact.agree(1, True)
    assert exact.agree(254, 254) and not exact.agree(254, 245)
    assert tolerance(rel=0.05, why="iteration count").agree(254, 245)
    assert exact.agree(None, None) and not exact.agree(None, 0.1)


def test_compare_records_statuses_exact_values_within_tolerance():
    def page(acc, err, control_acc=0.1, timing=3.0):
        c = make()
        c.check("acc", statement="s", paper="p", criterion=at_least(0.5), measured=acc, control=control_acc,
                control_label="c", tol=tolerance(rel=0.2, why="training"))
        c.check("err", statement="s", paper="p", criterion=at_most(1e-9), measured=err, control=1.0,
                control_label="c", kind="theorem")
        c.check("t", statement="s", paper="p", criterion=at_least(1), measured=timing, volatile=True)
        return json.loads(json.dumps(c.record()))

    base = page(0.70, 4.84e-16)
    assert compare_records(base, page(0.75, 5.53e-16, timing=0.2)) == [], "noise digits and timings do not count"
    assert any("measured" in d for d in compare_records(base, page(0.95, 4.8e-16))), "beyond the tolerance"
    diffs = compare_records(base, page(0.40, 4.8e-16))
    assert any("status" in d for d in diffs) and any("verdict" in d for d in diffs)
    assert any("control_status" in d for d in compare_records(base, page(0.7, 4.8e-16, control_acc=0.6)))
    other = page(0.70, 4.84e-16)
    other["claims"][0]["criterion"] = ">= 0.4"
    assert any("criterion" in d for d in compare_records(base, other))
    other["claims"].pop()
    assert any("claim ids" in d for d in compare_records(base, other))


def test_rounding_helpers():
    assert round_sig(0.000123456) == 0.0001235
    assert format_measured(True) == "yes" and format_measured(3) == "3" and format_measured(0.5234) == "0.523"


def test_bad_params_are_refused():
    with pytest.raises(ValueError):
        Claims("demo", title=None, scale="medium", seed=0)


def test_a_checked_claim_displays_nothing_in_a_notebook_but_keeps_its_repr():
    """A cell ending with ``claims.check(...)`` shows no ``ClaimResult(...)`` on the page (the table shows it)."""
    from IPython.core.formatters import DisplayFormatter

    r = make().check("x", statement="s", paper="p", criterion=at_least(1), measured=2.0, **CTRL)
    assert DisplayFormatter().format(r) == ({}, {})
    assert repr(r).startswith("ClaimResult(id='x'") and "status='reproduced'" in repr(r)
