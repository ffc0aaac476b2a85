"""The faults of issue 29: each pinned with its exact message, its exit code, and the bytes of
the output and the content before and after."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from project import TEMPLATES, write_project
from sitegen.outdir import MARKER

ROOT = Path(__file__).resolve().parent.parent


def snapshot(folder: Path) -> dict[str, str]:
    """Every file and folder under `folder` (hidden ones too) with a digest of its bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = "link:" + os.readlink(path)
        elif path.is_dir():
            found[rel] = "dir"
        else:
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def command(content: Path, out: Path) -> list[str]:
    return [sys.executable, str(ROOT / "build.py"), "-q", "--content", str(content),
            "--templates", str(TEMPLATES), "--out", str(out)]


def start(content: Path, out: Path, cache: Path) -> subprocess.Popen:
    return subprocess.Popen(command(content, out), env={**os.environ, "SITEGEN_CACHE": str(cache)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# ---- 1. two builds of one output folder with two caches ---------------------------------------

PAIRS = 8


def _variant(report: Path, original: str, number: int) -> None:
    """Two versions of one report, so that each build of a pair has work to do."""
    report.write_text(original + f"\nA closing sentence, version {number}.\n", "utf-8")


def test_two_builds_with_two_caches_never_publish_a_partial_output(tmp_path):
    """Pairs of builds of one --out, each with its own SITEGEN_CACHE (a checkout's build.py and
    the installed command elsewhere), the second started together with the first or as soon as
    the first has a staging folder. Every pair leaves the whole site of the content (byte for
    byte what a build alone makes: every file, the marker), the build that is not first is
    refused with one line and exit 2, and the next build of either cache is correct.
    With the lock in the cache (before this test) every run failed by its third pair (3 runs): an
    output without its marker and with 3 to 44 of 48 files; the build whose staging folder was
    removed under it exited 0."""
    content = write_project(tmp_path)
    report = content / "reports" / "acme-vs-zenith.en.md"
    original = report.read_text("utf-8")
    expected = {}
    for number in (0, 1):                      # what a build alone makes of each version
        _variant(report, original, number)
        alone = tmp_path / f"alone-{number}"
        subprocess.run(command(content, alone), check=True,
                       env={**os.environ, "SITEGEN_CACHE": str(tmp_path / "cache-alone")})
        expected[number] = snapshot(alone)
    assert expected[0] != expected[1] and MARKER in expected[0]
    out = tmp_path / "site"
    refused = ("error: another build (process {}) is writing {} right now; run this one again "
               "when it has finished\n")
    for pair in range(PAIRS):
        number = pair % 2
        _variant(report, original, number)
        # the first build cold (it stages for about a second), the second with what its cache
        # kept of both versions: it can start later and finish first
        shutil.rmtree(tmp_path / "cache-a", ignore_errors=True)
        first = start(content, out, tmp_path / "cache-a")
        if pair % 3:                           # else both at once
            while first.poll() is None and not list(tmp_path.glob(".site.tmp-*")):
                time.sleep(0.002)
        second = start(content, out, tmp_path / "cache-b")
        results = [(process.wait(), *process.communicate()) for process in (first, second)]
        found = snapshot(out)
        assert found == expected[number], (f"pair {pair}: {len(found)} of "
                                           f"{len(expected[number])} entries, marker: "
                                           f"{MARKER in found}; {results}")
        assert sorted(code for code, _, _ in results) in ([0, 0], [0, 2]), (pair, results)
        for (code, _, err), other in zip(results, (second, first)):
            if code == 2:
                assert err == refused.format(other.pid, out), (pair, results)
    assert not list(tmp_path.glob(".site.*")), "a staging folder or lock file is left"
    for cache in ("cache-a", "cache-b"):       # the next build of either cache is correct
        subprocess.run(command(content, out), check=True,
                       env={**os.environ, "SITEGEN_CACHE": str(tmp_path / cache)})
        assert snapshot(out) == expected[number]
