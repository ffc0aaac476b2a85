"""Throughput per accelerator (sitegen/derive/throughput.py, questions.throughput_figure):
expected values computed by hand from the rule the methodology states (each run's count ÷ its
time in seconds × accelerators; the mean over the runs the time score keeps)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.base.errors import Problems
from sitegen.content import record as record_module
from sitegen.derive import throughput
from sitegen.derive.questions import throughput_figure, throughput_unit


def lora(**changes) -> dict:
    """Five runs, one failed, on 4 accelerators. By time the score drops the fastest (8 min)
    and counts the failed run as the slowest: it keeps the runs of 10, 12 and 11 minutes."""
    result = {
        "id": "v5.0-x-lora",
        "round": "v5.0",
        "benchmark": "llama2_70b_lora",
        "accelerator_count": 4,
        "value": 11.0,
        "runs": [10.0, 12.0, 8.0, None, 11.0],
        "run_samples": [3000, 4320, 9600, None, 2640],
    }
    return {**result, **changes}


def test_kept_runs_are_the_time_scores():
    assert throughput.kept_runs(lora()) == [0, 1, 4]


def test_samples_per_second_per_accelerator_by_hand():
    # 3000 / (600 s x 4) = 1.25; 4320 / (720 x 4) = 1.5; 2640 / (660 x 4) = 1.0; the 8-minute
    # run (9600 / 1920 = 5.0) is dropped as the score drops it: mean (1.25 + 1.5 + 1.0) / 3
    assert throughput.rates(lora()) == throughput.Rates(1.25, None)


def test_gpt3_tokens_and_samples_by_hand():
    result = {
        "id": "v4.0-x-gpt3",
        "round": "v4.0",
        "benchmark": "gpt3",
        "accelerator_count": 512,
        "value": 50.0,
        "runs": [50.0, 40.0, 60.0],  # three runs: the median (50 min) is kept
        "run_samples": [614400, 1, 1],
        "run_tokens": [1258291200, 1, 1],
    }
    rates = throughput.rates(result)
    assert rates.tokens == pytest.approx(1258291200 / (3000 * 512))  # 819.2 tokens/s
    assert rates.samples == pytest.approx(614400 / (3000 * 512))  # 0.4 samples/s
    assert rates.tokens == pytest.approx(819.2) and rates.samples == pytest.approx(0.4)


def test_no_throughput_without_a_score_counts_or_accelerators():
    assert throughput.rates(lora(value=None)) is None  # too few logs / logs missing
    assert throughput.rates(lora(run_samples=None)) is None  # not an LLM benchmark
    assert throughput.rates(lora(accelerator_count=0)) is None
    assert throughput.rates(lora(run_samples=[3000, None, 9600, None, 2640])) is None  # a kept run lacks it


def test_the_figure_is_labelled_derived_with_its_basis():
    found = throughput_figure(lora())
    assert found.tokens is None and found.samples.value == 1.25
    assert found.samples.label == "throughput.label" and found.samples.basis == "throughput.samples_basis"
    assert found.samples.section == "throughput" and found.samples.inputs == ("v5.0-x-lora",)
    assert found.shown is found.samples and found.unit == "samples"
    assert throughput_unit([None, found]) == "samples" and throughput_unit([None]) is None


def test_the_labels_say_derived_not_an_mlperf_score():
    import yaml

    i18n = Path(__file__).resolve().parents[2] / "content" / "i18n"
    en = yaml.safe_load((i18n / "en.yaml").read_text("utf-8"))
    zh = yaml.safe_load((i18n / "zh.yaml").read_text("utf-8"))
    assert en["throughput.label"] == "Derived by this site, not an MLPerf® score."
    assert zh["throughput.label"] == "此数由本站推算，并非MLPerf®成绩。"


def check(**changes) -> list[str]:
    problems = Problems(Path("."))
    record = {"id": "r", "runs": [1.0, None, 2.0], **changes}
    for field in ("run_samples", "run_tokens"):
        record_module._check_counts(Path("results-v5.0.yaml"), record, field, problems)
    return [p.message for p in problems.items]


def test_the_build_checks_one_count_per_run_and_none_for_a_failed_run():
    assert check(run_samples=[1, None, 2], run_tokens=[8192, None, 16384]) == []
    assert check(run_samples=[1, 2]) == [
        "record 'r': run_samples lists 2 counts for 3 runs: one per run, in the order of runs"
    ]
    assert check(run_tokens=[1, 2, 3]) == ["record 'r': run_tokens counts run 2, which has no time"]
