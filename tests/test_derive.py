import pytest

from sitegen import derive
from sitegen.load import load_site


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


def test_claim_verdict_uses_the_precision_of_the_stated_figure(site):
    check = derive.check_claim(site, site.get("claims", "c-ppr"))
    assert check.verdict == "consistent"  # 1.333 rounds to the stated 1.3
    assert check.steps["zh"] == ["(20.0分钟 × 30万美元) ÷ (30.0分钟 × 15万美元) = 1.333倍"]
    claim = dict(site.get("claims", "c-ppr"), figure=1.35)
    differs = derive.check_claim(site, claim)
    assert differs.verdict == "differs"
    assert differs.difference == pytest.approx(4 / 3 - 1.35)


def test_improvement_claim_that_means_time_saved_is_explained(site):
    claim = dict(site.get("claims", "c-ppr"), figure=33, unit="percent",
                 check={"kind": "improvement", "result": "r-zenith", "baseline": "r-acme"})
    check = derive.check_claim(site, claim)
    assert check.verdict == "differs"
    assert check.alternative == {"reason": "reduction", "value": pytest.approx(100 / 3)}


def test_unchecked_claims_have_no_value(site):
    claim = dict(site.get("claims", "c-ppr"), check={"kind": "none", "reason": {"en": "x", "zh": "x"}})
    assert derive.check_claim(site, claim).verdict == "unchecked"


def test_comparisons_pair_systems_sharing_a_benchmark(site):
    found = derive.comparisons(site)
    assert [(c.id, c.kind, len(c.rows)) for c in found] == [("acme-16-vs-zenith-8", "same-round", 1)]
    assert found[0].rows[0].speedup == pytest.approx(20 / 30)
