#!/usr/bin/env python3
"""Speed benchmark: our generator against Hugo, MkDocs and Pelican, and the whole-record site.

    python bench/run.py [--sizes 100,1000] [--runs 3] [--out bench/results.json] [--quick]
    python bench/run.py --only record [--record-runs 3] [--serve-edits 3]

Generates synthetic bilingual content projects (bench/content.py), times our builds (cold,
no-op, after editing one report, after editing one result) and the peers' cold builds of the
same pages; builds a copy of the shipped content (the whole MLPerf record) cold, no-op, after
a report, a result and a data edit and after importing one round, and times serve's save to
reload; checks the speed targets and writes results.json and results.md. See bench/README.md.
Everything generated goes under bench/work/ (git-ignored)."""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
WORK = BENCH / "work"
VENV = WORK / "venv"
sys.path.insert(0, str(BENCH))
sys.path.insert(1, str(ROOT))  # bench/content.py writes the record with sitegen's own writer
import content as gen  # noqa: E402  (bench/content.py)

# The peers, pinned so that reruns compare like with like (Hugo: whatever Debian ships).
PEER_PACKAGES = ["mkdocs==1.6.1", "pelican==4.12.0", "Markdown==3.11.3"]
PEERS = ("hugo", "mkdocs", "pelican")
TAIL = 25  # lines of a failed build's output shown


class BuildFailed(Exception):
    pass


def log(message: str) -> None:
    print(message, flush=True)


# ---- running and measuring one command ----------------------------------------------------------


def run(cmd, cwd=None, env=None, what="", tree_memory=False) -> dict:
    """Run cmd; wall time and the peak resident memory of it (and its waited-for children).
    tree_memory: also sample the summed PSS of the process and all its descendants (the
    build's forked language processes run side by side, so their memory adds up)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [str(c) for c in cmd], cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL
        )
        sampler = TreeMemory(proc.pid) if tree_memory else None
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:  # interrupted: the build must not outlive the benchmark
            for pid in reversed(TreeMemory.tree(proc.pid)):  # its forked processes too
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            proc.wait()
            raise
        finally:
            if sampler:
                sampler.finish()
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = "\n".join((stderr.strip() or stdout.strip()).splitlines()[-TAIL:])
        raise BuildFailed(
            f"{what or cmd[0]} failed (exit {proc.returncode}): "
            f"{' '.join(str(c) for c in cmd)}\n--- last lines of its output ---\n{tail}"
        )
    result = {
        "seconds": seconds,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
        "stdout": stdout,
        "stderr": stderr,
    }
    if sampler and sampler.samples:
        result["tree_peak_mb"] = sampler.peak_kb / 1024
    return result


class TreeMemory(threading.Thread):
    """The peak of the summed proportional set size (PSS: shared pages split between the
    processes sharing them, so forked copies are not counted twice) of a process and all its
    descendants, sampled every `interval` seconds from /proc until finish()."""

    def __init__(self, pid: int, interval: float = 0.1):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak_kb, self.samples = 0, 0
        self._done = threading.Event()
        self.start()

    def finish(self) -> None:
        self._done.set()
        self.join()

    def run(self) -> None:
        while not self._done.is_set():
            total = sum(self._pss_kb(pid) for pid in self.tree(self.pid))
            if total:
                self.samples += 1
                self.peak_kb = max(self.peak_kb, total)
            self._done.wait(self.interval)

    @staticmethod
    def tree(pid: int) -> list[int]:
        """pid and all its descendants, parents first."""
        found, todo = [], [pid]
        while todo:
            current = todo.pop()
            found.append(current)
            try:
                for task in os.listdir(f"/proc/{current}/task"):
                    with open(f"/proc/{current}/task/{task}/children") as f:
                        todo.extend(int(c) for c in f.read().split())
            except OSError:  # gone already
                continue
        return found

    @staticmethod
    def _pss_kb(pid: int) -> int:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        return int(line.split()[1])
        except (OSError, ValueError):
            pass
        return 0


def count_html(folder: Path) -> int:
    return sum(1 for _ in folder.rglob("*.html")) if folder.is_dir() else 0


def inodes(folder: Path) -> dict[str, tuple[int, int]]:
    """Each file of `folder` by its path: (device, inode). A build writes each file it makes
    anew and hard-links the others from its last output, so a file with an inode that was not
    there before is one the build wrote."""
    found = {}
    for path in folder.rglob("*") if folder.is_dir() else ():
        if path.is_file():
            st = path.stat()
            found[str(path.relative_to(folder))] = (st.st_dev, st.st_ino)
    return found


def rmtree(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)


def summary(samples: list[dict]) -> dict:
    secs = [s["seconds"] for s in samples]
    cpu = [s["cpu_s"] for s in samples]
    mems = [s["peak_mb"] for s in samples]
    result = {
        "median_s": round(statistics.median(secs), 3),
        "runs_s": [round(s, 3) for s in secs],
        "median_cpu_s": round(statistics.median(cpu), 3),
        "peak_mb": round(max(mems), 1),
        "runs_peak_mb": [round(m, 1) for m in mems],
    }
    trees = [s["tree_peak_mb"] for s in samples if "tree_peak_mb" in s]
    if trees:
        result["tree_peak_mb"] = round(max(trees), 1)
    if all("written" in s for s in samples):  # the files the build wrote, of all it left
        result["written"], result["files"] = samples[-1]["written"], samples[-1]["files"]
    return result


# ---- our generator -----------------------------------------------------------------------------

CODE = ROOT  # where build.py is run from: the working tree, or its snapshot (main)


def snapshot_code() -> Path:
    """Copy build.py, sitegen/ and templates/ to bench/work/code, so that edits others make to
    the working tree while the benchmark runs cannot change (or break) the code under test."""
    code = WORK / "code"
    rmtree(code)
    code.mkdir(parents=True)
    shutil.copy2(ROOT / "build.py", code / "build.py")
    for folder in ("sitegen", "templates"):
        shutil.copytree(ROOT / folder, code / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if (ROOT / "node_modules").is_dir():  # the search reader takes minisearch from there
        (code / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return code


def compiled(folder: Path) -> None:
    """Compile the code's bytecode, as pip does when it installs a package and Python does on
    an editor's first run: with PYTHONDONTWRITEBYTECODE set (as on the 2-core machine), every
    build would otherwise compile the generator from source in each of its processes."""
    import compileall

    if not compileall.compile_dir(folder, quiet=1):
        raise BuildFailed(f"could not compile the code under test in {folder}")


class OurSite:
    """One synthetic project: bench/work/<name>/content, out/, cache/."""

    def __init__(self, name: str, corpus, charts: bool, i18n: Path):
        self.folder = WORK / name
        self.content = self.folder / "content"
        self.out = self.folder / "out"
        self.cache = self.folder / "cache"
        self.corpus, self.charts, self.i18n = corpus, charts, i18n
        self.edits = 0

    def write(self) -> None:
        gen.write_ours(self.corpus, self.content, self.i18n, self.charts)

    def env(self) -> dict:
        return {**os.environ, "SITEGEN_CACHE": str(self.cache)}

    def clear(self) -> None:
        """What a cold build starts from: no output, no cache (ours and any project .cache)."""
        for path in (self.out, self.cache, self.folder / ".cache", self.content / ".cache"):
            rmtree(path)

    def build(self, what: str) -> dict:
        before = set(inodes(self.out).values())  # outside the timing: what the build writes
        result = run(
            [sys.executable, CODE / "build.py", "--content", self.content, "--out", self.out, "-q"],
            cwd=CODE,
            env=self.env(),
            what=f"our build ({self.folder.name}, {what})",
        )
        after = inodes(self.out)  # one walk of the output: its pages, files and those written
        result["pages"] = sum(1 for path in after if path.endswith(".html"))
        result["files"], result["written"] = len(after), sum(1 for i in after.values() if i not in before)
        return result

    def edit_report(self) -> None:
        """Append one sentence to the first report's English file (a new one each time)."""
        self.edits += 1
        path = self.content / "reports" / f"{self.corpus.reports[0].slug}.en.md"
        with path.open("a", encoding="utf-8") as f:
            f.write(f"\nOne more sentence, appended by the benchmark (edit {self.edits}).\n")

    def edit_data(self) -> None:
        """Change the value of one result (the first of the record) and seal the record again,
        as an editor's `seal-record` does."""
        self.edits += 1
        first = self.corpus.results[0]
        value = round(first["value"] + 0.01 * self.edits, 2)
        gen.write_record(self.corpus, self.content, {first["id"]: value})


OUR_STEPS = ("cold", "noop", "edit_report", "edit_data")


def run_ours(site: OurSite, samples: dict, full: bool, min_pages: int) -> None:
    """One run (after prepare_run): cold build, no-op rebuild, and (full) the two edits."""
    done = [("cold", site.build("cold"))]
    pages = done[0][1]["pages"]
    if pages < min_pages:
        raise BuildFailed(
            f"our build of {site.folder.name} wrote {pages} HTML pages, expected at least {min_pages}"
        )
    done.append(("noop", site.build("no-op")))
    if full:
        site.edit_report()
        done.append(("edit_report", site.build("edit one report")))
        site.edit_data()
        done.append(("edit_data", site.build("edit one result")))
    for step, sample in done:
        samples.setdefault(step, []).append(sample)
    samples["pages"] = pages
    log(
        f"  ours {site.folder.name}: "
        + ", ".join(f"{k} {v['seconds']:.2f} s" for k, v in done)
        + f"; peak {max(v['peak_mb'] for _, v in done):.0f} MB, {pages} pages"
    )


def summarise_ours(samples: dict) -> dict:
    return {
        "pages": samples["pages"],
        **{step: summary(samples[step]) for step in OUR_STEPS if step in samples},
    }


# ---- the peers ---------------------------------------------------------------------------------


def ensure_hugo() -> str:
    found = shutil.which("hugo")
    if found:
        return found
    if not shutil.which("apt-get"):
        raise BuildFailed("hugo is not installed and apt-get is not available: install Hugo")
    sudo = ["env", "DEBIAN_FRONTEND=noninteractive"]
    sudo = sudo if os.geteuid() == 0 else ["sudo"] + sudo
    log(f"hugo not found: running {' '.join(sudo + ['apt-get', 'install', '-y', 'hugo'])}")
    try:
        run(sudo + ["apt-get", "install", "-y", "hugo"], what="apt-get install hugo")
    except BuildFailed:
        log(f"  failed; running {' '.join(sudo + ['apt-get', 'update'])} and trying again")
        run(sudo + ["apt-get", "update"], what="apt-get update")
        run(sudo + ["apt-get", "install", "-y", "hugo"], what="apt-get install hugo")
    found = shutil.which("hugo")
    if not found:
        raise BuildFailed("apt-get install hugo succeeded but hugo is not on PATH")
    return found


def ensure_venv() -> Path:
    """bench/work/venv with the pinned MkDocs, Pelican and Markdown."""
    python = VENV / "bin" / "python"
    if not python.exists():
        log(f"creating {VENV.relative_to(ROOT)}: {sys.executable} -m venv")
        run([sys.executable, "-m", "venv", VENV], what="python -m venv")
    check = (
        "import importlib.metadata as m, sys; wanted = dict(a.split('==') for a in sys.argv[1:]);"
        "sys.exit(any(m.version(k) != v for k, v in wanted.items()))"
    )
    try:
        run([python, "-c", check, *PEER_PACKAGES], what="version check")
    except BuildFailed:
        log(f"installing into the venv: pip install {' '.join(PEER_PACKAGES)}")
        run(
            [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *PEER_PACKAGES],
            what="pip install",
        )
    return VENV / "bin"


def peer_versions(hugo: str | None, venv_bin: Path | None) -> dict:
    versions = {}
    if hugo:
        text = run([hugo, "version"])["stdout"].strip()
        versions["hugo"] = re.sub(r"^hugo v(\S+?)(\+\S+)? .*?(VendorInfo=(\S+))?$", r"\1 (\4)", text)
    if venv_bin:
        for name, cmd in (
            ("mkdocs", [venv_bin / "mkdocs", "--version"]),
            ("pelican", [venv_bin / "pelican", "--version"]),
        ):
            text = run(cmd)["stdout"].strip()
            versions[name] = re.sub(r"^mkdocs, version (\S+).*", r"\1", text)
        versions["markdown"] = run(
            [venv_bin / "python", "-c", "import markdown; print(markdown.__version__)"]
        )["stdout"].strip()
    return versions


class Peer:
    def __init__(self, name: str, size: int, corpus, hugo: str | None, venv_bin: Path | None):
        self.name, self.corpus = name, corpus
        self.folder = WORK / f"{name}-{size}"
        self.hugo, self.venv_bin = hugo, venv_bin

    def write(self) -> None:
        {"hugo": gen.write_hugo, "mkdocs": gen.write_mkdocs, "pelican": gen.write_pelican}[self.name](
            self.corpus, self.folder
        )

    def out(self) -> Path:
        return self.folder / {"hugo": "public", "mkdocs": "site", "pelican": "output"}[self.name]

    def command(self) -> list:
        if self.name == "hugo":
            return [
                self.hugo,
                "--quiet",
                "--source",
                self.folder,
                "--destination",
                self.out(),
                "--cacheDir",
                self.folder / "cache",
            ]
        if self.name == "mkdocs":
            return [
                self.venv_bin / "mkdocs",
                "build",
                "-q",
                "-f",
                self.folder / "mkdocs.yml",
                "-d",
                self.out(),
            ]
        return [
            self.venv_bin / "pelican",
            self.folder / "content",
            "-o",
            self.out(),
            "-s",
            self.folder / "pelicanconf.py",
            "-q",
        ]

    def clear(self) -> None:
        for path in (
            self.out(),
            self.folder / "cache",
            self.folder / "resources",
            self.folder / "__pycache__",
        ):
            rmtree(path)

    def build(self) -> dict:
        env = {
            **os.environ,
            "PATH": f"{self.venv_bin}:{os.environ['PATH']}" if self.venv_bin else os.environ["PATH"],
        }
        result = run(self.command(), cwd=self.folder, env=env, what=f"{self.name} build ({self.folder.name})")
        result["pages"] = count_html(self.out())
        return result


def run_peer(peer: Peer, samples: list, min_pages: int) -> None:
    sample = peer.build()
    pages = sample["pages"]
    if pages < min_pages:
        raise BuildFailed(
            f"{peer.name} wrote {pages} HTML pages into {peer.out()}, expected "
            f"at least {min_pages}\n--- its output ---\n"
            + "\n".join((sample["stderr"] + sample["stdout"]).splitlines()[-TAIL:])
        )
    samples.append(sample)
    log(f"  {peer.folder.name}: {sample['seconds']:.2f} s, peak {sample['peak_mb']:.0f} MB, {pages} pages")


def settle_seconds() -> float:
    """How long ext4 keeps freed inodes from being reused: dirty_expire_centisecs, plus the 5 s
    it adds while the inode table block is still dirty (fs/ext4/ialloc.c, recently_deleted)."""
    try:
        centisecs = int(Path("/proc/sys/vm/dirty_expire_centisecs").read_text())
    except (OSError, ValueError):
        centisecs = 3000
    return centisecs / 100 + 5


def prepare_run(tools, settle: bool) -> None:
    """Every tool's cold build starts from the same state: fresh content, no output, no cache,
    and no files deleted in the last half minute. Creating thousands of files right after
    thousands were deleted is slow on ext4 (it skips recently freed inodes, scanning past each
    one), and that cost would fall on whichever tool happened to run after a deletion."""
    for _, tool, _ in tools:
        if isinstance(tool, OurSite):
            tool.write()  # restores the edits of the previous run
        tool.clear()
    if settle:
        os.sync()
        time.sleep(settle_seconds())


# ---- the whole-record site: the shipped content, every round of the record -----------------------

RECORD_COLD_LIMIT = 60.0  # s (the scale issue, on a 2-core machine)
RECORD_NOOP_LIMIT = 1.0  # s, and at most a tenth of the cold build
RECORD_EDIT_LIMIT = 1.0  # s: one report edit, one result edit (issue 47)
RECORD_MEMORY_LIMIT = 1024.0  # MB
SERVE_RELOAD_LIMIT = 0.5  # s from saving a report to the served page with the new text
SERVE_POLL = 0.025  # s between the benchmark's requests to serve's /__build__
RECORD_STEPS = ("cold", "noop", "edit_report", "edit_result", "edit_data", "import_round")
RECORD_LANG = "en"  # the language whose pages the edits are looked for in


class RecordSite:
    """A copy of the shipped content, built with our generator: bench/work/record-site/.
    `source` is the copy taken at the start (so that concurrent edits to content/ change
    nothing mid-measurement); every run starts from it in `content`, and every edit is undone
    by writing back the bytes it replaced."""

    def __init__(self):
        self.folder = WORK / "record-site"
        self.source = self.folder / "source"
        self.content = self.folder / "content"
        self.out = self.folder / "out"
        self.cache = self.folder / "cache"
        self.marks = 0

    def snapshot(self, content: Path) -> None:
        rmtree(self.folder)
        shutil.copytree(content, self.source, ignore=shutil.ignore_patterns(".cache"))

    def write(self) -> None:
        rmtree(self.content)
        shutil.copytree(self.source, self.content)

    def clear(self) -> None:
        """What a cold build starts from: no output, no cache (ours and any project .cache)."""
        for path in (self.out, self.cache, self.folder / ".cache", self.content / ".cache"):
            rmtree(path)

    def env(self) -> dict:
        return {**os.environ, "SITEGEN_CACHE": str(self.cache)}

    def command(self, *extra) -> list:
        return [sys.executable, CODE / "build.py", "--content", self.content, "--out", self.out, *extra]

    def build(self, what: str, memory: bool = False) -> dict:
        return run(
            self.command("-q"),
            cwd=CODE,
            env=self.env(),
            what=f"our build (whole record, {what})",
            tree_memory=memory,
        )

    def mark(self) -> str:
        """A word found nowhere else: an edit's text, looked for in the output afterwards."""
        self.marks += 1
        return f"Benchedit{os.getpid()}x{self.marks}"

    def page(self, rel: str) -> str:
        path = self.out / rel
        return path.read_text("utf-8", "replace") if path.is_file() else ""

    def results(self) -> int:
        return sum(
            len(re.findall(r"^- id: ", p.read_text("utf-8"), re.M))
            for p in (self.source / "data" / "record").glob("results-*.yaml")
        )


def seal_record(content: Path) -> None:
    """Seal an edit of the copy's record as an editor does (`seal-record`): every build checks
    the round files against their seal. Untimed: it runs before the build that is measured."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "-q", "--content", str(content), "seal-record"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BuildFailed(f"seal-record of {content} failed:\n{done.stderr}")


class Edit:
    """One change to the copy: what it is, the pages that must show it (page, text) and the
    bytes of each file it changed, written back by undo(); `sealed`: the content folder whose
    record the edit changed (sealed after the edit and after the undo)."""

    def __init__(self, what: str, checks: list, originals: dict, sealed: Path | None = None):
        self.what, self.checks, self.originals, self.sealed = what, checks, originals, sealed
        if sealed is not None:
            seal_record(sealed)
        self.saved = time.perf_counter()  # when the last file was written

    def undo(self) -> None:
        for path, data in self.originals.items():
            path.write_bytes(data)
        if self.sealed is not None:
            seal_record(self.sealed)


def first_report(site: RecordSite) -> Path:
    reports = sorted((site.content / "reports").glob(f"*.{RECORD_LANG}.md"))
    if not reports:
        raise BuildFailed(f"whole record: no reports/*.{RECORD_LANG}.md in {site.content}")
    return reports[0]


def append_sentence(path: Path, word: str) -> None:
    text = path.read_bytes().rstrip(b"\n")
    path.write_bytes(text + f"\n\nOne more sentence, appended by the benchmark: {word}.\n".encode())


def edit_report(site: RecordSite) -> Edit:
    """One sentence appended to the first English report."""
    path = first_report(site)
    original, word = path.read_bytes(), site.mark()
    append_sentence(path, word)
    slug = path.name[: -len(f".{RECORD_LANG}.md")]
    return Edit(
        f"one sentence appended to reports/{path.name}",
        [(f"{RECORD_LANG}/reports/{slug}.html", word)],
        {path: original},
    )


def record_blocks(lines: list[str]) -> list[dict]:
    """The importer's one-field-per-line records: [{field: (line index, raw value)}]."""
    blocks: list[dict] = []
    for i, line in enumerate(lines):
        match = re.match(r"^(- |  )([a-z_]+): ?(.*?)\s*$", line)
        if not match:
            continue
        if match.group(1) == "- ":
            blocks.append({})
        if blocks:
            blocks[-1][match.group(2)] = (i, match.group(3))
    return blocks


def edit_result(site: RecordSite) -> Edit:
    """The framework text of one scored result of results-v2.0.yaml (any other round's file
    when that one is missing) gets one more word: a displayed field that no score check reads.
    A result that mlperf_systems.yaml maps to a site system is taken first (it shows on the
    system's page too)."""
    folder = site.content / "data" / "record"
    files = sorted(folder.glob("results-*.yaml"), key=lambda p: p.name != "results-v2.0.yaml")
    systems = site.content / "data" / "mlperf_systems.yaml"
    mapped = {
        line.split(":")[0].strip().strip("'\"")
        for line in (systems.read_text("utf-8").splitlines() if systems.is_file() else [])
        if line.strip() and not line.lstrip().startswith("#")
    }
    for path in files:
        original = path.read_bytes()
        lines = original.decode("utf-8").splitlines(keepends=True)
        candidates = [
            b
            for b in record_blocks(lines)
            if {"id", "round", "path", "system_folder", "status", "framework"} <= set(b)
            and b["status"][1] == "scored"
            and re.fullmatch(r"[A-Za-z][A-Za-z0-9 .,+()/_-]*", b["framework"][1])
        ]
        if not candidates:
            continue

        def key(b):
            return f"{b['round'][1]}/{b['path'][1].split('/')[0]}/{b['system_folder'][1]}"

        block = next((b for b in candidates if key(b) in mapped), candidates[0])
        index, value = block["framework"]
        word = site.mark()
        lines[index] = lines[index].replace(value, f"{value} {word}", 1)
        path.write_bytes("".join(lines).encode("utf-8"))
        ident = block["id"][1]
        return Edit(
            f"framework of {ident} in data/record/{path.name}: one word added "
            f"({'a result of a site system' if key(block) in mapped else 'a result'})",
            [(f"{RECORD_LANG}/results/{ident}.html", word)],
            {path: original},
            sealed=site.content,
        )
    raise BuildFailed(f"whole record: no scored result with a plain framework text in {folder}")


def edit_system(site: RecordSite) -> Edit:
    """One word added to the English description of the first system in systems.yaml (a
    folded block `en: >-`, a plain `en: text` line or a flow mapping `{en: text, ...}`)."""
    path = site.content / "data" / "systems.yaml"
    original = path.read_bytes()
    lines = original.decode("utf-8").splitlines(keepends=True) + ["", ""]
    ident = None
    for i, line in enumerate(lines[:-2]):
        found = re.match(r"^- id: *['\"]?([^'\"\s]+)", line)
        if found:
            ident = found.group(1)
        if not ident:
            continue
        word = None
        if re.match(r"^\s+description:\s*$", line):
            if re.match(rf"^\s+{RECORD_LANG}: [>|]-?\s*$", lines[i + 1]) and lines[i + 2].strip():
                word = site.mark()
                lines[i + 2] = lines[i + 2].rstrip("\n") + f" {word}\n"
            elif re.match(rf"^\s+{RECORD_LANG}: [A-Za-z]", lines[i + 1]):
                word = site.mark()
                lines[i + 1] = re.sub(rf"({RECORD_LANG}: )", rf"\g<1>{word} ", lines[i + 1], count=1)
        elif re.match(rf"^\s+description: *\{{ *{RECORD_LANG}: [A-Za-z]", line):
            word = site.mark()
            lines[i] = re.sub(rf"(\{{ *{RECORD_LANG}: )", rf"\g<1>{word} ", line, count=1)
        if word:
            path.write_bytes("".join(lines).encode("utf-8"))
            return Edit(
                f"one word added to the {RECORD_LANG} description of system {ident} in data/systems.yaml",
                [(f"{RECORD_LANG}/systems/{ident}.html", word)],
                {path: original},
            )
    raise BuildFailed(f"whole record: no system with an '{RECORD_LANG}:' description to edit in {path}")


def drop_list_items(text: str, belongs) -> str:
    """A YAML list at column 0 ('- ' items) without the items whose text `belongs`."""
    parts = re.split(r"(?m)^(?=- )", text)
    return "".join(p for p in parts if not (p.startswith("- ") and belongs(p)))


def remove_newest_round(site: RecordSite) -> tuple[str, str, dict]:
    """The copy as it was before the newest round was imported: its results file and its
    rounds.yaml entry gone, and with them what names that round (mlperf_systems.yaml lines,
    changelog rows, curated entries, its section of import-report.md). Returns (round, the id
    of one of its results, {path: bytes before})."""
    folder = site.content / "data" / "record"
    rounds = folder / "rounds.yaml"
    text = rounds.read_text("utf-8")
    ids = re.findall(r"(?m)^- id: *['\"]?([^'\"\s]+)", text)
    if len(ids) < 2:
        raise BuildFailed(f"whole record: {rounds} has {len(ids)} round(s); the import step needs two")
    newest = ids[-1]  # oldest first (docs/record-format.md)
    results = folder / f"results-{newest}.yaml"
    first = re.search(r"(?m)^- id: *(\S+)", results.read_text("utf-8"))
    originals = {rounds: rounds.read_bytes(), results: results.read_bytes()}
    names_round = re.compile(rf"\bid: *['\"]?{re.escape(newest)}-")
    changes = {
        rounds: drop_list_items(
            text,
            lambda item: (
                item.startswith(f"- id: {newest}\n")
                or re.match(rf"- id: *['\"]{re.escape(newest)}['\"]", item)
            ),
        )
    }
    for name in ("changelog.yaml",):
        path = folder / name
        if path.is_file():
            changes[path] = drop_list_items(path.read_text("utf-8"), names_round.search)
    curated = site.content / "data" / "results_curated.yaml"
    if curated.is_file():
        changes[curated] = drop_list_items(curated.read_text("utf-8"), names_round.search)
    systems = site.content / "data" / "mlperf_systems.yaml"
    if systems.is_file():
        changes[systems] = "".join(
            line
            for line in systems.read_text("utf-8").splitlines(keepends=True)
            if not line.lstrip().lstrip("'\"").startswith(f"{newest}/")
        )
    report = folder / "import-report.md"
    if report.is_file():
        changes[report] = re.sub(
            rf"(?ms)^## {re.escape(newest)}\n.*?(?=^## |\Z)", "", report.read_text("utf-8")
        )
    for path, new in changes.items():
        if new.encode("utf-8") != path.read_bytes():
            originals.setdefault(path, path.read_bytes())
            path.write_text(new, "utf-8")
    results.unlink()
    for path in reports_naming(site.content / "reports", newest):  # written after the import
        originals[path] = path.read_bytes()
        path.unlink()
    return newest, first.group(1) if first else "", originals


def reports_naming(folder: Path, round_id: str) -> list[Path]:
    """Every language's file of each report whose text names the round (a reference to one of
    its results or its chips): before the round was imported, no report could cite it."""
    names = re.compile(rf"(?<![\w.]){re.escape(round_id)}(?![\w.])")
    slugs = {p.name.split(".")[0] for p in folder.glob("*.md") if names.search(p.read_text("utf-8"))}
    return sorted(p for p in folder.glob("*.md") if p.name.split(".")[0] in slugs)


def timed_edit(site: RecordSite, step: str, make_edit) -> dict:
    """Edit, time the rebuild, check the output shows the edit; undo it and rebuild (untimed),
    so that the next measurement starts from an up-to-date output again."""
    edit = make_edit(site)
    try:
        sample = site.build(step.replace("_", " "))
        expect(site, edit.checks, f"after the {step.replace('_', ' ')} ({edit.what})")
    finally:
        edit.undo()
    site.build(f"undo of {step.replace('_', ' ')}")
    expect(site, edit.checks, f"after undoing the {step.replace('_', ' ')}", present=False)
    sample["edit"] = edit.what
    return sample


def timed_import(site: RecordSite) -> dict:
    """Build without the newest round (untimed), put it back and time that rebuild."""
    newest, result, originals = remove_newest_round(site)
    checks = [(f"{RECORD_LANG}/rounds/{newest}.html", newest)]
    if result:
        checks.append((f"{RECORD_LANG}/results/{result}.html", result))
    try:
        seal_record(site.content)
        site.build(f"without round {newest}")
        expect(site, checks, f"after removing round {newest}", present=False)
    finally:
        for path, data in originals.items():
            path.write_bytes(data)
        seal_record(site.content)
    # its processes' memory summed too: the rebuild that renders most (a round's new pages)
    sample = site.build(f"import of round {newest}", memory=True)
    expect(site, checks, f"after importing round {newest} again")
    sample["edit"] = (
        f"round {newest} removed (results-{newest}.yaml, its rounds.yaml entry, the lines "
        f"naming it and the reports citing it), built, then put back: the rebuild timed"
    )
    return sample


def expect(site: RecordSite, checks: list, when: str, present: bool = True) -> None:
    """A timed build that did not do what it was timed for is a failure, not a figure."""
    for page, text in checks:
        html = site.page(page)
        if present and text not in html:
            raise BuildFailed(
                f"whole record, {when}: the build exited 0 but {site.out / page} "
                + (f"does not contain {text!r}" if html else "does not exist")
            )
        if not present and text in html:
            raise BuildFailed(f"whole record, {when}: {site.out / page} still contains {text!r}")


def http_get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def measure_serve(site: RecordSite, edits: int) -> list[dict]:
    """`build.py serve --port 0` on the up-to-date copy; `edits` times a sentence appended to
    the first English report. For each, from the end of the write: until serve answered a
    `/__build__?after=<version>` request, opened before the write and held by serve, with a
    new version whose report page holds the new sentence (`signal_s`: when an open page's
    reload script is told to reload), and until that page was fetched (`page_s`). The report is
    restored (and rebuilt) at the end, and the server stopped."""
    path = first_report(site)
    slug = path.name[: -len(f".{RECORD_LANG}.md")]
    page = f"/{RECORD_LANG}/reports/{slug}.html"
    original = path.read_bytes()
    proc = subprocess.Popen(
        [str(c) for c in site.command("serve", "--port", "0")],
        cwd=CODE,
        env={**site.env(), "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(l.rstrip("\n") for l in proc.stdout), daemon=True)
    reader.start()

    def fail(message: str):
        tail = "\n".join(lines[-TAIL:])
        return BuildFailed(f"serve (whole record): {message}\n--- last lines of its output ---\n{tail}")

    def until(test, seconds: float, what: str):
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            if proc.poll() is not None:
                raise fail(f"stopped (exit {proc.returncode}) while waiting for {what}")
            found = test()
            if found:
                return found
            time.sleep(SERVE_POLL)
        raise fail(f"no {what} within {seconds:.0f} s")

    def state() -> dict:
        status, body = http_get(port, "/__build__")
        return json.loads(body) if status == 200 else {}

    def held(version: int, word: str, got: dict) -> None:
        """What an open page does: ask /__build__?after=<version>, held by serve until a build
        is published; a new version is the reload, and the page is then fetched. Answers
        without the word (a build of something else, a hold that timed out) ask again."""
        try:
            deadline = time.perf_counter() + 600
            while time.perf_counter() < deadline:
                status, body = http_get(port, f"/__build__?after={version}")
                answered = time.perf_counter()
                now = json.loads(body) if status == 200 else {}
                got["answers"] = got.get("answers", 0) + 1
                if now.get("errors"):
                    got["error"] = "the rebuild failed: " + "; ".join(now["errors"])[:2000]
                    return
                if now.get("version", version) == version:
                    continue
                version = now["version"]
                status, body = http_get(port, page)
                if status == 200 and word.encode() in body:
                    got.update(signal=answered, page=time.perf_counter())
                    return
            got["error"] = "no reload with the edit within 600 s"
        except Exception as exc:  # noqa: BLE001 - reported by the measuring thread
            got["error"] = f"{type(exc).__name__}: {exc}"

    samples = []
    try:

        def serving():
            for line in list(lines):
                found = re.search(r"^serving .* at http://127\.0\.0\.1:(\d+)/", line)
                if found:
                    return int(found.group(1))

        port = until(serving, 900, "'serving ... at http://127.0.0.1:PORT/' line")
        until(lambda: state().get("watching"), 120, "file watcher (/__build__ 'watching')")
        for k in range(edits):
            time.sleep(1.0)  # let the watcher settle after the last build
            word = site.mark()
            got: dict = {}
            waiting = threading.Thread(target=held, args=(state()["version"], word, got), daemon=True)
            waiting.start()
            time.sleep(0.2)  # the request is in serve's hands, held, before the save
            if got:
                raise fail(f"/__build__?after= answered before the edit {k + 1}: {got}")
            append_sentence(path, word)
            saved = time.perf_counter()
            waiting.join(timeout=610)
            if proc.poll() is not None:
                raise fail(f"stopped (exit {proc.returncode}) while waiting for the edit {k + 1}")
            if "page" not in got:
                raise fail(f"edit {k + 1} in {page}: {got.get('error', 'no answer')}")
            samples.append(
                {"signal_s": round(got["signal"] - saved, 3), "page_s": round(got["page"] - saved, 3)}
            )
            # the page may come from memory before the build has written it: the next edit
            # waits for that build, as an editor reading the page would
            until(lambda: not state().get("building"), 600, "the build after the edit to end")
        version = state()["version"]
        path.write_bytes(original)
        until(lambda: state()["version"] != version, 600, "rebuild after restoring the report")
        status, body = http_get(port, page)
        if b"appended by the benchmark" in body:
            raise fail(f"{page} still shows the benchmark's sentence after the report was restored")
    finally:
        path.write_bytes(original)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        reader.join(timeout=5)
    return samples


def measure_record(site: RecordSite, out: dict, runs: int, settle: bool, serve_edits: int) -> None:
    """Per run: cold build (from no output and no cache), no-op, the three edits, the import of
    the newest round, and serve's save-to-reload; results go into `out` as they come, so that a
    failure keeps what was measured before it."""
    expected = site.results()
    samples: dict = {}
    served: list = []
    out.update(
        {
            "results": expected,
            "rounds": len(
                re.findall(
                    r"(?m)^- id: ", (site.source / "data" / "record" / "rounds.yaml").read_text("utf-8")
                )
            ),
        }
    )

    def put(step: str, sample: dict) -> None:
        samples.setdefault(step, []).append(sample)
        out[step] = summary(samples[step])
        if "edit" in sample:
            out[step]["edit"] = sample["edit"]
        log(f"  {step}: {sample['seconds']:.2f} s")

    for k in range(runs):
        log(f"whole record run {k + 1}/{runs}: {site.content}")
        site.write()
        site.clear()
        if settle:
            os.sync()
            time.sleep(settle_seconds())
        cold = site.build("cold", memory=True)
        pages = count_html(site.out)
        if pages < expected:
            raise BuildFailed(
                f"our build of the whole record wrote {pages} HTML pages, expected "
                f"at least one per result ({expected})"
            )
        put("cold", cold)
        out.update(
            {
                "pages": pages,
                "files": sum(1 for p in site.out.rglob("*") if p.is_file()),
                "svg_files": sum(1 for _ in site.out.rglob("*.svg")),
            }
        )
        put("noop", site.build("no-op"))
        for step, make in (
            ("edit_report", edit_report),
            ("edit_result", edit_result),
            ("edit_data", edit_system),
        ):
            put(step, timed_edit(site, step, make))
        put("import_round", timed_import(site))
        log(
            "  whole record: "
            + ", ".join(f"{step} {samples[step][-1]['seconds']:.2f} s" for step in RECORD_STEPS)
            + f"; peak {cold['peak_mb']:.0f} MB (one process), "
            f"{cold.get('tree_peak_mb', 0):.0f} MB (all, PSS); {pages} pages"
        )
        if serve_edits:
            found = measure_serve(site, serve_edits)
            served += found
            out["serve"] = {
                "edits": len(served),
                "held": True,
                "runs": served,
                "median_signal_s": round(statistics.median(s["signal_s"] for s in served), 3),
                "median_page_s": round(statistics.median(s["page_s"] for s in served), 3),
            }
            log("  serve, save to reload: " + ", ".join(f"{s['page_s']:.2f} s" for s in found))


# ---- environment, targets, report ----------------------------------------------------------------


def charts_documented() -> bool:
    doc = ROOT / "docs" / "content-format.md"
    text = doc.read_text("utf-8") if doc.exists() else ""
    return bool(re.search(r"^#{1,4}\s.*\bcharts?\b", text, re.M | re.I))


def environment() -> dict:
    def sh(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return None

    return {
        "date": sh(["date", "-u"]) or dt.datetime.now(dt.UTC).isoformat(),
        "machine": sh(["uname", "-srm"]) or platform.platform(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "commit": sh(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]),
        "load_start": round(os.getloadavg()[0], 2),
        "tree_dirty": bool(sh(["git", "-C", str(ROOT), "status", "--porcelain"])),
    }


def target(name, value, limit, unit="", note=""):
    if value is None or limit is None:
        return {
            "target": name,
            "value": None if value is None else round(value, 3),
            "limit": limit,
            "met": None,
            "verdict": "not measured" + (f" ({note})" if note else ""),
        }
    met = value <= limit
    if met:
        verdict = "met"
    elif unit == "x":
        verdict = f"missed: {value / limit:.2f}x over the limit"
    else:
        verdict = f"missed by {value - limit:.2f}{unit} ({value / limit:.2f}x the limit)"
    return {
        "target": name,
        "value": round(value, 3),
        "limit": round(limit, 3),
        "met": met,
        "verdict": verdict,
    }


def check_targets(res: dict) -> list[dict]:
    out = synthetic_targets(res) if res["ours"] else []
    if res.get("record"):
        out += record_targets(res["record"])
    return out


def ratio(a, b):
    return a / b if a is not None and b else None


def missing(**parts):
    return ", ".join(f"no {k.replace('_', ' ')}" for k, v in parts.items() if v is None)


def synthetic_targets(res: dict) -> list[dict]:
    sizes = sorted(int(n) for n in res["ours"])
    n = max(sizes) if sizes else None
    ours = res["ours"].get(str(n), {})
    main, plain = ours.get("main", {}), ours.get("nocharts", {})
    peers = {p: res["peers"].get(p, {}).get(str(n), {}).get("cold", {}).get("median_s") for p in PEERS}
    cold_plain = plain.get("cold", {}).get("median_s")
    cold_main = main.get("cold", {}).get("median_s")
    noop = main.get("noop", {}).get("median_s")
    edit = main.get("edit_report", {}).get("median_s")
    edit_data = main.get("edit_data", {}).get("median_s")

    out = [
        target(
            f"N={n} cold build, no charts: ours/MkDocs <= 1/3",
            ratio(cold_plain, peers["mkdocs"]),
            1 / 3,
            "x",
            missing(our_time=cold_plain, mkdocs_time=peers["mkdocs"]),
        ),
        target(
            f"N={n} cold build, no charts: ours/Pelican <= 1/3",
            ratio(cold_plain, peers["pelican"]),
            1 / 3,
            "x",
            missing(our_time=cold_plain, pelican_time=peers["pelican"]),
        ),
        target(
            f"N={n} cold build, no charts: ours/Hugo <= 2",
            ratio(cold_plain, peers["hugo"]),
            2,
            "x",
            missing(our_time=cold_plain, hugo_time=peers["hugo"]),
        ),
        target(
            f"N={n} no-op rebuild faster than Hugo's cold build (s)",
            noop,
            peers["hugo"],
            " s",
            missing(our_time=noop, hugo_time=peers["hugo"]),
        ),
        target(
            f"N={n} report edit <= 1/20 of cold (s)",
            edit,
            cold_main / 20 if cold_main else None,
            " s",
            missing(our_time=edit, cold_time=cold_main),
        ),
        target(
            f"N={n} result edit <= 1/20 of cold (s)",
            edit_data,
            cold_main / 20 if cold_main else None,
            " s",
            missing(our_time=edit_data, cold_time=cold_main),
        ),
    ]
    peak = max((v["peak_mb"] for v in main.values() if isinstance(v, dict) and "peak_mb" in v), default=None)
    out.append(target(f"N={n} peak memory < 500 MB", peak, 500, " MB"))
    if 100 in sizes and 1000 in sizes:
        growth = (
            res["ours"]["1000"]["main"]["cold"]["median_s"] / res["ours"]["100"]["main"]["cold"]["median_s"]
        )
        out.append(target("linear growth: cold time(1000)/time(100) <= 10", growth, 10, "x"))
    else:
        out.append(
            target(
                "linear growth: cold time(1000)/time(100) <= 10",
                None,
                10,
                note="needs --sizes with 100 and 1000",
            )
        )
    return out


def record_peak_mb(rec: dict):
    """The whole record's peak memory: the largest of every build's own peak (ru_maxrss) and
    the cold build's sampled sum over all its processes."""
    values = [
        v[k] for v in rec.values() if isinstance(v, dict) for k in ("peak_mb", "tree_peak_mb") if k in v
    ]
    return max(values, default=None)


def record_targets(rec: dict) -> list[dict]:
    def median(step):
        return rec.get(step, {}).get("median_s")

    cold, noop = median("cold"), median("noop")
    fifth = cold / 5 if cold else None
    serve = rec.get("serve", {}).get("median_page_s")
    return [
        target(f"whole record cold build <= {RECORD_COLD_LIMIT:g} s", cold, RECORD_COLD_LIMIT, " s"),
        target(f"whole record no-op rebuild <= {RECORD_NOOP_LIMIT:g} s", noop, RECORD_NOOP_LIMIT, " s"),
        target(
            "whole record no-op rebuild <= 1/10 of its cold build (s)",
            noop,
            cold / 10 if cold else None,
            " s",
            missing(no_op_time=noop, cold_time=cold),
        ),
        target(
            f"whole record report edit <= {RECORD_EDIT_LIMIT:g} s",
            median("edit_report"),
            RECORD_EDIT_LIMIT,
            " s",
        ),
        target(
            f"whole record result edit <= {RECORD_EDIT_LIMIT:g} s",
            median("edit_result"),
            RECORD_EDIT_LIMIT,
            " s",
        ),
        target(
            "whole record rebuild after importing one round <= 1/5 of cold (s)",
            median("import_round"),
            fifth,
            " s",
            missing(import_time=median("import_round"), cold_time=cold),
        ),
        target(
            "whole record data edit (systems.yaml) <= 1/5 of cold (s)",
            median("edit_data"),
            fifth,
            " s",
            missing(edit_time=median("edit_data"), cold_time=cold),
        ),
        target("whole record peak memory < 1 GB (MB)", record_peak_mb(rec), RECORD_MEMORY_LIMIT, " MB"),
        target(
            f"serve: save to reloaded page, report edit <= {SERVE_RELOAD_LIMIT:g} s",
            serve,
            SERVE_RELOAD_LIMIT,
            " s",
            "--serve-edits 0, or a step before it failed" if serve is None else "",
        ),
    ]


def fmt_s(value) -> str:
    return "–" if value is None else f"{value:.2f}"


def comparison_rows(res: dict, measure: str) -> list[str]:
    """Table rows of the no-charts cold builds, ours against each peer, by one measure."""
    rows = []
    for n in sorted(res["ours"], key=int):
        ours = res["ours"][n].get("nocharts", {}).get("cold", {}).get(measure)
        peers = [res["peers"].get(p, {}).get(n, {}).get("cold", {}).get(measure) for p in PEERS]
        ratios = [f"{ours / p:.2f}" if ours is not None and p else "–" for p in peers]
        rows.append(
            f"| {n} | {fmt_s(ours)} | "
            + " | ".join(fmt_s(p) for p in peers)
            + " | "
            + " | ".join(ratios)
            + " |"
        )
    return rows


def markdown(res: dict) -> str:
    env, s = res["environment"], res["settings"]
    lines = [
        "# Benchmark results",
        "",
        f"{env['date']} · {env['machine']} · {env['cpus']} CPUs · Python {env['python']} · "
        f"commit {env['commit']}{' (dirty tree)' if env['tree_dirty'] else ''}"
        + (
            (
                " · **quick run (one run, no settling pause)**"
                if s.get("only") == "record"
                else " · **quick run (shortened reports, one run)**"
            )
            if s["quick"]
            else ""
        )
        + (f" · only: {s['only']}" if s.get("only", "all") != "all" else ""),
        "",
    ]
    if res["ours"] or res["peer_versions"]:
        lines += [
            "Peers: " + ("; ".join(f"{k} `{v}`" for k, v in res["peer_versions"].items()) or "none"),
            "",
        ]
    lines += [
        f"Load average (1 min) at start {env.get('load_start', '?')}, at end {env.get('load_end', '?')}: "
        "other processes on the machine lengthen wall times; results.json also has CPU times.",
        "",
    ]
    if res["ours"]:
        lines += synthetic_markdown(res)
    if res.get("record"):
        lines += record_markdown(res["record"], s)
    lines += ["", "## Targets", "", "| target | measured | limit | verdict |", "|---|---:|---:|---|"]
    for t in res["targets"]:
        lines.append(
            f"| {t['target']} | {fmt_s(t['value']) if t['value'] is not None else '–'} | "
            f"{fmt_s(t['limit']) if t['limit'] is not None else '–'} | {t['verdict']} |"
        )
    if res["errors"]:
        lines += ["", "## Failures", ""] + [f"- {e.splitlines()[0]}" for e in res["errors"]]
    return "\n".join(lines) + "\n"


def synthetic_markdown(res: dict) -> list[str]:
    s = res["settings"]
    lines = [
        f"Synthetic reports of about {s['words']} words, in English and Chinese, with two result "
        f"tables each{' and one chart' if s['charts'] else ' (no chart: the content format has no Charts section yet)'}"
        f"; median of {s['runs']} run(s), wall time in seconds.",
        "",
        "## Cold build of the same 2 x N pages without charts",
        "",
        "| N | ours | Hugo | MkDocs | Pelican | ours/Hugo | ours/MkDocs | ours/Pelican |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += comparison_rows(res, "median_s")
    lines += [
        "",
        "The same builds in CPU time (user + system, seconds; Hugo uses both cores), which "
        "other load on the machine disturbs less than wall time:",
        "",
        "| N | ours | Hugo | MkDocs | Pelican | ours/Hugo | ours/MkDocs | ours/Pelican |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += comparison_rows(res, "median_cpu_s")
    lines += [
        "",
        "## Our generator" + (" (with charts)" if s["charts"] else ""),
        "",
        "| site | pages | cold | no-op | edit one report | edit one result | peak memory (MB) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for n, m in _main_sites(res):
        peak = max((v["peak_mb"] for v in m.values() if isinstance(v, dict) and "peak_mb" in v), default=None)
        lines.append(
            f"| N={n} | {m.get('pages', '–')} | "
            + " | ".join(
                fmt_s(m.get(k, {}).get("median_s")) for k in ("cold", "noop", "edit_report", "edit_data")
            )
            + f" | {'–' if peak is None else f'{peak:.0f}'} |"
        )
    return lines + edit_ratios(res)


def _main_sites(res: dict) -> list[tuple[str, dict]]:
    """(N, its measurements) of each synthetic site measured with our own content format."""
    return [(n, res["ours"][n]["main"]) for n in sorted(res["ours"], key=int) if res["ours"][n].get("main")]


def edit_ratios(res: dict) -> list[str]:
    """Each edit's rebuild as a share of the cold build, in wall and in CPU time (the CPU
    ratio is the steadier one on a shared machine)."""
    lines = [
        "",
        "The edits as a share of the cold build (target: at most 1/20 = 0.05 each), wall time and CPU time:",
        "",
        "| site | edit one report / cold | edit one result / cold | CPU: report / cold | CPU: result / cold |",
        "|---|---:|---:|---:|---:|",
    ]
    for n, m in _main_sites(res):
        cells = [
            ratio(m.get(step, {}).get(measure), m.get("cold", {}).get(measure))
            for measure in ("median_s", "median_cpu_s")
            for step in ("edit_report", "edit_data")
        ]
        lines.append(f"| N={n} | " + " | ".join("–" if c is None else f"{c:.3f}" for c in cells) + " |")
    return lines + edit_reach(res)


def edit_reach(res: dict) -> list[str]:
    """The files each edit's rebuild wrote, as a share of the site's files: the part of the
    output that the edit changed, which the rebuild has to make again (its ratio to cold can
    only be lower than this share if a page made again costs less than a page of the cold
    build)."""
    lines = [
        "",
        "The files each edit's rebuild wrote (made anew; every other file is linked from the last output), of all the site's files:",
        "",
        "| site | files | edit one report | edit one result |",
        "|---|---:|---:|---:|",
    ]
    for n, m in _main_sites(res):
        files = m.get("edit_data", {}).get("files")
        if not files:
            continue
        cells = [m.get(step, {}).get("written") for step in ("edit_report", "edit_data")]
        lines.append(
            f"| N={n} | {files} | "
            + " | ".join("–" if c is None else f"{c} ({c / files:.3f})" for c in cells)
            + " |"
        )
    return lines


RECORD_LABELS = {
    "edit_report": "edit one report",
    "edit_result": "edit one result",
    "edit_data": "data edit",
    "import_round": "import one round",
}


def record_markdown(rec: dict, s: dict) -> list[str]:
    def mb(value):
        return "–" if value is None else f"{value:.0f}"

    cold = rec.get("cold", {})
    lines = [
        "",
        "## The whole-record site",
        "",
        f"The shipped content (a copy of `{s.get('record_content', 'content/')}`): "
        f"{rec.get('results', '?')} record results in {rec.get('rounds', '?')} rounds, "
        f"{rec.get('pages', '?')} HTML pages, {rec.get('files', '?')} files, "
        f"{rec.get('svg_files', '?')} SVG charts. Each figure is the whole "
        f"`python build.py --content … --out … -q`; median of {s['record_runs']} run(s), wall "
        "time in seconds; the cold build starts with no output and no cache.",
        "",
        "| cold | no-op | edit one report | edit one result | data edit | import one round "
        "| peak memory, one process (MB) | peak memory, all processes (MB) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        "| "
        + " | ".join(fmt_s(rec.get(k, {}).get("median_s")) for k in RECORD_STEPS)
        + f" | {mb(max((v['peak_mb'] for v in rec.values() if isinstance(v, dict) and 'peak_mb' in v), default=None))}"
        f" | {mb(cold.get('tree_peak_mb'))} |",
    ]
    if any(k in rec for k in RECORD_STEPS):
        lines += [
            "",
            "CPU time (user + system, seconds): "
            + ", ".join(
                f"{RECORD_LABELS.get(k, k.replace('noop', 'no-op'))} {fmt_s(rec[k].get('median_cpu_s'))}"
                for k in RECORD_STEPS
                if k in rec
            )
            + ".",
        ]
    edits = [f"- {RECORD_LABELS[k]}: {rec[k]['edit']}" for k in RECORD_LABELS if rec.get(k, {}).get("edit")]
    if edits:
        lines += [
            "",
            "The edits (each undone and rebuilt before the next measurement; each checked in the output):",
            "",
        ] + edits
    if rec.get("incomplete"):
        lines += ["", f"**Incomplete:** {rec['incomplete']}."]
    sv = rec.get("serve")
    if sv:
        lines += [
            "",
            f"`serve`, a sentence appended to a report ({sv['edits']} edit(s)): median "
            f"{sv['median_signal_s']:.2f} s from the save to the reload signal (a "
            f"`/__build__?after=<version>` request opened before the save, held by serve, "
            f"answered with a new version whose page has the new text: what an open page's "
            f"script waits for), {sv['median_page_s']:.2f} s to that page fetched over HTTP.",
        ]
    return lines


# ---- main ----------------------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default=None, help="report counts, comma-separated (default 100,1000)")
    p.add_argument("--runs", type=int, default=3, help="runs per measurement, median reported")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="results JSON (default bench/results.json; quick: bench/work/quick/results.json);"
        " the Markdown table goes beside it with .md",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="smoke test: one run, short reports (200 words), results under bench/work/quick/",
    )
    p.add_argument("--peers", default=",".join(PEERS), help="which peers to build (default all; '' for none)")
    p.add_argument(
        "--charts",
        choices=("auto", "yes", "no"),
        default="auto",
        help="one ```chart block per report: auto = when docs/content-format.md has a Charts section",
    )
    p.add_argument(
        "--shipped",
        "--record-content",
        dest="shipped",
        type=Path,
        metavar="DIR",
        default=ROOT / "content",
        help="the whole-record site's content folder, copied before it is built "
        "(default: the repo's content/)",
    )
    p.add_argument(
        "--only",
        choices=("all", "synthetic", "record"),
        default="all",
        help="synthetic: the N-report sites and the peers; record: the whole-record "
        "site (cold, no-op, edits, import of one round, serve); default both",
    )
    p.add_argument(
        "--record-runs", type=int, default=None, help="runs of the whole-record part (default: --runs)"
    )
    p.add_argument(
        "--serve-edits",
        type=int,
        default=3,
        help="report edits timed through `serve` per whole-record run (0: no serve)",
    )
    p.add_argument(
        "--live",
        action="store_true",
        help="run the working tree's build.py, not a snapshot taken at the start",
    )
    args = p.parse_args(argv)
    args.sizes = [int(x) for x in (args.sizes or "100,1000").split(",") if x.strip()]
    args.peers = [x.strip() for x in args.peers.split(",") if x.strip()]
    bad = [x for x in args.peers if x not in PEERS]
    if bad:
        p.error(f"unknown peer {bad[0]} (known: {', '.join(PEERS)})")
    if args.quick:
        args.runs = args.record_runs = 1
    if args.record_runs is None:
        args.record_runs = args.runs
    if args.runs < 1 or args.record_runs < 1:
        p.error("--runs and --record-runs must be at least 1")
    if args.serve_edits < 0:
        p.error("--serve-edits must be 0 or more")
    if args.only == "record":
        args.sizes, args.peers = [], []
    if args.out is None:
        args.out = (WORK / "quick" if args.quick else BENCH) / "results.json"
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # like Ctrl-C: see the record part
    WORK.mkdir(parents=True, exist_ok=True)
    global CODE
    CODE = ROOT if args.live else snapshot_code()
    compiled(CODE / "sitegen")
    record_site = RecordSite()
    record_site.snapshot(args.shipped)  # also the interface strings of the synthetic sites
    charts = {"yes": True, "no": False}.get(args.charts, charts_documented())
    words = 200 if args.quick else 800
    errors: list[str] = []

    def failed(exc: Exception) -> None:
        errors.append(str(exc))
        log(f"ERROR: {exc}")

    res = {
        "environment": environment(),
        "peer_versions": {},
        "settings": {
            "only": args.only,
            "sizes": args.sizes,
            "runs": args.runs,
            "record_runs": args.record_runs,
            "serve_edits": args.serve_edits,
            "record_content": str(args.shipped),
            "quick": args.quick,
            "words": words,
            "charts": charts,
            "peers": args.peers,
            "systems": 20,
            "benchmarks": 3,
            "results": 60,
            "code": "working tree"
            if args.live
            else "snapshot of the working tree (build.py, sitegen/, templates/) at the start",
        },
        "ours": {},
        "peers": {},
        "record": {},
        "targets": [],
        "errors": errors,
    }
    log(
        (
            f"benchmark: sizes {args.sizes}, {args.runs} run(s), charts {'on' if charts else 'off'}; "
            if args.only != "record"
            else "benchmark: "
        )
        + f"whole record: {'no' if args.only == 'synthetic' else f'{args.record_runs} run(s)'}"
        f"{' (quick)' if args.quick else ''}; {res['environment']['machine']}, "
        f"{res['environment']['cpus']} CPUs"
    )

    hugo = venv_bin = None
    if "hugo" in args.peers:
        try:
            hugo = ensure_hugo()
        except BuildFailed as exc:
            failed(exc)
    if {"mkdocs", "pelican"} & set(args.peers):
        try:
            venv_bin = ensure_venv()
        except BuildFailed as exc:
            failed(exc)
    try:
        res["peer_versions"] = peer_versions(hugo, venv_bin)
    except BuildFailed as exc:
        failed(exc)

    i18n = record_site.source / "i18n"  # the interface strings, as copied at the start
    for n in args.sizes:
        log(f"N={n}: generating content ({n} reports x 2 languages)")
        corpus = gen.make_corpus(n, words=words)
        # (key, builder, samples); runs are interleaved so that load from other processes on
        # the machine falls on every tool alike.
        tools = [("main", OurSite(f"site-{n}", corpus, charts, i18n), {})]
        if charts:
            tools.append(("nocharts", OurSite(f"site-{n}-nocharts", corpus, False, i18n), {}))
        for name in args.peers:
            if (name == "hugo" and hugo) or (name != "hugo" and venv_bin):
                peer = Peer(name, n, corpus, hugo, venv_bin)
                peer.write()
                tools.append((name, peer, []))
        broken = set()
        # The sites whose cold builds are compared first, the main site (whose edits delete
        # files) last; see prepare_run.
        tools.sort(key=lambda entry: entry[0] == "main")
        for k in range(args.runs):
            log(f"N={n} run {k + 1}/{args.runs}")
            prepare_run(tools, settle=not args.quick)
            for key, tool, samples in tools:
                if key in broken:
                    continue
                try:
                    if isinstance(tool, OurSite):
                        run_ours(tool, samples, full=(key == "main"), min_pages=2 * n)
                    else:
                        run_peer(tool, samples, min_pages=2 * n)
                except BuildFailed as exc:
                    broken.add(key)
                    failed(exc)
        ours = res["ours"][str(n)] = {}
        for key, tool, samples in tools:
            if not samples or (isinstance(tool, OurSite) and "cold" not in samples):
                continue  # not one good run: the failure is in `errors`
            if isinstance(tool, OurSite):
                ours[key] = summarise_ours(samples)
            else:
                res["peers"].setdefault(key, {})[str(n)] = {
                    "pages": samples[-1]["pages"],
                    "cold": summary(samples),
                }
            if key in broken:
                where = ours[key] if isinstance(tool, OurSite) else res["peers"][key][str(n)]
                where["incomplete"] = "a run failed; the medians are of the runs before it"
        if not charts and "main" in ours:
            # Without chart blocks the main site is the no-charts comparison point itself.
            ours["nocharts"] = ours["main"]

    if args.only != "synthetic":
        log(f"whole record: {args.shipped}")
        try:
            measure_record(
                record_site,
                res["record"],
                args.record_runs,
                settle=not args.quick,
                serve_edits=args.serve_edits,
            )
        except (BuildFailed, OSError) as exc:
            res["record"]["incomplete"] = "a step failed; the figures are of the steps before it"
            failed(exc)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: write what was measured
            res["record"]["incomplete"] = "interrupted; the figures are of the steps before it"
            failed(BuildFailed("interrupted (Ctrl-C or SIGTERM) during the whole-record part"))

    res["environment"]["load_end"] = round(os.getloadavg()[0], 2)
    res["targets"] = check_targets(res)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=2, ensure_ascii=False) + "\n", "utf-8")
    md = markdown(res)
    args.out.with_suffix(".md").write_text(md, "utf-8")
    log("")
    log(md)
    log(f"wrote {args.out} and {args.out.with_suffix('.md')}")
    missed = [t for t in res["targets"] if t["met"] is False]
    log(
        f"targets: {sum(1 for t in res['targets'] if t['met'])} met, {len(missed)} missed, "
        f"{sum(1 for t in res['targets'] if t['met'] is None)} not measured"
    )
    if errors:
        log(f"{len(errors)} failure(s): see above and the 'errors' list in {args.out}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
