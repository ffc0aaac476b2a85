"""Chip pages (derive/chip_figures.py, render/record/chip_page.py, content/chip_facts.py): the
figures a chip family's page shows, checked against official times written here by hand from
content/data/record/ (never from the generator's own output), and the facts chips.yaml adds
(generation lines, specifications with sources), whose mistakes are reported at their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.base.errors import ContentError
from sitegen.content.load import load_site
from sitegen.derive import chip_figures
from sitegen.derive.model import build as build_model
from sitegen.derive.record_index import index_of
from sitegen.render.record import lists
from sitegen.render.theme import Strings, load_theme

from project import TEMPLATES
from record_sample import CHIPS, write_record_project

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shipped():
    site = load_site(ROOT / "content")
    return site, index_of(site), list(site.rounds)


def _series(shipped, family: str, benchmark: str, scale: int) -> dict:
    site, index, rounds = shipped
    found = chip_figures.progress(index.accelerators[family], index, rounds)
    return next(s for s in found if s["benchmark"] == benchmark and s["scale"] == scale)


def _page(shipped, family: str, lang: str) -> str:
    site, index, _ = shipped
    files = lists.entity_pages(
        load_theme(TEMPLATES), site, lang, Strings(site, lang), build_model(site), "accelerators", family
    )
    return files[f"{lang}/accelerators/{family}.html"].decode("utf-8")


# --- figures from the shipped record ------------------------------------------------------------


def test_progress_at_8_accelerators_is_the_first_rounds_time_over_the_latest(shipped):
    # MI300X, Llama 2 70B LoRA, 8 accelerators, closed: the fastest of v5.0 is Dell's
    # 1xXE9680x8MI300X, 28.99181942997685 min (results-v5.0.yaml); of v5.1, AMD's SMCI300X,
    # 27.968884483726146 min (results-v5.1.yaml).
    series = _series(shipped, "amd-mi300x", "llama2_70b_lora", 8)
    assert [(p["round"], p["result"]["id"]) for p in series["points"]] == [
        ("v5.0", "v5.0-dell-1xxe9680x8mi300x-llama2-70b-lora"),
        ("v5.1", "v5.1-amd-mi300x-epyc-9575f-pytorch-llama2-70b-llama2-70b-lora"),
    ]
    assert series["gain"]["speedup"] == pytest.approx(28.99181942997685 / 27.968884483726146)
    assert round(series["gain"]["speedup"], 4) == 1.0366  # 3.7 % faster: within the ±5 % band


def test_a_carried_over_best_is_drawn_but_never_counted_as_a_gain(shipped):
    # H200, Llama 2 70B LoRA, 8 accelerators: v4.0 24.689164583333334 min (NVIDIA), v4.1
    # 23.062048076923077 (Lenovo), v5.0 23.080718677662034 (Supermicro); the fastest of v5.1,
    # Dell's 23.36872488603989 min, repeats the runs of Dell's v5.0 result (the same time).
    series = _series(shipped, "nvidia-h200", "llama2_70b_lora", 8)
    assert [(p["round"], p["carried"]) for p in series["points"]] == [
        ("v4.0", None),
        ("v4.1", None),
        ("v5.0", None),
        ("v5.1", "v5.0"),
    ]
    assert series["points"][-1]["result"]["value"] == 23.36872488603989
    gain = series["gain"]
    assert (gain["first"]["round"], gain["last"]["round"]) == ("v4.0", "v5.0")  # not v5.1
    assert gain["speedup"] == pytest.approx(24.689164583333334 / 23.080718677662034)  # 1.0697


def test_scaling_efficiency_within_a_round(shipped):
    # MI300X, Llama 2 70B LoRA, v5.0: the fastest at 8 accelerators 28.99181942997685 min, at
    # 32 MangoBoost's 10.918995925925925 min: (28.99181942997685 × 8) / (10.918995925925925 × 32)
    site, index, rounds = shipped
    rows = chip_figures.scaling(index.accelerators["amd-mi300x"], index, rounds)
    row = next(r for r in rows if r["round"] == "v5.0")
    assert (row["small"]["accelerator_count"], row["large"]["accelerator_count"]) == (8, 32)
    assert row["efficiency"] == pytest.approx((28.99181942997685 * 8) / (10.918995925925925 * 32))
    assert round(row["efficiency"], 3) == 0.664


def test_generation_against_generation_at_equal_scale(shipped):
    # MI300X -> MI325X (chips.yaml), Llama 2 70B LoRA at 8 accelerators: the MI300X's fastest in
    # any round is v5.1's 27.968884483726146 min; the MI325X's, MangoBoost's v5.1
    # 20.738189482060186 min: the newer is 27.968884483726146 / 20.738189482060186 = 1.349× faster
    site, index, rounds = shipped
    older, newer = index.accelerators["amd-mi300x"], index.accelerators["amd-mi325x"]
    rows = chip_figures.generation(older, newer, index, rounds, older_first=True)
    at8 = next(r for r in rows if r["scale"] == 8)
    assert (at8["own"]["round"], at8["other"]["id"]) == (
        "v5.1",
        "v5.1-mangoboost-mi325x-llmboost-gpuboost-1node-llama2-70b-lora",
    )
    assert at8["speedup"] == pytest.approx(27.968884483726146 / 20.738189482060186)
    back = chip_figures.generation(newer, older, index, rounds, older_first=False)
    assert next(r for r in back if r["scale"] == 8)["speedup"] == at8["speedup"]  # either page


def test_the_generation_lines_of_chips_yaml(shipped):
    site, _, _ = shipped
    facts = site.tables["chip_families"]
    line = ["nvidia-a100"]
    while facts[line[-1]]["next"]:
        line.append(
            next(
                k
                for k in facts[line[-1]]["next"]
                if k in ("nvidia-h100", "nvidia-b200", "nvidia-gb200", "nvidia-gb300")
            )
        )
    assert line == ["nvidia-a100", "nvidia-h100", "nvidia-b200", "nvidia-gb200", "nvidia-gb300"]
    assert (
        facts["nvidia-h200"]["follows"] == "nvidia-h100" and facts["nvidia-b300"]["follows"] == "nvidia-b200"
    )
    assert facts["amd-mi325x"]["next"] == ["amd-mi350x", "amd-mi355x"]
    assert facts["google-trillium"]["follows"] == "google-tpu-v5p"
    assert facts["google-tpu-v5p"]["follows"] == "google-tpu-v4"


# --- the pages ---------------------------------------------------------------------------------


def test_the_mi300x_page_states_its_figures_as_derived(shipped):
    page = _page(shipped, "amd-mi300x", "en")
    assert "<dt>First round</dt><dd><a" in page and ">v5.0</a></dd>" in page
    assert "1.04× (v5.0 → v5.1) <span class=\"note\">level (within ±5.0%)</span>" in page
    assert "Speed-up of the MI325X (derived)" in page and ">1.35×</td>" in page
    assert ">66.4%</td>" in page  # the scaling efficiency above
    assert "Specifications" not in page  # no source states the MI300X's figures here
    hant = _page(shipped, "amd-mi300x", "zh-hant")
    assert ">1.35倍</td>" in hant and "MI325X的加速比（推算）" in hant


def test_a_carried_over_best_is_marked_on_the_page(shipped):
    page = _page(shipped, "nvidia-h200", "en")
    assert "1.07× (v4.0 → v5.0)" in page
    assert "(carried over from v5.0)" in page


def test_specifications_name_their_source(shipped):
    page = _page(shipped, "google-tpu-v4", "en")
    assert "<th scope=\"row\">Peak dense 16-bit compute</th><td class=\"num\">275 TFLOP/s" in page
    assert '<a href="https://cloud.google.com/tpu/docs/v4">TPU v4 (Cloud TPU documentation)</a>' in page


def test_the_index_counts_a_copy_once(shipped):
    # H100: 543 results in the record, 19 of them copies of another result of their round
    site, index, _ = shipped
    assert len(index.accelerators["nvidia-h100"].results) == 543
    page = lists.entity_index(
        load_theme(TEMPLATES), site, "en", Strings(site, "en"), build_model(site), "accelerators"
    )
    text = page["en/accelerators/index.html"].decode("utf-8")
    assert 'H100</a></th><td class="num answer" data-value="524">524</td>' in text


def test_a_familys_variants_add_up_to_its_total(shipped):
    # One counting rule (a copy once) for the family's total and each variant's count: the
    # variants listed under a family add up to the total shown beside them, for every family.
    site, index, _ = shipped
    for family, entity in index.accelerators.items():
        counted = [r for r in entity.results if not index.copy_of(r)]
        assert entity.count == len(counted), family
        if entity.variants:
            assert sum(v["count"] for v in entity.variants) == len(counted), family
    assert index.accelerators["nvidia-h100"].count == 524  # 543 results, 19 copies


# --- mistakes in chips.yaml's facts ----------------------------------------------------------


@pytest.mark.parametrize(
    "change, message",
    [
        (
            ("    - family: B9\n", "    - family: B9\n      follows: A1\n"),
            "content/data/chips.yaml:11: family 'B9' follows 'A1', which is no other family of vendor "
            "'bigco' (its families: B9)",
        ),
        (
            (
                "    - family: A1\n",
                "    - family: A1\n      specs:\n        - {name: memory, value: 80, unit: GB, source: s-nowhere}\n",
            ),
            "content/data/chips.yaml:5: family 'A1', figure 'memory': source 's-nowhere' is not in "
            "content/data/sources.yaml",
        ),
        (
            (
                "    - family: A1\n",
                "    - family: A1\n      specs:\n        - {name: power, value: 700, unit: kW, source: s-official}\n",
            ),
            "content/data/chips.yaml:5: family 'A1', figure 'power': needs 'value' and 'unit' (W)",
        ),
        (
            (
                "    - family: A1\n",
                "    - family: A1\n      specs:\n        - {name: launched, value: 2020, source: s-official}\n",
            ),
            "content/data/chips.yaml:5: family 'A1', figure 'launched': needs 'date' (YYYY-MM-DD) and no "
            "'value'",
        ),
    ],
)
def test_a_wrong_fact_is_reported_at_its_line(tmp_path, change, message):
    content = write_record_project(tmp_path, {"data/chips.yaml": CHIPS.replace(*change)})
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert str(error.value) == message


def test_two_next_generations_share_one_row(shipped):
    """chips.yaml has both the H200 and the B200 follow the H100: one "Next generation" row
    names both, in each language's list separator."""
    page = _page(shipped, "nvidia-h100", "en")
    assert page.count("<dt>Next generation</dt>") == 1
    assert (
        '<dt>Next generation</dt><dd><a href="nvidia-h200.html">H200</a>, <a href="nvidia-b200.html">B200</a></dd>'
        in page
    )
    hant = _page(shipped, "nvidia-h100", "zh-hant")
    assert hant.count("<dt>下一代</dt>") == 1 and ">H200</a>、<a" in hant
