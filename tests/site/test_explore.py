"""The explorer on the sample site (tests/record_sample.py): one data script per round with
every result of the round, the same bytes on every build, the page in each language with its
filters, in the navigation, the sitemap and the search index.

Expected rows are written here from the sample's YAML and its chips (record_sample.CHIPS), the
accelerator-minutes worked out by hand; nothing is copied from the output."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import yaml

from sitegen.assemble.pipeline import build

from project import CACHE, REPORT_ZH, SITE, TEMPLATES, VENDORS
from record_sample import V10, V11, V11_LEVEL, on_record, write_record_project
from search_files import search_text

PREFIX = re.compile(
    r'\Awindow\.EXPLORE_DATA = window\.EXPLORE_DATA \|\| \{\};\nwindow\.EXPLORE_DATA\["([^"]+)"\] = '
)


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The sample built twice, from two copies of its content, each with its own cache; the
    second with a base address (so it has a sitemap)."""
    outs = []
    for name, changes in (("a", {}), ("b", {"site.yaml": SITE + "base_url: https://example.org/ledger/\n"})):
        folder = tmp_path_factory.mktemp(f"explore-{name}")
        content = write_record_project(folder / "p", changes)
        out = folder / "out"
        build(content, TEMPLATES, out, cache=CACHE)
        outs.append(out)
    return outs


def data_of(out, round_id: str) -> list[dict]:
    text = (out / "assets" / "explore" / f"{round_id}.js").read_text("utf-8")
    found = PREFIX.match(text)
    assert found and found.group(1) == round_id, text[:120]
    payload = json.loads(text[found.end() :].rstrip().removesuffix(";"))
    return [dict(zip(payload["fields"], row, strict=True)) for row in payload["rows"]]


def test_one_data_script_per_round_with_every_result(sites):
    out = sites[0]
    assert sorted(p.name for p in (out / "assets" / "explore").iterdir()) == ["v1.0.js", "v1.1.js"]
    for round_id, text in (("v1.0", V10), ("v1.1", V11 + V11_LEVEL)):
        assert {r["id"] for r in data_of(out, round_id)} == {r["id"] for r in yaml.safe_load(text)}


def test_a_row_holds_the_result_with_its_chip_family_and_derived_work(sites):
    rows = {r["id"]: r for r in data_of(sites[0], "v1.0")}
    acme = rows["v1.0-acme-acme16-bert"]
    assert acme == {
        "id": "v1.0-acme-acme16-bert",
        "benchmark": "bert",
        "division": "closed",
        "category": "available",
        "submitter": "acme",
        "submitter_name": "Acme",
        "system_name": "ACME16 system",
        "chip": "acme-a1",  # "Acme A1" is family A1 of vendor acme (CHIPS)
        "accelerator_count": 16,
        "minutes": 30.123456,
        "accelerator_minutes": pytest.approx(481.975296),  # 30.123456 min × 16
        "status": "scored",
        "carried_from": None,
        "copy_of": None,
    }
    assert rows["v1.0-bigco-giant-bert"]["chip"] == "bigco-b9"
    assert rows["v1.0-bigco-giant-bert"]["accelerator_minutes"] == pytest.approx(422.38976)  # 0.41249 × 1024
    missing = rows["v1.0-bigco-giant-resnet"]
    assert (missing["minutes"], missing["accelerator_minutes"], missing["status"]) == (
        None,
        None,
        "logs missing",
    )
    assert rows["v1.0-zenith-zenith8-bert"]["accelerator_minutes"] == pytest.approx(160.368)  # 20.046 × 8


def test_the_data_scripts_are_the_same_bytes_on_every_build(sites):
    first, second = (sorted((out / "assets" / "explore").iterdir()) for out in sites)
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


@pytest.mark.parametrize(
    "lang, title, nav",
    [("en", "Explore the record", "Explore"), ("zh", "浏览官方记录", "数据浏览")],
)
def test_the_page_in_each_language_with_its_filters(sites, lang, title, nav):
    out = sites[0]
    html = (out / lang / "explore.html").read_text("utf-8")
    assert f"<h1>{title}</h1>" in html
    # every round (newest first after "all"), benchmark, submitter and chip family of the record
    rounds = re.search(r'<select id="x-round" name="round">(.*?)</select>', html).group(1)
    assert re.findall(r'<option value="([^"]+)"', rounds) == ["all", "v1.1", "v1.0"]
    chips = re.search(r'<select id="x-chip" name="chip">(.*?)</select>', html).group(1)
    assert set(re.findall(r'<option value="([^"]+)"', chips)) == {"acme-a1", "bigco-b9", "zenith-z1"}
    submitters = re.search(r'<select id="x-submitter" name="submitter">(.*?)</select>', html).group(1)
    assert re.findall(r'<option value="([^"]+)"', submitters) == ["acme", "bigco", "zenith"]
    for name in ("round", "benchmark", "division", "category", "submitter", "chip", "min", "max"):
        assert f'<label for="x-{name}">' in html
    # the data is not in the page: it is loaded on demand, and the chart library on request
    assert "assets/explore/" not in html and "vega-bundle.js" not in html
    assert "<noscript>" in html and "downloads.html" in html.split("<noscript>")[1].split("</noscript>")[0]
    # every page's main navigation leads here
    home = (out / lang / "index.html").read_text("utf-8")
    main_nav = home.split('class="main-nav"')[1].split("</nav>")[0]
    assert f'<a href="explore.html">{nav}</a>' in main_nav


def test_the_page_is_searched(sites):
    index = search_text(sites[0], "en")
    assert '"url":"en/explore.html"' in index


def test_the_sitemap_lists_the_page_in_each_language(sites):
    sitemap = (sites[1] / "sitemap.xml").read_text("utf-8")
    for lang in ("en", "zh"):
        assert f"<loc>https://example.org/ledger/{lang}/explore.html</loc>" in sitemap


CSV_PREFIX = re.compile(
    r'\Awindow\.EXPLORE_CSV = window\.EXPLORE_CSV \|\| \{\};\nwindow\.EXPLORE_CSV\["([^"]+)"\] = '
)


def test_each_round_has_its_csv_lines_for_a_download_of_a_selection(sites):
    """assets/explore-csv/<round>.js: the round file's header and, by result id, its line, so
    that a selection's download has the round file's columns and values."""
    out = sites[0]
    assert sorted(p.name for p in (out / "assets" / "explore-csv").iterdir()) == ["v1.0.js", "v1.1.js"]
    for round_id, text in (("v1.0", V10), ("v1.1", V11 + V11_LEVEL)):
        script = (out / "assets" / "explore-csv" / f"{round_id}.js").read_text("utf-8")
        found = CSV_PREFIX.match(script)
        assert found and found.group(1) == round_id, script[:120]
        payload = json.loads(script[found.end() :].rstrip().removesuffix(";"))
        official = list(
            csv.reader(
                io.StringIO((out / "downloads" / f"mlperf-training-{round_id}.csv").read_text("utf-8"))
            )
        )
        assert next(csv.reader([payload["header"]])) == official[0]
        assert set(payload["rows"]) == {r["id"] for r in yaml.safe_load(text)}
        for line in official[1:]:
            assert next(csv.reader([payload["rows"][line[0]]])) == line


def test_the_page_opens_on_one_benchmark_of_the_latest_round(sites):
    """v1.1, the sample's latest round, holds BERT results only; "all benchmarks" is a choice."""
    html = (sites[0] / "en" / "explore.html").read_text("utf-8")
    assert 'data-default-benchmark="bert"' in html
    benchmarks = re.search(r'<select id="x-benchmark" name="benchmark">(.*?)</select>', html).group(1)
    assert re.findall(r'<option value="([^"]+)">([^<]+)</option>', benchmarks)[0] == (
        "all",
        "All benchmarks, each in its own group",
    )


def test_submitters_are_named_as_each_language_writes_them(tmp_path):
    """One name per company per language: where companies.yaml names the record's spelling
    "Acme", the Chinese explorer (its names, its submitter filter), the compare page and a
    report's results table write 艾克米, as the leaderboards do; English keeps Acme."""
    companies = "- id: acme\n  spellings: [Acme]\n  name: {en: Acme, zh: 艾克米}\n"
    vendors = VENDORS.replace("  name: {en: Acme, zh: 艾克米}\n", "")  # named by companies.yaml
    block = "\n```results\nbenchmark: bert\nround: v1.0\nsystems: [acme-16, zenith-8]\n```\n"
    changes = {"data/companies.yaml": companies, "data/vendors.yaml": vendors}
    changes["reports/acme-vs-zenith.zh.md"] = on_record(REPORT_ZH) + block  # English has it
    content = write_record_project(tmp_path / "p", changes)
    out = tmp_path / "out"
    build(content, TEMPLATES, out, cache=CACHE)
    for lang, acme in (("en", "Acme"), ("zh", "艾克米")):
        explore = (out / lang / "explore.html").read_text("utf-8")
        names = json.loads(re.search(r"data-names='([^']*)'", explore).group(1).replace("&#34;", '"'))
        assert names["submitter"]["Acme"] == acme and names["submitter"]["Zenith"] == "Zenith"
        assert re.search(rf'<option value="acme">{acme}</option>', explore)
        compare = (out / lang / "compare.html").read_text("utf-8")
        companies_attr = re.search(r"data-companies='([^']*)'", compare).group(1).replace("&#34;", '"')
        assert json.loads(companies_attr)["Acme"] == acme
        report = (out / lang / "reports" / "acme-vs-zenith.html").read_text("utf-8")
        table = report[report.index('<table class="data sortable results">') :]
        assert f"<td>{acme}</td>" in table[: table.index("</table>")]
