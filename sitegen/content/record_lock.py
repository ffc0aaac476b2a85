"""One lock per content folder, so that a build never reads a record an import is swapping.

The lock is a file beside the content folder (`.content.lock` for `content/`), as a build's
own lock is beside its output folder (assemble/outdir.py): the record folder inside is replaced
whole by an import, so it cannot hold its own lock. A build and `check` hold it shared for
their whole run (any number at once); an import and `seal-record` hold it exclusive while they
read the stored record and swap in the new one, and write their process id into it. Neither
side waits: the second is refused with one line. flock: the kernel releases the lock however
the process ends. The file stays (removing a file others may hold shared would split the lock)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path


class RecordBusy(Exception):
    """The record is being written (or read) by another process; the message says which."""


def lock_path(content: Path) -> Path:
    content = content.absolute()
    return content.parent / f".{content.name}.lock"


def _open(path: Path, create: bool = True) -> int:
    """The lock file, never through a link (its bytes are rewritten with a process id)."""
    return os.open(path, os.O_RDWR | os.O_NOFOLLOW | (os.O_CREAT if create else 0), 0o644)


@contextlib.contextmanager
def reading(content: Path, create: bool = True):
    """Held by a build or check of `content`: refused while an import writes its record. A
    folder where no lock can be made (read-only, absent) is one no import can write either.
    `create=False` (check, which writes nothing): no lock file yet means no import ever ran."""
    try:
        fd = _open(lock_path(content), create)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EROFS, errno.ENOENT, errno.EPERM):
            yield
            return
        raise
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise RecordBusy(
                f"an import (process {holder}) is writing the record of {content} right now; "
                "run this again when it has finished"
            ) from None
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def writing(content: Path):
    """Held by an import (or seal-record) of `content`'s record: refused while a build, a check
    or another import of that content runs."""
    path = lock_path(content)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _open(path)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RecordBusy(
                f"a build, a check or an import of {content} is running ({path} is held); "
                "run this again when it has finished"
            ) from None
        _say_holder(fd, str(os.getpid()))
        try:
            yield
        finally:
            _say_holder(fd, "")
    finally:
        os.close(fd)


def _say_holder(fd: int, text: str) -> None:
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, text.encode(), 0)
    except OSError:  # a full disk: the lock holds all the same
        pass
