"""The spare (sitegen/assemble/spare.py): a rebuild's staging folder is the tree the last swap
moved aside, brought up to the output, so that a rebuild writes only what changed; whatever the
spare holds, the output is what a cold build makes, and a build that fails leaves the output and
the spare for the next one."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_bad_input import tree_digest

from sitegen.assemble.manifest import load_manifest, output_state
from sitegen.assemble.outdir import MARKER
from sitegen.assemble.pipeline import build
from sitegen.base.errors import ContentError
from sitegen.base.store import Store

from project import REPORT_EN, REPORT_ZH, TEMPLATES, snapshot, write_project

TWICE = "written twice by one build: two pages or files have this address; give one of them another"


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    """path -> (bytes, inode) of every file under `folder`."""
    return {
        str(path.relative_to(folder)): (path.read_bytes(), path.stat().st_ino)
        for path in folder.rglob("*")
        if path.is_file()
    }


def edit(content: Path, number: int) -> None:
    report = content / "reports" / "acme-vs-zenith.en.md"
    report.write_text(REPORT_EN + f"\nOne more sentence, edit {number}.\n", "utf-8")


@pytest.fixture
def rebuilt(tmp_path, warm_cache, warm_copy):
    """A project built, edited and built again (content, output, cache, cold(): the digest of
    a cold build of the content as it is now)."""
    content, out = write_project(tmp_path / "a"), tmp_path / "site"
    build(content, TEMPLATES, out, cache=warm_cache)
    edit(content, 1)
    build(content, TEMPLATES, out, cache=warm_cache)
    colds = iter(range(100))

    def cold() -> str:
        number = next(colds)
        folder = tmp_path / f"cold-{number}"
        build(content, TEMPLATES, folder, cache=warm_copy(tmp_path / f"cold-cache-{number}"))
        return tree_digest(folder)

    return content, out, warm_cache, cold


def recorded_state(cache: Path, out: Path) -> dict:
    store = Store(cache)
    try:
        manifest = load_manifest(store, out)
    finally:
        store.close()
    assert manifest is not None
    return manifest.state


def test_a_rebuild_writes_only_the_files_whose_bytes_changed(rebuilt):
    content, out, cache, cold = rebuilt
    spare = out.parent / ".site.spare"
    assert (spare / MARKER).is_file()
    before = files_of(out)
    edit(content, 2)
    report = build(content, TEMPLATES, out, cache=cache)
    assert report.units_rendered == 1
    after = files_of(out)
    # (the marker is the staging folder's own, there from its start)
    same = [path for path in after if path in before and after[path][0] == before[path][0] and path != MARKER]
    changed = sorted(set(after) - set(same))
    assert "en/reports/acme-vs-zenith.html" in changed and len(changed) < len(after) / 4
    assert [path for path in same if after[path][1] != before[path][1]] == []  # the very same files
    assert files_of(spare) == before  # the previous output, set aside whole
    # the state the manifest records is the output's, so the next build has nothing to do
    assert recorded_state(cache, out) == output_state(out)
    assert build(content, TEMPLATES, out, cache=cache).skipped
    assert tree_digest(out) == cold()
    assert sorted(path.name for path in out.parent.glob(".site*")) == [".site.spare"]


def test_whatever_the_spare_holds_the_output_is_a_cold_builds(rebuilt):
    content, out, cache, cold = rebuilt
    spare = out.parent / ".site.spare"
    (spare / "stray.html").write_text("not the site's")
    (spare / "en" / "strays").mkdir()
    (spare / "en" / "strays" / "page.html").write_text("nor this")
    replaced = spare / "en" / "index.html"
    replaced.unlink()
    replaced.write_text("another file at a page's address")
    linked = spare / "zh" / "index.html"
    linked.unlink()
    linked.symlink_to(out / "zh" / "index.html")
    (spare / "en" / "methodology.html").write_text("changed in place")  # the output's file too
    edit(content, 2)
    build(content, TEMPLATES, out, cache=cache)
    assert tree_digest(out) == cold()
    assert recorded_state(cache, out) == output_state(out)


def test_a_build_that_fails_keeps_the_output_and_its_spare(rebuilt):
    content, out, cache, cold = rebuilt
    before = snapshot(out)
    report = content / "reports" / "acme-vs-zenith.zh.md"
    report.write_text(REPORT_ZH + "\n中文 句子。\n", "utf-8")  # an error found while rendering
    with pytest.raises(ContentError) as failed:
        build(content, TEMPLATES, out, cache=cache)
    assert "ASCII space between two CJK characters" in str(failed.value)
    assert snapshot(out) == before
    assert sorted(path.name for path in out.parent.glob(".site*")) == [".site.spare"]
    report.write_text(REPORT_ZH + "\n中文句子。\n", "utf-8")
    again = build(content, TEMPLATES, out, cache=cache)
    # the output's files were left as the last build recorded them: the failed build did not
    # cost the next one its reuse (only the files the last build wrote were linked since)
    assert again.units_rendered <= 4 < again.units_reused
    assert tree_digest(out) == cold()


def test_a_new_page_at_the_address_of_a_reused_one_is_refused(rebuilt):
    """The spare holds the explorer's page from the start; a page of the editors' at its
    address is a second page there all the same."""
    content, out, cache, _ = rebuilt
    before = snapshot(out)
    for lang in ("en", "zh"):
        (content / "pages" / f"explore.{lang}.md").write_text(
            "---\ntitle: Explore\nsummary: Mine.\n---\nMine.\n", "utf-8"
        )
    with pytest.raises(ContentError) as failed:
        build(content, TEMPLATES, out, cache=cache)
    assert [str(problem) for problem in failed.value.problems] == [f"output/en/explore.html: {TWICE}"]
    assert snapshot(out) == before


def test_a_build_that_reuses_nothing_leaves_no_spare(rebuilt, tmp_path, warm_copy):
    """Another cache (no manifest of this output): every file is written, and the tree set
    aside shares none with the output; it and the spare are removed, not kept twice on disk."""
    content, out, _, cold = rebuilt
    build(content, TEMPLATES, out, cache=warm_copy(tmp_path / "another-cache"))
    assert list(out.parent.glob(".site*")) == []
    assert tree_digest(out) == cold()


def test_the_staging_folder_of_a_killed_build_becomes_the_spare(rebuilt):
    """What a build killed after it took the spare leaves (SIGKILL: no cleanup): its staging
    folder, half written. Removing it would unlink the links it shares with the output and
    change their files' ctime, and the next build would reuse none of them."""
    content, out, cache, cold = rebuilt
    left = out.parent / ".site.tmp-killed01"
    (out.parent / ".site.spare").rename(left)
    (left / "en" / "half-a-page.html").write_text("<html><body>half")
    edit(content, 2)
    again = build(content, TEMPLATES, out, cache=cache)
    assert again.units_rendered == 1
    assert tree_digest(out) == cold()
    assert sorted(path.name for path in out.parent.glob(".site*")) == [".site.spare"]


# A big site's build in a fresh interpreter (a test worker runs threads, and a process with
# other threads never forks: forking.fork_safe), made to fork as a big site does.
BIG_SITE_BUILDS = """
import json, os, sys
from pathlib import Path
from sitegen.assemble import rendering
from sitegen.assemble.pipeline import build
from sitegen.content.load import load_site

content, templates, out, cache = (Path(a) for a in sys.argv[1:5])
rendering.PARALLEL_MIN_REPORTS = 1  # fork as a big site does
os.cpu_count = lambda: 2
forks = rendering.in_processes(load_site(content))
first = build(content, templates, out, cache=cache)
spare = out.parent / ".site.spare"
linked = sorted(str(p.relative_to(spare)) for p in spare.rglob("*") if p.is_file())
same = all(p.stat().st_ino == (out / p.relative_to(spare)).stat().st_ino for p in spare.rglob("*") if p.is_file())
report = content / "reports" / "acme-vs-zenith.en.md"
report.write_text(report.read_text("utf-8") + "\\nOne more sentence.\\n", "utf-8")
again = build(content, templates, out, cache=cache)
print(json.dumps({"forks": forks, "linked": linked, "same": same,
                  "files": first.files, "rendered": again.units_rendered, "reused": again.units_reused}))
"""


def test_a_big_sites_cold_build_leaves_its_output_as_the_spare(tmp_path):
    """A cold build of a big site (one that forks) sets no previous tree aside: it links its
    new output as the spare, every file the output's own (one inode), before the output's state
    is recorded, so the first edit after it takes the spare, links nothing, renders one unit
    and reuses the rest (a link moves a file's ctime: recorded before it, every file would
    look changed and nothing would be reused)."""
    import json
    import subprocess
    import sys

    content, out = write_project(tmp_path / "a"), tmp_path / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            BIG_SITE_BUILDS,
            str(content),
            str(TEMPLATES),
            str(out),
            str(tmp_path / "cache"),
        ],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        check=True,
    )
    facts = json.loads(done.stdout.splitlines()[-1])
    assert facts["forks"]
    assert facts["same"] and len(facts["linked"]) == facts["files"] + 1  # and the marker
    assert MARKER in facts["linked"]
    assert facts["rendered"] == 1 and facts["reused"] > 10
    assert sorted(path.name for path in out.parent.glob(".site*")) == [".site.spare"]
