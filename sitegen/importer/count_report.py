"""The accelerator counts the logs contradict (counts.py), kept beside the record and told in
its import report.

`count-checks.yaml` (content/data/record/) says, per round, how many results' logs state what
ran and with which keys, and lists each disagreement: the build warns about one that no
curated correction covers (sitegen/content/record_counts.py). Written by `import-record` (for
the rounds it imports; the others' entries are kept) and by `check-counts`, which reads the
official repositories' logs against the stored record without rewriting it."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import yaml

from sitegen.content import record_lock
from sitegen.content import round_rules as rules
from sitegen.importer import swap
from sitegen.importer.counts import check
from sitegen.importer.locate import other_log_folders, result_folders
from sitegen.importer.sources import open_source, round_of
from sitegen.importer.write import scalar

FILE = "count-checks.yaml"
REPORT = "import-report.md"
HEADING = "## Accelerator counts the logs contradict"
ROUND_FIELDS = ("round", "results", "with_a_statement", "statements")
FIELDS = ("id", "round", "path", "official_accelerator_count", "ran_accelerator_count", "evidence")
HEADER = (
    "# Written by python build.py import-record and check-counts (sitegen/importer/counts.py):\n"
    "# per round, the results whose logs state what ran (and with which keys); each result\n"
    "# whose logs state another accelerator count than its system description. Do not edit:\n"
    "# a real case gets a correction in content/data/results_curated.yaml.\n"
)


def entry_row(found: dict) -> dict:
    ran = found["ran"]
    return {
        "id": found["id"],
        "round": found["round"],
        "path": found["path"],
        "official_accelerator_count": found["official"],
        "ran_accelerator_count": ran[0] if len(ran) == 1 else ", ".join(str(n) for n in ran),
        "evidence": found["evidence"],
    }


def coverage(round_id: str, stated: list[list[str]]) -> dict:
    """A round's line: results compared, how many of them state what ran, by key."""
    keys = Counter(key for keys in stated for key in keys)
    return {
        "round": round_id,
        "results": len(stated),
        "with_a_statement": sum(1 for keys in stated if keys),
        "statements": ", ".join(f"{key} {n}" for key, n in sorted(keys.items())) or "none",
    }


def items_text(rows: list[dict], fields: tuple[str, ...]) -> str:
    return "".join(
        "".join(f"{'  - ' if i == 0 else '    '}{f}: {scalar(row[f])}\n" for i, f in enumerate(fields))
        for row in rows
    )


def checks_text(rounds: list[dict], rows: list[dict]) -> str:
    """count-checks.yaml: rounds in round order, disagreements in round and id order."""
    rounds = sorted(rounds, key=lambda r: rules.round_key(r["round"]))
    rows = sorted(rows, key=lambda r: (rules.round_key(r["round"]), r["id"]))
    return (
        HEADER
        + ("rounds:\n" + items_text(rounds, ROUND_FIELDS) if rounds else "rounds: []\n")
        + ("disagreements:\n" + items_text(rows, FIELDS) if rows else "disagreements: []\n")
    )


def merged(folder: Path, new: dict[str, tuple[dict, list[dict]]]) -> tuple[list[dict], list[dict]]:
    """(rounds, disagreements): the stored ones of rounds not in `new`, and `new`'s."""
    path = folder / FILE
    stored = (yaml.safe_load(path.read_text("utf-8")) if path.is_file() else None) or {}
    rounds = [r for r in stored.get("rounds") or [] if r.get("round") not in new]
    rows = [r for r in stored.get("disagreements") or [] if r.get("round") not in new]
    return rounds + [cov for cov, _ in new.values()], rows + [r for _, found in new.values() for r in found]


def curated_counts(content: Path) -> dict[str, int]:
    """result id -> the corrected accelerator_count of content/data/results_curated.yaml."""
    path = content / "data" / "results_curated.yaml"
    rows = yaml.safe_load(path.read_text("utf-8")) if path.is_file() else None
    return {
        r["id"]: r["accelerator_count"]
        for r in rows or []
        if isinstance(r, dict) and r.get("accelerator_count") is not None
    }


def report_lines(rounds: list[dict], rows: list[dict], curated: dict[str, int]) -> list[str]:
    """The import report's section: what was compared, every disagreement, its evidence and
    its correction."""
    lines = [
        HEADING,
        "",
        "Each result's accelerator count compared with what its logs state about what ran "
        "(the rules: sitegen/importer/counts.py; docs/importing.md). Results whose logs state it, "
        "by round and key (a result can state it with several keys):",
        "",
    ]
    for cov in sorted(rounds, key=lambda r: rules.round_key(r["round"])):
        lines.append(f"- {cov['round']}: {cov['with_a_statement']} of {cov['results']} ({cov['statements']})")
    lines += ["", "Disagreements:" if rows else "Disagreements: none.", ""]
    for row in sorted(rows, key=lambda r: (rules.round_key(r["round"]), r["id"])):
        fixed = curated.get(row["id"])
        said = (
            f"corrected to {fixed} in content/data/results_curated.yaml"
            if fixed is not None
            else "no curated correction: the build warns"
        )
        lines.append(
            f"- `{row['id']}`: the description says {row['official_accelerator_count']}, the "
            f"logs {row['ran_accelerator_count']} ({row['evidence']}); {said}"
        )
    lines += [""] if rows else []
    others = sorted(set(curated) - {row["id"] for row in rows})
    if others:  # corrected on other evidence (their sources and notes say which)
        lines += [
            f"Curated corrections with no disagreement here ({len(others)}): " + ", ".join(others) + ".",
            "",
        ]
    return lines


def with_section(report: str, section: list[str]) -> str:
    """The report with its count section replaced (or put before the first round's)."""
    text = "\n".join(section)
    start = report.find(HEADING + "\n")
    if start >= 0:
        end = report.find("\n## ", start + len(HEADING))
        return report[:start] + text + "\n" + report[end + 1 if end >= 0 else len(report) :]
    first = report.find("\n## v")
    if first < 0:
        return report + "\n" + text + "\n"
    return report[: first + 1] + text + "\n" + report[first + 1 :]


def scan_source(path: Path, round_id: str, stored: list[dict]) -> tuple[dict, list[dict]]:
    """(coverage, disagreements) of a round's stored results with the logs of its source;
    results with logs missing are not compared, as the import does not."""
    source = open_source(path)
    try:
        files = source.files()
        folders = result_folders(files)
        folders.update(other_log_folders(files, folders))
        found, stated = [], []
        for record in stored:
            if record.get("status") != "scored":
                continue
            logs = folders.get(record["path"], [])
            row, keys = check(record, logs, [source.read(p) for p in logs])
            found += [entry_row(row)] if row else []
            stated += [keys] if keys is not None else []
        return coverage(round_id, stated), found
    finally:
        source.close()


def check_counts(paths: list[Path], out: Path) -> tuple[int, int]:
    """Compare the stored record of each source's round with its logs; rewrite
    count-checks.yaml and the report's count section (never the record). (rounds, cases)."""
    new, read = {}, {}
    for path in paths:
        round_id = round_of(path)
        stored = out / f"results-{round_id}.yaml"
        if not path.is_dir():
            raise ValueError(f"{path}: not a folder or repository")
        if round_id not in rules.ROUNDS or not stored.is_file():
            raise ValueError(
                f"{path}: no round of the stored record (content/data/record/results-<round>.yaml)"
            )
        read[stored] = stored.read_bytes()
        new[round_id] = scan_source(path, round_id, yaml.safe_load(read[stored]) or [])
    with record_lock.writing(out.parent.parent):
        changed = [p for p, data in read.items() if not p.is_file() or p.read_bytes() != data]
        if changed:  # an import replaced the record while the logs were read
            raise ValueError(f"{changed[0]}: changed while its logs were read; run check-counts again")
        rounds, rows = merged(out, new)
        report = (out / REPORT).read_text("utf-8") if (out / REPORT).is_file() else ""
        section = report_lines(rounds, rows, curated_counts(out.parent.parent))
        texts = {FILE: checks_text(rounds, rows), REPORT: with_section(report, section)}
        for name, text in texts.items():  # each whole or as it was: written beside, renamed
            swap.write_file(out / f".{name}.new", text.encode("utf-8"), out / name)
        for name in texts:
            os.replace(out / f".{name}.new", out / name)
    return len(new), sum(len(found) for _, found in new.values())
