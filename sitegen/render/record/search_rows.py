"""The search entries of the record's results and leaderboards (issues 15 and 32).

Their pages (2,258 results, a leaderboard per benchmark and round) are not searched as pages:
their text would pass the index's budget (a first search loads at most 1 MB). Each is one
compact row instead, and search.js makes the rows into documents of kind 'result' and
'leaderboard': a result is found by its system's name, submitter, benchmark, chip or round, and
shows the round, submitter, benchmark, scale and division that tell two alike apart (two
results of tpu-v5p-1024). Names repeat across rows, so rows hold indexes into lists of names."""

from __future__ import annotations

from sitegen.base import urls
from sitegen.derive.model import Model


def record_rows(model: Model, lang: str, t) -> dict | None:
    """The record's part of one language's search index: {labels, templates, names, results,
    leaderboards}; None for a site without a record."""
    site = model.site
    if not model.record:
        return None
    index = model.index
    names: dict[str, dict[str, int]] = {"rounds": {}, "submitters": {}, "benchmarks": {}, "accelerators": {}}

    def at(kind: str, name: str) -> int:
        return names[kind].setdefault(name, len(names[kind]))

    results, boards = [], {}
    shown: dict[str, str] = {}  # a submitter as the language writes it (companies.yaml)
    for ident in sorted(model.record):
        result = model.record[ident]
        benchmark = site.get("benchmarks", result["benchmark"])
        entity = index.submitters[index.submitter_of(result)]
        if entity.slug not in shown:
            company = model.names.of_entity(entity)
            shown[entity.slug] = company[lang] if company else entity.name
        submitter = shown[entity.slug]
        accelerator = (
            index.accelerators[index.accelerator_of(result)].name if result.get("accelerator_count") else ""
        )
        results.append(
            [
                result.get("system_name") or "",
                result["id"],
                at("rounds", result["round"]),
                at("submitters", submitter),
                at("benchmarks", benchmark["name"][lang]),
                at("accelerators", accelerator),
                result.get("accelerator_count") or 0,
                int(result["division"] != "closed"),
            ]
        )
        board = urls.leaderboard(lang, benchmark["id"], result["round"]).removeprefix(f"{lang}/")
        boards[board] = [at("benchmarks", benchmark["name"][lang]), at("rounds", result["round"]), board]
    return {
        "labels": {"result": t("search.kind.result"), "leaderboard": t("search.kind.leaderboard")},
        "templates": {
            "snippet": t("search.result_snippet"),
            "scale": t("ref.scale"),
            "url": urls.result(lang, "{id}").removeprefix(f"{lang}/"),
            "cpu": t("ref.cpu_only"),
            "leaderboard": t("leaderboard.title"),
            "divisions": [t("division.closed"), t("division.open")],
        },
        **{kind: list(found) for kind, found in names.items()},
        "results": results,
        "leaderboards": [boards[key] for key in sorted(boards)],
    }
