"""Search lists each page once (issue 48): queries that match many results of one system or
chip ("H100", "A100", "NVIDIA", "BERT", a company's Chinese name) give no two rows alike (one
link, one title and snippet each), the chip's, submitter's or benchmark's own page first; a copy
of another result of its round (the same logs in a second folder) is that result, listed once;
leaderboards and results come newest round first. In Chromium over HTTP and from file://.

Expected pages and orders come from the record's YAML files and its rounds (rounds.yaml)."""

from __future__ import annotations

import re

import pytest
import yaml

from .test_search_ranking import _search
from project import ROOT


@pytest.fixture(scope="module")
def record(shipped_record) -> list[dict]:
    return shipped_record


def _rounds() -> list[str]:
    """The record's rounds, oldest first (content/data/record/rounds.yaml)."""
    text = (ROOT / "content" / "data" / "record" / "rounds.yaml").read_text("utf-8")
    return [r["id"] for r in yaml.safe_load(text)]


@pytest.mark.parametrize(
    "lang, query, page",
    [
        ("en", "H100", "accelerators/nvidia-h100.html"),
        ("en", "A100", "accelerators/nvidia-a100.html"),
        ("en", "NVIDIA", "submitters/nvidia.html"),
        ("en", "BERT", "benchmarks/bert.html"),
        ("zh", "英伟达", "submitters/nvidia.html"),  # NVIDIA's names (notes/zh-style, companies.yaml)
        ("zh-hant", "輝達", "submitters/nvidia.html"),
        ("zh-hant", "H100", "accelerators/nvidia-h100.html"),
        # names of results that read alike but for their framework or a copy's second folder
        ("en", "TPU v3-8192", None),
        ("zh", "GAUDI-8", None),
    ],
)
def test_no_two_rows_alike_and_the_named_page_first(browser, site_roots, lang, query, page):
    items = _search(browser, site_roots["http"] + f"{lang}/index.html", query)
    assert len(items) >= 5
    assert page is None or items[0]["href"] == f"../{lang}/{page}", items[:2]
    links = [item["href"] for item in items]
    assert len(set(links)) == len(links)
    looks = [(item["title"], item["snippet"]) for item in items]
    assert len(set(looks)) == len(looks), [look for look in looks if looks.count(look) > 1]


def test_a_copy_is_listed_once_as_its_original(browser, site_roots, record):
    """SMC-H100-AC-Power's v4.0 results: those whose logs another result of the round published
    first (an earlier id with the same logs_digest) are copies, found as that result."""
    name = "SMC-H100-AC-Power"
    first: dict[tuple, str] = {}
    for result in sorted(record, key=lambda r: r["id"]):
        first.setdefault((result["round"], result.get("logs_digest") or result["id"]), result["id"])
    mine = [r for r in record if r["system_name"] == name]
    originals = {r["id"] for r in mine if first[(r["round"], r["logs_digest"])] == r["id"]}
    assert 0 < len(originals) < len(mine)  # some are copies, some not
    items = _search(browser, site_roots["file"] + "en/index.html", name)
    listed = {item["href"].split("/")[-1].removesuffix(".html") for item in items if item["title"] == name}
    assert listed == originals


@pytest.mark.parametrize("how", ["http", "file"])
def test_leaderboards_come_newest_round_first(browser, site_roots, record, how):
    rounds = _rounds()
    held = sorted({r["round"] for r in record if r["benchmark"] == "bert"}, key=rounds.index, reverse=True)
    items = _search(browser, site_roots[how] + "en/index.html", "BERT")
    boards = [
        item["href"] for item in items if re.match(r"\.\./en/benchmarks/bert/v[0-9.]+\.html$", item["href"])
    ]
    assert len(held) >= 8 and boards == [f"../en/benchmarks/bert/{r}.html" for r in held]


def test_results_of_one_name_come_newest_round_first(browser, site_roots, record):
    """D74H-7U names 31 results of five rounds: the list shows 20 of them, titled so, newest
    round first."""
    name, rounds = "D74H-7U", _rounds()
    held = sorted((r["round"] for r in record if r["system_name"] == name), key=rounds.index, reverse=True)
    items = _search(browser, site_roots["http"] + "en/index.html", name)
    shown = [item["snippet"].split(" · ")[0] for item in items if item["title"] == name]
    assert len(set(held)) >= 3 and shown == held[: len(shown)] and len(shown) >= 19
