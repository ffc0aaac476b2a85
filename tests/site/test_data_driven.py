"""Adding a system and a result to the data makes its pages appear, with no other change."""

from sitegen.assemble.pipeline import build
from sitegen.importer import small_record

from project import FILES, RESULTS, RESULTS_FILE, SYSTEM_MAP, TEMPLATES, write_project

NEW_SYSTEM = """\
- id: nova-4
  vendor: zenith
  name: {en: Nova 4, zh: Nova 4}
  family: nova
  generation: 2
  accelerator: N1
  accelerator_count: 4
  description: {en: A newly added system., zh: 新加入的系统。}
  prices:
    - {amount: 90000, currency: USD, basis: list, source: s-article}
"""
# Zenith's new system in the record (score: the olympic mean of its five runs, 45.0), and
# the line that maps its system folder to the site's system
NEW_RESULT = small_record.result_text(
    small_record.result(
        "r-nova",
        "v1.0",
        "Zenith",
        "nova4",
        "bert",
        45.0,
        [44.0, 45.0, 45.0, 45.0, 46.0],
        accelerator_model="Zenith N1",
        accelerator_count=4,
        framework="NovaRT",
    )
)
NEW_MAP = "v1.0/Zenith/nova4: nova-4\n"


def test_a_new_system_and_result_get_their_pages(tmp_path, monkeypatch, warm_cache):
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    content = write_project(
        tmp_path,
        {
            "data/systems.yaml": FILES["data/systems.yaml"] + NEW_SYSTEM,
            RESULTS_FILE: RESULTS + NEW_RESULT,
            "data/mlperf_systems.yaml": SYSTEM_MAP + NEW_MAP,
        },
    )
    out = tmp_path / "out"
    build(content, TEMPLATES, out, cache=tmp_path / 'cache')
    for lang in ("en", "zh"):
        system = (out / lang / "systems" / "nova-4.html").read_text("utf-8")
        assert 'id="result-r-nova"' in system
        assert ">45.0</td>" in system  # its time, in the results table
        assert "nova-4.html" in (out / lang / "systems" / "index.html").read_text("utf-8")
        # the round's benchmark page lists it under its official system name (NEW_RESULT's)
        assert "NOVA4 system" in (out / lang / "benchmarks" / "bert" / "v1.0.html").read_text("utf-8")
        assert (out / lang / "results" / "r-nova.html").is_file()
