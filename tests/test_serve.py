"""serve's HTTP conventions, against a real server on a free port (sitegen/serve.py):
redirects, the site's own 404 page, HEAD, Host headers, long and malformed paths, and the
command end to end (`serve --port 0`)."""
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from project import write_project
from sitegen.serve import RELOAD_SCRIPT, BuildState, allowed_hosts, make_server

ROOT = Path(__file__).resolve().parent.parent
PAGE = b"<!doctype html><html><body><p>home</p></body></html>"
NOT_FOUND = b"<!doctype html><html><body><p>our 404</p></body></html>"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    out = tmp_path_factory.mktemp("served")
    (out / "en").mkdir()
    (out / "assets").mkdir()
    (out / "index.html").write_bytes(PAGE)
    (out / "en" / "index.html").write_bytes(PAGE)
    (out / "404.html").write_bytes(NOT_FOUND)
    (out / "assets" / "style.css").write_bytes(b"p{}")
    running = make_server(out, BuildState(), "127.0.0.1", 0)
    threading.Thread(target=running.serve_forever, daemon=True).start()
    yield running.server_address[1]
    running.shutdown()
    running.server_close()


def ask(port, method, path, host=None, connection=None):
    """(status, headers, body) of one request; `connection` reuses a kept-alive connection."""
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", f"127.0.0.1:{port}" if host is None else host)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    return response.status, dict(response.getheaders()), body


def test_folder_without_slash_redirects(server):
    status, headers, _ = ask(server, "GET", "/en")
    assert (status, headers["Location"]) == (301, "/en/")
    status, headers, _ = ask(server, "GET", "/en?x=1")
    assert (status, headers["Location"]) == (301, "/en/?x=1")


def test_pages_get_the_reload_script(server):
    status, headers, body = ask(server, "GET", "/en/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert body == PAGE.replace(b"</body>", RELOAD_SCRIPT + b"</body>")
    status, headers, body = ask(server, "GET", "/assets/style.css")
    assert (status, headers["Content-Type"], body) == (200, "text/css", b"p{}")


def test_missing_page_gets_the_sites_404(server):
    status, headers, body = ask(server, "GET", "/en/nowhere/at/all.html")
    assert (status, body) == (404, NOT_FOUND)
    assert headers["Content-Type"] == "text/html; charset=utf-8"


def test_head_answers_as_get_without_a_body(server):
    for path in ("/en/", "/assets/style.css", "/missing", "/en"):
        got, head = ask(server, "GET", path), ask(server, "HEAD", path)
        assert head[0] == got[0] and head[2] == b""
        assert head[1]["Content-Length"] == got[1]["Content-Length"] == str(len(got[2]))


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.2", ""])
def test_other_host_headers_are_refused(server, host):
    status, _, body = ask(server, "GET", "/en/", host=host)
    assert (status, body) == (400, b"Host not allowed\n")


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "localhost",
                                  "127.0.0.1", "[::1]:{port}"])
def test_the_listen_address_is_allowed(server, host):
    assert ask(server, "GET", "/en/", host=host.format(port=server))[0] == 200


def test_allowed_hosts_for_other_addresses():
    assert allowed_hosts("0.0.0.0", 8000) == frozenset()       # every address: any name
    assert allowed_hosts("192.168.1.5", 8000) == {"192.168.1.5", "192.168.1.5:8000"}


@pytest.mark.parametrize("path, status", [
    ("/" + "a" * 300, 404),                 # longer than a file name may be
    ("/en/" + "b/" * 3000, 404),            # deeper than the file system
    ("/%00", 400), ("/a%00b.html", 400),    # NUL bytes
    ("/%ff%fe", 400),                       # not UTF-8
    ("/..%2f..%2fetc/passwd", 404), ("/../../etc/passwd", 404),
    ("//evil.example/", 404),               # http.server reads it as /evil.example/
    ("relative", 400), ("*", 400),
])
def test_long_and_malformed_paths_are_answered(server, path, status):
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    assert ask(server, "GET", path, connection=conn)[0] == status
    assert ask(server, "GET", "/en/", connection=conn)[0] == 200    # the connection stays


def test_a_request_line_too_long_gets_414(server):
    with socket.create_connection(("127.0.0.1", server), timeout=10) as sock:
        sock.sendall(b"GET /" + b"x" * 70000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.0 414")


def test_serve_command_on_a_free_port(tmp_path):
    content = write_project(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SITEGEN_CACHE": str(tmp_path / "cache")}
    process = subprocess.Popen(
        [sys.executable, "-m", "sitegen", "--content", str(content), "--out", str(tmp_path / "o"),
         "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env)
    try:
        line = ""
        deadline = time.time() + 120
        while not line.startswith("serving") and time.time() < deadline:
            line = process.stdout.readline()
            assert line or process.poll() is None, process.stderr.read()
        assert line.startswith(f"serving {tmp_path / 'o'} at http://127.0.0.1:")
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        assert ask(port, "GET", "/zh")[0] == 301
        assert ask(port, "GET", "/zh/")[0] == 200
        assert ask(port, "GET", "/zh/nope.html")[0] == 404
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
