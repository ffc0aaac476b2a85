"""The rules of the walk (site_walk.py), each over one parsed page's <main>; a violation is
recorded as "page: what" under its rule's letter."""

from __future__ import annotations

import re

from . import walk_record
from .walk_record import Record

# --- a. derived figures: the label in the page's language and the link -----------------------

LABEL = {
    "en": re.compile(r"[Dd]erived by this site.{0,80}?not (?:an )?MLPerf® scores?", re.S),
    "zh": re.compile(r"由本站.{0,20}?推算.{0,40}?并非MLPerf®成绩", re.S),
    "zh-hant": re.compile(r"由本站.{0,20}?推算.{0,40}?並非MLPerf®成績", re.S),
}
HOW = "methodology.html#derived-figures"
MARKED = ".//*[contains(concat(' ', @class), ' derived') or @aria-labelledby='scaling']"
SPEEDUP = r"\d×(?!\s?\d)"
# derived figures by their words: accelerator-minutes, efficiency, speed-ups, changes in per
# cent, price-performance (the energy to train is an MLPerf® score, not derived). FIGURES hold
# their number; NAMES count where they head a column or name the number after them.
FIGURES = {
    "en": re.compile(
        SPEEDUP + r"|\d\s?(?:×|times) as fast|\d\s?% (?:faster|slower|shorter|longer|less|more|lower|higher)"
    ),
    "zh": re.compile(SPEEDUP + r"|(?:缩短|减少|提升|快)了?\d[\d.]*\s?%"),
    "zh-hant": re.compile(SPEEDUP + r"|(?:縮短|減少|提升|快)了?\d[\d.]*\s?%"),
}
NAMES = {
    "en": re.compile(
        r"accelerator-minutes|scaling efficiency|efficiency \(derived\)|speed-ups?\b|price-performance|per dollar",
        re.I,
    ),
    "zh": re.compile(r"加速器分钟|扩展效率|效率（推算）|加速比|性价比"),
    "zh-hant": re.compile(r"加速器分鐘|擴展效率|效率（推算）|加速比|性價比"),
}
WORDS = {lang: re.compile(FIGURES[lang].pattern + "|" + NAMES[lang].pattern, re.I) for lang in FIGURES}
NAMED_NUMBER = re.compile(r"^\s*[:：]\s*\d")
QUOTED = "ancestor::li[.//a[contains(@class, 'verdict')]]"  # a vendor's claim quoted with its verdict


def _text(el) -> str:
    return re.sub(r"\s+", " ", "".join(el.itertext()))


def derived_labels(found, rel: str, lang: str, main) -> None:
    """Every derived figure, marked or found by its words, in a labelled and linked scope."""
    marked = main.xpath(MARKED)
    spots = [(el, "marked") for el in marked if "derived-page-note" not in (el.get("class") or "")]
    # a quick look before the slow one: more figure words on the page than in its marked figures
    inside = sum(len(WORDS[lang].findall("".join(el.itertext()))) for el in marked)
    if len(WORDS[lang].findall("".join(main.itertext()))) > inside:
        inside = {id(el) for el in marked}
        for t in main.xpath(".//text()"):
            if WORDS[lang].search(t) and _figure_words(t, lang):
                holder = _holder(t)
                if not any(id(a) in inside for a in holder.iterancestors()) and id(holder) not in inside:
                    spots.append((holder, "unmarked"))
    if not spots:
        return
    found.derived += 1
    seen: dict[int, bool] = {}
    for el, how in spots:
        scope = el if el.tag == "section" else next(el.iterancestors("section"), main)
        if id(scope) not in seen:
            if id(main) not in seen:  # labelled for the whole page, looked at once
                seen[id(main)] = _page_labelled(main, lang, rel)
            seen[id(scope)] = seen[id(main)] or _labelled(scope, lang, rel)
            if not seen[id(scope)]:
                what = WORDS[lang].search(_text(el)) or re.search(r"\S.{0,40}", _text(el))
                heading = scope.get("aria-labelledby") or "page"
                found.violations["a"].append(
                    f"{rel}: {how} derived figure without label/link ({heading}: {what and what.group(0)!r})"
                )


def _holder(text):
    """The element a text node is in (a tail's is its element's parent)."""
    return text.getparent() if text.is_text else text.getparent().getparent()


def _figure_words(text, lang: str) -> bool:
    """A text holding a derived figure, or its name heading a column or naming the number
    after it; not a vendor's figure quoted as its claim (the claims page checks those)."""
    parent = _holder(text)
    if FIGURES[lang].search(text):
        return not parent.xpath(QUOTED)
    name = NAMES[lang].search(text)
    if name is None:
        return False
    after = text[name.end() :]
    if re.fullmatch(r"\s*[:：]?\s*", after):  # the number in the next element
        after += _next_text(text)
    return parent.tag == "th" or bool(NAMED_NUMBER.match(after))


def _next_text(text) -> str:
    """The text of the element right after a text node (the number a name names)."""
    owner = text.getparent()
    following = owner.getnext() if text.is_tail else next(iter(owner), None)
    return "".join(following.itertext()) if following is not None else ""


def _page_labelled(main, lang: str, rel: str) -> bool:
    """Labelled for the whole page: the methodology itself, or a label and link outside the
    page's sections (a page note)."""
    if rel.endswith("methodology.html") and main.xpath(".//*[@id='derived-figures']"):
        return True
    own = re.sub(r"\s+", " ", "".join(main.xpath(".//text()[not(ancestor::section)]")))
    if not LABEL[lang].search(own):
        return False
    return rel.startswith("single/") or bool(
        main.xpath(f".//a[not(ancestor::section)][contains(@href, '{HOW}')]")
    )


def _labelled(scope, lang: str, rel: str) -> bool:
    if not LABEL[lang].search(_text(scope)):
        return False
    if rel.startswith("single/") or rel.endswith("methodology.html"):
        return True  # a single-file copy unwraps its links; the methodology holds the section
    return bool(scope.xpath(f".//a[contains(@href, '{HOW}')]"))


# --- helpers over result links ------------------------------------------------------------------

RESULT = re.compile(r"(?:^|/)results/([^/#?]+)\.html")


def result_ids(el) -> list[str]:
    ids = []
    for a in el.iter("a"):
        m = RESULT.search(a.get("href") or "")
        if m and m.group(1) not in ids:
            ids.append(m.group(1))
    return ids


# --- b. rankings holding two categories ----------------------------------------------------------


def fastest_column(found, record: Record, rel: str, lang: str, table) -> None:
    heads = [_text(th).strip() for th in table.xpath("./thead/tr/th")]
    if FASTEST[lang] not in heads:
        return
    column = heads.index(FASTEST[lang])
    for tr in table.xpath("./tbody/tr"):
        cells = tr.xpath("./th | ./td")
        ids = [i for i in result_ids(cells[column]) if i in record.results] if len(cells) > column else []
        category = ids and record.results[ids[0]]["category"]
        if (
            category
            and category != "available"
            and not _names_category(cells[column], CATEGORY[lang][category])
        ):
            found.violations["b"].append(f"{rel}: fastest {ids[0]} ({category}) not named so")


def _names_category(tr, name: str) -> bool:
    cells = [tr] if tr.tag == "td" else list(tr.iter("td"))
    return bool(tr.xpath(".//*[@class='category-mark']")) or any(name in _text(td) for td in cells)


FASTEST = {"en": "Fastest", "zh": "最快", "zh-hant": "最快"}


def rankings(found, record: Record, rel: str, lang: str, main) -> None:
    """A table whose rows are ordered by time, holding two categories: each result not
    Available names its category (its mark, or a cell saying it, as a category column); and a
    column of each row's fastest names the category of a fastest that is not Available."""
    for table in main.iter("table"):
        fastest_column(found, record, rel, lang, table)
        rows = []
        for tr in table.xpath("./tbody/tr | ./tr"):
            ids, value = result_ids(tr), tr.xpath("./td[contains(@class, 'answer')]/@data-value")
            if ids and value and value[0] and ids[0] in record.results:
                rows.append((tr, record.results[ids[0]], float(value[0])))
        values = [v for _, _, v in rows]
        if len(set(values)) < 2 or values != sorted(values):
            continue  # not a ranking by time
        if len({r["category"] for _, r, _ in rows}) < 2:
            continue
        found.rankings += 1
        for tr, r, _ in rows:
            if r["category"] != "available" and not _names_category(tr, CATEGORY[lang][r["category"]]):
                found.violations["b"].append(f"{rel}: {r['category']} result {r['id']} ranked unnamed")


# --- c. headline slots ---------------------------------------------------------------------------

UNSCORED = {"en": "without a score", "zh": "没有分数", "zh-hant": "沒有分數"}
CATEGORY = {
    "en": {"preview": "Preview", "research": "Research"},
    "zh": {"preview": "预览", "research": "研究"},
    "zh-hant": {"preview": "預覽", "research": "研究"},
}
NUMBER = re.compile(r"\d[\d,]*")


def headline(found, record: Record, rel: str, lang: str, el, round_id: str, benchmark: str, shown) -> None:
    """One headline slot: el shows `shown` (a result id, None for no time) as the fastest."""
    found.headlines += 1
    want = walk_record.slot(record, round_id, benchmark)
    where = f"{rel}: {benchmark} {round_id}"
    bad = found.violations["c"].append
    if (want.best and want.best["id"]) != shown:
        found.violations["b"].append(f"{where} shows {shown} as fastest, not {want.best and want.best['id']}")
    if want.best and want.best["category"] != "available" and not el.xpath(".//*[@class='category-mark']"):
        found.violations["b"].append(f"{where}: its {want.best['category']} fastest is not named so")
    notes = [_text(n) for n in el.xpath(".//*[contains(@class, 'headline-note')]")]
    for category in want.ahead:
        if not any(CATEGORY[lang][category] in n for n in notes):
            found.violations["b"].append(f"{where}: a faster {category} result not named")
    said = [n for n in notes if UNSCORED[lang] in n]
    if want.unscored and not said:
        bad(f"{where}: {want.unscored} result(s) without a score (up to {want.unscored_largest}) not said")
    elif said and [int(x.replace(",", "")) for x in NUMBER.findall(said[0])[:2]] != [
        want.unscored,
        want.unscored_largest,
    ]:
        bad(f"{where}: says {said[0]!r}, the record has {want.unscored} up to {want.unscored_largest}")


def headline_marks(found, record: Record, rel: str, cell, round_id: str, shown: str) -> None:
    """A cell of the home page's series table: the fastest, † and * as the slot has them."""
    benchmark = record.results[shown]["benchmark"]
    found.headlines += 1
    want = walk_record.slot(record, round_id, benchmark)
    where = f"{rel}: series {benchmark} {round_id}"
    if want.best is None or want.best["id"] != shown:
        found.violations["b"].append(f"{where} shows {shown}, not {want.best and want.best['id']}")
    if bool(want.ahead) != bool(cell.xpath(".//*[@class='ahead-mark']")):
        found.violations["b"].append(f"{where}: faster result of another category {want.ahead} (mark wrong)")
    if bool(want.unscored) != bool(cell.xpath(".//*[@class='unscored-mark']")):
        found.violations["c"].append(f"{where}: {want.unscored} result(s) without a score (mark wrong)")


def home(found, record: Record, rel: str, lang: str, main) -> None:
    latest = max({r["round"] for r in record.results.values()}, key=walk_record.round_key)
    for li in main.xpath(".//li[contains(@class, 'suite-item')]"):
        shown = [RESULT.search(a.get("href")).group(1) for a in li.xpath(".//a[@class='time']")]
        headline(found, record, rel, lang, li, latest, li.get("data-benchmark"), shown[0] if shown else None)
    for table in main.xpath(".//table[contains(@class, 'glance-table')]"):
        rounds = [_text(th).strip() for th in table.xpath("./thead/tr/th")][1:]
        for tr in table.xpath("./tbody/tr"):
            cells = tr.xpath("./td")
            for rnd, cell in zip(rounds, cells):
                ids = result_ids(cell)
                if ids:
                    headline_marks(found, record, rel, cell, rnd, ids[0])
            series_breaks(found, record, rel, list(zip(rounds, cells)))


def benchmark_summary(found, record: Record, rel: str, lang: str, main) -> None:
    benchmark = rel.rsplit("/", 1)[1][: -len(".html")]
    for tr in main.xpath(".//section[@aria-labelledby='record-summary']//tbody/tr"):
        ids = result_ids(tr)
        headline(
            found,
            record,
            rel,
            lang,
            tr,
            _text(tr.xpath("./th")[0]).strip(),
            benchmark,
            ids[0] if ids else None,
        )


def round_page(found, record: Record, rel: str, lang: str, main) -> None:
    round_id = rel.rsplit("/", 1)[1][: -len(".html")]
    for tr in main.xpath(".//h3[@id='round-fastest']/following-sibling::div[1]//tbody/tr"):
        benchmark = tr.xpath("./th//a/@href")[0].rsplit("/", 2)[-2]
        ids = result_ids(tr)
        headline(found, record, rel, lang, tr, round_id, benchmark, ids[0] if ids else None)


# --- d. comparisons across rounds within one version ----------------------------------------------

COMPARING = re.compile(SPEEDUP + r"|\d\s?%|→")


def comparisons(found, record: Record, rel: str, main) -> None:
    """A row (or list item) with a derived figure joining results of several rounds: one
    benchmark's rounds within one version of the compatibility table."""
    for row in main.xpath(".//tr | .//li"):
        ids = [i for i in result_ids(row) if i in record.results]
        if len({record.results[i]["round"] for i in ids}) < 2 or not COMPARING.search(_text(row)):
            continue
        found.comparisons += 1
        versions: dict[str, set] = {}
        for i in ids:
            r = record.results[i]
            key = record.version(r["benchmark"], r["round"])
            versions.setdefault(key[0], set()).add((key, r["round"]))
        for model, keys in versions.items():
            if len({k for k, _ in keys}) > 1:
                rounds = sorted({rnd for _, rnd in keys}, key=walk_record.round_key)
                found.violations["d"].append(f"{rel}: {model} compared across versions ({', '.join(rounds)})")


def series_breaks(found, record: Record, rel: str, cells: list) -> None:
    """Newest first: between two shown results of different versions, a cell marks the break."""
    last = None  # (version, index) of the newer shown result
    for index, (rnd, cell) in enumerate(cells):
        ids = result_ids(cell)
        if not ids:
            continue
        r = record.results[ids[0]]
        version = record.version(r["benchmark"], r["round"])
        if last and last[0] != version:
            marked = any("series-break" in (c.get("class") or "") for _, c in cells[last[1] : index])
            if not marked:
                found.violations["d"].append(
                    f"{rel}: series joins {r['benchmark']} {rnd} to {cells[last[1]][0]} unbroken"
                )
        last = (version, index)


# --- e. counts of one set --------------------------------------------------------------------------


def _number(text: str) -> int:
    return int(NUMBER.search(text).group(0).replace(",", ""))


def collect_counts(found, kind: str | None, rel: str, lang: str, main) -> None:
    """The counts each page kind states, under (set, language): {where: count}."""
    add = found.counts
    name = rel.rsplit("/", 1)[-1][: -len(".html")]
    if kind == "rounds":
        for tr in main.xpath(".//tbody/tr"):
            add["round", lang, _text(tr.xpath("./th")[0]).strip()][rel] = _number(_text(tr.xpath("./td")[0]))
    elif kind == "downloads":
        for tr in main.xpath(".//tbody/tr"):
            th, td = _text(tr.xpath("./th")[0]).strip(), tr.xpath("./td")
            if td:  # a round's row, then the row of all rounds
                add["round", lang, th if re.fullmatch(r"v[\d.]+", th) else "all"][rel] = _number(_text(td[0]))
    elif kind == "round":
        add["round", lang, name][rel] = _number(_text(main.xpath(".//dl[@class='specs']/dd")[1]))
        round_slots(found, rel, lang, name, main)
    elif kind == "leaderboard":  # "37 results, published …" under its heading
        benchmark = rel.rsplit("/", 2)[-2]
        add["slot", lang, f"{name} {benchmark}"][rel] = _number(_text(main.find("p")))
    elif kind == "family":
        family_counts(found, rel, lang, name, main)
    elif kind in ("families", "submitters"):
        for tr in main.xpath(".//tbody/tr"):
            link, td = tr.xpath(".//th//a/@href"), tr.xpath("./td")
            if link and td:
                slug = link[0].rsplit("/", 1)[-1][: -len(".html")]
                add[{"families": "family", "submitters": "submitter"}[kind], lang, slug][rel] = _number(
                    _text(td[0])
                )
    elif kind == "submitter" and rel.count("/") == 2:
        add["submitter", lang, name][rel] = _number(_text(main.xpath(".//dl[@class='specs']/dd")[0]))


def round_slots(found, rel: str, lang: str, round_id: str, main) -> None:
    """A round page's results of each benchmark: in its table, and over its list of them."""
    for tr in main.xpath(".//section[@aria-labelledby='round-benchmarks']//tbody/tr"):
        benchmark = tr.xpath("./th//a/@href")[0].rsplit("/", 2)[-2]
        found.counts["slot", lang, f"{round_id} {benchmark}"][rel] = _number(_text(tr.xpath("./td")[0]))
    for h3 in main.xpath(".//h3[starts-with(@id, 'results-')]"):
        where = f"{rel} (list)"
        found.counts["slot", lang, f"{round_id} {h3.get('id')[len('results-') :]}"][where] = _number(
            _text(h3).rsplit("·", 1)[-1]
        )


def family_counts(found, rel: str, lang: str, name: str, main) -> None:
    """A chip family's page: its total, and the sum of its variants' counts below it."""
    if rel.count("/") != 2:
        return  # a family's round page
    dd = main.xpath(".//dl[@class='specs']/dd")
    variants = main.xpath(".//ul[@class='chip-variants']/li")
    found.counts["family", lang, name][rel] = _number(_text(dd[0]))
    if variants:
        total = sum(_number(_text(li).split(":", 1)[-1].split("：", 1)[-1]) for li in variants)
        found.counts["family", lang, name][rel + " (sum of variants)"] = total


def compare_counts(found, expected: dict[tuple[str, str], int]) -> None:
    """Each set's counts agree across pages, and with the record where it is counted here
    (expected: walk_record.expected_counts)."""
    for (kind, lang, name), seen in sorted(found.counts.items()):
        if (kind, name) in expected:
            seen = {**seen, "the record (a copy once)": expected[kind, name]}
        if len(set(seen.values())) > 1:
            found.violations["e"].append(f"{kind} {name} ({lang}): {seen}")
