"""Render and templates read the derived model (sitegen/derive/model.py) and nothing else about
results: no render module imports a derive module but the model, reaches into the record
through the site, or sorts, counts or divides results; no template calls a derivation, counts
a set of results for display or sorts one.

Read from the source (ast for Python, the template text for Jinja), so that a new page kind
that computes for itself fails here before it reaches a page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RENDER = sorted((ROOT / "sitegen" / "render").rglob("*.py"))
TEMPLATES = sorted((ROOT / "templates").glob("*.html"))

# the site's views of the record and the ways into it; render asks the model instead
RECORD_VIEWS = {
    "record_results",
    "round_results",
    "record_rounds",
    "record_benchmarks",
    "round_benchmarks",
    "rounds_held",
    "results_for",
}
# fields whose arithmetic or order is a result figure
RESULT_FIELDS = {"value", "accelerator_count", "energy"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"), str(path))


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _subscripts_result_field(node: ast.AST) -> bool:
    """Whether `node` reads r["value"] (or another result field) anywhere inside it."""
    return any(
        isinstance(sub, ast.Subscript)
        and isinstance(sub.slice, ast.Constant)
        and sub.slice.value in RESULT_FIELDS
        for sub in ast.walk(node)
    )


def _offences(path: Path) -> list[str]:
    found = []
    for node in ast.walk(_tree(path)):
        where = f"{_name(path)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sitegen.derive"):
            names = {alias.name for alias in node.names}
            if node.module != "sitegen.derive.model" and not (
                node.module == "sitegen.derive" and names == {"model"}
            ):
                found.append(f"{where}: imports {node.module} ({', '.join(sorted(names))})")
            if node.module == "sitegen.derive" and names != {"model"}:
                found.append(f"{where}: imports sitegen.derive.{', '.join(sorted(names))}")
        elif isinstance(node, ast.Import) and any(a.name.startswith("sitegen.derive") for a in node.names):
            found.append(f"{where}: imports derive")
        elif isinstance(node, ast.Name) and node.id == "index_of":
            found.append(f"{where}: index_of (the record index is the model's)")
        elif isinstance(node, ast.Attribute) and node.attr in RECORD_VIEWS and _is_site(node.value):
            found.append(f"{where}: site.{node.attr} (a view of the record: ask the model)")
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "record"
            and isinstance(node.value, ast.Name)
            and node.value.id == "site"
        ):
            found.append(f"{where}: site.record (the record is the model's)")
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value == "results"
        ):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "tables":
                found.append(f'{where}: tables["results"] (the model\'s system_results)')
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Mult, ast.Sub, ast.FloorDiv)):
            if _subscripts_result_field(node.left) or _subscripts_result_field(node.right):
                found.append(f"{where}: arithmetic on a result's field")
        elif isinstance(node, ast.Call) and _sort_of_results(node):
            found.append(f"{where}: sorts results by a result's field")
    return found


def _is_site(node: ast.AST) -> bool:
    """`site`, or an attribute named site (page.site, model.site)."""
    return (isinstance(node, ast.Name) and node.id == "site") or (
        isinstance(node, ast.Attribute) and node.attr == "site"
    )


def _sort_of_results(call: ast.Call) -> bool:
    """sorted(..., key=...) or x.sort(key=...) whose key reads a result field."""
    is_sort = (isinstance(call.func, ast.Name) and call.func.id in {"sorted", "max", "min"}) or (
        isinstance(call.func, ast.Attribute) and call.func.attr == "sort"
    )
    return is_sort and any(k.arg == "key" and _subscripts_result_field(k.value) for k in call.keywords)


@pytest.mark.parametrize("path", RENDER, ids=_name)
def test_a_render_module_reads_results_only_through_the_model(path):
    assert _offences(path) == []


def test_the_checks_catch_what_they_look_for():
    """Each rule fails on a module that breaks it (the checks read what they claim to)."""
    source = (
        "from sitegen.derive import derived\n"
        "from sitegen.derive.record_index import index_of\n"
        "def page(site, r, rows):\n"
        "    index_of(site)\n"
        "    site.record_results('bert', 'v1.0')\n"
        "    site.record.get('x')\n"
        "    site.tables['results']\n"
        "    work = r['value'] * r['accelerator_count']\n"
        "    return sorted(rows, key=lambda x: x['value'])\n"
    )
    path = ROOT / "sitegen" / "render" / "probe"
    tree = ast.parse(source)
    original = globals()["_tree"]
    globals()["_tree"] = lambda _p: tree
    try:
        found = _offences(path)
    finally:
        globals()["_tree"] = original
    kinds = [
        "imports sitegen.derive",
        "imports sitegen.derive.record_index",
        "index_of",
        "site.record_results",
        "site.record",
        'tables["results"]',
        "arithmetic on a result's field",
        "sorts results",
    ]
    for kind in kinds:
        assert any(kind in line for line in found), (kind, found)


# A template displays: a count shown to the reader (fmt.number of a |length), a sort, a sum or
# a call of a derivation is the model's to make.
TEMPLATE_RULES = (
    (re.compile(r"fmt\.number\(\s*[\w.\[\]'\"]+\|length\s*,"), "shows a count it made (|length)"),
    (re.compile(r"\|\s*(sort|sum|groupby)\b"), "sorts, sums or groups"),
    (re.compile(r"\bderived\.[a-z_]+\("), "calls a derivation"),
    (re.compile(r"\bindex\.(counted|counts|scaling)\("), "counts or derives through the index"),
)


@pytest.mark.parametrize("path", TEMPLATES, ids=_name)
def test_a_template_displays_what_the_model_computed(path):
    text = path.read_text("utf-8")
    found = [
        f"{_name(path)}:{text.count(chr(10), 0, m.start()) + 1}: {why}: {m.group(0)}"
        for rule, why in TEMPLATE_RULES
        for m in rule.finditer(text)
    ]
    assert found == []


def test_the_template_rules_catch_what_they_look_for():
    probes = [
        "{{ fmt.number(rows|length, lang, 0) }}",
        "{% for r in rows|sort(attribute='value') %}",
        "{{ derived.accelerator_minutes(r) }}",
        "{{ index.counted(rows) }}",
    ]
    for probe in probes:
        assert any(rule.search(probe) for rule, _ in TEMPLATE_RULES), probe
