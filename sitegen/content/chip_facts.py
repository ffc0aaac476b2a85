"""What data/chips.yaml says of a chip family beyond its variants: the family it follows in
its vendor's line of generations (`follows`) and its specifications (`specs`), each figure with
a source of data/sources.yaml. Read with chips.load_taxonomy; given to the pages as the table
`chip_families` ({family page: {id, name, vendor, follows, next, specs}}), so that a page that
reads a family's facts depends on them (content/tracking.py).

A figure no source states is not written: the page then says nothing of it."""

from __future__ import annotations

from pathlib import Path

from sitegen.base.errors import Problems
from sitegen.content import field_types
from sitegen.content.readers import LINE, key_line

TABLE = "chip_families"
# Each figure a family may give, with the units it may be stated in (a date has none).
SPEC_UNITS = {
    "peak_16bit_dense": ("TFLOP/s",),  # peak dense (no structured sparsity) 16-bit floating point
    "memory": ("GB", "GiB"),
    "power": ("W",),
    "launched": (),
}
SPEC = {
    "name": field_types.req(field_types.one_of(*SPEC_UNITS)),
    "value": field_types.opt(field_types.positive),
    "unit": field_types.opt(field_types.text),
    "date": field_types.opt(field_types.date),
    "variant": field_types.opt(field_types.text),
    "note": field_types.opt(field_types.ltext),
    "source": field_types.req(field_types.ident),
}


def read_specs(item: dict, family: str, variants: set, known: tuple, path: Path, problems: Problems) -> list:
    """A family's `specs`: [{name, value, unit, date, variant, note, source, line}]; each
    mistake at its line. `known`: (the sources table, the site's languages); sources None:
    source ids are not checked (no sources table read)."""
    rows = item.get("specs")
    if rows is None:
        return []
    line = key_line(item, "specs", item.get(LINE))
    if not isinstance(rows, list) or not rows:
        problems.add(path, line, f"family '{family}': 'specs' must be a list with at least one figure")
        return []
    found = []
    for row in rows:
        spec = _spec(row, family, variants, known, path, problems, line)
        if spec is not None:
            found.append(spec)
    return found


def _spec(row, family: str, variants: set, known: tuple, path: Path, problems: Problems, line):
    sources, langs = known
    where = row.get(LINE, line) if isinstance(row, dict) else line
    if not isinstance(row, dict):
        problems.add(path, where, f"family '{family}': a figure is a mapping with 'name', got {row!r}")
        return None
    clean, errors = field_types.parse_record(row, SPEC, langs)
    errors += _spec_errors(clean, variants, sources) if not errors else []
    for message in errors:
        problems.add(path, where, f"family '{family}', figure '{row.get('name')}': {message}")
    return None if errors else {**clean, "line": where}


def _spec_errors(spec: dict, variants: set, sources) -> list[str]:
    units, errors = SPEC_UNITS[spec["name"]], []
    if units and (spec["value"] is None or spec["unit"] not in units):
        errors.append(f"needs 'value' and 'unit' ({' or '.join(units)})")
    if not units and (spec["date"] is None or spec["value"] is not None):
        errors.append("needs 'date' (YYYY-MM-DD) and no 'value'")
    if spec["variant"] is not None and spec["variant"] not in variants:
        errors.append(
            f"variant '{spec['variant']}' is not one of the family's ({', '.join(sorted(variants))})"
        )
    if sources is not None and spec["source"] not in sources:
        errors.append(f"source '{spec['source']}' is not in content/data/sources.yaml")
    return errors


def link_generations(facts: dict, path: Path, problems: Problems) -> None:
    """Turn each family's `follows` (a family name of the same vendor) into that family's
    page, and give each family the families that follow it (`next`, in the file's order).
    A name of no family of the vendor, or a line that comes back on itself, is an error."""
    by_name = {(f["vendor"], f["name"]): key for key, f in facts.items()}
    for key, fact in facts.items():
        name = fact.pop("follows_name")
        if name is None:
            continue
        found = by_name.get((fact["vendor"], name))
        if found is None or found == key:
            known = ", ".join(f["name"] for f in facts.values() if f["vendor"] == fact["vendor"])
            problems.add(
                path,
                fact["follows_line"],
                f"family '{fact['name']}' follows '{name}', which is no other family of vendor "
                f"'{fact['vendor']}' (its families: {known})",
            )
            continue
        fact["follows"] = found
    for key, fact in facts.items():
        if _loops(facts, key):
            problems.add(
                path, fact["follows_line"], f"family '{fact['name']}': its 'follows' line comes back to it"
            )
            fact["follows"] = None
    for key, fact in facts.items():
        if fact["follows"]:
            facts[fact["follows"]]["next"].append(key)


def _loops(facts: dict, start: str) -> bool:
    seen, key = {start}, facts[start]["follows"]
    while key is not None:
        if key in seen:
            return True
        seen.add(key)
        key = facts[key]["follows"]
    return False


def new_fact(key: str, name: str, vendor: str, item: dict, specs: list, shown: str) -> dict:
    """A family's record of the chip_families table (link_generations completes it)."""
    follows = item.get("follows")
    return {
        "id": key,
        "name": name,
        "vendor": vendor,
        "follows_name": str(follows) if follows is not None else None,
        "follows_line": key_line(item, "follows", item.get(LINE)),
        "follows": None,
        "next": [],
        "specs": specs,
        "_file": shown,
        LINE: item.get(LINE),
    }


def sources_used(facts: dict) -> set[str]:
    """The sources the families' specifications cite (load.py's check for unused sources)."""
    return {spec["source"] for fact in facts.values() for spec in fact["specs"]}
