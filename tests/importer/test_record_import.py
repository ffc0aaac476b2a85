"""The whole-record importer (sitegen/importer/) on real excerpts of each log era.

Expected scores are computed here independently of the importer: by hand from the logs'
run_start/run_stop lines (written out below), or with mlperf_logging's own functions.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from sitegen.content import round_rules as rules
from sitegen.importer.run import import_record
from sitegen.importer.write import scalar

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "record"
ROUNDS = ["training_results_v0.5", "training_results_v0.6", "training_results_v1.1", "training_results_v5.0"]
V11_BERT = "NVIDIA/results/dgxa100_ngc21.09_pytorch/bert"
V50_SD = "GigaComputing/results/G893-SD1_pytorch/stable_diffusion"


def olympic(times: list[float]) -> float:
    ordered = sorted(times)[1:-1]
    return sum(ordered) / len(ordered)


def load(out: Path) -> dict[str, dict]:
    records = {}
    for path in sorted(out.glob("results-*.yaml")):
        records.update((r["id"], r) for r in yaml.safe_load(path.read_text()))
    return records


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def _summarizer():
    """mlperf_logging's result summarizer, imported when a test asks: it brings scipy and pandas,
    which every test process's collection imported, and one process runs these tests."""
    from mlperf_logging.result_summarizer import result_summarizer

    return result_summarizer


def official(folder: Path, ruleset: str) -> list[float]:
    """Run times by mlperf_logging's parser and the summarizer's start/stop query."""
    from mlperf_logging.compliance_checker.mlp_parser import parse_file

    summarizer = _summarizer()
    times = []
    for log in sorted(folder.glob("result_*.txt")):
        loglines, _ = parse_file(str(log), ruleset=ruleset)
        start, stop = summarizer._query_run_start_stop(loglines)
        times.append((stop - start) / 60000)
    return times


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("record")
    counts = import_record([FIX / r for r in ROUNDS], out, workers=1)
    return out, counts, load(out)


# --- scores, each era -------------------------------------------------------------------------


def test_v05_mlp_log_nested_entry_and_entry_json(imported):
    _, _, records = imported
    record = records["v0.5-google-research-v3.32-ssd-tpuv3-32-tpu-ssd"]
    starts = [
        1543595951.605592966,
        1543597930.653244019,
        1543607705.973257065,
        1544151467.293519020,
        1544203265.034635067,
    ]
    stops = [
        1543597021.904561996,
        1543598987.988677979,
        1543608770.867872953,
        1544152543.150902033,
        1544204337.068005085,
    ]
    runs = [(b - a) / 60 for a, b in zip(starts, stops)]
    assert record["runs"] == pytest.approx(runs, abs=1e-9)
    assert record["value"] == pytest.approx(olympic(runs), abs=1e-9)
    # v0.5's SSD target was 21.2% mAP, 23.0% from v0.6: its own benchmark id
    assert (record["benchmark"], record["division"], record["category"]) == ("ssd_v05", "closed", "research")
    # entry.json: one node group, num_nodes 2 x num_accelerators 32
    assert (record["submitter"], record["accelerator_count"], record["nodes"]) == ("google", 64, 2)
    assert record["system_path"].endswith("results/tpu/entry.json")


def test_v06_mll_log(imported):
    _, _, records = imported
    record = records["v0.6-google-tpu-v3-32-ssd"]
    pairs = [
        (1560216785.846, 1560217540.734),
        (1560216789.843, 1560217547.550),
        (1560216795.547, 1560217558.548),
        (1560217124.284, 1560217867.428),
        (1560217118.825, 1560217875.683),
    ]
    runs = [(stop - start) / 60 for start, stop in pairs]
    assert record["runs"] == pytest.approx(runs, abs=1e-9)
    assert record["value"] == pytest.approx(olympic(runs), abs=1e-9)
    assert record["status"] == "scored" and record["runs_required"] == 5


def test_v06_alibaba_private_format(imported):
    _, _, records = imported
    record = records["v0.6-alibaba-sinian-resnet"]
    # last run_start before run_stop, e.g. 00:31:00 -> 00:55:21 is 24 min 21 s
    seconds = [24 * 60 + 21, 24 * 60 + 17, 24 * 60 + 23, 24 * 60 + 17, 24 * 60 + 29]
    assert record["runs"] == pytest.approx([s / 60 for s in seconds])
    assert record["value"] == pytest.approx((1457 + 1461 + 1463) / 3 / 60)
    assert (record["category"], record["accelerator_count"], record["nodes"]) == ("research", 64, 16)


def test_v11_mllog_matches_mlperf_logging_and_the_seed(imported):
    _, _, records = imported
    record = records["v1.1-nvidia-dgxa100-ngc21.09-pytorch-bert"]
    times = official(FIX / "training_results_v1.1" / V11_BERT, "1.1.0")
    assert record["runs"] == pytest.approx(times, abs=1e-12)
    expected = _summarizer()._compute_olympic_average(list(times), 0, 1)
    assert record["value"] == pytest.approx(expected, abs=1e-12)
    assert round(record["value"], 2) == 20.0  # content/data/results.yaml at commit 5b636da


def test_v50_rank_prefixes_and_scaling(imported):
    _, _, records = imported
    record = records["v5.0-gigacomputing-g893-sd1-pytorch-stable-diffusion"]
    folder = FIX / "training_results_v5.0" / V50_SD
    times = official(folder, "5.0.0")
    factor = _summarizer()._get_scaling_factor(str(folder))
    assert factor != 1.0 and record["scaling"] == factor
    expected = _summarizer()._compute_olympic_average(list(times), 0, 1) * factor
    assert record["value"] == pytest.approx(expected, abs=1e-12)
    assert record["runs_required"] == 10


# --- output files -----------------------------------------------------------------------------


def test_rounds_and_report(imported):
    out, counts, records = imported
    rounds = yaml.safe_load((out / "rounds.yaml").read_text())
    assert [r["id"] for r in rounds] == ["v0.5", "v0.6", "v1.1", "v5.0"]
    assert rounds[1]["results"] == 2 and rounds[1]["published"].isoformat() == "2019-07-10"
    assert counts["results"] == len(records) == 5 and counts["skipped"] == 0
    assert yaml.safe_load((out / "changelog.yaml").read_text()) == []
    assert "## v5.0" in (out / "import-report.md").read_text()


def test_reimport_changes_no_byte(imported, tmp_path):
    out = tmp_path / "record"
    import_record([FIX / r for r in ROUNDS], out, workers=1)
    first = snapshot(out)
    import_record([FIX / r for r in ROUNDS], out, workers=2)
    assert snapshot(out) == first
    assert first == snapshot(imported[0])


def test_importing_one_round_keeps_the_others_and_their_report(imported, tmp_path):
    """A new round is imported alone: every other round's files and report section stay."""
    out = tmp_path / "record"
    import_record([FIX / r for r in ROUNDS if not r.endswith("v1.1")], out, workers=1)
    import_record([FIX / "training_results_v1.1"], out, workers=1)
    assert snapshot(out) == snapshot(imported[0])
    report = (out / "import-report.md").read_text()
    assert [line for line in report.splitlines() if line.startswith("## v")] == [
        "## v0.5",
        "## v0.6",
        "## v1.1",
        "## v5.0",
    ]


def test_changelog_records_changed_fields(tmp_path):
    source, out = FIX / "training_results_v1.1", tmp_path / "record"
    import_record([source], out, workers=1)
    path = out / "results-v1.1.yaml"
    path.write_text(path.read_text().replace("framework: PyTorch", "framework: Torch"))
    import_record([source], out, workers=1, accept_changes=True)
    log = yaml.safe_load((out / "changelog.yaml").read_text())
    assert [(e["id"], e["field"]) for e in log] == [
        ("v1.1-nvidia-dgxa100-ngc21.09-pytorch-bert", "framework")
    ]
    assert log[0]["old"].startswith("Torch") and log[0]["new"].startswith("PyTorch")


# --- bad input --------------------------------------------------------------------------------


def copy_round(tmp_path: Path, name: str = "training_results_v1.1") -> Path:
    root = tmp_path / name
    shutil.copytree(FIX / name, root)
    return root


def test_bad_folders_are_skipped_and_named(tmp_path):
    root = copy_round(tmp_path)
    bert = root / V11_BERT
    shutil.copytree(bert, root / "NVIDIA/results/no_system_json/bert")
    shutil.copytree(bert, root / "NVIDIA/results/open_sys/bert")
    desc = (root / "NVIDIA/systems/dgxa100_ngc21.09_pytorch.json").read_text()
    (root / "NVIDIA/systems/open_sys.json").write_text(desc.replace('"closed"', '"open"'))
    log, data = bert / "result_3.txt", (bert / "result_3.txt").read_bytes()
    log.write_bytes(data[: data.rfind(b'"key": "run_stop"') + 30])  # cut inside run_stop's line
    counts = import_record([root], tmp_path / "out", workers=1)
    report = (tmp_path / "out" / "import-report.md").read_text()
    assert "NVIDIA/results/no_system_json/bert: no system description" in report
    assert "NVIDIA/systems/no_system_json.json" in report
    assert f"{V11_BERT}: 1 of 10 runs failed: result_3.txt (corrupt run_stop line)" in report
    assert "NVIDIA/results/open_sys/bert: logs say division closed" in report
    records = load(tmp_path / "out")
    assert sorted(records) == ["v1.1-nvidia-dgxa100-ngc21.09-pytorch-bert", "v1.1-nvidia-open-sys-bert"]
    truncated = records["v1.1-nvidia-dgxa100-ngc21.09-pytorch-bert"]
    times = official(FIX / "training_results_v1.1" / V11_BERT, "1.1.0")
    kept = times[:3] + times[4:]
    assert truncated["runs_failed"] == 1 and truncated["runs"][3] is None
    assert truncated["value"] == pytest.approx(_summarizer()._compute_olympic_average(kept, 1, 1))
    assert records["v1.1-nvidia-open-sys-bert"]["division"] == "open"
    assert counts["skipped"] == 1


def test_missing_logs_are_never_scored(tmp_path):
    root = copy_round(tmp_path)
    pointer = b"version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 1\n"
    (root / V11_BERT / "result_7.txt").write_bytes(pointer)
    import_record([root], tmp_path / "out", workers=1)
    record = load(tmp_path / "out")["v1.1-nvidia-dgxa100-ngc21.09-pytorch-bert"]
    assert (record["status"], record["value"], record["runs"]) == ("logs missing", None, None)
    assert f"{V11_BERT}: result_7.txt" in (tmp_path / "out" / "import-report.md").read_text()


def test_duplicate_logs_are_flagged(tmp_path):
    root = copy_round(tmp_path)
    shutil.copyfile(root / V11_BERT / "result_1.txt", root / V11_BERT / "result_2.txt")
    import_record([root], tmp_path / "out", workers=1)
    record = load(tmp_path / "out")["v1.1-nvidia-dgxa100-ngc21.09-pytorch-bert"]
    assert record["duplicate_logs"] == ["result_2.txt"] and record["status"] == "scored"


def test_bare_git_repository_reads_like_the_folder(tmp_path):
    work = copy_round(tmp_path / "work")
    env = dict(
        os.environ,
        GIT_AUTHOR_DATE="2023-05-18T12:00:00Z",
        GIT_COMMITTER_DATE="2023-05-18T12:00:00Z",
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.org",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.org",
    )
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "snapshot"]):
        subprocess.run(["git", "-C", str(work), *args], check=True, env=env)
    bare = tmp_path / "mlcommons+training_results_v1.1" / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    import_record([bare], tmp_path / "git", workers=1)
    import_record([FIX / "training_results_v1.1"], tmp_path / "plain", workers=1)
    assert load(tmp_path / "git") == load(tmp_path / "plain")
    rounds = yaml.safe_load((tmp_path / "git" / "rounds.yaml").read_text())
    assert rounds[0]["commit_date"].isoformat() == "2023-05-18" and len(rounds[0]["commit"]) == 40


# --- rules and YAML ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "round_id, folder, expected",
    [
        ("v1.1", "ssd", "ssd"),
        ("v2.0", "ssd", "retinanet"),
        ("v5.0", "retinanet", "retinanet"),
        ("v4.0", "gnn", "rgat"),
        ("v2.1", "dlrm", "dlrm"),
        ("v3.0", "dlrm_dcnv2", "dlrm_dcnv2"),
        ("v0.6", "mask", "maskrcnn"),
        ("v0.5", "minigo", "minigo_v05"),
        # quality targets that changed (training_rules.adoc of each round, and the v0.6 logs):
        ("v0.5", "resnet", "resnet_v05"),
        ("v0.6", "resnet", "resnet"),
        ("v0.5", "ssd", "ssd_v05"),
        ("v0.6", "ssd", "ssd"),
        ("v0.5", "gnmt", "gnmt_v05"),
        ("v0.6", "gnmt", "gnmt"),
        ("v0.6", "minigo", "minigo_v06"),
        ("v0.7", "minigo", "minigo"),
        ("v0.7", "bert", "bert_v07"),
        ("v1.0", "bert", "bert"),
        ("v0.5", "maskrcnn", "maskrcnn"),
        ("v0.6", "transformer", "transformer"),
    ],
)
def test_benchmark_ids(round_id, folder, expected):
    assert rules.benchmark_id(round_id, folder) == expected


@pytest.mark.parametrize(
    "round_id, bench, runs",
    [
        ("v0.5", "resnet_v05", 5),
        ("v0.5", "ssd_v05", 5),
        ("v0.5", "gnmt_v05", 10),
        ("v0.6", "minigo_v06", 10),
        ("v0.5", "minigo_v05", 10),
        ("v0.7", "bert_v07", 10),
        ("v1.0", "bert", 10),
    ],
)
def test_split_benchmarks_keep_their_rules(round_id, bench, runs):
    """A split id is still its benchmark for the rules: runs needed, failures allowed."""
    assert rules.runs_required(round_id, bench) == runs
    assert rules.max_failed(bench) == 1


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Available on-premise", "available"),
        ("Available cloud", "available"),
        ("onprem", "available"),
        ("cloud", "available"),
        ("preview", "preview"),
        ("Research", "research"),
        ("rdi", "research"),
        (" available  on premise ", "available"),
        ("banana", None),
    ],
)
def test_categories(text, expected):
    assert rules.category(text) == expected


def test_divisions():
    assert [rules.division(t) for t in ("closed", "close", "Open ", "CLOSED", "x")] == [
        "closed",
        "closed",
        "open",
        "closed",
        None,
    ]


def test_scoring_rules():
    assert rules.score("v1.0", "unet3d", [1.0] * 36 + [None] * 4)[0] == 1.0
    assert rules.score("v5.0", "llama31_405b", [3.0, 1.0, 2.0])[0] == 2.0
    value, why = rules.score("v1.0", "bert", [1.0, None, None])
    assert value is None and "2 of 3 runs failed" in why


@pytest.mark.parametrize(
    "value",
    [
        1.5,
        1e-05,
        1e20,
        0.1 + 0.2,
        28.770861111111106,
        3,
        0,
        None,
        "1.0",
        "yes",
        "null",
        "2023-05-18x",
        "a: b",
        "IBM+CoreWeave+NVIDIA",
        "X640 G40",
        "",
        " x",
        "中文",
        "-",
        "1_000",
        "0x1f",
        "#tag",
    ],
)
def test_scalars_round_trip(value):
    assert yaml.safe_load(f"k: {scalar(value)}")["k"] == value


V11_BERT_ID = "v1.1-nvidia-dgxa100-ngc21.09-pytorch-bert"


def resubmitted(tmp_path: Path, round_id: str) -> Path:
    """The v1.1 fixture as round `round_id` resubmitted it, logs unchanged."""
    return copy_round(tmp_path / round_id).rename(tmp_path / round_id / f"training_results_{round_id}")


def test_resubmitted_logs_are_noted(tmp_path):
    later = resubmitted(tmp_path, "v2.0")
    import_record([FIX / "training_results_v1.1", later], tmp_path / "out", workers=1)
    report = (tmp_path / "out" / "import-report.md").read_text()
    assert (
        f"{V11_BERT}: logs byte-identical to {V11_BERT_ID} (a resubmission; scored as published)"
    ) in report
    records = load(tmp_path / "out")
    assert records[V11_BERT_ID.replace("v1.1", "v2.0", 1)]["resubmission_of"] == V11_BERT_ID
    assert "resubmission_of" not in records[V11_BERT_ID]


def test_one_round_imported_alone_finds_resubmissions_of_the_others(tmp_path):
    """The documented one-command import of a new round compares its logs with the digests
    stored for the rounds imported before; the result names the earliest publication."""
    v20, v21 = resubmitted(tmp_path, "v2.0"), resubmitted(tmp_path, "v2.1")
    together, alone = tmp_path / "together", tmp_path / "alone"
    import_record([FIX / "training_results_v1.1", v20, v21], together, workers=1)
    import_record([FIX / "training_results_v1.1", v20], alone, workers=1)
    import_record([v21], alone, workers=1)
    records = load(alone)
    assert records[V11_BERT_ID.replace("v1.1", "v2.1", 1)]["resubmission_of"] == V11_BERT_ID
    assert snapshot(alone) == snapshot(together)
    # the digest is of the logs' bytes: sha256 of their sorted git blob ids, one a line
    blobs = sorted(
        subprocess.run(
            ["git", "hash-object", *sorted((FIX / "training_results_v1.1" / V11_BERT).glob("result_*.txt"))],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
    )
    assert (
        records[V11_BERT_ID]["logs_digest"]
        == hashlib.sha256("".join(b + "\n" for b in blobs).encode()).hexdigest()
    )


def test_a_changed_log_is_no_resubmission(tmp_path):
    later = resubmitted(tmp_path, "v2.0")
    log = later / V11_BERT / "result_0.txt"
    log.write_bytes(log.read_bytes() + b"\n")
    import_record([FIX / "training_results_v1.1", later], tmp_path / "out", workers=1)
    records = load(tmp_path / "out")
    assert all("resubmission_of" not in r for r in records.values())
    first, second = records[V11_BERT_ID], records[V11_BERT_ID.replace("v1.1", "v2.0", 1)]
    assert len(first["logs_digest"]) == 64 and first["logs_digest"] != second["logs_digest"]


# --- energy (power logs) ----------------------------------------------------------------------

POWER = FIX / "power" / "training_results_v5.0"
V50_POWER = "Lenovo/results/SR780aV3-8xB200_SXM_180GB/retinanet"
V50_POWER_ID = "v5.0-lenovo-sr780av3-8xb200-sxm-180gb-retinanet"


def test_energy_is_what_the_official_summarizer_gives(tmp_path):
    out = tmp_path / "record"
    import_record([POWER], out, workers=1)
    record = load(out)[V50_POWER_ID]
    folder = POWER / V50_POWER
    # mlperf_logging's own scoring of the folder: compliance check, times, power, olympic average
    score, energy, factor = _summarizer()._compute_strong_score_standalone(
        "retinanet", folder.parent.name, True, str(folder), "training", "5.0.0"
    )
    assert energy is not None and energy > 0
    assert record["energy"] == {"value": energy, "unit": "J"}  # exactly, not approximately
    assert record["value"] == pytest.approx(score, abs=1e-12)
    text = (out / "results-v5.0.yaml").read_text()
    assert f"  energy: {{value: {scalar(energy)}, unit: J}}\n" in text
    before = snapshot(out)
    import_record([POWER], out, workers=1)
    assert snapshot(out) == before


def test_results_without_power_logs_have_no_energy(imported):
    out, _, records = imported
    assert all("energy" not in r for r in records.values())
    assert all("energy" not in p.read_text() for p in out.glob("results-*.yaml"))


def test_power_logs_the_official_code_cannot_score_are_noted(tmp_path):
    """v4.0's SMC logs write power_measurement_stop with the start's timestamp: the summarizer's
    code divides by zero. The result keeps its time, gets no energy, and the report says why."""
    source = tmp_path / "training_results_v5.0"
    shutil.copytree(POWER, source)
    node = source / V50_POWER / "power" / "result_2" / "node_0.txt"
    lines = node.read_text("latin-1").splitlines(keepends=True)
    start = next(l for l in lines if '"power_measurement_start"' in l)
    stamp = start.split('"time_ms": ')[1].split(",")[0]
    lines = [
        l
        if '"power_measurement_stop"' not in l
        else l.replace(l.split('"time_ms": ')[1].split(",")[0], stamp, 1)
        for l in lines
    ]
    node.write_text("".join(lines), "latin-1")
    out = tmp_path / "record"
    import_record([source], out, workers=1)
    record = load(out)[V50_POWER_ID]
    assert "energy" not in record and record["value"] is not None
    report = (out / "import-report.md").read_text()
    assert f"{V50_POWER}: energy not scored: mlperf_logging: ZeroDivisionError" in report


# --- Alibaba's v0.7 folders (published; no same-named system description) --------------------

ALIBABA = FIX / "alibaba" / "training_results_v0.7"


@pytest.fixture(scope="module")
def alibaba(tmp_path_factory):
    out = tmp_path_factory.mktemp("alibaba")
    counts = import_record([ALIBABA], out, workers=1)
    return out, counts, load(out)


def test_alibaba_logs_without_a_benchmark_folder_are_scored_by_hand(alibaba):
    """results/v100-256/result_N.txt: run_start and run_stop in `time_s` (seconds), written
    out from the logs: 1593354424.831 -> 1593354661.616 is 236.785 s, and so on."""
    _, counts, records = alibaba
    record = records["v0.7-alibaba-v100-256-resnet"]
    seconds = [
        1593354661.616 - 1593354424.831,
        1593355181.194 - 1593354944.304,
        1593355709.114 - 1593355472.170,
        1593356228.379 - 1593355991.612,
        1593354921.570 - 1593354684.693,
    ]
    assert [round(s, 3) for s in seconds] == [236.785, 236.890, 236.944, 236.767, 236.877]
    assert record["runs"] == pytest.approx([s / 60 for s in seconds], abs=1e-9)
    # olympic mean: drop 236.767 and 236.944; (236.785 + 236.877 + 236.890) / 3 s
    # (1e-8 min: the logs' seconds are doubles near 1.6e9, exact to about 1e-7 s)
    assert record["value"] == pytest.approx((236.785 + 236.877 + 236.890) / 3 / 60, abs=1e-8)
    assert (record["benchmark"], record["benchmark_folder"], record["path"]) == (
        "resnet",
        "resnet",
        "Alibaba/results/v100-256",
    )
    assert counts["skipped"] == 0 and counts["results"] == 2


def test_alibaba_system_is_the_one_description_that_fits(alibaba):
    """v100-256: five descriptions name the platform PAI_EFLOPS; one has 256 V100s
    (n32_pai_eflops.json: 32 nodes x 8). a100-8: one has 8 A100s (n1_A100.json)."""
    out, _, records = alibaba
    v100, a100 = records["v0.7-alibaba-v100-256-resnet"], records["v0.7-alibaba-a100-8-resnet"]
    assert (v100["system_path"], v100["accelerator_count"], v100["nodes"]) == (
        "Alibaba/systems/n32_pai_eflops.json",
        256,
        32,
    )
    assert (v100["accelerator_model"], v100["system_name"], v100["category"], v100["division"]) == (
        "NVIDIA V100-SXM2-32GB",
        "PAI_EFLOPS",
        "available",
        "closed",
    )
    assert (a100["system_path"], a100["accelerator_count"]) == ("Alibaba/systems/n1_A100.json", 8)
    report = (out / "import-report.md").read_text()
    assert (
        "Alibaba/results/v100-256: system described in Alibaba/systems/n32_pai_eflops.json "
        "(no Alibaba/systems/v100-256.json; the only one of the 6 in Alibaba/systems/ that "
        "fits the logs' submission_platform 'PAI_EFLOPS' and the folder name's v100 x 256 "
        "(32 nodes, 256 x NVIDIA V100-SXM2-32GB))"
    ) in report
    assert "Alibaba/results/a100-8/resnet: system described in Alibaba/systems/n1_A100.json" in report


def test_alibaba_log_files_named_otherwise_are_taken_and_noted(alibaba):
    """results/a100-8/resnet/<job>_N.log, no result_*.txt: run_start/run_stop in ms by hand."""
    out, _, records = alibaba
    record = records["v0.7-alibaba-a100-8-resnet"]
    ms = [
        1594409584658 - 1594407155646,
        1594412090269 - 1594409660363,
        1594414595825 - 1594412166346,
        1594417101997 - 1594414672226,
        1594419607737 - 1594417176852,
    ]
    assert ms == [2429012, 2429906, 2429479, 2429771, 2430885]
    assert record["runs"] == pytest.approx([m / 60000 for m in ms], abs=1e-12)
    assert record["value"] == pytest.approx((2429479 + 2429771 + 2429906) / 3 / 60000, abs=1e-12)
    assert (
        "Alibaba/results/a100-8/resnet: no result_*.txt; its *.log files taken as the "
        "result logs: 200711025203744603517_1.log"
    ) in (out / "import-report.md").read_text()


def test_an_ambiguous_system_is_still_skipped(tmp_path):
    """Two descriptions that fit alike: no guess, the folder is skipped and named."""
    source = tmp_path / "training_results_v0.7"
    shutil.copytree(ALIBABA, source)
    shutil.copyfile(source / "Alibaba/systems/n32_pai_eflops.json", source / "Alibaba/systems/n32_copy.json")
    import_record([source], tmp_path / "out", workers=1)
    report = (tmp_path / "out" / "import-report.md").read_text()
    assert "Alibaba/results/v100-256: no system description" in report
    records = load(tmp_path / "out")
    assert "v0.7-alibaba-v100-256-resnet" not in records
    assert records["v0.7-alibaba-a100-8-resnet"]["system_path"] == "Alibaba/systems/n1_A100.json"


# --- the changelog: removed, renamed, energy ----------------------------------------------------


def two_results(tmp_path: Path) -> Path:
    """The v1.1 fixture with a second result: the same logs under another system folder."""
    root = copy_round(tmp_path)
    shutil.copytree(root / V11_BERT, root / "NVIDIA/results/other_sys/bert")
    desc = root / "NVIDIA/systems/dgxa100_ngc21.09_pytorch.json"
    shutil.copyfile(desc, root / "NVIDIA/systems/other_sys.json")
    return root


def test_changelog_records_a_result_removed_upstream(tmp_path):
    root, out = two_results(tmp_path), tmp_path / "record"
    import_record([root], out, workers=1)
    shutil.rmtree(root / "NVIDIA/results/other_sys")
    import_record([root], out, workers=1, accept_removals=("v1.1",))
    log = yaml.safe_load((out / "changelog.yaml").read_text())
    assert [(e["id"], e["field"], e["old"], e["new"]) for e in log] == [
        ("v1.1-nvidia-other-sys-bert", "result", "NVIDIA/results/other_sys/bert", None)
    ]


def test_changelog_records_a_renamed_result(tmp_path):
    root, out = two_results(tmp_path), tmp_path / "record"
    import_record([root], out, workers=1)
    (root / "NVIDIA/results/other_sys").rename(root / "NVIDIA/results/renamed_sys")
    (root / "NVIDIA/systems/other_sys.json").rename(root / "NVIDIA/systems/renamed_sys.json")
    import_record([root], out, workers=1, accept_changes=True)
    log = yaml.safe_load((out / "changelog.yaml").read_text())
    assert [(e["id"], e["field"], e["old"], e["new"]) for e in log] == [
        ("v1.1-nvidia-other-sys-bert", "id", "v1.1-nvidia-other-sys-bert", "v1.1-nvidia-renamed-sys-bert")
    ]


def test_changelog_records_a_changed_energy(tmp_path):
    out = tmp_path / "record"
    import_record([POWER], out, workers=1)
    path = out / "results-v5.0.yaml"
    record = load(out)[V50_POWER_ID]
    true_value = record["energy"]["value"]
    path.write_text(path.read_text().replace(f"value: {scalar(true_value)}, unit: J", "value: 1.5, unit: J"))
    import_record([POWER], out, workers=1, accept_changes=True)
    log = yaml.safe_load((out / "changelog.yaml").read_text())
    assert [(e["id"], e["field"], e["old"], e["new"]) for e in log] == [
        (V50_POWER_ID, "energy", {"value": 1.5, "unit": "J"}, {"value": true_value, "unit": "J"})
    ]


def test_changes_compares_every_kind():
    from sitegen.importer.write import changes

    old = [
        {"id": "a", "path": "x/a", "value": 1.0, "logs_digest": "d1"},
        {"id": "b", "path": "x/b", "value": 2.0, "logs_digest": "d2"},
        {"id": "c", "path": "x/c", "value": 3.0, "logs_digest": "d3", "energy": {"value": 5.0, "unit": "J"}},
    ]
    new = [
        {"id": "a2", "path": "y/a", "value": 1.5, "logs_digest": "d1"},
        {"id": "c", "path": "x/c", "value": 3.0, "logs_digest": "d3", "energy": {"value": 6.0, "unit": "J"}},
    ]
    found = [(e["id"], e["field"], e["old"], e["new"]) for e in changes(old, new, "2025-01-01")]
    assert found == [
        ("c", "energy", {"value": 5.0, "unit": "J"}, {"value": 6.0, "unit": "J"}),
        ("a", "id", "a", "a2"),
        ("a2", "value", 1.0, 1.5),
        ("b", "result", "x/b", None),
    ]
