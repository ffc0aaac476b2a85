"""Systems as the record has them: one per official system description (its JSON file in a
round's repository: derive/record_index.system_key), grouped by chip and submitter. The curated systems
(data/systems.yaml) only add facts to them (a name, a description, specifications, prices with
their sources) through data/mlperf_systems.yaml; they never bring results of their own.

Each page function returns {output path: bytes} for one language, like those of `pages.py`."""

from __future__ import annotations

from sitegen.base import urls
from sitegen.content.model import Site
from sitegen.derive.record_index import Entity, RecordIndex, index_of, system_label
from sitegen.render.pages import _attribution as attribution
from sitegen.render.pages import _page


def by_chip(site: Site, index: RecordIndex) -> list[tuple[Entity, list[tuple[Entity, list[Entity]]]]]:
    """(chip, [(submitter, its systems with that chip, newest round first)]) for the index
    page, chips and submitters in name order."""
    chips: dict[str, dict[str, list[Entity]]] = {}
    for system in index.systems.values():
        first = system.results[0]
        chips.setdefault(index.accelerator_of(first), {}).setdefault(index.submitter_of(first), []).append(
            system
        )
    order = list(site.rounds)
    return [
        (
            index.accelerators[chip],
            [
                (
                    index.submitters[who],
                    sorted(systems, key=lambda s: (-order.index(s.rounds[0]), s.name.casefold(), s.slug)),
                )
                for who, systems in sorted(
                    chips[chip].items(), key=lambda kv: index.submitters[kv[0]].name.casefold()
                )
            ],
        )
        for chip in index.accelerators
        if chip in chips
    ]


def systems_index(theme, site: Site, lang, t):
    """The curated systems (with prices and descriptions), then every official system
    description of the record by chip and submitter."""
    products = sorted(
        site.table("systems"), key=lambda s: (s["vendor"], s["family"], s["accelerator_count"], s["id"])
    )
    index = index_of(site) if site.rounds else None
    return _page(
        theme,
        site,
        lang,
        t,
        urls.systems(lang),
        "systems.html",
        t("nav.systems"),
        [],
        systems=products,
        chips=by_chip(site, index) if index else [],
        index=index,
        count=len(index.systems) if index else 0,
        system_label=system_label,
        attribution=attribution(site, site.rounds) if index else [],
    )


def system_page(theme, site: Site, lang, t, index: RecordIndex, key: str):
    """One official system description: what it says, the curated facts attached to it, and
    every result submitted on it in its round."""
    system: Entity = index.systems[key]
    first = system.results[0]
    product = index.product_of(key)
    rnd = site.rounds[first["round"]]
    crumbs = [(t("nav.systems"), urls.systems(lang))]
    return _page(
        theme,
        site,
        lang,
        t,
        urls.record_system(lang, key),
        "record_system.html",
        t("system.record_title", name=system_label(system), round=first["round"]),
        crumbs,
        entity=system,
        first=first,
        index=index,
        round=rnd,
        kind="systems",
        product=site.get("systems", product) if product else None,
        description=urls.official(rnd, first["system_path"]),
        rows=sorted(
            system.results,
            key=lambda r: (r["benchmark"], r["division"], r["value"] is None, r["value"] or 0, r["id"]),
        ),
        attribution=attribution(site, [first["round"]]),
    )
