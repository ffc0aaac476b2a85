"""Tables placed by the author with a fenced ```results block: selection, then HTML."""
from __future__ import annotations

from html import escape

from . import fmt, record_refs, urls
from .markup import Page

SELECT_FIELDS = {"benchmark", "round", "division", "systems", "caption"}


def select_results(site, params: dict, page: Page, line: int) -> list[dict] | None:
    unknown = sorted(set(params) - SELECT_FIELDS)
    if unknown:
        page.fail(line, f"results block: unknown field '{unknown[0]}' "
                        f"(known: {', '.join(sorted(SELECT_FIELDS))})")
        return None
    benchmark = params.get("benchmark")
    if benchmark not in site.tables["benchmarks"]:
        page.fail(line, f"results block: unknown benchmark '{benchmark}'")
        return None
    systems = params.get("systems") or []
    for ident in systems:
        if ident not in site.tables["systems"]:
            page.fail(line, f"results block: unknown system '{ident}'")
            return None
    rows = [r for r in site.results_for(benchmark=benchmark)
            if str(params.get("round", r["round"])) == r["round"]
            and params.get("division", r["division"]) == r["division"]
            and (not systems or r["system"] in systems)]
    if not rows:
        page.fail(line, "results block: the selection matches no result")
        return None
    return sorted(rows, key=lambda r: (r["division"], r["value"], r["id"]))


def _runs_cell(site, result: dict, lang: str) -> str:
    """Runs in the logs, failed runs in brackets: the same for both sides of any comparison."""
    counted = record_refs.runs_of(site.record.get(result["id"]) or result)
    if counted is None:
        return "–"
    runs, failed = counted
    return f"{fmt.number(runs, lang, 0)} ({fmt.number(failed, lang, 0)})"


def results_table(site, rows: list[dict], page: Page, t, caption: str = "") -> str:
    """A complete, accessible table: system, time (the answer, next to the system: both stay in
    view on a phone), submitter, round, division, framework, accelerators, runs (failed). The submitter tells apart two submitters' runs of the same software on the same
    hardware (Baidu's and Graphcore's PaddlePaddle runs of v2.0)."""
    lang = page.lang
    head = "".join(f'<th scope="col"{cls}>{escape(t(key))}</th>' for key, cls in (
        ("col.system", ""), ("col.time_min", ' class="num answer"'), ("col.submitter", ""),
        ("col.round", ""), ("col.division", ""), ("col.framework", ""),
        ("col.accelerators", ' class="num"'), ("col.runs", ' class="num"')))
    body = []
    for r in rows:
        system = site.get("systems", r["system"])
        link = page.link(urls.system(lang, r["system"]) + "#" + urls.anchor("result", r["id"]))
        body.append(
            f'<tr><th scope="row"><a href="{escape(link)}">{escape(system["name"][lang])}</a></th>'
            f'<td class="num answer" data-value="{r["value"]}">{escape(fmt.time_number(r["value"], lang))}</td>'
            f'<td>{escape(r.get("submitter") or "–")}</td><td>{escape(r["round"])}</td><td>{escape(t("division." + r["division"]))}</td>'
            f'<td>{escape(r["framework"])}</td>'
            f'<td class="num">{escape(fmt.number(r.get("accelerator_count") or system["accelerator_count"], lang, 0))}</td>'
            f'<td class="num">{escape(_runs_cell(site, r, lang))}</td></tr>')
    caption_html = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (f'<div class="table-wrap" tabindex="0" role="region" aria-label="{escape(caption or t("col.results"))}">'
            f'<table class="data sortable">{caption_html}<thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')
