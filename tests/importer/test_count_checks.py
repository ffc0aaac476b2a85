"""Accelerator counts checked against the logs (sitegen/importer/counts.py, count_report.py)
and the build's warning about a disagreement no curated correction covers.

The fixture: v1.1's NVIDIA DGX A100 BERT folder (description: 1 node x 8 GPUs; logs:
submission_platform `1xNVIDIA DGX A100`) copied twice. `pod` has a description of the whole
pod (4 nodes x 8 = 32) while its logs, unchanged, ran on one node: by hand, the platform's
1 node x 8 GPUs a node = 8, and the `WORLD_SIZE 8` lines added to its logs say 8 too. The
original folder gets the same `WORLD_SIZE 8` lines and agrees with its description (8)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from sitegen.base.errors import Problems
from sitegen.content import record_counts
from sitegen.importer import count_report
from sitegen.importer.counts import disagreement, log_claims
from sitegen.importer.run import import_record

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "record"
BERT = "NVIDIA/results/dgxa100_ngc21.09_pytorch/bert"
POD = "NVIDIA/results/dgxa100_pod/bert"
RANKS = b"RANK 0: LOCAL_RANK 0, WORLD_SIZE 8, SLURM_NTASKS 8\n"


def pod_round(tmp_path: Path) -> Path:
    root = tmp_path / "training_results_v1.1"
    shutil.copytree(FIX / "training_results_v1.1", root)
    for log in (root / BERT).glob("result_*.txt"):
        log.write_bytes(RANKS + log.read_bytes())
    shutil.copytree(root / BERT, root / POD)
    desc = json.loads((root / "NVIDIA/systems/dgxa100_ngc21.09_pytorch.json").read_text())
    desc.update(system_name="dgxa100_pod", number_of_nodes="4")
    (root / "NVIDIA/systems/dgxa100_pod.json").write_text(json.dumps(desc))
    return root


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("counts")
    out = tmp / "content" / "data" / "record"
    import_record([pod_round(tmp)], out, workers=1)
    return out


def test_a_pod_whose_logs_ran_on_part_is_reported_with_the_evidence(imported):
    checks = yaml.safe_load((imported / "count-checks.yaml").read_text())
    # both results scored; both logs state WORLD_SIZE and a 1x platform
    assert checks["rounds"] == [
        {
            "round": "v1.1",
            "results": 2,
            "with_a_statement": 2,
            "statements": "WORLD_SIZE 2, submission_platform 2",
        }
    ]
    rows = checks["disagreements"]
    assert rows == [
        {
            "id": "v1.1-nvidia-dgxa100-pod-bert",
            "round": "v1.1",
            "path": POD,
            "official_accelerator_count": 32,
            "ran_accelerator_count": 8,
            "evidence": f"{POD}/result_0.txt: WORLD_SIZE 8 (and 9 more logs); "
            f"{POD}/result_0.txt: submission_platform 1xNVIDIA DGX A100 (and 9 more logs)",
        }
    ]
    report = (imported / "import-report.md").read_text()
    assert "\n- v1.1: 2 of 2 (WORLD_SIZE 2, submission_platform 2)\n" in report
    assert (
        f"- `v1.1-nvidia-dgxa100-pod-bert`: the description says 32, the logs 8 ({rows[0]['evidence']}); "
        "no curated correction: the build warns"
    ) in report
    assert "dgxa100-ngc21.09-pytorch-bert`" not in report  # the agreeing one


def test_check_counts_writes_what_the_import_wrote(imported, tmp_path):
    out = tmp_path / "content" / "data" / "record"
    shutil.copytree(imported, out)
    (out / "count-checks.yaml").write_text("rounds: []\ndisagreements: []\n")
    report = (out / "import-report.md").read_text()
    (out / "import-report.md").write_text(report.replace("the logs 8", "the logs 7"))
    assert count_report.check_counts([pod_round(tmp_path)], out) == (1, 1)
    for name in ("count-checks.yaml", "import-report.md", "results-v1.1.yaml", "seal.yaml"):
        assert (out / name).read_bytes() == (imported / name).read_bytes()


def test_a_curated_correction_is_named_in_the_report():
    row = {
        "id": "v1.1-x",
        "round": "v1.1",
        "official_accelerator_count": 32,
        "ran_accelerator_count": 8,
        "evidence": "a/result_0.txt: WORLD_SIZE 8",
    }
    lines = count_report.report_lines([], [row], {"v1.1-x": 8, "v0.5-y": 4})
    assert lines[-1] == ""
    assert lines[-2] == "Curated corrections with no disagreement here (1): v0.5-y."
    assert lines[-4] == (
        "- `v1.1-x`: the description says 32, the logs 8 (a/result_0.txt: WORLD_SIZE 8); "
        "corrected to 8 in content/data/results_curated.yaml"
    )


def checks_content(tmp_path: Path) -> Path:
    folder = tmp_path / "content" / "data" / "record"
    folder.mkdir(parents=True)
    (folder / "count-checks.yaml").write_text(
        "rounds: []\ndisagreements:\n  - id: v1.1-x\n    round: v1.1\n    path: a\n"
        "    official_accelerator_count: 32\n    ran_accelerator_count: 8\n"
        "    evidence: 'a/result_0.txt: WORLD_SIZE 8'\n"
    )
    return tmp_path / "content"


def test_the_build_warns_about_a_disagreement_without_a_correction(tmp_path):
    content = checks_content(tmp_path)
    problems = Problems(content)
    record_counts.warn_uncorrected(content, {"v1.1-x": {"count_correction": None}}, problems)
    assert [(p.line, p.message) for p in problems.warnings] == [
        (
            3,
            "record 'v1.1-x': its logs say 8 accelerators ran (a/result_0.txt: WORLD_SIZE 8), "
            "its system description 32; add a correction with its source to "
            "content/data/results_curated.yaml",
        )
    ]
    assert problems.warnings[0].path.endswith("data/record/count-checks.yaml")


def test_a_curated_correction_silences_the_warning(tmp_path):
    content = checks_content(tmp_path)
    problems = Problems(content)
    corrected = {"count_correction": {"source": "s", "note": {"en": "n"}}}
    record_counts.warn_uncorrected(content, {"v1.1-x": corrected}, problems)
    assert problems.items == []


# --- the rules, one statement at a time ------------------------------------------------------


def record(count: int, nodes: int) -> dict:
    return {"id": "r", "round": "v1.0", "path": "p", "accelerator_count": count, "nodes": nodes}


def line(key: str, value) -> bytes:
    return (
        f':::MLLOG {{"namespace": "", "time_ms": 1, "event_type": "POINT_IN_TIME", '
        f'"key": "{key}", "value": {json.dumps(value)}, "metadata": {{}}}}\n'
    ).encode()


@pytest.mark.parametrize(
    ("count", "nodes", "log", "ran"),
    [
        (512, 1, line("submission_platform", "tpu-v3-1024"), None),  # 1024 TensorCores: 512 chips
        (512, 1, line("submission_platform", "tpu-v3-512"), [256]),  # half the slice ran
        (4096, 1024, line("submission_platform", "tpu-v5l-4096"), None),  # v5e: one core a chip
        (64, 8, line("submission_platform", "8xNVIDIA DGX A100"), None),  # nodes
        (2, 1, line("submission_platform", "2xA5000"), None),  # accelerators
        (64, 8, line("submission_platform", "4xNVIDIA DGX A100"), [32]),  # 4 nodes x 8
        (64, 8, line("number_of_nodes", 2) + line("accelerators_per_node", 8), [16]),
        (64, 8, b"WORLD_SIZE 8\n", None),  # a per-node launcher: one process a node
        (64, 8, b":::DLPAL img.sqsh 1722 8 node[001-008]\n", None),
        (64, 8, b":::DLPAL img.sqsh 1722 2 node[045-046]\n", [16]),  # 2 nodes x 8
        (8, 1, b"WORLD_SIZE 40\n", None),  # CPU processes beside the GPUs
        (64, 8, b"RANK 3: WORLD_SIZE 16, x\nRANK 0: WORLD_SIZE 16\n", [16]),
    ],
)
def test_rules(count, nodes, log, ran):
    found = disagreement(record(count, nodes), ["p/result_0.txt"], [log])
    assert (found["ran"] if found else None) == ran


def test_sysjson_and_traced_launch_variables_are_no_evidence():
    log = b':::SYSJSON {"number_of_nodes":"1","accelerators_per_node":"8"}\n'
    log += b"7: ++ export DGXNNODES=1\n7: ++ export DGXNGPU=4\nnum_gpus=4 num_sockets = 2 num_nodes=8\n"
    assert log_claims("p/result_0.txt", log) == []


# --- the build, on a record project ----------------------------------------------------------

GIANT = "v1.0-bigco-giant-bert"  # tests/record_sample.py: 1,024 BigCo B9, no site system
CHECKS = (
    "rounds: []\ndisagreements:\n"
    f"  - id: {GIANT}\n    round: v1.0\n    path: BigCo/results/giant/bert\n"
    "    official_accelerator_count: 1024\n    ran_accelerator_count: 512\n"
    "    evidence: 'BigCo/results/giant/bert/result_0.txt: WORLD_SIZE 512'\n"
)


def count_warnings(content: Path) -> list[str]:
    from sitegen.content.load import load_site

    site = load_site(content, words=False)
    return [f"{w.path}:{w.line}: {w.message}" for w in site.warnings if "count-checks" in str(w.path)]


def test_a_site_warns_about_a_disagreement_until_a_correction_covers_it(tmp_path):
    from record_sample import CURATED, write_record_project

    content = write_record_project(tmp_path / "a", {"data/record/count-checks.yaml": CHECKS})
    assert count_warnings(content) == [
        f"content/data/record/count-checks.yaml:3: record '{GIANT}': its logs say 512 accelerators ran "
        "(BigCo/results/giant/bert/result_0.txt: WORLD_SIZE 512), its system description 1024; "
        "add a correction with its source to content/data/results_curated.yaml"
    ]
    corrected = CURATED + (
        f"- id: {GIANT}\n  accelerator_count: 512\n  official_accelerator_count: 1024\n"
        "  source: s-official\n  note: {en: Its logs ran 512 processes., zh: 其日志显示运行了512个进程。}\n"
    )
    content = write_record_project(
        tmp_path / "b", {"data/record/count-checks.yaml": CHECKS, "data/results_curated.yaml": corrected}
    )
    assert count_warnings(content) == []


# --- the command -----------------------------------------------------------------------------


def run(capsys, *argv):
    import build

    status = build.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_check_counts_says_what_it_found(imported, tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(imported, content / "data" / "record")
    source = pod_round(tmp_path)
    status, out, err = run(capsys, "--content", content, "check-counts", source)
    assert (status, err) == (0, "")
    assert "checked the accelerator counts of 1 round(s) against their logs: 1 disagreement(s)" in out


def test_check_counts_refuses_a_source_of_no_stored_round_and_writes_nothing(imported, tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(imported, content / "data" / "record")
    before = {p.name: p.read_bytes() for p in (content / "data" / "record").iterdir()}
    elsewhere = tmp_path / "somewhere"
    elsewhere.mkdir()
    status, _, err = run(capsys, "--content", content, "check-counts", elsewhere)
    assert status == 2
    assert err.splitlines()[0] == (
        f"error: {elsewhere}: no round of the stored record (content/data/record/results-<round>.yaml)"
    )
    status, _, err = run(capsys, "--content", content, "check-counts", tmp_path / "training_results_v5.0")
    assert status == 2
    assert err.splitlines()[0] == f"error: {tmp_path / 'training_results_v5.0'}: not a folder or repository"
    assert {p.name: p.read_bytes() for p in (content / "data" / "record").iterdir()} == before


def test_check_counts_refuses_a_record_replaced_while_it_read_the_logs(imported, tmp_path, monkeypatch):
    out = tmp_path / "content" / "data" / "record"
    shutil.copytree(imported, out)
    report = (out / "import-report.md").read_bytes()
    scan = count_report.scan_source

    def replaced_meanwhile(*args):
        found = scan(*args)
        (out / "results-v1.1.yaml").write_text("[]\n")  # as an import would, in between
        return found

    monkeypatch.setattr(count_report, "scan_source", replaced_meanwhile)
    with pytest.raises(ValueError) as refused:
        count_report.check_counts([pod_round(tmp_path)], out)
    assert (
        str(refused.value)
        == f"{out / 'results-v1.1.yaml'}: changed while its logs were read; run check-counts again"
    )
    assert (out / "import-report.md").read_bytes() == report
