"""The data references of text, `[[kind:arg]]`: their syntax, the one list of kinds, and
whether a reference names something the site has. load.py checks the references in data text
with `reference_ok`; render/references.py draws each kind (its table is keyed by REFERENCE_KINDS)."""

from __future__ import annotations

import re

from sitegen.content.model import Site, submitter_name

SHORTCODE = re.compile(r"\[\[(?P<kind>[a-z_]+):(?P<arg>[^\]\s]+)\]\]")

# Every kind of reference, in the order docs/content-format.md lists them.
REFERENCE_KINDS = (
    "result",
    "claim",
    "check",
    "speedup",
    "improvement",
    "reduction",
    "ppr",
    "price",
    "spec",
    "count",
    "system",
    "benchmark",
    "source",
    "fastest",
    "equal_scale",
    "runs",
    "rounds",
    "acc_minutes",
    "accelerators",
    "at_scale",
    "tally",
    "chips",
)
# what the argument of each kind names, for the checks of load.py
PAIRS = ("speedup", "improvement", "reduction", "ppr")
TABLES = {
    "result": "results",
    "claim": "claims",
    "system": "systems",
    "benchmark": "benchmarks",
    "source": "sources",
    "price": "systems",
    "count": "systems",
}
RECORD_KINDS = ("fastest", "equal_scale", "runs", "rounds")


def submitter_matches(result: dict, who: str) -> bool:
    """`who` as written in a reference: the submitter, any case, '_' for a space."""
    return result["submitter"].lower() == submitter_name(who)


def slot(site: Site, round_id: str, benchmark: str, division: str) -> list[dict]:
    """The scored results of one round, benchmark and division, fastest first (whether a
    reference names results at all; derive/references.py ranks them, each copy once)."""
    return [
        r
        for r in site.record_results(benchmark, round_id)
        if r["division"] == division and r["value"] is not None
    ]


def rounds_of(
    site: Site, who: str | None = None, benchmark: str | None = None, after: str | None = None
) -> list[str] | None:
    """The record's rounds, oldest first, that hold a published result, scored or with its
    logs missing (of `who`, of `benchmark`, when given), only those after round `after` when
    given; None when `after` is not a round of the record."""
    order = list(site.rounds)
    if after is not None and after not in order:
        return None
    later = order[order.index(after) + 1 :] if after is not None else order
    held = site.rounds_held(who, benchmark)
    return [r for r in later if r in held]


def parse_rounds(arg: str) -> tuple[str | None, str | None, str | None] | None:
    """'<submitter|all>[/<benchmark>[,<benchmark>...]][/after/<round>]' as (who, benchmark,
    after round); 'all' means every submitter: 'Graphcore/after/v2.0', 'all/resnet'."""
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


def valid(site: Site, kind: str, arg: str) -> bool:
    """Does a reference of one of these kinds name something the record has?"""
    if kind == "fastest":
        slot_of = parse_slot(arg)
        return (
            slot_of is not None
            and bool(slot(site, *slot_of[:3]))
            and (slot_of[3] is None or site.has_submitter(slot_of[3]))
        )
    if kind == "equal_scale":
        idents, _, who = arg.partition("/")
        return all(i in site.record for i in idents.split(",")) and (who == "all" or site.has_submitter(who))
    if kind == "rounds":
        parsed = parse_rounds(arg)
        return (
            parsed is not None
            and (parsed[0] is None or site.has_submitter(parsed[0]))
            and (parsed[1] is None or all(b in site.tables["benchmarks"] for b in parsed[1].split(",")))
            and (rounds_of(site, *parsed) is not None)
        )
    return arg in site.record  # runs


def reference_ok(site, kind: str, arg: str) -> bool:
    """Whether a reference in data text names known records (claims' values need derive, so
    [[check:...]] is not allowed there)."""
    arg = arg.partition("|")[0]
    pair, _, prices = arg.partition("@")
    head, _, tail = pair.partition("/")
    results = site.record.keys()  # the curated results table holds record results only
    if kind in ("result", "acc_minutes", "accelerators"):
        return arg in results
    if kind in PAIRS:
        return (
            head in results
            and tail in results
            and all(p in site.tables["systems"] for p in prices.split("/") if p)
        )
    if kind == "spec":
        return head in site.tables["systems"]
    if kind in RECORD_KINDS:
        return valid(site, kind, arg)
    return kind in TABLES and arg in site.tables[TABLES[kind]]
