"""Issue 17, the answer first: a report's `findings` box and the home page's headline chart
and recent findings, on the shipped content."""

import re

import pytest

from sitegen.content import field_types

SLUG = "mlperf-v1-0-first-submission"


def _box(html: str) -> str:
    match = re.search(r'<section class="findings-box".*?</section>', html, re.S)
    assert match, "no findings box"
    return match.group(0)


@pytest.mark.parametrize("lang, heading, unit", [("en", "In short", "min"), ("zh", "要点", "分钟")])
def test_report_findings_box_comes_first_with_computed_numbers(shipped_site, lang, heading, unit):
    html = (shipped_site / lang / "reports" / f"{SLUG}.html").read_text()
    box = _box(html)
    assert heading in box
    assert "[[" not in box  # every reference computed
    assert re.search(r'<span class="derived">\d+(\.\d+)?(×|倍)</span>', box)
    assert re.search(rf'<a href="[^"]+#result-[^"]+">[\d.]+ ?{unit}</a>', box)  # linked figures
    assert html.index("findings-box") < html.index('class="body"')
    if 'class="toc"' in html:
        assert html.index("findings-box") < html.index('class="toc"')


def test_every_shipped_report_has_findings(shipped_site):
    for page in (shipped_site / "en" / "reports").glob("*.html"):
        if page.name != "index.html" and "<article" in page.read_text():
            assert "findings-box" in page.read_text(), page.name


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_headline_chart_and_findings_before_the_list(shipped_site, lang):
    home = shipped_site / lang / "index.html"
    html = home.read_text()
    chart = html.index('id="chart-home"')
    findings = html.index("recent-findings")
    latest = html.index('id="latest"')
    assert chart < findings < latest
    assert html.count("<svg") >= 2 and "chart-narrow" in html  # wide and narrow layouts
    assert len(re.findall(r'<li><p>', html[findings:latest])) == 3
    assert "[[" not in html
    assert "vega" not in html.lower() and "chart-spec" not in html  # no interactive library
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', html)
    assets = sum((home.parent / s).stat().st_size for s in scripts)
    css = sum(
        (home.parent / s).stat().st_size for s in re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    )
    assert home.stat().st_size + assets + css < 500_000


def test_findings_field_wants_two_to_four_sentences():
    assert field_types.findings(["a", "b"]) == ["a", "b"]
    for bad in (["only one"], ["a", "b", "c", "d", "e"]):
        with pytest.raises(field_types.Invalid):
            field_types.findings(bad)


def test_fact_check_filters_are_hidden_without_javascript(shipped_site):
    html = (shipped_site / "en" / "claims" / "index.html").read_text()
    form = re.search(r"<form class=\"filters\" hidden data-claim-filter.*?</form>", html, re.S)
    assert form and all(f'data-filter-field="{f}"' in form.group(0) for f in ("source", "vendor", "verdict"))
    assert "claims-filter.js" in html
    claims = re.findall(r'<article class="claim[^>]*>', html)
    assert claims and all(
        "data-f-source=" in c and "data-f-verdict=" in c and 'id="claim-' in c for c in claims
    )
