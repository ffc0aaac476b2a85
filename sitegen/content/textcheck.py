"""Checks on any text an editor writes: mojibake and scrape noise must not reach the site."""
from __future__ import annotations

import functools
import re
import unicodedata

# Strings known from the scraped sources that must never come back (spam and boilerplate).
NOISE = ("91视频APP", "boonoor.blogspot", "facebook.com/tr")


@functools.lru_cache(maxsize=1)
def _gbk_lead_chars() -> re.Pattern:
    """Characters whose GBK bytes start a UTF-8 punctuation sequence: the first half of
    mojibake such as '鈥' (E2 80). Built once, so the scan itself runs in C."""
    chars = []
    for first in range(0xE2, 0xF0):
        for second in range(0x80, 0xC0):
            try:
                chars.append(bytes((first, second)).decode("gb18030"))
            except UnicodeDecodeError:
                continue
    return re.compile("[" + re.escape("".join(chars)) + "].")


def _gbk_mojibake(text: str) -> int | None:
    """Offset of UTF-8 punctuation misread as GBK (e.g. '鈥檚' for "'s"), which ftfy misses."""
    for match in _gbk_lead_chars().finditer(text):
        raw = match.group(0)[0].encode("gb18030")
        follow = match.group(0)[1].encode("gb18030", errors="ignore")[:1] or b"\x00"
        try:
            decoded = (raw + follow).decode("utf-8")
        except UnicodeDecodeError:
            continue
        if unicodedata.category(decoded)[0] in "PS":
            return match.start()
    return None


# ftfy's badness patterns all need a character outside ASCII and the CJK blocks (checked in
# tests/unit/test_textcheck.py), so only lines holding such a character need its slow scan.
_SUSPECT = re.compile("[^\x00-\x7f\u2e80-\u9fff\uff00-\uffef]")


def _latin_mojibake(text: str) -> tuple[int, str] | None:
    """(line, text) of the first line ftfy finds mojibake in, such as 'Ã©' for 'é'."""
    found = _SUSPECT.search(text)
    if found:
        import ftfy.badness     # here: 30 ms to import, and most files have nothing to scan
    while found:
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.start())
        end = len(text) if end < 0 else end
        # with two characters before and one after: some patterns reach across a line break
        if ftfy.badness.is_bad(text[max(start - 2, 0):end + 1]):
            return _line_of(text, start), text[start:end]
        found = _SUSPECT.search(text, end + 1)
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
    latin = _latin_mojibake(text)
    if latin:
        import ftfy
        found.append((latin[0], f"mojibake in {ftfy.fix_text(latin[1])[:40]!r}: fix the encoding"))
    for noise in NOISE:
        at = text.find(noise)
        if at >= 0:
            found.append((_line_of(text, at), f"scrape noise {noise!r} must not reach the site"))
    return found


# Running text of a page: what is left outside script, style, code and navigation once inline elements
# are unwrapped (a space next to a link's edge is as visible as one inside it).
_HIDDEN = re.compile(r"<(script|style|pre|code|template|nav)\b.*?</\1>", re.S | re.I)
_INLINE = re.compile(r"</?(?:a|abbr|b|bdi|cite|data|em|i|mark|q|s|small|span|strong|sub|sup|"
                     r"time|u|wbr|tspan)\b[^>]*>", re.I)
_TEXT = re.compile(r">([^<]+)<")


def cjk_spaces(html: str) -> list[str]:
    """Each place where an ASCII space (or line break) stands between two CJK characters in
    a page's visible text, as a short excerpt with the space shown as '␣'."""
    from sitegen.base.languages import CJK_SPACE
    text = _INLINE.sub("", _HIDDEN.sub("<x>", html))
    found = []
    for node in _TEXT.finditer(text):
        for match in CJK_SPACE.finditer(node.group(1)):
            start, end = match.start(), match.end()
            excerpt = node.group(1)[max(0, start - 8):start] + "␣" + node.group(1)[end:end + 8]
            found.append(" ".join(excerpt.split()))
    return found
