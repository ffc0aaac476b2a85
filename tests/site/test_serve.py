"""serve's HTTP conventions, against a real server on a free port (sitegen/editor/http_server.py, serve.py):
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

from sitegen.editor.http_server import BuildState, allowed_hosts, make_server, reload_script

from project import write_project

ROOT = Path(__file__).resolve().parents[2]
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
    assert body == PAGE.replace(b"</body>", reload_script(0) + b"</body>")
    # the page knows the version it was served at, and asks to be told of the next build (held
    # by the server); it does not poll
    assert b"var seen = 0, builds = null;" in body
    assert b'"?after=" + seen + "&builds=" + builds' in body
    assert b"setTimeout(poll" not in body
    status, headers, body = ask(server, "GET", "/assets/style.css")
    assert (status, headers["Content-Type"], body) == (200, "text/css", b"p{}")


def held(port, query, timeout=30):
    """A thread asking /__build__?<query>; its answer (status, headers, body), or the
    ConnectionError that ended it, lands in `got`."""
    got = []

    def asking():
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
            got.append(ask(port, "GET", f"/__build__?{query}", connection=conn))
        except ConnectionError as exc:
            got.append(exc)

    thread = threading.Thread(target=asking, daemon=True)
    thread.start()
    return thread, got


def test_build_state_is_held_until_it_moves_or_the_hold_ends(tmp_path):
    import json

    state = BuildState(version=3, builds=2)
    running = make_server(tmp_path, state, "127.0.0.1", 0, hold=1.0)
    threading.Thread(target=running.serve_forever, daemon=True).start()
    port = running.server_address[1]
    try:
        start = time.perf_counter()
        assert json.loads(ask(port, "GET", "/__build__")[2])["version"] == 3  # at once
        assert json.loads(ask(port, "GET", "/__build__?after=2")[2])["version"] == 3  # differs
        assert time.perf_counter() - start < 0.5
        status, _, body = ask(port, "GET", "/__build__?after=3&builds=2")  # nothing moves
        assert status == 200 and json.loads(body)["version"] == 3
        assert 0.9 < time.perf_counter() - start < 5
        for query in ("after=x", "after=3&builds=", "after="):
            assert ask(port, "GET", f"/__build__?{query}")[0] == 400

        thread, got = held(port, "after=3&builds=2")  # a failed build: same version
        time.sleep(0.3)
        with state.lock:
            state.errors, state.builds = ["boom"], 3
            state.lock.notify_all()
        thread.join(timeout=0.5)
        assert got and json.loads(got[0][2])["errors"] == ["boom"]

        thread, got = held(port, "after=3")  # the server stops: answered now
        time.sleep(0.3)
        state.close()
        thread.join(timeout=0.5)
        assert got and got[0][0] == 200
    finally:
        running.shutdown()
        running.server_close()


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


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "localhost", "127.0.0.1", "[::1]:{port}"]
)
def test_the_listen_address_is_allowed(server, host):
    assert ask(server, "GET", "/en/", host=host.format(port=server))[0] == 200


def test_allowed_hosts_for_other_addresses():
    assert allowed_hosts("0.0.0.0", 8000) == frozenset()  # every address: any name
    assert allowed_hosts("192.168.1.5", 8000) == {"192.168.1.5", "192.168.1.5:8000"}


@pytest.mark.parametrize(
    "path, status",
    [
        ("/" + "a" * 300, 404),  # longer than a file name may be
        ("/en/" + "b/" * 3000, 404),  # deeper than the file system
        ("/%00", 400),
        ("/a%00b.html", 400),  # NUL bytes
        ("/%ff%fe", 400),  # not UTF-8
        ("/..%2f..%2fetc/passwd", 404),
        ("/../../etc/passwd", 404),
        ("//evil.example/", 404),  # http.server reads it as /evil.example/
        ("relative", 400),
        ("*", 400),
    ],
)
def test_long_and_malformed_paths_are_answered(server, path, status):
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    assert ask(server, "GET", path, connection=conn)[0] == status
    assert ask(server, "GET", "/en/", connection=conn)[0] == 200  # the connection stays


def test_a_request_line_too_long_gets_414(server):
    with socket.create_connection(("127.0.0.1", server), timeout=10) as sock:
        sock.sendall(b"GET /" + b"x" * 70000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.0 414")


def test_serve_command_on_a_free_port(tmp_path):
    content = write_project(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SITEGEN_CACHE": str(tmp_path / "cache")}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sitegen",
            "--content",
            str(content),
            "--out",
            str(tmp_path / "o"),
            "serve",
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
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
        version = build_state(port)["version"]
        waiting, got = held(port, f"after={version}")  # an open page's request, held
        time.sleep(0.5)
        assert not got
    finally:
        process.send_signal(signal.SIGINT)
        stopping = time.perf_counter()
        try:
            status = process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # say where it is stuck (faulthandler)
            process.send_signal(signal.SIGUSR1)
            time.sleep(2)
            process.kill()
            pytest.fail("serve did not stop on Ctrl-C; its stacks:\n" + process.stderr.read())
        assert status == 0
    # promptly, not after the held request's 25 s; and that request has ended: answered, or
    # closed when the process exits before the woken thread has written (the page asks again)
    assert time.perf_counter() - stopping < 10
    waiting.join(timeout=5)
    assert got and (isinstance(got[0], ConnectionError) or got[0][0] == 200)


# --- Nothing of the editor's is lost: serve outlives every failed build -----------------------
# One server (sitegen.editor.serve.serve, in a thread, with the command's own build) over the tiny
# project; each case breaks the content, checks that the last good page is still served with
# status 200 and the error shown (terminal and /__build__, which the page's overlay polls),
# then repairs it and checks that the next build is served and the version (the reload) moves.

METHODOLOGY = "---\ntitle: Methodology\nsummary: How numbers are made.\n---\n## Time to train\n\n{}\n"
ROOT_USER = os.geteuid() == 0


class Warmed(threading.Event):
    """Set by serve's warm-up with the build state it left: (version, preview overlay)."""

    def set(self, left=None):
        self.left = left
        super().set()


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    from sitegen.cli import parse_args
    from sitegen.commands import preview_reports, run_build, warm_preview
    from sitegen.editor.serve import serve

    folder = tmp_path_factory.mktemp("live")
    content = write_project(folder)
    out = folder / "output"
    args = parse_args(["--content", str(content), "--out", str(out), "-q"])
    before = os.environ.get("SITEGEN_CACHE")
    os.environ["SITEGEN_CACHE"] = str(folder / "cache")
    said, stop, state, warmed = [], threading.Event(), BuildState(), Warmed()
    thread = threading.Thread(
        target=serve,
        args=(lambda: run_build(args, processes=False), out, [content], 0),
        kwargs={
            "say": said.append,
            "stop": stop,
            "state": state,
            "preview": lambda changed: preview_reports(args, changed),
            "warm": lambda: (warm_preview(args), warmed.set((state.version, dict(state.overlay)))),
        },
        daemon=True,
    )
    thread.start()
    wait_for(lambda: any(s.startswith("serving ") for s in said) and state.watching, 180)
    assert warmed.wait(120)  # before any test edits: what the warm-up left is its own
    port = int(next(s for s in said if s.startswith("serving ")).split(":")[-1].split("/")[0])
    yield {"content": content, "port": port, "said": said, "state": state, "warmed": warmed, "out": out}
    stop.set()
    thread.join(timeout=30)
    assert not thread.is_alive()
    if before is None:
        os.environ.pop("SITEGEN_CACHE", None)
    else:
        os.environ["SITEGEN_CACHE"] = before


def wait_for(condition, timeout=90):
    deadline = time.time() + timeout
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.1)


def build_state(port):
    import json

    status, _, body = ask(port, "GET", "/__build__")
    assert status == 200
    return json.loads(body)


def _yaml_error(content, mp):
    path = content / "data" / "systems.yaml"
    path.write_text(path.read_text() + "\n  - : [\n")


def _yaml_fixed(content, mp):
    (content / "data" / "systems.yaml").write_text(SYSTEMS_TEXT)


def _bad_reference(content, mp):
    path = content / "reports" / "acme-vs-zenith.en.md"
    path.write_text(path.read_text().replace("[[result:r-acme]]", "[[result:r-nope]]"))


def _reference_fixed(content, mp):
    path = content / "reports" / "acme-vs-zenith.en.md"
    path.write_text(path.read_text().replace("[[result:r-nope]]", "[[result:r-acme]]"))


def _template_error(content, mp):
    (content / "templates").mkdir()
    (content / "templates" / "page.html").write_text('{% extends "base.html" %}\n{% if %}\n')


def _template_fixed(content, mp):
    (content / "templates" / "page.html").unlink()


def _unreadable(content, mp):
    path = content / "data" / "claims.yaml"
    if ROOT_USER:  # root reads any file: a folder where the file should be instead
        path.unlink()
        path.mkdir()
    else:
        path.chmod(0)


def _readable_again(content, mp):
    path = content / "data" / "claims.yaml"
    if path.is_dir():
        path.rmdir()
        path.write_text(CLAIMS_TEXT)
    else:
        path.chmod(0o644)


def _deleted(content, mp):
    (content / "data" / "vendors.yaml").unlink()


def _restored(content, mp):
    (content / "data" / "vendors.yaml").write_text(VENDORS_TEXT)


def _raises(exception):
    def page_fails(content, mp):
        def broken(*args, **kwargs):
            raise exception

        # the page being edited is always made again (a page not read again may be reused)
        mp.setattr("sitegen.render.pages.body_html", broken)  # what a plain page is drawn with
        (content / "pages" / "methodology.en.md").write_text(METHODOLOGY.format("Being edited."))

    return page_fails


def _no_longer_raises(content, mp):
    mp.undo()


from project import CLAIMS as CLAIMS_TEXT  # noqa: E402
from project import SYSTEMS as SYSTEMS_TEXT  # noqa: E402
from project import VENDORS as VENDORS_TEXT  # noqa: E402

FAULTS = {
    "yaml syntax error": (_yaml_error, _yaml_fixed, "content/data/systems.yaml:22: YAML syntax error"),
    "bad [[...]] reference": (
        _bad_reference,
        _reference_fixed,
        "content/reports/acme-vs-zenith.en.md:12: unknown result 'r-nope'",
    ),
    "template syntax error": (
        _template_error,
        _template_fixed,
        "content/templates/page.html:2: template syntax error",
    ),
    "unreadable file": (
        _unreadable,
        _readable_again,
        "content/data/claims.yaml: a folder, not a file" if ROOT_USER else "claims.yaml",
    ),
    "file deleted while serving": (
        _deleted,
        _restored,
        "content/data/vendors.yaml: missing data table 'vendors'",
    ),
    "file gone during the build": (
        _raises(FileNotFoundError(2, "No such file or directory", "content/data/gone.yaml")),
        _no_longer_raises,
        "content/data/gone.yaml: No such file or directory",
    ),
    "exception inside the build": (
        _raises(RuntimeError("page function broke")),
        _no_longer_raises,
        "internal error: RuntimeError: page function broke",
    ),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_serve_survives_and_recovers(live, monkeypatch, fault):
    content, port, said = live["content"], live["port"], live["said"]
    breaks, repairs, message = FAULTS[fault]
    # idle: no error, and no build of an earlier test's edits still running
    wait_for(lambda: (state := build_state(port))["errors"] == [] and not state["building"])
    version = build_state(port)["version"]
    status, _, good_page = ask(port, "GET", "/en/methodology.html")
    assert status == 200
    shown = len(said)

    breaks(content, monkeypatch)
    try:
        wait_for(lambda: any(message in e for e in build_state(port)["errors"]))
        assert build_state(port)["version"] == version  # no reload to a broken site
        wait_for(lambda: any(message in s for s in said[shown:]))  # and the terminal says it
        assert any("serving the last good site" in s for s in said[shown:])
        assert ask(port, "GET", "/en/methodology.html")[:3:2] == (200, good_page)
        assert ask(port, "GET", "/zh/")[0] == 200
    finally:  # repaired even when a check fails: the next tests share the server
        repairs(content, monkeypatch)

    marker = f"Repaired after the {fault}."
    (content / "pages" / "methodology.en.md").write_text(METHODOLOGY.format(marker))
    wait_for(
        lambda: (
            build_state(port)["version"] > version  # the open page reloads
            and marker.encode() in ask(port, "GET", "/en/methodology.html")[2]
        )
    )
    assert build_state(port)["errors"] == [], said[shown:]


def test_a_report_edit_is_shown_from_memory_then_written_with_one_reload(live):
    """The edited report's page is rendered in memory and served at once (one reload); the
    build that follows writes the same page to the output and does not reload again."""
    content, port, state = live["content"], live["port"], live["state"]
    wait_for(lambda: build_state(port)["errors"] == [] and not state.overlay)
    version = build_state(port)["version"]
    path = content / "reports" / "acme-vs-zenith.en.md"
    marker = "A sentence added while serving."
    path.write_text(path.read_text() + f"\n{marker}\n")
    wait_for(lambda: build_state(port)["version"] > version)
    assert marker.encode() in ask(port, "GET", "/en/reports/acme-vs-zenith.html")[2]
    out = Path(next(s for s in live["said"] if s.startswith("serving ")).split()[1])
    wait_for(
        lambda: marker.encode() in (out / "en/reports/acme-vs-zenith.html").read_bytes() and not state.overlay
    )
    assert build_state(port)["version"] == version + 1  # reloaded once, not twice
    assert build_state(port)["errors"] == []


def test_a_held_build_request_answers_when_the_edit_is_published(live):
    """An open page's /__build__?after=<its version> is held (still unanswered a second later)
    and answered as soon as the edit is published, long before the hold's 25 s."""
    import json

    content, port, state = live["content"], live["port"], live["state"]
    wait_for(lambda: build_state(port)["errors"] == [] and not state.building and not state.overlay)
    version = build_state(port)["version"]
    thread, got = held(port, f"after={version}")
    time.sleep(1.0)
    assert not got, "answered before anything was published"
    path = content / "reports" / "acme-vs-zenith.en.md"
    marker = "A sentence pushed to the open page."
    path.write_text(path.read_text() + f"\n{marker}\n")
    saved = time.perf_counter()
    thread.join(timeout=5)
    assert got, "not answered within 5 s of the edit"
    answered = time.perf_counter() - saved
    new = json.loads(got[0][2])["version"]
    assert got[0][0] == 200 and new > version, answered
    page = ask(port, "GET", "/en/reports/acme-vs-zenith.html")[2]
    assert marker.encode() in page and f"var seen = {new},".encode() in page
    wait_for(lambda: not state.building and not state.overlay)


def test_the_preview_is_the_bytes_the_build_writes(tmp_path, monkeypatch, warm_cache):
    from sitegen.assemble.pipeline import build
    from sitegen.assemble.rendering import preview_reports
    from sitegen.content.load import load_site

    from project import TEMPLATES

    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content, out = write_project(tmp_path), tmp_path / "out"
    build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    zh = content / "reports" / "acme-vs-zenith.zh.md"
    zh.write_text(zh.read_text() + "\n新增一句。\n")
    files = preview_reports(load_site(content), TEMPLATES, [zh])
    assert files and all(path.startswith("zh/") for path in files)  # only the edited language
    assert "zh/reports/acme-vs-zenith.html" in files
    build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    for path, data in files.items():
        assert (out / path).read_bytes() == data, path
    # not a report's file, or a report with a mistake: nothing to preview (the build says why)
    assert preview_reports(load_site(content), TEMPLATES, [content / "data" / "systems.yaml"]) is None
    en = content / "reports" / "acme-vs-zenith.en.md"
    en.write_text(en.read_text().replace("[[result:r-acme]]", "[[result:r-nope]]"))
    assert preview_reports(load_site(content), TEMPLATES, [en]) is None


def test_serve_warms_the_preview_at_start_and_publishes_nothing_for_it(live):
    """At start serve renders one report's preview beside the server and drops it (the first
    edit then costs what the next ones cost); the warm-up shows no page and writes nothing."""
    assert live["warmed"].wait(60)
    assert live["warmed"].left == (1, {})  # only the first build published; no page shown


# --- serve never forks beside its threads ------------------------------------------------------


def test_serve_builds_in_its_own_process_and_a_plain_build_may_fork(tmp_path, monkeypatch, warm_cache):
    """serve's builds run while its HTTP and warm-up threads run: a fork then may copy a lock
    one of them holds. The command's build never starts language processes; `build` does (the
    tiny project made "big" for the test), so the check would see a fork."""
    from sitegen import cli
    from sitegen.assemble import forking, rendering
    from sitegen.editor import serve as serve_module

    forks = []

    def in_processes(function, jobs, at_once=None, here=()):
        forks.append(len(jobs))
        return [function(job) for job in jobs]

    monkeypatch.setattr(forking, "in_forked_processes", in_processes)
    monkeypatch.setattr(forking, "fork_safe", lambda: True)
    monkeypatch.setattr(rendering, "PARALLEL_MIN_REPORTS", 1)
    monkeypatch.setattr(rendering.os, "cpu_count", lambda: 2)
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = write_project(tmp_path)

    def fake_serve(build_once, out, watch, port, **kwargs):
        build_once()  # as serve does before and after each change
        build_once()

    monkeypatch.setattr(serve_module, "serve", fake_serve)
    common = ["--content", str(content), "-q"]
    assert cli.main([*common, "--out", str(tmp_path / "served"), "serve"]) == 0
    assert forks == [] and (tmp_path / "served" / "index.html").is_file()
    assert cli.main([*common, "--out", str(tmp_path / "built"), "build"]) == 0
    assert forks == [3]  # its two languages and the record's data files
