"""Checks on any text an editor writes: mojibake and scrape noise must not reach the site."""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right

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
        import ftfy.badness  # here: 30 ms to import, and most files have nothing to scan
    while found:
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.start())
        end = len(text) if end < 0 else end
        # with two characters before and one after: some patterns reach across a line break
        if ftfy.badness.is_bad(text[max(start - 2, 0) : end + 1]):
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
        found.append(
            (
                _line_of(text, offset),
                f"mojibake {text[offset : offset + 2]!r}: the text was "
                "decoded with the wrong encoding; retype it or fix it as UTF-8",
            )
        )
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
_INLINE = re.compile(
    r"</?(?:a|abbr|b|bdi|cite|data|em|i|mark|q|s|small|span|strong|sub|sup|"
    r"time|u|wbr|tspan)\b[^>]*>",
    re.I,
)
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
            excerpt = node.group(1)[max(0, start - 8) : start] + "␣" + node.group(1)[end : end + 8]
            found.append(" ".join(excerpt.split()))
    return found


# Superlatives, negatives and comparisons about the record ("fastest", "first", "no result",
# "× faster") go stale when the record changes unless the figure they speak of is computed.
# Each word is accepted only in a sentence that also holds a reference computing it (the kinds
# named beside it), or a vendor's claim quoted through [[claim:...]]/[[check:...]]. Negatives
# about the record have no backing kind: [[equal_scale:...]], [[fastest:...]] and
# [[rounds:...]] write their own "the record has no ..." when there is nothing to show.
_QUOTED = ("claim", "check")
_FASTEST = ("fastest", "at_scale") + _QUOTED  # at_scale: a family's fastest at one scale
_ROUNDS = ("rounds",) + _QUOTED
_SCOPED = ("fastest", "equal_scale", "rounds") + _QUOTED
CLAIM_WORDS = [
    (re.compile(pattern, re.I), kinds)
    for pattern, kinds in (
        # the olympic mean's "fastest and slowest run" is the scoring rule, not a ranking
        (r"\b(?:fastest|quickest|slowest)\b(?!(?: and (?:the )?(?:slowest|fastest))? runs?\b)", _FASTEST),
        (r"\bfirst\b(?! half| quarter)", _ROUNDS),  # a date is no ranking
        (r"\b(?:only|sole|alone)\b", _SCOPED),
        (r"\b(?:largest|biggest|smallest|highest|lowest|best|worst)\b", _QUOTED),
        (
            r"\b(?:never|nothing|none|no (?:other|result|results|peer|peers|one)|(?:record|round) (?:holds|has) no)\b",
            _QUOTED,
        ),
        (r"(?<![\w.\-])\d(?:[\d.,]*\d)?\s*(?:×|x\b|times\b)", _QUOTED),  # not "ResNet-50 times"
        (r"(?<![\w.\-])\d+ rounds\b", _QUOTED),
        # the scoring rule's fastest and slowest run, in either script (运行/執行, 与/與, 后/後)
        (
            "(?:最快|最慢)(?!(?:和|与|與|、)?(?:最慢|最快)?的?(?:一次|一轮|一輪)?(?:运行|運行|執行|后|後|的一次))",
            _FASTEST,
        ),
        ("首次|首个|首批|首轮|第一次|第一个", _ROUNDS),
        ("唯一|仅有|只有|只在|仅在", _SCOPED),
        ("最大|最小|最高|最低|最好|最佳(?!化)", _QUOTED),  # 最佳化: Taiwan's "optimisation"
        (
            "从未|并无|均无|尚无|无一|找不到|不存在|无从比较|(?:记录|本轮)中(?:并)?没有|没有(?:任何|其他|别的|可比|可与|"
            "对应|同规模|同等规模|成绩|结果|哪)",
            _QUOTED,
        ),
        (r"(?<![\w.\-])\d(?:[\d.,]*\d)?\s*(?:倍|轮)", _QUOTED),
    )
]
# a data reference, kept as its kind; a URL, inline code or a fenced block (a chart's or a
# table's fields: data, computed by the block) is no sentence of ours
_REFERENCE = re.compile(
    r"\[\[(?P<kind>[a-z_]+):[^\]\s]*\]\]|\]\([^)\s]*\)|^```.*?^```[ \t]*$|`[^`\n]*`", re.M | re.S
)
# A sentence ends at its full stop, a blank line, a list item, a heading or a block. A table is
# one unit: its header ("Fastest closed-division BERT") is said by the references in its rows.
_SENTENCE_END = re.compile(
    r"[.!?](?=\s|$)(?![^\n]*\|\s*$)|[。！？](?![^\n]*\|\s*$)|\n\s*\n|"
    r"\n(?=\s*(?:[-*+#]|\d+\.|```))"
)
_BARE_MLPERF = re.compile(r"MLPerf(?!®)")


def _kinds_between(text: str, start: int, end: int) -> set[str]:
    return {m.group("kind") for m in _REFERENCE.finditer(text, start, end) if m.group("kind")}


def unreferenced_claims(text: str) -> list[tuple[int, str]]:
    """(line, message) for each superlative, negative or comparison in an editor's text that
    no reference in its sentence computes (see CLAIM_WORDS)."""
    masked = _REFERENCE.sub(lambda m: "\x00" * len(m.group(0)), text)
    ends = [m.end() for m in _SENTENCE_END.finditer(masked)] + [len(text)]  # ascending
    found = []
    for pattern, kinds in CLAIM_WORDS:
        for match in pattern.finditer(masked):
            at = bisect_right(ends, match.start())  # the sentence around the match
            start, end = (ends[at - 1] if at else 0), ends[at]
            if _kinds_between(text, start, end) & set(kinds):
                continue
            found.append(
                (
                    _line_of(text, match.start()),
                    f"'{match.group().strip()}' outside a "
                    "reference: a superlative, negative or comparison about the record is "
                    f"written with [[{kinds[0]}:...]] in its sentence (or quotes a claim "
                    "with [[claim:...]]), or not at all",
                )
            )
    masked_all = _REFERENCE.sub(lambda m: " " * len(m.group(0)), text)
    for match in _BARE_MLPERF.finditer(masked_all):
        found.append(
            (
                _line_of(text, match.start()),
                "'MLPerf' without '®': MLCommons' messaging "
                "guidelines want the mark on every use (write MLPerf®)",
            )
        )
    return sorted(found)
