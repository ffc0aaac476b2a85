"""Record fields a page and a download must carry: `resubmission_of` (a result whose logs are
byte-identical to an earlier round's), `energy` in the downloads, and changelog entries of
results whose id is gone (removed upstream, renamed). Expected values come from the sample
YAML written here, not from the output."""

import csv
import io
import json
import re

import pytest

from sitegen.assemble.pipeline import build
from sitegen.base.errors import ContentError
from sitegen.content.load import load_site

from project import CACHE, TEMPLATES
from record_sample import V11, write_record_project

EARLIER = "v1.0-acme-acme16-bert"
LATER = "v1.1-acme-acme16-bert"
ENERGY = 16384268.123456789
V11_MORE = V11 + (
    f"  energy: {{value: {ENERGY!r}, unit: J}}\n  resubmission_of: {EARLIER}\n  logs_digest: 0f1e2d3c\n"
)
CHANGELOG = """\
- date: 2023-06-01
  id: v1.1-acme-gone-bert
  field: result
  old: Acme/results/gone/bert
  new: null
- date: 2023-06-01
  id: v1.1-acme-old-name-bert
  field: id
  old: v1.1-acme-old-name-bert
  new: v1.1-acme-acme16-bert
- date: 2023-06-01
  id: v1.1-acme-acme16-bert
  field: energy
  old: {value: 1.5, unit: J}
  new: {value: 16384268.123456789, unit: J}
"""


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    folder = tmp_path_factory.mktemp("resubmission")
    content = write_record_project(
        folder, {"data/record/results-v1.1.yaml": V11_MORE, "data/record/changelog.yaml": CHANGELOG}
    )
    target = folder / "out"
    build(content, TEMPLATES, target, cache=CACHE)
    return target


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("lang, label", [("en", "Resubmission of"), ("zh", "重新提交自")])
def test_result_page_names_the_result_it_resubmits(out, lang, label):
    html = (out / f"{lang}/results/{LATER}.html").read_text("utf-8")
    assert f'<dt>{label}</dt><dd><a href="{EARLIER}.html">v1.0 · ACME16 system</a>' in html
    assert ("</a> (the same logs" if lang == "en" else "</a>（日志逐字节相同") in html
    assert label not in (out / f"{lang}/results/{EARLIER}.html").read_text("utf-8")


def test_downloads_carry_energy_in_joules_and_the_resubmission(out):
    rows = {
        r["id"]: r
        for r in csv.DictReader(io.StringIO((out / "downloads/mlperf-training-all.csv").read_text("utf-8")))
    }
    assert float(rows[LATER]["energy_joules"]) == ENERGY  # full precision, joules
    assert rows[LATER]["resubmission_of"] == EARLIER
    assert rows[EARLIER]["energy_joules"] == rows[EARLIER]["resubmission_of"] == ""
    document = json.loads((out / "downloads/mlperf-training-v1.1.json").read_text("utf-8"))
    result = document["results"][0]
    assert (result["energy_joules"], result["resubmission_of"]) == (ENERGY, EARLIER)
    assert document["provenance"][0]["id"] == "v1.1"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_changes_of_ids_that_are_gone_are_listed_without_broken_links(out, lang):
    html = (out / f"{lang}/rounds/changes.html").read_text("utf-8")
    assert '<th scope="row">v1.1-acme-gone-bert</th>' in html  # removed: no link
    assert f'<a href="../results/{LATER}.html">v1.1-acme-old-name-bert</a>' in html  # renamed
    assert f"{ENERGY!r} J" in text_of(html)  # energy: value and unit
    page = text_of((out / f"{lang}/results/{LATER}.html").read_text("utf-8"))
    assert "v1.1-acme-old-name-bert" in page  # its rename, on its page


def test_resubmission_of_must_name_a_result(tmp_path):
    bad = V11_MORE.replace(f"resubmission_of: {EARLIER}", "resubmission_of: v0.9-nowhere-bert")
    content = write_record_project(tmp_path, {"data/record/results-v1.1.yaml": bad})
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert (
        "record 'v1.1-acme-acme16-bert': resubmission_of 'v0.9-nowhere-bert' is no result of the record"
    ) in str(error.value)
