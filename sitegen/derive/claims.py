"""Each claim's check: its value recomputed (figures.py), what it rests on (evidence.py), and
its verdict, with another reading of the data when the stated figure differs."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from sitegen.content.model import Site
from sitegen.derive.evidence import evidence
from sitegen.derive.figures import MINUTES, agrees, compute, leaders, minutes, reduction, result
from sitegen.derive.lazy import LazyReplayed, lazy_mapping

# Verdicts, in the order pages count them. The rules (written out in the methodology):
# - unchecked ("cannot be checked"): no value can be computed, or the only evidence is the
#   claim's own source or an estimate (a price some party gave), never independent;
# - partly ("partly checked"): the value uses independent evidence (MLPerf logs, datasheets,
#   list prices from another source) and evidence that is not; the page names both;
# - consistent / differs: all the evidence is independent, and the value rounds to the stated
#   figure at the figure's own precision, or does not.
VERDICTS = ("consistent", "differs", "partly", "unchecked")


@dataclass
class Check:
    claim: dict
    value: float | None  # the recomputed figure in the claim's unit, None if unchecked
    verdict: str  # consistent | differs | partly | unchecked (see VERDICTS)
    steps: dict[str, list[str]] = field(default_factory=dict)  # lang -> lines of arithmetic
    alternative: dict | None = None  # another reading of the data that matches the figure
    records: list[str] = field(default_factory=list)  # record result ids used, linked on the page
    unchecked_parts: list[dict] = field(default_factory=list)  # evidence that is not independent
    agrees: bool | None = None  # for a partly checked claim: does the arithmetic agree?
    divisions: tuple = ()  # the divisions of the results compared, when they differ

    @property
    def difference(self) -> float | None:
        return None if self.value is None else self.value - self.claim["figure"]


def _alternative(site: Site, claim: dict) -> dict | None:
    """When a figure differs, look for the reading that matches it: the time reduction instead
    of the speed-up, or the same comparison in the other division."""
    check = claim["check"]
    if check["kind"] == "improvement":
        value = reduction(site, check["result"], check["baseline"])
        if agrees(value, claim["figure"]):
            return {"reason": "reduction", "value": value}
    if check["kind"] in ("time", "improvement", "speedup") and check.get("result"):
        twin = _other_division(site, check["result"])
        if twin and check["kind"] == "time":
            value = minutes(twin) / MINUTES.get(claim["unit"], 1.0)
            if agrees(value, claim["figure"]):
                return {"reason": "division", "value": value, "result": twin["id"]}
    return None


def _other_division(site: Site, result_id: str) -> dict | None:
    result = site.tables["results"][result_id]
    return next(
        (
            r
            for r in site.table("results")
            if r["system"] == result["system"]
            and r["benchmark"] == result["benchmark"]
            and r["round"] == result["round"]
            and r["division"] != result["division"]
        ),
        None,
    )


def _divisions(site: Site, claim: dict) -> tuple:
    check = claim["check"]
    if check["kind"] not in ("speedup", "improvement", "price_performance") or not check.get("baseline"):
        return ()
    found = (result(site, check["result"])["division"], result(site, check["baseline"])["division"])
    return found if found[0] != found[1] else ()


def check_claim(site: Site, claim: dict) -> Check:
    value, steps = compute(site, claim)
    rests_on = evidence(site, claim) if claim["check"]["kind"] != "none" else []
    records = [e["id"] for e in rests_on if e["what"] == "result"]
    weak = [e for e in rests_on if not e["independent"]]
    if value is None or (rests_on and len(weak) == len(rests_on)):
        return Check(claim, value, "unchecked", steps, records=records, unchecked_parts=weak)
    first = _is_fastest(site, claim)  # a result ranked below a scored one is not the fastest
    agreed = agrees(value, claim["figure"]) and first
    divisions = _divisions(site, claim)
    if weak and first:
        return Check(
            claim,
            value,
            "partly",
            steps,
            records=records,
            unchecked_parts=weak,
            agrees=agreed,
            divisions=divisions,
        )
    verdict = "consistent" if agreed else "differs"
    alternative = _alternative(site, claim) if verdict == "differs" else None
    return Check(claim, value, verdict, steps, alternative, records, divisions=divisions)


def _is_fastest(site: Site, claim: dict) -> bool:
    """For a 'fastest' claim the claimed result must share the first rank (be the fastest or
    level with it), not only match a time; a result ranked below those is not the fastest."""
    check = claim["check"]
    if check["kind"] != "fastest":
        return True
    order, level, _ = leaders(site, check)
    return check["result"] in [r["id"] for r in [*order[:1], *level]]


def check_claims(site: Site) -> LazyReplayed:
    """Every claim's check, made when first read (lazy.py); a page that reads one depends on
    what that check read (content/tracking.py)."""

    def each():
        for claim in site.table("claims"):
            yield claim["id"], partial(check_claim, site, claim)

    return lazy_mapping(site.reads, each)
