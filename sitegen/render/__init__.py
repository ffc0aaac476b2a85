"""Stage 3, render: pages, charts, search, feeds, sitemap, single-file copies and downloads as {path: bytes}."""
