"""Languages as data (site.yaml), Traditional Chinese by conversion with the reviewed term list,
no ASCII space between CJK characters on a Chinese page, one term per concept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitegen.assemble.pipeline import build
from sitegen.base import fmt, languages
from sitegen.base.errors import ContentError
from sitegen.base.languages import KNOWN
from sitegen.content.load import load_site
from sitegen.content.textcheck import cjk_spaces

from project import CACHE, TEMPLATES, THREE, write_project
from search_files import search_text

TERMS = (
    "en,zh-Hans,zh-Hant,avoid\n"
    "time to train,训练时间,訓練時間,训练用时;训练耗时\n"
    "memory,内存,記憶體,\n"
    "quality target,质量目标,品質目標,\n"
    "Huawei,华为,華為,\n"
)


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    folder = tmp_path_factory.mktemp("three")
    content = write_project(folder, {"site.yaml": THREE, "data/terms.csv": TERMS})
    out = folder / "output"
    build(content, TEMPLATES, out, cache=CACHE)
    return out


def _html(out, rel):
    return (out / rel).read_text("utf-8")


def test_conversion_s2twp_with_reviewed_terms(tmp_path):
    write_project(tmp_path, {"site.yaml": THREE, "data/terms.csv": TERMS})
    site = load_site(tmp_path / "content")  # its languages and the term list
    convert = lambda text: site.languages.convert(text, "zh-hant")  # noqa: E731
    # OpenCC's Taiwan phrases
    assert convert("内存带宽与软件") == "記憶體頻寬與軟體"
    assert convert("服务器的网络与数据集") == "伺服器的網路與資料集"
    # the reviewed term list corrects the converter (质量目标 -> 質量目標 by OpenCC)
    assert convert("达到质量目标所需的训练时间") == "達到品質目標所需的訓練時間"
    assert convert("华为的加速器") == "華為的加速器"
    # Latin names, ids, numbers and references are left alone
    assert (
        convert("Graphcore IPU-POD16 与 NVIDIA DGX A100：[[result:r-acme]]，28.33分钟")
        == "Graphcore IPU-POD16 與 NVIDIA DGX A100：[[result:r-acme]]，28.33分鐘"
    )


def test_numbers_and_dates_in_zh_hant_tw():
    import datetime as dt

    assert fmt.usd(149000, KNOWN["zh-hant"]) == "14.9萬美元"
    assert fmt.usd(149000, KNOWN["zh"]) == "14.9万美元"
    assert fmt.date(dt.date(2022, 7, 4), KNOWN["zh-hant"]) == "2022年7月4日"
    assert fmt.ratio(1.5, KNOWN["zh-hant"]) == "1.50倍"


def test_three_languages_lang_attributes_and_alternates(three):
    page = _html(three, "zh-hant/reports/acme-vs-zenith.html")
    assert '<html lang="zh-Hant">' in page
    for code, href in (
        ("en", "../../en/reports/"),
        ("zh-Hans", "../../zh/reports/"),
        ("zh-Hant", ""),
        ("x-default", "../../en/reports/"),
    ):
        assert f'<link rel="alternate" hreflang="{code}" href="{href}acme-vs-zenith.html">' in page
    # the switch offers the two others, each in its own script
    switch = re.search(r'<nav class="lang-switch".*?</nav>', page, re.S).group(0)
    assert ">English</a>" in switch and ">简体中文</a>" in switch and "繁體中文" not in switch
    assert '<html lang="zh-Hans">' in _html(three, "zh/reports/acme-vs-zenith.html")
    chooser = _html(three, "index.html")
    assert all(name in chooser for name in ("English", "简体中文", "繁體中文"))
    assert 'hreflang="zh-Hant" href="zh-hant/index.html"' in chooser


def test_zh_hant_pages_are_converted_and_say_so(three):
    page = _html(three, "zh-hant/reports/acme-vs-zenith.html")
    assert "測試賬本" in page or "測試帳本" in page  # the site title, converted
    assert "本頁由簡體中文版自動轉換而來" in page  # the quiet note, in its own language
    assert "converted-note" not in _html(three, "zh/reports/acme-vs-zenith.html")
    status = _html(three, "en/editors/status.html")
    assert "acme-vs-zenith" in status and "繁體中文" in status
    # the search index of zh-hant holds Traditional text
    assert "測試" in search_text(three, "zh-hant")


def test_an_editors_own_traditional_file_wins(tmp_path):
    own = "---\ntitle: 編輯自己的標題\nsummary: 自己寫的。\ndate: 2021-07-01\nsources: [s-article]\n---\n正文。\n"
    content = write_project(
        tmp_path,
        {
            "site.yaml": THREE,
            "pages/methodology.zh-hant.md": own.replace("date: 2021-07-01\nsources: [s-article]\n", ""),
        },
    )
    site = load_site(content)
    page = next(p for p in site.pages if p.lang == "zh-hant")
    assert page.title == "編輯自己的標題" and not page.converted


def test_a_fourth_language_needs_only_data_and_its_i18n_file(tmp_path):
    four = (
        THREE.replace("default_language: en\n", "")
        + "  - {code: zh-hk, lang: zh-Hant-HK, locale: zh_Hant_HK, name: 繁體中文（香港）, "
        "from: zh, convert: s2hk}\ndefault_language: en\n"
    )
    content = write_project(tmp_path, {"site.yaml": four, "i18n/zh-hk.yaml": "nav.home: 首頁（香港）\n"})
    out = tmp_path / "output"
    build(content, TEMPLATES, out, cache=CACHE)
    page = (out / "zh-hk/index.html").read_text("utf-8")
    assert '<html lang="zh-Hant-HK">' in page
    assert "首頁（香港）" in page  # its i18n file wins
    assert 'hreflang="zh-Hant-HK"' in (out / "en/index.html").read_text("utf-8")
    assert "繁體中文（香港）" in (out / "index.html").read_text("utf-8")
    assert (out / "zh-hk/reports/acme-vs-zenith.html").exists()


def test_folded_chinese_yaml_is_joined_without_a_space(tmp_path):
    glossary = (
        "- id: ttt\n  term: {en: Time to train, zh: 训练时间}\n  definition:\n"
        "    en: >-\n      Minutes to reach\n      the target.\n"
        "    zh: >-\n      达到目标\n      所需的分钟数，MLPerf\n      Training 的成绩。\n"
    )
    site = load_site(write_project(tmp_path, {"data/glossary.yaml": glossary}))
    definition = site.get("glossary", "ttt")["definition"]
    assert definition["zh"] == "达到目标所需的分钟数，MLPerf Training 的成绩。"
    assert definition["en"] == "Minutes to reach the target."


def test_cjk_space_check_finds_a_planted_space():
    assert cjk_spaces('<p>训练 时间</p>') == ["训练␣时间"]
    assert cjk_spaces('<p>DGX A100（640 GB） <a href="#">对比</a></p>') == ["（640 GB）␣对比"]
    assert cjk_spaces('<p>MLPerf 训练 BERT 用时</p><pre>中 文</pre>') == []
    assert cjk_spaces('<td>中</td>\n<td>文</td>') == []


def test_a_planted_space_on_a_chinese_page_fails_the_build(tmp_path, capsys):
    from project import REPORT_ZH

    content = write_project(
        tmp_path, {"reports/acme-vs-zenith.zh.md": REPORT_ZH.rstrip("\n") + "\n\n这是 一个空格。\n"}
    )
    with pytest.raises(ContentError) as caught:
        build(content, TEMPLATES, tmp_path / "output", cache=CACHE)
    messages = [str(p) for p in caught.value.problems]
    assert (
        "output/zh/reports/acme-vs-zenith.html: ASCII space between two CJK characters: "
        "'这是␣一个空格。'; remove it" in messages
    )


def _findings_report():
    from project import REPORT_ZH

    return REPORT_ZH.replace(
        "claims: [c-ppr]\n", "claims: [c-ppr]\nfindings:\n  - \"Acme更慢。\"\n  - \"Acme的训练用时更长。\"\n"
    )


# A second term for one concept is an error on its line: in the glossary, and in a report's
# findings box (report text too; the error is on the front matter's findings line).
SECOND_TERM = {
    "glossary": (
        "data/glossary.yaml",
        lambda: (
            "- id: ttt\n  term: {en: Time to train, zh: 训练用时}\n  definition: {en: Minutes., zh: 分钟数。}\n"
        ),
        "content/data/glossary.yaml:1",
    ),
    "findings": ("reports/acme-vs-zenith.zh.md", _findings_report, "content/reports/acme-vs-zenith.zh.md:9"),
}


@pytest.mark.parametrize("case", list(SECOND_TERM))
def test_term_list_rejects_a_second_term_for_one_concept(tmp_path, case):
    path, text, where = SECOND_TERM[case]
    content = write_project(tmp_path, {"data/terms.csv": TERMS, path: text()})
    with pytest.raises(ContentError) as caught:
        load_site(content)
    assert [str(p) for p in caught.value.problems if "term list" in p.message] == [
        f"{where}: '训练用时': the term list (data/terms.csv) uses '训练时间' for this concept"
    ]


def test_a_bad_language_entry_is_reported_on_its_line(tmp_path):
    bad = THREE.replace("locale: zh_Hant_TW", "locale: zz_Nowhere")
    with pytest.raises(ContentError) as caught:
        load_site(write_project(tmp_path, {"site.yaml": bad}))
    assert any("unknown Babel locale 'zz_Nowhere'" in str(p) for p in caught.value.problems)


def test_shipped_zh_hant_pages_read_as_traditional(shipped_site):
    """Fewer than 0.5 % of the CJK characters of every zh-Hant page's own text (outside quoted
    titles and text marked with another language) are ones OpenCC s2tw would still change."""
    import opencc
    from lxml import html as lhtml

    s2tw = opencc.OpenCC("s2tw")
    total = changed = 0
    for path in sorted((shipped_site / "zh-hant").rglob("*.html")):
        tree = lhtml.fromstring(path.read_bytes())
        for node in tree.xpath("//script|//style|//*[@lang and @lang!='zh-Hant']"):
            node.drop_tree()
        text = re.sub(r"“[^”]*”|「[^」]*」", "", tree.text_content())
        cjk = "".join(re.findall(r"[\u4e00-\u9fff]", text))
        total += len(cjk)
        changed += sum(a != b for a, b in zip(cjk, s2tw.convert(cjk)))
    assert total > 10000
    assert changed / total < 0.005, f"{changed} of {total} CJK characters are still Simplified"


def test_the_energy_unit_and_the_cross_division_note_read_as_taiwan_writes_them():
    """unit.megajoule and ref.cross_division are converted for zh-Hant like every string: 兆 is
    10^6 in the mainland and 10^12 in Taiwan, so the term list makes 兆焦 百萬焦耳 there."""
    from sitegen.base.errors import Problems
    from sitegen.content.load import load_config
    from sitegen.content.strings import load_strings

    content = Path(__file__).resolve().parents[2] / "content"
    _, shipped = load_config(content)  # its languages and terms
    strings, _ = load_strings(content, shipped, Problems(content))
    assert strings["zh"]["unit.megajoule"] == "兆焦"
    assert strings["zh-hant"]["unit.megajoule"] == "百萬焦耳"
    assert strings["zh-hant"]["ref.cross_division"] == "跨組別比較"
    assert strings["en"]["unit.megajoule"] == " MJ"


# --- A count of one in the singular (`<key>_one`) --------------------------------------------


def test_a_count_of_one_takes_the_singular_form_where_the_language_has_one():
    english = {"n.results": "{n} results", "n.results_one": "{n} result"}
    chinese = {"n.results": "{n}项成绩"}
    assert languages.counted(english, "n.results", {"n": "1"}) == "n.results_one"
    assert languages.counted(english, "n.results", {"count": 1}) == "n.results_one"
    for many in ("0", "2", "11", "1,000", "1.5"):
        assert languages.counted(english, "n.results", {"n": many}) == "n.results"
    assert languages.counted(english, "n.results", {}) == "n.results"
    assert languages.counted(chinese, "n.results", {"n": "1"}) == "n.results"


def test_a_singular_form_in_english_alone_is_no_missing_chinese_string(tmp_path):
    """The shipped strings: English has singular forms, Chinese none, and the site loads (a
    missing string is a content error)."""
    site = load_site(write_project(tmp_path / "site"))
    ones = [key for key in site.strings["en"] if key.endswith(languages.ONE)]
    assert ones and not [key for key in ones if key in site.strings["zh"]]


def test_the_term_fixes_apply_in_one_pass_so_none_rewrites_another():
    # 目标检测 becomes 物件偵測 by one fix; a second fix (物件 -> 對象, for OpenCC's 物件 of 对象)
    # must not then rewrite it: applied one after the other, the page read 對象偵測
    from sitegen.base.languages import _convert

    fixes = (("目標檢測", "物件偵測"), ("物件", "對象"))
    assert _convert("目标检测与对象", "s2t", fixes) == "物件偵測與對象"
