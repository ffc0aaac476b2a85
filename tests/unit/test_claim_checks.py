"""Claim checks that read the whole record: `fastest` (a claimed result ranks first among the
scored results of its round, benchmark and division, optionally with a given node count),
`host_servers` (host CPUs over the CPUs per server the claim's source gives) and a claim's
`not_checked` part. Each makes the verdict follow the methodology's rules: a part resting on
the claim's own source, or a result the ranking cannot place, leaves the claim partly checked.

Expected values are computed here from the sample record's YAML, not copied from the code."""

import pytest
import yaml

from sitegen.base.errors import ContentError
from sitegen.content.load import load_site
from sitegen.derive import figures as derive

from record_sample import V10, _result, write_record_project

# A published result without logs at Acme's scale (16 accelerators, so 2 nodes in the sample).
UNSCORED = _result(
    "v1.0-zenith-zenith16-bert",
    "v1.0",
    "Zenith",
    "zenith16",
    "bert",
    None,
    [],
    count=16,
    model="Zenith Z1",
    status="logs missing",
)
RECORD = yaml.safe_load(V10 + UNSCORED)


def _claim(ident, figure, unit, check, extra=""):
    return (
        f"- id: {ident}\n  source: s-article\n  figure: {figure}\n  unit: {unit}\n"
        f"  stated_as: \"{figure}\"\n  statement: {{en: A statement., zh: 一条说法。}}\n"
        f"  measures: {{en: What it measures., zh: 所衡量的内容。}}\n  audited: true\n"
        f"  check: {check}\n{extra}"
    )


def _scored(nodes=None):
    rows = [
        r
        for r in RECORD
        if r["round"] == "v1.0"
        and r["benchmark"] == "bert"
        and r["division"] == "closed"
        and r["value"] is not None
        and (nodes is None or r["nodes"] == nodes)
    ]
    return sorted(rows, key=lambda r: r["value"])


SINGLE = _scored(nodes=1)[0]  # the fastest one-node result: Zenith's 8 accelerators
TWO = _scored(nodes=2)[0]  # the fastest two-node result: Acme's 16
OVERALL = _scored()[0]  # the fastest of all: BigCo's 1,024
CLAIMS = "".join(
    [
        _claim(
            "c-fast-single",
            round(SINGLE["value"], 1),
            "min",
            f"{{kind: fastest, result: {SINGLE['id']}, nodes: 1}}",
        ),
        _claim("c-fast-overall", round(TWO["value"], 1), "min", f"{{kind: fastest, result: {TWO['id']}}}"),
        _claim(
            "c-fast-two", round(TWO["value"], 1), "min", f"{{kind: fastest, result: {TWO['id']}, nodes: 2}}"
        ),
        _claim(
            "c-one-server",
            1,
            "count",
            "{kind: host_servers, result: v1.0-acme-acme16-bert, cpus_per_server: 2}",
        ),
        _claim(
            "c-two-servers",
            2,
            "count",
            "{kind: host_servers, result: v1.0-acme-acme16-bert, cpus_per_server: 2}",
        ),
        _claim(
            "c-part",
            round(TWO["value"], 1),
            "min",
            "{kind: time, result: v1.0-acme-acme16-bert}",
            "  not_checked: {en: The comparison with Zenith., zh: 与Zenith的比较。}\n",
        ),
    ]
)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("claimchecks")
    import project

    content = write_record_project(
        folder,
        {
            "data/record/results-v1.0.yaml": V10 + UNSCORED,
            "data/claims.yaml": project.CLAIMS.replace("r-acme", "v1.0-acme-acme16-bert").replace(
                "r-zenith", "v1.0-zenith-zenith8-bert"
            )
            + CLAIMS,
        },
    )
    return load_site(content)


def _check(site, ident):
    return derive.check_claim(site, site.tables["claims"][ident])


def test_fastest_among_single_node_results_is_consistent(site):
    check = _check(site, "c-fast-single")
    assert SINGLE["nodes"] == 1 and SINGLE["id"] == "v1.0-zenith-zenith8-bert"
    assert check.verdict == "consistent"
    assert check.value == pytest.approx(SINGLE["value"])
    assert SINGLE["id"] in check.records
    assert any("Zenith" in line for line in check.steps["en"])


def test_a_result_that_is_not_the_fastest_differs_and_the_check_names_the_fastest(site):
    check = _check(site, "c-fast-overall")
    assert check.verdict == "differs"
    assert check.value == pytest.approx(OVERALL["value"])  # BigCo's 1,024 accelerators
    assert OVERALL["id"] in check.records


def test_a_result_the_ranking_cannot_place_leaves_the_claim_partly_checked(site):
    check = _check(site, "c-fast-two")
    assert check.verdict == "partly" and check.agrees is True
    assert [p["id"] for p in check.unchecked_parts] == ["v1.0-zenith-zenith16-bert"]
    assert check.unchecked_parts[0]["what"] == "unscored"


def test_host_servers_divides_host_cpus_by_the_sources_cpus_per_server(site):
    host_cpus = next(r for r in RECORD if r["id"] == "v1.0-acme-acme16-bert")["host_cpu_count"]
    one, two = _check(site, "c-one-server"), _check(site, "c-two-servers")
    assert one.value == two.value == host_cpus / 2
    assert one.verdict == two.verdict == "partly"  # CPUs per server: the source's own word
    assert (one.agrees, two.agrees) == (True, False)
    assert [p["what"] for p in one.unchecked_parts] == ["cpus_per_server"]
    assert one.steps["en"] == ["host CPUs ÷ CPUs per server: 2 ÷ 2 = 1"]


def test_a_named_unchecked_part_makes_a_matching_claim_partly_checked(site):
    check = _check(site, "c-part")
    assert check.verdict == "partly" and check.agrees is True
    assert check.unchecked_parts[0]["text"]["en"] == "The comparison with Zenith."


def test_host_servers_needs_the_cpus_per_server(tmp_path):
    import project

    bad = _claim("c-bad", 1, "count", "{kind: host_servers, result: v1.0-acme-acme16-bert}")
    content = write_record_project(
        tmp_path,
        {
            "data/claims.yaml": project.CLAIMS.replace("r-acme", "v1.0-acme-acme16-bert").replace(
                "r-zenith", "v1.0-zenith-zenith8-bert"
            )
            + bad
        },
    )
    with pytest.raises(ContentError) as caught:
        load_site(content)
    assert any("cpus_per_server" in str(p) for p in caught.value.problems)
