"""Templates display (issue 47): no template line over 160 characters, and no filter inside a
template's tags that orders, selects, groups, counts or aggregates values; the render functions
hand a page its values chosen, ordered and counted (docs/architecture.md, "Templates display")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").glob("*.html"))
LONGEST = 160

# the filters that order (sort, dictsort, reverse), select (select, reject, selectattr,
# rejectattr, unique, first, last, slice, batch, random, map), group (groupby), count (length,
# count) or aggregate (sum, max, min): each is a decision about the values, made in render
DECIDING = (
    "sort dictsort reverse select reject selectattr rejectattr unique first last slice batch random"
    " map groupby length count sum max min"
).split()
FILTER = re.compile(r"\|\s*(" + "|".join(DECIDING) + r")\b")
TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)  # expressions and statements, not comments
COUNT_CALL = re.compile(r"\bmodel\.count\(")  # the model counts; render passes the number


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def long_lines(text: str) -> list[str]:
    """'line: n characters' for each line longer than LONGEST."""
    return [
        f"{number}: {len(line)} characters"
        for number, line in enumerate(text.split("\n"), 1)
        if len(line) > LONGEST
    ]


def deciding_filters(text: str) -> list[str]:
    """'line: what' for each deciding filter or model count inside a Jinja tag."""
    found = []
    for tag in TAG.finditer(text):
        line = text.count("\n", 0, tag.start()) + 1
        found += [f"{line}: |{m.group(1)}" for m in FILTER.finditer(tag.group(0))]
        found += [f"{line}: model.count()" for _ in COUNT_CALL.finditer(tag.group(0))]
    return found


@pytest.mark.parametrize("path", TEMPLATES, ids=_name)
def test_no_template_line_is_over_160_characters(path):
    assert long_lines(path.read_text("utf-8")) == []


@pytest.mark.parametrize("path", TEMPLATES, ids=_name)
def test_a_template_orders_selects_and_counts_nothing(path):
    assert deciding_filters(path.read_text("utf-8")) == []


def test_the_checks_catch_what_they_look_for():
    text = (
        "<p>{{ t('x') }}</p>\n"
        "{% for r in rows|sort(attribute='value') %}{{ r }}{% endfor %}\n"
        "{% if rows | length > 1 %}several{% endif %}\n"
        "{{ fmt.number(model.count(rows), lang, 0) }}\n"
        "{% for g in items|selectattr('relation', 'equalto',\n    'next') %}{% endfor %}\n"
        "{# a comment may say |length #} a text may say |sort\n" + "x" * 161 + "\n"
    )
    assert deciding_filters(text) == ["2: |sort", "3: |length", "4: model.count()", "5: |selectattr"]
    assert long_lines(text) == ["8: 161 characters"]  # the selectattr tag takes two lines
    assert long_lines("x" * 160) == []
