"""Chips (sitegen/content/chips.py, derive/chip_views.py, content/data/chips.yaml) and
corrected accelerator counts (sitegen/content/record_counts.py): every accelerator string of the
shipped record maps to one variant; an unknown string warns at its file and line (an error with
--strict); two variants matching one string, or a malformed chips.yaml, are errors with their
lines; a correction of a count is applied everywhere and shown beside the official figure, with
its source."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import build
from sitegen.assemble.pipeline import build as build_site
from sitegen.base.errors import ContentError
from sitegen.content import chips
from sitegen.content.load import load_site
from sitegen.derive import chip_views
from sitegen.derive.model import build as build_model
from sitegen.derive.record_index import index_of
from sitegen.importer import write as record_write
from sitegen.render.record import downloads as record_download
from sitegen.render.record import rounds as record_pages

from project import CACHE, TEMPLATES, seal_record
from record_sample import CHIPS, CURATED, V10, write_record_project

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "content" / "data" / "record"
ZENITH_MODEL_LINE = V10.splitlines().index("- id: v1.0-zenith-zenith8-bert") + 10
ACME_MODEL_LINE = V10.splitlines().index("- id: v1.0-acme-acme16-bert") + 10


@pytest.fixture(scope="module")
def taxonomy():
    # every vendor the shipped chips.yaml names without a name of its own is a company
    companies = yaml.safe_load((ROOT / "content" / "data" / "companies.yaml").read_text("utf-8"))
    vendors = {c["id"]: {"name": c["name"]} for c in companies}
    from sitegen.base.errors import Problems

    problems = Problems(ROOT / "content")
    found = chips.load_taxonomy(ROOT / "content" / "data" / "chips.yaml", vendors, problems)
    assert problems.items == []
    return found


def _names(taxonomy, variant):
    return taxonomy.families[variant.family].name, variant.name


# --- the shipped record --------------------------------------------------------------------------


def test_every_accelerator_string_of_the_record_maps_to_exactly_one_variant(shipped_record, taxonomy):
    strings = {r["accelerator_model"] for r in shipped_record if r["accelerator_model"]}
    assert len(strings) == 90  # the 91 distinct values, less "none" (CPU only)
    assert sum(not r["accelerator_model"] for r in shipped_record) == 46
    unmatched, ambiguous = [], []
    for r in shipped_record:
        if r["accelerator_model"]:
            found = taxonomy.matches(r["accelerator_model"], r["system_name"], r["round"])
            (unmatched if not found else ambiguous if len(found) > 1 else []).append(r["id"])
    assert unmatched == [] and ambiguous == []


@pytest.mark.parametrize(
    "model, family, variant",
    [
        ("NVIDIA A100-SXM4-80GB (400W)", "A100", "A100 SXM4 80 GB, 400 W"),
        ("NVIDIA A100-SXM4-80GB(400W)", "A100", "A100 SXM4 80 GB, 400 W"),
        ("NVIDIA A100-SXM-80GB (400W)", "A100", "A100 SXM4 80 GB, 400 W"),
        ("NVIDIA A100-SXM4-80GB", "A100", "A100 SXM4 80 GB"),
        ("A100-SXM4-80GB", "A100", "A100 SXM4 80 GB"),
        ("NVIDIA A100 - PCIe - 80 GB", "A100", "A100 PCIe 80 GB"),
        ("NVIDIA A100-PCIE-80GB", "A100", "A100 PCIe 80 GB"),
        ("NVIDIA A100-SXM-80GB CTS", "A100", "A100 SXM4 80 GB CTS"),
        ("Tesla V100-SXM3-H-32GB", "V100", "V100 SXM3 32 GB H"),
        ("Tesla V100-SXM3-32GB-H", "V100", "V100 SXM3 32 GB H"),
        ("Nvidia Tesla V100S-PCIe-32GB", "V100", "V100S PCIe 32 GB"),
        ("NVIDIA H100 80GB HBM3", "H100", "H100 SXM5 80 GB"),
        ("Habana Gaudi", "Gaudi", "Gaudi"),
        ("Habana Gaudi2", "Gaudi 2", "Gaudi 2"),
        ("Intel(R) Gaudi(R) 2 AI Accelerator", "Gaudi 2", "Gaudi 2"),
        ("tpuv2-512", "TPU v2", "TPU v2"),
        ("tpu-v3", "TPU v3", "TPU v3"),
        ("TPU-trillium", "Trillium", "Trillium"),
        ("Ascend910", "Ascend 910", "Ascend 910"),
        ("AMD Instinct MI325X 256GB HBM3e", "MI325X", "MI325X 256 GB"),
    ],
)
def test_spellings_of_one_chip_map_to_its_variant(taxonomy, model, family, variant):
    found = taxonomy.matches(model, "any system", "v9.9")
    assert [_names(taxonomy, v) for v in found] == [(family, variant)]


def test_the_bare_tpu_of_v0_7_and_v1_0_is_tpu_v4_by_its_system_name(shipped_record, taxonomy):
    bare = [r for r in shipped_record if r["accelerator_model"] == "TPU"]
    assert {r["round"] for r in bare} == {"v0.7", "v1.0"} and len(bare) == 36
    for r in bare:
        assert [_names(taxonomy, v) for v in taxonomy.matches("TPU", r["system_name"], r["round"])] == [
            ("TPU v4", "TPU v4")
        ]
    assert taxonomy.matches("TPU", "tpu-v4-128", "v2.0") == []  # another round: unknown
    assert taxonomy.matches("TPU", "tpu-v5p-128", "v1.0") == []  # another system: unknown


def test_tpu_v4_starts_in_v0_7_and_holds_its_bare_tpu_results(shipped_content):
    index = index_of(shipped_content)
    tpu_v4 = index.accelerators["google-tpu-v4"]
    assert tpu_v4.rounds[-1] == "v0.7"  # was v1.1 when "TPU" had a page of its own
    assert [v["name"] for v in tpu_v4.variants] == ["TPU v4"]
    assert tpu_v4.variants[0]["spellings"] == ["TPU", "TPU-v4"]
    assert len(tpu_v4.results) == 46  # 36 bare "TPU" + 10 "TPU-v4"


def test_the_accelerator_index_lists_each_family_once_by_vendor(shipped_content):
    index = index_of(shipped_content)
    entities = list(index.accelerators.values())
    families = [e for e in entities if e.chip]
    assert len({e.name for e in families}) == len(families)
    owner: dict[str, str] = {}
    for entity in entities:  # no spelling on two pages
        for name in entity.names:
            assert owner.setdefault(name, entity.slug) == entity.slug
    assert {r["accelerator_model"] for r in index.accelerators["nvidia-a100"].results} >= {
        "NVIDIA A100-SXM4-80GB",
        "NVIDIA A100-SXM4-80GB (400W)",
        "A100-SXM4-80GB",
        "NVIDIA A100 - PCIe - 80 GB",
        "NVIDIA A100-PCIe-40GB(250W)",
    }
    sections = {vendor: [e.name for e in rows] for vendor, _, rows in chip_views.by_vendor(entities)}
    assert list(sections) == ["nvidia", "amd", "google", "intel", "graphcore", "huawei", None]
    assert sections["google"] == ["TPU v2", "TPU v3", "TPU v4", "TPU v5e", "TPU v5p", "Trillium"]
    assert sections["intel"] == ["Gaudi", "Gaudi 2"]
    assert sections[None] == [""]  # CPU only: its own kind, not a chip


def test_the_leaderboard_filter_offers_each_family_once(shipped_content):
    index = index_of(shipped_content)
    results = shipped_content.record_results("resnet", "v1.0")
    options = {f[0]: f[2] for f in record_pages.leaderboard_filters(results, index, lambda k, **_: k)}
    labels = [label for _, label in options["accelerator"]]
    assert len(labels) == len(set(labels))
    assert labels.count("A100") == 1  # four A100 spellings in this leaderboard
    spellings = {r["accelerator_model"] for r in results if r["chip"] and r["chip"]["family_name"] == "A100"}
    assert len(spellings) >= 3


def test_the_v0_5_tpu_v2_512_result_counts_256_chips_everywhere(shipped_content):
    result = shipped_content.record["v0.5-google-cloud-v2.512-resnet-tpuv2-512-tpu-resnet"]
    assert result["accelerator_count"] == 256 and result["accelerator_count_official"] == 32768
    row = record_download.row(build_model(shipped_content), result)
    assert (row["chip_vendor"], row["chip_family"], row["chip_variant"]) == ("Google", "TPU v2", "TPU v2")
    assert (row["accelerator_count"], row["accelerator_count_official"]) == (256, 32768)
    assert row["accelerator_model"] == "tpuv2-512"
    for r in shipped_content.record.values():  # later rounds count chips: untouched
        if r["round"] != "v0.5":
            assert r["count_correction"] is None and r["accelerator_count"] == r["accelerator_count_official"]


# --- a new string, an ambiguous rule, a malformed file (the tiny record project) -----------------


def _with_model(content: Path, old: str, new: str) -> None:
    path = content / "data" / "record" / "results-v1.0.yaml"
    path.write_text(
        path.read_text("utf-8").replace(f"accelerator_model: {old}", f"accelerator_model: {new}"), "utf-8"
    )
    seal_record(content)  # a deliberate edit, sealed as an editor does (seal-record)


UNKNOWN = (
    f"content/data/record/results-v1.0.yaml:{ZENITH_MODEL_LINE}: warning: accelerator "
    "'Zenith Z9' of record 'v1.0-zenith-zenith8-bert' matches no chip of "
    "content/data/chips.yaml: add a rule for it there (it is listed as not classified)"
)


def test_an_unknown_string_warns_at_its_file_and_line_and_is_no_chip(tmp_path):
    content = write_record_project(tmp_path)
    _with_model(content, "Zenith Z1", "Zenith Z9")
    site = load_site(content)
    assert [str(w) for w in site.warnings if "chip" in w.message] == [UNKNOWN]
    result = site.record["v1.0-zenith-zenith8-bert"]
    assert result["chip"] is None
    assert index_of(site).accelerator_of(result) == "unclassified-zenith-z9"
    assert "zenith-z1" not in {slug.split("-", 1)[1] for slug in index_of(site).accelerators}


def test_an_unknown_string_fails_check_with_strict(tmp_path, capsys):
    content = write_record_project(tmp_path)
    _with_model(content, "Zenith Z1", "Zenith Z9")
    assert build.main(["--content", str(content), "check"]) == 0
    assert UNKNOWN in capsys.readouterr().err
    assert build.main(["--content", str(content), "check", "--strict"]) == 1
    assert UNKNOWN in capsys.readouterr().err


def test_a_string_two_variants_match_is_an_error(tmp_path):
    both = CHIPS.replace(
        "          match: ['acme a1']\n",
        "          match: ['acme a1']\n        - variant: A1 again\n          match: ['acme a.']\n",
    )
    content = write_record_project(tmp_path, {"data/chips.yaml": both})
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert str(error.value) == (
        f"content/data/record/results-v1.0.yaml:{ACME_MODEL_LINE}: accelerator 'Acme A1' of record "
        "'v1.0-acme-acme16-bert' matches more than one chip: 'A1 / A1' (content/data/chips.yaml:6) "
        "and 'A1 / A1 again' (content/data/chips.yaml:8); make the rules exclusive"
    )


@pytest.mark.parametrize(
    "change, message",
    [
        (
            ("match: ['acme a1']", "match: ['acme a1(']"),
            "content/data/chips.yaml:6: variant 'A1': 'acme a1(' is not a regular expression "
            "(missing ), unterminated subpattern at position 7)",
        ),
        (
            ("  name: {en: BigCo, zh: 大公司}\n", ""),
            "content/data/chips.yaml:7: vendor 'bigco' is not in content/data/vendors.yaml: give its "
            "name here ({en: ..., zh: ...})",
        ),
        (
            ("- vendor: acme\n", "- vendor: acme\n  name: {en: Acme Corp, zh: 艾克米}\n"),
            "content/data/chips.yaml:2: vendor 'acme' is named in content/data/vendors.yaml: remove its "
            "name here",
        ),
        (
            ("          match: ['zenith z1']", "          matches: ['zenith z1']"),
            "content/data/chips.yaml:19: a variant: unknown field 'matches' (did you mean 'match'?)",
        ),
        (("    - family: B9\n", "    - family: A1\n"), None),  # bigco-a1: another vendor, fine
    ],
)
def test_a_malformed_chips_file_is_reported_at_its_line(tmp_path, change, message):
    content = write_record_project(tmp_path, {"data/chips.yaml": CHIPS.replace(*change)})
    if message is None:
        assert "bigco-a1" in index_of(load_site(content)).accelerators
        return
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert str(error.value) == message  # and no warning per unmapped string


def test_a_family_twice_is_reported(tmp_path):
    twice = (
        CHIPS + "- vendor: acme\n  families:\n    - family: A1\n      variants:\n"
        "        - variant: A1 bis\n          match: ['acme a2']\n"
    )
    content = write_record_project(tmp_path, {"data/chips.yaml": twice})
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert str(error.value) == (
        "content/data/chips.yaml:22: family 'A1' of vendor 'acme': its page 'acme-a1' is listed twice"
    )


def test_the_import_report_lists_unmapped_strings(tmp_path):
    content = write_record_project(tmp_path)
    rows = [
        {"accelerator_model": "Acme A1", "round": "v1.0", "path": "Acme/a", "system_name": "a"},
        {"accelerator_model": "Zenith Z9", "round": "v1.1", "path": "Zenith/b", "system_name": "b"},
        {"accelerator_model": "Zenith Z9", "round": "v1.0", "path": "Zenith/c", "system_name": "c"},
        {"accelerator_model": None, "round": "v1.0", "path": "Cpu/d", "system_name": "d"},
    ]
    assert chips.report_lines(content, rows) == [
        "## Accelerator strings that content/data/chips.yaml does not map",
        "",
        "1 strings; add a rule for each to content/data/chips.yaml:",
        "",
        "- `Zenith Z9`: 2 results, first Zenith/c",
        "",
    ]
    text = record_write.report_text([], "", chips.report_lines(content, rows))
    assert "- `Zenith Z9`: 2 results, first Zenith/c" in text


# --- a corrected count ----------------------------------------------------------------------------

CORRECTION = """\
- id: v1.0-bigco-giant-bert
  accelerator_count: 512
  official_accelerator_count: 1024
  source: mlperf-training-v1.0
  note: {en: Half of them were spares., zh: 其中一半是备用的。}
"""


def test_a_count_correction_is_used_everywhere_and_shown_beside_the_official_figure(tmp_path):
    content = write_record_project(tmp_path, {"data/results_curated.yaml": CURATED + CORRECTION})
    site = load_site(content)
    result = site.record["v1.0-bigco-giant-bert"]
    assert (result["accelerator_count"], result["accelerator_count_official"]) == (512, 1024)
    out = tmp_path / "out"
    build_site(content, TEMPLATES, out, cache=CACHE)
    page = (out / "en" / "results" / "v1.0-bigco-giant-bert.html").read_text("utf-8")
    assert "512 × <a" in page
    assert "512 (the official description says 1,024). Half of them were spares. Source: " in page
    assert 'sources/index.html#source-mlperf-training-v1.0"' in page
    zh = (out / "zh" / "results" / "v1.0-bigco-giant-bert.html").read_text("utf-8")
    assert "512（官方描述为1,024）。其中一半是备用的。来源：" in zh
    board = (out / "en" / "benchmarks" / "bert" / "v1.0.html").read_text("utf-8")
    assert 'data-value="512"' in board and 'data-value="1024"' not in board
    csv = (out / "downloads" / "mlperf-training-v1.0.csv").read_text("utf-8")
    assert "v1.0-bigco-giant-bert," in csv
    line = next(l for l in csv.splitlines() if l.startswith("v1.0-bigco-giant-bert,"))
    assert ",Big B9,BigCo,B9,B9,512,1024," in line


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            ("  source: mlperf-training-v1.0\n", ""),
            "content/data/results_curated.yaml:4: record 'v1.0-bigco-giant-bert': a corrected "
            "accelerator_count needs source (what the record says, on whose word, and why)",
        ),
        (
            ("official_accelerator_count: 1024", "official_accelerator_count: 2048"),
            "content/data/results_curated.yaml:5: record 'v1.0-bigco-giant-bert': "
            "official_accelerator_count 2048 is not the record's (1024, "
            "content/data/record/results-v1.0.yaml:{count_line}); review the correction against the record",
        ),
        (
            ("accelerator_count: 512", "accelerator_count: 1024"),
            "content/data/results_curated.yaml:4: record 'v1.0-bigco-giant-bert': accelerator_count "
            "1024 is what the record says (content/data/record/results-v1.0.yaml:{count_line}): not a "
            "correction; remove it",
        ),
        (
            ("source: mlperf-training-v1.0", "source: nowhere"),
            "content/data/results_curated.yaml:6: record 'v1.0-bigco-giant-bert': source 'nowhere' is "
            "not in content/data/sources.yaml",
        ),
    ],
)
def test_a_count_correction_needs_its_official_figure_a_source_and_a_note(tmp_path, edit, message):
    count_line = V10.splitlines().index("- id: v1.0-bigco-giant-bert") + 11
    content = write_record_project(
        tmp_path, {"data/results_curated.yaml": CURATED + CORRECTION.replace(*edit, 1)}
    )
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert str(error.value) == message.format(count_line=count_line)


def test_a_family_s_fastest_of_a_round_names_the_results_level_with_it(shipped_content):
    """MI355X, Llama 2 70B LoRA, v5.1, closed: AMD's 10.18474574915825 min at 8 is the fastest;
    Supermicro's 10.24417643097643, Dell's 10.27352700617284 and GigaComputing's
    10.41609333333333 (all at 8) are within 5 % of it (10.1847... × 1.05 = 10.694), so they are
    level with it and named, fastest first (values from results-v5.1.yaml)."""
    from sitegen.derive import chip_figures

    index = index_of(shipped_content)
    family = index.accelerators["amd-mi355x"]
    rows = chip_figures.by_benchmark(shipped_content, family, index, list(shipped_content.rounds))
    row = next(
        r for b in rows if b["benchmark"] == "llama2_70b_lora" for r in b["rounds"] if r["round"] == "v5.1"
    )
    assert row["best"]["id"] == "v5.1-amd-mi355x-epyc-9575f-pytorch-llama2-70b-lora"
    assert row["band"] == 0.05
    assert [r["id"] for r in row["level"]] == [
        "v5.1-supermicro-8xmi355x-2xepyc-9575f-llama2-70b-lora",
        "v5.1-dell-xe9785l-8xmi355x-llama2-70b-lora",
        "v5.1-gigacomputing-g893-zx1-aax4-pytorch-llama2-70b-lora",
    ]
