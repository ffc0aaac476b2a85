"""Traditional Chinese prose is written, not converted (issue 49): a report's or page's own
zh-hant file records the Simplified text it was written from (`written_from`); a changed
Simplified text flags it at that line, naming the Simplified file; a report, page or glossary
definition without zh-hant text of its own is published converted with a warning, and
--strict fails on each."""

from __future__ import annotations

import hashlib

import pytest

from sitegen.assemble.pipeline import build
from sitegen.base.errors import ContentError
from sitegen.cli import main
from sitegen.content.load import load_site

from project import CACHE, COLUMN_TERMS, GLOSSARY, METHOD_ZH, REPORT_ZH, TEMPLATES, THREE, write_project


def _digest(title, summary, body):
    """The digest as docs/content-format.md defines it: SHA-256 of title, summary, findings,
    tags and body joined by a line break and a NUL, first 8 hex digits."""
    return hashlib.sha256("\n\x00".join([title, summary, body]).encode("utf-8")).hexdigest()[:8]


ZH_BODY = REPORT_ZH.split("---\n", 2)[2]
ZH_DIGEST = _digest("Acme 对比 Zenith", "Acme 更慢，但更便宜。", ZH_BODY)
PAGE_DIGEST = _digest("方法说明", "数字从何而来。", METHOD_ZH.split("---\n", 2)[2])
HANT = """\
---
title: Acme 與 Zenith 比較
date: 2021-07-01
summary: Acme 較慢，但較便宜。
sources: [s-article, s-official]
systems: [acme-16, zenith-8]
benchmarks: [bert]
claims: [c-ppr]
written_from: "{digest}"
---
## 主要發現

Acme 訓練 BERT 需時 [[result:r-acme]]，Zenith 需時 [[result:r-zenith]][[source:s-official]]。
"""
PAGE_HANT = (
    '---\ntitle: 方法說明\nsummary: 數字從何而來。\nwritten_from: "{digest}"\n---\n## 訓練時間\n\n正文。\n'
    "\n## 派生數據 {{#derived-figures}}\n\n正文。\n"
)
# the glossary's one definition, with a text written for Taiwan readers
GLOSSARY_HANT = GLOSSARY.replace(
    "zh: 达到目标所需的分钟数。}", "zh: 达到目标所需的分钟数。, zh-hant: 達到目標所需的分鐘數。}"
)
WRITTEN = {
    "site.yaml": THREE,
    "reports/acme-vs-zenith.zh-hant.md": HANT.format(digest=ZH_DIGEST),
    "pages/methodology.zh-hant.md": PAGE_HANT.format(digest=PAGE_DIGEST),
    "data/glossary.yaml": GLOSSARY_HANT,
    "data/terms.csv": COLUMN_TERMS,
}


def _said(tmp_path, changes, strict=False):
    """What loading the three-language project with `changes` warns of (its own messages)."""
    site = load_site(write_project(tmp_path, {**WRITTEN, **changes}), strict=strict)
    return [str(p) for p in site.warnings if "zh-hant" in p.message or "written_from" in p.message]


def test_written_text_with_the_current_digest_is_published_without_a_warning(tmp_path):
    content = write_project(tmp_path, WRITTEN)
    site = load_site(content, strict=True)
    report = next(r for r in site.reports if r.lang == "zh-hant")
    assert (report.converted, report.meta["title"]) == (False, "Acme 與 Zenith 比較")
    build(content, TEMPLATES, tmp_path / "out", strict=True, cache=CACHE)
    page = (tmp_path / "out/zh-hant/reports/acme-vs-zenith.html").read_text("utf-8")
    assert "需時" in page and "converted-note" not in page


def test_a_changed_simplified_text_flags_the_written_file_at_its_line(tmp_path):
    edited = REPORT_ZH.replace("Zenith 用时", "Zenith 则用时")
    now = _digest("Acme 对比 Zenith", "Acme 更慢，但更便宜。", edited.split("---\n", 2)[2])
    assert now != ZH_DIGEST
    assert _said(tmp_path, {"reports/acme-vs-zenith.zh.md": edited}) == [
        "content/reports/acme-vs-zenith.zh-hant.md:9: warning: content/reports/acme-vs-zenith.zh.md "
        f'changed since this text was written from it (now {now}): revise this text, then write '
        f'written_from: "{now}"'
    ]
    with pytest.raises(ContentError) as caught:
        _said(tmp_path / "strict", {"reports/acme-vs-zenith.zh.md": edited}, strict=True)
    assert any("acme-vs-zenith.zh-hant.md:9:" in str(p) for p in caught.value.problems)


def test_a_title_change_alone_flags_it_too(tmp_path):
    edited = REPORT_ZH.replace("title: Acme 对比 Zenith", "title: Acme 与 Zenith")
    assert len(_said(tmp_path, {"reports/acme-vs-zenith.zh.md": edited})) == 1


def test_missing_written_text_is_published_converted_with_a_warning(tmp_path):
    said = _said(
        tmp_path,
        {
            "reports/acme-vs-zenith.zh-hant.md": None,
            "pages/methodology.zh-hant.md": None,
            "data/glossary.yaml": GLOSSARY,
        },
    )
    assert said == [
        "content/data/glossary.yaml:3: warning: glossary 'ttt': the definition has no zh-hant text "
        "of its own and is published converted: write its 'zh-hant:' text",
        "content/reports/acme-vs-zenith.zh.md: warning: report 'acme-vs-zenith' has no zh-hant text "
        "of its own and is published converted: write reports/acme-vs-zenith.zh-hant.md from this "
        f'file, with written_from: "{ZH_DIGEST}"',
        "content/pages/methodology.zh.md: warning: page 'methodology' has no zh-hant text of its own "
        "and is published converted: write pages/methodology.zh-hant.md from this file, with "
        f'written_from: "{PAGE_DIGEST}"',
    ]


def test_strict_fails_on_a_converted_report(tmp_path):
    with pytest.raises(ContentError) as caught:
        _said(tmp_path, {"reports/acme-vs-zenith.zh-hant.md": None}, strict=True)
    assert [p.path for p in caught.value.problems] == ["content/reports/acme-vs-zenith.zh.md"]


def test_a_converted_page_still_says_it_is_converted(tmp_path):
    content = write_project(tmp_path, {**WRITTEN, "reports/acme-vs-zenith.zh-hant.md": None})
    build(content, TEMPLATES, tmp_path / "out", cache=CACHE)
    page = (tmp_path / "out/zh-hant/reports/acme-vs-zenith.html").read_text("utf-8")
    assert "本頁由簡體中文版自動轉換而來" in page


def test_a_written_file_that_records_nothing_warns(tmp_path):
    hant = HANT.format(digest=ZH_DIGEST).replace(f'written_from: "{ZH_DIGEST}"\n', "")
    assert _said(tmp_path, {"reports/acme-vs-zenith.zh-hant.md": hant}) == [
        f'content/reports/acme-vs-zenith.zh-hant.md:2: warning: records no written_from: write written_from: "{ZH_DIGEST}" '
        "once it matches content/reports/acme-vs-zenith.zh.md"
    ]


def test_written_from_in_a_written_language_is_an_error_on_its_line(tmp_path):
    zh = REPORT_ZH.replace("claims: [c-ppr]\n", f'claims: [c-ppr]\nwritten_from: "{ZH_DIGEST}"\n')
    with pytest.raises(ContentError) as caught:
        _said(tmp_path, {"reports/acme-vs-zenith.zh.md": zh})
    assert [str(p) for p in caught.value.problems] == [
        "content/reports/acme-vs-zenith.zh.md:9: 'written_from' belongs in a file of a converted "
        "language (zh-hant): this text is written, not converted"
    ]


def test_a_malformed_digest_is_an_error_on_its_line(tmp_path):
    with pytest.raises(ContentError) as caught:
        _said(tmp_path, {"reports/acme-vs-zenith.zh-hant.md": HANT.format(digest="nothex!!")})
    assert [str(p) for p in caught.value.problems] == [
        "content/reports/acme-vs-zenith.zh-hant.md:9: field 'written_from': expected the digest of "
        "the text this was written from, 8 hex digits in quotes (python build.py status gives it), "
        "e.g. \"3f2a9c1e\"; got 'nothex!!'"
    ]


def test_status_names_each_file_to_write_or_revise(tmp_path, capsys):
    edited = REPORT_ZH.replace("Zenith 用时", "Zenith 则用时")
    now = _digest("Acme 对比 Zenith", "Acme 更慢，但更便宜。", edited.split("---\n", 2)[2])
    content = write_project(
        tmp_path,
        {
            **WRITTEN,
            "reports/acme-vs-zenith.zh.md": edited,
            "pages/methodology.zh-hant.md": None,
            "data/glossary.yaml": GLOSSARY,
        },
    )
    assert main(["--content", str(content), "status"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"reports/acme-vs-zenith.zh-hant.md: 'acme-vs-zenith' (zh-hant) was written from an earlier text "
        f'of its source: revise it, then write written_from: "{now}"',
        "pages/methodology.zh.md: 'methodology' has no zh-hant text of its own and is published "
        f'converted; write its zh-hant file with written_from: "{PAGE_DIGEST}"',
        "content/data/glossary.yaml: 'ttt.definition' has no zh-hant text of its own and is published converted",
        "3 item(s) lack one language",
    ]
