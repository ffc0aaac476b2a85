"""Charts in pages: the ```chart block of a report, and the chart on each benchmark page.

A chart is a <figure>: the SVG rendered at build time (replaced by an interactive view when
JavaScript runs, see templates/static/charts.js), its caption and sources, the same numbers as
a table, and its data as CSV, JSON and SVG files beside the page. derive/chart_plan.py decides what is plotted,
draw.py draws it; altair and vl_convert are imported only when a chart is drawn."""

from __future__ import annotations

import csv
import io
import json
import posixpath
from html import escape

from sitegen.base import fmt, languages, npm, urls
from sitegen.content.model import source_title
from sitegen.derive.model import Plan
from sitegen.render.page import Page

SUMMARY_LIMIT = 12
BUNDLE = "assets/vega-bundle.js"
# columns of whole numbers; every other figure has three significant digits (fmt.figure)
WHOLE_COLUMNS = ("price_usd", "accelerators")


def figure(site, t, plan: Plan, page: Page) -> str:
    from sitegen.render.charts import draw_convert as chart_render

    number = 1 + sum(1 for name in page.files if name.startswith(_stem(page, "")) and name.endswith(".svg"))
    chart_id = f"chart-{number}"
    spec, narrow = chart_render.specs(plan, site.store)
    svg = chart_render.page_svg(spec, chart_id, site.store)
    narrow_svg = chart_render.page_svg(narrow, chart_id + "-n", site.store)
    stem = _stem(page, str(number))
    page.files.update(
        {
            stem + ".csv": data_csv(plan.rows).encode("utf-8"),
            stem + ".json": data_json(plan.rows).encode("utf-8"),
            stem + ".svg": svg.encode("utf-8"),
            BUNDLE: npm.script(npm.VEGA),
        }
    )
    page.has_charts = True
    caption = (
        f'<span class="chart-caption">{escape(plan.caption)}</span>{languages.gap(page.language)}'
        f'<span class="chart-source">{_sources(site, t, plan, page)}</span>'
    )
    return figure_html(
        chart_id,
        plan.kind,
        summary(t, plan),
        (spec, svg),
        (narrow, narrow_svg),
        caption,
        _table(site, t, plan, page) + _downloads(t, page, stem),
    )


def figure_html(
    chart_id: str,
    kind: str,
    label: str,
    wide: tuple[dict, str],
    narrow: tuple[dict, str],
    caption_html: str,
    after_html: str = "",
) -> str:
    """A chart as the page shows it: the wide and narrow SVGs (the stylesheet picks one), their
    specs for the interactive view, the caption, then `after_html` (data table, downloads)."""
    return (
        f'<div class="chart-block">'
        f'<figure class="chart" id="{chart_id}" data-kind="{kind}">'
        f'<div class="chart-view" role="img" aria-label="{escape(label)}" '
        f'tabindex="0"><div class="chart-wide">{wide[1]}</div>'
        f'<div class="chart-narrow">{narrow[1]}</div></div>'
        f'<script type="application/json" class="chart-spec">{spec_json(wide[0])}</script>'
        f'<script type="application/json" class="chart-spec-narrow">{spec_json(narrow[0])}'
        f'</script><figcaption>{caption_html}</figcaption></figure>{after_html}</div>'
    )


def spec_json(spec: dict) -> str:
    return json.dumps(spec, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _stem(page: Page, number: str) -> str:
    folder, name = posixpath.split(page.path)
    slug = posixpath.splitext(name)[0]
    return posixpath.join(folder, "charts", f"{slug}-{number}")


def data_csv(rows: list[dict]) -> str:
    stream = io.StringIO()
    writer = csv.DictWriter(stream, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return stream.getvalue()


def data_json(rows: list[dict]) -> str:
    return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"


def value_text(plan: Plan, value: float) -> str:
    if plan.metric in ("time", "change"):
        return fmt.duration(value, "min", plan.language)
    if plan.metric == "scaling":
        return fmt.percent(value, plan.language)
    return fmt.ratio(value, plan.language)


def _point_name(plan: Plan, row: dict) -> str:
    name = row["label"]
    if plan.kind == "lines":
        name += " " + row["round"]
    elif plan.kind in ("grouped_bars", "scaling"):
        name += f" ({row['series']})"
    if plan.both_divisions and plan.kind in ("bars", "grouped_bars"):
        name += f" ({row['division']})"
    return name


def summary(t, plan: Plan) -> str:
    """The text alternative: what kind of chart, its caption, and its values."""
    items = [
        f"{_point_name(plan, row)} {value_text(plan, row['value'])}" for row in plan.rows[:SUMMARY_LIMIT]
    ]
    if len(plan.rows) > SUMMARY_LIMIT:
        items.append(t("chart.more", n=len(plan.rows) - SUMMARY_LIMIT))
    return t(
        "chart.aria",
        kind=t(f"chart.kind.{plan.kind}"),
        caption=plan.caption.rstrip(".。"),
        values=t("chart.value_sep").join(items),
    )


def _with_html(t, key: str, **html) -> str:
    """An interface string with generated HTML put into its {placeholders}, the rest escaped."""
    marks = {name: f"\x00{name}\x00" for name in html}
    text = escape(t(key, **marks))
    for name, value in html.items():
        text = text.replace(escape(marks[name]), value)
    return text


def _sources(site, t, plan: Plan, page: Page) -> str:
    idents = dict.fromkeys(sorted({r["source"] for r in plan.results}) + plan.extra_sources)
    links = []
    for ident in idents:
        source = site.get("sources", ident)
        target = page.link(urls.sources(page.lang) + "#" + urls.anchor("source", ident))
        text, written_in = source_title(source, page.lang)
        marked = f' lang="{escape(written_in)}"' if written_in else ""  # a title, as written
        links.append(f'<a href="{escape(target)}"{marked}>{escape(text)}</a>')
    return _with_html(t, "chart.sources", sources=escape(t("chart.list_sep")).join(links))


def _head_class(name: str) -> str:
    if name not in NUMBER_COLUMNS:
        return ""
    return ' class="num answer"' if name == "value" else ' class="num"'


def _number_cell(plan: Plan, name: str, value) -> str:
    if name == "time_min" or (name == "value" and plan.metric == "time"):
        text = fmt.time_number(value, plan.language)  # measured times: one rule everywhere
    elif name in WHOLE_COLUMNS:
        text = fmt.number(value, plan.language, 0)
    else:  # ratios, percentages: the same rule
        text = fmt.figure(value, plan.language)
    answer = " answer" if name == "value" else ""  # the chart's measure: in view on a phone
    return f'<td class="num{answer}" data-value="{value}">{escape(text)}</td>'


NUMBER_COLUMNS = ("value", "accelerators", "time_min", "price_usd", "change_pct")


def _columns(plan: Plan) -> list[str]:
    """The data table's columns after the system: the chart's measure first (the answer, next
    to the system: both stay in view on a phone), then the text columns, then other numbers."""
    text = ["benchmark"] if len({r["benchmark"] for r in plan.results}) > 1 else []
    text += ["round", "division", "framework"]
    return ["value"] + text + [n for n in NUMBER_COLUMNS[1:] if n == "accelerators" or n in plan.rows[0]]


def _cell(plan: Plan, name: str, value) -> str:
    return _number_cell(plan, name, value) if name in NUMBER_COLUMNS else f"<td>{escape(str(value))}</td>"


def _table(site, t, plan: Plan, page: Page) -> str:
    columns = _columns(plan)
    head = f'<th scope="col">{escape(plan.text["system"])}</th>' + "".join(
        f'<th scope="col"{_head_class(c)}>{escape(plan.text[c])}</th>' for c in columns
    )
    body = []
    for row, r in zip(plan.rows, plan.results):
        target = page.link(urls.system(page.lang, r["system"]) + "#" + urls.anchor("result", r["id"]))
        cells = "".join(_cell(plan, c, row[c]) for c in columns)
        body.append(
            f'<tr><th scope="row"><a href="{escape(target)}">{escape(row["system"])}</a></th>{cells}</tr>'
        )
    return (
        f'<details class="chart-data"><summary>{escape(t("chart.table"))}</summary>'
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{escape(plan.caption)}">'
        f'<table class="data sortable"><thead><tr>{head}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody></table></div></details>'
    )


def _downloads(t, page: Page, stem: str) -> str:
    """The chart's data as CSV and JSON, and its drawing as SVG: a single-file copy leaves the
    SVG out (the drawing is on its page already; inlined again it made a report's copy pass
    300 KB)."""
    links = [
        f'<a href="{escape(page.link(stem + ext))}" download>{escape(t(key))}</a>'
        for ext, key in ((".csv", "chart.download.csv"), (".json", "chart.download.json"))
    ]
    svg = f'<a href="{escape(page.link(stem + ".svg"))}" download>{escape(t("chart.download.svg"))}</a>'
    return (
        f'<p class="chart-downloads">{escape(t.lead("chart.download"))}{" · ".join(links)}'
        f'<span class="single-omit"> · {svg}</span></p>'
    )
