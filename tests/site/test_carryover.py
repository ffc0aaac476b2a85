"""Carried-over results, copies within a round and results short of their logs
(sitegen/derive/carryover.py): the detection on plain records, the labels on a built site (result
page, leaderboard, round page, CSV, progress chart), and the shipped record's known cases.
Expected values come from the sample YAML written here, not from the output."""

import csv
import io
import re
from pathlib import Path

import pytest
import yaml

from sitegen.assemble.pipeline import build
from sitegen.base.errors import Problems
from sitegen.content import round_rules as record_rules
from sitegen.content import scores
from sitegen.content.load import load_site
from sitegen.content.record import load_record
from sitegen.derive import carryover
from sitegen.derive.record_index import index_of, progress

from project import CACHE, TEMPLATES, seal_record
from record_sample import V10, V11, _result, write_record_project

ROOT = Path(__file__).resolve().parents[2]


def rec(ident, rnd, runs, *, benchmark="bert", path=None, required=5, status="scored"):
    return {
        "id": ident,
        "round": rnd,
        "benchmark": benchmark,
        "runs": runs,
        "status": status,
        "runs_required": required,
        "value": 1.0,
        "path": path or f"X/results/{ident}/{benchmark}",
    }


RUNS = [10.25, 10.5, 10.75, 11.0, 11.5]


# --- detection -----------------------------------------------------------------------------------


def test_an_exact_repeat_in_a_later_round_is_carried_over_from_the_first():
    first = rec("v1.0-a-x-bert", "v1.0", RUNS)
    again = rec("v1.1-a-x-bert", "v1.1", list(reversed(RUNS)))  # file order does not matter
    third = rec("v2.0-a-x-bert", "v2.0", RUNS)
    found = carryover.labels([third, again, first])
    assert found == {
        "v1.1-a-x-bert": {"carried_over_from": "v1.0-a-x-bert", "copy_of": None},
        "v2.0-a-x-bert": {"carried_over_from": "v1.0-a-x-bert", "copy_of": None},
    }


def test_a_repeat_under_another_folder_name_is_carried_over():
    # as Intel's v1.0 DLRM repeats its v0.7 runs under 8380H folder names instead of cpx
    first = rec(
        "v0.7-intel-1-node-4s-cpx-pytorch-dlrm",
        "v0.7",
        RUNS,
        benchmark="dlrm",
        path="Intel/results/1-node-4s-cpx-pytorch/dlrm",
    )
    renamed = rec(
        "v1.0-intel-1-node-4s-8380h-pytorch-dlrm",
        "v1.0",
        RUNS,
        benchmark="dlrm",
        path="Intel/results/1-node-4s-8380H-pytorch/dlrm",
    )
    found = carryover.labels([first, renamed])
    assert found["v1.0-intel-1-node-4s-8380h-pytorch-dlrm"]["carried_over_from"] == first["id"]


def test_a_near_miss_is_not_a_repeat():
    first = rec("v1.0-a-x-bert", "v1.0", RUNS)
    close = rec("v1.1-a-x-bert", "v1.1", RUNS[:-1] + [11.5 + 1e-9])  # one run a hair apart
    fewer = rec("v1.1-b-x-bert", "v1.1", RUNS[:-1])  # a run fewer
    failed = rec("v1.1-c-x-bert", "v1.1", RUNS[:-1] + [None])  # the last run failed
    assert carryover.labels([first, close, fewer, failed]) == {}


def test_the_same_runs_of_another_benchmark_are_no_repeat():
    # "ssd" was SSD-ResNet34 to v1.1 and RetinaNet from v2.0: two benchmark ids
    ssd = rec("v1.1-a-x-ssd", "v1.1", RUNS, benchmark="ssd")
    retinanet = rec("v2.0-a-x-ssd", "v2.0", RUNS, benchmark="retinanet")
    assert carryover.labels([ssd, retinanet]) == {}


def test_a_within_round_copy_names_the_folder_nearest_the_top_then_the_first_id():
    top = rec("v1.0-habana-sys-bert", "v1.0", RUNS, path="Habana/results/SYS/bert")
    nested = rec("v1.0-habana-sys-resnet-bert", "v1.0", RUNS, path="Habana/results/SYS/resnet/bert")
    other = rec("v1.0-aaa-sys-bert", "v1.0", RUNS, path="Aaa/results/SYS/resnet/bert")
    found = carryover.labels([nested, other, top])
    assert found == {
        "v1.0-habana-sys-resnet-bert": {"carried_over_from": None, "copy_of": top["id"]},
        "v1.0-aaa-sys-bert": {"carried_over_from": None, "copy_of": top["id"]},
    }
    # same depth: the first id is the original (smc before smc-ac-power)
    smc = rec("v4.0-smc-1x-bert", "v4.0", RUNS, path="smc/results/1x/bert")
    power = rec("v4.0-smc-ac-power-1x-bert", "v4.0", RUNS, path="smc-ac-power/results/1x/bert")
    assert carryover.labels([power, smc])[power["id"]]["copy_of"] == smc["id"]


def test_two_copies_of_an_earlier_result_in_one_round():
    # v5.1: Dell published v5.0's logs in two folders; one is a copy of the other
    first = rec("v5.0-dell-a-rgat", "v5.0", RUNS, path="Dell/results/A/rgat")
    again = rec("v5.1-dell-a-rgat", "v5.1", RUNS, path="Dell/results/A/rgat")
    other = rec("v5.1-dell-b-rgat", "v5.1", RUNS, path="Dell/results/B/rgat")
    found = carryover.labels([first, other, again])
    assert found[again["id"]] == {"carried_over_from": first["id"], "copy_of": None}
    assert found[other["id"]] == {"carried_over_from": first["id"], "copy_of": again["id"]}


def test_short_results_are_never_scored_and_allowed_failures_are_not_short():
    short = rec("v1.0-s-x-unet3d", "v1.0", [1.0] * 22, benchmark="unet3d", required=40)
    failed_allowed = rec("v1.0-f-x-bert", "v1.0", [1.0, 2.0, 3.0, 4.0, None])
    whole = rec("v1.0-w-x-bert", "v1.0", [1.0, 2.0, 3.0, 4.0, 5.0])
    missing = rec("v1.0-m-x-bert", "v1.0", None, status="logs missing")
    assert scores.short_of(short) == (22, 40)
    assert scores.short_of(failed_allowed) is None and scores.short_of(whole) is None
    assert scores.unscore_short([short, failed_allowed, whole, missing]) == [short["id"]]
    assert (short["status"], short["value"]) == ("too few logs", None)
    assert failed_allowed["value"] == whole["value"] == 1.0 and missing["status"] == "logs missing"
    assert scores.unscore_short([short]) == [short["id"]] and short["status"] == "too few logs"


def test_minigo_needed_ten_runs_in_v05_and_v06():
    """training_policies issue #155 ("should be 10", decided before v0.6): not 20."""
    assert record_rules.runs_required("v0.6", "minigo_v06") == 10
    assert record_rules.runs_required("v0.5", "minigo_v05") == 10


# --- a built site ----------------------------------------------------------------------------------

ACME_RUNS = yaml.safe_load(V10)[0]["runs"]  # v1.0-acme-acme16-bert
GIANT = yaml.safe_load(V10)[2]  # v1.0-bigco-giant-bert: v1.0's fastest
CARRIED = "v1.1-bigco-giant2-bert"  # v1.0's fastest again in v1.1, under another folder
NEAR = "v1.1-zenith-zen8-bert"  # v1.0 zenith8's runs but one, a hair apart
COPY = "v1.0-acmepower-acme16-bert"  # acme16's runs under another submitter folder
SHORT = "v1.0-zenith-zenith4-bert"  # 3 logs, the rules ask for 5
ZENITH_RUNS = yaml.safe_load(V10)[4]["runs"]
V10_MORE = V10 + "".join(
    [
        _result(COPY, "v1.0", "AcmePower", "acme16", "bert", 30.123456, ACME_RUNS),
        _result(
            SHORT, "v1.0", "Zenith", "zenith4", "bert", 41.0, [40.0, 41.0, 42.0], count=4, model="Zenith Z1"
        ),
    ]
)
V11_MORE = V11 + "".join(
    [
        _result(
            CARRIED,
            "v1.1",
            "BigCo",
            "giant2",
            "bert",
            GIANT["value"],
            GIANT["runs"],
            count=1024,
            model="Big B9",
        ),
        _result(
            NEAR,
            "v1.1",
            "Zenith",
            "zen8",
            "bert",
            20.046,
            ZENITH_RUNS[:-1] + [ZENITH_RUNS[-1] + 1e-6],
            count=8,
            model="Zenith Z1",
        ),
    ]
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("carry")
    content = write_record_project(
        folder, {"data/record/results-v1.0.yaml": V10_MORE, "data/record/results-v1.1.yaml": V11_MORE}
    )
    out = folder / "out"
    build(content, TEMPLATES, out, cache=CACHE)
    return content, out


def page(out, path):
    return (out / path).read_text("utf-8")


def text_of(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize(
    "lang, said", [("en", "Carried over from v1.0: the same runs as "), ("zh", "沿用v1.0的成绩：与")]
)
def test_result_page_says_carried_over_and_links_the_original(built, lang, said):
    html = page(built[1], f"{lang}/results/{CARRIED}.html")
    note = re.search(r'<p class="carry-note">(.*?)</p>', html).group(1)
    assert said in re.sub(r"<[^>]+>", "", note)
    assert f'href="{GIANT["id"]}.html"' in note
    assert 'class="carry-note"' not in page(built[1], f"{lang}/results/{NEAR}.html")


@pytest.mark.parametrize("lang, said", [("en", "Copy of"), ("zh", "本轮重复成绩")])
def test_result_page_says_copy_of(built, lang, said):
    html = page(built[1], f"{lang}/results/{COPY}.html")
    note = re.search(r'<p class="carry-note">(.*?)</p>', html).group(1)
    assert said in note and 'href="v1.0-acme-acme16-bert.html"' in note
    assert 'class="carry-note"' not in page(built[1], f"{lang}/results/v1.0-acme-acme16-bert.html")


@pytest.mark.parametrize(
    "lang, said",
    [("en", "Not scored: 3 of 5 required logs."), ("zh", "未计成绩：规则要求5份日志，这里只有3份。")],
)
def test_a_short_result_is_listed_with_its_reason_and_not_scored(built, lang, said):
    html = page(built[1], f"{lang}/results/{SHORT}.html")
    assert said in re.sub(r"<[^>]+>", "", re.search(r'<p class="score">(.*?)</p>', html).group(1))
    board = page(built[1], f"{lang}/benchmarks/bert/v1.0.html")
    row = re.search(rf'<tr[^>]*><th scope="row"><a href="../../results/{SHORT}.html">.*?</tr>', board).group(
        0
    )
    assert ("日志不足" if lang == "zh" else "too few logs") in row and "data-value=\"41.0\"" not in row


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_leaderboard_marks_carried_and_copies_and_counts_a_copy_once(built, lang):
    v11 = page(built[1], f"{lang}/benchmarks/bert/v1.1.html")
    row = re.search(rf'<th scope="row"><a href="../../results/{CARRIED}.html">.*?</th>', v11).group(0)
    assert f'href="../../results/{GIANT["id"]}.html"' in row
    assert ("（沿用v1.0）" if lang == "zh" else "(carried over from v1.0)") in row
    v10 = page(built[1], f"{lang}/benchmarks/bert/v1.0.html")
    bert_v10 = [r for r in yaml.safe_load(V10_MORE) if r["benchmark"] == "bert"]
    counted = len(bert_v10) - 1  # the copy counts once
    intro = text_of(re.search(r"<h1>.*?</h1>\s*<p>(.*?)</p>", v10, re.S).group(1))
    assert intro.startswith(f"共{counted}项成绩" if lang == "zh" else f"{counted} results,")
    copy_row = re.search(rf'<th scope="row"><a href="../../results/{COPY}.html">.*?</th>', v10).group(0)
    assert ("（重复）" if lang == "zh" else "(copy)") in copy_row


def test_csv_names_what_was_carried_over_and_copied(built):
    rows = {
        r["id"]: r for r in csv.DictReader(io.StringIO(page(built[1], "downloads/mlperf-training-all.csv")))
    }
    assert rows[CARRIED]["carried_over_from"] == GIANT["id"] and rows[CARRIED]["copy_of"] == ""
    assert rows[COPY]["copy_of"] == "v1.0-acme-acme16-bert" and rows[COPY]["carried_over_from"] == ""
    assert rows[NEAR]["carried_over_from"] == rows[NEAR]["copy_of"] == ""
    assert (rows[SHORT]["status"], rows[SHORT]["value"]) == ("too few logs", "")


def test_progress_marks_a_round_whose_best_is_carried_over(built):
    site = load_site(built[0])
    points = {p["round"]: p for p in progress(site, "bert", index_of(site)) if p["series"] is None}
    assert points["v1.1"]["id"] == CARRIED and points["v1.1"]["carried"] == "v1.0"
    assert points["v1.0"]["carried"] is None
    html = page(built[1], "en/benchmarks/bert.html")
    assert "(carried over from v1.0: the same runs)" in html
    assert "Hollow points: results carried over from an earlier round" in html


def test_a_fastest_reference_is_not_a_copy(built):
    from sitegen.derive import references as record_refs

    site = load_site(built[0])
    slot = record_refs.slot(site, "v1.0", "bert", "closed")
    assert COPY not in [r["id"] for r in slot] and SHORT not in [r["id"] for r in slot]


# --- the shipped record --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    _, records = load_record(ROOT / "content", Problems(ROOT / "content"))
    scores.unscore_short(records.values())
    return records, carryover.labels(records.values())


def test_the_fastest_closed_resnet_of_v40_is_carried_over_from_v30(shipped):
    records, found = shipped
    best = min(
        (
            r
            for r in records.values()
            if r["round"] == "v4.0"
            and r["benchmark"] == "resnet"
            and r["division"] == "closed"
            and r["value"] is not None
        ),
        key=lambda r: r["value"],
    )
    assert (best["accelerator_count"], f"{best['value']:.3g}") == (3584, "0.183")
    origin = records[found[best["id"]]["carried_over_from"]]
    assert origin["round"] == "v3.0" and sorted(origin["runs"]) == sorted(best["runs"])
    v31 = next(
        r
        for r in records.values()
        if r["round"] == "v3.1"
        and r["benchmark"] == "resnet"
        and r["runs"]
        and None not in r["runs"]
        and sorted(r["runs"]) == sorted(best["runs"])
    )
    assert found[v31["id"]]["carried_over_from"] == origin["id"]


def test_the_shipped_record_short_and_renamed_cases(shipped):
    records, found = shipped
    assert (
        found["v1.0-intel-1-node-4s-8380h-pytorch-dlrm"]["carried_over_from"]
        == "v0.7-intel-1-node-4s-cpx-pytorch-dlrm"
    )
    short = sorted(i for i, r in records.items() if r["status"] == "too few logs")
    assert short == ["v1.0-supermicro-as-4142gs-tnr-unet3d"]  # 22 of 40 logs
    assert records["v0.6-intel-clx-8260l-2s-x32-minigo"]["status"] == "scored"  # 10 of 10


# --- incremental builds ----------------------------------------------------------------------------


def test_editing_the_original_rebuilds_the_pages_it_was_carried_to(
    tmp_path, monkeypatch, warm_cache, warm_copy
):
    """The labels are derived from other results' runs: an edit of v1.0's result must reach
    the v1.1 page that named it (SITEGEN_VERIFY_REUSE checks every page taken unrendered)."""
    from test_bad_input import tree_digest

    monkeypatch.setenv("SITEGEN_VERIFY_REUSE", "1")
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = write_record_project(
        tmp_path / "p", {"data/record/results-v1.0.yaml": V10_MORE, "data/record/results-v1.1.yaml": V11_MORE}
    )
    out = tmp_path / "out"
    build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    assert "carry-note" in page(out, f"en/results/{CARRIED}.html")
    # v1.0's fastest run a hair slower: its score (fastest and slowest dropped) is unchanged,
    # but its runs are no longer those of the v1.1 result
    path = content / "data/record/results-v1.0.yaml"
    old = "runs: [0.4, 0.41, 0.412, 0.41547, 0.42]"
    assert path.read_text("utf-8").count(old) == 1
    path.write_text(path.read_text("utf-8").replace(old, old.replace("0.4,", "0.401,")), "utf-8")
    seal_record(content)  # a deliberate edit, sealed as an editor does (seal-record)
    again = build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    assert again.units_reused > 0
    assert "carry-note" not in page(out, f"en/results/{CARRIED}.html")
    assert "(carried over from v1.0)" not in page(out, "en/benchmarks/bert/v1.1.html")
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cold-cache"))
    build(content, TEMPLATES, tmp_path / "cold", cache=warm_copy(tmp_path / 'cold-cache'))  # no last state
    assert tree_digest(out) == tree_digest(tmp_path / "cold")
