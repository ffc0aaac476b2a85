"""Stage 2: every derived number, computed from the data and nowhere else.

Speed-ups, price-performance ratios, percentages and claim verdicts live here, each with the
arithmetic that produced it, so that pages can show their working."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from sitegen.base import fmt
from sitegen.content.model import Site
from sitegen.content.schema import CHECK_KINDS  # noqa: F401 - the one list of check kinds
from sitegen.content.tracking import derived_mapping
from sitegen.derive import references as record_refs
from sitegen.derive.references import slot

MINUTES = {"min": 1.0, "h": 60.0}

# Verdicts, in the order pages count them. The rules (written out in the methodology):
# - unchecked ("cannot be checked"): no value can be computed, or the only evidence is the
#   claim's own source or an estimate (a price some party gave), never independent;
# - partly ("partly checked"): the value uses independent evidence (MLPerf logs, datasheets,
#   list prices from another source) and evidence that is not; the page names both;
# - consistent / differs: all the evidence is independent, and the value rounds to the stated
#   figure at the figure's own precision, or does not.
VERDICTS = ("consistent", "differs", "partly", "unchecked")


def minutes(result: dict) -> float:
    return result["value"] * MINUTES[result["unit"]]


def result(site: Site, ident: str) -> dict:
    """A result of the curated table, or else any result of the whole record."""
    return site.tables["results"].get(ident) or site.record[ident]


def speedup(site: Site, result_id: str, baseline_id: str) -> float:
    """How many times faster `result` trained than `baseline` (baseline time / result time)."""
    return minutes(result(site, baseline_id)) / minutes(result(site, result_id))


def improvement(site: Site, result_id: str, baseline_id: str) -> float:
    """The speed-up as a percentage gain: 1.24x faster is +24%."""
    return (speedup(site, result_id, baseline_id) - 1) * 100


def reduction(site: Site, result_id: str, baseline_id: str) -> float:
    """Time saved, in percent of the baseline's time: another reading of 'improvement'."""
    return (1 - minutes(result(site, result_id)) / minutes(result(site, baseline_id))) * 100


def price_performance(
    site: Site,
    result_id: str,
    baseline_id: str,
    price_system: str | None = None,
    baseline_price_system: str | None = None,
) -> float | None:
    """(baseline time x baseline price) / (result time x result price); None without prices."""
    mine, baseline = result(site, result_id), result(site, baseline_id)
    price = site.first_price(price_system or mine["system"])
    base_price = site.first_price(baseline_price_system or baseline["system"])
    if not price or not base_price:
        return None
    return (minutes(baseline) * base_price["amount"]) / (minutes(mine) * price["amount"])


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


def _tolerance(figure: float) -> float:
    return 0.5 * 10 ** -fmt.decimals_of(figure) + 1e-9


def agrees(value: float, figure: float) -> bool:
    return abs(value - figure) <= _tolerance(figure)


def _time_text(site: Site, result_id: str, lang: str) -> str:
    found = result(site, result_id)
    return fmt.duration(found["value"], found["unit"], lang)


def _steps_ratio(site, check, lang, value, unit) -> list[str]:
    """Each line says what it is: a speed-up (×), the same as a percentage gain, and for a
    percentage claim also the time reduction, so that the three are never confused."""
    r, b = check["result"], check["baseline"]
    say = site.strings.get(lang, {})
    line = f"{_time_text(site, b, lang)} ÷ {_time_text(site, r, lang)} = {fmt.ratio(value, lang, 4)}"
    lines = [say.get("check.speedup", "{line}").format(line=line)]
    if unit == "percent":
        gain = f"({fmt.figure(value, lang, 4)} − 1) × 100 = {fmt.percent((value - 1) * 100, lang)}"
        cut = (
            f"(1 − {_time_text(site, r, lang)} ÷ {_time_text(site, b, lang)}) × 100 = "
            f"{fmt.percent(reduction(site, r, b), lang)}"
        )
        lines += [
            say.get("check.gain", "{line}").format(line=gain),
            say.get("check.reduction", "{line}").format(line=cut),
        ]
    return lines


def _compute(site: Site, claim: dict) -> tuple[float | None, dict[str, list[str]]]:
    check, unit = claim["check"], claim["unit"]
    kind = check["kind"]
    steps = {}
    if kind == "none":
        return None, {}
    if kind == "time":
        value = minutes(result(site, check["result"])) / MINUTES.get(unit, 1.0)
        return value, {}  # the value is the result itself: no arithmetic to show
    if kind in ("speedup", "improvement"):
        ratio = speedup(site, check["result"], check["baseline"])
        value = ratio if kind == "speedup" else (ratio - 1) * 100
        steps = {lang: _steps_ratio(site, check, lang, ratio, unit) for lang in site.languages}
        return value, steps
    if kind == "price_performance":
        return _price_perf_steps(site, check)
    if kind == "spec_ratio":
        return _spec_steps(site, check)
    if kind in ("accelerators", "host_ratio", "host_servers"):
        return _scale_steps(site, check, kind)
    if kind == "fastest":
        return _fastest_steps(site, claim)
    if kind == "submission_ids":
        return _submission_steps(site, claim)
    price = site.first_price(check["system"])
    return (price["amount"] if price else None), {}


def _price_perf_steps(site: Site, check: dict):
    value = price_performance(
        site, check["result"], check["baseline"], check.get("price"), check.get("baseline_price")
    )
    if value is None:
        return None, {}
    price = site.first_price(check.get("price") or result(site, check["result"])["system"])
    base = site.first_price(check.get("baseline_price") or result(site, check["baseline"])["system"])
    if price is None or base is None:  # price_performance gave a value: both are priced
        return None, {}
    steps = {}
    for lang in site.languages:
        steps[lang] = [
            f"({_time_text(site, check['baseline'], lang)} × {fmt.usd(base['amount'], lang)})"
            f" ÷ ({_time_text(site, check['result'], lang)} × {fmt.usd(price['amount'], lang)})"
            f" = {fmt.ratio(value, lang, 4)}"
        ]
    return value, steps


def _spec_steps(site: Site, check: dict):
    mine, theirs = site.spec(check["system"], check["spec"]), site.spec(check["baseline"], check["spec"])
    if not mine or not theirs:
        return None, {}
    value = mine["value"] / theirs["value"]
    steps = {
        lang: [
            f"{fmt.quantity(mine['value'], mine['unit'], lang)} ÷ "
            f"{fmt.quantity(theirs['value'], theirs['unit'], lang)} = {fmt.ratio(value, lang, 4)}"
        ]
        for lang in site.languages
    }
    return value, steps


def _described(site: Site, ident: str) -> dict:
    """A result as its round's system description gives it (the record's fields)."""
    return site.record.get(ident) or result(site, ident)


def _scale_steps(site: Site, check: dict, kind: str):
    """accelerators: the result's accelerator count; host_ratio: accelerators per host CPU;
    host_servers: host CPUs / the CPUs per server the claim's source gives (a system
    description counts host CPUs; its 'nodes' need not be host servers), all from the MLPerf
    system description of the result."""
    found = _described(site, check["result"])
    count = found.get("accelerator_count")
    if not count:
        return None, {}
    if kind == "accelerators":
        return float(count), {}
    cpus = found.get("host_cpu_count") or (found.get("host_cpu") or {}).get("count")
    if not cpus:
        return None, {}
    over = check["cpus_per_server"] if kind == "host_servers" else count
    value = (cpus if kind == "host_servers" else count) / (over if kind == "host_servers" else cpus)
    top, bottom = (cpus, over) if kind == "host_servers" else (count, cpus)
    shown = (
        (lambda lang: fmt.number(value, lang, 0) if value == int(value) else fmt.figure(value, lang))
        if kind == "host_servers"
        else (lambda lang: fmt.ratio(value, lang, 4))
    )
    steps = {
        lang: [
            site.strings.get(lang, {})
            .get(f"check.{kind}", "{line}")
            .format(line=f"{fmt.number(top, lang, 0)} ÷ {fmt.number(bottom, lang, 0)} = {shown(lang)}")
        ]
        for lang in site.languages
    }
    return value, steps


def ranked(site: Site, check: dict) -> list[dict]:
    """The scored record results of the claimed result's round, benchmark and division
    (with `nodes` nodes, when the check gives it), fastest first."""
    mine = _described(site, check["result"])
    nodes = check.get("nodes")
    return [
        r
        for r in slot(site, mine["round"], mine["benchmark"], mine["division"])
        if nodes is None or r.get("nodes") == nodes
    ]


def leaders(site: Site, check: dict) -> tuple[list[dict], list[dict], dict | None]:
    """(the ranked results, those level with the first, the next result after them): the first
    and those level with it share the first rank (derived.ranks), and none of them leads
    clearly; the next is the first ranked below them, or None."""
    order = ranked(site, check)
    if not order:
        return [], [], None
    level = record_refs.level_with_first(site, order, order[0]["benchmark"])
    after = order.index(level[-1]) + 1 if level else 1
    return order, level, order[after] if after < len(order) else None


def _ranked_line(site: Site, lang: str, r: dict) -> str:
    """A ranked result as the steps show it: who, which system, its scale and its time."""
    return (
        f"{r['submitter']} {r['system_name']}, {fmt.number(r['accelerator_count'], lang, 0)}"
        f" × {r.get('accelerator_model') or ''}: {_time_text(site, r['id'], lang)}"
    )


def _fastest_steps(site: Site, claim: dict):
    """The claimed result's time when it shares the first rank (else the fastest time), in the
    claim's unit; the steps name the fastest, every result level with it (within the
    benchmark's noise band), and the next result."""
    order, level, after = leaders(site, claim["check"])
    if not order:
        return None, {}
    top = [order[0], *level]
    shown = next((r for r in top if r["id"] == claim["check"]["result"]), order[0])
    value = minutes(shown) / MINUTES.get(claim["unit"], 1.0)
    band = record_refs.band_of(site, order[0]["benchmark"])
    steps = {}
    for lang in site.languages:
        say = site.strings.get(lang, {})
        line = partial(_ranked_line, site, lang)
        lines = [
            say.get("check.fastest", "{n}").format(n=fmt.number(len(order), lang, 0)),
            say.get("check.fastest_first", "{line}").format(line=line(order[0])),
        ]
        if level:
            lines.append(
                say.get("check.fastest_level", "{lines}").format(
                    band=fmt.number(band * 100, lang, 1),
                    lines=say.get("check.list_separator", "; ").join(line(r) for r in level),
                )
            )
        if after is not None:
            lines.append(say.get("check.fastest_next", "{line}").format(line=line(after)))
        steps[lang] = lines
    return value, steps


def submission_results(site: Site, check: dict) -> list[dict]:
    """The record's results of one submitter in one round (each system entry of a submission
    is what an MLPerf ID names)."""
    who = check["submitter"].lower()
    return sorted(
        (r for r in site.record.values() if r["round"] == check["round"] and r["submitter"].lower() == who),
        key=lambda r: r["id"],
    )


def _submission_steps(site: Site, claim: dict):
    """How many system entries the submitter has in the round: the number of MLPerf IDs a
    complete list of its submission holds."""
    found = submission_results(site, claim["check"])
    if not found:
        return None, {}
    entries = {(r["division"], r["system_folder"]) for r in found}
    return float(len(entries)), {}


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


def _evidence(site: Site, claim: dict) -> list[dict]:
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
    mine = _described(site, check["result"])
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


def _divisions(site: Site, claim: dict) -> tuple:
    check = claim["check"]
    if check["kind"] not in ("speedup", "improvement", "price_performance") or not check.get("baseline"):
        return ()
    found = (result(site, check["result"])["division"], result(site, check["baseline"])["division"])
    return found if found[0] != found[1] else ()


def check_claim(site: Site, claim: dict) -> Check:
    value, steps = _compute(site, claim)
    evidence = _evidence(site, claim) if claim["check"]["kind"] != "none" else []
    records = [e["id"] for e in evidence if e["what"] == "result"]
    weak = [e for e in evidence if not e["independent"]]
    if value is None or (evidence and len(weak) == len(evidence)):
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


def check_claims(site: Site) -> dict[str, Check]:
    """Every claim's check; a page that reads one depends on what that check read
    (content/tracking.py)."""

    def each():
        for claim in site.table("claims"):
            yield claim["id"], partial(check_claim, site, claim)

    return derived_mapping(site.reads, each())
