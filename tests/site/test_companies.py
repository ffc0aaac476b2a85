"""Companies as each language's press writes them (data/companies.yaml, issue 49): a submitter's
page is titled in the page's language with the record's spelling under it, the sentences the
site writes name it so (its Latin name beside it the first time on a page where they differ),
vendors take their names from it, and its mistakes are one line each with file and line.

The names here are the fixture's own: Zenith is 天顶 in Simplified and 天頂 in Traditional
Chinese; the record writes it "Zenith" (record_sample.py)."""

from __future__ import annotations

import re

import pytest

from sitegen.assemble.pipeline import build
from sitegen.base.errors import ContentError
from sitegen.content.load import load_site

from project import CACHE, SOURCES, TEMPLATES, THREE
from record_sample import SOURCES_EXTRA, write_record_project
from search_files import search_docs

COMPANIES = """\
- id: acme
  spellings: [Acme]
  name: {en: Acme, zh: 艾克米, zh-hant: 艾克米}
- id: zenith
  spellings: [Zenith]
  name: {en: Zenith, zh: 天顶, zh-hant: 天頂}
"""
VENDORS = """\
- id: acme
  color: "#0072B2"
- id: zenith
  color: "#009E73"
"""
BODY = """\
---
title: {title}
date: 2021-07-01
summary: {summary}
sources: [s-official]
systems: [acme-16]
benchmarks: [bert]
---
## {title}

N1 [[equal_scale:v1.0-acme-acme16-bert/Zenith]].

N2 [[equal_scale:v1.0-acme-acme16-bert/Zenith]].

```chart
benchmark: bert
round: [v1.0, v1.1]
systems: [acme-16]
```
"""
# v1.0's results repository has the site's own name per language (`label`); v1.1's has none
LABELLED = SOURCES_EXTRA.replace(
    "  title: MLPerf Training v1.0 results\n",
    "  title: MLPerf Training v1.0 results\n  label: {en: MLPerf Training v1.0 results, zh: MLPerf Training v1.0成绩}\n",
)


def _project(folder, changes=None):
    return write_record_project(
        folder,
        {
            "site.yaml": THREE,
            "data/companies.yaml": COMPANIES,
            "data/vendors.yaml": VENDORS,
            "data/sources.yaml": SOURCES + LABELLED,
            "reports/names.en.md": BODY.format(title="Names", summary="Names."),
            "reports/names.zh.md": BODY.format(title="名称", summary="名称。").replace("]].", "]]。"),
            **(changes or {}),
        },
    )


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    folder = tmp_path_factory.mktemp("companies")
    build(_project(folder), TEMPLATES, folder / "out", cache=CACHE)
    return folder / "out"


def _paragraph(out, lang: str, marker: str) -> str:
    html = (out / lang / "reports" / "names.html").read_text("utf-8")
    found = re.search(rf"<p>{marker} (.*?)</p>", html, re.S)
    assert found, marker
    return re.sub(r"<[^>]+>", "", found.group(1))


@pytest.mark.parametrize(
    "lang, first, later",
    [
        ("en", "the record has no Zenith result", "the record has no Zenith result"),
        ("zh", "官方记录中没有天顶（Zenith）在", "官方记录中没有天顶在"),
        ("zh-hant", "官方記錄中沒有天頂（Zenith）在", "官方記錄中沒有天頂在"),
    ],
)
def test_generated_sentences_name_the_company_in_the_language(out, lang, first, later):
    assert _paragraph(out, lang, "N1").startswith(first)
    assert _paragraph(out, lang, "N2").startswith(later)


@pytest.mark.parametrize(
    "lang, title, spelled",
    [
        ("en", "Zenith", None),
        ("zh", "天顶", "官方记录中的提交者名称：Zenith"),
        ("zh-hant", "天頂", "官方記錄中的提交者名稱：Zenith"),
    ],
)
def test_a_submitters_page_is_titled_in_its_language(out, lang, title, spelled):
    html = (out / lang / "submitters" / "zenith.html").read_text("utf-8")
    assert f'<h1 data-names="Zenith|天頂|天顶">{title}</h1>' in html
    line = re.search(r'<p class="record-spelling">(.*?)</p>', html)
    assert (line.group(1) if line else None) == spelled
    listing = (out / lang / "submitters" / "index.html").read_text("utf-8")
    assert f">{title}</a></th>" in listing


def test_search_documents_carry_every_name(out):
    docs = search_docs(out, "zh")
    page = next(d for d in docs if d["url"] == "zh/submitters/zenith.html")
    assert page["title"] == "天顶" and page["names"] == "Zenith|天頂|天顶"


def test_a_vendor_takes_its_name_from_its_company(tmp_path):
    site = load_site(_project(tmp_path))
    assert site.tables["vendors"]["zenith"]["name"] == {"en": "Zenith", "zh": "天顶", "zh-hant": "天頂"}


def _problems(tmp_path, changes) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_site(_project(tmp_path, changes), strict=True)
    # the fixture's prose has no written zh-hant text (each says so): not what these tests ask
    return [str(p) for p in caught.value.problems if "zh-hant text of its own" not in str(p)]


def test_a_spelling_of_two_companies_is_an_error(tmp_path):
    twice = (
        COMPANIES + "- id: zenith-labs\n  spellings: [zenith]\n  name: {en: Zenith Labs, zh: 天顶实验室}\n"
    )
    assert _problems(tmp_path, {"data/companies.yaml": twice}) == [
        "content/data/companies.yaml:8: company 'zenith-labs': spelling 'zenith' is also company "
        "'zenith''s (line 4); give each spelling one company"
    ]


def test_a_spelling_no_submitter_is_written_with_is_a_warning(tmp_path):
    odd = COMPANIES.replace("spellings: [Zenith]", "spellings: [Zenith, Zenit]")
    assert _problems(tmp_path, {"data/companies.yaml": odd}) == [
        "content/data/companies.yaml:5: warning: company 'zenith': no submitter of the record is written 'Zenit'"
    ]


def test_a_vendor_named_twice_or_never_is_an_error(tmp_path):
    vendors = VENDORS.replace("- id: zenith\n", "- id: zenith\n  name: {en: Zenith, zh: 天顶}\n")
    vendors += '- id: orbit\n  color: "#000000"\n'
    assert _problems(tmp_path, {"data/vendors.yaml": vendors}) == [
        "content/data/vendors.yaml:4: vendor 'zenith' is named in content/data/companies.yaml: remove its name here",
        "content/data/vendors.yaml:6: vendor 'orbit' has no name: give it one here ({en: ..., zh: ...}) or add "
        "it to content/data/companies.yaml",
    ]


@pytest.mark.parametrize(
    "lang, labelled",
    [
        ("en", "MLPerf Training v1.0 results"),
        ("zh", "MLPerf Training v1.0成绩"),
        ("zh-hant", "MLPerf Training v1.0成績"),
    ],
)
def test_a_charts_source_line_uses_the_sites_own_words_or_marks_the_title(out, lang, labelled):
    html = (out / lang / "reports" / "names.html").read_text("utf-8")
    line = re.search(r'<span class="chart-source">(.*?)</span>', html, re.S).group(1)
    assert re.search(rf'<a href="[^"]+">{labelled}</a>', line), line
    assert re.search(r'<a href="[^"]+" lang="en">MLPerf Training v1.1 results</a>', line), line


@pytest.mark.parametrize("lang, acme", [("en", "Acme"), ("zh", "艾克米"), ("zh-hant", "艾克米")])
def test_tables_and_filters_name_the_submitter_in_the_language(out, lang, acme):
    # v1.1's fastest BERT-Large is Acme's (record_sample.py)
    round_page = (out / lang / "rounds" / "v1.1.html").read_text("utf-8")
    assert f"<td>{acme}</td>" in round_page
    board = (out / lang / "benchmarks" / "bert" / "v1.1.html").read_text("utf-8")
    assert re.search(rf'<option value="acme">{acme}</option>', board), "the submitter filter"
