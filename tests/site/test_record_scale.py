"""Budgets at scale (issue 15), on a synthetic record of 1,200 results made here, whose
leaderboards are longer than any of the real record's (100 results against 63): a fixed number
of pages per result, submitter, accelerator, benchmark and round; no HTML page over 300 KB; a
search index of at most 1 MB per language; the compare page's data split by round. The same
budgets on the whole real record: tests/quality/test_weight.py. Counts and sizes only, never
times."""

from __future__ import annotations

import random
import re

import pytest

from sitegen.assemble.pipeline import build

from project import CACHE, TEMPLATES
from record_sample import CHIPS, ROUNDS, V10, V11, _result, write_record_project
from search_files import search_size

KB = 1024
ROUND_IDS = ("v1.0", "v1.1", "v2.0", "v2.1", "v3.0", "v3.1")
BENCHMARKS = ("bert", "resnet")
PER_SLOT = 100  # results per benchmark and round: 1,200 in all
BIG = "BigSub"  # one submitter with most of the results: its pages are paged
MODELS = [f"Chip C{n}" for n in range(12)] + ["Chip C11 (500W)", "chip  c1"]
SIZES = (1, 8, 16, 64, 256, 1024)
# The synthetic chips: one family per "Chip C<n>", its power suffix and odd spacing included.
BIG_CHIPS = (
    CHIPS
    + "- vendor: chipco\n  name: {en: ChipCo, zh: ChipCo}\n  families:\n"
    + "".join(
        f"    - family: C{n}\n      variants:\n        - variant: C{n}\n          match: ['chip\\s+c{n}']\n"
        for n in range(12)
    )
    + "        - variant: C11, 500 W\n          match: ['chip c11 \\(500w\\)']\n"
)


def synthetic_rounds() -> str:
    extra = "".join(
        f"- id: {r}\n  repository: https://github.com/mlcommons/training_results_{r}\n"
        f"  commit: {'%039xa' % (i + 1)}\n  commit_date: 2024-01-0{i + 1}\n"
        f"  published: 2023-0{i + 1}-15\n  ruleset: {r[1:]}.0\n  results: {PER_SLOT * 2}\n"
        f"  logs_missing: 0\n  skipped: 0\n"
        for i, r in enumerate(ROUND_IDS[2:])
    )
    return ROUNDS + extra


def synthetic_results(round_id: str, rng: random.Random) -> str:
    parts = []
    for benchmark in BENCHMARKS:
        for n in range(PER_SLOT):
            submitter = BIG if n % 2 else f"Sub{n % 40:02d}"
            if n % 10 == 3:
                submitter = BIG.lower()  # grouped with BigSub
            folder = f"sys{n:03d}"
            count = SIZES[n % len(SIZES)]
            value = round(rng.uniform(0.3, 90.0) / max(1, count**0.5), 6)
            ident = f"{round_id}-{submitter.lower()}-{folder}-{benchmark}"
            parts.append(
                _result(
                    ident,
                    round_id,
                    submitter,
                    folder,
                    benchmark,
                    value,
                    [value] * 5,
                    count=count,
                    model=MODELS[n % len(MODELS)],
                    division="open" if n % 7 == 0 else "closed",
                )
            )
    return "".join(parts)


@pytest.fixture(scope="module")
def big_site(tmp_path_factory):
    rng = random.Random(15)
    folder = tmp_path_factory.mktemp("big-record")
    files = {"data/record/rounds.yaml": synthetic_rounds(), "data/chips.yaml": BIG_CHIPS}
    sample = {"v1.0": V10, "v1.1": V11}  # the tiny project's reports cite these
    for round_id in ROUND_IDS:
        files[f"data/record/results-{round_id}.yaml"] = sample.get(round_id, "") + synthetic_results(
            round_id, rng
        )
    content = write_record_project(folder, files)
    out = folder / "out"
    build(content, TEMPLATES, out, cache=CACHE)
    return out


def html_files(out, lang: str, folder: str) -> list:
    return sorted((out / lang / folder).rglob("*.html"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pages_grow_linearly_with_the_record(big_site, lang):
    results = len(ROUND_IDS) * len(BENCHMARKS) * PER_SLOT + 6  # + the sample's 6
    assert len(html_files(big_site, lang, "results")) == results  # one per result
    assert len(html_files(big_site, lang, "rounds")) == len(ROUND_IDS) + 2  # + index, changes
    leaderboards = [
        p
        for p in html_files(big_site, lang, "benchmarks")
        if p.parent.name != "benchmarks" and not p.name.startswith("at-")  # equal-scale pages apart
    ]
    assert len(leaderboards) == len(ROUND_IDS) * len(BENCHMARKS)
    submitters = {p.stem for p in (big_site / lang / "submitters").glob("*.html")} - {"index"}
    assert submitters == {"acme", "bigco", "zenith", "bigsub", *(f"sub{n:02d}" for n in range(0, 40, 2))}
    # the big submitter's results are paged by round; its own page stays a summary
    assert {p.stem for p in (big_site / lang / "submitters" / "bigsub").glob("*.html")} == set(ROUND_IDS)
    accelerators = {p.stem for p in (big_site / lang / "accelerators").glob("*.html")} - {"index"}
    assert accelerators == {*(f"chipco-c{n}" for n in range(12)), "acme-a1", "bigco-b9", "zenith-z1"}
    # one page per official system description: a folder per result number, shared by both
    # benchmarks of its round, plus the sample's five (v1.0: acme16, acme16-open, giant, zenith8; v1.1: acme16)
    systems = len(ROUND_IDS) * PER_SLOT + 5
    described = [p for p in (big_site / lang / "systems").rglob("*.html") if p.parent.name.startswith("v")]
    assert len(described) == systems
    total = len(list((big_site / lang).rglob("*.html")))
    assert total < results + systems + 200, total  # no page kind per pair of anything


def test_no_page_over_300_kb(big_site):
    sizes = {p.relative_to(big_site).as_posix(): p.stat().st_size for p in big_site.rglob("*.html")}
    too_big = {path: size for path, size in sizes.items() if size > 300 * KB}
    assert too_big == {}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_search_loads_at_most_1_mb_for_a_first_query(big_site, lang):
    assets = big_site / "assets"
    first_query = sum((assets / name).stat().st_size for name in ("search.js", "minisearch.js"))
    first_query += search_size(big_site, lang)  # the entry script and every shard
    assert first_query <= 1024 * KB, first_query
    home = (big_site / lang / "index.html").read_text("utf-8")
    assert f"search-{lang}.js" not in home and "minisearch.js" not in home  # loaded on first use
    assert "vega-bundle.js\" defer" not in home


def test_the_compare_data_is_one_small_script_per_round(big_site):
    scripts = sorted((big_site / "assets" / "record").glob("*.js"))
    assert [p.stem for p in scripts] == sorted(ROUND_IDS)
    assert max(p.stat().st_size for p in scripts) <= 300 * KB
    compare = (big_site / "en" / "compare.html").read_text("utf-8")
    assert "assets/record/" not in compare  # loaded on demand by compare.js


def test_the_explorer_data_is_one_script_per_round_growing_with_its_results(big_site):
    """One data script per round, about 220 bytes per result (ids, names, figures): its size
    follows the round's results, and the page holds none of it."""
    scripts = sorted((big_site / "assets" / "explore").glob("*.js"))
    assert [p.stem for p in scripts] == sorted(ROUND_IDS)
    sample = {"v1.0": 5, "v1.1": 1}  # the sample's own results in those rounds
    for script in scripts:
        results = len(BENCHMARKS) * PER_SLOT + sample.get(script.stem, 0)
        assert script.stat().st_size <= 300 * results, (script.name, script.stat().st_size)
    page = (big_site / "en" / "explore.html").read_text("utf-8")
    assert "assets/explore/" not in page  # loaded on demand by explore.js
    assert len(page.encode()) <= 100 * KB


HREF = re.compile(r'<a [^>]*href="([^"#?]+)[^"]*"')
ROUTES = {
    "round": "rounds/",
    "benchmark": "benchmarks/",
    "submitter": "submitters/",
    "accelerator": "accelerators/",
}


def _links(out, page: str) -> set[str]:
    """The pages a page links to, as paths under `out` (local .html files only)."""
    import posixpath

    html = (out / page).read_text("utf-8")
    found = set()
    for href in HREF.findall(html):
        if "://" in href or not href.endswith(".html"):
            continue
        found.add(posixpath.normpath(posixpath.join(posixpath.dirname(page), href)))
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("route", list(ROUTES))
def test_every_result_is_three_clicks_from_home_by_each_route(big_site, lang, route):
    """From the home page to any result in at most three clicks, going only through the pages
    of one route (round, benchmark, submitter or accelerator pages), paged entities included."""
    inside = f"{lang}/{ROUTES[route]}"
    results = {f"{lang}/results/{p.name}" for p in html_files(big_site, lang, "results")}
    seen, frontier = set(), {f"{lang}/index.html"}
    reached: set[str] = set()
    for _click in range(3):
        following = set()
        for page in frontier:
            for target in _links(big_site, page):
                if target in results:
                    reached.add(target)
                elif target.startswith(inside) and target not in seen:
                    seen.add(target)
                    following.add(target)
        frontier = following
    assert reached == results, f"{len(results - reached)} results more than 3 clicks away"
