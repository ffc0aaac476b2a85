"""Imports are whole or nothing, locked, and name what they accept (issue 46, items 2 and 3).

A full disk (an OSError(ENOSPC) injected where the importer writes a file's bytes, swap.write_all)
and a kill (SIGKILL of an import in its own process, at a chosen file, and between the two
renames of the swap) each leave the previous record byte for byte; the message names the file;
the next seal-record (or import) undoes what was left. A source that is not a whole round
keeps the published results it does not hold, even with its removals accepted."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from project import TEMPLATES
from record_sample import V11, write_record_project

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "record" / "training_results_v1.1"
BERT = "NVIDIA/results/dgxa100_ngc21.09_pytorch/bert"
SYSTEM = "NVIDIA/systems/dgxa100_ngc21.09_pytorch.json"


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def cli(content: Path, capsys, *argv) -> tuple[int, list[str]]:
    import build

    code = build.main(["-q", "--content", str(content), "--templates", str(TEMPLATES), *map(str, argv)])
    return code, capsys.readouterr().err.splitlines()


def add_result(source: Path, submitter: str, system: str) -> None:
    """One more result folder in the source: the same logs under another system (and submitter)."""
    shutil.copytree(source / BERT, source / f"{submitter}/results/{system}/bert")
    (source / f"{submitter}/systems").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source / SYSTEM, source / f"{submitter}/systems/{system}.json")


@pytest.fixture
def imported(tmp_path, capsys):
    """(content, source, record folder): round v1.1 imported from a copy of its source."""
    pytest.importorskip("mlperf_logging")
    source = tmp_path / "src" / "training_results_v1.1"
    shutil.copytree(FIX, source)
    content = tmp_path / "content"
    assert cli(content, capsys, "import-record", source) == (0, [])
    return content, source, content / "data" / "record"


def test_a_full_disk_leaves_the_record_and_names_the_file(imported, capsys, monkeypatch):
    """Before: a file cut mid-record, rounds.yaml already rewritten, and `?` for the path."""
    from sitegen.importer import swap

    content, source, record = imported
    add_result(source, "NVIDIA", "other_sys")  # a new result: the import writes
    before = files_of(record)
    real = swap.write_all

    def full(stream, data):
        if stream.name.endswith("results-v1.1.yaml"):
            stream.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(stream, data)

    monkeypatch.setattr(swap, "write_all", full)
    assert cli(content, capsys, "import-record", source) == (
        1,
        [f"error: {record}/results-v1.1.yaml: No space left on device; the record left as it was"],
    )
    assert files_of(record) == before
    assert sorted(p.name for p in record.parent.iterdir()) == ["record"]  # nothing left beside


DYING = """\
import os, signal, sys
sys.path.insert(0, {root!r})
from sitegen.importer import swap
real_write, real_rename = swap.write_all, os.rename

def write_all(stream, data):
    if {when!r} == "write" and stream.name.endswith("results-v1.1.yaml"):
        stream.write(data[: len(data) // 2])
        stream.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    real_write(stream, data)

def swap_halfway(folder, new):
    real_rename(folder, swap.staging(folder, "old"))  # the first rename, and no second
    os.kill(os.getpid(), signal.SIGKILL)

swap.write_all = write_all
if {when!r} == "rename":
    swap.swap = swap_halfway
import build
sys.exit(build.main(sys.argv[1:]))
"""


def killed(content: Path, when: str, *argv) -> subprocess.CompletedProcess:
    """build.py's main in its own process, killed (SIGKILL) while writing results-v1.1.yaml
    (`when="write"`) or between the two renames of the swap (`when="rename"`)."""
    script = DYING.format(root=str(ROOT), when=when)
    return subprocess.run(
        [sys.executable, "-c", script, "-q", "--content", str(content), *map(str, argv)],
        capture_output=True,
        text=True,
    )


def test_an_import_killed_while_writing_leaves_the_record(imported, capsys):
    """Before: the round file at 0 bytes."""
    content, source, record = imported
    add_result(source, "NVIDIA", "other_sys")
    before = files_of(record)
    done = killed(content, "write", "import-record", source)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert files_of(record) == before
    left = record.parent / ".record.new"
    assert left.is_dir()
    assert cli(content, capsys, "seal-record") == (
        0,
        [f"{left}: removed: the unfinished record of an import that was stopped; the record is as it was"],
    )
    assert files_of(record) == before and not left.exists()
    assert cli(content, capsys, "import-record", source) == (0, [])  # and the import goes through
    assert "v1.1-nvidia-other-sys-bert" in (record / "results-v1.1.yaml").read_text("utf-8")


FILE = "content/data/record/results-v1.1.yaml"
SWAPPED_OUT = (
    "content/data/.record.old: the previous record, moved aside by an import that was stopped "
    "before it swapped in the new one; run python build.py seal-record to put it back"
)


def test_a_kill_between_the_two_renames_stops_the_build_and_is_undone(
    tmp_path, capsys, monkeypatch, warm_cache
):
    """The crash window of the swap: the old record moved aside, the new one not yet in. Here
    the writer is seal-record's (the importer's own), sealing a hand edit."""
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = write_record_project(tmp_path)
    out = tmp_path / "out"
    assert cli(content, capsys, "--out", out) == (0, [])
    site, record = files_of(out), content / "data" / "record"
    (record / "results-v1.1.yaml").write_text(V11, "utf-8")  # Zenith's v1.1 result removed by hand
    before = files_of(record)
    done = killed(content, "rename", "seal-record")
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert not record.exists() and files_of(content / "data/.record.old") == before
    for command in ([], ["check"]):
        code, said = cli(content, capsys, "--out", out, *command)
        assert (code, said[0]) == (1, SWAPPED_OUT)
    assert files_of(out) == site
    assert cli(content, capsys, "seal-record") == (
        0,
        [
            f"{record}: put back as it was: an import was stopped between swapping the old record "
            "out and the new one in",
            f"{record.parent / '.record.new'}: removed: the unfinished record of an import that was "
            "stopped; the record is as it was",
            f"{FILE}: removed result 'v1.1-zenith-zenith16-bert'",
        ],
    )
    after = files_of(record)
    assert {k: v for k, v in after.items() if k != "seal.yaml"} == {
        k: v for k, v in before.items() if k != "seal.yaml"
    }
    assert sorted(p.name for p in record.parent.iterdir() if p.name.startswith(".")) == []
    assert cli(content, capsys, "--out", out) == (0, [])


def test_an_import_and_a_build_of_one_content_never_overlap(tmp_path, capsys):
    from sitegen.content import record_lock

    content = write_record_project(tmp_path)
    lock = tmp_path / ".content.lock"
    with record_lock.reading(content):  # a build runs
        assert cli(content, capsys, "seal-record") == (
            2,
            [
                f"error: a build, a check or an import of {content} is running ({lock} is held); "
                "run this again when it has finished"
            ],
        )
    with record_lock.writing(content):  # an import runs
        assert cli(content, capsys, "--out", tmp_path / "out") == (
            2,
            [
                f"error: an import (process {os.getpid()}) is writing the record of {content} right now; "
                "run this again when it has finished"
            ],
        )
    assert not (tmp_path / "out").exists()


def test_a_partial_source_keeps_what_it_does_not_hold(tmp_path, capsys):
    """A copy holding one result folder of a round, its removals accepted: the round's other
    results stay (before: --accept-changes removed the other 184 results of the round)."""
    pytest.importorskip("mlperf_logging")
    source = tmp_path / "src" / "training_results_v1.1"
    shutil.copytree(FIX, source)
    add_result(source, "NVIDIA", "other_sys")
    add_result(source, "Other", "other_box")
    content = tmp_path / "content"
    assert cli(content, capsys, "import-record", source) == (0, [])
    stored = (content / "data/record/results-v1.1.yaml").read_bytes()
    assert stored.count(b"- id: ") == 3
    partial = tmp_path / "partial" / "training_results_v1.1"
    shutil.copytree(FIX / BERT, partial / BERT)
    (partial / SYSTEM).parent.mkdir(parents=True)
    shutil.copyfile(FIX / SYSTEM, partial / SYSTEM)
    code, said = cli(content, capsys, "import-record", "--accept-removals", "v1.1", partial)
    assert (code, said) == (
        0,
        [
            f"{partial}: not a whole copy of round v1.1 (it holds no folder of Other): its 2 published "
            "result(s) in folders it does not hold are kept as they were"
        ],
    )
    assert (content / "data/record/results-v1.1.yaml").read_bytes() == stored
    assert "its 2 published result(s) in folders it does not hold are kept" in (
        content / "data/record/import-report.md"
    ).read_text("utf-8")


def test_accept_removals_names_rounds_of_the_record(tmp_path, capsys):
    import build

    with pytest.raises(SystemExit) as exit:
        build.main(
            ["--content", str(tmp_path), "import-record", "--accept-removals", "v1.0,v9.9", str(tmp_path)]
        )
    assert exit.value.code == 2
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .endswith(
            "import-record: error: argument --accept-removals: v9.9: no round of the record (rounds: "
            "v0.5, v0.6, v0.7, v1.0, v1.1, v2.0, v2.1, v3.0, v3.1, v4.0, v4.1, v5.0, v5.1; write them as "
            "v1.0,v2.1) (see build.py import-record --help)"
        )
    )


def test_a_leftover_beside_an_intact_record_is_a_warning(tmp_path, monkeypatch, warm_cache):
    """Killed while writing (here seal-record's writer): the record is whole, the build goes on
    and says what was left, and seal-record removes it."""
    from sitegen.content.load import load_site

    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = write_record_project(tmp_path)
    path = content / "data/record/results-v1.1.yaml"
    original = path.read_bytes()
    path.write_text(V11, "utf-8")
    done = killed(content, "write", "seal-record")
    assert done.returncode == -signal.SIGKILL, done.stderr
    path.write_bytes(original)  # the hand edit undone: the record is as sealed
    said = [str(p) for p in load_site(content).warnings if ".record" in p.path]
    assert said == [
        "content/data/.record.new: warning: left by an import that was stopped; the record is whole "
        "without it; python build.py seal-record or the next import-record removes it"
    ]


def test_a_v05_copy_of_one_submission_keeps_the_others():
    """v0.5 nests every submission under `v0.5.0/<submitter>/<entry>/results/`: the folder
    before `/results/` is what a whole copy holds (a real v0.5 copy of one NVIDIA folder,
    before this, removed the other 46 results with its removals accepted)."""
    from sitegen.importer.review import keep_unheld
    from sitegen.importer.round import held_folders

    mine = "v0.5.0/nvidia/submission/results/dgx1_multi_ngc18.11_mxnet/resnet"
    other_nvidia = "v0.5.0/nvidia/submission/results/dgx1_ngc18.11_pytorch/ssd"
    google = "v0.5.0/google/cloud_v2.8/ssd-tpuv2-8/results/tpu/ssd"
    stored = {
        "v0.5": [
            {"id": "v0.5-a", "path": mine},
            {"id": "v0.5-b", "path": other_nvidia},
            {"id": "v0.5-c", "path": google},
        ]
    }
    result = {
        "round": "v0.5",
        "path": "copy",
        "records": [{"id": "v0.5-a", "path": mine}],
        "notes": [],
        "held": held_folders([f"{mine}/result_0.txt"]),
    }
    said = keep_unheld([result], stored)
    assert [r["id"] for r in result["records"]] == ["v0.5-a", "v0.5-b", "v0.5-c"]
    assert said == [
        "copy: not a whole copy of round v0.5 (it holds no folder of v0.5.0/google/cloud_v2.8/ssd-tpuv2-8): "
        "its 2 published result(s) in folders it does not hold are kept as they were"
    ]
    whole = {**result, "records": [{"id": "v0.5-a", "path": mine}], "notes": []}
    whole["held"] = held_folders([f"{mine}/result_0.txt", f"{google}/result_0.txt", f"{other_nvidia}/x"])
    assert keep_unheld([whole], stored) == [] and len(whole["records"]) == 1  # a removal, asked about
