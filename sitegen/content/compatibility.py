"""MLCommons' compatibility table as data (content/data/compatibility.yaml, written by
`import-compatibility`): each Training model's benchmark versions and the rounds each spans.
Read as the table `compatibility` (one entry per model); a benchmark of benchmarks.yaml names
its model in `compatibility`, checked here with its file and line."""

from __future__ import annotations

from pathlib import Path

from sitegen.base.errors import Problems
from sitegen.content.parsecache import cached
from sitegen.content.readers import LINE, read_yaml

TABLE = "compatibility"
FILE = "data/compatibility.yaml"


def read(content: Path, problems: Problems) -> dict[str, dict]:
    """{model: {id, versions: [[round, ...], ...]}}; empty without the file."""
    path = content / FILE
    if not path.is_file():
        return {}
    data = cached("yaml", path, problems, lambda: read_yaml(path, problems))
    rows = data.get("training") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        problems.add(
            path, 1, "expected `training:`, a list of models with their versions (import-compatibility)"
        )
        return {}
    table: dict[str, dict] = {}
    for row in rows:
        versions = row.get("versions") if isinstance(row, dict) else None
        if not isinstance(versions, list) or not all(isinstance(v, list) for v in versions):
            problems.add(path, _line(row), "a model needs `model` and `versions`, a list of lists of rounds")
            continue
        table[str(row.get("model"))] = {
            "id": str(row.get("model")),
            "versions": [[str(r) for r in v] for v in versions],
            "_file": path,
            LINE: _line(row),
        }
    return table


def check_benchmarks(content: Path, benchmarks: dict, table: dict, problems: Problems) -> None:
    """A benchmark's `compatibility` names a model of the table."""
    if not table:
        return
    for entry in benchmarks.values():
        model = entry.get("compatibility")
        if model is not None and model not in table:
            problems.add(
                content / "data" / "benchmarks.yaml",
                (entry.get("_lines") or {}).get("compatibility", entry.get(LINE)),
                f"benchmark '{entry['id']}': compatibility '{model}' is not a model of {FILE} "
                f"(its models: {', '.join(table)})",
            )


def _line(row) -> int | None:
    return row.get(LINE) if isinstance(row, dict) else None
