"""Checks on any text an editor writes: mojibake and scrape noise must not reach the site."""
from __future__ import annotations

import unicodedata

import ftfy.badness

# Strings known from the scraped sources that must never come back (spam and boilerplate).
NOISE = ("91视频APP", "boonoor.blogspot", "facebook.com/tr")


def _gbk_mojibake(text: str) -> int | None:
    """Offset of UTF-8 punctuation misread as GBK (e.g. '鈥檚' for "'s"), which ftfy misses."""
    for i, char in enumerate(text[:-1]):
        raw = char.encode("gb18030", errors="ignore")
        if len(raw) != 2 or not (0xE2 <= raw[0] <= 0xEF and 0x80 <= raw[1] <= 0xBF):
            continue
        follow = text[i + 1].encode("gb18030", errors="ignore")[:1] or b"\x00"
        try:
            decoded = (raw + follow).decode("utf-8")
        except UnicodeDecodeError:
            continue
        if unicodedata.category(decoded)[0] in "PS":
            return i
    return None


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def text_problems(text: str) -> list[tuple[int, str]]:
    """(line, message) for mojibake and known scrape noise in `text`."""
    found = []
    offset = _gbk_mojibake(text)
    if offset is not None:
        found.append((_line_of(text, offset), f"mojibake {text[offset:offset + 2]!r}: the text was "
                      "decoded with the wrong encoding; retype it or fix it as UTF-8"))
    for number, line in enumerate(text.splitlines(), 1):
        if ftfy.badness.is_bad(line):
            found.append((number, f"mojibake in {ftfy.fix_text(line)[:40]!r}: fix the encoding"))
            break
    for noise in NOISE:
        at = text.find(noise)
        if at >= 0:
            found.append((_line_of(text, at), f"scrape noise {noise!r} must not reach the site"))
    return found
