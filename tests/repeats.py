"""What a writer would not write twice in one paragraph, found on built pages (issue 49):

- a statement the site assembles from references (ref.no_equal_scale, ref.rounds_none, ...)
  whose sentence frame occurs twice in one paragraph: its template, with every placeholder
  read as any text, matched twice;
- the same parenthesis twice in one paragraph.

Used by tests/site/test_statement_lists.py over a fixture project and, by hand, over the
shipped site: `python -m tests.repeats OUTPUT_FOLDER`."""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

from lxml import html as lxml_html

# The statements the site writes itself from references (interface strings ref.<key>); the
# citation of a result ("28.3 min (NVIDIA, ...)") is a list item, not one of them.
STATEMENTS = (
    "no_equal_scale",
    "equal_scale_unscored",
    "no_equal_scale_others",
    "equal_scale_others",
    "rounds_of",
    "rounds_none",
    "rounds_none_after",
    "unscored",
    "level_with",
    "at_scale_level",
    "at_scale_faster",
    "at_scale_slower",
)
PARAGRAPHS = "//main//p | //main//li | //main//dd | //main//figcaption | //main//td | //main//caption"
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
ANY = r"[^;；。]+?"  # a placeholder's text: within one sentence
MIN_PARENTHESIS = 12  # characters: shorter ones ("(v1.0)", "(8)") are labels, not asides


def frames(strings: dict[str, str]) -> dict[str, re.Pattern]:
    """Each statement's template as a pattern: its words exact, each placeholder any text."""
    found, size = {}, {}
    for key, text in strings.items():
        name = key.removeprefix("ref.").removesuffix("_one")
        if not key.startswith("ref.") or name not in STATEMENTS:
            continue
        pieces = PLACEHOLDER.split(text.strip())
        found[key] = re.compile(ANY.join(re.escape(p) for p in pieces), re.S)
        size[key] = len("".join(pieces))
    # the longest first: a shorter frame inside a longer one's sentence is not another sentence
    return {key: found[key] for key in sorted(found, key=lambda k: (-size[k], k))}


def paragraph_text(element) -> str:
    """The element's own text: a list item without the lists and tables nested in it."""
    element = copy.deepcopy(element)
    for nested in element.xpath(".//ul | .//ol | .//table"):
        nested.drop_tree()
    return re.sub(r"\s+", " ", element.text_content()).strip()


def parentheses(text: str) -> list[str]:
    """Every parenthesis of the text, nested ones too, ( ) and （ ） alike."""
    found, stack = [], []
    for at, ch in enumerate(text):
        if ch in "(（":
            stack.append(at)
        elif ch in ")）" and stack:
            start = stack.pop()
            found.append(text[start + 1 : at].strip())
    return found


def repeats_in(text: str, patterns: dict[str, re.Pattern]) -> list[str]:
    """What `text` (one paragraph) repeats: 'frame <key>' per statement matched twice or more,
    'parenthesis <text>' per parenthesis written twice or more."""
    found, whole = [], text
    for key, pattern in patterns.items():
        if len(pattern.findall(text)) > 1:
            found.append(f"frame {key}")
        text = pattern.sub("\0", text)  # matched: not read again by a shorter frame
    seen: dict[str, int] = {}
    for inner in parentheses(whole):
        if len(inner) >= MIN_PARENTHESIS:
            seen[inner] = seen.get(inner, 0) + 1
    found += [f"parenthesis {inner}" for inner, n in sorted(seen.items()) if n > 1]
    return found


def scan_page(path: Path, patterns: dict[str, re.Pattern]) -> list[tuple[str, str]]:
    """(repeat, paragraph) for every repeat on one built page."""
    doc = lxml_html.fromstring(path.read_bytes())
    out = []
    for element in doc.xpath(PARAGRAPHS):
        if element.tag in ("li", "td") and element.xpath(".//p"):
            continue  # its paragraphs are read one by one
        text = paragraph_text(element)
        out += [(what, text) for what in repeats_in(text, patterns)]
    return out


def scan_site(out: Path, strings_by_lang: dict[str, dict[str, str]]) -> dict[str, list[tuple[str, str]]]:
    """{page path: its repeats} over every HTML page of every language in `strings_by_lang`."""
    found = {}
    for lang, strings in sorted(strings_by_lang.items()):
        patterns = frames(strings)
        for path in sorted((out / lang).rglob("*.html")):
            hits = scan_page(path, patterns)
            if hits:
                found[path.relative_to(out).as_posix()] = hits
    return found


def main(argv: list[str]) -> int:
    from sitegen.content.load import load_site

    out = Path(argv[0])
    site = load_site(Path(argv[1]) if len(argv) > 1 else Path("content"))
    found = scan_site(out, {lang: dict(site.strings[lang]) for lang in site.strings})
    total = sum(len(v) for v in found.values())
    for page, hits in found.items():
        for what, text in hits:
            print(f"{page}: {what}: {text[:160]}")
    print(f"{total} repeats on {len(found)} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
