"""The references that show derived figures of the record (derive/scale_refs.py):

- [[acc_minutes:RESULT]]: the result's accelerator-minutes (time to train × accelerators);
- [[accelerators:RESULT]]: the result's number of accelerators;
- [[at_scale:BENCHMARK/SCALE/FAMILY@ROUND/FAMILY@ROUND]]: the second side's fastest closed
  result at that scale against the first's, as a speed-up, or "level" inside the noise band;
- [[tally:BENCHMARK/ROUND]]: results, submitters and chip families published there;
- [[chips:BENCHMARK/ROUND]]: those chip families, each linked, with its number of results;

Each figure is a <span class="derived"> whose title says how it is derived; the words come
from the interface strings of the page's language."""

from __future__ import annotations

from html import escape
from typing import Any

from sitegen.base import fmt, urls
from sitegen.render.names import company_html
from sitegen.render.page import Page, any_result, link, say


def _model(page: Page) -> Any:
    """The page's model of the record (Page types it loosely)."""
    return page.model


def _span(page: Page, html: str, basis: str) -> str:
    title = escape(say(page, basis), quote=True)
    return f'<span class="derived" title="{title}">{html}</span>'


def acc_minutes(page: Page, arg: str, line: int) -> str:
    result = any_result(page, arg, line)
    if not result:
        return ""
    value = _model(page).work_value(result)
    if value is None:
        return page.fail(line, f"[[acc_minutes:{arg}]]: the result has no accelerators (CPU only)")
    text = say(page, "ref.acc_minutes", value=fmt.figure(value, page.language))
    return _span(page, link(page, urls.result(page.lang, arg), text), "ref.acc_minutes_basis")


def accelerators(page: Page, arg: str, line: int) -> str:
    """[[accelerators:RESULT]]: the result's accelerator count, linked to its page."""
    result = any_result(page, arg, line)
    if not result:
        return ""
    if not result.get("accelerator_count"):
        return page.fail(line, f"[[accelerators:{arg}]]: the result has no accelerators (CPU only)")
    text = fmt.number(result["accelerator_count"], page.language, 0)
    return link(page, urls.result(page.lang, arg), text)


def _family_name(page: Page, family: str) -> str:
    return _model(page).index.accelerators[family].name


def _side(page: Page, result: dict, family: str) -> str:
    """'H100 in v4.1: 1.19 min, NVIDIA' (time linked), with its category when not available and
    the round it is carried over from."""
    time = link(
        page,
        urls.result(page.lang, result["id"]),
        fmt.duration(result["value"], result["unit"], page.language),
    )
    extra = [company_html(page, result["submitter"], False)]
    if result.get("category") and result["category"] != "available":
        category = say(page, "category." + result["category"]).lower()
        extra.append(escape(say(page, "ref.category", category=category)))
    earlier = _model(page).index.carried_from(result)
    if earlier is not None:
        extra.append(escape(say(page, "ref.carried", round=earlier["round"])))
    sep = say(page, "ref.separator")
    return say(
        page,
        "ref.at_scale_side",
        family=escape(_family_name(page, family)),
        round=escape(result["round"]),
        time=time,
        details=sep.join(extra),
    )


def _known_side(page: Page, side: tuple[str, str], where: str, line: int) -> bool:
    if side[0] not in _model(page).index.accelerators:
        page.fail(line, f"{where}: no chip family '{side[0]}' in the record")
        return False
    if side[1] not in page.site.rounds:
        page.fail(line, f"{where}: no round '{side[1]}' in the record")
        return False
    return True


def at_scale(page: Page, arg: str, line: int) -> str:
    where = f"[[at_scale:{arg}]]"
    parsed = _model(page).statements.parse_at_scale(arg)
    if parsed is None:
        return page.fail(line, f"{where}: write <benchmark>/<accelerators>/<family>@<round>/<family>@<round>")
    benchmark, scale, before, after = parsed
    if benchmark not in page.site.tables["benchmarks"]:
        return page.fail(line, f"{where}: unknown benchmark '{benchmark}'")
    if not (_known_side(page, before, where, line) and _known_side(page, after, where, line)):
        return ""
    found = _model(page).statements.compare_at_scale(benchmark, scale, before, after)
    if found is None:
        return page.fail(
            line, f"{where}: the record has no scored closed result of both sides with {scale} accelerators"
        )
    sides = say(
        page,
        "ref.at_scale_sides",
        after=_side(page, found.after, after[0]),
        before=_side(page, found.before, before[0]),
        count=fmt.number(scale, page.language, 0),
    )
    band = _band(page, found.band)
    if found.level:
        text = say(page, "ref.at_scale_level", sides=sides, band=band)
    else:
        key = "ref.at_scale_faster" if found.speedup > 1 else "ref.at_scale_slower"
        text = say(page, key, ratio=fmt.ratio(found.speedup, page.language), sides=sides)
    return _span(page, text, "ref.at_scale_basis")


def _band(page: Page, band: float) -> str:
    """The noise band as the rules state it: 5%, 2.5%."""
    return fmt.number(band * 100, page.language, 1) + "%"


def _slot_arg(page: Page, kind: str, arg: str, line: int) -> tuple[str, str] | None:
    benchmark, _, round_id = arg.partition("/")
    if benchmark not in page.site.tables["benchmarks"] or round_id not in page.site.rounds:
        page.fail(
            line, f"[[{kind}:{arg}]]: write <benchmark>/<round> naming a benchmark and a round of the record"
        )
        return None
    if not _model(page).results(benchmark, round_id):
        page.fail(line, f"[[{kind}:{arg}]]: the record has no {benchmark} result in {round_id}")
        return None
    return benchmark, round_id


def tally(page: Page, arg: str, line: int) -> str:
    found = _slot_arg(page, "tally", arg, line)
    if found is None:
        return ""
    results, submitters, families = _model(page).statements.tally(*found)
    target = urls.leaderboard(page.lang, *found)
    text = say(
        page,
        "ref.tally",
        results=fmt.number(results, page.language, 0),
        submitters=fmt.number(submitters, page.language, 0),
        families=fmt.number(families, page.language, 0),
    )
    return f'<span class="derived record-ref">{link(page, target, text)}</span>'


def chips(page: Page, arg: str, line: int) -> str:
    found = _slot_arg(page, "chips", arg, line)
    if found is None:
        return ""
    items = [
        link(
            page,
            urls.accelerator(page.lang, key),
            say(page, "ref.chips_item", family=name, n=fmt.number(count, page.language, 0)),
        )
        for key, name, count in _model(page).statements.chips_of(*found)
    ]
    return f'<span class="derived record-ref">{say(page, "ref.list_separator").join(items)}</span>'


KINDS = {
    "acc_minutes": acc_minutes,
    "accelerators": accelerators,
    "at_scale": at_scale,
    "tally": tally,
    "chips": chips,
}
