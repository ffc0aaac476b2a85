"""The search entries of the record's results and leaderboards (issues 15 and 32).

Their pages (2,258 results, a leaderboard per benchmark and round) are not searched as pages:
their text would pass the index's budget (a first search loads at most 1 MB). Each is one
compact row instead, and search.js makes the rows into documents of kind 'result' and
'leaderboard': a result is found by its system's name, submitter, benchmark, chip or round, and
shows the round, submitter, benchmark, scale and division that tell two alike apart (two
results of tpu-v5p-1024), and the framework where even those are alike (TPU v3-8192's JAX and
TensorFlow results of v0.7). A copy of another result of its round (the same runs in a second
folder) is that result, counted once as on every page: it has no row of its own. Names repeat
across rows, so rows hold indexes into lists of names; rounds are listed oldest first, so that
search.js can put the newest first."""

from __future__ import annotations

from collections import Counter

from sitegen.base import urls
from sitegen.derive.model import Model
from sitegen.render.kinds import KINDS


def record_rows(model: Model, lang: str, t, found: list[list] | None = None) -> dict | None:
    """The record's part of one language's search index: {labels, templates, names, results,
    leaderboards}; None for a site without a record. `found`: result_rows of every result, in
    the order of their ids (made here when None)."""
    site = model.site
    if not model.record:
        return None
    found = result_rows(model, lang, sorted(model.record)) if found is None else found
    names: dict[str, dict[str, int]] = {
        "rounds": {r: at for at, r in enumerate(site.rounds)},
        "submitters": {},
        "benchmarks": {},
        "accelerators": {},
    }

    def at(kind: str, name: str) -> int:
        return names[kind].setdefault(name, len(names[kind]))

    results, boards = [], {}
    for system, ident, round_id, submitter, benchmark, accelerator, *rest, board in found:
        in_round = at("rounds", round_id)
        by, of = at("submitters", submitter), at("benchmarks", benchmark)
        results.append([system, ident, in_round, by, of, at("accelerators", accelerator), *rest])
        boards[board] = [of, in_round, board]
    return {
        # the kinds of page searched as rows (render/kinds.py): results and leaderboards
        "labels": {kind.name: t(f"search.kind.{kind.name}") for kind in KINDS if kind.rows},
        "templates": {
            "snippet": t("search.result_snippet"),
            "scale": t("ref.scale"),
            "url": urls.result(lang, "{id}").removeprefix(f"{lang}/"),
            "cpu": t("ref.cpu_only"),
            "leaderboard": t("leaderboard.title"),
            "divisions": [t("division.closed"), t("division.open")],
        },
        **{kind: list(listed) for kind, listed in names.items()},
        "results": _told_apart(results),
        "leaderboards": [boards[key] for key in sorted(boards)],
    }


def result_rows(model: Model, lang: str, idents: list[str]) -> list[list]:
    """The rows of the results `idents` (a copy of another result left out), each with its
    names as the language writes them (record_rows makes them indexes) and its leaderboard's
    address last."""
    site, rows = model.site, []
    shown: dict[str, str] = {}  # a submitter as the language writes it (companies.yaml)
    for ident in idents:
        result = model.record[ident]
        if model.index.copy_of(result):
            continue
        benchmark = site.get("benchmarks", result["benchmark"])
        board = urls.leaderboard(lang, benchmark["id"], result["round"]).removeprefix(f"{lang}/")
        rows.append([*_result_row(model, lang, result, benchmark["name"][lang], shown), board])
    return rows


def _result_row(model: Model, lang: str, result: dict, benchmark: str, shown: dict) -> list:
    """A result's row: its system, id, round, submitter, benchmark, chip, accelerator count,
    division (0 closed, 1 open) and framework."""
    index = model.index
    entity = index.submitters[index.submitter_of(result)]
    if entity.slug not in shown:
        company = model.names.of_entity(entity)
        shown[entity.slug] = company[lang] if company else entity.name
    accelerator = (
        index.accelerators[index.accelerator_of(result)].name if result.get("accelerator_count") else ""
    )
    return [
        result.get("system_name") or "",
        result["id"],
        result["round"],
        shown[entity.slug],
        benchmark,
        accelerator,
        result.get("accelerator_count") or 0,
        int(result["division"] != "closed"),
        result.get("framework") or "",  # dropped by _told_apart unless needed
    ]


def _told_apart(rows: list[list]) -> list[list]:
    """Each row without its last field (the framework) unless another row would read the
    same: then with it, or with the result's id where the framework is alike too, so that no
    two rows of the list look alike."""
    alike = Counter((row[0], *row[2:-1]) for row in rows)
    same_framework = Counter((row[0], *row[2:]) for row in rows)
    told = []
    for row in rows:
        if alike[(row[0], *row[2:-1])] == 1:
            told.append(row[:-1])
        elif same_framework[(row[0], *row[2:])] == 1 and row[-1]:
            told.append(row)
        else:
            told.append([*row[:-1], row[1]])
    return told
