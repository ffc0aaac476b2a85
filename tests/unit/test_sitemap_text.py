"""The sitemap's entries are written as text (render/sitemap.py): what XML needs escaped is
escaped, in the page's address and in its language twins' links."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from sitegen.base.languages import Languages
from sitegen.render.sitemap import sitemap_files


def _site(base_url: str):
    return SimpleNamespace(
        languages=Languages.default(),
        config={"base_url": base_url, "default_language": "en"},
        changelog=[],
        reports=[],
        rounds={"v1.0": {"commit_date": dt.date(2022, 6, 29)}},
        store=None,
    )


def test_an_address_with_an_ampersand_and_a_quote_is_escaped():
    site = _site('https://example.org/a&b"c/')
    pages = {"en/index.html", "zh/index.html"}
    text = sitemap_files(site, {}, pages, set())["sitemap.xml"].decode("utf-8")
    zh = site.languages.html_lang("zh")
    assert text == (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        "  <url>\n"
        '  <loc>https://example.org/a&amp;b"c/en/index.html</loc>\n'
        "  <lastmod>2022-06-29</lastmod>\n"
        '  <xhtml:link rel="alternate" hreflang="en" href="https://example.org/a&amp;b&quot;c/en/index.html"/>\n'
        f'  <xhtml:link rel="alternate" hreflang="{zh}" href="https://example.org/a&amp;b&quot;c/zh/index.html"/>\n'
        '  <xhtml:link rel="alternate" hreflang="x-default" href="https://example.org/a&amp;b&quot;c/en/index.html"/>\n'
        "  </url>\n"
        "  <url>\n"
        '  <loc>https://example.org/a&amp;b"c/zh/index.html</loc>\n'
        "  <lastmod>2022-06-29</lastmod>\n"
        '  <xhtml:link rel="alternate" hreflang="en" href="https://example.org/a&amp;b&quot;c/en/index.html"/>\n'
        f'  <xhtml:link rel="alternate" hreflang="{zh}" href="https://example.org/a&amp;b&quot;c/zh/index.html"/>\n'
        '  <xhtml:link rel="alternate" hreflang="x-default" href="https://example.org/a&amp;b&quot;c/en/index.html"/>\n'
        "  </url>\n"
        "</urlset>\n"
    )
