"""The root 404.html that static hosts serve for any missing address, at any depth.

With base_url its links are absolute; without it they are relative to the output root (right
when the missing address is at the root, wrong deeper down; nothing relative can be right
there). Its stylesheet is inlined so that it looks right wherever it is served from.
"""

from __future__ import annotations

import html

from sitegen.base import urls
from sitegen.render.inline import data_uri, static_bytes, stylesheet
from sitegen.render.theme import base_url


def root_not_found(site, theme, strings: dict) -> dict[str, bytes]:
    """/404.html for static hosts: every language's message and links to every home page."""
    root = base_url(site)
    default = site.config["default_language"]
    esc = html.escape

    def href(target: str) -> str:
        # With base_url: absolute, right at any depth. Without: relative to the output root,
        # right only when the missing address is at the root (no relative link can do better).
        return root + target if root else target

    icon = static_bytes(theme, {}, urls.asset("favicon.svg"))
    sections = []
    for lang in site.languages:
        t, code = strings[lang], site.languages.html_lang(lang)
        sections.append(
            f'<section lang="{code}" aria-labelledby="nf-{lang}">\n'
            f'<h1 id="nf-{lang}">{esc(t("404.title"))}</h1>\n'
            f'<p>{esc(t("404.text"))}</p>\n'
            f'<p><a href="{esc(href(urls.home(lang)))}" hreflang="{code}">'
            f'{esc(site.config["title"][lang])} · {esc(t("nav.home"))}</a></p>\n</section>'
        )
    titles = " · ".join(strings[lang]("404.title") for lang in site.languages)
    page = (
        "<!DOCTYPE html>\n"
        f'<html lang="{site.languages.html_lang(default)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(titles)}</title>\n"
        '<meta name="robots" content="noindex">\n'
        + (f'<link rel="icon" href="{data_uri("favicon.svg", icon)}" type="image/svg+xml">\n' if icon else "")
        + "<!-- Served by static hosts for any missing address. Links are absolute when the site "
        "has a base_url; otherwise relative to the site root, which only works for missing "
        "addresses at the root. The stylesheet is inlined so the page is styled anywhere. -->\n"
        f"<style>\n{stylesheet(theme)}</style>\n</head>\n"
        '<body class="chooser">\n<main id="main">\n' + "\n".join(sections) + "\n</main>\n"
        "</body>\n</html>\n"
    )
    return {"404.html": page.encode("utf-8")}
