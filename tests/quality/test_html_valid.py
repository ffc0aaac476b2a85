"""The shipped site's HTML passes the Nu Html Checker (node_modules/vnu-jar), run once over all
the pages checked: in every language every page but of the three biggest kinds, of which one in
SAMPLE, a different one in each language."""

from __future__ import annotations

import json
import subprocess
from urllib.parse import unquote, urlsplit

import pytest

from .quality_tools import html_pages, require

# A result's page, a system's and a benchmark's leaderboards (at each scale, too): 10,587 of
# the 11,255 pages, each kind made by one template from the record's rows. One in SAMPLE of
# each kind (in path order: every round and benchmark), a different one in each language (the
# first in English, the second in the next language...), checks each template in each language
# and three in five of the rows; the checker takes about 18 ms a page, and the whole site was
# the suite's longest test (over 200 s; 2,788 of the 11,255 pages are checked).
SAMPLE = 5
LANGUAGES = ("en", "zh", "zh-hant")  # the order of their offsets in each kind


def bulk_kind(page: str) -> tuple[str, ...] | None:
    """(language, folder, "at" or "") of a page of the bulk kinds, else None: results/ID.html,
    systems/ROUND/ID.html, benchmarks/ID/ROUND.html and benchmarks/ID/at-SCALE.html."""
    parts = page.split("/")
    if (len(parts) == 3 and parts[1] == "results") or (
        len(parts) == 4 and parts[1] in ("systems", "benchmarks")
    ):
        return (parts[0], parts[1], "at" if parts[-1].startswith("at-") else "")
    return None


def checked(pages: list[str]) -> list[str]:
    """`pages` (sorted) but for four in five of each language's bulk kinds."""
    seen: dict[tuple[str, ...], int] = {}
    kept = []
    for page in pages:
        kind = bulk_kind(page)
        if kind is not None:
            seen[kind] = seen.get(kind, -1) + 1
            if seen[kind] % SAMPLE != LANGUAGES.index(kind[0]) % SAMPLE:
                continue
        kept.append(page)
    return kept


def test_every_page_is_valid_html(shipped_site):
    java = require("java")
    jar = require("vnu-jar")
    every = html_pages(shipped_site)
    pages = checked(every)
    assert pages, "the shipped site has no HTML pages"
    # every page of the other kinds, and pages of every bulk kind in every language
    assert {p for p in every if bulk_kind(p) is None} <= set(pages)
    assert {bulk_kind(p) for p in every} == {bulk_kind(p) for p in pages}
    # the languages' samples are different rows: of every five results, three are checked
    rows = {p.split("/", 1)[1] for p in pages if p.split("/")[1:2] == ["results"]}
    assert len(rows) == 3 * len({p for p in pages if p.startswith("en/results/")})
    run = subprocess.run(
        # one garbage collector thread (the checker is one thread; the other core runs tests);
        # the quick compiler only (the optimizing one cost a sixth more CPU than it saved), with
        # the stack the checker asks for then; no language detection: it only ever warns, and
        # warnings are not asked for (a tenth of the run)
        [str(java), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss2m", "-jar", str(jar)]
        + ["--errors-only", "--no-langdetect"]
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
