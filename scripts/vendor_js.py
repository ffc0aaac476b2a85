#!/usr/bin/env python3
"""Copy the browser scripts the site ships from node_modules into sitegen/vendor/ (run after
changing their versions in package.json and `npm install`; tests/site/test_package.py checks that
the copies are byte-identical to node_modules and match the versions in package-lock.json)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitegen.base.npm import MINISEARCH, VEGA, VENDOR  # noqa: E402

LICENCE_FILES = ("LICENSE", "LICENSE.txt", "LICENSE.md")


def main() -> int:
    node_modules = ROOT / "node_modules"
    manifest = {}
    for name, rel in MINISEARCH + VEGA:
        package = node_modules / name
        info = json.loads((package / "package.json").read_text("utf-8"))
        target = VENDOR / name
        shutil.rmtree(target, ignore_errors=True)
        (target / rel).parent.mkdir(parents=True)
        shutil.copyfile(package / rel, target / rel)
        licence = next((package / f for f in LICENCE_FILES if (package / f).is_file()), None)
        if licence is not None:
            shutil.copyfile(licence, target / "LICENSE")
        manifest[name] = {"version": info["version"], "license": info.get("license", "?"), "file": rel}
    (VENDOR / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    print(f"copied {len(manifest)} packages into {VENDOR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
