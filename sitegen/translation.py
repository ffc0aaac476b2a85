"""Translation status: what lacks one of the two languages."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Site

CJK = re.compile(r"[\u3400-\u9fff]")
PLACEHOLDER = re.compile(r"\{[^}]*\}|\[\[[^\]]*\]\]")  # {name} and [[kind:id]] are not words


@dataclass
class Gap:
    kind: str        # report | page | data | string
    name: str
    missing: str     # the language that lacks text
    where: str


def translation_gaps(site: Site) -> list[Gap]:
    """What lacks one language: pending reports, and Chinese text with no Chinese in it."""
    gaps = [Gap("report" if r in site.reports else "page", r.slug, r.lang, f"reports/{r.slug}.{r.lang}.md")
            for r in site.reports + site.pages if r.pending]
    for table, records in sorted(site.tables.items()):
        for record in records.values():
            for field, value in record.items():
                if isinstance(value, dict) and set(value) == {"en", "zh"} and _untranslated(value):
                    gaps.append(Gap("data", f"{record['id']}.{field}", "zh", record["_file"]))
    for key, text in sorted(site.strings.get("zh", {}).items()):
        if _untranslated({"en": site.strings.get("en", {}).get(key, ""), "zh": text}):
            gaps.append(Gap("string", key, "zh", "i18n/zh.yaml"))
    return gaps


def _untranslated(value: dict) -> bool:
    """Long Chinese text without a single Chinese character: most likely English left in."""
    zh, en = PLACEHOLDER.sub("", value.get("zh", "")), value.get("en", "")
    return bool(CJK.search(en) is None and len(zh) > 24 and not CJK.search(zh))
