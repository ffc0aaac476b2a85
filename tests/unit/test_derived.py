"""derive/derived.py on real results of the record (content/data/record/): each test writes the
official time and accelerator count it uses (checked against the record file, so they are the
published figures) and the figure worked out by hand from them, with the arithmetic."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import yaml

from sitegen.derive import carryover, derived

RECORD = Path(__file__).resolve().parents[2] / "content" / "data" / "record"
OTHER, VISION = {"area": "language"}, {"area": "vision"}  # benchmarks.yaml's `area`


def itself(result: dict) -> dict:
    """The original of a result that repeats no other's runs (RecordIndex.original)."""
    return result


@functools.cache
def _round(round_id: str) -> dict[str, dict]:
    text = (RECORD / f"results-{round_id}.yaml").read_text("utf-8")
    return {r["id"]: r for r in yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))}


def official(ident: str, minutes: float | None, count: int) -> dict:
    """The record's result `ident`, after checking that it holds the time and count written in
    the test (the figures the hand arithmetic starts from)."""
    result = _round(ident.split("-")[0])[ident]
    assert (result["value"], result["unit"], result["accelerator_count"]) == (minutes, "min", count)
    return result


def test_accelerator_minutes_is_time_times_accelerators():
    # AMD's MI300X on Llama 2 70B LoRA, v5.1: 27.968884483726146 min × 8 = 223.751075869809168
    amd = official("v5.1-amd-mi300x-epyc-9575f-pytorch-llama2-70b-llama2-70b-lora", 27.968884483726146, 8)
    assert derived.accelerator_minutes(amd) == pytest.approx(223.751075869809168, rel=1e-15)


def test_a_carried_over_result_keeps_its_own_figures_and_is_labelled():
    # ASUSTeK's RNN-T result of v2.1 repeats the runs of its v2.0 result (carryover.py): it is
    # labelled as carried over, and its figures are its own: 32.5342625 min × 8 = 260.2741
    before = official("v2.0-asustek-esc8000a-e11-8xa100-pcie-80gb-nvbridge-rnnt", 32.5342625, 8)
    after = official("v2.1-asustek-esc8000a-e11-8xa100-pcie-80gb-nvbridge-rnnt", 32.5342625, 8)
    assert carryover.labels([before, after]) == {
        after["id"]: {"carried_over_from": before["id"], "copy_of": None}
    }
    assert derived.accelerator_minutes(after) == pytest.approx(260.2741, rel=1e-15)


def test_no_accelerator_minutes_without_accelerators_or_a_time():
    cpu = official("v1.0-intel-1-node-4s-8380h-pytorch-dlrm", 116.62361111111112, 0)  # CPUs only
    assert derived.accelerator_minutes(cpu) is None
    assert derived.accelerator_minutes({**cpu, "value": None, "accelerator_count": 8}) is None


def test_an_hour_is_sixty_minutes():
    # no result of the record is in hours; the unit is read all the same: 1.5 h × 4 = 360
    assert derived.accelerator_minutes({"value": 1.5, "unit": "h", "accelerator_count": 4}) == 360


def test_scaling_efficiency_of_one_chip_at_two_scales():
    # NVIDIA's Eos on GPT-3, v3.1: 10,240 H100 in 4.070316666666667 min, 10,752 in
    # 3.9171666666666667 min. (t1·n1)/(t2·n2) = 41,680.04266666667 / 42,117.376 = 0.98961632...
    small = official("v3.1-nvidia-eos-dfw-n1280-ngc23.09-nemo-gpt3", 4.070316666666667, 10240)
    large = official("v3.1-nvidia-eos-dfw-n1344-ngc23.09-nemo-gpt3", 3.9171666666666667, 10752)
    assert derived.scaling_efficiency(large, small) == pytest.approx(0.98961632051, rel=1e-10)
    assert derived.scaling_efficiency(small, large) == derived.scaling_efficiency(large, small)
    with pytest.raises(ValueError, match=f"no scaling between {small['id']} and {small['id']}"):
        derived.scaling_efficiency(small, small)


def test_speedup_is_the_time_before_over_the_time_after():
    # BERT, v4.1: tinybox green (6 accelerators) 360.51649791666665 min, Krai's 2 × A5000
    # 343.08845625 min: 360.51649791666665 / 343.08845625 = 1.0507975169...
    tinybox = official("v4.1-tinycorp-tinybox-green-bert", 360.51649791666665, 6)
    krai = official("v4.1-krai-7920t-2xa5000-ssd-bert", 343.08845625, 2)
    assert derived.speedup(tinybox, krai) == pytest.approx(1.0507975169353, rel=1e-12)


def test_the_noise_band_is_the_benchmarks_area():
    assert derived.noise_band(VISION) == 0.025
    assert derived.noise_band(OTHER) == 0.05
    assert derived.noise_band({}) == 0.05


def test_a_pair_within_the_band_is_level():
    # BERT v3.0, Intel's Gaudi2 in TensorFlow and PyTorch: 14.1159625 × 1.05 = 14.821760625,
    # and 14.793685416666666 is below it
    tf = official("v3.0-intel-habanalabs-hls-gaudi2-tf-bert", 14.1159625, 8)
    pt = official("v3.0-intel-habanalabs-hls-gaudi2-pt-bert", 14.793685416666666, 8)
    assert derived.level(tf["value"], pt["value"], derived.noise_band(OTHER))
    assert derived.level(pt["value"], tf["value"], derived.noise_band(OTHER))  # either order
    # ResNet-50 v0.7, Google's TPU v3 in JAX and TensorFlow: 0.47167222222222227 × 1.025 =
    # 0.48346402777777783, and 0.48141111111111107 is below it
    jax = official("v0.7-google-tpu-v3-8192-jax-resnet", 0.47167222222222227, 4096)
    tf1 = official("v0.7-google-tpu-v3-8192-tf-resnet", 0.48141111111111107, 4096)
    assert derived.level(jax["value"], tf1["value"], derived.noise_band(VISION))


def test_a_pair_just_outside_the_band_is_not_level():
    # BERT v4.1: 343.08845625 × 1.05 = 360.2428790625, and 360.51649791666665 is above it
    krai = official("v4.1-krai-7920t-2xa5000-ssd-bert", 343.08845625, 2)
    tinybox = official("v4.1-tinycorp-tinybox-green-bert", 360.51649791666665, 6)
    assert not derived.level(krai["value"], tinybox["value"], derived.noise_band(OTHER))
    # SSD v0.7: 10.214794444444443 × 1.025 = 10.470164305555554 < 10.482155555555556 (not level
    # in the vision band); × 1.05 = 10.725534166666665 would have made it level
    nvidia = official("v0.7-nvidia-dgxa100-ngc20.06-pytorch-ssd", 10.214794444444443, 8)
    inspur = official("v0.7-inspur-nf5488-pytorch-ssd", 10.482155555555556, 8)
    assert not derived.level(nvidia["value"], inspur["value"], derived.noise_band(VISION))
    assert derived.level(nvidia["value"], inspur["value"], derived.noise_band(OTHER))


GPT3_V31 = [  # the eight fastest closed GPT-3 results of v3.1, fastest first, as published
    ("v3.1-nvidia-eos-dfw-n1344-ngc23.09-nemo-gpt3", 3.9171666666666667, 10752),
    ("v3.1-azure-nvidia-nd-h100-v5-n1344-pytorch-gpt3", 4.0085, 10752),  # / 3.9171... = 1.0233
    ("v3.1-nvidia-eos-dfw-n1280-ngc23.09-nemo-gpt3", 4.070316666666667, 10240),  # 1.0391
    ("v3.1-nvidia-eos-dfw-n1024-ngc23.09-nemo-gpt3", 4.86575, 8192),  # 1.2422: a new rank
    ("v3.1-nvidia-eos-dfw-n768-ngc23.09-nemo-gpt3", 6.027416666666666, 6144),
    ("v3.1-nvidia-eos-dfw-n512-ngc23.09-nemo-gpt3", 8.574483333333333, 4096),
    ("v3.1-nvidia-eos-n96-ngc23.09-nemo-gpt3", 40.62638333333334, 768),
    ("v3.1-google-cloud-tpu-v5e-4096-pax-gpt3", 44.68485, 4096),  # / 40.626... = 1.0999
]


def test_ranks_share_a_rank_within_the_band_of_its_leading_result():
    rows = [official(*row) for row in GPT3_V31]
    assert derived.ranks(rows, derived.noise_band(OTHER)) == [
        (1, True),
        (1, True),
        (1, True),
        (4, False),
        (5, False),
        (6, False),
        (7, False),
        (8, False),
    ]
    assert [r["id"] for r in derived.level_with_first(rows, 0.05, itself)] == [GPT3_V31[1][0], GPT3_V31[2][0]]
    # within 2.5 %: only Azure's 4.0085 (1.0233); Eos at 10,240 (1.0391) ranks third
    assert derived.ranks(rows[:3], 0.025) == [(1, True), (1, True), (3, False)]


def test_a_rank_is_measured_from_its_leading_result_not_chained():
    # Krai 343.08845625, then 1.04 × and 1.08 × that: the third is within 5 % of the second
    # (1.08 / 1.04 = 1.0385) but not of the leading one, so it starts a rank of its own
    krai = official("v4.1-krai-7920t-2xa5000-ssd-bert", 343.08845625, 2)
    rows = [
        krai,
        {**krai, "id": "b", "value": 343.08845625 * 1.04},
        {**krai, "id": "c", "value": 343.08845625 * 1.08},
    ]
    assert derived.ranks(rows, 0.05) == [(1, True), (1, True), (3, False)]


def test_results_without_a_time_are_not_level_with_anything():
    # as a leaderboard lists them: the timed results fastest first, a result without one last
    lead, azure = official(*GPT3_V31[0]), official(*GPT3_V31[1])
    rows = [lead, azure, {**lead, "id": "x", "value": None}]
    assert derived.level_with_first(rows, 0.05, itself) == [azure]
    assert derived.ranks(rows, 0.05) == [(1, True), (1, True), (3, False)]
    assert derived.level_with_first([], 0.05, itself) == []
    assert derived.level_with_first([rows[2], lead], 0.05, itself) == []


# --- a repeat of the same runs is not a second result (RecordIndex.original) -------------------


def _timed(ident: str, minutes: float) -> dict:
    return {"id": ident, "value": minutes, "unit": "min"}


def test_a_repeat_of_the_firsts_runs_is_never_level_with_it():
    # BERT's 5 % band: 10 × 1.05 = 10.5, so every time below is level with the first's 10.0.
    # "b2" repeats b's runs, "o1" and "o2" repeat o's (which is not in the list)
    a, b, b2 = _timed("a", 10.0), _timed("b", 10.2), _timed("b2", 10.1)
    o1, o2, c = _timed("o1", 10.0), _timed("o2", 10.3), _timed("c", 10.4)
    same = {"b2": b, "o1": {"id": "o"}, "o2": {"id": "o"}}

    def original(result):
        return same.get(result["id"], result)

    # the first repeated later: its repeat is no rival
    assert derived.level_with_first([b, b2, c], 0.05, original) == [c]
    # the first is the repeat: the result it repeats is no rival
    assert derived.level_with_first([b2, b, c], 0.05, original) == [c]
    # the first and a rival repeat one original: no rival
    assert derived.level_with_first([o1, o2, c], 0.05, original) == [c]
    # two rivals that are the same runs are listed once, as the original
    assert derived.level_with_first([a, b2, b, c], 0.05, original) == [b, c]
    # ... or, when neither is the original, as the first of them
    assert derived.level_with_first([a, o1, o2, c], 0.05, original) == [o1, c]


def test_entity_pages_list_a_repeat_once_on_the_shipped_record(shipped_content):
    # Figures from content/data/record/results-*.yaml (official() checks them), the runs read
    # there too: a repeat has exactly its original's runs.
    from sitegen.derive.model import build

    model = build(shipped_content)
    index = model.index

    def runs(result: dict) -> tuple:  # its run times in order, and how many runs failed
        return sorted(t for t in result["runs"] if t is not None), result["runs"].count(None)

    def listed(slug: str, best: str) -> list[str]:  # a submitter's page lists them
        entity = index.submitters[slug]
        fastest = entity.fastest(index.counts)
        assert best in [r["id"] for r in fastest]
        return [r["id"] for r in model.level_with_fastest(entity, fastest)[best][0]]

    # NVIDIA's MiniGo (±5 %): its fastest, v1.1's 15.465202083333335 min on 1,792 A100;
    # 15.465202083333335 × 1.05 = 16.23846218750 holds v1.0's 15.5314125 and v2.0's
    # 16.2307875; v2.1's 16.2307875 is v2.0's ten runs again, so it is not a third result
    minigo = [
        official("v1.1-nvidia-dgxa100-n224-ngc21.09-tensorflow-minigo", 15.465202083333335, 1792),
        official("v1.0-nvidia-dgxa100-n224-ngc21.05-tensorflow-minigo", 15.5314125, 1792),
        official("v2.0-nvidia-dgxa100-n224-ngc22.04-tensorflow-minigo", 16.2307875, 1792),
        official("v2.1-nvidia-dgxa100-n224-ngc22.04-tensorflow-minigo", 16.2307875, 1792),
    ]
    held = [runs(r) for r in minigo]
    assert held[3] == held[2] and held[1] != held[2] and held[0] not in held[1:]
    assert listed("nvidia", minigo[0]["id"]) == [minigo[1]["id"], minigo[2]["id"]]
    # NVIDIA's BERT: Eos at 3,472 H100 in 0.119275 min (v3.1), republished in v4.0 and v4.1
    # with the same ten runs: no result is level with it
    eos = [
        official(f"{r}-nvidia-eos-n434-ngc23.09-pytorch-bert", 0.119275, 3472)
        for r in ("v3.1", "v4.0", "v4.1")
    ]
    assert runs(eos[0]) == runs(eos[1]) == runs(eos[2])
    assert listed("nvidia", eos[0]["id"]) == []
    # Nebius's Llama 3.1 405B: v5.1's 120.93890666666667 min is v5.0's three runs (scored
    # 124.49593333333335 there; 120.9389 × 1.05 = 126.9859): the same runs, not a rival
    again = official("v5.1-nebius-nebius-h200-n128-llama31-405b", 120.93890666666667, 1024)
    first = official(
        "v5.0-nebius-nebius-soperator-8xh200-n128-ngc25.01-nemo-llama31-405b", 124.49593333333335, 1024
    )
    assert runs(again) == runs(first)
    assert listed("nebius", again["id"]) == []
