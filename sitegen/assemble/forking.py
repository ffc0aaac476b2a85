"""Jobs run in forked processes, one per job; never forked while another thread runs.

Each process inherits its job (the whole loaded site) instead of a pickled copy."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import traceback
from collections.abc import Collection

from sitegen.base.errors import ContentError


def fork_safe() -> bool:
    """False once this process has loaded vl-convert: its JavaScript runtime runs on threads
    that a forked child does not inherit, so a child drawing a chart would wait for ever (seen
    in the tests, which draw charts before building a site). A build from the command line
    draws nothing before it forks. False too while another thread runs (_other_threads)."""
    return "vl_convert" not in sys.modules and not _other_threads()


def _other_threads() -> list[threading.Thread]:
    """The threads of this process besides the main one: a forked child would inherit any lock
    one of them holds at that moment, with no thread left to release it."""
    main = threading.main_thread()
    return [thread for thread in threading.enumerate() if thread is not main]


def in_forked_processes(function, jobs: list, at_once: int | None = None, here: Collection[int] = ()) -> list:
    """function(job) for each job, each in a process of its own, at most `at_once` at a time
    (the machine's cores: a third language waits for a core instead of adding its memory to
    the peak). A forked process inherits its job (the whole loaded site) instead of receiving
    a pickled copy; only results come back, in the order of the jobs. A job is done in this
    process instead while another thread runs (_other_threads): never a fork beside a thread;
    so are the jobs `here` names (by index), once every other job has its process: light
    ones, whose process would cost more (forked, sent back, torn down) than their work."""
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork")
    at_once = max(1, at_once or len(jobs))
    pending = [(index, job) for index, job in enumerate(jobs) if index not in here]
    later = [(index, job) for index, job in enumerate(jobs) if index in here]
    running: dict = {}  # receiving end -> (job index, process)
    outcomes: list = [None] * len(jobs)
    try:
        while pending or running or later:
            while pending and len(running) < at_once:
                index, job = pending.pop(0)
                if _other_threads():  # a thread started since the build chose processes
                    outcomes[index] = _in_this_process(function, job)
                else:
                    receive, process = _start(context, function, job)
                    running[receive] = (index, process)
            if not pending and later:  # while the processes run
                index, job = later.pop(0)
                outcomes[index] = _in_this_process(function, job)
                continue
            for receive in wait(list(running)) if running else []:
                index, process = running.pop(receive)
                outcomes[index] = _outcome(process, receive)
                process.join()
    except BaseException:  # Ctrl-C or a fault here: no process writes on
        for _, process in running.values():
            process.kill()
        raise
    finally:
        for _, process in running.values():
            process.join()
    return _values(outcomes)


def _values(outcomes: list) -> list:
    """The jobs' values, in order; else the editor's mistakes of all of them as one
    ContentError (said as in one process: file:line), or the other failures as one error."""
    content = [problem for outcome, value in outcomes if outcome == "content" for problem in value]
    if content:
        raise ContentError(content)
    failures = [value for outcome, value in outcomes if outcome != "ok"]
    if failures:
        raise RuntimeError("a forked process failed:\n" + "\n".join(failures))
    return [value for _, value in outcomes]


def beside(function, here) -> tuple:
    """(function(), here()): function in a forked process while this one runs here(), so that
    two pieces of independent work use two cores; one after the other in this process while
    another thread runs. An error of either is raised here (_values, as in_forked_processes)."""
    if _other_threads():
        return function(), here()
    receive, process = _start(multiprocessing.get_context("fork"), _call, function)
    try:
        mine = here()
    except BaseException:
        process.kill()
        process.join()
        raise
    outcome = _outcome(process, receive)
    process.join()
    (value,) = _values([outcome])
    return value, mine


def _call(function):
    return function()


def _start(context, function, job):
    """(receiving end, process): a process running function(job), its result coming through
    the receiving end."""
    receive, send = context.Pipe(duplex=False)
    # Ctrl-C is held back while forking (a child must not take it before it ignores it) and
    # delivered to this process afterwards, which then stops the children.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        process = context.Process(target=_run_and_send, args=(function, job, send, os.getpid()))
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    send.close()
    return receive, process


def _in_this_process(function, job) -> tuple[str, object]:
    """function(job) without a process, its outcome as a process would send it."""
    try:
        return "ok", function(job)
    except ContentError as exc:
        return "content", exc.problems


def _outcome(process, receive) -> tuple[str, object]:
    try:
        return receive.recv()
    except EOFError:  # the process died before it could answer
        process.join()
        return "error", f"a rendering process ended with exit code {process.exitcode}"


def _run_and_send(function, job, send, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _die_with(parent)
    try:
        send.send(("ok", function(job)))
    except ContentError as exc:
        send.send(("content", exc.problems))
    except BaseException:  # noqa: BLE001 - reported to the parent with its traceback
        send.send(("error", traceback.format_exc()))
    finally:
        send.close()


def _die_with(parent: int) -> None:
    """A build that is killed takes its rendering processes with it (Linux: PR_SET_PDEATHSIG),
    instead of leaving them to finish work nobody will read."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # killed before the line above took effect
        os._exit(1)
