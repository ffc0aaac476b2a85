"""Stage 3 of the build, at scale: every page as a unit, rendered in one process per
language on big sites, or taken from the last build when nothing it read has changed.

Render and write overlap on purpose: the writer opens a staging folder (write.begin), the
process that renders a language puts that language's files into it as soon as they are made
(write.put_files), and the folder is swapped in whole at the end (write.commit, by
pipeline.py). What each unit read is noted as it renders (content/tracking.py); a unit that read
nothing that changed since the last build is hard-linked from it (write.link_files)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from sitegen.assemble import forking
from sitegen.assemble.state import State, Unit
from sitegen.assemble.write import link_files, merge_same, put_files
from sitegen.base import languages
from sitegen.base.cache import BodyCache, code_digest, data_digest, sha
from sitegen.base.errors import ContentError, Problem, Problems
from sitegen.content import usage
from sitegen.content.model import Site
from sitegen.content.textcheck import cjk_spaces
from sitegen.content.translation import translation_gaps
from sitegen.derive import model as derive_model
from sitegen.derive.model import Model
from sitegen.render import pages
from sitegen.render.end_files import language_end_files, site_files
from sitegen.render.inline import stylesheet
from sitegen.render.markup import new_markdown
from sitegen.render.record import at_scale as record_at_scale
from sitegen.render.record import explore as record_explore
from sitegen.render.record import lists as record_lists
from sitegen.render.record import rounds as record_pages
from sitegen.render.record import systems as record_systems
from sitegen.render.record.downloads import all_rounds_downloads, downloads_page, round_downloads
from sitegen.render.search import noindex, search_entry
from sitegen.render.single_file import single_file_copy
from sitegen.render.theme import Strings, load_theme, missing_strings, static_files


@dataclass
class Bodies:
    """How report bodies are made: the cache of earlier results, and one Markdown converter,
    made when a body is first rendered (making it imports its extensions: 0.1-0.2 s in each
    language process of a rebuild that renders no body)."""

    cache: BodyCache
    _md: object = None

    @property
    def md(self):
        if self._md is None:
            self._md = new_markdown()
        return self._md


# From this many reports (all languages) each language gets its own process. Forking costs
# little (a 2-report test site builds as fast either way); the shipped site's 10 reports and
# 20 charts build in about 3 s instead of about 4 s on two cores.
PARALLEL_MIN_REPORTS = 8


def in_processes(site: Site) -> bool:
    """Whether a build of `site` forks processes (its languages, and the work beside them):
    a big site on more than one core, when forking is safe."""
    return len(site.reports) >= PARALLEL_MIN_REPORTS and (os.cpu_count() or 1) > 1 and forking.fork_safe()


@dataclass
class Reuse:
    """What the last build of this output left that this one may take as it is: its units
    (state.State) less those that read a dependency that changed since (`stale`)."""

    state: State
    stale: set
    hashes: list  # the fingerprints of state.keys now
    whole: dict  # each record's whole fingerprint now

    def unit(self, key, previous: dict[str, str]) -> Unit | None:
        """The unit's record when it may be reused: not stale, and every file of it still in
        the output exactly as the last build left it."""
        unit = self.state.units.get(key)
        if unit is None or key in self.stale:
            return None
        return unit if all(previous.get(p) == h for p, h in unit.files.items()) else None


@dataclass
class Destination:
    """Where a build puts its files: the staging folder the writer swaps in at the end, and
    the files of the last build that may be hard-linked instead of written (path -> sha256)."""

    staging: Path
    out: Path  # resolved
    previous: dict[str, str]
    reuse: Reuse | None = None
    # what each unit read, filled in by render_site: unit key -> (state.Unit, rendered now)
    units: dict = field(default_factory=dict)


def render_site(
    site: Site,
    templates: Path,
    model: Model | None = None,
    cache: BodyCache | None = None,
    destination: Destination | None = None,
    processes: bool = True,
) -> dict:
    """Every output file, rendered one language at a time (in parallel on big sites, unless
    `processes` is False: serve's builds run beside its threads, and a process that forks
    while other threads run may inherit a lock one of them held).

    Without a destination: {path: bytes}. With one, each process writes its own files into the
    staging folder as soon as they are made, and only {path: sha256} comes back: the files of a
    big site never pass between processes, and no process holds all of them."""
    cache = cache or BodyCache(site.store, data_digest(site.root, code_digest(site.store), site.store))
    model = model or derive_model.build(site)  # once, before any process forks
    # each language's pages, then the record's data files (the same in every language) as a
    # job of their own: no language's process carries them, and the shortest job goes last
    jobs = [(site, model, templates, lang, cache.data_key, destination, PAGES) for lang in site.languages]
    if site.rounds:
        jobs.append((site, model, templates, site.languages[0], cache.data_key, destination, DATA))
    if processes and in_processes(site):
        results = forking.in_forked_processes(_render_language, jobs, _at_once(jobs, destination))
    else:
        results = [_render_language(job) for job in jobs]
    problems = [problem for result in results for problem in result.problems]
    if any(not problem.warning for problem in problems):
        raise ContentError([problem for problem in problems if not problem.warning])
    site.warnings = [*site.warnings, *problems]  # warnings found while rendering
    theme = load_theme(templates, site.root / "templates", store=site.store)
    files = pages.chooser_page(theme, site)
    written, units, linked = {}, {}, {}
    for result in results:
        merge_same(files, result.files)
        written.update(result.written)
        units.update(result.units)
        linked.update(result.linked)
        cache.hits += result.reused
        cache.misses += result.rendered
    hidden = {path for result in results for path in result.hidden}
    files.update(site_files(site, model, theme, {*written, *files, *linked}, hidden))
    files.update(static_files(theme))
    if destination is None:
        return files
    # what each unit read: the next build's state.State. A reused unit comes back as None from
    # its process (the last state has it; sending 2,500 of them back a language took 0.1 s)
    reused = destination.reuse.state.units if destination.reuse is not None else {}
    destination.units = {
        key: (reused[key] if unit is None else unit, fresh) for key, (unit, fresh) in units.items()
    }
    linked = {path: digest for path, digest in linked.items() if path not in files}
    return {
        **written,
        **link_files(linked, destination.staging, destination.out),
        **put_files(files, destination.staging, destination.out, destination.previous),
    }


def _at_once(jobs: list, destination: Destination | None) -> int:
    """How many jobs run at a time: one per core on a build from no last state (it renders and
    draws everything; all at once would pass 1 GB), all of them on a rebuild (its processes
    stay small), so that no core idles while the last language renders (bench/README.md)."""
    if destination is not None and destination.reuse is not None:
        return len(jobs)
    return min(len(jobs), os.cpu_count() or 1)


@dataclass
class LanguageResult:
    files: dict[str, bytes]  # not written yet: all, or those shared by every language
    written: dict[str, str]  # path -> sha256 of the files this process wrote or linked
    hidden: list[str]  # pages that ask to stay out of search engines
    problems: list
    reused: int = 0  # report bodies taken from the cache
    rendered: int = 0  # report bodies rendered
    units: dict = field(default_factory=dict)  # unit key -> (state.Unit or None if reused, rendered now)
    linked: dict = field(default_factory=dict)  # shared files of reused units: path -> sha256


PAGES, DATA = "pages", "data"  # what a job renders: one language's pages, or the record's data


def _render_language(job) -> LanguageResult:
    """All pages of one language, and the files only they determine (search index, feed); or
    (`DATA`) the record's downloads and data scripts, which are the same in every language.

    Pages are made one unit at a time (a page with the files made with it: a report's
    single-file copy, its charts), noting what each read (content/tracking.py), and, when there
    is a destination, written and dropped at once: memory holds one page, not the whole language.
    A unit the last build made from inputs that have not changed is hard-linked instead."""
    site, model, templates, lang, data_key, destination, part = job
    theme = load_theme(templates, site.root / "templates", site.reads, site.store)
    t = Strings(site, lang)
    bodies = Bodies(BodyCache(site.store, data_key))
    css = stylesheet(theme)
    problems: list = []
    kept: dict[str, bytes] = {}  # not written here: all of them, or those every language makes
    written: dict[str, str] = {}
    docs: list = []
    hidden: list = []
    units: dict = {}  # unit key -> (state.Unit, or None for a reused one, rendered now)
    linked: dict[str, str] = {}
    unchanged: dict[str, str] = {}  # own files of reused units, hard-linked together at the end
    cjk, spaces = languages.get(lang).cjk, []
    pairs = site.usage if languages.get(lang).lang.startswith("zh-Hant") else None
    rel = Problems(site.root).rel
    reuse = destination.reuse if destination is not None else None
    units_of = (
        _data_units(site, model)
        if part == DATA
        else _language_units(theme, site, model, lang, t, bodies, problems)
    )
    for key, report, make in units_of:
        unit_key = (lang, *key)
        old = reuse.unit(unit_key, destination.previous) if reuse is not None else None
        if old is not None and os.environ.get(VERIFY_REUSE) == "1":
            _verify_reuse(site, unit_key, old, make, report, theme, css, t)
        if old is not None:
            own = {p: h for p, h in old.files.items() if lang in p.split("/")[:-1]}
            unchanged.update(own)
            linked.update((p, h) for p, h in old.files.items() if p not in own)
            docs += old.docs
            hidden += old.hidden
            problems += old.problems
            units[unit_key] = (None, False)  # the parent has it: destination.reuse
            continue
        said = len(problems)
        with site.reads.collect() as reads:
            files = make()
            if any(not problem.warning for problem in problems):
                continue  # keep going only to find every problem
            if report is not None:
                site.reads.note(("static",), "*")
                files.update(single_file_copy(site, theme, files, report, css, t))
            unit_docs, unit_hidden = [], []
            for path, data in files.items():
                doc = search_entry(site, path, data, lang, t)
                if doc:
                    unit_docs.append(doc)
                elif path.endswith(".html") and noindex(data):
                    unit_hidden.append(path)
        if cjk:  # every page's spaces, once its content is right
            spaces += _cjk_space_problems(files)
        if pairs is not None:  # mainland usage on a Taiwan page: kept with the unit (reuse says it)
            problems += usage.page_problems(files, pairs, usage.unit_sources(site, key, lang), rel)
        docs += unit_docs
        hidden += unit_hidden
        shas = _keep_or_write(files, lang, kept, destination, mine=unit_key[1] == "data")
        shas.update((path, sha(data)) for path, data in files.items() if path not in shas)
        written.update((path, digest) for path, digest in shas.items() if path not in kept)
        units[unit_key] = (Unit(shas, reads, unit_docs, unit_hidden, problems[said:]), True)
    bodies.cache.flush()
    if unchanged:
        written.update(link_files(unchanged, destination.staging, destination.out))
    problems += spaces
    try:
        if part == PAGES and (not problems or all(problem.warning for problem in problems)):
            written.update(
                _keep_or_write(language_end_files(site, model, lang, docs, t), lang, kept, destination)
            )
        missing_strings([t])
    except ContentError as exc:
        problems += exc.problems
    if any(not problem.warning for problem in problems):
        return LanguageResult({}, {}, [], problems)
    return LanguageResult(
        kept, written, hidden, problems, bodies.cache.hits, bodies.cache.misses, units, linked
    )


def preview_reports(
    site: Site, templates: Path, changed, model: Model | None = None
) -> dict[str, bytes] | None:
    """The pages of the reports whose source files are `changed`, rendered in memory for
    `serve` to show at once while the full build follows ({output path: bytes}, the same
    bytes the build writes); None when a changed file is not a report's, or the pages have a
    problem (the build then says it, with file and line)."""
    changed = {Path(path).resolve() for path in changed}
    wanted = {
        (r.lang, r.slug) for r in site.reports if r.source is not None and r.source.path.resolve() in changed
    }
    sources = {r.source.path.resolve() for r in site.reports if r.source is not None}
    if not wanted or not changed <= sources:
        return None
    theme = load_theme(templates, site.root / "templates", store=site.store)
    model = model or derive_model.build(site)
    bodies = Bodies(BodyCache(site.store, data_digest(site.root, code_digest(site.store), site.store)))
    files: dict[str, bytes] = {}
    for lang in site.languages:
        slugs = {slug for language, slug in wanted if language == lang}
        if not slugs:
            continue
        problems: list = []
        t = Strings(site, lang)
        for key, _report, make in _language_units(theme, site, model, lang, t, bodies, problems):
            if key[0] == "report" and key[1] in slugs:
                files.update(make())
                slugs.discard(key[1])
                if not slugs:
                    break
        if any(not problem.warning for problem in problems) or (
            languages.get(lang).cjk and _cjk_space_problems(files)
        ):
            return None
    bodies.cache.flush()  # the build that follows takes the bodies from the cache
    return files


# "1": render every unit that would be reused too, and stop at one whose bytes would differ
# (a dependency the tracking missed). For tests and for checking a change by hand; slow.
VERIFY_REUSE = "SITEGEN_VERIFY_REUSE"


def _verify_reuse(site, unit_key, old: Unit, make, report, theme, css, t) -> None:
    with site.reads.paused():
        files = make()
        if report is not None:
            files.update(single_file_copy(site, theme, files, report, css, t))
    now = {path: sha(data) for path, data in files.items()}
    if now != old.files:
        differ = sorted(p for p in {*now, *old.files} if now.get(p) != old.files.get(p))
        raise RuntimeError(f"reused unit {unit_key} differs from a fresh rendering: {differ}")


def _cjk_space_problems(files: dict[str, bytes]) -> list[Problem]:
    """An ASCII space between two CJK characters on a Chinese (Japanese, Korean) page is an
    error naming the page and the place (generated text included)."""
    problems = []
    for path, data in files.items():
        if path.endswith(".html"):
            found = cjk_spaces(data.decode("utf-8"))
            if found:
                more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
                problems.append(
                    Problem(
                        f"output/{path}",
                        None,
                        f"ASCII space between two CJK characters: '{found[0]}'{more}; remove it",
                    )
                )
    return problems


def _keep_or_write(
    files: dict[str, bytes], lang: str, kept: dict, destination, mine: bool = False
) -> dict[str, str]:
    """Write the files in this language's own folders, and all of them when they are `mine`
    (the record's downloads, made by one language only); keep the rest (files every language
    makes, such as scripts, go back to the one process that writes them)."""
    if destination is None:
        kept.update(files)
        return {}
    own = files if mine else {path: data for path, data in files.items() if lang in path.split("/")[:-1]}
    merge_same(kept, {path: data for path, data in files.items() if path not in own})
    return put_files(own, destination.staging, destination.out, destination.previous)


def _language_units(theme, site, model, lang, t, bodies, problems):
    """(key, report or None, function making {path: bytes} of one page and the files made
    with it), unit by unit; nothing is made until the function is called."""

    def unit(key, function, *args, report=None):
        def make():
            return function(theme, site, lang, t, *args)

        return key, report, make

    yield unit(("home",), pages.home_page, model)
    yield unit(("reports",), pages.reports_index, model)
    for report in site.reports_in(lang):
        yield unit(("report", report.slug), pages.report_page, report, model, bodies, problems, report=report)
    for page in (p for p in site.pages if p.lang == lang):
        yield unit(("page", page.slug), pages.plain_page, page, model, bodies, problems)
    yield unit(("systems",), record_systems.systems_index, model)
    for system in site.table("systems"):
        yield unit(("system", system["id"]), pages.system_page, system, model)
    yield unit(("benchmarks",), pages.benchmarks_index, model)
    for benchmark in site.table("benchmarks"):
        yield unit(("benchmark", benchmark["id"]), pages.benchmark_page, benchmark, model)
    for benchmark, scale in record_at_scale.at_scale_units(site, model):
        yield unit(
            ("at-scale", benchmark["id"], str(scale)), record_at_scale.at_scale_page, benchmark, scale, model
        )
    for key, make in record_pages.record_pages(theme, site, model, lang, t):
        yield ("record", *key), None, make
    if site.rounds:
        yield unit(("downloads",), downloads_page, model)
        yield unit(("explore",), record_explore.explore_page, model)
    yield unit(("claims",), pages.claims_page, model)
    yield unit(("sources",), pages.sources_page, model)
    yield unit(("glossary",), pages.glossary_page, model)
    yield unit(("404",), pages.not_found_page, model)
    yield unit(("status",), _status_page, model)


def _data_units(site, model):
    """The record's data files, unit by unit, as _language_units gives pages."""
    for round_id in site.rounds:
        yield ("data", round_id), None, partial(_round_data, model, round_id)
    if site.rounds:
        yield ("data",), None, partial(all_rounds_downloads, model)


def _round_data(model, round_id: str) -> dict[str, bytes]:
    """A round's downloads (CSV, JSON) and the data scripts of the compare page and the
    explorer."""
    return {
        **round_downloads(model, round_id),
        **record_lists.record_data_file(model, round_id),
        **record_explore.data_file(model, round_id),
    }


def _status_page(theme, site, lang, t, model):
    return pages.status_page(theme, site, lang, t, translation_gaps(site), model)
