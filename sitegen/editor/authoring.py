"""Editors' commands: check without writing, scaffold a report, translation status."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import yaml

from sitegen.assemble.rendering import load_site_theme, render_site
from sitegen.base.errors import ContentError, Problem
from sitegen.base.languages import ENGLISH
from sitegen.base.store import opened
from sitegen.content import record_lock
from sitegen.content.load import load_site
from sitegen.content.reports import REPORT_NAME, RESERVED
from sitegen.editor.links import broken_links

# What `new report` writes in each language: the guide comment and the two headings
# (a language not in the file gets the English ones).
SCAFFOLDS = Path(__file__).with_name("new_report.yaml")


def check(content: Path, templates: Path, cache: Path | None, strict: bool = False) -> list[Problem]:
    """Everything a build checks, plus every internal link, without writing anything (the
    store in `cache` is read, never written)."""
    with record_lock.reading(content, create=False), opened(cache, read_only=True) as store:
        site = load_site(content, strict=strict, store=store)
        files = render_site(site, load_site_theme(site, templates))
    problems = check_problems(site.warnings, files, strict)
    if problems:
        raise ContentError(problems)
    return site.warnings


def check_problems(warnings: list[Problem], files: dict[str, bytes], strict: bool) -> list[Problem]:
    """What fails `check`, given the warnings of loading and rendering a site and its files
    ({path: bytes}; only the pages' bytes are read): every dead internal link, and with
    --strict every warning."""
    return broken_links(files) + (list(warnings) if strict else [])


class SlugRefused(ValueError):
    """The SLUG given to `new report` cannot name a report (a usage error: exit 2)."""


def new_report(
    content: Path, slug: str, languages: list[str], today: dt.date, every: tuple[str, ...] = ()
) -> list[Path]:
    """reports/SLUG.<lang>.md in each of `languages`; `every`: all the site's languages, whose
    files (written by hand for a converted one) must fit the file system too."""
    if not REPORT_NAME.match(f"{slug}.en.md"):
        raise SlugRefused(
            f"{slug!r} is no report slug: a slug is lowercase letters, digits and "
            "'-' (for example next-round)"
        )
    if slug in RESERVED["reports"]:  # the build would refuse the files it writes
        raise SlugRefused(
            f"the slug '{slug}' would overwrite the generator's own page "
            "<lang>/reports/index.html; choose another"
        )
    too_long = _too_long(content / "reports", slug, (*languages, *every))
    if too_long:
        raise SlugRefused(too_long)
    paths = [content / "reports" / f"{slug}.{lang}.md" for lang in languages]
    existing = [p for p in paths if p.exists()]
    if existing:
        raise ContentError([Problem(str(p), None, "already exists; choose another slug") for p in existing])
    for lang, path in zip(languages, paths):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_scaffold(lang, today), "utf-8")
    return paths


def _scaffold(lang: str, today: dt.date) -> str:
    scaffolds = yaml.safe_load(SCAFFOLDS.read_text("utf-8"))
    text = scaffolds.get(lang) or scaffolds[ENGLISH]
    return (
        f"---\ntitle: \"\"\ndate: {today.isoformat()}\nsummary: \"\"\nsources: []\n"
        f"systems: []\nbenchmarks: []\nclaims: []\n---\n{text['guide'].rstrip()}\n\n"
        f"## {text['findings']}\n\n## {text['details']}\n"
    )


# the file names made of a slug: its source in each language, and its charts' files in the
# output (charts/<slug>-<n>.json, up to n = 99)
CHART_SUFFIX = "-99.json"


def _too_long(folder: Path, slug: str, languages) -> str | None:
    """Why a report's file names would be too long for the file system of `folder`, or None."""
    suffix = max([f".{lang}.md" for lang in languages] + [CHART_SUFFIX], key=len)
    limit = _name_max(folder)
    if len(slug) + len(suffix) <= limit:  # a slug is ASCII: one byte a character
        return None
    return (
        f"the slug is {len(slug)} characters long: this file system takes file names of at most "
        f"{limit} bytes and the report's files add {len(suffix)} to it (<slug>{suffix}); "
        f"choose a slug of at most {limit - len(suffix)} characters"
    )


def _name_max(folder: Path) -> int:
    """The longest file name the file system of `folder` (or its nearest existing parent) takes."""
    existing = next((p for p in (folder, *folder.absolute().parents) if p.is_dir()), Path("/"))
    try:
        return os.pathconf(existing, "PC_NAME_MAX")
    except (OSError, ValueError):  # the system does not say: the common limit
        return 255
