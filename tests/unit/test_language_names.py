"""Languages are data (site.yaml's `languages`): no module but base/languages.py names a
language by its code, HTML lang tag or locale; code that depends on a script asks the
Language for its `script` (docs/architecture.md, "Where to add": a language)."""

from __future__ import annotations

import ast
from pathlib import Path

from sitegen.base.languages import KNOWN

PACKAGE = Path(__file__).resolve().parents[2] / "sitegen"
NAMES = {name for language in KNOWN.values() for name in (language.code, language.lang, language.locale)}
TAGS = {name for name in NAMES if "-" in name}  # zh-Hans, zh-Hant: found inside longer text too


def _docstrings(tree: ast.AST) -> set[int]:
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def language_names(source: str, name: str) -> list[str]:
    """Every string constant of `source` (not a docstring) that is a language's name in code."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return sorted(
        f"{name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and (node.value in NAMES or any(tag in node.value for tag in TAGS))
    )


def test_no_module_but_languages_names_a_language():
    found = [
        hit
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).as_posix() != "base/languages.py"
        for hit in language_names(path.read_text("utf-8"), path.relative_to(PACKAGE).as_posix())
    ]
    assert found == []


def test_the_check_finds_a_code_a_tag_inside_text_and_not_a_docstring():
    source = '"""Simplified (zh-Hans) text."""\nA = {"en": 1}\nB = "//*[@lang=\'zh-Hant\']"\nC = "english"\n'
    assert language_names(source, "example") == ["example:2: 'en'", "example:3: \"//*[@lang='zh-Hant']\""]
