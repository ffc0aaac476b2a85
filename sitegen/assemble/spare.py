"""The spare: the tree a build's swap moved aside, kept beside the output folder as the next
build's staging folder, so that a rebuild writes in proportion to what changed.

After the swap the previous tree holds hard links to nearly every file of the new output (each
reused file is one inode in both). Removed, the next build had to hard-link every unchanged file
into a new staging folder again (bench/README.md, session 55). Kept, it is moved in as the next build's staging folder and brought up to the output's unchanged files
(refill): a file that is the output's own file (the same inode) stays, anything else in it is
removed, and what is missing is linked from the output. Nothing about it is trusted by a
record: the walk checks every entry against the output's scan, so a spare that another build
left, that was half filled by a build that failed, or that someone changed is made right, or
emptied. A spare without the generator's marker is never touched.

The spare holds the previous version of each file the last build wrote again and of each file it
removed; it is kept only while that is at most a quarter of its files (KEEP_UNSHARED)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from sitegen.assemble.outdir import MARKER, keep_as_spare, spare_path


def adopt(out: Path, staging: Path) -> bool:
    """Move the spare of `out` in place of `staging` (an empty folder this build just made);
    False when there is none the generator made (then `staging` stays as it was)."""
    spare = spare_path(out)
    if spare.is_symlink() or not spare.is_dir() or not (spare / MARKER).is_file():
        return False
    try:
        os.rename(spare, staging)  # onto an empty folder: one step
    except OSError:
        return False
    return True


def remove(out: Path) -> None:
    """Remove the spare of `out` when it is the generator's (marked, or empty)."""
    spare = spare_path(out)
    if spare.is_dir() and not spare.is_symlink() and ((spare / MARKER).is_file() or not any(spare.iterdir())):
        shutil.rmtree(spare, ignore_errors=True)


def refill(staging: Path, out: Path, keep: dict[str, int]) -> tuple[frozenset[str], list[str]]:
    """Make `staging` hold exactly the files `keep` names (output path -> the inode of the output's
    file there, as the output's scan found it), each the output's file itself, and nothing else
    but its marker: (the paths it holds, those linked now)."""
    held: set[str] = set()
    _prune(os.fspath(staging), "", keep, held)
    linked = sorted(set(keep) - held)
    _link(out, staging, linked)
    return frozenset(keep), linked


def _link(out: Path, folder: Path, files) -> None:
    """Hard-link each of the output's `files` (paths in it) into `folder`, making the folders
    they need."""
    new, old = os.fspath(folder), os.fspath(out)
    made: set[str] = set()
    for rel in files:
        parent = os.path.dirname(rel)
        if parent and parent not in made:
            os.makedirs(os.path.join(new, parent), exist_ok=True)
            made.add(parent)
        os.link(f"{old}/{rel}", f"{new}/{rel}")


def make(out: Path, files) -> bool:
    """A spare for a big site's `out` when there is none (after a cold build, or one that wrote
    most files: neither has a tree aside to keep): a folder of hard links to the output's
    `files` (with the marker), so that the next build links none of its own (the first report
    edit after the whole record's cold build linked its 16,760 files: 1.05 s, 0.81 s so; a
    small site's few links cost nothing, and it is left without one). Each file is the
    output's own, on disk once. Call it before the output's state is recorded: a link moves its
    file's ctime. False when none was made (the place taken, or a link refused)."""
    folder = spare_path(out)
    if os.path.lexists(folder):
        return False
    try:
        os.mkdir(folder)
        _link(out, folder, files)
    except OSError:  # the output is whole already: the next build links what it needs
        shutil.rmtree(folder, ignore_errors=True)
        return False
    return True


def _prune(folder: str, prefix: str, keep: dict[str, int], held: set[str]) -> bool:
    """Remove every entry under `folder` but the files of `keep` with their inode (the inode of
    a directory entry comes with it: no file is stat'ed) and the top's marker; whether anything
    is left in it. Emptied folders go too."""
    left = False
    with os.scandir(folder) as entries:
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                if _prune(entry.path, rel + "/", keep, held):
                    left = True
                else:
                    os.rmdir(entry.path)
            elif rel == MARKER or (keep.get(rel) == entry.inode() and entry.is_file(follow_symlinks=False)):
                held.add(rel)
                left = True
            else:
                os.unlink(entry.path)
    held.discard(MARKER)
    return left


def trim(staging: Path, held: frozenset[str], files) -> None:
    """Remove the files the staging folder held that this build did not put in its output (the
    pages of units it dropped), and the folders that leaves empty."""
    root = os.fspath(staging)
    folders = set()
    for rel in held.difference(files):
        os.unlink(f"{root}/{rel}")
        folders.add(os.path.dirname(rel))
    for folder in sorted(folders - {""}, key=lambda f: -f.count("/")):
        while folder:
            try:
                os.rmdir(f"{root}/{folder}")
            except OSError:  # not empty
                break
            folder = os.path.dirname(folder)


KEEP_UNSHARED = 4  # the spare is kept while at most 1/4 of its files are its own


def kept_as_spare(previous: Path | None, out: Path, files: int, shared: int) -> bool:
    """Keep the tree the swap moved aside (in `previous`, or `previous`/tree) as the spare of
    `out`, when at most a quarter of its `files` are not `shared` with the new output (each a
    file the disk holds twice); whether it was kept. Otherwise the caller removes it."""
    if previous is None or not shared or (files - shared) * KEEP_UNSHARED > files:
        return False
    tree = previous / "tree" if (previous / "tree").is_dir() else previous
    if not (tree / MARKER).is_file() or not keep_as_spare(tree, out):
        return False
    if tree != previous:
        shutil.rmtree(previous, ignore_errors=True)
    return True
