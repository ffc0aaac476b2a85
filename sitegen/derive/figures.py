"""Stage 2: every derived number, computed from the data and nowhere else.

Speed-ups, price-performance ratios and percentages live here, each with the arithmetic that
produced it, so that pages can show their working; the claims' verdicts built on them are in
claims.py, what each verdict rests on in evidence.py."""

from __future__ import annotations

from functools import partial

from sitegen.base import fmt
from sitegen.content.model import Site
from sitegen.content.schema import CHECK_KINDS  # noqa: F401 - the one list of check kinds
from sitegen.derive import references as record_refs
from sitegen.derive.references import slot

MINUTES = {"min": 1.0, "h": 60.0}


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


def _tolerance(figure: float) -> float:
    return 0.5 * 10 ** -fmt.decimals_of(figure) + 1e-9


def agrees(value: float, figure: float) -> bool:
    return abs(value - figure) <= _tolerance(figure)


def _time_text(site: Site, result_id: str, lang: str) -> str:
    found = result(site, result_id)
    return fmt.duration(found["value"], found["unit"], site.languages.get(lang))


def _steps_ratio(site, check, lang, value, unit) -> list[str]:
    """Each line says what it is: a speed-up (×), the same as a percentage gain, and for a
    percentage claim also the time reduction, so that the three are never confused."""
    r, b = check["result"], check["baseline"]
    say = site.strings.get(lang, {})
    line = f"{_time_text(site, b, lang)} ÷ {_time_text(site, r, lang)} = {fmt.ratio(value, site.languages.get(lang), 4)}"
    lines = [say.get("check.speedup", "{line}").format(line=line)]
    if unit == "percent":
        gain = f"({fmt.figure(value, site.languages.get(lang), 4)} − 1) × 100 = {fmt.percent((value - 1) * 100, site.languages.get(lang))}"
        cut = (
            f"(1 − {_time_text(site, r, lang)} ÷ {_time_text(site, b, lang)}) × 100 = "
            f"{fmt.percent(reduction(site, r, b), site.languages.get(lang))}"
        )
        lines += [
            say.get("check.gain", "{line}").format(line=gain),
            say.get("check.reduction", "{line}").format(line=cut),
        ]
    return lines


def compute(site: Site, claim: dict) -> tuple[float | None, dict[str, list[str]]]:
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
            f"({_time_text(site, check['baseline'], lang)} × {fmt.usd(base['amount'], site.languages.get(lang))})"
            f" ÷ ({_time_text(site, check['result'], lang)} × {fmt.usd(price['amount'], site.languages.get(lang))})"
            f" = {fmt.ratio(value, site.languages.get(lang), 4)}"
        ]
    return value, steps


def _spec_steps(site: Site, check: dict):
    mine, theirs = site.spec(check["system"], check["spec"]), site.spec(check["baseline"], check["spec"])
    if not mine or not theirs:
        return None, {}
    value = mine["value"] / theirs["value"]
    steps = {
        lang: [
            f"{fmt.quantity(mine['value'], mine['unit'], site.languages.get(lang))} ÷ "
            f"{fmt.quantity(theirs['value'], theirs['unit'], site.languages.get(lang))} = {fmt.ratio(value, site.languages.get(lang), 4)}"
        ]
        for lang in site.languages
    }
    return value, steps


def described(site: Site, ident: str) -> dict:
    """A result as its round's system description gives it (the record's fields)."""
    return site.record.get(ident) or result(site, ident)


def _scale_steps(site: Site, check: dict, kind: str):
    """accelerators: the result's accelerator count; host_ratio: accelerators per host CPU;
    host_servers: host CPUs / the CPUs per server the claim's source gives (a system
    description counts host CPUs; its 'nodes' need not be host servers), all from the MLPerf
    system description of the result."""
    found = described(site, check["result"])
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
        (
            lambda lang: (
                fmt.number(value, site.languages.get(lang), 0)
                if value == int(value)
                else fmt.figure(value, site.languages.get(lang))
            )
        )
        if kind == "host_servers"
        else (lambda lang: fmt.ratio(value, site.languages.get(lang), 4))
    )
    steps = {
        lang: [
            site.strings.get(lang, {})
            .get(f"check.{kind}", "{line}")
            .format(
                line=f"{fmt.number(top, site.languages.get(lang), 0)} ÷ {fmt.number(bottom, site.languages.get(lang), 0)} = {shown(lang)}"
            )
        ]
        for lang in site.languages
    }
    return value, steps


def ranked(site: Site, check: dict) -> list[dict]:
    """The scored record results of the claimed result's round, benchmark and division
    (with `nodes` nodes, when the check gives it), fastest first."""
    mine = described(site, check["result"])
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
        f"{r['submitter']} {r['system_name']}, {fmt.number(r['accelerator_count'], site.languages.get(lang), 0)}"
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
            say.get("check.fastest", "{n}").format(n=fmt.number(len(order), site.languages.get(lang), 0)),
            say.get("check.fastest_first", "{line}").format(line=line(order[0])),
        ]
        if level:
            lines.append(
                say.get("check.fastest_level", "{lines}").format(
                    band=fmt.number(band * 100, site.languages.get(lang), 1),
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
