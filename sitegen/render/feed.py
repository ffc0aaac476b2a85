"""The Atom feed of each language's reports (`<lang>/feed.xml`).

Entry and feed ids are `urn:uuid:` names derived from the site and the page path, so they never
change when base_url is set or changes later. Links are absolute (base_url + path) when base_url
is set, otherwise relative to the feed's own address, which a feed reader resolves against the
feed's URL.
"""

from __future__ import annotations

import datetime as dt

from sitegen.base import urls
from sitegen.render.kinds import KINDS
from sitegen.render.theme import absolute, base_url

FEED_GENERATOR = "sitegen (Accelerator Ledger)"


def site_date(site) -> dt.date | None:
    value = site.config.get("date")
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _midnight(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


def _feed_id(site, name: str) -> str:
    """A stable urn:uuid for a feed or an entry, from the site's name and the page path."""
    import uuid  # here: it imports platform, 15 ms of every rebuild, and most make no feed

    site_name = site.config["title"][site.config["default_language"]]
    return "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"sitegen:{site_name}:{name}"))


def feed_file(site, lang: str) -> dict[str, bytes]:
    """The Atom feed of one language's pages of the kinds the feed lists (render/kinds.py:
    the reports)."""
    feed_path = f"{lang}/feed.xml"
    entries = [
        (kind.path(lang=lang, slug=r.slug), r) for kind in KINDS if kind.feed for r in kind.feed(site, lang)
    ]
    reports = [report for _, report in entries]

    def href(target: str) -> str:
        return absolute(site, target) if base_url(site) else urls.relative(feed_path, target)

    dates = [r.date for r in reports if r.date] + ([site_date(site)] if site_date(site) else [])
    if not dates:
        dates = [s["date"] for s in site.table("sources") if isinstance(s.get("date"), dt.date)]
    updated = _midnight(max(dates)) if dates else dt.datetime(2000, 1, 1, tzinfo=dt.UTC)

    from feedgen.feed import FeedGenerator  # (with dateutil: a rebuild that renders no feed needs neither)

    fg = FeedGenerator()
    fg.id(_feed_id(site, feed_path))
    fg.title(site.config["title"][lang])
    fg.subtitle(site.config["tagline"][lang])
    fg.language(site.languages.html_lang(lang))
    fg.author(name=site.config["title"][lang])
    fg.link(
        href=href(urls.home(lang)), rel="alternate", type="text/html", hreflang=site.languages.html_lang(lang)
    )
    fg.link(href=href(feed_path), rel="self", type="application/atom+xml")
    fg.generator(FEED_GENERATOR)
    fg.updated(updated)
    for page, report in entries:  # newest first, as reports_in orders them
        entry = fg.add_entry(order="append")
        entry.id(_feed_id(site, page))
        entry.title(report.title)
        entry.summary(report.meta.get("summary") or report.title)
        entry.link(
            href=href(page), rel="alternate", type="text/html", hreflang=site.languages.html_lang(lang)
        )
        when = _midnight(report.date) if report.date else updated
        entry.published(when)
        entry.updated(when)
    return {feed_path: fg.atom_str(pretty=True, encoding="UTF-8", xml_declaration=True)}
