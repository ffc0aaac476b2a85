"""Which chips.yaml variants each accelerator string of the record matches (chips.annotate),
kept in the store with the parses: matching every rule against every string is most of what
classifying the record costs at a load."""

from __future__ import annotations

import hashlib
from pathlib import Path

from sitegen.content.parsecache import ParseCache


def key_of(result: dict) -> tuple:
    """What a result's chip is found by: its accelerator, system name and round."""
    return (result.get("accelerator_model"), result.get("system_name") or "", result.get("round") or "")


def classified(path: Path, taxonomy, record: dict, problems, langs) -> dict:
    """Each key_of of the record's results with an accelerator -> the variants of `taxonomy`
    (chips.Taxonomy) it matches; SlowRule at the first that takes too long. Kept in the store
    (parsecache.py) for the same bytes of chips.yaml, code, languages and keys."""
    keys = list(dict.fromkeys(key_of(r) for r in record.values() if r.get("accelerator_model")))
    given = hashlib.sha256(repr(keys).encode()).hexdigest()
    found = ParseCache([path]).parse(
        "chip-matches", path, problems, lambda: _positions(taxonomy, keys), langs, given
    )
    return {key: [taxonomy.variants[n] for n in positions] for key, positions in zip(keys, found)}


def _positions(taxonomy, keys: list) -> list[tuple]:
    """For each key, the positions in taxonomy.variants of the variants it matches."""
    memo: dict = {}
    position = {id(variant): n for n, variant in enumerate(taxonomy.variants)}
    return [tuple(position[id(v)] for v in taxonomy.matches(*key, memo=memo)) for key in keys]
