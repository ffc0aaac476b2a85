"""What the home page shows of the record: the current suite (the latest round's benchmarks,
each with its fastest closed result, or the results level with it), the headline chart, and
every benchmark series across the rounds with its breaks (derive/suite.py)."""

from __future__ import annotations

from markupsafe import Markup

from sitegen.derive import derived, suite
from sitegen.derive import references as record_refs
from sitegen.derive.record_index import index_of
from sitegen.render.charts import headline


def suite_entries(site, latest: str) -> list[dict]:
    """Each benchmark of the latest round, in the home page's order: its table entry, its
    leaders (the fastest closed result and those level with it) and its noise band."""
    entries = []
    for benchmark_id in suite.current_suite(site):
        benchmark = site.get("benchmarks", benchmark_id)
        entries.append(
            {
                "benchmark": benchmark,
                "headline": (h := record_refs.headline(site, latest, benchmark_id)),
                "leaders": suite.leaders(h),
                "band": derived.noise_band(benchmark),
            }
        )
    return entries


def record_context(site, t, lang: str, path: str) -> dict:
    """The home template's record part; empty without a record."""
    latest = suite.latest_round(site) if site.rounds else None
    if latest is None:
        return {"headline": "", "latest_round": None}
    series = suite.all_series(site)
    index = index_of(site)
    cells = [cell for one in series for cell in one.cells.values()]
    return {
        "latest_round": latest,
        "suite": suite_entries(site, latest),
        "headline": Markup(headline.headline_figure(site, t, lang, path)),
        "series": series,
        "glance_rounds": [r for r in site.rounds if any(r in one.cells for one in series)],
        "index": index,
        # the legend explains only the marks the table shows
        "glance_marks": {
            "break": any(cell.breaks for cell in cells),
            "carried": any(cell.result and index.carried_from(cell.result) for cell in cells),
            "none": any(cell.result is None for cell in cells),
            "ahead": any(cell.headline.ahead for cell in cells),
            "unscored": any(cell.headline.unscored for cell in cells),
        },
        "bands": (derived.VISION_BAND, derived.OTHER_BAND),  # the basis of "level", stated
    }
