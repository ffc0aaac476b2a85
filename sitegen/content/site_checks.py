"""Checks across the loaded site, each problem at its file and line.

Every reference between tables, claims' checks, data references in data text and front
matter, claims' wording, sources nothing cites."""

from __future__ import annotations

import re

from sitegen.base.errors import Problems
from sitegen.content import chip_facts, field_types, record_counts, schema
from sitegen.content.model import Site
from sitegen.content.readers import LINE
from sitegen.content.references import SHORTCODE, reference_ok
from sitegen.content.textcheck import unreferenced_claims


def warn_unused_sources(site: Site, problems: Problems) -> None:
    """A source that nothing cites (no record, price, claim, report or page) is a warning."""
    used = {r.get("source") for name in ("results", "claims") for r in site.table(name)}
    for system in site.table("systems"):
        used.update(item.get("source") for item in (system.get("prices") or []) + (system.get("specs") or []))
    for report in site.reports + site.pages:
        used.update(report.meta.get("sources") or [])
        used.update(re.findall(r"\[\[source:([^\]\s|]+)\]\]", report.body))
    used.update(f"mlperf-training-{r}" for r in site.rounds)
    used.update(record_counts.sources_used(site.record))
    used.update(chip_facts.sources_used(site.tables.get(chip_facts.TABLE) or {}))
    for source in site.table("sources"):
        if source["id"] not in used:
            problems.warn(
                source["_file"],
                source[LINE],
                f"source '{source['id']}' is not used: no record, price, claim, report or page cites it",
            )


def warn_claims_without_page(site: Site, problems: Problems) -> None:
    """Claims whose source has no web page (url) cannot be looked up by a reader: one
    warning per source, at its first claim, unless the source is cited completely without
    one (a date, and `no_url` saying on the sources page why there is no link)."""
    by_source: dict[str, list[dict]] = {}
    for claim in site.table("claims"):
        source = site.tables["sources"].get(claim["source"])
        complete = source and source.get("no_url") and source.get("date")
        if source and not source.get("url") and not complete and source.get("kind") != "official":
            by_source.setdefault(source["id"], []).append(claim)
    for ident, claims in by_source.items():
        first = claims[0]
        problems.warn(
            first["_file"],
            _line(first, "source"),
            f"claim '{first['id']}' and "
            f"{len(claims) - 1} more cite source '{ident}', which has no url: readers "
            f"cannot look them up{HOW}"
            if len(claims) > 1
            else f"claim '{first['id']}' "
            f"cites source '{ident}', which has no url: readers cannot look it up{HOW}",
        )


HOW = " (give its url, or its date and a no_url saying why there is none)"


def _walk_refs(value, fields, top=None):
    """Yield (table, id, top-level field) for every reference field, nested records included."""
    for name, (_, parser) in fields.items():
        item = value.get(name)
        table = getattr(parser, "ref_table", None)
        if table and isinstance(item, str):
            yield table, item, top or name
        elif isinstance(item, list):
            for element in item:
                if isinstance(element, dict):
                    yield from _walk_refs(element, _nested_fields(name), top or name)


def _nested_fields(name: str) -> dict:
    return {"specs": schema.SPEC, "prices": schema.PRICE}.get(name, {})


def check_references(site: Site, problems: Problems) -> None:
    for name, fields in {**schema.TABLES, "results": schema.RESULT_REFS}.items():
        for record in site.table(name) if fields else []:
            refs = list(_walk_refs(record, fields))
            if name == "claims":
                refs += list(_walk_refs(record["check"], schema.CHECK, "check"))
            for table, ident, field in refs:
                known = site.tables.get(table, {})
                if (
                    ident not in known
                    and table not in site.unreadable
                    and (table, ident) not in problems.broken
                ):
                    problems.add(
                        record["_file"],
                        _line(record, field),
                        f"record '{record['id']}': "
                        f"unknown {table[:-1]} '{ident}'" + field_types.suggest(ident, known),
                    )


def _line(record: dict, field: str) -> int | None:
    """The line of a field of a loaded record (its record's first line when unknown)."""
    return (record.get("_lines") or {}).get(field, record.get(LINE))


def check_claim_checks(site: Site, problems: Problems) -> None:
    for claim in site.table("claims"):
        check = claim["check"]
        for field in schema.CHECK_KINDS[check["kind"]]:
            if check.get(field) is None:
                problems.add(
                    claim["_file"],
                    claim[LINE],
                    f"claim '{claim['id']}': check of kind '{check['kind']}' needs '{field}'",
                )
        baseline_table = "systems" if check["kind"] == "spec_ratio" else "results"
        if (
            check.get("baseline")
            and check["baseline"] not in site.tables[baseline_table]
            and baseline_table not in site.unreadable
            and (baseline_table, check["baseline"]) not in problems.broken
        ):
            problems.add(
                claim["_file"],
                claim[LINE],
                f"claim '{claim['id']}': unknown {baseline_table[:-1]} '{check['baseline']}'",
            )


def check_text_refs(site: Site, problems: Problems) -> None:
    """[[kind:id]] figures inside data text (claims' statements and notes) must resolve."""
    for name in ("claims", "systems", "sources"):
        for record in site.table(name):
            nested = [(record.get("check") or {}).get("reason")] if name == "claims" else []
            for value in [*record.values(), *nested]:
                texts = value.values() if isinstance(value, dict) else ()
                for text in (t for t in texts if isinstance(t, str)):
                    for match in SHORTCODE.finditer(text):
                        if not reference_ok(site, match.group("kind"), match.group("arg")):
                            problems.add(
                                record["_file"],
                                record[LINE],
                                f"record '{record['id']}': {match.group(0)} does not name a known record",
                            )


def check_claim_words(site: Site, problems: Problems, claims=None) -> None:
    """Each report's and page's own text (title, summary, findings, body): a superlative,
    negative or comparison about the record outside a reference, or MLPerf without its ®, is a
    warning where it is written (`claims`: textcheck.unreferenced_claims, or the same answers
    kept from the last build). Converted text is not the editor's: its source file is checked."""
    claims = claims or unreferenced_claims
    for report in site.reports + site.pages:
        if report.pending or report.converted or report.source is None:
            continue
        meta = report.meta
        lines = meta["_lines"]
        texts = [(meta.get(key) or "", lines.get(key, 2)) for key in ("title", "summary")]
        texts += [(finding, lines.get("findings", 2)) for finding in meta.get("findings") or []]
        found = [(first, message) for text, first in texts for _, message in claims(text)]
        body_line = report.body_line - 1
        found += [(body_line + line, message) for line, message in claims(report.body)]
        problems.warn_each(report.source.path, found)


def check_report_refs(site: Site, problems: Problems) -> None:
    for report in site.reports + site.pages:
        if report.pending or report.source is None:  # None: made by code, not read from a file
            continue
        for field in ("sources", "systems", "benchmarks", "claims"):
            for ident in report.meta.get(field) or []:
                if (
                    ident not in site.tables.get(field, {})
                    and field not in site.unreadable
                    and (field, ident) not in problems.broken
                ):
                    problems.add(
                        report.source.path,
                        report.meta["_lines"].get(field, 2),
                        f"front matter '{field}': unknown {field[:-1]} '{ident}'"
                        + field_types.suggest(ident, site.tables.get(field, {})),
                    )
