"""What the last build of an output folder was made from and wrote (kept in the build's store,
table `builds`), and the status of every file under an output folder: a build whose inputs and
output are as the manifest says has nothing to do."""

from __future__ import annotations

import errno
import hashlib
import marshal
import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from sitegen.assemble.state_store import DELTA
from sitegen.base.cache import sha
from sitegen.base.store import Store


@dataclass
class Manifest:
    """What the last build of one output folder was made from, and what it wrote."""

    inputs: str
    files: dict[str, str]  # output path -> sha256 of its bytes
    state: dict[str, list[int]]  # output path -> [size, mtime_ns, ctime_ns, inode] after writing


def output_key(out: Path) -> str:
    """The key of an output folder's entries in the store (its manifest, its units' state)."""
    return hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]


MANIFEST_FORMAT = 2  # marshal's bytes (JSON, format 1, took 0.13 s to write and read for 16,000 files)


def load_manifest(store: Store, out: Path) -> Manifest | None:
    """The manifest of the last build of `out`; None when there is none, or it is of another
    format or shape (then every page is rendered)."""
    blob = store.get("builds", output_key(out))
    try:
        form, inputs, files, state = marshal.loads(blob) if blob is not None else (None,) * 4
    except (ValueError, EOFError, TypeError):
        return None
    if form != MANIFEST_FORMAT or not (
        isinstance(inputs, str) and isinstance(files, dict) and isinstance(state, dict)
    ):
        return None
    return Manifest(inputs, files, state)


def save_manifest(
    store: Store, out: Path, inputs: str, files: dict[str, str], state: dict[str, list[int]] | None = None
) -> None:
    """`files`: output path -> sha256 of the bytes written there; `state`: the output's state
    (output_state) when the caller knows it, else the output is scanned. OSError when the
    store could not keep it (the build then says so)."""
    state = output_state(out) if state is None else state
    manifest = (MANIFEST_FORMAT, inputs, dict(sorted(files.items())), state)
    if not store.put("builds", output_key(out), marshal.dumps(manifest)):
        raise OSError(errno.EIO, "the build store could not be written", str(store.path))


def forget(store: Store, out: Path) -> None:
    """Remove what the store says of the last build of `out`, so that no later build trusts
    a half-saved state."""
    for table in ("builds", "units", "claims"):
        store.delete(table, output_key(out))
    store.delete("units", output_key(out) + DELTA)  # the changes since its saved base


def output_state(out: Path) -> dict[str, list[int]]:
    """output path -> [size, mtime_ns, ctime_ns, inode] of every file under `out` (as os.walk
    finds them: links to files are followed, links to folders are not entered)."""
    state: dict[str, list[int]] = {}
    _scan_state(os.fspath(out), "", state)
    return state


# From this many files in the last build's output, a rebuild scans the output in a forked
# process while this one loads the site (a whole record's 16,800 files: 0.045 s of CPU).
SCAN_BESIDE_AT = 2000


def scan_beside(out: Path, files: int, processes: bool) -> bool:
    """Whether an output of `files` files is scanned in a process of its own while the site
    loads: a big one, where forking is safe and allowed (serve's builds run beside threads)."""
    from sitegen.assemble import forking

    return processes and files >= SCAN_BESIDE_AT and forking.fork_safe() and out.is_dir()


def state_beside(out: Path, here, also) -> tuple[dict[str, list[int]], Any]:
    """(output_state(out), here()): the scan in a forked process while this one runs here();
    that process does `also()` after it (BodyCache.prune: the load leaves it a core for long)."""
    from sitegen.assemble import forking

    return forking.beside(partial(_scanned_then, out, also), here)


def _scanned_then(out: Path, also) -> dict[str, list[int]]:
    state = output_state(out)
    also()
    return state


def state_of(out: Path, paths, known: dict[str, list[int]]) -> dict[str, list[int]]:
    """output_state of an output folder holding exactly `paths`, where the files `known` names
    are the ones a scan found (the same inodes, no link made or removed since): only the others
    are stat'ed."""
    root = os.fspath(out)
    state: dict[str, list[int]] = {}
    for rel in paths:
        found = known.get(rel)
        if found is None:
            info = os.stat(f"{root}/{rel}")
            found = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
        state[rel] = found
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


def shared_inputs(content: Path, templates: Path, code: str, strict: bool) -> str:
    """What every page depends on without noting it: the generator's code and libraries, the
    site's configuration (site.yaml: languages, title, base URL), the list of mainland usage
    every zh-Hant page is checked against, and where the inputs are."""
    from sitegen.content.usage import USAGE

    config, usage = content / "site.yaml", content / USAGE
    return sha(
        "\0".join(
            [
                code,
                str(strict),
                str(content.resolve()),
                str(templates.resolve()),
                config.read_bytes().hex() if config.is_file() else "",
                usage.read_bytes().hex() if usage.is_file() else "",  # the check of every zh-Hant page
            ]
        ).encode()
    )
