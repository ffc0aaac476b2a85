"""Fingerprints of the values a page read (assemble/state.py keeps them per dependency): plain
data hashed from marshal's bytes, made in C; anything else through a canonical text."""

from __future__ import annotations

import datetime as dt
import hashlib
import marshal
from dataclasses import fields, is_dataclass
from pathlib import Path

from sitegen.content.tracking import Tracked


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
