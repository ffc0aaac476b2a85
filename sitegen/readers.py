"""Readers by file type: YAML and CSV tables with line numbers, Markdown with front matter.

Every reader returns plain data; every problem goes to `problems` with the file and line."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import yaml

from .errors import Problems
from .textcheck import text_problems

LINE = "__line__"  # key added to every mapping read from YAML or CSV: its first line in the file


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when available


class _LineLoader(SAFE_LOADER):
    """A safe loader that records where each mapping starts."""


def _construct_mapping(loader, node, deep=False):
    mapping = SAFE_LOADER.construct_mapping(loader, node, deep=True)
    mapping[LINE] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
# Dates stay strings here; the field parsers turn them into dates with a clear message.
_LineLoader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in SAFE_LOADER.yaml_implicit_resolvers.items()
}


def read_text(path: Path, problems: Problems) -> str | None:
    """UTF-8 text (a BOM is allowed), or None after recording why not."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.add(path, None, f"cannot read file: {exc.strerror}")
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.add(path, line, "file is not UTF-8 text; save it as UTF-8")
        return None
    for line, message in text_problems(text):
        problems.add(path, line, message)
    return text


def parse_yaml(text: str, path: Path, problems: Problems, first_line: int = 1):
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + first_line if mark else None
        problems.add(path, line, f"YAML syntax error: {exc.problem or exc.context}")
    except yaml.YAMLError as exc:
        problems.add(path, None, f"YAML error: {exc}")
    return None


def read_yaml(path: Path, problems: Problems):
    text = read_text(path, problems)
    return None if text is None else parse_yaml(text, path, problems)


def read_csv(path: Path, problems: Problems) -> list[dict] | None:
    """Rows as dicts; empty cells are absent, so that required fields are reported as missing."""
    text = read_text(path, problems)
    if text is None:
        return None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = []
    try:
        for row in reader:
            if None in row:
                problems.add(path, reader.line_num, "row has more cells than the header")
                continue
            record = {k.strip(): v.strip() for k, v in row.items() if k and v and v.strip()}
            record[LINE] = reader.line_num
            rows.append(record)
    except csv.Error as exc:
        problems.add(path, reader.line_num, f"CSV syntax error: {exc}")
        return None
    return rows


TABLE_READERS = {".yaml": read_yaml, ".yml": read_yaml, ".csv": read_csv}

_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*\r?$\n?", re.S | re.M)


_TOP_KEY = re.compile(r"^([\w.-]+):", re.M)


def read_markdown(path: Path, problems: Problems) -> tuple[dict, str, int, dict] | None:
    """(front matter, body, line number where the body starts, line of each front matter key)."""
    text = read_text(path, problems)
    if text is None:
        return None
    match = _FRONT.match(text)
    if not match:
        problems.add(path, 1, "missing front matter: start the file with a '---' line, "
                              "the YAML fields, and another '---' line")
        return None
    known = len(problems.items)
    front = parse_yaml(match.group(1), path, problems, first_line=2)
    if len(problems.items) > known:
        return None
    if not isinstance(front, dict):
        problems.add(path, 2, "front matter must be a mapping of 'field: value' lines")
        return None
    body_line = text[: match.end()].count("\n") + 1
    front_text = match.group(1)
    key_lines = {m.group(1): 2 + front_text.count("\n", 0, m.start())
                 for m in _TOP_KEY.finditer(front_text)}
    return front, text[match.end():], body_line, key_lines
