"""A damaged record never publishes (issue 46, item 1): each damage to a sealed round file stops
the build and `check` with exit 1 and one line at its file and line, and leaves the output
byte for byte; `seal-record` lists a deliberate edit and seals it, and the build passes.

Line numbers are found here from the fixture's text (each result opens with `- id: `)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from project import TEMPLATES
from record_sample import ROUNDS, V11, V11_LEVEL, _result, write_record_project


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (hidden ones too) with its bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


FILE = "content/data/record/results-v1.1.yaml"
RESTORE = f"restore it (git checkout -- {FILE})"
# 43 results more in v1.1, so that a cut can drop the last 40: scored by the rules of v1.1
# (the olympic average of 11, 12, 13 is 12.0)
FILLERS = "".join(
    _result(
        f"v1.1-filler-fill{n:02d}-bert",
        "v1.1",
        "Filler",
        f"fill{n:02d}",
        "bert",
        12.0,
        [10.0, 11.0, 12.0, 13.0, 14.0],
    )
    for n in range(43)
)
WHOLE = V11 + V11_LEVEL + FILLERS  # 45 results


def blocks(text: str) -> list[str]:
    """The file's results, each its own lines, in file order."""
    parts = text.split("\n- id: ")
    return [parts[0] + "\n"] + [f"- id: {p}\n" for p in parts[1:-1]] + [f"- id: {parts[-1]}"]


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def run(content: Path, out: Path, capsys, *argv) -> tuple[int, list[str]]:
    import build

    argv = ["-q", "--content", str(content), "--templates", str(TEMPLATES), "--out", str(out), *argv]
    code = build.main(argv)
    return code, capsys.readouterr().err.splitlines()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A record project with 45 results in v1.1, sealed, and its site built."""
    import build

    folder = tmp_path_factory.mktemp("sealed")
    rounds = ROUNDS.replace("results: 2", "results: 45")
    content = write_record_project(
        folder, {"data/record/results-v1.1.yaml": WHOLE, "data/record/rounds.yaml": rounds}
    )
    out = folder / "out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SITEGEN_CACHE", str(folder / "cache"))
        assert (
            build.main(["-q", "--content", str(content), "--templates", str(TEMPLATES), "--out", str(out)])
            == 0
        )
    return folder


@pytest.fixture
def site(built, tmp_path, monkeypatch, warm_cache):
    """A copy of the built project: (content, out)."""
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    shutil.copytree(built / "content", tmp_path / "content")
    shutil.copytree(built / "out", tmp_path / "out")
    return tmp_path / "content", tmp_path / "out"


def refused(content: Path, out: Path, capsys, expected: list[str]) -> None:
    """The build and check both stop with exactly `expected`; the output stays as it was."""
    before = snapshot(out)
    n = len(expected)
    assert run(content, out, capsys) == (
        1,
        [*expected, f"build failed: {n} problem(s); output left as it was"],
    )
    assert run(content, out, capsys, "check") == (1, [*expected, f"check failed: {n} problem(s)"])
    assert snapshot(out) == before


def test_an_emptied_round_file_stops_the_build(site, capsys):
    content, out = site
    (content / "data/record/results-v1.1.yaml").write_text("", "utf-8")
    refused(
        content,
        out,
        capsys,
        [
            f"{FILE}:1: holds no results, but its seal lists 45: the file was emptied; {RESTORE} or import the round again"
        ],
    )


def test_a_file_cut_at_a_record_boundary_stops_the_build(site, capsys):
    content, out = site
    kept = "".join(blocks(WHOLE)[:5])  # the last 40 results dropped
    (content / "data/record/results-v1.1.yaml").write_text(kept, "utf-8")
    assert len(kept.splitlines()) == 5 * 24  # 24 lines a result
    refused(
        content,
        out,
        capsys,
        [
            f"{FILE}:120: holds 5 of the 45 results its seal lists: the last 40, from "
            f"'v1.1-filler-fill03-bert' on, are missing (the file was cut); {RESTORE} or import the round again"
        ],
    )


def test_a_pasted_second_copy_of_a_result_names_both_lines(site, capsys):
    content, out = site
    pasted = WHOLE + blocks(WHOLE)[1]  # Zenith's result again, at the end
    (content / "data/record/results-v1.1.yaml").write_text(pasted, "utf-8")
    first = line_of(WHOLE, "- id: v1.1-zenith-zenith16-bert")
    assert first == 25
    refused(
        content,
        out,
        capsys,
        [
            f"{FILE}:{45 * 24 + 1}: duplicate id 'v1.1-zenith-zenith16-bert' (first on line 25): "
            "a second copy of a result; delete one of the two"
        ],
    )


def test_a_pasted_line_is_a_duplicate_key_at_both_lines(site, capsys):
    content, out = site
    text = WHOLE.replace("  unit: min\n", "  unit: min\n  unit: min\n", 1)
    (content / "data/record/results-v1.1.yaml").write_text(text, "utf-8")
    unit = line_of(WHOLE, "  unit: ")
    refused(content, out, capsys, [f"{FILE}:{unit + 1}: duplicate key 'unit' (first on line {unit})"])


def test_a_removed_result_stops_the_build_at_its_place(site, capsys):
    content, out = site
    parts = blocks(WHOLE)
    (content / "data/record/results-v1.1.yaml").write_text("".join(parts[:1] + parts[2:]), "utf-8")
    refused(
        content,
        out,
        capsys,
        [
            f"{FILE}:25: result 'v1.1-zenith-zenith16-bert' is missing, though the record's seal lists it: "
            f"{RESTORE}, or run python build.py seal-record if it was removed on purpose"
        ],
    )


def test_a_field_edited_by_hand_stops_the_build(site, capsys):
    content, out = site
    text = WHOLE.replace("system_name: ZENITH16 system", "system_name: Zenith 16", 1)
    assert text != WHOLE
    (content / "data/record/results-v1.1.yaml").write_text(text, "utf-8")
    refused(
        content,
        out,
        capsys,
        [
            f"{FILE}:25: result 'v1.1-zenith-zenith16-bert' differs from its sealed values (edited by hand): "
            f"{RESTORE}, or run python build.py seal-record to seal a deliberate edit"
        ],
    )


def test_a_missing_round_file_listed_in_rounds_yaml_stops_the_build(site, capsys):
    content, out = site
    (content / "data/record/results-v1.1.yaml").unlink()
    listed = line_of(ROUNDS, "- id: v1.1")
    assert listed == 10
    refused(
        content,
        out,
        capsys,
        [
            f"content/data/record/rounds.yaml:10: round v1.1's file results-v1.1.yaml is missing "
            f"(sealed with 45 results): {RESTORE} or import the round again"
        ],
    )


def test_a_missing_seal_stops_the_build(site, capsys):
    content, out = site
    (content / "data/record/seal.yaml").unlink()
    refused(
        content,
        out,
        capsys,
        [
            "content/data/record/seal.yaml: missing: the record's seal, which says what each round file "
            "holds; review the record files (git diff content/data/record) and run python build.py "
            "seal-record to write it"
        ],
    )


def test_seal_record_lists_a_deliberate_edit_and_the_build_passes(site, capsys):
    content, out = site
    parts = blocks(WHOLE)
    edited = parts[0] + "".join(parts[2:])  # Zenith's result removed
    edited = edited.replace("fill00\n  system_name: FILL00 system", "fill00\n  system_name: Fill 00", 1)
    added = _result(
        "v1.1-acme-acme32-bert", "v1.1", "Acme", "acme32", "bert", 12.0, [10.0, 11.0, 12.0, 13.0, 14.0]
    )
    (content / "data/record/results-v1.1.yaml").write_text(edited + added, "utf-8")
    assert run(content, out, capsys)[0] == 1
    code, said = run(content, out, capsys, "seal-record")
    assert (code, said) == (
        0,
        [
            f"{FILE}: removed result 'v1.1-zenith-zenith16-bert'",
            f"{FILE}: added result 'v1.1-acme-acme32-bert'",
            f"{FILE}: changed result 'v1.1-filler-fill00-bert'",
        ],
    )
    assert run(content, out, capsys) == (0, [])
    assert run(content, out, capsys, "seal-record") == (0, [])  # up to date: nothing written


def test_seal_record_refuses_a_file_with_a_duplicate_id(site, capsys):
    content, out = site
    path = content / "data/record/results-v1.1.yaml"
    path.write_text(WHOLE + blocks(WHOLE)[1], "utf-8")
    seal = (content / "data/record/seal.yaml").read_bytes()
    assert run(content, out, capsys, "seal-record") == (
        1,
        [
            f"{FILE}:{45 * 24 + 1}: duplicate id 'v1.1-zenith-zenith16-bert' (first on line 25): delete one copy",
            "nothing sealed: 1 problem(s); content/data/record left as it was",
        ],
    )
    assert (content / "data/record/seal.yaml").read_bytes() == seal


def test_the_seal_holds_through_incremental_builds(site, capsys):
    """A build with nothing to do is skipped; a damaged file after it still stops the next build
    (the load checks the seal whatever the build's state), and the file restored byte for
    byte builds to the same output."""
    content, out = site
    assert run(content, out, capsys) == (0, [])
    built = snapshot(out)
    path = content / "data/record/results-v1.1.yaml"
    path.write_text("".join(blocks(WHOLE)[:5]), "utf-8")
    assert run(content, out, capsys)[0] == 1
    assert snapshot(out) == built
    path.write_text(WHOLE, "utf-8")
    assert run(content, out, capsys) == (0, [])
    assert snapshot(out) == built
