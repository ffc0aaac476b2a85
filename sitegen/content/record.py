"""The whole MLPerf Training record (content/data/record/, written by the importer to the
contract in docs/record-format.md): read fast, checked cheaply, and the curated `results`
table derived from it.

Every content project has one. `results` holds every record result whose system folder
`data/mlperf_systems.yaml` maps to a site system, at full precision, plus the curated fields
of `data/results_curated.yaml`."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import yaml

from sitegen.base.errors import Problems
from sitegen.base.languages import Languages
from sitegen.content import field_types, schema
from sitegen.content.parsecache import ParseCache, cached
from sitegen.content.readers import LINE, key_line, parse_yaml, read_text
from sitegen.content.record_lines import fast_records

RECORD_DIR = ("data", "record")
RESULTS_FILE = re.compile(r"^results-(?P<round>v[0-9][0-9a-z.]*)\.yaml$")
FIELD = re.compile(r"field '(\w+)'")  # the field a schema message names


def field_line(record: dict, field: str) -> int | None:
    """The line of a field of a loaded record (`_lines`, from either reader), else the
    record's first line."""
    return (record.get("_lines") or {}).get(field, record.get(LINE))


def _message_line(row, message: str, default: int | None) -> int | None:
    """The line of the field a schema message names, when the reader knows it."""
    found = FIELD.search(message)
    return key_line(row, found.group(1), default) if found else default


def record_folder(content: Path) -> Path:
    return content.joinpath(*RECORD_DIR)


def has_record(content: Path) -> bool:
    return (record_folder(content) / "rounds.yaml").is_file()


def load_record(content: Path, problems: Problems) -> tuple[dict, dict]:
    """(rounds by id, oldest first; record results by id). Each file's parse is kept in the
    cache (parsecache.py): an unchanged file is not parsed again."""
    folder = record_folder(content)
    files = sorted(folder.glob("results-*.yaml"))
    parsed = ParseCache([folder / "rounds.yaml", *files])
    rounds = parsed.parse(
        "record-rounds",
        folder / "rounds.yaml",
        problems,
        lambda: _parse_list(folder / "rounds.yaml", schema.ROUND, problems),
    )
    results: dict[str, dict] = {}
    for path in files:
        match = RESULTS_FILE.match(path.name)
        if not match or match.group("round") not in rounds:
            problems.add(
                path, None, "a record file is named results-<round>.yaml after a round of rounds.yaml"
            )
            continue
        found = parsed.parse(
            "record-results",
            path,
            problems,
            functools.partial(_load_results_file, path, match.group("round"), problems),
        )
        for ident, record in found.items():
            if ident in results:
                problems.add(
                    path, record[LINE], f"duplicate id '{ident}' (first in {results[ident]['_file']})"
                )
            results[ident] = record
    for record in results.values():
        earlier = record.get("resubmission_of")
        if earlier is not None and earlier not in results:
            problems.add(
                record["_file"],
                field_line(record, "resubmission_of"),
                f"record '{record['id']}': resubmission_of '{earlier}' is no result of the record",
            )
    return rounds, results


def _load_results_file(path: Path, round_id: str, problems: Problems) -> dict[str, dict]:
    found = _parse_list(path, schema.RECORD, problems)
    for record in found.values():
        _check_record(path, record, round_id, problems)
    return found


GONE_FIELDS = ("result", "id")  # changelog fields of a result whose id no longer exists


def load_changelog(content: Path, problems: Problems, results: dict) -> list[dict]:
    """changelog.yaml: changes between imports of published results, newest first, each
    {date, id, field, old, new}; an id the record does not hold is reported, except where the
    change says the id is gone (`field: result`, removed upstream; `field: id`, renamed)."""
    path = record_folder(content) / "changelog.yaml"
    if not path.is_file():
        return []
    rows = _yaml_list(path, problems)
    if not isinstance(rows, list):
        problems.add(path, 1, "changelog.yaml must be a YAML list of changes ('- date: ...')")
        return []
    found = []
    for row in rows:
        line = row.get(LINE) if isinstance(row, dict) else None
        if not isinstance(row, dict) or not {"date", "id", "field"} <= set(row):
            problems.add(path, line, "a change needs date, id, field, old and new")
        elif row["id"] not in results and row["field"] not in GONE_FIELDS:
            problems.add(path, line, f"change of '{row['id']}': no such result in the record")
        else:
            found.append({k: _change_value(row.get(k)) for k in ("date", "id", "field", "old", "new")})
    return found


def _yaml_list(path: Path, problems: Problems):
    """A curated YAML file's parse (an empty file is an empty list), kept in the parse cache."""
    return cached(
        "yaml-list", path, problems, lambda: parse_yaml(read_text(path, problems) or "[]", path, problems)
    )


def _change_value(value):
    """A mapping (energy: {value, unit}) shown as its value and unit, as the data has it."""
    if isinstance(value, dict):
        return " ".join(str(value[k]) for k in ("value", "unit") if k in value)
    return value


def _parse_list(path: Path, fields: dict, problems: Problems) -> dict[str, dict]:
    text = read_text(path, problems) if path.is_file() else None
    if text is None:
        if not path.is_file():
            problems.add(path, None, "missing record file")
        return {}
    rows = fast_records(text)
    if rows is None:  # not the importer's one-field-per-line layout
        rows = parse_yaml(text, path, problems)
    if not isinstance(rows, list):
        if rows is not None:
            problems.add(path, 1, "a record file must be a YAML list of records ('- id: ...')")
        return {}
    found: dict[str, dict] = {}
    rel = problems.rel(path)
    for row in rows:
        record, errors = (
            field_types.parse_record(row, fields)
            if isinstance(row, dict)
            else ({}, [f"expected a record, got {row!r}"])
        )
        line = row.get(LINE) if isinstance(row, dict) else None
        for message in errors:
            label = (
                f"record '{row['id']}': " if isinstance(row, dict) and isinstance(row.get("id"), str) else ""
            )
            problems.add(path, _message_line(row, message, line), label + message)
        if not errors and record["id"] in found:
            first = found[record["id"]][LINE]
            problems.add(
                path,
                line,
                f"duplicate id '{record['id']}' (first on line {first}): a second copy of a result; delete one of the two",
            )
        elif not errors:
            record[LINE], record["_file"] = line, rel
            record["_lines"] = getattr(row, "lines", None) or {}
            found[record["id"]] = record
    return found


def _check_record(path: Path, record: dict, round_id: str, problems: Problems) -> None:
    """What the field parsers cannot see: the round of the file, a score for a scored result."""
    where = f"record '{record['id']}': "
    if record["round"] != round_id:
        problems.add(
            path, field_line(record, "round"), where + f"round '{record['round']}' in the file of {round_id}"
        )
    if record["status"] == "scored" and record["value"] is None:
        problems.add(
            path,
            field_line(record, "value" if "value" in (record.get("_lines") or {}) else "status"),
            where + "a scored result needs a value",
        )
    if record["status"] == "logs missing" and record["value"] is not None:
        problems.add(path, field_line(record, "value"), where + "a result with logs missing has no value")
    record["framework"] = record["framework"] or ""
    for field in ("run_samples", "run_tokens"):
        _check_counts(path, record, field, problems)


def _check_counts(path: Path, record: dict, field: str, problems: Problems) -> None:
    """A processed count per run (importer/processed.py): one per run, none for a failed run."""
    counts, runs = record.get(field), record.get("runs")
    if counts is None:
        return
    where = f"record '{record['id']}': {field} "
    if runs is None or len(counts) != len(runs):
        problems.add(
            path,
            field_line(record, field),
            where
            + f"lists {len(counts)} counts for {len(runs or [])} runs: one per run, in the order of runs",
        )
        return
    failed = [n for n, (c, r) in enumerate(zip(counts, runs), start=1) if c is not None and r is None]
    if failed:
        problems.add(path, field_line(record, field), where + f"counts run {failed[0]}, which has no time")


def check_benchmarks(content: Path, results: dict, benchmarks: dict, problems: Problems) -> None:
    """Every benchmark of the record needs its page's facts in data/benchmarks.yaml (reported
    once per benchmark, at its first result; not when its entry there is broken)."""
    seen: set[str] = set()
    for record in results.values():
        if record["benchmark"] in benchmarks or ("benchmarks", record["benchmark"]) in problems.broken:
            continue  # (a benchmark whose own entry is broken has said so)
        if record["benchmark"] not in seen:
            seen.add(record["benchmark"])
            problems.add(
                record["_file"],
                field_line(record, "benchmark"),
                f"record '{record['id']}': benchmark "
                f"'{record['benchmark']}' is not in content/data/benchmarks.yaml",
            )


# --- the curated results table, derived from the record ------------------------------------------


def read_system_map(path: Path, problems: Problems) -> list[tuple[str, str, int]]:
    """mlperf_systems.yaml as (<round>/<submitter>/<system folder>, site system, line); its
    parse kept in the store (parsecache.py), as every data file's is."""
    return cached("system-map", path, problems, lambda: _system_map(path, problems))


def _system_map(path: Path, problems: Problems) -> list[tuple[str, str, int]]:
    text = read_text(path, problems) if path.is_file() else ""
    entries = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            item = yaml.load(line, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError:
            item = None
        if not isinstance(item, dict) or len(item) != 1:
            problems.add(path, number, "expected '<round>/<submitter>/<system folder>: <system id>'")
            continue
        ((key, system),) = item.items()
        entries.append((str(key), str(system), number))
    return entries


def folder_key(record: dict) -> str:
    """<round>/<submitter folder>/<system folder>: the submitter as its folder is named."""
    return f"{record['round']}/{record['path'].split('/')[0]}/{record['system_folder']}"


def _by_folder(record: dict) -> dict[str, list[dict]]:
    """The record's results by folder_key."""
    found: dict[str, list[dict]] = {}
    for result in record.values():
        found.setdefault(folder_key(result), []).append(result)
    return found


def system_map_path(content: Path) -> Path:
    return content / "data" / "mlperf_systems.yaml"


def derive_results(
    content: Path, record: dict, problems: Problems, curated: dict, system_map: list
) -> dict[str, dict]:
    """The `results` table: every record result of a mapped system folder that has a score.
    `curated`: read_curated's entries; `system_map`: read_system_map's."""
    map_path = system_map_path(content)
    by_folder = _by_folder(record)
    table: dict[str, dict] = {}
    for key, system, line in system_map:
        if key not in by_folder:
            problems.add(map_path, line, f"system folder '{key}' is not in the record (content/data/record/)")
            continue
        for result in by_folder[key]:
            if result["status"] == "scored":
                table[result["id"]] = site_result(result, system, curated.get(result["id"]))
    for ident, entry in sorted(curated.items()):
        _check_curated(entry, record.get(ident), problems)
    return dict(sorted(table.items()))


def check_system_map(
    content: Path, record: dict, systems: dict, problems: Problems, system_map: list
) -> None:
    """Each site system of the map is in systems.yaml, and agrees with the official system
    descriptions of the folders mapped to it: the same number of accelerators (none, for a
    folder of processors alone, is not the same)."""
    by_folder = _by_folder(record)
    said = set()
    map_path = system_map_path(content)
    shown = f"{content.name}/data/mlperf_systems.yaml"
    for key, system, line in system_map:
        entry = systems.get(system)
        if entry is None and systems and ("systems", system) not in problems.broken:
            problems.add(map_path, line, f"unknown system '{system}'" + field_types.suggest(system, systems))
        if entry is None or entry.get("accelerator_count") is None or system in said:
            continue
        for result in by_folder.get(key, []):
            if result["accelerator_count"] != entry["accelerator_count"]:
                said.add(system)
                count = result["accelerator_count"]
                problems.add(
                    entry["_file"],
                    field_line(entry, "accelerator_count"),
                    f"system '{system}': accelerator_count {entry['accelerator_count']} "
                    f"disagrees with the official system description of {key} "
                    f"({f'{count} accelerators' if count else 'processors alone, no accelerators'}, "
                    f"{result['_file']}:{field_line(result, 'accelerator_count')}; "
                    f"mapped in {shown}:{line})",
                )
                break


def site_result(record: dict, system: str, curated: dict | None) -> dict:
    """A record result on a curated system, in the record's one shape: the result itself, with
    the curated system it ran on, its source (its round's official repository) and what
    results_curated.yaml adds (its references: schema.RESULT_REFS)."""
    curated = curated or {}
    return {
        **record,
        "system": system,
        "source": f"mlperf-training-{record['round']}",
        "submission_id": curated.get("submission_id"),
        "note": curated.get("note"),
    }


def read_curated(content: Path, problems: Problems, langs: Languages) -> dict[str, dict]:
    path = content / "data" / "results_curated.yaml"
    if not path.is_file():
        return {}
    rows = _yaml_list(path, problems) or []
    if not isinstance(rows, list):
        problems.add(path, 1, "results_curated.yaml must be a YAML list of records ('- id: ...')")
        return {}
    found = {}
    for row in rows:
        record, errors = (
            field_types.parse_record(row, schema.CURATED, langs)
            if isinstance(row, dict)
            else ({}, ["expected a record"])
        )
        for message in errors:
            problems.add(
                path, _message_line(row, message, row.get(LINE)) if isinstance(row, dict) else None, message
            )
        if not errors:
            found[record["id"]] = {
                **record,
                LINE: row.get(LINE),
                "_path": path,
                "_lines": getattr(row, "lines", None) or {},
            }
    return found


def _check_curated(entry: dict, record: dict | None, problems: Problems) -> None:
    """A curated entry names a record result and agrees with its accelerator model (a count
    is a correction with a source: record_counts.py)."""
    path, line, ident = entry["_path"], entry[LINE], entry["id"]
    if record is None:
        problems.add(path, line, f"record '{ident}': no such result in the record")
        return
    for field in ("accelerator_model",):
        if entry.get(field) is not None and entry[field] != record[field]:
            problems.add(
                path,
                field_line(entry, field),
                f"record '{ident}': {field} "
                f"{entry[field]!r} disagrees with the record ({record[field]!r}, "
                f"{record['_file']}:{field_line(record, field)})",
            )
