"""The package's layers: every module imports only from its own stage or an earlier one, so
that the folder list reads as the pipeline (docs/architecture.md). Imports are read from the
source (ast), including those made inside functions."""

from __future__ import annotations

import ast
import os
import re
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
    "assemble": 4,
    "importer": 5,
    "editor": 5,
    "commands": 6,  # what each command does
    "cli": 7,  # the command line that parses and calls them
    "__main__": 8,
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


# --- Every Python file the code, templates and docs name exists ------------------------------

ROOT = PACKAGE.parent
# Where the project names its own files.
NAMING = [
    "README.md",
    "pyproject.toml",
    "build.py",
    "bench",
    "docs",
    "sitegen",
    "templates",
    "content",
    "scripts",
    "tests",
]
# Not read: history (CHANGELOG.md is not in NAMING; bench/README.md) keeps the names files had
# then; the record's results name MLCommons' files; this file names missing ones on purpose.
NOT_NAMING = ("bench/README.md", "content/data/record/results-", "tests/unit/test_layers.py")
# Named, and not ours: MLCommons' scorer (sitegen/importer/energy.py), the settings file of the
# benchmark's Pelican peer (bench/), files the tests write.
ELSEWHERE = {"result_summarizer.py", "pelicanconf.py", "a.py", "bad.py"}
PY_NAME = re.compile(r"(?<![\w./$-])((?:[\w-]+/)*[a-z_0-9]+\.py)\b")
# Folders not walked: made ones, the benchmark's working copy, MLCommons' logs (test fixtures)
# and vendored libraries.
SKIP_DIRS = {"__pycache__", ".hypothesis", "work", "fixtures", "vendor"}


def project_files(suffixes: tuple[str, ...]) -> list[Path]:
    """The files of the NAMING places with these suffixes, relative to ROOT."""
    found = []
    for top in NAMING:
        if (ROOT / top).is_file():
            found.append(Path(top))
            continue
        for folder, dirs, files in os.walk(ROOT / top):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            found += [Path(folder, f).relative_to(ROOT) for f in files if f.endswith(suffixes)]
    return sorted(found)


def unknown_python_names(text: str, known: set[str]) -> list[tuple[int, str]]:
    """(line, name) of each `x.py` or `dir/x.py` the text names that is not in `known`."""
    missing = []
    for number, line in enumerate(text.splitlines(), start=1):
        for name in PY_NAME.findall(line):
            if name not in ELSEWHERE and name not in known:
                missing.append((number, name))
    return missing


def test_every_python_file_named_in_the_project_exists():
    # a file is named by its path from the checkout's root or by any end of it
    known = {"/".join(p.parts[i:]) for p in project_files((".py",)) for i in range(len(p.parts))}
    stale = []
    for rel in project_files((".py", ".md", ".html", ".js", ".css", ".yaml", ".toml", ".sh", ".txt")):
        if rel.as_posix().startswith(NOT_NAMING):
            continue
        text = (ROOT / rel).read_text("utf-8", errors="replace")
        stale += [f"{rel}:{line}: {name}" for line, name in unknown_python_names(text, known)]
    assert stale == [], "names of files that are not in the project:\n" + "\n".join(stale)


def test_the_check_finds_a_renamed_module():
    """The check itself: an old module name and an old path are found, a real path is not."""
    known = {"sitegen/render/search.py", "render/search.py", "search.py", "build.py"}
    text = "# see sitegen/reader.py\n# search.py and build.py\n# from render/search.py or deps.py\n"
    assert unknown_python_names(text, known) == [(1, "sitegen/reader.py"), (3, "deps.py")]


def test_the_type_check_covers_the_whole_package():
    """CI's mypy (scripts/test.sh) reads pyproject.toml: it checks every module of sitegen/,
    with no file or folder left out."""
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert config["files"] == ["sitegen"]
    assert "exclude" not in config and not config.get("overrides")
    ignored = [p for p in modules() if "type: ignore\n" in p.read_text("utf-8")]  # bare ignores
    assert ignored == []


def _module_of(name: str) -> str | None:
    """The sitegen module a dotted import names ("sitegen.render.charts.blocks.figure" ->
    "sitegen.render.charts.blocks"): its longest prefix that is a file or a package."""
    parts = name.split(".")
    for end in range(len(parts), 1, -1):
        path = PACKAGE.parent.joinpath(*parts[:end])
        if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
            return ".".join(parts[:end])
    return None


def test_no_import_cycle_between_modules():
    """No two modules import each other, directly or through others, not even from inside a
    function (an import there hid the cycle blocks.py -> record_blocks.py -> blocks.py)."""
    graph: dict[str, set[str]] = {}
    for path in modules():
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        graph[name] = {m for _, imported in imports(path) if (m := _module_of(imported)) and m != name}
        graph[name] -= {m for m in graph[name] if name.startswith(m + ".")}  # a package's own __init__
    cycles, state = [], {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for other in sorted(graph.get(node, ())):
            if state.get(other) == "open":
                cycles.append(trail[trail.index(other) :] + [other] if other in trail else [node, other])
            elif other not in state:
                visit(other, [*trail, other])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []
