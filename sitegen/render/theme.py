"""Stage 3: turn the model into files. Returns {output path: bytes}; writes nothing.

One jinja2 environment per build (load_site_theme); each page kind is declared in `kinds.py`."""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from sitegen.base import fmt, languages, urls
from sitegen.base.errors import ContentError, Problem
from sitegen.base.store import Store
from sitegen.content.model import Site
from sitegen.render.level_mark import level_mark
from sitegen.render.page import Page, cited_source_title, marked_source_title, source_name
from sitegen.render.references import rich_text


@dataclass
class Theme:
    env: jinja2.Environment
    folder: Path
    folders: tuple[Path, ...] = ()  # searched in order: a content folder's own templates first

    def file(self, rel: str) -> Path | None:
        """The first of the theme's folders that holds `rel`, as a path; None if none does."""
        for folder in self.folders or (self.folder,):
            if (folder / rel).is_file():
                return folder / rel
        return None


class TrackingEnvironment(jinja2.Environment):
    """Notes every template a page uses (extended, included and imported ones too) in the
    site's Reads, when one is given (content/tracking.py)."""

    def __init__(self, *args, reads=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.reads = reads

    def _load_template(self, name, globals):  # noqa: A002 - jinja2's signature
        if self.reads is not None:
            self.reads.note(("template",), name)
        return super()._load_template(name, globals)


class TemplateCache(jinja2.BytecodeCache):
    """Compiled templates kept in the build's store (jinja2's bytecode cache, the store's table
    `templates`; a build that renders a few pages spent a fifth of its time compiling them).
    jinja2 checks each entry against its template's source; the store seals each entry, so
    that a truncated or damaged one is compiled again, never run. A store that cannot be
    written (`check`'s read-only one, a full disk) only costs the compiling."""

    def __init__(self, store: Store | None):
        self.store = store  # None: nothing kept

    @staticmethod
    def key(bucket: jinja2.bccache.Bucket) -> str:
        return f"{jinja2.__version__}:{bucket.key}"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if self.store is not None:  # jinja2 asks once per template an environment loads
            self.store.work["templates loaded"] += 1
        blob = self.store.get("templates", self.key(bucket)) if self.store is not None else None
        if blob is not None:
            bucket.bytecode_from_string(blob)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if self.store is not None:  # jinja2 keeps only what it compiled
            self.store.work["templates compiled"] += 1
            self.store.put("templates", self.key(bucket), bucket.bytecode_to_string())


def load_theme(
    templates: Path, override: Path | None = None, reads=None, store: Store | None = None
) -> Theme:
    """The templates; `override` (a content folder's templates/) replaces single files of them.
    With `reads` (a site's tracking.Reads), every template a page uses is noted as read; with
    `store`, compiled templates are kept there."""
    folders = tuple(f for f in (override, templates) if f is not None and f.is_dir()) or (templates,)
    env = TrackingEnvironment(
        loader=jinja2.FileSystemLoader([str(f) for f in folders]),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # one environment per build: no stat per page
        bytecode_cache=TemplateCache(store),
        reads=reads,
    )
    return Theme(env, templates, folders)


def theme_dependency(theme: Theme, tag: tuple, key):
    """The current value of a dependency on the theme (content/tracking.py): a template's bytes,
    or all static files (inlined into single-file copies); tracking.MISSING when there is none."""
    from sitegen.content.tracking import MISSING

    if tag == ("template",):
        path = theme.file(key)
        return path.read_bytes() if path is not None else MISSING
    if tag == ("static",):
        return static_files(theme)
    return MISSING


# Full-width punctuation (CJK symbols, full-width forms) at the end of a string.
FULL_WIDTH_END = re.compile("[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]$")


class Strings:
    """Interface strings of one language; a missing key is a content error, not a blank."""

    def __init__(self, site: Site, lang: str):
        self.table = site.strings.get(lang, {})
        self.file = f"{site.root.name}/i18n/{lang}.yaml"
        self.missing: set[str] = set()
        self.language = site.languages.get(lang)
        self.cjk = self.language.cjk
        self.lang = lang

    def __call__(self, key: str, **values) -> str:
        if key not in self.table:
            self.missing.add(key)
            return key
        if not values:
            return self.table[key]
        text = self.table[languages.counted(self.table, key, values)]
        # a value given as markup (a name marked as its language) stays markup, the rest is
        # escaped; a value ending or starting in CJK (a name with a full-width bracket) must not
        # leave a space between two CJK characters
        marked = any(isinstance(value, Markup) for value in values.values())
        out = escape(text).format(**values) if marked else text.format(**values)
        out = languages.CJK_SPACE.sub("", out) if self.cjk else out
        return Markup(out) if marked else out

    def lead(self, key: str) -> str:
        """A string that introduces what follows it ("Download the data:", "下载数据："), with the
        space it needs before it: none after full-width punctuation."""
        text = self(key)
        return text if FULL_WIDTH_END.search(text) else text + " "

    def singular_attrs(self, names: dict[str, str]) -> Markup:
        """` data-msg-<name>-one="..."` for each {key: name} whose string has a singular form
        (`<key>_one`; none in Chinese): a script that fills in a count of one reads it."""
        forms = {name: self.table.get(key + languages.ONE) for key, name in names.items()}
        return Markup("".join(f' data-msg-{n}-one="{escape(text)}"' for n, text in forms.items() if text))


def base_context(site: Site, lang: str, path: str, t: Strings, title: str, model=None) -> dict:
    """What every page template gets: language, links to its twins, navigation, and the model
    of the record (derive/model.py), the only place templates read results' figures from."""
    link = lambda target: urls.relative(path, target)  # noqa: E731 - one-line closure
    langs = site.languages
    return {
        "lang": lang,
        "html_lang": langs.html_lang(lang),
        "path": path,
        "t": t,
        "link": link,
        "language": langs.get(lang),
        "gap": langs.gap(lang),  # between two sentences
        "site_languages": {language.code: language for language in langs.all},
        "search_fold": langs.needs_script_fold(),
        "title": title,
        "site": site,
        "site_title": site.config["title"][lang],
        "asset": lambda name: link(urls.asset(name)),
        "urls": urls,
        "fmt": fmt.ForSite(langs),
        "model": model,
        "source_name": lambda source: source_name(source, langs.html_lang(lang)),
        # a source's name in the page's language, else its title marked (content/model.py)
        "cited_source": lambda source: cited_source_title(source, lang),
        "source_title_marked": lambda source: marked_source_title(source, lang, langs.html_lang(lang)),
        # a submitter as the page's language writes it (data/companies.yaml)
        "company": lambda spelling: model.names.submitter(spelling, lang) if model else spelling,
        "twins": [
            (other, langs.html_lang(other), link(urls.twin(path, other)), langs.get(other).name)
            for other in site.other_languages(lang)
        ],
        "alternates": alternates(site, path),
        "canonical": absolute(site, path) if base_url(site) else None,
        "base_url": site.config.get("base_url"),
        "nav": _nav(lang, site.has_record()),
        "breadcrumbs": [],
        "has_charts": False,
        "noindex": False,
        "attribution": [],  # rounds of the MLPerf record a page shows (the footer credits them)
        # what a shared link to the page shows (templates/_meta.html; pages.py _shared_as)
        "share_description": site.config["tagline"][lang],
        "og_type": "website",
        "published": None,
        # data text may hold [[...]] figures; their ids are checked when the data is loaded
        "rich": lambda text: rich_text(text, Page(site, lang, path, model)),
        "quote_marks": lambda text: langs.quote_marks(text, lang),  # around a source's words
        "level_mark": level_mark,  # the results level with a fastest one, as a note names them
        "derived_unexplained": lambda main: site.has_record() and derived_unexplained(main),
    }


def derived_unexplained(main_html: str) -> bool:
    """Whether a page's main part shows a figure the site derives (class "derived") and no link
    to the methodology's section on how (#derived-figures): base.html then adds the label and the
    link, once."""
    return 'class="derived' in main_html and urls.DERIVED_ANCHOR not in main_html


def base_url(site) -> str | None:
    """site.yaml's base_url, ending in one slash; None when the site has none."""
    url = site.config.get("base_url")
    return url.rstrip("/") + "/" if url else None


def absolute(site, path: str) -> str:
    """The address of an output path on a site with a base URL."""
    base = base_url(site)
    assert base is not None, "an absolute address needs site.yaml's base_url"
    return base + path


def alternates(site: Site, path: str) -> list[tuple[str, str]]:
    """(hreflang, href) of the page in every language and x-default (the default language);
    absolute when the site has a base URL, else relative to the page."""
    href = (
        (lambda target: absolute(site, target))
        if base_url(site)
        else (lambda target: urls.relative(path, target))
    )
    default = urls.twin(path, site.config["default_language"])
    return [(site.languages.html_lang(code), href(urls.twin(path, code))) for code in site.languages] + [
        ("x-default", href(default))
    ]


def _nav(lang: str, rounds: bool) -> list[tuple[str, str]]:
    """The main navigation; MLPerf rounds when the site has the whole record."""
    record = (
        [
            ("nav.rounds", urls.rounds(lang)),
            ("nav.explore", urls.explore(lang)),
            ("nav.compare", urls.compare_results(lang)),
        ]
        if rounds
        else []
    )
    return [
        ("nav.home", urls.home(lang)),
        ("nav.reports", urls.reports(lang)),
        ("nav.systems", urls.systems(lang)),
        ("nav.benchmarks", urls.benchmarks(lang)),
        *record,
        ("nav.claims", urls.claims(lang)),
        ("nav.sources", urls.sources(lang)),
        ("nav.methodology", urls.methodology(lang)),
        ("nav.glossary", urls.glossary(lang)),
    ]


def render_template(theme: Theme, name: str, context: dict) -> bytes:
    try:  # an included template is compiled while the page renders
        return theme.env.get_template(name).render(**context).encode("utf-8")
    except jinja2.TemplateSyntaxError as exc:
        raise ContentError(
            [
                Problem(
                    template_path(theme, exc.filename or exc.name or name),
                    exc.lineno,
                    f"template syntax error: {exc.message}",
                )
            ]
        ) from None
    except jinja2.TemplateError as exc:  # a value or a template that is not there
        raise ContentError([template_problem(theme, name, exc)]) from None


def template_problem(theme: Theme, name: str, exc: jinja2.TemplateError) -> Problem:
    """A template's fault at its file and line (the last template in the traceback: jinja2
    gives its frames the template's file and line); a page template missing altogether is
    named as the file the generator looked for."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if _in_theme(theme, f.filename)]
    if isinstance(exc, jinja2.TemplateNotFound):
        searched = ", ".join(template_path(theme, str(f)) for f in theme.folders or (theme.folder,))
        message = f"template '{exc.name}' not found (searched: {searched})"
    else:
        message = f"template error: {exc.message or type(exc).__name__}"
    if frames:
        return Problem(template_path(theme, frames[-1].filename), frames[-1].lineno, message)
    return Problem(template_path(theme, str(theme.folder / name)), None, message)


def _in_theme(theme: Theme, filename: str) -> bool:
    return any(Path(filename).is_relative_to(f) for f in theme.folders or (theme.folder,))


def template_path(theme: Theme, filename: str) -> str:
    """A template file as the editor knows it: `content/templates/base.html` for a content
    folder's own template, `templates/base.html` for the shipped ones."""
    path = Path(filename)
    for folder in theme.folders or (theme.folder,):
        try:
            rel = path.relative_to(folder)
        except ValueError:
            continue
        owner = folder.parent if (folder.parent / "site.yaml").is_file() else None
        return (Path(owner.name if owner else "", folder.name, rel)).as_posix()
    return path.as_posix()


def static_files(theme: Theme) -> dict[str, bytes]:
    """templates/static/* copied to output/assets/, byte for byte (an overriding folder's
    file replaces the one of the same name)."""
    files = {}
    for theme_folder in reversed(theme.folders or (theme.folder,)):
        folder = theme_folder / "static"
        for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
            if path.is_file():
                files[urls.asset(path.relative_to(folder).as_posix())] = path.read_bytes()
    return dict(sorted(files.items()))


def missing_strings(all_strings: list[Strings]) -> None:
    problems = [
        Problem(s.file, None, f"missing interface string '{key}': add it to this file")
        for s in all_strings
        for key in sorted(s.missing)
    ]
    if problems:
        raise ContentError(problems)
