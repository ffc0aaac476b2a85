"""serve's file watcher: the changes under the watched folders, as watchfiles.watch gives
them, also after a watched folder is removed and made again (a `git checkout`, a restore, a
`rm -r content` and a fresh copy). watchfiles' watch of a removed folder sees nothing after,
even once a folder of that name is back, and serve showed a stale error until restarted; so
each folder's identity is checked whenever the watcher yields (at least every `timeout_ms`),
and the watch starts again on the folders as they are, with one change said for each folder
that came back."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

POLL = 0.3  # seconds between looks while no watched folder exists


def identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the folder at `path`, None when there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None


def changes(paths: list[Path], stop: threading.Event | None = None, timeout_ms: int = 300, **options):
    """Sets of (Change, path) under `paths`, an empty set at least every `timeout_ms` (so
    the caller knows the watcher runs), until `stop` is set. `options` go to watchfiles.watch."""
    from watchfiles import Change, watch

    known = {path: identity(path) for path in paths}
    while not (stop is not None and stop.is_set()):
        live = [path for path in paths if known[path] is not None]
        now = known
        if live:
            for found in watch(
                *live, yield_on_timeout=True, rust_timeout=timeout_ms, stop_event=stop, **options
            ):
                yield found
                now = {path: identity(path) for path in paths}
                if now != known:
                    break
            else:
                return  # stopped
        else:
            _pause(stop, POLL)
            yield set()
            now = {path: identity(path) for path in paths}
        back = {
            (Change.added, str(path)) for path in paths if now[path] is not None and now[path] != known[path]
        }
        known = now
        if back:
            yield back


def _pause(stop: threading.Event | None, seconds: float) -> None:
    if stop is not None:
        stop.wait(seconds)
    else:
        time.sleep(seconds)
