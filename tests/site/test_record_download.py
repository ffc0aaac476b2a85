"""The record's downloads: CSV and JSON per round and for all rounds, at full precision, with
their provenance; and the page listing them in both languages. Expected values come from the
sample's own YAML (tests/record_sample.py), not from the output."""

import csv
import io
import json

import pytest
import yaml

from sitegen.assemble.pipeline import build

from project import CACHE, TEMPLATES
from record_sample import ROUNDS, V10, V11, V11_LEVEL, write_record_project

RECORD = {r["id"]: r for r in yaml.safe_load(V10) + yaml.safe_load(V11 + V11_LEVEL)}
ROUND_LIST = {r["id"]: r for r in yaml.safe_load(ROUNDS)}


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    folder = tmp_path_factory.mktemp("downloads")
    target = folder / "out"
    build(write_record_project(folder), TEMPLATES, target, cache=CACHE)
    return target


def read_csv(path):
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8"))))


@pytest.mark.parametrize("round_id", ["v1.0", "v1.1"])
def test_each_round_has_csv_and_json_with_every_result(out, round_id):
    expected = sorted(i for i, r in RECORD.items() if r["round"] == round_id)
    rows = read_csv(out / f"downloads/mlperf-training-{round_id}.csv")
    document = json.loads((out / f"downloads/mlperf-training-{round_id}.json").read_text("utf-8"))
    assert [r["id"] for r in rows] == expected
    assert [r["id"] for r in document["results"]] == expected
    assert document["provenance"][0]["commit"] == ROUND_LIST[round_id]["commit"]
    assert ROUND_LIST[round_id]["commit"] in document["how_to_cite"]


def test_values_and_runs_keep_full_precision(out):
    rows = {r["id"]: r for r in read_csv(out / "downloads/mlperf-training-all.csv")}
    document = json.loads((out / "downloads/mlperf-training-all.json").read_text("utf-8"))
    by_id = {r["id"]: r for r in document["results"]}
    assert set(rows) == set(by_id) == set(RECORD)
    for ident, record in RECORD.items():
        assert by_id[ident]["value"] == record["value"]
        assert by_id[ident]["runs"] == record["runs"]
        if record["value"] is None:
            assert rows[ident]["value"] == "" and rows[ident]["status"] == "logs missing"
        else:
            assert float(rows[ident]["value"]) == record["value"]
            runs = [None if x == "" else float(x) for x in rows[ident]["runs"].split(";")]
            assert runs == record["runs"]


def test_each_row_links_its_official_folder_at_the_commit(out):
    for row in read_csv(out / "downloads/mlperf-training-all.csv"):
        record, rnd = RECORD[row["id"]], ROUND_LIST[RECORD[row["id"]]["round"]]
        assert row["official_folder"] == f"{rnd['repository']}/tree/{rnd['commit']}/{record['path']}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_downloads_page_lists_every_file_and_is_linked_from_every_page(out, lang):
    html = (out / f"{lang}/downloads.html").read_text("utf-8")
    for name in ("v1.0", "v1.1", "all"):
        for suffix in ("csv", "json"):
            assert f'href="../downloads/mlperf-training-{name}.{suffix}"' in html
    assert 'href="downloads.html"' in (out / f"{lang}/index.html").read_text("utf-8")
    assert "MLPerf®" in html or "MLPerf" in html


def test_a_results_own_csv_is_the_round_files_header_and_its_line():
    """downloads.csv_lines: each row's line (a value with a line break, a comma or a quote
    stays one quoted field of one line), so a result's own CSV, the round's header and the
    row's line, reads back as that row alone, and the round's file as every row."""
    from sitegen.render.record import downloads

    plain = dict.fromkeys(downloads.COLUMNS, "x")
    rows = [
        {**plain, "id": "a", "framework": 'Py"Torch, 2\nnightly', "value": 1.5},
        {**plain, "id": "b", "runs": [1.0, None, 2.25], "nodes": None},
    ]
    read = [
        {**plain, "id": "a", "framework": 'Py"Torch, 2\nnightly', "value": "1.5"},
        {**plain, "id": "b", "runs": "1.0;;2.25", "nodes": ""},
    ]
    head, lines = downloads.csv_head(), downloads.csv_lines(rows)
    assert read_csv_text(head + "".join(lines)) == read
    assert read_csv_text(downloads.as_csv(rows).decode()) == read
    for line, row in zip(lines, read):
        assert read_csv_text(head + line) == [row]
    assert lines[0].count("\n") == 2 and head == ",".join(downloads.COLUMNS) + "\n"


def read_csv_text(text):
    return list(csv.DictReader(io.StringIO(text)))
