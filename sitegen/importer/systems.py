"""System descriptions read, and the facts a result takes from one.

The JSON of each system (or its lenient and keyed-line variants); the facts are its
accelerators, nodes, host and software."""

from __future__ import annotations

import ast
import json
import re

# What a result takes from its system description as it is (division and status are read by
# the round's rules first).
RESULT_FACTS = (
    "submitter",
    "system_name",
    "accelerator_model",
    "accelerator_count",
    "nodes",
    "host_cpu_model",
    "host_cpu_count",
    "framework",
)


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
