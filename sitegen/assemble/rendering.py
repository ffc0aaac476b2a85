"""Stage 3 of the build, at scale: every page as a unit, rendered in one process per
language on big sites, or taken from the last build when nothing it read has changed.

Render and write overlap on purpose: the writer opens a staging folder (write.begin), the
process that renders a language puts that language's files into it as soon as they are made
(write.put_files), and the folder is swapped in whole at the end (write.commit, by
pipeline.py). What each unit read is noted as it renders (content/tracking.py); a unit that read
nothing that changed since the last build is taken as it is: its files are in the staging folder
already (write.Held: a rebuild's staging folder holds the output's unchanged files), or
hard-linked from the output (write.link_files)."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from pathlib import Path

from sitegen.assemble import forking
from sitegen.assemble.end_units import language_index
from sitegen.assemble.jobs import DATA, PAGES, at_once, renders_much, shares
from sitegen.assemble.state import State, Unit
from sitegen.assemble.units import (
    Language,
    cjk_space_problems,
    language_units,
    make_unit,
    take_reused,
)
from sitegen.assemble.write import DOUBLE_WRITE, Held, link_files, merge_same, put_files
from sitegen.base.cache import BodyCache, code_digest, data_digest, sha
from sitegen.base.errors import ContentError, Problem, Problems
from sitegen.content.model import Site
from sitegen.derive import model as derive_model
from sitegen.derive.model import Model
from sitegen.render import pages
from sitegen.render.end_files import language_end_units, site_files
from sitegen.render.inline import stylesheet
from sitegen.render.kinds import KINDS, Kind, Run, unclaimed
from sitegen.render.markup import new_markdown
from sitegen.render.record import explore as record_explore
from sitegen.render.record import lists as record_lists
from sitegen.render.record.downloads import all_rounds_downloads, round_downloads, round_rows
from sitegen.render.single_file import single_file_copy
from sitegen.render.theme import Strings, Theme, load_theme, missing_strings, static_files


@dataclass
class Bodies:
    """How report bodies are made: the cache of earlier results, and one Markdown converter,
    made when a body is first rendered (making it imports its extensions: 0.1-0.2 s in each
    language process of a rebuild that renders no body)."""

    cache: BodyCache
    _md: object = None

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
    held: Held = field(default_factory=Held)  # what the staging folder holds from the start
    # what each unit read, filled in by render_site: unit key -> (state.Unit, rendered now)
    units: dict = field(default_factory=dict)
    touched: set[str] = field(default_factory=set)  # the files made in the staging folder (Held)


def render_site(
    site: Site,
    theme: Theme,
    model: Model | None = None,
    cache: BodyCache | None = None,
    destination: Destination | None = None,
    processes: bool = True,
    kinds: tuple[Kind, ...] = KINDS,
) -> dict:
    """Every output file, rendered one language at a time (in parallel on big sites, unless
    `processes` is False: serve's builds run beside its threads, and a process that forks
    while other threads run may inherit a lock one of them held). `theme`: the build's one
    Jinja environment (load_site_theme), which forked processes inherit; `kinds`: the page
    kinds (render/kinds.py), whose renderers make each language's pages in their order.

    Without a destination: {path: bytes}. With one, each process writes its own files into the
    staging folder as soon as they are made, and only {path: sha256} comes back: the files of a
    big site never pass between processes, and no process holds all of them."""
    cache = cache or BodyCache(site.store, data_digest(site.root, code_digest(site.store), site.store))
    model = model or derive_model.build(site)  # once, before any process forks
    if destination is None or destination.reuse is None:
        new_markdown()  # its imports too: a build that reuses nothing converts every text
    jobs = _jobs(site, model, theme, cache.data_key, destination, kinds)
    before = Counter(_work(site))
    results = _job_results(site, model, jobs, destination, processes)
    _add_work(site, before, results)
    problems = [problem for result in results for problem in result.problems]
    if any(not problem.warning for problem in problems):
        raise ContentError([problem for problem in problems if not problem.warning])
    site.warnings = [*site.warnings, *problems]  # warnings found while rendering
    files = pages.chooser_page(theme, site)
    written: dict[str, str] = {}
    units, linked = {}, {}
    for result in results:
        merge_same(files, result.files)
        _once_in(written, result.written)
        written.update(result.written)
        units.update(result.units)
        linked.update(result.linked)
        cache.hits += result.reused
        cache.misses += result.rendered
    hidden = {path for result in results for path in result.hidden}
    files.update(site_files(site, model, theme, {*written, *files, *linked}, hidden))
    files.update(static_files(theme))
    # the pages of the last build were claimed by the same kinds (Reuse: the same code), so a
    # rebuild looks only at the others (every page's match took 0.03 s of a whole-record edit)
    claimed = destination.previous if destination is not None and destination.reuse is not None else {}
    stray = unclaimed({*written, *files, *linked} - claimed.keys(), kinds)
    if stray:  # a page no kind claims would drop out of the sitemap and search unseen
        raise ContentError(stray)
    if destination is None:
        return files
    destination.touched = {path for result in results for path in result.touched}
    return _put(destination, files, written, units, linked)


def _job_results(site: Site, model: Model, jobs: list, destination, processes: bool) -> list:
    """Each job's LanguageResult, in the order of the jobs: in forked processes on a big site
    (jobs.shares: which jobs each does, and which are done here), else one after the other."""
    if not (processes and in_processes(site)):
        return [_render_language(job) for job in jobs]
    if renders_much(destination):
        model.complete()  # every entry here, once, not again in each forked language
    each, here = shares(jobs, destination)
    done = forking.in_forked_processes(
        _render_languages,
        [[jobs[index] for index in share] for share in each],
        at_once(each, destination),
        here,
    )
    found = {index: result for share, results in zip(each, done) for index, result in zip(share, results)}
    return [found[index] for index in range(len(jobs))]


def _jobs(site: Site, model: Model, theme: Theme, data_key: str, destination, kinds) -> list[tuple]:
    """Each language's pages, then the record's data files (the same in every language) as a
    job of their own: no language's process carries them, and the shortest job goes last."""
    jobs = [(site, model, theme, lang, data_key, destination, PAGES, kinds) for lang in site.languages]
    if site.rounds:
        jobs.append((site, model, theme, site.languages[0], data_key, destination, DATA, kinds))
    return jobs


def _once_in(written: dict, more) -> None:
    """A path two processes wrote is a second page at one address (their staging folder held
    it from the start, so neither was refused: write.Held)."""
    both = sorted(more & written.keys())
    if both:
        raise ContentError([Problem(f"output/{both[0]}", None, DOUBLE_WRITE)])


def _put(destination: Destination, files: dict, written: dict, units: dict, linked: dict) -> dict:
    """The files every language shares, written (or linked) into the staging folder beside
    those the languages wrote: {path: sha256} of all of them."""
    # what each unit read: the next build's state.State. A reused unit comes back as None from
    # its process (the last state has it; sending 2,500 of them back a language took 0.1 s)
    reused = destination.reuse.state.units if destination.reuse is not None else {}
    destination.units = {
        key: (reused[key] if unit is None else unit, fresh) for key, (unit, fresh) in units.items()
    }
    linked = {path: digest for path, digest in linked.items() if path not in files}
    _once_in(written, files.keys() | linked.keys())
    held = destination.held
    everything = {
        **written,
        **link_files(linked, destination.staging, destination.out, held),
        **put_files(files, destination.staging, destination.out, destination.previous, held),
    }
    destination.touched.update(held.touched)
    return everything


def _work(site: Site) -> Counter:
    """The work this process's store counted (Store.work); none without a store."""
    return site.store.work if site.store is not None else Counter()


def _add_work(site: Site, before: Counter, results: list) -> None:
    """The store's work: what it counted before the languages, and what each language's job
    counted (sent back from its process; a job run in this one counted here too, so the jobs'
    own counts replace what this store counted meanwhile)."""
    work = _work(site)
    work.clear()
    work.update(before)
    for result in results:
        work.update(result.work)


def load_site_theme(site: Site, templates: Path) -> Theme:
    """The build's one Jinja environment: the theme's templates, a content folder's own
    templates/ first, every template a page uses noted in the site's reads."""
    return load_theme(templates, site.root / "templates", site.reads, site.store)


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
    work: Counter = field(default_factory=Counter)  # what this job's store counted (Store.work)
    touched: list[str] = field(default_factory=list)  # files made in the staging folder (write.Held)


def _render_languages(jobs: list) -> list[LanguageResult]:
    """_render_language of each job, in turn, in one process."""
    return [_render_language(job) for job in jobs]


def _render_language(job) -> LanguageResult:
    """All pages of one language, and the files only they determine (search index, feed); or
    (`DATA`) the record's downloads and data scripts, which are the same in every language.

    Pages are made one unit at a time (a page with the files made with it: a report's
    single-file copy, its charts), noting what each read (content/tracking.py), and, when there
    is a destination, written and dropped at once: memory holds one page, not the whole language.
    A unit the last build made from inputs that have not changed is hard-linked instead."""
    site, model, theme, lang, data_key, destination, part, kinds = job
    before = Counter(_work(site))
    rel = Problems(site.root).rel
    work = Language(site, theme, lang, Strings(site, lang), destination, stylesheet(theme), rel)
    bodies = Bodies(BodyCache(site.store, data_key))
    reuse = destination.reuse if destination is not None else None
    units_of = (
        _data_units(site, model)
        if part == DATA
        else chain(
            language_units(kinds, theme, Run(site, model, lang, bodies, work.problems), work.t),
            language_end_units(site, lang),
        )
    )
    for key, report, make in units_of:
        unit_key = (lang, *key)
        old = reuse.unit(unit_key, destination.previous) if reuse is not None and destination else None
        if old is not None and os.environ.get(VERIFY_REUSE) == "1":
            _verify_reuse(site, unit_key, old, make, report, theme, work.css, work.t)
        if old is not None:
            take_reused(work, unit_key, old, report, make)
        else:
            make_unit(work, unit_key, report, make)
    bodies.cache.flush()
    if work.unchanged and destination is not None:
        work.written.update(
            link_files(work.unchanged, destination.staging, destination.out, destination.held)
        )
    work.problems += work.spaces
    try:
        if part == PAGES and all(problem.warning for problem in work.problems):
            language_index(work, model, reuse, os.environ.get(VERIFY_REUSE) == "1")
        missing_strings([work.t])
    except ContentError as exc:
        work.problems += exc.problems
    if any(not problem.warning for problem in work.problems):
        return LanguageResult({}, {}, [], work.problems)
    return LanguageResult(
        work.kept,
        work.written,
        work.hidden,
        work.problems,
        bodies.cache.hits,
        bodies.cache.misses,
        work.units,
        work.linked,
        _work(site) - before,
        list(destination.held.touched) if destination is not None else [],
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
        for key, _report, make in language_units(KINDS, theme, Run(site, model, lang, bodies, problems), t):
            if key[0] == "report" and key[1] in slugs:
                files.update(make())
                slugs.discard(key[1])
                if not slugs:
                    break
        if any(not problem.warning for problem in problems) or (
            site.languages.get(lang).cjk and cjk_space_problems(files)
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


def _data_units(site, model):
    """The record's data files, unit by unit, as _language_units gives pages."""
    for round_id in site.rounds:
        yield ("data", round_id), None, partial(_round_data, model, round_id)
    if site.rounds:
        yield ("data",), None, partial(all_rounds_downloads, model)


def _round_data(model, round_id: str) -> dict[str, bytes]:
    """A round's downloads (CSV, JSON) and the data scripts of the compare page and the
    explorer; the round's download rows made once for both (one unit: each read is noted)."""
    rows = round_rows(model, round_id)
    return {
        **round_downloads(model, round_id, rows),
        **record_lists.record_data_file(model, round_id),
        **record_explore.data_file(model, round_id, rows),
    }
