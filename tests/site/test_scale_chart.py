"""The scale chart (sitegen/render/charts/scale.py, scale_svg.py) on the shipped record: its rows
are every scored closed-division result of a benchmark on accelerators, less the copies
(computed here from site.record, not by the chart's code); a carried-over result is drawn hollow
and named in its row; the ideal line has slope -1 on the log-log axes (read back from the
drawing through its tick labels) and passes through the fewest accelerator-minutes; one drawing
serves every language."""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path

import pytest

from sitegen.derive.model import build as build_model
from sitegen.render.charts import scale
from sitegen.render.theme import Strings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(shipped_content):
    return shipped_content


def strings(site, lang):
    return Strings(site, lang)


def figure(site, lang, benchmark_id, rounds):
    files: dict[str, bytes] = {}
    path = f"{lang}/benchmarks/{benchmark_id}.html"
    html = scale.scale_figure(
        build_model(site),
        strings(site, lang),
        lang,
        path,
        site.get("benchmarks", benchmark_id),
        rounds,
        files,
    )
    rows = list(
        csv.DictReader(io.StringIO(files[f"{lang}/benchmarks/charts/{benchmark_id}-scale.csv"].decode()))
    )
    return html, rows


def expected_ids(site, benchmark_id, rounds=None) -> set[str]:
    """Scored closed results on accelerators, each copy within a round left out: a result whose
    converged run times (two at least) equal another's of the same round and benchmark, the
    one whose folder sits deeper (then the later id) being the copy."""
    chosen = [
        r
        for r in site.record.values()
        if r["benchmark"] == benchmark_id
        and (rounds is None or r["round"] in rounds)
        and r["division"] == "closed"
        and r["value"] is not None
        and r["accelerator_count"] > 0
    ]
    same: dict[tuple, list[dict]] = {}
    for r in site.record.values():
        times = sorted(x for x in (r["runs"] or []) if x is not None)
        if r["benchmark"] == benchmark_id and len(times) >= 2:
            key = (r["round"], tuple(times), sum(x is None for x in r["runs"]))
            same.setdefault(key, []).append(r)
    copies = set()
    for group in same.values():
        group.sort(key=lambda r: (len(r["path"].split("/")), r["id"]))
        copies.update(r["id"] for r in group[1:])
    return {r["id"] for r in chosen} - copies


@pytest.mark.parametrize("benchmark_id", ["bert", "resnet", "llama2_70b_lora", "gpt3"])
def test_the_benchmark_chart_draws_every_scored_closed_result_of_every_round(site, benchmark_id):
    _, rows = figure(site, "en", benchmark_id, site.record_rounds(benchmark_id))
    ids = [row["result"] for row in rows]
    assert len(ids) == len(set(ids))
    assert set(ids) == expected_ids(site, benchmark_id)


def test_the_leaderboard_chart_draws_its_round_only_and_leaves_copies_and_cpus_out(site):
    html, rows = figure(site, "en", "bert", ["v1.0"])
    assert {row["result"] for row in rows} == expected_ids(site, "bert", {"v1.0"})
    assert {row["round"] for row in rows} == {"v1.0"}
    assert (
        "Every scored closed-division result (all categories) of BERT-Large in MLPerf® Training v1.0:" in html
    )


def test_cpu_only_results_are_counted_as_not_drawn(site):
    # DLRM v0.7 and v1.0 have closed results from Intel on processors alone (0 accelerators)
    cpu = [
        r
        for r in site.record.values()
        if r["benchmark"] == "dlrm"
        and r["division"] == "closed"
        and r["value"] is not None
        and not r["accelerator_count"]
    ]
    assert cpu, "the record has CPU-only DLRM results"
    html, rows = figure(site, "en", "dlrm", site.record_rounds("dlrm"))
    assert not {r["id"] for r in cpu} & {row["result"] for row in rows}
    assert (
        f"Not drawn, having no accelerators to count: closed results on processors alone ({len(cpu)})."
        in html
    )


# --- the drawing, read back ---------------------------------------------------------------------


def _axis(svg: str, which: str):
    """(pixel, value) of each tick label of an axis, as drawn."""
    group = re.search(rf'<g class="scale-{which}-axis"[^>]*>(.*?)</g>', svg).group(1)
    coord = "x" if which == "x" else "y"
    found = []
    for attrs, text in re.findall(r"<text ([^>]*)>([^<]+)</text>", group):
        pixel = float(re.search(rf'\b{coord}="([-\d.]+)"', attrs).group(1))
        found.append((pixel, float(text.replace(",", ""))))
    return found


def _inverse(ticks, offset=0.0):
    """Pixel -> value on a log axis, fitted through its first and last ticks."""
    (p1, v1), (p2, v2) = ticks[0], ticks[-1]
    slope = (math.log10(v2) - math.log10(v1)) / (p2 - p1)
    return lambda p: 10 ** (math.log10(v1) + (p - offset - p1) * slope)


def _wide_svg(html: str) -> str:
    return re.search(r'<div class="chart-wide">(<svg.*?</svg>)</div>', html).group(1)


def _reader(svg: str):
    font = float(re.search(r'font-size="([\d.]+)"', svg).group(1))
    x = _inverse(_axis(svg, "x"))
    # a y label sits 0.35 em below its tick (its baseline), so the tick is that much higher
    y = _inverse(_axis(svg, "y"), offset=-0.35 * font)
    return x, y


def test_the_ideal_line_has_slope_minus_one_through_the_fewest_accelerator_minutes(site):
    html, rows = figure(site, "en", "resnet", site.record_rounds("resnet"))
    svg = _wide_svg(html)
    x, y = _reader(svg)
    ends = re.search(r'class="scale-ideal" d="M([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)"', svg).groups()
    (n1, t1), (n2, t2) = [(x(float(a)), y(float(b))) for a, b in (ends[:2], ends[2:])]
    slope = (math.log10(t2) - math.log10(t1)) / (math.log10(n2) - math.log10(n1))
    assert slope == pytest.approx(-1, abs=0.01)
    # along it, time × accelerators is the least of any drawn result's (from the record)
    least = min(
        site.record[i]["value"] * site.record[i]["accelerator_count"] for i in expected_ids(site, "resnet")
    )
    assert n1 * t1 == pytest.approx(least, rel=0.02) and n2 * t2 == pytest.approx(least, rel=0.02)


def test_a_carried_over_result_is_drawn_hollow_and_named_in_its_row(site):
    # the fastest closed ResNet-50 of v4.0 (3,584 accelerators, 0.183 min) repeats v3.0's runs
    html, rows = figure(site, "en", "resnet", ["v4.0"])
    row = next(r for r in rows if r["accelerators"] == "3584" and f"{float(r['time_min']):.3g}" == "0.183")
    assert row["carried_over_from"] == "v3.0"
    svg = _wide_svg(html)
    x, y = _reader(svg)
    groups = re.findall(r'<g class="scale-points" ([^>]*)>(.*?)</g>', svg)
    hollow = [
        (x(float(a)), y(float(b)))
        for attrs, uses in groups
        if 'fill="none"' in attrs
        for a, b in re.findall(r'<use [^>]*x="([-\d.]+)" y="([-\d.]+)"', uses)
    ]
    assert any(n == pytest.approx(3584, rel=0.02) and t == pytest.approx(0.183, rel=0.02) for n, t in hollow)
    carried = sum(1 for r in rows if r["carried_over_from"])
    assert len(hollow) == carried > 0
    assert "(carried over from v3.0: the same runs)" in html
    assert "Hollow points: results carried over from an earlier round" in html


def test_one_drawing_serves_every_language(site):
    drawings = {
        lang: re.findall(r"<svg .*?</svg>", figure(site, lang, "bert", ["v3.0"])[0])
        for lang in site.languages
    }
    assert drawings["en"] == drawings["zh"] == drawings["zh-hant"]
    assert not re.search(
        r"[A-Za-z\u4e00-\u9fff]", "".join(re.findall(r"<text[^>]*>([^<]*)</text>", drawings["en"][0]))
    )


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "en",
            [
                "The dashed line is ideal scaling, derived from the record (not an MLPerf® score)",
                "Hollow, carried over from an earlier round",
            ],
        ),
        ("zh", ["虚线为理想扩展，由记录推算，并非MLPerf®成绩", "空心：沿用早前轮次的成绩"]),
        ("zh-hant", ["虛線為理想擴展", "MLPerf®", "空心："]),
    ],
)
def test_the_caption_and_legend_are_in_the_page_language(site, lang, words):
    html, _ = figure(site, lang, "resnet", site.record_rounds("resnet"))  # more than 7 chip families
    for word in words:
        assert word in html


@pytest.mark.parametrize("benchmark_id", ["resnet", "bert"])
def test_the_legend_names_every_family_drawn_in_its_look_and_no_other(site, benchmark_id):
    """ResNet-50 over every round: more families than any palette has colours, each named with
    the colour content/data/chip_looks.yaml gives it (none grouped as "other chips"), and the
    drawing's points of each family in that colour."""
    import yaml

    html, _ = figure(site, "en", benchmark_id, site.record_rounds(benchmark_id))
    drawn = {site.record[i]["chip"]["family"] for i in expected_ids(site, benchmark_id)}
    names = {
        site.record[i]["chip"]["family"]: site.record[i]["chip"]["family_name"]
        for i in expected_ids(site, benchmark_id)
    }
    looks = yaml.safe_load((ROOT / "content/data/chip_looks.yaml").read_text("utf-8"))
    colour = {key: looks["colours"][look["colour"]] for key, look in looks["looks"].items()}
    legend = html[html.index('<ul class="scale-legend">') : html.index("</ul>")]
    items = re.findall(
        r'<li><svg[^>]*><path d="[^"]*" fill="([^"]*)" stroke="([^"]*)"[^>]*/></svg>([^<]*)</li>', legend
    )
    named = {text: fill for fill, stroke, text in items if fill == stroke}  # the hollow key has no fill
    assert len(drawn) > 6 if benchmark_id == "resnet" else len(drawn) >= 2
    assert named == {names[key]: colour[key] for key in drawn}
    assert "Other" not in legend
    wide = html[html.index('<div class="chart-wide">') : html.index('<div class="chart-narrow">')]
    fills = set(re.findall(r'<g class="scale-points" data-g="\d+" fill="(#[0-9A-Fa-f]{6})"', wide))
    assert fills == {colour[key] for key in drawn}


def test_the_benchmark_page_links_each_rounds_chart_and_table(site):
    html, rows = figure(site, "en", "resnet", site.record_rounds("resnet"))
    links = re.findall(r'<a href="resnet/(v[\d.]+)\.html#scale">', html)
    assert links == sorted({row["round"] for row in rows}, key=site.record_rounds("resnet").index)
    assert "<table" not in html  # each round's table is on its leaderboard
    board, _ = figure(site, "en", "resnet", ["v3.0"])
    assert board.count("<tr>") == 1 + sum(1 for row in rows if row["round"] == "v3.0")
