"""A number that contradicts its source cannot be published: every stored score that has its
runs is recomputed from them by the round's rules (record_rules.score, the importer's own
code, times the result's `scaling` factor) and must agree to the precision the site shows."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from sitegen.base import fmt
from sitegen.base.errors import Problems
from sitegen.base.languages import ENGLISH, KNOWN
from sitegen.content import round_rules as record_rules
from sitegen.content.parsecache import ParseCache
from sitegen.content.readers import LINE


def recomputed(record: dict) -> tuple[float | None, str]:
    """(score by the round's rules, reason when None) from the record's runs."""
    value, why = record_rules.score(record["round"], record["benchmark"], list(record.get("runs") or []))
    if value is None:
        return None, why
    return value * (record.get("scaling") or 1.0), ""


def check_scores(records: dict, problems: Problems) -> None:
    """Each record with a value and runs: the value the runs give, shown the same way."""
    for record in records.values():
        if record.get("value") is None or not record.get("runs"):
            continue
        expected, why = recomputed(record)
        stored = record["value"]
        line = (record.get("_lines") or {}).get("value", record.get(LINE))
        where = f"record '{record['id']}': value {stored:g}"
        if expected is None:
            problems.add(
                record["_file"],
                line,
                f"{where} but its runs give no score by the rules of {record['round']}: {why}",
            )
        elif fmt.significant(expected) != fmt.significant(stored):
            problems.add(
                record["_file"],
                line,
                f"{where} disagrees with its runs: by the rules "
                f"of {record['round']} they give {fmt.time_number(expected, KNOWN[ENGLISH])}",
            )


def check_scores_kept(files: list[Path], records: dict, problems: Problems, broken: bool) -> None:
    """check_scores, a round file at a time: that a file's scores agree is kept in the store
    (parsecache.py) for the same bytes of that file, code, and whether the record was `broken`
    (its short results then keep their scores), so a result edit recomputes only its own
    file's (recomputing every score is a large part of a load). `files`: the record's files;
    a score that disagrees is recomputed every time."""
    if problems.store is None:
        check_scores(records, problems)
        return
    paths = {problems.rel(path): path for path in files}
    kept = ParseCache(list(paths.values()))
    by_file: dict = {}  # in the record's order: the problems are said as check_scores says them
    for ident, record in records.items():
        by_file.setdefault(record.get("_file"), {})[ident] = record
    for rel, held in by_file.items():
        path = paths.get(rel)
        if path is None:
            check_scores(held, problems)
            continue
        check = partial(check_scores, held, problems)
        kept.parse("record-scores", path, problems, check, None, "broken" if broken else "")


# Results short of their logs: listed, never scored (derive/carryover.py names the other
# results that are not new results).
TOO_FEW_LOGS = "too few logs"  # the status a short result is given when the record loads


def short_of(record: dict) -> tuple[int, int] | None:
    """(logs found, logs required) for a result with fewer logs than its rules require."""
    runs, required = record.get("runs"), record.get("runs_required")
    if runs is None or not required or len(runs) >= required:
        return None
    return len(runs), required


def unscore_short(records) -> list[str]:
    """Give every short result the status TOO_FEW_LOGS and no value (the record keeps the
    importer's figure in its file; the site never scores it). Returns their ids, sorted.
    Called once when the record loads; calling it again changes nothing."""
    found = []
    for record in records:
        if record.get("status") != "logs missing" and short_of(record):
            record["status"], record["value"] = TOO_FEW_LOGS, None
            if record.get("energy"):  # an energy score is made over the same runs
                record["energy"] = None
            found.append(record["id"])
    return sorted(found)
