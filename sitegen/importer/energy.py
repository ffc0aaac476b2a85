"""Energy to train of a result whose folder has power logs (`<result folder>/power/result_N/
node_*.txt`, `sw_*.txt`), computed with mlperf_logging's official summarizer code.

What the summarizer does (result_summarizer.py, `_compute_strong_score_standalone` and
`_compute_total_power`), and so what this does, with its own functions wherever it has them:

- a run's time to train is `run_stop - run_start` of its result log in ms
  (`parse_file` + `_query_run_start_stop`);
- a run's energy is the sum over its power logs of `_compute_power_node` (each `node_*.txt`:
  power readings × the time between readings, scaled to the time to train, × `conversion_eff`)
  and `_compute_power_sw` (each `sw_*.txt`: an interconnect estimate × the time to train), in
  joules (watts × ms / 1000);
- the result's energy is `_index_olympic_average` of the runs' energies, ordered by their times
  (the same runs the time score drops), × the folder's `scaling.json` factor.

The runs that count are those the time score counts (record_logs: a run failed when run_stop
is missing or not a success). Power logs are summed in sorted file-name order (the summarizer
takes glob's order, which the file system decides; sorting makes re-imports byte-identical).
The logs are written to a temporary folder so that the official parser reads them from files,
as the summarizer does.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

UNIT = "J"


def power_files(fileset: set, folder: str) -> list[str]:
    prefix = f"{folder}/power/"
    return sorted(p for p in fileset if p.startswith(prefix))


def run_logs(power: list[str], folder: str, result_name: str) -> tuple[list[str], list[str]]:
    """(node_*.txt, sw_*.txt) of one run, directly in power/<result name>/."""
    inside = f"{folder}/power/{result_name}/"
    names = [p[len(inside) :] for p in power if p.startswith(inside) and "/" not in p[len(inside) :]]

    def pick(stem: str) -> list[str]:
        return [inside + n for n in sorted(names) if n.startswith(stem) and n.endswith(".txt")]

    return pick("node_"), pick("sw_")


def result_name(log_path: str) -> str:
    """As the summarizer: the file name up to its first dot (`result_0.txt` -> `result_0`)."""
    return log_path.rpartition("/")[2].split(".")[0]


def energy(
    source,
    fileset: set,
    record: dict,
    logs: list[str],
    datas: list[bytes],
    minutes: list,
    ruleset: str,
    most_failed: int,
) -> tuple[dict | None, list[str]]:
    """({'value': joules, 'unit': 'J'} or None, notes) for one scored result folder."""
    folder = record["path"]
    power = power_files(fileset, folder)
    if not power:
        return None, []
    counted = [(path, data) for path, data, m in zip(logs, datas, minutes) if m is not None]
    plan = []
    for path, data in counted:
        nodes, switches = run_logs(power, folder, result_name(path))
        if not nodes:
            return None, [
                f"{folder}: power logs but none for {result_name(path)} "
                f"(no power/{result_name(path)}/node_*.txt); energy not scored"
            ]
        plan.append((path, data, nodes, switches))
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said):  # the official code prints its warnings
            value = official_energy(source, plan, len(logs) - len(counted), most_failed, ruleset)
    except Exception as exc:  # the official code's own errors (no power start, bad lines)
        return None, [f"{folder}: energy not scored: mlperf_logging: {type(exc).__name__}: {exc}"]
    notes = [
        f"{folder}: mlperf_logging (energy): {line}"
        for line in sorted(set(said.getvalue().splitlines()))
        if line.strip()
    ]
    if value is None:
        return None, notes + [f"{folder}: energy not scored: no run left after dropping fastest and slowest"]
    return {"value": value * (record["scaling"] or 1.0), "unit": UNIT}, notes


def official_energy(source, plan: list, dropped: int, most_failed: int, ruleset: str) -> float | None:
    from mlperf_logging.compliance_checker.mlp_parser import parse_file
    from mlperf_logging.result_summarizer import result_summarizer as summ

    scores, powers = [], []
    with tempfile.TemporaryDirectory(prefix="sitegen-power-") as tmp:

        def local(path: str, data: bytes | None = None) -> str:
            target = Path(tmp) / path.replace("/", "_")
            target.write_bytes(source.read(path) if data is None else data)
            return str(target)

        for path, data, nodes, switches in plan:
            loglines, _ = parse_file(local(path, data), ruleset=ruleset)
            start, stop = summ._query_run_start_stop(loglines)
            time_to_train_ms = stop - start
            scores.append(time_to_train_ms / 60 / 1000)
            total = 0
            for node in nodes:
                total += summ._compute_power_node(parse_file(local(node), ruleset)[0], time_to_train_ms)
            for switch in switches:
                total += summ._compute_power_sw(parse_file(local(switch), ruleset)[0], time_to_train_ms)
            powers.append(total)
    index = [i[0] for i in sorted(enumerate(scores), key=lambda x: x[1])]
    return summ._index_olympic_average(powers, index, dropped, most_failed)
