"""Data references drawn once per language of a build: the reports of a big site repeat the
same [[kind:id]] on page after page (a result edit re-renders every report that shows it).

A reference's HTML depends on its kind and argument, the page's language and folder (links are
relative to the folder, urls.relative), and what the page has said before it (the companies
named, Page.named; the asides of the paragraph, Page.said). Those make the key; what the drawing
read is noted again for each page that takes it (content/tracking.py), and what it left in
named and said is set again. A drawing that said a problem, or made files, is not kept.
A page's drawings are kept between builds made from the same data too (BodyCache.drawings):
a report whose text changed draws again only its new references."""

from __future__ import annotations

import posixpath

from sitegen.render.page import Page
from sitegen.render.references import shortcode


def drawn(kept: dict | None, kind: str, arg: str, page: Page, line: int) -> str:
    """shortcode(kind, arg, page, line), taken from `kept` (this job's drawings) when drawn
    before on a page in the same state."""
    if kept is None:
        return shortcode(kind, arg, page, line)
    key = (kind, arg, page.lang, posixpath.dirname(page.path), frozenset(page.named), frozenset(page.said))
    found = kept.get(key)
    if found is not None:
        html, reads, named, said = found
        page.site.reads.replay(reads)
        page.named.clear()
        page.named.update(named)
        page.said.clear()
        page.said.update(said)
        return html
    known, files, charts, cacheable = len(page.problems), len(page.files), page.has_charts, page.cacheable
    with page.site.reads.collect() as reads:
        html = shortcode(kind, arg, page, line)
    same = (len(page.problems), len(page.files), page.has_charts, page.cacheable) == (
        known,
        files,
        charts,
        cacheable,
    )
    if same:
        kept[key] = (html, frozenset(reads), frozenset(page.named), frozenset(page.said))
    return html
