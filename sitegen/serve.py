"""python build.py serve: build, serve on 127.0.0.1, rebuild on change, reload the page.

The served HTML gets a small reload script added on the way out (the files in output/ stay as
a normal build writes them). A failed build keeps the last good site and shows its errors in
the terminal and as an overlay in the page."""
from __future__ import annotations

import functools
import http.server
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

RELOAD_SCRIPT = b"""<script>
(function () {
  var seen = null;
  function overlay(errors) {
    var box = document.getElementById("build-errors");
    if (!errors.length) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("div"); box.id = "build-errors"; box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:50vh;overflow:auto;z-index:99;" +
        "background:#5a0000;color:#fff;font:14px/1.5 monospace;padding:1rem;white-space:pre-wrap";
      document.body.appendChild(box);
    }
    box.textContent = "Build failed; showing the last good site.\\n\\n" + errors.join("\\n");
  }
  function poll() {
    fetch("/__build__", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (s) {
      if (seen !== null && s.version !== seen) { location.reload(); return; }
      seen = s.version; overlay(s.errors);
    }).catch(function () {}).finally(function () { setTimeout(poll, 500); });
  }
  poll();
})();
</script>"""


@dataclass
class BuildState:
    version: int = 0
    errors: list[str] = field(default_factory=list)
    watching: bool = False      # True once the file watcher runs: changes from now on rebuild
    lock: threading.Lock = field(default_factory=threading.Lock)

    def as_json(self) -> bytes:
        with self.lock:
            return json.dumps({"version": self.version, "errors": self.errors,
                               "watching": self.watching}).encode()


class Handler(http.server.SimpleHTTPRequestHandler):
    state: BuildState

    def do_GET(self):  # noqa: N802 - the http.server API
        if self.path == "/__build__":
            return self._send(self.state.as_json(), "application/json")
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix == ".html" and path.is_file():
            body = path.read_bytes().replace(b"</body>", RELOAD_SCRIPT + b"</body>", 1)
            return self._send(body, "text/html; charset=utf-8")
        return super().do_GET()

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass  # the terminal shows builds, not every request


def rebuild(build_once, state: BuildState, say) -> None:
    """Run one build; on success bump the version (pages reload), on failure keep the site."""
    from .errors import ContentError
    try:
        message = build_once()
    except ContentError as exc:
        with state.lock:
            state.errors = [str(p) for p in exc.problems]
        say("\n".join(state.errors) + f"\nbuild failed: {len(exc.problems)} problem(s); serving the last good site")
        return
    with state.lock:
        state.errors = []
        state.version += 1
    say(message)


def serve(build_once, out: Path, watch: list[Path], port: int, say=print) -> None:
    state = BuildState()
    rebuild(build_once, state, say)
    handler = type("SiteHandler", (Handler,), {"state": state})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                             functools.partial(handler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    say(f"serving {out} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C stops)")
    from watchfiles import watch as watch_changes
    try:
        # an empty set arrives every rust_timeout ms: it shows the watcher is running
        for changes in watch_changes(*watch, debounce=200, step=50, yield_on_timeout=True,
                                     rust_timeout=300):
            state.watching = True
            if changes:
                rebuild(build_once, state, say)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
