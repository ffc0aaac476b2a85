"""Head-to-head comparisons of the curated systems, with their ratios.

Every pair of systems with a shared benchmark in one round and division, and each vendor's
successive generations at the same size."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from sitegen.content.model import Site
from sitegen.content.tracking import derived_list
from sitegen.derive.figures import price_performance, speedup


@dataclass
class Row:
    """One line of a head-to-head: the same benchmark, two results, their ratios."""

    benchmark: str
    left: dict
    right: dict
    speedup: float  # right time / left time: how much faster `left` is
    price_performance: float | None


@dataclass
class Comparison:
    id: str
    left: str
    right: str
    kind: str  # same-round | generations
    rows: list[Row]


def _row(site: Site, left: dict, right: dict) -> Row:
    return Row(
        left["benchmark"],
        left,
        right,
        speedup(site, left["id"], right["id"]),
        price_performance(site, left["id"], right["id"]),
    )


def _best(results: list[dict]) -> dict[tuple, dict]:
    """The fastest result per (system, benchmark, round, division)."""
    best: dict[tuple, dict] = {}
    for r in sorted(results, key=lambda r: (r["value"], r["id"])):
        best.setdefault((r["system"], r["benchmark"], r["round"], r["division"]), r)
    return best


def comparisons(site: Site) -> list[Comparison]:
    """The head-to-head comparisons; a page that uses them depends on all they read."""
    return derived_list(site.reads, partial(_comparisons, site))


def _comparisons(site: Site) -> list[Comparison]:
    """Every pair of systems with a shared benchmark in one round and division, and every
    vendor's successive generations at the same size. Grouping keeps it linear in results."""
    best = _best(site.table("results"))
    by_slot: dict[tuple, list[dict]] = {}
    for (_system, benchmark, rnd, division), r in sorted(best.items()):
        by_slot.setdefault((benchmark, rnd, division), []).append(r)
    pairs: dict[tuple, list[Row]] = {}
    for slot_results in by_slot.values():
        for i, a in enumerate(slot_results):
            for b in slot_results[i + 1 :]:
                left, right = sorted((a, b), key=lambda r: r["system"])
                pairs.setdefault((left["system"], right["system"]), []).append(_row(site, left, right))
    found = [Comparison(f"{l}-vs-{r}", l, r, "same-round", rows) for (l, r), rows in sorted(pairs.items())]
    return found + _generations(site, best)


def _generations(site: Site, best: dict) -> list[Comparison]:
    """A newer generation against the older one of the same vendor and size, across rounds.
    Systems are grouped by (vendor, size) first, so no pair of systems is scanned twice."""
    latest: dict[str, dict[tuple, dict]] = {}  # system -> (benchmark, division) -> latest result
    for (system, benchmark, _rnd, division), r in sorted(best.items(), key=lambda kv: kv[0][2]):
        latest.setdefault(system, {})[(benchmark, division)] = r
    groups: dict[tuple, list[dict]] = {}
    for system in sorted(site.tables["systems"].values(), key=lambda s: s["id"]):
        groups.setdefault((system["vendor"], system["accelerator_count"]), []).append(system)
    found = []
    for group in groups.values():
        for new in group:
            for old in (o for o in group if o["generation"] < new["generation"]):
                mine, theirs = latest.get(new["id"], {}), latest.get(old["id"], {})
                rows = [_row(site, mine[slot], theirs[slot]) for slot in sorted(mine) if slot in theirs]
                if rows:
                    found.append(
                        Comparison(f"{new['id']}-vs-{old['id']}", new["id"], old["id"], "generations", rows)
                    )
    return sorted(found, key=lambda c: (c.left, c.right))
