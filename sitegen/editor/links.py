"""Internal links of a rendered site, checked in memory: every href and src names a file of
the site, and every #fragment an id on its target page."""

from __future__ import annotations

import posixpath
import re

from sitegen.base.errors import Problem

ATTR = re.compile(r'\s(?:href|src)="([^"]*)"')
IDS = re.compile(r'\sid="([^"]*)"')
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)


def _ids(html: str) -> set[str]:
    return set(IDS.findall(html))


# A page whose #fragment is its state (the compare page's picked results), not an id on it.
FRAGMENT_STATE = 'data-fragment-state'


def broken_links(files: dict[str, bytes]) -> list[Problem]:
    pages = {path: data.decode("utf-8") for path, data in files.items() if path.endswith(".html")}
    ids = {path: _ids(html) for path, html in pages.items() if FRAGMENT_STATE not in html}
    problems = []
    for path, html in sorted(pages.items()):
        for link in ATTR.findall(html):
            message = _check(path, link.replace("&amp;", "&"), files, ids)
            if message:
                problems.append(Problem(f"output/{path}", None, message))
    return problems


def _check(page: str, link: str, files: dict, ids: dict) -> str | None:
    if not link or EXTERNAL.match(link) or link.startswith("data:"):
        return None
    if link.startswith("/"):
        return f"link '{link}' is root-absolute; it breaks from disk and under a sub-path"
    target, _, fragment = link.partition("#")
    target = target.partition("?")[0]  # compare.html?add=<id>: the page is the file
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), target)) if target else page
    if resolved not in files:
        return f"link '{link}' names no file of the site"
    if fragment and resolved in ids and fragment not in ids[resolved]:
        return f"link '{link}': no id '{fragment}' on {resolved}"
    return None
