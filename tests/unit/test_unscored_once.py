"""The results a statement leaves out because they have no time are named once a paragraph
(issue 49): a later statement names only the ones not named yet ("… were missing too"), says
"as above" once when all were, and after that nothing."""

from __future__ import annotations

import re
from types import SimpleNamespace

from sitegen.base.languages import Languages
from sitegen.derive.questions import names_for, statements_for
from sitegen.render.page import Page
from sitegen.render.record_statements import _unscored_text

STRINGS = {
    "ref.unscored": " (among the scored results; the logs of {results} were not in the copy)",
    "ref.unscored_also": " (among the scored results; the logs of {results} were missing too)",
    "ref.unscored_again": " (among the scored results, as above)",
    "ref.unscored_item": "{submitter} with {scale}",
    "ref.scale": "{count} × {accelerator}",
    "ref.cpu_only": "CPUs only",
    "ref.list_separator": ", ",
    "ref.latin_aside": "{name} ({latin})",
}


def _result(ident: str, submitter: str, count: int) -> dict:
    return {"id": ident, "submitter": submitter, "accelerator_count": count, "accelerator_model": "X1"}


def _page() -> Page:
    site = SimpleNamespace(strings={"en": STRINGS}, tables={}, languages=Languages.default())
    return Page(
        site,
        "en",
        "en/reports/r.html",
        SimpleNamespace(names=names_for(site), statements=statements_for(site)),
    )


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_each_result_without_a_time_is_named_once_a_paragraph():
    page = _page()
    a, b = _result("r-a", "Acme", 16), _result("r-b", "BigCo", 8)
    assert (
        _text(_unscored_text(page, [a]))
        == " (among the scored results; the logs of Acme with 16 × X1 were not in the copy)"
    )
    assert (
        _text(_unscored_text(page, [a, b]))
        == " (among the scored results; the logs of BigCo with 8 × X1 were missing too)"
    )
    assert _unscored_text(page, [b]) == " (among the scored results, as above)"
    assert _unscored_text(page, [a, b]) == ""
    page.said.clear()  # a new paragraph (markup.py) names them again
    assert (
        _text(_unscored_text(page, [b]))
        == " (among the scored results; the logs of BigCo with 8 × X1 were not in the copy)"
    )
