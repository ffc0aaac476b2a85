"""What a ```chart block plots: its options checked, and the plotted rows with their labels,
order and texts in the page's language, from the block's selection (chart_select.py) and the
value of each point (chart_metrics.py). Pure data: the spec is built in draw.py, the figure
in blocks.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from sitegen.base.languages import Language
from sitegen.content.chip_looks import look_of
from sitegen.content.model import source_title
from sitegen.derive import chart_metrics
from sitegen.derive.chart_select import SELECT_FIELDS, BadBlock, round_key, select

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
AXIS_FORMAT = {"scaling": ",.0f"}  # otherwise ",.2~f": no trailing zeros on the ticks


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
    points = chart_metrics.plotted_points(site, metric, selection.rows, per, baseline)
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
        "source": source_title(site.get("sources", r["source"]), lang)[0],
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
    row = {
        "label": label,
        "system": names["system"],
        "vendor": names["vendor"],
        "benchmark": names["benchmark"],
        "round": r["round"],
        "division": names["division"],
        "family": names["family"],
        "accelerators": chart_metrics.accelerator_count(site, r),
        "framework": r["framework"],
        "value": value,
    }
    if kind in ("grouped_bars", "lines", "scaling"):
        row["series"] = series
    row.update(extra)
    row.update({"result": r["id"], "source": names["source"]})
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
