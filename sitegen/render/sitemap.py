"""The sitemap and robots.txt.

sitemap.xml needs absolute URLs, so it is written only when base_url is set; robots.txt is
always written and names the sitemap when there is one."""

from __future__ import annotations

import hashlib
from functools import partial

from sitegen.base import urls
from sitegen.base.cache import code_digest
from sitegen.render.htmltree import etree
from sitegen.render.kinds import kind_of
from sitegen.render.theme import base_url

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"

# The sitemap protocol's limits per file (sitemaps.org): past either, the URLs are split into
# sitemap-1.xml, sitemap-2.xml, ... and sitemap.xml becomes their index.
SITEMAP_MAX_URLS = 50_000
SITEMAP_MAX_BYTES = 50 * 1024 * 1024


TABLE = "end_files"  # the store's table of sitemaps made before, by what they were made of


def sitemap_files(site, record: dict, pages: set[str], hidden: set[str]) -> dict[str, bytes]:
    root = base_url(site)
    robots = "User-agent: *\nAllow: /\n"
    if not root:
        return {"robots.txt": robots.encode("utf-8")}
    robots += f"Sitemap: {root}sitemap.xml\n"
    known = _known_dates(site, record)
    make = partial(_sitemaps, site, root, known, pages, hidden)
    store = site.store
    files = make() if store is None else _kept(store, _made_of(site, root, known, pages, hidden), make)
    return {**files, "robots.txt": robots.encode("utf-8")}


def _kept(store, key: str, make) -> dict[str, bytes]:
    """The sitemaps the store keeps under `key`, else make()'s, kept there (a damaged or
    foreign entry is made again, never published)."""
    files = store.get_value(TABLE, key)
    if not isinstance(files, dict) or not all(isinstance(data, bytes) for data in files.values()):
        files = make()
        store.put_value(TABLE, key, files)
    return files


def _made_of(site, root: str, known, pages: set[str], hidden: set[str]) -> str:
    """A digest of all a sitemap reads: the code (kinds, addresses, this module), the site's
    address and languages, the dates (_known_dates, each round's), every page and the hidden
    ones. Taken from the store when the same: a report's text or a result edited, the sitemap
    is as it was (making it took 0.02 s of a rebuild at N = 1,000 reports)."""
    langs = [(code, site.languages.html_lang(code)) for code in site.languages]
    rounds = {ident: rnd.get("commit_date") for ident, rnd in site.rounds.items()}
    limits = (SITEMAP_MAX_URLS, SITEMAP_MAX_BYTES)
    parts = (code_digest(site.store), limits, root, langs, site.config["default_language"], known, rounds)
    text = repr((*parts, sorted(pages), sorted(hidden)))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _sitemaps(site, root: str, known, pages: set[str], hidden: set[str]) -> dict[str, bytes]:
    """sitemap.xml, or its index and the sitemaps it lists past the protocol's limits."""
    # the pages whose kind the sitemap lists (render/kinds.py), those outside the language
    # folders (the language chooser) first, then each language's
    kinds = {path: kind_of(path) for path in pages if path.endswith(".html")}  # once a page
    listed = [p for p in _page_paths(pages, None) if _listed(kinds[p], p, hidden)]
    for lang in site.languages:
        listed += [p for p in _page_paths(pages, lang) if _listed(kinds[p], p, hidden)]
    # each language's hreflang and each page's address as attributes, escaped once
    langs = {code: _attr(site.languages.html_lang(code)) for code in site.languages}
    links: dict[str, str] = {}
    attrs = (langs, links, site.config["default_language"])  # looked up once, not once a page
    entries = [_sitemap_url(site, root, path, pages, known, attrs, kinds[path]) for path in listed]
    chunks: list[list[bytes]] = []
    chunk: list[bytes] = []
    size = 0
    for entry in entries:
        if chunk and (len(chunk) == SITEMAP_MAX_URLS or size + len(entry) > SITEMAP_MAX_BYTES - 1024):
            chunks.append(chunk)
            chunk, size = [], 0
        chunk.append(entry)
        size += len(entry)
    chunks.append(chunk)
    if len(chunks) == 1:
        return {"sitemap.xml": _urlset(chunks[0])}
    files = {f"sitemap-{n}.xml": _urlset(part) for n, part in enumerate(chunks, start=1)}
    index = etree.Element(f"{{{SITEMAP_NS}}}sitemapindex", nsmap={None: SITEMAP_NS})
    newest = max(
        (d for d in (_lastmod(site, path, known, kinds[path]) for path in listed) if d), default=None
    )
    for name in files:
        entry = etree.SubElement(index, f"{{{SITEMAP_NS}}}sitemap")
        etree.SubElement(entry, f"{{{SITEMAP_NS}}}loc").text = root + name
        if newest:
            etree.SubElement(entry, f"{{{SITEMAP_NS}}}lastmod").text = newest.isoformat()
    files["sitemap.xml"] = etree.tostring(index, pretty_print=True, xml_declaration=True, encoding="UTF-8")
    return files


def _urlset(entries: list[bytes]) -> bytes:
    head = (
        f'<?xml version=\'1.0\' encoding=\'UTF-8\'?>\n<urlset xmlns="{SITEMAP_NS}" '
        f'xmlns:xhtml="{XHTML_NS}">\n'
    ).encode()
    return head + b"".join(entries) + b"</urlset>\n"


def _sitemap_url(site, root: str, path: str, pages: set[str], known, attrs, kind) -> bytes:
    """One <url> of the sitemap: the page, its last change, its language twins. Written as
    text, as lxml writes the element alone (a tree per page took most of a rebuild's sitemap);
    `attrs`: ({language: its hreflang}, {page: its address}) as attributes, the second filled
    as pages are met, and the default language; `kind`: the page's (kinds.kind_of)."""
    lines = ["<url>", f"  <loc>{_text(root + path)}</loc>"]
    changed = _lastmod(site, path, known, kind)
    if changed:
        lines.append(f"  <lastmod>{changed.isoformat()}</lastmod>")
    if path != "index.html":
        langs, links, default = attrs
        twins = [(code, urls.twin(path, code)) for code in langs]
        twins = [(langs[code], twin) for code, twin in twins if twin in pages]
        fallback = urls.twin(path, default)
        if len(twins) >= 2:
            twins += [('"x-default"', fallback)] if fallback in pages else []
            for lang, twin in twins:
                href = links.get(twin) or links.setdefault(twin, _attr(root + twin))
                lines.append(f'  <xhtml:link rel="alternate" hreflang={lang} href={href}/>')
    text = "\n".join([*lines, "</url>\n"])
    return ("  " + text.replace("\n<", "\n  <")).rstrip(" ").encode()


# What lxml escapes in text and in attribute values
TEXT_ESCAPES = {"\r": "&#13;"}
ATTR_ESCAPES = {'"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}


def _escape(value: str, entities: dict[str, str]) -> str:
    """As xml.sax.saxutils.escape, whose module imports urllib.request (and with it http, ssl
    and email) at every build's start."""
    value = value.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    for char, entity in entities.items():
        value = value.replace(char, entity)
    return value


def _text(value: str) -> str:
    return _escape(value, TEXT_ESCAPES)


def _attr(value: str) -> str:
    return '"' + _escape(value, ATTR_ESCAPES) + '"'


def _known_dates(site, record: dict) -> tuple[dict, object, dict, dict]:
    """(result id -> its latest change in the data changelog, the newest date on the site,
    result id -> its round; `record`: the model's, by id; (language, slug) -> the date of
    the first report of that slug, found once rather than once a page)."""
    changes: dict = {}
    for change in getattr(site, "changelog", None) or []:
        if change.get("id") and change.get("date"):
            changes[change["id"]] = max(change["date"], changes.get(change["id"], change["date"]))
    dates = [r.date for r in site.reports if r.date]
    dates += [rnd["commit_date"] for rnd in site.rounds.values() if rnd.get("commit_date")]
    report_dates: dict = {}
    for report in site.reports:
        report_dates.setdefault((report.lang, report.slug), report.date)
    return changes, max(dates, default=None), {ident: r["round"] for ident, r in record.items()}, report_dates


def _lastmod(site, path: str, known, kind):
    """When a page's content last changed, from the content alone (the same bytes on every
    build): a report's date; a result, leaderboard or round page: its round's commit date
    (or a later change of the result in the data changelog); any other page: the newest of
    those dates on the site."""
    changes, newest, round_of, report_dates = known
    lang, name = path.split("/")[0], path.rsplit("/", 1)[-1].removesuffix(".html")
    if kind is not None and kind.name == "report" and report_dates.get((lang, name)):
        return report_dates[(lang, name)]
    round_id = None
    if kind is not None and kind.name == "result" and name in round_of:
        round_id = round_of[name]
    elif kind is not None and kind.name in ("round", "leaderboard") and name in site.rounds:
        round_id = name
    if round_id is not None:
        committed = site.rounds[round_id]["commit_date"]
        return max(committed, changes[name]) if name in changes else committed
    return newest


def _listed(kind, path: str, hidden: set[str]) -> bool:
    return kind is not None and kind.sitemap and path not in hidden


def _page_paths(pages, lang: str | None) -> list[str]:
    """A language's pages, or (None) the pages at the root."""
    if lang is None:
        return sorted(p for p in pages if "/" not in p and p.endswith(".html"))
    return sorted(p for p in pages if p.startswith(f"{lang}/") and p.endswith(".html"))
