"""Builds are reproducible and all-or-nothing: the same content gives the same bytes, a build
killed midway leaves the previous output as it was, and nothing is written outside the output."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from sitegen.assemble.write import write_tree
from sitegen.base.errors import ContentError

from project import write_project
from record_sample import write_record_project

ROOT = Path(__file__).resolve().parents[2]


def build(content: Path, out: Path, cache: Path, **env) -> subprocess.CompletedProcess:
    """`python build.py` in a subprocess, with its own build cache (SITEGEN_CACHE)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "--content", str(content), "--out", str(out), "--quiet"],
        cwd=ROOT,
        env={**os.environ, "SITEGEN_CACHE": str(cache), **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under `folder`, by relative path."""
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


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
    # Two cold builds with different hash seeds, time zones and locales, and a warm one (the
    # first one's cache) into a third folder: not a byte may differ.
    runs = [
        build(
            content,
            tmp_path / "one" / "output",
            tmp_path / "cache-1",
            PYTHONHASHSEED="1",
            TZ="UTC",
            LC_ALL="C.UTF-8",
        ),
        build(
            content,
            tmp_path / "two" / "output",
            tmp_path / "cache-2",
            PYTHONHASHSEED="2",
            TZ="Asia/Shanghai",
            LC_ALL="C",
        ),
        build(content, tmp_path / "three" / "output", tmp_path / "cache-1", PYTHONHASHSEED="3"),
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
    a = snapshot(tmp_path / "one" / "output")
    assert a, "the build wrote nothing"
    for name in ("two", "three"):
        b = snapshot(tmp_path / name / "output")
        if a != b:
            pytest.fail(f"builds 'one' and '{name}' differ:\n" + differences(a, b), pytrace=False)


def test_a_rebuild_repairs_an_output_changed_in_place(tmp_path):
    """A file of the output changed after the build (same size: an editor, a half-finished copy,
    a build killed between its swap and its bookkeeping) is rewritten by the next build."""
    content = write_project(tmp_path)
    out, fresh, cache = tmp_path / "out" / "output", tmp_path / "fresh" / "output", tmp_path / "cache"
    assert build(content, out, cache).returncode == 0
    page = out / "en" / "index.html"
    data = page.read_bytes()
    assert b"Test Ledger" in data
    page.write_bytes(data.replace(b"Test Ledger", b"Evil Ledger"))
    again = build(content, out, cache)
    assert again.returncode == 0, again.stderr
    assert build(content, fresh, tmp_path / "fresh-cache").returncode == 0
    a, b = snapshot(out), snapshot(fresh)
    if a != b:
        pytest.fail(
            "after a rebuild, the output still differs from a fresh build:\n" + differences(b, a),
            pytrace=False,
        )


def _stray(out: Path) -> list[str]:
    """Temporary leftovers of the writer inside the output folder."""
    return sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if ".tmp" in p.name or ".old" in p.name or p.name.startswith(f".{out.name}")
    )


def _kill_and_check(command, env, out: Path, before: dict, complete: dict, when) -> str:
    """Start a build, let `when(process)` wait, SIGKILL it if still running, then check that the
    output is whole: the previous build, or (killed after its swap, or not killed at all) the
    complete new one; never a mix, never missing. Returns what happened."""
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        moment = when(process)
        killed = process.poll() is None
        if killed:
            process.send_signal(signal.SIGKILL)
    finally:
        _, stderr = process.communicate(timeout=60)
    if not killed:
        assert process.returncode == 0, f"the build failed:\n{stderr.decode(errors='replace')}"
        moment = "never (the build finished first)"
    assert out.is_dir(), f"killed {moment}: the output folder is gone"
    assert not _stray(out), f"killed {moment}: temporary files inside the output: {_stray(out)}"
    after = snapshot(out)
    if after == before:
        return "previous" if killed else "unchanged?"
    if after == complete:
        return "new" if killed else "finished"
    pytest.fail(
        f"killed {moment}, the output is neither the previous build nor the new one;"
        " against the previous:\n"
        + differences(before, after)
        + "\nagainst the new:\n"
        + differences(complete, after),
        pytrace=False,
    )


def test_a_killed_build_leaves_the_previous_output(tmp_path):
    """Build the sample record's project (every page kind, the record's among them), edit it,
    then SIGKILL rebuilds at many moments: the output folder is always the previous build byte
    for byte (or, killed after its swap, the new one), with no leftovers inside."""
    before_edit = write_record_project(tmp_path / "sample")
    edited = tmp_path / "edited"
    shutil.copytree(before_edit, edited)
    site_yaml = edited / "site.yaml"
    config = yaml.safe_load(site_yaml.read_text("utf-8"))
    config["title"] = {lang: f"{title} (edited)" for lang, title in config["title"].items()}
    site_yaml.write_text(yaml.safe_dump(config, allow_unicode=True), "utf-8")

    # The previous output (and the build cache that goes with it), kept to restore each round.
    out, cache = tmp_path / "site" / "output", tmp_path / "cache"
    first = build(before_edit, out, cache)
    assert first.returncode == 0, f"the sample project does not build:\n{first.stderr}"
    before = snapshot(out)
    saved_out, saved_cache = tmp_path / "saved-output", tmp_path / "saved-cache"
    shutil.copytree(out, saved_out)  # copy2: sizes and mtimes kept, as the cache recorded them
    shutil.copytree(cache, saved_cache)

    # What the edited build writes, and how long it takes from that cache.
    shutil.copytree(saved_cache, tmp_path / "timing-cache")
    started = time.perf_counter()
    timed = build(edited, tmp_path / "full" / "output", tmp_path / "timing-cache")
    duration = time.perf_counter() - started
    assert timed.returncode == 0, timed.stderr
    complete = snapshot(tmp_path / "full" / "output")
    assert complete != before, "editing the site title changed nothing"

    def after(seconds):
        def wait(process):
            time.sleep(seconds)
            return f"after {seconds:.2f} s"

        return wait

    def disk_state():
        """What is beside and inside the output folder: names, sizes, times, inodes."""
        state = sorted(os.listdir(out.parent))
        for folder, _, names in os.walk(out):
            for name in names:
                info = os.stat(os.path.join(folder, name))
                state.append((folder, name, info.st_size, info.st_mtime_ns, info.st_ino))
        return state

    def while_writing(extra):
        """Wait until the build starts writing (anything changes beside or inside the output
        folder, such as a staging folder appearing), then `extra` seconds more."""

        def wait(process):
            quiet = disk_state()
            deadline = time.monotonic() + duration * 5 + 10
            while time.monotonic() < deadline and process.poll() is None:
                if disk_state() != quiet:
                    time.sleep(extra)
                    return f"{extra * 1000:.0f} ms into writing"
                time.sleep(0.0005)
            return "when the build ended (no write seen)"

        return wait

    command = [sys.executable, str(ROOT / "build.py"), "--content", str(edited), "--out", str(out), "--quiet"]
    env = {**os.environ, "SITEGEN_CACHE": str(cache)}
    # Kill at several points of a build (start-up, loading, rendering), then while it writes.
    moments = [after(duration * f) for f in (0.2, 0.5, 0.8)]
    moments += [while_writing(extra) for extra in (0, 0.001, 0.003, 0.01)]
    outcomes = []
    for moment in moments:
        outcomes.append(_kill_and_check(command, env, out, before, complete, moment))
        # Back to the previous output and its cache for the next round; a killed writer's
        # staging folder beside the output goes too (it is not the output's concern).
        shutil.rmtree(out.parent)
        shutil.copytree(saved_out, out)
        shutil.rmtree(cache)
        shutil.copytree(saved_cache, cache)
    print("outcomes:", outcomes, "build:", round(duration, 2), "s")
    assert outcomes.count("previous") >= 3, (
        f"too few builds were killed before they finished (outcomes: {outcomes}; a build takes "
        f"{duration:.2f} s)"
    )


DIE_AFTER_RENAME = """
import os, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from sitegen.assemble.write import write_tree
stop, calls = int(sys.argv[3]), [0]
def dying(real):
    def rename(*args, **kwargs):
        real(*args, **kwargs)
        calls[0] += 1
        if calls[0] == stop:
            os._exit(137)  # like SIGKILL: no finally, no cleanup
    return rename
os.rename, os.replace = dying(os.rename), dying(os.replace)
write_tree({"index.html": b"new", "en/index.html": b"new en"}, Path(sys.argv[2]))
"""


def _old_output(out: Path) -> dict:
    (out / "en").mkdir(parents=True)
    (out / "index.html").write_bytes(b"old")
    (out / "en" / "index.html").write_bytes(b"old en")
    return snapshot(out)


def test_a_build_killed_between_any_two_renames_leaves_a_whole_output(tmp_path):
    """The swap itself must be atomic: dying right after any rename the writer makes leaves
    the previous output or the new one in place, never no output at all."""
    out = tmp_path / "output"
    old = _old_output(out)
    new = {"en": None, "en/index.html": b"new en", "index.html": b"new"}
    for stop in range(1, 10):
        run = subprocess.run(
            [sys.executable, "-c", DIE_AFTER_RENAME, str(ROOT), str(out), str(stop)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if run.returncode == 0:
            break  # the writer makes fewer renames than `stop`: every point was tried
        assert run.returncode == 137, run.stderr
        left = sorted(p.name for p in tmp_path.iterdir())
        if not out.is_dir():
            pytest.fail(
                f"a build dying right after rename #{stop} of the writer leaves no output "
                f"folder (its parent holds only {left})",
                pytrace=False,
            )
        assert not _stray(out), f"temporary files inside the output: {_stray(out)}"
        after = snapshot(out)
        assert after in (old, new), f"after rename #{stop} the output is a mix:\n{differences(old, after)}"
        for leftover in tmp_path.iterdir():  # back to the previous output for the next point
            shutil.rmtree(leftover)
        _old_output(out)


@pytest.mark.parametrize(
    "name",
    ["../evil.html", "/abs.html", "a/../../evil.html", "../output-sibling/evil.html", "a/../../../evil.html"],
)
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
    if snapshot(tmp_path) != before_tmp:
        pytest.fail(
            "write_tree changed files around the output:\n" + differences(before_tmp, snapshot(tmp_path)),
            pytrace=False,
        )
    assert not (tmp_path / "evil.html").exists() and not (parent / "evil.html").exists()


def test_spellings_that_differ_in_case_are_listed_in_one_order(tmp_path, warm_copy):
    """An accelerator published as 'Acme A1' and 'ACME A1' lists both spellings in code-point
    order whatever the hash seed (Jinja's sort ignores case by default: equal keys kept the
    set's order, which changes with every process). Each build has a store of its own, a copy
    of the warm one (compiled templates and chart drawings, keyed by their whole source)."""
    from project import seal_record
    from record_sample import write_record_project

    content = write_record_project(tmp_path / "p")
    path = content / "data" / "record" / "results-v1.1.yaml"
    path.write_text(
        path.read_text("utf-8").replace("accelerator_model: Acme A1", "accelerator_model: ACME A1"), "utf-8"
    )
    seal_record(content)
    pages = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"out-{seed}" / "output"
        run = build(content, out, warm_copy(tmp_path / f"cache-{seed}"), PYTHONHASHSEED=seed)
        assert run.returncode == 0, run.stderr
        pages.append((out / "en" / "accelerators" / "acme-a1.html").read_text("utf-8"))
    assert "<q>ACME A1</q>, <q>Acme A1</q>" in pages[0]  # the A1 variant's spellings
    assert pages[0] == pages[1] == pages[2]
