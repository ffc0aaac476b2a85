"""The search index's rows of results (render/record/search_rows.py): a row carries its
framework, or else its id, only where another row would read the same (issue 48: no two rows
of a search's list alike). Rows written by hand: [system, id, round, submitter, benchmark,
accelerator, count, open, framework]."""

from __future__ import annotations

from sitegen.render.record.search_rows import _told_apart


def test_a_row_alike_no_other_has_no_framework():
    rows = [["A", "r1", 0, 0, 0, 0, 8, 0, "JAX"], ["A", "r2", 0, 0, 1, 0, 8, 0, "JAX"]]
    assert _told_apart(rows) == [["A", "r1", 0, 0, 0, 0, 8, 0], ["A", "r2", 0, 0, 1, 0, 8, 0]]


def test_rows_alike_but_for_their_framework_carry_it():
    # TPU v3-8192's JAX and TensorFlow BERT results of v0.7: the same name, round and scale
    rows = [
        ["TPU v3-8192", "jax", 2, 0, 11, 2, 4096, 0, "JAX"],
        ["TPU v3-8192", "tf", 2, 0, 11, 2, 4096, 0, "TF"],
    ]
    assert _told_apart(rows) == rows


def test_rows_alike_in_framework_too_carry_their_ids():
    rows = [
        ["X", "x-l40", 8, 29, 14, 16, 10, 0, "PyTorch"],
        ["X", "x-xl40", 8, 29, 14, 16, 10, 0, "PyTorch"],
        ["X", "x-mx", 8, 29, 14, 16, 10, 0, "MXNet"],
        ["Y", "y", 8, 29, 14, 16, 10, 0, ""],
        ["Y", "y2", 8, 29, 14, 16, 10, 0, "PyTorch"],
    ]
    assert [row[-1] for row in _told_apart(rows)] == ["x-l40", "x-xl40", "MXNet", "y", "PyTorch"]
