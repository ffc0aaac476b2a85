"""The state of an output folder's last build (state.State) in the build's store, table
`units`: a base, written whole now and then, and the changes since it, so that an edit
writes only what it changed (a whole-record state is 25 MB; pickling and writing it again
after every edit took 0.5 s of each rebuild).

Two entries per output folder: the base (`output`) and the changes since (`output` + DELTA),
each naming the base by a random id. A rebuild writes the changes only, each time all of them
since the base: the units rendered or dropped since, the dependencies added, the fingerprints
that moved. When those reach a share of the state (REBASE_AT), or the keys were compacted, or
there is no state to extend, the base is written again, with empty changes, in one
transaction. Either entry missing or damaged, or the two naming different bases: no state
(everything is rendered).

The units' search entries (their pages' search documents, the record's search rows) are not in
these entries: each unit keeps their digest (Unit.sum), and each language's are entries of
their own (`output` + DOCS + language: a base, and the changes since it with DELTA), written by
the language's process when it made its search index again (save_docs: the changes only, until
they pass REBASE_AT), under ids the state keeps (State.docs), and read only by a language's
process that makes its index again (load_docs; assemble/end_units.py). Either entry missing,
damaged or of another id: its units' entries are made again by rendering them (never taken
from another build)."""

from __future__ import annotations

import errno
import os
import pickle
from array import array
from dataclasses import dataclass, field

from sitegen.assemble.state import State, Unit
from sitegen.base.store import Store

STATE_FORMAT = 6  # a state saved in another layout is not read (all rendered)
DELTA = "+changes"  # the key of the changes since the base: the output's key and this
DOCS = "+docs:"  # the key of a language's search entries: the output's key, this, the language
# The base is written again when the units changed since it pass this share of all units
# (a result edit renders about 400 of a whole record's 11,000 units).
REBASE_AT = 0.25


@dataclass
class Saved:
    """What the store holds of a state: the base's id and number of keys, and the changes
    since it (the units rendered or added, the units dropped, the fingerprints of the base's
    keys that moved, the whole fingerprints that moved)."""

    base: bytes
    keys: int
    units: set = field(default_factory=set)
    gone: set = field(default_factory=set)
    moved: dict = field(default_factory=dict)
    whole: dict = field(default_factory=dict)


def save_state(store: Store, output: str, state: State) -> None:
    """Write the changes since the saved base, or the state whole as a new base."""
    saved = _changes(state) if state.saved is not None and state.previous is not None else None
    if saved is None or _grown(saved, state):
        saved = Saved(os.urandom(12), len(state.keys))
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
        state = _from_base(pickle.loads(base))
        if state is None or not _apply(state, pickle.loads(delta)):
            return None
        return state
    except Exception:  # noqa: BLE001 - any damage means: build without reuse
        return None


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
    moved.update(
        (index, hash_now)
        for index, (hash_before, hash_now) in enumerate(zip(old.hashes[: before.keys], state.hashes))
        if hash_before != hash_now
    )
    whole = dict(before.whole)
    whole.update((tag, now) for tag, now in state.whole.items() if old.whole.get(tag, b"") != now)
    return Saved(before.base, before.keys, units - gone, gone, moved, whole)


def _packed(units: dict, keys) -> tuple[dict, array, array]:
    """Units' records, and their dependency indexes packed into one array with each unit's
    end (7,700 small arrays pickled one by one took half of the time of saving and loading)."""
    packed, ends, records = array("I"), array("I"), {}
    for key in keys:
        unit = units[key]
        packed.extend(unit.deps)
        ends.append(len(packed))
        records[key] = (unit.files, unit.sum, unit.hidden, unit.problems)
    return records, packed, ends


def _unpacked(records: dict, packed: array, ends: array) -> dict:
    units, start = {}, 0
    for (key, (files, digest, hidden, problems)), end in zip(records.items(), ends):
        units[key] = Unit(files, packed[start:end], digest, hidden, problems)
        start = end
    return units


def _base_blob(state: State, saved: Saved) -> bytes:
    records, packed, ends = _packed(state.units, state.units)
    base = (STATE_FORMAT, saved.base, records, packed, ends, state.keys, state.hashes, state.whole)
    return pickle.dumps(base, protocol=pickle.HIGHEST_PROTOCOL)


def _delta_blob(state: State, saved: Saved) -> bytes:
    records, packed, ends = _packed(state.units, list(saved.units))
    added = (state.keys[saved.keys :], state.hashes[saved.keys :])
    delta = (STATE_FORMAT, saved.base, state.inputs, state.live, records, packed, ends, saved.gone, added)
    return pickle.dumps((*delta, saved.moved, saved.whole, state.docs), protocol=pickle.HIGHEST_PROTOCOL)


def _from_base(data) -> State | None:
    form, base, records, packed, ends, keys, hashes, whole = data
    if form != STATE_FORMAT:
        return None
    state = State("", _unpacked(records, packed, ends), keys, hashes, whole)
    state.saved = Saved(base, len(keys))
    return state


def _apply(state: State, data) -> bool:
    """The changes since the base applied to it; False when they are of another base."""
    form, base, inputs, live, records, packed, ends, gone, (keys, hashes), moved, whole, docs = data
    saved = state.saved
    if form != STATE_FORMAT or saved is None or base != saved.base:
        return False
    for key in gone:
        state.units.pop(key, None)
    state.units.update(_unpacked(records, packed, ends))
    state.keys.extend(keys)
    state.hashes.extend(hashes)
    for index, hash_now in moved.items():
        state.hashes[index] = hash_now
    state.whole.update(whole)
    state.inputs, state.live, state.docs = inputs, live, docs
    state.saved = Saved(base, saved.keys, set(records), set(gone), moved, whole)
    return True


@dataclass
class Docs:
    """A language's search entries as kept: the id of their base (None: none to extend), the
    base's entries, and all of them (the base's with the changes since)."""

    base: bytes | None = None
    based: dict = field(default_factory=dict)
    entries: dict = field(default_factory=dict)


def save_docs(store: Store, output: str, lang: str, docs: dict, kept: Docs) -> tuple | None:
    """Keep one language's search entries (unit key -> its entries, as Unit.sum digests them):
    those that differ from the base they were read from (`kept`), or all of them as a new base
    when those pass REBASE_AT of them; (base id, changes id), which the state saved next names
    (State.docs), or None when they could not be kept (the next build makes them again)."""
    changed = {key: entries for key, entries in docs.items() if kept.based.get(key) != entries}
    base, ident, key = kept.base, os.urandom(12), output + DOCS + lang
    entries = {}
    if base is None or len(changed) > REBASE_AT * max(len(docs), 1):
        base, changed = os.urandom(12), {}
        entries[key] = pickle.dumps((STATE_FORMAT, base, docs), protocol=pickle.HIGHEST_PROTOCOL)
    entries[key + DELTA] = pickle.dumps(
        (STATE_FORMAT, base, ident, changed), protocol=pickle.HIGHEST_PROTOCOL
    )
    return (base, ident) if store.put_many("units", entries) else None


def load_docs(store: Store, output: str, lang: str, ident: tuple | None) -> Docs:
    """One language's search entries kept under `ident` (State.docs: its base's id and its
    changes' id); none when either entry is missing, damaged or another's."""
    if not isinstance(ident, tuple) or len(ident) != 2:
        return Docs()
    key = output + DOCS + lang
    found = store.get_many("units", [key, key + DELTA])
    try:
        form, base, based = pickle.loads(found[key])
        form_changes, of, changes_id, changes = pickle.loads(found[key + DELTA])
    except Exception:  # noqa: BLE001 - any damage (or an entry missing) means: no entries (made again)
        return Docs()
    if (form, form_changes, base, of, changes_id) != (
        STATE_FORMAT,
        STATE_FORMAT,
        ident[0],
        ident[0],
        ident[1],
    ):
        return Docs()
    return Docs(base, based, {**based, **changes})
