"""Every kind of page the site has, declared once: where its pages live, what renders them, and
whether they are listed in the sitemap, searched (and how much of their text) and in the feed.

Rendering (assemble/rendering.py) makes each language's pages kind by kind, in this order; the
search index (search.py), the sitemap (sitemap.py) and the feed (feed.py) ask `kind_of` what a
page is. A page that no kind claims stops the build (`unclaimed`): it would silently drop out
of the sitemap and search otherwise."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sitegen.base.errors import Problem
from sitegen.content.translation import translation_gaps
from sitegen.render import claims_page, pages
from sitegen.render.record import at_scale, explore, lists, rounds, systems
from sitegen.render.record.downloads import downloads_page

# What a {...} of an address matches: a language's folder as report files name it
# (content/load.py REPORT_NAME), a count (digits), or any one name.
PLACES = {"lang": r"[a-z]{2,3}(?:-[a-z0-9]{2,8})*", "count": r"[0-9]+"}
NAME = r"[^/]+"


@dataclass
class Run:
    """What one language's units are listed from: the site, its model, the language, report
    bodies (rendering.Bodies) and the problems found while rendering."""

    site: Any
    model: Any
    lang: str
    bodies: Any = None
    problems: list = field(default_factory=list)


# A unit as a kind lists it: (unit key, the report it renders or None, the renderer's
# arguments after theme, site, lang, t)
Listed = tuple[tuple, Any, tuple]


@dataclass(frozen=True)
class Kind:
    name: str
    url: str  # where its pages live: {lang} the language, {count} a count, {...} any one name
    render: Callable | None = None  # (theme, site, lang, t, *args) -> {path: bytes}
    units: Callable[[Run], Iterable[Listed]] | None = None  # None: made with another kind's unit
    unless: tuple[str, ...] = ()  # file names (regex, no .html) its last {...} never matches
    sitemap: bool = True
    search: str | None = None  # searched as this kind of document (label: search.kind.<it>)
    kept: int | None = None  # characters of its text searched (a list's introduction); None: all
    rows: bool = False  # searched as compact rows instead (record/search_rows.py)
    feed: Callable | None = None  # (site, lang) -> the reports the feed lists, newest first

    def path(self, **names: str) -> str:
        return self.url.format(**names)


def _one(*key: str) -> Callable[[Run], Iterator[Listed]]:
    """One page per language."""

    def units(run: Run) -> Iterator[Listed]:
        yield key, None, (run.model,)

    return units


def _record_one(*key: str) -> Callable[[Run], Iterator[Listed]]:
    """One page per language on a site with the record."""

    def units(run: Run) -> Iterator[Listed]:
        if run.site.rounds:
            yield key, None, (run.model,)

    return units


def _reports(run: Run) -> Iterator[Listed]:
    for report in run.site.reports_in(run.lang):
        yield ("report", report.slug), report, (report, run.model, run.bodies, run.problems)


def _plain_pages(run: Run) -> Iterator[Listed]:
    for page in (p for p in run.site.pages if p.lang == run.lang):
        yield ("page", page.slug), None, (page, run.model, run.bodies, run.problems)


def _table(kind: str, table: str) -> Callable[[Run], Iterator[Listed]]:
    """A page per row of a curated table (systems, benchmarks)."""

    def units(run: Run) -> Iterator[Listed]:
        for row in run.site.table(table):
            yield (kind, row["id"]), None, (row, run.model)

    return units


def _at_scale(run: Run) -> Iterator[Listed]:
    for benchmark, scale in at_scale.at_scale_units(run.site, run.model):
        yield ("at-scale", benchmark["id"], str(scale)), None, (benchmark, scale, run.model)


def _rounds(run: Run) -> Iterator[Listed]:
    for round_id in run.site.rounds:
        yield ("record", "round", round_id), None, (round_id, run.model)


def _entity_index(kind: str) -> Callable[[Run], Iterator[Listed]]:
    def units(run: Run) -> Iterator[Listed]:
        if run.site.rounds:
            yield ("record", kind), None, (run.model, kind)

    return units


def _entities(kind: str) -> Callable[[Run], Iterator[Listed]]:
    """Each submitter's (chip family's) page, with its pages by round when it has many."""

    def units(run: Run) -> Iterator[Listed]:
        if run.site.rounds:
            for slug in getattr(run.model.index, kind):
                yield ("record", kind, slug), None, (run.model, kind, slug)

    return units


def _record_systems(run: Run) -> Iterator[Listed]:
    if run.site.rounds:
        for key in run.model.index.systems:
            yield ("record", "record-system", key), None, (run.model, key)


def _leaderboards(run: Run) -> Iterator[Listed]:
    site, model = run.site, run.model
    if site.rounds:
        for benchmark_id in sorted(model.benchmarks()):
            benchmark = site.get("benchmarks", benchmark_id)
            for round_id in model.rounds_of(benchmark_id):
                yield ("record", "leaderboard", benchmark_id, round_id), None, (benchmark, round_id, model)


def _results(run: Run) -> Iterator[Listed]:
    if run.site.rounds:
        for ident in sorted(run.model.record):
            yield ("record", "result", ident), None, (run.model.record[ident], run.model)


def _status_page(theme, site, lang, t, model):
    return pages.status_page(theme, site, lang, t, translation_gaps(site), model)


def _feed_reports(site, lang: str) -> list:
    return [r for r in site.reports_in(lang) if not r.pending]


LIST = 600  # the characters searched of a page that lists the record's results by name

KINDS: tuple[Kind, ...] = (
    Kind("home", "{lang}/index.html", pages.home_page, _one("home"), search="home"),
    Kind(
        "reports", "{lang}/reports/index.html", pages.reports_index, _one("reports"), search="list", kept=LIST
    ),
    Kind(
        "report",
        "{lang}/reports/{slug}.html",
        pages.report_page,
        _reports,
        unless=("index",),
        search="report",
        feed=_feed_reports,
    ),
    # a report's copy that stands alone (single_file.py), made with the report's page
    Kind("single", "single/{lang}/{slug}.html", sitemap=False),
    Kind(
        "page",
        "{lang}/{slug}.html",
        pages.plain_page,
        _plain_pages,
        unless=("index", "404", "glossary", "compare", "downloads", "explore"),
        search="page",
    ),
    Kind(
        "systems",
        "{lang}/systems/index.html",
        systems.systems_index,
        _one("systems"),
        search="list",
        kept=LIST,
    ),
    Kind(
        "system",
        "{lang}/systems/{id}.html",
        pages.system_page,
        _table("system", "systems"),
        ("index",),
        search="system",
    ),
    Kind(
        "benchmarks",
        "{lang}/benchmarks/index.html",
        pages.benchmarks_index,
        _one("benchmarks"),
        search="list",
        kept=LIST,
    ),
    Kind(
        "benchmark",
        "{lang}/benchmarks/{id}.html",
        pages.benchmark_page,
        _table("benchmark", "benchmarks"),
        ("index",),
        search="benchmark",
    ),
    Kind(
        "at_scale",
        "{lang}/benchmarks/{id}/at-{count}.html",
        at_scale.at_scale_page,
        _at_scale,
        search="at_scale",
        kept=LIST,
    ),
    Kind(
        "rounds",
        "{lang}/rounds/index.html",
        rounds.rounds_index,
        _record_one("record", "rounds"),
        search="list",
        kept=LIST,
    ),
    Kind(
        "round",
        "{lang}/rounds/{round}.html",
        rounds.round_page,
        _rounds,
        ("index", "changes"),
        search="round",
        kept=1500,
    ),
    Kind(
        "changes",
        "{lang}/rounds/changes.html",
        lists.changes_page,
        _record_one("record", "changes"),
        search="round",
        kept=1500,
    ),
    Kind(
        "compare", "{lang}/compare.html", lists.compare_page, _record_one("record", "compare"), search="page"
    ),
    *(
        kind
        for entities, one in (("submitters", "submitter"), ("accelerators", "accelerator"))
        for kind in (
            Kind(
                entities,
                f"{{lang}}/{entities}/index.html",
                lists.entity_index,
                _entity_index(entities),
                search="list",
                kept=LIST,
            ),
            Kind(
                one,
                f"{{lang}}/{entities}/{{slug}}.html",
                lists.entity_pages,
                _entities(entities),
                ("index",),
                search=one,
                kept=LIST,
            ),
            # an entity's results of one round, made with its page when it has many
            Kind(f"{one}_round", f"{{lang}}/{entities}/{{slug}}/{{round}}.html"),
        )
    ),
    # an official system description's page: in neither the sitemap nor search
    Kind(
        "record_system",
        "{lang}/systems/{round}/{slug}.html",
        systems.system_page,
        _record_systems,
        sitemap=False,
    ),
    Kind(
        "leaderboard",
        "{lang}/benchmarks/{id}/{round}.html",
        rounds.leaderboard_page,
        _leaderboards,
        ("at-[0-9]+",),
        rows=True,
    ),
    Kind("result", "{lang}/results/{id}.html", rounds.result_page, _results, rows=True),
    Kind("downloads", "{lang}/downloads.html", downloads_page, _record_one("downloads"), search="page"),
    Kind("explore", "{lang}/explore.html", explore.explore_page, _record_one("explore"), search="page"),
    Kind("claims", "{lang}/claims/index.html", claims_page.claims_page, _one("claims"), search="claims"),
    Kind("sources", "{lang}/sources/index.html", pages.sources_page, _one("sources"), search="sources"),
    Kind("glossary", "{lang}/glossary.html", pages.glossary_page, _one("glossary"), search="glossary"),
    Kind("not_found", "{lang}/404.html", pages.not_found_page, _one("404"), sitemap=False),
    # the editors' translation status (kept out of search engines)
    Kind("status", "{lang}/editors/status.html", _status_page, _one("status"), sitemap=False),
    # made once for every language: the language chooser (rendering.py), the root 404 (end_files.py)
    Kind("chooser", "index.html"),
    Kind("root_not_found", "404.html", sitemap=False),
)


def pattern(kind: Kind) -> re.Pattern:
    """The paths a kind claims: its URL with each {...} what PLACES says (the last one none of
    `unless`)."""
    head, _, last = kind.url.rpartition("/")
    guard = f"(?!(?:{'|'.join(kind.unless)})\\.html$)" if kind.unless else ""
    return re.compile(_regex(head + "/" if head else "") + guard + _regex(last))


def _regex(template: str) -> str:
    parts = re.split(r"\{(\w+)\}", template)  # literal, name, literal, ...
    return "".join(
        re.escape(part) if at % 2 == 0 else PLACES.get(part, NAME) for at, part in enumerate(parts)
    )


def claimants(path: str, kinds: tuple[Kind, ...] = KINDS) -> list[Kind]:
    """Every kind that claims a page (exactly one, for every page the site makes)."""
    return [kind for kind in kinds if pattern(kind).fullmatch(path)]


def _matcher(kinds: tuple[Kind, ...]) -> re.Pattern:
    """All the kinds' patterns in one (group k<n>: kind n): a page's kind in one match."""
    return re.compile("|".join(f"(?P<k{at}>{pattern(kind).pattern})" for at, kind in enumerate(kinds)))


MATCHER = _matcher(KINDS)


def kind_of(path: str, kinds: tuple[Kind, ...] = KINDS, matcher: re.Pattern = MATCHER) -> Kind | None:
    """The kind of page an output path is; None for a file that is not a page (not .html) or
    a page no kind claims. `matcher`: _matcher(kinds)."""
    if not path.endswith(".html"):
        return None
    found = matcher.fullmatch(path)
    return kinds[int(found.lastgroup[1:])] if found is not None and found.lastgroup else None


def unclaimed(paths: Iterable[str], kinds: tuple[Kind, ...] = KINDS) -> list[Problem]:
    """A problem for each page (an .html file) that no kind claims."""
    matcher = MATCHER if kinds is KINDS else _matcher(kinds)
    return [
        Problem(
            f"output/{path}",
            None,
            "no page kind claims this page; declare its kind in sitegen/render/kinds.py",
        )
        for path in sorted(paths)
        if path.endswith(".html") and kind_of(path, kinds, matcher) is None
    ]
