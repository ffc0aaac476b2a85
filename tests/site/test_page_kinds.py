"""Page kinds declared once (sitegen/render/kinds.py): every page a site builds is claimed by
exactly one kind, a page no kind claims stops the build, what each kind's pages are for the
sitemap, search and feed, and one Jinja environment per build."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sitegen.assemble.pipeline import build
from sitegen.assemble.rendering import load_site_theme, render_site
from sitegen.base.errors import ContentError
from sitegen.base.store import opened
from sitegen.content.load import load_site
from sitegen.render import pages
from sitegen.render.kinds import KINDS, claimants, kind_of

from project import TEMPLATES
from record_sample import write_record_project

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "sample-site.txt"  # every file the sample makes

# Pages and the kind the URL rules of docs/architecture.md give them.
EXPECTED = {
    "index.html": "chooser",
    "404.html": "root_not_found",
    "en/index.html": "home",
    "zh-hant/404.html": "not_found",
    "en/reports/index.html": "reports",
    "en/reports/price-performance.html": "report",
    "single/zh/price-performance.html": "single",
    "en/methodology.html": "page",
    "en/glossary.html": "glossary",
    "en/compare.html": "compare",
    "en/systems/index.html": "systems",
    "en/systems/dgx-a100.html": "system",
    "en/systems/v1.0/acme-a1x8.html": "record_system",
    "en/benchmarks/bert.html": "benchmark",
    "en/benchmarks/bert/v1.0.html": "leaderboard",
    "en/benchmarks/bert/at-16.html": "at_scale",
    "en/rounds/index.html": "rounds",
    "en/rounds/v1.0.html": "round",
    "en/rounds/changes.html": "changes",
    "en/submitters/acme.html": "submitter",
    "en/submitters/acme/v1.0.html": "submitter_round",
    "en/accelerators/acme-a1/v1.1.html": "accelerator_round",
    "en/results/v1.0-acme-a1x8-bert.html": "result",
    "en/editors/status.html": "status",
}


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_a_page_s_address_says_its_kind(path):
    assert [kind.name for kind in claimants(path)] == [EXPECTED[path]]
    assert kind_of(path).name == EXPECTED[path]


@pytest.mark.parametrize(
    "path", ["en/notes/stray.html", "single/en/reports/a.html", "en/results/v1.0/a.html", "en/feed.xml"]
)
def test_no_kind_claims_an_address_outside_the_rules(path):
    assert claimants(path) == []
    assert kind_of(path) is None


def test_what_each_kind_is_for_sitemap_search_and_feed():
    kinds = {kind.name: kind for kind in KINDS}
    # results and leaderboards: in the sitemap, searched as compact rows, not as pages
    for name in ("result", "leaderboard"):
        assert (kinds[name].sitemap, kinds[name].search, kinds[name].rows) == (True, None, True)
    # official system descriptions, 404 pages, the editors' status, single-file copies: neither
    for name in ("record_system", "not_found", "root_not_found", "status", "single"):
        assert (kinds[name].sitemap, kinds[name].search, kinds[name].rows) == (False, None, False)
    # lists of the record's results: their introduction is searched, the names are rows
    assert {name: kinds[name].kept for name in ("reports", "submitter", "at_scale", "round", "changes")} == {
        "reports": 600,
        "submitter": 600,
        "at_scale": 600,
        "round": 1500,
        "changes": 1500,
    }
    assert kinds["changes"].search == "round" and kinds["systems"].search == "list"
    assert kinds["report"].kept is None and kinds["report"].search == "report"
    assert [kind.name for kind in KINDS if kind.feed] == ["report"]
    assert len(kinds) == len(KINDS)  # one name, one kind


@pytest.fixture
def sample(tmp_path, warm_cache):
    """The sample site, loaded with a copy of the warm store (its templates compiled)."""
    with opened(warm_cache) as store:
        yield load_site(write_record_project(tmp_path / "sample"), store=store)


def test_every_page_of_the_sample_site_is_claimed_by_exactly_one_kind(sample):
    files = render_site(sample, load_site_theme(sample, TEMPLATES), processes=False)
    html = sorted(path for path in files if path.endswith(".html"))
    assert html == sorted(
        line[66:] for line in GOLDEN.read_text("utf-8").splitlines() if line.endswith(".html")
    )
    claimed = {path: [kind.name for kind in claimants(path)] for path in html}
    assert {path: names for path, names in claimed.items() if len(names) != 1} == {}
    # the sample has every kind of page (tests/site/test_golden.py) but an entity's pages by
    # round, which only an entity with more results than record_index.PAGE_ROWS has
    paged = {"submitter_round", "accelerator_round"}
    assert {names[0] for names in claimed.values()} == {kind.name for kind in KINDS} - paged


def test_every_page_of_the_shipped_site_is_claimed_by_exactly_one_kind(shipped_site):
    html = sorted(p.relative_to(shipped_site).as_posix() for p in shipped_site.rglob("*.html"))
    assert len(html) > 10_000
    claimed = {path: [kind.name for kind in claimants(path)] for path in html}
    assert {path: names for path, names in claimed.items() if len(names) != 1} == {}
    assert {names[0] for names in claimed.values()} == {kind.name for kind in KINDS}


def _with_stray_page(theme, site, lang, t, model):
    """The glossary, and a page at an address no kind declares."""
    stray = {f"{lang}/notes/stray.html": b"<!doctype html><title>stray</title>"}
    return {**pages.glossary_page(theme, site, lang, t, model), **stray}


def test_a_page_no_kind_claims_stops_the_build(sample):
    kinds = tuple(
        dataclasses.replace(kind, render=_with_stray_page) if kind.name == "glossary" else kind
        for kind in KINDS
    )
    with pytest.raises(ContentError) as raised:
        render_site(sample, load_site_theme(sample, TEMPLATES), processes=False, kinds=kinds)
    assert [str(problem) for problem in raised.value.problems] == [
        f"output/{lang}/notes/stray.html: no page kind claims this page; "
        "declare its kind in sitegen/render/kinds.py"
        for lang in ("en", "zh")
    ]


def test_a_build_makes_one_jinja_environment(tmp_path):
    """Every template of a build comes from one environment, which compiles each once: from a
    cold store, each template the build loads (TemplateCache: jinja2 asks once per template an
    environment loads) is compiled, and none is loaded again, as a second environment would
    from the store; from a warm one, each is loaded from it once and none is compiled."""
    content = write_record_project(tmp_path / "sample")
    cold = build(content, TEMPLATES, tmp_path / "output", cache=tmp_path / "cache", processes=False)
    files = [
        p for p in TEMPLATES.rglob("*") if p.is_file() and "static" not in p.relative_to(TEMPLATES).parts
    ]
    assert 10 < cold.templates_loaded == cold.templates_compiled <= len(files)
    warm = build(content, TEMPLATES, tmp_path / "again", cache=tmp_path / "cache", processes=False)
    assert (warm.templates_loaded, warm.templates_compiled) == (cold.templates_loaded, 0)


def test_a_rebuild_looks_for_a_claiming_kind_only_among_pages_the_last_build_did_not_make(
    tmp_path, monkeypatch
):
    """The last build's pages were claimed by the same kinds (a rebuild reuses nothing made by
    other code): a rebuild matches only the pages new since, such as a new report's."""
    from sitegen.assemble import rendering

    from project import REPORT_EN, write_project

    looked: list[set] = []
    real = rendering.unclaimed
    monkeypatch.setattr(
        rendering, "unclaimed", lambda paths, kinds: looked.append(set(paths)) or real(paths, kinds)
    )
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    build(content, TEMPLATES, out, cache=tmp_path / "cache", processes=False)
    assert "en/reports/acme-vs-zenith.html" in looked[-1]  # from no state: every page
    (content / "reports" / "acme-vs-zenith.en.md").write_text(REPORT_EN + "\nOne more sentence.\n", "utf-8")
    build(content, TEMPLATES, out, cache=tmp_path / "cache", processes=False)
    assert {path for path in looked[-1] if path.endswith(".html")} == set()
    for lang in ("en", "zh"):  # a second report, the first's twin
        text = (content / "reports" / f"acme-vs-zenith.{lang}.md").read_text("utf-8")
        (content / "reports" / f"second.{lang}.md").write_text(text, "utf-8")
    build(content, TEMPLATES, out, cache=tmp_path / "cache", processes=False)
    assert {"en/reports/second.html", "single/en/second.html"} <= looked[-1]
    assert "en/reports/acme-vs-zenith.html" not in looked[-1]
