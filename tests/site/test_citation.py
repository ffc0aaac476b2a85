"""A citation for every result (issue 48, item 1): each result page of every kind (closed,
open, logs missing, carried over, a copy, CPU only) holds one paragraph naming what MLCommons'
messaging guidelines ask (mlcommons/policies, MLPerf_Results_Messaging_Guidelines.adoc), in
each language with MLPerf® untranslated, and links the result's own CSV and JSON, which are its
row of the round's files; the downloads page cites rounds by the same rules; the importer
records the date it read a round.

Expected texts are written out here from the sample's YAML (record_sample.py), the guidelines'
legend and the languages' date forms, never taken from the output."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from html import unescape

import pytest
import yaml
from site_claims import LEGEND

from sitegen.assemble.pipeline import build
from sitegen.importer.run import round_entry

from project import CACHE, TEMPLATES, THREE
from record_sample import ROUNDS, V10, V11, V11_LEVEL, _result, write_record_project

# v1.0 was retrieved on a known date; v1.1's entry says nothing of it (an older record)
DATED = ROUNDS.replace(
    "  commit_date: 2023-05-18\n", "  commit_date: 2023-05-18\n  retrieved: 2026-11-26\n", 1
)
EXTRA = "".join(
    [
        # the same runs as v1.0's Zenith result: carried over
        _result(
            "v1.1-zenith-zenith8-bert", "v1.1", "Zenith", "zenith8", "bert", 20.046,
            [19.9, 20.0, 20.1, 20.038, 20.2], count=8, model="Zenith Z1",
        ),
        # the same runs as v1.1's Acme result in another folder: a copy
        _result(
            "v1.1-acme-acme16-copy-bert", "v1.1", "Acme", "acme16-copy", "bert", 7.4,
            [7.3, 7.35, 7.4, 7.45, 7.5],
        ),
    ]
)  # fmt: skip
# no accelerators (in v1.0: the home page shows the latest round, whose CPU-only line in Chinese
# is another matter)
CPU = _result(
    "v1.0-acme-cpu2-resnet",
    "v1.0",
    "Acme",
    "cpu2",
    "resnet",
    90.0,
    [89.0, 89.5, 90.0, 90.5, 91.0],
    count=0,
    model=None,
)
COMPANIES = """\
- id: acme
  spellings: [Acme]
  name: {en: Acme, zh: 艾克米, zh-hant: 艾克米}
- id: zenith
  spellings: [Zenith]
  name: {en: Zenith, zh: Zenith, zh-hant: Zenith}
"""
VENDORS = """\
- id: acme
  color: "#0072B2"
- id: zenith
  color: "#009E73"
"""
RECORD = {r["id"]: r for r in yaml.safe_load(V10 + CPU) + yaml.safe_load(V11 + V11_LEVEL + EXTRA)}
ROUND_LIST = {r["id"]: r for r in yaml.safe_load(DATED)}
BENCHMARK = {"bert": "BERT-Large", "resnet": "ResNet-50 v1.5"}  # record_sample.py, project.py
LANGS = ("en", "zh", "zh-hant")

DIVISION = {
    "en": {"closed": "Closed", "open": "Open"},
    "zh": {"closed": "封闭组", "open": "开放组"},
    "zh-hant": {"closed": "封閉組", "open": "開放組"},
}
AVAILABLE = {"en": "Available", "zh": "可用", "zh-hant": "可用"}
ACME = {"en": "Acme", "zh": "艾克米（Acme）", "zh-hant": "艾克米（Acme）"}
RETRIEVED = {"en": "on November 26, 2026", "zh": "2026年11月26日获取自", "zh-hant": "2026年11月26日取自"}


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    folder = tmp_path_factory.mktemp("citation")
    changes = {
        "site.yaml": THREE,
        "data/companies.yaml": COMPANIES,
        "data/vendors.yaml": VENDORS,
        "data/record/rounds.yaml": DATED,
        "data/record/results-v1.0.yaml": V10 + CPU,
        "data/record/results-v1.1.yaml": V11 + V11_LEVEL + EXTRA,
    }
    build(write_record_project(folder, changes), TEMPLATES, folder / "out", cache=CACHE)
    return folder / "out"


def citation(out, path: str) -> str:
    html = (out / path).read_text("utf-8")
    found = re.findall(r'<blockquote class="cite-text[^"]*"><p>(.*?)</p></blockquote>', html, re.S)
    assert len(found) == 1, path
    return unescape(found[0])


def expected(ident: str, lang: str) -> str:
    """The citation written out from the record's YAML, in the language's own words."""
    r = RECORD[ident]
    rnd = ROUND_LIST[r["round"]]
    url = f"{rnd['repository']}/tree/{rnd['commit']}/{r['path']}"
    who = ACME[lang] if r["submitter"] == "Acme" else r["submitter"]
    count = f"{r['accelerator_count']:,}"
    bench, division = BENCHMARK[r["benchmark"]], DIVISION[lang][r["division"]]
    dated = "retrieved" in rnd
    if lang == "en":
        chips = f"; accelerators: {count} × {r['accelerator_model']}" if r["accelerator_model"] else ""
        source = f"Retrieved from {url} {RETRIEVED['en']}." if dated else f"From {url}."
        return (
            f"MLPerf® Training {r['round']} {division} {bench}, category Available; "
            f"submitter: {who}; system: {r['system_name']}{chips}. {source} {LEGEND['en']}"
        )
    system, chip_word = ("系统", "加速器") if lang == "zh" else ("系統", "加速器")
    chips = f"；{chip_word}：{count} × {r['accelerator_model']}" if r["accelerator_model"] else ""
    source = f"{RETRIEVED[lang]}{url}。" if dated else f"{'来自' if lang == 'zh' else '來自'}{url}。"
    category = "类别" if lang == "zh" else "類別"
    return (
        f"MLPerf® Training {r['round']}{division}{bench}，{category}：{AVAILABLE[lang]}；"
        f"提交者：{who}；{system}：{r['system_name']}{chips}。{source}{LEGEND[lang]}"
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ident", sorted(RECORD))
def test_every_result_page_cites_its_result(out, ident, lang):
    assert citation(out, f"{lang}/results/{ident}.html") == expected(ident, lang)


def test_every_kind_of_result_is_in_the_sample():
    kinds = {r["division"] for r in RECORD.values()} | {r["status"] for r in RECORD.values()}
    assert {"closed", "open", "logs missing", "scored"} <= kinds
    assert any(r["accelerator_model"] is None for r in RECORD.values())


@pytest.mark.parametrize("lang", LANGS)
def test_a_carried_over_result_and_a_copy_cite_their_own_folders(out, lang):
    for ident, folder in (
        ("v1.1-zenith-zenith8-bert", "zenith8"),
        ("v1.1-acme-acme16-copy-bert", "acme16-copy"),
    ):
        html = (out / f"{lang}/results/{ident}.html").read_text("utf-8")
        assert 'class="carry-note"' in html  # the page is of that kind
        assert f"/tree/{ROUND_LIST['v1.1']['commit']}/{RECORD[ident]['submitter']}/results/{folder}/bert" in (
            citation(out, f"{lang}/results/{ident}.html")
        )


@pytest.mark.parametrize("lang", LANGS)
def test_the_citation_has_a_copy_button_hidden_without_javascript(out, lang):
    html = (out / f"{lang}/results/v1.0-acme-acme16-bert.html").read_text("utf-8")
    assert re.search(r'<button type="button" class="cite-copy"[^>]* hidden>', html)
    assert re.search(r'<script src="[./]*assets/cite\.js" defer></script>', html)
    assert (out / "assets" / "cite.js").is_file()


@pytest.mark.parametrize("lang", LANGS)
def test_no_result_id_is_shown(out, lang):
    for ident in RECORD:
        text = citation(out, f"{lang}/results/{ident}.html")
        assert not re.search(r"\bID\b|\bentry\b|编号|編號", text), ident


def read_csv(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


@pytest.mark.parametrize("ident", sorted(RECORD))
def test_each_result_downloads_its_row_of_the_round_files(out, ident):
    rnd = RECORD[ident]["round"]
    own_csv = (out / f"downloads/results/{ident}.csv").read_bytes()
    round_csv = (out / f"downloads/mlperf-training-{rnd}.csv").read_bytes()
    assert own_csv.splitlines()[0] == round_csv.splitlines()[0]  # the same columns, in order
    [row] = read_csv(own_csv)
    assert row == {r["id"]: r for r in read_csv(round_csv)}[ident]
    own = json.loads((out / f"downloads/results/{ident}.json").read_text("utf-8"))
    whole = json.loads((out / f"downloads/mlperf-training-{rnd}.json").read_text("utf-8"))
    assert own["results"] == [r for r in whole["results"] if r["id"] == ident]
    assert own["provenance"] == whole["provenance"] and "MLPerf®" in own["how_to_cite"]
    assert own["results"][0]["value"] == RECORD[ident]["value"]


@pytest.mark.parametrize("lang", LANGS)
def test_each_result_page_links_its_own_files(out, lang):
    html = (out / f"{lang}/results/v1.0-acme-acme16-bert.html").read_text("utf-8")
    for suffix in ("csv", "json"):
        assert f'href="../../downloads/results/v1.0-acme-acme16-bert.{suffix}" download' in html


def test_one_small_file_pair_per_result(out):
    names = sorted(p.name for p in (out / "downloads" / "results").iterdir())
    assert names == sorted(f"{i}.{s}" for i in RECORD for s in ("csv", "json"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_downloads_page_cites_rounds_by_the_same_rules(out, lang):
    text = citation(out, f"{lang}/downloads.html")
    v10, v11 = ROUND_LIST["v1.0"], ROUND_LIST["v1.1"]
    assert text.endswith(LEGEND[lang]) and text.startswith("MLPerf® Training")
    assert "MLPerf " not in text and "MLPerf Training" not in text  # never without ®
    commit = {"en": " at commit ", "zh": "的提交", "zh-hant": "的版本"}[lang]
    for rnd in (v10, v11):
        assert f"{rnd['repository']}{commit}{rnd['commit']}" in text
    date = {"en": "on November 26, 2026", "zh": "于2026年11月26日", "zh-hant": "於2026年11月26日"}[lang]
    assert date in text and text.count("2026") == 1  # v1.1 has no date of its own


@pytest.mark.parametrize(
    "name", ["mlperf-training-v1.0", "mlperf-training-all", "results/v1.0-acme-acme16-bert"]
)
def test_the_json_files_cite_with_the_legend(out, name):
    document = json.loads((out / f"downloads/{name}.json").read_text("utf-8"))
    assert document["title"] == "MLPerf® Training results"
    assert document["licence"].endswith(LEGEND["en"]) and document["how_to_cite"].endswith(LEGEND["en"])
    assert (
        f"v1.0 {ROUND_LIST['v1.0']['repository']} at commit {ROUND_LIST['v1.0']['commit']} retrieved 2026-11-26"
        in (document["how_to_cite"])
    )


def test_an_import_dates_a_new_commit_and_keeps_the_date_of_one_read_before():
    fresh = {"round": "v1.0", "commit": "c" * 40, "commit_date": "2023-05-18", "records": [], "skips": []}
    today = dt.date(2026, 12, 2)
    assert round_entry(fresh, None, today)["retrieved"] == "2026-12-02"
    older = {"id": "v1.0", "commit": "c" * 40, "retrieved": dt.date(2026, 11, 26)}
    assert round_entry(fresh, older, today)["retrieved"] == "2026-11-26"
    moved = {**older, "commit": "d" * 40}
    assert round_entry(fresh, moved, today)["retrieved"] == "2026-12-02"
    assert "retrieved" not in round_entry(fresh, None, None)  # no date given, none written
