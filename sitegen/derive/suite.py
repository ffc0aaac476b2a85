"""The current suite and the record's benchmark series, for the home page: which benchmarks
the latest round holds (those with `suite_order` in benchmarks.yaml first), the fastest closed
result of each with the results level with it (within the benchmark's noise band,
derived.py), and every series across the rounds with a break where its benchmark id changes.

Everything reads the record through the site's views (record_results, record_rounds,
round_benchmarks) and the record index, so the incremental build notes what the page used."""

from __future__ import annotations

from dataclasses import dataclass, field

from sitegen.derive import compatibility
from sitegen.derive.references import Headline, headline


def latest_round(site) -> str | None:
    """The newest round of the record that holds a result, or None without a record."""
    return next((r for r in reversed(list(site.rounds)) if site.round_benchmarks(r)), None)


def _position(site) -> dict[str, int]:
    return {b["id"]: i for i, b in enumerate(site.table("benchmarks"))}


def lead_order(site, benchmark_ids) -> list[str]:
    """Benchmarks in the home page's order: those with `suite_order` first, in its order, then
    the others in the order of benchmarks.yaml (ids it lacks last, by id)."""
    position = _position(site)

    def key(ident: str):
        entry = site.tables["benchmarks"].get(ident) or {}
        order = entry.get("suite_order")
        return (order is None, order or 0, position.get(ident, len(position)), ident)

    return sorted(benchmark_ids, key=key)


def current_suite(site) -> list[str]:
    """The latest round's benchmarks (each with a result there), in the home page's order."""
    latest = latest_round(site)
    return lead_order(site, site.round_benchmarks(latest)) if latest else []


def leaders(h: Headline) -> list[dict]:
    """A headline's fastest result and every result of its category level with it (within the
    benchmark's noise band), fastest first. Empty when none has a time."""
    return [h.best, *h.level] if h.best else []


def series_of(site, benchmark_id: str) -> str:
    """The series a benchmark belongs to: its `series` followed to the end (a benchmark
    without one is its own series)."""
    seen = [benchmark_id]
    while True:
        ahead = (site.tables["benchmarks"].get(seen[-1]) or {}).get("series")
        if not ahead or ahead in seen:
            return seen[-1]
        seen.append(ahead)


@dataclass
class Cell:
    """One round of a series: the benchmark held, its closed-division headline (its fastest
    Available result, faster results of other categories, results without a score), and
    whether the benchmark id changed since the row's last cell."""

    benchmark: str
    headline: Headline
    breaks: bool = False
    same_benchmark: bool = False  # a break within one benchmark: another version of it

    @property
    def result(self) -> dict | None:
        return self.headline.best


@dataclass
class Series:
    key: str  # the id of its latest benchmark
    benchmarks: list[str] = field(default_factory=list)  # oldest first
    cells: dict[str, Cell] = field(default_factory=dict)  # by round


def all_series(site, headline_of=None) -> list[Series]:
    """Every series of the record with a cell per round it holds: the current suite's series
    first (in its order), then the others by their latest round (newest first).
    `headline_of(round, benchmark)`: the closed slot's headline, when already computed."""
    headline_of = headline_of or (lambda round_id, benchmark_id: headline(site, round_id, benchmark_id))
    rounds = list(site.rounds)
    found: dict[str, Series] = {}
    for benchmark_id in lead_order(site, site.record_benchmarks()):
        key = series_of(site, benchmark_id)
        found.setdefault(key, Series(key)).benchmarks.append(benchmark_id)
    for one in found.values():
        held = sorted(
            ((r, b) for b in one.benchmarks for r in site.record_rounds(b)),
            key=lambda pair: (rounds.index(pair[0]), one.benchmarks.index(pair[1])),
        )
        one.benchmarks.sort(key=lambda b: rounds.index(site.record_rounds(b)[0]))
        last = None
        for round_id, benchmark_id in held:
            if round_id in one.cells:  # two ids of a series in one round: the record has none
                continue
            # a break where the benchmark changes, or its version (MLCommons' compatibility table)
            here = (benchmark_id, compatibility.version_of(site, benchmark_id, round_id))
            breaks = last not in (None, here)
            within = breaks and last is not None and last[0] == benchmark_id
            one.cells[round_id] = Cell(benchmark_id, headline_of(round_id, benchmark_id), breaks, within)
            last = here
    suite = [series_of(site, b) for b in current_suite(site)]

    def order(one: Series):
        newest = max(rounds.index(r) for r in one.cells)
        return (suite.index(one.key) if one.key in suite else len(suite), -newest)

    return sorted(found.values(), key=order)  # stable: ties keep lead_order
