import pytest

from sitegen.content.load import load_site
from sitegen.derive import claims
from sitegen.derive import figures as derive
from sitegen.derive.comparisons import comparisons


@pytest.fixture
def site(project):
    return load_site(project)


def test_speedup_improvement_and_reduction(site):
    assert derive.speedup(site, "r-zenith", "r-acme") == pytest.approx(1.5)
    assert derive.improvement(site, "r-zenith", "r-acme") == pytest.approx(50.0)
    assert derive.reduction(site, "r-zenith", "r-acme") == pytest.approx(100 / 3)


def test_price_performance_uses_each_systems_first_price(site):
    # (20 min x $300,000) / (30 min x $150,000) = 1.333
    assert derive.price_performance(site, "r-acme", "r-zenith") == pytest.approx(4 / 3)


def _list_prices(site):
    """Both test systems priced by a published list price from a source other than the claim's."""
    for ident in ("acme-16", "zenith-8"):
        price = site.get("systems", ident)["prices"][0]
        price.update(basis="list", source="s-official")


def test_claim_verdict_uses_the_precision_of_the_stated_figure(site):
    _list_prices(site)
    check = claims.check_claim(site, site.get("claims", "c-ppr"))
    assert check.verdict == "consistent"  # (20 x 300,000) / (30 x 150,000) = 1.333, stated 1.3
    assert check.steps["zh"] == ["(20.0分钟 × 30万美元) ÷ (30.0分钟 × 15万美元) = 1.333倍"]
    assert check.records == ["r-acme", "r-zenith"]
    claim = dict(site.get("claims", "c-ppr"), figure=1.35)
    differs = claims.check_claim(site, claim)
    assert differs.verdict == "differs"
    assert differs.difference == pytest.approx(4 / 3 - 1.35)


def test_claim_resting_on_estimated_prices_is_partly_checked(site):
    # the times are audited results; both prices are estimates from the claim's own article
    check = claims.check_claim(site, site.get("claims", "c-ppr"))
    assert check.verdict == "partly"
    assert check.agrees is True
    assert [(p["id"], p["source"]) for p in check.unchecked_parts] == [
        ("acme-16", "s-article"),
        ("zenith-8", "s-article"),
    ]
    wrong = claims.check_claim(site, dict(site.get("claims", "c-ppr"), figure=2.0))
    assert (wrong.verdict, wrong.agrees) == ("partly", False)


def test_claim_whose_only_evidence_is_its_own_source_cannot_be_checked(site):
    # the article says Acme 16 costs $150,000; the only price on record is that article's
    claim = dict(
        site.get("claims", "c-ppr"), figure=150000, unit="usd", check={"kind": "price", "system": "acme-16"}
    )
    check = claims.check_claim(site, claim)
    assert check.verdict == "unchecked"
    assert check.value == 150000  # shown, but it proves nothing
    _list_prices(site)  # a list price from another source does check it
    assert claims.check_claim(site, claim).verdict == "consistent"


def test_percentage_claims_label_speed_up_gain_and_reduction(site):
    claim = dict(
        site.get("claims", "c-ppr"),
        figure=50,
        unit="percent",
        check={"kind": "improvement", "result": "r-zenith", "baseline": "r-acme"},
    )
    check = claims.check_claim(site, claim)
    # 30 / 20 = 1.5x; (1.5 - 1) x 100 = 50 %; (1 - 20/30) x 100 = 33.3 %
    assert check.verdict == "consistent"
    assert check.steps["en"] == [
        "speed-up: 30.0 min ÷ 20.0 min = 1.500×",
        "the same as a percentage gain: (1.500 − 1) × 100 = 50.0%",
        "time reduction: (1 − 20.0 min ÷ 30.0 min) × 100 = 33.3%",
    ]


def test_comparing_divisions_is_said(site):
    site.get("results", "r-zenith")["division"] = "open"
    claim = dict(
        site.get("claims", "c-ppr"),
        figure=1.5,
        unit="x",
        check={"kind": "speedup", "result": "r-zenith", "baseline": "r-acme"},
    )
    assert claims.check_claim(site, claim).divisions == ("open", "closed")


def test_improvement_claim_that_means_time_saved_is_explained(site):
    claim = dict(
        site.get("claims", "c-ppr"),
        figure=33,
        unit="percent",
        check={"kind": "improvement", "result": "r-zenith", "baseline": "r-acme"},
    )
    check = claims.check_claim(site, claim)
    assert check.verdict == "differs"
    assert check.alternative == {"reason": "reduction", "value": pytest.approx(100 / 3)}


def test_unchecked_claims_have_no_value(site):
    claim = dict(site.get("claims", "c-ppr"), check={"kind": "none", "reason": {"en": "x", "zh": "x"}})
    assert claims.check_claim(site, claim).verdict == "unchecked"


def test_comparisons_pair_systems_sharing_a_benchmark(site):
    found = comparisons(site)
    assert [(c.id, c.kind, len(c.rows)) for c in found] == [("acme-16-vs-zenith-8", "same-round", 1)]
    assert found[0].rows[0].speedup == pytest.approx(20 / 30)
