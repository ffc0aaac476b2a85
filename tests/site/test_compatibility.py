"""MLCommons' compatibility table: read from its AsciiDoc (importer/compatibility.py), kept as
data (content/data/compatibility.yaml), and obeyed by every comparison across rounds
(derive/compatibility.py): chip progress, generation against generation, the home page's
series and the progress charts break where the table breaks a benchmark.

The sample record (tests/record_sample.py) holds BERT in v1.0 and v1.1: Acme's acme16 at 16
accelerators in both (30.123456 min, then 7.4 min). Here a table puts v1.0 and v1.1 of BERT in
two versions, as the real one does for RNN-T (v1.0 apart from v1.1–v3.1)."""

from __future__ import annotations

import subprocess

import pytest

from sitegen.assemble.pipeline import build
from sitegen.cli import main
from sitegen.content.load import load_site
from sitegen.derive import chip_figures, compatibility
from sitegen.derive.record_index import index_of
from sitegen.importer.compatibility import TableError, training_rows

from project import BENCHMARKS, CACHE, TEMPLATES
from record_sample import RESNET, write_record_project

# An excerpt of MLPerf_Compatibility_Table.adoc (mlcommons/policies, Apache License 2.0) with
# its three cell forms: "X" for one round, "9+|X" spanning nine, "N/A".
ADOC = """\
:toc:

== Training

|===
|Model |0.5 |0.6 |0.7 |1.0 |1.1 |2.0 |2.1 |3.0 | 3.1 | 4.0 | 4.1 | 5.0 | 5.1 | 6.0
|ResNet-50 v1.5 |X 9+|X 4+|N/A
|NMT 3+|X 11+|N/A
|RNN-T 3+|N/A |X 5+|X 5+|N/A
|===

== HPC
"""


def test_the_training_table_is_read_into_versions():
    rows = training_rows(ADOC)
    assert rows == [
        {
            "model": "ResNet-50 v1.5",
            "versions": [["v0.5"], ["v0.6", "v0.7", "v1.0", "v1.1", "v2.0", "v2.1", "v3.0", "v3.1", "v4.0"]],
        },
        {"model": "NMT", "versions": [["v0.5", "v0.6", "v0.7"]]},
        {"model": "RNN-T", "versions": [["v1.0"], ["v1.1", "v2.0", "v2.1", "v3.0", "v3.1"]]},
    ]


@pytest.mark.parametrize(
    "row, message",
    [
        ("|NMT 3+|X 10+|N/A", "MLPerf_Compatibility_Table.adoc:8: NMT: 13 columns, the header has 14"),
        ("|NMT 3+|Y 11+|N/A", "MLPerf_Compatibility_Table.adoc:8: NMT: a cell is 'Y', not X or N/A"),
    ],
)
def test_a_table_of_another_shape_is_refused_with_its_line(row, message):
    with pytest.raises(TableError) as caught:
        training_rows(ADOC.replace("|NMT 3+|X 11+|N/A", row))
    assert str(caught.value) == message


def test_import_compatibility_writes_the_table_with_its_commit(tmp_path, capsys):
    policies = tmp_path / "policies"
    policies.mkdir()
    (policies / "MLPerf_Compatibility_Table.adoc").write_text(ADOC, "utf-8")
    git = ["git", "-C", str(policies), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "table"], check=True)
    commit = subprocess.run(
        [*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    content = write_record_project(tmp_path / "site")
    assert main(["--content", str(content), "import-compatibility", str(policies)]) == 0
    written = (content / "data" / "compatibility.yaml").read_text("utf-8")
    assert f"commit: {commit}\n" in written
    assert "- model: RNN-T\n  versions:\n  - [v1.0]\n  - [v1.1, v2.0, v2.1, v3.0, v3.1]\n" in written


def test_a_folder_without_git_is_refused(tmp_path, capsys):
    (tmp_path / "MLPerf_Compatibility_Table.adoc").write_text(ADOC, "utf-8")
    content = write_record_project(tmp_path / "site")
    assert main(["--content", str(content), "import-compatibility", str(tmp_path)]) == 1
    assert "not a git repository; the table is recorded with its commit" in capsys.readouterr().err
    assert not (content / "data" / "compatibility.yaml").exists()


# --- the site obeys it ------------------------------------------------------------------------

TABLE = """\
source: https://github.com/mlcommons/policies/blob/abc/MLPerf_Compatibility_Table.adoc
commit: abc
date: '2026-04-28'
training:
- model: BERT
  versions:
  - [v1.0]
  - [v1.1, v2.0]
"""
SPLIT = {
    "data/compatibility.yaml": TABLE,
    "data/benchmarks.yaml": BENCHMARKS.replace(
        "  name: {en: BERT-Large", "  compatibility: BERT\n  name: {en: BERT-Large"
    )
    + RESNET,
}


@pytest.fixture(scope="module")
def split(tmp_path_factory):
    return write_record_project(tmp_path_factory.mktemp("split"), SPLIT)


def test_results_of_two_versions_are_not_comparable(split):
    site = load_site(split)
    v10, v11 = site.record["v1.0-acme-acme16-bert"], site.record["v1.1-acme-acme16-bert"]
    assert compatibility.version_of(site, "bert", "v1.0") == 0
    assert compatibility.version_of(site, "bert", "v1.1") == 1
    assert not compatibility.compatible(site, v10, v11)
    assert compatibility.compatible(site, v11, site.record["v1.1-zenith-zenith16-bert"])


def test_chip_progress_never_joins_two_versions(split, tmp_path):
    # Acme A1 at 16 accelerators in v1.0 and v1.1: one series (and a gain of 30.12/7.4) in one
    # version; none when the table splits them (each version holds one round only).
    for project, expected in ((write_record_project(tmp_path), [("bert", 16)]), (split, [])):
        site = load_site(project)
        index = index_of(site)
        series = chip_figures.progress(index.accelerators["acme-a1"], index, list(site.rounds))
        assert [(s["benchmark"], s["scale"]) for s in series if s["gain"]] == expected


def test_the_home_glance_breaks_the_series_where_the_table_does(split):
    out = split.parent / "out"
    build(split, TEMPLATES, out, cache=CACHE)
    home = (out / "en" / "index.html").read_text("utf-8")
    glance = home[home.index('id="glance"') :]
    assert (
        "Break: MLCommons&#39; compatibility table puts BERT-Large from this round on in a version of its own"
        in glance
    )


def test_a_benchmark_naming_an_unknown_model_is_an_error_at_its_line(tmp_path, capsys):
    wrong = {
        **SPLIT,
        "data/benchmarks.yaml": SPLIT["data/benchmarks.yaml"].replace(
            "compatibility: BERT", "compatibility: BERTT"
        ),
    }
    content = write_record_project(tmp_path, wrong)
    assert main(["--content", str(content), "check"]) == 1
    assert (
        "content/data/benchmarks.yaml:2: benchmark 'bert': compatibility 'BERTT' is not a model of "
        "data/compatibility.yaml (its models: BERT)"
    ) in capsys.readouterr().err
