"""A rebuild does each piece of work once: the inputs digested in one pass (whose digests give
the report bodies' data key too), the stat table read once, the old output scanned once, and
the claim words of a text found once (kept for the next build), with the answers of doing
each of them afresh."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from sitegen.assemble import pipeline
from sitegen.assemble.words import load_claims, save_claims
from sitegen.base import cache
from sitegen.base.store import Store

from project import REPORT_EN, ROOT, TEMPLATES, write_project

WORDING = (
    "outside a reference: a superlative, negative or comparison about the record is "
    "written with [[{kind}:...]] in its sentence (or quotes a claim with [[claim:...]]), "
    "or not at all"
)
FASTEST = "Acme ran BERT.\n\nIt was the fastest system\nof the round.\n"
FASTEST_FOUND = [(3, "'fastest' " + WORDING.format(kind="fastest"))]
FIRST = "Its first round was its best.\n"
FIRST_FOUND = [
    (1, "'best' " + WORDING.format(kind="claim")),
    (1, "'first' " + WORDING.format(kind="rounds")),
]  # sorted


def _counted(store: Store, method: str, table: str) -> list:
    """The calls of the store's `method` on `table` from now on (the store works as before)."""
    calls: list = []
    real = getattr(store, method)

    def counting(name, *args, **kwargs):
        if name == table:
            calls.append(args)
        return real(name, *args, **kwargs)

    setattr(store, method, counting)
    return calls


# --- the claim words of a text, found once ---------------------------------------------------


def test_claim_words_are_found_then_taken_from_the_last_build(own_store):
    first = load_claims(own_store, "out", "code-1")
    assert first(FASTEST) == FASTEST_FOUND
    used, new = first.changes()
    assert used == set() and list(new.values()) == [FASTEST_FOUND]
    save_claims(own_store, "out", first, used, new)

    again = load_claims(own_store, "out", "code-1")
    assert again(FASTEST) == FASTEST_FOUND
    used, new = again.changes()
    assert len(used) == 1 and new == {}  # taken, not searched again


def test_claim_words_of_other_code_or_a_damaged_file_are_found_again(own_store):
    first = load_claims(own_store, "out", "code-1")
    first(FASTEST)
    save_claims(own_store, "out", first, *first.changes())
    other = load_claims(own_store, "out", "code-2")
    assert other(FASTEST) == FASTEST_FOUND and other.changes()[1] != {}
    own_store.put("claims", "out", b"not a pickle")  # a damaged entry
    damaged = load_claims(own_store, "out", "code-1")
    assert damaged.known == {}
    assert damaged(FASTEST) == FASTEST_FOUND


def test_claim_words_keep_only_the_texts_of_the_last_build(own_store):
    first = load_claims(own_store, "out", "code")
    first(FASTEST)
    save_claims(own_store, "out", first, *first.changes())
    second = load_claims(own_store, "out", "code")
    assert second(FIRST) == FIRST_FOUND  # FASTEST is no longer in any text
    save_claims(own_store, "out", second, *second.changes())
    third = load_claims(own_store, "out", "code")
    assert list(third.known.values()) == [FIRST_FOUND]


def test_claim_words_unchanged_are_not_written_again(own_store):
    first = load_claims(own_store, "out", "code")
    first(FASTEST)
    save_claims(own_store, "out", first, *first.changes())
    writes = _counted(own_store, "put", "claims")
    again = load_claims(own_store, "out", "code")
    again(FASTEST)
    save_claims(own_store, "out", again, *again.changes())
    assert writes == []


def test_a_rebuild_says_the_warnings_of_a_cold_build(tmp_path, warm_cache, warm_copy):
    report = "reports/acme-vs-zenith.en.md"
    content = write_project(tmp_path / "a", {report: REPORT_EN + "\nIt was the fastest system.\n"})
    pipeline.build(content, TEMPLATES, tmp_path / "out", cache=warm_cache)
    (content / report).write_text(REPORT_EN + "\nIt was the first system.\n", "utf-8")
    again = pipeline.build(content, TEMPLATES, tmp_path / "out", cache=warm_cache)
    cold = pipeline.build(content, TEMPLATES, tmp_path / "cold", cache=warm_copy(tmp_path / "cold-cache"))
    said = [str(w) for w in again.warnings]
    assert said == [str(w) for w in cold.warnings]
    assert [w for w in said if "'first'" in w and report in w] and not [w for w in said if "'fastest'" in w]


# --- the inputs digested once -----------------------------------------------------------------


def _content(root: Path) -> Path:
    for name, text in {
        "site.yaml": "title: x\n",
        "data/a.yaml": "a",
        "data/sub/b.yaml": "b",
        "data-old/a.yaml": "old",  # beside data/, not in it
        "i18n/en.yaml": "en",
        "reports/r.md": "r",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    (root / "data" / "gone").symlink_to(root / "nowhere")  # neither a file nor a folder
    return root


def test_the_data_key_from_the_builds_scan_is_the_data_key_of_its_own_walk(tmp_path, own_store):
    content = _content(tmp_path / "content")
    tree = cache.scan_tree(content, tmp_path / "content" / "reports", store=own_store)
    subfolders = (content / "data", content / "i18n")
    assert cache.digest_of(tree, "x", within=subfolders) == cache.tree_digest(*subfolders, extra="x")
    assert cache.data_digest(content, "code", own_store, tree) == cache.data_digest(content, "code")
    assert cache.digest_of(tree, "x") == cache.tree_digest(content, content / "reports", extra="x")
    (content / "data-old" / "a.yaml").write_text("changed", "utf-8")  # not data: the key stays
    assert cache.data_digest(content, "code", None, cache.scan_tree(content)) == cache.data_digest(
        content, "code"
    )
    (content / "data" / "sub" / "b.yaml").write_text("changed", "utf-8")
    assert cache.data_digest(content, "code", None, cache.scan_tree(content)) != cache.data_digest(
        content, "code", None, tree
    )


def test_the_stat_table_is_read_once(tmp_path, own_store):
    content = _content(tmp_path / "content")
    cache.tree_digest(content, store=own_store)  # writes the table
    own_store.close()
    again = Store(tmp_path / "cache")  # a new build's store: it has read nothing yet
    reads, writes = (
        _counted(again, "get_value", cache.STAT_HASHES),
        _counted(again, "put_value", cache.STAT_HASHES),
    )
    cache.scan_tree(content, store=again)
    (content / "reports" / "new.md").write_text("new", "utf-8")  # the table is written again
    cache.scan_tree(content, store=again)
    for _ in range(3):
        cache.file_digests([content / "site.yaml", content / "reports" / "new.md"], again)
    assert len(reads) == 1 and len(writes) == 1
    assert cache.file_digests([content / "reports" / "new.md"], again) == {
        content / "reports" / "new.md": hashlib.sha256(b"new").hexdigest()
    }
    again.close()


# A build in a process of its own that notes each read of the output folder (Python's audit
# event os.scandir; a hook, once added, stays for the whole process, so not in the test's) by
# the folder's inode: the old output's, or the new one's once it is swapped in.
SCANNING_BUILD = """
import os, sys
from pathlib import Path
from sitegen.assemble.pipeline import build

content, templates, out, cache = (Path(a) for a in sys.argv[1:5])
where = str(out.resolve())
scans = []
sys.addaudithook(lambda event, args: scans.append(os.stat(where).st_ino) if event == "os.scandir" and str(args[0]) == where else None)
report = build(content, templates, out, cache=cache)
print(report.skipped, scans)
"""


def test_a_rebuild_scans_the_old_output_once(tmp_path, warm_cache):
    """Once, to find what the last build left; the new output is not scanned again: what the next
    build compares with is that scan's state of each file the build did not touch and a stat of
    each it wrote or linked (manifest.state_of)."""
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    pipeline.build(content, TEMPLATES, out, cache=warm_cache)
    (content / "reports" / "acme-vs-zenith.en.md").write_text(REPORT_EN + "\nOne more.\n", "utf-8")
    old = os.stat(out).st_ino
    argv = [sys.executable, "-c", SCANNING_BUILD, *map(str, (content, TEMPLATES, out, warm_cache))]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True)
    assert old != os.stat(out).st_ino  # a new output folder
    assert done.stdout.splitlines()[-1] == f"False {[old]}"
    assert os.listdir(out)
