"""The progress chart of a chip family's page: per benchmark, the family's fastest closed
result of each round at 8 accelerators (solid line) and at its largest scale held in two
rounds (dashed), on a log time axis; a result carried over from an earlier round is drawn
hollow. Every point takes the family's shape (its look, data/chip_looks.yaml: the same on every
chart); the benchmarks differ by colour. Drawn like progress.py's chart (altair spec → vl-convert SVG, specs and drawings kept
in the cache); static SVG only, with its numbers in the table beside it."""

from __future__ import annotations

import math
import re
from html import escape

from sitegen.render.charts import headline
from sitegen.render.charts.progress import carried_note, wide_and_narrow

# A benchmark's colour (the family's look gives every point its shape): the home chart's eight,
# then two more, each 3:1 or more against the page in the light and the dark theme.
COLOURS = (*headline.COLOURS, "#5c6bc0", "#a0522d")
DASH = {True: [1, 0], False: [6, 4]}  # 8 accelerators solid, the largest scale dashed


def chart_rows(series: list[dict], names: dict, t) -> list[dict]:
    """One row per point of chip_figures.progress's series: round, benchmark, which scale
    (`scale_kind`, the legend's words), time in minutes, and whether it is carried over."""
    kinds = {True: t("chip.progress.usual"), False: t("chip.progress.largest")}
    rows = []
    for item in series:
        for point in item["points"]:
            rows.append(
                {
                    "round": point["round"],
                    "benchmark": names[item["benchmark"]],
                    "series": f"{item['benchmark']}-{item['scale']}",
                    "scale_kind": kinds[item["usual"]],
                    "value": point["minutes"],
                    "carried": point["carried"] is not None,
                }
            )
    return rows


def chip_specs(rows: list[dict], rounds: list[str], t, shape: str = "circle") -> tuple[dict, dict]:
    """The wide and the narrow spec (from the cache when drawn before); `shape`: the family's."""
    text = {
        "shape": shape,
        "time": t("chip.axis.time"),
        "round_axis": t("chart.axis.round"),
        "kinds": [t("chip.progress.usual"), t("chip.progress.largest")],
        "lang": t.lang,  # the font of its script
    }
    return wide_and_narrow("chip_progress", chip_spec, rows, rounds, text)


def chip_spec(rows: list[dict], rounds: list[str], text: dict, size=None) -> dict:
    """The chart's Vega-Lite spec at `size` (draw.Size; the wide layout when None), written as
    the plain dict altair would make of it (altair's own conversion costs more than the
    drawing, and a family page has a chart in every language)."""
    import altair as alt

    from sitegen.render.charts import draw as chart_render

    size = size or chart_render.WIDE
    narrow = size.narrow
    names = list(dict.fromkeys(row["benchmark"] for row in rows))
    colours = {"domain": names, "range": [COLOURS[i % len(COLOURS)] for i in range(len(names))]}
    from sitegen.render.charts.scale_svg import vega_shape

    symbol = vega_shape(text.get("shape", "circle"))
    legend = {
        "symbolType": symbol,
        "columns": 1,
        "direction": "vertical",
        "labelLimit": chart_render.NARROW_FIT - 40 if narrow else size.label_limit,
        "orient": "bottom",
        "title": None,
    }
    y_axis = {
        "format": ",.3~g",
        "tickCount": size.ticks,
        "titleAlign": "left",
        "titleAnchor": "end",
        "titleAngle": 0,
        "titleBaseline": "bottom",
        "titleX": 0,
        "titleY": -12,
        "values": decades(rows),
    }
    shared = {
        "color": {"field": "benchmark", "legend": legend, "scale": colours, "type": "nominal"},
        "detail": {"field": "series", "type": "nominal"},
        "x": {
            "axis": {"labelAngle": -45 if narrow else 0},
            "field": "round",
            "sort": rounds,
            "title": text["round_axis"],
            "type": "ordinal",
        },
        "y": {
            "axis": y_axis,
            "field": "value",
            "scale": {"type": "log"},
            "title": chart_render.wrap(text["time"], 30) if narrow else text["time"],
            "type": "quantitative",
        },
    }
    # which line is which scale the caption says (a second legend would sit beside the first)
    dashes = {"domain": text["kinds"], "range": [DASH[True], DASH[False]]}
    lines = {
        "mark": {"type": "line", "strokeWidth": 2},
        "encoding": {
            **shared,
            "strokeDash": {"field": "scale_kind", "legend": None, "scale": dashes, "type": "nominal"},
        },
    }
    # a result carried over from an earlier round: a hollow point, no new result
    colour = {"field": "benchmark", "legend": None, "scale": colours, "type": "nominal"}
    points = {
        "mark": {
            "type": "point",
            "filled": True,
            "opacity": 1,
            "size": 45,
            "strokeWidth": 2,
            "shape": symbol,
        },
        "encoding": {
            **shared,
            "fill": {**colour, "condition": {"test": "datum.carried", "value": "#ffffff"}},
            "stroke": colour,
        },
    }
    return {
        "layer": [lines, points],
        "background": "transparent",
        "data": {"values": rows},
        "height": size.height,
        "padding": chart_render.NARROW_PADDING if narrow else chart_render.PADDING,
        "width": size.width,
        "$schema": alt.SCHEMA_URL,
        "config": chart_render._config(size, text.get("lang", "en")),
    }


def decades(rows: list[dict]) -> list[float]:
    """The time axis' ticks: the powers of ten the times span (with 2 and 5 between them when
    they span less than two), so that a log axis over several decades stays light."""
    low, high = min(row["value"] for row in rows), max(row["value"] for row in rows)
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    steps = (1,) if last - first > 2 else (1, 2, 5)
    return [m * 10**k for k in range(first, last + 1) for m in steps if low / 2 <= m * 10**k <= high * 2]


# What vl-convert writes that draws nothing on a page (its frames have no fill; the page hides the
# drawing from screen readers and sets its text's font in the stylesheet): left out, since a
# family with many benchmarks draws many series, each in a group of its own.
_DRAWS_NOTHING = re.compile(
    r'<path class="(?:background|foreground)"[^>]*/>'
    r'| (?:aria-roledescription|role|aria-hidden|pointer-events|font-family)="[^"]*"'
    r'| opacity="1"'
    r'| class="(?![^"]*role-axis)[^"]*"'
)


def lighter(svg: str) -> str:
    """page_svg's drawing without what draws nothing (its root element kept as it is)."""
    root = svg[: svg.index(">") + 1]
    return root + _DRAWS_NOTHING.sub("", svg[len(root) :])


def chip_figure(
    series: list[dict], names: dict, rounds: list[str], t, chart_id: str, shape: str = "circle"
) -> str:
    """The figure: wide and narrow static SVGs (the stylesheet shows one) with a caption, or ''
    when no series has two rounds. The numbers are the progress table beside it."""
    from sitegen.render.charts import draw as chart_render

    rows = chart_rows(series, names, t)
    if not rows:
        return ""
    drawn = [r for r in rounds if any(row["round"] == r for row in rows)]
    wide, narrow = chip_specs(rows, drawn, t, shape)
    kinds = {item["usual"] for item in series}
    label = t("chip.progress.caption" + ("" if len(kinds) > 1 else "_usual" if True in kinds else "_largest"))
    note = carried_note(t, rows)
    return (
        f'<figure class="chart chart-static" id="{chart_id}" data-kind="lines">'
        f'<div class="chart-view" role="img" aria-label="{escape(label)}">'
        f'<div class="chart-wide">{lighter(chart_render.page_svg(wide, chart_id))}</div>'
        f'<div class="chart-narrow">{lighter(chart_render.page_svg(narrow, chart_id + "-n"))}</div></div>'
        f'<figcaption><span class="chart-caption">{escape(label + note)}</span></figcaption></figure>'
    )
