"""Import the whole MLPerf Training record into `content/data/record/` (docs/record-format.md).

Sources are MLCommons' `training_results_vX.Y` repositories as published: a bare git directory
(read with one `git cat-file --batch` per repository) or a plain folder (a clone). The round comes
from the path (`..._v1.0`). One bad folder never blocks a round: it is skipped with a reason
naming the folder and file, and every skip is listed in `import-report.md`.
Per-round rules live in content/round_rules.py, log parsing per era in logs.py; finding results in
locate.py, system descriptions in systems.py, one round's reading in round.py.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from sitegen.content import chips, record_lock
from sitegen.content import round_rules as rules
from sitegen.importer import count_report, review, swap
from sitegen.importer import write as write_mod
from sitegen.importer.round import import_round

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
    "run_samples",
    "run_tokens",
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
    "retrieved",
    "published",
    "ruleset",
    "results",
    "logs_missing",
    "skipped",
)


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
    paths: list[Path],
    out: Path,
    workers: int = 2,
    progress=None,
    accept_changes: bool = False,
    accept_removals=(),
    write=None,
    retrieved=None,
) -> dict:
    """Import every source into `out` (content/data/record); returns counts for the CLI.
    `progress(line)`: told of each round as it is read (see import_all). Raises
    review.ImportStopped, writing nothing, when a source cannot be imported or holds no
    result, when published results would change (unless `accept_changes`) and when results
    would be removed from a round not named in `accept_removals`. The sources are read first;
    the stored record is then read, compared and replaced whole holding the content's lock
    (swap.py, content/record_lock.py). `write`: swap.write_file, or a test's failing one.
    `retrieved`: the date of this import (the CLI's today), written as each round's
    `retrieved` unless the round's stored entry read the same commit (write_outputs)."""
    results = sorted(import_all(paths, workers, progress), key=round_order)
    results = drop_repeated_rounds(results)
    review.stop_on_sources(results, out)
    with record_lock.writing(out.parent.parent):  # content/ holds data/record/
        recovered = swap.recover(out)
        stored = stored_rounds(out)
        kept = review.keep_unheld(results, stored)
        note_resubmissions(results, stored)
        old = {r["round"]: stored.get(r["round"], []) for r in results}
        log = sum((write_mod.changes(old[r["round"]], r["records"], r["commit_date"]) for r in results), [])
        try:
            review.stop_on_changes(log, out, accept_changes, set(accept_removals))
        except review.ImportStopped as exc:  # what was undone is said all the same
            raise review.ImportStopped(recovered + exc.lines, exc.closing) from None
        write_outputs(out, results, log, stored, write, retrieved)
    return {
        "rounds": len(results),
        "results": sum(len(r["records"]) for r in results),
        "skipped": sum(len(r["skips"]) for r in results),
        "changes": len(log),
        "logs_missing": sum(len(r["missing"]) for r in results),
        "recovered": recovered,
        "kept": kept,
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


def round_entry(result: dict, old: dict | None = None, retrieved=None) -> dict:
    """A round's entry of rounds.yaml; `retrieved`: the date a new commit was read, while a
    commit read before keeps the date it was first read (`old`: the stored entry)."""
    info = rules.ROUNDS[result["round"]]
    if old and old.get("commit") == result["commit"] and old.get("retrieved"):
        retrieved = old["retrieved"]
    dated = {"retrieved": str(retrieved)} if retrieved else {}
    return {
        "id": result["round"],
        "repository": info.repository,
        "commit": result["commit"],
        "commit_date": result["commit_date"],
        **dated,
        "published": info.published,
        "ruleset": info.ruleset,
        "results": len(result["records"]),
        "logs_missing": sum(r.get("status") == "logs missing" for r in result["records"]),  # kept ones too
        "skipped": len(result["skips"]),
    }


def write_outputs(
    out: Path, results: list[dict], log: list[dict], stored: dict, write=None, retrieved=None
) -> None:
    """Every file of the new record, swapped in whole with its seal (swap.replace_record);
    `stored`: the record's rounds as read before (stored_rounds)."""
    entries: dict = {r.get("id"): r for r in write_mod.load_list(out / "rounds.yaml")}
    entries.update((r["round"], round_entry(r, entries.get(r["round"]), retrieved)) for r in results)
    ordered = [entries[k] for k in sorted(entries, key=rules.round_key)]
    files = {"rounds.yaml": write_mod.dump(ordered, ROUND_FIELDS)}
    files.update((f"results-{r['round']}.yaml", write_mod.dump(r["records"], FIELDS)) for r in results)
    report = out / "import-report.md"
    previous = report.read_text("utf-8") if report.is_file() else ""
    every = [r for rows in written_rounds(stored, files).values() for r in rows]  # as written
    chip_lines = chips.report_lines(out.parent.parent, every)  # content/ holds data/record/
    rounds, counted = count_report.merged(out, {r["round"]: counts_of(r) for r in results})
    files[count_report.FILE] = count_report.checks_text(rounds, counted)
    chip_lines += count_report.report_lines(rounds, counted, count_report.curated_counts(out.parent.parent))
    files["import-report.md"] = write_mod.report_text(results, previous, chip_lines)
    log = sorted(log, key=lambda e: (str(e["date"]), e["id"], e["field"]), reverse=True)
    history = write_mod.load_list(out / "changelog.yaml")
    files["changelog.yaml"] = write_mod.changelog_text(log + history)
    swap.replace_record(out, {name: text.encode("utf-8") for name, text in files.items()}, write)


def counts_of(result: dict) -> tuple[dict, list[dict]]:
    """A round's coverage and disagreements of accelerator counts (count_report.py)."""
    found = [count_report.entry_row(c) for c in result.get("counts", [])]
    return count_report.coverage(result["round"], result.get("stated", [])), found


def written_rounds(stored: dict, files: dict[str, str]) -> dict[str, list[dict]]:
    """The record's rounds as they will be: the files about to be written over those kept."""
    found = dict(stored)
    for name, text in files.items():
        round_id = name[len("results-") : -len(".yaml")]
        if name.startswith("results-") and round_id in rules.ROUNDS:
            found[round_id] = write_mod.load_text(text)
    return found
