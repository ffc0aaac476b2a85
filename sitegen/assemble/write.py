"""Stage 4: put the rendered files on disk, all or nothing.

Files go to a staging folder beside the output folder, which is swapped in only when every
file is written; a build that fails or is killed leaves the previous output as it was. A
rebuild's staging folder is the spare (spare.py): the tree the last swap moved aside, brought up
to the output's unchanged files, so that only what changed is written, linked or removed."""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import signal
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.assemble import spare
from sitegen.assemble.outdir import MARKER, MARKER_TEXT, keep_as_spare, staging_prefix
from sitegen.base.cache import sha
from sitegen.base.errors import ContentError, Problem


@dataclass
class Held:
    """The files a staging folder holds before anything is rendered (links to the output's
    unchanged files), and what this process did with them: a held file is put by claiming it
    (a reused unit's, or one made again with the same bytes) or replaced, once; a second claim
    is a second page at one address. `touched`: the files this process made in the folder
    (written, or linked from the output), whose state is not the output scan's."""

    paths: frozenset[str] = frozenset()
    claimed: set[str] = field(default_factory=set)
    touched: list[str] = field(default_factory=list)


@dataclass
class Staging:
    folder: Path
    held: Held
    linked: list[str]  # held files linked from the output when the folder was filled


def safe_target(rel: str) -> str:
    """`rel` if it names a file inside the output folder; refuses absolute paths and any way
    out. Files go into a staging folder this build created, so no symlink can lead elsewhere."""
    parts = [part for part in rel.split("/") if part not in ("", ".")]  # as PurePosixPath
    if rel.startswith("/") or ".." in parts or not parts or "\\" in rel or ":" in rel:
        raise ContentError([Problem(rel, None, "refusing to write outside the output folder")])
    return rel


def write_tree(files: dict[str, bytes], out: Path, previous: dict[str, str] | None = None) -> None:
    """Write every file into a staging folder, then swap it in. A file whose bytes are the same
    as in the previous build (`previous`: path -> sha256) is hard-linked, not written again."""
    out = out.resolve()
    with staged(out) as staging:
        put_files(files, staging.folder, out, previous or {})
        previous_tree = commit(staging.folder, out)
    remove_previous(previous_tree)


@contextmanager
def staged(out: Path, keep: dict[str, int] | None = None):
    """A staging folder (begin) for the block, holding the files `keep` names (output path ->
    inode of the output's file: the unchanged ones) as links to the output's, and its marker.
    Removed when the block fails or is interrupted (commit, its last step, swaps it in), or,
    when it was the spare and the disk is not full, kept as the spare again: a failed build
    leaves beside the output what was there before it. Ctrl-C is
    held back from before the folder exists until the block has it, so no moment leaves a
    staging folder behind: the test that sends Ctrl-C as soon as the folder appears found one
    about once in twelve runs."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        staging, adopted = begin(out, bool(keep))
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a held Ctrl-C: here
            held, linked = spare.refill(staging, out.resolve(), keep) if keep else (frozenset(), [])
            yield Staging(staging, Held(held), linked)
        except BaseException as exc:
            if not (adopted and not _disk_full(exc) and keep_as_spare(staging, out.resolve())):
                abort(staging)
            raise
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _disk_full(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def begin(out: Path, reuse_spare: bool = False) -> tuple[Path, bool]:
    """A new staging folder beside `out` (same file system, so the swap is a rename), holding
    the marker that says the generator owns it (outdir.py): the spare moved in when there is
    one and `reuse_spare` (else any spare is removed: it holds nothing the build keeps), or
    an empty folder; and whether it is the spare."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=staging_prefix(out, "tmp"), dir=out.parent))
    adopted = False
    try:
        adopted = reuse_spare and spare.adopt(out, staging)
        if not reuse_spare:
            spare.remove(out)
        if adopted and (staging / MARKER).read_bytes() != MARKER_TEXT:
            os.unlink(staging / MARKER)  # written again: it is the generator's own text
        if not adopted or not (staging / MARKER).exists():
            _write(staging / MARKER, MARKER_TEXT)
    except BaseException:  # a full disk: the folder made, its first file not
        abort(staging)
        raise
    return staging, adopted


def put_files(
    files: dict[str, bytes], staging: Path, out: Path, previous: dict[str, str], held: Held | None = None
) -> dict[str, str]:
    """Write `files` into the staging folder; {path: sha256} of what was written. `out`: the
    output folder, resolved (called once per page: no path resolution here). Several
    processes may each put their own files into one staging folder. A file the folder `held`
    is replaced, or kept when its bytes, read now, are the same."""
    new, old = _prepared(files, staging, out)
    with _once(staging):
        return {rel: _put(files[rel], new, old, rel, previous.get(rel), held) for rel in sorted(files)}


def link_files(files: dict[str, str], staging: Path, out: Path, held: Held | None = None) -> dict[str, str]:
    """Hard-link files of the previous output into the staging folder, unread: `files` (path
    -> sha256) holds only files whose size, times and inode are as the last build left them
    (pipeline: the manifest's output state), so their bytes are the ones it wrote. A file the
    folder `held` is that file already: it is claimed, not linked again."""
    rest = files
    if held is not None:
        rest = {}
        for rel in sorted(files):
            if rel in held.paths:
                _claim(held, rel)
            else:
                rest[rel] = files[rel]
    new, old = _prepared(rest, staging, out)
    with _once(staging):
        for rel in sorted(rest):
            os.link(f"{old}/{rel}", f"{new}/{rel}")
    if held is not None:
        held.touched += rest
    return dict(files)


def _claim(held: Held, rel: str) -> None:
    """Take a held file for this build's output, once."""
    if rel in held.claimed:
        raise ContentError([Problem(f"output/{rel}", None, DOUBLE_WRITE)])
    held.claimed.add(rel)


def _prepared(files, staging: Path, out: Path) -> tuple[str, str]:
    """(staging, out) as strings, once every path of `files` is known to stay inside the output
    folder and its folders exist in the staging folder."""
    for rel in files:
        safe_target(rel)
    new = str(staging)
    for folder in sorted({os.path.dirname(rel) for rel in files} - {""}):
        os.makedirs(os.path.join(new, folder), exist_ok=True)
    return new, str(out)


@contextmanager
def _once(staging: Path):
    """Each path of the output is written once: a file already in the staging folder (every
    file is created exclusively there, by any process of the build) is a second page at one
    address, an error naming it, not a silent replacement."""
    try:
        yield
    except FileExistsError as exc:
        target = exc.filename2 or exc.filename  # os.link names the new path second
        rel = os.path.relpath(target, staging) if target else "?"
        raise ContentError([Problem(f"output/{rel}", None, DOUBLE_WRITE)]) from None


DOUBLE_WRITE = "written twice by one build: two pages or files have this address; give one of them another"


def commit(staging: Path, out: Path) -> Path | None:
    """Swap the staging folder in; the folder now holding the previous tree comes back, for
    the caller to remove (remove_previous, or `removing` beside other work: removing a whole
    record's 12,000 files takes about 0.1 s of each rebuild). If the process ends before, the
    next build removes what is left (outdir.remove_leftovers).
    A staging folder that lost its marker was removed and made again under the build (the
    folders of later pages recreate it): it is not whole, and is never swapped in."""
    if not (staging / MARKER).is_file():
        raise FileNotFoundError(
            errno.ENOENT,
            "the build's staging folder was removed while it ran; nothing published",
            str(staging),
        )
    return _swap(staging, out.resolve())


def abort(staging: Path) -> None:
    shutil.rmtree(staging, ignore_errors=True)


def _put(data: bytes, new: str, old: str, rel: str, old_sha: str | None, held: Held | None) -> str:
    """Write `data`, or hard-link the previous build's file when its bytes, read now, are the
    same (never trusted by path, size or the manifest alone); a held file is that file."""
    digest, target = sha(data), f"{new}/{rel}"
    if held is not None and rel in held.paths:
        _claim(held, rel)
        if old_sha == digest and _same(target, digest):
            return digest
        os.unlink(target)
    elif old_sha == digest and _same(f"{old}/{rel}", digest):
        try:
            os.link(f"{old}/{rel}", target)
            if held is not None:
                held.touched.append(rel)
            return digest
        except OSError:
            pass  # not there any more, or another file system: write it (a second one: refused)
    _write(target, data)
    if held is not None:
        held.touched.append(rel)
    return digest


def _same(path: str, digest: str) -> bool:
    """Whether the file at `path` holds bytes of this sha256 now."""
    try:
        with open(path, "rb") as stream:
            return sha(stream.read()) == digest
    except OSError:
        return False


def merge_same(files: dict[str, bytes], more: dict[str, bytes]) -> None:
    """Add `more` to `files`, where a path both hold is one file made twice (a script every
    language makes): its bytes must agree, or two pages claim one address."""
    for rel, data in more.items():
        if files.setdefault(rel, data) != data:
            raise ContentError([Problem(f"output/{rel}", None, DOUBLE_WRITE)])


def _write(path, data: bytes) -> None:
    """Write a file; a failure names it (a full disk's write error carries no file name, and
    the message was `?: No space left on device`)."""
    try:
        with open(path, "xb") as stream:  # exclusive: see _once
            stream.write(data)
    except OSError as exc:
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), os.fspath(path)) from exc


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step (Linux renameat2 RENAME_EXCHANGE); False if unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def _swap(staging: Path, out: Path) -> Path | None:
    """Put `staging` in place of `out`. With an existing `out` the two are exchanged atomically,
    so no moment exists without a whole output folder; the folder holding the old tree comes
    back (None when there was none)."""
    if out.exists() and _exchange(staging, out):
        os.chmod(out, 0o755)
        return staging
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=staging_prefix(out, "old"), dir=out.parent))
        try:
            os.rename(out, old / "tree")
        except OSError as exc:  # an immutable output folder (chattr +i): nothing moved
            old.rmdir()
            raise OSError(
                exc.errno,
                f"{exc.strerror}: the build cannot move the folder aside "
                f"to put the new site in its place (is it immutable? lsattr -d {out})",
                str(out),
            ) from exc
    os.rename(staging, out)
    os.chmod(out, 0o755)
    return old


def remove_previous(folder: Path | None) -> None:
    """Remove the previous output's tree that commit() moved aside."""
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def removing(folder: Path | None) -> threading.Thread:
    """remove_previous in a thread, already started, for the caller to join."""
    thread = threading.Thread(target=remove_previous, args=(folder,), name="remove-previous-output")
    thread.start()
    return thread
