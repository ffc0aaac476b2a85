"""Links and references in the built site, read from the files (no browser).

Every internal reference is relative, names an existing file (never a folder), and its #fragment
exists on the target page; nothing is loaded from outside the site; each language's pages say
their language and point to their twins."""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from lxml import etree

from .quality_tools import HTML_LANG, LANGS, html_pages

EXTERNAL = ("http:", "https:", "mailto:", "tel:")
INLINE = ("data:",)
# Attributes that make the browser load something (as opposed to links a reader follows).
LOADING_ATTRS = {"src", "srcset", "poster", "data"}
# <link rel> values that only describe a relation and load nothing; any other <link> loads.
METADATA_RELS = {"canonical", "alternate"}
# Inside inline SVG, these elements load their href.
SVG_LOADING = {"image", "use", "feimage", "script"}
CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)""", re.I)
CSS_IMPORT = re.compile(r"""@import\s+(?:"([^"]*)"|'([^']*)')""", re.I)


@dataclass
class Ref:
    tag: str
    attr: str
    value: str
    line: int  # where its start tag ends (libxml2's line)
    loads: bool


@dataclass
class Parsed:
    lang: str | None = None
    ids: set[str] = field(default_factory=set)
    refs: list[Ref] = field(default_factory=list)
    css: list[tuple[str, int]] = field(default_factory=list)  # (css text, line)
    alternates: list[tuple[str, str]] = field(default_factory=list)  # (hreflang, href)
    fragment_state: bool = False  # its #fragment is state (the compare page), not an id


def _element(page: Parsed, tag: str, a: dict[str, str], line: int) -> None:
    """What one element (its attributes `a`, its start tag on `line`) adds to the page."""
    if tag == "html":
        page.lang = a.get("lang")
    if "id" in a:
        page.ids.add(a["id"])
    if "data-fragment-state" in a:
        page.fragment_state = True
    if tag == "a" and "name" in a:
        page.ids.add(a["name"])
    if "style" in a:
        page.css.append((a["style"], line))
    rels = set(a.get("rel", "").lower().split())
    if tag == "link" and "alternate" in rels and "hreflang" in a:
        page.alternates.append((a["hreflang"], a.get("href", "")))
    for name, value in a.items():
        if name == "srcset":
            for candidate in value.split(","):
                if candidate.strip():
                    page.refs.append(Ref(tag, name, candidate.split()[0], line, True))
        elif name in LOADING_ATTRS and not (name == "data" and tag != "object"):
            page.refs.append(Ref(tag, name, value, line, True))
        elif name in ("href", "xlink:href", "action"):
            loads = (tag == "link" and not rels <= METADATA_RELS) or (tag in SVG_LOADING and name != "action")
            page.refs.append(Ref(tag, name, value, line, loads))


def parse(path: Path) -> Parsed:
    """The page's language, ids, references, CSS and alternates, read by libxml2's HTML parser
    (lxml; five times as fast as the standard library's over the whole site)."""
    page = Parsed()
    tree = etree.parse(str(path), etree.HTMLParser(encoding="utf-8"))
    for element in tree.iter():
        if not isinstance(element.tag, str):
            continue  # a comment or processing instruction
        tag = element.tag.lower()
        _element(page, tag, {k.lower(): v for k, v in element.attrib.items()}, element.sourceline)
        if tag == "style" and element.text:
            page.css.append((element.text, element.sourceline))
    return page


class Site:
    def __init__(self, root: Path):
        self.root = root
        self.pages = {rel: parse(root / rel) for rel in html_pages(root)}
        # every file and folder of the site, listed once (a link is looked up, not stat()ed)
        self.files: set[str] = set()
        self.folders: set[str] = {"."}
        for folder, subfolders, files in os.walk(root):
            here = Path(folder).relative_to(root).as_posix()
            self.folders.update(posixpath.join(here, name) if here != "." else name for name in subfolders)
            self.files.update(posixpath.join(here, name) if here != "." else name for name in files)

    @cached_property
    def css_files(self) -> dict[str, str]:
        return {
            p.relative_to(self.root).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(self.root.rglob("*.css"))
        }

    def resolve(self, from_file: str, link: str) -> tuple[str | None, str | None, str | None]:
        """(target path relative to the site, fragment, problem) of an internal link."""
        parts = urlsplit(link)
        path, fragment = unquote(parts.path), unquote(parts.fragment) if "#" in link else None
        if link == "":
            return None, None, "empty link"
        if link.startswith("//"):
            return None, None, "protocol-relative link (loads from outside the site)"
        if path.startswith("/"):
            return None, None, "root-absolute link (breaks under file:// and sub-paths)"
        if not path:
            if fragment == "":
                return None, None, "empty fragment '#'"
            return from_file, fragment, None
        if path.endswith("/"):
            return None, None, "link names a folder (ends with /), not a file"
        target = posixpath.normpath(posixpath.join(posixpath.dirname(from_file), path))
        if target == ".." or target.startswith("../"):
            return None, None, "link leaves the site"
        if target in self.folders:
            return None, None, f"names a folder ({target}), not a file"
        if target not in self.files:
            return None, None, f"{target} does not exist"
        if fragment == "":
            return None, None, "empty fragment '#'"
        return target, fragment, None


@pytest.fixture(scope="module")
def site(shipped_site) -> Site:
    site = Site(shipped_site)
    assert site.pages, "the shipped site has no HTML pages"
    return site


def scheme_of(value: str) -> str | None:
    match = re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*):", value.strip())
    return match.group(1).lower() + ":" if match else None


def fail_with(problems: list[str], what: str, limit: int = 80) -> None:
    if problems:
        shown = "\n".join(f"  {p}" for p in problems[:limit])
        more = f"\n  ... and {len(problems) - limit} more" if len(problems) > limit else ""
        pytest.fail(f"{len(problems)} {what}:\n{shown}{more}", pytrace=False)


def test_internal_links_resolve_to_files_and_fragments(site):
    found: dict[str, list[str]] = {}  # problem -> where (grouped: one template bug, many pages)
    for rel, page in site.pages.items():
        for ref in page.refs:
            value = ref.value.strip()
            scheme = scheme_of(value)
            if scheme in EXTERNAL or scheme in INLINE or (ref.attr == "action" and value in ("", "#")):
                continue
            what = f"<{ref.tag} {ref.attr}={ref.value!r}>"
            if scheme:
                problem = f"{what}: unexpected URL scheme {scheme}"
            else:
                target, fragment, problem = site.resolve(rel, value)
                if problem:
                    problem = f"{what}: {problem}"
                elif (
                    fragment
                    and target.endswith(".html")
                    and fragment not in site.pages[target].ids
                    and not site.pages[target].fragment_state
                ):
                    problem = f"{what}: no id={fragment!r} on {target}"
            if problem:
                found.setdefault(problem, []).append(f"{rel}:{ref.line}")
    problems = []
    for problem, places in sorted(found.items(), key=lambda item: (-len(item[1]), item[0])):
        more = f" and {len(places) - 3} more" if len(places) > 3 else ""
        problems.append(f"{problem}  (in {', '.join(places[:3])}{more})")
    fail_with(problems, "kind(s) of broken internal reference")


def _css_urls(text: str):
    for match in CSS_URL.finditer(text):
        yield next(g for g in match.groups() if g is not None)
    for match in CSS_IMPORT.finditer(text):
        yield next(g for g in match.groups() if g is not None)


def test_nothing_is_loaded_from_outside_the_site(site):
    """Offline: no src, srcset, loading <link href> or CSS url()/@import names another host.
    (<link rel=canonical|alternate> load nothing and may be absolute.)"""
    problems = []
    for rel, page in site.pages.items():
        for ref in page.refs:
            if ref.loads and (scheme_of(ref.value) in ("http:", "https:") or ref.value.startswith("//")):
                problems.append(f"{rel}:{ref.line}: <{ref.tag} {ref.attr}={ref.value!r}> loads from outside")
        for text, line in page.css:
            for url in _css_urls(text):
                if scheme_of(url) in ("http:", "https:") or url.startswith("//"):
                    problems.append(f"{rel}:{line}: CSS url({url}) loads from outside")
    for rel, text in site.css_files.items():
        for url in _css_urls(text):
            if scheme_of(url) in ("http:", "https:") or url.startswith("//"):
                problems.append(f"{rel}: CSS url({url}) loads from outside")
    fail_with(problems, "reference(s) to outside the site")


def test_css_urls_resolve(site):
    """url() in stylesheets, <style> and style="" name existing files of the site."""
    sheets = [(rel, text, None) for rel, text in site.css_files.items()]
    sheets += [(rel, text, line) for rel, page in site.pages.items() for text, line in page.css]
    problems = []
    for rel, text, line in sheets:
        for url in _css_urls(text):
            if scheme_of(url) or url.startswith(("#", "//")):
                continue  # data: and the like; outside URLs fail the test above
            _, _, problem = site.resolve(rel, url)
            if problem:
                problems.append(f"{rel}{f':{line}' if line else ''}: url({url}): {problem}")
    fail_with(problems, "broken CSS url(s)")


def test_html_lang_matches_the_language_folder(site):
    problems = []
    for rel, page in site.pages.items():
        folder = rel.split("/", 1)[0]
        want = HTML_LANG.get(folder) if "/" in rel else None
        if want and page.lang != want:
            problems.append(f"{rel}: <html lang={page.lang!r}>, expected {want!r}")
        elif not want and not page.lang:
            problems.append(f"{rel}: <html> has no lang")
    fail_with(problems, "page(s) with a wrong <html lang>")


def test_every_page_links_to_both_language_versions(site):
    """<link rel=alternate hreflang> for en and zh-Hans on every language page (and the root
    chooser), each naming an existing file: the twin, at the same path in the other folder."""
    problems = []
    for rel, page in site.pages.items():
        folder = rel.split("/", 1)[0]
        if folder not in LANGS and rel != "index.html":
            continue  # root pages other than the chooser (the static hosts' 404) stand alone
        found = dict(page.alternates)
        for lang in LANGS:
            code = HTML_LANG[lang]
            if code not in found:
                problems.append(f"{rel}: no <link rel=alternate hreflang={code}>")
                continue
            target, _, problem = site.resolve(rel, found[code])
            if problem:
                problems.append(f"{rel}: hreflang={code} href={found[code]!r}: {problem}")
            elif folder in LANGS and target != f"{lang}/{rel.split('/', 1)[1]}":
                problems.append(f"{rel}: hreflang={code} points to {target}, not its twin")
            elif folder not in LANGS and not target.startswith(f"{lang}/"):
                problems.append(f"{rel}: hreflang={code} points to {target}, not a {lang} page")
    fail_with(problems, "missing or wrong language alternate(s)")
