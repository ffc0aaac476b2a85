"""derive/suite.py on a hand-made benchmarks table: a series followed along its chain, and the
home page's order of the current suite (suite_order first, then the table's order)."""

from types import SimpleNamespace

from sitegen.derive import suite

ROWS = [
    {"id": "resnet"},
    {"id": "ssd", "series": "retinanet"},
    {"id": "retinanet"},
    {"id": "ssd_v05", "series": "ssd"},
    {"id": "gpt3", "series": "llama31_405b", "suite_order": 4},
    {"id": "llama2_70b_lora", "suite_order": 3},
    {"id": "llama31_405b", "suite_order": 1},
    {"id": "loop_a", "series": "loop_b"},
    {"id": "loop_b", "series": "loop_a"},
]
SITE = SimpleNamespace(tables={"benchmarks": {row["id"]: row for row in ROWS}}, table=lambda name: ROWS)


def test_a_series_is_followed_to_its_last_benchmark():
    assert suite.series_of(SITE, "ssd_v05") == "retinanet"
    assert suite.series_of(SITE, "ssd") == "retinanet"
    assert suite.series_of(SITE, "gpt3") == "llama31_405b"
    assert suite.series_of(SITE, "resnet") == "resnet"
    assert suite.series_of(SITE, "loop_a") == "loop_b"  # a cycle stops where it closes


def test_the_lead_benchmarks_come_first_in_their_order_then_the_table_order():
    held = ["retinanet", "llama2_70b_lora", "resnet", "gpt3", "llama31_405b", "unknown"]
    assert suite.lead_order(SITE, held) == [
        "llama31_405b",
        "llama2_70b_lora",
        "gpt3",
        "resnet",
        "retinanet",
        "unknown",
    ]
