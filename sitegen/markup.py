"""Report bodies: Markdown to safe HTML, with figures filled in from the data.

Order matters: data references are swapped for placeholders, the editor's Markdown is
converted and sanitised with nh3 (no <script>, no on...= handler, no javascript: URL), and only
then are the placeholders replaced by HTML the generator built itself."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from markupsafe import Markup

import markdown
import nh3
import yaml
from markdown.extensions.toc import slugify_unicode

from . import derive, fmt, urls
from .errors import Problem
from .readers import SAFE_LOADER

SHORTCODE = re.compile(r"\[\[(?P<kind>[a-z]+):(?P<arg>[^\]\s]+)\]\]")
BLOCK = re.compile(r"^```(?P<kind>results|chart)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
TOKEN = re.compile(r"zzq(?P<n>\d+)qzz")
BLOCK_TOKEN = re.compile(r"<p>zzq(?P<n>\d+)qzz</p>")

ALLOWED_TAGS = {"a", "abbr", "b", "blockquote", "br", "code", "del", "div", "em", "h2", "h3",
                "h4", "h5", "h6", "hr", "i", "img", "li", "ol", "p", "pre", "span", "strong",
                "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul", "dl", "dt", "dd",
                "figure", "figcaption", "caption", "small", "mark", "q", "cite"}
ALLOWED_ATTRS = {"*": {"id", "class", "title", "lang"}, "a": {"href"},
                 "img": {"src", "alt", "width", "height"}, "td": {"align"}, "th": {"align"},
                 "ol": {"start"}}


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
    files: dict = field(default_factory=dict)   # extra output files a block made (chart data, SVG)
    has_charts: bool = False

    def link(self, target: str) -> str:
        return urls.relative(self.path, target)

    def fail(self, line: int, message: str) -> str:
        self.problems.append(Problem(self.file, line, message))
        return ""


def new_markdown() -> markdown.Markdown:
    return markdown.Markdown(
        extensions=["tables", "footnotes", "attr_list", "fenced_code", "sane_lists", "toc"],
        extension_configs={"toc": {"slugify": slugify_unicode, "permalink": False,
                                   "toc_depth": "2-3"},
                           "footnotes": {"BACKLINK_TITLE": "↩ %d"}},
        output_format="html")


def render_body(md: markdown.Markdown, text: str, page: Page, block_renderer) -> tuple[str, list]:
    """(safe HTML, table-of-contents tokens). Problems go to page.problems."""
    parts: list[str] = []

    def line_at(offset: int) -> int:
        return page.first_line + text.count("\n", 0, offset)

    def keep(html: str) -> str:
        parts.append(html)
        return f"zzq{len(parts) - 1}qzz"

    def block(match):
        html = block_renderer(match.group("kind"), _block_params(match, page, line_at), page,
                              line_at(match.start()))
        return "\n\n" + keep(html) + "\n\n"

    def inline(match):
        return keep(shortcode(match.group("kind"), match.group("arg"), page, line_at(match.start())))

    text = BLOCK.sub(block, text)
    text = SHORTCODE.sub(inline, text)
    md.reset()
    html = nh3.clean(md.convert(text), tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRS,
                     url_schemes={"http", "https", "mailto"}, link_rel=None)
    # the editor's own tables scroll on a phone instead of widening the page
    html = html.replace("<table>", '<div class="table-wrap" tabindex="0"><table>').replace(
        "</table>", "</table></div>")
    html = BLOCK_TOKEN.sub(lambda m: parts[int(m.group("n"))], html)
    html = TOKEN.sub(lambda m: parts[int(m.group("n"))], html)
    return html, md.toc_tokens


def _block_params(match, page: Page, line_at) -> dict:
    line = line_at(match.start())
    try:
        params = yaml.load(match.group("body"), Loader=SAFE_LOADER)  # noqa: S506 - safe
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        page.fail(line + 1 + (mark.line if mark else 0), f"{match.group('kind')} block: YAML error")
        return {}
    if not isinstance(params, dict):
        page.fail(line, f"{match.group('kind')} block must hold 'field: value' lines")
        return {}
    return params


def _record(page: Page, table: str, ident: str, line: int) -> dict | None:
    record = page.site.tables.get(table, {}).get(ident)
    if record is None:
        page.fail(line, f"unknown {table[:-1]} '{ident}' in [[...]]")
    return record


def _pair(page: Page, arg: str, line: int):
    left, _, right = arg.partition("/")
    a, b = _record(page, "results", left, line), _record(page, "results", right, line)
    return (a, b) if a and b else (None, None)


def _link(page: Page, target: str, text: str, title: str = "") -> str:
    title_attr = f' title="{escape(title)}"' if title else ""
    return f'<a href="{escape(page.link(target))}"{title_attr}>{escape(text)}</a>'


def _result(page, arg, line):
    result = _record(page, "results", arg, line)
    if not result:
        return ""
    value = fmt.duration(result["value"], result["unit"], page.lang)
    target = urls.system(page.lang, result["system"]) + "#" + urls.anchor("result", arg)
    return _link(page, target, value)


def _claim(page, arg, line, recomputed=False):
    claim = _record(page, "claims", arg, line)
    if not claim:
        return ""
    if recomputed:
        value = page.checks[arg].value
        if value is None:
            return page.fail(line, f"claim '{arg}' cannot be checked, so [[check:...]] has no value")
    else:
        value = claim["figure"]
    digits = max(fmt.decimals_of(claim["figure"]), 1 if recomputed else 0)
    text = fmt.quantity(value, claim["unit"], page.lang, digits)
    return _link(page, urls.claims(page.lang) + "#" + urls.anchor("claim", arg), text)


def _derived(page, arg, line, kind):
    pair, _, prices = arg.partition("@")   # ppr may name the prices: A/B@SYSTEM/SYSTEM
    a, b = _pair(page, pair, line)
    if not a:
        return ""
    if kind == "speedup":
        text = fmt.ratio(derive.speedup(page.site, a["id"], b["id"]), page.lang)
    elif kind == "improvement":
        text = fmt.percent(derive.improvement(page.site, a["id"], b["id"]), page.lang)
    elif kind == "reduction":
        text = fmt.percent(derive.reduction(page.site, a["id"], b["id"]), page.lang)
    else:
        price_a, _, price_b = prices.partition("/")
        for ident in (p for p in (price_a, price_b) if p):
            if not _record(page, "systems", ident, line):
                return ""
        value = derive.price_performance(page.site, a["id"], b["id"], price_a or None, price_b or None)
        if value is None:
            return page.fail(line, f"[[ppr:{arg}]]: both systems need a price")
        text = fmt.ratio(value, page.lang)
    return f'<span class="derived">{escape(text)}</span>'


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


def shortcode(kind: str, arg: str, page: Page, line: int) -> str:
    if kind == "result":
        return _result(page, arg, line)
    if kind in ("claim", "check"):
        return _claim(page, arg, line, recomputed=kind == "check")
    if kind in ("speedup", "improvement", "reduction", "ppr"):
        return _derived(page, arg, line, kind)
    if kind in ("price", "spec", "count"):
        return _system_value(page, arg, line, kind)
    if kind in ("system", "benchmark"):
        return _named(page, arg, line, kind)
    if kind == "source":
        return _source(page, arg, line)
    return page.fail(line, f"unknown data reference [[{kind}:...]] (see docs/content-format.md)")


def rich_text(text: str, page: Page) -> Markup:
    """Plain data text (a claim's note, say) with its [[...]] figures filled in; never markup."""
    return Markup(SHORTCODE.sub(lambda m: shortcode(m.group("kind"), m.group("arg"), page, 0),
                                str(escape(text))))
