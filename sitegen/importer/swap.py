"""The record replaced whole: every file of a new record written beside the old one, then
swapped in, so that a kill, a full disk or an error leaves the previous record byte for byte.

The new record goes to `<data>/.record.new` (the files the import does not write are copied
from the old record), each file flushed to disk, the seal (content/record_seal.py) computed
from the bytes written and written last; then two renames: `record` to `.record.old`, and
`.record.new` to `record`; then `.record.old` is removed. Call it only holding the content's
lock (content/record_lock.py, `writing`). A process stopped before the first rename leaves
`.record.new` beside an intact record; stopped between the two renames, `.record.old` and no
`record`. `recover` (the next import or seal-record, first thing) undoes either."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from sitegen.content import record_seal

NEW, OLD = record_seal.NEW, record_seal.OLD
staging = record_seal.staging


def recover(folder: Path) -> list[str]:
    """Undo what a stopped import left beside `folder`; one line for each thing done."""
    new, old = staging(folder, NEW), staging(folder, OLD)
    said = []
    if old.is_dir() and not folder.exists():
        os.rename(old, folder)
        said.append(
            f"{folder}: put back as it was: an import was stopped between swapping the old record "
            "out and the new one in"
        )
    elif old.is_dir():
        shutil.rmtree(old)
        said.append(f"{old}: removed: the previous record, left by an import stopped after its swap")
    if new.exists():
        shutil.rmtree(new)
        said.append(
            f"{new}: removed: the unfinished record of an import that was stopped; the record is as it was"
        )
    return said


def write_file(path: Path, data: bytes, shown: Path) -> None:
    """`data` to disk at `path`; an error names `shown`, the record file it is for."""
    try:
        with open(path, "wb") as stream:
            write_all(stream, data)
            os.fsync(stream.fileno())
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(shown)) from None


def write_all(stream, data: bytes) -> None:
    """The one place bytes of the record reach a file (a test makes it fail or stop here)."""
    stream.write(data)
    stream.flush()


def current_files(folder: Path) -> dict[str, bytes]:
    """name -> bytes of each file of the record folder (none when there is no folder)."""
    if not folder.is_dir():
        return {}
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def sealed(files: dict[str, bytes]) -> dict[str, bytes]:
    """`files` and the seal of its round files and rounds.yaml, computed from those bytes."""
    entries = [record_seal.file_entry(name, files[name]) for name in record_seal.sealed_order(files)]
    return {**files, record_seal.SEAL: record_seal.seal_text(entries).encode("utf-8")}


def replace_record(folder: Path, changed: dict[str, bytes], write=None) -> bool:
    """Make `folder` hold its files with `changed` (name -> bytes) replacing or adding theirs,
    and a new seal; False, touching nothing, when every byte would be the same. `write(path,
    data, shown)` writes one file (tests give one that fails)."""
    write = write or write_file
    before = current_files(folder)
    after = sealed({**before, **changed})
    if after == before:
        return False
    new = staging(folder, NEW)
    new.mkdir(parents=True)
    try:
        for name in sorted(after, key=lambda n: n == record_seal.SEAL):  # the seal last
            write(new / name, after[name], folder / name)
        for inner in _folders_in(folder):
            shutil.copytree(inner, new / inner.name, symlinks=True)
        _sync_folder(new)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    swap(folder, new)
    return True


def _folders_in(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.iterdir()) if p.is_dir()] if folder.is_dir() else []


def swap(folder: Path, new: Path) -> None:
    """`new` in the place of `folder`, the old one removed once the new one is in."""
    old = staging(folder, OLD)
    if folder.exists():
        os.rename(folder, old)
    os.rename(new, folder)
    _sync_folder(folder.parent)
    shutil.rmtree(old, ignore_errors=True)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
