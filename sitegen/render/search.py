"""The search index: each page's search document, and the index scripts of each language.

`assets/search-<lang>.js`, the language's entry script, lists its shard scripts
(`window.SEARCH_SHARDS_BY_LANG[lang]`) and holds the record's rows; each shard,
`assets/search-<lang>-<k>.js`, holds some of its documents
(`window.SEARCH_PARTS_BY_LANG[lang][k]`): an edit writes again only the shard of the documents
it changed (10 MB a language at N = 1,000 reports, in eight shards of about 1.3 MB). Plain
scripts, not JSON fetched at run time, so that search works from file://. Each document's
`url` is relative to the output root; the search form's `data-root` turns it into a link.
"""

from __future__ import annotations

import json
import re
from operator import itemgetter

from sitegen.base import languages, npm, urls
from sitegen.render.htmltree import collapse, drop, parse, shorten, text_of
from sitegen.render.kinds import kind_of

ROBOTS_NOINDEX = re.compile(rb"""<meta\s+name=["']?robots["']?\s+content=["'][^"']*noindex""", re.I)


def noindex(page: bytes) -> bool:
    """Whether a rendered page asks to stay out of search engines (templates/base.html writes
    the robots tag at the top of <head>, so a byte search finds it without parsing the page)."""
    head = page[: page.find(b"</head>")]
    return ROBOTS_NOINDEX.search(head) is not None


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


# A page's lead, in the order of the page: a paragraph of running text (not a note on its
# figures, which many pages repeat, nor the record's spelling of a name) or the list of its
# facts (a record page's specs).
_NOT_LEAD = " or ".join(f"contains(concat(' ', @class, ' '), ' {c} ')" for c in ("note", "record-spelling"))
LEAD = f".//p[normalize-space()][not({_NOT_LEAD})] | .//dl[contains(concat(' ', @class, ' '), ' specs ')]"
ASIDE = "ancestor::figure | ancestor::table | ancestor::aside | ancestor::details | ancestor::nav"


def _lead_text(el, seps: tuple[str, str, str]) -> str:
    """A lead's text; a list of facts as "term: value; term: value" in the page's language,
    each value (each item of a listed one) up to its own colon: what follows it there (the
    results of a round, a variant's spellings) is detail that reads badly run together."""
    if el.tag != "dl":
        return text_of(el)
    colon, listed, separator = seps

    def head(node) -> str:  # up to the first colon outside brackets
        text, depth = text_of(node), 0
        for at, char in enumerate(text):
            depth += (char in "(（") - (char in ")）")
            if depth == 0 and char == colon.strip():
                return text[:at].rstrip()
        return text

    def value(dd) -> str:
        items = dd.findall(".//li")
        return listed.join(head(li) for li in items) if items else head(dd)

    pairs = [(dt, dt.getnext()) for dt in el.findall("dt")]
    return separator.join(
        f"{text_of(dt)}{colon}{value(dd)}" for dt, dd in pairs if dd is not None and dd.tag == "dd"
    )


def search_document(
    path: str,
    doc,
    kind: str,
    label: str,
    tagline: str = "",
    kept: int | None = None,
    seps: tuple[str, str, str] = (": ", ", ", "; "),
) -> dict:
    """One page's entry in the search index; `doc` is the page parsed with lxml.etree, `kind`
    the kind of document it is, `kept` the characters of its text searched (None: all), `seps`
    the language's colon, separator of listed items and of statements."""
    main = doc.find(".//main")
    if main is None:
        main = doc.find(".//body")
    heading = main.find(".//h1")
    aliases = heading.get("data-names", "") if heading is not None else ""
    title_el = doc.find(".//title")
    title = text_of(heading) if heading is not None else (text_of(title_el) if title_el is not None else path)
    meta = doc.find("head/meta[@name='description']")
    description = meta.get("content", "") if meta is not None else ""
    for el in [el for el in main.iter() if _not_searched(el)]:
        drop(el)
    text = collapse(" ".join(main.itertext()))
    if kind in ("report", "page") and description and description != tagline:
        snippet = collapse(description)
    else:
        first = next((el for el in main.xpath(LEAD) if not el.xpath(ASIDE)), None)
        snippet = _lead_text(first, seps) if first is not None else text or collapse(description)
    if kept is not None:
        text = shorten(text, kept)
    return {
        "url": path,
        "title": title,
        **({"names": aliases} if aliases else {}),  # a company's names in every language (search.js)
        "snippet": shorten(snippet, 220),
        "text": text,
        "kind": kind,
        "label": label,
    }


def search_entry(site, path: str, data: bytes, lang: str, t, tree=None) -> dict | None:
    """One rendered page's search document; None for pages that are not searched (their kind
    says so: render/kinds.py) and pages kept out of search engines. `tree`: `data` parsed
    already (htmltree.parse), which the document may change."""
    kind = kind_of(path) if path.startswith(f"{lang}/") else None
    if kind is None or kind.search is None or noindex(data):
        return None
    label, tagline = t(f"search.kind.{kind.search}"), site.config["tagline"][lang]
    seps = (t("ref.colon"), t("ref.list_separator"), t("ref.statement_separator"))
    doc = search_document(
        path, parse(data) if tree is None else tree, kind.search, label, tagline, kind.kept, seps
    )
    doc["lang"] = lang
    return doc


def _json(value) -> str:
    payload = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return payload.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def doc_text(doc: dict) -> tuple[str, bytes]:
    """A search document as the index writes it: (its url, its JSON in UTF-8). Made with its
    page and kept with the page's unit, so that an index is joined from kept texts."""
    return doc["url"], _json(doc).encode("utf-8")


def rows_text(rows: dict) -> bytes:
    """The record's rows (record/search_rows.py) as the index writes them."""
    return _json(rows).encode("utf-8")


def index_path(lang: str) -> str:
    """Where a language's entry script goes: a file only that language makes (its process
    writes it, instead of sending it back with the files every language makes)."""
    return urls.asset(f"search-{lang}.js")


def shard_path(lang: str, number: int) -> str:
    """Where a language's shard `number` goes (made, like its entry script, by that language
    only)."""
    return urls.asset(f"search-{lang}-{number}.js")


# Documents a shard holds at the least, on average: a shard is written again for an edit of
# one of them (1.3 MB at N = 1,000 reports, where a language's whole index is 10 MB).
SHARD_DOCS = 128


def shard_count(documents: int) -> int:
    """How many shards a language's `documents` go into: a power of two, each holding
    SHARD_DOCS to twice as many on average; one for a small site. A power of two so that the
    count (and with it every shard) moves only when a site doubles."""
    count = 1
    while count * 2 * SHARD_DOCS <= documents:
        count *= 2
    return count


def _head(lang: str, what: str) -> bytes:
    return f"/* Search index of the {lang} pages{what}, written by sitegen/render/search.py. */\n".encode()


def search_shard(lang: str, number: int, count: int, docs: list[tuple[str, bytes]]) -> dict[str, bytes]:
    """Shard `number` of a language's `count`: its documents (doc_text, in any order) by url, as
    one JSON list in `window.SEARCH_PARTS_BY_LANG[lang][number]`."""
    docs = sorted(docs, key=itemgetter(0))
    texts = [b","] * (2 * len(docs) - 1) if docs else []  # the documents, a comma between two
    texts[::2] = [text for _, text in docs]
    slot = f"window.SEARCH_PARTS_BY_LANG[{json.dumps(lang)}]"
    parts = [
        _head(lang, f", shard {number + 1} of {count}"),
        b"window.SEARCH_PARTS_BY_LANG = window.SEARCH_PARTS_BY_LANG || {};\n",
        f"{slot} = {slot} || {{}};\n{slot}[{number}] = [".encode(),
        *texts,
        b"];\n",
    ]
    # joined once: each `+` of the parts copied the whole shard again (10 MB a language in one
    # script at N = 1,000 reports, each copy in memory the process faulted in anew)
    return {shard_path(lang, number): b"".join(parts)}


def search_entry_script(lang: str, count: int, record: bytes | None = None) -> dict[str, bytes]:
    """The entry script of one language (MiniSearch builds the index in the browser): the
    paths of its `count` shards (search_shard), and `record`, the record's results and
    leaderboards as compact rows (rows_text); with MiniSearch, which every language loads."""
    shards = json.dumps([shard_path(lang, number) for number in range(count)])
    parts = [
        _head(lang, " (the list of its shards, and the record's rows)"),
        (
            "window.SEARCH_SHARDS_BY_LANG = window.SEARCH_SHARDS_BY_LANG || {};\n"
            f"window.SEARCH_SHARDS_BY_LANG[{json.dumps(lang)}] = {shards};\n"
        ).encode(),
    ]
    if record:
        parts += [
            (
                "window.SEARCH_RECORD_BY_LANG = window.SEARCH_RECORD_BY_LANG || {};\n"
                f"window.SEARCH_RECORD_BY_LANG[{json.dumps(lang)}] = "
            ).encode(),
            record,
            b";\n",
        ]
    return {
        urls.asset("minisearch.js"): npm.script(npm.MINISEARCH),
        index_path(lang): b"".join(parts),
    }


def search_fold_file() -> dict[str, bytes]:
    """The script that folds Chinese scripts in search (languages.script_fold): one file for
    every language, so that documents and queries of all of them fold alike."""
    table = json.dumps(dict(languages.script_fold()), ensure_ascii=False, separators=(",", ":"))
    script = (
        "/* Traditional -> Simplified characters for search (OpenCC tw2s, one to one),"
        " written by sitegen/render/search.py. */\n"
        f"window.SEARCH_FOLD = {table};\n"
    )
    return {urls.asset("search-fold.js"): script.encode("utf-8")}
