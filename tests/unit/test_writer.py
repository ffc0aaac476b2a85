"""The writer: each path of the output once, and nothing outside the output folder."""

from __future__ import annotations

import pytest

from sitegen.assemble import write
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
