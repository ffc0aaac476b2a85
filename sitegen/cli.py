"""The command line: `axledger` when installed, `python -m sitegen`, or `python build.py` in a
checkout (which takes the checkout's content/, output/ and .cache/ as defaults).

Run in a folder, the command builds ./content into ./output, with its cache (one database) in
--cache, else $SITEGEN_CACHE, else ./.cache; the folder is passed to the build, never set in
the environment. Exit codes: 0 success, 1 content errors (each printed as file:line: message),
2 usage errors (a bad option or port, a missing content or templates folder, a slug too long,
a refused output folder, a busy port, a missing optional tool), 130 interrupted."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from sitegen import __version__
from sitegen.assemble.outdir import OutputRefused
from sitegen.base import paths
from sitegen.base.errors import ContentError
from sitegen.commands import COMMANDS, CommandFailed, UsageError
from sitegen.content.record_lock import RecordBusy
from sitegen.editor import usage

DESCRIPTION = (
    "Build a site of MLPerf Training comparison reports, in the languages content/site.yaml "
    "lists (English, Simplified Chinese and Traditional Chinese for the shipped site), "
    "from a content folder."
)
EXAMPLES = [
    ("", "build {where}content into {where}output (the same as `build`)"),
    ("check", "validate content, translations and links; write nothing"),
    ("serve [--port N]", "build, serve on 127.0.0.1, rebuild and reload on change"),
    ("new report SLUG", "start a report in every written language"),
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
    group.add_argument(
        "--cache",
        type=Path,
        metavar="DIR",
        default=none,
        help=f"the build's cache folder (default: $SITEGEN_CACHE, else {where}.cache)",
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
    _record_commands(command)
    return parser


def _record_commands(command) -> None:
    """The commands that write the record and its tables (importer/)."""
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
    cache = getattr(args, "cache", None) or os.environ.get("SITEGEN_CACHE") or base / ".cache"
    args.cache = Path(cache).absolute()
    return args


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


def main(argv=None, root: Path | None = None, prog: str = "axledger") -> int:
    args = parse_args(argv, root, prog)
    try:
        missing = usage.missing_folder(args.command, args.content, args.templates)
        if missing:
            raise UsageError(missing)
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
