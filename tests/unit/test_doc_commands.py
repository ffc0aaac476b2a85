"""The command examples of README.md and docs/*.md are real: a renamed command or option
breaks a test here.

Every `axledger …` / `python build.py …` / `python -m sitegen …` the docs show (in fenced
shell blocks, split at `&&` and `;`, and in inline code) must parse as written (placeholders
such as SLUG or DIR filled in); every command they name must answer --help; `--version` must
work from both entry points; and the safe, fast examples (init, build, check, status, new)
run, in the order a reader would, in a new project in a temporary folder. `python build.py X`
runs as `axledger X` there (the checkout's script would take the checkout's own content/).
Not run: serve (does not end), import-record, check-counts and import-compatibility (they read
MLCommons' repositories; tests/importer/test_record_import.py, test_count_checks.py and
tests/site/test_compatibility.py run them)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from sitegen import __version__, cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROGRAM = re.compile(r"^(?:axledger|python build\.py|python -m sitegen)(?=\s|$)")
FENCE = re.compile(r"^```(?:sh|bash|shell|console)?\n(.*?)^```", re.M | re.S)
INLINE = re.compile(r"`((?:axledger|python build\.py|python -m sitegen)(?: [^`]*)?)`")
PLACEHOLDERS = {
    "SLUG": "a-slug",
    "PATH": "p",
    "DIR": "d",
    "[DIR...]": "d",
    "DIR...": "d",
    "N": "8001",
    "[--port": "--port",
    "N]": "8001",
}
NOT_RUN = {"serve", "import-record", "import-compatibility", "check-counts"}


def doc_commands() -> list[tuple[str, bool, list[str]]]:
    """(where, from a fenced block, argv after the program) of every example, in doc order."""
    found = []
    for doc in DOCS:
        text = doc.read_text("utf-8")
        for block in FENCE.finditer(text):
            first = text.count("\n", 0, block.start(1)) + 1
            for number, line in enumerate(block.group(1).splitlines(), start=first):
                code = line.split(" #", 1)[0].strip()
                for part in re.split(r"&&|;", code):
                    part = part.strip()
                    if PROGRAM.match(part) or part.startswith("cd "):
                        found.append((f"{doc.name}:{number}", True, shlex.split(part)))
        for span in INLINE.finditer(text):
            number = text.count("\n", 0, span.start()) + 1
            found.append((f"{doc.name}:{number}", False, shlex.split(span.group(1))))
    return [(where, fenced, _after_program(words)) for where, fenced, words in found]


def _after_program(words: list[str]) -> list[str]:
    if words[0] == "cd":
        return words
    if words[:2] == ["python", "-m"]:
        return words[3:]
    return words[2:] if words[0] == "python" else words[1:]


def _filled(argv: list[str]) -> list[str]:
    return [PLACEHOLDERS.get(word, word) for word in argv]


COMMANDS = doc_commands()
NAMED = sorted(
    {cli.parse_args(_filled(argv)).command or "build" for _, _, argv in COMMANDS if argv[:1] != ["cd"]}
)


def test_the_docs_show_commands():
    assert len(COMMANDS) >= 12, COMMANDS
    assert any(fenced for _, fenced, _ in COMMANDS)
    assert set(NAMED) >= {"build", "check", "serve", "new", "status", "init", "import-record"}


@pytest.mark.parametrize(
    "where, argv",
    [(w, a) for w, _, a in COMMANDS if a[:1] != ["cd"]],
    ids=lambda value: value if isinstance(value, str) else " ".join(value),
)
def test_every_example_parses_as_written(where, argv, capsys):
    try:
        args = cli.parse_args(_filled(argv))
    except SystemExit:
        pytest.fail(f"{where}: `{' '.join(argv)}` is not accepted: {capsys.readouterr().err}")
    assert args.command in cli.COMMANDS, where


@pytest.mark.parametrize("command", NAMED)
def test_every_command_named_in_the_docs_answers_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert out.startswith(f"usage: axledger {command}") and "--content DIR" in out


@pytest.mark.parametrize(
    "entry, prog", [(["build.py"], "build.py"), (["-m", "sitegen"], "python -m sitegen")]
)
def test_version_from_both_entry_points(entry, prog, tmp_path):
    ran = subprocess.run(
        [sys.executable, *entry, "--version"],
        cwd=tmp_path if entry[0] == "-m" else ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, f"{prog} {__version__}\n", "")


def test_the_safe_examples_run_in_a_new_project(tmp_path, monkeypatch, capsys, warm_cache):
    """The fenced examples in order (`cd` included), then the inline ones that are safe, each
    form once; `new` last (its report is a scaffold for the editor to fill: until then the
    content has errors)."""
    monkeypatch.setenv("SITEGEN_CACHE", str(warm_cache))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(tmp_path)
    fenced = [(w, a) for w, f, a in COMMANDS if f]
    inline = sorted([(w, a) for w, f, a in COMMANDS if not f], key=lambda wa: wa[1][:1] == ["new"])
    ran, seen = [], set()
    for where, argv in fenced + inline:
        if argv[:1] == ["cd"]:
            monkeypatch.chdir(Path.cwd() / argv[1])
            continue
        argv = _filled(argv)
        command = cli.parse_args(argv).command
        if command in NOT_RUN or tuple(argv) in seen or (command == "init" and Path(argv[-1]).exists()):
            continue
        seen.add(tuple(argv))
        code = cli.main(argv)
        out, err = capsys.readouterr()
        assert code == 0, f"{where}: `{' '.join(argv)}` in {Path.cwd()}: exit {code}\n{out}{err}"
        ran.append((where, argv))
    commands = {cli.parse_args(argv).command or "build" for _, argv in ran}
    assert commands >= {"init", "build", "check", "status", "new"}, ran
    assert (Path.cwd() / "output" / "index.html").is_file()
    assert sorted(p.name for p in (Path.cwd() / "content" / "reports").glob("a-slug.*.md"))
