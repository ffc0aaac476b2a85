"""Report bodies: Markdown to safe HTML, with figures filled in from the data.

Order matters: data references are swapped for placeholders, the editor's Markdown is
converted and sanitised with nh3 (no <script>, no on...= handler, no javascript: URL), and only
then are the placeholders replaced by HTML the generator built itself."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from functools import partial
from html import escape
from html import unescape as html_unescape
from pathlib import Path
from typing import TYPE_CHECKING

import nh3

from sitegen.base import urls
from sitegen.content.field_types import bad_character
from sitegen.content.readers import YamlProblem, load_yaml
from sitegen.content.references import SHORTCODE
from sitegen.render import images
from sitegen.render.drawn import drawn
from sitegen.render.page import Page

if TYPE_CHECKING:
    import markdown

BLOCK = re.compile(r"^```(?P<kind>results|chart)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
# [[equal_scale:…]] references one after another, joined only by punctuation or "and" (each
# maybe with its round in brackets): one statement (statement_lists.py), as a writer merges them.
_ONE = r"\[\[equal_scale:[^\]\s]+\]\](?:[ \t]*[(（]v\d[\d.]*[)）])?"
_JOIN = r"\s*(?:[;,；，、]|\band\b|\bor\b|和|与|與|及|或)\s*"
RUN = f"(?P<run>{_ONE}(?:{_JOIN}{_ONE})+)"
# A block, a run of references or a reference, in one pass over the text, so that every line is
# the editor's own.
PIECE = re.compile(
    r"(?P<block>^```(?P<bkind>results|chart)[ \t]*\n(?P<body>.*?)^```[ \t]*$)"
    + f"|{RUN}"
    + r"|\[\[(?P<kind>[a-z_]+):(?P<arg>[^\]\s]+)\]\]",
    re.M | re.S,
)
PARAGRAPH_BREAK = re.compile(
    r"\n[ \t]*\n|\n[ \t]*(?:[-*+]|\d+\.|\|)[ \t]"
)  # a blank line, a list item, a table row
LOOKS_LIKE_REF = re.compile(r"\[\[\s*[a-z_]+\s*:")
EXTERNAL_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=", re.I)
IMG_SRC = re.compile(r'<img\b[^>]*?\bsrc="(?P<src>[^"]*)"')

ALLOWED_TAGS = set(
    "a abbr b blockquote br code del div em h2 h3 h4 h5 h6 hr i img li ol p pre span strong sub sup "
    "table tbody td th thead tr ul dl dt dd figure figcaption caption small mark q cite".split()
)
ALLOWED_ATTRS = {
    "*": {"id", "class", "title", "lang"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"align"},
    "th": {"align"},
    "ol": {"start"},
}


def new_markdown() -> markdown.Markdown:
    """The Markdown converter of report bodies. Its extensions are given as objects: by name,
    Markdown looks them up among every installed package's entry points (0.04 s in each
    language process that renders a body). Markdown is imported here: 0.03 s, which a rebuild
    whose texts are all converted already (a result edit) needs not pay."""
    import markdown
    from markdown.extensions import attr_list, fenced_code, footnotes, sane_lists, tables, toc

    return markdown.Markdown(
        extensions=[
            tables.TableExtension(),
            footnotes.FootnoteExtension(BACKLINK_TITLE="↩ %d"),
            attr_list.AttrListExtension(),
            fenced_code.FencedCodeExtension(),
            sane_lists.SaneListExtension(),
            toc.TocExtension(slugify=toc.slugify_unicode, permalink=False, toc_depth="2-3"),
        ],
        output_format="html",
    )


def render_body(
    md: Callable[[], markdown.Markdown], text: str, page: Page, block_renderer, kept=None
) -> tuple[str, list]:
    """(safe HTML, table-of-contents tokens). Problems go to page.problems. `md()`: the Markdown
    converter, asked for only when the text's conversion is not kept (making one compiles its
    extensions' patterns); `kept`: where conversions are kept (cache.BodyCache), or None."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    marker = _marker(text)
    draw = partial(drawn, kept.drawn if kept is not None else None)
    if kept is not None:  # with what this page drew from the same data before (drawn.py)
        kept.drawn.update(kept.drawings(page.path))
        kept.drawn.used.clear()
    source = text

    def line_at(offset: int) -> int:  # an offset in the editor's own text
        return page.first_line + source.count("\n", 0, offset)

    def keep(html: str) -> str:
        parts.append(html)
        return f"{marker}{len(parts) - 1}{marker}"

    def piece(match):
        if PARAGRAPH_BREAK.search(source, spans[-1][1] if spans else 0, match.start()):
            page.said.clear()  # an aside said once per paragraph (record_statements.py)
        spans.append(match.span())
        line = line_at(match.start())
        if match.group("block"):
            params = _block_params(match, page, line)
            known = len(page.problems)
            html = "" if params is None else block_renderer(match.group("bkind"), params, page, line)
            _to_field_lines(page, known, params, line)
            return "\n\n" + keep(html) + "\n\n"
        if match.group("run"):
            return _run(match.group("run"), match.start(), page, keep, line_at, draw)
        return keep(draw(match.group("kind"), match.group("arg"), page, line))

    text = PIECE.sub(piece, text)
    if kept is not None:
        kept.keep_drawings(page.path, kept.drawn.of_page())
    _check_raw(source, spans, page, line_at)
    if _too_many_brackets(source, page):
        return "", []
    converted = _converted(md, text, page, kept)
    if converted is None:
        return "", []
    html, toc = converted
    html = IMG_SRC.sub(lambda m: _image(m, page, source, line_at), html)
    # the editor's own tables scroll on a phone instead of widening the page
    html = html.replace("<table>", '<div class="table-wrap" tabindex="0"><table>').replace(
        "</table>", "</table></div>"
    )
    return _stackable(_fill(html, marker, parts)), toc


def _converted(md: Callable[[], markdown.Markdown], text: str, page: Page, kept) -> tuple[str, list] | None:
    """(sanitised HTML, table-of-contents tokens) of `text`, whose figures are placeholders: it
    depends on the text alone, so `kept` keeps it between builds (a damaged entry is a miss);
    None after saying why the text cannot be converted."""
    key = kept.conversion_key(text) if kept is not None else ""
    found = kept.conversion(key) if kept is not None else None
    if (
        isinstance(found, tuple)
        and len(found) == 2
        and isinstance(found[0], str)
        and isinstance(found[1], list)
    ):
        return found
    converter = md()
    converter.reset()
    try:
        converted = converter.convert(text)
    except RecursionError:  # emphasis, quotes or lists nested thousands deep
        converter.reset()
        page.fail(
            page.first_line,
            "the text nests too deeply for Markdown (emphasis, quotes or "
            "lists thousands of levels deep); simplify it",
        )
        return None
    html = nh3.clean(
        converted,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRS,
        url_schemes={"http", "https", "mailto"},
        link_rel=None,
    )
    if kept is not None:
        kept.keep_conversion(key, (html, converter.toc_tokens))
    return html, converter.toc_tokens


def _run(text: str, start: int, page: Page, keep, line_at, draw) -> str:
    """Adjacent [[equal_scale:…]] references: one statement when they ask about one submitter
    (or all), else each drawn where it stands."""
    refs = list(SHORTCODE.finditer(text))
    whos = {m.group("arg").partition("/")[2] for m in refs}
    if len(whos) == 1:
        idents = ",".join(m.group("arg").partition("/")[0] for m in refs)
        return keep(draw("equal_scale", f"{idents}/{whos.pop()}", page, line_at(start)))
    return SHORTCODE.sub(
        lambda m: keep(draw(m.group("kind"), m.group("arg"), page, line_at(start + m.start()))), text
    )


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
            page.problems[n] = problem._replace(line=lines[key])


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
    the check every data field gets (field_types.bad_character)."""
    if isinstance(value, str):
        return [why] if (why := bad_character(value)) else []
    if isinstance(value, dict):
        return [why for key, item in value.items() for why in _bad_texts(str(key)) + _bad_texts(item)]
    if isinstance(value, list):
        return [why for item in value for why in _bad_texts(item)]
    return []
