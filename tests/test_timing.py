import time

import pytest

from repro.timing import best_time


def test_best_time_is_the_minimum_over_calls():
    delays = iter([0.03, 0.01, 0.02])
    t = best_time(lambda: time.sleep(next(delays)), repeats=3)
    assert 0.009 <= t < 0.02


def test_best_time_calls_fn_repeats_times():
    calls = []
    best_time(lambda: calls.append(1), repeats=4)
    assert len(calls) == 4


def test_best_time_rejects_zero_repeats():
    with pytest.raises(ValueError):
        best_time(lambda: None, repeats=0)
