"""The command line: `axledger` when installed, `python -m sitegen`, or `python build.py` in a
checkout (which takes the checkout's content/, output/ and .cache/ as defaults).

Run in a folder, the command builds ./content into ./output, with its cache in ./.cache or
$SITEGEN_CACHE. Exit codes: 0 success, 1 content errors (each printed as file:line: message),
2 usage errors (a bad option or port, a missing content or templates folder, a slug too long,
a refused output folder, a busy port, a missing optional tool), 130 interrupted."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import sys
from pathlib import Path

from sitegen import __version__
from sitegen.base import paths
from sitegen.base.errors import ContentError
from sitegen.build.outdir import OutputRefused
from sitegen.content.record_lock import RecordBusy
from sitegen.editor import usage

DESCRIPTION = (
    "Build a bilingual (English / Simplified Chinese) site of MLPerf Training "
    "comparison reports from a content folder."
)
EXAMPLES = [
    ("", "build {where}content into {where}output (the same as `build`)"),
    ("check", "validate content, translations and links; write nothing"),
    ("serve [--port N]", "build, serve on 127.0.0.1, rebuild and reload on change"),
    ("new report SLUG", "start a report in both languages"),
    ("status", "what still lacks one language"),
    ("init DIR", "start a new site: DIR/content, ready to build"),
    ("import-record [DIR...]", "the whole MLPerf record into content/data/record/"),
    ("check-counts [DIR...]", "accelerator counts of the record against its logs, into the import report"),
    ("import-compatibility DIR", "MLCommons' compatibility table into content/data/compatibility.yaml"),
    ("seal-record", "seal a hand edit of content/data/record/, listing what changed"),
]
EPILOG = """\
Options such as --out and -q go before or after the command; `{prog} COMMAND --help` tells more.
Exit codes: 0 done, 1 content errors or a system fault (a folder that cannot be written, a
cache path that is a file), 2 usage errors (bad option or port, missing or refused folder,
slug too long, busy port, missing optional package), 130 interrupted."""


def _epilog(prog: str, where: str) -> str:
    width = max(len(f"{prog} {args}") for args, _ in EXAMPLES) + 2
    lines = [
        f"  {(prog + ' ' + args).rstrip():<{width}}{what.format(where=where)}" for args, what in EXAMPLES
    ]
    return "\n".join(["commands:", *lines, "", EPILOG.format(prog=prog)])


# Optional packages: the module a command imports -> what to install for it.
EXTRAS = {
    "mlperf_logging": "pip install 'accelerator-ledger[import]'",
    "playwright": "pip install 'accelerator-ledger[test]'",
}


class UsageError(Exception):
    """The command cannot run as asked (exit 2); the message says what to do instead."""


class CommandFailed(Exception):
    """The command stopped having written nothing (exit 1); `lines` say why and what to do."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, the argparse convention's exit code 2
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _common(where: str) -> argparse.ArgumentParser:
    """Options every command takes, before or after its name. Defaults are filled in later
    (SUPPRESS: a value given after the command is not overwritten by the one before it)."""
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("options (before or after the command)")
    none = argparse.SUPPRESS
    group.add_argument(
        "--content",
        type=Path,
        metavar="DIR",
        default=none,
        help=f"the content folder (default: {where}content)",
    )
    group.add_argument(
        "--out", type=Path, metavar="DIR", default=none, help=f"the output folder (default: {where}output)"
    )
    group.add_argument(
        "--templates",
        type=Path,
        metavar="DIR",
        default=none,
        help="templates to use instead of the shipped ones "
        "(CONTENT/templates, if present, overrides single files of either)",
    )
    group.add_argument("--strict", action="store_true", default=none, help="warnings fail")
    group.add_argument("-q", "--quiet", action="store_true", default=none, help="print only problems")
    group.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=none,
        help="also print the folders used, and an import's progress (shown anyway when stderr is a terminal)",
    )
    return common


def make_parser(prog: str, where: str = "./") -> Parser:
    """`where`: the folder the defaults are in, as shown in the help."""
    common = _common(where)
    parser = Parser(
        prog=prog,
        description=DESCRIPTION,
        parents=[common],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_epilog(prog, where),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name, help, description=None):
        return sub.add_parser(name, help=help, description=description or help, parents=[common])

    command("build", "build the site (the default command)")
    command("check", "validate content, references, translations and every internal link; write nothing")
    command("status", "list what still lacks one language")
    serve = command(
        "serve",
        "build, serve the site locally, rebuild and reload on change",
        "Build the site, serve it on http://HOST:PORT/, rebuild on every change "
        "and reload the open page. A failed build keeps the last good site.",
    )
    serve.add_argument(
        "--port", type=usage.port, default=8000, help="the port (default 8000; 0 picks a free one)"
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)"
    )
    new = command(
        "new", "start new content: `new report SLUG` writes reports/SLUG.<lang>.md in every language"
    )
    new.add_argument("kind", choices=["report"])
    new.add_argument("slug")
    init = command("init", "start a new site: write DIR/content, a small two-language site that builds")
    init.add_argument("dir", type=Path, metavar="DIR")
    gone = command("import-mlperf", "gone: use import-record, which imports the whole record")
    gone.add_argument("path", nargs="*", help=argparse.SUPPRESS)
    rec = command(
        "import-record",
        "import the whole MLPerf Training record into content/data/record/ (needs the [import] extra)",
    )
    rec.add_argument("dirs", type=Path, nargs="*", metavar="DIR", help="training_results_vX.Y repositories")
    rec.add_argument(
        "--accept-changes",
        action="store_true",
        help="write changes to published results (a score, a run, a renamed result); "
        "without it such an import lists them and writes nothing",
    )
    rec.add_argument(
        "--accept-removals",
        type=_rounds,
        default=(),
        metavar="ROUNDS",
        help="remove the published results of these rounds (v1.0,v2.1) that the sources no "
        "longer hold; without it such an import lists them and writes nothing",
    )
    counts = command(
        "check-counts",
        "compare the record's accelerator counts with what its logs say ran; rewrite "
        "content/data/record/count-checks.yaml and the import report's section, never the record",
    )
    counts.add_argument(
        "dirs", type=Path, nargs="*", metavar="DIR", help="training_results_vX.Y repositories"
    )
    command(
        "seal-record",
        "seal a deliberate hand edit of content/data/record/: list what changed since the "
        "last seal, then write the seal every build checks",
    )
    compat = command(
        "import-compatibility",
        "import MLCommons' compatibility table (which rounds of a benchmark compare) into "
        "content/data/compatibility.yaml",
    )
    compat.add_argument(
        "dir", type=Path, metavar="DIR", help="a clone or bare git directory of mlcommons/policies"
    )
    return parser


def _rounds(text: str) -> tuple[str, ...]:
    """--accept-removals: rounds of the record, comma-separated."""
    from sitegen.content import round_rules

    found = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [part for part in found if part not in round_rules.ROUNDS]
    if not found or unknown:
        raise argparse.ArgumentTypeError(
            f"{', '.join(unknown) or repr(text)}: no round of the record "
            f"(rounds: {', '.join(round_rules.ROUNDS)}; write them as v1.0,v2.1)"
        )
    return found


def parse_args(argv, root: Path | None = None, prog: str = "axledger") -> argparse.Namespace:
    """`root`: where the default folders are (the current folder unless given)."""
    parser = make_parser(prog, f"{root}/" if root is not None else "./")
    args = parser.parse_args(argv)
    base = root if root is not None else Path()
    defaults = {
        "content": base / "content",
        "out": base / "output",
        "templates": None,
        "strict": False,
        "quiet": False,
        "verbose": False,
    }
    for name, value in defaults.items():
        if not hasattr(args, name):
            setattr(args, name, value)
    if args.quiet and args.verbose:
        parser.error("-q and -v ask for opposite things: give one of them")
    args.templates = args.templates or paths.TEMPLATES
    args.cache = Path(os.environ.get("SITEGEN_CACHE") or base / ".cache").absolute()
    return args


def plain_output() -> bool:
    """No spinner or colour: NO_COLOR is set, TERM is dumb, or stderr is not a terminal."""
    return "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb" or not sys.stderr.isatty()


def _status_line(text: str):
    """A status line on stderr, drawn once and erased afterwards. Not Console.status: its
    spinner runs a refresh thread, and a build does not fork beside a thread (build/forking.py)."""
    from rich.console import Console
    from rich.live import Live
    from rich.spinner import Spinner

    return Live(Spinner("dots", text), console=Console(stderr=True), auto_refresh=False, transient=True)


def run_build(args, processes: bool = True) -> str:
    """`processes=False`: no language processes (serve: never fork beside its threads)."""
    from sitegen.build.pipeline import build

    if args.verbose:
        print(
            f"content: {args.content}\ntemplates: {args.templates}\noutput: {args.out}\ncache: {args.cache}",
            file=sys.stderr,
        )
    if args.quiet or plain_output():
        report = build(args.content, args.templates, args.out, strict=args.strict, processes=processes)
    else:
        with _status_line("building…"):
            report = build(args.content, args.templates, args.out, strict=args.strict, processes=processes)
    for warning in report.warnings:
        print(warning, file=sys.stderr)
    if report.skipped:
        return f"nothing changed: {args.out} is up to date ({report.seconds:.2f} s)"
    return (
        f"built {report.pages} pages ({report.files} files) into {args.out}\n"
        f"  report bodies: {report.bodies_rendered} rendered, {report.bodies_reused} reused\n"
        f"  warnings: {len(report.warnings)}\n  time: {report.seconds:.2f} s"
    )


def run_check(args) -> str:
    from sitegen.editor.authoring import check

    warnings = check(args.content, args.templates, strict=args.strict)
    for warning in warnings:
        print(warning, file=sys.stderr)
    return f"content, translations and links are fine ({len(warnings)} warning(s)); nothing written"


# What `status` says of each kind of gap (translation.Gap); a missing text is the default.
STATUS_LINES = {
    "missing": "{g.kind} '{g.name}' lacks {g.missing}",
    "converted": "'{g.name}' has no {g.missing} text of its own and is published converted",
    "outdated": "'{g.name}' ({g.missing}) was written from an earlier text of its source: "
    "revise it, then write {g.hint}",
    "unrecorded": "'{g.name}' ({g.missing}) records no written_from: write {g.hint} once it matches its source",
}


def run_status(args) -> str:
    from sitegen.content.load import load_site
    from sitegen.content.translation import translation_gaps

    gaps = translation_gaps(load_site(args.content))
    lines = [
        f"{g.where}: "
        + STATUS_LINES.get(g.kind, STATUS_LINES["missing"]).format(g=g)
        + (f"; write its {g.missing} file with {g.hint}" if g.kind == "converted" and g.hint else "")
        for g in gaps
    ]
    return "\n".join(lines + [f"{len(gaps)} item(s) lack one language"])


def run_new(args) -> str:
    from sitegen.base.languages import get
    from sitegen.content.load import load_config
    from sitegen.editor.authoring import SlugRefused, new_report

    # converted languages are made from their source; an editor adds their file by hand
    every = tuple(load_config(args.content)["languages"])
    languages = [code for code in every if not get(code).source]
    try:
        paths_made = new_report(args.content, args.slug, languages, _today(), every)
    except SlugRefused as exc:
        raise UsageError(f"{exc}; nothing created") from None
    return "created " + ", ".join(str(p) for p in paths_made)


def _today() -> dt.date:
    """Reproducible when SOURCE_DATE_EPOCH is set; only scaffolding ever reads the clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date() if epoch else dt.date.today()


def run_init(args) -> str:
    from sitegen.editor.starter import StarterRefused, write_starter
    from sitegen.importer.small_record import write_results

    try:
        content = write_starter(args.dir, write_results)
    except StarterRefused as exc:
        raise UsageError(str(exc)) from None
    return (
        f"created {content}: a small site in English and Chinese\n"
        f"  build it: cd {args.dir} && axledger   (or axledger --content {content})"
    )


def run_serve(args) -> str:
    import faulthandler
    import signal

    from sitegen.editor.serve import PortBusy, serve

    # a server that does not stop can be asked where it is: kill -USR1 <pid> prints its stacks
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    # Ctrl-C stops the server even when it was started with SIGINT ignored or blocked (a
    # background job of a script inherits both; in the CI run the server ignored Ctrl-C while
    # its stacks showed it waiting in the file watcher)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        serve(
            lambda: run_build(args, processes=False),
            args.out,
            [args.content, args.templates],
            args.port,
            host=args.host,
            preview=lambda changed: preview_reports(args, changed),
            warm=lambda: warm_preview(args),
        )
    except PortBusy as exc:
        raise UsageError(str(exc)) from None
    return "stopped"


def preview_reports(args, changed) -> dict | None:
    """serve: the edited reports' pages, rendered in memory before the build writes them."""
    from sitegen.build.rendering import preview_reports as render_preview
    from sitegen.content.load import load_site

    if not changed or not all(Path(p).suffix == ".md" and "reports" in Path(p).parts for p in changed):
        return None  # not a report edit alone: nothing to load for it
    return render_preview(load_site(args.content, strict=args.strict), args.templates, changed)


def warm_preview(args) -> None:
    """serve, once at start: one report's preview, rendered and dropped, so that the first
    edit finds Markdown's extensions imported and the templates compiled (the first preview
    took 0.3 s more than the next ones: 0.51-0.56 s from the save to the reload)."""
    first = sorted((args.content / "reports").glob("*.md"))[:1]
    if first:
        preview_reports(args, first)


def _needs(module: str) -> None:
    """Stop before any work when an optional package is missing (main says what to install)."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise ModuleNotFoundError(f"No module named {module!r}", name=module)


def progress(args):
    """Where an import tells how far it is: a line on stderr with -v, or when stderr is a
    terminal and -q is not given; None when quiet. Never in the data written."""
    if args.quiet or not (args.verbose or sys.stderr.isatty()):
        return None
    return lambda line: print(line, file=sys.stderr, flush=True)


IMPORT_MLPERF_GONE = (
    "import-mlperf is gone: the site's results come from the whole record, "
    "which `import-record [DIR...]` imports into content/data/record/ "
    "(see docs/importing.md)"
)


def run_import(args) -> str:
    """The one-folder importer into results.yaml was replaced by the whole-record importer."""
    raise UsageError(IMPORT_MLPERF_GONE)


def run_import_record(args) -> str:
    _needs("mlperf_logging")
    from sitegen.importer.review import ImportStopped
    from sitegen.importer.run import default_dirs, import_record

    try:
        counts = import_record(
            args.dirs or default_dirs(),
            args.content / "data" / "record",
            progress=progress(args),
            accept_changes=args.accept_changes,
            accept_removals=args.accept_removals,
            retrieved=dt.date.today(),  # a citation's "retrieved" (never a build's date)
        )
    except ImportStopped as exc:
        raise CommandFailed([*exc.lines, exc.closing]) from None
    for line in counts["recovered"] + counts["kept"]:
        print(line, file=sys.stderr)
    return (
        f"imported {counts['rounds']} round(s): {counts['results']} results, "
        f"{counts['logs_missing']} with logs missing, {counts['skipped']} folders skipped, "
        f"{counts['changes']} change(s) logged; see content/data/record/import-report.md"
    )


def run_check_counts(args) -> str:
    from sitegen.importer.count_report import check_counts
    from sitegen.importer.run import default_dirs

    dirs = args.dirs or default_dirs()
    try:
        rounds, cases = check_counts(dirs, args.content / "data" / "record")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return (
        f"checked the accelerator counts of {rounds} round(s) against their logs: {cases} "
        "disagreement(s); see content/data/record/import-report.md"
    )


def run_import_compatibility(args) -> str:
    from sitegen.importer.compatibility import TableError, import_table

    try:
        return import_table(args.dir, args.content / "data" / "compatibility.yaml")
    except TableError as exc:
        raise CommandFailed([str(exc)]) from None


def run_seal_record(args) -> str:
    from sitegen.importer.reseal import reseal
    from sitegen.importer.review import ImportStopped

    try:
        changes = reseal(args.content, say=lambda line: print(line, file=sys.stderr))
    except ImportStopped as exc:
        raise CommandFailed([*exc.lines, exc.closing]) from None
    if not changes:
        return "the record's seal is up to date: nothing written"
    return f"sealed {changes} change(s); commit content/data/record/ with them"


COMMANDS = {
    None: run_build,
    "build": run_build,
    "check": run_check,
    "status": run_status,
    "new": run_new,
    "init": run_init,
    "serve": run_serve,
    "import-mlperf": run_import,
    "import-record": run_import_record,
    "import-compatibility": run_import_compatibility,
    "check-counts": run_check_counts,
    "seal-record": run_seal_record,
}
FAILED = {"check": "check failed: {n} problem(s)", "new": "nothing created: {n} problem(s)"}


def _describe(exc: OSError) -> str:
    """One line naming the path and what the system said, for a fault of the machine."""
    path = exc.filename if exc.filename is not None else "?"
    other = f" -> {exc.filename2}" if exc.filename2 is not None else ""
    return f"{path}{other}: {exc.strerror or exc}"


def _left_as_it_was(args) -> str:
    return {
        "check": "nothing written",
        "new": "nothing created",
        "init": "nothing created",
        "import-record": "the record left as it was",
        "seal-record": "the record left as it was",
        "check-counts": "the record and its report left as they were",
    }.get(args.command, "output left as it was")


def _missing(exc: ModuleNotFoundError) -> str:
    top = (exc.name or "?").split(".")[0]
    fix = EXTRAS.get(top, "reinstall the generator: pip install accelerator-ledger")
    return f"error: this command needs the Python package {top!r}, which is not installed: {fix}"


@contextlib.contextmanager
def _cache_env(cache: Path):
    """$SITEGEN_CACHE for the run, so that every module and rendering process agrees on it."""
    before = os.environ.get("SITEGEN_CACHE")
    os.environ["SITEGEN_CACHE"] = str(cache)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SITEGEN_CACHE", None)
        else:
            os.environ["SITEGEN_CACHE"] = before


def main(argv=None, root: Path | None = None, prog: str = "axledger") -> int:
    args = parse_args(argv, root, prog)
    try:
        missing = usage.missing_folder(args.command, args.content, args.templates)
        if missing:
            raise UsageError(missing)
        with _cache_env(args.cache):
            message = COMMANDS[args.command](args)
    except (OutputRefused, UsageError, RecordBusy) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] == "sitegen":
            raise
        print(_missing(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the output folder is as the last complete build left it", file=sys.stderr)
        return 130
    except OSError as exc:
        print(f"error: {_describe(exc)}; {_left_as_it_was(args)}", file=sys.stderr)
        return 1
    except CommandFailed as exc:
        print("\n".join(exc.lines), file=sys.stderr)
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


def entry() -> None:
    """The installed `axledger` command."""
    finish(main())


def finish(code: int) -> None:
    """Exit the command with `code` once its output is flushed, without freeing the loaded
    site object by object: everything is written and closed by then, and Python's teardown of
    a whole-record build's heap (a last collection of every object) took 0.2 s of each
    rebuild. The operating system takes the memory back at once."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`): nothing more to say
            pass
    os._exit(code)
