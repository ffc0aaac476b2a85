"""The derive stage's one product: the model of the record that render reads.

`build(site)` runs once per build, in the parent process before any language is forked
(assemble/pipeline.py): it computes the record's entities (record_index.py), and its maps
compute each entry of the figures every view shares when a page first reads it (lazy.py;
`Model.complete` computes all of them before a build that renders much of the site forks): each result's accelerator-minutes and scaling, every slot's headline
(references.py: Available ranked apart, a faster Preview or Research result named, results
without a score named with their scale), each benchmark's progress, the current suite and the
series across rounds, the claim verdicts and the comparisons. Its maps refuse writes; reading
an entry counts, for the incremental build, as reading what the entry was computed from
(content/tracking.py).

A reference an editor writes ([[fastest:...]], [[at_scale:...]] and kin) asks a question of
its own; the model answers it with the same rules (`Model.statements`, `Model.figures`).
Render and templates reach results through the model alone: tests/unit/test_render_reads_model.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, partial
from types import SimpleNamespace

from sitegen.content import chip_looks
from sitegen.content.model import Site
from sitegen.content.tracking import derived_list, read_only
from sitegen.derive import (
    at_scale,
    chart_plan,
    chart_select,
    chip_family,
    chip_views,
    compatibility,
    suite,
)
from sitegen.derive import claims as claim_checks
from sitegen.derive import references as statements_module
from sitegen.derive.chart_plan import RECORD_METRICS, Plan  # noqa: F401
from sitegen.derive.chart_select import BadBlock, as_list, benchmark_ids, round_key  # noqa: F401
from sitegen.derive.citation import Citation, of_result
from sitegen.derive.comparisons import comparisons
from sitegen.derive.lazy import LazyReplayed, lazy_mapping
from sitegen.derive.questions import (
    Figure,
    Throughput,
    chips_for,
    figures_for,
    names_for,
    scaling_figures,
    statements_for,
    throughput_figure,
    work_figure,
)
from sitegen.derive.record_index import Entity, RecordIndex, index_of, progress, system_label  # noqa: F401
from sitegen.derive.scale_chart import ScaleData, scale_data


@dataclass(frozen=True)
class Model:
    """The record as every page sees it. `site` is there for the curated tables (names,
    prices, descriptions): the results are reached through the fields and `results`."""

    site: Site
    index: RecordIndex  # submitters, chip families, system descriptions, carry-overs, copies
    claims: LazyReplayed  # claim id -> claims.Check (its verdict and arithmetic)
    headlines: LazyReplayed  # (round, benchmark, division) -> references.Headline
    progress: LazyReplayed  # benchmark -> its progress chart's points (record_index.progress)
    work: LazyReplayed  # result id -> its accelerator-minutes, a Figure (None without a time or accelerators)
    scaling: LazyReplayed  # result id -> the same system's results at other scales, each efficiency a Figure
    throughput: LazyReplayed  # result id -> its throughput per accelerator (questions.Throughput) or None
    latest_round: str | None
    statements: SimpleNamespace  # the questions of [[fastest:...]] and kin (references.py)
    figures: SimpleNamespace  # derived figures of the record and the curated results
    chips: SimpleNamespace  # chip_figures, chip_views: a chip family's page's figures
    names: SimpleNamespace  # a submitter's company name in a language (names.py)
    versions: SimpleNamespace  # MLCommons' compatibility table (compatibility.py)
    scales: LazyReplayed  # benchmark -> the counts with a view at equal scale (at_scale.SCALE_RULE)
    at_scale: LazyReplayed  # (benchmark, count) -> at_scale.View: each family's standing result per round
    # the maps above compute an entry when it is first read (lazy.py), the lists below when
    # first used; each is made in the build's one model, never again

    @cached_property
    def comparisons(self) -> list:
        """comparisons.Comparison of curated systems."""
        with self.site.reads.paused():  # noted by every page that uses them, not the first
            return read_only(comparisons(self.site))

    @cached_property
    def suite(self) -> list:
        """The latest round's benchmarks, in the home page's order."""
        return _listed(self.site, lambda: suite.current_suite(self.site))

    @cached_property
    def series(self) -> list:
        """suite.Series: every benchmark series across the rounds, with its breaks."""
        headline = partial(_slot_headline, self.site, self.headlines)
        return _listed(self.site, lambda: suite.all_series(self.site, headline))

    def complete(self) -> None:
        """Every entry of every map and list computed now: a build that renders many pages in
        forked processes calls this first, so that no process computes one again."""
        maps = (self.claims, self.headlines, self.progress, self.work, self.scaling, self.throughput)
        for derived in (*maps, self.scales, self.at_scale):
            derived.complete()
        for name in ("comparisons", "suite", "series"):
            getattr(self, name)  # made now, kept on the model

    @property
    def system_results(self) -> dict:
        """The record's results of the official system folders that data/mlperf_systems.yaml
        maps to a curated system, by id (the claims' and comparisons' results)."""
        return self.site.tables["results"]

    @property
    def verdict_counts(self) -> dict[str, int]:
        """How many claims have each verdict, in the order pages list them."""
        verdicts = [check.verdict for check in self.claims.values()]
        return {v: verdicts.count(v) for v in claim_checks.VERDICTS}

    def product(self, system: str) -> tuple[list, list[dict]]:
        """A curated system's official system descriptions (newest round first) and their
        results by benchmark, round, division and id."""
        descriptions = [self.index.systems[key] for key in self.index.product_systems(system)]
        found = [r for d in descriptions for r in d.results]
        return descriptions, sorted(found, key=lambda r: (r["benchmark"], r["round"], r["division"], r["id"]))

    @property
    def record(self) -> dict:
        """Every result of the record, by id."""
        return self.site.record

    def selection_total(self, rows: list[dict]) -> tuple[list[tuple[str, str]], int]:
        """The (benchmark, round) slots of a block's rows, and how many results the record
        holds there in the rows' divisions (a copy once, as every count counts)."""
        slots = sorted({(r["benchmark"], r["round"]) for r in rows})
        divisions = {r["division"] for r in rows}
        total = sum(
            self.count([r for r in self.results(b, rnd) if r["division"] in divisions]) for b, rnd in slots
        )
        return slots, total

    def work_of(self, result: dict) -> Figure | None:
        """A result's accelerator-minutes (time to train × accelerators), None without them."""
        if result["id"] in self.site.record:
            return self.work[result["id"]]
        return work_figure(result)

    def throughput_of(self, result: dict) -> Throughput | None:
        """A result's throughput per accelerator (LLM benchmarks; None elsewhere)."""
        return self.throughput[result["id"]] if result["id"] in self.site.record else None

    def level_with_fastest(self, entity, fastest: list[dict]) -> dict:
        """Result id -> (the entity's other results level with it, the noise band), for each
        of its fastest results (Entity.fastest): the scored results of the same benchmark and
        division that count, within the benchmark's noise band of its time
        (derived.level_with_first), a result republished in a later round counted once."""
        counted = self.index.counted(entity.results)
        return {
            best["id"]: (
                statements_module.level_with(self.site, best, counted),
                statements_module.band_of(self.site, best["benchmark"]),
            )
            for best in fastest
        }

    def citation(self, result: dict) -> Citation:
        """What a citation of the result names (citation.py)."""
        return of_result(self.site, result)

    def work_value(self, result: dict) -> float | None:
        """A result's accelerator-minutes at full precision (downloads, data files), or None."""
        figure = self.work_of(result)
        return None if figure is None else figure.value

    def runs(self, result: dict) -> tuple[int, int] | None:
        """(runs in the result's logs, runs that failed); None when the logs are missing."""
        return statements_module.runs_of(result)

    def by_energy(self, results: list[dict]) -> list[dict]:
        """The results with an energy figure, least energy first (ties by id)."""
        return sorted((r for r in results if r.get("energy")), key=lambda r: (r["energy"]["value"], r["id"]))

    def frameworks(self, results: list[dict]) -> list[str]:
        """The frameworks the results name, each once, in order."""
        return sorted({r["framework"] for r in results if r.get("framework")})

    def unscored_of(self, entity) -> list[dict]:
        """An entity's results without a time (logs missing, too few), a copy once."""
        return [r for r in self.index.counted(entity.results) if r["value"] is None]

    def entity_counts(self, kind: str) -> dict[str, int]:
        """How many submitters or chip families (`entities`) the record has; for chips, how
        many families chips.yaml classifies and how many vendors they belong to."""
        entities = list(getattr(self.index, kind).values())
        families = [e for e in entities if e.chip]
        vendors = {vendor for vendor, _name, _rows in chip_views.by_vendor(entities) if vendor}
        return {"entities": len(entities), "families": len(families), "vendors": len(vendors)}

    def products(self) -> list[dict]:
        """The curated systems (systems.yaml) by vendor, family and size."""
        return sorted(
            self.site.table("systems"),
            key=lambda s: (s["vendor"], s["family"], s["accelerator_count"], s["id"]),
        )

    def round_summary(self, round_id: str) -> tuple[int, int, int]:
        """A round's benchmarks, submitters (by the record's spelling) and results (a copy once)."""
        results = self.index.counted(self.round_results(round_id))
        return len(self.round_benchmarks(round_id)), len({r["submitter"] for r in results}), len(results)

    def round_submitters(self, round_id: str) -> dict[str, list[dict]]:
        """A round's results (a copy once) by submitter (however its results spell it)."""
        found: dict[str, list[dict]] = {}
        for result in self.index.counted(self.round_results(round_id)):
            found.setdefault(self.index.submitter_of(result), []).append(result)
        return found

    def count(self, results) -> int:
        """How many results a set counts: a copy of another result of its round once."""
        return len(self.index.counted(results))

    def results(self, benchmark: str, round_id: str) -> list[dict]:
        """The results of a benchmark in a round, fastest first (the record's view)."""
        return self.site.record_results(benchmark, round_id)

    def round_results(self, round_id: str) -> list[dict]:
        return self.site.round_results(round_id)

    def rounds_of(self, benchmark: str) -> list[str]:
        """The rounds holding results of a benchmark, oldest first."""
        return self.site.record_rounds(benchmark)

    def benchmarks(self) -> list[str]:
        """The benchmarks with results in the record."""
        return list(self.site.record_benchmarks())

    def round_benchmarks(self, round_id: str) -> list[str]:
        return self.site.round_benchmarks(round_id)

    def rounds_held(self, who: str, benchmark: str):
        return self.site.rounds_held(who, benchmark)

    def count_systems(self) -> int:
        """How many official system descriptions the record holds."""
        return len(self.index.systems)

    def system_rows(self, key: str) -> list[dict]:
        """An official system description's results: by benchmark and division, fastest first."""
        return sorted(
            self.index.systems[key].results,
            key=lambda r: (r["benchmark"], r["division"], r["value"] is None, r["value"] or 0, r["id"]),
        )

    def systems_by_chip(self) -> list[tuple]:
        """(chip, [(submitter, its systems with that chip, newest round first)]) for the
        systems index, chips and submitters in name order."""
        index = self.index
        chips: dict[str, dict[str, list]] = {}
        for system in index.systems.values():
            first = system.results[0]
            chips.setdefault(index.accelerator_of(first), {}).setdefault(
                index.submitter_of(first), []
            ).append(system)
        order = list(self.site.rounds)
        return [
            (
                index.accelerators[chip],
                [
                    (
                        index.submitters[who],
                        sorted(systems, key=lambda s: (-order.index(s.rounds[0]), s.name.casefold(), s.slug)),
                    )
                    for who, systems in sorted(
                        chips[chip].items(), key=lambda kv: index.submitters[kv[0]].name.casefold()
                    )
                ],
            )
            for chip in index.accelerators
            if chip in chips
        ]

    def chip(self, entity, facts: dict | None) -> SimpleNamespace:
        """A chip family's page's figures (chip_family.page_figures)."""
        return chip_family.page_figures(self.site, self.index, self.at_scale, entity, facts)

    def scale_chart(self, benchmark: str, rounds: list[str]) -> ScaleData | None:
        """The scale chart of a benchmark's results in `rounds` (scale_chart.py)."""
        every = [r for round_id in rounds for r in self.results(benchmark, round_id)]
        return scale_data(every, self.index, self.unscored_closed([benchmark], rounds))

    def look(self, family: str) -> dict:
        """A chip family's colour and shape on every chart (chip_looks.look_of)."""
        return chip_looks.look_of(self.site.tables, family)

    def plan_chart(self, t, params: dict, lang: str):
        """What a report's ```chart block plots (chart_plan.py); BadBlock for a bad block."""
        return chart_plan.plan_chart(self.site, t, params, lang)

    def block_rows(self, params: dict, page, line: int) -> list[dict] | None:
        """The rows of a ```results block (None: a problem, said on the page)."""
        return chart_select.results_rows(self.site, params, page, line)

    def family_progress(self, family: str, benchmark: str, scale: int) -> list[dict]:
        """A chip family's fastest closed result at `scale` accelerators in each round
        (chip_family.progress_at)."""
        return chip_family.progress_at(self.site, self.index, family, benchmark, scale)

    def unscored_closed(self, benchmarks, rounds: list[str] | None = None) -> int:
        """How many closed-division results of the benchmarks have no time, in `rounds` (by
        default every round each benchmark was held in)."""
        return sum(
            len(self.headline(r, b).unscored)
            for b in benchmarks
            for r in (self.rounds_of(b) if rounds is None else rounds)
        )

    def headline(self, round_id: str, benchmark: str, division: str = "closed") -> statements_module.Headline:
        """A slot's headline; a slot the record does not hold has an empty one."""
        return _slot_headline(self.site, self.headlines, round_id, benchmark, division)


def build(site: Site) -> Model:
    """The model of `site`'s record, made once (pipeline.py: before any process forks). Its
    maps compute each entry when first read (lazy.py); `Model.complete` computes them all."""
    reads = site.reads
    with reads.paused():
        index = index_of(site)
        slots = sorted({(r["round"], r["benchmark"], r["division"]) for r in site.record.values()})
        latest = suite.latest_round(site)
        records = sorted(site.record.items())
    benchmarks = sorted({key[1] for key in slots})
    scales, views = at_scale.views(site, index, benchmarks)
    return Model(
        site=site,
        index=index,
        claims=claim_checks.check_claims(site),
        headlines=lazy_mapping(
            reads, lambda: ((key, _bound(statements_module.headline, site, *key)) for key in slots)
        ),
        progress=lazy_mapping(reads, lambda: ((b, _bound(progress, site, b, index)) for b in benchmarks)),
        work=lazy_mapping(reads, lambda: ((i, _bound(work_figure, site.record[i])) for i, _ in records)),
        scaling=_scaling_map(site, index),
        throughput=lazy_mapping(reads, lambda: ((i, _bound(throughput_figure, r)) for i, r in records)),
        latest_round=latest,
        statements=statements_for(site),
        figures=figures_for(site),
        chips=chips_for(),
        names=names_for(site),
        versions=SimpleNamespace(
            version_of=lambda benchmark, round_id: compatibility.version_of(site, benchmark, round_id),
            compatible=lambda one, other: compatibility.compatible(site, one, other),
            by_version=lambda results: compatibility.by_version(site, results),
        ),
        scales=scales,
        at_scale=views,
    )


def _scaling_map(site: Site, index: RecordIndex) -> LazyReplayed:
    """Result id -> its scaling rows (questions.scaling_figures), computed a slot at a time
    (RecordIndex.slot_scaling), when one of the slot's results is first read. Reading one
    entry counts as reading what its slot's grouping read: every result of the slot."""

    def listing() -> dict:
        with site.reads.paused():
            return {ident: (r["benchmark"], r["round"]) for ident, r in sorted(site.record.items())}

    def compute(slot: tuple[str, str]) -> dict:
        found = index.slot_scaling(site.record_results(*slot))
        with site.reads.paused():  # the rows' figures read what the grouping read
            return {ident: scaling_figures(rows) for ident, rows in found.items()}

    return LazyReplayed(site.reads, listing, compute)


def _slot_headline(
    site: Site, headlines: Mapping, round_id: str, benchmark: str, division: str = "closed"
) -> statements_module.Headline:
    """A slot's headline, as built; a slot the record does not hold (a round with only open
    results of the benchmark) has an empty one."""
    key = (round_id, benchmark, division)
    return (
        headlines[key]
        if key in headlines
        else statements_module.headline(site, round_id, benchmark, division)
    )


def _listed(site: Site, compute):
    """A derived list (tracking.derived_list), made with nothing noted for the page that
    first asks: every page that uses it is noted reading what it read."""
    with site.reads.paused():
        return read_only(derived_list(site.reads, compute))


def _bound(function, *args):
    return lambda: function(*args)
