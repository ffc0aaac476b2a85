"""Adding a system and a result to the data makes its pages appear, with no other change."""

from sitegen.build.pipeline import build

from project import FILES, RESULTS, TEMPLATES, write_project

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
NEW_RESULT = """\
- id: r-nova
  round: v1.0
  division: closed
  category: available
  system: nova-4
  benchmark: bert
  value: 45.0
  unit: min
  framework: NovaRT
  source: s-official
"""


def test_a_new_system_and_result_get_their_pages(tmp_path, monkeypatch):
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    content = write_project(
        tmp_path,
        {
            "data/systems.yaml": FILES["data/systems.yaml"] + NEW_SYSTEM,
            "data/results.yaml": RESULTS + NEW_RESULT,
        },
    )
    out = tmp_path / "out"
    build(content, TEMPLATES, out)
    for lang in ("en", "zh"):
        system = (out / lang / "systems" / "nova-4.html").read_text("utf-8")
        assert 'id="result-r-nova"' in system
        assert ">45.0</td>" in system  # its time, in the results table
        assert "nova-4.html" in (out / lang / "systems" / "index.html").read_text("utf-8")
        assert "Nova 4" in (out / lang / "benchmarks" / "bert.html").read_text("utf-8")
