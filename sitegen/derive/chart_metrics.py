"""The value a chart plots for each point, by metric: time to train, speed-up or
price-performance against a baseline system, scaling efficiency within a chip family, and the
change of a system's time across rounds. Each point is (result, value, extra columns)."""

from __future__ import annotations

from sitegen.derive import figures as derive
from sitegen.derive.chart_select import BadBlock, round_key


def plotted_points(site, metric: str, rows: list[dict], per: str, baseline: str | None) -> list[tuple]:
    """The plotted points of a metric over the selected rows: the fastest result per system
    (or per vendor) in each benchmark, round and division, each with its value."""
    return COMPUTE[metric](site, fastest_each(rows, site, per), baseline)


def fastest_each(rows: list[dict], site, per: str) -> list[dict]:
    """The fastest result per system (or per vendor) in each benchmark, round and division."""
    best: dict[tuple, dict] = {}
    for r in sorted(rows, key=lambda r: (derive.minutes(r), r["id"])):
        who = site.get("systems", r["system"])["vendor"] if per == "vendor" else r["system"]
        best.setdefault((who, r["benchmark"], r["round"], r["division"]), r)
    return list(best.values())


def _slot(r: dict) -> tuple:
    return r["benchmark"], r["round"], r["division"]


def _baseline(site, baseline: str, points: list[dict]) -> dict:
    best = {}
    for r in fastest_each(site.results_for(system=baseline), site, "system"):
        best[_slot(r)] = r
    for r in points:
        if _slot(r) not in best:
            raise BadBlock(
                f"baseline '{baseline}' has no result for {r['benchmark']} {r['round']} {r['division']}"
            )
    return best


def _time(site, points, baseline):
    return [(r, derive.minutes(r), {}) for r in points]


def _speedup(site, points, baseline):
    base = _baseline(site, baseline, points)
    return [
        (r, round(derive.minutes(base[_slot(r)]) / derive.minutes(r), 4), {"time_min": derive.minutes(r)})
        for r in points
    ]


def _price_performance(site, points, baseline):
    if not site.first_price(baseline):
        raise BadBlock(f"baseline '{baseline}' has no price")
    priced = [r for r in points if site.first_price(r["system"])]
    if not priced:
        raise BadBlock("no system in the selection has a price")
    base = _baseline(site, baseline, priced)
    return [
        (
            r,
            round(derive.price_performance(site, r["id"], base[_slot(r)]["id"]), 4),
            {"time_min": derive.minutes(r), "price_usd": site.first_price(r["system"])["amount"]},
        )
        for r in priced
    ]


def _scaling(site, points, baseline):
    groups = {}
    for r in points:
        family = site.get("systems", r["system"])["family"]
        groups.setdefault((family, *_slot(r)), []).append(r)
    found = []
    for group in (g for g in groups.values() if len(g) > 1):
        group.sort(key=lambda r: (accelerator_count(site, r), r["id"]))
        small = group[0]
        for r in group:
            ratio = accelerator_count(site, r) / accelerator_count(site, small)
            value = derive.minutes(small) / derive.minutes(r) / ratio * 100
            found.append((r, round(value, 2), {"time_min": derive.minutes(r)}))
    if not found:
        raise BadBlock("scaling needs systems of one family in at least two sizes")
    return found


def _change(site, points, baseline):
    series = {}
    for r in points:
        series.setdefault((r["system"], r["benchmark"], r["division"]), []).append(r)
    found = []
    for group in series.values():
        if len({r["round"] for r in group}) < 2:
            continue
        group.sort(key=lambda r: round_key(r["round"]))
        first = derive.minutes(group[0])
        found += [
            (r, derive.minutes(r), {"change_pct": round((derive.minutes(r) / first - 1) * 100, 2)})
            for r in group
        ]
    if not found:
        raise BadBlock("change needs a system with results in at least two rounds")
    return found


COMPUTE = {
    "time": _time,
    "speedup": _speedup,
    "price_performance": _price_performance,
    "scaling": _scaling,
    "change": _change,
}


def accelerator_count(site, r: dict) -> int:
    """The accelerators a result ran on: its own count, else its curated system's."""
    return r.get("accelerator_count") or site.get("systems", r["system"])["accelerator_count"]
