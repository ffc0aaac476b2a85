"""Sites built once per test run and shared by the pytest-xdist workers, for tests that only
read them; the shipped site is built in a process of its own from the start of the run, while
the workers run the tests that do not need it (tests/conftest.py starts it).

A shared folder is made under a lock (`run folder`/shared-NAME.lock): the first to take the
lock makes it and leaves shared-NAME.done; the others wait on the lock, then read it. The
background build is the first to take the lock: it holds it until it ends, and if it fails
(no .done), the first test that asks makes the folder itself and shows the error.

Run as a script (`python tests/shared_sites.py RUN_FOLDER`), it builds the shipped site, holding
the lock it was handed (file descriptor LOCK_FD) by the process that started it."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = "shipped"
SAMPLES = "samples"


def run_folder(tmp_path_factory) -> Path:
    """The folder of this test run, the same for every worker (each worker's own base folder
    is inside it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_folder(root: Path, name: str, make: Callable[[Path], None]) -> Path:
    """root/shared-NAME, made once by make(folder) under the lock; the others wait for it."""
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _made(root, name, make)


def _made(root: Path, name: str, make: Callable[[Path], None]) -> Path:
    """Made by make(folder) unless done already; the caller holds the lock."""
    folder = root / f"shared-{name}"
    if not (root / f"shared-{name}.done").exists():
        shutil.rmtree(folder, ignore_errors=True)
        make(folder)
        (root / f"shared-{name}.done").touch()
    return folder


def build_shipped(folder: Path) -> None:
    """content/ built into folder/output, and the build's warnings (what `check --strict`
    reports besides dead links, sitegen/editor/authoring.py) in folder/warnings.json. In this
    process only: it is as fast as language processes in CPU time, and the cores are busy with
    the tests meanwhile."""
    from sitegen.assemble.pipeline import build

    report = build(
        ROOT / "content", ROOT / "templates", folder / "output", processes=False, cache=ROOT / ".cache"
    )
    (folder / "warnings.json").write_text(json.dumps([str(w) for w in report.warnings]), "utf-8")


def build_samples(folder: Path) -> None:
    """The sample projects (tests/project.py in two and three languages and with a chart block,
    tests/record_sample.py) built into folder/cache, the store that warm_cache copies (tests/conftest.py). Of it only
    what is keyed by the whole of what it is made from is kept: compiled templates (by their
    source) and chart drawings and phone widths (by the drawn spec); not the chart specs (keyed
    by the plan's fields: a key that missed one would give every test the sample's spec), nor
    parses, bodies, conversions or any output's state, which the tests count and compare."""
    from sitegen.assemble.pipeline import build
    from sitegen.base.store import FILE, TABLES

    from project import REPORT_EN, REPORT_ZH, TEMPLATES, THREE, write_project
    from record_sample import write_record_project

    block = (
        "\n```chart\nbenchmark: bert\nround: v1.0\nsystems: [acme-16, zenith-8]\n```\n"  # test_charts.chart()
    )
    charted = {
        "reports/acme-vs-zenith.en.md": REPORT_EN + block,
        "reports/acme-vs-zenith.zh.md": REPORT_ZH + block,
    }
    samples = {
        "two": write_project,
        "three": lambda into: write_project(into, {"site.yaml": THREE}),
        "record": write_record_project,
        "chart": lambda into: write_project(into, charted),  # a report's chart block in each language
    }
    for name, write in samples.items():
        build(
            write(folder / name), TEMPLATES, folder / name / "output", cache=folder / "cache", processes=False
        )
    with closing(sqlite3.connect(folder / "cache" / FILE)) as db, db:
        for table in set(TABLES) - {"templates", "charts"}:  # what tests count and compare
            db.execute(f"DELETE FROM {table}")
        db.execute("DELETE FROM charts WHERE key LIKE '%.specs.json'")


def copy_store(store: Path, to: Path) -> Path:
    """The store of folder `store` copied into folder `to` (SQLite's backup: a whole copy)."""
    from sitegen.base.store import FILE

    to.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(store / FILE)) as source, closing(sqlite3.connect(to / FILE)) as copy:
        source.backup(copy)
    return to


def output_files(out: Path) -> dict[str, bytes]:
    """A built site's files as `check` has them before it writes nothing ({path: bytes}), the
    pages' bytes only (the other files' names are what links need); without the build's marker."""
    from sitegen.assemble.outdir import MARKER

    return {
        path.relative_to(out).as_posix(): path.read_bytes() if path.suffix == ".html" else b""
        for path in out.rglob("*")
        if path.is_file() and path.name != MARKER
    }


def start_shipped_build(root: Path) -> subprocess.Popen | None:
    """Start building the shipped site in a process of its own, unless someone already holds
    its lock or it is built; the process gets the lock (taken here, so that no test takes it
    first) and holds it until it ends."""
    lock = open(root / f"shared-{SHIPPED}.lock", "w")
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return None
        if (root / f"shared-{SHIPPED}.done").exists() or (root / f"shared-{SHIPPED}.started").exists():
            return None
        (root / f"shared-{SHIPPED}.started").touch()
        log = open(root / f"shared-{SHIPPED}.log", "w")
        with log:
            return subprocess.Popen(
                [sys.executable, str(Path(__file__)), str(root)],
                cwd=ROOT,
                env={**os.environ, "LOCK_FD": str(lock.fileno())},
                pass_fds=(lock.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
    finally:
        lock.close()  # the lock stays taken while the started process holds its copy


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    held = int(os.environ["LOCK_FD"])  # taken by the process that started this one
    _made(Path(sys.argv[1]), SHIPPED, build_shipped)
    os.close(held)
