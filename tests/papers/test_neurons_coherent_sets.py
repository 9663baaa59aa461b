"""Unit tests of :mod:`repro.papers.neurons_coherent_sets`, the kernels of ``notebooks/neurons-coherent-sets.py``.

Closed forms (scalar OU, Lyapunov, Van Loan against quadrature, lagged covariances), invariants of the SKO
singular pair, brute-force recursions, scipy's principal angles and scikit-learn's CCA, Monte Carlo for
Sheppard's formula, and bad input.
"""

import inspect
import math

import numpy as np
import pytest
import scipy.integrate
import scipy.linalg
import scipy.signal
from sklearn.cross_decomposition import CCA
from sklearn.decomposition import PCA

from repro.papers import neurons_coherent_sets as K

A3 = np.array([[-0.5, -1.0, 0.5], [1.0, -1.5, 0.0], [0.0, 0.0, -3.0]])  # the notebook's non-normal drift
B3 = np.diag([1.0, 1.0, 3.0])


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/neurons_coherent_sets.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ----------------------------------------------------------------------------- OU closed forms
def test_scalar_ou_closed_forms():
    theta, sigma, tau = 1.7, 0.8, 0.4
    A, B = np.array([[-theta]]), np.array([[sigma]])
    assert K.ou_stationary_cov(A, B)[0, 0] == pytest.approx(sigma**2 / (2 * theta), rel=1e-12)
    M, Q = K.ou_exact_discretization(A, B, tau)
    assert M[0, 0] == pytest.approx(math.exp(-theta * tau), rel=1e-12)
    assert Q[0, 0] == pytest.approx(sigma**2 / (2 * theta) * (1 - math.exp(-2 * theta * tau)), rel=1e-10)
    cov = K.ou_lagged_cov(A, B, tau)
    assert cov["C_tau"][0, 0] == pytest.approx(math.exp(-theta * tau) * sigma**2 / (2 * theta), rel=1e-12)
    r = K.sko_linear_singular(A, B, tau)
    assert r["s"][0] == pytest.approx(math.exp(-theta * tau), rel=1e-12)  # brief: s1 = exp(-theta tau)
    # the receptive field has unit variance: f(x) = x / sd
    assert r["predictive"][0, 0] == pytest.approx(math.sqrt(2 * theta) / sigma, rel=1e-12)


def test_stationary_covariance_solves_the_lyapunov_equation_and_is_invariant():
    S = K.ou_stationary_cov(A3, B3)
    np.testing.assert_allclose(A3 @ S + S @ A3.T + B3 @ B3.T, 0, atol=1e-12)
    assert np.all(np.linalg.eigvalsh(S) > 0) and np.allclose(S, S.T)
    M, Q = K.ou_exact_discretization(A3, B3, 0.5)
    np.testing.assert_allclose(M @ S @ M.T + Q, S, atol=1e-12)  # stationarity of the exact step


def test_van_loan_matches_expm_and_quadrature():
    tau = 0.7
    M, Q = K.ou_exact_discretization(A3, B3, tau)
    np.testing.assert_allclose(M, scipy.linalg.expm(A3 * tau), rtol=1e-12, atol=1e-14)
    D = B3 @ B3.T
    Qq, _ = scipy.integrate.quad_vec(lambda s: scipy.linalg.expm(A3 * s) @ D @ scipy.linalg.expm(A3.T * s), 0, tau,
                                     epsabs=1e-13, epsrel=1e-12)
    np.testing.assert_allclose(Q, Qq, rtol=1e-9, atol=1e-12)


def test_lagged_covariance_is_exp_a_tau_sigma_and_composes():
    S = K.ou_stationary_cov(A3, B3)
    c1 = K.ou_lagged_cov(A3, B3, 0.3)
    np.testing.assert_allclose(c1["C_tau"], scipy.linalg.expm(0.3 * A3) @ S, atol=1e-13)
    np.testing.assert_allclose(c1["Sigma_tau"], S, atol=1e-12)
    # non-stationary initial covariance: Sigma_tau = M Sigma0 M^T + Q, and two steps compose
    S0 = np.diag([0.2, 3.0, 1.0])
    c = K.ou_lagged_cov(A3, B3, 0.3, S0)
    c2 = K.ou_lagged_cov(A3, B3, 0.3, c["Sigma_tau"])
    c6 = K.ou_lagged_cov(A3, B3, 0.6, S0)
    np.testing.assert_allclose(c2["Sigma_tau"], c6["Sigma_tau"], atol=1e-12)


# ----------------------------------------------------------------------------- the SKO singular pair
def test_diagonal_drift_gives_exp_minus_rate_tau_singular_values():
    rates = np.array([0.3, 2.0, 1.0])
    r = K.sko_linear_singular(np.diag(-rates), np.eye(3), 0.5)
    np.testing.assert_allclose(r["s"], np.sort(np.exp(-rates * 0.5))[::-1], rtol=1e-12)
    np.testing.assert_allclose(np.abs(r["predictive"][:, 0]), [math.sqrt(2 * 0.3), 0, 0], atol=1e-12)


def test_singular_pair_invariants():
    r = K.sko_linear_singular(A3, B3, 0.5)
    a, b = r["predictive"], r["retrospective"]
    np.testing.assert_allclose(a.T @ r["Sigma0"] @ a, np.eye(3), atol=1e-10)  # unit-variance, uncorrelated
    np.testing.assert_allclose(b.T @ r["Sigma_tau"] @ b, np.eye(3), atol=1e-10)
    np.testing.assert_allclose(b.T @ r["C_tau"] @ a, np.diag(r["s"]), atol=1e-10)  # corr(f_i, g_j) = s_i delta_ij
    assert np.all(r["s"] < 1) and np.all(np.diff(r["s"]) <= 0)
    np.testing.assert_allclose(r["U"] @ np.diag(r["s"]) @ r["V"].T, r["W"], atol=1e-12)
    # W = Sigma_tau^{-1/2} M Sigma0^{1/2} (brief 7.3)
    W = K.spd_power(r["Sigma_tau"], -0.5) @ r["M"] @ K.spd_power(r["Sigma0"], 0.5)
    np.testing.assert_allclose(r["W"], W, atol=1e-12)
    np.testing.assert_allclose(K.spd_power(r["Sigma0"], -0.5) @ r["V"], a, atol=1e-10)


def test_reversible_drift_gives_equal_predictive_and_retrospective_fields_nonnormal_does_not():
    S = K.ou_stationary_cov(A3, B3)
    A_rev = -0.5 * B3 @ B3.T @ np.linalg.inv(S)  # same noise, same stationary law, no probability current
    np.testing.assert_allclose(K.ou_stationary_cov(A_rev, B3), S, atol=1e-12)
    rev = K.sko_linear_singular(A_rev, B3, 0.5)
    np.testing.assert_allclose(rev["predictive"][:, 0], rev["retrospective"][:, 0], atol=1e-10)
    irr = K.sko_linear_singular(A3, B3, 0.5)
    assert K.line_angle_deg(irr["predictive"][:, 0], irr["retrospective"][:, 0]) > 10


def test_top_pair_maximises_the_lagged_correlation_over_random_pairs():
    r = K.sko_linear_singular(A3, B3, 0.5)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 2000)), rng.standard_normal((3, 2000))
    corr = np.einsum("in,ij,jn->n", b, r["C_tau"], a) / np.sqrt(
        np.einsum("in,ij,jn->n", a, r["Sigma0"], a) * np.einsum("in,ij,jn->n", b, r["Sigma_tau"], b))
    assert np.abs(corr).max() <= r["s"][0] + 1e-12


# ----------------------------------------------------------------------------- simulation
def test_simulation_equals_the_plain_recursion_with_the_same_noise():
    dt, n = 0.5, 50
    x0 = np.array([0.3, -1.0, 2.0])
    X = K.simulate_ou(A3, B3, dt, n, np.random.default_rng(7), x0=x0)
    M, Q = K.ou_exact_discretization(A3, B3, dt)
    w, E = np.linalg.eigh(Q)
    L = E * np.sqrt(np.clip(w, 0, None))
    eta = np.random.default_rng(7).standard_normal((n - 1, 3)) @ L.T
    Y = np.empty((n, 3))
    Y[0] = x0
    for k in range(n - 1):  # brute force
        Y[k + 1] = M @ Y[k] + eta[k]
    np.testing.assert_allclose(X, Y, atol=1e-10)


def test_simulated_path_has_the_stationary_and_lagged_covariances():
    X = K.simulate_ou(A3, B3, 0.5, 200_000, np.random.default_rng(1))
    S = K.ou_stationary_cov(A3, B3)
    np.testing.assert_allclose(np.cov(X, rowvar=False), S, atol=0.05 * np.abs(S).max())
    C = (X[1:] - X.mean(0)).T @ (X[:-1] - X.mean(0)) / (len(X) - 1)
    np.testing.assert_allclose(C, scipy.linalg.expm(0.5 * A3) @ S, atol=0.05 * np.abs(S).max())


# ----------------------------------------------------------------------------- CCA
def _correlated_pair(n=4000, seed=3):
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, 2))
    X = np.column_stack([Z[:, 0] + 0.5 * rng.standard_normal(n), Z[:, 1] + rng.standard_normal(n),
                         rng.standard_normal(n)]) @ np.array([[1, 0.3, 0], [0, 1, 0.2], [0.5, 0, 1]])
    Y = np.column_stack([Z[:, 0] + 0.8 * rng.standard_normal(n), Z[:, 1] + 2 * rng.standard_normal(n)])
    return X, Y


def test_cca_matches_scipy_principal_angles_and_sklearn():
    X, Y = _correlated_pair()
    res = K.cca(X, Y)
    cos = np.sort(np.cos(scipy.linalg.subspace_angles(X - X.mean(0), Y - Y.mean(0))))[::-1]
    np.testing.assert_allclose(res.rho, cos, atol=1e-10)  # canonical correlations = cosines of principal angles
    sk = CCA(n_components=2, scale=False, max_iter=5000, tol=1e-12).fit(X, Y)
    xs, ys = sk.transform(X, Y)
    rho_sk = [abs(np.corrcoef(xs[:, i], ys[:, i])[0, 1]) for i in range(2)]
    np.testing.assert_allclose(res.rho, rho_sk, atol=1e-3)  # brief: sklearn within 1e-3
    for i in range(2):  # directions agree up to sign (as projections)
        assert abs(np.corrcoef(X @ res.x_dirs[:, i], xs[:, i])[0, 1]) > 1 - 1e-3


def test_cca_directions_have_unit_variance_and_correlation_rho():
    X, Y = _correlated_pair()
    res = K.cca(X, Y)
    f, g = (X - X.mean(0)) @ res.x_dirs, (Y - Y.mean(0)) @ res.y_dirs
    np.testing.assert_allclose(np.cov(f, rowvar=False), np.eye(2), atol=1e-10)
    np.testing.assert_allclose(np.cov(g, rowvar=False), np.eye(2), atol=1e-10)
    np.testing.assert_allclose(np.diag(np.cov(f.T, g.T)[:2, 2:]), res.rho, atol=1e-10)
    assert np.all(res.rho >= 0)


def test_cca_is_invariant_to_invertible_linear_maps():
    X, Y = _correlated_pair()
    T = np.array([[2.0, 1.0, 0.0], [0.0, 0.5, 0.0], [1.0, 0.0, 3.0]])
    np.testing.assert_allclose(K.cca(X @ T, Y).rho, K.cca(X, Y).rho, atol=1e-10)


def test_lag_embed_indices():
    x = np.arange(20.0)
    past, future = K.lag_embed(x, lag=2, window=3)
    assert past.shape == future.shape == (20 - 2 - 4, 3)
    np.testing.assert_array_equal(past[0], [2, 1, 0])
    np.testing.assert_array_equal(future[0], [4, 5, 6])
    p1, f1 = K.lag_embed(np.arange(10.0).reshape(5, 2), lag=1)
    np.testing.assert_array_equal(p1, np.arange(8.0).reshape(4, 2))
    np.testing.assert_array_equal(f1, np.arange(2.0, 10.0).reshape(4, 2))


def test_past_future_cca_of_ar1_estimates_phi():
    phi = 0.6
    X = K.simulate_ou(np.array([[math.log(phi)]]), np.array([[1.0]]), 1.0, 100_000, np.random.default_rng(4))
    res = K.past_future_cca(X, 1)
    assert res.rho[0] == pytest.approx(phi, abs=0.01)
    res2 = K.past_future_cca(X, 2)
    assert res2.rho[0] == pytest.approx(phi**2, abs=0.01)


def test_past_future_cca_recovers_the_exact_pair_of_the_ou_process():
    X = K.simulate_ou(A3, B3, 0.5, 100_000, np.random.default_rng(5))
    est = K.past_future_cca(X, 1)
    ex = K.sko_linear_singular(A3, B3, 0.5)
    np.testing.assert_allclose(est.rho, ex["s"], atol=0.02)
    assert K.whitened_cosine(est.x_dirs[:, 0], ex["predictive"][:, 0], ex["Sigma0"]) > 0.99
    assert K.whitened_cosine(est.y_dirs[:, 0], ex["retrospective"][:, 0], ex["Sigma_tau"]) > 0.99


def test_window_covariances_reduce_to_the_pair_covariances_and_have_rank_d():
    cv = K.ou_window_covariances(A3, B3, np.eye(3), 0.25, lag=2, window=1)
    ex = K.ou_lagged_cov(A3, B3, 0.5)
    np.testing.assert_allclose(cv["Spp"], ex["Sigma0"], atol=1e-12)
    np.testing.assert_allclose(cv["Sqp"], ex["C_tau"], atol=1e-12)
    A2 = np.array([[0.0, 1.0], [-9.0, -1.0]])
    B2 = np.array([[0.0], [1.0]])
    cw = K.ou_window_covariances(A2, B2, np.array([[1.0, 0.0]]), 0.1, lag=1, window=6, obs_noise=0.1)
    rho = K.cca_from_cov(cw["Spp"], cw["Sqq"], cw["Sqp"]).rho
    assert rho[1] > 0.1 and np.all(rho[2:] < 1e-6)  # information passes through the 2-d state
    # Toeplitz / Hankel structure against a long simulation
    X = K.simulate_ou(A2, B2, 0.1, 400_000, np.random.default_rng(6))[:, 0]
    X = X + 0.1 * np.random.default_rng(7).standard_normal(X.shape)
    p, q = K.lag_embed(X, 1, 6)
    emp = np.cov(np.hstack([p, q]), rowvar=False)
    scale = np.abs(cw["Spp"]).max()
    np.testing.assert_allclose(emp[:6, :6], cw["Spp"], atol=0.03 * scale)
    np.testing.assert_allclose(emp[6:, :6], cw["Sqp"], atol=0.03 * scale)


# ----------------------------------------------------------------------------- sets and baselines
def test_sheppard_formula_closed_values_and_monte_carlo():
    assert K.sheppard_agreement(0.0) == 0.5 and K.sheppard_agreement(1.0) == 1.0
    assert K.sheppard_agreement(0.5) == pytest.approx(2 / 3, rel=1e-12)  # arcsin(1/2) = pi/6
    rng = np.random.default_rng(8)
    rhos = np.array([-0.6, 0.2, 0.75])
    z = rng.standard_normal((100_000, 2))
    f = z[:, :1]
    g = rhos * z[:, :1] + np.sqrt(1 - rhos**2) * z[:, 1:]
    np.testing.assert_allclose(K.sign_agreement(np.broadcast_to(f, g.shape), g), K.sheppard_agreement(rhos), atol=1e-2)


def test_sign_agreement_counts():
    assert K.sign_agreement([1, -2, 3, -4], [2, -1, -3, 0]) == 0.5
    np.testing.assert_array_equal(K.sign_agreement(np.ones((3, 2)), np.array([[1, -1], [1, -1], [1, 1]])), [1, 1 / 3])


def test_whitened_cosine_is_the_correlation_of_projections():
    S = K.ou_stationary_cov(A3, B3)
    a, b = np.array([1.0, 0.0, 0.5]), np.array([0.2, 1.0, -1.0])
    X = np.random.default_rng(9).multivariate_normal(np.zeros(3), S, 200_000)
    assert K.whitened_cosine(a, b, S) == pytest.approx(abs(np.corrcoef(X @ a, X @ b)[0, 1]), abs=0.01)
    assert K.whitened_cosine(a, -3 * a, S) == pytest.approx(1.0)
    assert K.whitened_cosine(a, b, np.eye(3)) == pytest.approx(abs(a @ b) / np.linalg.norm(a) / np.linalg.norm(b))


def test_angles_principal_direction_and_random_directions():
    assert K.line_angle_deg([1, 0], [0, 2]) == pytest.approx(90)
    assert K.line_angle_deg([1, 1], [-2, -2]) == pytest.approx(0, abs=1e-6)
    assert K.line_angle_deg([1, 0], [1, 1]) == pytest.approx(45)
    X = np.random.default_rng(10).multivariate_normal(np.zeros(3), np.diag([1.0, 5.0, 2.0]) + 0.5, 5000)
    p = K.principal_direction(X)
    assert abs(p @ PCA(1).fit(X).components_[0]) == pytest.approx(1.0, abs=1e-10)
    R = K.random_directions(100, 3, np.random.default_rng(0))
    assert R.shape == (3, 100)
    np.testing.assert_allclose(np.linalg.norm(R, axis=0), 1.0)


# ----------------------------------------------------------------------------- bad input
def test_bad_input():
    with pytest.raises(ValueError, match="stable"):
        K.ou_stationary_cov(np.array([[0.1]]), np.eye(1))
    with pytest.raises(ValueError, match="square"):
        K.ou_exact_discretization(np.ones((2, 3)), np.eye(2), 0.1)
    with pytest.raises(ValueError, match="tau"):
        K.ou_exact_discretization(A3, B3, 0.0)
    with pytest.raises(ValueError, match="rows"):
        K.ou_stationary_cov(A3, np.eye(2))
    with pytest.raises(ValueError, match="positive definite"):
        K.ou_lagged_cov(A3, B3, 0.5, Sigma0=np.diag([1.0, -1.0, 1.0]))
    with pytest.raises(ValueError, match="symmetric"):
        K.spd_power(np.array([[1.0, 0.5], [0.0, 1.0]]), 0.5)
    with pytest.raises(ValueError, match="n_steps"):
        K.simulate_ou(A3, B3, 0.1, 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="x0"):
        K.simulate_ou(A3, B3, 0.1, 5, np.random.default_rng(0), x0=np.zeros(2))
    with pytest.raises(ValueError, match="same number of rows"):
        K.cca(np.ones((10, 2)), np.ones((9, 2)))
    with pytest.raises(ValueError, match="more samples"):
        K.cca(np.ones((3, 2)), np.ones((3, 2)))
    with pytest.raises(ValueError, match="k must be"):
        K.cca(*_correlated_pair(), k=3)
    with pytest.raises(ValueError, match="too short"):
        K.lag_embed(np.arange(5.0), lag=2, window=3)
    with pytest.raises(ValueError, match="lag"):
        K.past_future_cca(np.arange(50.0), 0)
    with pytest.raises(ValueError, match="rho"):
        K.sheppard_agreement(1.5)
    with pytest.raises(ValueError, match="same shape"):
        K.sign_agreement([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="nonzero"):
        K.whitened_cosine(np.zeros(3), np.ones(3), np.eye(3))
    with pytest.raises(ValueError, match="C must"):
        K.ou_window_covariances(A3, B3, np.ones((1, 2)), 0.1, 1, 2)
    with pytest.raises(ValueError, match="obs_noise"):
        K.ou_window_covariances(A3, B3, np.eye(3), 0.1, 1, 2, obs_noise=-1.0)
    with pytest.raises(ValueError, match="C_tau"):
        K.whitened_transition(np.eye(2), np.eye(2), np.ones((3, 2)))


# ----------------------------------------------------------------------------- a skeptic's naive estimators
def test_pls_pair_is_the_top_covariance_pair():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((4000, 3)) @ np.diag([1.0, 2.0, 0.5])
    Y = X @ np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]) + 0.1 * rng.standard_normal((4000, 3))
    v, u = K.pls_pair(X, Y)
    assert np.linalg.norm(v) == pytest.approx(1) and np.linalg.norm(u) == pytest.approx(1)
    cov = lambda a, b: np.cov(X @ a, Y @ b)[0, 1]  # noqa: E731
    assert cov(v, u) > 0
    for r in K.random_directions(300, 3, rng).T:  # no unit pair has a larger covariance
        g = K.random_directions(1, 3, rng)[:, 0]
        assert abs(cov(r, g)) <= cov(v, u) + 1e-9
    assert abs(v[1]) == pytest.approx(1, abs=1e-2)  # the loudest input coordinate


def test_pls_pair_is_the_svd_of_the_raw_cross_covariance():
    # white inputs, Y = M x: the cross-covariance is M, so PLS returns M's top singular pair
    M = np.array([[0.9, 0.3, 0.0], [0.0, 0.5, 0.2], [0.1, 0.0, 0.2]])
    U, _, Vt = np.linalg.svd(M)
    X = np.random.default_rng(0).standard_normal((200_000, 3))
    v, u = K.pls_pair(X, X @ M.T)
    assert K.line_angle_deg(v, Vt[0]) < 1.0 and K.line_angle_deg(u, U[:, 0]) < 1.0


def test_ls_partner_is_the_regression_direction_and_recovers_the_canonical_pair():
    rng = np.random.default_rng(1)
    X = K.simulate_ou(A3, B3, 0.5, 20_000, rng)
    x0, x1 = X[:-1], X[1:]
    ex = K.sko_linear_singular(A3, B3, 0.5)
    a, b = ex["predictive"][:, 0], ex["retrospective"][:, 0]
    g = K.ls_partner(x0, x1, a)
    beta = np.linalg.lstsq(x1 - x1.mean(0), (x0 - x0.mean(0)) @ a, rcond=None)[0]
    np.testing.assert_allclose(g, beta, rtol=1e-9, atol=1e-12)
    # the exact predictive field's regression partner is (in the population) the retrospective field
    assert K.whitened_cosine(g, b, ex["Sigma_tau"]) > 0.999
    G = K.ls_partner(x0, x1, np.stack([a, 2 * a], axis=1))
    np.testing.assert_allclose(G[:, 1], 2 * G[:, 0], rtol=1e-12)
    with pytest.raises(ValueError):
        K.ls_partner(x0, x1, np.ones(2))


def test_partner_search_keeps_the_most_coherent_pair():
    rng = np.random.default_rng(2)
    X = K.simulate_ou(A3, B3, 0.5, 5_000, rng)
    x0, x1 = X[:-1], X[1:]
    R = K.random_directions(50, 3, rng)
    f, g, c = K.partner_search(x0, x1, R)
    coh = K.sign_agreement(x0 @ R, x1 @ K.ls_partner(x0, x1, R))
    assert c == pytest.approx(coh.max()) and c == pytest.approx(K.sign_agreement(x0 @ f, x1 @ g))
    assert any(np.allclose(f, R[:, j]) for j in range(R.shape[1]))
    with pytest.raises(ValueError):
        K.partner_search(x0, x1[:-1], R)


def test_one_step_predictor_recovers_ar_coefficients():
    rng = np.random.default_rng(4)
    phi = np.array([0.5, -0.3, 0.1])
    n = 100_000
    s = scipy.signal.lfilter([1.0], np.r_[1.0, -phi], rng.standard_normal(n)) + 3.0
    past, fut = K.lag_embed(s, 1, 3)
    w = K.one_step_predictor(past, fut)
    np.testing.assert_allclose(w, phi, atol=0.01)
    with pytest.raises(ValueError):
        K.one_step_predictor(past, fut[:-1])
