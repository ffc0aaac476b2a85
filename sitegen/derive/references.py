"""Statements computed over the whole MLPerf record, for the [[fastest:...]],
[[equal_scale:...]], [[runs:...]] and [[rounds:...]] references: who was fastest in a round,
benchmark and division, which result of another submitter ran at the same scale, and in which
rounds a submitter has results.

Everything here reads `site.record` (every published result), never the curated `results`
table, so that "fastest" and "no result" hold against the whole record and move with it."""
from __future__ import annotations

from sitegen.content.model import Site, submitter_name


def submitter_matches(result: dict, who: str) -> bool:
    """`who` as written in a reference: the submitter, any case, '_' for a space."""
    return result["submitter"].lower() == submitter_name(who)


def slot(site: Site, round_id: str, benchmark: str, division: str) -> list[dict]:
    """The scored results of one round, benchmark and division, fastest first."""
    return [r for r in site.record_results(benchmark, round_id)
            if r["division"] == division and r["value"] is not None]


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


def rounds_of(site: Site, who: str | None = None, benchmark: str | None = None,
              after: str | None = None) -> list[str] | None:
    """The record's rounds, oldest first, that hold a published result, scored or with its
    logs missing (of `who`, of `benchmark`, when given), only those after round `after` when
    given; None when `after` is not a round of the record."""
    order = list(site.rounds)
    if after is not None and after not in order:
        return None
    later = order[order.index(after) + 1:] if after is not None else order
    held = site.rounds_held(who, benchmark)
    return [r for r in later if r in held]


def parse_rounds(arg: str) -> tuple[str | None, str | None, str | None] | None:
    """'<submitter|all>[/<benchmark>][/after/<round>]' as (who, benchmark, after round);
    'all' means every submitter: 'Graphcore/after/v2.0', 'all/resnet'."""
    parts = arg.split("/")
    after = None
    if len(parts) >= 3 and parts[-2] == "after":
        after, parts = parts[-1], parts[:-2]
    if len(parts) not in (1, 2) or not all(parts) or not (after is None or after):
        return None
    who = None if parts[0] == "all" else parts[0]
    return who, (parts[1] if len(parts) == 2 else None), after


def parse_slot(arg: str) -> tuple[str, str, str, str | None] | None:
    """'v1.0/resnet/closed' or 'v1.0/resnet/closed/NVIDIA' as (round, benchmark, division, who)."""
    parts = arg.split("/")
    if len(parts) not in (3, 4) or parts[2] not in ("closed", "open"):
        return None
    return parts[0], parts[1], parts[2], (parts[3] if len(parts) == 4 else None)


def runs_of(result: dict) -> tuple[int, int] | None:
    """(runs in the result's logs, runs that failed or did not converge); None when the logs
    are missing. Record results list a failed run as null; site results drop it."""
    if result.get("runs") is None or result.get("runs_failed") is None:
        return None
    listed = len(result["runs"])
    if any(run is None for run in result["runs"]):
        return listed, result["runs_failed"]
    return listed + result["runs_failed"], result["runs_failed"]


def valid(site: Site, kind: str, arg: str) -> bool:
    """Does a reference of one of these kinds name something the record has?"""
    if kind == "fastest":
        parsed = parse_slot(arg)
        return bool(parsed) and bool(slot(site, *parsed[:3])) and (
            parsed[3] is None or site.has_submitter(parsed[3]))
    if kind == "equal_scale":
        ident, _, who = arg.partition("/")
        return ident in site.record and site.has_submitter(who)
    if kind == "rounds":
        parsed = parse_rounds(arg)
        return bool(parsed) and (parsed[0] is None or site.has_submitter(parsed[0])) and (
            parsed[1] is None or parsed[1] in site.tables["benchmarks"]) and (
            rounds_of(site, *parsed) is not None)
    return arg in site.record   # runs
