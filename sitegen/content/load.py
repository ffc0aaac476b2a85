"""Stage 1: read and validate everything under content/. Nothing is written here.

Every problem of a run is collected and raised together as one `ContentError`."""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.base import languages
from sitegen.base.errors import Problems
from sitegen.base.languages import Languages
from sitegen.content import (
    chip_facts,
    chip_looks,
    chips,
    companies,
    compatibility,
    field_types,
    record_counts,
    schema,
    scores,
)
from sitegen.content import site_checks as checks
from sitegen.content.model import Site, track
from sitegen.content.parsecache import ParseCache, cached
from sitegen.content.readers import LINE, TABLE_READERS, key_line, read_csv, read_yaml
from sitegen.content.record import (
    check_benchmarks,
    check_system_map,
    derive_results,
    has_record,
    load_changelog,
    load_record,
    read_curated,
    read_system_map,
    record_folder,
    system_map_path,
)
from sitegen.content.record_seal import check_leftovers, check_seal
from sitegen.content.reports import RESERVED, load_reports
from sitegen.content.scores import check_scores_kept
from sitegen.content.strings import load_strings
from sitegen.content.termcheck import TERMS, check_terms
from sitegen.content.usage import load_pairs
from sitegen.content.written import check_written, mark_converted_prose

FIELD = re.compile(r"field '(\w+)'")
NO_RECORD = (
    "missing the MLPerf record: import it with `python build.py import-record` "
    "(docs/importing.md), or start a new site with `python build.py init DIR`"
)


def field_line(row, message: str, default: int | None) -> int | None:
    """The line of the field a message names (its first "field '...'"), else `default`."""
    found = FIELD.search(message)
    return key_line(row, found.group(1), default) if found else default


def load_site(content: Path, strict: bool = False, words: bool = True, store=None, tree=None) -> Site:
    """The site in `content`, every check passed (ContentError: each problem with its file
    and line). `words=False`: the checks of the editors' words (check_words) are left to the
    caller, which runs them beside the build; they still run here when another problem stops
    the load, so that every problem is said at once. `store` (base/store.py): where parses
    and conversions are kept between loads, and the site's store for rendering; None: none.
    `tree`: the build's scan of `content` (cache.scan_tree), whose digests find the kept parses."""
    problems = Problems(content, store=store, scanned=_scanned(content, tree))
    config, langs = _load_config(content, problems)
    strings, string_lines = load_strings(content, langs, problems)
    known = len(problems.errors)
    rounds, record = _load_record(content, problems)
    record_broken = len(problems.errors) > known  # said once: nothing derived from it
    tables = _load_tables(content, langs, problems)
    curated = read_curated(content, problems, langs)
    # corrected counts and chips (record_counts.py, chips.py)
    record = record_counts.apply(record, curated, tables.get("sources") or {}, problems)
    record_counts.warn_uncorrected(content, record, problems)
    record, tables[chip_facts.TABLE] = chips.annotate(
        content,
        record,
        companies.as_vendors(tables.get("companies") or {}, tables.get("vendors") or {}),
        problems,
        langs,
        tables.get("sources"),
    )
    tables[chip_looks.TABLE] = chip_looks.read_looks(content, tables[chip_facts.TABLE] or {}, problems)
    tables["results"] = None if record_broken else _results(content, record, tables, curated, problems)
    check_scores_kept(sorted(record_folder(content).glob("*.yaml")), record, problems, record_broken)
    companies.check(content, tables.get("companies") or {}, record, problems)
    # a table that could not be read is reported once, not again by every reference to it
    unreadable = {name for name, table in tables.items() if table is None}
    shown = {k: v or {} for k, v in tables.items()}
    site = Site(content, config, strings, shown, record=record, rounds=rounds, languages=langs)
    site.unreadable, site.string_lines = unreadable, string_lines
    site.changelog = load_changelog(content, problems, record)
    checks.check_references(site, problems)
    checks.check_claim_checks(site, problems)
    checks.check_text_refs(site, problems)
    site.reports = load_reports(content / "reports", langs, schema.FRONT_MATTER, problems)
    site.pages = load_reports(content / "pages", langs, schema.PAGE_FRONT_MATTER, problems)
    checks.check_report_refs(site, problems)
    check_written(site, problems)
    site.usage = load_pairs(content, problems)
    checks.warn_unused_sources(site, problems)
    checks.warn_claims_without_page(site, problems)
    langs.conversions.keep()  # every text is loaded: the next load needs no converter
    if words or strict or problems.errors:
        problems.items += check_words(site)
    problems.raise_if_any(strict)
    site.warnings = problems.warnings
    site.store = store
    return track(site)


def _scanned(content: Path, tree) -> dict:
    """Each file of the scan of `content` (cache.Tree): path -> its sha256 in hex."""
    if tree is None or content not in tree.files:
        return {}
    return {path: digest.hex() for path, digest in tree.files[content]}


def _load_tables(content: Path, langs: Languages, problems: Problems) -> dict[str, dict[str, dict] | None]:
    """The curated data tables (schema.TABLES) and the compatibility table; None for a table
    that could not be read (said once)."""
    parsed = ParseCache(filter(None, (_table_path(content, name) for name in schema.TABLES)))
    tables = {
        name: _cached_table(parsed, content, (name, fields, langs), problems)
        for name, fields in schema.TABLES.items()
        if fields
    }
    if tables.get("vendors") is not None:
        tables["vendors"] = companies.name_vendors(
            content, tables["vendors"] or {}, tables.get("companies") or {}, problems
        )
    tables[compatibility.TABLE] = compatibility.read(content, problems)
    compatibility.check_benchmarks(
        content, tables.get("benchmarks") or {}, tables[compatibility.TABLE] or {}, problems
    )
    return tables


def check_words(site: Site, claims=None) -> list:
    """The problems of the editors' words: claim words outside a reference (`claims`), and forms
    the term list avoids (errors in written Simplified Chinese, warnings otherwise). They read
    the loaded site and change nothing (a build runs them in a process of their own)."""
    problems = Problems(site.root)
    checks.check_claim_words(site, problems, claims)
    check_terms(site, problems)
    return problems.items


def _results(content: Path, record: dict, tables: dict, curated: dict, problems: Problems) -> dict:
    """The `results` table of a whole record, the map of site systems checked against it."""
    scores.unscore_short(record.values())  # never scored: fewer logs than the rules require
    system_map = read_system_map(system_map_path(content), problems)
    results = derive_results(content, record, problems, curated, system_map)
    if tables["benchmarks"] is not None:  # (an unreadable table has said so)
        check_benchmarks(content, record, tables["benchmarks"], problems)
    check_system_map(content, record, tables["systems"] or {}, problems, system_map)
    return results


def _load_record(content: Path, problems: Problems) -> tuple[dict, dict]:
    """The whole MLPerf record: every site has one (content/data/record/), and no results.yaml."""
    if check_leftovers(content, problems):
        problems.raise_if_any()  # the record is moved aside: the rest would only echo it
    old = _table_path(content, "results")
    if old is not None:
        problems.add(
            old,
            None,
            "the results now come from content/data/record/: delete this "
            "file (curated fields go to content/data/results_curated.yaml)",
        )
    if not has_record(content):
        problems.add(record_folder(content) / "rounds.yaml", None, NO_RECORD)
        problems.raise_if_any()  # without a record every result named anywhere would echo it
    known = len(problems.errors)
    check_seal(content, problems)
    if len(problems.errors) > known:  # a damaged record: what reads it would only echo that
        problems.raise_if_any()
    return load_record(content, problems)


def load_config(content: Path) -> tuple[dict, Languages]:
    """site.yaml alone and the site's languages, for commands that need the languages before
    the content is whole."""
    problems = Problems(content)
    found = _load_config(content, problems)
    problems.raise_if_any()
    return found


def _load_config(content: Path, problems: Problems) -> tuple[dict, Languages]:
    """site.yaml and the site's languages (with the term list): localised text needs them."""
    path = content / "site.yaml"
    default = {"languages": list(languages.DEFAULT), "default_language": languages.ENGLISH}
    raw = cached("yaml", path, problems, lambda: read_yaml(path, problems)) if path.exists() else None
    if not path.exists():
        problems.add(path, None, "missing site configuration: create content/site.yaml")
    elif not isinstance(raw, dict) and raw is not None:
        problems.add(path, 1, "site.yaml must be a mapping of 'field: value' lines")
    if not isinstance(raw, dict):
        return default, Languages.default()
    try:
        found = languages.parse(raw.get("languages", list(languages.DEFAULT)))
    except ValueError as exc:
        problems.add(path, key_line(raw, "languages", raw.get(LINE)), str(exc))
        found = list(Languages.default().all)
    langs = Languages.of(found, _load_terms(content, problems), problems.store)
    config, errors = field_types.parse_record(raw, schema.SITE, langs)
    for message in errors:
        problems.add(path, field_line(raw, message, raw.get(LINE)), message)
    config["languages"] = list(langs.codes())
    config.setdefault("default_language", languages.ENGLISH)
    return config, langs


def _load_terms(content: Path, problems: Problems) -> list[dict]:
    """The reviewed term list (columns: en, zh-Hans, zh-Hant, avoid): one term per concept,
    and the converter's corrections. Optional."""
    path = content / TERMS
    if not path.exists():
        return []
    rows = cached("csv", path, problems, lambda: read_csv(path, problems)) or []
    for row in rows:
        row["_file"] = path
    return rows


def _table_path(content: Path, name: str) -> Path | None:
    for suffix in TABLE_READERS:
        path = content / "data" / f"{name}{suffix}"
        if path.exists():
            return path
    return None


OPTIONAL_TABLES = ("companies",)  # a project without one writes its names in vendors.yaml


def _cached_table(
    parsed: ParseCache, content: Path, table: tuple, problems: Problems
) -> dict[str, dict] | None:
    """_load_table, from the cache when the table's file did not change (parsecache.py);
    `table`: its name, fields and the site's languages."""
    name, fields, langs = table
    path = _table_path(content, name)
    if path is None:
        return _load_table(content, name, fields, langs, problems)
    return parsed.parse(
        f"table-{name}", path, problems, lambda: _load_table(content, name, fields, langs, problems), langs
    )


def _load_table(
    content: Path, name: str, fields: dict, langs: Languages, problems: Problems
) -> dict[str, dict] | None:
    path = _table_path(content, name)
    if path is None and name in OPTIONAL_TABLES:
        return {}
    if path is None:
        problems.add(content / "data" / f"{name}.yaml", None, f"missing data table '{name}'")
        return None
    rows = TABLE_READERS[path.suffix](path, problems)
    if rows is None:
        return None
    if not isinstance(rows, list):
        problems.add(path, 1, "a data table must be a YAML list of records ('- id: ...')")
        return None
    records = _parse_rows(path, rows, (fields, langs), problems)
    mark_converted_prose(name, rows, records, (path, langs), problems)
    return records


def _parse_rows(path: Path, rows: list, schema_of: tuple, problems: Problems) -> dict[str, dict]:
    """The rows by `schema_of`: (their fields, the site's languages)."""
    records: dict[str, dict] = {}
    for row in rows:
        if not isinstance(row, dict):
            problems.add(path, None, f"expected a record, got {row!r}")
            continue
        line = row.get(LINE)
        record, errors = field_types.parse_record(row, *schema_of)
        for message in errors:
            label = f"record '{row['id']}': " if isinstance(row.get("id"), str) else ""
            problems.add(path, field_line(row, message, line), label + message)
        if errors and isinstance(row.get("id"), str):
            problems.broken.add((path.stem, row["id"]))
        if errors or "id" not in record:
            continue
        if record["id"] in RESERVED.get(path.stem, ()):
            problems.add(
                path,
                key_line(row, "id", line),
                f"id '{record['id']}' would overwrite "
                f"the generator's own page {path.stem}/{record['id']}.html; choose another",
            )
            continue
        if record["id"] in records:
            first = records[record["id"]][LINE]
            problems.add(path, line, f"duplicate id '{record['id']}' (first used on line {first})")
            continue
        record[LINE] = line
        record["_file"] = problems.rel(path)
        record["_lines"] = getattr(row, "lines", {})
        records[record["id"]] = record
    return records
