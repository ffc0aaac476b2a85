"""Fixtures of the quality gates: a static server of the shipped site, axe-core (the browser:
tests/conftest.py).

Tools are found through `quality_tools.require`: missing ones fail under CI=true, else skip."""

from __future__ import annotations

import functools

import pytest

from .quality_tools import NODE_MODULES, QuietHandler, require, served

# --- A static server of the shipped site ------------------------------------------------------


# Where the server answers with axe-core's script (a name the site cannot have): loaded from
# there, the browser compiles it once per browser context and keeps it, instead of parsing half
# a megabyte again on every page (add_script_tag(path=...) sends it inline).
AXE_PATH = "/__tests__/axe.min.js"


class _SiteHandler(QuietHandler):
    def translate_path(self, path):
        if path == AXE_PATH:
            return str(NODE_MODULES / "axe-core" / "axe.min.js")
        return super().translate_path(path)


@pytest.fixture(scope="session")
def site_server(shipped_site):
    """The shipped site served by http.server on 127.0.0.1 (and axe-core at AXE_PATH); yields
    the origin with a slash."""
    assert not (shipped_site / AXE_PATH.split("/")[1]).exists()
    with served(functools.partial(_SiteHandler, directory=str(shipped_site)), "site-server") as origin:
        yield origin


@pytest.fixture(scope="session")
def site_roots(shipped_site, site_server):
    """Base URLs of the two ways the site is opened: from disk and from the static server."""
    return {"file": shipped_site.as_uri() + "/", "http": site_server}


@pytest.fixture(scope="session")
def axe_script():
    """node_modules/axe-core's script, injected into pages by the accessibility and phone tests."""
    return require("axe-core")


@pytest.fixture(scope="session")
def axe_url(axe_script, site_server):
    """axe-core's script from the static server: page.add_script_tag(url=axe_url)."""
    return site_server + AXE_PATH[1:]


@pytest.fixture(scope="module")
def tabs():
    """One tab per browser context, for tests that each load one page (tab_in)."""
    made: dict = {}
    yield made
    for page in made.values():
        if not page.is_closed():
            page.close()
