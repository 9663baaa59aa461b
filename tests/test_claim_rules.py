"""The rubric's rules that a machine can check, on every page converted to the current claim model.

A page is *converted* when none of its checks is in the old model (a single control, no ablation or baselines).
On such a page:

* every counted test has an ablation and a naive baseline (``test_pipeline`` checks the record);
* no test has a grade-(a) form in the notebook: a comparator's value typed as a literal, a criterion computed
  from the measured value, or a comparator that is the same expression as the method;
* one measurement is one test: two tests may not share their measured value and comparators unless each
  declares its own setting;
* the paper's headline claims are mapped;
* the verdict opens with the generated ``{repro-verdict}`` and its prose types no status;
* the results, the verdict and "What a skeptic would try" type no decimal: computed numbers are glued;
* the page has its skeptic section with glued numbers, and current sweeps (ci over seeds 0-9, full scale, and
  the confirmation sweep of every post-hoc test).

Pages not yet converted are skipped with a reason (they show as "untested: awaiting comparators").
"""

from __future__ import annotations

import ast
import json
import re

import jupytext
import pytest

from repro import pipeline, sweep
from repro.claims.judge import is_legacy, role_of

SLUGS = pipeline.all_slugs()
STATUS_WORDS = re.compile(r"\*\*[^*]*\b(reproduced|not specific|seed-sensitive|partly reproduced)\b[^*]*\*\*", re.I)
GLUE_ROLE = re.compile(r"\{glue(?::\w+)?\}`[^`]*`")
ROLE = re.compile(r"\{[\w:-]+\}`[^`]*`")
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
DECIMAL = re.compile(r"(?<![\w.])[-+−]?\d+\.\d+")


def record(slug: str) -> dict:
    return json.loads((pipeline.CLAIMS / f"{slug}.json").read_text())


def converted(slug: str) -> bool:
    path = pipeline.CLAIMS / f"{slug}.json"
    return path.exists() and not any(is_legacy(c) for c in record(slug)["claims"])


def skip_unless_converted(slug: str) -> None:
    if not converted(slug):
        pytest.skip(f"{slug}: still in the old claim model (awaiting comparators; issues 32-34)")


def cells(slug: str) -> list:
    return jupytext.read(pipeline.NOTEBOOKS / f"{slug}.py").cells


def sections(slug: str) -> dict[str, str]:
    """Markdown of each ``## `` section (subsections included), by its title."""
    out: dict[str, str] = {}
    current = None
    for cell in cells(slug):
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            m = re.match(r"^## (.+?)\s*$", line)
            if m:
                current = m.group(1)
                out.setdefault(current, "")
                continue
            if current is not None:
                out[current] += line + "\n"
    return out


def test_converted_pages_exist():
    """The pattern pages of issue 31 are converted (a regression test: they must stay so)."""
    for slug in ("cost-sensitive-freeze-thaw-bo", "anacp-analytic-cil", "erm-oracle-online-learning"):
        assert converted(slug), f"{slug} fell back to the old claim model"


# ---------- grade-(a) forms in the notebook ----------


def _test_calls(slug: str) -> list[ast.Call]:
    code = "\n".join(c.source for c in cells(slug) if c.cell_type == "code")
    tree = pipeline._parse_python(code)
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "test"]


def _kw(call: ast.Call, name: str) -> ast.AST | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _comparator_values(node: ast.AST | None) -> list[ast.AST]:
    """The value expressions of the ``Comparator(label, value, ...)`` calls under ``node``."""
    if node is None:
        return []
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", "")) == "Comparator":
            value = n.args[1] if len(n.args) > 1 else _kw(n, "value")
            if value is not None:
                out.append(value)
    return out


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp):
        return _is_literal(node.operand)
    return isinstance(node, ast.Constant)


@pytest.mark.parametrize("slug", SLUGS)
def test_no_test_has_a_grade_a_form(slug):
    skip_unless_converted(slug)
    for call in _test_calls(slug):
        where = f"{slug}: claims.test at line {call.lineno}"
        measured = _kw(call, "measured")
        comps = _comparator_values(_kw(call, "ablation")) + _comparator_values(_kw(call, "baselines")) \
            + _comparator_values(_kw(call, "wrong_inputs"))
        for value in comps:
            assert not _is_literal(value), f"{where}: a comparator's value typed as a literal ({ast.unparse(value)})"
            if measured is not None:
                assert ast.unparse(value) != ast.unparse(measured), f"{where}: a comparator identical to the method"
        criterion = _kw(call, "criterion")
        if criterion is not None and measured is not None:
            used = {n.id for n in ast.walk(measured) if isinstance(n, ast.Name)}
            in_criterion = {n.id for n in ast.walk(criterion) if isinstance(n, ast.Name)} - {
                "at_least", "at_most", "greater_than", "less_than", "between", "is_true", "fraction_at_least"}
            shared = used & in_criterion
            assert not shared, f"{where}: the criterion uses {sorted(shared)}, which the measured value uses too"


@pytest.mark.parametrize("slug", SLUGS)
def test_one_measurement_is_one_test(slug):
    skip_unless_converted(slug)
    seen: dict[str, str] = {}
    for c in record(slug)["claims"]:
        if role_of(c) != "test":
            continue
        key = json.dumps([c["measured"], c.get("ablation", {}).get("value") if c.get("ablation") else None,
                          [b["value"] for b in c.get("baselines") or []]])
        if key in seen:
            other = next(x for x in record(slug)["claims"] if x["id"] == seen[key])
            assert c.get("setting") and other.get("setting") and c["setting"] != other["setting"], (
                f"{slug}: {c['id']} and {seen[key]} share their measurement and comparators; one test, or declare "
                "each its setting")
        seen[key] = c["id"]


# ---------- headline claims, verdict, glued numbers, the skeptic ----------


@pytest.mark.parametrize("slug", SLUGS)
def test_headline_claims_are_mapped(slug):
    skip_unless_converted(slug)
    rec = record(slug)
    assert 1 <= len(rec["headlines"]) <= 4, f"{slug}: list the paper's one to four headline claims"
    ids = {c["id"] for c in rec["claims"]}
    for h in rec["headlines"]:
        assert h["tests"] or h["untestable"].strip(), f"{slug}: headline {h['id']} is not mapped"
        assert set(h["tests"]) <= ids


@pytest.mark.parametrize("slug", SLUGS)
def test_the_verdict_opens_with_the_badge_and_types_no_status(slug):
    skip_unless_converted(slug)
    verdict = sections(slug).get("Verdict")
    assert verdict is not None, f"{slug}: no '## Verdict' section"
    first = next(line for line in verdict.splitlines() if line.strip())
    assert first.strip() == "```{repro-verdict}", f"{slug}: the verdict must open with the generated {{repro-verdict}}"
    typed = STATUS_WORDS.findall(ROLE.sub("", verdict))
    assert not typed, f"{slug}: the verdict types a status in bold ({typed}); cite it with {{repro-status}}`test-id`"


@pytest.mark.parametrize("slug", SLUGS)
def test_results_verdict_and_skeptic_prose_type_no_decimal(slug):
    skip_unless_converted(slug)
    secs = sections(slug)
    for title in ("Results", "Verdict", "What a skeptic would try"):
        text = secs.get(title, "")
        text = re.split(r"(?m)^### The paper's numbers beside ours", text)[0]  # that table is exempt
        text = MATH.sub("", ROLE.sub("", text))
        typed = DECIMAL.findall(text)
        assert not typed, f"{slug}: section {title!r} types decimals {typed[:5]}: glue them from the run"


@pytest.mark.parametrize("slug", SLUGS)
def test_the_skeptic_section_reports_measured_numbers(slug):
    skip_unless_converted(slug)
    secs = sections(slug)
    text = secs.get("What a skeptic would try")
    assert text, f"{slug}: no '## What a skeptic would try' section"
    assert GLUE_ROLE.search(text), f"{slug}: the skeptic section cites no number glued from the run"
    assert re.search(r"review", text, re.I), f"{slug}: say who reviewed the page and what they tried"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_glued_key_is_in_the_executed_page(slug):
    skip_unless_converted(slug)
    nb = json.loads((pipeline.PAGES / f"{slug}.ipynb").read_text())
    glued = {o.get("metadata", {}).get("scrapbook", {}).get("name") for c in nb["cells"] for o in c.get("outputs", [])}
    text = "\n".join(c.source for c in cells(slug) if c.cell_type == "markdown")
    used = {m.split("`")[1].split(":")[0] for m in GLUE_ROLE.findall(text)}
    missing = used - glued
    assert not missing, f"{slug}: glued keys used in the prose but not glued by the run: {sorted(missing)}"


@pytest.mark.parametrize("slug", SLUGS)
def test_converted_pages_have_current_sweeps(slug):
    skip_unless_converted(slug)
    tests = [c for c in record(slug)["claims"] if role_of(c) == "test"]
    if not tests:
        return
    st, rec = sweep.state(slug, "ci")
    assert st == "current" and set(range(10)) <= set(rec["seeds"]), f"{slug}: run make sweep PAPER={slug}"
    st, rec = sweep.state(slug, "full")
    assert st == "current", f"{slug}: run make sweep PAPER={slug} SCALE=full"
    if any(c.get("post_hoc") for c in tests):
        st, rec = sweep.state(slug, "confirm")
        assert st == "current" and set(rec["seeds"]) == set(range(10, 20)), f"{slug}: run make confirm PAPER={slug}"
        frozen = sweep.frozen_input_hash(slug, rec["frozen_commit"])
        if frozen is not None:  # a shallow clone cannot tell
            assert frozen == rec["input_hash"], f"{slug}: the confirmation sweep was not run on the commit it names"
