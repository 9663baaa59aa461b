"""`make new PAPER=<slug>` (repro.scaffold): what it writes, what it refuses, and what the pattern tests then say."""

import importlib.util
import json
import re
import shutil
import sys
import warnings

import jupytext
import pytest

from repro import pipeline, scaffold
from repro.scaffold import MARK, ScaffoldError

SLUG = "bnc-policy-generalization"
MODULE = "bnc_policy_generalization"


@pytest.fixture
def root(tmp_path):
    """An empty book: only the catalogue."""
    (tmp_path / "book").mkdir()
    shutil.copy(pipeline.CATALOG, tmp_path / "book" / "catalog.yml")
    return tmp_path


def test_writes_the_three_files_of_a_page(root):
    paths = scaffold.scaffold(SLUG, root)
    assert [p.relative_to(root).as_posix() for p in paths] == [
        f"notebooks/{SLUG}.py", f"src/repro/papers/{MODULE}.py", f"tests/papers/test_{MODULE}.py"]
    for path in paths:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(path.read_text(), str(path), "exec")
    kernels = paths[1].read_text()
    assert kernels.startswith('r"""') and "Notation (paper -> here)" in kernels and f"notebooks/{SLUG}.py" in kernels
    assert f"from repro.papers import {MODULE} as K" in paths[2].read_text()


def test_the_notebook_parses_and_has_the_sections_of_a_page(root):
    path = scaffold.scaffold(SLUG, root)[0]
    nb = jupytext.read(path)
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")
    tags = [c.metadata.get("tags", []) for c in nb.cells]
    assert tags.count(["parameters"]) == 1 and tags.count(["nbval-check-output"]) == 1
    params = next(c for c in nb.cells if c.metadata.get("tags") == ["parameters"])
    assert params.source == 'scale = "ci"\nseed = 0'
    checked = next(c for c in nb.cells if c.metadata.get("tags") == ["nbval-check-output"])
    assert checked.source == "claims.save()\nclaims.table()"
    text = path.read_text()
    for heading in ("## The claim", "## The method", "## The experiment", "**Deviations from the paper**",
                    "## Results", "## Claims", "## Verdict", "## What the miniature cannot show"):
        assert f"# {heading}" in text, heading
    assert f'Claims("{SLUG}"' in text and "setup_notebook(scale, seed, presets=" in text
    assert "Against the official code" not in text, "no section without an official repository"


def test_an_official_repository_adds_its_section(root, tmp_path):
    brief = tmp_path / "brief.md"
    brief.write_text("## What the paper reports (found)\n- Official code: github.com/owner/the-code (fetched).\n")
    text = scaffold.scaffold(SLUG, root, brief=brief)[0].read_text()
    assert "# ## Against the official code" in text and "https://github.com/owner/the-code" in text
    assert f"tests/papers/golden/{SLUG}.json" in text
    assert "github.com/owner/the-code" in (root / "src" / "repro" / "papers" / f"{MODULE}.py").read_text()


@pytest.mark.parametrize("brief, repo", [
    ("- Official code: github.com/a-b/C_d.e (MIT; fetched).", "a-b/C_d.e"),
    ("- Official code: tanganke/fusion_bench (`fusion_bench/method/dop/dop.py`).", "tanganke/fusion_bench"),
    ("- Official code: not found.", None),
    ("- Official code: the link was not in the copy; nothing under github.com/lttam matched.", None),
    ("**1. Identity.** *T*, by A. [F: x] Code: `Owner/repo` [F: read].\n\n**2. Central claim**", "Owner/repo"),
])
def test_the_official_repository_is_read_from_the_brief(brief, repo):
    assert scaffold.official_repo(brief) == repo


def test_unknown_slug_is_refused_with_the_way_to_list_the_slugs(root, capsys):
    with pytest.raises(ScaffoldError, match=r"not in book/catalog.yml. Did you mean bnc-policy-generalization"):
        scaffold.scaffold("bnc-policy-generalisation", root)
    assert scaffold.main(["no-such-paper", "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert "unknown paper 'no-such-paper'" in err and "make new` with no PAPER" in err and "--list" in err
    assert not (root / "notebooks").exists()


@pytest.mark.parametrize("which", [0, 1, 2])
def test_an_existing_page_is_refused_and_nothing_is_written(root, which):
    existing = scaffold.page_files(SLUG, root)[which]
    existing.parent.mkdir(parents=True)
    existing.write_text("# mine\n")
    with pytest.raises(ScaffoldError, match=r"already has a page \(" + existing.relative_to(root).as_posix()):
        scaffold.scaffold(SLUG, root)
    assert existing.read_text() == "# mine\n"
    assert [p.exists() for p in scaffold.page_files(SLUG, root)] == [i == which for i in range(3)]


def test_without_a_slug_it_lists_the_open_slugs(root, capsys):
    scaffold.scaffold(SLUG, root)
    assert scaffold.main(["--root", str(root)]) == 2
    out, err = capsys.readouterr()
    assert "usage: make new PAPER=<slug>" in err and "56 catalogued papers have no page yet" in out
    assert SLUG not in out.split() and "active-seriation" in out.split()
    assert scaffold.main(["--list", "--root", str(root)]) == 0
    assert scaffold.main([SLUG, "--root", str(root)]) == 2


@pytest.fixture
def pattern_tests(root, monkeypatch):
    """tests/test_pipeline.py's page checks, pointed at the scaffolded book in ``root``."""
    spec = importlib.util.spec_from_file_location("pattern_tests", pipeline.ROOT / "tests" / "test_pipeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "ROOT", root)
    monkeypatch.setattr(pipeline, "PAGES", root / "book" / "papers")
    monkeypatch.setattr(pipeline, "CLAIMS", root / "book" / "claims")
    monkeypatch.setattr(scaffold, "ROOT", root)
    return module


def test_the_pattern_tests_say_what_a_fresh_page_lacks(root, pattern_tests, monkeypatch):
    paths = scaffold.scaffold(SLUG, root)
    with pytest.raises(AssertionError, match="at least two figures, each plotting cell ending with plt.show"):
        pattern_tests.test_notebook_source_follows_the_pattern(SLUG)
    for check in ("test_committed_page_is_current", "test_claims_record_is_well_formed",
                  "test_checked_cell_shows_measurements_and_no_status"):
        with pytest.raises(AssertionError, match="missing: run make book"):
            getattr(pattern_tests, check)(SLUG)
    files = scaffold.page_files
    monkeypatch.setattr(scaffold, "page_files", lambda slug: files(slug, root))
    with pytest.raises(AssertionError, match=r"\d+ placeholder\(s\) of make new still to fill:\n"
                                             rf"notebooks/{SLUG}.py:\d+: # # {re.escape(MARK)}"):
        pattern_tests.test_no_scaffold_placeholders_are_left(SLUG)

    # the scaffolded notebook runs as it is, and records a page without claims
    monkeypatch.setenv("REPRO_CLAIMS_DIR", str(pipeline.CLAIMS))
    spec = importlib.util.spec_from_file_location(f"repro.papers.{MODULE}", paths[1])
    kernels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernels)
    monkeypatch.setitem(sys.modules, f"repro.papers.{MODULE}", kernels)
    namespace = {}
    for cell in jupytext.read(paths[0]).cells:
        if cell.cell_type == "code":
            exec(cell.source, namespace)  # noqa: S102 - our own template
    record_path = pipeline.CLAIMS / f"{SLUG}.json"
    record = json.loads(record_path.read_text())
    record_path.write_text(json.dumps(dict(record, runtime_s=9.9)))  # make book records the notebook's runtime
    with pytest.raises(AssertionError, match="a page without checks: record each with claims.test"):
        pattern_tests.test_claims_record_is_well_formed(SLUG)

    # with its figures drawn, the notebook source passes the pattern test
    paths[0].write_text(paths[0].read_text() + "\n# %%\nplt.show()\n\n# %%\nplt.show()\n")
    pattern_tests.test_notebook_source_follows_the_pattern(SLUG)
