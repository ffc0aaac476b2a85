"""Reports and plain pages: one Markdown file per language, paired by slug; a converted
language's made from its source's text when no file of its own is there (load.py calls it)."""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.base.errors import Problems
from sitegen.base.languages import Languages
from sitegen.content import field_types
from sitegen.content.model import Report, SourceFile
from sitegen.content.parsecache import ParseCache
from sitegen.content.readers import read_markdown

REPORT_NAME = re.compile(r"^(?P<slug>[a-z0-9][a-z0-9-]*)\.(?P<lang>[a-z]{2,3}(?:-[a-z0-9]{2,8})*)\.md$")
# Names whose page would overwrite one the generator makes: <lang>/reports/index.html for a
# report, <lang>/index.html, glossary.html and 404.html for a plain page, the lists for ids.
RESERVED = {
    "reports": {"index"},
    "pages": {"index", "glossary", "404", "editors"},
    "systems": {"index"},
    "benchmarks": {"index"},
}


def load_reports(folder: Path, langs: Languages, fields: dict, problems: Problems) -> list[Report]:
    """Reports (and plain pages): one file per language, paired by slug."""
    found: dict[str, dict[str, Report]] = {}
    broken: set[tuple[str, str]] = set()  # files that exist but could not be read
    # (one folder's files: in the order of their names, as of their paths)
    paths = sorted(folder.glob("*"), key=lambda path: path.name) if folder.is_dir() else []
    parsed = ParseCache(paths)  # the kept parses of every file, read at once
    for path in paths:
        report = _load_report(path, langs, (fields, parsed), problems)
        if report:
            found.setdefault(report.slug, {})[report.lang] = report
        elif named := REPORT_NAME.match(path.name):
            broken.add((named.group("slug"), named.group("lang")))
    reports: list[Report] = []
    for slug, by_lang in sorted(found.items()):
        for language in langs.converted():
            if (
                language.code not in by_lang
                and language.source in by_lang
                and (slug, language.code) not in broken
            ):
                by_lang[language.code] = _converted(by_lang[language.source], language.code, langs)
        reports += by_lang.values()
        reports += _pending_twins(slug, by_lang, langs, problems, broken)
    return reports


def _load_report(path: Path, langs: Languages, parse: tuple, problems: Problems) -> Report | None:
    """The report of a file; `parse`: its fields and the folder's ParseCache."""
    match = REPORT_NAME.match(path.name)
    if not match or match.group("lang") not in langs.codes():
        problems.add(
            path,
            None,
            "a report file is named <slug>.<lang>.md with a lowercase slug "
            f"and a language among {', '.join(langs)}",
        )
        return None
    slug, lang = match.group("slug", "lang")
    folder = path.parent.name  # (it says which fields a file has, and which names are the generator's)
    if slug in RESERVED[folder if folder in RESERVED else "reports"]:
        target = f"{lang}/reports/{slug}.html" if folder == "reports" else f"{lang}/{slug}.html"
        problems.add(
            path,
            None,
            f"the slug '{slug}' would overwrite the generator's own page {target}; rename the file",
        )
        return None
    fields, parsed = parse
    read = parsed.parse(
        f"markdown-{folder}", path, problems, lambda: _read_report(path, fields, langs, problems), langs
    )
    if read is None:
        return None
    meta, body, body_line = read
    source = SourceFile(path, problems.rel(path), slug, lang)
    return Report(slug, lang, meta, body, body_line, source, parsed=parsed.keys.get(path, ""))


def _read_report(path: Path, fields: dict, langs: Languages, problems: Problems) -> tuple | None:
    """(front matter checked by `fields`, body, the body's first line); None when the file
    cannot be read or its front matter is wrong (said)."""
    read = read_markdown(path, problems)
    if read is None:
        return None
    front, body, body_line, lines = read
    meta, errors = field_types.parse_record(front, fields, langs)
    for message in errors:
        field = re.search(r"field '(\w+)'", message)
        problems.add(path, lines.get(field.group(1), 2) if field else 2, message)
    if errors:
        return None
    meta["_lines"] = lines
    return meta, body, body_line


def _converted(report: Report, lang: str, langs: Languages) -> Report:
    """A report of a converted language, made from its source's text (an editor's own file
    of that language takes its place; written.check_written warns of it)."""
    meta = {
        key: (
            langs.convert(value, lang)
            if key in ("title", "summary")
            else [langs.convert(v, lang) for v in value]
            if key in ("tags", "findings") and value
            else value
        )
        for key, value in report.meta.items()
    }
    return Report(
        report.slug,
        lang,
        meta,
        langs.convert(report.body, lang),
        report.body_line,
        report.source,
        pending=report.pending,
        converted=True,
    )


def _pending_twins(slug, by_lang, langs: Languages, problems, broken=frozenset()) -> list[Report]:
    """A missing language is an error unless the written one marks it as pending (then a
    warning); a file that exists but could not be read has said so already."""
    twins = []
    for lang in langs:
        if lang in by_lang or (slug, lang) in broken or (slug, langs.get(lang).source) in broken:
            continue  # (a converted language's source that could not be read said so)
        written = next(iter(by_lang.values()))
        if lang in (written.meta.get("pending") or []):
            twins.append(Report(slug, lang, dict(written.meta), "", 0, None, pending=True))
            problems.warn(
                written.source.path,
                written.meta["_lines"].get("pending"),
                f"report '{slug}' is not translated into {lang} yet (pending)",
            )
        else:
            problems.add(
                written.source.path,
                None,
                f"report '{slug}' has no {lang} version: "
                f"write {slug}.{lang}.md, or add 'pending: [{lang}]' to the front matter",
            )
    return twins
