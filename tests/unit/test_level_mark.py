"""The note after a fastest result (render/level_mark.py): which results it names and how it
says their scales. Expected forms come from the rule in templates/_level_mark.html's comment:
a scale shared by the named results is said once, shared by some once per scale, else with each."""

from __future__ import annotations

from sitegen.render.level_mark import level_mark


def results(*counts):
    return [{"id": f"r{i}", "accelerator_count": c} for i, c in enumerate(counts)]


def test_one_scale_for_all_named_results_is_said_once():
    level = results(8, 8, 8, 16)  # the fourth is not named: "and 1 more"
    mark = level_mark(level)
    assert (mark.form, mark.more, mark.after) == ("each", 1, "level.after_each")
    assert mark.shown == level[:3]
    assert mark.groups == [(8, level[:3])]


def test_a_scale_shared_by_some_is_said_once_per_scale_in_order_of_first_appearance():
    level = results(16, 8, 16)
    mark = level_mark(level)
    assert (mark.form, mark.more, mark.after) == ("grouped", 0, "level.after_each")
    assert mark.groups == [(16, [level[0], level[2]]), (8, [level[1]])]


def test_each_result_says_its_own_scale_when_none_is_shared_or_one_has_no_accelerators():
    assert level_mark(results(8, 16, 32)).form == "plain"
    assert level_mark(results(8, 0, 0)).form == "plain"  # CPU only: no scale to share
    assert level_mark(results(8, 0, 0)).after == "level.after"
    assert level_mark(results(8)).form == "plain"  # one result shares with nobody
