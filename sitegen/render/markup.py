"""Report bodies: Markdown to safe HTML, with figures filled in from the data.

Order matters: data references are swapped for placeholders, the editor's Markdown is
converted and sanitised with nh3 (no <script>, no on...= handler, no javascript: URL), and only
then are the placeholders replaced by HTML the generator built itself."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field, replace
from html import escape
from html import unescape as html_unescape
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from sitegen.base import fmt, languages, urls
from sitegen.base.errors import Problem
from sitegen.content.readers import YamlProblem, load_yaml
from sitegen.content.references import SHORTCODE, parse_rounds, parse_slot, rounds_of
from sitegen.content.schema import bad_character, suggest
from sitegen.derive import figures as derive
from sitegen.derive import references as record_refs
from sitegen.derive.record_index import index_of
from sitegen.render import images

if TYPE_CHECKING:
    import markdown  # imported where first used (new_markdown)

BLOCK = re.compile(r"^```(?P<kind>results|chart)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
# A block or a reference, in one pass over the text, so that every line is the editor's own.
PIECE = re.compile(
    r"(?P<block>^```(?P<bkind>results|chart)[ \t]*\n(?P<body>.*?)^```[ \t]*$)"
    r"|\[\[(?P<kind>[a-z_]+):(?P<arg>[^\]\s]+)\]\]",
    re.M | re.S,
)
LOOKS_LIKE_REF = re.compile(r"\[\[\s*[a-z_]+\s*:")
EXTERNAL_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=", re.I)
IMG_SRC = re.compile(r'<img\b[^>]*?\bsrc="(?P<src>[^"]*)"')
CROSS_DIVISION = {"en": "across divisions", "zh": "跨组别比较"}
SMALL = ' class="cross-division"'

ALLOWED_TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "del",
    "div",
    "em",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "li",
    "ol",
    "p",
    "pre",
    "span",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "caption",
    "small",
    "mark",
    "q",
    "cite",
}
ALLOWED_ATTRS = {
    "*": {"id", "class", "title", "lang"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"align"},
    "th": {"align"},
    "ol": {"start"},
}


@dataclass
class Page:
    """What a shortcode needs to know about the page it lands on."""

    site: object
    lang: str
    path: str
    checks: dict
    file: str = ""
    first_line: int = 1
    problems: list = field(default_factory=list)
    files: dict = field(default_factory=dict)  # extra output files a block made (chart data, SVG)
    has_charts: bool = False
    cacheable: bool = True  # False when the body uses files outside the data (local images)

    def link(self, target: str) -> str:
        return urls.relative(self.path, target)

    def fail(self, line: int, message: str) -> str:
        self.problems.append(Problem(self.file, line, message))
        return ""

    def warn(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message, warning=True))


def new_markdown() -> markdown.Markdown:
    import markdown  # here, not with the module: a build with nothing to do needs no Markdown
    from markdown.extensions.toc import slugify_unicode

    return markdown.Markdown(
        extensions=["tables", "footnotes", "attr_list", "fenced_code", "sane_lists", "toc"],
        extension_configs={
            "toc": {"slugify": slugify_unicode, "permalink": False, "toc_depth": "2-3"},
            "footnotes": {"BACKLINK_TITLE": "↩ %d"},
        },
        output_format="html",
    )


def render_body(md: markdown.Markdown, text: str, page: Page, block_renderer) -> tuple[str, list]:
    """(safe HTML, table-of-contents tokens). Problems go to page.problems."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    marker = _marker(text)
    source = text

    def line_at(offset: int) -> int:  # an offset in the editor's own text
        return page.first_line + source.count("\n", 0, offset)

    def keep(html: str) -> str:
        parts.append(html)
        return f"{marker}{len(parts) - 1}{marker}"

    def piece(match):
        spans.append(match.span())
        line = line_at(match.start())
        if match.group("block"):
            params = _block_params(match, page, line)
            known = len(page.problems)
            html = "" if params is None else block_renderer(match.group("bkind"), params, page, line)
            _to_field_lines(page, known, params, line)
            return "\n\n" + keep(html) + "\n\n"
        return keep(shortcode(match.group("kind"), match.group("arg"), page, line))

    text = PIECE.sub(piece, text)
    _check_raw(source, spans, page, line_at)
    md.reset()
    try:
        if _too_many_brackets(source, page):
            return "", []
        converted = md.convert(text)
    except RecursionError:  # emphasis, quotes or lists nested thousands deep
        md.reset()
        page.fail(
            page.first_line,
            "the text nests too deeply for Markdown (emphasis, quotes or "
            "lists thousands of levels deep); simplify it",
        )
        return "", []
    import nh3

    html = nh3.clean(
        converted,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRS,
        url_schemes={"http", "https", "mailto"},
        link_rel=None,
    )
    html = IMG_SRC.sub(lambda m: _image(m, page, source, line_at), html)
    # the editor's own tables scroll on a phone instead of widening the page
    html = html.replace("<table>", '<div class="table-wrap" tabindex="0"><table>').replace(
        "</table>", "</table></div>"
    )
    return _stackable(_fill(html, marker, parts)), md.toc_tokens


TABLE = re.compile(r"<table>(?P<inner>.*?)</table>", re.S)
HEAD_CELL = re.compile(r"<th\b[^>]*>(?P<text>.*?)</th>", re.S)
BODY_ROW = re.compile(r"<tr>(?P<cells>.*?)</tr>", re.S)
BODY_CELL = re.compile(r"<td\b")
TAG = re.compile(r"<[^>]+>")


def _stackable(html: str) -> str:
    """The editor's tables become stacked rows on a phone (style.css, table.stack): each body
    cell carries its column's name in data-label, shown before it when the header row is
    hidden. On a wider screen, in print and without CSS the table is the same."""

    def stack(match):
        inner = match.group("inner")
        head, sep, body = inner.partition("</thead>")
        if not sep:
            return match.group(0)
        labels = [
            escape(html_unescape(TAG.sub("", m.group("text"))).strip(), quote=True)
            for m in HEAD_CELL.finditer(head)
        ]

        def row(rmatch):
            cells = iter(labels)
            return BODY_CELL.sub(lambda c: f'<td data-label="{next(cells, "")}"', rmatch.group(0))

        return f'<table class="stack">{head}</thead>{BODY_ROW.sub(row, body)}</table>'

    return TABLE.sub(stack, html)


MAX_BRACKETS = 200  # '[' on one line: Python-Markdown's link patterns slow down steeply past it


def _too_many_brackets(text: str, page: Page) -> bool:
    """Refuse a line whose brackets would keep Markdown busy for minutes (2,000 nested '['
    take about 6 s, 20,000 far longer); no real sentence has so many. Data references do
    not count: they are gone before Markdown sees the text."""
    if text.count("[") <= MAX_BRACKETS:
        return False
    for number, line in enumerate(text.split("\n")):
        count = line.count("[") - 2 * len(SHORTCODE.findall(line))
        if count > MAX_BRACKETS:
            page.fail(
                page.first_line + number,
                f"{count} '[' on one line (at most {MAX_BRACKETS}); Markdown would take minutes over them",
            )
            return True
    return False


def _marker(text: str) -> str:
    """A placeholder mark that occurs nowhere in the text, even with its entities decoded
    (nh3 decodes them): the editor can quote any string, the generator's own included."""
    decoded = html_unescape(text)
    n = 0
    while f"zq{n}x" in text or f"zq{n}x" in decoded:
        n += 1
    return f"zq{n}x"


def _fill(html: str, marker: str, parts: list[str]) -> str:
    """Swap each placeholder for its HTML; a block's paragraph goes with it."""
    token = re.compile(f"(?:<p>)?{marker}(\\d+){marker}(?:</p>)?")

    def swap(match):
        n = int(match.group(1))
        if n >= len(parts):  # cannot happen: the mark is not in the editor's text
            return match.group(0)
        whole = match.group(0)
        if whole.startswith("<p>") and whole.endswith("</p>"):
            return parts[n]
        return whole[:3] * whole.startswith("<p>") + parts[n] + whole[-4:] * whole.endswith("</p>")

    return token.sub(swap, html)


def _check_raw(text: str, spans: list[tuple[int, int]], page: Page, line_at) -> None:
    """A reference that is not closed or not well formed, and external scripts, are errors."""
    starts = {start for start, _ in spans}
    for match in LOOKS_LIKE_REF.finditer(text):
        if match.start() in starts or any(a <= match.start() < b for a, b in spans):
            continue
        snippet = text[match.start() : match.start() + 40].split("\n")[0]
        page.fail(
            line_at(match.start()),
            f"unclosed or malformed data reference '{snippet}': "
            "write [[kind:id]], closed with ']]', without spaces",
        )
    for match in EXTERNAL_SCRIPT.finditer(text):
        page.fail(
            line_at(match.start()),
            "a script from elsewhere is not allowed in a report; the site loads nothing from outside",
        )


def _image(match, page: Page, source: str, line_at) -> str:
    """An image must be a file under content/: copied beside the site, linked relatively."""
    src = html_unescape(match.group("src"))
    at = source.find(src)
    line = line_at(at) if at >= 0 else page.first_line
    if re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", src, re.I):
        page.fail(
            line,
            f"external image '{src}': the site loads nothing from outside; save the "
            "image under content/ and link it relatively",
        )
        return match.group(0)
    if posixpath.normpath(posixpath.join(posixpath.dirname(page.path), src)).startswith(urls.ASSETS + "/"):
        return match.group(0)  # one of the site's own files (its logo, say)
    root = Path(page.site.root).resolve()
    path = ((root.parent / page.file).parent / src.split("#")[0].split("?")[0]).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        where = "is outside content/" if not path.is_relative_to(root) else "does not exist"
        page.fail(line, f"image '{src}' {where}; save it under content/ and link it relatively")
        return match.group(0)
    try:
        data = images.publishable(path)
    except images.NotPublishable as exc:
        page.fail(line, f"image '{src}' {exc}")
        return match.group(0)
    target = "media/" + path.relative_to(root).as_posix()
    page.files[target] = data
    page.cacheable = False
    return match.group(0).replace(match.group("src"), escape(page.link(target)))


def _to_field_lines(page: Page, start: int, params, line: int) -> None:
    """A block's problems that name one of its fields ("unknown system 'x'" names `systems`)
    move from the block's first line to that field's own line."""
    lines = getattr(params, "lines", None) or {}
    for n in range(start, len(page.problems)):
        problem = page.problems[n]
        message = problem.message.split(": ", 1)[-1]
        quoted = re.search(r"'([^']*)'", message)
        named = [quoted.group(1)] if message.startswith("unknown field") and quoted else []
        named += re.findall(r"[a-z_]+", re.split(r"['(;]", message, maxsplit=1)[0])
        key = next((k for word in named for k in (word, word + "s") if k in lines), None)
        if problem.line == line and key:
            page.problems[n] = replace(problem, line=lines[key])


def _block_params(match, page: Page, line: int) -> dict | None:
    """The block's fields, or None after saying why not (the block is then not drawn)."""
    kind = match.group("bkind")
    try:
        params = load_yaml(match.group("body"), first_line=line + 1, with_line=False)
    except YamlProblem as exc:
        page.fail(exc.line or line, f"{kind} block: {exc.message}")
        return None
    if not isinstance(params, dict):
        page.fail(line, f"{kind} block must hold 'field: value' lines")
        return None
    lines = getattr(params, "lines", None) or {}
    bad = [
        (lines.get(key, line), f"{kind} block: '{key}': {why}")
        for key, value in params.items()
        for why in _bad_texts(value)
    ]
    for at, message in bad[:1]:  # one is enough: the block is not drawn
        page.fail(at, message)
    return None if bad else params


def _bad_texts(value) -> list[str]:
    """Why a block's value (text, or a list or mapping of them) cannot reach a page or a chart:
    the check every data field gets (schema.bad_character)."""
    if isinstance(value, str):
        return [why] if (why := bad_character(value)) else []
    if isinstance(value, dict):
        return [why for key, item in value.items() for why in _bad_texts(str(key)) + _bad_texts(item)]
    if isinstance(value, list):
        return [why for item in value for why in _bad_texts(item)]
    return []


def _record(page: Page, table: str, ident: str, line: int) -> dict | None:
    record = page.site.tables.get(table, {}).get(ident)
    if record is None:
        page.fail(
            line,
            f"unknown {table[:-1]} '{ident}' in [[...]]" + suggest(ident, page.site.tables.get(table, {})),
        )
    return record


def _any_result(page: Page, ident: str, line: int) -> dict | None:
    """A curated result, or else any scored result of the whole record."""
    found = page.site.tables["results"].get(ident) or page.site.record.get(ident)
    if found is not None and found.get("value") is None:
        page.fail(line, f"result '{ident}' has its logs missing: it has no official time to show in [[...]]")
        return None
    if found is None:
        page.fail(line, f"unknown result '{ident}' in [[...]]" + suggest(ident, page.site.tables["results"]))
        return None
    return found


def _pair(page: Page, arg: str, line: int):
    left, _, right = arg.partition("/")
    a, b = _any_result(page, left, line), _any_result(page, right, line)
    return (a, b) if a and b else (None, None)


def _link(page: Page, target: str, text: str, title: str = "") -> str:
    title_attr = f' title="{escape(title)}"' if title else ""
    return f'<a href="{escape(page.link(target))}"{title_attr}>{escape(text)}</a>'


def _result(page, arg, line):
    result = _any_result(page, arg, line)
    if not result:
        return ""
    value = fmt.duration(result["value"], result["unit"], page.lang)
    if arg not in page.site.tables["results"]:  # a record result without a site system
        return _link(page, urls.result(page.lang, arg), value)
    target = urls.system(page.lang, result["system"]) + "#" + urls.anchor("result", arg)
    return _link(page, target, value)


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
    claim = _record(page, "claims", arg, line)
    if not claim:
        return ""
    if recomputed:
        value = page.checks[arg].value
        if value is None:
            return page.fail(line, f"claim '{arg}' cannot be checked, so [[check:...]] has no value")
    else:
        value = claim["figure"]
    stated = not recomputed or option == "as_stated"
    text = fmt.quantity(value, claim["unit"], page.lang, fmt.decimals_of(claim["figure"]) if stated else None)
    return _link(page, urls.claims(page.lang) + "#" + urls.anchor("claim", arg), text)


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
    a, b = _pair(page, pair, line)
    if not a or not _comparable(page, a, b, kind, arg, flag, line):
        return ""
    # a CJK language brackets the note with full-width parentheses and no space before them
    note = languages.pick(CROSS_DIVISION, page.lang)
    note = (
        f"<small{SMALL}>（{note}）</small>"
        if languages.get(page.lang).cjk
        else f" <small{SMALL}>({note})</small>"
    )
    label = note if a["division"] != b["division"] else ""
    if kind == "speedup":
        text = fmt.ratio(derive.speedup(page.site, a["id"], b["id"]), page.lang)
    elif kind == "improvement":
        text = fmt.percent(derive.improvement(page.site, a["id"], b["id"]), page.lang)
    elif kind == "reduction":
        text = fmt.percent(derive.reduction(page.site, a["id"], b["id"]), page.lang)
    else:
        price_a, _, price_b = prices.partition("/")
        if not (price_a or a.get("system")) or not (price_b or b.get("system")):
            return page.fail(
                line,
                f"[[ppr:{arg}]]: a record result without a site system needs "
                "its price named (A/B@SYSTEM/SYSTEM)",
            )
        for ident in (p for p in (price_a, price_b) if p):
            if not _record(page, "systems", ident, line):
                return ""
        value = derive.price_performance(page.site, a["id"], b["id"], price_a or None, price_b or None)
        if value is None:
            return page.fail(line, f"[[ppr:{arg}]]: both systems need a price")
        text = fmt.ratio(value, page.lang)
    return f'<span class="derived">{escape(text)}</span>{label}'


def _system_value(page, arg, line, kind):
    ident, _, name = arg.partition("/")
    system = _record(page, "systems", ident, line)
    if not system:
        return ""
    if kind == "count":
        return escape(fmt.number(system["accelerator_count"], page.lang, 0))
    if kind == "price":
        price = page.site.first_price(ident)
        if not price:
            return page.fail(line, f"system '{ident}' has no price")
        return _link(page, urls.system(page.lang, ident) + "#prices", fmt.usd(price["amount"], page.lang))
    spec = page.site.spec(ident, name)
    if not spec:
        return page.fail(line, f"system '{ident}' has no specification '{name}'")
    return escape(fmt.quantity(spec["value"], spec["unit"], page.lang))


def _named(page, arg, line, kind):
    table = {"system": "systems", "benchmark": "benchmarks"}[kind]
    record = _record(page, table, arg, line)
    if not record:
        return ""
    target = urls.system(page.lang, arg) if kind == "system" else urls.benchmark(page.lang, arg)
    return _link(page, target, record["name"][page.lang])


def _source(page, arg, line):
    source = _record(page, "sources", arg, line)
    if not source:
        return ""
    label = source["publisher"]
    if source.get("date"):
        label += ", " + fmt.date(source["date"], page.lang)
    target = urls.sources(page.lang) + "#" + urls.anchor("source", arg)
    return f'<cite class="cite">[{_link(page, target, label, source["title"])}]</cite>'


def _strings(page):
    return page.site.strings[page.lang]


def _say(page, key: str, **values) -> str:
    return _strings(page)[key].format(**values)


def _record_result(page, result: dict, with_scale: bool = True) -> str:
    """A record result as a reader checks it: its time linked to its page, who ran it, on how
    many of which accelerator, and its runs."""
    time = _link(
        page, urls.result(page.lang, result["id"]), fmt.duration(result["value"], result["unit"], page.lang)
    )
    details = [escape(result["submitter"]), escape(result["system_name"])]
    if with_scale:
        details.append(escape(_scale_text(page, result)))
    if result.get("category") and result["category"] != "available":  # preview, research
        details.append(
            escape(_say(page, "ref.category", category=_say(page, "category." + result["category"]).lower()))
        )
    index = index_of(page.site)
    earlier, copied = index.carried_from(result), index.copy_of(result)
    if earlier is not None:  # the same runs as an earlier round's result (carryover.py)
        details.append(
            _say(
                page,
                "ref.carried",
                round=_link(page, urls.result(page.lang, earlier["id"]), earlier["round"]),
            )
        )
    if copied is not None:  # the same runs in another folder of its round
        details.append(
            _say(
                page,
                "ref.copy",
                result=_link(page, urls.result(page.lang, copied["id"]), copied["system_name"]),
            )
        )
    details.append(_runs_text(page, result))
    return _say(page, "ref.result", time=time, details=_say(page, "ref.separator").join(details))


def _scale_text(page, result: dict) -> str:
    """'3,456 × TPU', or CPUs only."""
    count = result["accelerator_count"] or 0
    if count and result["accelerator_model"]:
        return _say(
            page, "ref.scale", count=fmt.number(count, page.lang, 0), accelerator=result["accelerator_model"]
        )
    return _say(page, "ref.cpu_only")


def _runs_text(page, result: dict) -> str:
    counted = record_refs.runs_of(result)
    if counted is None:
        return escape(_say(page, "ref.logs_missing"))
    runs, failed = counted
    key = "ref.runs_failed" if failed else "ref.runs_none_failed"
    return escape(
        _say(page, key, runs=fmt.number(runs, page.lang, 0), failed=fmt.number(failed, page.lang, 0))
    )


def _unscored_text(page, results: list[dict]) -> str:
    """The results a statement over scored results leaves out, each linked: their logs are
    missing from the snapshot read, so they have no time."""
    if not results:
        return ""
    links = []
    for result in sorted(results, key=lambda r: (-(r["accelerator_count"] or 0), r["id"])):
        links.append(
            _link(
                page,
                urls.result(page.lang, result["id"]),
                _say(
                    page, "ref.unscored_item", submitter=result["submitter"], scale=_scale_text(page, result)
                ),
            )
        )
    return _say(page, "ref.unscored", results=_say(page, "ref.list_separator").join(links))


def _slot_text(page, round_id: str, benchmark: str, division: str) -> str:
    name = page.site.tables["benchmarks"].get(benchmark, {}).get("name", {}).get(page.lang, benchmark)
    return _say(
        page,
        "ref.slot",
        round=round_id,
        benchmark=name,
        division=_strings(page)["division." + division].lower(),
    )


def _fastest(page, arg, line):
    parsed = parse_slot(arg)
    if not parsed:
        return page.fail(line, f"[[fastest:{arg}]]: write <round>/<benchmark>/<closed|open>[/<submitter>]")
    found = record_refs.fastest(page.site, *parsed)
    if found is None:
        where = f" of submitter '{parsed[3]}'" if parsed[3] else ""
        return page.fail(line, f"[[fastest:{arg}]]: the record has no scored result{where} there")
    missing = _unscored_text(page, record_refs.unscored(page.site, *parsed))
    level = _level_text(page, parsed[1], record_refs.level_with_fastest(page.site, *parsed))
    return f'<span class="derived record-ref">{_record_result(page, found)}{level}{missing}</span>'


def _level_text(page, benchmark: str, level: list[dict]) -> str:
    """After a "fastest": the results within the benchmark's noise band of it, each linked, so
    that the statement claims no clear lead (derived.level_with_first)."""
    if not level:
        return ""
    band = fmt.number(record_refs.band_of(page.site, benchmark) * 100, page.lang, 1)
    listed = _say(page, "ref.list_separator").join(_record_result(page, r) for r in level)
    return _say(page, "ref.level_with", band=band, results=listed)


def _equal_scale(page, arg, line):
    ident, _, who = arg.partition("/")
    result = page.site.record.get(ident)
    if result is None or not who:
        return page.fail(
            line,
            f"[[equal_scale:{arg}]]: write <record result id>/<submitter|all> "
            f"naming a result of content/data/record/",
        )
    if who == "all":
        return _equal_scale_others(page, result)
    if not page.site.has_submitter(who):
        return page.fail(line, f"[[equal_scale:{arg}]]: no submitter '{who}' in the record")
    found = record_refs.equal_scale(page.site, result, who)
    missing = _unscored_at_scale(page, result, lambda r: r["id"] != result["id"], who)
    if found is None and missing:
        text = _say(
            page,
            "ref.equal_scale_unscored",
            submitter=escape(who.replace("_", " ")),
            count=fmt.number(result["accelerator_count"] or 0, page.lang, 0),
            slot=escape(_slot_text(page, result["round"], result["benchmark"], result["division"])),
        )
        return f'<span class="derived record-ref">{text}{missing}</span>'
    if found is None:
        count = fmt.number(result["accelerator_count"] or 0, page.lang, 0)
        text = _say(
            page,
            "ref.no_equal_scale",
            submitter=who.replace("_", " "),
            count=count,
            slot=_slot_text(page, result["round"], result["benchmark"], result["division"]),
        )
        return f'<span class="derived record-ref">{escape(text)}</span>'
    return f'<span class="derived record-ref">{_record_result(page, found)}{missing}</span>'


def _unscored_at_scale(page, result: dict, keep, who: str | None = None) -> str:
    """The note on results without a time at `result`'s round, benchmark, division and scale
    (of `who` when given) that `keep` accepts: an equal-scale statement must name them."""
    found = record_refs.unscored(
        page.site,
        result["round"],
        result["benchmark"],
        result["division"],
        who,
        result["accelerator_count"],
    )
    return _unscored_text(page, [r for r in found if keep(r)])


def _equal_scale_others(page, result: dict) -> str:
    """Every other submitter's fastest result at `result`'s scale, or the record's "none"."""
    found = record_refs.equal_scale_others(page.site, result)
    missing = _unscored_at_scale(
        page, result, lambda r: r["submitter"].lower() != result["submitter"].lower()
    )
    slot = _slot_text(page, result["round"], result["benchmark"], result["division"])
    count = fmt.number(result["accelerator_count"] or 0, page.lang, 0)
    if not found:
        text = escape(
            _say(page, "ref.no_equal_scale_others", submitter=result["submitter"], count=count, slot=slot)
        )
        return f'<span class="derived record-ref">{text}{missing}</span>'
    listed = _say(page, "ref.list_separator").join(_record_result(page, r) for r in found)
    text = _say(page, "ref.equal_scale_others", count=count, slot=escape(slot), results=listed)
    return f'<span class="derived record-ref">{text}{missing}</span>'


def _runs(page, arg, line):
    result = page.site.record.get(arg) or page.site.tables["results"].get(arg)
    if result is None:
        return page.fail(line, f"unknown result '{arg}' in [[runs:...]]")
    return f'<span class="derived">{_runs_text(page, result)}</span>'


def _rounds(page, arg, line):
    parsed = parse_rounds(arg)
    if not parsed:
        return page.fail(line, f"[[rounds:{arg}]]: write <submitter|all>[/<benchmark>][/after/<round>]")
    who, benchmark, after = parsed
    if benchmark is not None and benchmark not in page.site.tables["benchmarks"]:
        return page.fail(line, f"[[rounds:{arg}]]: unknown benchmark '{benchmark}'")
    if who is not None and not page.site.has_submitter(who):
        return page.fail(line, f"[[rounds:{arg}]]: no submitter '{who}' in the record")
    found = rounds_of(page.site, who, benchmark, after)
    if found is None:
        return page.fail(line, f"[[rounds:{arg}]]: no round '{after}' in the record")
    name = who.replace("_", " ") if who else ""
    if not found:
        key = "ref.rounds_none_after" if after else "ref.rounds_none"
        text = escape(_say(page, key, submitter=name, round=after or ""))
    else:
        links = [_link(page, urls.round_page(page.lang, r), r) for r in found]
        listed = _say(page, "ref.list_separator").join(links)
        key = "ref.rounds_of" if who else ("ref.rounds_all" if len(found) > 1 else "ref.rounds_all_one")
        text = _say(
            page, key, submitter=escape(name), rounds=listed, count=fmt.number(len(found), page.lang, 0)
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
    "fastest": _fastest,
    "equal_scale": _equal_scale,
    "runs": _runs,
    "rounds": _rounds,
    **{
        k: (lambda kind: lambda page, arg, line: _scale_refs().KINDS[kind](page, arg, line))(k)
        for k in ("acc_minutes", "accelerators", "at_scale", "tally", "chips")
    },
}


def _scale_refs():
    """render/scale_refs.py, which draws the derived-figure kinds with this module's helpers
    (imported when first drawn: it imports this module)."""
    from sitegen.render import scale_refs

    return scale_refs


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
