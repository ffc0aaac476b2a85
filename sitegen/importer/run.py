"""Import the whole MLPerf Training record into `content/data/record/` (docs/record-format.md).

Sources are MLCommons' `training_results_vX.Y` repositories as published: a bare git directory
(read with one `git cat-file --batch` per repository) or a plain folder (a clone). The round comes
from the path (`..._v1.0`). One bad folder never blocks a round: it is skipped with a reason
naming the folder and file, and every skip is listed in `import-report.md`.
Per-round rules live in record_rules.py, log parsing per era in record_logs.py.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from sitegen.content import chips
from sitegen.content import round_rules as rules
from sitegen.importer import review
from sitegen.importer import write as write_mod
from sitegen.importer.energy import energy as energy_of
from sitegen.importer.logs import parse_run
from sitegen.importer.sources import open_source, round_of

LOG_RE = re.compile(r"^result_[^/]*\.txt$")
OTHER_LOG_RE = re.compile(r"^[^/]*\.log$")
LFS_HEAD = b"version https://git-lfs.github.com/spec/"
FIELDS = (
    "id",
    "round",
    "benchmark",
    "benchmark_folder",
    "division",
    "category",
    "submitter",
    "system_folder",
    "system_name",
    "accelerator_model",
    "accelerator_count",
    "nodes",
    "host_cpu_model",
    "host_cpu_count",
    "framework",
    "status",
    "value",
    "unit",
    "scaling",
    "runs",
    "runs_failed",
    "runs_required",
    "energy",
    "path",
    "system_path",
    "duplicate_logs",
    "resubmission_of",
    "logs_digest",
)
ROUND_FIELDS = (
    "id",
    "repository",
    "commit",
    "commit_date",
    "published",
    "ruleset",
    "results",
    "logs_missing",
    "skipped",
)


# --- finding results --------------------------------------------------------------------------


def locate(folder: str) -> dict | None:
    """Submitter, entry folders, system folder and benchmark folder of a result folder:
    `[v0.5.0/]<submitter>/[<entry>/...]results/<system>/[...]/<benchmark>`."""
    parts = folder.split("/")
    at = next((i for i, p in enumerate(parts) if p == "results" and i > 0), None)
    if at is None or at + 1 >= len(parts):
        return None
    prefix = parts[:at][1:] if re.fullmatch(r"v\d+\.\d+(\.\d+)?", parts[0]) else parts[:at]
    if not prefix:
        return None
    return {
        "submitter": prefix[0],
        "entries": prefix[1:],
        "system": parts[at + 1],
        "extra": parts[at + 2 : -1],
        "bench": parts[-1] if len(parts) > at + 2 else None,
        "base": "/".join(parts[:at]),
    }


def result_folders(files: list[str]) -> dict[str, list[str]]:
    """Folder -> its top-level result_*.txt, in the order of their number."""
    found: dict[str, list[str]] = {}
    for path in files:
        folder, _, name = path.rpartition("/")
        if LOG_RE.match(name) and folder:
            found.setdefault(folder, []).append(path)
    return {k: sorted(v, key=log_order) for k, v in found.items()}


def log_order(path: str) -> tuple[int, str]:
    digits = re.sub(r"\D", "", path.rpartition("/")[2])
    return (int(digits[-9:]) if digits else 10**12, path)


def other_log_order(path: str) -> tuple[int, str]:
    """`<job>_3.log`: by the last number of the name (the run's)."""
    numbers = re.findall(r"\d+", path.rpartition("/")[2])
    return (int(numbers[-1]) if numbers else 10**12, path)


def other_log_folders(files: list[str], with_logs: dict) -> dict[str, list[str]]:
    """`.../results/<system>/<benchmark>` folders without result_*.txt whose logs are named
    `*.log` (Alibaba's v0.7 A100 folder): taken as the result logs, in the order of their
    number, and noted in the report."""
    found: dict[str, list[str]] = {}
    for path in files:
        folder, _, name = path.rpartition("/")
        loc = locate(folder) if folder else None
        if OTHER_LOG_RE.match(name) and loc and loc["bench"] and not loc["extra"] and folder not in with_logs:
            found.setdefault(folder, []).append(path)
    return {k: sorted(v, key=other_log_order) for k, v in found.items()}


def empty_benchmark_folders(files: list[str], with_logs: dict) -> dict[str, list[str]]:
    """`.../results/<system>/<benchmark>` folders with files but no result_*.txt."""
    found: dict[str, list[str]] = {}
    for path in files:
        folder, _, name = path.rpartition("/")
        loc = locate(folder) if folder else None
        if loc and loc["bench"] and not loc["extra"] and folder not in with_logs:
            found.setdefault(folder, []).append(name)
    return found


def system_index(files: list[str]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for path in files:
        parent, _, name = path.rpartition("/")
        if parent.endswith("systems") and name.lower().endswith(".json"):
            index.setdefault(name[:-5].lower(), []).append(path)
    return index


def find_system(loc: dict, files: set, index: dict) -> tuple[str | None, str]:
    """The system description file, and a note when it is not where the rules put it."""
    own = f"{loc['base']}/systems/{loc['system']}.json"
    entry = f"{loc['base']}/results/{loc['system']}/entry.json"
    for path in (own, entry):
        if path in files:
            return path, ""
    near = [p for p in index.get(loc["system"].lower(), []) if p.startswith(loc["base"] + "/")]
    anywhere = index.get(loc["system"].lower(), [])
    for found in (near, anywhere):
        if len(found) == 1:
            return found[0], f"system described in {found[0]} (not {own})"
    return None, f"no system description: neither {own} nor {entry}"


# A results folder whose name matches no system description: the submitter's one description
# that the facts of the folder name and the logs single out (match_system).

PLATFORM_RE = re.compile(
    rb'"key":\s*"submission_platform"[^\n]*?"value":\s*"([^"\n]*)"'
    rb'|"value":\s*"([^"\n]*)"[^\n]*?"key":\s*"submission_platform"'
)


def log_platform(data: bytes | None) -> str | None:
    """The `submission_platform` a log names, if any."""
    found = PLATFORM_RE.search(data or b"")
    return (found.group(1) or found.group(2)).decode("latin-1").strip() if found else None


def folder_clues(name: str) -> tuple[set[int], set[str]]:
    """The numbers (a total accelerator count) and the words with a digit and a letter (an
    accelerator model, `v100`) of a folder name such as `v100-256`."""
    tokens = re.findall(r"[a-z0-9]+", name.lower())
    return (
        {int(t) for t in tokens if t.isdigit()},
        {t for t in tokens if re.search(r"\d", t) and re.search(r"[a-z]", t)},
    )


def model_words(model: str | None) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", (model or "").lower()))


def match_system(ctx: dict, loc: dict, logs: list[str]) -> tuple[str | None, str]:
    """The submitter's `systems/*.json` that alone fits a results folder named otherwise:
    by the logs' submission_platform (a description's file stem or system_name), and by the
    folder name's accelerator model and total count (`v100-256`: 256 accelerators whose
    model name has the word `v100`); a description must fit every clue there is, and exactly
    one may. (path or None, why)."""
    prefix = f"{loc['base']}/systems/"
    paths = sorted(
        p
        for p in ctx["fileset"]
        if p.startswith(prefix) and "/" not in p[len(prefix) :] and p.lower().endswith(".json")
    )
    facts = {p: read_system(ctx["source"], p, loc["submitter"])[0] for p in paths}
    facts = {p: f for p, f in facts.items() if f is not None}
    platform = log_platform(ctx["source"].read(logs[0])) if logs else None
    counts, words = folder_clues(loc["system"])
    named = {
        p
        for p, f in facts.items()
        if platform and platform.lower() in (f["system_name"].lower(), p[len(prefix) : -5].lower())
    }
    fitting = {
        p
        for p, f in facts.items()
        if counts
        and words
        and f["accelerator_count"] in counts
        and words & model_words(f["accelerator_model"])
    }
    chosen = (named & fitting) or (fitting if not named else named if not fitting else set())
    if len(chosen) != 1:
        return None, ""
    path = next(iter(chosen))
    clues = []
    if path in named:
        clues.append(f"the logs' submission_platform {platform!r}")
    if path in fitting:
        f = facts[path]
        clues.append(
            f"the folder name's {', '.join(sorted(words))} x "
            f"{', '.join(str(c) for c in sorted(counts))} ({f['nodes']} nodes, "
            f"{f['accelerator_count']} x {f['accelerator_model']})"
        )
    return path, (
        f"system described in {path} (no {loc['base']}/systems/{loc['system']}.json; "
        f"the only one of the {len(facts)} in {prefix} that fits " + " and ".join(clues) + ")"
    )


# --- system descriptions ----------------------------------------------------------------------


def to_int(value) -> int | None:
    try:
        number = float(str(value).strip())
    except (TypeError, ValueError):
        return None
    return int(number) if number == int(number) and number >= 0 else None


def text(value) -> str:
    return "" if value is None else str(value).strip()


def times(a: int | None, b: int | None) -> int | None:
    return a * b if a is not None and b is not None else None


def system_facts(desc: dict, submitter_folder: str) -> dict:
    """The record's system fields from a systems/*.json or an early entry.json."""
    if isinstance(desc.get("nodes"), list):
        return entry_facts(desc, submitter_folder)
    nodes, per_node = to_int(desc.get("number_of_nodes")), to_int(desc.get("accelerators_per_node"))
    count = times(nodes, per_node)
    return {
        "division": desc.get("division", desc.get("divison")),
        "status": desc.get("status"),
        "submitter": text(desc.get("submitter")) or submitter_folder,
        "system_name": text(desc.get("system_name")),
        "accelerator_model": text(desc.get("accelerator_model_name")) or None if count else None,
        "accelerator_count": count,
        "nodes": nodes,
        "host_cpu_model": text(desc.get("host_processor_model_name")) or None,
        "host_cpu_count": times(nodes, to_int(desc.get("host_processors_per_node"))),
        "framework": text(desc.get("framework")),
    }


def entry_facts(desc: dict, submitter_folder: str) -> dict:
    """v0.5/v0.6 entry.json: `nodes` is a list of node groups."""
    groups = [g for g in desc["nodes"] if isinstance(g, dict)] or [{}]
    nodes = sum(to_int(g.get("num_nodes")) or 0 for g in groups)
    count = sum((to_int(g.get("num_nodes")) or 0) * (to_int(g.get("num_accelerators")) or 0) for g in groups)
    cpu = text(groups[0].get("cpu"))
    sockets = re.match(r"^(\d+)\s*x\s*", cpu)
    return {
        "division": desc.get("division"),
        "status": desc.get("status"),
        "submitter": text(desc.get("submitter")) or submitter_folder,
        "system_name": text(desc.get("hardware")),
        "accelerator_model": text(groups[0].get("accelerator")) or None if count else None,
        "accelerator_count": count,
        "nodes": nodes,
        "host_cpu_model": cpu[sockets.end() :] if sockets else cpu or None,
        "host_cpu_count": times(nodes, int(sockets.group(1))) if sockets else None,
        "framework": text(desc.get("framework")),
    }


def read_system(source, path: str, submitter_folder: str) -> tuple[dict | None, str]:
    data = source.read(path)
    if data is None:
        return None, f"{path}: blob missing from the snapshot"
    body = data.decode("utf-8-sig", "replace")
    try:
        desc = json.loads(body)
    except ValueError as exc:
        desc = lenient_json(body)
        desc = keyed_lines(body) if desc is None else desc
        if desc is None:
            return None, f"{path}: malformed JSON ({exc})"
    if not isinstance(desc, dict):
        return None, f"{path}: not a JSON object"
    desc = {str(k).strip().lower().replace(" ", "_"): v for k, v in desc.items()}
    return system_facts(desc, submitter_folder), ""


def lenient_json(body: str) -> dict | None:
    """JSON with a comma before a closing brace (Alibaba's v0.7 system files)."""
    try:
        return json.loads(re.sub(r",(\s*[}\]])", r"\1", body))
    except ValueError:
        return None


def keyed_lines(body: str) -> dict | None:
    """NVIDIA's v0.6 system files: `org: {"value": ...}` lines, the entry a Python literal."""
    found = dict(re.findall(r"^(\w+): (\{.*\})\s*$", body, re.M))
    try:
        values = {k: json.loads(v).get("value") for k, v in found.items()}
        entry = ast.literal_eval(values["entry"])
        nodes = entry.get("nodes")
        entry["nodes"] = [ast.literal_eval(nodes) if isinstance(nodes, str) else nodes]
    except (ValueError, SyntaxError, KeyError, AttributeError, TypeError):
        return None
    entry.update(division=values.get("division"), status=values.get("status"), submitter=values.get("org"))
    return entry


# --- one result -------------------------------------------------------------------------------


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
    seen, dupes = {}, []
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
    record = {
        k: facts[k]
        for k in (
            "submitter",
            "system_name",
            "accelerator_model",
            "accelerator_count",
            "nodes",
            "host_cpu_model",
            "host_cpu_count",
            "framework",
        )
    }
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
    """The `energy` field where the folder has power logs (record_energy.py); notes."""
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
    said = {rules.division(r.division) for r in runs if r.division} - {None}
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
        record["logs_digest"] = logs_digest(ctx["source"].digest(p) for p in logs)
    return {"record": None if skip else record, "skip": skip, "notes": notes + more, "missing": []}


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


# --- one round --------------------------------------------------------------------------------


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
    }


def unique_records(records: list[dict]) -> tuple[list[dict], list[str]]:
    by_id, skips = {}, []
    for record in records:
        if record["id"] in by_id:
            skips.append(f"{record['path']}: id {record['id']} already used by {by_id[record['id']]['path']}")
        else:
            by_id[record["id"]] = record
    return [by_id[k] for k in sorted(by_id)], skips


# --- the whole import -------------------------------------------------------------------------


def default_dirs(mirror: Path = Path("/work/.mirror")) -> list[Path]:
    dirs = [mirror / f"mlcommons+training_results_{r}" / "repo" for r in rules.ROUNDS]
    return [d for d in dirs if d.exists()]


def import_all(paths: list[Path], workers: int = 2, progress=None) -> list[dict]:
    """import_round of every path, in the order given; `progress(line)` is told of each round
    as it finishes (round, folders read, results, rounds done of all, seconds so far)."""
    names = [str(p) for p in paths]
    started, done = time.perf_counter(), []

    def finished(result: dict) -> dict:
        done.append(result)
        if progress is not None:
            progress(round_progress(result, len(done), len(names), time.perf_counter() - started))
        return result

    if workers <= 1 or len(names) <= 1:
        return [finished(import_round(n)) for n in names]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(import_round, n) for n in names]
        for future in as_completed(futures):
            finished(future.result())
        return [future.result() for future in futures]


def round_progress(result: dict, done: int, total: int, seconds: float) -> str:
    """One line of progress for a finished round (the terminal's, never the data's)."""
    where = f"[{done}/{total} rounds, {seconds:.1f} s]"
    if "error" in result:
        return f"{where} {result['round']}: not imported: {result['error']}"
    return (
        f"{where} {result['round']}: {result['folders']} result folders read, "
        f"{len(result['records'])} results, {len(result['skips'])} skipped"
    )


def import_record(
    paths: list[Path], out: Path, workers: int = 2, progress=None, accept_changes: bool = False
) -> dict:
    """Import every source into `out` (content/data/record); returns counts for the CLI.
    `progress(line)`: told of each round as it is read (see import_all). Raises
    record_review.ImportStopped, writing nothing, when a source cannot be imported or holds
    no result, and (unless `accept_changes`) when published results would change."""
    results = sorted(import_all(paths, workers, progress), key=round_order)
    results = drop_repeated_rounds(results)
    review.stop_on_sources(results, out)
    stored = stored_rounds(out)
    note_resubmissions(results, stored)
    old = {r["round"]: stored.get(r["round"], []) for r in results}
    log = sum((write_mod.changes(old[r["round"]], r["records"], r["commit_date"]) for r in results), [])
    if not accept_changes:
        review.stop_on_changes(log, out)
    write_outputs(out, results, results, log)
    return {
        "rounds": len(results),
        "results": sum(len(r["records"]) for r in results),
        "skipped": sum(len(r["skips"]) for r in results),
        "changes": len(log),
        "logs_missing": sum(len(r["missing"]) for r in results),
    }


def stored_rounds(out: Path) -> dict[str, list[dict]]:
    """round -> its results as written before (content/data/record/results-<round>.yaml)."""
    found = {}
    for path in sorted(out.glob("results-v*.yaml")):
        round_id = path.stem[len("results-") :]
        if round_id in rules.ROUNDS:
            found[round_id] = write_mod.load_list(path)
    return found


def note_resubmissions(good: list[dict], stored: dict[str, list[dict]]) -> None:
    """`resubmission_of`: a result whose logs are byte-identical (same `logs_digest`) to a
    result of an earlier round (the rules' "Results Resubmission"), naming the earliest such
    result, where the runs were first published. Rounds not imported this time are read from
    their stored files, so importing one round alone finds resubmissions of the others."""
    records = {round_id: list(rows) for round_id, rows in stored.items()}
    records.update((r["round"], r["records"]) for r in good)
    importing = {r["round"]: r for r in good}
    first: dict[str, str] = {}
    for round_id in sorted(records, key=rules.round_key):
        for record in records[round_id]:
            earlier = first.get(record.get("logs_digest") or "")
            if round_id in importing and earlier:
                record["resubmission_of"] = earlier
                importing[round_id]["notes"].append(
                    f"{record['path']}: logs byte-identical to {earlier} (a resubmission; "
                    "scored as published)"
                )
        for record in records[round_id]:
            if record.get("logs_digest"):
                first.setdefault(record["logs_digest"], record["id"])


def round_order(result: dict) -> tuple:
    known = result["round"] in rules.ROUNDS
    return (0 if known else 1, rules.round_key(result["round"]) if known else (0, 0), result["path"])


def drop_repeated_rounds(results: list[dict]) -> list[dict]:
    seen, kept = set(), []
    for result in results:
        if "error" not in result and result["round"] in seen:
            result = {
                "path": result["path"],
                "round": result["round"],
                "error": f"{result['path']}: round {result['round']} was already imported "
                "from another source in this run",
            }
        seen.add(result["round"]) if "error" not in result else None
        kept.append(result)
    return kept


def round_entry(result: dict) -> dict:
    info = rules.ROUNDS[result["round"]]
    return {
        "id": result["round"],
        "repository": info.repository,
        "commit": result["commit"],
        "commit_date": result["commit_date"],
        "published": info.published,
        "ruleset": info.ruleset,
        "results": len(result["records"]),
        "logs_missing": len(result["missing"]),
        "skipped": len(result["skips"]),
    }


def write_outputs(out: Path, results: list[dict], good: list[dict], log: list[dict]) -> None:
    entries = {r.get("id"): r for r in write_mod.load_list(out / "rounds.yaml")}
    entries.update((r["round"], round_entry(r)) for r in good)
    ordered = [entries[k] for k in sorted(entries, key=rules.round_key)]
    write_mod.write_if_changed(out / "rounds.yaml", write_mod.dump(ordered, ROUND_FIELDS))
    for result in good:
        write_mod.write_if_changed(
            out / f"results-{result['round']}.yaml", write_mod.dump(result["records"], FIELDS)
        )
    report = out / "import-report.md"
    previous = report.read_text("utf-8") if report.is_file() else ""
    every = [r for rows in stored_rounds(out).values() for r in rows]  # as just written
    chip_lines = chips.report_lines(out.parent.parent, every)  # content/ holds data/record/
    write_mod.write_if_changed(report, write_mod.report_text(results, previous, chip_lines))
    log = sorted(log, key=lambda e: (str(e["date"]), e["id"], e["field"]), reverse=True)
    history = write_mod.load_list(out / "changelog.yaml")
    write_mod.write_if_changed(out / "changelog.yaml", write_mod.changelog_text(log + history))
