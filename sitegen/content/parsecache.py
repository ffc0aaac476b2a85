"""Parsed content files kept in the store (table `parsed`), so that loading files that did not
change costs little: each entry holds what parsing one file gave (its records) and the
problems the parse reported, and is used only for the same bytes, the same displayed path,
the same generator code (cache.code_digest) and the same languages (a localised text's parse
depends on them). A parse that found errors is never kept: a broken file is parsed, and its
errors reported, every time; nor is one whose file changed while it was parsed (its bytes are
not the ones its key names). A missing, damaged or foreign entry, or a store that cannot be
read or written, only means the file is parsed again.

The store is the load's: `problems.store` (errors.Problems), None for no store."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from sitegen.base import cache
from sitegen.base.languages import Languages

TABLE = "parsed"


class ParseCache:
    """One load's view of the store for a set of files, hashed together at the first parse."""

    def __init__(self, paths):
        self.paths = list(paths)
        self.digests: dict | None = None
        self.code = ""
        self.languages: tuple | None = None  # (the languages last asked for, their signature)
        self.stored: dict[str, dict[Path, bytes | None]] = {}  # kind -> each file's entry
        self.hits = self.misses = 0
        # path -> the key of its parse, when its value is the parse of the bytes the key names
        # (taken from the store, or parsed and the file unchanged since it was hashed)
        self.keys: dict[Path, str] = {}

    def _hashed(self, store, scanned: dict) -> None:
        """Each file's digest: the build's scan's (`scanned`: errors.Problems.scanned), else
        hashed now (only when its status changed: cache.file_digests)."""
        try:
            digests = {path: scanned[path] for path in self.paths if path in scanned}
            rest = [path for path in self.paths if path not in digests]
            self.digests = {**digests, **(cache.file_digests(rest, store) if rest else {})}
            self.code = cache.code_digest(store)
        except Exception:  # noqa: BLE001 - no cache at all is only slower
            self.digests, self.code = {}, ""

    @staticmethod
    def entry_key(kind: str, rel: str) -> str:
        return hashlib.sha256(f"{kind}\0{rel}".encode()).hexdigest()[:32]

    def parse(
        self, kind: str, path: Path, problems, parse, languages: Languages | None = None, given: str = ""
    ):
        """parse()'s value; parse reads `path` and reports its problems to `problems`. From the
        store, the same value and the same problems (and broken records) as a parse gives.
        `languages`: the site's, when the parse reads them (localised text); `given`: a digest
        of whatever else parse reads."""
        store = problems.store
        if store is None:
            return parse()
        if self.digests is None:
            self._hashed(store, problems.scanned)
        digest = self.digests.get(path) if self.digests else None
        if digest is None or not self.code:
            store.work["files parsed"] += 1
            return parse()
        rel = problems.rel(path)
        langs = self._signature(languages)
        key = hashlib.sha256("\0".join((kind, rel, digest, self.code, langs, given)).encode()).hexdigest()
        stored = _value(self._stored(store, kind, problems).get(path))
        if (
            isinstance(stored, tuple)
            and len(stored) == 4
            and stored[0] == key
            and isinstance(stored[2], list)
            and isinstance(stored[3], (set, frozenset))
        ):
            self.hits += 1
            store.work["parses reused"] += 1
            problems.items.extend(stored[2])
            problems.broken.update(stored[3])
            self.keys[path] = key
            return stored[1]
        self.misses += 1
        store.work["files parsed"] += 1
        known, broken = len(problems.items), set(problems.broken)
        value = parse()
        found = problems.items[known:]
        if cache.file_digests([path], store).get(path) != digest:
            return value  # changed since it was hashed: the parse may be of other bytes
        self.keys[path] = key
        if not store.read_only and not any(not problem.warning for problem in found):
            entry = self.entry_key(kind, rel)
            store.put_value(TABLE, entry, (key, value, found, problems.broken - broken))
        return value

    def _signature(self, languages: Languages | None) -> str:
        """The languages' signature, made once per set (a repr of the whole term list)."""
        if languages is None:
            return ""
        if self.languages is None or self.languages[0] is not languages:
            self.languages = (languages, languages.signature())
        return self.languages[1]

    def _stored(self, store, kind: str, problems) -> dict[Path, bytes | None]:
        """The store's entry of `kind` of each file of the set, by path, read together at the
        first parse of that kind (one query, not one per file)."""
        found = self.stored.get(kind)
        if found is None:
            entries = {path: self.entry_key(kind, problems.rel(path)) for path in self.digests or ()}
            kept = store.get_many(TABLE, entries.values())
            found = self.stored[kind] = {path: kept.get(entry) for path, entry in entries.items()}
        return found


def _value(blob: bytes | None):
    """An entry's value; None for none, or a damaged one."""
    try:
        return pickle.loads(blob) if blob is not None else None
    except Exception:  # noqa: BLE001 - a damaged entry of any kind is only a miss
        return None


def cached(kind: str, path: Path, problems, parse, languages: Languages | None = None):
    """ParseCache.parse for one file."""
    return ParseCache([path]).parse(kind, path, problems, parse, languages)
