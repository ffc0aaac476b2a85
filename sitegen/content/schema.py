"""What each data table and front matter must hold: each field with its parser.

The parsers are in field_types.py; references between tables are checked later, in
site_checks.py."""

from __future__ import annotations

from sitegen.base import languages
from sitegen.content.field_types import (
    boolean,
    color,
    count,
    date,
    findings,
    ident,
    language,
    list_of,
    lname,
    ltext,
    ltext_or_same,
    mapping,
    maybe,
    name,
    number,
    one_of,
    opt,
    positive,
    ref,
    req,
    text,
    time,
    url,
    whole,
    written_from,
)

UNITS = ("min", "h", "x", "percent", "usd", "ghz", "pflops", "mb", "gb", "u", "count")
# The one list of claim-check kinds: kind -> the fields its check needs (load.py checks them).
CHECK_KINDS = {
    "time": ("result",),
    "speedup": ("result", "baseline"),
    "improvement": ("result", "baseline"),
    "price_performance": ("result", "baseline"),
    "spec_ratio": ("system", "baseline", "spec"),
    "price": ("system",),
    "accelerators": ("result",),
    "host_ratio": ("result",),
    "host_servers": ("result", "cpus_per_server"),
    "fastest": ("result",),
    "submission_ids": ("submitter", "round"),
    "none": ("reason",),
}

SPEC = {"name": req(ident), "value": req(positive), "unit": req(text), "source": req(ref("sources"))}
PRICE = {
    "amount": req(positive),
    "currency": req(one_of("USD")),
    "basis": req(one_of("list", "estimate")),
    "date": opt(date),
    "source": req(ref("sources")),
    "note": opt(ltext),
}
HOST = {"model": req(text), "count": req(count)}
CHECK = {
    "kind": req(one_of(*CHECK_KINDS)),
    "result": opt(ref("results")),
    "baseline": opt(ident),
    "system": opt(ref("systems")),
    "spec": opt(ident),
    "price": opt(ref("systems")),
    "baseline_price": opt(ref("systems")),
    "submitter": opt(text),
    "round": opt(text),
    "reason": opt(ltext),
    "cpus_per_server": opt(count),
    "nodes": opt(count),
}

TABLES = {
    "sources": {
        "id": req(ident),
        "kind": req(one_of("article", "official", "policy", "datasheet", "press")),
        "title": req(name),
        "label": opt(ltext),  # the site's own name for it per language, shown instead of its title
        "publisher": req(name),
        "author": opt(name),
        "date": opt(date),
        "language": req(one_of(*languages.SOURCE_TAGS)),
        "url": opt(url),
        "no_url": opt(ltext),
        "takes": req(ltext),
    },
    # a vendor whose id is a company's takes its name from companies.yaml (companies.py)
    "vendors": {"id": req(ident), "name": opt(lname), "color": opt(color)},  # no chart draws it
    "companies": {"id": req(ident), "spellings": opt(list_of(name)), "name": req(lname)},
    "systems": {
        "id": req(ident),
        "vendor": req(ref("vendors")),
        "name": req(lname),
        "family": req(ident),
        "generation": req(count),
        "accelerator": req(name),
        "accelerator_count": req(count),
        "host_cpu": opt(mapping(HOST)),
        "form_factor": opt(text),
        "description": req(ltext),
        "specs": opt(list_of(mapping(SPEC))),
        "prices": opt(list_of(mapping(PRICE))),
    },
    "benchmarks": {
        "id": req(ident),
        "name": req(lname),
        "task": req(ltext),
        "area": opt(one_of("vision", "language", "speech", "commerce", "research", "graph")),
        "series": opt(ref("benchmarks")),  # the benchmark carrying on its task (derive/suite.py)
        "suite_order": opt(count),  # the current suite's lead benchmarks, in this order (home page)
        "compatibility": opt(text),  # its model in MLCommons' compatibility table (compatibility.py)
        "dataset": req(ltext_or_same),  # localised, or one proper name for every language
        "quality_target": req(ltext),
        "metric": req(one_of("time_to_train")),
        "unit": req(one_of("min", "h")),
        "lower_is_better": req(boolean),
    },
    "claims": {
        "id": req(ident),
        "source": req(ref("sources")),
        "figure": req(number),
        "unit": req(one_of(*UNITS)),
        "stated_as": req(text),
        "statement": req(ltext),
        "measures": req(ltext),
        "audited": req(boolean),
        "check": req(mapping(CHECK)),
        "note": opt(ltext),
        "submission_ids": opt(list_of(text)),
        "not_checked": opt(ltext),
    },
    "glossary": {"id": req(ident), "term": req(lname), "definition": req(ltext)},
    "mlperf_systems": None,  # one mapping a line: content/record.py (read_system_map)
}
# The references of a row of the curated `results` table, which the record gives
# (content/record.py, site_result): checked as a table's are (its system at its line of
# mlperf_systems.yaml: record.check_system_map).
RESULT_REFS = {"benchmark": req(ref("benchmarks")), "source": req(ref("sources"))}

# The whole MLPerf Training record, written by the importer (docs/record-format.md).
ROUND = {
    "id": req(ident),
    "repository": req(url),
    "commit": req(text),
    "commit_date": req(date),
    "retrieved": opt(date),  # the date the import read the commit (a citation's "retrieved")
    "published": req(date),
    "ruleset": req(text),
    "results": opt(whole),
    "logs_missing": opt(whole),
    "skipped": opt(whole),
}
ENERGY = {"value": req(positive), "unit": req(text)}
RECORD = {
    "id": req(ident),
    "round": req(text),
    "benchmark": req(ident),
    "benchmark_folder": req(text),
    "division": req(one_of("closed", "open")),
    "category": req(one_of("available", "preview", "research")),
    "submitter": req(text),
    "system_folder": req(text),
    "system_name": req(text),
    "accelerator_model": opt(text),
    "accelerator_count": req(whole),
    "nodes": req(whole),
    "host_cpu_model": opt(text),
    "host_cpu_count": opt(whole),
    "framework": opt(text),
    "status": req(one_of("scored", "logs missing")),
    "value": opt(time),
    "unit": req(one_of("min")),
    "scaling": opt(positive),
    "runs": opt(list_of(maybe(time))),
    "runs_failed": opt(whole),
    "runs_required": opt(whole),
    "run_samples": opt(list_of(maybe(count))),
    "run_tokens": opt(list_of(maybe(count))),
    "energy": opt(mapping(ENERGY)),
    "path": req(text),
    "system_path": opt(text),
    "duplicate_logs": opt(list_of(text)),
    "resubmission_of": opt(ident),
    "logs_digest": opt(text),
}
# Curated facts about record results (content/data/results_curated.yaml), keyed by result id.
# accelerator_count is a correction of the record's count (record_counts.py): it needs the
# official figure it corrects, a source and a note.
CURATED = {
    "id": req(ident),
    "note": opt(ltext),
    "submission_id": opt(text),
    "accelerator_model": opt(name),
    "accelerator_count": opt(count),
    "official_accelerator_count": opt(whole),
    "source": opt(ident),
}

SITE = {
    "title": req(lname),
    "tagline": req(ltext),
    "languages": req(lambda value: value),
    "default_language": req(language),
    "base_url": opt(url),
    "date": opt(date),
    "description": opt(ltext),
}

FRONT_MATTER = {
    "title": req(name),
    "date": req(date),
    "summary": req(text),
    "sources": req(list_of(ref("sources"))),
    "systems": opt(list_of(ref("systems"))),
    "benchmarks": opt(list_of(ref("benchmarks"))),
    "claims": opt(list_of(ref("claims"))),
    "updated": opt(date),
    "pending": opt(list_of(language)),
    "featured": opt(boolean),
    "tags": opt(list_of(name)),
    "findings": opt(findings),
    "written_from": opt(written_from),
}

PAGE_FRONT_MATTER = {
    "title": req(name),
    "summary": req(text),
    "sources": opt(list_of(ref("sources"))),
    "pending": opt(list_of(language)),
    "written_from": opt(written_from),
}
