"""The package's sizes: every module under sitegen/ at most 400 lines and every function or
method at most 60, counted from its `def` line to its last line (decorators not counted).
A larger one is split by purpose (docs/architecture.md). Read from the source with ast."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sitegen"
MODULE_LINES = 400
FUNCTION_LINES = 60


def modules() -> list[Path]:
    """Every Python module of the package; the vendored libraries are not ours."""
    return sorted(p for p in PACKAGE.rglob("*.py") if "vendor" not in p.relative_to(PACKAGE).parts)


def long_functions(source: str, limit: int = FUNCTION_LINES) -> list[tuple[int, str, int]]:
    """(def line, name, lines) of each function or method, nested ones too, longer than `limit`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append((node.lineno, node.name, length))
    return sorted(found)


def test_no_module_over_400_lines():
    long = []
    for path in modules():
        lines = len(path.read_text("utf-8").splitlines())
        if lines > MODULE_LINES:
            long.append(f"{path.relative_to(PACKAGE.parent)}: {lines} lines (at most {MODULE_LINES})")
    assert long == [], "modules to split by purpose:\n" + "\n".join(long)


def test_no_function_over_60_lines():
    long = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {name} is {length} lines (at most {FUNCTION_LINES})"
        for path in modules()
        for line, name, length in long_functions(path.read_text("utf-8"))
    ]
    assert long == [], "functions to split:\n" + "\n".join(long)


def _function(name: str, body_lines: int, indent: str = "") -> str:
    """A function of one `def` line and `body_lines` statements: 1 + body_lines lines."""
    body = "".join(f"{indent}    x{n} = {n}\n" for n in range(body_lines))
    return f"{indent}def {name}():\n{body}"


def test_the_check_counts_from_the_def_line_to_the_last():
    """The check itself: a function of 61 lines is found, one of 60 is not; a decorator's
    lines do not count; a method and a nested function are found as functions are."""
    source = (
        "import functools\n\n\n"  # lines 1-3
        "@functools.cache\n@functools.wraps(print)\n"  # lines 4-5: decorators
        + _function("sixty", 59)  # lines 6-65: def and 59 statements
        + "\n\n"  # lines 66-67
        + _function("sixty_one", 60)  # lines 68-128
        + "\n\nclass Box:\n"  # lines 129-131
        + _function("method", 61, indent="    ")  # lines 132-193
        + "\n\ndef outer():\n"  # lines 194-196
        + _function("inner", 62, indent="    ")  # lines 197-259
    )
    assert long_functions(source) == [
        (68, "sixty_one", 61),
        (132, "method", 62),
        (196, "outer", 64),
        (197, "inner", 63),
    ]


def test_the_module_list_leaves_out_only_the_vendored_libraries():
    names = {p.relative_to(PACKAGE).as_posix() for p in modules()}
    assert "cli.py" in names and "derive/model.py" in names and "render/charts/progress.py" in names
    assert not any(name.startswith("vendor/") for name in names)
