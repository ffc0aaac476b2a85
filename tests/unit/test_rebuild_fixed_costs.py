"""The fixed costs of a rebuild that renders one page: a shard of the search index joined once
(search.search_shard), the kept search entries of a shard's units only read back, in one
query (units.read_back), and not hashed again unless verifying (units.recalled), the warnings
written at once (commands._say), a site's languages iterated without a tuple an item."""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import nullcontext
from pathlib import Path
from types import SimpleNamespace

import pytest

from sitegen.assemble import state_store, units
from sitegen.assemble.state import docs_sum
from sitegen.base.errors import Problem
from sitegen.base.languages import Languages
from sitegen.base.store import Store
from sitegen.render.search import search_entry_script, search_shard

ROOT = Path(__file__).resolve().parents[2]

PARTS = b'window.SEARCH_PARTS_BY_LANG = window.SEARCH_PARTS_BY_LANG || {};\n'
SLOT = b'window.SEARCH_PARTS_BY_LANG["en"]'
SHARDS = b'window.SEARCH_SHARDS_BY_LANG = window.SEARCH_SHARDS_BY_LANG || {};\nwindow.SEARCH_SHARDS_BY_LANG["en"] = '


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_shard_is_its_documents_by_url_a_comma_between_two(count):
    docs = [(f"en/p{i}.html", json.dumps({"url": f"en/p{i}.html"}).encode()) for i in range(count)]
    script = search_shard("en", 2, 4, docs[::-1])["assets/search-en-2.js"]
    listed = b",".join(text for _, text in docs)
    head = b"/* Search index of the en pages, shard 3 of 4, written by sitegen/render/search.py. */\n"
    slot = SLOT + b" = " + SLOT + b" || {};\n" + SLOT + b"[2] = ["
    assert script == head + PARTS + slot + listed + b"];\n"


@pytest.mark.parametrize("record", [None, b"", b'{"rows":[1]}'])
def test_the_entry_script_lists_the_shards_and_holds_the_rows(record):
    script = search_entry_script("en", 2, record)["assets/search-en.js"]
    head = (
        b"/* Search index of the en pages (the list of its shards, and the record's rows),"
        b" written by sitegen/render/search.py. */\n"
    )
    expected = head + SHARDS + b'["assets/search-en-0.js", "assets/search-en-1.js"];\n'
    if record:
        expected += (
            b"window.SEARCH_RECORD_BY_LANG = window.SEARCH_RECORD_BY_LANG || {};\n"
            b'window.SEARCH_RECORD_BY_LANG["en"] = ' + record + b";\n"
        )
    assert script == expected


def _work(stored: dict) -> SimpleNamespace:
    """A language's job as recalled reads it: the entries read back, its problems, its reads."""
    reads = SimpleNamespace(paused=nullcontext)
    return SimpleNamespace(stored=stored, docs={}, problems=[], site=SimpleNamespace(reads=reads))


def _none(wanted: dict) -> dict:
    return {}


def test_kept_entries_are_taken_unhashed_and_a_verified_one_of_another_digest_stops_the_build():
    key, kept, other = ("en", "report", "a"), [("en/a.html", b"{}")], [("en/a.html", b'{"a":1}')]
    work = _work({key: kept})
    made = []
    # taken as read back (load_entries checked their digest then), not hashed again
    assert units.recalled(work, key, b"any", lambda: made.append(1) or other, _none, False) == kept
    assert not made
    # verifying: made again and compared, and their digest checked
    assert units.recalled(work, key, docs_sum(kept), lambda: kept, _none, True) == kept
    with pytest.raises(RuntimeError, match="not those its digest names"):
        units.recalled(work, key, docs_sum(other), lambda: kept, _none, True)
    # none kept: made again
    assert units.recalled(_work({}), key, docs_sum(other), lambda: other, _none, False) == other


def test_a_shards_entries_are_read_back_in_one_query_once(tmp_path):
    """read_back asks the store once for the units not read back nor made yet; recalled then
    takes them without another query, and a unit not kept is asked for once."""
    store = Store(tmp_path / "cache")
    docs = {("en", "report", k): [(f"en/{k}.html", b'{"k":"%s"}' % k.encode())] for k in "abc"}
    state_store.save_entries(store, "out", "en", docs, whole=True)
    asked: list = []

    def load(wanted: dict) -> dict:
        asked.append(sorted(wanted))
        return state_store.load_entries(store, "out", "en", wanted)

    work = _work({})
    work.docs[("en", "report", "c")] = docs[("en", "report", "c")]  # made now
    digests = {key: docs_sum(entries) for key, entries in docs.items()}
    missing = ("en", "report", "d")
    units.read_back(work, {**digests, missing: b"d"}, load)
    assert asked == [[("en", "report", "a"), ("en", "report", "b"), missing]]
    units.read_back(work, digests, load)
    assert len(asked) == 1
    key = ("en", "report", "a")
    assert units.recalled(work, key, digests[key], list, load, False) == docs[key]
    assert units.recalled(work, missing, b"d", lambda: [b"made"], load, False) == [b"made"]
    assert len(asked) == 1
    store.close()


def test_a_job_is_stale_only_where_a_unit_of_the_language_is():
    from sitegen.assemble.jobs import DATA, PAGES, stale_in

    reuse = SimpleNamespace(stale={("zh", "report", "a"), ("en", "data", "v1.0")})
    assert stale_in(reuse, "zh", PAGES) and not stale_in(reuse, "en", PAGES)
    assert stale_in(reuse, "en", DATA) and not stale_in(
        SimpleNamespace(stale={("zh", "report", "a")}), "en", DATA
    )
    assert not stale_in(None, "zh", PAGES)


def test_the_warnings_are_written_each_on_a_line_at_once(capsys):
    from sitegen import commands

    commands._say([Problem("a.md", 3, "one", True), Problem("b.md", None, "two")])
    commands._say([])
    assert capsys.readouterr().err == "a.md:3: warning: one\nb.md: two\n"


def test_a_sites_languages_iterate_as_their_codes():
    langs = Languages.default()
    assert list(langs) == list(langs.codes()) == [langs[i] for i in range(len(langs))]
    assert langs[0] in langs and "xx" not in langs


def test_kept_parses_are_found_by_the_builds_scan_without_the_files_status_asked_again(tmp_path, monkeypatch):
    import hashlib

    from sitegen.base import cache
    from sitegen.base.errors import Problems
    from sitegen.content.parsecache import ParseCache

    path = tmp_path / "a.md"
    path.write_text("text", "utf-8")
    store = Store(tmp_path / "cache")
    scanned = {path: hashlib.sha256(b"text").hexdigest()}
    parsed = ParseCache([path]).parse(
        "k", path, Problems(tmp_path, store=store, scanned=scanned), lambda: "one"
    )
    assert parsed == "one"  # parsed, and kept: its bytes are still the scan's

    asked: list = []
    digests = cache.file_digests
    monkeypatch.setattr(
        cache, "file_digests", lambda paths, store=None: asked.append(list(paths)) or digests(paths, store)
    )
    again = ParseCache([path]).parse(
        "k", path, Problems(tmp_path, store=store, scanned=scanned), lambda: "two"
    )
    assert again == "one" and asked == []  # taken by the scan's digest
    # a file changed since the scan: parsed now, and not kept under the scan's digest
    path.write_text("changed", "utf-8")
    stale = {path: hashlib.sha256(b"other").hexdigest()}
    assert (
        ParseCache([path]).parse("k", path, Problems(tmp_path, store=store, scanned=stale), lambda: "three")
        == "three"
    )
    assert asked == [[path]]  # its bytes hashed after the parse, to be kept only if they are the scan's
    assert (
        ParseCache([path]).parse("k", path, Problems(tmp_path, store=store, scanned=stale), lambda: "four")
        == "four"
    )
    # without a scan, each file's status is asked as before
    assert ParseCache([path]).parse("k", path, Problems(tmp_path, store=store), lambda: "five") == "five"
    store.close()


def test_the_scan_finds_what_rglob_finds(tmp_path):
    """cache._entries walks a folder once per folder: every entry rglob("*") gives (hidden ones,
    links to nothing, a loop of links, a FIFO), linked folders not entered, nothing of
    __pycache__; the scan's odd entries and files are as they were."""
    import os

    from sitegen.base import cache

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.md").write_text("f", "utf-8")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x").write_text("x", "utf-8")
    (tmp_path / "c" / "__pycache__").mkdir(parents=True)
    (tmp_path / "c" / "__pycache__" / "m.pyc").write_bytes(b"")
    (tmp_path / "c" / "__pycache__x").write_text("kept", "utf-8")
    (tmp_path / "linked").symlink_to(tmp_path / "a")
    (tmp_path / "nothing").symlink_to(tmp_path / "gone")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    os.mkfifo(tmp_path / "fifo")
    expected = sorted(p for p in tmp_path.rglob("*") if "__pycache__" not in p.parts)
    assert sorted(cache._entries(tmp_path)) == expected
    assert tmp_path / "linked" / "b" not in expected  # a linked folder is not entered
    found, odd = cache._walk(tmp_path)
    assert sorted(path.name for path, _ in found) == ["__pycache__x", "f.md", "x"]
    assert [(path.name, what.split()[0]) for path, what in odd] == [
        ("fifo", "kind"),
        ("loop", "unreadable"),
        ("nothing", "unreadable"),
    ]
    assert list(cache._entries(tmp_path / "c" / "__pycache__")) == []


def test_jobs_named_here_run_in_this_process_while_the_others_run_in_theirs():
    """In a process of its own: a test worker runs threads beside its tests, and a process with
    other threads never forks (forking._other_threads)."""
    code = (
        "import json, os\n"
        "from sitegen.assemble import forking\n"
        "assert forking.fork_safe()\n"
        "pids = forking.in_forked_processes(lambda job: os.getpid(), ['a', 'b', 'c', 'd'], None, {1, 3})\n"
        "print(json.dumps([os.getpid(), *pids]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    me, *pids = json.loads(done.stdout)
    assert pids[1] == pids[3] == me
    assert me not in (pids[0], pids[2]) and pids[0] != pids[2]


def test_light_jobs_are_those_after_the_first_without_a_stale_unit():
    from sitegen.assemble.jobs import DATA, PAGES, light

    jobs = [(None, None, None, "en", "", None, PAGES, ()), (None, None, None, "zh", "", None, PAGES, ())]
    jobs.append((None, None, None, "en", "", None, DATA, ()))

    def of(*stale) -> set:
        return light(jobs, SimpleNamespace(reuse=SimpleNamespace(stale=set(stale))))

    assert of(("en", "report", "a")) == {1, 2}  # a report edit: the other language and the data
    assert of(("en", "report", "a"), ("en", "data", "v1")) == {1}  # the data's units stale too
    assert of(("zh", "report", "a")) == {2}  # the first job has a process of its own
    assert of(("zh", "search-rows", 0), ("en", "data")) == set()
    assert of() == {1, 2}
    assert light(jobs, SimpleNamespace(reuse=None)) == light(jobs, None) == set()  # nothing to reuse


def test_a_rebuilds_stale_jobs_share_the_cores_and_the_first_runs_here(monkeypatch):
    """On a rebuild that renders little, the jobs with stale units go to at most one process a
    core, the most stale first to the least loaded; the first share runs in this process, as
    do the light jobs. From no last state, or when much is stale, a job a process."""
    from sitegen.assemble import jobs as jobs_module
    from sitegen.assemble.jobs import DATA, PAGES, shares

    monkeypatch.setattr(jobs_module.os, "cpu_count", lambda: 2)
    jobs = [(None, None, None, lang, "", None, PAGES, ()) for lang in ("en", "zh", "zh-hant")]
    jobs.append((None, None, None, "en", "", None, DATA, ()))
    units = {("x", str(n)): None for n in range(100)}

    def of(*stale):
        return shares(
            jobs, SimpleNamespace(reuse=SimpleNamespace(stale=set(stale), state=SimpleNamespace(units=units)))
        )

    # a result edit: a unit of every language and of the data; en's two units weigh most
    each, here = of(
        ("en", "report", "a"),
        ("en", "system", "b"),
        ("zh", "report", "a"),
        ("zh-hant", "report", "a"),
        ("en", "data"),
    )
    assert each == [[0, 3], [1, 2]]  # en (2) + data (1), zh (1) + zh-hant (1)
    assert here == {0}  # the first share here, the other in its process
    # a report edit: only en is busy; it runs here, with the light jobs
    each, here = of(("en", "report", "a"))
    assert each == [[0], [1], [2], [3]] and here == {0, 1, 2, 3}
    # two busy jobs: en here, zh in its process, the light ones here
    each, here = of(("en", "report", "a"), ("zh", "report", "a"))
    assert each == [[0], [1], [2], [3]] and here == {0, 2, 3}
    # much stale (a quarter of the units), or no last state: a job a process, none here
    many = [("en", "report", str(n)) for n in range(26)]
    assert of(*many) == ([[0], [1], [2], [3]], set())
    assert shares(jobs, SimpleNamespace(reuse=None)) == shares(jobs, None) == ([[0], [1], [2], [3]], set())


def test_claim_findings_kept_and_new_share_each_message_once_saved(tmp_path):
    """save_claims takes the kept findings as loaded (one object a message already) and makes
    the new ones' messages those objects: loaded again, every finding of a message is one string."""
    from sitegen.assemble.words import KnownClaims, load_claims, save_claims

    store = Store(tmp_path / "cache")
    message = "a claim word outside a reference: 'fastest'"
    first = KnownClaims("code", {})
    first.new = {b"a": [(1, "".join(message)), (2, "".join(message))], b"b": [(3, "other")]}
    save_claims(store, "out", first, set(), first.new)
    again = load_claims(store, "out", "code")
    assert again.known[b"a"][0][1] is again.known[b"a"][1][1]
    save_claims(store, "out", again, {b"a"}, {b"c": [(4, "".join(message)), (5, "new")]})
    last = load_claims(store, "out", "code")
    assert set(last.known) == {b"a", b"c"}
    texts = [text for items in last.known.values() for _, text in items if text == message]
    assert len(texts) == 3 and all(text is texts[0] for text in texts)
    store.close()


def test_the_words_warnings_found_beside_are_said_where_a_load_says_them():
    from sitegen.assemble import pipeline

    load, rendering = Problem("a.md", 1, "load", True), Problem("en/x.html", None, "render", True)
    site = SimpleNamespace(warnings=[load, rendering])
    rendered = pipeline._Rendered(
        None, {}, {}, rows=[("b.md", 2, "word", True), ("c.md", 3, "other", True)], said=1
    )
    pipeline._words_said(site, rendered)
    assert site.warnings == [
        load,
        Problem("b.md", 2, "word", True),
        Problem("c.md", 3, "other", True),
        rendering,
    ]
    pipeline._words_said(site, rendered)  # said once
    assert len(site.warnings) == 4 and rendered.rows == []
