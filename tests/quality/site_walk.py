"""One walk over every page of a built site, each page parsed once (lxml), checking the rules
of issue 45 in one pass; what the pages should say comes from the record (walk_record.py).

  a. a derived figure (marked: class "derived…", a scaling section; or found by its words: an
     accelerator-minutes, an efficiency, a speed-up, a change in per cent, a price-performance)
     sits in a section (else the page) that says "derived by this site, not an MLPerf® score" in
     the page's language and links the methodology's section on derived figures;
  b. a ranking (a table ordered by time) holding results of two categories names the category
     of each result that is not Available (its category mark, or a category column);
  c. a headline slot (home, a benchmark's fastest of each round, a round's fastest) shows the
     slot's fastest Available result, names a faster result of another category, and says how
     many results have no score and the largest scale among them;
  d. a comparison (a row with a derived figure, or a series on the home page) joins rounds of
     one benchmark only within one version of MLCommons' compatibility table;
  e. counts of one set agree: rounds index, round pages and downloads with the record; a chip
     family with the sum of its variants and the accelerators index; a submitter's page with
     the submitters index."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from . import walk_checks as checks
from .walk_record import Record

LANGS = ("en", "zh", "zh-hant")


@dataclass
class Walk:
    """What the walk found: violations by rule ("a".."e"), counts seen, pages read."""

    violations: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    counts: dict[tuple, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    pages: int = 0
    derived: int = 0  # pages with a derived figure
    rankings: int = 0  # ranking tables holding two categories
    headlines: int = 0  # headline slots checked
    comparisons: int = 0  # rows comparing two rounds


def page_lang(rel: str) -> str | None:
    first = rel.split("/", 2)[1] if rel.startswith("single/") else rel.split("/", 1)[0]
    return first if first in LANGS else None


def walk(site: Path, record: Record, expected_counts: dict[tuple[str, str], int]) -> Walk:
    """Every page of every language under site/ (single-file copies included), once;
    expected_counts: walk_record.expected_counts."""
    found, parser = Walk(), etree.HTMLParser(encoding="utf-8")
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        lang = page_lang(rel)
        if lang is None:
            continue
        root = etree.fromstring(page.read_bytes(), parser)
        main = root.find(".//main")
        if main is None:
            continue
        found.pages += 1
        check_page(found, record, rel, lang, main)
    checks.compare_counts(found, expected_counts)
    return found


def check_page(found: Walk, record: Record, rel: str, lang: str, main) -> None:
    """Every rule on one parsed page."""
    for drawn in list(main.iter("script", "style", "svg")):  # no text a reader reads as prose
        drop(drawn)
    checks.derived_labels(found, rel, lang, main)
    checks.rankings(found, record, rel, lang, main)
    checks.comparisons(found, record, rel, main)
    kind = page_kind(rel, lang)
    if kind == "home":
        checks.home(found, record, rel, lang, main)
    elif kind == "benchmark":
        checks.benchmark_summary(found, record, rel, lang, main)
    elif kind == "round":
        checks.round_page(found, record, rel, lang, main)
    checks.collect_counts(found, kind, rel, lang, main)


def drop(el) -> None:
    """el out of its tree, the text after it kept."""
    parent, before = el.getparent(), el.getprevious()
    if el.tail:
        if before is not None:
            before.tail = (before.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


PAGE_KINDS = (
    ("home", r"index"),
    ("benchmark", r"benchmarks/(?!index)[^/]+"),
    ("round", r"rounds/v[\d.]+"),
    ("leaderboard", r"benchmarks/[^/]+/v[\d.]+"),
    ("rounds", r"rounds/index"),
    ("downloads", r"downloads"),
    ("family", r"accelerators/(?!index)[^/]+"),
    ("families", r"accelerators/index"),
    ("submitter", r"submitters/(?!index)[^/]+"),
    ("submitters", r"submitters/index"),
)


def page_kind(rel: str, lang: str) -> str | None:
    if rel.startswith("single/"):
        return None
    tail = rel[len(lang) + 1 : -len(".html")]
    return next((kind for kind, pattern in PAGE_KINDS if re.fullmatch(pattern, tail)), None)
