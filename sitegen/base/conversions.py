"""Converted text kept between builds, per load: the conversions a load's Languages makes
(languages.Languages.convert) and what the store kept of them.

Loading OpenCC's dictionaries takes 0.1 s: a build whose text was all converted before takes
the conversions from the store (table `conversions`) instead, and never loads them: each
load's Languages carries its Conversions, saved when the load ends."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


@dataclass
class _Kept:
    key: str  # the store's key
    known: dict  # text -> converted text, as the last load left them
    used: dict  # what this load converted (saved by Conversions.keep)


@dataclass
class Conversions:
    """One load's converted text: what `store` kept (None: nothing) and what the load converts;
    `keep` saves the latter at the end of the load."""

    store: Any = None
    kept: dict[tuple, _Kept] = field(default_factory=dict)
    made: int = 0  # texts this load converted (the others were kept)

    def of(self, key: tuple) -> _Kept:
        """The conversions of one converter configuration, term list and pair of languages
        (and this generator's code and libraries, OpenCC's dictionaries among them)."""
        found = self.kept.get(key)
        if found is None:
            from sitegen.base import cache

            digest = hashlib.sha256(repr((cache.code_digest(self.store), key)).encode()).hexdigest()[:32]
            known = self.store.get_value("conversions", digest) if self.store is not None else None
            found = self.kept[key] = _Kept(digest, known if isinstance(known, dict) else {}, {})
        return found

    def keep(self) -> None:
        """Save what this load converted (only that: text no longer converted is dropped), when
        it differs from what was kept; then start a next load's record afresh."""
        for kept in self.kept.values():
            if not kept.used:  # no text of that language in this load
                continue
            if kept.used != kept.known and self.store is not None and not self.store.read_only:
                self.store.put_value("conversions", kept.key, kept.used)
            kept.known, kept.used = kept.used, {}
