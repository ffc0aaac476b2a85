"""Rendering in forked processes: results come back in order; a crash is an error that says why."""
import os

import pytest

from sitegen.rendering import _in_forked_processes


def _square(n):
    return n * n


def _fail(n):
    raise ValueError(f"broken job {n}")


def _die(n):
    os._exit(3)


def test_results_come_back_in_the_order_of_the_jobs():
    assert _in_forked_processes(_square, [3, 4, 5]) == [9, 16, 25]


def test_an_exception_in_a_process_is_raised_with_its_traceback():
    with pytest.raises(RuntimeError) as caught:
        _in_forked_processes(_fail, [1, 2])
    assert "ValueError: broken job 1" in str(caught.value) and "_fail" in str(caught.value)


def test_a_process_that_dies_is_an_error_with_its_exit_code():
    with pytest.raises(RuntimeError, match="exit code 3"):
        _in_forked_processes(_die, [1])
