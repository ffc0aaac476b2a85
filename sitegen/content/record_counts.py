"""Accelerator counts: what the official system description says, unless a curated correction
(content/data/results_curated.yaml) says it is wrong, with its source and a note.

An entry's `accelerator_count` is the corrected count; `official_accelerator_count` repeats
the figure it corrects, so that a new import that changes it stops the build instead of being
overridden unseen. Applied where the record is loaded, so every page, chart and download uses
the corrected count; each result keeps the official figure (`accelerator_count_official`) and,
when corrected, `count_correction` ({source, note}) for the pages that show both."""

from __future__ import annotations

from pathlib import Path

from sitegen.base.errors import Problems
from sitegen.content.parsecache import cached
from sitegen.content.readers import LINE, read_yaml
from sitegen.content.record import record_folder

CHECKS = "count-checks.yaml"  # written by the importer (sitegen/importer/count_report.py)


def apply(record: dict, curated: dict, sources: dict, problems: Problems) -> dict:
    """The record with the corrections applied (new dicts: the loaded results are kept as
    read). Every result gets `accelerator_count_official` and `count_correction` (or None)."""
    corrections = {
        ident: entry
        for ident, entry in curated.items()
        if entry.get("accelerator_count") is not None and _valid(entry, record.get(ident), sources, problems)
    }
    out = {}
    for ident, result in record.items():
        entry = corrections.get(ident)
        out[ident] = {
            **result,
            "accelerator_count_official": result["accelerator_count"],
            "count_correction": None,
        }
        if entry is not None:
            out[ident]["accelerator_count"] = entry["accelerator_count"]
            out[ident]["count_correction"] = {"source": entry["source"], "note": entry["note"]}
    return out


def _valid(entry: dict, result: dict | None, sources: dict, problems: Problems) -> bool:
    """A correction names a result, says what it corrects (as the record has it), why (a note)
    and on whose word (a source of sources.yaml); it differs from the record."""
    path, ident = entry["_path"], entry["id"]

    def line(field: str) -> int | None:
        return (entry.get("_lines") or {}).get(field, entry.get(LINE))

    if result is None:
        return False  # said by the curated table's own check (record.py)
    missing = [f for f in ("official_accelerator_count", "source", "note") if entry.get(f) is None]
    if missing:
        problems.add(
            path,
            line("accelerator_count"),
            f"record '{ident}': a corrected "
            f"accelerator_count needs {', '.join(missing)} (what the record says, on "
            "whose word, and why)",
        )
        return False
    official = result["accelerator_count"]
    where = f"{result['_file']}:{(result.get('_lines') or {}).get('accelerator_count', result.get(LINE))}"
    if entry["official_accelerator_count"] != official:
        problems.add(
            path,
            line("official_accelerator_count"),
            f"record '{ident}': "
            f"official_accelerator_count {entry['official_accelerator_count']} is not the "
            f"record's ({official}, {where}); review the correction against the record",
        )
        return False
    if entry["accelerator_count"] == official:
        problems.add(
            path,
            line("accelerator_count"),
            f"record '{ident}': accelerator_count "
            f"{official} is what the record says ({where}): not a correction; remove it",
        )
        return False
    if entry["source"] not in sources:
        problems.add(
            path,
            line("source"),
            f"record '{ident}': source '{entry['source']}' is not in content/data/sources.yaml",
        )
        return False
    return True


def sources_used(record) -> set[str]:
    """The sources the record's count corrections cite (a source cited only there is used)."""
    cited = {(r.get("count_correction") or {}).get("source") for r in record.values()}
    return {source for source in cited if source is not None}


def warn_uncorrected(content: Path, record: dict, problems: Problems) -> None:
    """A warning for each result whose logs state another accelerator count than its system
    description (the importer's data/record/count-checks.yaml) and that no curated
    correction covers: the site would show a count its own logs contradict, unmarked."""
    path = record_folder(content) / CHECKS
    data = cached("yaml", path, problems, lambda: read_yaml(path, problems)) if path.is_file() else None
    rows = data.get("disagreements") if isinstance(data, dict) else None
    for row in rows if isinstance(rows, list) else []:
        result = record.get(row.get("id")) if isinstance(row, dict) else None
        if result is None or result.get("count_correction") is not None:
            continue  # a result no longer in the record: the next import drops its row
        problems.warn(
            path,
            row.get(LINE),
            f"record '{row['id']}': its logs say {row.get('ran_accelerator_count')} "
            f"accelerators ran ({row.get('evidence')}), its system description "
            f"{row.get('official_accelerator_count')}; add a correction with its source to "
            "content/data/results_curated.yaml",
        )
