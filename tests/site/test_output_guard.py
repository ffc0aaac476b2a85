"""The output folder: a build replaces only a folder it made, one build at a time, and neither a
refusal, a fault nor Ctrl-C costs the editor a file. Every case pins the exact message, the exit
code, and that every file around is byte-for-byte as it was (nothing created, nothing lost)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import build
from sitegen.assemble import outdir
from sitegen.assemble.outdir import MARKER, BuildLock, OutputRefused

from project import TEMPLATES, snapshot, write_project

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def world(tmp_path, monkeypatch):
    """A git work tree holding a content project and a copy of the templates; a home folder
    with a file of the user's; a build cache of the test's own."""
    repo = tmp_path / "work"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    content = write_project(repo)
    templates = repo / "templates"
    shutil.copytree(TEMPLATES, templates)
    home = tmp_path / "home"
    home.mkdir()
    (home / "thesis.txt").write_text("four years of work\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    return tmp_path, repo, content, templates


def run(content: Path, templates: Path, out: Path | str, capsys) -> tuple[int, list[str]]:
    code = build.main(["-q", "--content", str(content), "--templates", str(templates), "--out", str(out)])
    return code, capsys.readouterr().err.splitlines()


def refused(world, out: Path, message: str, capsys) -> None:
    tmp, _, content, templates = world
    before = snapshot(tmp)
    code, err = run(content, templates, out, capsys)
    assert (code, err) == (2, [f"error: refusing to build into {out}: {message}"])
    assert snapshot(tmp) == before


def test_refuses_the_content_folder(world, capsys):
    content = world[2]
    refused(world, content, f"it is or holds the content folder ({content})", capsys)


def test_refuses_a_folder_inside_the_content(world, capsys):
    content = world[2]
    refused(world, content / "reports", f"it is inside the content folder ({content})", capsys)


def test_refuses_the_repository_root(world, capsys):
    repo = world[1]
    refused(world, repo, f"it is or holds the repository ({repo})", capsys)


def test_refuses_a_parent_of_the_content(world, capsys):
    tmp, repo = world[0], world[1]
    refused(world, tmp, f"it is or holds the repository ({repo})", capsys)


def test_refuses_the_generators_own_checkout(world, capsys):
    # checked by its text alone: the guard refuses before anything is made or removed
    with pytest.raises(OutputRefused, match=f"it is or holds the repository \\({ROOT}\\)"):
        outdir.guard(ROOT, content=world[2], templates=world[3], repos=[ROOT], cache=world[0] / "cache")


def test_refuses_the_templates_folder(world, capsys):
    templates = world[3]
    refused(world, templates / "partials", f"it is inside the templates folder ({templates})", capsys)


def test_refuses_the_home_folder(world, capsys):
    refused(world, world[0] / "home", "it is the home folder", capsys)


def test_refuses_the_root_folder(world):
    with pytest.raises(OutputRefused, match=r"^refusing to build into /: it is the root folder$"):
        outdir.guard(
            Path("/"), content=world[2], templates=world[3], repos=[world[1]], cache=world[0] / "cache"
        )


def test_refuses_the_build_cache(world, capsys):
    cache = world[0] / "cache"
    cache.mkdir()
    refused(world, cache / "site", f"it is inside the build cache ({cache})", capsys)


def test_refuses_an_existing_file(world, capsys):
    target = world[0] / "site.html"
    target.write_text("<p>mine</p>")
    refused(world, target, "it exists and is not a folder; give a folder path (--out DIR)", capsys)


def test_refuses_a_folder_with_other_files(world, capsys):
    target = world[0] / "photos"
    target.mkdir()
    (target / "cat.jpg").write_bytes(b"\xff\xd8 not really")
    refused(
        world,
        target,
        "the folder is not empty and was not made by this generator (no "
        ".sitegen-output file); choose a new or empty folder with --out, or move its files "
        "away yourself",
        capsys,
    )


def test_refuses_an_old_looking_output_with_a_file_of_the_users(world, capsys):
    tmp, _, content, templates = world
    out = tmp / "output"
    assert run(content, templates, out, capsys)[0] == 0
    (out / MARKER).unlink()
    (out / "notes.txt").write_text("mine")
    refused(
        world,
        out,
        "the folder is not empty and was not made by this generator (no "
        ".sitegen-output file); choose a new or empty folder with --out, or move its files "
        "away yourself",
        capsys,
    )


def test_refuses_a_read_only_output_folder(world, capsys):
    """The build swaps a new folder in beside the old one, which neither a read-only folder
    nor (for root) its permissions would stop: the editor's read-only output stays as it is."""
    tmp, _, content, templates = world
    out = tmp / "output"
    assert run(content, templates, out, capsys)[0] == 0
    (content / "reports" / "acme-vs-zenith.en.md").write_text(
        (content / "reports" / "acme-vs-zenith.en.md").read_text("utf-8") + "\nOne more line.\n", "utf-8"
    )
    out.chmod(0o555)
    try:
        refused(
            world,
            out,
            f"the folder is read-only; make it writable (chmod u+w {out}) to let the build replace it",
            capsys,
        )
    finally:
        out.chmod(0o755)
    assert run(content, templates, out, capsys)[0] == 0  # writable again: built as usual


def test_builds_into_a_new_folder_and_marks_it(world, capsys):
    tmp, _, content, templates = world
    out = tmp / "new" / "site"
    assert run(content, templates, out, capsys) == (0, [])
    assert (out / MARKER).read_bytes() == outdir.MARKER_TEXT
    assert (out / "index.html").is_file()
    assert sorted(p.name for p in (tmp / "new").iterdir()) == ["site"]  # no staging left


def test_builds_into_an_empty_folder(world, capsys):
    tmp, _, content, templates = world
    (tmp / "empty").mkdir()
    assert run(content, templates, tmp / "empty", capsys) == (0, [])
    assert (tmp / "empty" / MARKER).is_file()


def test_adopts_an_output_folder_of_an_earlier_version(world, capsys):
    """Earlier versions wrote no marker: their output is recognised by its layout."""
    tmp, _, content, templates = world
    out = tmp / "output"
    assert run(content, templates, out, capsys)[0] == 0
    (out / MARKER).unlink()
    shutil.rmtree(out / "downloads")  # the record's downloads came after the marker
    (out / "en" / "stale.html").write_text("from an old build")
    assert run(content, templates, out, capsys) == (0, [])
    assert (out / MARKER).is_file() and not (out / "en" / "stale.html").exists()


def test_a_second_build_at_once_is_refused_and_creates_nothing(world, capsys):
    tmp, _, content, templates = world
    out = tmp / "site"
    before = snapshot(tmp)
    with BuildLock(out.resolve()):
        assert (tmp / ".site.lock").read_text() == str(os.getpid())  # beside the folder
        code, err = run(content, templates, out, capsys)
    assert code == 2
    assert err == [
        f"error: another build (process {os.getpid()}) is writing {out} right now; "
        "run this one again when it has finished"
    ]
    assert snapshot(tmp) == before and not out.exists()


def test_a_build_refused_just_after_the_other_took_the_lock_names_its_process(world):
    """The holder writes its process id a moment after it takes the lock; a build refused in
    that moment waits for the id rather than saying 'process ?' (seen once in CI)."""
    import fcntl
    import threading

    tmp, _, _, _ = world
    out = (tmp / "site").resolve()
    with open(tmp / ".site.lock", "w") as held:  # taken, its id not yet written
        fcntl.flock(held, fcntl.LOCK_EX)
        late = threading.Timer(0.1, lambda: (held.write("4242"), held.flush()))
        late.start()
        with pytest.raises(OutputRefused, match=r"another build \(process 4242\) is writing"):
            with BuildLock(out):
                pass
        late.join()


def test_staging_folders_of_a_killed_build_are_removed(world, capsys):
    tmp, _, content, templates = world
    out = tmp / "site"
    left = tmp / ".site.tmp-abc123"
    (left / "en").mkdir(parents=True)
    (left / MARKER).write_bytes(outdir.MARKER_TEXT)
    (left / "en" / "index.html").write_text("half a page")
    empty = tmp / ".site.tmp-emptyone"
    empty.mkdir()
    users = tmp / ".site.tmp-mine"  # same pattern, but not the generator's: kept
    users.mkdir()
    (users / "draft.md").write_text("mine")
    assert run(content, templates, out, capsys) == (0, [])
    assert not left.exists() and not empty.exists()
    assert (users / "draft.md").read_text() == "mine"


def test_a_cache_path_that_is_a_file_is_one_message(world, capsys, monkeypatch):
    tmp, _, content, templates = world
    out = tmp / "site"
    assert run(content, templates, out, capsys)[0] == 0
    blocker = tmp / "cache-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SITEGEN_CACHE", str(blocker))
    before = snapshot(tmp)
    code, err = run(content, templates, out, capsys)
    assert code == 1
    assert err == [f"error: {blocker}: Not a directory; output left as it was"]
    assert snapshot(tmp) == before


def test_a_same_size_edit_of_the_output_is_not_called_up_to_date(world, capsys):
    tmp, _, content, templates = world
    out = tmp / "site"
    assert run(content, templates, out, capsys)[0] == 0
    page = out / "en" / "index.html"
    good, info = page.read_bytes(), page.stat()
    page.write_bytes(good.replace(b"<html", b"<HTML", 1))  # same size, same mtime
    os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert run(content, templates, out, capsys) == (0, [])
    assert page.read_bytes() == good


def test_ctrl_c_stops_cleanly_and_keeps_the_output(world, tmp_path):
    """Ctrl-C while the staging folder is being filled: one line, exit 130, no traceback, the
    previous output byte for byte, no staging folder left."""
    _, _, content, templates = world
    out = tmp_path / "site"
    command = [
        sys.executable,
        str(ROOT / "build.py"),
        "-q",
        "--content",
        str(content),
        "--templates",
        str(templates),
        "--out",
        str(out),
    ]
    env = {**os.environ, "SITEGEN_CACHE": str(tmp_path / "cache")}
    subprocess.run(command, check=True, env=env)
    before = snapshot(out)
    shutil.rmtree(tmp_path / "cache")  # a cold build, so there is time to interrupt it
    process = subprocess.Popen(
        command,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".site.tmp-*")) and process.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.005)
    process.send_signal(signal.SIGINT)
    err = process.communicate(timeout=60)[1]
    if process.returncode == 0:
        pytest.fail("the build finished before the interrupt arrived; the test proves nothing")
    assert (process.returncode, err) == (
        130,
        "interrupted: the output folder is as the last complete build left it\n",
    )
    assert snapshot(out) == before
    assert not list(tmp_path.glob(".site.*"))
