import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from sitegen.assemble.pipeline import build  # noqa: E402

import shared_sites  # noqa: E402
from project import CACHE, TEMPLATES, write_project  # noqa: E402


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/ from this build (tests/site/test_golden.py)",
    )


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path)


@pytest.fixture
def own_store(tmp_path, monkeypatch):
    """A store of the test's own in tmp_path/cache, closed at the end; files are remembered in
    its stat table however new they are."""
    from sitegen.base import cache
    from sitegen.base.store import Store

    monkeypatch.setattr(cache, "RACY_NS", 0)
    store = Store(tmp_path / "cache")
    yield store
    store.close()


def shared_folder(tmp_path_factory, name: str, make) -> Path:
    """A folder made once per test run by make(folder) and shared by its pytest-xdist workers
    (which run the tests in parallel); for what tests only read, such as a built site."""
    return shared_sites.shared_folder(shared_sites.run_folder(tmp_path_factory), name, make)


@pytest.fixture(scope="session")
def shipped_build(tmp_path_factory):
    """The shipped content built once per test run (shared by the workers; started at the
    start of the run, see pytest_collection_finish); only read. Its folder holds output/ and
    warnings.json."""
    return shared_folder(tmp_path_factory, shared_sites.SHIPPED, shared_sites.build_shipped)


@pytest.fixture(scope="session")
def shipped_site(shipped_build):
    """The shipped site's output folder."""
    return shipped_build / "output"


@pytest.fixture(scope="session")
def shipped_record() -> list[dict]:
    """Every result of content/data/record/results-*.yaml, read with libyaml's parser (as the
    build reads them; PyYAML's own takes seconds); once per worker, only read."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows: list[dict] = []
    for path in sorted((ROOT / "content" / "data" / "record").glob("results-*.yaml")):
        rows += yaml.load(path.read_text("utf-8"), Loader=loader)
    return rows


@pytest.fixture(scope="session")
def shipped_content():
    """content/ loaded (load_site: the record and the curated data, checked), once per worker;
    only read."""
    from sitegen.base.store import Store
    from sitegen.content.load import load_site

    from project import CACHE

    return load_site(ROOT / "content", store=Store(CACHE))


# --- A warm store to copy ----------------------------------------------------------------------

# Most tests that build need a store of their own (their builds must not meet another test's
# entries) but not an empty one: with one, each build compiled every template and drew every
# chart again. Such a test asks for `warm_cache`: its tmp_path/cache starts as a copy of a store
# that built the sample projects once per test run, so that its builds take what that store
# kept, as any build takes what its store kept (`warm_copy` for a second store, such as the
# one of a build from no last state to compare with). Tests of the caching itself keep empty
# stores.


@pytest.fixture(scope="session")
def warm_store(tmp_path_factory) -> Path:
    """The folder of a store that built the sample projects (shared_sites.build_samples); only
    copied, never built into (warm_cache)."""
    return shared_folder(tmp_path_factory, shared_sites.SAMPLES, shared_sites.build_samples) / "cache"


@pytest.fixture
def warm_copy(warm_store):
    """copy(folder): `folder` made a store of its own, a copy of the warm one (through SQLite's
    backup, so that the copy is whole); returns the folder."""
    return lambda folder: shared_sites.copy_store(warm_store, folder)


@pytest.fixture
def warm_cache(tmp_path, warm_copy) -> Path:
    """tmp_path/cache, a copy of the warm store: its builds take the compiled templates and the
    drawings kept there."""
    return warm_copy(tmp_path / "cache")


# --- One headless Chromium per test process --------------------------------------------------

# One Playwright driver and browser per test process (a launch is about 1.3 s of CPU), each
# module making its own contexts. Playwright's driver is a child process: Python 3.11's asyncio
# waits for it in a thread of its own, and a build never forks beside a thread
# (sitegen/assemble/forking.py), so the wait is done with a pidfd instead, as Python 3.12 does.


@pytest.fixture(scope="session")
def _chromium_driver():
    from quality.quality_tools import require

    require("playwright")
    from playwright.sync_api import sync_playwright

    if sys.version_info < (3, 12):
        import asyncio

        asyncio.set_child_watcher(_pidfd_watcher(asyncio))
    with sync_playwright() as driver:
        yield {"driver": driver, "browser": None}


def _pidfd_watcher(asyncio):
    """3.11's pidfd watcher as 3.12's works: always active, on the loop that starts the child
    (Playwright's own loop, never made the thread's current one)."""

    class Watcher(asyncio.PidfdChildWatcher):
        def is_active(self):
            return True

        def add_child_handler(self, pid, callback, *args):
            loop = asyncio.get_running_loop()
            if self._loop is not loop:
                self.attach_loop(loop)
            super().add_child_handler(pid, callback, *args)

    return Watcher()


@pytest.fixture(scope="module")
def browser(_chromium_driver):
    """The process's headless Chromium (Debian's), launched again if it went away."""
    from quality.quality_tools import CHROMIUM_ARGS, PLAYWRIGHT_ARGS_LEFT_OUT, require

    executable = require("chromium")
    running = _chromium_driver["browser"]
    if running is None or not running.is_connected():
        running = _chromium_driver["browser"] = _chromium_driver["driver"].chromium.launch(
            executable_path=str(executable),
            headless=True,
            args=CHROMIUM_ARGS,
            ignore_default_args=PLAYWRIGHT_ARGS_LEFT_OUT,
        )
    return running


@pytest.fixture
def page(browser):
    """A new tab of `browser` at 1280 x 900; the test fails on any error the page logs or throws."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield tab
    context.close()
    assert not errors, "\n".join(errors)


@pytest.fixture(scope="session")
def tiny_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    content = write_project(folder)
    out = folder / "output"
    build(content, TEMPLATES, out, cache=CACHE)
    return out


# --- The order of the test files -------------------------------------------------------------

# The workers (scripts/test.sh: --dist loadgroup --no-loadscope-reorder) take the units in
# this order: first the files that do not read the shipped site, while it is built beside them,
# then those that do; in each part the costliest listed here first, so that no long file starts
# last and keeps one worker busy alone at the end (figures: bench/README.md, "The test suite").
COSTLIEST = (
    # the shipped site is not read
    "site/test_faults.py",
    "site/test_record_scale.py",
    "site/test_incremental_kinds.py",
    "site/test_content_faults.py",
    "site/test_charts.py",
    "site/test_package.py",
    "quality/test_reproducible.py",
    "site/test_chips.py",
    "site/test_pipeline.py",
    # read: the longest single units first (one Java run over every page; every page in the
    # browser over file:// and over HTTP; every link), then the files split into small units
    "quality/test_html_valid.py",
    "quality/test_browser.py",
    "quality/test_links.py",
    "site/test_no_python_none.py",
    "quality/test_phone.py",
    "quality/test_accessibility.py",
    "quality/test_record_ui.py",
    "quality/test_search_ranking.py",
)


# Browser files whose tests each open pages of the shipped site, with nothing costly built per
# module: their tests go to the workers in smaller units (scripts/test.sh: --dist loadgroup), one
# per test function and page kind, so that no single file keeps one worker busy alone at the end.
# Every other file is one unit, so that a module's built site is built once.
SPLIT = (
    "quality/test_phone.py",
    "quality/test_accessibility.py",
    "quality/test_browser.py",
    "quality/test_record_ui.py",
)


def pytest_itemcollected(item):
    """Each test's unit of work (its xdist_group), before pytest-xdist reads the marks."""
    name = item.path.relative_to(ROOT / "tests").as_posix()
    if name in SPLIT:
        params = getattr(getattr(item, "callspec", None), "params", {})
        name += f"::{item.originalname}" + "".join(f"-{params[p]}" for p in ("kind", "scheme") if p in params)
    item.add_marker(pytest.mark.xdist_group(name))


def _reads_shipped(item) -> bool:
    return "shipped_build" in getattr(item, "fixturenames", ())


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Whole files in the order above; a file's own tests keep their order."""
    reads = {item.path for item in items if _reads_shipped(item)}

    def rank(item):
        name = item.path.relative_to(ROOT / "tests").as_posix()
        return (item.path in reads, COSTLIEST.index(name) if name in COSTLIEST else len(COSTLIEST))

    items.sort(key=rank)


def pytest_collection_finish(session):
    """When a selected test reads the shipped site, start building it now, in a process of its
    own (shared_sites.py), so that it is ready when the first such test starts."""
    if any(_reads_shipped(item) for item in session.items):
        root = shared_sites.run_folder(session.config._tmp_path_factory)
        session.config.stash[_BACKGROUND] = shared_sites.start_shipped_build(root)


_BACKGROUND = pytest.StashKey["object"]()


def pytest_sessionfinish(session):
    """The background build is waited for (a test of another worker may be reading it)."""
    process = session.config.stash.get(_BACKGROUND, None)
    if process is not None:
        process.wait()
