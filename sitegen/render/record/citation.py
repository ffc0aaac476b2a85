"""Citations as a reader copies them: one result's (its page) and a round's (the downloads
page), each one paragraph of plain text in the page's language, MLPerf® untranslated, ending
with MLCommons' trademark legend (derive/citation.py says what a result's names and why)."""

from __future__ import annotations

from sitegen.base import fmt, languages
from sitegen.derive.model import Model


def submitter(model: Model, spelling: str, lang: str, t) -> str:
    """The submitter as published (ASUSTeK, found so in MLCommons' tables); in a language that
    writes the company otherwise, its name there with the published spelling beside it."""
    name = model.names.submitter(spelling, lang)
    if name == model.names.latin(spelling):
        return spelling
    return t("ref.latin_aside", name=name, latin=spelling)


def retrieved(folder: str, date, lang: str, t) -> str:
    """Where the text was retrieved from and, where the record says, when."""
    if date is None:
        return t("cite.source_undated", url=folder)
    return t("cite.source", url=folder, date=fmt.date(date, t.language))


def result_text(model: Model, result: dict, lang: str, t) -> str:
    """One result's citation: what, who, where from and when, and the legend."""
    cite = model.citation(result)
    who = t(
        "cite.who",
        submitter=submitter(model, cite.submitter, lang, t),
        system=cite.system,
    )
    if cite.accelerator_model:
        count = fmt.number(cite.accelerator_count, t.language, 0)
        who += t("cite.accelerators", count=count, accelerator=cite.accelerator_model)
    if cite.accelerator_model and cite.official_count is not None:  # corrected: both said
        who += t("cite.official_count", count=fmt.number(cite.official_count, t.language, 0))
    what = t(
        "cite.what",
        round=cite.round,
        division=t(f"division.{cite.division}"),
        benchmark=model.site.get("benchmarks", cite.benchmark)["name"][lang],
        category=t(f"category.{cite.category}"),
        who=who,
    )
    gap = languages.gap(t.language)
    return gap.join((what, retrieved(cite.folder, cite.retrieved, lang, t), t("cite.legend")))


def round_text(rounds: list[dict], lang: str, t) -> str:
    """A citation of whole rounds (the downloads page): each round's repository at its commit,
    retrieved when the record says, and the legend; a result is cited from its own page."""
    sources = t("cite.list_separator").join(_round_source(rnd, lang, t) for rnd in rounds)
    gap = languages.gap(t.language)
    return gap.join((t("cite.rounds", sources=sources), t("cite.legend")))


def _round_source(rnd: dict, lang: str, t) -> str:
    facts = {"round": rnd["id"], "repository": rnd["repository"], "commit": rnd["commit"]}
    if not rnd.get("retrieved"):
        return t("cite.round_source_undated", **facts)
    return t("cite.round_source", **facts, date=fmt.date(rnd["retrieved"], t.language))
