"""axe-core (node_modules/axe-core) on one page of every kind, in every language in the light
colour scheme and in English in the dark one (its colours are the style sheet's, the same for
every language): no WCAG 2.1 A/AA violation of impact serious or critical."""

from __future__ import annotations

import pytest

from .quality_tools import AXE_RUN, BLOCKING, LANGS, PAGE_KINDS, describe, open_drawn, page_of_kind

CASES = [
    (kind, lang, scheme)
    for kind, lang in [(kind, lang) for kind in PAGE_KINDS for lang in LANGS] + [("chooser", "root")]
    for scheme in ("light", "dark")
    if scheme == "light" or lang in ("en", "root")
]


@pytest.fixture(scope="module")
def contexts(browser):
    made = {
        scheme: browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
        for scheme in ("light", "dark")
    }
    yield made
    for context in made.values():
        context.close()


@pytest.mark.parametrize("kind, lang, scheme", CASES, ids=["-".join(case) for case in CASES])
def test_no_serious_axe_violations(contexts, tabs, axe_url, shipped_site, site_roots, kind, lang, scheme):
    rel = page_of_kind(shipped_site, kind, lang)
    # axe looks at the page as a reader sees it: after every chart has been drawn
    with open_drawn(tabs, contexts[scheme], site_roots["http"] + rel) as page:
        page.add_script_tag(url=axe_url)
        violations = page.evaluate(AXE_RUN)
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    if blocking:
        pytest.fail(describe(rel, scheme, blocking), pytrace=False)
