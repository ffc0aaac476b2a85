"""What each page read, so that a rebuild renders only the pages whose inputs changed.

While a page renders, every record it reads is noted: a field of a data record, a result of
the MLPerf record, an interface string, a template, a report's text, and the derived figures
(the results of a benchmark in a round, fastest first; who submitted what) as records of their
own. A dependency is a pair (tag, key): `tag` names a mapping that can be found again in a
newly loaded site (`resolve`), `key` one entry of it, KEYS its membership and order, ALL all of
it. Its value is hashed (`fingerprint`): records inside a value count by identity, because
the fields a page reads of them are noted on their own.

After a change, the build loads the site, hashes the dependencies of the last build again
(`changed`), and renders exactly the pages that read one whose hash moved; every other page is
hard-linked from the previous output. The tests build every kind of change both ways and
compare the bytes with a cold build."""

from __future__ import annotations

from contextlib import contextmanager

KEYS = "\0keys"  # a mapping's keys, in order (what exists, and how it is ordered)
ALL = "\0all"  # every entry of a mapping
MISSING = "\0missing"


class Reads:
    """Collects the dependencies noted while a page renders (one per loaded site)."""

    __slots__ = ("current",)

    def __init__(self):
        self.current: set | None = None

    def note(self, tag, key) -> None:
        if self.current is not None:
            self.current.add((tag, key))

    def replay(self, deps) -> None:
        if self.current is not None and deps:
            self.current.update(deps)

    @contextmanager
    def collect(self):
        """A fresh set of what is read inside; what it collects also counts for the page
        around it (nested collections are how derived figures remember their inputs)."""
        outer, mine = self.current, set()
        self.current = mine
        try:
            yield mine
        finally:
            self.current = outer
            if outer is not None:
                outer |= mine

    @contextmanager
    def paused(self):
        """Nothing read inside is noted: derived figures noted by their own value."""
        outer, self.current = self.current, None
        try:
            yield
        finally:
            self.current = outer


class Tracked(dict):
    """A dict that notes every read of it. Plain dict behaviour otherwise (pickles as one)."""

    __slots__ = ("tag", "reads")

    def __init__(self, data, tag, reads: Reads):
        dict.__init__(self, data)
        self.tag, self.reads = tag, reads

    def _note(self, key):
        current = self.reads.current
        if current is not None:
            current.add((self.tag, key))

    def __getitem__(self, key):
        current = self.reads.current
        if current is not None:
            current.add((self.tag, key))
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        current = self.reads.current
        if current is not None:
            current.add((self.tag, key))
        return dict.get(self, key, default)

    def __contains__(self, key):
        self._note(key)
        return dict.__contains__(self, key)

    def __iter__(self):
        self._note(KEYS)
        return dict.__iter__(self)

    def __len__(self):
        self._note(KEYS)
        return dict.__len__(self)

    def keys(self):
        self._note(KEYS)
        return dict.keys(self)

    def values(self):
        self._note(ALL)
        return dict.values(self)

    def items(self):
        self._note(ALL)
        return dict.items(self)

    def copy(self):
        self._note(ALL)
        return dict(dict.items(self))

    def __eq__(self, other):
        self._note(ALL)
        return dict.__eq__(self, other)

    __hash__ = None

    def __reduce__(self):
        return dict, (dict(dict.items(self)),)


class TrackedList(list):
    """A list whose every use notes its whole content (reports, pages, the changelog)."""

    __slots__ = ("tag", "reads")

    def __init__(self, data, tag, reads: Reads):
        list.__init__(self, data)
        self.tag, self.reads = tag, reads

    def _note(self):
        self.reads.note(self.tag, ALL)

    def __iter__(self):
        self._note()
        return list.__iter__(self)

    def __len__(self):
        self._note()
        return list.__len__(self)

    def __getitem__(self, index):
        self._note()
        return list.__getitem__(self, index)

    def __contains__(self, item):
        self._note()
        return list.__contains__(self, item)

    def __add__(self, other):
        self._note()
        return list(list.__iter__(self)) + list(other)

    def __reduce__(self):
        return list, (list(list.__iter__(self)),)


class ReplayedList(list):
    """A derived list (comparisons): any use counts as reading everything it was made from."""

    __slots__ = ("reads", "every")

    def __init__(self, data, reads: Reads, every: frozenset):
        list.__init__(self, data)
        self.reads, self.every = reads, every

    def __iter__(self):
        self.reads.replay(self.every)
        return list.__iter__(self)

    def __len__(self):
        self.reads.replay(self.every)
        return list.__len__(self)

    def __getitem__(self, index):
        self.reads.replay(self.every)
        return list.__getitem__(self, index)

    def __reduce__(self):
        return list, (list(list.__iter__(self)),)


def derived_list(reads: Reads, compute) -> ReplayedList:
    with reads.collect() as deps:
        data = compute()
    return ReplayedList(data, reads, frozenset(deps))


class ReadOnly:
    """Refuses writes: the model is read after it is built, never changed."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("the derived model is read-only")

    __setitem__ = __delitem__ = update = pop = popitem = setdefault = clear = _refuse
    append = extend = insert = remove = sort = reverse = _refuse


class ReadOnlyReplayedList(ReadOnly, ReplayedList):
    __slots__ = ()


def read_only(derived: list) -> list:
    """A derived list (derived_list), made read-only in place (the model's maps are
    derive/lazy.py's, read-only themselves)."""
    derived.__class__ = ReadOnlyReplayedList
    return derived
