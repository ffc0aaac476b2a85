"""A citation for every result on the shipped site (issue 48, item 1), in Chromium over file://
and HTTP: on a result page of every kind (closed, open, preview and research, logs missing, too
few logs, carried over, a copy within its round, CPU only, a round's own benchmark id) the
citation names, in each language, what MLCommons' messaging guidelines ask; the button copies
exactly that text (with the Clipboard API, and by selection where the page may not use it);
without JavaScript the text is there and the button is not; at 390 px nothing overflows.

Expected fields are read here from content/data/record/*.yaml, benchmarks.yaml and
companies.yaml, and written out in each language's words; the kinds are found from the YAML by
the rules stated on the methodology page (the same runs in an earlier round: carried over; in
the same round: a copy), never from the pages."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import yaml
from lxml import html
from site_claims import LEGEND

from .quality_tools import LANGS
from .test_browser import new_context

CONTENT = Path(__file__).resolve().parents[2] / "content"
SCHEMES = ("file", "http")
DIVISION = {"en": ("Closed", "Open"), "zh": ("封闭组", "开放组"), "zh-hant": ("封閉組", "開放組")}
CATEGORY = {
    "en": {"available": "Available", "preview": "Preview", "research": "Research"},
    "zh": {"available": "可用", "preview": "预览", "research": "研究"},
    "zh-hant": {"available": "可用", "preview": "預覽", "research": "研究"},
}
# results whose accelerator count a curated entry corrects, with its source: {id: (count, official)}
CORRECTED = {
    e["id"]: (e["accelerator_count"], e["official_accelerator_count"])
    for e in yaml.safe_load((CONTENT / "data" / "results_curated.yaml").read_text("utf-8"))
    if e.get("accelerator_count") is not None
}
MONTHS = "January February March April May June July August September October November December".split()


def _data(name: str):
    return yaml.safe_load((CONTENT / "data" / name).read_text("utf-8"))


ROUNDS = {x["id"]: x for x in _data("record/rounds.yaml")}


def _same_runs(r: dict):
    times = sorted(x for x in r["runs"] or [] if x is not None)
    return (r["benchmark"], tuple(times), len(r["runs"] or [])) if len(times) >= 2 else None


def kinds(record: list[dict]) -> dict[str, str]:
    """One result id of each kind (the first by id)."""
    seen: dict = {}
    carried, copies = [], []
    rounds = [r["id"] for r in _data("record/rounds.yaml")]  # oldest first
    for r in sorted(record, key=lambda r: (rounds.index(r["round"]), r["id"])):
        key = _same_runs(r)
        if key in seen:
            (copies if seen[key]["round"] == r["round"] else carried).append(r["id"])
        elif key:
            seen[key] = r
    first = lambda test: min(r["id"] for r in record if test(r))  # noqa: E731
    return {
        "closed": first(
            lambda r: r["division"] == "closed" and r["status"] == "scored" and r["round"] == "v5.1"
        ),
        "open": first(lambda r: r["division"] == "open"),
        "preview": first(lambda r: r["category"] == "preview"),
        "research": first(lambda r: r["category"] == "research"),
        "logs-missing": first(lambda r: r["status"] == "logs missing"),
        "too-few-logs": first(lambda r: r["runs"] is not None and len(r["runs"]) < r["runs_required"]),
        "carried-over": min(carried),
        "copy": min(copies),
        "cpu-only": first(lambda r: not r["accelerator_model"] and r["status"] == "scored"),
        "round-benchmark": first(lambda r: re.search(r"_v\d+$", r["benchmark"])),
        "count-corrected": min(CORRECTED),
    }


@pytest.fixture(scope="module")
def record(shipped_record) -> dict[str, dict]:
    return {r["id"]: r for r in shipped_record}


@pytest.fixture(scope="module")
def chosen(shipped_record) -> dict[str, str]:
    return kinds(shipped_record)


def submitter(spelling: str, lang: str) -> str:
    """As published; where the language names the company otherwise (companies.yaml), that
    name with the published spelling beside it."""
    fold = lambda s: " ".join(s.replace("_", " ").split()).casefold()  # noqa: E731
    for company in _data("companies.yaml"):
        if fold(spelling) in {fold(s) for s in company.get("spellings") or ()}:
            name, latin = company["name"][lang], company["name"]["en"]
            return spelling if name == latin else f"{name}（{spelling}）"
    return spelling


def benchmark_name(benchmark: str) -> str:
    """A round's own id (resnet_v05) is cited by its benchmark's name: the rules named it so."""
    base = re.sub(r"_v\d+$", "", benchmark)
    return next(b["name"]["en"] for b in _data("benchmarks.yaml") if b["id"] == base)


def written_date(day: dt.date, lang: str) -> str:
    return (
        f"{MONTHS[day.month - 1]} {day.day}, {day.year}"
        if lang == "en"
        else f"{day.year}年{day.month}月{day.day}日"
    )


def folder(r: dict) -> str:
    """The official result folder at the commit read; a space in a folder's name is %20."""
    rnd = ROUNDS[r["round"]]
    return f"{rnd['repository']}/tree/{rnd['commit']}/{r['path'].replace(' ', '%20')}"


def expected(r: dict, lang: str) -> str:
    rnd = ROUNDS[r["round"]]
    url = folder(r)
    division = DIVISION[lang][r["division"] == "open"]
    category, when = CATEGORY[lang][r["category"]], written_date(rnd["retrieved"], lang)
    count, official = CORRECTED.get(r["id"], (r["accelerator_count"], None))
    who, count, note = submitter(r["submitter"], lang), f"{count:,}", ""
    if official is not None:  # the count the site uses, and the description's beside it
        said = {
            "en": " (the official description says {})",
            "zh": "（官方描述为{}）",
            "zh-hant": "（官方描述為{}）",
        }
        note = said[lang].format(f"{official:,}")
    if lang == "en":
        chips = f"; accelerators: {count} × {r['accelerator_model']}{note}" if r["accelerator_model"] else ""
        return (
            f"MLPerf® Training {r['round']} {division} {benchmark_name(r['benchmark'])}, category {category}; "
            f"submitter: {who}; system: {r['system_name']}{chips}. Retrieved from {url} on {when}. {LEGEND[lang]}"
        )
    words = ("类别", "系统", "获取自") if lang == "zh" else ("類別", "系統", "取自")
    chips = f"；加速器：{count} × {r['accelerator_model']}{note}" if r["accelerator_model"] else ""
    return (
        f"MLPerf® Training {r['round']}{division}{benchmark_name(r['benchmark'])}，{words[0]}：{category}；"
        f"提交者：{who}；{words[1]}：{r['system_name']}{chips}。{when}{words[2]}{url}。{LEGEND[lang]}"
    )


def citation_of(site: Path, rel: str) -> str:
    found = html.parse(str(site / rel)).getroot().xpath("//section[@class='citation']//blockquote")
    assert len(found) == 1, rel
    return found[0].text_content()


KINDS = (
    "closed",
    "open",
    "preview",
    "research",
    "logs-missing",
    "too-few-logs",
    "carried-over",
    "copy",
    "cpu-only",
    "round-benchmark",
    "count-corrected",
)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_result_page_cites_its_result(shipped_site, record, chosen, kind, lang):
    result = record[chosen[kind]]
    assert citation_of(shipped_site, f"{lang}/results/{result['id']}.html") == expected(result, lang)


def test_the_kinds_are_what_they_say(record, chosen):
    r = {kind: record[ident] for kind, ident in chosen.items()}
    assert r["too-few-logs"]["status"] == "scored" and r["logs-missing"]["value"] is None
    assert r["cpu-only"]["accelerator_count"] == 0 and r["open"]["division"] == "open"
    assert r["copy"]["round"] != r["carried-over"]["round"] or r["copy"]["id"] != r["carried-over"]["id"]
    assert len(set(chosen.values())) == len(chosen)


@pytest.mark.parametrize("lang", LANGS)
def test_every_result_page_has_one_citation_with_the_legend(shipped_site, record, lang):
    """Every page, cheaply: the folder at its commit and the legend, MLPerf® never without ®."""
    for ident, r in record.items():
        text = citation_of(shipped_site, f"{lang}/results/{ident}.html")
        assert folder(r) in text, ident
        assert text.endswith(LEGEND[lang]) and re.search(r"MLPerf(?!®)", text) is None, ident


def _open(browser, root: str, lang: str, ident: str, **options):
    context = new_context(browser, root, **options)
    page = context.new_page()
    page.goto(f"{root}{lang}/results/{ident}.html")
    return context, page


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_button_copies_the_citation_exactly(browser, site_roots, record, chosen, scheme, lang):
    root = site_roots[scheme]
    context, page = _open(browser, root, lang, chosen["closed"])
    try:
        if scheme == "http":
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=root.rstrip("/"))
        else:
            context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.click(".citation .cite-copy")
        status = page.locator(".citation .cite-status")
        status.wait_for(state="visible")
        assert (
            status.inner_text()
            == {"en": "Citation copied.", "zh": "已复制引用。", "zh-hant": "已複製引用。"}[lang]
        )
        assert page.evaluate("navigator.clipboard.readText()") == expected(record[chosen["closed"]], lang)
    finally:
        context.close()


# A page that may not use the Clipboard API (plain HTTP from another host): it has none
NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_without_the_clipboard_api_the_button_copies_by_selection(
    browser, site_roots, record, chosen, scheme
):
    root = site_roots[scheme]
    context = new_context(browser, root)
    context.add_init_script(NO_CLIPBOARD)
    page = context.new_page()
    try:
        page.goto(f"{root}en/results/{chosen['copy']}.html")
        assert page.evaluate("navigator.clipboard") is None
        page.click(".citation .cite-copy")
        assert page.evaluate("window.getSelection().toString()") == expected(record[chosen["copy"]], "en")
        status = page.locator(".citation .cite-status").inner_text()
        assert status in ("Citation copied.", "Citation selected: press Ctrl+C (⌘C on a Mac) to copy it.")
    finally:
        context.close()


def test_without_javascript_the_text_is_there_and_the_button_is_not(browser, site_roots, record, chosen):
    context, page = _open(
        browser, site_roots["file"], "zh-hant", chosen["cpu-only"], java_script_enabled=False
    )
    try:
        assert not page.locator(".citation .cite-copy").is_visible()
        quote = page.locator(".citation blockquote")
        assert quote.is_visible() and quote.inner_text() == expected(record[chosen["cpu-only"]], "zh-hant")
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_at_390_px_the_citation_fits_the_screen(browser, site_roots, chosen, lang):
    context, page = _open(
        browser, site_roots["http"], lang, chosen["round-benchmark"], viewport={"width": 390, "height": 844}
    )
    try:
        box = page.evaluate(
            "() => { const s = document.querySelector('.citation'); const r = s.getBoundingClientRect();"
            " return [r.right, document.documentElement.clientWidth, s.scrollWidth, s.clientWidth]; }"
        )
        assert box[0] <= box[1] and box[2] <= box[3], box
        button = page.locator(".citation .cite-copy").bounding_box()
        assert button["height"] >= 24 and button["width"] >= 24  # a target a thumb can hit
    finally:
        context.close()
