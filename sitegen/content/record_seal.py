"""The record's seal (content/data/record/seal.yaml, docs/record-format.md): what each round
file holds, as its importer wrote it: the sha256 of its bytes and each result's id with a digest
of its values. Every load checks the files against it, so that a round file emptied, cut, left
out or edited by hand stops the build at its file and line instead of publishing less.

Written only through `seal_text` (by the importer and by `python build.py seal-record`); read
by `check_seal`. Both see a file's results through `file_results`, the loader's own reader."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from sitegen.base.errors import Problems
from sitegen.content.parsecache import cached
from sitegen.content.readers import LINE, YamlProblem, load_yaml
from sitegen.content.record import record_folder
from sitegen.content.record_lines import fast_records

SEAL = "seal.yaml"
ROUNDS = "rounds.yaml"
HEADER = (
    "# Written by the importer (python build.py import-record) and by python build.py seal-record:\n"
    "# what each file of the record holds. Do not edit: see docs/record-format.md.\n"
)
CHECKOUT = "git checkout -- {file}"
RESEAL = "python build.py seal-record"
RESULTS = re.compile(r"^results-.*\.yaml$")  # as the loader globs them
PLAIN_ID = re.compile(r"^v[0-9][a-z0-9._-]*$")  # every id the importer writes (record-format.md)


NEW, OLD = "new", "old"  # what an import writes beside the record, then swaps (importer/swap.py)


def staging(folder: Path, kind: str) -> Path:
    """`.record.new` / `.record.old`: beside the record folder (same file system: rename)."""
    return folder.parent / f".{folder.name}.{kind}"


def check_leftovers(content: Path, problems: Problems) -> bool:
    """What a stopped import left beside the record: the previous record without a record
    (stopped between its two renames) stops the build; a leftover beside an intact record
    is a warning. seal-record and the next import undo either (importer/swap.py, recover).
    True when the record is moved aside: nothing of it can be checked."""
    folder = record_folder(content)
    old, new = staging(folder, OLD), staging(folder, NEW)
    if old.is_dir() and not folder.exists():
        problems.add(
            old,
            None,
            "the previous record, moved aside by an import that was stopped before it swapped in "
            f"the new one; run {RESEAL} to put it back",
        )
        return True
    for path in (p for p in (old, new) if p.exists()):
        problems.warn(
            path,
            None,
            f"left by an import that was stopped; the record is whole without it; {RESEAL} or "
            "the next import-record removes it",
        )
    return False


def sealed_names(folder: Path) -> list[str]:
    """The files a seal covers in `folder`, by name."""
    return sealed_order(p.name for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


def sealed_order(names) -> list[str]:
    """rounds.yaml, then every results-<round>.yaml, of `names`."""
    names = set(names)
    return ([ROUNDS] if ROUNDS in names else []) + sorted(n for n in names if RESULTS.match(n))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _plain(value):
    """A value as read, without the readers' line numbers (nested mappings carry them)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k != LINE}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def result_digest(row: dict) -> str:
    """16 hex digits of sha256 over one result's values (not its layout)."""
    text = json.dumps(_plain(row), sort_keys=True, ensure_ascii=False, default=str)
    return digest(text.encode("utf-8"))[:16]


def file_results(data: bytes) -> list[tuple[str, str, int]] | None:
    """(id, digest, line) of each result of a round file, in file order; None when the bytes
    are not a YAML list (the loader says why)."""
    try:
        text = data.decode("utf-8")
        rows = fast_records(text)
        rows = load_yaml(text, 1) if rows is None else rows
    except (UnicodeDecodeError, YamlProblem):
        return None
    if rows is None:
        return []
    if not isinstance(rows, list):
        return None
    return [
        (str(row.get("id")), result_digest(row), row.get(LINE) or 1) for row in rows if isinstance(row, dict)
    ]


def file_entry(name: str, data: bytes) -> dict:
    """What the seal says of one file: its digest and, for a round file, its results."""
    entry: dict = {"file": name, "sha256": digest(data)}
    if name != ROUNDS:
        found = file_results(data) or []
        entry["count"] = len(found)
        entry["results"] = {ident: sealed for ident, sealed, _ in found}
    return entry


def seal_entries(folder: Path) -> list[dict]:
    return [file_entry(name, (folder / name).read_bytes()) for name in sealed_names(folder)]


def seal_text(entries: list[dict]) -> str:
    """The seal file: deterministic, one value per line."""
    lines = [HEADER.rstrip("\n")]
    for entry in entries:
        lines += [f"- file: {entry['file']}", f'  sha256: "{entry["sha256"]}"']
        if "results" in entry:
            lines.append(f"  count: {entry['count']}")
            lines.append("  results:" + ("" if entry["results"] else " {}"))
            lines += [f'    {_key(ident)}: "{sealed}"' for ident, sealed in entry["results"].items()]
    return "\n".join(lines) + "\n"


def _key(ident: str) -> str:
    """An id as a YAML key: plain when it reads back as the same text, else quoted."""
    return ident if PLAIN_ID.match(ident) else json.dumps(ident, ensure_ascii=False)


def read_seal(path: Path, problems: Problems) -> dict[str, dict] | None:
    """file name -> its entry, or None (said) when the seal is unreadable."""
    try:
        rows = load_yaml(path.read_text("utf-8"), 1)
    except (OSError, UnicodeDecodeError, YamlProblem) as exc:
        line = getattr(exc, "line", None)
        problems.add(
            path, line, f"the record's seal cannot be read ({_why(exc)}); run {RESEAL} to write it again"
        )
        return None
    entries = {}
    for row in rows if isinstance(rows, list) else [None]:
        if not isinstance(row, dict) or not isinstance(row.get("file"), str) or "sha256" not in row:
            problems.add(path, None, f"the record's seal is damaged; run {RESEAL} to write it again")
            return None
        results = row.get("results")
        if isinstance(results, dict):  # the reader's line number is no result
            row = {**row, "results": {k: v for k, v in results.items() if k != LINE}}
        entries[row["file"]] = row
    return entries


def _why(exc: Exception) -> str:
    return getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc)


# --- the check every load makes -----------------------------------------------------------------

SAID = 10  # differences said per file; the rest in one line


def check_seal(content: Path, problems: Problems) -> None:
    """Each file of the record as its seal says, else a problem at its file and line. A file
    the build's scan digested (Problems.scanned) is read only when that digest is not the
    sealed one: the inputs are digested once per build."""
    folder = record_folder(content)
    path = folder / SEAL
    if not path.is_file():
        problems.add(
            path,
            None,
            "missing: the record's seal, which says what each round file holds; review the "
            f"record files (git diff {problems.rel(folder)}) and run {RESEAL} to write it",
        )
        return
    sealed = cached("record-seal", path, problems, lambda: read_seal(path, problems))
    if sealed is None:
        return
    rounds = folder / ROUNDS
    listed = cached("record-listed", rounds, problems, lambda: listed_rounds(rounds))
    names = set(sealed) | set(sealed_names(folder)) | {f"results-{r}.yaml" for r in listed}
    for name in sorted(names):
        _check_file(folder, name, sealed.get(name), listed, problems)


def listed_rounds(path: Path) -> dict[str, int]:
    """round id -> its line in rounds.yaml (`- id: v1.0`, as the importer writes it)."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    return {
        match.group(1): number
        for number, line in enumerate(text.splitlines(), start=1)
        if (match := ROUND_LINE.match(line))
    }


ROUND_LINE = re.compile(r"""^- id: ["']?(v[0-9][0-9a-z.]*)["']?\s*$""")


def _check_file(folder: Path, name: str, entry: dict | None, listed: dict, problems: Problems) -> None:
    path = folder / name
    fix = f"restore it ({CHECKOUT.format(file=problems.rel(path))})"
    if not path.is_file():
        _missing_file(folder, name, entry, listed, fix, problems)
        return
    if entry is not None and problems.scanned.get(path) == entry["sha256"]:
        return  # the bytes the build's scan digested are the sealed ones: not read again
    try:
        data = path.read_bytes()
    except OSError:
        return  # the loader says why it cannot be read
    if entry is None:
        problems.add(
            path,
            1,
            f"not in the record's seal ({SEAL}): import its round, or run {RESEAL} to seal a file written by hand",
        )
    elif digest(data) != entry["sha256"] and name == ROUNDS:
        problems.add(
            path, 1, f"changed since the record was sealed; {fix}, or run {RESEAL} to seal a deliberate edit"
        )
    elif digest(data) != entry["sha256"]:
        found = file_results(data)
        if found is not None:  # else the loader names the line it cannot read
            for line, message in _said(result_problems(found, entry, data, fix)):
                problems.add(path, line, message)


def _missing_file(
    folder: Path, name: str, entry: dict | None, listed: dict, fix: str, problems: Problems
) -> None:
    round_id = name[len("results-") : -len(".yaml")]
    held = f" (sealed with {entry.get('count')} results)" if entry else ""
    if round_id in listed:
        problems.add(
            folder / ROUNDS,
            listed[round_id],
            f"round {round_id}'s file {name} is missing{held}: {fix} or import the round again",
        )
    elif name != ROUNDS:
        problems.add(
            folder / name,
            None,
            f"missing, though the record's seal lists it{held}: {fix}, or run {RESEAL} if the round was removed on purpose",
        )


def result_problems(
    found: list[tuple[str, str, int]], entry: dict, data: bytes, fix: str
) -> list[tuple[int, str]]:
    """(line, message) for each way the results of a file differ from its seal."""
    sealed = entry.get("results") or {}
    if not found and sealed:
        return [
            (
                1,
                f"holds no results, but its seal lists {len(sealed)}: the file was emptied; {fix} or import the round again",
            )
        ]
    last_line = max(1, len(data.decode("utf-8", "replace").splitlines()))
    here = {ident: (mine, line) for ident, mine, line in reversed(found)}  # the first of twins
    twins = len(here) < len(found)  # the loader names both lines of each
    order = list(sealed)
    missing = [ident for ident in order if ident not in here]
    kept = [order.index(ident) for ident in order if ident in here]
    said: list[tuple[int, str]] = []
    if len(missing) > 1 and min(order.index(m) for m in missing) > max(kept, default=-1):
        said.append(
            (
                last_line,
                f"holds {len(kept)} of the {len(order)} results its seal lists: the last "
                f"{len(missing)}, from '{missing[0]}' on, are missing (the file was cut); {fix} or import the round again",
            )
        )
    else:
        said += [(_line_after(ident, order, here, last_line), _gone(ident, fix)) for ident in missing]
    said += [
        (line, _differs(ident, sealed, mine, fix))
        for ident, (mine, line) in here.items()
        if sealed.get(ident) != mine
    ]
    if not said and not twins:
        said.append(
            (
                1,
                f"differs from its seal though each result is as sealed (a comment or spacing changed); {fix}, or run {RESEAL} to seal the edit",
            )
        )
    return sorted(said)


def _line_after(ident: str, order: list[str], here: dict, last_line: int) -> int:
    """Where a missing result was: the line of the next sealed result still in the file."""
    later = (here[other][1] for other in order[order.index(ident) + 1 :] if other in here)
    return next(later, last_line)


def _gone(ident: str, fix: str) -> str:
    return f"result '{ident}' is missing, though the record's seal lists it: {fix}, or run {RESEAL} if it was removed on purpose"


def _differs(ident: str, sealed: dict, mine: str, fix: str) -> str:
    if ident not in sealed:
        return f"result '{ident}' is not in the record's seal (added by hand): {fix}, or run {RESEAL} to seal a deliberate edit"
    return f"result '{ident}' differs from its sealed values (edited by hand): {fix}, or run {RESEAL} to seal a deliberate edit"


def _said(found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """At most SAID differences, the rest counted on the line of the first left out."""
    if len(found) <= SAID:
        return found
    rest = found[SAID - 1 :]
    return [
        *found[: SAID - 1],
        (rest[0][0], f"and {len(rest)} more results differ from the record's seal; {RESEAL} lists them all"),
    ]
