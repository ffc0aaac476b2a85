"""What a claim's check rests on: each record result, price, specification or statement it
uses, and whether that item is independent of the claim's own source (claims.py decides the
verdict from it)."""

from __future__ import annotations

from sitegen.content.model import Site
from sitegen.derive import references as record_refs
from sitegen.derive.figures import described, leaders, result, submission_results


def evidence(site: Site, claim: dict) -> list[dict]:
    """What a check's value rests on: {what, source, independent} per item."""
    check = claim["check"]
    items = []
    for key in ("result", "baseline"):
        ident = check.get(key)
        if ident and check["kind"] not in ("spec_ratio", "price"):
            items.append(
                {
                    "what": "result",
                    "id": ident,
                    "source": f"mlperf-training-{result(site, ident)['round']}",
                    "independent": True,
                }
            )
    if check["kind"] == "price_performance":
        results = [result(site, check["result"]), result(site, check["baseline"])]
        for system in (
            check.get("price") or results[0]["system"],
            check.get("baseline_price") or results[1]["system"],
        ):
            items.append(_price_evidence(site, claim, system))
    if check["kind"] == "price":
        items.append(_price_evidence(site, claim, check["system"]))
    if check["kind"] == "submission_ids":
        for found in submission_results(site, check):
            items.append(
                {
                    "what": "result",
                    "id": found["id"],
                    "source": f"mlperf-training-{found['round']}",
                    "independent": True,
                }
            )
        stated = {r.get("submission_id") for r in site.table("results") if r.get("submission_id")}
        unmatched = [i for i in claim.get("submission_ids") or [] if i not in stated]
        if unmatched:  # no cited source says which result an ID names
            items.append(
                {
                    "what": "submission_id",
                    "id": ", ".join(unmatched),
                    "source": claim["source"],
                    "independent": False,
                }
            )
    if check["kind"] == "fastest":
        items += _fastest_evidence(site, claim)
    if check["kind"] == "host_servers":
        items.append(
            {
                "what": "cpus_per_server",
                "id": check["result"],
                "source": claim["source"],
                "count": check["cpus_per_server"],
                "independent": False,
            }
        )
    if claim.get("not_checked"):
        items.append(
            {
                "what": "statement",
                "id": claim["id"],
                "source": claim["source"],
                "text": claim["not_checked"],
                "independent": False,
            }
        )
    if check["kind"] == "spec_ratio":
        for system in (check["system"], check["baseline"]):
            spec = site.spec(system, check["spec"]) or {}
            items.append(
                {
                    "what": "spec",
                    "id": system,
                    "source": spec.get("source"),
                    "independent": spec.get("source") not in (None, claim["source"]),
                }
            )
    return items


def _fastest_evidence(site: Site, claim: dict) -> list[dict]:
    """The fastest, the results level with it and the next result ranked; when the claimed
    result is one of those level (first or not), the lead the claim states, which the record
    cannot show; and any result of the slot whose logs are missing: it has no time, so the
    ranking cannot place it."""
    check = claim["check"]
    order, level, after = leaders(site, check)
    top = [*order[:1], *level]
    items = [
        {"what": "result", "id": r["id"], "source": f"mlperf-training-{r['round']}", "independent": True}
        for r in [*top, *([after] if after else [])]
        if r["id"] != check["result"]
    ]
    if level and check["result"] in [r["id"] for r in top]:
        items.append(
            {
                "what": "level",
                "id": check["result"],
                "others": [r["id"] for r in top if r["id"] != check["result"]],
                "band": record_refs.band_of(site, order[0]["benchmark"]),
                "source": f"mlperf-training-{order[0]['round']}",
                "independent": False,  # the lead is within run-to-run variation: not shown
            }
        )
    mine = described(site, check["result"])
    for r in record_refs.unscored(site, mine["round"], mine["benchmark"], mine["division"]):
        if check.get("nodes") is None or r.get("nodes") == check.get("nodes"):
            items.append(
                {
                    "what": "unscored",
                    "id": r["id"],
                    "source": f"mlperf-training-{r['round']}",
                    "independent": False,
                }
            )
    return items


def _price_evidence(site: Site, claim: dict, system: str) -> dict:
    """A price is independent evidence only when it is a published list price from a source
    other than the claim's own; an estimate is what some party said."""
    price = site.first_price(system) or {}
    independent = price.get("basis") == "list" and price.get("source") not in (None, claim["source"])
    return {
        "what": "price",
        "id": system,
        "source": price.get("source"),
        "basis": price.get("basis"),
        "independent": independent,
    }
