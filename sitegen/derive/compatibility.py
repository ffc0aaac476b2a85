"""Which results of one benchmark may be compared across rounds: MLCommons' compatibility table
(content/compatibility.py) splits a benchmark into versions, each a run of rounds; results are
compared only within one version. A benchmark without a model in the table is one version."""

from __future__ import annotations

from collections.abc import Iterable

from sitegen.content.compatibility import TABLE


def version_of(site, benchmark_id: str, round_id: str) -> int | None:
    """The index of the version of `benchmark_id` that `round_id` belongs to: 0 for a benchmark
    the table does not name; None for a round the table gives no version of that benchmark."""
    model = (site.tables["benchmarks"].get(benchmark_id) or {}).get("compatibility")
    entry = site.tables[TABLE].get(model) if model else None
    if entry is None:
        return 0
    return next((i for i, rounds in enumerate(entry["versions"]) if round_id in rounds), None)


def compatible(site, one: dict, other: dict) -> bool:
    """Two results of one benchmark in rounds of one version: comparable across rounds."""
    if one["benchmark"] != other["benchmark"]:
        return False
    version = version_of(site, one["benchmark"], one["round"])
    return version is not None and version == version_of(site, other["benchmark"], other["round"])


def by_version(site, results: Iterable[dict]) -> list[list[dict]]:
    """Results of one benchmark grouped by version, oldest version first, each in the given
    order; a result of a round without a version stands alone."""
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        version = version_of(site, r["benchmark"], r["round"])
        key = (0, version) if version is not None else (1, r["round"])
        groups.setdefault(key, []).append(r)
    return [groups[k] for k in sorted(groups, key=lambda k: (k[0], k[1]))]
