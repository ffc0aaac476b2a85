"""A language's search index as a built site holds it (sitegen/render/search.py): its entry
script, assets/search-<lang>.js, which lists its shards and holds the record's rows, and the
shards, each holding some of its documents. For tests that read the index."""

from __future__ import annotations

import json
import re
from pathlib import Path

SHARDS = re.compile(r"^window\.SEARCH_SHARDS_BY_LANG\[[^\]]*\] = (.*);$", re.M)
PART = re.compile(r"^window\.SEARCH_PARTS_BY_LANG\[([^\]]*)\]\[(\d+)\] = (.*);$", re.M)


def entry_script(site: Path, lang: str) -> str:
    """The language's entry script (its shards' list, the record's rows)."""
    return (site / "assets" / f"search-{lang}.js").read_text("utf-8")


def shard_files(site: Path, lang: str) -> list[Path]:
    """The language's shards, in the order its entry script lists them."""
    found = SHARDS.search(entry_script(site, lang))
    assert found, f"assets/search-{lang}.js lists no shards"
    return [site / path for path in json.loads(found.group(1))]


def search_files(site: Path, lang: str) -> list[Path]:
    """Every file of the language's index: the entry script, then its shards."""
    return [site / "assets" / f"search-{lang}.js", *shard_files(site, lang)]


def search_shards(site: Path, lang: str) -> list[list[dict]]:
    """Each shard's documents, as it lists them; a shard that is not the language's shard of
    its place fails the test."""
    shards = []
    for number, path in enumerate(shard_files(site, lang)):
        found = PART.search(path.read_text("utf-8"))
        assert found, f"{path.name} sets no part of the index"
        assert (json.loads(found.group(1)), int(found.group(2))) == (lang, number), path.name
        shards.append(json.loads(found.group(3)))
    return shards


def search_docs(site: Path, lang: str) -> list[dict]:
    """Every document of the language's index, by url."""
    return sorted((doc for shard in search_shards(site, lang) for doc in shard), key=lambda doc: doc["url"])


def search_text(site: Path, lang: str) -> str:
    """The text of every file of the language's index, one after the other."""
    return "".join(path.read_text("utf-8") for path in search_files(site, lang))


def search_size(site: Path, lang: str) -> int:
    """The bytes a first search in the language loads of its index (all its files)."""
    return sum(path.stat().st_size for path in search_files(site, lang))
