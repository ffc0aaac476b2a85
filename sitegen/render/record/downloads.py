"""The whole record as downloads: CSV and JSON, one file per round, one for all rounds and one
per result (linked from its page), each carrying its provenance (repository, commit) and how
to cite it; and the page that lists them. Values are at full precision, as imported; nothing
here is rounded (accelerator_minutes, the one derived figure, is computed from them at full
precision too)."""

from __future__ import annotations

import csv
import io
import json

from sitegen.base import languages, urls
from sitegen.content.model import Site
from sitegen.derive.model import Model
from sitegen.render.record import citation as cite

FOLDER = "downloads"
STEM = "mlperf-training"
COLUMNS = (
    "id",
    "round",
    "benchmark",
    "benchmark_folder",
    "division",
    "category",
    "submitter",
    "system_name",
    "system_folder",
    "accelerator_model",
    "chip_vendor",
    "chip_family",
    "chip_variant",
    "accelerator_count",
    "accelerator_count_official",
    "nodes",
    "host_cpu_model",
    "host_cpu_count",
    "framework",
    "status",
    "value",
    "unit",
    "scaling",
    "runs",
    "runs_failed",
    "runs_required",
    "energy_joules",
    "resubmission_of",
    "carried_over_from",
    "copy_of",
    "official_folder",
    "system_description",
    "accelerator_minutes",  # derived: value × accelerator_count (derived.py), not an MLPerf score
)
# MLCommons' trademark legend (MLPerf_Results_Messaging_Guidelines.adoc, "Attribution"), with
# the ® its "Notice Symbol" asks of every use of the name
LICENCE = (
    "MLCommons publishes these results under the Apache License 2.0. The MLPerf® name and logo "
    "are registered and unregistered trademarks of MLCommons Association in the United States "
    "and other countries. All rights reserved. Unauthorized use strictly prohibited. See "
    "www.mlcommons.org for more information."
)


def file_name(round_id: str | None, suffix: str) -> str:
    return f"{FOLDER}/{STEM}-{round_id or 'all'}.{suffix}"


def result_file(ident: str, suffix: str) -> str:
    """One result's own CSV or JSON: its row of the round's files."""
    return f"{FOLDER}/results/{ident}.{suffix}"


def official_link(rnd: dict, path: str) -> str:
    return f"{rnd['repository'].rstrip('/')}/tree/{rnd['commit']}/{path}"


def row(model: Model, result: dict) -> dict:
    """One result as a flat row: the record's fields, and links to its official files. The
    result is read whole, as one dependency (a field-by-field note of every result of the
    record made the all-rounds files' unit note some 90,000)."""
    result = result.copy()
    rnd = model.site.rounds[result["round"]]
    flat = {name: result.get(name) for name in COLUMNS}
    chip = result.get("chip") or {}  # chips.py: the chip the site classifies
    flat["chip_vendor"] = (chip.get("vendor_name") or {}).get(languages.ENGLISH)
    flat["chip_family"], flat["chip_variant"] = chip.get("family_name"), chip.get("variant")
    energy = result.get("energy") or {}
    flat["energy_joules"] = energy.get("value") if energy.get("unit", "J") == "J" else None
    origin, copied = model.index.carried_from(result), model.index.copy_of(result)
    flat["carried_over_from"] = origin["id"] if origin else None  # carryover.py
    flat["copy_of"] = copied["id"] if copied else None
    flat["official_folder"] = official_link(rnd, result["path"])
    flat["system_description"] = official_link(rnd, result["system_path"])
    flat["accelerator_minutes"] = model.work_value(result)  # full precision
    return flat


def provenance(site: Site, round_ids: list[str]) -> list[dict]:
    keys = ("id", "repository", "commit", "commit_date", "published", "ruleset")
    return [{key: _plain(site.rounds[r].get(key)) for key in keys} for r in round_ids]


def citation(site: Site, round_ids: list[str]) -> str:
    """The files' how_to_cite (the downloads page says it in its language: citation.py)."""
    commits = "; ".join(_source(site.rounds[r]) for r in round_ids)
    return (
        f"MLPerf® Training results, as published by MLCommons Association: {commits}; scores "
        "recomputed from the logs by the round's rules. A result is cited from its page on this "
        f"site, which names its division, category, benchmark, submitter and system. {LICENCE}"
    )


def _source(rnd: dict) -> str:
    retrieved = f" retrieved {rnd['retrieved'].isoformat()}" if rnd.get("retrieved") else ""
    return f"{rnd['id']} {rnd['repository']} at commit {rnd['commit']}{retrieved}"


def _plain(value):
    return value.isoformat() if hasattr(value, "isoformat") else value


def as_csv(rows: list[dict]) -> bytes:
    return (csv_head() + "".join(csv_lines(rows))).encode("utf-8")


def csv_head() -> str:
    """The CSV's first line: the column names."""
    return _csv_lines([COLUMNS])[0]


def csv_lines(rows: list[dict]) -> list[str]:
    """Each row's line of the CSV (a field with a line break in it is quoted by the writer, so
    a line is one row's text, not one line of it): a round's file, and each result's own."""
    return _csv_lines([_cell(flat[name]) for name in COLUMNS] for flat in rows)


def _csv_lines(rows) -> list[str]:
    """Each row of cells as the one CSV writer of the downloads writes it."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    lines = []
    for cells in rows:
        writer.writerow(cells)
        lines.append(stream.getvalue())
        stream.seek(0)
        stream.truncate()
    return lines


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ";".join("" if v is None else repr(v) for v in value)
    return repr(value) if isinstance(value, float) else str(value)


def as_json(site: Site, round_ids: list[str], rows: list[dict]) -> bytes:
    """The document, indented, with one result a line: as readable, and written by json's C
    encoder (an indented dump of all 2,258 results took 0.3 s of every result edit)."""
    return _json_document(_json_head(site, round_ids), [_json_line(row) for row in rows])


def _json_head(site: Site, round_ids: list[str]) -> str:
    head = json.dumps(
        {
            "title": "MLPerf® Training results",
            "licence": LICENCE,
            "how_to_cite": citation(site, round_ids),
            "provenance": provenance(site, round_ids),
        },
        ensure_ascii=False,
        indent=1,
    )
    return head.removesuffix("\n}")


def _json_line(row: dict) -> str:
    return json.dumps(row, ensure_ascii=False)


def _json_document(head: str, lines: list[str]) -> bytes:
    return (head + ',\n "results": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n").encode("utf-8")


def round_rows(model: Model, round_id: str) -> list[dict]:
    return sorted((row(model, r) for r in model.round_results(round_id)), key=lambda r: r["id"])


def round_downloads(model: Model, round_id: str, rows: list[dict] | None = None) -> dict[str, bytes]:
    """{output path: bytes} of one round's CSV and JSON, and each of its results' own: the
    same rows alone (one definition of the columns), each row's CSV line, JSON line and the
    round's heads made once. `rows`: the round's (round_rows), when the caller has them."""
    rows = round_rows(model, round_id) if rows is None else rows
    head, lines = csv_head(), csv_lines(rows)
    json_head, json_lines = _json_head(model.site, [round_id]), [_json_line(row) for row in rows]
    files = {
        file_name(round_id, "csv"): (head + "".join(lines)).encode("utf-8"),
        file_name(round_id, "json"): _json_document(json_head, json_lines),
    }
    for flat, line, json_line in zip(rows, lines, json_lines):
        files[result_file(flat["id"], "csv")] = (head + line).encode("utf-8")
        files[result_file(flat["id"], "json")] = _json_document(json_head, [json_line])
    return files


def all_rounds_downloads(model: Model) -> dict[str, bytes]:
    """{output path: bytes} of the CSV and JSON of every round; nothing without a record."""
    site = model.site
    if not site.rounds:
        return {}
    every = [x for round_id in site.rounds for x in round_rows(model, round_id)]
    return {
        file_name(None, "csv"): as_csv(every),
        file_name(None, "json"): as_json(site, list(site.rounds), every),
    }


def listing(model: Model) -> list[dict]:
    """The download page's rows: one per round, then all rounds (file paths and counts). A
    count counts results as every page does (a copy once); `copies`: the files' further rows,
    the copies, each marked copy_of."""
    site = model.site
    sets = [(r, model.round_results(r)) for r in site.rounds] + [(None, list(model.record.values()))]
    rows: list[dict] = []
    for round_id, results in sets:
        count = model.count(results)
        rows.append({"round": round_id, "count": count, "copies": len(results) - count})
        rows[-1]["rnd"] = site.rounds[round_id] if round_id else None
    for entry in rows:
        entry["csv"], entry["json"] = (file_name(entry["round"], s) for s in ("csv", "json"))
    return rows


def downloads_page(theme, site: Site, lang: str, t, model: Model) -> dict[str, bytes]:
    from sitegen.render.pages import _page

    return _page(
        theme,
        site,
        lang,
        t,
        urls.downloads(lang),
        "downloads.html",
        t("downloads.title"),
        [(t("nav.rounds"), urls.rounds(lang))],
        rows=listing(model),
        columns=COLUMNS,
        citation=cite.round_text(list(site.rounds.values()), lang, t),
        attribution=list(site.rounds.values()),
    )
