"""The explorer (<lang>/explore.html) in Chromium, issue 48: a link restores the table and the
chart with no click, from the static server and from file://; "all benchmarks" keeps each
benchmark a group of its own (one ordering never spans two); sorting within the groups; the
selection downloads as CSV with the round file's columns and lines; a phone at 390 px gets its
table within 500 KB transferred, the chart library after it.

Expected rows come from content/data/record/*.yaml; the CSV's lines are compared with the
round's own download (downloads/mlperf-training-<round>.csv), the file it must agree with."""

from __future__ import annotations

import csv
import io

import pytest
import yaml

from .test_explore import default_benchmark, expected, open_explorer, ready, rows
from project import ROOT

KB = 1024
B200 = "NVIDIA Blackwell GPU (B200-SXM-180GB)"  # the official string of every B200 result so far

# The points the chart drew (vega's SVG: one path per point of the layer of points; a legend's
# symbols are role-legend-symbol, not role-mark).
POINTS = "[data-explore-view] g.mark-symbol.role-mark path"


@pytest.fixture(scope="module")
def record(shipped_record) -> list[dict]:
    assert len(shipped_record) > 2000, "the shipped record is missing"
    return shipped_record


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_a_link_restores_the_table_and_the_chart_with_no_click(browser, site_roots, record, scheme):
    address = "en/explore.html#round=v5.1&benchmark=llama2_70b_lora&chip=nvidia-b200&x=round"
    context, page, errors, _ = open_explorer(browser, site_roots[scheme] + address)
    try:
        ready(page)
        want = expected(record, round="v5.1", benchmark="llama2_70b_lora", accelerator_model=B200)
        assert len(want) >= 5 and rows(page) == want
        page.wait_for_selector("[data-explore-figure][data-drawn]")
        timed = [i for i in want if next(r for r in record if r["id"] == i)["value"] is not None]
        assert page.locator(POINTS).count() == len(timed)
        assert page.input_value("#x-axis") == "round"
        assert page.locator("[data-explore-draw]").is_hidden()
        assert errors == []
    finally:
        context.close()


def test_all_benchmarks_are_kept_apart_each_sorted_within(browser, site_roots, record):
    """Every v5.1 result, each benchmark a group under its name's heading row, in the order of
    their names; within a group, by accelerators as the address asks, then fastest first."""
    url = site_roots["http"] + "en/explore.html#round=v5.1&benchmark=all&sort=count&order=asc"
    context, page, errors, _ = open_explorer(browser, url)
    try:
        ready(page)
        table = page.eval_on_selector_all(
            "[data-explore-rows] tr",
            "trs => trs.map(tr => tr.dataset.id ? ['row', tr.dataset.id] : ['group', tr.innerText.trim()])",
        )
        names = {
            b["id"]: b["name"]["en"]
            for b in yaml.safe_load((ROOT / "content" / "data" / "benchmarks.yaml").read_text("utf-8"))
        }
        assert errors == []
    finally:
        context.close()
    mine = [r for r in record if r["round"] == "v5.1"]
    benchmarks = sorted({r["benchmark"] for r in mine}, key=lambda b: names[b].casefold())
    want: list[list[str]] = []
    for benchmark in benchmarks:
        want.append(["group", names[benchmark]])
        group = sorted(
            (r for r in mine if r["benchmark"] == benchmark),
            key=lambda r: (r["accelerator_count"], r["value"] is None, r["value"] or 0, r["id"]),
        )
        want += [["row", r["id"]] for r in group]
    assert len(benchmarks) >= 5 and table == want


def test_the_chart_never_draws_two_benchmarks_on_one_axis(browser, site_roots):
    context, page, errors, _ = open_explorer(
        browser, site_roots["http"] + "en/explore.html#round=v5.1&benchmark=all"
    )
    try:
        ready(page)
        page.wait_for_function("typeof window.vegaEmbed === 'function'")
        said = page.get_attribute("[data-explore]", "data-msg-chart-benchmarks")
        page.wait_for_function(
            "said => document.querySelector('[data-explore-chart-status]').textContent === said", arg=said
        )
        assert page.locator("[data-explore-figure]").is_hidden()
        assert page.locator(POINTS).count() == 0
        assert errors == []
    finally:
        context.close()


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_the_selection_downloads_as_csv(browser, site_roots, shipped_site, record, scheme):
    """The rows of the table, in its order, as the round's CSV writes them, under its header."""
    address = "en/explore.html#round=v5.1&benchmark=llama2_70b_lora&chip=nvidia-b200&sort=count&order=desc"
    context, page, errors, _ = open_explorer(browser, site_roots[scheme] + address)
    try:
        ready(page)
        shown = rows(page)
        with page.expect_download() as event:
            page.click("[data-explore-csv]")
        download = event.value
        name, text = download.suggested_filename, open(download.path(), encoding="utf-8").read()
        assert errors == []
    finally:
        context.close()
    want = expected(record, round="v5.1", benchmark="llama2_70b_lora", accelerator_model=B200)
    counts = {r["id"]: r["accelerator_count"] for r in record}
    assert sorted(shown) == sorted(want) and [counts[i] for i in shown] == sorted(
        (counts[i] for i in shown), reverse=True
    )
    official = _csv((shipped_site / "downloads" / "mlperf-training-v5.1.csv").read_text("utf-8"))
    by_id = {line[0]: line for line in official[1:]}
    got = _csv(text)
    assert name == "mlperf-training-selection-v5.1-llama2_70b_lora.csv"
    assert got[0] == official[0] and got[0][:3] == ["id", "round", "benchmark"]
    assert got[1:] == [by_id[i] for i in shown]


def test_a_phone_gets_the_table_within_500_kb(browser, site_roots, record):
    """At 390 px over HTTP: the bytes transferred for the page and everything it loaded before
    its first results row appeared (a MutationObserver notes the moment) are at most 500 KB;
    the chart library is requested after that, and draws the chart with no click."""
    context = browser.new_context(viewport={"width": 390, "height": 800})
    context.set_default_timeout(20_000)
    context.add_init_script(
        "new MutationObserver((changes, watch) => {"
        " if (document.querySelector('[data-explore-rows] tr[data-id]')) {"
        " window.tableAt = performance.now(); watch.disconnect(); } })"
        ".observe(document, { childList: true, subtree: true });"
    )
    page = context.new_page()
    try:
        page.goto(site_roots["http"] + "en/explore.html")
        page.wait_for_selector("[data-explore-figure][data-drawn]")
        loads = page.evaluate(
            """() => [['page', performance.getEntriesByType('navigation')[0].transferSize, 0]].concat(
               performance.getEntriesByType('resource').map(r => [r.name, r.transferSize, r.startTime]))"""
        )
        table_at = page.evaluate("window.tableAt")
        shown = rows(page)
    finally:
        context.close()
    assert shown == expected(record, round="v5.1", benchmark=default_benchmark(record))
    before = [(name, size) for name, size, start in loads if start < table_at]
    weight = sum(size for _, size in before)
    assert all(size > 0 for _, size in before), before  # each one measured
    assert any(name.endswith("assets/explore/v5.1.js") for name, _ in before)
    assert 50 * KB < weight <= 500 * KB, (weight, before)
    (bundle,) = [start for name, _, start in loads if name.endswith("assets/vega-bundle.js")]
    assert bundle > table_at
