#!/usr/bin/env bash
# Install the Python and node dependencies, then build the site: scripts/build.sh [build.py args]
# e.g. scripts/build.sh --out /tmp/site
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/install.sh"
PYTHON="$(command -v python || command -v python3)"
exec "$PYTHON" "$ROOT/build.py" "$@"
