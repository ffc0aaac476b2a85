"""Issue 45's rules over the whole shipped site (site_walk.py): every page of every language
parsed once, what it should say worked out from the record files (walk_record.py). Then each
rule on small pages made here, so that a wrong page is known to fail."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from . import walk_checks as checks
from . import walk_record
from .site_walk import LANGS, Walk, walk
from .walk_record import Record

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def walked(shipped_site, shipped_record) -> Walk:
    record = walk_record.load(ROOT / "content", shipped_record)
    return walk(shipped_site, record, walk_record.expected_counts(ROOT / "content", record))


def test_the_walk_reads_every_page_of_every_language(walked, shipped_site):
    pages = sum(
        len(list((shipped_site / d / lang).rglob("*.html"))) for lang in LANGS for d in ("", "single")
    )
    assert walked.pages == pages > 10000
    assert walked.derived > 3 * 2258  # every result page shows its accelerator-minutes
    # headline slots: each language's home (7 benchmarks of v5.1 and the series table), every
    # benchmark's round rows and every round's benchmarks
    assert walked.headlines > 3 * 250
    assert walked.rankings > 0 and walked.comparisons > 0
    rounds = {name for kind, lang, name in walked.counts if kind == "round" and lang == "zh-hant"}
    assert len(rounds) == len(list((ROOT / "content/data/record").glob("results-*.yaml"))) + 1  # and "all"


RULES = {
    "a": "a derived figure without its label and link",
    "b": "a ranking or a fastest that hides a category",
    "c": "a headline that hides a result without a score",
    "d": "a comparison across versions MLCommons keeps apart",
    "e": "two counts of one set that differ",
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_the_shipped_site_has_no(walked, rule):
    assert walked.violations[rule] == [], RULES[rule]


# --- each rule on pages made here -------------------------------------------------------------


def result(ident: str, round_id: str, benchmark: str, value, category="available", count=8, **more) -> dict:
    return {
        "id": ident,
        "round": round_id,
        "benchmark": benchmark,
        "division": "closed",
        "category": category,
        "status": "scored" if value is not None else "logs missing",
        "value": value,
        "runs": [value, value] if value is not None else [],
        "runs_required": 2,
        "accelerator_count": count,
        "accelerator_model": "Acme A1",
        "path": f"Acme/results/{ident}",
        "system_name": ident,
        **more,
    }


def record(*rows: dict) -> Record:
    """A record of rows; RNN-T's v1.0 a version of its own, as MLCommons' table has it."""
    slots: dict = {}
    for r in rows:
        slots.setdefault((r["round"], r["benchmark"], r["division"]), []).append(r)
    versions = {(r["benchmark"], r["round"]): ("RNN-T", 0 if r["round"] == "v1.0" else 1) for r in rows}
    return Record({r["id"]: r for r in rows}, frozenset(), versions, slots)


def main_of(html: str):
    return etree.fromstring(f"<html><body><main>{html}</main></body></html>", etree.HTMLParser()).find(
        ".//main"
    )


LABEL = (
    '<p>Derived by this site, not an MLPerf® score. <a href="../methodology.html#derived-figures">How</a></p>'
)


@pytest.mark.parametrize(
    "html, fails",
    [
        ('<section aria-labelledby="s"><p class="derived">1.56×</p></section>', True),
        (f'<section aria-labelledby="s"><p class="derived">1.56×</p>{LABEL}</section>', False),
        # unmarked: a speed-up in a cell, a named figure
        ('<section aria-labelledby="s"><table><tr><td>1.34× (v1.0 → v3.0)</td></tr></table></section>', True),
        ("<p>Accelerator-minutes: <strong>552</strong></p>", True),
        (f"<p>Accelerator-minutes: <strong>552</strong></p>{LABEL}", False),
        # the label of another section does not cover this one
        (
            f'<section aria-labelledby="x">{LABEL}</section><section aria-labelledby="s"><p>Speed-up: 2.0×</p></section>',
            True,
        ),
        # the label without its link
        (
            '<section aria-labelledby="s"><p>2.0×</p><p>derived by this site, not an MLPerf® score</p></section>',
            True,
        ),
        # a vendor's figure quoted with its verdict is not the site's
        (
            '<ul><li>Graphcore said <a>1.6×</a> better. <a class="verdict verdict-partly">partly</a></li></ul>',
            False,
        ),
        ("<p>Rounds v1.0 and v2.0 of the price-performance report</p>", False),  # no figure
    ],
)
def test_a_derived_figure_needs_its_label_and_link(html, fails):
    found = Walk()
    checks.derived_labels(found, "en/x.html", "en", main_of(html))
    assert bool(found.violations["a"]) is fails, found.violations["a"]


def test_a_derived_figure_in_chinese_needs_the_chinese_label():
    found = Walk()
    english = (
        LABEL.replace("<p>", '<section aria-labelledby="s"><p class="derived">1.5×</p><p>', 1) + "</section>"
    )
    checks.derived_labels(found, "zh/x.html", "zh", main_of(english))
    assert found.violations["a"]
    found = Walk()
    chinese = '<section aria-labelledby="s"><p class="derived">1.5×</p><p>此数由本站推算，并非MLPerf®成绩。<a href="../methodology.html#derived-figures">计算方法</a></p></section>'
    checks.derived_labels(found, "zh/x.html", "zh", main_of(chinese))
    assert not found.violations["a"]


RANKED = record(
    result("v5.1-a", "v5.1", "rnnt", 1.0, "preview"),
    result("v5.1-b", "v5.1", "rnnt", 2.0),
    result("v5.1-c", "v5.1", "rnnt", None, count=64),
)


def rows(mark: str) -> str:
    return (
        '<table><tbody><tr><td class="answer" data-value="1.0"><a href="results/v5.1-a.html">1.00</a>'
        f'{mark}</td></tr><tr><td class="answer" data-value="2.0"><a href="results/v5.1-b.html">2.00</a></td></tr></tbody></table>'
    )


def test_a_ranking_of_two_categories_names_the_one_not_available():
    found = Walk()
    checks.rankings(found, RANKED, "en/x.html", "en", main_of(rows("")))
    assert found.violations["b"] == ["en/x.html: preview result v5.1-a ranked unnamed"]
    found = Walk()
    checks.rankings(
        found, RANKED, "en/x.html", "en", main_of(rows('<span class="category-mark">(Preview)</span>'))
    )
    assert found.violations["b"] == []


def suite(shown: str, notes: str) -> str:
    return f'<ol><li class="suite-item" data-benchmark="rnnt"><a class="time" href="results/{shown}.html">2.00</a>{notes}</li></ol>'


PREVIEW = (
    '<span class="note headline-note">Faster, Preview category: <a href="results/v5.1-a.html">1.00</a></span>'
)
UNSCORED = (
    '<span class="note headline-note">1 more without a score, up to 64 accelerators (logs missing).</span>'
)


@pytest.mark.parametrize(
    "shown, notes, rule",
    [
        ("v5.1-b", PREVIEW + UNSCORED, None),
        ("v5.1-a", PREVIEW + UNSCORED, "b"),  # the Preview result shown as the fastest
        ("v5.1-b", UNSCORED, "b"),  # the faster Preview result not named
        ("v5.1-b", PREVIEW, "c"),  # the result without a score not said
        ("v5.1-b", PREVIEW + UNSCORED.replace("64", "8"), "c"),  # said at the wrong scale
    ],
)
def test_a_headline_shows_the_available_fastest_and_names_the_rest(shown, notes, rule):
    found = Walk()
    checks.home(found, RANKED, "en/index.html", "en", main_of(suite(shown, notes)))
    assert {k for k, v in found.violations.items() if v} == ({rule} if rule else set()), found.violations


def test_a_comparison_joins_rounds_of_one_version_only():
    rnnt = record(
        result("v1.0-a", "v1.0", "rnnt", 4.0),
        result("v1.1-a", "v1.1", "rnnt", 2.0),
        result("v2.0-a", "v2.0", "rnnt", 1.0),
    )
    found = Walk()
    row = '<table><tr><td>{} (v{} → v2.0)</td><td><a href="results/{}.html">x</a> <a href="results/v2.0-a.html">y</a></td></tr></table>'
    checks.comparisons(found, rnnt, "en/x.html", main_of(row.format("4.0×", "1.0", "v1.0-a")))
    assert found.violations["d"] == ["en/x.html: RNN-T compared across versions (v1.0, v2.0)"]
    found = Walk()
    checks.comparisons(found, rnnt, "en/x.html", main_of(row.format("2.0×", "1.1", "v1.1-a")))
    assert found.violations["d"] == []


def test_two_counts_of_one_set_must_agree():
    found = Walk()
    found.counts["round", "en", "v1.0"].update({"en/rounds/index.html": 148, "en/downloads.html": 149})
    found.counts["family", "en", "acme-a1"].update({"en/accelerators/acme-a1.html": 3})
    checks.compare_counts(found, {("round", "v1.0"): 148, ("family", "acme-a1"): 3})
    assert found.violations["e"] == [
        "round v1.0 (en): {'en/rounds/index.html': 148, 'en/downloads.html': 149, 'the record (a copy once)': 148}"
    ]


def test_the_record_counts_a_copy_once_and_scores_no_short_result():
    # two results of one round with the same runs: the one nearer the top of the repository
    # is the original; a third with fewer logs than required has no score
    rows = [
        result("v1.0-x", "v1.0", "rnnt", 3.0, path="Acme/results/x/rnnt"),
        result("v1.0-copy", "v1.0", "rnnt", 3.0, path="Acme/results/x/more/rnnt"),
        result("v1.0-short", "v1.0", "rnnt", 2.0, runs_required=5),
    ]
    content = ROOT / "content"
    got = walk_record.load(content, rows)
    assert got.copies == {"v1.0-copy"}
    assert walk_record.expected_counts(content, got)["round", "v1.0"] == 2
    slot = walk_record.slot(got, "v1.0", "rnnt")
    assert (slot.best["id"], slot.unscored, slot.unscored_largest) == ("v1.0-x", 1, 8)
