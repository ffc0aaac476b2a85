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
"$PYTHON" -m compileall -q sitegen build.py tests/*.py &
compiled=$!
# The quality gates first (pyproject.toml: [tool.ruff], [tool.mypy]); each must pass. The type
# check runs beside the rest (wait returns its exit status, and set -e stops on a failure).
"$PYTHON" -m mypy &
typed=$!
"$PYTHON" -m ruff check --quiet .
"$PYTHON" -m ruff format --check --quiet .
# pytest rewrites each test module's asserts when it first imports it and keeps the result in
# __pycache__: done here once, on the core the type check leaves free, instead of by each
# worker in a fresh clone. Every module is imported, no test runs (exit status 5); a module
# that fails to import stops the run here, with pytest's message.
collected=0
imported="$("$PYTHON" -m pytest --collect-only -q --deselect tests/ 2>&1)" || collected=$?
if [ "$collected" -ne 0 ] && [ "$collected" -ne 5 ]; then
  printf '%s\n' "$imported"
  exit "$collected"
fi
wait "$compiled"
wait "$typed"
# In parallel, one worker per core and one more (PYTEST_WORKERS to change; 0: none): a worker
# waits part of the time (on the browser, Java, a build's processes), and the extra one keeps
# every core busy meanwhile. --dist loadgroup hands out the units tests/conftest.py marks: a
# whole file (its built site is built once), or for the browser files one test function and
# page kind, so that no long file ends the run alone.
# The tests' temporary folders: one per checkout, outside it (a build refuses to write into a
# repository), emptied here. With pytest's numbered folders each run first deleted the sites of
# a run three runs back, hundreds of megabytes, up to 12 s of the run.
BASETEMP="${TMPDIR:-/tmp}/axledger-tests-$(printf %s "$ROOT" | sha256sum | cut -c1-12)"
rm -rf "$BASETEMP"
# The run ends with its ten slowest steps (a test's setup, call or teardown, each timed alone).
exec "$PYTHON" -m pytest -q -n "${PYTEST_WORKERS:-$(($(nproc) + 1))}" --dist loadgroup --no-loadscope-reorder \
    --durations 10 --basetemp "$BASETEMP" "$@"
