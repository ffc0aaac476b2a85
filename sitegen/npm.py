"""Browser scripts copied from npm packages in node_modules (installed by scripts/install.sh):
MiniSearch for search; Vega, Vega-Lite and vega-embed for interactive charts."""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from .errors import ContentError, Problem

NODE_MODULES = Path(__file__).resolve().parent.parent / "node_modules"

# (package, its browser build: a plain script that defines a global). The Vega versions are
# pinned in package.json to the ones vl-convert draws the build-time SVGs with.
MINISEARCH = (("minisearch", "dist/umd/index.js"),)
VEGA = (("vega", "build/vega.min.js"), ("vega-lite", "build/vega-lite.min.js"),
        ("vega-embed", "build/vega-embed.min.js"))


def package_info(package: str, node_modules: Path = NODE_MODULES) -> dict:
    try:
        return json.loads((node_modules / package / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def versions(node_modules: Path = NODE_MODULES) -> str:
    """The versions of every package copied into the site (part of the build's cache key)."""
    return ";".join(f"{name}={package_info(name, node_modules).get('version')}"
                    for name, _ in MINISEARCH + VEGA)


@functools.cache
def script(packages: tuple[tuple[str, str], ...], node_modules: Path = NODE_MODULES) -> bytes:
    """The packages' browser builds in one script, each under a comment naming it and its licence."""
    parts = []
    for name, rel in packages:
        file = node_modules / name / rel
        if not file.is_file():
            raise ContentError([Problem(
                f"node_modules/{name}", None,
                f"the browser library {name} is missing (looked for node_modules/{name}/{rel}): "
                "run `bash scripts/install.sh` (or `npm ci`) in the repository, then build again")])
        info = package_info(name, node_modules)
        code = file.read_text("utf-8")
        # The source map is not copied: drop its reference so browsers do not ask for it.
        code = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", code)
        parts.append(f"/*! {name} {info.get('version', '?')} ({info.get('license', '?')} license), "
                     f"copied from node_modules/{name}/{rel} */\n{code.rstrip()}\n;\n")
    return "".join(parts).encode("utf-8")
