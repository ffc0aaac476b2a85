"""One error type for everything an editor can get wrong, and a collector for a whole run."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import NamedTuple


class Problem(NamedTuple):
    """One mistake or warning: the file, its line (None for the whole file) and the message.
    A named tuple: a site with tens of thousands of warnings makes and loads each of them in
    every build (a frozen dataclass took three times as long to make)."""

    path: str
    line: int | None
    message: str
    warning: bool = False

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        kind = "warning: " if self.warning else ""
        return f"{where}: {kind}{self.message}"


def as_rows(problems: list[Problem]) -> list[tuple]:
    """Problems as tuples, for a forked process to send back (pickling thousands of Problems,
    each an object with its own dict, and loading them again, cost more than making them)."""
    return [(p.path, p.line, p.message, p.warning) for p in problems]


def from_rows(rows: list[tuple]) -> list[Problem]:
    """The Problems of as_rows."""
    return list(map(Problem._make, rows))


class ContentError(Exception):
    """Raised once, at the end of a stage, with every problem found in it."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.path, p.line or 0, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class Problems:
    """Collects problems so that one run reports all of them, not just the first."""

    root: Path
    items: list[Problem] = field(default_factory=list)
    # (table, id) of records already reported as broken: references to them say nothing more
    broken: set = field(default_factory=set)
    # the build's store (base/store.py) that parses are kept in; None: every file is parsed
    store: object = field(default=None, repr=False, compare=False)
    # the build's scan of its inputs (cache.scan_tree): file -> sha256, which the parses kept
    # are looked up by instead of each file's status asked again (parsecache.py)
    scanned: dict = field(default_factory=dict, repr=False, compare=False)

    def rel(self, path: Path | str) -> str:
        known = self.__dict__.setdefault("_relative", {})  # a file named by thousands of warnings
        if path not in known:
            known[path] = self._rel(path)
        return known[path]

    def _rel(self, path: Path | str) -> str:
        text = str(path if isinstance(path, PurePath) else Path(path))  # (normalised)
        folder, name = os.path.split(text)
        if name == ".":  # Path("."): the folder itself
            folder, name = text, ""
        # Folders are resolved once per collector (a load names thousands of records in a few
        # files); the file itself is not resolved: it may be a link to a device, or a loop.
        # Both are normalised absolute paths: one is inside the other when it starts with it.
        resolved = self.__dict__.setdefault("_resolved", {})
        base = resolved.get(None)
        if base is None:
            base = resolved[None] = str(self.root.resolve().parent)
        parent = resolved.get(folder)
        if parent is None:
            parent = resolved[folder] = str(Path(folder).resolve())
        full = os.path.join(parent, name) if name else parent
        inside = base if base.endswith(os.sep) else base + os.sep
        if full == base:
            return "."
        return (full[len(inside) :] if full.startswith(inside) else text).replace(os.sep, "/")

    def add(self, path: Path | str, line: int | None, message: str, warning: bool = False) -> None:
        self.items.append(Problem(self.rel(path), line, message, warning))

    def warn(self, path: Path | str, line: int | None, message: str) -> None:
        self.add(path, line, message, warning=True)

    def warn_each(self, path: Path | str, found) -> None:
        """warn() for each (line, message) of `found`, all in one file (a report's thousands of
        claim-word warnings: its relative path found once)."""
        rel = self.rel(path)
        self.items += [Problem(rel, line, message, True) for line, message in found]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.warning]

    def raise_if_any(self, strict: bool = False) -> None:
        if self.errors or (strict and self.items):  # warnings are said with the errors
            raise ContentError(self.items)
