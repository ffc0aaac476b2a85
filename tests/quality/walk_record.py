"""What the record says, worked out here from content/data/record/results-*.yaml,
benchmarks.yaml and compatibility.yaml alone (never sitegen's derive code), so that the walk
over the shipped site (test_site_walk.py) fails when a derivation is wrong.

The rules, as docs/record-format.md and the methodology page state them:
- a result has a score when its status is "scored" and it has the logs its round requires;
- a copy is a result of the same round and benchmark with the same runs (two converged runs
  at least, compared exactly) or the same logs; the original is the one nearest the top of the
  repository (fewest path parts), then the first by id; a copy is counted once, as its original;
- MLCommons' compatibility table splits a benchmark's rounds into versions; a round the table
  does not list for the benchmark's model is a version of its own."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DIVISION = "closed"  # headline slots rank the closed division


def round_key(round_id: str) -> tuple[int, ...]:
    return tuple(int(part) for part in round_id.lstrip("v").split("."))


def has_score(r: dict) -> bool:
    """Scored, with every log its round requires (a short result is never scored)."""
    runs, required = r.get("runs") or [], r.get("runs_required") or 0
    return r["status"] == "scored" and r.get("value") is not None and len(runs) >= required


@dataclass(frozen=True)
class Record:
    results: dict[str, dict]  # id -> the result as stored
    copies: frozenset[str]  # ids of copies of another result of their round
    versions: dict[tuple[str, str], tuple]  # (benchmark, round) -> its compatibility version
    slots: dict[tuple[str, str, str], list[dict]]  # (round, benchmark, division) -> its results

    def version(self, benchmark: str, round_id: str) -> tuple:
        return self.versions.get((benchmark, round_id), (benchmark, round_id))

    def counted(self, rows) -> list[dict]:
        return [r for r in rows if r["id"] not in self.copies]


def load(content: Path, rows: list[dict] | None = None) -> Record:
    """The record under content/ (rows: its results when already read)."""
    if rows is None:
        rows = []
        for path in sorted((content / "data" / "record").glob("results-*.yaml")):
            rows += yaml.load(path.read_text("utf-8"), Loader=LOADER)
    results = {r["id"]: r for r in rows}
    slots: dict[tuple[str, str, str], list[dict]] = {}
    for r in rows:
        slots.setdefault((r["round"], r["benchmark"], r["division"]), []).append(r)
    return Record(results, frozenset(_copies(rows)), _versions(content, rows), slots)


def _same_runs(r: dict):
    """The key two results with the same runs share: their sorted converged times and failed
    runs (two converged at least), else their logs' digest."""
    runs = r.get("runs") or []
    times = sorted(t for t in runs if t is not None)
    if len(times) >= 2:
        return ("runs", tuple(times), len(runs) - len(times))
    return ("logs", r["logs_digest"]) if r.get("logs_digest") else None


def _copies(rows: list[dict]) -> set[str]:
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        key = _same_runs(r)
        if key is not None:
            groups.setdefault((r["round"], r["benchmark"], key), []).append(r)
    copies = set()
    for members in groups.values():
        members.sort(key=lambda r: (len(r["path"].split("/")), r["id"]))
        copies.update(r["id"] for r in members[1:])
    return copies


def _versions(content: Path, rows: list[dict]) -> dict[tuple[str, str], tuple]:
    data = content / "data"
    models = {
        b["id"]: b.get("compatibility")
        for b in yaml.load((data / "benchmarks.yaml").read_text("utf-8"), LOADER)
    }
    table = yaml.load((data / "compatibility.yaml").read_text("utf-8"), LOADER)["training"]
    spans = {entry["model"]: entry["versions"] for entry in table}
    versions = {}
    for benchmark, round_id in {(r["benchmark"], r["round"]) for r in rows}:
        model = models.get(benchmark)
        if model not in spans:
            versions[benchmark, round_id] = (benchmark, 0)  # not in the table: one version
            continue
        index = next((i for i, rounds in enumerate(spans[model]) if round_id in rounds), None)
        versions[benchmark, round_id] = (model, index) if index is not None else (benchmark, round_id)
    return versions


# --- Counts ------------------------------------------------------------------------------------


def expected_counts(content: Path, record: Record) -> dict[tuple[str, str], int]:
    """{(set, name): count}: each round's results and all of them ("all"), each round's of
    each benchmark ("v1.0 bert"), a copy counted once (a carried-over result in its own round);
    each chip family's."""
    rounds = Counter(r["round"] for r in record.counted(record.results.values()))
    counts = {("round", name): n for name, n in rounds.items()}
    counts["round", "all"] = sum(rounds.values())
    slots = Counter(f"{r['round']} {r['benchmark']}" for r in record.counted(record.results.values()))
    counts.update({("slot", name): n for name, n in slots.items()})
    counts.update({("family", slug): n for slug, n in family_counts(content, record).items()})
    return counts


# --- Headline slots ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """A round's closed-division results of a benchmark as a headline must present them."""

    best: dict | None  # the fastest Available result, else the fastest of any category
    ahead: tuple[str, ...]  # categories with a result faster than best
    unscored: int  # results without a score
    unscored_largest: int  # the largest accelerator count among them


def slot(record: Record, round_id: str, benchmark: str) -> Slot:
    rows = record.slots.get((round_id, benchmark, DIVISION), [])
    scored = sorted((r for r in record.counted(rows) if has_score(r)), key=lambda r: r["value"])
    unscored = [r for r in rows if not has_score(r)]
    available = [r for r in scored if r["category"] == "available"]
    best = (available or scored or [None])[0]
    ahead = sorted(
        {r["category"] for r in scored if best and r["value"] < best["value"]} - {best and best["category"]}
    )
    largest = max((r["accelerator_count"] or 0 for r in unscored), default=0)
    return Slot(best, tuple(ahead), len(unscored), largest)


# --- Chip families -------------------------------------------------------------------------------


def family_counts(content: Path, record: Record) -> dict[str, int]:
    """Results of each chip family (its page's slug: vendor-family), a copy counted once; by
    data/chips.yaml's rules, each of which must match the whole official string."""
    vendors = yaml.load((content / "data" / "chips.yaml").read_text("utf-8"), LOADER)
    rules = [
        (re.sub(r"[^a-z0-9]+", "-", f"{v['vendor']} {f['family']}".lower()).strip("-"), rule)
        for v in vendors
        for f in v["families"]
        for variant in f["variants"]
        for rule in variant["match"]
    ]
    counts: Counter = Counter()
    for r in record.counted(record.results.values()):
        family = next((slug for slug, rule in rules if _matches(rule, r)), None)
        if family:
            counts[family] += 1
    return dict(counts)


def _matches(rule, r: dict) -> bool:
    if isinstance(rule, str):
        return re.fullmatch(rule, r["accelerator_model"] or "", re.I) is not None
    return (
        re.fullmatch(rule["accelerator"], r["accelerator_model"] or "", re.I) is not None
        and ("rounds" not in rule or r["round"] in rule["rounds"])
        and ("system" not in rule or re.fullmatch(rule["system"], r["system_name"], re.I) is not None)
    )
