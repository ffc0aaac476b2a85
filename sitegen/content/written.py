"""Prose of a converted language (zh-hant) is written, not converted: each report and page has
its own file, which records the Simplified text it was written from (`written_from`, the
review_digest of that text). A report or page with no file of its own, or a
glossary definition with no text of its own, is published converted with a warning; a file
written from an earlier text of its source is a warning at its `written_from` line."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sitegen.base.errors import Problems
from sitegen.content.readers import LINE, key_line

if TYPE_CHECKING:
    from sitegen.content.model import Report

FIELD = "written_from"
# The prose of the data tables: these fields are written in every language, never converted.
PROSE = {"glossary": ("definition",)}


def review_digest(report) -> str:
    """The text a Traditional Chinese file is written from, as its `written_from` records it:
    8 hex digits of SHA-256 over its source's title, summary, findings, tags and body. An edit
    of that text makes the written file out of date (written.py says so)."""
    meta = report.meta
    parts = [
        meta.get("title") or "",
        meta.get("summary") or "",
        *(meta.get("findings") or []),
        *(meta.get("tags") or []),
        report.body,
    ]
    return hashlib.sha256("\n\x00".join(parts).encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True)
class Revision:
    """A converted language's prose that needs writing (`digest` is None: a file of its own
    that records nothing) or revising: `at` is the file and line to say it on."""

    kind: str  # converted | outdated | unrecorded
    folder: str  # reports | pages
    report: Report  # the converted-language Report
    source: Report  # its source language's Report
    digest: str  # the source's digest now
    at: tuple[Path, int | None]  # (file, line)


def revisions(site) -> list[Revision]:
    """Every report and page of a converted language that is converted, or written from a
    text of its source other than the current one, or that records nothing."""
    found = []
    for folder, items in (("reports", site.reports), ("pages", site.pages)):
        for report in items:
            language = site.languages.get(report.lang)
            if language.source is None or report.pending:
                continue
            source = next(
                (r for r in items if r.slug == report.slug and r.lang == language.source and not r.pending),
                None,
            )
            if source is None:
                continue
            digest = review_digest(source)
            recorded = report.meta.get(FIELD)
            if report.converted:
                found.append(
                    Revision("converted", folder, report, source, digest, (source.source.path, None))
                )
            elif recorded is None:
                found.append(Revision("unrecorded", folder, report, source, digest, (report.source.path, 2)))
            elif recorded != digest:
                line = (report.meta.get("_lines") or {}).get(FIELD, 2)
                found.append(Revision("outdated", folder, report, source, digest, (report.source.path, line)))
    return found


def check_written(site, problems: Problems) -> None:
    """A warning for every revision (see `revisions`); `written_from` in a written
    language's file is an error (it records nothing there)."""
    for report in site.reports + site.pages:
        if (
            report.meta.get(FIELD) is not None
            and not report.converted
            and not site.languages.get(report.lang).source
        ):
            problems.add(
                report.source.path,
                (report.meta.get("_lines") or {}).get(FIELD, 2),
                f"'{FIELD}' belongs in a file of a converted language "
                f"({', '.join(c.code for c in site.languages.converted())}): this text is written, not converted",
            )
    for revision in revisions(site):
        path, line = revision.at
        problems.warn(path, line, message(revision, problems))


def message(revision: Revision, problems: Problems) -> str:
    """What to do about one revision, in words an editor can act on."""
    report, lang = revision.report, revision.report.lang
    assert revision.source.source is not None  # a revision is of a text read from a file
    source = problems.rel(revision.source.source.path)
    name = f"{revision.folder}/{report.slug}.{lang}.md"
    kind = "report" if revision.folder == "reports" else "page"
    if revision.kind == "converted":
        return (
            f"{kind} '{report.slug}' has no {lang} text of its own and is published converted: "
            f'write {name} from this file, with {FIELD}: "{revision.digest}"'
        )
    if revision.kind == "unrecorded":
        return f'records no {FIELD}: write {FIELD}: "{revision.digest}" once it matches {source}'
    return (
        f"{source} changed since this text was written from it (now {revision.digest}): "
        f'revise this text, then write {FIELD}: "{revision.digest}"'
    )


def mark_converted_prose(name: str, rows: list, records: dict, where: tuple, problems: Problems) -> None:
    """Each prose field of a table's record (PROSE) that has no text of its own in a converted
    language: published converted, with a warning on its line; the record notes the fields
    (`_converted`: [(field, language)]) for the translation status. `where`: (the table's
    file, the site's languages)."""
    path, langs = where
    for row in rows:
        record = records.get(row.get("id")) if isinstance(row, dict) else None
        if record is None:
            continue
        for field in PROSE.get(name, ()):
            value = row.get(field)
            if not isinstance(value, dict):
                continue
            for language in langs.converted():
                if value.get(language.code) in (None, ""):
                    record.setdefault("_converted", []).append((field, language.code))
                    problems.warn(
                        path,
                        key_line(row, field, row.get(LINE)),
                        f"{name} '{record['id']}': the {field} has no {language.code} text of its own "
                        f"and is published converted: write its '{language.code}:' text",
                    )
