"""Company names in the sentences the site writes (derive/names.py): the page's language's
name, and once per page, where it differs, its Latin name beside it (英伟达（NVIDIA）)."""

from __future__ import annotations

from html import escape

from sitegen.render.page import say


def company(page, spelling: str, first_mention: bool = True) -> str:
    """The submitter `spelling` as the page's language writes it (plain text); with
    `first_mention`, its Latin name in brackets the first time the page names it so. Inside
    brackets already (a result's details), `first_mention=False`."""
    name = page.model.names.submitter(spelling, page.lang)
    latin = page.model.names.latin(spelling)
    if not first_mention or name == latin or name in page.named:
        return name
    page.named.add(name)
    return say(page, "ref.latin_aside", name=name, latin=latin)


def company_html(page, spelling: str, first_mention: bool = True) -> str:
    return escape(company(page, spelling, first_mention))
