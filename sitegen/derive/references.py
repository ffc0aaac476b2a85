"""Statements computed over the whole MLPerf record, for the [[fastest:...]],
[[equal_scale:...]], [[runs:...]] and [[rounds:...]] references: who was fastest in a round,
benchmark and division, which result of another submitter ran at the same scale, and in which
rounds a submitter has results.

Everything here reads `site.record` (every published result), never the curated `results`
table, so that "fastest" and "no result" hold against the whole record and move with it."""
from __future__ import annotations

from sitegen.content.model import Site
from sitegen.content.references import slot, submitter_matches


def fastest(site: Site, round_id: str, benchmark: str, division: str,
            who: str | None = None) -> dict | None:
    """The fastest scored result there (of one submitter when `who` is given)."""
    return next((r for r in slot(site, round_id, benchmark, division)
                 if who is None or submitter_matches(r, who)), None)


def unscored(site: Site, round_id: str, benchmark: str, division: str, who: str | None = None,
             count: int | None = None) -> list[dict]:
    """The published results there whose logs the snapshot lacks (of `who`, with `count`
    accelerators, when given): they have no time, so a "fastest" or "no result" over the
    scored ones must name them."""
    return [r for r in site.record_results(benchmark, round_id)
            if r["division"] == division and r["value"] is None
            and (who is None or submitter_matches(r, who))
            and (count is None or r["accelerator_count"] == count)]


def equal_scale(site: Site, result: dict, who: str) -> dict | None:
    """`who`'s fastest scored result with the same round, benchmark, division and number of
    accelerators as `result`; None when the record has none."""
    return next((r for r in slot(site, result["round"], result["benchmark"], result["division"])
                 if submitter_matches(r, who) and r["accelerator_count"] == result["accelerator_count"]
                 and r["id"] != result["id"]), None)


def runs_of(result: dict) -> tuple[int, int] | None:
    """(runs in the result's logs, runs that failed or did not converge); None when the logs
    are missing. Record results list a failed run as null; site results drop it."""
    if result.get("runs") is None or result.get("runs_failed") is None:
        return None
    listed = len(result["runs"])
    if any(run is None for run in result["runs"]):
        return listed, result["runs_failed"]
    return listed + result["runs_failed"], result["runs_failed"]
