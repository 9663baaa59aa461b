"""The built site, as a reader gets it: tested in headless Chromium against a loopback server.

Runs after the book is built (``make test`` builds it first). Needs Debian's
``chromium`` (``/usr/bin/chromium``); without it the browser tests are skipped
with a plain message, unless ``REPRO_REQUIRE_BROWSER=1`` (set by ``.ci/run``),
in which case they fail.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

import matplotlib.image as mpimg
import pytest

from repro import pipeline
from repro import site as book_site
from repro.claims import judge as rules  # not `import tests_summary`: pytest would collect it as a test

ROOT = pipeline.ROOT
HTML = ROOT / "book" / "_build" / "html"
SHOTS = ROOT / "book" / "_build" / "screenshots"
SHARED_README = ROOT.parent / "shared" / "papers" / "README.md"
CHROMIUM = os.environ.get("REPRO_CHROMIUM", "/usr/bin/chromium")
RECORDS = {p.stem: json.loads(p.read_text()) for p in sorted(pipeline.CLAIMS.glob("*.json"))}
PAGE_BUDGET_BYTES = 1_000_000

pytestmark = pytest.mark.skipif(not (HTML / "index.html").exists(), reason="site not built: run make book first")


def catalog_slugs() -> list[str]:
    return [p["slug"] for part in pipeline.load_catalog() for p in part["papers"]]


# ---------- file-level checks (no browser needed) ----------


@pytest.mark.parametrize("slug", sorted(RECORDS))
def test_page_is_light(slug):
    """A paper page's own HTML and images stay under 1 MB (theme and MathJax not counted)."""
    page = HTML / "book" / "papers" / f"{slug}.html"
    text = page.read_text()
    images = set(re.findall(r'<img[^>]+src="([^"]+)"', text))
    total = page.stat().st_size + sum((page.parent / src).resolve().stat().st_size for src in images if "://" not in src)
    assert total < PAGE_BUDGET_BYTES, f"{slug}: {total / 1e6:.2f} MB"


@pytest.mark.parametrize("slug", sorted(RECORDS))
def test_figures_are_opaque_and_high_density(slug):
    """Figures have no transparent pixels (legible in dark mode) and twice the pixels of their display size."""
    page = HTML / "book" / "papers" / f"{slug}.html"
    images = [src for src in re.findall(r'<img[^>]+src="([^"]+)"', page.read_text()) if src.endswith(".png")]
    assert images, f"{slug}: no figures"
    for src in images:
        img = mpimg.imread(page.parent / src)
        if img.ndim == 3 and img.shape[2] == 4:
            assert img[..., 3].min() == 1.0, f"{src} has transparent pixels"
    nb = json.loads((pipeline.PAGES / f"{slug}.ipynb").read_text())
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if "image/png" in out.get("data", {}):
                width = out.get("metadata", {}).get("image/png", {}).get("width")
                assert width, f"{slug}: a PNG without a display width (not retina)"


SITE_BUDGET_BYTES = 90_000_000


def test_the_site_is_light_and_holds_each_executed_notebook_once():
    """The whole site stays under 90 MB; each executed notebook stands in it once (under _downloads, for the card's
    download link), never a second time under _sources."""
    total = sum(p.stat().st_size for p in HTML.rglob("*") if p.is_file())
    assert total < SITE_BUDGET_BYTES, f"the site weighs {total / 1e6:.1f} MB"
    for slug in RECORDS:
        copies = [p for p in HTML.rglob(f"{slug}.ipynb")]
        assert len(copies) == 1 and copies[0].parent.parent.name == "_downloads", f"{slug}: {copies}"


def test_no_external_resources_in_html():
    """No page pulls scripts, styles or fonts from another host."""
    pattern = re.compile(r'<(?:script|link|img)[^>]+(?:src|href)="(https?:)?//', re.I)
    for page in HTML.rglob("*.html"):
        assert not pattern.search(page.read_text()), f"{page.relative_to(HTML)} loads an external resource"
    assert (HTML / "_static" / "mathjax" / "tex-mml-chtml.js").exists()


def test_every_page_links_the_favicon():
    """Every page names the book's icon, and the site's root has it (without, browsers ask for /favicon.ico: 404)."""
    assert (HTML / "favicon.ico").read_bytes() == (HTML / "_static" / "favicon.ico").read_bytes() != b""
    for page in HTML.rglob("*.html"):
        text = page.read_text()
        if page.relative_to(HTML).parts[0].startswith("_") or re.search(r'http-equiv="refresh"', text, re.I):
            continue  # the theme's templates in _static, the root redirect page
        link = re.search(r'<link rel="icon" href="([^"]+)"', text)
        assert link, f"{page.relative_to(HTML)} names no favicon"
        assert (page.parent / link.group(1)).resolve() == (HTML / "_static" / "favicon.ico").resolve()


# ---------- browser checks ----------


@pytest.fixture(scope="module")
def site():
    """Serve the built site on 127.0.0.1 (a free port) for the duration of the module."""
    handler = functools.partial(QuietHandler, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # noqa: D102 - keep test output clean
        pass


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"Chromium not found at {CHROMIUM}: browser tests SKIPPED (apt-get install chromium to run them)"
        if os.environ.get("REPRO_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        print("\n" + message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
            ],
        )
        yield b
        b.close()


class Visit:
    """A browser page that records every request leaving loopback and every console error."""

    def __init__(self, browser, site):
        self.context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        self.external: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("response", lambda r: self.errors.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)
        self.site = site

    def _route(self, route):
        url = route.request.url
        host = urlparse(url).hostname
        if url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            self.external.append(url)
            route.abort()

    def goto(self, path: str):
        self.page.goto(f"{self.site}/{path}", wait_until="load")
        return self.page

    def close(self):
        self.context.close()
        assert not self.external, f"requests left loopback: {self.external}"
        assert not self.errors, f"console errors: {self.errors}"


@pytest.fixture
def visit(browser, site):
    v = Visit(browser, site)
    yield v
    v.close()


def test_landing_scoreboard_lists_every_paper(visit):
    page = visit.goto("book/index.html")
    rows = page.eval_on_selector_all("tr.repro-row", "rs => rs.map(r => r.dataset.slug)")
    expected = catalog_slugs()
    if SHARED_README.exists():
        readme_slugs = re.findall(r"^\| [A-Z][^|]+ \| ([a-z0-9, -]+) \|$", SHARED_README.read_text(), re.M)
        expected_readme = [s.strip() for row in readme_slugs for s in row.split(",")]
        assert sorted(expected) == sorted(expected_readme)
    assert sorted(rows) == sorted(expected)
    for slug in RECORDS:
        row = page.locator(f'tr.repro-row[data-slug="{slug}"]')
        assert row.get_attribute("data-badge") == book_site.judgement(slug).badge, "the badge comes from the judge"
        assert row.locator("a").count() == 1, f"{slug}: scoreboard row has no link"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "landing.png"), full_page=False)


def test_landing_figure_shows_the_book_at_a_glance(visit):
    """The figure at the top of the landing page is drawn from the records: per part, tests by status and pages
    without tests; the totals line agrees with the judge."""
    page = visit.goto("book/index.html")
    figure = page.locator("svg.repro-glance")
    assert figure.count() == 1
    numbers = book_site.book_numbers()
    labels = figure.locator("text.repro-glance-part").evaluate_all("ts => ts.map(t => t.textContent)")
    assert labels == [r["part"] for r in numbers]
    shown = sum(int(c) for c in figure.locator("rect[data-status]").evaluate_all("rs => rs.map(r => r.dataset.count)"))
    assert shown == sum(sum(r["tests"].values()) for r in numbers)
    pages = sum(int(c) for c in figure.locator("rect[data-badge]").evaluate_all("rs => rs.map(r => r.dataset.count)"))
    assert pages == sum(r["badges"].get(b, 0) for r in numbers for b in book_site.PAGE_COLORS)
    line = page.locator(".repro-glance-line")
    assert int(line.get_attribute("data-tests")) == sum(sum(r["tests"].values()) for r in numbers)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".repro-glance-box").screenshot(path=str(SHOTS / "landing-figure.png"))


def test_scoreboard_filters_by_badge_and_sorts_by_column(visit):
    page = visit.goto("book/index.html")
    table = page.locator("table.repro-scoreboard")
    rows = table.locator("tr.repro-row")
    badges = rows.evaluate_all("rs => rs.map(r => r.dataset.badge)")
    wanted = max(set(badges), key=badges.count)
    page.select_option("select.repro-filter", wanted)
    visible = table.locator("tr.repro-row:not([hidden])").evaluate_all("rs => rs.map(r => r.dataset.badge)")
    assert visible and set(visible) == {wanted} and len(visible) == badges.count(wanted)
    page.select_option("select.repro-filter", "")
    assert table.locator("tr.repro-row:not([hidden])").count() == len(badges)
    header = table.locator('th[data-sort="runtime"]')
    header.click()
    runtimes = table.locator("tr.repro-row:not([hidden])").evaluate_all(
        "rs => rs.map(r => r.dataset.runtime).filter(x => x !== undefined).map(Number)")
    assert runtimes == sorted(runtimes) and table.get_attribute("data-sort") == "runtime:asc"
    header.click()
    runtimes = table.locator("tr.repro-row:not([hidden])").evaluate_all(
        "rs => rs.map(r => r.dataset.runtime).filter(x => x !== undefined).map(Number)")
    assert runtimes == sorted(runtimes, reverse=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    height = page.evaluate("document.querySelector('table.repro-scoreboard').getBoundingClientRect().height")
    print(f"\nscoreboard height at 1280 px: {height:.0f} px")
    assert height < 57 * 60, f"the scoreboard is {height:.0f} px tall: one line per paper"


CLIPPED_MATH = """() => Array.from(document.querySelectorAll('mjx-container[display="true"]')).filter(m => {
    const style = getComputedStyle(m);
    const scrolls = ['auto', 'scroll'].includes(style.overflowX);
    const column = m.closest('article, main') || document.body;
    const outside = m.getBoundingClientRect().right > column.getBoundingClientRect().right + 2;
    return outside || (m.scrollWidth > m.clientWidth + 1 && !scrolls);
}).map(m => m.textContent.slice(0, 60))"""


@pytest.mark.parametrize("width", [1280, 390])
def test_no_display_equation_is_clipped(browser, site, width):
    """A wide display equation scrolls inside its own box; none reaches past the text column, on any page."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    clipped = {}
    try:
        for slug in sorted(RECORDS):
            page.goto(f"{site}/book/papers/{slug}.html", wait_until="load")
            if not page.locator(".math").count():
                continue
            page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=15000)
            page.evaluate("MathJax.startup.promise")
            bad = page.evaluate(CLIPPED_MATH)
            if bad:
                clipped[slug] = bad
    finally:
        context.close()
    assert not clipped, f"clipped display equations at {width} px: {clipped}"


@pytest.mark.parametrize("slug", sorted(RECORDS))
def test_paper_page(visit, slug, tmp_path):
    record = RECORDS[slug]
    page = visit.goto(f"book/papers/{slug}.html")
    card = page.locator(".repro-card")
    assert card.count() == 1
    j = book_site.judgement(slug)
    text = " ".join(card.inner_text().split())
    assert j.badge in card.locator(".repro-badge").inner_text()
    assert " ".join(rules.tests_summary(j).split()) in text, "the card's count is the judge's"
    assert f"make run PAPER={slug} SCALE=full" in text
    # the judged claims table replaces the raw measurements of the checked cell
    assert page.locator("table.repro-judged, table.repro-legacy, table.repro-illustration").count() >= 1
    assert page.locator(".tag_nbval-check-output .cell_output").count() == 0
    if j.badge == "untested: awaiting comparators":
        assert page.locator(".repro-old-model").count() == 1, "an old-model page says so above its verdict"
    else:
        assert page.locator(".repro-verdict").get_attribute("data-badge") == j.badge
    # every figure loaded
    page.wait_for_function("Array.from(document.images).every(i => i.complete)")
    widths = page.eval_on_selector_all("img", "is => is.map(i => i.naturalWidth)")
    assert widths and all(w > 0 for w in widths), f"{slug}: a figure did not load"
    # math typeset by the local MathJax
    if page.locator(".math").count():
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=15000)
        page.evaluate("MathJax.startup.promise")
        page.wait_for_function("document.querySelectorAll('mjx-container').length > 0", timeout=15000)
    # the downloads arrive as files
    links = card.locator("a.download")
    assert links.count() == 2
    for i in range(2):
        with page.expect_download() as info:
            links.nth(i).click()
        download = info.value
        target = tmp_path / download.suggested_filename
        download.save_as(target)
        body = target.read_text()
        if target.suffix == ".ipynb":
            assert json.loads(body)["cells"], "downloaded notebook has no cells"
        else:
            assert target.suffix == ".py" and "# %%" in body
    if slug == "tao-linear-leaves-smw" or slug == sorted(RECORDS)[0]:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{slug}.png"), full_page=False)
    if slug == "cost-sensitive-freeze-thaw-bo":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(".repro-claims-box").first.screenshot(path=str(SHOTS / "claims-table.png"))


@pytest.mark.parametrize("path", ["", "book/index.html", "book/status.html"])
def test_the_browser_gets_the_favicon(visit, path):
    """The icon a page links is served as an image; a 404 for it would be a console error, which fails the visit."""
    page = visit.goto(path)
    if not path:  # the root: a redirect to the landing page
        page.wait_for_url("**/book/index.html")
    href = page.eval_on_selector('link[rel~="icon"]', "link => link.href")
    response = page.request.get(href)
    assert response.ok and response.headers["content-type"].startswith("image/"), href
    page.wait_for_timeout(1000)  # the browser asks for its icon after the load event: let a failure show


def test_search_finds_woodbury(visit):
    if "tao-linear-leaves-smw" not in RECORDS:
        pytest.skip("the TAO page does not exist yet")
    page = visit.goto("search.html?q=Woodbury")
    page.wait_for_selector("#search-results li a, ul.search li a", timeout=15000)
    hrefs = page.eval_on_selector_all("ul.search li a", "as => as.map(a => a.getAttribute('href'))")
    assert any("tao-linear-leaves-smw" in h for h in hrefs), hrefs


def test_status_page_lists_every_notebook(visit):
    page = visit.goto("book/status.html")
    text = page.locator("table.repro-status").inner_text()
    for slug in pipeline.all_slugs():
        assert slug in text
    assert "up to date" in text and "Python" in page.inner_text("body")

