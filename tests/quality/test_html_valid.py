"""Every HTML page of the shipped site passes the Nu Html Checker (node_modules/vnu-jar), run
once over all files."""

from __future__ import annotations

import json
import subprocess
from urllib.parse import unquote, urlsplit

import pytest

from .quality_tools import html_pages, require


def test_every_page_is_valid_html(shipped_site):
    java = require("java")
    jar = require("vnu-jar")
    pages = html_pages(shipped_site)
    assert pages, "the shipped site has no HTML pages"
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
