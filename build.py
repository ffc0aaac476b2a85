#!/usr/bin/env python3
"""Build the bilingual site: python build.py [--content DIR] [--out DIR] [--strict].

Other commands: import-mlperf PATH (official results into content/data/results.yaml)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sitegen.errors import ContentError, Problem

HERE = Path(__file__).resolve().parent


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, default=HERE / "content")
    parser.add_argument("--templates", type=Path, default=HERE / "templates")
    parser.add_argument("--out", type=Path, default=HERE / "output")
    parser.add_argument("--strict", action="store_true", help="warnings fail the build")
    parser.add_argument("-q", "--quiet", action="store_true")
    sub = parser.add_subparsers(dest="command")
    imp = sub.add_parser("import-mlperf", help="import official MLPerf Training result logs")
    imp.add_argument("path", type=Path)
    return parser.parse_args(argv)


def run_build(args) -> str:
    from sitegen.pipeline import build
    report = build(args.content, args.templates, args.out, strict=args.strict)
    for warning in report.warnings:
        print(warning, file=sys.stderr)
    return f"built {report.pages} pages ({report.files} files) into {args.out} in {report.seconds:.2f} s"


def run_import(args) -> str:
    from sitegen.mlperf_import import MLPerfImportError, import_mlperf
    data = args.content / "data"
    try:
        summary = import_mlperf(args.path, data / "results.yaml", data / "mlperf_systems.yaml")
    except MLPerfImportError as exc:
        raise ContentError([Problem(str(path), line, message)
                            for path, line, message in exc.problems]) from None
    return (f"imported {args.path}: {summary.added} added, {summary.updated} updated, "
            f"{summary.unchanged} unchanged")


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        message = run_import(args) if args.command == "import-mlperf" else run_build(args)
    except ContentError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        what = "import" if args.command == "import-mlperf" else "build"
        kept = "data left as it was" if what == "import" else "output left as it was"
        print(f"{what} failed: {len(exc.problems)} problem(s); {kept}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(message)
    return 0


if __name__ == "__main__":
    sys.exit(main())
