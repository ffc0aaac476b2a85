"""Which results a ```chart or ```results block shows: its fields checked, and the curated
results it selects (benchmark, round, division, systems), in the blocks' order. Pure data:
chart_plan.py makes a chart of them, chart_metrics.py the value of each point."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sitegen.derive import figures as derive

SELECT_FIELDS = ("benchmark", "round", "division", "systems")
RESULTS_FIELDS = SELECT_FIELDS + ("caption",)
DIVISIONS = ("closed", "open", "both")


class BadBlock(Exception):
    """A mistake in a block; the message goes to page.fail with the block's line."""


@dataclass
class Selection:
    benchmarks: list[str]
    division: str
    rows: list[dict]


def round_key(name: str) -> tuple:
    return tuple(int(n) for n in re.findall(r"\d+", name)) + (name,)


def as_list(value) -> list[str]:
    if value is None:
        return []
    return [str(v) for v in (value if isinstance(value, list) else [value])]


def benchmark_ids(site, params: dict) -> list[str]:
    """The block's benchmarks (`benchmark:`, one id or a list), each one the site knows."""
    found = as_list(params.get("benchmark"))
    if not found:
        raise BadBlock("needs 'benchmark: <id>' (one id or a list)")
    for ident in found:
        if ident not in site.tables["benchmarks"]:
            raise BadBlock(f"unknown benchmark '{ident}'")
    return found


def select(site, params: dict, known: tuple) -> Selection:
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise BadBlock(f"unknown field '{unknown[0]}' (known: {', '.join(sorted(known))})")
    benchmarks = benchmark_ids(site, params)
    division = str(params.get("division", "both"))
    if division not in DIVISIONS:
        raise BadBlock(f"division must be closed, open or both, not '{division}'")
    systems = as_list(params.get("systems"))
    if site.rounds and not systems:  # the curated systems' results are not a round's results
        raise BadBlock(
            "needs 'systems: [<id>, ...]': with the MLPerf record, a block shows the "
            "systems it names; a round's every result is on its leaderboard"
        )
    for ident in systems:
        if ident not in site.tables["systems"]:
            raise BadBlock(f"unknown system '{ident}'")
    rounds = as_list(params.get("round"))
    rows = [
        r
        for r in site.table("results")
        if r["benchmark"] in benchmarks
        and (not rounds or r["round"] in rounds)
        and division in ("both", r["division"])
        and (not systems or r["system"] in systems)
    ]
    if not rows:
        raise BadBlock("the selection matches no result")
    rows.sort(
        key=lambda r: (
            benchmarks.index(r["benchmark"]),
            round_key(r["round"]),
            r["division"],
            derive.minutes(r),
            r["id"],
        )
    )
    return Selection(benchmarks, division, rows)


def results_rows(site, params: dict, page, line: int) -> list[dict] | None:
    """The rows of a ```results block (the chart selection fields, without metric)."""
    try:
        return select(site, params, RESULTS_FIELDS).rows
    except BadBlock as exc:
        page.fail(line, f"results block: {exc}")
        return None
