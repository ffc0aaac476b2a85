"""Reader features built from the rendered site: search index, feeds, sitemap, robots."""
from __future__ import annotations


def reader_files(site, theme, pages: dict[str, bytes]) -> dict[str, bytes]:
    return {}
