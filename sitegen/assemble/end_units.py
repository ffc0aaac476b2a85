"""The end files of one language (render/end_files.py) as units of their own, in a language's
process (rendering.py). The record's search rows: a unit per chunk of results, and one that
joins the chunks into the index's rows; each is taken from the last build when nothing it read
changed, so that a report edit makes no row and a result edit makes its chunk's rows again.
They make no file: a unit's search entries (kept apart: state_store.save_docs) hold what it made.

The search index: a unit whose digest (Unit.sum) is that of every unit's search entries, in
order. When every unit's digest is as the last build's, the index is too (it is made from
those entries and the rows alone), and its files are taken as they are without reading any
entry back; else the entries of the reused units are read back (units.recalled), the index is
made again, and the language's entries are kept for the next build."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from sitegen.assemble.manifest import output_key
from sitegen.assemble.state import INDEX, Unit, docs_sum
from sitegen.assemble.state_store import Docs, load_docs, save_docs
from sitegen.assemble.units import Language, keep_or_write, owned, recalled
from sitegen.assemble.write import link_files
from sitegen.base.cache import sha
from sitegen.base.store import Store
from sitegen.render.end_files import language_end_files, rows_chunk, search_rows
from sitegen.render.search import index_path

# Results per unit of search rows: a whole-record rebuild after a result edit makes 250 rows
# again in each language instead of all 2,258.
ROWS_CHUNK = 250


def record_search_rows(work: Language, model, reuse: Any, verify: bool, load: Callable) -> Callable:
    """A function giving the rows of the language's search index (end_files.search_rows),
    from the units of the last build (`reuse`: rendering.Reuse, or None) where they may be
    taken; `verify`: make the taken ones too and stop where they differ (rendering.VERIFY_REUSE);
    `load`: the language's kept search entries (state_store.load_docs), read when needed."""
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


def search_index(
    work: Language, reuse: Any, rows: Callable, verify: bool, load: Callable, save: Callable
) -> dict:
    """The language's search index: taken from the last build when its units' search entries
    are all as they were, else made from them and `rows` and written (or kept for the parent,
    keep_or_write); then the entries are kept (`save`: state_store.save_docs): {language: the
    id they are kept under, None if they could not be}, or {} when the index was taken."""
    key = (work.lang, INDEX)
    digest = docs_sum([(repr(unit_key), unit_sum) for unit_key, unit_sum in work.sums])
    previous = work.destination.previous if work.destination is not None else {}
    old = reuse.unit(key, previous) if reuse is not None else None
    if old is not None and old.sum == digest and not verify:
        _taken(work, key, old.files)
        return {}
    every = {unit_key: entries_of(work, unit_key, load, verify) for unit_key, _ in work.sums}
    files = language_end_files(work.lang, [doc for page in work.pages for doc in every[page]], rows())
    shas = {path: sha(data) for path, data in files.items()}
    if old is not None and old.sum == digest:  # verifying: the taken index is the one made now
        if shas != old.files:
            raise RuntimeError(f"reused unit {key} differs from a fresh rendering")
        _taken(work, key, old.files)
        return {}
    alone = {index_path(work.lang)}  # written here (the others go back to the parent)
    work.written.update(keep_or_write(files, work.lang, work.kept, work.destination, alone=alone))
    work.units[key] = (Unit(shas, (), digest), True)
    return {work.lang: save(every)}


def language_index(work: Language, model, reuse: Any, verify: bool, kept: tuple | None = None) -> dict:
    """The language's search index with the record's rows (record_search_rows, search_index),
    its units' search entries read from and kept in the site's store (`kept`: docs_kept's, made
    when the job began): {language: the id they are kept under now}, or {} when the index was
    taken as it was."""
    load, save = kept or docs_kept(work.site, work.lang, work.destination)
    rows = record_search_rows(work, model, reuse, verify, load)
    return search_index(work, reuse, rows, verify, load, save)


def _taken(work: Language, key: tuple, files: dict[str, str]) -> None:
    """The index taken as the last build left it: linked here, as the process that makes it
    writes it; the files every language makes passed on, as a reused unit's (units.take_reused)."""
    mine = {path: digest for path, digest in files.items() if owned(path, work.lang, {index_path(work.lang)})}
    destination = work.destination
    work.written.update(link_files(mine, destination.staging, destination.out, destination.held))
    work.linked.update((path, digest) for path, digest in files.items() if path not in mine)
    work.units[key] = (None, False)  # the parent has it: destination.reuse


def docs_kept(site, lang: str, destination: Any, early: bool = False) -> tuple[Callable, Callable]:
    """(read the language's search entries the last build kept, keep this build's): the
    functions above take, state_store.load_docs and save_docs in the site's store for the
    destination (rendering.Destination), this build's kept from what was read (only what
    changed since their base is written); without either, nothing is read or kept. `early`:
    the entries are read from now on beside the job (_reading), as its index will likely
    be made again (a unit of its language is stale)."""
    if site.store is None or destination is None:
        return dict, lambda docs: None
    output, reuse = output_key(destination.out), destination.reuse
    ident = reuse.state.docs.get(lang) if reuse is not None else None
    read = [Docs()]
    begun = _reading(site.store, output, lang, ident) if early and ident is not None else None

    def load() -> dict:
        read[0] = begun() if begun is not None else load_docs(site.store, output, lang, ident)
        return read[0].entries

    return load, lambda docs: save_docs(site.store, output, lang, docs, read[0])


def _reading(store: Store, output: str, lang: str, ident: tuple) -> Callable[[], Docs]:
    """load_docs begun now in a thread of the language's process, with a connection to the store
    of its own, while the job renders its stale units: the read from SQLite and the seal's
    sha256 of 10 MB of entries (N = 1,000) let the renderer run meanwhile. The function given
    waits for what it read; a failure there is entries not read (made again, as a damaged entry).
    Daemonic: a job whose index is taken after all does not wait for it."""
    found: list[Docs] = []

    def read() -> None:
        own = Store(store.folder, store.read_only)
        try:
            found.append(load_docs(own, output, lang, ident))
        except Exception:  # noqa: BLE001, S110 - not read: the entries are made again
            pass
        finally:
            own.release()

    thread = threading.Thread(target=read, daemon=True)
    thread.start()

    def wait() -> Docs:
        thread.join()
        return found[0] if found else Docs()

    return wait
