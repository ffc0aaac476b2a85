"""The files made once every page is: search indexes, feeds, sitemap, robots.txt, root 404.

Each language's search index and feed need its pages; the sitemap, robots.txt and the root
404 page need every language; the search's script fold is one file for all of them. A rebuild
pays for what changed: each page's search document is kept with its unit, and the feed, the
script fold and the record's search rows are units of their own (assemble/rendering.py,
end_units.py), taken from the last build unless what they read changed; so are each shard of
a language's search index and its entry script (made by render/search.py in end_units.py).

All of them come from the rendered pages and the model, never from the clock, so two builds of
the same content give the same bytes.
"""

from __future__ import annotations

import json
from functools import partial

from sitegen.render.feed import feed_file
from sitegen.render.not_found import root_not_found
from sitegen.render.search import rows_text, search_fold_file
from sitegen.render.sitemap import sitemap_files
from sitegen.render.theme import Strings, missing_strings


def language_end_units(site, lang: str):
    """The end files of one language made as units of their own, as language_units gives
    pages (key, None, function making {path: bytes}), each taken from the last build unless
    what it read changed: its feed, which reads the reports' titles, summaries and dates; and,
    with the first language, the search's script fold, which reads nothing of the content."""
    yield ("feed",), None, partial(feed_file, site, lang)
    if lang == site.languages[0] and site.languages.needs_script_fold():
        yield ("search-fold",), None, search_fold_file


def rows_chunk(model, lang: str, start: int, end: int) -> bytes:
    """The search rows of the results from `start` to `end` in the order of their ids, their
    names as the language writes them (record/search_rows.py result_rows), as JSON: a part
    of search_rows that a build keeps (assemble/end_units.py)."""
    from sitegen.render.record.search_rows import result_rows

    return json.dumps(result_rows(model, lang, sorted(model.record)[start:end]), ensure_ascii=False).encode()


def search_rows(model, lang: str, t, chunks: list[bytes]) -> bytes | None:
    """The record's part of one language's search index, as the index writes it, from the
    rows of all its results (`chunks`: rows_chunk, in order); None for a site without a
    record."""
    from sitegen.render.record.search_rows import record_rows

    rows = record_rows(model, lang, t, [row for chunk in chunks for row in json.loads(chunk)])
    return rows_text(rows) if rows else None


def site_files(site, model, theme, paths: set[str], hidden: set[str]) -> dict[str, bytes]:
    """What needs every language: the sitemap and the root 404 page. `paths`: every output
    file; `hidden`: the pages that ask to stay out of search engines."""
    strings = {lang: Strings(site, lang) for lang in site.languages}
    files = {**sitemap_files(site, model.record, paths, hidden), **root_not_found(site, theme, strings)}
    missing_strings(list(strings.values()))
    return files
