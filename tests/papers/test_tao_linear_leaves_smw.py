"""Unit tests of the TAO / Sherman-Morrison-Woodbury kernels."""

import numpy as np
import pytest
from sklearn.linear_model import Ridge

from repro.papers import tao_linear_leaves_smw as K


def _data(n, D, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, D)), rng.standard_normal(n)


@pytest.mark.parametrize("n,D", [(5, 40), (40, 5), (30, 30), (1, 7)])
@pytest.mark.parametrize("lam", [1e-3, 1.0, 1e3])
def test_primal_equals_woodbury_equals_sklearn(n, D, lam):
    X, y = _data(n, D)
    wp, ww, wa = K.ridge_primal(X, y, lam), K.ridge_woodbury(X, y, lam), K.ridge_auto(X, y, lam)
    scale = max(1.0, np.abs(wp).max())
    assert np.max(np.abs(wp - ww)) < 1e-8 * scale
    assert np.max(np.abs(wp - wa)) < 1e-8 * scale
    ref = Ridge(alpha=lam, fit_intercept=False, solver="cholesky").fit(X, y).coef_
    assert np.allclose(wp, ref, rtol=1e-7, atol=1e-9)


def test_ridge_is_stationary_point():
    X, y = _data(20, 50, 1)
    lam = 0.7
    w = K.ridge_woodbury(X, y, lam)
    grad = 2 * X.T @ (X @ w - y) + 2 * lam * w
    assert np.max(np.abs(grad)) < 1e-9


def test_push_through_identity():
    X, _ = _data(7, 12, 2)
    lam = 0.3
    left = np.linalg.solve(X.T @ X + lam * np.eye(12), X.T)
    right = X.T @ np.linalg.inv(X @ X.T + lam * np.eye(7))
    assert np.allclose(left, right, atol=1e-12)


@pytest.mark.parametrize("bad", [
    lambda: K.ridge_primal(np.ones(3), np.ones(3), 1.0),
    lambda: K.ridge_woodbury(np.ones((3, 2)), np.ones(4), 1.0),
    lambda: K.ridge_primal(np.ones((3, 2)), np.ones(3), 0.0),
    lambda: K.ridge_woodbury(np.ones((3, 2)), np.ones(3), np.nan),
    lambda: K.leaf_flops(10, 5, "qr"),
    lambda: K.leaf_flops(-1, 5, "primal"),
    lambda: K.balanced_leaf_step_flops(100, 5, -1, "primal"),
    lambda: K.critical_depth(0, 5),
    lambda: K.best_time(lambda: None, 0),
    lambda: K.rmse(np.ones(3), np.ones(4)),
])
def test_bad_inputs_raise(bad):
    with pytest.raises(ValueError):
        bad()


def test_flop_model_crossover_and_monotonicity():
    D = 50
    # per leaf: equal at n = D, Woodbury cheaper below, primal cheaper above
    assert K.leaf_flops(D, D, "primal") == K.leaf_flops(D, D, "woodbury")
    assert K.leaf_flops(D - 1, D, "woodbury") < K.leaf_flops(D - 1, D, "primal")
    assert K.leaf_flops(D + 1, D, "primal") < K.leaf_flops(D + 1, D, "woodbury")
    assert K.leaf_flops(0, D, "auto") == 0
    ns = np.arange(1, 200)
    for m in K.SOLVERS:
        f = np.array([K.leaf_flops(n, D, m) for n in ns])
        assert np.all(np.diff(f) > 0)  # more instances, more work
    # whole leaf step: primal grows with depth, Woodbury shrinks, crossover at log2(N/D)
    N = 3200
    p = [K.balanced_leaf_step_flops(N, D, d, "primal") for d in range(10)]
    w = [K.balanced_leaf_step_flops(N, D, d, "woodbury") for d in range(10)]
    assert np.all(np.diff(p) > 0) and np.all(np.diff(w) < 0)
    assert K.critical_depth(N, D) == 6.0
    assert p[6] == w[6]  # N / 2^6 = D exactly
    a = [K.balanced_leaf_step_flops(N, D, d, "auto") for d in range(12)]
    assert int(np.argmax(a)) == 6


def test_balanced_model_matches_closed_form():
    N, D, d = 4096, 64, 4
    L = 2**d
    n = N // L
    solve = n * D * D + D**3 // 3 + 2 * n * D + 2 * D * D
    centring = 2 * n * D + 2 * n + 2 * D
    assert K.balanced_leaf_step_flops(N, D, d, "primal") == L * (solve + centring)
    assert K.leaf_work(n, D, "primal") == solve + centring
    assert K.leaf_work(0, D, "woodbury") == 0
    with pytest.raises(ValueError):
        K.leaf_work(3, D, "constant")


def test_flop_model_at_the_paper_sizes():
    """Closed-form facts of our flop model at N=2000, D=1000 (formerly claims on the page; identities
    of the formula, evaluated at fixed sizes, so they live here)."""
    N, D = 2000, 1000
    ratio_d5 = K.balanced_leaf_step_flops(N, D, 5, "primal") / K.balanced_leaf_step_flops(N, D, 5, "woodbury")
    assert ratio_d5 >= 3  # old claim flops-ratio-N2000-D1000-d5 (about 96)
    w7, w3 = (K.balanced_leaf_step_flops(N, D, d, "woodbury") for d in (7, 3))
    assert w7 / w3 < 1  # old claim deeper-is-cheaper (about 0.065)
    assert w7 / K.leaf_work(N, D, "primal") < 1  # old claim cheaper-than-linreg (about 0.015)
    p7, p3 = (K.balanced_leaf_step_flops(N, D, d, "primal") for d in (7, 3))
    assert p7 / p3 > 1  # without the Woodbury form, deeper is dearer


def test_route_each_instance_one_leaf_and_brute_force():
    X, y = _data(300, 4, 3)
    T = K.init_tree(X, y, 3, np.random.default_rng(0))
    leaf = K.route(T, X)
    assert leaf.shape == (300,) and leaf.min() >= 0 and leaf.max() < 8
    # brute force: walk each instance down with a Python loop
    for n in range(0, 300, 17):
        i = 0
        while i < 7:
            i = 2 * i + 1 + int(X[n] @ T.W_nodes[i] + T.b_nodes[i] > 0)
        assert i - 7 == leaf[n]
    # init splits are balanced (median splits): leaf sizes differ by at most a few
    counts = np.bincount(leaf, minlength=8)
    assert counts.max() - counts.min() <= 8
    with pytest.raises(ValueError):
        K.route(T, X[:, :3])


def test_leaf_step_is_exact_ridge_with_intercept():
    X, y = _data(400, 6, 4)
    T = K.init_tree(X, y, 2, np.random.default_rng(1))
    flops = K.leaf_step(T, X, y, 2.0, "woodbury")
    leaf = K.route(T, X)
    assert flops == sum(K.leaf_work(int((leaf == l).sum()), 6, "woodbury") for l in range(4))
    for l in range(4):
        m = leaf == l
        ref = Ridge(alpha=2.0).fit(X[m], y[m])
        assert np.allclose(T.W_leaves[l], ref.coef_, atol=1e-9)
        assert np.isclose(T.b_leaves[l], ref.intercept_, atol=1e-9)
    with pytest.raises(ValueError):
        K.leaf_step(T, X, y, 2.0, "qr")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tao_monotone_and_solver_invariant(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((300, 20))
    y = np.sin(X[:, 0]) + np.abs(X[:, 1]) + 0.1 * rng.standard_normal(300)
    T0 = K.init_tree(X, y, 3, np.random.default_rng(seed))
    Tp, hp = K.tao_fit(T0, X, y, 1.0, 3, "primal")
    Tw, hw = K.tao_fit(T0, X, y, 1.0, 3, "woodbury")
    assert len(hp) == 1 + 3 * 4
    assert np.all(np.diff(hp) <= 1e-10 * np.array(hp[:-1]))
    assert hp[-1] < 0.5 * hp[0]  # it actually learns
    assert np.allclose(hp, hw, rtol=1e-9)
    assert np.array_equal(K.route(Tp, X), K.route(Tw, X))
    assert np.allclose(K.tree_predict(Tp, X), K.tree_predict(Tw, X), atol=1e-8)
    assert np.isclose(hp[-1], K.tao_objective(Tp, X, y, 1.0))
    # tao_fit works on a copy
    assert np.all(T0.W_leaves == 0)


def test_decision_step_accepts_only_improvements():
    rng = np.random.default_rng(5)
    X = rng.uniform(-1, 1, (400, 2))
    y = np.where(X[:, 0] > 0.3, 2.0, -1.0)  # a step the root can learn
    T = K.init_tree(X, y, 1, rng)
    K.leaf_step(T, X, y, 1e-3, "auto")
    before = K.tao_objective(T, X, y, 1e-3)
    assert K.decision_level_step(T, X, y, 0) in (0, 1)
    after = K.tao_objective(T, X, y, 1e-3)
    assert after <= before
    with pytest.raises(ValueError):
        K.decision_level_step(T, X, y, 1)


def test_tao_beats_constant_leaves_on_piecewise_linear_data():
    rng = np.random.default_rng(6)
    X = rng.uniform(-1, 1, (600, 3))
    y = np.where(X[:, 0] > 0, 3 * X[:, 1], -2 * X[:, 2]) + 0.05 * rng.standard_normal(600)
    T, h = K.tao_fit(K.init_tree(X, y, 1, rng), X, y, 1e-2, 5, "auto")
    assert K.rmse(y, K.tree_predict(T, X)) < 0.5 * np.std(y)


def test_select_lam_returns_grid_member_and_rmse():
    X, y = _data(200, 3, 7)
    lam = K.select_lam(X, y, 2, [0.1, 10.0], 2, 0)
    assert lam in (0.1, 10.0)
    assert K.rmse(np.array([0.0, 0.0]), np.array([3.0, 4.0])) == pytest.approx(np.sqrt(12.5))
    assert K.best_time(lambda: None, 2) >= 0


def test_leaf_step_with_precomputed_routing_matches():
    X, y = _data(200, 5, 8)
    T = K.init_tree(X, y, 2, np.random.default_rng(2))
    T2 = T.copy()
    f1 = K.leaf_step(T, X, y, 1.0, "auto")
    f2 = K.leaf_step(T2, X, y, 1.0, "auto", K.route(T2, X))
    assert f1 == f2 and np.array_equal(T.W_leaves, T2.W_leaves)
    with pytest.raises(ValueError):
        K.leaf_step(T, X, y, 1.0, "auto", np.zeros(3, dtype=int))


def test_dual_cg_is_inexact_with_few_steps_and_exact_with_n():
    X, y = _data(30, 80, 9)
    exact = K.ridge_woodbury(X, y, 1.0)
    few = K.ridge_dual_cg(X, y, 1.0, 3)
    assert np.max(np.abs(few - exact)) > 1e-3 * np.max(np.abs(exact))
    full = K.ridge_dual_cg(X, y, 1.0, 200)
    assert np.allclose(full, exact, rtol=1e-8, atol=1e-10)
    assert np.all(K.ridge_dual_cg(X, y, 1.0, 0) == 0)
    with pytest.raises(ValueError):
        K.ridge_dual_cg(X, y, 1.0, -1)


def test_control_solvers():
    X, y = _data(300, 20, 10)
    T = K.init_tree(X, y, 2, np.random.default_rng(3))
    Tc = T.copy()
    assert K.leaf_step(Tc, X, y, 1.0, "constant") == 0
    leaf = K.route(Tc, X)
    assert np.all(Tc.W_leaves == 0)
    for l in range(4):
        assert np.isclose(Tc.b_leaves[l], y[leaf == l].mean())
    Tg = T.copy()
    assert K.leaf_step(Tg, X, y, 1.0, "dual-cg") == 0
    Te = T.copy()
    K.leaf_step(Te, X, y, 1.0, "woodbury")
    assert not np.allclose(Tg.W_leaves, Te.W_leaves, atol=1e-8)  # 10 CG steps on a 75 x 75 system: inexact
    Tc_fit, h = K.tao_fit(T, X, y, 1.0, 2, "constant")
    assert np.all(Tc_fit.W_leaves == 0) and np.all(np.diff(h) <= 1e-10 * np.array(h[:-1]))


@pytest.mark.parametrize("n,D", [(5, 40), (40, 5), (30, 30), (1, 7)])
@pytest.mark.parametrize("lam", [1e-3, 1.0, 1e3])
def test_svd_baseline_is_the_same_exact_ridge(n, D, lam):
    X, y = _data(n, D, 3)
    wp, ws = K.ridge_primal(X, y, lam), K.ridge_svd(X, y, lam)
    assert np.max(np.abs(wp - ws)) < 1e-8 * max(1.0, np.abs(wp).max())


def test_svd_count_closed_form_and_scaling():
    # R-SVD count (Golub & Van Loan Fig. 5.4.1) plus the three small products, symmetric in the wide/tall case
    assert K.leaf_flops(10, 100, "svd") == 6 * 100 * 100 + 20 * 1000 + 2 * 10 * 10 + 2 * 10 + 2 * 100 * 10
    assert K.leaf_flops(100, 10, "svd") == 6 * 100 * 100 + 20 * 1000 + 2 * 100 * 10 + 2 * 10 + 2 * 10 * 10
    assert K.leaf_flops(0, 10, "svd") == 0
    # it shrinks with the leaf like the dual form, but costs more than the dual Cholesky when n < D
    D = 300
    svd = [K.leaf_flops(n, D, "svd") for n in (10, 50, 100, 200)]
    assert all(a < b for a, b in zip(svd, svd[1:]))
    assert all(K.leaf_flops(n, D, "svd") > K.leaf_flops(n, D, "woodbury") for n in (10, 50, 100, 200))
    assert K.leaf_work(50, D, "svd") == K.leaf_flops(50, D, "svd") + 2 * 50 * D + 2 * 50 + 2 * D


def test_leaf_step_counts_and_fits_with_the_svd_baseline():
    X, y = _data(200, 30, 4)
    T = K.init_tree(X, y, 3, np.random.default_rng(0))
    Tp, Ts = T.copy(), T.copy()
    leaf = K.route(T, X)
    K.leaf_step(Tp, X, y, 1.0, "primal", leaf)
    work = K.leaf_step(Ts, X, y, 1.0, "svd", leaf)
    assert np.allclose(Tp.W_leaves, Ts.W_leaves, atol=1e-10) and np.allclose(Tp.b_leaves, Ts.b_leaves, atol=1e-10)
    sizes = np.bincount(leaf, minlength=8)
    assert work == sum(K.leaf_work(int(s), 30, "svd") for s in sizes)


def test_global_ridge_step_is_one_ridge_counted_as_one_leaf():
    X, y = _data(120, 9, 7)
    w, b, work = K.global_ridge_step(X, y, 3.0)
    ref = Ridge(alpha=3.0).fit(X, y)
    assert np.allclose(w, ref.coef_, atol=1e-9) and np.isclose(b, ref.intercept_, atol=1e-9)
    assert work == K.leaf_work(120, 9, "primal")
    assert np.allclose(K.global_ridge_step(X, y, 3.0, "woodbury")[0], w, atol=1e-9)
    with pytest.raises(ValueError):
        K.global_ridge_step(X, y[:5], 3.0)
