"""Search across scripts and names (issue 49), in Chromium from file://: a company typed in
Simplified or Traditional characters or in Latin letters finds its submitter page first, on a
page of any language; a query of two CJK characters or more never matches on one character
alone; the count reads in each script's idiom.

Expected names come from content/data/companies.yaml and the style sheet's table; the pages a
name should find are its company's submitter pages (content/data/record's spellings)."""

from __future__ import annotations

import pytest
import yaml

from .quality_tools import ROOT
from search_files import search_text


def _companies() -> dict[str, dict]:
    rows = yaml.safe_load((ROOT / "content" / "data" / "companies.yaml").read_text("utf-8"))
    return {row["id"]: row for row in rows}


def _run(browser, url: str, query: str) -> tuple[str, list[str]]:
    """(the status line, the result links) for `query` typed into the page at `url`."""
    context = browser.new_context()
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(url)
        page.locator("input[type=search]").fill(query)
        page.wait_for_function(
            "() => { const s = document.querySelector('[data-search-results] .search-status');"
            " return s && !s.textContent.includes('…') && s.textContent.length > 0; }"
        )
        status = page.locator("[data-search-results] .search-status").text_content()
        links = page.locator("[data-search-results] .search-list a").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))"
        )
    finally:
        context.close()
    assert not errors, errors
    return status, links


# (company id, record slug of its submitter page, the query, the language whose page it finds)
CASES = [
    ("nvidia", "nvidia", "英伟达", "zh"),
    ("nvidia", "nvidia", "輝達", "zh-hant"),
    ("nvidia", "nvidia", "NVIDIA", "en"),
    ("google", "google", "谷歌", "zh"),
    ("google", "google", "Google", "en"),
    ("dell", "dell", "戴尔", "zh"),
    ("dell", "dell", "戴爾", "zh-hant"),
    ("dell", "dell", "Dell", "en"),
    ("inspur", "inspur", "浪潮", "zh"),
    ("inspur", "inspur", "Inspur", "en"),
]


@pytest.mark.parametrize("company, slug, query, lang", CASES)
def test_a_company_typed_on_an_english_page_finds_its_page_first(
    browser, shipped_site, company, slug, query, lang
):
    names = _companies()[company]["name"]
    assert query in (names["en"], names["zh"], names["zh-hant"])  # the style sheet's forms
    _, links = _run(browser, (shipped_site / "en" / "index.html").as_uri(), query)
    assert links and links[0] == f"../{lang}/submitters/{slug}.html", links[:3]


@pytest.mark.parametrize("page_lang", ["zh", "zh-hant"])
@pytest.mark.parametrize("query", ["英伟达", "輝達", "NVIDIA", "谷歌", "Google", "戴尔", "戴爾", "Dell"])
def test_any_name_typed_on_a_chinese_page_finds_that_languages_page(browser, shipped_site, page_lang, query):
    slug = {
        "英伟达": "nvidia",
        "輝達": "nvidia",
        "NVIDIA": "nvidia",
        "谷歌": "google",
        "Google": "google",
    }.get(query, "dell")
    _, links = _run(browser, (shipped_site / page_lang / "index.html").as_uri(), query)
    assert links and links[0] == f"../{page_lang}/submitters/{slug}.html", links[:3]


def test_no_match_on_one_character_of_a_longer_query(browser, shipped_site):
    # 达 is in many pages (英伟达); 达人 in none: nothing is found
    index = search_text(shipped_site, "zh")
    assert "达" in index and "达人" not in index
    status, links = _run(browser, (shipped_site / "zh" / "index.html").as_uri(), "达人")
    assert links == [] and status == "没有与“达人”相关的结果。"


@pytest.mark.parametrize(
    "lang, query, idiom",
    [("zh", "英伟达", "条与“英伟达”相关的结果"), ("zh-hant", "輝達", "筆與「輝達」相關的結果")],
)
def test_the_count_reads_in_each_scripts_idiom(browser, shipped_site, lang, query, idiom):
    status, links = _run(browser, (shipped_site / lang / "index.html").as_uri(), query)
    count = len(links)
    assert status.startswith("找到") and status.endswith(idiom), status
    assert int(status[2 : status.index(idiom[0])]) >= count >= 1
