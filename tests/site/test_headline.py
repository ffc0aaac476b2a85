"""Headline slots (derive/references.py, `headline`): a round's fastest result of a benchmark as
the round page, the benchmark page and the home page show it. MLCommons ranks Available,
Preview and Research results apart: the slot ranks the Available results and names a faster
result of another category beside the fastest; results without a score are named with their
scale and why.

The sample record's v1.1 BERT slot (tests/record_sample.py) holds Acme's 7.4 min and Zenith's
7.6 min (Available, 16 accelerators each). Added here: a Preview result of 5.0 min on 32
accelerators (faster than both) and a result of 64 accelerators whose logs are missing."""

from __future__ import annotations

import re

import pytest

from sitegen.assemble.pipeline import build
from sitegen.content.load import load_site
from sitegen.derive.references import headline

from project import CACHE, TEMPLATES
from record_sample import V11, V11_LEVEL, _result, write_record_project

PREVIEW = _result(
    "v1.1-nova-nova32-bert", "v1.1", "Nova", "nova32", "bert", 5.0, [4.8, 5.0, 5.0, 5.0, 5.2],
    count=32, model="Zenith Z1", category="preview",
)  # fmt: skip
MISSING = _result(
    "v1.1-bigco-huge-bert", "v1.1", "BigCo", "huge", "bert", None, [], count=64, model="Big B9",
    status="logs missing",
)  # fmt: skip
CHANGES = {"data/record/results-v1.1.yaml": V11 + V11_LEVEL + PREVIEW + MISSING}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return write_record_project(tmp_path_factory.mktemp("headline"), CHANGES)


@pytest.fixture(scope="module")
def out(project):
    target = project.parent / "out"
    build(project, TEMPLATES, target, cache=CACHE)
    return target


def text(out, path: str) -> str:
    html = (out / path).read_text("utf-8")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).replace("&#39;", "'")


def test_the_slot_ranks_available_results_and_names_the_faster_preview_one(project):
    h = headline(load_site(project), "v1.1", "bert")
    assert h.best["id"] == "v1.1-acme-acme16-bert"  # 7.4 min: the fastest Available result
    assert [r["id"] for r in h.level] == ["v1.1-zenith-zenith16-bert"]  # 7.6 <= 7.4 × 1.05
    assert [r["id"] for r in h.ahead] == ["v1.1-nova-nova32-bert"]  # 5.0 min, Preview
    assert [r["id"] for r in h.unscored] == ["v1.1-bigco-huge-bert"]
    assert h.unscored_largest == 64 and h.unscored_why == ["logs_missing"]


def test_a_slot_without_an_available_result_shows_the_fastest_of_another_category_as_such(tmp_path):
    resnet = PREVIEW.replace("bert", "resnet")  # v1.1 ResNet: this Preview result alone
    h = headline(
        load_site(
            write_record_project(tmp_path, {"data/record/results-v1.1.yaml": V11 + V11_LEVEL + resnet})
        ),
        "v1.1",
        "resnet",
    )
    assert h.best["id"] == "v1.1-nova-nova32-resnet" and h.best["category"] == "preview"
    assert h.ahead == () and h.unscored == ()


NOTES = {
    "en": (
        "Faster, Preview category: 5.00 min (Nova, 32 accelerators).",
        "1 more without a score, up to 64 accelerators (logs missing).",
    ),
    "zh": (
        "预览类有更快成绩：5.00分钟（Nova，32个加速器）。",
        "另有1项成绩没有分数，最多64个加速器（日志缺失）。",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_round_page_names_the_faster_preview_result_and_the_unscored_one(out, lang):
    page = text(out, f"{lang}/rounds/v1.1.html")
    row = page[page.index("BERT") :]
    faster, unscored = NOTES[lang]
    assert faster in row and unscored in row


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_benchmark_pages_fastest_of_each_round_names_them_too(out, lang):
    page = text(out, f"{lang}/benchmarks/bert.html")
    summary = page[page.index("v1.1") :]
    faster, unscored = NOTES[lang]
    assert faster in summary and unscored in summary
    assert "7.40" in summary.split(faster)[0]  # the Available result is the one ranked first


def test_the_home_pages_glance_marks_the_cell(out):
    home = (out / "en" / "index.html").read_text("utf-8")
    glance = home[home.index('id="glance"') :]
    assert '<span class="ahead-mark"' in glance and '<span class="unscored-mark"' in glance
    assert "A Preview or Research result of that round was faster than the Available result shown" in glance


# --- the shipped site: every headline slot of every round page, in every language -------------

FASTER = {"en": "Faster, {} category: ", "zh": "{}类有更快成绩：", "zh-hant": "{}類有更快成績："}
CATEGORY = {
    "en": {"preview": "Preview", "research": "Research"},
    "zh": {"preview": "预览", "research": "研究"},
    "zh-hant": {"preview": "預覽", "research": "研究"},
}
UNSCORED = {"en": "without a score", "zh": "没有分数", "zh-hant": "沒有分數"}


def _slots(records) -> dict[tuple[str, str], list[dict]]:
    found: dict[tuple[str, str], list[dict]] = {}
    for r in records:
        if r["division"] == "closed":
            found.setdefault((r["round"], r["benchmark"]), []).append(r)
    return found


def _row(page: str, benchmark: str, round_id: str) -> str:
    table = page[page.index('id="round-fastest"') :]
    table = table[: table.index("</table>")]
    return next(
        row for row in table.split("<tr>") if f'href="../benchmarks/{benchmark}/{round_id}.html"' in row
    )


@pytest.mark.parametrize("lang", ["en", "zh", "zh-hant"])
def test_every_round_page_names_faster_results_of_other_categories_and_unscored_ones(
    shipped_site, shipped_record, lang
):
    # Worked out from the record's files: in each slot, the fastest Available time, and the
    # fastest time of each other category; a category faster than Available must be named.
    named = unscored = 0
    for (round_id, benchmark), rows in sorted(_slots(shipped_record).items()):
        page = (shipped_site / lang / "rounds" / f"{round_id}.html").read_text("utf-8")
        timed = [r for r in rows if r["value"] is not None]
        if not timed:
            continue
        row = _row(page, benchmark, round_id)
        available = min((r["value"] for r in timed if r["category"] == "available"), default=None)
        for category in ("preview", "research"):
            fastest = min((r["value"] for r in timed if r["category"] == category), default=None)
            ahead = available is not None and fastest is not None and fastest < available
            assert (FASTER[lang].format(CATEGORY[lang][category]) in row) == ahead, (round_id, benchmark)
            named += ahead
        if any(r["value"] is None for r in rows):
            assert UNSCORED[lang] in row, (round_id, benchmark)
            unscored += 1
    assert named >= 14 and unscored >= 6  # v0.5 GNMT, v0.7's Research TPUs, v1.0's Preview TPUs…
