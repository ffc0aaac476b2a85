"""Several [[equal_scale:…]] statements written as a writer would: one sentence with a list.

`[[equal_scale:A,B,C/NVIDIA]]` (and a run of adjacent references, markup.py) asks the same
question of results in several rounds, benchmarks or scales. Each answer that names a result
is kept, with the slot it is in; the answers "the record has none" merge into one sentence
per scale whose slot lists the rounds and benchmarks ("… in ResNet-50 v1.0, v1.1 or v2.0,
closed division"); the fastest results of every other submitter share one sentence too."""

from __future__ import annotations

from html import escape

from sitegen.base import fmt
from sitegen.derive import references as record_refs
from sitegen.render import record_statements as one
from sitegen.render.page import say


def equal_scale_list(page, results: list[dict], who: str) -> str:
    """The statements of `results` (record results, in the editor's order) for `who` (a
    submitter, or "all"), one sentence per scale."""
    by_count: dict[int, list[dict]] = {}
    for result in results:
        by_count.setdefault(result["accelerator_count"] or 0, []).append(result)
    sentences = [_at_count(page, group, who) for group in by_count.values()]
    text = say(page, "ref.statement_separator").join(s for s in sentences if s)
    return f'<span class="derived record-ref">{text}</span>'


def _at_count(page, results: list[dict], who: str) -> str:
    """One scale's statements: the results found, then one sentence for those with none."""
    parts, nones = [], []
    for result in results:
        found, missing = _answer(page, result, who)
        if missing:  # a statement with results that have no time is said on its own
            parts.append(one.equal_scale_one(page, result, who))
        elif found:
            parts.append(_found(page, result, found, who, first=not parts))
        else:
            nones.append(result)
    if nones:
        parts.append(_none(page, nones, who))
    return say(page, "ref.statement_separator").join(parts)


def _answer(page, result: dict, who: str) -> tuple[list[dict], str]:
    """(the results found, the note on results there without a time)."""
    if who == "all":
        mine = result["submitter"].lower()
        return record_refs.equal_scale_others(page.site, result), one.unscored_at_scale(
            page, result, lambda r: r["submitter"].lower() != mine
        )
    hit = record_refs.equal_scale(page.site, result, who)
    missing = one.unscored_at_scale(page, result, lambda r: r["id"] != result["id"], who)
    return ([hit] if hit else []), missing


def _found(page, result: dict, found: list[dict], who: str, first: bool) -> str:
    slot = escape(slots(page, [result]))
    if who == "all":
        listed = say(page, "ref.list_separator").join(one.record_result(page, r) for r in found)
        count = fmt.number(result["accelerator_count"] or 0, page.lang, 0)
        if first:
            return say(page, "ref.equal_scale_others", count=count, slot=slot, results=listed)
        return say(page, "ref.in_slot", slot=slot, text=listed)
    return say(page, "ref.in_slot", slot=slot, text=one.record_result(page, found[0]))


def _none(page, results: list[dict], who: str) -> str:
    """One sentence for every result of one scale at which the record has none."""
    count = fmt.number(results[0]["accelerator_count"] or 0, page.lang, 0)
    slot = slots(page, results)
    if who == "all":
        submitters = sorted({r["submitter"] for r in results})
        submitter = fmt.listing(submitters, page.lang)
        return escape(say(page, "ref.no_equal_scale_others", submitter=submitter, count=count, slot=slot))
    return escape(say(page, "ref.no_equal_scale", submitter=who.replace("_", " "), count=count, slot=slot))


def slots(page, results: list[dict]) -> str:
    """The slots of `results` in one phrase: rounds listed within a benchmark and division,
    benchmarks with the same rounds listed together ("ResNet-50 or BERT v1.0, closed
    division"; "v1.0、v1.1或v2.0的ResNet-50封闭组")."""
    rounds: dict[tuple[str, str], list[str]] = {}
    for r in results:
        held = rounds.setdefault((r["benchmark"], r["division"]), [])
        if r["round"] not in held:
            held.append(r["round"])
    grouped: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for (benchmark, division), held in rounds.items():
        grouped.setdefault((division, tuple(held)), []).append(benchmark)
    phrases = []
    for (division, held), benchmarks in grouped.items():
        names = [one.benchmark_name(page, b) for b in benchmarks]
        phrases.append(
            say(
                page,
                "ref.slot",
                round=fmt.listing(held, page.lang, "or"),
                benchmark=fmt.listing(names, page.lang, "or"),
                division=say(page, "division." + division).lower(),
            )
        )
    return fmt.listing(phrases, page.lang, "or")


def equal_scale(page, arg: str, line: int) -> str:
    """[[equal_scale:RESULT/WHO]] or [[equal_scale:RESULT,RESULT,…/WHO]]."""
    idents, _, who = arg.partition("/")
    results = [page.site.record.get(ident) for ident in idents.split(",")]
    if not who or any(r is None for r in results):
        return page.fail(
            line,
            f"[[equal_scale:{arg}]]: write <record result id>[,<record result id>...]/<submitter|all> "
            f"naming results of content/data/record/",
        )
    if who != "all" and not page.site.has_submitter(who):
        return page.fail(line, f"[[equal_scale:{arg}]]: no submitter '{who}' in the record")
    if len(results) == 1:
        return one.equal_scale_one(page, results[0], who)
    return equal_scale_list(page, results, who)
