"""The generator as a package (pyproject.toml): the browser scripts it ships (sitegen/vendor/)
are the npm versions pinned in package-lock.json, everything the code imports is declared,
requirements.txt pins a version inside every declared range, and `pip install .` into a fresh
virtual environment gives an `axledger` command that builds the shipped content without
node_modules (marked `install`: runs under CI=true or SITEGEN_TEST_INSTALL=1)."""

import ast
import filecmp
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from sitegen import __version__
from sitegen.base import npm

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _declared(*extras: str) -> dict[str, Requirement]:
    project = PYPROJECT["project"]
    texts = list(project["dependencies"])
    for extra in extras:
        texts += project["optional-dependencies"][extra]
    requirements = [Requirement(text) for text in texts]
    return {canonicalize_name(r.name): r for r in requirements if r.name != project["name"]}


def test_vendored_scripts_are_the_pinned_npm_versions():
    lock = json.loads((ROOT / "package-lock.json").read_text("utf-8"))["packages"]
    shipped = npm.manifest()
    assert sorted(shipped) == sorted(name for name, _ in npm.MINISEARCH + npm.VEGA)
    for name, rel in npm.MINISEARCH + npm.VEGA:
        assert shipped[name]["version"] == lock[f"node_modules/{name}"]["version"], name
        assert shipped[name]["license"] == lock[f"node_modules/{name}"]["license"], name
        assert shipped[name]["file"] == rel
        assert (npm.VENDOR / name / rel).is_file() and (npm.VENDOR / name / "LICENSE").is_file()


def test_vendored_scripts_are_byte_identical_to_node_modules():
    node_modules = ROOT / "node_modules"
    if not (node_modules / "vega").is_dir():
        if CI:
            pytest.fail("node_modules is missing (run scripts/install.sh); CI=true, so this fails")
        pytest.skip("node_modules is not installed")
    for name, rel in npm.MINISEARCH + npm.VEGA:
        installed = json.loads((node_modules / name / "package.json").read_text("utf-8"))
        assert installed["version"] == npm.manifest()[name]["version"], name
        assert filecmp.cmp(node_modules / name / rel, npm.VENDOR / name / rel, shallow=False), (
            f"sitegen/vendor/{name}/{rel} differs from node_modules: run scripts/vendor_js.py"
        )


def test_every_imported_package_is_declared():
    """Third-party modules imported anywhere in sitegen/ are dependencies (or the importer's
    extra), and each maps to a distribution named in pyproject.toml."""
    distributions = metadata.packages_distributions()
    declared = _declared("import")
    imported = set()
    for file in (ROOT / "sitegen").rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = sorted(imported - set(sys.stdlib_module_names) - {"sitegen", "__future__"})
    assert "lxml" in third_party
    for module in third_party:
        names = {canonicalize_name(d) for d in distributions.get(module, [])}
        assert names & set(declared), f"{module} is imported but not declared in pyproject.toml"


def test_base_install_needs_no_importer():
    assert "mlperf-logging" not in _declared()
    assert "mlperf-logging" in _declared("import")
    assert {"pytest", "hypothesis", "playwright"} <= set(_declared("test"))
    assert "accelerator-ledger[import]" in PYPROJECT["project"]["optional-dependencies"]["test"]


def test_requirements_pin_versions_inside_the_declared_ranges():
    pins = {}
    for line in (ROOT / "requirements.txt").read_text("utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            requirement = Requirement(line)
            pins[canonicalize_name(requirement.name)] = next(iter(requirement.specifier)).version
    for name, requirement in _declared("import", "test").items():
        assert name in pins, f"{name} is declared in pyproject.toml but not pinned in requirements.txt"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} not in {requirement}"


def test_version_and_command_are_declared():
    assert PYPROJECT["project"]["scripts"] == {"axledger": "sitegen.cli:entry"}
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "sitegen.__version__"}
    assert __version__.count(".") == 2


# --- pip install . into a fresh virtual environment ---------------------------------------------

SOURCES = ["pyproject.toml", "README.md", "sitegen", "templates", "content/i18n"]


def _copy_sources(target: Path) -> Path:
    """What `pip install .` needs, copied away from the checkout (and its node_modules)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for rel in SOURCES:
        source, dest = ROOT / rel, target / rel
        if source.is_dir():
            shutil.copytree(source, dest, ignore=ignore)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, dest)
    return target


def _run(argv, cwd, env, timeout=240):
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.install
def test_pip_install_gives_a_command_that_starts_and_builds_a_site(tmp_path):
    if not (CI or os.environ.get("SITEGEN_TEST_INSTALL") == "1"):
        pytest.skip(
            "installs the package into a new venv (about half a minute): "
            "runs under CI=true or SITEGEN_TEST_INSTALL=1"
        )
    started = time.monotonic()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "SITEGEN_CACHE", "VIRTUAL_ENV", "PYTHONHOME")
    }
    source = _copy_sources(tmp_path / "src")
    venv = tmp_path / "venv"
    # without a pip of its own (installing one took a fifth of the test): this process's pip
    # installs into it (--python)
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path, env)
    assert made.returncode == 0, made.stderr
    python, axledger = venv / "bin" / "python", venv / "bin" / "axledger"
    # requirements.txt as constraints: the pinned versions CI tests (and whose wheels
    # scripts/install.sh left in the same pip cache)
    installed = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "-q",
            "--disable-pip-version-check",
            "--cache-dir",
            ROOT / ".cache" / "pip",
            "-c",
            ROOT / "requirements.txt",
            source,
        ],
        tmp_path,
        env,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    where = _run([python, "-c", "import sitegen; print(sitegen.__file__)"], tmp_path, env)
    package = Path(where.stdout.strip()).parent
    assert package.is_relative_to(venv), where.stdout
    shipped = {p.relative_to(ROOT / "templates") for p in (ROOT / "templates").rglob("*") if p.is_file()}
    assert {
        p.relative_to(package / "templates") for p in (package / "templates").rglob("*") if p.is_file()
    } == shipped

    version = _run([axledger, "--version"], tmp_path, env)
    assert (version.returncode, version.stdout) == (0, f"axledger {__version__}\n")
    module = _run([python, "-m", "sitegen", "--version"], tmp_path, env)
    assert (module.returncode, module.stdout) == (0, f"python -m sitegen {__version__}\n")
    missing = _run([axledger, "import-record"], tmp_path, env)
    assert (missing.returncode, missing.stderr) == (
        2,
        (
            "error: this command needs the Python package 'mlperf_logging', which is not installed: "
            "pip install 'accelerator-ledger[import]'\n"
        ),
    )

    site = tmp_path / "site"
    started_site = _run([axledger, "-q", "init", site], tmp_path, {**env, "NO_COLOR": "1"})
    assert started_site.returncode == 0, started_site.stderr[-3000:]
    built = _run([axledger, "-q"], site, {**env, "NO_COLOR": "1"}, timeout=400)
    assert (built.returncode, built.stdout) == (0, ""), built.stderr[-3000:]  # warnings may show
    assert (site / "output" / "en" / "index.html").is_file()
    assert (site / ".cache" / "store.sqlite").is_file()  # the store in ./.cache
    assert not (site / "node_modules").exists()
    for name, rel in npm.MINISEARCH + npm.VEGA:
        copied = (package / "vendor" / name / rel).read_bytes()
        assert copied == (npm.VENDOR / name / rel).read_bytes()
    assert (site / "output" / "assets" / "minisearch.js").read_bytes() == npm.script(npm.MINISEARCH)
    print(f"install test took {time.monotonic() - started:.0f} s")
