"""The one list of data references (content/references.py): the renderer draws exactly its
kinds, and load.py's check of data text reads the same syntax."""

from __future__ import annotations

from sitegen.content import references
from sitegen.render import markup
from sitegen.render import references as drawn


def test_the_renderer_draws_exactly_the_listed_kinds_in_their_order():
    assert tuple(drawn.KINDS) == references.REFERENCE_KINDS


def test_one_syntax_for_loading_and_rendering():
    found = [
        m.group("kind", "arg")
        for m in references.SHORTCODE.finditer(
            "a [[result:v1-x]] and [[rounds:all/resnet/after/v2.0]], not [[bad kind:x]]"
        )
    ]
    assert found == [("result", "v1-x"), ("rounds", "all/resnet/after/v2.0")]
    assert markup.SHORTCODE is references.SHORTCODE
