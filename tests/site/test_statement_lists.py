"""Statements that ask one question of several results are one sentence with a list (issue 49):
[[equal_scale:A,B/WHO]], and [[equal_scale:…]] references one after another joined only by
punctuation, say "the record has no Zenith result … in BERT-Large v1.0 or v1.1" once; and no
page of a built project, in English, Simplified or Traditional Chinese, repeats a statement's
frame or a parenthesis within a paragraph (tests/repeats.py, the scan also run over the shipped
site).

Expected sentences are written here from the rule and the sample record (record_sample.py):
Acme has BERT-Large results at 16 accelerators in v1.0 and v1.1 and ResNet-50 v1.5 in v1.0;
Zenith only 8 accelerators in v1.0 and 16 in v1.1 (7.6 min); BigCo only 1,024 in v1.0."""

from __future__ import annotations

import re

import pytest

from sitegen.assemble.pipeline import build
from sitegen.content.load import load_site

from project import CACHE, TEMPLATES, THREE
from record_sample import V10, V11, V11_LEVEL, _result, write_record_project
from repeats import frames, repeats_in, scan_site

RESNET_16 = _result(
    "v1.0-acme-acme16-resnet", "v1.0", "Acme", "acme16", "resnet", 40.0, [39.0, 39.5, 40.0, 40.5, 41.0]
)

# BigCo's 2,048-accelerator BERT-Large result has no time (its logs are missing): a statement
# of the fastest names it, once on the page
HUGE = _result(
    "v1.0-bigco-huge-bert",
    "v1.0",
    "BigCo",
    "huge",
    "bert",
    None,
    [],
    count=2048,
    model="Big B9",
    status="logs missing",
)

# Zenith's 4,096 accelerators are the round's fastest; BigCo's fastest is its 1,024: both
# statements leave out BigCo's result without a time
FASTEST = _result(
    "v1.0-zenith-zfast-bert",
    "v1.0",
    "Zenith",
    "zfast",
    "bert",
    0.3,
    [0.29, 0.3, 0.3, 0.3, 0.31],
    count=4096,
    model="Zenith Z1",
)

# v1.1: Acme's 7.4 min leads; Dell (7.5) and Orbit (7.55) at 8 accelerators and Zenith (7.6)
# at 16 are level with it (within 7.4 × 1.05): the round's page names the 8 once
LEVEL_8 = _result(
    "v1.1-dell-d8-bert", "v1.1", "Dell", "d8", "bert", 7.5, [7.4, 7.45, 7.5, 7.55, 7.6], count=8
) + _result("v1.1-orbit-o8-bert", "v1.1", "Orbit", "o8", "bert", 7.55, [7.5, 7.5, 7.55, 7.6, 7.6], count=8)

BODY = """\
---
title: {title}
date: 2021-07-01
summary: {summary}
sources: [s-official]
systems: [acme-16]
benchmarks: [bert]
---
## {title}

P1 [[equal_scale:v1.0-acme-acme16-bert/Zenith]]; [[equal_scale:v1.0-acme-acme16-resnet/Zenith]].

P2 [[equal_scale:v1.0-acme-acme16-bert/Zenith]]; [[equal_scale:v1.1-acme-acme16-bert/Zenith]].

P3 [[equal_scale:v1.0-acme-acme16-bert,v1.1-acme-acme16-bert/BigCo]].

P4 [[equal_scale:v1.0-acme-acme16-bert/all]] (v1.0); [[equal_scale:v1.1-acme-acme16-bert/all]] (v1.1).

P5 [[equal_scale:v1.0-acme-acme16-bert/BigCo]] {sep} [[equal_scale:v1.1-acme-acme16-bert/BigCo]].

P6 [[fastest:v1.0/bert/closed]]; [[fastest:v1.0/bert/closed/BigCo]].

P12 [[fastest:v1.0/resnet/closed]]; [[fastest:v1.0/bert/closed]].

P8 [[equal_scale:v1.0-acme-acme16-bert,v1.0-zenith-zenith8-bert/BigCo]].

P9 [[rounds:Acme/bert,resnet]].

P10 [[rounds:Zenith/bert,resnet]].

P11 [[rounds:BigCo/bert,resnet]].
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lists")
    content = write_record_project(
        folder,
        {
            "site.yaml": THREE,
            "data/record/results-v1.0.yaml": V10 + RESNET_16 + HUGE + FASTEST,
            "data/record/results-v1.1.yaml": V11 + V11_LEVEL + LEVEL_8,
            "reports/lists.en.md": BODY.format(title="Lists", summary="Lists.", sep="and"),
            "reports/lists.zh.md": chinese(BODY.format(title="列表", summary="列表。", sep="和")),
        },
    )
    build(content, TEMPLATES, folder / "out", cache=CACHE)
    return content, folder / "out"


def chinese(text: str) -> str:
    """The body with Chinese punctuation, as the zh reports write it."""
    for latin, full in (
        ("]]; [[", "]]；[["),
        ("]].", "]]。"),
        (" (v1.", "（v1."),
        ("0) (", "0）（"),
        ("1).", "1）。"),
        ("0);", "0）；"),
    ):
        text = text.replace(latin, full)
    return text


def text_of(out, lang: str, marker: str) -> str:
    """The words of the report's paragraph that starts with `marker`, without markup."""
    html = (out / lang / "reports" / "lists.html").read_text("utf-8")
    found = re.search(rf"<p>{marker} (.*?)</p>", html, re.S)
    assert found, marker
    return re.sub(r"<[^>]+>", "", found.group(1))


EXPECTED = {
    "en": {
        "P1": "the record has no Zenith result with 16 accelerators in BERT-Large or ResNet-50 v1.5 v1.0, "
        "closed division.",
        "P3": "the record has no BigCo result with 16 accelerators in BERT-Large v1.0 or v1.1, closed division.",
        "P5": "the record has no BigCo result with 16 accelerators in BERT-Large v1.0 or v1.1, closed division.",
        "P8": "the record has no BigCo result with 16 accelerators in BERT-Large v1.0, closed division, or with "
        "8 accelerators in BERT-Large v1.0, closed division.",
    },
    "zh": {
        "P1": "官方记录中没有Zenith在v1.0的BERT-Large或ResNet-50 v1.5封闭组中使用16个加速器的成绩。",
        "P3": "官方记录中没有BigCo在v1.0或v1.1的BERT-Large封闭组中使用16个加速器的成绩。",
        "P5": "官方记录中没有BigCo在v1.0或v1.1的BERT-Large封闭组中使用16个加速器的成绩。",
        "P8": "官方记录中没有BigCo在v1.0的BERT-Large封闭组中使用16个加速器的成绩，也没有在v1.0的BERT-Large封闭组中使用8个加速器的成绩。",
    },
    "zh-hant": {
        "P1": "官方記錄中沒有Zenith在v1.0的BERT-Large或ResNet-50 v1.5封閉組中使用16個加速器的成績。",
        "P3": "官方記錄中沒有BigCo在v1.0或v1.1的BERT-Large封閉組中使用16個加速器的成績。",
        "P5": "官方記錄中沒有BigCo在v1.0或v1.1的BERT-Large封閉組中使用16個加速器的成績。",
        "P8": "官方記錄中沒有BigCo在v1.0的BERT-Large封閉組中使用16個加速器的成績，也沒有在v1.0的BERT-Large封閉組中使用8個加速器的成績。",
    },
}


@pytest.mark.parametrize("lang", ["en", "zh", "zh-hant"])
@pytest.mark.parametrize("marker", ["P1", "P3", "P5", "P8"])
def test_statements_with_no_result_are_one_sentence_listing_the_slots(built, lang, marker):
    assert text_of(built[1], lang, marker) == EXPECTED[lang][marker]


@pytest.mark.parametrize(
    "lang, slot, none",
    [
        (
            "en",
            " in BERT-Large v1.1, closed division; ",
            "the record has no Zenith result with 16 accelerators in BERT-Large v1.0, closed division.",
        ),
        (
            "zh",
            "v1.1的BERT-Large封闭组为",
            "；官方记录中没有Zenith在v1.0的BERT-Large封闭组中使用16个加速器的成绩。",
        ),
    ],
)
def test_found_and_none_in_one_statement(built, lang, slot, none):
    text = text_of(built[1], lang, "P2")
    assert text.count("7.6") == 1  # Zenith's v1.1 time, once
    assert slot in text and text.endswith(none), text


@pytest.mark.parametrize(
    "lang, frame, none",
    [
        (
            "en",
            "the fastest result of each other submitter with 16 accelerators in BERT-Large v1.1, closed division: ",
            "; the record has no result of a submitter other than Acme with 16 accelerators in BERT-Large "
            "v1.0, closed division.",
        ),
        (
            "zh",
            "v1.1的BERT-Large封闭组中其他各提交者使用16个加速器的最快成绩：",
            "；官方记录中没有Acme以外的提交者在v1.0的BERT-Large封闭组中使用16个加速器的成绩。",
        ),
    ],
)
def test_every_other_submitter_across_rounds_is_one_statement(built, lang, frame, none):
    text = text_of(built[1], lang, "P4")
    assert text.startswith(frame) and text.endswith(none), text
    assert "(v1.0)" not in text and "(v1.1)" not in text  # the rounds are in the statement


@pytest.mark.parametrize(
    "lang, note, again",
    [
        (
            "en",
            " (among the scored results; the logs of BigCo with 2,048 × Big B9 were not in the copy of the "
            "official repository this site imported: see each result's official folder)",
            " (among the scored results, as above)",
        ),
        (
            "zh",
            "（仅计有成绩者；本站导入的官方仓库副本中没有BigCo的2,048颗Big B9的日志，请查看各成绩的官方文件夹）",
            "（仅计有成绩者，同上）",
        ),
    ],
)
def test_the_results_without_a_time_are_named_once(built, lang, note, again):
    text = text_of(built[1], lang, "P6")
    assert text.count(note) == 1 and text.count(again) == 1, text
    assert text.index(note) < text.index(again)


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "en",
            {
                "P9": "the record holds Acme results on BERT-Large in v1.0, v1.1; on ResNet-50 v1.5 in v1.0.",
                "P10": "the record holds Zenith results on BERT-Large in v1.0, v1.1; none on ResNet-50 v1.5.",
                "P11": "the record holds BigCo results on BERT-Large and ResNet-50 v1.5 in v1.0.",
            },
        ),
        (
            "zh",
            {
                "P9": "官方记录中Acme各基准测试有成绩的轮次：BERT-Large为v1.0、v1.1；ResNet-50 v1.5为v1.0。",
                "P10": "官方记录中Zenith各基准测试有成绩的轮次：BERT-Large为v1.0、v1.1；ResNet-50 v1.5没有。",
                "P11": "官方记录中BigCo各基准测试有成绩的轮次：BERT-Large和ResNet-50 v1.5为v1.0。",
            },
        ),
    ],
)
def test_rounds_of_several_benchmarks_are_one_sentence(built, lang, said):
    for marker, sentence in said.items():
        assert text_of(built[1], lang, marker) == sentence


@pytest.mark.parametrize(
    "lang, first, later",
    [
        (
            "en",
            " (among the scored results; the logs of BigCo with 1,024 × Big B9 were not in the copy of the "
            "official repository this site imported: see each result's official folder)",
            " (among the scored results; the logs of BigCo with 2,048 × Big B9 were missing too)",
        ),
        (
            "zh",
            "（仅计有成绩者；本站导入的官方仓库副本中没有BigCo的1,024颗Big B9的日志，请查看各成绩的官方文件夹）",
            "（仅计有成绩者；BigCo的2,048颗Big B9的日志也不在该副本中）",
        ),
    ],
)
def test_a_later_statement_names_only_the_results_not_named_above(built, lang, first, later):
    text = text_of(built[1], lang, "P12")
    assert text.count(first) == 1 and text.count(later) == 1, text
    assert text.index(first) < text.index(later)


@pytest.mark.parametrize(
    "lang, mark",
    [
        (
            "en",
            "(level, within the ±5% run-to-run variation MLCommons states, with these results: at 8 accelerators, "
            "Dell · D8 system, Orbit · O8 system; at 16 accelerators, Zenith · ZENITH16 system)",
        ),
        (
            "zh",
            "（在±5%的波动范围内与以下成绩持平：8个加速器：Dell · D8 system、Orbit · O8 system；16个加速器：Zenith · ZENITH16 system）",
        ),
    ],
)
def test_level_results_sharing_a_scale_say_it_once(built, lang, mark):
    html = (built[1] / lang / "rounds" / "v1.1.html").read_text("utf-8")
    assert mark in re.sub(r"<[^>]+>", "", html)


def test_no_page_repeats_a_statement_or_a_parenthesis(built):
    content, out = built
    site = load_site(content)
    strings = {lang: dict(site.strings[lang]) for lang in ("en", "zh", "zh-hant")}
    assert scan_site(out, strings) == {}


def test_the_scan_finds_a_repeated_frame_and_parenthesis():
    """A paragraph as the site wrote it before: two 'no result' sentences and one aside twice."""
    patterns = frames(
        {
            "ref.no_equal_scale": "the record has no {submitter} result with {count} accelerators in {slot}",
            "ref.rounds_none": "the record holds no {submitter} result",
        }
    )
    text = (
        "On BERT: the record has no Zenith result with 16 accelerators in BERT v1.0, closed division "
        "(among the scored results only); on ResNet: the record has no Zenith result with 16 "
        "accelerators in ResNet v1.0, closed division (among the scored results only)."
    )
    assert repeats_in(text, patterns) == [
        "frame ref.no_equal_scale",
        "parenthesis among the scored results only",
    ]
    merged = "the record has no Zenith result with 16 accelerators in BERT or ResNet v1.0, closed division."
    assert repeats_in(merged, patterns) == []
