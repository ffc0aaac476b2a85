"""Reader features (sitegen/render/search.py, feed.py, sitemap.py, single_file.py): search
index scripts, Atom feeds, sitemap and robots, sharing metadata, the root 404 page, single-file
reports, and search in a real browser."""

from __future__ import annotations

import posixpath
from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from sitegen.assemble.pipeline import build
from sitegen.base import npm
from sitegen.base.errors import ContentError

from project import CACHE, SITE, write_project
from search_files import search_docs, search_shards

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
BASE_URL = "https://example.org/ledger/"
SLUG = "acme-vs-zenith"


def html(path: Path):
    return lxml.html.document_fromstring(path.read_bytes())


def report_pages(site: Path, lang: str) -> list[str]:
    return sorted(p.name for p in (site / lang / "reports").glob("*.html") if p.name != "index.html")


@pytest.fixture(scope="module")
def based_site(tmp_path_factory):
    """The tiny project with a base_url: absolute links in feeds, a sitemap, og:url."""
    folder = tmp_path_factory.mktemp("based")
    content = write_project(folder, {"site.yaml": SITE + f"base_url: {BASE_URL}\n"})
    out = folder / "output"
    build(content, TEMPLATES, out, cache=CACHE)
    return out


# --- search index -----------------------------------------------------------------------------


def test_each_language_has_its_own_index_script(tiny_site):
    en, zh = search_docs(tiny_site, "en"), search_docs(tiny_site, "zh")
    assert {d["lang"] for d in en} == {"en"} and {d["lang"] for d in zh} == {"zh"}
    assert all(d["url"].startswith("en/") for d in en)
    assert all(d["url"].startswith("zh/") for d in zh)
    zh_report = next(d for d in zh if d["url"] == f"zh/reports/{SLUG}.html")
    assert zh_report["title"] == "Acme 对比 Zenith"
    assert zh_report["kind"] == "report" and zh_report["label"] == "报告"
    assert zh_report["snippet"] == "Acme 更慢，但更便宜。"
    assert "主要发现" in zh_report["text"] and "<" not in zh_report["text"]
    glossary = next(d for d in zh if d["url"] == "zh/glossary.html")
    assert "训练时间" in glossary["text"]
    en_report = next(d for d in en if d["url"] == f"en/reports/{SLUG}.html")
    assert "Findings" in en_report["text"]


def test_index_lists_every_public_page_in_a_fixed_order(tiny_site):
    for lang in ("en", "zh"):
        for shard in search_shards(tiny_site, lang):
            listed = [d["url"] for d in shard]
            assert listed == sorted(listed), "a shard's documents are not in path order"
        docs = search_docs(tiny_site, lang)
        urls = [d["url"] for d in docs]
        pages = sorted(p.relative_to(tiny_site).as_posix() for p in (tiny_site / lang).rglob("*.html"))
        hidden = ("/404.html", "/editors/status.html")  # not found, and the editors' noindex page
        assert urls == [
            p for p in pages if not p.endswith(hidden) and not record_row(p) and not system_description(p)
        ]
        for doc in docs:
            assert set(doc) == {"url", "title", "snippet", "text", "kind", "label", "lang"}
            assert doc["title"] and doc["snippet"], doc["url"]


def test_a_record_pages_snippet_is_its_lead_never_a_note_on_its_figures(tiny_site):
    """Many pages repeat the same notes (what accelerator-minutes are, how the fastest is
    chosen): a snippet made of one would read alike for every submitter or benchmark."""
    for lang, colon in (("en", ": "), ("zh", "：")):
        docs = {d["url"]: d for d in search_docs(tiny_site, lang)}
        noted = 0
        for url, doc in docs.items():
            notes = html(tiny_site / url).xpath("//main//p[contains(concat(' ', @class, ' '), ' note ')]")
            noted += len(notes)
            snippet = doc["snippet"].removesuffix("…")
            assert not any(" ".join(p.text_content().split()).startswith(snippet) for p in notes), url
        assert noted, "no page of the tiny site has a note: nothing checked"
        for url in (f"{lang}/submitters/acme.html", f"{lang}/benchmarks/bert.html"):
            specs = html(tiny_site / url).xpath("//main//dl[contains(concat(' ', @class, ' '), ' specs ')]")[
                0
            ]
            term, value = (" ".join(el.text_content().split()) for el in specs.xpath("dt[1] | dd[1]"))
            assert docs[url]["snippet"].startswith(f"{term}{colon}{value}"), url
        for url in (f"{lang}/submitters/acme.html", f"{lang}/accelerators/acme-a1.html"):
            facts = docs[url]["snippet"].split("；" if lang == "zh" else "; ")
            assert len(facts) > 2 and all(fact.count(colon.strip()) == 1 for fact in facts), facts
        chip = html(tiny_site / f"{lang}/accelerators/acme-a1.html").xpath("//dd[@class='chip-look']")[0]
        assert " ".join(chip.text_content().split()) not in docs[f"{lang}/accelerators/acme-a1.html"]["text"]


def test_minisearch_is_copied_from_node_modules(tiny_site):
    code = (tiny_site / "assets" / "minisearch.js").read_text("utf-8")
    assert "MiniSearch" in code and "sourceMappingURL" not in code
    assert (tiny_site / "assets" / "search.js").is_file()


def test_a_missing_minisearch_is_a_content_error_naming_the_fix(tmp_path, monkeypatch):
    monkeypatch.setattr(npm, "MINISEARCH", (("minisearch", "dist/umd/moved.js"),))
    content = write_project(tmp_path)
    with pytest.raises(ContentError) as caught:
        build(content, TEMPLATES, tmp_path / "output", cache=CACHE)
    assert "reinstall it" in str(caught.value) and "scripts/vendor_js.py" in str(caught.value)
    assert not (tmp_path / "output").exists()


def test_every_language_page_has_the_search_form_and_scripts(tiny_site):
    for lang in ("en", "zh"):
        for path in sorted((tiny_site / lang).rglob("*.html")):
            doc = html(path)
            forms = doc.xpath("//form[@role='search']")
            assert len(forms) == 1, path
            form = forms[0]
            assert form.get("hidden") is not None, f"{path}: the form shows without JavaScript"
            root = (path.parent / form.get("data-root")).resolve()
            assert root == tiny_site.resolve(), f"{path}: data-root does not lead to the root"
            box = form.xpath(".//input[@type='search']")[0]
            assert form.xpath(f".//label[@for='{box.get('id')}']"), f"{path}: the box has no label"
            results = form.xpath(".//*[@data-search-results]")
            assert results and results[0].get("aria-live") == "polite"
            scripts = [s.get("src") for s in doc.xpath("//script[@src]")]
            src = next((s for s in scripts if s.endswith("assets/search.js")), None)
            assert src and (path.parent / src).is_file(), f"{path}: no script search.js"
            # the library and the index load on first focus or keystroke, not with the page
            for name in ("minisearch.js", f"search-{lang}.js"):
                assert not any(s.endswith("assets/" + name) for s in scripts), path
                assert (root / "assets" / name).is_file(), name
            assert all(s.get("defer") is not None for s in doc.xpath("//script[@src]"))
            assert not doc.xpath("//script[@type='module']")


# --- feeds ------------------------------------------------------------------------------------


def test_feeds_are_atom_with_one_entry_per_report(tiny_site):
    for lang in ("en", "zh"):
        path = tiny_site / lang / "feed.xml"
        feed = etree.fromstring(path.read_bytes())
        assert feed.tag == f"{ATOM}feed"
        for required in ("id", "title", "updated", "author"):
            assert feed.find(f"{ATOM}{required}") is not None, required
        assert feed.findtext(f"{ATOM}updated") == "2021-07-01T00:00:00+00:00"
        assert feed.findtext(f"{ATOM}id").startswith("urn:uuid:")
        assert "feedgen" not in feed.findtext(f"{ATOM}generator")
        entries = feed.findall(f"{ATOM}entry")
        assert len(entries) == len(report_pages(tiny_site, lang)) == 1
        entry = entries[0]
        assert entry.findtext(f"{ATOM}id").startswith("urn:uuid:")
        assert entry.findtext(f"{ATOM}updated") == "2021-07-01T00:00:00+00:00"
        assert entry.findtext(f"{ATOM}summary")
        href = entry.find(f"{ATOM}link").get("href")
        assert not href.startswith(("http", "/")), "links are relative without base_url"
        assert (path.parent / href).is_file(), href
    zh = etree.fromstring((tiny_site / "zh" / "feed.xml").read_bytes())
    assert zh.find(f"{ATOM}entry").findtext(f"{ATOM}title") == "Acme 对比 Zenith"


def test_feed_links_are_absolute_with_a_base_url_and_ids_do_not_change(tiny_site, based_site):
    based = etree.fromstring((based_site / "en" / "feed.xml").read_bytes())
    plain = etree.fromstring((tiny_site / "en" / "feed.xml").read_bytes())
    link = based.find(f"{ATOM}entry").find(f"{ATOM}link").get("href")
    assert link == f"{BASE_URL}en/reports/{SLUG}.html"
    self_link = [a.get("href") for a in based.findall(f"{ATOM}link") if a.get("rel") == "self"]
    assert self_link == [f"{BASE_URL}en/feed.xml"]
    assert based.findtext(f"{ATOM}id") == plain.findtext(f"{ATOM}id")
    assert based.find(f"{ATOM}entry").findtext(f"{ATOM}id") == plain.find(f"{ATOM}entry").findtext(
        f"{ATOM}id"
    )


def test_two_builds_give_the_same_bytes(tmp_path):
    content = write_project(tmp_path, {"site.yaml": SITE + f"base_url: {BASE_URL}\n"})
    outputs = []
    for name in ("one", "two"):
        build(content, TEMPLATES, tmp_path / name, cache=CACHE)
        outputs.append(
            {
                p.relative_to(tmp_path / name).as_posix(): p.read_bytes()
                for p in sorted((tmp_path / name).rglob("*"))
                if p.is_file()
            }
        )
    assert outputs[0] == outputs[1]
    for name in (
        "en/feed.xml",
        "zh/feed.xml",
        "sitemap.xml",
        "robots.txt",
        "404.html",
        "assets/search-en.js",
        "assets/search-zh.js",
        f"single/en/{SLUG}.html",
    ):
        assert name in outputs[0], name


# --- sitemap, robots, metadata ----------------------------------------------------------------


def record_row(path: str) -> bool:
    """A page of one record result or one leaderboard (benchmarks/<id>/<round>.html): the search
    index has a row for it instead of its text (record/search_rows.py)."""
    parts = path.split("/")
    return parts[1] == "results" or (len(parts) == 4 and parts[1] == "benchmarks")


def system_description(path: str) -> bool:
    """A page of one official system description (systems/<round>/<folder>.html): in neither
    the sitemap nor the search index (its kind says so: render/kinds.py)."""
    parts = path.split("/")
    return len(parts) == 4 and parts[1] == "systems"


def test_sitemap_lists_every_page_with_hreflang_alternates(based_site):
    sitemap = etree.fromstring((based_site / "sitemap.xml").read_bytes())
    assert sitemap.tag == f"{SITEMAP}urlset"
    locs = [u.findtext(f"{SITEMAP}loc") for u in sitemap.findall(f"{SITEMAP}url")]
    pages = sorted(p.relative_to(based_site).as_posix() for p in based_site.rglob("*.html"))
    expected = [
        p
        for p in pages
        if p.split("/")[0] in ("en", "zh")
        and not p.endswith(("404.html", "editors/status.html"))
        and not system_description(p)
    ]
    assert sorted(locs) == sorted([BASE_URL + "index.html"] + [BASE_URL + p for p in expected])
    url = next(
        u
        for u in sitemap.findall(f"{SITEMAP}url")
        if u.findtext(f"{SITEMAP}loc") == f"{BASE_URL}zh/reports/{SLUG}.html"
    )
    alternates = {a.get("hreflang"): a.get("href") for a in url.findall(f"{XHTML}link")}
    assert alternates == {
        "en": f"{BASE_URL}en/reports/{SLUG}.html",
        "zh-Hans": f"{BASE_URL}zh/reports/{SLUG}.html",
        "x-default": f"{BASE_URL}en/reports/{SLUG}.html",
    }
    robots = (based_site / "robots.txt").read_text("utf-8")
    assert f"Sitemap: {BASE_URL}sitemap.xml" in robots


def test_every_sitemap_url_has_its_last_change(based_site):
    """lastmod from the content: a report's date (the tiny project's report is dated
    2021-07-01); a result, leaderboard or round page its round's commit date (v1.0's record is
    of 2023-05-18); every other page the newest date of the site (the same commit date)."""
    sitemap = etree.fromstring((based_site / "sitemap.xml").read_bytes())
    dates = {
        u.findtext(f"{SITEMAP}loc"): u.findtext(f"{SITEMAP}lastmod") for u in sitemap.findall(f"{SITEMAP}url")
    }
    assert dates and all(dates.values())
    reports = {f"{BASE_URL}{lang}/reports/{SLUG}.html" for lang in ("en", "zh")}
    assert {url: date for url, date in dates.items() if date == "2021-07-01"} == dict.fromkeys(
        reports, "2021-07-01"
    )
    assert {date for url, date in dates.items() if url not in reports} == {"2023-05-18"}


def test_a_sitemap_of_the_same_pages_and_dates_is_taken_from_the_store(tmp_path, monkeypatch):
    """A rebuild whose pages and dates are as before (a report's text edited) takes the
    sitemap from the store, the same bytes; a new date makes it again, and it says so."""
    from sitegen.render import sitemap

    made: list = []
    real = sitemap._sitemaps
    monkeypatch.setattr(sitemap, "_sitemaps", lambda *args: made.append(1) or real(*args))
    content = write_project(tmp_path / "a", {"site.yaml": SITE + f"base_url: {BASE_URL}\n"})
    out, cache = tmp_path / "output", tmp_path / "cache"
    build(content, TEMPLATES, out, cache=cache)
    first = (out / "sitemap.xml").read_bytes()
    report = content / "reports" / f"{SLUG}.en.md"
    report.write_text(report.read_text("utf-8") + "\nOne more sentence.\n", "utf-8")
    build(content, TEMPLATES, out, cache=cache)
    assert len(made) == 1 and (out / "sitemap.xml").read_bytes() == first
    report.write_text(report.read_text("utf-8").replace("date: 2021-07-01", "date: 2021-08-02"), "utf-8")
    build(content, TEMPLATES, out, cache=cache)
    assert len(made) == 2
    urls = etree.fromstring((out / "sitemap.xml").read_bytes()).findall(f"{SITEMAP}url")
    dates = {u.findtext(f"{SITEMAP}loc"): u.findtext(f"{SITEMAP}lastmod") for u in urls}
    assert dates[f"{BASE_URL}en/reports/{SLUG}.html"] == "2021-08-02"


def test_a_sitemap_past_the_protocols_limit_is_split_with_an_index(tmp_path, monkeypatch):
    from sitegen.render import sitemap

    monkeypatch.setattr(sitemap, "SITEMAP_MAX_URLS", 5)
    content = write_project(tmp_path, {"site.yaml": SITE + f"base_url: {BASE_URL}\n"})
    out = tmp_path / "output"
    build(content, TEMPLATES, out, cache=CACHE)
    index = etree.fromstring((out / "sitemap.xml").read_bytes())
    assert index.tag == f"{SITEMAP}sitemapindex"
    parts = [e.findtext(f"{SITEMAP}loc") for e in index.findall(f"{SITEMAP}sitemap")]
    assert all(e.findtext(f"{SITEMAP}lastmod") for e in index.findall(f"{SITEMAP}sitemap"))
    locs = []
    for part in parts:
        urlset = etree.fromstring((out / part.removeprefix(BASE_URL)).read_bytes())
        assert urlset.tag == f"{SITEMAP}urlset"
        found = [u.findtext(f"{SITEMAP}loc") for u in urlset.findall(f"{SITEMAP}url")]
        assert 0 < len(found) <= 5
        locs += found
    pages = [p.relative_to(out).as_posix() for p in out.rglob("*.html")]
    expected = [
        p
        for p in pages
        if p.split("/")[0] in ("en", "zh")
        and not p.endswith(("404.html", "editors/status.html"))
        and not system_description(p)
    ]
    assert sorted(locs) == sorted([BASE_URL + "index.html"] + [BASE_URL + p for p in expected])
    assert len(parts) == -(-len(locs) // 5)


def test_no_sitemap_without_a_base_url(tiny_site):
    assert not (tiny_site / "sitemap.xml").exists()
    robots = (tiny_site / "robots.txt").read_text("utf-8")
    assert robots.startswith("User-agent: *") and "Sitemap" not in robots


def meta(doc, name: str) -> list[str]:
    return doc.xpath(f"//meta[@property='{name}' or @name='{name}']/@content")


def test_sharing_metadata_and_feed_link(tiny_site, based_site):
    doc = html(tiny_site / "en" / "reports" / f"{SLUG}.html")
    assert meta(doc, "og:title") == ["Acme against Zenith"]
    assert meta(doc, "og:description") == ["Acme is slower but cheaper."]
    assert meta(doc, "og:type") == ["article"]
    assert meta(doc, "og:locale") == ["en_US"] and meta(doc, "og:locale:alternate") == ["zh_CN"]
    assert meta(doc, "twitter:card") == ["summary"]
    assert meta(doc, "og:url") == [], "no og:url without a base_url"
    feed = doc.xpath("//link[@rel='alternate'][@type='application/atom+xml']/@href")
    assert feed == ["../feed.xml"]
    home = html(tiny_site / "zh" / "index.html")
    assert meta(home, "og:type") == ["website"] and meta(home, "og:locale") == ["zh_CN"]
    assert meta(home, "og:description") == ["一个很小的测试站点。"]
    based = html(based_site / "zh" / "index.html")
    assert meta(based, "og:url") == [f"{BASE_URL}zh/index.html"]


# --- root 404 ---------------------------------------------------------------------------------


def test_root_404_speaks_both_languages(tiny_site, based_site):
    doc = html(tiny_site / "404.html")
    text = doc.text_content()
    assert "Page not found" in text and "找不到页面" in text
    links = doc.xpath("//a/@href")
    assert links == ["en/index.html", "zh/index.html"]
    assert all((tiny_site / link).is_file() for link in links)
    assert not doc.xpath("//link[@rel='stylesheet']") and doc.xpath("//style")
    assert html(based_site / "404.html").xpath("//a/@href") == [
        f"{BASE_URL}en/index.html",
        f"{BASE_URL}zh/index.html",
    ]


# --- single-file reports ----------------------------------------------------------------------


def check_single_file(site: Path, lang: str, base_url: str | None) -> lxml.html.HtmlElement:
    path = site / "single" / lang / f"{SLUG}.html"
    text = path.read_text("utf-8")
    doc = lxml.html.document_fromstring(text)
    assert not doc.xpath("//link[contains(@rel, 'stylesheet')]")
    assert not doc.xpath("//script"), "a single file needs no script"
    assert doc.xpath("//head/style") and ".site-header" in doc.xpath("string(//head/style)")
    ids = set(doc.xpath("//@id"))
    for element, attr in [
        (e, a)
        for e in doc.iter()
        if isinstance(e.tag, str)
        for a in ("href", "src", "srcset", "action")
        if e.get(a) is not None
    ]:
        value = element.get(attr)
        if value.startswith("#"):
            assert value[1:] in ids, f"{value}: no such id in the file"
        elif base_url and value.startswith(base_url):
            continue
        else:
            assert value.startswith(("https://", "http://", "mailto:", "data:")), (
                f"<{element.tag} {attr}={value!r}> would break outside the site"
            )
    note = doc.xpath("//main//*[contains(@class, 'archive-note')]")
    assert note, "no note that this is an archived copy"
    assert "https://example.org/article" in note[0].text_content()
    return doc


def test_single_file_report_stands_alone(tiny_site):
    doc = check_single_file(tiny_site, "en", None)
    assert doc.xpath("//main//table"), "the results table is kept"
    assert "Archived copy" in doc.text_content()
    page = html(tiny_site / "en" / "reports" / f"{SLUG}.html")
    link = page.xpath("//*[contains(@class, 'single-link')]//a/@href")
    assert (
        link
        and (tiny_site / "en" / "reports" / link[0]).resolve()
        == (tiny_site / "single" / "en" / f"{SLUG}.html").resolve()
    )
    zh = check_single_file(tiny_site, "zh", None)
    assert "存档副本" in zh.text_content() and zh.get("lang") == "zh-Hans"


def test_single_file_links_go_to_the_site_with_a_base_url(based_site):
    doc = check_single_file(based_site, "en", BASE_URL)
    links = doc.xpath("//main//a/@href")
    assert f"{BASE_URL}en/systems/acme-16.html#result-r-acme" in links
    assert f"{BASE_URL}en/reports/{SLUG}.html" in links


def test_single_file_inlines_images_and_chart_files(tmp_path):
    """An image and a data file beside the page end up inside the copy as data: URIs."""
    report = (
        "---\ntitle: Pictures\ndate: 2021-07-02\nsummary: With an image.\nsources: [s-article]\n---\n"
        "## Image\n\n![A logo](../../assets/favicon.svg)\n\n[Data](../../assets/favicon.svg)\n"
        "[Home](../index.html) and [Acme](../systems/acme-16.html).\n"
    )
    content = write_project(
        tmp_path,
        {"reports/pictures.en.md": report, "reports/pictures.zh.md": report.replace("Pictures", "图片")},
    )
    build(content, TEMPLATES, tmp_path / "out", cache=CACHE)
    single = (tmp_path / "out" / "single" / "en" / "pictures.html").read_text("utf-8")
    doc = lxml.html.document_fromstring(single)
    assert doc.xpath("//img/@src")[0].startswith("data:image/svg+xml;base64,")
    assert doc.xpath("//a[text()='Data']/@href")[0].startswith("data:image/svg+xml;base64,")
    assert not doc.xpath("//a[text()='Acme']"), "a relative link without base_url becomes text"
    assert "Acme" in doc.xpath("string(//main)")


# --- in a browser -----------------------------------------------------------------------------


def result_hrefs(page) -> list[str]:
    page.wait_for_selector("[data-search-results] a")
    return page.locator("[data-search-results] a").evaluate_all("links => links.map(a => a.href)")


@pytest.mark.parametrize(
    "lang, query, expected",
    [
        ("en", "BERT", "en/benchmarks/bert.html"),
        ("en", "zenit", f"en/reports/{SLUG}.html"),  # prefix
        ("en", "Zenihth", f"en/reports/{SLUG}.html"),  # fuzzy
        ("zh", "训练", "zh/glossary.html"),
        ("zh", "主要发现", f"zh/reports/{SLUG}.html"),
    ],
)
def test_search_from_file_finds_pages_of_the_language(page, tiny_site, lang, query, expected):
    page.goto((tiny_site / lang / "index.html").as_uri())
    page.locator("input[type=search]").fill(query)
    hrefs = result_hrefs(page)
    root = tiny_site.as_uri() + "/"
    assert root + expected in hrefs
    assert all(h.startswith(root + lang + "/") for h in hrefs), hrefs


@pytest.mark.parametrize(
    "lang, query, status",
    [
        ("en", "Citing", "1 result for “Citing”"),
        # the report's summary: on its page, the list of reports and the home page's findings
        ("en", "cheaper", "3 results for “cheaper”"),
        ("zh", "更便宜", "找到3条与“更便宜”相关的结果"),  # no space between Chinese and a digit
    ],
)
def test_the_count_of_results_reads_right(page, tiny_site, lang, query, status):
    """One result in the singular (search.count_one, English only), more in the plural."""
    page.goto((tiny_site / lang / "index.html").as_uri())
    page.locator("input[type=search]").fill(query)
    page.wait_for_selector("[data-search-results] a")
    assert page.locator("[data-search-results] .search-status").inner_text() == status


def test_search_from_a_deep_page_links_relative_to_the_root(page, tiny_site):
    page.goto((tiny_site / "zh" / "reports" / f"{SLUG}.html").as_uri())
    page.locator("input[type=search]").fill("测试")
    hrefs = result_hrefs(page)
    assert all((tiny_site / h[len(tiny_site.as_uri()) + 1 :]).is_file() for h in hrefs)


def test_chinese_typed_on_an_english_page_searches_the_chinese_pages(page, tiny_site):
    """Issue 32: the reader plainly wants Chinese pages; they are labelled with their language."""
    page.goto((tiny_site / "en" / "index.html").as_uri())
    page.locator("input[type=search]").fill("测试")
    hrefs = result_hrefs(page)
    assert hrefs and all("/zh/" in h for h in hrefs), hrefs
    assert all(
        label.endswith(" · 简体中文")
        for label in page.locator("[data-search-results] .search-kind").all_inner_texts()
    )


def test_all_languages_adds_the_other_index(page, tiny_site):
    page.goto((tiny_site / "en" / "index.html").as_uri())
    page.locator("input[type=search]").fill("Acme")
    assert not any("/zh/" in h for h in result_hrefs(page))
    page.locator("input[data-search-all]").check()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-search-results] a')].some(a => a.href.includes('/zh/'))"
    )
    assert page.evaluate("Object.keys(window.SEARCH_DOCS_BY_LANG).sort()") == ["en", "zh"]


def test_keyboard_alone_reaches_and_opens_a_result(page, tiny_site):
    page.goto((tiny_site / "en" / "index.html").as_uri())
    for _ in range(20):  # skip link, brand, the languages and the pages (shown whole on a desktop), the box
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.type") == "search":
            break
    assert page.evaluate("document.activeElement.type") == "search", "Tab never reached the box"
    page.keyboard.type("acme")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-search-results] a")
    for _ in range(6):  # button, checkbox, then the first result
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('[data-search-results]')"):
            break
    target = page.evaluate("document.activeElement.href")
    assert target and page.evaluate("document.activeElement.tagName") == "A"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == target
    page.go_back()
    box = page.locator("input[type=search]")
    box.fill("acme")
    page.wait_for_selector("[data-search-results] a")
    box.press("ArrowDown")
    assert page.evaluate("!!document.activeElement.closest('[data-search-results]')")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.type") == "search"
    assert box.input_value() == "" and page.locator("[data-search-results] a").count() == 0


def test_search_is_hidden_without_javascript(browser, tiny_site):
    context = browser.new_context(java_script_enabled=False)
    try:
        tab = context.new_page()
        tab.goto((tiny_site / "en" / "index.html").as_uri())
        assert not tab.locator("form[role=search]").is_visible()
    finally:
        context.close()


def test_home_and_report_do_not_overflow_a_phone_screen(browser, tiny_site):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        tab = context.new_page()
        for rel in ("en/index.html", "zh/index.html", f"single/zh/{SLUG}.html", "404.html"):
            tab.goto((tiny_site / rel).as_uri())
            if tab.locator("input[type=search]").count():
                tab.locator("input[type=search]").fill("acme")
                tab.wait_for_selector("[data-search-results] .search-status")
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{rel} is {width}px wide on a 360px screen"
    finally:
        context.close()


def test_relative_urls_in_the_index_are_files(tiny_site):
    for lang in ("en", "zh"):
        for doc in search_docs(tiny_site, lang):
            assert (tiny_site / doc["url"]).is_file()
            assert posixpath.normpath(doc["url"]) == doc["url"]
