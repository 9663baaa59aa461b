"""Sphinx extension of the book: it puts what :mod:`repro.site` generates from the records into the pages.

Nothing here is typed by hand; all of it is generated at build time from ``book/claims/<slug>.json`` (written
when the notebook ran), the sweep records ``book/sweeps/{ci,full,confirm}/<slug>.json``, the executed notebooks'
metadata and ``book/catalog.yml``, judged by :mod:`repro.claims.judge`:

* the **reproduction card** under the title of every paper page (badge, tests, headline claims tested, full
  scale, runtime, the command to rerun at full scale, downloads);
* in the page's **Claims** section: the paper's headline claims mapped to tests, then the judged claims table,
  which takes the place of the notebook's raw measurement table (nbval still checks that one);
* the ``{repro-verdict}`` directive: the verdict's opening words, from the badge;
* the ``{repro-status}`test-id``` role: a test's status for the prose, from the sweep; and
  ``{repro-seeds}`test-id:who:status```, a count of seeds from it (``"5 of 10"``);
* on a page still in the old claim model, a note at the top of its verdict;
* the ``{repro-glance}`` directive (the landing figure and the book's totals), the ``{repro-scoreboard}``
  directive (one line per paper; filter and sort by ``_static/repro-scoreboard.js``) and the
  ``{repro-status}`` directive (status page).

A record that does not match the sweep schema fails the build; a stale one is shown as stale.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx import addnodes

from repro import pipeline, site, sweep
from repro.claims.judge import verdict_parts

CHECKED_TAG = "tag_nbval-check-output"


def _slug_of(docname: str) -> str | None:
    return docname.rsplit("/", 1)[1] if docname.startswith("book/papers/") else None


def _note_record_dependencies(env: Any, slug: str) -> None:
    for path in site.record_files(slug):
        env.note_dependency(str(path))
    if (pipeline.NOTEBOOKS / f"{slug}.py").exists():  # whether a sweep record is stale depends on the inputs
        for path in pipeline.input_files(slug):
            env.note_dependency(str(path))


def _download(target: str, text: str) -> addnodes.download_reference:
    ref = addnodes.download_reference("", "", reftarget=target, refexplicit=True, refdomain="", reftype="download")
    ref += nodes.literal(text, text)
    return ref


def _section(doctree: nodes.document, title: str, prefix: bool = False) -> nodes.section | None:
    """The section titled ``title`` (or, with ``prefix``, the first whose title starts with it: "Verdict and ...")."""
    def matches(text: str) -> bool:
        return text.startswith(title) if prefix else text == title

    return next((s for s in doctree.findall(nodes.section)
                 if s.children and isinstance(s[0], nodes.title) and matches(s[0].astext().strip())), None)


def insert_card(app: Any, doctree: nodes.document) -> None:
    """``doctree-read``: the card under the title, the generated claims section, the old-model note."""
    slug = _slug_of(app.env.docname)
    if slug is None:
        return
    _note_record_dependencies(app.env, slug)
    record = site.load_record(slug)
    card = nodes.container(classes=["repro-card"])
    if record is None:
        card += nodes.paragraph(text=f"No claims record yet: run make book to create book/claims/{slug}.json.")
    else:
        card += nodes.raw("", site.card_html(record), format="html")
        para = nodes.paragraph(classes=["repro-downloads"])
        para += nodes.Text("Download: ")
        para += _download(f"/book/papers/{slug}.ipynb", f"{slug}.ipynb")
        para += nodes.Text(" (executed notebook) · ")
        para += _download(f"/notebooks/{slug}.py", f"{slug}.py")
        para += nodes.Text(" (jupytext source)")
        card += para
        insert_claims(doctree, slug, record)
        insert_old_model_note(doctree, slug)
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        doctree.insert(0, card)
        return
    title_index = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.title)), -1)
    position = title_index + 1
    # keep the italic one-line claim right under the title, card after it
    if len(section.children) > position and isinstance(section.children[position], nodes.paragraph):
        position += 1
    section.insert(position, card)


def insert_claims(doctree: nodes.document, slug: str, record: dict) -> None:
    """The headline claims at the top of the Claims section; the judged table in place of the raw measurements."""
    claims = _section(doctree, "Claims")
    top = next(iter(doctree.findall(nodes.section)), None)
    where = claims if claims is not None else (top if top is not None else doctree)
    heads = nodes.container(classes=["repro-headlines-box"])
    heads += nodes.rubric(text="The paper's headline claims")
    heads += nodes.raw("", site.headlines_html(slug, record), format="html")
    index = 1 if where is claims else len(where.children)
    where.insert(index, heads)
    table = nodes.container(classes=["repro-claims-box"])
    table += nodes.raw("", site.claims_table_html(slug, record), format="html")
    checked = next((n for n in doctree.findall(nodes.container) if CHECKED_TAG in n.get("classes", [])), None)
    if checked is None:
        where += table
        return
    for output in [c for c in checked.children if "cell_output" in c.get("classes", [])]:
        checked.remove(output)  # the raw measurements: the judged table below shows the same values
    checked.parent.insert(checked.parent.index(checked) + 1, table)


def insert_old_model_note(doctree: nodes.document, slug: str) -> None:
    """On a page still in the old claim model: a note at the top of its verdict, which the rules now overrule."""
    j = site.judgement(slug)
    verdict = _section(doctree, "Verdict") or _section(doctree, "Verdict", prefix=True)
    if j is None or verdict is None or j.badge != "untested: awaiting comparators":
        return
    note = nodes.admonition(classes=["repro-old-model", "warning"])
    note += nodes.title(text="Written under the old claim model")
    note += nodes.paragraph(text=(
        "The verdict below was written when a claim counted against a single control, often one built to fail. "
        "Under the book's current rules a counted test must beat the paper's ablation and the strongest naive "
        "baseline at 8 or more of 10 seeds; this page's claims do not have those comparators yet, so none is "
        "counted and the page's badge is \u201cuntested: awaiting comparators\u201d. Read the words "
        "\u201creproduced\u201d below as \u201cpassed its old control\u201d."))
    verdict.insert(1, note)


def check_sweep_records(app: Any) -> None:
    """``builder-inited``: the build fails on a sweep record that does not match the schema (stale is fine)."""
    from sphinx.errors import ExtensionError

    errors = sweep.schema_errors()
    if errors:
        raise ExtensionError("sweep records that do not match the schema (repro.sweep.SCHEMA):\n  "
                             + "\n  ".join(errors))


class VerdictDirective(Directive):
    """``{repro-verdict}``: the verdict's opening words, generated from the badge (so prose cannot contradict it)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        slug = _slug_of(env.docname)
        if slug is None:
            raise self.error("repro-verdict belongs on a paper page")
        _note_record_dependencies(env, slug)
        j = site.judgement(slug)
        if j is None:
            raise self.error(f"{slug}: no claims record (run make book)")
        head, body = verdict_parts(j)
        e = html.escape
        return [nodes.raw("", f'<p class="repro-verdict" data-badge="{e(j.badge)}"><strong>{e(head)}</strong> '
                              f"{e(body)}</p>", format="html")]


def status_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any, options: dict | None = None,
                content: list | None = None) -> tuple[list[nodes.Node], list]:
    """``{repro-status}`test-id```: the test's status as the book judges it (for the page's prose)."""
    env = inliner.document.settings.env
    slug = _slug_of(env.docname)
    try:
        if slug is None:
            raise KeyError("repro-status belongs on a paper page")
        _note_record_dependencies(env, slug)
        word = site.status_word(slug, text.strip())
    except KeyError as exc:
        msg = inliner.reporter.error(str(exc), line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    return [nodes.inline(rawtext, word, classes=["repro-status-word"])], []


def seeds_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any, options: dict | None = None,
               content: list | None = None) -> tuple[list[nodes.Node], list]:
    """``{repro-seeds}`test-id:who:status```: a count over the page's ci sweep (see :func:`repro.site.seed_count`)."""
    env = inliner.document.settings.env
    slug = _slug_of(env.docname)
    try:
        if slug is None:
            raise KeyError("repro-seeds belongs on a paper page")
        _note_record_dependencies(env, slug)
        word = site.seed_count(slug, text)
    except KeyError as exc:
        msg = inliner.reporter.error(str(exc), line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    return [nodes.inline(rawtext, word, classes=["repro-seeds"])], []


class scoreboard_node(nodes.General, nodes.Element):
    """Placeholder replaced by the scoreboard HTML once links can be resolved."""


class status_node(nodes.General, nodes.Element):
    """Placeholder replaced by the status table."""


class ScoreboardDirective(Directive):
    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        for part in pipeline.load_catalog():
            for paper in part["papers"]:
                for path in site.record_files(paper["slug"]):
                    env.note_dependency(str(path))
        return [scoreboard_node()]


class GlanceDirective(Directive):
    """``{repro-glance}``: the book's totals and the landing figure (per part: tests by status, pages without tests)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        for part in pipeline.load_catalog():
            for paper in part["papers"]:
                for path in site.record_files(paper["slug"]):
                    env.note_dependency(str(path))
        return [nodes.raw("", site.glance_html(), format="html")]


class StatusDirective(Directive):
    has_content = False

    def run(self) -> list[nodes.Node]:
        return [status_node()]


def resolve_placeholders(app: Any, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: replace the placeholders with HTML whose links are relative to ``docname``."""

    def link(slug: str) -> str | None:
        target = f"book/papers/{slug}"
        if target not in app.env.all_docs:
            return None
        return app.builder.get_relative_uri(docname, target)

    for node in list(doctree.findall(scoreboard_node)):
        node.replace_self(nodes.raw("", site.scoreboard_html(link), format="html"))
    for node in list(doctree.findall(status_node)):
        node.replace_self(nodes.raw("", site.status_html(link), format="html"))


MATHJAX_FILES = ("tex-mml-chtml.js", "output/chtml/fonts/woff-v2")


def mathjax_source() -> Path:
    """MathJax 3.2.2 as shipped by the pinned pip package ``django-static-mathjax`` (its ``es5`` folder)."""
    import mathjax

    return Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"


def copy_mathjax(app: Any, exception: Exception | None) -> None:
    """``build-finished``: serve MathJax from the site itself (``_static/mathjax``), so math renders offline."""
    import shutil

    if exception is not None or app.builder.format != "html":
        return
    src, dest = mathjax_source(), Path(app.outdir) / "_static" / "mathjax"
    if (dest / MATHJAX_FILES[0]).exists() and (dest / MATHJAX_FILES[0]).stat().st_size == (src / MATHJAX_FILES[0]).stat().st_size:
        return  # an incremental build: copied by an earlier one
    for rel in MATHJAX_FILES:
        if (src / rel).is_dir():
            shutil.copytree(src / rel, dest / rel, dirs_exist_ok=True)
        else:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / rel, dest / rel)


def prune_removed_pages(app: Any, exception: Exception | None) -> None:
    """``build-finished``: an incremental build keeps the HTML of a page that left the book, and the figures of
    earlier runs of a re-executed page; remove both, so the site holds what the pages show and no more."""
    import re

    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for page in (out / "book" / "papers").glob("*.html"):
        if f"book/papers/{page.stem}" not in app.env.all_docs:
            page.unlink()
            for stale in (out / "_downloads").glob(f"*/{page.stem}.*"):
                stale.unlink()
    shown = {(page.parent / src).resolve() for page in out.rglob("*.html")
             for src in re.findall(r'src="([^"#?]+)"', page.read_text(errors="replace")) if "://" not in src}
    for image in (out / "_images").glob("*"):
        if image.is_file() and image.resolve() not in shown:
            image.unlink()


def shrink_figures(app: Any, exception: Exception | None) -> None:
    """``build-finished``: store the site's copy of each figure as a 256-colour palette PNG without alpha.

    Matplotlib writes RGBA PNGs at twice their display density; line plots on an opaque background need no more
    than 256 colours, so the palette copy is about a third of the size at the same pixel size. Only the site's
    copies change (not the executed notebooks, nor any page's inputs); a figure already in palette mode is
    skipped, so an unchanged build reads only the files' headers."""
    if exception is not None or app.builder.format != "html":
        return
    from PIL import Image

    for image in (Path(app.outdir) / "_images").glob("*.png"):
        with Image.open(image) as im:
            if im.mode == "P":
                continue
            palette = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                                 dither=Image.Dither.NONE)
        palette.save(image, optimize=True)


def drop_thebe(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """``html-page-context``: the book has no live kernels, so drop the Thebe scripts.

    Jupyter Book always loads ``sphinx_thebe``, whose inline configuration script
    lands twice on notebook pages (a console error) and names a CDN URL.
    """
    scripts = context.get("script_files")
    if scripts is None:
        return
    context["script_files"] = [
        js
        for js in scripts
        if "thebe" not in str(js).lower() and "THEBE" not in str(getattr(js, "attributes", {}).get("body", ""))
    ]


def always_outdated(app: Any, env: Any, added: set, changed: set, removed: set) -> list[str]:
    """``env-get-outdated``: the landing and status pages summarise every record, so always rebuild them; a paper
    page is rebuilt when a record of it appeared since it was read (a first sweep, a confirmation sweep)."""
    out = [d for d in ("book/index", "book/status") if d in env.found_docs]
    for docname in env.found_docs:
        slug = _slug_of(docname)
        if slug is None or docname in changed:
            continue
        noted = {str(p) for p in env.dependencies.get(docname, set())}
        if any(str(p) not in noted for p in site.record_files(slug)):
            out.append(docname)
    return out


def setup(app: Any) -> dict:
    app.add_node(scoreboard_node)
    app.add_node(status_node)
    app.add_directive("repro-scoreboard", ScoreboardDirective)
    app.add_directive("repro-status", StatusDirective)
    app.add_directive("repro-verdict", VerdictDirective)
    app.add_directive("repro-glance", GlanceDirective)
    app.add_role("repro-status", status_role)
    app.add_role("repro-seeds", seeds_role)
    app.connect("builder-inited", check_sweep_records)
    app.connect("doctree-read", insert_card, priority=400)
    app.connect("doctree-resolved", resolve_placeholders)
    app.connect("env-get-outdated", always_outdated)
    app.connect("build-finished", copy_mathjax)
    app.connect("build-finished", prune_removed_pages)
    app.connect("build-finished", shrink_figures)
    app.connect("html-page-context", drop_thebe, priority=900)
    app.add_css_file("repro.css")
    app.add_js_file("repro-scoreboard.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
