"""The package's layers: every module imports only from its own stage or an earlier one, so
that the folder list reads as the pipeline (docs/architecture.md). Imports are read from the
source (ast), including those made inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "sitegen"

# The stages in order; a module may import from its own stage or an earlier one. The importer
# and the editor tools both sit on top of the build, and neither imports the other.
RANK = {
    "base": 0,
    "content": 1,
    "derive": 2,
    "render": 3,
    "build": 4,
    "importer": 5,
    "editor": 5,
    "cli": 6,
    "__main__": 7,
}


def stage(module: str) -> str:
    """The stage of a dotted module name under sitegen ("sitegen.render.pages" -> "render")."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "cli"  # `sitegen` itself: __version__, top level


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every sitegen module the file imports."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("sitegen")]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: relative import"
            if (node.module or "").startswith("sitegen"):
                found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return found


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "vendor" not in p.parts)


def allowed(importer: str, imported: str) -> bool:
    if imported in ("sitegen.__version__",):
        return True
    mine, theirs = stage(importer), stage(imported)
    if theirs not in RANK:  # a name taken from a stage package itself
        return False
    return mine == theirs or RANK[theirs] < RANK[mine]


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def test_every_module_belongs_to_a_stage():
    strays = [module_name(p) for p in modules() if stage(module_name(p)) not in RANK]
    assert strays == []


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_module_imports_from_a_later_stage(path):
    name = module_name(path)
    upward = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {name} imports {imported}"
        for line, imported in imports(path)
        if not allowed(name, imported)
    ]
    assert upward == []


def test_the_check_finds_an_upward_import(tmp_path):
    """The check itself: a content module importing the renderer is refused."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from sitegen.render.markup import Page\n")
    assert imports(bad) == [(2, "sitegen.render.markup.Page")]
    assert not allowed("sitegen.content.load", "sitegen.render.markup.Page")
    assert not allowed("sitegen.importer.run", "sitegen.editor.serve")
    assert allowed("sitegen.render.pages", "sitegen.content.model.Site")
