"""The build's memory of what each page read: the dependencies' fingerprints, the state of the
last build of an output folder (its units and what they read), and what changed since.

content/tracking.py notes what a page reads while it renders; this module finds each noted
dependency again in a newly loaded site (`resolve`, `value_of`), hashes it (`fingerprint`),
and says which units are stale; state_store.py saves and loads the state."""

from __future__ import annotations

import datetime as dt
import hashlib
import marshal
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from operator import itemgetter
from pathlib import Path
from typing import Any

from sitegen.content.model import REPORT_READS, Report, Site, SourceFile, ViewMap, reports_by_identity
from sitegen.content.tracking import ALL, KEYS, MISSING, Tracked
from sitegen.derive.record_index import index_of

# --- fingerprints ----------------------------------------------------------------------------


def _canonical(value, out: list) -> None:
    kind = type(value)
    if value is None or kind in (str, int, float, bool, bytes):
        out.append(f"{kind.__name__}:{value!r}")
    elif isinstance(value, Tracked):
        out.append(f"@{value.tag!r}")  # its fields are noted when read
    elif isinstance(value, (dt.date, dt.datetime)):
        out.append(f"{kind.__name__}:{value.isoformat()}")
    elif isinstance(value, dict):
        out.append("{")
        for key, item in dict.items(value):
            _canonical(key, out)
            _canonical(item, out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for item in list.__iter__(value) if isinstance(value, list) else value:
            _canonical(item, out)
        out.append("]")
    elif isinstance(value, (set, frozenset)):
        parts = []
        for item in value:
            one: list = []
            _canonical(item, one)
            parts.append("".join(one))
        out.append("set(" + ",".join(sorted(parts)) + ")")
    elif hasattr(value, "tracking_identity"):
        out.append(f"@{value.tracking_identity!r}")
    elif is_dataclass(value):
        out.append(kind.__name__ + "(")
        for item in fields(value):
            _canonical(getattr(value, item.name), out)
        out.append(")")
    elif isinstance(value, Path):
        out.append(f"path:{value.as_posix()}")
    elif isinstance(value, str):  # Markup and other str subclasses
        out.append(f"str:{str(value)!r}")
    else:  # an object of unknown shape: its repr (one with an address never matches
        out.append(f"{kind.__name__}:{value!r}")  # again, so its pages always render)


def fingerprint(value) -> bytes:
    """A dependency's fingerprint: plain data (a report's text, a list of names) from marshal's
    bytes, made in C (a whole-record rebuild fingerprints up to 12,000 values: _canonical took
    0.8 s of a report edit at N = 1,000); anything else (a date, a record, a report) through
    _canonical, where records count by identity. Format 0: no later format's marks of which
    strings Python interned, so equal values give equal bytes however they were loaded. A set
    goes through _canonical, which sorts it (marshal writes a set of strings in an order that
    differs between processes: its pages would render in every build)."""
    if type(value) not in (set, frozenset):
        try:
            return hashlib.blake2b(b"m" + marshal.dumps(value, 0), digest_size=12).digest()
        except ValueError:
            pass
    out: list = []
    _canonical(value, out)
    return hashlib.blake2b(b"c" + "\x1f".join(out).encode("utf-8", "surrogatepass"), digest_size=12).digest()


def record_fingerprint(record) -> bytes:
    """A whole record's fingerprint (a record of a table or of the MLPerf record, as loaded: a
    whole-record build has about 13,000), and a whole mapping's (whole_fingerprint: a table,
    a language's strings, an index of the record; a record held in it, which marshal does not
    write, counts by identity through `fingerprint`). Plain data (dicts, lists, strings, numbers: what YAML
    and the importer give) is hashed from marshal's bytes, made in C, four times faster than
    _canonical; anything marshal does not write (a date) goes through `fingerprint`. Equal bytes
    mean equal records, so no change is ever missed; a set in a record (YAML's !!set) is
    written in an order that may differ between runs, which at worst renders its pages again.
    Format 2, not 4: from 3 on, marshal writes an object met twice as a back-reference, and
    whether two equal strings are one object depends on how the file was read (YAML or the
    parse cache): 262 unchanged records of an edited round's file fingerprinted as changed."""
    try:
        data = b"m" + marshal.dumps(record, 2)
    except ValueError:
        dated = _dates_marked(record)
        try:
            data = b"d" + marshal.dumps(dated, 2)  # a record whose only dates are its own fields
        except ValueError:
            return fingerprint(record)
    return hashlib.blake2b(data, digest_size=12).digest()


def _dates_marked(record):
    """A record's own dates as (b"date", ISO text) pairs, which marshal writes (a report's front
    matter, a round's dates: 2,000 reports' went through _canonical, 0.1 s of each rebuild at
    N = 1,000); no loaded value is such a pair (YAML gives no tuple, and bytes only tagged)."""
    if type(record) is not dict:
        return record
    return {
        key: (type(item).__name__.encode(), item.isoformat()) if isinstance(item, dt.date) else item
        for key, item in dict.items(record)
    }


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


INDEX = "search-index"  # a language's search index is the unit (language, INDEX): end_units.py


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
    deps: Sequence[int] = ()  # indexes into State.keys (an array once saved)
    # the digest of its pages' search entries (docs_sum); the entries themselves are kept
    # apart, per language (state_store.save_docs), and read only where an index is made again
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
    # what the store holds that this state extends (state_store.Saved: a saved base and the
    # changes since), the state it was made from, and the units rendered since: only these
    # changes are written (state_store.save_state); None: written whole
    saved: Any = None
    previous: State | None = None
    fresh: frozenset = frozenset()
    # each language's search entries in the store: language -> the id of its entry, which
    # holds every unit's entries as this state's units were made (state_store.save_docs)
    docs: dict = field(default_factory=dict)


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


def stale_units(state: State, value) -> tuple[set, list, dict]:
    """(keys of the units that read a dependency whose value changed, the dependencies'
    fingerprints now, in the order of state.keys, and each mapping's whole fingerprint now).
    A mapping whose whole fingerprint is as before is not looked at key by key."""
    hashes, changed = list(state.hashes), set()
    whole = {tag: whole_fingerprint(value, tag) for tag in state.whole}
    settled = {tag for tag, now in whole.items() if now is not None and now == state.whole[tag]}
    for index, (tag, key) in enumerate(state.keys):
        if tag in settled:
            continue
        if tag not in whole:  # a state whose wholes were not all kept
            whole[tag] = whole_fingerprint(value, tag)
        now = fingerprint(value(tag, key))
        if now != state.hashes[index]:
            hashes[index] = now
            changed.add(index)
    stale = {ukey for ukey, unit in state.units.items() if _reads_any(unit.deps, changed)}
    return stale, hashes, whole


# Up to this many changed dependencies, each unit's sorted indexes are searched by bisection;
# past it, every index is looked at (a whole-record state holds about 3 million of them:
# 0.06 s for each rebuild, against 0.01 s for a few changes searched).
FEW_CHANGES = 64


def _reads_any(deps: Sequence[int], changed: set) -> bool:
    """Whether a unit's dependencies (sorted indexes) include one of `changed`."""
    if len(changed) > FEW_CHANGES:
        return not changed.isdisjoint(deps)
    for index in changed:
        at = bisect_left(deps, index)
        if at < len(deps) and deps[at] == index:
            return True
    return False


# A state keeps the keys of the last one, and only adds to them, until it holds this many
# times the keys in use when it was last compacted (keys no unit reads any more are dropped
# then): a small edit costs no re-indexing of the whole site's dependencies.
COMPACT_AT = 1.5


def next_state(
    inputs: str, old: State | None, old_hashes: list | None, old_whole: dict | None, units: dict, value
) -> State:
    """The state of this build: `units` maps each unit key to a Unit whose deps are either
    indexes into old.keys (reused) or a set of (tag, key) pairs (rendered now). `old_hashes`
    and `old_whole`: stale_units' fingerprints of old's keys and records now."""
    keep = old is not None and old_hashes is not None
    keys = list(old.keys) if old is not None and keep else []
    hashes = list(old_hashes) if old_hashes is not None and keep else []
    ids = dict(zip(keys, range(len(keys))))

    def intern(dep):
        found = ids.get(dep)
        if found is None:
            found = ids[dep] = len(keys)
            keys.append(dep)
            hashes.append(fingerprint(value(*dep)))
        return found

    def indexes(deps) -> array:
        found = list(map(ids.get, deps))  # in C: most of a rendered unit's keys are known
        if None in found:
            found = [intern(dep) if index is None else index for index, dep in zip(found, deps)]
        return _indexes(found)

    done, fresh = {}, set()
    for ukey, (unit, rendered) in units.items():
        # a reused unit is kept as it is: its deps are indexes into old.keys, kept as they are
        if rendered:
            unit = Unit(unit.files, indexes(unit.deps), unit.sum, unit.hidden, unit.problems)
            fresh.add(ukey)
        done[ukey] = unit
    live = old.live if old is not None and keep else len(keys)  # 0 in a state saved before it was counted
    state = State(inputs, done, keys, hashes, {}, live)
    if keep and len(keys) > COMPACT_AT * max(live, 1):
        return _compacted(state, old_whole or {}, value)
    state.whole = _wholes(keys, old_whole or {}, value)
    if keep and old is not None:  # only what changed since `old` is saved
        state.saved, state.previous, state.fresh = old.saved, old, frozenset(fresh)
    return state


def _indexes(found) -> array:
    """A unit's dependencies as sorted indexes into State.keys, in an array: a whole-record
    state holds about 3.6 million of them, which load as one block each instead of one int each
    (a fifth of the time)."""
    return array("I", sorted(found))


def _compacted(state: State, known_whole: dict, value) -> State:
    """The state with only the keys some unit reads, renumbered."""
    ids: dict = {}
    keys: list = []
    hashes: list = []
    units = {}
    for ukey, unit in state.units.items():
        deps = []
        for i in unit.deps:
            dep = state.keys[i]
            found = ids.get(dep)
            if found is None:
                found = ids[dep] = len(keys)
                keys.append(dep)
                hashes.append(state.hashes[i])
            deps.append(found)
        units[ukey] = Unit(unit.files, _indexes(deps), unit.sum, unit.hidden, unit.problems)
    return State(state.inputs, units, keys, hashes, _wholes(keys, known_whole, value), len(keys))


def _wholes(keys: list, known: dict, value) -> dict:
    """The whole fingerprint of every mapping among `keys` (those in `known` not computed
    again); None for those that are not plain mappings."""
    return {
        tag: known[tag] if tag in known else whole_fingerprint(value, tag)
        for tag in dict.fromkeys(map(itemgetter(0), keys))
    }
