"""Write the record files (docs/record-format.md): deterministic YAML, the import report and
the changelog. Same input, same bytes; nothing reads the clock."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path

import yaml

from sitegen.content import round_rules as rules
from sitegen.importer.systems import RESULT_FACTS

PLAIN_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9 _.,/()+-]*$")
DATE_RE = re.compile(r"^\d{4}-\d\d-\d\d$")
YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}
HEADER = (
    "# Written by the importer (python build.py import-record; sitegen/importer/)"
    "\n# from the official MLCommons records. Do not edit: see docs/record-format.md.\n"
)


def scalar(value) -> str:
    """One YAML scalar that PyYAML's safe_load reads back as the same value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return float_text(value)
    return string_text(str(value))


def float_text(value: float) -> str:
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        mantissa += "" if "." in mantissa else ".0"
        text = f"{mantissa}e{exponent if exponent[0] in '+-' else '+' + exponent}"
    return text


def string_text(value: str) -> str:
    if DATE_RE.match(value):
        return value
    if (
        PLAIN_RE.match(value)
        and value.lower() not in YAML_WORDS
        and not looks_numeric(value)
        and not value.endswith(" ")
        and ": " not in value
        and " #" not in value
    ):
        return value
    return json.dumps(value, ensure_ascii=False)


def looks_numeric(value: str) -> bool:
    try:
        float(value.replace("_", ""))
        return True
    except ValueError:
        return bool(re.match(r"^[-+]?(0x|0o|0b|\.|\d)", value))


def item(record: dict, fields: tuple[str, ...]) -> str:
    lines: list[str] = []
    for field in fields:
        if field not in record or (field == "duplicate_logs" and not record[field]):
            continue
        lines.append(f"{'- ' if not lines else '  '}{field}: {shown_value(record[field])}")
    return "\n".join(lines) + "\n"


def dump(records: list[dict], fields: tuple[str, ...]) -> str:
    return HEADER + ("".join(item(r, fields) for r in records) if records else "[]\n")


def load_list(path: Path) -> list[dict]:
    return load_text(path.read_text(encoding="utf-8")) if path.exists() else []


def load_text(text: str) -> list[dict]:
    data = yaml.safe_load(text)
    return data if isinstance(data, list) else []


# --- changelog --------------------------------------------------------------------------------

# What a correction upstream can change. `benchmark` is left out: it is derived from the
# folder by the importer's rules (content/round_rules.py), so a new rule there is not a change of a
# published result; `benchmark_folder` (what the logs or the folder say) is compared instead.
CHANGE_FIELDS = (
    "value",
    "runs",
    "runs_failed",
    "status",
    "scaling",
    "energy",
    "division",
    "category",
    *RESULT_FACTS,
    "benchmark_folder",
    "runs_required",
)


def changes(old: list[dict], new: list[dict], date) -> list[dict]:
    """What changed in one round between two imports: a field of a result kept
    (CHANGE_FIELDS), a result whose id changed (`field: id`, the same logs under a renamed
    folder: equal `logs_digest`, or the same folder), and a result removed upstream
    (`field: result`, old: its folder, new: null; its page and links are gone)."""
    before = {r.get("id"): r for r in old}
    after = {r["id"]: r for r in new}
    found = []
    for record in new:
        found += field_changes(before.get(record["id"]), record, record["id"], date)
    for prior, twin in gone(old, new, after):
        if twin is None:
            found.append(
                {"date": date, "id": prior["id"], "field": "result", "old": prior.get("path"), "new": None}
            )
            continue
        found.append({"date": date, "id": prior["id"], "field": "id", "old": prior["id"], "new": twin["id"]})
        found += field_changes(prior, twin, twin["id"], date)
    return found


def field_changes(prior: dict | None, record: dict, ident: str, date) -> list[dict]:
    if prior is None:
        return []
    return [
        {"date": date, "id": ident, "field": field, "old": prior.get(field), "new": record.get(field)}
        for field in (CHANGE_FIELDS if prior else ())
        if prior.get(field) != record.get(field)
    ]


def gone(old: list[dict], new: list[dict], after: dict) -> list[tuple[dict, dict | None]]:
    """Each result of `old` whose id `new` lacks, with the new result it became (same logs,
    else same folder, among the new ids), or None when it was removed."""
    ids = {r.get("id") for r in old}
    fresh = [r for r in new if r["id"] not in ids]
    pairs = []
    for prior in (r for r in old if r.get("id") not in after):
        twin = next(
            (r for r in fresh if prior.get("logs_digest") and r.get("logs_digest") == prior["logs_digest"]),
            None,
        ) or next((r for r in fresh if r["path"] == prior.get("path")), None)
        if twin is not None:
            fresh.remove(twin)
        pairs.append((prior, twin))
    return pairs


def shown_value(value) -> str:
    """A list as `[a, b]`, a mapping (energy) as `{value: ..., unit: J}`, else one scalar."""
    if isinstance(value, list):
        return "[" + ", ".join(scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {scalar(v)}" for k, v in value.items()) + "}"
    return scalar(value)


def change_text(entry: dict) -> str:
    lines: list[str] = []
    for key in ("date", "id", "field", "old", "new"):
        lines.append(f"{'- ' if not lines else '  '}{key}: {shown_value(entry[key])}")
    return "\n".join(lines) + "\n"


def changelog_text(entries: list[dict]) -> str:
    return HEADER + ("".join(change_text(e) for e in entries) if entries else "[]\n")


# --- the import report ------------------------------------------------------------------------


def bullet_list(title: str, items: list[str]) -> list[str]:
    if not items:
        return [f"{title}: none.", ""]
    return [f"{title} ({len(items)}):", ""] + [f"- `{i}`" if "`" not in i else f"- {i}" for i in items] + [""]


def round_section(result: dict) -> list[str]:
    if "error" in result:
        return [f"## {result['round'] or result['path']}", "", f"Not imported: {result['error']}", ""]
    info = rules.ROUNDS[result["round"]]
    dupes = [
        f"{r['path']}: {', '.join(r['duplicate_logs'])}" for r in result["records"] if r.get("duplicate_logs")
    ]
    lines = [
        f"## {result['round']}",
        "",
        f"Source `{result['path']}`: {info.repository} at "
        f"commit {result['commit'] or 'unknown'} ({result['commit_date'] or 'no date'}), "
        f"ruleset {info.ruleset}.",
        "",
        f"Results written: {len(result['records'])} "
        f"({sum(r['status'] == 'scored' for r in result['records'])} scored, "
        f"{len(result['missing'])} with logs missing); folders skipped: "
        f"{len(result['skips'])}.",
        "",
    ]
    lines += bullet_list("Skipped folders", result["skips"])
    lines += bullet_list("Results with logs missing in the snapshot (not scored)", result["missing"])
    lines += bullet_list("Folders with byte-identical logs (scored as published)", dupes)
    lines += bullet_list(
        "Notes (failed runs, system files found elsewhere, log/system disagreements)", result["notes"]
    )
    return lines + rule_notes(result)


def rule_notes(result: dict) -> list[str]:
    short = [
        f"{r['path']}: {len(r['runs'])} logs, the rules name {r['runs_required']}"
        for r in result["records"]
        if r["status"] == "scored" and r["runs_required"] and len(r["runs"]) < r["runs_required"]
    ]
    return bullet_list(
        "Scored from fewer logs than the round's rules name (as the summarizer, "
        "which scores the logs it finds)",
        short,
    )


DIFFERENCES = """\
## How this import differs from mlperf_logging's result summarizer

- Runs are not put through today's compliance checker (whose rules reject many logs their own
  round accepted); a run fails when run_start or run_stop is missing or its line is corrupt,
  or run_stop's status is not `success`. Only the lines of the keys the score needs are parsed
  (run_start, run_stop, submission_*; eval_result for v0.6 minigo): a corrupt line elsewhere in
  a log does not fail the run here, while the summarizer would drop it.
- Failed runs count as the slowest; at most one may fail (four for unet3d); the score is the
  olympic average (`_compute_olympic_average`), for 3 runs (llama31_405b) the median.
  `scaling.json` multiplies the score, as in the summarizer.
- v0.5 and v0.6 are read with their own formats and rules (training_rules.adoc of the round:
  drop the fastest and slowest run, average the rest; NCF in v0.5: the first 50 converged of
  100 runs); mlperf_logging cannot read these logs. A bare `run_stop` counts as success; v0.6
  minigo's time is eval_result's `timestamp`; Alibaba's private v0.6 format has no status, so
  a run with run_start and run_stop counts as converged.
- Alibaba's v0.7 V100 logs write `time_s` (seconds) where `:::MLLOG` has `time_ms`, which
  mlperf_logging's parser rejects: they are read as seconds. Their folders hold the logs with
  no benchmark folder (the benchmark is the logs' `submission_benchmark`) and name no system
  description: the submitter's one description that fits the folder name's accelerator model
  and count (and the logs' `submission_platform`) is used, named under Notes. A benchmark
  folder without result_*.txt takes its `*.log` files as the logs (noted).
- Where a round's quality target or data differ from the later rounds', its results get their
  own benchmark id and are not ranked with the others: `resnet_v05` (74.9% top-1), `ssd_v05`
  (21.2% mAP), `gnmt_v05` (21.8 BLEU), `minigo_v05` and `minigo_v06` (9x9 board), `bert_v07`
  (0.712 masked-LM accuracy).
- A result whose logs are byte-identical to a result of an earlier round (the rules' results
  resubmission) has `resubmission_of`, the earliest such result, found by `logs_digest`; an
  import of one round compares with the stored digests of the others.
- The division is the system description's, as in the summarizer; a log that says otherwise is
  listed under Notes. A result whose logs the snapshot lacks (absent blob or Git LFS pointer) is
  written with `status: logs missing` and no score, never scored from fewer runs.
- Energy: where a result folder has power logs (`power/result_*/node_*.txt`, `sw_*.txt`), its
  `energy` (joules) is what mlperf_logging's summarizer computes (`_compute_power_node`,
  `_compute_power_sw`, `_index_olympic_average` over the runs the time score keeps, scaling
  applied); a folder whose power logs the summarizer's code cannot score keeps its time, has
  no energy, and is listed under Notes with the error. Power logs are added in file-name order
  (the summarizer's glob order is the file system's).
"""


ROUND_HEADING = re.compile(r"^## (v[0-9][0-9a-z.]*)$", re.MULTILINE)


def report_text(results: list[dict], previous: str = "", chip_lines: Sequence[str] = ()) -> str:
    """The import report: this import's rounds, and the sections of rounds imported before and
    not again this time (from `previous`, the report as it was), in round order. `chip_lines`
    (chips.report_lines, over the whole record) go before the rounds, so that the sections
    kept from `previous` never take them in."""
    sections = kept_sections(previous)
    for result in results:
        key = result["round"] if result.get("round") in rules.ROUNDS else result["path"]
        sections[key] = "\n".join(round_section(result)).rstrip("\n") + "\n"
    lines = [
        "# MLPerf Training record: import report",
        "",
        "Written by `python build.py import-record`. Every skipped folder, every result "
        "with logs missing and every difference from mlperf_logging's summarizer is listed.",
        "",
        DIFFERENCES.strip(),
        "",
        *chip_lines,
    ]
    ordered = sorted(sections, key=lambda k: (0, rules.round_key(k)) if k in rules.ROUNDS else (1, (0, 0)))
    return "\n".join(lines) + "\n" + "\n".join(sections[k] for k in ordered)


def kept_sections(previous: str) -> dict[str, str]:
    """round -> its section in an earlier report (only rounds the round table knows)."""
    marks = list(ROUND_HEADING.finditer(previous))
    ends = [m.start() for m in marks[1:]] + [len(previous)]
    return {
        m.group(1): previous[m.start() : end].rstrip("\n") + "\n"
        for m, end in zip(marks, ends)
        if m.group(1) in rules.ROUNDS
    }
