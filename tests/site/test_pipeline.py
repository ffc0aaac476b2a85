"""Rendering in forked processes: results come back in order; a crash is an error that says why."""

import os

import pytest

from sitegen.assemble.forking import beside, in_forked_processes


def _square(n):
    return n * n


def _fail(n):
    raise ValueError(f"broken job {n}")


def _die(n):
    os._exit(3)


def test_results_come_back_in_the_order_of_the_jobs():
    assert in_forked_processes(_square, [3, 4, 5]) == [9, 16, 25]


def _busy(job):
    """Marks itself running in a folder, waits, and says how many were running meanwhile."""
    import time

    folder, n = job
    mark = folder / f"running-{n}"
    mark.touch()
    seen = 0
    for _ in range(20):
        seen = max(seen, len(list(folder.glob("running-*"))))
        time.sleep(0.02)
    mark.unlink()
    return n, seen


def test_at_most_at_once_processes_run_together_and_results_keep_their_order(tmp_path):
    results = in_forked_processes(_busy, [(tmp_path, n) for n in range(5)], at_once=2)
    assert [n for n, _ in results] == [0, 1, 2, 3, 4]
    assert max(seen for _, seen in results) <= 2


def test_an_exception_in_a_process_is_raised_with_its_traceback():
    with pytest.raises(RuntimeError) as caught:
        in_forked_processes(_fail, [1, 2])
    assert "ValueError: broken job 1" in str(caught.value) and "_fail" in str(caught.value)


def test_a_process_that_dies_is_an_error_with_its_exit_code():
    with pytest.raises(RuntimeError, match="exit code 3"):
        in_forked_processes(_die, [1])


def _meet(mine, theirs):
    """Leave `mine`, then wait (up to 10 s) for `theirs`: two sides that run one after the
    other never both find the other's mark. (pid, whether the other side's mark came)."""
    import time

    mine.touch()
    for _ in range(1000):
        if theirs.exists():
            return os.getpid(), True
        time.sleep(0.01)
    return os.getpid(), False


def test_beside_runs_its_function_in_another_process_while_this_one_works(tmp_path):
    """The state of a build is saved in a forked process while this one removes the previous
    output and saves the manifest: both values come back, the first made elsewhere, and the
    two sides run at the same time."""
    a, b = tmp_path / "a", tmp_path / "b"
    theirs, mine = beside(lambda: _meet(a, b), lambda: _meet(b, a))
    assert mine == (os.getpid(), True)
    assert theirs[0] != os.getpid() and theirs[1] is True


def test_beside_an_exception_of_either_side_is_raised_here():
    with pytest.raises(RuntimeError) as caught:
        beside(lambda: _fail(7), lambda: None)
    assert "ValueError: broken job 7" in str(caught.value)
    with pytest.raises(ValueError, match="broken job 8"):
        beside(lambda: None, lambda: _fail(8))


def _content_error(n):
    from sitegen.base.errors import ContentError, Problem

    raise ContentError([Problem("content/templates/report.html", 2 + n, "template syntax error")])


def test_an_editors_mistake_in_a_process_is_said_with_its_file_and_line():
    """A content error found while a forked process renders (a template of the editor's that
    only fails when a page uses it) is the same ContentError as in one process, not a crash."""
    from sitegen.base.errors import ContentError

    with pytest.raises(ContentError) as caught:
        in_forked_processes(_content_error, [1, 2])
    assert str(caught.value).splitlines() == [
        "content/templates/report.html:3: template syntax error",
        "content/templates/report.html:4: template syntax error",
    ]


def test_a_broken_template_of_a_big_site_is_reported_at_its_line(tmp_path):
    """The shipped site (many reports: rendered in forked processes) with a template override
    that breaks at line 3: `build.py` says file:line and nothing else, exits 1, writes nothing."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    content = tmp_path / "content"
    shutil.copytree(root / "content", content)
    (content / "templates").mkdir()
    (content / "templates" / "report.html").write_text(
        '{% extends "base.html" %}\n{% block main %}\n{{ report.title | nosuchfilter }}\n{% endblock %}\n',
        "utf-8",
    )
    run = subprocess.run(
        [
            sys.executable,
            str(root / "build.py"),
            "--content",
            str(content),
            "--out",
            str(tmp_path / "output"),
            "-q",
        ],
        cwd=tmp_path,
        env={**os.environ, "SITEGEN_CACHE": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 1, run.stderr
    errors = [line for line in run.stderr.splitlines() if ": warning:" not in line]
    assert errors[0].startswith("content/templates/report.html:3: template"), run.stderr
    assert "Traceback" not in run.stderr and "RuntimeError" not in run.stderr
    assert not (tmp_path / "output").exists()


def test_no_process_is_forked_while_another_thread_runs():
    """A forked child inherits every lock as it was: one held by another thread stays held for
    ever in the child. While a thread runs, the jobs are done in this process instead."""
    import threading

    from sitegen.assemble import forking

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not forking.fork_safe()
        assert in_forked_processes(_pid, [1, 2]) == [os.getpid(), os.getpid()]
        assert beside(os.getpid, os.getpid) == (os.getpid(), os.getpid())
    finally:
        stop.set()
        thread.join()
    assert os.getpid() not in in_forked_processes(_pid, [1, 2])


def _pid(n):
    return os.getpid()


# Run in a pseudo-terminal: the command line's build with its status line, the tiny project
# made "big" so that it renders in language processes; each fork notes the threads alive then.
TERMINAL_BUILD = """
import sys, threading
from sitegen import cli
from sitegen.assemble import forking, rendering

log, start = open(sys.argv[1], "a"), forking._start

def noted(*args):
    log.write(f"{threading.active_count()}\\n")
    log.flush()
    return start(*args)

forking._start = noted
rendering.PARALLEL_MIN_REPORTS = 1
rendering.os.cpu_count = lambda: 2
sys.exit(cli.main(sys.argv[2:]))
"""


def test_a_build_in_a_terminal_forks_its_languages_with_no_other_thread_alive(tmp_path):
    import pty
    import subprocess
    import sys
    from pathlib import Path

    from tests.project import write_project

    content = write_project(tmp_path)
    log = tmp_path / "forks.txt"
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "SITEGEN_CACHE": str(tmp_path / "cache")}
    env.pop("NO_COLOR", None)
    argv = [sys.executable, "-c", TERMINAL_BUILD, str(log), "--content", str(content)]
    argv += ["--out", str(tmp_path / "o")]
    root = Path(__file__).resolve().parents[2]
    try:
        terminal = {"stdin": follower, "stdout": follower, "stderr": follower}
        done = subprocess.run(argv, **terminal, env=env, cwd=root, timeout=300)
    finally:
        os.close(follower)
    shown = b""
    try:
        while chunk := os.read(leader, 65536):
            shown += chunk
    except OSError:  # the terminal is closed once everything written is read
        pass
    os.close(leader)
    assert done.returncode == 0, shown.decode(errors="replace")
    assert "building…" in shown.decode(errors="replace")  # the status line was shown
    # the process checking the editors' words, both languages, the record's data files, then
    # the one saving the build's state: each forked beside no other thread
    assert log.read_text().split() == ["1", "1", "1", "1", "1"]
