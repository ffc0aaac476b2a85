"""One round's source read into records, each result folder into one record or a skip.

A folder's logs are read and scored, its system found and checked, its energy added; a folder
that cannot be read is a skip with its reason."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path

from sitegen.content import round_rules as rules
from sitegen.importer.counts import check as check_count
from sitegen.importer.energy import energy as energy_of
from sitegen.importer.locate import (
    empty_benchmark_folders,
    find_system,
    locate,
    match_system,
    other_log_folders,
    result_folders,
    system_index,
)
from sitegen.importer.logs import parse_run
from sitegen.importer.processed import add_counts
from sitegen.importer.sources import open_source, round_of
from sitegen.importer.systems import RESULT_FACTS, read_system

LFS_HEAD = b"version https://git-lfs.github.com/spec/"


def result_id(round_id: str, loc: dict) -> str:
    parts = [round_id, loc["submitter"], *loc["entries"], loc["system"], *loc["extra"], loc["bench"] or ""]
    return re.sub(r"[^a-z0-9.-]", "-", "-".join(p for p in parts if p).lower())


def read_logs(source, logs: list[str]) -> tuple[list[bytes] | None, list[str]]:
    """The logs' bytes, or None and the missing ones (absent blob or a Git LFS pointer)."""
    datas, missing = [], []
    for path in logs:
        data = source.read(path)
        if data is None or data.startswith(LFS_HEAD):
            missing.append(path)
        datas.append(data)
    return (None if missing else datas), missing


def duplicates(source, logs: list[str]) -> list[str]:
    seen: dict = {}
    dupes: list[str] = []
    for path in logs:
        digest = source.digest(path)
        if digest in seen:
            dupes.append(path.rpartition("/")[2])
        seen.setdefault(digest, path)
    return dupes


def scaling_of(source, folder: str, files: set) -> tuple[float | None, str]:
    path = f"{folder}/scaling.json"
    if path not in files:
        return None, ""
    try:
        return float(json.loads(source.read(path) or b"")["scaling_factor"]), ""
    except (ValueError, KeyError, TypeError) as exc:
        return None, f"{path}: unusable scaling factor ({exc})"


def base_record(round_id: str, folder: str, loc: dict, facts: dict, system_path: str) -> dict:
    record = {k: facts[k] for k in RESULT_FACTS}
    record.update(
        id=result_id(round_id, loc),
        round=round_id,
        system_folder=loc["system"],
        division=rules.division(facts["division"]),
        category=rules.category(facts["status"]),
        unit="min",
        path=folder,
        system_path=system_path,
    )
    return record


def check_facts(record: dict, facts: dict, system_path: str) -> str:
    if record["division"] is None:
        return f"{system_path}: division {facts['division']!r} is neither closed nor open"
    if record["category"] is None:
        return f"{system_path}: status {facts['status']!r} is not a known availability"
    if record["accelerator_count"] is None or record["nodes"] is None:
        return f"{system_path}: number_of_nodes or accelerators_per_node is not a whole number"
    return ""


def score_logs(ctx: dict, record: dict, datas: list[bytes], logs: list[str]) -> tuple[str, list]:
    """Fill benchmark, runs and value from the logs; (skip reason, notes)."""
    runs = [parse_run(d) for d in datas]
    bench_folder = record["benchmark_folder"] or next((r.benchmark for r in runs if r.benchmark), None)
    if not bench_folder:
        return f"{record['path']}: no benchmark folder and no submission_benchmark in the logs", []
    failures = [f"{p.rpartition('/')[2]} ({r.reason})" for p, r in zip(logs, runs) if r.reason]
    notes = (
        [f"{record['path']}: {len(failures)} of {len(runs)} runs failed: " + ", ".join(failures)]
        if failures
        else []
    )
    if not record["benchmark_folder"]:  # logs straight in results/<system>/: id from the logs
        record["id"] = result_id(ctx["round"], {**ctx["locs"][record["path"]], "bench": bench_folder})
        notes.append(
            f"{record['path']}: no benchmark folder; benchmark {bench_folder} from the "
            "logs' submission_benchmark"
        )
    record["benchmark_folder"] = bench_folder
    record["benchmark"] = rules.benchmark_id(ctx["round"], bench_folder)
    record["runs"] = [r.minutes for r in runs]
    record["runs_failed"] = sum(1 for r in runs if r.minutes is None)
    record["runs_required"] = rules.runs_required(ctx["round"], record["benchmark"])
    value, why = rules.score(ctx["round"], record["benchmark"], record["runs"])
    if value is None:
        return f"{record['path']}: not scored: {why}", notes
    record["value"] = value * (record["scaling"] or 1.0)
    notes += division_notes(record, runs, logs)
    return "", notes


def add_energy(ctx: dict, record: dict, datas: list[bytes], logs: list[str]) -> list[str]:
    """The `energy` field where the folder has power logs (energy.py); notes."""
    found, notes = energy_of(
        ctx["source"],
        ctx["fileset"],
        record,
        logs,
        datas,
        record["runs"],
        rules.ROUNDS[ctx["round"]].ruleset,
        rules.max_failed(record["benchmark"]),
    )
    if found is not None:
        record["energy"] = found
    return notes


def division_notes(record: dict, runs, logs: list[str]) -> list[str]:
    said = {d for d in (rules.division(r.division) for r in runs if r.division) if d is not None}
    if said and said != {record["division"]}:
        return [
            f"{record['path']}: logs say division {', '.join(sorted(said))}; the system "
            f"description {record['system_path']} says {record['division']} (used, as the "
            "summarizer does)"
        ]
    return []


def import_folder(ctx: dict, folder: str, logs: list[str]) -> dict:
    """{'record': ... or None, 'skip': reason or '', 'notes': [...]} for one result folder."""
    loc = locate(folder)
    if loc is None:
        return {"record": None, "skip": f"{folder}: not inside a <submitter>/results/ folder", "notes": []}
    system_path, where = find_system(loc, ctx["fileset"], ctx["systems"])
    if system_path is None:
        system_path, matched = match_system(ctx, loc, logs)
        where = matched or where
    if system_path is None:
        return {"record": None, "skip": f"{folder}: {where}", "notes": []}
    ctx["locs"][folder] = loc
    facts, why = read_system(ctx["source"], system_path, loc["submitter"])
    if facts is None:
        return {"record": None, "skip": f"{folder}: {why}", "notes": []}
    record = base_record(ctx["round"], folder, loc, facts, system_path)
    why = check_facts(record, facts, system_path)
    if why:
        return {"record": None, "skip": f"{folder}: {why}", "notes": []}
    notes = [f"{folder}: {where}"] if where else []
    if folder in ctx["other_logs"]:
        notes.append(
            f"{folder}: no result_*.txt; its *.log files taken as the result logs: "
            + ", ".join(p.rpartition("/")[2] for p in logs)
        )
    return finish_record(ctx, record, loc, logs, notes)


def finish_record(ctx: dict, record: dict, loc: dict, logs: list[str], notes: list[str]) -> dict:
    record.update(
        benchmark_folder=loc["bench"],
        status="scored",
        value=None,
        runs=None,
        runs_failed=None,
        scaling=None,
        duplicate_logs=duplicates(ctx["source"], logs),
    )
    record["scaling"], why = scaling_of(ctx["source"], record["path"], ctx["fileset"])
    notes += [why] if why else []
    datas, missing = read_logs(ctx["source"], logs)
    if datas is None:
        return logs_missing(ctx, record, missing, notes)
    skip, more = score_logs(ctx, record, datas, logs)
    if not skip:
        more += add_energy(ctx, record, datas, logs)
        more += add_counts(record, datas, logs)  # LLM benchmarks: what each run processed
        record["logs_digest"] = logs_digest(ctx["source"].digest(p) for p in logs)
    counted, stated = check_count(record, logs, datas) if not skip else (None, None)  # counts.py
    return {
        "record": None if skip else record,
        "skip": skip,
        "notes": notes + more,
        "missing": [],
        "counts": [counted] if counted else [],
        "stated": stated,
    }


def logs_digest(blob_ids) -> str:
    """SHA-256 of the logs' git blob ids, sorted, one a line: equal exactly when two results'
    log sets are byte-identical (whatever the file names), and computable from a bare git
    directory without reading a blob."""
    return hashlib.sha256("".join(f"{b}\n" for b in sorted(blob_ids)).encode()).hexdigest()


def logs_missing(ctx: dict, record: dict, missing: list[str], notes: list[str]) -> dict:
    folder = record["benchmark_folder"] or "unknown"
    record.update(
        status="logs missing",
        benchmark_folder=folder,
        benchmark=rules.benchmark_id(ctx["round"], folder),
        runs_required=rules.runs_required(ctx["round"], rules.benchmark_id(ctx["round"], folder)),
    )
    names = ", ".join(p.rpartition("/")[2] for p in missing)
    return {"record": record, "skip": "", "notes": notes, "missing": [f"{record['path']}: {names}"]}


def import_round(path: str) -> dict:
    """Everything one source gives: round facts, records, skips and notes (picklable)."""
    root, round_id = Path(path), round_of(Path(path))
    if round_id not in rules.ROUNDS:
        return {
            "path": path,
            "round": round_id,
            "error": f"{path}: cannot tell which round "
            "this is (the path names none of " + ", ".join(rules.ROUNDS) + ")",
        }
    if not root.is_dir():
        return {"path": path, "round": round_id, "error": f"{path}: not a folder or repository"}
    try:
        source = open_source(root)
    except (subprocess.CalledProcessError, OSError) as exc:
        return {"path": path, "round": round_id, "error": f"{path}: unreadable repository ({exc})"}
    try:
        return read_round(source, round_id, path)
    finally:
        source.close()


def read_round(source, round_id: str, path: str) -> dict:
    files = source.files()
    with_logs = result_folders(files)
    other_logs = other_log_folders(files, with_logs)
    ctx = {
        "round": round_id,
        "source": source,
        "fileset": set(files),
        "systems": system_index(files),
        "other_logs": set(other_logs),
        "locs": {},
    }
    with_logs.update(other_logs)
    outcomes = [import_folder(ctx, folder, logs) for folder, logs in sorted(with_logs.items())]
    skips = [o["skip"] for o in outcomes if o["skip"]]
    skips += [
        f"{folder}: no result_*.txt logs (holds {', '.join(sorted(names)[:5])})"
        for folder, names in sorted(empty_benchmark_folders(files, with_logs).items())
    ]
    records, collisions = unique_records([o["record"] for o in outcomes if o["record"]])
    return {
        "path": path,
        "round": round_id,
        "folders": len(with_logs),
        "commit": source.commit,
        "commit_date": source.commit_date,
        "records": records,
        "skips": skips + collisions,
        "notes": [n for o in outcomes for n in o["notes"]],
        "missing": [m for o in outcomes for m in o.get("missing", [])],
        "counts": [c for o in outcomes for c in o.get("counts", [])],
        "stated": [o["stated"] for o in outcomes if o.get("stated") is not None],
        "held": held_folders(files),
        "lacking": source.lacking(),
    }


def held_folders(files: list[str]) -> list[str]:
    """Every folder that holds a file of the source, at any depth: what a stored result's
    folder must be among to count as held (review.py)."""
    found: set[str] = set()
    for name in files:
        parts = name.split("/")[:-1]
        found.update("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
    return sorted(found)


def unique_records(records: list[dict]) -> tuple[list[dict], list[str]]:
    by_id: dict[str, dict] = {}
    skips: list[str] = []
    for record in records:
        if record["id"] in by_id:
            skips.append(f"{record['path']}: id {record['id']} already used by {by_id[record['id']]['path']}")
        else:
            by_id[record["id"]] = record
    return [by_id[k] for k in sorted(by_id)], skips
