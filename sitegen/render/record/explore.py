"""The explorer (<lang>/explore.html): any selection of the whole record by round, benchmark,
division, category, submitter, chip family and accelerator count, as a sortable table and a
chart, kept in the page's URL fragment (templates/static/explore.js).

The page holds only the filters' choices and their names in its language; the results come
from one plain script per round (assets/explore/<round>.js, the same in every language),
loaded when a selection needs that round: a <script> element works from file://, where
Chromium refuses fetch() of local files. No page is made per selection."""

from __future__ import annotations

import json

from markupsafe import Markup

from sitegen.base import npm, urls
from sitegen.content.model import Site
from sitegen.derive.model import Model
from sitegen.render.charts.blocks import BUNDLE
from sitegen.render.charts.scale import IDEAL_KEY
from sitegen.render.charts.scale_svg import vega_shape
from sitegen.render.pages import _attribution as attribution
from sitegen.render.pages import _page
from sitegen.render.record import downloads
from sitegen.render.record.lists import shown_name, submitter_names
from sitegen.render.record.rounds import CATEGORIES, DIVISIONS

# One row of a round's data script, in this order (explore.js reads them by these names).
FIELDS = (
    "id",
    "benchmark",
    "division",
    "category",
    "submitter",  # the submitter's page (record_index slug): the filter's value
    "submitter_name",  # as published in this result
    "system_name",
    "chip",  # the chip family's page (chip_views.family_key as a slug): the filter's value
    "accelerator_count",
    "minutes",  # time to train (derived.minutes); null without a score
    "accelerator_minutes",  # derived.accelerator_minutes
    "status",
    "carried_from",  # the earlier round's result with the same runs (carryover.py), or null
    "copy_of",  # the result of the same round this one repeats, or null
)


def data_file(model: Model, round_id: str, downloaded: list[dict] | None = None) -> dict[str, bytes]:
    """assets/explore/<round>.js: `window.EXPLORE_DATA[round] = {fields, rows}`; rows in the
    record's order (benchmark, then fastest first). Byte-identical for the same record.
    `downloaded`: the round's download rows (downloads.round_rows), when the caller has them."""
    index = model.index
    rows = []
    for result in model.round_results(round_id):
        origin, copied = index.carried_from(result), index.copy_of(result)
        row = {
            "submitter": index.submitter_of(result),
            "submitter_name": result["submitter"],
            "chip": index.accelerator_of(result),
            "minutes": model.figures.minutes(result),
            "accelerator_minutes": model.work_value(result),
            "carried_from": origin and origin["id"],
            "copy_of": copied and copied["id"],
        }
        rows.append([row[f] if f in row else result.get(f) for f in FIELDS])
    payload = json.dumps({"fields": FIELDS, "rows": rows}, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return {
        urls.explore_data(round_id): (
            "window.EXPLORE_DATA = window.EXPLORE_DATA || {};\n"
            f"window.EXPLORE_DATA[{json.dumps(round_id)}] = {payload};\n"
        ).encode(),
        **csv_file(model, round_id, downloaded),
    }


def csv_file(model: Model, round_id: str, rows: list[dict] | None = None) -> dict[str, bytes]:
    """assets/explore-csv/<round>.js: the round's CSV download (downloads.py) as its header
    and one line per result id, from which the explorer builds the CSV of a selection; loaded
    only when a reader asks for that download."""
    rows = downloads.round_rows(model, round_id) if rows is None else rows
    lines = downloads.csv_lines(rows)  # each one CSV record and a line break
    payload = {
        "header": downloads.csv_head()[:-1],
        "rows": {row["id"]: line[:-1] for row, line in zip(rows, lines)},
    }
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return {
        urls.explore_csv(round_id): (
            "window.EXPLORE_CSV = window.EXPLORE_CSV || {};\n"
            f"window.EXPLORE_CSV[{json.dumps(round_id)}] = {text};\n"
        ).encode()
    }


def explore_page(theme, site: Site, lang, t, model: Model):
    """The explorer's page: its filters and the names its table shows (_filters); the vega
    bundle is written beside it and loaded only when a reader asks for the chart."""
    filters = _filters(model, lang, t)
    crumbs = [(t("nav.rounds"), urls.rounds(lang))]
    files = _page(
        theme,
        site,
        lang,
        t,
        urls.explore(lang),
        "explore.html",
        t("explore.title"),
        crumbs,
        **filters,
        model=model,
    )
    files[BUNDLE] = npm.script(npm.VEGA)
    return files


def _filters(model: Model, lang, t) -> dict:
    """Every round, benchmark, submitter and chip family of the record, named in this
    language, with the names the table shows and the rounds credited in the footer."""
    index, site = model.index, model.site
    benchmarks = sorted(
        (site.get("benchmarks", b) for b in model.benchmarks()),
        key=lambda b: b["name"][lang].casefold(),
    )
    sections = model.chips.by_vendor(index.accelerators.values())
    chips = [
        (vendor_name[lang] if vendor else t("chips.other"), [(e.slug, _chip_name(e, t)) for e in entities])
        for vendor, vendor_name, entities in sections
    ]
    names = {
        "benchmark": {b["id"]: b["name"][lang] for b in benchmarks},
        "chip": {slug: name for _, group in chips for slug, name in group},
        "division": {d: t(f"division.{d}") for d in DIVISIONS},
        "category": {c: t(f"category.{c}") for c in CATEGORIES},
        "status": {s: t("record.status." + s.replace(" ", "_")) for s in ("logs missing", "too few logs")},
        "submitter": submitter_names(model, lang),  # each spelling, as the language writes it
    }
    return {
        "rounds": list(site.rounds),
        "rounds_newest_first": list(site.rounds)[::-1],  # the round filter's options
        "benchmarks": benchmarks,
        "default_benchmark": _default_benchmark(model, [b["id"] for b in benchmarks]),
        "chips": chips,
        "submitters": [(e.slug, shown_name(model, lang, "submitters", e)) for e in index.submitters.values()],
        "divisions": DIVISIONS,
        "categories": CATEGORIES,
        "names": names,
        # each family's look (data/chip_looks.yaml) for the chart: [colour or None (the text's), shape]
        "looks": {slug: _look(model, slug) for slug in names["chip"]},
        "ideal_key": Markup(IDEAL_KEY),  # the scale chart's key of its dashed line
        "attribution": attribution(site, list(site.rounds)),
    }


def _default_benchmark(model: Model, order: list[str]) -> str:
    """The benchmark the explorer opens on: the one of the latest round with the most results
    (a copy counted once), the first in the filter's order on a tie; "" without a record."""
    if not model.site.rounds:
        return ""
    latest = list(model.site.rounds)[-1]
    counts = {b: model.count(model.results(b, latest)) for b in model.round_benchmarks(latest)}
    return max(sorted(counts, key=order.index), key=lambda b: counts[b], default="")


def _look(model: Model, family: str) -> list:
    look = model.look(family)
    return [look["colour"], vega_shape(look["shape"])]


def _chip_name(entity, t) -> str:
    """A family as the accelerator pages name it: the family, the unclassified string as
    published, "CPU only" in the page's language."""
    return entity.name or t("result.cpu_only")
