"""What a result's logs say about the accelerators that ran, compared with its system
description's count (the record's `accelerator_count`).

A description can describe a pod or a cluster while the run used part of it; where the logs
state what ran, a disagreement is listed in the import report and in
content/data/record/count-checks.yaml, and the build warns until a curated correction
(content/data/results_curated.yaml) covers it (sitegen/content/record_counts.py).

What counts as a statement of what ran (each rule says why; anything else is not evidence):
- `:::MLLOG` events `number_of_nodes` and `accelerators_per_node` (mlperf_logging's constants):
  the run's own account; their product is the accelerators that ran.
- `submission_platform` naming a Cloud TPU slice (`tpu-v3-1024`): the slice the run used.
  Slices of TPU v2, v3, v4 and v5p are named by TensorCores, two a chip; v5e (`v5l`) and
  v6e (Trillium) slices by chips, one TensorCore each (Google Cloud's TPU documentation).
- `submission_platform` that starts with a number and `x` (`8xNVIDIA DGX A100`, `2xA5000`):
  submitters write nodes or accelerators there, so it agrees when it is either; otherwise it
  is read as nodes of the description's kind (N x its accelerators per node).
- `:::DLPAL <image> <job> <nodes> <node list>` (the line NVIDIA's Slurm launcher writes for
  the job): the nodes the job held, read as nodes of the description's kind.
- `WORLD_SIZE N` (the process count torch.distributed prints for every rank): one process per
  accelerator in the launchers that print it, so a count below the description's is what ran;
  a count equal to the nodes is a per-node launcher, and a count above the description's
  holds CPU processes (data loaders, workers): neither says fewer accelerators ran.
Not evidence: `:::SYSJSON` lines (NVIDIA's launcher writes them from the variables and the
node where the launcher ran: v5.0 HPE's two-node runs say one node beside sixteen ranks,
Oracle's say `No devices were found`), `srun --ntasks` (cache clearing and CPU workers use it),
the `num_gpus`/`num_nodes` line of the binding script (NUMA nodes, not machines), the
`DGXNNODES=`/`DGXNGPU=` a log traces and the `config_*.sh` shipped beside the results (a
launcher sources them and then overrides them: Dell's v2.0 `32xXE8545x4A100-SXM-40GB` logs
trace DGXNNODES=16 beside `WORLD_SIZE=128` on the 32 nodes their DLPAL line names, and its
`4xXE8545x4A100-SXM-80GB` Mask R-CNN config says 2 nodes where its logs ran 16 ranks on 4).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from sitegen.importer.locate import log_platform
from sitegen.importer.logs import line_around, mllog_event

RUN_KEYS_RE = re.compile(rb'"key":\s*"(number_of_nodes|accelerators_per_node)"')
WORLD_RE = re.compile(rb"\bWORLD_SIZE[ =:]+(\d+)")
DLPAL_RE = re.compile(rb"^:::DLPAL \S+ \S+ (\d+) ", re.MULTILINE)
MLL_PLATFORM_RE = re.compile(rb':::MLL [0-9.]+ submission_platform:? *\{"value": *"([^"\n]*)"')
TPU_RE = re.compile(r"^tpu-?v(\d+)([a-z]?)-(\d+)$", re.IGNORECASE)
TIMES_RE = re.compile(r"^(\d+)\s*[xX]\s*[A-Za-z]")
CORES_PER_CHIP = {"2": 2, "3": 2, "4": 2, "5p": 2, "5e": 1, "5l": 1, "6e": 1}


class Claim(NamedTuple):
    """One statement of a log about what ran. `kind`: `accelerators` (n is the count),
    `nodes` (n nodes), `nodes or accelerators` (an `N x` platform), `ranks` (processes)."""

    file: str
    key: str
    value: str
    kind: str
    n: int


def log_claims(path: str, data: bytes) -> list[Claim]:
    """What one log states about what ran (the rules: this module's docstring)."""
    claims = []
    found: dict[str, str] = {}
    for match in RUN_KEYS_RE.finditer(data):
        event = mllog_event(line_around(data, match.start(), match.end()))
        if event is not None:
            found.setdefault(match.group(1).decode(), str(event.get("value")))
    nodes, per_node = found.get("number_of_nodes", ""), found.get("accelerators_per_node", "")
    if nodes.isdigit() and per_node.isdigit():
        key = "number_of_nodes x accelerators_per_node"
        claims.append(Claim(path, key, f"{nodes} x {per_node}", "accelerators", int(nodes) * int(per_node)))
    claims += platform_claims(path, data)
    jobs = sorted({int(m.group(1)) for m in DLPAL_RE.finditer(data)})
    claims += [Claim(path, ":::DLPAL nodes", str(n), "nodes", n) for n in jobs]
    sizes = [int(m.group(1)) for m in WORLD_RE.finditer(data)]
    if sizes:
        claims.append(Claim(path, "WORLD_SIZE", str(max(sizes)), "ranks", max(sizes)))
    return claims


def platform_claims(path: str, data: bytes) -> list[Claim]:
    """The claim of the log's `submission_platform`, if it names a TPU slice or N x something."""
    platform = log_platform(data)
    if platform is None:
        match = MLL_PLATFORM_RE.search(data)
        platform = match.group(1).decode("latin-1").strip() if match else None
    tpu = TPU_RE.match(platform or "")
    version = (tpu.group(1) + tpu.group(2).lower()) if tpu else ""
    if tpu and version in CORES_PER_CHIP:
        chips = int(tpu.group(3)) // CORES_PER_CHIP[version]
        return [Claim(path, "submission_platform", platform or "", "accelerators", chips)]
    times = TIMES_RE.match(platform or "")
    if times:
        return [
            Claim(path, "submission_platform", platform or "", "nodes or accelerators", int(times.group(1)))
        ]
    return []


def contradicts(claim: Claim, count: int, nodes: int | None) -> bool:
    """Whether one claim says other accelerators ran than the description's `count`."""
    if claim.kind == "ranks":  # a per-node launcher, or CPU processes: not fewer
        return claim.n < count and claim.n != nodes
    if claim.kind == "nodes":
        return claim.n != nodes
    if claim.kind == "nodes or accelerators":
        return claim.n not in (count, nodes)
    return claim.n != count


def check(
    record: dict, logs: list[str], datas: Sequence[bytes | None]
) -> tuple[dict | None, list[str] | None]:
    """(the record's disagreement with what its logs state, or None; the keys its logs state
    what ran with, for the report's coverage, None when there is no count to compare). A
    disagreement: {id, round, path, official, ran (the accelerator counts the contradicting
    claims imply), evidence}."""
    count, nodes = record.get("accelerator_count"), record.get("nodes")
    if not isinstance(count, int) or count <= 0:
        return None, None  # a CPU-only result or no count: nothing to compare
    claims = [claim for path, data in zip(logs, datas) if data for claim in log_claims(path, data)]
    keys = sorted({claim.key for claim in claims})
    against = [claim for claim in claims if contradicts(claim, count, nodes)]
    if not against:
        return None, keys
    per_node = count // nodes if isinstance(nodes, int) and nodes > 0 and count % nodes == 0 else None
    return {
        "id": record["id"],
        "round": record["round"],
        "path": record["path"],
        "official": count,
        "ran": sorted({implied(c, per_node) for c in against}),
        "evidence": evidence_text(against),
    }, keys


def disagreement(record: dict, logs: list[str], datas: list[bytes | None]) -> dict | None:
    """The record's disagreement with what its logs state, or None (check)."""
    return check(record, logs, datas)[0]


def implied(claim: Claim, per_node: int | None) -> int:
    """The accelerators a claim implies: nodes (and an `N x` platform that is neither the
    description's nodes nor its accelerators) are read as nodes of the description's kind."""
    if claim.kind in ("nodes", "nodes or accelerators") and per_node:
        return claim.n * per_node
    return claim.n


def evidence_text(claims: list[Claim]) -> str:
    """`file: key value` of the first contradicting claim of each kind, and how many logs say it."""
    kinds: dict[tuple[str, str], list[str]] = {}
    for claim in claims:
        kinds.setdefault((claim.key, claim.value), []).append(claim.file)
    parts = []
    for (key, value), files in sorted(kinds.items()):
        more = f" (and {len(files) - 1} more logs)" if len(files) > 1 else ""
        parts.append(f"{files[0]}: {key} {value}{more}")
    return "; ".join(parts)
