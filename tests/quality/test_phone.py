"""Phone widths (320 and 390 px), one page of every kind in every language, in the light colour
scheme and (at 390 px, in English) the dark one, after the charts are drawn: nothing wider than the viewport
outside a scroll container, chart text at least 11 px as rendered (font size times the SVG's
scale), touch targets at least 24 px, and (at 320 px) no serious axe violation of WCAG 2.1
A/AA or of WCAG 2.2's target-size (a target covered or crowded). And on every page kind with a
wide table, the first data row's key cell
(the system, round or benchmark) and answer cell (time, ratio, count) are both in view and
uncovered before the table is scrolled sideways (or the table is stacked rows, every cell in
view)."""

from __future__ import annotations

import functools
import re
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from .quality_tools import (
    AXE_RUN,
    BLOCKING,
    LANGS,
    PAGE_KINDS,
    QuietHandler,
    describe,
    open_drawn,
    page_of_kind,
    served,
)

# The dark scheme changes colours and redraws the charts in the page's ink (charts.js), not the
# layout: it is checked at one width.
VIEWS = [(320, "light"), (390, "light"), (390, "dark")]
VIEW_IDS = [f"{width}-{scheme}" for width, scheme in VIEWS]
CASES = [(kind, lang) for kind in PAGE_KINDS for lang in LANGS]
# The dark scheme in English: its colours and ink are the style sheet's and charts.js's, the
# same for every language, whose layouts are checked in the light scheme.
LAYOUT_CASES = [
    (kind, lang, width, scheme)
    for kind, lang in CASES
    for width, scheme in VIEWS
    if scheme == "light" or lang == "en"
]

OVERFLOW = """(width) => {
  const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if ((box.right > width + 0.5 || box.left < -0.5) && !scrolls(el)
        && !el.closest('.skip, .search-hint'))
      out.push(`${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className}: `
               + `${Math.round(box.left)}..${Math.round(box.right)}`);
  }
  return out.slice(0, 8);
}"""

CHART_TEXT = """() => [...document.querySelectorAll('figure.chart svg text')]
  .filter(t => t.getBoundingClientRect().width > 0 && t.textContent.trim())
  .map(t => {
    const svg = t.ownerSVGElement;
    const box = svg.viewBox.baseVal;
    const scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 1;
    return [t.textContent.trim(), parseFloat(getComputedStyle(t).fontSize) * scale];
  })"""

# axe at phone width, after the charts are drawn: WCAG 2.1 A/AA as at desktop width
# (test_accessibility.py), and WCAG 2.2's target-size rule, which Lighthouse's accessibility
# score counts: a target partly covered by another element (a column stuck over a table's
# scrolled columns) needs 24 px of free space around it.
AXE_AT_PHONE_WIDTH = AXE_RUN.replace("'wcag21aa']", "'wcag21aa', 'wcag22aa']")

TARGETS = """() => [...document.querySelectorAll('header a, header button, header input, '
                                            + 'summary, main button, main select, nav a')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
                && !el.closest('.skip'))
  .map(el => { const b = el.getBoundingClientRect();
               return [el.textContent.trim().slice(0, 30) || el.tagName, b.width, b.height]; })
  .filter(([, w, h]) => w < 24 || h < 24)"""


@pytest.fixture(scope="module")
def phone_contexts(browser):
    made = {
        (width, scheme): browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
        for width, scheme in VIEWS
    }
    yield made
    for context in made.values():
        context.close()


# --- The key and the answer of every wide table ---------------------------------------------

# Each visible table in a .table-wrap: the first body row's key cell (its row header, else its
# first cell) and answer cell (.answer), or for a table shown as stacked rows every cell. The
# table is first brought into view vertically; it is not scrolled sideways.
KEY_AND_ANSWER = """(width) => {
  const inView = b => b.left >= -0.5 && b.right <= width + 0.5 && b.width > 0;
  const name = el => el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40);
  const uncovered = el => { const b = el.getBoundingClientRect();
    const hit = document.elementFromPoint(Math.min(b.left + b.width / 2, width - 1),
                                          Math.min(Math.max(b.top + 6, 1), innerHeight - 2));
    return !!hit && el.contains(hit); };
  const tables = [];
  for (const wrap of document.querySelectorAll('main .table-wrap')) {
    const table = wrap.querySelector('table');
    // not shown: in a closed <details> (its content is kept but not rendered)
    if (!table || !wrap.checkVisibility({contentVisibilityAuto: true}) || !table.tBodies.length)
      continue;
    const row = table.tBodies[0].rows[0];
    if (!row) continue;
    window.scrollBy(0, row.getBoundingClientRect().top - innerHeight / 3);   // vertically only
    const label = table.closest('section, figure, main').querySelector('h2, figcaption, h1');
    const entry = {table: label ? name(label) : '', scrollLeft: wrap.scrollLeft,
                   wide: table.getBoundingClientRect().width > wrap.clientWidth + 0.5,
                   stacked: getComputedStyle(row).display !== 'table-row', problems: []};
    const check = (what, cell) => {
      if (!cell) { entry.problems.push(`no ${what} cell`); return; }
      const b = cell.getBoundingClientRect();
      if (!inView(b)) entry.problems.push(
        `${what} '${name(cell)}' at ${Math.round(b.left)}..${Math.round(b.right)}`);
      else if (!uncovered(cell)) entry.problems.push(`${what} '${name(cell)}' is covered`);
      return b;
    };
    if (entry.stacked) {
      // each stacked cell brought into view vertically first: a row of tall cells is taller
      // than the screen, and a point below the screen hits nothing of the cell
      [...row.cells].forEach((cell, i) => {
        window.scrollBy(0, cell.getBoundingClientRect().top - innerHeight / 3);
        check(`cell ${i + 1}`, cell);
      });
    } else {
      const key = check('key', row.querySelector('th[scope=row]') || row.cells[0]);
      const answer = row.querySelector('.answer');
      entry.answer = !!answer;
      if (answer) {
        const b = check('answer', answer);
        // the key's text (not its padding) ends before the answer column starts
        const text = document.createRange();
        text.selectNodeContents(row.querySelector('th[scope=row]') || row.cells[0]);
        if (key && b && text.getBoundingClientRect().right > b.left + 0.5)
          entry.problems.push('key and answer overlap');
      } else if (entry.wide) entry.problems.push('a wide table without an answer column');
      if (entry.wide && answer) {
        // scrolled to its far end, the key and the answer are still where they were
        const before = [key, answer.getBoundingClientRect()].map(b => b && Math.round(b.left));
        wrap.scrollLeft = wrap.scrollWidth;
        const cells = [row.querySelector('th[scope=row]') || row.cells[0], answer];
        cells.forEach((cell, i) => {
          const b = cell.getBoundingClientRect();
          if (Math.round(b.left) !== before[i] || !uncovered(cell))
            entry.problems.push(`${i ? 'answer' : 'key'} '${name(cell)}' moved or covered `
                                + `when the table is scrolled sideways`);
        });
        wrap.scrollLeft = 0;
      }
    }
    tables.push(entry);
  }
  return tables;
}"""

# The compare page's table has a column per picked result and a row per field: the row names,
# and for each of the two results its name (the column's header), time and ratio, all in view.
COMPARE_IN_VIEW = """(width) => {
  const table = document.querySelector('main .table-wrap table.compare-table');
  if (!table) return ['no compare table'];
  table.scrollIntoView({block: 'start'});
  const problems = [];
  const rows = {head: table.tHead.rows[0]};
  for (const f of ['value', 'ratio']) rows[f] = table.querySelector(`tr[data-field="${f}"]`);
  for (const [name, row] of Object.entries(rows)) {
    if (!row) { problems.push(`no ${name} row`); continue; }
    // the row in the middle of the viewport (vertical scroll only: the table is not moved)
    const r = row.getBoundingClientRect();
    window.scrollBy(0, r.top - (innerHeight - r.height) / 2);
    [...row.cells].slice(0, 3).forEach((cell, i) => {
      const b = cell.getBoundingClientRect();
      const hit = document.elementFromPoint(Math.min(b.left + b.width / 2, width - 1), b.top + 5);
      if (b.left < -0.5 || b.right > width + 0.5 || !(hit && cell.contains(hit)))
        problems.push(`${name} row, column ${i + 1} '${cell.textContent.trim().slice(0, 30)}' `
                      + `at ${Math.round(b.left)}..${Math.round(b.right)}`);
    });
  }
  return problems;
}"""

# The page kinds whose tables are wider than a phone (leaderboards, result, round, submitter and
# accelerator pages, reports, systems, the compare page with two results picked, ...).
WIDE_TABLE_KINDS = (
    "leaderboard",
    "result",
    "round",
    "rounds-index",
    "submitter",
    "accelerator",
    "submitters-index",
    "accelerators-index",
    "report",
    "system",
    "systems-index",
    "benchmark",
    "compare-results",
)
# Sampled on a page of their own (wide_table_page), not the one of page_of_kind: a result and a
# system with a table, a report with one, the compare page with two results picked.
OWN_SAMPLE = ("result", "system", "report", "compare-results")


def _with(site: Path, folder: str, needle: str) -> str | None:
    """The first page in the folder (by name) whose HTML has the needle."""
    for path in sorted((site / folder).glob("*.html")):
        if path.name != "index.html" and needle in path.read_text(encoding="utf-8"):
            return path.relative_to(site).as_posix()
    return None


def wide_table_page(site: Path, kind: str, lang: str) -> str:
    """The sampled page of the kind; for results, systems and reports the first with a table."""
    if kind in ("result", "system"):
        rel = _with(site, f"{lang}/{kind}s", 'class="num answer"')
    elif kind == "report":
        rel = _with(site, f"{lang}/reports", '<table class="stack">')
    else:
        return page_of_kind(site, kind, lang)
    if rel is None:
        pytest.fail(f"no {kind} page in {lang} has a table", pytrace=False)
    return rel


def compare_fragment(site: Path, lang: str) -> str:
    """'#id1,id2': the first two results of the first leaderboard, for the compare page."""
    board = (site / page_of_kind(site, "leaderboard", lang)).read_text(encoding="utf-8")
    ids = []
    for part in board.split('href="../../results/')[1:]:
        ident = part.split(".html", 1)[0]
        if ident not in ids:
            ids.append(ident)
    assert len(ids) >= 2, "the first leaderboard has fewer than two results"
    return "#" + ",".join(ids[:2])


def key_and_answer_problems(tables: list[dict]) -> list[str]:
    """What KEY_AND_ANSWER found wrong, and that it checked something (not vacuous: a table
    whose answer column, or stacked rows, was checked)."""
    if not tables:
        return ["no table in a .table-wrap"]
    if not any(t["stacked"] or t.get("answer") for t in tables):
        return [f"no table with an answer column or stacked rows: {tables}"]
    bad = [f"{t['table']!r}: {', '.join(t['problems'])}" for t in tables if t["problems"]]
    return bad + [
        f"{t['table']!r} opened scrolled by {t['scrollLeft']} px" for t in tables if t["scrollLeft"]
    ]


@pytest.mark.parametrize("width, scheme", VIEWS, ids=VIEW_IDS)
@pytest.mark.parametrize(
    "kind, lang",
    [(k, l) for k in OWN_SAMPLE for l in LANGS],
    ids=[f"{k}-{l}" for k in OWN_SAMPLE for l in LANGS],
)
def test_key_and_answer_in_view(phone_contexts, tabs, shipped_site, site_roots, kind, lang, width, scheme):
    """The kinds whose sampled page with a wide table is not page_of_kind's (the other kinds
    are checked in test_phone_layout's load of the page)."""
    rel = wide_table_page(shipped_site, kind, lang)
    url = site_roots["http"] + rel
    if kind == "compare-results":
        url += compare_fragment(shipped_site, lang)
    with open_drawn(tabs, phone_contexts[width, scheme], url) as page:
        if kind == "compare-results":
            page.wait_for_selector("main .table-wrap table", timeout=20_000)
            problems = page.evaluate(COMPARE_IN_VIEW, width)
            problems = [f"two results side by side: {'; '.join(problems)}"] if problems else []
        else:
            problems = key_and_answer_problems(page.evaluate(KEY_AND_ANSWER, width))
    if problems:
        pytest.fail(f"{rel} at {width} px ({scheme}): " + "; ".join(problems), pytrace=False)


# --- The layout of one page of every kind, and its key and answer ----------------------------


def test_no_style_differs_between_the_phone_widths(shipped_site):
    """What lets axe run at 320 px only: no media query of the site's style sheet has a width
    between the two phone widths (a rem is 16 px)."""
    css = (shipped_site / "assets" / "style.css").read_text("utf-8")
    widths = [
        float(number) * (16 if unit == "rem" else 1)
        for number, unit in re.findall(r"@media[^{]*?(?:min|max)-width:\s*([0-9.]+)(px|rem)", css)
    ]
    assert widths, "no width in the style sheet's media queries"
    low, high = VIEWS[0][0], VIEWS[1][0]
    assert [w for w in widths if low <= w < high] == [], widths


@pytest.mark.parametrize(
    "kind, lang, width, scheme", LAYOUT_CASES, ids=["-".join(map(str, c)) for c in LAYOUT_CASES]
)
def test_phone_layout(phone_contexts, tabs, axe_url, shipped_site, site_roots, kind, lang, width, scheme):
    """The layout checks and axe; then, on a page kind with a wide table sampled by page_of_kind,
    its key and answer in view (they scroll the page, so they come last)."""
    rel = page_of_kind(shipped_site, kind, lang)
    tables = None
    with open_drawn(tabs, phone_contexts[width, scheme], site_roots["http"] + rel) as page:
        wide = page.evaluate(OVERFLOW, width)
        small = [(text, round(size, 1)) for text, size in page.evaluate(CHART_TEXT) if size < 11]
        tiny = page.evaluate(TARGETS)
        violations = []
        # at the narrowest width, where targets crowd most: no style differs between 320 and
        # 390 px (the site's narrowest breakpoint is 40rem), and the colours of both schemes
        # are checked at desktop width (test_accessibility.py); each run is about a second
        if width == VIEWS[0][0]:
            page.add_script_tag(url=axe_url)
            violations = [v for v in page.evaluate(AXE_AT_PHONE_WIDTH) if v["impact"] in BLOCKING]
        if kind in WIDE_TABLE_KINDS and kind not in OWN_SAMPLE:
            tables = page.evaluate(KEY_AND_ANSWER, width)
    problems = []
    if wide:
        problems.append(f"wider than {width} px outside a scroll container: {wide}")
    if small:
        problems.append(f"chart text under 11 px: {small[:6]}")
    if tiny:
        problems.append(f"touch targets under 24 px: {tiny[:6]}")
    if violations:
        problems.append(describe(rel, scheme, violations))
    if tables is not None:
        problems += key_and_answer_problems(tables)
    if problems:
        pytest.fail(f"{rel} at {width} px ({scheme}): " + "; ".join(problems), pytrace=False)


# --- The scale chart (issue 31) at 320 px -------------------------------------------------------

# The scale chart as drawn on a phone: its visible drawing's tick labels on each axis (text,
# in view), the axis titles and legend around it (HTML), the shape each legend group's points
# use (the path their <use> points to) and every text's rendered size.
SCALE_CHART = """(width) => {
  const figure = document.querySelector('figure.chart-scale');
  if (!figure) return null;
  figure.scrollIntoView();
  const svg = [...figure.querySelectorAll('svg.scale-svg')].find(s => s.getBoundingClientRect().width > 0);
  const size = el => parseFloat(getComputedStyle(el).fontSize)
    * (el.ownerSVGElement ? el.ownerSVGElement.getBoundingClientRect().width
                            / el.ownerSVGElement.viewBox.baseVal.width : 1);
  const inView = el => { const b = el.getBoundingClientRect();
    return b.width > 0 && b.left >= -0.5 && b.right <= width + 0.5; };
  const ticks = axis => [...svg.querySelectorAll(`.scale-${axis}-axis text`)]
    .map(t => [t.textContent, inView(t)]);
  const shapes = {};
  for (const g of svg.querySelectorAll('g.scale-points')) {
    const use = g.querySelector('use');
    const colour = g.getAttribute('stroke');  // the family's colour (a hollow group fills none)
    shapes[g.dataset.g] = svg.querySelector(use.getAttribute('href')).getAttribute('d') + ' ' + colour;
  }
  const texts = [...svg.querySelectorAll('text'),
                 ...figure.querySelectorAll('.scale-axis, .scale-legend li, figcaption')];
  return {
    svgWidth: svg.getBoundingClientRect().width,
    x: ticks('x'), y: ticks('y'),
    titles: [...figure.querySelectorAll('.scale-axis')].map(p => [p.textContent.trim(), inView(p)]),
    legend: [...figure.querySelectorAll('.scale-legend li')].length,
    shapes,
    small: texts.map(t => [t.textContent.trim().slice(0, 20), size(t)]).filter(([, s]) => s < 11),
  };
}"""


@pytest.mark.parametrize("kind, lang", [(k, l) for k in ("benchmark", "leaderboard") for l in LANGS])
def test_scale_chart_reads_at_320_px(phone_contexts, tabs, shipped_site, site_roots, kind, lang):
    rel = page_of_kind(shipped_site, kind, lang)
    with open_drawn(tabs, phone_contexts[320, "light"], site_roots["http"] + rel) as page:
        chart = page.evaluate(SCALE_CHART, 320)
    assert chart is not None, f"{rel}: no scale chart"
    assert 0 < chart["svgWidth"] <= 320
    # axes: numbers on both, in view; their titles (text beside the drawing) in view
    assert len(chart["x"]) >= 2 and len(chart["y"]) >= 2, chart
    assert all(seen for _, seen in chart["x"] + chart["y"]), chart
    assert len(chart["titles"]) == 2 and all(text and seen for text, seen in chart["titles"]), chart
    # each legend group (a chip family) has its own look, a shape in a colour (data/chip_looks.yaml:
    # no two families share both, so two families of one colour differ in shape)
    assert len(chart["shapes"]) >= 2 and len(set(chart["shapes"].values())) == len(chart["shapes"]), chart
    assert chart["legend"] >= len(chart["shapes"]) + 1  # the groups and the dashed line
    assert chart["small"] == [], f"{rel}: text under 11 px at 320 px: {chart['small'][:6]}"


# --- A table whose page arrives in two parts -------------------------------------------------

# A page that arrives slowly is laid out before its table is whole. With only its first rows,
# a table's first scrolling column could start exactly where the stuck columns end, a snap
# position as good as the table's start; once a wider answer came, Chromium followed that
# column and the table opened scrolled by 8 px (the systems index, now and then under load).


@contextmanager
def page_held_after(site: Path, rel: str, body: bytes, cut: int, release: threading.Event):
    """A server of the site that sends `rel` as `body`: its first `cut` bytes, then the rest
    once `release` is set; yields its origin with a slash."""

    class Handler(QuietHandler):
        def do_GET(self):
            if self.path != "/" + rel:
                return super().do_GET()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:cut])
            self.wfile.flush()
            release.wait(30)
            self.wfile.write(body[cut:])

    with served(functools.partial(Handler, directory=str(site)), "held-page-server") as origin:
        try:
            yield origin
        finally:
            release.set()  # a request still held ends


# Resolves once the first table's first body row is there and two frames have been drawn.
FIRST_ROW_DRAWN = """() => new Promise(resolve => {
  const check = () => document.querySelector('main .table-wrap tbody tr')
    ? requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))
    : setTimeout(check, 10);
  check();
})"""

TABLE_SCROLLS = """() => [...document.querySelectorAll('main .table-wrap')].map(w => ({
  snaps: getComputedStyle(w).scrollSnapType, wide: w.scrollWidth > w.clientWidth,
  scrollLeft: w.scrollLeft,
  table: (w.closest('section, figure, main').querySelector('h2, figcaption, h1') || w).textContent.trim()
}))"""


SCRIPTED = b'<script>document.documentElement.className = "js";</script>'


@pytest.mark.parametrize("kind", [k for k in WIDE_TABLE_KINDS if k not in OWN_SAMPLE])
def test_a_table_that_arrives_in_parts_opens_unscrolled(phone_contexts, shipped_site, kind):
    """At 390 px, the page's first table sent up to its first body row, drawn, then the rest:
    every snapping table opens at its start. The page is sent without the head's line that marks
    it scripted (<html class="js">): results tables are cards with it (test_widths.py), and
    scroll sideways and snap, as here, without it."""
    rel = page_of_kind(shipped_site, kind, "en")
    html = (shipped_site / rel).read_bytes()
    assert html.count(SCRIPTED) == 1, f"{rel}: the head does not mark the page scripted"
    html = html.replace(SCRIPTED, b"")
    start = html.find(b"<tbody", html.find(b'class="table-wrap'))
    assert start > 0, f"{rel}: no table body in a .table-wrap"
    cut = html.index(b"</tr>", start) + len(b"</tr>")
    release = threading.Event()
    with page_held_after(shipped_site, rel, html, cut, release) as origin:
        page = phone_contexts[390, "light"].new_page()
        try:
            page.goto(origin + rel, wait_until="commit")
            page.evaluate(FIRST_ROW_DRAWN)
            release.set()
            page.wait_for_load_state("load")
            tables = page.evaluate(TABLE_SCROLLS)
        finally:
            page.close()
    snapping = [t for t in tables if t["snaps"].startswith("x") and t["wide"]]
    assert snapping, f"{rel}: no wide snapping table at 390 px: {tables}"
    scrolled = [f"{t['table']!r} by {t['scrollLeft']} px" for t in snapping if t["scrollLeft"]]
    assert not scrolled, f"{rel} opened with a table scrolled: {'; '.join(scrolled)}"
