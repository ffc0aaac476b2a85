"""The page a body or data text is drawn on (Page), and what every data reference looks up.

Records and results by id (a problem at the line when unknown), links relative to the page,
the interface strings of its language."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING

from markupsafe import Markup

from sitegen.base import languages, urls
from sitegen.base.errors import Problem
from sitegen.base.languages import Language
from sitegen.content.field_types import suggest
from sitegen.content.model import source_title

if TYPE_CHECKING:
    from sitegen.content.model import Site
    from sitegen.derive.model import Model


@dataclass
class Page:
    """What a shortcode needs to know about the page it lands on."""

    site: Site
    lang: str
    path: str
    model: Model  # derive/model.py: the record and every figure derived from it
    file: str = ""
    first_line: int = 1
    problems: list = field(default_factory=list)
    files: dict = field(default_factory=dict)  # extra output files a block made (chart data, SVG)
    has_charts: bool = False
    cacheable: bool = True  # False when the body uses files outside the data (local images)
    named: set = field(default_factory=set)  # companies named with their Latin name (render/names.py)
    said: set = field(default_factory=set)  # asides written in the paragraph being drawn (ref.unscored)

    @property
    def language(self) -> Language:
        """The page's language, as the site defines it (what fmt's functions take)."""
        return self.site.languages.get(self.lang)

    @property
    def checks(self) -> Mapping:
        """The claims' checks (their verdicts and arithmetic), by claim id."""
        return self.model.claims

    def link(self, target: str) -> str:
        return urls.relative(self.path, target)

    def fail(self, line: int, message: str) -> str:
        self.problems.append(Problem(self.file, line, message))
        return ""

    def warn(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message, warning=True))


def table_record(page: Page, table: str, ident: str, line: int) -> dict | None:
    record = page.site.tables.get(table, {}).get(ident)
    if record is None:
        page.fail(
            line,
            f"unknown {table[:-1]} '{ident}' in [[...]]" + suggest(ident, page.site.tables.get(table, {})),
        )
    return record


def any_result(page: Page, ident: str, line: int) -> dict | None:
    """A curated result, or else any scored result of the whole record."""
    found = page.model.system_results.get(ident) or page.model.record.get(ident)
    if found is not None and found.get("value") is None:
        page.fail(line, f"result '{ident}' has its logs missing: it has no official time to show in [[...]]")
        return None
    if found is None:
        page.fail(line, f"unknown result '{ident}' in [[...]]" + suggest(ident, page.model.system_results))
        return None
    return found


def result_pair(page: Page, arg: str, line: int):
    left, _, right = arg.partition("/")
    a, b = any_result(page, left, line), any_result(page, right, line)
    return (a, b) if a and b else (None, None)


def link(page: Page, target: str, text: str, title: str = "") -> str:
    title_attr = f' title="{escape(title)}"' if title else ""
    return f'<a href="{escape(page.link(target))}"{title_attr}>{escape(text)}</a>'


def strings(page):
    return page.site.strings[page.lang]


def say(page, key: str, **values) -> str:
    table = strings(page)
    return table[languages.counted(table, key, values)].format(**values)


def source_name(source: dict | None, page_lang: str) -> Markup | str:
    """A source's publisher as it writes it, marked as its language when that is not the
    page's (`page_lang`, an HTML lang): a Simplified name stays Simplified on a Traditional
    page, and is read and drawn as such."""
    if not source:
        return "–"
    return _marked(source["publisher"], source["language"], page_lang)


def marked_source_title(source: dict, lang: str, page_lang: str) -> Markup | str:
    """A source's name on a page in `lang` (content/model.py): the site's own name for it in
    that language, else its title marked as its language when that is not the page's."""
    text, written_in = source_title(source, lang)
    return text if written_in is None else _marked(text, written_in, page_lang)


def cited_source_title(source: dict, lang: str) -> Markup:
    """A source's name as a <cite> on a page in `lang` (content/model.py): the site's own name
    for it, else its title marked as its language (always: it is the work's own words)."""
    text, written_in = source_title(source, lang)
    if written_in is None:
        return Markup("<cite>{}</cite>").format(text)
    return Markup('<cite lang="{}">{}</cite>').format(written_in, text)


def _marked(text: str, written_in: str, page_lang: str) -> Markup | str:
    if written_in == page_lang:
        return text
    return Markup('<span lang="{}">{}</span>').format(written_in, text)
