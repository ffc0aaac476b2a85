"""A small record written from results in hand (the starter site of `init`, test projects,
the benchmark's synthetic sites): the importer's own files, field order and seal
(docs/record-format.md), so that such a site builds as the shipped one does."""

from __future__ import annotations

from pathlib import Path

from sitegen.importer import swap
from sitegen.importer.run import FIELDS, ROUND_FIELDS
from sitegen.importer.write import dump, item


def result(
    ident: str, round_id: str, submitter: str, folder: str, benchmark: str, value, runs, **facts
) -> dict:
    """One record result; `facts` replace the defaults (a closed, available result of 16
    accelerators on one host with five runs required; `status: logs missing` has no runs)."""
    count = facts.get("accelerator_count", 16)
    status = facts.get("status", "scored")
    record = {
        "id": ident,
        "round": round_id,
        "benchmark": benchmark,
        "benchmark_folder": benchmark,
        "division": "closed",
        "category": "available",
        "submitter": submitter,
        "system_folder": folder,
        "system_name": f"{folder.upper()} system",
        "accelerator_model": None,
        "accelerator_count": count,
        "nodes": max(1, count // 8),
        "host_cpu_model": "AMD EPYC 7742",
        "host_cpu_count": 2,
        "framework": None,
        "status": status,
        "value": value,
        "unit": "min",
        "scaling": None,
        "runs": runs if status == "scored" else None,
        "runs_failed": 0,
        "runs_required": 5,
        "path": f"{submitter}/results/{folder}/{benchmark}",
        "system_path": f"{submitter}/systems/{folder}.json",
    }
    return {**record, **facts}


def result_text(record: dict) -> str:
    """One result as the importer writes it in a round file (no header)."""
    return item(record, FIELDS)


def round_files(rounds: list[dict], results: list[dict]) -> dict[str, bytes]:
    """rounds.yaml and one results-<round>.yaml a round (results in the order given)."""
    files = {"rounds.yaml": dump(rounds, ROUND_FIELDS).encode("utf-8")}
    for entry in rounds:
        mine = [r for r in results if r["round"] == entry["id"]]
        files[f"results-{entry['id']}.yaml"] = dump(mine, FIELDS).encode("utf-8")
    return files


def write_record(folder: Path, files: dict[str, bytes]) -> None:
    """Write the record's files into `folder` (content/data/record) with their seal, as the
    importer does (swap.replace_record: the seal is computed, never written by hand)."""
    swap.replace_record(folder, files)


def write_results(folder: Path, rounds: list[dict], facts: list[dict]) -> None:
    """write_record of `rounds` and a result of each of `facts` (result's arguments)."""
    write_record(folder, round_files(rounds, [result(**entry) for entry in facts]))
