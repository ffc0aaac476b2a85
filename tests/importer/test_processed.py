"""What each run of a large-language-model result processed (sitegen/importer/processed.py):
read from real log lines of the official repositories (copied verbatim, each named with its
file and commit), and from a hand-written log whose throughput is computed here by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.derive import throughput
from sitegen.importer.logs import parse_run
from sitegen.importer.processed import add_counts, processed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "throughput"

# mlcommons/training_results_v3.0 @ 63e326c400f5d8bb8c6070a9ab08332d4931152e,
# Intel-HabanaLabs/results/HLS-Gaudi2-N32-PT/gpt3/result_0.txt (its lines 13, 102, 105, 110 of
# the MLLOG lines; the file paths in the metadata shortened to "f" changes no key read here)
GPT3 = b"""\
:::MLLOG {"namespace": "", "time_ms": 1683756391087, "event_type": "POINT_IN_TIME", "key": "max_sequence_length", "value": 2048, "metadata": {"file": "f", "lineno": 177}}
:::MLLOG {"namespace": "", "time_ms": 1683756550845, "event_type": "INTERVAL_START", "key": "run_start", "value": null, "metadata": {"file": "f", "lineno": 196}}
:::MLLOG {"namespace": "", "time_ms": 1683781965703, "event_type": "POINT_IN_TIME", "key": "eval_accuracy", "value": 2.6905205249786377, "metadata": {"file": "f", "lineno": 1369, "epoch_num": 1107296256}}
:::MLLOG {"namespace": "", "time_ms": 1683783105470, "event_type": "POINT_IN_TIME", "key": "eval_accuracy", "value": 2.6892430782318115, "metadata": {"file": "f", "lineno": 1369, "epoch_num": 1157627904}}
:::MLLOG {"namespace": "", "time_ms": 1683783105526, "event_type": "INTERVAL_END", "key": "run_stop", "value": null, "metadata": {"file": "f", "lineno": 1152, "status": "success"}}
"""
# mlcommons/training_results_v5.1 @ 441d65f4445cd59687466533fd9f55399136e7a4,
# AMD/results/MI350X_EPYC_9575F_pytorch/llama31_8b/result_0.txt: run_stop counts 172,032,
# the last eval_accuracy 172,000 (the rules' convergence point is the eval_accuracy's)
LLAMA8B = b"""\
:::MLLOG {"namespace": "", "time_ms": 1759966714693, "event_type": "POINT_IN_TIME", "key": "max_sequence_length", "value": 8192, "metadata": {"file": "/workspace/code/src/callbacks.py", "lineno": 341}}
:::MLLOG {"namespace": "", "time_ms": 1759966714694, "event_type": "INTERVAL_START", "key": "run_start", "value": null, "metadata": {"file": "/workspace/code/src/callbacks.py", "lineno": 344}}
:::MLLOG {"namespace": "", "time_ms": 1759973276001, "event_type": "POINT_IN_TIME", "key": "eval_accuracy", "value": 3.3201956748962402, "metadata": {"file": "/workspace/code/src/callbacks.py", "lineno": 128, "epoch_num": 159712, "samples_count": 159712}}
:::MLLOG {"namespace": "", "time_ms": 1759973779684, "event_type": "POINT_IN_TIME", "key": "eval_accuracy", "value": 3.2966725826263428, "metadata": {"file": "/workspace/code/src/callbacks.py", "lineno": 128, "epoch_num": 172000, "samples_count": 172000}}
:::MLLOG {"namespace": "", "time_ms": 1759973779685, "event_type": "INTERVAL_END", "key": "run_stop", "value": null, "metadata": {"file": "/workspace/code/src/callbacks.py", "lineno": 296, "samples_count": 172032, "status": "success", "duration": "7064.9917685985565 sec -> 117.74986280997594 minutes"}}
"""
# mlcommons/training_results_v4.0 @ 6fe954378efe4a1a1bd665550b18ff8f26018def,
# ASUSTeK/results/ESC_N8A-E12/llama2_70b_lora/result_0.txt (no max_sequence_length line)
LORA = b"""\
:::MLLOG {"namespace": "", "time_ms": 1715849859098, "event_type": "POINT_IN_TIME", "key": "eval_accuracy", "value": 0.9277553558349609, "metadata": {"file": "/workspace/ft-llm/custom_callbacks.py", "lineno": 181, "samples_count": 2688}}
:::MLLOG {"namespace": "", "time_ms": 1715850093688, "event_type": "POINT_IN_TIME", "key": "eval_accuracy", "value": 0.9232596755027771, "metadata": {"file": "/workspace/ft-llm/custom_callbacks.py", "lineno": 181, "samples_count": 3072}}
:::MLLOG {"namespace": "", "time_ms": 1715850093688, "event_type": "INTERVAL_END", "key": "run_stop", "value": 0.9232596755027771, "metadata": {"file": "/workspace/ft-llm/custom_callbacks.py", "lineno": 195, "samples_count": 3072, "status": "success"}}
"""


def test_gpt3_counts_tokens_and_samples_are_whole_sequences_of_2048():
    # the rules: GPT-3 reports "Training token starting from 0"; 1,157,627,904 / 2,048 = 565,248
    assert processed(GPT3, "gpt3", True) == (565248, 1157627904, "")


def test_llama31_counts_samples_at_the_last_eval_accuracy_before_run_stop():
    # 172,000 samples x 8,192 tokens (the rules' sequence length, as the log states it)
    assert processed(LLAMA8B, "llama31_8b", True) == (172000, 1409024000, "")


def test_lora_has_samples_and_no_tokens():
    assert processed(LORA, "llama2_70b_lora", True) == (3072, None, "")


def test_a_failed_run_has_no_count():
    assert processed(LLAMA8B, "llama31_8b", False) == (None, None, "")


def test_a_sequence_length_other_than_the_rules_keeps_only_what_the_log_counted():
    other = LLAMA8B.replace(b'"value": 8192', b'"value": 4096')
    assert processed(other, "llama31_8b", True) == (
        172000,
        None,
        "max_sequence_length 4096 is not the rules' 8192",
    )
    gpt3 = GPT3.replace(b'"value": 2048', b'"value": 1024')
    assert processed(gpt3, "gpt3", True) == (
        None,
        1157627904,
        "max_sequence_length 1024 is not the rules' 2048",
    )


def test_a_log_without_the_count_is_noted():
    no_eval = b"\n".join(line for line in LORA.splitlines() if b"eval_accuracy" not in line)
    record = {"benchmark": "llama2_70b_lora", "path": "X/results/s/llama2_70b_lora", "runs": [1.0]}
    notes = add_counts(record, [no_eval], ["X/results/s/llama2_70b_lora/result_0.txt"])
    assert record["run_samples"] == [None] and "run_tokens" not in record
    assert notes == [
        "X/results/s/llama2_70b_lora/result_0.txt: processed count not recorded: "
        "no samples_count on an eval_accuracy line before run_stop"
    ]


def test_other_benchmarks_get_no_counts():
    record = {"benchmark": "bert", "path": "p", "runs": [1.0]}
    assert add_counts(record, [LORA], ["p/result_0.txt"]) == [] and "run_samples" not in record


def test_throughput_of_a_hand_written_log_computed_by_hand():
    data = (FIXTURES / "tiny_run.txt").read_bytes()
    run = parse_run(data)
    assert run.minutes == 10.0  # run_stop 600,000 ms after run_start
    record = {"benchmark": "llama31_8b", "path": "p", "runs": [run.minutes] * 3, "value": 10.0}
    assert add_counts(record, [data] * 3, ["p/result_0.txt"] * 3) == []
    assert record["run_samples"] == [12000] * 3 and record["run_tokens"] == [12000 * 8192] * 3
    record["accelerator_count"] = 8
    # 12,000 samples in 600 s on 8 accelerators: 12,000 / 4,800 = 2.5 samples/s; tokens x 8,192
    assert throughput.rates(record) == throughput.Rates(2.5, 20480.0)


@pytest.mark.parametrize("benchmark", ["gpt3", "llama31_405b"])
def test_other_bytes_than_mllog_give_no_count(benchmark):
    assert processed(b"no log here", benchmark, True).samples is None
