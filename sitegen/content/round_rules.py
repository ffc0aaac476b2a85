"""The rules of each MLPerf Training round, in one table per concern.

- ROUNDS: round -> publication date, mlperf_logging ruleset, repository.
- benchmark_id(): the benchmark folder of a round -> the benchmark id spanning rounds.
- division() and category(): the many published spellings -> closed/open and
  available/preview/research.
- runs_required(), max_failed() and score(): how many runs a result needs, how many may fail
  and how the score is made (training_rules.adoc of the round; mlperf_logging's summarizer).
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Round(NamedTuple):
    published: str
    ruleset: str
    repository: str


def _round(version: str, published: str) -> Round:
    return Round(published, version + ".0", f"https://github.com/mlcommons/training_results_v{version}")


ROUNDS = {
    "v0.5": _round("0.5", "2018-12-12"),
    "v0.6": _round("0.6", "2019-07-10"),
    "v0.7": _round("0.7", "2020-07-29"),
    "v1.0": _round("1.0", "2021-06-30"),
    "v1.1": _round("1.1", "2021-12-01"),
    "v2.0": _round("2.0", "2022-06-29"),
    "v2.1": _round("2.1", "2022-11-09"),
    "v3.0": _round("3.0", "2023-06-27"),
    "v3.1": _round("3.1", "2023-11-08"),
    "v4.0": _round("4.0", "2024-06-12"),
    "v4.1": _round("4.1", "2024-11-13"),
    "v5.0": _round("5.0", "2025-06-04"),
    "v5.1": _round("5.1", "2025-11-12"),
}

# Folder names that mean another benchmark id; (first round, folder) -> id, latest rule wins.
BENCHMARK_FOLDERS = [
    ("v0.5", "mask", "maskrcnn"),
    ("v0.5", "gnn", "rgat"),
    ("v2.0", "ssd", "retinanet"),
    ("v3.0", "dlrm", "dlrm_dcnv2"),
]
# Benchmarks whose quality target or data changed so that times are not comparable across
# rounds: (round, benchmark id) -> the id of that round's results. From training_rules.adoc of
# each round (training_policies) and, where that file lagged (SSD and GNMT were raised for v0.6
# but the file said so only from 2020-05-29, commits 424aeb7 and 65c9ba7, fixing issues #173
# and #174), from the round's own logs and reference code:
# - resnet: 74.9% top-1 in v0.5, 75.9% from v0.6 (rules of 2018-12-18 and 2019-07-04);
# - ssd: 21.2% mAP in v0.5, 23.0% from v0.6 (v0.6 code: EVAL_TARGET = 0.23, threshold=0.23);
# - gnmt: 21.8 BLEU in v0.5, 24.0 from v0.6 (v0.6 code and logs: target_bleu 24.0);
# - minigo: 9x9 Go to 40% pro-move prediction in v0.5, 9x9 to a win rate against a target
#   model in v0.6 (flags/9.mn, BOARD_SIZE=9), 19x19 to 50% win rate vs. a checkpoint from v0.7;
# - bert: 0.712 masked-LM accuracy in v0.7, 0.720 from v1.0.
BENCHMARK_SUFFIXES = {
    ("v0.5", "resnet"): "resnet_v05",
    ("v0.5", "ssd"): "ssd_v05",
    ("v0.5", "gnmt"): "gnmt_v05",
    ("v0.5", "minigo"): "minigo_v05",
    ("v0.6", "minigo"): "minigo_v06",
    ("v0.7", "bert"): "bert_v07",
}
# The rules' own name of a split benchmark (runs needed, failures allowed).
RULES_NAME = {split: name for (_, name), split in BENCHMARK_SUFFIXES.items()}

DIVISIONS = {"closed": "closed", "close": "closed", "open": "open"}
CATEGORY_WORDS = (
    ("research", "research"),
    ("preview", "preview"),
    ("available", "available"),
    ("onprem", "available"),
    ("cloud", "available"),
)
CATEGORY_CODES = {"rdi": "research"}

# Runs a benchmark needs in v0.5 and v0.6 (training_rules.adoc of those rounds: vision 5,
# translation 10, recommendation "run 100, use first 50 that converge"). Reinforcement learning
# (minigo) needs 10: the file said 20 until commit 58f6836 of 2020-05-29 ("Fix #155 RL number of
# runs is incorrect"); issue #155 (2018-12-11: "The doc says 20 but it should be 10") was
# answered "Already decided" by the working group on 2019-01-10, and every v0.5 and v0.6 minigo
# folder holds 10 logs: the file lagged, as it did for SSD and GNMT above.
EARLY_RUNS = {"resnet": 5, "ssd": 5, "maskrcnn": 5, "gnmt": 10, "transformer": 10, "ncf": 100, "minigo": 10}
NCF_CONVERGED_USED = 50


def round_key(round_id: str) -> tuple[int, int]:
    major, minor = round_id[1:].split(".")
    return int(major), int(minor)


def benchmark_id(round_id: str, folder: str) -> str:
    name = folder.strip().lower()
    for first, old, new in BENCHMARK_FOLDERS:
        if name == old and round_key(round_id) >= round_key(first):
            name = new
    return BENCHMARK_SUFFIXES.get((round_id, name), name)


def _squash(text) -> str:
    return re.sub(r"[^a-z]", "", str(text or "").lower())


def division(text) -> str | None:
    return DIVISIONS.get(_squash(text))


def category(text) -> str | None:
    """`Available on-premise`, `available in cloud`, `onprem`, `cloud` -> available, `rdi`
    (research, development, internal) -> research, `preview` -> preview."""
    squashed = _squash(text)
    found = [cat for word, cat in CATEGORY_WORDS if word in squashed]
    return CATEGORY_CODES.get(squashed) or (found[0] if found else None)


def rules_name(benchmark: str) -> str:
    """The name the rules and mlperf_logging give a benchmark (`bert` for `bert_v07`)."""
    return RULES_NAME.get(benchmark, benchmark)


def runs_required(round_id: str, benchmark: str) -> int | None:
    benchmark = rules_name(benchmark)
    if round_key(round_id) < (0, 7):
        return EARLY_RUNS.get(benchmark)
    # imported here: builds check scores with this module, and need no mlperf_logging
    from mlperf_logging.benchmark_meta import get_result_file_counts

    return get_result_file_counts("training").get(benchmark)


def max_failed(benchmark: str) -> int:
    """As the summarizer: four runs may fail for unet3d, one elsewhere."""
    return 4 if rules_name(benchmark) == "unet3d" else 1


def kept_slice(converged: int, failed: int, most_failed: int) -> slice:
    """Which of `converged` run times, fastest first, a score keeps: failed runs count as the
    slowest; the `most_failed` fastest and slowest are dropped (mlperf_logging's
    _compute_olympic_average). The time score and the throughput (derive/throughput.py) keep
    the same runs."""
    return slice(most_failed, converged - (most_failed - failed))


def olympic_average(times: list[float], failed: int, most_failed: int) -> float | None:
    """mlperf_logging's _compute_olympic_average: the mean of the kept runs (kept_slice). For 3
    runs it is the median (llama31_405b)."""
    kept = sorted(times)[kept_slice(len(times), failed, most_failed)]
    return sum(kept) / len(kept) if kept else None


def score(round_id: str, benchmark: str, runs: list[float | None]) -> tuple[float | None, str]:
    """(score, reason when None) for run times in result-file order (None = failed run)."""
    if round_id == "v0.5" and benchmark == "ncf":
        runs = list([t for t in runs if t is not None][:NCF_CONVERGED_USED])
    times = [t for t in runs if t is not None]
    failed, most = len(runs) - len(times), max_failed(benchmark)
    if failed > most:
        return None, f"{failed} of {len(runs)} runs failed; the round's rules allow {most}"
    value = olympic_average(times, failed, most)
    return value, "" if value is not None else "no run left after dropping fastest and slowest"
