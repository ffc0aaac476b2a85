"""A report text's Markdown conversion is kept between builds (its figures left as
placeholders, drawn again each time), and a data reference drawn once per job: neither may
show anything stale."""

from sitegen.base.cache import CONVERTED, BodyCache
from sitegen.base.store import Store
from sitegen.content.load import load_site
from sitegen.derive.model import build as build_model
from sitegen.render.markup import new_markdown, render_body
from sitegen.render.page import Page

from project import write_project


def no_markdown():
    """No converter may even be made: the conversion has to come from the store."""
    raise AssertionError("a Markdown converter was asked for")


def render(site, model, text, kept, md=None, drawing="", lang="en", slug="x"):
    page = Page(site, lang, f"{lang}/reports/{slug}.html", model, f"content/reports/{slug}.{lang}.md", 5)
    with site.reads.collect() as reads:
        html, toc = render_body(md or new_markdown, text, page, lambda *a: drawing, kept)
    return html, toc, page, reads


BODY = "## Findings\n\nAcme took [[result:r-acme]].\n\n```results\nbenchmark: bert\n```\n\nThe end.\n"


def test_a_kept_conversion_is_used_and_the_figures_are_drawn_again(project, tmp_path):
    site, model, store = load_site(project), build_model(load_site(project)), Store(tmp_path / "cache")
    first = BodyCache(store, "a" * 64)
    html, toc, _, _ = render(site, model, BODY, first, drawing="<p>block one</p>")
    first.flush()
    assert "block one" in html and [item["id"] for item in toc] == ["findings"]
    # other data (another data key): the same text, its block drawn anew, Markdown never run
    again, toc_again, page, _ = render(
        site, model, BODY, BodyCache(store, "b" * 64), no_markdown, drawing="<p>block two</p>"
    )
    assert again == html.replace("block one", "block two") and "block one" not in again
    assert toc_again == toc and page.problems == []
    # r-acme's score in the project is 30.0 minutes
    assert "30.0 min</a>" in again


def test_an_edited_text_is_converted_again(project, tmp_path):
    site, store = load_site(project), Store(tmp_path / "cache")
    model = build_model(site)
    kept = BodyCache(store, "a" * 64)
    render(site, model, "Old words here.\n", kept)
    kept.flush()
    html, _, _, _ = render(site, model, "New words here.\n", BodyCache(store, "a" * 64))
    assert html == "<p>New words here.</p>"


def test_a_damaged_conversion_is_a_miss(project, tmp_path):
    site, store = load_site(project), Store(tmp_path / "cache")
    model = build_model(site)
    kept = BodyCache(store, "a" * 64)
    text = "Some *words*.\n"
    store.put_value(CONVERTED, kept.conversion_key(text), ("<p>stale</p>", "not a list"))
    html, _, _, _ = render(site, model, text, kept)
    assert html == "<p>Some <em>words</em>.</p>"


def test_a_reference_drawn_once_is_the_same_and_reads_the_same_on_every_page(tmp_path):
    companies = "- id: acme\n  spellings: [Acme]\n  name: {en: Acme, zh: 艾克米, zh-hant: 艾克米}\n"
    vendors = (
        '- id: acme\n  color: "#0072B2"\n- id: zenith\n  name: {en: Zenith, zh: 天顶}\n  color: "#009E73"\n'
    )
    changes = {"data/companies.yaml": companies, "data/vendors.yaml": vendors}
    site = load_site(write_project(tmp_path / "site", changes))
    model = build_model(site)
    # the first mention of a company on a page gives its Latin name too (艾克米（Acme）), once a page
    text = "[[rounds:Acme]]\n\n[[rounds:Acme]] [[result:r-acme]]\n"
    alone = [render(site, model, text, None, lang="zh", slug=slug) for slug in ("a", "b")]
    kept = BodyCache(Store(tmp_path / "cache"), "a" * 64)
    shared = [render(site, model, text, kept, lang="zh", slug=slug) for slug in ("a", "b")]
    for (html, _, _, reads), (html_kept, _, page, reads_kept) in zip(alone, shared, strict=True):
        assert html_kept == html and page.problems == []
        assert reads_kept == reads and reads
    assert html.count("艾克米（Acme）") == 1  # the second mention without it
    assert len(kept.drawn) == 3  # the first mention, the second, the result


def test_a_page_draws_again_only_the_references_new_since_its_last_build(project, tmp_path, monkeypatch):
    from sitegen.render import drawn as drawn_module

    site, store = load_site(project), Store(tmp_path / "cache")
    model = build_model(site)
    text = "Acme took [[result:r-acme]] in [[rounds:Acme]].\n"
    first = BodyCache(store, "a" * 64)
    render(site, model, text, first)
    first.flush()
    calls = []
    real = drawn_module.shortcode
    monkeypatch.setattr(
        drawn_module, "shortcode", lambda kind, arg, *a: calls.append(arg) or real(kind, arg, *a)
    )
    edited = text + "\nMore words, and [[result:r-zenith]].\n"
    html, _, page, reads = render(site, model, edited, BodyCache(store, "a" * 64))
    assert calls == ["r-zenith"]  # the page's two old references taken as they were drawn
    fresh_html, _, _, fresh_reads = render(site, model, edited, None)
    assert (html, reads) == (fresh_html, fresh_reads) and page.problems == []
    # drawn from other data (another data key), every reference is drawn again
    calls.clear()
    render(site, model, edited, BodyCache(store, "b" * 64))
    assert sorted(calls) == ["Acme", "r-acme", "r-zenith"]


def test_entries_of_other_data_stay_until_pruned_then_go(tmp_path):
    """Writing new bodies drops nothing (a data edit's jobs each wrote theirs at once); the
    build prunes once at its end what other data, or other code, made."""
    store = Store(tmp_path / "cache")
    old, new = BodyCache(store, "a" * 64), BodyCache(store, "b" * 64)
    old.put(old.key("page"), "old body")
    old.keep_conversion(old.conversion_key("text"), "old conversion")
    old.flush()
    new.put(new.key("page"), "new body")
    new.flush()
    assert old.get(old.key("page")) == "old body" and new.get(new.key("page")) == "new body"
    new.prune()
    assert old.get(old.key("page")) is None and new.get(new.key("page")) == "new body"
    assert new.conversion(old.conversion_key("text")) == "old conversion"  # the same code
    new._code_key = "c" * 64  # as if the code had changed
    new.prune()
    assert new.conversion(old.conversion_key("text")) is None
