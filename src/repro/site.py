"""The site's HTML generated from the records: card, claims table, headline claims, verdict, scoreboard, status.

Nothing here is typed by hand and nothing here decides a status: :mod:`repro.claims.judge` judges the claims
record (``book/claims/<slug>.json``) and the sweep records (``book/sweeps/{ci,full,confirm}/<slug>.json``), and
this module lays the result out. :mod:`repro.bookext` puts it into the pages when Sphinx builds them.
"""

from __future__ import annotations

import html
import json
import platform
from pathlib import Path

from repro import pipeline
from repro.claims.judge import (
    PageJudgement,
    TestJudgement,
    is_legacy,
    judge_page,
    outcome_word,
    per_seed_values,
    summary_numbers,
    tests_summary,
    verdict_sentence,
)
from repro.claims.record import comparators_of
from repro.claims.values import format_measured, shown_value, tolerance_of
from repro.sweep.records import SCALES, cached_input_hash, record_path, seeds_text, state, sweeps_of, value_stats

e = html.escape
KEY_PACKAGES = (*pipeline.KEY_PACKAGES, "jupyter-book")
BADGE_CLASS = {"reproduced": "repro-ok", "partial": "repro-partial", "not reproduced": "repro-no",
               "not specific": "repro-nonspecific", "seed-sensitive": "repro-seedsens",
               "illustrated, not tested": "repro-illustrated", "post hoc, unconfirmed": "repro-posthoc",
               "untested: awaiting comparators": "repro-awaiting",
               "awaiting a sweep": "repro-awaiting", "planned": "repro-planned"}
STATUS_CLASS = {"reproduced": "repro-st-ok", "not specific": "repro-st-nonspecific",
                "seed-sensitive": "repro-st-seedsens", "not reproduced": "repro-st-no",
                "partial": "repro-st-seedsens", "at the edge": "repro-st-edge",
                "awaiting a sweep": "repro-st-awaiting", "awaiting comparators": "repro-st-awaiting"}


def load_record(slug: str) -> dict | None:
    """The committed claims record of ``slug``, or ``None`` if the page has none yet."""
    path = pipeline.CLAIMS / f"{slug}.json"
    return json.loads(path.read_text()) if path.exists() else None


def judgement(slug: str, record: dict | None = None, records_dir: Path | None = None) -> PageJudgement | None:
    """The page's judgement from its committed records (``None`` without a claims record)."""
    record = record if record is not None else load_record(slug)
    return None if record is None else judge_page(record, sweeps_of(slug, records_dir))


def badge(word: str) -> str:
    return f'<span class="repro-badge {BADGE_CLASS.get(word, "repro-planned")}">{e(word)}</span>'


def status_span(word: str) -> str:
    cls = STATUS_CLASS.get(word.split(",")[0], "")
    return f'<span class="repro-st {cls}">{e(word)}</span>'


# ---------- the card ----------


def _full_line(j: PageJudgement) -> str:
    tests = [t for t in j.tests() if t.full is not None]
    if j.legacy or not j.tests():
        return ""
    if not tests:
        return '<span class="repro-sweep-none">no full-scale sweep yet</span>'
    n = max(t.full.n for t in tests)
    held = sum(t.full.status == "reproduced" for t in tests)
    stale = ' <strong class="repro-stale">(stale)</strong>' if j.sweep_states.get("full") == "stale" else ""
    return f"{held} of {len(tests)} tests hold at full scale ({n} seed{'s' if n > 1 else ''}){stale}"


def card_html(record: dict, records_dir: Path | None = None) -> str:
    """The reproduction card of a page (without the download links, which Sphinx resolves)."""
    slug = record["slug"]
    j = judge_page(record, sweeps_of(slug, records_dir))
    nums = summary_numbers(j)
    title = e(record.get("title") or "title not found")
    if record.get("paper_url"):
        title = f'<a href="{e(record["paper_url"])}">{title}</a>'
    authors = e(record.get("authors") or "authors not found")
    apart = [f"{nums[k]} {word}{'s' if nums[k] != 1 else ''}" for k, word in
             (("illustrations", "illustration"), ("implementation", "implementation check")) if nums[k]]
    n_timed = j.count("timing")
    if n_timed:
        apart.append(f"{n_timed} wall-clock timing{'s' if n_timed != 1 else ''}")
    tested, n_head = nums["headlines_tested"], nums["headlines"]
    head = (f"{tested} of {n_head}" if n_head else "not mapped yet") + (
        " <small>(listed at the top of the claims section)</small>" if n_head else "")
    rows = [("Paper", title), ("Authors", authors),
            ("Verdict", f'{badge(j.badge)} <span class="repro-count">{e(tests_summary(j))}</span>'),
            ("Headline claims tested", f'<span class="repro-headlines" data-tested="{tested}" '
                                       f'data-of="{n_head}">{head}</span>')]
    if apart:
        rows.append(("Not counted", e(", ".join(apart)) + " (shown on the page)"))
    full = _full_line(j)
    if full:
        rows.append(("Full scale", full))
    if j.sweep_states.get("ci") == "stale":
        rows.append(("Sweeps", f'<strong class="repro-stale">stale: the inputs changed since the ci sweep '
                               f"(<code>make sweep PAPER={e(slug)}</code>)</strong>"))
    rows.append(("This run", f'scale <code>{e(record["scale"])}</code>, seed <code>{record["seed"]}</code>, '
                             f'<span class="repro-runtime">{record["runtime_s"]:.1f} s</span> on one CPU thread'))
    rows.append(("Rerun bigger", f"<code>make run PAPER={e(slug)} SCALE=full</code>"))
    body = "".join(f'<div class="repro-card-row"><span class="repro-card-key">{k}</span><span>{v}</span></div>'
                   for k, v in rows)
    return f'<div class="repro-card-body" data-badge="{e(j.badge)}">{body}</div>'


# ---------- the claims section ----------


def _value_cell(c: dict, x) -> str:  # noqa: ANN001
    text = shown_value(x, tolerance_of(c))
    return f'<span class="repro-approx">{e(text[1:])}</span>' if text.startswith("~") else e(text)


def _comparator_cells(t: TestJudgement) -> tuple[str, str, str]:
    """(the ablation's value cell, the baselines' value cell, the legend naming them) of a test's row."""
    c = t.claim
    abl, legend = "–", []
    if c.get("ablation"):
        a = c["ablation"]
        abl = _value_cell(c, a["value"])
        legend.append(f'<strong>ablation</strong> (without {e(a.get("ingredient") or "?")}): {e(a["label"])}')
    values, names = [], []
    for i, (kind, comp) in enumerate([x for x in comparators_of(c) if x[0] != "ablation"], 1):
        tag = "w" if kind == "wrong input" else "b"
        values.append(f'<span class="repro-cmp">{tag}{i}</span> {_value_cell(c, comp["value"])}')
        names.append(f'<span class="repro-cmp">{tag}{i}</span> {e(comp["label"])}')
    if names:
        word = "wrong inputs" if all(k == "wrong input" for k, _ in comparators_of(c) if k != "ablation") else "baselines"
        legend.append(f"<strong>{word}</strong>: " + "; ".join(names))
    return abl, "<br>".join(values) or "–", " ".join(legend)


def _agg_cell(agg, stale: bool) -> str:  # noqa: ANN001
    if agg is None:
        return "–"
    mark = ' <small class="repro-stale">stale</small>' if stale else ""
    other = "" if agg.status in ("reproduced", "not reproduced") or agg.holds else f" <small>({e(agg.status)})</small>"
    return f'<span title="{e(agg.status)}">{agg.holds}/{agg.n}</span>{other if agg.n < 10 else ""}{mark}'


def _seed_stats(slug: str, scale_rec: dict | None, cid: str) -> str:
    values = per_seed_values(scale_rec, cid)
    stats = value_stats([v.get("measured") for v in values.values()]) if values else None
    if stats is None:
        return ""
    if "yes" in stats:
        return f"yes at {stats['yes']} of {stats['of']}"
    bound = "≤ " if stats.get("bound") else ""
    if stats["min"] == stats["max"]:
        return bound + format_measured(stats["median"])
    return f'{bound}{format_measured(stats["median"])} ({format_measured(stats["min"])} to {format_measured(stats["max"])})'


def claims_table_html(slug: str, record: dict | None = None, records_dir: Path | None = None) -> str:
    """The judged claims table: method, ablation and baselines side by side, outcome at seed 0, over the ci seeds,
    at full scale, and the status; then the illustrations, implementation checks and old-model claims."""
    record = record if record is not None else load_record(slug)
    if record is None:
        return ""
    j = judge_page(record, sweeps_of(slug, records_dir))
    sweeps = sweeps_of(slug, records_dir)
    ci_state, ci = sweeps["ci"]
    full_state, full = sweeps["full"]
    out, notes = [], []
    tests = j.tests()
    if tests:
        rows = []
        for t in tests:
            c = t.claim
            flags = []
            if c.get("kind") == "theorem":
                flags.append("theorem")
            if c.get("post_hoc"):
                flags.append("post hoc †")
            if c.get("setting"):
                flags.append(f"setting: {c['setting']}")
            flag_html = f'<br><small class="repro-flags">{e(", ".join(flags))}</small>' if flags else ""
            abl, bases, legend = _comparator_cells(t)
            tol = tolerance_of(c)
            if tol.is_wide:
                notes.append(f"<li><code>{e(t.id)}</code>: values repeat within rel {tol.rel:g} / abs {tol.abs:g} "
                             f"({e(tol.why)}); a value that close to its threshold is at the edge, never a pass.</li>")
            if c.get("post_hoc_why"):
                notes.append(f"<li><code>{e(t.id)}</code> † {e(c['post_hoc_why'])}"
                             f"{' — ' + e(t.note) if t.note else ''}</li>")
            if c.get("independent"):
                notes.append(f"<li><code>{e(t.id)}</code>: the measured side is {e(c['independent'])}.</li>")
            status = t.status + (f" ({t.note})" if t.note and not c.get("post_hoc") else "")
            rows.append(
                f'<tr data-claim="{e(t.id)}" data-status="{e(t.status)}" data-counted="{str(t.counted).lower()}">'
                f'<td><code>{e(t.id)}</code>{flag_html}</td>'
                f'<td>{e(c["criterion"])}</td><td>{_value_cell(c, c["measured"])}</td><td>{abl}</td><td>{bases}</td>'
                f'<td>{e(t.seed0)}</td><td>{_agg_cell(t.ci, ci_state == "stale")}</td>'
                f'<td>{_agg_cell(t.full, full_state == "stale")}</td><td>{status_span(status)}</td></tr>'
                f'<tr class="repro-detail" data-detail="{e(t.id)}"><td colspan="9"><small>{e(c["statement"])} '
                f"{legend}</small></td></tr>")
        head = ("<tr><th>test</th><th>criterion</th><th>method</th><th>ablation</th><th>naive baselines</th>"
                "<th>seed 0</th><th>ci seeds</th><th>full scale</th><th>status</th></tr>")
        out.append(f'<div class="repro-scroll repro-wide"><table class="repro-claims repro-judged"><thead>{head}</thead>'
                   f'<tbody>{"".join(rows)}</tbody></table></div>')
        about = (f"Values at seed 0 (ci scale). <em>ci seeds</em>: at how many of the ci sweep's seeds "
                 f"{seeds_text(ci['seeds']) if ci else '(none yet)'} the method passes and every comparator fails; "
                 "the status needs 8 of 10. <em>full scale</em>: the same over the full-scale seeds.")
        out.append(f'<p class="repro-about">{about}</p>')
    legacy = [t for t in j.checks if t.role == "test" and is_legacy(t.claim)]
    if legacy:
        rows = "".join(
            f'<tr data-claim="{e(t.id)}" data-status="awaiting comparators"><td><code>{e(t.id)}</code><br>'
            f'<small>{e(t.claim["statement"])}</small></td><td>{e(t.claim["criterion"])}</td>'
            f'<td>{_value_cell(t.claim, t.claim["measured"])}</td>'
            f'<td>{_value_cell(t.claim, t.claim["legacy_control"]["value"])}<br>'
            f'<small>{e(t.claim["legacy_control"]["label"] or "")}</small></td>'
            f'<td>{e(_seed_stats(slug, ci, t.id)) or "–"}</td>{"<td>" + status_span("awaiting comparators") + "</td>"}</tr>'
            for t in legacy)
        stale = ' <strong class="repro-stale">(stale)</strong>' if ci_state == "stale" else ""
        out.append('<p class="repro-about">These claims were recorded in the book\'s old model: one control each, '
                   "often built to fail. Until each has the paper's ablation and the strongest naive baseline beside "
                   "it, none is counted.</p>"
                   '<div class="repro-scroll"><table class="repro-claims repro-legacy"><thead><tr><th>claim</th>'
                   "<th>criterion</th><th>measured</th><th>old control</th>"
                   f"<th>median over ci seeds{stale}</th><th>status</th></tr></thead><tbody>{rows}</tbody></table></div>")
    for role, title in (("illustration", "Illustrations (computed and shown, never counted)"),
                        ("implementation", "Checks of our implementation (not claims, never counted)")):
        items = [t for t in j.checks if t.role == role]
        if items:
            rows = "".join(
                f'<tr data-claim="{e(t.id)}"><td><code>{e(t.id)}</code><br><small>{e(t.claim["statement"])}</small></td>'
                f'<td>{e(t.claim["criterion"])}</td><td>{_value_cell(t.claim, t.claim["measured"])}</td>'
                f'<td><small>{e(t.claim.get("why") or "an identity of our own code")}</small></td></tr>' for t in items)
            out.append(f'<p class="repro-impl-title">{title}</p><div class="repro-scroll"><table '
                       f'class="repro-claims repro-{role}"><thead><tr><th>check</th><th>criterion</th><th>value</th>'
                       f"<th>why it is not a test</th></tr></thead><tbody>{rows}</tbody></table></div>")
    if notes:
        out.append(f'<details class="repro-notes"><summary>Notes on the tests ({len(notes)})</summary>'
                   f'<ul>{"".join(notes)}</ul></details>')
    return "".join(out)


def headlines_html(slug: str, record: dict | None = None, records_dir: Path | None = None) -> str:
    """The paper's headline claims, each with the tests that bear on it (and their statuses) or why it is untested."""
    record = record if record is not None else load_record(slug)
    if record is None:
        return ""
    j = judge_page(record, sweeps_of(slug, records_dir))
    if not j.headlines:
        return ('<p class="repro-headlines-none">The paper\'s headline claims are not mapped to tests on this page '
                "yet.</p>")
    by = {t.id: t for t in j.checks}
    rows = []
    for h in j.headlines:
        if h["tests"]:
            cell = "<br>".join(f"<code>{e(x)}</code>: {status_span(outcome_word(by[x]))}" for x in h["tests"] if x in by)
        else:
            cell = f'<em>not testable here:</em> {e(h["untestable"])}'
        rows.append(f'<tr data-headline="{e(h["id"])}"><td>{e(h["text"])}</td><td>{cell}</td></tr>')
    tested, n = j.headlines_tested()
    return (f'<p class="repro-about">The paper\'s headline claims: {tested} of {n} tested here.</p>'
            '<div class="repro-scroll"><table class="repro-claims repro-headline-table"><thead><tr>'
            "<th>headline claim (our words)</th><th>tests, and their status</th></tr></thead>"
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def verdict_markdown(slug: str, records_dir: Path | None = None) -> str:
    """The verdict section's opening words, from the badge."""
    j = judgement(slug, records_dir=records_dir)
    return "" if j is None else verdict_sentence(j)


def status_word(slug: str, test_id: str, records_dir: Path | None = None) -> str:
    """What the prose may cite of one test's status (the role ``{repro-status}``)."""
    j = judgement(slug, records_dir=records_dir)
    if j is None:
        raise KeyError(f"{slug}: no claims record")
    t = next((t for t in j.checks if t.id == test_id), None)
    if t is None:
        raise KeyError(f"{slug}: no check {test_id!r} in its record")
    return outcome_word(t)


def seed_count(slug: str, spec: str, records_dir: Path | None = None) -> str:
    """A count over a page's ci sweep for its prose (the role ``{repro-seeds}``), rendered from the record.

    ``spec`` is ``test-id:who:status``: ``who`` is ``method``, ``ablation`` or ``baselineN`` (1-based), and
    ``status`` one of ``pass``, ``fail``, ``edge``, ``partial`` (the value's status under the test's criterion and
    band), or ``who`` is ``test`` with a seed outcome (``reproduced``, ``not-specific``, ``not-reproduced``,
    ``at-the-edge``). Returns ``"k of N"``. A count typed into the prose would go stale with the next sweep.
    """
    from repro.claims.judge import rule_of, seed_outcome, value_status
    from repro.claims.values import tolerance_of

    try:
        cid, who, status = spec.strip().split(":")
    except ValueError as exc:
        raise KeyError(f"{slug}: {spec!r} is not test-id:who:status") from exc
    record = load_record(slug)
    claim = next((c for c in (record or {}).get("claims", []) if c["id"] == cid), None)
    _, ci = state(slug, "ci", records_dir)
    if claim is None or ci is None:
        raise KeyError(f"{slug}: no test {cid!r} or no ci sweep")
    values = per_seed_values(ci, cid)
    if who == "test":
        word = status.replace("-", " ")
        hits = sum(seed_outcome(claim, v) == word for v in values.values())
    else:
        def pick(v: dict):  # noqa: ANN202
            if who == "method":
                return v.get("measured")
            if who == "ablation":
                return v.get("ablation")
            if who.startswith("baseline") and who[8:].isdigit():
                b = v.get("baselines") or []
                i = int(who[8:]) - 1
                return b[i] if 0 <= i < len(b) else None
            raise KeyError(f"{slug}: who {who!r} is method, ablation or baselineN")
        rule, tol = rule_of(claim), tolerance_of(claim)
        hits = sum(value_status(rule, pick(v), tol) == status for v in values.values())
    return f"{hits} of {len(values)}"


# ---------- the book at a glance, the scoreboard ----------

TEST_COLORS = {"reproduced": "#007a5a", "not specific": "#6d4c9f", "seed-sensitive": "#a15c00",
               "not reproduced": "#b3261e"}
PAGE_COLORS = {"illustrated, not tested": "#3b6e8f", "post hoc, unconfirmed": "#8a6d3b",
               "untested: awaiting comparators": "#9ca3af"}


def book_numbers() -> list[dict]:
    """Per part of the catalogue: pages, tests by status, pages that only illustrate or await comparators."""
    out = []
    for part in pipeline.load_catalog():
        row = {"part": part["name"], "papers": len(part["papers"]), "pages": 0,
               "tests": dict.fromkeys(TEST_COLORS, 0), "badges": {}}
        for paper in part["papers"]:
            j = judgement(paper["slug"])
            if j is None:
                continue
            row["pages"] += 1
            row["badges"][j.badge] = row["badges"].get(j.badge, 0) + 1
            for status, k in j.status_counts().items():
                row["tests"][status] = row["tests"].get(status, 0) + k
        out.append(row)
    return out


def glance_svg(numbers: list[dict] | None = None) -> str:
    """The landing figure: per part, the counted tests by status, and the pages that only illustrate or await
    their comparators (an inline SVG drawn from the records at build time)."""
    numbers = numbers if numbers is not None else book_numbers()
    label_w = 16 + 6.2 * max([len(r["part"]) for r in numbers] + [10])  # 11 px text: about 6 px a character
    bar_w, row_h, gap = 300, 22, 16
    max_tests = max([sum(r["tests"].values()) for r in numbers] + [1])
    max_pages = max([r["papers"] for r in numbers] + [1])
    width = label_w + 2 * bar_w + 3 * gap
    height = 46 + row_h * len(numbers) + 54
    parts = [f'<svg class="repro-glance" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="100%" role="img" aria-label="The book at a glance: tests and pages per part">',
             f'<text x="{label_w}" y="16" class="repro-glance-title">counted tests, by status over the ci seeds</text>',
             f'<text x="{label_w + bar_w + 2 * gap}" y="16" class="repro-glance-title">pages with no counted test</text>']
    for i, r in enumerate(numbers):
        y = 30 + i * row_h
        parts.append(f'<text x="{label_w - 8}" y="{y + 14}" text-anchor="end" class="repro-glance-part">{e(r["part"])}</text>')
        x = label_w
        for status, color in TEST_COLORS.items():
            k = r["tests"].get(status, 0)
            if k:
                w = bar_w * k / max_tests
                parts.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" fill="{color}" '
                             f'data-part="{e(r["part"])}" data-status="{e(status)}" data-count="{k}">'
                             f"<title>{e(r['part'])}: {k} {e(status)}</title></rect>")
                x += w
        if x == label_w:
            parts.append(f'<text x="{label_w + 4}" y="{y + 14}" class="repro-glance-none">no counted test yet</text>')
        x = label_w + bar_w + 2 * gap
        for badge_word, color in PAGE_COLORS.items():
            k = r["badges"].get(badge_word, 0)
            if k:
                w = bar_w * k / max_pages
                parts.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" fill="{color}" '
                             f'data-part="{e(r["part"])}" data-badge="{e(badge_word)}" data-count="{k}">'
                             f"<title>{e(r['part'])}: {k} page(s) {e(badge_word)}</title></rect>")
                x += w
    y = 30 + len(numbers) * row_h + 14
    x = label_w
    for word, color in (*TEST_COLORS.items(), *PAGE_COLORS.items()):
        item = 14 + 6.2 * len(word) + 14
        if x + item > width:
            x, y = label_w, y + 14
        parts.append(f'<rect x="{x:.0f}" y="{y}" width="10" height="10" fill="{color}"/>'
                     f'<text x="{x + 14:.0f}" y="{y + 9}" class="repro-glance-key">{e(word)}</text>')
        x += item
    parts.append("</svg>")
    return "".join(parts)


def _pages(k: int, one: str, many: str) -> str:
    """``"1 page only illustrates"``, ``"3 pages only illustrate"``: the count with its noun and verb agreeing."""
    return f"1 page {one}" if k == 1 else f"{k} pages {many}"


def glance_html() -> str:
    """The book's totals in one line, and the landing figure."""
    numbers = book_numbers()
    tests = {s: sum(r["tests"].get(s, 0) for r in numbers) for s in TEST_COLORS}
    badges: dict[str, int] = {}
    for r in numbers:
        for b, k in r["badges"].items():
            badges[b] = badges.get(b, 0) + k
    n_tests = sum(tests.values())
    line = (f'<p class="repro-glance-line" data-tests="{n_tests}" data-reproduced="{tests["reproduced"]}">'
            f'<strong>{sum(r["pages"] for r in numbers)}</strong> pages; <strong>{tests["reproduced"]}</strong> of '
            f"{n_tests} counted tests reproduced, {tests['not specific']} not specific, {tests['seed-sensitive']} "
            f"seed-sensitive, {tests['not reproduced']} not reproduced; "
            f"{_pages(badges.get('illustrated, not tested', 0), 'only illustrates', 'only illustrate')}; "
            f"{_pages(badges.get('post hoc, unconfirmed', 0), 'has only unconfirmed post-hoc tests', 'have only unconfirmed post-hoc tests')}; "
            f"{_pages(badges.get('untested: awaiting comparators', 0), 'awaits comparators', 'await comparators')}.</p>")
    return f'<div class="repro-glance-box">{line}{glance_svg(numbers)}</div>'


SCOREBOARD_COLUMNS = ("paper", "badge", "headline claims tested", "tests reproduced", "full scale", "ci runtime")


def scoreboard_html(link) -> str:  # noqa: ANN001
    """The scoreboard; ``link(slug)`` returns the relative URL of a page, or ``None`` if it has none.

    One line per paper, grouped by part; the header cells sort and the select filters by badge
    (``_static/repro-scoreboard.js``, offline).
    """
    parts = pipeline.load_catalog()
    rows, seen_badges = [], []
    for part in parts:
        rows.append(f'<tr class="repro-part" data-part="{e(part["name"])}"><th colspan="6">{e(part["name"])}</th></tr>')
        for paper in part["papers"]:
            slug = paper["slug"]
            record = load_record(slug)
            url = link(slug)
            name = (f'<a href="{e(url)}" title="{e(paper["short"])}">{e(slug)}</a>' if url and record
                    else f'<span title="{e(paper["short"])}">{e(slug)}</span>')
            if record is None or url is None:
                rows.append(f'<tr class="repro-row repro-planned-row" data-slug="{e(slug)}" data-part="{e(part["name"])}" '
                            f'data-badge="planned"><td>{name}</td><td>{badge("planned")}</td>'
                            "<td>–</td><td>–</td><td>–</td><td>–</td></tr>")
                continue
            j = judge_page(record, sweeps_of(slug))
            n = summary_numbers(j)
            if j.badge not in seen_badges:
                seen_badges.append(j.badge)
            others = ", ".join(f"{k} {s}" for s, k in n["statuses"].items() if s != "reproduced")
            tests = (f'{n["reproduced"]} / {n["counted"]}' + (f" <small>({e(others)})</small>" if others else "")
                     if n["counted"] else ("–" if not n["legacy"] else f'<small>{n["legacy"]} awaiting</small>'))
            heads = f'{n["headlines_tested"]} / {n["headlines"]}' if n["headlines"] else "–"
            full = _full_line(j) or "–"
            full_held = sum(t.full is not None and t.full.status == "reproduced" for t in j.tests())
            rows.append(
                f'<tr class="repro-row" data-slug="{e(slug)}" data-part="{e(part["name"])}" data-badge="{e(j.badge)}" '
                f'data-ok="{n["reproduced"]}" data-total="{n["counted"]}" data-headlines="{n["headlines_tested"]}" '
                f'data-full="{full_held}" data-runtime="{record["runtime_s"]}"><td>{name}</td><td>{badge(j.badge)}</td>'
                f'<td>{heads}</td><td>{tests}</td><td><small>{full}</small></td><td>{record["runtime_s"]:.1f} s</td></tr>')
    options = "".join(f'<option value="{e(b)}">{e(b)}</option>' for b in seen_badges)
    control = ('<p class="repro-scoreboard-controls"><label>Show <select class="repro-filter">'
               f'<option value="">every badge</option>{options}</select></label> '
               '<small>(click a column\'s header to sort by it)</small></p>')
    sort_keys = ("slug", "badge", "headlines", "ok", "full", "runtime")
    head = "".join(f'<th data-sort="{k}">{e(c)}</th>' for k, c in zip(sort_keys, SCOREBOARD_COLUMNS))
    return (f'{control}<div class="repro-scroll repro-scoreboard-wrap"><table class="repro-scoreboard">'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


# ---------- the status page ----------


def sweep_status_html(records_dir: Path | None = None) -> str:
    """For every notebook and kind of sweep, whether its record is current."""
    rows = []
    for slug in pipeline.all_slugs():
        cells = []
        for scale in SCALES:
            st, rec = state(slug, scale, records_dir)
            if rec is None:
                cells.append("<td>–</td>" if scale == "confirm" else "<td>no sweep yet</td>")
                continue
            label = ("current" if st == "current"
                     else f'<strong class="repro-stale">stale: inputs changed (<code>{e(rec["input_hash"])}</code>)</strong>')
            failed = f", {len(rec['failed'])} failed" if rec["failed"] else ""
            frozen = f", frozen at <code>{e(rec['frozen_commit'][:10])}</code>" if rec.get("frozen_commit") else ""
            word = "seeds" if len(rec["seeds"]) > 1 else "seed"
            cells.append(f"<td>{word} {seeds_text(rec['seeds'])}{failed}{frozen}: {label}</td>")
        rows.append(f"<tr data-slug=\"{e(slug)}\"><td>{e(slug)}</td>{''.join(cells)}</tr>")
    head = "<tr><th>notebook</th><th>ci sweep</th><th>full-scale sweep</th><th>confirmation (seeds 10–19)</th></tr>"
    return (f'<div class="repro-scroll"><table class="repro-sweep-status"><thead>{head}</thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def status_html(link) -> str:  # noqa: ANN001
    """Execution report: every notebook's run, the environment of the committed runs, the sweep records."""
    rows = []
    envs = {}
    for slug in pipeline.all_slugs():
        record = load_record(slug)
        meta = pipeline.page_metadata(slug)
        if meta.get("env"):
            envs[json.dumps(meta["env"], sort_keys=True)] = meta["env"]
        fresh = meta.get("input_hash") == cached_input_hash(slug)
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
    table = f'<div class="repro-scroll"><table class="repro-status"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table></div>'
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
        + "<h2>Sweep records</h2><p>Each page re-executed over seeds (<code>make sweep</code>; records in "
        "<code>book/sweeps/</code>): the ci sweep over the design seeds 0–9, the full-scale sweep, and, for a page "
        "with a post-hoc test, the confirmation sweep over the held-out seeds 10–19 run from a frozen commit. A "
        "record is <em>current</em> when it was run on the page's present inputs (the same content hash of its "
        "code, shared code, kernels and pins); a <em>stale</em> one is shown as stale and gives no test a status "
        "until the sweep is run again.</p>"
        + sweep_status_html()
    )


def record_files(slug: str) -> list[Path]:
    """The record files a page's generated parts depend on (Sphinx notes them as dependencies).

    Only those that exist: Sphinx counts a missing dependency as changed, which would rebuild the page every time.
    A record that appears later is picked up all the same: the landing and status pages are always rebuilt, and
    a page whose sweep appears is re-read when its inputs or its claims record change.
    """
    paths = [pipeline.CLAIMS / f"{slug}.json", *(record_path(slug, scale) for scale in SCALES)]
    return [p for p in paths if p.exists()]
