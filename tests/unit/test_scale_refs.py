"""The derived-figure references of reports (derive/scale_refs.py, render/scale_refs.py) on the
shipped record. Expected values are worked out by hand from content/data/record/results-*.yaml
(the official scores), never copied from the site's output."""

import pytest

from sitegen.derive import references, scale_refs
from sitegen.derive.model import build as build_model
from sitegen.render.markup import new_markdown, render_body
from sitegen.render.page import Page

GPT3_V30_FASTEST = "v3.0-nvidia-coreweave-coreweave-hgxh100-n448-ngc23.04-pytorch-gpt3"


@pytest.fixture(scope="module")
def site(shipped_content):
    return shipped_content


def render(site, text, lang="en"):
    page = Page(site, lang, f"{lang}/reports/x.html", build_model(site), "content/reports/x.en.md", 5)
    html, _ = render_body(new_markdown, text, page, lambda *a: "")
    return html, page


def test_a_family_at_one_scale_across_rounds(site):
    # H100, 1,024 accelerators, Llama 2 70B LoRA: NVIDIA's Eos n128, 1.4936278260869564 min in
    # v4.0 and 1.1875466286799623 min in v4.1: 1.4936 / 1.1875 = 1.2577, outside the 5 % band
    found = scale_refs.compare_at_scale(
        site, "llama2_70b_lora", 1024, ("nvidia-h100", "v4.0"), ("nvidia-h100", "v4.1")
    )
    assert found.before["id"] == "v4.0-nvidia-eos-n128-ngc24.04-nemo-llama2-70b-lora"
    assert found.after["id"] == "v4.1-nvidia-eos-n128-ngc24.09-nemo-llama2-70b-lora"
    assert found.speedup == pytest.approx(1.2577, abs=1e-4)
    assert not found.level


def test_a_pair_within_the_noise_band_is_level(site):
    # H100 with 8 accelerators: NVIDIA 28.1627830667789 min (v4.0) against Supermicro's
    # 27.53634615384615 min (v4.1): 2.3 % apart, inside the 5 % of a language benchmark
    found = scale_refs.compare_at_scale(
        site, "llama2_70b_lora", 8, ("nvidia-h100", "v4.0"), ("nvidia-h100", "v4.1")
    )
    assert found.after["id"] == "v4.1-supermicro-as-8125gs-tnhr-1-llama2-70b-lora"
    assert found.speedup == pytest.approx(1.0228, abs=1e-4)
    assert found.level and found.band == 0.05


def test_a_carried_over_result_stands_for_its_family_and_copies_count_once(site):
    # H200 with 8 accelerators in v5.1: Dell's 23.369 min is the v5.0 result submitted again,
    # quicker than QCT's new 23.474 min
    best = scale_refs.family_at_scale(site, "llama2_70b_lora", "nvidia-h200", 8, "v5.1")
    assert best["id"] == "v5.1-dell-1xxe9680x8h200-sxm-141gb-llama2-70b-lora"
    # GPT-3 v4.0: 11 published results, two of them Sustainable Metal Cloud's copies (AC and DC
    # power folders of one run); NVIDIA, Google, Sustainable Metal Cloud and Intel-HabanaLabs;
    # H100, TPU v5p and Gaudi 2
    assert scale_refs.tally(site, "gpt3", "v4.0") == (9, 4, 3)
    # Llama 2 70B LoRA v4.1: 30 published, Dell's power folder a copy; Clemson's H100 result
    # (logs missing) is published and counted
    assert [(name, n) for _, name, n in scale_refs.chips_of(site, "llama2_70b_lora", "v4.1")] == [
        ("H100", 20),
        ("H200", 8),
        ("B200", 1),
    ]


def test_results_level_with_the_fastest(site):
    # GPT-3 v3.1: 3.9171666 min (NVIDIA, 10,752); Azure+NVIDIA 4.0085 (+2.3 %) and NVIDIA's
    # 10,240 at 4.0703 (+3.9 %) are level with it; 4.86575 (+24 %) is not
    level = references.level_with_fastest(site, "v3.1", "gpt3", "closed")
    assert [r["id"] for r in level] == [
        "v3.1-azure-nvidia-nd-h100-v5-n1344-pytorch-gpt3",
        "v3.1-nvidia-eos-dfw-n1280-ngc23.09-nemo-gpt3",
    ]


def test_references_render_the_figures_in_both_languages(site):
    # 10.940416666666666 min × 3,584 = 39,210.45 accelerator-minutes
    text = f"[[acc_minutes:{GPT3_V30_FASTEST}]] [[accelerators:{GPT3_V30_FASTEST}]] [[tally:gpt3/v4.0]]"
    html, page = render(site, text)
    assert page.problems == []
    assert ">39,210 accelerator-minutes</a>" in html
    assert ">3,584</a>" in html
    assert ">9 results from 4 submitters on 3 chip families</a>" in html
    html, _ = render(site, f"[[acc_minutes:{GPT3_V30_FASTEST}]]", "zh")
    assert ">39,210加速器分钟</a>" in html
    html, _ = render(site, "[[at_scale:llama2_70b_lora/8/nvidia-h100@v4.0/nvidia-h100@v4.1]]")
    assert "level (H100 in v4.1: " in html and "within ±5%" in html
    html, _ = render(site, "[[at_scale:llama2_70b_lora/1024/nvidia-h100@v4.0/nvidia-h100@v4.1]]", "zh")
    assert "速度提高到1.26倍（v4.1的H100：" in html


def test_fastest_names_the_results_level_with_it(site):
    html, page = render(site, "[[fastest:v3.1/gpt3/closed]]")
    assert page.problems == []
    assert ", level, within the ±5% run-to-run variation MLCommons states, with " in html
    assert "4.01 min</a> (Azure+NVIDIA, ND_H100_v5 x1344, 10,752 × " in html


def test_mistakes_name_the_line(site):
    _, page = render(
        site,
        "[[at_scale:gpt3/512/nvidia-h100]]\n[[at_scale:gpt3/512/nvidia-h999@v4.0/nvidia-h100@v4.1]]\n"
        "[[at_scale:gpt3/7/nvidia-h100@v4.0/nvidia-h100@v4.1]]\n[[tally:gpt3/v5.1]]",
    )
    assert [str(p) for p in page.problems] == [
        "content/reports/x.en.md:5: [[at_scale:gpt3/512/nvidia-h100]]: write "
        "<benchmark>/<accelerators>/<family>@<round>/<family>@<round>",
        "content/reports/x.en.md:6: [[at_scale:gpt3/512/nvidia-h999@v4.0/nvidia-h100@v4.1]]: "
        "no chip family 'nvidia-h999' in the record",
        "content/reports/x.en.md:7: [[at_scale:gpt3/7/nvidia-h100@v4.0/nvidia-h100@v4.1]]: the record "
        "has no scored closed result of both sides with 7 accelerators",
        "content/reports/x.en.md:8: [[tally:gpt3/v5.1]]: the record has no gpt3 result in v5.1",
    ]


def test_record_chart_blocks_check_their_fields(site):
    from sitegen.derive.chart_select import BadBlock
    from sitegen.render.charts import record_blocks

    params = {
        "metric": "family_at_scale",
        "benchmark": "llama2_70b_lora",
        "families": ["nvidia-h999"],
        "scale": 8,
    }
    with pytest.raises(BadBlock, match="^unknown chip family 'nvidia-h999'$"):
        record_blocks.family_points(build_model(site), params)
    with pytest.raises(BadBlock, match="^metric 'family_at_scale' needs 'scale: <number of accelerators>'$"):
        record_blocks.family_points(build_model(site), {**params, "scale": "eight"})
    # AMD at 8 on Llama 2 70B LoRA: MI300X 28.99 (v5.0, Dell) and 27.97 (v5.1, AMD); MI355X 10.19 (v5.1)
    points = record_blocks.family_points(
        build_model(site), {**params, "families": ["amd-mi300x", "amd-mi355x"]}
    )
    assert [(name, p["round"], p["id"]) for name, p in points] == [
        ("MI300X", "v5.0", "v5.0-dell-1xxe9680x8mi300x-llama2-70b-lora"),
        ("MI300X", "v5.1", "v5.1-amd-mi300x-epyc-9575f-pytorch-llama2-70b-llama2-70b-lora"),
        ("MI355X", "v5.1", "v5.1-amd-mi355x-epyc-9575f-pytorch-llama2-70b-lora"),
    ]
