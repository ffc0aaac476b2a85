"""What the last build of an output folder was made from and wrote (kept in the cache store,
sealed), and the status of every file under an output folder: a build whose inputs and output
are as the manifest says has nothing to do."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from sitegen.base.cache import cache_root, read_sealed, write_sealed


@dataclass
class Manifest:
    """What the last build of one output folder was made from, and what it wrote."""

    inputs: str
    files: dict[str, str]  # output path -> sha256 of its bytes
    state: dict[str, list[int]]  # output path -> [size, mtime_ns, ctime_ns, inode] after writing


def manifest_path(out: Path) -> Path:
    key = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]
    return cache_root() / "builds" / f"{key}.json"


def load_manifest(out: Path) -> Manifest | None:
    blob = read_sealed(manifest_path(out))
    try:
        data = json.loads(blob.decode("utf-8")) if blob is not None else None
        return Manifest(data["inputs"], data["files"], data["state"]) if data else None
    except (ValueError, KeyError, TypeError):
        return None


def save_manifest(out: Path, inputs: str, files: dict[str, str]) -> None:
    """`files`: output path -> sha256 of the bytes written there."""
    manifest = {"inputs": inputs, "files": dict(sorted(files.items())), "state": output_state(out)}
    write_sealed(manifest_path(out), json.dumps(manifest).encode("utf-8"))


def output_state(out: Path) -> dict[str, list[int]]:
    """output path -> [size, mtime_ns, ctime_ns, inode] of every file under `out` (as os.walk
    finds them: links to files are followed, links to folders are not entered)."""
    state: dict[str, list[int]] = {}
    _scan_state(os.fspath(out), "", state)
    return state


def _scan_state(folder: str, prefix: str, state: dict) -> None:
    try:
        entries = os.scandir(folder)
    except OSError:
        return
    folders = []
    with entries:
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if not entry.is_symlink():
                    folders.append(entry)
                continue
            info = entry.stat()
            # ctime and inode too: no write, copy or same-size edit leaves them as they were
            state[prefix + entry.name] = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
    for entry in folders:
        _scan_state(entry.path, prefix + entry.name + "/", state)
