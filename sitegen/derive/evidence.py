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
    if check["kind"] not in ("spec_ratio", "price"):
        items += [_result_item(result(site, check[key])) for key in ("result", "baseline") if check.get(key)]
    items += KIND_EVIDENCE.get(check["kind"], _no_more)(site, claim)
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
    if check["kind"] == "spec_ratio":  # a specification comes after the statement
        items += _spec_evidence(site, claim)
    return items


def _result_item(r: dict, independent: bool = True, what: str = "result") -> dict:
    """A record result as evidence: its round's official repository is its source."""
    return {
        "what": what,
        "id": r["id"],
        "source": f"mlperf-training-{r['round']}",
        "independent": independent,
    }


def _no_more(site: Site, claim: dict) -> list[dict]:
    return []


def _price_performance_evidence(site: Site, claim: dict) -> list[dict]:
    """The price of each of the two systems (a claim may name another priced system)."""
    check = claim["check"]
    results = [result(site, check["result"]), result(site, check["baseline"])]
    return [
        _price_evidence(site, claim, check.get("price") or results[0]["system"]),
        _price_evidence(site, claim, check.get("baseline_price") or results[1]["system"]),
    ]


def _one_price_evidence(site: Site, claim: dict) -> list[dict]:
    return [_price_evidence(site, claim, claim["check"]["system"])]


def _submission_evidence(site: Site, claim: dict) -> list[dict]:
    """The results the claim's submission IDs name, and the IDs no cited source ties to a result."""
    items = [_result_item(found) for found in submission_results(site, claim["check"])]
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
    return items


def _host_evidence(site: Site, claim: dict) -> list[dict]:
    check = claim["check"]
    return [
        {
            "what": "cpus_per_server",
            "id": check["result"],
            "source": claim["source"],
            "count": check["cpus_per_server"],
            "independent": False,
        }
    ]


def _spec_evidence(site: Site, claim: dict) -> list[dict]:
    """Each system's specification; independent when its source is not the claim's own."""
    check = claim["check"]
    items = []
    for system in (check["system"], check["baseline"]):
        spec = site.spec(system, check["spec"]) or {}
        source = spec.get("source")
        items.append(
            {
                "what": "spec",
                "id": system,
                "source": source,
                "independent": source not in (None, claim["source"]),
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
    items = [_result_item(r) for r in [*top, *([after] if after else [])] if r["id"] != check["result"]]
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
            items.append(_result_item(r, independent=False, what="unscored"))
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


# what each kind of check rests on besides its result and baseline
KIND_EVIDENCE = {
    "price_performance": _price_performance_evidence,
    "price": _one_price_evidence,
    "submission_ids": _submission_evidence,
    "fastest": _fastest_evidence,
    "host_servers": _host_evidence,
}
