"""The build's store (sitegen/base/store.py): one SQLite database per cache folder; a file that
is not this store's database is deleted and made again, never trusted; a damaged entry is a
miss; the values stay within the limit, least recently used first out; a read-only store
writes nothing; a forked process uses a connection of its own."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from sitegen.base import store as store_module
from sitegen.base.store import FILE, TABLES, Store, seal

from project import CACHE, TEMPLATES, write_project


def filled(folder) -> Store:
    store = Store(folder)
    assert store.put("charts", "a", b"drawing a")
    assert store.put_value("parsed", "b", {"records": [1, 2]})
    return store


def test_entries_are_kept_in_one_database_with_a_table_per_kind(tmp_path):
    store = filled(tmp_path / "cache")
    assert store.get("charts", "a") == b"drawing a"
    assert store.get_value("parsed", "b") == {"records": [1, 2]}
    assert store.get("charts", "b") is None  # each kind its own table
    store.close()
    assert sorted(os.listdir(tmp_path / "cache")) == [FILE]
    with sqlite3.connect(tmp_path / "cache" / FILE) as db:
        names = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert names == set(TABLES)
    assert Store(tmp_path / "cache").get("charts", "a") == b"drawing a"  # and read back


def test_a_damaged_entry_is_a_miss(tmp_path):
    store = filled(tmp_path / "cache")
    with sqlite3.connect(store.path) as db:
        (data,) = db.execute("SELECT value FROM charts WHERE key = 'a'").fetchone()
        db.execute("UPDATE charts SET value = ? WHERE key = 'a'", (data[:-1] + b"b",))
        db.execute("UPDATE parsed SET value = ? WHERE key = 'b'", (seal(b"not a pickle"),))
    assert store.get("charts", "a") is None
    assert store.get_value("parsed", "b") is None


def test_many_entries_are_read_at_once_and_a_damaged_one_is_left_out(tmp_path):
    store = Store(tmp_path / "cache")
    entries = {f"k{n}": f"value {n}".encode() for n in range(store_module.MANY + 20)}
    assert store.put_many("parsed", entries)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE parsed SET value = ? WHERE key = 'k3'", (seal(b"value 3")[:-1] + b"4",))
    assert store.get_many("parsed", [*entries, "absent"]) == {k: v for k, v in entries.items() if k != "k3"}
    assert store.get_many("charts", entries) == {}


@pytest.mark.parametrize("together", [True, False], ids=["many", "one"])
def test_reading_notes_the_use_of_entries_not_used_lately(tmp_path, together):
    """Each entry's use time orders what the limit deletes; writing it again rewrites the
    entry (SQLite reads the whole entry again), so entries read, together or alone, have it
    written only when it is older than an hour."""
    store = Store(tmp_path / "cache")
    assert store.put_many("units", {"old": b"o", "new": b"n"})
    hour = 3600 * 10**9
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE units SET used = used - ? WHERE key = 'old'", (2 * hour,))
        before = dict(db.execute("SELECT key, used FROM units"))
    if together:
        assert store.get_many("units", ["old", "new"]) == {"old": b"o", "new": b"n"}
    else:
        assert (store.get("units", "old"), store.get("units", "new")) == (b"o", b"n")
    store.close()
    with sqlite3.connect(store.path) as db:
        after = dict(db.execute("SELECT key, used FROM units"))
    assert after["new"] == before["new"]
    assert after["old"] > before["old"] + hour


def _garbage(path):
    path.write_bytes(b"this is not a database\n" * 100)


def _foreign(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE accounts (name TEXT, balance INTEGER)")
        db.execute("INSERT INTO accounts VALUES ('someone', 1)")


def _other_schema(path):
    with sqlite3.connect(path) as db:
        for table in TABLES:
            db.execute(f"CREATE TABLE {table} (key TEXT PRIMARY KEY, value BLOB, size INTEGER, used INTEGER)")
        db.execute(f"PRAGMA application_id = {store_module.APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {store_module.SCHEMA + 1}")


def _truncated(path):
    store = Store(path.parent)
    for number in range(200):  # many pages, so that the cut loses tables' pages
        store.put("bodies", f"k{number}", os.urandom(3000))
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


@pytest.mark.parametrize("make", [_garbage, _foreign, _other_schema, _truncated])
def test_a_file_that_is_not_this_stores_database_is_made_again(tmp_path, make):
    folder = tmp_path / "cache"
    folder.mkdir()
    make(folder / FILE)
    store = Store(folder)
    assert all(store.get("bodies", f"k{number}") is None for number in range(200))
    assert store.put("charts", "a", b"drawing a")  # the next write makes it again
    assert store.get("charts", "a") == b"drawing a"
    store.close()
    with sqlite3.connect(folder / FILE) as db:
        assert db.execute("PRAGMA application_id").fetchone() == (store_module.APPLICATION_ID,)
        assert db.execute("PRAGMA user_version").fetchone() == (store_module.SCHEMA,)
        assert "accounts" not in {name for (name,) in db.execute("SELECT name FROM sqlite_master")}


def test_the_values_stay_within_the_limit_least_recently_used_out(tmp_path):
    limit = 10 * (1000 + 32)  # ten entries of 1,000 bytes (each sealed: 32 more)
    store = Store(tmp_path / "cache", limit=limit)
    for number in range(10):
        store.put("charts", f"old{number}", bytes(1000))
    store.close()
    assert store.size() == limit  # at the limit, nothing goes
    with sqlite3.connect(store.path) as db:  # each used an hour apart, the first longest ago
        for number in range(10):
            db.execute(
                "UPDATE charts SET used = used - ? WHERE key = ?",
                ((20 - number) * 3600 * 10**9, f"old{number}"),
            )
    store.get("charts", "old0")  # used again: now the most recently used
    for number in range(5):
        store.put("bodies", f"new{number}", bytes(1000))
    store.close()
    assert store.size() <= limit
    kept = [key for key in [f"old{n}" for n in range(10)] if store.get("charts", key) is not None]
    assert kept == ["old0", "old6", "old7", "old8", "old9"]  # the five used longest ago went
    assert all(store.get("bodies", f"new{n}") for n in range(5))


def test_a_read_only_store_creates_and_writes_nothing(tmp_path):
    folder = tmp_path / "cache"
    reader = Store(folder, read_only=True)
    assert reader.get("charts", "a") is None
    assert not reader.put("charts", "a", b"x")
    reader.close()
    assert not folder.exists()
    filled(folder).close()
    before = {name: (folder / name).read_bytes() for name in os.listdir(folder)}
    reader = Store(folder, read_only=True)
    assert reader.get("charts", "a") == b"drawing a"
    assert not reader.put("charts", "c", b"x")
    reader.close()
    assert {name: (folder / name).read_bytes() for name in os.listdir(folder)} == before


def _in_a_child(job) -> bool:
    """job() in a forked process: its answer."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.write(write, b"1" if job() else b"0")
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    return os.read(read, 1) == b"1"


def test_a_process_forked_after_release_opens_its_own_connection(tmp_path):
    store = filled(tmp_path / "cache")
    store.release()
    assert _in_a_child(
        lambda: store.get("charts", "a") == b"drawing a" and store.put("charts", "child", b"c")
    )
    assert store.get("charts", "child") == b"c"


def test_a_process_forked_beside_an_open_connection_uses_none(tmp_path):
    """SQLite's record of the parent's locks comes with a fork: a child that opened the file
    again could damage it, so it keeps nothing and reads nothing."""
    store = filled(tmp_path / "cache")
    assert store.get("charts", "a") == b"drawing a"  # open in this process
    assert _in_a_child(lambda: store.get("charts", "a") is None and not store.put("charts", "child", b"c"))
    assert store.get("charts", "a") == b"drawing a" and store.get("charts", "child") is None


def test_processes_write_one_store_at_once(tmp_path):
    """Four forked processes, each writing 200 entries one transaction at a time while reading
    the others': every entry is there afterwards, whole."""
    store = filled(tmp_path / "cache")
    store.release()

    def job(number: int) -> bool:
        for entry in range(200):
            if not store.put("bodies", f"{number}-{entry}", bytes([number]) * 500):
                return False
            store.get("bodies", f"{(number + 1) % 4}-{entry}")
        return True

    pids = []
    for number in range(4):
        pid = os.fork()
        if pid == 0:
            os._exit(0 if job(number) else 1)
        pids.append(pid)
    assert [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids] == [0, 0, 0, 0]
    assert all(
        store.get("bodies", f"{number}-{entry}") == bytes([number]) * 500
        for number in range(4)
        for entry in range(200)
    )


def test_after_a_build_the_cache_folder_holds_one_database(tmp_path, monkeypatch):
    """The command line passes its cache folder to the build (--cache, else $SITEGEN_CACHE),
    never writing it into the environment; the build leaves one database there (the locks
    are beside the output folder, not in the cache)."""
    from sitegen import cli

    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    content = write_project(tmp_path)
    given = tmp_path / "given"
    assert (
        cli.main(["--content", str(content), "--out", str(tmp_path / "out"), "--cache", str(given), "-q"])
        == 0
    )
    assert sorted(os.listdir(given)) == [FILE]
    assert "SITEGEN_CACHE" not in os.environ
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "from-env"))
    assert cli.main(["--content", str(content), "--out", str(tmp_path / "out2"), "-q"]) == 0
    assert sorted(os.listdir(tmp_path / "from-env")) == [FILE]
    assert os.environ["SITEGEN_CACHE"] == str(tmp_path / "from-env")
    assert not CACHE.samefile(given) and TEMPLATES.is_dir()


def test_a_store_in_a_relative_folder_opens(tmp_path, monkeypatch):
    """A cache folder given relative to the current folder (as an API caller may give it)."""
    monkeypatch.chdir(tmp_path)
    store = Store(Path("cache"))
    assert store.put("versions", "k", b"v")
    store.close()
    again = Store(Path("cache"))  # the database is there now: checked as this program's, then read
    assert again.get("versions", "k") == b"v"
    again.close()
    assert (tmp_path / "cache" / "store.sqlite").is_file()


def test_the_code_digest_reads_the_library_versions_once_per_store(tmp_path):
    """Every parse and chart asks for the code digest: the versions come from the store once."""
    from sitegen.base import cache

    store = Store(tmp_path / "cache")
    asked: list = []
    real = store.get
    store.get = lambda table, key: asked.append(table) or real(table, key)  # type: ignore[method-assign]
    digests = {cache.code_digest(store) for _ in range(50)}
    assert digests == {cache.code_digest(None)} and asked.count(cache.VERSIONS) == 1
    store.close()
