"""The record's statements drawn: [[fastest:…]], [[equal_scale:…]] and a cited result.

A cited record result says its time, who ran it, on what, and its runs; the statements and
other kinds share that sentence."""

from __future__ import annotations

from html import escape

from sitegen.base import fmt, urls
from sitegen.content.references import parse_slot
from sitegen.render.names import company, company_html
from sitegen.render.page import link, say, strings


def record_result(page, result: dict, with_scale: bool = True) -> str:
    """A record result as a reader checks it: its time linked to its page, who ran it, on how
    many of which accelerator, and its runs."""
    time = link(
        page,
        urls.result(page.lang, result["id"]),
        fmt.duration(result["value"], result["unit"], page.language),
    )
    details = [company_html(page, result["submitter"], False), escape(result["system_name"])]
    if with_scale:
        details.append(escape(scale_text(page, result)))
    if result.get("category") and result["category"] != "available":  # preview, research
        details.append(
            escape(say(page, "ref.category", category=say(page, "category." + result["category"]).lower()))
        )
    index = page.model.index
    earlier, copied = index.carried_from(result), index.copy_of(result)
    if earlier is not None:  # the same runs as an earlier round's result (carryover.py)
        details.append(
            say(
                page,
                "ref.carried",
                round=link(page, urls.result(page.lang, earlier["id"]), earlier["round"]),
            )
        )
    if copied is not None:  # the same runs in another folder of its round
        details.append(
            say(
                page,
                "ref.copy",
                result=link(page, urls.result(page.lang, copied["id"]), copied["system_name"]),
            )
        )
    details.append(runs_text(page, result))
    return say(page, "ref.result", time=time, details=say(page, "ref.separator").join(details))


def scale_text(page, result: dict) -> str:
    """'3,456 × TPU', or CPUs only."""
    count = result["accelerator_count"] or 0
    if count and result["accelerator_model"]:
        return say(
            page,
            "ref.scale",
            count=fmt.number(count, page.language, 0),
            accelerator=result["accelerator_model"],
        )
    return say(page, "ref.cpu_only")


def runs_text(page, result: dict) -> str:
    counted = page.model.statements.runs_of(result)
    if counted is None:
        return escape(say(page, "ref.logs_missing"))
    runs, failed = counted
    key = "ref.runs_failed" if failed else "ref.runs_none_failed"
    return escape(
        say(page, key, runs=fmt.number(runs, page.language, 0), failed=fmt.number(failed, page.language, 0))
    )


AGAIN = "\0again"  # in Page.said: the paragraph has said "(…, as above)"


def _unscored_text(page, results: list[dict]) -> str:
    """The results a statement over scored results leaves out, each linked: their logs are
    missing from the snapshot read, so they have no time."""
    if not results:
        return ""
    links = []
    for result in page.model.statements.largest_first(results):
        links.append(
            link(
                page,
                urls.result(page.lang, result["id"]),
                say(
                    page,
                    "ref.unscored_item",
                    submitter=company(page, result["submitter"], False),
                    scale=scale_text(page, result),
                ),
            )
        )
    # a writer names each result once a paragraph: the ones named above are not named again
    fresh = [item for item in links if item not in page.said]
    if not fresh and AGAIN in page.said:  # "as above" said once a paragraph too
        return ""
    if not fresh:
        page.said.add(AGAIN)
        return say(page, "ref.unscored_again")
    key = "ref.unscored_also" if page.said else "ref.unscored"
    page.said.update(links)
    return say(page, key, results=say(page, "ref.list_separator").join(fresh))


def benchmark_name(page, benchmark: str) -> str:
    return page.site.tables["benchmarks"].get(benchmark, {}).get("name", {}).get(page.lang, benchmark)


def _slot_text(page, round_id: str, benchmark: str, division: str) -> str:
    return say(
        page,
        "ref.slot",
        round=round_id,
        benchmark=benchmark_name(page, benchmark),
        division=strings(page)["division." + division].lower(),
    )


def fastest(page, arg, line):
    parsed = parse_slot(arg)
    if not parsed:
        return page.fail(line, f"[[fastest:{arg}]]: write <round>/<benchmark>/<closed|open>[/<submitter>]")
    found = page.model.statements.fastest(*parsed)
    if found is None:
        where = f" of submitter '{parsed[3]}'" if parsed[3] else ""
        return page.fail(line, f"[[fastest:{arg}]]: the record has no scored result{where} there")
    missing = _unscored_text(page, page.model.statements.unscored(*parsed))
    level = _level_text(page, parsed[1], page.model.statements.level_with_fastest(*parsed))
    return f'<span class="derived record-ref">{record_result(page, found)}{level}{missing}</span>'


def _level_text(page, benchmark: str, level: list[dict]) -> str:
    """After a "fastest": the results within the benchmark's noise band of it, each linked, so
    that the statement claims no clear lead (derived.level_with_first)."""
    if not level:
        return ""
    band = fmt.number(page.model.statements.band_of(benchmark) * 100, page.language, 1)
    listed = say(page, "ref.list_separator").join(record_result(page, r) for r in level)
    return say(page, "ref.level_with", band=band, results=listed)


def equal_scale_one(page, result: dict, who: str) -> str:
    """[[equal_scale:RESULT/WHO]]: who's fastest result at result's round, benchmark, division
    and scale, or the record's "none" (the results there without a time named)."""
    if who == "all":
        return _equal_scale_others(page, result)
    found = page.model.statements.equal_scale(result, who)
    missing = unscored_at_scale(page, result, lambda r: r["id"] != result["id"], who)
    if found is None and missing:
        text = say(
            page,
            "ref.equal_scale_unscored",
            submitter=company_html(page, who),
            count=fmt.number(result["accelerator_count"] or 0, page.language, 0),
            slot=escape(_slot_text(page, result["round"], result["benchmark"], result["division"])),
        )
        return f'<span class="derived record-ref">{text}{missing}</span>'
    if found is None:
        count = fmt.number(result["accelerator_count"] or 0, page.language, 0)
        text = say(
            page,
            "ref.no_equal_scale",
            submitter=company(page, who),
            count=count,
            slot=_slot_text(page, result["round"], result["benchmark"], result["division"]),
        )
        return f'<span class="derived record-ref">{escape(text)}</span>'
    return f'<span class="derived record-ref">{record_result(page, found)}{missing}</span>'


def unscored_at_scale(page, result: dict, keep, who: str | None = None) -> str:
    """The note on results without a time at `result`'s round, benchmark, division and scale
    (of `who` when given) that `keep` accepts: an equal-scale statement must name them."""
    found = page.model.statements.unscored(
        result["round"],
        result["benchmark"],
        result["division"],
        who,
        result["accelerator_count"],
    )
    return _unscored_text(page, [r for r in found if keep(r)])


def _equal_scale_others(page, result: dict) -> str:
    """Every other submitter's fastest result at `result`'s scale, or the record's "none"."""
    found = page.model.statements.equal_scale_others(result)
    missing = unscored_at_scale(page, result, lambda r: r["submitter"].lower() != result["submitter"].lower())
    slot = _slot_text(page, result["round"], result["benchmark"], result["division"])
    count = fmt.number(result["accelerator_count"] or 0, page.language, 0)
    if not found:
        text = escape(
            say(
                page,
                "ref.no_equal_scale_others",
                submitter=company(page, result["submitter"]),
                count=count,
                slot=slot,
            )
        )
        return f'<span class="derived record-ref">{text}{missing}</span>'
    listed = say(page, "ref.list_separator").join(record_result(page, r) for r in found)
    text = say(page, "ref.equal_scale_others", count=count, slot=escape(slot), results=listed)
    return f'<span class="derived record-ref">{text}{missing}</span>'
