"""Translation status: what lacks one of the site's languages."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from sitegen.base import languages
from sitegen.content.model import Site

CJK = re.compile(r"[\u3400-\u9fff]")
PLACEHOLDER = re.compile(r"\{[^}]*\}|\[\[[^\]]*\]\]")  # {name} and [[kind:id]] are not words


@dataclass
class Gap:
    kind: str  # report | page | data | string
    name: str
    missing: str  # the language that lacks text
    where: str
    hint: str = ""  # what to do about it, when there is more than writing the text


def review_digest(report) -> str:
    """What a review of a converted text is for: 8 hex digits of SHA-256 over the text it is
    made from (title, summary, findings, tags, body). An edit of that text after the review
    makes the review out of date: the page carries its note again until it is read again."""
    meta = report.meta
    parts = [
        meta.get("title") or "",
        meta.get("summary") or "",
        *(meta.get("findings") or []),
        *(meta.get("tags") or []),
        report.body,
    ]
    return hashlib.sha256("\n\x00".join(parts).encode("utf-8")).hexdigest()[:8]


def translation_gaps(site: Site) -> list[Gap]:
    """What lacks one language: pending reports, text of a CJK language with no CJK in it,
    and pages made by a converter that no editor has reviewed yet."""
    gaps = [
        Gap("report" if r in site.reports else "page", r.slug, r.lang, f"reports/{r.slug}.{r.lang}.md")
        for r in site.reports + site.pages
        if r.pending
    ]
    gaps += [
        _unreviewed(site, r)
        for r in site.reports + site.pages
        if r.converted and not r.pending and not r.reviewed
    ]
    cjk = [code for code in site.languages if languages.get(code).cjk and not languages.get(code).source]
    first = site.languages[0]
    for _table, records in sorted(site.tables.items()):
        for record in records.values():
            for field, value in record.items():
                for code in cjk:
                    if (
                        isinstance(value, dict)
                        and set(site.languages) <= set(value)
                        and _untranslated(value.get(first, ""), value[code])
                    ):
                        gaps.append(Gap("data", f"{record['id']}.{field}", code, record["_file"]))
    for code in cjk:
        for key, text in sorted(site.strings.get(code, {}).items()):
            if _untranslated(site.strings.get(first, {}).get(key, ""), text):
                gaps.append(Gap("string", key, code, f"i18n/{code}.yaml"))
    return gaps


def _unreviewed(site: Site, report) -> Gap:
    """A converted report or page no editor has read as it is: its source file, and the marker
    to add to that file's front matter once read."""
    folder = "reports" if report in site.reports else "pages"
    source = next(
        r
        for r in site.reports + site.pages
        if r.slug == report.slug
        and r.lang == languages.get(report.lang).source
        and r in getattr(site, folder)
    )
    marks = source.meta.get("reviewed") or {}
    marks = {**marks, report.lang: review_digest(source)}
    hint = "reviewed: {" + ", ".join(f'{code}: "{digest}"' for code, digest in sorted(marks.items())) + "}"
    kind = "reviewed_earlier" if report.lang in (source.meta.get("reviewed") or {}) else "converted"
    return Gap(kind, report.slug, report.lang, f"{folder}/{report.slug}.{source.lang}.md", hint)


def _untranslated(en: str, zh: str) -> bool:
    """Long Chinese text without a single Chinese character: most likely English left in."""
    zh = PLACEHOLDER.sub("", zh)
    return bool(CJK.search(en) is None and len(zh) > 24 and not CJK.search(zh))
