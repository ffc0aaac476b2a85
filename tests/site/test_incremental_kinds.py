"""Every kind of change, built incrementally, gives exactly the bytes of a cold build, and is
built by rendering only the pages that read what changed (sitegen/content/tracking.py).

Each incremental build runs with SITEGEN_VERIFY_REUSE=1: every page it takes from the last
build is rendered as well and must be byte for byte what it took (a dependency the tracking
missed stops the build). Then a cold build of the same content, with a fresh cache, must give
the same tree."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from test_bad_input import tree_digest

from sitegen.assemble.pipeline import build
from sitegen.assemble.state_store import SEP

from project import TEMPLATES, seal_record
from record_sample import ROUNDS, write_record_project
from search_files import search_text

V11_ROUND = ROUNDS[ROUNDS.index("- id: v1.1") :]
V11_MAPPING = "v1.1/Acme/acme16: acme-16\n"
COUNT_CORRECTION = """\
- id: v1.0-bigco-giant-bert
  accelerator_count: 512
  official_accelerator_count: 1024
  source: mlperf-training-v1.0
  note: {en: Half were spares., zh: 其中一半是备用的。}
"""

CHIP_LOOKS = """\
backgrounds: {light: "#ffffff", dark: "#0d1117"}
colours: {pink: "#CC79A7", green: "#009E73"}
looks:
  bigco-b9: {colour: pink, shape: diamond}
"""


def _edit(path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), "utf-8")


def _drop_round_v11(content) -> None:
    (content / "data/record/results-v1.1.yaml").unlink()
    _edit(content / "data/record/rounds.yaml", V11_ROUND, "")
    _edit(content / "data/mlperf_systems.yaml", V11_MAPPING, "")


def _add_round_v11(content, saved: dict) -> None:
    (content / "data/record/results-v1.1.yaml").write_text(saved["results"], "utf-8")
    _edit(content / "data/record/rounds.yaml", ROUNDS[: ROUNDS.index("- id: v1.1")], ROUNDS)
    (content / "data/mlperf_systems.yaml").write_text(saved["mapping"], "utf-8")


def _template_override(content) -> None:
    folder = content / "templates"
    folder.mkdir(exist_ok=True)
    text = (TEMPLATES / "result.html").read_text("utf-8")
    (folder / "result.html").write_text(
        text.replace("</main>", "<p>Override marker.</p></main>", 1)
        if "</main>" in text
        else text + "\n{# override #}\n",
        "utf-8",
    )


CHANGES = {
    # kind: (change, text the output must now hold, at most this share of units rendered)
    "report text": (
        lambda c: _edit(
            c / "reports/acme-vs-zenith.en.md", "\n## ", "\nOne more sentence for the test.\n\n## "
        ),
        "One more sentence for the test.",
        0.1,
    ),
    # a report's front matter: its page and every page that lists it follow (its whole
    # fingerprint is its parse's key, state.whole_fingerprint: it moves with the file's bytes)
    "report title": (
        lambda c: _edit(
            c / "reports/acme-vs-zenith.en.md", "title: Acme against Zenith", "title: Acme, again"
        ),
        "Acme, again",
        0.5,
    ),
    "data record": (
        lambda c: _edit(c / "data/systems.yaml", "A small test system.", "A small tested system."),
        "A small tested system.",
        0.5,
    ),
    "record result": (
        lambda c: _edit(c / "data/record/results-v1.1.yaml", "AcmeFlow 1.0", "AcmeFlow 1.1"),
        "AcmeFlow 1.1",
        0.5,
    ),
    # a result's time moves its point on the scale charts of its leaderboard and benchmark page
    "record result time": (
        lambda c: _edit(
            c / "data/record/results-v1.1.yaml",
            "value: 7.4\n  unit: min\n  scaling: null\n  runs: [7.3, 7.35, 7.4, 7.45, 7.5]",
            "value: 7.0\n  unit: min\n  scaling: null\n  runs: [6.0, 6.5, 7.0, 7.5, 8.0]",
        ),
        None,
        0.5,
    ),
    # ... and Acme A1's change at 16 accelerators on BERT's equal-scale page (benchmarks/bert/at-16):
    # (7.0 − 30.123456) ÷ 30.123456 = −76.8 %
    "equal scale": (
        lambda c: _edit(
            c / "data/record/results-v1.1.yaml",
            "value: 7.4\n  unit: min\n  scaling: null\n  runs: [7.3, 7.35, 7.4, 7.45, 7.5]",
            "value: 7.0\n  unit: min\n  scaling: null\n  runs: [6.0, 6.5, 7.0, 7.5, 8.0]",
        ),
        "76.8% less time",
        0.5,
    ),
    "template": (_template_override, None, 0.5),
    "i18n string": (
        lambda c: _edit(
            c / "i18n/en.yaml",
            re.search(r"\nnav\.glossary: .*\n", (c / "i18n/en.yaml").read_text("utf-8")).group(0),
            "\nnav.glossary: Terms of the trade\n",
        ),
        "Terms of the trade",
        1.0,
    ),
    "a deletion (a round)": (_drop_round_v11, None, 1.0),
    # chips.yaml and a count correction (results_curated.yaml) change what the record's results
    # carry (`chip`, `accelerator_count`): the pages that read those fields follow
    "chip variant": (
        lambda c: _edit(c / "data/chips.yaml", "- variant: B9", "- variant: B9 SXM"),
        "B9 SXM",
        0.5,
    ),
    # chips.yaml's facts of a family (chip_facts.py): only that family's pages read them
    "chip facts": (
        lambda c: _edit(
            c / "data/chips.yaml",
            "    - family: A1\n",
            "    - family: A1\n      specs:\n        - {name: memory, value: 80, unit: GB, source: s-official}\n",
        ),
        "80 GB",
        0.1,
    ),
    # companies.yaml names a submitter in each language: its pages, search and the sentences
    # that name it follow, and so do the explorer, the compare page and the reports' results
    # tables, which name every submitter (on this small site, over half of its pages)
    "company name": (
        lambda c: (c / "data/companies.yaml").write_text(
            "- id: zenith-co\n  spellings: [Zenith]\n  name: {en: Zenith, zh: 天顶公司}\n", "utf-8"
        ),
        "天顶公司",
        0.6,
    ),
    # chip_looks.yaml gives a family its colour and shape (chip_looks.py): the charts that draw
    # a family, and the explorer's page that carries every look, follow
    "chip look": (
        lambda c: (c / "data/chip_looks.yaml").write_text(CHIP_LOOKS, "utf-8"),
        "#CC79A7",
        0.5,
    ),
    "count correction": (
        lambda c: (c / "data/results_curated.yaml").write_text(
            (c / "data/results_curated.yaml").read_text("utf-8") + COUNT_CORRECTION, "utf-8"
        ),
        "(the official description says 1,024)",
        0.5,
    ),
}


@pytest.fixture()
def project(tmp_path, monkeypatch, warm_cache):
    monkeypatch.setenv("SITEGEN_VERIFY_REUSE", "1")
    content = write_record_project(tmp_path / "p")
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    out = tmp_path / "out"
    first = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert first.units_rendered > 50 and first.units_reused == 0
    return content, out, first


def _cold(tmp_path, monkeypatch, warm_copy, content, name: str):
    """A build from no last state: nothing of it reused (its store a copy of the warm one, which
    holds compiled templates and drawings only)."""
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / f"cold-cache-{name}"))
    cold = tmp_path / f"cold-{name}"
    build(content, TEMPLATES, cold, cache=warm_copy(tmp_path / f"cold-cache-{name}"))
    return cold


def _all_text(out) -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(out.rglob("*.html")))


@pytest.mark.parametrize("kind", list(CHANGES))
def test_each_kind_of_change_matches_a_cold_build(project, tmp_path, monkeypatch, warm_copy, kind):
    content, out, first = project
    change, marker, share = CHANGES[kind]
    change(content)
    seal_record(content)  # an edit of the record is sealed, as an editor does (seal-record)
    again = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    total = again.units_rendered + again.units_reused
    assert again.units_rendered >= 1
    assert again.units_rendered <= share * total, (again.units_rendered, total)
    if marker:
        assert marker in _all_text(out)
    cache_of_incremental = str(tmp_path / "cache")
    assert tree_digest(out) == tree_digest(_cold(tmp_path, monkeypatch, warm_copy, content, "a"))
    monkeypatch.setenv("SITEGEN_CACHE", cache_of_incremental)
    assert build(
        content, TEMPLATES, out, cache=Path(cache_of_incremental)
    ).skipped  # and then nothing is left to do


def test_a_new_round_after_its_deletion(project, tmp_path, monkeypatch, warm_copy):
    content, out, first = project
    saved = {
        "results": (content / "data/record/results-v1.1.yaml").read_text("utf-8"),
        "mapping": (content / "data/mlperf_systems.yaml").read_text("utf-8"),
    }
    _drop_round_v11(content)
    seal_record(content)
    dropped = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert not (out / "en/rounds/v1.1.html").exists() or dropped.units_rendered > 0
    _add_round_v11(content, saved)
    seal_record(content)
    added = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert added.units_reused > 0 and added.units_rendered > 0
    assert tree_digest(out) == tree_digest(_cold(tmp_path, monkeypatch, warm_copy, content, "b"))


def test_a_report_edit_renders_only_its_page(project, tmp_path):
    """The narrowest edit: one sentence of one report's body, in one language."""
    content, out, first = project
    CHANGES["report text"][0](content)
    again = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert again.units_rendered == 1 and again.bodies_rendered == 1


def test_a_report_put_back_as_it_was(project, tmp_path, monkeypatch, warm_copy):
    """A report edited, then put back byte for byte (its parse's key is the first build's
    again): each build renders its page again, and the last equals a cold build."""
    content, out, first = project
    path = content / "reports/acme-vs-zenith.en.md"
    original = path.read_bytes()
    for change in ("report text", "report title"):
        CHANGES[change][0](content)
    assert build(content, TEMPLATES, out, cache=tmp_path / "cache").units_rendered > 1
    path.write_bytes(original)
    again = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert again.units_rendered > 1 and "Acme, again" not in _all_text(out)
    assert tree_digest(out) == tree_digest(_cold(tmp_path, monkeypatch, warm_copy, content, "d"))


@pytest.mark.parametrize("entry", ["base", "changes"])
def test_a_damaged_state_means_a_full_rendering(project, tmp_path, entry):
    """The record of what each page read is sealed: damaged, it is not used, never trusted;
    nor is the rest of it (the base without the changes since, or the changes without it)."""
    content, out, first = project
    with sqlite3.connect(tmp_path / "cache" / "store.sqlite") as db:
        states = {
            key: value for key, value in db.execute("SELECT key, value FROM units") if "+docs:" not in key
        }
        assert len(states) == 2  # the state's base and the changes since it (search entries apart)
        key = next(k for k in states if k.endswith("+changes") == (entry == "changes"))
        data = bytearray(states[key])
        data[-5] ^= 0xFF
        db.execute("UPDATE units SET value = ? WHERE key = ?", (bytes(data), key))
    CHANGES["report text"][0](content)
    again = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert again.units_reused == 0 and again.units_rendered == first.units_rendered


@pytest.mark.parametrize("damage", ["garbage", "missing", "another unit's"])
def test_search_entries_lost_are_made_again(project, tmp_path, monkeypatch, warm_copy, damage):
    """A unit's search entries are kept apart from the state, an entry each
    (state_store.save_entries), and read only where a part of the index is made again:
    damaged, missing or not those the unit's digest names, they are not used; the reused
    units' entries are made again from their pages, and the site is a cold build's (checked
    without SITEGEN_VERIFY_REUSE, which makes them all); those made again are kept again.
    (One shard here: the edit makes every page's entries again, not the record's rows.)"""
    content, out, first = project
    monkeypatch.delenv("SITEGEN_VERIFY_REUSE")
    with sqlite3.connect(tmp_path / "cache" / "store.sqlite") as db:
        rows = [(k, v) for k, v in db.execute("SELECT key, value FROM entries") if f"{SEP}en{SEP}" in k]
        assert len(rows) > 20
        damaged = {}
        for number, (key, _) in enumerate(rows):
            if damage == "missing":
                db.execute("DELETE FROM entries WHERE key = ?", (key,))
            else:
                damaged[key] = b"garbage" if damage == "garbage" else rows[number - 1][1]  # sealed as it was
                db.execute("UPDATE entries SET value = ? WHERE key = ?", (damaged[key], key))
    _edit(content / "reports/acme-vs-zenith.en.md", "\n## ", "\nA sentence added, searched for.\n\n## ")
    again = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert again.units_rendered == 1
    assert "A sentence added, searched for." in search_text(out, "en")
    assert tree_digest(out) == tree_digest(_cold(tmp_path, monkeypatch, warm_copy, content, damage))
    with sqlite3.connect(tmp_path / "cache" / "store.sqlite") as db:  # made again: kept again
        kept = {k: v for k, v in db.execute("SELECT key, value FROM entries") if f"{SEP}en{SEP}" in k}
    pages = {key: value for key, value in rows if "'search-rows'" not in key}  # as the first build kept them
    assert pages and all(kept[key] != damaged.get(key) for key in pages)
    assert all(kept[key] == value for key, value in pages.items() if "acme-vs-zenith" not in key)


def test_an_index_whose_entries_are_as_they_were_is_taken_without_reading_them(
    project, tmp_path, monkeypatch, warm_copy
):
    """A report edit in one language reads back only search entries of that language, and
    keeps only those of the unit it rendered: every other language's units and search rows are
    as they were, so its index is taken as it is. Its bytes are still a cold build's."""
    from sitegen.assemble import end_units

    content, out, first = project
    monkeypatch.delenv("SITEGEN_VERIFY_REUSE")
    read, kept = [], []
    load = end_units.load_entries
    monkeypatch.setattr(
        end_units,
        "load_entries",
        lambda store, output, lang, wanted: read.append(lang) or load(store, output, lang, wanted),
    )
    monkeypatch.setattr(
        end_units,
        "save_entries",
        lambda store, output, lang, made, gone, whole: kept.append(
            (lang, [key for key in made if made[key]])
        ),
    )
    _edit(content / "reports/acme-vs-zenith.en.md", "\n## ", "\nA sentence added, searched for.\n\n## ")
    again = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert again.units_rendered == 1 and set(read) == {"en"}
    assert dict(kept) == {"en": [("en", "report", "acme-vs-zenith")], "zh": []}
    assert tree_digest(out) == tree_digest(_cold(tmp_path, monkeypatch, warm_copy, content, "taken"))


@pytest.mark.parametrize("compact_at", [0.5, 10.0])
def test_keys_kept_or_compacted_give_the_same_site(project, tmp_path, monkeypatch, warm_copy, compact_at):
    """A state keeps the last one's dependency keys and adds to them until it is compacted
    (deps.COMPACT_AT): compacted at every build (0.5), or not for a long time, two incremental
    builds in a row (each checked by SITEGEN_VERIFY_REUSE) still equal a cold build. The first
    drops a round, so that keys no unit reads any more are left: the state saved says whether it
    was compacted, holding only the keys its units read, all of them live, or kept them."""
    from sitegen.assemble import state as deps
    from sitegen.assemble import state_store
    from sitegen.assemble.manifest import output_key
    from sitegen.base.store import opened

    monkeypatch.setattr(deps, "COMPACT_AT", compact_at)
    content, out, first = project
    _template_override(content)  # new dependencies: a template of the site's own
    _drop_round_v11(content)  # and the keys of a round's pages read no more
    seal_record(content)
    assert build(content, TEMPLATES, out, cache=tmp_path / "cache").units_reused > 0
    CHANGES["report text"][0](content)
    again = build(content, TEMPLATES, out, cache=tmp_path / "cache")
    assert again.units_rendered == 1
    with opened(tmp_path / "cache") as store:
        saved = state_store.load_state(store, output_key(out))
    assert saved is not None
    read = {i for unit in saved.units.values() for i in saved.indexes(unit)}
    if compact_at < 1:  # compacted: every key is read, and all are live
        assert read == set(range(len(saved.keys))) and saved.live == len(saved.keys)
    else:  # kept: the dropped round's keys too
        assert read < set(range(len(saved.keys)))
    assert tree_digest(out) == tree_digest(_cold(tmp_path, monkeypatch, warm_copy, content, "c"))
