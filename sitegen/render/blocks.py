"""Tables placed by the author with a fenced ```results block: selection, then HTML."""

from __future__ import annotations

from html import escape

from sitegen.base import fmt, languages, urls
from sitegen.base.languages import Language
from sitegen.render.page import Page


def selection_note(site, t, rows: list[dict], page: Page) -> str:
    """Under a block of named systems on a site with the record: how many results the record
    holds for the same benchmarks, rounds and divisions, and their leaderboards."""
    if not site.rounds:
        return ""
    slots, total = page.model.selection_total(rows)
    links = t("ref.list_separator").join(
        f'<a href="{escape(page.link(urls.leaderboard(page.lang, b, rnd)))}">'
        f'{escape(site.get("benchmarks", b)["name"][page.lang])} {escape(rnd)}</a>'
        for b, rnd in slots
    )
    mark = "\x00"
    text = escape(
        t(
            "block.selection",
            n=fmt.number(len(rows), page.language, 0),
            total=fmt.number(total, page.language, 0),
            links=mark,
        )
    ).replace(mark, links)
    return f'<p class="note block-selection">{text}</p>'


def _runs_cell(model, result: dict, lang: Language) -> str:
    """Runs in the logs, failed runs in brackets: the same for both sides of any comparison."""
    counted = model.statements.runs_of(model.record.get(result["id"]) or result)
    if counted is None:
        return "–"
    runs, failed = counted
    return f"{fmt.number(runs, lang, 0)} ({fmt.number(failed, lang, 0)})"


def _carry_mark(model, result: dict, page: Page, t) -> str:
    """' (carried over from vX.Y)' linked to the original, as every list of the record says it."""
    origin = model.index.carried_from(result) if model.site.rounds and result["id"] in model.record else None
    if not origin:
        return ""
    target = page.link(urls.result(page.lang, origin["id"]))
    return f'{languages.gap(page.language)}<a class="carry" href="{escape(target)}">{escape(t("mark.carried", round=origin["round"]))}</a>'


def results_table(model, rows: list[dict], page: Page, t, caption: str = "") -> str:
    """A complete, accessible table: system, time (the answer, next to the system: both stay in
    view on a phone), submitter, round, division, framework, accelerators, runs (failed). The submitter tells apart two submitters' runs of the same software on the same
    hardware (Baidu's and Graphcore's PaddlePaddle runs of v2.0)."""
    lang, site = page.lang, model.site
    head = "".join(
        f'<th scope="col"{cls}>{escape(t(key))}</th>'
        for key, cls in (
            ("col.system", ""),
            ("col.time_min", ' class="num answer"'),
            ("col.submitter", ""),
            ("col.round", ""),
            ("col.division", ""),
            ("col.framework", ""),
            ("col.accelerators", ' class="num"'),
            ("col.runs", ' class="num"'),
        )
    )
    body = []
    for r in rows:
        system = site.get("systems", r["system"])
        link = page.link(urls.system(lang, r["system"]) + "#" + urls.anchor("result", r["id"]))
        body.append(
            f'<tr><th scope="row"><a href="{escape(link)}">{escape(system["name"][lang])}</a>{_carry_mark(model, r, page, t)}</th>'
            f'<td class="num answer" data-value="{r["value"]}">{escape(fmt.time_number(r["value"], page.language))}</td>'
            f'<td>{escape(model.names.submitter(r["submitter"], lang) if r.get("submitter") else "–")}</td><td>{escape(r["round"])}</td><td>{escape(t("division." + r["division"]))}</td>'
            f'<td>{escape(r["framework"])}</td>'
            f'<td class="num">{escape(fmt.number(r.get("accelerator_count") or system["accelerator_count"], page.language, 0))}</td>'
            f'<td class="num">{escape(_runs_cell(model, r, page.language))}</td></tr>'
        )
    caption_html = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{escape(caption or t("col.results"))}">'
        f'<table class="data sortable results">{caption_html}<thead><tr>{head}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody></table></div>'
    )
