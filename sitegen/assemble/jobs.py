"""How a build's jobs run (rendering.render_site): each language's pages, and the record's data
files, each in a process of its own on a big site (forking.in_forked_processes); how many at
once, and which are light enough to be done in the build's own process meanwhile."""

from __future__ import annotations

import os
from typing import Any

PAGES, DATA = "pages", "data"  # what a job renders: one language's pages, or the record's data


def renders_much(destination: Any) -> bool:
    """Whether a build renders much of the site: with no last build to reuse, or a quarter of
    its units stale. Otherwise each forked language computes the few model entries its pages
    read (derive/lazy.py)."""
    reuse = destination.reuse if destination is not None else None
    return reuse is None or len(reuse.stale) * 4 > len(reuse.state.units)


def at_once(jobs: list, destination: Any) -> int:
    """How many jobs run at a time: one per core on a build from no last state (it renders and
    draws everything; all at once would pass 1 GB), all of them on a rebuild (its processes
    stay small), so that no core idles while the last language renders (bench/README.md)."""
    if destination is not None and destination.reuse is not None:
        return len(jobs)
    return min(len(jobs), os.cpu_count() or 1)


def light(jobs: list, destination: Any) -> set[int]:
    """The jobs done in this process while the others run in theirs (forking.in_forked_processes):
    on a rebuild, those after the first none of whose units is stale (a report edit: the other
    languages and the record's data, each taken as the last build left it in a few ms, less
    than a process of their own costs)."""
    reuse = destination.reuse if destination is not None else None
    if reuse is None:
        return set()
    return {index for index, job in enumerate(jobs) if index and not stale_in(reuse, job[3], job[6])}


def stale_in(reuse: Any, lang: str, part: str) -> bool:
    """Whether a job has a unit the last build made that is stale now (`reuse`:
    rendering.Reuse, or None): the record's data job its data units, a language's pages job
    the others of its language (its search index is then likely made again)."""
    return reuse is not None and any(_stale_of(reuse, lang, part))


def _stale_of(reuse: Any, lang: str, part: str):
    data = part == DATA
    return (key for key in reuse.stale if (key[1] == "data") == data and (data or key[0] == lang))


def shares(jobs: list, destination: Any) -> tuple[list[list[int]], set[int]]:
    """(the jobs, by index, that each process does in turn; the shares, by index, done in this
    process). From no last state, or when a rebuild renders much (renders_much): a job a
    process. On a smaller rebuild, the jobs with a stale unit shared among at most as many
    processes as there are cores, the most stale first to the least loaded (a whole-record
    result edit's four jobs in four processes on two cores each paid the cost of a process:
    about 0.1 s of its 2 s of CPU, bench/README.md); done here: the light jobs, and the first
    share with stale units (the only one on a report edit), while the others run in theirs:
    its own process would only add its cost (forked, its pages faulted in, sent back)."""
    reuse = destination.reuse if destination is not None else None
    if reuse is None or renders_much(destination):
        return [[index] for index in range(len(jobs))], set()
    quiet = light(jobs, destination)
    busy = [index for index in range(len(jobs)) if index not in quiet]
    weight = {index: sum(1 for _ in _stale_of(reuse, jobs[index][3], jobs[index][6])) for index in busy}
    bins: list[list[int]] = [[] for _ in range(min(len(busy), os.cpu_count() or 1))]
    loads = [0] * len(bins)
    for index in sorted(busy, key=lambda i: -weight[i]):
        least = loads.index(min(loads))
        bins[least].append(index)
        loads[least] += weight[index] + 1
    made = [sorted(share) for share in bins if share] + [[index] for index in sorted(quiet)]
    return made, {number for number, share in enumerate(made) if number == 0 or share[0] in quiet}
