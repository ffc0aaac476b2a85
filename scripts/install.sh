#!/usr/bin/env bash
# Install what the build and the tests need:
#   scripts/install.sh            Python packages (requirements.txt) and node_modules (package-lock.json)
#   scripts/install.sh --browser  also Debian's chromium, fonts-wqy-microhei and a Java runtime
# Idempotent. Python packages go into the current python (an active venv is respected); the only
# things created outside the repository are Debian packages, and only when they are missing.
# Caches live in .cache/ (git-ignored). Never runs `playwright install`: the tests use /usr/bin/chromium.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

browser=false
for arg in "$@"; do
  case "$arg" in
    --browser) browser=true ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument '$arg' (usage: scripts/install.sh [--browser])" >&2; exit 2 ;;
  esac
done

PYTHON="$(command -v python || command -v python3 || true)"
if [ -z "$PYTHON" ]; then
  echo "install.sh: no python on PATH" >&2
  exit 1
fi

# --- System packages (only with --browser, only when missing) -----------------------------------
if $browser; then
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || missing+=(fonts-wqy-microhei)
  command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
  if [ "${#missing[@]}" -gt 0 ]; then
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
      command -v sudo >/dev/null 2>&1 || { echo "install.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
      sudo=(sudo)
    fi
    echo "install.sh: apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! "${sudo[@]}" apt-get install -y -q "${missing[@]}"; then
      "${sudo[@]}" apt-get update -q
      "${sudo[@]}" apt-get install -y -q "${missing[@]}"
    fi
  fi
fi

# --- node_modules (axe-core, vnu-jar, minisearch, vega, vega-lite, vega-embed), as locked -------
# Skipped when node_modules already matches package-lock.json. --ignore-scripts: vnu-jar's
# postinstall would download a Java runtime from GitHub; Debian's Java is used instead.
# Installed beside the Python packages: neither needs the other.
install_node_modules() {
  stamp="node_modules/.installed-lock.sha256"
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ] \
     || [ ! -f node_modules/axe-core/axe.min.js ] || [ ! -f node_modules/vnu-jar/build/dist/vnu.jar ]; then
    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error --cache "$ROOT/.cache/npm"
    echo "$want" > "$stamp"
  fi
}
install_node_modules &
node_job=$!

# --- Python packages ------------------------------------------------------------------------------
"$PYTHON" -m pip install -q --disable-pip-version-check --root-user-action=ignore --cache-dir "$ROOT/.cache/pip" -r requirements.txt

wait "$node_job"
