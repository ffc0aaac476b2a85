"""The languages of a site, as data: content/site.yaml's `languages` defines them (code, `lang`
attribute, Babel locale, name, direction, and whether editors write the text or it is converted
from another language). Loading makes one immutable `Languages` of a site's languages and term
list (content/load.py), carried on the Site (site.languages): whatever needs a language's facts
is given it or one of its `Language`s, never module state, so that two sites with different
languages load in one process. `KNOWN` is a read-only table."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from sitegen.base.conversions import Conversions

CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")
# CJK ideographs, kana, CJK and full-width punctuation: no ASCII space between two of these.
CJK_CLASS = "\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0002ffff"
CJK_SPACE = re.compile(f"(?<=[{CJK_CLASS}])[ \t\r\n]+(?=[{CJK_CLASS}])")
# A space between a CJK character and a curly quotation mark (YAML folding puts one there), or
# after full-width punctuation before anything (a Latin name: "框架； Graphcore").
QUOTE_SPACE = re.compile(
    f"(?<=[{CJK_CLASS}])[ \t\r\n]+(?=[“‘])|(?<=[”’])[ \t\r\n]+(?=[{CJK_CLASS}])"
    "|(?<=[，。、；：？！）」』】〕］])(?=[ \t\r\n])[ \t]*\r?\n?[ \t]*(?=\\S)"  # not a paragraph break
)


def script_of(tag: str) -> str:
    """The script subtag of an HTML lang tag (zh-Hant -> Hant); "" when it names none."""
    return next((part for part in tag.split("-")[1:] if len(part) == 4), "")


@dataclass(frozen=True)
class Language:
    code: str  # URL prefix and file suffix: en/…, reports/<slug>.en.md, i18n/en.yaml
    lang: str  # the HTML lang and hreflang attribute (BCP 47: en, zh-Hans, zh-Hant)
    locale: str  # Babel locale for numbers and dates
    name: str  # its own name, in its own script
    dir: str = "ltr"
    source: str | None = None  # None: written by editors; else the code it is converted from
    convert: str | None = None  # the converter's configuration (OpenCC: s2twp)

    @property
    def script(self) -> str:
        return script_of(self.lang)

    @property
    def chinese(self) -> bool:
        return self.locale.split("_")[0] == "zh"

    @property
    def cjk(self) -> bool:
        return self.locale.split("_")[0] in ("zh", "ja", "ko")

    @property
    def og_locale(self) -> str:
        """Open Graph's locale: language_TERRITORY (zh_Hant_TW -> zh_TW)."""
        parts = self.locale.split("_")
        return f"{parts[0]}_{parts[-1]}" if len(parts) > 1 else parts[0]


# What `languages: [en, zh]` (the short form, in sites made before languages were data) means.
KNOWN = MappingProxyType(
    {
        "en": Language("en", "en", "en_US", "English"),
        "zh": Language("zh", "zh-Hans", "zh_Hans_CN", "简体中文"),
        "zh-hant": Language("zh-hant", "zh-Hant", "zh_Hant_TW", "繁體中文", source="zh", convert="s2twp"),
    }
)
DEFAULT = ("en", "zh")
# English: the language data keys fall back to, messages to editors and the downloads' columns use.
ENGLISH = "en"
SOURCE_TAGS = ("en", "zh-Hans", "zh-Hant")  # what a cited source may be written in (sources.yaml)
FIELDS = {"code", "lang", "locale", "name", "dir", "from", "convert"}


def parse(raw) -> list[Language]:
    """site.yaml's `languages`: codes of known languages, or mappings with every field.
    Raises ValueError with a message an editor can act on."""
    if not isinstance(raw, list) or not raw:
        raise ValueError("'languages' must be a list of languages")
    found = [_one(item) for item in raw]
    codes = [language.code for language in found]
    for language in found:
        if codes.count(language.code) > 1:
            raise ValueError(f"language '{language.code}' is listed twice")
        if language.source and language.source not in codes:
            raise ValueError(
                f"language '{language.code}' is converted from '{language.source}', "
                "which is not among the languages"
            )
        if language.source and not language.convert:
            raise ValueError(f"language '{language.code}': 'from' needs 'convert' (for example s2twp)")
    return found


def _one(item) -> Language:
    if isinstance(item, str):
        if item not in KNOWN:
            raise ValueError(
                f"unknown language '{item}': write it out as a mapping with {', '.join(sorted(FIELDS))}"
            )
        return KNOWN[item]
    if not isinstance(item, dict):
        raise ValueError("each language is a code or a mapping")
    item = {k: v for k, v in item.items() if not str(k).startswith("__")}
    unknown = set(item) - FIELDS
    missing = {"code", "lang", "locale", "name"} - set(item)
    if unknown or missing:
        raise ValueError(
            f"language {item.get('code', '?')!r}: "
            + (f"unknown field '{sorted(unknown)[0]}'" if unknown else f"missing '{sorted(missing)[0]}'")
        )
    if not CODE.match(str(item["code"])):
        raise ValueError(f"language code {item['code']!r}: lowercase letters and '-' (it is the URL prefix)")
    _check_locale(str(item["locale"]))
    if item.get("dir", "ltr") not in ("ltr", "rtl"):
        raise ValueError(f"language '{item['code']}': dir is ltr or rtl")
    return Language(
        str(item["code"]),
        str(item["lang"]),
        str(item["locale"]),
        str(item["name"]),
        item.get("dir", "ltr"),
        item.get("from"),
        item.get("convert"),
    )


def _check_locale(locale: str) -> None:
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(locale)
    except (UnknownLocaleError, ValueError):
        raise ValueError(f"unknown Babel locale '{locale}'") from None


@dataclass(frozen=True)
class Languages(Sequence[str]):
    """One site's languages, in site.yaml's order, and its reviewed term list (the converter's
    results are corrected with it). As a sequence it is the languages' codes."""

    all: tuple[Language, ...]
    terms: tuple[tuple[tuple[str, str], ...], ...] = ()  # the term list's rows: ((lang, term), ...)
    rows: tuple[dict, ...] = field(default=(), compare=False, repr=False)  # data/terms.csv, as read
    # the load's converted text (its store's, and what it converts): made with the value
    conversions: Conversions = field(default_factory=lambda: Conversions(), compare=False, repr=False)

    @classmethod
    def of(cls, found: Iterable[Language], rows: Iterable[dict] = (), store=None) -> Languages:
        """`store`: where conversions are kept between loads (None: nowhere)."""
        rows = tuple(rows)
        pairs = (
            sorted((k, str(v)) for k, v in row.items() if isinstance(k, str) and k[:1] != "_" and v)
            for row in rows
        )
        return cls(tuple(found), tuple(tuple(pair) for pair in pairs), rows, Conversions(store))

    @classmethod
    def default(cls) -> Languages:
        """What a site without a readable site.yaml has (DEFAULT)."""
        return cls.of(KNOWN[code] for code in DEFAULT)

    def __getitem__(self, index):  # type: ignore[override]
        return self.codes()[index]

    def __iter__(self) -> Iterator[str]:
        # the codes made once, not once an item (Sequence's __iter__ indexes until IndexError,
        # and __contains__ iterates: the sitemap asked 6,700 times at N = 1,000)
        return iter(self.codes())

    def __len__(self) -> int:
        return len(self.all)

    def signature(self) -> str:
        """What parsing localised text depends on (parsecache.py keys a parse by it)."""
        return repr((self.all, self.terms))

    def get(self, code: str) -> Language:
        """The site's language `code` (else the known one: a built-in table's English)."""
        return next((language for language in self.all if language.code == code), None) or KNOWN[code]

    def codes(self) -> tuple[str, ...]:
        return tuple(language.code for language in self.all)

    def written(self) -> tuple[str, ...]:
        return tuple(language.code for language in self.all if not language.source)

    def converted(self) -> tuple[Language, ...]:
        return tuple(language for language in self.all if language.source)

    def gap(self, code: str) -> str:
        return gap(self.get(code))

    def html_lang(self, code: str) -> str:
        return self.get(code).lang

    def tidy(self, text: str, code: str) -> str:
        return tidy(text, self.get(code))

    def quote_marks(self, text: str, code: str) -> tuple[str, str]:
        return quote_marks(text, self.get(code))

    def needs_script_fold(self) -> bool:
        """Whether a site with these languages folds Chinese scripts in its search."""
        return any(language.chinese for language in self.all)

    def convert(self, text: str, code: str) -> str:
        """`text` of the language `code` is converted from, in `code`'s script, with the
        reviewed terms applied after the converter (and, for Traditional Chinese, its quotation
        marks: traditional_quotes)."""
        language = self.get(code)
        assert language.source is not None, f"{code} is written, not converted"
        key = (language.convert, self.get(language.source).lang, language.lang, self.terms)
        kept = self.conversions.of(key)
        out = kept.known.get(text)
        if out is None:
            out = _convert(text, language.convert, _fixes(*key))
            self.conversions.made += 1
            out = traditional_quotes(out) if language.lang.startswith("zh-Hant") else out
        kept.used[text] = out
        return out


ONE = "_one"  # the suffix of an interface string's singular form


def counted(table, key: str, values: dict) -> str:
    """The key of an interface string for these values: its singular form (`<key>_one`) when
    the count (`n`, else `count`) is one and the language has that form (English does; Chinese
    needs none), else the key itself."""
    count = values.get("n", values.get("count"))
    return key + ONE if count is not None and str(count) == "1" and key + ONE in table else key


def gap(language: Language) -> str:
    """The space between two sentences or a name and its note: none in CJK text."""
    return "" if language.cjk else " "


def tidy(text: str, language: Language) -> str:
    """Text of a CJK language without the ASCII spaces YAML folding or a careless edit put
    between two CJK characters or after full-width punctuation."""
    return QUOTE_SPACE.sub("", CJK_SPACE.sub("", text)) if language.cjk else text


# What the quotation pass never looks inside: fenced and inline code, [[kind:id]] references,
# {placeholders}, HTML tags, Markdown link targets and bare URLs. Each is masked by one
# private-use character while quotations are found, then put back.
KEEP = re.compile(
    r"```.*?```|`[^`\n]*`|\[\[[^\]]*\]\]|\{[A-Za-z_][\w.]*\}|<[^<>\n]*>"
    r"|\]\([^)\s]*\)|(?:https?|ftp|mailto):[^\s<>)\]」』，。；：]+",
    re.S,
)
_MASK = "\ue000"
_DOUBLE = re.compile("“([^“”]*)”")
_SINGLE = re.compile("‘([^‘’]*)’")
_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff]")
_ENGLISH_WORD = re.compile("(?<![A-Za-z])[a-z]{2,}(?![A-Za-z])")
_NAME = re.compile(r"\S*\d\S*")  # one token with a digit: a name (“V100”, a folder “ipu-pod128”)


def english_quotation(content: str) -> bool:
    """A quotation of English text as written (an English word in lower case, no Chinese
    character, and not one token with a digit: “half the price”, not a name such as “V100”
    or a folder's “ipu-pod128”): it keeps its “” marks in Traditional Chinese text, as the
    English source printed them."""
    return bool(_ENGLISH_WORD.search(content)) and not _HAN.search(content) and not _NAME.fullmatch(content)


def quote_marks(text: str, language: Language) -> tuple[str, str]:
    """The marks `language` quotes `text` with: 「」 in Traditional Chinese (but “” for a
    quotation of English text as written), “” otherwise."""
    if language.lang.startswith("zh-Hant") and not english_quotation(text):
        return "「", "」"
    return "“", "”"


def traditional_quotes(text: str) -> str:
    """Taiwan's quotation marks: “…” becomes 「…」 and ‘…’ inside it 『…』 (a ‘…’ pair of its
    own, holding Chinese, becomes 「…」 too). Code, URLs, references, placeholders and tags are
    never touched, nor straight quotes (inches, code), nor a quotation of English text."""
    if "“" not in text and "‘" not in text:
        return text
    kept: list[str] = []

    def mask(match):
        kept.append(match.group(0))
        return _MASK

    masked = KEEP.sub(mask, text)

    def double(match):
        content = match.group(1)
        if english_quotation(content.replace(_MASK, "")):
            return match.group(0)
        return "「" + _SINGLE.sub(r"『\1』", content) + "」"

    def single(match):
        return "「" + match.group(1) + "」" if _HAN.search(match.group(1)) else match.group(0)

    out = _SINGLE.sub(single, _DOUBLE.sub(double, masked))
    pieces = iter(kept)
    return re.sub(_MASK, lambda _: next(pieces), out)


@functools.lru_cache(maxsize=16)
def _fixes(config: str, source: str, target: str, terms: tuple) -> tuple[tuple[str, str], ...]:
    """(what the converter makes of a source term, the reviewed term) where they differ,
    longest first so that a longer term wins over a part of it."""
    pairs = {}
    for row in terms:
        row = dict(row)
        if row.get(source) and row.get(target):
            machine = _converter(config).convert(row[source])
            if machine != row[target]:
                pairs[machine] = row[target]
    return tuple(sorted(pairs.items(), key=lambda pair: -len(pair[0])))


@functools.lru_cache(maxsize=65536)
def _convert(text: str, config: str, fixes: tuple) -> str:
    """OpenCC's conversion, then the term list's fixes in one pass (the longest match first at
    each place), so that one fix never rewrites another's output (物件偵測 kept from 对象)."""
    if not text:
        return text
    out = _converter(config).convert(text)
    found = _fix_pattern(fixes)
    return found[0].sub(lambda m: found[1][m.group(0)], out) if found else out


@functools.lru_cache(maxsize=8)
def _fix_pattern(fixes: tuple) -> tuple[re.Pattern, dict[str, str]] | None:
    """One alternation of every fix's machine form, longest first, and each one's reviewed form."""
    if not fixes:
        return None
    table = dict(fixes)
    ordered = sorted(table, key=lambda machine: (-len(machine), machine))
    return re.compile("|".join(map(re.escape, ordered))), table


@functools.lru_cache(maxsize=8)
def _converter(config: str):
    import opencc

    return opencc.OpenCC(config if config.endswith(".json") else config)


# The ideographs search folds: the unified block and the compatibility ideographs.
FOLDED = ((0x4E00, 0xA000), (0xF900, 0xFB00))


@functools.lru_cache(maxsize=1)
def script_fold() -> tuple[tuple[str, str], ...]:
    """(Traditional or Taiwan-variant character, its Simplified form) for every ideograph that
    OpenCC's tw2s turns into one other character. Search folds documents and queries with it
    (templates/static/search.js), so that a term typed in either script finds both."""
    chars = [chr(cp) for start, end in FOLDED for cp in range(start, end)]
    simplified = _converter("tw2s").convert("\n".join(chars)).split("\n")
    if len(simplified) != len(chars):  # the converter joined or split a line: go slowly
        simplified = [_converter("tw2s").convert(ch) for ch in chars]
    return tuple((ch, s) for ch, s in zip(chars, simplified) if s != ch and len(s) == 1)
