"""Fonts per Chinese script (issue 49), in Chromium's computed style: a Traditional Chinese page
and its charts (the Vega-Lite drawing and the scale chart, one drawing for every language)
use the Traditional font list (PingFang TC, Microsoft JhengHei, Noto Sans CJK TC, WenQuanYi
Micro Hei last), a Simplified page the Simplified one; text marked as the other script (the
language switch's 简体中文 on a Traditional page) takes that script's fonts."""

from __future__ import annotations

import pytest

from .quality_tools import tab_in

TRADITIONAL = ['"PingFang TC"', '"Microsoft JhengHei"', '"Noto Sans CJK TC"', '"WenQuanYi Micro Hei"']
SIMPLIFIED = ['"PingFang SC"', '"Microsoft YaHei"', '"Noto Sans CJK SC"', '"WenQuanYi Micro Hei"']

FONTS = """(other) => {
  const font = (selector) => {
    const node = document.querySelector(selector);
    return node ? getComputedStyle(node).fontFamily : null;
  };
  return {
    page: font('main p'),
    chart: font('#chart-progress .chart-view svg text'),
    scale: font('#chart-scale .chart-view svg text'),
    other: font(`.lang-switch a[lang="${other}"]`),
  };
}"""


def _in_order(family: str, fonts: list[str]) -> bool:
    """Whether every font of `fonts` is in the computed list, in that order, WenQuanYi Micro Hei
    after the others."""
    places = [family.find(font) for font in fonts]
    return -1 not in places and places == sorted(places)


@pytest.fixture(scope="module")
def context(browser):
    made = browser.new_context()
    yield made
    made.close()


@pytest.mark.parametrize(
    "lang, own, other_tag, other, other_fonts",
    [("zh-hant", TRADITIONAL, "zh-Hans", SIMPLIFIED, "SC"), ("zh", SIMPLIFIED, "zh-Hant", TRADITIONAL, "TC")],
)
def test_each_script_has_its_own_fonts(
    context, tabs, shipped_site, site_roots, lang, own, other_tag, other, other_fonts
):
    url = site_roots["file"] + f"{lang}/benchmarks/bert.html"
    with tab_in(tabs, context, url) as page:
        found = page.evaluate(FONTS, other_tag)
    for part in ("page", "chart", "scale"):
        assert found[part] is not None, part
        assert _in_order(found[part], own), (part, found[part])
        assert f"Noto Sans CJK {other_fonts}" not in found[part], (part, found[part])
    assert _in_order(found["other"], other), found["other"]
