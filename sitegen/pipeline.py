"""The whole build: load, derive, render, write. Each stage is one call."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from . import derive, pages
from .cache import (BodyCache, code_digest, data_digest, load_manifest, output_state,
                    save_manifest, tree_digest)
from .errors import ContentError
from .markup import new_markdown
from .model import Site
from .load import load_site
from .reader import reader_files
from .translation import translation_gaps
from .render import Strings, load_theme, missing_strings, static_files
from .write import write_tree


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


def render_site(site: Site, templates: Path, cache: BodyCache | None = None) -> dict[str, bytes]:
    theme = load_theme(templates)
    checks = derive.check_claims(site)
    comparisons = derive.comparisons(site)
    files = pages.chooser_page(theme, site)
    problems, strings = [], []
    bodies = Bodies(new_markdown(), cache or BodyCache(data_digest(site.root, code_digest())))
    for lang in site.languages:
        t = Strings(site, lang)
        strings.append(t)
        files.update(_language_pages(theme, site, lang, t, checks, comparisons, bodies, problems))
    if problems:
        raise ContentError(problems)
    files.update(reader_files(site, theme, files))
    missing_strings(strings)
    files.update(static_files(theme))
    return files


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
    files = render_site(site, templates, cache)
    write_tree(files, out, previous=manifest.files if manifest else {})
    save_manifest(out, inputs, files)
    return BuildReport(pages=sum(1 for p in files if p.endswith(".html")), files=len(files),
                       warnings=site.warnings, seconds=time.perf_counter() - started,
                       bodies_reused=cache.hits, bodies_rendered=cache.misses)
