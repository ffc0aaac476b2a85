"""The local server of `serve`: the site's files with a reload script added to each page, the
held `/__build__` request the script waits on, and the usual conventions of a local server
(serve.py runs it beside the builds)."""

from __future__ import annotations

import errno
import functools
import http.server
import ipaddress
import json
import posixpath
import socket
import sys
import threading
import urllib.parse
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

RELOAD_SCRIPT = b"""<script>
(function () {
  var seen = {version}, builds = null;   // the version the page was served at
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
  // the first question is answered at once (a build published since the page was served
  // reloads it, errors show); the next ones the server holds until the version or the build
  // count moves on from what the page has (or ~25 s pass): the page reloads the moment a new
  // build is published
  function ask() {
    var asked = Date.now();
    fetch("/__build__" + (builds === null ? "" : "?after=" + seen + "&builds=" + builds),
          {cache: "no-store"}).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (s) {
      if (s.version !== seen) { location.reload(); return; }
      var moved = s.builds !== builds;
      seen = s.version; builds = s.builds; overlay(s.errors);
      // at once when something moved or the answer was held; a server that answers at once
      // with nothing new (one stopping, or one that does not hold) is asked a second later
      setTimeout(ask, moved || Date.now() - asked > 1000 ? 0 : 1000);
    }).catch(function () { setTimeout(ask, 1000); });   // server gone: retry each second
  }
  ask();
})();
</script>"""


def reload_script(version: int) -> bytes:
    """The script added to a served page that was read at `version`."""
    return RELOAD_SCRIPT.replace(b"{version}", str(version).encode(), 1)


HOLD_SECONDS = 25.0  # a held /__build__?after= answers after this long even when nothing moved
# (under the idle timeouts of browsers and proxies; the page asks again)


@dataclass
class BuildState:
    version: int = 0
    errors: list[str] = field(default_factory=list)
    # pages rendered in memory after a report edit, served before the build has written them:
    # {output path: bytes}; replaced whole (never changed in place), emptied by each build
    overlay: dict = field(default_factory=dict)
    watching: bool = False  # True once the file watcher runs: changes from now on rebuild
    building: bool = False  # a build after a change is running
    builds: int = 0  # builds ended (succeeded or failed): each may change `errors`
    closing: bool = False  # the server is stopping: held requests answer at once
    held: int = 0  # held /__build__ requests not yet answered (close() waits for their answers)
    # guards the fields above; held /__build__ requests wait on it (changing() wakes them)
    lock: threading.Condition = field(default_factory=threading.Condition)

    @contextmanager
    def changing(self):
        """The lock, held while fields change; every held request is woken afterwards to see
        whether what it waits for moved."""
        with self.lock:
            yield self
            self.lock.notify_all()

    def as_json(self) -> bytes:
        with self.lock:
            return json.dumps(
                {
                    "version": self.version,
                    "errors": self.errors,
                    "builds": self.builds,
                    "watching": self.watching,
                    "building": self.building,
                }
            ).encode()

    def wait_for_change(self, version: int, builds: int | None, timeout: float) -> None:
        """Block until the version differs from `version`, the build count from `builds`
        (when given), the server is closing, or `timeout` seconds have passed."""
        with self.lock:
            self.lock.wait_for(
                lambda: (
                    self.closing or self.version != version or (builds is not None and self.builds != builds)
                ),
                timeout,
            )

    @contextmanager
    def holding(self):
        """A held request, from its wait to its answer written (counted in `held`)."""
        with self.changing():
            self.held += 1
        try:
            yield
        finally:
            with self.changing():
                self.held -= 1

    def close(self, timeout: float = 2.0) -> None:
        """Answer every held request now, and wait (at most `timeout` seconds) until each answer
        is written: the server is stopping, and the process may exit right after."""
        with self.changing():
            self.closing = True
            self.lock.wait_for(lambda: self.held == 0, timeout)


class PortBusy(Exception):
    """The server cannot listen where asked; the message says what to do."""


class Handler(http.server.SimpleHTTPRequestHandler):
    state: BuildState
    allowed_hosts: frozenset = frozenset()  # empty: any Host (listening on every address)
    hold: float = HOLD_SECONDS
    server_version = "axledger"
    sys_version = ""

    def do_GET(self):  # noqa: N802 - the http.server API
        self._answer(head=False)

    def do_HEAD(self):  # noqa: N802
        self._answer(head=True)

    def _answer(self, head: bool) -> None:
        if not self._host_allowed():
            return self._send(b"Host not allowed\n", "text/plain; charset=utf-8", head, 400)
        target = self._target()
        if target is None:
            return self._send(b"Bad request path\n", "text/plain; charset=utf-8", head, 400)
        url_path, query = target
        if url_path == "/__build__":
            held = held_until(query)
            if held is False:
                return self._send(
                    b"Bad query: after and builds are integers\n", "text/plain; charset=utf-8", head, 400
                )
            if not isinstance(held, tuple):
                return self._send(self.state.as_json(), "application/json", head)
            with self.state.holding():
                self.state.wait_for_change(*held, timeout=self.hold)
                return self._send(self.state.as_json(), "application/json", head)
        with self.state.lock:
            # read before the page: a build published after this reloads the page, once
            version = self.state.version
        try:
            file = self._file(url_path)
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte
            file = None
        shown = self._overlay(url_path)
        if shown is not None:
            return self._send(
                shown.replace(b"</body>", reload_script(version) + b"</body>", 1),
                "text/html; charset=utf-8",
                head,
            )
        if file == "redirect":
            location = urllib.parse.quote(url_path + "/") + (f"?{query}" if query else "")
            return self._send(b"", "text/plain", head, 301, {"Location": location})
        if file is None:
            return self._not_found(head)
        try:
            body, kind = file.read_bytes(), self.guess_type(str(file))
        except OSError:  # removed or swapped out between the look and the read
            return self._not_found(head)
        if file.suffix == ".html":
            body = body.replace(b"</body>", reload_script(version) + b"</body>", 1)
            kind = "text/html; charset=utf-8"
        self._send(body, kind, head)

    def _overlay(self, url_path: str) -> bytes | None:
        """A page rendered in memory for this path (serve's report preview), if any."""
        overlay = self.state.overlay
        if not overlay:
            return None
        parts = [p for p in posixpath.normpath(url_path).split("/") if p not in ("", ".", "..")]
        rel = "/".join(parts)
        return overlay.get(rel + "/index.html" if url_path.endswith("/") else rel) or (
            overlay.get("index.html") if not parts else None
        )

    def _target(self) -> tuple[str, str] | None:
        """(decoded path, query) of the request, or None when it is not a plain local path."""
        if not self.path.startswith("/") or self.path.startswith("//"):
            return None
        raw, _, query = self.path.split("#", 1)[0].partition("?")
        try:
            path = urllib.parse.unquote(raw, errors="strict")
        except UnicodeDecodeError:
            return None
        if "\0" in path or "\\" in path:
            return None
        return path, query

    def _file(self, url_path: str):
        """The file to send, "redirect" for a folder named without its slash, or None."""
        root = Path(self.directory)
        parts = [p for p in posixpath.normpath(url_path).split("/") if p not in ("", ".", "..")]
        path = root.joinpath(*parts)
        if path.is_dir():
            if not url_path.endswith("/"):
                return "redirect"
            path = path / "index.html"
        return path if path.is_file() else None

    def _not_found(self, head: bool) -> None:
        page = Path(self.directory) / "404.html"
        body = page.read_bytes() if page.is_file() else b"Not found\n"
        kind = "text/html; charset=utf-8" if page.is_file() else "text/plain; charset=utf-8"
        self._send(body, kind, head, 404)

    def _host_allowed(self) -> bool:
        if not self.allowed_hosts:
            return True
        host = (self.headers.get("Host") or "").strip().lower()
        return host in self.allowed_hosts

    def _send(
        self, body: bytes, kind: str, head: bool = False, status: int = 200, headers: dict | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass  # the terminal shows builds, not every request


def held_until(query: str) -> tuple[int, int | None] | None | bool:
    """(version, builds or None) of `/__build__?after=V[&builds=N]`: the state the page has,
    which the answer waits to differ from; None without `after` (answer at once), False when
    a value is not an integer."""
    fields = urllib.parse.parse_qs(query, keep_blank_values=True)
    if "after" not in fields:
        return None
    try:
        return int(fields["after"][-1]), (int(fields["builds"][-1]) if "builds" in fields else None)
    except ValueError:
        return False


def allowed_hosts(host: str, port: int) -> frozenset:
    """The Host headers a request may carry: the listen address (and `localhost` for a loopback
    address), with and without the port. Empty when listening on every address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if address is not None and address.is_unspecified:
        return frozenset()
    names = {host.lower()}
    if address is not None and address.version == 6:
        names = {f"[{host.lower()}]"}
    if host == "localhost" or (address is not None and address.is_loopback):
        names |= {"localhost", "127.0.0.1", "[::1]"}
    return frozenset(names | {f"{name}:{port}" for name in names})


class Server(http.server.ThreadingHTTPServer):
    # server_close() would otherwise join every request's thread: a held /__build__ or an idle
    # connection a browser opened ahead (it may never send a request) would delay Ctrl-C; the
    # threads are daemons (ThreadingHTTPServer), so none keeps the process alive either
    block_on_close = False
    # the listen backlog: socketserver's default of 5 dropped connections a browser opens at
    # once (200 at once: 17 to 50 timed out, in 4 of 6 runs); the kernel caps it at somaxconn
    request_queue_size = socket.SOMAXCONN

    def handle_error(self, request, client_address) -> None:
        # a page left while its /__build__ was held gets the answer on a closed connection:
        # nothing went wrong, and a traceback in the terminal would say otherwise
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Server6(Server):
    address_family = socket.AF_INET6


def make_server(
    out: Path, state: BuildState, host: str = "127.0.0.1", port: int = 8000, hold: float = HOLD_SECONDS
) -> http.server.ThreadingHTTPServer:
    """A server bound to host:port (port 0: a free one), not yet serving; a /__build__?after=
    request is held at most `hold` seconds."""
    server_class = Server6 if ":" in host else Server
    try:
        server = server_class(
            (host, port), functools.partial(Handler, directory=str(out)), bind_and_activate=False
        )
        server.server_bind()
        server.server_activate()
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PortBusy(
                f"port {port} on {host} is in use by another program: stop it, or "
                "choose another port with --port N (--port 0 picks a free one)"
            ) from None
        raise PortBusy(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}; check --host and --port"
        ) from None
    server.RequestHandlerClass = functools.partial(
        type(
            "SiteHandler",
            (Handler,),
            {"state": state, "hold": hold, "allowed_hosts": allowed_hosts(host, server.server_address[1])},
        ),
        directory=str(out),
    )
    return server
