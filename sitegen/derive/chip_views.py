"""The record's accelerators as chip families, for the views (record_index.py and the pages):
which page a result's accelerator belongs on, each family's variants with their official
spellings and result counts, and the order of the accelerator index (by vendor, as in
content/data/chips.yaml). Reads only what chips.annotate put on each result (`chip`)."""

from __future__ import annotations

from collections.abc import Callable

from sitegen.content.chips import CPU_ONLY, UNCLASSIFIED, slug


def family_key(result: dict) -> str:
    """The accelerator page of a result: its chip family; CPU_ONLY without an accelerator; a
    page of its own (UNCLASSIFIED + the string) for a string no rule of chips.yaml maps."""
    chip = result.get("chip")
    if chip:
        return chip["family"]
    model = result.get("accelerator_model")
    return UNCLASSIFIED + slug(model) if model else CPU_ONLY


def family_name(result: dict) -> str:
    """The page's name: the family ("A100"), the string as published when unclassified, and
    "" for CPU only (the page says "CPU only" in its language)."""
    chip = result.get("chip")
    return chip["family_name"] if chip else (result.get("accelerator_model") or "")


def variant_key(result: dict) -> tuple:
    """One chip exactly: (family, variant), or the string as published when unclassified."""
    chip = result.get("chip")
    return (chip["family"], chip["variant"]) if chip else ("", result.get("accelerator_model") or "")


def describe(entities: dict, counts: Callable[[dict], bool]) -> None:
    """Give each accelerator entity its chip (vendor, order) and its variants: [{name,
    spellings, count}] in the order of chips.yaml; an unclassified or CPU-only one has none.
    A variant counts the results that `counts` (RecordIndex.counts: a copy once), as its
    family's total does, so that the variants' counts add up to it."""
    for entity in entities.values():
        found: dict[str, dict] = {}
        for result in entity.results:
            chip = result.get("chip")
            if not chip:
                continue
            entity.chip = {
                "vendor": chip["vendor"],
                "vendor_name": chip["vendor_name"],
                "rank": chip["rank"][:2],
            }
            variant = found.setdefault(
                chip["variant"],
                {"name": chip["variant"], "spellings": set(), "count": 0, "rank": chip["rank"]},
            )
            variant["spellings"].add(result["accelerator_model"])
            variant["count"] += counts(result)
        entity.variants = [
            {**v, "spellings": sorted(v["spellings"])}
            for v in sorted(found.values(), key=lambda v: v["rank"])
        ]


def ordered(entities: dict) -> dict:
    """Families in the order of chips.yaml (vendor, then family), then the unclassified
    strings by name, then CPU only."""

    def key(item):
        slug_, entity = item
        if entity.chip:
            return (0, entity.chip["rank"], "")
        return (1 if slug_ != CPU_ONLY else 2, [], entity.name.casefold())

    return dict(sorted(entities.items(), key=key))


def by_vendor(entities) -> list[tuple]:
    """The accelerator index's sections: (vendor id, its name {lang: text}, entities); the
    families of each vendor, then one section (None, None) of the rest (not classified, CPU
    only)."""
    sections: list[tuple] = []
    for entity in entities:
        vendor = entity.chip["vendor"] if entity.chip else None
        if not sections or sections[-1][0] != vendor:
            sections.append((vendor, entity.chip["vendor_name"] if entity.chip else None, []))
        sections[-1][2].append(entity)
    return sections
