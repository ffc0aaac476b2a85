"""The record's search rows of one language (render/end_files.py) as units of their own, in a
language's process (rendering.py): a unit per chunk of results, and one that joins the chunks
into the index's rows. Each is taken from the last build when nothing it read changed, so that
a report edit makes no row and a result edit makes its chunk's rows again. They make no file:
a unit's `docs` hold what it made."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from sitegen.assemble.state import Unit
from sitegen.assemble.units import Language
from sitegen.render.end_files import rows_chunk, search_rows

# Results per unit of search rows: a whole-record rebuild after a result edit makes 250 rows
# again in each language instead of all 2,258.
ROWS_CHUNK = 250


def record_search_rows(work: Language, model, reuse: Any, verify: bool) -> bytes | None:
    """The rows of the language's search index (end_files.search_rows), from the units of the
    last build (`reuse`: rendering.Reuse, or None) where they may be taken; `verify`: make
    the taken ones too and stop where they differ (rendering.VERIFY_REUSE)."""
    with work.site.reads.paused():
        count = len(model.record)
    chunks, made = [], False
    for start in range(0, count, ROWS_CHUNK):
        key = (work.lang, "search-rows", start // ROWS_CHUNK)
        make = partial(rows_chunk, model, work.lang, start, start + ROWS_CHUNK)
        chunk, fresh = _kept_or_made(work, reuse, key, make, verify)
        chunks.append(chunk)
        made = made or fresh
    # joined again when a chunk was made now, else when what the join reads changed
    join = partial(search_rows, model, work.lang, work.t, chunks)
    rows, _ = _kept_or_made(work, None if made else reuse, (work.lang, "search-rows"), join, verify)
    return rows


def _kept_or_made(work: Language, reuse: Any, key: tuple, make: Callable, verify: bool) -> tuple[Any, bool]:
    """(what a unit that makes no file made, whether it was made now): taken from the last
    build when it read nothing that changed since, else made now, noting what it reads."""
    old = reuse.unit(key, {}) if reuse is not None else None
    if old is not None:
        kept = old.docs[0] if old.docs else None
        if verify:
            with work.site.reads.paused():
                if make() != kept:
                    raise RuntimeError(f"reused unit {key} differs from a fresh rendering")
        work.units[key] = (None, False)  # the parent has it: destination.reuse
        return kept, False
    with work.site.reads.collect() as reads:
        value = make()
    work.units[key] = (Unit({}, reads, [] if value is None else [value]), True)
    return value, True
