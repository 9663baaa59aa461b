"""Unit tests of :mod:`repro.papers.hipe_informed_init_bo`, the kernels of ``notebooks/hipe-informed-init-bo.py``."""

import inspect

from repro.papers import hipe_informed_init_bo as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/hipe_informed_init_bo.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"




import numpy as np
import pytest
from scipy.stats import qmc


def test_gaussian_information_gain_closed_form_and_bad_input():
    assert K.gaussian_information_gain(1.0, 1.0) == pytest.approx(0.5 * np.log(2.0))
    assert K.gaussian_information_gain(0.0, 0.3) == 0.0
    v = np.array([0.5, 2.0, 10.0])
    # I(y; f) = -1/2 log(1 - rho^2) with rho^2 = v / (v + s)
    np.testing.assert_allclose(K.gaussian_information_gain(v, 0.1), -0.5 * np.log(1 - v / (v + 0.1)))
    with pytest.raises(ValueError, match="noise_var"):
        K.gaussian_information_gain(1.0, 0.0)
    with pytest.raises(ValueError, match="prior_var"):
        K.gaussian_information_gain(-1.0, 1.0)


def test_posterior_var_matches_gpytorch_free_brute_force():
    rng = np.random.default_rng(0)
    X, Xs, ls, s = rng.uniform(size=(5, 2)), rng.uniform(size=(7, 2)), np.array([0.3, 0.7]), 1e-2
    K_ = K.rbf_kernel(X, X, ls) + s * np.eye(5)
    k = K.rbf_kernel(X, Xs, ls)
    brute = 1 - np.einsum("im,ij,jm->m", k, np.linalg.inv(K_), k)
    np.testing.assert_allclose(K.gp_posterior_var(X, Xs, ls, s), brute, atol=1e-10)
    np.testing.assert_allclose(K.gp_posterior_var(np.zeros((0, 2)), Xs, ls, s), 1.0)


def test_epig_single_point_is_mutual_information_of_correlated_gaussians():
    # one observation x, one test point x*: I(y; y*) = -1/2 log(1 - rho^2), rho = k / (1 + s)
    x, xs, ls, s = np.array([[0.2, 0.4]]), np.array([[0.5, 0.1]]), np.array([0.6, 0.9]), 0.05
    k = K.rbf_kernel(x, xs, ls)[0, 0]
    rho2 = k ** 2 / (1 + s) ** 2
    assert K.epig_batch(x, xs, ls[None], None, s) == pytest.approx(-0.5 * np.log(1 - rho2), rel=1e-10)
    # at x* = x it is the information of two noisy copies of f
    assert K.epig_batch(x, x, ls[None], None, s) == pytest.approx(-0.5 * np.log(1 - 1 / (1 + s) ** 2))


def test_epig_never_decreases_when_points_are_added():
    rng = np.random.default_rng(1)
    Xs, L = qmc.Sobol(3, seed=0).random(64), K.hyper_prior_samples(3, 4, 0)
    X = rng.uniform(size=(6, 3))
    vals = [K.epig_batch(X[:k], Xs, L) for k in range(1, 7)]
    assert np.all(np.diff(vals) >= -1e-12)


def test_bald_zero_for_identical_hyperparameters_and_positive_otherwise():
    X = np.random.default_rng(2).uniform(size=(4, 2))
    same = np.tile([[0.4, 0.4]], (5, 1))
    assert abs(K.hyper_bald_batch(X, same, n_mc=32)) < 1e-10
    diff = np.array([[0.05, 0.05], [2.0, 2.0]])
    assert K.hyper_bald_batch(X, diff, n_mc=256) > 0.1
    # never above the entropy of the hyperparameter prior (log 2 for two equally weighted values)
    assert K.hyper_bald_batch(X, diff, n_mc=256) <= np.log(2) + 0.05


def test_hipe_is_epig_plus_beta_bald_and_batched_equals_single():
    rng = np.random.default_rng(3)
    Xs, L = rng.uniform(size=(20, 2)), K.hyper_prior_samples(2, 4, 1)
    B = rng.uniform(size=(3, 4, 2))
    h = K.hipe_score(B, Xs, L, beta=0.7, rng=np.random.default_rng(0))
    e = K.epig_batch(B, Xs, L)
    b = K.hyper_bald_batch(B, L, rng=np.random.default_rng(0))
    np.testing.assert_allclose(h, e + 0.7 * b)
    np.testing.assert_allclose(K.epig_batch(B[1], Xs, L), e[1])
    with pytest.raises(ValueError, match="beta"):
        K.hipe_score(B, Xs, L, beta=-1.0)


def test_greedy_epig_two_points_in_1d_are_symmetric_about_the_centre():
    cand = np.linspace(0, 1, 101)[:, None]
    Xs = np.linspace(0, 1, 201)[:, None]
    X = K.greedy_batch(lambda B: K.epig_batch(B, Xs, np.array([[0.2]])), cand, 2)
    assert X[0, 0] == pytest.approx(0.5)           # the first point goes to the centre
    # brute force over all pairs: the best 2-point batch is symmetric about the centre
    i, j = np.triu_indices(101, 1)
    pairs = np.stack([cand[i], cand[j]], 1)
    best = pairs[np.argmax(K.epig_batch(pairs, Xs, np.array([[0.2]])))]
    assert best[0, 0] + best[1, 0] == pytest.approx(1.0, abs=1e-9)
    assert 0.1 < best[0, 0] < 0.45
    with pytest.raises(ValueError, match="q must be"):
        K.greedy_batch(lambda B: np.zeros(len(B)), cand, 0)


def test_tuned_beta_zero_without_hyperparameter_uncertainty_and_small_otherwise():
    Xs = qmc.Sobol(2, seed=0).random(32)
    sob = np.stack([qmc.Sobol(2, scramble=True, seed=b).random(4) for b in range(3)])
    assert K.tuned_beta(sob, Xs, np.ones((3, 2))) == pytest.approx(0.0, abs=1e-12)
    b = K.tuned_beta(sob, Xs, K.hyper_prior_samples(2, 8, 0))
    assert 0.0 < b < np.log(8)


def test_min_pairwise_distance_and_bad_input():
    assert K.min_pairwise_distance(np.array([[0, 0], [3, 4], [0, 1.0]])) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="2 points"):
        K.min_pairwise_distance(np.zeros((1, 2)))
    with pytest.raises(ValueError, match="lengthscales"):
        K.epig_batch(np.zeros((2, 2)), np.zeros((3, 2)), -np.ones((1, 2)))
    with pytest.raises(ValueError, match="weights"):
        K.epig_batch(np.zeros((2, 2)), np.zeros((3, 2)), np.ones((2, 2)), weights=np.array([0.9, 0.9]))


def test_designs_have_the_right_shape_and_stay_in_the_cube():
    for kind in K.DESIGNS:
        X = K.initial_design(kind, 2, 4, 0, n_candidates=16, n_theta=3, n_mc=4)
        assert X.shape == (4, 2) and X.min() >= 0 and X.max() <= 1
    with pytest.raises(ValueError, match="kind"):
        K.initial_design("lhs", 2, 4, 0)
