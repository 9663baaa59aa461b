"""Unit tests of :mod:`repro.papers.bayescoxcp_discrete_pricing`, the kernels of ``notebooks/bayescoxcp-discrete-pricing.py``.

Closed forms (the continuous optimum 1/(lam e^{x beta}), the Gumbel law of the cloglog model), brute force
(argmax over the grid), finite differences (score and information), scipy's answers (``gumbel_l``,
``optimize.minimize``, ``np.interp``), statistical recovery of the truth, and bad input.
"""

import inspect

import numpy as np
import pytest
from scipy import optimize, stats

from repro.papers import bayescoxcp_discrete_pricing as K

BETA = np.array([1.0, -1.0, 1.0, -1.0, 1.0]) / np.sqrt(5)


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/bayescoxcp_discrete_pricing.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- the true model
def test_optimal_grid_price_signature_is_the_issues():
    assert list(inspect.signature(K.optimal_grid_price).parameters) == ["x", "beta", "lam", "grid"]


@pytest.mark.parametrize("seed", range(4))
def test_optimal_grid_price_matches_brute_force_argmax(seed):
    rng = np.random.default_rng(seed)
    d = 3
    beta = rng.normal(size=d)
    lam = float(rng.uniform(0.3, 3.0))
    grid = rng.uniform(0.05, 5.0, size=int(rng.integers(1, 30)))  # unsorted on purpose
    x = rng.normal(size=(200, d))
    rev = grid * np.exp(-lam * grid * np.exp(x @ beta)[:, None])  # brute force over the grid
    np.testing.assert_array_equal(K.optimal_grid_price(x, beta, lam, grid), grid[np.argmax(rev, axis=1)])
    np.testing.assert_allclose(K.revenue_curve(grid, x, beta, lam), rev, rtol=1e-14)


def test_optimal_grid_price_batching_and_scalar_case():
    rng = np.random.default_rng(1)
    grid = np.linspace(0.5, 2.5, 9)
    x = rng.normal(size=(2, 3, 5))
    p = K.optimal_grid_price(x, BETA, 1.0, grid)
    assert p.shape == (2, 3)
    for i in range(2):
        for j in range(3):
            single = K.optimal_grid_price(x[i, j], BETA, 1.0, grid)
            assert isinstance(single, float) and single == p[i, j]


def test_optimal_grid_price_recovers_the_continuous_optimum_on_the_grid():
    # p* = 1 / (lam e^{x beta}); put it on the grid and it must be chosen
    x = np.array([0.3, -0.2, 0.1, 0.0, 0.4])
    pstar = 1.0 / (1.7 * np.exp(x @ BETA))
    grid = np.array([pstar * 0.5, pstar * 0.9, pstar, pstar * 1.1, pstar * 3])
    assert K.optimal_grid_price(x, BETA, 1.7, grid) == pstar
    # on a fine grid the grid optimum tends to p*
    fine = np.linspace(0.01, 10, 100001)
    assert abs(K.optimal_grid_price(x, BETA, 1.7, fine) - pstar) <= 1e-4


def test_optimal_grid_price_ties_go_to_the_lower_price():
    # p e^{-p} is equal at p = a and p = b when log a - a = log b - b: a = ln 2, b = 2 ln 2
    grid = np.array([np.log(2.0), 2 * np.log(2.0)])
    assert K.optimal_grid_price(np.zeros(1), np.zeros(1), 1.0, grid) == pytest.approx(np.log(2.0))


def test_survival_is_monotone_in_price_and_in_the_hazard_multiplier():
    grid = np.linspace(0.1, 4, 40)
    xb = np.linspace(-2, 2, 30)[:, None]  # x in R^1 with beta = 1: x beta = xb
    S = K.cox_survival(grid, xb, np.ones(1), 0.8)
    assert S.shape == (30, 40)
    assert np.all(np.diff(S, axis=1) < 0) and np.all(np.diff(S, axis=0) < 0)
    # zero covariates: the baseline survival exp(-lam p)
    np.testing.assert_allclose(K.cox_survival(grid, np.zeros(2), np.ones(2), 0.8), np.exp(-0.8 * grid), rtol=1e-15)
    # proportional hazards: S(p | x) = S0(p)^{exp(x beta)}
    np.testing.assert_allclose(S, np.exp(-0.8 * grid) ** np.exp(xb), rtol=1e-12)


@pytest.mark.parametrize("bad, match", [
    (dict(x=np.zeros(4)), "shape"),
    (dict(lam=0.0), "lam"),
    (dict(lam=-1.0), "lam"),
    (dict(grid=np.array([1.0, -0.5])), "> 0"),
    (dict(grid=np.array([])), "at least one"),
    (dict(x=np.array([np.nan] * 5)), "finite"),
])
def test_optimal_grid_price_rejects_bad_input(bad, match):
    args = dict(x=np.zeros(5), beta=BETA, lam=1.0, grid=np.linspace(0.5, 2.5, 5)) | bad
    with pytest.raises(ValueError, match=match):
        K.optimal_grid_price(**args)


# ----------------------------------------------------------------------------- environment and regret
def test_env_shapes_and_covariate_law():
    env = K.make_env(20000, K.price_grid(5), BETA, 1.0, 2, 0)
    assert env.X.shape == (2, 20000, 5) and env.U.shape == (2, 20000) and env.shape == (2, 20000)
    np.testing.assert_allclose(np.cov(env.X[0].T), np.eye(5) / 5, atol=0.01)


def test_sales_follow_the_survival_probability():
    env = K.make_env(100000, K.price_grid(3), BETA, 1.0, 1, 3)
    k = np.ones((1, 100000), dtype=int)
    y = env.sales(k, 0)
    S = K.cox_survival(env.grid, env.X[0], BETA, 1.0)[:, 1]
    assert abs(y.mean() - S.mean()) < 4 * np.sqrt(0.25 / 100000)


def test_expected_regret_is_zero_on_the_oracle_path_and_matches_brute_force():
    env = K.make_env(300, K.price_grid(7), BETA, 1.3, 2, 5)
    kstar = K.optimal_grid_index(env.X, BETA, 1.3, env.grid)
    np.testing.assert_array_equal(K.expected_regret(kstar, env), 0.0)
    k = np.random.default_rng(0).integers(0, 7, size=(2, 300))
    rev = K.revenue_curve(env.grid, env.X, BETA, 1.3)
    brute = rev.max(axis=-1) - np.take_along_axis(rev, k[..., None], axis=-1)[..., 0]
    np.testing.assert_allclose(K.expected_regret(k, env), brute, rtol=1e-12, atol=1e-15)
    with pytest.raises(ValueError, match="shape"):
        K.expected_regret(k[:, :10], env)
    with pytest.raises(ValueError, match="range"):
        K.expected_regret(k + 7, env)


# ----------------------------------------------------------------------------- the statistical model
def test_hat_basis_interpolates_like_np_interp():
    grid = np.sort(np.random.default_rng(0).uniform(0.5, 2.5, 30))
    knots = np.linspace(0.7, 2.3, 6)
    B = K.hat_basis(grid, knots)
    np.testing.assert_allclose(B.sum(axis=1), 1.0, rtol=1e-14)
    c = np.random.default_rng(1).normal(size=6)
    np.testing.assert_allclose(B @ c, np.interp(grid, knots, c), rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(K.hat_basis(knots, knots), np.eye(6))


def test_cloglog_terms_match_the_gumbel_law_and_finite_differences():
    eta = np.linspace(-12, 3, 61)
    for y in (0.0, 1.0):
        ll, s, info = K.cloglog_terms(eta, y)
        # P(no sale) = 1 - exp(-e^eta) is the CDF of the left-skewed Gumbel law
        ref = stats.gumbel_l.logsf(eta) if y else stats.gumbel_l.logcdf(eta)
        np.testing.assert_allclose(ll, ref, rtol=1e-10, atol=1e-300)
        h = 1e-5
        lp, sp, _ = K.cloglog_terms(eta + h, y)
        lm, sm, _ = K.cloglog_terms(eta - h, y)
        np.testing.assert_allclose(s, (lp - lm) / (2 * h), rtol=1e-6, atol=1e-10)
        np.testing.assert_allclose(info, -(sp - sm) / (2 * h), rtol=1e-5, atol=1e-10)
        assert np.all(info >= 0)


def test_cloglog_information_is_accurate_on_both_sides_of_its_series_switch():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    mus = [1e-9, 1e-5, 1e-3 * (1 - 1e-9), 1e-3 * (1 + 1e-9), 0.1, 1.0, 30.0]
    _, _, info = K.cloglog_terms(np.log(mus), 0.0)
    for m, got in zip(mus, info):
        m = mpmath.mpf(m)
        exact = m * (m * mpmath.exp(m) - mpmath.expm1(m)) / mpmath.expm1(m) ** 2
        assert got == pytest.approx(float(exact), rel=1e-9)


def _data(n, K_, d, seed, R=None):
    rng = np.random.default_rng(seed)
    shape = (n,) if R is None else (R, n)
    k = rng.integers(0, K_, size=shape)
    X = rng.normal(size=(*shape, d)) / np.sqrt(d)
    y = (rng.random(shape) < 0.5).astype(float)
    return k, X, y


def test_loglik_gradient_and_information_match_finite_differences():
    grid = K.price_grid(6)
    B = K.hat_basis(grid, np.linspace(0.5, 2.5, 4))
    k, X, y = _data(300, 6, 3, 0)
    theta = np.random.default_rng(1).normal(size=4 + 3) * 0.3
    g, info = K.current_status_score_info(theta, B, k, X, y)
    f = lambda t: K.current_status_loglik(t, B, k, X, y)  # noqa: E731
    num_g = optimize.approx_fprime(theta, f, 1e-6)
    np.testing.assert_allclose(g, num_g, rtol=1e-4, atol=1e-4)
    num_h = np.array([optimize.approx_fprime(theta, lambda t, i=i: K.current_status_score_info(t, B, k, X, y)[0][i], 1e-6)
                      for i in range(7)])
    np.testing.assert_allclose(info, -num_h, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(info, info.T, rtol=1e-14)


def test_loglik_batched_equals_one_replicate_at_a_time():
    k, X, y = _data(50, 4, 2, 3, R=3)
    B = np.eye(4)
    theta = np.random.default_rng(0).normal(size=(3, 6))
    ll = K.current_status_loglik(theta, B, k, X, y)
    g, info = K.current_status_score_info(theta, B, k, X, y)
    for r in range(3):
        assert ll[r] == pytest.approx(K.current_status_loglik(theta[r], B, k[r], X[r], y[r]), rel=1e-13)
        g1, i1 = K.current_status_score_info(theta[r], B, k[r], X[r], y[r])
        np.testing.assert_allclose(g[r], g1, rtol=1e-12)
        np.testing.assert_allclose(info[r], i1, rtol=1e-12)


def test_random_walk_prior_is_the_inverse_of_the_brownian_covariance():
    q = np.array([0.5, 0.8, 1.5, 2.5])
    m, P = K.random_walk_prior(q, 2, sd_first=2.0, rw_sd=0.7, sd_beta=3.0, a0=0.1)
    cov = 4.0 + 0.49 * (np.minimum.outer(q, q) - q[0])
    np.testing.assert_allclose(np.linalg.inv(P[:4, :4]), cov, rtol=1e-12)
    np.testing.assert_allclose(P[4:, 4:], np.eye(2) / 9, rtol=1e-15)
    np.testing.assert_array_equal(P[:4, 4:], 0.0)
    np.testing.assert_array_equal(m, [0.1] * 4 + [0, 0])
    _, Pi = K.random_walk_prior(q, 2, rw_sd=None)
    np.testing.assert_allclose(Pi, np.diag([0.25] * 6))
    with pytest.raises(ValueError, match="increasing"):
        K.random_walk_prior(q[::-1], 2)


def test_laplace_mean_is_the_map_found_by_scipy():
    grid = K.price_grid(5)
    B = np.eye(5)
    k, X, y = _data(400, 5, 3, 7)
    prior = K.random_walk_prior(grid, 3, rw_sd=1.0)
    mean, H = K.laplace_posterior(B, k, X, y, prior)
    m0, P0 = prior

    def negpost(t):
        return -K.current_status_loglik(t, B, k, X, y) + 0.5 * (t - m0) @ P0 @ (t - m0)

    ref = optimize.minimize(negpost, m0, method="BFGS", options=dict(gtol=1e-10)).x
    np.testing.assert_allclose(mean, ref, atol=1e-5)
    g, info = K.current_status_score_info(mean, B, k, X, y)
    np.testing.assert_allclose(g - P0 @ (mean - m0), 0.0, atol=1e-8)  # stationary point of the log-posterior
    np.testing.assert_allclose(H, info + P0, rtol=1e-12)


def test_laplace_fit_on_many_sales_recovers_the_truth():
    # 1e5 current-status observations from the exponential-baseline Cox model; a_k = log(lam p_k)
    grid = K.price_grid(5)
    env = K.make_env(100000, grid, BETA, 1.2, 1, 11)
    k = np.random.default_rng(0).integers(0, 5, size=(1, 100000))
    y = env.sales(k, 0)
    mean, H = K.laplace_posterior(np.eye(5), k, env.X, y, K.random_walk_prior(grid, 5, rw_sd=None, sd_first=10, sd_beta=10))
    np.testing.assert_allclose(mean[0, 5:], BETA, atol=0.05)
    np.testing.assert_allclose(mean[0, :5], np.log(1.2 * grid), atol=0.05)
    sd = np.sqrt(np.diag(np.linalg.inv(H[0])))
    assert np.all(np.abs(mean[0] - np.r_[np.log(1.2 * grid), BETA]) < 5 * sd)


def test_laplace_rejects_bad_input():
    k, X, y = _data(20, 3, 2, 0)
    prior = K.random_walk_prior(K.price_grid(3), 2)
    with pytest.raises(ValueError, match="prior"):
        K.laplace_posterior(np.eye(3), k, X, y, K.random_walk_prior(K.price_grid(4), 2))
    with pytest.raises(ValueError, match="0/1"):
        K.laplace_posterior(np.eye(3), k, X, y + 0.5, prior)
    with pytest.raises(ValueError, match="grid indices"):
        K.laplace_posterior(np.eye(3), k + 3, X, y, prior)
    with pytest.raises(ValueError, match="need k_idx"):
        K.laplace_posterior(np.eye(3), k, X[:10], y, prior)


# ----------------------------------------------------------------------------- policies
def test_refresh_times_are_a_geometric_schedule():
    ts = K.refresh_times(4000, first=20, ratio=1.25)
    assert ts[0] == 0 and ts[1] == 20 and ts[-1] < 4000 and np.all(np.diff(ts) > 0)
    assert len(ts) == 1 + int(np.ceil(np.log(4000 / 20) / np.log(1.25)))
    np.testing.assert_array_equal(K.refresh_times(10, first=20), [0])
    with pytest.raises(ValueError, match="ratio"):
        K.refresh_times(100, ratio=1.0)


def test_thompson_is_reproducible_and_beats_uniform_pricing():
    grid = K.price_grid(5)
    env = K.make_env(1500, grid, BETA, 1.0, 3, 0)
    prior = K.random_walk_prior(grid, 5)
    k1 = K.thompson_pricing(env, np.eye(5), prior, 1)
    np.testing.assert_array_equal(k1, K.thompson_pricing(env, np.eye(5), prior, 1))
    assert k1.shape == (3, 1500) and k1.min() >= 0 and k1.max() < 5
    reg_ts = K.expected_regret(k1, env).sum(axis=1)
    reg_unif = K.expected_regret(K.uniform_pricing(env, 2), env).sum(axis=1)
    assert np.all(reg_ts < 0.6 * reg_unif)
    # greedy (posterior mean) is deterministic given the data: no sampling
    kg = K.thompson_pricing(env, np.eye(5), prior, 1, sample=False)
    np.testing.assert_array_equal(kg, K.thompson_pricing(env, np.eye(5), prior, 99, sample=False))


def test_explore_then_commit_explores_uniformly_then_commits_to_the_map():
    grid = K.price_grid(4)
    env = K.make_env(600, grid, BETA, 1.0, 2, 4)
    prior = K.random_walk_prior(grid, 5)
    k = K.explore_then_commit(env, np.eye(4), prior, 200, 0)
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(k[:, :200], rng.integers(0, 4, size=(2, 200)))
    mean, _ = K.laplace_posterior(np.eye(4), k[:, :200], env.X[:, :200], env.sales(k[:, :200], 0), prior)
    a, b = mean[:, :4], mean[:, 4:]
    logrev = np.log(grid) - np.exp(a[:, None, :] + (env.X[:, 200:] @ b[..., None]))
    np.testing.assert_array_equal(k[:, 200:], logrev.argmax(axis=-1))
    with pytest.raises(ValueError, match="exceeds"):
        K.explore_then_commit(env, np.eye(4), prior, 601, 0)
    with pytest.raises(ValueError, match="one row per grid price"):
        K.explore_then_commit(env, np.eye(3), prior, 10, 0)


def test_grid_helpers():
    assert K.grid_size(4000, None) == 5
    assert K.grid_size(4000, 0.5) == 64 and K.grid_size(10000, 0.5) == 100 and K.grid_size(500, 0.2) == 4
    np.testing.assert_allclose(K.price_grid(5), [0.5, 1.0, 1.5, 2.0, 2.5])
    with pytest.raises(ValueError, match="lo < hi"):
        K.price_grid(3, 2.0, 1.0)
    with pytest.raises(ValueError, match="gamma"):
        K.grid_size(100, -0.5)


# ----------------------------------------------------------------------------- naive baselines (no Cox structure)
def _logistic_data(R, n, K_, d, seed, theta=None):
    rng = np.random.default_rng(seed)
    k = rng.integers(0, K_, size=(R, n))
    X = rng.normal(size=(R, n, d)) / np.sqrt(d)
    if theta is None:
        theta = rng.normal(size=(K_, d + 1))
    eta = np.einsum("rnq,rnq->rn", np.concatenate([np.ones((R, n, 1)), X], axis=-1), theta[k])
    y = (rng.random((R, n)) < 1 / (1 + np.exp(-eta))).astype(float)
    return k, X, y, theta


def test_per_price_logistic_laplace_is_the_map_of_each_price_found_by_scipy():
    k, X, y, _ = _logistic_data(2, 300, 3, 2, 0)
    mean, H = K.per_price_logistic_laplace(k, X, y, 3, sd=1.5)
    assert mean.shape == (2, 3, 3) and H.shape == (2, 3, 3, 3)
    for r in range(2):
        for j in range(3):
            sel = k[r] == j
            Z = np.c_[np.ones(sel.sum()), X[r, sel]]
            yy = y[r, sel]

            def negpost(t, Z=Z, yy=yy):
                eta = Z @ t
                return np.sum(np.logaddexp(0, eta) - yy * eta) + 0.5 * t @ t / 1.5 ** 2

            ref = optimize.minimize(negpost, np.zeros(3), method="BFGS", options=dict(gtol=1e-10)).x
            np.testing.assert_allclose(mean[r, j], ref, atol=1e-5)
            p = 1 / (1 + np.exp(-Z @ mean[r, j]))
            np.testing.assert_allclose(H[r, j], (Z * (p * (1 - p))[:, None]).T @ Z + np.eye(3) / 1.5 ** 2, rtol=1e-10)


def test_per_price_logistic_laplace_recovers_the_truth_and_handles_unseen_prices():
    theta = np.array([[0.5, 1.0, -1.0], [-0.5, 0.0, 2.0]])
    k, X, y, _ = _logistic_data(1, 60000, 2, 2, 1, theta=theta)  # price 2 never posted: its posterior is the prior
    mean, H = K.per_price_logistic_laplace(k, X, y, 3, sd=10.0)
    np.testing.assert_allclose(mean[0, :2], theta[:2], atol=0.08)
    np.testing.assert_allclose(mean[0, 2], 0.0, atol=1e-12)
    np.testing.assert_allclose(H[0, 2], np.eye(3) / 100, rtol=1e-12)
    with pytest.raises(ValueError, match="grid indices"):
        K.per_price_logistic_laplace(k + 3, X, y, 3)
    with pytest.raises(ValueError, match="sd"):
        K.per_price_logistic_laplace(k, X, y, 3, sd=0.0)


def test_per_price_thompson_is_reproducible_and_learns():
    grid = K.price_grid(5)
    env = K.make_env(1500, grid, BETA, 1.0, 3, 0)
    k1 = K.per_price_thompson(env, 1)
    np.testing.assert_array_equal(k1, K.per_price_thompson(env, 1))
    assert k1.shape == (3, 1500) and k1.min() >= 0 and k1.max() < 5
    reg = K.expected_regret(k1, env)
    reg_unif = K.expected_regret(K.uniform_pricing(env, 2), env)
    assert np.all(reg.sum(axis=1) < 0.7 * reg_unif.sum(axis=1))
    assert reg[:, -500:].mean() < 0.5 * reg_unif[:, -500:].mean()  # it learns: late rounds cost less
    # a posterior scale of 0 is greedy on the posterior mean: the seed no longer matters
    np.testing.assert_array_equal(K.per_price_thompson(env, 1, scale=0.0), K.per_price_thompson(env, 7, scale=0.0))


def test_beta_bernoulli_pricing_finds_the_best_price_without_covariates():
    # beta = 0: no covariate effect, the best grid price is the argmax of p exp(-lam p), a fixed arm
    grid = K.price_grid(5)
    env = K.make_env(10000, grid, np.zeros(5), 1.0, 2, 3)
    k = K.beta_bernoulli_pricing(env, 0)
    np.testing.assert_array_equal(k, K.beta_bernoulli_pricing(env, 0))
    best = int(np.argmax(grid * np.exp(-grid)))
    assert np.mean(k[:, -2000:] == best) > 0.75 > np.mean(k[:, :200] == best)
    # with covariates its regret per round tends to the loss of the best fixed price
    env = K.make_env(3000, grid, BETA, 1.0, 2, 4)
    rev = K.revenue_curve(grid, env.X, BETA, 1.0)
    fixed_loss = (rev.max(axis=-1) - rev[..., rev.mean(axis=(0, 1)).argmax()]).mean()
    late = K.expected_regret(K.beta_bernoulli_pricing(env, 1), env)[:, -1000:].mean()
    assert fixed_loss > 0.02 and late > 0.8 * fixed_loss


# ----------------------------------------------------------------------------- comparators added after the review
def test_logit_terms_match_the_logistic_law_and_finite_differences():
    eta = np.linspace(-20, 20, 81)
    for y in (0.0, 1.0):
        ll, s, info = K.logit_terms(eta, y)
        # P(sale) = 1 / (1 + e^eta): the survival function of the standard logistic law at eta
        ref = stats.logistic.logsf(eta) if y else stats.logistic.logcdf(eta)
        np.testing.assert_allclose(ll, ref, rtol=1e-10, atol=1e-300)
        h = 1e-5
        lp, sp, _ = K.logit_terms(eta + h, y)
        lm, sm, _ = K.logit_terms(eta - h, y)
        np.testing.assert_allclose(s, (lp - lm) / (2 * h), rtol=1e-6, atol=1e-10)
        np.testing.assert_allclose(info, -(sp - sm) / (2 * h), rtol=1e-5, atol=1e-10)
        assert np.all(info >= 0)
    np.testing.assert_allclose(K.sale_log_probability(eta, "logit"), stats.logistic.logsf(eta), rtol=1e-12)
    np.testing.assert_allclose(K.sale_log_probability(eta[:30], "cloglog"), stats.gumbel_l.logsf(eta[:30]), rtol=1e-12)
    with pytest.raises(ValueError, match="link"):
        K.sale_log_probability(eta, "probit")


def test_logit_laplace_mean_is_the_map_found_by_scipy_and_gradient_matches():
    grid = K.price_grid(5)
    B = np.eye(5)
    k, X, y = _data(400, 5, 3, 8)
    prior = K.random_walk_prior(grid, 3, rw_sd=1.0)
    theta = np.random.default_rng(2).normal(size=8) * 0.3
    g, info = K.current_status_score_info(theta, B, k, X, y, link="logit")
    f = lambda t: K.current_status_loglik(t, B, k, X, y, link="logit")  # noqa: E731
    np.testing.assert_allclose(g, optimize.approx_fprime(theta, f, 1e-6), rtol=1e-4, atol=1e-4)
    mean, H = K.laplace_posterior(B, k, X, y, prior, link="logit")
    m0, P0 = prior

    def negpost(t):
        return -f(t) + 0.5 * (t - m0) @ P0 @ (t - m0)

    ref = optimize.minimize(negpost, m0, method="BFGS", options=dict(gtol=1e-10)).x
    np.testing.assert_allclose(mean, ref, atol=1e-5)
    # the links differ: the cloglog fit of the same data is another point
    assert np.max(np.abs(mean - K.laplace_posterior(B, k, X, y, prior)[0])) > 0.05
    with pytest.raises(ValueError, match="link"):
        K.laplace_posterior(B, k, X, y, prior, link="probit")


def test_logit_fit_on_proportional_odds_sales_recovers_the_truth():
    # sales drawn from the logit model itself: P(sale) = 1 / (1 + exp(a_k + x beta))
    rng = np.random.default_rng(5)
    n, Kp = 60000, 4
    a = np.array([-1.0, -0.3, 0.4, 1.1])
    k = rng.integers(0, Kp, size=(1, n))
    X = rng.normal(size=(1, n, 5)) / np.sqrt(5)
    y = (rng.random((1, n)) < 1 / (1 + np.exp(a[k] + X @ BETA))).astype(float)
    mean, _ = K.laplace_posterior(np.eye(Kp), k, X, y, K.random_walk_prior(K.price_grid(Kp), 5, rw_sd=None,
                                  sd_first=10, sd_beta=10), link="logit")
    np.testing.assert_allclose(mean[0], np.r_[a, BETA], atol=0.06)


def test_logit_thompson_is_reproducible_learns_and_differs_from_cloglog():
    grid = K.price_grid(5)
    env = K.make_env(1500, grid, BETA, 1.0, 3, 0)
    prior = K.random_walk_prior(grid, 5)
    k1 = K.thompson_pricing(env, np.eye(5), prior, 1, link="logit")
    np.testing.assert_array_equal(k1, K.thompson_pricing(env, np.eye(5), prior, 1, link="logit"))
    reg = K.expected_regret(k1, env).sum(axis=1)  # a misspecified model still learns (on average over replicates)
    assert reg.mean() < 0.6 * K.expected_regret(K.uniform_pricing(env, 2), env).sum(axis=1).mean()
    assert not np.array_equal(k1, K.thompson_pricing(env, np.eye(5), prior, 1))
    with pytest.raises(ValueError, match="link"):
        K.thompson_pricing(env, np.eye(5), prior, 1, link="probit")


def test_epsilon_greedy_with_c_zero_is_greedy_on_the_posterior_mean():
    grid = K.price_grid(5)
    env = K.make_env(800, grid, BETA, 1.0, 2, 3)
    prior = K.random_walk_prior(grid, 5)
    np.testing.assert_array_equal(K.epsilon_greedy_pricing(env, np.eye(5), prior, 0, c=0.0),
                                  K.thompson_pricing(env, np.eye(5), prior, 0, sample=False))


def test_epsilon_greedy_explores_at_rate_c_over_sqrt_t_and_learns():
    grid = K.price_grid(5)
    T, R, c = 3000, 4, 2.0
    env = K.make_env(T, grid, BETA, 1.0, R, 6)
    prior = K.random_walk_prior(grid, 5)
    k = K.epsilon_greedy_pricing(env, np.eye(5), prior, 9, c=c)
    np.testing.assert_array_equal(k, K.epsilon_greedy_pricing(env, np.eye(5), prior, 9, c=c))
    # the documented rule, step by step: per epoch, the MAP of the data so far, then an explore mask with
    # probability min(1, c / sqrt t) (t = 1, 2, ...) and uniform prices where it is set
    rng = np.random.default_rng(9)
    mean = np.tile(prior[0], (R, 1))
    ts = list(K.refresh_times(T)) + [T]
    n_explore = 0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        if t0 > 0:
            mean, _ = K.laplace_posterior(np.eye(5), k[:, :t0], env.X[:, :t0], env.sales(k[:, :t0], 0), prior, init=mean)
        a, b = mean[:, :5], mean[:, 5:]
        greedy = (np.log(grid) - np.exp(a[:, None, :] + env.X[:, t0:t1] @ b[..., None])).argmax(axis=-1)
        explore = rng.random((R, t1 - t0)) < np.minimum(1.0, c / np.sqrt(np.arange(t0, t1) + 1.0))
        uniform = rng.integers(0, 5, size=(R, t1 - t0))
        np.testing.assert_array_equal(k[:, t0:t1], np.where(explore, uniform, greedy))
        n_explore += explore.sum()
    assert n_explore / R == pytest.approx(np.minimum(1.0, c / np.sqrt(np.arange(1, T + 1))).sum(), rel=0.1)
    # huge c: every round uniform over the grid
    ku = K.epsilon_greedy_pricing(env, np.eye(5), prior, 9, c=1e9)
    np.testing.assert_allclose(np.bincount(ku.ravel(), minlength=5) / ku.size, 0.2, atol=0.02)
    reg = K.expected_regret(k, env).sum(axis=1)
    assert np.all(reg < 0.5 * K.expected_regret(K.uniform_pricing(env, 2), env).sum(axis=1))


def test_epsilon_greedy_rejects_bad_input():
    grid = K.price_grid(4)
    env = K.make_env(50, grid, BETA, 1.0, 1, 0)
    prior = K.random_walk_prior(grid, 5)
    with pytest.raises(ValueError, match="c"):
        K.epsilon_greedy_pricing(env, np.eye(4), prior, 0, c=-1.0)
    with pytest.raises(ValueError, match="one row per grid price"):
        K.epsilon_greedy_pricing(env, np.eye(3), prior, 0)
    with pytest.raises(ValueError, match="prior"):
        K.epsilon_greedy_pricing(env, np.eye(4), K.random_walk_prior(K.price_grid(3), 5), 0)
