"""Unit tests of :mod:`repro.papers.ksos_conformal_bands`, the kernels of ``notebooks/ksos-conformal-bands.py``."""

import inspect
import math

import numpy as np
import pytest

from repro.papers import ksos_conformal_bands as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/ksos_conformal_bands.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def _problem(n=25, p=12, seed=0, ls=1.0):
    rng = np.random.default_rng(seed)
    X, y, _ = K.make_heteroscedastic(rng, (n,))
    r2 = (y - np.sin(2 * X[:, 0])) ** 2
    Phi, W = K.nystrom_features(X, K.spread_landmarks(X, p), ls)
    return X, r2 / r2.mean(), Phi, W


def test_rbf_kernel_closed_form_and_batch():
    X = np.array([[0.0], [1.0]])
    Kx = K.rbf_kernel(X, X, 2.0)
    assert np.allclose(Kx, [[1, math.exp(-1 / 8)], [math.exp(-1 / 8), 1]])
    Xb = np.stack([X, 2 * X])
    Kb = K.rbf_kernel(Xb, Xb, np.array([2.0, 1.0]))
    assert np.allclose(Kb[0], Kx) and np.isclose(Kb[1, 0, 1], math.exp(-2))
    with pytest.raises(ValueError, match="lengthscale"):
        K.rbf_kernel(X, X, 0.0)
    with pytest.raises(ValueError, match="n, d"):
        K.rbf_kernel(X[:, 0], X, 1.0)


def test_nystrom_reproduces_kernel_on_landmarks_and_span():
    rng = np.random.default_rng(1)
    X = rng.uniform(-3, 3, (15, 1))
    Phi, W = K.nystrom_features(X, X, 1.0, rel_tol=1e-12)
    assert np.allclose(Phi @ Phi.T, K.rbf_kernel(X, X, 1.0), atol=1e-6)
    Xn = rng.uniform(-3, 3, (4, 1))
    assert np.allclose(K.rbf_kernel(Xn, X, 1.0) @ W, K.nystrom_features(Xn, X, 1.0, rel_tol=1e-12)[0])
    with pytest.raises(ValueError, match="rel_tol"):
        K.nystrom_features(X, X, 1.0, rel_tol=0.0)


def test_krr_matches_scikit_learn():
    from sklearn.kernel_ridge import KernelRidge
    rng = np.random.default_rng(2)
    X, y, _ = K.make_heteroscedastic(rng, (40,))
    Xn = rng.uniform(-3, 3, (7, 1))
    ours = K.krr_fit_predict(X, y, Xn, 0.5, 1e-3)
    ref = KernelRidge(alpha=40 * 1e-3, kernel="rbf", gamma=1 / (2 * 0.5**2)).fit(X, y).predict(Xn)
    assert np.allclose(ours, ref, atol=1e-8)
    with pytest.raises(ValueError, match="reg"):
        K.krr_fit_predict(X, y, Xn, 0.5, 0.0)


def test_dual_gradient_matches_finite_differences():
    _, r2, Phi, _ = _problem()
    a = np.random.default_rng(3).uniform(0, 0.2, r2.shape)
    _, g, _ = K.ksos_dual_objective(a, Phi, r2, 1e-3, 0.1)
    h = 1e-6
    for i in range(0, len(a), 6):
        e = np.zeros_like(a)
        e[i] = h
        fd = (K.ksos_dual_objective(a + e, Phi, r2, 1e-3, 0.1)[0] - K.ksos_dual_objective(a - e, Phi, r2, 1e-3, 0.1)[0]) / (2 * h)
        assert abs(fd - g[i]) < 1e-5 * max(1.0, abs(g[i]))


def test_dual_matches_cvxpy_and_weak_duality():
    _, r2, Phi, _ = _problem(n=30, p=10)
    fit = K.ksos_fit_dual(Phi, r2, 1e-3, 0.1, iters=3000)
    ref = K.ksos_fit_cvxpy(Phi, r2, 1e-3, 0.1)
    assert ref["status"] == "optimal"
    assert abs(fit["dual"] - ref["primal"]) <= 1e-5 * abs(ref["primal"])
    assert fit["violation"] < 1e-6
    assert fit["dual"] <= ref["primal"] + 1e-6 * abs(ref["primal"])      # weak duality
    # any feasible multipliers give a lower bound
    a = np.random.default_rng(4).uniform(0, 1, r2.shape)
    assert K.ksos_dual_objective(a, Phi, r2, 1e-3, 0.1)[0] <= ref["primal"] + 1e-6


def test_fit_is_batched_and_psd():
    _, r2a, Pa, Wa = _problem(seed=5)
    _, r2b, Pb, Wb = _problem(seed=6)
    both = K.ksos_fit_dual(np.stack([Pa, Pb]), np.stack([r2a, r2b]), 1e-3, 0.1, iters=200)
    one = K.ksos_fit_dual(Pb, r2b, 1e-3, 0.1, iters=200)
    assert np.allclose(both["B"][1], one["B"], atol=1e-10)
    assert np.linalg.eigvalsh(both["B"]).min() > -1e-10
    Xn = np.linspace(-3, 3, 200)[:, None]
    X, _, _ = K.make_heteroscedastic(np.random.default_rng(5), (25,))
    f = K.ksos_predict_f(both["B"][0], K.rbf_kernel(Xn, K.spread_landmarks(X, 12), 1.0) @ Wa)
    assert f.min() >= -1e-10


def test_conformal_quantile_order_statistic_and_coverage():
    s = np.arange(1.0, 20.0)                     # n = 19, alpha = 0.1 -> k = ceil(20 * 0.9) = 18
    assert K.conformal_quantile(s[::-1], 0.1) == 18.0
    assert np.isinf(K.conformal_quantile(np.arange(5.0), 0.1))   # ceil(6 * 0.9) = 6 > 5
    rng = np.random.default_rng(7)
    cal, test = rng.standard_normal((2000, 49)), rng.standard_normal(2000)
    cov = np.mean(np.abs(test) <= K.conformal_quantile(np.abs(cal), 0.1))
    assert 0.9 - 3 * math.sqrt(0.09 / 2000) <= cov <= 0.92 + 3 * math.sqrt(0.09 / 2000)   # 1 - alpha <= P <= 1 - alpha + 1/(n+1)
    with pytest.raises(ValueError, match="alpha"):
        K.conformal_quantile(s, 1.0)


def test_scores_and_bins():
    assert np.allclose(K.ksos_scores(np.array([3.0]), np.array([1.0]), np.array([4.0])), [1.0])
    with pytest.raises(ValueError, match="delta"):
        K.ksos_scores(np.array([1.0]), np.array([0.0]), np.array([0.0]))
    x = np.array([-2.9, -0.1, 0.1, 2.9, 3.0])
    c = np.array([1, 0, 1, 1, 0], bool)
    assert np.allclose(K.coverage_by_bins(x, c, 2, -3, 3), [0.5, 2 / 3])
    assert K.worst_bin_deviation(np.array([0.5, np.nan, 0.95]), 0.9) == pytest.approx(0.4)
    with pytest.raises(ValueError, match="n_bins"):
        K.coverage_by_bins(x, c, 0, -3, 3)


def test_hsic_zero_for_independent_positive_for_dependent():
    rng = np.random.default_rng(8)
    X = rng.uniform(-3, 3, (400, 1))
    z_ind = rng.uniform(size=400) < 0.9
    z_dep = np.abs(X[:, 0]) < 2.0
    h_ind, h_dep = K.hsic(X, z_ind, 1.0), K.hsic(X, z_dep, 1.0)
    assert h_ind >= 0 and h_dep > 10 * h_ind
    assert K.hsic(X, np.ones(400, bool), 1.0) == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="z must"):
        K.hsic(X, z_ind[:10], 1.0)


def test_spread_landmarks_and_bad_problem_input():
    X = np.arange(10.0)[::-1, None]
    assert np.allclose(K.spread_landmarks(X, 4)[:, 0], [0, 3, 6, 9])
    with pytest.raises(ValueError, match="integer"):
        K.spread_landmarks(X, 11)
    with pytest.raises(ValueError, match="lam"):
        K.ksos_fit_dual(np.ones((3, 2)), np.ones(3), 1e-3, 0.0)
    with pytest.raises(ValueError, match="r2"):
        K.ksos_fit_dual(np.ones((3, 2)), -np.ones(3), 1e-3, 0.1)


def test_spline_quantile_matches_empirical_quantile_and_sklearn():
    rng = np.random.default_rng(3)
    x = rng.uniform(-3, 3, (2, 300))
    y = np.sin(2 * x) + (0.1 + 0.5 * np.abs(x)) * rng.standard_normal(x.shape)
    for tau in (0.1, 0.9):
        q = K.spline_quantile_fit_predict(x, y, x, tau, -3, 3)
        assert q.shape == x.shape
        # the pinball-loss optimum leaves about a fraction tau of the points below the fit
        assert np.all(np.abs((y <= q + 1e-9).mean(-1) - tau) < 0.05)
    # against scikit-learn's QuantileRegressor on the same spline basis (no penalty)
    from sklearn.linear_model import QuantileRegressor
    from sklearn.preprocessing import SplineTransformer
    st = SplineTransformer(n_knots=8, degree=3).fit(np.array([[-3.0], [3.0]]))
    F = st.transform(x[0][:, None])
    ref = QuantileRegressor(quantile=0.9, alpha=0.0, fit_intercept=False, solver="highs").fit(F, y[0]).predict(F)
    ours = K.spline_quantile_fit_predict(x[0], y[0], x[0], 0.9, -3, 3)
    pin = lambda q: np.mean(np.maximum(0.9 * (y[0] - q), -0.1 * (y[0] - q)))
    assert pin(ours) == pytest.approx(pin(ref), rel=1e-6)


def test_spline_quantile_constant_data_and_bad_input():
    x = np.linspace(-1, 1, 50)
    q = K.spline_quantile_fit_predict(x, np.full(50, 2.0), x, 0.5, -1, 1)
    assert np.allclose(q, 2.0, atol=1e-8)
    with pytest.raises(ValueError):
        K.spline_quantile_fit_predict(x, x, x, 1.0, -1, 1)
    with pytest.raises(ValueError):
        K.spline_quantile_fit_predict(x, x[:-1], x, 0.5, -1, 1)
    with pytest.raises(ValueError):
        K.spline_quantile_fit_predict(x, x, x, 0.5, 1, -1)


def test_cqr_scores_and_coverage():
    y = np.array([0.0, 2.0, -3.0])
    assert np.allclose(K.cqr_scores(y, np.full(3, -1.0), np.full(3, 1.0)), [-1.0, 1.0, 2.0])
    with pytest.raises(ValueError):
        K.cqr_scores(y, np.zeros(2), np.zeros(3))
    # exchangeable data: the CQR band covers at least 1 - alpha on average (Monte Carlo)
    rng = np.random.default_rng(0)
    cal = rng.standard_normal((2000, 50))
    test = rng.standard_normal(2000)
    q = K.conformal_quantile(K.cqr_scores(cal, np.full(cal.shape, -0.5), np.full(cal.shape, 0.5)), 0.1)
    assert np.mean(np.abs(test) <= 0.5 + q) >= 0.9 - 3 * math.sqrt(0.09 / 2000)


def test_ridge_scale_fits_a_linear_target_and_respects_the_floor():
    rng = np.random.default_rng(1)
    Phi = rng.normal(size=(2, 300, 4))
    w = np.array([1.0, -2.0, 0.5, 0.0])
    r2 = Phi @ w
    f = K.ridge_scale_fit_predict(Phi, r2, Phi, 1e-8, 1e-3)
    assert np.all(f >= 1e-3)
    pos = r2 > 1e-3
    assert np.allclose(f[pos], r2[pos], atol=1e-5)
    with pytest.raises(ValueError):
        K.ridge_scale_fit_predict(Phi, r2, Phi, 0.0, 1e-3)


def test_knn_scale_matches_a_brute_force_neighbour_mean():
    rng = np.random.default_rng(2)
    x_ref, a, x_new = rng.uniform(-3, 3, 50), rng.uniform(0, 1, 50), rng.uniform(-3, 3, 7)
    got = K.knn_scale(x_ref, a, x_new, 5)
    want = [a[np.argsort(np.abs(x_ref - x))[:5]].mean() for x in x_new]
    assert np.allclose(got, want)
    assert np.allclose(K.knn_scale(x_ref, a, x_new, 50), a.mean())


def test_mondrian_half_width_is_the_per_bin_conformal_quantile_and_covers_per_bin():
    rng = np.random.default_rng(3)
    x_cal = rng.uniform(-1, 1, 4000)
    s_cal = np.abs(rng.normal(size=4000)) * (1 + 3 * (x_cal > 0))
    x_new = np.array([-0.5, 0.5])
    h = K.mondrian_half_width(x_cal, s_cal, x_new, 0.1, 2, -1, 1)
    assert h[0] == K.conformal_quantile(s_cal[x_cal < 0], 0.1)
    assert h[1] == K.conformal_quantile(s_cal[x_cal >= 0], 0.1)
    x_t = rng.uniform(-1, 1, 20000)
    s_t = np.abs(rng.normal(size=20000)) * (1 + 3 * (x_t > 0))
    cov = s_t <= K.mondrian_half_width(x_cal, s_cal, x_t, 0.1, 2, -1, 1)
    for m in (x_t < 0, x_t >= 0):
        assert abs(cov[m].mean() - 0.9) < 0.02


def test_knn_scale_batched_matches_brute_force():
    rng = np.random.default_rng(4)
    x_ref, a, x_new = rng.uniform(-3, 3, (3, 40)), rng.uniform(0, 1, (3, 40)), rng.uniform(-4, 4, (3, 9))
    got = K.knn_scale(x_ref, a, x_new, 7)
    for i in range(3):
        want = [a[i][np.argsort(np.abs(x_ref[i] - x))[:7]].mean() for x in x_new[i]]
        assert np.allclose(got[i], want)
