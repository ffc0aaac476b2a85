"""Parsed content files kept in the cache, so that loading files that did not change costs
little: each entry holds what parsing one file gave (its records) and the problems the parse
reported, and is used only for the same bytes, the same displayed path, the same generator
code (cache.code_digest) and the same languages (a localised text's parse depends on them). A
parse that found errors is never kept: a broken file is parsed, and its errors reported, every
time. A missing, damaged or foreign entry, or a cache that
cannot be read or written, only means the file is parsed again."""

from __future__ import annotations

import functools
import hashlib
import pickle
from pathlib import Path

from sitegen.base import cache
from sitegen.base.languages import Languages


@functools.cache
def code_key() -> str:
    """The generator's code digest: the code of a process never changes."""
    return cache.code_digest()


class ParseCache:
    """One run's view of the cache for a set of files, hashed together when it is made."""

    def __init__(self, paths):
        try:
            self.digests = cache.file_digests(list(paths))
            self.code = code_key()
        except Exception:  # noqa: BLE001 - no cache at all is only slower
            self.digests, self.code = {}, ""
        self.hits = self.misses = 0

    @staticmethod
    def entry_path(kind: str, rel: str) -> Path:
        name = hashlib.sha256(f"{kind}\0{rel}".encode()).hexdigest()[:32]
        return cache.cache_root() / "parsed" / f"{name}.pickle"

    def parse(self, kind: str, path: Path, problems, parse, languages: Languages | None = None):
        """parse()'s value; parse reads `path` and reports its problems to `problems`. From the
        cache, the same value and the same problems (and broken records) as a parse gives.
        `languages`: the site's, when the parse reads them (localised text)."""
        digest = self.digests.get(path)
        if digest is None or not self.code:
            return parse()
        rel = problems.rel(path)
        langs = languages.signature() if languages is not None else ""
        key = hashlib.sha256("\0".join((kind, rel, digest, self.code, langs)).encode()).hexdigest()
        entry = self.entry_path(kind, rel)
        try:
            stored = cache.unseal(entry.read_bytes())
        except OSError:
            stored = None
        if (
            isinstance(stored, tuple)
            and len(stored) == 4
            and stored[0] == key
            and isinstance(stored[2], list)
            and isinstance(stored[3], (set, frozenset))
        ):
            self.hits += 1
            problems.items.extend(stored[2])
            problems.broken.update(stored[3])
            return stored[1]
        self.misses += 1
        known, broken = len(problems.items), set(problems.broken)
        value = parse()
        found = problems.items[known:]
        if cache.read_only() or any(not problem.warning for problem in found):
            return value
        try:
            blob = pickle.dumps((key, value, found, problems.broken - broken), protocol=4)
        except Exception:  # noqa: BLE001 - a value that cannot be kept is parsed next time
            return value
        cache.write_sealed(entry, blob)
        return value


def cached(kind: str, path: Path, problems, parse, languages: Languages | None = None):
    """ParseCache.parse for one file."""
    return ParseCache([path]).parse(kind, path, problems, parse, languages)
