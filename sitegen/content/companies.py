"""Companies as each language's press writes them (data/companies.yaml): the one place that
holds a company's names. A company covers the record's spellings of a submitter ("NVIDIA",
"Quanta_Cloud_Technology" and "QCT"); a vendor of vendors.yaml or chips.yaml with a company's
id takes its name from there.

Checked as the content is read: a spelling that two companies claim is an error, one that no
submitter of the record is written with a warning; a vendor named both here and in
vendors.yaml, or nowhere, is an error."""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.content.readers import LINE

_SPACE = re.compile(r"[\s_]+")
PATH = Path("data") / "companies.yaml"


def _line(record: dict, field: str) -> int | None:
    """The line of a field of a table's record, else the record's own."""
    return (record.get("_lines") or {}).get(field, record.get(LINE))


def spelling_key(name: str) -> str:
    """One key for the ways the record writes a name: case, spaces and underscores folded."""
    return _SPACE.sub(" ", name).strip().casefold()


def by_spelling(companies: dict) -> dict[str, dict]:
    """{spelling key: company} over every company's spellings."""
    return {spelling_key(s): c for c in companies.values() for s in c.get("spellings") or ()}


def check(content: Path, companies: dict, record: dict, problems) -> None:
    """Spellings: each of one company; each a submitter of the record (when there is one)."""
    path = content / PATH
    seen: dict[str, dict] = {}
    submitters = {spelling_key(r["submitter"]) for r in record.values()}
    for company in companies.values():
        line = _line(company, "spellings")
        for spelling in company.get("spellings") or ():
            key = spelling_key(spelling)
            first = seen.setdefault(key, company)
            if first is not company:
                problems.add(
                    path,
                    line,
                    f"company '{company['id']}': spelling '{spelling}' is also company "
                    f"'{first['id']}''s (line {first[LINE]}); give each spelling one company",
                )
            elif record and key not in submitters:
                problems.warn(
                    path,
                    line,
                    f"company '{company['id']}': no submitter of the record is written '{spelling}'",
                )


def name_vendors(content: Path, vendors: dict, companies: dict, problems) -> dict:
    """The vendors, each with its name: its company's when its id is a company's, else its own
    `name` (new records: the parsed table may be cached)."""
    path = content / "data" / "vendors.yaml"
    named = {}
    for ident, vendor in vendors.items():
        company = companies.get(vendor["id"])
        if company is not None and vendor.get("name") is not None:
            problems.add(
                path,
                _line(vendor, "name"),
                f"vendor '{vendor['id']}' is named in content/data/companies.yaml: remove its name here",
            )
        elif company is None and vendor.get("name") is None:
            problems.add(
                path,
                vendor.get(LINE),
                f"vendor '{vendor['id']}' has no name: give it one here ({{en: ..., zh: ...}}) "
                "or add it to content/data/companies.yaml",
            )
        named[ident] = {**vendor, "name": company["name"]} if company is not None else vendor
    return named


def as_vendors(companies: dict, vendors: dict) -> dict:
    """vendors.yaml's vendors and every company, as chips.yaml looks a vendor's name up."""
    return {**{ident: {"id": ident, "name": c["name"]} for ident, c in companies.items()}, **vendors}
