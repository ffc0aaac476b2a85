"""Phones and widths (issue 48, item 5), in Chromium over HTTP, in the three languages.

At 320 x 568 and 390 x 844 (the smallest and a common phone), on one page of every kind: the
header takes at most a quarter of the screen's height, the search box is in view, and every
results table (rows of results: time, accelerators, submitter) shows each cell of its first
row inside the screen without being scrolled sideways, and so does a chip's specifications
table (cards on a phone). At 1280 px no table is wider than its
column. The header's menu opens and closes by pointer and keyboard, without a script too; a
long page (the A100 family's) opens folded. One language a page kind at each width, in turn,
keeps the loads within about a minute on two cores; test_phone.py loads every kind in every
language."""

from __future__ import annotations

import re

import pytest
import yaml

from .quality_tools import LANGS, PAGE_KINDS, ROOT, page_of_kind, tab_in

PHONES = [(320, 568), (390, 844)]
DESKTOP = (1280, 900)
KINDS = list(PAGE_KINDS)
# each page kind in one language per width, the language turning with the kind and the width
CASES = [
    (kind, LANGS[(i + shift) % len(LANGS)], size)
    for shift, size in enumerate([*PHONES, DESKTOP])
    for i, kind in enumerate(KINDS)
]
EN = yaml.safe_load((ROOT / "content" / "i18n" / "en.yaml").read_text("utf-8"))


@pytest.fixture(scope="module")
def contexts(browser):
    made = {
        size: browser.new_context(viewport={"width": size[0], "height": size[1]})
        for size in [*PHONES, DESKTOP]
    }
    yield made
    for context in made.values():
        context.close()


HEADER = """() => {
  const header = document.querySelector('header.site-header').getBoundingClientRect();
  const search = document.querySelector('header input[type=search]');
  const box = search && search.getClientRects().length ? search.getBoundingClientRect() : null;
  return {height: header.height,
          search: box && [box.left, box.right, box.bottom]};
}"""

# Every visible results table (not inside a closed <details>): its column names, whether its
# .table-wrap scrolls sideways, and each cell of its first body row outside the screen's width
# (the row brought into view vertically first; nothing is scrolled sideways).
RESULTS_TABLES = """(width) => [...document.querySelectorAll('main table.results')]
  .filter(t => t.checkVisibility() && t.tBodies.length && t.tBodies[0].rows.length)
  .map(table => {
    const wrap = table.closest('.table-wrap');
    const row = table.tBodies[0].rows[0];
    row.scrollIntoView({block: 'center', inline: 'nearest'});
    const out = [...row.cells].filter(cell => {
      const b = cell.getBoundingClientRect();
      return b.width === 0 || b.left < -0.5 || b.right > width + 0.5;
    }).map(cell => cell.textContent.trim().slice(0, 30));
    return {heads: [...table.tHead.rows[0].cells].map(c => c.textContent.trim()),
            scrolls: wrap.scrollWidth > wrap.clientWidth + 1 || wrap.scrollLeft !== 0,
            out, cells: row.cells.length};
  })"""

# Every table in main that is shown, against the element that holds it (its .table-wrap, else
# its parent): how far its right edge passes that column's.
TABLES_CUT = """() => [...document.querySelectorAll('main table')]
  .filter(t => t.checkVisibility())
  .map(t => { const holder = t.closest('.table-wrap') || t.parentElement;
              const box = holder.getBoundingClientRect();
              const right = box.left + holder.clientWidth;
              return [t.className, Math.round(t.getBoundingClientRect().right - right)]; })
  .filter(([, over]) => over > 0)"""

# the column names a results table must show (en.yaml), by page kind: the time, the
# accelerators (their count and chip), the submitter (on a submitter's own page and on an
# official system description's, which is one submitter's: the page says it once)
TIME = {EN["leaderboard.col.time"], EN["col.time_min"], EN["leaderboard.col.energy"]}
ACCELERATORS = {EN["col.accelerator"], EN["col.accelerators"], EN["col.count"]}
SUBMITTER = {EN["col.submitter"]}


def missing_columns(kind: str, heads: list[str]) -> list[str]:
    """The key columns an English results table lacks."""
    wanted = {"time": TIME, "accelerators": ACCELERATORS}
    if kind not in ("submitter", "record-system"):
        wanted["submitter"] = SUBMITTER
    return [name for name, names in wanted.items() if not names & set(heads)]


@pytest.mark.parametrize("kind, lang, size", CASES, ids=[f"{k}-{l}-{w}" for k, l, (w, _) in CASES])
def test_header_and_tables_at_each_width(contexts, tabs, shipped_site, site_roots, kind, lang, size):
    width, height = size
    rel = page_of_kind(shipped_site, kind, lang)
    with tab_in(tabs, contexts[size], site_roots["http"] + rel) as page:
        header = page.evaluate(HEADER)
        tables = page.evaluate(RESULTS_TABLES, width) if width < 1000 else []
        cut = page.evaluate(TABLES_CUT) if width >= 1000 else []
    problems = []
    if width < 1000:
        if header["height"] > height / 4:
            problems.append(f"the header is {header['height']:.0f} px tall, over a quarter of {height}")
        left, right, bottom = header["search"] or (0, 0, height + 1)
        if left < 0 or right > width or bottom > height:
            problems.append(f"the search box is not in the first screen: {header['search']}")
    for t in tables:
        if t["scrolls"] or t["out"]:
            problems.append(f"a results table scrolls sideways or has cells out of view: {t}")
        if lang == "en" and missing_columns(kind, t["heads"]):
            problems.append(f"a results table lacks {missing_columns(kind, t['heads'])}: {t['heads']}")
    if cut:
        problems.append(f"tables wider than their column: {cut}")
    if problems:
        pytest.fail(f"{rel} at {width} x {height}: " + "; ".join(problems), pytrace=False)


# the page kinds whose sampled page has a results table (the sample is not vacuous)
RESULTS_KINDS = ("leaderboard", "round", "benchmark", "submitter", "accelerator", "report")


@pytest.mark.parametrize("kind", RESULTS_KINDS)
def test_results_tables_are_there_to_check(shipped_site, kind):
    """The pages the test above samples hold the results tables it checks: a results table's
    class is on every one (without it the check above finds nothing to measure)."""
    rel = page_of_kind(shipped_site, kind, "en")
    text = (shipped_site / rel).read_text("utf-8")
    assert re.search(r'<table class="data[^"]*\bresults\b', text), f"{rel}: no table.results"


# --- The menu --------------------------------------------------------------------------------

NAV_SHOWN = """() => { const link = document.querySelector('nav.main-nav a');
  const lang = document.querySelector('nav.lang-switch a');
  return [link.checkVisibility(), lang.checkVisibility()]; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_menu_opens_and_closes(browser, shipped_site, site_roots, lang):
    """At 390 px the pages and languages are behind the menu: a click opens and closes it, and
    so do Enter and Space on it; at 1280 px they are shown and the menu control is not."""
    rel = page_of_kind(shipped_site, "home", lang)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(site_roots["http"] + rel)
        summary = page.locator("header details.nav-fold > summary")
        assert page.evaluate(NAV_SHOWN) == [False, False], "the menu opens open"
        summary.click()
        assert page.evaluate(NAV_SHOWN) == [True, True], "a click does not open the menu"
        summary.click()
        assert page.evaluate(NAV_SHOWN) == [False, False], "a second click does not close it"
        summary.focus()
        page.keyboard.press("Enter")
        assert page.evaluate(NAV_SHOWN) == [True, True], "Enter does not open the menu"
        page.keyboard.press("Tab")  # the first link after the control: the other language
        focused = page.evaluate("document.activeElement.closest('nav').className")
        assert focused == "lang-switch", focused
        summary.focus()
        page.keyboard.press("Space")
        assert page.evaluate(NAV_SHOWN) == [False, False], "Space does not close the menu"
        page.set_viewport_size({"width": 1280, "height": 900})
        assert page.evaluate(NAV_SHOWN) == [True, True], "at 1280 px the navigation is folded"
        assert not summary.is_visible(), "at 1280 px the menu control shows"
    finally:
        context.close()


def test_the_menu_works_without_a_script(browser, shipped_site, site_roots):
    rel = page_of_kind(shipped_site, "leaderboard", "zh")
    context = browser.new_context(viewport={"width": 320, "height": 568}, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site_roots["http"] + rel)
        header = page.locator("header.site-header").bounding_box()
        assert header["height"] <= 568 / 4, header
        page.locator("header details.nav-fold > summary").click()
        assert page.locator("nav.main-nav a").first.is_visible()
    finally:
        context.close()


# --- A long page -------------------------------------------------------------------------------

# The A100 family's page at 390 px was 74,000 px tall, every result listed. What stays open
# (its summary with 28 variant lines, 1,600 px; its chart; its sections' notes; a heading and
# a summary line for each folded table and round, about 100 px each) measured 8,200 px. The
# bound leaves room for a dozen more rounds of folds and fails when its longest table opens
# unfolded (results by benchmark and round: 4,300 px more) or its scaling table (2,900).
A100_BOUND = 10_000

FOLDS = """() => [...document.querySelectorAll('main details.fold')].map(d => {
  const table = d.querySelector('table');
  return {open: d.open, summary: d.querySelector('summary').textContent,
          rows: table ? [...table.tBodies].reduce((n, b) => n + b.rows.length, 0) : null,
          items: d.querySelectorAll('li').length};
})"""


def test_the_a100_page_opens_folded(browser, shipped_site, site_roots):
    rel = "en/accelerators/nvidia-a100.html"
    assert (shipped_site / rel).is_file(), f"the shipped site has no {rel}"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(site_roots["http"] + rel)
        height = page.evaluate("document.documentElement.scrollHeight")
        folds = page.evaluate(FOLDS)
        page.locator("main details.fold > summary").first.click()
        opened = page.evaluate("document.documentElement.scrollHeight")
    finally:
        context.close()
    assert height <= A100_BOUND, f"{rel} is {height} px tall at 390 px (bound {A100_BOUND})"
    assert folds and not any(f["open"] for f in folds), folds
    # each summary line says how many it holds: a table's rows, a round's results (each listed;
    # a copy within its round is listed too, and counted once)
    for fold in folds:
        said = int("".join(ch for ch in fold["summary"] if ch.isdigit()))
        if fold["rows"] is not None:
            assert said == fold["rows"], fold
        else:
            assert 0 < said <= fold["items"], fold
    assert opened > height, "opening a fold shows nothing"


# A chip's specifications (name, value, source) at a width: whether the table's wrap scrolls
# sideways, its body cells' column names (data-label, from tables.js) and how its rows show.
SPECS = """() => { const table = document.querySelector('main table.phone-cards');
  const wrap = table.closest('.table-wrap');
  return {scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
          labels: [...table.tBodies[0].rows[0].cells].map(c => c.getAttribute('data-label')),
          row: getComputedStyle(table.tBodies[0].rows[0]).display,
          heads: [...table.tHead.rows[0].cells].map(c => c.textContent.trim())}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_chips_specifications_are_cards_on_a_phone(browser, shipped_site, site_roots, lang):
    """The specifications table (three columns, its sources' names long) is one card a figure on
    a phone, each value and source after its column's name, instead of a table scrolled
    sideways whose header broke inside a word; at 1280 px it is a table."""
    rel = f"{lang}/accelerators/google-tpu-v4.html"
    assert "phone-cards" in (shipped_site / rel).read_text("utf-8"), f"{rel}: no specifications table"
    shown = {}
    for width, height in ((390, 844), DESKTOP):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.goto(site_roots["http"] + rel)
            shown[width] = page.evaluate(SPECS)
        finally:
            context.close()
    phone, desktop = shown[390], shown[DESKTOP[0]]
    assert not phone["scrolls"] and phone["row"] == "flex", phone
    assert phone["labels"] == [None, *phone["heads"][1:]], phone  # the row's name is its th
    assert desktop["row"] == "table-row", desktop
