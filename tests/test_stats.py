import numpy as np
import pytest
from scipy import stats

from repro.stats import ks_distance, loglog_slope


def test_loglog_slope_recovers_a_power_law():
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    assert loglog_slope(x, 3.0 * x**-0.5) == pytest.approx(-0.5, abs=1e-12)


def test_loglog_slope_rejects_bad_input():
    with pytest.raises(ValueError, match="positive"):
        loglog_slope([1.0, 2.0], [1.0, -1.0])
    with pytest.raises(ValueError, match="1-d"):
        loglog_slope([1.0], [1.0])


def test_ks_distance_matches_a_hand_computed_case():
    # one sample at 0 against N(0, 1): sup |F_n - Phi| = 1/2
    assert ks_distance([0.0], stats.norm.cdf) == pytest.approx(0.5)


def test_ks_distance_shrinks_with_sample_size():
    rng = np.random.default_rng(0)
    small = ks_distance(rng.normal(size=50), stats.norm.cdf)
    large = ks_distance(rng.normal(size=50_000), stats.norm.cdf)
    assert large < small and large < 0.01


def test_ks_distance_rejects_empty():
    with pytest.raises(ValueError):
        ks_distance([], stats.norm.cdf)
