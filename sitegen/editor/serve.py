"""axledger serve (python build.py serve): build, serve on 127.0.0.1, rebuild on change,
reload the page.

The served HTML gets a small reload script added on the way out (the files in output/ stay as
a normal build writes them). The script asks `/__build__?after=<version>&builds=<count>` and the
server holds that request until a build or a preview is published (or ~25 s pass), so the page
reloads, or shows the errors, the moment they exist; `/__build__` alone answers at once. A
failed build keeps the last good site and shows its errors in the terminal and as an overlay in
the page.

As a local server it follows the usual conventions: it binds before the first build (a busy
port is one line, with --port 0 picking a free one); `/en` redirects to `/en/`; a missing page
gets the site's own 404.html with status 404; HEAD answers as GET without the body; a Host
header naming another host than the one it listens on is refused (DNS rebinding); long and
malformed paths get an answer (400, 404 or 414), never a dropped connection."""

from __future__ import annotations

import threading
import traceback
from pathlib import Path

from sitegen.editor.http_server import BuildState, make_server


def rebuild(build_once, state: BuildState, say, shown: bool = False) -> bool:
    """Run one build; on success bump the version (pages reload), on failure keep the site.

    No failure stops the server: content errors are listed as they are, a fault of the machine
    (a file that cannot be read, a folder where a file should be, a file gone mid-build) is one
    line naming the path, and any other exception (a bug in the generator) shows its type and
    message, with the traceback in the terminal. True when the build succeeded."""
    from sitegen.base.errors import ContentError

    try:
        message = build_once()
    except ContentError as exc:
        errors, detail, count = [str(p) for p in exc.problems], "", len(exc.problems)
    except OSError as exc:
        where = exc.filename if exc.filename is not None else "?"
        errors, detail, count = [f"{where}: {exc.strerror or exc}"], "", 1
    except Exception as exc:  # noqa: BLE001 - the server outlives every build
        errors = [
            f"internal error: {type(exc).__name__}: {exc}".rstrip(": "),
            "(a bug in the generator: the traceback is in the terminal)",
        ]
        detail, count = traceback.format_exc(), 1
    else:
        with state.changing():
            state.errors = []
            state.overlay = {}
            state.builds += 1
            if not shown:  # a preview already reloaded the page with these bytes
                state.version += 1
        say(message)
        return True
    with state.changing():  # the pages show the errors
        state.errors = errors
        state.overlay = {}
        state.builds += 1
    say(detail + "\n".join(errors) + f"\nbuild failed: {count} problem(s); serving the last good site")
    return False


def show_preview(preview, changes, state: BuildState) -> bool:
    """Pages rendered in memory for the changed files (a report edit), served and reloaded at
    once; False when there is none to show (the build then does it all)."""
    if preview is None:
        return False
    try:
        files = preview([Path(path) for _, path in changes])
    except Exception:  # noqa: BLE001 - the full build that follows says what is wrong
        return False
    if not files:
        return False
    with state.changing():
        state.overlay = files
        state.version += 1
    return True


def _quietly(function) -> None:
    """function(), whose failure changes nothing (a warm-up: the preview says any problem)."""
    try:
        function()
    except Exception:  # noqa: BLE001 - the edit that follows shows the problem, with its file
        pass


def serve(
    build_once,
    out: Path,
    watch: list[Path],
    port: int,
    say=print,
    host: str = "127.0.0.1",
    stop: threading.Event | None = None,
    state: BuildState | None = None,
    preview=None,
    warm=None,
) -> None:
    """Serve until Ctrl+C (or until `stop` is set: the tests run it in a thread). After a
    change, `preview(changed paths)` may give pages rendered in memory ({output path: bytes}),
    served at once; the full build follows and writes the output as always. `warm()`, run once
    beside the server when it starts, makes the first preview as quick as the next ones."""
    state = state if state is not None else BuildState()
    server = make_server(out, state, host, port)  # a busy port fails before the build
    serving = False
    try:
        rebuild(build_once, state, say)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        serving = True
        if warm is not None:
            threading.Thread(target=_quietly, args=(warm,), daemon=True).start()
        shown = f"[{host}]" if ":" in host else host
        say(f"serving {out} at http://{shown}:{server.server_address[1]}/ (Ctrl+C stops)")
        from sitegen.editor.watching import changes as watch_changes

        # an empty set arrives every timeout_ms: it shows the watcher is running.
        # watchfiles yields once a step passes with no new (kind, path) pair, so a save is seen
        # 25-50 ms after it; debounce only caps the grouping of a steady stream of changes.
        # A save in place (one write) and an atomic one (a temporary file written and renamed)
        # are each one burst well inside a step (measured with watchfiles alone; real editors
        # not tried); a save split in two more than a step apart would only build twice
        # (watching.py: a watched folder removed and made again is watched again)
        for changes in watch_changes(watch, stop, timeout_ms=300, debounce=50, step=25):
            state.watching = True
            if changes:
                state.building = True
                try:
                    rebuild(build_once, state, say, shown=show_preview(preview, changes, state))
                finally:
                    state.building = False
    except KeyboardInterrupt:
        pass
    finally:
        state.close()  # the held requests answer now, not in 25 s
        if serving:
            server.shutdown()
        server.server_close()
