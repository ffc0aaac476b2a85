"""Builds are reproducible and all-or-nothing: the same content gives the same bytes, a build
killed midway leaves the previous output as it was, and nothing is written outside the output."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from project import write_project
from sitegen.errors import ContentError
from sitegen.write import write_tree

ROOT = Path(__file__).resolve().parents[2]


def build(content: Path, out: Path, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "--content", str(content),
                           "--out", str(out), "--quiet"], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=300)


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under `folder`, by relative path."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


def differences(a: dict, b: dict, limit: int = 20) -> str:
    only_a = sorted(set(a) - set(b))
    only_b = sorted(set(b) - set(a))
    changed = sorted(k for k in set(a) & set(b) if a[k] != b[k])
    lines = [f"only in first: {p}" for p in only_a[:limit]]
    lines += [f"only in second: {p}" for p in only_b[:limit]]
    lines += [f"different bytes: {p}" for p in changed[:limit]]
    return "\n".join(lines)


def test_two_builds_of_the_same_content_are_byte_identical(tmp_path):
    content = write_project(tmp_path)
    # Different hash seeds, time zones and locales must not change a byte.
    first = build(content, tmp_path / "one" / "output", PYTHONHASHSEED="1", TZ="UTC",
                  LC_ALL="C.UTF-8")
    second = build(content, tmp_path / "two" / "output", PYTHONHASHSEED="2",
                   TZ="Asia/Shanghai", LC_ALL="C")
    for run in (first, second):
        assert run.returncode == 0, run.stderr
    a, b = snapshot(tmp_path / "one" / "output"), snapshot(tmp_path / "two" / "output")
    assert a, "the build wrote nothing"
    assert a == b, "two builds differ:\n" + differences(a, b)


def _stray(out: Path) -> list[str]:
    """Temporary leftovers of the writer inside the output folder."""
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                  if ".tmp" in p.name or ".old-" in p.name or p.name.startswith(".output"))


def test_a_killed_build_leaves_the_previous_output(tmp_path):
    out = tmp_path / "site" / "output"
    started = time.perf_counter()
    first = build(ROOT / "content", out)
    duration = time.perf_counter() - started
    assert first.returncode == 0, f"the shipped content does not build:\n{first.stderr}"
    before = snapshot(out)
    command = [sys.executable, str(ROOT / "build.py"), "--content", str(ROOT / "content"),
               "--out", str(out), "--quiet"]
    kills = 0
    # Kill at several points of a build (imports, loading, rendering, writing): every time,
    # the output folder must be the previous complete build, byte for byte.
    for fraction in (0.15, 0.3, 0.45, 0.6, 0.7, 0.8, 0.9, 0.95):
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(duration * fraction)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            kills += 1
        process.wait(timeout=60)
        assert out.is_dir(), f"killed after {duration * fraction:.2f} s: the output folder is gone"
        assert not _stray(out), f"temporary files left inside the output: {_stray(out)}"
        after = snapshot(out)
        assert after == before, (f"killed after {duration * fraction:.2f} s, the output changed:\n"
                                 + differences(before, after))
    assert kills >= 3, f"only {kills} of the builds could be killed midway (build takes {duration:.2f} s)"


@pytest.mark.parametrize("name", ["../evil.html", "/abs.html", "a/../../evil.html",
                                  "../output-sibling/evil.html", "a/../../../evil.html"])
def test_the_writer_refuses_paths_outside_the_output(tmp_path, name):
    parent = tmp_path / "parent"
    out = parent / "output"
    out.mkdir(parents=True)
    (out / "index.html").write_bytes(b"previous")
    before_tmp = snapshot(tmp_path)
    absolute = Path(name) if name.startswith("/") else None
    existed = absolute.exists() if absolute else False
    try:
        with pytest.raises(ContentError):
            write_tree({"index.html": b"new", name: b"x"}, out)
    finally:
        if absolute and absolute.exists() and not existed:
            absolute.unlink()
            pytest.fail(f"write_tree created {absolute}")
    assert snapshot(tmp_path) == before_tmp, "write_tree changed files around the output:\n" + \
        differences(before_tmp, snapshot(tmp_path))
    assert not (tmp_path / "evil.html").exists() and not (parent / "evil.html").exists()
