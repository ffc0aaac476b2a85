"""Import the whole MLPerf Training record into `content/data/record/` (docs/record-format.md).

Sources are MLCommons' `training_results_vX.Y` repositories as published: a bare git directory
(read with one `git cat-file --batch` per repository) or a plain folder (a clone). The round comes
from the path (`..._v1.0`). One bad folder never blocks a round: it is skipped with a reason
naming the folder and file, and every skip is listed in `import-report.md`.
Per-round rules live in record_rules.py, log parsing per era in record_logs.py.
"""
from __future__ import annotations

import ast
import json
import re
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from sitegen import record_rules as rules
from sitegen import record_write as write_mod
from sitegen.record_energy import energy as energy_of
from sitegen.record_logs import parse_run
from sitegen.record_sources import open_source, round_of

LOG_RE = re.compile(r"^result_[^/]*\.txt$")
LFS_HEAD = b"version https://git-lfs.github.com/spec/"
FIELDS = ("id", "round", "benchmark", "benchmark_folder", "division", "category", "submitter",
          "system_folder", "system_name", "accelerator_model", "accelerator_count", "nodes",
          "host_cpu_model", "host_cpu_count", "framework", "status", "value", "unit", "scaling",
          "runs", "runs_failed", "runs_required", "energy", "path", "system_path", "duplicate_logs")
ROUND_FIELDS = ("id", "repository", "commit", "commit_date", "published", "ruleset", "results",
                "logs_missing", "skipped")


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
    return {"submitter": prefix[0], "entries": prefix[1:], "system": parts[at + 1],
            "extra": parts[at + 2:-1], "bench": parts[-1] if len(parts) > at + 2 else None,
            "base": "/".join(parts[:at])}


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
    return {"division": desc.get("division", desc.get("divison")), "status": desc.get("status"),
            "submitter": text(desc.get("submitter")) or submitter_folder,
            "system_name": text(desc.get("system_name")),
            "accelerator_model": text(desc.get("accelerator_model_name")) or None if count else None,
            "accelerator_count": count, "nodes": nodes,
            "host_cpu_model": text(desc.get("host_processor_model_name")) or None,
            "host_cpu_count": times(nodes, to_int(desc.get("host_processors_per_node"))),
            "framework": text(desc.get("framework"))}


def entry_facts(desc: dict, submitter_folder: str) -> dict:
    """v0.5/v0.6 entry.json: `nodes` is a list of node groups."""
    groups = [g for g in desc["nodes"] if isinstance(g, dict)] or [{}]
    nodes = sum(to_int(g.get("num_nodes")) or 0 for g in groups)
    count = sum((to_int(g.get("num_nodes")) or 0) * (to_int(g.get("num_accelerators")) or 0)
                for g in groups)
    cpu = text(groups[0].get("cpu"))
    sockets = re.match(r"^(\d+)\s*x\s*", cpu)
    return {"division": desc.get("division"), "status": desc.get("status"),
            "submitter": text(desc.get("submitter")) or submitter_folder,
            "system_name": text(desc.get("hardware")),
            "accelerator_model": text(groups[0].get("accelerator")) or None if count else None,
            "accelerator_count": count, "nodes": nodes,
            "host_cpu_model": cpu[sockets.end():] if sockets else cpu or None,
            "host_cpu_count": times(nodes, int(sockets.group(1))) if sockets else None,
            "framework": text(desc.get("framework"))}


def read_system(source, path: str, submitter_folder: str) -> tuple[dict | None, str]:
    data = source.read(path)
    if data is None:
        return None, f"{path}: blob missing from the snapshot"
    body = data.decode("utf-8-sig", "replace")
    try:
        desc = json.loads(body)
    except ValueError as exc:
        desc = keyed_lines(body)
        if desc is None:
            return None, f"{path}: malformed JSON ({exc})"
    if not isinstance(desc, dict):
        return None, f"{path}: not a JSON object"
    desc = {str(k).strip().lower().replace(" ", "_"): v for k, v in desc.items()}
    return system_facts(desc, submitter_folder), ""


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
    entry.update(division=values.get("division"), status=values.get("status"),
                 submitter=values.get("org"))
    return entry


# --- one result -------------------------------------------------------------------------------

def result_id(round_id: str, loc: dict) -> str:
    parts = [round_id, loc["submitter"], *loc["entries"], loc["system"], *loc["extra"],
             loc["bench"] or ""]
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
    record = {k: facts[k] for k in ("submitter", "system_name", "accelerator_model",
                                    "accelerator_count", "nodes", "host_cpu_model",
                                    "host_cpu_count", "framework")}
    record.update(id=result_id(round_id, loc), round=round_id, system_folder=loc["system"],
                  division=rules.division(facts["division"]),
                  category=rules.category(facts["status"]), unit="min",
                  path=folder, system_path=system_path)
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
    notes = [f"{record['path']}: {len(failures)} of {len(runs)} runs failed: "
             + ", ".join(failures)] if failures else []
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
    found, notes = energy_of(ctx["source"], ctx["fileset"], record, logs, datas, record["runs"],
                             rules.ROUNDS[ctx["round"]].ruleset, rules.max_failed(record["benchmark"]))
    if found is not None:
        record["energy"] = found
    return notes


def division_notes(record: dict, runs, logs: list[str]) -> list[str]:
    said = {rules.division(r.division) for r in runs if r.division} - {None}
    if said and said != {record["division"]}:
        return [f"{record['path']}: logs say division {', '.join(sorted(said))}; the system "
                f"description {record['system_path']} says {record['division']} (used, as the "
                "summarizer does)"]
    return []


def import_folder(ctx: dict, folder: str, logs: list[str]) -> dict:
    """{'record': ... or None, 'skip': reason or '', 'notes': [...]} for one result folder."""
    loc = locate(folder)
    if loc is None:
        return {"record": None, "skip": f"{folder}: not inside a <submitter>/results/ folder",
                "notes": []}
    system_path, where = find_system(loc, ctx["fileset"], ctx["systems"])
    if system_path is None:
        return {"record": None, "skip": f"{folder}: {where}", "notes": []}
    facts, why = read_system(ctx["source"], system_path, loc["submitter"])
    if facts is None:
        return {"record": None, "skip": f"{folder}: {why}", "notes": []}
    record = base_record(ctx["round"], folder, loc, facts, system_path)
    why = check_facts(record, facts, system_path)
    if why:
        return {"record": None, "skip": f"{folder}: {why}", "notes": []}
    return finish_record(ctx, record, loc, logs, [where] if where else [])


def finish_record(ctx: dict, record: dict, loc: dict, logs: list[str], notes: list[str]) -> dict:
    record.update(benchmark_folder=loc["bench"], status="scored", value=None, runs=None,
                  runs_failed=None, scaling=None, duplicate_logs=duplicates(ctx["source"], logs))
    record["scaling"], why = scaling_of(ctx["source"], record["path"], ctx["fileset"])
    notes += [why] if why else []
    datas, missing = read_logs(ctx["source"], logs)
    if datas is None:
        return logs_missing(ctx, record, missing, notes)
    skip, more = score_logs(ctx, record, datas, logs)
    if not skip:
        more += add_energy(ctx, record, datas, logs)
    return {"record": None if skip else record, "skip": skip, "notes": notes + more,
            "missing": [], "logs": sorted(ctx["source"].digest(p) for p in logs)}


def logs_missing(ctx: dict, record: dict, missing: list[str], notes: list[str]) -> dict:
    folder = record["benchmark_folder"] or "unknown"
    record.update(status="logs missing", benchmark_folder=folder,
                  benchmark=rules.benchmark_id(ctx["round"], folder),
                  runs_required=rules.runs_required(ctx["round"], rules.benchmark_id(ctx["round"], folder)))
    names = ", ".join(p.rpartition("/")[2] for p in missing)
    return {"record": record, "skip": "", "notes": notes, "missing": [f"{record['path']}: {names}"]}


# --- one round --------------------------------------------------------------------------------

def import_round(path: str) -> dict:
    """Everything one source gives: round facts, records, skips and notes (picklable)."""
    root, round_id = Path(path), round_of(Path(path))
    if round_id not in rules.ROUNDS:
        return {"path": path, "round": round_id, "error": f"{path}: cannot tell which round "
                "this is (the path names none of " + ", ".join(rules.ROUNDS) + ")"}
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
    ctx = {"round": round_id, "source": source, "fileset": set(files),
           "systems": system_index(files)}
    with_logs = result_folders(files)
    outcomes = [import_folder(ctx, folder, logs) for folder, logs in sorted(with_logs.items())]
    skips = [o["skip"] for o in outcomes if o["skip"]]
    skips += [f"{folder}: no result_*.txt logs (holds {', '.join(sorted(names)[:5])})"
              for folder, names in sorted(empty_benchmark_folders(files, with_logs).items())]
    records, collisions = unique_records([o["record"] for o in outcomes if o["record"]])
    return {"path": path, "round": round_id, "folders": len(with_logs), "commit": source.commit,
            "commit_date": source.commit_date, "records": records, "skips": skips + collisions,
            "notes": [n for o in outcomes for n in o["notes"]],
            "missing": [m for o in outcomes for m in o.get("missing", [])],
            "logs": {o["record"]["id"]: o["logs"] for o in outcomes if o["record"] and "logs" in o}}


def unique_records(records: list[dict]) -> tuple[list[dict], list[str]]:
    by_id, skips = {}, []
    for record in records:
        if record["id"] in by_id:
            skips.append(f"{record['path']}: id {record['id']} already used by "
                         f"{by_id[record['id']]['path']}")
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
            progress(round_progress(result, len(done), len(names),
                                    time.perf_counter() - started))
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
    return (f"{where} {result['round']}: {result['folders']} result folders read, "
            f"{len(result['records'])} results, {len(result['skips'])} skipped")


def import_record(paths: list[Path], out: Path, workers: int = 2, progress=None) -> dict:
    """Import every source into `out` (content/data/record); returns counts for the CLI.
    `progress(line)`: told of each round as it is read (see import_all)."""
    results = sorted(import_all(paths, workers, progress), key=round_order)
    results = drop_repeated_rounds(results)
    good = [r for r in results if "error" not in r]
    note_resubmissions(good)
    old = {r["round"]: write_mod.load_list(out / f"results-{r['round']}.yaml") for r in good}
    log = sum((write_mod.changes(old[r["round"]], r["records"], r["commit_date"])
               for r in good), [])
    write_outputs(out, results, good, log)
    return {"rounds": len(good), "results": sum(len(r["records"]) for r in good),
            "skipped": sum(len(r["skips"]) for r in good), "changes": len(log),
            "logs_missing": sum(len(r["missing"]) for r in good),
            "errors": [r["error"] for r in results if "error" in r]}


def note_resubmissions(good: list[dict]) -> None:
    """A result whose logs are byte-identical to an earlier round's (the resubmission rule)."""
    earlier: dict[tuple, str] = {}
    for result in good:
        for record in result["records"]:
            logs = tuple(result["logs"].get(record["id"], ()))
            if logs and logs in earlier:
                result["notes"].append(f"{record['path']}: logs byte-identical to "
                                       f"{earlier[logs]} (a resubmission; scored as published)")
        earlier.update((tuple(v), k) for k, v in result["logs"].items() if v)


def round_order(result: dict) -> tuple:
    known = result["round"] in rules.ROUNDS
    return (0 if known else 1, rules.round_key(result["round"]) if known else (0, 0), result["path"])


def drop_repeated_rounds(results: list[dict]) -> list[dict]:
    seen, kept = set(), []
    for result in results:
        if "error" not in result and result["round"] in seen:
            result = {"path": result["path"], "round": result["round"],
                      "error": f"{result['path']}: round {result['round']} was already imported "
                               "from another source in this run"}
        seen.add(result["round"]) if "error" not in result else None
        kept.append(result)
    return kept


def round_entry(result: dict) -> dict:
    info = rules.ROUNDS[result["round"]]
    return {"id": result["round"], "repository": info.repository, "commit": result["commit"],
            "commit_date": result["commit_date"], "published": info.published,
            "ruleset": info.ruleset, "results": len(result["records"]),
            "logs_missing": len(result["missing"]), "skipped": len(result["skips"])}


def write_outputs(out: Path, results: list[dict], good: list[dict], log: list[dict]) -> None:
    entries = {r.get("id"): r for r in write_mod.load_list(out / "rounds.yaml")}
    entries.update((r["round"], round_entry(r)) for r in good)
    ordered = [entries[k] for k in sorted(entries, key=rules.round_key)]
    write_mod.write_if_changed(out / "rounds.yaml", write_mod.dump(ordered, ROUND_FIELDS))
    for result in good:
        write_mod.write_if_changed(out / f"results-{result['round']}.yaml",
                                   write_mod.dump(result["records"], FIELDS))
    report = out / "import-report.md"
    previous = report.read_text("utf-8") if report.is_file() else ""
    write_mod.write_if_changed(report, write_mod.report_text(results, previous))
    log = sorted(log, key=lambda e: (str(e["date"]), e["id"], e["field"]), reverse=True)
    history = write_mod.load_list(out / "changelog.yaml")
    write_mod.write_if_changed(out / "changelog.yaml", write_mod.changelog_text(log + history))
