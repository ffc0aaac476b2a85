"""The claims page: every claim checked against the record, with the filters that narrow it
(claims-filter.js)."""

from __future__ import annotations

from sitegen.base import urls
from sitegen.derive.model import Model
from sitegen.render.pages import _attribution, _page, claim_systems


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
        model=model,
    )
