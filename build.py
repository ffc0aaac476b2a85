#!/usr/bin/env python3
"""Build the bilingual site from this checkout: python build.py [options] [command] [...].

The same command as the installed `axledger` (see `python build.py --help`; the code is in
sitegen/cli.py), with this checkout's content/, output/ and .cache/ as its defaults, so that
it works from any folder:

  python build.py                    build content/ into output/
  python build.py check              validate content, translations and links; write nothing
  python build.py serve [--port N]   build, serve on 127.0.0.1, rebuild and reload on change
  python build.py new report SLUG    start a report in both languages
"""

from __future__ import annotations

from pathlib import Path

from sitegen import cli

HERE = Path(__file__).resolve().parent


def main(argv=None) -> int:
    return cli.main(argv, root=HERE, prog="build.py")


if __name__ == "__main__":
    cli.finish(main())
