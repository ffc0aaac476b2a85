"""MLCommons' compatibility table (mlcommons/policies, MLPerf_Compatibility_Table.adoc): which
rounds of a Training benchmark may be compared. Its Training section is an AsciiDoc table, one
row per model and one column per round; a cell "X" starts a benchmark version that spans the
cell's columns ("9+|X": nine rounds), "N/A" is a round without the benchmark. Read into
content/data/compatibility.yaml with the commit it was read at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

from sitegen.content import record_lock
from sitegen.importer.sources import open_source
from sitegen.importer.swap import write_file

TABLE = "MLPerf_Compatibility_Table.adoc"
SPAN = re.compile(r"\s*(\d+)\+\s*$")  # "X 9+|X": the span of the next cell ends this one


class TableError(ValueError):
    """The table is not in the shape this reader knows: the message names the line."""


def training_rows(text: str) -> list[dict]:
    """The Training section's rows: {model, versions}, each version the rounds ("v0.6", …) one
    benchmark version spans, oldest first."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "== Training"), None)
    if start is None:
        raise TableError(f"{TABLE}: no '== Training' section")
    header = next(i for i in range(start, len(lines)) if lines[i].startswith("|Model"))
    rounds = ["v" + text for text, _ in _cells(lines[header])[1:]]
    rows: list[dict] = []
    for number in range(header + 1, len(lines)):
        line = lines[number].strip()
        if line == "|===":
            return rows
        rows.append(_row(line, rounds, number + 1))
    raise TableError(f"{TABLE}:{header + 1}: the Training table has no end")


def _cells(line: str) -> list[tuple[str, int]]:
    """A row's cells as (text, columns spanned)."""
    cells, span = [], 1
    for piece in line.split("|")[1:]:
        ahead = SPAN.search(piece)
        cells.append((SPAN.sub("", piece).strip(), span))
        span = int(ahead.group(1)) if ahead else 1
    return cells


def _row(line: str, rounds: list[str], number: int) -> dict:
    if not line.startswith("|"):
        raise TableError(f"{TABLE}:{number}: not a table row: {line!r}")
    (model, _), *cells = _cells(line)
    versions: list[list[str]] = []
    column = 0
    for value, width in cells:
        if value == "X":
            versions.append(rounds[column : column + width])
        elif value != "N/A":
            raise TableError(f"{TABLE}:{number}: {model}: a cell is {value!r}, not X or N/A")
        column += width
    if column != len(rounds):
        raise TableError(f"{TABLE}:{number}: {model}: {column} columns, the header has {len(rounds)}")
    return {"model": model, "versions": versions}


def _write(out: Path, data: bytes) -> None:
    """`out` whole or as it was, with the record's writer (swap.write_file: synced, an error
    names the file), under the content's lock that builds share (record_lock)."""
    temp = out.with_name(f".{out.name}.new")
    with record_lock.writing(out.parent.parent):  # content/ holds data/compatibility.yaml
        try:
            write_file(temp, data, out)
            os.replace(temp, out)
        finally:
            temp.unlink(missing_ok=True)


def import_table(source: Path, out: Path) -> str:
    """Read the table from `source` (a clone or bare git directory of mlcommons/policies) and
    write `out` (content/data/compatibility.yaml); returns what was written, in a line."""
    repo = open_source(source)
    try:
        data = repo.read(TABLE) if TABLE in repo.files() else None
        if data is None:
            raise TableError(f"{source}: no {TABLE}")
        if repo.commit is None:
            raise TableError(f"{source}: not a git repository; the table is recorded with its commit")
        rows = training_rows(data.decode("utf-8"))
        head = (
            "# MLCommons' compatibility table for MLPerf® Training: each model's benchmark versions, the\n"
            "# rounds each spans; results are compared across rounds only within one version.\n"
            f"# Written by `import-compatibility` from mlcommons/policies {TABLE}; do not edit.\n"
        )
        body: dict = {"source": f"https://github.com/mlcommons/policies/blob/{repo.commit}/{TABLE}"}
        body |= {"commit": repo.commit, "date": repo.commit_date, "training": rows}
        text = head + yaml.safe_dump(
            body, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
        )
    finally:
        repo.close()
    _write(out, text.encode("utf-8"))
    return f"{out}: {len(rows)} Training models from {TABLE} at {repo.commit}"
