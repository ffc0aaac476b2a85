#!/usr/bin/env python3
"""Speed benchmark: our generator against Hugo, MkDocs and Pelican.

    python bench/run.py [--sizes 100,1000] [--runs 3] [--out bench/results.json] [--quick]

Generates synthetic bilingual content projects (bench/content.py), times our builds (cold,
no-op, after editing one report, after editing one result) and the peers' cold builds of the
same pages, checks the speed targets and writes results.json and results.md. See
bench/README.md. Everything generated goes under bench/work/ (git-ignored)."""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
WORK = BENCH / "work"
VENV = WORK / "venv"
sys.path.insert(0, str(BENCH))
import content as gen  # noqa: E402  (bench/content.py)

# The peers, pinned so that reruns compare like with like (Hugo: whatever Debian ships).
PEER_PACKAGES = ["mkdocs==1.6.1", "pelican==4.12.0", "Markdown==3.11.3"]
PEERS = ("hugo", "mkdocs", "pelican")
SHIPPED_COLD_LIMIT = 5.0      # "a few seconds" for the shipped site's cold build
TAIL = 25                     # lines of a failed build's output shown


class BuildFailed(Exception):
    pass


def log(message: str) -> None:
    print(message, flush=True)


# ---- running and measuring one command ----------------------------------------------------------

def run(cmd, cwd=None, env=None, what="") -> dict:
    """Run cmd; wall time and the peak resident memory of it (and its waited-for children)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = "\n".join((stderr.strip() or stdout.strip()).splitlines()[-TAIL:])
        raise BuildFailed(f"{what or cmd[0]} failed (exit {proc.returncode}): "
                          f"{' '.join(str(c) for c in cmd)}\n--- last lines of its output ---\n{tail}")
    return {"seconds": seconds, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024, "stdout": stdout, "stderr": stderr}


def count_html(folder: Path) -> int:
    return sum(1 for _ in folder.rglob("*.html")) if folder.is_dir() else 0


def rmtree(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)


def summary(samples: list[dict]) -> dict:
    secs = [s["seconds"] for s in samples]
    cpu = [s["cpu_s"] for s in samples]
    mems = [s["peak_mb"] for s in samples]
    return {"median_s": round(statistics.median(secs), 3), "runs_s": [round(s, 3) for s in secs],
            "median_cpu_s": round(statistics.median(cpu), 3),
            "peak_mb": round(max(mems), 1), "runs_peak_mb": [round(m, 1) for m in mems]}


# ---- our generator -----------------------------------------------------------------------------

CODE = ROOT        # where build.py is run from: the working tree, or its snapshot (main)


def snapshot_code() -> Path:
    """Copy build.py, sitegen/ and templates/ to bench/work/code, so that edits others make to
    the working tree while the benchmark runs cannot change (or break) the code under test."""
    code = WORK / "code"
    rmtree(code)
    code.mkdir(parents=True)
    shutil.copy2(ROOT / "build.py", code / "build.py")
    for folder in ("sitegen", "templates"):
        shutil.copytree(ROOT / folder, code / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if (ROOT / "node_modules").is_dir():     # the search reader takes minisearch from there
        (code / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return code


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
        result = run([sys.executable, CODE / "build.py", "--content", self.content,
                      "--out", self.out, "-q"], cwd=CODE, env=self.env(),
                     what=f"our build ({self.folder.name}, {what})")
        result["pages"] = count_html(self.out)
        return result

    def edit_report(self) -> None:
        """Append one sentence to the first report's English file (a new one each time)."""
        self.edits += 1
        path = self.content / "reports" / f"{self.corpus.reports[0].slug}.en.md"
        with path.open("a", encoding="utf-8") as f:
            f.write(f"\nOne more sentence, appended by the benchmark (edit {self.edits}).\n")

    def edit_data(self) -> None:
        """Change the value of one result record (the first in results.yaml)."""
        self.edits += 1
        first = self.corpus.results[0]
        value = round(first["value"] + 0.01 * self.edits, 2)
        (self.content / "data" / "results.yaml").write_text(
            gen.results_yaml(self.corpus, {first["id"]: value}), "utf-8")


OUR_STEPS = ("cold", "noop", "edit_report", "edit_data")


def run_ours(site: OurSite, samples: dict, full: bool, min_pages: int) -> None:
    """One run (after prepare_run): cold build, no-op rebuild, and (full) the two edits."""
    done = [("cold", site.build("cold"))]
    pages = done[0][1]["pages"]
    if pages < min_pages:
        raise BuildFailed(f"our build of {site.folder.name} wrote {pages} HTML pages, "
                          f"expected at least {min_pages}")
    done.append(("noop", site.build("no-op")))
    if full:
        site.edit_report()
        done.append(("edit_report", site.build("edit one report")))
        site.edit_data()
        done.append(("edit_data", site.build("edit one result")))
    for step, sample in done:
        samples.setdefault(step, []).append(sample)
    samples["pages"] = pages
    log(f"  ours {site.folder.name}: " + ", ".join(f"{k} {v['seconds']:.2f} s" for k, v in done)
        + f"; peak {max(v['peak_mb'] for _, v in done):.0f} MB, {pages} pages")


def summarise_ours(samples: dict) -> dict:
    return {"pages": samples["pages"],
            **{step: summary(samples[step]) for step in OUR_STEPS if step in samples}}


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
    check = ("import importlib.metadata as m, sys; wanted = dict(a.split('==') for a in sys.argv[1:]);"
             "sys.exit(any(m.version(k) != v for k, v in wanted.items()))")
    try:
        run([python, "-c", check, *PEER_PACKAGES], what="version check")
    except BuildFailed:
        log(f"installing into the venv: pip install {' '.join(PEER_PACKAGES)}")
        run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *PEER_PACKAGES],
            what="pip install")
    return VENV / "bin"


def peer_versions(hugo: str | None, venv_bin: Path | None) -> dict:
    versions = {}
    if hugo:
        text = run([hugo, "version"])["stdout"].strip()
        versions["hugo"] = re.sub(r"^hugo v(\S+?)(\+\S+)? .*?(VendorInfo=(\S+))?$", r"\1 (\4)", text)
    if venv_bin:
        for name, cmd in (("mkdocs", [venv_bin / "mkdocs", "--version"]),
                          ("pelican", [venv_bin / "pelican", "--version"])):
            text = run(cmd)["stdout"].strip()
            versions[name] = re.sub(r"^mkdocs, version (\S+).*", r"\1", text)
        versions["markdown"] = run([venv_bin / "python", "-c",
                                    "import markdown; print(markdown.__version__)"])["stdout"].strip()
    return versions


class Peer:
    def __init__(self, name: str, size: int, corpus, hugo: str | None, venv_bin: Path | None):
        self.name, self.corpus = name, corpus
        self.folder = WORK / f"{name}-{size}"
        self.hugo, self.venv_bin = hugo, venv_bin

    def write(self) -> None:
        {"hugo": gen.write_hugo, "mkdocs": gen.write_mkdocs,
         "pelican": gen.write_pelican}[self.name](self.corpus, self.folder)

    def out(self) -> Path:
        return self.folder / {"hugo": "public", "mkdocs": "site", "pelican": "output"}[self.name]

    def command(self) -> list:
        if self.name == "hugo":
            return [self.hugo, "--quiet", "--source", self.folder, "--destination", self.out(),
                    "--cacheDir", self.folder / "cache"]
        if self.name == "mkdocs":
            return [self.venv_bin / "mkdocs", "build", "-q", "-f", self.folder / "mkdocs.yml",
                    "-d", self.out()]
        return [self.venv_bin / "pelican", self.folder / "content", "-o", self.out(),
                "-s", self.folder / "pelicanconf.py", "-q"]

    def clear(self) -> None:
        for path in (self.out(), self.folder / "cache", self.folder / "resources",
                     self.folder / "__pycache__"):
            rmtree(path)

    def build(self) -> dict:
        env = {**os.environ, "PATH": f"{self.venv_bin}:{os.environ['PATH']}" if self.venv_bin
               else os.environ["PATH"]}
        result = run(self.command(), cwd=self.folder, env=env,
                     what=f"{self.name} build ({self.folder.name})")
        result["pages"] = count_html(self.out())
        return result


def run_peer(peer: Peer, samples: list, min_pages: int) -> None:
    sample = peer.build()
    pages = sample["pages"]
    if pages < min_pages:
        raise BuildFailed(f"{peer.name} wrote {pages} HTML pages into {peer.out()}, expected "
                          f"at least {min_pages}\n--- its output ---\n"
                          + "\n".join((sample["stderr"] + sample["stdout"]).splitlines()[-TAIL:]))
    samples.append(sample)
    log(f"  {peer.folder.name}: {sample['seconds']:.2f} s, peak {sample['peak_mb']:.0f} MB, "
        f"{pages} pages")


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
            tool.write()      # restores the edits of the previous run
        tool.clear()
    if settle:
        os.sync()
        time.sleep(settle_seconds())


# ---- the shipped site ----------------------------------------------------------------------------

def copy_shipped(content: Path) -> None:
    """The repo's own content, copied at the start (like the code) so that concurrent edits
    don't change it mid-measurement."""
    folder = WORK / "shipped"
    rmtree(folder)
    shutil.copytree(content, folder / "content", ignore=shutil.ignore_patterns(".cache"))


def measure_shipped(runs: int) -> dict:
    site = OurSite("shipped", None, charts=True, i18n=WORK / "shipped" / "content" / "i18n")
    site.write = lambda: None
    samples: dict = {}
    for _ in range(runs):
        site.clear()       # a small site: too few files for deletions to matter
        run_ours(site, samples, full=False, min_pages=1)
    result = summarise_ours(samples)
    result["svg_files"] = sum(1 for _ in site.out.rglob("*.svg"))
    return result


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
    return {"date": sh(["date", "-u"]) or dt.datetime.now(dt.timezone.utc).isoformat(),
            "machine": sh(["uname", "-srm"]) or platform.platform(),
            "cpus": os.cpu_count(), "python": platform.python_version(),
            "commit": sh(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]),
            "load_start": round(os.getloadavg()[0], 2),
            "tree_dirty": bool(sh(["git", "-C", str(ROOT), "status", "--porcelain"]))}


def target(name, value, limit, unit="", note=""):
    if value is None or limit is None:
        return {"target": name, "value": None if value is None else round(value, 3),
                "limit": limit, "met": None,
                "verdict": "not measured" + (f" ({note})" if note else "")}
    met = value <= limit
    if met:
        verdict = "met"
    elif unit == "x":
        verdict = f"missed: {value / limit:.2f}x over the limit"
    else:
        verdict = f"missed by {value - limit:.2f}{unit} ({value / limit:.2f}x the limit)"
    return {"target": name, "value": round(value, 3), "limit": round(limit, 3), "met": met,
            "verdict": verdict}


def check_targets(res: dict) -> list[dict]:
    sizes = sorted(int(n) for n in res["ours"])
    n = max(sizes) if sizes else None
    ours = res["ours"].get(str(n), {})
    main, plain = ours.get("main", {}), ours.get("nocharts", {})
    peers = {p: res["peers"].get(p, {}).get(str(n), {}).get("cold", {}).get("median_s")
             for p in PEERS}
    cold_plain = plain.get("cold", {}).get("median_s")
    cold_main = main.get("cold", {}).get("median_s")
    noop = main.get("noop", {}).get("median_s")
    edit = main.get("edit_report", {}).get("median_s")
    def ratio(a, b):
        return a / b if a is not None and b else None

    def missing(**parts):
        return ", ".join(f"no {k.replace('_', ' ')}" for k, v in parts.items() if v is None)

    out = [
        target(f"N={n} cold build, no charts: ours/MkDocs <= 1/3", ratio(cold_plain, peers["mkdocs"]),
               1 / 3, "x", missing(our_time=cold_plain, mkdocs_time=peers["mkdocs"])),
        target(f"N={n} cold build, no charts: ours/Pelican <= 1/3",
               ratio(cold_plain, peers["pelican"]), 1 / 3, "x",
               missing(our_time=cold_plain, pelican_time=peers["pelican"])),
        target(f"N={n} cold build, no charts: ours/Hugo <= 2", ratio(cold_plain, peers["hugo"]), 2,
               "x", missing(our_time=cold_plain, hugo_time=peers["hugo"])),
        target(f"N={n} no-op rebuild faster than Hugo's cold build (s)", noop, peers["hugo"],
               " s", missing(our_time=noop, hugo_time=peers["hugo"])),
        target(f"N={n} rebuild after editing one report < 1/10 of our cold build (s)", edit,
               cold_main / 10 if cold_main else None, " s", missing(our_time=edit, cold_time=cold_main)),
    ]
    shipped = res.get("shipped", {})
    s_cold = shipped.get("cold", {}).get("median_s")
    s_noop = shipped.get("noop", {}).get("median_s")
    out.append(target(f"shipped site cold build, all charts <= {SHIPPED_COLD_LIMIT:g} s", s_cold,
                      SHIPPED_COLD_LIMIT, " s"))
    out.append(target("shipped site no-op rebuild < 1/5 of its cold build (s)", s_noop,
                      s_cold / 5 if s_cold else None, " s"))
    peak = max((v["peak_mb"] for v in main.values() if isinstance(v, dict) and "peak_mb" in v),
               default=None)
    out.append(target(f"N={n} peak memory < 500 MB", peak, 500, " MB"))
    if 100 in sizes and 1000 in sizes:
        growth = res["ours"]["1000"]["main"]["cold"]["median_s"] / res["ours"]["100"]["main"]["cold"]["median_s"]
        out.append(target("linear growth: cold time(1000)/time(100) <= 10", growth, 10, "x"))
    else:
        out.append(target("linear growth: cold time(1000)/time(100) <= 10", None, 10,
                          note="needs --sizes with 100 and 1000"))
    return out


def fmt_s(value) -> str:
    return "–" if value is None else f"{value:.2f}"


def comparison_rows(res: dict, measure: str) -> list[str]:
    """Table rows of the no-charts cold builds, ours against each peer, by one measure."""
    rows = []
    for n in sorted(res["ours"], key=int):
        ours = res["ours"][n].get("nocharts", {}).get("cold", {}).get(measure)
        peers = [res["peers"].get(p, {}).get(n, {}).get("cold", {}).get(measure) for p in PEERS]
        ratios = [f"{ours / p:.2f}" if ours is not None and p else "–" for p in peers]
        rows.append(f"| {n} | {fmt_s(ours)} | " + " | ".join(fmt_s(p) for p in peers) + " | "
                    + " | ".join(ratios) + " |")
    return rows


def markdown(res: dict) -> str:
    env, s = res["environment"], res["settings"]
    lines = [
        "# Benchmark results",
        "",
        f"{env['date']} · {env['machine']} · {env['cpus']} CPUs · Python {env['python']} · "
        f"commit {env['commit']}{' (dirty tree)' if env['tree_dirty'] else ''}"
        + (" · **quick run (shortened reports, one run)**" if s["quick"] else ""),
        "",
        "Peers: " + ("; ".join(f"{k} `{v}`" for k, v in res["peer_versions"].items()) or "none"),
        "",
        f"Load average (1 min) at start {env.get('load_start', '?')}, at end {env.get('load_end', '?')}: "
        "other processes on the machine lengthen wall times; results.json also has CPU times.",
        "",
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
    lines += ["", "The same builds in CPU time (user + system, seconds; Hugo uses both cores), which "
              "other load on the machine disturbs less than wall time:", "",
              "| N | ours | Hugo | MkDocs | Pelican | ours/Hugo | ours/MkDocs | ours/Pelican |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += comparison_rows(res, "median_cpu_s")
    lines += ["", "## Our generator" + (" (with charts)" if s["charts"] else ""), "",
              "| site | pages | cold | no-op | edit one report | edit one result | peak memory (MB) |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for n in sorted(res["ours"], key=int):
        m = res["ours"][n].get("main", {})
        if not m:
            continue
        peak = max((v["peak_mb"] for v in m.values() if isinstance(v, dict) and "peak_mb" in v),
                   default=None)
        lines.append(f"| N={n} | {m.get('pages', '–')} | "
                     + " | ".join(fmt_s(m.get(k, {}).get("median_s"))
                                  for k in ("cold", "noop", "edit_report", "edit_data"))
                     + f" | {'–' if peak is None else f'{peak:.0f}'} |")
    sh = res.get("shipped", {})
    if sh:
        peak = max((v["peak_mb"] for v in sh.values() if isinstance(v, dict) and "peak_mb" in v),
                   default=None)
        lines.append(f"| shipped site ({sh.get('svg_files', 0)} SVG charts) | {sh.get('pages', '–')} | "
                     f"{fmt_s(sh.get('cold', {}).get('median_s'))} | {fmt_s(sh.get('noop', {}).get('median_s'))} "
                     f"| – | – | {'–' if peak is None else f'{peak:.0f}'} |")
    lines += ["", "## Targets", "", "| target | measured | limit | verdict |", "|---|---:|---:|---|"]
    for t in res["targets"]:
        lines.append(f"| {t['target']} | {fmt_s(t['value']) if t['value'] is not None else '–'} | "
                     f"{fmt_s(t['limit']) if t['limit'] is not None else '–'} | {t['verdict']} |")
    if res["errors"]:
        lines += ["", "## Failures", ""] + [f"- {e.splitlines()[0]}" for e in res["errors"]]
    return "\n".join(lines) + "\n"


# ---- main ----------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default=None, help="report counts, comma-separated (default 100,1000)")
    p.add_argument("--runs", type=int, default=3, help="runs per measurement, median reported")
    p.add_argument("--out", type=Path, default=None,
                   help="results JSON (default bench/results.json; quick: bench/work/quick/results.json);"
                        " the Markdown table goes beside it with .md")
    p.add_argument("--quick", action="store_true",
                   help="smoke test: one run, short reports (200 words), results under bench/work/quick/")
    p.add_argument("--peers", default=",".join(PEERS), help="which peers to build (default all; '' for none)")
    p.add_argument("--charts", choices=("auto", "yes", "no"), default="auto",
                   help="one ```chart block per report: auto = when docs/content-format.md has a Charts section")
    p.add_argument("--shipped", type=Path, default=ROOT / "content",
                   help="the shipped site's content folder (default: the repo's content/)")
    p.add_argument("--live", action="store_true",
                   help="run the working tree's build.py, not a snapshot taken at the start")
    args = p.parse_args(argv)
    args.sizes = [int(x) for x in (args.sizes or "100,1000").split(",") if x.strip()]
    args.peers = [x.strip() for x in args.peers.split(",") if x.strip()]
    bad = [x for x in args.peers if x not in PEERS]
    if bad:
        p.error(f"unknown peer {bad[0]} (known: {', '.join(PEERS)})")
    if args.quick:
        args.runs = 1
    if args.runs < 1:
        p.error("--runs must be at least 1")
    if args.out is None:
        args.out = (WORK / "quick" if args.quick else BENCH) / "results.json"
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    WORK.mkdir(parents=True, exist_ok=True)
    global CODE
    CODE = ROOT if args.live else snapshot_code()
    copy_shipped(args.shipped)
    charts = {"yes": True, "no": False}.get(args.charts, charts_documented())
    words = 200 if args.quick else 800
    errors: list[str] = []

    def failed(exc: Exception) -> None:
        errors.append(str(exc))
        log(f"ERROR: {exc}")

    res = {"environment": environment(), "peer_versions": {},
           "settings": {"sizes": args.sizes, "runs": args.runs, "quick": args.quick,
                        "words": words, "charts": charts, "peers": args.peers,
                        "systems": 20, "benchmarks": 3, "results": 60,
                        "code": "working tree" if args.live else
                                "snapshot of the working tree (build.py, sitegen/, templates/) at the start"},
           "ours": {}, "peers": {}, "shipped": {}, "targets": [], "errors": errors}
    log(f"benchmark: sizes {args.sizes}, {args.runs} run(s), charts {'on' if charts else 'off'}"
        f"{' (quick)' if args.quick else ''}; {res['environment']['machine']}, "
        f"{res['environment']['cpus']} CPUs")

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

    i18n = WORK / "shipped" / "content" / "i18n"   # the interface strings, as copied at the start
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
                continue       # not one good run: the failure is in `errors`
            if isinstance(tool, OurSite):
                ours[key] = summarise_ours(samples)
            else:
                res["peers"].setdefault(key, {})[str(n)] = {
                    "pages": samples[-1]["pages"], "cold": summary(samples)}
            if key in broken:
                where = ours[key] if isinstance(tool, OurSite) else res["peers"][key][str(n)]
                where["incomplete"] = "a run failed; the medians are of the runs before it"
        if not charts and "main" in ours:
            # Without chart blocks the main site is the no-charts comparison point itself.
            ours["nocharts"] = ours["main"]

    log(f"shipped site: {args.shipped}")
    try:
        res["shipped"] = measure_shipped(args.runs)
    except (BuildFailed, OSError) as exc:
        failed(exc)

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
    log(f"targets: {sum(1 for t in res['targets'] if t['met'])} met, {len(missed)} missed, "
        f"{sum(1 for t in res['targets'] if t['met'] is None)} not measured")
    if errors:
        log(f"{len(errors)} failure(s): see above and the 'errors' list in {args.out}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
