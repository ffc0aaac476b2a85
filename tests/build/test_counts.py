"""A count of one reads in the singular on English pages ("1 result", "1 accelerator"): the
interface strings' `_one` forms (sitegen/base/languages.py, counted), in the pages as built
and in the scripts that fill in a count (search, the explorer)."""

from __future__ import annotations

import re
from pathlib import Path

# A lone 1 (not 11, 2.1 or 1,001) before a plural noun the site counts.
ONE_PLURAL = re.compile(
    rb"(?<![\d.,])1 (results|accelerators|rounds|runs|values|submitters|systems|benchmarks"
    rb"|chip families|reports|claims|logs)\b"
)


def one_in_the_plural(out: Path) -> list[str]:
    """`file: ...text...` for each "1 <plural>" in the English pages of the site at `out`."""
    found = []
    for path in sorted((out / "en").rglob("*.html")):
        data = path.read_bytes()
        for match in ONE_PLURAL.finditer(data):
            around = data[max(0, match.start() - 40) : match.end()].decode("utf-8", "replace")
            found.append(f"{path.relative_to(out)}: ...{around}")
    return found


def test_the_scan_finds_one_in_the_plural(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "a.html").write_text("<dd>v1.0 · 1 results</dd><p>11 results, 2.1 runs</p>")
    (tmp_path / "en" / "b.html").write_text("<p>with 1 accelerators</p><p>1 result</p>")
    assert [line.split(":")[0] for line in one_in_the_plural(tmp_path)] == ["en/a.html", "en/b.html"]


def test_the_shipped_english_pages_count_one_in_the_singular(shipped_site):
    assert one_in_the_plural(shipped_site) == []
    # not vacuous: the record has submitters and chip variants with one result
    said = (shipped_site / "en" / "accelerators").glob("*.html")
    assert any(b": 1 result " in path.read_bytes() for path in said)
