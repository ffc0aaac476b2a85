"""The size budgets of issue 15 on the shipped site, the whole record (tests/site/test_record_scale.py
checks them on a synthetic record with longer leaderboards): no HTML page over 300 KB, the compare
page's data one script per round of at most 300 KB, the explorer's one per round of at most 300
bytes per result, neither held by its page. Sizes only, never times."""

from __future__ import annotations

from collections import Counter

KB = 1024


def test_no_page_of_the_whole_record_is_over_300_kb(shipped_site):
    sizes = {p.relative_to(shipped_site).as_posix(): p.stat().st_size for p in shipped_site.rglob("*.html")}
    assert len(sizes) > 10_000, "the shipped site is missing pages"
    assert {path: size for path, size in sizes.items() if size > 300 * KB} == {}


def test_the_compare_and_explorer_data_are_a_small_script_per_round(shipped_site, shipped_record):
    results = Counter(r["round"] for r in shipped_record)
    for folder, budget in (("record", lambda n: 300 * KB), ("explore", lambda n: 300 * n)):
        scripts = {p.stem: p.stat().st_size for p in (shipped_site / "assets" / folder).glob("*.js")}
        assert sorted(scripts) == sorted(results), folder
        too_big = {r: size for r, size in scripts.items() if size > budget(results[r])}
        assert too_big == {}, (folder, too_big)
    for page in ("compare", "explore"):
        html = (shipped_site / "en" / f"{page}.html").read_text("utf-8")
        assert "assets/record/" not in html and "assets/explore/" not in html  # loaded on demand
