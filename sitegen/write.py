"""Stage 4: put the rendered files on disk, all or nothing.

Files go to a temporary folder beside the output folder, which is swapped in only when every
file is written; a build that fails or is killed leaves the previous output as it was."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath

from .errors import ContentError, Problem


def safe_target(root: Path, rel: str) -> Path:
    """The file for `rel` inside `root`; refuses absolute paths and any way out of root."""
    pure = PurePosixPath(rel)
    target = (root / pure).resolve()
    if pure.is_absolute() or ".." in pure.parts or not target.is_relative_to(root.resolve()):
        raise ContentError([Problem(rel, None, "refusing to write outside the output folder")])
    return target


def write_tree(files: dict[str, bytes], out: Path) -> None:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        for rel in sorted(files):
            target = safe_target(staging, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[rel])
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap(staging: Path, out: Path) -> None:
    """Replace `out` by `staging` with two renames; the old tree is removed afterwards."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        os.rename(out, old / "tree")
    os.rename(staging, out)
    os.chmod(out, 0o755)
    if old:
        shutil.rmtree(old, ignore_errors=True)
