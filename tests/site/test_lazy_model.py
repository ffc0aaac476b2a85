"""The model computes each entry when a page first reads it (derive/lazy.py): the page that
asks first must depend on that entry alone, every later reader on the same, and a rebuild
that renders a few pages must show an edit on each of them, edit after edit.

The record is test_at_scale.py's: BERT at 16 accelerators, Acme A1 in v1.0 (30.123456 min),
v1.1 (7.4, Available) and v2.0 (5.0). Expected figures are computed here by hand."""

from __future__ import annotations

import re

from lxml import html as lxml_html
from test_at_scale import changes
from test_bad_input import tree_digest

from sitegen.assemble.pipeline import build
from sitegen.content.load import load_site
from sitegen.derive import model as derive_model

from project import TEMPLATES, seal_record
from record_sample import write_record_project

V20_ACME = "v2.0-acme-acme16-bert"
RECORD = ("rec", "record")


def test_the_first_reader_of_an_entry_depends_on_that_entry_alone(tmp_path):
    site = load_site(write_record_project(tmp_path, changes()))
    model = derive_model.build(site)
    with site.reads.collect() as first:
        figure = model.work[V20_ACME]
    assert figure.value == 5.0 * 16  # accelerator-minutes: time × accelerators
    # what accelerator-minutes read: the result's time and accelerator count, no other result
    assert ((*RECORD, V20_ACME), "value") in first
    assert ((*RECORD, V20_ACME), "accelerator_count") in first
    assert {dep[0] for dep in first} == {(*RECORD, V20_ACME)}
    model.complete()  # every other entry computed now: a later reader depends on the same
    with site.reads.collect() as later:
        model.work[V20_ACME]
    assert later == first


def test_a_view_read_first_by_a_page_is_charged_to_it_alone(tmp_path):
    site = load_site(write_record_project(tmp_path, changes()))
    model = derive_model.build(site)
    with site.reads.collect() as page:
        view = model.at_scale[("bert", 16)]
    assert [row.name for row in view.rows] == ["A1", "Z1"]
    results = {dep[0][2] for dep in page if dep[0][:2] == RECORD}
    # the view reads BERT's results; the record's ResNet result is no input of it
    assert results and all(site.record[ident]["benchmark"] == "bert" for ident in results)


def _edit_acme_v20(content, runs: list[float], value: float) -> None:
    """Acme's v2.0 BERT result at 16 accelerators gets these runs and this time, sealed again."""
    path = content / "data" / "record" / "results-v2.0.yaml"
    text = path.read_text("utf-8")
    old = re.search(r"id: v2\.0-acme-acme16-bert\n(?:  .*\n)*", text)
    assert old is not None
    block = old.group(0)
    edited = re.sub(r"value: [0-9.]+", f"value: {value}", block, count=1)
    edited = re.sub(r"runs: \[[0-9., ]+\]", f"runs: {runs}", edited, count=1)
    assert edited != block
    path.write_text(text.replace(block, edited), "utf-8")
    seal_record(content)


def _acme_v20_row(out) -> list[str]:
    doc = lxml_html.fromstring((out / "en" / "benchmarks" / "bert" / "at-16.html").read_bytes())
    row = doc.xpath("//tbody[@id='acme-a1']/tr[4]")[0]
    return [re.sub(r"\s+", " ", cell.text_content()).strip() for cell in row.xpath("./th | ./td")]


def test_two_edits_in_a_row_show_on_the_pages_that_read_lazy_entries(tmp_path, warm_cache, warm_copy):
    content = write_record_project(tmp_path / "site", changes())
    out, cache = tmp_path / "out", warm_cache
    first = build(content, TEMPLATES, out, cache=cache)
    assert _acme_v20_row(out) == ["v2.0", "5.00", "32.4% less time", "80.0", "Acme"]
    # time 4.0: (4.0 − 7.4) ÷ 7.4 = −45.9%; accelerator-minutes 4.0 × 16 = 64.0
    # time 3.7: (3.7 − 7.4) ÷ 7.4 = −50.0%; accelerator-minutes 3.7 × 16 = 59.2
    for runs, value, row in (
        ([3.8, 3.9, 4.0, 4.1, 4.2], 4.0, ["v2.0", "4.00", "45.9% less time", "64.0", "Acme"]),
        ([3.5, 3.6, 3.7, 3.8, 3.9], 3.7, ["v2.0", "3.70", "50.0% less time", "59.2", "Acme"]),
    ):
        _edit_acme_v20(content, runs, value)
        again = build(content, TEMPLATES, out, cache=cache)
        assert 0 < again.units_rendered < first.units_rendered  # a rebuild, not a cold build
        assert _acme_v20_row(out) == row
        cold = tmp_path / f"cold-{value}"
        build(content, TEMPLATES, cold, cache=warm_copy(tmp_path / f"cold-cache-{value}"))
        assert tree_digest(out) == tree_digest(cold)
