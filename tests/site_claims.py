"""Checks of a built site against what the methodology page (content/pages/methodology.*.md)
says the site does (tests/site/test_methodology_claims.py). Each check reads the built pages
with lxml and computes what it expects from the content files (the record, claims.yaml,
benchmarks.yaml), never from sitegen; it returns the problems it finds, one line each."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from pathlib import Path

from lxml import html

LANGS = ("en", "zh", "zh-hant")
# claim checks whose `result` and `baseline` are record results (docs/content-format.md)
RESULT_CHECKS = {"time", "speedup", "improvement", "price_performance", "accelerators", "host_ratio",
                 "host_servers", "fastest"}  # fmt: skip
DERIVED_LINK = "methodology.html#derived-figures"
# a ratio as the site writes one (1.56×, 1,024×): only references may write it in a report
RATIO = re.compile(r"\d(?:[\d.,]*\d)?\s?×")


def page(path: Path):
    return html.parse(str(path), parser=html.HTMLParser(encoding="utf-8")).getroot()


def text(element) -> str:
    return re.sub(r"\s+", " ", element.text_content()).strip()


def shown(value: float) -> set[str]:
    """A time as the methodology says the site shows it: three significant digits, never fewer
    than whole minutes; either rounding of a tie, with and without thousands separators."""
    out = set()
    for rounding in (ROUND_HALF_UP, ROUND_HALF_EVEN):
        digits = math.floor(math.log10(value))
        exact = Decimal(repr(value))
        rounded = exact.quantize(Decimal(1).scaleb(min(0, digits - 2)), rounding=rounding)
        if rounded >= Decimal(10) ** (digits + 1):  # 9.996 -> 10.0, one digit fewer after the point
            rounded = exact.quantize(Decimal(1).scaleb(min(0, digits - 1)), rounding=rounding)
        out |= {f"{rounded:f}", f"{rounded:,f}"}
    return out


def olympic_mean(runs: list[float | None], drop: int) -> float:
    """The score by the rules: a failed run (None) counts as the slowest; `drop` runs at each
    end are dropped and the rest averaged."""
    times = sorted(math.inf if run is None else run for run in runs)
    kept = times[drop : len(times) - drop]
    return sum(kept) / len(kept)


def scored(row: dict) -> bool:
    """A result has a score when its logs are in the record, as many as its round requires."""
    return row["status"] == "scored" and len(row["runs"]) >= row["runs_required"]


def specs(doc) -> dict[str, str]:
    """A result page's facts: its <dl class="specs"> as {term: text}."""
    terms = doc.xpath("//main//dl[@class='specs']/dt")
    return {text(dt): text(dt.getnext()) for dt in terms}


def result_page_problems(out: Path, row: dict) -> list[str]:
    """A result page against its record row: division, category, runs and failures, the score
    at three significant digits, and accelerator-minutes beside a scored result with
    accelerators only."""
    name = f"en/results/{row['id']}.html"
    doc = page(out / name)
    facts = specs(doc)
    problems = []
    if facts.get("Division") != row["division"].capitalize():
        problems.append(f"{name}: division {facts.get('Division')!r}, the record says {row['division']}")
    if facts.get("Category") != row["category"].capitalize():
        problems.append(f"{name}: category {facts.get('Category')!r}, the record says {row['category']}")
    body = text(doc.find(".//main"))
    minutes = doc.xpath("//main//p[contains(@class, 'derived-figure')]")
    if not scored(row):
        if "were not in the copy of the official repository" not in body and "required logs" not in body:
            problems.append(f"{name}: an unscored result that does not say why")
        if minutes:
            problems.append(f"{name}: accelerator-minutes for a result without a score")
        return problems
    runs = f"{len(row['runs'])} runs in the logs, {row['runs_failed']} failed"
    if len(row["runs"]) == 1:
        runs = f"1 run in the logs, {row['runs_failed']} failed"
    if runs not in body:
        problems.append(f"{name}: no {runs!r}")
    score = text(doc.xpath("//main//p[@class='score']/strong")[0])
    if score.removesuffix(" min") not in shown(row["value"]):
        problems.append(f"{name}: score {score!r} is not {row['value']} at three significant digits")
    if not row.get("accelerator_count"):
        if minutes:
            problems.append(f"{name}: accelerator-minutes for a result without accelerators")
    elif not minutes or DERIVED_LINK not in html.tostring(minutes[0], encoding="unicode"):
        problems.append(f"{name}: no accelerator-minutes, labelled and linked, beside the time")
    return problems


def scaling_rows(doc) -> list[str]:
    """The result ids a result page's "Scaling efficiency" table compares it with."""
    links = doc.xpath("//main//section[h2[@id='scaling']]//tbody/tr/th/a/@href")
    return [href.removesuffix(".html") for href in links]


def scaling_problems(out: Path, record: dict[str, dict]) -> list[str]:
    """Every pair of a scaling-efficiency table shares chip variant, submitter, benchmark,
    round and division (the variant as each result page names it)."""
    variant: dict[str, str] = {}

    def variant_of(rid: str) -> str:
        if rid not in variant:
            variant[rid] = specs(page(out / "en" / "results" / f"{rid}.html")).get("Variant", "")
        return variant[rid]

    problems = []
    for rid, row in record.items():
        path = out / "en" / "results" / f"{rid}.html"
        if b'id="scaling"' not in path.read_bytes():
            continue
        for other in scaling_rows(page(path)):
            them = record[other]
            keys = [k for k in ("submitter", "benchmark", "round", "division") if row[k] != them[k]]
            if variant_of(rid) != variant_of(other):
                keys.append("variant")
            if keys:
                problems.append(f"en/results/{rid}.html: scaling set against {other}, other {keys}")
    return problems


def rank_problems(path: Path, band: float) -> list[str]:
    """A leaderboard's ranks by the methodology: results in order of time; a result within the
    band of the leading result of the current rank shares that rank (marked "="), otherwise it
    starts the next one, numbered by its place; copies and unscored results are not ranked."""
    problems = []
    for table in page(path).xpath("//main//table[thead//th[contains(., 'Rank')]]"):
        ranked = []
        for row in table.xpath("./tbody/tr"):
            cells = row.xpath("./td")
            time, rank = cells[0].get("data-value"), text(cells[1])
            if time is None or "(copy)" in text(row.xpath("./th")[0]):
                if rank != "—":
                    problems.append(f"{path.name}: {text(row)[:60]!r} ranked {rank!r}")
                continue
            ranked.append((float(time), rank))
        ranked.sort(key=lambda item: item[0])
        expected, leader, start = [], None, 0
        for place, (time, _) in enumerate(ranked, 1):
            if leader is None or time > leader * (1 + band):
                leader, start = time, place
            expected.append(start)
        for index, (time, rank) in enumerate(ranked):
            shared = expected.count(expected[index]) > 1
            want = f"{expected[index]}{'=' if shared else ''}"
            if rank != want:
                problems.append(f"{path.parent.name}/{path.name}: {time} ranked {rank}, expected {want}")
    return problems


def derived_link_problems(out: Path) -> list[str]:
    """Every page that marks a figure as derived (class "derived…") links the methodology's
    section on derived figures."""
    marked = re.compile(rb'class="[^"]*\bderived')
    problems = []
    for lang in LANGS:
        for path in sorted((out / lang).rglob("*.html")):
            data = path.read_bytes()
            own = path.name == "methodology.html" and b'id="derived-figures"' in data
            if marked.search(data) and DERIVED_LINK.encode() not in data and not own:
                problems.append(str(path.relative_to(out)))
    return problems


def typed_ratio_problems(out: Path) -> list[str]:
    """A ratio (N×) in a report's text that no reference wrote: outside the figures the site
    marks as derived and the quoted claims linked to their fact check."""
    problems = []
    for lang in LANGS:
        for path in sorted((out / lang / "reports").glob("*.html")):
            main = page(path).find(".//main")
            made = ".//*[contains(concat(' ', @class, ' '), ' derived ')]|.//a[contains(@href, '#claim-')]"
            for element in main.xpath(made + "|.//svg|.//script"):
                element.drop_tree()  # keeps the text after it
            for hit in RATIO.finditer(text(main)):
                problems.append(f"{lang}/reports/{path.name}: typed {hit.group()!r}")
    return problems


def headline_expected(rows: list[dict], round_id: str, benchmark: str) -> dict:
    """The closed-division slot as the methodology describes it, from the record: the fastest
    scored Available result, the fastest faster result of each other category, and the results
    without a score (how many, the largest scale)."""
    slot = [r for r in rows if (r["round"], r["benchmark"], r["division"]) == (round_id, benchmark, "closed")]
    timed = sorted((r for r in slot if scored(r)), key=lambda r: r["value"])
    best = next(r for r in timed if r["category"] == "available")
    ahead = {}
    for r in timed:
        if r["value"] < best["value"] and r["category"] != "available":
            ahead.setdefault(r["category"], r)
    unscored = [r for r in slot if not scored(r)]
    largest = max((r["accelerator_count"] for r in unscored), default=0)
    return {"best": best["id"], "ahead": ahead, "unscored": len(unscored), "largest": largest}


def headline_problems(cell, where: str, want: dict) -> list[str]:
    """A slot's cell (a round page's or benchmark page's row) against headline_expected."""
    said = html.tostring(cell, encoding="unicode")
    problems = []
    if f"results/{want['best']}.html" not in said:
        problems.append(f"{where}: does not name {want['best']}")
    for category, r in want["ahead"].items():
        named = f"Faster, {category.capitalize()} category: <a href=\"../results/{r['id']}.html\">"
        if named not in said:
            problems.append(f"{where}: does not name the faster {category} result {r['id']}")
    if want["unscored"]:
        unscored = f"{want['unscored']} more without a score, up to {want['largest']:,} accelerators"
        if unscored not in text(cell):
            problems.append(f"{where}: does not say {unscored!r}")
    return problems


def claim_problems(out: Path, claims: list[dict], lang: str) -> list[str]:
    """Each claim on the fact-check page: its verdict box; the "vendor figure, not audited" label
    exactly on the claims no MLPerf® log backs (English); a link to every result its check uses."""
    doc = page(out / lang / "claims" / "index.html")
    problems = []
    for claim in claims:
        found = doc.xpath(f"//*[@id='claim-{claim['id']}']")
        if not found:
            problems.append(f"{lang}: claim {claim['id']} is not on the fact-check page")
            continue
        box = html.tostring(found[0], encoding="unicode")
        check = claim.get("check", {})
        for field in ("result", "baseline"):
            if (
                check.get("kind") in RESULT_CHECKS
                and field in check
                and f"results/{check[field]}.html" not in box
            ):
                problems.append(f"{lang}: claim {claim['id']} does not link its {field} {check[field]}")
        if lang == "en" and ("vendor figure, not audited" in box) == claim.get("audited", True):
            problems.append(
                f"en: claim {claim['id']} (audited: {claim.get('audited', True)}) is labelled wrongly"
            )
        if (
            lang == "en"
            and check.get("kind") == "none"
            and re.sub(r"\s+", " ", check["reason"]["en"]).strip() not in text(found[0])
        ):
            problems.append(f"en: claim {claim['id']} does not give the reason it cannot be checked")
    return problems


def versions(benchmarks: list[dict], compatibility: dict) -> dict[str, list[set[str]]]:
    """Each benchmark id's versions as MLCommons' compatibility table gives them (sets of
    rounds); a benchmark outside the table is one version."""
    table = {model["model"]: [set(v) for v in model["versions"]] for model in compatibility["training"]}
    return {b["id"]: table.get(b.get("compatibility"), []) for b in benchmarks}


def one_version(rounds: set[str], apart: list[set[str]]) -> bool:
    return not apart or any(rounds <= version for version in apart)


def compatibility_problems(out: Path, record: dict[str, dict], apart: dict[str, list[set[str]]]) -> list[str]:
    """A chip page's comparison across rounds (a family's progress, one generation against
    another: the rows of its speed-up tables) joins only rounds of one version."""
    problems = []
    for path in sorted((out / "en" / "accelerators").glob("*.html")):
        for table in page(path).xpath("//main//table[thead//th[contains(., 'Speed-up')]]"):
            for row in table.xpath("./tbody/tr"):
                ids = [
                    href.split("/")[-1].removesuffix(".html")
                    for href in row.xpath(".//a/@href")
                    if "/results/" in href
                ]
                rows = [record[i] for i in ids]
                if len({r["benchmark"] for r in rows}) != 1:
                    continue
                rounds = {r["round"] for r in rows}
                if not one_version(rounds, apart[rows[0]["benchmark"]]):
                    problems.append(f"{path.name}: {rows[0]['benchmark']} compared across {sorted(rounds)}")
    return problems


def same_runs(row: dict) -> tuple:
    """What makes two results of a round one: their runs (a result without logs is its own)."""
    return (row["benchmark"], tuple(row["runs"])) if row["runs"] else (row["id"],)


def count_problems(out: Path, rows: list[dict]) -> list[str]:
    """Each leaderboard's count of results: the round's results of the benchmark, a copy (the
    same runs as another result of the round) once, and the copies said apart."""
    slots: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        slots.setdefault((row["benchmark"], row["round"]), []).append(row)
    problems = []
    for (benchmark, round_id), slot in sorted(slots.items()):
        copies = len(slot) - len({same_runs(row) for row in slot})
        said = text(page(out / "en" / "benchmarks" / benchmark / f"{round_id}.html").xpath("//main//p")[0])
        want = f"{len(slot) - copies} result{'' if len(slot) - copies == 1 else 's'}, "
        if not said.startswith(want) or (copies and f"{copies} more" not in said):
            problems.append(f"{benchmark}/{round_id}: {said[:80]!r}, expected {want!r} and {copies} copies")
    return problems


# MLCommons' trademark legend ("Attribution" in its messaging guidelines), with the ® its
# "Notice Symbol" asks of every use: what a citation ends with, in each language
LEGEND = {
    "en": "The MLPerf® name and logo are registered and unregistered trademarks of MLCommons "
    "Association in the United States and other countries. All rights reserved. Unauthorized "
    "use strictly prohibited. See www.mlcommons.org for more information.",
    "zh": "MLPerf®名称和标志是MLCommons协会在美国和其他国家的注册商标和未注册商标。"
    "保留所有权利，严禁未经授权使用。详情请见www.mlcommons.org。",
    "zh-hant": "MLPerf®名稱和標誌是MLCommons協會在美國和其他國家的註冊商標和未註冊商標。"
    "保留所有權利，嚴禁未經授權使用。詳情請見www.mlcommons.org。",
}
