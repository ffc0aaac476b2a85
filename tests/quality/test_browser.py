"""The built site in a real browser (Debian's Chromium through Playwright), from file:// and from
a static server: every page loads cleanly and offline, the language switch works, charts show.

Note on search: `test_search_finds_english_and_chinese` (marker `search`) is the acceptance test of
the search feature: a box `input[type=search]` on each home page whose results are links in
`[data-search-results]` to pages of that language, from file:// as well as over HTTP.

Screenshots for people to look at go to test-artifacts/screenshots/ (git-ignored)."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

import pytest

from .quality_tools import ARTIFACTS, HTML_LANG, browser_pages, one_of_each_kind, page_of_kind

SCHEMES = ("file", "http")
LOCAL_SCHEMES = ("data:", "blob:", "about:")
# Figures are charts: every top-level svg inside a figure must be rendered and have a size
# (but for the layout the screen's width does not show: .chart-wide on a phone, .chart-narrow
# on a wider screen, both kept when a chart stays static).
HIDDEN_FIGURE_SVGS = """() => [...document.querySelectorAll('figure svg')]
  .filter(svg => !svg.parentElement.closest('svg'))
  .filter(svg => !svg.closest('[hidden]'))  /* held back on purpose until asked for (the explorer's key) */
  .filter(svg => { const layout = svg.closest('.chart-wide, .chart-narrow');
                   return !layout || getComputedStyle(layout).display !== 'none'; })
  .map((svg, i) => {
    const box = svg.getBoundingClientRect();
    const style = getComputedStyle(svg);
    const visible = box.width > 0 && box.height > 0 && style.visibility !== 'hidden'
      && style.display !== 'none' && svg.checkVisibility();
    const figure = svg.closest('figure');
    return visible ? null : `figure svg #${i} (figure id=${figure.id || '-'}): `
      + `${box.width}x${box.height}, visibility=${style.visibility}, display=${style.display}`;
  }).filter(Boolean)"""


class Watch:
    """Everything that goes wrong on one page: console errors, page errors, failed requests and
    requests to anything outside the site (those are also aborted, by the context's route)."""

    def __init__(self, page, root: str):
        self.root = root
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("requestfailed", self._failed)
        page.on("request", self._request)
        page.on("response", self._response)

    def outside(self, url: str) -> bool:
        return not url.startswith(self.root) and not url.startswith(LOCAL_SCHEMES)

    def _console(self, message) -> None:
        if message.type == "error":
            where = message.location or {}
            self.problems.append(
                f"console error: {message.text} (at {where.get('url', '?')}:{where.get('lineNumber', '?')})"
            )

    def _failed(self, request) -> None:
        # ERR_ABORTED is a request cancelled by leaving the page (the test moving on while a
        # favicon loads); a missing file is ERR_FILE_NOT_FOUND, or an HTTP status below.
        if not self.outside(request.url) and request.failure != "net::ERR_ABORTED":
            self.problems.append(f"failed request: {request.url} ({request.failure})")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status} for {response.url}")

    def _request(self, request) -> None:
        if self.outside(request.url):
            self.problems.append(f"request outside the site: {request.url}")


def new_context(browser, root: str, refuse_outside: bool = True, **options):
    """A browser context that refuses (aborts) every request outside the site; without
    `refuse_outside` it lets them go (the Watch reports each as a problem all the same)."""
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    if not refuse_outside:
        return context

    def guard(route):
        url = route.request.url
        if url.startswith(root) or url.startswith(LOCAL_SCHEMES):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    context.route("**/*", guard)
    return context


def report_problems(problems: dict[str, list[str]], what: str, limit: int = 60) -> str:
    lines = [f"{len(problems)} page(s) {what}:"]
    for page, items in sorted(problems.items()):
        lines.append(f"  {page}")
        lines.extend(f"    - {item}" for item in items[:8])
        if len(items) > 8:
            lines.append(f"    ... and {len(items) - 8} more")
        if len(lines) > limit:
            lines.append("  ...")
            break
    return "\n".join(lines)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_page_loads_cleanly(browser, shipped_site, site_roots, scheme):
    root = site_roots[scheme]
    pages = browser_pages(shipped_site)
    assert pages, "the shipped site has no HTML pages"
    if scheme == "http":  # every page from file://, where more can go wrong (a folder's link,
        pages = one_of_each_kind(pages)  # a fetch); a page of each kind over HTTP
    failures: dict[str, list[str]] = {}
    # not refused: routing every request through this process made the loads over HTTP a
    # quarter slower; a request outside the site is still a problem (Watch)
    context = new_context(browser, root, refuse_outside=False)
    page = context.new_page()  # one tab for every page: twice as fast as a tab per page
    watch = Watch(page, root)
    try:
        for rel in pages:
            watch.problems = []
            try:
                response = page.goto(root + rel, wait_until="load")
                if scheme == "http" and (response is None or not response.ok):
                    watch.problems.append(f"HTTP status {response.status if response else None}")
                watch.problems.extend(page.evaluate(HIDDEN_FIGURE_SVGS))
            except Exception as exc:  # a crash or timeout on one page must not hide the others
                failures[rel] = [*watch.problems, f"could not load: {exc}".splitlines()[0]]
                page.close()
                page = context.new_page()
                watch = Watch(page, root)
                continue
            if watch.problems:
                failures[rel] = list(watch.problems)
    finally:
        context.close()
    if failures:
        pytest.fail(report_problems(failures, f"of {len(pages)} have problems over {scheme}"), pytrace=False)


def _html_lang(page) -> str | None:
    return page.evaluate("() => document.documentElement.getAttribute('lang')")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("kind", ["home", "report"])
def test_language_switch_goes_to_the_twin_and_back(browser, shipped_site, site_roots, scheme, kind):
    root = site_roots[scheme]
    en_page = page_of_kind(shipped_site, kind, "en")
    zh_page = "zh/" + en_page.split("/", 1)[1]
    context = new_context(browser, root)
    page = context.new_page()
    watch = Watch(page, root)
    try:
        page.goto(root + en_page)
        assert _html_lang(page) == "en", f"{en_page}: <html lang> is not en"
        for here, there in ((en_page, zh_page), (zh_page, en_page)):
            switch = page.locator("nav.lang-switch a")
            assert switch.count() >= 1, f"{here}: no language switch link (nav.lang-switch a)"
            with page.expect_navigation():
                switch.first.click()
            assert page.url == root + there, f"{here}: the switch went to {page.url}, not {there}"
            want = HTML_LANG[there.split("/", 1)[0]]
            assert _html_lang(page) == want, f"{there}: <html lang> is {_html_lang(page)!r}, not {want}"
    finally:
        context.close()
    assert not watch.problems, "\n".join(watch.problems)


@pytest.fixture(scope="module")
def screenshot_dir():
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 360])
def test_screenshots(browser, shipped_site, site_roots, screenshot_dir, width, scheme):
    """Full-page screenshots for people to look at (test-artifacts/screenshots/)."""
    root = site_roots["http"]
    context = new_context(
        browser, root, viewport={"width": width, "height": 900}, color_scheme=scheme, device_scale_factor=1
    )
    written, problems = [], []
    try:
        for kind in ("home", "report"):
            for lang in ("en", "zh"):
                rel = page_of_kind(shipped_site, kind, lang)
                page = context.new_page()
                watch = Watch(page, root)
                page.goto(root + rel)
                page.evaluate("() => document.fonts.ready.then(() => true)")
                # JPEG: a long page's PNG took a third longer to encode, for people to look at
                target = screenshot_dir / f"{kind}-{lang}-{width}-{scheme}.jpg"
                page.screenshot(path=str(target), full_page=True, type="jpeg", quality=85)
                page.close()
                written.append(target)
                problems.extend(f"{rel}: {p}" for p in watch.problems)
    finally:
        context.close()
    for target in written:
        assert target.stat().st_size > 1000, f"{target} looks empty"
    assert not problems, "\n".join(problems)


@pytest.mark.search
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(
    "lang, query",
    [("en", "BERT"), ("zh", "训练"), ("zh-hant", "訓練"), ("zh-hant", "训练"), ("zh", "訓練時間")],
)
def test_search_finds_english_and_chinese(browser, shipped_site, site_roots, scheme, lang, query):
    """Typing into the home page's search box lists matching pages of that language; a
    Chinese term finds them typed in either script (Simplified on a Traditional page, and the
    other way round)."""
    from playwright.sync_api import expect

    root = site_roots[scheme]
    context = new_context(browser, root)
    page = context.new_page()
    watch = Watch(page, root)
    try:
        page.goto(root + f"{lang}/index.html")
        box = page.locator("input[type=search]")
        assert box.count() >= 1, f"{lang}/index.html has no search box (input[type=search])"
        box.first.click()
        box.first.press_sequentially(query, delay=30)
        results = page.locator("[data-search-results] a")
        # as long as the context's actions may take: on a loaded machine the index's scripts
        # took over 5 s to load and parse over file:// once
        expect(results.first).to_be_visible(timeout=15_000)
        hrefs = results.evaluate_all("links => links.map(a => a.href)")
    finally:
        context.close()
    assert not watch.problems, "\n".join(watch.problems)
    for href in hrefs:
        assert href.startswith(root + f"{lang}/"), f"result {href} is not a {lang} page of the site"
        target = shipped_site / unquote(urlsplit(href[len(root) :]).path)
        assert target.is_file(), f"result {href} names no file of the site"
