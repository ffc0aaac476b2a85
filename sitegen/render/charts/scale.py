"""The scale chart of a benchmark page (every round of the benchmark) and of each leaderboard
(one round): time to train against the number of accelerators, both on log scales, one point
per scored closed-division result, each chip family in its look (colour and shape,
data/chip_looks.yaml, the same on every chart), results carried over
from an earlier round hollow, and a dashed line of ideal scaling (derived.ideal_time) through
the result with the fewest accelerator-minutes (derived.least_work).

The drawing (scale_svg.py) holds numbers only, so it is the same in every language; the axis
titles, the legend and the caption are HTML around it, in the page's language. Its data table
and CSV/JSON downloads follow it, like every chart of the site."""

from __future__ import annotations

import posixpath
from html import escape

from sitegen.base import fmt, urls
from sitegen.derive.model import Model
from sitegen.render.charts import blocks as charts
from sitegen.render.charts import scale_svg


def styles(model: Model, groups: list[str]) -> list[tuple[str, str]]:
    """(shape, colour) of each family drawn: its look; the page's ink for one without a colour."""
    looks = [model.look(key) for key in groups]
    return [(look["shape"], look["colour"] or scale_svg.INK) for look in looks]


def scale_figure(
    model: Model, t, lang: str, path: str, benchmark: dict, rounds: list[str], files: dict
) -> str:
    """The chart of `benchmark`'s results in `rounds` (one: a leaderboard; all: the benchmark
    page) as HTML, its CSV and JSON added to `files`; '' when no result can be drawn."""
    data = model.scale_chart(benchmark["id"], rounds)
    if data is None:
        return ""
    groups, rows = data.groups, data.rows
    drawn = styles(model, groups)
    svgs = [
        scale_svg.draw(data.points, data.work, drawn, layout, f"scale-{name}") for name, layout in LAYOUTS
    ]
    stem = _stem(path)
    files[stem + ".csv"] = charts.data_csv(rows).encode("utf-8")
    files[stem + ".json"] = charts.data_json(rows).encode("utf-8")
    caption = _caption(model, t, lang, benchmark, rounds, data)
    # a leaderboard's chart has its data table under it; the benchmark page's (every round:
    # 337 results of ResNet-50, 1,200 on the test's synthetic record) links each round's
    # instead, which keeps the page within its 300 KB, and offers all of them as CSV and JSON
    one = len(rounds) == 1
    label = t(
        "chart.scale.aria" if one else "chart.scale.aria_rounds", caption=_what(t, lang, benchmark, rounds)
    )
    after = (
        _table(t, lang, path, rows) if one else _round_links(t, lang, path, benchmark, rounds, data.results)
    )
    return (
        f'<div class="chart-block"><figure class="chart chart-static chart-scale" id="chart-scale" '
        f'data-kind="scale" data-drawn="static"><div class="scale-frame">'
        f'<p class="scale-axis scale-axis-y">{escape(t("chart.scale.y_axis"))}</p>'
        f'<div class="chart-view" role="img" aria-label="{escape(label)}">'
        f'<div class="chart-wide">{svgs[0]}</div><div class="chart-narrow">{svgs[1]}</div></div>'
        f'<p class="scale-axis scale-axis-x">{escape(t("chart.axis.accelerators"))}</p></div>'
        f"{_legend(t, model, data, drawn)}"
        f'<figcaption><span class="chart-caption">{escape(caption)}</span></figcaption></figure>'
        f"{after}{_downloads(t, path, stem)}</div>"
    )


LAYOUTS = (("w", scale_svg.WIDE), ("n", scale_svg.NARROW))


def _stem(path: str) -> str:
    folder, name = posixpath.split(path)
    return posixpath.join(folder, "charts", posixpath.splitext(name)[0] + "-scale")


def _what(t, lang: str, benchmark: dict, rounds: list[str]) -> str:
    """What is plotted: one round's results, or every round's of the benchmark."""
    name = benchmark["name"][lang]
    if len(rounds) == 1:
        return t("chart.scale.caption_round", benchmark=name, round=rounds[0])
    return t(
        "chart.scale.caption_rounds",
        benchmark=name,
        n=fmt.number(len(rounds), t.language, 0),
        first=rounds[0],
        last=rounds[-1],
    )


def _caption(model: Model, t, lang, benchmark, rounds, data) -> str:
    """What is plotted, the ideal line and its anchor, the hollow points, and what is left out."""
    anchor = data.anchor
    text = _what(t, lang, benchmark, rounds) + t(
        "chart.scale.ideal",
        submitter=model.names.submitter(anchor["submitter"], lang),
        system=anchor["system_name"],
        count=fmt.number(anchor["accelerator_count"], t.language, 0),
        round=anchor["round"],
        work=fmt.figure(data.work, t.language),
    )
    if data.carried:
        text += t("chart.carried_caption")
    counts = (
        ("chart.unscored", data.missing),
        ("chart.scale.cpu", data.cpu),
        ("chart.scale.copies", data.copies),
    )
    for key, count in counts:
        if count:
            text += t(key, n=fmt.number(count, t.language, 0))
    return text


# The legend's key of the dashed line of ideal scaling (the explorer's chart shows it too).
IDEAL_KEY = (
    '<svg class="scale-key" viewBox="0 -7 24 14" width="24" height="14" aria-hidden="true" '
    f'focusable="false"><path d="M0,0H24" stroke="{scale_svg.INK}" stroke-width="1.5" '
    'stroke-dasharray="6 4"/></svg>'
)


def _key(shape: str, colour: str, hollow: bool = False) -> str:
    fill = "none" if hollow else colour
    return (
        f'<svg class="scale-key" viewBox="-7 -7 14 14" width="14" height="14" aria-hidden="true" '
        f'focusable="false"><path d="{scale_svg.shape_path(shape, 5)}" fill="{fill}" stroke="{colour}" '
        f'stroke-width="1.5"/></svg>'
    )


def look_key(look: dict) -> str:
    """A chip family's key (its shape in its colour, as every legend draws it): a chip page's."""
    return _key(look["shape"], look["colour"] or scale_svg.INK)


def _legend(t, model: Model, data, drawn: list[tuple[str, str]]) -> str:
    """Each family drawn as the drawing shows it (shape and colour), then the hollow points and
    the dashed line."""
    items = [(_key(*style), model.index.accelerators[key].name) for style, key in zip(drawn, data.groups)]
    if data.carried:
        items.append((_key("circle", scale_svg.INK, hollow=True), t("chart.scale.hollow")))
    items.append((IDEAL_KEY, t("chart.scale.ideal_key")))
    return '<ul class="scale-legend">' + "".join(f"<li>{k}{escape(text)}</li>" for k, text in items) + "</ul>"


def _table(t, lang: str, path: str, rows: list[dict]) -> str:
    """The drawn results, fewest accelerators first, each linked to its result page."""
    head = [
        ("col.system", ""),
        ("leaderboard.col.time", ' class="num answer"'),
        ("chips.family", ""),
        ("col.accelerators", ' class="num"'),
        ("chart.scale.col.work", ' class="num"'),
    ]
    cells = []
    for row in rows:
        link = urls.relative(path, urls.result(lang, row["result"]))
        note = t("chart.carried", round=row["carried_over_from"]) if row["carried_over_from"] else ""
        cells.append(
            f'<tr><th scope="row" class="scale-system"><a href="{escape(link)}">{escape(row["system"])}</a>'
            f'{escape(note)}</th><td class="num answer" data-value="{row["time_min"]}">'
            f"{escape(fmt.time_number(row['time_min'], t.language))}</td><td>{escape(row['chip_family'])}</td>"
            f'<td class="num" data-value="{row["accelerators"]}">{fmt.number(row["accelerators"], t.language, 0)}</td>'
            f'<td class="num" data-value="{row["accelerator_minutes"]}">'
            f"{escape(fmt.figure(row['accelerator_minutes'], t.language))}</td></tr>"
        )
    heads = "".join(f'<th scope="col"{cls}>{escape(t(key))}</th>' for key, cls in head)
    return (
        f'<details class="chart-data"><summary>{escape(t("chart.table"))}</summary>'
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{escape(t("chart.scale.heading"))}">'
        f'<table class="data sortable"><thead><tr>{heads}</tr></thead><tbody>{"".join(cells)}</tbody>'
        f"</table></div></details>"
    )


def _round_links(t, lang: str, path: str, benchmark: dict, rounds: list[str], results: list[dict]) -> str:
    """Each round with drawn results, linked to its leaderboard's chart and data table."""
    held = {r["round"] for r in results}
    links = [
        f'<a href="{escape(urls.relative(path, urls.leaderboard(lang, benchmark["id"], r)))}#scale">'
        f"{escape(r)}</a>"
        for r in rounds
        if r in held
    ]
    return f'<p class="chart-rounds">{escape(t.lead("chart.scale.by_round"))}{" · ".join(links)}</p>'


def _downloads(t, path: str, stem: str) -> str:
    links = [
        f'<a href="{escape(urls.relative(path, stem + ext))}" download>{escape(t(key))}</a>'
        for ext, key in ((".csv", "chart.download.csv"), (".json", "chart.download.json"))
    ]
    return f'<p class="chart-downloads">{escape(t.lead("chart.download"))}{" · ".join(links)}</p>'
