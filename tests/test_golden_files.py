"""The golden files of the official-code cross-checks (issue 11): their schema, and one for every page
whose brief names an official repository. Each paper's own test module asserts our kernels against them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from repro import pipeline, scaffold

GOLDEN = Path(__file__).resolve().parent / "papers" / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_file_schema(path):
    g = json.loads(path.read_text())
    assert g["slug"] == path.stem and path.stem in pipeline.all_slugs(), "a golden file names its page's slug"
    assert re.fullmatch(r"(https://github.com/)?[\w.-]+/[\w.-]+", g["repository"]), "repository: owner/name or its GitHub URL"
    assert re.fullmatch(r"[0-9a-f]{40}", g["commit"]), "the official commit that was run, 40 hex digits"
    assert g["files"] and g["how"], "which official files ran, and how (interpreter, stubs)"
    assert g["cases"], "at least one case"
    for case in g["cases"]:
        for key in ("name", "function", "input", "output", "ours", "tol"):
            assert key in case and case[key] not in ("", None), f"{path.stem}: case {case.get('name')!r} lacks {key}"
    module = Path(__file__).resolve().parent / "papers" / f"test_{path.stem.replace('-', '_')}.py"
    assert "golden" in module.read_text(), f"{module.name} never reads its golden file"


@pytest.mark.parametrize("slug", pipeline.all_slugs())
def test_a_page_with_an_official_repository_has_a_golden_file(slug):
    brief = scaffold.brief_path(slug)
    if not brief.exists():
        pytest.skip(f"no brief for {slug} in this checkout")
    repo = scaffold.official_repo(brief.read_text())
    if repo is None:
        return
    assert (GOLDEN / f"{slug}.json").exists(), (
        f"the brief of {slug} names the official repository {repo}: add tests/papers/golden/{slug}.json "
        "(see CONTRIBUTING.md, 'Against the official code')"
    )
