"""The home page's headline chart: the shortest closed-division time to train of each benchmark
of the current suite (derive/suite.py), in every round it was held, on a log time axis, each
benchmark in its own colour and shape. Static SVG only (no spec, no script on the home page),
a wide and a narrow (phone) layout, and its numbers as a table."""

from __future__ import annotations

from html import escape

from sitegen.derive.model import Model
from sitegen.render.charts import progress

# Colour and shape together name a benchmark (readable without colour); the colours are
# progress.COLOURS and two more, none of them the ink colour the page swaps for the theme's.
COLOURS = (*progress.COLOURS, "#0e8a8a", "#d6336c", "#6b6b00")
SHAPES = progress.SHAPES


def headline_rows(model: Model, t, lang: str) -> list[dict]:
    """Per benchmark of the current suite (in its order) and round it was held, its fastest
    scored closed result (a copy within a round counted once; carried over: marked)."""
    index = model.index
    rows = []
    for benchmark_id in model.suite:
        name = model.site.get("benchmarks", benchmark_id)["name"][lang]
        for round_id in model.rounds_of(benchmark_id):
            best = model.headline(round_id, benchmark_id).best  # the fastest Available result
            if best:
                origin = index.carried_from(best)
                version = model.versions.version_of(benchmark_id, round_id)
                point = {"round": round_id, "value": best["value"], "id": best["id"], "version": version}
                rows.append(progress._row(t, lang, {**point, "carried": origin and origin["round"]}, name))
    return rows


def headline_spec(rows: list[dict], rounds: list[str], text: dict, size=None) -> dict:
    """The chart's spec at `size` (draw.Size; the wide layout when None)."""
    import altair as alt

    from sitegen.render.charts import draw

    size = size or draw.WIDE
    names = list(dict.fromkeys(row["series"] for row in rows))
    colours = alt.Scale(domain=names, range=[COLOURS[i % len(COLOURS)] for i in range(len(names))])
    shapes = alt.Scale(domain=names, range=[SHAPES[i % len(SHAPES)] for i in range(len(names))])
    legend = progress.legend(alt, size, columns=1 if size.narrow else 2)
    base = alt.Chart().encode(
        x=alt.X(
            "round:O",
            sort=rounds,
            title=text["round_axis"],
            axis=alt.Axis(labelAngle=-45 if size.narrow else 0),
        ),
        y=alt.Y(
            "value:Q",
            scale=alt.Scale(type="log"),
            title=draw.wrap(text["time"], 30) if size.narrow else text["time"],
            axis=draw.y_axis(alt, ",.2~f", size.ticks),
        ),
        color=alt.Color("series:N", scale=colours, legend=legend),
        detail="series:N",
    )
    # a result carried over from an earlier round is drawn hollow: no new result of its round
    points = base.mark_point(filled=True, size=70, strokeWidth=2, opacity=1).encode(
        shape=alt.Shape("series:N", scale=shapes, legend=legend),
        fill=alt.condition(
            "datum.carried", alt.value("#ffffff"), alt.Color("series:N", scale=colours, legend=None)
        ),
        stroke=alt.Color("series:N", scale=colours, legend=None),
    )
    return progress.lines_spec(alt, base, points, rows, size, text["lang"])


def headline_figure(model: Model, t, lang: str, path: str) -> str:
    """The figure with its caption and data table, or '' when no current benchmark was held
    in two rounds."""
    from sitegen.render.charts import draw_convert as draw

    site = model.site
    rows = headline_rows(model, t, lang)
    if len({row["round"] for row in rows}) < 2:
        return ""
    rounds = [r for r in site.rounds if any(row["round"] == r for row in rows)]
    text = progress.progress_text(t)
    wide, narrow = draw.cached_specs(
        site.store,
        {"headline": rows, "rounds": rounds, "text": text},
        lambda: [
            headline_spec(rows, rounds, text),
            draw.fitted(site.store, lambda size: headline_spec(rows, rounds, text, size)),
        ],
    )
    chart_id = "chart-home"
    label = t("home.headline.caption", round=model.latest_round)
    note = progress.unscored_note(model, t, lang, model.suite) + progress.carried_note(t, rows)
    table = progress._table_rows(model, t, lang, path, rows)
    return (
        f'<div class="chart-block"><figure class="chart chart-static" id="{chart_id}" data-kind="lines">'
        f'<div class="chart-view" role="img" aria-label="{escape(label)}">'
        f'<div class="chart-wide">{draw.page_svg(wide, chart_id, site.store)}</div>'
        f'<div class="chart-narrow">{draw.page_svg(narrow, chart_id + "-n", site.store)}</div></div>'
        f'<figcaption><span class="chart-caption">{escape(label + note)}</span></figcaption></figure>'
        f'<details class="chart-data"><summary>{escape(t("home.chart.data"))}</summary>'
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{escape(label)}">'
        f'<table class="data"><thead><tr><th scope="col">{escape(t("col.round"))}</th>'
        f'<th scope="col">{escape(t("col.benchmark"))}</th><th scope="col" class="num">'
        f'{escape(t("leaderboard.col.time"))}</th></tr></thead><tbody>{table}</tbody></table>'
        f'</div></details></div>'
    )
