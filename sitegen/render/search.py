"""Reader features built from the rendered site: search index, feeds, sitemap, robots, the root
404 page and a self-contained single-file copy of each report.

Everything here is made from the rendered pages (`pages`) and the model, never from the clock,
so two builds of the same content give the same bytes.

Links and addresses (base_url is `site.config["base_url"]`, optional):

* Search: `assets/search-<lang>.js` sets `window.SEARCH_DOCS` (and `SEARCH_DOCS_BY_LANG[lang]`);
  a plain script, not JSON fetched at run time, so that search works from file://. Each document's
  `url` is relative to the output root; the search form's `data-root` turns it into a link.
* Feeds (`<lang>/feed.xml`, Atom): entry and feed *ids* are always `urn:uuid:` names derived
  from the site and the page path, so they never change when base_url is set or changes later.
  Links are absolute (base_url + path) when base_url is set, otherwise relative to the feed's own
  address (e.g. `reports/<slug>.html`), which a feed reader resolves against the feed's URL.
* sitemap.xml needs absolute URLs, so it is written only when base_url is set; robots.txt is
  always written and names the sitemap when there is one.
* The root 404.html is what static hosts serve for any missing address, at any depth: with
  base_url its links are absolute; without it they are relative to the output root (right when
  the missing address is at the root, wrong deeper down; nothing relative can be right there).
  Its stylesheet is inlined so that it looks right wherever it is served from.
* Single-file reports (`single/<lang>/<slug>.html`): stylesheet inlined, images as data:
  URIs, no scripts; links to other pages of the site become absolute base_url links, or plain
  text without base_url, so that the file has no relative link that could break.
"""

from __future__ import annotations

import base64
import datetime as dt
import functools
import html
import json
import posixpath
import re
import urllib.parse
import uuid

from sitegen.base import fmt, languages, npm, urls
from sitegen.render.theme import Strings, absolute, base_url, missing_strings


class _Etree:
    """lxml.etree, imported at its first use rather than with this module (a build that
    finds nothing to do parses no page); the first use puts the real module in its place."""

    def __getattr__(self, name):
        from lxml import etree as real

        globals()["etree"] = real
        return getattr(real, name)


etree = _Etree()


SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
FEED_GENERATOR = "sitegen (Accelerator Ledger)"


def language_end_files(site, lang: str, docs: list[dict], t=None) -> dict[str, bytes]:
    """What one language's pages determine once all are made: its search index and feed.
    `docs` are their search entries (search_entry), in any order; the record's results and
    leaderboards are added as compact rows (record_search.record_rows: their pages are not
    searched as pages)."""
    from sitegen.render.record.search_rows import record_rows

    t = t or Strings(site, lang)
    return {**search_index(lang, docs, record_rows(site, lang, t)), **feed_file(site, lang)}


def site_files(site, theme, paths: set[str], hidden: set[str]) -> dict[str, bytes]:
    """What needs every language: the sitemap and the root 404 page. `paths`: every output
    file; `hidden`: the pages that ask to stay out of search engines."""
    strings = {lang: Strings(site, lang) for lang in site.languages}
    files = {**sitemap_files(site, paths, hidden), **root_not_found(site, theme, strings)}
    if languages.needs_script_fold(site.languages):
        files.update(search_fold_file())
    missing_strings(list(strings.values()))
    return files


# --- helpers ------------------------------------------------------------------------------------


def _site_date(site) -> dt.date | None:
    value = site.config.get("date")
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _midnight(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


def _collapse(text: str) -> str:
    return " ".join(text.split())  # str.split() splits on exactly the characters \s matches


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,.;:，。；：") + "…"


def _parse(data: bytes):
    """A rendered page as a plain lxml.etree tree (lighter than lxml.html's element classes)."""
    return etree.fromstring(data, etree.HTMLParser(encoding="utf-8"))


def _page_paths(pages, lang: str) -> list[str]:
    return sorted(p for p in pages if p.startswith(f"{lang}/") and p.endswith(".html"))


# --- search -------------------------------------------------------------------------------------


def page_kind(path: str) -> str | None:
    """What kind of page an output path is; None for pages that are not searched (404)."""
    parts = path.split("/")[1:]
    if parts == ["index.html"]:
        return "home"
    if parts == ["404.html"]:
        return None
    if len(parts) == 2:
        folder, name = parts
        if folder == "results":
            return "result"
        if folder == "rounds":
            return "list" if name == "index.html" else "round"
        if folder in ("claims", "sources"):
            return folder
        if name == "index.html":
            return "list"
        return {
            "reports": "report",
            "systems": "system",
            "benchmarks": "benchmark",
            "submitters": "submitter",
            "accelerators": "accelerator",
        }.get(folder, "page")
    if parts == ["glossary.html"]:
        return "glossary"
    if len(parts) == 3 and parts[0] in ("benchmarks", "submitters", "accelerators"):
        return "leaderboard"
    return "page" if len(parts) == 1 else None


# Thousands of these: the sitemap lists them, the search index has a compact row for each
# result and benchmark leaderboard instead (record_search.py).
NOT_SEARCHED = {"result", "leaderboard"}
# Pages that list the record's results by name: the first part of their text is searched (their
# introduction); the names after it are the results' own rows. Characters kept, by kind.
TEXT_KEPT = {"accelerator": 600, "submitter": 600, "list": 600, "round": 1500}


ROBOTS_NOINDEX = re.compile(rb"""<meta\s+name=["']?robots["']?\s+content=["'][^"']*noindex""", re.I)


def noindex(page: bytes) -> bool:
    """Whether a rendered page asks to stay out of search engines (templates/base.html writes
    the robots tag at the top of <head>, so a byte search finds it without parsing the page)."""
    head = page[: page.find(b"</head>")]
    return ROBOTS_NOINDEX.search(head) is not None


def _text(el) -> str:
    return _collapse("".join(el.itertext()))


def _drop(el) -> None:
    """Remove an element but keep the text that follows it (lxml.html's drop_tree)."""
    parent = el.getparent()
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def _unwrap(el) -> None:
    """Replace an element by its content (lxml.html's drop_tag)."""
    parent = el.getparent()
    index = parent.index(el)
    text = el.text or ""
    children = list(el)
    after = el.tail or ""
    if children:
        children[-1].tail = (children[-1].tail or "") + after
    else:
        text += after
    if index:
        previous = parent[index - 1]
        previous.tail = (previous.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    parent[index : index + 1] = children


def _not_searched(el) -> bool:
    """The table of contents (it repeats the headings), the page title, charts' drawn text and
    data, scripts: not what a reader searches for."""
    if el.tag in ("svg", "script", "style", "template", "h1"):
        return True
    classes = (el.get("class") or "").split()
    return (
        (el.tag == "nav" and "toc" in classes)
        or "chart-downloads" in classes
        or "chart-data" in classes
        or el.get("data-nosearch") is not None
    )


def search_document(path: str, doc, kind: str, label: str, tagline: str = "") -> dict:
    """One page's entry in the search index; `doc` is the page parsed with lxml.etree."""
    main = doc.find(".//main")
    if main is None:
        main = doc.find(".//body")
    heading = main.find(".//h1")
    title_el = doc.find(".//title")
    title = _text(heading) if heading is not None else (_text(title_el) if title_el is not None else path)
    meta = doc.find("head/meta[@name='description']")
    description = meta.get("content", "") if meta is not None else ""
    for drop in [el for el in main.iter() if _not_searched(el)]:
        _drop(drop)
    text = _collapse(" ".join(main.itertext()))
    if kind in ("report", "page") and description and description != tagline:
        snippet = _collapse(description)
    else:
        # The first paragraph of running text: not a caption, a note in a figure or a table cell.
        first = next(
            (
                p
                for p in main.xpath(".//p[normalize-space()]")
                if not p.xpath(
                    "ancestor::figure | ancestor::table | ancestor::aside | ancestor::details | ancestor::nav"
                )
            ),
            None,
        )
        snippet = _text(first) if first is not None else text or _collapse(description)
    if kind in TEXT_KEPT:
        text = _shorten(text, TEXT_KEPT[kind])
    return {
        "url": path,
        "title": title,
        "snippet": _shorten(snippet, 220),
        "text": text,
        "kind": kind,
        "label": label,
    }


def search_entry(site, path: str, data: bytes, lang: str, t) -> dict | None:
    """One rendered page's search document; None for pages that are not searched (the 404
    page, pages kept out of search engines)."""
    if not path.startswith(f"{lang}/") or not path.endswith(".html"):
        return None
    kind = page_kind(path)
    if kind is None or kind in NOT_SEARCHED or noindex(data):
        return None
    doc = search_document(path, _parse(data), kind, t(f"search.kind.{kind}"), site.config["tagline"][lang])
    doc["lang"] = lang
    return doc


def _json(value) -> str:
    payload = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return payload.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def search_index(lang: str, docs: list[dict], record: dict | None = None) -> dict[str, bytes]:
    """The search index script of one language (MiniSearch builds the index in the browser);
    `record`, the record's results and leaderboards (record_search.record_rows), are compact
    rows beside the documents."""
    docs = sorted(docs, key=lambda doc: doc["url"])
    script = (
        f"/* Search index of the {lang} pages, written by sitegen/reader.py. */\n"
        f"window.SEARCH_DOCS = {_json(docs)};\n"
        "window.SEARCH_DOCS_BY_LANG = window.SEARCH_DOCS_BY_LANG || {};\n"
        f"window.SEARCH_DOCS_BY_LANG[{json.dumps(lang)}] = window.SEARCH_DOCS;\n"
    )
    if record:
        script += (
            "window.SEARCH_RECORD_BY_LANG = window.SEARCH_RECORD_BY_LANG || {};\n"
            f"window.SEARCH_RECORD_BY_LANG[{json.dumps(lang)}] = {_json(record)};\n"
        )
    return {
        urls.asset("minisearch.js"): npm.script(npm.MINISEARCH),
        urls.asset(f"search-{lang}.js"): script.encode("utf-8"),
    }


def search_fold_file() -> dict[str, bytes]:
    """The script that folds Chinese scripts in search (languages.script_fold): one file for
    every language, so that documents and queries of all of them fold alike."""
    table = json.dumps(dict(languages.script_fold()), ensure_ascii=False, separators=(",", ":"))
    script = (
        "/* Traditional -> Simplified characters for search (OpenCC tw2s, one to one),"
        " written by sitegen/reader.py. */\n"
        f"window.SEARCH_FOLD = {table};\n"
    )
    return {urls.asset("search-fold.js"): script.encode("utf-8")}


# --- feeds --------------------------------------------------------------------------------------


def _feed_id(site, name: str) -> str:
    """A stable urn:uuid for a feed or an entry, from the site's name and the page path."""
    site_name = site.config["title"][site.config["default_language"]]
    return "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"sitegen:{site_name}:{name}"))


def feed_file(site, lang: str) -> dict[str, bytes]:
    """The Atom feed of one language's reports."""
    from feedgen.feed import FeedGenerator

    feed_path = f"{lang}/feed.xml"
    reports = [r for r in site.reports_in(lang) if not r.pending]

    def href(target: str) -> str:
        return absolute(site, target) if base_url(site) else urls.relative(feed_path, target)

    dates = [r.date for r in reports if r.date] + ([_site_date(site)] if _site_date(site) else [])
    if not dates:
        dates = [s["date"] for s in site.table("sources") if isinstance(s.get("date"), dt.date)]
    updated = _midnight(max(dates)) if dates else dt.datetime(2000, 1, 1, tzinfo=dt.UTC)

    fg = FeedGenerator()
    fg.id(_feed_id(site, feed_path))
    fg.title(site.config["title"][lang])
    fg.subtitle(site.config["tagline"][lang])
    fg.language(languages.html_lang(lang))
    fg.author(name=site.config["title"][lang])
    fg.link(href=href(urls.home(lang)), rel="alternate", type="text/html", hreflang=languages.html_lang(lang))
    fg.link(href=href(feed_path), rel="self", type="application/atom+xml")
    fg.generator(FEED_GENERATOR)
    fg.updated(updated)
    for report in reports:  # newest first, as reports_in orders them
        page = urls.report(lang, report.slug)
        entry = fg.add_entry(order="append")
        entry.id(_feed_id(site, page))
        entry.title(report.title)
        entry.summary(report.meta.get("summary") or report.title)
        entry.link(href=href(page), rel="alternate", type="text/html", hreflang=languages.html_lang(lang))
        when = _midnight(report.date) if report.date else updated
        entry.published(when)
        entry.updated(when)
    return {feed_path: fg.atom_str(pretty=True, encoding="UTF-8", xml_declaration=True)}


# --- sitemap and robots -------------------------------------------------------------------------

# The sitemap protocol's limits per file (sitemaps.org): past either, the URLs are split into
# sitemap-1.xml, sitemap-2.xml, ... and sitemap.xml becomes their index.
SITEMAP_MAX_URLS = 50_000
SITEMAP_MAX_BYTES = 50 * 1024 * 1024


def sitemap_files(site, pages: set[str], hidden: set[str]) -> dict[str, bytes]:
    root = base_url(site)
    robots = "User-agent: *\nAllow: /\n"
    if not root:
        return {"robots.txt": robots.encode("utf-8")}
    robots += f"Sitemap: {root}sitemap.xml\n"
    listed = ["index.html"] if "index.html" in pages else []
    for lang in site.languages:
        listed += [p for p in _page_paths(pages, lang) if page_kind(p) is not None and p not in hidden]
    known = _known_dates(site)
    entries = [_sitemap_url(site, root, path, pages, known) for path in listed]
    chunks, chunk, size = [], [], 0
    for entry in entries:
        if chunk and (len(chunk) == SITEMAP_MAX_URLS or size + len(entry) > SITEMAP_MAX_BYTES - 1024):
            chunks.append(chunk)
            chunk, size = [], 0
        chunk.append(entry)
        size += len(entry)
    chunks.append(chunk)
    if len(chunks) == 1:
        return {"sitemap.xml": _urlset(chunks[0]), "robots.txt": robots.encode("utf-8")}
    files = {f"sitemap-{n}.xml": _urlset(part) for n, part in enumerate(chunks, start=1)}
    index = etree.Element(f"{{{SITEMAP_NS}}}sitemapindex", nsmap={None: SITEMAP_NS})
    newest = max((d for d in (_lastmod(site, path, known) for path in listed) if d), default=None)
    for name in files:
        entry = etree.SubElement(index, f"{{{SITEMAP_NS}}}sitemap")
        etree.SubElement(entry, f"{{{SITEMAP_NS}}}loc").text = root + name
        if newest:
            etree.SubElement(entry, f"{{{SITEMAP_NS}}}lastmod").text = newest.isoformat()
    files["sitemap.xml"] = etree.tostring(index, pretty_print=True, xml_declaration=True, encoding="UTF-8")
    files["robots.txt"] = robots.encode("utf-8")
    return files


def _urlset(entries: list[bytes]) -> bytes:
    head = (
        f'<?xml version=\'1.0\' encoding=\'UTF-8\'?>\n<urlset xmlns="{SITEMAP_NS}" '
        f'xmlns:xhtml="{XHTML_NS}">\n'
    ).encode()
    return head + b"".join(entries) + b"</urlset>\n"


def _sitemap_url(site, root: str, path: str, pages: set[str], known) -> bytes:
    """One <url> of the sitemap: the page, its last change, its language twins."""
    url = etree.Element(f"{{{SITEMAP_NS}}}url", nsmap={None: SITEMAP_NS, "xhtml": XHTML_NS})
    etree.SubElement(url, f"{{{SITEMAP_NS}}}loc").text = root + path
    changed = _lastmod(site, path, known)
    if changed:
        etree.SubElement(url, f"{{{SITEMAP_NS}}}lastmod").text = changed.isoformat()
    if path != "index.html":
        twins = [(code, urls.twin(path, code)) for code in site.languages]
        twins = [(code, twin) for code, twin in twins if twin in pages]
        if len(twins) >= 2:
            for code, twin in twins:
                etree.SubElement(
                    url,
                    f"{{{XHTML_NS}}}link",
                    rel="alternate",
                    hreflang=languages.html_lang(code),
                    href=root + twin,
                )
            fallback = urls.twin(path, site.config["default_language"])
            if fallback in pages:
                etree.SubElement(
                    url, f"{{{XHTML_NS}}}link", rel="alternate", hreflang="x-default", href=root + fallback
                )
    text = etree.tostring(url, pretty_print=True, encoding="UTF-8").decode()
    # each <url> carries its own namespace declarations when serialised alone: drop them
    text = text.replace(f' xmlns="{SITEMAP_NS}"', "").replace(f' xmlns:xhtml="{XHTML_NS}"', "")
    return ("  " + text.replace("\n<", "\n  <")).rstrip(" ").encode()


def _known_dates(site) -> tuple[dict, object]:
    """(result id -> its latest change in the data changelog, the newest date on the site)."""
    changes: dict = {}
    for change in getattr(site, "changelog", None) or []:
        if change.get("id") and change.get("date"):
            changes[change["id"]] = max(change["date"], changes.get(change["id"], change["date"]))
    dates = [r.date for r in site.reports if r.date]
    dates += [rnd["commit_date"] for rnd in site.rounds.values() if rnd.get("commit_date")]
    return changes, max(dates, default=None)


def _lastmod(site, path: str, known):
    """When a page's content last changed, from the content alone (the same bytes on every
    build): a report's date; a result, leaderboard or round page: its round's commit date
    (or a later change of the result in the data changelog); any other page: the newest of
    those dates on the site."""
    changes, newest = known
    parts = path.split("/")
    name = parts[-1].removesuffix(".html")
    if len(parts) == 3 and parts[1] == "reports" and name != "index":
        found = [r for r in site.reports if r.slug == name and r.lang == parts[0]]
        if found and found[0].date:
            return found[0].date
    round_id = None
    if len(parts) == 3 and parts[1] == "results" and name in site.record:
        round_id = site.record[name]["round"]
    elif len(parts) == 3 and parts[1] == "rounds" and name in site.rounds:
        round_id = name
    elif len(parts) == 4 and parts[1] == "benchmarks" and name in site.rounds:
        round_id = name
    if round_id is not None:
        committed = site.rounds[round_id]["commit_date"]
        return max(committed, changes[name]) if name in changes else committed
    return newest


# --- the root 404 page --------------------------------------------------------------------------


def stylesheet(theme) -> str:
    path = theme.file("static/style.css")
    css = path.read_text("utf-8") if path is not None else ""

    def inline(match):
        ref = match.group(2)
        if re.match(r"^(?:[a-z][a-z0-9+.-]*:|#|/)", ref, re.I):
            return match.group(0)
        data = _static_bytes(theme, {}, urls.asset(posixpath.normpath(ref)))
        return f'url("{_data_uri(ref, data)}")' if data is not None else match.group(0)

    css = re.sub(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""", inline, css)
    # The Nu Html Checker checks inline CSS against an older grammar that wants a side with
    # `under`; `under right` draws the same marks in horizontal text and passes both grammars.
    return re.sub(r"(text-emphasis-position\s*:\s*)(over|under)(\s*[;}])", r"\1\2 right\3", css)


def _static_bytes(theme, pages: dict, path: str) -> bytes | None:
    if path in pages:
        return pages[path]
    if path.startswith(urls.ASSETS + "/"):
        file = theme.file("static/" + path[len(urls.ASSETS) + 1 :])
        if file is not None:
            return file.read_bytes()
    return None


MEDIA_TYPES = {
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".csv": "text/csv;charset=utf-8",
    ".json": "application/json",
    ".txt": "text/plain;charset=utf-8",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
}


def _data_uri(name: str, data: bytes) -> str:
    """A data: URI; the media type comes from a fixed table (not the machine's mimetypes)."""
    kind = MEDIA_TYPES.get(posixpath.splitext(name.partition("#")[0])[1].lower(), "application/octet-stream")
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


def root_not_found(site, theme, strings: dict) -> dict[str, bytes]:
    """/404.html for static hosts: every language's message and links to every home page."""
    root = base_url(site)
    default = site.config["default_language"]
    esc = html.escape

    def href(target: str) -> str:
        # With base_url: absolute, right at any depth. Without: relative to the output root,
        # right only when the missing address is at the root (no relative link can do better).
        return root + target if root else target

    icon = _static_bytes(theme, {}, urls.asset("favicon.svg"))
    sections = []
    for lang in site.languages:
        t, code = strings[lang], languages.html_lang(lang)
        sections.append(
            f'<section lang="{code}" aria-labelledby="nf-{lang}">\n'
            f'<h1 id="nf-{lang}">{esc(t("404.title"))}</h1>\n'
            f'<p>{esc(t("404.text"))}</p>\n'
            f'<p><a href="{esc(href(urls.home(lang)))}" hreflang="{code}">'
            f'{esc(site.config["title"][lang])} · {esc(t("nav.home"))}</a></p>\n</section>'
        )
    titles = " · ".join(strings[lang]("404.title") for lang in site.languages)
    page = (
        "<!DOCTYPE html>\n"
        f'<html lang="{languages.html_lang(default)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(titles)}</title>\n"
        '<meta name="robots" content="noindex">\n'
        + (
            f'<link rel="icon" href="{_data_uri("favicon.svg", icon)}" type="image/svg+xml">\n'
            if icon
            else ""
        )
        + "<!-- Served by static hosts for any missing address. Links are absolute when the site "
        "has a base_url; otherwise relative to the site root, which only works for missing "
        "addresses at the root. The stylesheet is inlined so the page is styled anywhere. -->\n"
        f"<style>\n{stylesheet(theme)}</style>\n</head>\n"
        '<body class="chooser">\n<main id="main">\n' + "\n".join(sections) + "\n</main>\n"
        "</body>\n</html>\n"
    )
    return {"404.html": page.encode("utf-8")}


# --- single-file reports ------------------------------------------------------------------------


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
HANDLER = re.compile(rb"""\son[a-z]+=""")  # our HTML writes attribute names in lower case
DATA_LINK_LIMIT = 256 * 1024  # linked data files up to this size are inlined as data: URIs


def single_file_copy(site, theme, files: dict[str, bytes], report, css: str, t) -> dict[str, bytes]:
    """The single-file copy of a report, from its rendered page and the files made with it
    (`files`: the page and its charts' files). `css`: stylesheet(theme), made once."""
    path = urls.report(report.lang, report.slug)
    if report.pending or path not in files:
        return {}
    return {single_file_path(report.lang, report.slug): single_file(site, theme, files, report, path, css, t)}


def _not_in_single_file(el) -> bool:
    """Scripts, forms and the site's navigation: a single file stands alone."""
    tag = el.tag
    if tag in ("script", "noscript", "form", "template"):
        return True
    classes = el.get("class") or ""
    return (
        (tag == "header" and "site-header" in classes)
        or (tag == "nav" and "breadcrumbs" in classes)
        or (tag == "a" and "skip" in classes)
        or "single-link" in classes.split()
    )


def single_file(site, theme, pages, report, path: str, css: str, t) -> bytes:
    """The rendered report as one file: styles, charts and images inside, no scripts."""
    root = base_url(site)
    source = pages[path].decode("utf-8")
    # Inline SVG (charts) is kept byte for byte: the HTML parser would lowercase its names.
    svgs: list[str] = []

    def keep_svg(match):
        svgs.append(_rewrite_svg_links(match.group(0), path, root))
        return f'<svg-kept data-n="{len(svgs) - 1}"></svg-kept>'

    doc = _parse(SVG_BLOCK.sub(keep_svg, source).encode("utf-8"))
    head = doc.find("head")

    for el in [el for el in doc.iter() if _not_in_single_file(el)]:
        _drop(el)
    for link in head.xpath("link"):
        rel = (link.get("rel") or "").lower().split()
        if "stylesheet" in rel or "alternate" in rel or "preload" in rel or "modulepreload" in rel:
            link.tail = None
            _drop(link)
        elif "icon" in rel:
            data = _static_bytes(theme, pages, _resolve(path, link.get("href", "")))
            if data is None:
                _drop(link)
            else:
                link.set("href", _data_uri(link.get("href", ""), data))
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
    if HANDLER.search(pages[path]):  # never in our templates, nor in sanitised Markdown
        for el in doc.iter():
            for attr in [a for a in el.attrib if a.startswith("on")]:
                del el.attrib[attr]

    main = doc.find(".//main")
    main.insert(0, _archive_note(site, report, path, root, t))

    out = etree.tostring(doc, doctype="<!DOCTYPE html>", encoding="unicode", method="html")
    out = re.sub(r'<svg-kept data-n="(\d+)"></svg-kept>', lambda m: svgs[int(m.group(1))], out)
    # libxml2 percent-encodes non-ASCII in href; keep fragments as the ids are written (中文 ids).
    out = re.sub(r'href="(#[^"]*)"', lambda m: f'href="{urllib.parse.unquote(m.group(1))}"', out)
    return out.encode("utf-8")


@functools.lru_cache(maxsize=4096)
def _resolve(page: str, ref: str) -> str:
    target, _, fragment = ref.partition("#")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), target)) if target else page
    return resolved + (f"#{fragment}" if fragment else "")


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
        data = _static_bytes(theme, pages, file)
        if data is not None:
            el.set(attr, _data_uri(file, data))
        elif tag == "img":
            alt = el.get("alt") or ""
            span = etree.Element("span")
            span.text = alt
            span.tail = el.tail
            el.getparent().replace(el, span)
        else:
            _drop(el)
        return
    if tag == "a" and file == page:
        el.set(attr, f"#{fragment}" if fragment else "#main")
        return
    if tag == "a" and not file.endswith(".html") and len(pages.get(file) or b"") <= DATA_LINK_LIMIT:
        data = _static_bytes(theme, pages, file)
        if data is not None:  # a chart's data (CSV, JSON, SVG): carried inside the file
            el.set(attr, _data_uri(file, data))
            el.set("download", posixpath.basename(file))
            return
    if root:
        el.set(attr, root + target)
    elif tag == "a":
        # Without base_url there is nowhere to point: keep the words, drop the link.
        _unwrap(el)
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
    day = _site_date(site) or report.date
    strong.tail = _gap(strong.text) + t("single.as_of", date=fmt.date(day, report.lang)) if day else ""
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
            li.text = f"{s['publisher']}: {s['title']} — "
            if s.get("url"):
                a = etree.SubElement(li, "a", href=s["url"])
                a.set("class", "url")
                a.text = s["url"]
            else:
                em = etree.SubElement(li, "span")
                em.text = t("single.no_url")
    note.tail = "\n"
    return note
