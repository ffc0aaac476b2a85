"""`seal-record`: seal a deliberate hand edit of the record (docs/importing.md).

It lists what changed since the last seal, round file by round file (results added, removed,
changed), and then writes the new seal through the importer's own writer (swap.py), holding the
content's lock. A round file that cannot be read, or holds one id twice, or a round of
rounds.yaml without its file, is refused: a seal says what a file holds, and those hold no
clear answer. A stopped import's leftovers are undone first (swap.recover)."""

from __future__ import annotations

from pathlib import Path

from sitegen.base.errors import Problems
from sitegen.content import record_lock, record_seal
from sitegen.content.record import record_folder
from sitegen.importer import swap
from sitegen.importer.review import ImportStopped


def reseal(content: Path, say=print, write=None) -> int:
    """Seal the record of `content`; `say(line)` is told each change before anything is
    written. Returns the number of changes (0: the seal was up to date, nothing written)."""
    folder = record_folder(content)
    shown = Problems(content).rel
    with record_lock.writing(content):
        for line in swap.recover(folder):
            say(line)
        files = swap.current_files(folder)
        refuse_unclear(folder, files, shown)
        old = previous_seal(folder)
        lines = [f"{shown(folder / name)}: {what}" for name, what in seal_changes(old, files)]
        for line in lines:
            say(line)
        if lines:
            swap.replace_record(folder, {}, write)
        return len(lines)


def refuse_unclear(folder: Path, files: dict[str, bytes], shown) -> None:
    """ImportStopped naming each round file a seal could not describe."""
    problems = []
    for round_id, line in record_seal.listed_rounds(folder / record_seal.ROUNDS).items():
        if f"results-{round_id}.yaml" not in files:
            problems.append(
                f"{shown(folder / record_seal.ROUNDS)}:{line}: round {round_id} has no file "
                f"results-{round_id}.yaml: restore it, or remove the round from rounds.yaml"
            )
    for name in record_seal.sealed_order(files):
        found = record_seal.file_results(files[name]) if name != record_seal.ROUNDS else []
        if found is None:
            problems.append(
                f"{shown(folder / name)}: cannot be read as a list of results "
                "(python build.py check names the line): fix it first"
            )
        problems += [f"{shown(folder / name)}:{line}: {why}" for line, why in twins(found or [])]
    if problems:
        raise ImportStopped(
            problems, f"nothing sealed: {len(problems)} problem(s); {shown(folder)} left as it was"
        )


def twins(found: list[tuple[str, str, int]]) -> list[tuple[int, str]]:
    first: dict[str, int] = {}
    said = []
    for ident, _, line in found:
        if ident in first:
            said.append((line, f"duplicate id '{ident}' (first on line {first[ident]}): delete one copy"))
        first.setdefault(ident, line)
    return said


def previous_seal(folder: Path) -> dict[str, dict]:
    """The seal as it was (none when missing or unreadable: every file is then new)."""
    path = folder / record_seal.SEAL
    if not path.is_file():
        return {}
    return record_seal.read_seal(path, Problems(folder)) or {}


def seal_changes(old: dict[str, dict], files: dict[str, bytes]) -> list[tuple[str, str]]:
    """(file name, what changed) for every difference between the old seal and the files."""
    found = []
    names = record_seal.sealed_order(files)
    for name in sorted(set(old) - set(names)):
        found.append((name, f"removed (sealed with {old[name].get('count', 0)} results)"))
    for name in names:
        entry = record_seal.file_entry(name, files[name])
        before = old.get(name)
        if before is None:
            found.append(
                (name, f"new file ({entry.get('count', 0)} results)" if "count" in entry else "new file")
            )
        elif before.get("sha256") != entry["sha256"]:
            found += [(name, what) for what in result_changes(before.get("results") or {}, entry)]
    return found


def result_changes(before: dict[str, str], entry: dict) -> list[str]:
    after = entry.get("results")
    if after is None:
        return ["changed"]
    found = [f"removed result '{i}'" for i in before if i not in after]
    found += [f"added result '{i}'" for i in after if i not in before]
    found += [f"changed result '{i}'" for i in after if i in before and before[i] != after[i]]
    return found or ["changed bytes, every result as sealed (a comment or spacing)"]
