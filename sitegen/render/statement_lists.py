"""Several [[equal_scale:…]] statements written as a writer would: one sentence with a list.

`[[equal_scale:A,B,C/NVIDIA]]` (and a run of adjacent references, markup.py) asks the same
question of results in several rounds, benchmarks or scales. Each answer that names a result
is kept, with the slot it is in; the answers "the record has none" merge into one sentence
whose slot lists the rounds and benchmarks ("… in ResNet-50 v1.0, v1.1 or v2.0, closed
division") and whose other scales follow (", or with 256 accelerators in …"); the fastest
results of every other submitter share one frame too."""

from __future__ import annotations

from html import escape

from sitegen.base import fmt, urls
from sitegen.content.references import rounds_of
from sitegen.render import record_statements as one
from sitegen.render.names import company, company_html
from sitegen.render.page import link, say


def equal_scale_list(page, results: list[dict], who: str) -> str:
    """The statements of `results` (record results, in the editor's order) for `who` (a
    submitter, or "all"): each result found with its slot, then one sentence for every slot
    where the record has none."""
    parts, nones, framed = [], [], set()
    for result in results:
        found, missing = _answer(page, result, who)
        count = result["accelerator_count"] or 0
        if missing:  # a statement with results that have no time is said on its own
            parts.append(one.equal_scale_one(page, result, who))
        elif found:
            parts.append(_found(page, result, found, who, first=count not in framed))
            framed.add(count)
        else:
            nones.append(result)
    if nones:
        parts.append(_none(page, nones, who))
    text = say(page, "ref.statement_separator").join(parts)
    return f'<span class="derived record-ref">{text}</span>'


def _answer(page, result: dict, who: str) -> tuple[list[dict], str]:
    """(the results found, the note on results there without a time)."""
    if who == "all":
        mine = result["submitter"].lower()
        return page.model.statements.equal_scale_others(result), one.unscored_at_scale(
            page, result, lambda r: r["submitter"].lower() != mine
        )
    hit = page.model.statements.equal_scale(result, who)
    missing = one.unscored_at_scale(page, result, lambda r: r["id"] != result["id"], who)
    return ([hit] if hit else []), missing


def _found(page, result: dict, found: list[dict], who: str, first: bool) -> str:
    slot = escape(slots(page, [result]))
    if who == "all":
        listed = say(page, "ref.list_separator").join(one.record_result(page, r) for r in found)
        count = fmt.number(result["accelerator_count"] or 0, page.language, 0)
        if first:
            return say(page, "ref.equal_scale_others", count=count, slot=slot, results=listed)
        return say(page, "ref.in_slot", slot=slot, text=listed)
    return say(page, "ref.in_slot", slot=slot, text=one.record_result(page, found[0]))


def _none(page, results: list[dict], who: str) -> str:
    """One sentence for every result at whose slot and scale the record has none: the first
    scale in the statement's frame, any other after it ("…, or with 256 accelerators in …")."""
    by_count: dict[int, list[dict]] = {}
    for result in results:
        by_count.setdefault(result["accelerator_count"] or 0, []).append(result)
    (count, first), *others = by_count.items()
    values = {"count": fmt.number(count, page.language, 0), "slot": slots(page, first)}
    if who == "all":
        submitters = sorted({r["submitter"] for r in results})
        submitter = fmt.listing([company(page, s) for s in submitters], page.language)
        text = say(page, "ref.no_equal_scale_others", submitter=submitter, **values)
    else:
        text = say(page, "ref.no_equal_scale", submitter=company(page, who), **values)
    for count, group in others:
        text += say(
            page,
            "ref.no_equal_scale_more",
            count=fmt.number(count, page.language, 0),
            slot=slots(page, group),
        )
    return escape(text)


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
    for (division, in_rounds), benchmarks in grouped.items():
        names = [one.benchmark_name(page, b) for b in benchmarks]
        phrases.append(
            say(
                page,
                "ref.slot",
                round=fmt.listing(list(in_rounds), page.language, "or"),
                benchmark=fmt.listing(names, page.language, "or"),
                division=say(page, "division." + division).lower(),
            )
        )
    return fmt.listing(phrases, page.language, "or")


def equal_scale(page, arg: str, line: int) -> str:
    """[[equal_scale:RESULT/WHO]] or [[equal_scale:RESULT,RESULT,…/WHO]]."""
    idents, _, who = arg.partition("/")
    results = [page.model.record.get(ident) for ident in idents.split(",")]
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


def rounds_by_benchmark(page, who: str | None, benchmarks: list[str], after: str | None) -> str:
    """[[rounds:WHO/A,B]]: the rounds holding who's results on each benchmark, in one sentence;
    benchmarks with the same rounds listed together ("on ResNet-50 and BERT in v1.0, v1.1,
    v2.0")."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for benchmark in benchmarks:
        held = tuple(rounds_of(page.site, who, benchmark, after) or ())
        groups.setdefault(held, []).append(one.benchmark_name(page, benchmark))
    phrases = []
    for held, names in groups.items():
        listed = fmt.listing(names, page.language)
        if not held:
            phrases.append(escape(say(page, "ref.rounds_group_none", benchmarks=listed)))
            continue
        links = say(page, "ref.list_separator").join(
            link(page, urls.round_page(page.lang, r), r) for r in held
        )
        phrases.append(say(page, "ref.rounds_group", benchmarks=escape(listed), rounds=links))
    groups_text = say(page, "ref.statement_separator").join(phrases)
    if who is None:
        text = say(page, "ref.rounds_by_benchmark_all", groups=groups_text)
    else:
        text = say(page, "ref.rounds_by_benchmark", submitter=company_html(page, who), groups=groups_text)
    return f'<span class="derived record-ref">{text}</span>'
