"""Chinese typography on the shipped site (issue 49): no space after full-width punctuation on
any Chinese page (code aside), citations with full-width brackets and separators, a source's
own name marked as its language, and the chart drawings' fonts per script."""

from __future__ import annotations

import re

from lxml import html as lhtml

from sitegen.render.charts import draw, scale_svg

# full-width punctuation of Chinese text (and the quotation marks of both scripts)
FULL_WIDTH = "，。、；：？！（）「」『』《》〈〉【】［］〔〕“”‘’"
# (a space before a spaced separator, " · " between links, is the separator's own)
SPACE_AFTER = re.compile(f"[{FULL_WIDTH}][ \u00a0\u3000]++(?![·|])")


# the same in a page's source, a space written as a character reference too: a page without
# one has none in its text (most pages; parsing every Chinese page took 10 s)
IN_SOURCE = re.compile(f"[{FULL_WIDTH}](?:[ \u00a0\u3000]|&(?:nbsp|#160|#x[aA]0|#32|#x20);)")


def _spaces(page: bytes) -> list[str]:
    """Each space after full-width punctuation in a page's text nodes (code, scripts and
    styles aside), as the punctuation and ten characters around."""
    source = page.decode("utf-8")
    if not IN_SOURCE.search(source) and "&#" not in source:  # no punctuation written as a reference
        return []
    tree = lhtml.fromstring(source)
    for node in tree.xpath("//script|//style|//code|//pre|//svg"):
        node.drop_tree()
    found = []
    for text in tree.xpath("//text()"):
        if text.strip():
            found += [text[max(0, m.start() - 6) : m.end() + 4] for m in SPACE_AFTER.finditer(text)]
    return found


def test_the_check_finds_a_space_after_full_width_punctuation():
    page = (
        "<html><body><p>下载数据： <a>CSV</a></p><p>一句。二句</p><code>a： b</code>"
        "<p><a>甲（v1.0）</a> · <a>乙</a></p></body></html>"
    )
    assert _spaces(page.encode()) == ["下载数据： "]


def test_no_chinese_page_has_a_space_after_full_width_punctuation(shipped_site):
    found = {}
    pages = [p for lang in ("zh", "zh-hant") for p in sorted((shipped_site / lang).rglob("*.html"))]
    assert len(pages) > 2000
    for path in pages:
        for excerpt in _spaces(path.read_bytes()):
            found.setdefault(excerpt, path.relative_to(shipped_site).as_posix())
    assert found == {}


def test_a_citation_in_chinese_text_is_punctuated_as_chinese(shipped_site):
    """[[source:a001-eepw-2021]] in a Chinese report: full-width brackets and comma, the
    publisher's Simplified name marked as Simplified Chinese on the Traditional page."""
    page = (shipped_site / "zh-hant/reports/mlperf-v1-1-software-gains.html").read_text("utf-8")
    found = re.findall(
        r'<cite class="cite">［<a [^>]*><span lang="zh-Hans">电子产品世界（EEPW）</span>，([^<]*)</a>］</cite>',
        page,
    )
    assert found and all(date.startswith("2021年") for date in found)
    english = (shipped_site / "en/reports/mlperf-v1-1-software-gains.html").read_text("utf-8")
    assert re.search(
        r'<cite class="cite">\[<a [^>]*><span lang="zh-Hans">电子产品世界（EEPW）</span>, [A-Z]', english
    )


def test_chart_drawings_name_the_fonts_of_their_script():
    """A Vega-Lite drawing (downloadable as SVG, without the page's stylesheet) names the
    fonts of its page's script; the scale chart's drawing, one for every language, names none
    (it takes the page's)."""
    assert '"PingFang TC", "Microsoft JhengHei", "Noto Sans CJK TC", "WenQuanYi Micro Hei"' in draw.font(
        "zh-Hant"
    )
    assert '"PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei"' in draw.font(
        "zh-Hans"
    )
    assert "TC" not in draw.font("zh-Hans") and "SC" not in draw.font("zh-Hant")
    svg = scale_svg.draw(
        [{"n": 8, "t": 30.0, "g": 0, "h": 0}, {"n": 64, "t": 5.0, "g": 0, "h": 0}],
        240.0,
        [("circle", "#000000")],
        scale_svg.WIDE,
        "t",
    )
    assert "<text" in svg and "font-family" not in svg


def test_a_name_given_as_markup_keeps_its_language_in_a_sentence(tmp_path):
    """An interface string filled with a source's name marked as its language keeps the mark
    (a Simplified publisher on a Traditional page); any other value is escaped as text."""
    from markupsafe import Markup

    from sitegen.content.load import load_site
    from sitegen.render.page import source_name
    from sitegen.render.theme import Strings

    from project import THREE, write_project

    site = load_site(write_project(tmp_path, {"site.yaml": THREE}))
    t = Strings(site, "zh-hant")
    name = source_name({"language": "zh-Hans", "publisher": "电子产品世界<EEPW>"}, "zh-Hant")
    assert name == Markup('<span lang="zh-Hans">电子产品世界&lt;EEPW&gt;</span>')
    assert t("ref.cite", source=name) == Markup('［<span lang="zh-Hans">电子产品世界&lt;EEPW&gt;</span>］')
    assert t("ref.cite", source="a<b") == "［a<b］"  # plain text: the template escapes it
    assert source_name({"language": "zh-Hans", "publisher": "电子产品世界"}, "zh-Hans") == "电子产品世界"
    assert source_name(None, "zh-Hant") == "–"
