"""What a chip family's page adds to the list of its results (lists.entity_pages): its
specifications (chips.yaml, with sources), its results by benchmark and round, its progress
at a fixed scale (a chart and its table), its scaling efficiency and its generation against
the previous and next. The figures come from derive/chip_figures.py; this module only puts
them in the page's words (the template record_chip.html lays them out)."""

from __future__ import annotations

from markupsafe import Markup

from sitegen.base import fmt
from sitegen.base.languages import Language
from sitegen.content.chip_facts import TABLE
from sitegen.derive.model import Model
from sitegen.render.charts import small_multiples
from sitegen.render.charts.scale import look_key
from sitegen.render.record.at_scale import change_text


def chip_context(model: Model, lang: str, t, entity) -> dict:
    """The template's chip sections for one family (empty ones for a string not classified)."""
    site = model.site
    facts = site.tables.get(TABLE, {}).get(entity.slug) if entity.chip else None
    rounds = list(site.rounds)
    names = {b: site.get("benchmarks", b)["name"][lang] for b in {r["benchmark"] for r in entity.results}}
    figures = model.chip(entity, facts)
    return {
        "specs": _specs(site, facts),
        "by_benchmark": figures.by_benchmark,
        "progress": [_progress_row(t.language, item, model.index) for item in figures.progress],
        "progress_chart": Markup(
            _progress_chart(figures.progress, names, rounds, t, lang, model.look(entity.slug))
        ),
        "change": lambda figure: change_text(t, lang, figure),
        "scaling": figures.scaling,
        # the family's colour and shape on every chart (data/chip_looks.yaml); none unclassified
        "look_key": Markup(look_key(model.look(entity.slug))) if entity.chip else None,
        "generations": figures.generations,
        "relations": _relations(figures.generations),
        # rows of the long tables, said in their folded summaries
        "table_rows": {
            "by_benchmark": sum(len(b["rounds"]) for b in figures.by_benchmark),
            "progress": len(figures.progress),
            "scaling": len(figures.scaling),
            "generations": [len(g["rows"]) for g in figures.generations],
        },
        "bench_names": names,
        "minutes": model.figures.minutes,
        "ratio": lambda value: fmt.ratio(value, t.language),
        "percent": lambda value: fmt.percent(value * 100, t.language),
    }


def _relations(generations: list[dict]) -> list[tuple[str, list[dict]]]:
    """The family's generations by relation (previous, next), each relation once, in the order
    the generations come: one line each on the page."""
    relations = dict.fromkeys(g["relation"] for g in generations)
    return [(relation, [g for g in generations if g["relation"] == relation]) for relation in relations]


def _specs(site, facts: dict | None) -> list[dict]:
    """The family's figures, each with its source record (sources.yaml)."""
    return [
        {**spec, "source_record": site.get("sources", spec["source"])}
        for spec in (facts or {}).get("specs", [])
    ]


def _progress_row(lang: Language, item: dict, index) -> dict:
    """A progress series with its gain in words: `level` (the band, in the page's numbers)
    when the gain is within the benchmark's run-to-run variation (Model.chip)."""
    level = fmt.percent(item["level_band"] * 100, lang, 2) if item["level_band"] else None
    return {**item, "level": level, "points": _said_once(item["points"], index)}


def _said_once(points: list[dict], index) -> list[dict]:
    """Each point with `again`: carried over from the same result as the point before, so
    that the page says those runs once (RecordIndex.carried_from)."""
    marked, before = [], None
    for point in points:
        origin = index.carried_from(point["result"])
        marked.append({**point, "again": origin is not None and origin["id"] == before})
        before = origin["id"] if origin else None
    return marked


def _progress_chart(series: list[dict], names: dict, rounds: list[str], t, lang: str, look: dict) -> str:
    """Small multiples of the progress series: a panel per benchmark and scale, each with its
    own time axis (benchmarks take minutes to hours), over the rounds any series holds."""
    held = {point["round"] for item in series for point in item["points"]}
    drawn = [r for r in rounds if r in held]
    panels = [
        {
            "key": f"{item['benchmark']}-{item['scale']}",
            "look": look,  # every panel is this family's
            "title": t(
                "chip.progress.panel",
                benchmark=names[item["benchmark"]],
                n=fmt.number(item["scale"], t.language, 0),
            ),
            "points": [
                {
                    "x": drawn.index(p["round"]),
                    "t": p["minutes"],
                    "hollow": p["carried"] is not None,
                    "apart": False,
                }
                for p in item["points"]
            ],
        }
        for item in series
    ]
    return small_multiples.figure(
        panels, drawn, t("chip.progress.multiples"), "chart-chip-progress", shared=False
    )
