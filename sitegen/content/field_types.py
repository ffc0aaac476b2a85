"""Field types: one parser per kind of field, and parse_record to apply a table's.

A parser takes a raw value and returns the clean value or raises `Invalid` with a message an
editor can act on. A parser of localised text (`localised`) is given the site's languages too:
parse_record passes them on."""

from __future__ import annotations

import datetime as dt
import difflib
import re
import unicodedata

import webcolors

from sitegen.base import languages
from sitegen.base.languages import Languages

ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class Invalid(ValueError):
    pass


def ident(value):
    if not isinstance(value, str) or not ID_RE.match(value):
        raise Invalid(f"{value!r} is not an id (lowercase letters, digits, '.', '-', '_')")
    return value


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # as readers.CONTROL, after escapes
# What a YAML escape ("\uFFFE", "\ud800") can make that is no text either: noncharacters and
# lone surrogates (vl-convert aborted the whole process on U+FFFE in a chart's title).
NOT_TEXT = re.compile("[\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def bad_character(value: str) -> str | None:
    """Why `value` cannot be shown (a control character, a noncharacter), or None."""
    bad = CONTROL.search(value)
    if bad:
        return f"control character U+{ord(bad.group()):04X} in the text; remove it"
    bad = NOT_TEXT.search(value)
    if bad:
        return f"U+{ord(bad.group()):04X} in the text is no character; remove it"
    return None


def text(value):
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        raise Invalid(f"expected text, got {type(value).__name__}")
    if isinstance(value, (int, float)):
        raise Invalid(
            f"expected text, got the number {value!r}; put it in quotes (\"{value}\") if it is meant as text"
        )
    bad = bad_character(value)
    if bad:
        raise Invalid(bad)
    return value.strip()


# Bidirectional controls reorder the text after them (U+202E shows "abc" as "cba"); they and
# every other invisible format character (Unicode category Cf: U+00AD soft hyphen, U+200B
# zero-width space, U+FEFF) are refused in names, where no text of the site needs them.
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def invisible(value: str, where: str = "the name") -> str | None:
    """Why `value` cannot be a name (an invisible format character in it), or None."""
    if value.isascii():
        return None
    for char in value:
        if unicodedata.category(char) == "Cf":
            kind = "bidirectional control" if char in BIDI else "invisible format character"
            return f"{kind} U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')}) in {where}; remove it"
    return None


def name(value):
    """Text shown as a name or title: text() without invisible format characters."""
    value = text(value)
    bad = invisible(value)
    if bad:
        raise Invalid(bad)
    return value


def localised(parser):
    """Mark a parser that reads the site's languages: it is called with (value, languages)."""
    parser.localised = True
    return parser


def apply(parser, value, langs: Languages | None):
    """parser(value), with the site's languages for a localised parser."""
    if getattr(parser, "localised", False):  # (a list's or mapping's: whatever its items need)
        return parser(value, langs)
    return parser(value)


@localised
def lname(value, langs: Languages):
    """A localised name: ltext() whose every language is a name()."""
    out = ltext(value, langs)
    for lang, shown in out.items():
        bad = invisible(shown, f"the {lang} name")
        if bad:
            raise Invalid(bad)
    return out


def color(value):
    """A CSS colour a chart can fill with: #rgb, #rgba, #rrggbb, #rrggbbaa, or one of the 147
    colour names of CSS3 (webcolors' list; any case)."""
    value = text(value)
    if HEX_COLOR.match(value):
        return value
    try:
        webcolors.name_to_hex(value, spec=webcolors.CSS3)
    except ValueError:
        raise Invalid(
            f"{value!r} is not a CSS colour: write #rrggbb (or #rgb, #rrggbbaa) or a colour name such as teal"
        ) from None
    return value


HEX_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


def suggest(name: str, known) -> str:
    """' (did you mean 'x'?)' for the nearest known name, or ''."""
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


@localised
def ltext(value, langs: Languages):
    """Localised text: a mapping with one entry per written language of the site; a converted
    language's text is made from its source (an entry of its own wins). Text of a
    CJK language loses the spaces YAML folding puts between two CJK characters."""
    written = langs.written()
    if not isinstance(value, dict):
        raise Invalid(f"expected a mapping with {' and '.join(written)} text")
    missing = [lang for lang in written if lang not in value or value[lang] in (None, "")]
    if missing:
        raise Invalid(f"missing the {', '.join(missing)} text")
    out = {lang: langs.tidy(text(value[lang]), lang) for lang in written}
    for language in langs.converted():
        own = value.get(language.code)
        out[language.code] = (
            languages.tidy(text(own), language)
            if own not in (None, "")
            else langs.convert(out[str(language.source)], language.code)
        )
    return out


@localised
def ltext_or_same(value, langs: Languages):
    """Localised text (ltext), or one text shown as written in every language (a dataset's
    proper name, such as "ImageNet")."""
    if isinstance(value, dict):
        return ltext(value, langs)
    shown = text(value)
    return {code: shown for code in langs}


@localised
def language(value, langs: Languages):
    """A language code of the site (site.yaml's `languages`)."""
    if value not in langs.codes():
        raise Invalid(f"{value!r} is not one of: {', '.join(langs.codes())}")
    return value


def date(value):
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise Invalid(f"{value!r} is not a date (write YYYY-MM-DD)") from None


def number(value):
    if isinstance(value, bool):
        raise Invalid(f"{value!r} is not a number")
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise Invalid(f"{value!r} is not a number") from None
    if result != result or result in (float("inf"), float("-inf")):
        raise Invalid(f"{value!r} is not a finite number")
    if abs(result) > MAX_NUMBER:
        raise Invalid(f"{value!r} is too large to be a real figure")
    if 0 < abs(result) < MIN_NUMBER:
        raise Invalid(f"{value!r} is too small to be a real figure")
    return int(result) if isinstance(value, int) else result


MAX_NUMBER = 1e12  # larger than any price, count or specification the site shows
MIN_NUMBER = 1e-9  # smaller than any figure the site shows (and than number formats take)
MAX_TIME = 1e6  # minutes (or hours): no training run takes years
MIN_TIME = 1e-3  # minutes (or hours): nor a thousandth of one (the record's fastest: 0.1 min)


def positive(value):
    result = number(value)
    if result <= 0:
        raise Invalid(f"{value!r} must be greater than zero")
    return result


def time(value):
    """A measured time: greater than zero, and short enough to have happened."""
    result = positive(value)
    if result > MAX_TIME:
        raise Invalid(f"{value!r} is not a real time to train (over {MAX_TIME:,.0f})")
    if result < MIN_TIME:
        raise Invalid(f"{value!r} is not a real time to train (under {MIN_TIME:g})")
    return result


def count(value):
    result = positive(value)
    if result != int(result):
        raise Invalid(f"{value!r} must be a whole number")
    return int(result)


def whole(value):
    """A count that may be zero (failed runs, accelerators of a CPU-only system)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or value < 0:
        raise Invalid(f"{value!r} is not a whole number (0, 1, 2, ...)")
    return int(value)


def maybe(parser):
    """A list element that may be null (a run with no time)."""

    @localised
    def parse(value, langs=None):
        return None if value is None else apply(parser, value, langs)

    return parse


def boolean(value):
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("true", "yes"):
        return True
    if str(value).lower() in ("false", "no"):
        return False
    raise Invalid(f"{value!r} is not true or false")


def one_of(*choices):
    def parse(value):
        if value not in choices:
            raise Invalid(f"{value!r} is not one of: {', '.join(choices)}")
        return value

    return parse


def list_of(item):
    @localised
    def parse(value, langs=None):
        if isinstance(value, str):
            value = [v.strip() for v in value.split(";") if v.strip()]  # CSV cells: a;b;c
        if not isinstance(value, list):
            raise Invalid("expected a list")
        return [apply(item, v, langs) for v in value]

    return parse


def mapping(fields):
    """A nested record, checked with the same field table as a top-level one."""

    @localised
    def parse(value, langs=None):
        if not isinstance(value, dict):
            raise Invalid("expected a mapping")
        clean, errors = parse_record(value, fields, langs)
        if errors:
            raise Invalid("; ".join(errors))
        return clean

    return parse


def url(value):
    value = text(value)
    if not re.match(r"^https?://[^\s/]+", value):
        raise Invalid(f"{value!r} is not an http(s) URL")
    return value


def ref(table):
    """An id that must exist in `table`; the check itself runs once every table is read."""

    def parse(value):
        return ident(value)

    parse.ref_table = table
    return parse


def req(parser):
    return (True, parser)


def findings(value):
    """A report's findings: 2 to 4 short sentences, shown first on its page and on the home page."""
    items = list_of(text)(value)
    if not 2 <= len(items) <= 4:
        raise Invalid(f"expected 2 to 4 findings, got {len(items)}")
    return items


DIGEST = re.compile(r"^[0-9a-f]{8}$")


def written_from(value):
    """The Simplified text a Traditional Chinese file was written from: the digest of its
    source (written.review_digest), 8 hex digits in quotes (YAML reads 21404149 as a
    number): written_from: "3f2a9c1e"."""
    if not isinstance(value, str) or not DIGEST.match(value):
        raise Invalid(
            "expected the digest of the text this was written from, 8 hex digits in quotes "
            f'(python build.py status gives it), e.g. "3f2a9c1e"; got {value!r}'
        )
    return value


def opt(parser):
    return (False, parser)


def parse_record(raw: dict, fields: dict, langs: Languages | None = None) -> tuple[dict, list[str]]:
    """Clean a record by its field table; return (record, error messages). `langs`: the site's
    languages, which a table with localised fields needs."""
    clean: dict = {}
    errors: list[str] = []
    for name, (required, parser) in fields.items():
        value = raw.get(name)
        if value is None or value == "":
            if required:
                errors.append(f"missing required field '{name}'")
            clean[name] = None  # every record has every field, so templates need no guards
            continue
        try:
            clean[name] = apply(parser, value, langs)
        except Invalid as exc:
            errors.append(f"field '{name}': {exc}")
    unknown = sorted(str(k) for k in raw if k not in fields and k != "__line__")
    if unknown:
        hint = suggest(unknown[0], fields)
        errors.append(f"unknown field '{unknown[0]}'" + (hint or f" (known: {', '.join(fields)})"))
        # a misspelt required field is one mistake: its 'missing' message would repeat it
        errors = [e for e in errors if not (hint and e == f"missing required field {hint[15:-2]}")]
    return clean, errors
