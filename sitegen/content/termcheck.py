"""One term per concept, in every language (the term list, data/terms.csv).

The list's columns: `en`, `zh-Hans`, `zh-Hant` (the term in each language; the converter's
results are corrected to the zh-Hant one, Languages.convert), and for each language the forms
to avoid: `avoid` (Simplified Chinese: a second term for one concept, an error where it is
written), `avoid-en` and `avoid-zh-Hant` (a warning, an error with --strict); `note` says why.

Each language's visible text is checked where it comes from: interface strings, the data
tables (the text of charts, tables, the glossary, the claims and sources pages) and the
reports and pages. Traditional Chinese text is checked as the converter leaves it, on the line
of the Simplified text it was made from; in it, mainland usage (`avoid-zh-Hant`) and “” around
Chinese text (Taiwan quotes with 「」) are warnings."""

from __future__ import annotations

import re

from sitegen.base import languages
from sitegen.base.errors import Problems
from sitegen.content.readers import LINE

TERMS = "data/terms.csv"
# A quotation holding Chinese text, in “” (languages.traditional_quotes makes these 「」).
CHINESE_IN_CURLY = re.compile("“[^“”]*[\u3400-\u9fff][^“”]*”")


def avoid_column(language) -> str:
    """The term list's column of forms a language avoids (`avoid` for Simplified Chinese,
    the column the list had first)."""
    return "avoid" if language.script == "Hans" else f"avoid-{language.lang}"


def check_terms(site, problems: Problems) -> None:
    """Every language of the site: a form its column of the term list avoids is reported on
    its line, naming the term to use; written Simplified Chinese is an error (one term per
    concept), the rest a warning."""
    rows = site.languages.rows  # the term list, as read
    for code in site.languages:
        language = site.languages.get(code)
        column = avoid_column(language)
        avoid = {
            form.strip(): row.get(language.lang) or ""
            for row in rows
            for form in (row.get(column) or "").split(";")
            if form.strip()
        }
        curly = language.script == "Hant"
        if not avoid and not curly:
            continue
        pattern = (
            re.compile("|".join(sorted(map(re.escape, avoid), key=len, reverse=True))) if avoid else None
        )
        written = language.script == "Hans"  # the language the others are checked against
        report = problems.add if written else problems.warn
        prefix = "" if written else f"{code}: "
        for text, path, line in site_texts(site, code):
            for at, message in _findings(text, pattern, avoid, curly):
                where = line + text.count("\n", 0, at) if line else line
                report(path, where, prefix + message)


def _findings(text: str, pattern, avoid: dict, curly: bool):
    """(offset, message) for each avoided form and each “” around Chinese text in `text`,
    outside code, URLs, references and placeholders (they are blanked, lines kept)."""
    text = languages.KEEP.sub(lambda match: re.sub(r"[^\n]", " ", match.group(0)), text)
    for match in pattern.finditer(text) if pattern else ():
        want = avoid[match.group()]
        yield (
            match.start(),
            (
                f"'{match.group()}': the term list ({TERMS}) uses '{want}' for this concept"
                if want
                else f"'{match.group()}': the term list ({TERMS}) avoids this form"
            ),
        )
    if curly:
        for match in CHINESE_IN_CURLY.finditer(text):
            yield (
                match.start(),
                (f"'{match.group()[:12]}': Chinese text in “”; Taiwan quotes with 「」 (『』 inside them)"),
            )


def site_texts(site, code: str):
    """(text, file, line) of every text of the language `code` an editor's file gives:
    interface strings, data tables, reports and pages (a converted text at its source's line)."""
    yield from _string_texts(site, code)
    for records in site.tables.values():
        for record in records.values():
            for value in _texts_of(record, code):
                yield value, record.get("_file"), record.get(LINE)
    for report in site.reports + site.pages:
        if report.lang != code or not report.source or report.pending:
            continue
        lines = report.meta.get("_lines") or {}
        for field in ("title", "summary"):
            yield report.meta.get(field) or "", report.source.path, lines.get(field, 2)
        for value in (report.meta.get("findings") or []) + (report.meta.get("tags") or []):
            yield value, report.source.path, lines.get("findings", 2)
        yield report.body, report.source.path, report.body_line


def _string_texts(site, code: str):
    """Interface strings of `code`, each on the line of the file that gives it (the language's
    own file, else the file of the language it is converted from)."""
    chain = [code]
    source = site.languages.get(code).source
    while source:
        chain.append(source)
        source = site.languages.get(source).source
    files = {lang: site.root / "i18n" / f"{lang}.yaml" for lang in chain}
    keys = {lang: site.string_lines.get(lang, {}) for lang in chain}  # (load_strings)
    for key, text in site.strings.get(code, {}).items():
        lang = next((lang for lang in chain if key in keys[lang]), chain[-1])
        yield text, files[lang], keys[lang].get(key)


def _texts_of(value, code: str):
    """The `code` text of every localised text inside a record."""
    if isinstance(value, dict):
        if isinstance(value.get(code), str) and languages.ENGLISH in value:
            yield value[code]
        for key, item in value.items():
            if key != code:
                yield from _texts_of(item, code)
    elif isinstance(value, list):
        for item in value:
            yield from _texts_of(item, code)
