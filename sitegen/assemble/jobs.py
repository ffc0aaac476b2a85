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
    data = part == DATA
    return reuse is not None and any(
        (key[1] == "data") == data and (data or key[0] == lang) for key in reuse.stale
    )
