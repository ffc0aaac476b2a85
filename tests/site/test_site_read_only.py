"""After loading, the site's content is only read (docs/architecture.md, "The data model"):
deriving the model and rendering every page leave the record, the tables, the reports, the
strings and the configuration as the load made them. What a build notes beside them (the reads
of the page being made, derive's record index, the warnings later stages find) is not content."""

from __future__ import annotations

import hashlib
import pickle

from sitegen.assemble.rendering import load_site_theme, render_site
from sitegen.content.load import load_site
from sitegen.derive import model as derive_model

from project import TEMPLATES, THREE, write_project

CONTENT = ("config", "record", "rounds", "tables", "reports", "pages", "strings", "changelog", "usage")


def _content_digest(site) -> dict[str, str]:
    """Each content field's digest (its pickle: every key, value and order)."""
    return {
        name: hashlib.sha256(pickle.dumps(_plain(getattr(site, name)), protocol=5)).hexdigest()
        for name in CONTENT
    }


def _plain(value):
    """Tracked mappings and lists as plain ones (they note reads; their contents are the content)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in dict.items(value)}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


def test_deriving_and_rendering_change_no_content_of_the_site(tmp_path):
    content = write_project(tmp_path, {"site.yaml": THREE})
    site = load_site(content)
    before = _content_digest(site)
    model = derive_model.build(site)
    files = render_site(site, load_site_theme(site, TEMPLATES), model, processes=False)
    assert sum(1 for path in files if path.endswith(".html")) > 50  # every page was made
    assert _content_digest(site) == before


def test_the_digest_sees_a_change_deep_in_the_record(tmp_path):
    site = load_site(write_project(tmp_path))
    before = _content_digest(site)
    first = next(iter(dict.values(site.record)))
    dict.__setitem__(first, "value", first["value"] + 1)
    assert _content_digest(site) != before
