"""Incremental builds must give exactly the bytes of a cold build."""

import os
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest
from test_bad_input import tree_digest

from sitegen.assemble import forking, pipeline
from sitegen.assemble.pipeline import build
from sitegen.base.store import FILE

from project import REPORT_EN, RESULTS_FILE, ROOT, TEMPLATES, seal_record, write_project


def test_noop_rebuild_skips_and_edits_match_a_cold_build(tmp_path, monkeypatch, warm_cache, warm_copy):
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    first = build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    assert not first.skipped and first.bodies_rendered > 0
    assert build(content, TEMPLATES, out, cache=tmp_path / 'cache').skipped

    report = content / "reports" / "acme-vs-zenith.en.md"
    report.write_text(REPORT_EN + "\nOne more sentence.\n", "utf-8")
    again = build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    assert not again.skipped
    # only the edited report's page is made again; every other page is taken as it was
    assert again.bodies_rendered == 1 and again.units_rendered == 1
    assert again.units_reused == first.units_rendered - 1

    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cold-cache"))
    cold = tmp_path / "cold"
    build(content, TEMPLATES, cold, cache=warm_copy(tmp_path / 'cold-cache'))  # no last state
    assert tree_digest(out) == tree_digest(cold)


def test_an_output_scanned_beside_the_load_is_scanned_as_in_one_process(tmp_path, monkeypatch, warm_cache):
    """A rebuild of a big output scans it in a forked process while the site loads
    (manifest.scan_beside): the scan it gets back is the one this process makes, so the same
    units are reused, a file changed since the last build is found, and the output is whole."""
    from sitegen.assemble import manifest, pipeline

    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    assert not manifest.scan_beside(tmp_path, manifest.SCAN_BESIDE_AT - 1, True)  # a small output
    assert not manifest.scan_beside(tmp_path, manifest.SCAN_BESIDE_AT, False)  # serve: no fork
    # every output scanned beside (the test process may have loaded vl-convert, which keeps its
    # own builds from forking: the scan's process draws nothing)
    monkeypatch.setattr(pipeline, "scan_beside", lambda out, files, processes: out.is_dir())
    scans: list = []
    monkeypatch.setattr(
        pipeline, "state_beside", lambda out, here, also: scans.append(out) or _beside(out, here, also)
    )
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    first = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    report = content / "reports" / "acme-vs-zenith.en.md"
    report.write_text(REPORT_EN + "\nOne more sentence.\n", "utf-8")
    (out / "en" / "index.html").write_text("changed", "utf-8")  # the scan must see it
    again = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert scans == [out] and again.units_rendered == 2 and again.units_reused == first.units_rendered - 2
    assert (out / "en" / "index.html").read_text("utf-8") != "changed"


def _beside(out, here, also):
    from sitegen.assemble import manifest

    before, loaded = manifest.state_beside(out, here, also)
    assert before == manifest.output_state(out)  # the forked process's scan, as this one's
    return before, loaded


def test_a_damaged_output_is_rebuilt(tmp_path, monkeypatch, warm_cache):
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    before = tree_digest(out)
    (out / "en" / "index.html").unlink()
    assert not build(content, TEMPLATES, out, cache=tmp_path / 'cache').skipped
    assert tree_digest(out) == before


def _body_data_keys(cache) -> set[str]:
    """The data keys the kept report bodies were made from (BodyCache.key: its first 16)."""
    with closing(sqlite3.connect(cache / FILE)) as db:
        return {key[:16] for (key,) in db.execute("SELECT key FROM bodies")}


@pytest.mark.parametrize("beside", [False, True])
def test_a_data_edit_rerenders_bodies(tmp_path, monkeypatch, warm_cache, beside):
    """...and the bodies made from the last data are dropped: once the manifest is saved, or
    (`beside`: a big output) by the process that scans the old output while the site loads."""
    if beside:  # forked even in a test worker, whose threads hold no lock the child needs
        monkeypatch.setattr(pipeline, "scan_beside", lambda out, files, processes: out.is_dir())
        monkeypatch.setattr(forking, "_other_threads", lambda: [])
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    first = _body_data_keys(tmp_path / "cache")
    assert len(first) == 1
    results = content / RESULTS_FILE  # r-acme's score and runs one minute slower, sealed again
    text = results.read_text("utf-8").replace("value: 30.0", "value: 31.0")
    results.write_text(
        text.replace("[29.0, 30.0, 30.0, 30.0, 31.0]", "[30.0, 31.0, 31.0, 31.0, 32.0]"), "utf-8"
    )
    seal_record(content)
    build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    assert "31.0分钟" in (out / "zh" / "reports" / "acme-vs-zenith.html").read_text("utf-8")
    now = _body_data_keys(tmp_path / "cache")
    assert len(now) == 1 and now != first


def test_processes_writing_their_own_files_give_the_bytes_of_one_process(tmp_path, monkeypatch, warm_copy):
    """Big sites render each language in its own process, which writes its files straight into
    the staging folder; the output must not depend on that, cold or incremental."""
    import sitegen.assemble.rendering as pipeline

    content = write_project(tmp_path / "a")
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "serial-cache"))
    build(content, TEMPLATES, tmp_path / "serial", cache=warm_copy(tmp_path / 'serial-cache'))

    monkeypatch.setattr(pipeline, "PARALLEL_MIN_REPORTS", 1)
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "parallel-cache"))
    parallel = build(content, TEMPLATES, tmp_path / "parallel", cache=warm_copy(tmp_path / 'parallel-cache'))
    assert parallel.bodies_rendered > 0 and parallel.files > 40
    assert tree_digest(tmp_path / "parallel") == tree_digest(tmp_path / "serial")

    report = content / "reports" / "acme-vs-zenith.en.md"
    report.write_text(REPORT_EN + "\nOne more sentence.\n", "utf-8")
    again = build(content, TEMPLATES, tmp_path / "parallel", cache=tmp_path / 'parallel-cache')
    assert again.bodies_rendered == 1
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_REPORTS", 10**9)
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "serial-cache-2"))
    build(content, TEMPLATES, tmp_path / "serial-2", cache=warm_copy(tmp_path / 'serial-cache-2'))
    assert tree_digest(tmp_path / "parallel") == tree_digest(tmp_path / "serial-2")


def test_compiled_code_is_not_an_input(tmp_path, monkeypatch):
    """__pycache__ is written by whichever process imports first: never a reason to rebuild."""
    from sitegen.base.cache import tree_digest

    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    code = tmp_path / "code"
    code.mkdir()
    (code / "a.py").write_text("x = 1\n", "utf-8")
    before = tree_digest(code)
    (code / "__pycache__").mkdir()
    (code / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\x00compiled")
    assert tree_digest(code) == before
    (code / "a.py").write_text("x = 2\n", "utf-8")
    assert tree_digest(code) != before


def test_a_state_keeps_its_keys_and_drops_the_unread_ones_when_compacted():
    """next_state: a reused unit keeps its runs; a fresh unit's new key is added; past
    COMPACT_AT times the live keys, the keys no unit reads are dropped and all renumbered, the
    runs no unit reads dropped, each run still sorted."""
    from array import array

    from sitegen.assemble import state as deps

    a, b, c, d = (
        (("rec", "t", "a"), "x"),
        (("rec", "t", "b"), "x"),
        (("table", "t"), "c"),
        (("table", "t"), "d"),
    )
    values = {a: 1, b: 2, c: 3, d: 4}
    value = lambda tag, key: values.get((tag, key), 0)  # noqa: E731
    old = deps.State(
        "in",
        {"u1": deps.Unit({"u1.html": "1"}, (0,)), "u2": deps.Unit({"u2.html": "2"}, (1,))},
        [a, b, c],
        [deps.fingerprint(1), deps.fingerprint(2), deps.fingerprint(3)],
        {},
        3,
        runs=[array("I", [0, 1]), array("I", [2])],
        tags=deps.tags_of([a, b, c]),
    )
    units = {"u1": (old.units["u1"], False), "u3": (deps.Unit({"u3.html": "3"}, {d, a}), True)}
    kept = deps.next_state("in", old, list(old.hashes), {}, units, value)  # 4 keys <= 1.5 * 3
    assert kept.keys == [a, b, c, d] and kept.indexes(kept.units["u1"]) == [0, 1]
    assert kept.indexes(kept.units["u3"]) == [0, 3] and kept.hashes[3] == deps.fingerprint(4)
    assert kept.tags == deps.tags_of(kept.keys) and old.tags == deps.tags_of(old.keys)  # old's as it was
    old.live = 2  # 4 keys > 1.5 * 2
    compacted = deps.next_state("in", old, list(old.hashes), {}, units, value)
    assert compacted.keys == [a, b, d] and compacted.live == 3
    assert [compacted.keys[i] for i in compacted.indexes(compacted.units["u3"])] == [a, d]
    assert compacted.hashes == [deps.fingerprint(1), deps.fingerprint(2), deps.fingerprint(4)]
    assert compacted.runs == [array("I", [0, 1]), array("I", [0, 2])]  # u2's run dropped
    assert compacted.tags == deps.tags_of(compacted.keys) and compacted.runs_live == 2
    old.live, old.runs_live = 3, 1  # keys within 1.5 * 3, runs past 1.5 * 1: compacted too
    by_runs = deps.next_state("in", old, list(old.hashes), {}, units, value)
    assert by_runs.keys == [a, b, d] and by_runs.runs == compacted.runs


def test_a_record_s_fingerprint_is_its_value_however_its_objects_are_shared():
    """Equal records fingerprint alike whether two equal strings in them are one object (as a
    parse cache gives) or two (as YAML gives): marshal's format 4 told them apart, and an edit
    to one result rendered the pages of every unchanged result of its file again."""
    from sitegen.assemble import state as deps

    one = "".join(["PopART ", "SDK"])
    shared = {"framework": one, "software": one, "runs": [1.5, 2.5]}
    apart = {
        "framework": "".join(["PopART", " SDK"]),
        "software": "".join(["Pop", "ART SDK"]),
        "runs": [1.5, 2.5],
    }
    assert shared == apart
    assert deps.record_fingerprint(shared) == deps.record_fingerprint(apart)
    assert deps.record_fingerprint(shared) != deps.record_fingerprint({**apart, "software": "x"})


def test_the_data_kinds_are_made_from_the_data_alone(tmp_path, warm_cache):
    """A rebuild whose data digest is the last state's takes the whole fingerprints of the
    record, the tables, the strings and the record's index from that state (state.DATA_KINDS)
    instead of hashing them. That holds only if each is made from the data alone: hashed again
    from a site whose every report and page changed, each is as the state kept it."""
    from sitegen.assemble import state as deps
    from sitegen.assemble.manifest import output_key
    from sitegen.assemble.state_store import load_state
    from sitegen.base.cache import code_digest, data_digest
    from sitegen.base.store import Store
    from sitegen.content.load import load_site

    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    build(content, TEMPLATES, out, cache=warm_cache)
    store = Store(warm_cache)
    try:
        state = load_state(store, output_key(out))
        for path in [*(content / "reports").glob("*.md"), *(content / "pages").glob("*.md")]:
            path.write_text(path.read_text("utf-8") + "\nOne more sentence.\n", "utf-8")
        assert state is not None and state.data == data_digest(content, code_digest(store))
        site = load_site(content, store=store)
    finally:
        store.close()
    value = deps.current_values(lambda tag: deps.resolve(site, tag), None)
    kept = {tag: whole for tag, whole in state.whole.items() if tag[0] in deps.DATA_KINDS}
    assert {tag[0] for tag in kept} == deps.DATA_KINDS
    assert {tag: deps.whole_fingerprint(value, tag) for tag in kept} == kept


def test_a_data_edit_draws_its_figures_again_without_importing_markdown(tmp_path, warm_cache):
    """A result edit draws the figures of the reports that show it again; their texts'
    conversions are kept, so the rebuild imports no Markdown (0.03 s of every such rebuild)."""
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    build(content, TEMPLATES, out, cache=warm_cache)
    results = content / RESULTS_FILE  # r-acme's score and runs one minute slower, sealed again
    text = results.read_text("utf-8").replace("value: 30.0", "value: 31.0")
    results.write_text(
        text.replace("[29.0, 30.0, 30.0, 30.0, 31.0]", "[30.0, 31.0, 31.0, 31.0, 32.0]"), "utf-8"
    )
    seal_record(content)
    code = (
        "import sys; from pathlib import Path; from sitegen.assemble.pipeline import build; "
        f"r = build(Path({str(content)!r}), Path({str(TEMPLATES)!r}), Path({str(out)!r}), "
        f"cache=Path({str(warm_cache)!r})); "
        "print(r.units_rendered, r.bodies_rendered, 'markdown' in sys.modules)"
    )
    env = {**os.environ, "SITEGEN_CACHE": str(warm_cache)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, text=True, capture_output=True)
    assert done.returncode == 0, done.stderr
    rendered, bodies, markdown = done.stdout.split()[-3:]
    assert int(rendered) > 0 and int(bodies) > 0 and markdown == "False"
    assert "31.0分钟" in (out / "zh" / "reports" / "acme-vs-zenith.html").read_text("utf-8")
