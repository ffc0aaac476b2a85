"""Every kind of editor mistake: one clear message with file and line, exit 1, output untouched."""

from __future__ import annotations

import hashlib

import pytest

import build

from project import FILES, REPORT_EN, RESULTS, RESULTS_FILE, SYSTEM_MAP, write_project

ZH_STRINGS_WITHOUT_HOME = None  # filled in by the test that needs it


def tree_digest(folder):
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


CASES = {
    "yaml-syntax": (
        {"data/systems.yaml": FILES["data/systems.yaml"].replace("family: acme", "family: [acme")},
        "content/data/systems.yaml:5: YAML syntax error: did not find expected ',' or ']'",
    ),
    # RESULTS (the round file): two header lines, then r-acme from line 3 (status on 18,
    # value 19, unit 20) and r-zenith from line 27
    "missing-field": (
        {RESULTS_FILE: RESULTS.replace("  value: 30.0\n", "", 1)},
        "content/data/record/results-v1.0.yaml:18: record 'r-acme': a scored result needs a value",
    ),
    "negative-time": (
        {RESULTS_FILE: RESULTS.replace("value: 30.0", "value: -30.0")},
        "content/data/record/results-v1.0.yaml:19: record 'r-acme': field 'value': -30.0 must be "
        "greater than zero",
    ),
    "unknown-unit": (
        {RESULTS_FILE: RESULTS.replace("unit: min", "unit: parsecs", 1)},
        "content/data/record/results-v1.0.yaml:20: record 'r-acme': field 'unit': 'parsecs' is not one of: min",
    ),
    "bad-date": (
        {"data/sources.yaml": FILES["data/sources.yaml"].replace("2021-06-30", "2021-13-45", 1)},
        "content/data/sources.yaml:5: record 's-article': field 'date': '2021-13-45' is not a date (write YYYY-MM-DD)",
    ),
    "wrong-type": (
        {
            "data/systems.yaml": FILES["data/systems.yaml"].replace(
                "accelerator_count: 16", "accelerator_count: sixteen"
            )
        },
        "content/data/systems.yaml:7: record 'acme-16': field 'accelerator_count': 'sixteen' is not a number",
    ),
    "unknown-system": (  # SYSTEM_MAP's second line maps Zenith's folder
        {"data/mlperf_systems.yaml": SYSTEM_MAP.replace(": zenith-8", ": dgx-a200")},
        "content/data/mlperf_systems.yaml:2: unknown system 'dgx-a200'",
    ),
    "duplicate-id": (
        {RESULTS_FILE: RESULTS.replace("id: r-zenith", "id: r-acme")},
        "content/data/record/results-v1.0.yaml:27: duplicate id 'r-acme' (first on line 3): a second "
        "copy of a result; delete one of the two",
    ),
    "one-language-only": (
        {"reports/acme-vs-zenith.zh.md": None},
        "content/reports/acme-vs-zenith.en.md: report 'acme-vs-zenith' has no zh version: write "
        "acme-vs-zenith.zh.md, or add 'pending: [zh]' to the front matter",
    ),
    "not-utf8": (
        {"reports/acme-vs-zenith.zh.md": FILES["reports/acme-vs-zenith.zh.md"].encode("gb18030")},
        "content/reports/acme-vs-zenith.zh.md:2: byte 0xb6 (column 13) is not UTF-8; save the file as UTF-8",
    ),
    "mojibake": (
        {"reports/acme-vs-zenith.en.md": REPORT_EN.replace("Acme trains", "Acme鈥檚 system trains")},
        "content/reports/acme-vs-zenith.en.md:12: mojibake '鈥檚': the text was decoded with the "
        "wrong encoding; retype it or fix it as UTF-8",
    ),
    "scrape-noise": (
        {"reports/acme-vs-zenith.en.md": REPORT_EN.replace("Acme trains", "91视频APP trains")},
        "content/reports/acme-vs-zenith.en.md:12: scrape noise '91视频APP' must not reach the site",
    ),
    "missing-interface-string": (
        {"i18n/zh.yaml": "__DROP__nav.home"},
        "content/i18n/zh.yaml: missing interface string 'nav.home' (the other language has it)",
    ),
    "no-front-matter": (
        {"reports/acme-vs-zenith.en.md": "## Just a body\n"},
        "content/reports/acme-vs-zenith.en.md:1: missing front matter: start the file with a '---' "
        "line, the YAML fields, and another '---' line",
    ),
    "unknown-source-in-front-matter": (
        {"reports/acme-vs-zenith.en.md": REPORT_EN.replace("sources: [s-article", "sources: [s-nowhere")},
        "content/reports/acme-vs-zenith.en.md:5: front matter 'sources': unknown source 's-nowhere'",
    ),
    "unknown-result-in-text": (
        {"reports/acme-vs-zenith.en.md": REPORT_EN.replace("[[result:r-zenith]]", "[[result:r-nobody]]")},
        "content/reports/acme-vs-zenith.en.md:12: unknown result 'r-nobody' in [[...]]",
    ),
    "empty-selection": (
        {"reports/acme-vs-zenith.en.md": REPORT_EN.replace("round: v1.0", "round: v9.9")},
        "content/reports/acme-vs-zenith.en.md:14: results block: the selection matches no result",
    ),
    "csv-bad-colour": (  # a table in CSV (names from companies.yaml: CSV has no {en, zh} cells)
        {
            "data/vendors.yaml": None,
            "data/vendors.csv": "id,color\nacme,#0072B2\nzenith,#00\n",
            "data/companies.yaml": "- id: acme\n  name: {en: Acme, zh: 艾克米}\n"
            "- id: zenith\n  name: {en: Zenith, zh: 天顶}\n",
        },
        "content/data/vendors.csv:3: record 'zenith': field 'color': '#00' is not a CSS colour: write "
        "#rrggbb (or #rgb, #rrggbbaa) or a colour name such as teal",
    ),
    "map-unknown-system": (
        {"data/mlperf_systems.yaml": SYSTEM_MAP.replace(": zenith-8", ": zenith-9")},
        "content/data/mlperf_systems.yaml:2: unknown system 'zenith-9' (did you mean 'zenith-8'?)",
    ),
    "bad-report-name": (
        {"reports/Acme Report.en.md": REPORT_EN},
        "content/reports/Acme Report.en.md: a report file is named <slug>.<lang>.md with a "
        "lowercase slug and a language among en, zh",
    ),
    "claim-check-incomplete": (
        {"data/claims.yaml": FILES["data/claims.yaml"].replace(", baseline: r-zenith", "")},
        "content/data/claims.yaml:1: claim 'c-ppr': check of kind 'price_performance' needs 'baseline'",
    ),
    # a page named like one the site makes: before, the last one written silently won
    "page-at-the-explorers-address": (
        {
            f"pages/explore.{lang}.md": "---\ntitle: Explore\nsummary: Mine.\n---\nMine.\n"
            for lang in ("en", "zh")
        },
        "output/en/explore.html: written twice by one build: two pages or files have this address; "
        "give one of them another",
    ),
}


def apply_changes(tmp_path, changes):
    drop = {k: v for k, v in changes.items() if isinstance(v, str) and v.startswith("__DROP__")}
    content = write_project(tmp_path / "broken", {k: v for k, v in changes.items() if k not in drop})
    for rel, marker in drop.items():
        key = marker.removeprefix("__DROP__")
        path = content / rel
        lines = [line for line in path.read_text("utf-8").splitlines(True) if not line.startswith(key + ":")]
        path.write_text("".join(lines), "utf-8")
    return content


@pytest.fixture
def previous_output(tmp_path):
    out = tmp_path / "output"
    assert build.main(["--content", str(write_project(tmp_path / "good")), "--out", str(out), "-q"]) == 0
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_reported_and_output_kept(case, tmp_path, previous_output, capsys):
    changes, expected = CASES[case]
    content = apply_changes(tmp_path, changes)
    before = tree_digest(previous_output)
    status = build.main(["--content", str(content), "--out", str(previous_output)])
    err = capsys.readouterr().err
    assert status == 1
    assert expected in err.splitlines(), err
    assert "output left as it was" in err
    if case == "yaml-syntax":  # one clear message, not one per reference to the broken table
        assert "build failed: 1 problem(s)" in err
    assert tree_digest(previous_output) == before
    assert [p.name for p in previous_output.parent.iterdir() if p.name.startswith(".output")] == []


def test_all_problems_of_a_run_are_listed_together(tmp_path, capsys):
    content = apply_changes(
        tmp_path,
        {
            RESULTS_FILE: RESULTS.replace("value: 30.0", "value: -1"),
            "data/sources.yaml": FILES["data/sources.yaml"].replace("2021-06-30", "2021-13-45", 1),
            "reports/acme-vs-zenith.zh.md": None,
        },
    )
    assert build.main(["--content", str(content), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "build failed: 3 problem(s); output left as it was" in err
    # one mistake, one message: the claim that uses the broken result does not repeat it
    assert "unknown result 'r-acme'" not in err
    assert not (tmp_path / "out").exists()


def test_pending_translation_gets_a_page_that_says_so(tmp_path):
    content = apply_changes(
        tmp_path,
        {
            "reports/acme-vs-zenith.zh.md": None,
            "reports/acme-vs-zenith.en.md": REPORT_EN.replace(
                "claims: [c-ppr]", "claims: [c-ppr]\npending: [zh]"
            ),
        },
    )
    out = tmp_path / "out"
    assert build.main(["--content", str(content), "--out", str(out), "-q"]) == 0
    page = (out / "zh/reports/acme-vs-zenith.html").read_text("utf-8")
    assert "本报告的这一语言版本尚未写成。" in page
    assert 'href="../../en/reports/acme-vs-zenith.html"' in page


def test_script_and_handlers_in_a_report_never_reach_the_page(tmp_path):
    evil = (
        '\n<script>alert(1)</script>\n\n<p onclick="steal()">hi</p>\n\n'
        '[click](javascript:alert(2)) <img src="../images/x.png" onerror="boom()">\n'
    )
    content = apply_changes(
        tmp_path, {"reports/acme-vs-zenith.en.md": REPORT_EN + evil, "images/x.png": b"\x89PNG\r\n\x1a\n"}
    )
    out = tmp_path / "out"
    assert build.main(["--content", str(content), "--out", str(out), "-q"]) == 0
    page = (out / "en/reports/acme-vs-zenith.html").read_text("utf-8")
    body = page.split('<div class="body">', 1)[1].split('<section class="report-claims"', 1)[0]
    for forbidden in ("<script", "onclick", "onerror", "javascript:"):
        assert forbidden not in body
    assert "<p>hi</p>" in body


def test_strict_turns_warnings_into_failures(tmp_path, capsys):
    from sitegen.base.errors import Problems

    problems = Problems(tmp_path / "content")
    problems.warn(tmp_path / "content" / "site.yaml", 3, "something to look at")
    with pytest.raises(Exception) as raised:
        problems.raise_if_any(strict=True)
    assert "content/site.yaml:3: warning: something to look at" in str(raised.value)
    problems.raise_if_any(strict=False)
