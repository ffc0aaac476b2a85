"""Statements over the whole record that rest on derived figures (derived.py), for the
[[acc_minutes:...]], [[at_scale:...]], [[tally:...]] and [[chips:...]] references: a result's accelerator-minutes, one chip family's
fastest closed result at a fixed scale in a round set against another's (or the same family's
in another round), and how many results, submitters and chip families a benchmark had in a round.

Every function reads `site.record` through the record index (copies within a round counted
once, carryover.py), so the figures move with the record."""

from __future__ import annotations

from dataclasses import dataclass

from sitegen.content.chips import CPU_ONLY
from sitegen.content.model import Site
from sitegen.derive import derived
from sitegen.derive.record_index import index_of
from sitegen.derive.references import band_of


def family_at_scale(site: Site, benchmark: str, family: str, scale: int, round_id: str) -> dict | None:
    """The chip family's fastest closed-division result with exactly `scale` accelerators in
    that round and benchmark (a copy counted once, as its original), or None."""
    index = index_of(site)
    mine = [r for r in site.record_results(benchmark, round_id) if index.accelerator_of(r) == family]
    found = derived.progress_at_scale(mine, scale, [round_id], index.counts)
    return found[0][1] if found else None


@dataclass
class Comparison:
    """Two results at one scale: `after` set against `before` (time before / time after)."""

    before: dict
    after: dict
    speedup: float
    level: bool  # the slower within the benchmark's noise band of the faster
    band: float


def compare_at_scale(
    site: Site, benchmark: str, scale: int, before: tuple[str, str], after: tuple[str, str]
) -> Comparison | None:
    """(family, round) `after` against (family, round) `before` at `scale` accelerators: both
    sides' fastest closed results there; None when either side has none."""
    one = family_at_scale(site, benchmark, before[0], scale, before[1])
    two = family_at_scale(site, benchmark, after[0], scale, after[1])
    if one is None or two is None:
        return None
    band = band_of(site, benchmark)
    t_one, t_two = derived.minutes(one), derived.minutes(two)
    return Comparison(one, two, derived.speedup(one, two), derived.level(t_one, t_two, band), band)  # type: ignore[arg-type]


def tally(site: Site, benchmark: str, round_id: str) -> tuple[int, int, int]:
    """(results, submitters, chip families) published for a benchmark in a round, both
    divisions, results without a time included; a copy within the round counted once."""
    index = index_of(site)
    results = index.counted(site.record_results(benchmark, round_id))
    families = {index.accelerator_of(r) for r in results} - {CPU_ONLY}
    return len(results), len({index.submitter_of(r) for r in results}), len(families)


def chips_of(site: Site, benchmark: str, round_id: str) -> list[tuple[str, str, int]]:
    """(family slug, family name, results) of each chip family with a published result of the
    benchmark in the round, in the order of the accelerator index (chips.yaml); copies once."""
    index = index_of(site)
    counted: dict[str, int] = {}
    for result in index.counted(site.record_results(benchmark, round_id)):
        key = index.accelerator_of(result)
        if key != CPU_ONLY:
            counted[key] = counted.get(key, 0) + 1
    return [(key, entity.name, counted[key]) for key, entity in index.accelerators.items() if key in counted]


def parse_side(text: str) -> tuple[str, str] | None:
    """'nvidia-h100@v4.0' as (family slug, round)."""
    family, at, round_id = text.partition("@")
    return (family, round_id) if family and at and round_id else None


def parse_at_scale(arg: str) -> tuple[str, int, tuple[str, str], tuple[str, str]] | None:
    """'<benchmark>/<scale>/<family>@<round>/<family>@<round>' as (benchmark, scale, before,
    after); None when it is not written so."""
    parts = arg.split("/")
    if len(parts) != 4 or not parts[1].isdigit() or int(parts[1]) < 1:
        return None
    before, after = parse_side(parts[2]), parse_side(parts[3])
    if before is None or after is None:
        return None
    return parts[0], int(parts[1]), before, after
