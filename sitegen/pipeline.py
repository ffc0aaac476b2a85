"""The whole build: load, derive, render, write. Each stage is one call."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from . import derive, pages
from .errors import ContentError
from .markup import new_markdown
from .model import Site
from .load import load_site
from .reader import reader_files
from .render import Strings, load_theme, missing_strings, static_files
from .write import write_tree


@dataclass
class BuildReport:
    pages: int = 0
    files: int = 0
    warnings: list = field(default_factory=list)
    seconds: float = 0.0


def render_site(site: Site, templates: Path) -> dict[str, bytes]:
    theme = load_theme(templates)
    checks = derive.check_claims(site)
    comparisons = derive.comparisons(site)
    files = pages.chooser_page(theme, site)
    problems, strings = [], []
    md = new_markdown()
    for lang in site.languages:
        t = Strings(site, lang)
        strings.append(t)
        files.update(_language_pages(theme, site, lang, t, checks, comparisons, md, problems))
    if problems:
        raise ContentError(problems)
    files.update(reader_files(site, theme, files))
    missing_strings(strings)
    files.update(static_files(theme))
    return files


def _language_pages(theme, site, lang, t, checks, comparisons, md, problems):
    files = {}
    files.update(pages.home_page(theme, site, lang, t, checks))
    files.update(pages.reports_index(theme, site, lang, t))
    for report in site.reports_in(lang):
        files.update(pages.report_page(theme, site, lang, t, report, checks, md, problems))
    for page in (p for p in site.pages if p.lang == lang):
        files.update(pages.plain_page(theme, site, lang, t, page, checks, md, problems))
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
    return files


def build(content: Path, templates: Path, out: Path, strict: bool = False) -> BuildReport:
    started = time.perf_counter()
    site = load_site(content, strict=strict)
    files = render_site(site, templates)
    write_tree(files, out)
    return BuildReport(pages=sum(1 for p in files if p.endswith(".html")), files=len(files),
                       warnings=site.warnings, seconds=time.perf_counter() - started)
