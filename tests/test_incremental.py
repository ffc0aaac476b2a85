"""Incremental builds must give exactly the bytes of a cold build."""
from project import TEMPLATES, REPORT_EN, write_project
from sitegen.pipeline import build
from test_bad_input import tree_digest


def test_noop_rebuild_skips_and_edits_match_a_cold_build(tmp_path, monkeypatch):
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    first = build(content, TEMPLATES, out)
    assert not first.skipped and first.bodies_rendered > 0
    assert build(content, TEMPLATES, out).skipped

    report = content / "reports" / "acme-vs-zenith.en.md"
    report.write_text(REPORT_EN + "\nOne more sentence.\n", "utf-8")
    again = build(content, TEMPLATES, out)
    assert not again.skipped
    assert again.bodies_rendered == 1 and again.bodies_reused == first.bodies_rendered - 1

    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cold-cache"))
    cold = tmp_path / "cold"
    build(content, TEMPLATES, cold)
    assert tree_digest(out) == tree_digest(cold)


def test_a_damaged_output_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    build(content, TEMPLATES, out)
    before = tree_digest(out)
    (out / "en" / "index.html").unlink()
    assert not build(content, TEMPLATES, out).skipped
    assert tree_digest(out) == before


def test_a_data_edit_rerenders_bodies(tmp_path, monkeypatch):
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "cache"))
    content, out = write_project(tmp_path / "a"), tmp_path / "out"
    build(content, TEMPLATES, out)
    results = content / "data" / "results.yaml"
    results.write_text(results.read_text("utf-8").replace("value: 30.0", "value: 31.0"), "utf-8")
    build(content, TEMPLATES, out)
    assert "31分钟" in (out / "zh" / "reports" / "acme-vs-zenith.html").read_text("utf-8")
