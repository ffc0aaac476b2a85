"""A rebuild does each piece of work once: the inputs digested in one pass (whose digests give
the report bodies' data key too), the stat table read once, the old output scanned once, and
the claim words of a text found once (kept for the next build), with the answers of doing
each of them afresh."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sitegen.assemble import pipeline
from sitegen.assemble.words import load_claims, save_claims
from sitegen.base import cache

from project import REPORT_EN, TEMPLATES, write_project

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


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("SITEGEN_CACHE", str(folder))
    monkeypatch.delenv(cache.READ_ONLY, raising=False)
    monkeypatch.setattr(cache, "RACY_NS", 0)  # remember files however new they are
    cache._stat_tables.clear()
    return folder


# --- the claim words of a text, found once ---------------------------------------------------


def test_claim_words_are_found_then_taken_from_the_last_build(tmp_path):
    path = tmp_path / "claims"
    first = load_claims(path, "code-1")
    assert first(FASTEST) == FASTEST_FOUND
    used, new = first.changes()
    assert used == set() and list(new.values()) == [FASTEST_FOUND]
    save_claims(path, first, used, new)

    again = load_claims(path, "code-1")
    assert again(FASTEST) == FASTEST_FOUND
    used, new = again.changes()
    assert len(used) == 1 and new == {}  # taken, not searched again


def test_claim_words_of_other_code_or_a_damaged_file_are_found_again(tmp_path):
    path = tmp_path / "claims"
    first = load_claims(path, "code-1")
    first(FASTEST)
    save_claims(path, first, *first.changes())
    other = load_claims(path, "code-2")
    assert other(FASTEST) == FASTEST_FOUND and other.changes()[1] != {}
    path.write_bytes(path.read_bytes()[:-3])
    damaged = load_claims(path, "code-1")
    assert damaged.known == {}
    assert damaged(FASTEST) == FASTEST_FOUND


def test_claim_words_keep_only_the_texts_of_the_last_build(tmp_path):
    path = tmp_path / "claims"
    first = load_claims(path, "code")
    first(FASTEST)
    save_claims(path, first, *first.changes())
    second = load_claims(path, "code")
    assert second(FIRST) == FIRST_FOUND  # FASTEST is no longer in any text
    save_claims(path, second, *second.changes())
    third = load_claims(path, "code")
    assert list(third.known.values()) == [FIRST_FOUND]


def test_claim_words_unchanged_are_not_written_again(tmp_path):
    path = tmp_path / "claims"
    first = load_claims(path, "code")
    first(FASTEST)
    save_claims(path, first, *first.changes())
    before = path.stat()
    again = load_claims(path, "code")
    again(FASTEST)
    save_claims(path, again, *again.changes())
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_rebuild_says_the_warnings_of_a_cold_build(tmp_path, monkeypatch):
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    report = "reports/acme-vs-zenith.en.md"
    content = write_project(tmp_path / "a", {report: REPORT_EN + "\nIt was the fastest system.\n"})
    pipeline.build(content, TEMPLATES, tmp_path / "out")
    (content / report).write_text(REPORT_EN + "\nIt was the first system.\n", "utf-8")
    again = pipeline.build(content, TEMPLATES, tmp_path / "out")
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cold-cache"))
    cold = pipeline.build(content, TEMPLATES, tmp_path / "cold")
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


def test_the_data_key_from_the_builds_scan_is_the_data_key_of_its_own_walk(tmp_path, own_cache):
    content = _content(tmp_path / "content")
    tree = cache.scan_tree(content, tmp_path / "content" / "reports")
    subfolders = (content / "data", content / "i18n")
    assert cache.digest_of(tree, "x", within=subfolders) == cache.tree_digest(*subfolders, extra="x")
    assert cache.data_digest(content, "code", tree) == cache.data_digest(content, "code")
    assert cache.digest_of(tree, "x") == cache.tree_digest(content, content / "reports", extra="x")
    (content / "data-old" / "a.yaml").write_text("changed", "utf-8")  # not data: the key stays
    assert cache.data_digest(content, "code", cache.scan_tree(content)) == cache.data_digest(content, "code")
    (content / "data" / "sub" / "b.yaml").write_text("changed", "utf-8")
    assert cache.data_digest(content, "code", cache.scan_tree(content)) != cache.data_digest(
        content, "code", tree
    )


def test_the_stat_table_is_read_once(tmp_path, own_cache, monkeypatch):
    content = _content(tmp_path / "content")
    cache.tree_digest(content)  # writes the table
    cache._stat_tables.clear()
    reads = []
    unseal = cache.unseal
    monkeypatch.setattr(cache, "unseal", lambda entry: reads.append(1) or unseal(entry))
    cache.scan_tree(content)
    (content / "reports" / "new.md").write_text("new", "utf-8")  # the table is written again
    cache.scan_tree(content)
    for _ in range(3):
        cache.file_digests([content / "site.yaml", content / "reports" / "new.md"])
    assert len(reads) == 1


def test_a_rebuild_scans_the_old_output_once(tmp_path, monkeypatch):
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    pipeline.build(content, TEMPLATES, out)
    (content / "reports" / "acme-vs-zenith.en.md").write_text(REPORT_EN + "\nOne more.\n", "utf-8")
    scans = []
    state = pipeline.output_state
    monkeypatch.setattr(pipeline, "output_state", lambda folder: scans.append(folder) or state(folder))
    assert not pipeline.build(content, TEMPLATES, out).skipped
    assert scans == [out.resolve()]
    assert os.listdir(out)
