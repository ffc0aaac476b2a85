"""No page shows a reader Python's `None` (issue 29, case 8: the starter site's fact-check page
said `None · v1.0 · Closed · 30.0 min`, in both languages and in the search index). Every built
page of the starter (`init`) and of the shipped site is scanned: the text a reader sees (no
script or style), the attributes a reader meets (alt, title, aria-label, placeholder, meta
content), the search index, the feeds and the CSV downloads."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import lxml.etree
import lxml.html

import build

from project import TEMPLATES

NONE = re.compile(r"\bNone\b(?! of )")  # "None of them can be checked" is English
INDEX = re.compile(r"^window\.SEARCH_PARTS_BY_LANG\[[^\]]*\]\[\d+\] = ", re.M)  # a shard's documents
SHOWN_ATTRIBUTES = ("alt", "title", "aria-label", "placeholder", "content", "label")
# A file can show "None" only if its bytes hold the word or a numeric reference to one of its
# letters (N, o, n, e; no named reference stands for a letter): the others are not parsed.
MAY_SHOW = re.compile(rb"None|&#(?i:x0*(?:4e|6f|6e|65)|0*(?:78|111|110|101));")


def _html_texts(path: Path) -> list[str]:
    doc = lxml.html.fromstring(path.read_bytes())
    for hidden in doc.xpath("//script|//style|//template"):
        hidden.drop_tree()
    return [doc.text_content()] + [
        value
        for element in doc.iter()
        if isinstance(element.tag, str)
        for name, value in element.attrib.items()
        if name in SHOWN_ATTRIBUTES
    ]


def _index_texts(path: Path) -> list[str]:
    """The strings of a shard of a search index (`window.SEARCH_PARTS_BY_LANG[lang][k] = [...];`)."""
    text = path.read_text("utf-8")
    start = INDEX.search(text)
    if start is None:  # search.js, search-fold.js: code; an entry script: the shards' list, rows
        return []
    docs, _ = json.JSONDecoder().raw_decode(text[start.end() :])
    return [value for doc in docs for value in doc.values() if isinstance(value, str)]


def _texts(path: Path) -> list[str]:
    if path.suffix == ".html":
        return _html_texts(path)
    if path.name.startswith("search-") and path.suffix == ".js":
        return _index_texts(path)
    if path.suffix == ".xml":
        return list(lxml.etree.fromstring(path.read_bytes()).itertext())
    if path.suffix == ".csv":
        return [cell for row in csv.reader(io.StringIO(path.read_text("utf-8-sig"))) for cell in row]
    return []


def python_nones(out: Path) -> list[str]:
    """`file: ...text...` for each None a reader would see in the site at `out`."""
    found = []
    for path in sorted(out.rglob("*")):
        if not path.is_file() or not MAY_SHOW.search(path.read_bytes()):
            continue
        for text in _texts(path):
            for match in NONE.finditer(text):
                around = text[max(0, match.start() - 50) : match.end() + 30].replace("\n", " ")
                found.append(f"{path.relative_to(out)}: ...{around}...")
    return found


def test_the_scan_finds_a_python_none(tmp_path):
    """The scan itself: it sees a None in a page, an attribute and the search index, and lets
    English prose be."""
    (tmp_path / "en").mkdir()
    (tmp_path / "assets").mkdir()
    (tmp_path / "en" / "a.html").write_text(
        '<html><body><p>None of them can be checked.</p><p>Acme · <img alt="None" src="x.png">'
        '</p><dd>None · v1.0 · Closed</dd><script>var x = "None";</script></body></html>'
    )
    (tmp_path / "en" / "b.html").write_text("<html><body><p>&#78;&#x6F;ne</p></body></html>")
    (tmp_path / "assets" / "search-en-0.js").write_text(
        'window.SEARCH_PARTS_BY_LANG["en"][0] = [{"title": "None \\u00b7 v1.0", "url": "x"}];\n'
    )
    assert [line.split(":")[0] for line in python_nones(tmp_path)] == [
        "assets/search-en-0.js",
        "en/a.html",
        "en/a.html",
        "en/b.html",
    ]


def test_the_starter_site_shows_no_python_none(tmp_path, monkeypatch, warm_cache):
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    assert build.main(["-q", "init", str(tmp_path / "site")]) == 0
    out = tmp_path / "out"
    assert (
        build.main(
            [
                "-q",
                "--content",
                str(tmp_path / "site" / "content"),
                "--templates",
                str(TEMPLATES),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert (out / "en" / "claims" / "index.html").is_file()  # the page that showed it
    assert python_nones(out) == []


def test_the_shipped_site_shows_no_python_none(shipped_site):
    assert python_nones(shipped_site) == []
