"""Statements over the whole record ([[fastest]], [[equal_scale]], [[rounds]], the round pages'
summary, the entity pages' fastest table, the progress chart) when some published results have
no time because their logs were not in the copy of the official repository imported: such a statement is made over the scored
results and names the unscored ones, so it stays true of the official record.

Expected values are computed here from the sample's YAML, not copied from the output."""

import re

import pytest
import yaml

from sitegen.assemble.pipeline import build

from project import CACHE, TEMPLATES
from record_sample import V10, V11, _result, write_record_project

# Two published results without logs: BigCo at 2,048 accelerators (larger than any scored bert
# result, so the official fastest may well be it) and Zenith at Acme's 16 accelerators.
EXTRA = "".join(
    [
        _result(
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
        ),
        _result(
            "v1.0-zenith-zenith16-bert",
            "v1.0",
            "Zenith",
            "zenith16",
            "bert",
            None,
            [],
            count=16,
            model="Zenith Z1",
            status="logs missing",
        ),
        # Zenith's fastest is a preview system: a reference to it says so
        _result(
            "v1.0-zenith-proto-bert",
            "v1.0",
            "Zenith",
            "proto",
            "bert",
            10.5,
            [10.4, 10.5, 10.5, 10.5, 10.6],
            count=8,
            model="Zenith Z2",
            category="preview",
        ),
        # a third submitter at Acme's 16 accelerators, slower than Acme: [[equal_scale:.../all]]
        _result(
            "v1.0-dell-d16-bert",
            "v1.0",
            "Dell",
            "d16",
            "bert",
            35.25,
            [35.0, 35.2, 35.25, 35.3, 35.5],
            count=16,
            model="Acme A1",
        ),
    ]
)
# v1.1: BigCo resubmits its v1.0 logs (the rules allow it): the round's fastest says so
RESUBMITTED = (
    _result(
        "v1.1-bigco-giant-bert",
        "v1.1",
        "BigCo",
        "giant",
        "bert",
        0.41249,
        [0.4, 0.41, 0.412, 0.41547, 0.42],
        count=1024,
        model="Big B9",
    )
    + "  resubmission_of: v1.0-bigco-giant-bert\n"
)
RECORD = {r["id"]: r for r in yaml.safe_load(V10 + EXTRA) + yaml.safe_load(V11 + RESUBMITTED)}

REPORT = """\
---
title: {title}
date: 2021-07-01
summary: {summary}
sources: [s-official]
systems: [acme-16, zenith-8]
benchmarks: [bert]
---
## {heading}

A [[fastest:v1.0/bert/closed]].

B [[fastest:v1.0/bert/closed/Acme]].

C [[equal_scale:v1.0-acme-acme16-bert/Zenith]].

D [[equal_scale:v1.0-acme-acme16-bert/BigCo]].

E [[rounds:BigCo/resnet]].

F [[fastest:v1.0/bert/closed/Zenith]].

G [[fastest:v1.1/bert/closed]].

H [[equal_scale:v1.0-acme-acme16-bert/all]].

I [[equal_scale:v1.0-bigco-giant-bert/all]].
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("refs")
    content = write_record_project(
        folder,
        {
            "data/record/results-v1.0.yaml": V10 + EXTRA,
            "data/record/results-v1.1.yaml": V11 + RESUBMITTED,
            "reports/refs.en.md": REPORT.format(title="Refs", summary="References.", heading="Refs"),
            "reports/refs.zh.md": REPORT.format(title="引用", summary="引用。", heading="引用"),
        },
    )
    build(content, TEMPLATES, folder / "out", cache=CACHE)
    return folder / "out"


def paragraph(html: str, marker: str) -> str:
    """The paragraph of the report that starts with `marker`."""
    found = re.search(rf"<p>{marker} (.*?)</p>", html, re.S)
    assert found, marker
    return found.group(1)


def links(html: str) -> set[str]:
    return set(re.findall(r'href="\.\./results/([^"]+)\.html"', html))


def scored(rnd, benchmark, division="closed"):
    return sorted(
        (
            r
            for r in RECORD.values()
            if r["round"] == rnd
            and r["benchmark"] == benchmark
            and r["division"] == division
            and r["value"] is not None
        ),
        key=lambda r: r["value"],
    )


def unscored(rnd, benchmark, division="closed"):
    return {
        r["id"]
        for r in RECORD.values()
        if r["round"] == rnd
        and r["benchmark"] == benchmark
        and r["division"] == division
        and r["value"] is None
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_fastest_is_over_scored_results_and_names_the_unscored(site, lang):
    html = (site / lang / "reports" / "refs.html").read_text("utf-8")
    best = scored("v1.0", "bert")[0]
    text = paragraph(html, "A")
    assert links(text) == {best["id"]} | unscored("v1.0", "bert")
    assert (
        "本站导入的官方仓库副本中没有"
        if lang == "zh"
        else "were not in the copy of the official repository this site imported"
    ) in text
    # one submitter's fastest: Acme has no result without logs, so nothing is added
    acme = paragraph(html, "B")
    assert links(acme) == {next(r for r in scored("v1.0", "bert") if r["submitter"] == "Acme")["id"]}
    assert "副本" not in acme and "copy of the official repository" not in acme


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_equal_scale_result_is_not_said_when_one_lacks_logs(site, lang):
    html = (site / lang / "reports" / "refs.html").read_text("utf-8")
    zenith = paragraph(html, "C")  # Zenith ran 16 accelerators; its logs are missing
    assert links(zenith) == {"v1.0-zenith-zenith16-bert"}
    assert ("没有时间" if lang == "zh" else "has no time here") in zenith
    assert ("官方记录中没有" if lang == "zh" else "the record has no") not in zenith
    bigco = paragraph(html, "D")  # BigCo has nothing at 16, scored or not
    assert links(bigco) == set()
    assert ("官方记录中没有BigCo" if lang == "zh" else "the record has no BigCo result") in bigco


def test_a_round_with_only_unscored_results_still_counts_as_submitted(site):
    html = (site / "en" / "reports" / "refs.html").read_text("utf-8")
    assert [
        r["round"] for r in RECORD.values() if r["submitter"] == "BigCo" and r["benchmark"] == "resnet"
    ] == ["v1.0"]
    assert 'href="../rounds/v1.0.html">v1.0</a>' in paragraph(html, "E")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_page_summarises_changes_and_fastest(site, lang):
    v10 = (site / lang / "rounds" / "v1.0.html").read_text("utf-8")
    section = v10[v10.index('id="round-fastest"') : v10.index('id="round-benchmarks"')]
    best = scored("v1.0", "bert")[0]
    assert f'href="../results/{best["id"]}.html"' in section
    missing = unscored("v1.0", "bert")
    n, largest = len(missing), max(RECORD[i]["accelerator_count"] for i in missing)
    said = (
        f"另有{n}项成绩没有分数，最多{largest:,}个加速器（"
        if lang == "zh"
        else f"{n} more without a score, up to {largest:,} accelerators ("
    )
    assert said in section
    # resnet: its only v1.0 result has no logs, so the row has no time and says why
    resnet = re.search(
        r'benchmarks/resnet/v1\.0\.html">[^<]+</a></th><td[^>]*>([^<]+)</td>.*?</tr>', section, re.S
    )
    assert resnet.group(1) == "–"
    assert ("日志缺失" if lang == "zh" else "logs missing") in resnet.group(0)
    v11 = (site / lang / "rounds" / "v1.1.html").read_text("utf-8")
    changes = v11[v11.index('id="round-changes"') : v11.index('id="round-fastest"')]
    dropped = {r["benchmark"] for r in RECORD.values() if r["round"] == "v1.0"} - {
        r["benchmark"] for r in RECORD.values() if r["round"] == "v1.1"
    }
    assert dropped == {"resnet"}
    assert 'href="../benchmarks/resnet/v1.0.html"' in changes
    assert 'href="../benchmarks/bert/v1.1.html"' not in changes  # nothing new in v1.1
    first = v10[v10.index('id="round-changes"') : v10.index('id="round-fastest"')]
    assert ("第一轮" if lang == "zh" else "The first MLPerf® Training round") in first


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_entity_page_lists_its_unscored_results_beside_its_fastest(site, lang):
    html = (site / lang / "submitters" / "bigco.html").read_text("utf-8")
    fastest = html[html.index('id="fastest"') : html.index('id="by-round"')]
    mine = {r["id"] for r in RECORD.values() if r["submitter"] == "BigCo" and r["value"] is None}
    assert len(mine) == 2
    note = fastest[fastest.index('class="note"') :]
    assert links(note) == mine


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_progress_chart_says_what_it_leaves_out(site, lang):
    html = (site / lang / "benchmarks" / "bert.html").read_text("utf-8")
    n = sum(len(unscored(rnd, "bert")) for rnd in ("v1.0", "v1.1"))
    caption = re.findall(r'class="chart-caption">([^<]*)<', html)
    expected = f"另有{n}项封闭组成绩" if lang == "zh" else f"Not drawn: {n} closed results"
    assert any(expected in c for c in caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_result_outside_the_available_category_says_its_category(site, lang):
    html = (site / lang / "reports" / "refs.html").read_text("utf-8")
    zenith = min(
        (r for r in RECORD.values() if r["submitter"] == "Zenith" and r["value"]), key=lambda r: r["value"]
    )
    assert zenith["category"] == "preview"
    text = paragraph(html, "F")
    assert links(text) == {zenith["id"]} | {
        r["id"] for r in RECORD.values() if r["submitter"] == "Zenith" and r["value"] is None
    }
    assert ("预览类" if lang == "zh" else "preview category") in text
    # an available result does not repeat its category
    assert "category" not in paragraph(html, "B") and "类" not in paragraph(html, "B")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_resubmitted_result_names_the_round_its_logs_come_from(site, lang):
    html = (site / lang / "reports" / "refs.html").read_text("utf-8")
    best = scored("v1.1", "bert")[0]
    assert best["resubmission_of"] == "v1.0-bigco-giant-bert"
    text = paragraph(html, "G")
    assert links(text) == {best["id"], best["resubmission_of"]}
    said = "沿用" if lang == "zh" else "carried over from "  # a fastest says it is no new result
    assert f'{said}<a href="../results/v1.0-bigco-giant-bert.html">v1.0</a>' in text
    assert said.strip() not in paragraph(html, "B")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_equal_scale_all_lists_every_other_submitter_at_that_scale(site, lang):
    """Not only the one submitter a sentence names: at Acme's 16 accelerators the record holds
    Dell's scored result and Zenith's without logs, and the reference shows both."""
    html = (site / lang / "reports" / "refs.html").read_text("utf-8")
    others = paragraph(html, "H")
    acme = RECORD["v1.0-acme-acme16-bert"]
    at_scale = {
        r["id"]
        for r in RECORD.values()
        if r["round"] == "v1.0"
        and r["benchmark"] == "bert"
        and r["accelerator_count"] == acme["accelerator_count"]
        and r["submitter"] != "Acme"
    }
    assert links(others) == at_scale == {"v1.0-dell-d16-bert", "v1.0-zenith-zenith16-bert"}
    assert "Dell" in others and ("官方记录中没有" if lang == "zh" else "the record has no") not in others
    alone = paragraph(html, "I")  # nobody else ran 1,024 accelerators of bert in v1.0
    assert links(alone) == set()
    assert (
        "官方记录中没有BigCo以外的提交者"
        if lang == "zh"
        else "the record has no result of a submitter other than BigCo"
    ) in alone
