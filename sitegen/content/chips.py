"""Chips: the reviewed taxonomy of content/data/chips.yaml (vendor -> family -> variant, with
the rules that map each official accelerator string to one variant), read with file:line
errors, and the classification of every record result by it.

A result's chip is added to the loaded record as `chip` ({vendor, vendor_name, family,
family_name, variant, rank}), or None: for a CPU-only result (no accelerator) and for a string
no rule maps, which is a warning naming the result's file and line (an error with --strict),
never a chip of its own. A string that the rules of two variants match is an error."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitegen.base.errors import Problems
from sitegen.base.languages import Languages
from sitegen.content import chip_facts, field_types, patterns
from sitegen.content.chip_matches import classified, key_of
from sitegen.content.parsecache import cached
from sitegen.content.readers import LINE, key_line, parse_yaml, read_text

CHIPS_FILE = ("data", "chips.yaml")
SHOWN = "content/data/chips.yaml"  # how messages about a record result name the file
CPU_ONLY = "cpu-only"  # the accelerator page of the results with no chip
UNCLASSIFIED = "unclassified-"  # page prefix of a string no rule maps (one page each)
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Rule:
    accelerator: Any  # regex.Pattern (patterns.py: matched with a time bound)
    system: Any | None
    rounds: frozenset | None
    line: int | None
    text: str  # as written, for messages
    variant: str = ""

    def matches(self, model: str, system_name: str, round_id: str, memo: dict | None = None) -> bool:
        """patterns.SlowRule, with this rule's line and variant, for a match that takes too long."""
        try:
            return (
                patterns.fullmatch(self.accelerator, model, memo)
                and (self.system is None or patterns.fullmatch(self.system, system_name, memo))
                and (self.rounds is None or round_id in self.rounds)
            )
        except patterns.SlowRule as exc:
            raise patterns.SlowRule(exc.text, exc.subject, self.line, self.variant) from None


@dataclass(frozen=True)
class Variant:
    name: str
    family: str  # the family's slug
    rules: tuple
    line: int | None
    rank: tuple  # (vendor, family, variant) order in the file


@dataclass(frozen=True)
class Family:
    slug: str
    name: str
    vendor: str
    vendor_name: dict  # {lang: name}


@dataclass(frozen=True)
class Taxonomy:
    families: dict  # slug -> Family, in the file's order
    variants: tuple  # every Variant, in the file's order
    facts: dict = field(default_factory=dict)  # slug -> its generation line and specs (chip_facts.py)

    def matches(
        self, model: str, system_name: str = "", round_id: str = "", memo: dict | None = None
    ) -> list[Variant]:
        """The variants whose rules match (one, when the file is right); `memo`: patterns.fullmatch."""
        return [
            v for v in self.variants if any(r.matches(model, system_name, round_id, memo) for r in v.rules)
        ]


def slug(text: str) -> str:
    return _SLUG.sub("-", text.casefold()).strip("-") or "x"


def chips_path(content: Path) -> Path:
    return content.joinpath(*CHIPS_FILE)


# --- reading chips.yaml ----------------------------------------------------------------------

VENDOR = {
    "vendor": field_types.req(field_types.ident),
    "name": field_types.opt(field_types.lname),
    "families": field_types.req(lambda value: value),
}
FAMILY = {
    "family": field_types.req(field_types.name),
    "follows": field_types.opt(field_types.text),  # the family before it in the vendor's line (chip_facts.py)
    "specs": field_types.opt(lambda value: value),  # its figures, each with a source (chip_facts.py)
    "variants": field_types.req(lambda value: value),
}
VARIANT = {"variant": field_types.req(field_types.name), "match": field_types.req(lambda value: value)}
RULE = {
    "accelerator": field_types.req(field_types.text),
    "system": field_types.opt(field_types.text),
    "rounds": field_types.opt(field_types.list_of(field_types.text)),
}


def load_taxonomy(path: Path, vendors: dict, problems: Problems, sources=None, langs=None) -> Taxonomy:
    """chips.yaml as a Taxonomy; every mistake is reported with its line. A missing file is
    an empty taxonomy (every accelerator string is then reported as unmapped). `sources`
    (data/sources.yaml) checks the sources of the families' specifications; `langs`: the site's
    languages (the built-in ones for the import report, which loads no site)."""
    langs = langs if langs is not None else Languages.default()
    if not path.is_file():
        return Taxonomy({}, ())
    rows = cached(
        "yaml-list", path, problems, lambda: parse_yaml(read_text(path, problems) or "[]", path, problems)
    )
    if rows is None:
        return Taxonomy({}, ())
    if not isinstance(rows, list):
        problems.add(path, 1, "chips.yaml must be a YAML list of vendors ('- vendor: ...')")
        return Taxonomy({}, ())
    families: dict[str, Family] = {}
    variants: list[Variant] = []
    facts: dict[str, dict] = {}
    for v_rank, row in enumerate(rows):
        vendor = _fields(row, (VENDOR, langs), path, problems, "a vendor")
        if vendor is None:
            continue
        name = _vendor_name(row, vendor, vendors, path, problems)
        for f_rank, item in enumerate(_items(row, "families", path, problems)):
            family = _fields(item, (FAMILY, langs), path, problems, "a family")
            if family is None:
                continue
            key = slug(f"{vendor['vendor']} {family['family']}")
            if key in families or key == CPU_ONLY or key.startswith(UNCLASSIFIED):
                problems.add(
                    path,
                    item.get(LINE),
                    f"family '{family['family']}' of vendor "
                    f"'{vendor['vendor']}': its page '{key}' is "
                    + ("listed twice" if key in families else "a reserved name"),
                )
                continue
            families[key] = Family(key, family["family"], vendor["vendor"], name)
            mine = _variants(item, key, (v_rank, f_rank), path, problems)
            variants += mine
            specs = chip_facts.read_specs(
                item, family["family"], {v.name for v in mine}, (sources, langs), path, problems
            )
            facts[key] = chip_facts.new_fact(key, family["family"], vendor["vendor"], item, specs, SHOWN)
    _check_names(variants, families, path, problems)
    chip_facts.link_generations(facts, path, problems)
    return Taxonomy(families, tuple(variants), facts)


def _fields(row, fields: tuple, path: Path, problems: Problems, what: str) -> dict | None:
    """The row's fields by `fields` (parse_record's fields and languages), each error at its line."""
    if not isinstance(row, dict):
        problems.add(path, None, f"expected {what} (a mapping), got {row!r}")
        return None
    clean, errors = field_types.parse_record(row, *fields)
    for message in errors:
        found = re.search(r"field '(\w+)'", message)
        problems.add(
            path,
            key_line(row, found.group(1), row.get(LINE)) if found else row.get(LINE),
            f"{what}: {message}",
        )
    return None if errors else clean


def _items(row: dict, key: str, path: Path, problems: Problems) -> list:
    items = row.get(key)
    if not isinstance(items, list) or not items:
        problems.add(
            path, key_line(row, key, row.get(LINE)), f"'{key}' must be a list with at least one entry"
        )
        return []
    return items


def _vendor_name(row: dict, vendor: dict, vendors: dict, path: Path, problems: Problems) -> dict:
    """The vendor's name: vendors.yaml's for a vendor listed there (one spelling site-wide),
    else the `name` given here."""
    known = vendors.get(vendor["vendor"])
    line = key_line(row, "name", row.get(LINE))
    if known is not None and vendor["name"] is not None:
        problems.add(
            path,
            line,
            f"vendor '{vendor['vendor']}' is named in content/data/vendors.yaml: remove its name here",
        )
    if known is None and vendor["name"] is None and ("vendors", vendor["vendor"]) not in problems.broken:
        problems.add(
            path,
            row.get(LINE),
            f"vendor '{vendor['vendor']}' is not in content/data/"
            "vendors.yaml: give its name here ({en: ..., zh: ...})",
        )
    return dict((known or {}).get("name") or vendor["name"] or {})


def _variants(item: dict, family: str, rank: tuple, path: Path, problems: Problems) -> list[Variant]:
    found = []
    for n, row in enumerate(_items(item, "variants", path, problems)):
        variant = _fields(row, (VARIANT,), path, problems, "a variant")
        if variant is None:
            continue
        line = key_line(row, "match", row.get(LINE))
        rules = variant["match"] if isinstance(variant["match"], list) else [variant["match"]]
        parsed = [_rule(rule, line, variant["variant"], path, problems) for rule in rules]
        if parsed and None not in parsed:
            found.append(Variant(variant["variant"], family, tuple(parsed), row.get(LINE), (*rank, n)))
    return found


def _rule(rule, line: int | None, variant: str, path: Path, problems: Problems) -> Rule | None:
    """A rule: a pattern (the whole official string), or {accelerator, system, rounds}."""
    if isinstance(rule, dict):
        fields = _fields(rule, (RULE,), path, problems, f"a rule of variant '{variant}'")
        if fields is None:
            return None
        line = rule.get(LINE, line)
        system = _pattern(fields["system"], line, variant, path, problems) if fields["system"] else None
        accelerator = _pattern(fields["accelerator"], line, variant, path, problems)
        if accelerator is None or (fields["system"] and system is None):
            return None
        rounds = frozenset(fields["rounds"]) if fields["rounds"] else None
        return Rule(accelerator, system, rounds, line, fields["accelerator"], variant)
    if not isinstance(rule, str) or not rule.strip():
        problems.add(
            path,
            line,
            f"variant '{variant}': a rule is a regular expression or a "
            f"mapping with 'accelerator', got {rule!r}",
        )
        return None
    pattern = _pattern(rule, line, variant, path, problems)
    return None if pattern is None else Rule(pattern, None, None, line, rule, variant)


def _pattern(text: str, line: int | None, variant: str, path: Path, problems: Problems):
    pattern, refused = patterns.compile_rule(text)
    if refused:
        problems.add(path, line, f"variant '{variant}': {refused}")
    return pattern


def _check_names(variants: list[Variant], families: dict, path: Path, problems: Problems) -> None:
    """A variant name is one variant: the same name twice in a family is a mistake."""
    seen: dict[tuple, Variant] = {}
    for variant in variants:
        key = (variant.family, variant.name.casefold())
        if key in seen:
            problems.add(
                path,
                variant.line,
                f"variant '{variant.name}' of family "
                f"'{families[variant.family].name}' is listed twice (first on line "
                f"{seen[key].line})",
            )
        seen.setdefault(key, variant)


# --- classifying the record --------------------------------------------------------------------


def classify(taxonomy: Taxonomy, result: dict) -> Variant | None:
    """The result's variant, or None (no accelerator; no rule; more than one: see annotate)."""
    if not result.get("accelerator_model"):
        return None
    found = taxonomy.matches(
        result["accelerator_model"], result.get("system_name") or "", result.get("round") or ""
    )
    return found[0] if len(found) == 1 else None


def chip_of(taxonomy: Taxonomy, variant: Variant) -> dict:
    """The `chip` a classified result carries: plain data, so the record stays plain."""
    family = taxonomy.families[variant.family]
    return {
        "vendor": family.vendor,
        "vendor_name": family.vendor_name,
        "family": family.slug,
        "family_name": family.name,
        "variant": variant.name,
        "rank": list(variant.rank),
    }


def annotate(
    content: Path, record: dict, vendors: dict, problems: Problems, langs, sources=None
) -> tuple[dict, dict]:
    """The record with each result's `chip` (a new dict per result: the loaded ones are kept
    as read), and the families' facts (chip_facts.py: the table `chip_families`). Unmapped
    strings are warned about once each, at their first result."""
    known = len(problems.errors)
    taxonomy = load_taxonomy(chips_path(content), vendors, problems, sources, langs)
    broken = len(problems.errors) > known  # said once: no warning for every string
    visited: set = set()
    said: set = set()
    unmapped: dict[str, list[dict]] = {}
    out: dict = {}
    try:
        seen = classified(chips_path(content), taxonomy, record, problems, langs)
        for ident, result in record.items():
            model = result.get("accelerator_model")
            key = key_of(result)
            if model and key not in visited:
                visited.add(key)
                if len(seen[key]) > 1 and (model, tuple(seen[key])) not in said:
                    said.add((model, tuple(seen[key])))
                    _ambiguous(result, seen[key], taxonomy, problems)
            found = seen.get(key) or []
            if model and not found:
                unmapped.setdefault(model, []).append(result)
            chip = chip_of(taxonomy, found[0]) if len(found) == 1 else None
            out[ident] = {**result, "chip": chip}
    except patterns.SlowRule as slow:  # said once, at the rule: no result is classified
        problems.add(chips_path(content), slow.line, slow.message())
        return {ident: {**result, "chip": None} for ident, result in record.items()}, taxonomy.facts
    for model, results in {} if broken else unmapped.items():
        first = min(results, key=_position)
        more = f" and {len(results) - 1} more results" if len(results) > 1 else ""
        problems.warn(
            first["_file"],
            _model_line(first),
            f"accelerator '{model}' of record "
            f"'{first['id']}'{more} matches no chip of {SHOWN}: add a rule for it "
            "there (it is listed as not classified)",
        )
    return out, taxonomy.facts


def _ambiguous(result: dict, found: list[Variant], taxonomy: Taxonomy, problems: Problems) -> None:
    names = " and ".join(
        f"'{taxonomy.families[v.family].name} / {v.name}' ({SHOWN}:{v.rules[0].line})" for v in found
    )
    problems.add(
        result["_file"],
        _model_line(result),
        f"accelerator '{result['accelerator_model']}'"
        f" of record '{result['id']}' matches more than one chip: {names}; make the rules "
        "exclusive",
    )


def _model_line(result: dict) -> int | None:
    return (result.get("_lines") or {}).get("accelerator_model", result.get(LINE))


def _position(result: dict) -> tuple:
    return (result.get("_file") or "", result.get(LINE) or 0)


def unmapped_strings(taxonomy: Taxonomy, results) -> dict[str, list[dict]]:
    """Official strings no rule maps, with their results (for the import report)."""
    found: dict[str, list[dict]] = {}
    memo: dict = {}
    for result in results:
        model = result.get("accelerator_model")
        key = (model, result.get("system_name") or "", result.get("round") or "")
        if model and not taxonomy.matches(*key, memo=memo):
            found.setdefault(model, []).append(result)
    return found


def report_lines(content: Path, results) -> list[str]:
    """The import report's section on accelerator strings that chips.yaml does not map."""
    problems = Problems(content)
    vendors = {}
    for name in ("vendors", "companies"):  # a company names a vendor of its id (companies.py)
        path = content / "data" / f"{name}.yaml"
        if path.is_file():
            rows = parse_yaml(read_text(path, problems) or "[]", path, problems) or []
            vendors.update({r.get("id"): r for r in rows if isinstance(r, dict)})
    taxonomy = load_taxonomy(chips_path(content), vendors, problems)
    lines = ["## Accelerator strings that content/data/chips.yaml does not map", ""]
    if not chips_path(content).is_file():
        return lines + ["Not checked: there is no data/chips.yaml beside this record.", ""]
    if problems.errors:
        return lines + [f"Not checked: {problems.errors[0]}", ""]
    try:
        found = unmapped_strings(taxonomy, results)
    except patterns.SlowRule as slow:
        return lines + [f"Not checked: {SHOWN}:{slow.line}: {slow.message()}", ""]
    if not found:
        return lines + ["None: every accelerator string of the record maps to one chip.", ""]
    lines += [f"{len(found)} strings; add a rule for each to content/data/chips.yaml:", ""]
    for model in sorted(found):
        first = min(found[model], key=lambda r: (r.get("round") or "", r.get("path") or ""))
        lines.append(f"- `{model}`: {len(found[model])} results, first {first.get('path')}")
    return lines + [""]
