"""The MLPerf importer, on unchanged official logs (tests/fixtures/mlperf, from
mlcommons/training_results_v1.1) and on broken copies of them made in tmp_path."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
import yaml

from sitegen.mlperf_import import ImportSummary, MLPerfImportError, import_mlperf

FIXTURES = Path(__file__).parent / "fixtures" / "mlperf"
REFERENCE = Path("/work/shared/reference/mlperf-training")
RESNET = "v1.1/Graphcore/results/ipu-pod16-TF1/resnet"
BERT = "v1.1/NVIDIA/results/dgxa100_ngc21.09_pytorch/bert"
RESNET_ID = "v1.1-graphcore-ipu-pod16-tf1-resnet"
BERT_ID = "v1.1-nvidia-dgxa100-ngc21.09-pytorch-bert"
MAPPING = """\
v1.1/Graphcore/ipu-pod16-TF1: ipu-pod16
v1.1/NVIDIA/dgxa100_ngc21.09_pytorch: dgx-a100-640gb
"""


@pytest.fixture
def site(tmp_path):
    """A writable copy of the fixture logs, a mapping file, and where results go."""
    source = tmp_path / "mlperf"
    shutil.copytree(FIXTURES, source)
    mapping = tmp_path / "mlperf_systems.yaml"
    mapping.write_text(MAPPING, encoding="utf-8")
    return source, tmp_path / "results.yaml", mapping


def run_import(site) -> ImportSummary:
    return import_mlperf(*site)


def records(results: Path) -> dict[str, dict]:
    return {r["id"]: r for r in yaml.safe_load(results.read_text(encoding="utf-8"))}


def import_error(site) -> MLPerfImportError:
    with pytest.raises(MLPerfImportError) as info:
        run_import(site)
    return info.value


# --- an independent computation of MLPerf's score, straight from the logs -------------------

def run_of(log: Path) -> tuple[float, bool]:
    """(minutes from run_start to run_stop, whether the run stopped with success)."""
    events = {}
    for line in log.read_text(encoding="latin-1").splitlines():
        if ":::MLLOG " in line:
            event = json.loads(line.split(":::MLLOG ", 1)[1])
            events.setdefault(event["key"], event)
    start, stop = events["run_start"], events["run_stop"]
    return (stop["time_ms"] - start["time_ms"]) / 60000, stop["metadata"]["status"] == "success"


def expected_score(folder: Path) -> float:
    """Failed runs are the slowest; drop the fastest and the slowest; average the rest."""
    runs = [run_of(log) for log in sorted(folder.glob("result_*.txt"))]
    times = sorted(minutes if ok else math.inf for minutes, ok in runs)
    middle = times[1:-1]
    return sum(middle) / len(middle)


# --- scores and fields ----------------------------------------------------------------------

def test_scores_are_mlperf_scores(site):
    run_import(site)
    got = records(site[1])
    for result_id, folder, pinned in ((RESNET_ID, RESNET, 28.33), (BERT_ID, BERT, 20.0)):
        assert got[result_id]["value"] == round(expected_score(FIXTURES / folder), 2) == pinned


def test_runs_are_listed_in_result_order_with_failures_counted(site):
    run_import(site)
    resnet = records(site[1])[RESNET_ID]
    assert resnet["runs"] == [29.515, 28.331, 28.333, 28.339, 28.332]
    assert resnet["runs_failed"] == 1  # result_0 stopped "aborted"
    assert records(site[1])[BERT_ID]["runs_failed"] == 0
    assert len(records(site[1])[BERT_ID]["runs"]) == 10


def test_record_has_the_documented_fields(site):
    assert run_import(site) == ImportSummary(added=2, updated=0, unchanged=0)
    assert records(site[1])[RESNET_ID] == {
        "id": RESNET_ID, "round": "v1.1", "division": "closed", "category": "available",
        "system": "ipu-pod16", "benchmark": "resnet", "value": 28.33, "unit": "min",
        "framework": "TensorFlow 1.15 Poplar SDK 2.3.0", "submission_id": None,
        "source": "mlperf-training-v1.1", "accelerator_model": "Graphcore IPU GC200",
        "accelerator_count": 16, "host_cpu": {"model": "AMD EPYC 7742", "count": 2},
        "submitter": "Graphcore", "system_folder": "ipu-pod16-TF1",
        "runs": [29.515, 28.331, 28.333, 28.339, 28.332], "runs_failed": 1,
    }
    nvidia = records(site[1])[BERT_ID]
    assert (nvidia["system"], nvidia["accelerator_count"]) == ("dgx-a100-640gb", 8)


def test_a_single_round_folder_is_imported_too(site):
    source, results, mapping = site
    import_mlperf(source / "v1.1", results, mapping)
    assert sorted(records(results)) == [RESNET_ID, BERT_ID]


def test_console_noise_before_mllog_is_ignored(site):
    for log in (site[0] / BERT).glob("result_*.txt"):
        lines = log.read_text(encoding="latin-1").splitlines(keepends=True)
        log.write_text("".join("[1,0]<stdout>:" + line for line in lines), encoding="latin-1")
    run_import(site)
    assert records(site[1])[BERT_ID]["value"] == 20.0


# --- idempotence and curated fields ---------------------------------------------------------

def test_importing_twice_changes_nothing(site):
    run_import(site)
    first = site[1].read_bytes()
    assert run_import(site) == ImportSummary(added=0, updated=0, unchanged=2)
    assert site[1].read_bytes() == first
    assert first.startswith(b"# MLPerf Training results: written by the importer")
    ids = [r["id"] for r in yaml.safe_load(first)]
    assert ids == sorted(ids)


def test_curated_fields_and_other_records_survive(site):
    run_import(site)
    data = yaml.safe_load(site[1].read_text(encoding="utf-8"))
    resnet = next(r for r in data if r["id"] == RESNET_ID)
    resnet.update(submission_id="1.1-2040", value=1.0,
                  note={"en": "One run aborted.", "zh": "一次运行中止。"}, reviewed_by="lead")
    data.append({"id": "v0.7-hand-made-resnet", "value": 42})
    site[1].write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert run_import(site) == ImportSummary(added=0, updated=1, unchanged=1)
    got = records(site[1])
    assert got[RESNET_ID]["value"] == 28.33  # imported fields are the logs' again
    assert got[RESNET_ID]["submission_id"] == "1.1-2040"
    assert got[RESNET_ID]["note"] == {"en": "One run aborted.", "zh": "一次运行中止。"}
    assert got[RESNET_ID]["reviewed_by"] == "lead"
    assert got["v0.7-hand-made-resnet"] == {"id": "v0.7-hand-made-resnet", "value": 42}
    assert "一次运行中止" in site[1].read_text(encoding="utf-8")  # allow_unicode


# --- failed runs ----------------------------------------------------------------------------

def set_status(log: Path, status: str) -> None:
    text = log.read_text(encoding="latin-1")
    assert text.count('"status": "success"') == 1
    log.write_text(text.replace('"status": "success"', f'"status": "{status}"'), encoding="latin-1")


def test_a_failed_run_counts_as_the_slowest(site):
    # result_2 (17.677 min) is the fastest run; failed, it becomes the slowest, so the score
    # drops the next fastest (17.804) and result_2, and averages the other eight: 20.597.
    set_status(site[0] / BERT / "result_2.txt", "aborted")
    run_import(site)
    bert = records(site[1])[BERT_ID]
    assert bert["value"] == round(expected_score(site[0] / BERT), 2) == 20.6
    assert bert["runs_failed"] == 1
    assert bert["runs"][2] == 17.677


def test_too_many_failed_runs_is_an_error(site):
    set_status(site[0] / RESNET / "result_1.txt", "aborted")  # result_0 already aborted
    error = import_error(site)
    assert [(p, line) for p, line, _ in error.problems] == [(site[0] / RESNET, None)]
    assert "2 of 5 runs" in str(error)
    assert not site[1].exists()


def test_too_few_runs_is_an_error(site):
    (site[0] / RESNET / "result_4.txt").unlink()
    assert "4 run log(s); resnet needs 5" in str(import_error(site))


# --- errors name the file (and the line) ----------------------------------------------------

def test_malformed_mllog_line_names_file_and_line(site):
    log = site[0] / BERT / "result_3.txt"
    lines = log.read_text(encoding="latin-1").splitlines(keepends=True)
    lines[9] = lines[9].replace("}", "", 1)  # line 10 loses a closing brace
    log.write_text("".join(lines), encoding="latin-1")
    error = import_error(site)
    assert [(p, line) for p, line, _ in error.problems] == [(log, 10)]
    assert f"{log}:10: malformed :::MLLOG line" in str(error)


def test_missing_run_stop_names_the_file(site):
    log = site[0] / RESNET / "result_2.txt"
    lines = log.read_text(encoding="latin-1").splitlines(keepends=True)
    log.write_text("".join(x for x in lines if '"key": "run_stop"' not in x), encoding="latin-1")
    error = import_error(site)
    assert error.problems == [(log, None, "no run_stop event in the log")]


def test_unmapped_system_names_its_json_and_the_mapping_file(site):
    site[2].write_text(MAPPING.splitlines()[0] + "\n", encoding="utf-8")
    error = import_error(site)
    json_file = site[0] / "v1.1/NVIDIA/systems/dgxa100_ngc21.09_pytorch.json"
    assert [p for p, _, _ in error.problems] == [json_file]
    assert "add a line 'v1.1/NVIDIA/dgxa100_ngc21.09_pytorch: <site system id>'" in str(error)
    assert str(site[2]) in str(error)


def test_missing_system_json_is_an_error(site):
    json_file = site[0] / "v1.1/Graphcore/systems/ipu-pod16-TF1.json"
    json_file.unlink()
    error = import_error(site)
    assert [p for p, _, _ in error.problems] == [json_file]
    assert "system description missing" in str(error)


def test_division_disagreement_names_the_log(site):
    json_file = site[0] / "v1.1/Graphcore/systems/ipu-pod16-TF1.json"
    desc = json.loads(json_file.read_text(encoding="utf-8"))
    json_file.write_text(json.dumps({**desc, "division": "open"}), encoding="utf-8")
    error = import_error(site)
    logs = sorted((site[0] / RESNET).glob("result_*.txt"))
    assert [p for p, _, _ in error.problems] == logs
    assert "submission_division 'closed' disagrees with division 'open'" in str(error)


def test_all_problems_of_a_run_are_reported_together(site):
    site[2].write_text(MAPPING.splitlines()[1] + "\n", encoding="utf-8")  # Graphcore unmapped
    log = site[0] / BERT / "result_0.txt"
    log.write_text(log.read_text(encoding="latin-1") + ":::MLLOG {oops\n", encoding="latin-1")
    error = import_error(site)
    assert len(error.problems) == 2
    assert str(error).count("\n") == 1  # one line per problem


def test_bad_mapping_lines_are_reported_with_their_line(site):
    site[2].write_text(MAPPING + "v1.1/NVIDIA/dgxa100_ngc21.09_pytorch: DGX A100\n", encoding="utf-8")
    error = import_error(site)
    assert (site[2], 3) in [(p, line) for p, line, _ in error.problems]


# --- the real reference data, when this machine has it --------------------------------------

@pytest.mark.skipif(not REFERENCE.is_dir(), reason="reference MLPerf logs not available")
def test_reference_scores_match_the_published_figures(tmp_path):
    mapping = Path(__file__).parents[1] / "content" / "data" / "mlperf_systems.yaml"
    import_mlperf(REFERENCE, tmp_path / "results.yaml", mapping)
    got = {k: r["value"] for k, r in records(tmp_path / "results.yaml").items()}
    assert got["v1.0-graphcore-ipu-pod16-tf1-resnet"] == 37.12
    assert got["v1.1-graphcore-ipu-pod16-tf1-resnet"] == 28.33
    assert got["v1.1-graphcore-ipu-pod128-tf1-resnet"] == 5.67
    assert got["v1.1-graphcore-ipu-pod256-tf1-resnet"] == 3.79
    assert got["v1.0-nvidia-dgxa100-ngc21.05-mxnet-resnet"] == 28.77
    assert got["v1.1-nvidia-dgxa100-ngc21.09-mxnet-resnet"] == 29.15
