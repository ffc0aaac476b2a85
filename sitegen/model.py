"""The content model: plain records, one `Site` holding them, with query methods.

Constructors change nothing else; the model is built once by `load.py` and only read after."""
from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class SourceFile:
    """One report file: where it came from, its language and slug."""

    path: Path
    rel: str          # path as shown in messages, e.g. content/reports/v1-0.en.md
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
    pending: bool = False   # True: this language is not written; the page says so
    converted: bool = False  # True: made by converting another language's text (not reviewed)

    @property
    def title(self) -> str:
        return self.meta["title"]

    @property
    def date(self) -> dt.date | None:
        return self.meta.get("date")


@dataclass
class Site:
    root: Path
    config: dict
    strings: dict[str, dict[str, str]]          # lang -> key -> text
    tables: dict[str, dict[str, dict]]          # table -> id -> record
    reports: list[Report] = field(default_factory=list)
    pages: list[Report] = field(default_factory=list)    # methodology and other plain pages
    warnings: list = field(default_factory=list)
    unreadable: set = field(default_factory=set)   # tables whose file could not be read
    record: dict[str, dict] = field(default_factory=dict)  # the whole MLPerf record, by id
    rounds: dict[str, dict] = field(default_factory=dict)  # its rounds, oldest first
    changelog: list[dict] = field(default_factory=list)    # changes between its imports

    @property
    def languages(self) -> list[str]:
        return self.config["languages"]

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
        return [r for r in self.table("results")
                if (system is None or r["system"] == system)
                and (benchmark is None or r["benchmark"] == benchmark)]

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
        slots: dict[tuple[str, str], list[dict]] = {}
        ordered = sorted(self.record.values(), key=lambda r: (r["value"] is None, r["value"] or 0, r["id"]))
        for result in ordered:
            slots.setdefault((result["benchmark"], result["round"]), []).append(result)
        return slots

    def record_results(self, benchmark: str, round_id: str) -> list[dict]:
        return self._record_slots.get((benchmark, round_id), [])

    def record_rounds(self, benchmark: str) -> list[str]:
        """The rounds with results of `benchmark`, oldest first."""
        return [r for r in self.rounds if (benchmark, r) in self._record_slots]

    def round_benchmarks(self, round_id: str) -> list[str]:
        return sorted(b for b, r in self._record_slots if r == round_id)

    def round_results(self, round_id: str) -> list[dict]:
        return [x for b in self.round_benchmarks(round_id) for x in self.record_results(b, round_id)]

    def record_benchmarks(self) -> set[str]:
        return {benchmark for benchmark, _ in self._record_slots}

    @functools.cached_property
    def record_index(self):
        """Submitters, accelerator models and scaling peers of the record (record_index.py)."""
        from .record_index import RecordIndex
        return RecordIndex(self)
