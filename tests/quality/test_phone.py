"""Phone widths (320 and 390 px), one page of every kind in both languages, after the charts are
drawn: nothing wider than the viewport outside a scroll container, chart text at least 11 px as
rendered (font size times the SVG's scale), touch targets at least 24 px."""
from __future__ import annotations

import pytest

from .quality_tools import LANGS, PAGE_KINDS, page_of_kind

WIDTHS = (320, 390)
CASES = [(kind, lang) for kind in PAGE_KINDS for lang in LANGS]

# Resolves when every chart figure has been drawn (interactive, or its static SVG kept).
CHARTS_DRAWN = """() => [...document.querySelectorAll('figure.chart')]
  .every(f => f.dataset.drawn || typeof window.vegaEmbed !== 'function')"""

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

TARGETS = """() => [...document.querySelectorAll('header a, header button, header input, '
                                            + 'summary, main button, main select, nav a')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
                && !el.closest('.skip'))
  .map(el => { const b = el.getBoundingClientRect();
               return [el.textContent.trim().slice(0, 30) || el.tagName, b.width, b.height]; })
  .filter(([, w, h]) => w < 24 || h < 24)"""


@pytest.fixture(scope="module")
def phone_contexts(browser):
    made = {width: browser.new_context(viewport={"width": width, "height": 800})
            for width in WIDTHS}
    yield made
    for context in made.values():
        context.close()


def open_drawn(context, url: str):
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(CHARTS_DRAWN, timeout=20_000)
    return page


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind, lang", CASES, ids=[f"{k}-{l}" for k, l in CASES])
def test_phone_layout(phone_contexts, shipped_site, site_roots, kind, lang, width):
    rel = page_of_kind(shipped_site, kind, lang)
    page = open_drawn(phone_contexts[width], site_roots["http"] + rel)
    try:
        wide = page.evaluate(OVERFLOW, width)
        small = [(text, round(size, 1)) for text, size in page.evaluate(CHART_TEXT) if size < 11]
        tiny = page.evaluate(TARGETS)
    finally:
        page.close()
    problems = []
    if wide:
        problems.append(f"wider than {width} px outside a scroll container: {wide}")
    if small:
        problems.append(f"chart text under 11 px: {small[:6]}")
    if tiny:
        problems.append(f"touch targets under 24 px: {tiny[:6]}")
    if problems:
        pytest.fail(f"{rel} at {width} px: " + "; ".join(problems), pytrace=False)
