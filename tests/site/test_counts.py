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


# --- one set, one count: the rounds index and the downloads page ------------------------------

CELLS = re.compile(
    rb'<th scope="row"><a href="rounds/(v[\d.]+)\.html">v[\d.]+</a></th>\s*<td class="num[^"]*"[^>]*>([\d,]+)'
)
ROUNDS_CELLS = re.compile(
    rb'<th scope="row"><a href="(v[\d.]+)\.html">v[\d.]+</a></th><td class="num answer" data-value="(\d+)"'
)


def test_the_rounds_index_and_the_downloads_count_each_round_alike(shipped_site, shipped_record):
    # Worked out from the record's files: a round's results, a copy of another result of its
    # round (copy_of in the downloads) counted once. Both pages show that count; the downloads
    # also say how many more rows the files hold (the copies).
    import csv

    copies: dict[str, int] = {}
    for row in csv.DictReader(open(shipped_site / "downloads" / "mlperf-training-all.csv", encoding="utf-8")):
        copies[row["round"]] = copies.get(row["round"], 0) + bool(row["copy_of"])
    rows = {}
    for r in shipped_record:
        rows[r["round"]] = rows.get(r["round"], 0) + 1
    expected = {rnd: rows[rnd] - copies.get(rnd, 0) for rnd in rows}
    index = (shipped_site / "en" / "rounds" / "index.html").read_bytes()
    downloads = (shipped_site / "en" / "downloads.html").read_bytes()
    assert {k.decode(): int(v) for k, v in ROUNDS_CELLS.findall(index)} == expected
    assert {k.decode(): int(v.replace(b",", b"")) for k, v in CELLS.findall(downloads)} == expected
    assert sum(copies.values()) > 0  # not vacuous: v4.0 holds copies
    for rnd, n in copies.items():
        if n:
            said = "1 more row: a copy of a result" if n == 1 else f"{n} more rows: copies of results"
            assert f"(the files hold {said} within the round)".encode() in downloads, rnd
