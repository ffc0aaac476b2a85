"""Charts: the spec built for a block, the SVG and data files, bad blocks, the cache, the browser."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import build
from sitegen.base.languages import KNOWN
from sitegen.base.store import Store
from sitegen.content.load import load_site
from sitegen.derive import chart_plan as chart_data
from sitegen.importer import small_record
from sitegen.render.charts import blocks as charts
from sitegen.render.charts import draw as chart_render
from sitegen.render.charts import draw_convert as chart_svg
from sitegen.render.theme import Strings

from project import (
    FILES,
    OFFICIAL,
    R_ACME,
    R_ZENITH,
    REPORT_EN,
    REPORT_ZH,
    RESULTS,
    RESULTS_FILE,
    ROUND_V10,
    SYSTEM_MAP,
    write_project,
)

ROOT = Path(__file__).resolve().parents[2]
SHOWN = ["acme-16", "zenith-8"]  # a block of a record site names the systems it shows


def chart(extra: str = "") -> str:
    """A chart block of BERT in v1.0 with `extra` fields, then the systems it shows (unless
    `extra` names them)."""
    systems = "" if "systems:" in extra else f"systems: [{', '.join(SHOWN)}]\n"
    return f"\n```chart\nbenchmark: bert\nround: v1.0\n{extra}{systems}```\n"


# REPORT_EN ends on line 18; the blank line is 19, so a chart block appended starts on line 20
CHART_LINE = 20
ROUND_V11 = {
    **ROUND_V10,
    "id": "v1.1",
    "repository": "https://github.com/mlcommons/training_results_v1.1",
    "commit": "1b2c3d4e5f60718293a4b5c6d7e8f90123456789",
    "commit_date": "2023-06-01",
    "published": "2021-12-01",
    "ruleset": "1.1.0",
}


def _more(ident, rnd, folder, base, value, runs, framework):
    """Another result of a system folder of R_ACME or R_ZENITH (`base`)."""
    path = f"{base['submitter']}/results/{folder}/bert"
    return {**base, "id": ident, "round": rnd, "system_folder": folder, "path": path, "value": value,
            "runs": runs, "framework": framework}  # fmt: skip


# v1.1 results of both systems and an open-division result of Acme's in v1.0; each score is
# the olympic mean of its five runs (the fastest and the slowest dropped)
MORE = [
    _more("r-acme-v11", "v1.1", "acme16", R_ACME, 24.5, [24.0, 24.5, 24.5, 24.5, 25.0], "AcmeFlow 2"),
    _more("r-zenith-v11", "v1.1", "zenith8", R_ZENITH, 19.25, [19.0, 19.25, 19.25, 19.25, 19.5], "ZenTorch 2"),
    {**_more("r-acme-open", "v1.0", "acme16-open", R_ACME, 27.0, [26.5, 27.0, 27.0, 27.0, 27.5], "AcmeFlow"),
     "division": "open"},
]  # fmt: skip
MORE_RESULTS = {
    **{
        f"data/record/{name}": data.decode("utf-8")
        for name, data in small_record.round_files([ROUND_V10, ROUND_V11], [R_ACME, R_ZENITH, *MORE]).items()
    },
    "data/mlperf_systems.yaml": SYSTEM_MAP
    + "v1.0/Acme/acme16-open: acme-16\nv1.1/Acme/acme16: acme-16\nv1.1/Zenith/zenith8: zenith-8\n",
    "data/sources.yaml": FILES["data/sources.yaml"]
    + OFFICIAL.replace("v1.0", "v1.1").replace("2021-06-30", "2021-12-01"),
}


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, warm_cache):
    """Every test's builds from the command line get a store of their own, a copy of the warm
    one (tests/conftest.py)."""
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))


@pytest.fixture
def chart_cache(tmp_path):
    """An empty store of the test's own, for the tests of the chart cache."""
    store = Store(tmp_path / "charts")
    yield store
    store.close()


def with_chart(extra: str = "", zh: bool = False) -> dict:
    changes = {"reports/acme-vs-zenith.en.md": REPORT_EN + chart(extra)}
    if zh:
        changes["reports/acme-vs-zenith.zh.md"] = REPORT_ZH + chart(extra)
    return changes


def build_tiny(tmp_path, changes: dict, name: str = "site") -> Path:
    content = write_project(tmp_path / name, changes)
    out = tmp_path / name / "output"
    assert build.main(["--content", str(content), "--out", str(out), "-q"]) == 0
    return out


def plan_for(tmp_path, params: dict, lang: str = "zh", changes: dict | None = None):
    """The chart of `params` (of the systems SHOWN unless they name theirs)."""
    site = load_site(write_project(tmp_path / "plan", changes))
    return site, chart_data.plan_chart(site, Strings(site, lang), {"systems": SHOWN, **params}, lang)


# ---- the spec ------------------------------------------------------------------------------


# each family's look (content/data/chip_looks.yaml's format): A1 blue squares, Z1 vermillion circles
LOOKS = """\
backgrounds: {light: "#ffffff", dark: "#0d1117"}
colours: {blue: "#0072B2", vermillion: "#D55E00"}
looks:
  zenith-z1: {colour: vermillion, shape: circle}
  acme-a1: {colour: blue, shape: square}
"""


def test_spec_of_a_time_chart_in_chinese(tmp_path):
    _, plan = plan_for(
        tmp_path, {"benchmark": "bert", "round": "v1.0"}, changes={"data/chip_looks.yaml": LOOKS}
    )
    spec = chart_render.build_spec(plan, validate=True)
    bars, ends, labels = spec["layer"]
    assert bars["mark"] == {"type": "bar"}
    enc = bars["encoding"]
    assert enc["y"]["field"] == "label" and enc["y"]["sort"] == ["Zenith 8", "Acme 16"]  # fastest first
    assert enc["x"]["field"] == "value" and enc["x"]["title"] == "训练时间（分钟，越低越好）"
    # each bar in its chip family's colour, a point of its shape past its end, one legend of both
    assert enc["color"]["scale"] == {"domain": ["A1", "Z1"], "range": ["#0072B2", "#D55E00"]}
    assert ends["mark"]["type"] == "point" and ends["encoding"]["y"] == enc["y"]
    assert ends["encoding"]["color"]["scale"] == enc["color"]["scale"]
    assert ends["encoding"]["shape"]["scale"] == {
        "domain": ["A1", "Z1"],
        "range": ["M-0.8,-0.8L0.8,-0.8L0.8,0.8L-0.8,0.8Z", "circle"],
    }
    assert (
        ends["encoding"]["color"]["legend"]["title"]
        == ends["encoding"]["shape"]["legend"]["title"]
        == "芯片系列"
    )
    assert [(t["field"], t["title"]) for t in enc["tooltip"]] == [
        ("system", "系统"),
        ("round", "轮次"),
        ("division", "组别"),
        ("benchmark", "基准测试"),
        ("framework", "框架"),
        ("accelerators", "加速器数量"),
        ("value_text", "训练时间（分钟，越低越好）"),
        ("source", "来源"),
    ]
    # bar labels: times by fmt's three-significant-digit rule, written into the data
    assert labels["mark"]["type"] == "text" and labels["encoding"]["text"]["field"] == "value_label"
    assert labels["transform"] == [{"calculate": "datum.value_text", "as": "value_label"}]
    assert [(row["value"], row["value_text"]) for row in spec["data"]["values"]] == [
        (20.0, "20.0"),
        (30.0, "30.0"),
    ]
    assert spec["data"]["values"] == [
        {
            "label": "Zenith 8",
            "system": "Zenith 8",
            "vendor": "天顶",
            "benchmark": "BERT-Large",
            "round": "v1.0",
            "division": "封闭组",
            "family": "Z1",
            "accelerators": 8,
            "framework": "ZenTorch",
            "value": 20.0,
            "result": "r-zenith",
            "source": "MLPerf Training v1.0 results",
            "value_text": "20.0",
        },
        {
            "label": "Acme 16",
            "system": "Acme 16",
            "vendor": "艾克米",
            "benchmark": "BERT-Large",
            "round": "v1.0",
            "division": "封闭组",
            "family": "A1",
            "accelerators": 16,
            "framework": "AcmeFlow",
            "value": 30.0,
            "result": "r-acme",
            "source": "MLPerf Training v1.0 results",
            "value_text": "30.0",
        },
    ]
    assert spec["config"]["locale"]["number"]["thousands"] == ","
    assert spec["background"] == "transparent"
    assert plan.caption == "BERT-Large训练时间，MLPerf® Training v1.0，封闭组"


def test_spec_of_a_speedup_chart_has_a_baseline_rule(tmp_path):
    _, plan = plan_for(
        tmp_path, {"benchmark": "bert", "metric": "speedup", "baseline": "zenith-8"}, lang="en"
    )
    spec = chart_render.build_spec(plan, validate=True)
    assert [row["value"] for row in spec["data"]["values"]] == [1.0, 0.6667]  # best first
    # the bars and tooltips show fmt's texts: three significant digits, as every figure
    # (20 / 30 = 0.667; the times 20.0 and 30.0), never Vega's own rounding
    assert [row["value_text"] for row in spec["data"]["values"]] == ["1.00", "0.667"]
    assert [row["time_min_text"] for row in spec["data"]["values"]] == ["20.0", "30.0"]
    fields = [t["field"] for t in spec["layer"][0]["encoding"]["tooltip"]]
    assert "value_text" in fields and "time_min_text" in fields and "value" not in fields
    assert spec["layer"][0]["encoding"]["x"]["title"] == "Speed-up over Zenith 8 (×, higher is better)"
    rule = spec["layer"][3]
    assert rule["mark"]["type"] == "rule" and rule["encoding"]["x"] == {"datum": 1}


def test_both_divisions_are_split_and_said(tmp_path):
    _, plan = plan_for(
        tmp_path,
        {"benchmark": "bert", "round": "v1.0"},
        lang="en",
        changes=MORE_RESULTS,
    )
    spec = chart_render.build_spec(plan, validate=True)
    assert [part["title"]["text"] for part in spec["vconcat"]] == ["Closed", "Open"]
    assert spec["title"]["text"] == "Closed and open divisions"
    assert "Closed- and open-division results are shown together" in plan.caption


def test_change_chart_draws_lines_per_system(tmp_path):
    _, plan = plan_for(
        tmp_path,
        {"benchmark": "bert", "metric": "change", "division": "closed"},
        lang="en",
        changes=MORE_RESULTS,
    )
    spec = chart_render.build_spec(plan, validate=True)
    line, points, names = spec["layer"]
    assert line["mark"]["type"] == "line" and line["encoding"]["x"]["sort"] == ["v1.0", "v1.1"]
    assert [(r["label"], r["round"], r["change_pct"]) for r in spec["data"]["values"]] == [
        ("Zenith 8", "v1.0", 0.0),
        ("Zenith 8", "v1.1", -3.75),
        ("Acme 16", "v1.0", 0.0),
        ("Acme 16", "v1.1", -18.33),
    ]
    assert names["mark"]["type"] == "text"  # each line named at its last point


def test_scaling_chart_divides_speedup_by_size(tmp_path):
    bigger = FILES["data/systems.yaml"] + FILES["data/systems.yaml"].split("- id: zenith-8")[0].replace(
        "acme-16", "acme-64"
    ).replace("Acme 16", "Acme 64").replace("count: 16", "count: 64")
    acme64 = {  # 64 accelerators on 8 hosts; runs whose olympic mean is 10.0
        **_more("r-acme-64", "v1.0", "acme64", R_ACME, 10.0, [9.5, 10.0, 10.0, 10.0, 10.5], "AcmeFlow"),
        "accelerator_count": 64,
        "nodes": 8,
    }
    _, plan = plan_for(
        tmp_path,
        {"benchmark": "bert", "metric": "scaling", "systems": [*SHOWN, "acme-64"]},
        lang="en",
        changes={
            "data/systems.yaml": bigger,
            RESULTS_FILE: RESULTS + small_record.result_text(acme64),
            "data/mlperf_systems.yaml": SYSTEM_MAP + "v1.0/Acme/acme64: acme-64\n",
        },
    )
    spec = chart_render.build_spec(plan, validate=True)
    assert [(r["system"], r["accelerators"], r["value"]) for r in spec["data"]["values"]] == [
        ("Acme 16", 16, 100.0),
        ("Acme 64", 64, 75.0),
    ]  # 3x faster on 4x the size
    assert spec["layer"][0]["encoding"]["x"]["scale"]["type"] == "log"
    assert spec["layer"][2]["encoding"]["y"] == {"datum": 100}  # linear scaling, for reference


def test_grouped_bars_put_rounds_side_by_side(tmp_path):
    _, plan = plan_for(
        tmp_path,
        {"benchmark": "bert", "division": "closed", "kind": "grouped_bars"},
        lang="en",
        changes=MORE_RESULTS,
    )
    bars = chart_render.build_spec(plan, validate=True)["layer"][0]
    assert bars["encoding"]["yOffset"] == {"field": "series", "sort": ["v1.0", "v1.1"], "type": "nominal"}
    assert bars["encoding"]["y"]["sort"] == ["Zenith 8", "Acme 16"]


def test_same_input_same_spec(tmp_path):
    _, first = plan_for(tmp_path, {"benchmark": "bert"})
    _, second = plan_for(tmp_path / "again", {"benchmark": "bert"})
    assert json.dumps(chart_render.build_spec(first, validate=True)) == json.dumps(
        chart_render.build_spec(second)
    )


# ---- the page: SVG, text alternative, table, files ----------------------------------------


def test_chinese_page_has_chinese_svg_text_and_all_parts(tmp_path):
    out = build_tiny(tmp_path, with_chart(zh=True))
    html = (out / "zh/reports/acme-vs-zenith.html").read_text("utf-8")
    figure = html[html.index('<figure class="chart"') : html.index("</figure>")]
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", figure)
    assert "训练时间（分钟，越低越好）" in texts and "芯片系列" in texts
    assert (
        'role="img" aria-label="条形图：BERT-Large训练时间，MLPerf® Training v1.0，封闭组。'
        'Zenith 8 20.0分钟；Acme 16 30.0分钟。"' in figure
    )
    assert 'fill="currentColor"' in figure and "#767676" not in figure.split("<script")[0]
    assert '<figcaption><span class="chart-caption">BERT-Large训练时间' in figure
    assert 'href="../sources/index.html#source-mlperf-training-v1.0"' in figure
    assert '<summary>本图的数据</summary>' in html
    assert '<a href="../systems/zenith-8.html#result-r-zenith">Zenith 8</a>' in html
    assert '<td class="num answer" data-value="20.0">20.0</td>' in html  # in view on a phone
    assert 'href="charts/acme-vs-zenith-1.csv" download' in html
    # the interactive library loads only on a button press (chart-load.js), never on load
    assert 'data-bundle="../../assets/vega-bundle.js"' in html
    assert '<script src="../../assets/vega-bundle.js"' not in html
    assert (out / "zh/reports/charts/acme-vs-zenith-1.svg").read_text("utf-8").startswith("<svg")


def test_csv_and_json_hold_exactly_the_plotted_data(tmp_path):
    out = build_tiny(tmp_path, with_chart())
    html = (out / "en/reports/acme-vs-zenith.html").read_text("utf-8")
    spec_text = re.search(r'<script type="application/json" class="chart-spec">(.*?)</script>', html).group(1)
    plotted = json.loads(spec_text)["data"]["values"]
    rows = list(
        csv.DictReader(io.StringIO((out / "en/reports/charts/acme-vs-zenith-1.csv").read_text("utf-8")))
    )
    # value_text is only the bar's label (fmt.time_number of value), not data
    assert [{k: str(v) for k, v in row.items() if k != "value_text"} for row in plotted] == rows
    assert json.loads((out / "en/reports/charts/acme-vs-zenith-1.json").read_text("utf-8")) == [
        {k: v for k, v in row.items() if k != "value_text"} for row in plotted
    ]


def test_two_charts_on_a_page_share_no_id(tmp_path):
    extra = "metric: price_performance\nbaseline: zenith-8\n"
    out = build_tiny(
        tmp_path,
        {"reports/acme-vs-zenith.en.md": REPORT_EN + chart() + chart(extra)},
    )
    html = (out / "en/reports/acme-vs-zenith.html").read_text("utf-8")
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert 'id="chart-1"' in html and 'id="chart-2"' in html
    assert (out / "en/reports/charts/acme-vs-zenith-2.csv").exists()


def test_svg_ids_are_prefixed_with_the_chart_id(monkeypatch, chart_cache):
    monkeypatch.setattr(
        chart_svg,
        "raw_svg",
        lambda spec, store: (
            '<svg a="1"><clipPath id="clip1"/><g clip-path="url(#clip1)"/><use href="#clip1"/></svg>'
        ),
    )
    svg = chart_svg.page_svg({}, "chart-2", chart_cache)
    assert 'id="chart-2-clip1"' in svg and "url(#chart-2-clip1)" in svg and 'href="#chart-2-clip1"' in svg


def test_results_block_takes_the_chart_selection_fields(tmp_path):
    block = "```results\nbenchmark: [bert]\nround: [v1.0, v1.1]\ndivision: both\nsystems: [acme-16, zenith-8]\n```\n"
    out = build_tiny(
        tmp_path,
        {**MORE_RESULTS, "reports/acme-vs-zenith.en.md": REPORT_EN + "\n" + block},
    )
    html = (out / "en/reports/acme-vs-zenith.html").read_text("utf-8")
    assert html.count("#result-r-acme-v11") == 1  # only the new block has v1.1
    assert html.count("#result-r-acme-open") == 2  # both blocks include the open one


# ---- bad blocks ----------------------------------------------------------------------------

BAD = {
    "unknown-system": ("systems: [zenith-9]\n", "chart block: unknown system 'zenith-9'"),
    "unknown-metric": (
        "metric: speed\n",
        "chart block: unknown metric 'speed' (known: change, family_at_scale, fastest, price_performance, scaling, speedup, time)",
    ),
    "unknown-kind": (
        "kind: pie\n",
        "chart block: unknown kind 'pie' (known: bars, grouped_bars, lines, scaling)",
    ),
    "unknown-field": (
        "colour: red\n",
        "chart block: unknown field 'colour' (known: baseline, "
        "benchmark, caption, division, kind, metric, per, round, "
        "systems, title)",
    ),
    "missing-baseline": ("metric: speedup\n", "chart block: metric 'speedup' needs 'baseline: <system id>'"),
    "unknown-baseline": (
        "metric: speedup\nbaseline: zenith-9\n",
        "chart block: unknown baseline system 'zenith-9'",
    ),
    "empty-selection": ("division: open\n", "chart block: the selection matches no result"),
    "bad-division": ("division: all\n", "chart block: division must be closed, open or both, not 'all'"),
    "no-scaling-family": (
        "metric: scaling\n",
        "chart block: scaling needs systems of one family in at least two sizes",
    ),
    "no-second-round": (
        "metric: change\n",
        "chart block: change needs a system with results in at least two rounds",
    ),
}


# a problem that names a field is reported on that field's line (the extra fields start on line
# 23, the block's systems after them); one about the whole selection on the block's first line
BAD_LINE = {
    "unknown-baseline": CHART_LINE + 4,
    "empty-selection": CHART_LINE,
    "no-scaling-family": CHART_LINE + 4,
    "no-second-round": CHART_LINE + 4,
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_chart_block_fails_with_file_and_line(case, tmp_path, capsys):
    extra, message = BAD[case]
    line = BAD_LINE.get(case, CHART_LINE + 3)
    content = write_project(tmp_path / "bad", with_chart(extra))
    assert build.main(["--content", str(content), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert f"content/reports/acme-vs-zenith.en.md:{line}: {message}" in err.splitlines(), err
    assert not (tmp_path / "out").exists()


def test_baseline_without_a_result_in_the_slot(tmp_path, capsys):
    extra = "round: v1.0\nmetric: speedup\nbaseline: zenith-8\ndivision: both\n"
    changes = {
        **MORE_RESULTS,
        "reports/acme-vs-zenith.en.md": REPORT_EN + chart().replace("round: v1.0\n", extra),
    }
    content = write_project(tmp_path / "bad", changes)
    assert build.main(["--content", str(content), "--out", str(tmp_path / "out")]) == 1
    assert (
        f"content/reports/acme-vs-zenith.en.md:{CHART_LINE + 4}: chart block: baseline 'zenith-8' "
        "has no result for bert v1.0 open"
    ) in capsys.readouterr().err.splitlines()


# ---- the cache and lazy imports ------------------------------------------------------------


def test_svg_is_rendered_once_then_read_from_the_cache(tmp_path, chart_cache):
    _, plan = plan_for(tmp_path, {"benchmark": "bert"})
    spec = chart_render.build_spec(plan, validate=True)
    drawn = chart_cache.work  # what the store's user drew (Store.work)
    first = chart_svg.page_svg(spec, "chart-1", chart_cache)
    first_raw = chart_svg.raw_svg(spec, chart_cache).encode()
    second = chart_svg.page_svg(spec, "chart-1", chart_cache)
    assert drawn["charts drawn"] == 1 and first == second
    assert (
        chart_cache.get(chart_svg.TABLE, chart_svg.spec_key(chart_svg.static(spec), chart_cache) + ".svg")
        == first_raw
    )
    changed = json.loads(json.dumps(spec))
    changed["layer"][0]["mark"] = {"type": "bar", "opacity": 0.9}
    chart_svg.page_svg(changed, "chart-1", chart_cache)
    assert drawn["charts drawn"] == 2  # a different spec is rendered again


class OnlyFields:
    """A plan that lets build_spec read only the fields the spec cache is keyed by."""

    def __init__(self, plan, allowed):
        self._plan, self._allowed = plan, allowed

    def __getattr__(self, name):
        assert name in self._allowed, f"build_spec reads plan.{name}, which SPEC_FIELDS lacks"
        return getattr(self._plan, name)


@pytest.mark.parametrize(
    "params",
    [
        {"benchmark": "bert"},
        {"benchmark": "bert", "metric": "speedup", "baseline": "zenith-8", "division": "closed"},
        {"benchmark": "bert", "metric": "change", "division": "closed"},
        {"benchmark": "bert", "division": "closed", "kind": "grouped_bars"},
    ],
)
def test_the_spec_cache_key_holds_everything_a_spec_is_made_of(tmp_path, params, chart_cache):
    _, plan = plan_for(tmp_path, params, lang="en", changes=MORE_RESULTS)
    guarded = OnlyFields(plan, chart_svg.SPEC_FIELDS)
    assert chart_render.build_spec(guarded) == chart_render.build_spec(plan)
    assert chart_svg.narrow_spec(guarded, chart_cache) == chart_svg.narrow_spec(plan, chart_cache)


KINDS = [
    {"benchmark": "bert"},
    {"benchmark": "bert", "metric": "speedup", "baseline": "zenith-8", "division": "closed"},
    {"benchmark": "bert", "metric": "change", "division": "closed"},
    {"benchmark": "bert", "division": "closed", "kind": "grouped_bars"},
    {"benchmark": "bert", "division": "closed", "kind": "lines"},
]


@pytest.mark.parametrize("params", KINDS)
def test_passed_through_fields_only_reach_the_spec_as_data(tmp_path, chart_cache, params):
    """build_spec copies PASSED_THROUGH fields into the data and reads them nowhere else: a plan
    whose rows differ only there gives the spec a fresh build gives, from the cache, building
    nothing and drawing nothing."""
    import dataclasses

    _, plan = plan_for(tmp_path, params, lang="en", changes=MORE_RESULTS)
    assert all(set(chart_svg.PASSED_THROUGH) <= set(row) for row in plan.rows)
    before = [chart_svg.page_svg(spec, "c", chart_cache) for spec in chart_svg.specs(plan, chart_cache)]
    rows = [
        {**row, **{name: f"{row[name]} edited {i}" for name in chart_svg.PASSED_THROUGH}}
        for i, row in enumerate(plan.rows)
    ]
    edited = dataclasses.replace(plan, rows=rows)
    chart_cache.work.clear()
    cached = chart_svg.specs(edited, chart_cache)
    svgs = [chart_svg.page_svg(spec, "c", chart_cache) for spec in cached]
    assert chart_cache.work == {}  # no spec built, nothing drawn
    assert "edited 0" in json.dumps(cached[0]) and "edited 0" in json.dumps(cached[1])
    fresh = Store(tmp_path / "fresh")
    assert chart_svg.specs(edited, fresh) == cached
    assert [chart_svg.page_svg(spec, "c", fresh) for spec in cached] == svgs == before
    assert fresh.work["chart specs built"] == 1 and fresh.work["charts drawn"] >= 2  # made afresh
    fresh.close()


def test_the_static_drawing_leaves_out_what_only_the_interactive_view_shows(tmp_path, chart_cache):
    """The SVG is drawn from static(spec): no tooltips, only the data fields the marks use, no
    ARIA texts (the page hides the SVG from screen readers; the figure's label says it)."""
    _, plan = plan_for(tmp_path, {"benchmark": "bert"}, lang="en")
    spec = chart_render.build_spec(plan)
    drawn = chart_svg.static(spec)
    assert "tooltip" in json.dumps(spec) and "tooltip" not in json.dumps(drawn)
    assert all(
        "framework" not in row and "label" in row and "value" in row for row in drawn["data"]["values"]
    )
    assert drawn["config"]["aria"] is False
    svg = chart_svg.raw_svg(spec, chart_cache)
    assert "aria-label" not in svg and plan.rows[0]["framework"] not in svg
    assert plan.rows[0]["label"] in svg  # what the marks show is drawn


def test_specs_are_built_once_then_read_from_the_cache(tmp_path, chart_cache):
    _, plan = plan_for(tmp_path, {"benchmark": "bert"}, lang="en")
    fresh = (chart_render.build_spec(plan), chart_svg.narrow_spec(plan, chart_cache))
    built = chart_cache.work  # the spec pairs built (Store.work)
    first = chart_svg.specs(plan, chart_cache)
    assert built["chart specs built"] == 1
    assert first == fresh  # the same as built without the cache
    assert chart_svg.specs(plan, chart_cache) == first and built["chart specs built"] == 1  # from the cache
    plan.caption = "not drawn"  # a field the specs are not made of
    chart_svg.specs(plan, chart_cache)
    assert built["chart specs built"] == 1
    plan.axis_title = "Another axis title"  # one they are made of
    wide, _ = chart_svg.specs(plan, chart_cache)
    assert built["chart specs built"] == 2 and "Another axis title" in json.dumps(wide)


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def test_output_is_the_same_with_and_without_the_cache(tmp_path, monkeypatch):
    changes = with_chart(zh=True)
    cold = build_tiny(tmp_path, changes, "cold")
    warm = build_tiny(tmp_path, changes, "warm")  # same cache folder, now filled
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "other-cache"))
    fresh = build_tiny(tmp_path, changes, "fresh")
    assert tree_digest(cold) == tree_digest(warm) == tree_digest(fresh)


def test_a_build_without_charts_imports_neither_altair_nor_vl_convert(tmp_path):
    """Reports without a chart block: neither library is imported (the record's own charts on
    the benchmark pages need neither), and the report page loads no chart script."""
    content = write_project(tmp_path / "plain")
    code = (
        "import sys; from pathlib import Path; from sitegen.assemble.pipeline import build; "
        f"build(Path({str(content)!r}), Path({str(ROOT / 'templates')!r}), "
        f"Path({str(tmp_path / 'out')!r}), cache=Path({str(tmp_path / 'empty')!r})); "
        "print(sorted(m for m in ('altair', 'vl_convert') if m in sys.modules))"
    )
    env = {**os.environ, "SITEGEN_CACHE": str(tmp_path / "empty")}  # nothing drawn before
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, text=True, capture_output=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "[]"
    assert "vega-bundle.js" not in (tmp_path / "out/en/reports/acme-vs-zenith.html").read_text("utf-8")


def test_summary_lists_at_most_twelve_values():
    plan = chart_data.Plan(
        lang="en",
        language=KNOWN["en"],
        metric="time",
        kind="bars",
        rows=[{"label": f"S{i}", "value": float(i)} for i in range(14)],
        results=[],
        order=[],
        rounds=[],
        series_order=[],
        looks=[],
        division_names=[],
        both_divisions=False,
        axis_title="",
        axis_format="",
        caption="Cap",
        title="",
        text={},
    )

    def t(key, **values):
        return {
            "chart.more": "and {n} more",
            "chart.aria": "{kind}: {caption}. {values}.",
            "chart.value_sep": "; ",
            "chart.kind.bars": "Bar chart",
        }[key].format(**values)

    text = charts.summary(t, plan)
    assert text.startswith("Bar chart: Cap. S0 0.00 min; S1 1.00 min;") and text.endswith("; and 2 more.")


# ---- in the browser (the test process's Chromium: tests/conftest.py) -------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chart_page_from_file_url_is_interactive_without_errors(browser, tmp_path, scheme):
    out = build_tiny(tmp_path, with_chart(zh=True))
    page_url = (out / "zh/reports/acme-vs-zenith.html").as_uri()
    context = browser.new_context(color_scheme=scheme)
    try:
        page = context.new_page()
        messages, remote = [], []
        page.on("console", lambda m: messages.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
        page.on("request", lambda r: remote.append(r.url) if not r.url.startswith("file:") else None)
        page.goto(page_url)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("typeof window.vegaEmbed") == "undefined"  # not on load
        page.locator("figure.chart button.chart-open").first.click()
        page.wait_for_selector("figure.chart.is-interactive", timeout=15000)
        page.locator("figure.chart .mark-rect path").first.hover()
        tooltip = page.locator("#vg-tooltip-element")
        tooltip.wait_for(state="visible", timeout=5000)
        assert "ZenTorch" in tooltip.inner_text() or "AcmeFlow" in tooltip.inner_text()
        assert "来源" in tooltip.inner_text()
        _check_sorting(page)
        assert messages == [] and remote == []
    finally:
        context.close()


def _check_sorting(page):
    header = page.locator("details.chart-data th").nth(5)  # the value column
    page.locator("details.chart-data summary").click()
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "ascending"
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "descending"
    first = page.locator("details.chart-data tbody tr th").first.inner_text()
    assert first == "Acme 16"  # 30 min before 20 min


def test_the_browser_libraries_are_the_versions_the_svgs_are_drawn_with():
    """The interactive chart must draw what the build-time SVG drew: node_modules must hold
    the Vega-Lite that altair writes specs for and the Vega and vega-embed vl-convert uses."""
    import altair
    import vl_convert

    from sitegen.base import npm

    assert "v" + npm.package_info("vega-lite")["version"] == altair.SCHEMA_VERSION
    assert npm.package_info("vega")["version"] == vl_convert.get_vega_version()
    assert npm.package_info("vega-embed")["version"] == vl_convert.get_vega_embed_version()
    bundle = npm.script(npm.VEGA).decode("utf-8")
    assert bundle.count("/*! vega") == 3 and "sourceMappingURL" not in bundle


def test_the_phone_layout_is_measured_once_per_drawing_shape(tmp_path, chart_cache):
    """fitted() keeps the width it found, keyed by what shapes the drawing: a change to a field
    only the tooltips show (a framework) is fitted without drawing, to the same spec a fresh
    measurement gives."""
    import dataclasses

    _, plan = plan_for(tmp_path, {"benchmark": "bert", "round": "v1.0"}, lang="en")
    drawn = chart_cache.work  # Store.work
    chart_svg.narrow_spec(plan, chart_cache)
    assert drawn["charts drawn"] >= 1  # measured by drawing, the first time
    rows = [{**row, "framework": row["framework"] + " 2"} for row in plan.rows]
    edited = dataclasses.replace(plan, rows=rows)
    drawn.clear()
    narrow = chart_svg.narrow_spec(edited, chart_cache)
    assert drawn["charts drawn"] == 0  # the framework moves nothing
    assert [r["framework"] for r in narrow["data"]["values"]] == [r["framework"] for r in rows]
    # the same as measuring afresh
    fresh = Store(tmp_path / "fresh")
    assert chart_svg.narrow_spec(edited, fresh) == narrow and fresh.work["charts drawn"] >= 1
    fresh.close()
    # a change that moves the marks (a time) is measured again
    moved = dataclasses.replace(plan, rows=[{**row, "value": row["value"] * 3} for row in plan.rows])
    chart_svg.narrow_spec(moved, chart_cache)
    assert drawn["charts drawn"] >= 1


def _record_line_rows(series: list[str]) -> list[dict]:
    """Rows as a record chart block or a benchmark page's progress chart has them: each series
    timed in two rounds, the last series' second point carried over (drawn hollow)."""
    return [
        {
            "round": rnd,
            "series": name,
            "value": 10.0 * (i + 1) / (k + 1),
            "value_text": "",
            "result": f"{rnd}-{i}",
            "carried": rnd == "v2.0" and i == len(series) - 1,
            "note": "",
        }
        for i, name in enumerate(series)
        for k, rnd in enumerate(["v1.0", "v2.0"])
    ]


@pytest.mark.parametrize("size", [None, chart_render.narrow_size(288)], ids=["wide", "narrow"])
def test_record_line_charts_tell_series_apart_by_shape_as_well_as_colour(size, chart_cache):
    """The LLM report's five lines (and a benchmark page's progress chart): each series has its own
    point shape besides its colour, and one legend shows both, so no line is told by colour alone;
    a carried-over point keeps its shape, hollow. The same spec draws the SVG and the interactive view."""
    from sitegen.render.charts import progress

    series = ["H100", "H200", "B200", "GB200", "GB300"]  # the report's NVIDIA chart, 5 lines
    text = {
        "time": "Time",
        "round_axis": "Round",
        "accelerator": "Chip",
        "round": "Round",
        "time_col": "T",
        "note": "N",
        "lang": "en",
    }
    spec = progress.progress_spec(_record_line_rows(series), ["v1.0", "v2.0"], text, size)
    lines, points = spec["layer"]
    shape = points["encoding"]["shape"]
    colour = spec["encoding"]["color"] if "encoding" in spec else lines["encoding"]["color"]
    assert shape["field"] == colour["field"] == "series"
    assert shape["scale"]["domain"] == colour["scale"]["domain"] == series
    assert len(set(shape["scale"]["range"])) == len(series)  # five shapes, none shared
    assert shape["legend"] == colour["legend"]  # one legend, merged: a swatch of colour and shape
    assert points["encoding"]["fill"]["condition"]["test"] == "datum.carried"
    svg = chart_svg.raw_svg(spec, chart_cache)
    legend = svg[svg.index('class="mark-symbol role-legend-symbol') :]
    drawn = re.findall(r'<path transform="translate\([^)]*\)" d="([^"]+)"', legend)[: len(series)]
    assert len(set(drawn)) == len(series), drawn  # the legend's symbols differ in shape, not only colour
