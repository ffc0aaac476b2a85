"""The build's store: every cache and the state of every output folder's last build, in one
SQLite database (store.sqlite in the cache folder), one table per kind of entry.

Everything in it is safe to lose: a missing or stale entry only means the work is done again.
One integrity rule for every entry: its value is sealed (the sha256 of the bytes, then the
bytes), and an entry whose seal does not match is a miss, never used. A file that is not
this store's database (garbage, another program's SQLite file, another schema) is deleted
and made again, never trusted; so is one found damaged while it is read (a truncated file).

Each process opens its own connection (a forked rendering process never uses its parent's);
the database is in WAL mode with a busy timeout, so that the processes of one build read and
write it at once, and every write is one transaction. A read-only store (`check`) opens the
file as it is and creates or writes nothing. The store keeps at most LIMIT bytes of values:
when a write session closes above it, the least recently used entries are deleted."""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FILE = "store.sqlite"
APPLICATION_ID = 0x41584C47  # "AXLG": this program's databases say so in their header
SCHEMA = 4  # PRAGMA user_version: a store of another layout is made again
TABLES = (
    "parsed",  # a content file's parse (content/parsecache.py)
    "charts",  # chart specs, drawings and narrow widths (render/charts/draw_convert.py)
    "templates",  # compiled templates (render/theme.py)
    "builds",  # each output folder's manifest (assemble/manifest.py)
    "units",  # each output folder's units and what they read (assemble/state.py)
    "entries",  # each output folder's units' search entries (assemble/state_store.py)
    "conversions",  # text converted to a converted language (base/conversions.py)
    "claims",  # each output folder's claim words found in each text (assemble/words.py)
    "versions",  # the versions of the libraries that shape the output (base/cache.py)
    "stat_hashes",  # files' sha256 by their status (base/cache.py)
    "bodies",  # rendered report bodies (base/cache.py BodyCache)
    "converted",  # report texts converted from Markdown (base/cache.py BodyCache)
    "end_files",  # sitemaps, by a digest of what they are made of (render/sitemap.py)
)
# 1 GiB: a build of the shipped site keeps about 200 MB (its units' state 12 MB and search entries 4 MB, manifest,
# 7,000 chart entries, bodies), so a few output folders (build, serve, a check) stay warm,
# while the hundreds of output folders tests and benchmarks build no longer grow it without end
# (the files this store replaces had reached 1.2 GB).
LIMIT = 1 << 30
TOUCH_BATCH = 500  # reads noted before their entries' use time is written
TOUCH_AGE = 3600 * 10**9  # ns: the least recently used are told apart by the hour
MANY = 500  # keys asked in one query (older SQLite takes at most 999 parameters)


def seal(blob: bytes) -> bytes:
    """An entry's stored form: its own sha256, then the bytes, so damage is found before use."""
    return hashlib.sha256(blob).digest() + blob


def unseal(entry) -> bytes | None:
    """The bytes of a sealed entry, or None when it is truncated or corrupt."""
    if not isinstance(entry, bytes) or len(entry) < 32:
        return None
    digest, blob = entry[:32], entry[32:]
    return blob if hashlib.sha256(blob).digest() == digest else None


class Store:
    """One cache folder's database. `folder=None`: no store at all (every read a miss)."""

    def __init__(self, folder: Path | None, read_only: bool = False, limit: int = LIMIT):
        self.folder = Path(folder).absolute() if folder is not None else None  # a file: URI needs it
        self.path = self.folder / FILE if self.folder is not None else None
        self.read_only = read_only
        self.limit = limit
        self.memo: dict = {}  # what this process read once and keeps (the stat table, versions)
        # the work this process did beside the store, by kind ("charts drawn"...: BuildReport)
        self.work: Counter[str] = Counter()
        self._db: sqlite3.Connection | None = None
        self._pid = 0  # the process that opened _db; minus a forked process's own: none there
        self._inherited: list = []  # a parent's connection, never used nor closed in a child
        self._touched: list[tuple[str, str]] = []

    def _connect(self) -> sqlite3.Connection | None:
        """This process's connection. A process forked while its parent's connection was open
        uses none when it writes (SQLite's state of the parent's locks came with the fork: a
        connection of its own could damage the file); `release` before forking gives each child
        its own."""
        if self.path is None or self._pid == -os.getpid():
            return None
        if self._db is not None and self._pid != os.getpid():
            self._inherited.append(self._db)  # never used, nor closed, in this process
            self._db, self._touched, self._pid = None, [], -os.getpid()
            if not self.read_only:  # (an immutable file takes no locks: safe to open again)
                return None
        if self._db is None:
            self._db = _open(self.path, self.read_only)
            self._pid = os.getpid()
        return self._db

    def release(self) -> None:
        """Close this process's connection (what was read noted first), so that processes
        forked now open their own; the next use here opens another."""
        if self._db is not None and self._pid == os.getpid():
            self._write_touches()
            self._db.close()
            self._db = None

    def get(self, table: str, key: str) -> bytes | None:
        """The entry's bytes; None when there is none, or it is damaged. Its use time is written
        again only when it is older than TOUCH_AGE, as get_many's (writing it makes SQLite read
        the whole entry again: the units' state is tens of MB)."""
        try:
            db = self._connect()
            query = f"SELECT value, used FROM {table} WHERE key = ?"
            row = db.execute(query, (key,)).fetchone() if db else None
        except (sqlite3.DatabaseError, OSError) as exc:
            self._damaged(exc)
            return None
        if row is None:
            return None
        blob = unseal(row[0])
        if blob is not None and not self.read_only and row[1] < time.time_ns() - TOUCH_AGE:
            self._touched.append((table, key))
            if len(self._touched) >= TOUCH_BATCH:
                self._write_touches()
        return blob

    def get_many(self, table: str, keys) -> dict[str, bytes]:
        """The bytes of each of `keys` that has an entry, read in one query per MANY keys; the
        missing and the damaged ones are left out. An entry's use time is written again only
        when it is older than TOUCH_AGE (writing it rewrites the whole entry)."""
        keys, rows = list(keys), []
        try:
            db = self._connect()
            for start in range(0, len(keys), MANY):
                chunk = keys[start : start + MANY]
                marks = ", ".join("?" * len(chunk))
                query = f"SELECT key, value, used FROM {table} WHERE key IN ({marks})"
                rows += db.execute(query, chunk).fetchall() if db is not None else []
        except (sqlite3.DatabaseError, OSError) as exc:
            self._damaged(exc)
            return {}
        found = {key: blob for key, value, _ in rows if (blob := unseal(value)) is not None}
        if found and not self.read_only:
            old = time.time_ns() - TOUCH_AGE
            self._touched += [(table, key) for key, _, used in rows if key in found and used < old]
            if len(self._touched) >= TOUCH_BATCH:
                self._write_touches()
        return found

    def get_value(self, table: str, key: str):
        """The entry's value (pickled); None when there is none, or it is damaged."""
        blob = self.get(table, key)
        try:
            return pickle.loads(blob) if blob is not None else None
        except Exception:  # noqa: BLE001 - a damaged entry of any kind is only a miss
            return None

    def put_value(self, table: str, key: str, value) -> bool:
        try:
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - a value that cannot be kept is made again next time
            return False
        return self.put(table, key, blob)

    def put(self, table: str, key: str, blob: bytes) -> bool:
        """Store one entry; False when it could not be (a read-only store, a full disk)."""
        return self.put_many(table, {key: blob})

    def put_many(self, table: str, entries: dict[str, bytes], gone=(), prefix: str | None = None) -> bool:
        """Store entries in one transaction, in which the entries `gone` are deleted first, and
        (`prefix`) every entry whose key starts with it."""
        now = time.time_ns()
        rows = [(key, seal(blob), len(blob) + 32, now) for key, blob in entries.items()]
        steps: list[tuple[str, list]] = [(f"DELETE FROM {table} WHERE key = ?", [(key,) for key in gone])]
        if prefix is not None:
            steps.append((f"DELETE FROM {table} WHERE substr(key, 1, ?) = ?", [(len(prefix), prefix)]))
        return self._write(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?, ?)", rows, steps)

    def drop_others(self, table: str, keep_prefix: str) -> bool:
        """Delete the table's entries whose key does not start with `keep_prefix` (made from
        other data: never read again)."""
        return self._write(
            f"DELETE FROM {table} WHERE substr(key, 1, ?) != ?", [(len(keep_prefix), keep_prefix)]
        )

    def _write(self, statement: str, rows: list, before: list | tuple = ()) -> bool:
        """`statement` for each of `rows`, in one transaction (after each (statement, rows) of
        `before`); False when it could not be (a read-only store, a full disk)."""
        if self.read_only or self.path is None:
            return False
        try:
            db = self._connect()
            if db is None:
                return False
            with db:
                for step, step_rows in (*before, (statement, rows)):
                    db.executemany(step, step_rows)
        except (sqlite3.DatabaseError, OSError) as exc:
            self._damaged(exc)
            return False
        return True

    def delete(self, table: str, key: str) -> None:
        self._write(f"DELETE FROM {table} WHERE key = ?", [(key,)])

    def close(self) -> None:
        """Note what was read, keep the store within its limit, and close this process's
        connection (the next use opens another)."""
        if self._db is None or self._pid != os.getpid():
            return
        self._write_touches()
        if not self.read_only:  # this process's writes, or its children's
            self._bound()
        self.release()

    def size(self) -> int:
        """The bytes of all values kept."""
        db = self._connect()
        return (
            sum(db.execute(f"SELECT COALESCE(SUM(size), 0) FROM {t}").fetchone()[0] for t in TABLES)
            if db
            else 0
        )

    def _file_bytes(self) -> int:
        """The database's bytes on disk, with its write-ahead log: at least the values' bytes
        (each value is in the file or in the log), found without reading every table as size()
        does."""
        if self.path is None:
            return 0
        total = 0
        for path in (self.path, Path(f"{self.path}-wal")):
            try:
                total += os.stat(path).st_size
            except FileNotFoundError:  # no log (all of it is in the file)
                continue
            except OSError:
                return self.limit + 1  # unknown: count the values
        return total

    def _write_touches(self) -> None:
        touched, self._touched = self._touched, []
        if not touched or self._db is None:
            return
        now = time.time_ns()
        try:
            with self._db as db:
                for table, key in touched:
                    db.execute(f"UPDATE {table} SET used = ? WHERE key = ?", (now, key))
        except (sqlite3.DatabaseError, OSError) as exc:
            self._damaged(exc)

    def _bound(self) -> None:
        """Delete the least recently used entries while the values exceed the limit."""
        db = self._db
        if self._file_bytes() <= self.limit:  # the values are in these files: none to delete
            return
        try:
            excess = self.size() - self.limit
            if excess <= 0 or db is None:
                return
            rows = sorted(
                (used, size, table, key)
                for table in TABLES
                for key, size, used in db.execute(f"SELECT key, size, used FROM {table}")
            )
            with db:
                for _, size, table, key in rows:
                    if excess <= 0:
                        break
                    db.execute(f"DELETE FROM {table} WHERE key = ?", (key,))
                    excess -= size
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)

    def _damaged(self, exc: Exception) -> None:
        """A damaged database (SQLite says: not a database, malformed; or a table is missing)
        is deleted and made again at its next use; any other failure (busy, a folder that
        cannot hold it, a full disk) is only a miss."""
        damaged = type(exc) is sqlite3.DatabaseError or "no such table" in str(exc)
        if self.read_only or self.path is None or not damaged:
            return
        if self._db is not None and self._pid == os.getpid():
            self._db.close()
        self._db = None
        _remove(self.path)


def kept_text(store: Store | None, table: str, key: str, make) -> str:
    """The text `store` keeps in `table` under `key`, else make()'s, kept there (an entry that
    is not UTF-8 is made again; None or a read-only store keeps nothing)."""
    kept = store.get(table, key) if store is not None else None
    if kept is not None:
        try:
            return kept.decode("utf-8")
        except UnicodeDecodeError:
            pass
    text = make()
    if store is not None:
        store.put(table, key, text.encode("utf-8"))
    return text


@contextmanager
def opened(folder: Path | None, read_only: bool = False) -> Iterator[Store]:
    """The store of `folder`, closed (and kept within its limit) when the block ends."""
    store = Store(folder, read_only)
    try:
        yield store
    finally:
        store.close()


def _open(path: Path, read_only: bool) -> sqlite3.Connection | None:
    """A connection to a store of this schema; a file that is not one is deleted first.
    Read-only: the file as it is (immutable: no journal made), or an empty store in memory."""
    if read_only:
        if not path.is_file() or not _ours(path, read_only=True):
            return _create(sqlite3.connect(":memory:"))
        return sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False)
    if path.exists() and not _ours(path):
        _remove(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=60, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # in WAL mode: whole transactions, fewer fsyncs
        return _create(db)
    except sqlite3.DatabaseError:
        db.close()
        _remove(path)
        raise


def _ours(path: Path, read_only: bool = False) -> bool:
    """Whether the file is a database of this program and schema (garbage, a truncated header
    or another program's SQLite file is not). Read-only: looked at as it is (immutable: no
    journal made); else with the locks of the processes that use it (a busy one is ours)."""
    try:
        db = sqlite3.connect(
            f"{path.as_uri()}?mode=ro{'&immutable=1' if read_only else ''}", uri=True, timeout=60
        )
        try:
            found = (
                db.execute("PRAGMA application_id").fetchone()[0],
                db.execute("PRAGMA user_version").fetchone()[0],
            )
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            db.close()
    except sqlite3.OperationalError as exc:
        return "locked" in str(exc) or "busy" in str(exc)
    except sqlite3.DatabaseError:
        return False
    # a new store is empty until its creator's transaction ends: no header, no tables yet
    return found == (APPLICATION_ID, SCHEMA) and set(TABLES) <= tables or found == (0, 0) and not tables


def _create(db: sqlite3.Connection) -> sqlite3.Connection:
    """The tables, made once (by whichever process comes first)."""
    with db:
        db.execute("BEGIN IMMEDIATE")
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA:
            for table in TABLES:
                db.execute(
                    f"CREATE TABLE IF NOT EXISTS {table} "
                    "(key TEXT PRIMARY KEY, value BLOB NOT NULL, size INTEGER NOT NULL, used INTEGER NOT NULL)"
                )
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA}")
    return db


def _remove(path: Path) -> None:
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        try:
            (path.parent / name).unlink()
        except OSError:
            pass
