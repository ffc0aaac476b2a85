"""A source is named on every page by one rule (content/model.py source_title): its `label` in
the page's language where data/sources.yaml gives one (the site's own words, such as "EE Times
on the IPU-M2000's price", which are not a title to keep in English on a Chinese page), else its
title as written, marked as its language."""

from __future__ import annotations

import html
import re

from sitegen.assemble.pipeline import build

from project import OFFICIAL, REPORT_EN, REPORT_ZH, SOURCES, TEMPLATES, write_project

LABELS = {"en": "The official result logs", "zh": "官方成绩日志"}
CHART = "\n```chart\nbenchmark: bert\nround: v1.0\nsystems: [acme-16, zenith-8]\n```\n"


def _labelled(sources: str, ident: str) -> str:
    """`sources` with a label in each language on the source `ident`."""
    head = f"- id: {ident}\n"
    assert head in sources
    label = f"  label: {{en: {LABELS['en']}, zh: {LABELS['zh']}}}\n"
    return sources.replace(head, head + label)


def test_a_labelled_source_is_named_in_the_pages_language_everywhere(tmp_path):
    sources = _labelled(_labelled(SOURCES, "s-official") + OFFICIAL, "mlperf-training-v1.0")
    changes = {
        "data/sources.yaml": sources,
        "reports/acme-vs-zenith.en.md": REPORT_EN + CHART,
        "reports/acme-vs-zenith.zh.md": REPORT_ZH + CHART,
    }
    out = tmp_path / "out"
    build(write_project(tmp_path / "p", changes), TEMPLATES, out, cache=tmp_path / "cache")
    for lang, label in LABELS.items():
        report = (out / lang / "reports" / "acme-vs-zenith.html").read_text("utf-8")
        # the report's list of sources: the label, in the page's language; the unlabelled
        # article keeps its title, marked as English
        assert f"<cite>{label}</cite>" in report
        assert '<cite lang="en">A test article</cite>' in report
        assert "Official results" not in report
        # the inline citation's tooltip
        assert f'#source-s-official" title="{label}">' in report
        # the chart's source line and the rows its tooltips and table read
        anchor = '<a href="../sources/index.html#source-mlperf-training-v1.0">'
        assert f"{anchor}{label}</a>" in report
        rows = re.findall(r'"source":"([^"]*)"', html.unescape(report))
        assert rows and set(rows) == {label}
        page = (out / lang / "sources" / "index.html").read_text("utf-8")
        assert f'<h2 id="source-s-official-h"><cite>{label}</cite></h2>' in page
        assert '<h2 id="source-s-article-h"><cite lang="en">A test article</cite></h2>' in page
        copy = (out / "single" / lang / "acme-vs-zenith.html").read_text("utf-8")
        assert f"<cite>{label}</cite>" in copy and "Official results" not in copy
