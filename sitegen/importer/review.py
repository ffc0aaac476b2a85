"""What an import of the record may write on its own, and what waits for the editor's word.

A source that gives no results (an empty clone, an empty folder, a wrong path) stops the whole
import: written, it would replace a published round with nothing. A re-import that renames or
changes a published result (a corrected log upstream, a truncated copy of one) lists every
change, each at its line in the stored file, and writes nothing until the editor runs it again
with --accept-changes; one that removes published results lists them and writes nothing until
the editor names their rounds (--accept-removals v1.0,v2.1). A source that is not a whole copy
of its round (a clone lacking files of its commit, a copy lacking whole submission folders) never
removes: the published results in folders it does not hold are kept (keep_unheld). What is
accepted goes to the data changelog."""

from __future__ import annotations

from pathlib import Path

from sitegen.content import round_rules as rules
from sitegen.importer.write import shown_value


class ImportStopped(Exception):
    """Nothing was written: `lines` say why, one each (path or file:line first), and
    `closing` what to do."""

    def __init__(self, lines: list[str], closing: str):
        super().__init__("\n".join([*lines, closing]))
        self.lines, self.closing = lines, closing


def source_problems(results: list[dict]) -> list[str]:
    """One line per source that cannot be imported: its error, or that it holds no result."""
    problems = []
    for result in results:
        if "error" in result:
            problems.append(result["error"])
        elif not result["records"]:
            problems.append(
                f"{result['path']}: holds no results (no <submitter>/results/"
                "<system>/<benchmark>/result_*.txt): an empty clone, an empty folder "
                "or the wrong path"
            )
    return problems


def stop_on_sources(results: list[dict], out: Path) -> None:
    problems = source_problems(results)
    if problems:
        raise ImportStopped(
            problems, f"import failed: {len(problems)} source(s) cannot be imported; {out} left as it was"
        )


def keep_unheld(results: list[dict], stored: dict[str, list[dict]]) -> list[str]:
    """Keep the published results a source does not hold when it is not a whole copy of its
    round (unwhole): they join the round's records, with a note in its report section.
    Returns one line per round that kept some, for the editor."""
    said = []
    for result in results:
        held, ids = set(result.get("held", ())), {r["id"] for r in result["records"]}
        stored_here = stored.get(result["round"], [])
        absent = [r for r in stored_here if r.get("id") not in ids and str(r.get("path")) not in held]
        why = unwhole(result, stored_here, held)
        if not absent or not why:
            continue
        line = (
            f"{result['path']}: not a whole copy of round {result['round']} ({why}): its "
            f"{len(absent)} published result(s) in folders it does not hold are kept as they were"
        )
        result["records"] = sorted(result["records"] + absent, key=lambda r: r["id"])
        result["notes"].append(line)
        said.append(line)
    return said


def unwhole(result: dict, stored_here: list[dict], held: set[str]) -> str | None:
    """Why a source is not the whole round, or None: a clone lacking files of its commit, or
    a copy lacking whole submission folders (submission()) that the stored round has."""
    if result.get("lacking"):
        return f"the clone lacks {result['lacking']} file(s) of its commit"
    gone = sorted({submission(str(r.get("path"))) for r in stored_here} - held)
    if gone:
        return f"it holds no folder of {', '.join(gone[:3])}{' and more' if len(gone) > 3 else ''}"
    return None


def submission(path: str) -> str:
    """The folder of a submission: all before `/results/` (`Google`, and in v0.5
    `v0.5.0/google/cloud_v2.8/resnet-tpuv2-8`), else the first folder."""
    return path.split("/results/")[0] if "/results/" in path else path.split("/")[0]


def stop_on_changes(
    log: list[dict], out: Path, accept_changes: bool = False, accept_removals=frozenset()
) -> None:
    """Raise ImportStopped listing each change the import would make to published results
    that the editor has not accepted: changes and renames unless `accept_changes`, removals
    from a round not in `accept_removals`."""
    changed = [e for e in log if e["field"] != "result" and not accept_changes]
    removed = [e for e in log if e["field"] == "result" and round_of_id(e["id"]) not in accept_removals]
    if not changed and not removed:
        return
    raise ImportStopped(change_lines(changed + removed, out), closing(changed, removed, out))


def round_of_id(ident: str) -> str:
    return ident.split("-", 1)[0]  # an id starts with its round (docs/record-format.md)


def closing(changed: list[dict], removed: list[dict], out: Path) -> str:
    rounds = ",".join(sorted({round_of_id(e["id"]) for e in removed}, key=rules.round_key))
    if not removed:
        return (
            f"import stopped: {len(changed)} change(s) to published results; "
            f"{out} left as it was; review them and run again with "
            "--accept-changes to write them (the data changelog records them)"
        )
    flags = ("--accept-changes " if changed else "") + f"--accept-removals {rounds}"
    what = f"{len(changed)} change(s) to published results and " if changed else ""
    return (
        f"import stopped: {what}{len(removed)} published result(s) removed from {rounds}; "
        f"{out} left as it was; review them and run again with {flags} to write them "
        "(the data changelog records them)"
    )


def change_lines(log: list[dict], out: Path) -> list[str]:
    """`file:line: id: what changed` for each entry of the changelog an import would add, in
    the order of the stored files (a result's id starts with its round)."""
    renamed = {e["new"]: e["id"] for e in log if e["field"] == "id"}
    places: dict[Path, dict] = {}
    found = []
    for entry in log:
        stored = renamed.get(entry["id"], entry["id"])
        path = out / f"results-{stored.split('-', 1)[0]}.yaml"
        if path not in places:
            places[path] = field_lines(path)
        at = places[path].get(stored, {})
        line = at.get(entry["field"], at.get("id", 0))
        found.append((str(path), line, entry["id"], f"{entry['id']}: {change_words(entry)}"))
    return [f"{path}:{line}: {words}" for path, line, _, words in sorted(found)]


def change_words(entry: dict) -> str:
    if entry["field"] == "result":
        return f"removed (no longer in the source; was {entry['old']})"
    if entry["field"] == "id":
        return f"renamed to {entry['new']} (the same logs or folder under a new name)"
    return f"{entry['field']} {shown_value(entry['old'])} -> {shown_value(entry['new'])}"


def field_lines(path: Path) -> dict[str, dict[str, int]]:
    """id -> field -> line number in a results file as the importer writes it (`- id: X`
    opens a result, `  field: value` follows)."""
    found: dict[str, dict[str, int]] = {}
    current = None
    try:
        text = path.read_text("utf-8")
    except OSError:
        return found
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("- id: "):
            current = found.setdefault(line[len("- id: ") :].strip().strip('"'), {})
            current["id"] = number
        elif current is not None and line.startswith("  ") and ":" in line:
            current.setdefault(line[2:].split(":", 1)[0], number)
    return found
