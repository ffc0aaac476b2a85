"""The content model: plain records, one `Site` holding them, with query methods.

Constructors change nothing else; the model is built once by `load.py` and only read after."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitegen.base.languages import Languages
from sitegen.content.tracking import Reads, Tracked, TrackedList

# What a page may read of a report besides its front matter (each noted when read:
# content/tracking.py).
REPORT_READS = frozenset({"body", "body_line", "source", "pending", "converted"})


@dataclass(frozen=True)
class SourceFile:
    """One report file: where it came from, its language and slug."""

    path: Path
    rel: str  # path as shown in messages, e.g. content/reports/v1-0.en.md
    slug: str
    lang: str


@dataclass
class Report:
    slug: str
    lang: str
    meta: dict
    body: str
    body_line: int
    source: SourceFile | None
    pending: bool = False  # True: this language is not written; the page says so
    converted: bool = False  # True: made by converting another language's text
    # set by track(): ("report"|"page", slug, lang) and the site's Reads
    tracking_identity: tuple | None = field(default=None, repr=False, compare=False)
    reads: Reads | None = field(default=None, repr=False, compare=False)
    # the key of the parse its front matter and body are (parsecache.py: of its file's bytes,
    # path, the code and the languages); "" when not known (converted, pending, not kept)
    parsed: str = field(default="", repr=False, compare=False)

    @property
    def title(self) -> str:
        return self.meta["title"]

    @property
    def date(self) -> dt.date | None:
        return self.meta.get("date")


class _Noted:
    """A report attribute whose read is noted (REPORT_READS): the value is kept in the
    instance's __dict__, and only these five attributes pay for the noting (a __getattribute__
    made every attribute of every report pay for it)."""

    def __init__(self, name: str):
        self.name, self.key = name, "@" + name

    def __get__(self, report, owner=None):
        if report is None:
            return self
        attrs = report.__dict__
        reads = attrs.get("reads")
        if reads is not None and reads.current is not None:
            reads.current.add((attrs["tracking_identity"], self.key))
        return attrs[self.name]

    def __set__(self, report, value) -> None:
        report.__dict__[self.name] = value


for _name in REPORT_READS:  # after @dataclass made its __init__, which sets them through these
    setattr(Report, _name, _Noted(_name))


@dataclass
class Site:
    root: Path
    config: dict
    strings: dict[str, dict[str, str]]  # lang -> key -> text
    tables: dict[str, dict[str, dict]]  # table -> id -> record
    reports: list[Report] = field(default_factory=list)
    pages: list[Report] = field(default_factory=list)  # methodology and other plain pages
    warnings: list = field(default_factory=list)
    unreadable: set = field(default_factory=set)  # tables whose file could not be read
    string_lines: dict = field(default_factory=dict)  # lang -> key -> its line in i18n/<lang>.yaml
    record: dict[str, dict] = field(default_factory=dict)  # the whole MLPerf record, by id
    rounds: dict[str, dict] = field(default_factory=dict)  # its rounds, oldest first
    changelog: list[dict] = field(default_factory=list)  # changes between its imports
    reads: Reads = field(default_factory=Reads)  # what the page being made reads
    derived: dict = field(default_factory=dict)  # derive's entities of this site, made once (derive/)
    usage: tuple = ()  # mainland usage to find on Taiwan pages (usage.py)
    # its languages and term list, in site.yaml's order (iterating gives their codes)
    languages: Languages = field(default_factory=Languages.default)
    store: Any = None  # the build's store (base/store.py) its pages are rendered with; None: none

    def other_languages(self, lang: str) -> list[str]:
        return [other for other in self.languages if other != lang]

    def table(self, name: str) -> list[dict]:
        return list(self.tables.get(name, {}).values())

    def get(self, name: str, ident: str) -> dict:
        return self.tables[name][ident]

    def reports_in(self, lang: str) -> list[Report]:
        """Newest first; ties by slug so that the order never depends on the file system."""
        chosen = [r for r in self.reports if r.lang == lang]
        return sorted(chosen, key=lambda r: (r.date, r.slug), reverse=True)

    def report(self, slug: str, lang: str) -> Report:
        return next(r for r in self.reports if r.slug == slug and r.lang == lang)

    def results_for(self, *, system: str | None = None, benchmark: str | None = None) -> list[dict]:
        return [
            r
            for r in self.table("results")
            if (system is None or r["system"] == system)
            and (benchmark is None or r["benchmark"] == benchmark)
        ]

    def first_price(self, system_id: str) -> dict | None:
        prices = self.get("systems", system_id).get("prices") or []
        return prices[0] if prices else None

    def spec(self, system_id: str, name: str) -> dict | None:
        specs = self.get("systems", system_id).get("specs") or []
        return next((s for s in specs if s["name"] == name), None)

    def reports_citing(self, kind: str, ident: str, lang: str) -> list[Report]:
        return [r for r in self.reports_in(lang) if ident in (r.meta.get(kind) or [])]

    # --- the whole MLPerf record --------------------------------------------------------------

    @functools.cached_property
    def _record_slots(self) -> dict[tuple[str, str], list[dict]]:
        """(benchmark, round) -> its results, fastest first (unscored last), by id on ties."""
        with self.reads.paused():
            slots: dict[tuple[str, str], list[dict]] = {}
            ordered = sorted(
                self.record.values(), key=lambda r: (r["value"] is None, r["value"] or 0, r["id"])
            )
            for result in ordered:
                slots.setdefault((result["benchmark"], result["round"]), []).append(result)
            return slots

    # Figures derived from the whole record, each noted as a record of its own (view, key):
    # a page depends on its value (the results and their order), not on everything it was
    # computed from.
    def _view(self, name: str, key):
        self.reads.note(("view", name), key)
        with self.reads.paused():
            return VIEWS[name](self, key)

    def record_results(self, benchmark: str, round_id: str) -> list[dict]:
        return self._view("slot", (benchmark, round_id))

    def record_rounds(self, benchmark: str) -> list[str]:
        """The rounds with results of `benchmark`, oldest first."""
        return self._view("rounds_of", benchmark)

    def round_benchmarks(self, round_id: str) -> list[str]:
        return self._view("benchmarks_of", round_id)

    def round_results(self, round_id: str) -> list[dict]:
        return [x for b in self.round_benchmarks(round_id) for x in self.record_results(b, round_id)]

    def has_submitter(self, name: str) -> bool:
        """Whether the record has a submitter of this name (any case, '_' for a space)."""
        return self._view("has_submitter", submitter_name(name))

    def rounds_held(self, who: str | None, benchmark: str | None) -> list[str]:
        """The rounds, oldest first, with a published result (scored or not) of submitter `who`
        (any case, '_' for a space) and of `benchmark`; None for either: any. A page that asks
        depends on this answer, not on every result's submitter and round."""
        return self._view("rounds_held", (submitter_name(who) if who else None, benchmark))

    @functools.cached_property
    def _rounds_held(self) -> dict[tuple, set[str]]:
        """(submitter name or None, benchmark or None) -> the rounds with such a result."""
        with self.reads.paused():
            held: dict[tuple, set[str]] = {}
            for r in self.record.values():
                for who in (None, r["submitter"].lower()):
                    for benchmark in (None, r["benchmark"]):
                        held.setdefault((who, benchmark), set()).add(r["round"])
            return held

    def record_benchmarks(self) -> set[str]:
        return self._view("benchmarks", None)

    def has_record(self) -> bool:
        """Whether the site holds MLPerf rounds (the navigation and footer link to them): a
        page that asks depends on that answer, not on which rounds there are."""
        return self._view("has_record", None)

    def in_round_order(self, round_ids) -> list[str]:
        """These rounds of the record, oldest first."""
        return self._view("in_round_order", tuple(sorted(set(round_ids))))


def submitter_name(name: str) -> str:
    """A submitter's name as references compare it: any case, '_' for a space."""
    return name.replace("_", " ").lower()


def source_title(source: dict, lang: str) -> tuple[str, str | None]:
    """A source as a page in `lang` names it, and the language to mark it as: the site's own
    name for it in that language (data/sources.yaml `label`: None, the page's own words), else
    its title as written, in the source's language."""
    own = (source.get("label") or {}).get(lang)
    return (own, None) if own else (source["title"], source["language"])


VIEWS = {
    "slot": lambda site, key: site._record_slots.get(key, []),
    "rounds_of": lambda site, benchmark: [r for r in site.rounds if (benchmark, r) in site._record_slots],
    "benchmarks_of": lambda site, round_id: sorted(b for b, r in site._record_slots if r == round_id),
    "benchmarks": lambda site, _: {benchmark for benchmark, _ in site._record_slots},
    "has_record": lambda site, _: bool(site.rounds),
    "has_submitter": lambda site, name: (name, None) in site._rounds_held,
    "rounds_held": lambda site, key: [r for r in site.rounds if r in site._rounds_held.get(key, ())],
    "in_round_order": lambda site, wanted: [r for r in site.rounds if r in wanted],
}


def track(site: Site) -> Site:
    """Make every read of the site's records noted in `site.reads` (content/tracking.py): the
    tables, the record and its rounds, interface strings, reports and pages. Called once, after
    loading."""
    reads = site.reads
    for derived in ("_record_slots", "_rounds_held", "_by_identity"):  # made from untracked records
        site.__dict__.pop(derived, None)
    site.derived.clear()

    def table(name: str, records: dict) -> Tracked:
        return Tracked(
            {
                ident: Tracked(record, ("rec", name, ident), reads) if isinstance(record, dict) else record
                for ident, record in records.items()
            },
            ("table", name),
            reads,
        )

    site.tables = {name: table(name, records) for name, records in site.tables.items()}
    site.record = table("record", site.record)
    site.rounds = table("rounds", site.rounds)
    site.strings = {
        lang: Tracked(strings, ("strings", lang), reads) for lang, strings in site.strings.items()
    }
    for kind, reports in (("report", site.reports), ("page", site.pages)):
        for report in reports:
            identity = (kind, report.slug, report.lang)
            report.meta = Tracked(report.meta, ("meta", *identity), reads)
            report.tracking_identity, report.reads = identity, reads
    site.reports = TrackedList(site.reports, ("reports", "report"), reads)
    site.pages = TrackedList(site.pages, ("reports", "page"), reads)
    site.changelog = TrackedList(site.changelog, ("changelog",), reads)
    return site


def reports_by_identity(site: Site) -> dict:
    found = site.__dict__.get("_by_identity")
    if found is None:
        found = site.__dict__["_by_identity"] = {r.tracking_identity: r for r in list.__iter__(site.reports)}
        found.update((r.tracking_identity, r) for r in list.__iter__(site.pages))
    return found


class ViewMap:
    """A derived view of a site looked up like a mapping (assemble/state.py, value_of)."""

    def __init__(self, site: Site, name: str):
        self.site, self.name = site, name

    def lookup(self, key):
        return VIEWS[self.name](self.site, key)
