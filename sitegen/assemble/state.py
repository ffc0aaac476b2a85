"""The build's memory of what each page read: the dependencies' fingerprints, the state of the
last build of an output folder (its units and what they read), and what changed since.

content/tracking.py notes what a page reads while it renders; this module finds each noted
dependency again in a newly loaded site (`resolve`, `value_of`), hashes it (`fingerprint`),
and says which units are stale; state_store.py saves and loads the state."""

from __future__ import annotations

import hashlib
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sitegen.assemble.fingerprints import fingerprint, record_fingerprint
from sitegen.content.model import REPORT_READS, Report, Site, SourceFile, ViewMap, reports_by_identity
from sitegen.content.tracking import ALL, KEYS, MISSING
from sitegen.derive.record_index import index_of

# --- finding a dependency again in a newly loaded site -------------------------------------


def resolve(site: Site, tag: tuple):
    """The mapping a dependency's tag names, in `site` (value_of reads the key); None for
    tags that are not the site's (templates and static files: render/theme.py)."""
    kind = tag[0]
    if kind in ("table", "rec"):
        table = {"record": site.record, "rounds": site.rounds}.get(tag[1]) or site.tables.get(tag[1], {})
        return table if kind == "table" else dict.get(table, tag[2])
    if kind == "strings":
        return site.strings.get(tag[1])
    if kind in ("meta", "report", "page"):
        found = reports_by_identity(site).get(tag[1:] if kind == "meta" else tag)
        return None if found is None else (found.meta if kind == "meta" else found)
    if kind == "reports":
        return site.reports if tag[1] == "report" else site.pages
    if kind == "changelog":
        return site.changelog
    if kind == "view":
        return ViewMap(site, tag[1])
    if kind == "index":
        return getattr(index_of(site), tag[1], None)
    return None


def value_of(mapping, key):
    if mapping is MISSING or mapping is None:
        return MISSING
    if key == KEYS:
        return list(dict.keys(mapping)) if isinstance(mapping, dict) else MISSING
    if key == REPORT:
        return _report_reads(mapping) if isinstance(mapping, Report) else MISSING
    if key == PARSED:
        return vars(mapping).get("parsed") or MISSING if isinstance(mapping, Report) else MISSING
    if key == ALL:
        if isinstance(mapping, dict):
            return dict(dict.items(mapping))
        if isinstance(mapping, list):
            return list(list.__iter__(mapping))
        return MISSING
    if isinstance(mapping, dict):
        return dict.get(mapping, key, MISSING)
    if hasattr(mapping, "lookup"):  # a derived view (model.VIEWS)
        return mapping.lookup(key)
    if isinstance(key, str) and key.startswith("@"):  # an attribute of a report
        return getattr(mapping, key[1:], MISSING)
    return MISSING


# a language's search index: its entry script is the unit (language, INDEX), each of its shards
# (language, INDEX, number): end_units.py
INDEX = "search-index"


def docs_sum(docs: list) -> bytes:
    """The digest of a unit's search entries (bytes, or (url, bytes) pairs), in their order;
    b"" for none, so that a unit without entries needs none read back."""
    if not docs:
        return b""
    digest = hashlib.blake2b(digest_size=16)
    for doc in docs:
        for part in doc if isinstance(doc, tuple) else (doc,):
            data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else bytes(part)
            digest.update(b"%d:" % len(data) + data)
        digest.update(b";")
    return digest.digest()


@dataclass
class Unit:
    """What one unit of output (a page with the files made with it) was made from."""

    files: dict  # output path -> sha256
    # rendered now: the (tag, key) pairs it read; in a State: the ids of the runs (State.runs)
    # whose indexes into State.keys together are what it read
    deps: Sequence = ()
    # the digest of its pages' search entries (docs_sum); the entries themselves are kept
    # apart, an entry per unit (state_store.save_entries), read only where an index is made again
    sum: bytes = b""
    hidden: list = field(default_factory=list)  # pages kept out of search engines
    problems: list = field(default_factory=list)  # warnings said again when it is reused


@dataclass
class State:
    """The last build of one output folder, as far as reuse needs it."""

    inputs: str  # what every page depends on (code, site.yaml, languages ...)
    units: dict  # unit key -> Unit
    keys: list  # dependency keys (tag, key)
    hashes: list  # their fingerprints, in the same order
    whole: dict  # tag -> fingerprint of its whole mapping, when it is one (fast check)
    live: int = 0  # keys in use when the keys were last compacted
    runs_live: int = 0  # runs then (0: unknown, the runs it holds)
    # what the store holds that this state extends (state_store.Saved: a saved base and the
    # changes since), the state it was made from, and the units rendered since: only these
    # changes are written (state_store.save_state); None: written whole
    saved: Any = None
    previous: State | None = None
    fresh: frozenset = frozenset()
    # the units' dependencies as runs: distinct sorted arrays of indexes into keys, each kept
    # once (a unit's pages in every language read mostly the same keys: a whole record's
    # 4.8 million indexes are 1.5 million in runs); a unit names the runs it read (Unit.deps)
    runs: list = field(default_factory=list)
    tags: dict = field(default_factory=dict)  # tag -> the indexes of its keys (an array)
    data: str = ""  # the data digest (cache.data_digest) the wholes of DATA_KINDS were made at

    def indexes(self, unit: Unit) -> list[int]:
        """The sorted indexes into keys of what a unit of this state read."""
        return sorted({index for run in unit.deps for index in self.runs[run]})


def tags_of(keys: list) -> dict:
    """tag -> the indexes of its keys, in order (State.tags)."""
    found: dict = {}
    for index, (tag, _) in enumerate(keys):
        found.setdefault(tag, []).append(index)
    return {tag: array("I", indexes) for tag, indexes in found.items()}


# --- what changed since the last build, and the state of this one --------------------------


def current_values(site_resolve, theme_value):
    """value(tag, key) in the newly loaded site: `site_resolve(tag)` gives the mapping of a
    site's tag (model.resolve), `theme_value(tag, key)` a template's or static file's bytes."""
    mappings: dict = {}

    def value(tag, key):
        if tag[0] in ("template", "static"):
            return theme_value(tag, key)
        if tag not in mappings:
            mappings[tag] = site_resolve(tag)
        return value_of(mappings[tag], key)

    return value


def whole_fingerprint(value, tag) -> bytes | None:
    """The fingerprint of the whole mapping `tag` names (a record, a table, a language's
    strings, an index of the record, a report's readable attributes), or None when it is not
    a plain mapping (a derived view, a list of reports: their keys are checked one by one).
    Every key's value, the keys and their order are the mapping's own, so an equal fingerprint
    means none of them changed. A report's front matter and body stand as the key of the parse
    they are (Report.parsed), when known: it names the bytes, code and languages they are a
    function of (hashing 2,000 bodies and front matters took 0.07 s of a report edit)."""
    if tag[0] == "meta":
        parsed = value(tag[1:], PARSED)  # (tag[1:]: the report's own tag)
        if parsed is not MISSING and type(parsed) is str:
            return hashlib.blake2b(b"p" + parsed.encode(), digest_size=12).digest()
    mapping = value(tag, REPORT if tag[0] in ("report", "page") else ALL)
    return record_fingerprint(mapping) if isinstance(mapping, dict) else None


REPORT = ("report",)  # value_of's key for all a report's page may read, as plain data
PARSED = ("parsed",)  # value_of's key for the key of a report's parse (Report.parsed)


def _report_reads(report: Report) -> dict:
    """Everything a page may read of a report (model.REPORT_READS, each noted as "@name"), as
    data marshal writes: its source file as its fields (one fingerprint a report instead of
    five, none of them through _canonical); its body as the key of the parse it is, when known
    (a tuple: no body is one)."""
    found, attrs = {}, vars(report)  # as kept, not read through model._Noted (noted)
    for name in sorted(REPORT_READS):
        item = attrs[name]
        if isinstance(item, SourceFile):
            item = ("source", str(item.path), item.rel, item.slug, item.lang)
        found[name] = item
    if attrs.get("parsed"):
        found["body"] = ("parsed", attrs["parsed"])
    return found


# The tags whose mappings are made from the site's data alone (load.load_site makes the record,
# the tables, the strings and, from them, the record's index before it reads a report): with
# the data digest as before, their whole fingerprints are as before (2,600 of them took 0.07 s
# of a whole-record report edit).
DATA_KINDS = frozenset({"rec", "table", "index", "strings"})


def stale_units(state: State, value, data: str = "") -> tuple[set, list, dict]:
    """(keys of the units that read a dependency whose value changed, the dependencies'
    fingerprints now, in the order of state.keys, and each mapping's whole fingerprint now).
    A mapping whose whole fingerprint is as before is not looked at key by key (its keys are
    found by their tag: State.tags); a run of indexes is searched once for all the units
    that read it. `data`: the data digest now; as the state's, DATA_KINDS are not hashed."""
    hashes, changed = list(state.hashes), set()
    same = bool(data) and data == state.data
    whole = {
        tag: state.whole[tag] if same and tag[0] in DATA_KINDS else whole_fingerprint(value, tag)
        for tag in state.whole
    }
    for tag, indexes in state.tags.items():
        if tag not in whole:  # a state whose wholes were not all kept
            whole[tag] = whole_fingerprint(value, tag)
        if whole[tag] is not None and whole[tag] == state.whole.get(tag):
            continue
        for index in indexes:
            now = fingerprint(value(*state.keys[index]))
            if now != state.hashes[index]:
                hashes[index] = now
                changed.add(index)
    if not changed:
        return set(), hashes, whole
    runs = {number for number, run in enumerate(state.runs) if _reads_any(run, changed)}
    stale = {ukey for ukey, unit in state.units.items() if not runs.isdisjoint(unit.deps)}
    return stale, hashes, whole


# Up to this many changed dependencies, each run's sorted indexes are searched by bisection;
# past it, every index is looked at (a whole-record state holds about 1.5 million of them).
FEW_CHANGES = 64


def _reads_any(run: Sequence[int], changed: set) -> bool:
    """Whether a run of dependencies (sorted indexes) includes one of `changed`."""
    if len(changed) > FEW_CHANGES:
        return not changed.isdisjoint(run)
    for index in changed:
        at = bisect_left(run, index)
        if at < len(run) and run[at] == index:
            return True
    return False


# A state keeps the keys and runs of the last one, and only adds to them, until it holds
# this many times the keys (or runs) in use when it was last compacted (those no unit reads
# any more are dropped then): a small edit costs no re-indexing of the whole site's
# dependencies.
COMPACT_AT = 1.5


def next_state(
    inputs: str,
    old: State | None,
    old_hashes: list | None,
    old_whole: dict | None,
    units: dict,
    value,
    data: str = "",
) -> State:
    """The state of this build: `units` maps each unit key to (Unit, rendered now), whose deps
    are run ids of old.runs (reused) or the set of (tag, key) pairs it read (rendered now).
    `old_hashes` and `old_whole`: stale_units' fingerprints of old's keys and records now;
    `data`: the data digest now (State.data)."""
    keep = old is not None and old_hashes is not None
    state = State(inputs, {}, [], [], {}, 0, data=data)
    if keep and old is not None:
        state.keys, state.hashes, state.live = list(old.keys), list(old_hashes or ()), old.live
        state.runs, state.tags = list(old.runs), dict(old.tags)
        state.runs_live = old.runs_live or len(old.runs)
    indexes, added = _interning(state, value)
    made = _as_runs(state, units, indexes, old.units if keep and old is not None else {})
    for tag, more in added.items():  # new arrays: old's stay as they were
        state.tags[tag] = array("I", [*state.tags.get(tag, ()), *more])
    state.units = {ukey: made.get(ukey, unit) for ukey, (unit, _) in units.items()}
    if not keep:
        state.live, state.runs_live = len(state.keys), len(state.runs)
    elif len(state.keys) > COMPACT_AT * max(state.live, 1) or len(state.runs) > COMPACT_AT * max(
        state.runs_live, 1
    ):
        return _compacted(state, old_whole or {}, value)
    state.whole = _wholes(state.tags, old_whole or {}, value)
    if keep and old is not None:  # only what changed since `old` is saved
        state.saved, state.previous, state.fresh = old.saved, old, frozenset(made)
    return state


def _interning(state: State, value):
    """(indexes(deps): the set of indexes into state.keys of (tag, key) pairs, each new one
    added to the keys with its fingerprint now; tag -> the indexes of its keys added, for
    State.tags)."""
    keys, hashes = state.keys, state.hashes
    ids = dict(zip(keys, range(len(keys))))
    added: dict = {}

    def intern(dep) -> int:
        found = ids[dep] = len(keys)
        keys.append(dep)
        hashes.append(fingerprint(value(*dep)))
        added.setdefault(dep[0], []).append(found)
        return found

    def indexes(deps) -> set:
        found = list(map(ids.get, deps))  # in C: most of a rendered unit's keys are known
        if None in found:
            found = [intern(dep) if index is None else index for index, dep in zip(found, deps)]
        return set(found)

    return indexes, added


def _as_runs(state: State, units: dict, indexes, before: dict) -> dict:
    """The units rendered now, each with its dependencies as runs of state.runs: those it
    shares with the same unit in the other languages (their common indexes, or a reused
    one's first run, when it read all of it) and the rest. A run equal to one made now, or to
    one the unit or its siblings read before (`before`: the last state's units), is that run
    (telling it from all the others would cost a rebuild a look at each)."""
    rests = {ukey[1:] for ukey, (_, fresh) in units.items() if fresh}
    siblings: dict = {}
    for ukey in units:
        if ukey[1:] in rests:
            siblings.setdefault(ukey[1:], []).append(ukey)
    made: dict = {}
    numbers: dict = {}  # a run's bytes -> its number
    for members in siblings.values():
        read = {k: indexes(units[k][0].deps) for k in members if units[k][1]}
        reused = [units[k][0] for k in members if k not in read]
        for unit in [*reused, *(before[k] for k in read if k in before)]:
            for number in unit.deps:
                numbers.setdefault(state.runs[number].tobytes(), number)
        shared = _shared(state, read, reused)
        for ukey, found in read.items():
            parts = (shared, found - shared) if shared else (found,)
            runs = tuple(_run_number(state, numbers, part) for part in parts if part)
            unit = units[ukey][0]
            made[ukey] = Unit(unit.files, runs, unit.sum, unit.hidden, unit.problems)
    return made


def _shared(state: State, read: dict, reused: list) -> set:
    """The indexes the siblings rendered now share: a reused sibling's first run of two (its
    shared one) when every one read all of it, else what all of them read (when two or more
    were rendered), else none."""
    for unit in reused:
        if len(unit.deps) == 2:
            run = set(state.runs[unit.deps[0]])
            if all(run <= indexes for indexes in read.values()):
                return run
    return set.intersection(*read.values()) if len(read) > 1 else set()


def _run_number(state: State, numbers: dict, indexes: set) -> int:
    run = array("I", sorted(indexes))
    data = run.tobytes()
    found = numbers.get(data)
    if found is None:
        found = numbers[data] = len(state.runs)
        state.runs.append(run)
    return found


def _compacted(state: State, known_whole: dict, value) -> State:
    """The state with only the keys and runs some unit reads, renumbered in their order (a
    run stays sorted)."""
    used = {number for unit in state.units.values() for number in unit.deps}
    live = sorted({index for number in used for index in state.runs[number]})
    renumbered = dict(zip(live, range(len(live))))
    runs: list = []
    numbers: dict = {}
    for number in sorted(used):
        numbers[number] = len(runs)
        runs.append(array("I", map(renumbered.__getitem__, state.runs[number])))
    units = {
        ukey: Unit(unit.files, tuple(numbers[n] for n in unit.deps), unit.sum, unit.hidden, unit.problems)
        for ukey, unit in state.units.items()
    }
    keys, hashes = [state.keys[i] for i in live], [state.hashes[i] for i in live]
    tags = tags_of(keys)
    wholes = _wholes(tags, known_whole, value)
    compacted = State(state.inputs, units, keys, hashes, wholes, len(keys), data=state.data)
    compacted.runs, compacted.tags, compacted.runs_live = runs, tags, len(runs)
    return compacted


def _wholes(tags: dict, known: dict, value) -> dict:
    """The whole fingerprint of every mapping among `tags` (those in `known` not computed
    again); None for those that are not plain mappings."""
    return {tag: known[tag] if tag in known else whole_fingerprint(value, tag) for tag in tags}
