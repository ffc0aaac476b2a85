import fcntl
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from sitegen.build.pipeline import build  # noqa: E402

from project import TEMPLATES, write_project  # noqa: E402


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/ from this build (tests/build/test_golden.py)",
    )


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path)


def shared_folder(tmp_path_factory, name: str, make) -> Path:
    """A folder made once per test run and shared by its pytest-xdist workers (which run the
    tests in parallel): the first to ask calls make(folder) under a lock, the others wait for
    it and read what it made. For what tests only read, such as a built site."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's own folder
    folder = root / f"shared-{name}"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / f"shared-{name}.done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            make(folder)
            (root / f"shared-{name}.done").touch()
    return folder


@pytest.fixture(scope="session")
def shipped_site(tmp_path_factory):
    """The shipped content, built once per test run (shared by the workers); only read."""
    folder = shared_folder(
        tmp_path_factory, "shipped", lambda folder: build(ROOT / "content", TEMPLATES, folder / "output")
    )
    return folder / "output"


@pytest.fixture(scope="session")
def tiny_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    content = write_project(folder)
    out = folder / "output"
    build(content, TEMPLATES, out)
    return out
