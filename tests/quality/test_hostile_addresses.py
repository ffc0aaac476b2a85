"""Issue 46: the explorer's and the compare page's addresses are anyone's to write. A crafted
link (`explore.html#sort=valueOf`, `__proto__`, `hasOwnProperty`, `constructor`, `toString`,
unknown keys, a malformed escape) never throws: the explorer shows the rows of its default
selection (one benchmark of the latest round) and the compare page says what it does not know. In Chromium, from file:// and from
the static server; each address is opened in a fresh tab (the first load, not a hashchange)."""

from __future__ import annotations

import pytest
import yaml

from .test_explore import default_benchmark
from project import ROOT

PROTOTYPE_WORDS = ["valueOf", "__proto__", "hasOwnProperty", "constructor", "toString"]
HOSTILE = [
    *(f"sort={word}" for word in PROTOTYPE_WORDS),
    *(f"sort={word}&order={word}&x={word}" for word in PROTOTYPE_WORDS),
    "round=__proto__&benchmark=constructor&chip=valueOf&min=toString&max=hasOwnProperty",
    "__proto__=1&constructor=1&hasOwnProperty=1&valueOf=1",
    "__proto__[sort]=x&sort=%E0%A4%A",
]
LATEST = "v5.1"  # the shipped record's latest round: the explorer's default selection is in it


def open_tab(context, url: str):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page, errors


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_the_explorer_shows_its_rows_whatever_its_address_says(browser, site_roots, shipped_record, scheme):
    first = default_benchmark(shipped_record, LATEST)
    latest = {r["id"] for r in shipped_record if r["round"] == LATEST and r["benchmark"] == first}
    assert len(latest) > 50
    context = browser.new_context()
    context.set_default_timeout(20_000)
    try:
        for address in HOSTILE:
            page, errors = open_tab(context, site_roots[scheme] + "en/explore.html#" + address)
            page.wait_for_function("() => document.querySelector('[data-explore]').dataset.ready")
            shown = page.eval_on_selector_all(
                "[data-explore-rows] tr[data-id]", "trs => trs.map(tr => tr.dataset.id)"
            )
            assert (address, set(shown), errors) == (address, latest, [])
            status = page.inner_text("[data-explore-status]")
            assert (address, status) == (address, f"Results selected: {len(latest)}")
            page.close()
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_the_compare_page_says_what_it_does_not_know(browser, site_roots, scheme):
    unknown = yaml.safe_load((ROOT / "content" / "i18n" / "en.yaml").read_text("utf-8"))["rcompare.unknown"]
    context = browser.new_context()
    context.set_default_timeout(20_000)
    try:
        for address, said in [
            ("%E0%A4%A", "%E0%A4%A"),  # decodeURIComponent throws on it
            ("__proto__,constructor,valueOf", "__proto__, constructor, valueOf"),
        ]:
            page, errors = open_tab(context, site_roots[scheme] + "en/compare.html#" + address)
            page.wait_for_function("() => document.querySelector('[data-compare-status]').textContent")
            status = page.inner_text("[data-compare-status]")
            assert (address, status, errors) == (address, f"{unknown} {said}", [])
            page.close()
    finally:
        context.close()
