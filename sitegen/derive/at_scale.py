"""Equal scale, per round: for one benchmark and one accelerator count, each chip family's
standing result of every round, the change in time from the family's previous round at that
count, and its accelerator-minutes (the page benchmarks/<id>/at-<n>.html and the chip pages'
progress). The one rule for which counts get a view is SCALE_RULE (below).

The standing result of a family at a count in a round is its fastest Available closed-division
result (MLCommons ranks the categories apart), else, with no Available one, the fastest of the
category of its fastest result (derived.ranked_apart, as a slot's headline does); a faster
Preview or Research result is named beside it (`ahead`). A copy within a round counts once.
A change is computed only between rounds of one benchmark version (MLCommons' compatibility
table); a result carried over from an earlier round is the same runs, so it has no change."""

from __future__ import annotations

from dataclasses import dataclass

from sitegen.derive import compatibility, derived
from sitegen.derive.lazy import LazyReplayed, lazy_mapping
from sitegen.derive.questions import Figure, work_figure

# SCALE_RULE, the counts that get a view: at exactly that many accelerators, timed closed-
# division results of at least MIN_FAMILIES chip families, and of at least one family in at
# least MIN_ROUNDS rounds (so that the view shows a change from one round to the next).
MIN_FAMILIES = 2
MIN_ROUNDS = 2
SCALE_RULE = (MIN_FAMILIES, MIN_ROUNDS)
CHANGE_BASIS = "scale.change_basis"  # the sentence saying how a change is computed (i18n)


@dataclass(frozen=True)
class Cell:
    """One family's standing result at the view's count in one round."""

    round: str
    result: dict
    minutes: float  # its time to train in minutes (the chart's point)
    ahead: tuple[dict, ...]  # faster results of another category of the family there
    work: Figure | None  # accelerator-minutes
    change: Figure | None  # (time − previous time) ÷ previous time, a fraction
    previous: dict | None  # the family's standing result of its previous round at this count
    apart: bool  # previous is of a benchmark version MLCommons keeps apart: no change
    carried: str | None  # the round this result's runs were first published in


@dataclass(frozen=True)
class Row:
    """A chip family (RecordIndex.accelerators key and its name) and its cells, oldest first."""

    family: str
    name: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class View:
    benchmark: str
    scale: int
    rounds: tuple[str, ...]  # the rounds with a cell, oldest first
    rows: tuple[Row, ...]  # families by their latest round (newest first), then by name


def closed_timed(results, counts) -> list[dict]:
    """Timed closed-division results with an accelerator count, a copy once."""
    return [
        r
        for r in results
        if r["division"] == "closed"
        and derived.minutes(r) is not None
        and r.get("accelerator_count")
        and counts(r)
    ]


def scales(results: list[dict], family_of, counts) -> tuple[int, ...]:
    """The accelerator counts of one benchmark's results that get a view (SCALE_RULE)."""
    held: dict[int, dict[str, set]] = {}  # count -> family -> its rounds there
    for r in closed_timed(results, counts):
        held.setdefault(r["accelerator_count"], {}).setdefault(family_of(r), set()).add(r["round"])
    return tuple(
        n
        for n in sorted(held)
        if len(held[n]) >= MIN_FAMILIES and any(len(rounds) >= MIN_ROUNDS for rounds in held[n].values())
    )


def standing(rows: list[dict]) -> tuple[dict, tuple[dict, ...]]:
    """Of one family's results at one count in one round: the standing result and the faster
    results of other categories (the first of each), as references.headline ranks a slot."""
    rows = sorted(rows, key=lambda r: (derived.minutes(r), r["id"]))
    best = derived.ranked_apart(rows)[0]
    ahead: dict[str, dict] = {}
    for r in rows[: rows.index(best)]:
        ahead.setdefault(r["category"], r)
    return best, tuple(ahead.values())


def change(site, previous: dict, now: dict) -> Figure | None:
    """The change in time from `previous` to `now` as a fraction (−0.25: a quarter less time);
    None across versions MLCommons keeps apart."""
    if not compatibility.compatible(site, previous, now):
        return None
    before, after = _minutes(previous), _minutes(now)
    return Figure((after - before) / before, (previous["id"], now["id"]), CHANGE_BASIS)


def _minutes(result: dict) -> float:
    """The time of a result of closed_timed (which has one)."""
    found = derived.minutes(result)
    if found is None:
        raise ValueError(f"{result['id']} has no time")
    return found


def family_cells(site, results: list[dict], rounds: list[str], carried_from) -> tuple[Cell, ...]:
    """One family's cells at one count: results of one benchmark, family and count."""
    by_round: dict[str, list[dict]] = {}
    for r in results:
        by_round.setdefault(r["round"], []).append(r)
    cells: list[Cell] = []
    for round_id in (r for r in rounds if r in by_round):
        best, ahead = standing(by_round[round_id])
        origin = carried_from(best)
        previous = cells[-1].result if cells else None
        figure = change(site, previous, best) if previous and origin is None else None
        apart = previous is not None and not compatibility.compatible(site, previous, best)
        cells.append(
            Cell(
                round_id,
                best,
                _minutes(best),
                ahead,
                work_figure(best),
                figure,
                previous,
                apart,
                origin and origin["round"],
            )
        )
    return tuple(cells)


def view(site, index, benchmark: str, scale: int, results: list[dict]) -> View:
    """The view of one benchmark (`results`: all of its results) at `scale` accelerators."""
    rounds = list(site.rounds)
    mine: dict[str, list[dict]] = {}
    for r in closed_timed(results, index.counts):
        if r["accelerator_count"] == scale:
            mine.setdefault(index.accelerator_of(r), []).append(r)
    rows = [
        Row(key, index.accelerators[key].name, family_cells(site, found, rounds, index.carried_from))
        for key, found in mine.items()
    ]
    rows.sort(key=lambda row: (-rounds.index(row.cells[-1].round), row.name.casefold(), row.family))
    held = {cell.round for row in rows for cell in row.cells}
    return View(benchmark, scale, tuple(r for r in rounds if r in held), tuple(rows))


def with_changes(site, points: list[dict]) -> list[dict]:
    """A chip page's progress points (chip_figures.progress, one series, oldest first), each
    with its change from the point before (`change`, None for the first, for one carried over
    and across versions)."""
    out = []
    for i, point in enumerate(points):
        before = points[i - 1]["result"] if i else None
        figure = change(site, before, point["result"]) if before and point["carried"] is None else None
        out.append({**point, "change": figure})
    return out


def views(site, index, benchmarks: list[str]) -> tuple[LazyReplayed, LazyReplayed]:
    """The model's maps (model.build): benchmark -> its counts with a view, and (benchmark,
    count) -> the view, each computed when first read (lazy.py); reading an entry counts as
    reading the benchmark's results."""
    reads = site.reads

    def every(benchmark: str) -> list[dict]:
        return [
            r for round_id in site.record_rounds(benchmark) for r in site.record_results(benchmark, round_id)
        ]

    def counts_of(benchmark: str):
        return lambda: scales(every(benchmark), index.accelerator_of, index.counts)

    def view_of(benchmark: str, scale: int):
        return lambda: view(site, index, benchmark, scale, every(benchmark))

    found = lazy_mapping(reads, lambda: ((b, counts_of(b)) for b in benchmarks))

    def listed():
        with reads.paused():  # the counts' own reads count for each view
            return ((key, view_of(*key)) for key in [(b, n) for b in benchmarks for n in found[b]])

    return found, lazy_mapping(reads, listed)
