"""The explorer (<lang>/explore.html) in Chromium, from the static server and from file://: a
filter sequence gives the rows the record holds and an address that says so; opened without a
choice it shows one benchmark of the latest round; a reload, or the address opened anew, gives
the same rows in the same order; sorting by a column's header (by keyboard too) says so with
aria-sort; the chart is drawn from the address, with no click; at 390 px nothing is wider than
the screen; without JavaScript the page says what to use instead (test_explore_selection.py:
the chart restored from a link, benchmarks kept apart, the CSV download, the phone's budget).

Expected rows are computed here from content/data/record/*.yaml (a result's chip by its
official accelerator string, written out below), never read from the page's data."""

from __future__ import annotations

import math
from collections import Counter
from urllib.parse import parse_qsl

import pytest

from .quality_tools import AXE_RUN, BLOCKING, describe
from .test_phone import KEY_AND_ANSWER, OVERFLOW

B200 = "NVIDIA Blackwell GPU (B200-SXM-180GB)"  # the official string of every B200 result so far


@pytest.fixture(scope="module")
def record(shipped_record) -> list[dict]:
    assert len(shipped_record) > 2000, "the shipped record is missing"
    return shipped_record


def expected(record, **match) -> list[str]:
    """Ids of the results that match, fastest first (ties by id), those without a time last."""
    rows = [
        r
        for r in record
        if all(r[k] == v for k, v in match.items() if k not in ("least",))
        and r["accelerator_count"] >= match.get("least", 0)
    ]
    return [r["id"] for r in sorted(rows, key=lambda r: (r["value"] is None, r["value"] or 0, r["id"]))]


def default_benchmark(record, round_id: str = "v5.1") -> str:
    """The benchmark the explorer opens on: the one of the latest round with the most results
    (by a wide margin in the shipped record, so that counting a copy once changes nothing)."""
    (first, most), (_, second) = Counter(
        r["benchmark"] for r in record if r["round"] == round_id
    ).most_common(2)
    assert most > second + 5
    return first


def open_explorer(browser, url: str, **options):
    context = browser.new_context(**options)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url)
    return context, page, errors, requests


def ready(page, after: str | None = None) -> None:
    """Wait until the table shows the current selection (explore.js marks each drawing)."""
    page.wait_for_function(
        "after => { const b = document.querySelector('[data-explore]');"
        " return b.dataset.ready && b.dataset.ready !== after; }",
        arg=after,
    )


def rows(page) -> list[str]:
    """The ids of the table's results, in order (a benchmark's heading row is not one)."""
    return page.eval_on_selector_all("[data-explore-rows] tr[data-id]", "trs => trs.map(tr => tr.dataset.id)")


def step(page, action) -> None:
    """One change of the filters, then wait for the table it gives."""
    before = page.get_attribute("[data-explore]", "data-ready")
    action()
    ready(page, before)


def fragment(page) -> dict[str, str]:
    return dict(parse_qsl(page.evaluate("location.hash").lstrip("#")))


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_a_filter_sequence_its_address_and_a_reload(browser, site_roots, record, scheme):
    context, page, errors, _ = open_explorer(browser, site_roots[scheme] + "en/explore.html")
    try:
        ready(page)
        # opened without a choice: one benchmark of the latest round, fastest first
        first = default_benchmark(record)
        assert page.input_value("#x-round") == "v5.1" and page.input_value("#x-benchmark") == first
        assert rows(page) == expected(record, round="v5.1", benchmark=first)
        assert page.locator("[data-explore-rows] tr.explore-group").count() == 0
        step(page, lambda: page.select_option("#x-benchmark", "all"))
        assert set(rows(page)) == {r["id"] for r in record if r["round"] == "v5.1"}
        step(page, lambda: page.select_option("#x-round", "v5.0"))
        assert set(rows(page)) == {r["id"] for r in record if r["round"] == "v5.0"}
        step(page, lambda: page.select_option("#x-round", "v5.1"))
        step(page, lambda: page.select_option("#x-benchmark", "llama2_70b_lora"))
        assert rows(page) == expected(record, round="v5.1", benchmark="llama2_70b_lora")
        step(page, lambda: page.select_option("#x-chip", label="B200"))
        want = expected(record, round="v5.1", benchmark="llama2_70b_lora", accelerator_model=B200)
        assert len(want) >= 5 and rows(page) == want
        assert fragment(page) == {"round": "v5.1", "benchmark": "llama2_70b_lora", "chip": "nvidia-b200"}
        step(page, lambda: page.fill("#x-min", "16"))
        want = expected(record, round="v5.1", benchmark="llama2_70b_lora", accelerator_model=B200, least=16)
        assert 0 < len(want) and rows(page) == want
        assert fragment(page)["min"] == "16"
        status = page.inner_text("[data-explore-status]")
        assert status == f"Results selected: {len(want)}"
        # each row links to its result page
        link = page.eval_on_selector("[data-explore-rows] tr:first-child th a", "a => a.href")
        assert link == site_roots[scheme] + f"en/results/{want[0]}.html"
        address = page.url
        page.reload()
        ready(page)
        assert rows(page) == want
        assert page.input_value("#x-chip") == "nvidia-b200" and page.input_value("#x-min") == "16"
        fresh = context.new_page()  # the link sent elsewhere: a page that never saw the choice
        fresh.goto(address)
        ready(fresh)
        assert rows(fresh) == want
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_sorting_by_a_header_is_kept_in_the_address(browser, site_roots, record, scheme):
    url = site_roots[scheme] + "en/explore.html#round=v4.1&benchmark=bert"
    context, page, errors, _ = open_explorer(browser, url)
    try:
        ready(page)
        assert rows(page) == expected(record, round="v4.1", benchmark="bert")
        header = page.locator("th:has(button[data-sort=count])")
        assert header.get_attribute("aria-sort") == "none"
        page.focus("button[data-sort=count]")  # by keyboard
        step(page, lambda: page.keyboard.press("Enter"))
        assert header.get_attribute("aria-sort") == "ascending"
        by_count = [
            r["id"]
            for r in sorted(
                (r for r in record if r["round"] == "v4.1" and r["benchmark"] == "bert"),
                key=lambda r: (r["accelerator_count"], r["value"] is None, r["value"] or 0, r["id"]),
            )
        ]
        assert rows(page) == by_count
        step(page, lambda: page.click("button[data-sort=count]"))
        assert header.get_attribute("aria-sort") == "descending"
        assert fragment(page) == {"round": "v4.1", "benchmark": "bert", "sort": "count", "order": "desc"}
        shown = rows(page)
        counts = {r["id"]: r["accelerator_count"] for r in record}
        assert [counts[i] for i in shown] == sorted((counts[i] for i in shown), reverse=True)
        page.reload()
        ready(page)
        assert rows(page) == shown
        assert page.locator("th:has(button[data-sort=count])").get_attribute("aria-sort") == "descending"
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_at_390_px_nothing_is_wider_than_the_screen(browser, site_roots, axe_url, lang):
    url = site_roots["http"] + f"{lang}/explore.html#round=v5.1&benchmark=llama2_70b_lora"
    context, page, errors, _ = open_explorer(browser, url, viewport={"width": 390, "height": 800})
    try:
        ready(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate(OVERFLOW, 390) == []
        # the system (linked) and its time stay in view while the other columns scroll
        (table,) = page.evaluate(KEY_AND_ANSWER, 390)
        assert table["wide"] and table["answer"] and table["problems"] == [], table
        for control in page.query_selector_all(".explore-filters :is(select, input, button)"):
            box = control.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390.5, control.get_attribute("id")
        page.wait_for_selector("[data-explore-figure][data-drawn]")  # drawn with no click
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.add_script_tag(url=axe_url)
        violations = [v for v in page.evaluate(AXE_RUN) if v["impact"] in BLOCKING]
        assert violations == [], describe(f"{lang}/explore.html", "light", violations)
        assert errors == []
    finally:
        context.close()


def test_names_are_the_pages_own_in_traditional_chinese(browser, site_roots, record):
    """The table names divisions, categories and benchmarks as the filters do (i18n, OpenCC)."""
    url = site_roots["http"] + "zh-hant/explore.html#round=v5.1&benchmark=llama2_70b_lora&division=closed"
    context, page, errors, _ = open_explorer(browser, url)
    try:
        ready(page)
        assert rows(page) == expected(record, round="v5.1", benchmark="llama2_70b_lora", division="closed")
        division = page.inner_text("#x-division option[value=closed]")
        benchmark = page.inner_text("#x-benchmark option[value=llama2_70b_lora]")
        cells = page.eval_on_selector_all(
            "[data-explore-rows] tr", "trs => trs.map(tr => [tr.cells[7].innerText, tr.cells[8].innerText])"
        )
        assert division == "封閉組"
        assert set(map(tuple, cells)) == {(benchmark, division)}
        assert page.inner_text("[data-explore-status]").startswith("已選成績：")
    finally:
        context.close()


def test_without_javascript_the_page_says_where_to_go(browser, site_roots):
    context, page, _, requests = open_explorer(
        browser, site_roots["http"] + "en/explore.html", java_script_enabled=False
    )
    try:
        assert page.locator("[data-explore]").is_hidden()
        text = page.inner_text("main")
        assert "The explorer needs JavaScript." in text
        links = page.eval_on_selector_all("main a", "as => as.map(a => a.href)")
        assert any(href.endswith("en/downloads.html") for href in links)
        assert any(href.endswith("en/benchmarks/index.html") for href in links)
        assert not any("assets/explore/" in url for url in requests)
    finally:
        context.close()


# NVIDIA's three GB200 rgat results of v5.1 resubmit the runs of its v5.0 results (the same run
# times in both rounds' logs; picked by hand from content/data/record/).
CARRIED_RGAT = {
    f"v5.1-nvidia-tyche-ngpu{n}-ngc25.03-dgl-rgat": f"v5.0-nvidia-tyche-ngpu{n}-ngc25.03-dgl-rgat"
    for n in (8, 72, 256)
}


def test_carried_over_results_are_labelled_and_linked(browser, site_roots, record):
    url = site_roots["http"] + "en/explore.html#round=v5.1&benchmark=rgat&chip=nvidia-gb200"
    context, page, errors, _ = open_explorer(browser, url)
    try:
        ready(page)
        gb200 = "NVIDIA Blackwell GPU (GB200)"
        assert rows(page) == expected(record, round="v5.1", benchmark="rgat", accelerator_model=gb200)
        marks = page.eval_on_selector_all(
            "[data-explore-rows] tr",
            "trs => trs.map(tr => [tr.dataset.id, [...tr.querySelectorAll('a.carry')]"
            ".map(a => [a.textContent, a.href])])",
        )
        found = {ident: links for ident, links in marks if links}
        assert found == {
            ident: [["(carried over from v5.0)", site_roots["http"] + f"en/results/{origin}.html"]]
            for ident, origin in CARRIED_RGAT.items()
        }
        assert errors == []
    finally:
        context.close()


def test_the_whole_record_in_one_selection(browser, site_roots, record):
    """All rounds and benchmarks: the first 300 rows, then every result of the record on request."""
    url = site_roots["http"] + "en/explore.html#round=all&benchmark=all"
    context, page, errors, _ = open_explorer(browser, url)
    try:
        ready(page)
        assert len(rows(page)) == 300
        more = page.locator("[data-explore-more]")
        assert more.inner_text() == f"Show all {len(record):,} results"
        more.click()
        assert sorted(rows(page)) == sorted(r["id"] for r in record)
        assert more.is_hidden()
        assert errors == []
    finally:
        context.close()


# The dashed line's ends and the axes' labels (text, centre x, centre y), in page pixels.
IDEAL_GEOMETRY = """() => {
  const svg = document.querySelector('[data-explore-view] svg');
  const at = (path, length) => { const m = path.getScreenCTM(), p = path.getPointAtLength(length);
    return [m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f]; };
  const lines = [...svg.querySelectorAll('path')].filter(p => (p.getAttribute('stroke-dasharray') || '') !== '');
  const labels = [...svg.querySelectorAll('.role-axis-label text')].map(text => {
    const r = text.getBoundingClientRect(); return [text.textContent, r.x + r.width / 2, r.y + r.height / 2]; });
  return { lines: lines.map(p => [at(p, 0), at(p, p.getTotalLength())]), labels: labels };
}"""


def _least_work(record, **match) -> tuple[float, list[dict]]:
    """The fewest accelerator-minutes (official time × accelerators) of the matching timed
    results on accelerators, and the results with them."""
    rows = [
        r
        for r in record
        if all(r[k] == v for k, v in match.items()) and r["value"] is not None and r["accelerator_count"]
    ]
    least = min(r["value"] * r["accelerator_count"] for r in rows)
    return least, [r for r in rows if r["value"] * r["accelerator_count"] == least]


def _tick(labels, text: str, axis: str) -> float:
    """The page position of an axis' tick label: x along the bottom axis, y up the left one."""
    found = [(x, y) for t, x, y in labels if t == text]
    if axis == "x":
        return max(found, key=lambda p: p[1])[0]  # the lowest "10" is the bottom axis'
    return min(found, key=lambda p: p[0])[1]  # the leftmost is the left axis'


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_time_against_accelerators_has_the_scale_charts_ideal_line(browser, site_roots, record, lang):
    """One benchmark, time against accelerators: a dashed line of slope -1 on the log-log axes
    (twice the accelerators, half the time) from the result with the fewest accelerator-minutes,
    named in the legend and the caption in the scale chart's words; none by round."""
    match = {"round": "v5.1", "benchmark": "llama2_70b_lora", "division": "closed"}
    work, anchors = _least_work(record, **match)
    url = site_roots["http"] + f"{lang}/explore.html#round=v5.1&benchmark=llama2_70b_lora&division=closed"
    context, page, errors, _ = open_explorer(browser, url, viewport={"width": 1280, "height": 900})
    try:
        ready(page)
        page.wait_for_selector("[data-explore-figure][data-drawn]")  # drawn with no click
        drawn = page.evaluate(IDEAL_GEOMETRY)
        caption = page.inner_text("[data-explore-caption]")
        key = page.locator("[data-explore-ideal]")
        key_shown, key_text = key.is_visible(), key.inner_text()
        words = page.get_attribute("[data-explore]", "data-msg-ideal").split("{")[0].strip()
        page.select_option("#x-axis", "round")  # by round: no line, and no word of one
        page.wait_for_function(
            "words => !document.querySelector('[data-explore-caption]').textContent.includes(words)",
            arg=words,
        )
        page.wait_for_timeout(300)
        by_round = page.evaluate(IDEAL_GEOMETRY)
        key_by_round = key.is_visible()
        assert errors == []
    finally:
        context.close()
    (anchor,) = anchors  # one result has the fewest: v5.1's Theia, 8 GB300s, 5.97… min × 8
    assert anchor["accelerator_count"] == 8 and f"{work:.1f}" == "47.8"
    assert words and words in caption
    closing = ")" if lang == "en" else "）"
    assert anchor["system_name"] in caption and f"47.8{closing}" in caption
    # the scale chart's key of the line, under the chart
    assert key_shown and key_text == {"en": "Ideal scaling (derived), constant accelerator-minutes"}.get(
        lang, "理想擴展（推算）：加速器分鐘數不變"
    )
    (((x1, y1), (x2, y2)),) = drawn["lines"]
    ten_x, hundred_x = _tick(drawn["labels"], "10", "x"), _tick(drawn["labels"], "100", "x")
    ten_y, one_y = _tick(drawn["labels"], "10", "y"), _tick(drawn["labels"], "1", "y")
    per_x, per_y = hundred_x - ten_x, one_y - ten_y  # a decade, in pixels, along each axis
    assert (x2 - x1) / per_x > 0.5  # the line spans more than half a decade of accelerators
    assert abs(((y2 - y1) / per_y) / ((x2 - x1) / per_x) - 1) < 0.03  # slope -1 on log-log axes
    # it starts at the anchor: 8 accelerators, 47.8… / 8 minutes
    assert abs(ten_x + (math.log10(8) - 1) * per_x - x1) < 3
    assert abs(ten_y + (1 - math.log10(work / 8)) * per_y - y1) < 3
    assert by_round["lines"] == [] and not key_by_round


def test_one_selected_result_is_counted_in_the_singular(browser, site_roots, record):
    """The one result with one accelerator of a round and benchmark (v2.0 BERT): the chart's
    caption says so in the singular (explore.chart_caption_one)."""
    (only,) = [
        r for r in record if r["round"] == "v2.0" and r["benchmark"] == "bert" and r["accelerator_count"] == 1
    ]
    url = site_roots["http"] + "en/explore.html#round=v2.0&benchmark=bert&min=1&max=1"
    context, page, errors, _ = open_explorer(browser, url, viewport={"width": 1280, "height": 900})
    try:
        ready(page)
        assert rows(page) == [only["id"]]
        page.wait_for_selector("[data-explore-figure][data-drawn]")  # drawn with no click
        caption = page.inner_text("[data-explore-caption]")
        assert errors == []
    finally:
        context.close()
    assert caption.startswith("Time to train (minutes, log scale) of the one selected result with a time;"), (
        caption
    )
