"""A language's search index in shards (render/search.py, assemble/end_units.py): an entry
script listing them, each shard a unit whose documents are those of the units that fall in it.
A report edit writes its shard again and takes every other file of the index as it was; the
shards together hold every document once; a site built with fewer shards than the last build
leaves none of the others behind; search in Chromium finds a document of every shard.

The record project has 29 documents a language: SHARD_DOCS = 2 makes eight shards."""

from __future__ import annotations

import ast
import re

import pytest
from test_bad_input import tree_digest

from sitegen.assemble import end_units
from sitegen.assemble.manifest import output_key
from sitegen.assemble.pipeline import build
from sitegen.assemble.state import INDEX
from sitegen.assemble.state_store import SEP, load_state
from sitegen.base.store import Store
from sitegen.render import search

from project import TEMPLATES
from record_sample import write_record_project
from search_files import search_docs, search_files, search_shards, shard_files

CJK = re.compile("[\u4e00-\u9fff]")
SMALL = 2  # documents a shard holds at the least (search.SHARD_DOCS), on average
DEFAULT = search.SHARD_DOCS


def test_a_shard_holds_128_to_256_documents_on_average_and_a_small_site_one():
    assert [search.shard_count(n) for n in (0, 1, 255, 256, 511, 512, 1500, 4096)] == [
        1,
        1,
        1,
        2,
        2,
        4,
        8,
        32,
    ]
    counts = [search.shard_count(n) for n in range(0, 5000, 7)]
    assert counts == sorted(counts) and all(count & (count - 1) == 0 for count in counts)


def test_a_units_shard_is_its_key_less_the_language():
    keys = [("report", f"r{i}") for i in range(200)]
    shards = [end_units.shard_of(("en", *key), 8) for key in keys]
    assert shards == [end_units.shard_of(("zh-hant", *key), 8) for key in keys]
    assert set(shards) == set(range(8))  # spread over all of them


def _built(folder, cache, monkeypatch, per_shard: int = SMALL):
    monkeypatch.setattr(search, "SHARD_DOCS", per_shard)
    content, out = write_record_project(folder / "p"), folder / "out"
    build(content, TEMPLATES, out, cache=cache)
    return content, out


def _edit_report(content, sentence: str) -> None:
    report = content / "reports/acme-vs-zenith.en.md"
    text = report.read_text("utf-8")
    report.write_text(text.replace("\n## ", f"\n{sentence}\n\n## ", 1), "utf-8")


def _inodes(out) -> dict[str, int]:
    return {
        path.relative_to(out).as_posix(): path.stat().st_ino
        for lang in ("en", "zh")
        for path in search_files(out, lang)
    }


def test_the_shards_hold_every_document_once(tmp_path, warm_cache, monkeypatch):
    _, out = _built(tmp_path / "sharded", warm_cache, monkeypatch)
    _, whole = _built(tmp_path / "whole", warm_cache, monkeypatch, per_shard=DEFAULT)
    for lang in ("en", "zh"):
        shards = search_shards(out, lang)
        assert len(shards) == 8 and all(shards), [len(shard) for shard in shards]
        urls = [doc["url"] for shard in shards for doc in shard]
        assert len(urls) == len(set(urls))
        assert len(search_shards(whole, lang)) == 1
        assert search_docs(out, lang) == search_docs(whole, lang)


def test_a_report_edit_writes_one_shard_and_takes_the_rest(tmp_path, warm_cache, warm_copy, monkeypatch):
    """Checked by SITEGEN_VERIFY_REUSE too: each shard taken is made again and compared."""
    monkeypatch.setenv("SITEGEN_VERIFY_REUSE", "1")
    content, out = _built(tmp_path, warm_cache, monkeypatch)
    before = _inodes(out)
    _edit_report(content, "A sentence only the report's shard holds.")
    again = build(content, TEMPLATES, out, cache=warm_cache)
    assert again.units_rendered == 1
    after = _inodes(out)
    assert after.keys() == before.keys()
    written = sorted(path for path in after if after[path] != before[path])
    [shard] = [path for path in written if path.startswith("assets/search-en-")]
    assert written == [shard]
    assert "A sentence only the report's shard holds." in (out / shard).read_text("utf-8")
    cold = tmp_path / "cold"
    build(content, TEMPLATES, cold, cache=warm_copy(tmp_path / "cold-cache"))
    assert tree_digest(out) == tree_digest(cold)


def test_a_report_edit_reads_back_its_shards_entries_only_and_keeps_its_units_only(
    tmp_path, warm_cache, warm_copy, monkeypatch
):
    """The kept search entries are an entry per unit (state_store.save_entries): a report edit
    reads back, in one query, those of the other units of its shard, no other, and writes those
    of the one unit it rendered, no other."""
    monkeypatch.delenv("SITEGEN_VERIFY_REUSE", raising=False)  # (which reads every shard's)
    content, out = _built(tmp_path, warm_cache, monkeypatch)
    state = load_state(Store(warm_cache), output_key(out))
    assert state is not None
    reads, writes = _entries_calls(monkeypatch)
    _edit_report(content, "A sentence only the report's shard holds.")
    again = build(content, TEMPLATES, out, cache=warm_cache)
    assert again.units_rendered == 1
    [(written, gone, prefix)] = writes
    [report] = [_unit(key) for key in written]
    assert report[:2] == ("en", "report") and gone == [] and prefix is None
    shard = end_units.shard_of(report, 8)
    pages = {
        key
        for key, unit in state.units.items()
        if key[0] == "en" and unit.sum and key[1] not in (INDEX, "search-rows")
    }
    assert len(pages) == 29  # the shards' units
    others = sorted(key for key in pages if end_units.shard_of(key, 8) == shard and key != report)
    assert others and [sorted(map(_unit, keys)) for keys in reads] == [others]
    cold = tmp_path / "cold"
    build(content, TEMPLATES, cold, cache=warm_copy(tmp_path / "cold-cache"))
    assert tree_digest(out) == tree_digest(cold)


def _entries_calls(monkeypatch) -> tuple[list, list]:
    """The keys of each read of table `entries` (get_many) from now on, and of each write
    (put_many: the keys written, those deleted, the prefix deleted); the store works as before."""
    reads: list = []
    writes: list = []
    get_many, put_many = Store.get_many, Store.put_many

    def reading(store, table, keys):
        keys = list(keys)
        if table == "entries":
            reads.append(keys)
        return get_many(store, table, keys)

    def writing(store, table, entries, gone=(), prefix=None):
        if table == "entries":
            writes.append((list(entries), list(gone), prefix))
        return put_many(store, table, entries, gone, prefix)

    monkeypatch.setattr(Store, "get_many", reading)
    monkeypatch.setattr(Store, "put_many", writing)
    return reads, writes


def _unit(key: str) -> tuple:
    """The unit key an entry of table `entries` is of."""
    return ast.literal_eval(key.rsplit(SEP, 1)[1])


def test_fewer_shards_than_the_last_build_leave_none_behind(tmp_path, warm_cache, warm_copy, monkeypatch):
    content, out = _built(tmp_path, warm_cache, monkeypatch)
    assert len(list((out / "assets").glob("search-en-*.js"))) == 8
    monkeypatch.setattr(search, "SHARD_DOCS", 4 * SMALL)  # two shards
    _edit_report(content, "One more sentence.")
    build(content, TEMPLATES, out, cache=warm_cache)
    for lang in ("en", "zh"):
        files = sorted(path.name for path in (out / "assets").glob(f"search-{lang}-[0-9]*.js"))
        listed = sorted(path.name for path in shard_files(out, lang))
        assert files == listed == [f"search-{lang}-0.js", f"search-{lang}-1.js"]
    cold = tmp_path / "cold"
    build(content, TEMPLATES, cold, cache=warm_copy(tmp_path / "cold-cache"))
    assert tree_digest(out) == tree_digest(cold)


# --- in Chromium --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sharded_site(tmp_path_factory):
    from project import CACHE

    folder = tmp_path_factory.mktemp("sharded")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "SHARD_DOCS", SMALL)
        build(write_record_project(folder / "p"), TEMPLATES, folder / "out", cache=CACHE)
    return folder / "out"


def _found(page, query: str) -> list[str]:
    """The links the search lists for `query`, once its count (which names the query) shows."""
    page.locator("input[type=search]").fill(query)
    page.wait_for_function(
        "query => (document.querySelector('[data-search-results] .search-status') || {}).textContent"
        " && document.querySelector('[data-search-results] .search-status').textContent.includes(query)"
        " && document.querySelector('[data-search-results] a')",
        arg=query,
    )
    return page.locator("[data-search-results] a").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_search_finds_a_document_of_every_shard(page, sharded_site, lang):
    page.goto((sharded_site / lang / "index.html").as_uri())
    shards = search_shards(sharded_site, lang)
    for shard in shards:
        assert f"../{shard[0]['url']}" in _found(page, shard[0]["title"]), shard[0]["title"]
    loaded = page.evaluate(f"window.SEARCH_DOCS_BY_LANG[{lang!r}].length")
    assert loaded == sum(len(shard) for shard in shards)


def test_a_chinese_query_on_an_english_page_loads_every_chinese_shard(page, sharded_site):
    page.goto((sharded_site / "en" / "index.html").as_uri())
    shards = search_shards(sharded_site, "zh")
    doc = next(doc for shard in shards[::-1] for doc in shard if CJK.search(doc["title"]))
    assert f"../{doc['url']}" in _found(page, doc["title"])
    assert page.evaluate("Object.keys(window.SEARCH_DOCS_BY_LANG).sort()") == ["en", "zh"]
    assert page.evaluate("window.SEARCH_DOCS_BY_LANG.zh.length") == sum(len(shard) for shard in shards)
