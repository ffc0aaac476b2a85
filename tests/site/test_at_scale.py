"""Equal scale, per round (derive/at_scale.py, the pages benchmarks/<id>/at-<n>.html): which
counts get a page, which result stands for a chip family in a round, the change from its
previous round, and the page, its chart and its links, on a record made here.

The record (tests/record_sample.py, with a round v2.0 and more results added here), BERT at 16
accelerators:
- Acme A1: v1.0 30.123456 min; v1.1 7.4 (Available) and 6.0 (Preview, faster); v2.0 5.0.
- Zenith Z1: v1.0 10.0; v1.1 7.6; v2.0 the same runs as v1.1 (carried over).
At 8 only Zenith ran (v1.0), at 1024 only BigCo: neither count gets a page."""

from __future__ import annotations

import re

import pytest
from lxml import html as lxml_html

from sitegen.assemble.pipeline import build
from sitegen.content.load import load_site
from sitegen.derive import model as derive_model
from sitegen.render.kinds import kind_of

from project import BENCHMARKS, CACHE, TEMPLATES, THREE
from record_sample import RESNET, ROUNDS, V11, V11_LEVEL, _result, record_files, write_record_project
from search_files import search_text

V20_ROUND = """\
- id: v2.0
  repository: https://github.com/mlcommons/training_results_v2.0
  commit: 2b2c3d4e5f60718293a4b5c6d7e8f90123456789
  commit_date: 2023-07-01
  published: 2022-06-29
  ruleset: 2.0.0
  results: 2
  logs_missing: 0
  skipped: 0
"""
Z16_V10 = _result(
    "v1.0-zenith-zenith16-bert",
    "v1.0",
    "Zenith",
    "zenith16",
    "bert",
    10.0,
    [9.8, 9.9, 10.0, 10.1, 10.3],
    model="Zenith Z1",
)
A16_PREVIEW = _result(
    "v1.1-acme-acme16p-bert",
    "v1.1",
    "Acme",
    "acme16p",
    "bert",
    6.0,
    [5.8, 5.9, 6.0, 6.1, 6.2],
    category="preview",
)
V20 = _result(
    "v2.0-acme-acme16-bert", "v2.0", "Acme", "acme16", "bert", 5.0, [4.8, 4.9, 5.0, 5.1, 5.2]
) + _result(
    # the same runs as Zenith's v1.1 result: carried over
    "v2.0-zenith-zenith16-bert",
    "v2.0",
    "Zenith",
    "zenith16",
    "bert",
    7.6,
    [7.5, 7.55, 7.6, 7.65, 7.7],
    model="Zenith Z1",
)


def changes(split: bool = False) -> dict:
    import project

    v10 = record_files(project)["data/record/results-v1.0.yaml"]
    found = {
        "site.yaml": THREE + "base_url: https://example.org/ledger/\n",
        "data/record/rounds.yaml": ROUNDS.replace("results: 5", "results: 6") + V20_ROUND,
        "data/record/results-v1.0.yaml": v10 + Z16_V10,
        "data/record/results-v1.1.yaml": V11 + V11_LEVEL + A16_PREVIEW,
        "data/record/results-v2.0.yaml": V20,
    }
    if split:  # MLCommons' table keeping BERT's v1.0 apart from v1.1 and v2.0
        found["data/compatibility.yaml"] = (
            "source: https://github.com/mlcommons/policies/blob/abc/MLPerf_Compatibility_Table.adoc\n"
            "commit: abc\ndate: '2026-04-28'\ntraining:\n- model: BERT\n  versions:\n  - [v1.0]\n  - [v1.1, v2.0]\n"
        )
        found["data/benchmarks.yaml"] = (
            BENCHMARKS.replace("  name: {en: BERT-Large", "  compatibility: BERT\n  name: {en: BERT-Large")
            + RESNET
        )
    return found


@pytest.fixture(scope="module")
def content(tmp_path_factory):
    return write_record_project(tmp_path_factory.mktemp("at-scale"), changes())


@pytest.fixture(scope="module")
def model(content):
    return derive_model.build(load_site(content))


@pytest.fixture(scope="module")
def out(content):
    folder = content.parent / "out"
    build(content, TEMPLATES, folder, cache=CACHE)
    return folder


def cells(view) -> dict[str, list[tuple]]:
    """Family -> (round, result id, change or None, carried from) per cell."""
    return {
        row.name: [
            (c.round, c.result["id"], None if c.change is None else c.change.value, c.carried)
            for c in row.cells
        ]
        for row in view.rows
    }


def test_a_count_gets_a_view_with_two_families_and_one_of_them_in_two_rounds(model):
    assert model.scales["bert"] == (16,)  # 8: Zenith alone; 1024: BigCo alone
    assert model.scales["resnet"] == ()  # one result, without a score


def test_each_family_s_standing_result_and_its_change_from_the_round_before(model):
    view = model.at_scale[("bert", 16)]
    assert view.rounds == ("v1.0", "v1.1", "v2.0")
    assert cells(view) == {
        "A1": [
            ("v1.0", "v1.0-acme-acme16-bert", None, None),
            # the Available 7.4 stands, not the faster Preview 6.0
            ("v1.1", "v1.1-acme-acme16-bert", pytest.approx((7.4 - 30.123456) / 30.123456), None),
            ("v2.0", "v2.0-acme-acme16-bert", pytest.approx((5.0 - 7.4) / 7.4), None),
        ],
        "Z1": [
            ("v1.0", "v1.0-zenith-zenith16-bert", None, None),
            ("v1.1", "v1.1-zenith-zenith16-bert", pytest.approx(-0.24), None),
            ("v2.0", "v2.0-zenith-zenith16-bert", None, "v1.1"),  # the same runs: no change
        ],
    }
    acme = view.rows[0].cells
    assert [r["id"] for r in acme[1].ahead] == ["v1.1-acme-acme16p-bert"]
    assert acme[0].work.value == pytest.approx(30.123456 * 16)
    assert acme[0].change is None and acme[1].change.inputs == (
        "v1.0-acme-acme16-bert",
        "v1.1-acme-acme16-bert",
    )


def test_no_change_is_computed_across_versions_mlcommons_keeps_apart(tmp_path):
    content = write_record_project(tmp_path, changes(split=True))
    view = derive_model.build(load_site(content)).at_scale[("bert", 16)]
    got = cells(view)
    assert got["A1"][1][2] is None and got["Z1"][1][2] is None  # v1.0 → v1.1: two versions
    assert [c.apart for c in view.rows[0].cells] == [False, True, False]
    assert got["A1"][2][2] == pytest.approx((5.0 - 7.4) / 7.4)  # v1.1 → v2.0: one version
    build(content, TEMPLATES, tmp_path / "out", cache=CACHE)
    said = [text(td) for td in page(tmp_path / "out").xpath("//tbody[@id='acme-a1']/tr[3]/td")]
    assert said[1] == "not computed: v1.0 and v1.1 are versions of the benchmark that MLCommons keeps apart"
    # the chart's line breaks there: a move, not a line, before the v1.1 point
    line = page(tmp_path / "out").xpath(
        "//div[@data-series='acme-a1']//*[local-name()='path'][@class='multiple-line']"
    )
    assert len(re.findall("M", line[0].get("d"))) == 2


def page(out, lang: str = "en"):
    return lxml_html.fromstring((out / lang / "benchmarks" / "bert" / "at-16.html").read_bytes())


def text(el) -> str:
    return re.sub(r"\s+", " ", el.text_content()).strip()


def test_the_page_s_address_holds_the_benchmark_and_the_count(out):
    for lang in ("en", "zh", "zh-hant"):
        assert (out / lang / "benchmarks" / "bert" / "at-16.html").is_file()
    assert not (out / "en" / "benchmarks" / "bert" / "at-8.html").exists()
    doc = page(out)
    assert text(doc.find(".//h1")) == "BERT-Large at 16 accelerators, round by round"
    assert kind_of("en/benchmarks/bert/at-16.html").search == "at_scale"
    sitemap = (out / "sitemap.xml").read_text("utf-8")
    for lang in ("en", "zh", "zh-hant"):
        assert f"<loc>https://example.org/ledger/{lang}/benchmarks/bert/at-16.html</loc>" in sitemap
    assert '"url":"en/benchmarks/bert/at-16.html"' in search_text(out, "en")
    benchmark = (out / "en" / "benchmarks" / "bert.html").read_text("utf-8")
    assert 'href="bert/at-16.html"' in benchmark
    chip = (out / "en" / "accelerators" / "acme-a1.html").read_text("utf-8")
    assert 'href="../benchmarks/bert/at-16.html#acme-a1"' in chip


def test_the_table_shows_each_round_s_time_change_and_accelerator_minutes(out):
    doc = page(out)
    rows = {}
    for body in doc.xpath("//table[contains(@class, 'scale-table')]/tbody"):
        rows[body.get("id")] = [[text(c) for c in tr.xpath("./th | ./td")] for tr in body.xpath("./tr")[1:]]
    # time: three significant digits; change: (time − previous) ÷ previous, in words; work: time × 16
    assert rows == {
        "acme-a1": [
            ["v1.0", "30.1", "–", "482", "Acme"],
            ["v1.1", "7.40 Faster, Preview category: 6.00 (Acme).", "75.4% less time", "118", "Acme"],
            ["v2.0", "5.00", "32.4% less time", "80.0", "Acme"],
        ],
        "zenith-z1": [
            ["v1.0", "10.0", "–", "160", "Zenith"],
            ["v1.1", "7.60", "24.0% less time", "122", "Zenith"],
            ["v2.0", "7.60 (carried over from v1.1)", "carried over: no new result", "122", "Zenith"],
        ],
    }
    section = doc.xpath("//section[@aria-labelledby='scale-rounds']")[0]
    assert "derived by this site, not MLPerf® scores" in text(section)
    assert section.xpath(".//a[contains(@href, 'methodology.html#derived-figures')]")


def test_the_chart_draws_the_table_s_rows(out):
    doc = page(out)
    panels = doc.xpath("//figure[@id='chart-at-scale']//div[@class='multiple']")
    bodies = doc.xpath("//table[contains(@class, 'scale-table')]/tbody")
    assert [p.get("data-series") for p in panels] == [b.get("id") for b in bodies] == ["acme-a1", "zenith-z1"]
    for panel, body in zip(panels, bodies):
        marks = panel.xpath(".//*[local-name()='path'][@class='multiple-point']")
        rows = body.xpath("./tr")[1:]
        assert len(marks) == len(rows)
        carried = ["carried over" in text(tr.xpath("./td")[0]) for tr in rows]
        assert [c.get("data-hollow") == "1" for c in marks] == carried
        # time up the axis: a longer time is drawn higher (a smaller y), the same time level
        ys = [float(c.get("transform").rstrip(")").split(",")[1]) for c in marks]
        times = [float(tr.xpath("./td")[0].get("data-value")) for tr in rows]
        for i in range(len(ys) - 1):
            assert (ys[i] < ys[i + 1], ys[i] == ys[i + 1]) == (
                times[i] > times[i + 1],
                times[i] == times[i + 1],
            )


def test_the_page_reads_in_chinese(out):
    zh = page(out, "zh")
    assert text(zh.find(".//h1")) == "BERT-Large：16个加速器规模的逐轮成绩"
    cells = [text(td) for td in zh.xpath("//tbody[@id='zenith-z1']/tr[3]/td")]
    assert cells[1] == "训练时间缩短24.0%"
    hant = page(out, "zh-hant")
    assert "訓練時間縮短24.0%" in [text(td) for td in hant.xpath("//tbody[@id='zenith-z1']/tr[3]/td")]
