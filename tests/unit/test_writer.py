"""The writer: each path of the output once, and nothing outside the output folder."""

from __future__ import annotations

import os

import pytest

from sitegen.assemble import spare, write
from sitegen.assemble.outdir import MARKER, MARKER_TEXT
from sitegen.base.cache import sha
from sitegen.base.errors import ContentError

TWICE = "written twice by one build: two pages or files have this address; give one of them another"


def messages(exc: pytest.ExceptionInfo) -> list[str]:
    return [str(problem) for problem in exc.value.problems]


def test_a_path_put_twice_is_refused_and_the_first_kept(tmp_path):
    staging, out = tmp_path / "staging", tmp_path / "out"
    staging.mkdir()
    write.put_files({"en/a.html": b"first"}, staging, out, {})
    with pytest.raises(ContentError) as exc:
        write.put_files({"en/a.html": b"second"}, staging, out, {})
    assert messages(exc) == [f"output/en/a.html: {TWICE}"]
    assert (staging / "en/a.html").read_bytes() == b"first"


def test_a_path_linked_over_a_written_one_is_refused(tmp_path):
    staging, out = tmp_path / "staging", tmp_path / "out"
    (out / "en").mkdir(parents=True)
    (out / "en/a.html").write_bytes(b"old")
    staging.mkdir()
    write.put_files({"en/a.html": b"new"}, staging, out, {})
    with pytest.raises(ContentError) as exc:
        write.link_files({"en/a.html": "digest"}, staging, out)
    assert messages(exc) == [f"output/en/a.html: {TWICE}"]


def test_a_file_made_twice_must_have_the_same_bytes():
    files = {"assets/app.js": b"x"}
    write.merge_same(files, {"assets/app.js": b"x", "assets/b.js": b"y"})  # the same file: one
    assert files == {"assets/app.js": b"x", "assets/b.js": b"y"}
    with pytest.raises(ContentError) as exc:
        write.merge_same(files, {"assets/app.js": b"z"})
    assert messages(exc) == [f"output/assets/app.js: {TWICE}"]


@pytest.mark.parametrize("rel", ["/etc/passwd", "../outside.html", "en/../../x", "a\\b", "c:/x", ""])
def test_no_path_outside_the_output_folder(tmp_path, rel):
    with pytest.raises(ContentError) as exc:
        write.put_files({rel: b"x"}, tmp_path, tmp_path / "out", {})
    assert messages(exc) == [f"{rel}: refusing to write outside the output folder"]


def held_folder(tmp_path):
    """A staging folder holding the output's en/a.html (a link to it), as a rebuild's does."""
    staging, out = tmp_path / "staging", tmp_path / "out"
    (out / "en").mkdir(parents=True)
    (out / "en/a.html").write_bytes(b"old")
    (staging / "en").mkdir(parents=True)
    os.link(out / "en/a.html", staging / "en/a.html")
    return staging, out, write.Held(frozenset({"en/a.html"}))


def test_a_held_file_is_taken_once(tmp_path):
    staging, out, held = held_folder(tmp_path)
    assert write.link_files({"en/a.html": "digest"}, staging, out, held) == {"en/a.html": "digest"}
    assert held.touched == []  # nothing made: the file is the output's
    with pytest.raises(ContentError) as exc:
        write.put_files({"en/a.html": b"second"}, staging, out, {}, held)
    assert messages(exc) == [f"output/en/a.html: {TWICE}"]
    assert (staging / "en/a.html").read_bytes() == b"old"


def test_a_held_file_written_is_replaced_once_and_the_output_left_alone(tmp_path):
    staging, out, held = held_folder(tmp_path)
    write.put_files({"en/a.html": b"new"}, staging, out, {"en/a.html": "stale digest"}, held)
    assert (staging / "en/a.html").read_bytes() == b"new" and (out / "en/a.html").read_bytes() == b"old"
    assert held.touched == ["en/a.html"]
    with pytest.raises(ContentError) as exc:
        write.link_files({"en/a.html": "digest"}, staging, out, held)
    assert messages(exc) == [f"output/en/a.html: {TWICE}"]


def test_a_held_file_made_again_with_its_bytes_is_kept(tmp_path):
    staging, out, held = held_folder(tmp_path)
    inode = (out / "en/a.html").stat().st_ino
    write.put_files({"en/a.html": b"old"}, staging, out, {"en/a.html": sha(b"old")}, held)
    assert (staging / "en/a.html").stat().st_ino == inode and held.touched == []


def test_a_spare_is_brought_to_hold_exactly_the_outputs_files(tmp_path):
    staging, out = tmp_path / "spare", tmp_path / "out"
    for rel in ("a.html", "en/b.html", "en/c.html"):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(rel.encode())
    (staging / "en").mkdir(parents=True)
    (staging / MARKER).write_bytes(MARKER_TEXT)
    os.link(out / "a.html", staging / "a.html")  # the output's own: stays
    (staging / "en/b.html").write_bytes(b"en/b.html")  # the same bytes, another file: replaced
    (staging / "x/y").mkdir(parents=True)
    (staging / "x/y/stray.html").write_bytes(b"not the output's")
    (staging / "en/link.html").symlink_to(out / "en/c.html")
    keep = {rel: (out / rel).stat().st_ino for rel in ("a.html", "en/b.html", "en/c.html")}
    held, linked = spare.refill(staging, out, keep)
    assert held == set(keep) and linked == ["en/b.html", "en/c.html"]
    found = {str(p.relative_to(staging)): p.stat().st_ino for p in staging.rglob("*") if p.is_file()}
    assert found == {**keep, MARKER: (staging / MARKER).stat().st_ino}
    assert sorted(str(p.relative_to(staging)) for p in staging.rglob("*") if p.is_dir()) == ["en"]


def test_a_language_writes_its_own_files_and_sends_back_those_every_language_makes(tmp_path):
    from types import SimpleNamespace

    from sitegen.assemble.units import keep_or_write
    from sitegen.render.search import index_path

    staging, out = tmp_path / "staging", tmp_path / "out"
    staging.mkdir()
    destination = SimpleNamespace(staging=staging, out=out, previous={}, held=None)
    files = {"zh/a.html": b"page", index_path("zh"): b"index", "assets/minisearch.js": b"shared"}
    kept: dict = {}
    written = keep_or_write(files, "zh", kept, destination, alone={index_path("zh")})
    # its page and its search index are written by it; the shared script goes back
    assert written == {"zh/a.html": sha(b"page"), index_path("zh"): sha(b"index")}
    assert kept == {"assets/minisearch.js": b"shared"}
    assert (staging / index_path("zh")).read_bytes() == b"index"
    assert not (staging / "assets/minisearch.js").exists()
