"""Who and what the record's results belong to: submitters and accelerator models grouped
across rounds, and the same system at other scales (scaling efficiency).

Built once per language run from `site.record`; read only after."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sitegen.content.chips import CPU_ONLY
from sitegen.content.model import Site
from sitegen.content.tracking import Tracked
from sitegen.derive import carryover, chip_views, compatibility, derived

# Submitter folders renamed between rounds (DESIGN.md): grouped under the later name.
SUBMITTER_RENAMES = {"qct": "quanta_cloud_technology"}
_SPACE = re.compile(r"\s+")
_JOINT = re.compile(r"\s*[+&]\s*|-|_")  # between the parts of a joint submitter's name
_JOINT_MARK = re.compile(r"[+&]|[a-z]-[a-z]")
_SLUG = re.compile(r"[^a-z0-9]+")
PAGE_ROWS = 150  # rows of one list page; more go on per-round pages


def submitter_key(name: str) -> str:
    """One key for every spelling of a submitter: case and spacing folded, a renamed folder
    under its later name, and the parts of a joint name in any order ("RedHat-Supermicro" and
    "Supermicro-RedHat" are one submitter)."""
    key = _SPACE.sub(" ", name.strip()).casefold()
    key = SUBMITTER_RENAMES.get(key, key)
    parts = [p for p in _JOINT.split(key) if p]
    return "+".join(sorted(parts)) if len(parts) > 1 and _JOINT_MARK.search(key) else key


def slug(key: str) -> str:
    return _SLUG.sub("-", key.casefold()).strip("-") or "x"


@dataclass
class Entity:
    """One submitter or chip family: its results, newest round first."""

    slug: str
    name: str  # as published in its latest round; a chip's family name
    names: set = field(default_factory=set)  # every spelling published
    results: list = field(default_factory=list)
    chip: dict | None = None  # a chip family's vendor and order (chip_views.describe)
    variants: list = field(default_factory=list)  # a chip family's variants, ditto
    count: int = 0  # its results as every count counts them: a copy once (RecordIndex.counts)

    @property
    def rounds(self) -> list[str]:
        seen: dict[str, None] = {}
        for result in self.results:
            seen.setdefault(result["round"], None)
        return list(seen)

    @property
    def spellings(self) -> list[str]:
        """Every spelling published, in order (case first)."""
        return sorted(n for n in self.names if n)

    def in_round(self, round_id: str) -> list[dict]:
        return [r for r in self.results if r["round"] == round_id]

    @property
    def paged(self) -> bool:
        return len(self.results) > PAGE_ROWS

    def fastest(self, counts=lambda result: True) -> list[dict]:
        """Per benchmark (by id), the fastest scored result that `counts` (RecordIndex.counts:
        not a copy); closed division before open."""
        best: dict[str, dict] = {}
        for result in self.results:
            if result["value"] is None or not counts(result):
                continue
            key = (result["division"] != "closed", result["value"], result["id"])
            held = best.get(result["benchmark"])
            if held is None or key < (held["division"] != "closed", held["value"], held["id"]):
                best[result["benchmark"]] = result
        return [best[b] for b in sorted(best)]


# the index's maps whose every lookup a page's tracking notes
TRACKED = (
    "submitters",
    "accelerators",
    "_by_submitter",
    "_by_accelerator",
    "_changes",
    "systems",
    "_by_system",
    "_products",
    "_product_systems",
    "_carry",
)


def _slug_by_result(entities: dict) -> dict[str, str]:
    """Result id -> the slug of the entity (submitter or chip family) it belongs to."""
    return {r["id"]: e.slug for e in entities.values() for r in e.results}


def _systems_by_product(systems: dict, products: dict) -> dict[str, list[str]]:
    """Curated system -> its official system descriptions, in the index's order."""
    found: dict[str, list[str]] = {}
    for key in systems:
        if key in products:
            found.setdefault(products[key], []).append(key)
    return found


def _changes_by_result(changelog: list[dict]) -> dict[str, list[dict]]:
    """Result id -> its changes; a renamed result's change is also its new id's."""
    found: dict[str, list[dict]] = {}
    for change in changelog:
        found.setdefault(change["id"], []).append(change)
        if change["field"] == "id" and change["new"] != change["id"]:  # renamed: its new page
            found.setdefault(change["new"], []).append(change)
    return found


def index_of(site) -> RecordIndex:
    """The record's index of `site`, made once per site (kept in site.derived; what a page reads
    of it is noted through its Tracked maps)."""
    found = site.derived.get("record_index")
    if found is None:
        with site.reads.paused():
            found = site.derived["record_index"] = RecordIndex(site)
    return found


class RecordIndex:
    def __init__(self, site: Site) -> None:
        self.site = site
        order = {r: i for i, r in enumerate(site.rounds)}
        ordered = sorted(
            site.record.values(),
            key=lambda r: (
                -order.get(r["round"], 0),
                r["benchmark"],
                r["value"] is None,
                r["value"] or 0,
                r["id"],
            ),
        )
        # carried over from an earlier round, or a copy within its round (carryover.py)
        self._carry = carryover.labels(site.record.values())
        self.submitters = _group(
            ordered,
            lambda r: submitter_key(r["submitter"]),
            lambda r: r["submitter"],
            "submitter",
            named=True,
        )
        self.accelerators = _group(
            ordered, chip_views.family_key, chip_views.family_name, "accelerator_model"
        )
        chip_views.describe(self.accelerators, self.counts)  # chip families (chips.yaml), by vendor
        for entity in (*self.submitters.values(), *self.accelerators.values()):
            entity.count = len(self.counted(entity.results))
        self.accelerators = chip_views.ordered(self.accelerators)
        self._by_submitter = _slug_by_result(self.submitters)
        self._by_accelerator = _slug_by_result(self.accelerators)
        self.systems = group_systems(ordered)
        self._by_system = {r["id"]: system_key(r) for r in ordered}
        self._products = products_of(site)
        self._product_systems = _systems_by_product(self.systems, self._products)
        self._changes = _changes_by_result(getattr(site, "changelog", None) or [])
        # each lookup a page makes is noted as a record of its own (content/tracking.py)
        for name in TRACKED:
            setattr(self, name, Tracked(getattr(self, name), ("index", name), site.reads))

    def submitter_of(self, result: dict) -> str:
        return self._by_submitter[result["id"]]

    def system_of(self, result: dict) -> str:
        return self._by_system[result["id"]]

    def product_of(self, system: str) -> str | None:
        """The curated system (data/systems.yaml) an official system description is, if any."""
        return self._products.get(system)

    def product_systems(self, product: str) -> list[str]:
        """The official system descriptions of a curated system, newest round first."""
        return self._product_systems.get(product, [])

    def accelerator_of(self, result: dict) -> str:
        return self._by_accelerator[result["id"]]

    def carried_from(self, result: dict) -> dict | None:
        """The first result of an earlier round with the same runs, or None."""
        ident = (self._carry.get(result["id"]) or {}).get("carried_over_from")
        return self.site.record[ident] if ident else None

    def copy_of(self, result: dict) -> dict | None:
        """The result of the same round this one copies (same runs or logs), or None."""
        ident = (self._carry.get(result["id"]) or {}).get("copy_of")
        return self.site.record[ident] if ident else None

    def original(self, result: dict) -> dict:
        """The result that first published this result's runs: the one it is carried over
        from, else the one of its round it copies, else itself. Two results with the same
        original are the same runs (derived.level_with_first lists them once)."""
        return self.carried_from(result) or self.copy_of(result) or result

    def counts(self, result: dict) -> bool:
        """Whether a result counts in counts and rankings: not a copy of another (carryover.py)."""
        return not (self._carry.get(result["id"]) or {}).get("copy_of")

    def counted(self, results: list[dict]) -> list[dict]:
        """The results without the copies: what counts and rankings count once."""
        return [r for r in results if self.counts(r)]

    def changes(self, ident: str) -> list[dict]:
        return self._changes.get(ident, [])

    def slot_scaling(self, results: list[dict]) -> dict[str, list[dict]]:
        """Result id -> the same submitter's same chip (family and variant) on the same
        benchmark, round and division at other scales, for every result of one slot (a
        benchmark's results in a round): efficiency = (t_small × n_small) / (t_large × n_large).
        The results are grouped by division, submitter and chip variant, so each field of the
        slot is read once."""
        groups: dict[tuple, list[dict]] = {}
        for r in results:
            if r["value"] is not None and r["accelerator_count"]:
                key = (r["division"], self.submitter_of(r), chip_views.variant_key(r))
                groups.setdefault(key, []).append(r)
        found: dict[str, list[dict]] = {r["id"]: [] for r in results}
        for members in groups.values():
            for result in members:
                peers = [
                    p
                    for p in members
                    if p["id"] != result["id"] and p["accelerator_count"] != result["accelerator_count"]
                ]
                found[result["id"]] = self._scaling_rows(result, peers)
        return found

    def _scaling_rows(self, result: dict, peers: list[dict]) -> list[dict]:
        rows = []
        for peer in sorted(peers, key=lambda r: (r["accelerator_count"], r["value"], r["id"])):
            small, large = sorted((result, peer), key=lambda r: r["accelerator_count"])
            rows.append(
                {
                    "peer": peer,
                    "small": small,
                    "large": large,
                    "work_small": derived.accelerator_minutes(small),
                    "work_large": derived.accelerator_minutes(large),
                    "efficiency": derived.scaling_efficiency(small, large),
                }
            )
        return rows


def _group(results, key_of, name_of, published: str, named: bool = False) -> dict[str, Entity]:
    """Entities by slug, sorted by name; results keep the given order (newest round first).
    The slug is the key's, or with `named` the latest name's (the key's if that is taken)."""
    by_key: dict[str, Entity] = {}
    taken: set[str] = set()
    for result in results:
        key = key_of(result) if named else slug(key_of(result))
        entity = by_key.get(key)
        if entity is None:
            ident = slug(name_of(result) or key) if named else slug(key)
            ident = slug(key) if ident in taken else ident
            taken.add(ident)
            entity = by_key[key] = Entity(ident, name_of(result) or "")
        entity.names.add(result[published] or "")
        entity.results.append(result)
    return {e.slug: e for e in sorted(by_key.values(), key=lambda e: (e.name.casefold(), e.slug))}


_PATH_WORDS = {"systems", "results", "entry"}
_VERSION_FOLDER = re.compile(r"v\d+\.\d+\.\d+")


def system_key(result: dict) -> str:
    """The page of a result's official system description (its JSON file): <round>/<slug of
    the file's path>, without the words every path has ("systems", "results", "entry", the
    v0.5 version folder): Dell/systems/X.json gives <round>/dell-x; a v0.5 entry's own
    v0.5.0/google/<entry>/results/tpu/entry.json gives <round>/google-<entry>-tpu."""
    path = result["system_path"].removesuffix(".json").split("/")
    parts = [p for p in path if p not in _PATH_WORDS and not _VERSION_FOLDER.fullmatch(p)]
    return f"{result['round']}/{slug('-'.join(parts))}"


def group_systems(results) -> dict[str, Entity]:
    """Systems by key, sorted by round (newest first) then name; results keep the given order."""
    found: dict[str, Entity] = {}
    for result in results:
        key = system_key(result)
        entity = found.get(key)
        if entity is None:
            entity = found[key] = Entity(key, result["system_name"])
        entity.names.add(result["system_name"])
        entity.results.append(result)
    return found


def system_label(system: Entity) -> str:
    """A system's name, with its folder when that differs (one submitter's descriptions of one
    round often share a name: IPU-POD16 (ipu-pod16-TF1), IPU-POD16 (ipu-pod16-POPART-open))."""
    folder = system.results[0]["system_folder"]
    return system.name if folder == system.name else f"{system.name} ({folder})"


def products_of(site) -> dict[str, str]:
    """System key -> the curated system (data/systems.yaml id) its description is."""
    found: dict[str, str] = {}
    for ident, result in site.tables.get("results", {}).items():
        if ident in site.record and result.get("system"):
            found[system_key(site.record[ident])] = result["system"]
    return found


def progress(site, benchmark_id: str, index: RecordIndex, leaders: int = 4) -> list[dict]:
    """Chart rows of a benchmark's progress: per round the fastest closed result overall and
    the fastest of each of the `leaders` accelerator models with the most closed results.
    A copy within a round is left out; a point whose result is carried over from an earlier
    round says from which (`carried`: that round, else None): it is no new result, so the
    chart marks it instead of counting it as progress (carryover.py). `family`: the chip
    family of a leader's point (its look on the chart), None for the fastest overall."""
    rounds = site.record_rounds(benchmark_id)
    closed = {
        r: [
            x
            for x in index.counted(site.record_results(benchmark_id, r))
            if x["division"] == "closed" and x["value"] is not None
        ]
        for r in rounds
    }
    counts: dict[str, int] = {}
    for rows in closed.values():
        for x in rows:
            counts[index.accelerator_of(x)] = counts.get(index.accelerator_of(x), 0) + 1
    top = [k for k, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if k != CPU_ONLY][:leaders]
    points = []
    for round_id in rounds:
        ranked = derived.ranked_apart(closed[round_id])  # fastest first, the category a headline ranks
        version = compatibility.version_of(site, benchmark_id, round_id)
        if ranked:
            points.append({**_point(index, round_id, None, ranked[0], version), "family": None})
        for key in top:
            best = next((x for x in ranked if index.accelerator_of(x) == key), None)
            if best:
                point = _point(index, round_id, index.accelerators[key].name, best, version)
                points.append({**point, "family": key})
    return points


def _point(index: RecordIndex, round_id: str, series, result: dict, version: int | None) -> dict:
    """A chart point; `version`: of the benchmark in MLCommons' compatibility table, whose
    change breaks the line (None: a round the table gives no version, drawn alone)."""
    origin = index.carried_from(result)
    return {
        "round": round_id,
        "series": series,
        "value": result["value"],
        "id": result["id"],
        "carried": origin["round"] if origin else None,
        "version": round_id if version is None else version,
    }
