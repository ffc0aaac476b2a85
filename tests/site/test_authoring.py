"""Editors' commands: check, new report, status, serve with live reload."""

import json
import socket
import threading
import time
import urllib.request

import pytest

import build
from sitegen.assemble.pipeline import build as build_site
from sitegen.editor.authoring import check_problems

from project import REPORT_EN, REPORT_ZH, TEMPLATES, write_project
from shared_sites import output_files


def run(capsys, *argv):
    status = build.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_check_writes_nothing_and_finds_dead_links(tmp_path, capsys):
    content = write_project(
        tmp_path, {"reports/acme-vs-zenith.en.md": REPORT_EN + "\n[gone](../nowhere.html)\n"}
    )
    out = tmp_path / "out"
    status, _, err = run(capsys, "--content", content, "--out", out, "check")
    assert status == 1 and not out.exists()
    assert "output/en/reports/acme-vs-zenith.html: link '../nowhere.html' names no file of the site" in err
    assert "check failed: 1 problem(s)" in err


def test_check_passes_a_record_site_whose_pages_link_with_a_query(tmp_path, capsys):
    """Result pages link compare.html?add=<id>: the file is compare.html (the query is the
    page's own business), so `check` passes what `build` passes."""
    from record_sample import write_record_project

    content = write_record_project(tmp_path)
    status, _, err = run(capsys, "--content", content, "--out", tmp_path / "out", "check")
    assert status == 0, err
    # and a query on a missing page is still a dead link
    report = (content / "reports" / "acme-vs-zenith.en.md").read_text("utf-8")
    broken = write_record_project(
        tmp_path / "b", {"reports/acme-vs-zenith.en.md": report + "\n[gone](../nowhere.html?add=x)\n"}
    )
    status, _, err = run(capsys, "--content", broken, "--out", tmp_path / "out", "check")
    assert status == 1 and "link '../nowhere.html?add=x' names no file of the site" in err


@pytest.mark.parametrize(
    "added",
    ["\nZenith is the fastest system.\n", "\n[gone](../nowhere.html#top)\n", "\nA plain closing line.\n"],
    ids=["a-warning", "a-dead-link", "clean"],
)
def test_check_strict_says_a_builds_warnings_and_the_dead_links_of_its_output(
    tmp_path, capsys, monkeypatch, added, warm_cache
):
    """`check --strict` fails on exactly what a build of the same content warns of and the
    dead links of what that build writes (check_problems of both), and passes when there are
    none: so the shipped content passes it when the build the tests share has no warning and
    no dead link (the next test), without rendering the whole record a second time."""
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = write_project(tmp_path, {"reports/acme-vs-zenith.en.md": REPORT_EN + added})
    report = build_site(content, TEMPLATES, tmp_path / "out", cache=tmp_path / "cache")
    expected = sorted(str(p) for p in check_problems(report.warnings, output_files(tmp_path / "out"), True))
    status, _, err = run(capsys, "--content", content, "check", "--strict")
    if added.startswith("\nA plain"):
        assert (status, expected, err) == (0, [], "")
        return
    assert len(expected) == 1  # the warning, or the dead link
    assert (status, err.splitlines()) == (1, [*expected, "check failed: 1 problem(s)"])


def test_the_shipped_content_passes_check_strict(shipped_build):
    """What CI publishes: no warning at all (the superlatives and the citations included), no
    dead link; read from the shipped site's build, which runs check's loading and rendering."""
    warnings = json.loads((shipped_build / "warnings.json").read_text("utf-8"))
    assert check_problems(warnings, output_files(shipped_build / "output"), strict=True) == []


def test_new_report_scaffolds_both_languages(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1625097600")  # 2021-07-01
    content = write_project(tmp_path)
    status, out, _ = run(capsys, "--content", content, "new", "report", "next-round")
    assert status == 0 and "next-round.en.md" in out
    zh = (content / "reports" / "next-round.zh.md").read_text("utf-8")
    assert zh.startswith('---\ntitle: ""\ndate: 2021-07-01\n') and "## 主要发现" in zh
    status, _, err = run(capsys, "--content", content, "new", "report", "next-round")
    assert status == 1 and "already exists; choose another slug" in err


def test_new_report_refuses_a_slug_the_build_would_refuse(tmp_path, capsys):
    content = write_project(tmp_path)
    before = sorted(p.relative_to(content) for p in content.rglob("*"))
    status, _, err = run(capsys, "--content", content, "new", "report", "index")
    assert status == 2  # a usage error, as the README says
    assert err.strip().splitlines() == [
        "error: the slug 'index' would overwrite the generator's "
        "own page <lang>/reports/index.html; choose another; "
        "nothing created"
    ]
    assert sorted(p.relative_to(content) for p in content.rglob("*")) == before


def test_status_lists_what_lacks_a_language(tmp_path, capsys):
    content = write_project(
        tmp_path,
        {
            "reports/acme-vs-zenith.zh.md": None,
            "reports/acme-vs-zenith.en.md": REPORT_EN.replace(
                "claims: [c-ppr]", "claims: [c-ppr]\npending: [zh]"
            ),
            "data/glossary.yaml": "- id: ttt\n  term: {en: Time to train, zh: 训练用时}\n"
            "  definition: {en: Minutes to reach the target., zh: Minutes to reach the quality target.}\n",
        },
    )
    status, out, _ = run(capsys, "--content", content, "status")
    assert status == 0
    assert "reports/acme-vs-zenith.zh.md: report 'acme-vs-zenith' lacks zh" in out
    assert "content/data/glossary.yaml: data 'ttt.definition' lacks zh" in out
    assert out.strip().endswith("2 item(s) lack one language")
    assert build.main(["--content", str(content), "--out", str(tmp_path / "o"), "-q"]) == 0
    page = (tmp_path / "o" / "en" / "editors" / "status.html").read_text("utf-8")
    assert "ttt.definition" in page


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


def wait_for(predicate, seconds=90):  # generous: CI machines are slow and shared
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_serve_rebuilds_reloads_and_survives_errors(tmp_path, monkeypatch, warm_cache):
    from sitegen.assemble.pipeline import build as build_site
    from sitegen.editor.serve import serve

    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content, out, port = write_project(tmp_path), tmp_path / "out", free_port()
    messages = []
    threading.Thread(
        target=serve,
        daemon=True,
        args=(
            lambda: str(build_site(content, TEMPLATES, out, cache=tmp_path / "cache")),
            out,
            [content],
            port,
            messages.append,
        ),
    ).start()
    base = f"http://127.0.0.1:{port}"
    page = wait_for(lambda: _try(get, f"{base}/zh/reports/acme-vs-zenith.html"))
    assert 'fetch("/__build__"' in page and "主要发现" in page
    wait_for(lambda: json.loads(get(f"{base}/__build__"))["watching"])
    version = json.loads(get(f"{base}/__build__"))["version"]

    (content / "reports" / "acme-vs-zenith.zh.md").write_text(
        REPORT_ZH.replace("主要发现", "新的发现"), "utf-8"
    )
    wait_for(lambda: json.loads(get(f"{base}/__build__"))["version"] > version)
    assert "新的发现" in get(f"{base}/zh/reports/acme-vs-zenith.html")

    (content / "reports" / "acme-vs-zenith.zh.md").write_text(
        REPORT_ZH.replace("[[result:r-acme]]", "[[result:nope]]"), "utf-8"
    )
    errors = wait_for(lambda: json.loads(get(f"{base}/__build__"))["errors"])
    assert errors == ["content/reports/acme-vs-zenith.zh.md:12: unknown result 'nope' in [[...]]"]
    assert "新的发现" in get(f"{base}/zh/reports/acme-vs-zenith.html")  # the last good site


def _try(fetch, url):
    try:
        return fetch(url)
    except OSError:
        return None
