"""Who and what the record's results belong to: submitters and accelerator models grouped
across rounds, and the same system at other scales (scaling efficiency).

Built once per language run from `site.record`; read only after."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import chip_views
from .chips import CPU_ONLY
from .deps import Tracked

# Submitter folders renamed between rounds (DESIGN.md): grouped under the later name.
SUBMITTER_RENAMES = {"qct": "quanta_cloud_technology"}
_SPACE = re.compile(r"\s+")
_SLUG = re.compile(r"[^a-z0-9]+")
PAGE_ROWS = 150       # rows of one list page; more go on per-round pages


def submitter_key(name: str) -> str:
    key = _SPACE.sub(" ", name.strip()).casefold()
    return SUBMITTER_RENAMES.get(key, key)


def slug(key: str) -> str:
    return _SLUG.sub("-", key.casefold()).strip("-") or "x"


@dataclass
class Entity:
    """One submitter or chip family: its results, newest round first."""

    slug: str
    name: str                       # as published in its latest round; a chip's family name
    names: set = field(default_factory=set)   # every spelling published
    results: list = field(default_factory=list)
    chip: dict | None = None        # a chip family's vendor and order (chip_views.describe)
    variants: list = field(default_factory=list)   # a chip family's variants, ditto

    @property
    def rounds(self) -> list[str]:
        seen: dict[str, None] = {}
        for result in self.results:
            seen.setdefault(result["round"], None)
        return list(seen)

    def in_round(self, round_id: str) -> list[dict]:
        return [r for r in self.results if r["round"] == round_id]

    @property
    def paged(self) -> bool:
        return len(self.results) > PAGE_ROWS

    def fastest(self) -> list[dict]:
        """Per benchmark (by id), the fastest scored result; closed division before open."""
        best: dict[str, dict] = {}
        for result in self.results:
            if result["value"] is None:
                continue
            key = (result["division"] != "closed", result["value"], result["id"])
            held = best.get(result["benchmark"])
            if held is None or key < (held["division"] != "closed", held["value"], held["id"]):
                best[result["benchmark"]] = result
        return [best[b] for b in sorted(best)]


class RecordIndex:
    def __init__(self, site):
        self.site = site
        order = {r: i for i, r in enumerate(site.rounds)}
        ordered = sorted(site.record.values(), key=lambda r: (-order.get(r["round"], 0), r["benchmark"],
                                                              r["value"] is None, r["value"] or 0, r["id"]))
        self.submitters = _group(ordered, lambda r: submitter_key(r["submitter"]),
                                 lambda r: r["submitter"], "submitter")
        self.accelerators = _group(ordered, chip_views.family_key, chip_views.family_name,
                                   "accelerator_model")
        chip_views.describe(self.accelerators)       # chip families (chips.yaml), by vendor
        self.accelerators = chip_views.ordered(self.accelerators)
        self._by_submitter = {ident: e.slug for e in self.submitters.values() for ident in
                              (r["id"] for r in e.results)}
        self._by_accelerator = {ident: e.slug for e in self.accelerators.values() for ident in
                                (r["id"] for r in e.results)}
        self._changes: dict[str, list[dict]] = {}
        for change in getattr(site, "changelog", None) or []:
            self._changes.setdefault(change["id"], []).append(change)
            if change["field"] == "id" and change["new"] != change["id"]:   # renamed: its new page
                self._changes.setdefault(change["new"], []).append(change)
        # each lookup a page makes is noted as a record of its own (deps.py)
        for name in ("submitters", "accelerators", "_by_submitter", "_by_accelerator", "_changes"):
            setattr(self, name, Tracked(getattr(self, name), ("index", name), site.reads))

    def submitter_of(self, result: dict) -> str:
        return self._by_submitter[result["id"]]

    def accelerator_of(self, result: dict) -> str:
        return self._by_accelerator[result["id"]]

    def changes(self, ident: str) -> list[dict]:
        return self._changes.get(ident, [])

    def scaling(self, result: dict) -> list[dict]:
        """The same submitter's same chip (family and variant) on the same benchmark, round
        and division at other scales: efficiency = (t_small × n_small) / (t_large × n_large)."""
        if result["value"] is None or not result["accelerator_count"]:
            return []
        mine = chip_views.variant_key(result)
        peers = [r for r in self.site.record_results(result["benchmark"], result["round"])
                 if r["id"] != result["id"] and r["value"] is not None and r["accelerator_count"]
                 and r["accelerator_count"] != result["accelerator_count"]
                 and r["division"] == result["division"]
                 and self.submitter_of(r) == self.submitter_of(result)
                 and chip_views.variant_key(r) == mine]
        rows = []
        for peer in sorted(peers, key=lambda r: (r["accelerator_count"], r["value"], r["id"])):
            small, large = sorted((result, peer), key=lambda r: r["accelerator_count"])
            work_small = small["value"] * small["accelerator_count"]
            work_large = large["value"] * large["accelerator_count"]
            rows.append({"peer": peer, "small": small, "large": large,
                         "work_small": work_small, "work_large": work_large,
                         "efficiency": work_small / work_large})
        return rows


def _group(results, key_of, name_of, published: str) -> dict[str, Entity]:
    """Entities by slug, sorted by name; results keep the given order (newest round first)."""
    found: dict[str, Entity] = {}
    for result in results:
        key = slug(key_of(result))
        entity = found.get(key)
        if entity is None:
            entity = found[key] = Entity(key, name_of(result) or "")
        entity.names.add(result[published] or "")
        entity.results.append(result)
    return dict(sorted(found.items(), key=lambda kv: (kv[1].name.casefold(), kv[0])))


def progress(site, benchmark_id: str, index: RecordIndex, leaders: int = 4) -> list[dict]:
    """Chart rows of a benchmark's progress: per round the fastest closed result overall and
    the fastest of each of the `leaders` accelerator models with the most closed results."""
    rounds = site.record_rounds(benchmark_id)
    closed = {r: [x for x in site.record_results(benchmark_id, r)
                  if x["division"] == "closed" and x["value"] is not None] for r in rounds}
    counts: dict[str, int] = {}
    for rows in closed.values():
        for x in rows:
            counts[index.accelerator_of(x)] = counts.get(index.accelerator_of(x), 0) + 1
    top = [k for k, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if k != CPU_ONLY][:leaders]
    points = []
    for round_id in rounds:
        rows = closed[round_id]       # fastest first
        if rows:
            points.append({"round": round_id, "series": None, "value": rows[0]["value"], "id": rows[0]["id"]})
        for key in top:
            best = next((x for x in rows if index.accelerator_of(x) == key), None)
            if best:
                points.append({"round": round_id, "series": index.accelerators[key].name,
                               "value": best["value"], "id": best["id"]})
    return points
