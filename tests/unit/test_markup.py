from sitegen.content.load import load_site
from sitegen.derive.model import build as build_model
from sitegen.render.markup import new_markdown, render_body
from sitegen.render.page import Page
from sitegen.render.references import rich_text


def render(site, text, lang="en"):
    page = Page(site, lang, f"{lang}/reports/x.html", build_model(site), "content/reports/x.en.md", 5)
    html, toc = render_body(new_markdown, text, page, lambda *a: "")
    return html, toc, page


def test_chinese_headings_get_unique_non_empty_ids(project):
    site = load_site(project)
    html, toc, _ = render(site, "## 主要发现\n\n文字\n\n## 主要发现\n\n## 价格与性能\n", "zh")
    ids = [item["id"] for item in toc]
    assert ids == ["主要发现", "主要发现_1", "价格与性能"]
    assert '<h2 id="主要发现">' in html


def test_figures_come_from_the_data_with_links(project):
    site = load_site(project)
    html, _, page = render(
        site,
        "Acme: [[result:r-acme]], [[speedup:r-zenith/r-acme]], [[price:acme-16]], [[system:zenith-8]]",
        "zh",
    )
    assert '<a href="../systems/acme-16.html#result-r-acme">30.0分钟</a>' in html
    assert '<span class="derived">1.50倍</span>' in html
    assert '<a href="../systems/acme-16.html#prices">15万美元</a>' in html
    assert '<a href="../systems/zenith-8.html">Zenith 8</a>' in html
    assert page.problems == []


def test_price_performance_can_name_its_prices(project):
    site = load_site(project)
    html, _, page = render(site, "[[ppr:r-acme/r-zenith]] [[ppr:r-acme/r-zenith@zenith-8/zenith-8]]")
    # (20 x 300k) / (30 x 150k) = 1.33; with Zenith's price on both sides: 20 / 30 = 0.667
    # (three significant digits, as every figure)
    assert '<span class="derived">1.33×</span> <span class="derived">0.667×</span>' in html
    assert page.problems == []


def test_unknown_reference_names_file_and_line(project):
    site = load_site(project)
    _, _, page = render(site, "first line\n\nsecond [[result:nope]]\n")
    assert [str(p) for p in page.problems] == ["content/reports/x.en.md:7: unknown result 'nope' in [[...]]"]


def test_markdown_extensions_tables_footnotes_attr_lists(project):
    site = load_site(project)
    html, _, _ = render(site, "| a | b |\n|---|--:|\n| 1 | 2 |\n\nText[^1]{.lead}\n\n[^1]: Note.\n")
    assert '<div class="table-wrap" tabindex="0"><table class="stack">' in html and 'class="footnote"' in html
    # stacked rows on a phone: each body cell names its column
    assert '<td data-label="a">1</td>' in html and '<td data-label="b"' in html


def test_rich_text_escapes_markup_and_fills_figures(project):
    site = load_site(project)
    html = rich_text(
        "<b>x</b> [[result:r-zenith]]", Page(site, "en", "en/claims/index.html", build_model(site))
    )
    assert html.startswith("&lt;b&gt;x&lt;/b&gt; <a href=")
