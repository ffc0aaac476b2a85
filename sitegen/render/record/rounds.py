"""Page kinds of the whole MLPerf record: leaderboards, rounds and one page per result.

Each function returns {output path: bytes} for one language, like those of `pages.py`."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from sitegen.base import urls
from sitegen.content import scores
from sitegen.content.model import Site
from sitegen.derive.model import Model, RecordIndex
from sitegen.render.charts import scale as scale_chart
from sitegen.render.pages import _attribution as attribution
from sitegen.render.pages import _page
from sitegen.render.record import citation as cite
from sitegen.render.record import downloads

# Leaderboards group results by the number of accelerators: (lowest, highest, label key).
SCALES = (
    (0, 0, "scale.cpu"),
    (1, 8, "scale.1_8"),
    (9, 64, "scale.9_64"),
    (65, 512, "scale.65_512"),
    (513, None, "scale.513"),
)
DIVISIONS = ("closed", "open")
CATEGORIES = ("available", "preview", "research")


@dataclass
class Group:
    """One table of a leaderboard: a division, a category and a scale, fastest first."""

    division: str
    category: str
    scale: str
    rows: list[dict]

    @property
    def anchor(self) -> str:
        return f"{self.division}-{self.category}-{self.scale.split('.')[1]}"


def scale_of(count: int) -> str:
    return next(label for low, high, label in SCALES if count >= low and (high is None or count <= high))


def leaderboard_groups(results: list[dict]) -> list[Group]:
    """Division, category and scale kept apart, in that order; rows keep the given order."""
    tables: dict[tuple, list[dict]] = {}
    for result in results:
        key = (result["division"], result["category"], scale_of(result["accelerator_count"]))
        tables.setdefault(key, []).append(result)
    order = [(d, c, s[2]) for d in DIVISIONS for c in CATEGORIES for s in SCALES]
    return [Group(*key, tables[key]) for key in order if key in tables]


def group_ranks(groups: list[Group], band: float, index: RecordIndex, ranks) -> dict[str, tuple[int, bool]]:
    """id -> (rank, shared) in its table: derived.ranks over the scored results that count
    (not copies), so a result within `band` (the benchmark's noise band) of the first of a
    rank shares that rank (1=). Copies and results without a time have no rank."""
    found: dict[str, tuple[int, bool]] = {}
    for group in groups:
        ranked = [r for r in group.rows if r["value"] is not None and index.counts(r)]
        found.update({r["id"]: rank for r, rank in zip(ranked, ranks(ranked, band))})
    return found


def energy_groups(rows: list[dict]) -> list[Group]:
    """The energy leaderboard: the results with an `energy` (Model.by_energy: least energy
    first), grouped as the time one."""
    return leaderboard_groups(rows)


def leaderboard_page(theme, site: Site, lang, t, benchmark: dict, round_id: str, model: Model):
    name = benchmark["name"][lang]
    title = t("leaderboard.title", benchmark=name, round=round_id)
    crumbs = [(t("nav.benchmarks"), urls.benchmarks(lang)), (name, urls.benchmark(lang, benchmark["id"]))]
    results = model.results(benchmark["id"], round_id)
    index = model.index
    counted = model.count(results)  # a copy within the round is listed, not counted
    path = urls.leaderboard(lang, benchmark["id"], round_id)
    files: dict[str, bytes] = {}
    chart = Markup(scale_chart.scale_figure(model, t, lang, path, benchmark, [round_id], files))
    groups, band = leaderboard_groups(results), model.figures.noise_band(benchmark)
    energy = energy_groups(model.by_energy(results))
    return files | _page(
        theme,
        site,
        lang,
        t,
        path,
        "leaderboard.html",
        title,
        crumbs,
        benchmark=benchmark,
        round=site.rounds[round_id],
        groups=groups,
        ranks=group_ranks(groups, band, index, model.figures.ranks),
        band=band,
        count=counted,
        copies=len(results) - counted,
        energy_groups=energy,
        table_nav=len(groups) > 1 or bool(energy),  # links between the tables when there are several
        tunit=model.figures.throughput_unit(model.throughput_of(r) for r in results),
        energy_count=model.count(model.by_energy(results)),
        scale_chart=chart,
        index=index,
        filters=leaderboard_filters(results, index, t, lambda name: model.names.submitter(name, lang)),
        model=model,
        attribution=attribution(site, [round_id]),
    )


def leaderboard_filters(results: list[dict], index: RecordIndex, t, company=lambda name: name) -> list[tuple]:
    """(field, label key, [(value, label)]) for the leaderboard's filter form (filter.js); the
    rows carry the same values as data-f-<field>; `company` names a submitter in the page's
    language (derive/names.py)."""

    def options(values):  # equal labels (two vendors' "A1") in the order of their values, not the set's
        return sorted(set(values), key=lambda kv: (str(kv[1]).casefold(), str(kv[0])))

    scales = [s[2] for s in SCALES if any(scale_of(r["accelerator_count"]) == s[2] for r in results)]
    return [
        (
            "submitter",
            "col.submitter",
            options((index.submitter_of(r), company(r["submitter"])) for r in results),
        ),
        (
            "accelerator",
            "col.accelerator",
            options(
                (
                    index.accelerator_of(r),
                    index.accelerators[index.accelerator_of(r)].name or t("result.cpu_only"),
                )
                for r in results
            ),
        ),
        ("scale", "filter.scale", [(s.split(".")[1], t(s)) for s in scales]),
        (
            "division",
            "col.division",
            [(d, t(f"division.{d}")) for d in DIVISIONS if any(r["division"] == d for r in results)],
        ),
        (
            "category",
            "col.category",
            [(c, t(f"category.{c}")) for c in CATEGORIES if any(r["category"] == c for r in results)],
        ),
    ]


def result_page(theme, site: Site, lang, t, result: dict, model: Model):
    benchmark = site.get("benchmarks", result["benchmark"])
    rnd = site.rounds[result["round"]]
    title = t(
        "result.title", benchmark=benchmark["name"][lang], system=result["system_name"], round=result["round"]
    )
    crumbs = [
        (t("nav.rounds"), urls.rounds(lang)),
        (result["round"], urls.round_page(lang, result["round"])),
        (benchmark["name"][lang], urls.leaderboard(lang, benchmark["id"], result["round"])),
    ]
    index = model.index
    return _page(
        theme,
        site,
        lang,
        t,
        urls.result(lang, result["id"]),
        "result.html",
        title,
        crumbs,
        result=result,
        benchmark=benchmark,
        round=rnd,
        folder=urls.official(rnd, result["path"]),
        accelerator_minutes=model.work_of(result),
        throughput=model.throughput_of(result),
        site_result=model.system_results.get(result["id"]),
        index=index,
        scaling=model.scaling[result["id"]],
        changes=index.changes(result["id"]),
        resubmitted=model.record.get(result.get("resubmission_of") or ""),
        carried=index.carried_from(result),
        copied=index.copy_of(result),
        short=scores.short_of(result) if result["status"] == scores.TOO_FEW_LOGS else None,
        citation=cite.result_text(model, result, lang, t),
        files={suffix: downloads.result_file(result["id"], suffix) for suffix in ("csv", "json")},
        attribution=attribution(site, [result["round"]]),
        model=model,
    )


def _every(model: Model, round_id: str) -> list[tuple[dict, list[dict], int]]:
    """Every result of the round, linked, per benchmark fastest first (a click from the round's
    page), with their number (a copy once)."""
    every = []
    for b in model.round_benchmarks(round_id):
        rows = model.results(b, round_id)
        every.append((model.site.get("benchmarks", b), rows, model.count(rows)))
    return every


def round_page(theme, site: Site, lang, t, round_id: str, model: Model):
    index = model.index
    results = index.counted(model.round_results(round_id))  # a copy counts once
    submitters = model.round_submitters(round_id)  # one submitter, however its results spell it
    benchmarks = [
        (site.get("benchmarks", b), model.count(model.results(b, round_id)))
        for b in model.round_benchmarks(round_id)
    ]
    every = _every(model, round_id)
    order = list(site.rounds)
    before = order[order.index(round_id) - 1] if order.index(round_id) else None
    held = set(model.round_benchmarks(round_id))
    earlier = set(model.round_benchmarks(before)) if before else set()
    fastest = []
    for b in model.round_benchmarks(round_id):
        h = model.headline(round_id, b)
        if h.best or h.unscored:  # with the band its level results are in
            fastest.append((site.get("benchmarks", b), h, model.statements.band_of(b)))
    return _page(
        theme,
        site,
        lang,
        t,
        urls.round_page(lang, round_id),
        "round.html",
        t("round.title", round=round_id),
        [(t("nav.rounds"), urls.rounds(lang))],
        round=site.rounds[round_id],
        benchmarks=benchmarks,
        count=len(results),
        submitter_count=len(submitters),
        index=index,
        before=before,
        fastest=fastest,
        # whether a benchmark is led by a result without a score
        unscored_fastest=any(h.unscored for _, h, _ in fastest),
        every=every,
        new=[
            site.get("benchmarks", b) for b in model.round_benchmarks(round_id) if before and b not in earlier
        ],
        dropped=[site.get("benchmarks", b) for b in model.round_benchmarks(before) if b not in held]
        if before
        else [],
        submitters=sorted(
            (
                (
                    key,
                    " / ".join(sorted({model.names.submitter(r["submitter"], lang) for r in rows})),
                    len(rows),
                )
                for key, rows in submitters.items()
            ),
            key=lambda s: s[1].lower(),
        ),
        attribution=attribution(site, [round_id]),
        model=model,
    )


def rounds_index(theme, site: Site, lang, t, model: Model):
    rows = []
    for round_id, rnd in reversed(site.rounds.items()):
        rows.append((rnd, *model.round_summary(round_id)))
    return _page(
        theme,
        site,
        lang,
        t,
        urls.rounds(lang),
        "rounds.html",
        t("nav.rounds"),
        [],
        rows=rows,
        attribution=attribution(site, site.rounds),
        model=model,
    )
