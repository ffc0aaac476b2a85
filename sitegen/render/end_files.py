"""The files made once every page is: search indexes, feeds, sitemap, robots.txt, root 404.

Each language's search index and feed need its pages; the sitemap, robots.txt, the root 404
page and the search's script fold need every language.

All of them come from the rendered pages and the model, never from the clock, so two builds of
the same content give the same bytes.
"""

from __future__ import annotations

from sitegen.render.feed import feed_file
from sitegen.render.not_found import root_not_found
from sitegen.render.search import search_fold_file, search_index
from sitegen.render.sitemap import sitemap_files
from sitegen.render.theme import Strings, missing_strings


def language_end_files(site, model, lang: str, docs: list[dict], t=None) -> dict[str, bytes]:
    """What one language's pages determine once all are made: its search index and feed.
    `docs` are their search entries (search_entry), in any order; the record's results and
    leaderboards are added as compact rows (record/search_rows.py: their pages are not
    searched as pages)."""
    from sitegen.render.record.search_rows import record_rows

    t = t or Strings(site, lang)
    return {**search_index(lang, docs, record_rows(model, lang, t)), **feed_file(site, lang)}


def site_files(site, model, theme, paths: set[str], hidden: set[str]) -> dict[str, bytes]:
    """What needs every language: the sitemap and the root 404 page. `paths`: every output
    file; `hidden`: the pages that ask to stay out of search engines."""
    strings = {lang: Strings(site, lang) for lang in site.languages}
    files = {**sitemap_files(site, model.record, paths, hidden), **root_not_found(site, theme, strings)}
    if site.languages.needs_script_fold():
        files.update(search_fold_file())
    missing_strings(list(strings.values()))
    return files
