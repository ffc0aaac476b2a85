"""The files made once a language's pages are (its search index and feed) follow an edit in an
incremental build, and equal a cold build's: each page's search document is kept with its
unit, the feed and the record's search rows are units of their own (render/end_files.py).

Each build runs with SITEGEN_VERIFY_REUSE=1: whatever it takes from the last build is made
again as well and must be what it took."""

from __future__ import annotations

from test_bad_input import tree_digest

from sitegen.assemble.pipeline import build

from project import TEMPLATES, seal_record
from record_sample import write_record_project
from search_files import entry_script, search_text


def _built(tmp_path, warm_cache, monkeypatch):
    monkeypatch.setenv("SITEGEN_VERIFY_REUSE", "1")
    content, out = write_record_project(tmp_path / "p"), tmp_path / "out"
    build(content, TEMPLATES, out, cache=warm_cache)
    return content, out


def _edit(path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def _equals_a_cold_build(tmp_path, warm_copy, content, out) -> None:
    """A build from no last state (its store holds compiled templates and drawings only)."""
    cold = tmp_path / "cold"
    build(content, TEMPLATES, cold, cache=warm_copy(tmp_path / "cold-cache"))
    assert tree_digest(out) == tree_digest(cold)


def test_a_report_title_and_summary_edit_shows_in_search_and_feed(
    tmp_path, warm_cache, warm_copy, monkeypatch
):
    content, out = _built(tmp_path, warm_cache, monkeypatch)
    report = content / "reports/acme-vs-zenith.en.md"
    _edit(report, "title: Acme against Zenith", "title: Acme against Zenith, revised")
    _edit(report, "summary: Acme is slower but cheaper.", "summary: Acme is slower and costs less.")
    again = build(content, TEMPLATES, out, cache=warm_cache)
    assert again.units_reused > 0
    search = search_text(out, "en")
    feed = (out / "en/feed.xml").read_text("utf-8")
    # the report's search document: its heading as title, its summary as snippet
    assert '"title":"Acme against Zenith, revised"' in search
    assert '"snippet":"Acme is slower and costs less."' in search
    assert "Acme is slower but cheaper." not in search
    assert "<title>Acme against Zenith, revised</title>" in feed
    assert "<summary>Acme is slower and costs less.</summary>" in feed
    assert "Acme is slower but cheaper." not in feed
    # the other language's feed and index read nothing that changed
    assert "revised" not in (out / "zh/feed.xml").read_text("utf-8")
    _equals_a_cold_build(tmp_path, warm_copy, content, out)


def test_a_result_edit_shows_in_the_search_rows(tmp_path, warm_cache, warm_copy, monkeypatch):
    content, out = _built(tmp_path, warm_cache, monkeypatch)
    _edit(
        content / "data/record/results-v1.1.yaml", "system_name: ACME16 system", "system_name: Acme Sixteen"
    )
    seal_record(content)
    build(content, TEMPLATES, out, cache=warm_cache)
    for lang in ("en", "zh"):
        rows = entry_script(out, lang).split("SEARCH_RECORD_BY_LANG", 1)[1]
        assert '["Acme Sixteen","v1.1-acme-acme16-bert",' in rows
    _equals_a_cold_build(tmp_path, warm_copy, content, out)


def test_a_body_edit_takes_the_feed_and_the_search_rows_from_the_last_build(
    tmp_path, warm_cache, warm_copy, monkeypatch
):
    """They read a report's title, summary and date, not its text: only its page is made."""
    content, out = _built(tmp_path, warm_cache, monkeypatch)
    _edit(content / "reports/acme-vs-zenith.en.md", "\n## ", "\nOne more sentence for the test.\n\n## ")
    again = build(content, TEMPLATES, out, cache=warm_cache)
    assert again.units_rendered == 1
    assert "One more sentence for the test." in search_text(out, "en")
    _equals_a_cold_build(tmp_path, warm_copy, content, out)
