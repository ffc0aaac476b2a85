import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from project import TEMPLATES, write_project  # noqa: E402
from sitegen.build.pipeline import build  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/golden/ from this build (tests/build/test_golden.py)")


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path)


@pytest.fixture(scope="session")
def shipped_site(tmp_path_factory):
    """The shipped content, built once per test session."""
    out = tmp_path_factory.mktemp("shipped") / "output"
    build(ROOT / "content", TEMPLATES, out)
    return out


@pytest.fixture(scope="session")
def tiny_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    content = write_project(folder)
    out = folder / "output"
    build(content, TEMPLATES, out)
    return out
