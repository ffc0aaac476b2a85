"""The state of an output folder's last build (state.State) in the build's store, table
`units`: a base, written whole now and then, and the changes since it, so that an edit
writes only what it changed (a whole-record state was 25 MB; pickling and writing it again
after every edit took 0.5 s of each rebuild). Both are marshal's bytes (the units' problems
pickled within), the runs of dependency indexes (state.State.runs) each an array's bytes:
a whole record's base is 12 MB, read in 0.05 s.

Two entries per output folder: the base (`output`) and the changes since (`output` + DELTA),
each naming the base by a random id. A rebuild writes the changes only, each time all of them
since the base: the units rendered or dropped since, the dependencies added, the fingerprints
that moved. When those reach a share of the state (REBASE_AT), or the keys were compacted, or
there is no state to extend, the base is written again, with empty changes, in one
transaction. Either entry missing or damaged, or the two naming different bases: no state
(everything is rendered).

The units' search entries (their pages' search documents, the record's search rows) are not in
these entries: each unit keeps their digest (Unit.sum), and its entries are an entry of their
own in table `entries` (entries_key: the output's key, the language, the unit's key), written
by the language's process that made them (save_entries: the units rendered now, in one
transaction), and read only for the units of the parts of a search index made again
(load_entries: one query; assemble/end_units.py). An entry missing, damaged, or whose entries
are not the ones the unit's digest names: the unit's entries are made again by rendering it
(never taken from another build). A language rendered whole replaces all of its entries; a
rebuild deletes those of the units gone."""

from __future__ import annotations

import errno
import marshal
import os
import pickle
import sys
from array import array
from dataclasses import dataclass, field
from itertools import compress
from operator import ne

from sitegen.assemble.state import State, Unit, docs_sum
from sitegen.base.store import Store

ENTRIES_FORMAT = 1  # search entries saved in another layout are not read (made again)
# a state saved in another layout, or on a machine whose arrays differ (the runs are kept as
# their bytes), is not read (all rendered)
UNITS_FORMAT = (10, sys.byteorder, array("I").itemsize)
DELTA = "+changes"  # the key of the changes since the base: the output's key and this
SEP = "\x1f"  # between the parts of a unit's search entries' key: no path or unit key has it
# The base is written again when the units changed since it pass this share of all units
# (a result edit renders about 400 of a whole record's 11,000 units).
REBASE_AT = 0.25


@dataclass
class Saved:
    """What the store holds of a state: the base's id, number of keys and of runs, and the
    changes since it (the units rendered or added, the units dropped, the fingerprints of the
    base's keys that moved, the whole fingerprints that moved)."""

    base: bytes
    keys: int
    runs: int = 0
    units: set = field(default_factory=set)
    gone: set = field(default_factory=set)
    moved: dict = field(default_factory=dict)
    whole: dict = field(default_factory=dict)


def save_state(store: Store, output: str, state: State) -> None:
    """Write the changes since the saved base, or the state whole as a new base."""
    saved = _changes(state) if state.saved is not None and state.previous is not None else None
    if saved is None or _grown(saved, state):
        saved = Saved(os.urandom(12), len(state.keys), len(state.runs))
        entries = {output: _base_blob(state, saved), output + DELTA: _delta_blob(state, saved)}
    else:
        entries = {output + DELTA: _delta_blob(state, saved)}
    if not store.put_many("units", entries):
        raise OSError(errno.EIO, "the build store could not be written", str(store.path))


def _grown(saved: Saved, state: State) -> bool:
    """Whether the changes since the base are large enough to write a new base instead."""
    units, keys = REBASE_AT * max(len(state.units), 1), REBASE_AT * max(saved.keys, 1)
    return (
        len(saved.units) + len(saved.gone) > units or len(state.keys) - saved.keys + len(saved.moved) > keys
    )


def load_state(store: Store, output: str) -> State | None:
    """The state, or None when it is missing or damaged (then everything is rendered)."""
    base, delta = store.get("units", output), store.get("units", output + DELTA)
    if base is None or delta is None:
        return None
    try:
        state = _from_base(_loads(base))
        if state is None or not _apply(state, _loads(delta)):
            return None
        return state
    except Exception:  # noqa: BLE001 - any damage means: build without reuse
        return None


def _dumps(data) -> bytes:
    """marshal's bytes (read back in a third of pickle's time), or pickle's for a value
    marshal does not write (a dependency key of another type)."""
    try:
        return b"m" + marshal.dumps(data, 4)
    except ValueError:
        return b"p" + pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)


def _loads(blob: bytes):
    kind, data = blob[:1], memoryview(blob)[1:]
    if kind == b"m":
        return marshal.loads(data)
    return pickle.loads(data) if kind == b"p" else None


def _changes(state: State) -> Saved:
    """The changes of `state` since its saved base: those of the state it was made from
    (`previous`), and its own since that one."""
    old, before = state.previous, state.saved
    assert old is not None and before is not None
    units, now = set(before.units), state.units
    units.update(state.fresh)
    units.update(key for key in now if key not in old.units)
    gone = {key for key in before.gone if key not in now}
    gone.update(key for key in old.units if key not in now)
    moved = dict(before.moved)
    differ = map(ne, old.hashes[: before.keys], state.hashes)  # compared in C: 85,000 of them
    moved.update((index, state.hashes[index]) for index in compress(range(before.keys), differ))
    whole = dict(before.whole)
    whole.update((tag, now) for tag, now in state.whole.items() if old.whole.get(tag, b"") != now)
    return Saved(before.base, before.keys, before.runs, units - gone, gone, moved, whole)


def _records(units: dict, keys) -> tuple[dict, bytes]:
    """The records of units `keys` as marshal writes them, and their problems apart (pickled:
    few units have any)."""
    records, problems = {}, {}
    for key in keys:
        unit = units[key]
        records[key] = (unit.files, unit.sum, unit.hidden, tuple(unit.deps))
        if unit.problems:
            problems[key] = unit.problems
    return records, pickle.dumps(problems, protocol=pickle.HIGHEST_PROTOCOL)


def _units(records: dict, problems: bytes) -> dict:
    said = pickle.loads(problems)
    return {
        key: Unit(files, deps, digest, hidden, said.get(key) or [])
        for key, (files, digest, hidden, deps) in records.items()
    }


def _packed(runs: list) -> tuple[bytes, bytes]:
    """Runs packed into one array's bytes, with each run's end (thousands of small arrays
    pickled one by one took half of the time of saving and loading)."""
    packed, ends = array("I"), array("I")
    for run in runs:
        packed.extend(run)
        ends.append(len(packed))
    return packed.tobytes(), ends.tobytes()


def _unpacked(packed: bytes, ends: bytes) -> list:
    items, bounds, start, runs = array("I"), array("I"), 0, []
    items.frombytes(packed)
    bounds.frombytes(ends)
    for end in bounds:
        runs.append(items[start:end])
        start = end
    return runs


def _base_blob(state: State, saved: Saved) -> bytes:
    records, problems = _records(state.units, state.units)
    tags = {tag: indexes.tobytes() for tag, indexes in state.tags.items()}
    runs = _packed(state.runs)
    base = (UNITS_FORMAT, saved.base, records, problems, *runs, state.keys, state.hashes, state.whole, tags)
    return _dumps(base)


def _delta_blob(state: State, saved: Saved) -> bytes:
    records, problems = _records(state.units, list(saved.units))
    added = (state.keys[saved.keys :], state.hashes[saved.keys :], *_packed(state.runs[saved.runs :]))
    live = (state.live, state.runs_live)
    delta = (UNITS_FORMAT, saved.base, state.inputs, state.data, live, records, problems, saved.gone, added)
    return _dumps((*delta, saved.moved, saved.whole))


def _from_base(data) -> State | None:
    form, base, records, problems, packed, ends, keys, hashes, whole, tags = data
    if form != UNITS_FORMAT:
        return None
    state = State("", _units(records, problems), keys, hashes, whole)
    state.runs = _unpacked(packed, ends)
    for tag, indexes in tags.items():
        state.tags[tag] = found = array("I")
        found.frombytes(indexes)
    state.saved = Saved(base, len(keys), len(state.runs))
    return state


def _apply(state: State, data) -> bool:
    """The changes since the base applied to it; False when they are of another base."""
    form, base, inputs, data_digest, live, records, problems, gone, added, moved, whole = data
    keys, hashes, packed, ends = added
    saved = state.saved
    if form != UNITS_FORMAT or saved is None or base != saved.base:
        return False
    for key in gone:
        state.units.pop(key, None)
    state.units.update(_units(records, problems))
    for index, key in enumerate(keys, start=len(state.keys)):
        state.tags.setdefault(key[0], array("I")).append(index)
    state.keys.extend(keys)
    state.hashes.extend(hashes)
    state.runs.extend(_unpacked(packed, ends))
    for index, hash_now in moved.items():
        state.hashes[index] = hash_now
    state.whole.update(whole)
    state.inputs, state.data, (state.live, state.runs_live) = inputs, data_digest, live
    state.saved = Saved(base, saved.keys, saved.runs, set(records), set(gone), moved, whole)
    return True


def entries_key(output: str, lang: str, unit_key: tuple) -> str:
    """The key of a unit's search entries in table `entries`."""
    return f"{output}{SEP}{lang}{SEP}{unit_key!r}"


def load_entries(store: Store, output: str, lang: str, wanted: dict) -> dict:
    """The kept search entries of units `wanted` (unit key -> the digest of its entries now,
    Unit.sum), read in one query: those whose entry is there, undamaged, and digests to it
    (docs_sum: 130 units' entries, a shard's, are hashed in 2 ms); the others are left out."""
    keys = {entries_key(output, lang, unit_key): unit_key for unit_key in wanted}
    found = {}
    for key, blob in store.get_many("entries", keys).items():
        unit_key = keys[key]
        try:
            form, entries = pickle.loads(blob)
            if form == ENTRIES_FORMAT and docs_sum(entries) == wanted[unit_key]:
                found[unit_key] = entries
        except Exception:  # noqa: BLE001, S112 - any damage means: made again
            continue
    return found


def save_entries(store: Store, output: str, lang: str, made: dict, gone=(), whole: bool = False) -> bool:
    """Keep the search entries of units `made` (unit key -> entries; none kept for a unit
    without any), in one transaction deleting those of units `gone`, or (`whole`: the language
    was rendered whole) all of the language's others."""
    entries = {
        entries_key(output, lang, unit_key): pickle.dumps(
            (ENTRIES_FORMAT, found), protocol=pickle.HIGHEST_PROTOCOL
        )
        for unit_key, found in made.items()
        if found
    }
    dropped = [entries_key(output, lang, unit_key) for unit_key in gone if unit_key not in made]
    prefix = f"{output}{SEP}{lang}{SEP}" if whole else None
    if not entries and not dropped and prefix is None:
        return True
    return store.put_many("entries", entries, dropped, prefix)
