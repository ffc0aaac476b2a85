"""The check of mainland usage on Traditional Chinese pages (issue 49, sitegen/content/usage.py):
a form of the reviewed list (data/zh_hant_usage.csv), 列 in the sense of a table column, a
Simplified-only character; each a warning at the line of the file that holds it (--strict
fails); quotations (<blockquote>, <q>), text marked as another language and code are exempt."""

from __future__ import annotations

import pytest

from sitegen.assemble.pipeline import build
from sitegen.base.errors import ContentError
from sitegen.content import usage
from sitegen.content.load import load_site

from project import CACHE, COLUMN_TERMS, GLOSSARY, TEMPLATES, THREE, write_project

# (the fixture's interface strings are the shipped ones, converted without the term list:
# 對比 is on every page, so the project's list leaves it out)
USAGE = (
    "mainland,taiwan,except,note\n大語言模型,大型語言模型,,large language model\n按…排序,依…排序,,sort by\n"
)
PAIRS = (
    usage.Pair("大語言模型", "大型語言模型"),
    usage.Pair("對比", "比較", ("對比度",)),
    usage.Pair("按…排序", "依…排序", ("按鈕",)),
    usage.Pair("對上", "對決", ("對上一",)),
)


def _hits(text):
    return [match.group(0) for match, _ in usage.findings(text, PAIRS)]


@pytest.mark.parametrize(
    "text, hits",
    [
        ("這是大語言模型的成績", ["大語言模型"]),
        ("這是大型語言模型的成績", []),  # the Taiwan form holds no mainland form
        ("兩者對比", ["對比"]),
        ("螢幕的對比度", []),  # a correct word that contains the form
        ("按訓練時間排序", ["按訓練時間排序"]),  # a gap of a few characters
        ("按時間，再排序", []),  # ... within one phrase only
        ("依訓練時間排序", []),
        ("按鈕可重新排序", []),  # a button (按鈕), where the form starts
        ("以同樣數量的GPU對上Bow Pod16", ["對上"]),
        ("相對上一代GPU", []),  # 對 + 上一代
        ("見表中第二列和第四列的系統", ["第二列和第四列"]),  # two columns, named together
        ("點選欄名可依該列排序", ["列排序"]),  # only a column is sorted by
        ("「訓練時間」列中的數字", ["」列"]),  # a column named by its header
        ("列名與說明", ["列名"]),
        ("同一列的成績", []),  # a row, as Taiwan writes it
        ("第二列的系統", []),  # one ordinal alone may be a row
        ("这是说明", ["这", "说"]),  # Simplified-only characters
        ("皇后與頭髮、峰值、發布", []),  # Traditional characters that are also Simplified forms
    ],
)
def test_each_rule_finds_its_forms_and_no_correct_word(text, hits):
    assert _hits(text) == hits


def test_quotations_other_languages_and_code_are_exempt():
    page = (
        '<html lang="zh-Hant"><body><main><p>本文<q>大語言模型</q>，'
        "<blockquote><p>原文說这個對比</p></blockquote>"
        '<span lang="zh-Hans">简体中文</span><code>对比</code>'
        "<script>var a = '这'</script><p>其餘是對比。</p></main></body></html>"
    )
    assert usage.page_text(page.encode()).count("對比") == 1
    assert [match.group(0) for match, _ in usage.findings(usage.page_text(page.encode()), PAIRS)] == ["對比"]


# a Traditional Chinese report written with mainland usage: the list's form on line 13, the
# table's column on line 15, a Simplified character on line 17 and a quotation (exempt)
HANT = """\
---
title: Acme 與 Zenith
date: 2021-07-01
summary: Acme 較慢，但較便宜。
sources: [s-article, s-official]
systems: [acme-16, zenith-8]
benchmarks: [bert]
claims: [c-ppr]
written_from: "{digest}"
---
## 主要發現

兩套系統的大語言模型訓練[[result:r-acme]]。

表中第二列和第四列是Acme的成績[[source:s-official]]。

这一段寫錯了字。

> 原文說：大語言模型的對比。
"""


def _project(tmp_path, usage_csv=USAGE):
    """The three-language project with every Traditional Chinese text written (so that only
    the check warns): the report above, the methodology page and the glossary's definition."""
    from sitegen.content.written import review_digest

    glossary = GLOSSARY.replace(
        "zh: 达到目标所需的分钟数。}", "zh: 达到目标所需的分钟数。, zh-hant: 達到目標所需的分鐘數。}"
    )
    content = write_project(
        tmp_path,
        {
            "site.yaml": THREE,
            "data/zh_hant_usage.csv": usage_csv,
            "data/glossary.yaml": glossary,
            "data/terms.csv": COLUMN_TERMS,
        },
    )
    site = load_site(content)
    digest = {r.slug: review_digest(r) for r in site.reports + site.pages if r.lang == "zh"}
    (content / "reports" / "acme-vs-zenith.zh-hant.md").write_text(
        HANT.format(digest=digest["acme-vs-zenith"]), "utf-8"
    )
    page = f'---\ntitle: 方法說明\nsummary: 數字從何而來。\nwritten_from: "{digest["methodology"]}"\n---\n正文。\n'
    (content / "pages" / "methodology.zh-hant.md").write_text(page, "utf-8")
    return content


def test_a_written_page_with_mainland_usage_warns_at_its_lines(tmp_path):
    report = build(_project(tmp_path), TEMPLATES, tmp_path / "out", cache=CACHE)
    said = sorted(str(w) for w in report.warnings if w.path.endswith("acme-vs-zenith.zh-hant.md"))
    page = "zh-hant/reports/acme-vs-zenith.html"
    where = "content/reports/acme-vs-zenith.zh-hant.md"
    assert said == sorted(
        f"{where}:{line}: warning: zh-hant: {message} (on {file})"
        for file in (page, "single/" + page.replace("reports/", ""))
        for line, message in (
            (
                13,
                "'大語言模型' is mainland usage (data/zh_hant_usage.csv): write '大型語言模型' (large language model)",
            ),
            (15, "'第二列和第四列': 列 is a row in Taiwan; a table column is 欄"),
            (17, "'这' is a Simplified character"),
        )
    )


def test_strict_fails_on_mainland_usage(tmp_path):
    content = _project(tmp_path)
    with pytest.raises(ContentError) as caught:
        build(content, TEMPLATES, tmp_path / "out", strict=True, cache=CACHE)
    assert len(caught.value.problems) == 6
    assert all(": warning: zh-hant: " in str(p) for p in caught.value.problems)
    assert not (tmp_path / "out").exists()  # nothing published


def test_a_pair_whose_taiwan_form_holds_the_mainland_one_is_an_error(tmp_path):
    csv = "mainland,taiwan,except,note\n網路,網路連線,,no\n對比,比較\n,比較\n"
    with pytest.raises(ContentError) as caught:
        load_site(write_project(tmp_path, {"site.yaml": THREE, "data/zh_hant_usage.csv": csv}))
    assert [str(p) for p in caught.value.problems if "zh_hant_usage" in p.path] == [
        "content/data/zh_hant_usage.csv:2: the Taiwan form '網路連線' holds the mainland form '網路': "
        "list it under 'except', or name a longer mainland form",
        "content/data/zh_hant_usage.csv:4: a row names its 'mainland' form and its 'taiwan' form",
    ]


def test_the_simplified_characters_come_from_opencc_dictionaries():
    """這 (zhe) is Traditional, 这 its Simplified form; 后 and 发 are both Simplified forms,
    but 后 is also a Traditional character (皇后) and 发 is not (發, 髮); 峯 is OpenCC's
    Traditional form of 峰, which Taiwan writes 峰."""
    assert [ch for ch in "这這后发發峰峯里着" if ch in usage.simplified_only()] == ["这", "发"]


def test_shipped_list_pairs_are_well_formed():
    """The shipped list loads (no row whose Taiwan form holds its mainland one) and holds the
    pairs the issue and the style sheet name."""
    from pathlib import Path

    from sitegen.base.errors import Problems

    content = Path(__file__).resolve().parents[2] / "content"
    problems = Problems(content)
    pairs = {pair.mainland: pair.taiwan for pair in usage.load_pairs(content, problems)}
    assert problems.items == []
    for mainland, taiwan in (
        ("大語言模型", "大型語言模型"),
        ("目標檢測", "物件偵測"),
        ("語音識別", "語音辨識"),
        ("媒體交流會", "記者會"),
        ("按…排序", "依…排序"),
        ("對比", "比較"),
        ("視頻", "影片"),
        ("網絡", "網路"),
        ("質量", "品質"),
        ("默認", "預設"),
        ("數據集", "資料集"),
        ("軟件", "軟體"),
        ("芯片", "晶片"),
    ):
        assert pairs.get(mainland) == taiwan, mainland


# Taiwan's own words for the concepts of the shipped list, and correct words that contain a
# mainland form: none of them is a hit
TAIWAN_TEXT = (
    "大型語言模型、物件偵測、語音辨識、影像分類、記者會、自行測試、加速、比較、對比度、相對上一代、對決、"
    "網路、資訊、品質、預設、應用程式、程式碼、程式設計師、審查程序、資料集、開源專案、比賽項目、軟體、"
    "硬體、晶片、伺服器、記憶體、效能、人工智慧、叢集、頻寬、快取、作業系統、原始碼、資料夾、連結、點選、"
    "點擊率、搜尋、介面、模組、位元組、字節跳動、線上、在線上閱讀、按鈕可重新排序、依時間排序、第二列、"
    "同一列、欄名、依該欄排序、較小的系統。"
)


def test_the_shipped_list_fires_on_no_taiwan_word():
    from pathlib import Path

    from sitegen.base.errors import Problems

    content = Path(__file__).resolve().parents[2] / "content"
    pairs = usage.load_pairs(content, Problems(content))
    assert [match.group(0) for match, _ in usage.findings(TAIWAN_TEXT, pairs)] == []


def test_shipped_zh_hant_pages_hold_no_mainland_usage(shipped_build):
    """What the build of the shipped site says of its zh-Hant pages: no mainland usage (this
    fails while a report is converted from Simplified text; the written files fix it)."""
    import json

    warnings = json.loads((shipped_build / "warnings.json").read_text("utf-8"))
    assert [w for w in warnings if ": warning: zh-hant: " in w] == []


def test_a_rebuild_that_reuses_the_page_says_its_hits_again(tmp_path):
    content = _project(tmp_path)
    first = build(content, TEMPLATES, tmp_path / "out", cache=CACHE)
    page = content / "pages" / "methodology.en.md"
    page.write_text(page.read_text("utf-8") + "\nMore.\n", "utf-8")  # the report's pages are reused
    second = build(content, TEMPLATES, tmp_path / "out", cache=CACHE)
    assert second.units_reused > 0

    def hits(report):
        return sorted(str(w) for w in report.warnings if "acme-vs-zenith.zh-hant.md" in w.path)

    assert hits(second) == hits(first) and len(hits(first)) == 6


def test_the_list_is_read_from_the_store_until_it_changes(tmp_path, own_store, monkeypatch):
    """The list's parse is kept in the build's store like every data file's: a load of the same
    bytes reads no file (the shipped list's "…" had every load check it for mojibake, importing
    ftfy: 0.03 s of every rebuild), gives the same pairs, and an edit is read at the next load."""
    from sitegen.base.errors import Problems

    content = tmp_path / "content"
    (content / "data").mkdir(parents=True)
    path = content / usage.USAGE
    path.write_text(USAGE, "utf-8")
    read: list = []
    read_csv = usage.read_csv
    monkeypatch.setattr(usage, "read_csv", lambda *a: read.append(a[0]) or read_csv(*a))

    def pairs() -> tuple:
        return usage.load_pairs(content, Problems(content, store=own_store))

    first = pairs()
    assert read == [path] and [p.mainland for p in first] == ["大語言模型", "按…排序"]
    assert pairs() == first and read == [path]  # from the store
    path.write_text(USAGE + "視頻,影片,,video\n", "utf-8")
    assert [p.mainland for p in pairs()] == ["大語言模型", "按…排序", "視頻"] and read == [path, path]
