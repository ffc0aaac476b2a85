"""axe-core (node_modules/axe-core) on one page of every kind, in both languages and in both
colour schemes: no WCAG 2.1 A/AA violation of impact serious or critical."""
from __future__ import annotations

import pytest

from .quality_tools import LANGS, PAGE_KINDS, page_of_kind
from .test_phone import CHARTS_DRAWN

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
CASES = [(kind, lang) for kind in PAGE_KINDS for lang in LANGS] + [("chooser", "root")]


@pytest.fixture(scope="module")
def contexts(browser):
    made = {scheme: browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
            for scheme in ("light", "dark")}
    yield made
    for context in made.values():
        context.close()


def describe(rel: str, scheme: str, violations: list[dict]) -> str:
    lines = [f"{rel} ({scheme} colour scheme): {len(violations)} serious/critical axe violation(s)"]
    for v in violations:
        shown = ", ".join(v["targets"])
        more = f" (+{v['count'] - len(v['targets'])} more)" if v["count"] > len(v["targets"]) else ""
        lines.append(f"  {v['id']} [{v['impact']}] {v['help']}: {shown}{more}")
        if v["detail"]:
            lines.append(f"      first: {v['detail']}")
    return "\n".join(lines)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("kind, lang", CASES, ids=[f"{k}-{l}" for k, l in CASES])
def test_no_serious_axe_violations(contexts, axe_script, shipped_site, site_roots, kind, lang,
                                   scheme):
    rel = page_of_kind(shipped_site, kind, lang)
    page = contexts[scheme].new_page()
    try:
        page.goto(site_roots["http"] + rel)
        # axe looks at the page as a reader sees it: after every chart has been drawn
        page.wait_for_function(CHARTS_DRAWN, timeout=20_000)
        page.add_script_tag(path=str(axe_script))
        violations = page.evaluate(AXE_RUN)
    finally:
        page.close()
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    if blocking:
        pytest.fail(describe(rel, scheme, blocking), pytrace=False)
