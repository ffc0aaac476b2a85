"""The whole build: load, derive, render, write. Each stage is one call."""
from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import derive, pages
from .cache import (BodyCache, code_digest, data_digest, load_manifest, output_state,
                    save_manifest, tree_digest)
from .errors import ContentError
from .markup import new_markdown
from .model import Site
from .load import load_site
from .reader import language_files, noindex, site_files
from .translation import translation_gaps
from .render import Strings, load_theme, missing_strings, static_files
from .write import abort, begin, commit, put_files


@dataclass
class BuildReport:
    pages: int = 0
    files: int = 0
    warnings: list = field(default_factory=list)
    seconds: float = 0.0
    skipped: bool = False            # nothing changed since the last build of this output
    bodies_reused: int = 0
    bodies_rendered: int = 0


@dataclass
class Bodies:
    """How report bodies are made: one Markdown converter, and the cache of earlier results."""

    md: object
    cache: BodyCache


# From this many reports (all languages) each language gets its own process. Forking costs
# little (a 2-report test site builds as fast either way); the shipped site's 10 reports and
# 20 charts build in about 3 s instead of about 4 s on two cores.
PARALLEL_MIN_REPORTS = 8


@dataclass
class Destination:
    """Where a build puts its files: the staging folder the writer swaps in at the end, and
    the files of the last build that may be hard-linked instead of written (path -> sha256)."""

    staging: Path
    out: Path
    previous: dict[str, str]


def render_site(site: Site, templates: Path, cache: BodyCache | None = None,
                destination: Destination | None = None) -> dict:
    """Every output file, rendered one language at a time (in parallel on big sites).

    Without a destination: {path: bytes}. With one, each process writes its own files into the
    staging folder as soon as they are made, and only {path: sha256} comes back: the files of a
    big site never pass between processes, and no process holds all of them."""
    cache = cache or BodyCache(data_digest(site.root, code_digest()))
    jobs = [(site, templates, lang, cache.data_key, destination) for lang in site.languages]
    workers = min(len(jobs), os.cpu_count() or 1)
    if len(site.reports) >= PARALLEL_MIN_REPORTS and workers > 1:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(_render_language, jobs))
    else:
        results = [_render_language(job) for job in jobs]
    problems = [problem for result in results for problem in result.problems]
    if problems:
        raise ContentError(problems)
    theme = load_theme(templates)
    files = pages.chooser_page(theme, site)
    written = {}
    for result in results:
        files.update(result.files)
        written.update(result.written)
        cache.hits += result.reused
        cache.misses += result.rendered
    hidden = {path for result in results for path in result.hidden}
    files.update(site_files(site, theme, {*written, *files}, hidden))
    files.update(static_files(theme))
    if destination is None:
        return files
    return {**written, **put_files(files, destination.staging, destination.out, destination.previous)}


@dataclass
class LanguageResult:
    files: dict[str, bytes]   # not written yet: all, or those shared by every language
    written: dict[str, str]   # path -> sha256 of the files this process wrote
    hidden: list[str]         # pages that ask to stay out of search engines
    problems: list
    reused: int = 0
    rendered: int = 0


def _render_language(job) -> LanguageResult:
    """All pages of one language, and the files only they determine (search index, feed)."""
    site, templates, lang, data_key, destination = job
    theme, t = load_theme(templates), Strings(site, lang)
    bodies = Bodies(new_markdown(), BodyCache(data_key))
    problems: list = []
    files = _language_pages(theme, site, lang, t, derive.check_claims(site),
                            derive.comparisons(site), bodies, problems)
    try:
        if not problems:
            files.update(language_files(site, theme, files, lang))
        missing_strings([t])
    except ContentError as exc:
        problems += exc.problems
    bodies.cache.flush()
    if problems:
        return LanguageResult({}, {}, [], problems)
    hidden = [path for path, data in files.items() if path.endswith(".html") and noindex(data)]
    written = {}
    if destination:
        # this language's own folders; files every language makes (scripts) go back to one writer
        own = {path: files.pop(path) for path in list(files) if lang in path.split("/")[:-1]}
        written = put_files(own, destination.staging, destination.out, destination.previous)
    return LanguageResult(files, written, hidden, problems, bodies.cache.hits, bodies.cache.misses)


def _language_pages(theme, site, lang, t, checks, comparisons, bodies, problems):
    files = {}
    files.update(pages.home_page(theme, site, lang, t, checks))
    files.update(pages.reports_index(theme, site, lang, t))
    for report in site.reports_in(lang):
        files.update(pages.report_page(theme, site, lang, t, report, checks, bodies, problems))
    for page in (p for p in site.pages if p.lang == lang):
        files.update(pages.plain_page(theme, site, lang, t, page, checks, bodies, problems))
    files.update(pages.systems_index(theme, site, lang, t))
    for system in site.table("systems"):
        files.update(pages.system_page(theme, site, lang, t, system, checks, comparisons))
    files.update(pages.benchmarks_index(theme, site, lang, t))
    for benchmark in site.table("benchmarks"):
        files.update(pages.benchmark_page(theme, site, lang, t, benchmark))
    files.update(pages.comparisons_index(theme, site, lang, t, comparisons))
    for comparison in comparisons:
        files.update(pages.comparison_page(theme, site, lang, t, comparison))
    files.update(pages.claims_page(theme, site, lang, t, checks))
    files.update(pages.sources_page(theme, site, lang, t))
    files.update(pages.glossary_page(theme, site, lang, t))
    files.update(pages.not_found_page(theme, site, lang, t))
    files.update(pages.status_page(theme, site, lang, t, translation_gaps(site)))
    return files


def _unchanged_since(manifest, out: Path) -> dict[str, str]:
    """Files of the last build still on disk exactly as it left them: only these may be reused."""
    if not manifest or not out.is_dir():
        return {}
    state = output_state(out)
    return {path: sha for path, sha in manifest.files.items()
            if path in state and state[path] == manifest.state.get(path)}


def build(content: Path, templates: Path, out: Path, strict: bool = False) -> BuildReport:
    """Build `out` from `content`; when nothing that shapes the output changed since the last
    build of `out`, and `out` is as that build left it, do nothing."""
    started = time.perf_counter()
    code = code_digest()
    inputs = tree_digest(content, templates, extra=code + str(strict))
    manifest = load_manifest(out)
    if manifest and manifest.inputs == inputs and out.is_dir() and output_state(out) == manifest.state:
        return BuildReport(pages=sum(1 for p in manifest.files if p.endswith(".html")),
                           files=len(manifest.files), seconds=time.perf_counter() - started,
                           skipped=True)
    site = load_site(content, strict=strict)
    cache = BodyCache(data_digest(content, code))
    staging = begin(out)
    try:
        files = render_site(site, templates, cache,
                            Destination(staging, out.resolve(), _unchanged_since(manifest, out)))
        commit(staging, out)
    except BaseException:
        abort(staging)
        raise
    save_manifest(out, inputs, files)
    return BuildReport(pages=sum(1 for p in files if p.endswith(".html")), files=len(files),
                       warnings=site.warnings, seconds=time.perf_counter() - started,
                       bodies_reused=cache.hits, bodies_rendered=cache.misses)
