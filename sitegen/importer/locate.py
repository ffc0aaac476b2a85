"""Where a round's results are: result folders, their logs, and each one's system description.

A system is matched by the folder's name, the logs' platform line and the model."""

from __future__ import annotations

import re

from sitegen.importer.systems import read_system

LOG_RE = re.compile(r"^result_[^/]*\.txt$")
OTHER_LOG_RE = re.compile(r"^[^/]*\.log$")


def locate(folder: str) -> dict | None:
    """Submitter, entry folders, system folder and benchmark folder of a result folder:
    `[v0.5.0/]<submitter>/[<entry>/...]results/<system>/[...]/<benchmark>`."""
    parts = folder.split("/")
    at = next((i for i, p in enumerate(parts) if p == "results" and i > 0), None)
    if at is None or at + 1 >= len(parts):
        return None
    prefix = parts[:at][1:] if re.fullmatch(r"v\d+\.\d+(\.\d+)?", parts[0]) else parts[:at]
    if not prefix:
        return None
    return {
        "submitter": prefix[0],
        "entries": prefix[1:],
        "system": parts[at + 1],
        "extra": parts[at + 2 : -1],
        "bench": parts[-1] if len(parts) > at + 2 else None,
        "base": "/".join(parts[:at]),
    }


def result_folders(files: list[str]) -> dict[str, list[str]]:
    """Folder -> its top-level result_*.txt, in the order of their number."""
    found: dict[str, list[str]] = {}
    for path in files:
        folder, _, name = path.rpartition("/")
        if LOG_RE.match(name) and folder:
            found.setdefault(folder, []).append(path)
    return {k: sorted(v, key=log_order) for k, v in found.items()}


def log_order(path: str) -> tuple[int, str]:
    digits = re.sub(r"\D", "", path.rpartition("/")[2])
    return (int(digits[-9:]) if digits else 10**12, path)


def other_log_order(path: str) -> tuple[int, str]:
    """`<job>_3.log`: by the last number of the name (the run's)."""
    numbers = re.findall(r"\d+", path.rpartition("/")[2])
    return (int(numbers[-1]) if numbers else 10**12, path)


def other_log_folders(files: list[str], with_logs: dict) -> dict[str, list[str]]:
    """`.../results/<system>/<benchmark>` folders without result_*.txt whose logs are named
    `*.log` (Alibaba's v0.7 A100 folder): taken as the result logs, in the order of their
    number, and noted in the report."""
    found: dict[str, list[str]] = {}
    for path in files:
        folder, _, name = path.rpartition("/")
        loc = locate(folder) if folder else None
        if OTHER_LOG_RE.match(name) and loc and loc["bench"] and not loc["extra"] and folder not in with_logs:
            found.setdefault(folder, []).append(path)
    return {k: sorted(v, key=other_log_order) for k, v in found.items()}


def empty_benchmark_folders(files: list[str], with_logs: dict) -> dict[str, list[str]]:
    """`.../results/<system>/<benchmark>` folders with files but no result_*.txt."""
    found: dict[str, list[str]] = {}
    for path in files:
        folder, _, name = path.rpartition("/")
        loc = locate(folder) if folder else None
        if loc and loc["bench"] and not loc["extra"] and folder not in with_logs:
            found.setdefault(folder, []).append(name)
    return found


def system_index(files: list[str]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for path in files:
        parent, _, name = path.rpartition("/")
        if parent.endswith("systems") and name.lower().endswith(".json"):
            index.setdefault(name[:-5].lower(), []).append(path)
    return index


def find_system(loc: dict, files: set, index: dict) -> tuple[str | None, str]:
    """The system description file, and a note when it is not where the rules put it."""
    own = f"{loc['base']}/systems/{loc['system']}.json"
    entry = f"{loc['base']}/results/{loc['system']}/entry.json"
    for path in (own, entry):
        if path in files:
            return path, ""
    near = [p for p in index.get(loc["system"].lower(), []) if p.startswith(loc["base"] + "/")]
    anywhere = index.get(loc["system"].lower(), [])
    for found in (near, anywhere):
        if len(found) == 1:
            return found[0], f"system described in {found[0]} (not {own})"
    return None, f"no system description: neither {own} nor {entry}"


# A results folder whose name matches no system description: the submitter's one description
# that the facts of the folder name and the logs single out (match_system).

PLATFORM_RE = re.compile(
    rb'"key":\s*"submission_platform"[^\n]*?"value":\s*"([^"\n]*)"'
    rb'|"value":\s*"([^"\n]*)"[^\n]*?"key":\s*"submission_platform"'
)


def log_platform(data: bytes | None) -> str | None:
    """The `submission_platform` a log names, if any."""
    found = PLATFORM_RE.search(data or b"")
    return (found.group(1) or found.group(2)).decode("latin-1").strip() if found else None


def folder_clues(name: str) -> tuple[set[int], set[str]]:
    """The numbers (a total accelerator count) and the words with a digit and a letter (an
    accelerator model, `v100`) of a folder name such as `v100-256`."""
    tokens = re.findall(r"[a-z0-9]+", name.lower())
    return (
        {int(t) for t in tokens if t.isdigit()},
        {t for t in tokens if re.search(r"\d", t) and re.search(r"[a-z]", t)},
    )


def model_words(model: str | None) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", (model or "").lower()))


def match_system(ctx: dict, loc: dict, logs: list[str]) -> tuple[str | None, str]:
    """The submitter's `systems/*.json` that alone fits a results folder named otherwise:
    by the logs' submission_platform (a description's file stem or system_name), and by the
    folder name's accelerator model and total count (`v100-256`: 256 accelerators whose
    model name has the word `v100`); a description must fit every clue there is, and exactly
    one may. (path or None, why)."""
    prefix = f"{loc['base']}/systems/"
    paths = sorted(
        p
        for p in ctx["fileset"]
        if p.startswith(prefix) and "/" not in p[len(prefix) :] and p.lower().endswith(".json")
    )
    read = {p: read_system(ctx["source"], p, loc["submitter"])[0] for p in paths}
    facts = {p: f for p, f in read.items() if f is not None}
    platform = log_platform(ctx["source"].read(logs[0])) if logs else None
    counts, words = folder_clues(loc["system"])
    named = {
        p
        for p, f in facts.items()
        if platform and platform.lower() in (f["system_name"].lower(), p[len(prefix) : -5].lower())
    }
    fitting = {
        p
        for p, f in facts.items()
        if counts
        and words
        and f["accelerator_count"] in counts
        and words & model_words(f["accelerator_model"])
    }
    chosen = (named & fitting) or (fitting if not named else named if not fitting else set())
    if len(chosen) != 1:
        return None, ""
    path = next(iter(chosen))
    clues = []
    if path in named:
        clues.append(f"the logs' submission_platform {platform!r}")
    if path in fitting:
        f = facts[path]
        clues.append(
            f"the folder name's {', '.join(sorted(words))} x "
            f"{', '.join(str(c) for c in sorted(counts))} ({f['nodes']} nodes, "
            f"{f['accelerator_count']} x {f['accelerator_model']})"
        )
    return path, (
        f"system described in {path} (no {loc['base']}/systems/{loc['system']}.json; "
        f"the only one of the {len(facts)} in {prefix} that fits " + " and ".join(clues) + ")"
    )
