"""Statements computed over the whole MLPerf record, for the [[fastest:...]],
[[equal_scale:...]], [[runs:...]] and [[rounds:...]] references: who was fastest in a round,
benchmark and division (and who was level with it, within the benchmark's noise band), which
result of another submitter (or of every other submitter) ran at the same scale, and in which
rounds a submitter has results.

Everything here reads `site.record` (every published result), never the curated `results`
table, so that "fastest" and "no result" hold against the whole record and move with it."""

from __future__ import annotations

from dataclasses import dataclass

from sitegen.content.model import Site
from sitegen.content.references import submitter_matches
from sitegen.derive import derived
from sitegen.derive.record_index import index_of


def slot(site: Site, round_id: str, benchmark: str, division: str) -> list[dict]:
    """The scored results of one round, benchmark and division, fastest first; a copy of
    another result of the round (carryover.py) is counted once, as its original."""
    return [
        r
        for r in index_of(site).counted(site.record_results(benchmark, round_id))
        if r["division"] == division and r["value"] is not None
    ]


def fastest(site: Site, round_id: str, benchmark: str, division: str, who: str | None = None) -> dict | None:
    """The fastest scored result there (of one submitter when `who` is given)."""
    return next(
        (r for r in slot(site, round_id, benchmark, division) if who is None or submitter_matches(r, who)),
        None,
    )


@dataclass(frozen=True)
class Headline:
    """A round's fastest result of a benchmark and division as a headline slot shows it
    (the home page, a benchmark's fastest of each round, a round's fastest per benchmark)."""

    best: dict | None  # the fastest Available result, else the fastest of another category
    level: tuple[dict, ...]  # results of best's category level with it (the noise band)
    ahead: tuple[dict, ...]  # the fastest Preview and Research results, where faster than best
    unscored: tuple[dict, ...]  # results of the slot without a score: logs missing, too few

    @property
    def unscored_count(self) -> int:
        return len(self.unscored)

    @property
    def unscored_largest(self) -> int:
        """The largest accelerator count among the results without a score (0 without)."""
        return max((r["accelerator_count"] or 0 for r in self.unscored), default=0)

    @property
    def unscored_why(self) -> list[str]:
        """Why they have none: their statuses ("logs_missing", "too_few_logs"), each once."""
        return sorted({r["status"].replace(" ", "_") for r in self.unscored})


def headline(site: Site, round_id: str, benchmark: str, division: str = "closed") -> Headline:
    """The slot's headline: Available results ranked apart from Preview and Research ones
    (MLCommons' categories), a faster result of another category named beside the fastest,
    and the results without a score named with their scale."""
    rows = slot(site, round_id, benchmark, division)
    ranked = derived.ranked_apart(rows)
    if not ranked:
        return Headline(None, (), (), tuple(unscored(site, round_id, benchmark, division)))
    best = ranked[0]
    ahead: dict[str, dict] = {}  # the first (fastest) result of each other category before best
    for r in rows[: rows.index(best)]:
        ahead.setdefault(r["category"], r)
    return Headline(
        best,
        tuple(level_with_first(site, ranked, benchmark)),
        tuple(ahead.values()),
        tuple(unscored(site, round_id, benchmark, division)),
    )


def band_of(site: Site, benchmark: str) -> float:
    """The benchmark's noise band (derived.noise_band: ±2.5 % for vision, else ±5 %)."""
    return derived.noise_band(site.get("benchmarks", benchmark))


def level_with_fastest(
    site: Site, round_id: str, benchmark: str, division: str, who: str | None = None
) -> list[dict]:
    """The scored results there (of one submitter when `who` is given) level with the fastest:
    within the benchmark's noise band of its time. A "fastest" names them: it is no clear lead."""
    rows = [r for r in slot(site, round_id, benchmark, division) if who is None or submitter_matches(r, who)]
    return level_with_first(site, rows, benchmark)


def level_with(site: Site, best: dict, results) -> list[dict]:
    """Of `results`, those of best's benchmark and division level with `best` (a fastest
    result among them), fastest first: level_with_first with `best` put first."""
    rivals = sorted(
        (
            r
            for r in results
            if r["benchmark"] == best["benchmark"]
            and r["division"] == best["division"]
            and derived.minutes(r) is not None
        ),
        key=lambda r: (r["id"] != best["id"], derived.minutes(r), r["id"]),
    )
    return level_with_first(site, rivals, best["benchmark"])


def level_with_first(site: Site, rows: list[dict], benchmark: str) -> list[dict]:
    """Of `rows` (one benchmark's results, fastest first), those level with the first: within
    the benchmark's noise band of its time, a repeat of the same runs counted once
    (derived.level_with_first with RecordIndex.original)."""
    return derived.level_with_first(rows, band_of(site, benchmark), index_of(site).original)


def unscored(
    site: Site, round_id: str, benchmark: str, division: str, who: str | None = None, count: int | None = None
) -> list[dict]:
    """The published results there without a score (of `who`, with `count` accelerators, when
    given): their logs are missing, or fewer than the round's rules require (carryover.py), so
    they have no time, and a "fastest" or "no result" over the scored ones must name them."""
    return [
        r
        for r in index_of(site).counted(site.record_results(benchmark, round_id))
        if r["division"] == division
        and r["value"] is None
        and (who is None or submitter_matches(r, who))
        and (count is None or r["accelerator_count"] == count)
    ]


def equal_scale(site: Site, result: dict, who: str) -> dict | None:
    """`who`'s fastest scored result with the same round, benchmark, division and number of
    accelerators as `result`; None when the record has none."""
    return next(
        (
            r
            for r in slot(site, result["round"], result["benchmark"], result["division"])
            if submitter_matches(r, who)
            and r["accelerator_count"] == result["accelerator_count"]
            and r["id"] != result["id"]
        ),
        None,
    )


def equal_scale_others(site: Site, result: dict) -> list[dict]:
    """Every other submitter's fastest scored result with the same round, benchmark, division
    and number of accelerators as `result`, fastest first ([[equal_scale:ID/all]])."""
    found: dict[str, dict] = {}
    for other in slot(site, result["round"], result["benchmark"], result["division"]):
        if (
            other["accelerator_count"] == result["accelerator_count"]
            and other["submitter"].lower() != result["submitter"].lower()
        ):
            found.setdefault(other["submitter"].lower(), other)
    return list(found.values())


def runs_of(result: dict) -> tuple[int, int] | None:
    """(runs in the result's logs, runs that failed or did not converge); None when the logs
    are missing. Record results list a failed run as null; site results drop it."""
    if result.get("runs") is None or result.get("runs_failed") is None:
        return None
    listed = len(result["runs"])
    if any(run is None for run in result["runs"]):
        return listed, result["runs_failed"]
    return listed + result["runs_failed"], result["runs_failed"]
