"""Page kinds of the record across rounds: submitters, accelerator models, the data changelog
and the compare page (with its per-round data scripts).

Each page function returns {output path: bytes} for one language, like those of `pages.py`.
Long lists are paged by round (record_index.PAGE_ROWS), so pages stay small at any size."""

from __future__ import annotations

import json

from sitegen.base import fmt, urls
from sitegen.content.model import Site
from sitegen.derive.model import Entity, Model
from sitegen.render.pages import _attribution as attribution
from sitegen.render.pages import _page
from sitegen.render.record.chip_page import chip_context

KINDS = {
    "submitters": (urls.submitters, urls.submitter, "record.submitter"),
    "accelerators": (urls.accelerators, urls.accelerator, "record.accelerator"),
}


def entity_index(theme, site: Site, lang, t, model: Model, kind: str):
    """The list of submitters, or of chip families by vendor with their variants."""
    index = model.index
    list_url, _, _ = KINDS[kind]
    entities = getattr(index, kind).values()
    chips = kind == "accelerators"
    return _page(
        theme,
        site,
        lang,
        t,
        list_url(lang),
        "record_chips.html" if chips else "record_entities.html",
        t(f"nav.{kind}"),
        [(t("nav.rounds"), urls.rounds(lang))],
        kind=kind,
        entities=entities,
        entity_url=KINDS[kind][1],
        shown={e.slug: shown_name(model, lang, kind, e) for e in entities},
        counts=model.entity_counts(kind),
        index=index,
        sections=model.chips.by_vendor(entities) if chips else None,
        model=model,
        attribution=attribution(site, site.rounds),
    )


LISTED = 6  # the results an entity's page names for its first and its latest round
# a table or list of more rows than this is folded behind its count (about two phone screens)
FOLD_AT = 12


def told_apart(rows: list[dict], t, lang: str) -> dict[str, str]:
    """What tells apart results listed under one name (the same benchmark and system): their
    division, category and scale where those differ, else their official system folder
    ({result id: text}; none for a result whose name is its own)."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        groups.setdefault((r["benchmark"], r["system_name"]), []).append(r)
    told = {}
    for twins in (g for g in groups.values() if len(g) > 1):
        parts = {r["id"]: _differences(r, twins, t, lang) for r in twins}
        for r in twins:
            alike = [x for x in twins if parts[x["id"]] == parts[r["id"]]]
            shown = parts[r["id"]] + ([r["system_folder"]] if len(alike) > 1 else [])
            if shown:
                told[r["id"]] = t("ref.aside", text=t("ref.separator").join(shown))
    return told


def _differences(r: dict, twins: list[dict], t, lang: str) -> list[str]:
    """The result's division, category and scale, each where its twins differ in it."""
    parts = [
        t(f"{field}.{r[field]}") for field in ("division", "category") if len({x[field] for x in twins}) > 1
    ]
    if len({x["accelerator_count"] for x in twins}) > 1:
        count = r["accelerator_count"]
        parts.append(t("level.count", n=fmt.number(count, t.language, 0)) if count else t("ref.cpu_only"))
    return parts


def entity_pages(theme, site: Site, lang, t, model: Model, kind: str, slug: str):
    """The entity's page (summary; every result unless there are many) and, for many, one
    page per round. The entity is looked up here, inside its unit, so that the unit depends
    on it (its results) and not only on the fields it reads of them."""
    entity: Entity = getattr(model.index, kind)[slug]
    list_url, page_url, _ = KINDS[kind]
    crumbs = [(t("nav.rounds"), urls.rounds(lang)), (t(f"nav.{kind}"), list_url(lang))]
    chip = kind == "accelerators"  # a chip family's page: its figures (chip_page.py)
    title = shown_name(model, lang, kind, entity) or t("result.cpu_only")
    context = _entity_context(model, lang, t, kind, entity, title)
    files = _page(
        theme,
        site,
        lang,
        t,
        page_url(lang, entity.slug),
        "record_chip.html" if chip else "record_entity.html",
        title,
        crumbs,
        groups=None if entity.paged else _by_round(entity.results),
        attribution=attribution(site, entity.rounds),
        **context,
        **(chip_context(model, lang, t, entity) if chip else {}),
        model=model,
    )
    if entity.paged:
        crumbs = [*crumbs, (title, page_url(lang, entity.slug))]
        for round_id, _ in context["rounds"]:
            files.update(
                _page(
                    theme,
                    site,
                    lang,
                    t,
                    page_url(lang, entity.slug, round_id),
                    "record_entity_round.html",
                    t("record.entity_round", name=title, round=round_id),
                    crumbs,
                    round_id=round_id,
                    groups=_by_round(entity.in_round(round_id)),
                    attribution=attribution(site, [round_id]),
                    **context,
                    model=model,
                )
            )
    return files


def _entity_context(model: Model, lang: str, t, kind: str, entity: Entity, title: str) -> dict:
    """What an entity's page and its pages by round show of it."""
    index = model.index
    rounds = [(r, model.count(entity.in_round(r))) for r in entity.rounds]  # copies once
    first, last = entity.rounds[-1], entity.rounds[0]
    fastest = entity.fastest(index.counts)
    chip = kind == "accelerators"
    return dict(
        # a company named in the language's own way: the record's spelling under the title
        record_spelling=entity.name if entity.name and title != entity.name else None,
        aliases=aliases(model, kind, entity),
        kind=kind,
        entity=entity,
        index=index,
        rounds=rounds,
        round_counts=dict(rounds),
        entity_url=KINDS[kind][1],
        first=(first, entity.in_round(first)),
        last=(last, entity.in_round(last)),
        listed=LISTED,
        unlisted={r: max(len(entity.in_round(r)) - LISTED, 0) for r in (first, last)},  # "and n more"
        fold_at=FOLD_AT,
        told_apart={
            **told_apart(entity.in_round(first)[:LISTED], t, lang),
            **told_apart(entity.in_round(last)[:LISTED], t, lang),
        },
        fastest=fastest,
        # a chip page names level results by round instead (chip_figures.by_benchmark)
        fastest_level=None if chip else model.level_with_fastest(entity, fastest),
        label=KINDS[kind][2],
        unscored=(unscored := model.unscored_of(entity)),
        unscored_count=model.count(unscored),
        unscored_unlisted=max(len(unscored) - 12, 0),  # the page names twelve
    )


def shown_name(model: Model, lang: str, kind: str, entity: Entity) -> str:
    """An entity's name on its pages: a submitter's company as the language writes it
    (companies.yaml), else the record's spelling; a chip family's name."""
    found = model.names.of_entity(entity) if kind == "submitters" else None
    return found[lang] if found else entity.name


def aliases(model: Model, kind: str, entity: Entity) -> str:
    """Every name a reader may search a submitter by: its company's name in each language and
    the record's spellings (search.py reads them from the heading's data-names)."""
    found = model.names.of_entity(entity) if kind == "submitters" else None
    every = {*(found or {}).values(), *(n for n in entity.names if n)}
    return "|".join(sorted(every)) if found else ""


def _by_round(results: list[dict]) -> list[tuple[str, list[dict]]]:
    groups: dict[str, list[dict]] = {}
    for result in results:
        groups.setdefault(result["round"], []).append(result)
    return list(groups.items())


def changes_page(theme, site: Site, lang, t, model: Model):
    changes = [{**c, "target": change_target(model, c)} for c in getattr(site, "changelog", None) or []]
    return _page(
        theme,
        site,
        lang,
        t,
        urls.record_changes(lang),
        "record_changes.html",
        t("changes.title"),
        [(t("nav.rounds"), urls.rounds(lang))],
        changes=changes,
        attribution=attribution(site, site.rounds),
        model=model,
    )


def change_target(model: Model, change: dict) -> str | None:
    """The result page a change links to: its own, the new id of a renamed result, or none
    (a result removed upstream has no page)."""
    for ident in (change["id"], change["new"] if change["field"] == "id" else None):
        if ident is not None and ident in model.record:
            return ident
    return None


def submitter_names(model: Model, lang: str) -> dict[str, str]:
    """Each submitter spelling the record publishes, as the language writes its company
    (companies.yaml): the explorer's and the compare page's scripts show these."""
    return {
        spelling: model.names.submitter(spelling, lang)
        for entity in model.index.submitters.values()
        for spelling in sorted({entity.name, *entity.names} - {None, ""})
    }


def compare_page(theme, site: Site, lang, t, model: Model):
    return _page(
        theme,
        site,
        lang,
        t,
        urls.compare_results(lang),
        "record_compare.html",
        t("rcompare.title"),
        [(t("nav.rounds"), urls.rounds(lang))],
        rounds=list(site.rounds),
        companies=submitter_names(model, lang),
        attribution=attribution(site, site.rounds),
        model=model,
    )


# One row of a round's data script: the fields the compare page shows, in this order.
DATA_FIELDS = (
    "benchmark",
    "division",
    "category",
    "submitter",
    "system_name",
    "accelerator_model",
    "accelerator_count",
    "value",
    "accelerator_minutes",  # derived.accelerator_minutes, at full precision; not an MLPerf® score
    "energy",
    "status",
    "carried_over_from",
    "copy_of",
)


def record_data_file(model: Model, round_id: str) -> dict[str, bytes]:
    """assets/record/<round>.js: `window.RECORD_DATA[round] = {fields, rows, names}`, a plain
    script, so the compare page can load it from file:// too."""
    rows = {}
    index, site = model.index, model.site
    for result in model.round_results(round_id):
        origin, copied = index.carried_from(result), index.copy_of(result)
        fields = {
            "accelerator_minutes": model.work_value(result),
            "energy": (result.get("energy") or {}).get("value"),
            "carried_over_from": origin and origin["id"],
            "copy_of": copied and copied["id"],
        }
        rows[result["id"]] = [fields[f] if f in fields else result.get(f) for f in DATA_FIELDS]
    names = {b: site.get("benchmarks", b)["name"] for b in model.round_benchmarks(round_id)}
    payload = json.dumps(
        {"fields": DATA_FIELDS, "rows": rows, "names": names},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return {
        urls.record_data(round_id): (
            "window.RECORD_DATA = window.RECORD_DATA || {};\n"
            f"window.RECORD_DATA[{json.dumps(round_id)}] = {payload};\n"
        ).encode()
    }
