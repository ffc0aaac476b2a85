"""Issue 46, what a careless or hostile contributor can write: a chips.yaml rule that would
backtrack for minutes, invisible format characters in names, a colour that is no colour, lists
nested a thousand levels deep, a content folder's template override that lacks what the
generator needs. Each is one file:line message (exit 1) and leaves the previous output byte
for byte as it was; a rule is answered within seconds (a build in a subprocess, with a timeout).

Expected lines are written out from the content below (the rule's line in CHIPS, the field's
line in the tiny project's files), never read from the generator."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import build
from sitegen.base.errors import ContentError
from sitegen.content import patterns
from sitegen.content.load import load_site

from project import BENCHMARKS, GLOSSARY, REPORT_EN, SYSTEMS, VENDORS, write_project
from record_sample import CHIPS, write_record_project

ROOT = Path(__file__).resolve().parents[2]
R = "content/reports/acme-vs-zenith.en.md"
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: shows the text after it reversed
REFUSED = (
    "repeats a part that itself repeats (as in '(a+)+'), which can take minutes to match; "
    "write it without the nested repetition"
)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The tiny site and the record-layout site, each built once: {record?: output folder}."""
    root = tmp_path_factory.mktemp("good")
    outputs = {}
    for record in (False, True):
        content = (write_record_project if record else write_project)(root / f"p{int(record)}")
        outputs[record] = root / f"out{int(record)}"
        code = build.main(["-q", "--content", str(content), "--out", str(outputs[record])])
        assert code == 0
    return outputs


def fails(tmp_path, built, changes: dict, record: bool = False) -> list[str]:
    """Build the project with `changes` over a copy of its last good output: the lines said
    (exit 1 and the output untouched are asserted here)."""
    content = (write_record_project if record else write_project)(tmp_path, changes)
    out = tmp_path / "output"
    shutil.copytree(built[record], out)
    before = snapshot(out)
    ran = subprocess.run(
        [sys.executable, "-m", "sitegen", "--content", content, "--out", out],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SITEGEN_CACHE": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
        timeout=60,  # the hostile rule took minutes before; now it is refused when read
    )
    assert ran.returncode == 1, ran.stderr
    assert snapshot(out) == before
    lines = ran.stderr.splitlines()
    assert lines[-1] == f"build failed: {len(lines) - 1} problem(s); output left as it was"
    return lines[:-1]


# --- chips.yaml rules ---------------------------------------------------------------------------


def test_a_rule_that_would_backtrack_for_minutes_is_refused_at_its_line(tmp_path, built):
    hostile = CHIPS.replace("match: ['acme a1']", "match: ['(.+)+#']")
    assert fails(tmp_path, built, {"data/chips.yaml": hostile}, record=True) == [
        f"content/data/chips.yaml:6: variant 'A1': '(.+)+#' {REFUSED}"
    ]


@pytest.mark.parametrize(
    "rule", ["(a*)*", r"(\w+\s?)+z", "(.*a){12}", "(?:x|y+)+", "big (b9|(9+)+)", "(?>a+)+"]
)
def test_nested_repetitions_are_refused(tmp_path, rule):
    content = write_record_project(tmp_path, {"data/chips.yaml": CHIPS.replace("'big b9'", f"'{rule}'")})
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert str(error.value) == f"content/data/chips.yaml:13: variant 'B9': '{rule}' {REFUSED}"


@pytest.mark.parametrize(
    "rule", ["big b9?", "(big )?b9", r"big b\d+", "big (b|c)9", "(big b9){1}", "(b?i?g? )+b9"]
)
def test_rules_without_nested_repetition_are_kept(tmp_path, rule):
    content = write_record_project(tmp_path, {"data/chips.yaml": CHIPS.replace("'big b9'", f"'{rule}'")})
    site = load_site(content)
    assert site.record["v1.0-bigco-giant-resnet"]["chip"]["family"] == "bigco-b9"


def test_a_rule_that_takes_too_long_on_a_string_is_refused(tmp_path, monkeypatch):
    """The time bound of every match (patterns.MATCH_SECONDS), for shapes the check of nested
    repetitions does not see: with no time at all, the first match exceeds it."""
    monkeypatch.setattr(patterns, "MATCH_SECONDS", 0.0)
    content = write_record_project(tmp_path)
    with pytest.raises(ContentError) as error:
        load_site(content)
    assert str(error.value) == (
        "content/data/chips.yaml:6: variant 'A1': 'acme a1' takes more than 0 s to match 'Acme A1'; "
        "write it more simply"
    )


# --- names and colours ----------------------------------------------------------------------------


def bidi(where: str) -> str:
    return f"bidirectional control U+202E (RIGHT-TO-LEFT OVERRIDE) in {where}; remove it"


NAMES = {
    "chip-family": (
        {"data/chips.yaml": CHIPS.replace("- family: A1", f'- family: "A1{RLO} rev"')},
        True,
        [f"content/data/chips.yaml:3: a family: field 'family': {bidi('the name')}"],
    ),
    "chip-vendor-name": (
        {"data/chips.yaml": CHIPS.replace("{en: BigCo,", "{en: \"Big\\u200bCo\",")},
        True,
        [
            "content/data/chips.yaml:8: a vendor: field 'name': invisible format character U+200B "
            "(ZERO WIDTH SPACE) in the en name; remove it"
        ],
    ),
    "vendor-name": (
        {"data/vendors.yaml": VENDORS.replace("zh: 艾克米", f"zh: 艾克{RLO}米")},
        False,
        [f"content/data/vendors.yaml:2: record 'acme': field 'name': {bidi('the zh name')}"],
    ),
    "system-name": (
        {"data/systems.yaml": SYSTEMS.replace("{en: Acme 16,", '{en: "Acme\\u202a 16",')},
        False,
        [
            "content/data/systems.yaml:3: record 'acme-16': field 'name': bidirectional control "
            "U+202A (LEFT-TO-RIGHT EMBEDDING) in the en name; remove it"
        ],
    ),
    "benchmark-name": (
        {"data/benchmarks.yaml": BENCHMARKS.replace("{en: BERT-Large,", '{en: "BERT\\u2066-Large",')},
        False,
        [
            "content/data/benchmarks.yaml:2: record 'bert': field 'name': bidirectional control U+2066 "
            "(LEFT-TO-RIGHT ISOLATE) in the en name; remove it"
        ],
    ),
    "glossary-soft-hyphen": (
        {"data/glossary.yaml": GLOSSARY.replace("{en: Time to train,", '{en: "Time to tr\\u00adain",')},
        False,
        [
            "content/data/glossary.yaml:2: record 'ttt': field 'term': invisible format character "
            "U+00AD (SOFT HYPHEN) in the en name; remove it"
        ],
    ),
    "report-title": (
        {
            "reports/acme-vs-zenith.en.md": REPORT_EN.replace(
                "title: Acme against Zenith", 'title: "Acme\\u061c against Zenith"'
            )
        },
        False,
        [f"{R}:2: field 'title': bidirectional control U+061C (ARABIC LETTER MARK) in the name; remove it"],
    ),
    "vendor-colour": (
        {"data/vendors.yaml": VENDORS.replace('"#009E73"', '"#009E7"')},
        False,
        [
            "content/data/vendors.yaml:6: record 'zenith': field 'color': '#009E7' is not a CSS colour: "
            "write #rrggbb (or #rgb, #rrggbbaa) or a colour name such as teal"
        ],
    ),
    "vendor-colour-free-text": (
        {"data/vendors.yaml": VENDORS.replace('"#0072B2"', '"url(#x); fill: red"')},
        False,
        [
            "content/data/vendors.yaml:3: record 'acme': field 'color': 'url(#x); fill: red' is not a "
            "CSS colour: write #rrggbb (or #rgb, #rrggbbaa) or a colour name such as teal"
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_names_and_colours_are_checked_at_their_line(tmp_path, built, name):
    changes, record, expected = NAMES[name]
    assert fails(tmp_path, built, changes, record) == expected


def test_every_form_of_css_colour_is_taken(tmp_path):
    """#rgb, #rgba, #rrggbb, #rrggbbaa and a CSS colour name, in any case."""
    vendors = VENDORS.replace('"#0072B2"', '"#0072b2cc"').replace('"#009E73"', "Teal")
    vendors += '- id: other\n  name: {en: Other, zh: 其他}\n  color: "#abc"\n'
    vendors += '- id: fourth\n  name: {en: Fourth, zh: 第四}\n  color: "#abcd"\n'
    site = load_site(write_project(tmp_path, {"data/vendors.yaml": vendors}))
    assert [v["color"] for v in site.tables["vendors"].values()] == ["#0072b2cc", "Teal", "#abc", "#abcd"]


# --- Markdown nested past any use -------------------------------------------------------------------

BODY = REPORT_EN.index("## Findings")
BODY_LINE = REPORT_EN[:BODY].count("\n") + 1  # the line of the body's first line


@pytest.mark.parametrize(
    "nested, depth",
    [
        ("".join("    " * level + "- item\n" for level in range(1200)), 33),  # line 33: 32 spaces, a marker
        (">" * 1200 + " deep\n", 1200),
        ("> " * 40 + "- " * 40 + "x\n", 80),
        ("".join("\t" * level + "1. item\n" for level in range(40)), 33),
    ],
    ids=["list", "quote", "quote-and-list-on-one-line", "tab-indented"],
)
def test_lists_and_quotes_nested_past_32_levels_are_refused(tmp_path, built, nested, depth):
    report = REPORT_EN[:BODY] + nested + REPORT_EN[BODY:]
    line = BODY_LINE + (32 if depth == 33 else 0)
    assert fails(tmp_path, built, {"reports/acme-vs-zenith.en.md": report}) == [
        f"{R}:{line}: lists or quotes nested {depth} levels deep (at most 32); flatten them"
    ]


def test_32_levels_and_code_are_fine(tmp_path):
    nested = "".join("    " * level + "- item\n" for level in range(32)) + "\n```\n" + "- " * 20 + "\n```\n"
    content = write_project(
        tmp_path, {"reports/acme-vs-zenith.en.md": REPORT_EN[:BODY] + nested + REPORT_EN[BODY:]}
    )
    out = tmp_path / "output"
    assert build.main(["-q", "--content", str(content), "--out", str(out)]) == 0
    assert (out / "en" / "reports" / "acme-vs-zenith.html").read_text("utf-8").count("<li>item") == 32


# --- a content folder's own templates ---------------------------------------------------------------

SHIPPED_BASE = (ROOT / "templates" / "base.html").read_text("utf-8")
MAIN_LINE = next(n for n, line in enumerate(SHIPPED_BASE.splitlines(), 1) if "{% block main %}" in line)
TEMPLATES = {
    "no-main": (
        SHIPPED_BASE.replace('<main id="main" tabindex="-1">', "<div>").replace("</main>", "</div>"),
        [
            "content/templates/base.html: the page en/reports/acme-vs-zenith.html has no <main> element, "
            "which the generator needs (a report's single-file copy is made from it): keep <main> in this "
            "template"
        ],
    ),
    "undefined": (
        SHIPPED_BASE.replace("{% block main %}", "{{ no_such_value }}{% block main %}"),
        [f"content/templates/base.html:{MAIN_LINE}: template error: 'no_such_value' is undefined"],
    ),
    "missing-include": (
        "{% include 'gone.html' %}\n",
        [
            "content/templates/base.html:1: template 'gone.html' not found "
            "(searched: content/templates, templates)"
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_template_override_lacking_what_the_generator_needs_names_itself(tmp_path, built, name):
    text, expected = TEMPLATES[name]
    assert fails(tmp_path, built, {"templates/base.html": text}) == expected
