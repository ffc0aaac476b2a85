"""Throughput per accelerator of a large-language-model result: a figure derived by this site,
never an MLPerf® score (methodology.html#throughput).

Each run's own count of what it processed to reach the target (the record's `run_samples`
and `run_tokens`, read from the run's log by the importer) is divided by that run's own time
to train (seconds) and by the result's accelerators. The result's figure is the mean of those
per-run rates over the runs its time score keeps: the round's rule (round_rules.score) drops
the fastest and slowest runs by time, and the same runs are kept here. `scaling` does not
enter: it stretches the time for extra samples to converge, not the speed of each run."""

from __future__ import annotations

from dataclasses import dataclass

from sitegen.content import round_rules as rules


@dataclass(frozen=True)
class Rates:
    """A result's mean samples and tokens per second per accelerator (None where unknown)."""

    samples: float | None
    tokens: float | None


def kept_runs(result: dict) -> list[int]:
    """Indices (into `runs`) of the runs the time score keeps (round_rules.kept_slice of the
    converged runs ordered by time)."""
    runs = result.get("runs") or []
    timed = sorted((t, i) for i, t in enumerate(runs) if t is not None)
    failed = len(runs) - len(timed)
    kept = rules.kept_slice(len(timed), failed, rules.max_failed(result["benchmark"]))
    return sorted(i for _, i in timed[kept])


def run_rate(count: int | None, minutes: float | None, accelerators: int) -> float | None:
    """What one run processed per second per accelerator, or None without a count or time."""
    if count is None or not minutes or not accelerators:
        return None
    return count / (minutes * 60 * accelerators)


def mean_rate(result: dict, field: str) -> float | None:
    """The mean per-run rate of `field` over the kept runs; None when any kept run lacks it."""
    counts, runs = result.get(field), result.get("runs") or []
    kept = kept_runs(result)
    if not counts or len(counts) != len(runs) or not kept:
        return None
    rates = [run_rate(counts[i], runs[i], result.get("accelerator_count") or 0) for i in kept]
    return None if any(r is None for r in rates) else sum(rates) / len(rates)  # type: ignore[arg-type]


def rates(result: dict) -> Rates | None:
    """A scored result's throughput per accelerator, or None when it has no count or score."""
    if result.get("value") is None or not result.get("run_samples"):
        return None
    found = Rates(mean_rate(result, "run_samples"), mean_rate(result, "run_tokens"))
    return None if found.samples is None and found.tokens is None else found
