"""One model of the record: every page kind, in every language, shows results only as the
record holds them; systems are the record's official system descriptions; the curated systems
add facts to them and never a results list of their own.

Expected values come from the sample's own YAML (tests/record_sample.py), never from the output."""

import re

import pytest
import yaml

from sitegen.assemble.pipeline import build
from sitegen.base.errors import ContentError

from project import CACHE, TEMPLATES
from record_sample import SYSTEM_MAP, V10, V11, V11_LEVEL, write_record_project

RECORD = {r["id"]: r for r in yaml.safe_load(V10) + yaml.safe_load(V11 + V11_LEVEL)}
MAPPED = dict(line.split(": ") for line in SYSTEM_MAP.splitlines() if not line.startswith("#"))
LANGS = ("en", "zh")  # the sample project's languages

ROW = re.compile(r"<tr\b.*?</tr>", re.S)
RESULT_LINK = re.compile(r'href="[^"]*?(?:results/([^"/#]+)\.html|#result-([^"]+))"')
TIME_CELL = re.compile(r'<td class="num answer" data-value="([^"]*)"')


def result_rows(html: str) -> list[tuple[str, float | None]]:
    """(result id, time shown) for each table row that links one result and shows a time."""
    found = []
    for row in ROW.findall(html):
        links = {a or b for a, b in RESULT_LINK.findall(row)}
        time = TIME_CELL.search(row)
        if len(links) == 1 and time:
            found.append((links.pop(), float(time.group(1)) if time.group(1) else None))
    return found


def disagreements(pages: dict[str, str], record: dict) -> list[str]:
    """Every results row of every page whose result is not in the record, or whose time is
    not the record's at full precision."""
    wrong = []
    for path, html in sorted(pages.items()):
        for ident, shown in result_rows(html):
            if ident not in record:
                wrong.append(f"{path}: {ident} is not in the record")
            elif shown != record[ident]["value"]:
                wrong.append(f"{path}: {ident} shows {shown}, the record {record[ident]['value']}")
    return wrong


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("one-model")
    content = write_record_project(folder)
    out = folder / "out"
    build(content, TEMPLATES, out, cache=CACHE)
    pages = {str(p.relative_to(out)): p.read_text(encoding="utf-8") for p in out.rglob("*.html")}
    return content, out, pages


def test_every_results_row_of_every_page_is_the_records(site):
    _, _, pages = site
    assert disagreements(pages, RECORD) == []
    # the walk covers every page kind that tabulates results, in every language
    kinds = {
        "benchmarks/bert/v1.0.html",
        "systems/acme-16.html",
        "systems/v1.0/acme-acme16.html",
        "submitters/acme.html",
        "accelerators/acme-a1.html",
    }
    for path in [f"{lang}/{kind}" for lang in LANGS for kind in kinds] + ["en/reports/acme-vs-zenith.html"]:
        assert result_rows(pages[path]), f"no results row found on {path}"  # (the zh report has no table)


def test_the_walk_fails_on_a_view_fed_by_anything_else():
    page = (
        '<table><tr><th><a href="../results/v1.0-acme-acme16-bert.html">A</a></th>'
        '<td class="num answer" data-value="30.12">30.1</td></tr>'
        '<tr><th><a href="../systems/x.html#result-hand-kept">B</a></th>'
        '<td class="num answer" data-value="29.0">29.0</td></tr></table>'
    )
    assert disagreements({"en/x.html": page}, RECORD) == [
        "en/x.html: v1.0-acme-acme16-bert shows 30.12, the record 30.123456",
        "en/x.html: hand-kept is not in the record",
    ]


def _folder_key(record: dict) -> str:
    return f"{record['round']}/{record['path'].split('/')[0]}/{record['system_folder']}"


@pytest.mark.parametrize("lang", LANGS)
def test_one_page_per_official_system_description_with_its_results(site, lang):
    _, out, pages = site
    by_folder: dict[str, set] = {}
    for ident, record in RECORD.items():
        by_folder.setdefault(_folder_key(record), set()).add(ident)
    made = sorted(p for p in pages if re.match(rf"{re.escape(lang)}/systems/v[\d.]+/", p))
    assert len(made) == len(by_folder)
    for key, idents in by_folder.items():
        rnd, submitter, folder = key.split("/")
        html = pages[f"{lang}/systems/{rnd}/{submitter.lower()}-{folder.lower()}.html"]
        assert set(re.findall(r'results/([^"/#]+)\.html', html)) == idents
    index = pages[f"{lang}/systems/index.html"]
    for rnd_folder in {
        f"{r['round']}/{r['submitter'].lower()}-{r['system_folder']}" for r in RECORD.values()
    }:
        assert f"{rnd_folder}.html" in index


@pytest.mark.parametrize("lang", LANGS)
def test_a_curated_system_lists_the_record_results_of_its_descriptions(site, lang):
    _, _, pages = site
    for product in set(MAPPED.values()):
        folders = {k for k, v in MAPPED.items() if v == product}
        expected = {i for i, r in RECORD.items() if _folder_key(r) in folders}
        html = pages[f"{lang}/systems/{product}.html"]
        table = html.split('id="results"')[1].split("</table>")[0]
        assert set(re.findall(r'results/([^"/#]+)\.html', table)) == expected


@pytest.mark.parametrize("lang", LANGS)
def test_a_benchmark_page_draws_nothing_from_the_curated_systems(site, lang):
    _, _, pages = site
    html = pages[f"{lang}/benchmarks/bert.html"]
    assert 'id="fastest-by-round"' not in html  # the hand-kept "fastest of each vendor"
    assert "systems/acme-16.html" not in html and "systems/zenith-8.html" not in html


def test_a_block_on_a_record_site_names_its_systems(tmp_path):
    block = "```results\nbenchmark: bert\nround: v1.0\n```\n"
    content = write_record_project(tmp_path)
    report = content / "reports" / "acme-vs-zenith.en.md"
    report.write_text(report.read_text(encoding="utf-8") + "\n" + block, encoding="utf-8")
    lines = report.read_text(encoding="utf-8").splitlines()
    line = len(lines) - lines[::-1].index("```results")  # the block just added
    with pytest.raises(ContentError) as failed:
        build(content, TEMPLATES, tmp_path / "out", cache=CACHE)
    assert (
        f"content/reports/acme-vs-zenith.en.md:{line}: results block: needs 'systems: [<id>, ...]': "
        "with the MLPerf record, a block shows the systems it names; a round's every result is on "
        "its leaderboard"
    ) in str(failed.value)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("lang", ("en",))
def test_a_block_says_how_many_results_the_record_holds_beside_it(site, lang):
    _, _, pages = site
    html = pages[f"{lang}/reports/acme-vs-zenith.html"]
    note = re.search(r'<p class="note block-selection">(.*?)</p>', html, re.S).group(1)
    same_slot = [
        r
        for r in RECORD.values()
        if r["benchmark"] == "bert" and r["round"] == "v1.0" and r["division"] in {"closed", "open"}
    ]
    shown = [
        i
        for i, r in RECORD.items()
        if _folder_key(r) in {"v1.0/Acme/acme16", "v1.0/Acme/acme16-open", "v1.0/Zenith/zenith8"}
        and r["benchmark"] == "bert"
    ]
    assert str(len(same_slot)) in note and str(len(shown)) in note
    assert "benchmarks/bert/v1.0.html" in note


def test_joint_submitters_in_either_order_are_one(tmp_path):
    from sitegen.derive.record_index import submitter_key

    assert submitter_key("RedHat-Supermicro") == submitter_key("Supermicro-RedHat")
    assert submitter_key("NVIDIA+CoreWeave") == submitter_key("CoreWeave + NVIDIA")
    assert submitter_key("Krai") == submitter_key("krai")
    assert submitter_key("Dell") != submitter_key("Dell EMC")


def test_the_shipped_record_has_no_submitter_under_two_pages(shipped_record):
    """Every spelling of a submitter in the shipped record lands on one page."""
    from sitegen.derive.record_index import _group, submitter_key

    groups = _group(
        shipped_record,
        lambda r: submitter_key(r["submitter"]),
        lambda r: r["submitter"],
        "submitter",
        named=True,
    )
    joint = [e for e in groups.values() if {"RedHat-Supermicro", "Supermicro-RedHat"} <= e.names]
    assert len(joint) == 1
    seen: dict[str, str] = {}
    for entity in groups.values():
        for name in entity.names:
            assert seen.setdefault(name.casefold(), entity.slug) == entity.slug, (
                f"{name} on {entity.slug} and {seen[name.casefold()]}"
            )
