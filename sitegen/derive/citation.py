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
    round: str  # v4.0
    benchmark: str  # the benchmark by the id the round's rules knew it (resnet for resnet_v05)
    division: str  # closed, open
    category: str  # available, preview, research
    submitter: str  # as published in the system description
    system: str  # the system description's system_name
    accelerator_count: int  # the count the site uses (a curated correction, with its source)
    official_count: int | None  # the system description's count where corrected, else None
    accelerator_model: str | None  # as published; None for a CPU-only system
    folder: str  # the official result folder at the commit read
    retrieved: dt.date | None  # None where the record does not say when it was read


def of_result(site, result: dict) -> Citation:
    """The citation of one result of the record: a copy or a carried-over result names its own
    folder, as published."""
    rnd = site.rounds[result["round"]]
    return Citation(
        round=result["round"],
        benchmark=RULES_NAME.get(result["benchmark"], result["benchmark"]),  # without the site's mark
        division=result["division"],
        category=result["category"],
        submitter=result["submitter"],
        system=result["system_name"],
        accelerator_count=result["accelerator_count"],
        official_count=result.get("accelerator_count_official") if result.get("count_correction") else None,
        accelerator_model=result.get("accelerator_model"),
        folder=urls.official(rnd, result["path"]),
        retrieved=rnd.get("retrieved"),
    )
