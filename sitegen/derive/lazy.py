"""The model's derived maps, each entry computed when first read (model.build).

A rebuild renders the few pages whose inputs changed; they read a few entries of the model,
so only those are computed. An entry is computed once per build, with nothing noted for the
page that happens to ask first (content/tracking.py `paused`): what it read is kept as its own
dependencies and replayed to every page that reads it, as `derived_list` does for a list.
A build that renders many pages in forked processes computes every entry first (`complete`,
assemble/rendering.py), so that no process computes one again."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sitegen.content.tracking import ReadOnly, Reads

_UNLISTED = object()


class LazyReplayed(ReadOnly, Mapping):
    """A derived mapping: `listing()` gives each key its group (computed together, in key
    order), `compute(group)` the group's {key: value}. Reading an entry counts as reading what
    its group's computation read; listing the map, what every group and the listing read."""

    __slots__ = ("reads", "_listing", "_compute", "_groups", "_values", "_deps", "_every", "_base")

    def __init__(self, reads: Reads, listing: Callable[[], dict], compute: Callable[[Any], dict]):
        self.reads = reads
        self._listing, self._compute = listing, compute
        self._groups: dict | None = None  # key -> its group, in the map's order
        self._values: dict = {}
        self._deps: dict = {}  # group -> what its computation read
        self._every: frozenset | None = None
        self._base: frozenset = frozenset()

    def _keyed(self) -> dict:
        if self._groups is None:
            with self.reads.paused(), self.reads.collect() as listed:
                groups = self._listing()
            self._groups, self._base = groups, frozenset(listed)
        return self._groups

    def _deps_of(self, key) -> frozenset:
        """What the entry's computation read (computed now if it was not); for a key the map
        does not hold, what the whole map read."""
        group = self._keyed().get(key, _UNLISTED)
        return self.every() if group is _UNLISTED else self._computed(group)

    def _computed(self, group) -> frozenset:
        """What the group's computation read, computing it first if it was not."""
        found = self._deps.get(group)
        if found is None:
            with self.reads.paused(), self.reads.collect() as mine:
                self._values.update(self._compute(group))
            found = self._deps[group] = frozenset(mine)
        return found

    def every(self) -> frozenset:
        """What the whole map read (every entry computed)."""
        if self._every is None:
            for group in dict.fromkeys(self._keyed().values()):
                self._computed(group)
            self._every = self._base.union(*self._deps.values())
        return self._every

    def complete(self) -> None:
        """Every entry computed now (before a build forks its languages)."""
        self.every()

    def __getitem__(self, key):
        self.reads.replay(self._deps_of(key))
        return self._values[key]

    def get(self, key, default=None):
        self.reads.replay(self._deps_of(key))
        return self._values.get(key, default)

    def __contains__(self, key) -> bool:
        self.reads.replay(self._deps_of(key))
        return key in self._values

    def __iter__(self):
        self.reads.replay(self.every())
        return iter(self._groups or ())

    def __len__(self) -> int:
        self.reads.replay(self.every())
        return len(self._groups or ())

    def keys(self):
        self.reads.replay(self.every())
        return dict.fromkeys(self._groups or ()).keys()

    def values(self):
        self.reads.replay(self.every())
        return [self._values[key] for key in self._groups or ()]

    def items(self):
        self.reads.replay(self.every())
        return [(key, self._values[key]) for key in self._groups or ()]

    def __eq__(self, other) -> bool:
        return dict(self.items()) == (dict(other.items()) if isinstance(other, Mapping) else other)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        return dict, (dict(self.items()),)


def lazy_mapping(reads: Reads, items: Callable) -> LazyReplayed:
    """A derived map, each entry computed when first read: `items()` gives the (key, compute)
    pairs, listed when the map is first used (what listing them reads counts for the whole
    map)."""
    thunks: dict = {}

    def listing() -> dict:
        thunks.update(items())
        return {key: key for key in thunks}

    return LazyReplayed(reads, listing, lambda key: {key: thunks[key]()})
