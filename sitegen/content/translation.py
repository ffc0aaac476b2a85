"""Translation status: what lacks one of the site's languages."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sitegen.content import written
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


def translation_gaps(site: Site) -> list[Gap]:
    """What lacks one language: pending reports, text of a CJK language with no CJK in it,
    and prose of a converted language that is converted or written from an earlier text."""
    gaps = [
        Gap("report" if r in site.reports else "page", r.slug, r.lang, f"reports/{r.slug}.{r.lang}.md")
        for r in site.reports + site.pages
        if r.pending
    ]

    gaps += [_revision_gap(revision, site) for revision in written.revisions(site)]
    cjk = [language.code for language in site.languages.all if language.cjk and not language.source]
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
            for field, code in record.get("_converted") or ():
                gaps.append(Gap("converted", f"{record['id']}.{field}", code, record["_file"]))
    for code in cjk:
        for key, text in sorted(site.strings.get(code, {}).items()):
            if _untranslated(site.strings.get(first, {}).get(key, ""), text):
                gaps.append(Gap("string", key, code, f"i18n/{code}.yaml"))
    return gaps


def _revision_gap(revision, site) -> Gap:
    """A converted report or page: the file to write (hint: its `written_from`); a written one
    out of date or recording nothing: the file to revise."""
    report = revision.report
    where = (
        f"{revision.folder}/{report.slug}.{revision.source.lang}.md"
        if revision.kind == "converted"
        else f"{revision.folder}/{report.slug}.{report.lang}.md"
    )
    return Gap(revision.kind, report.slug, report.lang, where, f'written_from: "{revision.digest}"')


def _untranslated(en: str, zh: str) -> bool:
    """Long Chinese text without a single Chinese character: most likely English left in."""
    zh = PLACEHOLDER.sub("", zh)
    return bool(CJK.search(en) is None and len(zh) > 24 and not CJK.search(zh))
