"""The claim-word check of each text once: what textcheck.unreferenced_claims found in a text
is kept in the cache store with the last build of an output folder, and a rebuild scans only
the texts that changed since (the check of 2,000 reports took 5-8 s of every rebuild)."""

from __future__ import annotations

import hashlib
import pickle

from sitegen.base.store import Store
from sitegen.content.textcheck import unreferenced_claims


class KnownClaims:
    """unreferenced_claims(text), taken from the last build's findings for a text it checked
    with the same code (`code`: cache.code_digest); notes what this build used and found."""

    def __init__(self, code: str, known: dict):
        self.code, self.known = code, known
        self.used: set[bytes] = set()
        self.new: dict[bytes, list] = {}

    def __call__(self, text: str) -> list[tuple[int, str]]:
        key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        found = self.known.get(key)
        if found is None:
            found = self.new[key] = unreferenced_claims(text)
        else:
            self.used.add(key)
        return found

    def changes(self) -> tuple[set[bytes], dict[bytes, list]]:
        """(keys taken from the last build, texts checked now): what a forked check sends back."""
        return self.used, self.new


def load_claims(store: Store, output: str, code: str) -> KnownClaims:
    """The findings kept for the output `output` (manifest.output_key); none when they are
    missing, damaged or of other code."""
    blob = store.get("claims", output)
    try:
        saved_code, known = pickle.loads(blob) if blob is not None else (None, {})
    except Exception:  # noqa: BLE001 - a damaged entry only means every text is checked
        saved_code, known = None, {}
    return KnownClaims(code, known if saved_code == code and isinstance(known, dict) else {})


def save_claims(
    store: Store, output: str, claims: KnownClaims, used: set[bytes], new: dict[bytes, list]
) -> None:
    """The findings of the texts this build checked (`used` and `new`, as changes() gave them),
    written only when they differ from what the store holds."""
    if not new and len(used) == len(claims.known):
        return
    kept = {key: claims.known[key] for key in used if key in claims.known}
    if not store.read_only:
        store.put(
            "claims",
            output,
            pickle.dumps((claims.code, _shared(new, kept)), protocol=pickle.HIGHEST_PROTOCOL),
        )


def _shared(found: dict[bytes, list], kept: dict[bytes, list] | None = None) -> dict[bytes, list]:
    """The findings with each distinct message one string object: pickled once, and loaded as one,
    so that the warnings made of them (thousands, of a few messages) are also pickled as few bytes
    when the forked check sends them to the build. `kept`: findings loaded from the store, whose
    messages are one object each already (saved so): taken as they are, and the new ones' made
    theirs (making all 24,000 findings of the synthetic site again took 0.012 s of a rebuild)."""
    kept = kept or {}
    messages = {text: text for text in {text for items in kept.values() for _, text in items}}
    made = {
        key: [(line, messages.setdefault(text, text)) for line, text in items] for key, items in found.items()
    }
    return {**kept, **made}
