"""Single-file reports (`single/<lang>/<slug>.html`): a report as one file that stands alone.

The stylesheet is inlined, images become data: URIs, scripts are dropped; links to other pages
of the site become absolute base_url links, or plain text without base_url, so that the file has
no relative link that could break.
"""

from __future__ import annotations

import copy
import functools
import html
import posixpath
import re
import urllib.parse

from sitegen.base import fmt, urls
from sitegen.base.errors import ContentError, Problem
from sitegen.content.model import source_title
from sitegen.render.feed import site_date
from sitegen.render.htmltree import drop, etree, parse, unwrap
from sitegen.render.inline import data_uri, static_bytes
from sitegen.render.theme import base_url, template_path


def single_file_path(lang: str, slug: str) -> str:
    """Outside the language folders (like the root 404): a copy that stands alone, with no
    twin in the other language and no links relative to the site. templates/report.html
    links here."""
    return f"single/{lang}/{slug}.html"


SVG_BLOCK = re.compile(r"<svg\b.*?</svg>", re.S | re.I)
URL_ATTRS = ("href", "src", "action", "poster", "data", "cite", "srcset")
# Elements that can carry a link or an embedded resource (HTML's URL attributes).
URL_TAGS = (
    "a",
    "area",
    "link",
    "img",
    "source",
    "video",
    "audio",
    "track",
    "embed",
    "object",
    "iframe",
    "input",
    "image",
    "blockquote",
    "q",
    "del",
    "ins",
    "form",
    "base",
)
HANDLER = re.compile(rb"on[a-z]+=")  # after a space; our HTML writes attribute names in lower case
DATA_LINK_LIMIT = 256 * 1024  # linked data files up to this size are inlined as data: URIs


def single_file_copy(
    site, theme, files: dict[str, bytes], report, css: str, t, trees: dict | None = None
) -> dict[str, bytes]:
    """The single-file copy of a report, from its rendered page and the files made with it
    (`files`: the page and its charts' files). `css`: stylesheet(theme), made once. `trees`:
    where the page's parse is left for its search document (search_entry), when the copy
    parsed the page's own bytes (a page without inline SVG)."""
    path = urls.report(report.lang, report.slug)
    if report.pending or path not in files:
        return {}
    made = single_file(site, theme, files, report, path, css, t, trees)
    return {single_file_path(report.lang, report.slug): made}


def _not_in_single_file(el) -> bool:
    """Scripts, forms, the site's navigation and what is marked single-omit: a single file stands alone."""
    tag = el.tag
    if tag in ("script", "noscript", "form", "template"):
        return True
    classes = el.get("class") or ""
    return (
        (tag == "header" and "site-header" in classes)
        or (tag == "nav" and "breadcrumbs" in classes)
        or (tag == "a" and "skip" in classes)
        or "single-link" in classes.split()
        or "single-omit" in classes.split()
    )


def single_file(site, theme, pages, report, path: str, css: str, t, trees: dict | None = None) -> bytes:
    """The rendered report as one file: styles, charts and images inside, no scripts."""
    root = base_url(site)
    source = pages[path].decode("utf-8")
    # Inline SVG (charts) is kept byte for byte: the HTML parser would lowercase its names.
    svgs: list[str] = []

    def keep_svg(match):
        svgs.append(_rewrite_svg_links(match.group(0), path, root))
        return f'<svg-kept data-n="{len(svgs) - 1}"></svg-kept>'

    kept = SVG_BLOCK.sub(keep_svg, source)
    doc = parse(kept.encode("utf-8"))
    if trees is not None and not svgs:  # the page's own bytes parsed: its search document's tree
        trees[path] = copy.deepcopy(doc)
    head, main = doc.find("head"), doc.find(".//main")
    if head is None or main is None:
        raise ContentError([_lacking(theme, path, "<head>" if head is None else "<main>")])

    for el in [el for el in doc.iter() if _not_in_single_file(el)]:
        drop(el)
    for link in head.xpath("link"):
        rel = (link.get("rel") or "").lower().split()
        if "stylesheet" in rel or "alternate" in rel or "preload" in rel or "modulepreload" in rel:
            link.tail = None
            drop(link)
        elif "icon" in rel:
            data = static_bytes(theme, pages, _resolve(path, link.get("href", "")))
            if data is None:
                drop(link)
            else:
                link.set("href", data_uri(link.get("href", ""), data))
    style = etree.SubElement(head, "style")
    style.text = "\n" + css
    robots = etree.SubElement(head, "meta", name="robots", content="noindex")
    robots.tail = "\n"
    style.tail = "\n"

    # lxml's iter() by tag name runs in C; an XPath query over every element costs far more.
    for el in list(doc.iter(URL_TAGS)):
        for attr in URL_ATTRS:
            value = el.get(attr)
            if value is not None:
                _rewrite_attr(el, attr, value, path, root, theme, pages)
    if _has_handler(pages[path]):  # never in our templates, nor in sanitised Markdown
        for el in doc.iter():
            for attr in [a for a in el.attrib if a.startswith("on")]:
                del el.attrib[attr]

    main.insert(0, _archive_note(site, report, path, root, t))

    out = etree.tostring(doc, doctype="<!DOCTYPE html>", encoding="unicode", method="html")
    out = re.sub(r'<svg-kept data-n="(\d+)"></svg-kept>', lambda m: svgs[int(m.group(1))], out)
    # libxml2 percent-encodes non-ASCII in href; keep fragments as the ids are written (中文 ids).
    out = re.sub(r'href="(#[^"]*)"', lambda m: f'href="{urllib.parse.unquote(m.group(1))}"', out)
    return out.encode("utf-8")


def _lacking(theme, path: str, element: str) -> Problem:
    """A report page without the element its single-file copy is made with: the fault of
    base.html when it lacks the element, else of a report.html that does not extend it."""
    base = theme.file("base.html")
    tag = element.strip("<>")
    blamed = (
        base if base is not None and f"<{tag}" not in base.read_text("utf-8") else theme.file("report.html")
    )
    return Problem(
        template_path(theme, str(blamed or theme.folder / "base.html")),
        None,
        f"the page {path} has no {element} element, which the generator needs (a report's "
        f"single-file copy is made from it): keep {element} in this template",
    )


def _has_handler(page: bytes) -> bool:
    """Whether the page has an event handler attribute (` onclick=`): HANDLER found after a
    space. A literal start ("on") is searched far faster than one after `\\s`, and two
    matches cannot overlap a space, so none is missed."""
    return any(page[m.start() - 1 : m.start()].isspace() for m in HANDLER.finditer(page))


def _resolve(page: str, ref: str) -> str:
    target, _, fragment = ref.partition("#")
    resolved = _joined(posixpath.dirname(page), target) if target else page
    return resolved + (f"#{fragment}" if fragment else "")


@functools.lru_cache(maxsize=8192)
def _joined(folder: str, target: str) -> str:
    """`target` relative to `folder`, resolved: by folder, so that every report shares it."""
    return posixpath.normpath(posixpath.join(folder, target))


@functools.lru_cache(maxsize=4096)
def _is_external(ref: str) -> bool:
    return bool(re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", ref.strip(), re.I))


def _rewrite_attr(el, attr, value, page, root, theme, pages) -> None:
    value = value.strip()
    if attr == "srcset":
        del el.attrib[attr]  # the inlined src is enough
        return
    if value.lower().startswith("javascript:"):
        del el.attrib[attr]
        return
    if _is_external(value) or value.startswith("#"):
        return
    target = _resolve(page, value)
    file, _, fragment = target.partition("#")
    tag = el.tag.lower()
    if tag in ("img", "source", "video", "audio", "input", "embed", "object", "track", "image"):
        data = static_bytes(theme, pages, file)
        if data is not None:
            el.set(attr, data_uri(file, data))
        elif tag == "img":
            alt = el.get("alt") or ""
            span = etree.Element("span")
            span.text = alt
            span.tail = el.tail
            el.getparent().replace(el, span)
        else:
            drop(el)
        return
    if tag == "a" and file == page:
        el.set(attr, f"#{fragment}" if fragment else "#main")
        return
    if tag == "a" and not file.endswith(".html") and len(pages.get(file) or b"") <= DATA_LINK_LIMIT:
        data = static_bytes(theme, pages, file)
        if data is not None:  # a chart's data (CSV, JSON, SVG): carried inside the file
            el.set(attr, data_uri(file, data))
            el.set("download", posixpath.basename(file))
            return
    if root:
        el.set(attr, root + target)
    elif tag == "a":
        # Without base_url there is nowhere to point: keep the words, drop the link.
        unwrap(el)
    else:
        del el.attrib[attr]


def _rewrite_svg_links(svg: str, page: str, root: str | None) -> str:
    def fix(match):
        name, quote, value = match.group(1), match.group(2), match.group(3)
        if _is_external(value) or value.startswith("#"):
            return match.group(0)
        if root:
            return f" {name}={quote}{html.escape(root + _resolve(page, html.unescape(value)))}{quote}"
        return ""  # no base_url: the element stays, without a link that would break

    return re.sub(r"""\s((?:xlink:)?href)=(["'])(.*?)\2""", fix, svg)


def _gap(text: str) -> str:
    """The space between two phrases: none after full-width (Chinese) punctuation."""
    return "" if text and text[-1] in "：。，；！？）」』" else " "


def _lead(text: str) -> str:
    """`text` after a word: with a space, unless it opens with full-width punctuation."""
    return text if text and text[0] in "（「『，。：；" else " " + text


def _archive_note(site, report, page: str, root: str | None, t):
    """The notice at the top of a single-file copy: what it is, where the page and sources live."""
    E = etree.Element
    note = E("aside")
    note.set("class", "notice archive-note")
    note.set("aria-label", t("single.note_label"))
    first = etree.SubElement(note, "p")
    strong = etree.SubElement(first, "strong")
    strong.text = t("single.archived")
    day = site_date(site) or report.date
    strong.tail = _gap(strong.text) + t("single.as_of", date=fmt.date(day, t.language)) if day else ""
    second = etree.SubElement(note, "p")
    second.text = t("single.original") + _gap(t("single.original"))
    if root:
        a = etree.SubElement(second, "a", href=root + page)
        a.set("class", "url")
        a.text = root + page
        a.tail = _lead(t("single.links_absolute"))
    else:
        code = etree.SubElement(second, "code")
        code.text = page
        code.tail = _lead(t("single.links_removed"))
    sources = [site.get("sources", s) for s in report.meta.get("sources") or []]
    if sources:
        heading = etree.SubElement(note, "p")
        heading.text = t("single.sources")
        items = etree.SubElement(note, "ul")
        items.set("class", "archive-sources")
        for s in sources:
            li = etree.SubElement(items, "li")
            name = etree.SubElement(li, "span", lang=s["language"])  # as the source writes it
            name.text, name.tail = s["publisher"], t("ref.colon")
            text, written_in = source_title(s, t.language.code)
            title = etree.SubElement(li, "cite")
            if written_in:  # a title as written; the site's own name is in the page's language
                title.set("lang", written_in)
            title.text, title.tail = text, " — "
            if s.get("url"):
                a = etree.SubElement(li, "a", href=s["url"])
                a.set("class", "url")
                a.text = s["url"]
            else:
                em = etree.SubElement(li, "span")
                em.text = t("single.no_url")
    note.tail = "\n"
    return note
