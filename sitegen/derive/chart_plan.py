"""What a chart shows: the selection of a ```chart (or ```results) block, the metric computed
for each plotted point, and the plotted rows with their labels, order and texts in the page's
language. Pure data: the spec is built in draw.py, the figure in blocks.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sitegen.base.languages import Language
from sitegen.content.chip_looks import look_of
from sitegen.derive import figures as derive

SELECT_FIELDS = ("benchmark", "round", "division", "systems")
RESULTS_FIELDS = SELECT_FIELDS + ("caption",)
CHART_FIELDS = SELECT_FIELDS + ("metric", "kind", "baseline", "per", "caption", "title")
METRICS = {
    "time": "bars",
    "speedup": "bars",
    "price_performance": "bars",
    "scaling": "scaling",
    "change": "lines",
}
# drawn over the whole record by record_blocks.py, not over curated systems
RECORD_METRICS = ("fastest", "family_at_scale")
KINDS = ("bars", "grouped_bars", "lines", "scaling")
DIVISIONS = ("closed", "open", "both")
AXIS_FORMAT = {"scaling": ",.0f"}  # otherwise ",.2~f": no trailing zeros on the ticks


class BadBlock(Exception):
    """A mistake in a block; the message goes to page.fail with the block's line."""


@dataclass
class Selection:
    benchmarks: list[str]
    division: str
    rows: list[dict]


@dataclass
class Plan:
    """Everything a chart needs, already in the page's language."""

    lang: str
    language: Language  # the site's language `lang`: what fmt and the chart's font read
    metric: str
    kind: str
    rows: list[dict]  # the plotted data: the spec's values, the CSV, the JSON
    results: list[dict]  # the result record behind each row
    order: list[str]  # labels on the category axis, best first
    rounds: list[str]
    series_order: list[str]
    looks: list[tuple[str, str | None, str]]  # (chip family, colour or None: the ink, shape)
    division_names: list[str]
    both_divisions: bool
    axis_title: str
    axis_format: str
    caption: str
    title: str
    text: dict  # legend, axis and tooltip titles
    tooltip: list[tuple[str, str, str]] = field(default_factory=list)
    extra_sources: list[str] = field(default_factory=list)


def round_key(name: str) -> tuple:
    return tuple(int(n) for n in re.findall(r"\d+", name)) + (name,)


def as_list(value) -> list[str]:
    if value is None:
        return []
    return [str(v) for v in (value if isinstance(value, list) else [value])]


def benchmark_ids(site, params: dict) -> list[str]:
    """The block's benchmarks (`benchmark:`, one id or a list), each one the site knows."""
    found = as_list(params.get("benchmark"))
    if not found:
        raise BadBlock("needs 'benchmark: <id>' (one id or a list)")
    for ident in found:
        if ident not in site.tables["benchmarks"]:
            raise BadBlock(f"unknown benchmark '{ident}'")
    return found


# ---- selection -------------------------------------------------------------------------------


def select(site, params: dict, known: tuple) -> Selection:
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise BadBlock(f"unknown field '{unknown[0]}' (known: {', '.join(sorted(known))})")
    benchmarks = benchmark_ids(site, params)
    division = str(params.get("division", "both"))
    if division not in DIVISIONS:
        raise BadBlock(f"division must be closed, open or both, not '{division}'")
    systems = as_list(params.get("systems"))
    if site.rounds and not systems:  # the curated systems' results are not a round's results
        raise BadBlock(
            "needs 'systems: [<id>, ...]': with the MLPerf record, a block shows the "
            "systems it names; a round's every result is on its leaderboard"
        )
    for ident in systems:
        if ident not in site.tables["systems"]:
            raise BadBlock(f"unknown system '{ident}'")
    rounds = as_list(params.get("round"))
    rows = [
        r
        for r in site.table("results")
        if r["benchmark"] in benchmarks
        and (not rounds or r["round"] in rounds)
        and division in ("both", r["division"])
        and (not systems or r["system"] in systems)
    ]
    if not rows:
        raise BadBlock("the selection matches no result")
    rows.sort(
        key=lambda r: (
            benchmarks.index(r["benchmark"]),
            round_key(r["round"]),
            r["division"],
            derive.minutes(r),
            r["id"],
        )
    )
    return Selection(benchmarks, division, rows)


def results_rows(site, params: dict, page, line: int) -> list[dict] | None:
    """The rows of a ```results block (the chart selection fields, without metric)."""
    try:
        return select(site, params, RESULTS_FIELDS).rows
    except BadBlock as exc:
        page.fail(line, f"results block: {exc}")
        return None


# ---- metrics: (result, value, extra columns) per plotted point --------------------------------


def _best(rows: list[dict], site, per: str) -> list[dict]:
    """The fastest result per system (or per vendor) in each benchmark, round and division."""
    best: dict[tuple, dict] = {}
    for r in sorted(rows, key=lambda r: (derive.minutes(r), r["id"])):
        who = site.get("systems", r["system"])["vendor"] if per == "vendor" else r["system"]
        best.setdefault((who, r["benchmark"], r["round"], r["division"]), r)
    return list(best.values())


def _slot(r: dict) -> tuple:
    return r["benchmark"], r["round"], r["division"]


def _baseline(site, baseline: str, points: list[dict]) -> dict:
    best = {}
    for r in _best(site.results_for(system=baseline), site, "system"):
        best[_slot(r)] = r
    for r in points:
        if _slot(r) not in best:
            raise BadBlock(
                f"baseline '{baseline}' has no result for {r['benchmark']} {r['round']} {r['division']}"
            )
    return best


def _time(site, points, baseline):
    return [(r, derive.minutes(r), {}) for r in points]


def _speedup(site, points, baseline):
    base = _baseline(site, baseline, points)
    return [
        (r, round(derive.minutes(base[_slot(r)]) / derive.minutes(r), 4), {"time_min": derive.minutes(r)})
        for r in points
    ]


def _price_performance(site, points, baseline):
    if not site.first_price(baseline):
        raise BadBlock(f"baseline '{baseline}' has no price")
    priced = [r for r in points if site.first_price(r["system"])]
    if not priced:
        raise BadBlock("no system in the selection has a price")
    base = _baseline(site, baseline, priced)
    return [
        (
            r,
            round(derive.price_performance(site, r["id"], base[_slot(r)]["id"]), 4),
            {"time_min": derive.minutes(r), "price_usd": site.first_price(r["system"])["amount"]},
        )
        for r in priced
    ]


def _scaling(site, points, baseline):
    groups = {}
    for r in points:
        family = site.get("systems", r["system"])["family"]
        groups.setdefault((family, *_slot(r)), []).append(r)
    found = []
    for group in (g for g in groups.values() if len(g) > 1):
        group.sort(key=lambda r: (_count(site, r), r["id"]))
        small = group[0]
        for r in group:
            ratio = _count(site, r) / _count(site, small)
            value = derive.minutes(small) / derive.minutes(r) / ratio * 100
            found.append((r, round(value, 2), {"time_min": derive.minutes(r)}))
    if not found:
        raise BadBlock("scaling needs systems of one family in at least two sizes")
    return found


def _change(site, points, baseline):
    series = {}
    for r in points:
        series.setdefault((r["system"], r["benchmark"], r["division"]), []).append(r)
    found = []
    for group in series.values():
        if len({r["round"] for r in group}) < 2:
            continue
        group.sort(key=lambda r: round_key(r["round"]))
        first = derive.minutes(group[0])
        found += [
            (r, derive.minutes(r), {"change_pct": round((derive.minutes(r) / first - 1) * 100, 2)})
            for r in group
        ]
    if not found:
        raise BadBlock("change needs a system with results in at least two rounds")
    return found


COMPUTE = {
    "time": _time,
    "speedup": _speedup,
    "price_performance": _price_performance,
    "scaling": _scaling,
    "change": _change,
}


def _count(site, r: dict) -> int:
    return r.get("accelerator_count") or site.get("systems", r["system"])["accelerator_count"]


# ---- the plan: labels, order, texts ----------------------------------------------------------


def _options(site, params: dict) -> tuple[str, str, str, str | None]:
    metric = str(params.get("metric", "time"))
    if metric not in METRICS:
        raise BadBlock(f"unknown metric '{metric}' (known: {', '.join(sorted([*METRICS, *RECORD_METRICS]))})")
    kind = str(params.get("kind", METRICS[metric]))
    if kind not in KINDS:
        raise BadBlock(f"unknown kind '{kind}' (known: {', '.join(KINDS)})")
    per = str(params.get("per", "system"))
    if per not in ("system", "vendor"):
        raise BadBlock(f"per must be system or vendor, not '{per}'")
    baseline = params.get("baseline")
    if metric in ("speedup", "price_performance"):
        if not baseline:
            raise BadBlock(f"metric '{metric}' needs 'baseline: <system id>'")
        if baseline not in site.tables["systems"]:
            raise BadBlock(f"unknown baseline system '{baseline}'")
    for key in ("caption", "title"):
        if not isinstance(params.get(key, ""), str):
            raise BadBlock(f"'{key}' must be text")
    return metric, kind, per, baseline


def plan_chart(site, t, params: dict, lang: str) -> Plan:
    metric, kind, per, baseline = _options(site, params)
    selection = select(site, params, CHART_FIELDS)
    points = COMPUTE[metric](site, _best(selection.rows, site, per), baseline)
    return _plan(site, t, lang, params, metric, kind, per, baseline, points)


def _names(site, t, lang: str, r: dict, per: str) -> dict:
    system = site.get("systems", r["system"])
    vendor = site.get("vendors", system["vendor"])
    return {
        "who": vendor["name"][lang] if per == "vendor" else system["name"][lang],
        "system": system["name"][lang],
        "vendor": vendor["name"][lang],
        "benchmark": site.get("benchmarks", r["benchmark"])["name"][lang],
        "round": r["round"],
        "division": t("division." + r["division"]),
        "family": r["chip"]["family_name"] if r.get("chip") else system["accelerator"],
    }


def _label_parts(kind: str, varies: set) -> tuple[list[str], list[str]]:
    """Which dimensions go into the category label and which into the series name."""
    if kind == "bars":
        return ["who", "benchmark", "round"], []
    if kind == "grouped_bars":
        series = "round" if "round" in varies else "benchmark"
        return ["who"] + [d for d in ("benchmark", "round") if d != series], [series]
    if kind == "lines":
        return ["who", "benchmark", "division"], ["who", "benchmark", "division"]
    return ["system"], ["family", "benchmark", "round", "division"]


def _join(names: dict, parts: list[str], varies: set, first: str) -> str:
    return " · ".join(names[p] for p in parts if p == first or p in varies)


def _row(site, r, value, extra, names, label, series, kind) -> dict:
    source = site.get("sources", r["source"])
    row = {
        "label": label,
        "system": names["system"],
        "vendor": names["vendor"],
        "benchmark": names["benchmark"],
        "round": r["round"],
        "division": names["division"],
        "family": names["family"],
        "accelerators": _count(site, r),
        "framework": r["framework"],
        "value": value,
    }
    if kind in ("grouped_bars", "lines", "scaling"):
        row["series"] = series
    row.update(extra)
    row.update({"result": r["id"], "source": source["title"]})
    return row


def _rows(site, t, lang: str, kind: str, metric: str, per: str, points) -> tuple:
    """(plotted rows, their results, category order), sorted best first."""
    named = [(r, v, e, _names(site, t, lang, r, per)) for r, v, e in points]
    varies = {d for d in ("benchmark", "round", "division", "family") if len({n[d] for *_, n in named}) > 1}
    label_parts, series_parts = _label_parts(kind, varies)
    rows = []
    for r, value, extra, names in named:
        label = _join(names, label_parts, varies, label_parts[0])
        series = _join(names, series_parts, varies, series_parts[0]) if series_parts else ""
        rows.append((_row(site, r, value, extra, names, label, series, kind), r))
    order = _order([row for row, _ in rows], metric in ("speedup", "price_performance", "scaling"))
    rows.sort(
        key=lambda p: (
            order.index(p[0]["label"]),
            round_key(p[0]["round"]),
            p[0].get("series", ""),
            p[1]["id"],
        )
    )
    return [row for row, _ in rows], [r for _, r in rows], order


def _plan(site, t, lang, params, metric, kind, per, baseline, points) -> Plan:
    rows, results, order = _rows(site, t, lang, kind, metric, per, points)
    both = len({r["division"] for r in results}) > 1
    baseline_name = site.get("systems", baseline)["name"][lang] if baseline else ""
    caption = params.get("caption") or _caption(site, t, lang, metric, per, baseline_name, results)
    if both:
        caption = t("chart.caption.with_note", caption=caption, note=t("chart.note.both"))
    return Plan(
        lang=lang,
        language=site.languages.get(lang),
        metric=metric,
        kind=kind,
        rows=rows,
        results=results,
        order=order,
        rounds=sorted({row["round"] for row in rows}, key=round_key),
        series_order=_series_order(rows, results),
        looks=_looks(site, results),
        division_names=[t("division.closed"), t("division.open")],
        both_divisions=both,
        axis_title=t(f"chart.axis.{metric}", baseline=baseline_name),
        axis_format=AXIS_FORMAT.get(metric, ",.2~f"),
        caption=caption,
        title=params.get("title", ""),
        text=_texts(t, metric, baseline_name),
        tooltip=_tooltip_fields(metric),
        extra_sources=_price_sources(site, metric, results, baseline),
    )


def _order(rows: list[dict], higher: bool) -> list[str]:
    best: dict[str, float] = {}
    for row in rows:
        value = -row["value"] if higher else row["value"]
        best[row["label"]] = min(best.get(row["label"], value), value)
    return sorted(best, key=lambda label: (best[label], label))


def _series_order(rows, results) -> list[str]:
    keys: dict[str, tuple] = {}
    for row, r in zip(rows, results):
        keys.setdefault(row.get("series", ""), (round_key(r["round"]), r["benchmark"], r["division"]))
    return sorted(keys, key=lambda s: (keys[s], s))


def _looks(site, results) -> list[tuple[str, str | None, str]]:
    """Each chip family of the results in its look (data/chip_looks.yaml), by name."""
    found: dict[str, tuple[str, str | None, str]] = {}
    for r in results:
        chip = r.get("chip")
        look = look_of(site.tables, chip and chip["family"])
        name = chip["family_name"] if chip else site.get("systems", r["system"])["accelerator"]
        found.setdefault(name, (name, look["colour"], look["shape"]))
    return [found[name] for name in sorted(found, key=str.casefold)]


def _texts(t, metric: str, baseline_name: str) -> dict:
    return {
        "family": t("chips.family"),
        "division": t("col.division"),
        "round_axis": t("chart.axis.round"),
        "accelerators_axis": t("chart.axis.accelerators"),
        "both": t("chart.division.both_short"),
        "system": t("col.system"),
        "round": t("col.round"),
        "benchmark": t("col.benchmark"),
        "framework": t("col.framework"),
        "accelerators": t("col.accelerators"),
        "value": t(f"chart.axis.{metric}", baseline=baseline_name),
        "time_min": t("col.time_min"),
        "change_pct": t("chart.col.change"),
        "price_usd": t("col.price"),
        "source": t("chart.col.source"),
    }


def _tooltip_fields(metric: str) -> list[tuple[str, str, str]]:
    fields = [
        ("system", "nominal", ""),
        ("round", "nominal", ""),
        ("division", "nominal", ""),
        ("benchmark", "nominal", ""),
        ("framework", "nominal", ""),
        ("accelerators", "quantitative", ",d"),
        ("value_text", "nominal", ""),
    ]
    extra = {
        "speedup": ["time_min"],
        "price_performance": ["time_min", "price_usd"],
        "scaling": ["time_min"],
        "change": ["change_pct"],
    }.get(metric, [])
    # figures show as fmt writes them (draw._with_value_text); dollars are whole
    fields += [
        (name, "quantitative", ",d") if name == "price_usd" else (f"{name}_text", "nominal", "")
        for name in extra
    ]
    return fields + [("source", "nominal", "")]


def _price_sources(site, metric, results, baseline) -> list[str]:
    if metric != "price_performance":
        return []
    systems = sorted({r["system"] for r in results} | {baseline})
    return [site.first_price(s)["source"] for s in systems if site.first_price(s)]


def _caption(site, t, lang, metric, per, baseline_name, results) -> str:
    sep = t("chart.list_sep")
    benchmarks = sep.join(
        dict.fromkeys(site.get("benchmarks", r["benchmark"])["name"][lang] for r in results)
    )
    rounds = sep.join(sorted({r["round"] for r in results}, key=round_key))
    divisions = {r["division"] for r in results}
    division = t("chart.division." + (divisions.pop() if len(divisions) == 1 else "both"))
    caption = t(
        f"chart.caption.{metric}",
        benchmarks=benchmarks,
        rounds=rounds,
        division=division,
        baseline=baseline_name,
    )
    return caption + (t("chart.caption.per_vendor") if per == "vendor" else "")
