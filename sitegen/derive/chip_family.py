"""What the model gives of one chip family: its page's figures (chip_figures.py) with the
noise band of each progress series, the views at equal scale it links to and its neighbouring
generations; and its progress at one scale, which a report's family_at_scale chart draws."""

from __future__ import annotations

from types import SimpleNamespace

from sitegen.content.model import Site
from sitegen.derive import at_scale, chip_figures, compatibility, derived
from sitegen.derive import figures as claim_figures
from sitegen.derive import references as statements_module
from sitegen.derive.record_index import Entity, RecordIndex


def page_figures(
    site: Site, index: RecordIndex, views, entity: Entity, facts: dict | None
) -> SimpleNamespace:
    """A chip family's page's figures: results by benchmark and round, progress at a fixed
    scale (each series' `level_band`: the noise band when its gain is within it, else None),
    scaling efficiency, and against its neighbouring generations. `views`: Model.at_scale."""
    rounds = list(site.rounds)
    progress_rows = _progress_rows(site, index, views, entity, rounds)
    generations = _generations(index, entity, facts, rounds)
    return SimpleNamespace(
        by_benchmark=chip_figures.by_benchmark(site, entity, index, rounds),
        progress=progress_rows,
        scaling=chip_figures.scaling(entity, index, rounds),
        generations=generations,
    )


def _progress_rows(site: Site, index: RecordIndex, views, entity: Entity, rounds: list[str]) -> list[dict]:
    """Each progress series with its points' changes, its noise band when level, and whether
    a view at equal scale exists for its benchmark and scale."""
    rows = []
    for item in chip_figures.progress(entity, index, rounds):
        gain, band = item["gain"], None
        if gain:
            within = statements_module.band_of(site, item["benchmark"])
            faster, slower = sorted(
                (claim_figures.minutes(gain["first"]), claim_figures.minutes(gain["last"]))
            )
            band = within if derived.level(faster, slower, within) else None
        points = at_scale.with_changes(site, item["points"])
        view = (item["benchmark"], item["scale"]) in views
        rows.append({**item, "points": points, "level_band": band, "view": view})
    return rows


def _generations(index: RecordIndex, entity: Entity, facts: dict | None, rounds: list[str]) -> list[dict]:
    """The family against its previous and next generation (chips.yaml `follows`)."""
    found = []
    for relation, key in chip_figures.neighbours(facts):
        other = index.accelerators.get(key)
        if other is not None:  # a family with no results on the record has no page
            rows = chip_figures.generation(entity, other, index, rounds, older_first=relation == "next")
            found.append({"relation": relation, "entity": other, "rows": rows})
    return found


def progress_at(site: Site, index: RecordIndex, family: str, benchmark: str, scale: int) -> list[dict]:
    """A chip family's fastest closed result at `scale` accelerators in each round, as
    progress points (record_index.progress's shape: the time in minutes)."""
    mine = [r for r in index.accelerators[family].results if r["benchmark"] == benchmark]
    points = []
    for round_id, best in derived.progress_at_scale(mine, scale, list(site.rounds), index.counts):
        origin = index.carried_from(best)
        version = compatibility.version_of(site, benchmark, round_id)
        points.append(
            {
                "round": round_id,
                "value": derived.minutes(best),
                "id": best["id"],
                "version": round_id if version is None else version,
                "carried": origin and origin["round"],
            }
        )
    return points
