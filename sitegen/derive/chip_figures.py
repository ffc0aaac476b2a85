"""What a chip family's page shows of the record, computed from the family's results (an
Entity of RecordIndex.accelerators) with derive/derived.py: its results by benchmark and round
with their scale, its progress at a fixed scale across rounds, its scaling efficiency within a
round, and its generation against the previous and next (chips.yaml `follows`) at equal
scale. Copies within a round count once (RecordIndex.counts); a result carried over from an
earlier round (the same runs) is marked and never counted as a gain.

Plain functions of the index and the family, called while the page renders: what they read
of the record is noted for that page (content/tracking.py)."""

from __future__ import annotations

from sitegen.derive import compatibility, derived
from sitegen.derive import references as record_refs


def closed_timed(results: list[dict], index) -> list[dict]:
    """The family's closed-division results with a time, without the copies."""
    return [
        r for r in results if r["division"] == "closed" and derived.minutes(r) is not None and index.counts(r)
    ]


def _by_benchmark(results: list[dict]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for result in results:
        found.setdefault(result["benchmark"], []).append(result)
    return found


def benchmark_order(entity, rounds: list[str]) -> list[str]:
    """The family's benchmarks, the one held most recently first (then by id)."""
    order = {r: i for i, r in enumerate(rounds)}
    latest: dict[str, int] = {}
    for result in entity.results:
        at = order.get(result["round"], -1)
        latest[result["benchmark"]] = max(latest.get(result["benchmark"], -1), at)
    return sorted(latest, key=lambda b: (-latest[b], b))


def by_benchmark(site, entity, index, rounds: list[str]) -> list[dict]:
    """Per benchmark, per round (oldest first): its results (copies once), the range of their
    accelerator counts, and the fastest closed result (else the fastest open one) with its
    accelerator-minutes and the family's results of its division level with it (within
    the benchmark's run-to-run variation: references.level_with)."""
    held = _by_benchmark(index.counted(entity.results))
    out = []
    for benchmark in benchmark_order(entity, rounds):
        rows = []
        for round_id in [r for r in rounds if any(x["round"] == r for x in held.get(benchmark, []))]:
            mine = [x for x in held[benchmark] if x["round"] == round_id]
            counts = [x["accelerator_count"] for x in mine if x.get("accelerator_count")]
            best = derived.fastest(x for x in mine if x["division"] == "closed") or derived.fastest(mine)
            rows.append(
                {
                    "round": round_id,
                    "count": len(mine),
                    "low": min(counts) if counts else None,
                    "high": max(counts) if counts else None,
                    "best": best,
                    "level": record_refs.level_with(site, best, mine) if best else [],
                    "band": record_refs.band_of(site, benchmark),
                    "work": derived.accelerator_minutes(best) if best else None,
                }
            )
        if rows:
            out.append({"benchmark": benchmark, "rounds": rows})
    return out


def progress(entity, index, rounds: list[str]) -> list[dict]:
    """Per benchmark and scale of derived.progress_scales (8 accelerators, and the largest
    scale held in two rounds): the family's fastest closed result of each round at that scale
    (`points`: round, result, the round it is carried over from or None), and the speed-up
    from the first new result to the latest new one (`gain`, None when there are not two):
    a carried-over best is no new result, so it never counts as a gain. Rounds that MLCommons'
    compatibility table puts in different versions of the benchmark make separate series."""
    closed = _by_benchmark(closed_timed(entity.results, index))
    out = []
    for benchmark in benchmark_order(entity, rounds):
        for results in compatibility.by_version(index.site, closed.get(benchmark, [])):
            out += _progress_series(benchmark, results, index, rounds)
    return out


def _progress_series(benchmark: str, results: list[dict], index, rounds: list[str]) -> list[dict]:
    """progress's series of one benchmark version's results."""
    out = []
    for scale in derived.progress_scales(results):
        pairs = derived.progress_at_scale(results, scale, rounds, index.counts)
        points = [
            {"round": r, "result": best, "minutes": derived.minutes(best), "carried": _carried(index, best)}
            for r, best in pairs
        ]
        new = [best for best in (b for _, b in pairs) if _carried(index, best) is None]
        gain = None
        if len(new) > 1:
            gain = {"first": new[0], "last": new[-1], "speedup": derived.speedup(new[0], new[-1])}
        out.append(
            {"benchmark": benchmark, "scale": scale, "usual": scale == 8, "points": points, "gain": gain}
        )
    return out


def _fastest_at(results: list[dict], scale: int) -> dict:
    """The fastest timed closed result at `scale` (one of `results` is: the scale is theirs)."""
    found = derived.fastest(derived.at_scale(results, scale))
    if found is None:
        raise ValueError(f"no timed closed result at {scale} accelerators")
    return found


def _carried(index, result: dict) -> str | None:
    origin = index.carried_from(result)
    return origin["round"] if origin else None


def scaling(entity, index, rounds: list[str]) -> list[dict]:
    """Per benchmark and round where the family has closed results at several scales: the
    fastest at the smallest and at the largest scale, and derived.scaling_efficiency of the
    two ((t_small · n_small) / (t_large · n_large))."""
    closed = _by_benchmark(closed_timed(entity.results, index))
    out = []
    for benchmark in benchmark_order(entity, rounds):
        for round_id in rounds:
            mine = [
                r for r in closed.get(benchmark, []) if r["round"] == round_id and r.get("accelerator_count")
            ]
            scales = sorted({r["accelerator_count"] for r in mine})
            if len(scales) < 2:
                continue
            small, large = _fastest_at(mine, scales[0]), _fastest_at(mine, scales[-1])
            out.append(
                {
                    "benchmark": benchmark,
                    "round": round_id,
                    "small": small,
                    "large": large,
                    "efficiency": derived.scaling_efficiency(small, large),
                }
            )
    return out


def neighbours(facts: dict | None) -> list[tuple[str, str]]:
    """The families a family is compared with: ('previous', page) and ('next', page) for
    each that follows it (chips.yaml `follows`), in that order."""
    if not facts:
        return []
    before = [("previous", facts["follows"])] if facts["follows"] else []
    return before + [("next", key) for key in facts["next"]]


def generation(entity, other, index, rounds: list[str], older_first: bool) -> list[dict]:
    """The family against another generation (`other`, an Entity) on each benchmark where
    both have closed results at the same scale, at derived.comparison_scales: the fastest of
    each at that scale over the rounds of the latest benchmark version both hold (MLCommons'
    compatibility table), and the speed-up of the newer generation over the older (the
    older's time / the newer's). `older_first`: `entity` is the older one."""
    mine = _by_benchmark(closed_timed(entity.results, index))
    theirs = _by_benchmark(closed_timed(other.results, index))
    out = []
    for benchmark in benchmark_order(entity, rounds):
        if benchmark not in theirs or benchmark not in mine:
            continue
        own_all, their_all = _shared_version(index.site, mine[benchmark], theirs[benchmark])
        for scale in derived.comparison_scales(own_all, their_all):
            own, their = _fastest_at(own_all, scale), _fastest_at(their_all, scale)
            older, newer = (own, their) if older_first else (their, own)
            out.append(
                {
                    "benchmark": benchmark,
                    "scale": scale,
                    "own": own,
                    "other": their,
                    "speedup": derived.speedup(older, newer),
                }
            )
    return out


def _shared_version(site, mine: list[dict], theirs: list[dict]) -> tuple[list[dict], list[dict]]:
    """Of two families' results of one benchmark, those of the latest version both hold (and
    with a scale in common, where one has); ([], []) when they share none."""
    found: tuple[list[dict], list[dict]] = ([], [])
    for own in compatibility.by_version(site, mine):
        their = [r for r in theirs if compatibility.compatible(site, own[0], r)]
        if their and (derived.comparison_scales(own, their) or not any(found)):
            found = (own, their)
    return found
