"""A line reader for the record files as the importer writes them: one field per line under
each "- id: ..." (content/record.py and the seal's check read them with it, and fall back
to the YAML reader for any other layout)."""

from __future__ import annotations

import functools
import re

import yaml

from sitegen.content.readers import LINE, SAFE_LOADER, Located

# The importer writes one field per line ("  key: value" under "- id: ..."), so a line reader
# does in 0.1 s what libyaml's loader does in 1.5 s (its constructor runs in Python). Values it
# does not recognise go to yaml one by one; any other layout goes to yaml whole. A test checks
# that both readers agree on every record file.
_FIELD = re.compile(r"^(?:- |  )([a-z_]+): ?(.*)$")
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")
_PLAIN = re.compile(r"^[A-Za-z](?:[^:#]|:(?! )|(?<! )#)*(?<!:)$")  # no ": ", " #", final ":"
_WORDS = {"null": None, "~": None, "": None, "true": True, "false": False}
_YAML_WORDS = re.compile(
    r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|True|TRUE|"
    r"False|FALSE|Null|NULL|\.nan|\.NaN|\.NAN|\.inf|\.Inf|\.INF)$"
)


def fast_records(text: str) -> list[Located] | None:
    """The records of an importer-written file, or None when its layout is another. Each
    knows the line of each of its fields (`lines`), as the YAML reader's mappings do."""
    records: list[Located] = []
    seen: dict[str, object] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        match = _FIELD.match(line)
        if not match or (line.startswith("  ") and not records):
            return None
        key, raw = match.groups()
        if line.startswith("- "):
            record = Located({LINE: number})
            record.lines = {}
            records.append(record)
        raw = raw.rstrip()
        value = seen.get(raw, _UNREAD)
        if value is _UNREAD:  # most values repeat (closed, min, a model name)
            value = _scalar(raw)
            if not raw.startswith("["):
                seen[raw] = value
        if value is _UNREAD or key in records[-1]:  # a key twice: yaml names both lines
            return None
        if isinstance(value, dict):  # energy: {value, unit}; yaml gives it its line
            value = {**value, LINE: number}
        records[-1][key] = value
        records[-1].lines[key] = number
    return records


_UNREAD = object()


def _scalar(raw: str):
    if raw in _WORDS:
        return _WORDS[raw]
    if _INT.match(raw):
        return int(raw)
    if _FLOAT.match(raw):
        return float(raw)
    if _PLAIN.match(raw) and not _YAML_WORDS.match(raw):
        return raw
    if raw.startswith("[") and raw.endswith("]") and not any(c in raw[1:-1] for c in "[]{}\"'#"):
        items = [_scalar(item.strip()) for item in raw[1:-1].split(",")] if raw[1:-1].strip() else []
        return _UNREAD if _UNREAD in items else items
    return _yaml_scalar(raw)


@functools.lru_cache(maxsize=4096)
def _yaml_scalar(raw: str):
    try:
        value = yaml.load(f"v: {raw}", Loader=_SCALAR_LOADER)["v"]
    except yaml.YAMLError:
        return _UNREAD
    return value if not isinstance(value, (dict, list)) or value else value


class _SCALAR_LOADER(SAFE_LOADER):  # type: ignore[valid-type,misc]  # chosen at import
    """yaml for one value: dates stay text, as readers.py's loader keeps them."""


_SCALAR_LOADER.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in _SCALAR_LOADER.yaml_implicit_resolvers.items()
}
