"""What a page may ask of the model beyond the maps it builds (model.py): a derived figure's
type (Figure: its value, inputs, basis and label), and the questions an editor's reference or
a page parameterises (who was fastest there, a family at a scale, a company's name), each
answered by derive's functions for one site."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from sitegen.derive import chip_figures, chip_views, derived, names, scale_refs, suite, throughput
from sitegen.derive import claims as claim_checks
from sitegen.derive import figures as claim_figures
from sitegen.derive import references as statements_module
from sitegen.derive.record_index import system_label


@dataclass(frozen=True)
class Figure:
    """A figure derived by this site, never an MLPerf® score: its value at full precision, the
    results it is computed from (ids), the sentence that says how (a string key of
    content/i18n) and the label every view shows with it, linking the methodology's section."""

    value: float
    inputs: tuple[str, ...]
    basis: str
    label: str = "derived.label"
    section: str = "derived-figures"


def work_figure(result: dict) -> Figure | None:
    """A result's accelerator-minutes as a Figure (None without a time or accelerators)."""
    value = derived.accelerator_minutes(result)
    return None if value is None else Figure(value, (result["id"],), "ref.acc_minutes_basis")


@dataclass(frozen=True)
class Throughput:
    """A result's throughput per accelerator (throughput.py), each a Figure or None: samples
    per second, and tokens per second where the rules fix the sequence length."""

    samples: Figure | None
    tokens: Figure | None

    @property
    def shown(self) -> Figure:
        """The figure a table shows: tokens per second where known, else samples."""
        return self.tokens or self.samples  # type: ignore[return-value]

    @property
    def unit(self) -> str:
        return "tokens" if self.tokens else "samples"


def throughput_figure(result: dict) -> Throughput | None:
    """A result's throughput per accelerator as Figures (None without counts or a score)."""
    found = throughput.rates(result)
    if found is None:
        return None

    def figure(value: float | None, unit: str) -> Figure | None:
        basis = f"throughput.{unit}_basis"
        return (
            None if value is None else Figure(value, (result["id"],), basis, "throughput.label", "throughput")
        )

    return Throughput(figure(found.samples, "samples"), figure(found.tokens, "tokens"))


def throughput_unit(figures) -> str | None:
    """The unit of a table's throughput column: tokens when any row has tokens per second,
    samples when any has samples only, None when no row has throughput."""
    units = {f.unit for f in figures if f is not None}
    return "tokens" if "tokens" in units else ("samples" if units else None)


def scaling_figures(rows: list[dict]) -> list[dict]:
    """A result's scaling rows (RecordIndex.slot_scaling), each efficiency as a Figure of the two results."""
    return [
        {
            **row,
            "figure": Figure(
                row["efficiency"], (row["small"]["id"], row["large"]["id"]), "result.scaling_intro"
            ),
        }
        for row in rows
    ]


def statements_for(site) -> SimpleNamespace:
    """The record's answers to the statement references (references.py), for this site."""
    refs = statements_module
    return SimpleNamespace(
        slot=lambda *a: refs.slot(site, *a),
        fastest=lambda *a, **k: refs.fastest(site, *a, **k),
        level_with_fastest=lambda *a, **k: refs.level_with_fastest(site, *a, **k),
        level_with=lambda *a: refs.level_with(site, *a),
        level_with_first=lambda *a: refs.level_with_first(site, *a),
        unscored=lambda *a, **k: refs.unscored(site, *a, **k),
        equal_scale=lambda *a: refs.equal_scale(site, *a),
        equal_scale_others=lambda *a: refs.equal_scale_others(site, *a),
        band_of=lambda benchmark: refs.band_of(site, benchmark),
        runs_of=refs.runs_of,
        largest_first=lambda results: sorted(
            results, key=lambda r: (-(r["accelerator_count"] or 0), r["id"])
        ),
        family_at_scale=lambda *a: scale_refs.family_at_scale(site, *a),
        compare_at_scale=lambda *a, **k: scale_refs.compare_at_scale(site, *a, **k),
        tally=lambda *a: scale_refs.tally(site, *a),
        chips_of=lambda *a: scale_refs.chips_of(site, *a),
        parse_at_scale=scale_refs.parse_at_scale,
        Headline=refs.Headline,
    )


def figures_for(site) -> SimpleNamespace:
    """Derived figures of results (derived.py) and of the curated results (figures.py)."""
    return SimpleNamespace(
        minutes=derived.minutes,
        accelerator_minutes=derived.accelerator_minutes,
        noise_band=derived.noise_band,
        bands=(derived.VISION_BAND, derived.OTHER_BAND),
        level=derived.level,
        ranks=derived.ranks,
        least_work=derived.least_work,
        throughput_unit=throughput_unit,
        progress_at_scale=derived.progress_at_scale,
        ranked_apart=derived.ranked_apart,
        time=claim_figures.minutes,
        speedup=lambda *a: claim_figures.speedup(site, *a),
        improvement=lambda *a: claim_figures.improvement(site, *a),
        reduction=lambda *a: claim_figures.reduction(site, *a),
        price_performance=lambda *a: claim_figures.price_performance(site, *a),
        verdicts=claim_checks.VERDICTS,
        leaders=suite.leaders,
        lead_order=lambda ids: suite.lead_order(site, ids),
    )


def chips_for() -> SimpleNamespace:
    """A chip family's page's figures (chip_figures.py) and the families by vendor."""
    return SimpleNamespace(
        by_benchmark=chip_figures.by_benchmark,
        progress=chip_figures.progress,
        scaling=chip_figures.scaling,
        neighbours=chip_figures.neighbours,
        generation=chip_figures.generation,
        by_vendor=chip_views.by_vendor,
        system_label=system_label,
    )


def names_for(site) -> SimpleNamespace:
    """A submitter's company name in a language, its Latin name, an entity's names."""
    return SimpleNamespace(
        submitter=lambda spelling, lang: names.submitter_name(site, spelling, lang),
        latin=lambda spelling: names.latin_name(site, spelling),
        of_entity=lambda entity: names.entity_names(site, entity),
        company_of=lambda spelling: names.company_of(site, spelling),
    )
