"""The shipped site's HTML passes the Nu Html Checker (node_modules/vnu-jar), run once over all
the pages checked: every page in English, and in the other languages every page but of their
three biggest kinds, of which one in SAMPLE."""

from __future__ import annotations

import json
import subprocess
from urllib.parse import unquote, urlsplit

import pytest

from .quality_tools import html_pages, require

# A result's page, a system's and a benchmark's leaderboards: 7,140 of the 11,255 pages are the
# Chinese ones, made by the templates and from the data of the English pages, with their
# language's strings. One in SAMPLE of them (in path order: every round and benchmark), and
# all of English, keep the check of each template with each language; the checker takes about
# 18 ms a page, and the whole site was the suite's longest test (over 200 s).
BULK = ("results", "systems", "benchmarks")
SAMPLE = 5


def checked(pages: list[str]) -> list[str]:
    """`pages` (sorted) but for four in five of each non-English language's bulk kinds."""
    bulk: dict[tuple[str, str], int] = {}
    kept = []
    for page in pages:
        parts = page.split("/")
        if len(parts) > 2 and parts[0] != "en" and parts[1] in BULK:
            seen = bulk[parts[0], parts[1]] = bulk.get((parts[0], parts[1]), -1) + 1
            if seen % SAMPLE:
                continue
        kept.append(page)
    return kept


def test_every_page_is_valid_html(shipped_site):
    java = require("java")
    jar = require("vnu-jar")
    every = html_pages(shipped_site)
    pages = checked(every)
    assert pages, "the shipped site has no HTML pages"
    # every English page, and a Chinese page of every kind (the first of each is kept)
    assert {p for p in every if p.startswith("en/")} <= set(pages)
    kinds = {tuple(p.split("/")[:2]) for p in every if p.count("/") > 1}
    assert kinds == {tuple(p.split("/")[:2]) for p in pages if p.count("/") > 1}
    run = subprocess.run(
        # one garbage collector thread (the checker is one thread; the other core runs tests);
        # no language detection: it only ever warns, and warnings are not asked for (a tenth
        # of the run)
        [str(java), "-XX:+UseSerialGC", "-jar", str(jar), "--errors-only", "--no-langdetect"]
        + ["--format", "json", *pages],
        cwd=shipped_site,
        capture_output=True,
        text=True,
        timeout=600,
    )
    # vnu prints the JSON report on stderr (stdout with --stdout); exit status 1 means errors.
    output = run.stderr.strip() or run.stdout.strip()
    try:
        report = json.loads(output)
    except json.JSONDecodeError:
        raise AssertionError(f"vnu gave no JSON report (exit {run.returncode}):\n{output[:2000]}") from None
    errors = [m for m in report.get("messages", []) if m.get("type") in ("error", "non-document-error")]
    lines = []
    for m in errors:
        url = m.get("url", "")
        where = unquote(urlsplit(url).path) if url.startswith("file:") else url
        if where.startswith(str(shipped_site)):
            where = where[len(str(shipped_site)) + 1 :]
        line = m.get("lastLine") or m.get("firstLine") or "?"
        extract = (m.get("extract") or "").strip().replace("\n", " ")[:100]
        lines.append(f"  {where}:{line}: {m.get('message')}" + (f"  [{extract}]" if extract else ""))
    if errors:
        more = f"\n  ... and {len(lines) - 80} more" if len(lines) > 80 else ""
        pytest.fail(
            f"{len(errors)} HTML error(s) in {len(pages)} pages:\n" + "\n".join(lines[:80]) + more,
            pytrace=False,
        )
    assert run.returncode == 0, f"vnu exited with {run.returncode}:\n{output[:2000]}"
