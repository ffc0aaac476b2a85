"""Browser scripts the site ships: MiniSearch for search; Vega, Vega-Lite and vega-embed for
interactive charts. They are npm packages, committed under sitegen/vendor/ (copied from
node_modules by scripts/vendor_js.py) so that an installed generator needs no Node.js;
tests/site/test_package.py checks the copies against the versions pinned in package-lock.json."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from sitegen.base.errors import ContentError, Problem

VENDOR = Path(__file__).resolve().parents[1] / "vendor"

# (package, its browser build: a plain script that defines a global). The Vega versions are
# pinned in package.json to the ones vl-convert draws the build-time SVGs with.
MINISEARCH = (("minisearch", "dist/umd/index.js"),)
VEGA = (
    ("vega", "build/vega.min.js"),
    ("vega-lite", "build/vega-lite.min.js"),
    ("vega-embed", "build/vega-embed.min.js"),
)


@functools.cache
def manifest(vendor: Path = VENDOR) -> dict:
    """package -> {version, license, file} of the vendored copies."""
    try:
        return json.loads((vendor / "manifest.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def package_info(package: str, vendor: Path = VENDOR) -> dict:
    return manifest(vendor).get(package, {})


def versions(vendor: Path = VENDOR) -> str:
    """The versions of every package copied into the site (part of the build's cache key)."""
    return ";".join(f"{name}={package_info(name, vendor).get('version')}" for name, _ in MINISEARCH + VEGA)


@functools.cache
def script(packages: tuple[tuple[str, str], ...], vendor: Path = VENDOR) -> bytes:
    """The packages' browser builds in one script, each under a comment naming it and its licence."""
    parts = []
    for name, rel in packages:
        file = vendor / name / rel
        if not file.is_file():
            raise ContentError(
                [
                    Problem(
                        f"sitegen/vendor/{name}",
                        None,
                        f"the browser library {name} is missing from the installed generator (looked for "
                        f"{file}): reinstall it, or in a checkout run `python scripts/vendor_js.py`",
                    )
                ]
            )
        info = package_info(name, vendor)
        code = file.read_text("utf-8")
        # The source map is not copied: drop its reference so browsers do not ask for it.
        code = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", code)
        parts.append(
            f"/*! {name} {info.get('version', '?')} ({info.get('license', '?')} license), "
            f"copied from node_modules/{name}/{rel} */\n{code.rstrip()}\n;\n"
        )
    return "".join(parts).encode("utf-8")
