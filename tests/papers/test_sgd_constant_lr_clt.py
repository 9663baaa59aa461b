"""Unit tests of repro.papers.sgd_constant_lr_clt."""

import numpy as np
import pytest
from scipy import linalg, stats

from repro.papers import sgd_constant_lr_clt as K
from repro.stats import ks_distance, loglog_slope


def _random_stable(d, rng):
    B = rng.standard_normal((d, d))
    A = B @ B.T / d + 0.5 * np.eye(d) + 0.1 * rng.standard_normal((d, d))  # not symmetric
    G = rng.standard_normal((d, d))
    return A, G @ G.T + np.eye(d)


def test_stationary_cov_linear_1d_closed_form():
    for eta, a, s in [(0.2, 1.0, 1.0), (0.05, 2.0, 3.0), (0.9, 1.5, 0.5)]:
        C = K.stationary_cov_linear([[a]], [[s]], eta)
        assert C.shape == (1, 1)
        assert C[0, 0] == pytest.approx(eta * s / (a * (2 - eta * a)), rel=1e-12)


def test_stationary_cov_linear_matches_scipy_discrete_lyapunov():
    rng = np.random.default_rng(1)
    for d in (2, 4):
        A, S = _random_stable(d, rng)
        eta = 0.1
        C = K.stationary_cov_linear(A, S, eta)
        M = np.eye(d) - eta * A
        ref = linalg.solve_discrete_lyapunov(M, eta**2 * S)
        np.testing.assert_allclose(C, ref, rtol=1e-9, atol=1e-12)
        # it solves A Sigma + Sigma A^T - eta A Sigma A^T = S for Sigma = C / eta
        Sig = C / eta
        np.testing.assert_allclose(A @ Sig + Sig @ A.T - eta * A @ Sig @ A.T, S, rtol=1e-9, atol=1e-9)


def test_stationary_cov_tends_to_lyapunov_and_lyapunov_matches_scipy():
    rng = np.random.default_rng(2)
    A, S = _random_stable(3, rng)
    Sig = K.lyapunov_cov(A, S)
    np.testing.assert_allclose(Sig, linalg.solve_continuous_lyapunov(A, S), rtol=1e-9, atol=1e-12)
    err = [np.abs(K.stationary_cov_linear(A, S, e) / e - Sig).max() for e in (1e-2, 1e-3)]
    assert err[1] < err[0] / 5 and err[1] < 1e-2


def test_langevin_isotropic_cov_solves_its_lyapunov_equation_and_differs_from_the_limit():
    A = np.array([[1.0, 0.3], [0.3, 0.6]])
    S = np.array([[0.5, 0.1], [0.1, 2.0]])
    L = K.langevin_isotropic_cov(A, S)
    s_bar = np.trace(S) / 2
    np.testing.assert_allclose(A @ L + L @ A, s_bar * np.eye(2), rtol=1e-12, atol=1e-12)
    assert np.abs(L - K.lyapunov_cov(A, S)).max() > 0.1
    # isotropic noise: the naive Gibbs law is the exact limit
    np.testing.assert_allclose(K.langevin_isotropic_cov(A, 0.7 * np.eye(2)), K.lyapunov_cov(A, 0.7 * np.eye(2)),
                               rtol=1e-12)
    # well-specified model (S = A): the limit is I/2 whatever A, the naive law is (tr A / 2d) A^-1
    np.testing.assert_allclose(K.lyapunov_cov(A, A), 0.5 * np.eye(2), atol=1e-12)
    np.testing.assert_allclose(K.langevin_isotropic_cov(A, A), np.trace(A) / 4 * np.linalg.inv(A), rtol=1e-12)


def test_linear_sgd_gaussian_noise_matches_stationary_cov():
    rng = np.random.default_rng(3)
    A = np.array([[1.0, 0.3], [0.3, 0.6]])
    S = np.array([[1.0, 0.2], [0.2, 0.5]])
    L = np.linalg.cholesky(S)
    eta, R = 0.1, 40_000
    n = K.n_steps_for(eta, rate=np.linalg.eigvalsh(A).min())
    grad = lambda th, eps: th @ A.T + eps  # theta* = 0, noise eps ~ N(0, S)
    sample = lambda g, m: g.standard_normal((m, 2)) @ L.T
    delta = K.sgd_chains(grad, np.array([3.0, -3.0]), eta, n, R, sample, rng)
    C = K.stationary_cov_linear(A, S, eta)
    np.testing.assert_allclose(np.cov(delta.T), C, rtol=0.03, atol=0.03 * np.abs(C).max())
    ks = ks_distance(delta[:, 0] / np.sqrt(C[0, 0]), stats.norm.cdf)
    assert ks < 1.36 / np.sqrt(R)


def test_sgd_chains_schedule_record_and_moments():
    rng = np.random.default_rng(4)
    etas = K.robbins_monro_steps(0.5, 0.6, 50)
    np.testing.assert_allclose(etas[[0, 31]], [0.5, 0.5 * 32**-0.6])
    out = K.sgd_chains(K.quadratic_grad(1.0), [2.0], etas, 50, 20_000, lambda g, m: g.standard_normal(m), rng,
                       record_at=[50, 10])
    assert out.shape == (2, 20_000, 1)
    mean, var = K.linear_sgd_moments(etas, 1.0, 1.0, delta0=2.0)
    for i, k in enumerate([50, 10]):
        assert out[i, :, 0].mean() == pytest.approx(mean[k - 1], abs=4 * np.sqrt(var[k - 1] / 20_000))
        assert out[i, :, 0].var() == pytest.approx(var[k - 1], rel=0.05)
    # without noise the chain is deterministic and equals the mean recursion
    det = K.sgd_chains(K.quadratic_grad(1.0), [2.0], etas, 50, 3, lambda g, m: np.zeros(m), rng)
    np.testing.assert_allclose(det[:, 0], mean[-1])


def test_linear_sgd_moments_constant_step_converges_to_closed_form():
    eta, a, s = 0.1, 2.0, 1.5
    _, var = K.linear_sgd_moments(np.full(2000, eta), a, s)
    assert var[-1] == pytest.approx(K.stationary_cov_linear([[a]], [[s]], eta)[0, 0], rel=1e-10)


def test_weighted_sum_skewness_brute_force_and_small_eta_limit():
    for eta, a, g in [(0.2, 1.0, 2.0), (0.05, 0.7, -1.3)]:
        w = K.ar_weights(eta, a, 20_000)
        brute = g * np.sum(w**3) / np.sum(w**2) ** 1.5
        assert K.weighted_sum_skewness(eta, a, g) == pytest.approx(brute, rel=1e-10)
    small = K.weighted_sum_skewness(1e-5, 1.0, 2.0)
    assert small == pytest.approx(2.0 * 2**1.5 / 3 * np.sqrt(1e-5), rel=1e-3)


def test_skewed_linear_sgd_skewness_matches_closed_form():
    rng = np.random.default_rng(5)
    eta, R = 0.2, 100_000
    d = K.sgd_chains(K.quadratic_grad(1.0), [0.0], eta, 80, R, lambda g, m: g.standard_exponential(m) - 1.0, rng)
    assert stats.skew(d[:, 0]) == pytest.approx(K.weighted_sum_skewness(eta, 1.0, 2.0), rel=0.1)


def test_ar_weights_sum_gives_variance():
    w = K.ar_weights(0.1, 1.0, 5000)
    assert w[0] == pytest.approx(0.1) and w[1] == pytest.approx(0.09)
    assert np.sum(w**2) == pytest.approx(K.stationary_cov_linear([[1.0]], [[1.0]], 0.1)[0, 0], rel=1e-10)


def test_fuk_nagaev_bound_is_valid_and_has_polynomial_tail():
    rng = np.random.default_rng(6)
    nu, eta, p = 4.5, 0.2, 4.0
    R = 200_000
    d = K.sgd_chains(K.quadratic_grad(1.0), [0.0], eta, 70, R, lambda g, m: g.standard_t(nu, m), rng)[:, 0]
    m4 = 3 * nu**2 / ((nu - 2) * (nu - 4))
    x = np.array([0.5, 1.0, 2.0, 3.0])
    bound = K.fuk_nagaev_bound(x, eta, 1.0, p, m4, nu / (nu - 2))
    emp = np.array([(np.abs(d) > t).mean() for t in x])
    assert np.all(emp <= bound)
    far = K.fuk_nagaev_bound(np.array([1e3, 1e4]), eta, 1.0, p, m4, nu / (nu - 2))
    assert loglog_slope([1e3, 1e4], far) == pytest.approx(-p, abs=1e-6)


def test_big_jump_tail_pareto_closed_form_and_simulation():
    eta, nu, c = 0.2, 3.0, 0.5
    sf = lambda t: c * np.maximum(t, 1.0) ** (-nu)   # Pareto-type tail, exact power beyond 1
    x = np.array([10.0, 30.0])
    got = K.big_jump_tail(x, eta, 1.0, sf, 400)
    np.testing.assert_allclose(got, 2 * c * x**-nu * eta**nu / (1 - (1 - eta) ** nu), rtol=1e-10)
    # far in the tail of t-noise linear SGD it matches the simulated tail
    rng = np.random.default_rng(9)
    d = K.sgd_chains(K.quadratic_grad(1.0), [0.0], eta, 70, 200_000, lambda g, m: g.standard_t(2.5, m), rng)[:, 0]
    pred = K.big_jump_tail(np.array([4.0]), eta, 1.0, stats.t(2.5).sf, 70)[0]
    assert (np.abs(d) > 4.0).mean() == pytest.approx(pred, rel=0.2)


def test_tail_quantiles_exact_on_known_law():
    rng = np.random.default_rng(7)
    s = rng.standard_normal(400_000)
    x = K.tail_quantiles(s, [0.1, 0.01])
    np.testing.assert_allclose(x, stats.norm.isf([0.05, 0.005]), rtol=0.03)


def test_logistic_fisher_against_monte_carlo_and_gradient_mean_zero():
    rng = np.random.default_rng(8)
    ts, xv = np.array([1.0, -0.5]), np.array([1.0, 0.5])
    A = K.logistic_fisher(ts, xv)
    x, y = K.logistic_sampler(ts, xv)(rng, 400_000)
    s = 1 / (1 + np.exp(-x @ ts))
    A_mc = (x * (s * (1 - s))[:, None]).T @ x / len(y)
    np.testing.assert_allclose(A, A_mc, atol=4e-3)
    g = K.logistic_grad(np.tile(ts, (len(y), 1)), (x, y))
    assert np.abs(g.mean(0)).max() < 4 * g.std(0).max() / np.sqrt(len(y))
    np.testing.assert_allclose(np.cov(g.T), A, atol=5e-3)  # S = A for a well-specified model


def test_n_steps_for():
    assert K.n_steps_for(0.1) == int(np.ceil(8 * np.log(10) / 0.1))
    assert K.n_steps_for(0.1, rate=0.5) == int(np.ceil(16 * np.log(10) / 0.1))


def test_symmetric_pareto_noise_tail_and_symmetry():
    x = K.symmetric_pareto_noise(1.5)(np.random.default_rng(3), 200_000)
    for t in (1.0, 5.0, 20.0):
        assert abs((np.abs(x) > t).mean() / (1 + t) ** -1.5 - 1) < 0.05
    assert abs(np.median(x)) < 0.01 and abs((x > 0).mean() - 0.5) < 0.005


def test_iqr_normal_scale_recovers_normal_sd():
    rng = np.random.default_rng(4)
    assert abs(K.iqr_normal_scale(3.0 * rng.standard_normal(200_000)) / 3.0 - 1) < 0.01


def test_linear_sgd_forgets_start_after_burn_in():
    """Quenched forgetting of linear SGD under our burn-in: starts at +5 and -5 give the same law.

    The initial term is (1-eta)^K * 5 ~ 5 eta^8, so the two clouds differ only by Monte Carlo noise; this is a
    property of the recursion and of n_steps_for, not evidence for the paper (it used to be a page claim).
    """
    rng = np.random.default_rng(5)
    eta, R = 0.05, 20_000
    noise = lambda g, m: g.standard_exponential(m) - 1.0  # noqa: E731
    n = K.n_steps_for(eta)
    assert (1 - eta) ** n * 5 < 1e-9
    plus = K.sgd_chains(K.quadratic_grad(), [5.0], eta, n, R, noise, rng)[:, 0]
    minus = K.sgd_chains(K.quadratic_grad(), [-5.0], eta, n, R, noise, rng)[:, 0]
    assert stats.ks_2samp(plus, minus).pvalue > 0.01


@pytest.mark.parametrize(
    "call",
    [
        lambda: K.stationary_cov_linear([[1.0]], [[1.0]], 2.5),  # unstable
        lambda: K.stationary_cov_linear(np.eye(2), np.eye(3), 0.1),
        lambda: K.stationary_cov_linear(np.eye(2), [[1.0, 0.5], [0.0, 1.0]], 0.1),
        lambda: K.stationary_cov_linear(np.eye(2), np.eye(2), -0.1),
        lambda: K.lyapunov_cov(-np.eye(2), np.eye(2)),
        lambda: K.langevin_isotropic_cov(-np.eye(2), np.eye(2)),
        lambda: K.langevin_isotropic_cov([[1.0, 0.5], [0.0, 1.0]], np.eye(2)),
        lambda: K.ar_weights(0.1, 1.0, 0),
        lambda: K.weighted_sum_skewness(3.0, 1.0, 2.0),
        lambda: K.robbins_monro_steps(0.5, 0.4, 10),
        lambda: K.fuk_nagaev_bound([1.0], 0.1, 1.0, 2.0, 1.0, 1.0),
        lambda: K.tail_quantiles(np.ones(10), [0.01]),
        lambda: K.big_jump_tail([-1.0], 0.1, 1.0, stats.norm.sf, 10),
        lambda: K.n_steps_for(1.5),
        lambda: K.sgd_chains(K.quadratic_grad(), [0.0], [0.1, 0.1], 3, 5, lambda g, m: np.zeros(m), np.random.default_rng()),
        lambda: K.sgd_chains(K.quadratic_grad(), np.zeros((4, 1)), 0.1, 3, 5, lambda g, m: np.zeros(m), np.random.default_rng()),
        lambda: K.logistic_sampler([1.0], [1.0, 1.0]),
        lambda: K.quadratic_grad(0.0),
        lambda: K.symmetric_pareto_noise(1.0),
        lambda: K.iqr_normal_scale([1.0, 2.0]),
    ],
)
def test_bad_inputs_raise(call):
    with pytest.raises(ValueError):
        call()
