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
    stale = {(key[0], key[1] == "data") for key in reuse.stale}
    return {index for index, job in enumerate(jobs) if index and not _stale_in_job(stale, job)}


def _stale_in_job(stale: set, job) -> bool:
    """Whether a job has stale units (`stale`: (language, whether a data unit) of each): the
    record's data job its data units, a language's pages job the others of its language."""
    data = job[6] == DATA
    return any(is_data == data and (data or lang == job[3]) for lang, is_data in stale)
