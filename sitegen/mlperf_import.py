"""Import official MLPerf Training results into `content/data/results.yaml`.

The source is laid out like MLCommons' `training_results_vX.Y` repositories: one round folder
(`<submitter>/systems/<system>.json`, `<submitter>/results/<system>/<benchmark>/result_*.txt`)
or a folder of round folders named `v1.0`, `v1.1`, ...

- The round is the folder name `vX.Y` (or a name ending in `_vX.Y`, as `training_results_v1.0`).
  The logs name no round: their `submission_*` events give benchmark, division, org, status and
  platform only.
- Division, category (`status`), framework, accelerators and host CPUs come from the system JSON;
  every log's `submission_division` must agree with its `division`.
- The site system comes from `mlperf_systems.yaml`: `<round>/<submitter>/<system folder>: <id>`.
- Ids are `<round>-<submitter>-<system folder>-<benchmark>` lowercased, any character outside
  `[a-z0-9.-]` (NVIDIA's `_`) written `-`, as docs/content-format.md's id rule requires.

Scoring is the result summarizer's of PyPI's `mlperf-logging`, with its code where it serves:

- lines are parsed by the package's parser for the round's ruleset (`string_to_logline`), but
  read here rather than by its `parse_file`, which numbers only the `:::MLLOG` lines and loses the
  line of a malformed one. As there, `:::MLLOG ` may follow console noise on the same line.
- a run's time is (first `run_stop` - first `run_start`) in minutes, as in the summarizer.
- the summarizer drops runs that fail its compliance checker (which needs every hyper-parameter
  rule of the round); here a run fails when its `run_stop` status is not `success`. Failed runs
  are its "dropped scores", i.e. the slowest, and the score is its `_compute_olympic_average`:
  drop the fastest and slowest, average the rest.
- at most one run may fail (four for unet3d: a constant inline in the summarizer, so repeated
  here); the runs a benchmark needs come from `benchmark_meta.get_result_file_counts` (ResNet-50
  5, BERT 10, ...). Fewer logs or more failures is an error. A `scaling.json` from the review
  committee beside the logs multiplies the score, as in the summarizer.
"""
from __future__ import annotations

import importlib
import json
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml
from mlperf_logging.benchmark_meta import get_result_file_counts

TOKEN = ":::MLLOG "
ROUND_RE = re.compile(r"(?:^|[_-])(v\d+\.\d+)$")
MAP_KEY_RE = re.compile(r"^v\d+\.\d+/[^/\s]+/[^/\s]+$")
SITE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
CATEGORIES = {"onprem": "available", "available": "available", "cloud": "available",
              "preview": "preview", "research": "research", "rdi": "research"}
SYSTEM_FIELDS = ("division", "status", "submitter", "framework", "number_of_nodes",
                 "accelerators_per_node", "accelerator_model_name",
                 "host_processors_per_node", "host_processor_model_name")
COUNT_FIELDS = ("number_of_nodes", "accelerators_per_node", "host_processors_per_node")
HEADER = """\
# MLPerf Training results: written by the importer (sitegen/mlperf_import.py, run with
# `python build.py import-mlperf`) from the official MLCommons result logs.
# Imported fields are overwritten by every import. Curated fields survive a re-import:
# `submission_id`, `note`, and any other key the importer does not write.
# Records the import does not produce are kept as they are.
"""

Problem = tuple[Path, int | None, str]


class MLPerfImportError(Exception):
    """Every problem of one import, each as (path, line or None, message)."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(format_problem(p) for p in self.problems))


def format_problem(problem: Problem) -> str:
    path, line, message = problem
    return f"{path}:{line}: {message}" if line else f"{path}: {message}"


@dataclass(frozen=True)
class ImportSummary:
    added: int = 0
    updated: int = 0
    unchanged: int = 0


@dataclass(frozen=True)
class Run:
    path: Path
    minutes: float
    success: bool
    division: str


@dataclass(frozen=True)
class Location:
    """One result: a benchmark folder of one system of one submitter in one round."""

    round: str
    submitter: str
    system: str
    benchmark: str
    folder: Path
    system_json: Path

    @property
    def key(self) -> str:
        return f"{self.round}/{self.submitter}/{self.system}"

    @property
    def id(self) -> str:
        raw = f"{self.round}-{self.submitter}-{self.system}-{self.benchmark}".lower()
        return re.sub(r"[^a-z0-9.-]", "-", raw)


def import_mlperf(source_dir: Path, results_file: Path, systems_map_file: Path,
                  progress=None) -> ImportSummary:
    """Import every result under `source_dir` into `results_file`; raise MLPerfImportError
    listing every problem (and write nothing) if anything is wrong. `progress(line)`, when
    given, is told how far the reading is (see collect_records)."""
    results_file, systems_map_file = Path(results_file), Path(systems_map_file)
    problems: list[Problem] = []
    mapping = read_mapping(systems_map_file, problems)
    existing = read_results(results_file, problems)
    imported = collect_records(Path(source_dir), mapping, systems_map_file, problems, progress)
    if problems:
        raise MLPerfImportError(problems)
    records, summary = merge(existing, imported)
    write_results(results_file, records)
    return summary


# --- finding results ------------------------------------------------------------------------

def round_folders(source_dir: Path, problems: list[Problem]) -> list[tuple[str, Path]]:
    if not source_dir.is_dir():
        problems.append((source_dir, None, "MLPerf results folder not found"))
        return []
    match = ROUND_RE.search(source_dir.name)
    if match:
        return [(match.group(1), source_dir)]
    rounds = [(m.group(1), d) for d in subdirs(source_dir) if (m := ROUND_RE.search(d.name))]
    if not rounds:
        problems.append((source_dir, None, "no round folder (named like v1.0) found"))
    return rounds


def subdirs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir())


def locations(round_: str, round_dir: Path) -> list[Location]:
    found = []
    for submitter in subdirs(round_dir):
        if not (submitter / "results").is_dir():
            continue
        for system in subdirs(submitter / "results"):
            json_path = submitter / "systems" / f"{system.name}.json"
            found += [Location(round_, submitter.name, system.name, bench.name, bench, json_path)
                      for bench in subdirs(system)]
    return found


def result_logs(folder: Path) -> list[Path]:
    """result_<n>.txt in the order of n."""
    logs = [p for p in folder.glob("result_*.txt") if p.is_file()]
    return sorted(logs, key=lambda p: (int(n) if (n := p.stem[7:]).isdigit() else 10**9, p.name))


# `progress` is told every this many result folders, and at the end of each round.
PROGRESS_EVERY = 50


def collect_records(source_dir: Path, mapping: dict[str, str] | None, map_file: Path,
                    problems: list[Problem], progress=None) -> list[dict]:
    records: dict[str, dict] = {}
    started = time.perf_counter()
    for round_, round_dir in round_folders(source_dir, problems):
        found = locations(round_, round_dir)
        for done, loc in enumerate(found, start=1):
            record = build_record(loc, mapping, map_file, problems)
            if record and record["id"] in records:
                problems.append((loc.folder, None, f"result id {record['id']!r} is already used "
                                 f"by {records[record['id']]['system_folder']}"))
            elif record:
                records[record["id"]] = record
            if progress is not None and (done % PROGRESS_EVERY == 0 or done == len(found)):
                progress(f"{round_}: {done}/{len(found)} result folders read "
                         f"({time.perf_counter() - started:.1f} s)")
    if not records and not problems:
        problems.append((source_dir, None, "no MLPerf results found"))
    return list(records.values())


# --- one result -----------------------------------------------------------------------------

def build_record(loc: Location, mapping: dict[str, str] | None, map_file: Path,
                 problems: list[Problem]) -> dict | None:
    before = len(problems)
    desc = read_system(loc.system_json, loc.folder, problems)
    site_system = (mapping or {}).get(loc.key)
    if desc is not None and mapping is not None and site_system is None:
        problems.append((loc.system_json, None, f"system {loc.key!r} is not mapped to a site system: "
                         f"add a line '{loc.key}: <site system id>' to {map_file}"))
    runs = read_runs(loc, problems)
    if desc is not None and runs:
        check_divisions(desc["division"], runs, loc.system_json, problems)
    value = score(loc, runs, problems) if runs else None
    if len(problems) > before or value is None:
        return None
    return make_record(loc, desc, site_system, runs, value)


def make_record(loc: Location, desc: dict, site_system: str, runs: list[Run], value: float) -> dict:
    nodes = desc["number_of_nodes"]
    return {
        "id": loc.id, "round": loc.round, "division": desc["division"],
        "category": desc["category"], "system": site_system, "benchmark": loc.benchmark,
        "value": round(value, 2), "unit": "min", "framework": desc["framework"],
        "submission_id": None, "source": f"mlperf-training-{loc.round}",
        "accelerator_model": desc["accelerator_model_name"],
        "accelerator_count": desc["accelerators_per_node"] * nodes,
        "host_cpu": {"model": desc["host_processor_model_name"],
                     "count": desc["host_processors_per_node"] * nodes},
        "submitter": desc["submitter"], "system_folder": loc.system,
        "runs": [round(r.minutes, 3) for r in runs],
        "runs_failed": sum(1 for r in runs if not r.success),
    }


def read_system(path: Path, folder: Path, problems: list[Problem]) -> dict | None:
    if not path.is_file():
        problems.append((path, None, f"system description missing (needed for {folder})"))
        return None
    try:
        desc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        problems.append((path, exc.lineno, f"malformed JSON: {exc.msg}"))
        return None
    except (OSError, UnicodeDecodeError) as exc:
        problems.append((path, None, f"cannot read system description: {exc}"))
        return None
    return clean_system(desc, path, problems)


def clean_system(desc, path: Path, problems: list[Problem]) -> dict | None:
    if not isinstance(desc, dict):
        problems.append((path, None, "system description must be a JSON object"))
        return None
    missing = [f for f in SYSTEM_FIELDS if desc.get(f) in (None, "")]
    if missing:
        problems.append((path, None, f"missing field(s): {', '.join(missing)}"))
        return None
    clean = {f: str(desc[f]).strip() for f in SYSTEM_FIELDS}
    clean["division"] = clean["division"].lower()
    clean["category"] = CATEGORIES.get(clean["status"].lower())
    if clean["division"] not in ("closed", "open"):
        problems.append((path, None, f"division {desc['division']!r} is neither closed nor open"))
    if clean["category"] is None:
        problems.append((path, None, f"status {desc['status']!r} is not one of {', '.join(CATEGORIES)}"))
    bad = [f for f in COUNT_FIELDS if not clean[f].isdigit() or int(clean[f]) == 0]
    if bad:
        problems.append((path, None, f"not a whole number above zero: {', '.join(bad)}"))
    clean.update((f, int(clean[f])) for f in COUNT_FIELDS if f not in bad)
    ok = clean["division"] in ("closed", "open") and clean["category"] and not bad
    return clean if ok else None


def check_divisions(division: str, runs: list[Run], json_path: Path, problems: list[Problem]) -> None:
    for run in runs:
        if run.division != division:
            problems.append((run.path, None, f"submission_division {run.division!r} disagrees with "
                             f"division {division!r} in {json_path}"))


def score(loc: Location, runs: list[Run], problems: list[Problem]) -> float | None:
    """The official score: olympic average with failed runs as the slowest (see module doc)."""
    from mlperf_logging.result_summarizer import result_summarizer as summarizer  # slow import

    required = get_result_file_counts("training").get(loc.benchmark)
    if required is None:
        problems.append((loc.folder, None, f"unknown benchmark {loc.benchmark!r}: "
                         "mlperf-logging does not say how many runs it needs"))
        return None
    if len(runs) < required:
        problems.append((loc.folder, None, f"{len(runs)} run log(s); {loc.benchmark} needs {required}"))
        return None
    times = [r.minutes for r in runs if r.success]
    failed, max_failed = len(runs) - len(times), 4 if loc.benchmark == "unet3d" else 1
    if failed > max_failed:
        problems.append((loc.folder, None, f"{failed} of {len(runs)} runs did not stop with "
                         f"status 'success'; at most {max_failed} may fail"))
        return None
    average = summarizer._compute_olympic_average(times, failed, max_failed)
    return average * scaling_factor(loc.folder, summarizer, problems)


def scaling_factor(folder: Path, summarizer, problems: list[Problem]) -> float:
    try:
        return float(summarizer._get_scaling_factor(str(folder)))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        problems.append((folder / "scaling.json", None, f"unusable scaling factor: {exc}"))
        return 1.0


# --- logs -----------------------------------------------------------------------------------

def read_runs(loc: Location, problems: list[Problem]) -> list[Run]:
    logs = result_logs(loc.folder)
    if not logs:
        problems.append((loc.folder, None, "no result_*.txt logs"))
        return []
    to_logline = log_parser(loc, problems)
    if to_logline is None:
        return []
    runs = [read_run(path, to_logline, problems) for path in logs]
    return [] if None in runs else runs


def log_parser(loc: Location, problems: list[Problem]):
    """mlperf-logging's line parser for the round's ruleset (v1.0 -> ruleset_100)."""
    major, minor = loc.round[1:].split(".")
    name = f"mlperf_logging.compliance_checker.mlp_parser.ruleset_{major}{minor}0"
    try:
        return importlib.import_module(name).string_to_logline
    except (ImportError, AttributeError):
        problems.append((loc.folder, None, f"round {loc.round} is not supported by the installed "
                         "mlperf-logging package"))
        return None


def read_run(path: Path, to_logline, problems: list[Problem]) -> Run | None:
    events = read_events(path, to_logline, problems)
    if events is None:
        return None
    missing = [k for k in ("run_start", "run_stop", "submission_division") if k not in events]
    if missing:
        problems.append((path, None, f"no {' or '.join(missing)} event in the log"))
        return None
    start, stop = events["run_start"], events["run_stop"]
    if stop.timestamp <= start.timestamp:
        problems.append((path, None, "run_stop is not later than run_start"))
        return None
    meta = stop.value.get("metadata")
    success = isinstance(meta, dict) and meta.get("status") == "success"
    division = str(events["submission_division"].value.get("value")).lower()
    return Run(path, (stop.timestamp - start.timestamp) / 60000, success, division)


def read_events(path: Path, to_logline, problems: list[Problem]) -> dict | None:
    """The first event of each key; None when a line is malformed (each one is reported)."""
    events, ok = {}, True
    try:
        with path.open(encoding="latin-1") as lines:  # as mlperf-logging reads logs
            for lineno, line in enumerate(lines, 1):
                logline = parse_log_line(line, lineno, path, to_logline, problems)
                ok = ok and logline is not False
                if logline:
                    events.setdefault(logline.key, logline)
    except OSError as exc:
        problems.append((path, None, f"cannot read log: {exc.strerror}"))
        return None
    return events if ok else None


def parse_log_line(line: str, lineno: int, path: Path, to_logline, problems: list[Problem]):
    """A LogLine; None for console noise; False (reported) for a malformed :::MLLOG line."""
    at = line.rfind(TOKEN)
    if at < 0:
        return None
    try:
        logline = to_logline(lineno, line[at:].strip())
        if not isinstance(logline.key, str):
            raise ValueError("'key' must be text")
        return logline
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        reason = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        problems.append((path, lineno, f"malformed :::MLLOG line: {reason}"))
        return False


# --- the mapping and results files ----------------------------------------------------------

def read_mapping(path: Path, problems: list[Problem]) -> dict[str, str] | None:
    """`<round>/<submitter>/<system folder>: <site system id>` lines, read with line numbers;
    None when the file is unusable (then systems are not reported as unmapped one by one)."""
    text = read_yaml_text(path, problems, "the system mapping")
    if text is None:
        return None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        problems.append((path, yaml_line(exc), f"YAML syntax error: {exc.problem}"))
        return None
    if node is None:
        return {}
    if not isinstance(node, yaml.MappingNode):
        problems.append((path, node.start_mark.line + 1, "expected 'round/submitter/system: id' lines"))
        return None
    return mapping_entries(node, path, problems)


def mapping_entries(node: yaml.MappingNode, path: Path, problems: list[Problem]) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for key, value in node.value:
        line, key_text = key.start_mark.line + 1, getattr(key, "value", None)
        if not isinstance(key_text, str) or not MAP_KEY_RE.match(key_text):
            problems.append((path, line, "key must look like v1.0/<submitter>/<system folder>"))
        elif key_text in mapping:
            problems.append((path, line, f"{key_text!r} is mapped twice"))
        elif value.tag != "tag:yaml.org,2002:str" or not SITE_ID_RE.match(value.value):
            problems.append((path, line, f"{key_text!r}: the site system must be an id such as ipu-pod16"))
        else:
            mapping[key_text] = value.value
    return mapping


def read_yaml_text(path: Path, problems: list[Problem], what: str) -> str | None:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        problems.append((path, None, f"{what} file is missing"))
    except (OSError, UnicodeDecodeError) as exc:
        problems.append((path, None, f"cannot read {what}: {exc}"))
    return None


def yaml_line(exc: yaml.MarkedYAMLError) -> int | None:
    mark = exc.problem_mark or exc.context_mark
    return mark.line + 1 if mark else None


def read_results(path: Path, problems: list[Problem]) -> list[dict]:
    if not path.exists():
        return []
    text = read_yaml_text(path, problems, "results")
    try:
        data = yaml.safe_load(text) if text is not None else None
    except yaml.MarkedYAMLError as exc:
        problems.append((path, yaml_line(exc), f"YAML syntax error: {exc.problem}"))
        return []
    if data is None:
        return []
    if not isinstance(data, list) or not all(isinstance(r, dict) and "id" in r for r in data):
        problems.append((path, None, "expected a list of records, each with an id"))
        return []
    for id_, n in Counter(str(r["id"]) for r in data).items():
        if n > 1:
            problems.append((path, None, f"id {id_!r} appears {n} times"))
    return data


def merge(existing: list[dict], imported: list[dict]) -> tuple[list[dict], ImportSummary]:
    """Imported records replace their old versions, keeping curated fields; others stay."""
    by_id = {str(r["id"]): r for r in existing}
    counts = Counter()
    for record in imported:
        old = by_id.get(record["id"])
        new = record if old is None else with_curated(record, old)
        counts["added" if old is None else
               "unchanged" if list(old.items()) == list(new.items()) else "updated"] += 1
        by_id[record["id"]] = new
    return [by_id[k] for k in sorted(by_id)], ImportSummary(**counts)


def with_curated(record: dict, old: dict) -> dict:
    """`submission_id`, `note` and every key the importer does not write come from `old`."""
    merged = dict(record)
    if old.get("submission_id") is not None:
        merged["submission_id"] = old["submission_id"]
    merged.update((k, v) for k, v in old.items() if k not in record)
    return merged


class _Dumper(yaml.SafeDumper):
    """Block style for records; flow style for short lists and mappings of plain values."""

    def ignore_aliases(self, data) -> bool:
        return True


def _plain(value) -> bool:
    return not isinstance(value, (list, tuple, dict))


def _represent_list(dumper, data):
    flow = all(_plain(v) for v in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_dict(dumper, data):
    flow = all(_plain(v) for v in data.values()) and len(repr(data)) <= 60
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(dict, _represent_dict)


def write_results(path: Path, records: list[dict]) -> None:
    """Write only when the text changes, so that an unchanged import leaves the file alone."""
    text = HEADER + yaml.dump(records, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                              default_flow_style=False, width=100)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
