"""The state of an output folder's last build in the store (sitegen/assemble/state_store.py):
a base and the changes since it; a rebuild writes only its changes, and what is loaded is the
state that was saved, however many rebuilds wrote changes since the base."""

from __future__ import annotations

import marshal
import pickle

from sitegen.assemble import state as deps
from sitegen.assemble import state_store
from sitegen.assemble.state_store import load_state, save_state
from sitegen.base.store import FILE, Store

A, B, C, D = ((("rec", "t", name), "x") for name in "abcd")


def _first(store: Store) -> deps.State:
    """A state saved whole (a first build): three units, three keys."""
    units = {
        f"u{i}": (deps.Unit({f"u{i}.html": str(i)}, {dep}, deps.docs_sum([f"doc {i}"])), True)
        for i, dep in enumerate((A, B, C))
    }
    values = {A: 1, B: 2, C: 3}
    state = deps.next_state("in", None, None, None, units, lambda tag, key: values.get((tag, key), 0))
    save_state(store, "out", state)
    return state


def _plain(state: deps.State) -> tuple:
    units = {key: (u.files, state.indexes(u), u.sum, u.hidden, u.problems) for key, u in state.units.items()}
    return state.inputs, units, state.keys, state.hashes, state.whole, state.live, state.tags


def _rebuilt(store: Store, values: dict, fresh: dict, dropped=()) -> deps.State:
    """The next build: the units in `fresh` rendered again (reading those keys), those in
    `dropped` gone, the others reused; saved, then loaded again as the build after it would."""
    old = load_state(store, "out")
    assert old is not None
    value = lambda tag, key: values.get((tag, key), 0)  # noqa: E731
    _stale, hashes, whole = deps.stale_units(old, value)
    units = {key: (unit, False) for key, unit in old.units.items() if key not in fresh and key not in dropped}
    units.update((key, (deps.Unit({f"{key}.html": "new"}, reads), True)) for key, reads in fresh.items())
    state = deps.next_state("in", old, hashes, whole, units, value)
    save_state(store, "out", state)
    return state


def test_a_rebuild_writes_its_changes_and_the_state_loads_as_saved(tmp_path, monkeypatch):
    monkeypatch.setattr(state_store, "REBASE_AT", 1.0)  # a base kept while the changes are up to all
    store = Store(tmp_path)
    _first(store)
    base = store.get("units", "out")
    saved = _rebuilt(store, {A: 1, B: 20, C: 3}, {"u1": {B, D}})  # B moved, D new, u1 rendered
    assert store.get("units", "out") == base  # the base as it was: only the changes written
    assert _plain(load_state(store, "out")) == _plain(saved)
    loaded = load_state(store, "out")
    assert loaded.keys == [A, B, C, D] and loaded.hashes[1] == deps.fingerprint(20)
    assert loaded.units["u1"].files == {"u1.html": "new"} and loaded.indexes(loaded.units["u1"]) == [1, 3]
    assert loaded.units["u0"].sum == deps.docs_sum(["doc 0"])  # a reused unit, from the base
    again = _rebuilt(store, {A: 10, B: 20, C: 3}, {"u3": {A}}, dropped=["u2"])  # the changes pile up
    assert _plain(load_state(store, "out")) == _plain(again)
    assert set(load_state(store, "out").units) == {"u0", "u1", "u3"}


def test_the_base_is_written_again_when_the_changes_grow(tmp_path, monkeypatch):
    store = Store(tmp_path)
    _first(store)
    monkeypatch.setattr(state_store, "REBASE_AT", 0.5)  # at most one unit of three changed
    before = store.get("units", "out")
    _rebuilt(store, {A: 1, B: 2, C: 3}, {"u1": {B}})
    assert store.get("units", "out") == before
    saved = _rebuilt(store, {A: 1, B: 2, C: 3}, {"u2": {C}})  # two units changed since the base
    assert store.get("units", "out") != before
    assert _plain(load_state(store, "out")) == _plain(saved)


def test_changes_of_another_base_or_a_base_without_its_changes_are_no_state(tmp_path):
    store = Store(tmp_path)
    _first(store)
    _rebuilt(store, {A: 1, B: 20, C: 3}, {"u1": {B}})
    changes = store.get("units", "out" + state_store.DELTA)
    _first(store)  # a new base (another id), with its own changes
    store.put("units", "out" + state_store.DELTA, changes)
    assert load_state(store, "out") is None
    store.delete("units", "out" + state_store.DELTA)
    assert load_state(store, "out") is None
    assert (tmp_path / FILE).is_file()


def _docs(*names: str, text: bytes = b"") -> dict:
    return {
        ("en", "report", k): [(f"en/reports/{k}.html", b'{"url":"%s"}' % k.encode() + text)] for k in names
    }


def _wanted(docs: dict) -> dict:
    return {key: deps.docs_sum(entries) for key, entries in docs.items()}


def test_search_entries_are_kept_per_unit_and_read_back_only_as_their_digest_names(tmp_path):
    """A unit's search entries are an entry of their own in table `entries`, not in the state:
    read back only for the units asked, and only when they digest to the unit's digest now
    (another build's, another format's, a damaged one: left out, so made again: end_units.py)."""
    store = Store(tmp_path)
    _first(store)
    docs = _docs("a", "b", "c")
    assert state_store.save_entries(store, "out", "en", docs, whole=True)
    assert b"reports/a.html" not in store.get("units", "out")  # not in the state's base
    assert state_store.load_entries(store, "out", "en", _wanted(docs)) == docs
    some = {key: docs[key] for key in list(docs)[:2]}
    assert state_store.load_entries(store, "out", "en", _wanted(some)) == some  # only those asked
    assert state_store.load_entries(store, "out", "zh", _wanted(docs)) == {}  # none kept
    assert state_store.load_entries(store, "other", "en", _wanted(docs)) == {}
    other = _docs("a", text=b" ")  # the unit's entries now are others: the kept ones are not taken
    assert state_store.load_entries(store, "out", "en", _wanted(other)) == {}
    a_key = state_store.entries_key("out", "en", ("en", "report", "a"))
    store.put("entries", a_key, b"not a pickle")
    b_key = state_store.entries_key("out", "en", ("en", "report", "b"))
    store.put("entries", b_key, pickle.dumps((state_store.ENTRIES_FORMAT + 1, docs[("en", "report", "b")])))
    assert state_store.load_entries(store, "out", "en", _wanted(docs)) == {k: docs[k] for k in list(docs)[2:]}


def test_a_rebuild_writes_the_entries_of_its_units_and_deletes_those_gone(tmp_path):
    """save_entries writes only the units given (none for a unit without entries), deletes
    those of the units gone, and, for a language rendered whole, every other of the language."""
    store = Store(tmp_path)
    docs = _docs("a", "b", "c")
    state_store.save_entries(store, "out", "en", docs, whole=True)
    state_store.save_entries(store, "out", "zh", {("zh", "report", "a"): [b"zh"]}, whole=True)
    writes = _counted_puts(store)
    again = _docs("a", text=b" again")
    state_store.save_entries(
        store, "out", "en", {**again, ("en", "report", "d"): []}, [("en", "report", "b")]
    )
    assert [list(entries) for entries, *_ in writes] == [
        [state_store.entries_key("out", "en", ("en", "report", "a"))]
    ]
    assert state_store.load_entries(store, "out", "en", _wanted({**docs, **again})) == {
        **again,
        ("en", "report", "c"): docs[("en", "report", "c")],
    }
    state_store.save_entries(store, "out", "en", {}, ())  # nothing to write: nothing written
    assert len(writes) == 1
    state_store.save_entries(store, "out", "en", _docs("e"), whole=True)  # a cold build's
    assert state_store.load_entries(store, "out", "en", _wanted({**docs, **again})) == {}
    assert state_store.load_entries(store, "out", "en", _wanted(_docs("e"))) == _docs("e")
    assert state_store.load_entries(store, "out", "zh", {("zh", "report", "a"): deps.docs_sum([b"zh"])})


def _counted_puts(store: Store) -> list:
    calls: list = []
    real = store.put_many

    def counting(table, *args, **kwargs):
        if table == "entries":
            calls.append(args)
        return real(table, *args, **kwargs)

    store.put_many = counting  # type: ignore[method-assign]
    return calls


def test_a_units_digest_of_its_search_entries_moves_with_each_of_them():
    """Unit.sum: equal entries give equal digests however they are split or typed; any
    change of a url, a text or their order gives another; none gives b"" (nothing to read)."""
    docs = [("en/a.html", b'{"a":1}'), ("en/b.html", b'{"b":2}')]
    assert deps.docs_sum([]) == b""
    assert deps.docs_sum(docs) == deps.docs_sum([tuple(doc) for doc in docs]) != b""
    assert deps.docs_sum(docs) != deps.docs_sum(docs[::-1])
    assert deps.docs_sum(docs) != deps.docs_sum([("en/a.html", b'{"a":2}'), docs[1]])
    assert deps.docs_sum(docs) != deps.docs_sum([("en/a.htm", b'l{"a":1}'), docs[1]])
    assert deps.docs_sum([b"rows"]) != deps.docs_sum([b"row", b"s"])


def test_a_record_with_dates_fingerprints_as_its_dates():
    """A record's own dates (a report's front matter) are fingerprinted with the rest of it:
    another date, or a datetime for the date, is another fingerprint; the same, the same."""
    import datetime as dt

    meta = {"title": "A", "date": dt.date(2024, 5, 1), "tags": ["x"]}
    assert deps.record_fingerprint(meta) == deps.record_fingerprint(dict(meta))
    assert deps.record_fingerprint(meta) != deps.record_fingerprint({**meta, "date": dt.date(2024, 5, 2)})
    assert deps.record_fingerprint(meta) != deps.record_fingerprint({**meta, "date": dt.datetime(2024, 5, 1)})
    assert deps.record_fingerprint(meta) != deps.record_fingerprint({**meta, "date": "2024-05-01"})
    assert deps.record_fingerprint(meta) != deps.record_fingerprint({**meta, "tags": ["y"]})


def test_a_manifest_reads_back_and_one_of_another_format_is_none(tmp_path):
    """The manifest (assemble/manifest.py) reads back as written; an entry of another format
    (the JSON one before it) or shape is no manifest: every page is rendered."""
    from sitegen.assemble.manifest import load_manifest, output_key, save_manifest

    out = tmp_path / "out"
    (out / "en").mkdir(parents=True)
    (out / "en" / "index.html").write_bytes(b"<p>")
    store = Store(tmp_path / "cache")
    save_manifest(store, out, "inputs", {"en/index.html": "abc"})
    manifest = load_manifest(store, out)
    assert (manifest.inputs, manifest.files) == ("inputs", {"en/index.html": "abc"})
    assert list(manifest.state) == ["en/index.html"] and manifest.state["en/index.html"][0] == 3
    store.put("builds", output_key(out), b'{"inputs": "inputs", "files": {}, "state": {}}')
    assert load_manifest(store, out) is None
    store.put("builds", output_key(out), marshal.dumps((2, "inputs", [], {})))
    assert load_manifest(store, out) is None


def test_a_report_fingerprints_whole_as_everything_a_page_may_read_of_it():
    """A report's whole fingerprint (its unchanged keys are then not looked at one by one)
    moves with each attribute a page may read of it, its source file's fields included, and
    with nothing else; taking it notes no read."""
    import dataclasses
    from pathlib import Path

    from sitegen.content.model import REPORT_READS, Report, SourceFile
    from sitegen.content.tracking import Reads

    source = SourceFile(Path("/c/reports/a.en.md"), "content/reports/a.en.md", "a", "en")
    report = Report("a", "en", {"title": "A"}, "Body.\n", 5, source)
    reads = Reads()
    report.tracking_identity, report.reads = ("report", "a", "en"), reads

    def whole(one: Report) -> bytes | None:
        return deps.whole_fingerprint(lambda tag, key: deps.value_of(one, key), ("report", "a", "en"))

    reads.current = set()
    before = whole(report)
    assert before is not None and reads.current == set()
    reads.current = None
    assert whole(dataclasses.replace(report, meta={"title": "B"}, tracking_identity=None)) == before
    others = {
        "body": "Body!\n",
        "body_line": 6,
        "pending": True,
        "converted": True,
        "source": dataclasses.replace(source, path=Path("/c/reports/b.en.md")),
    }
    assert set(others) == REPORT_READS
    for name, other in others.items():
        assert whole(dataclasses.replace(report, **{name: other})) != before, name
    assert whole(dataclasses.replace(report, source=dataclasses.replace(source, rel="x"))) != before
    assert whole(dataclasses.replace(report, source=None)) != before


def test_a_report_with_a_parse_key_fingerprints_whole_by_it():
    """A report whose front matter and body are a kept parse (Report.parsed: the key names
    the file's bytes, the code and the languages they are a function of) fingerprints whole by
    that key instead of hashing them: its report's and its front matter's whole fingerprints
    move with the key, the report's with each other attribute a page reads as before, and
    neither equals the fingerprint of the same report without a key (its text hashed)."""
    import dataclasses
    from pathlib import Path

    from sitegen.content.model import Report, SourceFile

    source = SourceFile(Path("/c/reports/a.en.md"), "content/reports/a.en.md", "a", "en")
    report = Report("a", "en", {"title": "A"}, "Body.\n", 5, source, parsed="k1")
    tags = ("report", "a", "en"), ("meta", "report", "a", "en")

    def whole(one: Report) -> list:
        def value(tag, key):
            return deps.value_of(one.meta if tag[0] == "meta" else one, key)

        return [deps.whole_fingerprint(value, tag) for tag in tags]

    before = whole(report)
    assert None not in before
    assert whole(dataclasses.replace(report, body="Other.\n", meta={"title": "B"})) == before
    moved = whole(dataclasses.replace(report, parsed="k2"))
    assert moved[0] != before[0] and moved[1] != before[1]
    unkept = whole(dataclasses.replace(report, parsed=""))
    assert unkept[0] != before[0] and unkept[1] != before[1]
    assert unkept[1] == deps.record_fingerprint({"title": "A"})  # its front matter hashed
    for name, other in {"body_line": 6, "pending": True, "converted": True, "source": None}.items():
        assert whole(dataclasses.replace(report, **{name: other}))[0] != before[0], name


def test_units_of_every_language_share_a_run_and_a_changed_key_finds_each_reader(tmp_path):
    """A unit's dependencies are runs (State.runs): what the same unit in every language read
    is one run, kept once, the rest of each its own, and units that read the same rest name
    the same run. stale_units finds every unit that read a changed key, through the run that
    holds it, and no other; a state saved and loaded again reads the same; a rebuild that
    renders one language again takes the others' shared run when it read all of it."""
    record = [(("rec", "r", name), "v") for name in "abcd"]  # read by every language
    said = {lang: (("strings", lang), "title") for lang in ("en", "zh")}
    values = {dep: 1 for dep in [*record, *said.values()]}
    units = {
        (lang, "page", slug): (deps.Unit({f"{lang}/{slug}.html": "x"}, {*record[:3], said[lang]}), True)
        for lang in ("en", "zh")
        for slug in ("p", "q")
    }
    units[("en", "data")] = (deps.Unit({"data.csv": "x"}, {record[3]}), True)

    def value(tag, key):
        return values.get((tag, key), 0)

    state = deps.next_state("in", None, None, None, units, value)
    shared = {unit.deps[0] for key, unit in state.units.items() if key[1] == "page"}
    assert len(shared) == 1 and all(len(state.units[key].deps) == 2 for key in units if key[1] == "page")
    assert len(state.runs) == 4  # the pages' shared run, en's and zh's own, the data's
    for key, (unit, _) in units.items():
        assert [state.keys[i] for i in state.indexes(state.units[key])] == sorted(
            unit.deps, key=state.keys.index
        )
    store = Store(tmp_path)
    save_state(store, "out", state)
    loaded = load_state(store, "out")
    assert _plain(loaded) == _plain(state) and loaded.runs == state.runs
    values[record[1]] = 2  # in the shared run: every page
    assert deps.stale_units(loaded, value)[0] == {key for key in units if key[1] == "page"}
    values[record[1]], values[said["zh"]] = 1, 2  # in zh's own run: zh's pages only
    assert deps.stale_units(loaded, value)[0] == {("zh", "page", "p"), ("zh", "page", "q")}
    values[said["zh"]], values[record[3]] = 1, 2
    assert deps.stale_units(loaded, value)[0] == {("en", "data")}
    _, hashes, whole = deps.stale_units(loaded, value)
    again = {key: (unit, False) for key, unit in loaded.units.items()}
    again[("en", "page", "p")] = (deps.Unit({"en/p.html": "y"}, {*record[:3], said["en"]}), True)
    rebuilt = deps.next_state("in", loaded, hashes, whole, again, value)
    assert rebuilt.units[("en", "page", "p")].deps == loaded.units[("en", "page", "p")].deps
    assert rebuilt.runs == loaded.runs  # no run added: the same keys read


def test_a_base_of_another_layout_or_machine_or_damaged_is_no_state(tmp_path):
    """The base's runs are arrays' bytes: one written in another layout, on a machine whose
    arrays differ (byte order, item size), or not as marshal or pickle wrote it, is no state
    (all rendered), never read as indexes."""
    import pickle

    store = Store(tmp_path)
    _first(store)
    base = state_store._loads(store.get("units", "out"))
    assert base[0] == state_store.UNITS_FORMAT and load_state(store, "out") is not None
    other = "little" if state_store.UNITS_FORMAT[1] == "big" else "big"
    for form in [(6, *state_store.UNITS_FORMAT[1:]), (7, other, 4), (7, state_store.UNITS_FORMAT[1], 8)]:
        store.put("units", "out", state_store._dumps((form, *base[1:])))
        assert load_state(store, "out") is None, form
    for blob in [b"", b"m", b"mgarbage", b"p" + pickle.dumps(base[1:]), b"x" + marshal.dumps(base)]:
        store.put("units", "out", blob)
        assert load_state(store, "out") is None, blob[:8]


def test_a_state_of_the_same_data_gives_the_wholes_of_the_data_and_other_data_hashes_them(
    tmp_path, monkeypatch
):
    """A state keeps the data digest its whole fingerprints were made at (State.data), saved and
    loaded with it. A rebuild of the same data takes the wholes of the record, the tables, the
    strings and the index from the state (a report edit hashes none of them) and hashes the
    others; a rebuild of other data, or of no known digest, hashes them all and finds the
    record that changed."""
    from sitegen.content.tracking import ALL

    rec, table, said, log = ("rec", "record", "r1"), ("table", "systems"), ("strings", "en"), ("changelog",)
    maps = {rec: {"value": 1.0}, table: {"s": 1}, said: {"title": "T"}, log: {"x": 1}}

    def value(tag, key):
        return dict(maps[tag]) if key == ALL else maps[tag].get(key, 0)

    units = {
        "page": (deps.Unit({"page.html": "1"}, {(rec, "value"), (table, "s"), (said, "title")}), True),
        "log": (deps.Unit({"log.html": "2"}, {(log, "x")}), True),
    }
    store = Store(tmp_path)
    save_state(store, "out", deps.next_state("in", None, None, None, units, value, data="d1"))
    loaded = load_state(store, "out")
    assert loaded is not None and loaded.data == "d1"
    hashed: list = []
    whole = deps.whole_fingerprint
    monkeypatch.setattr(deps, "whole_fingerprint", lambda v, tag: hashed.append(tag[0]) or whole(v, tag))

    def stale(data: str) -> set:
        hashed.clear()
        return deps.stale_units(loaded, value, data)[0]

    assert stale("d1") == set() and hashed == ["changelog"]
    maps[log]["x"] = 2
    assert stale("d1") == {"log"} and hashed == ["changelog"]
    maps[rec]["value"] = 2.0  # the record changed: its data digest too
    assert stale("d2") == {"log", "page"} and sorted(hashed) == ["changelog", "rec", "strings", "table"]
    assert stale("") == {"log", "page"} and len(hashed) == 4
