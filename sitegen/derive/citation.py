"""What a citation of one result names, as MLCommons' messaging guidelines ask
(mlcommons/policies, MLPerf_Results_Messaging_Guidelines.adoc, "Required Information" and
"Required Footnote"): the round, division, category and benchmark, the submitter and the system
under test, its accelerators, the source (the official result folder at the commit read) and the
date it was retrieved (rounds.yaml `retrieved`: the import's date, never a build's).

MLCommons publishes no file of result IDs for Training, so a citation carries none."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sitegen.base import urls
from sitegen.content.round_rules import RULES_NAME


@dataclass(frozen=True)
class Citation:
    result: str  # the result's id on this site (its page, its files), not an MLPerf result ID
    round: str  # v4.0
    benchmark: str  # the benchmark's name as MLCommons' rules name it (BERT-Large), in Latin
    division: str  # closed, open
    category: str  # available, preview, research
    submitter: str  # as published in the system description
    system: str  # the system description's system_name
    accelerator_count: int
    accelerator_model: str | None  # as published; None for a CPU-only system
    folder: str  # the official result folder at the commit read
    commit: str
    retrieved: dt.date | None  # None where the record does not say when it was read


def benchmark_name(site, benchmark_id: str) -> str:
    """A benchmark's name in Latin; a round's split id (resnet_v05) by the name MLCommons'
    rules gave it in that round (ResNet-50 v1.5), without the site's round mark."""
    return site.get("benchmarks", RULES_NAME.get(benchmark_id, benchmark_id))["name"]["en"]


def of_result(site, result: dict) -> Citation:
    """The citation of one result of the record: a copy or a carried-over result names its own
    folder, as published."""
    rnd = site.rounds[result["round"]]
    return Citation(
        result=result["id"],
        round=result["round"],
        benchmark=benchmark_name(site, result["benchmark"]),
        division=result["division"],
        category=result["category"],
        submitter=result["submitter"],
        system=result["system_name"],
        accelerator_count=result["accelerator_count"],
        accelerator_model=result.get("accelerator_model"),
        folder=urls.official(rnd, result["path"]),
        commit=rnd["commit"],
        retrieved=rnd.get("retrieved"),
    )
