"""Issue 31, the home page on the shipped content: the current suite (the latest round's
benchmarks, large-language-model ones first, each with its fastest closed result, or the
results level with it), the headline chart of the current suite, and the record at a glance
with a break where a series' benchmark id changes. Expected values are computed here from the
record files, or written by hand from content/data/record/results-v5.1.yaml."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest
import yaml

RECORD = Path(__file__).resolve().parents[2] / "content" / "data" / "record"
BENCHMARKS = RECORD.parent / "benchmarks.yaml"
LANGS = ("en", "zh", "zh-hant")


def _latest_round(results) -> str:
    order = [r["id"] for r in yaml.safe_load((RECORD / "rounds.yaml").read_text("utf-8"))]
    return max({r["round"] for r in results}, key=order.index)


def _home(site: Path, lang: str) -> str:
    return (site / lang / "index.html").read_text("utf-8")


def _cards(page: str) -> dict[str, str]:
    """Each current-suite card's HTML, by benchmark id, in page order."""
    return dict(
        re.findall(
            r'<li class="suite-item" data-benchmark="([^"]+)">(.*?)</li>\s*(?=<li class="suite-item"|</ol>)',
            page,
            re.S,
        )
    )


def _leader_ids(card: str) -> list[str]:
    leaders = re.search(r'<ul class="leaders">(.*?)</ul>', card, re.S).group(1)
    return re.findall(r'<a class="time" href="results/([^"]+)\.html">', leaders)


@pytest.mark.parametrize("lang", LANGS)
def test_the_current_suite_is_the_latest_rounds_benchmarks_llm_first(shipped_site, shipped_record, lang):
    results = shipped_record
    latest = _latest_round(results)
    held = {r["benchmark"] for r in results if r["round"] == latest}
    lead = [b for b in ("llama31_405b", "llama31_8b", "llama2_70b_lora", "gpt3") if b in held]
    table = [b["id"] for b in yaml.safe_load(BENCHMARKS.read_text("utf-8"))]
    expected = lead + [b for b in table if b in held and b not in lead]
    page = _home(shipped_site, lang)
    assert list(_cards(page)) == expected
    assert expected[:3] == ["llama31_405b", "llama31_8b", "llama2_70b_lora"]  # v5.1 has no gpt3
    assert latest == "v5.1" and f"MLPerf® Training {latest}" in page


@pytest.mark.parametrize("lang", LANGS)
def test_each_fastest_is_the_records_closed_minimum(shipped_site, shipped_record, lang):
    results = shipped_record
    latest = _latest_round(results)
    by_id = {r["id"]: r for r in results}
    cards = _cards(_home(shipped_site, lang))
    for benchmark, card in cards.items():
        closed = [
            r["value"]
            for r in results
            if r["round"] == latest
            and r["benchmark"] == benchmark
            and r["division"] == "closed"
            and r["category"] == "available"  # MLCommons ranks the categories apart
            and r["value"]
        ]
        first = _leader_ids(card)[0]
        assert by_id[first]["value"] == min(closed), benchmark


# Written by hand from content/data/record/results-v5.1.yaml: the smallest closed `value` of
# the benchmark (9.99455 min on 5120 GB200s; 0.40340363577863575 min on 512 GB300s, the next
# 0.42984592592592596 on 576 GB200s, 6.6 % slower: beyond the 5 % band).
PICKED = {
    "llama31_405b": ("v5.1-nvidia-hsg-ngpu5120-ngc25.09-nemo-llama31-405b", "9.99", "5,120", "NVIDIA GB200"),
    "llama2_70b_lora": (
        "v5.1-nvidia-theia-ngpu512-ngc25.09-nemo-llama2-70b-lora",
        "0.403",
        "512",
        "NVIDIA GB300",
    ),
}
NVIDIA = {"en": "NVIDIA", "zh": "英伟达", "zh-hant": "輝達"}
UNIT = {"en": " min", "zh": "分钟", "zh-hant": "分鐘"}
FASTEST = {
    "en": "Fastest Available closed-division result",
    "zh": "封闭组最快可用类成绩",
    "zh-hant": "封閉組最快可用類成績",
}
LEVEL = {
    "en": "Level: within 5%",
    "zh": "持平：与最快时间相差5%以内",
    "zh-hant": "持平：與最快時間相差5%以內",
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("bench_id", list(PICKED))
def test_hand_picked_fastest_time_scale_chip_and_links(shipped_site, lang, bench_id):
    ident, time, count, chip = PICKED[bench_id]
    card = _cards(_home(shipped_site, lang))[bench_id]
    assert _leader_ids(card) == [ident]  # one fastest: the runner-up is outside the band
    assert f'<a class="time" href="results/{ident}.html">{time}{UNIT[lang]}</a>' in card
    assert re.search(rf"{count} × <a href=\"accelerators/[a-z0-9-]+\.html\">{chip}</a>", card)
    # the submitter as the language's press writes it (data/companies.yaml)
    assert f'href="submitters/nvidia.html">{NVIDIA[lang]}</a>' in card
    assert FASTEST[lang] in card and "level" not in card
    assert f'href="benchmarks/{bench_id}/v5.1.html"' in card  # its leaderboard
    assert f'href="benchmarks/{bench_id}.html"' in card  # its page (the scale chart)


# Llama 3.1 8B in v5.1 (results-v5.1.yaml): 5.218678691019787 min (512 GB300) and
# 5.431547792998477 min (512 GB200): 4.1 % apart, within the 5 % band of a language benchmark.
LEVEL_PAIR = (
    ("v5.1-nvidia-theia-ngpu512-ngc25.09-nemo-llama31-8b", "5.22"),
    ("v5.1-nvidia-tyche-ngpu512-ngc25.09-nemo-llama31-8b", "5.43"),
)


@pytest.mark.parametrize("lang", LANGS)
def test_a_pair_within_the_noise_band_is_level(shipped_site, lang):
    card = _cards(_home(shipped_site, lang))["llama31_8b"]
    assert _leader_ids(card) == [ident for ident, _ in LEVEL_PAIR]
    for ident, time in LEVEL_PAIR:
        assert f'href="results/{ident}.html">{time}{UNIT[lang]}</a>' in card
    assert LEVEL[lang] in card and FASTEST[lang] not in card


# Where a series' benchmark id changes (benchmarks.yaml's `series`; rounds from the record's
# file names): the round of the first result under the new id; and where a version starts.
BREAKS = {
    "llama31_405b": ["v5.0"],  # gpt3 -> llama31_405b
    "flux1": ["v5.1"],  # stable_diffusion -> flux1
    "retinanet": ["v2.0", "v0.6"],  # ssd_v05 -> ssd -> retinanet
    "dlrm_dcnv2": ["v3.0", "v0.7"],  # ncf -> dlrm -> dlrm_dcnv2
    "bert": ["v1.0"],  # bert_v07 -> bert
    "resnet": ["v0.6"],  # resnet_v05 -> resnet
    "minigo": ["v0.7", "v0.6"],  # minigo_v05 -> minigo_v06 -> minigo
    "gnmt": ["v0.6"],  # gnmt_v05 -> gnmt
    # and where MLCommons' compatibility table (data/compatibility.yaml) starts a version
    "maskrcnn": ["v0.6"],  # Mask R-CNN: v0.5 | v0.6–v3.1
    "rnnt": ["v1.1"],  # RNN-T: v1.0 | v1.1–v3.1
}


def _glance(page: str) -> tuple[list[str], dict[str, list[tuple[str, str]]]]:
    """The glance table: its rounds (columns) and, per series, (round, cell HTML) pairs."""
    table = re.search(r'<table class="data glance-table">(.*?)</table>', page, re.S).group(1)
    head = re.search(r"<thead>(.*?)</thead>", table, re.S).group(1)
    rounds = re.findall(r'<th scope="col" class="num"><a [^>]+>([^<]+)</a></th>', head)
    rows = {}
    for key, row in re.findall(r'<tr data-series="([^"]+)">(.*?)</tr>', table, re.S):
        cells = re.findall(r"<td[^>]*>.*?</td>", row, re.S)
        rows[key] = list(zip(rounds, cells, strict=True))
    return rounds, rows


@pytest.mark.parametrize("lang", LANGS)
def test_the_glance_marks_a_break_where_the_benchmark_id_changes(shipped_site, shipped_record, lang):
    results = shipped_record
    rounds, rows = _glance(_home(shipped_site, lang))
    order = [r["id"] for r in yaml.safe_load((RECORD / "rounds.yaml").read_text("utf-8"))]
    assert rounds == order[::-1]  # every round, newest first
    found = {
        key: [rnd for rnd, cell in cells if 'class="num series-break"' in cell] for key, cells in rows.items()
    }
    assert {key: breaks for key, breaks in found.items() if breaks} == BREAKS
    marked = {key: [rnd for rnd, cell in cells if "‖" in cell] for key, cells in rows.items()}
    assert {key: breaks for key, breaks in marked.items() if breaks} == BREAKS
    # every benchmark of the record is in a row, linked from its row header
    headers = "".join(re.findall(r'<th scope="row">.*?</th>', _home(shipped_site, lang), re.S))
    for benchmark in {r["benchmark"] for r in results}:
        assert f'href="benchmarks/{benchmark}.html"' in headers, benchmark


def test_the_glance_cells_hold_the_shortest_closed_time(shipped_site, shipped_record):
    """ResNet-50's v0.5 cell is resnet_v05's (6.24 min: 6.2425 in results-v0.5.yaml), its v0.6
    cell resnet's; a round a series did not hold is empty."""
    results = shipped_record
    _, rows = _glance(_home(shipped_site, "en"))
    cells = dict(rows["resnet"])
    v05 = min(
        r["value"]
        for r in results
        if r["benchmark"] == "resnet_v05" and r["division"] == "closed" and r["value"]
    )
    assert round(v05, 2) == 6.24
    assert ">6.24</a>" in cells["v0.5"] and "series-break" not in cells["v0.5"]
    assert "series-break" in cells["v0.6"] and ">1.28</a>" in cells["v0.6"]
    assert cells["v5.1"] == '<td class="num"></td>'


@pytest.mark.parametrize("lang", LANGS)
def test_the_headline_chart_shows_the_current_suite_by_round(shipped_site, shipped_record, lang):
    results = shipped_record
    latest = _latest_round(results)
    current = {r["benchmark"] for r in results if r["round"] == latest}
    held = {
        (r["benchmark"], r["round"])
        for r in results
        if r["benchmark"] in current and r["division"] == "closed" and r["value"]
    }
    page = _home(shipped_site, lang)
    figure = page[page.index('id="chart-home"') : page.index('id="glance"')]
    rows = re.findall(r"<tr><td>(v[\d.]+)</td><td>([^<]+)</td>", figure)
    names = {b["id"]: b["name"]["en"] for b in yaml.safe_load(BENCHMARKS.read_text("utf-8"))}
    assert sorted((htmllib.unescape(n), r) for r, n in rows) == sorted((names[b], r) for b, r in held)
    assert "ResNet-50" not in figure and "BERT" not in figure


@pytest.mark.parametrize("lang", LANGS)
def test_three_clicks_scale_chips_and_the_explorer_are_one_click_away(shipped_site, lang):
    page = _home(shipped_site, lang)
    assert 'href="explore.html"' in page  # any selection as a link (the explorer)
    assert 'href="accelerators/index.html"' in page  # every chip family's page
    for benchmark, card in _cards(page).items():
        assert re.search(r'href="accelerators/[a-z0-9-]+\.html"', card), benchmark  # the chip's page
