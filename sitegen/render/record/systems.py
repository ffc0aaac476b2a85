"""Systems as the record has them: one per official system description (its JSON file in a
round's repository: derive/record_index.system_key), grouped by chip and submitter. The curated systems
(data/systems.yaml) only add facts to them (a name, a description, specifications, prices with
their sources) through data/mlperf_systems.yaml; they never bring results of their own.

Each page function returns {output path: bytes} for one language, like those of `pages.py`."""

from __future__ import annotations

from sitegen.base import urls
from sitegen.content.model import Site
from sitegen.derive.model import Entity, Model
from sitegen.render.pages import _attribution as attribution
from sitegen.render.pages import _page


def systems_index(theme, site: Site, lang, t, model: Model):
    """The curated systems (with prices and descriptions), then every official system
    description of the record by chip and submitter."""
    products = model.products()
    index = model.index if site.rounds else None
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
        chips=model.systems_by_chip() if index else [],
        index=index,
        count=model.count_systems() if index else 0,
        system_label=model.chips.system_label,
        attribution=attribution(site, site.rounds) if index else [],
        model=model,
    )


def system_page(theme, site: Site, lang, t, model: Model, key: str):
    """One official system description: what it says, the curated facts attached to it, and
    every result submitted on it in its round."""
    index = model.index
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
        t("system.record_title", name=model.chips.system_label(system), round=first["round"]),
        crumbs,
        entity=system,
        first=first,
        index=index,
        round=rnd,
        kind="systems",
        product=site.get("systems", product) if product else None,
        description=urls.official(rnd, first["system_path"]),
        rows=(rows := model.system_rows(key)),
        count=model.count(rows),  # a copy once
        attribution=attribution(site, [first["round"]]),
        model=model,
    )
