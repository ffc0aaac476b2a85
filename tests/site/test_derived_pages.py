"""Derived figures on the record's pages (derive/derived.py): accelerator-minutes beside a
result's time, on leaderboards, in results tables and the downloads; ranks that share a place
within a benchmark's noise band; and every "fastest" naming the results level with it.

The sample record (tests/record_sample.py) holds two v1.1 BERT results level with each other:
Acme's 7.4 min and Zenith's 7.6 min on 16 accelerators each (7.6 <= 7.4 × 1.05 = 7.77, BERT's
±5 % band). Expected figures are worked out here by hand from the sample's times and counts."""

from __future__ import annotations

import csv
import io
import re

import pytest

from sitegen.assemble.pipeline import build

from project import CACHE, PAGE_EN, PAGE_ZH, TEMPLATES
from record_sample import ROUNDS, V10, V11, V11_LEVEL, _result, write_record_project

# a [[fastest:]] whose runner-up is level (in the methodology's section, as the shipped one)
METHODOLOGY = {
    "pages/methodology.en.md": PAGE_EN
    + "\n## Derived figures {#derived-figures}\n\nLevel results: [[fastest:v1.1/bert/closed]].\n",
    "pages/methodology.zh.md": PAGE_ZH
    + "\n## 派生数据 {#derived-figures}\n\n持平的成绩：[[fastest:v1.1/bert/closed]]。\n",
}


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    folder = tmp_path_factory.mktemp("derived")
    out = folder / "out"
    build(write_record_project(folder, METHODOLOGY), TEMPLATES, out, cache=CACHE)
    return out


def text(out, path: str) -> str:
    html = (out / path).read_text("utf-8")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def html(out, path: str) -> str:
    return (out / path).read_text("utf-8")


def test_a_result_page_shows_accelerator_minutes_beside_the_time(sample):
    # 30.123456 min × 16 = 481.975296 -> 482 (three significant digits)
    page = text(sample, "en/results/v1.0-acme-acme16-bert.html")
    assert (
        "Score (time to train, by the round's rules): 30.1 min "
        "Accelerator-minutes: 482 (30.1 min × 16 accelerators)"
        "A figure derived by this site (time to train × accelerators), not an MLPerf® score. "
        "How it is derived"
    ) in page.replace("&#39;", "'")
    assert '<a href="../methodology.html#derived-figures">How it is derived</a>' in html(
        sample, "en/results/v1.0-acme-acme16-bert.html"
    )
    zh = text(sample, "zh/results/v1.0-acme-acme16-bert.html")
    assert (
        "加速器分钟数：482（30.1分钟×16个加速器）此数由本站推算（训练时间×加速器数量），并非MLPerf®成绩。计算方法"
        in zh
    )


def test_a_result_without_a_time_has_no_accelerator_minutes(sample):
    page = html(sample, "en/results/v1.0-bigco-giant-resnet.html")
    assert "Accelerator-minutes" not in page


def test_leaderboard_ranks_level_results_equal_with_the_basis(sample):
    page = html(sample, "en/benchmarks/bert/v1.1.html")
    level = (
        '<td class="num" data-value="1"><a class="level" href="#ranks-note" title="Level: within ±5% '
        'of the first result of this rank, inside the run-to-run variation MLCommons states">1=</a></td>'
    )
    assert page.count(level) == 2  # Acme's 7.4 and Zenith's 7.6 share the first rank
    # accelerator-minutes: 7.4 × 16 = 118.4 -> 118; 7.6 × 16 = 121.6 -> 122
    assert f'{level}<td class="num" data-value="118.4">118</td>' in page
    assert f'{level}<td class="num" data-value="121.6">122</td>' in page
    note = text(sample, "en/benchmarks/bert/v1.1.html")
    assert (
        "Rank: the order of the times in each table. A result within ±5% of the time of the first "
        "result of a rank shares that rank, shown as 1=: MLCommons states that results of this "
        "benchmark vary from run to run by very roughly that much, so such results are level, "
        "neither faster nor slower."
    ) in note
    zh = html(sample, "zh/benchmarks/bert/v1.1.html")
    assert zh.count(">并列1</a></td>") == 2


def test_leaderboard_ranks_without_a_level_pair_are_plain(sample):
    # v1.0 BERT: one scored result per table; 20.046 × 8 = 160.368 -> 160,
    # 30.123456 × 16 = 481.975296 -> 482, 0.41249 × 1024 = 422.38976 -> 422
    page = html(sample, "en/benchmarks/bert/v1.0.html")
    assert 'class="level"' not in page  # no rank shared
    cells = re.findall(
        r'<td class="num" data-value="1">1</td><td class="num" data-value="([\d.]+)">([\d,]+)</td>', page
    )
    shown = sorted((round(float(value), 6), digits) for value, digits in cells)
    # and the open-division table: 27.754321 × 16 = 444.069136 -> 444
    assert shown == [(160.368, "160"), (422.38976, "422"), (444.069136, "444"), (481.975296, "482")]


def test_a_fastest_reference_names_the_result_level_with_it(sample):
    page = text(sample, "en/methodology.html")
    assert (
        "Level results: 7.40 min (Acme, ACME16 system, 16 × Acme A1, 5 runs, none failed), level, "
        "within the ±5% run-to-run variation MLCommons states, with 7.60 min (Zenith, ZENITH16 system, 16 × Zenith Z1, 5 runs, "
        "none failed)."
    ) in page
    zh = text(sample, "zh/methodology.html")
    assert (
        "持平的成绩：7.40分钟（Acme，ACME16 system，16颗Acme A1，5次运行，无失败），在±5%的波动范围内"
        "与7.60分钟（Zenith，ZENITH16 system，16颗Zenith Z1，5次运行，无失败）持平。"
    ) in zh


def test_round_and_benchmark_pages_say_the_fastest_is_level(sample):
    mark = "(level, within the ±5% run-to-run variation MLCommons states, with Zenith · ZENITH16 system (16 accelerators))"
    assert f"ACME16 system {mark}" in text(sample, "en/rounds/v1.1.html")
    assert f"ACME16 system {mark}" in text(sample, "en/benchmarks/bert.html")
    zh = "ACME16 system（在±5%的波动范围内与Zenith · ZENITH16 system（16个加速器）持平）"
    assert zh in text(sample, "zh/rounds/v1.1.html")
    assert "level within" not in text(sample, "en/rounds/v1.0.html")  # 0.412 min leads clearly


def test_a_submitters_fastest_names_its_level_result(tmp_path):
    # a second Acme v1.1 BERT result, 7.5 min (<= 7.4 × 1.05): Acme's fastest is level with it
    extra = V11.replace("v1.1-acme-acme16-bert", "v1.1-acme-acme16b-bert")
    extra = (
        extra.replace("acme16", "acme16b").replace("ACME16", "ACME16B").replace("value: 7.4", "value: 7.5")
    )
    extra = extra.replace("[7.3, 7.35, 7.4, 7.45, 7.5]", "[7.4, 7.45, 7.5, 7.55, 7.6]")
    content = write_record_project(
        tmp_path,
        {
            "data/record/results-v1.1.yaml": V11 + V11_LEVEL + extra,
            "data/record/rounds.yaml": ROUNDS.replace("results: 2", "results: 3"),
        },
    )
    build(content, TEMPLATES, tmp_path / "out", cache=CACHE)
    page = text(tmp_path / "out", "en/submitters/acme.html")
    assert (
        "ACME16 system (level, within the ±5% run-to-run variation MLCommons states, with Acme · ACME16B system (16 accelerators))"
        in page
    )
    zenith = text(tmp_path / "out", "en/submitters/zenith.html")
    assert "level within" not in zenith


# Acme's BERT again, as repeats of the same runs (carryover.py): ACME32's v1.0 runs are
# published again in v1.1, and so are ACME8's. Olympic means: (7.25 + 7.3 + 7.35) / 3 = 7.3 and
# (7.4 + 7.42 + 7.44) / 3 = 7.42. Acme's fastest is v1.0's ACME32 (7.3; v1.1's is its repeat).
RUNS_32, RUNS_8 = [7.2, 7.25, 7.3, 7.35, 7.4], [7.37, 7.4, 7.42, 7.44, 7.5]
REPEATS_V10 = _result("v1.0-acme-acme32-bert", "v1.0", "Acme", "acme32", "bert", 7.3, RUNS_32) + _result(
    "v1.0-acme-acme8-bert", "v1.0", "Acme", "acme8", "bert", 7.42, RUNS_8
)
REPEATS_V11 = _result(
    "v1.1-acme-acme32-bert", "v1.1", "Acme", "acme32", "bert", 7.3, RUNS_32[::-1]
) + _result("v1.1-acme-acme8-bert", "v1.1", "Acme", "acme8", "bert", 7.42, RUNS_8[::-1])


@pytest.fixture(scope="module")
def repeats(tmp_path_factory):
    folder = tmp_path_factory.mktemp("repeats")
    content = write_record_project(
        folder,
        {
            "data/record/results-v1.0.yaml": V10 + REPEATS_V10,
            "data/record/results-v1.1.yaml": V11 + V11_LEVEL + REPEATS_V11,
            "data/record/rounds.yaml": ROUNDS.replace("results: 5", "results: 7").replace(
                "results: 2", "results: 4"
            ),
        },
    )
    build(content, TEMPLATES, folder / "out", cache=CACHE)
    return folder / "out"


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "en",
            "ACME32 system (level, within the ±5% run-to-run variation MLCommons states, with these results at 16 "
            "accelerators each: Acme · ACME16 system (v1.1), Acme · ACME8 system)",
        ),
        (
            "zh",
            "ACME32 system（在±5%的波动范围内与以下各使用16个加速器的成绩持平：Acme · ACME16 system（v1.1）、Acme · ACME8 system）",
        ),
    ],
)
def test_a_repeat_of_the_same_runs_is_not_listed_as_level(repeats, lang, said):
    # 7.3 × 1.05 = 7.665: v1.1's ACME16 (7.4) and ACME8 (7.42, twice) are level with the
    # fastest; its own repeat is no rival, and ACME8's two results are one, listed as v1.0's
    # (no round named: the fastest's own)
    assert said in text(repeats, f"{lang}/submitters/acme.html")


def test_the_downloads_carry_accelerator_minutes_at_full_precision(sample):
    rows = list(
        csv.DictReader(io.StringIO((sample / "downloads/mlperf-training-all.csv").read_text("utf-8")))
    )
    work = {r["id"]: r["accelerator_minutes"] for r in rows}
    assert float(work["v1.0-acme-acme16-bert"]) == 30.123456 * 16  # 481.975296, not rounded
    assert float(work["v1.1-zenith-zenith16-bert"]) == 7.6 * 16
    assert work["v1.0-bigco-giant-resnet"] == ""  # no time, no figure
    page = text(sample, "en/downloads.html")
    assert (
        "accelerator_minutes: value × accelerator_count (the time to train in minutes × the "
        "accelerators), at full precision; a figure derived by this site, not an MLPerf® score"
    ) in page


def test_a_curated_system_page_shows_accelerator_minutes_beside_each_time(sample):
    """acme-16's three results (data/mlperf_systems.yaml), 16 accelerators each:
    30.123456 × 16 = 481.975296 -> 482, 27.754321 × 16 = 444.069136 -> 444, 7.4 × 16 = 118.4 -> 118."""
    for lang, header, note in (
        ("en", "Accelerator-minutes", "a figure derived by this site, not an MLPerf® score"),
        ("zh", "加速器分钟数", "此数由本站推算，并非MLPerf®成绩"),
    ):
        page = html(sample, f"{lang}/systems/acme-16.html")
        table = page[page.index('aria-labelledby="results"') :]
        heads = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', table)
        assert heads[2] == header, heads  # the key, the time, then the derived column
        cells = re.findall(
            r'<tr id="result-([^"]+)">.*?</td><td class="num" data-value="([^"]+)">([^<]+)</td>', table
        )
        assert {(i, float(v), shown) for i, v, shown in cells} == {
            ("v1.0-acme-acme16-bert", 30.123456 * 16, "482"),
            ("v1.0-acme-acme16-open-bert", 27.754321 * 16, "444"),
            ("v1.1-acme-acme16-bert", 7.4 * 16, "118"),
        }
        assert note in text(sample, f"{lang}/systems/acme-16.html")


# Zenith's v1.0 BERT on 16 Z1 beside its 8 Z1: each result page shows the other's scaling.
ZENITH16 = _result(
    "v1.0-zenith-zenith16-bert",
    "v1.0",
    "Zenith",
    "zenith16",
    "bert",
    11.0,
    [10.9, 11.0, 11.0, 11.1, 11.2],
    model="Zenith Z1",
)


@pytest.fixture(scope="module")
def scaled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scaled")
    out = folder / "out"
    build(
        write_record_project(folder, {**METHODOLOGY, "data/record/results-v1.0.yaml": V10 + ZENITH16}),
        TEMPLATES,
        out,
        cache=CACHE,
    )
    return out


def test_every_scaling_efficiency_section_says_it_is_derived_and_links_how(scaled):
    # Scaling efficiency is a derived figure: the section that shows it labels it and links the
    # methodology's section, on every result page that has one, in both languages.
    labels = {
        "en": "The figures in this section are derived by this site, not MLPerf® scores.",
        "zh": "本节数字由本站推算，并非MLPerf®成绩。",
    }
    found = []
    for lang, label in labels.items():
        for page in sorted((scaled / lang / "results").glob("*.html")):
            section = re.search(
                r'<section aria-labelledby="scaling">(.*?)</section>', page.read_text("utf-8"), re.S
            )
            if section is None:
                continue
            found.append(page.name)
            assert label in section.group(1), page
            assert 'href="../methodology.html#derived-figures"' in section.group(1), page
    # both Zenith BERT results of v1.0, in each language
    assert sorted(found) == sorted(["v1.0-zenith-zenith16-bert.html", "v1.0-zenith-zenith8-bert.html"] * 2)


# The shipped site's pages, every derived figure labelled and linked: tests/quality/test_site_walk.py.
