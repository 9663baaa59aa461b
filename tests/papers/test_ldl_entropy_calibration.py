"""Unit tests of :mod:`repro.papers.ldl_entropy_calibration`, the kernels of ``notebooks/ldl-entropy-calibration.py``.

No official code was accessed (a supplementary archive on OpenReview only), so there is no golden file; the
measures are checked against hand-computed values, the bound against a numerical maximisation.
"""

import inspect

import numpy as np
import pytest
import torch
from scipy.optimize import minimize
from scipy.stats import entropy as scipy_entropy

from repro.papers import ldl_entropy_calibration as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/ldl_entropy_calibration.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


def test_entropy_matches_scipy_and_handles_zeros():
    P = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    assert K.entropy(P) == pytest.approx([scipy_entropy(p) for p in P], abs=1e-15)


def test_identical_distributions_give_perfect_measures():
    P = np.array([[0.1, 0.2, 0.7], [0.25, 0.25, 0.5]])
    m = K.ldl_measures(P, P)
    for key in ("kl", "chebyshev", "clark", "canberra"):
        assert m[key] == pytest.approx([0, 0], abs=1e-15)
    assert m["cosine"] == pytest.approx([1, 1]) and m["intersection"] == pytest.approx([1, 1])


def test_measures_by_hand():
    p, q = np.array([[0.5, 0.5, 0.0]]), np.array([[0.25, 0.25, 0.5]])
    m = K.ldl_measures(p, q)
    assert m["kl"][0] == pytest.approx(np.log(2))
    assert m["chebyshev"][0] == pytest.approx(0.5)
    assert m["canberra"][0] == pytest.approx(1 / 3 + 1 / 3 + 1)
    assert m["clark"][0] == pytest.approx(np.sqrt(1 / 9 + 1 / 9 + 1))
    assert m["intersection"][0] == pytest.approx(0.5)
    assert m["cosine"][0] == pytest.approx(0.25 / (np.sqrt(0.5) * np.sqrt(0.375)))


def test_regulariser_zero_for_spread_anchors_positive_for_cohesive_ones():
    assert float(K.angular_regularizer(torch.eye(4), 80.0)) == 0.0
    W = torch.tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert float(K.angular_regularizer(W, 80.0)) == pytest.approx((1 - np.cos(np.radians(80))) ** 2, rel=1e-6)


def test_anchor_angles():
    W = np.array([[1.0, 0.0], [0.0, 2.0], [-1.0, 0.0]])
    assert K.anchor_angles(W) == pytest.approx([90, 180, 90])


def _best_p0(W, r):
    def neg_p0(t):
        f = r * np.array([np.cos(t[0]), np.sin(t[0])])
        o = W @ f
        return -np.exp(o[0] - np.logaddexp.reduce(o))

    return max(-minimize(neg_p0, x0=[t0], method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-14}).fun
               for t0 in np.linspace(-np.pi, np.pi, 9))


def test_max_prob_bound_is_attained_for_two_anchors_and_holds_for_a_simplex():
    r = 1.5
    W2 = np.array([[2.0, 0.0], [-1.0, 1.0]])
    assert _best_p0(W2, r) == pytest.approx(K.max_prob_bound(W2, r)[0], rel=1e-6)   # f along w_0 - w_1
    W3 = np.array([[np.cos(a), np.sin(a)] for a in 2 * np.pi * np.arange(3) / 3]) * 2.0
    best, bound = _best_p0(W3, r), K.max_prob_bound(W3, r)[0]
    assert best <= bound + 1e-12 and best > 0.95 * bound        # a valid, not a tight, cap for c > 2


def test_max_prob_bound_falls_when_anchors_cohere():
    spread = np.eye(3) * 4
    cohesive = np.array([[1.0, 0.1, 0.0], [1.0, 0.0, 0.1], [1.0, 0.0, 0.0]]) * 4 / np.sqrt(1.01)
    assert np.all(K.max_prob_bound(cohesive, 1.0) < K.max_prob_bound(spread, 1.0))


def test_calibrated_aggregate_ignores_duplicated_high_entropy_samples():
    rng = np.random.default_rng(0)
    P = rng.dirichlet(np.full(4, 0.3), size=40)
    v = rng.random(40)
    tau = float(np.median(K.entropy(P)))
    high = ~K.split_by_entropy(P, tau)
    P2, v2 = np.concatenate([P, P[high]]), np.concatenate([v, v[high]])
    assert K.calibrated_aggregate(v2, P2, tau) == pytest.approx(K.calibrated_aggregate(v, P, tau), rel=1e-14)
    low = K.split_by_entropy(P, tau)
    assert K.calibrated_aggregate(v, P, tau) == pytest.approx(0.5 * (v[low].mean() + v[~low].mean()))


def test_data_and_training():
    X, P, is_low = K.make_ldl_data(300, 5, 4, 0.3, 0)
    assert X.shape == (300, 5) and P.shape == (300, 4) and np.allclose(P.sum(1), 1)
    H = K.entropy(P)
    assert H[is_low].mean() < H[~is_low].mean()
    m1, h1 = K.train_ldl(X, P, 0, steps=5, reg="angular", lam=1.0)
    m2, h2 = K.train_ldl(X, P, 0, steps=5, reg="angular", lam=1.0)
    assert h1 == h2 and torch.allclose(m1.W.norm(dim=1), torch.full((4,), m1.s))
    Q = K.predict(m1, X)
    assert Q.shape == P.shape and np.allclose(Q.sum(1), 1)


def test_bad_input():
    with pytest.raises(ValueError, match="distributions"):
        K.entropy(np.array([[0.5, 0.6]]))
    with pytest.raises(ValueError, match="same shape"):
        K.ldl_measures(np.eye(3), np.eye(2))
    with pytest.raises(ValueError, match="theta0"):
        K.angular_regularizer(torch.eye(3), 0.0)
    with pytest.raises(ValueError, match="non-empty"):
        K.calibrated_aggregate(np.ones(2), np.array([[0.5, 0.5], [0.5, 0.5]]), 0.1)
    with pytest.raises(ValueError, match="reg"):
        K.train_ldl(np.zeros((4, 2)), np.full((4, 2), 0.5), 0, steps=1, reg="dropout")
    with pytest.raises(ValueError, match="low_frac"):
        K.make_ldl_data(10, 2, 3, 1.5, 0)
