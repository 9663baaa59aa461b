"""nbval checks what is portable: ids, kinds, criteria, comparators and exact values, never the digits that may move.

A tiny notebook with a claims table is executed, its stored outputs are
altered in the ways another machine may alter them (the last digits of a value
declared approximate) and in the ways it must never alter them (a status, an
id, a criterion), and nbval is run on each copy with the book's sanitizer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import nbformat
import pytest
from nbclient import NotebookClient

from repro import pipeline

SANITIZE = pipeline.ROOT / "tests" / "nbval-sanitize.cfg"

SETUP = """\
from repro.claims import Claims, Comparator, at_least, at_most, tolerance
claims = Claims("demo", title=None, scale="ci", seed=0)
claims.test("accuracy", statement="s", paper="p", criterion=at_least(0.5), measured=0.712345,
            ablation=Comparator("without X", 0.25 + 0, ingredient="X"), baselines=[Comparator("naive", 0.3 + 0)],
            tol=tolerance(rel=0.2, why="end point of training"))
claims.test("error", statement="s", paper="p", criterion=at_most(1e-9), measured=4.84e-16, kind="theorem",
            independent="brute force", wrong_inputs=[Comparator("wrong kernel", 0.3 + 0)])
claims.check("speed", statement="s", paper="p", criterion=at_least(100), measured=64.3, volatile=True)
"""


def _alter(nb: dict, old: str, new: str) -> dict:
    """Replace ``old`` by ``new`` in the stored text and HTML of the checked cell (must occur)."""
    nb = json.loads(json.dumps(nb))
    cell = next(c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", []))
    hits = 0
    for out in cell["outputs"]:
        for mime in ("text/plain", "text/html"):
            if mime in out.get("data", {}):
                text = "".join(out["data"][mime])
                hits += text.count(old)
                out["data"][mime] = text.replace(old, new)
    assert hits, f"{old!r} not in the checked output"
    return nb


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """nbval's outcome (passed/failed) for each altered copy of the executed demo notebook."""
    tmp = tmp_path_factory.mktemp("nbval")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP),
                nbformat.v4.new_code_cell("claims.save()\nclaims.table()", metadata={"tags": ["nbval-check-output"]})]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    previous = os.environ.get("REPRO_CLAIMS_DIR")
    os.environ["REPRO_CLAIMS_DIR"] = str(tmp / "claims")  # the kernel inherits it: never the committed records
    try:
        NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    finally:
        if previous is None:
            os.environ.pop("REPRO_CLAIMS_DIR")
        else:
            os.environ["REPRO_CLAIMS_DIR"] = previous
    executed = json.loads(nbformat.writes(nb))
    text = "".join(executed["cells"][1]["outputs"][0]["data"]["text/plain"])
    assert "~0.712" in text and "< 1e-12" in text and "see timings" in text and "wrong input 0.3" in text
    copies = {
        "unchanged": executed,
        "approx-digits-moved": _alter(_alter(executed, "~0.712", "~0.7"), ">0.712<", ">0.7<"),
        "comparator-changed": _alter(executed, "wrong input 0.3", "wrong input 0.03"),
        "id-changed": _alter(executed, "accuracy", "acc"),
        "criterion-changed": _alter(executed, ">= 0.5", ">= 0.4"),
        "exact-value-changed": _alter(executed, "< 1e-12", "5.53e-16"),
    }
    for name, content in copies.items():
        (tmp / f"{name}.ipynb").write_text(json.dumps(content))
    report = tmp / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--nbval-lax", "--nbval-sanitize-with", str(SANITIZE),
         "-p", "no:randomly", "-p", "no:cacheprovider", f"--junitxml={report}", str(tmp)],
        cwd=tmp, capture_output=True, text=True, timeout=300,
    )
    result = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        failed = case.find("failure") is not None or case.find("error") is not None
        key = next(k for k in copies if k in (case.get("classname", "") + case.get("file", "") + case.get("name", "")))
        result[key] = result.get(key, True) and not failed
    return result


def test_nbval_accepts_the_unchanged_and_the_moved_approximate_digits(outcomes):
    assert outcomes["unchanged"] is True
    assert outcomes["approx-digits-moved"] is True, "a value declared approximate may move in its last digits"


@pytest.mark.parametrize("change", ["comparator-changed", "id-changed", "criterion-changed", "exact-value-changed"])
def test_nbval_fails_when_what_must_not_move_moves(outcomes, change):
    assert outcomes[change] is False, f"nbval accepted a notebook whose checked claims table had its {change}"


def test_every_copy_was_checked(outcomes):
    assert set(outcomes) == {"unchanged", "approx-digits-moved", "comparator-changed", "id-changed",
                             "criterion-changed", "exact-value-changed"}
