"""Golden output: the sample record's project (tests/record_sample.py: every page kind, the
record's among them) builds to exactly the files and bytes listed in tests/golden/sample-site.txt
(path and sha256 of each file). A change meant to leave the site as it is must keep this list;
a change meant to alter the site regenerates it on purpose, and its diff shows which files moved:

    python -m pytest tests/site/test_golden.py --update-golden
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from sitegen.assemble.pipeline import build

from project import TEMPLATES
from record_sample import write_record_project

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "sample-site.txt"


def manifest(out: Path) -> str:
    """One line per file, sorted by path: '<sha256>  <path>' (sha256sum's form)."""
    lines = [
        f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(out).as_posix()}"
        for p in sorted(out.rglob("*"))
        if p.is_file()
    ]
    return "\n".join(lines) + "\n"


def test_the_sample_site_is_the_golden_one(tmp_path, warm_cache, monkeypatch, request):
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "output"
    build(write_record_project(tmp_path / "sample"), TEMPLATES, out, cache=warm_cache)
    made = manifest(out)
    if request.config.getoption("--update-golden"):
        GOLDEN.write_text(made, "utf-8")
    expected = GOLDEN.read_text("utf-8")
    moved = sorted(set(made.splitlines()) ^ set(expected.splitlines()), key=lambda l: l[66:])
    assert made == expected, "files that differ from tests/golden/sample-site.txt:\n" + "\n".join(moved[:40])
