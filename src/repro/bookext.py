"""Sphinx extension of the book: everything a reader sees that comes from the claims records.

Nothing here is typed by hand; all of it is generated at build time from
``book/claims/<slug>.json`` (written when the notebook ran), the executed
notebooks' metadata and ``book/catalog.yml``:

* the **reproduction card** at the top of every paper page (paper, authors,
  link, verdict, claims reproduced, ci runtime, scale and seed, the command to
  rerun at full scale, downloads of the executed notebook and its source);
* the ``{repro-scoreboard}`` directive: one row per paper of the catalogue,
  grouped by part, with totals (landing page);
* the ``{repro-status}`` directive: the execution report (status page).

The sweep records ``book/sweeps/<scale>/<slug>.json`` (``make sweep``, :mod:`repro.sweep`) add, at build
time and without re-execution: two card rows (claims that hold at every ci seed, the full-scale verdict), a
robustness table at the end of each page's Claims section, the scoreboard's seed-stability and full-scale
columns, and the status page's table of sweep records, current or stale. A page without a record shows
"no sweep yet"; a record that does not match the schema fails the build.
"""

from __future__ import annotations

import html
import json
import platform
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx import addnodes

from repro import pipeline, sweep
from repro.claims import count_reproduced, headline, summary

BADGE = sweep.VERDICT_CLASS
KEY_PACKAGES = (*pipeline.KEY_PACKAGES, "jupyter-book")


def load_record(slug: str) -> dict | None:
    """The committed claims record of ``slug``, or ``None`` if the page has none yet."""
    path = pipeline.CLAIMS / f"{slug}.json"
    return json.loads(path.read_text()) if path.exists() else None


def counts(record: dict) -> tuple[int, int]:
    """(claims reproduced, claims counted) of a record: informative claims only, each against a control that fails.

    Timings, implementation checks, uninformative and machine-sensitive claims do not count.
    """
    return count_reproduced(record["claims"])


def badge(verdict: str) -> str:
    """HTML badge of a verdict."""
    return f'<span class="repro-badge {BADGE.get(verdict, "repro-planned")}">{html.escape(verdict)}</span>'


def card_html(record: dict) -> str:
    """The reproduction card of a page (without the download links, which Sphinx resolves)."""
    e = html.escape
    ok, total = counts(record)
    title = e(record.get("title") or "title not found")
    if record.get("paper_url"):
        title = f'<a href="{e(record["paper_url"])}">{title}</a>'
    authors = e(record.get("authors") or "authors not found")
    rerun = f"make run PAPER={record['slug']} SCALE=full"
    n_timed = sum(bool(c.get("volatile")) for c in record["claims"])
    timed = (
        f' <span class="repro-timed">(plus {n_timed} wall-clock timing{"s" if n_timed > 1 else ""} on the page, '
        "not counted: they vary from run to run)</span>"
        if n_timed
        else ""
    )
    s = summary(record["claims"])
    apart = (
        f' <span class="repro-impl">(and {s["implementation"]} check{"s" if s["implementation"] > 1 else ""} '
        "of our own implementation, listed apart)</span>"
        if s["implementation"]
        else ""
    )
    return (
        '<div class="repro-card-body">'
        f'<div class="repro-card-row"><span class="repro-card-key">Paper</span><span>{title}</span></div>'
        f'<div class="repro-card-row"><span class="repro-card-key">Authors</span><span>{authors}</span></div>'
        f'<div class="repro-card-row"><span class="repro-card-key">Verdict</span><span>{badge(record["verdict"])} '
        f'<span class="repro-count">{e(headline(record["claims"]))}</span>{timed}{apart}</span></div>'
        f'<div class="repro-card-row"><span class="repro-card-key">This run</span><span>scale <code>{e(record["scale"])}</code>, '
        f'seed <code>{record["seed"]}</code>, <span class="repro-runtime">{record["runtime_s"]:.1f} s</span> '
        "on one CPU thread</span></div>"
        + sweep.card_rows_html(record["slug"])
        + f'<div class="repro-card-row"><span class="repro-card-key">Rerun bigger</span><span><code>{e(rerun)}</code></span></div>'
        "</div>"
    )


def _download(target: str, text: str) -> addnodes.download_reference:
    ref = addnodes.download_reference("", "", reftarget=target, refexplicit=True, refdomain="", reftype="download")
    ref += nodes.literal(text, text)
    return ref


def insert_card(app: Any, doctree: nodes.document) -> None:
    """``doctree-read``: put the card under the title of every paper page."""
    docname = app.env.docname
    if not docname.startswith("book/papers/"):
        return
    slug = docname.rsplit("/", 1)[1]
    app.env.note_dependency(str(pipeline.CLAIMS / f"{slug}.json"))
    for scale in ("ci", "full"):
        app.env.note_dependency(str(sweep.record_path(slug, scale)))
    if (pipeline.NOTEBOOKS / f"{slug}.py").exists():  # whether a sweep record is stale depends on the inputs
        for path in pipeline.input_files(slug):
            app.env.note_dependency(str(path))
    record = load_record(slug)
    card = nodes.container(classes=["repro-card"])
    if record is None:
        card += nodes.paragraph(text=f"No claims record yet: run make book to create book/claims/{slug}.json.")
    else:
        card += nodes.raw("", card_html(record), format="html")
        para = nodes.paragraph(classes=["repro-downloads"])
        para += nodes.Text("Download: ")
        para += _download(f"/book/papers/{slug}.ipynb", f"{slug}.ipynb")
        para += nodes.Text(" (executed notebook) · ")
        para += _download(f"/notebooks/{slug}.py", f"{slug}.py")
        para += nodes.Text(" (jupytext source)")
        card += para
    section = next(iter(doctree.findall(nodes.section)), None)
    insert_robustness(doctree, slug, section)
    if section is None:
        doctree.insert(0, card)
        return
    title_index = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.title)), -1)
    position = title_index + 1
    # keep the italic one-line claim right under the title, card after it
    if len(section.children) > position and isinstance(section.children[position], nodes.paragraph):
        position += 1
    section.insert(position, card)


def insert_robustness(doctree: nodes.document, slug: str, top: nodes.section | None) -> None:
    """The robustness table (from the sweep records) at the end of the page's Claims section."""
    claims = next((s for s in doctree.findall(nodes.section)
                   if s.children and isinstance(s[0], nodes.title) and s[0].astext().strip() == "Claims"), None)
    where = claims if claims is not None else (top if top is not None else doctree)
    box = nodes.container(classes=["repro-robustness-box"])
    box += nodes.rubric(text="Across seeds and scales")
    box += nodes.raw("", sweep.robustness_html(slug), format="html")
    where += box


def check_sweep_records(app: Any) -> None:
    """``builder-inited``: the build fails on a sweep record that does not match the schema (stale is fine)."""
    from sphinx.errors import ExtensionError

    errors = sweep.schema_errors()
    if errors:
        raise ExtensionError("sweep records that do not match the schema (repro.sweep.SCHEMA):\n  "
                             + "\n  ".join(errors))


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
                env.note_dependency(str(pipeline.CLAIMS / f"{paper['slug']}.json"))
                for scale in ("ci", "full"):
                    env.note_dependency(str(sweep.record_path(paper["slug"], scale)))
        return [scoreboard_node()]


class StatusDirective(Directive):
    has_content = False

    def run(self) -> list[nodes.Node]:
        return [status_node()]


def scoreboard_html(link: Any) -> str:
    """The scoreboard; ``link(slug)`` returns the relative URL of a page, or ``None`` if it has none."""
    e = html.escape
    parts = pipeline.load_catalog()
    n_papers = sum(len(p["papers"]) for p in parts)
    with_pages = ok_all = total_all = 0
    swept = {"hold": 0, "claims": 0, "swept": 0}
    totals_all = {"pre_registered_reproduced": 0, "pre_registered": 0, "post_hoc_reproduced": 0, "post_hoc": 0,
                  "uninformative": 0, "machine_sensitive": 0, "implementation": 0}
    rows = []
    for part in parts:
        rows.append(f'<tr class="repro-part"><th colspan="7">{e(part["name"])}</th></tr>')
        for paper in part["papers"]:
            slug = paper["slug"]
            record = load_record(slug)
            url = link(slug)
            if record is None or url is None:
                rows.append(
                    f'<tr class="repro-row repro-planned-row" data-slug="{e(slug)}"><td>{e(part["name"])}</td>'
                    f'<td><span class="repro-slug">{e(slug)}</span><br><small>{e(paper["short"])}</small></td>'
                    f'<td>{badge("planned")}</td><td>–</td><td>–</td><td>–</td><td>–</td></tr>'
                )
                continue
            with_pages += 1
            ok, total = counts(record)
            ok_all += ok
            total_all += total
            s = summary(record["claims"])
            for key in totals_all:
                totals_all[key] += s[key]
            apart = []
            if s["post_hoc"]:
                apart.append(f'{s["post_hoc"]} post hoc')
            if s["uninformative"]:
                apart.append(f'{s["uninformative"]} uninformative')
            if s["machine_sensitive"]:
                apart.append(f'{s["machine_sensitive"]} machine-sensitive')
            apart_text = f'<br><small>{e(", ".join(apart))}</small>' if apart else ""
            stability, full_scale, nums = sweep.scoreboard_cells(slug)
            for key in swept:
                swept[key] += nums[key]
            rows.append(
                f'<tr class="repro-row" data-slug="{e(slug)}" data-verdict="{e(record["verdict"])}" '
                f'data-ok="{ok}" data-total="{total}"><td>{e(part["name"])}</td>'
                f'<td><a href="{e(url)}"><span class="repro-slug">{e(slug)}</span></a><br><small>{e(paper["short"])}</small></td>'
                f'<td>{badge(record["verdict"])}</td><td>{ok} / {total}{apart_text}</td><td>{stability}</td><td>{full_scale}</td>'
                f'<td>{record["runtime_s"]:.1f} s</td></tr>'
            )
    t = totals_all
    totals = (
        f'<p class="repro-totals"><strong>{with_pages}</strong> of {n_papers} papers have a page; '
        f"<strong>{ok_all}</strong> of {total_all} of their claims reproduced at ci scale, each against a control "
        f"that fails: {t['pre_registered_reproduced']} of {t['pre_registered']} pre-registered claims, "
        f"{t['post_hoc_reproduced']} of {t['post_hoc']} added or changed after the first run. "
        f"Not counted: {t['uninformative']} uninformative claims (their control passes too), "
        f"{t['machine_sensitive']} machine-sensitive ones and {t['implementation']} checks of our own code.</p>"
        f'<p class="repro-totals repro-totals-sweep" data-hold="{swept["hold"]}" data-claims="{swept["claims"]}">'
        + (f"Across seeds: <strong>{swept['hold']}</strong> of {swept['claims']} claims hold at every ci seed "
           f"(reproduced against a control that fails, at each seed), on the {swept['swept']} page{'s' if swept['swept'] != 1 else ''} with a ci sweep."
           if swept["swept"] else "Across seeds: no sweep yet (<code>make sweep</code>).")
        + "</p>"
    )
    head = ("<tr><th>part</th><th>paper</th><th>ci verdict (seed 0)</th><th>claims reproduced (against controls)</th>"
            "<th>seed stability (ci)</th><th>full scale</th><th>ci runtime</th></tr>")
    return f'{totals}<table class="repro-scoreboard"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'


def status_html(link: Any) -> str:
    """Execution report: every notebook's run, and the environment of the committed runs."""
    e = html.escape
    rows = []
    envs = {}
    for slug in pipeline.all_slugs():
        record = load_record(slug)
        meta = pipeline.page_metadata(slug)
        if meta.get("env"):
            envs[json.dumps(meta["env"], sort_keys=True)] = meta["env"]
        fresh = meta.get("input_hash") == pipeline.input_hash(slug)
        url = link(slug)
        name = f'<a href="{e(url)}">{e(slug)}</a>' if url else e(slug)
        runtime = f"{record['runtime_s']:.1f} s" if record else "–"
        rows.append(
            f"<tr><td>{name}</td><td>{runtime}</td>"
            f"<td>{e(str(meta.get('scale', '–')))}</td><td>{e(str(meta.get('seed', '–')))}</td>"
            f"<td><code>{e(meta.get('input_hash', '–'))}</code></td>"
            f"<td>{'up to date' if fresh else '<strong>stale: run make book</strong>'}</td></tr>"
        )
    head = "<tr><th>notebook</th><th>ci runtime</th><th>scale</th><th>seed</th><th>content hash</th><th>sources</th></tr>"
    table = f'<table class="repro-status"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
    env_rows = []
    for env in envs.values():
        pk = ", ".join(f"{k} {v}" for k, v in env.get("packages", {}).items())
        numerics = ", ".join(f"{k}={v or 'unset'}" for k, v in env.get("numerics", {}).items()) or "not recorded"
        env_rows.append(f"<li>Python {e(env.get('python', '?'))} on {e(env.get('platform', '?'))} "
                        f"(numerics: {e(numerics)}): {e(pk)}</li>")
    build = ", ".join(f"{k} {v}" for k, v in pipeline.package_versions(KEY_PACKAGES).items())
    return (
        table
        + "<h2>Environment of the committed runs</h2><ul>"
        + ("".join(env_rows) or "<li>not recorded</li>")
        + "</ul>"
        + f"<p>This site was built with Python {e(platform.python_version())}: {e(build)}.</p>"
        + "<h2>Sweep records</h2><p>Each page re-executed over seeds, at ci and full scale (<code>make sweep</code>; "
        "records in <code>book/sweeps/</code>). A record is <em>current</em> when it was run on the page's present "
        "inputs (the same content hash of source, shared code, kernels and pins); a <em>stale</em> one is shown as "
        "stale on the page and the scoreboard until the sweep is run again.</p>"
        + sweep.status_html()
    )


def resolve_placeholders(app: Any, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: replace the placeholders with HTML whose links are relative to ``docname``."""

    def link(slug: str) -> str | None:
        target = f"book/papers/{slug}"
        if target not in app.env.all_docs:
            return None
        return app.builder.get_relative_uri(docname, target)

    for node in list(doctree.findall(scoreboard_node)):
        node.replace_self(nodes.raw("", scoreboard_html(link), format="html"))
    for node in list(doctree.findall(status_node)):
        node.replace_self(nodes.raw("", status_html(link), format="html"))


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
    for rel in MATHJAX_FILES:
        if (src / rel).is_dir():
            shutil.copytree(src / rel, dest / rel, dirs_exist_ok=True)
        else:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / rel, dest / rel)


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
    """``env-get-outdated``: the landing and status pages summarise every record, so always rebuild them."""
    return [d for d in ("book/index", "book/status") if d in env.found_docs]


def setup(app: Any) -> dict:
    app.add_node(scoreboard_node)
    app.add_node(status_node)
    app.add_directive("repro-scoreboard", ScoreboardDirective)
    app.add_directive("repro-status", StatusDirective)
    app.connect("builder-inited", check_sweep_records)
    app.connect("doctree-read", insert_card, priority=400)
    app.connect("doctree-resolved", resolve_placeholders)
    app.connect("env-get-outdated", always_outdated)
    app.connect("build-finished", copy_mathjax)
    app.connect("html-page-context", drop_thebe, priority=900)
    app.add_css_file("repro.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
