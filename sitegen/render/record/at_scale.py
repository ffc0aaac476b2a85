"""The page of one benchmark at one accelerator count (benchmarks/<id>/at-<n>.html): each chip
family's standing result of every round, its change from the family's previous round and its
accelerator-minutes (Model.at_scale, derive/at_scale.py), a chart of small multiples drawn
from the same cells, and links to the benchmark's other counts. Only words and drawing here."""

from __future__ import annotations

from markupsafe import Markup

from sitegen.base import fmt, urls
from sitegen.derive.model import Model
from sitegen.render.charts import small_multiples
from sitegen.render.pages import _attribution, _page


def at_scale_units(site, model: Model):
    """(benchmark, count) of every page of this kind, in the site's benchmark order."""
    for benchmark in site.table("benchmarks"):
        for scale in model.scales.get(benchmark["id"], ()):
            yield benchmark, scale


def change_text(t, lang: str, figure) -> str:
    """A change in time in words: "8.70% less time", never a bare sign."""
    if figure.value == 0:
        return t("scale.same")
    key = "scale.less" if figure.value < 0 else "scale.more"
    return t(key, pct=fmt.percent(abs(figure.value) * 100, t.language))


def chart(view, t, lang: str, chart_id: str, model: Model) -> str:
    """Small multiples of the view: a panel per family in its look, its points the table's cells."""
    rounds = list(view.rounds)
    panels = [
        {
            "key": row.family,
            "title": row.name,
            "look": model.look(row.family),
            "points": [
                {
                    "x": rounds.index(c.round),
                    "t": c.minutes,
                    "hollow": c.carried is not None,
                    "apart": c.apart,
                }
                for c in row.cells
            ],
        }
        for row in view.rows
    ]
    caption = t("scale.caption", n=fmt.number(view.scale, t.language, 0))
    return small_multiples.figure(panels, rounds, caption, chart_id)


def at_scale_page(theme, site, lang, t, benchmark: dict, scale: int, model: Model):
    """The page of `benchmark` at `scale` accelerators."""
    view = model.at_scale[(benchmark["id"], scale)]
    name = benchmark["name"][lang]
    path = urls.benchmark_at_scale(lang, benchmark["id"], scale)
    crumbs = [(t("nav.benchmarks"), urls.benchmarks(lang)), (name, urls.benchmark(lang, benchmark["id"]))]
    return _page(
        theme,
        site,
        lang,
        t,
        path,
        "at_scale.html",
        t("scale.title", benchmark=name, n=fmt.number(scale, t.language, 0)),
        crumbs,
        benchmark=benchmark,
        view=view,
        scale=scale,
        scales=model.scales[benchmark["id"]],
        chart=Markup(chart(view, t, lang, "chart-at-scale", model)),
        change=lambda figure: change_text(t, lang, figure),
        minutes=model.figures.minutes,
        index=model.index,
        attribution=_attribution(site, view.rounds),
        model=model,
    )
