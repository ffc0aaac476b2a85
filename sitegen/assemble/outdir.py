"""Which folder a build may replace, and one build at a time per folder.

A build replaces its output folder whole, so it must only ever replace a folder it made: one
that holds the marker file below (or nothing at all). Everything else is refused before anything
is created, read-only: the content, the templates, the repository, a parent of any of them, the
home folder, `/`, a file, and a folder holding files of somebody else.

Output folders written before the marker existed are recognised by their layout and adopted."""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
import time
from pathlib import Path

from sitegen.base import languages

MARKER = ".sitegen-output"
MARKER_TEXT = (
    b"This folder is written by the site generator (build.py).\n"
    b"Every build replaces all of it: keep no file of your own here.\n"
)
# What versions before the marker wrote at the top of an output folder (English and Chinese).
EARLIER_TOP = {
    "index.html",
    "404.html",
    "robots.txt",
    "sitemap.xml",
    "assets",
    "single",
    *languages.KNOWN,
}  # and the language folders (en, zh, zh-hant, ...)
EARLIER_SIGNATURE = b'<body class="chooser">'
STAGING_PREFIXES = ("tmp", "old")


class OutputRefused(Exception):
    """The output folder is not the build's to replace; the message says why and what to do."""


def guard(out: Path, *, content: Path, templates: Path, repos: list[Path], cache: Path) -> Path:
    """The resolved output folder, if the build may replace it; raise OutputRefused if not."""
    target = out.resolve()
    _refuse_protected(out, target, content=content, templates=templates, repos=repos, cache=cache)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise OutputRefused(
            f"refusing to build into {out}: it exists and is not a folder; give a folder path (--out DIR)"
        )
    if target.is_dir() and not owned(target):
        raise OutputRefused(
            f"refusing to build into {out}: the folder is not empty and was not "
            f"made by this generator (no {MARKER} file); choose a new or empty "
            "folder with --out, or move its files away yourself"
        )
    if target.is_dir() and not target.stat().st_mode & 0o222:
        # the build swaps in a new folder beside it, which a read-only folder does not stop
        # (nor, for root, its permissions): someone made it read-only, and it stays as it is
        raise OutputRefused(
            f"refusing to build into {out}: the folder is read-only; make it "
            f"writable (chmod u+w {out}) to let the build replace it"
        )
    return target


def _refuse_protected(out: Path, target: Path, *, content, templates, repos, cache) -> None:
    home = Path.home().resolve()
    if target == Path(target.anchor) or target == home:
        raise OutputRefused(
            f"refusing to build into {out}: it is "
            f"{'the home folder' if target == home else 'the root folder'}"
        )
    named = [
        *(("the repository", repo) for repo in repos),
        ("the content folder", content),
        ("the templates folder", templates),
        ("the build cache", cache),
    ]
    for label, folder in named:
        folder = folder.resolve()
        if target == folder or folder.is_relative_to(target):
            raise OutputRefused(f"refusing to build into {out}: it is or holds {label} ({folder})")
        if target.is_relative_to(folder) and label != "the repository":
            raise OutputRefused(f"refusing to build into {out}: it is inside {label} ({folder})")


def owned(folder: Path) -> bool:
    """True if `folder` is empty, carries the marker, or is an earlier version's output."""
    names = set(os.listdir(folder))
    if not names or MARKER in names:
        return True
    if not names <= EARLIER_TOP or "index.html" not in names:
        return False
    try:
        with open(folder / "index.html", "rb") as stream:
            return EARLIER_SIGNATURE in stream.read(65536)
    except OSError:
        return False


def lock_path(out: Path) -> Path:
    """The lock file of the output folder `out` (resolved): beside it, since the folder itself
    is swapped whole, and the same for every build of `out` whatever its cache."""
    return out.parent / f".{out.name}.lock"


class BuildLock:
    """An exclusive lock on one output folder, held for the whole build: a file beside the
    folder (lock_path), locked with flock, so the kernel releases it when the process ends,
    however it ends. Two builds of one folder with different caches meet at this one file
    (the lock was in the cache: two caches, two locks, and one build removed the other's live
    staging folder as a leftover). The file is removed when the build ends; a build that takes
    a lock on a file removed meanwhile (by the build that just ended) takes the new one."""

    def __init__(self, out: Path):
        self.out = out
        self.path = lock_path(out)
        self._fd: int | None = None

    def __enter__(self) -> BuildLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                raise OutputRefused(
                    f"another build (process {holder}) is writing {self.out} "
                    "right now; run this one again when it has finished"
                ) from None
            if _same_file(fd, self.path):
                break
            os.close(fd)  # removed by the build that held it: take the new one
        self._fd = fd
        try:  # who holds it, for the message of a refused build
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        except OSError:  # a full disk: the lock holds all the same
            pass
        return self

    def _open(self) -> int:
        """The lock file, never through a link (its bytes are rewritten with a process id)."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError:
            if os.path.islink(self.path):
                raise OutputRefused(
                    f"refusing to build into {self.out}: {self.path} is a link, "
                    "where the build keeps its lock; remove it"
                ) from None
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OutputRefused(
                f"refusing to build into {self.out}: {self.path} is not a file, "
                "where the build keeps its lock; remove it"
            )
        return fd

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            try:
                os.unlink(self.path)  # while still held: a waiting build sees it went
            except OSError:
                pass
            os.close(self._fd)
            self._fd = None


def _holder(fd: int) -> str:
    """The process id the lock's holder writes just after taking it: a moment after the lock
    itself, so a build refused in that moment waits for it (up to a second), else '?'."""
    for _ in range(100):
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text:
            return text
        time.sleep(0.01)
    return "?"


def _same_file(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def staging_prefix(out: Path, kind: str) -> str:
    return f".{out.name}.{kind}-"


def spare_path(out: Path) -> Path:
    """Where the spare of the output folder `out` (resolved) is kept (assemble/spare.py): beside
    it, on its file system (a rename and hard links away), hidden like its staging folders."""
    return out.parent / f".{out.name}.spare"


def remove_leftovers(out: Path) -> list[Path]:
    """Staging folders that a killed build of `out` left beside it. Call it only holding `out`'s
    BuildLock: every live build of `out` holds that lock for as long as its staging folder
    exists, so while the caller holds it no live build owns one. Only folders this generator
    made are removed: those with the marker, and empty ones. The first marked one becomes the
    spare when there is none (the build brings it to the output whatever it holds): removing
    it would unlink the hard links it shares with the output, whose files' changed ctime then
    stops the build from reusing any."""
    removed = []
    prefixes = tuple(staging_prefix(out, kind) for kind in STAGING_PREFIXES)
    for entry in sorted(out.parent.iterdir()) if out.parent.is_dir() else []:
        if not entry.name.startswith(prefixes) or entry.is_symlink() or not entry.is_dir():
            continue
        inner = entry / "tree" if (entry / "tree").is_dir() else entry
        if (inner / MARKER).is_file():
            if not keep_as_spare(inner, out) or inner != entry:  # kept: its wrapper goes
                shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
        elif not any(entry.iterdir()):
            entry.rmdir()
            removed.append(entry)
    return removed


def keep_as_spare(folder: Path, out: Path) -> bool:
    """Keep `folder` (a staging folder of a build that failed or was killed) as the spare: the
    next build's refill makes it right whatever it holds; False when the spare's place is taken."""
    if os.path.lexists(spare_path(out)):
        return False
    try:
        os.rename(folder, spare_path(out))
    except OSError:
        return False
    return True


def repository_of(folder: Path) -> Path | None:
    """The git work tree holding `folder`, if any."""
    for parent in [folder.resolve(), *folder.resolve().parents]:
        if (parent / ".git").exists():
            return parent
    return None
