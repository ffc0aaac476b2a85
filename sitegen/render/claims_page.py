"""The claims page: every claim checked against the record, with the filters that narrow it
(claims-filter.js)."""

from __future__ import annotations

from markupsafe import Markup, escape

from sitegen.base import fmt, urls
from sitegen.derive.model import Model
from sitegen.render.page import Page, source_name
from sitegen.render.pages import _attribution, _page, claim_systems
from sitegen.render.references import rich_text


def claims_page(theme, site, lang, t, model: Model):
    ordered = sorted(model.claims.values(), key=lambda c: (c.claim["source"], c.claim["id"]))
    cited_by = {c.claim["id"]: site.reports_citing("claims", c.claim["id"], lang) for c in ordered}
    rounds = [
        model.system_results[c.claim["check"][k]]["round"]
        for c in ordered
        for k in ("result", "baseline")
        if c.claim["check"].get(k) in model.system_results
    ]
    # filters (claims-filter.js; without JavaScript the form stays hidden, the page complete)
    vendors = {
        c.claim["id"]: sorted(
            {
                site.get("systems", s)["vendor"]
                for s in claim_systems(model, c.claim)
                if s in site.tables["systems"]
            }
        )
        for c in ordered
    }
    sources = {c.claim["source"] for c in ordered}
    filters = [
        (
            "source",
            "claims.source",
            # a publisher's name as it writes it, marked as its language
            [(s["id"], s["publisher"], s["language"]) for s in site.table("sources") if s["id"] in sources],
        ),
        (
            "vendor",
            "col.vendor",
            [
                (v, site.get("vendors", v)["name"][lang], "")
                for v in sorted({v for vs in vendors.values() for v in vs})
            ],
        ),
        ("verdict", "claims.filter.verdict", [(v, t("verdict." + v), "") for v in model.figures.verdicts]),
    ]
    return _page(
        theme,
        site,
        lang,
        t,
        urls.claims(lang),
        "claims.html",
        t("nav.claims"),
        [],
        checks=sorted(ordered, key=lambda c: c.verdict != "differs"),  # the claims that differ first
        cited_by=cited_by,
        attribution=_attribution(site, rounds),
        vendors=vendors,
        filters=filters,
        unchecked={c.claim["id"]: unchecked_parts(site, lang, t, model, c.unchecked_parts) for c in ordered},
        model=model,
    )


def unchecked_parts(site, lang: str, t, model: Model, parts: list[dict]) -> Markup:
    """What a claim's check could not take as independent evidence, one line each: the part's
    kind says which sentence (derive/claims.py)."""
    return Markup("<br>").join(_unchecked_part(site, lang, t, model, part) for part in parts)


def _unchecked_part(site, lang: str, t, model: Model, part: dict) -> Markup:
    what, path = part["what"], urls.claims(lang)
    source = source_name(
        site.get("sources", part["source"]) if part.get("source") else None, site.languages.html_lang(lang)
    )
    if what == "statement":
        return escape(rich_text(part["text"][lang], Page(site, lang, path, model)))
    if what == "unscored":
        target = urls.relative(path, urls.result(lang, part["id"]))
        return Markup('<a href="{}">{}</a>').format(
            target, t("claims.weak.unscored", result=_named(model, part["id"]))
        )
    if what == "level":
        names = t("ref.list_separator").join(_named(model, other) for other in part["others"])
        band = fmt.ForSite(site.languages).number(part["band"] * 100, lang, 1)
        return escape(t("claims.weak.level", results=names, band=band))
    if what == "submission_id":
        return escape(t("claims.weak.submission_id", ids=part["id"], source=source))
    if what == "cpus_per_server":
        count = fmt.ForSite(site.languages).number(part["count"], lang, 0)
        return escape(t("claims.weak.cpus_per_server", count=count, source=source))
    basis = t("claims.basis." + (part.get("basis") or "estimate"))
    system = site.get("systems", part["id"])["name"][lang]
    return escape(t("claims.weak." + what, system=system, basis=basis, source=source))


def _named(model: Model, result_id: str) -> str:
    """A result as the claims page names it: its submitter and system."""
    result = model.record[result_id]
    return result["submitter"] + " " + result["system_name"]
