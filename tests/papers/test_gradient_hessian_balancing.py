"""Unit tests of repro.papers.gradient_hessian_balancing."""

import math

import numpy as np
import pytest
import torch
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression

from repro.papers import gradient_hessian_balancing as K


def _cubic(d=8, seed=0, L2=0.7):
    rng = np.random.default_rng(seed)
    lam = np.concatenate([-np.logspace(0, -2, d // 2), np.logspace(-2, 1, d - d // 2)])
    A = K.random_symmetric_matrix(lam, rng)
    return A, lam, L2, rng


def test_random_symmetric_matrix_has_spectrum():
    A, lam, _, _ = _cubic(10)
    np.testing.assert_allclose(A, A.T)
    np.testing.assert_allclose(np.linalg.eigvalsh(A), np.sort(lam), atol=1e-12)


def test_cubic_grad_hess_match_autograd_float64():
    A, _, L2, rng = _cubic(8)
    f, grad, hess = K.cubic_test_function(A, L2)
    At = torch.tensor(A)

    def ft(x):
        return 0.5 * x @ At @ x + L2 / 6 * torch.linalg.norm(x) ** 3

    for _ in range(3):
        x = rng.standard_normal(8)
        xt = torch.tensor(x, requires_grad=True)
        assert f(x) == pytest.approx(float(ft(xt).detach()), rel=1e-13)
        (g,) = torch.autograd.grad(ft(xt), xt)
        np.testing.assert_allclose(grad(x), g.numpy(), rtol=1e-12, atol=1e-12)
        Ht = torch.autograd.functional.hessian(ft, torch.tensor(x))
        np.testing.assert_allclose(hess(x), Ht.numpy(), rtol=1e-11, atol=1e-11)


def test_cubic_finite_differences_and_hessian_lipschitz():
    A, _, L2, rng = _cubic(6)
    f, grad, hess = K.cubic_test_function(A, L2)
    x, h = rng.standard_normal(6), 1e-6
    fd = np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(6)])
    np.testing.assert_allclose(grad(x), fd, atol=1e-6)
    fdH = np.array([(grad(x + h * e) - grad(x - h * e)) / (2 * h) for e in np.eye(6)])
    np.testing.assert_allclose(hess(x), fdH, atol=1e-6)
    # Hessian is L2-Lipschitz: ||hess(x) - hess(y)|| <= L2 ||x - y||
    for _ in range(20):
        x, y = rng.standard_normal(6), rng.standard_normal(6)
        assert np.linalg.norm(hess(x) - hess(y), 2) <= L2 * np.linalg.norm(x - y) * (1 + 1e-12)
    np.testing.assert_allclose(hess(np.zeros(6)), A)


def test_cubic_sublevel_radius_contains_sublevel_set():
    A, lam, L2, rng = _cubic(6)
    f, _, _ = K.cubic_test_function(A, L2)
    x0 = 2 * rng.standard_normal(6)
    R = K.cubic_sublevel_radius(lam.min(), L2, f(x0))
    assert np.linalg.norm(x0) <= R
    # points just outside the ball have f > f(x0) (checked along random directions)
    u = rng.standard_normal((200, 6))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    assert all(f(1.0001 * R * v) > f(x0) for v in u)


def test_robust_logreg_derivatives_and_constants():
    X, y = load_breast_cancer(return_X_y=True)
    X = (X - X.mean(0)) / X.std(0)
    X, y = X[:80, :6], y[:80].astype(float)
    f, grad, hess = K.robust_logreg(X, y, 0.3)
    rng = np.random.default_rng(1)
    w, h = rng.standard_normal(6), 1e-6
    fd = np.array([(f(w + h * e) - f(w - h * e)) / (2 * h) for e in np.eye(6)])
    np.testing.assert_allclose(grad(w), fd, atol=1e-6)
    fdH = np.array([(grad(w + h * e) - grad(w - h * e)) / (2 * h) for e in np.eye(6)])
    np.testing.assert_allclose(hess(w), fdH, atol=1e-6)
    L1, L2 = K.robust_logreg_constants(X, 0.3)
    for _ in range(20):
        a, b = 2 * rng.standard_normal(6), 2 * rng.standard_normal(6)
        assert np.linalg.norm(hess(a), 2) <= L1
        assert np.linalg.norm(hess(a) - hess(b), 2) <= L2 * np.linalg.norm(a - b)


def test_robust_logreg_lam0_matches_sklearn():
    X, y = load_breast_cancer(return_X_y=True)
    X = (X - X.mean(0)) / X.std(0)
    X, y = X[:, :4], y.astype(float)
    X1 = np.hstack([X, np.ones((len(X), 1))])
    f, grad, hess = K.robust_logreg(X1, y, 0.0)
    L1, L2 = K.robust_logreg_constants(X1, 0.0)
    o = K.CountingOracle(f, grad, hess)
    w, status = K.balanced_search(o, np.zeros(5), 1e-9, 4, L2, 10.0, 10_000, L1=L1)
    assert status == "critical"
    ref = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(X, y)
    np.testing.assert_allclose(w, np.r_[ref.coef_.ravel(), ref.intercept_], rtol=1e-5)


def test_counting_oracle_counts_exactly():
    calls = []
    o = K.CountingOracle(lambda x: calls.append("f") or 0.0, lambda x: calls.append("g") or -x,
                         lambda x: calls.append("h") or np.eye(2))
    x = np.array([3.0, 4.0])
    for _ in range(5):
        o.grad(x)
    o.hess(x), o.hess(x), o.value(x)
    assert (o.n_grad, o.n_hess, o.n_f) == (5, 2, 1)
    assert calls.count("g") == 5 and calls.count("h") == 2 and calls.count("f") == 1
    assert o.grad_norms == [5.0] * 5
    # GD on f = ||x||^2/2 with step 1 (L1 = 1) stops after exactly 2 gradient queries
    o2 = K.CountingOracle(lambda x: 0.5 * x @ x, lambda x: x, lambda x: np.eye(2))
    _, status = K.gradient_descent(o2, x, 1.0, 1e-8, 100)
    assert status == "critical" and o2.n_grad == 2 and o2.n_hess == 0


def test_build_bH_symmetric_pd_commutes():
    A, lam, _, _ = _cubic(10)
    bH, bH_inv = K.build_bH(A, 0.05)
    np.testing.assert_allclose(bH, bH.T, atol=1e-12)
    assert np.linalg.eigvalsh(bH).min() >= 0.05 * (1 - 1e-9)
    np.testing.assert_allclose(bH @ A, A @ bH, atol=1e-10)  # same eigenvectors
    np.testing.assert_allclose(bH @ bH_inv, np.eye(10), atol=1e-10)
    np.testing.assert_allclose(np.sort(np.linalg.eigvalsh(bH)), np.sort(np.abs(lam) + 0.05), atol=1e-10)
    # the paper's log-weighted form: small eigenvalues get the full ceil(log2(L1/delta)) weight
    bHp, _ = K.build_bH(np.diag([0.001, 8.0]), 0.01, L1=16.0, c=32.0)
    np.testing.assert_allclose(np.diag(bHp), [(0.32 + 0.001) * 11, (0.32 + 8.0) * 11 / 10])
    # sandwich: -bH <= M <= bH for any ||M - A|| <= delta
    rng = np.random.default_rng(3)
    E = rng.standard_normal((10, 10))
    E = (E + E.T) / 2
    M = A + 0.05 * E / np.linalg.norm(E, 2)
    assert np.linalg.eigvalsh(bH - M).min() >= -1e-12 and np.linalg.eigvalsh(bH + M).min() >= -1e-12


def test_preconditioned_method_on_convex_quadratic_is_o1():
    rng = np.random.default_rng(4)
    A = K.random_symmetric_matrix(np.logspace(-4, 0, 20), rng)
    o = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    x0 = rng.standard_normal(20)
    _, status = K.critical_or_progress(o, x0, K.build_bH(A, 1e-9)[1], 1e-8, 1e6, 1000)
    assert status == "critical" and o.n_grad <= 4
    o_gd = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    _, st = K.gradient_descent(o_gd, x0, 1.0, 1e-8, 1000)
    assert st == "budget" and o_gd.n_grad == 1000
    # a small ball: progress exit
    o3 = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    x, st = K.critical_or_progress(o3, x0, K.build_bH(A, 1e-9)[1], 1e-8, 0.1, 1000)
    assert st == "progress" and np.linalg.norm(x - x0) > 0.1


def test_balanced_search_respects_hessian_budget_and_trade_off():
    d, L2 = 30, 1.0
    rng = np.random.default_rng(5)
    lam = np.concatenate([-np.logspace(0, -2, d // 2), np.logspace(-2, 2, d - d // 2)])
    A = K.random_symmetric_matrix(lam, rng)
    f, grad, hess = K.cubic_test_function(A, L2)
    x0 = rng.standard_normal(d)
    x0 *= 3 / np.linalg.norm(x0)
    R = K.cubic_sublevel_radius(lam.min(), L2, f(x0))
    L1 = lam.max() + L2 * R
    counts = {}
    for n_H in (1, 8):
        o = K.CountingOracle(f, grad, hess)
        x, st = K.balanced_search(o, x0, 1e-6, n_H, L2, 2 * R, 100_000, L1=L1)
        assert st == "critical" and np.linalg.norm(grad(x)) <= 1e-6 and 1 <= o.n_hess <= n_H
        counts[n_H] = o.n_grad
    o = K.CountingOracle(f, grad, hess)
    K.gradient_descent(o, x0, L1, 1e-6, 100_000)
    assert counts[8] < counts[1] < o.n_grad


def test_cubic_newton_and_agd_reach_critical_points():
    A, lam, L2, rng = _cubic(8)
    f, grad, hess = K.cubic_test_function(A, L2)
    x0 = rng.standard_normal(8)
    o = K.CountingOracle(f, grad, hess)
    x, st = K.cubic_newton(o, x0, L2, 1e-8, 200)
    assert st == "critical" and o.n_hess == o.n_grad - 1
    assert np.linalg.eigvalsh(hess(x)).min() > -1e-6  # not a saddle: a local minimum
    R = K.cubic_sublevel_radius(lam.min(), L2, f(x0))
    o2 = K.CountingOracle(f, grad, hess)
    x2, st2 = K.agd_nonconvex(o2, x0, lam.max() + L2 * R, 1e-8, 100_000)
    assert st2 == "critical" and f(x2) <= f(x0)


def test_first_hit_and_query_counts():
    assert K.first_hit([3.0, 2.0, 0.5, 0.1], 0.5) == 3.0
    assert math.isinf(K.first_hit([3.0, 2.0], 0.5))
    A = np.diag([1.0, 4.0])
    out = K.query_counts(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A, np.ones((2, 2)), [1e-1, 1e-4],
                         {"gd": lambda o, x0, e: K.gradient_descent(o, x0, 4.0, e, 10_000)})
    g = out["gd"]["grad"]
    assert g.shape == (2, 2) and np.all(g[:, 0] < g[:, 1])
    # the first-passage count equals a fresh run stopped at the larger eps
    o = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    K.gradient_descent(o, np.ones(2), 4.0, 1e-1, 10_000)
    assert o.n_grad == g[0, 0]


@pytest.mark.parametrize("call", [
    lambda: K.cubic_test_function(np.ones((2, 3)), 1.0),
    lambda: K.cubic_test_function(np.array([[1.0, 2.0], [0.0, 1.0]]), 1.0),
    lambda: K.cubic_test_function(np.eye(2), -1.0),
    lambda: K.build_bH(np.eye(2), 0.0),
    lambda: K.build_bH(np.eye(2), 1.0, L1=0.5),
    lambda: K.balanced_search(K.CountingOracle(abs, abs, abs), np.ones(2), 1e-3, 0, 1.0, 1.0, 10),
    lambda: K.balanced_search(K.CountingOracle(abs, abs, abs), np.ones(2), 1e-3, 1, 0.0, 1.0, 10),
    lambda: K.preconditioned_agd(K.CountingOracle(abs, abs, abs), np.ones(2), 1.0, 0.0, 10),
    lambda: K.preconditioned_agd(K.CountingOracle(abs, abs, abs), np.ones(2), 1.0, 1e-3, 10, theta=1.0),
    lambda: K.robust_logreg(np.ones((3, 2)), np.array([0.0, 2.0, 1.0]), 0.1),
    lambda: K.random_symmetric_matrix(np.ones(1), np.random.default_rng(0)),
    lambda: K.CountingOracle(1, abs, abs),
    lambda: K.gradient_descent(K.CountingOracle(abs, abs, abs), np.ones(2), 0.0, 1e-3, 10),
])
def test_bad_inputs_raise(call):
    with pytest.raises(ValueError):
        call()
