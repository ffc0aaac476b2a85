"""Figures derived from the record, never MLPerf® scores: accelerator-minutes, scaling
efficiency, speed-up at equal scale across rounds or chip generations, and the noise band
within which two times are level. Plain functions of record results (dicts of
content/data/record/); the pages say how each figure is derived, with the basis below."""

from __future__ import annotations

from collections.abc import Callable, Iterable

# MLCommons' training_summary.adoc (training_policies, to 2020-06-11): results of the imaging
# benchmarks vary "very roughly +/- 2.5%", the other benchmarks "+/- 5%".
VISION_BAND = 0.025
OTHER_BAND = 0.05


def minutes(result: dict) -> float | None:
    """The time to train in minutes, or None for a result without a time."""
    value = result.get("value")
    if value is None:
        return None
    return value * 60 if result.get("unit") == "h" else value


def accelerator_minutes(result: dict) -> float | None:
    """Time to train (in minutes) × accelerators: how much accelerator time a result took.
    A figure of this site, not an MLPerf® score (the rules define none such). None without a
    time or without accelerators (CPU only)."""
    time, count = minutes(result), result.get("accelerator_count")
    return time * count if time is not None and count else None


def scaling_efficiency(one: dict, other: dict) -> float:
    """(t_small · n_small) / (t_large · n_large) of two timed results at different scales:
    1.0 is ideal scaling (the larger system needs as many accelerator-minutes), below 1.0 the
    larger needs more. Callers pass results of one chip family, benchmark and round."""
    small, large = sorted((one, other), key=lambda r: (r["accelerator_count"], r["id"]))
    work_small, work_large = accelerator_minutes(small), accelerator_minutes(large)
    if work_small is None or work_large is None or small["accelerator_count"] == large["accelerator_count"]:
        raise ValueError(f"no scaling between {small['id']} and {large['id']}")
    return work_small / work_large


def speedup(before: dict, after: dict) -> float:
    """How many times faster `after` trains than `before` (time before / time after)."""
    return minutes(before) / minutes(after)  # type: ignore[operator]


def noise_band(benchmark: dict) -> float:
    """The fraction within which two results of a benchmark are level (see the constants)."""
    return VISION_BAND if benchmark.get("area") == "vision" else OTHER_BAND


def level(faster: float, slower: float, band: float) -> bool:
    """Whether two times are level: the slower within `band` of the faster."""
    low, high = sorted((faster, slower))
    return high <= low * (1 + band)


def ranks(results: list[dict], band: float) -> list[tuple[int, bool]]:
    """For results in order (fastest first), their rank and whether they share it: a result
    level with the first of the group above it (within `band` of its time) takes that group's
    rank; otherwise it starts a group at its own position (1, 1, 3, ...). Results without a
    time rank after the timed ones, each at its position."""
    out: list[tuple[int, bool]] = []
    first = 0  # the index of the current group's first result
    for index, result in enumerate(results):
        time, lead = minutes(result), minutes(results[first])
        if index and time is not None and lead is not None and level(lead, time, band):
            out[first] = (first + 1, True)
            out.append((first + 1, True))
        else:
            first = index
            out.append((index + 1, False))
    return out


def level_with_first(results: list[dict], band: float, original: Callable[[dict], dict]) -> list[dict]:
    """The results after the first (in order, fastest first) that are level with it: timed and
    within `band` of its time, so they share its rank (`ranks`). A statement that the first is
    the fastest names them instead of claiming a clear lead.

    `original` gives the result whose runs a result republishes (RecordIndex.original: itself,
    or the result it is carried over or copied from). A repeat of the same runs is not a second
    result: one with the first's runs is never level with it, and several with the same runs
    are listed once, as their original when it is level, else as the fastest of them."""
    lead = minutes(results[0]) if results else None
    if lead is None:
        return []
    first = original(results[0])["id"]
    found = [
        r
        for r in results[1:]
        if (time := minutes(r)) is not None and level(lead, time, band) and original(r)["id"] != first
    ]
    kept: dict[str, dict] = {}  # original's id -> the one result listed for those runs
    for result in found:
        runs = original(result)["id"]
        if runs not in kept or result["id"] == runs:
            kept[runs] = result
    listed = {r["id"] for r in kept.values()}
    return [r for r in found if r["id"] in listed]


# MLCommons ranks each category apart; a headline ranks this one and names the others beside it.
HEADLINE_CATEGORY = "available"


def ranked_apart(rows: list[dict]) -> list[dict]:
    """Of one slot's results (fastest first), those a headline ranks: the Available ones, else
    (a slot without any) those of the category of its fastest result."""
    return [r for r in rows if r["category"] == HEADLINE_CATEGORY] or [
        r for r in rows if r["category"] == rows[0]["category"]
    ]


def fastest(results: Iterable[dict]) -> dict | None:
    """The timed result with the shortest time (ties by id), or None."""
    timed = [r for r in results if minutes(r) is not None]
    return min(timed, key=lambda r: (minutes(r), r["id"])) if timed else None


def at_scale(results: Iterable[dict], scale: int) -> list[dict]:
    """The timed closed-division results with exactly `scale` accelerators."""
    return [
        r
        for r in results
        if r.get("accelerator_count") == scale and r["division"] == "closed" and minutes(r) is not None
    ]


def by_round(results: Iterable[dict], rounds: list[str]) -> list[tuple[str, dict]]:
    """The fastest of `results` in each round that has one, in the order of `rounds`."""
    held: dict[str, list[dict]] = {}
    for result in results:
        held.setdefault(result["round"], []).append(result)
    out = []
    for round_id in rounds:
        best = fastest(held.get(round_id, []))
        if best is not None:
            out.append((round_id, best))
    return out


def shared_scales(results: Iterable[dict]) -> dict[int, list[str]]:
    """The scales (accelerator counts) of timed closed results, each with the rounds that
    have one at it (sorted, no repeats): a scale held in two rounds can show progress."""
    found: dict[int, set[str]] = {}
    for result in results:
        if result["division"] == "closed" and minutes(result) is not None and result.get("accelerator_count"):
            found.setdefault(result["accelerator_count"], set()).add(result["round"])
    return {scale: sorted(found[scale]) for scale in sorted(found)}


def progress_scales(results: list[dict], usual: int = 8) -> list[int]:
    """The scales at which a chip family's progress on one benchmark is shown: `usual` (8, one
    server) and the largest scale held in at least two rounds, where they are."""
    return _usual_and_largest([s for s, rounds in shared_scales(results).items() if len(rounds) > 1], usual)


def progress_at_scale(
    results: Iterable[dict], scale: int, rounds: list[str], counts: Callable[[dict], bool]
) -> list[tuple[str, dict]]:
    """A chip family's fastest closed result at `scale` in each round (`results` of one family
    and benchmark; `counts` leaves out copies, RecordIndex.counts), oldest round first."""
    return by_round((r for r in at_scale(results, scale) if counts(r)), rounds)


def comparison_scales(one: list[dict], other: list[dict], usual: int = 8) -> list[int]:
    """The scales at which two chip families are compared on one benchmark: `usual` (8, one
    server) and the largest scale at which both have a timed closed result, where they are."""
    return _usual_and_largest(sorted(set(shared_scales(one)) & set(shared_scales(other))), usual)


def _usual_and_largest(held: list[int], usual: int) -> list[int]:
    """Of ascending scales `held`: `usual` if held, then the largest if it is another."""
    picked = [usual] if usual in held else []
    if held and held[-1] != usual:
        picked.append(held[-1])
    return picked


def least_work(results: Iterable[dict]) -> dict | None:
    """The result with the fewest accelerator-minutes (ties by id), or None when none has
    both a time and accelerators: the anchor of the scale chart's ideal-scaling line."""
    timed = [r for r in results if accelerator_minutes(r) is not None]
    return min(timed, key=lambda r: (accelerator_minutes(r), r["id"])) if timed else None


def ideal_time(work: float, accelerators: float) -> float:
    """The time to train, in minutes, that `work` accelerator-minutes take on `accelerators`
    under ideal scaling (time ∝ 1/accelerators: twice the accelerators, half the time)."""
    return work / accelerators
