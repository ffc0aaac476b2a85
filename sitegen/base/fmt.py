"""Numbers, money, durations and dates per language, through Babel (never setlocale).

Each function takes the `Language` it writes for (site.languages.get(code)): what it reads of
it (the locale) is part of what its cache remembers, so two sites' languages never mix."""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from sitegen.base import languages
from sitegen.base.languages import Language, Languages

# Babel's long unit names are broken for Chinese; the short forms read naturally in both.
DURATION_UNITS = {"min": "duration-minute", "h": "duration-hour"}
# the space (plain, no-break or narrow) between a digit and a CJK unit
NUMBER_UNIT_SPACE = re.compile(f"(?<=[0-9])[ \u00a0\u202f]+(?=[{languages.CJK_CLASS}])")
# Formatting goes through Babel, which re-parses its pattern on every call; a big site formats
# the same few figures thousands of times, so each formatter remembers its answers.


def decimals_of(value: float) -> int:
    """How many decimals a figure was written with (24 -> 0, 5.67 -> 2)."""
    text = repr(float(value)).rstrip("0").rstrip(".")
    return len(text.split(".")[1]) if "." in text else 0


@functools.lru_cache(maxsize=8192)
def number(value: float, lang: Language, digits: int = 2) -> str:
    pattern = "#,##0." + "#" * digits if digits else "#,##0"
    return format_decimal(round(value, digits), format=pattern, locale=lang.locale)


@functools.lru_cache(maxsize=8192)
def fixed(value: float, lang: Language, digits: int) -> str:
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(round(value, digits), format=pattern, locale=lang.locale)


def significant(value: float, digits: int = 3) -> tuple[Decimal, int]:
    """The one display rule for measured times: three significant digits, never fewer than
    whole units, halves rounded up (7.4 -> 7.40, 0.41249 -> 0.412, 123.4 -> 123,
    1234.6 -> 1235). Returns the rounded value and how many decimals to show."""
    exact = Decimal(repr(float(value)))
    if value == 0:
        return exact.quantize(Decimal(1).scaleb(1 - digits)), digits - 1
    places = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if places and abs(rounded) >= Decimal(10) ** (digits - places):  # 9.996 -> 10.0, not 10.00
        places -= 1
        rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return rounded, places


# Times are formatted once per figure shown: the record's 21,000 run times round to far fewer
# three-digit figures, so the rounded value (not the measured one) is what is remembered.


def time_number(value: float, lang: Language) -> str:
    """A measured time without its unit, by the three-significant-digit rule (7.40, 1,235)."""
    return _figure(*significant(value), lang)


def figure(value: float, lang: Language, digits: int = 3) -> str:
    """Any derived figure (a ratio, a percentage) by the same rule: `digits` significant
    digits, trailing zeros kept (14.0, 0.412, 1.56)."""
    return _figure(*significant(value, digits), lang)


@functools.lru_cache(maxsize=65536)
def _figure(rounded: float, places: int, lang: Language) -> str:
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return format_decimal(rounded, format=pattern, locale=lang.locale, decimal_quantization=True)


def duration(value: float, unit: str, lang: Language) -> str:
    """A measured time with its unit: 7.40 min / 7.40分钟 (three significant digits)."""
    return _duration(*significant(value), unit, lang)


@functools.lru_cache(maxsize=65536)
def _duration(rounded: float, places: int, unit: str, lang: Language) -> str:
    text = format_unit(
        rounded,
        DURATION_UNITS[unit],
        length="short",
        locale=lang.locale,
        format="#,##0." + "0" * places if places else "#,##0",
    )
    # CLDR writes 7.40 分鐘 for zh_Hant and 7.40分钟 for zh_Hans; a site's Chinese pages write
    # a figure against its unit, as the editors' text (and the text converted from it) does
    return NUMBER_UNIT_SPACE.sub("", text) if lang.chinese else text


@functools.lru_cache(maxsize=8192)
def usd(amount: float, lang: Language) -> str:
    """$149,000 in English; 14.9万美元 (14.9萬美元) in Chinese, the way Chinese prices are read."""
    if lang.chinese and amount >= 10000:
        compact = format_compact_decimal(amount, locale=lang.locale, fraction_digits=3)
        return f"{compact}美元"
    return format_currency(amount, "USD", locale=lang.locale, format="¤#,##0", currency_digits=False)


def ratio(value: float, lang: Language, digits: int = 3) -> str:
    """1.56× in English; 1.56倍 in Chinese, as Chinese writes multiples. Three significant
    digits (14.0×), as every figure; an arithmetic step shows one more (1.563×)."""
    return f"{figure(value, lang, digits)}{'倍' if lang.chinese else '×'}"


def percent(value: float, lang: Language, digits: int = 3) -> str:
    """`value` is already in percent, three significant digits (24.1%, 78.0%, 5.00%)."""
    return f"{figure(value, lang, digits)}%"


def megajoules(joules: float, lang: Language, unit: str) -> str:
    """Energy to train, kept in joules in the data, shown in megajoules by the figure rule
    (16,384,268 J -> 16.4 MJ; 16.4兆焦 in Chinese); `unit`: the language's name of the unit
    (the interface string unit.megajoule)."""
    return figure(joules / 1e6, lang) + unit


@functools.lru_cache(maxsize=8192)
def date(value: dt.date, lang: Language) -> str:
    return format_date(value, format="long", locale=lang.locale)


def quantity(value: float, unit: str, lang: Language, decimals: int | None = None) -> str:
    """Any figure with one of the data units, as the reader expects it: a computed one by the
    rule of its unit (ratios and percentages at three significant digits); a figure as a
    source wrote it with `decimals` decimals (a claim's 1.50×, or its "just over 9 minutes" as
    9 min, never 9.00 min)."""
    if unit in DURATION_UNITS and decimals is None:
        return duration(value, unit, lang)  # a measured time: three significant digits
    if unit in DURATION_UNITS:  # a time as a source wrote it: "9 minutes" is 9 min
        return _duration(round(value, decimals), decimals, unit, lang)
    if unit == "usd":
        return usd(value, lang)
    if unit in ("x", "percent"):
        if decimals is None:
            return (ratio if unit == "x" else percent)(value, lang)
        return fixed(value, lang, decimals) + ("%" if unit == "percent" else "倍" if lang.chinese else "×")
    suffix = {"ghz": " GHz", "pflops": " PFLOPS", "mb": " MB", "gb": " GB", "u": "U", "count": ""}.get(
        unit.lower(), f" {unit}"
    )
    return number(value, lang, 2 if decimals is None else decimals) + suffix


def listing(items: list[str], lang: Language, style: Literal["standard", "or"] = "standard") -> str:
    """Items as the language lists them: "a, b and c" ("standard"), "a, b or c" ("or"); in
    Chinese a、b和c, a、b或c (Babel's list patterns)."""
    from babel.lists import format_list

    return format_list(list(items), style=style, locale=lang.locale)


# babel is imported at the first number or date formatted, not with this module: a build that
# finds nothing to do formats nothing (its import costs about 0.1 s).
def format_decimal(*args, **kwargs):
    from babel.numbers import format_decimal as babel_format_decimal

    return babel_format_decimal(*args, **kwargs)


def format_compact_decimal(*args, **kwargs):
    from babel.numbers import format_compact_decimal as babel_format_compact_decimal

    return babel_format_compact_decimal(*args, **kwargs)


def format_currency(*args, **kwargs):
    from babel.numbers import format_currency as babel_format_currency

    return babel_format_currency(*args, **kwargs)


def format_unit(*args, **kwargs):
    from babel.units import format_unit as babel_format_unit

    return babel_format_unit(*args, **kwargs)


def format_date(*args, **kwargs):
    from babel.dates import format_date as babel_format_date

    return babel_format_date(*args, **kwargs)


class ForSite:
    """These functions for one site, each given a language code of the site in place of its
    Language (the templates' `fmt`: they know a page's language by its code)."""

    def __init__(self, languages: Languages):
        self.languages = languages
        self.decimals_of = decimals_of

    def number(self, value: float, code: str, digits: int = 2) -> str:
        return number(value, self.languages.get(code), digits)

    def time_number(self, value: float, code: str) -> str:
        return time_number(value, self.languages.get(code))

    def figure(self, value: float, code: str, digits: int = 3) -> str:
        return figure(value, self.languages.get(code), digits)

    def duration(self, value: float, unit: str, code: str) -> str:
        return duration(value, unit, self.languages.get(code))

    def usd(self, amount: float, code: str) -> str:
        return usd(amount, self.languages.get(code))

    def percent(self, value: float, code: str, digits: int = 3) -> str:
        return percent(value, self.languages.get(code), digits)

    def date(self, value: dt.date, code: str) -> str:
        return date(value, self.languages.get(code))

    def quantity(self, value: float, unit: str, code: str, decimals: int | None = None) -> str:
        return quantity(value, unit, self.languages.get(code), decimals)

    def megajoules(self, joules: float, code: str, unit: str) -> str:
        return megajoules(joules, self.languages.get(code), unit)
