"""The end files of one language (render/end_files.py) as units of their own, in a language's
process (rendering.py). The record's search rows: a unit per chunk of results, and one that
joins the chunks into the index's rows; each is taken from the last build when nothing it read
changed, so that a report edit makes no row and a result edit makes its chunk's rows again.
They make no file: a unit's search entries (kept apart: state_store.save_entries) hold what it made.

The search index (render/search.py): shards of the pages' documents, a unit each, a unit's
documents in the shard its key falls in (shard_of), and the entry script listing them with
the record's rows, a unit too. Each unit's digest (Unit.sum) is that of the search entries it
is made of: when they are as the last build's, its file is taken as it is, without reading
any entry back; else the entries of its reused units are read back, in one query (units.read_back),
and its file made again, so that a report edit reads and writes one shard's entries and file
of 1.3 MB, not a language's 10 MB (N = 1,000). The entries of the units rendered now (or made
again) are kept for the next build, an entry each (state_store.save_entries)."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from functools import partial
from typing import Any

from sitegen.assemble.manifest import output_key
from sitegen.assemble.state import INDEX, Unit, docs_sum
from sitegen.assemble.state_store import load_entries, save_entries
from sitegen.assemble.units import Language, keep_or_write, owned, read_back, recalled
from sitegen.assemble.write import link_files
from sitegen.base.cache import sha
from sitegen.render.end_files import rows_chunk, search_rows
from sitegen.render.search import index_path, search_entry_script, search_shard, shard_count, shard_path

# Results per unit of search rows: a whole-record rebuild after a result edit makes 250 rows
# again in each language instead of all 2,258.
ROWS_CHUNK = 250


def record_search_rows(work: Language, model, reuse: Any, verify: bool, load: Callable) -> Callable:
    """A function giving the rows of the language's search index (end_files.search_rows),
    from the units of the last build (`reuse`: rendering.Reuse, or None) where they may be
    taken; `verify`: make the taken ones too and stop where they differ (rendering.VERIFY_REUSE);
    `load`: the kept search entries of units given their digests (state_store.load_entries),
    read when needed."""
    with work.site.reads.paused():
        count = len(model.record)
    chunks, made = [], False
    for start in range(0, count, ROWS_CHUNK):
        key = (work.lang, "search-rows", start // ROWS_CHUNK)
        make = partial(rows_chunk, model, work.lang, start, start + ROWS_CHUNK)
        chunk, fresh = _kept_or_made(work, reuse, key, make, verify, load)
        chunks.append(chunk)
        made = made or fresh
    # joined again when a chunk was made now, else when what the join reads changed
    join = partial(_joined, model, work, chunks)
    rows, _ = _kept_or_made(work, None if made else reuse, (work.lang, "search-rows"), join, verify, load)
    return rows


def _joined(model, work: Language, chunks: list[Callable]) -> bytes | None:
    return search_rows(model, work.lang, work.t, [chunk() for chunk in chunks])


def _kept_or_made(
    work: Language, reuse: Any, key: tuple, make: Callable, verify: bool, load: Callable
) -> tuple[Callable, bool]:
    """(a function giving what a unit that makes no file made, whether it was made now): taken
    from the last build when it read nothing that changed since, else made now, noting what
    it reads."""
    old = reuse.unit(key, {}) if reuse is not None else None
    if old is not None:
        work.units[key] = (None, False)  # the parent has it: destination.reuse
        work.sums.append((key, old.sum))
        if old.sum:
            work.recall[key] = (old.sum, partial(_listed, make))
        kept = partial(_first, work, key, load, verify)
        if verify:
            kept()
        return kept, False
    with work.site.reads.collect() as reads:
        value = make()
    work.docs[key] = _listed(lambda: value)
    work.sums.append((key, docs_sum(work.docs[key])))
    work.units[key] = (Unit({}, reads, docs_sum(work.docs[key])), True)
    return lambda: value, True


def _listed(make: Callable) -> list:
    value = make()
    return [] if value is None else [value]


def _first(work: Language, key: tuple, load: Callable, verify: bool):
    found = entries_of(work, key, load, verify)
    return found[0] if found else None


def entries_of(work: Language, key: tuple, load: Callable, verify: bool) -> list:
    """A unit's search entries: made now, or the reused unit's read back (or made again)."""
    if key not in work.docs:
        digest, make = work.recall.get(key, (b"", list))
        work.docs[key] = recalled(work, key, digest, make, load, verify) if digest else []
    return work.docs[key]


def search_index(work: Language, reuse: Any, rows: Callable, verify: bool, load: Callable) -> None:
    """The language's search index: each shard (its units' documents: index_shards) and the
    entry script (the shards' list and `rows`) taken from the last build when what it is made
    of is as it was, else made and written (the entries of a shard's units read back)."""
    previous = work.destination.previous if work.destination is not None else {}
    shards, rest = index_shards(work)
    count = len(shards)
    alone = {index_path(work.lang), *(shard_path(work.lang, number) for number in range(count))}
    for number, members in enumerate(shards):
        digest = docs_sum([("shard", f"{number} of {count}"), *_named(members)])
        make = partial(_shard, work, number, count, members, load, verify)
        _index_part(work, reuse, previous, (work.lang, INDEX, number), digest, make, verify, alone)
    digest = docs_sum([("entry", f"{count} shards"), *_named(rest)])
    make = partial(_entry, work.lang, count, rows)
    _index_part(work, reuse, previous, (work.lang, INDEX), digest, make, verify, alone)


def index_shards(work: Language) -> tuple[list[list[tuple]], list[tuple]]:
    """(each shard's units with search entries, as (key, digest) in the order made; the units
    of the entry script: the record's search rows). As many shards as search.shard_count gives
    for the units with entries; a unit's shard is a function of its key (shard_of), known
    without reading its entries, so that an edit of one report makes one shard again."""
    pages = set(work.pages)
    documents = [(key, digest) for key, digest in work.sums if key in pages and digest]
    count = shard_count(len(documents))
    shards: list[list[tuple]] = [[] for _ in range(count)]
    for key, digest in documents:
        shards[shard_of(key, count)].append((key, digest))
    return shards, [(key, digest) for key, digest in work.sums if key not in pages]


def _named(units: list[tuple]) -> list[tuple[str, bytes]]:
    """Units' (key, digest) as a digest of them reads them (state.docs_sum)."""
    return [(repr(key), digest) for key, digest in units]


def shard_of(unit_key: tuple, count: int) -> int:
    """The shard of a unit's documents: its key less the language, hashed (crc32: the same in
    every process and build), so that a page is in the same shard in every language."""
    return zlib.crc32("/".join(map(str, unit_key[1:])).encode("utf-8", "surrogatepass")) % count


def _shard(work: Language, number: int, count: int, members: list, load: Callable, verify: bool) -> dict:
    """A shard's file, from its units' entries (`members`: (key, digest); made now, or read
    back in one query)."""
    read_back(work, {key: digest for key, digest in members if key in work.recall}, load)
    docs = [doc for key, _ in members for doc in entries_of(work, key, load, verify)]
    return search_shard(work.lang, number, count, docs)


def _entry(lang: str, count: int, rows: Callable) -> dict:
    return search_entry_script(lang, count, rows())


def _index_part(
    work: Language,
    reuse: Any,
    previous: dict,
    key: tuple,
    digest: bytes,
    make: Callable[[], dict],
    verify: bool,
    alone: set,
) -> None:
    """One unit of the index (a shard, or the entry script), whose `digest` is that of what it
    is made of: taken as the last build left it when that is as it was, else made and written
    (or kept for the parent: keep_or_write; `alone`: the index's files this language alone
    makes)."""
    old = reuse.unit(key, previous) if reuse is not None else None
    if old is not None and old.sum == digest and not verify:
        _taken(work, key, old.files, alone)
        return
    files = make()
    shas = {path: sha(data) for path, data in files.items()}
    if old is not None and old.sum == digest:  # verifying: the taken unit is the one made now
        if shas != old.files:
            raise RuntimeError(f"reused unit {key} differs from a fresh rendering")
        _taken(work, key, old.files, alone)
        return
    work.written.update(keep_or_write(files, work.lang, work.kept, work.destination, alone=alone))
    work.units[key] = (Unit(shas, (), digest), True)


def language_index(work: Language, model, reuse: Any, verify: bool) -> None:
    """The language's search index with the record's rows (record_search_rows, search_index),
    its units' search entries read from the site's store where a part of it is made again, and
    the entries made now kept there for the next build (keep_entries)."""
    load, save = docs_kept(work.site, work.lang, work.destination)
    rows = record_search_rows(work, model, reuse, verify, load)
    search_index(work, reuse, rows, verify, load)
    keep_entries(work, reuse, save)


def _taken(work: Language, key: tuple, files: dict[str, str], alone: set) -> None:
    """A unit of the index taken as the last build left it: linked here, as the process that
    makes it writes it; the files every language makes passed on, as a reused unit's
    (units.take_reused)."""
    mine = {path: digest for path, digest in files.items() if owned(path, work.lang, alone)}
    destination = work.destination
    work.written.update(link_files(mine, destination.staging, destination.out, destination.held))
    work.linked.update((path, digest) for path, digest in files.items() if path not in mine)
    work.units[key] = (None, False)  # the parent has it: destination.reuse


def keep_entries(work: Language, reuse: Any, save: Callable) -> None:
    """Keep the search entries made now (units rendered now, or reused ones whose kept entries
    could not be read back), deleting those of the units the last build had and this one has
    not, or (no last build) all of the language's others (`save`: state_store.save_entries)."""
    made = {key: entries for key, entries in work.docs.items() if work.stored.get(key) is None}
    if reuse is None:
        save(made, (), True)
        return
    now = dict(work.sums)
    gone = [
        key
        for key, unit in reuse.state.units.items()
        if key[0] == work.lang and unit.sum and key[1] != INDEX and not now.get(key)
    ]
    save(made, gone, False)


def docs_kept(site, lang: str, destination: Any) -> tuple[Callable, Callable]:
    """(read the search entries the last build kept of units given their digests, keep this
    build's): state_store.load_entries and save_entries in the site's store for the
    destination (rendering.Destination); without either, nothing is read or kept."""
    if site.store is None or destination is None:
        return (lambda wanted: {}), (lambda made, gone, whole: None)
    output = output_key(destination.out)
    return partial(load_entries, site.store, output, lang), partial(save_entries, site.store, output, lang)
