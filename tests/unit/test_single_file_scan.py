"""The single-file copy's quick scans give what the plain forms give: an event handler found
after any space, and a link resolved against the page's folder."""

import posixpath
import re

import pytest

from sitegen.render.single_file import _has_handler, _resolve

PLAIN_HANDLER = re.compile(rb"\son[a-z]+=")


@pytest.mark.parametrize(
    "page",
    [
        b'<a onclick="x">',
        b"<p\tonload=1>",
        b"<p\nonx=>",
        b"<p\x0bonx=><p\x0conx=>",
        b"onclick=",
        b"<a bonclick=1>",
        b"<a on=1>",
        b"<a on onabc=1>",
        b"<a ononc=1>",
        b"<a oonclick=1>",
        b"the button on the left=right",
        b"<p>on</p> one=two",
        b"",
    ],
)
def test_handler_found_as_the_plain_pattern_finds_it(page):
    assert _has_handler(page) == bool(PLAIN_HANDLER.search(page))


@pytest.mark.parametrize(
    "page, ref",
    [
        ("en/reports/a.html", "../systems/x.html#r"),
        ("en/reports/a.html", "#top"),
        ("en/reports/a.html", "b.html"),
        ("en/reports/b.html", "b.html"),
        ("en/reports/a.html", "charts/a-1.svg"),
        ("zh/reports/a.html", "../../assets/style.css"),
        ("en/a.html", "./reports/../x.html#y"),
    ],
)
def test_link_resolved_against_the_page(page, ref):
    target, _, fragment = ref.partition("#")
    plain = posixpath.normpath(posixpath.join(posixpath.dirname(page), target)) if target else page
    assert _resolve(page, ref) == plain + (f"#{fragment}" if fragment else "")
