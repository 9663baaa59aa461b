"""Unit tests of :mod:`repro.papers.relu_regression_queries`, the kernels of ``notebooks/relu-regression-queries.py``.

Closed forms against scipy quadrature and Monte Carlo, exact recovery on noise-free data, the vectorised
prefix fits against single least-squares fits, the search's law, and bad input.
"""

import inspect
import math

import numpy as np
import pytest
from scipy import integrate
from scipy.stats import norm

from repro.papers import relu_regression_queries as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/relu_regression_queries.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- relu_square_mean
@pytest.mark.parametrize("t", [-6.0, -2.0, -0.3, 0.0, 0.4, 1.5, 3.0, 5.0, 9.0])
def test_relu_square_mean_matches_scipy_quadrature(t):
    q, _ = integrate.quad(lambda z: (z - t) ** 2 * norm.pdf(z), t, np.inf, epsabs=0, epsrel=1e-12)
    assert K.relu_square_mean(t) == pytest.approx(q, rel=1e-9)


def test_relu_square_mean_matches_monte_carlo_within_four_standard_errors():
    rng = np.random.default_rng(0)
    z = rng.standard_normal(1_000_000)
    for t in (-1.0, 0.0, 0.8, 2.0):
        v = np.maximum(z - t, 0.0) ** 2
        se = v.std() / math.sqrt(v.size)
        assert abs(v.mean() - K.relu_square_mean(t)) < 4 * se


def test_relu_square_mean_is_vectorised_with_known_values_and_limits():
    t = np.array([[0.0, 1.0], [-30.0, 20.0]])
    out = K.relu_square_mean(t)
    assert out.shape == (2, 2)
    assert out[0, 0] == pytest.approx(0.5, rel=1e-15)
    assert out[0, 1] == pytest.approx(2 * norm.sf(1.0) - norm.pdf(1.0), rel=1e-12)
    assert out[1, 0] == pytest.approx(1 + 30.0**2, rel=1e-12)
    # right tail: phi(t) (2/t^3 - 12/t^5 + 90/t^7 - ...), accurate despite the cancellation of the first form
    assert out[1, 1] == pytest.approx(norm.pdf(20.0) * (2 / 20.0**3 - 12 / 20.0**5 + 90 / 20.0**7), rel=1e-5)
    assert np.all(np.diff(K.relu_square_mean(np.linspace(-5, 12, 200))) < 0)  # strictly decreasing
    assert isinstance(K.relu_square_mean(0.3), float)


def test_relu_square_mean_rejects_non_finite_input():
    with pytest.raises(ValueError, match="finite"):
        K.relu_square_mean(np.array([0.0, np.nan]))


def test_hard_bias_solves_its_equation_and_bias_is_the_gaussian_tail():
    for eps in (1e-2, 1e-4, 1e-7):
        t = K.hard_bias(eps, 2.0)
        assert K.relu_square_mean(t) == pytest.approx(2 * eps, rel=1e-9)
    assert K.relu_bias(1.0) == pytest.approx(norm.sf(1.0), rel=1e-15)
    with pytest.raises(ValueError, match="< 1/2"):
        K.hard_bias(0.3, 2.0)
    with pytest.raises(ValueError, match="eps"):
        K.hard_bias(-1e-3)


# ----------------------------------------------------------------------------- excess loss
def test_excess_loss_matches_monte_carlo():
    rng = np.random.default_rng(1)
    d = 4
    ws = np.eye(d)[0]
    X = rng.standard_normal((1_000_000, d))
    cases = [(np.array([0.9, 0.3, 0.0, -0.1]), 1.1), (np.zeros(d), 0.0), (1.2 * ws, 1.0), (-ws, 0.3),
             (np.eye(d)[2], -0.2), (0.5 * ws, 0.5)]
    W = np.array([w for w, _ in cases])
    T = np.array([t for _, t in cases])
    exact = K.excess_loss(W, T, ws, 1.0)
    for (w, t), e in zip(cases, exact):
        v = (np.maximum(X @ w - t, 0) - np.maximum(X @ ws - 1.0, 0)) ** 2
        assert abs(v.mean() - e) < 4 * v.std() / math.sqrt(v.size) + 1e-12


def test_excess_loss_identities():
    d = 6
    rng = np.random.default_rng(2)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    assert K.excess_loss(w, 0.7, w, 0.7) < 1e-14
    assert K.excess_loss(np.zeros(d), 0.0, w, 0.7) == pytest.approx(K.relu_square_mean(0.7), rel=1e-12)
    # a rotation of both weight vectors leaves it unchanged
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    wh = w + 0.2 * rng.standard_normal(d)
    assert K.excess_loss(Q @ wh, 0.4, Q @ w, 0.7) == pytest.approx(K.excess_loss(wh, 0.4, w, 0.7), rel=1e-10)


def test_excess_loss_rejects_bad_input():
    with pytest.raises(ValueError, match="unit norm"):
        K.excess_loss(np.ones(3), 0.0, np.ones(3), 0.0)
    with pytest.raises(ValueError, match="shape"):
        K.excess_loss(np.ones((2, 3)), 0.0, np.eye(4)[0], 0.0)


def test_relu_target():
    X = np.array([[1.0, 2.0], [0.0, -1.0]])
    np.testing.assert_array_equal(K.relu_target(X, np.array([1.0, 0.5]), 1.0), [1.0, 0.0])
    with pytest.raises(ValueError, match="shape"):
        K.relu_target(X, np.ones(3), 0.0)


# ----------------------------------------------------------------------------- fits
def test_ols_fit_is_exact_on_noise_free_data_with_enough_positives():
    rng = np.random.default_rng(3)
    d = 7
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    X = rng.standard_normal((400, d))
    y = K.relu_target(X, w, 0.8)
    wh, th = K.ols_relu_fit(X, y, 0.0)
    np.testing.assert_allclose(wh, w, atol=1e-10)
    assert th == pytest.approx(0.8, abs=1e-10)
    # fewer than d + 2 positive labels: the zero function
    wz, tz = K.ols_relu_fit(X[:5], y[:5], 0.0)
    assert np.all(wz == 0) and tz == 0.0


def test_prefix_fits_equal_single_fits():
    rng = np.random.default_rng(4)
    d = 5
    X = rng.standard_normal((300, d))
    y = np.maximum(X[:, 0] - 0.5, 0) + 0.05 * rng.standard_normal(300)
    sizes = np.array([6, 20, 57, 150, 300])
    W, T = K.ols_relu_fit_prefixes(X, y, 0.1, sizes)
    for j, n in enumerate(sizes):
        w1, t1 = K.ols_relu_fit(X[:n], y[:n], 0.1)
        np.testing.assert_allclose(W[j], w1, atol=1e-9)
        assert T[j] == pytest.approx(t1, abs=1e-9)
    with pytest.raises(ValueError, match="exceed"):
        K.ols_relu_fit_prefixes(X, y, 0.1, np.array([10, 400]))
    with pytest.raises(ValueError, match="increasing"):
        K.ols_relu_fit_prefixes(X, y, 0.1, np.array([50, 20]))


# ----------------------------------------------------------------------------- learners
def test_noise_free_query_learner_recovers_the_relu_with_d_plus_one_local_queries():
    d, t = 12, 2.0
    rng = np.random.default_rng(5)
    s = K.search_positive(t, 0.0, 0.0, None, 5, rng)
    assert s["found"].all() and np.all(s["y0"] > 0) and np.all(s["queries"] >= 1)
    ex = K.local_excess_curve(s["u0"], s["y0"], d, t, 0.0, 0.0, np.array([d, d + 1, 3 * d]), rng)
    assert np.all(ex[:, 0] > 1e-6)     # d + 1 points (with x0) cannot determine d + 1 unknowns with the zero fallback
    assert np.all(ex[:, 1:] < 1e-12)   # d + 2 points on the active side: exact up to rounding (5e-18 seen)


def test_search_cost_is_geometric_with_the_probability_of_a_label_above_tau():
    rng = np.random.default_rng(6)
    t, sigma, tau = 1.0, 0.02, 0.1
    s = K.search_positive(t, sigma, tau, None, 4000, rng, chunk=64)
    q = integrate.quad(lambda u: norm.pdf(u) * norm.sf((tau - (u - t)) / sigma), t - 1, t + 12)[0] \
        + norm.cdf(t - 1) * norm.sf(tau / sigma)
    assert s["queries"].mean() == pytest.approx(1 / q, rel=0.06)   # about 4 standard errors of the mean
    assert np.all(s["u0"] > t - 5 * sigma)


def test_capped_search_stops_at_the_cap_and_returns_the_zero_function():
    rng = np.random.default_rng(7)
    s = K.search_positive(6.0, 0.0, 0.0, 50, 3, rng)
    assert not s["found"].any() and np.all(s["queries"] == 50) and np.all(np.isnan(s["u0"]))
    ex = K.local_excess_curve(s["u0"], s["y0"], 4, 6.0, 0.0, 0.0, np.array([5]), rng)
    np.testing.assert_allclose(ex[:, 0], K.relu_square_mean(6.0), rtol=1e-12)


def test_passive_curve_reaches_zero_on_noise_free_data_and_starts_at_the_zero_function():
    rng = np.random.default_rng(8)
    d, t = 3, 0.5
    ex = K.passive_excess_curve(d, t, 0.0, 0.0, np.array([2, 200]), 4, rng)
    np.testing.assert_allclose(ex[:, 0], K.relu_square_mean(t), rtol=1e-12)
    assert np.all(ex[:, 1] < 1e-20)


def test_labels_to_reach_interpolates_in_log_log_and_handles_edges():
    n = np.array([10, 100, 1000])
    e = np.array([[1.0, 0.01, 1e-4], [1e-5, 1e-6, 1e-7], [1.0, 0.5, 0.2]])
    out = K.labels_to_reach(n, e, 0.1)
    assert out[0] == pytest.approx(10 ** 1.5, rel=1e-12) and out[1] == 10 and math.isinf(out[2])
    assert K.labels_to_reach(n, e[0], 0.01) == pytest.approx(100.0, rel=1e-12)
    with pytest.raises(ValueError, match="non-negative"):
        K.labels_to_reach(n, -e, 0.1)
    with pytest.raises(ValueError, match="increasing"):
        K.labels_to_reach(n[::-1], e, 0.1)


def test_learners_reject_bad_input():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="d must be"):
        K.passive_excess_curve(0, 1.0, 0.1, 0.1, np.array([5]), 1, rng)
    with pytest.raises(ValueError, match="sigma"):
        K.passive_excess_curve(3, 1.0, -0.1, 0.1, np.array([5]), 1, rng)
    with pytest.raises(ValueError, match="cap"):
        K.search_positive(1.0, 0.1, 0.1, 0, 1, rng)
    with pytest.raises(ValueError, match="n_grid"):
        K.local_excess_curve(np.array([1.0]), np.array([0.5]), 3, 1.0, 0.0, 0.0, np.array([0.5]), rng)


# ----------------------------------------------------------------------------- leverage_excess_curve
def test_leverage_sampling_finds_the_active_side_at_the_tilted_rate_and_fits_exactly_without_noise():
    # Under leverage sampling x has density (1 + |x|^2) phi(x) / (d + 1), so u = x_1 has density
    # (d + u^2) phi(u) / (d + 1) and P(u > t) = (d Phibar(t) + t phi(t) + Phibar(t)) / (d + 1). With noise-free
    # labels and tau = 0 the fit is the zero function exactly when fewer than d + 2 labels are positive, and exact
    # otherwise.
    d, t, n, trials = 2, 1.5, 20, 3000
    ex = K.leverage_excess_curve(d, t, 0.0, 0.0, [n], trials, np.random.default_rng(1))[:, 0]
    zero = np.isclose(ex, K.relu_square_mean(t), rtol=1e-9)
    assert np.all(zero | (ex < 1e-12))
    q = (d * norm.sf(t) + t * norm.pdf(t) + norm.sf(t)) / (d + 1)
    p_zero = sum(math.comb(n, k) * q ** k * (1 - q) ** (n - k) for k in range(d + 2))
    assert abs(zero.mean() - p_zero) < 4 * math.sqrt(p_zero * (1 - p_zero) / trials)
    p_zero_uniform = sum(math.comb(n, k) * norm.sf(t) ** k * norm.cdf(t) ** (n - k) for k in range(d + 2))
    assert abs(zero.mean() - p_zero_uniform) > 10 * math.sqrt(p_zero * (1 - p_zero) / trials)


def test_leverage_curve_rejects_bad_input():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError):
        K.leverage_excess_curve(0, 1.0, 0.02, 0.1, [10], 2, rng)
    with pytest.raises(ValueError):
        K.leverage_excess_curve(3, 1.0, -0.1, 0.1, [10], 2, rng)
    with pytest.raises(ValueError):
        K.leverage_excess_curve(3, 1.0, 0.02, 0.1, [10, 5], 2, rng)


# ----------------------------------------------------------------------------- pool_adaptive_labels
def test_pool_adaptive_learner_fits_from_positives_and_fails_on_a_pool_without_enough_of_them():
    d, t, eps = 5, 1.0, 1e-4
    # noiseless labels: once d + 2 positives are labelled the least-squares fit is exact, so the learner stops
    # then, with at most a pool's worth of labels and at least d + 2 of them
    L = K.pool_adaptive_labels(d, t, 0.0, 0.0, eps, 2000, 5, np.random.default_rng(0))
    assert np.all(np.isfinite(L)) and np.all(L >= d + 2) and np.all(L <= 2000)
    # ranking by the fit finds positives far faster than random labelling (about (d + 2) / p labels)
    assert np.median(L) < 0.5 * (d + 2) / K.relu_bias(t)
    # a pool with fewer than d + 2 positive points can never be fitted: every trial counts as infinite
    t_far = 4.0  # p = 3e-5: a pool of 200 points almost surely holds no positive point at all
    assert np.all(np.isinf(K.pool_adaptive_labels(d, t_far, 0.0, 0.0, eps, 200, 3, np.random.default_rng(1))))
    # the label cap is honoured
    Lc = K.pool_adaptive_labels(d, t, 0.0, 0.0, eps, 2000, 5, np.random.default_rng(0), max_labels=d + 1)
    assert np.all(np.isinf(Lc))


def test_pool_adaptive_learner_rejects_bad_input():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError):
        K.pool_adaptive_labels(1, 1.0, 0.02, 0.1, 1e-3, 100, 2, rng)
    with pytest.raises(ValueError):
        K.pool_adaptive_labels(3, 1.0, 0.02, 0.1, 0.0, 100, 2, rng)
    with pytest.raises(ValueError):
        K.pool_adaptive_labels(3, 1.0, 0.02, 0.1, 1e-3, 0, 2, rng)
    with pytest.raises(ValueError):
        K.pool_adaptive_labels(3, 1.0, 0.02, 0.1, 1e-3, 100, 2, rng, batch=0)
