"""What a chip family's page adds to the list of its results (lists.entity_pages): its
specifications (chips.yaml, with sources), its results by benchmark and round, its progress
at a fixed scale (a chart and its table), its scaling efficiency and its generation against
the previous and next. The figures come from derive/chip_figures.py; this module only puts
them in the page's words (the template record_chip.html lays them out)."""

from __future__ import annotations

from markupsafe import Markup

from sitegen.base import fmt
from sitegen.content.chip_facts import TABLE
from sitegen.derive import chip_figures, derived
from sitegen.derive import references as record_refs
from sitegen.render.charts import chip_progress


def chip_context(site, lang: str, t, index, entity) -> dict:
    """The template's chip sections for one family (empty ones for a string not classified)."""
    facts = site.tables.get(TABLE, {}).get(entity.slug) if entity.chip else None
    rounds = list(site.rounds)
    names = {b: site.get("benchmarks", b)["name"][lang] for b in {r["benchmark"] for r in entity.results}}
    series = chip_figures.progress(entity, index, rounds)
    return {
        "specs": _specs(site, facts),
        "by_benchmark": chip_figures.by_benchmark(site, entity, index, rounds),
        "progress": [_progress_row(site, lang, t, item) for item in series],
        "progress_chart": Markup(chip_progress.chip_figure(series, names, rounds, t, "chart-chip-progress")),
        "scaling": chip_figures.scaling(entity, index, rounds),
        "generations": _generations(site, index, entity, facts, rounds),
        "bench_names": names,
        "minutes": derived.minutes,
        "ratio": lambda value: fmt.ratio(value, lang),
        "percent": lambda value: fmt.percent(value * 100, lang),
    }


def _specs(site, facts: dict | None) -> list[dict]:
    """The family's figures, each with its source record (sources.yaml)."""
    return [
        {**spec, "source_record": site.get("sources", spec["source"])}
        for spec in (facts or {}).get("specs", [])
    ]


def _progress_row(site, lang: str, t, item: dict) -> dict:
    """A progress series with its gain in words: the speed-up with its rounds, `level` when
    within the benchmark's run-to-run variation (derived.noise_band)."""
    gain = item["gain"]
    row = {**item, "level": None}
    if gain:
        band = record_refs.band_of(site, item["benchmark"])
        faster, slower = sorted((derived.minutes(gain["first"]), derived.minutes(gain["last"])))
        if derived.level(faster, slower, band):
            row["level"] = fmt.percent(band * 100, lang, 2)
    return row


def _generations(site, index, entity, facts: dict | None, rounds: list[str]) -> list[dict]:
    """Per neighbouring generation (chips.yaml `follows`): its family and the comparison rows;
    a family with no results on the record has no page, and no comparison."""
    out = []
    for relation, key in chip_figures.neighbours(facts):
        other = index.accelerators.get(key)
        if other is None:
            continue
        rows = chip_figures.generation(entity, other, index, rounds, older_first=relation == "next")
        out.append({"relation": relation, "entity": other, "rows": rows})
    return out
