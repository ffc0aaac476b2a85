"""The whole build: load, derive, render, write. Each stage is one call.

Render and write overlap on purpose: the writer opens a staging folder (write.begin), the
process that renders a language puts that language's files into it as soon as they are made
(write.put_files), and the folder is swapped in whole at the end (write.commit), or removed
when anything failed (write.abort)."""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from . import derive, languages, outdir, pages, paths
from .textcheck import cjk_spaces
from . import record_lists, record_pages
from .record_download import download_files, downloads_page
from .cache import (BodyCache, cache_root, code_digest, data_digest, load_manifest,
                    output_state, save_manifest, tree_digest)
from .errors import ContentError, Problem
from .markup import new_markdown
from .model import Site
from .load import load_site
from .reader import (language_end_files, noindex, search_entry, single_file_copy, site_files,
                     stylesheet)
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
    out: Path                        # resolved
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
    if len(site.reports) >= PARALLEL_MIN_REPORTS and workers > 1 and _fork_safe():
        results = _in_forked_processes(_render_language, jobs)
    else:
        results = [_render_language(job) for job in jobs]
    problems = [problem for result in results for problem in result.problems]
    if any(not problem.warning for problem in problems):
        raise ContentError([problem for problem in problems if not problem.warning])
    site.warnings = [*site.warnings, *problems]      # warnings found while rendering
    theme = load_theme(templates, site.root / "templates")
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
    files.update(download_files(site))
    files.update(record_lists.record_data_files(site))
    if destination is None:
        return files
    return {**written, **put_files(files, destination.staging, destination.out, destination.previous)}


def _fork_safe() -> bool:
    """False once this process has loaded vl-convert: its JavaScript runtime runs on threads
    that a forked child does not inherit, so a child drawing a chart would wait for ever (seen
    in the tests, which draw charts before building a site). A build from the command line
    draws nothing before it forks."""
    return "vl_convert" not in sys.modules


def _in_forked_processes(function, jobs: list) -> list:
    """function(job) for each job, each in a process of its own. A forked process inherits its
    job (the whole loaded site) instead of receiving a pickled copy; only results come back."""
    context = multiprocessing.get_context("fork")
    running = []
    # Ctrl-C is held back while forking (a child must not take it before it ignores it) and
    # delivered to this process afterwards, which then stops the children.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for job in jobs:
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_run_and_send,
                                      args=(function, job, send, os.getpid()))
            process.start()
            send.close()
            running.append((process, receive))
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        outcomes = [_outcome(process, receive) for process, receive in running]
    except BaseException:            # Ctrl-C or a fault here: no process writes on
        for process, _ in running:
            process.kill()
        raise
    finally:
        for process, _ in running:
            process.join()
    failures = [value for outcome, value in outcomes if outcome != "ok"]
    if failures:
        raise RuntimeError("rendering failed in a separate process:\n" + "\n".join(failures))
    return [value for _, value in outcomes]


def _outcome(process, receive) -> tuple[str, object]:
    try:
        return receive.recv()
    except EOFError:                 # the process died before it could answer
        process.join()
        return "error", f"a rendering process ended with exit code {process.exitcode}"


def _run_and_send(function, job, send, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _die_with(parent)
    try:
        send.send(("ok", function(job)))
    except BaseException:  # noqa: BLE001 - reported to the parent with its traceback
        send.send(("error", traceback.format_exc()))
    finally:
        send.close()


def _die_with(parent: int) -> None:
    """A build that is killed takes its rendering processes with it (Linux: PR_SET_PDEATHSIG),
    instead of leaving them to finish work nobody will read."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:       # killed before the line above took effect
        os._exit(1)


@dataclass
class LanguageResult:
    files: dict[str, bytes]   # not written yet: all, or those shared by every language
    written: dict[str, str]   # path -> sha256 of the files this process wrote
    hidden: list[str]         # pages that ask to stay out of search engines
    problems: list
    reused: int = 0
    rendered: int = 0


def _render_language(job) -> LanguageResult:
    """All pages of one language, and the files only they determine (search index, feed).

    Pages are made one at a time (with its single-file copy for a report, and its search
    entry) and, when there is a destination, written and dropped at once: memory holds one
    page, not the whole language."""
    site, templates, lang, data_key, destination = job
    theme, t = load_theme(templates, site.root / "templates"), Strings(site, lang)
    bodies = Bodies(new_markdown(), BodyCache(data_key))
    css = stylesheet(theme)
    problems: list = []
    kept: dict[str, bytes] = {}      # not written here: all of them, or those every language makes
    written: dict[str, str] = {}
    docs, hidden = [], []
    cjk, spaces = languages.get(lang).cjk, []
    for report, files in _language_pages(theme, site, lang, t, derive.check_claims(site),
                                         derive.comparisons(site), bodies, problems):
        if any(not problem.warning for problem in problems):
            continue                 # keep going only to find every problem
        if cjk:                      # every page's spaces, once its content is right
            spaces += _cjk_space_problems(files)
        if report is not None:
            files.update(single_file_copy(site, theme, files, report, css, t))
        for path, data in files.items():
            doc = search_entry(site, path, data, lang, t)
            if doc:
                docs.append(doc)
            elif path.endswith(".html") and noindex(data):
                hidden.append(path)
        written.update(_keep_or_write(files, lang, kept, destination))
    bodies.cache.flush()
    problems += spaces
    try:
        if not problems:
            written.update(_keep_or_write(language_end_files(site, lang, docs), lang, kept,
                                          destination))
        missing_strings([t])
    except ContentError as exc:
        problems += exc.problems
    if any(not problem.warning for problem in problems):
        return LanguageResult({}, {}, [], problems)
    return LanguageResult(kept, written, hidden, problems, bodies.cache.hits, bodies.cache.misses)


def _cjk_space_problems(files: dict[str, bytes]) -> list[Problem]:
    """An ASCII space between two CJK characters on a Chinese (Japanese, Korean) page is an
    error naming the page and the place (generated text included)."""
    problems = []
    for path, data in files.items():
        if path.endswith(".html"):
            found = cjk_spaces(data.decode("utf-8"))
            if found:
                more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
                problems.append(Problem(f"output/{path}", None, "ASCII space between two CJK "
                                        f"characters: '{found[0]}'{more}; remove it"))
    return problems


def _keep_or_write(files: dict[str, bytes], lang: str, kept: dict, destination) -> dict[str, str]:
    """Write the files in this language's own folders; keep the rest (files every language
    makes, such as scripts, go back to the one process that writes them)."""
    if destination is None:
        kept.update(files)
        return {}
    own = {path: data for path, data in files.items() if lang in path.split("/")[:-1]}
    kept.update((path, data) for path, data in files.items() if path not in own)
    return put_files(own, destination.staging, destination.out, destination.previous)


def _language_pages(theme, site, lang, t, checks, comparisons, bodies, problems):
    """(report or None, {path: bytes} of one page and the files made with it), page by page."""
    yield None, pages.home_page(theme, site, lang, t, checks)
    yield None, pages.reports_index(theme, site, lang, t)
    for report in site.reports_in(lang):
        yield report, pages.report_page(theme, site, lang, t, report, checks, bodies, problems)
    for page in (p for p in site.pages if p.lang == lang):
        yield None, pages.plain_page(theme, site, lang, t, page, checks, bodies, problems)
    yield None, pages.systems_index(theme, site, lang, t)
    for system in site.table("systems"):
        yield None, pages.system_page(theme, site, lang, t, system, checks, comparisons)
    yield None, pages.benchmarks_index(theme, site, lang, t)
    for benchmark in site.table("benchmarks"):
        yield None, pages.benchmark_page(theme, site, lang, t, benchmark)
    for files in record_pages.record_pages(theme, site, lang, t):
        yield None, files
    if site.rounds:
        yield None, downloads_page(theme, site, lang, t)
    yield None, pages.comparisons_index(theme, site, lang, t, comparisons)
    for comparison in comparisons:
        yield None, pages.comparison_page(theme, site, lang, t, comparison)
    yield None, pages.claims_page(theme, site, lang, t, checks)
    yield None, pages.sources_page(theme, site, lang, t)
    yield None, pages.glossary_page(theme, site, lang, t)
    yield None, pages.not_found_page(theme, site, lang, t)
    yield None, pages.status_page(theme, site, lang, t, translation_gaps(site))


def _unchanged_since(manifest, out: Path) -> dict[str, str]:
    """Files of the last build still on disk exactly as it left them: only these may be reused."""
    if not manifest or not out.is_dir():
        return {}
    state = output_state(out)
    return {path: sha for path, sha in manifest.files.items()
            if path in state and state[path] == manifest.state.get(path)}


def build(content: Path, templates: Path, out: Path, strict: bool = False) -> BuildReport:
    """Build `out` from `content`; when nothing that shapes the output changed since the last
    build of `out`, and `out` is as that build left it, do nothing.

    `out` must be the generator's to replace (outdir.guard: checked before anything is made);
    one build at a time writes it, and staging folders of a killed build are removed first."""
    started = time.perf_counter()
    repos = [r for r in {*paths.protected(), outdir.repository_of(content)} if r is not None]
    out = outdir.guard(out, content=content, templates=templates, repos=repos, cache=cache_root())
    with outdir.BuildLock(out, cache_root()):
        outdir.remove_leftovers(out)
        report = _build_locked(content, templates, out, strict)
    report.seconds = time.perf_counter() - started
    return report


def _build_locked(content: Path, templates: Path, out: Path, strict: bool) -> BuildReport:
    code = code_digest()
    inputs = tree_digest(content, templates, extra=code + str(strict))
    manifest = load_manifest(out)
    if manifest and manifest.inputs == inputs and out.is_dir() and output_state(out) == manifest.state:
        return BuildReport(pages=sum(1 for p in manifest.files if p.endswith(".html")),
                           files=len(manifest.files), skipped=True)
    site = load_site(content, strict=strict)
    cache = BodyCache(data_digest(content, code))
    staging = begin(out)
    try:
        files = render_site(site, templates, cache,
                            Destination(staging, out, _unchanged_since(manifest, out)))
        if strict and site.warnings:
            raise ContentError(site.warnings)
        commit(staging, out)
    except BaseException:
        abort(staging)
        raise
    save_manifest(out, inputs, files)
    return BuildReport(pages=sum(1 for p in files if p.endswith(".html")), files=len(files),
                       warnings=site.warnings, bodies_reused=cache.hits,
                       bodies_rendered=cache.misses)
