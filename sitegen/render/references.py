"""Data references drawn: each `[[kind:arg]]` becomes HTML, or a problem at its line.

The HTML is the generator's own (a figure, a link, a statement); `KINDS` is the table of
kinds, keyed as content/references.py's REFERENCE_KINDS."""

from __future__ import annotations

from html import escape

from markupsafe import Markup

from sitegen.base import fmt, urls
from sitegen.content.field_types import suggest
from sitegen.content.model import source_title
from sitegen.content.references import SHORTCODE, parse_rounds, rounds_of
from sitegen.render import scale_refs
from sitegen.render.names import company
from sitegen.render.page import Page, any_result, link, result_pair, say, source_name, table_record
from sitegen.render.record_statements import fastest, runs_text
from sitegen.render.statement_lists import equal_scale, rounds_by_benchmark

SMALL = ' class="cross-division"'


def _result(page, arg, line):
    result = any_result(page, arg, line)
    if not result:
        return ""
    value = fmt.duration(result["value"], result["unit"], page.language)
    if arg not in page.model.system_results:  # a record result without a site system
        return link(page, urls.result(page.lang, arg), value)
    target = urls.system(page.lang, result["system"]) + "#" + urls.anchor("result", arg)
    return link(page, target, value)


def _claim(page, arg, line, recomputed=False):
    """[[claim:ID]]: the figure as the source stated it; [[check:ID]]: the site's recomputed
    value, by the figure rule, or with '|as_stated' at the claim's own precision (the logs'
    1.56× is 1.6× when the vendor wrote one decimal), so a sentence can set them side by side."""
    arg, _, option = arg.partition("|")
    if option not in ("", "as_stated") or (option and not recomputed):
        return page.fail(
            line,
            f"[[{'check' if recomputed else 'claim'}:{arg}|{option}]]: unknown "
            "option (known: [[check:ID|as_stated]])",
        )
    claim = table_record(page, "claims", arg, line)
    if not claim:
        return ""
    if recomputed:
        value = page.checks[arg].value
        if value is None:
            return page.fail(line, f"claim '{arg}' cannot be checked, so [[check:...]] has no value")
    else:
        value = claim["figure"]
    stated = not recomputed or option == "as_stated"
    text = fmt.quantity(
        value, claim["unit"], page.language, fmt.decimals_of(claim["figure"]) if stated else None
    )
    return link(page, urls.claims(page.lang) + "#" + urls.anchor("claim", arg), text)


def _comparable(page, a: dict, b: dict, kind: str, arg: str, flag: str, line: int) -> bool:
    """A ratio compares one benchmark; across divisions only when the reference says so."""
    where = f"[[{kind}:{arg}]]"
    if flag not in ("", "cross-division"):
        return not page.fail(line, f"{where}: unknown option '{flag}' (known: cross-division)")
    if a["benchmark"] != b["benchmark"]:
        return not page.fail(
            line,
            f"{where}: '{a['id']}' is {a['benchmark']} and '{b['id']}' is "
            f"{b['benchmark']}; a ratio compares one benchmark",
        )
    if a["division"] != b["division"] and flag != "cross-division":
        return not page.fail(
            line,
            f"{where}: '{a['id']}' is in the {a['division']} division and "
            f"'{b['id']}' in the {b['division']}; write "
            f"[[{kind}:{arg}|cross-division]] to compare them, and the "
            "page says so",
        )
    return True


def _derived(page, arg, line, kind):
    arg, _, flag = arg.partition("|")  # A/B|cross-division
    pair, _, prices = arg.partition("@")  # ppr may name the prices: A/B@SYSTEM/SYSTEM
    a, b = result_pair(page, pair, line)
    if not a or not _comparable(page, a, b, kind, arg, flag, line):
        return ""
    # a CJK language brackets the note with full-width parentheses and no space before them
    note = say(page, "ref.cross_division")
    note = f"<small{SMALL}>（{note}）</small>" if page.language.cjk else f" <small{SMALL}>({note})</small>"
    label = note if a["division"] != b["division"] else ""
    if kind == "speedup":
        text = fmt.ratio(page.model.figures.speedup(a["id"], b["id"]), page.language)
    elif kind == "improvement":
        text = fmt.percent(page.model.figures.improvement(a["id"], b["id"]), page.language)
    elif kind == "reduction":
        text = fmt.percent(page.model.figures.reduction(a["id"], b["id"]), page.language)
    else:
        price_a, _, price_b = prices.partition("/")
        if not (price_a or a.get("system")) or not (price_b or b.get("system")):
            return page.fail(
                line,
                f"[[ppr:{arg}]]: a record result without a site system needs "
                "its price named (A/B@SYSTEM/SYSTEM)",
            )
        for ident in (p for p in (price_a, price_b) if p):
            if not table_record(page, "systems", ident, line):
                return ""
        value = page.model.figures.price_performance(a["id"], b["id"], price_a or None, price_b or None)
        if value is None:
            return page.fail(line, f"[[ppr:{arg}]]: both systems need a price")
        text = fmt.ratio(value, page.language)
    return f'<span class="derived">{escape(text)}</span>{label}'


def _system_value(page, arg, line, kind):
    ident, _, name = arg.partition("/")
    system = table_record(page, "systems", ident, line)
    if not system:
        return ""
    if kind == "count":
        return escape(fmt.number(system["accelerator_count"], page.language, 0))
    if kind == "price":
        price = page.site.first_price(ident)
        if not price:
            return page.fail(line, f"system '{ident}' has no price")
        return link(page, urls.system(page.lang, ident) + "#prices", fmt.usd(price["amount"], page.language))
    spec = page.site.spec(ident, name)
    if not spec:
        return page.fail(line, f"system '{ident}' has no specification '{name}'")
    return escape(fmt.quantity(spec["value"], spec["unit"], page.language))


def _named(page, arg, line, kind):
    table = {"system": "systems", "benchmark": "benchmarks"}[kind]
    record = table_record(page, table, arg, line)
    if not record:
        return ""
    target = urls.system(page.lang, arg) if kind == "system" else urls.benchmark(page.lang, arg)
    return link(page, target, record["name"][page.lang])


def _source(page, arg, line):
    source = table_record(page, "sources", arg, line)
    if not source:
        return ""
    # the publisher's name as it is written, marked as its language (a Simplified name stays so)
    label = source_name(source, page.language.lang)
    label = label if isinstance(label, Markup) else escape(label)
    if source.get("date"):
        label = say(
            page, "ref.cite_dated", publisher=label, date=escape(fmt.date(source["date"], page.language))
        )
    target = escape(page.link(urls.sources(page.lang) + "#" + urls.anchor("source", arg)))
    title = source_title(source, page.lang)[0]
    anchor = f'<a href="{target}" title="{escape(title)}">{label}</a>'
    return f'<cite class="cite">{say(page, "ref.cite", source=anchor)}</cite>'


def _runs(page, arg, line):
    result = page.model.record.get(arg) or page.model.system_results.get(arg)
    if result is None:
        return page.fail(line, f"unknown result '{arg}' in [[runs:...]]")
    return f'<span class="derived">{runs_text(page, result)}</span>'


def _rounds(page, arg, line):
    parsed = parse_rounds(arg)
    if not parsed:
        return page.fail(line, f"[[rounds:{arg}]]: write <submitter|all>[/<benchmark>][/after/<round>]")
    who, benchmark, after = parsed
    for one in (benchmark or "").split(",") if benchmark else ():
        if one not in page.site.tables["benchmarks"]:
            return page.fail(line, f"[[rounds:{arg}]]: unknown benchmark '{one}'")
    if who is not None and not page.site.has_submitter(who):
        return page.fail(line, f"[[rounds:{arg}]]: no submitter '{who}' in the record")
    if benchmark and "," in benchmark:  # several benchmarks: one sentence (statement_lists.py)
        if after is not None and after not in page.site.rounds:
            return page.fail(line, f"[[rounds:{arg}]]: no round '{after}' in the record")
        return rounds_by_benchmark(page, who, benchmark.split(","), after)
    found = rounds_of(page.site, who, benchmark, after)
    if found is None:
        return page.fail(line, f"[[rounds:{arg}]]: no round '{after}' in the record")
    name = company(page, who) if who else ""
    if not found:
        key = "ref.rounds_none_after" if after else "ref.rounds_none"
        text = escape(say(page, key, submitter=name, round=after or ""))
    else:
        links = [link(page, urls.round_page(page.lang, r), r) for r in found]
        listed = say(page, "ref.list_separator").join(links)
        key = "ref.rounds_of" if who else "ref.rounds_all"
        text = say(
            page, key, submitter=escape(name), rounds=listed, count=fmt.number(len(found), page.language, 0)
        )
    return f'<span class="derived record-ref">{text}</span>'


# How each kind of data reference is drawn; the kinds are content/references.py's
# REFERENCE_KINDS, the one list (load.py checks data text against it).
KINDS = {
    "result": _result,
    "claim": lambda page, arg, line: _claim(page, arg, line),
    "check": lambda page, arg, line: _claim(page, arg, line, recomputed=True),
    **{
        k: (lambda kind: lambda page, arg, line: _derived(page, arg, line, kind))(k)
        for k in ("speedup", "improvement", "reduction", "ppr")
    },
    **{
        k: (lambda kind: lambda page, arg, line: _system_value(page, arg, line, kind))(k)
        for k in ("price", "spec", "count")
    },
    **{
        k: (lambda kind: lambda page, arg, line: _named(page, arg, line, kind))(k)
        for k in ("system", "benchmark")
    },
    "source": _source,
    "fastest": fastest,
    "equal_scale": equal_scale,
    "runs": _runs,
    "rounds": _rounds,
    **{k: scale_refs.KINDS[k] for k in ("acc_minutes", "accelerators", "at_scale", "tally", "chips")},
}


def shortcode(kind: str, arg: str, page: Page, line: int) -> str:
    render = KINDS.get(kind)
    if render is None:
        return page.fail(
            line,
            f"unknown data reference [[{kind}:...]]"
            + (suggest(kind, KINDS) or " (see docs/content-format.md)"),
        )
    return render(page, arg, line)


def rich_text(text: str, page: Page) -> Markup:
    """Plain data text (a claim's note, say) with its [[...]] figures filled in; never markup."""
    return Markup(
        SHORTCODE.sub(lambda m: shortcode(m.group("kind"), m.group("arg"), page, 0), str(escape(text)))
    )
