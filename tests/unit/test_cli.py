"""The command line (sitegen/cli.py): options before and after the command, --version and
--help, exit codes 0 / 1 / 2 with one-line messages, defaults relative to the current folder,
init, a missing optional package, a content folder's own templates."""

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import build
from sitegen import __version__, cli, commands

from project import write_project

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["build", "check", "status", "serve", "new", "init", "import-record"]


def run(capsys, *argv):
    status = build.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def exits(capsys, *argv):
    """(exit code, stdout, stderr) of a run that ends in SystemExit (--help, --version, usage)."""
    with pytest.raises(SystemExit) as stopped:
        cli.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return stopped.value.code, captured.out, captured.err


def command(*argv, cwd, env=None):
    """`python -m sitegen ARGV` in a subprocess run in `cwd`, with the checkout importable."""
    environ = {k: v for k, v in os.environ.items() if k not in ("SITEGEN_CACHE", "NO_COLOR")}
    environ.update({"PYTHONPATH": str(ROOT), **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "sitegen", *map(str, argv)],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_version(capsys):
    code, out, _ = exits(capsys, "--version")
    assert code == 0 and out == f"axledger {__version__}\n"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help(capsys, name):
    code, out, _ = exits(capsys, name, "--help")
    assert code == 0
    assert out.startswith(f"usage: axledger {name}")
    assert "--out DIR" in out and "-q, --quiet" in out  # the common options, after the command


def test_help_lists_commands_and_exit_codes(capsys):
    code, out, _ = exits(capsys, "--help")
    assert code == 0
    for name in COMMANDS:
        assert name in out
    assert "2 usage errors" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--bogus"], "axledger: error: unrecognized arguments: --bogus (see axledger --help)\n"),
        *[
            (
                ["serve", "--port", port],
                f"axledger serve: error: argument --port: '{port}' is not a port: give a number "
                "from 0 to 65535 (see axledger serve --help)\n",
            )
            for port in ("eighty", "99999", "65536", "-1", "٣", "8e3")
        ],
        (
            ["-q", "-v"],
            "axledger: error: -q and -v ask for opposite things: give one of them (see axledger --help)\n",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_line(capsys, argv, message):
    code, out, err = exits(capsys, *argv)
    assert (code, out, err) == (2, "", message)


def test_the_port_range_ends_are_ports():
    assert [cli.parse_args(["serve", "--port", p]).port for p in ("0", "65535")] == [0, 65535]


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--content", "nope"],
            "error: the content folder nope does not exist (--content DIR names another)\n",
        ),
        (
            ["check", "--content", "nope"],
            "error: the content folder nope does not exist (--content DIR names another)\n",
        ),
        (
            ["--templates", "nope"],
            "error: the templates folder nope does not exist (--templates DIR names another)\n",
        ),
        (
            ["serve", "--templates", "content/site.yaml"],
            "error: the templates folder content/site.yaml is not a folder (--templates DIR names another)\n",
        ),
    ],
)
def test_a_missing_folder_is_a_usage_error_before_any_work(tmp_path, monkeypatch, capsys, argv, message):
    write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    assert (status, out, err) == (2, "", message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content"]  # no output, no cache


def test_a_slug_too_long_for_the_file_system_is_a_usage_error(tmp_path, capsys):
    content = write_project(tmp_path)
    limit = os.pathconf(content, "PC_NAME_MAX")
    before = sorted(p.name for p in (content / "reports").iterdir())
    status, out, err = run(capsys, "--content", content, "new", "report", "a" * 300)
    # the longest name a slug gives: its charts' data files, <slug>-99.json (8 more)
    assert (status, out, err) == (
        2,
        "",
        f"error: the slug is 300 characters long: this file system takes file names of at most {limit} "
        f"bytes and the report's files add 8 to it (<slug>-99.json); choose a slug of at most {limit - 8} "
        "characters; nothing created\n",
    )
    assert sorted(p.name for p in (content / "reports").iterdir()) == before
    status, _, err = run(capsys, "--content", content, "new", "report", "b" * (limit - 8))
    assert status == 0, err
    assert (content / "reports" / f"{'b' * (limit - 8)}.zh.md").is_file()


def test_unknown_command_exits_2_with_one_line(capsys):
    code, out, err = exits(capsys, "publish")
    assert (code, out, err.count("\n")) == (2, "", 1)
    # argparse quotes the choices differently across Python versions
    assert err.startswith("axledger: error: argument COMMAND: invalid choice: 'publish' (choose from ")
    assert "import-record" in err and err.endswith(" (see axledger --help)\n")


def test_options_before_and_after_the_command_mean_the_same(tmp_path):
    after = cli.parse_args(["serve", "--port", "8001", "--out", "o", "-q", "--strict"])
    before = cli.parse_args(["--out", "o", "-q", "--strict", "serve", "--port", "8001"])
    assert vars(after) == vars(before)
    assert (after.port, after.out, after.quiet, after.strict, after.host) == (
        8001,
        Path("o"),
        True,
        True,
        "127.0.0.1",
    )
    assert cli.parse_args(["--out", "a", "build", "--out", "b"]).out == Path("b")


def test_defaults_are_the_current_folder_or_the_given_root(monkeypatch, tmp_path):
    monkeypatch.delenv("SITEGEN_CACHE", raising=False)
    here = cli.parse_args([])
    assert (here.content, here.out, here.cache) == (
        Path("content"),
        Path("output"),
        Path(".cache").absolute(),
    )
    there = cli.parse_args([], root=tmp_path)
    assert (there.content, there.out, there.cache) == (
        tmp_path / "content",
        tmp_path / "output",
        tmp_path / ".cache",
    )
    monkeypatch.setenv("SITEGEN_CACHE", str(tmp_path / "c"))
    assert cli.parse_args([]).cache == tmp_path / "c"


def test_build_after_the_command_with_options(tmp_path, capsys):
    content = write_project(tmp_path)
    status, out, err = run(capsys, "build", "--content", content, "--out", tmp_path / "o", "-q")
    assert (status, out, err) == (0, "", "")
    assert (tmp_path / "o" / "en" / "index.html").is_file()


def test_content_errors_exit_1(tmp_path, capsys):
    content = write_project(tmp_path, {"data/claims.yaml": "- id: [broken\n"})
    status, _, err = run(capsys, "--content", content, "--out", tmp_path / "o")
    assert status == 1
    assert err.splitlines()[-1].startswith("build failed: ")
    assert err.splitlines()[-1].endswith(" problem(s); output left as it was")


def test_a_site_without_a_record_exits_1_naming_the_file(tmp_path, capsys):
    import project

    content = write_project(tmp_path, dict.fromkeys(project.RECORD))
    status, out, err = run(capsys, "--content", content, "--out", tmp_path / "o")
    assert (status, out) == (1, "")
    assert err.splitlines()[0] == (
        "content/data/record/rounds.yaml: missing the MLPerf record: import it with "
        "`python build.py import-record` (docs/importing.md), or start a new site with "
        "`python build.py init DIR`"
    )
    assert not (tmp_path / "o").exists()


def test_refused_output_exits_2_with_one_line(tmp_path, capsys):
    content = write_project(tmp_path)
    status, out, err = run(capsys, "--content", content, "--out", content, "-q")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: refusing to build into {content}")


def test_missing_importer_extra_is_one_line(tmp_path, capsys, monkeypatch):
    for name in [m for m in list(sys.modules) if m.startswith("mlperf_logging.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "mlperf_logging", None)  # as if not installed
    import importlib

    for name in ("sitegen.importer.run", "sitegen.content.round_rules", "sitegen.importer.write"):
        # imported by earlier tests: forget them, so that they are imported again
        monkeypatch.delitem(sys.modules, name, raising=False)
        parent, _, leaf = name.rpartition(".")
        monkeypatch.delattr(importlib.import_module(parent), leaf, raising=False)
    content = write_project(tmp_path)
    status, out, err = run(capsys, "--content", content, "import-record", tmp_path)
    assert (status, out) == (2, "")
    assert err == (
        "error: this command needs the Python package 'mlperf_logging', which is "
        "not installed: pip install 'accelerator-ledger[import]'\n"
    )


def test_import_mlperf_is_gone_and_says_what_replaced_it(tmp_path, capsys):
    """One importer: the old one-folder import refuses, names import-record and touches nothing."""
    content = write_project(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    status, out, err = run(capsys, "--content", content, "import-mlperf", tmp_path / "logs")
    assert (status, out) == (2, "")
    assert err == (
        "error: import-mlperf is gone: the site's results come from the whole record, "
        "which `import-record [DIR...]` imports into content/data/record/ "
        "(see docs/importing.md)\n"
    )
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_plain_output_without_a_terminal_or_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert not commands.plain_output()
    monkeypatch.setenv("NO_COLOR", "1")
    assert commands.plain_output()
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert commands.plain_output()


def test_init_makes_a_site_that_builds_in_its_folder(tmp_path):
    made = command("init", "mysite", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith(f"created {Path('mysite', 'content')}: ")
    site = tmp_path / "mysite"
    built = command("-q", cwd=site)  # ./content into ./output, cache in ./.cache
    assert (built.returncode, built.stdout, built.stderr) == (0, "", "")
    assert (site / "output" / "zh" / "index.html").is_file()
    assert (site / ".cache" / "store.sqlite").is_file()
    elsewhere = command("-q", "--out", "other", cwd=site, env={"SITEGEN_CACHE": str(tmp_path / "c")})
    assert elsewhere.returncode == 0, elsewhere.stderr
    assert (tmp_path / "c" / "store.sqlite").is_file()
    again = command("init", "mysite", cwd=tmp_path)
    assert again.returncode == 2
    assert again.stderr == (
        f"error: {Path('mysite', 'content')} already exists; nothing written (choose a new folder)\n"
    )


def test_the_starter_builds_strict_from_a_sealed_record_of_its_own(tmp_path, capsys):
    """The starter has no hand-written results: a record in the importer's format, sealed;
    `check --strict` and a strict build pass, and its report shows the two times its record
    gives (the olympic means of [29, 30, 30, 30, 31] and [19, 20, 20, 20, 21]: 30.0 and 20.0)."""
    from sitegen.editor.starter import write_starter
    from sitegen.importer.small_record import write_results

    content = write_starter(tmp_path / "site", write_results)
    record = content / "data" / "record"
    assert sorted(p.name for p in record.iterdir()) == ["results-v1.0.yaml", "rounds.yaml", "seal.yaml"]
    assert not (content / "data" / "results.yaml").exists()
    assert run(capsys, "check", "--strict", "--content", content)[0] == 0
    status, _, err = run(capsys, "--strict", "--content", content, "--out", tmp_path / "o", "-q")
    assert (status, err) == (0, "")
    text = re.sub(
        r"<[^>]+>", "", (tmp_path / "o" / "en" / "reports" / "acme-vs-zenith.html").read_text("utf-8")
    )
    assert "Acme trains BERT in 30.0 min; Zenith needs 20.0 min" in re.sub(r"\s+", " ", text)
    assert "Acme gives more per dollar." in text  # its claim
    assert (tmp_path / "o" / "en" / "results" / "r-acme.html").is_file()


def test_content_folder_templates_override_the_shipped_ones(tmp_path, capsys):
    content = write_project(tmp_path)
    base = (ROOT / "templates" / "404.html").read_text("utf-8")
    (content / "templates" / "static").mkdir(parents=True)
    (content / "templates" / "404.html").write_text(base.replace("</p>", "</p><p>OWN-404</p>", 1), "utf-8")
    (content / "templates" / "static" / "extra.css").write_text("/* own */\n", "utf-8")
    status, _, err = run(capsys, "--content", content, "--out", tmp_path / "o", "-q")
    assert status == 0, err
    assert "OWN-404" in (tmp_path / "o" / "en" / "404.html").read_text("utf-8")
    assert "OWN-404" not in (tmp_path / "o" / "en" / "index.html").read_text("utf-8")
    assert (tmp_path / "o" / "assets" / "extra.css").read_text("utf-8") == "/* own */\n"
    assert (tmp_path / "o" / "assets" / "style.css").is_file()  # the shipped ones stay


def test_build_py_works_from_another_folder(tmp_path):
    shown = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "serve", "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0 and shown.stdout.startswith("usage: build.py serve")


def test_serve_on_a_busy_port_is_one_line_and_exit_2(tmp_path):
    content = write_project(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ran = command("--content", content, "--out", tmp_path / "o", "serve", "--port", port, cwd=tmp_path)
    assert (ran.returncode, ran.stdout) == (2, "")
    assert ran.stderr == (
        f"error: port {port} on 127.0.0.1 is in use by another program: stop "
        "it, or choose another port with --port N (--port 0 picks a free one)\n"
    )
    assert not (tmp_path / "o").exists()  # refused before building


def test_every_command_in_the_readme_is_accepted():
    """Each `python build.py …` / `axledger …` form the README shows parses as documented."""
    import re
    import shlex

    readme = (ROOT / "README.md").read_text("utf-8")
    forms = set(re.findall(r"`(?:python build\.py|axledger)((?: [^`|]*)?)`", readme))
    forms |= set(re.findall(r"^axledger((?: [^#&\n]*)?)", readme, re.M))
    assert len(forms) >= 8, forms
    for form in forms:
        argv = [
            {"SLUG": "a-slug", "PATH": "p", "DIR": "d", "[DIR...]": "d", "N": "8001"}.get(a, a)
            for a in shlex.split(form.strip())
        ]
        args = cli.parse_args(argv)
        assert args.command in cli.COMMANDS, form
