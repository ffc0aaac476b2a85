#!/usr/bin/env bash
# Install everything (with the browser, fonts and Java), then run every test:
#   scripts/test.sh [pytest args]     e.g. scripts/test.sh -k links -x
# With CI=true a missing tool (chromium, java, node_modules) fails the tests instead of skipping.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/install.sh" --browser
cd "$ROOT"
PYTHON="$(command -v python || command -v python3)"
# Bytecode caches on, the package compiled once (an environment may turn them off with
# PYTHONDONTWRITEBYTECODE): else every command a test starts compiles the package again, about
# 0.1 s each, and each worker rewrites the test modules' asserts again.
unset PYTHONDONTWRITEBYTECODE
"$PYTHON" -m compileall -q sitegen build.py tests/*.py
# The quality gates first (pyproject.toml: [tool.ruff], [tool.mypy]); each must pass.
"$PYTHON" -m ruff check --quiet .
"$PYTHON" -m ruff format --check --quiet .
"$PYTHON" -m mypy
# In parallel, one worker per core (PYTEST_WORKERS to change; 0: none); --dist loadgroup hands
# out the units tests/conftest.py marks: a whole file (its built site is built once), or for the
# browser files one test function and page kind, so that no long file ends the run alone.
exec "$PYTHON" -m pytest -q -n "${PYTEST_WORKERS:-auto}" --dist loadgroup --no-loadscope-reorder "$@"
