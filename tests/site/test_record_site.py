"""The whole MLPerf record as the site's data: loading, the derived results table, and the
record's pages (leaderboards, rounds, one page per result) in both languages.

Expected values are computed here from the sample's own YAML (tests/record_sample.py), not
copied from the output."""

import json
import math
import re

import pytest
import yaml

from sitegen.assemble.pipeline import build
from sitegen.base.errors import ContentError
from sitegen.content.load import load_site

from project import CACHE, TEMPLATES, write_project
from record_sample import CURATED, ROUNDS, SYSTEM_MAP, V10, V11, V11_LEVEL, write_record_project
from search_files import search_docs

RECORD = {r["id"]: r for r in yaml.safe_load(V10) + yaml.safe_load(V11 + V11_LEVEL)}
ROUND_LIST = yaml.safe_load(ROUNDS)
MAPPED = dict(line.split(": ") for line in SYSTEM_MAP.splitlines() if not line.startswith("#"))


def three_digits(value: float) -> str:
    """The display rule, written independently: 3 significant digits, at least whole units."""
    places = max(0, 2 - math.floor(math.log10(value)))
    return f"{value:,.{places}f}"


def folder_of(record: dict) -> str:
    return f"{record['round']}/{record['path'].split('/')[0]}/{record['system_folder']}"


@pytest.fixture(scope="module")
def record_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("record")
    content = write_record_project(folder)
    out = folder / "out"
    build(content, TEMPLATES, out, cache=CACHE)
    return content, out


def page(out, path: str) -> str:
    return (out / path).read_text("utf-8")


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- loading -------------------------------------------------------------------------------------


def test_the_record_loads_with_its_rounds(record_site):
    site = load_site(record_site[0])
    assert list(site.rounds) == [r["id"] for r in ROUND_LIST]
    assert set(site.record) == set(RECORD)
    for ident, raw in RECORD.items():
        assert site.record[ident]["value"] == raw["value"]
        assert site.record[ident]["accelerator_count"] == raw["accelerator_count"]
    assert site.record_rounds("bert") == ["v1.0", "v1.1"]
    assert [r["id"] for r in site.record_results("bert", "v1.0")] == sorted(
        (r["id"] for r in RECORD.values() if r["round"] == "v1.0" and r["benchmark"] == "bert"),
        key=lambda i: RECORD[i]["value"],
    )


def test_a_bad_record_is_an_error_with_file_and_line(tmp_path):
    bad = V10.replace("value: 20.046", "value: fast")
    line = bad.splitlines().index("- id: v1.0-zenith-zenith8-bert") + 17  # its value line
    content = write_record_project(tmp_path, {"data/record/results-v1.0.yaml": bad})
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert (
        f"content/data/record/results-v1.0.yaml:{line}: record 'v1.0-zenith-zenith8-bert': "
        "field 'value': 'fast' is not a number"
    ) in str(error.value).splitlines()


def test_a_mapped_folder_missing_from_the_record_names_the_mapping_line(tmp_path):
    mapping = SYSTEM_MAP + "v1.1/Zenith/zenith8: zenith-8\n"
    content = write_record_project(tmp_path, {"data/mlperf_systems.yaml": mapping})
    with pytest.raises(ContentError) as error:
        load_site(content)
    line = len(mapping.splitlines())
    assert str(error.value) == (
        f"content/data/mlperf_systems.yaml:{line}: system folder "
        "'v1.1/Zenith/zenith8' is not in the record (content/data/record/)"
    )


def test_a_curated_entry_must_agree_with_the_record(tmp_path):
    """The accelerator model may not disagree (a count may: it is a correction with a source,
    tests/site/test_chips.py)."""
    content = write_record_project(
        tmp_path, {"data/results_curated.yaml": CURATED + "  accelerator_model: Zenith Z2\n"}
    )
    with pytest.raises(ContentError) as error:
        load_site(content)
    record_line = V10.splitlines().index("- id: v1.0-zenith-zenith8-bert") + 10
    assert str(error.value) == (  # both places name the field's own line
        "content/data/results_curated.yaml:3: record 'v1.0-zenith-zenith8-bert': "
        "accelerator_model 'Zenith Z2' disagrees with the record ('Zenith Z1', "
        f"content/data/record/results-v1.0.yaml:{record_line})"
    )


def test_a_curated_system_must_agree_with_its_official_descriptions(tmp_path):
    import project

    systems = project.SYSTEMS.replace("accelerator_count: 16", "accelerator_count: 32", 1)
    content = write_record_project(tmp_path, {"data/systems.yaml": systems})
    with pytest.raises(ContentError) as error:
        load_site(content)
    line = systems.splitlines().index("  accelerator_count: 32") + 1
    record_line = V10.splitlines().index("- id: v1.0-acme-acme16-bert") + 11
    map_line = SYSTEM_MAP.splitlines().index("v1.0/Acme/acme16: acme-16") + 1
    assert str(error.value) == (
        f"content/data/systems.yaml:{line}: system 'acme-16': accelerator_count 32 disagrees "
        "with the official system description of v1.0/Acme/acme16 (16 accelerators, "
        f"content/data/record/results-v1.0.yaml:{record_line}; mapped in "
        f"content/data/mlperf_systems.yaml:{map_line})"
    )


def test_a_curated_system_with_accelerators_is_no_folder_of_processors_alone(tmp_path):
    """A folder whose official description has no accelerators (CPU-only) mapped to a system
    with 16: the pages would show the system's 16 beside a record result of none."""
    start = V10.index("- id: v1.0-acme-acme16-bert")
    record = V10[:start] + V10[start:].replace("accelerator_count: 16", "accelerator_count: 0", 1)
    content = write_record_project(tmp_path, {"data/record/results-v1.0.yaml": record})
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert "system 'acme-16': accelerator_count 16 disagrees with the official system " in str(error.value)
    assert "description of v1.0/Acme/acme16 (processors alone, no accelerators, " in str(error.value)


def test_results_yaml_beside_a_record_is_an_error(tmp_path):
    """A hand-written results table left from before the record is said at its file."""
    content = write_record_project(tmp_path, {"data/results.yaml": "- id: r-acme\n  round: v1.0\n"})
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert (
        "content/data/results.yaml: the results now come from content/data/record/: delete this "
        "file (curated fields go to content/data/results_curated.yaml)"
    ) in str(error.value).splitlines()


def test_a_site_without_a_record_is_one_error(tmp_path):
    """Every site has a record: without one the load stops at one message naming the file."""
    import project

    content = write_project(tmp_path, dict.fromkeys(project.RECORD))
    assert not (content / "data" / "record").exists()
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert [line for line in str(error.value).splitlines() if line.startswith("content/")] == [
        "content/data/record/rounds.yaml: missing the MLPerf record: import it with "
        "`python build.py import-record` (docs/importing.md), or start a new site with "
        "`python build.py init DIR`"
    ]


def test_a_record_benchmark_needs_its_facts(tmp_path):
    import project

    content = write_record_project(tmp_path, {"data/benchmarks.yaml": project.BENCHMARKS})
    with pytest.raises(ContentError) as error:
        load_site(content)
    line = V10.splitlines().index("- id: v1.0-bigco-giant-resnet") + 3  # its benchmark line
    assert (
        f"content/data/record/results-v1.0.yaml:{line}: record 'v1.0-bigco-giant-resnet': "
        "benchmark 'resnet' is not in content/data/benchmarks.yaml"
    ) in str(error.value)


# --- the derived results table -------------------------------------------------------------------


def test_the_results_table_is_the_mapped_record_at_full_precision(record_site):
    site = load_site(record_site[0])
    expected = {i: r for i, r in RECORD.items() if folder_of(r) in MAPPED and r["status"] == "scored"}
    assert set(site.tables["results"]) == set(expected)
    for ident, raw in expected.items():
        result = site.tables["results"][ident]
        assert result["value"] == raw["value"]  # never rounded
        assert result["system"] == MAPPED[folder_of(raw)]
        assert result["source"] == f"mlperf-training-{raw['round']}"
        # one shape of a result: the record's own, a failed run kept as null, plus its system
        assert {k: result[k] for k in raw} == {k: site.record[ident][k] for k in raw}
        assert result["runs"] == raw["runs"]
    assert site.tables["results"]["v1.0-zenith-zenith8-bert"]["note"]["en"] == "A curated note."


def test_claims_are_checked_against_full_precision(record_site):
    from sitegen.derive import claims as derive

    site = load_site(record_site[0])
    check = derive.check_claim(site, site.get("claims", "c-ppr"))
    acme, zenith = RECORD["v1.0-acme-acme16-bert"]["value"], RECORD["v1.0-zenith-zenith8-bert"]["value"]
    assert check.value == pytest.approx((zenith * 300000) / (acme * 150000))
    assert check.verdict != "differs"  # 1.331 rounds to the stated 1.3 (prices may make it "partly")


# --- pages ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_leaderboard_groups_by_division_category_and_scale(record_site, lang):
    html = page(record_site[1], f"{lang}/benchmarks/bert/v1.0.html")
    bert = [r for r in RECORD.values() if r["round"] == "v1.0" and r["benchmark"] == "bert"]
    sections = re.findall(r'<section aria-labelledby="([a-z0-9_-]+)">(.*?)</section>', html, re.S)
    scale = {8: "1_8", 16: "9_64", 1024: "513"}
    expected = sorted(
        {(r["division"], scale[r["accelerator_count"]]) for r in bert},
        key=lambda k: (k[0] != "closed", ["1_8", "9_64", "65_512", "513"].index(k[1])),
    )
    assert [s[0] for s in sections] == [f"{d}-available-{s}" for d, s in expected]
    for r in bert:
        body = dict(sections)[f"{r['division']}-available-{scale[r['accelerator_count']]}"]
        assert f'href="../../results/{r["id"]}.html">{r["system_name"]}</a>' in body
        assert f'data-value="{r["value"]}">{three_digits(r["value"])}</td>' in body
        assert r["submitter"] in body and r["accelerator_model"] in body
        runs = sum(1 for x in r["runs"] if x is not None) + r["runs_failed"] * 0
        assert re.search(rf'>{len(r["runs"])}\s?[（(]{r["runs_failed"]}[)）]</td>', body), runs
    assert 'class="data sortable results"' in html


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_result_page_shows_runs_facts_and_the_official_folder(record_site, lang):
    r = RECORD["v1.0-acme-acme16-open-bert"]
    rnd = next(x for x in ROUND_LIST if x["id"] == r["round"])
    html = page(record_site[1], f"{lang}/results/{r['id']}.html")
    assert f'href="{rnd["repository"]}/tree/{rnd["commit"]}/{r["path"]}"' in html
    unit = "分钟" if lang == "zh" else " min"
    for run in (x for x in r["runs"] if x is not None):
        assert f"<li>{three_digits(run)}{unit}</li>" in html
    assert html.count("<li>") >= len(r["runs"])
    assert three_digits(r["value"] * r["accelerator_count"]) in html  # accelerator-minutes
    assert ("开放组" if lang == "zh" else "Open") in text_of(html)
    assert r["accelerator_model"] in html and r["system_name"] in html


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_logs_missing_is_said_plainly(record_site, lang):
    html = page(record_site[1], f"{lang}/results/v1.0-bigco-giant-resnet.html")
    assert ("日志缺失" if lang == "zh" else "logs missing") in html
    board = page(record_site[1], f"{lang}/benchmarks/resnet/v1.0.html")
    assert ("日志缺失" if lang == "zh" else "logs missing") in board


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_round_pages_and_index(record_site, lang):
    out = record_site[1]
    for rnd in ROUND_LIST:
        results = [r for r in RECORD.values() if r["round"] == rnd["id"]]
        html = text_of(page(out, f"{lang}/rounds/{rnd['id']}.html"))
        for submitter in {r["submitter"] for r in results}:
            n = sum(1 for r in results if r["submitter"] == submitter)
            assert (f"{submitter}（{n}）" if lang == "zh" else f"{submitter} ({n})") in html
        assert str(rnd["published"].year) in html
    index = page(out, f"{lang}/rounds/index.html")
    assert index.index('href="v1.1.html"') < index.index('href="v1.0.html"')  # newest first
    assert f'data-value="{len([r for r in RECORD.values() if r["round"] == "v1.0"])}"' in index
    home = page(out, f"{lang}/index.html")
    assert 'href="rounds/index.html"' in home  # in the navigation


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_benchmark_page_summarises_each_round(record_site, lang):
    html = page(record_site[1], f"{lang}/benchmarks/bert.html")
    for rnd in ("v1.0", "v1.1"):
        closed = [
            r
            for r in RECORD.values()
            if r["round"] == rnd and r["benchmark"] == "bert" and r["division"] == "closed" and r["value"]
        ]
        best = min(closed, key=lambda r: r["value"])
        assert f'href="bert/{rnd}.html">{rnd}</a>' in html
        assert f'href="../results/{best["id"]}.html">{best["system_name"]}</a>' in html
        assert f'>{three_digits(best["value"])}</td>' in html


@pytest.mark.parametrize(
    "path",
    [
        "benchmarks/bert/v1.0.html",
        "results/v1.1-acme-acme16-bert.html",
        "rounds/v1.0.html",
        "benchmarks/bert.html",
        "systems/acme-16.html",
        "index.html",
    ],
)
def test_pages_with_official_results_credit_mlcommons(record_site, path):
    for lang, date in (("en", "May 18, 2023"), ("zh", "2023年5月18日")):
        html = page(record_site[1], f"{lang}/{path}")
        footer = html[html.index('<footer') :]
        assert "MLPerf®" in footer and "MLCommons" in footer
        if "v1.1" not in path:
            assert "training_results_v1.0" in footer and "50619b5df63f" in footer and date in footer


def test_no_page_per_pair_of_results(record_site):
    """No page kind per pair: a system page links a pair of results to the one compare page,
    whose address carries the pair."""
    out = record_site[1]
    for lang in ("en", "zh"):
        assert not (out / lang / "compare").exists()
        assert sorted(p.stem for p in (out / lang / "results").iterdir()) == sorted(RECORD)
        system = page(out, f"{lang}/systems/acme-16.html")
        assert 'href="../compare.html#v1.0-acme-acme16-bert,v1.0-zenith-zenith8-bert"' in system


def test_search_index_leaves_out_result_and_leaderboard_pages(record_site):
    out = record_site[1]
    for lang in ("en", "zh"):
        found = {d["url"] for d in search_docs(out, lang)}
        # a benchmark at one accelerator count is searched (benchmarks/<id>/at-<n>.html), a
        # leaderboard (benchmarks/<id>/<round>.html) is not
        assert not {u for u in found if "/results/" in u or (u.count("/") > 2 and "/at-" not in u)}
        assert f"{lang}/rounds/v1.0.html" in found and f"{lang}/benchmarks/bert.html" in found
        assert f"{lang}/benchmarks/bert/at-16.html" in found
    sitemap_free = (out / "robots.txt").exists()
    assert sitemap_free


def test_search_index_has_a_row_per_result_and_leaderboard(record_site):
    """Results and leaderboards are found through compact rows (render/record/search_rows.py): one per
    result, by its id, naming its round, and one per benchmark and round that has results."""
    out = record_site[1]
    for lang in ("en", "zh"):
        script = page(out, f"assets/search-{lang}.js")
        marker = f'window.SEARCH_RECORD_BY_LANG["{lang}"] = '
        rows = json.loads(script[script.index(marker) + len(marker) :].split(";\n", 1)[0])
        assert sorted(row[1] for row in rows["results"]) == sorted(RECORD)
        for row in rows["results"]:
            assert rows["rounds"][row[2]] == row[1].split("-", 1)[0]
        boards = {row[2] for row in rows["leaderboards"]}
        assert boards == {f"benchmarks/{r['benchmark']}/{r['round']}.html" for r in RECORD.values()}


# --- the fast reader -----------------------------------------------------------------------------


def _record_texts():
    from project import ROOT

    shipped = sorted((ROOT / "content" / "data" / "record").glob("*.yaml"))
    return [
        ROUNDS,
        V10,
        V11,
        *(
            p.read_text("utf-8")
            for p in shipped
            if p.name not in ("changelog.yaml", "seal.yaml", "count-checks.yaml")
        ),
    ]


def test_the_line_reader_agrees_with_yaml_on_every_record_file():
    from sitegen.base.errors import Problems
    from sitegen.content.readers import parse_yaml
    from sitegen.content.record_lines import fast_records

    for text in _record_texts():
        fast = fast_records(text)
        assert fast is not None and fast == parse_yaml(text, "x.yaml", Problems(ROOT_DIR))


def test_the_line_reader_leaves_other_layouts_and_odd_values_to_yaml():
    from sitegen.content.record_lines import fast_records

    assert fast_records("- id: a\n  runs:\n    - 1.0\n") is None  # block list
    assert fast_records("- {id: a}\n") is None  # flow record
    quoted = fast_records('- id: a\n  name: "x: y # z"\n  flag: yes\n  when: 2023-05-18\n  n: 0x10\n')
    assert quoted == [
        {"__line__": 1, "id": "a", "name": "x: y # z", "flag": True, "when": "2023-05-18", "n": 16}
    ]


ROOT_DIR = __import__("pathlib").Path(__file__).resolve().parents[2]


def test_official_folder_links_escape_spaces():
    from sitegen.base.urls import official as official_folder

    rnd = {"repository": "https://github.com/mlcommons/training_results_v1.0", "commit": "50619b5"}
    assert official_folder(rnd, "nettrix/results/X640 G40_A100_PCIe_mxnet/ssd") == (
        "https://github.com/mlcommons/training_results_v1.0/tree/50619b5/"
        "nettrix/results/X640%20G40_A100_PCIe_mxnet/ssd"
    )


# --- energy ---------------------------------------------------------------------------------------


def _with_energy(record_text: str, joules: float) -> str:
    return record_text.replace(
        "  runs_required: 5\n", f"  runs_required: 5\n  energy: {{value: {joules!r}, unit: J}}\n"
    )


def _energy_results() -> str:
    """v1.1 bert: three results, the fastest using the most energy, one without energy."""
    from record_sample import _result

    return "".join(
        [
            _with_energy(V11, 9876543.21),
            _with_energy(
                _result(
                    "v1.1-bigco-big16-bert",
                    "v1.1",
                    "BigCo",
                    "big16",
                    "bert",
                    9.5,
                    [9.4, 9.45, 9.5, 9.55, 9.6],
                ),
                1234567.5,
            ),
            _result(
                "v1.1-zenith-zen16-bert", "v1.1", "Zenith", "zen16", "bert", 8.5, [8.4, 8.45, 8.5, 8.55, 8.6]
            ),
        ]
    )


@pytest.fixture(scope="module")
def energy_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("energy")
    content = write_record_project(folder, {"data/record/results-v1.1.yaml": _energy_results()})
    out = folder / "out"
    build(content, TEMPLATES, out, cache=CACHE)
    return content, out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_energy_leaderboard_only_where_there_is_energy_least_first(energy_site, lang):
    out = energy_site[1]
    with_energy = page(out, f"{lang}/benchmarks/bert/v1.1.html")
    assert 'id="energy"' in with_energy and with_energy.count('data-energy ') == 2
    energy_part = with_energy[with_energy.index('id="energy"') :]
    sections = re.findall(
        r'<section aria-labelledby="(energy-[a-z0-9_-]+)">(.*?)</section>', energy_part, re.S
    )
    assert [s[0] for s in sections] == ["energy-closed-available-9_64"]
    values = [
        float(v) for v in re.findall(r'<td class="num answer" data-value="([0-9.e+]+)"', sections[0][1])
    ]
    assert values == sorted(values) == [1234567.5, 9876543.21]  # least energy first
    assert ">1.23</td>" in sections[0][1]  # megajoules, three significant digits
    assert "v1.1-zenith-zen16-bert" not in energy_part  # no energy, not ranked
    time_part = with_energy[: with_energy.index('id="energy"')]
    assert "v1.1-zenith-zen16-bert" in time_part  # the time table keeps all
    for other in ("bert/v1.0", "resnet/v1.0"):  # rounds without energy
        html = page(out, f"{lang}/benchmarks/{other}.html")
        assert 'id="energy"' not in html and "data-energy" not in html


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_result_page_shows_energy_where_published(energy_site, lang):
    out = energy_site[1]
    html = text_of(page(out, f"{lang}/results/v1.1-bigco-big16-bert.html"))
    label = "训练能耗" if lang == "zh" else "Energy to train"
    # 1,234,567.5 J at three significant digits of megajoules
    assert (f"{label} 1.23兆焦" if lang == "zh" else f"{label} 1.23 MJ") in html
    assert label not in text_of(page(out, f"{lang}/results/v1.1-zenith-zen16-bert.html"))


def test_results_listed_under_one_name_are_told_apart():
    """A submitter's first and latest round name each result by benchmark and system; two of
    one name get what differs between them (division, category, scale, else the official system
    folder), and no others."""
    from sitegen.base.languages import KNOWN
    from sitegen.render.record.lists import told_apart

    def t(key, **values):
        return {"ref.aside": " ({text})", "ref.separator": ", ", "level.count": "{n} accelerators"}.get(
            key, key
        ).format(**values)

    t.language = KNOWN["en"]  # the page's language, as Strings carries it
    base = {"benchmark": "bert", "system_name": "Pod64", "division": "closed", "category": "available"}
    rows = [
        {**base, "id": "a", "accelerator_count": 64, "system_folder": "pod64-a"},
        {**base, "id": "b", "accelerator_count": 64, "system_folder": "pod64-b", "division": "open"},
        {**base, "id": "c", "accelerator_count": 0, "system_folder": "pod8-c", "system_name": "Pod8"},
        {
            **base,
            "id": "d",
            "accelerator_count": 8,
            "system_folder": "pod8-d",
            "system_name": "Pod8",
            "category": "preview",
        },
        {**base, "id": "e", "accelerator_count": 16, "system_folder": "pod16-e", "system_name": "Pod16"},
        # the same division, category and scale: told apart by their official folders
        {**base, "id": "f", "accelerator_count": 8, "system_folder": "pod-tf", "system_name": "Pod"},
        {**base, "id": "g", "accelerator_count": 8, "system_folder": "pod-jax", "system_name": "Pod"},
    ]
    assert told_apart(rows, t, "en") == {
        "a": " (division.closed)",
        "b": " (division.open)",
        "c": " (category.available, ref.cpu_only)",
        "d": " (category.preview, 8 accelerators)",
        "f": " (pod-tf)",
        "g": " (pod-jax)",
    }
