"""The one cache store: skip work whose inputs did not change, without ever changing the output.

Everything kept lives outside output/ (in .cache/, or $SITEGEN_CACHE) and is safe to delete: a
missing or stale entry only means the work is done again. One integrity rule for every entry,
`seal`: the sha256 of the bytes, then the bytes (a truncated or damaged entry is a miss, never
used); one writer, `write_atomic`: whole or not at all, and a cache that cannot be written is no
error. Entries are files under the store's folder (parsed/, charts/, templates-*/, builds/ with
each output folder's manifest, build state and claim words, versions, stat-hashes) and one SQLite table of
sealed report bodies (bodies.sqlite: BodyCache); locks/ holds the build locks, not entries."""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import stat
import sys
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from sitegen.base.paths import CHECKOUT

# Imported where first used, not here: a build that finds nothing to do never needs them
# (sqlite3 for report bodies, importlib.metadata for versions, npm for the vendored scripts).

CODE = Path(__file__).resolve().parents[1]  # the sitegen package
PACKAGES = (
    "markdown",
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
)


def cache_root() -> Path:
    """$SITEGEN_CACHE, else .cache/ in the checkout, else .cache/ in the current folder (the
    command line sets $SITEGEN_CACHE for its run, so that every module and process agrees)."""
    return Path(os.environ.get("SITEGEN_CACHE") or (CHECKOUT or Path.cwd()) / ".cache")


READ_ONLY = "SITEGEN_CACHE_READONLY"  # "1": read what the cache holds, write nothing (check)


def read_only() -> bool:
    return os.environ.get(READ_ONLY) == "1"


def _versions() -> str:
    """The versions of PACKAGES. importlib.metadata costs about 0.5 s (its import and the
    search), so the answer is remembered in the cache, keyed by every distribution's metadata
    folder on sys.path (name, mtime, inode): an install, upgrade or removal changes the key."""
    key = _installed_key()
    path = cache_root() / "versions"
    try:
        known = unseal(path.read_bytes())
    except OSError:
        known = None
    if isinstance(known, tuple) and len(known) == 2 and known[0] == key and isinstance(known[1], str):
        return known[1]
    found = _read_versions()
    if not read_only():
        write_atomic(path, seal(pickle.dumps((key, found), protocol=4)))
    return found


def _read_versions() -> str:
    from importlib import metadata

    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=none")
    return ";".join(found)


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


def write_atomic(path: Path, data: bytes) -> None:
    """Write a cache file whole or not at all; a cache that cannot be written is no error."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp.write_bytes(data)
        os.replace(temp, path)
    except OSError:
        try:
            temp.unlink()
        except OSError:
            pass


# Files whose status changed less than this long before they were hashed are not remembered:
# a same-size rewrite within one tick of the file system's clock keeps mtime and ctime.
RACY_NS = 100_000_000
STAT_HASHES = "stat-hashes"

_stat_tables: dict = {}  # table file -> (its status, the table): read once while unchanged


def _load_stat_table() -> dict:
    """The table (path -> status and sha256), read once while its file is unchanged; callers never
    change it (each load copied the whole table: 2,000 copies in a load of 1,000 reports)."""
    path = cache_root() / STAT_HASHES
    try:
        with open(path, "rb") as file:
            status = _status(os.fstat(file.fileno()))
            known = _stat_tables.get(path)
            if known and known[0] == status:
                return known[1]
            table = unseal(file.read())
    except OSError:
        return {}
    table = table if isinstance(table, dict) else {}
    _stat_tables.clear()
    _stat_tables[path] = (status, table)
    return table


def _status(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def _file_hash(path: str, info: os.stat_result, table: dict, seen: dict, now: int) -> bytes:
    """sha256 of the file's bytes; taken from the table when its status is as recorded."""
    status = _status(info)
    known = table.get(path)
    if isinstance(known, tuple) and len(known) == 5 and known[:4] == status and isinstance(known[4], bytes):
        if len(known[4]) == 32:
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


def scan_tree(*folders: Path) -> Tree:
    """Every file under the folders (not `__pycache__`), hashed only when its size, mtime, ctime
    or inode changed since it was last hashed (the stat table: read once, saved once)."""
    table = _load_stat_table()
    new: dict = {}
    now = time.time_ns()
    files, odd = {}, {}
    for folder in folders:
        found, odd[folder] = _walk(folder)
        found.sort(key=lambda item: item[0])
        files[folder] = [(p, _file_hash(os.path.abspath(p), info, table, new, now)) for p, info in found]
    _save_stat_table(table, new)
    return Tree(tuple(folders), files, odd)


def _walk(folder: Path) -> tuple[list, list]:
    """([(file, its status)], sorted [(what is neither a file nor a folder, what it is)])."""
    found, odd = [], []
    for path in folder.rglob("*"):
        if "__pycache__" in path.parts:  # compiled code: written by whichever process
            continue  # imports first, never an input
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


def tree_digest(*folders: Path, extra: str = "") -> str:
    """One hash over every file's path and bytes under the folders (scan_tree, digest_of)."""
    return digest_of(scan_tree(*folders), extra)


def file_digests(paths) -> dict:
    """path -> sha256 (hex) of the bytes of each path that is a readable file (the others are
    left out), hashed only when its status changed, as in tree_digest."""
    table = _load_stat_table()
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
    _save_stat_table(table, new)
    return found


def _save_stat_table(table: dict, new: dict) -> None:
    """The table with `new`, written, and kept as the table read while its file is unchanged."""
    if new and not read_only():
        table = {**({} if len(table) > 100_000 else table), **new}  # past that, forget files long gone
        path = cache_root() / STAT_HASHES
        write_atomic(path, seal(pickle.dumps(table, protocol=4)))
        _stat_tables.clear()
        with suppress(OSError):  # if the write failed, still true of every file it names
            _stat_tables[path] = (_status(os.stat(path)), table)


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """The generator's own version: its code and the libraries that shape the output. Found
    once per process: the code a process runs is the code it imported (each chart asked for
    it again, 6 ms a time: 12 s of CPU in a cold build of 2,000 charts)."""
    from sitegen.base import npm

    return tree_digest(CODE, extra=_versions() + npm.versions())


def data_digest(content: Path, code: str, tree: Tree | None = None) -> str:
    """Everything a report body can depend on besides its own text. `tree`: the build's scan
    of `content` (scan_tree), whose digests are taken instead of walking the folders again."""
    parts = tuple(p for p in (content / "data", content / "i18n") if p.is_dir())
    config = content / "site.yaml"
    extra = code + config.read_bytes().hex() if config.exists() else code
    if tree is not None and tree.folders[:1] == (content,) and not any(p.is_symlink() for p in parts):
        return digest_of(tree, extra, within=parts)
    return tree_digest(*parts, extra=extra)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def seal(blob: bytes) -> bytes:
    """A cache entry: its own sha256, then the bytes, so damage is found before it is used."""
    return hashlib.sha256(blob).digest() + blob


def read_sealed(path: Path) -> bytes | None:
    """The bytes of the sealed entry at `path`, or None when it is missing, truncated or corrupt."""
    try:
        return unseal_bytes(path.read_bytes())
    except OSError:
        return None


def write_sealed(path: Path, blob: bytes) -> None:
    """Store `blob` at `path`, sealed, atomically (best effort, as every cache write)."""
    write_atomic(path, seal(blob))


def unseal_bytes(entry) -> bytes | None:
    """The bytes of a sealed entry, or None when it is truncated or corrupt."""
    if not isinstance(entry, bytes) or len(entry) < 32:
        return None
    digest, blob = entry[:32], entry[32:]
    return blob if hashlib.sha256(blob).digest() == digest else None


def unseal(entry) -> object | None:
    """The cached value, or None when the entry is truncated or corrupt (then made again)."""
    blob = unseal_bytes(entry)
    if blob is None:
        return None
    try:
        return pickle.loads(blob)
    except Exception:  # noqa: BLE001 - a damaged entry of any kind is only a cache miss
        return None


class BodyCache:
    """Rendered report bodies, keyed by the body text, its page and all data.

    One SQLite file rather than a file per body: on a cold build of a big site, creating
    thousands of small files cost more than rendering them. New entries are written in
    batches, one transaction each (flush); each process opens its own connection."""

    BATCH = 100  # entries held before they are written: bodies with charts are large

    def __init__(self, data_key: str):
        self.data_key = data_key
        self.path = cache_root() / "bodies.sqlite"
        self.hits = self.misses = 0
        self.new: dict[str, bytes] = {}
        self._db = None

    def key(self, *parts: str) -> str:
        return sha("\0".join((self.data_key, *parts)).encode())

    def _connect(self):
        import sqlite3

        if self._db is None and read_only():  # check: read the file if any, create nothing
            if self.path.is_file():
                self._db = sqlite3.connect(self.path.as_uri() + "?mode=ro", uri=True, timeout=60)
            else:
                self._db = sqlite3.connect(":memory:")
                self._db.execute("CREATE TABLE bodies (key TEXT PRIMARY KEY, data_key TEXT, value BLOB)")
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=60)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS bodies (key TEXT PRIMARY KEY, data_key TEXT, value BLOB)"
            )
        return self._db

    def get(self, key: str):
        import sqlite3

        try:
            row = self._connect().execute("SELECT value FROM bodies WHERE key = ?", (key,)).fetchone()
            value = unseal(row[0]) if row else None
        except sqlite3.DatabaseError:
            value = None
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: str, value) -> None:
        if read_only():
            return
        self.new[key] = seal(pickle.dumps(value, protocol=4))
        if len(self.new) >= self.BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the new entries, and drop the ones made from other data (never read again)."""
        if not self.new:
            return
        import sqlite3

        try:
            with self._connect() as db:
                db.execute("DELETE FROM bodies WHERE data_key != ?", (self.data_key,))
                db.executemany(
                    "INSERT OR REPLACE INTO bodies VALUES (?, ?, ?)",
                    [(k, self.data_key, v) for k, v in self.new.items()],
                )
        except sqlite3.Error:
            pass  # a cache that cannot be written only means the work is done again next time
        self.new.clear()
