"""Search finds, first, what a reader typed, in any script, from any page (issue 32), in
Chromium over HTTP and from file://: Chinese typed on an English page searches the Chinese
pages of that script, labelled by language; an exact benchmark name comes before systems whose
names merely share a token; two results of one system name are told apart; results and
leaderboards are found by name; a first search loads at most 1 MB.

Expected values come from the record's YAML files and data/benchmarks.yaml, not from the pages."""

from __future__ import annotations

import pytest
import yaml

from .quality_tools import ROOT
from search_files import search_size

BUDGET = 1024 * 1024  # bytes a first search may load (MiniSearch, the fold, one index)


@pytest.fixture(scope="module")
def record(shipped_record) -> list[dict]:
    return shipped_record


def _search(browser, url: str, query: str) -> list[dict]:
    """The result list for `query` typed into the page at `url`: href, hreflang, title, label,
    snippet of each."""
    context = browser.new_context()
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(url)
        page.locator("input[type=search]").fill(query)
        page.wait_for_selector("[data-search-results] .search-list a")
        items = page.locator("[data-search-results] li").evaluate_all("""items => items.map(li => ({
            href: li.querySelector('a').getAttribute('href'),
            hreflang: li.querySelector('a').getAttribute('hreflang'),
            title: li.querySelector('a').textContent,
            label: li.querySelector('.search-kind').textContent,
            snippet: li.querySelector('.search-snippet').textContent}))""")
    finally:
        context.close()
    assert not errors, errors
    return items


@pytest.mark.parametrize("how", ["http", "file"])
@pytest.mark.parametrize(
    "query, lang, attr, name",
    [("训练", "zh", "zh-Hans", "简体中文"), ("訓練", "zh-hant", "zh-Hant", "繁體中文")],
)
def test_chinese_typed_on_an_english_page_finds_chinese_pages(
    browser, site_roots, how, query, lang, attr, name
):
    items = _search(browser, site_roots[how] + "en/reports/index.html", query)
    assert len(items) >= 5
    for item in items:
        assert item["href"].startswith(f"../../{lang}/"), item
        assert item["hreflang"] == attr and item["label"].endswith(f" · {name}"), item


def _benchmark(name: str) -> str:
    table = yaml.safe_load((ROOT / "content" / "data" / "benchmarks.yaml").read_text("utf-8"))
    return next(b["id"] for b in table if b["name"]["en"] == name)


@pytest.mark.parametrize("how", ["http", "file"])
def test_an_exact_benchmark_name_comes_first(browser, site_roots, record, how):
    ident = _benchmark("Llama 2 70B LoRA")
    assert any("2x" in (r["system_name"] or "") and r["benchmark"] == ident for r in record), (
        "the record no longer has the systems this test is about"
    )
    items = _search(browser, site_roots[how] + "en/index.html", "Llama 2")
    assert items[0]["href"] == f"../en/benchmarks/{ident}.html", items[:3]


@pytest.mark.parametrize("how", ["http", "file"])
def test_two_results_of_one_system_name_are_told_apart(browser, site_roots, record, how):
    name = "tpu-v5p-1024"
    mine = sorted((r for r in record if r["system_name"] == name), key=lambda r: r["id"])
    assert len(mine) >= 2
    items = _search(browser, site_roots[how] + "en/index.html", name)
    found = [item for item in items if item["title"] == name]
    assert sorted(item["href"] for item in found) == [f"../en/results/{r['id']}.html" for r in mine]
    assert all(item["title"] == name for item in items[: len(mine)])  # they come first
    assert len({item["snippet"] for item in found}) == len(mine)
    for result in mine:
        item = next(i for i in found if i["href"] == f"../en/results/{result['id']}.html")
        assert item["snippet"].startswith(f"{result['round']} · ")
        assert f"{result['accelerator_count']} × " in item["snippet"]


@pytest.mark.parametrize("how", ["http", "file"])
def test_a_leaderboard_and_a_result_are_found_from_a_chinese_page(browser, site_roots, record, how):
    items = _search(browser, site_roots[how] + "zh/index.html", "NF5688M6")
    mine = {f"../zh/results/{r['id']}.html" for r in record if r["system_name"] == "NF5688M6"}
    assert {i["href"] for i in items if i["title"] == "NF5688M6"} == mine
    assert all(i["label"] == "成绩" for i in items if i["title"] == "NF5688M6")
    board = f"../zh/benchmarks/{_benchmark('BERT-Large')}/v1.0.html"
    strings = yaml.safe_load((ROOT / "content" / "i18n" / "zh.yaml").read_text(encoding="utf-8"))
    title = strings["leaderboard.title"].format(benchmark="BERT-Large", round="v1.0")  # as the page says it
    assert _search(browser, site_roots[how] + "zh/index.html", title)[0]["href"] == board
    items = _search(browser, site_roots[how] + "zh/index.html", "BERT-Large v1.0 排行榜")
    assert board in [i["href"] for i in items[:3]], items[:3]


def test_a_first_search_loads_at_most_one_megabyte(shipped_site):
    assets = shipped_site / "assets"
    shared = (assets / "minisearch.js").stat().st_size + (assets / "search-fold.js").stat().st_size
    for lang in ("en", "zh", "zh-hant"):
        index = search_size(shipped_site, lang)  # its entry script and every shard
        assert shared + index <= BUDGET, f"{lang}: {shared + index} bytes"
