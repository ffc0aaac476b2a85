"""What each command of the command line does (cli.py parses the command line and calls one
of COMMANDS): each takes the parsed arguments and returns the line it prints when done, or
raises UsageError (exit 2), CommandFailed (exit 1) or the stage's own errors."""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

from sitegen.base.store import opened


class UsageError(Exception):
    """The command cannot run as asked (exit 2); the message says what to do instead."""


class CommandFailed(Exception):
    """The command stopped having written nothing (exit 1); `lines` say why and what to do."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def plain_output() -> bool:
    """No spinner or colour: NO_COLOR is set, TERM is dumb, or stderr is not a terminal."""
    return "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb" or not sys.stderr.isatty()


def _status_line(text: str):
    """A status line on stderr, drawn once and erased afterwards. Not Console.status: its
    spinner runs a refresh thread, and a build does not fork beside a thread (assemble/forking.py)."""
    from rich.console import Console
    from rich.live import Live
    from rich.spinner import Spinner

    return Live(Spinner("dots", text), console=Console(stderr=True), auto_refresh=False, transient=True)


def run_build(args, processes: bool = True) -> str:
    """`processes=False`: no language processes (serve: never fork beside its threads)."""
    from sitegen.assemble.pipeline import build

    if args.verbose:
        print(
            f"content: {args.content}\ntemplates: {args.templates}\noutput: {args.out}\ncache: {args.cache}",
            file=sys.stderr,
        )
    if args.quiet or plain_output():
        report = build(
            args.content, args.templates, args.out, cache=args.cache, strict=args.strict, processes=processes
        )
    else:
        with _status_line("building…"):
            report = build(
                args.content,
                args.templates,
                args.out,
                cache=args.cache,
                strict=args.strict,
                processes=processes,
            )
    _say(report.warnings)
    if report.skipped:
        return f"nothing changed: {args.out} is up to date ({report.seconds:.2f} s)"
    return (
        f"built {report.pages} pages ({report.files} files) into {args.out}\n"
        f"  report bodies: {report.bodies_rendered} rendered, {report.bodies_reused} reused\n"
        f"  warnings: {len(report.warnings)}\n  time: {report.seconds:.2f} s"
    )


def _say(warnings: list) -> None:
    """Each warning on a line of stderr, written at once: stderr is line-buffered, and a
    print each made a write each (24,000 warnings of the synthetic site: 0.035 s, 0.012 s so)."""
    if warnings:
        sys.stderr.write("".join(f"{warning}\n" for warning in warnings))


def run_check(args) -> str:
    from sitegen.editor.authoring import check

    warnings = check(args.content, args.templates, args.cache, strict=args.strict)
    _say(warnings)
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

    with opened(args.cache) as store:
        gaps = translation_gaps(load_site(args.content, store=store))
    lines = [
        f"{g.where}: "
        + STATUS_LINES.get(g.kind, STATUS_LINES["missing"]).format(g=g)
        + (f"; write its {g.missing} file with {g.hint}" if g.kind == "converted" and g.hint else "")
        for g in gaps
    ]
    return "\n".join(lines + [f"{len(gaps)} item(s) lack one language"])


def run_new(args) -> str:
    from sitegen.content.load import load_config
    from sitegen.editor.authoring import SlugRefused, new_report

    # converted languages are made from their source; an editor adds their file by hand
    site_languages = load_config(args.content)[1]
    every = tuple(site_languages)
    languages = list(site_languages.written())
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

    from sitegen.editor.http_server import PortBusy
    from sitegen.editor.serve import serve

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
    from sitegen.assemble.rendering import preview_reports as render_preview
    from sitegen.content.load import load_site

    if not changed or not all(Path(p).suffix == ".md" and "reports" in Path(p).parts for p in changed):
        return None  # not a report edit alone: nothing to load for it
    with opened(args.cache) as store:
        return render_preview(
            load_site(args.content, strict=args.strict, store=store), args.templates, changed
        )


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
            retrieved=_today(),  # a citation's "retrieved" (never a build's date)
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
