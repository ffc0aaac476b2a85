"""```chart blocks over the whole record (not over curated systems), drawn like a benchmark
page's progress chart (progress.py: rounds along x, log time axis, carried-over results hollow):

    metric: fastest          # benchmark: [ids]: the fastest closed result of each round, one
                             # line per benchmark
    metric: family_at_scale  # benchmark: id, families: [chip family slugs], scale: N: each
                             # family's fastest closed result with N accelerators per round

Copies within a round count once (RecordIndex.counts); the data table links every point to its
result; CSV, JSON and SVG are written beside the page, as for every chart."""

from __future__ import annotations

from html import escape

from sitegen.base import languages, npm
from sitegen.derive.model import RECORD_METRICS, BadBlock, Model, as_list, benchmark_ids, round_key
from sitegen.render.charts import blocks as charts
from sitegen.render.charts import progress as lines
from sitegen.render.page import Page

METRICS = RECORD_METRICS
FIELDS = {
    "fastest": ("metric", "benchmark", "caption", "title"),
    "family_at_scale": ("metric", "benchmark", "families", "scale", "caption", "title"),
}


def fastest_points(model: Model, lang: str, benchmarks: list[str]) -> list[tuple[str, dict]]:
    """(series name, progress point) of each benchmark's fastest closed result per round."""
    return [
        (model.site.get("benchmarks", b)["name"][lang], p)
        for b in benchmarks
        for p in model.progress.get(b, [])
        if p["series"] is None
    ]


def family_points(model: Model, params: dict) -> list[tuple[str, dict]]:
    """(family name, point) of each family's fastest closed result at the block's scale."""
    benchmarks = benchmark_ids(model.site, params)
    if len(benchmarks) != 1:
        raise BadBlock("metric 'family_at_scale' takes one benchmark")
    scale = params.get("scale")
    if not isinstance(scale, int) or isinstance(scale, bool) or scale < 1:
        raise BadBlock("metric 'family_at_scale' needs 'scale: <number of accelerators>'")
    index = model.index
    families = as_list(params.get("families"))
    if not families:
        raise BadBlock("metric 'family_at_scale' needs 'families: [<chip family>, ...]'")
    points = []
    for family in families:
        if family not in index.accelerators:
            raise BadBlock(f"unknown chip family '{family}'")
        points += [
            (index.accelerators[family].name, p) for p in model.family_progress(family, benchmarks[0], scale)
        ]
    return points


def record_chart(model: Model, t, params: dict, page: Page, line: int) -> str:
    """A record chart block's figure; a mistake goes to page.fail with the block's line."""
    metric = str(params.get("metric"))
    try:
        unknown = sorted(set(params) - set(FIELDS[metric]))
        if unknown:
            raise BadBlock(f"unknown field '{unknown[0]}' (known: {', '.join(sorted(FIELDS[metric]))})")
        looks: dict = {}  # a family's series in its look; the benchmarks' in turn
        if metric == "fastest":
            points = fastest_points(model, page.lang, benchmark_ids(model.site, params))
        else:
            points = family_points(model, params)
            index = model.index
            looks = lines.family_looks(
                model, [(index.accelerators[f].name, f) for f in as_list(params["families"])]
            )
        if len({p["round"] for _, p in points}) < 1:
            raise BadBlock("the selection matches no result")
        series = list(dict.fromkeys(name for name, _ in points))
        if len([name for name in series if name not in looks]) > len(lines.COLOURS):
            raise BadBlock(f"at most {len(lines.COLOURS)} lines in one chart, not {len(series)}")
    except BadBlock as exc:
        return page.fail(line, f"chart block: {exc}")
    return _figure(model, t, params, page, points, looks)


def _caption(t, params: dict) -> str:
    if params.get("caption"):
        return str(params["caption"])
    if params["metric"] == "fastest":
        return t("chart.record.fastest_caption")
    return t("chart.record.family_caption", n=params["scale"])


def _data_row(row: dict) -> dict:
    """A plotted point as the chart's CSV and JSON downloads give it."""
    keys = (("series", "series"), ("round", "round"), ("time_min", "value"), ("result", "result"))
    return {**{name: row[key] for name, key in keys}, "carried_over": row["carried"]}


def _figure(model: Model, t, params: dict, page: Page, points: list[tuple[str, dict]], looks: dict) -> str:
    from sitegen.render.charts import draw_convert as chart_render

    rows = [lines._row(t, page.lang, point, name) for name, point in points]
    rounds = sorted({row["round"] for row in rows}, key=round_key)
    text = {**lines.progress_text(t), "accelerator": t("chart.record.series"), "looks": looks}
    store = model.site.store
    wide, narrow = chart_render.cached_specs(
        store,
        {"record_chart": rows, "rounds": rounds, "text": text},
        lambda: [
            lines.progress_spec(rows, rounds, text),
            chart_render.fitted(store, lambda size: lines.progress_spec(rows, rounds, text, size)),
        ],
    )
    number = 1 + sum(
        1 for name in page.files if name.startswith(charts._stem(page, "")) and name.endswith(".svg")
    )
    chart_id = f"chart-{number}"
    stem = charts._stem(page, str(number))
    svg = chart_render.page_svg(wide, chart_id, store)
    data = [_data_row(r) for r in rows]
    page.files.update(
        {
            stem + ".csv": charts.data_csv(data).encode("utf-8"),
            stem + ".json": charts.data_json(data).encode("utf-8"),
            stem + ".svg": svg.encode("utf-8"),
            charts.BUNDLE: npm.script(npm.VEGA),
        }
    )
    page.has_charts = True
    label = _caption(t, params)
    gap = languages.gap(page.language)  # no space between CJK sentences
    title = escape(t("chart.record.title", title=str(params["title"]))) if params.get("title") else ""
    title = f'<strong class="chart-title">{title}</strong>{gap}' if title else ""
    caption = f'{title}<span class="chart-caption">{escape(label + lines.carried_note(t, rows))}</span>'
    table = (
        f'<details class="chart-data"><summary>{escape(t("chart.table"))}</summary>'
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{escape(label)}">'
        f'<table class="data"><thead><tr><th scope="col">{escape(t("col.round"))}</th>'
        f'<th scope="col">{escape(t("chart.record.series"))}</th><th scope="col" class="num">'
        f'{escape(t("leaderboard.col.time"))}</th></tr></thead>'
        f'<tbody>{lines._table_rows(model, t, page.lang, page.path, rows)}</tbody></table></div></details>'
    )
    return charts.figure_html(
        chart_id,
        "lines",
        label,
        (wide, svg),
        (narrow, chart_render.page_svg(narrow, chart_id + "-n", store)),
        caption,
        table + charts._downloads(t, page, stem),
    )
