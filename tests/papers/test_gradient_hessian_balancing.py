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


def test_with_spectrum_keeps_eigenvectors_and_start_level():
    A, lam, L2, rng = _cubic(8)
    np.testing.assert_allclose(K.with_spectrum(A, lam), A, atol=1e-12)  # same spectrum: same matrix
    new = np.concatenate([-np.logspace(0, -2, 4), np.logspace(-2, 3, 4)])
    B = K.with_spectrum(A, new[::-1])
    np.testing.assert_allclose(np.linalg.eigvalsh(B), np.sort(new), atol=1e-9)
    V = np.linalg.eigh(A)[1]
    np.testing.assert_allclose(np.abs(np.sum(V * np.linalg.eigh(B)[1], axis=0)), 1.0, atol=1e-9)
    f, _, _ = K.cubic_test_function(B, L2)
    u = rng.standard_normal(8)
    x = K.cubic_start_at_level(B, L2, u, 5.0)
    assert f(x) == pytest.approx(5.0, rel=1e-10)
    np.testing.assert_allclose(x / np.linalg.norm(x), u / np.linalg.norm(u))


def test_max_hess_is_one_hessian_at_the_budgets_trust_level():
    d, L2 = 20, 1.0
    rng = np.random.default_rng(6)
    lam = np.concatenate([-np.logspace(0, -2, d // 2), np.logspace(-2, 2, d - d // 2)])
    A = K.random_symmetric_matrix(lam, rng)
    f, grad, hess = K.cubic_test_function(A, L2)
    x0 = rng.standard_normal(d)
    x0 *= 3 / np.linalg.norm(x0)
    R = K.cubic_sublevel_radius(lam.min(), L2, f(x0))
    runs = {}
    for n_H, max_hess in ((8, None), (8, 1), (1, None)):
        o = K.CountingOracle(f, grad, hess)
        _, st = K.balanced_search(o, x0, 1e-6, n_H, L2, 2 * R, 100_000, L1=lam.max() + L2 * R, max_hess=max_hess)
        assert st == "critical"
        runs[n_H, max_hess] = (o.n_grad, o.n_hess, list(o.grad_norms))
    assert runs[8, 1][1] == 1 and runs[8, None][1] > 1
    # up to the first progress exit, one Hessian at budget 8's trust level follows budget 8 exactly
    a, b = runs[8, 1][2], runs[8, None][2]
    first_diff = next(i for i, (u, v) in enumerate(zip(a, b)) if u != v)
    assert first_diff >= 2
    assert runs[8, 1][0] != runs[1, None][0]  # a smaller delta than budget 1's: another run


def test_log_weights_are_the_reported_phi():
    H = np.diag([0.001, 8.0, -3.0])
    bH, _ = K.build_bH(H, 0.01, L1=16.0, c=32.0)
    o = K.CountingOracle(lambda x: 0.0, lambda x: bH @ x, lambda x: H)
    # balanced_search with log_weights uses exactly this bH: one gradient step from x0 lands on bH^{-1}-scaled g
    x0 = np.array([1.0, 1.0, 1.0])
    K.balanced_search(o, x0, 1e-12, 1, 1.0, 0.01, 2, L1=16.0, c=32.0, log_weights=True)
    assert o.n_hess == 1 and o.grad_norms[0] == pytest.approx(np.linalg.norm(bH @ x0))
    # first step: x1 = x0 - bH^{-1} bH x0 = 0, so the second gradient is 0
    assert o.grad_norms[1] == pytest.approx(0.0, abs=1e-12)


def test_one_hessian_descent_is_preconditioned_gd():
    rng = np.random.default_rng(7)
    A = K.random_symmetric_matrix(np.logspace(-3, 1, 10), rng)
    x0 = rng.standard_normal(10)
    o = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    x, st = K.one_hessian_descent(o, x0, 1e-3, 1e-8, 1000)
    assert st == "critical" and o.n_hess == 1
    # by hand: x <- x - (|A| + delta I)^{-1} A x
    Pinv = np.linalg.inv(A + 1e-3 * np.eye(10))
    z, n = x0.copy(), 0
    while np.linalg.norm(A @ z) > 1e-8:
        z, n = z - Pinv @ (A @ z), n + 1
    assert o.n_grad == n + 1
    o2 = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    _, st2 = K.one_hessian_descent(o2, x0, 1e-3, 1e-8, 1000, theta=None)  # accelerated: not more gradients
    assert st2 == "critical" and o2.n_grad <= o.n_grad + 2


def test_newton_then_agd_spends_its_hessians_first():
    A, lam, L2, rng = _cubic(8)
    f, grad, hess = K.cubic_test_function(A, L2)
    x0 = 2 * rng.standard_normal(8)
    L1 = lam.max() + L2 * K.cubic_sublevel_radius(lam.min(), L2, f(x0))
    o = K.CountingOracle(f, grad, hess)
    x, st = K.newton_then_agd(o, x0, L2, L1, 3, 1e-8, 100_000)
    assert st == "critical" and o.n_hess == 3 and np.linalg.norm(grad(x)) <= 1e-8
    o_n = K.CountingOracle(f, grad, hess)
    K.cubic_newton(o_n, x0, L2, 1e-8, 100_000, max_hess=3)
    assert o_n.n_hess == 3 and o_n.grad_norms == o.grad_norms[:3]
    o0 = K.CountingOracle(f, grad, hess)
    K.newton_then_agd(o0, x0, L2, L1, 0, 1e-8, 100_000)
    o_agd = K.CountingOracle(f, grad, hess)
    K.agd_nonconvex(o_agd, x0, L1, 1e-8, 100_000)
    assert o0.n_hess == 0 and o0.grad_norms == o_agd.grad_norms


def test_lbfgs_counts_and_stops_at_first_hit():
    rng = np.random.default_rng(8)
    A = K.random_symmetric_matrix(np.logspace(-2, 2, 30), rng)
    o = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    x0 = rng.standard_normal(30)
    x, st = K.lbfgs(o, x0, 1e-6, 10_000)
    assert st == "critical" and o.n_hess == 0 and o.n_f == o.n_grad - 1  # the hit stops before reading f
    assert np.linalg.norm(A @ x) <= 1e-6 and o.grad_norms[-1] <= 1e-6 < min(o.grad_norms[:-1])
    o_agd = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    K.agd_nonconvex(o_agd, x0, 100.0, 1e-6, 100_000)
    assert o.n_grad < o_agd.n_grad  # quasi-Newton beats AGD at condition 1e4
    o2 = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    _, st2 = K.lbfgs(o2, rng.standard_normal(30), 1e-12, 5)
    assert st2 == "budget" and o2.n_grad == 5


def test_bfgs_counts_like_lbfgs_and_is_exact_on_a_quadratic():
    rng = np.random.default_rng(9)
    A = K.random_symmetric_matrix(np.logspace(-2, 2, 20), rng)
    x0 = rng.standard_normal(20)
    o = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    x, st = K.bfgs(o, x0, 1e-6, 10_000)
    assert st == "critical" and o.n_hess == 0 and o.n_f == o.n_grad - 1
    assert np.linalg.norm(A @ x) <= 1e-6 and o.grad_norms[-1] <= 1e-6 < min(o.grad_norms[:-1])
    # scipy's BFGS from the same start, same function: the same iterates (our wrapper only counts and stops)
    from scipy.optimize import minimize
    seen = []
    minimize(lambda z: (seen.append(np.linalg.norm(A @ z)) or 0.5 * z @ A @ z, A @ z), x0, jac=True,
             method="BFGS", options=dict(gtol=1e-6))
    assert o.grad_norms == pytest.approx(seen[:o.n_grad], rel=1e-12)
    # full memory beats memory 2 on a 20-d quadratic
    o2 = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    K.lbfgs(o2, x0, 1e-6, 10_000, memory=2)
    assert o.n_grad < o2.n_grad
    o3 = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    _, st3 = K.bfgs(o3, x0, 1e-12, 4)
    assert st3 == "budget" and o3.n_grad == 4
    # nonlinear CG through the same wrapper
    o4 = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    _, st4 = K.scipy_gradient_method(o4, x0, 1e-6, 10_000, "CG")
    assert st4 == "critical" and o4.grad_norms[-1] <= 1e-6


def test_barzilai_borwein_steps():
    A = np.diag([1.0, 10.0])
    o = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    x0 = np.array([1.0, 1.0])
    x, st = K.barzilai_borwein(o, x0, 1e-8, 1000, step0=0.05)
    assert st == "critical" and np.linalg.norm(A @ x) <= 1e-8 and o.n_hess == 0
    # by hand: the first step is step0, the second the BB step s^T s / s^T A s
    x1 = x0 - 0.05 * (A @ x0)
    s = x1 - x0
    x2 = x1 - (s @ s) / (s @ A @ s) * (A @ x1)
    assert o.grad_norms[:3] == pytest.approx([np.linalg.norm(A @ z) for z in (x0, x1, x2)], rel=1e-12)
    o2 = K.CountingOracle(lambda x: 0.5 * x @ A @ x, lambda x: A @ x, lambda x: A)
    assert K.barzilai_borwein(o2, x0, 1e-12, 3)[1] == "budget" and o2.n_grad == 3


def test_finite_difference_hessian_uses_d_plus_one_gradients():
    A, _, L2, rng = _cubic(8)
    f, grad, hess = K.cubic_test_function(A, L2)
    x = rng.standard_normal(8)
    inner = K.CountingOracle(f, grad, hess)
    o = K.FiniteDifferenceHessian(inner, step=1e-6)
    H = o.hess(x)
    np.testing.assert_allclose(H, hess(x), atol=1e-5)
    np.testing.assert_allclose(H, H.T)
    assert (inner.n_grad, inner.n_hess, o.n_grad) == (9, 0, 9)
    # the one-Hessian method on it: gradients only, d + 1 of them for the Hessian
    inner2 = K.CountingOracle(f, grad, hess)
    x0 = 2 * rng.standard_normal(8)
    R = K.cubic_sublevel_radius(-1.0, L2, f(x0))
    xs, st = K.balanced_search(K.FiniteDifferenceHessian(inner2), x0, 1e-6, 1, L2, 2 * R, 100_000)
    assert st == "critical" and inner2.n_hess == 0 and np.linalg.norm(grad(xs)) <= 1e-6
    with pytest.raises(ValueError):
        K.FiniteDifferenceHessian(inner2, step=0.0)
    with pytest.raises(ValueError):
        K.FiniteDifferenceHessian(object())


def test_delta_zero_is_the_abs_hessian_metric_and_divergence_stops():
    H = np.diag([4.0, -2.0, 0.5])
    o = K.CountingOracle(lambda x: 0.5 * x @ H @ x, lambda x: H @ x, lambda x: H)
    x0 = np.array([1.0, 1e-3, 1.0])
    # plain steps in the |H|^{-1} metric: x <- x - |H|^{-1} H x zeroes the positive directions in one step and
    # doubles the negative one at each step, so the gradient grows until the divergence stop
    x, st = K.one_hessian_descent(o, x0, 0.0, 1e-12, 1000, diverge_factor=10.0)
    assert st == "diverged" and o.n_hess == 1
    assert o.grad_norms[-1] > 10 * o.grad_norms[0] and max(o.grad_norms[:-1]) <= 10 * o.grad_norms[0]
    assert o.grad_norms[1] == pytest.approx(2 * 2e-3)  # only the negative direction is left, doubled
    assert o.n_grad < 1000
    with pytest.raises(ValueError):
        K.one_hessian_descent(K.CountingOracle(abs, abs, lambda x: np.diag([1.0, 0.0])), np.ones(2), 0.0, 1e-3, 10)
    # without a divergence stop the same run goes to its cap
    o2 = K.CountingOracle(lambda x: 0.5 * x @ H @ x, lambda x: H @ x, lambda x: H)
    assert K.one_hessian_descent(o2, x0, 0.0, 1e-12, 50)[1] == "budget" and o2.n_grad == 50


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
    lambda: K.balanced_search(K.CountingOracle(abs, abs, abs), np.ones(2), 1e-3, 2, 1.0, 1.0, 10, max_hess=3),
    lambda: K.balanced_search(K.CountingOracle(abs, abs, abs), np.ones(2), 1e-3, 2, 1.0, 1.0, 10, max_hess=0),
    lambda: K.balanced_search(K.CountingOracle(abs, abs, abs), np.ones(2), 1e-3, 2, 1.0, 1.0, 10, log_weights=True),
    lambda: K.newton_then_agd(K.CountingOracle(abs, abs, abs), np.ones(2), 1.0, 1.0, -1, 1e-3, 10),
    lambda: K.lbfgs(K.CountingOracle(abs, abs, abs), np.ones(2), 0.0, 10),
    lambda: K.lbfgs(K.CountingOracle(abs, abs, abs), np.ones(2), 1e-3, 10, memory=0),
    lambda: K.bfgs(K.CountingOracle(abs, abs, abs), np.ones(2), 1e-3, 0),
    lambda: K.barzilai_borwein(K.CountingOracle(abs, abs, abs), np.ones(2), 1e-3, 10, step0=0.0),
    lambda: K.preconditioned_agd(K.CountingOracle(abs, abs, abs), np.ones(2), 1.0, 1e-3, 10, diverge_factor=1.0),
    lambda: K.with_spectrum(np.eye(3), np.ones(2)),
    lambda: K.cubic_start_at_level(np.eye(2), 1.0, np.zeros(2), 1.0),
    lambda: K.cubic_start_at_level(np.eye(2), 1.0, np.ones(2), -1.0),
])
def test_bad_inputs_raise(call):
    with pytest.raises(ValueError):
        call()
