"""What the scale chart of a benchmark page or leaderboard draws (render/charts/scale.py draws
it): the results drawn (scored, closed, on accelerators, a copy once), the chip families its
legend names, one row per result, the anchor of the line of ideal scaling (the fewest
accelerator-minutes, derived.least_work) and what the caption says is left out. Every family
drawn is named in the legend, each in its own look (data/chip_looks.yaml): none is grouped."""

from __future__ import annotations

from dataclasses import dataclass

from sitegen.derive import derived
from sitegen.derive.record_index import RecordIndex


@dataclass(frozen=True)
class ScaleData:
    results: list[dict]  # drawn: fewest accelerators first, then fastest
    groups: list[str]  # the chip families (index keys) drawn, in the legend's order
    rows: list[dict]  # one per drawn result (the data table, CSV and JSON)
    points: list[dict]  # the drawing's: accelerators n, time t, group g, hollow h
    anchor: dict  # the result with the fewest accelerator-minutes
    work: float  # its accelerator-minutes
    carried: bool  # a drawn result is carried over from an earlier round
    missing: int  # closed results without a time
    cpu: int  # timed closed results on processors alone
    copies: int  # timed closed results that copy another of their round


def drawn_results(results: list[dict], index: RecordIndex) -> list[dict]:
    """The results the chart draws: scored, closed division, on accelerators, not a copy of
    another result of its round (RecordIndex.counts); fewest accelerators first, then fastest."""
    return sorted(
        (
            r
            for r in index.counted(results)
            if r["division"] == "closed" and r["value"] is not None and r["accelerator_count"]
        ),
        key=lambda r: (r["accelerator_count"], r["value"], r["id"]),
    )


def family_groups(results: list[dict], index: RecordIndex) -> list[str]:
    """The chip families (index keys) drawn, each named in the legend: the most points first
    (ties by name)."""
    count: dict[str, int] = {}
    for result in results:
        key = index.accelerator_of(result)
        count[key] = count.get(key, 0) + 1
    ranked = sorted(count, key=lambda k: (-count[k], index.accelerators[k].name.casefold(), k))
    return ranked


def scale_rows(results: list[dict], index: RecordIndex) -> list[dict]:
    """One row per drawn result, the same in every language (the data table, the CSV and
    JSON downloads): a carried-over result names the round it was first published in."""
    rows = []
    for result in results:
        origin = index.carried_from(result)
        rows.append(
            {
                "result": result["id"],
                "round": result["round"],
                "submitter": result["submitter"],
                "system": result["system_name"],
                "chip_family": index.accelerators[index.accelerator_of(result)].name,
                "accelerators": result["accelerator_count"],
                "time_min": derived.minutes(result),
                "accelerator_minutes": derived.accelerator_minutes(result),
                "carried_over_from": origin["round"] if origin else None,
            }
        )
    return rows


def points_of(results: list[dict], index: RecordIndex, groups: list[str]) -> list[dict]:
    """The drawing's data: each result's accelerators, time, legend group (its family's place
    in `groups`) and whether it is carried over (drawn hollow)."""
    place = {key: i for i, key in enumerate(groups)}
    return [
        {
            "n": r["accelerator_count"],
            "t": derived.minutes(r),
            "g": place[index.accelerator_of(r)],
            "h": 1 if index.carried_from(r) else 0,
        }
        for r in results
    ]


def scale_data(every: list[dict], index: RecordIndex, missing: int) -> ScaleData | None:
    """The chart of `every` (a benchmark's results in the rounds shown); None when no result
    can be drawn. `missing`: the closed results of those rounds without a time."""
    results = drawn_results(every, index)
    anchor = derived.least_work(results)  # every drawn result has a time and accelerators
    work = derived.accelerator_minutes(anchor) if anchor else None
    if anchor is None or work is None:
        return None
    groups = family_groups(results, index)
    timed = [r for r in every if r["division"] == "closed" and r["value"] is not None]
    counted = index.counted(timed)
    return ScaleData(
        results=results,
        groups=groups,
        rows=scale_rows(results, index),
        points=points_of(results, index, groups),
        anchor=anchor,
        work=work,
        carried=any(index.carried_from(r) for r in results),
        missing=missing,
        cpu=sum(1 for r in counted if not r["accelerator_count"]),
        copies=len(timed) - len(counted),
    )
