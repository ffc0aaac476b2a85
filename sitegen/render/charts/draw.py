"""Chart specs (Vega-Lite, built with altair): each chart plan's wide and narrow layout.
draw_convert.py draws them to SVG at build time and keeps specs and drawings in the store.

altair is imported inside the functions, so a build without a chart block never imports it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from sitegen.base import fmt
from sitegen.base.languages import script_of

INK = "#767676"  # axis and label colour in the spec; currentColor in the page (follows the theme)
WIDTH = 560
HEIGHT = 300
# Text is measured with a wide font on the build machine (DejaVu Sans, like Verdana) so that the
# layout leaves room for any reader's font; the page's stylesheet then draws it in the site font.
# Chinese text takes the fonts of its script (a downloaded drawing has no stylesheet): glyph
# shapes and punctuation differ between Simplified and Traditional Chinese; WenQuanYi Micro Hei
# (Debian's) is last in both, the one the build machine measures CJK text with.
FONT = 'Verdana, "DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC", sans-serif'
SCRIPT_FONTS = {  # by the script subtag of the chart's HTML lang
    "Hans": 'Verdana, "DejaVu Sans", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", '
    '"WenQuanYi Micro Hei", sans-serif',
    "Hant": 'Verdana, "DejaVu Sans", "PingFang TC", "Microsoft JhengHei", "Noto Sans CJK TC", '
    '"WenQuanYi Micro Hei", sans-serif',
}
NUMBER_LOCALE = {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["$", ""]}
PADDING = {"left": 40, "right": 40, "top": 6, "bottom": 6}
# The narrow (phone) layout: drawn at its own size, never scaled down, so that its text keeps
# NARROW_FONT px on a 320 px screen (288 px inside the page's margins); fewer ticks, short
# labels, the legend below in one column and no names at the ends of lines.
NARROW_FIT = 288
NARROW_FONT = 12
NARROW_PADDING = {"left": 4, "right": 8, "top": 4, "bottom": 4}


@dataclass(frozen=True)
class Size:
    width: int = WIDTH
    height: int = HEIGHT
    label_limit: int = 280
    ticks: int = 6
    font: int = 13
    narrow: bool = False


WIDE = Size()


def narrow_size(width: int = 200) -> Size:
    return Size(width=width, height=220, label_limit=96, ticks=3, font=NARROW_FONT, narrow=True)


def font(tag: str) -> str:
    """The font list of a chart in the language of the HTML lang tag `tag` (Language.lang)."""
    return SCRIPT_FONTS.get(script_of(tag), FONT)


def _config(size: Size, tag: str) -> dict:
    family = font(tag)
    text = {"labelColor": INK, "titleColor": INK, "labelFont": family, "titleFont": family}
    big = size.font
    return {
        "font": family,
        "view": {"stroke": None},
        "axis": {
            **text,
            "gridColor": INK,
            "gridOpacity": 0.25,
            "domainColor": INK,
            "tickColor": INK,
            "labelFontSize": big,
            "titleFontSize": big,
            "titleFontWeight": "normal",
        },
        "legend": {
            **text,
            "labelFontSize": big,
            "titleFontSize": big,
            "titleFontWeight": "normal",
            "symbolFillColor": INK,
        },
        "title": {
            "color": INK,
            "subtitleColor": INK,
            "font": family,
            "anchor": "start",
            "fontSize": big + 1,
            **({"limit": NARROW_FIT - 12} if size.narrow else {}),
        },
        "text": {"color": INK, "fontSize": max(12, big - 1)},
        "rule": {"color": INK},
        "locale": {"number": NUMBER_LOCALE},
    }


def build_spec(plan, validate: bool = False, size: Size = WIDE) -> dict:
    """The Vega-Lite spec of a chart plan (plan.Plan), as a plain dict.

    Checking the spec against the Vega-Lite schema costs more than drawing it, so builds skip
    it; tests/site/test_charts.py builds every kind of chart with the check on."""
    import altair as alt

    make = {"bars": _bars, "grouped_bars": _grouped_bars, "lines": _lines, "scaling": _scaling}
    chart = make[plan.kind](alt, plan, alt.Chart(), size)
    title = plan.title or (plan.text["both"] if plan.both_divisions else "")
    if title:
        subtitle = plan.text["both"] if plan.title and plan.both_divisions else alt.Undefined
        chart = chart.properties(title=alt.TitleParams(title, subtitle=subtitle))
    # padding absorbs labels a reader's font draws wider than the build machine's measured them
    chart = chart.properties(background="transparent", padding=NARROW_PADDING if size.narrow else PADDING)
    chart.data = alt.Data(values=_with_value_text(plan))  # last: properties() copies the chart
    spec = chart.to_dict(validate=validate)
    spec["config"] = _config(size, plan.language.lang)
    return spec


def _with_value_text(plan) -> list[dict]:
    """Each row with the texts its bar and tooltip show, made by fmt: times by the
    three-significant-digit rule of the whole site, ratios and percentages by the same rule
    (never Vega's own number formats, which would round differently)."""
    texts = []
    for row in plan.rows:
        value = (fmt.time_number if plan.metric == "time" else fmt.figure)(row["value"], plan.language)
        extra = {
            f"{name}_text": (fmt.time_number if name == "time_min" else fmt.figure)(row[name], plan.language)
            for name in TEXT_FIELDS
            if row.get(name) is not None
        }
        texts.append({**row, "value_text": value, **extra})
    return texts


# the figures of a row that its tooltip shows as text (fmt), beside `value`
TEXT_FIELDS = ("time_min", "change_pct")


def _value_label(plan) -> str:
    """The Vega expression of a bar's number."""
    return "datum.value_text"


def _tooltip(alt, plan) -> list:
    return [
        alt.Tooltip(
            field,
            type=kind,
            title=plan.text[field.removesuffix("_text")],
            **({"format": form} if form else {}),
        )
        for field, kind, form in plan.tooltip
    ]


def _family_scale(alt, plan):
    """Each chip family's colour (its look; the ink for one without)."""
    return alt.Scale(domain=[n for n, _, _ in plan.looks], range=[c or INK for _, c, _ in plan.looks])


def _shape(alt, plan, size: Size = WIDE):
    """Each chip family's shape (its look), in the colour's legend (same field and title)."""
    from sitegen.render.charts.scale_svg import vega_shape

    scale = alt.Scale(domain=[n for n, _, _ in plan.looks], range=[vega_shape(s) for _, _, s in plan.looks])
    return alt.Shape("family:N", scale=scale, legend=_legend(alt, plan, size, plan.text["family"]))


def _legend(alt, plan, size: Size, title):
    if size.narrow:
        return alt.Legend(
            title=title, orient="bottom", direction="vertical", columns=1, labelLimit=NARROW_FIT - 40
        )
    return alt.Legend(title=title, orient="bottom")


def _color(alt, plan, size: Size = WIDE):
    return alt.Color(
        "family:N", scale=_family_scale(alt, plan), legend=_legend(alt, plan, size, plan.text["family"])
    )


def y_axis(alt, number_format: str, ticks: int):
    """A value axis whose title reads horizontally above it (CJK text is not rotated)."""
    return alt.Axis(
        format=number_format,
        tickCount=ticks,
        titleAngle=0,
        titleAnchor="end",
        titleAlign="left",
        titleBaseline="bottom",
        titleX=0,
        titleY=-12,
    )


def _value_axis(alt, plan, channel, size: Size = WIDE):
    axis = alt.Axis(
        format=plan.axis_format, tickCount=size.ticks, labelOverlap=True, labelLimit=size.label_limit
    )
    if channel is alt.Y:
        axis = y_axis(alt, plan.axis_format, size.ticks)
    title = wrap(plan.axis_title, 30) if size.narrow else plan.axis_title
    return channel("value:Q", title=title, axis=axis, scale=alt.Scale(zero=True))


def wrap(text: str, limit: int) -> list[str] | str:
    """A title as lines of at most `limit` columns (a CJK character counts two): the narrow
    layout's axis titles, which Vega does not wrap by itself."""
    lines, line, width = [], "", 0
    for word in re.findall(r"[\u2e80-\u9fff\uff00-\uffef]\s*|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*", text):
        wide = 2 if re.match(r"[\u2e80-\u9fff\uff00-\uffef]", word) else 1
        size = len(word.rstrip()) * wide
        if line and width + size > limit:
            lines.append(line.rstrip())
            line, width = "", 0
        line, width = line + word, width + len(word) * wide
    lines.append(line.rstrip())
    return lines if len(lines) > 1 else text


def _reference(alt, plan, base, channel):
    """A dashed rule at the baseline (1x) or at linear scaling (100%), if the metric has one."""
    level = {"speedup": 1, "price_performance": 1, "scaling": 100}.get(plan.metric)
    if level is None:
        return []
    rule = base.transform_aggregate(n="count()").mark_rule(strokeDash=[4, 3])
    return [rule.encode(**{channel: alt.datum(level)})]


def _by_division(alt, plan, chart):
    """Both divisions: one panel each, titled, on a shared value axis."""
    if not plan.both_divisions:
        return chart
    parts = [
        chart.transform_filter(alt.datum.division == name).properties(
            title=alt.TitleParams(name, fontSize=13, fontWeight="bold")
        )
        for name in plan.division_names
    ]
    return alt.vconcat(*parts, spacing=18).resolve_scale(x="shared")


def _end_marks(alt, plan, base, x, y, size: Size, **extra):
    """A point in the family's look just past each bar's end (a bar's family reads without its
    colour), with the legend of both."""
    return base.mark_point(filled=True, size=50, opacity=1, xOffset=8).encode(
        x=x, y=y, color=_color(alt, plan, size), shape=_shape(alt, plan, size), **extra
    )


def _bars(alt, plan, base, size: Size = WIDE):
    y = alt.Y("label:N", sort=plan.order, title=None, axis=alt.Axis(labelLimit=size.label_limit))
    x = _value_axis(alt, plan, alt.X, size)
    bars = base.mark_bar().encode(x=x, y=y, color=_color(alt, plan, size), tooltip=_tooltip(alt, plan))
    text = (
        base.transform_calculate(value_label=_value_label(plan))
        .mark_text(align="left", dx=16)
        .encode(x=x, y=y, text="value_label:N")
    )
    layers = [bars, _end_marks(alt, plan, base, x, y, size), text, *_reference(alt, plan, base, "x")]
    return _by_division(alt, plan, alt.layer(*layers).properties(width=size.width, height=alt.Step(26)))


def _grouped_bars(alt, plan, base, size: Size = WIDE):
    """Bars of one label side by side; the later series lighter, each bar named at its end."""
    y = alt.Y("label:N", sort=plan.order, title=None, axis=alt.Axis(labelLimit=size.label_limit))
    offset = alt.YOffset("series:N", sort=plan.series_order)
    x = _value_axis(alt, plan, alt.X, size)
    shade = alt.FillOpacity(
        "series:O", sort=plan.series_order, scale=alt.Scale(range=[1.0, 0.3]), legend=None
    )  # each bar is named at its end
    edge = alt.Stroke("family:N", scale=_family_scale(alt, plan), legend=None)
    bars = base.mark_bar(strokeWidth=1.5).encode(
        x=x,
        y=y,
        yOffset=offset,
        color=_color(alt, plan, size),
        stroke=edge,
        fillOpacity=shade,
        tooltip=_tooltip(alt, plan),
    )
    text = (
        base.transform_calculate(bar_text=f"datum.series + ' · ' + {_value_label(plan)}")
        .mark_text(align="left", dx=16)
        .encode(x=x, y=y, yOffset=offset, text="bar_text:N")
    )
    ends = _end_marks(alt, plan, base, x, y, size, yOffset=offset)
    layers = [bars, ends, text, *_reference(alt, plan, base, "x")]
    chart = alt.layer(*layers).properties(width=size.width, height=alt.Step(20, **{"for": "offset"}))
    return _by_division(alt, plan, chart)


def _labels_fit(plan, x_field: str) -> bool:
    """Whether each series' name fits beside its last point without touching another."""
    ends: dict = {}  # series -> (x rank, value) of its last point
    for row in plan.rows:
        key = _x_rank(plan, x_field, row)
        if key >= ends.get(row["series"], (key,))[0]:
            ends[row["series"]] = (key, row["value"])
    top = max(row["value"] for row in plan.rows) or 1
    by_x: dict = {}
    for key, value in ends.values():
        by_x.setdefault(key, []).append(value)
    gaps = [b - a for values in by_x.values() for a, b in zip(sorted(values), sorted(values)[1:])]
    return all(gap > top * 16 / HEIGHT for gap in gaps)  # 16 px apart at least


def _x_rank(plan, x_field: str, row: dict):
    return plan.rounds.index(row["round"]) if x_field == "round" else row["accelerators"]


# the series of a line chart told apart by dash when their names do not fit at the lines' ends
# (colour and shape are the chip family's); more series than these repeat them
DASHES = [[1, 0], [6, 3], [2, 2], [10, 3, 2, 3], [1, 4], [14, 4], [4, 2, 1, 2], [10, 2, 2, 2, 2, 2]]


def _line_layers(alt, plan, base, x, x_field: str, order_expr: str, size: Size = WIDE):
    """A line per series, a point per value in its chip family's colour and shape; each series
    named at its last point when the names fit (never in the narrow layout), else by dash in a
    legend. Divisions differ by dash (the series then named at their ends)."""
    y = _value_axis(alt, plan, alt.Y, size)
    colour = _color(alt, plan, size)
    fit = not size.narrow and (plan.both_divisions or _labels_fit(plan, x_field))
    shape = {"shape": _shape(alt, plan, size)}
    dash = {}
    if plan.both_divisions:
        dash = {
            "strokeDash": alt.StrokeDash(
                "division:N", sort=plan.division_names, legend=_legend(alt, plan, size, plan.text["division"])
            )
        }
    elif not fit:
        legend = (
            _legend(alt, plan, size, None)
            if size.narrow
            else alt.Legend(title=None, orient="bottom", columns=2, labelLimit=320, symbolStrokeWidth=2)
        )
        dashes = alt.Scale(range=DASHES)
        dash = {"strokeDash": alt.StrokeDash("series:N", sort=plan.series_order, scale=dashes, legend=legend)}
    line = base.mark_line().encode(x=x, y=y, color=colour, detail="series:N", **dash)
    points = base.mark_point(filled=True, size=70, opacity=1).encode(
        x=x, y=y, color=colour, tooltip=_tooltip(alt, plan), **shape
    )
    layers = [line, points, *_reference(alt, plan, base, "y")]
    if fit:
        layers.append(
            base.transform_calculate(order=order_expr)
            .transform_window(
                rank="row_number()", groupby=["series"], sort=[alt.SortField("order", order="descending")]
            )
            .transform_filter("datum.rank == 1")
            .mark_text(align="left", dx=8)
            .encode(x=x, y=y, text="series:N")
        )
    return layers


def _lines(alt, plan, base, size: Size = WIDE):
    axis = alt.Axis(labelAngle=0)
    if size.narrow:  # every other round named when they do not fit side by side
        axis = alt.Axis(labelAngle=0, labelOverlap="parity", labelSeparation=4)
    x = alt.X(
        "round:O", sort=plan.rounds, title=plan.text["round_axis"], axis=axis, scale=alt.Scale(padding=0.3)
    )
    layers = _line_layers(
        alt, plan, base, x, "round", f"indexof({json.dumps(plan.rounds)}, datum.round)", size
    )
    return alt.layer(*layers).properties(width=size.width, height=size.height)


def _scaling(alt, plan, base, size: Size = WIDE):
    counts = sorted({row["accelerators"] for row in plan.rows})
    x = alt.X(
        "accelerators:Q",
        title=plan.text["accelerators_axis"],
        scale=alt.Scale(type="log", base=2, nice=False, padding=16),
        axis=alt.Axis(
            values=counts, format=",d", grid=False, labelOverlap="parity" if size.narrow else alt.Undefined
        ),
    )
    layers = _line_layers(alt, plan, base, x, "accelerators", "datum.accelerators", size)
    return alt.layer(*layers).properties(width=size.width, height=size.height)
