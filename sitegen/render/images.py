"""Which images of a report the site publishes, and as what bytes.

An image is copied beside the pages, so opened on its own it runs on the site's origin: an SVG
is published only as Cloudflare's svg-hush filter leaves it (py-svg-hush: an allowlist of SVG
elements and attributes; scripts, event handlers, animation of links, foreignObject and
external references removed), and a file of any other type than the raster images below is
refused (an .html or .xml "image" would run its scripts)."""

from __future__ import annotations

from pathlib import Path

RASTER = (".avif", ".gif", ".jpeg", ".jpg", ".png", ".webp")
TYPES = (*RASTER, ".svg")


class NotPublishable(ValueError):
    """Why the image cannot be published (the caller adds the file and line)."""


def publishable(path: Path) -> bytes:
    """The bytes to publish for the image at `path`; raise NotPublishable if none."""
    suffix = path.suffix.lower()
    if suffix not in TYPES:
        raise NotPublishable(f"is not an image type the site publishes ({', '.join(TYPES)})")
    data = path.read_bytes()
    return sanitised_svg(data) if suffix == ".svg" else data


def sanitised_svg(data: bytes) -> bytes:
    from py_svg_hush import filter_svg  # here: only a site with an SVG image needs it

    try:
        return filter_svg(data)
    except ValueError as exc:
        raise NotPublishable(f"is not a well-formed SVG file ({exc}); save it again as SVG") from None
