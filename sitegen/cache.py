"""Skip work whose inputs did not change, without ever changing the output.

Everything kept here lives outside output/ (in .cache/, or $SITEGEN_CACHE) and is safe to
delete: a missing or stale entry only means the work is done again."""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import sqlite3
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from . import npm
from .paths import CHECKOUT

CODE = Path(__file__).resolve().parent
PACKAGES = ("markdown", "jinja2", "babel", "nh3", "pyyaml", "altair", "vl-convert-python",
            "feedgen", "lxml", "ftfy")


def cache_root() -> Path:
    """$SITEGEN_CACHE, else .cache/ in the checkout, else .cache/ in the current folder (the
    command line sets $SITEGEN_CACHE for its run, so that every module and process agrees)."""
    return Path(os.environ.get("SITEGEN_CACHE") or (CHECKOUT or Path.cwd()) / ".cache")


READ_ONLY = "SITEGEN_CACHE_READONLY"    # "1": read what the cache holds, write nothing (check)


def read_only() -> bool:
    return os.environ.get(READ_ONLY) == "1"


def _versions() -> str:
    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=none")
    return ";".join(found)


def tree_digest(*folders: Path, extra: str = "") -> str:
    """One hash over every file's path and bytes under the folders, in a fixed order."""
    digest = hashlib.sha256(extra.encode())
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def code_digest() -> str:
    """The generator's own version: its code and the libraries that shape the output."""
    return tree_digest(CODE, extra=_versions() + npm.versions())


def data_digest(content: Path, code: str) -> str:
    """Everything a report body can depend on besides its own text."""
    parts = [content / "data", content / "i18n"]
    return tree_digest(*[p for p in parts if p.is_dir()],
                       extra=code + (content / "site.yaml").read_bytes().hex()
                       if (content / "site.yaml").exists() else code)


@dataclass
class Manifest:
    """What the last build of one output folder was made from, and what it wrote."""

    inputs: str
    files: dict[str, str]            # output path -> sha256 of its bytes
    state: dict[str, list[int]]      # output path -> [size, mtime_ns, ctime_ns, inode] after writing


def _manifest_path(out: Path) -> Path:
    key = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]
    return cache_root() / "builds" / f"{key}.json"


def load_manifest(out: Path) -> Manifest | None:
    try:
        data = json.loads(_manifest_path(out).read_text("utf-8"))
        return Manifest(data["inputs"], data["files"], data["state"])
    except (OSError, ValueError, KeyError):
        return None


def save_manifest(out: Path, inputs: str, files: dict[str, str]) -> None:
    """`files`: output path -> sha256 of the bytes written there."""
    path = _manifest_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    manifest = {"inputs": inputs, "files": dict(sorted(files.items())),
                "state": output_state(out)}
    path.write_text(json.dumps(manifest), "utf-8")


def output_state(out: Path) -> dict[str, list[int]]:
    state = {}
    for root, _, names in os.walk(out):
        for name in names:
            path = os.path.join(root, name)
            info = os.stat(path)
            # ctime and inode too: no write, copy or same-size edit leaves them as they were
            state[os.path.relpath(path, out).replace(os.sep, "/")] = [
                info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
    return state


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _seal(blob: bytes) -> bytes:
    """A cache entry: its own sha256, then the bytes, so damage is found before it is used."""
    return hashlib.sha256(blob).digest() + blob


def _unseal(entry) -> object | None:
    """The cached value, or None when the entry is truncated or corrupt (then made again)."""
    if not isinstance(entry, bytes) or len(entry) < 32:
        return None
    digest, blob = entry[:32], entry[32:]
    if hashlib.sha256(blob).digest() != digest:
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

    BATCH = 100   # entries held before they are written: bodies with charts are large

    def __init__(self, data_key: str):
        self.data_key = data_key
        self.path = cache_root() / "bodies.sqlite"
        self.hits = self.misses = 0
        self.new: dict[str, bytes] = {}
        self._db = None

    def key(self, *parts: str) -> str:
        return sha("\0".join((self.data_key, *parts)).encode())

    def _connect(self):
        if self._db is None and read_only():      # check: read the file if any, create nothing
            if self.path.is_file():
                self._db = sqlite3.connect(self.path.as_uri() + "?mode=ro", uri=True, timeout=60)
            else:
                self._db = sqlite3.connect(":memory:")
                self._db.execute("CREATE TABLE bodies (key TEXT PRIMARY KEY, data_key TEXT, "
                                 "value BLOB)")
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=60)
            self._db.execute("CREATE TABLE IF NOT EXISTS bodies "
                             "(key TEXT PRIMARY KEY, data_key TEXT, value BLOB)")
        return self._db

    def get(self, key: str):
        try:
            row = self._connect().execute("SELECT value FROM bodies WHERE key = ?", (key,)).fetchone()
            value = _unseal(row[0]) if row else None
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
        self.new[key] = _seal(pickle.dumps(value, protocol=4))
        if len(self.new) >= self.BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the new entries, and drop the ones made from other data (never read again)."""
        if not self.new:
            return
        try:
            with self._connect() as db:
                db.execute("DELETE FROM bodies WHERE data_key != ?", (self.data_key,))
                db.executemany("INSERT OR REPLACE INTO bodies VALUES (?, ?, ?)",
                               [(k, self.data_key, v) for k, v in self.new.items()])
        except sqlite3.Error:
            pass  # a cache that cannot be written only means the work is done again next time
        self.new.clear()
