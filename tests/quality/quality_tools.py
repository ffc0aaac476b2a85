"""Helpers of the quality gates: finding external tools, the site's pages by kind.

External tools (Debian's chromium, Java, node_modules/axe-core, node_modules/vnu-jar) are
required through `require(tool)`: when one is missing the test fails under CI=true and is
skipped otherwise, so CI never passes by silently skipping a gate."""

from __future__ import annotations

import os
import shutil
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
ARTIFACTS = ROOT / "test-artifacts"

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
# Chromium takes the last --disable-features alone, so the tests' one repeats what Playwright
# disables and adds two: RenderDocument (a page load reuses its tab's frame instead of making a
# new one each time: about a fifth less CPU a load) and SpareRendererForSitePerProcess (no
# renderer process started ahead for a tab that may never come: about a tenth less for a new
# context). Figures: bench/README.md; test_tools.py checks that it keeps Playwright's.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
    "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,"
    "AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,"
    "AimEnabled,PreconnectToSearch,msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion"
)
# Chromium's shared memory goes to /dev/shm (a tmpfs) when it has room, by the rule of Debian's
# own chromium wrapper (/etc/chromium.d/dev-shm: 3.8 GB free), else to /tmp: Playwright asks
# for /tmp always (--disable-dev-shm-usage, left out of its defaults at launch and given here
# when needed). On an ext4 /tmp, making and deleting those files is a cost of every page load
# (bench/README.md).
DEV_SHM_ROOM = 4_080_218_931
PLAYWRIGHT_ARGS_LEFT_OUT = ["--disable-dev-shm-usage"]


def dev_shm_has_room(path: str = "/dev/shm") -> bool:
    try:
        stat = os.statvfs(path)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize >= DEV_SHM_ROOM


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    *([] if dev_shm_has_room() else ["--disable-dev-shm-usage"]),
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    f"--disable-features={PLAYWRIGHT_DISABLED_FEATURES},RenderDocument,SpareRendererForSitePerProcess",
]

TOOLS = {
    "chromium": "Debian's chromium at {path} (scripts/install.sh --browser)",
    "java": "a Java runtime on PATH (scripts/install.sh --browser)",
    "playwright": "the playwright Python package (scripts/install.sh)",
    "axe-core": "node_modules/axe-core (scripts/install.sh runs npm ci)",
    "vnu-jar": "node_modules/vnu-jar (scripts/install.sh runs npm ci)",
}


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _locate(tool: str) -> Path | None:
    if tool == "chromium":
        return CHROMIUM if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK) else None
    if tool == "java":
        found = shutil.which(os.environ.get("JAVA", "java"))
        return Path(found) if found else None
    if tool == "playwright":
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            return None
        return Path(playwright.sync_api.__file__)
    if tool == "axe-core":
        path = NODE_MODULES / "axe-core" / "axe.min.js"
    elif tool == "vnu-jar":
        path = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
    else:
        raise ValueError(f"unknown tool {tool!r}")
    return path if path.is_file() else None


def require(tool: str) -> Path:
    """The tool's path; when it is missing, fail under CI=true, skip otherwise."""
    path = _locate(tool)
    if path is None:
        message = f"missing {TOOLS[tool].format(path=CHROMIUM)}"
        if in_ci():
            pytest.fail(f"{message}; CI=true, so a missing tool is a failure", pytrace=False)
        pytest.skip(message)
    return path


# --- The site ---------------------------------------------------------------------------------


def html_pages(site: Path) -> list[str]:
    """Every HTML file of a built site, as sorted POSIX paths relative to the site."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html") if p.is_file())


def _first(site: Path, folder: str) -> str | None:
    """The first page in lang/folder/ other than its index (a report, a system, ...)."""
    pages = sorted(p.name for p in (site / folder).glob("*.html") if p.name != "index.html")
    return f"{folder}/{pages[0]}" if pages else None


def _first_leaderboard(site: Path, lang: str) -> str | None:
    folders = sorted(
        p for p in (site / lang / "benchmarks").glob("*") if p.is_dir() and any(p.glob("v*.html"))
    )
    if not folders:
        return None
    rounds = sorted(p.name for p in folders[0].glob("v*.html"))  # not an equal-scale page (at-<n>)
    return f"{folders[0].relative_to(site).as_posix()}/{rounds[0]}"


def _first_record_system(site: Path, lang: str) -> str | None:
    """The first official system description's page (systems/<round>/<slug>.html)."""
    folders = sorted(p for p in (site / lang / "systems").glob("v*") if p.is_dir())
    return _first(site, folders[0].relative_to(site).as_posix()) if folders else None


# The record's thousands of result and system pages and hundreds of leaderboards share a few
# templates: the browser visits every other page, and the first of each of these (links and
# HTML checks: all).


def browser_pages(site: Path) -> list[str]:
    """The pages a browser test opens one by one: all but most result and leaderboard pages."""
    keep = {
        PAGE_KINDS[kind](site, lang)
        for kind in ("result", "leaderboard", "at-scale", "submitter", "accelerator", "record-system")
        for lang in LANGS
    }
    return [
        rel
        for rel in html_pages(site)
        if rel in keep
        or not (
            rel.split("/")[1:2] == ["results"]
            or (rel.count("/") == 3 and rel.split("/")[1] == "systems")
            or (rel.count("/") == 3 and rel.split("/")[1] == "benchmarks")
            or (
                rel.count("/") >= 2
                and rel.split("/")[1] in ("submitters", "accelerators")
                and not rel.endswith("/index.html")
            )
        )
    ]


def one_of_each_kind(pages: list[str]) -> list[str]:
    """The first of `pages` (sorted) of each kind of page (the site's registry of kinds) in each
    language."""
    from sitegen.render.kinds import kind_of

    kinds, kept = set(), []
    for rel in pages:
        kind = kind_of(rel)
        assert kind is not None, f"{rel}: no kind of page claims it"
        key = (kind.name, rel.split("/")[1] if rel.startswith("single/") else rel.split("/")[0])
        if key not in kinds:
            kinds.add(key)
            kept.append(rel)
    return kept


# One page of every kind, per language; `None` from a finder means the site has none.
PAGE_KINDS = {
    "leaderboard": _first_leaderboard,
    "at-scale": lambda site, lang: next(
        (p.relative_to(site).as_posix() for p in sorted((site / lang / "benchmarks").glob("*/at-*.html"))),
        None,
    ),
    "result": lambda site, lang: _first(site, f"{lang}/results"),
    "round": lambda site, lang: next(
        (f"{lang}/rounds/{p.name}" for p in sorted((site / lang / "rounds").glob("v*.html"))), None
    ),
    "rounds-index": lambda site, lang: f"{lang}/rounds/index.html",
    "home": lambda site, lang: f"{lang}/index.html",
    "report": lambda site, lang: _first(site, f"{lang}/reports"),
    "reports-index": lambda site, lang: f"{lang}/reports/index.html",
    "system": lambda site, lang: _first(site, f"{lang}/systems"),
    "systems-index": lambda site, lang: f"{lang}/systems/index.html",
    "record-system": _first_record_system,
    "benchmark": lambda site, lang: _first(site, f"{lang}/benchmarks"),
    "benchmarks-index": lambda site, lang: f"{lang}/benchmarks/index.html",
    "claims": lambda site, lang: f"{lang}/claims/index.html",
    "sources": lambda site, lang: f"{lang}/sources/index.html",
    "glossary": lambda site, lang: f"{lang}/glossary.html",
    "methodology": lambda site, lang: f"{lang}/methodology.html",
    "404": lambda site, lang: f"{lang}/404.html",
    "submitters-index": lambda site, lang: f"{lang}/submitters/index.html",
    "submitter": lambda site, lang: _first(site, f"{lang}/submitters"),
    "accelerators-index": lambda site, lang: f"{lang}/accelerators/index.html",
    "accelerator": lambda site, lang: _first(site, f"{lang}/accelerators"),
    "compare-results": lambda site, lang: f"{lang}/compare.html",
    "explore": lambda site, lang: f"{lang}/explore.html",
    "record-changes": lambda site, lang: f"{lang}/rounds/changes.html",
}
LANGS = ("en", "zh", "zh-hant")  # as content/site.yaml defines them
HTML_LANG = {"en": "en", "zh": "zh-Hans", "zh-hant": "zh-Hant"}


def page_of_kind(site: Path, kind: str, lang: str) -> str:
    """The page of that kind, failing the test (not skipping) when the site has none."""
    rel = "index.html" if kind == "chooser" else PAGE_KINDS[kind](site, lang)
    if rel is None or not (site / rel).is_file():
        pytest.fail(f"the shipped site has no {kind} page in {lang} ({rel or f'{lang}/...'})", pytrace=False)
    return rel


# --- Pages loaded in a reused tab ---------------------------------------------------------------


@contextmanager
def tab_in(tabs: dict, context, url: str):
    """The page at `url`, loaded as a new document in the context's one tab (made on first use
    and kept in `tabs`, the module's `tabs` fixture): a new tab for every page made the
    browser's work about twice that of the loads themselves. The tab goes to about:blank first
    when `url` differs from its page by the #fragment alone (else there would be no load), and
    is closed when the test fails, so that the next test starts in a new one."""
    page = tabs.get(context)
    if page is None or page.is_closed():
        page = tabs[context] = context.new_page()
    try:
        if page.url.split("#")[0] == url.split("#")[0]:
            page.goto("about:blank")
        page.goto(url)
        yield page
    except BaseException:
        page.close()
        raise


# Resolves when every chart figure has been drawn (interactive, or its static SVG kept), checked
# every animation frame in the page itself: Playwright's wait_for_function first loads its own
# helper script into each new page, about 35 ms of the browser's CPU a page.
CHARTS_DRAWN = """(timeout) => new Promise((resolve, reject) => {
  const drawn = () => [...document.querySelectorAll('figure.chart')]
    .every(f => f.dataset.drawn || typeof window.vegaEmbed !== 'function');
  const given = setTimeout(() => reject(new Error(`charts not drawn after ${timeout} ms`)), timeout);
  const check = () => { if (drawn()) { clearTimeout(given); resolve(true); } else requestAnimationFrame(check); };
  check();
})"""


@contextmanager
def open_drawn(tabs: dict, context, url: str, timeout_ms: int = 20_000):
    """The page at `url` in the context's tab (tab_in), its charts drawn."""
    with tab_in(tabs, context, url) as page:
        page.evaluate(CHARTS_DRAWN, timeout_ms)
        yield page


class QuietHandler(SimpleHTTPRequestHandler):
    """http.server's file handler without a log line per request."""

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass


@contextmanager
def served(handler, name: str):
    """http.server on 127.0.0.1 with `handler` (a request handler class or factory), in a thread
    named `name`; yields its origin with a slash."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# --- axe-core (node_modules/axe-core), run in a page by the accessibility and phone tests ---

AXE_RUN = """async () => {
  const results = await axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
    resultTypes: ['violations'],
  });
  return results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    count: v.nodes.length,
    targets: v.nodes.slice(0, 4).map(n => n.target.flat().join(' ')),
    detail: v.nodes.length ? (v.nodes[0].any.concat(v.nodes[0].all, v.nodes[0].none)
                              .map(c => c.message).filter(Boolean)[0] || '') : '',
  }));
}"""
BLOCKING = {"serious", "critical"}


def describe(rel: str, scheme: str, violations: list[dict]) -> str:
    lines = [f"{rel} ({scheme} colour scheme): {len(violations)} serious/critical axe violation(s)"]
    for v in violations:
        shown = ", ".join(v["targets"])
        more = f" (+{v['count'] - len(v['targets'])} more)" if v["count"] > len(v["targets"]) else ""
        lines.append(f"  {v['id']} [{v['impact']}] {v['help']}: {shown}{more}")
        if v["detail"]:
            lines.append(f"      first: {v['detail']}")
    return "\n".join(lines)
