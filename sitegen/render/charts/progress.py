"""The progress chart of a benchmark page: the fastest closed result of each round, and the
fastest on each leading accelerator model, on a log time axis. Drawn like every chart
(altair spec → vl-convert SVG, cached by draw.py); interactive only on request."""

from __future__ import annotations

from html import escape

from sitegen.base import fmt, urls
from sitegen.derive.model import Model
from sitegen.render.charts import blocks as charts

# A series is told apart by its points' shape as well as by colour (readable without colour);
# the legend shows both. A chip family's series takes its look (data/chip_looks.yaml, the same
# on every chart); any other series (a benchmark) these in turn.
COLOURS = ("#1b6ca8", "#c0392b", "#2e8540", "#8e44ad", "#b9770e")
SHAPES = ("circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "triangle-right", "wedge")


def _row(t, lang: str, point: dict, series: str) -> dict:
    """One chart row; a result carried over from an earlier round is marked (`carried`,
    drawn hollow) and says so in its tooltip: it is no new result of its round."""
    carried = point.get("carried")
    return {
        "round": point["round"],
        "series": series,
        "line": f"{series} {point['version']}",  # a new version of the benchmark starts a new line
        "value": point["value"],
        "value_text": fmt.time_number(point["value"], t.language),
        "result": point["id"],
        "carried": bool(carried),
        "note": t("chart.carried_tip", round=carried) if carried else t("chart.new_tip"),
    }


def progress_rows(model: Model, t, lang: str, benchmark_id: str) -> list[dict]:
    fastest = t("chart.progress.fastest")
    return [_row(t, lang, p, p["series"] or fastest) for p in model.progress.get(benchmark_id, [])]


def family_looks(model: Model, series: list[tuple[str, str | None]]) -> dict:
    """Series name -> [colour, shape] of each (name, chip family) given; a family of None (the
    fastest overall) in the page's ink and circles."""
    return {
        name: [model.look(key)["colour"], model.look(key)["shape"]] if key else [None, "circle"]
        for name, key in series
    }


def progress_text(t) -> dict:
    """The words of a progress chart, in the page's language."""
    return {
        "time": t("chart.axis.time"),
        "round_axis": t("chart.axis.round"),
        "accelerator": t("col.accelerator"),
        "round": t("col.round"),
        "time_col": t("leaderboard.col.time"),
        "note": t("chart.note_col"),
        "lang": t.language.lang,  # the font of its script (its HTML lang tag)
    }


def progress_specs(rows: list[dict], rounds: list[str], t, looks: dict, store) -> tuple[dict, dict]:
    """The wide and the narrow spec (from the store when drawn before); `looks`: family_looks."""
    text = {**progress_text(t), "looks": looks}
    return wide_and_narrow("progress", progress_spec, rows, rounds, text, store)


def wide_and_narrow(
    kind: str, spec, rows: list[dict], rounds: list[str], text: dict, store
) -> tuple[dict, dict]:
    """A chart over rounds drawn by `spec(rows, rounds, text, size)`, wide and fitted to a
    narrow screen; from the store when drawn before (`kind` names the chart in its key)."""
    from sitegen.render.charts import draw_convert as chart_render

    wide, narrow = chart_render.cached_specs(
        store,
        {kind: rows, "rounds": rounds, "text": text},
        lambda: [
            spec(rows, rounds, text),
            chart_render.fitted(store, lambda size: spec(rows, rounds, text, size)),
        ],
    )
    return wide, narrow


def progress_spec(rows: list[dict], rounds: list[str], text: dict, size=None) -> dict:
    """The chart's spec at `size` (chart_render.Size; the wide layout when None)."""
    import altair as alt

    from sitegen.render.charts import draw as chart_render

    size = size or chart_render.WIDE
    narrow = size.narrow
    series = list(dict.fromkeys(row["series"] for row in rows))
    colours, symbols = series_looks(series, text.get("looks", {}))
    scale = alt.Scale(domain=series, range=colours)
    series_legend = legend(alt, size)
    y_title = text["time"]
    base = alt.Chart().encode(
        x=alt.X(
            "round:O", sort=rounds, title=text["round_axis"], axis=alt.Axis(labelAngle=-45 if narrow else 0)
        ),
        y=alt.Y(
            "value:Q",
            scale=alt.Scale(type="log"),
            title=chart_render.wrap(y_title, 30) if narrow else y_title,
            axis=chart_render.y_axis(alt, ",.2~f", size.ticks),
        ),
        color=alt.Color("series:N", scale=scale, legend=series_legend),
        detail="line:N",
    )
    points = _points(alt, base, scale, alt.Scale(domain=series, range=symbols), series_legend, text)
    return lines_spec(alt, base, points, rows, size, text["lang"])


def lines_spec(alt, base, points, rows: list[dict], size, lang: str) -> dict:
    """A chart over rounds as a spec: `base`'s lines under their `points`, the rows as its
    data, at `size` (the progress and the home page's headline chart)."""
    from sitegen.render.charts import draw as chart_render

    chart = alt.layer(base.mark_line(strokeWidth=2), points).properties(
        width=size.width,
        height=size.height,
        background="transparent",
        padding=chart_render.NARROW_PADDING if size.narrow else chart_render.PADDING,
    )
    chart.data = alt.Data(values=rows)
    spec = chart.to_dict(validate=False)
    spec["config"] = chart_render._config(size, lang)
    return spec


def legend(alt, size, columns: int = 1):
    """Below the plot, one name a line (in `columns`), with its colour and its points' shape;
    on a phone a name may take the whole width (A100-SXM4-40GB and A100-PCIe-40GB differ
    only at their ends)."""
    from sitegen.render.charts import draw as chart_render

    return alt.Legend(
        title=None,
        orient="bottom",
        direction="vertical",
        columns=columns,
        labelLimit=chart_render.NARROW_FIT - 40 if size.narrow else size.label_limit,
        symbolStrokeWidth=2,
    )


def _points(alt, base, scale, shapes, legend, text: dict):
    """The points of every series, each in its shape; a result carried over from an earlier
    round is drawn hollow: no new result."""
    return base.mark_point(filled=True, size=50, strokeWidth=2, opacity=1).encode(
        shape=alt.Shape("series:N", scale=shapes, legend=legend),
        fill=alt.condition(
            "datum.carried", alt.value("#ffffff"), alt.Color("series:N", scale=scale, legend=None)
        ),
        stroke=alt.Color("series:N", scale=scale, legend=None),
        tooltip=[
            alt.Tooltip("series:N", title=text["accelerator"]),
            alt.Tooltip("round:O", title=text["round"]),
            alt.Tooltip("value_text:N", title=text["time_col"]),
            alt.Tooltip("note:N", title=text["note"]),
        ],
    )


def series_looks(series: list[str], looks: dict) -> tuple[list[str], list[str]]:
    """The colours and Vega shapes of `series`: a family's look (`looks`: name -> [colour or
    None: the ink, shape]), any other series the next of COLOURS and SHAPES."""
    from sitegen.render.charts import draw, scale_svg

    others = [name for name in series if name not in looks]
    colours = [
        (looks[s][0] or draw.INK) if s in looks else COLOURS[others.index(s) % len(COLOURS)] for s in series
    ]
    shapes = [
        scale_svg.vega_shape(looks[s][1]) if s in looks else SHAPES[others.index(s) % len(SHAPES)]
        for s in series
    ]
    return colours, shapes


def progress_figure(model: Model, t, lang: str, benchmark: dict, path: str) -> str:
    """The figure (static SVG, its spec for the interactive view, a data table), or '' when
    fewer than two rounds have a closed result."""
    from sitegen.render.charts import draw_convert as chart_render

    rows = progress_rows(model, t, lang, benchmark["id"])
    rounds = model.rounds_of(benchmark["id"])
    if len({row["round"] for row in rows}) < 2:
        return ""
    points = model.progress.get(benchmark["id"], [])
    looks = family_looks(model, [(row["series"], p["family"]) for row, p in zip(rows, points)])
    wide, narrow = progress_specs(rows, rounds, t, looks, model.site.store)
    chart_id = "chart-progress"
    table = _table_rows(model, t, lang, path, rows)
    label = t("chart.progress.caption")
    data = (
        f'<details class="chart-data"><summary>{escape(t("chart.progress.heading"))}</summary>'
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{escape(label)}">'
        f'<table class="data"><thead><tr><th scope="col">{escape(t("col.round"))}</th>'
        f'<th scope="col">{escape(t("col.accelerator"))}</th><th scope="col" class="num">'
        f'{escape(t("leaderboard.col.time"))}</th></tr></thead><tbody>{table}</tbody></table>'
        f'</div></details>'
    )
    return charts.figure_html(
        chart_id,
        "lines",
        label,
        (wide, chart_render.page_svg(wide, chart_id, model.site.store)),
        (narrow, chart_render.page_svg(narrow, chart_id + "-n", model.site.store)),
        f'<span class="chart-caption">{escape(label + unscored_note(model, t, lang, [benchmark["id"]]) + carried_note(t, rows))}</span>',
        data,
    )


def unscored_note(model: Model, t, lang: str, benchmarks) -> str:
    """'Not drawn: N closed results …' (a sentence to append to a caption) for the benchmarks'
    closed results without a time (logs missing, too few), or ''."""
    count = model.unscored_closed(benchmarks)
    return t("chart.unscored", n=fmt.number(count, t.language, 0)) if count else ""


def carried_note(t, rows: list[dict]) -> str:
    """What the hollow points mean (a sentence to append to a caption), or '' when none."""
    return t("chart.carried_caption") if any(row["carried"] for row in rows) else ""


def _table_rows(model: Model, t, lang: str, path: str, rows: list[dict]) -> str:
    """A chart's numbers as table rows, each time linked to its result; a result carried over
    from an earlier round says so (the chart's flat steps, its hollow points)."""
    cells = []
    for row in rows:
        earlier = model.index.carried_from(model.record[row["result"]])
        note = t("chart.carried", round=earlier["round"]) if earlier else ""
        cells.append(
            f'<tr><td>{escape(row["round"])}</td><td>{escape(row["series"])}</td>'
            f'<td class="num"><a href="{escape(urls.relative(path, urls.result(lang, row["result"])))}">'
            f'{escape(row["value_text"])}</a>{escape(note)}</td></tr>'
        )
    return "".join(cells)
