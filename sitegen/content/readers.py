"""Readers by file type: YAML and CSV tables with line numbers, Markdown with front matter.

Every reader returns plain data; every problem goes to `problems` with the file and line.
Whatever an editor's file holds, a reader answers within seconds with one message: line
endings (CRLF, CR) and a byte-order mark are read as they were meant, a byte that is not UTF-8
or a control character is one error naming its line and column, and YAML that would crash or
exhaust the parser (nesting too deep, anchors expanding without end) or that repeats a key is
refused before anything uses it."""

from __future__ import annotations

import csv
import io
import itertools
import re
import stat
from pathlib import Path

import yaml

from sitegen.base.errors import Problems
from sitegen.content.textcheck import text_problems

LINE = "__line__"  # key added to every mapping read from YAML or CSV: its first line in the file

MAX_BYTES = 32 * 1024 * 1024  # no content file is anywhere near this; a bigger one is a mistake
MAX_DEPTH = 50  # nesting levels of a YAML document (libyaml crashes past ~30,000)
MAX_NODES = 200_000  # values of a YAML document with every alias expanded

SAFE_LOADER: type[yaml.SafeLoader] = getattr(
    yaml, "CSafeLoader", yaml.SafeLoader
)  # libyaml's parser when available
MERGE_TAG = "tag:yaml.org,2002:merge"
# Control characters other than tab and line break (C0, DEL and C1) never belong in content.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class Located(dict):
    """A mapping read from YAML that knows the line of each of its keys (`lines`)."""

    __slots__ = ("lines",)
    lines: dict


def key_line(mapping, key, default=None):
    """The line of `key` in `mapping` when it was read from YAML, else `default`."""
    lines = getattr(mapping, "lines", None)
    return lines.get(key, default) if lines else default


class YamlProblem(Exception):
    """A YAML text that cannot be used: `line` (1-based in the text) and a message."""

    def __init__(self, line: int | None, message: str):
        super().__init__(message)
        self.line, self.message = line, message


class _DuplicateKey(yaml.MarkedYAMLError):
    pass


def _construct_mapping(loader, node, deep=False):
    """A mapping that refuses a key written twice (naming both lines) and records the line of
    each key; with `loader.with_line` also the mapping's own first line under LINE."""
    first_of: dict = {}
    for key_node, _ in node.value:
        if key_node.tag == MERGE_TAG:
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            first = first_of.get(key)
        except TypeError:  # an unhashable key: the constructor below says so
            continue
        if first is not None:
            raise _DuplicateKey(
                problem=f"duplicate key {key!r} (first on line {first + loader.first_line})",
                problem_mark=key_node.start_mark,
            )
        first_of[key] = key_node.start_mark.line
    loader.flatten_mapping(node)
    mapping = Located()
    mapping.lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            mapping[key] = loader.construct_object(value_node, deep=True)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                "found an unhashable key",
                key_node.start_mark,
            ) from None
        mapping.lines[key] = key_node.start_mark.line + loader.first_line
    if loader.with_line:
        mapping[LINE] = node.start_mark.line + loader.first_line
    return mapping


class _LineLoader(SAFE_LOADER):  # type: ignore[valid-type,misc]  # chosen at import
    """A safe loader: duplicate keys refused, lines recorded, dates left as text."""

    with_line = True
    first_line = 1


class _PlainLoader(_LineLoader):
    """The same without the LINE key (block parameters, where every key is a field)."""

    with_line = False


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
# Dates stay strings here; the field parsers turn them into dates with a clear message.
_LineLoader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in SAFE_LOADER.yaml_implicit_resolvers.items()
}

_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _could_be_dangerous(text: str) -> bool:
    """Cheap bound: only a text with an anchor, or whose brackets and indentation could nest
    past MAX_DEPTH, needs the event scan."""
    if "&" in text:
        return True
    brackets = re.sub(r"[^\[\]{}]+", "", text)
    flow = max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)
    longest = max(map(len, text.split("\n")), default=0)
    return flow + 2 * longest + 2 > MAX_DEPTH


def _guard(text: str) -> None:
    """Refuse, from libyaml's event stream (which does not recurse), a document nested deeper
    than MAX_DEPTH or whose aliases expand to more than MAX_NODES values."""
    if not _could_be_dangerous(text):
        return
    frames: list[tuple[int, str | None]] = []
    sizes: dict[str, int] = {}
    expanded = 0
    try:
        for event in yaml.parse(text, Loader=SAFE_LOADER):
            if isinstance(event, yaml.AliasEvent):
                expanded += sizes.get(event.anchor, 1)
                if expanded > MAX_NODES:
                    raise YamlProblem(
                        event.start_mark.line + 1,
                        f"the alias *{event.anchor} "
                        f"makes the document expand past {MAX_NODES:,} values; "
                        "write the values out instead of repeating anchors",
                    )
            elif isinstance(event, yaml.ScalarEvent):
                expanded += 1
                if event.anchor:
                    sizes[event.anchor] = 1
            elif isinstance(event, yaml.CollectionStartEvent):
                expanded += 1
                frames.append((expanded, event.anchor))
                if len(frames) > MAX_DEPTH:
                    raise YamlProblem(
                        event.start_mark.line + 1,
                        f"values nested deeper than {MAX_DEPTH} levels; flatten the structure",
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                start, anchor = frames.pop()
                if anchor:
                    sizes[anchor] = expanded - start + 1
    except yaml.YAMLError:
        return  # a syntax error: the loader reports it with its line


def load_yaml(text: str, first_line: int = 1, with_line: bool = True):
    """The value of a YAML text, or YamlProblem (with the line in the file: the text starts at
    `first_line`). Mappings are `Located`; with `with_line` they also hold LINE."""
    try:
        _guard(text)
    except YamlProblem as exc:
        raise YamlProblem((exc.line or 1) + first_line - 1, exc.message) from None
    loader = (_LineLoader if with_line else _PlainLoader)(text)
    loader.first_line = first_line
    try:
        return loader.get_single_data()
    except _DuplicateKey as exc:
        raise YamlProblem(exc.problem_mark.line + first_line, exc.problem) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + first_line if mark else None
        raise YamlProblem(line, f"YAML syntax error: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(None, f"YAML error: {exc}") from None
    except RecursionError:
        raise YamlProblem(
            first_line, f"values nested deeper than {MAX_DEPTH} levels; flatten the structure"
        ) from None
    finally:
        loader.dispose()


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: Path, problems: Problems) -> bytes | None:
    """The bytes of a plain file of sensible size, or None after recording why not. A FIFO, a
    device, a symlink loop or a huge file is refused before it is opened or read."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            problems.add(
                path, None, f"{_kind_of(info.st_mode)}, not a file: content files must be plain files"
            )
            return None
        if info.st_size > MAX_BYTES:
            problems.add(
                path,
                None,
                f"file of {info.st_size:,} bytes, over the limit of {MAX_BYTES:,}: is it the right file?",
            )
            return None
        return path.read_bytes()
    except OSError as exc:
        problems.add(path, None, f"cannot read file: {exc.strerror or exc}")
        return None


def _not_utf8(data: bytes, start: int) -> tuple[int, str]:
    before = data[:start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    line = before.count(b"\n") + 1
    column = len(before) - before.rfind(b"\n")
    return line, (f"byte 0x{data[start]:02x} (column {column}) is not UTF-8; save the file as UTF-8")


def decode(data: bytes) -> tuple[str | None, tuple[int, str] | None]:
    """(text with '\\n' line ends and no byte-order mark, None) or (None, (line, message))."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, _not_utf8(data, exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    bad = CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - text.rfind("\n", 0, bad.start())
        return None, (line, f"control character U+{ord(bad.group()):04X} (column {column}); remove it")
    return text, None


def read_text(path: Path, problems: Problems) -> str | None:
    """UTF-8 text (a BOM and CRLF or CR line ends are fine), or None after recording why not:
    one message for the first bad byte or control character, none after it."""
    data = read_bytes(path, problems)
    if data is None:
        return None
    text, problem = decode(data)
    if problem or text is None:
        problems.add(path, *(problem or (None, "unreadable")))
        return None
    for line, message in text_problems(text):
        problems.add(path, line, message)
    return text


def parse_yaml(text: str, path: Path, problems: Problems, first_line: int = 1):
    try:
        return load_yaml(text, first_line)
    except YamlProblem as exc:
        problems.add(path, exc.line, exc.message)
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

_FRONT = re.compile(r"\A---[ \t]*\n(.*?)^---[ \t]*$\n?", re.S | re.M)


def read_markdown(path: Path, problems: Problems) -> tuple[dict, str, int, dict] | None:
    """(front matter, body, line number where the body starts, line of each front matter key)."""
    text = read_text(path, problems)
    if text is None:
        return None
    match = _FRONT.match(text)
    if not match:
        problems.add(
            path,
            1,
            "missing front matter: start the file with a '---' line, the YAML fields, and another '---' line",
        )
        return None
    known = len(problems.items)
    front = parse_yaml(match.group(1), path, problems, first_line=2)
    if len(problems.items) > known:
        return None
    if not isinstance(front, Located):
        problems.add(path, 2, "front matter must be a mapping of 'field: value' lines")
        return None
    body_line = text[: match.end()].count("\n") + 1
    if _too_deep(text[match.end() :], body_line, path, problems):
        return None
    key_lines = {str(k): v for k, v in front.lines.items()}
    return front, text[match.end() :], body_line, key_lines


# Lists and quotes inside one another, checked before Markdown reads a body: its time grows
# with the square of the depth (1,200 levels took 18 s) and it fails past about 350. No text
# needs more than a few; each level is a '>', a list marker, or four columns of indentation.
MAX_NESTING = 32
_LEAD = re.compile(r"(?:[ \t]*(?:>|(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|$)))*[ \t]*")
_MARKER = re.compile(r">[ ]?|(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")  # with the space after it


def _too_deep(body: str, first_line: int, path: Path, problems: Problems) -> bool:
    """Report the first line of `body` nested deeper than MAX_NESTING; whether there is one."""
    for number, line in enumerate(body.split("\n")):
        lead = _LEAD.match(line).group()  # type: ignore[union-attr]  # it matches the empty string too
        depth = len(_MARKER.findall(lead)) + len(_MARKER.sub("", lead).expandtabs(4)) // 4
        if depth > MAX_NESTING:
            problems.add(
                path,
                first_line + number,
                f"lists or quotes nested {depth} levels deep (at most {MAX_NESTING}); flatten them",
            )
            return True
    return False
