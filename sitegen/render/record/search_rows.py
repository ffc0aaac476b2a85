"""The search entries of the record's result systems (issue 15).

The 2,254 result pages stay out of the search index (it would pass its 1 MB budget); a reader
who types a system's name as it appears in a result ("NF5688M6") still finds it: one compact
row per system name, submitter and round, [name, address, what it is], leading to the results
(the one result itself, or the round's section of the submitter's page). About 100 KB per
language for the whole record; search.js makes them into documents of kind 'rsystem'."""
from __future__ import annotations

from sitegen.base import urls
from sitegen.derive.record_index import index_of


def system_rows(site, lang: str, t) -> list[list[str]]:
    """[system name, address relative to the language's folder, snippet], sorted."""
    if not getattr(site, "record", None):
        return []
    index = index_of(site)
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for result in site.record.values():
        if result.get("system_name"):
            key = (result["system_name"], index.submitter_of(result), result["round"])
            groups.setdefault(key, []).append(result)
    rows = []
    for (name, submitter, round_id), results in sorted(groups.items()):
        entity = index.submitters[submitter]
        if len(results) == 1:
            url = urls.result(lang, results[0]["id"])
        elif entity.paged:
            url = urls.submitter(lang, entity.slug, round_id)
        else:
            url = f"{urls.submitter(lang, entity.slug)}#round-{round_id}"
        benchmarks = sorted({_benchmark_name(site, r["benchmark"], lang) for r in results})
        snippet = t("search.system_snippet", submitter=entity.name, round=round_id,
                    benchmarks=t("chart.list_sep").join(benchmarks))
        rows.append([name, url.removeprefix(f"{lang}/"), snippet])
    return rows


def _benchmark_name(site, ident: str, lang: str) -> str:
    record = site.tables.get("benchmarks", {}).get(ident)
    return record["name"][lang] if record else ident
