"""Long imports tell how far they are (issue: installed like a Python tool): one line on stderr
per round read (import-record), with -v or when stderr is a terminal; nothing with -q; never on stdout or in the data written."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from sitegen import cli
from sitegen.importer.review import ImportStopped
from sitegen.importer.run import import_record

HERE = Path(__file__).resolve().parents[1]
RECORD = HERE / "fixtures" / "record"
ROUNDS = ["training_results_v0.5", "training_results_v1.1"]
ROUND_LINE = re.compile(
    r"^\[(\d)/(\d) rounds, \d+\.\d s\] (v[0-9.]+): (\d+) result folders read, "
    r"(\d+) results, (\d+) skipped$"
)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_import_record_says_each_round_and_writes_the_same_bytes(tmp_path):
    said = []  # rounds read in two processes here; in one by the commands' tests below
    counts = import_record([RECORD / r for r in ROUNDS], tmp_path / "with", workers=2, progress=said.append)
    import_record([RECORD / r for r in ROUNDS], tmp_path / "without", workers=1)
    assert snapshot(tmp_path / "with") == snapshot(tmp_path / "without")
    found = [ROUND_LINE.match(line) for line in said]
    assert all(found), said
    assert [m.group(1, 2) for m in found] == [("1", "2"), ("2", "2")]  # as they finish
    assert sorted(m.group(3) for m in found) == ["v0.5", "v1.1"]
    assert sum(int(m.group(5)) for m in found) == counts["results"]
    assert all(int(m.group(4)) >= int(m.group(5)) for m in found)


def test_a_round_that_cannot_be_read_is_said_too(tmp_path):
    said = []
    with pytest.raises(ImportStopped):
        import_record([tmp_path / "training_results_v1.0"], tmp_path / "out", workers=1, progress=said.append)
    assert len(said) == 1 and re.match(
        r"^\[1/1 rounds, \d+\.\d s\] v1\.0: not imported: .*"
        r"not a folder or repository$",
        said[0],
    ), said


def _record_run(tmp_path, capsys, *options):
    content = tmp_path / "content"
    code = cli.main(
        ["--content", str(content), *options, "import-record", str(RECORD / "training_results_v1.1")]
    )
    out, err = capsys.readouterr()
    return code, out, err, snapshot(content / "data" / "record")


@pytest.mark.parametrize("run, line", [(_record_run, ROUND_LINE)])
def test_the_commands_show_progress_with_v_or_a_terminal_and_never_with_q(
    tmp_path, capsys, monkeypatch, run, line
):
    results = {}
    for name, options, terminal in [
        ("plain", (), False),
        ("verbose", ("-v",), False),
        ("terminal", (), True),
        ("quiet", ("-q",), True),
    ]:
        monkeypatch.setattr(sys.stderr, "isatty", lambda terminal=terminal: terminal)
        code, out, err, data = run(tmp_path / name, capsys, *options)
        assert code == 0, err
        shown = [text for text in err.splitlines() if line.match(text)]
        assert not [text for text in out.splitlines() if line.match(text)]  # never on stdout
        results[name] = (shown, data)
    assert results["plain"][0] == results["quiet"][0] == []
    assert results["verbose"][0] and results["terminal"][0]
    assert len({repr(data) for _, data in results.values()}) == 1  # the same data written
