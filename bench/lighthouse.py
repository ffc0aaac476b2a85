#!/usr/bin/env python3
"""Lighthouse (mobile) on the largest page of each kind, served gzip-compressed by a local server.

    python bench/lighthouse.py [--site DIR] [--langs en,zh,zh-hant,root] [--kinds all|home,report,...]

Builds content/ (or takes --site, an already built output folder), serves it from 127.0.0.1
with gzip on text responses, picks the largest HTML page (in bytes) of each page kind in each
language folder and runs Lighthouse on it, one page at a time, with Debian's Chromium. Writes
bench/lighthouse.json (scores, and the failing audits of each category below its target) and
bench/lighthouse.md (the table, also printed). Targets: performance >= 95, accessibility,
best practices 100, SEO 100 on the pages meant to be indexed (not a 404 page, not a page with
<meta name="robots" content="noindex">). Lighthouse is installed on first use, at the pinned
version, into .cache/lighthouse/ (git-ignored; not in package.json, so CI never installs it).
Exit 0 whether or not the targets are met; 1 when the benchmark cannot run. See bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import http.client
import http.server
import json
import mimetypes
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

# 12.8.2 is the newest Lighthouse that runs on this machine's Node 20 (13.x needs Node >= 22.19).
LIGHTHOUSE_VERSION = "12.8.2"
LIGHTHOUSE_DIR = ROOT / ".cache" / "lighthouse"
REPORTS = BENCH / "work" / "lighthouse"  # each page's full Lighthouse report (git-ignored)
CHROMIUM = "/usr/bin/chromium"
# As root, in a container without outside network: no sandbox, no GPU, no /dev/shm, and no
# background or component-update traffic.
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage "
    "--disable-background-networking --disable-component-update --no-first-run"
)
LIGHTHOUSE_TIMEOUT = 300  # seconds for one page

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CATEGORY_NAMES = {
    "performance": "Performance",
    "accessibility": "Accessibility",
    "best-practices": "Best practices",
    "seo": "SEO",
}
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
PASSED = 0.9  # an audit scoring below this is listed as failing

LANGS = ("en", "zh", "zh-hant", "root")  # "root": the language chooser and root 404
ALL_KINDS_LANGS = ("en", "root")  # by default every kind here...
SUBSET_KINDS = ("home", "leaderboard", "result", "report", "claims")  # ...and these elsewhere

# Page kinds by path inside a language folder, first match wins.
KIND_RULES = (
    (r"index\.html", "home"),
    (r"404\.html", "404"),
    (r"(glossary|methodology|downloads|compare)\.html", r"\1"),
    (r"compare/index\.html", "compare-index"),
    (r"compare/[^/]+\.html", "compare-pair"),
    (r"reports/index\.html", "report-index"),
    (r"reports/[^/]+\.html", "report"),
    (r"systems/index\.html", "system-index"),
    (r"systems/[^/]+\.html", "system"),
    (r"benchmarks/index\.html", "benchmark-index"),
    (r"benchmarks/[^/]+\.html", "benchmark"),
    (r"benchmarks/[^/]+/[^/]+\.html", "leaderboard"),
    (r"rounds/index\.html", "round-index"),
    (r"rounds/changes\.html", "round-changes"),
    (r"rounds/[^/]+\.html", "round"),
    (r"results/index\.html", "result-index"),
    (r"results/[^/]+\.html", "result"),
    (r"submitters/index\.html", "submitter-index"),
    (r"submitters/[^/]+\.html", "submitter"),
    (r"submitters/[^/]+/[^/]+\.html", "submitter-round"),
    (r"accelerators/index\.html", "accelerator-index"),
    (r"accelerators/[^/]+\.html", "accelerator"),
    (r"accelerators/[^/]+/[^/]+\.html", "accelerator-round"),
    (r"claims/index\.html", "claims"),
    (r"sources/index\.html", "sources"),
    (r"editors/status\.html", "status"),
)
ROOT_KINDS = {"index.html": "chooser", "404.html": "404"}
KIND_ORDER = (
    "chooser",
    "home",
    "report-index",
    "report",
    "single-report",
    "benchmark-index",
    "benchmark",
    "leaderboard",
    "round-index",
    "round",
    "round-changes",
    "result-index",
    "result",
    "system-index",
    "system",
    "submitter-index",
    "submitter",
    "submitter-round",
    "accelerator-index",
    "accelerator",
    "accelerator-round",
    "compare",
    "compare-index",
    "compare-pair",
    "claims",
    "sources",
    "glossary",
    "methodology",
    "downloads",
    "status",
    "404",
)

COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".csv"}
NOINDEX = re.compile(rb"""<meta\s+name=["']?robots["']?\s+content=["'][^"']*noindex""", re.I)


class CannotRun(Exception):
    pass


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---- Lighthouse and Chromium ---------------------------------------------------------------------


def installed_version(folder: Path) -> str | None:
    try:
        package = json.loads((folder / "node_modules" / "lighthouse" / "package.json").read_text())
    except (OSError, ValueError):
        return None
    return package.get("version")


def ensure_lighthouse(folder: Path, version: str) -> Path:
    """The lighthouse command, installed into folder at version when it is not there yet."""
    command = folder / "node_modules" / ".bin" / "lighthouse"
    if installed_version(folder) == version and command.exists():
        return command
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise CannotRun("node and npm are needed to install Lighthouse (apt-get install nodejs npm)")
    log(f"installing lighthouse@{version} into {folder} ...")
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [
            npm,
            "install",
            "--prefix",
            str(folder),
            f"lighthouse@{version}",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 or installed_version(folder) != version or not command.exists():
        raise CannotRun(f"npm install lighthouse@{version} failed:\n{done.stdout}{done.stderr}")
    return command


def chromium_version(chromium: str) -> str:
    if not os.access(chromium, os.X_OK):
        raise CannotRun(f"{chromium} not found (apt-get install chromium)")
    done = subprocess.run([chromium, "--version"], capture_output=True, text=True, timeout=60)
    return done.stdout.strip() or "unknown"


# ---- the site ------------------------------------------------------------------------------------


def build_site(content: Path, out: Path) -> float:
    """python build.py --content CONTENT --out OUT -q; the seconds it took."""
    log(f"building {content} into {out} ...")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "--content", str(content), "--out", str(out), "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise CannotRun(
            f"the build failed (exit {done.returncode}):\n"
            + "\n".join((done.stdout + done.stderr).splitlines()[-25:])
        )
    return time.perf_counter() - started


def page_kind(lang: str, path: str) -> str | None:
    """The kind of the page at path (relative to the language folder), None for a kind not
    known here (listed as 'other:<path>' by pick_pages so that new kinds are seen)."""
    if lang == "root":
        return ROOT_KINDS.get(path)
    for pattern, kind in KIND_RULES:
        match = re.fullmatch(pattern, path)
        if match:
            return match.expand(kind)
    return None


def language_pages(site: Path, lang: str):
    """(path relative to the site, path relative to the language folder) of its HTML pages;
    a language's standalone report copies (single/<lang>/) are kind 'single-report'."""
    if lang == "root":
        for page in sorted(site.glob("*.html")):
            yield page.name, page.name
        return
    for page in sorted((site / lang).rglob("*.html")):
        yield page.relative_to(site).as_posix(), page.relative_to(site / lang).as_posix()
    for page in sorted((site / "single" / lang).glob("*.html")):
        yield page.relative_to(site).as_posix(), "single/" + page.name


def pick_pages(site: Path, langs, kinds_for) -> tuple[list[dict], list[str]]:
    """The largest page of each kind in each language (ties: the first path), limited to
    kinds_for(lang) (None: all); and the pages of no known kind."""
    picked: list[dict] = []
    unknown: list[str] = []
    for lang in langs:
        if lang != "root" and not (site / lang).is_dir():
            raise CannotRun(f"{site / lang} is not a folder: no language {lang!r} in this site")
        largest: dict[str, dict] = {}
        for rel, inside in language_pages(site, lang):
            kind = "single-report" if inside.startswith("single/") else page_kind(lang, inside)
            if kind is None:
                unknown.append(rel)
                continue
            size = (site / rel).stat().st_size
            if kind not in largest or size > largest[kind]["bytes"]:
                largest[kind] = {"path": rel, "kind": kind, "lang": lang, "bytes": size}
        wanted = kinds_for(lang)
        for kind in sorted(largest, key=lambda k: (KIND_ORDER.index(k), k)):
            if wanted is None or kind in wanted:
                picked.append(largest[kind])
    return picked, unknown


def indexed(site: Path, page: dict) -> bool:
    """Meant to be indexed: not a 404 page and no robots noindex."""
    return page["kind"] != "404" and not NOINDEX.search((site / page["path"]).read_bytes())


# ---- the local server ----------------------------------------------------------------------------


def file_for(site: Path, url_path: str) -> Path | None:
    """The file a URL path names (a folder: its index.html), None when there is none."""
    parts = [p for p in urllib.parse.unquote(urllib.parse.urlsplit(url_path).path).split("/") if p]
    if any(p in (".", "..") or "\\" in p for p in parts):
        return None
    path = site.joinpath(*parts)
    if path.is_dir():
        path = path / "index.html"
    return path if path.is_file() else None


def not_found_page(site: Path, url_path: str) -> Path | None:
    """What a static host answers a missing page with: the language's 404 page, else the root one."""
    first = urllib.parse.urlsplit(url_path).path.strip("/").split("/")[0]
    if first and (site / first / "404.html").is_file():
        return site / first / "404.html"
    return site / "404.html" if (site / "404.html").is_file() else None


def content_type(path: Path) -> str:
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if path.suffix == ".js":
        kind = "text/javascript"
    if kind.startswith("text/") or path.suffix in (".json", ".svg", ".xml"):
        kind += "; charset=utf-8"
    return kind


def make_handler(site: Path):
    """A request handler serving site, gzip-compressing text files for clients that accept it
    (each file compressed once, kept while its size and mtime are unchanged)."""
    compressed: dict[Path, tuple] = {}
    lock = threading.Lock()

    def gzipped(path: Path, data: bytes) -> bytes:
        info = path.stat()
        key = (info.st_size, info.st_mtime_ns)
        with lock:
            known = compressed.get(path)
        if known and known[0] == key:
            return known[1]
        packed = gzip.compress(data, compresslevel=6, mtime=0)
        with lock:
            compressed[path] = (key, packed)
        return packed

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            self.respond(with_body=True)

        def do_HEAD(self):
            self.respond(with_body=False)

        def respond(self, with_body: bool) -> None:
            status = 200
            path = file_for(site, self.path)
            if path is None:
                status = 404
                path = not_found_page(site, self.path)
            data = path.read_bytes() if path else b"Not found\n"
            kind = content_type(path) if path else "text/plain; charset=utf-8"
            gzip_it = (
                path is not None
                and path.suffix in COMPRESSED
                and "gzip" in self.headers.get("Accept-Encoding", "")
            )
            if gzip_it:
                data = gzipped(path, data)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            if path is not None and path.suffix in COMPRESSED:
                self.send_header("Vary", "Accept-Encoding")
            if gzip_it:
                self.send_header("Content-Encoding", "gzip")
            self.end_headers()
            if with_body:
                self.wfile.write(data)

        def log_message(self, format, *args):  # quiet
            pass

    return Handler


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def deployed_copy(content: Path, folder: Path, base_url: str) -> Path:
    """A copy of the content folder whose site.yaml sets `base_url` (as a deployed site's
    does: absolute canonical and hreflang links, a sitemap); the original is not touched."""
    import yaml

    copy = folder / "content"
    shutil.copytree(content, copy)
    config = yaml.safe_load((copy / "site.yaml").read_text("utf-8"))
    config["base_url"] = base_url
    (copy / "site.yaml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), "utf-8")
    return copy


def start_server(site: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), make_handler(site))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def check_gzip(port: int, path: str) -> int:
    """Fetch path as a browser would; the compressed size. CannotRun unless it came gzipped."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/" + path, headers={"Accept-Encoding": "gzip, deflate, br"})
        response = connection.getresponse()
        body = response.read()
        if response.status != 200 or response.getheader("Content-Encoding") != "gzip":
            raise CannotRun(
                f"the local server did not send /{path} gzipped "
                f"({response.status}, {response.getheader('Content-Encoding')})"
            )
        gzip.decompress(body)
        return len(body)
    finally:
        connection.close()


# ---- one Lighthouse run --------------------------------------------------------------------------


def run_lighthouse(command: Path, url: str, report: Path, chromium: str) -> dict:
    """Lighthouse's JSON report on url (mobile), or {"runtimeError": ...} when it failed."""
    env = {**os.environ, "CHROME_PATH": chromium}
    cmd = [
        str(command),
        url,
        "--form-factor=mobile",
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        f"--chrome-flags={CHROME_FLAGS}",
        "--only-categories=" + ",".join(CATEGORIES),
    ]
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=LIGHTHOUSE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"runtimeError": {"code": "TIMEOUT", "message": f"over {LIGHTHOUSE_TIMEOUT} s"}}
    try:
        result = json.loads(report.read_text())
    except (OSError, ValueError):
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-10:])
        return {"runtimeError": {"code": f"EXIT {done.returncode}", "message": tail}}
    return result


def audit_examples(audit: dict, origin: str, count: int = 3) -> list[str]:
    """A few of the elements or resources a failing audit lists, as short text (the local
    server's origin, whose port changes from run to run, left out of URLs)."""
    examples = []
    for item in ((audit.get("details") or {}).get("items") or [])[:count]:
        if not isinstance(item, dict):
            continue
        node = item.get("node") or item.get("source") or {}
        text = (node.get("snippet") if isinstance(node, dict) else None) or str(
            item.get("url") or ""
        ).replace(origin, "")
        reasons = [
            sub.get("reason")
            for sub in (item.get("subItems") or {}).get("items", [])
            if isinstance(sub, dict) and sub.get("reason")
        ]
        if isinstance(node, dict) and node.get("explanation"):
            reasons.append(node["explanation"].splitlines()[-1].strip())
        text = " ".join(str(text).split())[:160]
        if item.get("node") and node.get("selector"):  # which element, e.g. which button
            label = " ".join(str(node.get("nodeLabel") or "").split())[:60]
            text += f" at `{node['selector']}`" + (f" “{label}”" if label else "")
        examples.append(text + (f" ({'; '.join(reasons)})" if reasons else ""))
    return examples


def failing_audits(result: dict, category: str, origin: str) -> list[dict]:
    """The category's audits scoring below PASSED, the weighted ones (its metrics) first."""
    audits = result.get("audits", {})
    found = []
    for ref in result["categories"][category].get("auditRefs", []):
        audit = audits.get(ref["id"], {})
        score = audit.get("score")
        if score is None or score >= PASSED:
            continue
        found.append(
            {
                "id": ref["id"],
                "title": audit.get("title", ""),
                "score": score,
                "weight": ref.get("weight", 0),
                "displayValue": audit.get("displayValue", ""),
                "items": len((audit.get("details") or {}).get("items") or []),
                "examples": audit_examples(audit, origin),
            }
        )
    found.sort(key=lambda a: (-a["weight"], a["score"], a["id"]))
    return found


def page_result(page: dict, result: dict, origin: str, is_indexed: bool, seconds: float) -> dict:
    """Scores (0-100), targets met (None: not judged) and failing audits of one page."""
    entry = {
        **page,
        "indexed": is_indexed,
        "seconds": round(seconds, 1),
        "scores": {},
        "met": {},
        "failing": {},
        "error": None,
        "warnings": [],
    }
    if result.get("runtimeError") or "categories" not in result:
        error = result.get("runtimeError") or {}
        entry["error"] = f"{error.get('code', 'NO_RESULT')}: {error.get('message', '')}".strip()
        return entry
    entry["warnings"] = result.get("runWarnings", [])
    entry["lighthouse"] = result.get("lighthouseVersion")
    for category in CATEGORIES:
        score = result["categories"][category].get("score")
        value = None if score is None else round(score * 100)
        entry["scores"][category] = value
        judged = category != "seo" or is_indexed
        met = None if not judged else (value is not None and value >= TARGETS[category])
        entry["met"][category] = met
        if met is False:
            entry["failing"][category] = failing_audits(result, category, origin)
    entry["metrics"] = {
        a: result["audits"][a].get("displayValue")
        for a in (
            "first-contentful-paint",
            "largest-contentful-paint",
            "total-blocking-time",
            "cumulative-layout-shift",
            "speed-index",
        )
        if a in result.get("audits", {})
    }
    return entry


# ---- the report ----------------------------------------------------------------------------------


def cell(entry: dict, category: str) -> str:
    value = entry["scores"].get(category)
    if value is None:
        return "–"
    met = entry["met"].get(category)
    return f"{value}" + ("" if met is None else " ✓" if met else " ✗")


def all_met(entry: dict) -> str:
    if entry["error"]:
        return "error"
    return "yes" if all(m is not False for m in entry["met"].values()) else "no"


def table(entries: list[dict]) -> list[str]:
    lines = [
        "| page | kind | lang | KB (gzip) | performance | accessibility | best practices "
        "| SEO | targets met |",
        "|---|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for e in entries:
        seo = cell(e, "seo") + ("" if e["indexed"] else " (not indexed)")
        kb = f"{e['bytes'] / 1024:.0f} ({e['gzip_bytes'] / 1024:.0f})"
        lines.append(
            f"| {e['path']} | {e['kind']} | {e['lang']} | {kb} | {cell(e, 'performance')} "
            f"| {cell(e, 'accessibility')} | {cell(e, 'best-practices')} | {seo} "
            f"| {all_met(e)} |"
        )
    return lines


def audit_summary(entries: list[dict]) -> list[str]:
    """One row per failing audit: on how many pages it fails, with one example."""
    seen: dict[tuple, dict] = {}
    for e in entries:
        for category, audits in e["failing"].items():
            for a in audits:
                row = seen.setdefault(
                    (category, a["id"]),
                    {"title": a["title"], "pages": [], "weight": a["weight"], "example": ""},
                )
                row["pages"].append(e["path"])
                if not row["example"] and a["examples"] and a["examples"][0]:
                    row["example"] = a["examples"][0]
    if not seen:
        return []
    rows = sorted(
        seen.items(),
        key=lambda kv: (CATEGORIES.index(kv[0][0]), not kv[1]["weight"], -len(kv[1]["pages"]), kv[0][1]),
    )
    lines = [
        "",
        "## Failing audits",
        "",
        "In the categories below target, on how many of the pages measured each audit "
        "fails (performance: a weight of 0 is a diagnostic, not counted in the score).",
        "",
        "| category | audit | title | weight | pages | example |",
        "|---|---|---|---:|---:|---|",
    ]
    for (category, audit_id), row in rows:
        example = row["example"].replace("|", "\\|")
        if len(example) > 120:
            example = example[:117] + "…"
        lines.append(
            f"| {CATEGORY_NAMES[category]} | `{audit_id}` | {row['title']} "
            f"| {row['weight']} | {len(row['pages'])} | {example} |"
        )
    return lines


def markdown(run: dict) -> str:
    entries = run["pages"]
    met = sum(all_met(e) == "yes" for e in entries)
    lines = [
        "# Lighthouse (mobile)",
        "",
        f"{run['date']} · {run['machine']} · commit {run['commit']}"
        + (" (with uncommitted changes to the generator, templates or content)" if run["dirty"] else "")
        + f" · Lighthouse {run['lighthouse']} · {run['chromium']}",
        "",
        f"Site: {run['site']}. Served from 127.0.0.1 by the script's own static server, "
        "gzip on text responses. The largest HTML page of each kind in each language "
        "folder; default mobile settings (simulated slow 4G, 4x CPU slowdown, "
        "Moto G Power screen). One Lighthouse run per page.",
        "",
        "Targets: performance ≥ 95, accessibility 100, best practices 100, SEO 100 on pages "
        "meant to be indexed (SEO is not judged on a 404 page or a page with robots "
        "noindex). ✓ met, ✗ missed.",
        "",
        f"Load average (1 min) {run['load_average'][0]} at the start, "
        f"{run['load_average'][1]} at the end: other work on the machine lowers "
        "performance scores (Lighthouse slows the CPU by a fixed factor on top of it).",
        "",
        f"**{met} of {len(entries)} pages meet every target.** "
        f"Total time {run['elapsed_s'] / 60:.1f} min"
        + (f" (build {run['build_s']:.0f} s)" if run.get("build_s") else "")
        + ".",
        "",
    ]
    lines += table(entries)
    lines += audit_summary(entries)
    missed = [e for e in entries if e["failing"] or e["error"]]
    if missed:
        lines += [
            "",
            "## Missed targets, page by page",
            "",
            "Audits scoring below 0.9 in each category below its target: first the "
            "metrics the performance score is made of (with their weight), then the "
            "diagnostics, which do not count in the score. `items`: how many elements or "
            "resources the audit lists (a few are in lighthouse.json; every page's full "
            "report is in bench/work/lighthouse/).",
            "",
        ]
        for e in missed:
            lines.append(f"### {e['path']} ({e['kind']}, {e['lang']})")
            lines.append("")
            if e["error"]:
                lines += [f"Lighthouse failed: {e['error']}", ""]
                continue
            for category, audits in e["failing"].items():
                lines.append(
                    f"- {CATEGORY_NAMES[category]} {e['scores'][category]} (target {TARGETS[category]}):"
                )
                for a in audits:
                    extra = [x for x in (a["displayValue"], f"{a['items']} items" if a["items"] else "") if x]
                    if category == "performance" and a["weight"]:
                        extra.insert(0, f"metric, weight {a['weight']}")
                    lines.append(
                        f"  - `{a['id']}` {a['title']} (score {a['score']:.2f}"
                        + (f"; {', '.join(extra)}" if extra else "")
                        + ")"
                    )
            lines.append("")
    if run["unknown"]:
        lines += [
            "",
            "Pages of no known kind (not measured; add a rule in KIND_RULES): "
            + ", ".join(run["unknown"][:20])
            + ("…" if len(run["unknown"]) > 20 else ""),
        ]
    return "\n".join(lines).rstrip() + "\n"


def git_state(root: Path) -> tuple[str, bool]:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "build.py", "sitegen", "templates", "content"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
        return commit or "unknown", bool(dirty)
    except OSError:
        return "unknown", False


# ---- main ----------------------------------------------------------------------------------------


def kinds_chooser(kinds: str | None):
    """kinds_for(lang): the kinds to measure in lang (None: all)."""
    if kinds is None:
        return lambda lang: None if lang in ALL_KINDS_LANGS else set(SUBSET_KINDS)
    if kinds == "all":
        return lambda lang: None
    wanted = {k.strip() for k in kinds.split(",") if k.strip()}
    return lambda lang: wanted


def measure(
    site: Path,
    site_label: str,
    langs,
    kinds_for,
    reports: Path,
    lighthouse: Path,
    chromium: str,
    build_s: float | None,
    started: float,
    port: int = 0,
) -> dict:
    load_start = os.getloadavg()[0]
    pages, unknown = pick_pages(site, langs, kinds_for)
    if not pages:
        raise CannotRun("no pages of the kinds asked for")
    for rel in unknown:
        log(f"warning: no kind for {rel}")
    server = start_server(site, port)
    port = server.server_address[1]
    entries = []
    try:
        for page in pages:
            page["gzip_bytes"] = check_gzip(port, page["path"])
        reports.mkdir(parents=True, exist_ok=True)
        for number, page in enumerate(pages, 1):
            origin = f"http://127.0.0.1:{port}"
            # the language chooser as readers and search engines reach it: the site's root
            url = f"{origin}/" if page["path"] == "index.html" else f"{origin}/{page['path']}"
            log(f"[{number}/{len(pages)}] {page['lang']} {page['kind']}: {page['path']}")
            report = reports / f"{page['lang']}-{page['kind']}.json"
            report.unlink(missing_ok=True)
            t0 = time.perf_counter()
            result = run_lighthouse(lighthouse, url, report, chromium)
            entry = page_result(page, result, origin, indexed(site, page), time.perf_counter() - t0)
            entries.append(entry)
            scores = " ".join(f"{c}={entry['scores'].get(c)}" for c in CATEGORIES)
            log(f"    {entry['error'] or scores} ({entry['seconds']} s)")
    finally:
        server.shutdown()
        server.server_close()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.system()} {platform.machine()} · {os.cpu_count()} CPUs",
        "site": site_label,
        "lighthouse": LIGHTHOUSE_VERSION,
        "chromium": chromium_version(chromium),
        "chrome_flags": CHROME_FLAGS,
        "targets": TARGETS,
        "build_s": None if build_s is None else round(build_s, 1),
        "elapsed_s": round(time.perf_counter() - started, 1),
        "load_average": [round(load_start, 2), round(os.getloadavg()[0], 2)],
        "unknown": unknown,
        "pages": entries,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--site",
        type=Path,
        metavar="DIR",
        help="an already built output folder (default: build content/ into a temporary one)",
    )
    p.add_argument(
        "--content",
        type=Path,
        default=ROOT / "content",
        metavar="DIR",
        help="the content to build when --site is not given (default content/)",
    )
    p.add_argument(
        "--langs",
        default=",".join(LANGS),
        help="language folders, comma-separated; 'root' is the chooser and root 404 "
        f"(default {','.join(LANGS)})",
    )
    p.add_argument(
        "--kinds",
        default=None,
        help="page kinds, comma-separated, or 'all' (default: all in "
        f"{' and '.join(ALL_KINDS_LANGS)}, {','.join(SUBSET_KINDS)} elsewhere)",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=BENCH / "lighthouse.json",
        help="the JSON results (the Markdown table goes beside it, .md)",
    )
    p.add_argument("--chromium", default=CHROMIUM, help=f"the browser (default {CHROMIUM})")
    p.add_argument(
        "--no-deployed",
        dest="deployed",
        action="store_false",
        help="build content/ as it is; by default a copy with base_url set to the "
        "local server's address is built (absolute canonical and hreflang "
        "links, a sitemap: the site as deployed)",
    )
    args = p.parse_args(argv)
    started = time.perf_counter()
    langs = [lang.strip() for lang in args.langs.split(",") if lang.strip()]
    commit, dirty = git_state(ROOT)  # before the build: the state that was built
    try:
        lighthouse = ensure_lighthouse(LIGHTHOUSE_DIR, LIGHTHOUSE_VERSION)
        chromium_version(args.chromium)
        with tempfile.TemporaryDirectory(prefix="lighthouse-site-") as tmp:
            build_s, port = None, 0
            if args.site:
                site = args.site.resolve()
                if not (site / "index.html").is_file():
                    raise CannotRun(f"{site} has no index.html: not a built site")
                label = f"`{args.site}` (built beforehand)"
            else:
                site = Path(tmp) / "output"
                content = args.content.resolve()
                shown = content.relative_to(ROOT) if content.is_relative_to(ROOT) else content
                label = f"`{shown}/` built with `python build.py --out <tmp>/output -q`"
                if args.deployed:
                    port = free_port()
                    content = deployed_copy(content, Path(tmp), f"http://127.0.0.1:{port}/")
                    label += (
                        ", from a copy whose site.yaml sets base_url to the local server's"
                        " address, as a deployed site does"
                    )
                build_s = build_site(content, site)
            run = measure(
                site,
                label,
                langs,
                kinds_chooser(args.kinds),
                REPORTS,
                lighthouse,
                args.chromium,
                build_s,
                started,
                port,
            )
    except CannotRun as error:
        log(f"error: {error}")
        return 1
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    run = {"commit": commit, "dirty": dirty, **run}
    if all(e["error"] for e in run["pages"]):
        log("error: Lighthouse failed on every page")
        code = 1
    else:
        code = 0
    text = markdown(run)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n")
    args.out.with_suffix(".md").write_text(text)
    print(text)
    log(f"wrote {args.out} and {args.out.with_suffix('.md')}")
    return code


if __name__ == "__main__":
    sys.exit(main())
