#!/usr/bin/env python3
"""Build the bilingual site: python build.py [--content DIR] [--out DIR] [--strict] [-q].

Commands for editors:
  python build.py check              validate content, translations and links; write nothing
  python build.py serve [--port N]   build, serve on 127.0.0.1, rebuild and reload on change
  python build.py new report SLUG    start a report in both languages
  python build.py status             what still lacks one language
  python build.py import-mlperf PATH official MLPerf result logs into content/data/results.yaml
  python build.py import-record [DIR...]  the whole record into content/data/record/
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from pathlib import Path

from sitegen.errors import ContentError, Problem
from sitegen.outdir import OutputRefused

HERE = Path(__file__).resolve().parent


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--content", type=Path, default=HERE / "content")
    parser.add_argument("--templates", type=Path, default=HERE / "templates")
    parser.add_argument("--out", type=Path, default=HERE / "output")
    parser.add_argument("--strict", action="store_true", help="warnings fail the build")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="build the site (the default)")
    sub.add_parser("check", help="validate everything without writing the site")
    sub.add_parser("status", help="translation status")
    serve = sub.add_parser("serve", help="preview with live reload")
    serve.add_argument("--port", type=int, default=8000)
    new = sub.add_parser("new", help="scaffold new content")
    new.add_argument("kind", choices=["report"])
    new.add_argument("slug")
    imp = sub.add_parser("import-mlperf", help="import official MLPerf Training result logs")
    imp.add_argument("path", type=Path)
    rec = sub.add_parser("import-record", help="import the whole MLPerf Training record")
    rec.add_argument("dirs", type=Path, nargs="*", help="training_results_vX.Y repositories")
    return parser.parse_args(argv)


def run_build(args) -> str:
    from sitegen.pipeline import build
    if args.quiet or not sys.stderr.isatty():
        report = build(args.content, args.templates, args.out, strict=args.strict)
    else:
        from rich.console import Console
        with Console(stderr=True).status("building…"):
            report = build(args.content, args.templates, args.out, strict=args.strict)
    for warning in report.warnings:
        print(warning, file=sys.stderr)
    if report.skipped:
        return f"nothing changed: {args.out} is up to date ({report.seconds:.2f} s)"
    return (f"built {report.pages} pages ({report.files} files) into {args.out}\n"
            f"  report bodies: {report.bodies_rendered} rendered, {report.bodies_reused} reused\n"
            f"  warnings: {len(report.warnings)}\n  time: {report.seconds:.2f} s")


def run_check(args) -> str:
    from sitegen.authoring import check
    warnings = check(args.content, args.templates, strict=args.strict)
    for warning in warnings:
        print(warning, file=sys.stderr)
    return f"content, translations and links are fine ({len(warnings)} warning(s)); nothing written"


def run_status(args) -> str:
    from sitegen.load import load_site
    from sitegen.translation import translation_gaps
    gaps = translation_gaps(load_site(args.content))
    lines = [f"{g.where}: {g.kind} '{g.name}' lacks {g.missing}" for g in gaps]
    return "\n".join(lines + [f"{len(gaps)} item(s) lack one language"])


def run_new(args) -> str:
    from sitegen.authoring import new_report
    from sitegen.load import load_config
    languages = load_config(args.content)["languages"]
    paths = new_report(args.content, args.slug, languages, _today())
    return "created " + ", ".join(str(p) for p in paths)


def _today() -> dt.date:
    """Reproducible when SOURCE_DATE_EPOCH is set; only scaffolding ever reads the clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).date() if epoch else dt.date.today()


def run_serve(args) -> str:
    from sitegen.serve import serve
    serve(lambda: run_build(args), args.out, [args.content, args.templates], args.port)
    return "stopped"


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


def run_import_record(args) -> str:
    from sitegen.record_import import default_dirs, import_record
    counts = import_record(args.dirs or default_dirs(), args.content / "data" / "record")
    errors = "".join(f"\n  not imported: {e}" for e in counts["errors"])
    return (f"imported {counts['rounds']} round(s): {counts['results']} results, "
            f"{counts['logs_missing']} with logs missing, {counts['skipped']} folders skipped, "
            f"{counts['changes']} change(s) logged; see content/data/record/import-report.md"
            + errors)


COMMANDS = {None: run_build, "build": run_build, "check": run_check, "status": run_status,
            "new": run_new, "serve": run_serve, "import-mlperf": run_import,
            "import-record": run_import_record}
FAILED = {"import-mlperf": "import failed: {n} problem(s); data left as it was",
          "check": "check failed: {n} problem(s)", "new": "nothing created: {n} problem(s)"}


def _describe(exc: OSError) -> str:
    """One line naming the path and what the system said, for a fault of the machine."""
    path = exc.filename if exc.filename is not None else "?"
    other = f" -> {exc.filename2}" if exc.filename2 is not None else ""
    return f"{path}{other}: {exc.strerror or exc}"


def _left_as_it_was(args) -> str:
    return {"import-mlperf": "data left as it was", "check": "nothing written",
            "new": "nothing created"}.get(args.command, "output left as it was")


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        message = COMMANDS[args.command](args)
    except OutputRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the output folder is as the last complete build left it", file=sys.stderr)
        return 130
    except OSError as exc:
        print(f"error: {_describe(exc)}; {_left_as_it_was(args)}", file=sys.stderr)
        return 1
    except ContentError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        template = FAILED.get(args.command, "build failed: {n} problem(s); output left as it was")
        print(template.format(n=len(exc.problems)), file=sys.stderr)
        return 1
    if not args.quiet:
        print(message)
    return 0


if __name__ == "__main__":
    sys.exit(main())
