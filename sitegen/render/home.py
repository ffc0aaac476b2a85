"""What the home page shows of the record: the current suite (the latest round's benchmarks,
each with its fastest closed result, or the results level with it), the headline chart, and
every benchmark series across the rounds with its breaks (derive/suite.py)."""

from __future__ import annotations

from markupsafe import Markup

from sitegen.derive.model import Model
from sitegen.render.charts import headline


def suite_entries(model: Model, latest: str) -> list[dict]:
    """Each benchmark of the latest round, in the home page's order: its table entry, its
    leaders (the fastest closed result and those level with it) and its noise band."""
    entries = []
    for benchmark_id in model.suite:
        benchmark = model.site.get("benchmarks", benchmark_id)
        entries.append(
            {
                "benchmark": benchmark,
                "headline": (h := model.headline(latest, benchmark_id)),
                "leaders": (leaders := model.figures.leaders(h)),
                "shared": len(leaders) > 1,  # several results level: the lead is shared
                "band": model.figures.noise_band(benchmark),
            }
        )
    return entries


def break_titles(model: Model, t, lang: str) -> dict[tuple[str, str], str]:
    """The title of each cell of the series table where its series breaks, by (series, round):
    a new version of the same benchmark, or another benchmark."""
    return {
        (one.key, rnd): t(
            "home.glance.version_break_title" if cell.same_benchmark else "home.glance.break_title",
            name=model.site.get("benchmarks", cell.benchmark)["name"][lang],
        )
        for one in model.series
        for rnd, cell in one.cells.items()
        if cell.breaks
    }


def record_context(model: Model, t, lang: str, path: str) -> dict:
    """The home template's record part; empty without a record."""
    site = model.site
    latest = model.latest_round if site.rounds else None
    if latest is None:
        return {"headline": "", "latest_round": None}
    series = model.series
    index = model.index
    cells = [cell for one in series for cell in one.cells.values()]
    return {
        "latest_round": latest,
        "suite": suite_entries(model, latest),
        "headline": Markup(headline.headline_figure(model, t, lang, path)),
        "series": series,
        # the table's columns, the newest round first, and each series' names, the newest first
        "glance_rounds": [r for r in reversed(site.rounds) if any(r in one.cells for one in series)],
        "series_names": {one.key: one.benchmarks[::-1] for one in series},
        "break_titles": break_titles(model, t, lang),
        "index": index,
        # the legend explains only the marks the table shows
        "glance_marks": {
            "break": any(cell.breaks for cell in cells),
            "carried": any(cell.result and index.carried_from(cell.result) for cell in cells),
            "none": any(cell.result is None for cell in cells),
            "ahead": any(cell.headline.ahead for cell in cells),
            "unscored": any(cell.headline.unscored for cell in cells),
        },
        "bands": model.figures.bands,  # the basis of "level", stated
    }
